// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Quota rows: the one description of an id's usage and limits as columns,
 * used by both 'get' and 'report' so the two never disagree.
 */
#include <libsmartcols.h>

#include "mnt.h"
#include "qfd.h"
#include "rows.h"

#define R	SCOLS_FL_RIGHT
/* on a terminal too narrow for the table, names and paths are cut */
#define T	SCOLS_FL_TRUNC

const struct qfd_col qfd_quota_cols[QCOL_NCOLS] = {
	[QCOL_TARGET] = { "TARGET", T, QFD_K_STR, QFD_DFLT_MACHINE,
			  "mount point of the filesystem" },
	[QCOL_FSTYPE] = { "FSTYPE", 0, QFD_K_STR, QFD_DFLT_MACHINE,
			  "filesystem type" },
	[QCOL_TYPE] = { "TYPE", 0, QFD_K_STR, QFD_DFLT_MACHINE,
			"quota type: user, group or project" },
	[QCOL_NAME] = { "NAME", T, QFD_K_STR, QFD_DFLT_ALL,
			"user, group or project name (empty when the id has none)" },
	[QCOL_ID] = { "ID", R, QFD_K_COUNT, QFD_DFLT_ALL,
		      "numeric user, group or project id" },
	[QCOL_STATUS] = { "STATUS", 0, QFD_K_STR, QFD_DFLT_ALL,
			  "ok, grace (over a soft limit), expired (grace over), hard (at a hard limit)" },
	[QCOL_SPACE] = { "SPACE", R, QFD_K_SIZE, QFD_DFLT_ALL,
			 "space used" },
	[QCOL_SPACE_SOFT] = { "SPACE-SOFT", R, QFD_K_SIZE, QFD_DFLT_ALL,
			      "space soft limit (0: none)" },
	[QCOL_SPACE_HARD] = { "SPACE-HARD", R, QFD_K_SIZE, QFD_DFLT_ALL,
			      "space hard limit (0: none)" },
	[QCOL_SPACE_GRACE] = { "SPACE-GRACE", R, QFD_K_DURATION, QFD_DFLT_ALL,
			       "time left to go below the space soft limit" },
	[QCOL_SPACE_USE] = { "SPACE-USE%", R, QFD_K_PERCENT, QFD_DFLT_NO,
			     "space used, in percent of the hard (else soft) limit" },
	[QCOL_FILES] = { "FILES", R, QFD_K_COUNT, QFD_DFLT_ALL,
			 "files (inodes) used" },
	[QCOL_FILES_SOFT] = { "FILES-SOFT", R, QFD_K_COUNT, QFD_DFLT_ALL,
			      "files soft limit (0: none)" },
	[QCOL_FILES_HARD] = { "FILES-HARD", R, QFD_K_COUNT, QFD_DFLT_ALL,
			      "files hard limit (0: none)" },
	[QCOL_FILES_GRACE] = { "FILES-GRACE", R, QFD_K_DURATION, QFD_DFLT_ALL,
			       "time left to go below the files soft limit" },
	[QCOL_FILES_USE] = { "FILES-USE%", R, QFD_K_PERCENT, QFD_DFLT_NO,
			     "files used, in percent of the hard (else soft) limit" },
};

enum qfd_status qfd_limit_status(uint64_t used, uint64_t soft, uint64_t hard,
				 int64_t timer, time_t now)
{
	/* the kernel refuses an allocation that would pass the hard limit */
	if (hard && used >= hard)
		return QFD_ST_HARD;
	if (soft && used > soft)
		return timer && timer <= now ? QFD_ST_EXPIRED : QFD_ST_GRACE;
	return QFD_ST_OK;
}

enum qfd_status qfd_dq_status(const struct qfd_dq *dq, time_t now)
{
	enum qfd_status s = qfd_limit_status(dq->space, dq->space_soft,
					     dq->space_hard, dq->space_timer, now);
	enum qfd_status f = qfd_limit_status(dq->files, dq->files_soft,
					     dq->files_hard, dq->files_timer, now);

	return s > f ? s : f;
}

const char *qfd_status_name(enum qfd_status st)
{
	static const char *const names[] = {
		[QFD_ST_OK] = "ok",
		[QFD_ST_GRACE] = "grace",
		[QFD_ST_EXPIRED] = "expired",
		[QFD_ST_HARD] = "hard",
	};

	return names[st];
}

bool qfd_dq_empty(const struct qfd_dq *dq)
{
	return !dq->space && !dq->space_soft && !dq->space_hard &&
	       !dq->files && !dq->files_soft && !dq->files_hard;
}

static void set_u(struct qfd_val *v, uint64_t u)
{
	v->set = true;
	v->u = u;
}

static void set_s(struct qfd_val *v, const char *s)
{
	v->set = true;
	v->s = s;
}

/* Grace left, shown only while a soft limit is exceeded. */
static void grace(struct qfd_val *v, uint64_t used, uint64_t soft,
		  int64_t timer, time_t now)
{
	if (soft && used > soft && timer)
		set_u(v, timer > now ? (uint64_t)(timer - now) : 0);
}

static void percent(struct qfd_val *v, uint64_t used, uint64_t soft,
		    uint64_t hard)
{
	uint64_t lim = hard ? hard : soft;

	if (lim)
		set_u(v, (uint64_t)((unsigned __int128)used * 100 / lim));
}

void qfd_dq_row(struct qfd_val *vals, const struct qfd_fs *fs, int type,
		const struct qfd_dq *dq, const char *name, time_t now)
{
	size_t i;

	for (i = 0; i < QCOL_NCOLS; i++)
		vals[i].set = false;
	set_s(&vals[QCOL_TARGET], fs->target);
	set_s(&vals[QCOL_FSTYPE], fs->fstype);
	set_s(&vals[QCOL_TYPE], qfd_type_name(type));
	if (name)
		set_s(&vals[QCOL_NAME], name);
	set_u(&vals[QCOL_ID], dq->id);
	set_s(&vals[QCOL_STATUS], qfd_status_name(qfd_dq_status(dq, now)));
	set_u(&vals[QCOL_SPACE], dq->space);
	set_u(&vals[QCOL_SPACE_SOFT], dq->space_soft);
	set_u(&vals[QCOL_SPACE_HARD], dq->space_hard);
	grace(&vals[QCOL_SPACE_GRACE], dq->space, dq->space_soft,
	      dq->space_timer, now);
	percent(&vals[QCOL_SPACE_USE], dq->space, dq->space_soft,
		dq->space_hard);
	set_u(&vals[QCOL_FILES], dq->files);
	set_u(&vals[QCOL_FILES_SOFT], dq->files_soft);
	set_u(&vals[QCOL_FILES_HARD], dq->files_hard);
	grace(&vals[QCOL_FILES_GRACE], dq->files, dq->files_soft,
	      dq->files_timer, now);
	percent(&vals[QCOL_FILES_USE], dq->files, dq->files_soft,
		dq->files_hard);
}
