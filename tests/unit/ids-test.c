// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of ids.c's tables, printed as TAP: a report asks for the
 * names of many ids, answered from the database read whole and sorted by
 * id.  Whatever the ids (any of the 2^32, repeated, in any order), each
 * must get the name of its first entry in the database, as getpwuid()
 * gives it, and an id without one none.
 *
 * The databases are files of this test's own: in a mount namespace of its
 * own (a user namespace too when not root), a tmpfs hides /etc and holds
 * passwd, projid and an nsswitch.conf that names only "files".  The
 * machine's files are never touched; where no namespace can be made (a
 * build chroot), every case is reported as skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "ids.h"
#include "qfd.h"

static int n, failed;
static const char *skip_why;

struct want {
	uint32_t id;
	uint32_t seq;
};

static void cond_is(int cond, const char *what)
{
	n++;
	if (skip_why) {
		printf("ok %d - %s # SKIP %s\n", n, what, skip_why);
		return;
	}
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
}

static bool put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fputs(text, f);
	return !fclose(f);
}

static bool map_self(const char *file, unsigned int id)
{
	char line[64];

	snprintf(line, sizeof(line), "0 %u 1\n", id);
	return put_file(file, line);
}

/* /etc as a tmpfs of this process's own; false (and why) where it cannot be. */
static bool private_etc(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWNS)) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
		    !put_file("/proc/self/setgroups", "deny") ||
		    !map_self("/proc/self/uid_map", uid) ||
		    !map_self("/proc/self/gid_map", gid)) {
			skip_why = "no mount namespace here";
			return false;
		}
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("qfd-ids-test", "/etc", "tmpfs", 0, "mode=755")) {
		skip_why = "cannot mount a tmpfs on /etc in a namespace";
		return false;
	}
	/* groups are not asked for; passwd only from the file below */
	if (!put_file("/etc/nsswitch.conf", "passwd: files\ngroup: files\n")) {
		skip_why = "cannot write the namespace's /etc";
		return false;
	}
	return true;
}

static uint64_t rnd_state = 0x2545f4914f6cdd1dULL;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 11);
}

static int cmp_want(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The database of type (QFD_USR: /etc/passwd, QFD_PRJ: /etc/projid) with
 * the cnt ids of v, entry i named "e<i>", in that order.
 */
static bool write_db(int type, const struct want *v, size_t cnt)
{
	FILE *f = fopen(type == QFD_USR ? "/etc/passwd" : "/etc/projid", "w");
	size_t i;

	if (!f)
		return false;
	for (i = 0; i < cnt; i++) {
		if (type == QFD_USR)
			fprintf(f, "e%u:x:%" PRIu32 ":100::/:/bin/false\n", v[i].seq, v[i].id);
		else
			fprintf(f, "e%u:%" PRIu32 "\n", v[i].seq, v[i].id);
	}
	return !fclose(f);
}

/* The name qfd must give id: its first entry's, from the sorted copy s. */
static const char *first_name(const struct want *s, size_t cnt, uint32_t id, char *buf)
{
	size_t lo = 0, hi = cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == cnt || s[lo].id != id)
		return NULL;
	snprintf(buf, 16, "e%u", s[lo].seq);
	return buf;
}

/* Whether qfd names id as s says: the same name, or none for both. */
static bool names_id(int type, const struct want *s, size_t cnt, uint32_t id)
{
	const char *got, *want;
	char buf[16];

	if (type == QFD_USR && id == UINT32_MAX)
		return true;
	got = qfd_id_name(type, id);
	want = first_name(s, cnt, id, buf);

	if (!want != !got || (want && strcmp(want, got))) {
		fprintf(stderr, "# id %" PRIu32 ": qfd says %s, the database %s\n",
			id, got ? got : "(none)", want ? want : "(none)");
		return false;
	}
	return true;
}

/*
 * Ask for every id of the database in ascending order (as a report does),
 * then, afresh, for each in the database's order and for ids it lacks.
 */
static bool lookups_right(int type, struct want *v, size_t cnt)
{
	struct want *s = malloc(cnt * sizeof(*s));
	bool ok = true;
	size_t i;

	if (!s || !write_db(type, v, cnt)) {
		free(s);
		return false;
	}
	memcpy(s, v, cnt * sizeof(*s));
	qsort(s, cnt, sizeof(*s), cmp_want);
	qfd_ids_free();
	for (i = 0; ok && i < cnt; i++)
		ok = names_id(type, s, cnt, s[i].id);
	qfd_ids_free();
	for (i = 0; ok && i < cnt; i++)
		ok = names_id(type, s, cnt, v[i].id) &&
		     names_id(type, s, cnt, rnd()) &&
		     names_id(type, s, cnt, v[i].id + 1) &&
		     names_id(type, s, cnt, v[i].id - 1);
	qfd_ids_free();
	free(s);
	return ok;
}

/*
 * cnt entries whose ids are base + (a random number & mask), about one in
 * eight repeating an earlier entry's id with a name of its own.
 */
static bool table_right(int type, size_t cnt, uint32_t base, uint32_t mask)
{
	struct want *v = malloc(cnt * sizeof(*v));
	bool ok = v != NULL;
	size_t i;

	for (i = 0; ok && i < cnt; i++) {
		v[i].seq = (uint32_t)i;
		v[i].id = i && rnd() % 8 == 0 ? v[rnd() % i].id : base + (rnd() & mask);
		/* (uid_t)-1 is no user's: chown(2) takes it as "unchanged" */
		if (type == QFD_USR && v[i].id == UINT32_MAX)
			v[i].id--;
	}
	if (ok && !skip_why)
		ok = lookups_right(type, v, cnt);
	free(v);
	return ok;
}

int main(void)
{
	private_etc();
	cond_is(table_right(QFD_USR, 100000, 0, UINT32_MAX),
		"100,000 users anywhere in the id range, some ids repeated");
	cond_is(table_right(QFD_USR, 200, 1000, 0xffff),
		"200 users (fewer than a radix sort is worth)");
	cond_is(table_right(QFD_USR, 5000, 70000, 0xff),
		"5,000 users whose ids differ only in the low byte");
	cond_is(table_right(QFD_USR, 3000, 0, 0xff000000u),
		"3,000 users whose ids differ only in the high byte");
	cond_is(table_right(QFD_PRJ, 50000, 0, UINT32_MAX),
		"50,000 projects anywhere in the id range");
	cond_is(table_right(QFD_PRJ, 1, UINT32_MAX, 0), "one project of the largest id");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
