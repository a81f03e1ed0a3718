// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd project: which project a directory tree is charged to.
 *
 * Project quotas limit directory trees, not people: every inode carries a
 * project id, and a directory with the inherit flag hands its id to what is
 * created in it.  Both live in the generic file attributes that ext4 (with
 * the project feature) and XFS share, FS_IOC_FSGETXATTR/FS_IOC_FSSETXATTR,
 * so one code path serves both: projid.c's, which 'qfd apply' writes
 * project directories with, too.
 *
 * The walk is fts(3)'s, physical (symbolic links are not followed) and on
 * one filesystem (FTS_XDEV): a tree is assigned, not whatever it links to
 * or has mounted inside it.  fts changes into each directory and names
 * its entries relative to it, checking on the way back up that ".." is
 * the directory it came from, so an entry is never re-resolved from the
 * top and no depth needs a descriptor per level (the hand-written walk
 * before it ran out of descriptors near depth 1019).  Each entry is opened
 * with O_NOFOLLOW and compared with what fts saw before it is changed.
 * The inherit flag is set on directories only: on files both filesystems
 * ignore it.
 *
 * A filesystem that keeps no project ids is found at the first inode the
 * walk would change, before anything is changed (projid.c), and ends the
 * walk with one line: the same refusal for every inode of a big tree
 * tells nothing more.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libsmartcols.h>

#include "cmds.h"
#include "ids.h"
#include "mnt.h"
#include "output.h"
#include "fsattr.h"

enum action { ACT_SET, ACT_CLEAR, ACT_SHOW };

enum {
	PCOL_PATH,
	PCOL_ID,
	PCOL_PROJECT,
	PCOL_INHERIT,
	PCOL_TYPE,
	PCOL_NCOLS
};

static const struct qfd_col project_cols[PCOL_NCOLS] = {
	[PCOL_PATH] = { "PATH", SCOLS_FL_TRUNC, QFD_K_STR, QFD_DFLT_ALL,
			"the file or directory" },
	[PCOL_ID] = { "ID", SCOLS_FL_RIGHT, QFD_K_COUNT, QFD_DFLT_ALL,
		      "project id (0: none)" },
	[PCOL_PROJECT] = { "PROJECT", SCOLS_FL_TRUNC, QFD_K_STR, QFD_DFLT_ALL,
			   "project name from /etc/projid (empty when it has none)" },
	[PCOL_INHERIT] = { "INHERIT", 0, QFD_K_BOOL, QFD_DFLT_ALL,
			   "new files and directories in it get its project id" },
	[PCOL_TYPE] = { "TYPE", 0, QFD_K_STR, QFD_DFLT_NO,
			"file or directory" },
};

enum { OPT_EXIT_CHANGED = 0x200, OPT_RAW };

struct walk {
	enum action act;
	bool recursive;
	uint32_t projid;	/* set: the project; clear: 0 */
	dev_t dev;		/* the walk stays on this filesystem */
	const char *path;	/* of the inode being visited, for messages */
	size_t nchanged, nunchanged;
	bool failed;
	struct qfd_fsattr_seen ids;	/* what this filesystem has shown */
	bool stop;		/* it does not: the walk ends */
	struct qfd_out *out;	/* show */
	char **strs;		/* show: paths the table points to until printed */
	size_t nstrs, astrs;
};

/* One line naming the path, with what to do where there is something. */
static void path_err(struct walk *w, int err, const char *op)
{
	const char *hint = qfd_fsattr_hint(err, w->act == ACT_SET);

	w->failed = true;
	if (hint)
		warnx("%s: cannot %s: %s", w->path, op, hint);
	else
		warnx("%s: cannot %s: %s", w->path, op, strerror(err));
}

/*
 * The filesystem fd is on keeps no project ids: one line naming its mount
 * point and what to do, and the walk ends.
 */
static void no_projids(struct walk *w, int fd, const char *op)
{
	char msg[512];

	w->failed = true;
	w->stop = true;
	qfd_fsattr_nosupport_msg(msg, sizeof(msg), fd);
	warnx("%s: cannot %s: %s", w->path, op, msg);
}

