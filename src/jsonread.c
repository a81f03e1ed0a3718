// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON in pieces: yajl's events built into json-c values (jsonread.h).
 *
 * Why yajl and not json-c's own tokener: json_tokener_parse_ex() can be
 * fed in pieces, but it hands back nothing until the outermost value is
 * complete, and nothing of the tree can be freed before that, so a
 * document of 100,000 limits was one tree of 100,000 objects, about
 * 1.5 KiB each, before the first item could be checked: apply --check of
 * such a document (10.9 MB) peaked at 151 MiB RSS.  yajl (libyajl-dev
 * 2.1.0 in Debian 12) only tokenizes and calls back per token, keeping
 * nothing but its nesting state and a partial token; here the small parts
 * of a document are still built as json-c trees, and the items of the
 * arrays the caller streams are handed over one at a time, as keys and
 * values (struct qfd_jr_item) without a tree of their own.  The same document now
 * peaks at 16.4 MiB, of which 13 are the plan's requests (112 bytes an id,
 * as set --batch keeps them); the reader itself stays at 3.1 MiB for
 * 1,000 or 1,000,000 items (bench/apply-rss.sh, bench/README).
 *
 * Strict RFC 8259: yajl's defaults already refuse comments (allow_comments
 * stays off, as do allow_trailing_garbage, allow_multiple_values and
 * allow_partial_values), trailing commas, single quotes, TRUE, NaN, 010
 * and raw control characters in strings.  Two holes are closed here: yajl
 * takes a form feed or vertical tab as a blank, and lets an unfinished
 * token after the document pass ('{} "abc').  Only dont_validate_strings
 * is set, because names are bytes as passwd has them and a dump must read
 * back.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "jsonread.h"

/*
 * Where a key of an open object is, to name it when it comes again: its
 * line, or while the piece it is in is being read, its offset there
 * (qfd_jr's lines_to).  Counting lines up to every key was a tenth of
 * the callbacks' instructions; most keys are let go unasked, with the
 * item they are in.
 */
struct jr_keypos {
	size_t at;
};

struct jr_level {
	json_object *obj;	/* the container being built */
	char *key;		/* object: the key whose value is being read */
	size_t idx;		/* array: the index of the item being read */
	size_t key0;		/* object: its keys' places start at keys[key0] */
	bool is_array;
	bool streamed;		/* items go to ops->item, not into obj */
	bool is_item;		/* an item of a streamed array: owned here */
	bool flat;		/* an object item read into jr->flat, no tree */
	bool pending;		/* flat: its last key waits for its value */
};

/* Where a key and its string value of the flat item are in flat.buf. */
struct jr_ffield {
	size_t key, klen;
	size_t str;		/* STRING: where its bytes are */
};

/*
 * An object item read as it comes, without a json-c tree: building one
 * (an object, its hash table, a copy of every key, a value each, then
 * freeing them all) was a third of reading a document of limits, for
 * items whose values are all scalars.  The buffers are kept from item to
 * item.  A container inside the item turns it into a tree (unflatten()).
 */
/*
 * Past this many keys a flat item becomes a tree: flat_key() compares a
 * key with every one before it, which a hostile item of a million keys
 * must not make quadratic.  A limits item has seven at most.
 */
#define FLAT_KEYS	32

struct jr_flat {
	char *buf;		/* the keys and strings, each NUL-terminated */
	size_t len, cap;
	struct jr_ffield *f;
	size_t n, fcap;
	uint64_t seen;		/* a bit for each key's key_bit() */
	/*
	 * What item() is handed, filled in as the item is read (the key
	 * and string pointers into buf set again when it moves): copying
	 * it all at the end was a tenth of the callbacks.  At least fcap.
	 */
	struct qfd_jr_field *out;
	size_t ocap;
};

struct qfd_jr {
	yajl_handle h;
	const struct qfd_jr_ops *ops;
	void *ctx;
	json_object *doc;
	struct jr_level lv[QFD_JR_MAX_DEPTH];
	size_t depth;
	size_t place_n;		/* levels that name the item being handed over */
	int rc;			/* sticky: why the reading stopped */
	bool begun;		/* something other than blanks was fed */
	bool in_str, esc;	/* prescan(): in a string, after a backslash */
	bool escapes;		/* a backslash was fed: "\u0000" may be */
	size_t tok;		/* prescan(): bytes of the current token */
	bool done;		/* the document's value is complete */
	size_t done_at;		/* where in the piece it was completed */
	char err[512];
	/* the piece being fed, and how much of it line and col count */
	const char *piece;
	size_t counted;
	size_t line, col;	/* of piece[counted] */
	size_t piece_line;	/* of piece[0] */
	/* a stack of the open objects' keys, in order (a level's key0) */
	struct jr_keypos *keys;
	size_t nkeys, keys_cap;
	size_t lines_to;	/* keys[] before it hold lines, then offsets */
	struct jr_flat flat;
};

/* Line and column after s[0..len), as an editor counts them. */
static void advance(struct qfd_jr *jr, const char *s, size_t len)
{
	const char *nl, *end = s + len;

	while ((nl = memchr(s, '\n', (size_t)(end - s)))) {
		jr->line++;
		jr->col = 1;
		s = nl + 1;
	}
	jr->col += (size_t)(end - s);
}

