/* SPDX-License-Identifier: BSD-2-Clause */
/* stats.h — the statistics behind `ppslab table` and `ppslab compare`: pure functions on
 * arrays of doubles, no I/O, no state (docs/design/methodology.md#comparing-two-runs).
 *
 * The regression statistic is Welch's t on the logarithms of the repetitions: it gives
 * the ratio B/A of the geometric means with a 95 % confidence interval, which is what a
 * network engineer wants to read ("B forwards 0.93× of A, between 0.91× and 0.95×").
 * Sample variances are floored (f ≈ search width / 2:
 * docs/design/methodology.md#variance-floor) so that three identical repetitions do not
 * produce an infinitely narrow interval. The critical value comes from a t table
 * (docs/design/methodology.md#the-t-table) at the largest tabulated df not above ν
 * (conservative); the p-value from the regularized incomplete beta function with the
 * exact ν. */
#ifndef PPSLAB_ANALYSIS_RESULTS_STATS_H
#define PPSLAB_ANALYSIS_RESULTS_STATS_H

#include <stddef.h>

/* Location and spread of n samples. stdev is the sample stdev (n−1; NaN for n < 2),
 * pstdev the population stdev (n; CSIT's numpy default), cv = stdev/mean. */
struct st_summary {
	size_t n;
	double min, max, median, mean, stdev, pstdev, cv;
};

/* Fills s from v[0..n) (v is not modified). n = 0 gives NaNs. 0 or -ENOMEM. */
int st_summarize(const double *v, size_t n, struct st_summary *s);
/* Median of v[0..n) (mean of the middle two for even n); NaN for n = 0. */
double st_median(const double *v, size_t n);
double st_mean(const double *v, size_t n);
/* Quantile q (0..1) of v[0..n) by linear interpolation between order statistics
 * (Hyndman–Fan type 7, numpy's default); NaN for n = 0. Box plots use it: gnuplot's own
 * boxplot style draws nothing for fewer than four points. */
double st_quantile(const double *v, size_t n, double q);
/* Sample variance (n−1 denominator); NaN for n < 2. */
double st_var(const double *v, size_t n);

/* t_{0.975}(df) from the table (df 1..10, 12, 15, 20, 30, 60, ∞) at the largest
 * tabulated df ≤ df. df < 1 (or NaN) gives NaN. */
double st_t975(double df);

/* Regularized incomplete beta I_x(a, b) by Lentz's continued fraction (a, b > 0,
 * 0 ≤ x ≤ 1); NaN outside the domain. */
double st_betai(double a, double b, double x);
/* Two-sided p-value of Student's t statistic with nu degrees of freedom:
 * I_{ν/(ν+t²)}(ν/2, ½). */
double st_t_p2(double t, double nu);

/* Welch's comparison of two samples on log values
 * (docs/design/methodology.md#welch-t-on-log-throughput). */
struct st_welch {
	size_t m, n;         /* sample sizes of A and B */
	double d;            /* mean(ln b) − mean(ln a) */
	double se;           /* standard error of d, with floored variances */
	double nu;           /* Welch–Satterthwaite degrees of freedom */
	double t_crit;       /* t_0.975 from the table at the largest df ≤ ν */
	double t_stat;       /* d / se */
	double ratio;        /* exp(d): ratio of the geometric means B/A */
	double ci_lo, ci_hi; /* 95 % interval of the ratio */
	double p;            /* two-sided p-value (exact ν) */
};
/* a[0..m), b[0..n) must be positive. With m, n ≥ 1 the ratio is computed; the interval,
 * ν and p need m, n ≥ 2 (otherwise NaN and -EINVAL is returned after the ratio).
 * floor is f: variances of the logs are at least f². Returns 0, -EINVAL (a side has
 * fewer than 2 samples, or none), -EDOM (a value is not positive). */
int st_welch_log(const double *a, size_t m, const double *b, size_t n, double floor,
		 struct st_welch *w);

/* Benjamini–Hochberg adjusted p-values: padj[i] = min over j with p_(j) ≥ p_i of
 * p_(j)·k/rank(j), capped at 1, where k counts the finite p-values. NaN stays NaN.
 * 0 or -ENOMEM. */
int st_bh(const double *p, size_t n, double *padj);

enum st_verdict {
	ST_REGRESSION,
	ST_PROGRESSION,
	ST_EQUIVALENT,
	ST_SMALL_CHANGE,
	ST_INCONCLUSIVE,
};
/* The verdict (docs/design/methodology.md#verdicts) from ratio r and its interval
 * [lo, hi] against margin δ (0.02 for 2 %), for a metric where higher is better; lower_is_better swaps REGRESSION and
 * PROGRESSION (latency, loss). Checked in this order:
 *   REGRESSION   hi < 1 and r ≤ 1−δ
 *   PROGRESSION  lo > 1 and r ≥ 1+δ
 *   EQUIVALENT   [lo, hi] ⊂ [1−δ, 1+δ]
 *   SMALL_CHANGE the interval excludes 1 but |r−1| < δ
 *   INCONCLUSIVE anything else (also any NaN). */
enum st_verdict st_verdict(double r, double lo, double hi, double margin,
			   int lower_is_better);
const char *st_verdict_name(enum st_verdict v);

/* CSIT's release comparison (comparisons/tables.py): Δ = (μb/μa − 1)·100 and
 * σΔ = (μb/μa)·√((σa/μa)² + (σb/μb)²)·100, with population stdevs. Linearised, so only
 * meaningful for small spreads; printed next to the Welch interval for familiarity. */
void st_csit_delta(double mean_a, double psd_a, double mean_b, double psd_b,
		   double *delta_pct, double *sdelta_pct);

#endif
