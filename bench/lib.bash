# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.bash: what the benchmark scripts that make their own
# filesystems share.  Sourced with TOP (the tree) and ME (the script, as
# bench/NAME.sh) set.

die() {
	echo "$ME: error: $*" >&2
	exit 1
}
note() { echo "$ME: $(date -u +%T) $*" >&2; }

# An awk function for the scripts' tables: median(A, KEY, M) of the M
# values A[KEY, 1..M] (awk "$BENCH_AWK_MEDIAN"'...' puts it before a
# program).
# shellcheck disable=SC2034 # used by the scripts that source this
BENCH_AWK_MEDIAN='
	function median(a, key, m,   i, j, v, tmp) {
		for (i = 1; i <= m; i++) v[i] = a[key, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (v[j] + 0 < v[i] + 0) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
'

# bench_rss_table NAME FILE: FILE's lines "GROUP IDS SECONDS RSS_KIB
# DOC_KIB" as a table (GROUP's column called NAME): medians over the
# lines of each GROUP and IDS, and RSS over that of the GROUP's first IDS
bench_rss_table() {
	awk -v name="$1" "$BENCH_AWK_MEDIAN"'
	{ key = $1 " " $2; t[key, ++n[key]] = $3; r[key, n[key]] = $4; doc[key] = $5
	  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
	END {
		printf "%-7s %8s %9s %9s %9s %9s\n", name, "IDS", "SECONDS", "RSS-KIB", "RSS/FIRST", "DOC-KIB"
		for (i = 1; i <= k; i++) {
			key = order[i]; split(key, f, " ")
			s = median(t, key, n[key]); m = median(r, key, n[key])
			if (!(f[1] in base)) base[f[1]] = m
			printf "%-7s %8d %9.2f %9d %8.2fx %9d\n", f[1], f[2], s, m, m / base[f[1]], doc[key]
		}
	}' "$2"
}

# bench_enter ARGS...: on the host, run the script inside the test VM
# (tests/vm/run), since the host's kernel cannot do quotas, holding one of
# the machine's test-VM slots as tests/vm/check does (the lock goes with
# the descriptor through exec); in the VM, refuse to go on unless / is
# the VM's throw-away overlay.
bench_enter() {
	if [[ ${QFD_VM:-} != 1 ]]; then
		cd "$TOP"
		# shellcheck source=../tests/vm/lib/slots.bash
		. tests/vm/lib/slots.bash
		vm_slots_take 1 "$ME"
		exec tests/vm/run --timeout "${QFD_BENCH_TIMEOUT:-3600}" -- "$ME" "$@"
	fi
	[[ $(findmnt -n -o FSTYPE /) == overlay ]] ||
		die "QFD_VM=1 but / is not the test VM's overlay; refusing to make loop devices here"
	bench_aslr
}

# bench_aslr: in the VM, turn address space randomization off unless
# QFD_BENCH_ASLR=1.  Under TCG a process pays for translating every code
# block it runs, and QEMU finds a translation again only at the same
# virtual address: with randomization each run of a program translates
# all its code anew.  In the 6.1 test VM (2026-12-06) that made /bin/true
# take 23 ms of task clock instead of 3, bench/floor 32 instead of 3.3
# and "qfd --version" (12 libraries) 95 instead of 20: a start-up cost
# that grows with the code a tool touches and that hardware does not
# have (qfd --version: about 1 ms on the host).  The VM is thrown away
# after the run.  bench_aslr_said says which way it was.
bench_aslr() {
	[[ ${QFD_BENCH_ASLR:-0} == 1 ]] && return
	echo 0 >/proc/sys/kernel/randomize_va_space ||
		die "cannot turn address space randomization off (QFD_BENCH_ASLR=1 keeps it)"
}

bench_aslr_said() {
	if [[ $(cat /proc/sys/kernel/randomize_va_space) == 0 ]]; then
		echo "address space randomization off in the VM (QFD_BENCH_ASLR=1 keeps it: bench/lib.bash says why)"
	else
		echo "address space randomization on"
	fi
}

# bench_setup DIR TOOL...: QFD (QFD_BENCH_QFD, default src/qfd, made
# absolute), qfd and every TOOL found, and the work directory W=DIR with
# an empty results file RES
bench_setup() {
	local t
	QFD=${QFD_BENCH_QFD:-$TOP/src/qfd}
	[[ $QFD == /* ]] || QFD=$TOP/$QFD
	W=$1
	shift
	for t in "$QFD" "$@"; do
		command -v "$t" >/dev/null || die "$t not found (see the list of packages above)"
	done
	mkdir -p "$W"
	RES=$W/results
	: >"$RES"
}

# fs_make TYPE: a 1 GiB ext4 (quota feature) or XFS with user quotas on a
# loop device in $W, mounted at $W/TYPE; prints "DEV MNT"
fs_make() {
	local type=$1 img=$W/$1.img mnt=$W/$1 dev
	truncate -s 1G "$img"
	case $type in
	ext4) mkfs.ext4 -q -F -O quota -E quotatype=usrquota "$img" ;;
	xfs) mkfs.xfs -q -f "$img" ;;
	esac
	dev=$(losetup -f --show "$img")
	mkdir -p "$mnt"
	case $type in
	ext4) mount -o usrquota "$dev" "$mnt" ;;
	xfs) mount -o uquota "$dev" "$mnt" ;;
	esac
	echo "$dev $mnt"
}

# fs_unmake TYPE DEV: undo fs_make TYPE (unmount, detach DEV, remove the
# image)
fs_unmake() {
	umount "$W/$1"
	losetup -d "$2"
	rm -f "$W/$1.img"
}
