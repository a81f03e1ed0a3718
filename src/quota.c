// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's quota interface.
 *
 * Every command goes through quotactl_fd(2) on the filesystem's O_PATH
 * descriptor.  Kernels before 5.14 lack that syscall; there, and only there,
 * the classic quotactl(2) is used on the block device libmount named.
 *
 * Reads use the generic Q_GETQUOTA family (exact bytes) and fall back to the
 * XFS-style Q_XGETQUOTA family on EROFS, because quotactl counts the generic
 * reads as writes and refuses them on read-only mounts.  Writes use
 * Q_XSETQLIM, whose field mask can change one limit alone: Q_SETQUOTA cannot
 * set a soft limit without also setting the hard one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/dqblk_xfs.h>
#include <linux/mount.h>
#include <linux/quota.h>

#include "mnt.h"
#include "qfd.h"
#include "quota.h"

/*
 * Old libc headers lack the number.  quotactl_fd is 443 on x86, arm,
 * arm64, riscv and most others, but not everywhere (alpha 553, ia64 1467,
 * x32 0x40000000 + 443, mips 4443/5443/6443; kernel/README lists them):
 * guess only where it is known to be 443, and elsewhere fail the build
 * rather than make some other syscall.
 */
#ifndef SYS_quotactl_fd
# if (defined(__x86_64__) && !defined(__ILP32__)) || defined(__i386__) || \
     defined(__aarch64__) || defined(__arm__) || defined(__riscv) || \
     defined(__powerpc__) || defined(__s390__) || defined(__loongarch__)
#  define SYS_quotactl_fd 443
# else
#  error "SYS_quotactl_fd is unknown here: build with Linux 5.14 or later headers"
# endif
#endif

#define BB_SHIFT	9	/* the X commands count 512-byte basic blocks */

/*
 * QCMD() from <linux/quota.h> shifts 0x80000x into the sign bit of an int,
 * which C leaves undefined: build the same bits unsigned.
 */
static int qcmd(int cmd, int type)
{
	return (int)(((unsigned int)cmd << SUBCMDSHIFT) |
		     ((unsigned int)type & SUBCMDMASK));
}

static const char *cmd_name(int cmd)
{
	switch (cmd) {
	case Q_SYNC: return "Q_SYNC";
	case Q_QUOTAON: return "Q_QUOTAON";
	case Q_QUOTAOFF: return "Q_QUOTAOFF";
	case Q_GETFMT: return "Q_GETFMT";
	case Q_GETINFO: return "Q_GETINFO";
	case Q_SETINFO: return "Q_SETINFO";
	case Q_GETQUOTA: return "Q_GETQUOTA";
	case Q_GETNEXTQUOTA: return "Q_GETNEXTQUOTA";
	case Q_XGETQUOTA: return "Q_XGETQUOTA";
	case Q_XGETNEXTQUOTA: return "Q_XGETNEXTQUOTA";
	case Q_XSETQLIM: return "Q_XSETQLIM";
	case Q_XGETQSTATV: return "Q_XGETQSTATV";
	case Q_XQUOTASYNC: return "Q_XQUOTASYNC";
	}
	return "?";
}

static bool have_quotactl_fd(void)
{
	static int have = -1;

	/*
	 * An invalid descriptor tells the two apart without side effects:
	 * the syscall answers EBADF, a kernel without it ENOSYS.
	 */
	if (have < 0)
		have = !(syscall(SYS_quotactl_fd, -1, qcmd(Q_SYNC, USRQUOTA),
				 0, NULL) < 0 && errno == ENOSYS);
	return have;
}

static int qctl(struct qfd_fs *fs, int cmd, int type, uint32_t id, void *addr)
{
	const char *via = "quotactl_fd";
	struct stat st;
	long rc;

	if (!fs->use_quotactl && !have_quotactl_fd())
		fs->use_quotactl = true;

	if (fs->use_quotactl) {
		via = "quotactl";
		/*
		 * No device node (UBIFS, tmpfs, a container's /dev): nothing
		 * but quotactl_fd can reach this filesystem.
		 */
		if (!fs->source || stat(fs->source, &st) || !S_ISBLK(st.st_mode)) {
			errno = ENOTBLK;
			rc = -1;
		} else {
			rc = syscall(SYS_quotactl, qcmd(cmd, type), fs->source,
				     id, addr);
		}
	} else {
		rc = syscall(SYS_quotactl_fd, fs->fd, qcmd(cmd, type), id, addr);
	}
	rc = rc < 0 ? -errno : 0;

	if (qfd_debug)
		fprintf(stderr, "qfd: debug: %s(%s, %s, %s, %u) = %s\n", via,
			fs->use_quotactl && fs->source ? fs->source : fs->target,
			cmd_name(cmd), qfd_type_name(type), id,
			rc ? strerror((int)-rc) : "0");
	return (int)rc;
}

