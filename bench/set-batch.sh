#!/bin/bash
# bench/set-batch.sh: how fast, and in how much memory, "qfd set --batch"
# applies limits for 100,000 ids, next to the classic ways of doing it:
# setquota -b (quota-tools) on ext4, and xfs_quota "limit" commands on XFS,
# each in two versions: the host's (Debian 12: quota-tools 4.06, xfsprogs
# 6.1) and the newest, Debian sid's (4.11 and 7.2 when this was written;
# bench/peers.sh fetches them into the cache and they run through their
# own dynamic loader in the same VM, on the same mounts).
#
# A benchmark, not a test: it prints numbers and fails only when it could
# not take them.  Run it from the top of the tree:
#
#     bench/set-batch.sh
#
# On the host it starts itself inside the test VM (tests/vm/run), since the
# host's kernel cannot do quotas.  In the VM, for each filesystem (a 1 GiB
# ext4 with the quota feature, a 1 GiB XFS with uquota, on loop devices):
#
#   1. create: qfd set --batch gives N new ids (numeric, no passwd entries)
#      their first limits: the kernel allocates N quota entries;
#   2. REPS rounds of "change every limit of every id": the host's peer
#      with values A, then qfd with values B, then the newest peer with
#      values A again (then the floor, below, with values of its own), so
#      that every run really writes all N entries (each undoes the values
#      of the run before it), on warm entries;
#   3. qfd again with values B (after an untimed run that sets them):
#      nothing to change, the idempotent re-run that provisioning repeats
#      every time (the peers have no such mode: they write every entry
#      again);
#   4. on ext4, qfd with plain "ID" lines instead of "#ID": the same work
#      plus the name lookup a plain number costs (see below).
#
# Beside them, in each round of step 2, the floor: bench/set-floor.c, a
# bare loop of one Q_GETQUOTA and one Q_XSETQLIM per id through
# quotactl_fd (what qfd's reads and writes are, without parsing, names,
# comparison or undo), with values of its own so that it writes too;
# then "floor2", the same calls with every read first and every write
# after (set-floor two-passes), the order qfd keeps when a request needs
# the kernel's entry checked before the first write.  On ext4 with the
# N entries cached that order costs the kernel more (bench/README).
#
# Every run is timed with /usr/bin/time (wall seconds, peak RSS); the
# table at the end has the medians and the peer/qfd ratios.  All runs
# send their output to /dev/null; qfd runs with -q.
#
# The peers, made as fast as they go:
#   - setquota -u -b DEVICE reads "ID KSOFT KHARD ISOFT IHARD" lines from
#     stdin (KiB blocks): one process, one quotactl(Q_SETQUOTA) per line on
#     the block device;
#   - xfs_quota takes one "limit" command per id, either as -c arguments
#     (as many per process as ARG_MAX allows: xargs splits them) or on
#     standard input.  The script times both ways on 10,000 ids first and
#     uses the faster one (for each version of xfs_quota).
#
# Why qfd gets "#ID" lines: "#ID" is qfd's way to say "a number".  A plain
# number is also looked up as a name (a user may be called "1234"), and a
# name missing from qfd's one-pass cache is then asked of NSS with
# getpwnam(), in case the database cannot be listed (LDAP): in the guest
# that costs ~1.7 ms per line (nss-systemd), 100,000 lines ~3 minutes.
# setquota takes a number as a number without asking.  The plain-ID run
# shows that cost; ids.c could skip the NSS call for all-digit names.
#
# Settings (environment; tests/vm/run passes every QFD_* variable on):
#   QFD_BENCH_IDS=100000       ids (= batch lines)
#   QFD_BENCH_REPS=2           rounds of step 2 (the median is shown)
#   QFD_BENCH_FIRST_ID=300000  first id (ids are consecutive)
#   QFD_BENCH_QFD=src/qfd      the qfd binary
#   QFD_BENCH_PLAIN=1          also time plain "ID" lines (ext4), 0: not
#   QFD_BENCH_TIMEOUT=3600     VM timeout, seconds (host side only)
#
# Needs in the guest (from the host): e2fsprogs, xfsprogs, quota (setquota),
# time (/usr/bin/time), util-linux.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/set-batch.sh

