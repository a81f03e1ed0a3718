// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: 'qfd apply' documents (desired.c and jsonread.c, with
 * yajl and json-c, batch.c, ids.c and units.c), read as qfd reads them.
 * A document that parses must be what desired.h promises: every
 * filesystem has a path, every item an id and only the four limit bits,
 * and no limit asked for is 0 unless it is "no limit".
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
 *     and it accepts no raw NUL byte and no "\u0000".
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "desired.h"
#include "jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a reading came to, to compare two readings of the same input. */
struct outcome {
	int rc;
	size_t line, col, nitems;
	char err[512];
	char *tree;		/* the document without its streamed items */
	char *items;		/* the streamed items, each as text, in order */
	size_t items_len;
};

/* Stream every array two levels down, as apply streams its limits. */
static bool stream(void *ctx, const struct qfd_jr *jr)
{
	(void)ctx;
	return qfd_jr_depth(jr) == 3;
}

static int item(void *ctx, const struct qfd_jr *jr, json_object *o)
{
	struct outcome *out = ctx;
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	char place[256];
	size_t n;
	char *p;

	qfd_jr_place(jr, place, sizeof(place));
	n = strlen(place) + strlen(s) + 2;
	p = realloc(out->items, out->items_len + n + 1);
	if (!p)
		abort();
	out->items = p;
	out->items_len += (size_t)sprintf(p + out->items_len, "%s=%s\n", place, s);
	out->nitems++;
	return 0;
}

static const struct qfd_jr_ops ops = { .stream = stream, .item = item };

/* Read data in pieces of at most piece bytes. */
static void read_in(const uint8_t *data, size_t size, size_t piece,
		    struct outcome *out)
{
	struct qfd_jr *jr = qfd_jr_new(&ops, out);
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
	json_object_put(doc);
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

static void check_reader(const uint8_t *data, size_t size)
{
	struct outcome whole, parts;

	read_in(data, size, size ? size : 1, &whole);
	read_in(data, size, size ? 1 + data[size - 1] % 7 : 1, &parts);
	if (!same(data, size, &whole, &parts))
		abort();
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
				if (r.asked & ~0xfu ||
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
