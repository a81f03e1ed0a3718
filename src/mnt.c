// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Paths to filesystems, through libmount.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <libmount.h>

#include "mnt.h"
#include "qfd.h"

/* Filesystem types whose kernel code implements quotactl; for -a. */
static const char *const quota_fstypes[] = {
	"ext2", "ext3", "ext4", "xfs", "ubifs", "f2fs", "tmpfs",
	"ocfs2", "gfs2", "jfs", "reiserfs", "nilfs2",
};

static struct libmnt_table *mountinfo(void)
{
	static struct libmnt_table *tb;

	/* read once: a report over many paths parses mountinfo once */
	if (!tb)
		tb = mnt_new_table_from_file("/proc/self/mountinfo");
	return tb;
}

/* Is dir a path-component prefix of path?  "/mnt" is one of "/mnt/x". */
static bool is_under(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(dir, path, n) && (path[n] == '/' || path[n] == '\0');
}

/*
 * The mount of dev that holds path: the deepest mount point above path with
 * the same device.  A path reached through a bind mount finds that bind
 * mount; a device mounted twice resolves to the mount actually traversed.
 */
static struct libmnt_fs *find_mount(struct libmnt_table *tb, const char *path,
				    dev_t dev)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs, *best = NULL, *any = NULL;
	size_t best_len = 0;

	if (!it)
		return NULL;
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs);

		if (!target || mnt_fs_get_devno(fs) != dev)
			continue;
		if (!any)
			any = fs;
		if (is_under(target, path) && strlen(target) >= best_len) {
			best = fs;
			best_len = strlen(target);
		}
	}
	mnt_free_iter(it);
	return best ? best : any;
}

/*
 * The mount the descriptor was reached through, by its id (statx, Linux
 * 5.8): exact even for a device mounted twice or a bind mount.  NULL when
 * the kernel gives no mount id or mountinfo has no such entry (libmount
 * 2.38 has no lookup by id: walk the table).
 */
static struct libmnt_fs *find_mount_id(struct libmnt_table *tb, int fd,
				       dev_t dev)
{
	struct libmnt_iter *it;
	struct libmnt_fs *fs, *found = NULL;
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return NULL;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	while (it && !found && mnt_table_next_fs(tb, it, &fs) == 0)
		if ((uint64_t)mnt_fs_get_id(fs) == stx.stx_mnt_id &&
		    mnt_fs_get_devno(fs) == dev && mnt_fs_get_target(fs))
			found = fs;
	mnt_free_iter(it);
	return found;
}

static int fill(struct qfd_fs *q, struct libmnt_fs *fs, int fd, dev_t dev)
{
	const char *src = mnt_fs_get_source(fs);
	struct statvfs sv;

	memset(q, 0, sizeof(*q));
	q->fd = fd;
	q->dev = dev;
	q->target = strdup(mnt_fs_get_target(fs));
	q->fstype = strdup(mnt_fs_get_fstype(fs) ? mnt_fs_get_fstype(fs) : "unknown");
	q->source = src ? strdup(src) : NULL;
	/*
	 * From the kernel, not the mount options: a filesystem that
	 * errors=remount-ro turned read-only shows it here at once.
	 */
	q->readonly = !fstatvfs(fd, &sv) && (sv.f_flag & ST_RDONLY);
	if (!q->target || !q->fstype || (src && !q->source))
		return -ENOMEM;
	return 0;
}

/*
 * A failure to open, in one line: into msg (len bytes) for a command that
 * prints it itself (check's status line), or with len 0 onto stderr.
 */
static void open_err(char *msg, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void open_err(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (len)
		vsnprintf(msg, len, fmt, ap);
	else
		vwarnx(fmt, ap);
	va_end(ap);
}

/* name: what messages call path */
static int fs_open(const char *path, const char *name, struct qfd_fs *q,
		   char *msg, size_t len)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_fs *fs;
	struct stat st, mst;
	char *real = NULL;
	int fd, mfd, rc;

	memset(q, 0, sizeof(*q));
	q->fd = -1;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		open_err(msg, len, "%s: %s", name, strerror(-rc));
		goto fail;
	}
	if (!tb) {
		rc = -errno;
		open_err(msg, len, "cannot read /proc/self/mountinfo: is /proc mounted?");
		goto fail;
	}
	fs = find_mount_id(tb, fd, st.st_dev);
	if (!fs) {
		/* before Linux 5.8: by device and the deepest mount point */
		real = realpath(path, NULL);
		fs = find_mount(tb, real ? real : path, st.st_dev);
	}
	if (!fs) {
		rc = -ENOENT;
		open_err(msg, len, "%s: no mount holds this path in /proc/self/mountinfo",
			 name);
		goto fail;
	}

	/*
	 * Prefer the mount point itself, so the descriptor does not pin a
	 * directory deep in the tree; keep the path's descriptor when the
	 * mount point is hidden under another mount.
	 */
	mfd = open(mnt_fs_get_target(fs), O_PATH | O_CLOEXEC | O_DIRECTORY);
	if (mfd >= 0 && !fstat(mfd, &mst) && mst.st_dev == st.st_dev) {
		close(fd);
		fd = mfd;
	} else if (mfd >= 0) {
		close(mfd);
	}
	rc = fill(q, fs, fd, st.st_dev);
	fd = -1;
	if (rc) {
		open_err(msg, len, "%s: %s", name, strerror(-rc));
		qfd_fs_close(q);
	}
