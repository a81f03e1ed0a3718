// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd apply: bring filesystems to the quota state a document describes
 * (desired.c reads it; qfd-apply(8) has the schema).
 *
 * Parse, plan, apply.  The document is checked as a whole first; then every
 * filesystem is opened and every quota state and entry it names is read and
 * compared, and a soft limit that would exceed its hard one is refused:
 * any failure up to here has written nothing.  Only then are the
 * differences written, and only they, whole or not at all (applywrite.c):
 * a re-run changes nothing, and the result says so per item, which is
 * what Ansible and friends need.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json.h>

#include "apply.h"
#include "batch.h"
#include "cmds.h"
#include "desired.h"
#include "kerr.h"
#include "mnt.h"
#include "quota.h"
#include "sigdefer.h"
#include "units.h"

enum { OPT_CHECK = 0x200, OPT_DIFF, OPT_PATH, OPT_RAISE_ONLY, OPT_EXIT_CHANGED };

struct applycmd {
	bool check, diff, json, quiet, exit_changed, raise_only;
	const char *path;
	const char *file;
	struct qfd_want want;
	struct fsplan *plan;
	json_object *items;	/* -J */
	size_t nchanged;
	bool failed;
	bool stopped;		/* the write phase stopped and put back */
	struct qfd_applystop stop;
	char stopmsg[2048];	/* its one line */
};

