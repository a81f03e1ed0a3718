// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole-or-nothing writing of limit requests (setwrite.h).
 *
 * The kernel has no transaction over several ids, but every old value was
 * read before the first write, so a write phase that cannot finish (the
 * kernel refuses an id, the filesystem goes read-only, the administrator
 * presses ^C) can be undone by writing the old values back with the same
 * field mask.  What the run could not put back is said, never hidden.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kerr.h"
#include "mnt.h"
#include "qfd.h"
#include "quota.h"
#include "setwrite.h"
#include "sigdefer.h"

static void req_dq(const struct qfd_setreq *r, bool old, struct qfd_dq *dq)
{
	const uint64_t *lim = old ? r->old : r->lim;
	const int64_t *timer = old ? r->old_timer : r->timer;

	memset(dq, 0, sizeof(*dq));
	dq->space_soft = lim[QFD_LIM_SPACE_SOFT];
	dq->space_hard = lim[QFD_LIM_SPACE_HARD];
	dq->files_soft = lim[QFD_LIM_FILES_SOFT];
	dq->files_hard = lim[QFD_LIM_FILES_HARD];
	dq->space_timer = timer[QFD_TIMER_SPACE];
	dq->files_timer = timer[QFD_TIMER_FILES];
}

/* What the kernel has, as r's old values. */
static void req_old(struct qfd_setreq *r, const struct qfd_dq *dq)
{
	r->old[QFD_LIM_SPACE_SOFT] = dq->space_soft;
	r->old[QFD_LIM_SPACE_HARD] = dq->space_hard;
	r->old[QFD_LIM_FILES_SOFT] = dq->files_soft;
	r->old[QFD_LIM_FILES_HARD] = dq->files_hard;
	/* to put back a grace time that a limit change restarts */
	r->old_timer[QFD_TIMER_SPACE] = dq->space_timer;
	r->old_timer[QFD_TIMER_FILES] = dq->files_timer;
}

/*
 * The mask that puts r back.  A limit change makes the kernel stop or
 * restart a grace time (ext4's do_set_dqblk, XFS's adjust_dqtimers), so
 * a deadline that ran before is sent back with the limits.  Never for id
 * 0, whose "grace time" is the grace period of everyone.
 */
static unsigned int putback_mask(const struct qfd_setreq *r)
{
	unsigned int mask = r->mask;

	if (r->id && r->old_timer[QFD_TIMER_SPACE])
		mask |= QFD_SET_SPACE_TIMER;
	if (r->id && r->old_timer[QFD_TIMER_FILES])
		mask |= QFD_SET_FILES_TIMER;
	return mask;
}

void qfd_setlist_put_back(struct qfd_fs *fs, int type, struct qfd_setlist *l,
			  struct qfd_setwrite *w)
{
	struct qfd_dq dq;
	size_t n = l->n;
	int rc;

	/* newest first: the reverse of the writes */
	while (n--) {
		struct qfd_setreq r;

		if (!qfd_setlist_written(l, n))
			continue;
		qfd_setlist_get(l, n, &r);
		req_dq(&r, true, &dq);
		rc = qfd_quota_set(fs, type, r.id, putback_mask(&r), &dq);
		if (!rc) {
			qfd_setlist_set_written(l, n, false);
			continue;
		}
		w->nkept++;
		/* the lowest index last: the first in the list */
		w->kept_r = r;
		w->kept = &w->kept_r;
		w->kept_err = rc;
	}
}

/* "MOUNT: TYPE WHO", where a message about r starts. */
static void req_where(const struct qfd_setplan *p, const struct qfd_setreq *r,
		      char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s %s", p->fs->target, qfd_type_name(p->type),
		 qfd_setreq_who(p->l, r));
}

/* Limit i of r as the filesystem will keep it: space rounded up to unit. */
static uint64_t kept_limit(const struct qfd_setplan *p, const struct qfd_setreq *r,
			   int i)
{
	uint64_t v = r->lim[i], unit = p->unit;

	if (i <= QFD_LIM_SPACE_HARD && v % unit && v <= UINT64_MAX - unit)
		v += unit - v % unit;
	return v;
}

static bool soft_over_hard(const uint64_t *lim)
{
	return (lim[QFD_LIM_SPACE_HARD] && lim[QFD_LIM_SPACE_SOFT] > lim[QFD_LIM_SPACE_HARD]) ||
	       (lim[QFD_LIM_FILES_HARD] && lim[QFD_LIM_FILES_SOFT] > lim[QFD_LIM_FILES_HARD]);
}

