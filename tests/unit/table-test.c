// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The human table has two printers: libsmartcols on a terminal, and off
 * one qfd's own, which must print the very lines libsmartcols would
 * (src/output.c, plain_table).  This prints random tables of awkward
 * cells through both and compares the bytes, in the C locale and in a
 * UTF-8 one, and checks a few tables against the lines they must be.
 * TAP on stdout; the tables go to a temporary file.
 */
#include <inttypes.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libsmartcols.h>

#include "output.h"

static int n, failed;

static void ok(bool cond, const char *what)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
}

/* Cells that have tripped column printers: encodings, widths, blanks. */
static const char *const pool[] = {
	"", "root", "a b", "-", " lead", "trail ", "\\", "a\\b", "\\x41",
	"tab\there", "\x7f", "\x1b[31m", "caf\xc3\xa9", "\xe5\x90\x8d\xe5\x89\x8d",
	"\xcc\x81", "e\xcc\x81", "\xe2\x80\x8b", "\xff", "\xc3", "x\xc3(",
	"\xc2\x85", "\xf0\x9f\x98\x80", "\xef\xbf\xbd", "\xed\xa0\x80",
	"\xe9t\xe9", "a-name-of-thirty-two-characters",
};
#define NPOOL (sizeof(pool) / sizeof(pool[0]))

static const char *const headings[] = {
	"ID", "NAME", "SPACE", "X", "\xc3\xbc" "ber", "\xe5\x90\x8d", "a\\xb",
};
#define NHEAD (sizeof(headings) / sizeof(headings[0]))

#define MAXC 6

/* A table drawn from a seed: the same seed gives the same table. */
struct spec {
	unsigned int seed;
	size_t ncols, nrows;
	bool noheadings;
	struct qfd_col cols[MAXC];
	char cells[4][64];	/* strings made by joining pool entries */
};

static unsigned int rnd(unsigned int *s, unsigned int below)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) % below;
}

static void draw_columns(struct spec *sp, unsigned int *s)
{
	static const int flags[] = { 0, SCOLS_FL_RIGHT, SCOLS_FL_TRUNC };
	static const enum qfd_kind kinds[] = { QFD_K_STR, QFD_K_COUNT, QFD_K_SIZE };
	size_t i;

	sp->ncols = 1 + rnd(s, MAXC);
	for (i = 0; i < sp->ncols; i++) {
		sp->cols[i] = (struct qfd_col){
			.name = headings[rnd(s, NHEAD)],
			.flags = flags[rnd(s, 3)],
			.kind = kinds[rnd(s, 3)],
			.dflt = QFD_DFLT_ALL,
			.help = "",
		};
	}
	for (i = 0; i < 4; i++)
		snprintf(sp->cells[i], sizeof(sp->cells[i]), "%s%s%s",
			 pool[rnd(s, NPOOL)], pool[rnd(s, NPOOL)], pool[rnd(s, NPOOL)]);
}

static void draw_value(const struct spec *sp, size_t c, unsigned int *s,
		       struct qfd_val *v)
{
	static const uint64_t nums[] = { 0, 1, 999, 1024, 123456789, UINT64_MAX };

	v->set = rnd(s, 8) != 0;
	if (sp->cols[c].kind != QFD_K_STR)
		v->u = rnd(s, 2) ? nums[rnd(s, 6)] : rnd(s, 100000);
	else if (rnd(s, 3))
		v->s = pool[rnd(s, NPOOL)];
	else
		v->s = sp->cells[rnd(s, 4)];
}

/* The table of sp, built anew (qfd_out_print frees it). */
static struct qfd_out *build(const struct spec *sp)
{
	struct qfd_outopts o = {
		.cmd = "test", .format = QFD_FMT_TABLE, .noheadings = sp->noheadings,
	};
	struct qfd_out *out = qfd_out_new("rows", sp->cols, sp->ncols, &o);
	unsigned int s = sp->seed;
	size_t r, c;

	for (r = 0; out && r < sp->nrows; r++) {
		struct qfd_val v[MAXC];

		for (c = 0; c < sp->ncols; c++)
			draw_value(sp, c, &s, &v[c]);
		if (qfd_out_add(out, v))
			exit(99);
	}
	return out;
}

/* What printing out writes to stdout, through libsmartcols or not. */
static char *capture(struct qfd_out *out, bool scols, size_t *len)
{
	FILE *t = tmpfile();
	int saved = dup(STDOUT_FILENO);
	char *buf;
	long end;

	fflush(stdout);
	if (!t || saved < 0 || dup2(fileno(t), STDOUT_FILENO) < 0)
		exit(99);
	qfd_out_via_scols = scols;
	if (qfd_out_print(out))
		exit(99);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	end = ftell(t);
	buf = malloc((size_t)end + 1);
	rewind(t);
	if (!buf || fread(buf, 1, (size_t)end, t) != (size_t)end)
		exit(99);
	buf[end] = '\0';
	*len = (size_t)end;
	fclose(t);
	return buf;
}