/* The newlines of s[0..len). */
static size_t newlines(const char *s, size_t len)
{
	const char *nl, *end = s + len;
	size_t n = 0;

	while ((nl = memchr(s, '\n', (size_t)(end - s)))) {
		n++;
		s = nl + 1;
	}
	return n;
}

/* The line of keys[i]. */
static size_t key_line(const struct qfd_jr *jr, size_t i)
{
	if (i < jr->lines_to)
		return jr->keys[i].at;
	return jr->piece_line + newlines(jr->piece, jr->keys[i].at);
}

/*
 * The piece is read: the keys noted in it and still open get their lines,
 * counted on from where the count is (they are in order).
 */
static void keys_to_lines(struct qfd_jr *jr)
{
	size_t i, at;

	for (i = jr->lines_to; i < jr->nkeys; i++) {
		at = jr->keys[i].at;
		if (at < jr->counted) {
			jr->keys[i].at = key_line(jr, i);
			continue;
		}
		advance(jr, jr->piece + jr->counted, at - jr->counted);
		jr->counted = at;
		jr->keys[i].at = jr->line;
	}
	jr->lines_to = jr->nkeys;
}

/* Count up to where yajl is: the end of the token it calls back for. */
static void sync_place(struct qfd_jr *jr)
{
	size_t n;

	if (!jr->piece)
		return;
	n = yajl_get_bytes_consumed(jr->h);
	if (n > jr->counted) {
		advance(jr, jr->piece + jr->counted, n - jr->counted);
		jr->counted = n;
	}
}

/* The key whose value level l is reading, or NULL. */
static const char *level_key(const struct qfd_jr *jr, const struct jr_level *l)
{
	if (l->flat)
		return l->pending ? jr->flat.buf + jr->flat.f[jr->flat.n - 1].key : NULL;
	return l->is_array ? NULL : l->key;
}

/* "filesystems[0].user.limits[3]": the first n levels, with their keys. */
static void place_of(const struct qfd_jr *jr, size_t levels, char *buf,
		     size_t len)
{
	size_t i, n = 0;
	int w;

	buf[0] = '\0';
	for (i = 0; i < levels && n < len; i++) {
		const struct jr_level *l = &jr->lv[i];
		const char *key = level_key(jr, l);

		if (l->is_array)
			w = snprintf(buf + n, len - n, "[%zu]", l->idx);
		else if (key)
			w = snprintf(buf + n, len - n, "%s%s", n ? "." : "", key);
		else
			w = 0;
		n += w > 0 ? (size_t)w : 0;
	}
}

/*
 * A document error found in a callback: "PLACE: what" (or just what at the
 * top), where PLACE is the value being read.  Returns 0 for yajl to stop.
 */
