/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Filesystems as qfd sees them: any path resolved through libmount to its
 * mount, opened once with O_PATH.  Every quota call for the filesystem goes
 * through that one descriptor.
 */
#ifndef QFD_MNT_H
#define QFD_MNT_H

#include <stdbool.h>
#include <sys/types.h>

struct qfd_fs {
	char *target;		/* mount point: what errors name */
	char *source;		/* device, "ubi0:vol", "tmpfs", ... */
	char *fstype;
	dev_t dev;
	int fd;			/* O_PATH descriptor for quotactl_fd */
	bool readonly;
	bool use_quotactl;	/* kernel lacks quotactl_fd: use source */
};

/*
 * Open the filesystem that holds path.  Returns 0, or prints one line naming
 * path and returns -errno.
 */
int qfd_fs_open(const char *path, struct qfd_fs *fs);
/* The same, with messages naming name ("doc.json: filesystems[1].path: ..."). */
int qfd_fs_open_named(const char *path, const char *name, struct qfd_fs *fs);
/*
 * The exit status for a failed qfd_fs_open(): 1 when the system refused
 * (permission denied on the path), 2 for a path that is wrong.
 */
int qfd_fs_open_exit(int rc);
void qfd_fs_close(struct qfd_fs *fs);

/*
 * Open the filesystems a command names: the paths given, or with all every
 * mounted filesystem of a type that can keep quotas, one per superblock.
 * Returns 0, or an exit code after one line: on stderr when len is 0,
 * else into msg (len bytes) for the caller to print.
 */
int qfd_fs_open_list(char **paths, int npaths, bool all,
		     struct qfd_fs **fss, size_t *nfs, char *msg, size_t len);
void qfd_fs_free_list(struct qfd_fs *fss, size_t nfs);

/*
 * The mount point and type of the first mount of device dev (UBIFS and
 * tmpfs have anonymous ones, 0:N), for events that name only the device.
 * Returns 0, -ENOENT when nothing is mounted from dev, or -ENOMEM.
 */
int qfd_mnt_of_dev(dev_t dev, char **target, char **fstype);

/*
 * The same for the mount the open descriptor fd was reached through (by
 * its mount id where the kernel gives one, else by its device), for errors
 * found deep in a tree that must name the filesystem.
 */
int qfd_mnt_of_fd(int fd, char **target, char **fstype);

#endif
