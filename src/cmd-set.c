// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd set: change limits, grace periods and grace times.
 *
 * Everything is checked before anything is written: every WHO resolved
 * (every line of a batch parsed), every current entry read, every soft
 * limit compared with its hard one.  Only the fields asked for and actually
 * different are sent, so a re-run changes nothing and two setters of
 * different fields never undo each other.  That is what provisioning tools
 * need: "changed" or "unchanged" per id, and --exit-changed.
 *
 * One descriptor serves the whole run, and a batch of 100,000 ids is one
 * flat array (batch.c): the cost is one read and at most one write per id.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "cmds.h"
#include "ids.h"
#include "kerr.h"
#include "mnt.h"
#include "quota.h"
#include "setwrite.h"
#include "sigdefer.h"
#include "units.h"

enum {
	OPT_BSOFT = 0x200,	/* OPT_BSOFT + QFD_LIM_*: the four limits */
	OPT_BHARD,
	OPT_ISOFT,
	OPT_IHARD,
	OPT_EXIT_CHANGED,
	OPT_LIKE,
	OPT_BATCH,
	OPT_GRACE_SPACE,
	OPT_GRACE_FILES,
	OPT_RESET_GRACE,
	OPT_GRACE_TIME,
	OPT_RAISE_ONLY,
};

#define LIMIT_BITS	((1u << QFD_NLIMITS) - 1)
#define TIMER_BIT(t)	(QFD_SET_SPACE_TIMER << (t))

static const char *const lim_opt[QFD_NLIMITS] = {
	"--bsoft", "--bhard", "--isoft", "--ihard",
};
static const char *const lim_name[QFD_NLIMITS] = {
	"space-soft", "space-hard", "files-soft", "files-hard",
};
static const char *const timer_name[QFD_NTIMERS] = {
	"space-grace", "files-grace",
};

enum timer_mode { TIMER_NONE, TIMER_RESET, TIMER_SET };

struct setcmd {
	int type;
	unsigned int want_mask;		/* limits given as options */
	unsigned int want_up, want_down;	/* of those, +N and -N */
	uint64_t want[QFD_NLIMITS];
	const char *like;
	uint32_t like_id;
	const char *batch;
	const char *path;
	char **who;			/* WHO... */
	int nwho;
	bool grace_asked[QFD_NTIMERS];	/* --grace-space, --grace-files */
	uint64_t grace[QFD_NTIMERS];
	enum timer_mode timer_mode;	/* --reset-grace, --grace-time */
	uint64_t timer_len;
	bool dry_run, quiet, bytes, exit_changed, raise_only;

	struct qfd_fs fs;
	struct qfd_setlist list;
	struct qfd_state st;		/* grace periods before any change */
	const uint64_t *grace_p[QFD_NTIMERS];	/* the ones that change */
	struct qfd_setplan plan;	/* fs, type, list, unit, --raise-only */
	time_t now;
	size_t nchanged;
};

static void fmt_lim(const struct setcmd *s, int lim, uint64_t v, char *buf,
		    size_t len)
{
	if (lim <= QFD_LIM_SPACE_HARD && !s->bytes)
		qfd_format_size(v, buf, len);
	else
		qfd_format_count(v, buf, len);
}

/* A grace deadline as the time left: what 'qfd get' shows, too. */
static void fmt_timer(const struct setcmd *s, int64_t t, char *buf, size_t len)
{
	if (!t)
		snprintf(buf, len, "none");
	else if (t <= s->now)
		snprintf(buf, len, "expired");
	else
		qfd_format_duration((uint64_t)(t - s->now), buf, len);
}

static const char *verb(const struct setcmd *s, bool changed)
{
	if (!changed)
		return "unchanged";
	return s->dry_run ? "would change" : "changed";
}

