// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: 'qfd apply' documents (desired.c and jsonread.c, with
 * yajl and json-c, batch.c, ids.c and units.c), read as qfd reads them.
 * A document that parses must be what desired.h promises: every
 * filesystem has a path, every item an id and only the four limit bits,
 * and no limit asked for is 0 unless it is "no limit".
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desired.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct qfd_want w;
	size_t i, n;
	int rc, t;

	if (!f)
		abort();
	rc = qfd_want_read(&w, f, "fuzz", size && data[0] == ' ' ? "/override" : NULL);
	fclose(f);
	if (rc && rc != -EINVAL)
		abort();
	for (i = 0; !rc && i < w.nfs; i++) {
		if (!w.fs[i].path)
			abort();
		for (t = 0; t < QFD_NTYPES; t++) {
			const struct qfd_want_type *wt = &w.fs[i].t[t];

			if (!wt->present && (wt->list.n || wt->enforce != QFD_ENF_KEEP))
				abort();
			for (n = 0; n < wt->list.n; n++)
				if (wt->list.v[n].asked & ~0xfu ||
				    !*qfd_setreq_who(&wt->list, &wt->list.v[n]))
					abort();
		}
	}
	if (!rc && size && data[0] == ' ' && strcmp(w.fs[0].path, "/override"))
		abort();
	qfd_want_free(&w);
	return 0;
}
