// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Project ids of inodes (projid.h), shared by 'qfd project', 'qfd dump
 * --project-dirs' and 'qfd apply'.
 *
 * A filesystem that keeps no project ids is found at the first inode that
 * would change, before anything is changed (see qfd_fsattr_change()).  An
 * inode the kernel refused for another reason is put back as it was (see
 * undo()), so that no call is left half applied.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mnt.h"
#include "fsattr.h"

int qfd_fsattr_get(struct qfd_fsattr_seen *p, int fd, struct fsxattr *fa)
{
	memset(fa, 0, sizeof(*fa));
	if (ioctl(fd, FS_IOC_FSGETXATTR, fa))
		return errno;
	if (fa->fsx_projid)
		p->took_ids = true;
	return 0;
}

void qfd_fsattr_want(const struct fsxattr *old, uint32_t projid, bool inherit,
		     struct fsxattr *want)
{
	*want = *old;
	want->fsx_projid = projid;
	want->fsx_xflags = old->fsx_xflags & ~FS_XFLAG_PROJINHERIT;
	if (inherit)
		want->fsx_xflags |= FS_XFLAG_PROJINHERIT;
}

/*
 * Put back what a refused FS_IOC_FSSETXATTR left: ext4 and f2fs write the
 * flags and then the id, and return the id's error with the flags already
 * written (the inherit flag set, the id not).  Read back, and write the old
 * attributes only where they differ, so that a filesystem that changed
 * nothing is not written to again.
 */
static void undo(int fd, const struct fsxattr *old, const char *path)
{
	struct fsxattr now, back = *old;

	memset(&now, 0, sizeof(now));
	if (!ioctl(fd, FS_IOC_FSGETXATTR, &now) &&
	    now.fsx_xflags == old->fsx_xflags &&
	    now.fsx_projid == old->fsx_projid)
		return;
	if (ioctl(fd, FS_IOC_FSSETXATTR, &back))
		warn("%s: cannot put back its inherit flag and project %u",
		     path, old->fsx_projid);
}

/* Write want over old; returns 0, or errno after undoing what it left. */
static int set_attr(struct qfd_fsattr_seen *p, int fd, const struct fsxattr *old,
		    const struct fsxattr *want, const char *path)
{
	struct fsxattr fa = *want;
	int err;

	if (!ioctl(fd, FS_IOC_FSSETXATTR, &fa)) {
		if (want->fsx_projid)
			p->took_ids = true;
		return 0;
	}
	err = errno;
	undo(fd, old, path);
	return err;
}

/*
 * Until the filesystem has shown that it keeps project ids, the id goes
 * first, alone, with the flags as they are: ext4 and f2fs refuse an id
 * they cannot keep (no project feature) only after they have applied the
 * flags, so with the flags unchanged that refusal leaves nothing behind,
 * and a walk has touched nothing when it stops.  XFS always keeps project
 * ids and checks the id before its transaction changes anything, so there
 * the first call simply succeeds.  Then the flags.
 */
int qfd_fsattr_change(struct qfd_fsattr_seen *p, int fd, const struct fsxattr *old,
		      const struct fsxattr *want, const char *path)
{
	struct fsxattr id_only = *old;
	int err;

	if (!p->took_ids && old->fsx_projid != want->fsx_projid &&
	    old->fsx_xflags != want->fsx_xflags) {
		id_only.fsx_projid = want->fsx_projid;
		err = set_attr(p, fd, old, &id_only, path);
		if (err)
			return err;
	}
	return set_attr(p, fd, old, want, path);
}

/* EOPNOTSUPP from FSSETXATTR, ENOTTY where there is no such ioctl */
bool qfd_fsattr_unsupported(const struct qfd_fsattr_seen *p, int err)
{
	return !p->took_ids && (err == EOPNOTSUPP || err == ENOTTY);
}

/* What makes a filesystem of this type keep project ids. */
static const char *howto(const char *fstype)
{
	if (!strcmp(fstype, "ext4") || !strcmp(fstype, "ext3") ||
	    !strcmp(fstype, "ext2"))
		return "make it with mkfs.ext4 -O project -I 256, or add them with tune2fs -O project while it is unmounted";
	if (!strcmp(fstype, "f2fs"))
		return "make it with mkfs.f2fs -O extra_attr,project_quota";
	return "ext4 (-O project), XFS and f2fs (-O extra_attr,project_quota) keep them";
}

void qfd_fsattr_nosupport_msg(char *buf, size_t len, int fd)
{
	char *target, *fstype;

	if (qfd_mnt_of_fd(fd, &target, &fstype)) {
		snprintf(buf, len, "its filesystem has no project ids: %s", howto(""));
		return;
	}
	snprintf(buf, len, "%s (%s) has no project ids: %s", target, fstype,
		 howto(fstype));
	free(target);
	free(fstype);
}

const char *qfd_fsattr_hint(int err, bool setting)
{
	switch (err) {
	case EOVERFLOW:
		return "the inode has no room for a project id (ext4 needs 256-byte inodes: mkfs.ext4 -I 256)";
	case EINVAL:
		if (setting)
			return "the filesystem refused this project id (XFS without 32-bit project ids takes up to 65535)";
		break;
	case EDQUOT:
		return "the project's limits do not leave room for what moves into it";
	}
	return NULL;
}

int qfd_fsattr_open_entry(const FTSENT *e, bool follow, struct stat *st)
{
	int fd, err;

	fd = open(e->fts_accpath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		  (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		err = errno;
		close(fd);
		return -err;
	}
	if (st->st_ino != e->fts_statp->st_ino ||
	    st->st_dev != e->fts_statp->st_dev) {
		close(fd);
		return -ESTALE;	/* replaced while we looked: not what we saw */
	}
	return fd;
}
