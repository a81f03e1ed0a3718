// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd check: a monitoring plugin in the Nagios / Icinga / Monitoring
 * Plugins convention.  One status line on stdout, performance data after
 * a '|', and the exit code the monitoring system reads: 0 OK, 1 WARNING,
 * 2 CRITICAL, 3 UNKNOWN (also for bad arguments, as plugins do).
 *
 * Every id is read with report's walk (qfd_quota_each), or named ids with
 * Q_GETQUOTA; only counters and a bounded list of messages are kept, so a
 * filesystem with a million ids costs no more memory than one with ten.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmds.h"
#include "ids.h"
#include "kerr.h"
#include "mnt.h"
#include "quota.h"
#include "rows.h"
#include "units.h"

enum { P_OK, P_WARNING, P_CRITICAL, P_UNKNOWN };
enum { RES_SPACE, RES_FILES, NRES };

#define NMSG	5	/* messages kept per state; the rest are counted */

struct thresh {
	bool set;
	bool pct;	/* v in hundredths of a percent of the limit */
	uint64_t v;	/* else bytes or files */
};

struct msgs {
	char *m[NMSG];
	size_t n;	/* all of them, kept or not */
};

struct check {
	struct thresh warn[NRES], crit[NRES];
	unsigned int asked;
	bool all;
	char **paths;		/* without -a */
	int npaths;
	char **who;		/* --id, in order */
	size_t nwho;
	time_t now;
	size_t nids, nfs;
	struct msgs crits, warns, unknowns;
	char *perf;		/* performance data, space-separated */
	size_t perflen;
	FILE *pf;
	/* the filesystem and type being walked, and their totals */
	struct qfd_fs *fs;
	int type;
	uint64_t t_ids, t_warn, t_crit, t_used[NRES];
};

static const char *const state_names[] = {
	[P_OK] = "OK", [P_WARNING] = "WARNING",
	[P_CRITICAL] = "CRITICAL", [P_UNKNOWN] = "UNKNOWN",
};

/* The status line is one line, and '|' starts the performance data. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == '|' || *s == 0x7f)
			*s = '_';
}

static void msg_add(struct msgs *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void msg_add(struct msgs *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n < NMSG) {
		va_start(ap, fmt);
		if (vasprintf(&l->m[l->n], fmt, ap) < 0)
			qfd_oom();
		va_end(ap);
		sanitize(l->m[l->n]);
	}
	l->n++;
}

static void msgs_free(struct msgs *l)
{
	size_t i;

	for (i = 0; i < l->n && i < NMSG; i++)
		free(l->m[i]);
}

/*
 * Bad arguments: UNKNOWN, as the plugin guidelines want, in one line on
 * stdout; QFD_OPTS_BAD, which cmd_check() makes P_UNKNOWN.
 */
