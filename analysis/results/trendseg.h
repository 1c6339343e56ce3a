/* SPDX-License-Identifier: BSD-2-Clause */
/* trendseg.h — change-point segmentation of one series of runs for `ppslab trend`:
 * pure functions on arrays of repetitions, no I/O (docs/design/trend.md has the
 * method, its formula and why).
 *
 * A series is runs in order, each with the repetitions of one cell's metric. It is cut
 * into groups of equal performance in two steps:
 *
 *  1. Proposal: exact penalised-likelihood segmentation of the runs' log means
 *     y_i (the log of each run's geometric mean). Run i's noise variance is
 *     λ·φ_i², with φ_i² = q² + u_i: q = ln(1+δ)/2 is the run-to-run scatter the
 *     margin δ already allows, u_i the variance of y_i its own repetitions show
 *     (sample variance of the logs, at least the floor f², over n_i). λ ≥ 1 is
 *     estimated from the data (the series may scatter more than that). For k groups
 *     with weighted residual sum of squares χ²_k (group levels are weighted means),
 *         J(k) = N/2 · g(χ²_k / N) + β·(k − 1),  g(x) = x (x ≤ 1), 1 + ln x (x > 1),
 *     β = 1.5·ln N + 1 (N runs). The best segmentation for each k comes from dynamic
 *     programming over all cut positions; the k with the smallest J wins (ties: fewer
 *     groups). A group between two others needs at least two runs: one run that
 *     leaves a level and comes back is an outlier of that group, not two changes. The
 *     first and the last group may be a single run (the newest run must be able to
 *     raise the alarm).
 *  2. Confirmation, with compare's statistics: each cut is tested as `ppslab compare`
 *     tests two files, Welch's t on the log values of the repetitions of the two
 *     groups (variance floor f), verdict against the margin δ. A cut that is not a
 *     REGRESSION or PROGRESSION is removed (the one with the largest p first) and the
 *     cuts beside it are tested again, until every cut stands.
 *
 * Then the last group is compared with the best earlier group, and runs far from the
 * level of their group (more than three robust spreads and more than δ) are marked as
 * outliers (kept in the statistics; reported). */
#ifndef PPSLAB_ANALYSIS_RESULTS_TRENDSEG_H
#define PPSLAB_ANALYSIS_RESULTS_TRENDSEG_H

#include <stddef.h>

#include "stats.h"

struct tseg_run {
	const double *v;      /* the repetitions' values, all > 0 */
	size_t n;             /* ≥ 1 */
};

struct tseg_opts {
	double margin;        /* δ (0.02 = 2 %) */
	double floor;         /* f, on log values (0.0025) */
	int lower_is_better;
};

/* Two groups compared as `ppslab compare` compares two files: B (the later, or the
 * newest) against A. */
struct tseg_cmp {
	size_t a, b;          /* group indices */
	struct st_welch w;
	enum st_verdict verdict;
	const char *note;     /* why INCONCLUSIVE when not obvious, or NULL */
};

struct tseg_result {
	size_t nruns, ngroups;
	size_t *start;        /* ngroups + 1 entries: group g is runs [start[g], start[g+1]) */
	double *level;        /* per group: geometric mean of all its repetitions */
	size_t *nvalues;      /* per group: repetitions in it */
	struct tseg_cmp *change;   /* ngroups − 1: change[g] is group g+1 against group g */
	int has_newest;       /* ngroups ≥ 2 */
	struct tseg_cmp newest;    /* the last group against the best earlier one */
	int *outlier;         /* per run */
	double *y;            /* per run: mean of ln v (the log of its geometric mean) */
	double *u;            /* per run: the variance of y its repetitions show */
	double q, beta, lambda;
	double scatter;       /* RMS of y around its group's mean, outliers left out */
	int unsteady;         /* and that scatter is more than TSEG_UNSTEADY_LAMBDA allows */
	size_t proposed;      /* groups step 1 proposed (before confirmation) */
};

/* Segments runs r[0..n) (n ≥ 1). 0; -EDOM if a value is not positive (no log scale);
 * -EINVAL for n = 0 or a run without values; -ENOMEM. */
int tseg_segment(const struct tseg_run *r, size_t n, const struct tseg_opts *o,
		 struct tseg_result *res);
void tseg_free(struct tseg_result *res);

/* χ²/N above this (outliers left out): the runs scatter more than twice what their
 * repetitions and the margin allow, so groups may hide changes, or the order is not
 * the one performance changed in; said with the series. */
#define TSEG_UNSTEADY_LAMBDA 4.0

/* Group index of run i. */
size_t tseg_group_of(const struct tseg_result *res, size_t run);

/* The penalty β for n runs, and the weighted residual sum of squares of y[lo..hi)
 * around its weighted mean (weights w): exposed for the unit tests. */
double tseg_beta(size_t n);
double tseg_chi2(const double *y, const double *w, size_t lo, size_t hi);

#endif