static int parse(int argc, char **argv, struct applycmd *a)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "json", no_argument, NULL, 'J' },
		{ "path", required_argument, NULL, OPT_PATH },
		{ "raise-only", no_argument, NULL, OPT_RAISE_ONLY },
		{ "quiet", no_argument, NULL, 'q' },
		{ "exit-changed", no_argument, NULL, OPT_EXIT_CHANGED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	/* --path given twice has always meant the last one */
	static const int repeats[] = { OPT_PATH, 0 };
	struct qfd_getopt g = { &qfd_cmd_apply, "Jqh", opts, repeats, NULL };
	int c;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		switch (c) {
		case OPT_CHECK: a->check = true; break;
		case OPT_DIFF: a->diff = true; break;
		case 'J': a->json = true; break;
		case OPT_PATH: a->path = optarg; break;
		case OPT_RAISE_ONLY: a->raise_only = true; break;
		case 'q': a->quiet = true; break;
		case OPT_EXIT_CHANGED: a->exit_changed = true; break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	if (optind >= argc)
		return qfd_opts_bad("apply", "name the document: a FILE, or '-' for stdin");
	if (optind + 1 < argc)
		return qfd_opts_bad("apply", "one document at a time");
	a->file = argv[optind];
	return QFD_OPTS_GO;
}

/* The document, read in pieces as it is parsed (desired.c). */
static int read_doc(struct applycmd *a)
{
	bool is_stdin = !strcmp(a->file, "-");
	const char *name = is_stdin ? "stdin" : a->file;
	FILE *f = is_stdin ? stdin : fopen(a->file, "re");
	int rc;

	if (!f) {
		warn("%s", a->file);
		return QFD_EXIT_USAGE;
	}
	rc = qfd_want_read(&a->want, f, name, a->path);
	if (!is_stdin)
		fclose(f);
	if (rc == -EINVAL)
		return QFD_EXIT_USAGE;
	return rc ? QFD_EXIT_FAILURE : 0;
}

/*
 * The grace times an item names.  One runs only over a soft limit (the one
 * in force after this change): elsewhere both kernels clear whatever is
 * sent, so there is nothing to set, and the kernel's "none" is what the
 * item gets.  Where a limit of the same resource changes too, the deadline
 * is sent even if the kernel has it already: ext4 restarts a running grace
 * time at any limit change that does not bring one.
 */
static void plan_timers(const struct qfd_fs *fs, struct qfd_setreq *r,
			const uint64_t *final, const struct qfd_dq *dq)
{
	const uint64_t used[QFD_NTIMERS] = { dq->space, dq->files };
	int i;

	for (i = 0; i < QFD_NTIMERS; i++) {
		unsigned int bit = QFD_SET_SPACE_TIMER << i;
		uint64_t soft = final[i ? QFD_LIM_FILES_SOFT : QFD_LIM_SPACE_SOFT];

		if (!(r->asked & bit))
			continue;
		/* as the filesystem will keep it, so that a re-run is unchanged */
		r->timer[i] = qfd_quota_round_timer(fs, r->timer[i]);
		if (!soft || used[i] <= soft)
			r->timer[i] = 0;
		else if (r->timer[i] != r->old_timer[i] || (r->mask & (3u << 2 * i)))
			r->mask |= bit;
	}
}

/* Compare limits item n with the kernel's entry, as set does. */
static int plan_limits(const struct qfd_setplan *p, struct qfd_setlist *l,
		       size_t n)
{
	uint64_t final[QFD_NLIMITS];
	struct qfd_setreq r;
	struct qfd_dq dq;
	int rc;

	qfd_setlist_get(l, n, &r);
	rc = qfd_setreq_plan(p, &r, final, &dq);
	if (rc)
		return rc;
	plan_timers(p->fs, &r, final, &dq);
	return qfd_setlist_put(l, n, &r) ? -ENOMEM : 0;
}

/*
 * Whether a type's limits can wait to be planned until each is written:
 * only writing, and reporting no old values (--diff and -J show them for
 * every item, even one the run never reached), and every item decides
 * its limits alone (qfd_setreq_self_contained()).
 */
static bool deferrable(const struct applycmd *a, const struct qfd_setplan *p,
		       const struct qfd_setlist *l)
{
	size_t n;

	if (a->check || a->diff || a->json)
		return false;
	for (n = 0; n < l->n; n++) {
		struct qfd_setreq r;

		qfd_setlist_get(l, n, &r);
		if (!qfd_setreq_self_contained(p, &r))
			return false;
	}
	return true;
}

/* Enforcement and grace periods of one type; limits need accounting. */
static int plan_type(struct applycmd *a, struct fsplan *fp, int type,
		     struct qfd_want_type *wt, size_t *nbad)
{
	struct typeplan *tp = &fp->t[type];
	struct qfd_setplan p = { &fp->fs, type, &wt->list,
				 qfd_quota_limit_unit(&fp->fs), a->raise_only };
	size_t n;
	int rc;

	rc = qfd_quota_state(&fp->fs, type, &tp->st);
	if (!rc && !tp->st.accounting &&
	    (wt->list.n || wt->grace_asked[0] || wt->grace_asked[1]))
		rc = -ESRCH;
	if (rc) {
		qfd_kerr(&fp->fs, type, rc, "read");
		return rc;
	}
	tp->enforce = wt->enforce != QFD_ENF_KEEP &&
		      (tp->st.enforcing != (wt->enforce == QFD_ENF_ON) ||
		       !tp->st.accounting);
	tp->grace[0] = wt->grace_asked[0] && wt->grace[0] != tp->st.space_grace;
	tp->grace[1] = wt->grace_asked[1] && wt->grace[1] != tp->st.files_grace;
	tp->plan = p;
	tp->deferred = deferrable(a, &p, &wt->list);
	for (n = 0; !tp->deferred && n < wt->list.n; n++) {
		rc = plan_limits(&p, &wt->list, n);
		if (rc < 0) {
			qfd_kerr(&fp->fs, type, rc, "read");
			return rc;
		}
		*nbad += (size_t)rc;
	}
	return 0;
}

/* "FILE: filesystems[I].path: 'PATH'": filesystem i's item in the document. */
static void fs_item(const struct applycmd *a, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s: filesystems[%zu].path: '%s'", a->want.file, i,
		 a->want.fs[i].path);
}

/*
 * Open every filesystem before a quota is read, each named by its item,
 * and refuse one named twice (the same path, or two paths on one mount:
 * the same device): its limits would be planned twice against the same
 * entries, and the second plan would undo the first.
 */
static int open_all(struct applycmd *a)
{
	char name[PATH_MAX + 128];
	size_t i, j, nbad = 0;
	int rc;

	for (i = 0; i < a->want.nfs; i++) {
		fs_item(a, i, name, sizeof(name));
		rc = qfd_fs_open_named(a->want.fs[i].path, name, &a->plan[i].fs);
		if (rc)
			return qfd_fs_open_exit(rc);
		for (j = 0; j < i; j++) {
			if (a->plan[j].fs.dev != a->plan[i].fs.dev)
				continue;
			warnx("%s: the same filesystem as filesystems[%zu] ('%s'): name each filesystem once",
			      name, j, a->want.fs[j].path);
			nbad++;
			break;
		}
	}
	return nbad ? QFD_EXIT_USAGE : 0;
}

