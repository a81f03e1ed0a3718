#!/bin/bash
# bench/apply-rss.sh: what does "qfd apply" cost in memory to read and plan
# a document of many ids?  Peak RSS and wall time, on the host.
#
# A benchmark, not a test: it prints numbers and fails only when it could
# not take them.  Run it from the top of the tree:
#
#     bench/apply-rss.sh
#     QFD_BENCH_COUNTS="1000 100000 1000000" QFD_BENCH_QFD=/path/to/qfd bench/apply-rss.sh
#
# Unlike the other scripts it needs no VM and no quota-capable kernel: the
# documents name /proc, so "qfd apply --check" reads and checks the whole
# document (every item into the plan's requests, as for a real run), opens
# /proc and stops at its first quota call (proc has no quota support, exit
# 1).  Nothing is written anywhere but the work directory.  For each count
# N, REPS runs of each document:
#
#   limits   N items {"who": ID, "space-soft": "1000K", ...}: what a real
#            document costs, the requests kept for the plan included
#   distinct the same, but every id with a space hard limit of its own:
#            the worst case for a plan that keeps equal values once
#   refused  N items with an unknown key: each is read and refused, none is
#            kept, so what is left is the reader's own cost
#
# Settings (environment):
#   QFD_BENCH_COUNTS="1000 100000"  the counts of ids
#   QFD_BENCH_REPS=3                runs per document (medians shown)
#   QFD_BENCH_QFD=src/qfd           the qfd binary (a plain -O2 build: a
#                                   sanitizer build measures the sanitizers)
#
# Needs: time (/usr/bin/time), awk, seq.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/apply-rss.sh

. "$TOP/bench/lib.bash"

COUNTS=${QFD_BENCH_COUNTS:-1000 100000}
REPS=${QFD_BENCH_REPS:-3}
bench_setup "$(mktemp -d)" /usr/bin/time
trap 'rm -rf "$W"' EXIT

# doc N KIND: a document of N items of KIND on /proc
doc() {
	seq 300000 $((300000 + $1 - 1)) | awk -v kind="$2" '
		BEGIN { printf "{ \"filesystems\": [ { \"path\": \"/proc\",\n  \"user\": { \"limits\": [\n" }
		{ sep = (NR > 1) ? ",\n" : ""	# (mawk: no ?: among printf arguments)
		  if (kind == "limits")
			printf "%s    { \"who\": %s, \"space-soft\": \"1000K\", \"space-hard\": \"2000K\", \"files-soft\": 1000, \"files-hard\": 2000 }", sep, $1
		  else if (kind == "distinct")
			printf "%s    { \"who\": %s, \"space-soft\": \"1000K\", \"space-hard\": \"%dK\", \"files-soft\": 1000, \"files-hard\": 2000 }", sep, $1, $1
		  else
			printf "%s    { \"who\": %s, \"space-hrad\": \"2000K\" }", sep, $1 }
		END { printf "\n  ] } } ] }\n" }'
}

for n in $COUNTS; do
	for kind in limits distinct refused; do
		doc "$n" "$kind" >"$W/doc.json"
		for ((r = 1; r <= REPS; r++)); do
			# exit 1 (no quota on /proc) after the plan has begun; 2 when refused
			/usr/bin/time -f '%e %M' -o "$W/time" "$QFD" apply --check "$W/doc.json" \
				>/dev/null 2>"$W/err" || true
			grep -q 'proc has no quota support\|problems: nothing was changed' "$W/err" ||
				die "$n $kind: $(head -n 1 "$W/err")"
			# (time's last line: the first says "Command exited with ...")
			read -r t rss < <(tail -n 1 "$W/time")
			echo "$kind $n $t $rss $(($(stat -c %s "$W/doc.json") / 1024))" >>"$RES"
		done
		note "$n $kind done"
	done
done

echo
echo "qfd apply --check, peak RSS and time to read and plan, $REPS runs each (medians)"
bench_rss_table DOC "$RES"
