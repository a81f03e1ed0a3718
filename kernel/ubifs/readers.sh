#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel/ubifs/readers.sh: what every reader of UBIFS does with a volume
# that the quota series wrote: the stock module of the same kernel, the
# newest fsck.ubifs (mtd-utils from Debian sid, which brought fsck.ubifs in
# 2.3), and the patched module again after each of them.  It prints one
# table per kernel (kernel/README, "What other readers do with a quota
# volume").
#
#     kernel/ubifs/readers.sh [--kernel 6.1|6.12|testing]...   (default: 6.1, 6.12)
#
# On the host, as root: it builds (or finds) the series' module for each
# kernel (kernel/ubifs/build.sh), fetches sid's mtd-utils with the
# libraries it loads into the cache (bench/peers.sh's sid_tree: unpacked
# packages run through their own dynamic loader, never installed), and
# runs itself in the test VM (tests/vm/run) on a simulated NAND.  Nothing
# of the host is touched.  A report, not a test: it fails only when it
# could not run a step, never on what a reader did.
set -euo pipefail
{

ME=kernel/ubifs/readers.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)

die() {
	echo "$ME: error: $*" >&2
	exit 1
}

# ------------------------------------------------------------------ guest

# The ids that own files and carry limits, and the limits set on uid 2001
# (space in KiB, as qfd get -J reports them).
OWNERS=(2001 2002 2003)
BHARD_KIB=1024
IHARD=10

# fsck_ubifs ARGS...: the fsck.ubifs of this run: sid's, through its own
# loader, or the one given with --fsck
fsck_ubifs() {
	local root=$QFD_READERS_TREE/root
	if [[ -n ${QFD_READERS_FSCK-} ]]; then
		"$QFD_READERS_FSCK" "$@"
		return
	fi
	"$root/usr/lib64/ld-linux-x86-64.so.2" --inhibit-cache \
		--library-path "$root/usr/lib/x86_64-linux-gnu" --argv0 fsck.ubifs \
		"$root/usr/sbin/fsck.ubifs" "$@"
}

# row READER ACTION RESULT: one line of the table
row() {
	printf '%-30s %-34s %s\n' "$1" "$2" "$3"
}

# get ID COLUMNS: ID's values in COLUMNS, bytes, one line
get() {
	"$QFD" get -u -r -n -b -N -o "$2" "$MNT" "$1"
}

# quota_state: "quota on, limits kept" or what differs, for the patched
# module's view of the mounted volume
quota_state() {
	local out
	out=$(get 2001 SPACE-HARD,FILES-HARD 2>&1) || { echo "no quota: ${out%%$'\n'*}"; return; }
	if [[ $out == "$((BHARD_KIB * 1024)) $IHARD" ]]; then
		echo "quota on, limits kept"
	else
		echo "quota on, limits LOST ($out)"
	fi
}

# usage_state: whether the usage of every owner equals what its files use
# (st_blocks in bytes, and the count of inodes, from find)
usage_state() {
	local id want got
	for id in "${OWNERS[@]}"; do
		want=$(find "$MNT" -xdev -uid "$id" -printf '%b\n' | awk '{ s += $1 * 512; n++ } END { printf "%d %d", s, n }')
		got=$(get "$id" SPACE,FILES) || { echo "usage unreadable"; return; }
		[[ $want == "$got" ]] || { echo "usage WRONG for $id: $got, files say $want"; return; }
	done
	echo "usage exact"
}

