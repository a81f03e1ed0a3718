/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON document read in pieces: yajl tokenizes it, and what it reads is
 * built into json-c values, except the items of arrays the caller asks to
 * have streamed, which are handed over one at a time, as their keys and
 * values without a tree, and then let go.  So a document of 100,000 limits
 * costs one item, not a tree of them.
 *
 * Strict JSON (RFC 8259), and stricter, for documents that set quotas: a
 * key that appears twice in one object (json-c would keep the last one
 * silently), a string or key that holds a NUL character ("\u0000": C
 * strings end there), an empty document and nesting deeper than
 * QFD_JR_MAX_DEPTH are errors, as is anything that follows the document
 * and a string or number longer than QFD_JR_MAX_TOKEN, which would be kept
 * whole, however long, until it ends.
 */
#ifndef QFD_JSONREAD_H
#define QFD_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json.h>

#define QFD_JR_MAX_DEPTH	32
/* The longest string or number (in bytes as written): 64 KiB */
#define QFD_JR_MAX_TOKEN	65536

struct qfd_jr;

/*
 * A value as read, without a tree: what a streamed item is handed as.
 * Numbers follow json-c's rules (an integer is an int64, else a uint64,
 * else a double), so a value means the same here as in the tree.
 */
enum qfd_jr_kind {
	QFD_JR_NULL, QFD_JR_BOOL, QFD_JR_INT, QFD_JR_UINT, QFD_JR_DOUBLE,
	QFD_JR_STRING, QFD_JR_OBJECT, QFD_JR_ARRAY,
};

struct qfd_jr_val {
	enum qfd_jr_kind kind;
	bool b;			/* BOOL */
	int64_t i;		/* INT */
	uint64_t u;		/* UINT (above INT64_MAX), and INT when >= 0 */
	double d;		/* DOUBLE */
	const char *s;		/* STRING: NUL-terminated, holds no NUL */
	size_t len;		/* STRING */
};

/* One key of an item that is an object, in the order given. */
struct qfd_jr_field {
	const char *key;
	size_t klen;		/* strlen(key) */
	struct qfd_jr_val v;	/* an OBJECT or ARRAY is only its kind */
};

/*
 * An item of a streamed array.  An object is its keys (f, n), each value
 * a scalar or only the kind of a container; anything else is v alone.
 * Valid until item() returns.
 */
struct qfd_jr_item {
	struct qfd_jr_val v;
	const struct qfd_jr_field *f;
	size_t n;
};

struct qfd_jr_ops {
	/*
	 * An array starts, as the deepest level (qfd_jr_depth() - 1):
	 * true streams its items to item() instead of keeping them (the
	 * array is still in the tree, empty).
	 */
	bool (*stream)(void *ctx, const struct qfd_jr *jr);
	/*
	 * One item of a streamed array, complete; qfd_jr_place() names it.
	 * Nonzero (-errno) stops the reading.
	 */
	int (*item)(void *ctx, const struct qfd_jr *jr,
		    const struct qfd_jr_item *it);
};

/* What a json-c value is, as a streamed item's values are given. */
void qfd_jr_val_of(json_object *o, struct qfd_jr_val *v);

struct qfd_jr *qfd_jr_new(const struct qfd_jr_ops *ops, void *ctx);
void qfd_jr_free(struct qfd_jr *jr);

/*
 * Feed the next len bytes, then call qfd_jr_finish() at the end of the
 * input.  Both return 0; -EINVAL for a document that is not valid (see
 * qfd_jr_error()); -ENOMEM; or what item() returned.  finish() hands over
 * the tree, which the caller puts.
 */
int qfd_jr_feed(struct qfd_jr *jr, const char *buf, size_t len);
int qfd_jr_finish(struct qfd_jr *jr, json_object **doc);

/*
 * After -EINVAL: what is wrong ("PLACE: what" when it is inside a value),
 * and where: line and column, from 1, of the token at fault or just past
 * it (yajl gives where it stopped, which for a token cut between two
 * pieces may be the start of the second).
 */
const char *qfd_jr_error(const struct qfd_jr *jr, size_t *line, size_t *col);

/*
 * Where the reader is: the levels of containers open, each a key (of an
 * object: qfd_jr_key() is not NULL) or an index (of an array).
 */
size_t qfd_jr_depth(const struct qfd_jr *jr);
const char *qfd_jr_key(const struct qfd_jr *jr, size_t level);
size_t qfd_jr_index(const struct qfd_jr *jr, size_t level);
/* The item being handed to item(), as "filesystems[0].user.limits[3]". */
void qfd_jr_place(const struct qfd_jr *jr, char *buf, size_t len);

#endif
