/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands, and what they share: help text from the command table,
 * quota-type options, and the one line each kernel error becomes.
 */
#ifndef QFD_CMDS_H
#define QFD_CMDS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "qfd.h"

struct qfd_fs;

int cmd_get(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_state(int argc, char **argv);
int cmd_on(int argc, char **argv);
int cmd_off(int argc, char **argv);
int cmd_sync(int argc, char **argv);
int cmd_project(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_dump(int argc, char **argv);

const struct qfd_cmd *qfd_find_cmd(const char *name);

/*
 * "Usage: qfd NAME ARGS", the summary, the command's options (with -h
 * added last), then its notes (NULL: none).
 */
void qfd_cmd_help(const char *name, const char *options, const char *notes);

/*
 * getopt_long() for a command, refusing an option with a value given a
 * second time (--batch A --batch B, -w 80% -w 90%): the last one winning
 * would hide a slip in a script.  A command's table, and the short
 * options that may come again (check's -i).  qfd_getopt() returns what
 * getopt_long() does, or QFD_OPT_TWICE with the line to print in msg.
 */
struct qfd_getopt {
	const char *shortopts;
	const struct option *longopts;
	const char *repeatable;
	unsigned char seen[0x400 / 8];	/* a bit per option value */
	char msg[96];
};

enum { QFD_OPT_TWICE = 0x3ff };

int qfd_getopt(struct qfd_getopt *g, int argc, char **argv);

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

/*
 * With -a, a mount whose quotas answer rc is not the command's to report
 * (true), --debug saying why: it never had quotas (ESRCH, ENOSYS), or the
 * quotactl(2) fallback of a kernel without quotactl_fd cannot reach it
 * (ENOTBLK: tmpfs, a container's /dev).  A path named keeps the error.
 */
bool qfd_all_skips(const struct qfd_fs *fs, int rc);

/*
 * Report a failed quota call in one line: the mount point, the quota type,
 * what went wrong and what to do.  op is what was attempted ("read",
 * "set limits for", "turn on").
 */
void qfd_kerr(const struct qfd_fs *fs, int type, int rc, const char *op);
/* The same line into buf, without "qfd: ", for a command that prints it. */
void qfd_kerr_fmt(char *buf, size_t len, const struct qfd_fs *fs, int type,
		  int rc, const char *op);

#endif