static void describe(const struct setcmd *s, const struct qfd_setreq *r)
{
	char a[QFD_FMT_LEN], b[QFD_FMT_LEN];
	const char *sep = ": ";
	int i;

	printf("%s %s %s (%u) on %s", verb(s, r->mask), qfd_type_name(s->type),
	       qfd_setreq_who(&s->list, r), r->id, s->fs.target);
	for (i = 0; i < QFD_NLIMITS; i++) {
		if (!(r->mask & (1u << i)))
			continue;
		fmt_lim(s, i, r->old[i], a, sizeof(a));
		fmt_lim(s, i, r->lim[i], b, sizeof(b));
		printf("%s%s %s -> %s", sep, lim_name[i], a, b);
		sep = ", ";
	}
	for (i = 0; i < QFD_NTIMERS; i++) {
		if (!(r->mask & TIMER_BIT(i)))
			continue;
		fmt_timer(s, r->old_timer[i], a, sizeof(a));
		fmt_timer(s, r->timer[i], b, sizeof(b));
		printf("%s%s %s -> %s", sep, timer_name[i], a, b);
		sep = ", ";
	}
	putchar('\n');
}

static void describe_n(const struct setcmd *s, size_t n)
{
	struct qfd_setreq r;

	qfd_setlist_get(&s->list, n, &r);
	describe(s, &r);
}

/* --bsoft, --bhard, --isoft, --ihard: limit i, maybe +N or -N. */
static int limit_opt(struct setcmd *s, int i, const char *arg)
{
	char shown[QFD_SHOWN_LEN];
	int rc, dir;

	rc = qfd_parse_limit_rel(i, arg, &s->want[i], &dir);
	if (rc)
		return qfd_opts_bad("set", "%s '%s': %s", lim_opt[i],
				    qfd_shown(arg, shown), qfd_limit_strerror(i, rc));
	s->want_mask |= 1u << i;
	s->want_up = (s->want_up & ~(1u << i)) | (dir > 0 ? 1u << i : 0);
	s->want_down = (s->want_down & ~(1u << i)) | (dir < 0 ? 1u << i : 0);
	return QFD_OPTS_GO;
}

/* --grace-space, --grace-files, --grace-time: a duration the kernel keeps. */
static int grace_opt(struct setcmd *s, int c, const char *arg)
{
	static const char too_long[] = "too long: the kernel keeps at most 4294967295 seconds (about 136 years)";
	static const char bad[] = "not a duration (examples: 90s, 15m, 12h, 7d, 2w, 1d12h)";
	char shown[QFD_SHOWN_LEN];
	int i = c == OPT_GRACE_FILES;
	uint64_t *dur = c == OPT_GRACE_TIME ? &s->timer_len : &s->grace[i];
	int rc;

	rc = qfd_parse_duration(arg, dur);
	if (!rc && *dur > QFD_GRACE_MAX)
		rc = -ERANGE;
	if (rc)
		return qfd_opts_bad("set", "%s '%s': %s", c == OPT_GRACE_TIME ?
				    "--grace-time" : i ? "--grace-files" :
				    "--grace-space", qfd_shown(arg, shown),
				    rc == -ERANGE ? too_long : bad);
	if (c == OPT_GRACE_TIME)
		s->timer_mode = TIMER_SET;
	else
		s->grace_asked[i] = true;
	return QFD_OPTS_GO;
}

/* One option: QFD_OPTS_GO, or what parse() returns. */
static int set_opt(struct setcmd *s, const struct qfd_getopt *g, int c,
		   const char *arg)
{
	switch (c) {
	case OPT_BSOFT:
	case OPT_BHARD:
	case OPT_ISOFT:
	case OPT_IHARD:
		return limit_opt(s, c - OPT_BSOFT, arg);
	case OPT_GRACE_SPACE:
	case OPT_GRACE_FILES:
	case OPT_GRACE_TIME:
		return grace_opt(s, c, arg);
	case OPT_RESET_GRACE:
		s->timer_mode = TIMER_RESET;
		break;
	case OPT_LIKE:
		s->like = arg;
		break;
	case OPT_BATCH:
		s->batch = arg;
		break;
	case 'n':
		s->dry_run = true;
		break;
	case 'q':
		s->quiet = true;
		break;
	case 'b':
		s->bytes = true;
		break;
	case OPT_EXIT_CHANGED:
		s->exit_changed = true;
		break;
	case OPT_RAISE_ONLY:
		s->raise_only = true;
		break;
	default:
		return qfd_opt_default(g, c);
	}
	return QFD_OPTS_GO;
}