guest() {
	# shellcheck source=../../tests/vm/lib/fs.bash
	. "$TOP/tests/vm/lib/fs.bash"
	local stock out rc lf
	MNT=$(fs_ubifs rd -o usrquota,grpquota) || die "no quota UBIFS"
	mkdir "$MNT/d"
	for id in "${OWNERS[@]}"; do
		head -c 12288 /dev/zero >"$MNT/d/f$id"
		chown "$id:$id" "$MNT/d/f$id"
	done
	"$QFD" set -q -u "$MNT" 2001 --bhard "${BHARD_KIB}K" --ihard "$IHARD"
	row "ubifs.ko + series" "quota mount, files, limits" "$(quota_state), $(usage_state)"
	fs_umount rd

	stock=$(ubifs_stock_ko) || die "no stock ubifs.ko for $(uname -r)"
	rmmod ubifs
	insmod "$stock"
	if fs_mount rd defaults; then
		head -c 8192 /dev/zero >"$MNT/d/new"
		chown 2002:2002 "$MNT/d/new"
		rm "$MNT/d/f2003"
		row "stock ubifs.ko" "mount, add and remove files" "mounts read-write, no quota"
		fs_umount rd
	else
		row "stock ubifs.ko" "mount" "REFUSES the volume"
	fi
	rmmod ubifs
	modprobe ubifs
	fs_mount rd usrquota,grpquota || die "the series does not mount it after the stock module"
	row "ubifs.ko + series" "quota mount after the stock one" "$(quota_state), $(usage_state)"
	fs_umount rd

	# fsck.ubifs wants the volume attached and unmounted; fs.bash's
	# _fs_img of a UBIFS is its MTD ("mtdN")
	ubidetach -d 0 >/dev/null
	# shellcheck disable=SC2154 # set by fs_mount (fs.bash)
	ubiattach -m "${_fs_img#mtd}" -d 0 >/dev/null
	rc=0
	out=$(fsck_ubifs -n /dev/ubi0_0 2>&1) || rc=$?
	row "fsck.ubifs $QFD_READERS_VERSION -n" "check only" "exit $rc$(fsck_problems "$out")"
	rc=0
	out=$(fsck_ubifs -a /dev/ubi0_0 2>&1) || rc=$?
	row "fsck.ubifs $QFD_READERS_VERSION -a" "safe repair" "exit $rc$(fsck_problems "$out")"

	fs_mount rd usrquota,grpquota || die "the series does not mount it after fsck.ubifs"
	lf=$(lost_found)
	row "ubifs.ko + series" "quota mount after fsck.ubifs -a" "$(quota_state), $(usage_state)${lf:+; in the tree: $lf}"
	if [[ -n $lf ]]; then
		# what a root who tidies lost+found does to the quota files
		rm -f "$MNT"/lost+found/*
		fs_umount rd
		fs_mount rd usrquota,grpquota || die "the series does not mount it after lost+found was emptied"
		row "ubifs.ko + series" "quota mount, lost+found emptied" "$(quota_state), $(usage_state)"
	fi
	fs_teardown
	rebuild
}

# rebuild: a new quota volume handed to fsck.ubifs -y -b, the mode that
# would also rebuild a damaged index (on a sound one it repairs as -y)
rebuild() {
	local rc=0 out lf
	MNT=$(fs_ubifs rd -o usrquota,grpquota) || die "no quota UBIFS"
	head -c 12288 /dev/zero >"$MNT/f"
	chown 2001:2001 "$MNT/f"
	"$QFD" set -q -u "$MNT" 2001 --bhard "${BHARD_KIB}K" --ihard "$IHARD"
	fs_umount rd
	ubidetach -d 0 >/dev/null
	ubiattach -m "${_fs_img#mtd}" -d 0 >/dev/null
	out=$(fsck_ubifs -y -b /dev/ubi0_0 2>&1) || rc=$?
	row "fsck.ubifs $QFD_READERS_VERSION -y -b" "repair a new quota volume" "exit $rc$(fsck_problems "$out")"
	fs_mount rd usrquota,grpquota || die "the series does not mount it after fsck.ubifs -y -b"
	lf=$(lost_found)
	row "ubifs.ko + series" "quota mount after the rebuild" "$(quota_state)${lf:+; in the tree: $lf}"
	fs_teardown
}

# lost_found: what lost+found holds, names, sizes and modes, on one line
lost_found() {
	[[ -d $MNT/lost+found ]] || return 0
	(cd "$MNT" && find lost+found -mindepth 1 -printf '%p (%s bytes, mode %m) ') | sed 's/ $//'
}

# fsck_problems OUTPUT: ", problems: ..." (the distinct problem lines of
# fsck.ubifs, ino numbers kept), or nothing
fsck_problems() {
	local p
	p=$(sed -n 's/.*problem: //p' <<<"$1" | sort -u | paste -s -d ';' -)
	[[ -z $p ]] || printf ', problems: %s' "$p"
}

if [[ ${1-} == --guest ]]; then
	guest
	exit 0
fi

# ------------------------------------------------------------------- host

usage() {
	cat <<EOF
Usage: $ME [--kernel 6.1|6.12|testing]... [--ko MODULE] [--fsck PROGRAM]

Write a UBIFS with the quota series (quota files, limits, files of three
owners), then hand it to the stock module of the same kernel, to sid's
fsck.ubifs (-n, then -a) and to the patched module again after each, and
print what each reader did.  Default: 6.1 and 6.12; testing is Debian
testing's 7.2 with kernel/ubifs/patches-7.2.  Runs in the test VM
(tests/vm/run); needs root (the VM's cache) and the network the first
time (Debian sid's mtd-utils, Debian's kernels).

  --ko MODULE     this ubifs.ko instead of the series' (one --kernel only:
                  an experiment, e.g. from kernel/ubifs/build.sh --patch)
  --fsck PROGRAM  run the table a second time with this fsck.ubifs (e.g.
                  one built by kernel/mtd-utils/build.sh)
EOF
}

# bad WHAT: a usage error, one line, exit 2
bad() {
	echo "$ME: $* (--help)" >&2
	exit 2
}

kernels=()
ko=
fsck=
while (($#)); do
	case $1 in
	--kernel) kernels+=("${2:?--kernel needs 6.1, 6.12 or testing}"); shift 2 ;;
	--ko)
		ko=$(realpath -e -- "${2:?--ko needs a module}" 2>/dev/null) ||
			bad "--ko: no such module: $2"
		shift 2 ;;
	--fsck)
		fsck=$(realpath -e -- "${2:?--fsck needs a program}" 2>/dev/null) ||
			bad "--fsck: no such program: $2"
		[[ -x $fsck ]] || bad "--fsck: $2 is not executable"
		shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) bad "unknown argument '$1'" ;;
	esac
done
((${#kernels[@]})) || kernels=(6.1 6.12)
[[ -z $ko ]] || ((${#kernels[@]} == 1)) || bad "--ko goes with one --kernel"
for k in "${kernels[@]}"; do
	[[ $k == 6.1 || $k == 6.12 || $k == testing ]] ||
		bad "no series for kernel '$k': 6.1, 6.12 or testing"
done

# shellcheck source=../lib.bash
. "$TOP/kernel/lib.bash"
# shellcheck source=../../bench/peers.sh
. "$TOP/bench/peers.sh"
tree=$(sid_tree "usr/sbin/fsck.ubifs" mtd-utils) || die "cannot fetch sid's mtd-utils"
version=$(awk '$1 == "mtd-utils" { v = $2; sub(/^[0-9]*:/, "", v); print v }' "$tree/packages")
qfd=${QFD:-$TOP/src/qfd}
[[ -x $qfd ]] || die "no $qfd: build qfd first (README)"

# table KERNEL MODULE [FSCK]: one VM, one table
table() {
	local k=$1 m=$2 f=${3-} label=${version%-*}
	[[ -z $f ]] || label+=+local
	echo "== Debian's $k kernel, module $m, fsck.ubifs ${f:-of mtd-utils $version (Debian sid)}, $(date -u +%Y-%m-%d)"
	printf '%-30s %-34s %s\n' READER ACTION RESULT
	QFD=$qfd QFD_READERS_TREE=$tree QFD_READERS_VERSION=$label QFD_READERS_FSCK=$f \
		"$TOP/tests/vm/run" --kernel "$k" --ubifs-ko "$m" \
		--env QFD --env QFD_READERS_TREE --env QFD_READERS_VERSION \
		--env QFD_READERS_FSCK -- "$HERE/readers.sh" --guest
}

for k in "${kernels[@]}"; do
	m=$ko
	if [[ -z $m ]]; then
		case $k in
		6.1) m=$("$HERE/build.sh" -q) ;;
		6.12) m=$("$HERE/build.sh" --kernel 6.12 -q) ;;
		testing) m=$("$HERE/build.sh" --kernel testing -q) ;;
		esac
	fi
	table "$k" "$m"
	[[ -z $fsck ]] || table "$k" "$m" "$fsck"
done
exit 0
}
