// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Name <-> id resolution.  Users and groups are looked up one id at a time
 * through nss (getpwuid, getpwnam...) and cached, as util-linux does:
 * directory services (sssd, LDAP) need not enumerate.  A command that
 * goes through many ids reads the database whole once, and still asks nss
 * for the ids that enumeration did not list, unless nsswitch.conf says
 * that its sources list everything (files, systemd).  Projects have only
 * /etc/projid, read whole.
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
#include <unistd.h>

#include "ids.h"
#include "qfd.h"

struct entry {
	uint32_t id;
	uint32_t seq;		/* order in the database: the first one wins */
	char *name;
};

/*
 * The names of a table, packed into blocks: a strdup() each cost 16 bytes
 * of malloc's own more, and a third of the memory of a report over
 * 100,000 named users (bench/README).
 */
struct names {
	struct names *next;
	size_t used, cap;
	char data[];
};

#define NAMES_BLOCK	65536

/* A database read whole: /etc/projid, or an enumerated passwd or group. */
struct table {
	struct entry *byid;
	struct entry **byname;
	struct names *names;
	size_t n, alloc;
	size_t finger;		/* where the last id looked up was */
	bool loaded;
	bool complete;		/* it lists every name nss knows: see listed_all() */
};

/*
 * Names looked up one id at a time: an open-addressing hash over ids, with
 * NULL kept for an id that has no name, so each distinct id costs one
 * lookup.  QFD_NOID ((uid_t)-1, never a valid id) marks a free slot.
 */
struct slot {
	uint32_t id;
	char *name;
};

struct cache {
	struct slot *slots;
	size_t cap, used;
	unsigned int lookups;	/* nss lookups so far, by id or by name */
};

#define QFD_NOID	UINT32_MAX

/*
 * After this many lookups of one database, a command is going through many
 * ids (a report, a batch): one enumeration then answers most of them from
 * memory.  A few ids (qfd get alice) never pay for reading the database
 * whole, which a directory service may not even allow.
 */
#define ENUM_AFTER	64
/*
 * Where the enumeration lists everything (files, systemd: listed_all()),
 * it is one read of the database and each lookup it saves is ~30 system
 * calls: it pays for itself sooner.  Under emulation, 64 misses were a
 * fifth of a 20,000-id JSON report on XFS.
 */
#define ENUM_AFTER_LISTED	8

/* Where glibc reads which sources answer for passwd and group. */
#define NSSWITCH_FILE	"/etc/nsswitch.conf"

/* Fewer entries than this are sorted by qsort(): a radix pass costs 256. */
#define RADIX_MIN	256

static struct table tables[QFD_NTYPES];
static struct cache caches[QFD_NTYPES];

static char *names_dup(struct names **head, const char *s)
{
	size_t len = strlen(s) + 1;
	struct names *b = *head;
	char *p;

	if (!b || b->cap - b->used < len) {
		size_t cap = len > NAMES_BLOCK ? len : NAMES_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = *head;
		b->used = 0;
		b->cap = cap;
		*head = b;
	}
	p = b->data + b->used;
	memcpy(p, s, len);
	b->used += len;
	return p;
}