/* One table through both printers: true if the bytes are the same. */
static bool same_table(const struct spec *sp)
{
	size_t la, lb;
	char *a = capture(build(sp), true, &la);
	char *b = capture(build(sp), false, &lb);
	bool same = la == lb && !memcmp(a, b, la);

	if (!same) {
		printf("# seed %u: %zu columns, %zu rows\n# libsmartcols:\n%s# qfd:\n%s",
		       sp->seed, sp->ncols, sp->nrows, a, b);
	}
	free(a);
	free(b);
	return same;
}

/*
 * count random tables of up to maxrows rows in locale loc: the same
 * bytes from both printers.
 */
static void same_is(const char *loc, unsigned int first, size_t count,
		    size_t maxrows)
{
	char what[128];
	size_t i;
	bool all = true;

	snprintf(what, sizeof(what), "%zu tables of up to %zu rows in %s: qfd prints libsmartcols' bytes",
		 count, maxrows, loc);
	if (!setlocale(LC_ALL, loc)) {
		n++;
		printf("ok %d - %s # SKIP no locale %s\n", n, what, loc);
		return;
	}
	for (i = 0; i < count && all; i++) {
		struct spec sp = { .seed = first + (unsigned int)i };
		unsigned int s = sp.seed;

		draw_columns(&sp, &s);
		sp.nrows = rnd(&s, (unsigned int)maxrows + 1);
		sp.noheadings = !rnd(&s, 4);
		sp.seed = s;
		all = same_table(&sp);
	}
	ok(all, what);
	setlocale(LC_ALL, "C");
}

/*
 * A fixed table (columns ID right-aligned, NAME, USED right-aligned, in
 * that order, rows of name and number pairs) printed by qfd off a terminal
 * in locale loc must be exactly want.
 */
struct fixed_row {
	const char *name;	/* NULL: empty cell */
	uint64_t id, used;
	bool has_used;
};

static void lines_is(const char *what, const char *loc, const char *last_name,
		     const struct fixed_row *rows, size_t nrows, const char *want)
{
	struct qfd_col cols[] = {
		{ "ID", SCOLS_FL_RIGHT, QFD_K_COUNT, QFD_DFLT_ALL, "" },
		{ "NAME", SCOLS_FL_TRUNC, QFD_K_STR, QFD_DFLT_ALL, "" },
		{ last_name, SCOLS_FL_RIGHT, QFD_K_COUNT, QFD_DFLT_ALL, "" },
	};
	struct qfd_outopts o = { .cmd = "test", .format = QFD_FMT_TABLE };
	struct qfd_out *out;
	size_t r, len;
	char *got;

	if (!setlocale(LC_ALL, loc)) {
		n++;
		printf("ok %d - %s # SKIP no locale %s\n", n, what, loc);
		return;
	}
	out = qfd_out_new("rows", cols, 3, &o);
	for (r = 0; out && r < nrows; r++) {
		struct qfd_val v[3] = {
			{ .set = true, .u = rows[r].id },
			{ .set = rows[r].name != NULL, .s = rows[r].name },
			{ .set = rows[r].has_used, .u = rows[r].used },
		};

		if (qfd_out_add(out, v))
			exit(99);
	}
	if (!out)
		exit(99);
	got = capture(out, false, &len);
	ok(!strcmp(got, want), what);
	if (strcmp(got, want))
		printf("# got:\n%s# want:\n%s", got, want);
	free(got);
	setlocale(LC_ALL, "C");
}

int main(void)
{
	static const struct fixed_row plain[] = {
		{ "root", 0, 12, true }, { "nobody", 65534, 0, false },
		{ NULL, 1000, 7, true },
	};
	static const struct fixed_row odd[] = {
		{ "tab\there", 1, 1, true }, { "\\x41", 2, 2, true },
		{ "caf\xc3\xa9", 3, 3, true }, { "\xe5\x90\x8d", 4, 4, true },
		{ "\xcc\x81", 5, 5, true }, { "\xff", 6, 6, true },
	};

	lines_is("right-aligned numbers; an empty last cell adds nothing",
		 "C", "USED", plain, 3,
		 "   ID NAME   USED\n"
		 "    0 root     12\n"
		 "65534 nobody \n"
		 " 1000           7\n");
	lines_is("controls, \\x and invalid bytes as \\xHH; wide and zero-width characters by their cells",
		 "C.UTF-8", "U", odd, 6,
		 "ID NAME        U\n"
		 " 1 tab\\x09here 1\n"
		 " 2 \\x5cx41     2\n"
		 " 3 caf\xc3\xa9        3\n"
		 " 4 \xe5\x90\x8d          4\n"
		 " 5             5\n"
		 " 6 \\xff        6\n");
	lines_is("in the C locale every byte past ASCII is \\xHH",
		 "C", "U", odd + 2, 2,
		 "ID NAME         U\n"
		 " 3 caf\\xc3\\xa9  3\n"
		 " 4 \\xe5\\x90\\x8d 4\n");
	same_is("C", 1, 400, 12);
	same_is("C.UTF-8", 1, 400, 12);
	same_is("C.UTF-8", 100000, 3, 2600);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
