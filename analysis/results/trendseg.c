/* SPDX-License-Identifier: BSD-2-Clause */
/* trendseg.c — change-point segmentation of a series of runs (see trendseg.h and
 * docs/design/trend.md). Pure: called by trend.c and the unit tests. */
#include "trendseg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double tseg_beta(size_t n)
{
	return 1.5 * log((double)(n ? n : 1)) + 1;
}

double tseg_chi2(const double *y, const double *w, size_t lo, size_t hi)
{
	double sw = 0, swy = 0;
	for (size_t i = lo; i < hi; i++) {
		sw += w[i];
		swy += w[i] * y[i];
	}
	if (!(sw > 0))
		return 0;
	double mu = swy / sw, c = 0;
	for (size_t i = lo; i < hi; i++)
		c += w[i] * (y[i] - mu) * (y[i] - mu);
	return c;
}

void tseg_free(struct tseg_result *res)
{
	if (!res)
		return;
	free(res->start);
	free(res->level);
	free(res->nvalues);
	free(res->change);
	free(res->outlier);
	free(res->y);
	free(res->u);
	memset(res, 0, sizeof(*res));
}

size_t tseg_group_of(const struct tseg_result *res, size_t run)
{
	size_t g = 0;
	while (g + 1 < res->ngroups && run >= res->start[g + 1])
		g++;
	return g;
}

/* The penalised cost of a total weighted residual χ² over n runs (see trendseg.h). */
static double fit_cost(double chi2, size_t n)
{
	double x = chi2 / (double)n;
	return (double)n / 2 * (x <= 1 ? x : 1 + log(x));
}

/* Step 1: the cuts of the best segmentation into starts[0..*k] (starts[*k] = n). */
static int propose(const double *y, const double *w, size_t n, double beta, size_t *starts,
		   size_t *k)
{
	/* prefix sums of the centred values keep the differences below exact enough */
	double *W = calloc(3 * (n + 1), sizeof(*W));
	double *prev = malloc((n + 1) * sizeof(*prev)), *cur = malloc((n + 1) * sizeof(*cur));
	size_t *back = NULL, rows = 0;
	int rc = -ENOMEM;
	if (!W || !prev || !cur)
		goto out;
	double *A = W + (n + 1), *B = A + (n + 1), sw = 0, swy = 0;
	for (size_t i = 0; i < n; i++) {
		sw += w[i];
		swy += w[i] * y[i];
	}
	double c = swy / sw;
	for (size_t i = 0; i < n; i++) {
		double z = y[i] - c;
		W[i + 1] = W[i] + w[i];
		A[i + 1] = A[i] + w[i] * z;
		B[i + 1] = B[i] + w[i] * z * z;
	}
#define SEGCOST(j, i) fmax(0, (B[i] - B[j]) - (A[i] - A[j]) * (A[i] - A[j]) / (W[i] - W[j]))
	/* prev[i]: the smallest χ² of the first i runs in m groups (INFINITY: impossible) */
	for (size_t i = 0; i <= n; i++)
		prev[i] = i ? SEGCOST(0, i) : INFINITY;
	if (!(back = malloc((n + 1) * sizeof(*back))))
		goto out;
	for (size_t i = 0; i <= n; i++)
		back[i] = 0;
	rows = 1;
	double best = fit_cost(prev[n], n);
	size_t best_m = 1;
	for (size_t m = 2; m <= n && beta * (double)(m - 1) < best; m++) {
		size_t *nb = realloc(back, (rows + 1) * (n + 1) * sizeof(*back));
		if (!nb)
			goto out;
		back = nb;
		size_t *bk = back + rows * (n + 1);
		for (size_t i = 0; i <= n; i++) {
			cur[i] = INFINITY;
			bk[i] = 0;
			for (size_t j = m - 1; j < i; j++) {
				/* a group between two others holds two runs or more */
				if (!isfinite(prev[j]) || (i - j < 2 && i != n))
					continue;
				double v = prev[j] + SEGCOST(j, i);
				if (v < cur[i]) {
					cur[i] = v;
					bk[i] = j;
				}
			}
		}
		rows++;
		double J = isfinite(cur[n]) ? fit_cost(cur[n], n) + beta * (double)(m - 1)
					    : INFINITY;
		if (J < best) {
			best = J;
			best_m = m;
		}
		double *t = prev;
		prev = cur;
		cur = t;
	}
#undef SEGCOST
	*k = best_m;
	starts[best_m] = n;
	size_t i = n;
	for (size_t m = best_m; m-- > 0;) {
		size_t j = m ? back[m * (n + 1) + i] : 0;
		starts[m] = j;
		i = j;
	}
	rc = 0;
out:
	free(W);
	free(prev);
	free(cur);
	free(back);
	return rc;
}

