// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: sizes, counts and durations (units.c), as --bsoft,
 * --isoft, --grace-space and batch fields give them.  Whatever is parsed
 * must also format without overflowing the buffer the commands use.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[QFD_FMT_LEN];
	uint64_t v;
	int rc;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	v = 0xdeadbeef;
	rc = qfd_parse_size(s, &v);
	if (rc && (rc != -EINVAL && rc != -ERANGE))
		abort();
	if (rc && v != 0xdeadbeef)
		abort();	/* *out untouched on error, as units.h says */
	if (!rc)
		qfd_format_size(v, buf, sizeof(buf));

	rc = qfd_parse_count(s, &v);
	if (rc && rc != -EINVAL && rc != -ERANGE)
		abort();
	if (!rc)
		qfd_format_count(v, buf, sizeof(buf));

	rc = qfd_parse_duration(s, &v);
	if (rc && rc != -EINVAL && rc != -ERANGE)
		abort();
	if (!rc) {
		if (v > INT64_MAX)
			abort();
		qfd_format_duration(v, buf, sizeof(buf));
	}
	free(s);
	return 0;
}
