// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: lines of /etc/projid (ids.c), split as qfd reads
 * them.  Input may hold NULs and no newline at all, as a damaged file can.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ids.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *line, *next;
	const char *name;
	uint32_t id;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (qfd_projid_line(line, &name, &id))
			continue;
		/* the name is the text before the first ':', within the line */
		if (name != line || strchr(name, ':'))
			abort();
	}
	free(buf);
	return 0;
}