static int show_row(struct walk *w, const struct stat *st,
		    const struct fsxattr *fa)
{
	struct qfd_val v[PCOL_NCOLS] = { 0 };
	const char *name = qfd_id_name(QFD_PRJ, fa->fsx_projid);
	char *p;

	if (w->nstrs == w->astrs) {
		size_t na = w->astrs ? w->astrs * 2 : 64;
		char **s = realloc(w->strs, na * sizeof(*s));

		if (!s)
			return -ENOMEM;
		w->strs = s;
		w->astrs = na;
	}
	p = strdup(w->path);
	if (!p)
		return -ENOMEM;
	w->strs[w->nstrs++] = p;
	v[PCOL_PATH] = (struct qfd_val){ .set = true, .s = p };
	v[PCOL_ID] = (struct qfd_val){ .set = true, .u = fa->fsx_projid };
	v[PCOL_PROJECT] = (struct qfd_val){ .set = !!name, .s = name };
	v[PCOL_INHERIT] = (struct qfd_val){ .set = true,
		.b = !!(fa->fsx_xflags & FS_XFLAG_PROJINHERIT) };
	v[PCOL_TYPE] = (struct qfd_val){ .set = true,
		.s = S_ISDIR(st->st_mode) ? "directory" : "file" };
	return qfd_out_add(w->out, v);
}

/* Show, set or clear the project of one open inode. */
static int visit(struct walk *w, int fd, const struct stat *st)
{
	bool dir = S_ISDIR(st->st_mode);
	const char *op = w->act == ACT_SET ? "set the project" :
			 w->act == ACT_CLEAR ? "clear the project" :
			 "read the project";
	struct fsxattr fa, want;
	int err;

	err = qfd_fsattr_get(&w->ids, fd, &fa);
	if (err) {
		if (qfd_fsattr_unsupported(&w->ids, err))
			no_projids(w, fd, op);
		else
			path_err(w, err, "read the project");
		return 0;
	}
	if (w->act == ACT_SHOW)
		return show_row(w, st, &fa);

	qfd_fsattr_want(&fa, w->projid, dir && w->act == ACT_SET, &want);
	/* idempotent: an inode that already is as asked is not written */
	if (fa.fsx_projid == want.fsx_projid &&
	    fa.fsx_xflags == want.fsx_xflags) {
		w->nunchanged++;
		return 0;
	}
	err = qfd_fsattr_change(&w->ids, fd, &fa, &want, w->path);
	if (err && qfd_fsattr_unsupported(&w->ids, err))
		no_projids(w, fd, op);
	else if (err)
		path_err(w, err, op);
	else
		w->nchanged++;
	return 0;
}

/* The entry fts stands on, visited; returns 0 or -ENOMEM. */
static int visit_entry(struct walk *w, FTSENT *e, bool follow)
{
	struct stat st;
	int fd, rc;

	fd = qfd_fsattr_open_entry(e, follow, &st);
	if (fd == -ESTALE)
		return 0;
	if (fd < 0) {
		path_err(w, -fd, "open");
		return 0;
	}
	rc = visit(w, fd, &st);
	close(fd);
	return rc;
}

/* What is named on the command line must be a file or a directory. */
static void top_err(struct walk *w, const FTSENT *e)
{
	w->failed = true;
	if (e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE)
		warnx("%s: is a symbolic link: name the directory it points to",
		      e->fts_path);
	else
		warnx("%s: not a regular file or a directory: only those have a project",
		      e->fts_path);
}

/* One entry of the walk; returns 0 or -ENOMEM. */
static int walk_entry(struct walk *w, FTS *fts, FTSENT *e)
{
	bool top = e->fts_level == FTS_ROOTLEVEL;

	w->path = e->fts_path;
	switch (e->fts_info) {
	case FTS_DP:
	case FTS_DC:
		return 0;	/* after its entries; a loop (bind mounts) */
	case FTS_DNR:
	case FTS_ERR:
	case FTS_NS:
		path_err(w, e->fts_errno, e->fts_info == FTS_DNR ?
			 "read the directory" : top ? "open" : "read");
		return 0;
	case FTS_D:
	case FTS_F:
		break;
	default:
		/* links, devices, sockets below the top are not ours */
		if (top)
			top_err(w, e);
		return 0;
	}
	if (top)
		w->dev = e->fts_statp->st_dev;
	else if (e->fts_statp->st_dev != w->dev) {
		fts_set(fts, e, FTS_SKIP);
		return 0;
	}
	if (e->fts_info == FTS_D && !w->recursive)
		fts_set(fts, e, FTS_SKIP);
	/* show takes what a named link points to; set and clear refuse it */
	return visit_entry(w, e, top && w->act == ACT_SHOW);
}

