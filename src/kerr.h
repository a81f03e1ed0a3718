/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one line each kernel error becomes (kerr.c), for the commands and
 * for the write phases that put changes back (setwrite.c, applywrite.c).
 */
#ifndef QFD_KERR_H
#define QFD_KERR_H

#include <stdbool.h>
#include <stddef.h>

struct qfd_fs;

/*
 * With -a, a mount whose quotas answer rc is not the command's to report
 * (true), --debug saying why: it never had quotas (ESRCH, ENOSYS), or the
 * quotactl(2) fallback of a kernel without quotactl_fd cannot reach it
 * (ENOTBLK: tmpfs, a container's /dev).  A path named keeps the error.
 */
bool qfd_all_skips(const struct qfd_fs *fs, int rc);

/*
 * Report a failed quota call in one line: the mount point, the quota type,
 * what went wrong and what to do.  op is what was attempted ("read",
 * "set limits for", "turn on").
 */
void qfd_kerr(const struct qfd_fs *fs, int type, int rc, const char *op);
/* The same line into buf, without "qfd: ", for a command that prints it. */
void qfd_kerr_fmt(char *buf, size_t len, const struct qfd_fs *fs, int type,
		  int rc, const char *op);

#endif