static void names_free(struct names *b)
{
	while (b) {
		struct names *next = b->next;

		free(b);
		b = next;
	}
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
	t->byid[t->n].name = names_dup(&t->names, name);
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
 * getpwent(), getpwuid() and the rest return NULL both when there is no
 * such entry and on an error (an NSS source that failed): only errno tells
 * them apart, and "not found" may come as any of these (getpwnam(3)).
 * Names are shown and resolved without the entries missed, so say so once.
 */
static bool db_error(int err)
{
	return err && err != ENOENT && err != ESRCH && err != EBADF &&
	       err != EPERM;
}

static void db_failed(int type, int err)
{
	static bool warned[QFD_NTYPES];

	if (!db_error(err) || warned[type])
		return;
	warned[type] = true;
	warnx("cannot read the %s database: %s: some names may be missing",
	      qfd_type_name(type), strerror(err));
}

/* The next entry of the passwd or group database: false at its end. */
static bool next_user(uint32_t *id, const char **name)
{
	struct passwd *pw = getpwent();

	if (pw) {
		*id = pw->pw_uid;
		*name = pw->pw_name;
	}
	return pw != NULL;
}

static bool next_group(uint32_t *id, const char **name)
{
	struct group *gr = getgrent();

	if (gr) {
		*id = gr->gr_gid;
		*name = gr->gr_name;
	}
	return gr != NULL;
}

/*
 * Every entry of the users' (type QFD_USR) or groups' database.  Returns
 * false when the enumeration failed part way.
 */
static bool load_db(struct table *t, int type)
{
	bool (*next)(uint32_t *, const char **) =
		type == QFD_USR ? next_user : next_group;
	const char *name;
	uint32_t id;
	int err;

	if (type == QFD_USR)
		setpwent();
	else
		setgrent();
	for (;;) {
		errno = 0;
		if (!next(&id, &name))
			break;
		if (add(t, id, name)) {
			errno = ENOMEM;
			break;
		}
	}
	err = errno;
	if (type == QFD_USR)
		endpwent();
	else
		endgrent();
	db_failed(type, err);
	return !db_error(err);
}

/*
 * Sources that list every entry they answer for when enumerated: local
 * files, and systemd's userdb (nss-systemd enumerates its records).
 * Directory services (sss, ldap, winbind, nis) may answer for names they
 * do not list, and so may any module qfd does not know.
 */
static bool source_lists_all(const char *s, size_t len)
{
	static const char *const full[] = { "files", "systemd" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(full); i++)
		if (strlen(full[i]) == len && !memcmp(full[i], s, len))
			return true;
	return false;
}

/*
 * The sources of one "db: source [ACTION] source" line: true when every
 * one of them lists all it knows.  Actions ("[NOTFOUND=return]") change
 * only which source answers, not what the sources know.
 */
static bool sources_list_all(const char *p)
{
	bool any = false;

	for (;;) {
		size_t len;

		p += strspn(p, " \t\r\n");
		if (!*p || *p == '#')
			return any;
		if (*p == '[') {
			p = strchr(p, ']');
			if (!p)
				return false;
			p++;
			continue;
		}
		len = strcspn(p, " \t\r\n[#");
		if (!source_lists_all(p, len))
			return false;
		any = true;
		p += len;
	}
}

/*
 * Whether an id or a name that the enumeration of type's database did not
 * list is unknown to nss too, so that asking nss about it can be skipped:
 * for a report of 100,000 ids with few names each miss costs ~30 system
 * calls (files, then systemd's socket), over a millisecond under
 * emulation.  True only when nsswitch.conf names the database and every
 * source for it is one that lists all it knows; a line qfd cannot read,
 * or any other source, keeps the per-id lookups.
 */
static bool listed_all(int type)
{
	const char *db = type == QFD_USR ? "passwd" : "group";
	size_t dblen = strlen(db);
	FILE *f = fopen(NSSWITCH_FILE, "re");
	char *line = NULL;
	size_t cap = 0;
	bool all = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		const char *p = line + strspn(line, " \t");

		if (!strncmp(p, db, dblen) && p[dblen] == ':') {
			all = sources_list_all(p + dblen + 1);
			break;
		}
	}
	free(line);
	fclose(f);
	return all;
}

/* listed_all(type), read once */
static bool lists_all(int type)
{
	static signed char known[QFD_NTYPES] = { -1, -1, -1 };

	if (known[type] < 0)
		known[type] = type != QFD_PRJ && listed_all(type);
	return known[type];
}

/*
 * byid by id, and among equal ids in database order (entries are added in
 * that order, and a radix sort keeps it).  With 100,000 users, qsort()
 * with cmp_id was a fifth of what reading the names cost after nss's own
 * enumeration (callgrind: 44 of 208 million instructions); this is one
 * counting pass per byte of the ids that is not the same in all of them.
 */
