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
};

struct fsplan {
	struct qfd_fs fs;
	struct typeplan t[QFD_NTYPES];
	size_t nchanged, nunchanged;
};

/* The steps of one quota type, in the order they are written. */
enum { QFD_STEP_GRACE, QFD_STEP_LIMITS, QFD_STEP_ENFORCE, QFD_NSTEPS };

/* Why and where a write phase stopped, and what putting back achieved. */
struct qfd_applystop {
	size_t fs;		/* index into the plan */
	int type, step;
	int err;		/* the kernel's error, or 0 for a signal */
	int sig;		/* the deferred signal that stopped it */
	size_t nwritten;	/* changes written before the stop */
	size_t nplanned;	/* changes the plan has */
	size_t nkept;		/* of nwritten, those that could not be put back */
	char kept[512];		/* the first of them, and the kernel's error */
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

/* The one line for a failed qfd_apply_write(), without "qfd: ". */
void qfd_applystop_msg(char *buf, size_t len, const struct qfd_want *want,
		       const struct fsplan *plan, const struct qfd_applystop *st);

#endif
