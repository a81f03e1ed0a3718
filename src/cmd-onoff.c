// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd on, qfd off, qfd sync: one action per filesystem and quota type.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "cmds.h"
#include "mnt.h"
#include "quota.h"

enum action { ACT_ON, ACT_OFF, ACT_SYNC };

static const char *const act_names[] = { "on", "off", "sync" };

static int act_one(struct qfd_fs *fs, int type, enum action act, bool verbose)
{
	struct qfd_state st;
	int rc;

	if (act != ACT_SYNC) {
		/* on and off are idempotent: say so instead of EBUSY/EEXIST */
		rc = qf_state(fs, type, &st);
		if (!rc && st.accounting && st.enforcing == (act == ACT_ON)) {
			if (verbose)
				printf("%s: %s quotas already %s\n", fs->target,
				       qfd_type_name(type), act_names[act]);
			return 0;
		}
	}
	switch (act) {
	case ACT_ON:
		rc = qf_on(fs, type);
		break;
	case ACT_OFF:
		rc = qf_off(fs, type);
		break;
	default:
		rc = qf_sync(fs, type);
	}
	if (rc == -EINVAL && act == ACT_ON) {
		warnx("%s: cannot turn %s quotas on: %s keeps them in visible quota files (aquota.*) that quotactl_fd cannot name, or was mounted without them; use quotaon(8), or enable hidden quota inodes (tune2fs -O quota)",
		      fs->target, qfd_type_name(type), fs->fstype);
		return rc;
	}
	if (rc) {
		qfd_kerr(fs, type, rc, act == ACT_SYNC ? "sync" :
			 act == ACT_ON ? "turn on" : "turn off");
		return rc;
	}
	if (verbose)
		printf(act == ACT_SYNC ? "%s: %s quotas synced\n" :
		       "%s: %s quotas %s\n", fs->target, qfd_type_name(type),
		       act_names[act]);
	return 0;
}

static int run(int argc, char **argv, enum action act)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	const char *name = act_names[act];
	unsigned int asked = 0, types;
	bool all = false, verbose = false;
	struct qfd_fs *fss;
	size_t nfs, i;
	int c, t, rc = QFD_EXIT_OK;

	while ((c = getopt_long(argc, argv, QFD_TYPE_SHORTOPTS "avh", opts, NULL)) != -1) {
		if (qfd_typeopt(&asked, c))
			continue;
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			qfd_cmd_help(name, QFD_TYPE_HELP
				     "  -a, --all            every mounted filesystem with quotas\n"
				     "  -v, --verbose        say what was done\n", NULL);
			return QFD_EXIT_OK;
		default:
			qfd_usage_hint(name);
			return QFD_EXIT_USAGE;
		}
	}
	if (!qfd_targets_ok(name, all, argc - optind))
		return QFD_EXIT_USAGE;
	rc = qfd_fs_open_list(argv + optind, argc - optind, all, &fss, &nfs);
	if (rc)
		return rc;
	for (i = 0; i < nfs; i++) {
		/* with -a, filesystems without quotas are not an error */
		if (qfd_fs_types(&fss[i], asked, &types, all)) {
			if (!all)
				rc = QFD_EXIT_FAILURE;
			continue;
		}
		for (t = 0; t < QFD_NTYPES; t++)
			if ((types & QFD_TYPE_BIT(t)) &&
			    act_one(&fss[i], t, act, verbose))
				rc = QFD_EXIT_FAILURE;
	}
	qfd_fs_free_list(fss, nfs);
	return rc;
}

int cmd_on(int argc, char **argv)
{
	return run(argc, argv, ACT_ON);
}

int cmd_off(int argc, char **argv)
{
	return run(argc, argv, ACT_OFF);
}

int cmd_sync(int argc, char **argv)
{
	return run(argc, argv, ACT_SYNC);
}
