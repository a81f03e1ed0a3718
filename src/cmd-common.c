// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the commands share.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "cmds.h"
#include "kerr.h"
#include "mnt.h"
#include "quota.h"

void qfd_cmd_help(const struct qfd_cmd *cmd)
{
	/* -h with the other options, the notes after all of them */
	printf("Usage: qfd %s %s\n\n%c%s.\n\nOptions:\n%s"
	       "  -h, --help           show this help\n%s%s\n"
	       "See qfd(8) for details and examples.\n",
	       cmd->name, cmd->args, cmd->summary[0] - 'a' + 'A',
	       cmd->summary + 1, cmd->options, cmd->notes ? "\n" : "",
	       cmd->notes ? cmd->notes : "");
}

int qfd_opts_bad(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	qfd_usage_hint(cmd);
	return QFD_OPTS_BAD;
}

/* Option c as the user may have typed it: "-w (--warning)", "--batch". */
static void opt_name(const struct qfd_getopt *g, int c, char *buf, size_t len)
{
	const struct option *o = g->longopts;

	while (o && o->name && o->val != c)
		o++;
	if (!o || !o->name)
		snprintf(buf, len, "-%c", c);
	else if (c >= 0x80)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c (--%s)", c, o->name);
}

static bool opt_repeats(const struct qfd_getopt *g, int c)
{
	const int *r;

	for (r = g->repeatable; r && *r; r++)
		if (*r == c)
			return true;
	return false;
}

static bool opt_seen(const struct qfd_getopt *g, int c)
{
	return g->seen[c / 8] & (1u << (c % 8));
}

/* Does c meet an option given before that it excludes, or that excludes it? */
static bool opt_excluded(struct qfd_getopt *g, int c)
{
	const struct qfd_excl *e;
	char a[40], b[40];
	const int *o;

	for (e = g->excl; e && e->opt; e++) {
		for (o = e->others; *o && o < e->others + ARRAY_SIZE(e->others); o++) {
			if (!(c == e->opt && opt_seen(g, *o)) &&
			    !(c == *o && opt_seen(g, e->opt)))
				continue;
			opt_name(g, e->opt, a, sizeof(a));
			opt_name(g, *o, b, sizeof(b));
			if (e->msg)
				snprintf(g->msg, sizeof(g->msg), "%s", e->msg);
			else
				snprintf(g->msg, sizeof(g->msg), "%s and %s exclude each other", a, b);
			return true;
		}
	}
	return false;
}

int qfd_getopt(struct qfd_getopt *g, int argc, char **argv)
{
	int c = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
	char name[40];

	if (c < 0 || c == '?' || c >= QFD_OPT_BITS)
		return c;
	/* flags may come twice: -J -J asks the same */
	if (optarg && opt_seen(g, c) && !opt_repeats(g, c)) {
		opt_name(g, c, name, sizeof(name));
		snprintf(g->msg, sizeof(g->msg), "%s given twice: give it once", name);
		return QFD_OPT_REFUSED;
	}
	if (opt_excluded(g, c))
		return QFD_OPT_REFUSED;
	g->seen[c / 8] |= (unsigned char)(1u << (c % 8));
	return c;
}

int qfd_opt_default(const struct qfd_getopt *g, int c)
{
	if (c == 'h') {
		qfd_cmd_help(g->cmd);
		return QFD_OPTS_DONE;
	}
	if (c == QFD_OPT_REFUSED)
		return qfd_opts_bad(g->cmd->name, "%s", g->msg);
	qfd_usage_hint(g->cmd->name);
	return QFD_OPTS_BAD;
}

bool qfd_targets_ok(const char *cmd, bool all, int npaths)
{
	if (all == (npaths > 0)) {
		warnx("%s", all ? "-a and paths exclude each other" :
		      "name a path on the filesystem, or -a for all");
		qfd_usage_hint(cmd);
		return false;
	}
	return true;
}

bool qfd_typeopt(unsigned int *types, int c)
{
	switch (c) {
	case 'u':
		*types |= QFD_TYPE_BIT(QFD_USR);
		return true;
	case 'g':
		*types |= QFD_TYPE_BIT(QFD_GRP);
		return true;
	case 'p':
		*types |= QFD_TYPE_BIT(QFD_PRJ);
		return true;
	}
	return false;
}

int qfd_fs_types(struct qfd_fs *fs, unsigned int asked, unsigned int *types,
		 bool quiet)
{
	unsigned int accounted = 0;
	struct qfd_state st;
	int t, rc;

	*types = asked;
	/* named types on a named filesystem: let the kernel answer for them */
	if (asked && !quiet)
		return 0;
	for (t = 0; t < QFD_NTYPES; t++) {
		rc = qfd_quota_state(fs, t, &st);
		/* a type the filesystem does not know is simply not there */
		if (rc == -EINVAL || rc == -ESRCH)
			continue;
		if (rc) {
			if (!quiet)
				qfd_kerr(fs, t, rc, "read the state of");
			return rc;
		}
		if (st.accounting)
			accounted |= QFD_TYPE_BIT(t);
	}
	*types = asked ? asked & accounted : accounted;
	if (!*types) {
		if (!quiet)
			warnx("%s: no quota type is accounted on this %s filesystem: mount it with quota options (usrquota, grpquota, prjquota) or make it with quotas (mkfs.ext4 -O quota)",
			      fs->target, fs->fstype);
		return -ESRCH;
	}
	return 0;
}
