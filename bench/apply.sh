#!/bin/bash
# bench/apply.sh: does "qfd apply" of many ids cost what "qfd set --batch"
# of the same limits costs?  Issue 15 asks for at most 1.1x.
#
# A benchmark, not a test: it prints numbers and fails only when it could
# not take them (or a run left a limit unset).  Run it from the top of the
# tree:
#
#     bench/apply.sh
#     QFD_BENCH_IDS=20000 QFD_BENCH_REPS=3 bench/apply.sh
#
# On the host it starts itself inside the test VM (tests/vm/run), since the
# host's kernel cannot do quotas.  In the VM, on a 1 GiB ext4 (quota
# feature) and a 1 GiB XFS (uquota) on loop devices:
#
#   1. qfd set --batch gives ids FIRST .. FIRST+N-1 their first limits
#      (numeric ids, no passwd entries), untimed;
#   2. REPS rounds, each of four timed runs (/usr/bin/time: wall seconds,
#      peak RSS) that all change every id, because each writes other
#      values than the run before it:
#        batch   qfd set --batch FILE MNT   ("#ID KSOFT KHARD ISOFT IHARD")
#        apply   qfd apply FILE             (the same limits as JSON)
#      batch with values A, apply with values B, so that each finds the
#      other's values in the kernel and writes every id;
#   3. the first and last id are read back with qfd get after the last run.
#
# Both commands plan everything before the first write (every entry read)
# and write only what differs, so the difference between them is JSON
# (the streaming reader's parse of a 10 MiB document, the names'
# resolution) against the batch parser.  bench/apply-rss.sh measures
# apply's memory on the host.
#
# Settings (environment; tests/vm/run passes every QFD_* variable on):
#   QFD_BENCH_IDS=100000        ids
#   QFD_BENCH_REPS=3            rounds (medians shown)
#   QFD_BENCH_FIRST_ID=300000   first id
#   QFD_BENCH_QFD=src/qfd       the qfd binary (a plain -O2 build measures
#                               qfd, a sanitizer build mostly the sanitizers)
#   QFD_BENCH_BASE=             another qfd binary (an older build) timed in
#                               the same rounds, right after QFD, as
#                               "obatch" and "oapply": before and after
#                               under the same load
#   QFD_BENCH_TIMEOUT=3600      VM timeout, seconds (host side only)
#
# Needs in the guest (from the host): e2fsprogs, xfsprogs, time
# (/usr/bin/time), util-linux.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/apply.sh

. "$TOP/bench/lib.bash"
# the host's load, which slows the VM's one CPU: said with the results
[[ ${QFD_VM:-} == 1 ]] || export QFD_BENCH_HOST_LOAD=${QFD_BENCH_HOST_LOAD:-$(cut -d' ' -f1-3 /proc/loadavg)}
bench_enter "$@"

N=${QFD_BENCH_IDS:-100000}
REPS=${QFD_BENCH_REPS:-3}
FIRST=${QFD_BENCH_FIRST_ID:-300000}
# results: lines "FS TOOL SECONDS RSS_KIB"
bench_setup /scratch/bench-apply /usr/bin/time mkfs.ext4 mkfs.xfs
BASE=${QFD_BENCH_BASE:-}
[[ -z $BASE || -x $BASE ]] || die "QFD_BENCH_BASE: $BASE is not an executable"

# inputs VALUE: $W/batch-VALUE.txt and $W/apply-VALUE.json, for the mount
# point $MNT, with space limits VALUE KiB / 2*VALUE KiB and inode limits
# VALUE / 2*VALUE for every id
inputs() {
	local v=$1
	seq "$FIRST" $((FIRST + N - 1)) |
		awk -v v="$v" '{ print "#" $1, v "K", 2 * v "K", v, 2 * v }' \
			>"$W/batch-$v.txt"
	seq "$FIRST" $((FIRST + N - 1)) | awk -v v="$v" -v mnt="$MNT" '
		BEGIN { printf "{ \"filesystems\": [ { \"path\": \"%s\",\n  \"user\": { \"limits\": [\n", mnt }
		{ sep = (NR > 1) ? ",\n" : ""	# (mawk: no ?: among printf arguments)
		  printf "%s    { \"who\": %s, \"space-soft\": \"%sK\", \"space-hard\": \"%sK\", \"files-soft\": %s, \"files-hard\": %s }",
			sep, $1, v, 2 * v, v, 2 * v }
		END { printf "\n  ] } } ] }\n" }' >"$W/apply-$v.json"
}

