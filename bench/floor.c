// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/floor.c: the least any quota report can do, as the yardstick for
 * bench/report.sh.  It opens MOUNTPOINT with O_PATH, walks every user
 * quota entry with Q_GETNEXTQUOTA through quotactl_fd(2), and prints the
 * id and the six numbers of each entry with one printf: no names, no
 * units, no table, no checks beyond the syscall's return.  A tool's time
 * divided by this loop's is the cost of everything the tool adds.
 *
 *     floor MOUNTPOINT [usr|grp|prj]
 *
 * Exit 0 at the end of the entries (ENOENT), 1 on any other error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

int main(int argc, char **argv)
{
	struct if_nextdqblk d;
	unsigned int id = 0;
	int fd, type = USRQUOTA;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: floor MOUNTPOINT [usr|grp|prj]\n");
		return 1;
	}
	if (argc == 3)
		type = !strcmp(argv[2], "grp") ? GRPQUOTA : !strcmp(argv[2], "prj") ? 2 : USRQUOTA;
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
