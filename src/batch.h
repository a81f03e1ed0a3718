/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Limit requests for 'qfd set': one per id, from the command line or from a
 * batch file of "WHO BSOFT BHARD ISOFT IHARD" lines.
 *
 * A request is kept small and in one flat array, names in one shared
 * buffer, so that 100,000 ids cost about 120 bytes each and a handful of
 * allocations, not 100,000 of them.
 */
#ifndef QFD_BATCH_H
#define QFD_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The four limits, in the order of the QFD_SET_* bits: limit i is set when
 * bit (1 << i) is, so a request's masks are QFD_SET_* masks.
 */
enum {
	QFD_LIM_SPACE_SOFT,
	QFD_LIM_SPACE_HARD,
	QFD_LIM_FILES_SOFT,
	QFD_LIM_FILES_HARD,
	QFD_NLIMITS
};

/* The two grace timers, in the order of QFD_SET_SPACE_TIMER and _FILES_. */
enum { QFD_TIMER_SPACE, QFD_TIMER_FILES, QFD_NTIMERS };

struct qfd_setreq {
	uint64_t lim[QFD_NLIMITS];	/* wanted: bytes (KiB-rounded), counts */
	uint64_t old[QFD_NLIMITS];	/* what the kernel had */
	int64_t timer[QFD_NTIMERS];	/* wanted grace deadline */
	int64_t old_timer[QFD_NTIMERS];
	uint32_t id;
	uint32_t line;			/* in the batch file; 0: command line */
	uint32_t who;			/* offset of WHO in the list's names */
	uint8_t asked;			/* QFD_SET_* fields to set */
	uint8_t mask;			/* of those, the ones that differ */
	uint8_t up, down;		/* asked as +N, -N: lim[] holds N */
	uint8_t written;		/* setwrite.c: QFD_WRITTEN_* */
};

struct qfd_setlist {
	struct qfd_setreq *v;
	size_t n, alloc;
	char *names;			/* every WHO, NUL-terminated */
	size_t names_len, names_alloc;
	const char *file;		/* batch file name for messages */
};

/* WHO as the user wrote it. */
static inline const char *qfd_setreq_who(const struct qfd_setlist *l,
					 const struct qfd_setreq *r)
{
	return l->names + r->who;
}

/* Append a request for who (already resolved to id); NULL on ENOMEM. */
struct qfd_setreq *qfd_setlist_add(struct qfd_setlist *l, const char *who,
				   uint32_t id, uint32_t line);

/*
 * Read a batch file: parse every line, resolve every WHO and refuse an id
 * named twice.  Each bad line is reported as "FILE:LINE: what is wrong"
 * (the first few of them, then a count).  Returns 0, -EINVAL when any line
 * was bad or no line set anything, or another -errno for a read error
 * (reported).
 */
int qfd_batch_read(struct qfd_setlist *l, FILE *f, const char *name, int type);

/*
 * Refuse an id requested twice on the command line (a name and its number,
 * or one name twice): each is reported in one line.  Returns 0, -EEXIST or
 * -ENOMEM.
 */
int qfd_setlist_check_duplicates(struct qfd_setlist *l, int type);

/* Print "FILE:LINE: " before a message about r, or nothing for argv. */
void qfd_setreq_warn(const struct qfd_setlist *l, const struct qfd_setreq *r,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void qfd_setlist_free(struct qfd_setlist *l);

/* Parse one limit as --bsoft & co. and batch fields do: 0 or -errno. */
int qfd_parse_limit(int lim, const char *s, uint64_t *v);
/* "not a size (examples: ...)" for a failed qfd_parse_limit(). */
const char *qfd_limit_strerror(int lim, int rc);

/*
 * A limit that may be relative: "+5G" (*dir 1), "-1G" (*dir -1) or, as
 * qfd_parse_limit() reads it, absolute (*dir 0).  0 or -errno.
 */
int qfd_parse_limit_rel(int lim, const char *s, uint64_t *v, int *dir);

/*
 * Make r's relative limit lim absolute from what the kernel has (r->old):
 * 0, -ENOENT when there is no limit to count from, -ERANGE when the result
 * would be 0 or less, or too large.  Reported with qfd_setreq_warn().
 */
int qfd_setreq_resolve(const struct qfd_setlist *l, struct qfd_setreq *r,
		       int lim, const char *where);

/* Would new lower old?  0 is no limit, above every other. */
static inline bool qfd_lim_lowers(uint64_t old, uint64_t new)
{
	return new && (!old || new < old);
}

#endif
