#!/usr/bin/env bats
# vm-weight: 60
# qfd on a kernel without quotactl_fd (before 5.14): it must fall back to
# quotactl(2) on the mount's block device and give the same numbers; a
# filesystem without a block device (or a device node that is not there)
# gets a clear error instead.  Only meaningful under Debian 11's 5.10
# kernel; on newer kernels every test skips, saying why.
#
# Run: tests/vm/check --kernel 5.10 tests/vm/suites/qfd-fallback.bats

QFD_FS=ext4
export QFD_FS
load ../lib/qfd

setup_file() {
	qfd_setup_common || return 0
	if has_quotactl_fd; then
		qfd_skip_file "kernel $(uname -r) has quotactl_fd, no fallback to test (tests/vm/check --kernel 5.10)"
		return 0
	fi
	fs_teardown
	users_create
	export E X ED XD
	E=$(fs_ext4 fb-ext4) || return
	X=$(fs_xfs fb-xfs -o uquota,gquota,pquota) || return
	ED=$(fs_dev fb-ext4)
	XD=$(fs_dev fb-xfs)
}

teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }

# use FS: point the shared helpers (peer_limits, qfd_fs_*) at one of the two.
use() {
	export QFD_FS FSTYPE MNT DEV FSNAME
	QFD_FS=$1 FSTYPE=$1
	case $1 in
	ext4) MNT=$E DEV=$ED FSNAME=fb-ext4 ;;
	xfs) MNT=$X DEV=$XD FSNAME=fb-xfs ;;
	esac
}

# f_debug: the debug trace shows quotactl(2) on the block device, and no
# successful quotactl_fd call.
f_debug() {
	touch_as 5301 5301 "$MNT/u5301"
	run --separate-stderr qfd -d get "$MNT" 5301
	assert_status 0
	local l found=0
	for l in "${stderr_lines[@]}"; do
		[[ $l == "qfd: debug: quotactl($DEV, Q_GETQUOTA, user, 5301) = 0" ]] && found=1
		[[ $l != *"quotactl_fd("*") = 0" ]] || _fail "quotactl_fd cannot work on $(uname -r): $l"
	done
	((found)) || _fail "expected 'qfd: debug: quotactl($DEV, Q_GETQUOTA, user, 5301) = 0' in:" "$stderr"
	run --separate-stderr qfd -d set "$MNT" 5301 --ihard 4
	assert_status 0
	[[ $stderr == *"qfd: debug: quotactl($DEV, "*", user, 5301) = 0"* ]] || _fail "got: $stderr"
}

# f_numbers: get, set and report give the numbers the classic tools give.
f_numbers() {
	local u=5302
	write_as $u "$MNT/u5302" $((2 * 1024 * 1024))
	touch_as $u $u "$MNT/u5302-e"
	assert_eq "$(qfd_usage "$MNT" -u $u)" "2097152 2"
	run --separate-stderr qfd set "$MNT" $u --bsoft 3M --bhard 5M --isoft 7 --ihard 9
	assert_status 0
	assert_eq "$output" "changed user $u ($u) on $MNT: space-soft 0 -> 3M, space-hard 0 -> 5M, files-soft 0 -> 7, files-hard 0 -> 9"
	assert_eq "$(qfd_limits "$MNT" -u $u)" "3145728 5242880 7 9"
	assert_eq "$(qfd_report_q "$MNT" -u $u space files space-soft space-hard files-soft files-hard status)" \
		"2097152 2 3145728 5242880 7 9 ok"
	assert_eq "$(peer_limits $u)" "2048 3072 5120 2 7 9"
	run --separate-stderr qfd set --exit-changed "$MNT" $u --bsoft 3M --bhard 5M
	assert_status 0
	assert_eq "$output" "unchanged user $u ($u) on $MNT"
	# and the kernel enforces what was set through the fallback
	run write_as $u "$MNT/u5302-more" $((4 * 1024 * 1024))
	assert_edquot
	assert_eq "$(qfd_q "$MNT" -u $u space status)" "5242880 hard"
}