/* A path named on the command line, and with -r everything below it. */
static int walk_top(struct walk *w, const char *path)
{
	char *const paths[] = { (char *)path, NULL };
	int opts = FTS_PHYSICAL | FTS_XDEV |
		   (w->act == ACT_SHOW ? FTS_COMFOLLOW : 0);
	FTSENT *e;
	FTS *fts;
	int rc = 0;

	fts = fts_open(paths, opts, NULL);
	if (!fts)
		return -errno;
	/* each path may be on another filesystem */
	memset(&w->ids, 0, sizeof(w->ids));
	w->stop = false;
	while (!rc && !w->stop) {
		errno = 0;	/* fts_read() ends with NULL, and errno on error */
		e = fts_read(fts);
		if (!e)
			break;
		rc = walk_entry(w, fts, e);
	}
	if (!rc && !w->stop && errno) {
		w->path = path;
		path_err(w, errno, "walk");
	}
	fts_close(fts);
	return rc;
}

static void summary(const struct walk *w, const char *path, const char *who)
{
	size_t total = w->nchanged + w->nunchanged;
	const char *what = total == 1 ? "file or directory" : "files and directories";

	if (w->nchanged)
		printf("changed %s: %s on %zu of %zu %s\n", path, who,
		       w->nchanged, total, what);
	else
		printf("unchanged %s: %s on %zu %s\n", path, who, total, what);
}

/* What one "qfd project ACTION ..." was asked, beside the walk's state. */
struct project_cmd {
	struct walk w;
	struct qfd_outopts oo;
	bool quiet, exit_changed;
	size_t changed;		/* over every path */
	char who[300];		/* "project NAME (ID)", for the summaries */
	char **paths;		/* to walk */
	int npaths;
};

static const struct option project_opts[] = {
	{ "recursive", no_argument, NULL, 'r' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "exit-changed", no_argument, NULL, OPT_EXIT_CHANGED },
	{ "help", no_argument, NULL, 'h' },
	/* the output options, but -r is --recursive here: --raw only */
	{ "bytes", no_argument, NULL, 'b' },
	{ "json", no_argument, NULL, 'J' },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "csv", no_argument, NULL, QFD_OPT_CSV },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "list-columns", no_argument, NULL, 'H' },
	{ "sort", required_argument, NULL, QFD_OPT_SORT },
	{ NULL, 0, NULL, 0 }
};

/* The action, the first argument (or -h). */
static int parse_action(struct project_cmd *pc, const char *act)
{
	char shown[QFD_SHOWN_LEN];

	if (!strcmp(act, "-h") || !strcmp(act, "--help")) {
		qfd_cmd_help(&qfd_cmd_project);
		return QFD_OPTS_DONE;
	}
	if (!strcmp(act, "set"))
		pc->w.act = ACT_SET;
	else if (!strcmp(act, "clear"))
		pc->w.act = ACT_CLEAR;
	else if (!strcmp(act, "show"))
		pc->w.act = ACT_SHOW;
	else
		return qfd_opts_bad("project", "unknown action '%s': set, clear or show",
				    qfd_shown(act, shown));
	return QFD_OPTS_GO;
}

