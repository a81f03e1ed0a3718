// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prometheus text exposition format (version 0.0.4): every id's values
 * kept while the ids come, each family written from them at the end.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ids.h"
#include "mnt.h"
#include "output.h"
#include "prom.h"
#include "qfd.h"
#include "rows.h"
#include "units.h"

/*
 * The metrics are made in a buffer this big and written with write(2):
 * ten samples per id through stdio were a third of --prometheus' time
 * (callgrind), and a system call per sample is dear under emulation.
 */
#define OUT_BUF		65536
#define SAMPLE_MAX	(QFD_FMT_LEN + 2)	/* " NUMBER\n" */

enum {
	PF_SPACE,
	PF_SPACE_SOFT,
	PF_SPACE_HARD,
	PF_SPACE_GRACE,
	PF_FILES,
	PF_FILES_SOFT,
	PF_FILES_HARD,
	PF_FILES_GRACE,
	PF_STATUS,
	PF_SCRAPE,
	PF_NFAMILIES
};

/* All gauges; names and help texts as qfd-prometheus(8) documents them. */
static const struct {
	const char *name;
	const char *help;
} families[PF_NFAMILIES] = {
	[PF_SPACE] = { "qfd_quota_space_used_bytes",
		       "Space charged to the id, in bytes." },
	[PF_SPACE_SOFT] = { "qfd_quota_space_soft_limit_bytes",
			    "Space soft limit in bytes, 0 when there is none." },
	[PF_SPACE_HARD] = { "qfd_quota_space_hard_limit_bytes",
			    "Space hard limit in bytes, 0 when there is none." },
	[PF_SPACE_GRACE] = { "qfd_quota_space_grace_deadline_seconds",
			     "Unix time at which the space grace period ends, 0 when none is running." },
	[PF_FILES] = { "qfd_quota_files_used",
		       "Files (inodes) charged to the id." },
	[PF_FILES_SOFT] = { "qfd_quota_files_soft_limit",
			    "Files soft limit, 0 when there is none." },
	[PF_FILES_HARD] = { "qfd_quota_files_hard_limit",
			    "Files hard limit, 0 when there is none." },
	[PF_FILES_GRACE] = { "qfd_quota_files_grace_deadline_seconds",
			     "Unix time at which the files grace period ends, 0 when none is running." },
	[PF_STATUS] = { "qfd_quota_status",
			"0 within limits, 1 over a soft limit in grace, 2 grace expired, 3 at a hard limit." },
	[PF_SCRAPE] = { "qfd_quota_scrape_error",
			"1 when the quotas of this filesystem and type could not be read (quotas off, no quota support, permission denied)." },
};

/* Bytes that grow: the label arenas. */
struct buf {
	char *s;
	size_t len, alloc;
};

/* mountpoint, fstype and type of one walked filesystem and quota type. */
struct group {
	size_t off, len;	/* "{mountpoint=...,type=\"user\"" in grouplabels */
};

/*
 * One id, until the end: about 100 bytes with its labels, where the
 * temporary files of each family it replaced took ~900 (the samples as
 * text), and those were memory too where /tmp is a tmpfs.
 */
struct id_rec {
	uint64_t v[PF_SCRAPE];	/* the value of each per-id family */
	size_t labels;		/* ",id=...,name=...}" at this offset of idlabels */
	uint32_t group;
};

struct scrape_rec {
	uint32_t group;
	bool failed;
};

struct qfd_prom {
	struct buf grouplabels;
	struct group *groups;
	size_t ngroups, agroups;
	struct buf idlabels;	/* every id's labels, back to back, in order */
	struct id_rec *ids;
	size_t nids, aids;
	struct scrape_rec *scrapes;
	size_t nscrapes, ascrapes;
	const struct qfd_fs *fs;	/* of the last group */
	int type;
};