static int fail(struct qfd_jr *jr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct qfd_jr *jr, const char *fmt, ...)
{
	char place[256];
	va_list ap;
	int n;

	sync_place(jr);
	place_of(jr, jr->depth, place, sizeof(place));
	n = snprintf(jr->err, sizeof(jr->err), "%s%s", place, *place ? ": " : "");
	if (n < 0 || (size_t)n >= sizeof(jr->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(jr->err + n, sizeof(jr->err) - (size_t)n, fmt, ap);
	va_end(ap);
	jr->rc = -EINVAL;
	return 0;
}

static int nomem(struct qfd_jr *jr)
{
	jr->rc = -ENOMEM;
	return 0;
}

void qfd_jr_val_of(json_object *o, struct qfd_jr_val *v)
{
	int64_t i;

	memset(v, 0, sizeof(*v));
	switch (json_object_get_type(o)) {
	case json_type_null:
		v->kind = QFD_JR_NULL;
		break;
	case json_type_boolean:
		v->kind = QFD_JR_BOOL;
		v->b = json_object_get_boolean(o);
		break;
	case json_type_int:
		/* json-c's int64 stops at INT64_MAX; above it, its uint64 */
		i = json_object_get_int64(o);
		v->kind = i < 0 || json_object_get_uint64(o) <= INT64_MAX ?
			  QFD_JR_INT : QFD_JR_UINT;
		v->i = i;
		v->u = i < 0 ? 0 : json_object_get_uint64(o);
		break;
	case json_type_double:
		v->kind = QFD_JR_DOUBLE;
		v->d = json_object_get_double(o);
		break;
	case json_type_string:
		v->kind = QFD_JR_STRING;
		v->s = json_object_get_string(o);
		v->len = (size_t)json_object_get_string_len(o);
		break;
	case json_type_object:
		v->kind = QFD_JR_OBJECT;
		break;
	case json_type_array:
		v->kind = QFD_JR_ARRAY;
		break;
	}
}

/* Room for n fields to hand over. */
static int out_room(struct jr_flat *fl, size_t n)
{
	struct qfd_jr_field *f;

	if (n <= fl->ocap)
		return 0;
	f = reallocarray(fl->out, n, sizeof(*f));
	if (!f)
		return -ENOMEM;
	fl->out = f;
	fl->ocap = n;
	return 0;
}

static int call_item(struct qfd_jr *jr, const struct qfd_jr_item *it,
		     size_t place_n)
{
	int rc;

	jr->place_n = place_n;
	rc = jr->ops->item(jr->ctx, jr, it);
	if (rc) {
		jr->rc = rc;
		return 0;
	}
	return 1;
}

/* Hand a whole item of a streamed array, built as a tree, over; let it go. */
static int hand(struct qfd_jr *jr, json_object *o, size_t place_n)
{
	struct qfd_jr_item it = { .f = jr->flat.out };
	int rc;

	qfd_jr_val_of(o, &it.v);
	if (it.v.kind == QFD_JR_OBJECT) {
		if (out_room(&jr->flat, (size_t)json_object_object_length(o))) {
			json_object_put(o);
			return nomem(jr);
		}
		it.f = jr->flat.out;
		json_object_object_foreach(o, key, val) {
			jr->flat.out[it.n].key = key;
			jr->flat.out[it.n].klen = strlen(key);
			qfd_jr_val_of(val, &jr->flat.out[it.n++].v);
		}
	}
	rc = call_item(jr, &it, place_n);
	json_object_put(o);
	return rc;
}

/* Hand the flat item at the deepest level over. */
static int hand_flat(struct qfd_jr *jr, size_t place_n)
{
	struct jr_flat *fl = &jr->flat;
	struct qfd_jr_item it = { .v.kind = QFD_JR_OBJECT, .f = fl->out,
				  .n = fl->n };

	return call_item(jr, &it, place_n);
}

/* The value at the deepest level is complete: on to the next one. */
static void next(struct qfd_jr *jr)
{
	struct jr_level *l;

	if (!jr->depth)
		return;
	l = &jr->lv[jr->depth - 1];
	if (l->is_array) {
		l->idx++;
	} else {
		free(l->key);
		l->key = NULL;
	}
}

/*
 * The document's value is whole.  yajl says "trailing garbage" only for a
 * whole token after it: '{} "abc' would pass, so feed() checks the rest.
 */
static void complete(struct qfd_jr *jr)
{
	jr->done = true;
	jr->done_at = jr->piece ? yajl_get_bytes_consumed(jr->h) : 0;
}

/*
 * Put v (NULL is JSON's null) where the deepest level reads a value; v is
 * given away even on failure.  A container goes in when it starts, so the
 * levels under it fill it in place: the tree owns it, the level borrows it.
 */
static int attach(struct qfd_jr *jr, json_object *v, bool container)
{
	struct jr_level *l;

	if (!jr->depth) {
		jr->doc = v;
		if (!container)
			complete(jr);
		return 1;
	}
	l = &jr->lv[jr->depth - 1];
	if (l->streamed) {
		if (container)
			return 1;	/* owned by its level until it is whole */
		if (!hand(jr, v, jr->depth))
			return 0;
	} else if (l->is_array ? json_object_array_add(l->obj, v) :
		   json_object_object_add(l->obj, l->key, v)) {
		json_object_put(v);
		return nomem(jr);
	}
	if (!container)
		next(jr);
	return 1;
}

/* Room for n more bytes in the flat item's buffer, which is short of it. */
static int flat_grow(struct jr_flat *fl, size_t n)
{
	size_t cap = fl->cap ? fl->cap : 256, i;
	char *b;

	while (cap < fl->len + n)
		cap *= 2;
	b = realloc(fl->buf, cap);
	if (!b)
		return -ENOMEM;
	fl->buf = b;
	fl->cap = cap;
	for (i = 0; i < fl->n; i++) {
		fl->out[i].key = b + fl->f[i].key;
		if (fl->out[i].v.kind == QFD_JR_STRING)
			fl->out[i].v.s = b + fl->f[i].str;
	}
	return 0;
}

/*
 * s[0..len) and a NUL into the flat item's buffer: its offset, in *off.
 * Inline, as it is called for every key and string of an item.
 */
static inline int flat_copy(struct jr_flat *fl, const char *s, size_t len,
			    size_t *off)
{
	if (fl->len + len + 1 > fl->cap && flat_grow(fl, len + 1))
		return -ENOMEM;
	*off = fl->len;
	memcpy(fl->buf + fl->len, s, len);
	fl->buf[fl->len + len] = '\0';
	fl->len += len + 1;
	return 0;
}

/* The value of the flat item's last key, a scalar. */
static int flat_value(struct qfd_jr *jr, const struct qfd_jr_val *v)
{
	struct jr_flat *fl = &jr->flat;
	struct jr_ffield *f = &fl->f[fl->n - 1];
	struct qfd_jr_field *o = &fl->out[fl->n - 1];

	if (v->kind == QFD_JR_STRING && flat_copy(fl, v->s, v->len, &f->str))
		return nomem(jr);
	o->v = *v;
	if (v->kind == QFD_JR_STRING)
		o->v.s = fl->buf + f->str;
	jr->lv[jr->depth - 1].pending = false;
	return 1;
}

/* v as a json-c value (NULL for null and when out of memory). */
static json_object *json_of(const struct qfd_jr_val *v)
{
	switch (v->kind) {
	case QFD_JR_BOOL:
		return json_object_new_boolean(v->b);
	case QFD_JR_INT:
		return json_object_new_int64(v->i);
	case QFD_JR_UINT:
		return json_object_new_uint64(v->u);
	case QFD_JR_DOUBLE:
		return json_object_new_double(v->d);
	case QFD_JR_STRING:
		return json_object_new_string_len(v->s, (int)v->len);
	default:
		return NULL;
	}
}

/* A scalar is read: into the flat item, or into the tree. */
static inline int value(struct qfd_jr *jr, const struct qfd_jr_val *v)
{
	json_object *o;

	if (jr->depth && jr->lv[jr->depth - 1].flat)
		return flat_value(jr, v);
	if (v->kind == QFD_JR_NULL)
		return attach(jr, NULL, false);
	o = json_of(v);
	return o ? attach(jr, o, false) : nomem(jr);
}

/*
 * Whether a string or key holds a NUL, which only "\u0000" can put there:
 * the bytes fed hold none (prescan()), so without a backslash among them
 * there is nothing to look for.
 */
static bool has_nul(const struct qfd_jr *jr, const unsigned char *s, size_t len)
{
	return jr->escapes && memchr(s, '\0', len);
}

static int on_null(void *ctx)
{
	const struct qfd_jr_val v = { .kind = QFD_JR_NULL };

	return value(ctx, &v);
}

static int on_boolean(void *ctx, int b)
{
	const struct qfd_jr_val v = { .kind = QFD_JR_BOOL, .b = b };

	return value(ctx, &v);
}

/* An integer as json-c reads one: int64, else uint64, else a double. */
static void integer(const char *s, struct qfd_jr_val *v)
{
	errno = 0;
	if (s[0] == '-') {
		v->i = strtoll(s, NULL, 10);
		v->kind = QFD_JR_INT;
	} else {
		v->u = strtoull(s, NULL, 10);
		v->kind = v->u > INT64_MAX ? QFD_JR_UINT : QFD_JR_INT;
		v->i = v->kind == QFD_JR_INT ? (int64_t)v->u : 0;
	}
	if (errno) {
		v->kind = QFD_JR_DOUBLE;
		v->d = strtod(s, NULL);
	}
}

/*
 * An integer of at most 18 digits, which no int64 overflows: read here
 * without a copy and strtoull() (a third of the callbacks' instructions
 * for a document of limits).  yajl has checked its form: digits after an
 * optional minus, no leading zero.  False for any other number.
 */
static bool short_integer(const char *s, size_t len, struct qfd_jr_val *v)
{
	size_t i = len && s[0] == '-';
	uint64_t u = 0;

	if (len <= i || len - i > 18)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		u = u * 10 + (uint64_t)(s[i] - '0');
	}
	v->kind = QFD_JR_INT;
	if (s[0] == '-') {
		v->i = -(int64_t)u;
	} else {
		v->i = (int64_t)u;
		v->u = u;
	}
	return true;
}

/*
 * Numbers as json-c reads them: limits go up to 2^64 - 1, so an integer
 * is an int64 or a uint64; anything else is a double (which no field
 * takes, so a number too long to convert is as good as infinite).
 */
static int on_number(void *ctx, const char *s, size_t len)
{
	struct qfd_jr_val v = { .kind = QFD_JR_DOUBLE, .d = HUGE_VAL };
	char buf[64];

	if (short_integer(s, len, &v))
		return value(ctx, &v);
	if (len < sizeof(buf)) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (strpbrk(buf, ".eE"))
			v.d = strtod(buf, NULL);
		else
			integer(buf, &v);
	}
	return value(ctx, &v);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	const struct qfd_jr_val v = { .kind = QFD_JR_STRING, .s = (const char *)s,
				      .len = len };

	/* C strings end at a NUL: "root\u0000x" must not pass as "root" */
	if (has_nul(ctx, s, len))
		return fail(ctx, "a string holds a NUL character (\\u0000): remove it");
	if (len > INT32_MAX)
		return nomem(ctx);
	return value(ctx, &v);
}