/* Welch on the logs of the repetitions of runs [a0, a1) against [b0, b1). */
static int compare_runs(const struct tseg_run *r, size_t a0, size_t a1, size_t b0, size_t b1,
			const struct tseg_opts *o, double *buf, struct tseg_cmp *out)
{
	size_t m = 0, n = 0;
	for (size_t i = a0; i < a1; i++)
		for (size_t j = 0; j < r[i].n; j++)
			buf[m++] = r[i].v[j];
	double *bb = buf + m;
	for (size_t i = b0; i < b1; i++)
		for (size_t j = 0; j < r[i].n; j++)
			bb[n++] = r[i].v[j];
	int rc = st_welch_log(buf, m, bb, n, o->floor, &out->w);
	out->note = NULL;
	out->verdict = ST_INCONCLUSIVE;
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		out->note = m < 2 ? "single repetition before the change"
			  : "single repetition after the change";
	else
		out->verdict = st_verdict(out->w.ratio, out->w.ci_lo, out->w.ci_hi, o->margin,
					  o->lower_is_better);
	return 0;
}

static int is_change(enum st_verdict v)
{
	return v == ST_REGRESSION || v == ST_PROGRESSION;
}

/* Step 2: removes cuts compare's test does not confirm, the weakest first. */
static int confirm(const struct tseg_run *r, const struct tseg_opts *o, double *buf,
		   struct tseg_result *res)
{
	size_t k = res->ngroups;
	for (size_t g = 0; g + 1 < k; g++) {
		int rc = compare_runs(r, res->start[g], res->start[g + 1], res->start[g + 1],
				      res->start[g + 2], o, buf, &res->change[g]);
		if (rc)
			return rc;
	}
	for (;;) {
		long weakest = -1;
		double wp = -1;
		for (size_t g = 0; g + 1 < k; g++) {
			if (is_change(res->change[g].verdict))
				continue;
			double p = isnan(res->change[g].w.p) ? INFINITY : res->change[g].w.p;
			if (p > wp) {
				wp = p;
				weakest = (long)g;
			}
		}
		if (weakest < 0)
			break;
		/* cut weakest+1 goes: groups weakest and weakest+1 become one */
		size_t c = (size_t)weakest;
		memmove(&res->start[c + 1], &res->start[c + 2], (k - c - 1) * sizeof(*res->start));
		memmove(&res->change[c], &res->change[c + 1], (k - c - 2) * sizeof(*res->change));
		k--;
		res->ngroups = k;
		if (c > 0) {
			int rc = compare_runs(r, res->start[c - 1], res->start[c], res->start[c],
					      res->start[c + 1], o, buf, &res->change[c - 1]);
			if (rc)
				return rc;
		}
		if (c + 1 < k) {
			int rc = compare_runs(r, res->start[c], res->start[c + 1], res->start[c + 1],
					      res->start[c + 2], o, buf, &res->change[c]);
			if (rc)
				return rc;
		}
	}
	for (size_t g = 0; g + 1 < k; g++) {
		res->change[g].a = g;
		res->change[g].b = g + 1;
	}
	return 0;
}

/* Runs more than three robust spreads (and more than δ) from their group's median. */
static void mark_outliers(const struct tseg_opts *o, double *tmp, struct tseg_result *res)
{
	for (size_t g = 0; g < res->ngroups; g++) {
		size_t a = res->start[g], b = res->start[g + 1], k = b - a;
		if (k < 3)
			continue;
		double med = st_median(res->y + a, k);
		for (size_t i = 0; i < k; i++)
			tmp[i] = fabs(res->y[a + i] - med);
		double s = fmax(1.4826 * st_median(tmp, k), res->q);
		for (size_t i = a; i < b; i++) {
			double d = res->y[i] - med;
			res->outlier[i] = fabs(d) > 3 * sqrt(s * s + res->u[i]) &&
					  fabs(exp(d) - 1) >= o->margin;
		}
	}
}

/* How far the runs other than outliers scatter around their groups: the RMS of y, and
 * χ²/k against TSEG_UNSTEADY_LAMBDA (an outlier is reported already; it should not
 * also make its whole series look unsteady). */