static void sort_by_id(struct table *t)
{
	struct entry *src = t->byid, *dst, *spare, *sorted;
	size_t count[256], i;
	unsigned int shift;

	if (t->n < RADIX_MIN || !(spare = malloc(t->n * sizeof(*spare)))) {
		qsort(t->byid, t->n, sizeof(*t->byid), cmp_id);
		return;
	}
	dst = spare;
	for (shift = 0; shift < 32; shift += 8) {
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < t->n; i++)
			count[(src[i].id >> shift) & 0xff]++;
		if (count[(src[0].id >> shift) & 0xff] == t->n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < t->n; i++)
			dst[count[(src[i].id >> shift) & 0xff]++] = src[i];
		sorted = dst;
		dst = src;
		src = sorted;
	}
	/* src holds the sorted entries; the other array goes */
	free(src == spare ? t->byid : spare);
	t->byid = src;
}

static struct table *load(int type)
{
	struct table *t = &tables[type];

	if (t->loaded)
		return t;
	t->loaded = true;
	if (type == QFD_PRJ)
		load_projid(t);
	else
		t->complete = load_db(t, type) && lists_all(type);
	if (t->n) {
		/* the doubling's spare room, a quarter of byid on average */
		struct entry *v = realloc(t->byid, t->n * sizeof(*v));

		if (v)
			t->byid = v;
		sort_by_id(t);
	}
	return t;
}

/*
 * The entries by name, made at the first name looked up: a report asks
 * only for ids, and sorting 100,000 names was a seventh of a report's
 * instructions with them (callgrind).
 */
static struct entry **by_name(struct table *t)
{
	size_t i;

	if (t->byname)
		return t->byname;
	t->byname = malloc((t->n ? t->n : 1) * sizeof(*t->byname));
	if (!t->byname)
		qfd_oom();
	for (i = 0; i < t->n; i++)
		t->byname[i] = &t->byid[i];
	if (t->n)
		qsort(t->byname, t->n, sizeof(*t->byname), cmp_name);
	return t->byname;
}

/* byid[i] is the first entry of id or above: the lower bound of id */
static bool lower_bound_at(const struct table *t, size_t i, uint32_t id)
{
	return i <= t->n && (i == t->n || t->byid[i].id >= id) &&
	       (i == 0 || t->byid[i - 1].id < id);
}

