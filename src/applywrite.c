// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The write phase of 'qfd apply' (apply.h): whole or nothing, like a
 * batch of 'qfd set' (setwrite.c), but over every step of the document:
 * grace periods, limits and enforcement of each type of each filesystem.
 *
 * Everything the steps overwrite was read by the plan, so a stop (the
 * kernel refuses a write, the filesystem goes read-only, a signal) is
 * undone by writing the old values back in the reverse order.  A step
 * that the kernel refused has itself changed nothing, except for limits,
 * which setwrite.c puts back on its own.
 */
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "batch.h"
#include "kerr.h"
#include "sigdefer.h"

struct applywrite {
	struct qfd_want *want;
	struct fsplan *plan;
	struct qfd_applystop *st;
};

static struct qfd_want_type *want_type(const struct applywrite *aw,
				       size_t i, int t)
{
	return &aw->want->fs[i].t[t];
}

/* How many changes a step has to write (for the messages). */
static size_t step_changes(const struct applywrite *aw, size_t i, int t,
			   int step)
{
	const struct typeplan *tp = &aw->plan[i].t[t];
	const struct qfd_setlist *l = &want_type(aw, i, t)->list;
	size_t n, c = 0;

	if (!want_type(aw, i, t)->present)
		return 0;
	switch (step) {
	case QFD_STEP_GRACE:
		return tp->grace[0] || tp->grace[1];
	case QFD_STEP_ENFORCE:
		return tp->enforce;
	}
	/* planned as they are written: as many as there are, at most */
	if (tp->deferred)
		return l->n;
	for (n = 0; n < l->n; n++)
		c += qfd_setlist_mask(l, n) != 0;
	return c;
}

static int write_grace(struct fsplan *fp, int t, const struct qfd_want_type *wt)
{
	struct typeplan *tp = &fp->t[t];
	int rc;

	if (!tp->grace[0] && !tp->grace[1])
		return 0;
	rc = qfd_quota_set_grace(&fp->fs, t, tp->grace[0] ? &wt->grace[0] : NULL,
			  tp->grace[1] ? &wt->grace[1] : NULL);
	tp->grace_written = !rc;
	return rc;
}

static int write_enforce(struct fsplan *fp, int t, const struct qfd_want_type *wt)
{
	struct typeplan *tp = &fp->t[t];
	int rc;

	if (!tp->enforce)
		return 0;
	rc = wt->enforce == QFD_ENF_ON ? qfd_quota_on(&fp->fs, t) : qfd_quota_off(&fp->fs, t);
	tp->enforce_written = !rc;
	return rc;
}

/* Note a change that could not be put back; the first one is named. */
static void kept(struct applywrite *aw, size_t i, int t, int rc,
		 const char *what, const char *who)
{
	char *k = aw->st->kept;
	size_t n;

	if (aw->st->nkept++)
		return;
	/* A line too long for the buffer is cut: it is a message. */
	qfd_kerr_fmt(k, sizeof(aw->st->kept), &aw->plan[i].fs, t, rc, what);
	n = strlen(k);
	if (who && n + 1 < sizeof(aw->st->kept))
		snprintf(k + n, sizeof(aw->st->kept) - n, " %s", who);
}

static void kept_limits(struct applywrite *aw, size_t i, int t,
			const struct qfd_setwrite *w)
{
	const struct qfd_setlist *l = &want_type(aw, i, t)->list;
	char who[300];

	snprintf(who, sizeof(who), "(%s %s, id %u)", qfd_type_name(t),
		 qfd_setreq_who(l, w->kept), w->kept->id);
	kept(aw, i, t, w->kept_err, "put back limits for", who);
	aw->st->nkept += w->nkept - 1;
}