# shellcheck source=lib.bash
. "$TOP/bench/lib.bash"
# shellcheck source=peers.sh
. "$TOP/bench/peers.sh"
if [[ ${QFD_VM:-} != 1 ]]; then
	# built here: under TCG the guest's compiler takes a minute
	cc -O2 -Wall -Werror -o "$TOP/bench/set-floor" "$TOP/bench/set-floor.c"
	# the newest peers, fetched here: the guest has no network
	# shellcheck source=../kernel/lib.bash
	. "$TOP/kernel/lib.bash"
	QFD_BENCH_PEERS=$(peers_fetch) || die "cannot fetch the sid peers (bench/peers.sh)"
	export QFD_BENCH_PEERS
fi
bench_enter "$@"

N=${QFD_BENCH_IDS:-100000}
REPS=${QFD_BENCH_REPS:-2}
FIRST=${QFD_BENCH_FIRST_ID:-300000}
FLOOR=$TOP/bench/set-floor
# results: lines "FS TOOL STEP SECONDS RSS_KIB"
bench_setup /scratch/bench-set "$FLOOR" /usr/bin/time setquota xfs_quota mkfs.ext4 mkfs.xfs
peers_load "${QFD_BENCH_PEERS:?}" || die "cannot run the sid peers"
SQ_OLD=setquota-$REPQUOTA_OLD_V SQ_NEW=setquota-$REPQUOTA_NEW_V
XQ_OLD=xfs_quota-$XFS_QUOTA_OLD_V XQ_NEW=xfs_quota-$XFS_QUOTA_NEW_V
# xfs_quota 7.2 as one command word, for xargs and sh -c below: the loader
# line in a script (one more exec per xfs_quota process, of which there
# are a handful per run)
printf '#!/bin/sh\nexec %s "$@"\n' "$(printf '%q ' "${XFS_QUOTA_NEW[@]}")" >"$W/xfs_quota-new"
chmod +x "$W/xfs_quota-new"

# ------------------------------------------------------------ input files
# The same limits in each tool's own syntax.  Values A and B differ in all
# four fields, so that going from one to the other writes everything.
note "making batch files for $N ids"
last=$((FIRST + N - 1))
mkbatch() {	# FILE PREFIX KSOFT KHARD ISOFT IHARD SUFFIX
	seq "$FIRST" "$last" |
		awk -v p="$2" -v a="$3" -v b="$4" -v c="$5" -v d="$6" -v s="$7" \
			'{ print p $1, a s, b s, c, d }' >"$1"
}
mkbatch "$W/qfd-0.txt" "#" 1000 2000 10 20 K
mkbatch "$W/qfd-B.txt" "#" 20000 40000 200 400 K
mkbatch "$W/qfd-C.txt" "" 30000 60000 300 600 K
mkbatch "$W/setquota-A.txt" "" 10000 20000 100 200 ""
seq "$FIRST" "$last" |
	awk '{ print "limit -u bsoft=10000k bhard=20000k isoft=100 ihard=200 " $1 }' \
		>"$W/xfs-A.cmds"

# ------------------------------------------------------------ filesystems

# timed FS TOOL STEP CMD...: run CMD with stdout and stderr to a log, and
# record wall seconds and peak RSS.  A failing CMD stops the benchmark.
timed() {
	local fs=$1 tool=$2 step=$3 log=$W/log.$1.$2.$3 t
	shift 3
	if ! /usr/bin/time -f '%e %M' -o "$W/time" "$@" >"$log" 2>&1; then
		tail -n 5 "$log" >&2
		die "$fs $tool $step failed"
	fi
	read -r t rss <"$W/time"
	echo "$fs $tool $step $t $rss" >>"$RES"
	note "$fs $tool $step: ${t}s, $((rss / 1024)) MiB"
}

# check FS MNT ID WANT: the limits qfd reads back for ID
check() {
	local got
	got=$("$QFD" get -J "$2" "#$3" | jq -r '.quotas[0] | "\(.["space-soft"]) \(.["space-hard"]) \(.["files-soft"]) \(.["files-hard"])"')
	[[ $got == "$4" ]] || die "$1: id $3 has '$got', expected '$4'"
}
F_VALS="40960000 81920000 400 800"
G_VALS="51200000 102400000 500 1000"
A_VALS="10240000 20480000 100 200"
B_VALS="20480000 40960000 200 400"
C_VALS="30720000 61440000 300 600"