# f_state: state and sync through the device.
f_state() {
	run --separate-stderr qfd state -u -n -r -o TARGET,FSTYPE,TYPE,ACCOUNTING,ENFORCING "$MNT"
	assert_status 0
	assert_eq "$output" "$MNT $FSTYPE user yes yes"
	run --separate-stderr qfd sync "$MNT"
	assert_status 0
}

# f_no_device_node: in a container-like mount namespace with an empty /dev,
# there is no device to fall back to: one line naming the mount point and
# what is needed, exit 1.
f_no_device_node() {
	run --separate-stderr unshare -m -- bash -c 'mount -t tmpfs none /dev && exec "$QFD" get "$MNT" 5301'
	assert_error assert_stderr_re "^qfd: $MNT: .*5\.14"
}

@test "5.10 ext4: --debug shows quotactl(2) on the loop device" { use ext4; f_debug; }
@test "5.10 ext4: get, set and report agree with repquota" { use ext4; f_numbers; }
@test "5.10 ext4: state and sync" { use ext4; f_state; }
@test "5.10 ext4: no device node: one clear line, exit 1" { use ext4; f_no_device_node; }
@test "5.10 xfs: --debug shows quotactl(2) on the loop device" { use xfs; f_debug; }
@test "5.10 xfs: get, set and report agree with xfs_quota" { use xfs; f_numbers; }
@test "5.10 xfs: state" {
	use xfs
	run --separate-stderr qfd state -n -r -o TYPE,ACCOUNTING,ENFORCING "$MNT"
	assert_status 0
	assert_eq "$(paste -sd ' ' <<<"$output")" "user yes yes group yes yes project yes yes"
}
@test "5.10 xfs: no device node: one clear line, exit 1" { use xfs; f_no_device_node; }

@test "5.10 ubifs: no block device: one clear line, exit 1" {
	local m
	m=$(fs_ubifs fb-ubifs)
	run --separate-stderr qfd get "$m"
	assert_status 1
	assert_stdout_empty
	# stock UBIFS has no quotas at all, and without quotactl_fd qfd cannot
	# even ask: either is a fair answer, in one line naming the mount
	assert_stderr_re "^qfd: $m: .*(5\.14|no quota support)"
}

# -a walks every mount of a type that can keep quotas, tmpfs among them;
# quotactl(2) cannot reach one without a block device (ENOTBLK), so -a
# skips it, --debug saying why, instead of failing (check -a would have
# been UNKNOWN on every 5.10 host).  A path named keeps the clear line.
@test "5.10 -a: state and check skip a tmpfs the fallback cannot reach, --debug says why; named, the clear line" {
	local t=$QFD_SCRATCH/fb-tmp
	mkdir -p "$t"
	mountpoint -q "$t" || mount -t tmpfs -o size=1m tmpfs "$t"
	run --separate-stderr qfd state -a -n -r -o TARGET,TYPE
	assert_status 0
	assert_stderr_empty
	grep -qx "$E user" <<<"$output" || _fail "no $E in:" "$output"
	grep -q "^$t " <<<"$output" && _fail "$t listed:" "$output"
	run --separate-stderr qfd -d state -a -n -r -o TARGET
	assert_status 0
	grep -qxF "qfd: debug: -a skips $t: this kernel lacks quotactl_fd(2) and tmpfs has no block device for quotactl(2): Linux 5.14 or later (or qfd's kernel/quotactl_fd-5.10 patch) is needed" <<<"$stderr" ||
		_fail "no debug line for $t in:" "$stderr"
	run --separate-stderr qfd check -a
	[[ $status -ne 3 && $output != *UNKNOWN* && $output != *"$t"* ]] ||
		_fail "check -a: exit $status" "$output" "$stderr"
	assert_stderr_empty
	run --separate-stderr qfd state "$t"
	assert_error assert_stderr_re "^qfd: $t: this kernel lacks quotactl_fd\(2\) .*5\.14"
	run --separate-stderr qfd check "$t"
	assert_status 3
	[[ $output == "QUOTA UNKNOWN - $t: this kernel lacks quotactl_fd(2) "*"5.14"* ]] || _fail "got: $output"
	umount "$t"
}