/*
 * The flat item at the deepest level becomes a tree from here on, its
 * keys so far added in order (a pending last one waits for its value):
 * when a container starts inside it, or it has more keys than
 * FLAT_KEYS.  No limits item has either.
 */
static int unflatten(struct qfd_jr *jr)
{
	struct jr_level *l = &jr->lv[jr->depth - 1];
	struct jr_flat *fl = &jr->flat;
	json_object *obj = json_object_new_object(), *o;
	size_t i, n = l->pending ? fl->n - 1 : fl->n;

	if (!obj)
		return nomem(jr);
	for (i = 0; i < n; i++) {
		const struct qfd_jr_val v = fl->out[i].v;

		o = json_of(&v);
		if ((!o && v.kind != QFD_JR_NULL) ||
		    json_object_object_add(obj, fl->buf + fl->f[i].key, o)) {
			json_object_put(o);
			json_object_put(obj);
			return nomem(jr);
		}
	}
	if (l->pending) {
		l->key = strdup(fl->buf + fl->f[n].key);
		if (!l->key) {
			json_object_put(obj);
			return nomem(jr);
		}
	}
	l->obj = obj;
	l->flat = l->pending = false;
	return 1;
}

static int push(struct qfd_jr *jr, bool is_array)
{
	bool item = jr->depth && jr->lv[jr->depth - 1].streamed;
	struct jr_level *l;
	json_object *o;

	if (jr->depth == QFD_JR_MAX_DEPTH)
		return fail(jr, "nested more than %d levels deep", QFD_JR_MAX_DEPTH);
	if (jr->depth && jr->lv[jr->depth - 1].flat && !unflatten(jr))
		return 0;
	if (item && !is_array) {
		jr->lv[jr->depth++] = (struct jr_level){ .is_item = true,
			.flat = true, .key0 = jr->nkeys };
		jr->flat.n = jr->flat.len = 0;
		jr->flat.seen = 0;
		return 1;
	}
	o = is_array ? json_object_new_array() : json_object_new_object();
	if (!o)
		return nomem(jr);
	if (!attach(jr, o, true))
		return 0;
	l = &jr->lv[jr->depth++];
	*l = (struct jr_level){ .obj = o, .is_array = is_array, .is_item = item,
				.key0 = jr->nkeys };
	if (is_array && !item && jr->ops->stream)
		l->streamed = jr->ops->stream(jr->ctx, jr);
	return 1;
}

