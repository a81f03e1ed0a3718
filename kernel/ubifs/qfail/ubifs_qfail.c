// SPDX-License-Identifier: GPL-2.0
/*
 * ubifs_qfail: test helper of qfd's UBIFS quota suite
 * (tests/vm/suites/ubifs-quota.bats). Debian's kernel has no fault
 * injection framework (CONFIG_FAULT_INJECTION and
 * CONFIG_FUNCTION_ERROR_INJECTION are off), but it has kprobes. Faults,
 * each switched by a module parameter (0 = off):
 *
 *   fail         every ubifs_quota_write() (the ->quota_write() of the
 *                patched UBIFS, kernel/ubifs/patches) returns -EIO to the
 *                quota core, as a write that the flash refused would. The
 *                write itself still runs (a kretprobe can only change the
 *                return value): its bytes go into the quota operation's
 *                transaction, which the failed operation then discards,
 *                so nothing of it reaches the flash.
 *   damage=N     every ubifs_quota_read() of the root block of a quota
 *                tree (file offset 1024, 1 KiB) sees its reference N
 *                (1-255, the ids N << 24 to (N << 24) + 0xFFFFFF) point
 *                far beyond the end of the file, as a torn or rotten block
 *                would: the quota core answers -EUCLEAN for any id there.
 *                Only the copy handed to the quota core is changed.
 *   tear=N       the next quota file change that writes block 0 (the
 *                header and the root of the tree) puts on the flash a root
 *                whose reference N points far beyond the end of the file,
 *                as a torn or rotten block would; then tear is 0 again.
 *                Unlike damage, the flash holds the damage from then on.
 *   table=N      the next write of a usage table (0007: a node group with
 *                blocks past 2 GiB in a quota file) puts on the flash a
 *                first record block whose record 1 has the id of record 0
 *                (N=1: an id twice) or whose record 0 has a usage of
 *                -2^40 bytes (N=2: below zero whatever replay adds), as
 *                rotten records would; then table is 0 again.
 *   cut=1        the header that says a usage table is being rewritten
 *                (written alone, commit number 0) reaches the flash, and
 *                from then on every write of a table fails with -EIO
 *                without running, until cut is 0: the table of that
 *                commit stays torn, as a power cut right after that
 *                header would leave it.
 *   nospace_pid  ubifs_budget_space() called by this process (thread group
 *                id) returns -ENOSPC without running, as on a full flash.
 *   nospace_after=N  with nospace_pid: the first N calls of that process
 *                run as usual, the later ones fail (the budget of a
 *                creation's encryption context comes after the creation's
 *                own: nospace_after=1 refuses only the context's).
 *   rename_pid   ubifs_jnl_rename() called by this process returns -EIO
 *                without running, as when the journal cannot be written.
 *   context_pid  fscrypt_set_context() called by this process returns
 *                -ENOSPC without running, as when a new inode's encryption
 *                context cannot be stored.
 *
 * The last three skip the function: the kprobe's pre-handler points the
 * saved instruction pointer at qfail_enospc()/qfail_eio(), which return
 * the error to the caller with the caller's stack untouched (the probe is
 * at the entry, before the function has pushed anything).
 *
 *   insmod ubifs_qfail.ko      # after ubifs is loaded
 *   echo 1 >/sys/module/ubifs_qfail/parameters/fail
 *   cat /sys/module/ubifs_qfail/parameters/failed   # faults made so far
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/string.h>

static int fail;
module_param(fail, int, 0644);
MODULE_PARM_DESC(fail, "make ubifs_quota_write() return -EIO while non-zero");

static int damage;
module_param(damage, int, 0644);
MODULE_PARM_DESC(damage, "reference of the quota tree root seen out of range (1-255)");

static int tear;
module_param(tear, int, 0644);
MODULE_PARM_DESC(tear, "reference of the quota tree root written out of range once (1-255)");

static int nospace_pid;
module_param(nospace_pid, int, 0644);
MODULE_PARM_DESC(nospace_pid, "ubifs_budget_space() of this process fails with -ENOSPC");

static int nospace_after;
module_param(nospace_after, int, 0644);
MODULE_PARM_DESC(nospace_after, "calls of nospace_pid's process let through before the failures");

static int rename_pid;
module_param(rename_pid, int, 0644);
MODULE_PARM_DESC(rename_pid, "ubifs_jnl_rename() of this process fails with -EIO");

static int context_pid;
module_param(context_pid, int, 0644);
MODULE_PARM_DESC(context_pid, "fscrypt_set_context() of this process fails with -ENOSPC");

static atomic_t failed = ATOMIC_INIT(0);
static int get_failed(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&failed));
}

static const struct kernel_param_ops failed_ops = { .get = get_failed };
module_param_cb(failed, &failed_ops, NULL, 0444);
MODULE_PARM_DESC(failed, "how many faults were made");

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

/* ubifs_quota_read(sb, type, data, len, off): where the data went */
struct qread {
	char *data;
	loff_t off;
};

