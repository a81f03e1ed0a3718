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
#include "mnt.h"
#include "output.h"
#include "quota.h"
#include "rows.h"

enum { OPT_OVER = 0x200 };

struct report {
	struct qfd_outopts oo;
	bool numeric;
	bool all_ids;
	enum qfd_status over;	/* QFD_ST_OK: no filter */
	size_t nover;		/* ids found past a limit */
	time_t now;
};

static int report_type(struct report *r, struct qfd_out *out,
		       struct qfd_fs *fs, int type)
{
	struct qfd_val vals[QCOL_NCOLS];
	struct qfd_dq dq;
	uint32_t id = 0;
	int rc;

	for (;;) {
		rc = qf_next(fs, type, id, &dq);
		if (rc == -ENOENT)
			return 0;
		if (rc) {
			qfd_kerr(fs, type, rc, "read");
			return rc;
		}
		if (r->all_ids || !qfd_dq_empty(&dq)) {
			enum qfd_status st = qfd_dq_status(&dq, r->now);

			if (st >= r->over) {
				if (r->over != QFD_ST_OK)
					r->nover++;
				qfd_dq_row(vals, fs, type, &dq, r->numeric ? NULL :
					   qfd_id_name(type, dq.id), r->now);
				if (qfd_out_add(out, vals))
					errx(QFD_EXIT_FAILURE, "out of memory");
			}
		}
		/* the kernel never returns (uid_t)-1; stop before wrapping */
		if (dq.id >= UINT32_MAX - 1)
			return 0;
		id = dq.id + 1;
	}
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		QFD_OUT_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "all-ids", no_argument, NULL, 'A' },
		{ "numeric", no_argument, NULL, 'N' },
		{ "over", required_argument, NULL, OPT_OVER },
		{ NULL, 0, NULL, 0 }
	};
	struct report r = { .over = QFD_ST_OK };
	unsigned int asked = 0, types;
	struct qfd_out *out = NULL;
	struct qfd_fs *fss;
	bool all = false, table;
	size_t nfs, i;
	int c, t, rc;

	while ((c = getopt_long(argc, argv, QFD_TYPE_SHORTOPTS QFD_OUT_SHORTOPTS "aANh",
				opts, NULL)) != -1) {
		if (qfd_typeopt(&asked, c) || qfd_outopt(&r.oo, c, optarg))
			continue;
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'A':
			r.all_ids = true;
			break;
		case 'N':
			r.numeric = true;
			break;
		case OPT_OVER:
			if (!strcmp(optarg, "soft"))
				r.over = QFD_ST_GRACE;
			else if (!strcmp(optarg, "hard"))
				r.over = QFD_ST_HARD;
			else
				QFD_USAGE_ERR("report", "--over takes 'soft' or 'hard', not '%s'",
					      optarg);
			break;
		case 'h':
			qfd_cmd_help("report", QFD_TYPE_HELP
				     "  -a, --all            every mounted filesystem with quotas\n"
				     "  -A, --all-ids        include ids with no usage and no limits\n"
				     "  -N, --numeric        do not resolve ids to names\n"
				     "      --over soft|hard only ids past their soft (or hard) limits;\n"
				     "                       exit 3 when there are any\n"
				     QFD_OUT_HELP,
				     "Without -u, -g or -p: every quota type the filesystem accounts.\n");
			return QFD_EXIT_OK;
		default:
			qfd_usage_hint("report");
			return QFD_EXIT_USAGE;
		}
	}
	if (r.oo.list_columns) {
		qfd_out_list_columns(qfd_quota_cols, QCOL_NCOLS);
		return QFD_EXIT_OK;
	}
	if (!qfd_targets_ok("report", all, argc - optind))
		return QFD_EXIT_USAGE;

	/* check -o before touching any filesystem */
	out = qfd_out_new("quotas", qfd_quota_cols, QCOL_NCOLS, &r.oo);
	if (!out)
		return QFD_EXIT_USAGE;
	rc = qfd_fs_open_list(argv + optind, argc - optind, all, &fss, &nfs);
	if (rc) {
		qfd_out_free(out);
		return rc;
	}
	r.now = time(NULL);
	/* people get a table per filesystem and type; programs one stream */
	table = r.oo.format == QFD_FMT_TABLE;
	for (i = 0; i < nfs; i++) {
		if (qfd_fs_types(&fss[i], asked, &types, all)) {
			if (!all)
				rc = QFD_EXIT_FAILURE;
			continue;
		}
		for (t = 0; t < QFD_NTYPES; t++) {
			if (!(types & QFD_TYPE_BIT(t)))
				continue;
			if (table && !out) {
				out = qfd_out_new("quotas", qfd_quota_cols,
						  QCOL_NCOLS, &r.oo);
				if (!out)
					errx(QFD_EXIT_FAILURE, "out of memory");
			}
			qfd_out_title(out, "%s quotas on %s (%s, %s)",
				      qfd_type_name(t), fss[i].target,
				      fss[i].fstype, fss[i].source ? fss[i].source : "-");
			if (report_type(&r, out, &fss[i], t))
				rc = QFD_EXIT_FAILURE;
			if (table) {
				if (qfd_out_print(out))
					rc = QFD_EXIT_FAILURE;
				out = NULL;
			}
		}
	}
	if (out && qfd_out_print(out))
		rc = QFD_EXIT_FAILURE;
	qfd_fs_free_list(fss, nfs);
	if (r.nover)
		rc = qfd_exit_merge(rc, QFD_EXIT_OVER);
	return rc;
}
