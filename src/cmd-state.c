// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd state: per filesystem and quota type, whether usage is counted and
 * limits enforced, the quota format and the grace periods.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <libsmartcols.h>

#include "cmds.h"
#include "kerr.h"
#include "mnt.h"
#include "output.h"
#include "quota.h"

enum {
	SCOL_TARGET,
	SCOL_FSTYPE,
	SCOL_TYPE,
	SCOL_ACCOUNTING,
	SCOL_ENFORCING,
	SCOL_FORMAT,
	SCOL_SPACE_GRACE,
	SCOL_FILES_GRACE,
	SCOL_SOURCE,
	SCOL_NCOLS
};

static const struct qfd_col state_cols[SCOL_NCOLS] = {
	[SCOL_TARGET] = { "TARGET", SCOLS_FL_TRUNC, QFD_K_STR, QFD_DFLT_ALL,
			  "mount point of the filesystem" },
	[SCOL_FSTYPE] = { "FSTYPE", 0, QFD_K_STR, QFD_DFLT_ALL,
			  "filesystem type" },
	[SCOL_TYPE] = { "TYPE", 0, QFD_K_STR, QFD_DFLT_ALL,
			"quota type: user, group or project" },
	[SCOL_ACCOUNTING] = { "ACCOUNTING", 0, QFD_K_BOOL, QFD_DFLT_ALL,
			      "usage is counted" },
	[SCOL_ENFORCING] = { "ENFORCING", 0, QFD_K_BOOL, QFD_DFLT_ALL,
			     "limits are enforced" },
	[SCOL_FORMAT] = { "FORMAT", 0, QFD_K_STR, QFD_DFLT_ALL,
			  "quota format (vfsv0, vfsv1; the filesystem's own for XFS)" },
	[SCOL_SPACE_GRACE] = { "SPACE-GRACE", SCOLS_FL_RIGHT, QFD_K_DURATION,
			       QFD_DFLT_ALL, "grace period over the space soft limit" },
	[SCOL_FILES_GRACE] = { "FILES-GRACE", SCOLS_FL_RIGHT, QFD_K_DURATION,
			       QFD_DFLT_ALL, "grace period over the files soft limit" },
	[SCOL_SOURCE] = { "SOURCE", SCOLS_FL_TRUNC, QFD_K_STR, QFD_DFLT_NO,
			  "the mounted device or source" },
};

static int state_row(struct qfd_out *out, struct qfd_fs *fs, int type)
{
	struct qfd_val v[SCOL_NCOLS] = { 0 };
	struct qfd_state st;
	const char *fmt;
	int rc;

	rc = qfd_quota_state(fs, type, &st);
	/* the type exists nowhere on this filesystem, or is off: say "no" */
	if (rc == -EINVAL || rc == -ESRCH)
		rc = 0;
	else if (rc)
		return rc;
	v[SCOL_TARGET] = (struct qfd_val){ .set = true, .s = fs->target };
	v[SCOL_FSTYPE] = (struct qfd_val){ .set = true, .s = fs->fstype };
	v[SCOL_TYPE] = (struct qfd_val){ .set = true, .s = qfd_type_name(type) };
	v[SCOL_SOURCE] = (struct qfd_val){ .set = !!fs->source, .s = fs->source };
	v[SCOL_ACCOUNTING] = (struct qfd_val){ .set = true, .b = st.accounting };
	v[SCOL_ENFORCING] = (struct qfd_val){ .set = true, .b = st.enforcing };
	if (st.accounting) {
		fmt = qfd_quota_format_name(st.format);
		v[SCOL_FORMAT] = (struct qfd_val){ .set = true,
						   .s = fmt ? fmt : fs->fstype };
		v[SCOL_SPACE_GRACE] = (struct qfd_val){ .set = true, .u = st.space_grace };
		v[SCOL_FILES_GRACE] = (struct qfd_val){ .set = true, .u = st.files_grace };
	}
	return qfd_out_add(out, v) ? -ENOMEM : 0;
}

struct state_opts {
	unsigned int types;
	struct qfd_outopts oo;
	bool all;
	char **paths;
	int npaths;
};

static int parse(int argc, char **argv, struct state_opts *o)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		QFD_OUT_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	struct qfd_getopt g = { &qfd_cmd_state,
				QFD_TYPE_SHORTOPTS QFD_OUT_SHORTOPTS "ah", opts, NULL, NULL };
	int c;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&o->types, c) || qfd_outopt(&o->oo, c, optarg))
			continue;
		switch (c) {
		case 'a':
			o->all = true;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	if (o->oo.list_columns) {
		qfd_out_list_columns(state_cols, SCOL_NCOLS);
		return QFD_OPTS_DONE;
	}
	o->paths = argv + optind;
	o->npaths = argc - optind;
	if (!qfd_targets_ok("state", o->all, o->npaths))
		return QFD_OPTS_BAD;
	if (!o->types)
		o->types = QFD_ALL_TYPES;
	return QFD_OPTS_GO;
}

/* The rows of one filesystem: 0, or 1 when a type could not be read. */
static int state_fs(const struct state_opts *o, struct qfd_out *out,
		    struct qfd_fs *fs)
{
	int t, err;

	for (t = 0; t < QFD_NTYPES; t++) {
		if (!(o->types & QFD_TYPE_BIT(t)))
			continue;
		err = state_row(out, fs, t);
		if (err && o->all && qfd_all_skips(fs, err))
			return 0;
		if (err) {
			qfd_kerr(fs, t, err, "read the state of");
			return QFD_EXIT_FAILURE;
		}
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct state_opts o = { .oo.cmd = "state" };
	struct qfd_out *out;
	struct qfd_fs *fss;
	size_t nfs, i;
	int rc;

	rc = parse(argc, argv, &o);
	if (rc)
		return qfd_opts_exit(rc);
	out = qfd_out_new("filesystems", state_cols, SCOL_NCOLS, &o.oo);
	if (!out)
		return QFD_EXIT_USAGE;
	rc = qfd_fs_open_list(o.paths, o.npaths, o.all, &fss, &nfs, NULL, 0);
	if (rc) {
		qfd_out_free(out);
		return rc;
	}
	for (i = 0; i < nfs; i++)
		if (state_fs(&o, out, &fss[i]))
			rc = QFD_EXIT_FAILURE;
	if (qfd_out_print(out))
		rc = QFD_EXIT_FAILURE;
	qfd_fs_free_list(fss, nfs);
	return rc;
}

const struct qfd_cmd qfd_cmd_state = {
	.name = "state",
	.run = run,
	.args = "[-ugp] [options] [-a | PATH...]",
	.summary = "show accounting, enforcement and grace periods",
	.options = QFD_TYPE_HELP
		   "  -a, --all            every mounted filesystem with quotas\n"
		   QFD_OUT_HELP,
};
