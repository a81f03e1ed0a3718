// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What qfd.h declares: the base layer every other file may use, which
 * itself uses nothing of qfd's.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "qfd.h"

bool qfd_debug;
int qfd_fail_status = QFD_EXIT_FAILURE;

void qfd_oom(void)
{
	errx(qfd_fail_status, "out of memory");
}

void *qfd_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		qfd_oom();
	return p;
}

void *qfd_xreallocarray(void *p, size_t n, size_t size)
{
	void *np = reallocarray(p, n, size);

	if (!np)
		qfd_oom();
	return np;
}

const char *qfd_type_name(int type)
{
	static const char *const names[QFD_NTYPES] = {
		[QFD_USR] = "user", [QFD_GRP] = "group", [QFD_PRJ] = "project",
	};

	return type >= 0 && type < QFD_NTYPES ? names[type] : "unknown";
}

int qfd_exit_merge(int a, int b)
{
	static const int rank[] = {
		[QFD_EXIT_OK] = 0, [QFD_EXIT_CHANGED] = 1,
		[QFD_EXIT_FAILURE] = 2, [QFD_EXIT_OVER] = 3,
		[QFD_EXIT_USAGE] = 4,
	};

	return rank[a] >= rank[b] ? a : b;
}

void qfd_usage_hint(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'qfd %s --help' for more information.\n", cmd);
	else
		fprintf(stderr, "Try 'qfd --help' for more information.\n");
}