/* One step; 0, or -1 with the stop recorded (limits: put back already). */
static int write_step(struct applywrite *aw, size_t i, int t, int step)
{
	struct qfd_want_type *wt = want_type(aw, i, t);
	struct fsplan *fp = &aw->plan[i];
	struct typeplan *tp = &fp->t[t];
	int rc = 0;

	if (!wt->present)
		return 0;
	aw->st->sig = qfd_sigdefer_pending();
	if (aw->st->sig)
		return -1;
	switch (step) {
	case QFD_STEP_GRACE:
		rc = write_grace(fp, t, wt);
		break;
	case QFD_STEP_LIMITS:
		if (tp->deferred)
			rc = qfd_setlist_plan_write(&tp->plan, &wt->list, &tp->w);
		else
			rc = qfd_setlist_write(&fp->fs, t, &wt->list, &tp->w);
		if (!rc) {
			aw->st->nwritten += tp->w.nwritten;
			return 0;
		}
		aw->st->nwritten += tp->w.nwritten;
		aw->st->sig = tp->w.sig;
		aw->st->err = tp->w.failed ? tp->w.err : 0;
		if (tp->w.nkept)
			kept_limits(aw, i, t, &tp->w);
		return -1;
	case QFD_STEP_ENFORCE:
		rc = write_enforce(fp, t, wt);
		break;
	}
	if (rc)
		aw->st->err = rc;
	else
		aw->st->nwritten += step_changes(aw, i, t, step);
	return rc ? -1 : 0;
}

static void undo_grace(struct applywrite *aw, size_t i, int t)
{
	struct fsplan *fp = &aw->plan[i];
	struct typeplan *tp = &fp->t[t];
	uint64_t old[QFD_NTIMERS] = { tp->st.space_grace, tp->st.files_grace };
	int rc;

	if (!tp->grace_written)
		return;
	rc = qfd_quota_set_grace(&fp->fs, t, tp->grace[0] ? &old[0] : NULL,
			  tp->grace[1] ? &old[1] : NULL);
	if (rc)
		kept(aw, i, t, rc, "put back the grace periods of", NULL);
	else
		tp->grace_written = false;
}

static void undo_limits(struct applywrite *aw, size_t i, int t)
{
	struct qfd_want_type *wt = want_type(aw, i, t);
	struct qfd_setwrite w;

	memset(&w, 0, sizeof(w));
	qfd_setlist_put_back(&aw->plan[i].fs, t, &wt->list, &w);
	if (w.nkept)
		kept_limits(aw, i, t, &w);
}

static void undo_enforce(struct applywrite *aw, size_t i, int t)
{
	struct fsplan *fp = &aw->plan[i];
	struct typeplan *tp = &fp->t[t];
	bool was_on = want_type(aw, i, t)->enforce != QFD_ENF_ON;
	int rc;

	if (!tp->enforce_written)
		return;
	rc = was_on ? qfd_quota_on(&fp->fs, t) : qfd_quota_off(&fp->fs, t);
	if (rc)
		kept(aw, i, t, rc, was_on ? "turn back on" : "turn back off", NULL);
	else
		tp->enforce_written = false;
}

/* Every step before position pos, newest first. */
static void undo_before(struct applywrite *aw, size_t pos)
{
	while (pos--) {
		size_t i = pos / (QFD_NTYPES * QFD_NSTEPS);
		int t = (int)(pos / QFD_NSTEPS % QFD_NTYPES);

		if (!want_type(aw, i, t)->present)
			continue;
		switch (pos % QFD_NSTEPS) {
		case QFD_STEP_GRACE:
			undo_grace(aw, i, t);
			break;
		case QFD_STEP_LIMITS:
			undo_limits(aw, i, t);
			break;
		case QFD_STEP_ENFORCE:
			undo_enforce(aw, i, t);
			break;
		}
	}
}

/* The project directories of every filesystem: 0, or -1 with the stop. */
static int write_dirs(struct applywrite *aw)
{
	size_t i;
	int rc;

	for (i = 0; i < aw->want->nfs; i++) {
		rc = qfd_dirs_write(&aw->plan[i], &aw->want->fs[i],
				    &aw->st->nwritten, &aw->st->dir);
		aw->st->sig = qfd_sigdefer_pending();
		if (rc || aw->st->sig) {
			aw->st->fs = i;
			aw->st->step = QFD_STEP_DIRS;
			aw->st->err = rc;
			return -1;
		}
	}
	return 0;
}

/* Newest first, after every later step was put back. */
static void undo_dirs(struct applywrite *aw)
{
	size_t i = aw->want->nfs;

	while (i--)
		qfd_dirs_put_back(&aw->plan[i], &aw->want->fs[i], &aw->st->nkept,
				  aw->st->kept, sizeof(aw->st->kept));
}

