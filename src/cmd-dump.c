// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd dump: the quota state of a filesystem as the document 'qfd apply'
 * reads, so that "qfd dump /a | qfd apply --path /b -" copies it to another
 * filesystem, of the same type or not.
 *
 * It streams: every entry is printed as Q_GETNEXTQUOTA returns it, and
 * nothing is kept, so 100,000 ids cost what one does; stdout is held
 * (qfd_stdout_hold) until the document is whole.  Ids are written as
 * numbers, which mean the same on both sides where names might not; an
 * entry without any limit carries nothing to restore and is left out.
 * Limits are bytes and counts, grace periods seconds, a running grace time
 * the second it ends: exactly what the kernel keeps, so a dump applied
 * back changes nothing.
 */
#include <err.h>
#include <errno.h>
#include <fts.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json.h>

#include "batch.h"
#include "cmds.h"
#include "desired.h"
#include "kerr.h"
#include "mnt.h"
#include "output.h"
#include "fsattr.h"
#include "quota.h"

enum { OPT_PROJECT_DIRS = 0x200 };

struct dump {
	bool first;		/* no limits item printed yet in this type */
};

static void print_lim(uint64_t v)
{
	if (v)
		printf("%llu", (unsigned long long)v);
	else
		fputs("null", stdout);
}

static int dump_entry(const struct qfd_dq *dq, void *arg)
{
	struct dump *d = arg;
	const uint64_t lim[QFD_NLIMITS] = {
		dq->space_soft, dq->space_hard, dq->files_soft, dq->files_hard,
	};
	const int64_t timer[QFD_NTIMERS] = { dq->space_timer, dq->files_timer };
	int i;

	if (!lim[0] && !lim[1] && !lim[2] && !lim[3])
		return 0;
	printf("%s\n        { \"who\": %u", d->first ? "" : ",", dq->id);
	for (i = 0; i < QFD_NLIMITS; i++) {
		printf(", \"%s\": ", qfd_want_lim_key[i]);
		print_lim(lim[i]);
	}
	/* id 0's timers are XFS's grace periods, written as "grace" */
	for (i = 0; dq->id && i < QFD_NTIMERS; i++)
		if (timer[i])
			printf(", \"%s\": %lld", qfd_want_timer_key[i],
			       (long long)timer[i]);
	putchar('}');
	d->first = false;
	return ferror(stdout) ? -EIO : 0;
}

/* A path as JSON: json-c's escaping, and the slashes left as they are. */
static void print_str(const char *str)
{
	json_object *o = json_object_new_string(str);

	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	json_object_put(o);
}

struct dirwalk {
	struct qfd_fs *fs;
	struct qfd_fsattr_seen ids;
	size_t skip;		/* of fts_path: the mount point and its '/' */
	bool first, failed, stop;
};

/* One directory of the walk, printed when it carries a project. */
static void dump_dir(struct dirwalk *w, FTSENT *e)
{
	struct fsxattr fa;
	struct stat st;
	char msg[512];
	int fd, err;

	fd = qfd_fsattr_open_entry(e, false, &st);
	if (fd == -ESTALE)
		return;
	err = fd < 0 ? -fd : qfd_fsattr_get(&w->ids, fd, &fa);
	if (err && fd >= 0 && qfd_fsattr_unsupported(&w->ids, err)) {
		qfd_fsattr_nosupport_msg(msg, sizeof(msg), fd);
		warnx("%s: cannot read project ids: %s", w->fs->target, msg);
		w->stop = true;
	} else if (err) {
		warnx("%s: cannot read its project: %s", e->fts_path, strerror(err));
	}
	if (fd >= 0)
		close(fd);
	if (err) {
		w->failed = true;
		return;
	}
	if (!fa.fsx_projid)
		return;
	printf("%s\n        { \"path\": ", w->first ? "" : ",");
	print_str(e->fts_level ? e->fts_path + w->skip : ".");
	printf(", \"project\": %u, \"inherit\": %s }", fa.fsx_projid,
	       fa.fsx_xflags & FS_XFLAG_PROJINHERIT ? "true" : "false");
	w->first = false;
}

/*
 * Every directory of the filesystem that carries a project id, with fts
 * as 'qfd project' walks: physical, on this filesystem only, each entry
 * opened without following links and checked to be what fts saw.
 */