static int check_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int check_usage(const char *fmt, ...)
{
	va_list ap;

	printf("QUOTA UNKNOWN - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	qfd_usage_hint("check");
	return QFD_OPTS_BAD;
}

/* "80%" of the limit, or an absolute size (space) or count (files). */
static int parse_thresh(const char *arg, int res, struct thresh *t)
{
	int rc;

	t->pct = strchr(arg, '%') != NULL;
	if (t->pct)
		rc = qfd_parse_percent(arg, &t->v);
	else if (res == RES_SPACE)
		rc = qfd_parse_size(arg, &t->v);
	else
		rc = qfd_parse_count(arg, &t->v);
	t->set = !rc;
	return rc;
}

/*
 * The absolute threshold for a resource with these limits; false when it
 * does not apply (a percentage of no limit).
 */
static bool thresh_abs(const struct thresh *t, uint64_t soft, uint64_t hard,
		       uint64_t *out)
{
	uint64_t lim = hard ? hard : soft;

	if (!t->set || (t->pct && !lim))
		return false;
	*out = t->pct ? (uint64_t)(((unsigned __int128)lim * t->v + 9999) / 10000)
		      : t->v;
	return true;
}

struct res {
	const char *what;	/* "space" or "files" */
	int r;			/* RES_* */
	uint64_t used, soft, hard;
	int64_t timer;
};

static void fmt_amount(const struct res *x, uint64_t v, char *buf)
{
	if (x->r == RES_SPACE)
		qfd_format_size(v, buf, QFD_FMT_LEN);
	else
		snprintf(buf, QFD_FMT_LEN, "%" PRIu64, v);
}

/* What the kernel's own state says: grace running is a warning. */
static int limit_state(const struct check *k, const struct res *x, char *why,
		       size_t len)
{
	char u[QFD_FMT_LEN], l[QFD_FMT_LEN], g[QFD_FMT_LEN];

	fmt_amount(x, x->used, u);
	switch (qfd_limit_status(x->used, x->soft, x->hard, x->timer, k->now)) {
	case QFD_ST_HARD:
		fmt_amount(x, x->hard, l);
		snprintf(why, len, "%s %s at the hard limit %s", x->what, u, l);
		return P_CRITICAL;
	case QFD_ST_EXPIRED:
		fmt_amount(x, x->soft, l);
		snprintf(why, len, "%s %s over the soft limit %s, grace expired",
			 x->what, u, l);
		return P_CRITICAL;
	case QFD_ST_GRACE:
		fmt_amount(x, x->soft, l);
		qfd_format_duration(x->timer > k->now ? (uint64_t)(x->timer - k->now) : 0,
				    g, sizeof(g));
		snprintf(why, len, "%s %s over the soft limit %s, grace %s left",
			 x->what, u, l, g);
		return P_WARNING;
	case QFD_ST_OK:
		break;
	}
	return P_OK;
}

/* The state of one resource, and why in words when it is not OK. */
static int res_state(const struct check *k, const struct res *x, char *why,
		     size_t len)
{
	char u[QFD_FMT_LEN], l[QFD_FMT_LEN];
	int st = limit_state(k, x, why, len);
	int worst = P_CRITICAL;
	uint64_t lim;

	for (; worst >= P_WARNING && st < worst; worst--) {
		const struct thresh *t = worst == P_CRITICAL ? &k->crit[x->r]
							     : &k->warn[x->r];

		if (!thresh_abs(t, x->soft, x->hard, &lim) || x->used < lim)
			continue;
		fmt_amount(x, x->used, u);
		fmt_amount(x, lim, l);
		snprintf(why, len, "%s %s >= %s %s", x->what, u,
			 worst == P_CRITICAL ? "critical" : "warning", l);
		return worst;
	}
	return st;
}

static void res_of(const struct qfd_dq *dq, int r, struct res *x)
{
	if (r == RES_SPACE)
		*x = (struct res){ "space", r, dq->space, dq->space_soft,
				   dq->space_hard, dq->space_timer };
	else
		*x = (struct res){ "files", r, dq->files, dq->files_soft,
				   dq->files_hard, dq->files_timer };
}

/* A perfdata label: quoted, with ' doubled and '=' (not allowed) replaced. */
static void perf_label(FILE *f, const char *mnt, const char *type,
		       const char *who, const char *what)
{
	char *s, *p;

	if (asprintf(&s, "%s %s%s%s %s", mnt, type, who ? " " : "",
		     who ? who : "", what) < 0)
		qfd_oom();
	sanitize(s);
	fputs(" '", f);
	for (p = s; *p; p++) {
		if (*p == '\'')
			putc('\'', f);
		putc(*p == '=' ? '_' : *p, f);
	}
	fputs("'=", f);
	free(s);
}

/* Named ids: each resource of each id, with its thresholds and limit. */
static void perf_id(struct check *k, const char *who, const struct res *x)
{
	const char *uom = x->r == RES_SPACE ? "B" : "";
	uint64_t w, c, max = x->hard ? x->hard : x->soft;

	perf_label(k->pf, k->fs->target, qfd_type_name(k->type), who, x->what);
	fprintf(k->pf, "%" PRIu64 "%s;", x->used, uom);
	if (thresh_abs(&k->warn[x->r], x->soft, x->hard, &w))
		fprintf(k->pf, "%" PRIu64, w);
	putc(';', k->pf);
	if (thresh_abs(&k->crit[x->r], x->soft, x->hard, &c))
		fprintf(k->pf, "%" PRIu64, c);
	fputs(";0;", k->pf);
	if (max)
		fprintf(k->pf, "%" PRIu64, max);
}

/* All ids: totals of the filesystem and type, which do not grow with ids. */
static void perf_totals(struct check *k)
{
	const char *type = qfd_type_name(k->type);
	const char *mnt = k->fs->target;

	perf_label(k->pf, mnt, type, NULL, "ids");
	fprintf(k->pf, "%" PRIu64 ";;;0;", k->t_ids);
	perf_label(k->pf, mnt, type, NULL, "warning");
	fprintf(k->pf, "%" PRIu64 ";;;0;", k->t_warn);
	perf_label(k->pf, mnt, type, NULL, "critical");
	fprintf(k->pf, "%" PRIu64 ";;;0;", k->t_crit);
	perf_label(k->pf, mnt, type, NULL, "space");
	fprintf(k->pf, "%" PRIu64 "B;;;0;", k->t_used[RES_SPACE]);
	perf_label(k->pf, mnt, type, NULL, "files");
	fprintf(k->pf, "%" PRIu64 ";;;0;", k->t_used[RES_FILES]);
}

/* One id: its state, counted, and in words when it is not OK. */
static void check_dq(struct check *k, const struct qfd_dq *dq, bool named)
{
	char why[NRES][256], who[16];
	const char *name = qfd_id_name(k->type, dq->id);
	int st = P_OK, s[NRES], r;
	struct res x[NRES];

	if (!name) {
		snprintf(who, sizeof(who), "#%" PRIu32, dq->id);
		name = who;
	}
	for (r = 0; r < NRES; r++) {
		res_of(dq, r, &x[r]);
		s[r] = res_state(k, &x[r], why[r], sizeof(why[r]));
		if (s[r] > st)
			st = s[r];
		k->t_used[r] += x[r].used;
		if (named)
			perf_id(k, name, &x[r]);
	}
	k->nids++;
	k->t_ids++;
	if (st == P_OK)
		return;
	if (st == P_CRITICAL)
		k->t_crit++;
	else
		k->t_warn++;
	msg_add(st == P_CRITICAL ? &k->crits : &k->warns, "%s %s %s %s%s%s",
		k->fs->target, qfd_type_name(k->type), name,
		s[RES_SPACE] ? why[RES_SPACE] : "",
		s[RES_SPACE] && s[RES_FILES] ? ", " : "",
		s[RES_FILES] ? why[RES_FILES] : "");
}

static int check_walk_dq(const struct qfd_dq *dq, void *arg)
{
	/* entries without usage or limits, as report leaves them out */
	if (!qfd_dq_empty(dq))
		check_dq(arg, dq, false);
	return 0;
}

static void check_kerr(struct check *k, int type, int rc, const char *op)
{
	char buf[512];

	qfd_kerr_fmt(buf, sizeof(buf), k->fs, type, rc, op);
	msg_add(&k->unknowns, "%s", buf);
}

/* --id: each named id of the type on the filesystem being checked. */
static void check_named(struct check *k)
{
	struct qfd_dq dq;
	char buf[256];
	uint32_t id;
	size_t i;
	int rc;

	for (i = 0; i < k->nwho; i++) {
		rc = qfd_id_parse(k->type, k->who[i], &id);
		if (rc) {
			msg_add(&k->unknowns, "%s", qfd_id_strerror(k->type,
				k->who[i], rc, buf, sizeof(buf)));
			continue;
		}
		rc = qfd_quota_get(k->fs, k->type, id, &dq);
		if (rc) {
			check_kerr(k, k->type, rc, "read");
			continue;
		}
		check_dq(k, &dq, true);
	}
}

static void check_type(struct check *k, int type)
{
	int rc;

	k->type = type;
	k->t_ids = k->t_warn = k->t_crit = 0;
	k->t_used[RES_SPACE] = k->t_used[RES_FILES] = 0;
	if (k->nwho) {
		check_named(k);
		return;
	}
	rc = qfd_quota_each(k->fs, type, check_walk_dq, k);
	if (rc)
		check_kerr(k, type, rc, "read");
	else
		perf_totals(k);
}

static void check_fs(struct check *k, struct qfd_fs *fs)
{
	unsigned int types;
	int t, rc;

	k->fs = fs;
	/* named ids: the kernel answers for the types asked (user by default) */
	if (k->nwho) {
		types = k->asked ? k->asked : QFD_TYPE_BIT(QFD_USR);
	} else {
		rc = qfd_fs_types(fs, k->asked, &types, true);
		/* -a: a filesystem without quotas, or out of reach, is not watched */
		if (rc && k->all && qfd_all_skips(fs, rc))
			return;
		if (rc) {
			/* the message names the first type asked, or user */
			check_kerr(k, k->asked ? __builtin_ctz(k->asked) : QFD_USR,
				   rc, "read");
			return;
		}
	}
	k->nfs++;
	for (t = 0; t < QFD_NTYPES; t++)
		if (types & QFD_TYPE_BIT(t))
			check_type(k, t);
}

static void print_msgs(const struct msgs *l, const char **sep, size_t *shown)
{
	size_t i;

	/* the worst first, and no more than NMSG in all */
	for (i = 0; i < l->n && i < NMSG && *shown < NMSG; i++) {
		printf("%s%s", *sep, l->m[i]);
		*sep = "; ";
		(*shown)++;
	}
}

/* The status line and the performance data; returns the state. */
static int check_finish(struct check *k)
{
	size_t shown = 0, total;
	const char *sep = ": ";
	int st = P_OK;

	if (!k->nfs && !k->unknowns.n)
		msg_add(&k->unknowns, "no filesystem with quotas to check");
	if (k->crits.n)
		st = P_CRITICAL;
	else if (k->warns.n)
		st = P_WARNING;
	else if (k->unknowns.n)
		st = P_UNKNOWN;
	printf("QUOTA %s - ", state_names[st]);
	if (k->crits.n || k->warns.n)
		printf("%zu critical, %zu warning, of %zu id%s checked",
		       k->crits.n, k->warns.n, k->nids, k->nids == 1 ? "" : "s");
	else if (!k->unknowns.n)
		printf("%zu id%s within limits on %zu filesystem%s", k->nids,
		       k->nids == 1 ? "" : "s", k->nfs, k->nfs == 1 ? "" : "s");
	else
		sep = "";
	print_msgs(&k->crits, &sep, &shown);
	print_msgs(&k->warns, &sep, &shown);
	print_msgs(&k->unknowns, &sep, &shown);
	total = k->crits.n + k->warns.n + k->unknowns.n;
	if (total > shown)
		printf("%sand %zu more", sep, total - shown);
	if (fclose(k->pf))
		qfd_oom();
	k->pf = NULL;
	if (k->perflen)
		printf(" |%s", k->perf);
	putchar('\n');
	return st;
}

/* -w 80% covers files too, unless -W says otherwise. */
static int check_thresholds(struct check *k)
{
	struct thresh *pairs[][2] = {
		{ &k->warn[RES_SPACE], &k->crit[RES_SPACE] },
		{ &k->warn[RES_FILES], &k->crit[RES_FILES] },
	};
	size_t i;

	if (!k->warn[RES_FILES].set && k->warn[RES_SPACE].pct)
		k->warn[RES_FILES] = k->warn[RES_SPACE];
	if (!k->crit[RES_FILES].set && k->crit[RES_SPACE].pct)
		k->crit[RES_FILES] = k->crit[RES_SPACE];
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		const struct thresh *w = pairs[i][0], *c = pairs[i][1];

		if (w->set && c->set && w->pct == c->pct && w->v > c->v)
			return check_usage("the %s warning threshold is above the critical one: give -%c below -%c",
					   i ? "files" : "space", i ? 'W' : 'w',
					   i ? 'C' : 'c');
	}
	return QFD_OPTS_GO;
}

