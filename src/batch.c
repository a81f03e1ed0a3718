// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Limit requests and batch files for 'qfd set'.
 *
 * A batch is all or nothing: every line is parsed and every name resolved
 * here, before the caller reads or writes a single quota, and every bad
 * line is reported (not only the first), so one run shows all there is to
 * fix.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "ids.h"
#include "qfd.h"
#include "quota.h"
#include "units.h"

/* Past this many, bad lines are counted, not printed: the first show the pattern. */
#define MAX_REPORTED	10

static const char *const lim_desc[QFD_NLIMITS] = {
	[QFD_LIM_SPACE_SOFT] = "space soft limit",
	[QFD_LIM_SPACE_HARD] = "space hard limit",
	[QFD_LIM_FILES_SOFT] = "files soft limit",
	[QFD_LIM_FILES_HARD] = "files hard limit",
};

static bool is_space_lim(int lim)
{
	return lim == QFD_LIM_SPACE_SOFT || lim == QFD_LIM_SPACE_HARD;
}

int qfd_parse_limit(int lim, const char *s, uint64_t *v)
{
	int rc;

	if (!is_space_lim(lim))
		return qfd_parse_count(s, v);
	rc = qfd_parse_size(s, v);
	/* compare with what the kernel will keep, so a re-run is unchanged */
	if (!rc) {
		if (*v > UINT64_MAX - QFD_LIMIT_UNIT)
			return -ERANGE;
		*v = qfd_quota_round_limit(*v);
	}
	return rc;
}

int qfd_parse_limit_rel(int lim, const char *s, uint64_t *v, int *dir)
{
	int d = s[0] == '+' ? 1 : s[0] == '-' ? -1 : 0;
	int rc;

	/* "+-5G", "--1G" are typing slips, not limits */
	if (d && (s[1] == '+' || s[1] == '-'))
		return -EINVAL;
	rc = qfd_parse_limit(lim, d ? s + 1 : s, v);
	if (!rc)
		*dir = d;
	return rc;
}

int qfd_setreq_resolve(const struct qfd_setlist *l, struct qfd_setreq *r,
		       int lim, const char *where)
{
	char d[QFD_FMT_LEN];
	uint64_t old = r->old[lim], n = r->lim[lim];
	bool up = r->up & (1u << lim);

	if (!(up || r->down & (1u << lim)))
		return 0;
	if (is_space_lim(lim))
		qfd_format_size(n, d, sizeof(d));
	else
		qfd_format_count(n, d, sizeof(d));
	if (!old) {
		qfd_setreq_warn(l, r, "%s: %s: %s%s: there is no limit to count from; give one",
				where, lim_desc[lim], up ? "+" : "-", d);
		return -ENOENT;
	}
	if (up ? n > UINT64_MAX - QFD_LIMIT_UNIT - old : n >= old) {
		qfd_setreq_warn(l, r, "%s: %s: %s%s: %s", where, lim_desc[lim],
				up ? "+" : "-", d, up ? "too large" :
				"would leave no limit or less (0 is none): give 0 to remove it");
		return -ERANGE;
	}
	r->lim[lim] = up ? old + n : old - n;
	r->up &= (uint8_t)~(1u << lim);
	r->down &= (uint8_t)~(1u << lim);
	return 0;
}

const char *qfd_limit_strerror(int lim, int rc)
{
	if (rc == -ERANGE)
		return "too large";
	if (is_space_lim(lim))
		return "not a size (examples: 0, 500M, 1.5G, 2TiB)";
	return "not a count (examples: 0, 1000, 10k, 2.5m)";
}

