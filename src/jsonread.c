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
 * of a document are still built as json-c trees, so the code that checks
 * them stays the same, and only the items of the arrays the caller
 * streams are handed over one at a time and freed.  The same document now
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

/* Where a key of an open object is, to name it when it comes again. */
struct jr_keypos {
	size_t line;
};

struct jr_level {
	json_object *obj;	/* the container being built */
	char *key;		/* object: the key whose value is being read */
	size_t idx;		/* array: the index of the item being read */
	size_t key0;		/* object: its keys' places start at keys[key0] */
	bool is_array;
	bool streamed;		/* items go to ops->item, not into obj */
	bool is_item;		/* an item of a streamed array: owned here */
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
	size_t tok;		/* prescan(): bytes of the current token */
	bool done;		/* the document's value is complete */
	size_t done_at;		/* where in the piece it was completed */
	char err[512];
	/* the piece being fed, and how much of it line and col count */
	const char *piece;
	size_t counted;
	size_t line, col;	/* of piece[counted] */
	/* a stack of the open objects' keys, in order (a level's key0) */
	struct jr_keypos *keys;
	size_t nkeys, keys_cap;
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

/* "filesystems[0].user.limits[3]": the first n levels, with their keys. */
static void place_of(const struct qfd_jr *jr, size_t levels, char *buf,
		     size_t len)
{
	size_t i, n = 0;
	int w;

	buf[0] = '\0';
	for (i = 0; i < levels && n < len; i++) {
		const struct jr_level *l = &jr->lv[i];

		if (l->is_array)
			w = snprintf(buf + n, len - n, "[%zu]", l->idx);
		else if (l->key)
			w = snprintf(buf + n, len - n, "%s%s", n ? "." : "", l->key);
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

/* Hand a whole item of a streamed array over, then let it go. */
static int hand(struct qfd_jr *jr, json_object *o, size_t place_n)
{
	int rc;

	jr->place_n = place_n;
	rc = jr->ops->item(jr->ctx, jr, o);
	json_object_put(o);
	if (rc) {
		jr->rc = rc;
		return 0;
	}
	return 1;
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

static int scalar(struct qfd_jr *jr, json_object *v)
{
	return v ? attach(jr, v, false) : nomem(jr);
}

static int on_null(void *ctx)
{
	return attach(ctx, NULL, false);
}

static int on_boolean(void *ctx, int b)
{
	return scalar(ctx, json_object_new_boolean(b));
}

/* An integer as json-c reads one: int64, else uint64, else a double. */
static json_object *integer(const char *s)
{
	long long v;
	unsigned long long u;

	errno = 0;
	if (s[0] == '-') {
		v = strtoll(s, NULL, 10);
		return errno ? json_object_new_double(strtod(s, NULL)) :
			       json_object_new_int64(v);
	}
	u = strtoull(s, NULL, 10);
	if (errno)
		return json_object_new_double(strtod(s, NULL));
	return u > INT64_MAX ? json_object_new_uint64(u) :
			       json_object_new_int64((int64_t)u);
}

/*
 * Numbers as json-c reads them: limits go up to 2^64 - 1, so an integer
 * is an int64 or a uint64; anything else is a double (which no field
 * takes, so a number too long to convert is as good as infinite).
 */
static int on_number(void *ctx, const char *s, size_t len)
{
	char buf[64];

	if (len >= sizeof(buf))
		return scalar(ctx, json_object_new_double(HUGE_VAL));
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strpbrk(buf, ".eE"))
		return scalar(ctx, json_object_new_double(strtod(buf, NULL)));
	return scalar(ctx, integer(buf));
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	/* C strings end at a NUL: "root\u0000x" must not pass as "root" */
	if (memchr(s, '\0', len))
		return fail(ctx, "a string holds a NUL character (\\u0000): remove it");
	if (len > INT32_MAX)
		return nomem(ctx);
	return scalar(ctx, json_object_new_string_len((const char *)s, (int)len));
}

static int push(struct qfd_jr *jr, bool is_array)
{
	bool item = jr->depth && jr->lv[jr->depth - 1].streamed;
	struct jr_level *l;
	json_object *o;

	if (jr->depth == QFD_JR_MAX_DEPTH)
		return fail(jr, "nested more than %d levels deep", QFD_JR_MAX_DEPTH);
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
	/* handed over while still the deepest level: its place names it */
	if (l->is_item)
		rc = hand(jr, l->obj, jr->depth - 1);
	l->obj = NULL;
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
	return i < jr->nkeys ? jr->keys[i].line : 0;
}

/* Remember where a key is; the stack only grows with an object's keys. */
static int note_key(struct qfd_jr *jr)
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
	jr->keys[jr->nkeys++].line = jr->line;
	return 1;
}

static int on_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct qfd_jr *jr = ctx;
	struct jr_level *l = &jr->lv[jr->depth - 1];

	if (memchr(s, '\0', len))
		return fail(jr, "a key holds a NUL character (\\u0000): remove it");
	l->key = strndup((const char *)s, len);
	if (!l->key)
		return nomem(jr);
	sync_place(jr);
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

/*
 * What a byte is to prescan(), from a table, as this is asked of every
 * byte of the document: blanks and structural characters end a token
 * outside strings; a quote starts or ends a string, a backslash escapes
 * the next byte in one; never() says why a B_NEVER byte is wrong.
 * Inside a string only B_QUOTE, B_ESCAPE and B_NEVER matter.
 */
enum { B_TOKEN, B_END, B_QUOTE, B_ESCAPE, B_NEVER };

static const unsigned char byte_class[256] = {
	[' '] = B_END, ['\t'] = B_END, ['\r'] = B_END, ['\n'] = B_END,
	['{'] = B_END, ['}'] = B_END, ['['] = B_END, [']'] = B_END,
	[','] = B_END, [':'] = B_END,
	['"'] = B_QUOTE, ['\\'] = B_ESCAPE,
	['\0'] = B_NEVER, ['\f'] = B_NEVER, ['\v'] = B_NEVER,
};

/* Where prescan() is, kept in locals while it loops. */
struct scan {
	bool in_str, esc;
	size_t tok;	/* bytes of the token so far: a string's after its quote */
};

/*
 * How many of s[0..len) go on the token being read without a decision:
 * plain bytes of a string, or of a number or word outside one.  Most of a
 * document's bytes go through this loop alone, one question a byte.
 */
static size_t plain_run(const struct scan *sc, const unsigned char *s, size_t len)
{
	size_t i = 0;

	if (sc->in_str) {
		while (i < len && byte_class[s[i]] <= B_END)
			i++;
	} else {
		while (i < len && byte_class[s[i]] == B_TOKEN)
			i++;
	}
	return i;
}

/*
 * The byte s, of class cls, that plain_run() stopped at: whether it goes
 * on the token (strings up to their closing quote, escapes and all) or
 * ends one or is none.  Good enough for a limit: on a text that is not
 * JSON yajl stops first.
 */
static bool token_byte(struct scan *sc, unsigned char cls)
{
	if (sc->in_str) {
		if (sc->esc)
			sc->esc = false;
		else if (cls == B_ESCAPE)
			sc->esc = true;
		else if (cls == B_QUOTE)
			sc->in_str = false;
		return sc->in_str;
	}
	if (cls == B_QUOTE) {
		sc->in_str = true;
		return false;
	}
	return cls != B_END;
}

/*
 * The first byte of s[0..len) that is wrong before yajl sees it, or NULL:
 * a byte never in JSON, or one that makes a token longer than any field
 * takes, which yajl would keep whole, however long, until it ends.
 */
static const char *prescan(struct qfd_jr *jr, const char *buf, size_t len,
			   const char **what)
{
	const unsigned char *s = (const unsigned char *)buf, *end = s + len;
	struct scan sc = { jr->in_str, jr->esc, jr->tok };
	const char *bad = NULL;
	size_t run;

	*what = NULL;
	while (s < end) {
		unsigned char cls;

		/* after a backslash the next byte is taken whatever it is */
		run = sc.esc ? 0 : plain_run(&sc, s, (size_t)(end - s));
		if (sc.tok + run > QFD_JR_MAX_TOKEN) {
			s += QFD_JR_MAX_TOKEN - sc.tok;
			*what = "longer than 64 KiB, more than any field takes";
			bad = (const char *)s;
			break;
		}
		sc.tok += run;
		s += run;
		if (s == end)
			break;
		cls = byte_class[*s];
		if (cls == B_NEVER) {
			*what = never((char)*s);
			bad = (const char *)s;
			break;
		}
		sc.tok = token_byte(&sc, cls) ? sc.tok + 1 : 0;
		if (sc.tok > QFD_JR_MAX_TOKEN) {
			*what = "longer than 64 KiB, more than any field takes";
			bad = (const char *)s;
			break;
		}
		s++;
	}
	jr->in_str = sc.in_str;
	jr->esc = sc.esc;
	jr->tok = sc.tok;
	return bad;
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
	st = yajl_parse(jr->h, (const unsigned char *)buf, n);
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
	return jr->lv[level].is_array ? NULL : jr->lv[level].key;
}

size_t qfd_jr_index(const struct qfd_jr *jr, size_t level)
{
	return jr->lv[level].idx;
}

void qfd_jr_place(const struct qfd_jr *jr, char *buf, size_t len)
{
	place_of(jr, jr->place_n, buf, len);
}
