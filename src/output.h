/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tables for people and programs: libsmartcols' on a terminal.
 *
 * A command describes its columns once (struct qfd_col); a row is an array
 * of typed values indexed like that description.  This file chooses the
 * columns (-o), formats each value for the output mode (human, -b, -r,
 * -J, --csv) and prints.  No command formats a cell itself.
 */
#ifndef QFD_OUTPUT_H
#define QFD_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum qfd_kind {
	QFD_K_STR,		/* text */
	QFD_K_SIZE,		/* bytes: human unless -b; JSON number */
	QFD_K_COUNT,		/* number */
	QFD_K_DURATION,		/* seconds: "6d23h"; JSON number of seconds */
	QFD_K_BOOL,		/* yes/no; JSON true/false */
	QFD_K_PERCENT,		/* "85%"; JSON number */
};

struct qfd_col {
	const char *name;	/* heading; lower-cased it is the JSON key */
	int flags;		/* SCOLS_FL_*: RIGHT, TRUNC (cut to fit a terminal) */
	enum qfd_kind kind;
	unsigned char dflt;	/* QFD_DFLT_*: shown when -o is not given */
	const char *help;	/* for -H */
};

enum {
	QFD_DFLT_NO,
	QFD_DFLT_ALL,		/* in every format */
	QFD_DFLT_MACHINE,	/* in -J, -r and --csv, where rows stand alone */
};

struct qfd_val {
	bool set;		/* false: empty cell, JSON null */
	union {
		const char *s;
		uint64_t u;
		bool b;
	};
};

enum qfd_format {
	QFD_FMT_TABLE,
	QFD_FMT_RAW,
	QFD_FMT_JSON,
	QFD_FMT_CSV,
};

/* What the output options of a command asked for. */
struct qfd_outopts {
	const char *cmd;	/* "report", "project show": for 'qfd CMD -H' */
	enum qfd_format format;
	unsigned int formats;	/* each format asked for: 1 << QFD_FMT_* */
	bool bytes;		/* -b */
	bool noheadings;	/* -n */
	const char *columns;	/* -o LIST or +LIST */
	const char *sort;	/* --sort COL */
	bool list_columns;	/* -H */
	/*
	 * The caller prints only after everything was read, and frees the
	 * rows unprinted after a failure (qfd_out_stored()): -J rows are
	 * then kept as values until qfd_out_print(), not held back on
	 * stdout as text (report).
	 */
	bool deferred;
};

/*
 * Options every table-printing command takes, for getopt_long.  The long
 * options have no short form but --csv; values above 255 keep them apart.
 */
enum { QFD_OPT_CSV = 0x100, QFD_OPT_SORT };
#define QFD_OUT_SHORTOPTS	"bJrno:H"
#define QFD_OUT_LONGOPTS \
	{ "bytes", no_argument, NULL, 'b' }, \
	{ "json", no_argument, NULL, 'J' }, \
	{ "raw", no_argument, NULL, 'r' }, \
	{ "csv", no_argument, NULL, QFD_OPT_CSV }, \
	{ "noheadings", no_argument, NULL, 'n' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "sort", required_argument, NULL, QFD_OPT_SORT }, \
	{ "list-columns", no_argument, NULL, 'H' }
/* The help lines of the output options; QFD_OUT_HELP is all of them. */
#define QFD_OUT_HELP_COLS \
	"  -o, --output LIST    columns to print (+LIST adds to the default)\n" \
	"  -H, --list-columns   list the columns and what they mean\n" \
	"  -b, --bytes          sizes in bytes, not human units\n" \
	"  -J, --json           JSON (sizes in bytes, times in seconds)\n"
#define QFD_OUT_HELP_RAW \
	"  -r, --raw            raw output: one line per row, no alignment\n"
#define QFD_OUT_HELP_REST \
	"      --csv            comma-separated values, quoted where needed\n" \
	"  -n, --noheadings     no heading line\n" \
	"      --sort COL       sort rows by COL (numbers by value, largest last)\n"
#define QFD_OUT_HELP	QFD_OUT_HELP_COLS QFD_OUT_HELP_RAW QFD_OUT_HELP_REST

/*
 * Make stdout ready for many rows; call it before anything is written
 * there.
 */
void qfd_stdout_setup(void);

/*
 * An unnamed temporary file, read and write: on disk where $TMPDIR (or
 * /tmp) allows it, since a report of a million ids is hundreds of
 * megabytes, in memory where it does not (read-only, missing).  The
 * descriptor, or -1 with errno set.
 */
int qfd_tmpfd(void);

/*
 * Everything in the file from (from its start, whatever its offset) onto
 * to, at to's offset: 0 or -errno.
 */
int qfd_copy_fd(int from, int to);

/*
 * Hold back what is written to stdout from now on (a document for
 * programs), until qfd_stdout_release(): 0, or -errno after one line.
 * qfd_out_new() calls it for -J, -r and --csv.  Nothing is held when
 * stdout and stderr are one stream: rows and errors keep their order.
 */
int qfd_stdout_hold(void);
/*
 * The end of a run that exits with rc: what was held is written to stdout
 * if rc is a success (0, 3 or 4), dropped if it is a failure (1 or 2).
 * Returns rc, or 1 when the copy failed (after one line, unless stdout's
 * reader went away).
 */
int qfd_stdout_release(int rc);

/* Returns true when c was one of the output options. */
bool qfd_outopt(struct qfd_outopts *o, int c, const char *arg);

struct qfd_out;

/*
 * A table named name ("quotas": the JSON key of the row array) with the
 * given columns.  Returns NULL after printing one line when -o or --sort
 * names an unknown column, or when two output formats were asked for.
 */
struct qfd_out *qfd_out_new(const char *name, const struct qfd_col *cols,
			    size_t ncols, const struct qfd_outopts *o);
/*
 * A line of its own above the table, printed only when the table has rows
 * and only for people: machine formats carry it in their columns.
 */
void qfd_out_title(struct qfd_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* vals has ncols entries, indexed like cols. */
int qfd_out_add(struct qfd_out *out, const struct qfd_val *vals);
/* Prints and frees. */
int qfd_out_print(struct qfd_out *out);
/*
 * Whether out keeps machine-format rows for qfd_out_print() instead of
 * writing them as they come (deferred, and stdout would have been held).
 */
bool qfd_out_stored(const struct qfd_out *out);
void qfd_out_free(struct qfd_out *out);

void qfd_out_list_columns(const struct qfd_col *cols, size_t ncols);

/* s as a JSON string, quoted and escaped as the -J output does it. */
void qfd_json_string(const char *s, FILE *f);

/*
 * Off a terminal qfd prints a table's lines itself, as libsmartcols would
 * print them; set, libsmartcols prints every table.  For
 * tests/unit/table-test, which compares the two.
 */
extern bool qfd_out_via_scols;

#endif
