// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of units.c, printed as TAP: the parsers and formatters are pure
 * functions, so every edge case is checked here without a kernel.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static int n, failed;

static void ok(int cond, const char *what, const char *arg)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d - %s '%s'\n", cond ? "" : "not ", n, what, arg);
}

static void size_is(const char *s, int rc, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int r = qfd_parse_size(s, &v);

	ok(r == rc && (rc || v == want) && (!rc || v == 0xdeadbeef),
	   "parse size", s);
	if (r != rc || (!rc && v != want))
		printf("# got rc %d value %" PRIu64 ", want rc %d value %" PRIu64 "\n",
		       r, v, rc, want);
}

static void count_is(const char *s, int rc, uint64_t want)
{
	uint64_t v = 0;
	int r = qfd_parse_count(s, &v);

	ok(r == rc && (rc || v == want), "parse count", s);
}

static void dur_is(const char *s, int rc, uint64_t want)
{
	uint64_t v = 0;
	int r = qfd_parse_duration(s, &v);

	ok(r == rc && (rc || v == want), "parse duration", s);
}

static void pct_is(const char *s, int rc, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int r = qfd_parse_percent(s, &v);

	ok(r == rc && (rc ? v == 0xdeadbeef : v == want), "parse percent", s);
}

static void fmt_size_is(uint64_t v, const char *want)
{
	char buf[QFD_FMT_LEN];

	qfd_format_size(v, buf, sizeof(buf));
	ok(!strcmp(buf, want), "format size", want);
	if (strcmp(buf, want))
		printf("# got '%s'\n", buf);
}

static void fmt_u64_is(uint64_t v, const char *want)
{
	char buf[QFD_FMT_LEN];
	size_t len = qfd_format_u64(v, buf);

	ok(!strcmp(buf, want) && len == strlen(want), "format u64", want);
	if (strcmp(buf, want) || len != strlen(want))
		printf("# got '%s' (%zu)\n", buf, len);
}

/*
 * The digit count (qfd_u64_digits) decides where qfd_format_u64 starts
 * writing: every power of ten, its neighbours and 2^k - 1 (k from 21)
 * against snprintf, as one result.
 */
static void fmt_u64_edges_is(void)
{
	char buf[QFD_FMT_LEN], want[QFD_FMT_LEN];
	uint64_t v[3], p = 1;
	int k, j, bad = 0;

	for (k = 0; k < 64; k++) {
		v[0] = p - 1;
		v[1] = p;
		v[2] = k < 20 ? p + 1 : UINT64_MAX >> (63 - k);
		for (j = 0; j < 3; j++) {
			size_t len = qfd_format_u64(v[j], buf);

			snprintf(want, sizeof(want), "%" PRIu64, v[j]);
			if (strcmp(buf, want) || len != strlen(want) ||
			    qfd_u64_digits(v[j]) != strlen(want)) {
				printf("# %s: got '%s' (%zu, digits %zu)\n", want, buf,
				       len, qfd_u64_digits(v[j]));
				bad++;
			}
		}
		p = k < 19 ? p * 10 : UINT64_MAX;
	}
	ok(!bad, "format u64", "powers of ten and their neighbours");
}

static void fmt_dur_is(uint64_t v, const char *want)
{
	char buf[QFD_FMT_LEN];

	qfd_format_duration(v, buf, sizeof(buf));
	ok(!strcmp(buf, want), "format duration", want);
	if (strcmp(buf, want))
		printf("# got '%s'\n", buf);
}