static int pop(struct qfd_jr *jr)
{
	struct jr_level *l = &jr->lv[jr->depth - 1];
	int rc = 1;

	free(l->key);
	l->key = NULL;
	jr->nkeys = l->key0;
	if (jr->lines_to > jr->nkeys)
		jr->lines_to = jr->nkeys;
	/* handed over while still the deepest level: its place names it */
	if (l->flat)
		rc = hand_flat(jr, jr->depth - 1);
	else if (l->is_item)
		rc = hand(jr, l->obj, jr->depth - 1);
	l->obj = NULL;
	l->flat = false;
	jr->depth--;
	next(jr);
	if (!jr->depth)
		complete(jr);
	return rc;
}

static int on_start_map(void *ctx)
{
	return push(ctx, false);
}

static int on_start_array(void *ctx)
{
	return push(ctx, true);
}

/* Where the key k of the object l was first given. */
static size_t first_line(const struct qfd_jr *jr, const struct jr_level *l,
			 const char *k)
{
	size_t i = l->key0;

	json_object_object_foreach(l->obj, key, val) {
		(void)val;
		if (!strcmp(key, k))
			break;
		i++;
	}
	return i < jr->nkeys ? key_line(jr, i) : 0;
}

/* Remember where a key is; the stack only grows with an object's keys. */
static inline int note_key(struct qfd_jr *jr)
{
	struct jr_keypos *k;

	if (jr->nkeys == jr->keys_cap) {
		size_t cap = jr->keys_cap ? 2 * jr->keys_cap : 64;

		k = reallocarray(jr->keys, cap, sizeof(*k));
		if (!k)
			return nomem(jr);
		jr->keys = k;
		jr->keys_cap = cap;
	}
	if (jr->piece) {
		jr->keys[jr->nkeys++].at = yajl_get_bytes_consumed(jr->h);
	} else {
		jr->keys[jr->nkeys++].at = jr->line;
		jr->lines_to = jr->nkeys;
	}
	return 1;
}

/*
 * Whether two keys of len bytes, each NUL-terminated, are the same: the
 * first and last bytes tell the keys of a limits item apart ("space-soft",
 * "space-hard", "files-soft"...), without a call to memcmp() per pair.
 */
static bool same_key(const char *a, const char *b, size_t len)
{
	return !len || (a[0] == b[0] && a[len - 1] == b[len - 1] &&
			!memcmp(a, b, len));
}

/*
 * One of 64 bits for a key of len bytes, NUL-terminated, from its length
 * and its first and last bytes: a key whose bit no key before it in the
 * item has is new, unlooked for ("who" and the four limits' keys have a
 * bit each).
 */
static uint64_t key_bit(const char *k, size_t len)
{
	unsigned int last = len ? (unsigned char)k[len - 1] : 0;

	return 1ull << ((len + 3u * (unsigned char)k[0] + 5u * last) % 64);
}

/*
 * A key of the flat item: kept, pending, then refused if given before
 * (named in the place of the message, as a tree's key is).
 */
static int flat_key(struct qfd_jr *jr, struct jr_level *l, const char *s,
		    size_t len)
{
	struct jr_flat *fl = &jr->flat;
	struct jr_ffield *f;
	uint64_t bit;
	size_t i;

	if (fl->n == fl->fcap) {
		size_t cap = fl->fcap ? 2 * fl->fcap : 16;

		f = reallocarray(fl->f, cap, sizeof(*f));
		if (!f)
			return nomem(jr);
		fl->f = f;
		if (out_room(fl, cap))
			return nomem(jr);
		fl->fcap = cap;
	}
	f = &fl->f[fl->n];
	f->klen = len;
	if (flat_copy(fl, s, len, &f->key))
		return nomem(jr);
	fl->out[fl->n] = (struct qfd_jr_field){ .key = fl->buf + f->key,
		.klen = len, .v.kind = QFD_JR_NULL };
	fl->n++;
	l->pending = true;
	bit = key_bit(fl->buf + f->key, len);
	for (i = 0; fl->seen & bit && i + 1 < fl->n; i++)
		if (fl->f[i].klen == len &&
		    same_key(fl->buf + fl->f[i].key, fl->buf + f->key, len))
			return fail(jr, "given twice in one object (first on line %zu): keep one",
				    key_line(jr, l->key0 + i));
	fl->seen |= bit;
	return note_key(jr);
}

