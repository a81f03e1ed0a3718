#!/usr/bin/env bats
# vm-weight: 80
# Proves the VM harness itself: the kernel is the one asked for, the guest
# root is writable without touching the host, the filesystems of
# lib/fs.bash mount with quotas, the test users exist, and usage written as
# a user shows up, to the KiB, in the classic quota tools.  No qfd here:
# if this suite fails, qfd's suites cannot be trusted either.
#
# Run: tests/vm/check tests/vm/suites/harness.bats [--kernel 5.10]

load ../lib/fs

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_teardown
	users_create
}

teardown_file() {
	fs_teardown
}

@test "guest runs the requested kernel series" {
	[ "$QFD_VM" = 1 ]
	case $QFD_VM_SERIES in
	6.1) [[ $(uname -r) == 6.1.* ]] ;;
	5.10) [[ $(uname -r) == 5.10.* ]] ;;
	6.12) [[ $(uname -r) == 6.12.* ]] ;;
	# whatever Debian testing carries: 7.2.12+deb14-amd64 in 2026-12
	testing) [[ $(uname -r) == [0-9]*-amd64 ]] ;;
	# kernel/builds names start with their series (5.10-qfd: 5.10.262)
	*-*) [[ $(uname -r) == "${QFD_VM_SERIES%%-*}".* ]] ;;
	*) false ;;
	esac
	[ "$(uname -r)" = "$QFD_VM_KERNEL" ]
}

@test "quota and filesystem modules are loaded" {
	if ! kernel_has_modules; then
		# the project's kernels: built in (kernel/configs/vm.config)
		[ -e /dev/loop-control ]
		[ -d /proc/sys/fs/quota ]
		grep -qw ext4 /proc/filesystems
		grep -qw xfs /proc/filesystems
		return
	fi
	for m in loop ext4 xfs quota_v2 ubi ubifs; do
		[ -d "/sys/module/$m" ] || { echo "module $m not loaded"; false; }
	done
	grep -qw xfs /proc/filesystems
	grep -qw ubifs /proc/filesystems
}

@test "modprobe loads modules on demand from the guest kernel's tree" {
	kernel_has_modules || skip "kernel $(uname -r) has no modules: everything it needs is built in (kernel/configs/vm.config)"
	[ -d "/lib/modules/$(uname -r)/kernel" ]
	modprobe squashfs
	[ -d /sys/module/squashfs ]
}

@test "guest root is writable, runs as root, with a clean environment" {
	[ "$(id -u)" = 0 ]
	echo probe >/etc/qfd-vm-probe
	[ "$(cat /etc/qfd-vm-probe)" = probe ]
	[ "$HOME" = /root ]
	# host paths are the same in the guest
	[ -f "$QFD_TESTS/vm/lib/fs.bash" ]
	[ "$QFD_VM_HOST_CWD" = "$(pwd -P)" ]
	# tmpfs, not the host's directories
	[ "$(findmnt -n -o FSTYPE /scratch)" = tmpfs ]
}

@test "test users, groups and projects exist with their fixed ids" {
	[ "$(id -u qfdu1)" = 2001 ]
	[ "$(id -g qfdu1)" = 2001 ]
	[ "$(id -Gn qfdu2)" = "qfdu2 qfdg1 qfdg2" ]
	[ "$(id -u qfdu3)" = 2003 ]
	[ "$(id -u "$QFD_WEIRD_USER")" = 2004 ]
	[ "$(getent group qfdg3 | cut -d: -f3)" = 3003 ]
	grep -qx 'qfdp2:4002' /etc/projid
	users_create # idempotent
	[ "$(grep -c '^qfdp1:' /etc/projid)" = 1 ]
}

@test "as_user drops to the user's ids and groups" {
	run as_user qfdu2 id -u
	[ "$output" = 2002 ]
	run as_user qfdu2 id -G
	[ "$output" = "2002 3001 3002" ]
	run as_user qfdu1 touch /etc/qfd-vm-denied
	[ "$status" -ne 0 ]
}

@test "write_bytes takes only multiples of 4096" {
	run write_bytes /scratch/x 1000
	[ "$status" -ne 0 ]
	write_bytes /scratch/x 8192
	[ "$(stat -c %s /scratch/x)" = 8192 ]
	rm /scratch/x
}

@test "ext4: user, group and project usage reach repquota exactly" {
	mnt=$(fs_ext4 e4)
	[ "$mnt" = /scratch/e4 ]
	[ "$(findmnt -n -o FSTYPE "$mnt")" = ext4 ]
	features=$(dumpe2fs -h "$(fs_dev e4)" 2>/dev/null | grep '^Filesystem features:')
	[[ $features == *" quota"* && $features == *" project"* ]]

	write_bytes "$mnt/a" 40960 qfdu1
	write_bytes "$mnt/b" 8192 qfdu1
	write_bytes "$mnt/c" 4096 qfdu2
	[ "$(peer_usage "$mnt" -u 2001)" = "48 2" ]
	[ "$(peer_usage "$mnt" -u 2002)" = "4 1" ]
	[ "$(peer_usage "$mnt" -g 2001)" = "48 2" ]
	[ "$(peer_usage "$mnt" -u 2003)" = "0 0" ]

	# The project directory itself (one 4 KiB block, one inode) moves
	# into the project with it.
	project_dir "$mnt/p1" 4001
	write_bytes "$mnt/p1/f" 12288 qfdu3
	[ "$(peer_usage "$mnt" -p 4001)" = "16 2" ]
	[ "$(peer_usage "$mnt" -u 2003)" = "12 1" ]

	# Enforcement is on (mounted with usrquota...): a hard limit holds.
	setquota -u qfdu3 0 20 0 0 "$(fs_dev e4)"
	run write_bytes "$mnt/big" 24576 qfdu3
	[ "$status" -ne 0 ]
	[[ $output == *"quota exceeded"* ]]
}