bool qfd_setreq_self_contained(const struct qfd_setplan *p,
			       const struct qfd_setreq *r)
{
	uint64_t lim[QFD_NLIMITS];
	int i;

	/* a grace time is set only over a soft limit: it needs the usage */
	if (p->raise_only || r->up || r->down || r->asked >> QFD_NLIMITS)
		return false;
	for (i = 0; i < QFD_NLIMITS; i++) {
		if (!(r->asked & (1u << i)))
			return false;
		lim[i] = kept_limit(p, r, i);
	}
	return !soft_over_hard(lim);
}

int qfd_setreq_plan(const struct qfd_setplan *p, struct qfd_setreq *r,
		    uint64_t *final, struct qfd_dq *dq)
{
	char where[512];
	int i, rc;

	rc = qfd_quota_get(p->fs, p->type, r->id, dq);
	if (rc)
		return rc;
	req_old(r, dq);
	r->mask = 0;
	for (i = 0; i < QFD_NLIMITS; i++) {
		bool asked = r->asked & (1u << i);

		/*
		 * Only a relative limit can fail here, and only it needs the
		 * words of its message: four snprintf calls per id were a
		 * quarter of a batch's own time (bench/README).
		 */
		if (asked && ((r->up | r->down) & (1u << i))) {
			req_where(p, r, where, sizeof(where));
			if (qfd_setreq_resolve(p->l, r, i, where))
				return 1;
		}
		if (asked)
			r->lim[i] = kept_limit(p, r, i);
		if (asked && p->raise_only && qfd_lim_lowers(r->old[i], r->lim[i]))
			asked = false;
		final[i] = asked ? r->lim[i] : r->old[i];
		if (asked && r->lim[i] != r->old[i])
			r->mask |= 1u << i;
	}
	/* XFS silently ignores such a pair: refuse it for everyone */
	if (soft_over_hard(final)) {
		req_where(p, r, where, sizeof(where));
		qfd_setreq_warn(p->l, r, "%s: a soft limit would exceed its hard limit",
				where);
		return 1;
	}
	return 0;
}

/* Note the kernel's refusal of request n, and undo what it may have left. */
static void refused(struct qfd_fs *fs, int type, const struct qfd_setreq *r,
		    size_t n, int rc, struct qfd_setwrite *w)
{
	struct qfd_dq dq;

	w->failed_r = *r;
	w->failed = &w->failed_r;
	w->failed_n = n;
	w->err = rc;
	/*
	 * A refusal changes nothing, but an error after the in-memory
	 * update (EIO, ENOSPC writing the quota file) may leave the new
	 * values: put them back too, quietly, as the id is reported as
	 * refused anyway.
	 */
	req_dq(r, true, &dq);
	qfd_quota_set(fs, type, r->id, putback_mask(r), &dq);
}

int qfd_setlist_write(struct qfd_fs *fs, int type, struct qfd_setlist *l,
		      struct qfd_setwrite *w)
{
	struct qfd_setreq r;
	struct qfd_dq dq;
	size_t n, last = 0;
	int rc;

	memset(w, 0, sizeof(*w));
	for (n = 0; n < l->n; n++) {
		qfd_setlist_set_written(l, n, false);
		if (qfd_setlist_mask(l, n)) {
			w->nmasked++;
			last = n;
		}
	}
	for (n = 0; n < l->n; n++) {
		if (!qfd_setlist_mask(l, n))
			continue;
		w->sig = qfd_sigdefer_pending();
		if (w->sig)
			break;
		qfd_setlist_get(l, n, &r);
		req_dq(&r, false, &dq);
		rc = qfd_quota_set(fs, type, r.id, r.mask, &dq);
		if (rc) {
			refused(fs, type, &r, n, rc, w);
			break;
		}
		qfd_setlist_set_written(l, n, true);
		w->nwritten++;
		/* a signal during the last write still stops the whole run */
		if (n == last)
			w->sig = qfd_sigdefer_pending();
	}
	if (!w->failed && !w->sig)
		return 0;
	qfd_setlist_put_back(fs, type, l, w);
	return -1;
}

/*
 * One request of qfd_setlist_plan_write(): planned (its entry read) and,
 * when something differs, written.  Returns 0, or the error that stops
 * the run, with w saying which request and whether reading or writing.
 */
