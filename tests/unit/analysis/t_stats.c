/* SPDX-License-Identifier: BSD-2-Clause */
/* t_stats.c — the statistics of `ppslab compare`
 * (docs/design/methodology.md#comparing-two-runs) against worked examples: the t table,
 * the incomplete beta against closed forms (Student's t for ν = 1, 2 and 4), Welch on
 * logs computed independently with awk, Benjamini–Hochberg ordering, and the verdicts
 * for identical, shifted and noisy samples. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "tap.h"

static void t_location(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	T_NEAR(st_median(odd, 3), 3, 0);
	T_NEAR(st_median(even, 4), 2.5, 0);
	T_NEAR(st_median(one, 1), 7, 0);
	T_TRUE(isnan(st_median(NULL, 0)));
	T_NEAR(st_mean(even, 4), 2.5, 1e-15);
	T_NEAR(st_var(even, 4), 5.0 / 3, 1e-15);
	T_TRUE(isnan(st_var(one, 1)));
	/* the input is not reordered */
	T_NEAR(odd[0], 5, 0);
	/* type 7 quantiles, as numpy: [1,2,3,4] → q1 1.75, q3 3.25 */
	T_NEAR(st_quantile(even, 4, 0.25), 1.75, 1e-15);
	T_NEAR(st_quantile(even, 4, 0.75), 3.25, 1e-15);
	T_NEAR(st_quantile(one, 1, 0.25), 7, 0);
	struct st_summary s;
	T_EQ_INT(st_summarize(even, 4, &s), 0);
	T_EQ_U64(s.n, 4);
	T_NEAR(s.min, 1, 0);
	T_NEAR(s.max, 4, 0);
	T_NEAR(s.median, 2.5, 0);
	T_NEAR(s.stdev, sqrt(5.0 / 3), 1e-15);
	T_NEAR(s.pstdev, sqrt(1.25), 1e-15);
	T_NEAR(s.cv, sqrt(5.0 / 3) / 2.5, 1e-15);
	T_EQ_INT(st_summarize(one, 1, &s), 0);
	T_TRUE(isnan(s.stdev) && s.pstdev == 0 && isnan(s.cv));
	/* large rates with a tiny spread keep their precision (two-pass variance) */
	double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	T_NEAR(st_var(big, 3), 1, 1e-6);
}

static void t_t_table(void)
{
	/* the largest tabulated df not above ν (docs/design/methodology.md#the-t-table) */
	T_NEAR(st_t975(1), 12.706, 0);
	T_NEAR(st_t975(1.99), 12.706, 0);
	T_NEAR(st_t975(3.956), 3.182, 0);
	T_NEAR(st_t975(4), 2.776, 0);
	T_NEAR(st_t975(10), 2.228, 0);
	T_NEAR(st_t975(11.9), 2.228, 0);
	T_NEAR(st_t975(12), 2.179, 0);
	T_NEAR(st_t975(29), 2.086, 0);
	T_NEAR(st_t975(59.9), 2.042, 0);
	T_NEAR(st_t975(60), 2.000, 0);
	T_NEAR(st_t975(1e9), 2.000, 0);
	T_NEAR(st_t975(INFINITY), 1.960, 0);
	T_TRUE(isnan(st_t975(0.5)));
	T_TRUE(isnan(st_t975(NAN)));
}

static void t_betai(void)
{
	/* closed forms: I_x(1,1) = x, I_x(a,1) = x^a, I_½(a,a) = ½, and I_0.3(2,3) summed by
	 * hand from the binomial: 6·.09·.49 + 4·.027·.7 + .0081 = 0.3483 */
	T_NEAR(st_betai(1, 1, 0.37), 0.37, 1e-13);
	T_NEAR(st_betai(3, 1, 0.5), 0.125, 1e-13);
	T_NEAR(st_betai(2.5, 2.5, 0.5), 0.5, 1e-13);
	T_NEAR(st_betai(2, 3, 0.3), 0.3483, 1e-12);
	T_NEAR(st_betai(2, 3, 0.0), 0, 0);
	T_NEAR(st_betai(2, 3, 1.0), 1, 0);
	T_TRUE(isnan(st_betai(2, 3, 1.5)));
	T_TRUE(isnan(st_betai(0, 3, 0.5)));
	/* Student's t two-sided p-values against closed forms (computed with awk):
	 * ν=1 (Cauchy) p = 1 − (2/π)·atan|t|; ν=2 p = 1 − |t|/√(t²+2);
	 * ν=4 p = 1 − ¾·x·(1 − x²/12) with x = t/√(1+t²/4) */
	T_NEAR(st_t_p2(3, 1), 0.204832764699133, 1e-12);
	T_NEAR(st_t_p2(-3, 2), 0.095465966266709, 1e-12);
	T_NEAR(st_t_p2(5, 4), 0.007490433881, 1e-11);
	/* the table's t is the 97.5 % point: p = 0.05 at t_0.975 */
	T_NEAR(st_t_p2(2.776, 4), 0.0500227783, 1e-9);
	T_NEAR(st_t_p2(12.706, 1), 0.05, 1e-4);
	T_NEAR(st_t_p2(0, 7), 1, 1e-14);
	T_NEAR(st_t_p2(INFINITY, 3), 0, 0);
}

