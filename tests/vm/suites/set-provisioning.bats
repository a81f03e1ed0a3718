#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 250
#
# 'qfd set' as provisioning tools use it, on ext4 and XFS: idempotent runs,
# all-or-nothing batch files (also when the kernel fails or a signal comes
# half way through the writes), --dry-run, --like, grace periods and per-id
# grace times, and concurrent setters of different fields.  Every result is
# read back from the kernel with 'qfd get -J' or 'qfd state -J'.
#
# Run: tests/vm/check tests/vm/suites/set-provisioning.bats

load ../lib/qfd

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_ext4_xfs
	# a directory of our own for batch files (the guest's /tmp is fine too,
	# but keep them next to the filesystems so teardown finds them)
	mkdir -p "$QFD_SCRATCH/batch"
}

teardown_file() {
	rm -rf "$QFD_SCRATCH/batch"
	fs_teardown
}

MNTS=("$QFD_SCRATCH/e" "$QFD_SCRATCH/x")

# Limits are read with lib/qfd.bash's qfd_limits (from --csv, not -J and
# jq: under TCG one jq costs more than the qfd run it reads, and they are
# read well over a hundred times; the JSON of get and state is checked
# where a test is about it).

# zero MNT WHO...: no limits for them
zero() {
	local mnt=$1
	shift
	"$QFD" set -q "$mnt" "$@" --bsoft 0 --bhard 0 --isoft 0 --ihard 0
}

@test "a repeated set changes nothing the second time (--exit-changed 4, then 0)" {
	for m in "${MNTS[@]}"; do
		zero "$m" qfdu1
		run "$QFD" set --exit-changed "$m" qfdu1 --bsoft 10M --bhard 20M --isoft 100 --ihard 200
		[ "$status" -eq 4 ] || { echo "$m: first run: $status $output"; false; }
		[[ $output == "changed user qfdu1 (2001) on $m: space-soft 0 -> 10M, space-hard 0 -> 20M, files-soft 0 -> 100, files-hard 0 -> 200" ]]
		run "$QFD" set --exit-changed "$m" qfdu1 --bsoft 10M --bhard 20M --isoft 100 --ihard 200
		[ "$status" -eq 0 ] || { echo "$m: second run: $status $output"; false; }
		[ "$output" = "unchanged user qfdu1 (2001) on $m" ]
		# sizes the kernel rounds (to a KiB) are compared as it keeps them
		run "$QFD" set --exit-changed "$m" qfdu1 --bsoft 10485759
		[ "$status" -eq 0 ] || { echo "$m: rounded size: $status $output"; false; }
		[ "$(qfd_limits "$m" -u qfdu1)" = "10485760 20971520 100 200" ]
		# ext4 keeps KiB, XFS filesystem blocks (4 KiB here): a size that
		# is neither is unchanged on the second run all the same
		"$QFD" set -q "$m" qfdu1 --bsoft 1537K
		run "$QFD" set --exit-changed "$m" qfdu1 --bsoft 1537K
		[ "$status" -eq 0 ] || { echo "$m: 1537K again: $status $output"; false; }
		case $m in
		*/e) [ "$(qfd_limits "$m" -u qfdu1)" = "1573888 20971520 100 200" ] ;;
		*/x) [ "$(qfd_limits "$m" -u qfdu1)" = "1576960 20971520 100 200" ] ;;
		esac
	done
}

