// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/qfd-profile.c: a benchmark driver, not a test.  It runs qfd's
 * own "report" and "set" code (cmd-report.c, cmd-set.c, batch.c,
 * setwrite.c, output.c, rows.c, units.c, ids.c, prom.c..., linked
 * unchanged) on the host, where the kernel cannot do quotas, over a
 * synthetic stream of quota entries, so that perf or callgrind can show
 * where qfd's own time goes without the VM's noise and without TCG's
 * slow system calls.  No quota call reaches the kernel: "set" changes
 * nothing anywhere.
 *
 * What it replaces is only what talks to the kernel: qfd_quota_each() hands out
 * QFD_PROFILE_IDS entries (default 100,000) shaped as bench/report.sh
 * makes them (ids from 200000, 1 GiB / 2 GiB and 1000 / 2000 limits, one
 * id in 100 owning one 4 KiB file), qfd_quota_state() says user quotas are on,
 * and every PATH "opens" as an ext4 filesystem.  For set, qfd_quota_get()
 * answers an entry without limits for every id and qfd_quota_set() counts, so
 * every line of a batch is planned and "written".  Names go through the
 * host's real NSS, as qfd's would.
 *
 *     qfd-profile report [REPORT OPTIONS] PATH    qfd report, as is
 *     qfd-profile set [SET OPTIONS] PATH ...      qfd set, as is
 *     qfd-profile apply [APPLY OPTIONS] FILE      qfd apply, as is (every
 *                                                 path of FILE "opens")
 *     qfd-profile floor                           one printf per entry
 *
 * "floor" is bench/floor.c's loop without the system call: the least a
 * report that prints seven numbers per entry can cost here.  Build and
 * run it with bench/profile.sh.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ids.h"
#include "mnt.h"
#include "output.h"
#include "quota.h"

static uint32_t env_u32(const char *name, uint32_t dflt)
{
	const char *s = getenv(name);

	return s ? (uint32_t)strtoul(s, NULL, 10) : dflt;
}

static uint32_t n_ids(void)
{
	return env_u32("QFD_PROFILE_IDS", 100000);
}

/*
 * Entry i of the stream, as bench/report.sh sets them up; with
 * QFD_PROFILE_MIX=1 also ids past their soft limits (grace running or
 * over) and at a hard one, to compare outputs of two builds cell by cell.
 */
static void make_dq(uint32_t i, struct qfd_dq *dq)
{
	static uint32_t first = UINT32_MAX;
	static int mix = -1;

	if (first == UINT32_MAX) {
		first = env_u32("QFD_PROFILE_FIRST_ID", 200000);
		mix = (int)env_u32("QFD_PROFILE_MIX", 0);
	}
	memset(dq, 0, sizeof(*dq));
	dq->id = first + i;
	dq->space_soft = 1ull << 30;
	dq->space_hard = 2ull << 30;
	dq->files_soft = 1000;
	dq->files_hard = 2000;
	if (i % 100 == 0) {
		dq->space = 4096;
		dq->files = 1;
	}
	if (mix && i % 7 == 3) {
		dq->space = (3ull << 29) + i;
		dq->space_timer = 2000000000 - (int64_t)i * 977;
		dq->files = 2000 + i % 3;
	}
	if (mix && i % 11 == 5)
		dq->space_soft = dq->files_hard = 0;
}

int qfd_quota_each(struct qfd_fs *fs, int type, qfd_quota_each_fn fn, void *arg)
{
	uint32_t i, n = n_ids();
	struct qfd_dq dq;
	int rc;

	(void)fs;
	if (type != QFD_USR)
		return -ESRCH;
	for (i = 0; i < n; i++) {
		make_dq(i, &dq);
		rc = fn(&dq, arg);
		if (rc)
			return rc;
	}
	return 0;
}

int qfd_quota_state(struct qfd_fs *fs, int type, struct qfd_state *st)
{
	(void)fs;
	memset(st, 0, sizeof(*st));
	if (type != QFD_USR)
		return -ESRCH;
	st->accounting = st->enforcing = true;
	st->space_grace = st->files_grace = 7 * 86400;
	return 0;
}

int qfd_fs_open_list(char **paths, int npaths, bool all,
		     struct qfd_fs **fss, size_t *nfs, char *why, size_t len)
{
	int i;

