// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Column tables as lsblk(8) and findmnt(8) print them: through libsmartcols
 * on a terminal, where it fits them to the width; off one, the same lines
 * printed here (plain_table).
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <wchar.h>
#include <wctype.h>
#include <stdio_ext.h>
#include <libsmartcols.h>

#include "ids.h"
#include "output.h"
#include "qfd.h"
#include "units.h"

/* shown columns and the sort key have a bit each in a stored row's mask */
#define MAX_COLS	63
#define CHUNK		1024	/* table lines handed to libsmartcols at once */
#define STDOUT_BUF	65536
#define KEY_LEN		64	/* a JSON key with what goes before and after */

/*
 * Machine formats are written row by row as they come, to stdout held
 * back; or, -J for a caller that defers (report), kept as typed values
 * like a table's and written at the end, which takes less memory than the
 * held text and is not copied twice.  A table for people
 * must know its column widths first: its rows are kept as typed values (8
 * bytes a cell, not libsmartcols' formatted cells) and measured in screen
 * cells; then printed a line at a time off a terminal, or on one handed to
 * libsmartcols in chunks with those widths fixed (add_columns), so that a
 * 100,000-row report never holds 100,000 rows of libsmartcols cells and
 * still lines up from the first row to the last.
 */
/*
 * A stored cell.  A stored row is stride of them, then one whose u has bit
 * i set when cell i is: 8 bytes a cell where a struct qfd_val takes 16,
 * 9.6 MB instead of 17.6 for a table of 100,000 ids.
 */
struct qfd_line {
	char *s;
	size_t len, cap;
	bool failed;
};

union cell {
	const char *s;
	uint64_t u;
	bool b;
};

struct qfd_out {
	const char *name;
	const struct qfd_col *cols;
	size_t ncols;
	size_t shown[MAX_COLS];	/* indexes into cols, in display order */
	size_t nshown;
	struct qfd_outopts o;
	int sortcol;		/* index into cols, or -1 */
	size_t stride;		/* cells a stored row: nshown (+ sort key) */
	union cell *rows;	/* table or --sort: stride + 1 cells a row */
	size_t nrows, alloc;
	size_t nemitted;	/* machine formats: rows written */
	bool store;		/* machine formats: rows kept, see deferred */
	char *title;		/* table: printed above it when it has rows */
	struct qfd_line line;	/* machine formats: the row being made */
	char keys[MAX_COLS][KEY_LEN];	/* -J: ",\n   \"key\": " per column */
	size_t keylen[MAX_COLS];
};

static unsigned int out_titles;	/* tables titled so far */

/*
 * A program reading -J, -r, --csv, Prometheus metrics or a dump cannot
 * tell a document cut short by a failure from a whole one.  While a
 * command writes one, fd 1 is therefore an unnamed temporary file, and
 * the real stdout (kept here) gets its content only when the command
 * succeeded: the document is whole, or absent.  Kept at the level of the
 * file descriptor, so that every writer (stdio, json-c, an exit() that
 * flushes) goes the same way.
 */
static int held_stdout = -1;
/*
 * stdout and stderr are one terminal, pipe or file: a person (or cron's
 * mail) reads it, error lines and all, so it is no document to hold back,
 * and the lines must stay in the order they happened.
 */
static bool one_stream;
#define COPY_CHUNK	65536
#define SENDFILE_MAX	(1 << 30)	/* bytes a call: below its 0x7ffff000 */

static bool same_file(int a, int b)
{
	struct stat sa, sb;

	if (fstat(a, &sa) || fstat(b, &sb))
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void qfd_stdout_setup(void)
{
	static char buf[STDOUT_BUF];

	/*
	 * qfd has one thread: the lock taken by every putc and fputs (and
	 * libsmartcols pads a cell with one fputs per space) buys nothing.
	 */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);
	one_stream = same_file(STDOUT_FILENO, STDERR_FILENO);
	if (isatty(STDOUT_FILENO))
		return;
	/*
	 * stdout and stderr in one pipe or file (2>&1, cron's mail): whole
	 * lines, so that an error line lands after the rows printed before it.
	 */
	if (one_stream)
		setvbuf(stdout, NULL, _IOLBF, 0);
	else	/* 4 KiB writes by default: 16 times fewer calls */
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

int qfd_tmpfd(void)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC,
		  0600);
	if (fd < 0)
		fd = memfd_create("qfd-output", MFD_CLOEXEC);
	/*
	 * Never as a closed stdin, stdout or stderr (>&-): what qfd writes
	 * to stdout would land in the file, and copying the metrics' first
	 * family to stdout would copy the file onto itself without end.
	 */
	if (fd >= 0 && fd <= STDERR_FILENO) {
		int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);

		close(fd);
		fd = high;
	}
	return fd;
}

/* Whether qfd_stdout_hold() would hold stdout back now. */
static bool stdout_holdable(void)
{
	/*
	 * A closed stdout (>&-) is not held: the temporary file would take
	 * its number, and the write error at the end must say what it is.
	 */
	return held_stdout < 0 && !one_stream &&
	       fcntl(STDOUT_FILENO, F_GETFD) >= 0;
}

