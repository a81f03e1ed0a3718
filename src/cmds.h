/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands, and what they share: help from their struct qfd_cmd,
 * the option parser's contract, and the quota-type options.  Kernel
 * errors are kerr.h's.
 */
#ifndef QFD_CMDS_H
#define QFD_CMDS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "qfd.h"

struct qfd_fs;

/* One a command, each defined in its cmd-*.c. */
extern const struct qfd_cmd qfd_cmd_get, qfd_cmd_set, qfd_cmd_apply,
	qfd_cmd_dump, qfd_cmd_report, qfd_cmd_check, qfd_cmd_watch,
	qfd_cmd_state, qfd_cmd_on, qfd_cmd_off, qfd_cmd_sync, qfd_cmd_project;

/*
 * "Usage: qfd NAME ARGS", the summary, the command's options (with -h
 * added last), then its notes.
 */
void qfd_cmd_help(const struct qfd_cmd *cmd);

/*
 * Every command reads its options with one function of this shape:
 *
 *	static int parse(int argc, char **argv, struct NAME_opts *o);
 *
 * which fills o (paths and other arguments included) and returns
 * QFD_OPTS_GO to go on, QFD_OPTS_DONE when it printed what was asked
 * (--help, --list-columns) and the command ends with 0, or QFD_OPTS_BAD
 * after one line saying what is wrong (qfd_opts_bad()).
 */
enum { QFD_OPTS_BAD = -1, QFD_OPTS_GO = 0, QFD_OPTS_DONE = 1 };

/* The exit status of a parse that did not go on. */
static inline int qfd_opts_exit(int rc)
{
	return rc < 0 ? QFD_EXIT_USAGE : QFD_EXIT_OK;
}

/* The line (warnx), then "Try 'qfd CMD --help'": returns QFD_OPTS_BAD. */
int qfd_opts_bad(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Options that exclude others: opt excludes each of others[] (which may
 * go with each other), in either order.  msg is the line; NULL makes it
 * "--OPT and --OTHER exclude each other".  A table ends with opt 0.
 */
struct qfd_excl {
	int opt;
	int others[10];		/* 0 ends the list */
	const char *msg;
};

/*
 * getopt_long() for a command, refusing an option with a value given a
 * second time (--batch A --batch B, -w 80% -w 90%): the last one winning
 * would hide a slip in a script; and an option excl says the options
 * before it exclude.  A command's table, the options with a value that
 * may come again (check's -i), and its exclusions (NULL: none).  qfd_getopt()
 * returns what getopt_long() does, or QFD_OPT_REFUSED with the line to
 * print in msg.  cmd names the command in messages and for -h.
 */
#define QFD_OPT_BITS	0x400	/* option values are below */
struct qfd_getopt {
	const struct qfd_cmd *cmd;
	const char *shortopts;
	const struct option *longopts;
	const int *repeatable;	/* ends with 0; NULL: none */
	const struct qfd_excl *excl;
	unsigned char seen[QFD_OPT_BITS / 8];	/* a bit per option value */
	char msg[128];
};

enum { QFD_OPT_REFUSED = QFD_OPT_BITS - 1 };

int qfd_getopt(struct qfd_getopt *g, int argc, char **argv);

/*
 * What every parser does with an option that is not its own: -h prints
 * g->cmd's help (QFD_OPTS_DONE); QFD_OPT_REFUSED says g->msg, anything
 * else (getopt has said it) the hint (QFD_OPTS_BAD).
 */
int qfd_opt_default(const struct qfd_getopt *g, int c);

#define QFD_TYPE_SHORTOPTS	"ugp"
#define QFD_TYPE_LONGOPTS \
	{ "user", no_argument, NULL, 'u' }, \
	{ "group", no_argument, NULL, 'g' }, \
	{ "project", no_argument, NULL, 'p' }, \
	{ "help", no_argument, NULL, 'h' }
#define QFD_TYPE_HELP \
	"  -u, --user           user quotas\n" \
	"  -g, --group          group quotas\n" \
	"  -p, --project        project quotas\n"

/*
 * Commands on whole filesystems take -a or paths, not both, not neither:
 * false, after the usage line, when that is not so.
 */
bool qfd_targets_ok(const char *cmd, bool all, int npaths);

/* Handles -u/-g/-p into a QFD_TYPE_BIT mask; true when c was one. */
bool qfd_typeopt(unsigned int *types, int c);

/*
 * The types a command acts on for fs: those asked for, or when none were,
 * every type the filesystem accounts.  Returns 0 or a kernel error, which
 * it has already reported unless quiet.
 */
int qfd_fs_types(struct qfd_fs *fs, unsigned int asked, unsigned int *types,
		 bool quiet);

#endif
