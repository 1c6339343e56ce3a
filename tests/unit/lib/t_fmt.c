/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fmt.c — reporting helpers: counter rates, thousands separators, the error formatter
 * every module reports with, the UTC time of results files. */
#include <errno.h>

#include "fmt.h"
#include "tap.h"

static void t_err(void)
{
	char err[16];
	T_EQ_INT(fmt_err(-EINVAL, err, sizeof(err), "--x %s: %d", "a", 5), -EINVAL);
	T_STREQ(err, "--x a: 5");
	T_EQ_INT(fmt_err(-ENODATA, err, sizeof(err), "%s", "a message longer than err"),
		 -ENODATA);
	T_STREQ(err, "a message longe");   /* cut, still terminated */
	T_EQ_INT(fmt_err(-ENOMEM, NULL, 0, "%s", "nowhere to write"), -ENOMEM);
}

static void t_rate_thousands(void)
{
	char b[32];
	T_NEAR(rate_per_s(1500, 500, 500000000ULL), 2000, 1e-9);
	T_NEAR(rate_per_s(5, 10, 1000), 0, 0);   /* a reset is no huge rate */
	T_NEAR(rate_per_s(5, 1, 0), 0, 0);
	T_STREQ(fmt_thousands(1234567, b, sizeof(b)), "1,234,567");
	T_STREQ(fmt_thousands(999, b, sizeof(b)), "999");
}

/* The one UTC form of results and reports; a buffer too short gets "" (never a cut time). */
static void t_utc(void)
{
	char b[FMT_UTC_LEN], s[FMT_UTC_LEN - 1];
	T_STREQ(fmt_utc(b, sizeof(b), 0), "1970-01-01T00:00:00Z");
	T_STREQ(fmt_utc(b, sizeof(b), 1801439999), "2027-01-31T23:59:59Z");
	T_EQ_U64(strlen(b), FMT_UTC_LEN - 1);
	T_STREQ(fmt_utc(s, sizeof(s), 0), "");
}

int main(void)
{
	T_RUN(t_err);
	T_RUN(t_utc);
	T_RUN(t_rate_thousands);
	return t_done();
}
