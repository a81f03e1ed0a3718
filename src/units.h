/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one place that parses and formats sizes, counts and durations, so
 * every command accepts and prints exactly the same syntax.
 */
#ifndef QFD_UNITS_H
#define QFD_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * All parsers return 0, -EINVAL for malformed input or -ERANGE for values
 * that do not fit, and leave *out untouched on error.
 */

/* "10M", "1.5G", "512KiB", "100KB", "4096" -> bytes (K = 1024, KB = 1000). */
int qfd_parse_size(const char *s, uint64_t *out);

/* "1000", "10k", "2.5m" -> count (decimal suffixes). */
int qfd_parse_count(const char *s, uint64_t *out);

/* "90s", "15m", "12h", "7d", "2w", "1d12h", "3600" -> seconds. */
int qfd_parse_duration(const char *s, uint64_t *out);

/* "80%", "99.5%" -> hundredths of a percent (8000, 9950); 0% to 100%. */
int qfd_parse_percent(const char *s, uint64_t *out);

/* Human forms: "0", "4K", "1.5M".  buf must hold QFD_FMT_LEN bytes. */
#define QFD_FMT_LEN	32
/* How many decimal digits v has. */
size_t qfd_u64_digits(uint64_t v);
/*
 * v in decimal into buf, which holds its digits and a NUL (QFD_FMT_LEN
 * bytes always do); returns its length.
 */
size_t qfd_format_u64(uint64_t v, char *buf);
char *qfd_format_size(uint64_t bytes, char *buf, size_t len);
char *qfd_format_count(uint64_t n, char *buf, size_t len);
/* "7d", "1d12h", "59m30s", "0s". */
char *qfd_format_duration(uint64_t secs, char *buf, size_t len);
/* "2026-12-03T07:30:00Z" */
char *qfd_format_time(time_t t, char *buf, size_t len);

#endif