/* The combinations of options and arguments that make sense. */
static int check_args(const struct setcmd *s)
{
	bool per_id = s->want_mask || s->like || s->timer_mode != TIMER_NONE;
	bool grace = s->grace_asked[0] || s->grace_asked[1];
	int nwho = s->nwho;

	if (s->batch) {
		if (per_id || nwho)
			return qfd_opts_bad("set", "--batch takes ids and limits from its file: give no WHO, limits, --like, --reset-grace or --grace-time with it");
		if (!s->path)
			return qfd_opts_bad("set", "name a path on the filesystem");
		return QFD_OPTS_GO;
	}
	if (!per_id && !grace)
		return qfd_opts_bad("set", "nothing to set: give --bsoft, --bhard, --isoft, --ihard, --like, --batch, --grace-space or --grace-files");
	if (!s->path)
		return qfd_opts_bad("set", "name a path on the filesystem%s",
				    per_id ? " and who to set limits for" : "");
	if (per_id && !nwho)
		return qfd_opts_bad("set", "name who to set limits for");
	if (!per_id && nwho)
		return qfd_opts_bad("set", "nothing to set for %s: give limits, --like, --reset-grace or --grace-time",
				    nwho == 1 ? "this id" : "these ids");
	return QFD_OPTS_GO;
}

static int parse(int argc, char **argv, struct setcmd *s)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ "bsoft", required_argument, NULL, OPT_BSOFT },
		{ "space-soft", required_argument, NULL, OPT_BSOFT },
		{ "bhard", required_argument, NULL, OPT_BHARD },
		{ "space-hard", required_argument, NULL, OPT_BHARD },
		{ "isoft", required_argument, NULL, OPT_ISOFT },
		{ "files-soft", required_argument, NULL, OPT_ISOFT },
		{ "ihard", required_argument, NULL, OPT_IHARD },
		{ "files-hard", required_argument, NULL, OPT_IHARD },
		{ "like", required_argument, NULL, OPT_LIKE },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "grace-space", required_argument, NULL, OPT_GRACE_SPACE },
		{ "grace-blocks", required_argument, NULL, OPT_GRACE_SPACE },
		{ "grace-files", required_argument, NULL, OPT_GRACE_FILES },
		{ "grace-inodes", required_argument, NULL, OPT_GRACE_FILES },
		{ "reset-grace", no_argument, NULL, OPT_RESET_GRACE },
		{ "grace-time", required_argument, NULL, OPT_GRACE_TIME },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "exit-changed", no_argument, NULL, OPT_EXIT_CHANGED },
		{ "raise-only", no_argument, NULL, OPT_RAISE_ONLY },
		{ NULL, 0, NULL, 0 }
	};
	static const struct qfd_excl excl[] = {
		{ OPT_RESET_GRACE, { OPT_GRACE_TIME }, NULL },
		{ 0 }
	};
	struct qfd_getopt g = { &qfd_cmd_set,
				QFD_TYPE_SHORTOPTS "nqbh", opts, NULL, excl };
	unsigned int types = 0;
	int c, rc;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&types, c))
			continue;
		rc = set_opt(s, &g, c, optarg);
		if (rc)
			return rc;
	}
	if (!types)
		types = QFD_TYPE_BIT(QFD_USR);
	if (types & (types - 1))
		return qfd_opts_bad("set", "set one quota type at a time: -u, -g or -p");
	s->type = __builtin_ctz(types);
	s->path = optind < argc ? argv[optind] : NULL;
	s->who = argv + optind + 1;
	s->nwho = argc - optind - 1 > 0 ? argc - optind - 1 : 0;
	return check_args(s);
}

