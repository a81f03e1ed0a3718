/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One id's quota as a table row: the columns 'get' and 'report' share, and
 * the status of an id against its limits.
 */
#ifndef QFD_ROWS_H
#define QFD_ROWS_H

#include <stdbool.h>
#include <time.h>

#include "output.h"
#include "quota.h"

struct qfd_fs;

enum {
	QCOL_TARGET,
	QCOL_FSTYPE,
	QCOL_TYPE,
	QCOL_NAME,
	QCOL_ID,
	QCOL_STATUS,
	QCOL_SPACE,
	QCOL_SPACE_SOFT,
	QCOL_SPACE_HARD,
	QCOL_SPACE_GRACE,
	QCOL_SPACE_USE,
	QCOL_FILES,
	QCOL_FILES_SOFT,
	QCOL_FILES_HARD,
	QCOL_FILES_GRACE,
	QCOL_FILES_USE,
	QCOL_NCOLS
};

extern const struct qfd_col qfd_quota_cols[QCOL_NCOLS];

enum qfd_status {
	QFD_ST_OK,		/* within limits */
	QFD_ST_GRACE,		/* over a soft limit, grace running */
	QFD_ST_EXPIRED,		/* over a soft limit, grace over */
	QFD_ST_HARD,		/* at a hard limit: writes fail */
};

/* One resource (space or files) against its limits. */
enum qfd_status qfd_limit_status(uint64_t used, uint64_t soft, uint64_t hard,
				 int64_t timer, time_t now);
/* The worse of space and files. */
enum qfd_status qfd_dq_status(const struct qfd_dq *dq, time_t now);
const char *qfd_status_name(enum qfd_status st);
/* No usage and no limits: an entry the kernel keeps but nobody uses. */
bool qfd_dq_empty(const struct qfd_dq *dq);

/* Fill vals (QCOL_NCOLS entries); name may be NULL. */
void qfd_dq_row(struct qfd_val *vals, const struct qfd_fs *fs, int type,
		const struct qfd_dq *dq, const char *name, time_t now);

#endif
