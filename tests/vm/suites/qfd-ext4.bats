#!/usr/bin/env bats
# vm-weight: 130
# qfd end to end on ext4 (hidden quota inodes: mkfs.ext4 -O quota,project,
# mounted usrquota,grpquota,prjquota), in the test VM.  The test bodies are
# shared with the other filesystems: tests/vm/lib/qfd.bash (t_*).
#
# Run: tests/vm/check tests/vm/suites/qfd-ext4.bats

QFD_FS=ext4
export QFD_FS
load ../lib/qfd

setup_file() { qfd_setup_fs; }
teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }
teardown() { qfd_restore; }

@test "ext4: usage of files written as a user, to the byte" { t_usage_exact; }
@test "ext4: a named user, by name, number and #number; CSV line" { t_usage_named_user; }
@test "ext4: limits set are read back by get and report (JSON, CSV)" { t_set_and_read_back; }
@test "ext4: human table, no-headings and raw lines" { t_human_table; }
@test "ext4: sizes and counts are parsed and rounded as documented" { t_limits_rounding; }
@test "ext4: set several ids at once" { t_several_ids; }
@test "ext4: writing past the space hard limit fails with EDQUOT" { t_hard_space_edquot; }
@test "ext4: creating files past the files hard limit fails with EDQUOT" { t_hard_files_edquot; }
@test "ext4: past a soft limit the grace period runs" { t_soft_grace; }
@test "ext4: report --over lists ids past limits and exits 3" { t_report_over_exit; }
@test "ext4: off stops enforcement, on brings it back" { t_off_on; }
@test "ext4: off and on for one quota type" { t_off_one_type; }
@test "ext4: state -J tells enforcement off from on" { t_state_json_enforcing; }
@test "ext4: state of every quota type" { t_state; }
@test "ext4: sync" { t_sync; }
@test "ext4: group quotas" { t_group; }
@test "ext4: project quotas" { t_project; }
@test "ext4: a user reads its own quota and its groups'" { t_user_reads_own; }
@test "ext4: a user may not read another user's quota" { t_user_reads_other_refused; }
@test "ext4: a user may not set limits or turn quotas off" { t_user_set_refused; }
@test "ext4: bad input: exit 2, one line, nothing changed" { t_bad_input; }
@test "ext4: soft limit above hard limit is refused, nothing changed" { t_soft_above_hard; }
@test "ext4: set is idempotent; --exit-changed gives 4 then 0" { t_idempotent; }
@test "ext4: --dry-run changes nothing" { t_dry_run; }
@test "ext4: --debug traces quotactl_fd" { t_debug_trace; }
@test "ext4: read-only mount: quotas suspended, said in one line" { t_read_only; }
@test "ext4: repquota and quota read the limits qfd set" { t_peer_reads_qfd_limits; }
@test "ext4: qfd reads the limits setquota set" { t_qfd_reads_peer_limits; }
@test "ext4: qfd and repquota agree on usage" { t_peer_usage_agrees; }
@test "ext4: no device node (container): qfd works, repquota does not" { t_no_device_node; }
@test "ext4: bind mount and deep paths name the right filesystem" { t_bind_and_deep_path; }
@test "ext4: made without quotas: one clear line, exit 1" { t_quotas_not_enabled; }
@test "ext4: accounting without enforcement until 'qfd on'" { t_accounting_not_enforcing; }
@test "ext4: state -J of a filesystem that accounts but does not enforce" { t_state_json_not_enforcing; }

# The device mounted twice, one mount remounted read-only: the superblock
# is read-only under the other too.  Its mount options said "rw" to the
# old lookup; fstatvfs on the mount found by its id says read-only.
@test "ext4: read-only state comes from the filesystem, for a second mount of it too" {
	m=$(fs_ext4 ro2 -o usrquota,grpquota)
	mkdir -p "$QFD_SCRATCH/ro2b"
	mount "$(fs_dev ro2)" "$QFD_SCRATCH/ro2b"
	mount -o remount,ro "$m"
	run "$QFD" report "$QFD_SCRATCH/ro2b"
	umount "$QFD_SCRATCH/ro2b"
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: $QFD_SCRATCH/ro2b: ext4 keeps no quota information on this read-only mount; remount it read-write" ] ||
		{ echo "$output"; false; }
	run "$QFD" set "$m" '#2001' --bhard 1M
	[ "$status" -eq 1 ]
	[[ $output == *"read-only"* ]] || { echo "$output"; false; }
	fs_umount ro2
}
