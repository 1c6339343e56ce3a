/* SPDX-License-Identifier: BSD-2-Clause */
/* fmt.h — small pure helpers for reporting: rates from counter deltas, numbers with
 * thousands separators for human columns, and the error message of a module. */
#ifndef PPSLAB_LIB_FMT_H
#define PPSLAB_LIB_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Per-second rate of a counter between two samples dt_ns apart (0 when dt_ns is 0).
 * Counters are monotonic 64-bit; a decrease (a reset) yields 0, never a huge value. */
double rate_per_s(uint64_t cur, uint64_t prev, uint64_t dt_ns);

/* "1,234,567" into buf; returns buf. */
char *fmt_thousands(uint64_t v, char *buf, size_t len);
/* t as UTC, "2026-01-31T23:59:59Z" (ISO 8601, RFC 3339), the form of every time
 * ppslab writes into a results file or a report: into buf (FMT_UTC_LEN bytes are
 * enough); returns buf. */
#define FMT_UTC_LEN 21
char *fmt_utc(char *buf, size_t len, time_t t);
/* Signed percentage difference of achieved against target: 100·(a−t)/t; 0 if t is 0. */
double pct_error(double achieved, double target);

/* The way a module reports failure: formats the message into err (when err and errlen
 * are set) and returns rc, a -errno, so that `return fmt_err(-EINVAL, err, errlen,
 * "...", ...);` is one statement. */
int fmt_err(int rc, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