/* The options after the action. */
static int parse_opts(struct project_cmd *pc, int argc, char **argv)
{
	struct qfd_getopt g = { &qfd_cmd_project, "rqbJno:Hh", project_opts, NULL, NULL };
	int c;

	optind = 0;
	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (c != 'r' && qfd_outopt(&pc->oo, c == OPT_RAW ? 'r' : c, optarg)) {
			if (pc->w.act != ACT_SHOW)
				return qfd_opts_bad("project", "output options go with 'show'");
			continue;
		}
		switch (c) {
		case 'r':
			pc->w.recursive = true;
			break;
		case 'q':
			pc->quiet = true;
			break;
		case OPT_EXIT_CHANGED:
			pc->exit_changed = true;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	return QFD_OPTS_GO;
}

/* The project of 'set', named for the summaries. */
static int parse_project(struct project_cmd *pc, const char *arg)
{
	const char *name;
	char msg[256];
	int err;

	err = qfd_id_parse(QFD_PRJ, arg, &pc->w.projid);
	if (err) {
		warnx("%s", qfd_id_strerror(QFD_PRJ, arg, err, msg, sizeof(msg)));
		return QFD_OPTS_BAD;
	}
	name = qfd_id_name(QFD_PRJ, pc->w.projid);
	if (name)
		snprintf(pc->who, sizeof(pc->who), "project %s (%u)", name,
			 pc->w.projid);
	else
		snprintf(pc->who, sizeof(pc->who), "project %u", pc->w.projid);
	return QFD_OPTS_GO;
}

/*
 * The paths to walk, checked before anything is touched (a bad project
 * too).  Set takes one, then the project.
 */
static int parse_args(struct project_cmd *pc, char **args, int nargs)
{
	pc->paths = args;
	pc->npaths = nargs;
	if (pc->w.act != ACT_SET) {
		if (!nargs)
			return qfd_opts_bad("project", "name a %s",
					    pc->w.act == ACT_SHOW ? "path" : "directory");
		snprintf(pc->who, sizeof(pc->who), "project cleared");
		return QFD_OPTS_GO;
	}
	if (nargs != 2)
		return qfd_opts_bad("project", "%s", nargs < 2 ?
				    "name the directory and the project: qfd project set DIR PROJECT" :
				    "one directory at a time: qfd project set DIR PROJECT");
	pc->npaths = 1;
	return parse_project(pc, args[1]);
}

static int parse(int argc, char **argv, struct project_cmd *pc)
{
	int rc;

	if (argc < 2)
		return qfd_opts_bad("project", "name an action: set, clear or show");
	rc = parse_action(pc, argv[1]);
	if (rc)
		return rc;
	argc--;
	argv++;
	argv[0] = program_invocation_short_name;	/* for getopt's messages */
	rc = parse_opts(pc, argc, argv);
	if (rc)
		return rc;
	if (pc->w.act == ACT_SHOW && pc->oo.list_columns) {
		qfd_out_list_columns(project_cols, PCOL_NCOLS);
		return QFD_OPTS_DONE;
	}
	return parse_args(pc, argv + optind, argc - optind);
}

static int walk_paths(struct project_cmd *pc, char **paths, int npaths)
{
	struct walk *w = &pc->w;
	int n, err = 0;

	for (n = 0; n < npaths && !err; n++) {
		w->nchanged = w->nunchanged = 0;
		err = walk_top(w, paths[n]);
		if (err || w->act == ACT_SHOW)
			continue;
		pc->changed += w->nchanged;
		if (!pc->quiet && (w->nchanged || w->nunchanged))
			summary(w, paths[n], pc->who);
	}
	return err;
}

static int finish(struct project_cmd *pc, int err)
{
	struct walk *w = &pc->w;
	int rc = QFD_EXIT_OK;
	size_t i;

	if (err) {
		warnx("%s", strerror(-err));
		rc = QFD_EXIT_FAILURE;
	}
	if (w->out && qfd_out_print(w->out))
		rc = QFD_EXIT_FAILURE;
	if (w->failed)
		rc = QFD_EXIT_FAILURE;
	if (pc->exit_changed && pc->changed)
		rc = qfd_exit_merge(rc, QFD_EXIT_CHANGED);
	for (i = 0; i < w->nstrs; i++)
		free(w->strs[i]);
	free(w->strs);
	return rc;
}

static int run(int argc, char **argv)
{
	struct project_cmd pc;
	int rc;

	memset(&pc, 0, sizeof(pc));
	pc.oo.cmd = "project show";
	rc = parse(argc, argv, &pc);
	if (rc)
		return qfd_opts_exit(rc);
	if (pc.w.act == ACT_SHOW) {
		pc.w.out = qfd_out_new("projects", project_cols, PCOL_NCOLS, &pc.oo);
		if (!pc.w.out)
			return QFD_EXIT_USAGE;
	}
	return finish(&pc, walk_paths(&pc, pc.paths, pc.npaths));
}

const struct qfd_cmd qfd_cmd_project = {
	.name = "project",
	.run = run,
	.args = "set|clear|show [-r] [options] PATH... [PROJECT]",
	.summary = "assign directory trees to projects, for project quotas",
	.options = "  -r, --recursive      also everything below DIR (not following symbolic\n"
		   "                       links, not crossing into other filesystems)\n"
		   "  -q, --quiet          set, clear: print nothing but errors\n"
		   "      --exit-changed   set, clear: exit 4 when something was changed\n"
		   "show only:\n"
		   QFD_OUT_HELP_COLS
		   "      --raw            raw output: one line per row, no alignment\n"
		   QFD_OUT_HELP_REST,
	.notes = "Actions:\n"
		 "  set DIR PROJECT      charge DIR to PROJECT and let what is created in it\n"
		 "                       inherit it (with -r: what is already there, too)\n"
		 "  clear DIR...         remove the project id and the inherit flag\n"
		 "  show PATH...         the project and inherit flag of each path\n"
		 "\nPROJECT is a name from " QFD_PROJID_FILE " or a number.  The filesystem needs\n"
		 "project ids: ext4 made with -O project (and 256-byte inodes), f2fs made with\n"
		 "-O extra_attr,project_quota, or XFS.  Without them nothing is changed.\n"
		 "Then 'qfd set -p PATH PROJECT --bhard SIZE' limits the tree.\n",
};
