#!/bin/bash
# bench/dump.sh: does "qfd dump" of many ids stream in flat memory?  Peak
# RSS and wall time of a dump of 10,000 and of 100,000 ids with limits,
# on ext4 and on XFS.
#
# A benchmark, not a test: it prints numbers and fails only when it could
# not take them (or a dump lacks an id).  Run it from the top of the tree:
#
#     bench/dump.sh
#
# On the host it starts itself inside the test VM (tests/vm/run), since the
# host's kernel cannot do quotas.  In the VM, for each filesystem (a 1 GiB
# ext4 with the quota feature, a 1 GiB XFS with uquota, on loop devices)
# and each count of ids N (QFD_BENCH_COUNTS, ascending):
#
#   1. qfd set --batch gives ids FIRST .. FIRST+N-1 limits (numeric ids,
#      no passwd entries; for the larger counts only the ids not there
#      yet), untimed;
#   2. qfd dump -u MNT >FILE, timed with /usr/bin/time (wall seconds, peak
#      RSS), REPS times; the file is checked: valid JSON, N entries.
#
# dump prints each entry as Q_GETNEXTQUOTA returns it and keeps none, so
# its peak RSS should not grow with N: the table shows RSS per count, its
# ratio to the smallest count's, and the size of the document written.
#
# Settings (environment; tests/vm/run passes every QFD_* variable on):
#   QFD_BENCH_COUNTS="10000 100000"   the counts of ids
#   QFD_BENCH_REPS=3                  dumps per count (medians shown)
#   QFD_BENCH_FIRST_ID=300000         first id
#   QFD_BENCH_QFD=src/qfd             the qfd binary
#   QFD_BENCH_TIMEOUT=3600            VM timeout, seconds (host side only)
#
# Needs in the guest (from the host): e2fsprogs, xfsprogs, time
# (/usr/bin/time), jq, util-linux.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/dump.sh

. "$TOP/bench/lib.bash"
bench_enter "$@"

read -r -a COUNTS <<<"${QFD_BENCH_COUNTS:-10000 100000}"
REPS=${QFD_BENCH_REPS:-3}
FIRST=${QFD_BENCH_FIRST_ID:-300000}
# results: lines "FS IDS SECONDS RSS_KIB DOC_KIB"
bench_setup /scratch/bench-dump /usr/bin/time jq mkfs.ext4 mkfs.xfs


# grow MNT FROM TO: ids FROM .. TO-1 (relative to FIRST) get limits
grow() {
	seq $((FIRST + $2)) $((FIRST + $3 - 1)) |
		awk '{ print "#" $1, "1000K 2000K 10 20" }' >"$W/batch"
	"$QFD" set -q --batch "$W/batch" "$1" || die "qfd set --batch on $1 failed"
}

# dump_once FS MNT N: one timed dump, checked
dump_once() {
	local t rss got
	/usr/bin/time -f '%e %M' -o "$W/time" "$QFD" dump -u "$2" >"$W/dump.json" ||
		die "$1: qfd dump failed"
	read -r t rss <"$W/time"
	got=$(jq "[.filesystems[0].user.limits[] | select(.who >= $FIRST)] | length" "$W/dump.json") ||
		die "$1: the dump is not valid JSON"
	[[ $got == "$3" ]] || die "$1: the dump has $got of $3 ids"
	echo "$1 $3 $t $rss $(($(stat -c %s "$W/dump.json") / 1024))" >>"$RES"
	note "$1 $3 ids: ${t}s, $((rss / 1024)) MiB"
}

run_fs() {	# TYPE
	local type=$1 dev mnt have=0 n r
	read -r dev mnt < <(fs_make "$type")
	note "$type on $dev at $mnt"
	for n in "${COUNTS[@]}"; do
		((n > have)) || die "QFD_BENCH_COUNTS must ascend"
		grow "$mnt" "$have" "$n"
		have=$n
		for ((r = 1; r <= REPS; r++)); do
			dump_once "$type" "$mnt" "$n"
		done
	done
	fs_unmake "$type" "$dev"
}

run_fs ext4
run_fs xfs

# The table: medians over the rounds, RSS over the smallest count's.
echo
echo "qfd dump -u, $REPS rounds per count, kernel $(uname -r)"
bench_rss_table FS "$RES"
