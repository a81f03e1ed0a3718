/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The project id and inherit flag of one inode: the generic file
 * attributes (FS_IOC_FSGETXATTR/FS_IOC_FSSETXATTR) that ext4, XFS and
 * f2fs share.  'qfd project' walks trees with them; 'qfd dump
 * --project-dirs' reads them and 'qfd apply' writes them, one directory
 * at a time.  Not quota calls, which is why they are not in quota.c.
 */
#ifndef QFD_FSATTR_H
#define QFD_FSATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fts.h>
#include <sys/stat.h>
#include <linux/fs.h>

/* What one filesystem has shown so far; zeroed for each filesystem. */
struct qfd_fsattr_seen {
	bool took_ids;		/* it keeps project ids */
};

/* The attributes of fd, into fa; 0 or errno. */
int qfd_fsattr_get(struct qfd_fsattr_seen *p, int fd, struct fsxattr *fa);

/* old with project projid, and the inherit flag when inherit. */
void qfd_fsattr_want(const struct fsxattr *old, uint32_t projid, bool inherit,
		     struct fsxattr *want);

/*
 * Give fd's inode want's id and flags, over old (what qfd_fsattr_get()
 * read).  A refusal leaves the inode as it was (see the .c file); path
 * names it in a warning if it cannot be put back.  Returns 0 or errno.
 */
int qfd_fsattr_change(struct qfd_fsattr_seen *p, int fd, const struct fsxattr *old,
		      const struct fsxattr *want, const char *path);

/* Does err say the filesystem keeps no project ids at all? */
bool qfd_fsattr_unsupported(const struct qfd_fsattr_seen *p, int err);

/*
 * "MNT (TYPE) has no project ids: how to get them", for the filesystem
 * that fd is on, into buf.
 */
void qfd_fsattr_nosupport_msg(char *buf, size_t len, int fd);

/* What to do about err from writing a project id, or NULL. */
const char *qfd_fsattr_hint(int err, bool setting);

/*
 * Open the entry fts stands on, relative to the directory fts is in: not
 * through a symbolic link unless follow, never blocking on whatever
 * replaced it, and only if it still is the inode fts saw (st).  Returns
 * the descriptor, -ESTALE when it was replaced, or -errno.
 */
int qfd_fsattr_open_entry(const FTSENT *e, bool follow, struct stat *st);

#endif
