// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Name <-> id resolution with a per-type cache.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ids.h"
#include "qfd.h"

struct entry {
	uint32_t id;
	uint32_t seq;		/* order in the database: the first one wins */
	char *name;
};

struct table {
	struct entry *byid;
	struct entry **byname;
	size_t n, alloc;
	bool loaded;
};

static struct table tables[QFD_NTYPES];

const char *qfd_type_name(int type)
{
	static const char *const names[QFD_NTYPES] = {
		[QFD_USR] = "user", [QFD_GRP] = "group", [QFD_PRJ] = "project",
	};

	return type >= 0 && type < QFD_NTYPES ? names[type] : "unknown";
}

static int add(struct table *t, uint32_t id, const char *name)
{
	if (t->n == t->alloc) {
		size_t na = t->alloc ? t->alloc * 2 : 256;
		struct entry *v = realloc(t->byid, na * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->byid = v;
		t->alloc = na;
	}
	t->byid[t->n].name = strdup(name);
	if (!t->byid[t->n].name)
		return -ENOMEM;
	t->byid[t->n].id = id;
	t->byid[t->n].seq = (uint32_t)t->n;
	t->n++;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_name(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a;
	const struct entry *y = *(struct entry *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int qfd_projid_line(char *line, const char **name, uint32_t *id)
{
	char *colon, *end;
	unsigned long v;

	if (line[0] == '#' || !(colon = strchr(line, ':')))
		return -EINVAL;
	*colon = '\0';
	/* strtoul would take " 12", "+12" and "-1" (as ULONG_MAX) */
	if (colon[1] < '0' || colon[1] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(colon + 1, &end, 10);
	if (errno || v > UINT32_MAX || (*end && *end != ':' && *end != '\n'))
		return -EINVAL;
	*name = line;
	*id = (uint32_t)v;
	return 0;
}

static void load_projid(struct table *t)
{
	FILE *f = fopen(QFD_PROJID_FILE, "re");
	const char *name;
	char *line = NULL;
	size_t cap = 0;
	uint32_t id;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		if (qfd_projid_line(line, &name, &id))
			continue;
		if (add(t, id, name))
			break;
	}
	free(line);
	fclose(f);
}

/*
 * getpwent() and getgrent() end with NULL both at the end and on an error
 * (an NSS source that failed): only errno tells them apart.  Names are
 * shown and resolved without the entries missed, so say so once.
 */
static void enum_failed(const char *db, int err)
{
	if (err && err != ENOENT)
		warnx("cannot read the %s database: %s: some names may be missing",
		      db, strerror(err));
}

static void load_users(struct table *t)
{
	struct passwd *pw;
	int err;

	setpwent();
	for (;;) {
		errno = 0;
		pw = getpwent();
		if (!pw)
			break;
		if (add(t, pw->pw_uid, pw->pw_name)) {
			errno = ENOMEM;
			break;
		}
	}
	err = errno;
	endpwent();
	enum_failed("user", err);
}

static void load_groups(struct table *t)
{
	struct group *gr;
	int err;

	setgrent();
	for (;;) {
		errno = 0;
		gr = getgrent();
		if (!gr)
			break;
		if (add(t, gr->gr_gid, gr->gr_name)) {
			errno = ENOMEM;
			break;
		}
	}
	err = errno;
	endgrent();
	enum_failed("group", err);
}

static struct table *load(int type)
{
	struct table *t = &tables[type];
	size_t i;

	if (t->loaded)
		return t;
	t->loaded = true;
	if (type == QFD_USR)
		load_users(t);
	else if (type == QFD_GRP)
		load_groups(t);
	else
		load_projid(t);
	if (t->n)
		qsort(t->byid, t->n, sizeof(*t->byid), cmp_id);
	t->byname = malloc((t->n ? t->n : 1) * sizeof(*t->byname));
	if (!t->byname) {
		t->n = 0;
		return t;
	}
	for (i = 0; i < t->n; i++)
		t->byname[i] = &t->byid[i];
	if (t->n)
		qsort(t->byname, t->n, sizeof(*t->byname), cmp_name);
	return t;
}

const char *qfd_id_name(int type, uint32_t id)
{
	struct table *t = load(type);
	size_t lo = 0, hi = t->n;

	/* lower bound, so duplicates resolve to the first in the database */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->byid[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->byid[lo].id == id ? t->byid[lo].name : NULL;
}

/*
 * nss lookups: only for names the enumeration did not list, and never for
 * a number, which is almost never also a name and costs a millisecond
 * per miss through some nss modules (100,000 of them in a batch).
 */
static bool name_to_id(int type, const char *name, uint32_t *id, bool nss)
{
	struct table *t = load(type);
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->byname[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n && !strcmp(t->byname[lo]->name, name)) {
		*id = t->byname[lo]->id;
		return true;
	}
	/* databases that do not enumerate (some NSS modules) still answer */
	if (!nss)
		return false;
	if (type == QFD_USR) {
		struct passwd *pw = getpwnam(name);

		if (pw)
			*id = pw->pw_uid;
		return pw;
	}
	if (type == QFD_GRP) {
		struct group *gr = getgrnam(name);

		if (gr)
			*id = gr->gr_gid;
		return gr;
	}
	return false;
}

static int parse_number(const char *s, uint32_t *id)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
		/* (uid_t)-1 means "no id" to the kernel */
		if (v >= UINT32_MAX)
			return -ERANGE;
	}
	*id = (uint32_t)v;
	return 0;
}

int qfd_id_parse(int type, const char *who, uint32_t *id)
{
	uint32_t num, named;
	int rc;

	if (who[0] == '#')
		return parse_number(who + 1, id);
	if (!*who)
		return -EINVAL;
	if (isdigit((unsigned char)who[0])) {
		rc = parse_number(who, &num);
		if (rc == -ERANGE)
			return rc;
		if (!rc) {
			if (name_to_id(type, who, &named, false) && named != num)
				return -EEXIST;
			*id = num;
			return 0;
		}
	}
	return name_to_id(type, who, id, true) ? 0 : -ENOENT;
}

const char *qfd_id_strerror(int type, const char *who, int rc, char *buf,
			    size_t len)
{
	const char *kind = qfd_type_name(type);

	switch (rc) {
	case -ENOENT:
		if (type == QFD_PRJ)
			snprintf(buf, len, "unknown project '%s': not in %s; use a number or add it there",
				 who, QFD_PROJID_FILE);
		else
			snprintf(buf, len, "unknown %s '%s'", kind, who);
		break;
	case -ERANGE:
		snprintf(buf, len, "%s id '%s' is out of range (0 to 4294967294)",
			 kind, who);
		break;
	case -EEXIST:
		snprintf(buf, len, "'%s' is both a %s name and a different id: write '#%s' for the id",
			 who, kind, who);
		break;
	default:
		if (who[0] == '#')
			snprintf(buf, len, "invalid %s id '%s': '#' takes a number (0 to 4294967294)",
				 kind, who);
		else
			snprintf(buf, len, "invalid %s '%s': give a name or a number",
				 kind, who);
	}
	return buf;
}

void qfd_ids_free(void)
{
	size_t t, i;

	for (t = 0; t < QFD_NTYPES; t++) {
		for (i = 0; i < tables[t].n; i++)
			free(tables[t].byid[i].name);
		free(tables[t].byid);
		free(tables[t].byname);
		memset(&tables[t], 0, sizeof(tables[t]));
	}
}