static void steadiness(const double *w, struct tseg_result *res)
{
	double chi2 = 0, ss = 0;
	size_t k = 0;
	for (size_t g = 0; g < res->ngroups; g++) {
		double sw = 0, swy = 0, sy = 0;
		size_t m = 0;
		for (size_t i = res->start[g]; i < res->start[g + 1]; i++)
			if (!res->outlier[i]) {
				sw += w[i];
				swy += w[i] * res->y[i];
				sy += res->y[i];
				m++;
			}
		if (!m)
			continue;
		for (size_t i = res->start[g]; i < res->start[g + 1]; i++)
			if (!res->outlier[i]) {
				double dw = res->y[i] - swy / sw, d = res->y[i] - sy / (double)m;
				chi2 += w[i] * dw * dw;
				ss += d * d;
			}
		k += m;
	}
	res->scatter = k ? sqrt(ss / (double)k) : 0;
	res->unsteady = k && chi2 / (double)k > TSEG_UNSTEADY_LAMBDA;
}

int tseg_segment(const struct tseg_run *r, size_t n, const struct tseg_opts *o,
		 struct tseg_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!n)
		return -EINVAL;
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (!r[i].n)
			return -EINVAL;
		for (size_t j = 0; j < r[i].n; j++)
			if (!(r[i].v[j] > 0))
				return -EDOM;
		total += r[i].n;
	}
	res->nruns = n;
	res->start = calloc(n + 1, sizeof(*res->start));
	res->level = calloc(n, sizeof(*res->level));
	res->nvalues = calloc(n, sizeof(*res->nvalues));
	res->change = calloc(n, sizeof(*res->change));
	res->outlier = calloc(n, sizeof(*res->outlier));
	res->y = calloc(n, sizeof(*res->y));
	res->u = calloc(n, sizeof(*res->u));
	double *w = calloc(n, sizeof(*w));
	double *buf = calloc(total + n, sizeof(*buf));
	int rc = -ENOMEM;
	if (!res->start || !res->level || !res->nvalues || !res->change || !res->outlier ||
	    !res->y || !res->u || !w || !buf)
		goto fail;

	/* the runs' log means, their own variances, and the pooled within-run variance
	 * for runs of a single repetition */
	double f2 = o->floor * o->floor, ss = 0;
	size_t df = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < r[i].n; j++)
			buf[j] = log(r[i].v[j]);
		res->y[i] = st_mean(buf, r[i].n);
		if (r[i].n >= 2) {
			double v = st_var(buf, r[i].n);
			ss += v * (double)(r[i].n - 1);
			df += r[i].n - 1;
			res->u[i] = fmax(v, f2) / (double)r[i].n;
		}
	}
	double pooled = df ? fmax(ss / (double)df, f2) : f2;
	res->q = log1p(o->margin) / 2;
	res->beta = tseg_beta(n);
	for (size_t i = 0; i < n; i++) {
		if (r[i].n < 2)
			res->u[i] = pooled;
		w[i] = 1 / (res->q * res->q + res->u[i]);
	}

	if ((rc = propose(res->y, w, n, res->beta, res->start, &res->ngroups)))
		goto fail;
	res->proposed = res->ngroups;
	if ((rc = confirm(r, o, buf, res)))
		goto fail;

	double chi2 = 0;
	for (size_t g = 0; g < res->ngroups; g++) {
		size_t a = res->start[g], b = res->start[g + 1], k = 0;
		double sl = 0;
		for (size_t i = a; i < b; i++)
			for (size_t j = 0; j < r[i].n; j++, k++)
				sl += log(r[i].v[j]);
		res->level[g] = exp(sl / (double)k);
		res->nvalues[g] = k;
		chi2 += tseg_chi2(res->y, w, a, b);
	}
	res->lambda = fmax(1, chi2 / (double)n);

	if (res->ngroups >= 2) {
		size_t last = res->ngroups - 1, best = 0;
		for (size_t g = 1; g < last; g++)
			if (o->lower_is_better ? res->level[g] < res->level[best]
					       : res->level[g] > res->level[best])
				best = g;
		if ((rc = compare_runs(r, res->start[best], res->start[best + 1],
				       res->start[last], n, o, buf, &res->newest)))
			goto fail;
		res->newest.a = best;
		res->newest.b = last;
		res->has_newest = 1;
	}
	mark_outliers(o, buf, res);
	steadiness(w, res);
	free(w);
	free(buf);
	return 0;
fail:
	free(w);
	free(buf);
	tseg_free(res);
	return rc;
}
