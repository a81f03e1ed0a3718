// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Column tables through libsmartcols, as lsblk(8) and findmnt(8) print them.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <libsmartcols.h>

#include "output.h"
#include "qfd.h"
#include "units.h"

#define MAX_COLS	64

struct qfd_out {
	struct libscols_table *tb;
	const struct qfd_col *cols;
	size_t ncols;
	size_t shown[MAX_COLS];	/* indexes into cols, in display order */
	size_t nshown;
	struct qfd_outopts o;
};

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
	default:
		return false;
	}
	return true;
}

static int find_col(const struct qfd_col *cols, size_t ncols, const char *name,
		    size_t len)
{
	size_t i;

	for (i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len &&
		    !strncasecmp(cols[i].name, name, len))
			return (int)i;
	return -1;
}

static int choose_columns(struct qfd_out *out)
{
	const char *list = out->o.columns, *p;
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
			warnx("unknown column '%.*s': 'qfd CMD -H' lists the columns",
			      (int)len, p);
			return -EINVAL;
		}
		if (out->nshown == MAX_COLS) {
			warnx("too many columns in '%s'", list);
			return -EINVAL;
		}
		out->shown[out->nshown++] = (size_t)c;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!out->nshown) {
		warnx("no columns in '%s'", out->o.columns);
		return -EINVAL;
	}
	return 0;
}

static int json_type(enum qfd_kind kind)
{
	switch (kind) {
	case QFD_K_SIZE:
	case QFD_K_COUNT:
	case QFD_K_DURATION:
	case QFD_K_PERCENT:
		return SCOLS_JSON_NUMBER;
	case QFD_K_BOOL:
		return SCOLS_JSON_BOOLEAN;
	case QFD_K_STR:
		break;
	}
	return SCOLS_JSON_STRING;
}

struct qfd_out *qfd_out_new(const char *name, const struct qfd_col *cols,
			    size_t ncols, const struct qfd_outopts *o)
{
	struct qfd_out *out = calloc(1, sizeof(*out));
	size_t i;

	if (!out) {
		warnx("out of memory");
		return NULL;
	}
	out->cols = cols;
	out->ncols = ncols;
	out->o = *o;
	if (choose_columns(out))
		goto fail;
	out->tb = scols_new_table();
	if (!out->tb)
		goto nomem;
	scols_table_set_name(out->tb, name);
	/*
	 * Piped into a file or a mail, a report is not cut to 80 columns;
	 * on a terminal libsmartcols fits it to the width.
	 */
	if (!isatty(STDOUT_FILENO))
		scols_table_set_termforce(out->tb, SCOLS_TERMFORCE_NEVER);
	scols_table_enable_noheadings(out->tb, o->noheadings);
	switch (o->format) {
	case QFD_FMT_JSON:
		scols_table_enable_json(out->tb, 1);
		break;
	case QFD_FMT_CSV:
		/* our own quoting; libsmartcols must not encode it again */
		scols_table_enable_raw(out->tb, 1);
		scols_table_enable_noencoding(out->tb, 1);
		scols_table_set_column_separator(out->tb, ",");
		break;
	case QFD_FMT_RAW:
		scols_table_enable_raw(out->tb, 1);
		break;
	case QFD_FMT_TABLE:
		break;
	}
	for (i = 0; i < out->nshown; i++) {
		const struct qfd_col *c = &cols[out->shown[i]];
		struct libscols_column *cl;

		cl = scols_table_new_column(out->tb, c->name, c->whint, c->flags);
		if (!cl)
			goto nomem;
		scols_column_set_json_type(cl, json_type(c->kind));
	}
	return out;
nomem:
	warnx("out of memory");
fail:
	qfd_out_free(out);
	return NULL;
}

/* RFC 4180: quote a field holding a separator, a quote or a line break. */
static char *csv_quote(const char *s)
{
	size_t n = 0;
	const char *p;
	char *r, *q;

	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && *s &&
	    s[strlen(s) - 1] != ' ')
		return strdup(s);
	for (p = s; *p; p++)
		n += *p == '"' ? 2 : 1;
	r = malloc(n + 3);
	if (!r)
		return NULL;
	q = r;
	*q++ = '"';
	for (p = s; *p; p++) {
		if (*p == '"')
			*q++ = '"';
		*q++ = *p;
	}
	*q++ = '"';
	*q = '\0';
	return r;
}

static char *format_val(const struct qfd_out *out, const struct qfd_col *c,
			const struct qfd_val *v)
{
	bool machine = out->o.format == QFD_FMT_JSON;
	char buf[QFD_FMT_LEN];

	if (!v->set)
		return NULL;
	switch (c->kind) {
	case QFD_K_STR:
		return strdup(v->s);
	case QFD_K_SIZE:
		if (machine || out->o.bytes)
			snprintf(buf, sizeof(buf), "%" PRIu64, v->u);
		else
			qfd_format_size(v->u, buf, sizeof(buf));
		break;
	case QFD_K_COUNT:
		snprintf(buf, sizeof(buf), "%" PRIu64, v->u);
		break;
	case QFD_K_DURATION:
		if (machine || out->o.bytes)
			snprintf(buf, sizeof(buf), "%" PRIu64, v->u);
		else
			qfd_format_duration(v->u, buf, sizeof(buf));
		break;
	case QFD_K_PERCENT:
		snprintf(buf, sizeof(buf), machine ? "%" PRIu64 : "%" PRIu64 "%%", v->u);
		break;
	case QFD_K_BOOL:
		snprintf(buf, sizeof(buf), "%s", machine ? (v->b ? "true" : "false")
						    : (v->b ? "yes" : "no"));
		break;
	}
	return strdup(buf);
}

int qfd_out_add(struct qfd_out *out, const struct qfd_val *vals)
{
	struct libscols_line *ln = scols_table_new_line(out->tb, NULL);
	size_t i;

	if (!ln)
		return -ENOMEM;
	for (i = 0; i < out->nshown; i++) {
		size_t c = out->shown[i];
		char *s = format_val(out, &out->cols[c], &vals[c]);

		if (!s) {
			if (vals[c].set)
				return -ENOMEM;
			continue;
		}
		if (out->o.format == QFD_FMT_CSV) {
			char *q = csv_quote(s);

			free(s);
			if (!q)
				return -ENOMEM;
			s = q;
		}
		if (scols_line_refer_data(ln, i, s)) {
			free(s);
			return -ENOMEM;
		}
	}
	return 0;
}

int qfd_out_print(struct qfd_out *out)
{
	int rc = 0;

	if (scols_table_get_nlines(out->tb) || out->o.format == QFD_FMT_JSON)
		rc = scols_print_table(out->tb);
	qfd_out_free(out);
	return rc;
}

void qfd_out_free(struct qfd_out *out)
{
	if (!out)
		return;
	scols_unref_table(out->tb);
	free(out);
}

void qfd_out_title(const struct qfd_outopts *o, const char *fmt, ...)
{
	static bool first = true;
	va_list ap;

	if (o->format != QFD_FMT_TABLE || o->noheadings)
		return;
	if (!first)
		putchar('\n');
	first = false;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void qfd_out_list_columns(const struct qfd_col *cols, size_t ncols)
{
	size_t i;

	for (i = 0; i < ncols; i++)
		printf(" %14s  %s%s\n", cols[i].name, cols[i].help,
		       cols[i].dflt == QFD_DFLT_ALL ? "" : " (not by default)");
}
