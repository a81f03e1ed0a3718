// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sizes, counts and durations: parsing and formatting.
 *
 * Numbers are parsed with integer arithmetic only: "1.5G" must mean exactly
 * 1610612736 bytes on every machine, which floating point does not promise.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "qfd.h"
#include "units.h"

/*
 * Parse "INT[.FRAC]" at *s; on return *s points past the number.  The value
 * is kept as a fraction num / den with den a power of ten, so that a
 * multiplier can be applied before dividing.
 */
static int parse_decimal(const char **s, unsigned __int128 *num,
			 unsigned __int128 *den)
{
	const char *p = *s;
	unsigned __int128 n, d = 1;
	uint64_t whole = 0;
	int digits = 0, fdigits = 0;

	/* the whole part in 64 bits: a limit of apply or set is parsed so */
	while (*p >= '0' && *p <= '9') {
		unsigned int digit = (unsigned int)(*p++ - '0');

		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, digit, &whole))
			return -ERANGE;
		digits++;
	}
	n = whole;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			/* more than 18 fractional digits is noise, not a size */
			if (fdigits == 18)
				return -EINVAL;
			n = n * 10 + (unsigned)(*p++ - '0');
			d *= 10;
			fdigits++;
		}
		if (!fdigits)
			return -EINVAL;
	}
	if (!digits)
		return -EINVAL;
	*num = n;
	*den = d;
	*s = p;
	return 0;
}

static int scale(unsigned __int128 num, unsigned __int128 den,
		 uint64_t mult, bool exact, uint64_t *out)
{
	unsigned __int128 v = num * mult;
	uint64_t w;

	/* a whole number, the most often given: no 128-bit division */
	if (den == 1 && num <= UINT64_MAX) {
		if (__builtin_mul_overflow((uint64_t)num, mult, &w))
			return -ERANGE;
		*out = w;
		return 0;
	}
	/* num can reach 2^124 and mult 2^60: test the product for wrapping */
	if (mult && v / mult != num)
		return -ERANGE;
	if (exact && v % den)
		return -EINVAL;
	v = (v + den - 1) / den;	/* fractions of a byte round up */
	if (v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

static uint64_t pow_u64(uint64_t base, int exp)
{
	uint64_t r = 1;

	while (exp-- > 0)
		r *= base;
	return r;
}

static const char unit_letters[] = "KMGTPE";

/* Which of unit_letters c is (0 for K), or -1: strchr() without a call. */
static int unit_index(char c)
{
	int i;

	for (i = 0; unit_letters[i]; i++)
		if (unit_letters[i] == c)
			return i;
	return -1;
}

/* A size's suffix is read in any ASCII case: "GiB", "gib" and "GIB" alike. */
static bool suffix_is(const char *p, const char *want)
{
	return strlen(p) == strlen(want) && qfd_ascii_caseeq(p, want, strlen(want));
}

int qfd_parse_size(const char *s, uint64_t *out)
{
	unsigned __int128 num, den;
	const char *p = s;
	uint64_t mult = 1;
	int rc, u;

	rc = parse_decimal(&p, &num, &den);
	if (rc)
		return rc;
	if (*p) {
		u = unit_index(qfd_ascii_upper(*p));
		if (u < 0) {
			if (suffix_is(p, "b"))
				return scale(num, den, 1, false, out);
			return -EINVAL;
		}
		p++;
		/* K, KiB: binary; KB: decimal, as dd(1) and lsblk(8) read them */
		if (!*p || suffix_is(p, "ib"))
			mult = pow_u64(1024, u + 1);
		else if (suffix_is(p, "b"))
			mult = pow_u64(1000, u + 1);
		else
			return -EINVAL;
	}
	return scale(num, den, mult, false, out);
}

int qfd_parse_count(const char *s, uint64_t *out)
{
	static const char letters[] = "kmgt";
	unsigned __int128 num, den;
	const char *p = s, *u;
	uint64_t mult = 1;
	int rc;

	rc = parse_decimal(&p, &num, &den);
	if (rc)
		return rc;
	if (*p) {
		u = strchr(letters, qfd_ascii_lower(*p));
		if (!u || !*u || p[1])
			return -EINVAL;
		mult = pow_u64(1000, (int)(u - letters) + 1);
	}
	/* a count is whole: "1.5" files is a typo, not a request */
	return scale(num, den, mult, true, out);
}

int qfd_parse_percent(const char *s, uint64_t *out)
{
	unsigned __int128 num, den;
	const char *p = s;
	uint64_t v;
	int rc;

	rc = parse_decimal(&p, &num, &den);
	if (rc)
		return rc;
	if (strcmp(p, "%"))
		return -EINVAL;
	/* hundredths are exact: "99.555%" asks for more than we keep */
	rc = scale(num, den, 100, true, &v);
	if (rc)
		return rc;
	if (v > 10000)
		return -ERANGE;
	*out = v;
	return 0;
}

int qfd_parse_duration(const char *s, uint64_t *out)
{
	static const struct {
		char unit;
		uint64_t secs;
	} units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 },
		{ 'd', 86400 }, { 'w', 7 * 86400 },
	};
	const char *p = s;
	uint64_t total = 0;

	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t n = 0, mult = 0;
		size_t i;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p)) {
			if (__builtin_mul_overflow(n, 10, &n) ||
			    __builtin_add_overflow(n, (uint64_t)(*p - '0'), &n))
				return -ERANGE;
			p++;
		}
		if (!*p && p == s + strspn(s, "0123456789")) {
			mult = 1;	/* a bare number is seconds */
		} else {
			for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
				if (qfd_ascii_lower(*p) == units[i].unit)
					mult = units[i].secs;
			if (!mult)
				return -EINVAL;
			p++;
		}
		if (__builtin_mul_overflow(n, mult, &n) ||
		    __builtin_add_overflow(total, n, &total))
			return -ERANGE;
	}
	/* the kernel keeps grace periods in 32 or 64 bits; stay in range */
	if (total > INT64_MAX)
		return -ERANGE;
	*out = total;
	return 0;
}