static int64_t xtimer(const struct fs_disk_quota *d, int32_t lo, int8_t hi)
{
	if (d->d_fieldmask & FS_DQ_BIGTIME)
		return (int64_t)(uint32_t)lo | (int64_t)hi << 32;
	return lo;
}

static void from_xfs(struct qfd_dq *dq, const struct fs_disk_quota *d)
{
	dq->id = d->d_id;
	dq->space = d->d_bcount << BB_SHIFT;
	dq->space_soft = d->d_blk_softlimit << BB_SHIFT;
	dq->space_hard = d->d_blk_hardlimit << BB_SHIFT;
	dq->files = d->d_icount;
	dq->files_soft = d->d_ino_softlimit;
	dq->files_hard = d->d_ino_hardlimit;
	dq->space_timer = xtimer(d, d->d_btimer, d->d_btimer_hi);
	dq->files_timer = xtimer(d, d->d_itimer, d->d_itimer_hi);
}

static void from_generic(struct qfd_dq *dq, const struct if_nextdqblk *b)
{
	dq->id = b->dqb_id;
	dq->space = b->dqb_curspace;
	dq->space_soft = b->dqb_bsoftlimit * QIF_DQBLKSIZE;
	dq->space_hard = b->dqb_bhardlimit * QIF_DQBLKSIZE;
	dq->files = b->dqb_curinodes;
	dq->files_soft = b->dqb_isoftlimit;
	dq->files_hard = b->dqb_ihardlimit;
	dq->space_timer = (int64_t)b->dqb_btime;
	dq->files_timer = (int64_t)b->dqb_itime;
}

static int get_common(struct qfd_fs *fs, int type, uint32_t id,
		      struct qfd_dq *dq, bool next)
{
	struct fs_disk_quota d;
	struct if_nextdqblk b;
	int rc;

	memset(&b, 0, sizeof(b));
	if (!fs->readonly) {
		/* if_dqblk is if_nextdqblk without the trailing id */
		rc = qctl(fs, next ? Q_GETNEXTQUOTA : Q_GETQUOTA, type, id, &b);
		if (rc != -EROFS) {
			if (!rc) {
				if (!next)
					b.dqb_id = id;
				from_generic(dq, &b);
			}
			return rc;
		}
		fs->readonly = true;
	}
	memset(&d, 0, sizeof(d));
	rc = qctl(fs, next ? Q_XGETNEXTQUOTA : Q_XGETQUOTA, type, id, &d);
	if (!rc) {
		if (!next)
			d.d_id = id;
		from_xfs(dq, &d);
	}
	return rc;
}

int qfd_quota_get(struct qfd_fs *fs, int type, uint32_t id, struct qfd_dq *dq)
{
	int rc = get_common(fs, type, id, dq, false);

	/* XFS has no entry for an id never charged: no usage, no limits */
	if (rc == -ENOENT) {
		memset(dq, 0, sizeof(*dq));
		dq->id = id;
		rc = 0;
	}
	return rc;
}

int qfd_quota_next(struct qfd_fs *fs, int type, uint32_t id, struct qfd_dq *dq)
{
	return get_common(fs, type, id, dq, true);
}

int qfd_quota_each(struct qfd_fs *fs, int type, qfd_quota_each_fn fn, void *arg)
{
	struct qfd_dq dq;
	uint32_t id = 0;
	int rc;

	for (;;) {
		rc = qfd_quota_next(fs, type, id, &dq);
		if (rc == -ENOENT)
			return 0;
		if (!rc)
			rc = fn(&dq, arg);
		if (rc)
			return rc;
		/* the kernel never returns (uid_t)-1; stop before wrapping */
		if (dq.id >= UINT32_MAX - 1)
			return 0;
		id = dq.id + 1;
	}
}

static uint64_t bytes_to_bb(uint64_t bytes)
{
	/* round up to the kernel's 1 KiB limit unit first, then count BBs */
	uint64_t kib = bytes / QFD_LIMIT_UNIT + !!(bytes % QFD_LIMIT_UNIT);

	return kib * (QFD_LIMIT_UNIT >> BB_SHIFT);
}