static int resolve(struct setcmd *s, char **who, int nwho)
{
	char msg[256];
	uint32_t id;
	int i, rc;

	if (s->like) {
		rc = qfd_id_parse(s->type, s->like, &s->like_id);
		if (rc) {
			warnx("--like: %s", qfd_id_strerror(s->type, s->like, rc,
							     msg, sizeof(msg)));
			return QFD_EXIT_USAGE;
		}
	}
	for (i = 0; i < nwho; i++) {
		struct qfd_setreq r;

		rc = qfd_id_parse(s->type, who[i], &id);
		if (rc) {
			warnx("%s", qfd_id_strerror(s->type, who[i], rc, msg, sizeof(msg)));
			return QFD_EXIT_USAGE;
		}
		/*
		 * The kernel takes a grace time for id 0 as the grace period
		 * of every id (quota_setxquota): never let one mean the other.
		 */
		if (id == 0 && s->timer_mode != TIMER_NONE) {
			warnx("%s %s (0): the kernel takes a grace time for id 0 as everyone's grace period; use --grace-space or --grace-files for that",
			      qfd_type_name(s->type), who[i]);
			return QFD_EXIT_USAGE;
		}
		memset(&r, 0, sizeof(r));
		r.id = id;
		memcpy(r.lim, s->want, sizeof(r.lim));
		r.asked = (uint8_t)s->want_mask;
		r.up = (uint8_t)s->want_up;
		r.down = (uint8_t)s->want_down;
		if (qfd_setlist_add(&s->list, who[i], &r))
			qfd_oom();
	}
	rc = qfd_setlist_check_duplicates(&s->list, s->type);
	if (rc == -ENOMEM)
		qfd_oom();
	return rc ? QFD_EXIT_USAGE : 0;
}

static int read_batch(struct setcmd *s)
{
	bool is_stdin = !strcmp(s->batch, "-");
	FILE *f = is_stdin ? stdin : fopen(s->batch, "re");
	int rc;

	if (!f) {
		warn("%s", s->batch);
		return QFD_EXIT_USAGE;
	}
	rc = qfd_batch_read(&s->list, f, is_stdin ? "stdin" : s->batch, s->type);
	if (!is_stdin)
		fclose(f);
	if (rc == -EINVAL)
		return QFD_EXIT_USAGE;
	return rc ? QFD_EXIT_FAILURE : 0;
}

/* Copy --like's limits into every request, under the options given. */
static int apply_like(struct setcmd *s)
{
	uint64_t like[QFD_NLIMITS];
	struct qfd_dq dq;
	size_t n;
	int i, rc;

	rc = qfd_quota_get(&s->fs, s->type, s->like_id, &dq);
	if (rc) {
		qfd_kerr(&s->fs, s->type, rc, "read");
		return QFD_EXIT_FAILURE;
	}
	like[QFD_LIM_SPACE_SOFT] = dq.space_soft;
	like[QFD_LIM_SPACE_HARD] = dq.space_hard;
	like[QFD_LIM_FILES_SOFT] = dq.files_soft;
	like[QFD_LIM_FILES_HARD] = dq.files_hard;
	for (n = 0; n < s->list.n; n++) {
		struct qfd_setreq r;

		qfd_setlist_get(&s->list, n, &r);
		for (i = 0; i < QFD_NLIMITS; i++)
			if (!(r.asked & (1u << i)))
				r.lim[i] = like[i];
		r.asked |= LIMIT_BITS;
		if (qfd_setlist_put(&s->list, n, &r))
			qfd_oom();
	}
	return 0;
}

/*
 * --reset-grace, --grace-time: a grace time runs only over a soft limit
 * (the one in force after this change); elsewhere both kernels clear
 * whatever is sent, so there is nothing to restart and the id is left
 * unchanged.
 */
static void plan_timer(const struct setcmd *s, struct qfd_setreq *r,
		       const uint64_t *final, const struct qfd_dq *dq)
{
	const uint64_t used[QFD_NTIMERS] = { dq->space, dq->files };
	int i;

	for (i = 0; s->timer_mode != TIMER_NONE && i < QFD_NTIMERS; i++) {
		uint64_t soft = final[i == QFD_TIMER_SPACE ? QFD_LIM_SPACE_SOFT :
					    QFD_LIM_FILES_SOFT];
		uint64_t len = s->timer_mode == TIMER_SET ? s->timer_len : s->grace[i];

		if (!soft || used[i] <= soft)
			continue;
		r->timer[i] = (int64_t)s->now + (int64_t)len;
		r->asked |= TIMER_BIT(i);
		if (r->timer[i] != r->old_timer[i])
			r->mask |= TIMER_BIT(i);
	}
}

