/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The desired state of 'qfd apply' (and what 'qfd dump' writes): which quota
 * types are enforced, grace periods and limits per id, and the project of
 * directories, per filesystem.  The
 * document is JSON, read with yajl and json-c as it comes in (jsonread.h),
 * so 100,000 limits cost their requests, not a tree; qfd-apply(8) has the
 * schema.
 *
 * Parsing resolves every name and checks every value before a single quota
 * is read: a bad item is reported with its place in the document, and the
 * whole document is refused.  No kernel call is made here.
 */
#ifndef QFD_DESIRED_H
#define QFD_DESIRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "batch.h"
#include "qfd.h"

enum qfd_enforce { QFD_ENF_KEEP, QFD_ENF_OFF, QFD_ENF_ON };

struct qfd_want_type {
	bool present;			/* the document names this type */
	enum qfd_enforce enforce;
	bool grace_asked[QFD_NTIMERS];
	uint64_t grace[QFD_NTIMERS];	/* seconds */
	struct qfd_setlist list;	/* limits: lim[], asked (null -> 0) */
};

/* A project directory: the project its inode carries, the inherit flag. */
struct qfd_want_dir {
	char *path;		/* relative to the filesystem's mount point */
	uint32_t projid;	/* 0: none */
	bool inherit;
};

struct qfd_want_fs {
	char *path;
	struct qfd_want_type t[QFD_NTYPES];
	struct qfd_want_dir *dirs;	/* "project-dirs" */
	size_t ndirs;
};

struct qfd_want {
	struct qfd_want_fs *fs;
	size_t nfs, fs_cap;
	const char *file;		/* for messages */
	size_t nbad;
};

/*
 * Read and parse a document from f, in pieces as it comes.  path, when not
 * NULL, replaces the path of the document's only filesystem (apply
 * --path).  Every problem is reported as "FILE: PLACE: what" (or
 * "FILE:LINE:COL: " for bad JSON).  Returns 0, -EINVAL for a bad
 * document, -EIO for a read error, or -ENOMEM.
 */
int qfd_want_read(struct qfd_want *w, FILE *f, const char *file,
		  const char *path);
void qfd_want_free(struct qfd_want *w);

/* "user", "group", "project": the keys of a filesystem's quota types. */
extern const char *const qfd_want_type_key[QFD_NTYPES];
/* "space-soft", ...: the keys of a limit, in QFD_LIM_* order. */
extern const char *const qfd_want_lim_key[QFD_NLIMITS];
/* "space-grace-ends", "files-grace-ends": a running grace time's end. */
extern const char *const qfd_want_timer_key[QFD_NTIMERS];

#endif