/* Open and read everything; returns 0 or an exit code (nothing written). */
static int plan(struct applycmd *a)
{
	size_t i, nbad = 0;
	int t, rc;

	a->plan = qfd_xcalloc(a->want.nfs ? a->want.nfs : 1, sizeof(*a->plan));
	for (i = 0; i < a->want.nfs; i++)
		a->plan[i].fs.fd = a->plan[i].mntfd = -1;
	rc = open_all(a);
	if (rc)
		return rc;
	for (i = 0; i < a->want.nfs; i++) {
		struct fsplan *fp = &a->plan[i];

		if (a->want.fs[i].dirs && qfd_dirs_plan(fp, &a->want.fs[i], &nbad))
			qfd_oom();
		for (t = 0; t < QFD_NTYPES; t++) {
			if (!a->want.fs[i].t[t].present)
				continue;
			if (plan_type(a, fp, t, &a->want.fs[i].t[t], &nbad))
				return QFD_EXIT_FAILURE;
		}
	}
	if (nbad) {
		warnx("%s: nothing was changed", a->want.file);
		return QFD_EXIT_USAGE;
	}
	return 0;
}

static const char *verb(const struct applycmd *a, bool changed, int err)
{
	if (err)
		return "error";
	if (!changed)
		return "unchanged";
	return a->check ? "would change" : "changed";
}

static void fmt_lim(int lim, uint64_t v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "none");
	else if (lim <= QFD_LIM_SPACE_HARD)
		qfd_format_size(v, buf, len);
	else
		qfd_format_count(v, buf, len);
}

/* A limit in the result: null for none, as in the document. */
static json_object *lim_json(uint64_t v)
{
	return v ? json_object_new_uint64(v) : NULL;
}

/*
 * One item of the result; old and new are taken over (may be NULL).
 * Returns it, for more keys, or NULL without -J.
 */
static json_object *add_item(struct applycmd *a, const struct fsplan *fp,
			     int type, const char *what, const char *who,
			     const uint32_t *id, bool changed, const char *err,
			     json_object *old, json_object *new)
{
	json_object *o;

	if (!a->json) {
		json_object_put(old);
		json_object_put(new);
		return NULL;
	}
	o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(fp->fs.target));
	json_object_object_add(o, "type", json_object_new_string(qfd_type_name(type)));
	json_object_object_add(o, "item", json_object_new_string(what));
	if (who)
		json_object_object_add(o, "who", json_object_new_string(who));
	if (id)
		json_object_object_add(o, "id", json_object_new_uint64(*id));
	json_object_object_add(o, "result", json_object_new_string(
				       err ? "error" : changed ? "changed" : "unchanged"));
	if (err)
		json_object_object_add(o, "error", json_object_new_string(err));
	json_object_object_add(o, "old", old);
	json_object_object_add(o, "new", new);
	json_object_array_add(a->items, o);
	return o;
}

static void count(struct applycmd *a, struct fsplan *fp, bool changed)
{
	if (changed) {
		fp->nchanged++;
		a->nchanged++;
	} else {
		fp->nunchanged++;
	}
}

/*
 * Whether a step's change holds now (or, under --check, would be made),
 * and the stop's line for the step that stopped the write phase.
 */
static bool holds(const struct applycmd *a, bool planned, bool written)
{
	return a->check ? planned : written;
}

static const char *stop_err(const struct applycmd *a, const struct fsplan *fp,
			    int type, int step)
{
	const struct qfd_applystop *st = &a->stop;

	if (!a->stopped || !st->err || &a->plan[st->fs] != fp ||
	    (st->type != type && step != QFD_STEP_DIRS) || st->step != step)
		return NULL;
	return a->stopmsg;
}

/* A directory's project and inherit flag, as the result shows them. */
static json_object *dir_json(const struct fsxattr *fa)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "project", json_object_new_uint64(fa->fsx_projid));
	json_object_object_add(o, "inherit", json_object_new_boolean(
				       fa->fsx_xflags & FS_XFLAG_PROJINHERIT));
	return o;
}

