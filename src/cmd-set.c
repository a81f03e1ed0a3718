// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qfd set: change limits.
 *
 * Everything is checked before anything is written: every WHO resolved,
 * every size parsed, every current entry read.  Only the fields asked for
 * and actually different are sent, so a re-run changes nothing and two
 * setters of different fields never undo each other.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ids.h"
#include "mnt.h"
#include "quota.h"
#include "units.h"

enum {
	OPT_BSOFT = 0x200,
	OPT_BHARD,
	OPT_ISOFT,
	OPT_IHARD,
	OPT_EXIT_CHANGED,
};

struct field {
	const char *name;
	const char *opt;
	unsigned int bit;
	bool size;
	size_t off;
};

#define FIELD(n, opt, bit, size, member) \
	{ n, opt, bit, size, offsetof(struct qfd_dq, member) }

/* in the order of OPT_BSOFT.. */
static const struct field fields[] = {
	FIELD("space-soft", "--bsoft", QFD_SET_SPACE_SOFT, true, space_soft),
	FIELD("space-hard", "--bhard", QFD_SET_SPACE_HARD, true, space_hard),
	FIELD("files-soft", "--isoft", QFD_SET_FILES_SOFT, false, files_soft),
	FIELD("files-hard", "--ihard", QFD_SET_FILES_HARD, false, files_hard),
};

static uint64_t *fld(struct qfd_dq *dq, const struct field *f)
{
	return (uint64_t *)((char *)dq + f->off);
}

struct plan {
	uint32_t id;
	const char *who;
	struct qfd_dq cur;
	unsigned int mask;	/* the fields that differ */
};

static void fmt_field(const struct field *f, uint64_t v, bool bytes,
		      char *buf, size_t len)
{
	if (f->size && !bytes)
		qfd_format_size(v, buf, len);
	else
		qfd_format_count(v, buf, len);
}

static void describe(const struct plan *p, const struct qfd_dq *want,
		     const char *target, int type, bool bytes, const char *verb)
{
	char a[QFD_FMT_LEN], b[QFD_FMT_LEN];
	const char *sep = ": ";
	size_t i;

	printf("%s %s %s (%u) on %s", verb, qfd_type_name(type), p->who,
	       p->id, target);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const struct field *f = &fields[i];

		if (!(p->mask & f->bit))
			continue;
		fmt_field(f, *fld((struct qfd_dq *)&p->cur, f), bytes, a, sizeof(a));
		fmt_field(f, *fld((struct qfd_dq *)want, f), bytes, b, sizeof(b));
		printf("%s%s %s -> %s", sep, f->name, a, b);
		sep = ", ";
	}
	putchar('\n');
}

static int parse_limit(const char *opt, const char *arg, bool size,
		       uint64_t *v)
{
	int rc = size ? qfd_parse_size(arg, v) : qfd_parse_count(arg, v);

	if (rc == -ERANGE)
		warnx("%s '%s': too large", opt, arg);
	else if (rc)
		warnx(size ? "%s '%s': not a size (examples: 0, 500M, 1.5G, 2TiB)" :
		      "%s '%s': not a count (examples: 0, 1000, 10k, 2.5m)", opt, arg);
	return rc;
}