# timed FS TOOL CMD...: one run, its wall time and peak RSS recorded
timed() {
	local fs=$1 tool=$2 t rss
	shift 2
	/usr/bin/time -f '%e %M' -o "$W/time" "$@" >/dev/null ||
		die "$fs: $tool failed: $*"
	read -r t rss <"$W/time"
	echo "$fs $tool $t $rss" >>"$RES"
	note "$fs $tool: ${t}s, $((rss / 1024)) MiB"
}

# check V: the first and the last id have V's limits
check() {
	local id want got
	want="$(($1 * 1024)),$(($1 * 2048)),$1,$(($1 * 2))"
	for id in "$FIRST" $((FIRST + N - 1)); do
		got=$("$QFD" get --csv -n -b -o SPACE-SOFT,SPACE-HARD,FILES-SOFT,FILES-HARD "$MNT" "#$id")
		[[ $got == "$want" ]] || die "$MNT: id $id has $got, not $want"
	done
}

# round FS BATCH APPLY QFD: four runs, each of which changes every id
round() {
	local fs=$1 batch=$2 apply=$3 qfd=$4
	timed "$fs" "$batch" "$qfd" set -q --batch "$W/batch-1000.txt" "$MNT"
	timed "$fs" "$apply" "$qfd" apply -q "$W/apply-2000.json"
	timed "$fs" "$batch" "$qfd" set -q --batch "$W/batch-1000.txt" "$MNT"
	timed "$fs" "$apply" "$qfd" apply -q "$W/apply-2000.json"
}

run_fs() {	# TYPE
	local type=$1 dev r
	read -r dev MNT < <(fs_make "$type")
	note "$type on $dev at $MNT: $N ids"
	inputs 1000
	inputs 2000
	"$QFD" set -q --batch "$W/batch-2000.txt" "$MNT" ||
		die "$type: the first limits could not be set"
	for ((r = 1; r <= REPS; r++)); do
		round "$type" batch apply "$QFD"
		[[ -z $BASE ]] || round "$type" obatch oapply "$BASE"
	done
	check 2000
	fs_unmake "$type" "$dev"
}

run_fs ext4
run_fs xfs

echo
echo "qfd apply vs qfd set --batch, $N ids changed per run, $((2 * REPS)) runs each, kernel $(uname -r)"
echo "host load average at the start: ${QFD_BENCH_HOST_LOAD:-unknown}"
bench_aslr_said
[[ -z $BASE ]] || echo "obatch, oapply: $BASE"
awk "$BENCH_AWK_MEDIAN"'
	{ key = $1 " " $2; t[key, ++n[key]] = $3; r[key, n[key]] = $4
	  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
	END {
		printf "%-5s %-6s %9s %9s %11s\n", "FS", "TOOL", "SECONDS", "RSS-KIB", "TIME/BATCH"
		for (i = 1; i <= k; i++) {
			key = order[i]; split(key, f, " ")
			s = median(t, key, n[key]); m = median(r, key, n[key])
			# apply against the batch of the same binary
			b = (f[2] ~ /^o/) ? "o" : ""
			if (f[2] ~ /batch$/) base[f[1], b] = s
			ratio = (base[f[1], b] > 0) ? s / base[f[1], b] : 0
			printf "%-5s %-6s %9.2f %9d %10.2fx\n", f[1], f[2], s, m, ratio
		}
	}' "$RES"
