// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of setlist.c, printed as TAP: the packed requests of 'qfd
 * set' and 'qfd apply' must come back exactly as they were put, whatever
 * values they share, while the list keeps each distinct set of values once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "quota.h"

static int n, failed;

static void cond_is(int cond, const char *what)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
}

/* Request i of a list where every seventh asks other limits. */
static void make(uint32_t i, struct qfd_setreq *r)
{
	memset(r, 0, sizeof(*r));
	r->id = 1000 + 3 * i;
	r->lim[QFD_LIM_SPACE_HARD] = i % 7 ? 2048 : 4096;
	r->lim[QFD_LIM_FILES_HARD] = 20;
	r->asked = (1u << QFD_LIM_SPACE_HARD) | (1u << QFD_LIM_FILES_HARD);
	if (i % 11 == 0) {
		r->timer[QFD_TIMER_FILES] = 1700000000 + i;
		r->asked |= QFD_SET_FILES_TIMER;
	}
}

/* The same values, id and line as r: what a get after an add must give. */
static bool same(const struct qfd_setreq *a, const struct qfd_setreq *b)
{
	return !memcmp(a->lim, b->lim, sizeof(a->lim)) &&
	       !memcmp(a->old, b->old, sizeof(a->old)) &&
	       !memcmp(a->timer, b->timer, sizeof(a->timer)) &&
	       !memcmp(a->old_timer, b->old_timer, sizeof(a->old_timer)) &&
	       a->id == b->id && a->line == b->line && a->asked == b->asked &&
	       a->mask == b->mask && a->up == b->up && a->down == b->down &&
	       a->written == b->written;
}

/*
 * 10,000 "#ID" requests, every other one added as NULL (apply's numbers):
 * each comes back, the values are kept few.
 */
static void test_numeric(void)
{
	struct qfd_setlist l = { 0 };
	struct qfd_setreq r, g;
	char who[16];
	uint32_t i;
	bool all = true;

	for (i = 0; i < 10000; i++) {
		make(i, &r);
		snprintf(who, sizeof(who), "#%u", r.id);
		all = all && !qfd_setlist_add(&l, i % 2 ? who : NULL, &r);
	}
	cond_is(all && l.n == 10000, "add 10,000 requests");
	for (i = 0; i < l.n; i++) {
		make(i, &r);
		qfd_setlist_get(&l, i, &g);
		snprintf(who, sizeof(who), "#%u", r.id);
		all = all && same(&r, &g) && !strcmp(qfd_setreq_who(&l, &g), who);
	}
	cond_is(all, "every request comes back with its values and \"#ID\"");
	cond_is(!l.who && !l.line, "no names and no lines kept for \"#ID\" requests");
	/* 2 limits x timer or none, plus one per id with its own timer */
	cond_is(l.nvals <= 2 + 10000 / 11 + 1, "equal values kept once");
	qfd_setlist_free(&l);
}

/* Names, lines and odd "#ID" spellings are kept as they were written. */
static void test_names(void)
{
	static const char *const who[] = { "#5", "alice", "#05", "#4294967294", "bob" };
	static const uint32_t id[] = { 5, 1001, 5, 4294967294u, 1002 };
	struct qfd_setlist l = { 0 };
	struct qfd_setreq r, g;
	bool all = true;
	size_t i;

	for (i = 0; i < 5; i++) {
		memset(&r, 0, sizeof(r));
		r.id = id[i];
		r.line = i == 2 ? 0 : (uint32_t)i + 10;
		all = all && !qfd_setlist_add(&l, who[i], &r);
	}
	for (i = 0; i < l.n; i++) {
		qfd_setlist_get(&l, i, &g);
		all = all && g.id == id[i] && !strcmp(qfd_setreq_who(&l, &g), who[i]) &&
		      g.line == (i == 2 ? 0 : i + 10);
	}
	cond_is(all, "names, \"#05\", the largest id and line numbers come back");
	qfd_setlist_free(&l);
}

