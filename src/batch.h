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

/* "#4294967295" and its NUL */
#define QFD_ID_NAME_LEN	12

/* "#ID" into buf (QFD_ID_NAME_LEN bytes): cheaper than snprintf, per id. */
void qfd_setreq_id_name(uint32_t id, char *buf);

/*
 * One request, unpacked: what the plan, the write phase and the messages
 * work on.  The list keeps it packed (qfd_setlist_get(), _put()).
 */
struct qfd_setreq {
	uint64_t lim[QFD_NLIMITS];	/* wanted: bytes (KiB-rounded), counts */
	uint64_t old[QFD_NLIMITS];	/* what the kernel had */
	int64_t timer[QFD_NTIMERS];	/* wanted grace deadline */
	int64_t old_timer[QFD_NTIMERS];
	uint32_t id;
	uint32_t line;			/* in the batch file; 0: command line */
	uint32_t who;			/* offset of WHO in the list's names, or QFD_WHO_ID */
	uint8_t asked;			/* QFD_SET_* fields to set */
	uint8_t mask;			/* of those, the ones that differ */
	uint8_t up, down;		/* asked as +N, -N: lim[] holds N */
	uint8_t written;		/* setwrite.c: QFD_WRITTEN_* */
	char idwho[QFD_ID_NAME_LEN];	/* "#ID", for QFD_WHO_ID */
};

/* r->who: WHO was written "#ID", which the id gives back: no name kept */
#define QFD_WHO_ID	UINT32_MAX

/*
 * The values of a request (struct qfd_setreq but for id, line, who and
 * written), kept once for all the requests that have the same: a list of
 * 100,000 ids usually asks a handful of different limits and finds a
 * handful in the kernel, so a request is an id and an index, 8 bytes,
 * where it was 112 and its "#ID" name (issue 31).
 */
struct qfd_setvals {
	uint64_t lim[QFD_NLIMITS];
	uint64_t old[QFD_NLIMITS];
	int64_t timer[QFD_NTIMERS];
	int64_t old_timer[QFD_NTIMERS];
	uint8_t asked, mask, up, down;
	uint8_t pad[4];			/* zero: values are compared as bytes */
};

/* A packed request. */
struct qfd_setitem {
	uint32_t id;
	uint32_t vals;			/* index into l->vals; QFD_ITEM_WRITTEN */
};

#define QFD_ITEM_WRITTEN	0x80000000u
#define QFD_VALS_MAX		(QFD_ITEM_WRITTEN - 1)

struct qfd_setlist {
	struct qfd_setitem *v;
	size_t n, alloc;
	uint32_t *who;			/* per request, or NULL while every WHO is "#ID" */
	uint32_t *line;			/* per request, or NULL while none has a line */
	char *names;			/* every other WHO, NUL-terminated */
	size_t names_len, names_alloc;
	struct qfd_setvals *vals;	/* the distinct values */
	uint32_t *refs;			/* per values: the requests that have them */
	uint32_t *hashes;		/* per values: their hash, kept for the table */
	size_t nvals, vals_alloc;
	uint32_t *hash;			/* open addressing: vals index + 1; 0 free */
	size_t hash_cap;
	const char *file;		/* batch file name for messages */
};

/* WHO as the user wrote it. */
static inline const char *qfd_setreq_who(const struct qfd_setlist *l,
					 const struct qfd_setreq *r)
{
	return r->who == QFD_WHO_ID ? r->idwho : l->names + r->who;
}

/*
 * Append r (id, line, wanted values; the rest zero) for who, already
 * resolved to r->id (NULL: the id's own "#ID"): 0, or -ENOMEM.
 */
int qfd_setlist_add(struct qfd_setlist *l, const char *who,
		    const struct qfd_setreq *r);
/* Request n, unpacked into r. */
void qfd_setlist_get(const struct qfd_setlist *l, size_t n, struct qfd_setreq *r);
/* Keep r's values and written as request n's (same id): 0, or -ENOMEM. */
int qfd_setlist_put(struct qfd_setlist *l, size_t n, const struct qfd_setreq *r);

/* Request n's mask, and whether it holds its new values, without unpacking. */
static inline unsigned int qfd_setlist_mask(const struct qfd_setlist *l, size_t n)
{
	return l->vals[l->v[n].vals & ~QFD_ITEM_WRITTEN].mask;
}

static inline bool qfd_setlist_written(const struct qfd_setlist *l, size_t n)
{
	return l->v[n].vals & QFD_ITEM_WRITTEN;
}

static inline void qfd_setlist_set_written(struct qfd_setlist *l, size_t n,
					   bool written)
{
	if (written)
		l->v[n].vals |= QFD_ITEM_WRITTEN;
	else
		l->v[n].vals &= ~QFD_ITEM_WRITTEN;
}

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