fail:
	if (fd >= 0)
		close(fd);
	free(real);
	return rc;
}

int qfd_fs_open(const char *path, struct qfd_fs *q)
{
	return fs_open(path, path, q, NULL, 0);
}

int qfd_fs_open_named(const char *path, const char *name, struct qfd_fs *q)
{
	return fs_open(path, name, q, NULL, 0);
}

int qfd_fs_open_exit(int rc)
{
	return rc == -EACCES || rc == -EPERM ? QFD_EXIT_FAILURE : QFD_EXIT_USAGE;
}

void qfd_fs_close(struct qfd_fs *q)
{
	if (q->fd >= 0)
		close(q->fd);
	free(q->target);
	free(q->source);
	free(q->fstype);
	memset(q, 0, sizeof(*q));
	q->fd = -1;
}

static bool seen(const struct qfd_fs *fss, size_t n, dev_t dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fss[i].dev == dev)
			return true;
	return false;
}

static bool quota_fstype(const char *type)
{
	size_t i;

	for (i = 0; type && i < ARRAY_SIZE(quota_fstypes); i++)
		if (!strcmp(type, quota_fstypes[i]))
			return true;
	return false;
}

int qfd_fs_open_list(char **paths, int npaths, bool all,
		     struct qfd_fs **fss, size_t *nfs, char *msg, size_t len)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_iter *it = NULL;
	struct libmnt_fs *fs;
	struct qfd_fs *v, q;
	char skip[256];
	size_t n = 0;
	int i, rc;

	*fss = NULL;
	*nfs = 0;
	if (all) {
		if (!tb || !(it = mnt_new_iter(MNT_ITER_FORWARD))) {
			open_err(msg, len, "cannot read /proc/self/mountinfo: is /proc mounted?");
			return QFD_EXIT_FAILURE;
		}
		npaths = mnt_table_get_nents(tb);
	}
	v = calloc((size_t)npaths + 1, sizeof(*v));
	if (!v) {
		mnt_free_iter(it);
		open_err(msg, len, "out of memory");
		return QFD_EXIT_FAILURE;
	}

	for (i = 0; i < npaths; i++) {
		if (all) {
			if (mnt_table_next_fs(tb, it, &fs))
				break;
			if (!quota_fstype(mnt_fs_get_fstype(fs)) ||
			    seen(v, n, mnt_fs_get_devno(fs)))
				continue;
			/* a mount we cannot open is not ours to report */
			if (fs_open(mnt_fs_get_target(fs), mnt_fs_get_target(fs), &q,
				    skip, sizeof(skip)))
				continue;
		} else if ((rc = fs_open(paths[i], paths[i], &q, msg, len))) {
			qfd_fs_free_list(v, n);
			return qfd_fs_open_exit(rc);
		}
		if (seen(v, n, q.dev)) {
			qfd_fs_close(&q);
			continue;
		}
		v[n++] = q;
	}
	mnt_free_iter(it);
	*fss = v;
	*nfs = n;
	return 0;
}

void qfd_fs_free_list(struct qfd_fs *fss, size_t nfs)
{
	size_t i;

	for (i = 0; i < nfs; i++)
		qfd_fs_close(&fss[i]);
	free(fss);
}

/* Copies of fs's mount point and type; 0, or -ENOMEM with both NULL. */
static int names_of(struct libmnt_fs *fs, char **target, char **fstype)
{
	const char *type = mnt_fs_get_fstype(fs);

	*target = strdup(mnt_fs_get_target(fs));
	*fstype = strdup(type ? type : "");
	if (*target && *fstype)
		return 0;
	free(*target);
	free(*fstype);
	*target = *fstype = NULL;
	return -ENOMEM;
}

int qfd_mnt_of_dev(dev_t dev, char **target, char **fstype)
{
	/* mounts come and go while a command runs: read mountinfo afresh */
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int rc = -ENOENT;

	*target = *fstype = NULL;
	while (tb && it && rc == -ENOENT && mnt_table_next_fs(tb, it, &fs) == 0)
		if (mnt_fs_get_devno(fs) == dev && mnt_fs_get_target(fs))
			rc = names_of(fs, target, fstype);
	if (!tb || !it)
		rc = -ENOMEM;
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return rc;
}

int qfd_mnt_of_fd(int fd, char **target, char **fstype)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_fs *fs;
	struct stat st;

	*target = *fstype = NULL;
	if (fstat(fd, &st))
		return -errno;
	fs = tb ? find_mount_id(tb, fd, st.st_dev) : NULL;
	if (!fs)
		return qfd_mnt_of_dev(st.st_dev, target, fstype);
	return names_of(fs, target, fstype);
}
