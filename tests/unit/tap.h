/* SPDX-License-Identifier: BSD-2-Clause */
/* tap.h — a minimal TAP producer for unit tests: one "ok N - name" or "not ok N - name"
 * line per test function, with the first failed check's file:line and values.
 *
 *   static void t_parse(void) { T_EQ_U64(parse("1k"), 1000); T_TRUE(x > 0); }
 *   int main(void) { T_RUN(t_parse); return t_done(); }
 */
#ifndef PPSLAB_TESTS_UNIT_TAP_H
#define PPSLAB_TESTS_UNIT_TAP_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int t_num, t_failed_total, t_cur_failed;
static char t_msg[512];

#define T_FAIL(...)                                                                    \
	do {                                                                           \
		if (!t_cur_failed) {                                                   \
			int _o = snprintf(t_msg, sizeof(t_msg), "%s:%d: ", __FILE__, __LINE__); \
			snprintf(t_msg + _o, sizeof(t_msg) - (size_t)_o, __VA_ARGS__);  \
		}                                                                      \
		t_cur_failed++;                                                        \
	} while (0)

#define T_TRUE(c)                                                                      \
	do {                                                                           \
		if (!(c))                                                              \
			T_FAIL("expected %s", #c);                                     \
	} while (0)

#define T_EQ_U64(a, b)                                                                 \
	do {                                                                           \
		uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);                       \
		if (_a != _b)                                                          \
			T_FAIL("%s == %" PRIu64 ", expected %" PRIu64, #a, _a, _b);    \
	} while (0)

#define T_EQ_INT(a, b)                                                                 \
	do {                                                                           \
		long long _a = (long long)(a), _b = (long long)(b);                    \
		if (_a != _b)                                                          \
			T_FAIL("%s == %lld, expected %lld", #a, _a, _b);               \
	} while (0)

#define T_NEAR(a, b, tol)                                                              \
	do {                                                                           \
		double _a = (double)(a), _b = (double)(b);                             \
		if (!(fabs(_a - _b) <= (tol)))                                         \
			T_FAIL("%s == %.9g, expected %.9g ± %g", #a, _a, _b, (double)(tol)); \
	} while (0)

#define T_STREQ(a, b)                                                                  \
	do {                                                                           \
		const char *_a = (a), *_b = (b);                                       \
		if (!_a || strcmp(_a, _b))                                             \
			T_FAIL("%s == \"%s\", expected \"%s\"", #a, _a ? _a : "(null)", _b); \
	} while (0)

#define T_RUN(fn)                                                                      \
	do {                                                                           \
		t_cur_failed = 0;                                                      \
		fn();                                                                  \
		t_num++;                                                               \
		if (t_cur_failed) {                                                    \
			t_failed_total++;                                              \
			printf("not ok %d - %s\n#   %s\n", t_num, #fn, t_msg);         \
		} else {                                                               \
			printf("ok %d - %s\n", t_num, #fn);                            \
		}                                                                      \
		fflush(stdout);                                                        \
	} while (0)

static inline int t_done(void)
{
	printf("1..%d\n", t_num);
	return t_failed_total ? 1 : 0;
}

#endif