static int on_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct qfd_jr *jr = ctx;
	struct jr_level *l = &jr->lv[jr->depth - 1];

	if (has_nul(jr, s, len))
		return fail(jr, "a key holds a NUL character (\\u0000): remove it");
	if (l->flat && jr->flat.n == FLAT_KEYS && !unflatten(jr))
		return 0;
	if (l->flat)
		return flat_key(jr, l, (const char *)s, len);
	l->key = strndup((const char *)s, len);
	if (!l->key)
		return nomem(jr);
	/* json-c would keep the last one: the first must not pass unseen */
	if (json_object_object_get_ex(l->obj, l->key, NULL))
		return fail(jr, "given twice in one object (first on line %zu): keep one",
			    first_line(jr, l, l->key));
	return note_key(jr);
}

static int on_end(void *ctx)
{
	return pop(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_boolean,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_map_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

struct qfd_jr *qfd_jr_new(const struct qfd_jr_ops *ops, void *ctx)
{
	struct qfd_jr *jr = calloc(1, sizeof(*jr));

	if (!jr)
		return NULL;
	jr->ops = ops;
	jr->ctx = ctx;
	jr->line = jr->col = 1;
	jr->h = yajl_alloc(&callbacks, NULL, jr);
	if (!jr->h) {
		free(jr);
		return NULL;
	}
	/* names are bytes, as passwd has them: a dump must read back */
	yajl_config(jr->h, yajl_dont_validate_strings, 1);
	return jr;
}

void qfd_jr_free(struct qfd_jr *jr)
{
	size_t i;

	if (!jr)
		return;
	for (i = 0; i < jr->depth; i++) {
		free(jr->lv[i].key);
		if (jr->lv[i].is_item)
			json_object_put(jr->lv[i].obj);
	}
	json_object_put(jr->doc);
	free(jr->keys);
	free(jr->flat.buf);
	free(jr->flat.f);
	free(jr->flat.out);
	yajl_free(jr->h);
	free(jr);
}

/* yajl's "lexical error: invalid char in json text.\n", said plainly. */
static const char *plain_words(const char *s, size_t n)
{
	static const char *const plain[][2] = {
		{ "premature EOF", "the document ends too early" },
		{ "trailing garbage", "something follows the document" },
		{ "invalid char in json text", "a character that cannot start a value" },
		{ "invalid string in json text", "not a value (true, false, null, a number, a string, an object or an array)" },
		{ "probable comment found in input text, comments are not enabled", "JSON has no comments" },
		{ "unallowed token at this point in JSON text", "a comma or value out of place (JSON allows no trailing comma)" },
		{ "invalid object key (must be a string)", "an object key must be a string in double quotes (JSON allows no trailing comma)" },
	};
	size_t i;

	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (strlen(plain[i][0]) == n && !strncmp(s, plain[i][0], n))
			return plain[i][1];
	return NULL;
}

static void yajl_message(struct qfd_jr *jr)
{
	unsigned char *e = yajl_get_error(jr->h, 0, NULL, 0);
	const char *s = e ? (const char *)e : "yajl says nothing";
	const char *colon = strstr(s, ": "), *plain;
	size_t n;

	s = colon ? colon + 2 : s;
	n = strcspn(s, "\n");
	while (n && s[n - 1] == '.')
		n--;
	plain = plain_words(s, n);
	if (plain)
		snprintf(jr->err, sizeof(jr->err), "not valid JSON: %s", plain);
	else
		snprintf(jr->err, sizeof(jr->err), "not valid JSON: %.*s", (int)n, s);
	if (e)
		yajl_free_error(jr->h, e);
}

/* yajl stopped: a callback said why, or yajl did. */
static int stopped(struct qfd_jr *jr)
{
	if (jr->rc)
		return jr->rc;
	if (jr->begun)
		yajl_message(jr);
	else
		snprintf(jr->err, sizeof(jr->err), "the document is empty");
	jr->rc = -EINVAL;
	return jr->rc;
}

/* How many of s[0..len) lead as JSON's blanks (RFC 8259's ws). */
static size_t blanks(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			break;
	return i;
}

/*
 * A byte that no JSON text holds anywhere: raw control characters are not
 * allowed in strings, and yajl stops at a NUL saying only "invalid char",
 * but takes a form feed or vertical tab as a blank, which RFC 8259 does not.
 */
static const char *never(char c)
{
	return c == '\0' ? "not valid JSON: a NUL byte" :
	       c == '\f' ? "not valid JSON: a form feed (blanks are space, tab, CR, LF)" :
	       c == '\v' ? "not valid JSON: a vertical tab (blanks are space, tab, CR, LF)" :
			   NULL;
}

/* Blanks and structural characters: they end a token outside strings. */
static const bool ends_token[256] = {
	[' '] = true, ['\t'] = true, ['\r'] = true, ['\n'] = true,
	['{'] = true, ['}'] = true, ['['] = true, [']'] = true,
	[','] = true, [':'] = true,
};

/* Where prescan() is, kept in locals while it loops. */
struct scan {
	bool in_str, esc;
	size_t tok;	/* bytes of the token so far: a string's after its quote */
};

#define ONES	0x0101010101010101ull
#define HIGHS	0x8080808080808080ull

/*
 * The high bit of each byte of w that is c, and perhaps of later ones
 * (borrows carry up, never down: the lowest is always one of them).
 */
static inline uint64_t bytes_eq(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (ONES * c);

	return (x - ONES) & ~x & HIGHS;
}

/*
 * The first quote of s[0..end), or the first backslash too in a string
 * (in_str), or end: eight bytes at a time where a word's bytes can be
 * told apart (a byte at a time with every case decided, blanks and all,
 * was a sixth of apply's instructions).  A piece without a backslash
 * mostly does not come here (no_long_token()).
 */
static inline const unsigned char *next_quote(const unsigned char *s,
					      const unsigned char *end,
					      bool in_str)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w, hit;

	while (end - s >= 8) {
		memcpy(&w, s, sizeof(w));
		hit = bytes_eq(w, '"') | (in_str ? bytes_eq(w, '\\') : 0);
		if (hit)
			return s + __builtin_ctzll(hit) / 8;
		s += 8;
	}
#endif
	while (s < end && *s != '"' && (!in_str || *s != '\\'))
		s++;
	return s;
}

/*
 * Outside strings, s[0..q) is tokens and what ends them: *tok becomes the
 * length of the last token (one begun before s included), or the byte
 * where a token grows past QFD_JR_MAX_TOKEN is returned.  Only a run long
 * enough to hold such a token is gone through byte by byte, and the last
 * token is looked for only at the end of the piece: a quote ends it.
 */
static const unsigned char *outside(size_t *tok, const unsigned char *s,
				    const unsigned char *q, bool at_end)
{
	const unsigned char *p;

	if (*tok + (size_t)(q - s) <= QFD_JR_MAX_TOKEN) {
		if (!at_end)
			return NULL;
		for (p = q; p > s && !ends_token[p[-1]]; p--)
			;
		*tok = p > s ? (size_t)(q - p) : *tok + (size_t)(q - s);
		return NULL;
	}
	for (p = s; p < q; p++) {
		if (ends_token[*p])
			*tok = 0;
		else if (++*tok > QFD_JR_MAX_TOKEN)
			return p;
	}
	return NULL;
}

/*
 * In s[0..end), which holds no byte never in JSON, the byte that makes a
 * token longer than QFD_JR_MAX_TOKEN, or NULL.  Strings count up to their
 * closing quote, escapes and all.  Good enough for a limit: on a text
 * that is not JSON yajl stops first.
 */
static const unsigned char *too_long(struct scan *sc, const unsigned char *s,
				     const unsigned char *end)
{
	const unsigned char *q, *bad;
	bool grow;	/* q is in the token: a backslash, or what it escapes */

	while (s < end) {
		if (sc->esc) {
			/* after a backslash the next byte is taken, whatever */
			sc->esc = false;
			q = s;
			grow = true;
		} else if (sc->in_str) {
			q = next_quote(s, end, true);
			if (sc->tok + (size_t)(q - s) > QFD_JR_MAX_TOKEN)
				return s + (QFD_JR_MAX_TOKEN - sc->tok);
			sc->tok += (size_t)(q - s);
			if (q == end)
				break;
			grow = sc->esc = *q == '\\';
			sc->in_str = grow;	/* a quote ends it */
		} else {
			q = next_quote(s, end, false);
			bad = outside(&sc->tok, s, q, q == end);
			if (bad || q == end)
				return bad;
			sc->in_str = true;
			grow = false;
		}
		sc->tok = grow ? sc->tok + 1 : 0;
		if (sc->tok > QFD_JR_MAX_TOKEN)
			return q;
		s = q + 1;
	}
	return NULL;
}

/* The quotes of s[0..len), eight bytes at a time, each byte tested alone. */
static size_t count_quotes(const unsigned char *s, size_t len)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t w, x, zero;
	size_t n = 0, i;

	for (i = 0; i + sizeof(w) <= len; i += sizeof(w)) {
		memcpy(&w, s + i, sizeof(w));
		x = w ^ (ONES * '"');
		/* the high bit of each byte of x that is 0, and only those */
		zero = ~(((x & low7) + low7) | x | low7);
		/* their sum, in the top byte */
		n += ((zero >> 7) * ONES) >> 56;
	}
	for (; i < len; i++)
		n += s[i] == '"';
	return n;
}