#define QT_ROOT_OFF 1024
#define QT_BLOCK 1024

static int qread_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct qread *q = (struct qread *)ri->data;

	q->data = (char *)regs_get_kernel_argument(regs, 2);
	q->off = (loff_t)regs_get_kernel_argument(regs, 4);
	return 0;
}

static int qread_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct qread *q = (struct qread *)ri->data;
	__le32 beyond = cpu_to_le32(0xFFFFFFF0);
	int n = READ_ONCE(damage);

	if (n <= 0 || n >= QT_BLOCK / 4 || q->off != QT_ROOT_OFF ||
	    (long)regs_return_value(regs) < QT_BLOCK)
		return 0;
	memcpy(q->data + 4 * n, &beyond, sizeof(beyond));
	atomic_inc(&failed);
	return 0;
}

static struct kretprobe qread_probe = {
	.kp.symbol_name = "ubifs_quota_read",
	.entry_handler = qread_entry,
	.handler = qread_ret,
	.data_size = sizeof(struct qread),
	.maxactive = 16,
};

/* Where a skipped function "returns" from: straight to its caller */
static noinline int qfail_enospc(void)
{
	return -ENOSPC;
}

static noinline int qfail_eio(void)
{
	return -EIO;
}

/*
 * The usage table of a quota file (0007): its header is block 2^19 (2 GiB
 * of 4 KiB blocks): magic, record count (le32 each), commit number
 * (le64); records of 24 bytes (le32 id, le32 zero, le64 space, le64
 * inodes) fill the blocks after it.
 */
#define QT_HEAD_BLOCK (1U << 19)
#define QT_CMT_OFF 8

struct qt_rec {
	__le32 id;
	__le32 zero;
	__le64 space;
	__le64 inodes;
};

static int table;
module_param(table, int, 0644);
MODULE_PARM_DESC(table, "damage the next usage table written: 1 an id twice, 2 a usage below zero");

static int cut;
module_param(cut, int, 0644);
MODULE_PARM_DESC(cut, "usage table writes fail after the being-rewritten header while non-zero");

/* the cut header has passed: table writes fail until cut is 0 */
static bool cutting;

/* block 0 of a quota file: its header (1 KiB) and the root of its tree */
static void tear_root(const unsigned int *blocks, void * const *bufs, int cnt)
{
	__le32 beyond = cpu_to_le32(0xFFFFFFF0);
	int i, n = READ_ONCE(tear);

	if (n <= 0 || n >= QT_BLOCK / 4)
		return;
	for (i = 0; i < cnt; i++) {
		if (blocks[i] || cmpxchg(&tear, n, 0) != n)
			continue;
		memcpy(bufs[i] + QT_ROOT_OFF + 4 * n, &beyond, sizeof(beyond));
		atomic_inc(&failed);
		break;
	}
}

static void damage_table(const unsigned int *blocks, void * const *bufs,
			 int cnt)
{
	int i, n = READ_ONCE(table);
	struct qt_rec *rec;

	if (n != 1 && n != 2)
		return;
	for (i = 0; i < cnt; i++) {
		if (blocks[i] <= QT_HEAD_BLOCK || cmpxchg(&table, n, 0) != n)
			continue;
		rec = bufs[i];
		if (n == 1)
			rec[1].id = rec[0].id;
		else
			rec[0].space = cpu_to_le64(-(1LL << 40));
		atomic_inc(&failed);
		break;
	}
}

/* true if this write is to be skipped: the table stays torn */
static bool cut_table(const unsigned int *blocks, void * const *bufs, int cnt)
{
	if (!READ_ONCE(cut)) {
		WRITE_ONCE(cutting, false);
		return false;
	}
	if (blocks[0] < QT_HEAD_BLOCK)
		return false;
	if (READ_ONCE(cutting))
		return true;
	if (cnt == 1 && blocks[0] == QT_HEAD_BLOCK &&
	    !le64_to_cpup(bufs[0] + QT_CMT_OFF))
		WRITE_ONCE(cutting, true);
	return false;
}

