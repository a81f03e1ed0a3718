// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packed list of limit requests of 'qfd set' and 'qfd apply' (batch.h).
 *
 * Both are all or nothing: every request is read and planned before the
 * first write, and the old values of every id written are kept to put
 * them back.  Kept as they are used, that is 112 bytes an id; but the
 * values of a long list repeat (the same limits for a whole class of
 * users, the same ones found in the kernel), so each distinct set of
 * values is kept once, found again through a hash table, and a request
 * is its id and the index of its values.  Names are kept only where WHO
 * was not the id's own "#ID", and line numbers only for batch files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "units.h"

/* How a request's values are kept (written is the item's, not theirs). */
static void pack(const struct qfd_setreq *r, struct qfd_setvals *v)
{
	memset(v, 0, sizeof(*v));
	memcpy(v->lim, r->lim, sizeof(v->lim));
	memcpy(v->old, r->old, sizeof(v->old));
	memcpy(v->timer, r->timer, sizeof(v->timer));
	memcpy(v->old_timer, r->old_timer, sizeof(v->old_timer));
	v->asked = r->asked;
	v->mask = r->mask;
	v->up = r->up;
	v->down = r->down;
}

/* A mix of the values (their size is a multiple of 8 bytes). */
static uint32_t vals_hash(const struct qfd_setvals *v)
{
	const unsigned char *p = (const unsigned char *)v;
	uint64_t h = 0x9e3779b97f4a7c15ull, w;
	size_t i;

	for (i = 0; i < sizeof(*v); i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (uint32_t)h;
}

static bool vals_eq(const struct qfd_setvals *a, const struct qfd_setvals *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Put values idx in the first free slot from their hash on. */
static void hash_place(struct qfd_setlist *l, uint32_t idx)
{
	size_t mask = l->hash_cap - 1, j = l->hashes[idx] & mask;

	while (l->hash[j])
		j = (j + 1) & mask;
	l->hash[j] = idx + 1;
}

/* Twice as many slots, every value placed again. */
static int hash_grow(struct qfd_setlist *l)
{
	size_t cap = l->hash_cap ? 2 * l->hash_cap : 64, i;
	uint32_t *h = calloc(cap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	free(l->hash);
	l->hash = h;
	l->hash_cap = cap;
	for (i = 0; i < l->nvals; i++)
		hash_place(l, (uint32_t)i);
	return 0;
}

/*
 * Take values idx out of the table, moving back the ones after it that
 * would otherwise no longer be found (linear probing has no holes).
 */
static void hash_remove(struct qfd_setlist *l, uint32_t idx)
{
	size_t mask = l->hash_cap - 1, i, k, home;

	i = l->hashes[idx] & mask;
	while (l->hash[i] != idx + 1)
		i = (i + 1) & mask;
	for (;;) {
		l->hash[i] = 0;
		for (k = (i + 1) & mask; l->hash[k]; k = (k + 1) & mask) {
			home = l->hashes[l->hash[k] - 1] & mask;
			/* movable unless its home lies cyclically in (i, k] */
			if (i <= k ? (home <= i || home > k) : (home <= i && home > k))
				break;
		}
		if (!l->hash[k])
			return;
		l->hash[i] = l->hash[k];
		i = k;
	}
}

/* Append v, of hash h, as the next distinct values, with no request yet. */
static int vals_append(struct qfd_setlist *l, const struct qfd_setvals *v,
		       uint32_t h)
{
	struct qfd_setvals *nv;
	uint32_t *refs, *hashes;
	size_t na;

	if (l->nvals == QFD_VALS_MAX)
		return -ENOMEM;
	if (l->nvals == l->vals_alloc) {
		na = l->vals_alloc ? 2 * l->vals_alloc : 16;
		nv = reallocarray(l->vals, na, sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		l->vals = nv;
		refs = reallocarray(l->refs, na, sizeof(*refs));
		if (!refs)
			return -ENOMEM;
		l->refs = refs;
		hashes = reallocarray(l->hashes, na, sizeof(*hashes));
		if (!hashes)
			return -ENOMEM;
		l->hashes = hashes;
		l->vals_alloc = na;
	}
	l->refs[l->nvals] = 0;
	l->hashes[l->nvals] = h;
	l->vals[l->nvals++] = *v;
	return 0;
}

/*
 * Whether v is kept already, and where.  last is the index the caller's
 * neighbour used: a list of the same limits finds it without hashing.
 * Otherwise *h is v's hash, for adding it.
 */
static bool find(const struct qfd_setlist *l, const struct qfd_setvals *v,
		 uint32_t last, uint32_t *idx, uint32_t *h)
{
	size_t mask = l->hash_cap - 1, j;
	uint32_t k;

	if (last < l->nvals && vals_eq(&l->vals[last], v)) {
		*idx = last;
		return true;
	}
	*h = vals_hash(v);
	if (!l->hash_cap)
		return false;
	for (j = *h & mask; (k = l->hash[j]); j = (j + 1) & mask) {
		if (l->hashes[k - 1] == *h && vals_eq(&l->vals[k - 1], v)) {
			*idx = k - 1;
			return true;
		}
	}
	return false;
}

/* The index of v, added when new, one more request counted: 0 or -ENOMEM. */
static int intern(struct qfd_setlist *l, const struct qfd_setvals *v,
		  uint32_t last, uint32_t *idx)
{
	uint32_t h;

	if (!find(l, v, last, idx, &h)) {
		/* at most half full, so that a miss ends soon */
		if (2 * (l->nvals + 1) > l->hash_cap && hash_grow(l))
			return -ENOMEM;
		if (vals_append(l, v, h))
			return -ENOMEM;
		*idx = (uint32_t)l->nvals - 1;
		hash_place(l, *idx);
	}
	l->refs[*idx]++;
	return 0;
}

/* Room for one more request in v and in the side arrays that exist. */
static int items_reserve(struct qfd_setlist *l)
{
	size_t na = l->alloc ? l->alloc * 2 : 64;
	struct qfd_setitem *v;
	uint32_t *a;

	if (l->n < l->alloc)
		return 0;
	v = reallocarray(l->v, na, sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	if (l->who) {
		a = reallocarray(l->who, na, sizeof(*a));
		if (!a)
			return -ENOMEM;
		l->who = a;
	}
	if (l->line) {
		a = reallocarray(l->line, na, sizeof(*a));
		if (!a)
			return -ENOMEM;
		l->line = a;
	}
	l->alloc = na;
	return 0;
}

/* A side array for every request so far, each fill (when it first matters). */
static int side_array(const struct qfd_setlist *l, uint32_t **a, uint32_t fill)
{
	size_t i;

	*a = reallocarray(NULL, l->alloc, sizeof(**a));
	if (!*a)
		return -ENOMEM;
	for (i = 0; i < l->n; i++)
		(*a)[i] = fill;
	return 0;
}

/* "#ID": qfd_format_u64() writes the digits in place, no scratch copy. */
void qfd_setreq_id_name(uint32_t id, char *buf)
{
	buf[0] = '#';
	qfd_format_u64(id, buf + 1);
}

/*
 * WHO's offset in names, or QFD_WHO_ID when it is the id's "#ID" (or
 * NULL, which says so).
 */
static int who_offset(struct qfd_setlist *l, const char *who, uint32_t id,
		      uint32_t *off)
{
	char idwho[QFD_ID_NAME_LEN];
	size_t len;
	char *s;

	if (who)
		qfd_setreq_id_name(id, idwho);
	if (!who || !strcmp(who, idwho)) {
		*off = QFD_WHO_ID;
		return 0;
	}
	len = strlen(who) + 1;
	if (l->names_len + len > l->names_alloc) {
		size_t na = l->names_alloc ? l->names_alloc * 2 : 1024;

		while (na < l->names_len + len)
			na *= 2;
		s = realloc(l->names, na);
		if (!s)
			return -ENOMEM;
		l->names = s;
		l->names_alloc = na;
	}
	/* offsets, not pointers: the buffer moves as it grows */
	memcpy(l->names + l->names_len, who, len);
	*off = (uint32_t)l->names_len;
	l->names_len += len;
	return 0;
}

int qfd_setlist_add(struct qfd_setlist *l, const char *who,
		    const struct qfd_setreq *r)
{
	uint32_t off, idx, last = l->n ? l->v[l->n - 1].vals & ~QFD_ITEM_WRITTEN : 0;
	struct qfd_setvals v;

	pack(r, &v);
	if (l->n >= UINT32_MAX || items_reserve(l) ||
	    who_offset(l, who, r->id, &off) || intern(l, &v, last, &idx))
		return -ENOMEM;
	if (off != QFD_WHO_ID && !l->who && side_array(l, &l->who, QFD_WHO_ID))
		return -ENOMEM;
	if (r->line && !l->line && side_array(l, &l->line, 0))
		return -ENOMEM;
	if (l->who)
		l->who[l->n] = off;
	if (l->line)
		l->line[l->n] = r->line;
	l->v[l->n++] = (struct qfd_setitem){ r->id, idx };
	return 0;
}

void qfd_setlist_get(const struct qfd_setlist *l, size_t n, struct qfd_setreq *r)
{
	const struct qfd_setitem *it = &l->v[n];
	const struct qfd_setvals *v = &l->vals[it->vals & ~QFD_ITEM_WRITTEN];

	memcpy(r->lim, v->lim, sizeof(r->lim));
	memcpy(r->old, v->old, sizeof(r->old));
	memcpy(r->timer, v->timer, sizeof(r->timer));
	memcpy(r->old_timer, v->old_timer, sizeof(r->old_timer));
	r->asked = v->asked;
	r->mask = v->mask;
	r->up = v->up;
	r->down = v->down;
	r->written = (it->vals & QFD_ITEM_WRITTEN) != 0;
	r->id = it->id;
	r->line = l->line ? l->line[n] : 0;
	r->who = l->who ? l->who[n] : QFD_WHO_ID;
	if (r->who == QFD_WHO_ID)
		qfd_setreq_id_name(r->id, r->idwho);
	else
		r->idwho[0] = '\0';
}

/*
 * Values of request n that only it used become r's in place: the plan
 * of a list whose ids all have limits of their own then needs no second
 * copy of them (the old values are added to the same ones).
 */
static void rewrite(struct qfd_setlist *l, uint32_t idx,
		    const struct qfd_setvals *v, uint32_t h)
{
	hash_remove(l, idx);
	l->vals[idx] = *v;
	l->hashes[idx] = h;
	hash_place(l, idx);
}

int qfd_setlist_put(struct qfd_setlist *l, size_t n, const struct qfd_setreq *r)
{
	uint32_t last = n ? l->v[n - 1].vals & ~QFD_ITEM_WRITTEN : 0;
	uint32_t old = l->v[n].vals & ~QFD_ITEM_WRITTEN, idx, h;
	struct qfd_setvals v;

	pack(r, &v);
	if (vals_eq(&l->vals[old], &v)) {
		idx = old;
	} else if (l->refs[old] == 1 && !find(l, &v, last, &idx, &h)) {
		rewrite(l, old, &v, h);
		idx = old;
	} else {
		if (intern(l, &v, last, &idx))
			return -ENOMEM;
		l->refs[old]--;	/* at 0 kept, and found again if asked */
	}
	l->v[n].vals = idx | (r->written ? QFD_ITEM_WRITTEN : 0);
	return 0;
}

void qfd_setlist_free(struct qfd_setlist *l)
{
	free(l->v);
	free(l->who);
	free(l->line);
	free(l->names);
	free(l->vals);
	free(l->refs);
	free(l->hashes);
	free(l->hash);
	memset(l, 0, sizeof(*l));
}