/*
 * Plan request n (qfd_setreq_plan()), then its grace time, and keep it
 * again: returns 0, 1 for a bad combination (reported), or a kernel error.
 */
static int plan_one(struct setcmd *s, size_t n)
{
	uint64_t final[QFD_NLIMITS];
	struct qfd_setreq r;
	struct qfd_dq dq;
	int rc;

	qfd_setlist_get(&s->list, n, &r);
	rc = qfd_setreq_plan(&s->plan, &r, final, &dq);
	if (rc)
		return rc;
	plan_timer(s, &r, final, &dq);
	if (qfd_setlist_put(&s->list, n, &r))
		qfd_oom();
	return 0;
}

/* Which grace periods differ: --grace-space, --grace-files. */
static void plan_grace(struct setcmd *s)
{
	uint64_t old[QFD_NTIMERS] = { s->st.space_grace, s->st.files_grace };
	int i;

	for (i = 0; i < QFD_NTIMERS; i++)
		if (s->grace_asked[i] && s->grace[i] != old[i])
			s->grace_p[i] = &s->grace[i];
}

static void print_grace(const struct setcmd *s)
{
	uint64_t old[QFD_NTIMERS] = { s->st.space_grace, s->st.files_grace };
	char a[QFD_FMT_LEN], b[QFD_FMT_LEN];
	const char *sep = ": ";
	int i;

	if (!s->grace_p[0] && !s->grace_p[1]) {
		printf("unchanged %s grace periods on %s\n",
		       qfd_type_name(s->type), s->fs.target);
		return;
	}
	printf("%s %s grace periods on %s", verb(s, true), qfd_type_name(s->type),
	       s->fs.target);
	for (i = 0; i < QFD_NTIMERS; i++) {
		if (!s->grace_p[i])
			continue;
		printf("%s%s %s -> %s", sep, timer_name[i],
		       qfd_format_duration(old[i], a, sizeof(a)),
		       qfd_format_duration(s->grace[i], b, sizeof(b)));
		sep = ", ";
	}
	putchar('\n');
}

/*
 * After a failed write phase: the grace periods back as they were, one
 * line saying what happened, and on stdout the ids that could not be put
 * back, since they are the only ones changed.
 */
static int roll_back(struct setcmd *s, const struct qfd_setwrite *w,
		     bool grace_written)
{
	uint64_t old[QFD_NTIMERS] = { s->st.space_grace, s->st.files_grace };
	char msg[2048], gerr[512];
	size_t n, len;
	int rc = 0;

	qfd_setwrite_msg(msg, sizeof(msg), &s->fs, s->type, &s->list, w);
	len = strlen(msg);
	if (grace_written) {
		rc = qfd_quota_set_grace(&s->fs, s->type, s->grace_p[0] ? &old[0] : NULL,
				  s->grace_p[1] ? &old[1] : NULL);
		if (!rc) {
			snprintf(msg + len, sizeof(msg) - len,
				 "; the grace periods were put back");
		} else {
			qfd_kerr_fmt(gerr, sizeof(gerr), &s->fs, s->type, rc,
				     "put back the grace periods of");
			snprintf(msg + len, sizeof(msg) - len,
				 "; the grace periods keep their new values (%s)", gerr);
		}
	}
	warnx("%s", msg);
	for (n = 0; !s->quiet && n < s->list.n; n++)
		if (qfd_setlist_written(&s->list, n))
			describe_n(s, n);
	if (grace_written && rc && !s->quiet)
		print_grace(s);
	if (w->sig) {
		qfd_sigdefer_end();
		return qfd_sigdefer_raise(w->sig);
	}
	return QFD_EXIT_FAILURE;
}

