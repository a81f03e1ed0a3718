// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd dump: the quota state of a filesystem as the document 'qfd apply'
 * reads, so that "qfd dump /a | qfd apply --path /b -" copies it to another
 * filesystem, of the same type or not.
 *
 * It streams: every entry is printed as Q_GETNEXTQUOTA returns it, and
 * nothing is kept, so 100,000 ids cost what one does.  Ids are written as
 * numbers, which mean the same on both sides where names might not; an
 * entry without any limit carries nothing to restore and is left out.
 * Limits are bytes and counts, grace periods seconds: exactly what the
 * kernel keeps, so a dump applied back changes nothing.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <json.h>

#include "batch.h"
#include "cmds.h"
#include "desired.h"
#include "mnt.h"
#include "quota.h"

struct dump {
	bool first;		/* no limits item printed yet in this type */
};

static void help(void)
{
	qfd_cmd_help("dump", QFD_TYPE_HELP,
		     "Writes enforcement, grace periods and every id's limits of PATH's\n"
		     "filesystem as a JSON document for 'qfd apply' (qfd-apply(8)); the\n"
		     "quota types given, or every type the filesystem accounts.  Usage,\n"
		     "running grace times and project directories are not written.\n");
}

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
	int i;

	if (!lim[0] && !lim[1] && !lim[2] && !lim[3])
		return 0;
	printf("%s\n        { \"who\": %u", d->first ? "" : ",", dq->id);
	for (i = 0; i < QFD_NLIMITS; i++) {
		printf(", \"%s\": ", qfd_want_lim_key[i]);
		print_lim(lim[i]);
	}
	putchar('}');
	d->first = false;
	return ferror(stdout) ? -EIO : 0;
}

static int dump_type(struct qfd_fs *fs, int type, bool *first_type)
{
	struct dump d = { .first = true };
	struct qfd_state st;
	int rc;

	rc = qf_state(fs, type, &st);
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
	rc = qf_each(fs, type, dump_entry, &d);
	if (rc < 0) {
		qfd_kerr(fs, type, rc, "read");
		return rc;
	}
	printf("%s]\n      }", d.first ? "" : "\n        ");
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	unsigned int asked = 0, types;
	struct qfd_fs fs = { .fd = -1 };
	json_object *path;
	bool first = true;
	int c, t, rc;

	while ((c = getopt_long(argc, argv, QFD_TYPE_SHORTOPTS "h", opts, NULL)) != -1) {
		if (qfd_typeopt(&asked, c))
			continue;
		if (c == 'h') {
			help();
			return QFD_EXIT_OK;
		}
		qfd_usage_hint("dump");
		return QFD_EXIT_USAGE;
	}
	if (optind + 1 != argc)
		QFD_USAGE_ERR("dump", optind >= argc ? "name a path on the filesystem" :
			      "one filesystem at a time");
	rc = qfd_fs_open(argv[optind], &fs);
	if (rc)
		return qfd_fs_open_exit(rc);
	/* nothing is printed before the types are known to be readable */
	rc = qfd_fs_types(&fs, asked, &types, false);
	if (rc) {
		qfd_fs_close(&fs);
		return QFD_EXIT_FAILURE;
	}
	path = json_object_new_string(fs.target);
	printf("{\n  \"filesystems\": [\n    {\n      \"path\": %s,",
	       json_object_to_json_string_ext(path, JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(path);
	for (t = 0; t < QFD_NTYPES && !rc; t++)
		if (types & QFD_TYPE_BIT(t))
			rc = dump_type(&fs, t, &first);
	printf("\n    }\n  ]\n}\n");
	qfd_fs_close(&fs);
	return rc ? QFD_EXIT_FAILURE : QFD_EXIT_OK;
}