	(void)all;
	(void)why;
	(void)len;
	*fss = calloc((size_t)npaths, sizeof(**fss));
	if (!*fss)
		return 1;
	for (i = 0; i < npaths; i++) {
		(*fss)[i].target = paths[i];
		(*fss)[i].source = "/dev/loop0";
		(*fss)[i].fstype = "ext4";
		(*fss)[i].fd = -1;
	}
	*nfs = (size_t)npaths;
	return 0;
}

int qfd_fs_open(const char *path, struct qfd_fs *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->target = strdup(path);
	fs->source = strdup("/dev/loop0");
	fs->fstype = strdup("ext4");
	fs->fd = -1;
	return fs->target && fs->source && fs->fstype ? 0 : -ENOMEM;
}

/* apply: each path its own filesystem, as apply refuses one named twice */
int qfd_fs_open_named(const char *path, const char *name, struct qfd_fs *fs)
{
	static dev_t next = 1;

	(void)name;
	if (qfd_fs_open(path, fs))
		return -ENOMEM;
	fs->dev = next++;
	return 0;
}

/* apply's project directories: none in a profiled document */
int qfd_mnt_of_fd(int fd, char **target, char **fstype)
{
	(void)fd;
	*target = *fstype = NULL;
	return -ENOSYS;
}

void qfd_fs_close(struct qfd_fs *fs)
{
	free(fs->target);
	free(fs->source);
	free(fs->fstype);
}

int qfd_fs_open_exit(int rc)
{
	(void)rc;
	return 1;
}

/* set: every id has an entry with usage and no limits yet */
int qfd_quota_get(struct qfd_fs *fs, int type, uint32_t id, struct qfd_dq *dq)
{
	(void)fs;
	(void)type;
	memset(dq, 0, sizeof(*dq));
	dq->id = id;
	return 0;
}

int qfd_quota_set(struct qfd_fs *fs, int type, uint32_t id, unsigned int mask,
	   const struct qfd_dq *val)
{
	(void)fs;
	(void)type;
	(void)id;
	(void)mask;
	(void)val;
	return 0;
}

int qfd_quota_set_grace(struct qfd_fs *fs, int type, const uint64_t *space,
		 const uint64_t *files)
{
	(void)fs;
	(void)type;
	(void)space;
	(void)files;
	return 0;
}

int qfd_quota_on(struct qfd_fs *fs, int type)
{
	(void)fs;
	(void)type;
	return 0;
}

int qfd_quota_off(struct qfd_fs *fs, int type)
{
	(void)fs;
	(void)type;
	return 0;
}

int64_t qfd_quota_round_timer(const struct qfd_fs *fs, int64_t t)
{
	(void)fs;
	return t;
}

uint64_t qfd_quota_limit_unit(const struct qfd_fs *fs)
{
	(void)fs;
	return QFD_LIMIT_UNIT;
}

/* the kernel's error lines name tmpfs support: not asked here */
int qfd_tmpfs_quota_support(void)
{
	return -1;
}

void qfd_fs_free_list(struct qfd_fs *fss, size_t nfs)
{
	(void)nfs;
	free(fss);
}

static const struct qfd_cmd *find_cmd(const char *name)
{
	static const struct qfd_cmd *const cmds[] = {
		&qfd_cmd_report, &qfd_cmd_set, &qfd_cmd_apply,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(name, cmds[i]->name))
			return cmds[i];
	return NULL;
}

static int floor_loop(void)
{
	uint32_t i, n = n_ids();
	struct qfd_dq d;

	for (i = 0; i < n; i++) {
		make_dq(i, &d);
		printf("%" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		       " %" PRIu64 " %" PRIu64 "\n", d.id, d.space, d.space_soft,
		       d.space_hard, d.files, d.files_soft, d.files_hard);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	setlocale(LC_ALL, "");
	qfd_stdout_setup();
	if (argc >= 2 && !strcmp(argv[1], "floor"))
		return floor_loop();
	if (argc < 2 || !find_cmd(argv[1])) {
		fprintf(stderr, "usage: qfd-profile report|set|apply [OPTIONS] PATH...|FILE | floor\n");
		return 2;
	}
	rc = find_cmd(argv[1])->run(argc - 1, argv + 1);
	qfd_ids_free();
	/* -J, -r, --csv and metrics are held until here, as in main.c */
	rc = qfd_stdout_release(rc);
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return rc;
}
