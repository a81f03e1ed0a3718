// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the commands share.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmds.h"
#include "mnt.h"
#include "quota.h"

void qfd_cmd_help(const struct qfd_cmd *cmd)
{
	/* -h with the other options, the notes after all of them */
	printf("Usage: qfd %s %s\n\n%c%s.\n\nOptions:\n%s"
	       "  -h, --help           show this help\n%s%s\n"
	       "See qfd(8) for details and examples.\n",
	       cmd->name, cmd->args, cmd->summary[0] - 'a' + 'A',
	       cmd->summary + 1, cmd->options, cmd->notes ? "\n" : "",
	       cmd->notes ? cmd->notes : "");
}

int qfd_opts_bad(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	qfd_usage_hint(cmd);
	return QFD_OPTS_BAD;
}

int qfd_exit_merge(int a, int b)
{
	static const int rank[] = {
		[QFD_EXIT_OK] = 0, [QFD_EXIT_CHANGED] = 1,
		[QFD_EXIT_FAILURE] = 2, [QFD_EXIT_OVER] = 3,
		[QFD_EXIT_USAGE] = 4,
	};

	return rank[a] >= rank[b] ? a : b;
}

/* Option c as the user may have typed it: "-w (--warning)", "--batch". */
static void opt_name(const struct qfd_getopt *g, int c, char *buf, size_t len)
{
	const struct option *o = g->longopts;

	while (o && o->name && o->val != c)
		o++;
	if (!o || !o->name)
		snprintf(buf, len, "-%c", c);
	else if (c >= 0x80)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c (--%s)", c, o->name);
}

static bool opt_seen(const struct qfd_getopt *g, int c)
{
	return g->seen[c / 8] & (1u << (c % 8));
}

/* Does c meet an option given before that it excludes, or that excludes it? */
static bool opt_excluded(struct qfd_getopt *g, int c)
{
	const struct qfd_excl *e;
	char a[40], b[40];
	const int *o;

	for (e = g->excl; e && e->opt; e++) {
		for (o = e->others; *o && o < e->others + ARRAY_SIZE(e->others); o++) {
			if (!(c == e->opt && opt_seen(g, *o)) &&
			    !(c == *o && opt_seen(g, e->opt)))
				continue;
			opt_name(g, e->opt, a, sizeof(a));
			opt_name(g, *o, b, sizeof(b));
			if (e->msg)
				snprintf(g->msg, sizeof(g->msg), "%s", e->msg);
			else
				snprintf(g->msg, sizeof(g->msg), "%s and %s exclude each other", a, b);
			return true;
		}
	}
	return false;
}

int qfd_getopt(struct qfd_getopt *g, int argc, char **argv)
{
	int c = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
	char name[40];

	if (c < 0 || c == '?' || c >= QFD_OPT_BITS)
		return c;
	/* flags may come twice: -J -J asks the same */
	if (optarg && opt_seen(g, c) &&
	    !(c < 0x80 && g->repeatable && strchr(g->repeatable, c))) {
		opt_name(g, c, name, sizeof(name));
		snprintf(g->msg, sizeof(g->msg), "%s given twice: give it once", name);
		return QFD_OPT_REFUSED;
	}
	if (opt_excluded(g, c))
		return QFD_OPT_REFUSED;
	g->seen[c / 8] |= (unsigned char)(1u << (c % 8));
	return c;
}

bool qfd_targets_ok(const char *cmd, bool all, int npaths)
{
	if (all == (npaths > 0)) {
		warnx("%s", all ? "-a and paths exclude each other" :
		      "name a path on the filesystem, or -a for all");
		qfd_usage_hint(cmd);
		return false;
	}
	return true;
}

bool qfd_typeopt(unsigned int *types, int c)
{
	switch (c) {
	case 'u':
		*types |= QFD_TYPE_BIT(QFD_USR);
		return true;
	case 'g':
		*types |= QFD_TYPE_BIT(QFD_GRP);
		return true;
	case 'p':
		*types |= QFD_TYPE_BIT(QFD_PRJ);
		return true;
	}
	return false;
}

int qfd_fs_types(struct qfd_fs *fs, unsigned int asked, unsigned int *types,
		 bool quiet)
{
	unsigned int accounted = 0;
	struct qfd_state st;
	int t, rc;

	*types = asked;
	/* named types on a named filesystem: let the kernel answer for them */
	if (asked && !quiet)
		return 0;
	for (t = 0; t < QFD_NTYPES; t++) {
		rc = qf_state(fs, t, &st);
		/* a type the filesystem does not know is simply not there */
		if (rc == -EINVAL || rc == -ESRCH)
			continue;
		if (rc) {
			if (!quiet)
				qfd_kerr(fs, t, rc, "read the state of");
			return rc;
		}
		if (st.accounting)
			accounted |= QFD_TYPE_BIT(t);
	}
	*types = asked ? asked & accounted : accounted;
	if (!*types) {
		if (!quiet)
			warnx("%s: no quota type is accounted on this %s filesystem: mount it with quota options (usrquota, grpquota, prjquota) or make it with quotas (mkfs.ext4 -O quota)",
			      fs->target, fs->fstype);
		return -ESRCH;
	}
	return 0;
}

/*
 * tmpfs has quota operations only when mounted with them, and the kernel
 * takes the options only when built with CONFIG_TMPFS_QUOTA: ask it which.
 */