static int check_thresh_opt(struct check *k, int c, const char *arg)
{
	char shown[QFD_SHOWN_LEN];
	int res = c == 'W' || c == 'C' ? RES_FILES : RES_SPACE;
	struct thresh *t = c == 'w' || c == 'W' ? &k->warn[res] : &k->crit[res];

	if (!parse_thresh(arg, res, t))
		return QFD_OPTS_GO;
	return check_usage("-%c '%s': give a percentage of the limit (80%%) or %s",
			   c, qfd_shown(arg, shown), res == RES_SPACE ? "a size (9G)" : "a number of files (9000)");
}

/*
 * The parser contract of cmds.h; its errors are the plugin's UNKNOWN line
 * (check_usage()), not a usage error.
 */
static int parse(int argc, char **argv, struct check *k)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "id", required_argument, NULL, 'i' },
		{ "warning", required_argument, NULL, 'w' },
		{ "critical", required_argument, NULL, 'c' },
		{ "files-warning", required_argument, NULL, 'W' },
		{ "files-critical", required_argument, NULL, 'C' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;
	static const int repeats[] = { 'i', 0 };
	struct qfd_getopt g = { &qfd_cmd_check,
				QFD_TYPE_SHORTOPTS "ai:w:c:W:C:hV", opts, repeats, NULL };

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&k->asked, c))
			continue;
		switch (c) {
		case 'a':
			k->all = true;
			break;
		case 'i':
			k->who[k->nwho++] = optarg;
			break;
		case 'w':
		case 'c':
		case 'W':
		case 'C':
			if (check_thresh_opt(k, c, optarg))
				return QFD_OPTS_BAD;
			break;
		case 'h':
			qfd_cmd_help(&qfd_cmd_check);
			return QFD_OPTS_DONE;
		case 'V':
			/* the Monitoring Plugins guidelines ask every plugin for it */
			printf("qfd check %s\n", PACKAGE_VERSION);
			return QFD_OPTS_DONE;
		case QFD_OPT_REFUSED:
			return check_usage("%s", g.msg);
		default:
			return check_usage("bad arguments: 'qfd check --help' lists the options");
		}
	}
	if (k->all == (optind < argc))
		return check_usage("%s", k->all ? "-a and paths exclude each other" :
				   "name a path on the filesystem, or -a for all");
	k->paths = argv + optind;
	k->npaths = argc - optind;
	return check_thresholds(k);
}

