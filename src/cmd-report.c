// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd report: every id with a quota entry, walked with Q_GETNEXTQUOTA.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <time.h>

#include "cmds.h"
#include "ids.h"
#include "kerr.h"
#include "mnt.h"
#include "output.h"
#include "prom.h"
#include "quota.h"
#include "rows.h"

enum { OPT_OVER = 0x200, OPT_PROMETHEUS, OPT_TEXTFILE };

struct report {
	struct qfd_outopts oo;
	bool numeric;
	bool all_ids;
	bool all;		/* -a */
	unsigned int asked;	/* -u/-g/-p */
	enum qfd_status over;	/* QFD_ST_OK: no filter */
	size_t nover;		/* ids found past a limit */
	time_t now;
	bool prometheus;
	const char *textfile;	/* --textfile FILE */
	char **paths;		/* without -a */
	int npaths;
	struct qfd_out *out;	/* the table or stream being filled */
	struct qfd_prom *prom;	/* --prometheus: instead of out */
	struct qfd_fs *fs;	/* being walked */
	int type;
};

/* One id from the walk: filtered, then a row or Prometheus samples. */
static int report_dq(const struct qfd_dq *dq, void *arg)
{
	struct report *r = arg;
	struct qfd_val vals[QCOL_NCOLS];
	const char *name;
	int rc;

	if (!r->all_ids && qfd_dq_empty(dq))
		return 0;
	if (qfd_dq_status(dq, r->now) < r->over)
		return 0;
	if (r->over != QFD_ST_OK)
		r->nover++;
	name = r->numeric ? NULL : qfd_id_name(r->type, dq->id);
	if (r->prom) {
		rc = qfd_prom_dq(r->prom, r->fs, r->type, dq, name, r->now);
	} else {
		qfd_dq_row(vals, r->fs, r->type, dq, name, r->now);
		rc = qfd_out_add(r->out, vals);
	}
	if (rc)
		qfd_oom();
	return 0;
}

static int report_type(struct report *r, struct qfd_fs *fs, int type)
{
	int rc;

	r->fs = fs;
	r->type = type;
	rc = qfd_quota_each(fs, type, report_dq, r);
	if (rc)
		qfd_kerr(fs, type, rc, "read");
	if (r->prom && qfd_prom_scrape(r->prom, fs, type, rc != 0))
		qfd_oom();
	return rc;
}

/*
 * Metrics say in qfd_quota_scrape_error which filesystem could not be read,
 * so that is not a failure of the command: the metrics are complete.
 */
static int report_fs_failed(struct report *r, struct qfd_fs *fs)
{
	int t;

	if (!r->prom)
		return r->all ? 0 : QFD_EXIT_FAILURE;
	for (t = 0; t < QFD_NTYPES; t++)
		if (!r->asked || (r->asked & QFD_TYPE_BIT(t)))
			if (qfd_prom_scrape(r->prom, fs, t, true))
				qfd_oom();
	return 0;
}

/* People get a table per filesystem and type; programs one stream. */
static int report_fs(struct report *r, struct qfd_fs *fs)
{
	bool table = !r->prom && r->oo.format == QFD_FMT_TABLE;
	unsigned int types;
	int t, rc = 0;

	if (qfd_fs_types(fs, r->asked, &types, r->all))
		return report_fs_failed(r, fs);
	for (t = 0; t < QFD_NTYPES; t++) {
		if (!(types & QFD_TYPE_BIT(t)))
			continue;
		if (table && !r->out) {
			r->out = qfd_out_new("quotas", qfd_quota_cols,
					     QCOL_NCOLS, &r->oo);
			if (!r->out)
				qfd_oom();
		}
		if (r->out)
			qfd_out_title(r->out, "%s quotas on %s (%s, %s)",
				      qfd_type_name(t), fs->target, fs->fstype,
				      fs->source ? fs->source : "-");
		if (report_type(r, fs, t) && !r->prom)
			rc = QFD_EXIT_FAILURE;
		if (table) {
			if (qfd_out_print(r->out))
				rc = QFD_EXIT_FAILURE;
			r->out = NULL;
		}
	}
	return rc;
}

/* The metrics are fixed: no output option goes with them. */
#define PROM_EXCL(opt) { opt, { 'o', 'H', 'b', 'J', 'r', QFD_OPT_CSV, 'n', QFD_OPT_SORT }, \
	"--prometheus prints fixed metrics: leave out -o, -H, -b, -J, -r, --csv, -n and --sort" }