static void set_xtimer(struct fs_disk_quota *d, int64_t t, int32_t *lo,
		       int8_t *hi)
{
	*lo = (int32_t)t;
	*hi = (int8_t)(t >> 32);
	d->d_fieldmask |= FS_DQ_BIGTIME;
}

int qfd_quota_set(struct qfd_fs *fs, int type, uint32_t id, unsigned int mask,
	   const struct qfd_dq *val)
{
	static const uint8_t xflags[QFD_NTYPES] = {
		[QFD_USR] = FS_USER_QUOTA,
		[QFD_GRP] = FS_GROUP_QUOTA,
		[QFD_PRJ] = FS_PROJ_QUOTA,
	};
	struct fs_disk_quota d;

	memset(&d, 0, sizeof(d));
	d.d_version = FS_DQUOT_VERSION;
	d.d_flags = xflags[type];
	d.d_id = id;
	if (mask & QFD_SET_SPACE_SOFT) {
		d.d_fieldmask |= FS_DQ_BSOFT;
		d.d_blk_softlimit = bytes_to_bb(val->space_soft);
	}
	if (mask & QFD_SET_SPACE_HARD) {
		d.d_fieldmask |= FS_DQ_BHARD;
		d.d_blk_hardlimit = bytes_to_bb(val->space_hard);
	}
	if (mask & QFD_SET_FILES_SOFT) {
		d.d_fieldmask |= FS_DQ_ISOFT;
		d.d_ino_softlimit = val->files_soft;
	}
	if (mask & QFD_SET_FILES_HARD) {
		d.d_fieldmask |= FS_DQ_IHARD;
		d.d_ino_hardlimit = val->files_hard;
	}
	if (mask & QFD_SET_SPACE_TIMER) {
		d.d_fieldmask |= FS_DQ_BTIMER;
		set_xtimer(&d, val->space_timer, &d.d_btimer, &d.d_btimer_hi);
	}
	if (mask & QFD_SET_FILES_TIMER) {
		d.d_fieldmask |= FS_DQ_ITIMER;
		set_xtimer(&d, val->files_timer, &d.d_itimer, &d.d_itimer_hi);
	}
	return qctl(fs, Q_XSETQLIM, type, id, &d);
}

/*
 * (qfd set) The quota formats keep space limits in KiB; XFS keeps them in
 * filesystem blocks and rounds up what it is given (XFS_B_TO_FSB).  A
 * wanted limit compared with the current one must be rounded the same
 * way, or every run would "change" a 1537K limit that XFS keeps as 1540K.
 */
uint64_t qfd_quota_limit_unit(const struct qfd_fs *fs)
{
	struct statfs sfs;

	if (fs->fstype && !strcmp(fs->fstype, "xfs") && !fstatfs(fs->fd, &sfs) &&
	    sfs.f_bsize > (long)QFD_LIMIT_UNIT)
		return (uint64_t)sfs.f_bsize;
	return QFD_LIMIT_UNIT;
}

/*
 * XFS with big timestamps (mkfs.xfs's default since xfsprogs 5.15) keeps
 * a grace deadline in 4-second steps on disk, rounded up, though the
 * in-memory dquot has the exact second until the next mount.  Without
 * big timestamps it keeps seconds, and a deadline in steps of 4 is kept
 * as it is: so on XFS every deadline is set in steps of 4.
 */
int64_t qfd_quota_round_timer(const struct qfd_fs *fs, int64_t t)
{
	if (fs->fstype && !strcmp(fs->fstype, "xfs") && t % 4)
		return t + 4 - t % 4;
	return t;
}

