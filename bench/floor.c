// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/floor.c: the least any quota report can do, as the yardstick for
 * bench/report.sh.  It opens MOUNTPOINT with O_PATH, walks every user
 * quota entry with Q_GETNEXTQUOTA through quotactl_fd(2), and prints the
 * id and the six numbers of each entry with one printf: no names, no
 * units, no table, no checks beyond the syscall's return.  A tool's time
 * divided by this loop's is the cost of everything the tool adds.
 *
 * With "names", it first reads the passwd database whole through nss
 * (getpwent(), as a report that resolves many ids must: one getpwuid()
 * per id costs a pass over the database each) and keeps each id and a
 * copy of its name, and looks nothing up: the least that resolving names
 * adds, whatever a tool then does to find them.
 *
 *     floor MOUNTPOINT [usr|grp|prj] [names]
 *
 * Exit 0 at the end of the entries (ENOENT), 1 on any other error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/quota.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_quotactl_fd
#define SYS_quotactl_fd 443	/* x86_64, as the VM runs it */
#endif

struct user {
	uid_t uid;
	char *name;
};

/* Every entry of passwd, kept: returns how many, or -1 out of memory. */
static long read_users(struct user **users)
{
	struct passwd *pw;
	size_t n = 0, cap = 0;

	setpwent();
	while ((pw = getpwent())) {
		if (n == cap) {
			struct user *u = realloc(*users, (cap = cap ? 2 * cap : 1024) * sizeof(*u));

			if (!u)
				return -1;
			*users = u;
		}
		(*users)[n].uid = pw->pw_uid;
		if (!((*users)[n++].name = strdup(pw->pw_name)))
			return -1;
	}
	endpwent();
	return (long)n;
}

int main(int argc, char **argv)
{
	struct if_nextdqblk d;
	struct user *users = NULL;
	unsigned int id = 0;
	int fd, type = USRQUOTA;

	if (argc < 2 || argc > 4 || (argc == 4 && strcmp(argv[3], "names"))) {
		fprintf(stderr, "usage: floor MOUNTPOINT [usr|grp|prj] [names]\n");
		return 1;
	}
	if (argc >= 3)
		type = !strcmp(argv[2], "grp") ? GRPQUOTA : !strcmp(argv[2], "prj") ? 2 : USRQUOTA;
	if (argc == 4 && read_users(&users) < 0) {
		fprintf(stderr, "floor: out of memory reading passwd\n");
		return 1;
	}
	fd = open(argv[1], O_PATH | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "floor: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (;;) {
		if (syscall(SYS_quotactl_fd, fd, QCMD(Q_GETNEXTQUOTA, type), id, &d) < 0)
			break;
		printf("%u %llu %llu %llu %llu %llu %llu\n", d.dqb_id,
		       (unsigned long long)d.dqb_curspace,
		       (unsigned long long)d.dqb_bsoftlimit,
		       (unsigned long long)d.dqb_bhardlimit,
		       (unsigned long long)d.dqb_curinodes,
		       (unsigned long long)d.dqb_isoftlimit,
		       (unsigned long long)d.dqb_ihardlimit);
		if (d.dqb_id == UINT32_MAX)
			return 0;
		id = d.dqb_id + 1;
	}
	if (errno == ENOENT)
		return 0;
	fprintf(stderr, "floor: %s: Q_GETNEXTQUOTA after id %u: %s\n", argv[1], id, strerror(errno));
	return 1;
}