/* "changed project directory srv/www on /srv: project 0 -> 4001, inherit off -> on" */
static void diff_dir(const struct applycmd *a, const struct fsplan *fp,
		     const struct qfd_want_dir *w, const struct dirplan *d)
{
	bool was = d->old.fsx_xflags & FS_XFLAG_PROJINHERIT;
	const char *sep = ": ";

	printf("%s project directory %s on %s", verb(a, true, 0), w->path,
	       fp->fs.target);
	if (d->old.fsx_projid != d->want.fsx_projid) {
		printf("%sproject %u -> %u", sep, d->old.fsx_projid, d->want.fsx_projid);
		sep = ", ";
	}
	if (was != w->inherit)
		printf("%sinherit %s -> %s", sep, was ? "on" : "off",
		       w->inherit ? "on" : "off");
	putchar('\n');
}

static void report_dir(struct applycmd *a, struct fsplan *fp,
		       const struct qfd_want_dir *w, size_t n)
{
	const struct dirplan *d = &fp->dirs[n];
	bool changed = holds(a, d->change, d->written);
	const char *err = stop_err(a, fp, QFD_PRJ, QFD_STEP_DIRS);
	const struct fsxattr *now = changed ? &d->want : &d->old;
	json_object *o;

	if (err && a->stop.dir != n)
		err = NULL;
	if (!err)
		count(a, fp, changed);
	if (a->diff && !a->json && changed)
		diff_dir(a, fp, w, d);
	o = add_item(a, fp, QFD_PRJ, "project-dir", NULL, NULL, changed, err,
		     dir_json(&d->old), dir_json(now));
	if (o)
		json_object_object_add(o, "dir", json_object_new_string(w->path));
}

/* A grace deadline in the result: null for none, as in the document. */
static json_object *timer_json(int64_t t)
{
	return t ? json_object_new_int64(t) : NULL;
}

static const char *fmt_timer(int64_t t, char *buf, size_t len)
{
	return t ? qfd_format_time((time_t)t, buf, len) : "none";
}

/* The grace times of a limits item: in jo and jn, and for --diff. */
static void report_timers(const struct applycmd *a, const struct qfd_setreq *r,
			  bool changed, json_object *jo, json_object *jn,
			  const char **sep)
{
	char o[QFD_FMT_LEN], n[QFD_FMT_LEN];
	int i;

	for (i = 0; i < QFD_NTIMERS; i++) {
		bool now = changed && (r->mask & (QFD_SET_SPACE_TIMER << i));
		int64_t new = now ? r->timer[i] : r->old_timer[i];

		if (!(r->asked & (QFD_SET_SPACE_TIMER << i)))
			continue;
		if (jo) {
			json_object_object_add(jo, qfd_want_timer_key[i],
					       timer_json(r->old_timer[i]));
			json_object_object_add(jn, qfd_want_timer_key[i], timer_json(new));
		}
		if (!a->diff || a->json || new == r->old_timer[i])
			continue;
		printf("%s%s %s -> %s", *sep, qfd_want_timer_key[i],
		       fmt_timer(r->old_timer[i], o, sizeof(o)),
		       fmt_timer(new, n, sizeof(n)));
		*sep = ", ";
	}
}

static void report_limits(struct applycmd *a, struct fsplan *fp, int type,
			  const struct qfd_setlist *l, size_t idx)
{
	struct qfd_setreq req, *r = &req;
	char o[QFD_FMT_LEN], n[QFD_FMT_LEN];
	/*
	 * Only -J shows old and new values: two objects and eight values
	 * per id, made to be freed at once, were a fifth of a plain run.
	 */
	json_object *jo = a->json ? json_object_new_object() : NULL;
	json_object *jn = a->json ? json_object_new_object() : NULL;
	bool changed;
	const char *err = stop_err(a, fp, type, QFD_STEP_LIMITS);
	const char *sep = ": ";
	int i;

	if (err && idx != fp->t[type].w.failed_n)
		err = NULL;
	/*
	 * Without --diff or -J an id is only counted: unpacking it, "#ID"
	 * and all, was a tenth of a plain run's plan, write and report.
	 */
	if (!a->diff && !a->json) {
		if (!err)
			count(a, fp, holds(a, qfd_setlist_mask(l, idx),
					   qfd_setlist_written(l, idx)));
		return;
	}
	qfd_setlist_get(l, idx, r);
	changed = holds(a, r->mask, r->written == QFD_WRITTEN_YES);
	if (!err)
		count(a, fp, changed);
	if (a->diff && changed && !a->json)
		printf("%s %s %s (%u) on %s", verb(a, true, 0), qfd_type_name(type),
		       qfd_setreq_who(l, r), r->id, fp->fs.target);
	for (i = 0; i < QFD_NLIMITS; i++) {
		bool now = changed && (r->mask & (1u << i));

		if (!(r->asked & (1u << i)))
			continue;
		if (jo) {
			json_object_object_add(jo, qfd_want_lim_key[i], lim_json(r->old[i]));
			json_object_object_add(jn, qfd_want_lim_key[i], lim_json(
				now ? r->lim[i] : r->old[i]));
		}
		if (!a->diff || a->json || !now)
			continue;
		fmt_lim(i, r->old[i], o, sizeof(o));
		fmt_lim(i, r->lim[i], n, sizeof(n));
		printf("%s%s %s -> %s", sep, qfd_want_lim_key[i], o, n);
		sep = ", ";
	}
	report_timers(a, r, changed, jo, jn, &sep);
	if (a->diff && changed && !a->json)
		putchar('\n');
	add_item(a, fp, type, "limits", qfd_setreq_who(l, r), &r->id, changed,
		 err, jo, jn);
}