static void tmpfs_enosys(char *buf, size_t len, const char *m)
{
	struct utsname u;

	switch (qf_tmpfs_quota_support()) {
	case 1:
		snprintf(buf, len, "%s: quotas are off: tmpfs was mounted without usrquota or grpquota; unmount it and mount it with -o usrquota (a remount cannot add them)",
			 m);
		break;
	case 0:
		snprintf(buf, len, "%s: no quotas on tmpfs: this kernel (%s) was built without tmpfs quota support (CONFIG_TMPFS_QUOTA, Linux 6.6 or later)",
			 m, uname(&u) ? "?" : u.release);
		break;
	default:
		snprintf(buf, len, "%s: quotas are off: tmpfs keeps them only when mounted with usrquota or grpquota, on Linux 6.6 or later built with CONFIG_TMPFS_QUOTA",
			 m);
	}
}

void qfd_kerr_fmt(char *buf, size_t len, const struct qfd_fs *fs, int type,
		  int rc, const char *op)
{
	const char *t = qfd_type_name(type), *m = fs->target;

	switch (-rc) {
	case ESRCH:
		if (fs->readonly) {
			snprintf(buf, len, "%s: %s quotas are not active on this read-only mount (%s suspends quotas while read-only)",
					   m, t, fs->fstype);
			break;
		}
		if (!strcmp(fs->fstype, "tmpfs")) {
			/* tmpfs refuses quota options on remount */
			snprintf(buf, len, "%s: %s quotas are off: tmpfs counts only the types it was mounted with; unmount it and mount it with -o %squota (a remount cannot add them)",
				 m, t, type == QFD_USR ? "usr" : "grp");
			break;
		}
		if (!strcmp(fs->fstype, "ubifs")) {
			/* no feature to make: the mount options are all */
			snprintf(buf, len, "%s: %s quotas are off: UBIFS was mounted without them, or could not load them (the kernel log says why); mount it with -o %squota",
				 m, t, type == QFD_USR ? "usr" : type == QFD_GRP ? "grp" : "prj");
			break;
		}
		snprintf(buf, len, "%s: %s quotas are off: the filesystem was made or mounted without them (%s, mount -o %squota)",
				   m, t, !strcmp(fs->fstype, "f2fs") ?
				   "mkfs.f2fs -O extra_attr,quota,project_quota" :
				   "mkfs.ext4 -O quota",
				   type == QFD_USR ? "usr" : type == QFD_GRP ? "grp" : "prj");
		break;
	case ENOSYS:
		/*
		 * The kernel answers ENOSYS both for a filesystem type it has
		 * no quota code for and for a filesystem of a type it has
		 * quota code for that was made or mounted without quotas.
		 */
		if (fs->readonly)
			snprintf(buf, len, "%s: %s keeps no quota information on this read-only mount; remount it read-write",
					   m, fs->fstype);
		else if (!strcmp(fs->fstype, "xfs"))
			snprintf(buf, len, "%s: quotas are off: XFS was mounted without uquota, gquota or pquota, which only a mount can turn on",
					   m);
		else if (!strcmp(fs->fstype, "tmpfs"))
			tmpfs_enosys(buf, len, m);
		else if (!strncmp(fs->fstype, "ext", 3))
			snprintf(buf, len, "%s: quotas are off: %s was made without the quota feature (tune2fs -O quota) and mounted without usrquota/grpquota",
					   m, fs->fstype);
		else if (!strcmp(fs->fstype, "f2fs"))
			/* f2fs has no tune2fs: the feature is chosen at mkfs */
			snprintf(buf, len, "%s: quotas are off: f2fs was made without the quota feature (mkfs.f2fs -O quota) and mounted without usrquota/grpquota",
				 m);
		else
			snprintf(buf, len, "%s: %s has no quota support in this kernel", m,
					   fs->fstype);
		break;
	case EPERM:
	case EACCES:
		snprintf(buf, len, "%s: permission denied to %s %s quotas: run as root (others may only read their own)",
				   m, op, t);
		break;
	case EROFS:
		snprintf(buf, len, "%s: read-only filesystem: cannot %s %s quotas; remount it read-write",
				   m, op, t);
		break;
	case EINVAL:
		if (type == QFD_PRJ && !strcmp(fs->fstype, "tmpfs")) {
			snprintf(buf, len, "%s: tmpfs has no project quotas, only user and group quotas",
				 m);
			break;
		}
		snprintf(buf, len, "%s: %s quotas are not supported by %s here, or it refused to %s them",
				   m, t, fs->fstype, op);
		break;
	case ENOTBLK:
		snprintf(buf, len, "%s: this kernel lacks quotactl_fd(2) and %s has no block device for quotactl(2): Linux 5.14 or later (or qfd's kernel/quotactl_fd-5.10 patch) is needed",
				   m, fs->source ? fs->source : fs->fstype);
		break;
	default:
		snprintf(buf, len, "%s: cannot %s %s quotas: %s", m, op, t, strerror(-rc));
	}
}

bool qfd_all_skips(const struct qfd_fs *fs, int rc)
{
	char buf[512];

	if (rc != -ESRCH && rc != -ENOSYS && rc != -ENOTBLK)
		return false;
	if (qfd_debug) {
		qfd_kerr_fmt(buf, sizeof(buf), fs, QFD_USR, rc, "read");
		fprintf(stderr, "qfd: debug: -a skips %s\n", buf);
	}
	return true;
}

void qfd_kerr(const struct qfd_fs *fs, int type, int rc, const char *op)
{
	char buf[512];

	qfd_kerr_fmt(buf, sizeof(buf), fs, type, rc, op);
	warnx("%s", buf);
}
