#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/startup.sh: what starting a program costs in the test VM, with the
# kernel's address space randomization and without it (bench/README,
# "Start-up under TCG").  A benchmark, not a test.
#
#     bench/startup.sh                         # 10 runs of each command
#     QFD_BENCH_REPS=20 QFD_BENCH_QFD=/path/to/qfd bench/startup.sh
#
# On the host it starts itself in the test VM (tests/vm/run) on a VM
# slot.  There, for /bin/true, bench/floor (built if missing) and
# "qfd --version", perf stat -r REPS gives the task clock and page faults,
# first with randomization as the kernel booted (2: on), then with
# /proc/sys/kernel/randomize_va_space set to 0.  qfd is a plain -O2 build
# to measure what users run (default src/qfd).
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/startup.sh
# shellcheck source=lib.bash
. "$TOP/bench/lib.bash"
REPS=${QFD_BENCH_REPS:-10}
if [[ ${QFD_VM:-} != 1 ]]; then
	[[ -x $TOP/bench/floor ]] ||
		cc -O2 -Wall -Werror -o "$TOP/bench/floor" "$TOP/bench/floor.c"
fi
# this script switches randomization itself
QFD_BENCH_ASLR=1 bench_enter "$@"
bench_setup "$(mktemp -d)" perf
FLOOR=$TOP/bench/floor

# one COMMAND...: "LABEL TASK-CLOCK-MS PAGE-FAULTS" of REPS runs
one() {
	perf stat -r "$REPS" -e task-clock,page-faults -x, -o "$W/stat" "$@" \
		>/dev/null 2>&1 || true
	awk -F, -v label="$*" '
		$3 == "task-clock" { t = $1 } $3 == "page-faults" { p = $1 }
		END { printf "%-40s %9.1f %8d\n", label, t, p }' "$W/stat"
}

table() {
	printf '%-40s %9s %8s\n' "$1" "TASK-MS" FAULTS
	for c in /bin/true "$FLOOR" "$QFD --version"; do
		# warm: the page cache and the VM's first translation
		$c >/dev/null 2>&1 || true
		# shellcheck disable=SC2086 # the words of a command line
		one $c
	done
	echo
}

echo "== $ME: $(uname -r), $(nproc) vCPU, perf stat -r $REPS; qfd: $QFD"
table "randomize_va_space=$(cat /proc/sys/kernel/randomize_va_space)"
echo 0 >/proc/sys/kernel/randomize_va_space
table "randomize_va_space=0"
rm -rf "$W"
