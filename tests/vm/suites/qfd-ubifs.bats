#!/usr/bin/env bats
# vm-weight: 120
# qfd on UBIFS (simulated NAND, nandsim), in the test VM.
#
# Stock UBIFS has no quota support: every quota call is ENOSYS, and qfd
# must say so in one line and exit 1.  With the patched module of
# kernel/ubifs (tests/vm/check --ubifs-ko PATH), mounted usrquota,grpquota,
# the same shared bodies as on ext4 and XFS run (tests/vm/lib/qfd.bash);
# the stock tests then skip, and the other way round.
#
# Run: tests/vm/check tests/vm/suites/qfd-ubifs.bats
#      tests/vm/check --ubifs-ko "$(kernel/ubifs/build.sh -q)" tests/vm/suites/qfd-ubifs.bats

QFD_FS=ubifs
export QFD_FS
load ../lib/qfd

setup_file() {
	qfd_setup_common || return 0
	qfd_skip_file_without_ubifs || return 0
	fs_teardown
	users_create
	export FSNAME=qfd-ubifs MNT DEV FSTYPE=ubifs QFD_UBIFS_PATCHED=0
	MNT=$(fs_ubifs "$FSNAME") || return
	DEV=$(fs_dev "$FSNAME")
	# Stock UBIFS refuses the quota mount options; the patched one takes
	# them and then accounts and enforces from the mount on.
	fs_umount "$FSNAME"
	if fs_mount "$FSNAME" "${QFD_UBIFS_OPTS:-usrquota,grpquota}" 2>/dev/null; then
		QFD_UBIFS_PATCHED=1
	else
		fs_mount "$FSNAME" defaults
	fi
}

teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }
teardown() { qfd_restore; }

stock_only() {
	[[ $QFD_UBIFS_PATCHED == 0 ]] || skip "this UBIFS has quota support (patched module)"
}

patched_only() {
	[[ $QFD_UBIFS_PATCHED == 1 ]] || ubifs_unpatched "stock UBIFS has no quota support (tests/vm/check --ubifs-ko)"
}

# assert_enosys_line: the one line qfd gives for a filesystem without quota
# support, naming the mount point.  Nothing on stdout, or (with -J) a
# document a JSON consumer can still read: {"quotas": []}.
assert_enosys_line() {
	assert_status 1
	if [[ -n $output ]]; then
		[[ $(jq -c . <<<"$output" 2>&1) == '{"quotas":[]}' ]] ||
			_fail "expected no stdout, or JSON with an empty quota list; got:" "$output"
	fi
	if has_quotactl_fd; then
		assert_stderr_line "qfd: $MNT: ubifs has no quota support in this kernel"
	else
		# no block device for quotactl(2) either: qfd cannot ask at all
		assert_stderr_line "qfd: $MNT: this kernel lacks quotactl_fd(2) and $DEV has no block device for quotactl(2): Linux 5.14 or later (or qfd's kernel/quotactl_fd-5.10 patch) is needed"
	fi
}

@test "ubifs (stock): get says no quota support, exit 1" {
	stock_only
	run --separate-stderr qfd get "$MNT"
	assert_enosys_line
	run --separate-stderr qfd get -g -J "$MNT" 5201
	assert_enosys_line
}

@test "ubifs (stock): report says no quota support, exit 1" {
	stock_only
	run --separate-stderr qfd report "$MNT"
	assert_enosys_line
	run --separate-stderr qfd report -u -J "$MNT"
	assert_enosys_line
}

@test "ubifs (stock): set says no quota support, exit 1, nothing else" {
	stock_only
	run --separate-stderr qfd set "$MNT" 5201 --bhard 1M
	assert_enosys_line
	run --separate-stderr qfd set --exit-changed "$MNT" qfdu1 --ihard 10
	assert_enosys_line
}

@test "ubifs (stock): on, off, state and sync say no quota support, exit 1" {
	stock_only
	local c
	for c in on off state sync; do
		run --separate-stderr qfd $c "$MNT"
		assert_enosys_line
	done
}

@test "ubifs (stock): the kernel really answered ENOSYS (debug trace)" {
	stock_only
	kernel_at_least 5 14 || skip "no quotactl_fd on $(uname -r)"
	run --separate-stderr qfd -d get "$MNT" 5201
	assert_status 1
	[[ ${stderr_lines[0]} == "qfd: debug: quotactl_fd($MNT, Q_"*", user, "*") = Function not implemented" ]] ||
		_fail "got: $stderr"
	[[ ${stderr_lines[-1]} == "qfd: $MNT: ubifs has no quota support in this kernel" ]] ||
		_fail "got: $stderr"
}

@test "ubifs (stock): data written and read back normally" {
	stock_only
	# the filesystem itself works: the errors above are about quotas only
	write_as 5201 "$MNT/u5201" $((256 * 1024))
	[[ $(stat -c %s "$MNT/u5201") == 262144 ]]
}

@test "ubifs: usage of files written as a user, to the byte" { patched_only; t_usage_exact; }
@test "ubifs: a named user, by name, number and #number; CSV line" { patched_only; t_usage_named_user; }
@test "ubifs: limits set are read back by get and report (JSON, CSV)" { patched_only; t_set_and_read_back; }
@test "ubifs: human table, no-headings and raw lines" { patched_only; t_human_table; }
@test "ubifs: sizes and counts are parsed and rounded as documented" { patched_only; t_limits_rounding; }
@test "ubifs: set several ids at once" { patched_only; t_several_ids; }
@test "ubifs: writing past the space hard limit fails with EDQUOT" { patched_only; t_hard_space_edquot; }
@test "ubifs: creating files past the files hard limit fails with EDQUOT" { patched_only; t_hard_files_edquot; }
@test "ubifs: past a soft limit the grace period runs" { patched_only; t_soft_grace; }
@test "ubifs: report --over lists ids past limits and exits 3" { patched_only; t_report_over_exit; }
@test "ubifs: off stops enforcement, on brings it back" { patched_only; t_off_on; }
@test "ubifs: off and on for one quota type" { patched_only; t_off_one_type; }
@test "ubifs: state -J tells enforcement off from on" { patched_only; t_state_json_enforcing; }
@test "ubifs: state of every quota type" { patched_only; t_state; }
@test "ubifs: sync" { patched_only; t_sync; }
@test "ubifs: group quotas" { patched_only; t_group; }
@test "ubifs: a user reads its own quota and its groups'" { patched_only; t_user_reads_own; }
@test "ubifs: a user may not read another user's quota" { patched_only; t_user_reads_other_refused; }
@test "ubifs: a user may not set limits or turn quotas off" { patched_only; t_user_set_refused; }
@test "ubifs: bad input: exit 2, one line, nothing changed" { patched_only; t_bad_input; }
@test "ubifs: soft limit above hard limit is refused, nothing changed" { patched_only; t_soft_above_hard; }
@test "ubifs: set is idempotent; --exit-changed gives 4 then 0" { patched_only; t_idempotent; }
@test "ubifs: --dry-run changes nothing" { patched_only; t_dry_run; }
@test "ubifs: --debug traces quotactl_fd" { patched_only; t_debug_trace; }
@test "ubifs: no device node (container): qfd still works" { patched_only; t_no_device_node; }
@test "ubifs: bind mount and deep paths name the right filesystem" { patched_only; t_bind_and_deep_path; }
