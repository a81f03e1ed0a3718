// SPDX-License-Identifier: GPL-2.0
/*
 * ubifs_qfail: test helper of qfd's UBIFS quota suite
 * (tests/vm/suites/ubifs-quota.bats). While the module parameter "fail"
 * is non-zero, every ubifs_quota_write() (the ->quota_write() of the
 * patched UBIFS, kernel/ubifs/patches) returns -EIO to the quota core, as
 * a write that the flash refused would. The write itself still runs (a
 * kretprobe can only change the return value), so nothing but the error
 * differs. Debian's kernel has no fault injection framework
 * (CONFIG_FAULT_INJECTION and CONFIG_FUNCTION_ERROR_INJECTION are off),
 * but it has kprobes.
 *
 *   insmod ubifs_qfail.ko      # after ubifs is loaded
 *   echo 1 >/sys/module/ubifs_qfail/parameters/fail
 *   cat /sys/module/ubifs_qfail/parameters/failed   # writes failed so far
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/atomic.h>

static int fail;
module_param(fail, int, 0644);
MODULE_PARM_DESC(fail, "make ubifs_quota_write() return -EIO while non-zero");

static atomic_t failed = ATOMIC_INIT(0);
static int get_failed(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&failed));
}

static const struct kernel_param_ops failed_ops = { .get = get_failed };
module_param_cb(failed, &failed_ops, NULL, 0444);
MODULE_PARM_DESC(failed, "how many quota writes were made to fail");

static int qfail_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (READ_ONCE(fail)) {
		regs_set_return_value(regs, -EIO);
		atomic_inc(&failed);
	}
	return 0;
}

static struct kretprobe qfail_probe = {
	.kp.symbol_name = "ubifs_quota_write",
	.handler = qfail_ret,
	.maxactive = 16,
};

static int __init qfail_init(void)
{
	return register_kretprobe(&qfail_probe);
}

static void __exit qfail_exit(void)
{
	unregister_kretprobe(&qfail_probe);
}

module_init(qfail_init);
module_exit(qfail_exit);
MODULE_DESCRIPTION("qfd test helper: make UBIFS quota file writes fail");
MODULE_LICENSE("GPL");