int main(void)
{
	size_is("0", 0, 0);
	size_is("4096", 0, 4096);
	size_is("10B", 0, 10);
	size_is("1K", 0, 1024);
	size_is("1k", 0, 1024);
	size_is("1KiB", 0, 1024);
	size_is("1KB", 0, 1000);
	size_is("10M", 0, 10485760);
	size_is("1.5G", 0, 1610612736);
	size_is("0.5K", 0, 512);
	size_is("1.0001K", 0, 1025);		/* fractions of a byte round up */
	size_is("2TiB", 0, 2199023255552ULL);
	/* the suffix in any case: "10Gib" was taken and "10GIB" refused */
	size_is("10GIB", 0, 10737418240ULL);
	size_is("10Gib", 0, 10737418240ULL);
	size_is("10gIb", 0, 10737418240ULL);
	size_is("10gB", 0, 10000000000ULL);
	size_is("10Gb", 0, 10000000000ULL);
	size_is("10GiBB", -EINVAL, 0);
	size_is("10GI", -EINVAL, 0);
	size_is("16E", -ERANGE, 0);
	size_is("15.9999E", 0, 18446628781559090932ULL);
	size_is("99999999999999999999T", -ERANGE, 0);
	size_is("18446744073709551615", 0, UINT64_MAX);
	size_is("18446744073709551616", -ERANGE, 0);
	size_is("10Q", -EINVAL, 0);
	size_is("-5", -EINVAL, 0);
	size_is("", -EINVAL, 0);
	size_is("M", -EINVAL, 0);
	size_is("1.M", -EINVAL, 0);
	size_is(".5M", -EINVAL, 0);
	size_is("1.5.5M", -EINVAL, 0);
	size_is(" 1M", -EINVAL, 0);
	size_is("1M ", -EINVAL, 0);
	size_is("1MiBx", -EINVAL, 0);
	size_is("0x10", -EINVAL, 0);

	count_is("0", 0, 0);
	count_is("1000", 0, 1000);
	count_is("10k", 0, 10000);
	count_is("2.5m", 0, 2500000);
	count_is("1g", 0, 1000000000);
	count_is("1.5", -EINVAL, 0);		/* half a file is a typo */
	count_is("1.0005k", -EINVAL, 0);
	count_is("10K", 0, 10000);
	count_is("10KiB", -EINVAL, 0);
	count_is("-1", -EINVAL, 0);
	count_is("99999999999999999999", -ERANGE, 0);

	dur_is("90", 0, 90);
	dur_is("90s", 0, 90);
	dur_is("15m", 0, 900);
	dur_is("12h", 0, 43200);
	dur_is("7d", 0, 604800);
	dur_is("2w", 0, 1209600);
	dur_is("1d12h", 0, 129600);
	dur_is("1h30m15s", 0, 5415);
	dur_is("1d30", -EINVAL, 0);
	dur_is("", -EINVAL, 0);
	dur_is("5y", -EINVAL, 0);
	dur_is("-5s", -EINVAL, 0);
	dur_is("99999999999999999999w", -ERANGE, 0);

	pct_is("80%", 0, 8000);
	pct_is("0%", 0, 0);
	pct_is("100%", 0, 10000);
	pct_is("99.5%", 0, 9950);
	pct_is("99.55%", 0, 9955);
	pct_is("99.555%", -EINVAL, 0);
	pct_is("100.01%", -ERANGE, 0);
	pct_is("80", -EINVAL, 0);
	pct_is("80%%", -EINVAL, 0);
	pct_is("%", -EINVAL, 0);
	pct_is("-5%", -EINVAL, 0);
	pct_is("", -EINVAL, 0);

	/* digits made two at a time: odd and even lengths, the ends */
	fmt_u64_is(0, "0");
	fmt_u64_is(7, "7");
	fmt_u64_is(10, "10");
	fmt_u64_is(100, "100");
	fmt_u64_is(1000000000000000000ULL, "1000000000000000000");
	fmt_u64_is(UINT64_MAX, "18446744073709551615");
	fmt_u64_edges_is();
	fmt_size_is(0, "0");
	fmt_size_is(512, "512B");
	fmt_size_is(1024, "1K");
	fmt_size_is(1536, "1.5K");
	fmt_size_is(10485760, "10M");
	fmt_size_is(1610612736, "1.5G");
	fmt_size_is(UINT64_MAX, "16E");

	fmt_dur_is(0, "0s");
	fmt_dur_is(59, "59s");
	fmt_dur_is(604800, "7d");
	fmt_dur_is(604799, "6d23h");
	fmt_dur_is(3661, "1h1m");
	fmt_dur_is(86401, "1d");

	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
