// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd get: usage and limits of named ids, or of the caller.  Reading one's
 * own quota needs no privilege, so this is the command for users.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "ids.h"
#include "kerr.h"
#include "mnt.h"
#include "output.h"
#include "quota.h"
#include "rows.h"

struct who {
	int type;
	uint32_t id;
};

/* The caller's own ids: the uid for users, every group for groups. */
static int add_own(struct who **v, size_t *n, int type)
{
	gid_t *groups = NULL;
	struct who *nv;
	int ng, i;

	if (type == QFD_PRJ)
		return -EINVAL;
	if (type == QFD_USR) {
		ng = 0;
	} else {
		ng = getgroups(0, NULL);
		if (ng < 0 || !(groups = calloc((size_t)ng + 1, sizeof(*groups))))
			return -ENOMEM;
		ng = getgroups(ng, groups);
		if (ng < 0) {
			free(groups);
			return -errno;
		}
	}
	nv = reallocarray(*v, *n + (size_t)ng + 1, sizeof(**v));
	if (!nv) {
		free(groups);
		return -ENOMEM;	/* *v is still the caller's to free */
	}
	*v = nv;
	(*v)[(*n)++] = (struct who){ type, type == QFD_USR ? getuid() : getgid() };
	for (i = 0; i < ng; i++)
		if (groups[i] != getgid())
			(*v)[(*n)++] = (struct who){ type, groups[i] };
	free(groups);
	return 0;
}

struct get_opts {
	unsigned int types;
	struct qfd_outopts oo;
	bool numeric;
	const char *path;
	char **names;		/* WHO... as given; none: the caller's own */
	int nnames;
	struct who *who;	/* every WHO, resolved */
	size_t nwho;
};

static int parse(int argc, char **argv, struct get_opts *o)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		QFD_OUT_LONGOPTS,
		{ "numeric", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 }
	};
	struct qfd_getopt g = { &qfd_cmd_get,
				QFD_TYPE_SHORTOPTS QFD_OUT_SHORTOPTS "Nh", opts, NULL, NULL };
	int c;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&o->types, c) || qfd_outopt(&o->oo, c, optarg))
			continue;
		switch (c) {
		case 'N':
			o->numeric = true;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	if (o->oo.list_columns) {
		qfd_out_list_columns(qfd_quota_cols, QCOL_NCOLS);
		return QFD_OPTS_DONE;
	}
	if (optind >= argc)
		return qfd_opts_bad("get", "name a path on the filesystem");
	o->path = argv[optind];
	o->names = argv + optind + 1;
	o->nnames = argc - optind - 1;
	if (!o->types)
		o->types = QFD_TYPE_BIT(QFD_USR);
	/* a person reading users and groups together must tell them apart */
	if ((o->types & (o->types - 1)) && !o->oo.columns &&
	    o->oo.format == QFD_FMT_TABLE)
		o->oo.columns = "TYPE,NAME,ID,STATUS,SPACE,SPACE-SOFT,SPACE-HARD,"
				"SPACE-GRACE,FILES,FILES-SOFT,FILES-HARD,FILES-GRACE";
	return QFD_OPTS_GO;
}

/* Every WHO named, of type t: 0 or the exit status. */
static int add_named(struct get_opts *o, int t)
{
	char msg[256];
	int i, err;

	o->who = qfd_xreallocarray(o->who, o->nwho + (size_t)o->nnames,
				   sizeof(*o->who));
	for (i = 0; i < o->nnames; i++) {
		o->who[o->nwho].type = t;
		err = qfd_id_parse(t, o->names[i], &o->who[o->nwho].id);
		if (err) {
			warnx("%s", qfd_id_strerror(t, o->names[i], err, msg, sizeof(msg)));
			return QFD_EXIT_USAGE;
		}
		o->nwho++;
	}
	return 0;
}

/* Every WHO is resolved before the first quota call: 0 or the exit status. */
static int resolve(struct get_opts *o)
{
	int t, err;

	for (t = 0; t < QFD_NTYPES; t++) {
		if (!(o->types & QFD_TYPE_BIT(t)))
			continue;
		if (o->nnames) {
			err = add_named(o, t);
			if (err)
				return err;
			continue;
		}
		err = add_own(&o->who, &o->nwho, t);
		if (err == -EINVAL)
			return qfd_opts_exit(qfd_opts_bad("get", "name the project: processes have no own project"));
		if (err)
			errx(QFD_EXIT_FAILURE, "cannot list your own ids: %s",
			     strerror(-err));
	}
	return 0;
}

/* A row an id; the ids the kernel would not read are reported. */
static int show(struct get_opts *o, struct qfd_fs *fs, struct qfd_out *out)
{
	struct qfd_val vals[QCOL_NCOLS];
	const struct who *w;
	time_t now = time(NULL);
	int err, rc = QFD_EXIT_OK;
	struct qfd_dq dq;

	for (w = o->who; w < o->who + o->nwho; w++) {
		err = qfd_quota_get(fs, w->type, w->id, &dq);
		if (err) {
			qfd_kerr(fs, w->type, err, "read");
			rc = QFD_EXIT_FAILURE;
			continue;
		}
		qfd_dq_row(vals, fs, w->type, &dq,
			   o->numeric ? NULL : qfd_id_name(w->type, dq.id), now);
		if (qfd_out_add(out, vals))
			qfd_oom();
	}
	if (qfd_out_print(out))
		rc = QFD_EXIT_FAILURE;
	return rc;
}

static int run(int argc, char **argv)
{
	struct get_opts o = { .oo.cmd = "get" };
	struct qfd_out *out;
	struct qfd_fs fs;
	int rc;

	rc = parse(argc, argv, &o);
	if (rc)
		return qfd_opts_exit(rc);
	rc = resolve(&o);
	if (rc)
		goto out;
	out = qfd_out_new("quotas", qfd_quota_cols, QCOL_NCOLS, &o.oo);
	if (!out) {
		rc = QFD_EXIT_USAGE;
		goto out;
	}
	rc = qfd_fs_open(o.path, &fs);
	if (rc) {
		qfd_out_free(out);
		rc = qfd_fs_open_exit(rc);
		goto out;
	}
	rc = show(&o, &fs, out);
	qfd_fs_close(&fs);
out:
	free(o.who);
	return rc;
}

const struct qfd_cmd qfd_cmd_get = {
	.name = "get",
	.run = run,
	.args = "[-ugp] [options] PATH [WHO...]",
	.summary = "show usage and limits (default: your own)",
	.options = QFD_TYPE_HELP
		   "  -N, --numeric        do not resolve ids to names\n"
		   QFD_OUT_HELP,
	.notes = "WHO is a name, a number, or #NUMBER for a number that is also a name.\n"
		 "Without WHO: your own user, or all your groups with -g.\n",
};
