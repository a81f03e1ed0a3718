// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The project directories of 'qfd apply' (apply.h): planned with every
 * other item, written first, put back like them.
 *
 * A directory is named relative to its filesystem's mount point and
 * opened beneath it with openat2(2): no symbolic link is followed and no
 * other mount is entered on the way, so a document cannot reach outside
 * the filesystem it names.  The plan remembers the inode it read, and the
 * write phase writes only that inode: one replaced in between is refused.
 * The attributes are written with projid.c, as 'qfd project set' does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "apply.h"
#include "ids.h"
#include "sigdefer.h"

/* The directory path beneath the mount point fd; fd or -errno. */
static int open_beneath(int mntfd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV,
	};
	int fd;

	fd = (int)syscall(SYS_openat2, mntfd, path, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)	/* before Linux 5.6: the last part only */
		fd = openat(mntfd, path, (int)how.flags);
	return fd < 0 ? -errno : fd;
}

static const char *open_err(int err)
{
	switch (err) {
	case ENOENT:
		return "no such directory";
	case ENOTDIR:
		return "not a directory (symbolic links are not followed)";
	case ELOOP:
		return "a symbolic link (not followed: name the directory itself)";
	case EXDEV:
		return "on another filesystem, or outside this one";
	}
	return strerror(err);
}

/* Read one directory's attributes into d; 0, or the error's text. */
static const char *plan_one(struct fsplan *fp, const struct qfd_want_dir *w,
			    struct dirplan *d, char *buf, size_t len)
{
	struct stat st;
	int fd, err;

	fd = open_beneath(fp->mntfd, w->path);
	if (fd < 0)
		return open_err(-fd);
	err = fstat(fd, &st) ? errno : 0;
	if (!err && st.st_dev != fp->fs.dev)
		err = EXDEV;
	if (!err)
		err = qfd_fsattr_get(&fp->ids, fd, &d->old);
	if (err == ENOTTY || err == EOPNOTSUPP)
		qfd_fsattr_nosupport_msg(buf, len, fd);
	close(fd);
	if (err)
		return err == ENOTTY || err == EOPNOTSUPP ? buf : open_err(err);
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	qfd_fsattr_want(&d->old, w->projid, w->inherit, &d->want);
	d->change = d->old.fsx_projid != d->want.fsx_projid ||
		    d->old.fsx_xflags != d->want.fsx_xflags;
	return NULL;
}

static int cmp_inode(const void *a, const void *b)
{
	const struct dirplan *x = *(const struct dirplan *const *)a;
	const struct dirplan *y = *(const struct dirplan *const *)b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A directory named twice (as "a" and "./a", say) is a bad item. */
static int check_twice(struct fsplan *fp, const struct qfd_want_fs *wf,
		       size_t *nbad)
{
	struct dirplan **v = calloc(wf->ndirs ? wf->ndirs : 1, sizeof(*v));
	size_t i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < wf->ndirs; i++)
		v[i] = &fp->dirs[i];
	qsort(v, wf->ndirs, sizeof(*v), cmp_inode);
	for (i = 1; i < wf->ndirs; i++) {
		if (!v[i]->ino || v[i]->ino != v[i - 1]->ino)
			continue;
		fprintf(stderr, "%s: %s: project directory %s: the same directory as %s\n",
			program_invocation_short_name, fp->fs.target,
			wf->dirs[v[i] - fp->dirs].path, wf->dirs[v[i - 1] - fp->dirs].path);
		(*nbad)++;
	}
	free(v);
	return 0;
}