int qfd_stdout_hold(void)
{
	int fd, saved;

	if (!stdout_holdable())
		return 0;
	if (fflush(stdout))
		return -EIO;
	fd = qfd_tmpfd();
	if (fd < 0) {
		warn("cannot make a temporary file for the output (TMPDIR)");
		return -errno;
	}
	saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		warn("cannot hold the output back");
		if (saved >= 0)
			close(saved);
		close(fd);
		return -EIO;
	}
	close(fd);
	held_stdout = saved;
	return 0;
}

/* from's bytes from off to its end onto to, through user space. */
static int copy_rw(int from, int to, off_t off)
{
	char buf[COPY_CHUNK];
	ssize_t n, w, done;

	for (;;) {
		n = pread(from, buf, sizeof(buf), off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : 0;
		off += n;
		for (done = 0; done < n; done += w) {
			w = write(to, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				return -errno;
		}
	}
}

/*
 * Everything written to from (from its start) onto to; 0 or -errno.
 * sendfile(2) copies in the kernel: no read into a buffer and write back
 * out 64 KiB at a time, and nothing copied at all into /dev/null.  It
 * refuses some outputs (a file opened O_APPEND, as ">>" does, EINVAL);
 * those get read and write from where sendfile stopped.
 */
int qfd_copy_fd(int from, int to)
{
	off_t off = 0;
	ssize_t n;

	for (;;) {
		n = sendfile(to, from, &off, SENDFILE_MAX);
		if (n > 0)
			continue;
		if (!n)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EINVAL || errno == ENOSYS)
			return copy_rw(from, to, off);
		return -errno;
	}
}

int qfd_stdout_release(int rc)
{
	bool keep = rc != QFD_EXIT_FAILURE && rc != QFD_EXIT_USAGE;
	int saved = held_stdout, err = 0;

	if (saved < 0)
		return rc;
	held_stdout = -1;
	if (fflush(stdout) || ferror(stdout)) {
		warn("cannot keep the output in a temporary file (TMPDIR)");
		clearerr(stdout);
		rc = QFD_EXIT_FAILURE;
		keep = false;
	}
	if (keep)
		err = qfd_copy_fd(STDOUT_FILENO, saved);
	/* the temporary file goes with the dup2: the document was copied or dropped */
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if (err) {
		/* a reader that went away needs no message, as in main() */
		if (err != -EPIPE)
			warnx("write error: %s", strerror(-err));
		/* ids over a limit still outrank it (qfd_exit_merge) */
		if (rc != QFD_EXIT_OVER)
			rc = QFD_EXIT_FAILURE;
	}
	return rc;
}

bool qfd_outopt(struct qfd_outopts *o, int c, const char *arg)
{
	switch (c) {
	case 'b':
		o->bytes = true;
		break;
	case 'J':
		o->format = QFD_FMT_JSON;
		break;
	case 'r':
		o->format = QFD_FMT_RAW;
		break;
	case QFD_OPT_CSV:
		o->format = QFD_FMT_CSV;
		break;
	case 'n':
		o->noheadings = true;
		break;
	case 'o':
		o->columns = arg;
		break;
	case 'H':
		o->list_columns = true;
		break;
	case QFD_OPT_SORT:
		o->sort = arg;
		break;
	default:
		return false;
	}
	if (c == 'J' || c == 'r' || c == QFD_OPT_CSV)
		o->formats |= 1u << o->format;
	return true;
}

static int find_col(const struct qfd_col *cols, size_t ncols, const char *name,
		    size_t len)
{
	size_t i;

	for (i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len &&
		    qfd_ascii_caseeq(cols[i].name, name, len))
			return (int)i;
	return -1;
}

static int choose_columns(struct qfd_out *out)
{
	const char *list = out->o.columns, *p;
	char shown[QFD_SHOWN_LEN];
	size_t i;

	out->nshown = 0;
	if (!list || *list == '+') {
		bool machine = out->o.format != QFD_FMT_TABLE;

		for (i = 0; i < out->ncols; i++)
			if (out->cols[i].dflt == QFD_DFLT_ALL ||
			    (machine && out->cols[i].dflt == QFD_DFLT_MACHINE))
				out->shown[out->nshown++] = i;
		if (!list)
			return 0;
		list++;
	}
	for (p = list; *p; ) {
		size_t len = strcspn(p, ",");
		int c = find_col(out->cols, out->ncols, p, len);

		if (c < 0) {
			warnx("unknown column '%s': 'qfd %s -H' lists the columns",
			      qfd_shown_n(p, len, shown), out->o.cmd);
			return -EINVAL;
		}
		if (out->nshown == MAX_COLS) {
			warnx("too many columns in '%s'", qfd_shown(list, shown));
			return -EINVAL;
		}
		out->shown[out->nshown++] = (size_t)c;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!out->nshown) {
		warnx("no columns in '%s'", qfd_shown(out->o.columns, shown));
		return -EINVAL;
	}
	return 0;
}

/*
 * The text before each JSON value, made once rather than lower-cased for
 * each of a million cells: the comma, the line break and indent, the key.
 */
static void make_keys(struct qfd_out *out)
{
	static const char pre[] = ",\n         \"";
	size_t i, j;

	for (i = 0; i < out->nshown; i++) {
		const char *name = out->cols[out->shown[i]].name;
		char *k = out->keys[i];
		size_t n = sizeof(pre) - 1;

		memcpy(k, pre, n);
		for (j = 0; name[j] && n < KEY_LEN - 4; j++)
			k[n++] = qfd_ascii_lower(name[j]);
		memcpy(k + n, "\": ", 4);
		out->keylen[i] = n + 3;
	}
}

/*
 * The formats asked for, by their long names: 'qfd project' has -r for
 * --recursive, and "-r excludes -J" would name an option not given.
 */
static void formats_clash(unsigned int formats)
{
	static const struct {
		enum qfd_format fmt;
		const char *name;
	} opts[] = {
		{ QFD_FMT_JSON, "--json" }, { QFD_FMT_RAW, "--raw" },
		{ QFD_FMT_CSV, "--csv" },
	};
	const char *given[ARRAY_SIZE(opts)];
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (formats & (1u << opts[i].fmt))
			given[n++] = opts[i].name;
	if (n == 2)
		warnx("%s and %s exclude each other: choose one output format",
		      given[0], given[1]);
	else
		warnx("%s, %s and %s exclude each other: choose one output format",
		      given[0], given[1], given[2]);
}

struct qfd_out *qfd_out_new(const char *name, const struct qfd_col *cols,
			    size_t ncols, const struct qfd_outopts *o)
{
	struct qfd_out *out = calloc(1, sizeof(*out));
	char shown[QFD_SHOWN_LEN];

	if (!out) {
		warnx("out of memory");
		return NULL;
	}
	out->name = name;
	out->cols = cols;
	out->ncols = ncols;
	out->o = *o;
	/* the last one winning would hide a slip in a script: refuse */
	if (o->formats & (o->formats - 1)) {
		formats_clash(o->formats);
		free(out);
		return NULL;
	}
	if (choose_columns(out)) {
		free(out);
		return NULL;
	}
	out->sortcol = -1;
	out->stride = out->nshown;
	if (o->sort) {
		out->sortcol = find_col(cols, ncols, o->sort, strlen(o->sort));
		if (out->sortcol < 0) {
			warnx("unknown column '%s' for --sort: 'qfd %s -H' lists the columns",
			      qfd_shown(o->sort, shown), o->cmd);
			free(out);
			return NULL;
		}
		out->stride++;
	}
	if (out->o.format == QFD_FMT_JSON)
		make_keys(out);
	/*
	 * A document held back on stdout is written twice (into the temporary
	 * file, then out) and is its whole text where /tmp is a tmpfs.  For
	 * -J that is ~250 bytes an id, twice what its cells take kept as
	 * values (8 bytes each), and the copying was a fifth of report -J's
	 * time in the test VM; -r and --csv rows are shorter than their cells
	 * kept, and are faster held (bench/README).
	 */
	if (out->o.format == QFD_FMT_JSON && o->deferred && stdout_holdable())
		out->store = true;
	else if (out->o.format != QFD_FMT_TABLE && qfd_stdout_hold()) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * A cell's text: v's own string, or v formatted into buf (QFD_FMT_LEN
 * bytes); NULL for an empty cell.  Nothing is allocated: a report formats
 * over a million cells, and a malloc and free for each was a fifth of a
 * machine format's time (bench/README).
 */
static const char *format_cell(const struct qfd_out *out,
			       const struct qfd_col *c,
			       const struct qfd_val *v, char *buf)
{
	bool machine = out->o.format == QFD_FMT_JSON;
	size_t n;

	if (!v->set)
		return NULL;
	switch (c->kind) {
	case QFD_K_STR:
		return v->s;
	case QFD_K_SIZE:
		if (machine || out->o.bytes)
			qfd_format_u64(v->u, buf);
		else
			qfd_format_size(v->u, buf, QFD_FMT_LEN);
		break;
	case QFD_K_COUNT:
		qfd_format_u64(v->u, buf);
		break;
	case QFD_K_DURATION:
		if (machine || out->o.bytes)
			qfd_format_u64(v->u, buf);
		else
			qfd_format_duration(v->u, buf, QFD_FMT_LEN);
		break;
	case QFD_K_PERCENT:
		n = qfd_format_u64(v->u, buf);
		if (!machine) {
			buf[n] = '%';
			buf[n + 1] = '\0';
		}
		break;
	case QFD_K_BOOL:
		return machine ? (v->b ? "true" : "false") : (v->b ? "yes" : "no");
	}
	return buf;
}

/*
 * The length of s up to its first control character, DEL, backslash or
 * stop, and with ascii up to its first byte past ASCII: the part that JSON
 * and raw output write as it is.
 */
static size_t plain_prefix(const char *s, char stop, bool ascii)
{
	size_t n = 0;

	while ((unsigned char)s[n] >= 0x20 && s[n] != 0x7f && s[n] != '\\' &&
	       s[n] != stop && (!ascii || (unsigned char)s[n] < 0x80))
		n++;
	return n;
}

/*
 * A machine-format row is made here and written with one fwrite: some
 * twenty putc, fputs and fwrite calls a row, each with stdio's checks,
 * were most of -r's own time under emulation (perf in the test VM).
 * Grown to the longest row and reused; failed says a growth failed.
 */
static bool line_grow(struct qfd_line *l, size_t n)
{
	size_t cap;
	char *p;

	if (l->failed)
		return false;
	cap = (l->len + n) * 2 > 256 ? (l->len + n) * 2 : 256;
	p = realloc(l->s, cap);
	if (!p) {
		l->failed = true;
		return false;
	}
	l->s = p;
	l->cap = cap;
	return true;
}

/* The check every byte put makes, small enough to inline; growth apart. */
static inline bool line_room(struct qfd_line *l, size_t n)
{
	return l->len + n <= l->cap || line_grow(l, n);
}

/*
 * line_put(), put_number() and emit_sep() run for every cell of every
 * row: inline, since as calls of their own they were a quarter of -J's
 * instructions (callgrind, 100,000 rows).
 */
static inline void line_put(struct qfd_line *l, const char *s, size_t n)
{
	/* n 0 with nothing allocated yet: memcpy() must not see NULL */
	if (!n || !line_room(l, n))
		return;
	memcpy(l->s + l->len, s, n);
	l->len += n;
}

static void line_putc(struct qfd_line *l, char c)
{
	if (line_room(l, 1))
		l->s[l->len++] = c;
}

/* "\xHH" or "\u00HH": prefix, then c as hex digits. */
static void line_hex(struct qfd_line *l, const char *prefix, unsigned int c)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(prefix);
	char b[8];

	memcpy(b, prefix, n);
	b[n] = hex[c >> 4 & 0xf];
	b[n + 1] = hex[c & 0xf];
	line_put(l, b, n + 2);
}

/*
 * RFC 4180: quote a field holding a separator, a quote or a line break
 * (and, for readers that trim, one with a space at either end).  One loop
 * finds both the length and whether to quote: strlen() and strcspn() were
 * two passes of SSE instructions, which an emulated CPU runs slowly (in
 * the test VM strcspn alone was 7% of --csv's samples).
 */
static void csv_field(struct qfd_line *l, const char *s)
{
	size_t len = 0;
	const char *p;

	while (s[len] && s[len] != ',' && s[len] != '"' && s[len] != '\r' &&
	       s[len] != '\n')
		len++;
	if (len && !s[len] && s[0] != ' ' && s[len - 1] != ' ') {
		line_put(l, s, len);
		return;
	}
	line_putc(l, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			line_putc(l, '"');
		line_putc(l, *p);
	}
	line_putc(l, '"');
}

/*
 * s with the runs that need no escape written whole, and each byte that
 * does through esc: JSON strings and raw fields differ only in what they
 * escape (stop and controls) and how.
 */
static void write_escaped(struct qfd_line *l, const char *s, char stop,
			  void (*esc)(struct qfd_line *l, unsigned char c))
{
	for (;;) {
		size_t n = plain_prefix(s, stop, false);

		line_put(l, s, n);
		s += n;
		if (!*s)
			return;
		esc(l, (unsigned char)*s++);
	}
}

static void json_escape(struct qfd_line *l, unsigned char c)
{
	if (c == '"' || c == '\\') {
		line_putc(l, '\\');
		line_putc(l, (char)c);
	} else if (c < 0x20) {
		line_hex(l, "\\u00", c);
	} else {
		line_putc(l, (char)c);	/* DEL: JSON takes it as it is */
	}
}

/*
 * A byte past ASCII in a JSON string: a UTF-8 character as it is, a C1
 * control as \u00XX, and a byte that is not UTF-8 (a Latin-1 name, a path
 * of any bytes) as U+FFFD: RFC 8259 text is UTF-8, and strict readers
 * refuse a document with such a byte.  Returns the bytes of s used.
 */
static size_t json_8bit(struct qfd_line *l, const char *s)
{
	uint32_t cp;
	size_t n = qfd_utf8_decode((const unsigned char *)s, &cp);

	if (!n) {
		line_put(l, "\\ufffd", 6);
		return 1;
	}
	if (cp < 0xa0)	/* C1 controls: two bytes, below 0x100 */
		line_hex(l, "\\u00", cp);
	else
		line_put(l, s, n);
	return n;
}

/*
 * A string of printable ASCII with no quote or backslash, and at most
 * this long, as nearly every mount point, type and name is, is copied
 * byte by byte in one pass: the scan, the quotes and the copy as calls
 * of their own were a sixth of -J's instructions (callgrind).
 */
#define JSON_SHORT	64

static bool json_short(struct qfd_line *l, const char *s)
{
	/* printable ASCII but the quote (0x22) and the backslash (0x5c) */
	static const bool as_is[256] = {
		[0x20 ... 0x21] = true, [0x23 ... 0x5b] = true, [0x5d ... 0x7e] = true,
	};
	char *d;
	size_t n = 0;

	if (!line_room(l, JSON_SHORT + 2))
		return false;
	d = l->s + l->len + 1;
	while (n < JSON_SHORT && as_is[(unsigned char)s[n]]) {
		d[n] = s[n];
		n++;
	}
	if (s[n])
		return false;
	d[-1] = '"';
	d[n] = '"';
	l->len += n + 2;
	return true;
}

/* JSON string per RFC 8259, always valid UTF-8. */
static void json_string(struct qfd_line *l, const char *s)
{
	if (json_short(l, s))
		return;
	line_putc(l, '"');
	for (;;) {
		size_t n = plain_prefix(s, '"', true);

		line_put(l, s, n);
		s += n;
		if (!*s)
			break;
		if ((unsigned char)*s < 0x80)
			json_escape(l, (unsigned char)*s++);
		else
			s += json_8bit(l, s);
	}
	line_putc(l, '"');
}

void qfd_json_string(const char *s, FILE *f)
{
	struct qfd_line l = { 0 };

	json_string(&l, s);
	if (l.failed)
		qfd_oom();
	fwrite(l.s, 1, l.len, f);
	free(l.s);
}

/* Raw output escapes what would split or blur a field, as lsblk -r does. */
static void raw_escape(struct qfd_line *l, unsigned char c)
{
	line_hex(l, "\\x", c);
}

/*
 * An empty cell is "-": two blanks in a row would make read(1) and awk
 * shift every column after it.  A value that is "-" itself is written
 * escaped, so the two stay apart.
 */
static void raw_field(struct qfd_line *l, const char *s)
{
	if (!s)
		line_putc(l, '-');
	else if (!strcmp(s, "-"))
		line_put(l, "\\x2d", 4);
	else
		write_escaped(l, s, ' ', raw_escape);
}

static void emit_headings(struct qfd_out *out, FILE *f)
{
	const char *sep = out->o.format == QFD_FMT_CSV ? "," : " ";
	size_t i;

	if (out->o.format == QFD_FMT_JSON) {
		fprintf(f, "{\n   \"%s\": [", out->name);
		return;
	}
	if (out->o.noheadings)
		return;
	for (i = 0; i < out->nshown; i++)
		fprintf(f, "%s%s", i ? sep : "", out->cols[out->shown[i]].name);
	putc('\n', f);
}

/*
 * Whether column c's cells are plain numbers in this format: a count; a
 * size or a duration with -J or -b; a percentage (with its '%' but in
 * JSON).  put_number() puts one straight into the row, no text made
 * apart, measured and copied, for the ten or so numbers of every row;
 * false for any other cell.
 */
static bool plain_number(const struct qfd_out *out, const struct qfd_col *c)
{
	switch (c->kind) {
	case QFD_K_SIZE:
	case QFD_K_DURATION:
		return out->o.format == QFD_FMT_JSON || out->o.bytes;
	case QFD_K_COUNT:
	case QFD_K_PERCENT:
		return true;
	default:
		return false;
	}
}

static inline bool put_number(struct qfd_out *out, const struct qfd_col *c,
			      const struct qfd_val *v)
{
	bool machine = out->o.format == QFD_FMT_JSON;
	struct qfd_line *l = &out->line;

	if (!v->set || !plain_number(out, c))
		return false;
	if (!line_room(l, QFD_FMT_LEN + 1))
		return true;	/* l->failed says it */
	l->len += qfd_format_u64(v->u, l->s + l->len);
	if (c->kind == QFD_K_PERCENT && !machine)
		l->s[l->len++] = '%';
	return true;
}

/* What goes before cell i of a row: its JSON key, or a separator. */
static inline void emit_sep(struct qfd_out *out, size_t i)
{
	struct qfd_line *l = &out->line;

	if (out->o.format == QFD_FMT_JSON)
		/* the first has no comma before it */
		line_put(l, out->keys[i] + !i, out->keylen[i] - !i);
	else if (i)
		line_putc(l, out->o.format == QFD_FMT_CSV ? ',' : ' ');
}

/* A cell of a row, s its text (NULL: empty), after emit_sep(). */
static void emit_cell(struct qfd_out *out, const struct qfd_col *c,
		      const char *s)
{
	struct qfd_line *l = &out->line;

	switch (out->o.format) {
	case QFD_FMT_JSON:
		if (!s)
			line_put(l, "null", 4);
		else if (c->kind == QFD_K_STR)
			json_string(l, s);
		else
			line_put(l, s, strlen(s));
		break;
	case QFD_FMT_CSV:
		if (s)
			csv_field(l, s);
		break;
	default:
		/* numbers, units and yes/no need no escape */
		if (s && c->kind != QFD_K_STR)
			line_put(l, s, strlen(s));
		else
			raw_field(l, s);
		break;
	}
}

static int emit_row(struct qfd_out *out, const struct qfd_val *vals, FILE *f)
{
	bool json = out->o.format == QFD_FMT_JSON;
	char buf[QFD_FMT_LEN];
	size_t i;

	if (!out->nemitted)
		emit_headings(out, f);
	out->line.len = 0;
	if (json)
		line_put(&out->line, out->nemitted ? ",\n      {" : "\n      {",
			 out->nemitted ? 9 : 8);
	for (i = 0; i < out->nshown; i++) {
		const struct qfd_col *c = &out->cols[out->shown[i]];

		emit_sep(out, i);
		if (!put_number(out, c, &vals[i]))
			emit_cell(out, c, format_cell(out, c, &vals[i], buf));
	}
	if (json)
		line_put(&out->line, "\n      }", 8);
	else
		line_putc(&out->line, '\n');
	if (out->line.failed)
		return -ENOMEM;
	fwrite(out->line.s, 1, out->line.len, f);
	out->nemitted++;
	return ferror(f) ? -EIO : 0;
}

/*
 * A value goes into its cell as its 8 bytes, whatever its kind: a string
 * pointer, a number and a bool (its first byte) all come back out through
 * the member they went in as.  A switch on the column's kind a cell was a
 * tenth of -J's instructions (callgrind).
 */
_Static_assert(sizeof(union cell) == sizeof(((struct qfd_val *)0)->u),
	       "a cell holds a value's 8 bytes");

static void cell_put(const struct qfd_out *out, union cell *row, size_t i,
		     const struct qfd_val *v)
{
	if (!v->set)
		return;
	row[out->stride].u |= 1ull << i;
	row[i].u = v->u;
}

static void cell_get(const struct qfd_out *out, const union cell *row,
		     size_t i, struct qfd_val *v)
{
	v->set = row[out->stride].u >> i & 1;
	v->u = v->set ? row[i].u : 0;
}

int qfd_out_add(struct qfd_out *out, const struct qfd_val *vals)
{
	union cell *row;
	size_t i;

	if (out->o.format != QFD_FMT_TABLE && out->sortcol < 0 && !out->store) {
		struct qfd_val v[MAX_COLS];

		for (i = 0; i < out->nshown; i++)
			v[i] = vals[out->shown[i]];
		return emit_row(out, v, stdout);
	}
	if (out->nrows == out->alloc) {
		size_t na = out->alloc ? out->alloc * 2 : 64;
		union cell *r = reallocarray(out->rows, na * (out->stride + 1),
					     sizeof(*r));

		if (!r)
			return -ENOMEM;
		out->rows = r;
		out->alloc = na;
	}
	row = &out->rows[out->nrows++ * (out->stride + 1)];
	row[out->stride].u = 0;
	for (i = 0; i < out->nshown; i++)
		cell_put(out, row, i, &vals[out->shown[i]]);
	if (out->sortcol >= 0)
		cell_put(out, row, out->nshown, &vals[out->sortcol]);
	return 0;
}

/* Stored row r as values, the sort key last. */
static void load_row(const struct qfd_out *out, size_t r, struct qfd_val *v)
{
	const union cell *row = &out->rows[r * (out->stride + 1)];
	size_t i;

	for (i = 0; i < out->stride; i++)
		cell_get(out, row, i, &v[i]);
}

/*
 * s as libsmartcols prints a cell (util-linux's mbs_safe_encode_to_buffer,
 * which it does not export): a printable character as it is; each byte of
 * a control, an unprintable or invalid sequence, and a backslash that
 * starts "\x", as "\xHH".  Appended to l unless l is NULL.  Returns the
 * cells it takes on screen: wcwidth() of a printable character, 4 for each
 * "\xHH" (a byte count would make "ü" two cells and "名" three).
 */
static size_t cell_text(const char *s, struct qfd_line *l)
{
	mbstate_t st;
	size_t w = 0, i;

	/* printable ASCII, what nearly every name is: a cell a byte */
	while ((unsigned char)s[w] >= 0x20 && (unsigned char)s[w] < 0x7f &&
	       s[w] != '\\')
		w++;
	if (l)
		line_put(l, s, w);
	s += w;
	memset(&st, 0, sizeof(st));
	while (*s) {
		size_t len = 1, hex = 1;	/* bytes, and how many as \xHH */
		int x = 1;
		wchar_t wc;

		if (!(s[0] == '\\' && s[1] == 'x') && !iscntrl((unsigned char)*s)) {
			len = mbrtowc(&wc, s, MB_CUR_MAX, &st);
			if (len == (size_t)-1 || len == (size_t)-2) {
				/* no character here: maybe a printable byte */
				memset(&st, 0, sizeof(st));
				len = 1;
				hex = !isprint((unsigned char)*s);
			} else if (iswprint(wc)) {
				hex = 0;
				x = wcwidth(wc) < 0 ? 0 : wcwidth(wc);
			} else {
				hex = len;
			}
		}
		for (i = 0; l && i < hex; i++)
			line_hex(l, "\\x", (unsigned char)s[i]);
		if (l && !hex)
			line_put(l, s, len);
		w += hex ? 4 * hex : (size_t)x;
		s += len;
	}
	return w;
}

static size_t cell_width(const char *s)
{
	return cell_text(s, NULL);
}

/* The cells a plain number takes, without making its text. */
static size_t number_width(const struct qfd_out *out, const struct qfd_col *c,
			   uint64_t v)
{
	return qfd_u64_digits(v) +
	       (c->kind == QFD_K_PERCENT && out->o.format != QFD_FMT_JSON);
}

/*
 * The widest cell of each column in cells, over every row and the heading
 * (libsmartcols never makes a column narrower than its heading, even with
 * -n).
 */
static void measure(struct qfd_out *out, size_t *width)
{
	size_t i, r;

	for (i = 0; i < out->nshown; i++)
		width[i] = cell_width(out->cols[out->shown[i]].name);
	for (r = 0; r < out->nrows; r++) {
		struct qfd_val v[MAX_COLS + 1];

		load_row(out, r, v);
		for (i = 0; i < out->nshown; i++) {
			const struct qfd_col *c = &out->cols[out->shown[i]];
			char buf[QFD_FMT_LEN];
			const char *s;
			size_t w;

			if (!v[i].set)
				continue;
			if (plain_number(out, c)) {
				w = number_width(out, c, v[i].u);
			} else {
				s = format_cell(out, c, &v[i], buf);
				/* what qfd formats itself is ASCII */
				w = c->kind == QFD_K_STR ? cell_width(s) : strlen(s);
			}
			if (w > width[i])
				width[i] = w;
		}
	}
}

/*
 * Every chunk must get the widths of the whole table: each is a separate
 * scols_print_table() that measures only its own rows.  libsmartcols
 * (calculate.c) takes a width hint of 1 or more as a floor in cells, but
 * a column whose cells are all narrower than its heading gets the
 * heading's width instead of the hint unless it is STRICTWIDTH; a column
 * as wide as its heading gets that width anyway.  On a terminal too
 * narrow, libsmartcols cuts the TRUNC columns (names, paths) a cell at a
 * time down to their headings' widths; from the same widths in every
 * chunk it cuts the same.  Numbers are never cut: with no relative hint
 * (below 1) no other column is shrunk, a row too wide wraps whole.
 */
static int add_columns(struct libscols_table *tb, const struct qfd_out *out,
		       const size_t *width)
{
	size_t i;

	for (i = 0; i < out->nshown; i++) {
		const struct qfd_col *c = &out->cols[out->shown[i]];
		int flags = c->flags;
		struct libscols_column *cl;

		if (width[i] > cell_width(c->name))
			flags |= SCOLS_FL_STRICTWIDTH;
		cl = scols_table_new_column(tb, c->name, (double)width[i], flags);
		if (!cl)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Off a terminal nothing is cut or wrapped and every width is fixed by
 * measure(), so the lines libsmartcols would print are known: qfd prints
 * them itself.  libsmartcols copies, measures and encodes each cell again
 * and pads it a space at a time; that was 83% of a 20,000-row table's
 * instructions (bench/README), against the 1.3x (ext4) and 2.5x (XFS) of
 * the raw kernel loop a report should take.  tests/unit/table-test holds
 * the two printers to the same bytes.
 */
bool qfd_out_via_scols;

/*
 * One cell as libsmartcols prints it where nothing is cut: a right-aligned
 * one padded before, others after, the last column padded only when
 * right-aligned, one space after every other.  Text that takes no cells
 * (only zero-width characters) is left out, as libsmartcols leaves it.
 */
static void put_spaces(struct qfd_line *l, size_t n)
{
	/* n 0 with nothing allocated yet: memset() must not see NULL */
	if (!n || !line_room(l, n))
		return;
	memset(l->s + l->len, ' ', n);
	l->len += n;
}

static void plain_cell(struct qfd_line *l, const char *s, size_t width,
		       bool right, bool last)
{
	size_t start = l->len, w = s ? cell_text(s, l) : 0, pad;

	if (!w)
		l->len = start;
	pad = width > w ? width - w : 0;
	if (w && right && pad) {
		if (!line_room(l, pad))
			return;
		memmove(l->s + start + pad, l->s + start, l->len - start);
		memset(l->s + start, ' ', pad);
		l->len += pad;
		pad = 0;
	}
	if (!last)
		put_spaces(l, pad + 1);
}

/* A plain number's cell (plain_number()), padded as plain_cell() pads. */
static void plain_number_cell(struct qfd_out *out, const struct qfd_col *c,
			      const struct qfd_val *v, size_t width, bool last)
{
	size_t w = number_width(out, c, v->u);
	size_t pad = width > w ? width - w : 0;
	bool right = c->flags & SCOLS_FL_RIGHT;

	if (right)
		put_spaces(&out->line, pad);
	put_number(out, c, v);
	if (!last)
		put_spaces(&out->line, (right ? 0 : pad) + 1);
}

/* A heading (vals NULL) or a row of the table, written with one fwrite. */
static int plain_line(struct qfd_out *out, const struct qfd_val *vals,
		      const size_t *width)
{
	struct qfd_line *l = &out->line;
	size_t i;

	l->len = 0;
	for (i = 0; i < out->nshown; i++) {
		const struct qfd_col *c = &out->cols[out->shown[i]];
		bool last = i + 1 == out->nshown;
		char buf[QFD_FMT_LEN];
		const char *s;

		if (vals && vals[i].set && plain_number(out, c)) {
			plain_number_cell(out, c, &vals[i], width[i], last);
			continue;
		}
		s = vals ? format_cell(out, c, &vals[i], buf) : c->name;
		plain_cell(l, s, width[i], c->flags & SCOLS_FL_RIGHT, last);
	}
	line_putc(l, '\n');
	if (l->failed)
		return -ENOMEM;
	fwrite(l->s, 1, l->len, stdout);
	return ferror(stdout) ? -EIO : 0;
}

static int plain_table(struct qfd_out *out, const size_t *width)
{
	struct qfd_val v[MAX_COLS + 1];
	size_t r;
	int rc = 0;

	if (!out->o.noheadings)
		rc = plain_line(out, NULL, width);
	for (r = 0; r < out->nrows && !rc; r++) {
		load_row(out, r, v);
		rc = plain_line(out, v, width);
	}
	return rc;
}

/* On a terminal libsmartcols fits the table to its width. */
static int scols_table(struct qfd_out *out, const size_t *width)
{
	struct libscols_table *tb = scols_new_table();
	size_t i, r;
	int rc;

	if (!tb)
		return -ENOMEM;
	/* in tests, off a terminal: never cut to 80 columns */
	if (!isatty(STDOUT_FILENO))
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	scols_table_enable_noheadings(tb, out->o.noheadings);
	rc = add_columns(tb, out, width);
	for (r = 0; r < out->nrows && !rc; r++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);
		struct qfd_val v[MAX_COLS + 1];

		load_row(out, r, v);
		for (i = 0; ln && i < out->nshown; i++) {
			const struct qfd_col *c = &out->cols[out->shown[i]];
			char buf[QFD_FMT_LEN];
			const char *s = format_cell(out, c, &v[i], buf);

			if (s && scols_line_set_data(ln, i, s))
				ln = NULL;
		}
		if (!ln) {
			rc = -ENOMEM;
			break;
		}
		if ((r + 1) % CHUNK == 0 || r + 1 == out->nrows) {
			rc = scols_print_table(tb);
			scols_table_remove_lines(tb);
			scols_table_enable_noheadings(tb, 1);
		}
	}
	scols_unref_table(tb);
	return rc;
}

static int print_table(struct qfd_out *out)
{
	size_t width[MAX_COLS];

	if (out->title)
		printf("%s%s\n", out_titles++ ? "\n" : "", out->title);
	measure(out, width);
	/*
	 * Piped into a file or a mail, a report is not cut to 80 columns;
	 * on a terminal libsmartcols fits it to the width.
	 */
	if (isatty(STDOUT_FILENO) || qfd_out_via_scols)
		return scols_table(out, width);
	return plain_table(out, width);
}

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct qfd_out *out = arg;
	struct qfd_val x, y;
	enum qfd_kind kind = out->cols[out->sortcol].kind;

	cell_get(out, a, out->nshown, &x);
	cell_get(out, b, out->nshown, &y);
	/* empty cells first, then by value */
	if (x.set != y.set)
		return x.set ? 1 : -1;
	if (!x.set)
		return 0;
	if (kind == QFD_K_STR)
		return strcmp(x.s, y.s);
	if (kind == QFD_K_BOOL)
		return (int)x.b - (int)y.b;
	return x.u < y.u ? -1 : x.u > y.u;
}

static void sort_rows(struct qfd_out *out)
{
	/* no rows: no array either, and qsort(NULL, 0) is undefined */
	if (out->nrows < 2)
		return;
	qsort_r(out->rows, out->nrows, (out->stride + 1) * sizeof(*out->rows),
		cmp_rows, out);
}

int qfd_out_print(struct qfd_out *out)
{
	size_t r;
	int rc = 0;

	if (out->sortcol >= 0)
		sort_rows(out);
	if (out->o.format != QFD_FMT_TABLE) {
		struct qfd_val v[MAX_COLS + 1];

		for (r = 0; r < out->nrows && !rc; r++) {
			load_row(out, r, v);
			rc = emit_row(out, v, stdout);
		}
	}
	if (out->o.format == QFD_FMT_TABLE) {
		if (out->nrows)
			rc = print_table(out);
	} else if (out->o.format == QFD_FMT_JSON) {
		if (!out->nemitted)
			emit_headings(out, stdout);
		fputs("\n   ]\n}\n", stdout);
	}
	qfd_out_free(out);
	return rc;
}

bool qfd_out_stored(const struct qfd_out *out)
{
	return out->store;
}

void qfd_out_free(struct qfd_out *out)
{
	if (!out)
		return;
	free(out->rows);
	free(out->line.s);
	free(out->title);
	free(out);
}

void qfd_out_title(struct qfd_out *out, const char *fmt, ...)
{
	va_list ap;

	if (out->o.format != QFD_FMT_TABLE || out->o.noheadings)
		return;
	free(out->title);
	va_start(ap, fmt);
	if (vasprintf(&out->title, fmt, ap) < 0)
		out->title = NULL;
	va_end(ap);
}

void qfd_out_list_columns(const struct qfd_col *cols, size_t ncols)
{
	size_t i;

	for (i = 0; i < ncols; i++)
		printf(" %14s  %s%s\n", cols[i].name, cols[i].help,
		       cols[i].dflt == QFD_DFLT_ALL ? "" : " (not by default)");
}
