// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd on, qfd off, qfd sync: one action per filesystem and quota type.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "kerr.h"
#include "mnt.h"
#include "quota.h"

enum action { ACT_ON, ACT_OFF, ACT_SYNC };

static const char *const act_names[] = { "on", "off", "sync" };

/*
 * f2fs answers Q_QUOTAON and Q_QUOTAOFF with its file-based operations even
 * when its quota files are hidden inodes: on needs a quota file path, which
 * quotactl_fd cannot pass, and off stops the accounting too, after which
 * f2fs marks the quota files for repair by fsck.f2fs and loads no quota at
 * the next mount (seen on Linux 6.1).  Enforcement there comes from the
 * mount options alone, so qfd refuses instead of doing that damage.
 */
static int mount_only(const struct qfd_fs *fs, enum action act, bool *said)
{
	if (act == ACT_SYNC || !fs->fstype || strcmp(fs->fstype, "f2fs"))
		return 0;
	if (*said)
		return -EOPNOTSUPP;
	*said = true;
	if (act == ACT_ON)
		warnx("%s: cannot turn quotas on: f2fs enforces them only from the mount options usrquota, grpquota and prjquota",
		      fs->target);
	else
		warnx("%s: cannot turn quotas off: f2fs would stop counting usage as well and leave its quota files for fsck.f2fs to repair; mount it without usrquota, grpquota and prjquota to count without enforcing",
		      fs->target);
	return -EOPNOTSUPP;
}

static int act_one(struct qfd_fs *fs, int type, enum action act, bool verbose,
		   bool *said)
{
	struct qfd_state st;
	int rc;

	if (act != ACT_SYNC) {
		/* on and off are idempotent: say so instead of EBUSY/EEXIST */
		rc = qfd_quota_state(fs, type, &st);
		if (!rc && st.accounting && st.enforcing == (act == ACT_ON)) {
			if (verbose)
				printf("%s: %s quotas already %s\n", fs->target,
				       qfd_type_name(type), act_names[act]);
			return 0;
		}
	}
	/*
	 * A type that is not counted has no enforcement to switch off (the
	 * kernel answers EEXIST), and tmpfs cannot start counting one after
	 * the mount (EINVAL): say that the type is off, and why.
	 */
	if (act != ACT_SYNC && !rc && !st.accounting &&
	    (act == ACT_OFF || !strcmp(fs->fstype, "tmpfs"))) {
		qfd_kerr(fs, type, -ESRCH, act == ACT_ON ? "turn on" : "turn off");
		return -ESRCH;
	}
	rc = mount_only(fs, act, said);
	if (rc)
		return rc;
	switch (act) {
	case ACT_ON:
		rc = qfd_quota_on(fs, type);
		break;
	case ACT_OFF:
		rc = qfd_quota_off(fs, type);
		break;
	default:
		rc = qfd_quota_sync(fs, type);
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

struct onoff_opts {
	enum action act;
	unsigned int asked;	/* -u/-g/-p */
	bool all, verbose;
	char **paths;
	int npaths;
};

static int parse(int argc, char **argv, struct onoff_opts *o)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct qfd_cmd *const cmds[] = {
		[ACT_ON] = &qfd_cmd_on, [ACT_OFF] = &qfd_cmd_off,
		[ACT_SYNC] = &qfd_cmd_sync,
	};
	struct qfd_getopt g = { cmds[o->act],
				QFD_TYPE_SHORTOPTS "avh", opts, NULL, NULL };
	int c;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&o->asked, c))
			continue;
		switch (c) {
		case 'a':
			o->all = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	o->paths = argv + optind;
	o->npaths = argc - optind;
	if (!qfd_targets_ok(g.cmd->name, o->all, o->npaths))
		return QFD_OPTS_BAD;
	return QFD_OPTS_GO;
}

static int run(int argc, char **argv, enum action act)
{
	struct onoff_opts o = { .act = act };
	unsigned int types;
	struct qfd_fs *fss;
	size_t nfs, i;
	bool said;
	int t, rc;

	rc = parse(argc, argv, &o);
	if (rc)
		return qfd_opts_exit(rc);
	rc = qfd_fs_open_list(o.paths, o.npaths, o.all, &fss, &nfs, NULL, 0);
	if (rc)
		return rc;
	for (i = 0; i < nfs; i++) {
		/* with -a, filesystems without quotas are not an error */
		if (qfd_fs_types(&fss[i], o.asked, &types, o.all)) {
			if (!o.all)
				rc = QFD_EXIT_FAILURE;
			continue;
		}
		said = false;
		for (t = 0; t < QFD_NTYPES; t++)
			if ((types & QFD_TYPE_BIT(t)) &&
			    act_one(&fss[i], t, act, o.verbose, &said))
				rc = QFD_EXIT_FAILURE;
	}
	qfd_fs_free_list(fss, nfs);
	return rc;
}

static int run_on(int argc, char **argv)
{
	return run(argc, argv, ACT_ON);
}

static int run_off(int argc, char **argv)
{
	return run(argc, argv, ACT_OFF);
}

static int run_sync(int argc, char **argv)
{
	return run(argc, argv, ACT_SYNC);
}

#define ONOFF_HELP QFD_TYPE_HELP \
	"  -a, --all            every mounted filesystem with quotas\n" \
	"  -v, --verbose        say what was done\n"

const struct qfd_cmd qfd_cmd_on = {
	.name = "on",
	.run = run_on,
	.args = "[-ugp] [-a | PATH...]",
	.summary = "turn quota enforcement on",
	.options = ONOFF_HELP,
};

const struct qfd_cmd qfd_cmd_off = {
	.name = "off",
	.run = run_off,
	.args = "[-ugp] [-a | PATH...]",
	.summary = "turn quota enforcement off (usage is still counted)",
	.options = ONOFF_HELP,
};

const struct qfd_cmd qfd_cmd_sync = {
	.name = "sync",
	.run = run_sync,
	.args = "[-ugp] [-a | PATH...]",
	.summary = "write quota state to disk",
	.options = ONOFF_HELP,
};