void qfd_setreq_warn(const struct qfd_setlist *l, const struct qfd_setreq *r,
		     const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	if (r->line)
		fprintf(stderr, "%s:%u: ", l->file, r->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

struct reader {
	const char *file;
	unsigned long line;
	size_t nbad;
};

static void bad_line(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad_line(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->nbad++ >= MAX_REPORTED)
		return;
	fprintf(stderr, "%s: %s:%lu: ", program_invocation_short_name,
		rd->file, rd->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define NFIELDS	(1 + QFD_NLIMITS)

/*
 * A '#' starts a comment at the beginning of a line and after the fifth
 * field; but '#' and a digit as the first field is an id, as everywhere
 * in qfd ("#1000"), and one that is not a number ("#1O00", a letter O) is
 * a bad line, not a comment that would silently skip the id.
 */
static bool is_id_field(const char *s)
{
	return s[0] == '#' && s[1] >= '0' && s[1] <= '9';
}

/* What separates fields: a space, \t, \n, \v, \f or \r (9 to 13). */
static bool is_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * The next field of *p, NUL-terminated in place, or NULL at the end.
 * A byte loop, not strtok_r(): glibc's SSE4.2 strspn and strcspn under
 * it were 18% of set --batch's samples in the test VM (perf, XFS,
 * 100,000 lines), which emulation runs slowly; fields are a few bytes.
 */
static char *next_field(char **p)
{
	char *s = *p, *tok;

	while (is_blank(*s))
		s++;
	if (!*s)
		return NULL;
	tok = s;
	while (*s && !is_blank(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return tok;
}

/* Split line into at most NFIELDS fields; returns how many there are. */
static int split(char *line, char **f)
{
	char *tok;
	int n = 0;

	while ((tok = next_field(&line))) {
		if (tok[0] == '#' && (n == 0 ? !is_id_field(tok) : n >= NFIELDS))
			break;
		if (n < NFIELDS)
			f[n] = tok;
		n++;
	}
	return n;
}

static int parse_line(struct qfd_setlist *l, struct reader *rd, char *line,
		      int type)
{
	static const char syntax[] = "WHO BSOFT BHARD ISOFT IHARD";
	char *f[NFIELDS], msg[256], shown[QFD_SHOWN_LEN];
	uint64_t v[QFD_NLIMITS];
	struct qfd_setreq r;
	unsigned int asked = 0, up = 0, down = 0;
	uint32_t id;
	int n, i, rc, dir;
	bool ok = true;

	n = split(line, f);
	if (!n)
		return 0;
	if (n != NFIELDS) {
		bad_line(rd, "%d field%s, expected 5: %s ('-' keeps a limit as it is)",
			 n, n == 1 ? "" : "s", syntax);
		return 0;
	}
	rc = qfd_id_parse(type, f[0], &id);
	if (rc) {
		bad_line(rd, "%s", qfd_id_strerror(type, f[0], rc, msg, sizeof(msg)));
		ok = false;
	}
	for (i = 0; i < QFD_NLIMITS; i++) {
		if (!strcmp(f[i + 1], "-"))
			continue;
		/* "-" alone keeps a limit; "-1G" lowers it, "+1G" raises it */
		rc = qfd_parse_limit_rel(i, f[i + 1], &v[i], &dir);
		if (rc) {
			bad_line(rd, "%s '%s': %s", lim_desc[i],
				 qfd_shown(f[i + 1], shown), qfd_limit_strerror(i, rc));
			ok = false;
			continue;
		}
		asked |= 1u << i;
		if (dir > 0)
			up |= 1u << i;
		else if (dir < 0)
			down |= 1u << i;
	}
	if (!ok)
		return 0;
	/*
	 * A line that contradicts itself is bad whatever the kernel holds;
	 * with a relative limit only the kernel's values can tell (plan_one).
	 */
	for (i = 0; i < QFD_NLIMITS; i += 2) {
		unsigned int both = 3u << i;

		if ((asked & both) == both && !((up | down) & both) &&
		    v[i + 1] && v[i] > v[i + 1]) {
			bad_line(rd, "%s '%s' exceeds the %s '%s'", lim_desc[i],
				 f[i + 1], lim_desc[i + 1], f[i + 2]);
			return 0;
		}
	}
	if (rd->line > UINT32_MAX) {
		bad_line(rd, "too many lines");
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.id = id;
	r.line = (uint32_t)rd->line;
	memcpy(r.lim, v, sizeof(v));
	r.asked = (uint8_t)asked;
	r.up = (uint8_t)up;
	r.down = (uint8_t)down;
	return qfd_setlist_add(l, f[0], &r);
}

/*
 * Notepad and PowerShell start a UTF-8 file with a byte order mark: it is
 * no part of the first WHO ("unknown user '\xef\xbb\xbfroot'", the mark
 * invisible), so it is skipped.
 */
#define UTF8_BOM	"\xef\xbb\xbf"
#define UTF8_BOM_LEN	3

/*
 * One line as getline() read it, len bytes.  strtok and every string
 * function after it stop at a NUL, which would cut the line short, or
 * make one that starts with it blank, without a word: it is a bad line.
 */
static int read_line(struct qfd_setlist *l, struct reader *rd, char *line,
		     size_t len, int type)
{
	const char *nul;

	if (rd->line == 1 && len >= UTF8_BOM_LEN &&
	    !memcmp(line, UTF8_BOM, UTF8_BOM_LEN)) {
		line += UTF8_BOM_LEN;
		len -= UTF8_BOM_LEN;
	}
	nul = memchr(line, '\0', len);
	if (nul) {
		bad_line(rd, "a NUL byte at column %zu: a batch file is text, one id a line",
			 (size_t)(nul - line) + 1);
		return 0;
	}
	return parse_line(l, rd, line, type);
}

struct byid {
	uint32_t id;
	uint32_t idx;
};

static int cmp_byid(const void *a, const void *b)
{
	const struct byid *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Ids in ascending order, as a dump and most generated lists have them,
 * cannot repeat: no copy to sort (8 bytes an id) and no qsort.
 */
static bool ascending(const struct qfd_setlist *l)
{
	size_t i;

	for (i = 1; i < l->n; i++)
		if (l->v[i].id <= l->v[i - 1].id)
			return false;
	return true;
}

/*
 * Two requests for one id (a name and its number, or a copy-and-paste
 * slip) leave it unclear which one is meant: refuse rather than let the
 * last win.  rd is NULL for the command line, whose requests have no line.
 */
static int check_duplicates(struct qfd_setlist *l, struct reader *rd, int type)
{
	char wa[QFD_SHOWN_LEN], wb[QFD_SHOWN_LEN];
	struct qfd_setreq a, b;
	struct byid *s;
	size_t i, first, ndup = 0;

	if (l->n < 2 || ascending(l))
		return 0;
	s = malloc(l->n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < l->n; i++)
		s[i] = (struct byid){ l->v[i].id, (uint32_t)i };
	qsort(s, l->n, sizeof(*s), cmp_byid);
	for (i = 1, first = 0; i < l->n; i++) {
		if (s[first].id != s[i].id) {
			first = i;
			continue;
		}
		ndup++;
		qfd_setlist_get(l, s[first].idx, &a);
		qfd_setlist_get(l, s[i].idx, &b);
		qfd_shown(qfd_setreq_who(l, &b), wb);
		if (!rd) {
			warnx("%s '%s' (%u) is named twice (also as '%s'): name each id once",
			      qfd_type_name(type), wb, b.id,
			      qfd_shown(qfd_setreq_who(l, &a), wa));
			continue;
		}
		rd->line = b.line;
		bad_line(rd, "%s '%s' (%u) is also on line %u", qfd_type_name(type),
			 wb, b.id, a.line);
	}
	free(s);
	return ndup ? -EEXIST : 0;
}

int qfd_setlist_check_duplicates(struct qfd_setlist *l, int type)
{
	return check_duplicates(l, NULL, type);
}

/*
 * A batch line is WHO and four limits, perhaps with a comment: 64 KiB is
 * room for many times that.  A longer one ends the reading, so that
 * /dev/zero or a binary file named by mistake costs 64 KiB, not all the
 * memory getline() would take for a line that never ends.
 */
#define LINE_MAX_LEN	65536

/*
 * The next line of f into buf (LINE_MAX_LEN + 1 bytes), its newline kept
 * and a NUL added: its length, LINE_MAX_LEN + 1 when it is longer, or -1
 * at the end.  The length, not the NUL, says where the line ends.
 */
static ssize_t next_line(FILE *f, char *buf)
{
	size_t n = 0;
	int c = 0;

	while (c != '\n' && (c = getc_unlocked(f)) != EOF) {
		if (n == LINE_MAX_LEN)
			return LINE_MAX_LEN + 1;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return n ? (ssize_t)n : -1;
}

int qfd_batch_read(struct qfd_setlist *l, FILE *f, const char *name, int type)
{
	struct reader rd = { .file = name };
	char *line = malloc(LINE_MAX_LEN + 1);
	ssize_t len;
	int rc = 0;

	if (!line) {
		warnx("%s: out of memory", name);
		return -ENOMEM;
	}
	l->file = name;
	while ((len = next_line(f, line)) >= 0) {
		rd.line++;
		if (len > LINE_MAX_LEN) {
			bad_line(&rd, "longer than %d bytes: not a batch line (nothing after it was read)",
				 LINE_MAX_LEN);
			break;
		}
		rc = read_line(l, &rd, line, (size_t)len, type);
		if (rc)
			break;
	}
	free(line);
	if (!rc && ferror(f)) {
		rc = -EIO;
		warn("%s: read error", name);
		return rc;
	}
	if (!rc)
		rc = check_duplicates(l, &rd, type);
	if (rc == -EEXIST)
		rc = 0;		/* counted in rd.nbad */
	if (rc == -ENOMEM) {
		warnx("%s: out of memory", name);
		return rc;
	}
	if (rd.nbad > MAX_REPORTED)
		warnx("%s: %zu more bad lines not shown", name, rd.nbad - MAX_REPORTED);
	if (rd.nbad) {
		warnx("%s: %zu bad line%s: nothing was changed", name, rd.nbad,
		      rd.nbad == 1 ? "" : "s");
		return -EINVAL;
	}
	/* a run that would set nothing is a mistake, not a success */
	if (!l->n) {
		warnx("%s: no limits in it (only blank lines and comments): nothing was changed",
		      name);
		return -EINVAL;
	}
	return 0;
}