static void report_grace(struct applycmd *a, struct fsplan *fp, int type,
			 const struct qfd_want_type *wt)
{
	struct typeplan *tp = &fp->t[type];
	uint64_t old[QFD_NTIMERS] = { tp->st.space_grace, tp->st.files_grace };
	char o[QFD_FMT_LEN], n[QFD_FMT_LEN];
	json_object *jo = json_object_new_object(), *jn = json_object_new_object();
	static const char *const key[QFD_NTIMERS] = { "space", "files" };
	bool changed = holds(a, tp->grace[0] || tp->grace[1], tp->grace_written);
	const char *err = stop_err(a, fp, type, QFD_STEP_GRACE);
	int i;

	if (!err)
		count(a, fp, changed);
	for (i = 0; i < QFD_NTIMERS; i++) {
		if (!wt->grace_asked[i])
			continue;
		json_object_object_add(jo, key[i], json_object_new_uint64(old[i]));
		json_object_object_add(jn, key[i], json_object_new_uint64(
					       changed ? wt->grace[i] : old[i]));
		if (a->diff && !a->json && changed && tp->grace[i])
			printf("%s %s grace period on %s: %s %s -> %s\n",
			       verb(a, true, 0), qfd_type_name(type), fp->fs.target,
			       key[i], qfd_format_duration(old[i], o, sizeof(o)),
			       qfd_format_duration(wt->grace[i], n, sizeof(n)));
	}
	add_item(a, fp, type, "grace", NULL, NULL, changed, err, jo, jn);
}

static void report_enforce(struct applycmd *a, struct fsplan *fp, int type,
			   const struct qfd_want_type *wt)
{
	struct typeplan *tp = &fp->t[type];
	bool on = wt->enforce == QFD_ENF_ON, was = tp->st.accounting && tp->st.enforcing;
	json_object *jo = json_object_new_object(), *jn = json_object_new_object();
	bool changed = holds(a, tp->enforce, tp->enforce_written);
	const char *err = stop_err(a, fp, type, QFD_STEP_ENFORCE);

	if (!err)
		count(a, fp, changed);
	if (a->diff && !a->json && changed)
		printf("%s %s enforcement on %s: %s -> %s\n", verb(a, true, 0),
		       qfd_type_name(type), fp->fs.target, was ? "on" : "off",
		       on ? "on" : "off");
	json_object_object_add(jo, "enforce", json_object_new_boolean(was));
	json_object_object_add(jn, "enforce", json_object_new_boolean(
				       changed ? on : was));
	add_item(a, fp, type, "enforce", NULL, NULL, changed, err, jo, jn);
}

/*
 * The write phase, with SIGINT, SIGTERM and SIGHUP held off until every
 * change is written or put back; a stop is one line on stderr.
 */
static void write_all(struct applycmd *a)
{
	if (a->check)
		return;
	qfd_sigdefer_begin();
	if (!qfd_apply_write(&a->want, a->plan, &a->stop))
		return;
	a->stopped = a->failed = true;
	qfd_applystop_msg(a->stopmsg, sizeof(a->stopmsg), &a->want, a->plan, &a->stop);
	warnx("%s", a->stopmsg);
}