static int plan_write_one(const struct qfd_setplan *p, struct qfd_setlist *l,
			  size_t n, struct qfd_setwrite *w)
{
	uint64_t final[QFD_NLIMITS];
	struct qfd_setreq r;
	struct qfd_dq dq;
	int rc;

	qfd_setlist_get(l, n, &r);
	rc = qfd_setreq_plan(p, &r, final, &dq);
	if (rc > 0)	/* not for a self-contained list; reported */
		rc = -EINVAL;
	if (!rc && qfd_setlist_put(l, n, &r))
		rc = -ENOMEM;
	if (rc) {
		w->failed_r = r;
		w->failed = &w->failed_r;
		w->failed_n = n;
		w->err = rc;
		w->read = rc != -ENOMEM;
		return rc;
	}
	qfd_setlist_set_written(l, n, false);
	if (!r.mask)
		return 0;
	req_dq(&r, false, &dq);
	rc = qfd_quota_set(p->fs, p->type, r.id, r.mask, &dq);
	if (rc) {
		refused(p->fs, p->type, &r, n, rc, w);
		return rc;
	}
	qfd_setlist_set_written(l, n, true);
	w->nwritten++;
	return 0;
}

int qfd_setlist_plan_write(const struct qfd_setplan *p, struct qfd_setlist *l,
			   struct qfd_setwrite *w)
{
	size_t n;

	memset(w, 0, sizeof(*w));
	/* how many will change is known only at the end: say of how many */
	w->nmasked = l->n;
	for (n = 0; n < l->n; n++) {
		w->sig = qfd_sigdefer_pending();
		if (w->sig || plan_write_one(p, l, n, w))
			break;
	}
	/* a signal during the last write still stops the whole run */
	if (!w->failed && !w->sig)
		w->sig = qfd_sigdefer_pending();
	if (!w->failed && !w->sig)
		return 0;
	qfd_setlist_put_back(p->fs, p->type, l, w);
	return -1;
}

/*
 * Not root, or a read-only filesystem: a refusal that holds for every id,
 * so that when it comes at the first write the kernel's line says it all.
 */
bool qfd_err_refuses_all(int err)
{
	return err == -EPERM || err == -EACCES || err == -EROFS;
}

const char *qfd_signame(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	}
	return "a signal";
}

static const char *ids(size_t n)
{
	return n == 1 ? "id" : "ids";
}

void qfd_setwrite_msg(char *buf, size_t len, const struct qfd_fs *fs,
		      int type, const struct qfd_setlist *l,
		      const struct qfd_setwrite *w)
{
	const char *t = qfd_type_name(type);
	char head[768], err[512];
	size_t back = w->nwritten - w->nkept;
	const char *what;
	int off;

	if (w->failed && !w->nwritten && (w->read || qfd_err_refuses_all(w->err))) {
		qfd_kerr_fmt(buf, len, fs, type, w->err, "set limits for");
		return;
	}
	if (w->failed) {
		qfd_kerr_fmt(err, sizeof(err), fs, type, w->err,
			     w->read ? "read" : "set limits for");
		if (w->failed->line)
			snprintf(head, sizeof(head), "%s:%u: %s (%s %s, id %u)", l->file,
				 w->failed->line, err, t, qfd_setreq_who(l, w->failed),
				 w->failed->id);
		else
			snprintf(head, sizeof(head), "%s (%s %s, id %u)", err, t,
				 qfd_setreq_who(l, w->failed), w->failed->id);
	} else {
		snprintf(head, sizeof(head), "%s: interrupted by %s after %zu of %zu %s %s were written",
			 fs->target, qfd_signame(w->sig), w->nwritten, w->nmasked, t,
			 ids(w->nmasked));
	}
	what = w->failed ? " before it" : "";
	if (!w->nkept) {
		if (!w->nwritten)
			snprintf(buf, len, "%s; no id had been changed: nothing was changed", head);
		else
			snprintf(buf, len, "%s; the %zu %s written%s %s put back: nothing was changed",
				 head, w->nwritten, ids(w->nwritten), what,
				 w->nwritten == 1 ? "was" : "were");
		return;
	}
	off = snprintf(buf, len, "%s; of the %zu %s written%s, %zu %s put back, but putting back %s %s (id %u)",
		       head, w->nwritten, ids(w->nwritten), what, back,
		       back == 1 ? "was" : "were", t, qfd_setreq_who(l, w->kept),
		       w->kept->id);
	if (off < 0 || (size_t)off >= len)
		return;
	qfd_kerr_fmt(err, sizeof(err), fs, type, w->kept_err, "put back limits for");
	snprintf(buf + off, len - (size_t)off, "%s failed (%s): %zu %s %s new limits, listed on stdout",
		 w->nkept > 1 ? " and others" : "", err, w->nkept, ids(w->nkept),
		 w->nkept == 1 ? "keeps its" : "keep their");
}
