/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plan a list of limit requests against the kernel's entries, then write
 * it whole or not at all: 'qfd set' and 'qfd apply' plan every request
 * (qfd_setreq_plan()) before anything is written, and then either every
 * request with a mask is written, or the ones already written are put
 * back to what the kernel had.
 */
#ifndef QFD_SETWRITE_H
#define QFD_SETWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "batch.h"

struct qfd_fs;
struct qfd_dq;

/* What the requests of one filesystem and quota type are planned with. */
struct qfd_setplan {
	struct qfd_fs *fs;
	int type;
	const struct qfd_setlist *l;	/* the requests' list, for WHO */
	uint64_t unit;		/* qfd_quota_limit_unit(fs): space limits round up to it */
	bool raise_only;	/* --raise-only: never lower a limit */
};

/*
 * Compare r with the kernel's entry (returned in dq): r->old and
 * r->old_timer from it, relative limits made absolute, space limits
 * rounded up as the filesystem will keep them (so that a re-run is
 * unchanged), and r->mask the limits that differ.  final gets the four
 * limits in force after the change, for the grace times.  Returns 0, 1
 * for a bad request (reported: a relative limit with nothing to count
 * from, a soft limit over its hard one), or a kernel error.
 */
int qfd_setreq_plan(const struct qfd_setplan *p, struct qfd_setreq *r,
		    uint64_t *final, struct qfd_dq *dq);

/*
 * Whether r's plan can fail only in the kernel: all four limits given,
 * none relative, each soft limit within its hard one as the filesystem
 * will keep them, no grace time, and no --raise-only (which keeps some
 * old limits).
 */
bool qfd_setreq_self_contained(const struct qfd_setplan *p,
			       const struct qfd_setreq *r);

/* qfd_setreq.written */
enum {
	QFD_WRITTEN_NO,		/* not written, or put back */
	QFD_WRITTEN_YES,	/* holds its new values */
};

/*
 * failed and kept point into the struct itself (copies of the requests,
 * which the list keeps packed): it is not to be copied.
 */
struct qfd_setwrite {
	size_t nmasked;		/* requests that had something to write */
	size_t nwritten;	/* written before the stop (all when none) */
	const struct qfd_setreq *failed;	/* the one the kernel refused */
	size_t failed_n;	/* its index in the list */
	int err;		/* its error */
	bool read;		/* reading its entry failed, not writing it */
	int sig;		/* the deferred signal that stopped the run */
	size_t nkept;		/* of nwritten, those a put-back failed for */
	const struct qfd_setreq *kept;	/* the first of them */
	int kept_err;		/* its error */
	struct qfd_setreq failed_r, kept_r;
};

/*
 * Write every request of l that has a mask, in order, with the signals of
 * sigdefer.h deferred by the caller.  On a kernel error, or when one of
 * those signals was noted before the last write returned, put back the old
 * values of the requests written (same mask), newest first.  Returns 0
 * when everything was written, else -1 with w saying what happened;
 * qfd_setlist_written() tells which requests hold their new values.
 */
int qfd_setlist_write(struct qfd_fs *fs, int type, struct qfd_setlist *l,
		      struct qfd_setwrite *w);

/*
 * The same for a list whose plan can fail only in the kernel (each request
 * qfd_setreq_self_contained(), nothing else, such as grace times, to
 * decide from the entries: the caller checks), planned and written one
 * request at a time, each entry read (qfd_setreq_plan()) right before it
 * is written.  On ext4, with the 100,000 entries of a batch in the
 * kernel's dquot cache (a hash of 512 chains), a write right after its
 * read finds the entry on a chain still in the CPU's caches; after a
 * whole pass of reads it walks a cold one: 25-40% more kernel time
 * (bench/README).  A failed read stops the run like a refused write,
 * after the earlier ids are put back; w->nmasked is then the list's
 * length, as what would have changed is unknown.
 */
int qfd_setlist_plan_write(const struct qfd_setplan *p, struct qfd_setlist *l,
			   struct qfd_setwrite *w);

/*
 * Put back the old values of every request of l that holds its new ones
 * (qfd_setlist_written()), newest first, after the list was written whole but a
 * later step of the same run failed ('qfd apply').  w->nkept, w->kept and
 * w->kept_err count and name the ones that could not be put back.
 */
void qfd_setlist_put_back(struct qfd_fs *fs, int type, struct qfd_setlist *l,
			  struct qfd_setwrite *w);

/*
 * The one line for a failed qfd_setlist_write(), without "qfd: ": what
 * stopped it, where, and how many ids were put back or not.
 */
void qfd_setwrite_msg(char *buf, size_t len, const struct qfd_fs *fs,
		      int type, const struct qfd_setlist *l,
		      const struct qfd_setwrite *w);

/* A kernel error that refuses every id alike (EPERM, EACCES, EROFS). */
bool qfd_err_refuses_all(int err);

/* "SIGINT" for the signals sigdefer.h defers. */
const char *qfd_signame(int sig);

#endif