/*
 * A report prints several numbers for each of 100,000 ids: snprintf's
 * format parsing was a tenth of a table's time (bench/README), so the
 * digits are made here.
 */
size_t qfd_u64_digits(uint64_t v)
{
	static const uint64_t ten[] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull,
	};
	/*
	 * With b bits (v below 2^b), t = floor(b * log10(2)) (1233 / 4096
	 * is log10(2) from below) is 10^t's digits: v has t of them when it
	 * is below 10^t, t + 1 when not.  One comparison, no division.  v | 1
	 * has v's digits (no power of ten above 1 is odd) and is never 0.
	 */
	uint64_t w = v | 1;
	unsigned int t = (unsigned int)(64 - __builtin_clzll(w)) * 1233 >> 12;

	return t + 1 - (w < ten[t]);
}

/*
 * Two digits a division, written from the end, whose place the digit
 * count gives: one division a digit was a sixth of -J's and
 * --prometheus' instructions, and a copy out of a scratch buffer another
 * tenth of what a number cost (callgrind).
 */
size_t qfd_format_u64(uint64_t v, char *buf)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	size_t n = qfd_u64_digits(v);
	char *p = buf + n;

	*p = '\0';
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(p - 2, pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return n;
}

/* tmp (n bytes) into buf of len bytes, cut to fit as snprintf would. */
static char *put(char *buf, size_t len, const char *tmp, size_t n)
{
	if (!len)
		return buf;
	if (n >= len)
		n = len - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return buf;
}

char *qfd_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char letters[] = "BKMGTPE";
	unsigned __int128 unit = 1, tenths;
	char tmp[QFD_FMT_LEN];
	size_t n;
	int exp = 0;

	while (exp < 6 && bytes >= unit * 1024) {
		unit *= 1024;
		exp++;
	}
	if (!exp) {
		n = qfd_format_u64(bytes, tmp);
		if (bytes)
			tmp[n++] = 'B';
		return put(buf, len, tmp, n);
	}
	tenths = ((unsigned __int128)bytes * 10 + unit / 2) / unit;
	n = qfd_format_u64((uint64_t)(tenths / 10), tmp);
	if (tenths % 10) {
		tmp[n++] = '.';
		tmp[n++] = (char)('0' + (unsigned)(tenths % 10));
	}
	tmp[n++] = letters[exp];
	return put(buf, len, tmp, n);
}

char *qfd_format_count(uint64_t n, char *buf, size_t len)
{
	char tmp[QFD_FMT_LEN];

	return put(buf, len, tmp, qfd_format_u64(n, tmp));
}

char *qfd_format_duration(uint64_t secs, char *buf, size_t len)
{
	static const struct {
		char unit;
		uint64_t secs;
	} units[] = {
		{ 'd', 86400 }, { 'h', 3600 }, { 'm', 60 }, { 's', 1 },
	};
	size_t i, off = 0;
	int shown = 0;

	if (!secs) {
		snprintf(buf, len, "0s");
		return buf;
	}
	buf[0] = '\0';
	/* two units say enough ("6d23h"); more is noise in a table */
	for (i = 0; i < sizeof(units) / sizeof(units[0]) && shown < 2; i++) {
		uint64_t n = secs / units[i].secs;

		if (!n) {
			if (shown)
				shown++;
			continue;
		}
		off += (size_t)snprintf(buf + off, len - off, "%" PRIu64 "%c",
					n, units[i].unit);
		if (off >= len)
			break;
		secs %= units[i].secs;
		shown++;
	}
	return buf;
}

char *qfd_format_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%lld", (long long)t);
	return buf;
}