int qfd_dirs_plan(struct fsplan *fp, const struct qfd_want_fs *wf, size_t *nbad)
{
	char buf[512];
	const char *err;
	struct stat st;
	size_t i;

	fp->dirs = calloc(wf->ndirs ? wf->ndirs : 1, sizeof(*fp->dirs));
	if (!fp->dirs)
		return -ENOMEM;
	fp->mntfd = open(fp->fs.target, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fp->mntfd < 0 || fstat(fp->mntfd, &st) || st.st_dev != fp->fs.dev) {
		fprintf(stderr, "%s: %s: cannot reach the mount point, which project directories are named from\n",
			program_invocation_short_name, fp->fs.target);
		(*nbad)++;
		return 0;
	}
	for (i = 0; i < wf->ndirs; i++) {
		err = plan_one(fp, &wf->dirs[i], &fp->dirs[i], buf, sizeof(buf));
		if (!err)
			continue;
		fprintf(stderr, "%s: %s: project directory %s: %s\n",
			program_invocation_short_name, fp->fs.target,
			wf->dirs[i].path, err);
		(*nbad)++;
	}
	return check_twice(fp, wf, nbad);
}

void qfd_dirs_free(struct fsplan *fp)
{
	if (fp->mntfd >= 0)
		close(fp->mntfd);
	fp->mntfd = -1;
	free(fp->dirs);
	fp->dirs = NULL;
}

size_t qfd_dirs_changes(const struct fsplan *fp, const struct qfd_want_fs *wf)
{
	size_t i, n = 0;

	for (i = 0; fp->dirs && i < wf->ndirs; i++)
		n += fp->dirs[i].change;
	return n;
}

/* Write from over the directory, if it is still the inode the plan read. */
static int write_one(struct fsplan *fp, const struct qfd_want_dir *w,
		     const struct dirplan *d, const struct fsxattr *from,
		     const struct fsxattr *to)
{
	struct stat st;
	char path[4096];
	int fd, err;

	fd = open_beneath(fp->mntfd, w->path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		err = errno;
	else if (st.st_ino != d->ino || st.st_dev != d->dev)
		err = ESTALE;
	else {
		snprintf(path, sizeof(path), "%s/%s", fp->fs.target, w->path);
		err = qfd_fsattr_change(&fp->ids, fd, from, to, path);
	}
	close(fd);
	return -err;
}

int qfd_dirs_write(struct fsplan *fp, const struct qfd_want_fs *wf,
		   size_t *nwritten, size_t *failed)
{
	size_t i;
	int rc;

	for (i = 0; fp->dirs && i < wf->ndirs; i++) {
		struct dirplan *d = &fp->dirs[i];

		if (!d->change)
			continue;
		if (qfd_sigdefer_pending())
			return 0;	/* the caller sees the signal */
		rc = write_one(fp, &wf->dirs[i], d, &d->old, &d->want);
		if (rc) {
			*failed = i;
			return rc;
		}
		d->written = true;
		(*nwritten)++;
	}
	return 0;
}

void qfd_dirs_put_back(struct fsplan *fp, const struct qfd_want_fs *wf,
		       size_t *nkept, char *kept, size_t len)
{
	size_t i = fp->dirs ? wf->ndirs : 0;
	int rc;

	while (i--) {
		struct dirplan *d = &fp->dirs[i];

		if (!d->written)
			continue;
		rc = write_one(fp, &wf->dirs[i], d, &d->want, &d->old);
		if (!rc) {
			d->written = false;
			continue;
		}
		if (!(*nkept)++)
			snprintf(kept, len, "putting back the project of directory %s on %s (%s)",
				 wf->dirs[i].path, fp->fs.target, strerror(-rc));
	}
}

void qfd_dirs_msg(char *buf, size_t len, const struct fsplan *fp,
		  const struct qfd_want_fs *wf, size_t dir, int err)
{
	const char *hint = qfd_fsattr_hint(-err, true);
	char why[512];

	if (qfd_fsattr_unsupported(&fp->ids, -err)) {
		int fd = open_beneath(fp->mntfd, wf->dirs[dir].path);

		if (fd >= 0) {
			qfd_fsattr_nosupport_msg(why, sizeof(why), fd);
			close(fd);
			hint = why;
		}
	} else if (err == -ESTALE) {
		hint = "replaced since it was read";
	}
	snprintf(buf, len, "%s: cannot set the project of directory %s: %s",
		 fp->fs.target, wf->dirs[dir].path, hint ? hint : strerror(-err));
}
