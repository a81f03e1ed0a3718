/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Typed wrappers around quotactl_fd(2).  This is the only file that talks to
 * the kernel's quota interface.  Functions return 0 or a negative errno and
 * never print: the commands decide what an error means to the user.
 */
#ifndef QFD_QUOTA_H
#define QFD_QUOTA_H

#include <stdbool.h>
#include <stdint.h>

struct qfd_fs;

/* One id's usage and limits, in bytes and inode counts. */
struct qfd_dq {
	uint32_t id;
	uint64_t space, space_soft, space_hard;
	uint64_t files, files_soft, files_hard;
	int64_t space_timer, files_timer;	/* grace deadline, 0: none */
};

/* Fields of a limit change; only those in mask are sent to the kernel. */
enum {
	QFD_SET_SPACE_SOFT = 1 << 0,
	QFD_SET_SPACE_HARD = 1 << 1,
	QFD_SET_FILES_SOFT = 1 << 2,
	QFD_SET_FILES_HARD = 1 << 3,
	QFD_SET_SPACE_TIMER = 1 << 4,
	QFD_SET_FILES_TIMER = 1 << 5,
};

struct qfd_state {
	bool accounting;
	bool enforcing;
	uint32_t format;		/* QFMT_*, 0 when the kernel does not say */
	uint64_t space_grace;		/* seconds */
	uint64_t files_grace;
};

/*
 * The longest grace period, and the longest grace time qfd sets.  The
 * kernel copies a grace period into 32 bits (struct qc_info) whatever the
 * 64 of struct if_dqinfo, so 2^32 s would silently become 0; a grace time
 * is a deadline of 40 bits (d_btimer and d_btimer_hi), which now plus this
 * stays far below.
 */
#define QFD_GRACE_MAX	UINT32_MAX
/* The latest grace deadline a document may name: what 40 bits hold. */
#define QFD_DEADLINE_MAX	((INT64_C(1) << 39) - 1)

/* The kernel keeps block limits in 1 KiB units: limits are rounded up. */
#define QFD_LIMIT_UNIT	1024ULL

/* What the kernel will store for a space limit of bytes. */
static inline uint64_t qfd_quota_round_limit(uint64_t bytes)
{
	return (bytes + QFD_LIMIT_UNIT - 1) / QFD_LIMIT_UNIT * QFD_LIMIT_UNIT;
}

/* The unit fs keeps space limits in (a multiple of QFD_LIMIT_UNIT). */
uint64_t qfd_quota_limit_unit(const struct qfd_fs *fs);
/* A grace deadline t (> 0) as fs will keep it across a remount. */
int64_t qfd_quota_round_timer(const struct qfd_fs *fs, int64_t t);

int qfd_quota_get(struct qfd_fs *fs, int type, uint32_t id, struct qfd_dq *dq);
/* The first id >= id that has an entry; -ENOENT past the last one. */
int qfd_quota_next(struct qfd_fs *fs, int type, uint32_t id, struct qfd_dq *dq);
/*
 * Call fn for every id of type that has an entry, in id order, with one
 * Q_GETNEXTQUOTA a call: the walk report and check share.  Returns 0, the
 * first non-zero value fn returned, or a negative kernel error.
 */
typedef int (*qfd_quota_each_fn)(const struct qfd_dq *dq, void *arg);
int qfd_quota_each(struct qfd_fs *fs, int type, qfd_quota_each_fn fn, void *arg);
int qfd_quota_set(struct qfd_fs *fs, int type, uint32_t id, unsigned int mask,
	   const struct qfd_dq *val);
int qfd_quota_state(struct qfd_fs *fs, int type, struct qfd_state *st);
int qfd_quota_set_grace(struct qfd_fs *fs, int type, const uint64_t *space,
		 const uint64_t *files);
int qfd_quota_on(struct qfd_fs *fs, int type);
int qfd_quota_off(struct qfd_fs *fs, int type);
int qfd_quota_sync(struct qfd_fs *fs, int type);

int qfd_tmpfs_quota_support(void);
const char *qfd_quota_format_name(uint32_t format);

#endif