static void t_welch_worked(void)
{
	/* A = 100, 102, 98; B = 90, 92, 88; floor 0. Computed independently with awk:
	 * d = −0.105391805362, se = 0.017263933205, ν = 3.956374995045 → t from df 3 = 3.182,
	 * CI = [0.851866341340, 0.950793889791], ratio 0.899971839707 */
	double a[] = { 100, 102, 98 }, b[] = { 90, 92, 88 };
	struct st_welch w;
	T_EQ_INT(st_welch_log(a, 3, b, 3, 0, &w), 0);
	T_NEAR(w.d, -0.105391805362, 1e-11);
	T_NEAR(w.se, 0.017263933205, 1e-11);
	T_NEAR(w.nu, 3.956374995045, 1e-9);
	T_NEAR(w.t_crit, 3.182, 0);
	T_NEAR(w.ratio, 0.899971839707, 1e-11);
	T_NEAR(w.ci_lo, 0.851866341340, 1e-10);
	T_NEAR(w.ci_hi, 0.950793889791, 1e-10);
	T_NEAR(w.t_stat, -6.104738943934, 1e-8);
	T_TRUE(w.p > 0.002 && w.p < 0.006);   /* between ν=3 and ν=4 closed forms */
	T_EQ_INT(st_verdict(w.ratio, w.ci_lo, w.ci_hi, 0.02, 0), ST_REGRESSION);
	T_EQ_INT(st_verdict(w.ratio, w.ci_lo, w.ci_hi, 0.02, 1), ST_PROGRESSION);
}

static void t_welch_floor(void)
{
	/* identical, nearly constant samples: the floor f = 0.25 % sets the width:
	 * se = √(2f²/3) = 0.002041241452, ν = 4, CI = exp(±2.776·se) */
	double a[] = { 1000, 1001, 999 };
	struct st_welch w;
	T_EQ_INT(st_welch_log(a, 3, a, 3, 0.0025, &w), 0);
	T_NEAR(w.ratio, 1, 1e-15);
	T_NEAR(w.se, 0.002041241452, 1e-12);
	T_NEAR(w.nu, 4, 1e-12);
	T_NEAR(w.ci_lo, 0.994349537980, 1e-11);
	T_NEAR(w.ci_hi, 1.005682571172, 1e-11);
	T_NEAR(w.p, 1, 1e-12);
	T_EQ_INT(st_verdict(w.ratio, w.ci_lo, w.ci_hi, 0.02, 0), ST_EQUIVALENT);
	/* constant samples and no floor: an exact shift is infinitely significant */
	double c[] = { 10, 10, 10 }, d[] = { 9, 9, 9 };
	T_EQ_INT(st_welch_log(c, 3, d, 3, 0, &w), 0);
	T_NEAR(w.ci_lo, 0.9, 1e-12);
	T_NEAR(w.ci_hi, 0.9, 1e-12);
	T_NEAR(w.p, 0, 0);
}

static void t_welch_cases(void)
{
	struct st_welch w;
	/* noisy: a 10 % drop inside ±20 % noise cannot be told from chance */
	double a[] = { 100, 120, 80 }, b[] = { 90, 110, 70 };
	T_EQ_INT(st_welch_log(a, 3, b, 3, 0.0025, &w), 0);
	T_TRUE(w.ratio < 0.92 && w.ratio > 0.85);
	T_TRUE(w.ci_lo < 0.7 && w.ci_hi > 1.1);
	T_EQ_INT(st_verdict(w.ratio, w.ci_lo, w.ci_hi, 0.02, 0), ST_INCONCLUSIVE);
	/* a single repetition: the ratio, but no interval */
	double one[] = { 95 };
	T_EQ_INT(st_welch_log(a, 3, one, 1, 0.0025, &w), -EINVAL);
	T_NEAR(w.ratio, 95 / cbrt(100.0 * 120 * 80), 1e-12);
	T_TRUE(isnan(w.ci_lo) && isnan(w.p));
	T_EQ_INT(st_verdict(w.ratio, w.ci_lo, w.ci_hi, 0.02, 0), ST_INCONCLUSIVE);
	/* no logarithm of zero */
	double z[] = { 0, 1, 2 };
	T_EQ_INT(st_welch_log(a, 3, z, 3, 0.0025, &w), -EDOM);
	T_EQ_INT(st_welch_log(a, 0, z, 3, 0.0025, &w), -EINVAL);
}