# xfs_quota_c XQ MNT CMDFILE: the commands as -c arguments to XQ (the
# xfs_quota to run), as many per process as ARG_MAX allows (xargs splits
# them).  Each is one argument, "-cCOMMAND", so that a split never
# separates -c from its command.  The argument file is made first, untimed.
xfs_quota_c() {
	awk '{ printf "-c%s%c", $0, 0 }' "$3" >"$3.args"
	# shellcheck disable=SC2016 # expanded by sh
	/usr/bin/time -f '%e %M' -o "$W/time" \
		xargs -0 -s "$(($(getconf ARG_MAX) - 65536))" -a "$3.args" \
		sh -c 'xq=$1 mnt=$2; shift 2; exec "$xq" -x "$@" "$mnt"' sh "$1" "$2" >/dev/null
}

# xfs_quota_stdin XQ MNT CMDFILE: the commands on standard input
xfs_quota_stdin() {
	/usr/bin/time -f '%e %M' -o "$W/time" "$1" -x "$2" <"$3" >/dev/null
}

# Which way is faster for xfs_quota XQ: try both on PROBE ids, untimed in
# the table.  Returns the name of the function to use.
xfs_probe() {	# XQ MNT
	local probe=$((N < 10000 ? N : 10000)) s c
	head -n "$probe" "$W/xfs-A.cmds" >"$W/xfs-probe.cmds"
	xfs_quota_stdin "$1" "$2" "$W/xfs-probe.cmds" || die "$1 from stdin failed"
	read -r s _ <"$W/time"
	xfs_quota_c "$1" "$2" "$W/xfs-probe.cmds" || die "$1 -c failed"
	read -r c _ <"$W/time"
	note "$1, $probe limits: commands on stdin ${s}s, as -c arguments ${c}s" >&2
	awk -v s="$s" -v c="$c" 'BEGIN { exit !(c < s) }' && echo xfs_quota_c || echo xfs_quota_stdin
}

# record FS TOOL STEP: what the last /usr/bin/time wrote
record() {
	local t rss
	read -r t rss <"$W/time"
	echo "$1 $2 $3 $t $rss" >>"$RES"
	note "$1 $2 $3: ${t}s, $((rss / 1024)) MiB"
}

run_fs() {	# TYPE
	local type=$1 dev mnt peer r xfs_way xfs_way_new
	read -r dev mnt < <(fs_make "$type")
	note "$type on $dev at $mnt"
	timed "$type" qfd create "$QFD" set -q --batch "$W/qfd-0.txt" "$mnt"
	check "$type" "$mnt" "$last" "1024000 2048000 10 20"
	if [[ $type == xfs ]]; then
		peer="$XQ_OLD $XQ_NEW"
		xfs_way=$(xfs_probe xfs_quota "$mnt")
		xfs_way_new=$(xfs_probe "$W/xfs_quota-new" "$mnt")
		# the probe set values A on some ids: back to the created state
		"$QFD" set -q --batch "$W/qfd-0.txt" "$mnt"
	else
		peer="$SQ_OLD $SQ_NEW"
	fi
	for ((r = 1; r <= REPS; r++)); do
		if [[ $type == ext4 ]]; then
			timed "$type" "$SQ_OLD" change setquota -u -b "$dev" <"$W/setquota-A.txt"
		else
			"$xfs_way" xfs_quota "$mnt" "$W/xfs-A.cmds" || die "xfs_quota failed"
			record "$type" "$XQ_OLD" change
		fi
		check "$type" "$mnt" "$FIRST" "$A_VALS"
		check "$type" "$mnt" "$last" "$A_VALS"
		timed "$type" qfd change "$QFD" set -q --batch "$W/qfd-B.txt" "$mnt"
		check "$type" "$mnt" "$last" "$B_VALS"
		# the newest peer, back to values A: the same DEVICE argument
		# and the same input as the host's
		if [[ $type == ext4 ]]; then
			timed "$type" "$SQ_NEW" change "${SETQUOTA_NEW[@]}" -u -b "$dev" <"$W/setquota-A.txt"
		else
			"$xfs_way_new" "$W/xfs_quota-new" "$mnt" "$W/xfs-A.cmds" ||
				die "xfs_quota $XFS_QUOTA_NEW_V failed"
			record "$type" "$XQ_NEW" change
		fi
		check "$type" "$mnt" "$FIRST" "$A_VALS"
		check "$type" "$mnt" "$last" "$A_VALS"
		# shellcheck disable=SC2086
		timed "$type" floor change "$FLOOR" "$mnt" "$FIRST" "$N" $F_VALS
		check "$type" "$mnt" "$last" "$F_VALS"
		# shellcheck disable=SC2086
		timed "$type" floor2 change "$FLOOR" "$mnt" "$FIRST" "$N" $G_VALS two-passes
		check "$type" "$mnt" "$last" "$G_VALS"
	done
	# values B, untimed, so that the re-run has nothing to write
	"$QFD" set -q --batch "$W/qfd-B.txt" "$mnt"
	timed "$type" qfd rerun "$QFD" set -q --batch "$W/qfd-B.txt" "$mnt"
	if [[ $type == ext4 && ${QFD_BENCH_PLAIN:-1} == 1 ]]; then
		timed "$type" qfd-plainid change "$QFD" set -q --batch "$W/qfd-C.txt" "$mnt"
		check "$type" "$mnt" "$last" "$C_VALS"
	fi
	echo "$type $peer" >>"$W/peers"	# FS OLD-PEER NEW-PEER
	fs_unmake "$type" "$dev"
}

