// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd - disk quota administration through quotactl_fd(2).
 *
 * main(): global options, then the command table drives both dispatch and
 * 'qfd --help', so a command cannot exist without being documented there.
 *
 * A tour of src/ for newcomers.  Layers, bottom up; a file includes the
 * headers of its own layer and the ones below, never above:
 *
 *  1. Base: qfd.h, qfd.c.  Exit codes and how they merge, quota types,
 *     struct qfd_cmd, --debug, the out-of-memory exit.  Uses nothing.
 *  2. Doors to the system, each the only one of its kind:
 *     quota.c   every quotactl_fd(2)/quotactl(2) call (qfd_quota_*)
 *     mnt.c     path -> mount -> O_PATH descriptor; the mounts of -a
 *     fsattr.c  an inode's project id and inherit flag (qfd_fsattr_*)
 *     ids.c     names <-> ids, /etc/projid (qfd_id_*, qfd_projid_*)
 *     kerr.c    a kernel error -> the one line that says what to do
 *  3. Data and formats: units.c (every size, count and duration, parsed
 *     and printed), output.c (tables and -o/-J/-r/--csv), rows.c (the
 *     quota columns), prom.c (metrics), batch.c (set's requests and
 *     batch files), setlist.c (set's and apply's requests, packed),
 *     desired.c and jsonread.c (apply's document).
 *  4. Write phases, all or nothing: setwrite.c (limits planned against
 *     the kernel's entries, for set and apply, then written or put
 *     back), applywrite.c and applydirs.c (the rest of apply's plan),
 *     sigdefer.c (signals held off meanwhile).  They report kernel
 *     errors through kerr.h and know nothing of the commands.
 *  5. Commands: one cmd-NAME.c each; cmds.h and cmd-common.c hold what
 *     they share (help, the option parser, -u/-g/-p).  Commands never
 *     call each other.
 *  6. This file: global options, the table, stdout closed at the end.
 *
 * A new command follows the one pattern every cmd-*.c has:
 *
 *  - struct NAME_opts: everything the command line says (options,
 *    paths, WHO...), filled by
 *    static int parse(int argc, char **argv, struct NAME_opts *o),
 *    which returns QFD_OPTS_GO, QFD_OPTS_DONE (help printed) or
 *    QFD_OPTS_BAD (one line said, through qfd_opts_bad()); it reads
 *    options with qfd_getopt(), so a value given twice is refused, and
 *    puts options that exclude each other in a struct qfd_excl table.
 *    The command line's own errors are all found there; names and ids
 *    are resolved next, before anything is opened.
 *  - static int run(int argc, char **argv): parse(), then
 *    qfd_opts_exit() if it did not go on; then the work, in small
 *    functions, returning a QFD_EXIT_* code (qfd_exit_merge() for a run
 *    that met several).  Kernel errors go through qfd_kerr().
 *  - const struct qfd_cmd qfd_cmd_NAME = { name, run, synopsis, summary,
 *    options, notes }: its --help is made from it (qfd_cmd_help()).
 *  - Then: the extern in cmds.h, a line in the table below (its place is
 *    its place in 'qfd --help'), the file in Makefile.am's
 *    src_libqfd_a_SOURCES, its section in man/qfd.8 (and a page of its
 *    own if it is large), and tests in tests/host/cli.bats (the command
 *    line) and tests/vm/suites (the kernel).  The bash completion reads
 *    commands and options from qfd's --help.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "ids.h"
#include "output.h"
#include "qfd.h"

/* The order of 'qfd --help'. */
static const struct qfd_cmd *const commands[] = {
	&qfd_cmd_get, &qfd_cmd_set, &qfd_cmd_apply, &qfd_cmd_dump,
	&qfd_cmd_report, &qfd_cmd_check, &qfd_cmd_watch, &qfd_cmd_state,
	&qfd_cmd_on, &qfd_cmd_off, &qfd_cmd_sync, &qfd_cmd_project,
};

static const struct qfd_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void usage(void)
{
	size_t i;

	printf("Usage: qfd [--debug] COMMAND [options] [args]\n\n"
	       "Administer disk quotas through quotactl_fd(2): any path on a\n"
	       "filesystem names it, no block device needed.\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		printf("  %-8s %s\n", commands[i]->name, commands[i]->summary);
	printf("\nOptions:\n"
	       "  -d, --debug    trace every quota call on stderr\n"
	       "  -h, --help     show this help\n"
	       "  -V, --version  show the version\n\n"
	       "'qfd COMMAND --help' describes a command; qfd(8) all of them.\n");
}

/*
 * QFD_DEBUG=1 turns tracing on; empty or 0 leaves it off, as a script
 * that sets QFD_DEBUG=0 to say "no debug" means.
 */
static bool debug_env(const char *v)
{
	return v && *v && strcmp(v, "0");
}

static bool stdout_closed;

/*
 * stdout may be a pipe to a full disk or a closed reader: a report that was
 * not written must not exit 0 (the idea of util-linux's closestream.h).
 */
static int close_stdout(int rc)
{
	stdout_closed = true;
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (errno != EPIPE)
			warn("write error");
		return rc ? rc : QFD_EXIT_FAILURE;
	}
	return rc;
}

/*
 * A command that ends through exit() or errx() passes by main()'s
 * return: its failed write is still said, and fails the run.
 */
static void close_stdout_at_exit(void)
{
	if (!stdout_closed && close_stdout(QFD_EXIT_OK))
		_exit(qfd_fail_status);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "debug", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char shown[QFD_SHOWN_LEN];
	const struct qfd_cmd *cmd;
	int c, rc;

	/* getopt's messages start with argv[0]: "qfd:", as warnx() says */
	argv[0] = program_invocation_short_name;
	/* names are UTF-8 in most databases: let libsmartcols print them */
	setlocale(LC_ALL, "");
	qfd_stdout_setup();
	atexit(close_stdout_at_exit);
	qfd_debug = debug_env(getenv("QFD_DEBUG"));
	/* '+': stop at the command name, its options are its own */
	while ((c = getopt_long(argc, argv, "+dhV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			qfd_debug = true;
			break;
		case 'h':
			usage();
			return close_stdout(QFD_EXIT_OK);
		case 'V':
			printf("qfd %s\n", PACKAGE_VERSION);
			return close_stdout(QFD_EXIT_OK);
		default:
			qfd_usage_hint(NULL);
			return QFD_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		warnx("no command given");
		qfd_usage_hint(NULL);
		return QFD_EXIT_USAGE;
	}
	cmd = find_cmd(argv[optind]);
	if (!cmd) {
		warnx("unknown command '%s'", qfd_shown(argv[optind], shown));
		qfd_usage_hint(NULL);
		return QFD_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	/*
	 * getopt names argv[0] in its messages: "qfd: unrecognized option",
	 * as warnx() and util-linux's tools say it, not "report: ...".
	 */
	argv[0] = program_invocation_short_name;
	optind = 0;	/* restart getopt for the command's own options */
	rc = cmd->run(argc, argv);
	qfd_ids_free();
	return close_stdout(qfd_stdout_release(rc));
}