static void t_verdicts(void)
{
	static const struct { double r, lo, hi; int lower; enum st_verdict v; } c[] = {
		{ 0.95, 0.93, 0.97, 0, ST_REGRESSION },
		{ 0.98, 0.97, 0.99, 0, ST_REGRESSION },      /* r ≤ 1−δ exactly */
		{ 1.05, 1.03, 1.07, 0, ST_PROGRESSION },
		{ 1.00, 0.99, 1.01, 0, ST_EQUIVALENT },
		{ 1.00, 0.98, 1.02, 0, ST_EQUIVALENT },      /* the bounds are inside */
		{ 0.99, 0.985, 0.995, 0, ST_EQUIVALENT },    /* a change, but within ±δ */
		{ 1.01, 1.005, 1.025, 0, ST_SMALL_CHANGE },  /* real, smaller than δ, not bounded */
		{ 0.985, 0.975, 0.995, 0, ST_SMALL_CHANGE },
		{ 1.00, 0.97, 1.03, 0, ST_INCONCLUSIVE },
		{ 0.97, 0.95, 1.01, 0, ST_INCONCLUSIVE },    /* the interval holds 1 */
		{ 0.975, 0.96, 0.99, 0, ST_REGRESSION },     /* r beyond δ and hi < 1 */
		{ 1.10, 1.05, 1.15, 1, ST_REGRESSION },      /* latency up 10 % */
		{ 0.90, 0.85, 0.95, 1, ST_PROGRESSION },
		{ 1.00, 0.99, 1.01, 1, ST_EQUIVALENT },
		{ NAN, NAN, NAN, 0, ST_INCONCLUSIVE },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		enum st_verdict v = st_verdict(c[i].r, c[i].lo, c[i].hi, 0.02, c[i].lower);
		if (v != c[i].v)
			T_FAIL("case %zu: r=%g [%g, %g] lower=%d gave %s, expected %s", i, c[i].r,
			       c[i].lo, c[i].hi, c[i].lower, st_verdict_name(v),
			       st_verdict_name(c[i].v));
	}
	T_STREQ(st_verdict_name(ST_SMALL_CHANGE), "SMALL_CHANGE");
}

static void t_bh(void)
{
	/* by hand: sorted 0.005 0.01 0.03 0.04 → ×4/rank 0.02 0.02 0.04 0.04, then the
	 * running minimum from the top */
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, q[4];
	T_EQ_INT(st_bh(p, 4, q), 0);
	T_NEAR(q[0], 0.02, 1e-15);
	T_NEAR(q[1], 0.04, 1e-15);
	T_NEAR(q[2], 0.04, 1e-15);
	T_NEAR(q[3], 0.02, 1e-15);
	/* step-up monotonicity: a larger p never gets a smaller adjusted p */
	double p2[] = { 0.04, 0.041, 0.9 }, q2[3];
	st_bh(p2, 3, q2);
	T_NEAR(q2[0], 0.0615, 1e-15);
	T_NEAR(q2[1], 0.0615, 1e-15);
	T_NEAR(q2[2], 0.9, 1e-15);
	/* NaN (no test) is left out of the count */
	double p3[] = { 0.5, NAN, 0.001 }, q3[3];
	st_bh(p3, 3, q3);
	T_NEAR(q3[0], 0.5, 1e-15);
	T_TRUE(isnan(q3[1]));
	T_NEAR(q3[2], 0.002, 1e-15);
	/* capped at 1 */
	double p4[] = { 0.9, 0.95 }, q4[2];
	st_bh(p4, 2, q4);
	T_TRUE(q4[0] <= 1 && q4[1] <= 1);
	T_EQ_INT(st_bh(NULL, 0, NULL), 0);
}

static void t_csit(void)
{
	/* Δ = (90/100 − 1)·100 = −10; σΔ = 0.9·√(0.01² + (2/90)²)·100 = 2.1931712199 (awk) */
	double d, s;
	st_csit_delta(100, 1, 90, 2, &d, &s);
	T_NEAR(d, -10, 1e-12);
	T_NEAR(s, 2.1931712199, 1e-9);
	st_csit_delta(0, 1, 90, 2, &d, &s);
	T_TRUE(isnan(d) && isnan(s));
}

int main(void)
{
	T_RUN(t_location);
	T_RUN(t_t_table);
	T_RUN(t_betai);
	T_RUN(t_welch_worked);
	T_RUN(t_welch_floor);
	T_RUN(t_welch_cases);
	T_RUN(t_verdicts);
	T_RUN(t_bh);
	T_RUN(t_csit);
	return t_done();
}
