#!/bin/bash
# bench/report-cmp.sh: does a new qfd report print what an older one does,
# byte for byte, in every format?  For changes that must not change the
# output (issue 31's speed work); not a test of what the output should be
# (tests/vm/suites/report-*.bats are).
#
#     QFD_BENCH_QFD=/path/to/new/qfd QFD_BENCH_BASE=/path/to/old/qfd bench/report-cmp.sh
#
# On the host it starts itself inside the test VM.  There it makes a
# 1 GiB XFS (user and group quotas, mounted at a path with a space,
# quotes and UTF-8) and a 1 GiB ext4 (quota feature), gives 3,001 ids
# limits, a few users of odd names (UTF-8, wide characters, a backslash,
# a long one) usage over their soft limits, so that grace times show, and
# a group entry; then runs both programs with each option set in C.UTF-8
# and C and compares stdout, stderr and the exit status.  A grace time in
# seconds can tick between the two runs, so a case is retried up to 8
# times before it counts as different; if then only digits differ, the
# lines are shown and counted apart.  Exit 1 when any case differs.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/report-cmp.sh
# shellcheck source=lib.bash
. "$TOP/bench/lib.bash"
[[ -n ${QFD_BENCH_BASE:-} ]] || die "QFD_BENCH_BASE must name the older qfd"
bench_enter "$@"

NEW=${QFD_BENCH_QFD:-$TOP/src/qfd}
OLD=$QFD_BENCH_BASE
W=/tmp/report-cmp
mkdir -p "$W"
cd "$W"

cat >>/etc/passwd <<'PW'
alice:x:300001:300001::/nonexistent:/usr/sbin/nologin
bö:x:300002:300002::/nonexistent:/usr/sbin/nologin
名前:x:300003:300003::/nonexistent:/usr/sbin/nologin
back\x41slash:x:300004:300004::/nonexistent:/usr/sbin/nologin
a-very-long-user-name-that-goes-on:x:300005:300005::/nonexistent:/usr/sbin/nologin
PW
M1="$W/x fs \"q\"ü"
M2="$W/ext4"
mkdir -p "$M1" "$M2"
truncate -s 1G x.img e.img
mkfs.xfs -q -f x.img
mkfs.ext4 -q -F -O quota -E quotatype=usrquota:grpquota e.img
mount -o loop,uquota,gquota x.img "$M1"
mount -o loop,usrquota,grpquota e.img "$M2"
chmod 1777 "$M1" "$M2"

# fill MNT: limits for many ids, usage over the soft limits for a few
fill() {
	local m=$1 u i
	seq 200000 203000 | awk '{ print "#" $1, "1G", "2G", 1000, 2000 }' |
		"$NEW" set -u -q --batch - "$m"
	for u in 300001 300002 300003 300004 300005 4000000000; do
		"$NEW" set -u -q "$m" "#$u" --bsoft 8K --bhard 1M --isoft 2 --ihard 10
	done
	"$NEW" set -g -q "$m" "#300001" --bsoft 1M --bhard 2M --isoft 10 --ihard 20
	"$NEW" set -u -q --grace-space 1w --grace-files 2d "$m"
	for u in 300001 300002 300003 300004 300005 200000 200500; do
		setpriv --reuid "$u" --regid 0 --clear-groups \
			dd if=/dev/zero of="$m/f.$u" bs=4k count=4 2>/dev/null
		for i in 1 2 3; do
			setpriv --reuid "$u" --regid 0 --clear-groups touch "$m/g.$u.$i"
		done
	done
}
fill "$M1"
fill "$M2"
sync

n=0 fail=0 ticks=0
# same LABEL ARGS...: both programs alike, retried while a second ticks
same() {
	local label=$1 ro rn
	shift
	n=$((n + 1))
	for _ in 1 2 3 4 5 6 7 8; do
		ro=0 rn=0
		"$OLD" "$@" >o 2>oe || ro=$?
		"$NEW" "$@" >n 2>ne || rn=$?
		if cmp -s o n && cmp -s oe ne && [[ $ro == "$rn" ]]; then
			return 0
		fi
	done
	# On a loaded host each run can take over a second, so that -b's and
	# -J's grace seconds differ in every try: output that differs only in
	# its digits is shown (grace columns are what to look for) and
	# counted apart, not as a difference.
	if cmp -s oe ne && [[ $ro == "$rn" ]] &&
		cmp -s <(sed 's/[0-9][0-9]*/N/g' o) <(sed 's/[0-9][0-9]*/N/g' n); then
		ticks=$((ticks + 1))
		echo "ONLY DIGITS DIFFER: $label"
		diff o n | sed -n '1,9p' || true
		return 0
	fi
	fail=$((fail + 1))
	echo "DIFFERS: $label (exit $ro / $rn)"
	diff o n | head -5 || true
}

for m in "$M1" "$M2"; do
	for f in "" "-N" "-A" "-b" "-r" "-N -r" "--csv" "-N --csv" "-J" "-N -J" \
		"--prometheus" "-ug" "-ug -J" "-o +SPACE-USE%,FILES-USE%" \
		"--sort NAME" "-r --sort SPACE" "--over soft" "--over soft -J" \
		"-n" "-J -b"; do
		for loc in C.UTF-8 C; do
			# shellcheck disable=SC2086 # $f is the options' words
			LC_ALL=$loc same "'$m' $f $loc" report $f "$m"
		done
	done
done
for f in "" "-J" "--prometheus" "--csv"; do
	# shellcheck disable=SC2086
	same "-a $f" report -a $f
done
n=$((n + 1))
"$OLD" report -a --textfile "$W/o.prom"
"$NEW" report -a --textfile "$W/n.prom"
cmp -s "$W/o.prom" "$W/n.prom" || { fail=$((fail + 1)); echo "DIFFERS: --textfile"; }

echo "old: $OLD"
echo "new: $NEW"
echo "$n comparisons, $fail differ, $ticks only in digits (shown above)"
umount "$M1" "$M2"
((fail == 0))
