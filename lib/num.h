/* SPDX-License-Identifier: BSD-2-Clause */
/* num.h — strict parsing of the numbers users type, with unit suffixes.
 *
 * Every function parses the whole string: trailing garbage, empty strings, signs where
 * none belong and values out of range are errors. Decimal fractions are exact where the
 * result is an integer ("1.5M" is 1,500,000; "1.0000005M" is rejected as a count).
 * Returns 0, -EINVAL (not a number of that kind) or -ERANGE (outside [min, max]).
 *
 * Suffixes: counts and packet rates use SI prefixes k/K=1e3, M=1e6, G=1e9 (rates may
 * end in "pps"); bit rates need "bit", "bps" or "bit/s" after the prefix ("100Mbit");
 * durations ns/us/ms/s/m/h (a bare number is seconds); byte sizes take an optional
 * "B" (64, 64B) and binary KiB/MiB/GiB or decimal k/M/G. */
#ifndef PPSLAB_LIB_NUM_H
#define PPSLAB_LIB_NUM_H

#include <stdint.h>

int num_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int num_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int num_double(const char *s, double min, double max, double *out);
int num_pps(const char *s, double *out);
int num_bps(const char *s, double *out);
int num_percent(const char *s, double *out);
int num_duration_ns(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int num_bytes(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* "a number with an optional unit"-style text for error messages, by parser (also as
 * constants, for option rows). */
#define NUM_EXPECT_COUNT "a whole number, optionally with k, M or G (e.g. 100000, 100k, 1.5M)"
#define NUM_EXPECT_DURATION "a duration such as 10, 10s, 500ms, 250us, 2m or 1h"
/* The longest run a duration option takes: 366 days, in ns. */
#define NUM_DURATION_MAX (366ULL * 86400 * 1000000000ULL)
const char *num_expect_count(void);
const char *num_expect_duration(void);
const char *num_expect_bytes(void);

#endif
