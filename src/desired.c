// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The desired-state document of 'qfd apply', read through jsonread.c: the
 * limits arrays item by item as they are read, the rest as json-c trees.
 *
 * Every item is checked, not only up to the first bad one, so a run shows
 * all there is to fix; each message names the item by its place in the
 * document ("filesystems[0].user.limits[3].space-hard"), which is what a
 * generated document (Ansible, a dump) can be searched for.  Unknown keys
 * are errors: a misspelt "space-hrad" must not pass as "keep the limit".
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <json.h>

#include "desired.h"
#include "ids.h"
#include "jsonread.h"
#include "quota.h"
#include "units.h"

/* Past this many, bad items are counted, not printed. */
#define MAX_REPORTED	10

const char *const qfd_want_type_key[QFD_NTYPES] = { "user", "group", "project" };
const char *const qfd_want_lim_key[QFD_NLIMITS] = {
	"space-soft", "space-hard", "files-soft", "files-hard",
};
const char *const qfd_want_timer_key[QFD_NTIMERS] = {
	"space-grace-ends", "files-grace-ends",
};
static const char *const grace_key[QFD_NTIMERS] = { "space", "files" };

/* Past this many levels a place is cut short: the schema has six. */
#define MAX_LEVELS	16

/* One level of a place: a key, or an index when key is NULL. */
struct level {
	const char *key;
	size_t idx;
};

struct parser {
	struct qfd_want *w;
	struct qfd_jr *jr;
	/*
	 * Where the parser is, kept as keys and indices and written out only
	 * for a message: formatting it at every key was a tenth of the time
	 * of a document of limits.  item: the reader's streamed item, whose
	 * place (qfd_jr_place()) comes first.
	 */
	const struct qfd_jr *item;
	struct level lv[MAX_LEVELS];
	size_t depth;
};

/* "filesystems[0].user.limits[3].space-hard", or "" at the top. */
static void place(const struct parser *p, char *buf, size_t len)
{
	size_t i, n;
	int w;

	buf[0] = '\0';
	if (p->item)
		qfd_jr_place(p->item, buf, len);
	n = strlen(buf);
	for (i = 0; i < p->depth && i < MAX_LEVELS && n < len; i++) {
		if (p->lv[i].key)
			w = snprintf(buf + n, len - n, "%s%s", n ? "." : "", p->lv[i].key);
		else
			w = snprintf(buf + n, len - n, "[%zu]", p->lv[i].idx);
		n += w > 0 ? (size_t)w : 0;
	}
}