int qfd_apply_write(struct qfd_want *want, struct fsplan *plan,
		    struct qfd_applystop *st)
{
	struct applywrite aw = { .want = want, .plan = plan, .st = st };
	size_t i, pos = 0, npos = want->nfs * QFD_NTYPES * QFD_NSTEPS;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < want->nfs; i++)
		st->nplanned += qfd_dirs_changes(&plan[i], &want->fs[i]);
	for (pos = 0; pos < npos; pos++)
		st->nplanned += step_changes(&aw, pos / (QFD_NTYPES * QFD_NSTEPS),
					     (int)(pos / QFD_NSTEPS % QFD_NTYPES),
					     (int)(pos % QFD_NSTEPS));
	if (write_dirs(&aw)) {
		undo_dirs(&aw);
		return -1;
	}
	for (pos = 0; pos < npos; pos++) {
		st->fs = pos / (QFD_NTYPES * QFD_NSTEPS);
		st->type = (int)(pos / QFD_NSTEPS % QFD_NTYPES);
		st->step = (int)(pos % QFD_NSTEPS);
		if (write_step(&aw, st->fs, st->type, st->step))
			break;
	}
	/* a signal during the last write still stops the whole run */
	if (pos == npos && st->nplanned)
		st->sig = qfd_sigdefer_pending();
	if (pos == npos && !st->sig)
		return 0;
	undo_before(&aw, pos);
	undo_dirs(&aw);
	return -1;
}

static const char *changes(size_t n)
{
	return n == 1 ? "change" : "changes";
}

/* What stopped the run: the kernel's refusal of one step, or a signal. */
static void stop_head(char *buf, size_t len, const struct qfd_want *want,
		      const struct fsplan *plan, const struct qfd_applystop *st)
{
	const struct qfd_fs *fs = &plan[st->fs].fs;
	const struct typeplan *tp = &plan[st->fs].t[st->type];
	const struct qfd_setlist *l = &want->fs[st->fs].t[st->type].list;
	char err[512];
	/* refused before any write, for every id alike: the kernel's line */
	bool global = !st->nwritten && qfd_err_refuses_all(st->err);

	if (st->step == QFD_STEP_DIRS && st->err) {
		qfd_dirs_msg(buf, len, &plan[st->fs], &want->fs[st->fs], st->dir, st->err);
		return;
	}
	if (!st->err && st->sig) {
		snprintf(buf, len, "%s: interrupted by %s after %zu of %zu %s were written",
			 want->file, qfd_signame(st->sig), st->nwritten, st->nplanned, changes(st->nplanned));
		return;
	}
	if (st->step == QFD_STEP_LIMITS && !global) {
		qfd_kerr_fmt(err, sizeof(err), fs, st->type, tp->w.err,
			     tp->w.read ? "read" : "set limits for");
		snprintf(buf, len, "%s (%s %s, id %u)", err, qfd_type_name(st->type),
			 qfd_setreq_who(l, tp->w.failed), tp->w.failed->id);
		return;
	}
	qfd_kerr_fmt(buf, len, fs, st->type, st->err,
		     st->step == QFD_STEP_LIMITS ? "set limits for" :
		     st->step == QFD_STEP_GRACE ? "set the grace periods of" :
		     want->fs[st->fs].t[st->type].enforce == QFD_ENF_ON ?
		     "turn on" : "turn off");
}

void qfd_applystop_msg(char *buf, size_t len, const struct qfd_want *want,
		       const struct fsplan *plan, const struct qfd_applystop *st)
{
	size_t done = st->nwritten, back = st->nwritten - st->nkept;
	const char *before = st->err ? " before it" : "";
	char head[768];

	stop_head(head, sizeof(head), want, plan, st);
	if (!done && qfd_err_refuses_all(st->err))
		snprintf(buf, len, "%s", head);
	else if (!done)
		snprintf(buf, len, "%s; no change had been written: nothing was changed", head);
	else if (!st->nkept)
		snprintf(buf, len, "%s; the %zu %s written%s %s put back: nothing was changed",
			 head, done, changes(done), before, done == 1 ? "was" : "were");
	else
		snprintf(buf, len, "%s; of the %zu %s written%s, %zu %s put back, but %s failed: %zu %s kept (\"changed\" in the result)",
			 head, done, changes(done), before, back,
			 back == 1 ? "was" : "were", st->kept, st->nkept,
			 changes(st->nkept));
}
