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

int cmd_get(int argc, char **argv)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		QFD_OUT_LONGOPTS,
		{ "numeric", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 }
	};
	struct qfd_outopts oo = { .cmd = "get" };
	struct qfd_val vals[QCOL_NCOLS];
	unsigned int types = 0;
	struct who *who = NULL, *nw;
	struct qfd_out *out = NULL;
	bool numeric = false;
	size_t nwho = 0, i;
	struct qfd_fs fs;
	time_t now;
	int c, t, err, rc = QFD_EXIT_OK;
	char msg[256];
	struct qfd_getopt g = { QFD_TYPE_SHORTOPTS QFD_OUT_SHORTOPTS "Nh", opts, NULL };

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&types, c) || qfd_outopt(&oo, c, optarg))
			continue;
		switch (c) {
		case 'N':
			numeric = true;
			break;
		case 'h':
			qfd_cmd_help("get", QFD_TYPE_HELP
				     "  -N, --numeric        do not resolve ids to names\n"
				     QFD_OUT_HELP,
				     "WHO is a name, a number, or #NUMBER for a number that is also a name.\n"
				     "Without WHO: your own user, or all your groups with -g.\n");
			return QFD_EXIT_OK;
		case QFD_OPT_TWICE:
			QFD_USAGE_ERR("get", "%s", g.msg);
		default:
			qfd_usage_hint("get");
			return QFD_EXIT_USAGE;
		}
	}
	if (oo.list_columns) {
		qfd_out_list_columns(qfd_quota_cols, QCOL_NCOLS);
		return QFD_EXIT_OK;
	}
	if (optind >= argc)
		QFD_USAGE_ERR("get", "name a path on the filesystem");
	if (!types)
		types = QFD_TYPE_BIT(QFD_USR);
	/* a person reading users and groups together must tell them apart */
	if ((types & (types - 1)) && !oo.columns && oo.format == QFD_FMT_TABLE)
		oo.columns = "TYPE,NAME,ID,STATUS,SPACE,SPACE-SOFT,SPACE-HARD,"
			     "SPACE-GRACE,FILES,FILES-SOFT,FILES-HARD,FILES-GRACE";

	/* every WHO is resolved before the first quota call */
	for (t = 0; t < QFD_NTYPES; t++) {
		if (!(types & QFD_TYPE_BIT(t)))
			continue;
		if (optind + 1 == argc) {
			err = add_own(&who, &nwho, t);
			if (err == -EINVAL) {
				free(who);
				QFD_USAGE_ERR("get", "name the project: processes have no own project");
			}
			if (err) {
				free(who);
				errx(QFD_EXIT_FAILURE, "cannot list your own ids: %s",
				     strerror(-err));
			}
			continue;
		}
		nw = reallocarray(who, nwho + (size_t)(argc - optind), sizeof(*who));
		if (!nw) {
			free(who);
			errx(QFD_EXIT_FAILURE, "out of memory");
		}
		who = nw;
		for (i = (size_t)optind + 1; i < (size_t)argc; i++) {
			who[nwho].type = t;
			err = qfd_id_parse(t, argv[i], &who[nwho].id);
			if (err) {
				free(who);
				warnx("%s", qfd_id_strerror(t, argv[i], err, msg, sizeof(msg)));
				return QFD_EXIT_USAGE;
			}
			nwho++;
		}
	}

	out = qfd_out_new("quotas", qfd_quota_cols, QCOL_NCOLS, &oo);
	err = out ? qfd_fs_open(argv[optind], &fs) : 0;
	if (!out || err) {
		free(who);
		qfd_out_free(out);
		return out ? qfd_fs_open_exit(err) : QFD_EXIT_USAGE;
	}
	now = time(NULL);
	for (i = 0; i < nwho; i++) {
		struct qfd_dq dq;

		err = qf_get(&fs, who[i].type, who[i].id, &dq);
		if (err) {
			qfd_kerr(&fs, who[i].type, err, "read");
			rc = QFD_EXIT_FAILURE;
			continue;
		}
		qfd_dq_row(vals, &fs, who[i].type, &dq,
			   numeric ? NULL : qfd_id_name(who[i].type, dq.id), now);
		if (qfd_out_add(out, vals))
			errx(QFD_EXIT_FAILURE, "out of memory");
	}
	if (qfd_out_print(out))
		rc = QFD_EXIT_FAILURE;
	qfd_fs_close(&fs);
	free(who);
	return rc;
}
