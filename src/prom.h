/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Quotas as Prometheus metrics, in the text exposition format, for
 * 'qfd report --prometheus' and node_exporter's textfile collector.
 *
 * The format wants every sample of a metric family in one block under its
 * # HELP and # TYPE lines, while the kernel hands out one id at a time with
 * all its values.  Each id's values and labels are therefore kept as they
 * come (about 100 bytes an id), and qfd_prom_write() writes one family
 * after the other from them: one walk over the kernel's entries, and
 * nothing written before the last filesystem was walked.
 */
#ifndef QFD_PROM_H
#define QFD_PROM_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "quota.h"

struct qfd_fs;
struct qfd_prom;

/* NULL, after one line saying why, when the temporary files fail. */
struct qfd_prom *qfd_prom_new(void);
void qfd_prom_free(struct qfd_prom *p);

/* The samples of one id; name may be NULL.  Returns 0 or -errno. */
int qfd_prom_dq(struct qfd_prom *p, const struct qfd_fs *fs, int type,
		const struct qfd_dq *dq, const char *name, time_t now);
/* qfd_quota_scrape_error of fs and type: 1 when failed. */
int qfd_prom_scrape(struct qfd_prom *p, const struct qfd_fs *fs, int type,
		    bool failed);

/* Every family, in order, to f.  Returns 0 or -errno. */
int qfd_prom_write(struct qfd_prom *p, FILE *f);
/*
 * 0 when --textfile may replace path: nothing is there, or a regular file.
 * Otherwise -EEXIST after one line naming what is there.
 */
int qfd_prom_textfile_check(const char *path);
/*
 * The same into path, atomically: a temporary file in path's directory,
 * flushed to disk, then renamed over path if qfd_prom_textfile_check()
 * still allows it.  On any error the temporary file is removed, path is
 * left as it was, and one line says what failed.  Returns 0 or -errno.
 */
int qfd_prom_textfile(struct qfd_prom *p, const char *path);

#endif
