#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run every libFuzzer target built by build.sh, one after the other, and
# print one TAP line each (the plan first).  A crash, a leak or a sanitizer
# report fails that target; its input is kept as BINDIR/../crashes/NAME-*.
#
#   tests/fuzz/run.sh BINDIR [LIBFUZZER-OPTION...]
#   tests/fuzz/run.sh tests/fuzz/bin -runs=20000          # make check
#   tests/fuzz/run.sh tests/fuzz/bin -max_total_time=60   # make fuzz
#
# New inputs go to a temporary corpus; the seeds in tests/fuzz/corpus are
# only read.  FUZZ_KEEP=DIR keeps the grown corpora there instead.
set -u

srcdir=$(cd "$(dirname "$0")/../.." && pwd)
bindir=${1:?usage: run.sh BINDIR [LIBFUZZER-OPTION...]}
shift
crashes=$bindir/../crashes
work=${FUZZ_KEEP:-$(mktemp -d)}
mkdir -p "$crashes" "$work"

n=0
for src in "$srcdir"/tests/fuzz/fuzz-*.c; do
	n=$((n + 1))
done
echo "1..$n"
i=0
rc=0
for src in "$srcdir"/tests/fuzz/fuzz-*.c; do
	i=$((i + 1))
	name=$(basename "$src" .c)
	t=${name#fuzz-}
	if [ ! -x "$bindir/$name" ]; then
		echo "not ok $i - $name: not built (tests/fuzz/build.sh)"
		rc=1
		continue
	fi
	mkdir -p "$work/$t"
	log=$work/$t.log
	start=$(date +%s)
	# -close_fd_mask=3: the targets' own messages are not libFuzzer's
	"$bindir/$name" -close_fd_mask=3 -artifact_prefix="$crashes/$t-" "$@" \
		"$work/$t" "$srcdir/tests/fuzz/corpus/$t" >"$log" 2>&1
	st=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
	secs=$(($(date +%s) - start))
	if [ "$st" -eq 0 ] && [ -n "$runs" ]; then
		echo "ok $i - $name: $runs runs in ${secs}s, no crash"
	else
		echo "not ok $i - $name: exit $st after ${secs}s; input kept in $crashes"
		sed -n '/ERROR\|runtime error\|SUMMARY/p' "$log" | head -n 5 | sed 's/^/# /'
		rc=1
	fi
done
[ -n "${FUZZ_KEEP:-}" ] || rm -rf "$work"
exit $rc
