// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: 'qfd set --batch' files (batch.c), read through a
 * memory stream; a parsed request must be what batch.h promises, and a
 * batch with a NUL byte anywhere parses to nothing.  The
 * lines are project limits: project names resolve in /etc/projid alone
 * (read once), while an unknown user name would cost an NSS lookup per
 * execution, a hundred times slower, and exercise NSS, not qfd.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "qfd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL byte in any line makes the batch bad: nothing may be parsed. */
static bool has_nul(const uint8_t *data, size_t size)
{
	return memchr(data, '\0', size) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qfd_setlist l = { 0 };
	FILE *f;
	size_t i;
	int rc;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	rc = qfd_batch_read(&l, f, "fuzz", QFD_PRJ);
	fclose(f);
	if (rc && rc != -EINVAL)
		abort();
	if (!rc && !l.n)
		abort();	/* an empty batch is refused */
	if (!rc && has_nul(data, size))
		abort();	/* a line was cut at a NUL, or skipped */
	for (i = 0; i < l.n; i++) {
		struct qfd_setreq req, *r = &req;

		qfd_setlist_get(&l, i, r);
		if (!r->line || r->asked & ~0xfu || r->id == UINT32_MAX)
			abort();
		if (!*qfd_setreq_who(&l, r))
			abort();
		/* the byte order mark of line 1 is skipped, never a WHO */
		if (r->line == 1 && !strncmp(qfd_setreq_who(&l, r), "\xef\xbb\xbf", 3))
			abort();
	}
	qfd_setlist_free(&l);
	return 0;
}
