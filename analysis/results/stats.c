/* SPDX-License-Identifier: BSD-2-Clause */
/* stats.c — medians, spreads, Welch's t on logs, the incomplete beta function,
 * Benjamini–Hochberg and the regression verdict (see stats.h;
 * docs/design/methodology.md#comparing-two-runs).
 * Pure: called by results.c (per-cell summaries), compare.c and the unit tests. */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

double st_mean(const double *v, size_t n)
{
	if (!n)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

/* Sum of squared deviations, two-pass for accuracy on large rates with small spreads. */
static double sq_dev(const double *v, size_t n, double mean)
{
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return ss;
}

double st_var(const double *v, size_t n)
{
	if (n < 2)
		return NAN;
	return sq_dev(v, n, st_mean(v, n)) / (double)(n - 1);
}

double st_median(const double *v, size_t n)
{
	if (!n)
		return NAN;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double m = median_sorted(s, n);
	free(s);
	return m;
}

double st_quantile(const double *v, size_t n, double q)
{
	if (!n || !(q >= 0) || !(q <= 1))
		return NAN;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	double r = lo + 1 < n ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[lo];
	free(s);
	return r;
}

int st_summarize(const double *v, size_t n, struct st_summary *s)
{
	s->n = n;
	s->min = s->max = s->median = s->mean = s->stdev = s->pstdev = s->cv = NAN;
	if (!n)
		return 0;
	double *c = malloc(n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	s->min = c[0];
	s->max = c[n - 1];
	s->median = median_sorted(c, n);
	free(c);
	s->mean = st_mean(v, n);
	double ss = sq_dev(v, n, s->mean);
	s->pstdev = sqrt(ss / (double)n);
	if (n >= 2) {
		s->stdev = sqrt(ss / (double)(n - 1));
		s->cv = s->mean != 0 ? s->stdev / s->mean : NAN;
	}
	return 0;
}

/* t_0.975 by df (docs/design/methodology.md#the-t-table); the last row is the normal
 * quantile (df = ∞). */
static const struct { double df, t; } t975_table[] = {
	{ 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 }, { 4, 2.776 }, { 5, 2.571 },
	{ 6, 2.447 }, { 7, 2.365 }, { 8, 2.306 }, { 9, 2.262 }, { 10, 2.228 },
	{ 12, 2.179 }, { 15, 2.131 }, { 20, 2.086 }, { 30, 2.042 }, { 60, 2.000 },
	{ INFINITY, 1.960 },
};

double st_t975(double df)
{
	if (!(df >= 1))
		return NAN;
	double t = NAN;
	for (size_t i = 0; i < sizeof(t975_table) / sizeof(t975_table[0]); i++)
		if (t975_table[i].df <= df)
			t = t975_table[i].t;
	return t;
}

/* Continued fraction for I_x(a, b), modified Lentz (Numerical Recipes §6.4 betacf). */
static double betacf(double a, double b, double x)
{
	const double fpmin = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < fpmin)
		d = fpmin;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < fpmin)
			d = fpmin;
		c = 1 + aa / c;
		if (fabs(c) < fpmin)
			c = fpmin;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < fpmin)
			d = fpmin;
		c = 1 + aa / c;
		if (fabs(c) < fpmin)
			c = fpmin;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double st_betai(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	double bt = exp(lbt);
	/* the fraction converges fast for x < (a+1)/(a+b+2); use the symmetry otherwise */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double st_t_p2(double t, double nu)
{
	if (!isfinite(t) && !isnan(t))
		return 0;
	if (isnan(t) || !(nu > 0))
		return NAN;
	return st_betai(nu / 2, 0.5, nu / (nu + t * t));
}

int st_welch_log(const double *a, size_t m, const double *b, size_t n, double floor,
		 struct st_welch *w)
{
	w->m = m;
	w->n = n;
	w->d = w->se = w->nu = w->t_crit = w->t_stat = NAN;
	w->ratio = w->ci_lo = w->ci_hi = w->p = NAN;
	if (!m || !n)
		return -EINVAL;
	double *la = malloc((m + n) * sizeof(*la));
	if (!la)
		return -ENOMEM;
	double *lb = la + m;
	int rc = 0;
	for (size_t i = 0; i < m; i++)
		if (!(a[i] > 0))
			rc = -EDOM;
		else
			la[i] = log(a[i]);
	for (size_t i = 0; i < n; i++)
		if (!(b[i] > 0))
			rc = -EDOM;
		else
			lb[i] = log(b[i]);
	if (rc)
		goto out;
	w->d = st_mean(lb, n) - st_mean(la, m);
	w->ratio = exp(w->d);
	if (m < 2 || n < 2) {
		rc = -EINVAL;
		goto out;
	}
	double f2 = floor * floor;
	double su2 = fmax(st_var(la, m), f2), sv2 = fmax(st_var(lb, n), f2);
	double qa = su2 / (double)m, qb = sv2 / (double)n;
	w->se = sqrt(qa + qb);
	if (w->se > 0) {
		w->nu = (qa + qb) * (qa + qb) /
			(qa * qa / (double)(m - 1) + qb * qb / (double)(n - 1));
		w->t_stat = w->d / w->se;
	} else {
		/* floor 0 and no spread on either side: exact equality or an exact shift */
		w->nu = (double)(m + n - 2);
		w->t_stat = w->d == 0 ? 0 : copysign(INFINITY, w->d);
	}
	w->t_crit = st_t975(w->nu);
	w->ci_lo = exp(w->d - w->t_crit * w->se);
	w->ci_hi = exp(w->d + w->t_crit * w->se);
	w->p = st_t_p2(w->t_stat, w->nu);
out:
	free(la);
	return rc;
}

struct p_idx {
	double p;
	size_t i;
};

static int cmp_p(const void *a, const void *b)
{
	const struct p_idx *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int st_bh(const double *p, size_t n, double *padj)
{
	struct p_idx *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		padj[i] = NAN;
		if (!isnan(p[i]))
			s[k++] = (struct p_idx){ p[i], i };
	}
	qsort(s, k, sizeof(*s), cmp_p);
	/* step-up: walk from the largest p down, keeping the running minimum */
	double run = 1.0;
	for (size_t r = k; r-- > 0;) {
		double v = s[r].p * (double)k / (double)(r + 1);
		if (v < run)
			run = v;
		padj[s[r].i] = run;
	}
	free(s);
	return 0;
}

enum st_verdict st_verdict(double r, double lo, double hi, double margin,
			   int lower_is_better)
{
	if (isnan(r) || isnan(lo) || isnan(hi) || isnan(margin))
		return ST_INCONCLUSIVE;
	enum st_verdict v;
	if (hi < 1 && r <= 1 - margin)
		v = ST_REGRESSION;
	else if (lo > 1 && r >= 1 + margin)
		v = ST_PROGRESSION;
	else if (lo >= 1 - margin && hi <= 1 + margin)
		v = ST_EQUIVALENT;
	else if ((hi < 1 || lo > 1) && fabs(r - 1) < margin)
		v = ST_SMALL_CHANGE;
	else
		v = ST_INCONCLUSIVE;
	if (lower_is_better && v == ST_REGRESSION)
		v = ST_PROGRESSION;
	else if (lower_is_better && v == ST_PROGRESSION)
		v = ST_REGRESSION;
	return v;
}

const char *st_verdict_name(enum st_verdict v)
{
	switch (v) {
	case ST_REGRESSION: return "REGRESSION";
	case ST_PROGRESSION: return "PROGRESSION";
	case ST_EQUIVALENT: return "EQUIVALENT";
	case ST_SMALL_CHANGE: return "SMALL_CHANGE";
	case ST_INCONCLUSIVE: return "INCONCLUSIVE";
	}
	return "INCONCLUSIVE";
}

void st_csit_delta(double mean_a, double psd_a, double mean_b, double psd_b,
		   double *delta_pct, double *sdelta_pct)
{
	if (!(mean_a != 0) || !(mean_b != 0)) {
		*delta_pct = *sdelta_pct = NAN;
		return;
	}
	double q = mean_b / mean_a;
	*delta_pct = (q - 1) * 100;
	double ra = psd_a / mean_a, rb = psd_b / mean_b;
	*sdelta_pct = q * sqrt(ra * ra + rb * rb) * 100;
}