static void bad(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad(struct parser *p, const char *fmt, ...)
{
	char where[256];
	va_list ap;

	if (p->w->nbad++ >= MAX_REPORTED)
		return;
	place(p, where, sizeof(where));
	fprintf(stderr, "%s: %s: %s: ", program_invocation_short_name,
		p->w->file, where[0] ? where : "the document");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Descend into key (or [idx] when key is NULL), which must live until
 * leave(); returns the old depth.
 */
static size_t enter(struct parser *p, const char *key, size_t idx)
{
	if (p->depth < MAX_LEVELS)
		p->lv[p->depth] = (struct level){ key, idx };
	return p->depth++;
}

static void leave(struct parser *p, size_t n)
{
	p->depth = n;
}

static bool want_type(struct parser *p, json_object *o, json_type t,
		      const char *what)
{
	if (json_object_is_type(o, t))
		return true;
	bad(p, "must be %s", what);
	return false;
}

static bool want_kind(struct parser *p, const struct qfd_jr_val *v,
		      enum qfd_jr_kind k, const char *what)
{
	if (v->kind == k)
		return true;
	bad(p, "must be %s", what);
	return false;
}

/* A JSON integer >= 0 (what json-c would give a uint64 for) */
static bool is_uint(const struct qfd_jr_val *v)
{
	return v->kind == QFD_JR_UINT || (v->kind == QFD_JR_INT && v->i >= 0);
}

/*
 * A whole number >= 0 from a JSON integer; false otherwise, reported as
 * "must be " what (what the field takes: "10G" is no id or duration).
 */
static bool get_uint(struct parser *p, const struct qfd_jr_val *o, uint64_t *v,
		     const char *what)
{
	if (!is_uint(o)) {
		bad(p, "must be %s", what);
		return false;
	}
	*v = o->u;
	return true;
}

/*
 * A limit: null is "no limit"; 0 is refused, because the kernel reads a
 * limit of 0 as none, and a document that says 0 most likely meant "none
 * may be used", which no quota can say.
 */
static bool get_limit(struct parser *p, const struct qfd_jr_val *o, int lim,
		      uint64_t *v, int *dir)
{
	const char *s;
	int rc;

	*dir = 0;
	if (o->kind == QFD_JR_NULL) {
		*v = 0;
		return true;
	}
	if (o->kind == QFD_JR_STRING) {
		s = o->s;
		rc = qfd_parse_limit_rel(lim, s, v, dir);
		if (rc) {
			/* batch's examples offer 0, which is none there but not here */
			bad(p, "'%s': %s", s, rc == -ERANGE ? "too large" :
			    lim <= QFD_LIM_SPACE_HARD ?
			    "not a size (examples: 500M, 1.5G, 2TiB; null for no limit)" :
			    "not a count (examples: 1000, 10k, 2.5m; null for no limit)");
			return false;
		}
	} else if (!get_uint(p, o, v, lim <= QFD_LIM_SPACE_HARD ?
			     "a whole number of at least 0, or a string such as \"10G\"" :
			     "a whole number of at least 0, or a string such as \"10k\"")) {
		return false;
	} else if (lim <= QFD_LIM_SPACE_HARD) {
		if (*v > UINT64_MAX - QFD_LIMIT_UNIT) {
			bad(p, "too large");
			return false;
		}
		*v = qfd_quota_round_limit(*v);
	}
	if (!*v && !*dir) {
		bad(p, "0 is not a limit (the kernel reads it as none): write null for no limit");
		return false;
	}
	return true;
}

static bool get_duration(struct parser *p, const struct qfd_jr_val *o,
			 uint64_t *v)
{
	int rc;

	if (o->kind == QFD_JR_STRING) {
		rc = qfd_parse_duration(o->s, v);
		if (rc) {
			bad(p, "'%s': not a duration (examples: 90s, 15m, 12h, 7d, 2w, 1d12h)",
			    o->s);
			return false;
		}
	} else if (!get_uint(p, o, v, "a whole number of seconds, or a string such as \"7d\"")) {
		return false;
	}
	if (*v > QFD_GRACE_MAX) {
		bad(p, "too long: the kernel keeps at most 4294967295 seconds (about 136 years)");
		return false;
	}
	return true;
}

static void parse_grace(struct parser *p, json_object *o, struct qfd_want_type *t)
{
	int i;

	if (!want_type(p, o, json_type_object, "an object: {\"space\": T, \"files\": T}"))
		return;
	json_object_object_foreach(o, key, val) {
		size_t n = enter(p, key, 0);
		struct qfd_jr_val v;

		qfd_jr_val_of(val, &v);
		for (i = 0; i < QFD_NTIMERS; i++)
			if (!strcmp(key, grace_key[i]))
				break;
		if (i == QFD_NTIMERS)
			bad(p, "unknown key: a grace period is \"space\" or \"files\"");
		else if (get_duration(p, &v, &t->grace[i]))
			t->grace_asked[i] = true;
		leave(p, n);
	}
}

/*
 * A running grace time: when it ends, in seconds since the epoch, as the
 * kernel keeps it.  Absolute, not "time left", so that the same document
 * applied twice sets the same deadline and the second run changes nothing.
 */
static bool get_deadline(struct parser *p, const struct qfd_jr_val *o,
			 int64_t *v)
{
	uint64_t u = o->u;

	if (!is_uint(o) || !u || u > QFD_DEADLINE_MAX) {
		bad(p, "must be a time in seconds since 1970 (UTC), from 1 to %lld",
		    (long long)QFD_DEADLINE_MAX);
		return false;
	}
	*v = (int64_t)u;
	return true;
}

/*
 * "alice", "#2001", or 2001: the id, or false (reported).  who is WHO as
 * written, or "" for a number that is what "#ID" would be: formatting it
 * for qfd_setlist_add() to format again and compare was a tenth of an
 * item's checks.
 */
static bool get_who(struct parser *p, const struct qfd_jr_val *o, int type,
		    char *who, size_t len, uint32_t *id)
{
	char msg[256];
	uint64_t v;
	int rc;

	if (o->kind == QFD_JR_INT || o->kind == QFD_JR_UINT) {
		if (!get_uint(p, o, &v, "a name, \"#ID\" or a whole number of at least 0"))
			return false;
		/* what qfd_id_parse() makes of "#ID", without a snprintf per item */
		if (v < UINT32_MAX) {
			who[0] = '\0';
			*id = (uint32_t)v;
			return true;
		}
		snprintf(who, len, "#%llu", (unsigned long long)v);
	} else if (want_kind(p, o, QFD_JR_STRING,
			     "a name, \"#ID\" or a whole number of at least 0")) {
		snprintf(who, len, "%s", o->s);
	} else {
		return false;
	}
	rc = qfd_id_parse(type, who, id);
	if (rc) {
		bad(p, "%s", qfd_id_strerror(type, who, rc, msg, sizeof(msg)));
		return false;
	}
	return true;
}

/* A project directory's project, as json-c read it. */
static bool get_project(struct parser *p, json_object *o, char *who, size_t len,
			uint32_t *id)
{
	struct qfd_jr_val v;

	qfd_jr_val_of(o, &v);
	return get_who(p, &v, QFD_PRJ, who, len, id);
}

/* An item's keys: the limits (QFD_LIM_*), then the timers, then "who". */
enum { KEY_TIMER = QFD_NLIMITS, KEY_WHO = QFD_NLIMITS + QFD_NTIMERS };

/*
 * Which of an item's keys f is, or -1.  Their lengths and first and last
 * bytes tell them apart, so a key is compared only with the one it may
 * be, and in a few instructions, as the length is known (a strcmp() with
 * each in turn was a sixth of an item's checks).  qfd_want_lim_key is in
 * QFD_LIM_* order: "space-soft", "space-hard", "files-soft", "files-hard".
 */
static int item_key(const struct qfd_jr_field *f)
{
	const char *key = f->key;
	int k;

	switch (f->klen) {
	case 3:
		return memcmp(key, "who", 3) ? -1 : KEY_WHO;
	case 10:
		k = (key[0] == 'f') * 2 + (key[9] == 'd');
		return memcmp(key, qfd_want_lim_key[k], 10) ? -1 : k;
	case 16:
		k = key[0] == 'f';
		return memcmp(key, qfd_want_timer_key[k], 16) ? -1 :
		       KEY_TIMER + k;
	}
	return -1;
}

/* The fields of one limits item; false when any was bad (reported). */
static bool parse_fields(struct parser *p, const struct qfd_jr_item *it,
			 uint64_t *lim, int64_t *timer, unsigned int *asked,
			 unsigned int *rel)
{
	bool ok = true;
	int i, k, t, dir;
	size_t f;

	for (f = 0; f < it->n; f++) {
		const struct qfd_jr_val *val = &it->f[f].v;
		size_t n = enter(p, it->f[f].key, 0);

		k = item_key(&it->f[f]);
		i = k;
		if (k == KEY_WHO) {
			/* read by the caller */
		} else if (k >= KEY_TIMER) {
			t = k - KEY_TIMER;
			if (get_deadline(p, val, &timer[t]))
				*asked |= QFD_SET_SPACE_TIMER << t;
			else
				ok = false;
		} else if (k < 0) {
			bad(p, "unknown key: an item has \"who\", \"space-soft\", \"space-hard\", \"files-soft\", \"files-hard\", \"space-grace-ends\", \"files-grace-ends\"");
			ok = false;
		} else if (get_limit(p, val, i, &lim[i], &dir)) {
			*asked |= 1u << i;
			rel[dir > 0] |= dir ? 1u << i : 0;
		} else {
			ok = false;
		}
		leave(p, n);
	}
	for (i = 0; ok && i < QFD_NLIMITS; i += 2) {
		unsigned int both = 3u << i;

		/* relative values are compared once the kernel's are known */
		if ((*asked & both) == both && !((rel[0] | rel[1]) & both) && lim[i + 1] && lim[i] > lim[i + 1]) {
			bad(p, "%s exceeds %s", qfd_want_lim_key[i], qfd_want_lim_key[i + 1]);
			ok = false;
		}
	}
	return ok;
}

/* The value of "who" in an item, or NULL. */
static const struct qfd_jr_val *item_who(const struct qfd_jr_item *it)
{
	size_t i;

	for (i = 0; i < it->n; i++)
		if (it->f[i].klen == 3 && !strcmp(it->f[i].key, "who"))
			return &it->f[i].v;
	return NULL;
}

static int parse_item(struct parser *p, const struct qfd_jr_item *it, int type,
		      struct qfd_setlist *l)
{
	uint64_t lim[QFD_NLIMITS] = { 0 };
	int64_t timer[QFD_NTIMERS] = { 0 };
	unsigned int asked = 0, rel[2] = { 0, 0 };	/* -N, +N */
	const struct qfd_jr_val *jwho;
	struct qfd_setreq r;
	char who[256];
	uint32_t id;
	size_t n;
	bool ok;

	if (!want_kind(p, &it->v, QFD_JR_OBJECT, "an object: {\"who\": ..., \"space-hard\": ...}"))
		return 0;
	jwho = item_who(it);
	if (!jwho) {
		bad(p, "no \"who\": name the user, group or project");
		return 0;
	}
	ok = parse_fields(p, it, lim, timer, &asked, rel);
	n = enter(p, "who", 0);
	ok = get_who(p, jwho, type, who, sizeof(who), &id) && ok;
	/* XFS keeps the grace periods of everyone in id 0's timers */
	if (ok && !id && (asked & (QFD_SET_SPACE_TIMER | QFD_SET_FILES_TIMER))) {
		bad(p, "id 0 has no grace time of its own (its timers are the grace periods: \"grace\")");
		ok = false;
	}
	leave(p, n);
	if (!ok)
		return 0;
	memset(&r, 0, sizeof(r));
	r.id = id;
	memcpy(r.lim, lim, sizeof(lim));
	memcpy(r.timer, timer, sizeof(timer));
	r.asked = (uint8_t)asked;
	r.down = (uint8_t)rel[0];
	r.up = (uint8_t)rel[1];
	return qfd_setlist_add(l, who[0] ? who : NULL, &r);
}

/*
 * The items themselves were read as they streamed in (limits_item()):
 * is_limits() streams every array that reaches here, so the tree's is
 * empty.
 */
static int parse_limits(struct parser *p, json_object *o, int type,
			struct qfd_setlist *l)
{
	int rc;

	if (!want_type(p, o, json_type_array, "an array of items"))
		return 0;
	if (json_object_array_length(o)) {
		bad(p, "not read as a list of limits (a bug in qfd: please report it)");
		return 0;
	}
	rc = qfd_setlist_check_duplicates(l, type);
	if (rc == -EEXIST) {
		p->w->nbad++;
		rc = 0;
	}
	return rc;
}

static int parse_type(struct parser *p, json_object *o, int type,
		      struct qfd_want_type *t)
{
	int rc = 0;

	if (!want_type(p, o, json_type_object, "an object"))
		return 0;
	t->present = true;
	json_object_object_foreach(o, key, val) {
		size_t n = enter(p, key, 0);

		if (!strcmp(key, "enforce")) {
			if (want_type(p, val, json_type_boolean, "true or false"))
				t->enforce = json_object_get_boolean(val) ?
					     QFD_ENF_ON : QFD_ENF_OFF;
		} else if (!strcmp(key, "grace")) {
			parse_grace(p, val, t);
		} else if (!strcmp(key, "limits")) {
			rc = parse_limits(p, val, type, &t->list);
		} else {
			bad(p, "unknown key: a quota type has \"enforce\", \"grace\", \"limits\"");
		}
		leave(p, n);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * A directory's path: relative to the filesystem's mount point, so that
 * --path moves the document to another filesystem whole.
 */
static bool get_dir_path(struct parser *p, json_object *o, char **path)
{
	const char *s;

	if (!want_type(p, o, json_type_string, "a directory, relative to the filesystem's mount point"))
		return false;
	s = json_object_get_string(o);
	if (!*s || *s == '/') {
		bad(p, "'%s': must be relative to the filesystem's mount point (\".\" for itself)", s);
		return false;
	}
	*path = strdup(s);
	return true;
}

/* One "project-dirs" item; false when it was bad (reported). */
static bool parse_dir(struct parser *p, json_object *o, struct qfd_want_dir *d)
{
	char who[256];
	bool ok = true, named = false;

	if (!want_type(p, o, json_type_object, "an object: {\"path\": ..., \"project\": ...}"))
		return false;
	d->inherit = true;
	json_object_object_foreach(o, key, val) {
		size_t n = enter(p, key, 0);

		if (!strcmp(key, "path"))
			ok = get_dir_path(p, val, &d->path) && ok;
		else if (!strcmp(key, "project"))
			ok = (named = get_project(p, val, who, sizeof(who), &d->projid)) && ok;
		else if (strcmp(key, "inherit")) {
			bad(p, "unknown key: a project directory has \"path\", \"project\", \"inherit\"");
			ok = false;
		} else if (want_type(p, val, json_type_boolean, "true or false")) {
			d->inherit = json_object_get_boolean(val);
		} else {
			ok = false;
		}
		leave(p, n);
	}
	if (!d->path && ok)
		bad(p, "no \"path\": name the directory");
	if (!named && ok)
		bad(p, "no \"project\": name the project (0 for none)");
	return ok && d->path && named;
}

static int parse_dirs(struct parser *p, json_object *o, struct qfd_want_fs *f)
{
	size_t i, n, len;

	if (!want_type(p, o, json_type_array, "an array of directories"))
		return 0;
	len = json_object_array_length(o);
	f->dirs = calloc(len ? len : 1, sizeof(*f->dirs));
	if (!f->dirs)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		struct qfd_want_dir *d = &f->dirs[f->ndirs];

		n = enter(p, NULL, i);
		if (parse_dir(p, json_object_array_get_idx(o, i), d)) {
			f->ndirs++;
		} else {
			free(d->path);
			memset(d, 0, sizeof(*d));
		}
		leave(p, n);
	}
	return 0;
}

/* A filesystem's path: 0, also when it was bad (reported), or -ENOMEM. */
static int get_fs_path(struct parser *p, json_object *o, char **path)
{
	if (!want_type(p, o, json_type_string, "a path on the filesystem"))
		return 0;
	if (!json_object_get_string_len(o)) {
		bad(p, "empty: name a path on the filesystem");
		return 0;
	}
	*path = strdup(json_object_get_string(o));
	return *path ? 0 : -ENOMEM;
}

static int parse_fs(struct parser *p, json_object *o, struct qfd_want_fs *f)
{
	bool named = false;
	int rc = 0, i;

	if (!want_type(p, o, json_type_object, "an object: {\"path\": ..., \"user\": ...}"))
		return 0;
	json_object_object_foreach(o, key, val) {
		size_t n = enter(p, key, 0);

		for (i = 0; i < QFD_NTYPES; i++)
			if (!strcmp(key, qfd_want_type_key[i]))
				break;
		if (!strcmp(key, "path")) {
			named = true;
			rc = get_fs_path(p, val, &f->path);
		} else if (i < QFD_NTYPES) {
			rc = parse_type(p, val, i, &f->t[i]);
		} else if (!strcmp(key, "project-dirs")) {
			rc = parse_dirs(p, val, f);
		} else {
			bad(p, "unknown key: a filesystem has \"path\", \"user\", \"group\", \"project\", \"project-dirs\"");
		}
		leave(p, n);
		if (rc)
			return rc;
	}
	if (!named)
		bad(p, "no \"path\": name a path on the filesystem");
	return 0;
}

/*
 * At least n filesystems, zeroed: the limits read as they stream in come
 * before the document's shape is known.
 */
static int fs_reserve(struct qfd_want *w, size_t n)
{
	struct qfd_want_fs *fs;

	if (n <= w->nfs)
		return 0;
	if (n > w->fs_cap) {
		size_t cap = w->fs_cap ? w->fs_cap : 4;

		while (cap < n)
			cap *= 2;
		fs = reallocarray(w->fs, cap, sizeof(*fs));
		if (!fs)
			return -ENOMEM;
		w->fs = fs;
		w->fs_cap = cap;
	}
	memset(&w->fs[w->nfs], 0, (n - w->nfs) * sizeof(*w->fs));
	w->nfs = n;
	return 0;
}

static int parse_doc(struct parser *p, json_object *doc, const char *path)
{
	json_object *fss = NULL;
	size_t i, n, len;
	int rc;

	if (!want_type(p, doc, json_type_object, "an object: {\"filesystems\": [...]}"))
		return 0;
	json_object_object_foreach(doc, key, val) {
		if (strcmp(key, "filesystems")) {
			n = enter(p, key, 0);
			bad(p, "unknown key: the document has \"filesystems\"");
			leave(p, n);
		} else {
			fss = val;
		}
	}
	if (!fss) {
		bad(p, "no \"filesystems\": nothing to apply");
		return 0;
	}
	n = enter(p, "filesystems", 0);
	if (!want_type(p, fss, json_type_array, "an array"))
		return 0;
	len = json_object_array_length(fss);
	/* as an empty batch is: a run that would do nothing is a mistake */
	if (!len) {
		bad(p, "empty: nothing to apply (name at least one filesystem)");
		return 0;
	}
	if (path && len != 1) {
		bad(p, "--path needs a document of one filesystem, not %zu", len);
		return 0;
	}
	if (fs_reserve(p->w, len))
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		size_t m = enter(p, NULL, i);

		rc = parse_fs(p, json_object_array_get_idx(fss, i), &p->w->fs[i]);
		leave(p, m);
		if (rc)
			return rc;
	}
	leave(p, n);
	if (path && p->w->nfs == 1) {
		free(p->w->fs[0].path);
		p->w->fs[0].path = strdup(path);
		if (!p->w->fs[0].path)
			return -ENOMEM;
	}
	return 0;
}

static int type_of(const char *key)
{
	int t;

	for (t = 0; key && t < QFD_NTYPES; t++)
		if (!strcmp(key, qfd_want_type_key[t]))
			return t;
	return -1;
}

/* filesystems[I].TYPE.limits: the long arrays, read item by item. */
static bool is_limits(void *ctx, const struct qfd_jr *jr)
{
	const char *k = qfd_jr_key(jr, 0);

	(void)ctx;
	if (qfd_jr_depth(jr) != 5 || !k || strcmp(k, "filesystems") ||
	    qfd_jr_key(jr, 1) || type_of(qfd_jr_key(jr, 2)) < 0)
		return false;
	k = qfd_jr_key(jr, 3);
	return k && !strcmp(k, "limits");
}

static int limits_item(void *ctx, const struct qfd_jr *jr,
		       const struct qfd_jr_item *it)
{
	struct parser *p = ctx;
	size_t i = qfd_jr_index(jr, 1);
	int rc, type = type_of(qfd_jr_key(jr, 2));

	if (fs_reserve(p->w, i + 1))
		return -ENOMEM;
	p->item = jr;
	rc = parse_item(p, it, type, &p->w->fs[i].t[type].list);
	p->item = NULL;
	return rc;
}

static const struct qfd_jr_ops limits_ops = {
	.stream = is_limits,
	.item = limits_item,
};

static int begin(struct parser *p, struct qfd_want *w, const char *file)
{
	memset(w, 0, sizeof(*w));
	w->file = file;
	*p = (struct parser){ .w = w };
	p->jr = qfd_jr_new(&limits_ops, p);
	if (!p->jr) {
		warnx("%s: out of memory", file);
		return -ENOMEM;
	}
	return 0;
}

/* Check the rest of the document, once all of it is read. */
static int end(struct parser *p, int rc, const char *path)
{
	struct qfd_want *w = p->w;
	json_object *doc = NULL;
	size_t line, col;
	const char *what;

	if (!rc)
		rc = qfd_jr_finish(p->jr, &doc);
	if (rc == -EINVAL) {
		what = qfd_jr_error(p->jr, &line, &col);
		warnx("%s:%zu:%zu: %s", w->file, line, col, what);
		w->nbad++;
		rc = 0;
	} else if (!rc) {
		rc = parse_doc(p, doc, path);
	}
	json_object_put(doc);
	qfd_jr_free(p->jr);
	p->jr = NULL;
	if (rc == -ENOMEM)
		warnx("%s: out of memory", w->file);
	if (rc)
		return rc;
	if (w->nbad > MAX_REPORTED)
		warnx("%s: %zu more problems not shown", w->file, w->nbad - MAX_REPORTED);
	/* one problem is one line; more get a count, as batch files do */
	if (w->nbad > 1)
		warnx("%s: %zu problems: nothing was changed", w->file, w->nbad);
	return w->nbad ? -EINVAL : 0;
}

/*
 * Reading stops here, and a regular file larger than this is refused
 * unread: a document is about 100 bytes a limit, so 2 GiB is twenty
 * million limits; what goes on past that is a mistake (a device, an
 * endless pipe), and must not run until the disk or the memory is full.
 */
#define MAX_DOC		((size_t)2 << 30)

static void too_large(struct qfd_want *w)
{
	warnx("%s: larger than 2 GiB, the most apply reads: split the document (one per filesystem)",
	      w->file);
	w->nbad++;
}

/* Feed f to the reader until its end, an error or MAX_DOC bytes. */
static int feed_all(struct parser *p, FILE *f)
{
	char buf[65536];
	size_t n, total = 0;
	struct stat st;
	int rc = 0;

	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > MAX_DOC) {
		too_large(p->w);
		return -E2BIG;
	}
	while (!rc && (n = fread(buf, 1, sizeof(buf), f))) {
		total += n;
		if (total > MAX_DOC) {
			too_large(p->w);
			return -E2BIG;
		}
		rc = qfd_jr_feed(p->jr, buf, n);
	}
	if (!rc && ferror(f)) {
		warnx("%s: read error", p->w->file);
		rc = -EIO;
	}
	return rc;
}

int qfd_want_read(struct qfd_want *w, FILE *f, const char *file,
		  const char *path)
{
	struct parser p;
	int rc = begin(&p, w, file);

	if (rc)
		return rc;
	rc = feed_all(&p, f);
	if (rc == -E2BIG || rc == -EIO) {
		qfd_jr_free(p.jr);
		return rc == -EIO ? rc : -EINVAL;
	}
	return end(&p, rc, path);
}

void qfd_want_free(struct qfd_want *w)
{
	size_t i, n;
	int t;

	for (i = 0; i < w->nfs && w->fs; i++) {
		free(w->fs[i].path);
		for (n = 0; n < w->fs[i].ndirs; n++)
			free(w->fs[i].dirs[n].path);
		free(w->fs[i].dirs);
		for (t = 0; t < QFD_NTYPES; t++)
			qfd_setlist_free(&w->fs[i].t[t].list);
	}
	free(w->fs);
	memset(w, 0, sizeof(*w));
}
