/* SPDX-License-Identifier: BSD-2-Clause */
/* fmt.c — rate and number formatting helpers (see fmt.h). */
#include "fmt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double rate_per_s(uint64_t cur, uint64_t prev, uint64_t dt_ns)
{
	if (!dt_ns || cur < prev)
		return 0.0;
	return (double)(cur - prev) * 1e9 / (double)dt_ns;
}

char *fmt_thousands(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	size_t o = 0;
	for (int i = 0; i < n && o + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	if (len)
		buf[o < len ? o : len - 1] = 0;
	return buf;
}

char *fmt_utc(char *buf, size_t len, time_t t)
{
	struct tm tm;
	if (!len)
		return buf;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
	return buf;
}

double pct_error(double achieved, double target)
{
	return target > 0 ? 100.0 * (achieved - target) / target : 0.0;
}

int fmt_err(int rc, char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}
