/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_num.c — libFuzzer harness for lib/num.c: every number parser on arbitrary text
 * (make fuzz). The first byte picks the bounds, the rest is the string; a parser must
 * return 0, -EINVAL or -ERANGE and, on 0, a value inside the bounds it was given. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "num.h"

static void check(int rc, int ok_in_range)
{
	if (rc != 0 && rc != -EINVAL && rc != -ERANGE)
		abort();
	if (rc == 0 && !ok_in_range)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint64_t lo = data[0] & 0x0f ? 0 : 1, hi = data[0] & 0x80 ? 1000000 : UINT64_MAX;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	uint64_t u = 0;
	double d = 0;
	int rc = num_u64(s, lo, hi, &u);
	check(rc, u >= lo && u <= hi);
	rc = num_count(s, lo, hi, &u);
	check(rc, u >= lo && u <= hi);
	rc = num_double(s, -1e6, 1e6, &d);
	check(rc, d >= -1e6 && d <= 1e6);
	rc = num_pps(s, &d);
	check(rc, d >= 0);
	rc = num_bps(s, &d);
	check(rc, d >= 0);
	rc = num_percent(s, &d);
	check(rc, d >= 0 && d <= 100);
	rc = num_duration_ns(s, lo, hi, &u);
	check(rc, u >= lo && u <= hi);
	rc = num_bytes(s, lo, hi, &u);
	check(rc, u >= lo && u <= hi);
	free(s);
	return 0;
}
