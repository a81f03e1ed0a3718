#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 10
#
# 'qfd check', the monitoring plugin, on ext4, XFS and (patched) UBIFS:
# each of the four exit codes from a real situation (an id well under its
# limits, one near its hard limit, one past its soft limit in grace, one at
# its hard limit, one whose grace expired; quotas off, an unprivileged
# caller), the status line and the performance data.
#
# Run: tests/vm/check --ubifs-ko "$(kernel/ubifs/build.sh -q | tail -n1)" \
#          tests/vm/suites/check-plugin.bats

load ../lib/fs

bats_require_minimum_version 1.5.0

MiB=$((1024 * 1024))

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_teardown
	fs_ext4_xfs_ubifs ck
	fs_ext4_noquota ck-n >/dev/null
	fs_xfs ck-xn -o defaults >/dev/null
	for m in "${MNTS[@]}"; do
		"$QFD" set -q "$m" 5301 --bsoft 4M --bhard 8M
		"$QFD" set -q "$m" 5302 --bhard 8M
		"$QFD" set -q "$m" 5303 5305 --bsoft 1M --bhard 8M
		"$QFD" set -q "$m" 5304 --bhard 2M
		write_as 5301 "$m/a" $MiB
		write_as 5302 "$m/b" $((7 * MiB))
		write_as 5303 "$m/c" $((2 * MiB))
		write_as 5304 "$m/d" $((2 * MiB)) || true
		write_as 5305 "$m/e" $((2 * MiB))
		"$QFD" set -q --grace-time 1s "$m" 5305
	done
	# 5305's grace has run out by the first test
	sleep 2
}

teardown_file() {
	fs_teardown
}

# the filesystems with quotas: UBIFS only with the patched module (set
# again by setup_file once it knows)
fs_quota_mnts ck

@test "OK, exit 0: an id well under its limits, with exact performance data" {
	for m in "${MNTS[@]}"; do
		run "$QFD" check -w 80% -c 95% -i 5301 "$m"
		[ "$status" -eq 0 ] || { echo "$m: $status $output"; false; }
		# space thresholds are 80% and 95% of the 8M hard limit, rounded up
		[ "$output" = "QUOTA OK - 1 id within limits on 1 filesystem | '$m user #5301 space'=1048576B;6710887;7969178;0;8388608 '$m user #5301 files'=1;;;0;" ] ||
			{ echo "$m: $output"; false; }
	done
}

@test "WARNING, exit 1: near the hard limit (-w 80%), and past the soft limit in grace" {
	for m in "${MNTS[@]}"; do
		run "$QFD" check -w 80% -c 95% -i 5302 "$m"
		[ "$status" -eq 1 ] || { echo "$m: $status $output"; false; }
		[[ $output == "QUOTA WARNING - 0 critical, 1 warning, of 1 id checked: $m user #5302 space 7M >= warning 6.4M | "* ]] ||
			{ echo "$m: $output"; false; }
		# without thresholds the same id is fine
		run "$QFD" check -i 5302 "$m"
		[ "$status" -eq 0 ] || { echo "$m: $status $output"; false; }
		# over the soft limit with grace running: at least WARNING
		run "$QFD" check -i 5303 "$m"
		[ "$status" -eq 1 ] || { echo "$m: $status $output"; false; }
		[[ $output =~ ^"QUOTA WARNING - 0 critical, 1 warning, of 1 id checked: $m user #5303 space 2M over the soft limit 1M, grace "(6d23h|7d)" left | " ]] ||
			{ echo "$m: $output"; false; }
	done
}

