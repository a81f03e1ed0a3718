// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: -o column lists and --sort names (output.c), then one
 * row printed in the format the first byte picks, with the rest of the
 * input as the name column: CSV quoting, JSON and raw escaping.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mnt.h"
#include "output.h"
#include "qfd.h"
#include "rows.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the rows are printed: not onto libFuzzer's terminal */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum qfd_format formats[] = {
		QFD_FMT_TABLE, QFD_FMT_RAW, QFD_FMT_JSON, QFD_FMT_CSV,
	};
	struct qfd_outopts o = { .cmd = "report" };
	struct qfd_val vals[QCOL_NCOLS];
	struct qfd_fs fs = { .target = "/mnt", .fstype = "ext4" };
	struct qfd_dq dq = { .id = 1000, .space = 1 << 20, .space_soft = 1 << 19 };
	struct qfd_out *out;
	char *buf, *name, *sort;

	if (size < 1)
		return 0;
	buf = malloc(size);
	if (!buf)
		return 0;
	/* FMT-BYTE COLUMNS \n SORT \n NAME */
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	o.format = formats[data[0] % 4];
	o.bytes = data[0] & 4;
	o.noheadings = data[0] & 8;
	o.columns = buf;
	sort = strchr(buf, '\n');
	name = NULL;
	if (sort) {
		*sort++ = '\0';
		name = strchr(sort, '\n');
		if (name)
			*name++ = '\0';
		if (*sort)
			o.sort = sort;
	}
	out = qfd_out_new("quotas", qfd_quota_cols, QCOL_NCOLS, &o);
	if (out) {
		qfd_dq_row(vals, &fs, 0, &dq, name, 0);
		if (qfd_out_add(out, vals) || qfd_out_add(out, vals))
			abort();
		qfd_out_print(out);
	}
	/* a machine format held stdout back (output.c): drop it, as a failure would */
	qfd_stdout_release(QFD_EXIT_FAILURE);
	free(buf);
	return 0;
}