/* The result of every item: directories, grace periods, limits, enforcement. */
static void report(struct applycmd *a)
{
	size_t i, n;
	int t;

	for (i = 0; i < a->want.nfs; i++) {
		struct fsplan *fp = &a->plan[i];

		for (n = 0; n < a->want.fs[i].ndirs; n++)
			report_dir(a, fp, &a->want.fs[i].dirs[n], n);
		for (t = 0; t < QFD_NTYPES; t++) {
			struct qfd_want_type *wt = &a->want.fs[i].t[t];

			if (!wt->present)
				continue;
			if (wt->grace_asked[0] || wt->grace_asked[1])
				report_grace(a, fp, t, wt);
			for (n = 0; n < wt->list.n; n++)
				report_limits(a, fp, t, &wt->list, n);
			if (wt->enforce != QFD_ENF_KEEP)
				report_enforce(a, fp, t, wt);
		}
		if (!a->quiet && !a->json)
			printf("%s: %zu %s, %zu unchanged\n", fp->fs.target, fp->nchanged,
			       a->check ? "would change" : "changed", fp->nunchanged);
	}
}

static void print_json(struct applycmd *a)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "changed", json_object_new_boolean(a->nchanged > 0));
	json_object_object_add(doc, "check", json_object_new_boolean(a->check));
	json_object_object_add(doc, "failed", json_object_new_boolean(a->failed));
	json_object_object_add(doc, "items", json_object_get(a->items));
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	putchar('\n');
	json_object_put(doc);
}

/*
 * A signal that stopped the write phase kills qfd once the result is out;
 * one that came after the last write leaves the changes, and says so.
 */
static int end_signals(struct applycmd *a, int rc)
{
	int sig;

	if (a->check)
		return rc;
	qfd_sigdefer_end();
	sig = a->stopped && a->stop.sig ? a->stop.sig : qfd_sigdefer_pending();
	if (!sig)
		return rc;
	if (!a->stopped)
		warnx("%s: %s came after every change was written: they stay",
		      a->want.file, qfd_signame(sig));
	return qfd_sigdefer_raise(sig);
}

static int run(int argc, char **argv)
{
	struct applycmd a;
	size_t i;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = parse(argc, argv, &a);
	if (rc)
		return qfd_opts_exit(rc);
	rc = read_doc(&a);
	if (!rc)
		rc = plan(&a);
	if (!rc) {
		a.items = json_object_new_array();
		write_all(&a);
		report(&a);
		if (a.json)
			print_json(&a);
		json_object_put(a.items);
		rc = a.failed ? QFD_EXIT_FAILURE : 0;
		if (a.exit_changed && a.nchanged)
			rc = qfd_exit_merge(rc, QFD_EXIT_CHANGED);
		rc = end_signals(&a, rc);
	}
	for (i = 0; a.plan && i < a.want.nfs; i++) {
		qfd_dirs_free(&a.plan[i]);
		if (a.plan[i].fs.target)
			qfd_fs_close(&a.plan[i].fs);
	}
	free(a.plan);
	qfd_want_free(&a.want);
	return rc;
}

const struct qfd_cmd qfd_cmd_apply = {
	.name = "apply",
	.run = run,
	.args = "[--check] [--diff] [-J] [options] FILE|-",
	.summary = "bring quotas to the state a JSON document describes",
	.options = "      --check          plan and show what would change, write nothing\n"
		   "      --diff           show each change, old and new value\n"
		   "  -J, --json           one JSON result: every item changed, unchanged or error\n"
		   "      --path PATH      apply a document of one filesystem to PATH's instead\n"
		   "      --raise-only     never lower a limit (none counts as the highest)\n"
		   "  -q, --quiet          print nothing but errors\n"
		   "      --exit-changed   exit 4 when something was changed, 0 when not\n",
	.notes = "FILE is a strict JSON document (RFC 8259; '-': stdin; at most 2 GiB), as\n"
		 "'qfd dump' writes it:\n"
		 "  {\"filesystems\": [{\"path\": \"/srv\", \"user\": {\"enforce\": true,\n"
		 "    \"grace\": {\"space\": \"7d\", \"files\": \"7d\"},\n"
		 "    \"limits\": [{\"who\": \"alice\", \"space-hard\": \"10G\", \"files-hard\": null}]}}]}\n"
		 "null is no limit; a key left out keeps what the kernel has.  An item's\n"
		 "\"space-grace-ends\"/\"files-grace-ends\" (seconds since 1970) sets when its\n"
		 "running grace time ends, where it is over that soft limit.  qfd-apply(8).\n",
};