@test "CRITICAL, exit 2: at the hard limit, grace expired, and -c reached" {
	for m in "${MNTS[@]}"; do
		run "$QFD" check -i 5304 "$m"
		[ "$status" -eq 2 ] || { echo "$m: $status $output"; false; }
		[[ $output == "QUOTA CRITICAL - 1 critical, 0 warning, of 1 id checked: $m user #5304 space 2M at the hard limit 2M | "* ]] ||
			{ echo "$m: $output"; false; }
		run "$QFD" check -i 5305 "$m"
		[ "$status" -eq 2 ] || { echo "$m: $status $output"; false; }
		[[ $output == *": $m user #5305 space 2M over the soft limit 1M, grace expired | "* ]] ||
			{ echo "$m: $output"; false; }
		run "$QFD" check -w 50% -c 80% -i 5302 "$m"
		[ "$status" -eq 2 ] || { echo "$m: $status $output"; false; }
		[[ $output == *"#5302 space 7M >= critical 6.4M | "* ]] || { echo "$m: $output"; false; }
		# absolute thresholds too
		run "$QFD" check -w 6M -c 7M -i 5302 "$m"
		[ "$status" -eq 2 ] || { echo "$m: $status $output"; false; }
	done
}

@test "all ids of several filesystems: the worst state, every offender, totals as perfdata" {
	run "$QFD" check -u "${MNTS[@]}"
	[ "$status" -eq 2 ] || { echo "$status $output"; false; }
	# per filesystem: 5304 and 5305 critical, 5303 in grace
	n=${#MNTS[@]}
	[[ $output == "QUOTA CRITICAL - $((2 * n)) critical, $n warning, of "*" ids checked: "* ]] || { echo "$output"; false; }
	# five messages are shown, the critical ones first, then a count
	[[ $output == *"; and $((3 * n - 5)) more | "* ]] || { echo "$output"; false; }
	for m in "${MNTS[@]}"; do
		[[ $output == *"'$m user warning'=1;;;0; '$m user critical'=2;;;0; '$m user space'="* ]] ||
			{ echo "$m: $output"; false; }
	done
	# the state of one id on one filesystem does not leak into another
	run "$QFD" check -i 5301 -i 5302 "${MNTS[0]}" "${MNTS[1]}"
	[ "$status" -eq 0 ] || { echo "$status $output"; false; }
	[[ $output == "QUOTA OK - 4 ids within limits on 2 filesystems | "* ]]
}

@test "UNKNOWN, exit 3: quotas off on ext4 and XFS, unprivileged caller, bad arguments" {
	for m in "$QFD_SCRATCH/ck-n" "$QFD_SCRATCH/ck-xn"; do
		run --separate-stderr "$QFD" check "$m"
		[ "$status" -eq 3 ] || { echo "$m: $status $output"; false; }
		[[ $output == "QUOTA UNKNOWN - $m: "* ]] || { echo "$m: $output"; false; }
		[[ $output == *" off"* || $output == *"no quota type is accounted"* ]] || { echo "$m: $output"; false; }
		[ -z "$stderr" ]
	done
	# with a filesystem that is fine, the one that is off still shows
	run "$QFD" check -i 5301 "${MNTS[0]}" "$QFD_SCRATCH/ck-n"
	[ "$status" -eq 3 ] || { echo "$status $output"; false; }
	[[ $output == "QUOTA UNKNOWN - $QFD_SCRATCH/ck-n: "*" | '${MNTS[0]} user #5301 space'="* ]] || { echo "$output"; false; }
	# Q_GETNEXTQUOTA needs CAP_SYS_ADMIN
	run setpriv --reuid 5301 --regid 5301 --clear-groups "$QFD" check "${MNTS[0]}"
	[ "$status" -eq 3 ] || { echo "$status $output"; false; }
	[[ $output == "QUOTA UNKNOWN - ${MNTS[0]}: permission denied"* ]] || { echo "$output"; false; }
	run --separate-stderr "$QFD" check -w 8Q "${MNTS[0]}"
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - -w '8Q': give a percentage of the limit (80%) or a size (9G)" ] ||
		{ echo "$output"; false; }
	# ... and a CRITICAL still wins over an UNKNOWN elsewhere
	run "$QFD" check -i 5304 "${MNTS[0]}" "$QFD_SCRATCH/ck-n"
	[ "$status" -eq 2 ] || { echo "$status $output"; false; }
}