/*
 * The write phase: the grace periods, then every id in order, all of it
 * or (as far as the kernel lets) none of it.  SIGINT, SIGTERM and SIGHUP
 * wait until the writes are done or put back.
 */
static int write_all(struct setcmd *s)
{
	bool grace = s->grace_p[0] || s->grace_p[1];
	struct qfd_setwrite w;
	char msg[512];
	int rc;

	if (grace) {
		rc = qfd_quota_set_grace(&s->fs, s->type, s->grace_p[0], s->grace_p[1]);
		if (rc) {
			qfd_kerr_fmt(msg, sizeof(msg), &s->fs, s->type, rc,
				     "set the grace periods of");
			warnx("%s; nothing was changed", msg);
			return QFD_EXIT_FAILURE;
		}
	}
	if (qfd_setlist_write(&s->fs, s->type, &s->list, &w))
		return roll_back(s, &w, grace);
	return 0;
}

/*
 * The grace periods in force, for --grace-space/--grace-files and for
 * --reset-grace: read before anything is written.
 */
static int read_grace(struct setcmd *s)
{
	int err;

	err = qfd_quota_state(&s->fs, s->type, &s->st);
	if (!err && !s->st.accounting)
		err = -ESRCH;
	if (err) {
		qfd_kerr(&s->fs, s->type, err, "set the grace periods of");
		return QFD_EXIT_FAILURE;
	}
	/* a reset restarts with the period in force after this run */
	if (!s->grace_asked[0])
		s->grace[0] = s->st.space_grace;
	if (!s->grace_asked[1])
		s->grace[1] = s->st.files_grace;
	return 0;
}

/* Every request against the kernel's entry: 0 or the exit status. */
static int plan_all(struct setcmd *s)
{
	size_t n, nbad = 0;
	int err;

	if (s->like && (err = apply_like(s)))
		return err;
	for (n = 0; n < s->list.n; n++) {
		err = plan_one(s, n);
		if (err < 0) {
			qfd_kerr(&s->fs, s->type, err, "set limits for");
			return QFD_EXIT_FAILURE;
		}
		nbad += (size_t)err;
	}
	if (nbad) {
		warnx("%s: nothing was changed", s->batch ? s->list.file : s->fs.target);
		return QFD_EXIT_USAGE;
	}
	if (s->grace_asked[0] || s->grace_asked[1])
		plan_grace(s);
	return 0;
}

/*
 * Whether each id can be planned right before it is written
 * (qfd_setlist_plan_write()): every request decides its limits alone, and
 * nothing is to be read first or shown instead of written (--like, grace
 * periods and times, --dry-run).
 */
static bool self_contained(const struct setcmd *s)
{
	size_t n;

	if (s->dry_run || s->like || s->grace_asked[0] || s->grace_asked[1] ||
	    s->timer_mode != TIMER_NONE)
		return false;
	for (n = 0; n < s->list.n; n++) {
		struct qfd_setreq r;

		qfd_setlist_get(&s->list, n, &r);
		if (!qfd_setreq_self_contained(&s->plan, &r))
			return false;
	}
	return true;
}

/*
 * What was written, once it all holds: no line may claim a change that
 * was then put back.  Then a signal that came meanwhile.
 */
static int print_done(struct setcmd *s)
{
	bool grace = s->grace_asked[0] || s->grace_asked[1];
	size_t n;
	int sig;

	s->nchanged = (grace && (s->grace_p[0] || s->grace_p[1]));
	if (grace && !s->quiet)
		print_grace(s);
	for (n = 0; n < s->list.n; n++) {
		s->nchanged += qfd_setlist_mask(&s->list, n) != 0;
		if (!s->quiet)
			describe_n(s, n);
	}
	qfd_sigdefer_end();
	sig = qfd_sigdefer_pending();
	if (sig) {
		warnx("%s: %s came after every change was written: they stay",
		      s->fs.target, qfd_signame(sig));
		return qfd_sigdefer_raise(sig);
	}
	if (s->exit_changed && s->nchanged)
		return QFD_EXIT_CHANGED;
	return 0;
}