@test "a batch applies every line, a re-run changes nothing; '-' keeps a field" {
	for m in "${MNTS[@]}"; do
		zero "$m" qfdu1 qfdu2 qfdu3 "$QFD_WEIRD_USER"
		"$QFD" set -q "$m" qfdu3 --isoft 7 --ihard 9
		cat >"$QFD_SCRATCH/batch/ok.txt" <<-EOF
		# provisioning for team A
		qfdu1   1G   2G   1000 2000

		  #2002 500M 1.5G 10k  20k   # by number
		qfdu3   1M   2M   -    -
		$QFD_WEIRD_USER 4K 8K 1 2
		EOF
		run "$QFD" set --exit-changed --batch "$QFD_SCRATCH/batch/ok.txt" "$m"
		[ "$status" -eq 4 ] || { echo "$m: $status $output"; false; }
		[ "${#lines[@]}" -eq 4 ]
		[ "$(qfd_limits "$m" -u qfdu1)" = "1073741824 2147483648 1000 2000" ]
		[ "$(qfd_limits "$m" -u qfdu2)" = "524288000 1610612736 10000 20000" ]
		[ "$(qfd_limits "$m" -u qfdu3)" = "1048576 2097152 7 9" ]
		[ "$(qfd_limits "$m" -u "$QFD_WEIRD_USER")" = "4096 8192 1 2" ]
		run "$QFD" set --exit-changed --batch - "$m" <"$QFD_SCRATCH/batch/ok.txt"
		[ "$status" -eq 0 ] || { echo "$m: re-run: $status $output"; false; }
		[ "$(grep -c '^unchanged ' <<<"$output")" -eq 4 ]
	done
}

# bad_batch MNT NAME LINE-CONTENT EXPECTED-MESSAGE: a batch whose third line
# is LINE-CONTENT applies nothing, exits 2 and names FILE:3.
bad_batch() {
	local m=$1 name=$2 bad=$3 msg=$4 f=$QFD_SCRATCH/batch/$2.txt
	zero "$m" qfdu1 qfdu2 qfdu3
	printf '%s\n' "qfdu1 1M 2M 10 20" "qfdu2 3M 4M 30 40" "$bad" \
		"qfdu3 5M 6M 50 60" >"$f"
	run "$QFD" set --batch "$f" "$m"
	[ "$status" -eq 2 ] || { echo "$m: status $status: $output"; return 1; }
	[[ $output == *"qfd: $f:3: $msg"* ]] || { echo "$m: $output"; return 1; }
	[[ $output == *"nothing was changed"* ]]
	# the good lines before and after it were not applied either
	for u in qfdu1 qfdu2 qfdu3; do
		[ "$(qfd_limits "$m" -u $u)" = "0 0 0 0" ] || { echo "$m: $u was changed"; return 1; }
	done
}

@test "batch with a bad size on line 3: nothing applied, exit 2, FILE:3 named" {
	for m in "${MNTS[@]}"; do
		bad_batch "$m" badsize "qfdu3 1M 2Q - -" "space hard limit '2Q': not a size"
	done
}

@test "batch with an unknown user on line 3: nothing applied, exit 2, FILE:3 named" {
	for m in "${MNTS[@]}"; do
		bad_batch "$m" baduser "nosuchuser 1M 2M - -" "unknown user 'nosuchuser'"
	done
}

@test "batch with a wrong field count on line 3: nothing applied, exit 2, FILE:3 named" {
	for m in "${MNTS[@]}"; do
		bad_batch "$m" badcount "qfdu3 1M 2M 30" "4 fields, expected 5"
	done
}

@test "batch naming an id twice, or a soft limit over the hard one, applies nothing" {
	for m in "${MNTS[@]}"; do
		bad_batch "$m" dup "#2001 1M 2M - -" "user '#2001' (2001) is also on line 1"
		"$QFD" set -q "$m" qfdu3 --bhard 1M
		printf '%s\n' "qfdu1 1M 2M 10 20" "qfdu3 2M - - -" >"$QFD_SCRATCH/batch/over.txt"
		run "$QFD" set --batch "$QFD_SCRATCH/batch/over.txt" "$m"
		[ "$status" -eq 2 ]
		[[ $output == *"over.txt:2: $m: user qfdu3: a soft limit would exceed its hard limit"* ]]
		[ "$(qfd_limits "$m" -u qfdu1)" = "0 0 0 0" ]
	done
}