/*
 * ubifs_jnl_write_blocks(c, inode, blocks, bufs, cnt): the quota series'
 * write of one quota file change, and of a usage table's node group
 */
static int jnl_pre(struct kprobe *p, struct pt_regs *regs)
{
	const unsigned int *blocks = (void *)regs_get_kernel_argument(regs, 2);
	void * const *bufs = (void *)regs_get_kernel_argument(regs, 3);
	int cnt = regs_get_kernel_argument(regs, 4);

	if (cnt <= 0)
		return 0;
	if (cut_table(blocks, bufs, cnt)) {
		atomic_inc(&failed);
		instruction_pointer_set(regs, (unsigned long)qfail_eio);
		return 1;
	}
	tear_root(blocks, bufs, cnt);
	damage_table(blocks, bufs, cnt);
	return 0;
}

static struct kprobe jnl_probe = {
	.symbol_name = "ubifs_jnl_write_blocks",
	.pre_handler = jnl_pre,
};

static int skip_if(int pid, struct pt_regs *regs, int (*ret)(void))
{
	if (!pid || task_tgid_nr(current) != pid)
		return 0;
	atomic_inc(&failed);
	instruction_pointer_set(regs, (unsigned long)ret);
	/* Non-zero: the instruction pointer was changed, do not single-step */
	return 1;
}

/*
 * Calls made by nospace_pid's process so far, for nospace_after; the
 * count starts again when nospace_pid names another process (a test
 * writes nospace_after first, then the pid).
 */
static atomic_t budget_calls = ATOMIC_INIT(0);
static int budget_last_pid;

static int budget_pre(struct kprobe *p, struct pt_regs *regs)
{
	int pid = READ_ONCE(nospace_pid);

	if (!pid || task_tgid_nr(current) != pid)
		return 0;
	if (xchg(&budget_last_pid, pid) != pid)
		atomic_set(&budget_calls, 0);
	if (atomic_inc_return(&budget_calls) <= READ_ONCE(nospace_after))
		return 0;
	return skip_if(pid, regs, qfail_enospc);
}

static int rename_pre(struct kprobe *p, struct pt_regs *regs)
{
	return skip_if(READ_ONCE(rename_pid), regs, qfail_eio);
}

static int context_pre(struct kprobe *p, struct pt_regs *regs)
{
	return skip_if(READ_ONCE(context_pid), regs, qfail_enospc);
}

static struct kprobe budget_probe = {
	.symbol_name = "ubifs_budget_space",
	.pre_handler = budget_pre,
};

static struct kprobe rename_probe = {
	.symbol_name = "ubifs_jnl_rename",
	.pre_handler = rename_pre,
};

static struct kprobe context_probe = {
	.symbol_name = "fscrypt_set_context",
	.pre_handler = context_pre,
};

static int __init qfail_init(void)
{
	int err;

	err = register_kretprobe(&qfail_probe);
	if (err)
		return err;
	err = register_kretprobe(&qread_probe);
	if (err)
		goto out_write;
	err = register_kprobe(&budget_probe);
	if (err)
		goto out_read;
	err = register_kprobe(&rename_probe);
	if (err)
		goto out_budget;
	err = register_kprobe(&context_probe);
	if (err)
		goto out_rename;
	err = register_kprobe(&jnl_probe);
	if (err)
		goto out_context;
	return 0;

out_context:
	unregister_kprobe(&context_probe);
out_rename:
	unregister_kprobe(&rename_probe);
out_budget:
	unregister_kprobe(&budget_probe);
out_read:
	unregister_kretprobe(&qread_probe);
out_write:
	unregister_kretprobe(&qfail_probe);
	return err;
}

static void __exit qfail_exit(void)
{
	unregister_kprobe(&jnl_probe);
	unregister_kprobe(&context_probe);
	unregister_kprobe(&rename_probe);
	unregister_kprobe(&budget_probe);
	unregister_kretprobe(&qread_probe);
	unregister_kretprobe(&qfail_probe);
}

module_init(qfail_init);
module_exit(qfail_exit);
MODULE_DESCRIPTION("qfd test helper: make UBIFS quota and journal calls fail");
MODULE_LICENSE("GPL");