/* Each id planned and written in turn, all or nothing all the same. */
static int plan_write_all(struct setcmd *s)
{
	struct qfd_setwrite w;
	int rc;

	qfd_sigdefer_begin();
	if (qfd_setlist_plan_write(&s->plan, &s->list, &w)) {
		rc = roll_back(s, &w, false);
		qfd_sigdefer_end();
		return rc;
	}
	return print_done(s);
}

static int set_run(struct setcmd *s)
{
	int rc;

	rc = s->batch ? read_batch(s) : resolve(s, s->who, s->nwho);
	if (rc)
		return rc;
	rc = qfd_fs_open(s->path, &s->fs);
	if (rc)
		return qfd_fs_open_exit(rc);
	s->now = time(NULL);
	s->plan = (struct qfd_setplan){ &s->fs, s->type, &s->list,
					qfd_quota_limit_unit(&s->fs), s->raise_only };
	if (s->grace_asked[0] || s->grace_asked[1] || s->timer_mode == TIMER_RESET) {
		rc = read_grace(s);
		if (rc)
			return rc;
	}
	if (self_contained(s))
		return plan_write_all(s);
	rc = plan_all(s);
	if (rc)
		return rc;
	if (!s->dry_run)
		qfd_sigdefer_begin();
	if (!s->dry_run && (rc = write_all(s))) {
		qfd_sigdefer_end();
		return rc;
	}
	return print_done(s);
}

static int run(int argc, char **argv)
{
	struct setcmd s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.fs.fd = -1;
	rc = parse(argc, argv, &s);
	if (rc)
		return qfd_opts_exit(rc);
	rc = set_run(&s);
	if (s.fs.target)
		qfd_fs_close(&s.fs);
	qfd_setlist_free(&s.list);
	return rc;
}

const struct qfd_cmd qfd_cmd_set = {
	.name = "set",
	.run = run,
	.args = "[-ugp] [options] PATH WHO... LIMITS",
	.summary = "set space and file limits",
	.options = QFD_TYPE_HELP
		   "      --bsoft SIZE     space soft limit (also --space-soft)\n"
		   "      --bhard SIZE     space hard limit (also --space-hard)\n"
		   "      --isoft N        files soft limit (also --files-soft)\n"
		   "      --ihard N        files hard limit (also --files-hard)\n"
		   "      --like WHO       copy WHO's four limits (options above override)\n"
		   "      --raise-only     never lower a limit (none counts as the highest)\n"
		   "      --batch FILE     limits from FILE ('-': stdin), one id a line:\n"
		   "                         WHO BSOFT BHARD ISOFT IHARD   ('-' keeps a field)\n"
		   "      --grace-space T  grace period over space soft limits, for everyone\n"
		   "      --grace-files T  grace period over files soft limits, for everyone\n"
		   "      --reset-grace    restart the grace time of WHO... over a soft limit\n"
		   "      --grace-time T   WHO's grace time ends T from now\n"
		   "  -n, --dry-run        check and show what would change, write nothing\n"
		   "  -q, --quiet          print nothing but errors\n"
		   "  -b, --bytes          show sizes in bytes\n"
		   "      --exit-changed   exit 4 when something was changed, 0 when not\n",
	.notes = "SIZE: 500M, 1.5G, 2TiB (K, M, G... are 1024-based; KB, MB... 1000-based);\n"
		 "the kernel keeps space limits in KiB, so sizes round up to a KiB.\n"
		 "N: 1000, 10k, 2.5m (decimal).  0 removes a limit.\n"
		 "+SIZE, -SIZE, +N, -N: more or less than WHO's limit now (which must exist).\n"
		 "T: 90s, 15m, 12h, 7d, 2w, 1d12h, or seconds; 0 to 4294967295 s (136 years).\n"
		 "A grace period of 0: no grace on ext4 (a soft limit acts as a hard one);\n"
		 "on XFS the same until the next mount, which reads 0 as 7 days.\n"
		 "PATH alone with --grace-space/--grace-files sets only the grace periods.\n",
};