@test "ext4: -o defaults accounts without enforcing; usage survives remount" {
	mnt=$(fs_ext4 e4r -o defaults)
	setquota -u qfdu2 0 8 0 0 "$(fs_dev e4r)"
	write_bytes "$mnt/a" 16384 qfdu2 # over the hard limit: not enforced
	[ "$(peer_usage "$mnt" -u 2002)" = "16 1" ]
	fs_remount e4r usrquota
	[ "$(peer_usage "$mnt" -u 2002)" = "16 1" ]
	run write_bytes "$mnt/b" 4096 qfdu2 # now it is
	[ "$status" -ne 0 ]
	[[ $output == *"quota exceeded"* ]]
	fs_remount_ro e4r
	run touch "$mnt/ro"
	[ "$status" -ne 0 ]
	fs_remount_rw e4r
	touch "$mnt/rw"
}

@test "ext4 without the quota feature has quotas off" {
	mnt=$(fs_ext4_noquota plain)
	features=$(dumpe2fs -h "$(fs_dev plain)" 2>/dev/null | grep '^Filesystem features:')
	[[ $features == *extent* && $features != *quota* ]]
	run quotaon -p "$mnt"
	[[ $output == *"no quota enabled"* ]]
}

@test "XFS uquota,gquota: usage reaches xfs_quota exactly" {
	mnt=$(fs_xfs x1)
	[ "$(findmnt -n -o FSTYPE "$mnt")" = xfs ]
	write_bytes "$mnt/a" 40960 qfdu2
	write_bytes "$mnt/b" 4096 qfdu1
	[ "$(peer_usage "$mnt" -u 2002)" = "40 1" ]
	[ "$(peer_usage "$mnt" -g 2002)" = "40 1" ]
	[ "$(peer_usage "$mnt" -u 2001)" = "4 1" ]
	xfs_quota -x -c 'state -u' "$mnt" | grep -q 'Enforcement: ON'
	xfs_quota -x -c 'limit -u bhard=12k qfdu1' "$mnt"
	run write_bytes "$mnt/c" 16384 qfdu1
	[ "$status" -ne 0 ]
	[[ $output == *"quota exceeded"* ]]
}

@test "XFS pquota: project usage reaches xfs_quota exactly" {
	mnt=$(fs_xfs x2 -o pquota)
	project_dir "$mnt/p" 4002
	write_bytes "$mnt/p/f" 20480 qfdu1
	[ "$(peer_usage "$mnt" -p 4002)" = "20 2" ]
}

@test "XFS takes user, group and project quotas at once" {
	mnt=$(fs_xfs x3 -o uquota,gquota,pquota)
	xfs_quota -x -c state "$mnt" >"$BATS_TEST_TMPDIR/state"
	[ "$(grep -c 'Accounting: ON' "$BATS_TEST_TMPDIR/state")" = 3 ]
}

@test "UBIFS on nandsim mounts, keeps data across remount and detach" {
	! why=$(ubifs_missing) || skip "$why"
	mnt=$(fs_ubifs u)
	[ "$(findmnt -n -o FSTYPE "$mnt")" = ubifs ]
	[ "$(fs_dev u)" = ubi0:vol ]
	write_bytes "$mnt/f" 40960 qfdu1
	[ "$(stat -c '%s %u' "$mnt/f")" = "40960 2001" ]
	fs_remount u
	[ "$(stat -c %s "$mnt/f")" = 40960 ]
	fs_ubifs_detach u
	[ ! -e /dev/ubi0 ]
	fs_ubifs_attach u
	[ "$(stat -c '%s %u' "$mnt/f")" = "40960 2001" ]
}

@test "quotactl_fd exists from 5.14 on and in the project's 5.10-qfd (ENOSYS on stock 5.10)" {
	[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3 to make the raw syscall"
	mnt=$(fs_ext4_noquota sc)
	# quotactl_fd(fd, QCMD(Q_GETINFO, USRQUOTA), 0, buf): 443 on x86-64.
	run /usr/bin/python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_PATH)
buf = ctypes.create_string_buffer(64)
r = libc.syscall(443, fd, (0x800005 << 8) | 0, 0, buf)
print(os.strerror(ctypes.get_errno()) if r < 0 else "ok")' "$mnt"
	if has_quotactl_fd; then
		[ "$output" = "No such process" ] # ESRCH: quotas not on
	else
		[ "$output" = "Function not implemented" ]
	fi
}

@test "fs_teardown leaves nothing behind" {
	fs_teardown
	fs_ext4 t1 >/dev/null
	ubifs_missing >/dev/null || fs_ubifs t2 >/dev/null
	fs_teardown
	[ -z "$(findmnt -rn -o TARGET | grep '^/scratch/' || true)" ]
	[ -z "$(losetup -n -l -O BACK-FILE | grep /scratch/ || true)" ]
	[ ! -d /sys/module/nandsim ]
	[ -z "$(ls -A /scratch)" ]
}