/* A plan puts old values and masks back; written is the item's own. */
static void test_put(void)
{
	struct qfd_setlist l = { 0 };
	struct qfd_setreq r, g;
	bool all = true;
	uint32_t i;

	for (i = 0; i < 1000; i++) {
		make(i, &r);
		all = all && !qfd_setlist_add(&l, "carol", &r);
	}
	for (i = 0; i < l.n; i++) {
		qfd_setlist_get(&l, i, &g);
		g.old[QFD_LIM_SPACE_HARD] = i % 2 ? 2048 : 0;
		g.old_timer[QFD_TIMER_SPACE] = i == 500 ? 1800000000 : 0;
		g.mask = g.old[QFD_LIM_SPACE_HARD] == g.lim[QFD_LIM_SPACE_HARD] ? 0 : 2;
		all = all && !qfd_setlist_put(&l, i, &g);
	}
	for (i = 0; i < l.n; i += 3)
		qfd_setlist_set_written(&l, i, true);
	for (i = 0; i < l.n; i++) {
		make(i, &r);
		r.old[QFD_LIM_SPACE_HARD] = i % 2 ? 2048 : 0;
		r.old_timer[QFD_TIMER_SPACE] = i == 500 ? 1800000000 : 0;
		r.mask = r.old[QFD_LIM_SPACE_HARD] == r.lim[QFD_LIM_SPACE_HARD] ? 0 : 2;
		r.written = i % 3 == 0;
		qfd_setlist_get(&l, i, &g);
		all = all && same(&r, &g) && qfd_setlist_mask(&l, i) == r.mask &&
		      qfd_setlist_written(&l, i) == (i % 3 == 0);
	}
	cond_is(all, "planned values, masks and written come back");
	qfd_setlist_free(&l);
}

/*
 * Ids with limits of their own: the plan's values replace the read ones
 * in place, so the list keeps as many values as ids, not twice as many,
 * and each is still found again (the hash table is not left with holes).
 */
static void test_distinct(void)
{
	struct qfd_setlist l = { 0 };
	struct qfd_setreq r, g;
	bool all = true;
	size_t nread;
	uint32_t i;

	for (i = 0; i < 5000; i++) {
		memset(&r, 0, sizeof(r));
		r.id = i;
		r.lim[QFD_LIM_SPACE_HARD] = 1024 * ((uint64_t)i + 1);
		r.asked = 1u << QFD_LIM_SPACE_HARD;
		all = all && !qfd_setlist_add(&l, "#x", &r);
	}
	nread = l.nvals;
	for (i = 0; i < l.n; i++) {
		qfd_setlist_get(&l, i, &g);
		/* every third finds what an earlier one has: shared, not rewritten */
		g.old[QFD_LIM_SPACE_HARD] = i % 3 ? 7 * (uint64_t)i : 0;
		g.mask = 2;
		if (i % 3 == 0 && i)
			g.lim[QFD_LIM_SPACE_HARD] = 1024 * 3;
		all = all && !qfd_setlist_put(&l, i, &g);
	}
	cond_is(all && l.nvals <= nread + 1, "a plan of distinct values adds none to them");
	for (i = 0; i < l.n; i++) {
		qfd_setlist_get(&l, i, &g);
		all = all && g.id == i && g.mask == 2 &&
		      g.old[QFD_LIM_SPACE_HARD] == (i % 3 ? 7 * (uint64_t)i : 0) &&
		      g.lim[QFD_LIM_SPACE_HARD] == 1024 * (i % 3 == 0 && i ? 3 : (uint64_t)i + 1);
	}
	cond_is(all, "each request keeps its own planned values");
	/* every value is still found: adding it again adds nothing */
	nread = l.nvals;
	for (i = 0; i < 5000; i += 7) {
		qfd_setlist_get(&l, i, &g);
		all = all && !qfd_setlist_add(&l, "#y", &g);
	}
	cond_is(all && l.nvals == nread, "rewritten values are found again");
	qfd_setlist_free(&l);
}

int main(void)
{
	test_distinct();
	test_numeric();
	test_names();
	test_put();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
