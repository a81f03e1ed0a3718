#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/names.sh: what resolving 100,000 names costs qfd report, against
# what nss itself costs.  A benchmark, not a test.
#
#     bench/names.sh                       # XFS and ext4, 100,000 ids, 7 rounds
#     QFD_BENCH_FS=xfs QFD_BENCH_BASE=/path/to/older/qfd bench/names.sh
#
# In the test VM, on a 1 GiB filesystem of each type (bench/lib.bash's
# fs_make), N ids get limits (qfd set --batch) and N users are appended to
# the guest's /etc/passwd (its throw-away overlay), one for each id.  Then
# each round runs every case once, output to /dev/null (/usr/bin/time:
# wall seconds, peak RSS), starting one case later each round, so that no
# case always comes first after the other filesystem's:
#   floor        bench/floor.c: the bare Q_GETNEXTQUOTA loop
#   floor-names  the same after reading passwd whole through nss
#                (getpwent()) and keeping each id and name: the least a
#                report that names every id pays; floor-names / floor is
#                nss's share
#   qfd -N -r    no names; qfd --csv, -J, --prometheus and the table with
#                names; QFD_BENCH_BASE's --csv and table beside them.
# Prints medians, /floor and /floor-names for each case.
#
# Settings (environment; tests/vm/run passes every QFD_* variable on):
#   QFD_BENCH_IDS=100000   ids with limits, and users in passwd
#   QFD_BENCH_REPS=7       rounds
#   QFD_BENCH_FS="xfs ext4"
#   QFD_BENCH_QFD=src/qfd  QFD_BENCH_BASE= (another qfd build)
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/names.sh
# shellcheck source=lib.bash
. "$TOP/bench/lib.bash"

if [[ ${QFD_VM:-} != 1 ]]; then
	cc -O2 -Wall -Werror -o "$TOP/bench/floor" "$TOP/bench/floor.c"
fi
bench_enter "$@"

N=${QFD_BENCH_IDS:-100000}
REPS=${QFD_BENCH_REPS:-7}
FIRST=200000
BASE=${QFD_BENCH_BASE:-}
for v in N REPS; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive number, not '${!v}'"
done
bench_setup /tmp/qfd-names
[[ -z $BASE || -x $BASE ]] || die "QFD_BENCH_BASE=$BASE is not a program"
FLOOR=$TOP/bench/floor

awk -v f="$FIRST" -v n="$N" 'BEGIN {
	for (i = f; i < f + n; i++)
		printf "qb%d:x:%d:100::/nonexistent:/usr/sbin/nologin\n", i, i
}' >>/etc/passwd

# cases FS MNT: the names and commands of one filesystem's cases, into
# KEYS and CMD
declare -A CMD
KEYS=()
cases() {
	local f=$1 m=$2
	KEYS+=("$f floor" "$f floor-names" "$f qfd-N-r" "$f qfd-csv" "$f qfd-J" "$f qfd-prom" "$f qfd-table")
	CMD["$f floor"]="$FLOOR $m"
	CMD["$f floor-names"]="$FLOOR $m usr names"
	CMD["$f qfd-N-r"]="$QFD report -u -N -r $m"
	CMD["$f qfd-csv"]="$QFD report -u --csv $m"
	CMD["$f qfd-J"]="$QFD report -u -J $m"
	CMD["$f qfd-prom"]="$QFD report -u --prometheus $m"
	CMD["$f qfd-table"]="$QFD report -u -A $m"
	if [[ -n $BASE ]]; then
		KEYS+=("$f base-csv" "$f base-table")
		CMD["$f base-csv"]="$BASE report -u --csv $m"
		CMD["$f base-table"]="$BASE report -u -A $m"
	fi
}

for fs in ${QFD_BENCH_FS:-xfs ext4}; do
	read -r _ mnt < <(fs_make "$fs")
	t0=$EPOCHREALTIME
	seq "$FIRST" $((FIRST + N - 1)) | awk '{ print "#" $1, "1M 2M 10 20" }' |
		"$QFD" set -q --batch - "$mnt"
	note "$fs: $N entries by qfd set --batch in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
	cases "$fs" "$mnt"
done
# a warm-up run of each (and a check that it works)
for k in "${KEYS[@]}"; do
	# shellcheck disable=SC2086 # the commands are words without blanks
	${CMD[$k]} >/dev/null || die "$k failed: ${CMD[$k]}"
done
n=${#KEYS[@]}
for ((r = 0; r < REPS; r++)); do
	note "round $((r + 1)) of $REPS"
	for ((i = 0; i < n; i++)); do
		k=${KEYS[$(((i + r) % n))]}
		# shellcheck disable=SC2086
		/usr/bin/time -o "$W/time" -f '%e %M' ${CMD[$k]} >/dev/null
		echo "$k $(cat "$W/time")" >>"$RES"
	done
done

echo
echo "$N ids with limits, $N users in /etc/passwd, $REPS rounds; qfd $("$QFD" --version | awk '{ print $2 }')"
echo "$(uname -r); $(bench_aslr_said)"
echo
# shellcheck disable=SC2016
awk '{ k = $1 " " $2; t[k, ++c[k]] = $3; if ($4 > m[k]) m[k] = $4; if (!(k in seen)) { seen[k] = 1; order[++no] = k } }
function med(k,   i, j, v, a, n) {
	n = c[k]
	for (i = 1; i <= n; i++) a[i] = t[k, i]
	for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
	return a[int((n + 1) / 2)]
}
END {
	printf "%-5s %-12s %9s %9s %8s %12s\n", "fs", "case", "median s", "RSS KiB", "/floor", "/floor-names"
	for (i = 1; i <= no; i++) {
		k = order[i]; split(k, p, " ")
		f = med(p[1] " floor"); fn = med(p[1] " floor-names")
		printf "%-5s %-12s %9.2f %9d %8.2f %12.2f\n", p[1], p[2], med(k), m[k], med(k) / f, med(k) / fn
	}
}' <(sort -s -k1,2 "$RES")
