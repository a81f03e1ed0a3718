#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 10
#
# tmpfs on a kernel without tmpfs quotas (Debian's 6.1, which predates
# them, and Debian's 6.12, built without CONFIG_TMPFS_QUOTA): the kernel
# rejects the usrquota mount option, and every qfd command says in one
# line that this kernel lacks tmpfs quotas, which is not what it says for
# a tmpfs mounted without usrquota on a kernel that has them.
# tests/vm.test runs it on 6.1.
#
# Run: tests/vm/check --kernel 6.12 tests/vm/suites/qfd-tmpfs-stock.bats

load ../lib/qfd

setup_file() {
	qfd_setup_common || return 0
	# Without quotactl_fd no tmpfs can be asked at all: the line qfd
	# gives then is qfd-fallback.bats's
	has_quotactl_fd ||
		qfd_skip_file "kernel $(uname -r) has no quotactl_fd: qfd cannot reach a tmpfs at all (qfd-fallback.bats checks that line)"
	fs_teardown
}

teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }

@test "tmpfs: a kernel without tmpfs quotas rejects usrquota, and qfd says the kernel lacks them" {
	local m=$QFD_SCRATCH/stock want
	mkdir -p "$m"
	run mount -t tmpfs -o usrquota tmpfs "$m"
	if ((status == 0)); then
		umount "$m"
		skip "kernel $(uname -r) has tmpfs quotas: qfd-tmpfs.bats tests them"
	fi
	mount -t tmpfs -o size=16M,mode=1777 tmpfs "$m"
	want="qfd: $m: no quotas on tmpfs: this kernel ($(uname -r)) was built without tmpfs quota support (CONFIG_TMPFS_QUOTA, Linux 6.6 or later)"
	for c in get report state on off sync; do
		run --separate-stderr qfd "$c" "$m"
		assert_error assert_stderr_line "$want" || return
	done
	run --separate-stderr qfd set "$m" 5501 --bhard 1M
	assert_status 1
	assert_stderr_line "$want"
	run --separate-stderr qfd check -w 80% "$m"
	assert_status 3
	assert_eq "$output" "QUOTA UNKNOWN - ${want#qfd: }"
	# a user cannot ask the kernel (a filesystem context needs
	# CAP_SYS_ADMIN): the line names both causes
	run --separate-stderr as_ids 5501 5501 "$QFD" get "$m"
	assert_status 1
	assert_stderr_line "qfd: $m: quotas are off: tmpfs keeps them only when mounted with usrquota or grpquota, on Linux 6.6 or later built with CONFIG_TMPFS_QUOTA"
	umount "$m"
}
