/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fmt.c — reporting helpers: counter rates, thousands separators, the error formatter
 * every module reports with. */
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

int main(void)
{
	T_RUN(t_err);
	T_RUN(t_rate_thousands);
	return t_done();
}
