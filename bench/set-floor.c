// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/set-floor.c: the least an idempotent "set limits for N ids" can
 * do, as the yardstick for bench/set-batch.sh.  For each id it reads the
 * entry (Q_GETQUOTA, as qfd does to know what would change) and writes
 * the four limits (Q_XSETQLIM with only the limit fields in its mask, as
 * qfd does), through quotactl_fd(2) on an O_PATH descriptor: no parsing,
 * no names, no comparison, no undo.
 *
 *     set-floor MOUNTPOINT FIRST N BSOFT BHARD ISOFT IHARD [two-passes]
 *
 * With "two-passes", every entry is read first and then every one
 * written, as qfd set does when a request needs the kernel's entry to be
 * checked before the first write: on ext4 with many entries cached the
 * kernel's dquot hash makes that order dearer (bench/README).
 *
 * Ids FIRST .. FIRST+N-1, user quotas; BSOFT and BHARD in bytes (a
 * multiple of 1024), ISOFT and IHARD counts.  Exit 0, or 1 at the first
 * failed call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dqblk_xfs.h>
#include <stdbool.h>
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

static int qctl(int fd, int cmd, uint32_t id, void *addr)
{
	return (int)syscall(SYS_quotactl_fd, fd, QCMD(cmd, USRQUOTA), id, addr);
}

static int get(int fd, uint32_t id)
{
	struct if_dqblk d;

	return qctl(fd, Q_GETQUOTA, id, &d);
}

static int set(int fd, uint32_t id, const unsigned long long *v)
{
	struct fs_disk_quota x;

	memset(&x, 0, sizeof(x));
	x.d_version = FS_DQUOT_VERSION;
	x.d_flags = FS_USER_QUOTA;
	x.d_id = id;
	x.d_fieldmask = FS_DQ_BSOFT | FS_DQ_BHARD | FS_DQ_ISOFT | FS_DQ_IHARD;
	x.d_blk_softlimit = v[0] / 512;	/* basic blocks */
	x.d_blk_hardlimit = v[1] / 512;
	x.d_ino_softlimit = v[2];
	x.d_ino_hardlimit = v[3];
	return qctl(fd, Q_XSETQLIM, id, &x);
}

int main(int argc, char **argv)
{
	unsigned long long v[4];
	uint32_t first, n, i;
	bool two;
	int fd, k;

	two = argc == 9 && !strcmp(argv[8], "two-passes");
	if (argc != 8 && !two) {
		fprintf(stderr, "usage: set-floor MOUNTPOINT FIRST N BSOFT BHARD ISOFT IHARD [two-passes]\n");
		return 1;
	}
	first = (uint32_t)strtoul(argv[2], NULL, 10);
	n = (uint32_t)strtoul(argv[3], NULL, 10);
	for (k = 0; k < 4; k++)
		v[k] = strtoull(argv[4 + k], NULL, 10);
	fd = open(argv[1], O_PATH | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "set-floor: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 0; two && i < n; i++)
		if (get(fd, first + i) < 0)
			goto fail;
	for (i = 0; i < n; i++) {
		if (!two && get(fd, first + i) < 0)
			goto fail;
		if (set(fd, first + i, v) < 0)
			goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "set-floor: %s: id %u: %s\n", argv[1], first + i, strerror(errno));
	return 1;
}