static int run(int argc, char **argv)
{
	struct check k = { .now = time(NULL) };
	struct qfd_fs *fss = NULL;
	size_t nfs = 0, i;
	char why[512];
	int rc;

	/* --id can be given at most argc times */
	qfd_fail_status = P_UNKNOWN;
	k.who = qfd_xcalloc((size_t)argc, sizeof(*k.who));
	k.pf = open_memstream(&k.perf, &k.perflen);
	if (!k.pf)
		qfd_oom();
	rc = parse(argc, argv, &k);
	if (rc) {
		rc = rc < 0 ? P_UNKNOWN : P_OK;
		goto out;
	}
	/* Nagios and NRPE drop stderr: why a path failed goes on the status line */
	if (qfd_fs_open_list(k.paths, k.npaths, k.all, &fss, &nfs, why, sizeof(why)))
		msg_add(&k.unknowns, "%s", why);
	for (i = 0; i < nfs; i++)
		check_fs(&k, &fss[i]);
	rc = check_finish(&k);
out:
	if (k.pf)
		fclose(k.pf);
	qfd_fs_free_list(fss, nfs);
	msgs_free(&k.crits);
	msgs_free(&k.warns);
	msgs_free(&k.unknowns);
	free(k.perf);
	free(k.who);
	return rc;
}

const struct qfd_cmd qfd_cmd_check = {
	.name = "check",
	.run = run,
	.args = "[-ugp] [-w T] [-c T] [-i WHO]... [-a | PATH...]",
	.summary = "check quotas for Nagios, Icinga and other monitoring",
	.options = QFD_TYPE_HELP
		   "  -a, --all            every mounted filesystem with quotas\n"
		   "  -i, --id WHO         only this user, group or project (repeatable)\n"
		   "  -w, --warning T      WARNING when space reaches T: a percentage of\n"
		   "                       the limit (80%) or a size (9G)\n"
		   "  -c, --critical T     CRITICAL when space reaches T, the same way\n"
		   "  -W, --files-warning T   the same for files: 80% or a count (9000)\n"
		   "  -C, --files-critical T  (default: -w and -c when they are percentages)\n"
		   "  -V, --version        show the version\n",
	.notes = "Over a soft limit in grace is WARNING; grace expired or a hard limit\n"
		 "reached is CRITICAL.  Exit status: 0 OK, 1 WARNING, 2 CRITICAL,\n"
		 "3 UNKNOWN (quotas off, no quota support, denied, bad arguments).\n",
};