/*
 * Whether s[0..end), which holds no backslash and no byte never in JSON,
 * certainly holds no token longer than QFD_JR_MAX_TOKEN; then sc is where
 * the scan is after it, as too_long() would leave it.  Without escapes
 * every quote ends a token or starts one, so a token is no longer than
 * the run without a quote it is in (the first run with the token begun
 * before s): each window of QFD_JR_MAX_TOKEN + 1 bytes from just after a
 * quote must hold one, and one memrchr() finds the last.  What is left to
 * do a byte at a time is counting quotes, to know whether the piece ends
 * in a string: a sixth of what going from quote to quote cost.
 */
static bool no_long_token(struct scan *sc, const unsigned char *s,
			  const unsigned char *end)
{
	const unsigned char *p = s, *q;
	size_t room = QFD_JR_MAX_TOKEN - sc->tok;

	if (sc->esc)
		return false;
	while ((size_t)(end - p) > room) {
		q = memrchr(p, '"', room + 1);
		if (!q)
			return false;
		p = q + 1;
		room = QFD_JR_MAX_TOKEN;
	}
	if (count_quotes(s, (size_t)(end - s)) % 2)
		sc->in_str = !sc->in_str;
	q = memrchr(s, '"', (size_t)(end - s));
	if (q) {
		s = q + 1;
		sc->tok = 0;
	}
	/* the last token: a string's bytes, or a word's or number's */
	if (sc->in_str)
		sc->tok += (size_t)(end - s);
	else
		outside(&sc->tok, s, end, true);
	return true;
}

