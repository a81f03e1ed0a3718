// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: 'qfd apply' documents (desired.c and jsonread.c, with
 * yajl and json-c, batch.c, ids.c and units.c), read as qfd reads them.
 * A document that parses must be what desired.h promises: every
 * filesystem has a path, every item an id and only the four limit bits
 * and the two grace timers' (space-grace-ends, files-grace-ends), and no
 * limit asked for is 0 unless it is "no limit".
 *
 * The reader (jsonread.c) is checked on its own too:
 *   - fed in pieces (split where the input's last byte says), it must
 *     come to what it comes to fed whole: the same tree, the same items
 *     handed over, the same error, so that a token cut by a 64 KiB read
 *     boundary changes nothing.  Only the error's line and column may
 *     differ, within the input: yajl puts a parse error at the start of
 *     the token at fault when the token is in the piece it was given, and
 *     at the start of that piece when it is not;
 *   - strict: what it accepts, json-c's strict tokener must accept too,
 *     and it accepts no raw NUL byte and no "\u0000";
 *   - the streamed items (read as keys and values without a tree, or as a
 *     tree when they hold a container) must be what the same document
 *     read whole into a json-c tree holds at those places, value for
 *     value and in order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "desired.h"
#include "jsonread.h"
#include "quota.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a reading came to, to compare two readings of the same input. */
struct outcome {
	int rc;
	size_t line, col, nitems;
	char err[512];
	char *tree;		/* the document without its streamed items */
	json_object *doc;
	char *items;		/* the streamed items, each as text, in order */
	size_t items_len;
};

/* Stream every array two levels down, as apply streams its limits. */
static bool stream(void *ctx, const struct qfd_jr *jr)
{
	(void)ctx;
	return qfd_jr_depth(jr) == 3;
}

static void add(struct outcome *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append to out->items. */
static void add(struct outcome *out, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = realloc(out->items, out->items_len + (size_t)n + 1);
	if (n < 0 || !p)
		abort();
	out->items = p;
	va_start(ap, fmt);
	vsnprintf(p + out->items_len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	out->items_len += (size_t)n;
}

/* A value as text that tells every value apart, bytes and all. */
static void add_val(struct outcome *out, const struct qfd_jr_val *v)
{
	switch (v->kind) {
	case QFD_JR_NULL:
		add(out, "n");
		break;
	case QFD_JR_BOOL:
		add(out, "b%d", v->b);
		break;
	case QFD_JR_INT:
		add(out, "i%lld/%llu", (long long)v->i, (unsigned long long)v->u);
		break;
	case QFD_JR_UINT:
		add(out, "u%llu", (unsigned long long)v->u);
		break;
	case QFD_JR_DOUBLE:
		add(out, "d%a", v->d);
		break;
	case QFD_JR_STRING:
		if (strlen(v->s) != v->len)
			abort();
		add(out, "s%zu:", v->len);
		out->items = realloc(out->items, out->items_len + v->len + 1);
		if (!out->items)
			abort();
		memcpy(out->items + out->items_len, v->s, v->len + 1);
		out->items_len += v->len;
		break;
	case QFD_JR_OBJECT:
		add(out, "O");
		break;
	case QFD_JR_ARRAY:
		add(out, "A");
		break;
	}
}

static void add_item(struct outcome *out, const char *place,
		     const struct qfd_jr_item *it)
{
	size_t i;

	add(out, "%s=", place);
	add_val(out, &it->v);
	if (it->n && it->v.kind != QFD_JR_OBJECT)
		abort();
	for (i = 0; i < it->n; i++) {
		if (it->f[i].klen != strlen(it->f[i].key))
			abort();
		add(out, " %zu:%s=", it->f[i].klen, it->f[i].key);
		add_val(out, &it->f[i].v);
	}
	add(out, "\n");
	out->nitems++;
}

static int item(void *ctx, const struct qfd_jr *jr, const struct qfd_jr_item *it)
{
	char place[256];

	qfd_jr_place(jr, place, sizeof(place));
	add_item(ctx, place, it);
	return 0;
}

static const struct qfd_jr_ops ops = { .stream = stream, .item = item };
static const struct qfd_jr_ops whole_ops = { .stream = NULL, .item = item };

/* Read data in pieces of at most piece bytes, streamed or whole. */
static void read_in(const uint8_t *data, size_t size, size_t piece,
		    bool streamed, struct outcome *out)
{
	struct qfd_jr *jr = qfd_jr_new(streamed ? &ops : &whole_ops, out);
	json_object *doc = NULL;
	size_t off, n;

	if (!jr)
		abort();
	memset(out, 0, sizeof(*out));
	for (off = 0; !out->rc && off < size; off += n) {
		n = size - off < piece ? size - off : piece;
		out->rc = qfd_jr_feed(jr, (const char *)data + off, n);
	}
	if (!out->rc)
		out->rc = qfd_jr_finish(jr, &doc);
	if (out->rc == -EINVAL)
		snprintf(out->err, sizeof(out->err), "%s",
			 qfd_jr_error(jr, &out->line, &out->col));
	else if (out->rc)
		abort();
	out->tree = strdup(doc ? json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN) : "null");
	out->doc = doc;
	qfd_jr_free(jr);
}

/* The offset of line and column (from 1) in data. */
static size_t offset_of(const uint8_t *data, size_t size, size_t line,
			size_t col)
{
	size_t i = 0;

	while (line > 1 && i < size)
		if (data[i++] == '\n')
			line--;
	return i + col - 1;
}

/* An error is somewhere in the input, or just past its end. */
static bool inside(const uint8_t *data, size_t size, const struct outcome *o)
{
	return !o->rc || (o->line && o->col &&
			  offset_of(data, size, o->line, o->col) <= size);
}

static bool same(const uint8_t *data, size_t size, const struct outcome *a,
		 const struct outcome *b)
{
	return a->rc == b->rc && inside(data, size, a) && inside(data, size, b) &&
	       a->nitems == b->nitems && !strcmp(a->err, b->err) &&
	       !strcmp(a->tree, b->tree) &&
	       !strcmp(a->items ? a->items : "", b->items ? b->items : "");
}

/* json-c's strict tokener takes it (ours refuses more, never less). */
static bool jsonc_strict_takes(const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new_ex(1000);
	char *s = malloc(size + 1);
	json_object *o;
	bool ok;

	if (!tok || !s)
		abort();
	/* the NUL ends a number at the end, which json-c would wait on */
	memcpy(s, data, size);
	s[size] = '\0';
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, s, (int)size + 1);
	ok = json_tokener_get_error(tok) == json_tokener_success;
	json_object_put(o);
	json_tokener_free(tok);
	free(s);
	return ok;
}

/* "\u0000" as an escape, not as "\\u0000" (a backslash, then "u0000"). */
static bool nul_escape(const uint8_t *data, size_t size)
{
	size_t i, slashes = 0;

	for (i = 0; i + 6 <= size; i++) {
		if (data[i] != '\\') {
			slashes = 0;
			continue;
		}
		slashes++;
		if (slashes % 2 && !memcmp(data + i + 1, "u0000", 5))
			return true;
	}
	return false;
}

/* "a[0]" or "[1]": one level of a place, as jsonread.c writes it. */
static void level(char *buf, size_t len, const char *key, size_t idx)
{
	size_t n = strlen(buf);

	if (key)
		snprintf(buf + n, len - n, "%s%s", n ? "." : "", key);
	else
		snprintf(buf + n, len - n, "[%zu]", idx);
}

/* The items of one array two levels down in a whole tree. */
static void add_array(struct outcome *out, const char *place, json_object *a)
{
	struct qfd_jr_field f[64];
	char at[256];
	size_t i;

	for (i = 0; i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct qfd_jr_item it = { .f = f };

		qfd_jr_val_of(o, &it.v);
		if (it.v.kind == QFD_JR_OBJECT) {
			json_object_object_foreach(o, key, val) {
				if (it.n == 64)
					return;	/* too many to compare: enough */
				f[it.n].key = key;
				f[it.n].klen = strlen(key);
				qfd_jr_val_of(val, &f[it.n++].v);
			}
		}
		snprintf(at, sizeof(at), "%s", place);
		level(at, sizeof(at), NULL, i);
		add_item(out, at, &it);
	}
}

static json_object *nth(json_object *o, size_t i, const char **key)
{
	struct json_object_iterator it, end;

	*key = NULL;
	if (json_object_is_type(o, json_type_array))
		return json_object_array_get_idx(o, i);
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	while (i-- && !json_object_iter_equal(&it, &end))
		json_object_iter_next(&it);
	*key = json_object_iter_peek_name(&it);
	return json_object_iter_peek_value(&it);
}

static bool is_container(json_object *o)
{
	return json_object_is_type(o, json_type_array) ||
	       json_object_is_type(o, json_type_object);
}

static size_t children(json_object *o)
{
	return json_object_is_type(o, json_type_array) ?
	       json_object_array_length(o) : (size_t)json_object_object_length(o);
}

/* What streaming would have handed over, from the tree read whole. */
static void tree_items(struct outcome *out, json_object *doc)
{
	json_object *c1, *c2;
	const char *k1, *k2;
	char p1[256], p2[256];
	size_t i, j;

	if (!is_container(doc))
		return;
	for (i = 0; i < children(doc); i++) {
		c1 = nth(doc, i, &k1);
		if (!is_container(c1))
			continue;
		p1[0] = '\0';
		level(p1, sizeof(p1), k1, i);
		for (j = 0; j < children(c1); j++) {
			c2 = nth(c1, j, &k2);
			if (!json_object_is_type(c2, json_type_array))
				continue;
			snprintf(p2, sizeof(p2), "%s", p1);
			level(p2, sizeof(p2), k2, j);
			add_array(out, p2, c2);
		}
	}
}

static void check_reader(const uint8_t *data, size_t size)
{
	struct outcome whole, parts, tree, from_tree = { 0 };

	read_in(data, size, size ? size : 1, true, &whole);
	read_in(data, size, size ? 1 + data[size - 1] % 7 : 1, true, &parts);
	if (!same(data, size, &whole, &parts))
		abort();
	/* the items handed over are the tree's, value for value */
	read_in(data, size, size ? size : 1, false, &tree);
	if (tree.rc != whole.rc || strcmp(tree.err, whole.err))
		abort();
	if (!whole.rc) {
		tree_items(&from_tree, tree.doc);
		if (from_tree.nitems != whole.nitems ||
		    strcmp(from_tree.items ? from_tree.items : "",
			   whole.items ? whole.items : ""))
			abort();
	}
	json_object_put(whole.doc);
	json_object_put(parts.doc);
	json_object_put(tree.doc);
	free(tree.tree);
	free(tree.items);
	free(from_tree.items);
	if (!whole.rc && (memchr(data, '\0', size) ||
			  nul_escape(data, size) ||
			  (size < INT32_MAX && !jsonc_strict_takes(data, size))))
		abort();
	free(whole.tree);
	free(whole.items);
	free(parts.tree);
	free(parts.items);
}

static void check_want(const struct qfd_want *w, bool override)
{
	size_t i, n;
	int t;

	for (i = 0; i < w->nfs; i++) {
		if (!w->fs[i].path || !*w->fs[i].path)
			abort();
		for (t = 0; t < QFD_NTYPES; t++) {
			const struct qfd_want_type *wt = &w->fs[i].t[t];

			if (!wt->present && (wt->list.n || wt->enforce != QFD_ENF_KEEP))
				abort();
			for (n = 0; n < wt->list.n; n++) {
				struct qfd_setreq r;

				qfd_setlist_get(&wt->list, n, &r);
				if (r.asked & ~(0xfu | QFD_SET_SPACE_TIMER |
						QFD_SET_FILES_TIMER) ||
				    !*qfd_setreq_who(&wt->list, &r))
					abort();
			}
		}
	}
	if (!w->nfs || (override && strcmp(w->fs[0].path, "/override")))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	bool override = size && data[0] == ' ';
	struct qfd_want w;
	int rc;

	if (!f)
		abort();
	rc = qfd_want_read(&w, f, "fuzz", override ? "/override" : NULL);
	fclose(f);
	if (rc && rc != -EINVAL)
		abort();
	if (!rc)
		check_want(&w, override);
	qfd_want_free(&w);
	check_reader(data, size);
	return 0;
}