static int parse(int argc, char **argv, struct report *r)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		QFD_OUT_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "all-ids", no_argument, NULL, 'A' },
		{ "numeric", no_argument, NULL, 'N' },
		{ "over", required_argument, NULL, OPT_OVER },
		{ "prometheus", no_argument, NULL, OPT_PROMETHEUS },
		{ "textfile", required_argument, NULL, OPT_TEXTFILE },
		{ NULL, 0, NULL, 0 }
	};
	static const struct qfd_excl excl[] = {
		PROM_EXCL(OPT_PROMETHEUS), PROM_EXCL(OPT_TEXTFILE), { 0 }
	};
	struct qfd_getopt g = { &qfd_cmd_report,
				QFD_TYPE_SHORTOPTS QFD_OUT_SHORTOPTS "aANh", opts, NULL, excl };
	char shown[QFD_SHOWN_LEN];
	int c;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&r->asked, c) || qfd_outopt(&r->oo, c, optarg))
			continue;
		switch (c) {
		case 'a':
			r->all = true;
			break;
		case 'A':
			r->all_ids = true;
			break;
		case 'N':
			r->numeric = true;
			break;
		case OPT_OVER:
			if (!strcmp(optarg, "soft"))
				r->over = QFD_ST_GRACE;
			else if (!strcmp(optarg, "hard"))
				r->over = QFD_ST_HARD;
			else
				return qfd_opts_bad("report", "--over takes 'soft' or 'hard', not '%s'",
						    qfd_shown(optarg, shown));
			break;
		case OPT_TEXTFILE:
			if (!*optarg)
				return qfd_opts_bad("report", "--textfile needs a file name");
			r->textfile = optarg;
			/* fall through */
		case OPT_PROMETHEUS:
			r->prometheus = true;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	if (r->oo.list_columns) {
		qfd_out_list_columns(qfd_quota_cols, QCOL_NCOLS);
		return QFD_OPTS_DONE;
	}
	r->paths = argv + optind;
	r->npaths = argc - optind;
	if (!qfd_targets_ok("report", r->all, r->npaths))
		return QFD_OPTS_BAD;
	return QFD_OPTS_GO;
}

/* The metrics, once every filesystem is walked: to stdout or --textfile. */
static int report_prom_finish(struct report *r)
{
	int rc;

	if (r->textfile)
		rc = qfd_prom_textfile(r->prom, r->textfile);
	else
		rc = qfd_prom_write(r->prom, stdout);
	qfd_prom_free(r->prom);
	r->prom = NULL;
	return rc ? QFD_EXIT_FAILURE : 0;
}

static int run(int argc, char **argv)
{
	struct report r = { .over = QFD_ST_OK, .oo.cmd = "report",
			    .oo.deferred = true };
	struct qfd_fs *fss;
	size_t nfs, i;
	int rc;

	rc = parse(argc, argv, &r);
	if (rc)
		return qfd_opts_exit(rc);

	/* check -o, and make the metrics' files, before touching any filesystem */
	if (r.textfile && qfd_prom_textfile_check(r.textfile))
		return QFD_EXIT_USAGE;
	/*
	 * Metrics are not held back on stdout: they are written only at the
	 * end, from the families' temporary files, once every filesystem is
	 * walked, so those files already hold them back.  Holding them again
	 * wrote the whole document to a second temporary file and copied it
	 * out (110 MB for 100,000 ids).
	 */
	if (r.prometheus)
		r.prom = qfd_prom_new();
	else
		r.out = qfd_out_new("quotas", qfd_quota_cols, QCOL_NCOLS, &r.oo);
	if (!r.out && !r.prom)
		return r.prometheus ? QFD_EXIT_FAILURE : QFD_EXIT_USAGE;
	rc = qfd_fs_open_list(r.paths, r.npaths, r.all, &fss, &nfs, NULL, 0);
	if (rc) {
		qfd_out_free(r.out);
		qfd_prom_free(r.prom);
		return rc;
	}
	r.now = time(NULL);
	for (i = 0; i < nfs; i++)
		if (report_fs(&r, &fss[i]))
			rc = QFD_EXIT_FAILURE;
	/* a document kept as rows is whole or absent, as one held back */
	if (r.out && rc == QFD_EXIT_FAILURE && qfd_out_stored(r.out))
		qfd_out_free(r.out);
	else if (r.out && qfd_out_print(r.out))
		rc = QFD_EXIT_FAILURE;
	if (r.prom && report_prom_finish(&r))
		rc = QFD_EXIT_FAILURE;
	qfd_fs_free_list(fss, nfs);
	if (r.nover)
		rc = qfd_exit_merge(rc, QFD_EXIT_OVER);
	return rc;
}

const struct qfd_cmd qfd_cmd_report = {
	.name = "report",
	.run = run,
	.args = "[-ugp] [options] [-a | PATH...]",
	.summary = "list every id with a quota entry",
	.options = QFD_TYPE_HELP
		   "  -a, --all            every mounted filesystem with quotas\n"
		   "  -A, --all-ids        include ids with no usage and no limits\n"
		   "  -N, --numeric        do not resolve ids to names\n"
		   "      --over soft|hard only ids past their soft (or hard) limits;\n"
		   "                       exit 3 when there are any\n"
		   QFD_OUT_HELP
		   "      --prometheus     Prometheus metrics (qfd-prometheus(8))\n"
		   "      --textfile FILE  write the metrics to FILE atomically, for\n"
		   "                       node_exporter (implies --prometheus)\n",
	.notes = "Without -u, -g or -p: every quota type the filesystem accounts.\n",
};