static int dump_dirs(struct qfd_fs *fs)
{
	char *const paths[] = { fs->target, NULL };
	struct dirwalk w = { .fs = fs, .first = true };
	size_t len = strlen(fs->target);
	FTSENT *e;
	FTS *fts;

	w.skip = len + (len && fs->target[len - 1] != '/');
	fts = fts_open(paths, FTS_PHYSICAL | FTS_XDEV, NULL);
	if (!fts) {
		warn("%s", fs->target);
		return -1;
	}
	printf(",\n      \"project-dirs\": [");
	while (!w.stop && (errno = 0, e = fts_read(fts))) {
		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR ||
		    e->fts_info == FTS_NS) {
			warnx("%s: cannot read: %s", e->fts_path, strerror(e->fts_errno));
			w.failed = true;
		} else if (e->fts_info == FTS_D && e->fts_statp->st_dev == fs->dev) {
			dump_dir(&w, e);
		}
	}
	if (!w.stop && errno) {
		warn("%s: cannot walk", fs->target);
		w.failed = true;
	}
	fts_close(fts);
	printf("%s]", w.first ? "" : "\n      ");
	return w.failed || ferror(stdout) ? -1 : 0;
}

static int dump_type(struct qfd_fs *fs, int type, bool *first_type)
{
	struct dump d = { .first = true };
	struct qfd_state st;
	int rc;

	rc = qfd_quota_state(fs, type, &st);
	if (rc) {
		qfd_kerr(fs, type, rc, "read");
		return rc;
	}
	printf("%s\n      \"%s\": {\n        \"enforce\": %s,\n"
	       "        \"grace\": { \"space\": %llu, \"files\": %llu },\n"
	       "        \"limits\": [", *first_type ? "" : ",",
	       qfd_want_type_key[type], st.enforcing ? "true" : "false",
	       (unsigned long long)st.space_grace,
	       (unsigned long long)st.files_grace);
	*first_type = false;
	rc = qfd_quota_each(fs, type, dump_entry, &d);
	if (rc < 0) {
		qfd_kerr(fs, type, rc, "read");
		return rc;
	}
	printf("%s]\n      }", d.first ? "" : "\n        ");
	return 0;
}

struct dump_opts {
	unsigned int asked;	/* -u/-g/-p */
	bool dirs;		/* --project-dirs */
	const char *path;
};

static int parse(int argc, char **argv, struct dump_opts *o)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ "project-dirs", no_argument, NULL, OPT_PROJECT_DIRS },
		{ NULL, 0, NULL, 0 }
	};
	struct qfd_getopt g = { &qfd_cmd_dump, QFD_TYPE_SHORTOPTS "h", opts, NULL, NULL };
	int c;

	while ((c = qfd_getopt(&g, argc, argv)) != -1) {
		if (qfd_typeopt(&o->asked, c))
			continue;
		switch (c) {
		case OPT_PROJECT_DIRS:
			o->dirs = true;
			break;
		default:
			return qfd_opt_default(&g, c);
		}
	}
	if (optind + 1 != argc)
		return qfd_opts_bad("dump", "%s", optind >= argc ?
				    "name a path on the filesystem" :
				    "one filesystem at a time");
	o->path = argv[optind];
	return QFD_OPTS_GO;
}

/* The document, once the types are known to be readable. */
static int dump_doc(const struct dump_opts *o, struct qfd_fs *fs,
		    unsigned int types)
{
	bool first = true;
	int t, rc = 0;

	printf("{\n  \"filesystems\": [\n    {\n      \"path\": ");
	print_str(fs->target);
	putchar(',');
	for (t = 0; t < QFD_NTYPES && !rc; t++)
		if (types & QFD_TYPE_BIT(t))
			rc = dump_type(fs, t, &first);
	if (!rc && o->dirs)
		rc = dump_dirs(fs);
	printf("\n    }\n  ]\n}\n");
	return rc;
}

static int run(int argc, char **argv)
{
	struct dump_opts o = { 0 };
	struct qfd_fs fs = { .fd = -1 };
	unsigned int types;
	int rc;

	rc = parse(argc, argv, &o);
	if (rc)
		return qfd_opts_exit(rc);
	rc = qfd_fs_open(o.path, &fs);
	if (rc)
		return qfd_fs_open_exit(rc);
	/* nothing is printed before the types are known to be readable */
	rc = qfd_fs_types(&fs, o.asked, &types, false);
	/* a dump cut short by a failure must not reach apply as a whole one */
	if (!rc)
		rc = qfd_stdout_hold();
	if (!rc)
		rc = dump_doc(&o, &fs, types);
	qfd_fs_close(&fs);
	return rc ? QFD_EXIT_FAILURE : QFD_EXIT_OK;
}

const struct qfd_cmd qfd_cmd_dump = {
	.name = "dump",
	.run = run,
	.args = "[-ugp] [--project-dirs] PATH",
	.summary = "write a filesystem's quota state as a document for apply",
	.options = QFD_TYPE_HELP
		   "      --project-dirs   also every directory that carries a project id\n"
		   "                       (with its inherit flag): a walk of the filesystem\n",
	.notes = "Writes enforcement, grace periods and every id's limits of PATH's\n"
		 "filesystem as a JSON document for 'qfd apply' (qfd-apply(8)); the\n"
		 "quota types given, or every type the filesystem accounts.  A grace\n"
		 "time that runs is written as the time it ends (seconds since 1970).\n"
		 "Usage is not written.\n",
};
