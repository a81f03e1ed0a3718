#!/usr/bin/env bats
# vm-weight: 100
# qfd end to end on f2fs, the other flash filesystem with quotas (hidden
# quota inodes: mkfs.f2fs -O extra_attr,quota,project_quota, mounted
# usrquota,grpquota,prjquota), in the test VM.  The same test bodies as
# ext4, XFS and UBIFS: tests/vm/lib/qfd.bash (t_*).
#
# Run: tests/vm/check tests/vm/suites/qfd-f2fs.bats

QFD_FS=f2fs
export QFD_FS
load ../lib/qfd

setup_file() { qfd_setup_fs; }
teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }
teardown() { qfd_restore; }

@test "f2fs: usage of files written as a user, to the byte" { t_usage_exact; }
@test "f2fs: a named user, by name, number and #number; CSV line" { t_usage_named_user; }
@test "f2fs: limits set are read back by get and report (JSON, CSV)" { t_set_and_read_back; }
@test "f2fs: human table, no-headings and raw lines" { t_human_table; }
@test "f2fs: sizes and counts are parsed and rounded as documented" { t_limits_rounding; }
@test "f2fs: set several ids at once" { t_several_ids; }
@test "f2fs: writing past the space hard limit fails with EDQUOT" { t_hard_space_edquot; }
@test "f2fs: creating files past the files hard limit fails with EDQUOT" { t_hard_files_edquot; }
@test "f2fs: past a soft limit the grace period runs" { t_soft_grace; }
@test "f2fs: report --over lists ids past limits and exits 3" { t_report_over_exit; }
@test "f2fs: off stops enforcement, on brings it back" { t_off_on; }
@test "f2fs: off and on for one quota type" { t_off_one_type; }
@test "f2fs: state -J tells enforcement off from on" { t_state_json_enforcing; }
@test "f2fs: state of every quota type" { t_state; }
@test "f2fs: sync" { t_sync; }
@test "f2fs: group quotas" { t_group; }
@test "f2fs: project quotas" { t_project; }
@test "f2fs: a user reads its own quota and its groups'" { t_user_reads_own; }
@test "f2fs: a user may not read another user's quota" { t_user_reads_other_refused; }
@test "f2fs: a user may not set limits or turn quotas off" { t_user_set_refused; }
@test "f2fs: bad input: exit 2, one line, nothing changed" { t_bad_input; }
@test "f2fs: soft limit above hard limit is refused, nothing changed" { t_soft_above_hard; }
@test "f2fs: set is idempotent; --exit-changed gives 4 then 0" { t_idempotent; }
@test "f2fs: --dry-run changes nothing" { t_dry_run; }
@test "f2fs: --debug traces quotactl_fd" { t_debug_trace; }
@test "f2fs: read-only mount: quotas suspended, said in one line" { t_read_only; }
@test "f2fs: repquota and quota read the limits qfd set" { t_peer_reads_qfd_limits; }
@test "f2fs: qfd reads the limits setquota set" { t_qfd_reads_peer_limits; }
@test "f2fs: qfd and repquota agree on usage" { t_peer_usage_agrees; }
@test "f2fs: no device node (container): qfd works, repquota does not" { t_no_device_node; }
@test "f2fs: bind mount and deep paths name the right filesystem" { t_bind_and_deep_path; }
@test "f2fs: made without quotas: one clear line, exit 1" { t_quotas_not_enabled; }
@test "f2fs: accounting without enforcement until 'qfd on'" { t_accounting_not_enforcing; }
@test "f2fs: state -J of a filesystem that accounts but does not enforce" { t_state_json_not_enforcing; }