int qfd_quota_state(struct qfd_fs *fs, int type, struct qfd_state *st)
{
	static const uint16_t acct[QFD_NTYPES] = {
		FS_QUOTA_UDQ_ACCT, FS_QUOTA_GDQ_ACCT, FS_QUOTA_PDQ_ACCT };
	static const uint16_t enfd[QFD_NTYPES] = {
		FS_QUOTA_UDQ_ENFD, FS_QUOTA_GDQ_ENFD, FS_QUOTA_PDQ_ENFD };
	struct fs_quota_statv sv;
	struct if_dqinfo info;
	uint32_t fmt = 0;
	int rc;

	memset(st, 0, sizeof(*st));
	memset(&sv, 0, sizeof(sv));
	sv.qs_version = FS_QSTATV_VERSION1;
	rc = qctl(fs, Q_XGETQSTATV, type, 0, &sv);
	/*
	 * UBIFS with the quota series but no type on (mounted without quota
	 * options, or after a failed load) answers Q_XGETQSTATV with ENOSYS;
	 * Q_GETINFO then says ESRCH, "off", where the stock module says
	 * ENOSYS again.  Only for UBIFS: ext4 and XFS without quotas answer
	 * the same pair, and their ENOSYS line says better what to do.
	 */
	if (rc == -ENOSYS && !strcmp(fs->fstype, "ubifs")) {
		memset(&info, 0, sizeof(info));
		if (qctl(fs, Q_GETINFO, type, 0, &info) == -ESRCH)
			rc = -ESRCH;
	}
	if (rc)
		return rc;
	st->accounting = sv.qs_flags & acct[type];
	st->enforcing = sv.qs_flags & enfd[type];
	if (!st->accounting)
		return 0;

	memset(&info, 0, sizeof(info));
	rc = qctl(fs, Q_GETINFO, type, 0, &info);
	if (rc)
		return rc;
	st->space_grace = info.dqi_bgrace;
	st->files_grace = info.dqi_igrace;

	/* XFS keeps no quota file format; its answer is not an error */
	if (!qctl(fs, Q_GETFMT, type, 0, &fmt))
		st->format = fmt;
	return 0;
}

int qfd_quota_set_grace(struct qfd_fs *fs, int type, const uint64_t *space,
		 const uint64_t *files)
{
	struct if_dqinfo info;

	memset(&info, 0, sizeof(info));
	if (space) {
		info.dqi_bgrace = *space;
		info.dqi_valid |= IIF_BGRACE;
	}
	if (files) {
		info.dqi_igrace = *files;
		info.dqi_valid |= IIF_IGRACE;
	}
	return qctl(fs, Q_SETINFO, type, 0, &info);
}

int qfd_quota_on(struct qfd_fs *fs, int type)
{
	/* the format id only matters for visible quota files */
	return qctl(fs, Q_QUOTAON, type, QFMT_VFS_V1, NULL);
}

int qfd_quota_off(struct qfd_fs *fs, int type)
{
	return qctl(fs, Q_QUOTAOFF, type, 0, NULL);
}

int qfd_quota_sync(struct qfd_fs *fs, int type)
{
	int rc = qctl(fs, Q_SYNC, type, 0, NULL);

	/*
	 * XFS has no Q_SYNC handler: its dquots are written transactionally,
	 * and its own Q_XQUOTASYNC says so by succeeding.  A filesystem
	 * without any quota code answers ENOSYS to that too.
	 */
	if (rc == -ENOSYS)
		rc = qctl(fs, Q_XQUOTASYNC, type, 0, NULL);
	return rc;
}

/*
 * Whether this kernel's tmpfs takes the usrquota mount option: 1 yes, 0 no
 * (built without CONFIG_TMPFS_QUOTA, or older than 6.6), -1 cannot tell
 * (no privilege to open a filesystem context, no fsopen).  A context is
 * opened and never mounted: nothing changes.  A refusal counts only when
 * the context's log says the parameter is unknown; in a user namespace the
 * kernel refuses tmpfs quotas for another reason.
 */
int qfd_tmpfs_quota_support(void)
{
#if defined(SYS_fsopen) && defined(SYS_fsconfig)
	char log[256];
	ssize_t n;
	int fd, rc;

	fd = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = (int)syscall(SYS_fsconfig, fd, FSCONFIG_SET_FLAG, "usrquota", NULL, 0);
	if (!rc) {
		close(fd);
		return 1;
	}
	rc = -1;
	/* one message per read(2), "e tmpfs: Unknown parameter 'usrquota'" */
	while ((n = read(fd, log, sizeof(log) - 1)) > 0) {
		log[n] = '\0';
		if (strstr(log, "Unknown parameter"))
			rc = 0;
	}
	close(fd);
	return rc;
#else
	return -1;
#endif
}

const char *qfd_quota_format_name(uint32_t format)
{
	switch (format) {
	case QFMT_VFS_OLD: return "vfsold";
	case QFMT_VFS_V0: return "vfsv0";
	case QFMT_OCFS2: return "ocfs2";
	case QFMT_VFS_V1: return "vfsv1";
	}
	return NULL;
}