/* Where the metrics go at the end. */
struct out {
	int fd;
	int err;		/* the first failed write's -errno */
	size_t len;
	char buf[OUT_BUF];
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->alloc) {
		size_t na = (b->len + n + 1) * 2;
		char *p = realloc(b->s, na);

		if (!p)
			return -ENOMEM;
		b->s = p;
		b->alloc = na;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/*
 * arr with room for element n (of size sz), *alloc elements in all: arr
 * itself, or a larger copy; NULL when memory runs out (arr kept).
 */
static void *grow(void *arr, size_t n, size_t *alloc, size_t sz)
{
	size_t na;
	void *p;

	if (n < *alloc)
		return arr;
	na = *alloc ? *alloc * 2 : 64;
	if (na > SIZE_MAX / sz)
		return NULL;
	p = realloc(arr, na * sz);
	if (p)
		*alloc = na;
	return p;
}

/* The ASCII at s that a label value takes as it is. */
static size_t plain_ascii(const char *s)
{
	size_t n = 0;

	while (s[n] && (unsigned char)s[n] < 0x80 && s[n] != '\\' &&
	       s[n] != '"' && s[n] != '\n')
		n++;
	return n;
}

/*
 * The character at p that plain_ascii() stopped at, as the format wants
 * it: \\, \" and \n escaped, UTF-8 as it is, and a byte that is not
 * UTF-8 as U+FFFD, since the format is UTF-8 text.  Returns the bytes of
 * p used, 0 on ENOMEM.
 */
static size_t label_char(struct buf *b, const char *p)
{
	uint32_t cp;
	size_t n;

	if (*p == '\\' || *p == '"' || *p == '\n') {
		char esc[2] = { '\\', *p == '\n' ? 'n' : *p };

		return buf_add(b, esc, 2) ? 0 : 1;
	}
	n = qfd_utf8_decode((const unsigned char *)p, &cp);
	if (!n)
		return buf_add(b, "\xef\xbf\xbd", 3) ? 0 : 1;
	return buf_add(b, p, n) ? 0 : n;
}

/* sep name="value", the value as label_char() makes it. */
static int add_label(struct buf *b, const char *sep, const char *name,
		     const char *val)
{
	int rc = buf_add(b, sep, strlen(sep));
	const char *p = val;
	size_t n;

	rc = rc ? rc : buf_add(b, name, strlen(name));
	rc = rc ? rc : buf_add(b, "=\"", 2);
	while (!rc && *p) {
		/* what needs no escape, in one piece */
		n = plain_ascii(p);
		rc = buf_add(b, p, n);
		p += n;
		if (rc || !*p)
			break;
		n = label_char(b, p);
		if (!n)
			rc = -ENOMEM;
		p += n;
	}
	return rc ? rc : buf_add(b, "\"", 1);
}

/* The group of fs and type, made when they differ from the last one's. */
static int fs_group(struct qfd_prom *p, const struct qfd_fs *fs, int type,
		    uint32_t *group)
{
	struct buf *b = &p->grouplabels;
	size_t off = b->len;
	struct group *g;
	int rc;

	if (p->ngroups && p->fs == fs && p->type == type) {
		*group = (uint32_t)(p->ngroups - 1);
		return 0;
	}
	if (p->ngroups >= UINT32_MAX)
		return -ENOMEM;
	g = grow(p->groups, p->ngroups, &p->agroups, sizeof(*g));
	if (!g)
		return -ENOMEM;
	p->groups = g;
	rc = buf_add(b, "{", 1);
	rc = rc ? rc : add_label(b, "", "mountpoint", fs->target);
	rc = rc ? rc : add_label(b, ",", "fstype", fs->fstype);
	rc = rc ? rc : add_label(b, ",", "type", qfd_type_name(type));
	if (rc)
		return rc;
	p->groups[p->ngroups].off = off;
	p->groups[p->ngroups].len = b->len - off;
	*group = (uint32_t)p->ngroups++;
	p->fs = fs;
	p->type = type;
	return 0;
}

struct qfd_prom *qfd_prom_new(void)
{
	struct qfd_prom *p = calloc(1, sizeof(*p));

	if (!p) {
		warnx("out of memory");
		return NULL;
	}
	p->type = -1;
	return p;
}

void qfd_prom_free(struct qfd_prom *p)
{
	if (!p)
		return;
	free(p->grouplabels.s);
	free(p->groups);
	free(p->idlabels.s);
	free(p->ids);
	free(p->scrapes);
	free(p);
}

/* A deadline only while the soft limit is passed, as the GRACE columns. */
static uint64_t deadline(uint64_t used, uint64_t soft, int64_t timer)
{
	return soft && used > soft && timer > 0 ? (uint64_t)timer : 0;
}

int qfd_prom_dq(struct qfd_prom *p, const struct qfd_fs *fs, int type,
		const struct qfd_dq *dq, const char *name, time_t now)
{
	char id[QFD_FMT_LEN];
	struct id_rec *r;
	uint32_t group;
	size_t off = p->idlabels.len;
	int rc = fs_group(p, fs, type, &group);

	if (rc)
		return rc;
	r = grow(p->ids, p->nids, &p->aids, sizeof(*r));
	if (!r)
		return -ENOMEM;
	p->ids = r;
	qfd_format_u64(dq->id, id);
	rc = add_label(&p->idlabels, ",", "id", id);
	rc = rc ? rc : add_label(&p->idlabels, ",", "name", name ? name : "");
	rc = rc ? rc : buf_add(&p->idlabels, "}", 1);
	if (rc)
		return rc;
	r = &p->ids[p->nids++];
	r->labels = off;
	r->group = group;
	r->v[PF_SPACE] = dq->space;
	r->v[PF_SPACE_SOFT] = dq->space_soft;
	r->v[PF_SPACE_HARD] = dq->space_hard;
	r->v[PF_SPACE_GRACE] = deadline(dq->space, dq->space_soft,
					dq->space_timer);
	r->v[PF_FILES] = dq->files;
	r->v[PF_FILES_SOFT] = dq->files_soft;
	r->v[PF_FILES_HARD] = dq->files_hard;
	r->v[PF_FILES_GRACE] = deadline(dq->files, dq->files_soft,
					dq->files_timer);
	/* enum qfd_status is 0 to 3 in the documented order */
	r->v[PF_STATUS] = (uint64_t)qfd_dq_status(dq, now);
	return 0;
}

int qfd_prom_scrape(struct qfd_prom *p, const struct qfd_fs *fs, int type,
		    bool failed)
{
	struct scrape_rec *s;
	uint32_t group;
	int rc = fs_group(p, fs, type, &group);

	if (rc)
		return rc;
	s = grow(p->scrapes, p->nscrapes, &p->ascrapes, sizeof(*s));
	if (!s)
		return -ENOMEM;
	p->scrapes = s;
	p->scrapes[p->nscrapes].group = group;
	p->scrapes[p->nscrapes++].failed = failed;
	return 0;
}

/* n bytes of s onto o's file; the first error is kept, and stops every later write. */
static void write_all(struct out *o, const char *s, size_t n)
{
	ssize_t w;

	while (n && !o->err) {
		w = write(o->fd, s, n);
		if (w < 0) {
			if (errno != EINTR)
				o->err = -errno;
			continue;
		}
		s += w;
		n -= (size_t)w;
	}
}

static void out_put(struct out *o, const char *s, size_t n)
{
	if (o->len + n > sizeof(o->buf)) {
		write_all(o, o->buf, o->len);
		o->len = 0;
		/* labels longer than the buffer: a mount point of 64 KiB */
		if (n > sizeof(o->buf)) {
			write_all(o, s, n);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

/* " VALUE\n" */
static void out_value(struct out *o, uint64_t v)
{
	char num[SAMPLE_MAX];
	size_t n;

	num[0] = ' ';
	n = qfd_format_u64(v, num + 1) + 1;
	num[n++] = '\n';
	out_put(o, num, n);
}

static void out_group(struct out *o, const struct qfd_prom *p, uint32_t g)
{
	out_put(o, p->grouplabels.s + p->groups[g].off, p->groups[g].len);
}

/* The labels id i keeps: up to the next id's, or the end of the arena. */
static void out_idlabels(struct out *o, const struct qfd_prom *p, size_t i)
{
	size_t end = i + 1 < p->nids ? p->ids[i + 1].labels : p->idlabels.len;

	out_put(o, p->idlabels.s + p->ids[i].labels, end - p->ids[i].labels);
}

static void write_family(struct out *o, const struct qfd_prom *p, int fam)
{
	const char *name = families[fam].name;
	size_t i, len = strlen(name);

	out_str(o, "# HELP ");
	out_str(o, name);
	out_str(o, " ");
	out_str(o, families[fam].help);
	out_str(o, "\n# TYPE ");
	out_str(o, name);
	out_str(o, " gauge\n");
	if (fam == PF_SCRAPE) {
		for (i = 0; i < p->nscrapes; i++) {
			out_put(o, name, len);
			out_group(o, p, p->scrapes[i].group);
			out_put(o, "}", 1);
			out_value(o, p->scrapes[i].failed);
		}
		return;
	}
	for (i = 0; i < p->nids && !o->err; i++) {
		out_put(o, name, len);
		out_group(o, p, p->ids[i].group);
		out_idlabels(o, p, i);
		out_value(o, p->ids[i].v[fam]);
	}
}

int qfd_prom_write(struct qfd_prom *p, FILE *f)
{
	struct out *o;
	int fam, rc;

	errno = 0;
	if (fflush(f))
		return errno ? -errno : -EIO;
	o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->fd = fileno(f);
	o->err = 0;
	o->len = 0;
	for (fam = 0; fam < PF_NFAMILIES; fam++)
		write_family(o, p, fam);
	write_all(o, o->buf, o->len);
	rc = o->err;
	free(o);
	return rc;
}

/* Write, flush and sync f; returns 0 or -errno, and closes f either way. */
static int write_synced(struct qfd_prom *p, FILE *f)
{
	int rc = qfd_prom_write(p, f);

	if (!rc && (fflush(f) || fsync(fileno(f))))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

static const char *file_kind(mode_t mode)
{
	static const struct {
		mode_t type;
		const char *what;
	} kinds[] = {
		{ S_IFDIR, "a directory" }, { S_IFLNK, "a symbolic link" },
		{ S_IFIFO, "a fifo" }, { S_IFSOCK, "a socket" },
		{ S_IFCHR, "a character device" }, { S_IFBLK, "a block device" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if ((mode & S_IFMT) == kinds[i].type)
			return kinds[i].what;
	return "something";
}

int qfd_prom_textfile_check(const char *path)
{
	struct stat st;

	/*
	 * rename(2) would put a regular file in place of whatever is there: a
	 * device node, a fifo, or a symbolic link (the link, its target left
	 * as it was).  lstat's other errors (a missing directory) are the
	 * temporary file's to report.
	 */
	if (lstat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	warnx("%s: %s, not a regular file: --textfile replaces only a regular file (remove it, or name another file)",
	      path, file_kind(st.st_mode));
	return -EEXIST;
}

int qfd_prom_textfile(struct qfd_prom *p, const char *path)
{
	char *dir = strdup(path), *base = strdup(path), *tmp = NULL;
	int fd, rc;
	FILE *f;

	/*
	 * ".NAME.XXXXXX": the textfile collector reads only *.prom, so it
	 * never sees the file half written.
	 */
	if (!dir || !base ||
	    asprintf(&tmp, "%s/.%s.XXXXXX", dirname(dir), basename(base)) < 0) {
		free(dir);
		free(base);
		warnx("out of memory");
		return -ENOMEM;
	}
	free(dir);
	free(base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		warnx("%s: cannot create a temporary file next to it: %s",
		      path, strerror(-rc));
		free(tmp);
		return rc;
	}
	/* mkstemp makes it 0600; node_exporter reads it as another user */
	f = fchmod(fd, 0644) ? NULL : fdopen(fd, "w");
	rc = f ? write_synced(p, f) : -errno;
	if (!f)
		close(fd);
	/* again: the walk may have taken minutes */
	if (!rc && qfd_prom_textfile_check(path)) {
		unlink(tmp);
		free(tmp);
		return -EEXIST;
	}
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		warnx("%s: cannot write the metrics: %s (the old file, if any, is unchanged)",
		      path, strerror(-rc));
	}
	free(tmp);
	return rc;
}