@test "--dry-run writes nothing and says what it would change" {
	for m in "${MNTS[@]}"; do
		zero "$m" qfdu1 qfdu2
		run "$QFD" set --dry-run --exit-changed "$m" qfdu1 qfdu2 --bhard 5M --ihard 50
		[ "$status" -eq 4 ]
		[ "${lines[0]}" = "would change user qfdu1 (2001) on $m: space-hard 0 -> 5M, files-hard 0 -> 50" ]
		printf 'qfdu1 1M 2M 3 4\n' | "$QFD" set -n --batch - "$m"
		"$QFD" set -n --grace-space 1d "$m"
		[ "$(qfd_limits "$m" -u qfdu1)" = "0 0 0 0" ]
		[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 0 0" ]
		[ "$("$QFD" state -J -u "$m" | jq '.filesystems[0]["space-grace"]')" -ne 86400 ]
	done
}

@test "--like copies another id's four limits exactly; options override" {
	for m in "${MNTS[@]}"; do
		zero "$m" qfdu1 qfdu2 qfdu3
		"$QFD" set -q "$m" qfdu1 --bsoft 1540K --bhard 3336K --isoft 17 --ihard 4099
		run "$QFD" set "$m" qfdu2 --like qfdu1
		[ "$status" -eq 0 ]
		[ "$(qfd_limits "$m" -u qfdu2)" = "$(qfd_limits "$m" -u qfdu1)" ]
		[ "$(qfd_limits "$m" -u qfdu2)" = "1576960 3416064 17 4099" ] ||
			{ echo "$m: $(qfd_limits "$m" -u qfdu2)"; false; }
		run "$QFD" set --exit-changed "$m" qfdu2 --like qfdu1
		[ "$status" -eq 0 ]
		"$QFD" set -q "$m" qfdu3 --like qfdu1 --ihard 5000
		[ "$(qfd_limits "$m" -u qfdu3)" = "1576960 3416064 17 5000" ]
		# copying "no limits" removes them
		run "$QFD" set "$m" qfdu3 --like 2999
		[ "$(qfd_limits "$m" -u qfdu3)" = "0 0 0 0" ]
	done
}

@test "grace periods: set, read back in seconds by 'qfd state -J', unchanged on re-run" {
	for m in "${MNTS[@]}"; do
		for t in -u -g -p; do
			run "$QFD" set $t --exit-changed --grace-space 1d12h --grace-files 90m "$m"
			[ "$status" -eq 4 ] || [ "$status" -eq 0 ] || { echo "$m $t: $output"; false; }
			run "$QFD" state -J $t "$m"
			[ "$(jq '.filesystems[0]["space-grace"]' <<<"$output")" -eq 129600 ]
			[ "$(jq '.filesystems[0]["files-grace"]' <<<"$output")" -eq 5400 ]
			run "$QFD" set $t --exit-changed --grace-space 36h --grace-files 5400 "$m"
			[ "$status" -eq 0 ] || { echo "$m $t: $output"; false; }
			[[ $output == "unchanged "* ]]
		done
		run "$QFD" set --exit-changed --grace-files 2w "$m"
		[ "$status" -eq 4 ]
		[[ $output == *"files-grace 1h30m -> 14d"* ]]
		[ "$("$QFD" state -J -u "$m" | jq '.filesystems[0]["space-grace"]')" -eq 129600 ]
		[ "$("$QFD" state -J -u "$m" | jq '.filesystems[0]["files-grace"]')" -eq 1209600 ]
	done
}

# space_grace MNT WHO: seconds left, as 'qfd get -J' shows them
space_grace() {
	"$QFD" get -J "$1" "$2" | jq '.quotas[0]["space-grace"]'
}

@test "per-id grace: --grace-time and --reset-grace show in 'qfd get -J'; id 0 refused" {
	for m in "${MNTS[@]}"; do
		rm -f "$m/qfdu1.dat"
		zero "$m" qfdu1
		"$QFD" set -q --grace-space 3d "$m"
		"$QFD" set -q "$m" qfdu1 --bsoft 64K --bhard 10M
		write_bytes "$m/qfdu1.dat" 131072 qfdu1
		g=$(space_grace "$m" qfdu1)
		((g > 259000 && g <= 259200)) || { echo "$m: grace started at $g"; false; }

		run "$QFD" set --exit-changed --grace-time 2h "$m" qfdu1
		[ "$status" -eq 4 ] || { echo "$m: $output"; false; }
		g=$(space_grace "$m" qfdu1)
		((g > 7100 && g <= 7200)) || { echo "$m: after --grace-time 2h: $g"; false; }

		run "$QFD" set --reset-grace "$m" qfdu1
		[ "$status" -eq 0 ]
		[[ $output == *"space-grace "*" -> 3d"* ]]
		g=$(space_grace "$m" qfdu1)
		((g > 259100 && g <= 259200)) || { echo "$m: after --reset-grace: $g"; false; }

		# under its soft limit an id has no grace time to set
		run "$QFD" set --exit-changed --grace-time 1h "$m" qfdu2
		[ "$status" -eq 0 ]
		[ "$output" = "unchanged user qfdu2 (2002) on $m" ]

		run "$QFD" set --grace-time 1h "$m" root
		[ "$status" -eq 2 ]
		[[ $output == *"grace time for id 0"* ]]
		# ... and the filesystem's grace period was not touched by it
		[ "$("$QFD" state -J -u "$m" | jq '.filesystems[0]["space-grace"]')" -eq 259200 ]
		rm -f "$m/qfdu1.dat"
	done
}

@test "8 concurrent setters of different fields of the same ids all win" {
	local n=10
	for m in "${MNTS[@]}"; do
		zero "$m" qfdu1 qfdu2
		pids=()
		for u in qfdu1 qfdu2; do
			# soft limits stay below hard ones whatever the interleaving
			( for i in $(seq $n); do no_leak_check "$QFD" set -q "$m" $u --bsoft "${i}M" || exit 1; done ) &
			pids+=($!)
			( for i in $(seq $n); do no_leak_check "$QFD" set -q "$m" $u --bhard "$((100 + i))M" || exit 1; done ) &
			pids+=($!)
			( for i in $(seq $n); do no_leak_check "$QFD" set -q "$m" $u --isoft "$i" || exit 1; done ) &
			pids+=($!)
			( for i in $(seq $n); do no_leak_check "$QFD" set -q "$m" $u --ihard "$((100 + i))" || exit 1; done ) &
			pids+=($!)
		done
		for p in "${pids[@]}"; do
			wait "$p" || { echo "$m: a setter failed"; false; }
		done
		for u in qfdu1 qfdu2; do
			[ "$(qfd_limits "$m" -u $u)" = "$((n << 20)) $(((100 + n) << 20)) $n $((100 + n))" ] ||
				{ echo "$m $u: $(qfd_limits "$m" -u $u)"; false; }
		done
	done
}

@test "-q prints nothing; group and project types take the same batch" {
	for m in "${MNTS[@]}"; do
		run "$QFD" set -q "$m" qfdu1 --bhard 1G
		[ -z "$output" ]
		printf 'qfdg1 1M 2M - -\n' | "$QFD" set -g -q --batch - "$m"
		[ "$(qfd_limits "$m" -g qfdg1)" = "1048576 2097152 0 0" ]
		printf 'qfdp2 - 8M - 80\n' | "$QFD" set -p -q --batch - "$m"
		[ "$(qfd_limits "$m" -p qfdp2)" = "0 8388608 0 80" ]
		run "$QFD" set -p --batch - "$m" <<<"qfdu1 1M 2M - -"
		[ "$status" -eq 2 ]
		[[ $output == *"stdin:1: unknown project 'qfdu1'"* ]]
	done
}

@test "grace periods: the largest the kernel holds (4294967295 s) is kept exactly; one more is refused, nothing changed" {
	for m in "${MNTS[@]}"; do
		run "$QFD" set --grace-space 4294967295 --grace-files 49710d "$m"
		[ "$status" -eq 0 ] || { echo "$m: $output"; false; }
		run "$QFD" state -J -u "$m"
		[ "$(jq '.filesystems[0]["space-grace"]' <<<"$output")" -eq 4294967295 ]
		[ "$(jq '.filesystems[0]["files-grace"]' <<<"$output")" -eq 4294944000 ]
		# 2^32 would have been kept as 0: refused before any change
		run "$QFD" set --grace-space 4294967296 --grace-files 1d "$m"
		[ "$status" -eq 2 ] || { echo "$m: $status $output"; false; }
		run "$QFD" state -J -u "$m"
		[ "$(jq '.filesystems[0]["space-grace"]' <<<"$output")" -eq 4294967295 ]
		[ "$(jq '.filesystems[0]["files-grace"]' <<<"$output")" -eq 4294944000 ]
		"$QFD" set -q --grace-space 7d --grace-files 7d "$m"
	done
}

# The write phase is whole or nothing (issue 11, item 4).  ext4's quota
# format refuses a space limit of 2^63 bytes (8E) with ERANGE, after the
# plan has accepted it: a real kernel error in the middle of a run.
@test "a kernel error mid-batch puts back the ids written before it: all keep their old limits, one line, exit 1" {
	local m=$QFD_SCRATCH/e f=$QFD_SCRATCH/batch/erange.txt
	zero "$m" qfdu1 qfdu2 qfdu3 "$QFD_WEIRD_USER"
	"$QFD" set -q "$m" qfdu2 --isoft 7 --ihard 9
	printf '%s\n' "qfdu1 1M 2M 10 20" "qfdu2 3M 4M 30 40" "qfdu3 8E - - -" \
		"$QFD_WEIRD_USER 5M 6M 50 60" >"$f"
	run --separate-stderr "$QFD" set --batch "$f" "$m"
	[ "$status" -eq 1 ] || { echo "status $status: $output $stderr"; false; }
	# no line on stdout claims a change that was put back
	[ -z "$output" ] || { echo "stdout: $output"; false; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr"; false; }
	[[ $stderr == "qfd: $f:3: $m: cannot set limits for user quotas: Numerical result out of range (user qfdu3, id 2003); the 2 ids written before it were put back: nothing was changed" ]] ||
		{ echo "$stderr"; false; }
	[ "$(qfd_limits "$m" -u qfdu1)" = "0 0 0 0" ]
	[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 7 9" ]
	[ "$(qfd_limits "$m" -u qfdu3)" = "0 0 0 0" ]
	[ "$(qfd_limits "$m" -u "$QFD_WEIRD_USER")" = "0 0 0 0" ]

	# the same for 'set' of several ids: +1E is fine for qfdu1, 8E for qfdu2
	"$QFD" set -q "$m" qfdu1 --bhard 1M
	"$QFD" set -q "$m" qfdu2 --bhard 7E
	run --separate-stderr "$QFD" set "$m" qfdu1 qfdu2 --bhard +1E
	[ "$status" -eq 1 ] || { echo "status $status: $output $stderr"; false; }
	[ -z "$output" ]
	[[ $stderr == "qfd: $m: cannot set limits for user quotas: Numerical result out of range (user qfdu2, id 2002); the 1 id written before it was put back: nothing was changed" ]] ||
		{ echo "$stderr"; false; }
	[ "$(qfd_limits "$m" -u qfdu1)" = "0 1048576 0 0" ]
	# (jq reads numbers as doubles: look at qfd's own digits)
	"$QFD" get -J "$m" qfdu2 | grep -Eq '"space-hard": ?8070450532247928832,'
	zero "$m" qfdu1 qfdu2
}

# A batch of whole lines (four absolute limits, soft within hard) needs
# nothing from the kernel to be checked: each id is read right before it
# is written (on ext4 a write right after its read is up to 40% cheaper
# with 100,000 entries cached, bench/README), and a refusal still puts
# back every id written before it.  The order of the calls shows which
# way was taken: read 1, write 1, read 2, write 2, read 3, write 3
# (refused), then the put-backs; the id after the refusal is never read.
@test "a batch of whole lines reads each id right before writing it; a refusal puts back the ids before it" {
	local m=$QFD_SCRATCH/e f=$QFD_SCRATCH/batch/whole.txt calls
	zero "$m" qfdu1 qfdu2 qfdu3 "$QFD_WEIRD_USER"
	"$QFD" set -q "$m" qfdu2 --isoft 7 --ihard 9
	printf '%s\n' "qfdu1 1M 2M 10 20" "qfdu2 3M 4M 30 40" "qfdu3 8E 8E 1 1" \
		"$QFD_WEIRD_USER 5M 6M 50 60" >"$f"
	run --separate-stderr "$QFD" --debug set --batch "$f" "$m"
	[ "$status" -eq 1 ] || { echo "status $status: $output $stderr"; false; }
	[ -z "$output" ] || { echo "stdout: $output"; false; }
	calls=$(quota_calls "$stderr")
	[[ $calls == "Q_GETQUOTA 2001 Q_XSETQLIM 2001 Q_GETQUOTA 2002 Q_XSETQLIM 2002 Q_GETQUOTA 2003 Q_XSETQLIM 2003 Q_XSETQLIM 2003 Q_XSETQLIM 2002 Q_XSETQLIM 2001 " ]] ||
		{ echo "calls: $calls"; false; }
	grep -v '^qfd: debug: ' <<<"$stderr" >"$f.msg" || true
	[ "$(wc -l <"$f.msg")" -eq 1 ] || { cat "$f.msg"; false; }
	[[ $(cat "$f.msg") == "qfd: $f:3: $m: cannot set limits for user quotas: Numerical result out of range (user qfdu3, id 2003); the 2 ids written before it were put back: nothing was changed" ]] ||
		{ cat "$f.msg"; false; }
	[ "$(qfd_limits "$m" -u qfdu1)" = "0 0 0 0" ]
	[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 7 9" ]
	[ "$(qfd_limits "$m" -u qfdu3)" = "0 0 0 0" ]
	[ "$(qfd_limits "$m" -u "$QFD_WEIRD_USER")" = "0 0 0 0" ]

	# without the refusal: all four written, each read right before
	printf '%s\n' "qfdu1 1M 2M 10 20" "qfdu2 3M 4M 30 40" "qfdu3 8M 8M 1 1" \
		"$QFD_WEIRD_USER 5M 6M 50 60" >"$f"
	run --separate-stderr "$QFD" --debug set -q --batch "$f" "$m"
	[ "$status" -eq 0 ] || { echo "status $status: $stderr"; false; }
	calls=$(quota_calls "$stderr")
	[[ $calls == "Q_GETQUOTA 2001 Q_XSETQLIM 2001 Q_GETQUOTA 2002 Q_XSETQLIM 2002 Q_GETQUOTA 2003 Q_XSETQLIM 2003 Q_GETQUOTA 2004 Q_XSETQLIM 2004 " ]] ||
		{ echo "calls: $calls"; false; }
	[ "$(qfd_limits "$m" -u qfdu3)" = "8388608 8388608 1 1" ]
	[ "$(qfd_limits "$m" -u "$QFD_WEIRD_USER")" = "5242880 6291456 50 60" ]
	zero "$m" qfdu1 qfdu2 qfdu3 "$QFD_WEIRD_USER"
}

# A full volume refuses to add entries to the quota file part way through
# a batch of new ids: ext4 already when a new id is read (dqget() creates
# its entry, ext4_acquire_dquot() fails: a read that fails after writes,
# which only the one-pass order can meet), XFS at the write.  Either way
# every id written before it is put back (existing entries are rewritten
# in place, which needs no new block), and the volume's limits are as they
# were.
@test "a full volume part way through a batch: every id written is put back, one line, exit 1" {
	local fs m f=$QFD_SCRATCH/batch/full.txt got
	seq 300000 329999 | awk '{ print "#" $1, "1M 2M 10 20" }' >"$f"
	fs_ext4 full-e -s 32 -- -m 0 >/dev/null
	fs_xfs full-x >/dev/null
	for fs in full-e full-x; do
		m=$QFD_SCRATCH/$fs
		"$QFD" set -q "$m" '#300000' '#300001' --bsoft 5M --bhard 6M --isoft 50 --ihard 60
		fs_fill "$m"
		run --separate-stderr "$QFD" set --batch "$f" "$m"
		echo "# $fs: ${stderr:0:200}" >&3
		[ "$status" -eq 1 ] || { echo "$fs: status $status: $stderr"; false; }
		[ -z "$output" ] || { echo "stdout: $output"; false; }
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr"; false; }
		[[ $stderr =~ ^"qfd: $f:"[0-9]+": $m: cannot "(read user quotas|set limits for user quotas)": No space left on device (user #"[0-9]+", id "[0-9]+"); the "[0-9]+" ids written before it were put back: nothing was changed"$ ]] ||
			{ echo "$stderr"; false; }
		got=$("$QFD" report -u -N -b --csv -o ID,SPACE-SOFT,SPACE-HARD,FILES-SOFT,FILES-HARD "$m" |
			awk -F, '$1 >= 300000 && $2 + $3 + $4 + $5 > 0 { print $1, $2, $3, $4, $5 }')
		[ "$got" = "$(printf '%s\n' '300000 5242880 6291456 50 60' '300001 5242880 6291456 50 60')" ] ||
			{ echo "$fs: limits after: $got"; false; }
		fs_umount "$fs"
	done
}

# range_limits MNT: "ID SOFT HARD FILES-SOFT FILES-HARD" of every id from
# 100000 on that has a limit
range_limits() {
	"$QFD" report -J -b -u -o ID,SPACE-SOFT,SPACE-HARD,FILES-SOFT,FILES-HARD "$1" |
		jq -r '.quotas[] | select(.id >= 100000) |
			select(."space-soft" + ."space-hard" + ."files-soft" + ."files-hard" > 0) |
			"\(.id) \(."space-soft") \(."space-hard") \(."files-soft") \(."files-hard")"'
}

@test "SIGINT or SIGTERM during a 20,000-line batch: every id put back, one line, death by the signal" {
	local m sig f=$QFD_SCRATCH/batch/long.txt err=$QFD_SCRATCH/batch/long.err
	local pid status before
	seq 100000 119999 | awk '{ print "#" $1, "1M 2M 10 20" }' >"$f"
	for m in "${MNTS[@]}"; do
		case $m in */e) sig=INT ;; *) sig=TERM ;; esac
		# old limits on a few ids, to see them come back
		printf '#%s 5M 6M 50 60\n' 100000 100001 100002 119999 |
			"$QFD" set -q --batch - "$m"
		before=$(range_limits "$m")
		"$QFD" --debug set --batch "$f" "$m" >"$err.out" 2>"$err" &
		pid=$!
		# the signal once the first limit has been written
		wait_for_line "$err" Q_XSETQLIM "$pid" || true
		kill -"$sig" "$pid" || { echo "$m: the batch ended before the signal"; false; }
		status=0
		wait "$pid" || status=$?
		grep -v '^qfd: debug: ' "$err" >"$err.msg" || true
		echo "$m: status $status, $(grep -c Q_XSETQLIM "$err") writes: $(cat "$err.msg")"
		echo "# $m: SIG$sig after $(grep -c Q_XSETQLIM "$err") writes: $(head -c 160 "$err.msg")" >&3
		if grep -q 'came after every change was written' "$err.msg"; then
			# too late to stop: then every id has its new limits
			[ "$(range_limits "$m" | grep -vc ' 1048576 2097152 10 20$')" -eq 0 ]
			[ "$(grep -c '^changed ' "$err.out")" -eq 20000 ]
			awk '{ print $1, "0 0 0 0" }' "$f" | "$QFD" set -q --batch - "$m"
		else
			[ "$(wc -l <"$err.msg")" -eq 1 ]
			grep -Eq "^qfd: $m: interrupted by SIG$sig after [0-9]+ of 20000 user ids were written; the [0-9]+ ids? written (was|were) put back: nothing was changed\$" "$err.msg"
			[ ! -s "$err.out" ]
			[ "$(range_limits "$m")" = "$before" ] ||
				{ diff <(echo "$before") <(range_limits "$m") | head; false; }
		fi
		[ "$status" -eq $((128 + $(kill -l "$sig"))) ]
		printf '#%s 0 0 0 0\n' 100000 100001 100002 119999 |
			"$QFD" set -q --batch - "$m"
	done
}

# XFS keeps its quotas on a read-only mount (ext4 suspends them), so there
# the writes after a remount fail with EROFS, and so does every put-back:
# the ids left changed must be exactly the ones printed as changed.
@test "XFS remounted read-only mid-batch: exit 1, and exactly the ids listed as changed keep new limits" {
	local m=$QFD_SCRATCH/x f=$QFD_SCRATCH/batch/long.txt err=$QFD_SCRATCH/batch/ro.err
	local pid status i listed
	[ -s "$f" ] || seq 100000 119999 | awk '{ print "#" $1, "1M 2M 10 20" }' >"$f"
	"$QFD" --debug set --batch "$f" "$m" >"$err.out" 2>"$err" &
	pid=$!
	wait_for_line "$err" Q_XSETQLIM "$pid" || true
	# by another process, as an administrator or errors=remount-ro would
	for ((i = 0; i < 500; i++)); do
		fs_remount_ro x 2>/dev/null && break
		sleep 0.01
	done
	status=0
	wait "$pid" || status=$?
	fs_remount_rw x
	grep -v '^qfd: debug: ' "$err" >"$err.msg" || true
	echo "status $status: $(cat "$err.msg")"
	echo "# $m: read-only after $(grep -c 'Q_XSETQLIM.*= 0$' "$err") writes" >&3
	[ "$status" -eq 1 ]
	[ "$(wc -l <"$err.msg")" -eq 1 ]
	grep -Eq "^qfd: $f:[0-9]+: $m: read-only filesystem: cannot set limits for user quotas; remount it read-write \(user #[0-9]+, id [0-9]+\); of the [0-9]+ ids? written before it, 0 were put back, but putting back user #100000 \(id 100000\)( and others)? failed \($m: read-only filesystem: cannot put back limits for user quotas; remount it read-write\): [0-9]+ ids? keeps? (its|their) new limits, listed on stdout\$" "$err.msg"
	listed=$(sed -n 's/^changed user #[0-9]* (\([0-9]*\)) on .*/\1 1048576 2097152 10 20/p' "$err.out")
	[ -n "$listed" ]
	[ "$(grep -vc '^changed ' "$err.out")" -eq 0 ]
	[ "$(range_limits "$m")" = "$listed" ] ||
		{ diff <(echo "$listed") <(range_limits "$m") | head; false; }
	awk '{ print $1, "0 0 0 0" }' "$f" | "$QFD" set -q --batch - "$m"
	[ -z "$(range_limits "$m")" ]
}

# Issue 15: relative limits in batch files, as with the options; a line
# whose relative limit has nothing to count from applies nothing at all.
@test "batch: relative limits (+1M, -10) count from the kernel's limits; one with no limit to count from applies nothing" {
	for m in "${MNTS[@]}"; do
		zero "$m" qfdu1 qfdu2
		"$QFD" set -q "$m" qfdu1 --bsoft 1M --bhard 2M --isoft 50 --ihard 100
		"$QFD" set -q "$m" qfdu2 --bhard 4M
		printf '%s\n' "qfdu1 +1M +1M -10 -" "#2002 - -1M - -" >"$QFD_SCRATCH/batch/rel.txt"
		run "$QFD" set --exit-changed --batch "$QFD_SCRATCH/batch/rel.txt" "$m"
		[ "$status" -eq 4 ] || { echo "$m: $status $output"; false; }
		[ "$(qfd_limits "$m" -u qfdu1)" = "2097152 3145728 40 100" ]
		[ "$(qfd_limits "$m" -u qfdu2)" = "0 3145728 0 0" ]
		# qfdu2 has no files limit: '+5' there is refused, and qfdu1's
		# line before it is not applied either
		printf '%s\n' "qfdu1 +1M - - -" "qfdu2 - - +5 -" >"$QFD_SCRATCH/batch/rel.txt"
		run --separate-stderr "$QFD" set --batch "$QFD_SCRATCH/batch/rel.txt" "$m"
		[ "$status" -eq 2 ] || { echo "$m: $status $output $stderr"; false; }
		[ -z "$output" ]
		[[ ${stderr_lines[-1]} == "qfd: $QFD_SCRATCH/batch/rel.txt: nothing was changed" ]]
		[[ $stderr == *"rel.txt:2: "*"files soft limit: +5: there is no limit to count from; give one"* ]] ||
			{ echo "$m: $stderr"; false; }
		[ "$(qfd_limits "$m" -u qfdu1)" = "2097152 3145728 40 100" ]
		[ "$(qfd_limits "$m" -u qfdu2)" = "0 3145728 0 0" ]
	done
}
