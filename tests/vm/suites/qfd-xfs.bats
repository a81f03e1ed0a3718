#!/usr/bin/env bats
# vm-weight: 180
# qfd end to end on XFS (mounted uquota,gquota,pquota: accounting and
# enforcement from the mount), in the test VM.  The test bodies are
# shared with the other filesystems: tests/vm/lib/qfd.bash (t_*).
#
# Run: tests/vm/check tests/vm/suites/qfd-xfs.bats

QFD_FS=xfs
export QFD_FS
load ../lib/qfd

setup_file() { qfd_setup_fs; }
teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }
teardown() { qfd_restore; }

@test "xfs: usage of files written as a user, to the byte" { t_usage_exact; }
@test "xfs: a named user, by name, number and #number; CSV line" { t_usage_named_user; }
@test "xfs: limits set are read back by get and report (JSON, CSV)" { t_set_and_read_back; }
@test "xfs: human table, no-headings and raw lines" { t_human_table; }
@test "xfs: sizes and counts are parsed and rounded as documented" { t_limits_rounding; }
@test "xfs: set several ids at once" { t_several_ids; }
@test "xfs: writing past the space hard limit fails with EDQUOT" { t_hard_space_edquot; }
@test "xfs: creating files past the files hard limit fails with EDQUOT" { t_hard_files_edquot; }
@test "xfs: past a soft limit the grace period runs" { t_soft_grace; }
@test "xfs: report --over lists ids past limits and exits 3" { t_report_over_exit; }
@test "xfs: off stops enforcement, on brings it back" { t_off_on; }
@test "xfs: off and on for one quota type" { t_off_one_type; }
@test "xfs: state -J tells enforcement off from on" { t_state_json_enforcing; }
@test "xfs: state of every quota type" { t_state; }
@test "xfs: sync" { t_sync; }
@test "xfs: group quotas" { t_group; }
@test "xfs: project quotas" { t_project; }
@test "xfs: a user reads its own quota and its groups'" { t_user_reads_own; }
@test "xfs: a user may not read another user's quota" { t_user_reads_other_refused; }
@test "xfs: a user may not set limits or turn quotas off" { t_user_set_refused; }
@test "xfs: bad input: exit 2, one line, nothing changed" { t_bad_input; }
@test "xfs: soft limit above hard limit is refused, nothing changed" { t_soft_above_hard; }
@test "xfs: set is idempotent; --exit-changed gives 4 then 0" { t_idempotent; }
@test "xfs: --dry-run changes nothing" { t_dry_run; }
@test "xfs: --debug traces quotactl_fd" { t_debug_trace; }
@test "xfs: read-only mount: reads work, set is refused" { t_read_only; }
@test "xfs: xfs_quota reads the limits qfd set" { t_peer_reads_qfd_limits; }
@test "xfs: qfd reads the limits xfs_quota set" { t_qfd_reads_peer_limits; }
@test "xfs: qfd and xfs_quota agree on usage" { t_peer_usage_agrees; }
@test "xfs: no device node (container): qfd works, xfs_quota does not" { t_no_device_node; }
@test "xfs: bind mount and deep paths name the right filesystem" { t_bind_and_deep_path; }
@test "xfs: mounted without quotas: one clear line, exit 1" { t_quotas_not_enabled; }
@test "xfs: accounting without enforcement until 'qfd on'" { t_accounting_not_enforcing; }
@test "xfs: state -J of a filesystem that accounts but does not enforce" { t_state_json_not_enforcing; }