int cmd_set(int argc, char **argv)
{
	static const struct option opts[] = {
		QFD_TYPE_LONGOPTS,
		{ "bsoft", required_argument, NULL, OPT_BSOFT },
		{ "space-soft", required_argument, NULL, OPT_BSOFT },
		{ "bhard", required_argument, NULL, OPT_BHARD },
		{ "space-hard", required_argument, NULL, OPT_BHARD },
		{ "isoft", required_argument, NULL, OPT_ISOFT },
		{ "files-soft", required_argument, NULL, OPT_ISOFT },
		{ "ihard", required_argument, NULL, OPT_IHARD },
		{ "files-hard", required_argument, NULL, OPT_IHARD },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "exit-changed", no_argument, NULL, OPT_EXIT_CHANGED },
		{ NULL, 0, NULL, 0 }
	};
	bool dry_run = false, quiet = false, bytes = false, exit_changed = false;
	unsigned int types = 0, want_mask = 0;
	struct plan *plans = NULL;
	struct qfd_dq want = { 0 };
	size_t nplans = 0, nchanged = 0, i;
	struct qfd_fs fs;
	int c, type, err, rc = QFD_EXIT_OK;
	char msg[256];

	while ((c = getopt_long(argc, argv, QFD_TYPE_SHORTOPTS "nqbh", opts, NULL)) != -1) {
		if (qfd_typeopt(&types, c))
			continue;
		switch (c) {
		case OPT_BSOFT:
		case OPT_BHARD:
		case OPT_ISOFT:
		case OPT_IHARD: {
			const struct field *f = &fields[c - OPT_BSOFT];

			if (parse_limit(f->opt, optarg, f->size, fld(&want, f)))
				goto usage;
			if (f->size)
				*fld(&want, f) = qf_round_limit(*fld(&want, f));
			want_mask |= f->bit;
			break;
		}
		case 'n':
			dry_run = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'b':
			bytes = true;
			break;
		case OPT_EXIT_CHANGED:
			exit_changed = true;
			break;
		case 'h':
			qfd_cmd_help("set", QFD_TYPE_HELP
				     "      --bsoft SIZE     space soft limit (also --space-soft)\n"
				     "      --bhard SIZE     space hard limit (also --space-hard)\n"
				     "      --isoft N        files soft limit (also --files-soft)\n"
				     "      --ihard N        files hard limit (also --files-hard)\n"
				     "  -n, --dry-run        check and show what would change, write nothing\n"
				     "  -q, --quiet          print nothing\n"
				     "  -b, --bytes          show sizes in bytes\n"
				     "      --exit-changed   exit 4 when something was changed, 0 when not\n"
				     "\nSIZE: 500M, 1.5G, 2TiB (K, M, G... are 1024-based; KB, MB... 1000-based);\n"
				     "the kernel keeps space limits in KiB, so sizes round up to a KiB.\n"
				     "N: 1000, 10k, 2.5m (decimal).  0 removes a limit.\n");
			return QFD_EXIT_OK;
		default:
			goto usage;
		}
	}
	if (!types)
		types = QFD_TYPE_BIT(QFD_USR);
	if (types & (types - 1))
		QFD_USAGE_ERR("set", "set one quota type at a time: -u, -g or -p");
	type = __builtin_ctz(types);
	if (!want_mask)
		QFD_USAGE_ERR("set", "nothing to set: give --bsoft, --bhard, --isoft or --ihard");
	if (argc - optind < 2)
		QFD_USAGE_ERR("set", "%s", optind < argc ? "name who to set limits for" :
			      "name a path on the filesystem and who to set limits for");

	plans = calloc((size_t)(argc - optind), sizeof(*plans));
	if (!plans)
		errx(QFD_EXIT_FAILURE, "out of memory");
	for (i = (size_t)optind + 1; i < (size_t)argc; i++) {
		err = qfd_id_parse(type, argv[i], &plans[nplans].id);
		if (err) {
			warnx("%s", qfd_id_strerror(type, argv[i], err, msg, sizeof(msg)));
			free(plans);
			return QFD_EXIT_USAGE;
		}
		plans[nplans++].who = argv[i];
	}
	if (qfd_fs_open(argv[optind], &fs)) {
		free(plans);
		return QFD_EXIT_USAGE;
	}

	/* read everything first: a failure here has written nothing */
	for (i = 0; i < nplans; i++) {
		struct plan *p = &plans[i];
		struct qfd_dq final;
		size_t f;

		err = qf_get(&fs, type, p->id, &p->cur);
		if (err) {
			qfd_kerr(&fs, type, err, "set limits for");
			rc = QFD_EXIT_FAILURE;
			goto out;
		}
		final = p->cur;
		for (f = 0; f < ARRAY_SIZE(fields); f++) {
			if (!(want_mask & fields[f].bit))
				continue;
			*fld(&final, &fields[f]) = *fld(&want, &fields[f]);
			if (*fld(&p->cur, &fields[f]) != *fld(&want, &fields[f]))
				p->mask |= fields[f].bit;
		}
		/* XFS silently ignores such a pair: refuse it for everyone */
		if ((final.space_hard && final.space_soft > final.space_hard) ||
		    (final.files_hard && final.files_soft > final.files_hard)) {
			warnx("%s: %s %s: a soft limit would exceed its hard limit; nothing changed",
			      fs.target, qfd_type_name(type), p->who);
			rc = QFD_EXIT_USAGE;
			goto out;
		}
	}

	for (i = 0; i < nplans; i++) {
		struct plan *p = &plans[i];

		if (!p->mask) {
			if (!quiet)
				printf("unchanged %s %s (%u) on %s\n", qfd_type_name(type),
				       p->who, p->id, fs.target);
			continue;
		}
		if (!dry_run) {
			err = qf_set(&fs, type, p->id, p->mask, &want);
			if (err) {
				qfd_kerr(&fs, type, err, "set limits for");
				rc = QFD_EXIT_FAILURE;
				continue;
			}
		}
		nchanged++;
		if (!quiet)
			describe(p, &want, fs.target, type, bytes,
				 dry_run ? "would change" : "changed");
	}
	if (!rc && exit_changed && nchanged)
		rc = QFD_EXIT_CHANGED;
out:
	qfd_fs_close(&fs);
	free(plans);
	return rc;
usage:
	qfd_usage_hint("set");
	return QFD_EXIT_USAGE;
}
