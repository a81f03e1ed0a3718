// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one line each kernel error becomes: which mount, which quota type,
 * what went wrong and what to do about it on that filesystem.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "kerr.h"
#include "mnt.h"
#include "qfd.h"
#include "quota.h"

/*
 * tmpfs has quota operations only when mounted with them, and the kernel
 * takes the options only when built with CONFIG_TMPFS_QUOTA: ask it which.
 */
static void tmpfs_enosys(char *buf, size_t len, const char *m)
{
	struct utsname u;

	switch (qfd_tmpfs_quota_support()) {
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

/* ESRCH: the type is off; what turns it on depends on the filesystem. */
static void kerr_off(char *buf, size_t len, const struct qfd_fs *fs, int type,
		     const char *t, const char *m)
{
	if (fs->readonly) {
		snprintf(buf, len, "%s: %s quotas are not active on this read-only mount (%s suspends quotas while read-only)",
			 m, t, fs->fstype);
		return;
	}
	if (!strcmp(fs->fstype, "tmpfs")) {
		/* tmpfs refuses quota options on remount */
		snprintf(buf, len, "%s: %s quotas are off: tmpfs counts only the types it was mounted with; unmount it and mount it with -o %squota (a remount cannot add them)",
			 m, t, type == QFD_USR ? "usr" : "grp");
		return;
	}
	if (!strcmp(fs->fstype, "ubifs")) {
		/*
		 * No feature to make: the mount options are all, and
		 * quota_repair is the way back from a damaged quota file
		 */
		snprintf(buf, len, "%s: %s quotas are off: UBIFS was mounted without them, or could not load them (the kernel log says why); mount it with -o %squota, adding quota_repair if the log says the quota file is damaged",
			 m, t, type == QFD_USR ? "usr" : type == QFD_GRP ? "grp" : "prj");
		return;
	}
	snprintf(buf, len, "%s: %s quotas are off: the filesystem was made or mounted without them (%s, mount -o %squota)",
		 m, t, !strcmp(fs->fstype, "f2fs") ?
		 "mkfs.f2fs -O extra_attr,quota,project_quota" :
		 "mkfs.ext4 -O quota",
		 type == QFD_USR ? "usr" : type == QFD_GRP ? "grp" : "prj");
}

/*
 * ENOSYS: the kernel answers it both for a filesystem type it has no
 * quota code for and for a filesystem of a type it has quota code for
 * that was made or mounted without quotas.
 */
static void kerr_nosys(char *buf, size_t len, const struct qfd_fs *fs,
		       const char *m)
{
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
}

void qfd_kerr_fmt(char *buf, size_t len, const struct qfd_fs *fs, int type,
		  int rc, const char *op)
{
	const char *t = qfd_type_name(type), *m = fs->target;

	switch (-rc) {
	case ESRCH:
		kerr_off(buf, len, fs, type, t, m);
		break;
	case ENOSYS:
		kerr_nosys(buf, len, fs, m);
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