: >"$W/peers"
note "qfd: $("$QFD" --version); kernel $(uname -r); $N ids, $REPS rounds"
note "peers: $SQ_OLD, $XQ_OLD (host), $SQ_NEW, $XQ_NEW (sid: $PEERS_VERSIONS)"
run_fs ext4
run_fs xfs

# ------------------------------------------------------------ the table
median() {	# FS TOOL STEP FIELD(4 = seconds, 5 = RSS)
	awk -v f="$1" -v t="$2" -v s="$3" -v k="$4" \
		'$1 == f && $2 == t && $3 == s { print $k }' "$RES" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
maxrss() {
	awk -v f="$1" -v t="$2" -v s="$3" \
		'$1 == f && $2 == t && $3 == s && $5 > m { m = $5 } END { print m + 0 }' "$RES"
}
echo
echo "qfd set --batch vs. the peers: $N ids, $(uname -r) under TCG, medians of $REPS rounds"
echo "qfd $("$QFD" --version 2>&1 | sed -n '1s/^qfd //p') (tree $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?'));" \
	"peers: $SQ_OLD and $XQ_OLD (Debian 12, the host's), $SQ_NEW and $XQ_NEW" \
	"(Debian sid: $PEERS_VERSIONS; own loader)" | fold -s -w 78
bench_aslr_said
printf '%-5s %-16s %-13s %9s %9s %12s %12s %11s\n' FS TOOL STEP SECONDS RSS-MIB "TIME/QFD" "RSS/QFD" "TIME/FLOOR"
while read -r fs peer peer_new; do
	qs=$(median "$fs" qfd change 4)
	qr=$(maxrss "$fs" qfd change)
	fl=$(median "$fs" floor change 4)
	for row in "floor change" "floor2 change" "qfd create" "qfd change" "$peer change" "$peer_new change" \
		"qfd rerun" "qfd-plainid change"; do
		read -r tool step <<<"$row"
		s=$(median "$fs" "$tool" "$step" 4)
		[[ -n $s ]] || continue
		r=$(maxrss "$fs" "$tool" "$step")
		awk -v fs="$fs" -v t="$tool" -v st="$step" -v s="$s" -v r="$r" -v qs="$qs" -v qr="$qr" -v fl="${fl:-0}" 'BEGIN {
			printf "%-5s %-16s %-13s %9.2f %9.1f %12s %12s %11s\n", fs, t, st, s, r / 1024,
				(qs > 0 ? sprintf("%.2fx", s / qs) : "-"), (qr > 0 ? sprintf("%.2fx", r / qr) : "-"),
				(fl > 0 ? sprintf("%.2fx", s / fl) : "-") }'
	done
done <"$W/peers"
echo
echo "TIME/QFD and RSS/QFD compare with 'qfd change' on the same filesystem (>1: qfd is faster / smaller)."
echo "TIME/FLOOR: time / the floor (bench/set-floor.c: Q_GETQUOTA + Q_XSETQLIM per id) on the same filesystem."
echo "floor2: the same calls, every read first and then every write (set-floor two-passes)."
echo "create: N new entries; change: all N entries rewritten; rerun: same values again (qfd writes nothing)."
