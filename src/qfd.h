/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qfd - disk quota administration through quotactl_fd(2).
 *
 * The base layer, which every file may use and which uses nothing of
 * qfd's: exit codes, quota types, the command descriptor, --debug and
 * ASCII helpers.  qfd.c defines what is not inline here.
 */
#ifndef QFD_QFD_H
#define QFD_QFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Exit codes, documented in qfd(8) EXIT STATUS.  A run that meets several
 * exits with the first of 2, 3, 1, 4, 0 (qfd_exit_merge): a usage error
 * means nothing was done; ids over a limit must reach cron and monitoring
 * even when another filesystem failed (its error is on stderr); a failure
 * outweighs "changed", which a provisioning tool would take as success.
 */
enum {
	QFD_EXIT_OK = 0,
	QFD_EXIT_FAILURE = 1,	/* the kernel or the system refused */
	QFD_EXIT_USAGE = 2,	/* bad command line or input; nothing done */
	QFD_EXIT_OVER = 3,	/* report --over: some ids are past a limit */
	QFD_EXIT_CHANGED = 4,	/* set --exit-changed: something was written */
};

enum qfd_qtype {
	QFD_USR = 0,	/* the kernel's USRQUOTA */
	QFD_GRP = 1,	/* GRPQUOTA */
	QFD_PRJ = 2,	/* PRJQUOTA */
	QFD_NTYPES
};

#define QFD_TYPE_BIT(t)		(1u << (t))
#define QFD_ALL_TYPES		(QFD_TYPE_BIT(QFD_USR) | QFD_TYPE_BIT(QFD_GRP) | QFD_TYPE_BIT(QFD_PRJ))

const char *qfd_type_name(int type);

/* The exit status of a run that met both a and b. */
int qfd_exit_merge(int a, int b);

/*
 * A command: each cmd-*.c defines one (cmds.h), main.c's table points to
 * them all, and 'qfd --help' and 'qfd NAME --help' are made from them.
 */
struct qfd_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;	/* synopsis after the command name */
	const char *summary;	/* one line for 'qfd --help' */
	const char *options;	/* its --help: the options (-h is added) */
	const char *notes;	/* its --help: after the options; NULL: none */
};

/* Global state set by options before the command name. */
extern bool qfd_debug;

/*
 * The exit status of a failure that is no command's own: out of memory,
 * a write to stdout that failed.  QFD_EXIT_FAILURE; check makes it its
 * UNKNOWN.
 */
extern int qfd_fail_status;

/* "out of memory", then exit with qfd_fail_status. */
void qfd_oom(void) __attribute__((noreturn));

/* calloc() and reallocarray() that end the run when memory runs out. */
void *qfd_xcalloc(size_t n, size_t size);
void *qfd_xreallocarray(void *p, size_t n, size_t size);

/* "Try 'qfd CMD --help'" (cmd NULL: 'qfd --help') on stderr. */
void qfd_usage_hint(const char *cmd);

/*
 * Column names, JSON keys and unit letters are ASCII and mean the same in
 * every locale: tolower() and strncasecmp() follow LC_CTYPE, where in
 * tr_TR 'I' does not lower to 'i'.
 */
static inline char qfd_ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static inline char qfd_ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* The first n bytes of a and b are equal, ignoring ASCII case. */
static inline bool qfd_ascii_caseeq(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (qfd_ascii_lower(*a) != qfd_ascii_lower(*b))
			return false;
		if (!*a)
			break;
	}
	return true;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