static const char *table_name(struct table *t, uint32_t id)
{
	size_t lo = 0, hi = t->n;

	/*
	 * A report asks for ids in ascending order (Q_GETNEXTQUOTA walks
	 * them so): the place after the last one answers most without a
	 * search.
	 */
	if (lower_bound_at(t, t->finger, id))
		lo = hi = t->finger;
	else if (lower_bound_at(t, t->finger + 1, id))
		lo = hi = t->finger + 1;
	/* lower bound, so duplicates resolve to the first in the database */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->byid[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	t->finger = lo;
	return lo < t->n && t->byid[lo].id == id ? t->byid[lo].name : NULL;
}

static bool table_id(struct table *t, const char *name, uint32_t *id)
{
	struct entry **byname = by_name(t);
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(byname[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n && !strcmp(byname[lo]->name, name)) {
		*id = byname[lo]->id;
		return true;
	}
	return false;
}

/* The slot of id: the one holding it, or the free one where it goes. */
static struct slot *cache_slot(const struct cache *c, uint32_t id)
{
	size_t i = ((id * 0x9e3779b1u) ^ (id >> 16)) & (c->cap - 1);

	while (c->slots[i].id != QFD_NOID && c->slots[i].id != id)
		i = (i + 1) & (c->cap - 1);
	return &c->slots[i];
}

static struct slot *cache_find(const struct cache *c, uint32_t id)
{
	struct slot *s;

	if (!c->cap)
		return NULL;
	s = cache_slot(c, id);
	return s->id == id ? s : NULL;
}

/* Kept at most half full, so a probe ends after a slot or two. */
static int cache_grow(struct cache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 256, i;
	struct cache n = { .cap = ncap, .used = c->used, .lookups = c->lookups };

	n.slots = malloc(ncap * sizeof(*n.slots));
	if (!n.slots)
		return -ENOMEM;
	for (i = 0; i < ncap; i++)
		n.slots[i].id = QFD_NOID;
	for (i = 0; i < c->cap; i++)
		if (c->slots[i].id != QFD_NOID)
			*cache_slot(&n, c->slots[i].id) = c->slots[i];
	free(c->slots);
	*c = n;
	return 0;
}

/*
 * Remember id's name (NULL: it has none).  A name already known stays:
 * the first source to answer wins, as the first entry in a database does.
 */
static int cache_put(struct cache *c, uint32_t id, const char *name)
{
	struct slot *s;
	char *dup;

	if ((c->used + 1) * 2 > c->cap && cache_grow(c))
		return -ENOMEM;
	s = cache_slot(c, id);
	if (s->id == id && (s->name || !name))
		return 0;
	dup = name ? strdup(name) : NULL;
	if (name && !dup)
		return -ENOMEM;
	if (s->id != id)
		c->used++;
	s->id = id;
	s->name = dup;
	return 0;
}

/*
 * Count one more lookup in type's database; past ENUM_AFTER (or
 * ENUM_AFTER_LISTED) read it whole once.  Ids it does not list are still
 * looked up one by one: a directory service may answer for ids it does
 * not enumerate.
 */
static void count_lookup(int type)
{
	struct cache *c = &caches[type];

	if (tables[type].loaded)
		return;
	c->lookups++;
	if (c->lookups > (lists_all(type) ? ENUM_AFTER_LISTED : ENUM_AFTER))
		load(type);
}

/* The name nss gives id, valid until the next nss call; NULL for none. */
static const char *nss_name(int type, uint32_t id)
{
	const char *name = NULL;
	struct passwd *pw;
	struct group *gr;

	errno = 0;
	if (type == QFD_USR && (pw = getpwuid(id)))
		name = pw->pw_name;
	else if (type == QFD_GRP && (gr = getgrgid(id)))
		name = gr->gr_name;
	if (!name)
		db_failed(type, errno);
	return name;
}

const char *qfd_id_name(int type, uint32_t id)
{
	struct cache *c = &caches[type];
	const struct slot *s;

	if (type == QFD_PRJ)
		return table_name(load(type), id);
	s = cache_find(c, id);
	if (s && s->name)
		return s->name;
	if (!s)
		count_lookup(type);
	/*
	 * The table is not copied into the cache (a second map of 100,000
	 * names was a fifth of a report's memory), so it is asked here: also
	 * for an id nss had no name for before it was read, which the
	 * enumeration may list.  When the enumeration had every name there
	 * is, an id it lacks has none; nss is never asked twice for one id.
	 */
	if (tables[type].loaded) {
		const char *name = table_name(&tables[type], id);

		if (name || tables[type].complete || s)
			return name;
	} else if (s) {
		return NULL;
	}
	if (cache_put(c, id, nss_name(type, id)))
		return NULL;
	return cache_find(c, id)->name;
}

static bool nss_id(int type, const char *name, uint32_t *id)
{
	struct passwd *pw = NULL;
	struct group *gr = NULL;

	errno = 0;
	if (type == QFD_USR && (pw = getpwnam(name))) {
		*id = pw->pw_uid;
		/* and its name, for the report that follows */
		cache_put(&caches[type], pw->pw_uid, pw->pw_name);
	} else if (type == QFD_GRP && (gr = getgrnam(name))) {
		*id = gr->gr_gid;
		cache_put(&caches[type], gr->gr_gid, gr->gr_name);
	}
	if (!pw && !gr)
		db_failed(type, errno);
	return pw || gr;
}

/*
 * A name through nss, or from the enumeration once there was one: nss
 * is asked about a name the enumeration lacks only when its sources may
 * know more than they list.  A number is looked up as a name only while
 * there are few: it is almost never also a name, and a miss costs a
 * millisecond through some nss modules (100,000 of them in a batch).
 */
static bool name_to_id(int type, const char *name, uint32_t *id, bool numeric)
{
	if (type == QFD_PRJ)
		return table_id(load(type), name, id);
	count_lookup(type);
	if (tables[type].loaded && table_id(&tables[type], name, id))
		return true;
	if (tables[type].complete || (numeric && tables[type].loaded))
		return false;
	return nss_id(type, name, id);
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

/*
 * The longest user or group name: glibc's LOGIN_NAME_MAX less its NUL.
 * Not useradd's 32: names from LDAP or sssd (alice@corp.example.com) may
 * be longer.  A name past it is refused before nss sees it: systemd's
 * module aborts qfd on a 4 MiB one (an alloca over its limit).
 */
static size_t name_max(void)
{
	long n = sysconf(_SC_LOGIN_NAME_MAX);

	return n > 1 ? (size_t)n - 1 : 255;
}

int qfd_id_parse(int type, const char *who, uint32_t *id)
{
	uint32_t num, named;
	int rc;

	if (who[0] == '#')
		return parse_number(who + 1, id);
	if (!*who)
		return -EINVAL;
	if (type != QFD_PRJ && strnlen(who, name_max() + 1) > name_max())
		return -ENAMETOOLONG;
	if (isdigit((unsigned char)who[0])) {
		rc = parse_number(who, &num);
		if (rc == -ERANGE)
			return rc;
		if (!rc) {
			if (name_to_id(type, who, &named, true) && named != num)
				return -EEXIST;
			*id = num;
			return 0;
		}
	}
	return name_to_id(type, who, id, false) ? 0 : -ENOENT;
}

size_t qfd_utf8_decode(const unsigned char *s, uint32_t *cp)
{
	uint32_t c;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	/* a NUL ends the loop as any byte that does not continue would */
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

char *qfd_shown_n(const char *s, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strnlen(s, len);
	size_t o = 0, n;
	uint32_t cp;

	while (p < end && p - (const unsigned char *)s < QFD_SHOWN_MAX) {
		/* C1 controls (U+0080 to U+009F) act on terminals too */
		if (*p < 0x80)
			n = *p >= 0x20 && *p != 0x7f && *p != '\\';
		else if (!(n = qfd_utf8_decode(p, &cp)) || cp < 0xa0)
			n = 0;
		if (n) {
			memcpy(buf + o, p, n);
			o += n;
			p += n;
			continue;
		}
		buf[o++] = '\\';
		buf[o++] = 'x';
		buf[o++] = hex[*p >> 4];
		buf[o++] = hex[*p & 0xf];
		p++;
	}
	if (p < end) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

char *qfd_shown(const char *s, char *buf)
{
	return qfd_shown_n(s, SIZE_MAX, buf);
}

const char *qfd_id_strerror(int type, const char *rawwho, int rc, char *buf,
			    size_t len)
{
	const char *kind = qfd_type_name(type);
	char who[QFD_SHOWN_LEN];

	qfd_shown(rawwho, who);
	switch (rc) {
	case -ENAMETOOLONG:
		snprintf(buf, len, "%s name '%s' is longer than the %zu bytes a name may have",
			 kind, who, name_max());
		break;
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
		names_free(tables[t].names);
		free(tables[t].byid);
		free(tables[t].byname);
		memset(&tables[t], 0, sizeof(tables[t]));
		for (i = 0; i < caches[t].cap; i++)
			if (caches[t].slots[i].id != QFD_NOID)
				free(caches[t].slots[i].name);
		free(caches[t].slots);
		memset(&caches[t], 0, sizeof(caches[t]));
	}
}
