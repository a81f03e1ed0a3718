/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan of 'qfd apply' (cmd-apply.c makes it) and its write phase
 * (applywrite.c), which writes the plan whole or, as far as the kernel
 * lets it, not at all.
 */
#ifndef QFD_APPLY_H
#define QFD_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "desired.h"
#include "mnt.h"
#include "fsattr.h"
#include "quota.h"
#include "setwrite.h"

/* The whole-filesystem settings of one quota type: enforcement, grace. */
struct typeplan {
	struct qfd_state st;
	bool enforce;		/* enforcement changes */
	bool grace[QFD_NTIMERS];
	/* the write phase: what holds its new value now */
	bool grace_written, enforce_written;
	struct qfd_setwrite w;	/* the limits, as setwrite.h left them */
	/*
	 * The limits are planned one id at a time right before each write
	 * (qfd_setlist_plan_write()), with plan, instead of all before.
	 */
	bool deferred;
	struct qfd_setplan plan;
};

/* One project directory of the document, as the plan found it. */
struct dirplan {
	struct fsxattr old, want;
	dev_t dev;
	ino_t ino;
	bool change;		/* the kernel's differs from the document's */
	bool written;		/* the write phase: holds its new value now */
};

struct fsplan {
	struct qfd_fs fs;
	struct typeplan t[QFD_NTYPES];
	struct dirplan *dirs;	/* one per qfd_want_fs.dirs */
	int mntfd;		/* the mount point, that dirs are beneath; -1 */
	struct qfd_fsattr_seen ids;
	size_t nchanged, nunchanged;
};

/*
 * The steps of one quota type, in the order they are written; before
 * them all, the project directories of every filesystem (QFD_STEP_DIRS),
 * so that the limits that follow find the trees assigned.
 */
enum {
	QFD_STEP_GRACE, QFD_STEP_LIMITS, QFD_STEP_ENFORCE, QFD_NSTEPS,
	QFD_STEP_DIRS = QFD_NSTEPS,
};

/* Why and where a write phase stopped, and what putting back achieved. */
struct qfd_applystop {
	size_t fs;		/* index into the plan */
	int type, step;
	size_t dir;		/* QFD_STEP_DIRS: the directory refused */
	int err;		/* the kernel's error, or 0 for a signal */
	int sig;		/* the deferred signal that stopped it */
	size_t nwritten;	/* changes written before the stop */
	size_t nplanned;	/* changes the plan has */
	size_t nkept;		/* of nwritten, those that could not be put back */
	char kept[768];		/* the first of them, and the kernel's error */
};

/*
 * Write every difference of the plan: per filesystem and type, the grace
 * periods, the limits (setwrite.h), then enforcement, with SIGINT, SIGTERM
 * and SIGHUP deferred by the caller.  Returns 0 when everything was
 * written.  On a kernel error, or when one of those signals was noted
 * before the last write returned, every change written is put back,
 * newest first, and -1 is returned with st saying what happened; the
 * typeplans and requests then say what still holds its new value.
 */
int qfd_apply_write(struct qfd_want *want, struct fsplan *plan,
		    struct qfd_applystop *st);

/*
 * Project directories (applydirs.c).  Plan: open every directory of wf
 * beneath fp's mount point (no symbolic link, no other filesystem on the
 * way), read its project and inherit flag, and compare; each bad item is
 * one line naming the mount point and the directory, counted in *nbad.
 * Returns 0 or -ENOMEM.
 */
int qfd_dirs_plan(struct fsplan *fp, const struct qfd_want_fs *wf, size_t *nbad);
void qfd_dirs_free(struct fsplan *fp);
/* Directories with a change. */
size_t qfd_dirs_changes(const struct fsplan *fp, const struct qfd_want_fs *wf);
/*
 * Write every change, in order: 0, or -errno with *failed its index,
 * after which the caller puts back the ones written (qfd_dirs_put_back,
 * newest first).  *nkept counts those that could not be.
 */
int qfd_dirs_write(struct fsplan *fp, const struct qfd_want_fs *wf,
		   size_t *nwritten, size_t *failed);
void qfd_dirs_put_back(struct fsplan *fp, const struct qfd_want_fs *wf,
		       size_t *nkept, char *kept, size_t len);
/* The head of the line for a refused directory, without "qfd: ". */
void qfd_dirs_msg(char *buf, size_t len, const struct fsplan *fp,
		  const struct qfd_want_fs *wf, size_t dir, int err);

/* The one line for a failed qfd_apply_write(), without "qfd: ". */
void qfd_applystop_msg(char *buf, size_t len, const struct qfd_want *want,
		       const struct fsplan *plan, const struct qfd_applystop *st);

#endif
