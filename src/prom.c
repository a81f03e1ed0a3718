// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prometheus text exposition format (version 0.0.4): one family per
 * temporary file while the ids come, concatenated at the end.
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
 * Each family's file gets a buffer of its own this big: ten samples per
 * id in 4 KiB writes were half of --prometheus' time on the host, more
 * under emulation, where a system call is dear.  The samples are put
 * into it by hand and it is written with write(2): three stdio calls a
 * sample were a third of the rest (callgrind).
 */
#define FAMILY_BUF	65536
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

/* A string that grows to the longest label set and is then reused. */
struct buf {
	char *s;
	size_t len, alloc;
};

/* A family's samples: a temporary file and what is not in it yet. */
struct family {
	int fd;
	char *buf;		/* FAMILY_BUF bytes */
	size_t len;
};

struct qfd_prom {
	struct family fam[PF_NFAMILIES];
	int err;		/* the first failed write's -errno */
	struct buf fslabels;	/* mountpoint, fstype, type of the last fs */
	const struct qfd_fs *fs;
	int type;
	struct buf labels;	/* the whole {...} of the current sample */
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

/* name="value", the value as label_char() makes it. */
static int add_label(struct buf *b, const char *name, const char *val)
{
	int rc = buf_add(b, b->len > 1 ? "," : "", b->len > 1);
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

/* The labels every sample of fs and type carries, built once per pair. */
static int fs_labels(struct qfd_prom *p, const struct qfd_fs *fs, int type)
{
	int rc;

	if (p->fs == fs && p->type == type)
		return 0;
	p->fs = NULL;
	p->fslabels.len = 0;
	rc = buf_add(&p->fslabels, "{", 1);
	rc = rc ? rc : add_label(&p->fslabels, "mountpoint", fs->target);
	rc = rc ? rc : add_label(&p->fslabels, "fstype", fs->fstype);
	rc = rc ? rc : add_label(&p->fslabels, "type", qfd_type_name(type));
	if (rc)
		return rc;
	p->fs = fs;
	p->type = type;
	return 0;
}

struct qfd_prom *qfd_prom_new(void)
{
	struct qfd_prom *p = calloc(1, sizeof(*p));
	size_t i;

	if (!p) {
		warnx("out of memory");
		return NULL;
	}
	p->type = -1;
	for (i = 0; i < PF_NFAMILIES; i++)
		p->fam[i].fd = -1;
	for (i = 0; i < PF_NFAMILIES; i++) {
		/* tmpfile(3) takes /tmp whatever $TMPDIR says */
		p->fam[i].fd = qfd_tmpfd();
		if (p->fam[i].fd < 0) {
			warn("cannot make a temporary file (TMPDIR)");
			qfd_prom_free(p);
			return NULL;
		}
		p->fam[i].buf = malloc(FAMILY_BUF);
		if (!p->fam[i].buf) {
			warnx("out of memory");
			qfd_prom_free(p);
			return NULL;
		}
	}
	return p;
}

void qfd_prom_free(struct qfd_prom *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < PF_NFAMILIES; i++) {
		if (p->fam[i].fd >= 0)
			close(p->fam[i].fd);
		free(p->fam[i].buf);
	}
	free(p->fslabels.s);
	free(p->labels.s);
	free(p);
}

/* n bytes of s onto fd; the first error is kept, and stops every later write. */
static void write_all(struct qfd_prom *p, int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n && !p->err) {
		w = write(fd, s, n);
		if (w < 0) {
			if (errno != EINTR)
				p->err = -errno;
			continue;
		}
		s += w;
		n -= (size_t)w;
	}
}

static void fam_flush(struct qfd_prom *p, struct family *f)
{
	write_all(p, f->fd, f->buf, f->len);
	f->len = 0;
}

static void fam_put(struct qfd_prom *p, struct family *f, const char *s,
		    size_t n)
{
	if (f->len + n > FAMILY_BUF) {
		fam_flush(p, f);
		/* labels longer than the buffer: a mount point of 64 KiB */
		if (n > FAMILY_BUF) {
			write_all(p, f->fd, s, n);
			return;
		}
	}
	memcpy(f->buf + f->len, s, n);
	f->len += n;
}

static void sample(struct qfd_prom *p, int fam, uint64_t v)
{
	struct family *f = &p->fam[fam];
	char num[SAMPLE_MAX];
	size_t n;

	fam_put(p, f, families[fam].name, strlen(families[fam].name));
	fam_put(p, f, p->labels.s, p->labels.len);
	num[0] = ' ';
	n = qfd_format_u64(v, num + 1) + 1;
	num[n++] = '\n';
	fam_put(p, f, num, n);
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
	int rc = fs_labels(p, fs, type);

	qfd_format_u64(dq->id, id);
	p->labels.len = 0;
	rc = rc ? rc : buf_add(&p->labels, p->fslabels.s, p->fslabels.len);
	rc = rc ? rc : add_label(&p->labels, "id", id);
	rc = rc ? rc : add_label(&p->labels, "name", name ? name : "");
	rc = rc ? rc : buf_add(&p->labels, "}", 1);
	if (rc)
		return rc;
	sample(p, PF_SPACE, dq->space);
	sample(p, PF_SPACE_SOFT, dq->space_soft);
	sample(p, PF_SPACE_HARD, dq->space_hard);
	sample(p, PF_SPACE_GRACE, deadline(dq->space, dq->space_soft,
					   dq->space_timer));
	sample(p, PF_FILES, dq->files);
	sample(p, PF_FILES_SOFT, dq->files_soft);
	sample(p, PF_FILES_HARD, dq->files_hard);
	sample(p, PF_FILES_GRACE, deadline(dq->files, dq->files_soft,
					   dq->files_timer));
	/* enum qfd_status is 0 to 3 in the documented order */
	sample(p, PF_STATUS, (uint64_t)qfd_dq_status(dq, now));
	return 0;
}

int qfd_prom_scrape(struct qfd_prom *p, const struct qfd_fs *fs, int type,
		    bool failed)
{
	int rc = fs_labels(p, fs, type);

	p->labels.len = 0;
	rc = rc ? rc : buf_add(&p->labels, p->fslabels.s, p->fslabels.len);
	rc = rc ? rc : buf_add(&p->labels, "}", 1);
	if (rc)
		return rc;
	sample(p, PF_SCRAPE, failed);
	return 0;
}

/* A family's samples after its header: both flushed, then fd to fd. */
static int copy(struct qfd_prom *p, struct family *from, FILE *to)
{
	fam_flush(p, from);
	if (p->err)
		return p->err;
	errno = 0;
	if (fflush(to))
		return errno ? -errno : -EIO;
	return qfd_copy_fd(from->fd, fileno(to));
}

int qfd_prom_write(struct qfd_prom *p, FILE *f)
{
	size_t i;
	int rc;

	for (i = 0; i < PF_NFAMILIES; i++) {
		fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", families[i].name,
			families[i].help, families[i].name);
		rc = copy(p, &p->fam[i], f);
		if (rc)
			return rc;
	}
	return ferror(f) ? -EIO : 0;
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