/* The first of s[0..len) that never() refuses, or s + len. */
static const unsigned char *first_never(const unsigned char *s, size_t len)
{
	static const unsigned char bytes[] = { '\0', '\f', '\v' };
	const unsigned char *p;
	size_t i;

	for (i = 0; i < sizeof(bytes); i++) {
		p = memchr(s, bytes[i], len);
		if (p)
			len = (size_t)(p - s);
	}
	return s + len;
}

/*
 * The first byte of s[0..len) that is wrong before yajl sees it, or NULL:
 * a byte never in JSON (each looked for with memchr(), which is cheap for
 * bytes that are not there), or one before it that makes a token longer
 * than any field takes, which yajl would keep whole, however long, until
 * it ends.
 */
static const char *prescan(struct qfd_jr *jr, const char *buf, size_t len,
			   const char **what)
{
	const unsigned char *s = (const unsigned char *)buf;
	const unsigned char *nev = first_never(s, len), *bad = NULL;
	struct scan sc = { jr->in_str, jr->esc, jr->tok };
	bool escapes = memchr(s, '\\', (size_t)(nev - s));

	jr->escapes = jr->escapes || escapes;
	if (escapes || !no_long_token(&sc, s, nev))
		bad = too_long(&sc, s, nev);
	jr->in_str = sc.in_str;
	jr->esc = sc.esc;
	jr->tok = sc.tok;
	if (bad)
		*what = "longer than 64 KiB, more than any field takes";
	else if (nev < s + len)
		*what = never((char)*nev);
	else
		*what = NULL;
	return (const char *)(bad ? bad : nev < s + len ? nev : NULL);
}

/* After the document, s[0..len) of the piece fed must be blanks. */
static int only_blanks_after(struct qfd_jr *jr, const char *s, size_t len)
{
	size_t i = blanks(s, len);

	if (i == len)
		return 0;
	advance(jr, s, i + 1);
	snprintf(jr->err, sizeof(jr->err), "not valid JSON: something follows the document");
	jr->rc = -EINVAL;
	return jr->rc;
}

int qfd_jr_feed(struct qfd_jr *jr, const char *buf, size_t len)
{
	const char *bad, *what;
	bool was_done = jr->done;
	yajl_status st;
	size_t n, from;

	if (jr->rc)
		return jr->rc;
	bad = prescan(jr, buf, len, &what);
	n = bad ? (size_t)(bad - buf) : len;
	jr->begun = jr->begun || bad || blanks(buf, n) < n;
	jr->piece = buf;
	jr->counted = 0;
	jr->piece_line = jr->line;
	st = yajl_parse(jr->h, (const unsigned char *)buf, n);
	keys_to_lines(jr);
	if (st == yajl_status_ok && jr->done) {
		/* yajl may have taken the start of a token after it, unsaid */
		from = was_done ? 0 : jr->done_at;
		advance(jr, buf + jr->counted, from - jr->counted);
		jr->counted = from;
		if (only_blanks_after(jr, buf + from, n - from)) {
			jr->piece = NULL;
			return jr->rc;
		}
	}
	if (st == yajl_status_ok) {
		advance(jr, buf + jr->counted, n - jr->counted);
		jr->piece = NULL;
		if (!bad)
			return 0;
		fail(jr, "%s", what);
		return jr->rc;
	}
	sync_place(jr);
	jr->piece = NULL;
	return stopped(jr);
}

int qfd_jr_finish(struct qfd_jr *jr, json_object **doc)
{
	if (!jr->rc && yajl_complete_parse(jr->h) != yajl_status_ok)
		stopped(jr);
	if (jr->rc)
		return jr->rc;
	*doc = jr->doc;
	jr->doc = NULL;
	return 0;
}

const char *qfd_jr_error(const struct qfd_jr *jr, size_t *line, size_t *col)
{
	*line = jr->line;
	*col = jr->col;
	return jr->err;
}

size_t qfd_jr_depth(const struct qfd_jr *jr)
{
	return jr->depth;
}

const char *qfd_jr_key(const struct qfd_jr *jr, size_t level)
{
	return level_key(jr, &jr->lv[level]);
}

size_t qfd_jr_index(const struct qfd_jr *jr, size_t level)
{
	return jr->lv[level].idx;
}

void qfd_jr_place(const struct qfd_jr *jr, char *buf, size_t len)
{
	place_of(jr, jr->place_n, buf, len);
}
