/* SPDX-License-Identifier: BSD-2-Clause */
/* compare.h — is B slower than A? Cell-by-cell comparison of two results files
 * (docs/design/methodology.md#comparing-two-runs): cells are matched by their params,
 * order-independently; for each matched cell and metric the ratio B/A of the geometric
 * means with a 95 % interval from Welch's t on log values (variance floor f), a p-value,
 * Benjamini–Hochberg across the cells of each metric, CSIT's Δ ± σΔ, and a verdict
 * against the practical margin δ:
 *
 *   REGRESSION    B is worse by at least δ and the interval is entirely worse
 *   PROGRESSION   B is better by at least δ and the interval is entirely better
 *   EQUIVALENT    the whole interval lies within ±δ
 *   SMALL_CHANGE  a real change (interval excludes 1) smaller than δ
 *   INCONCLUSIVE  anything else: more repetitions needed (also a side with one
 *                 repetition, zero values, or a change not significant after BH)
 *
 * "Worse" is lower for rates and higher for latency, loss, CPU (names.h). A change
 * verdict also needs its BH-adjusted p ≤ α; otherwise it is INCONCLUSIVE.
 *
 * Forwarding rates (fwd_pps*, mfr_pps) of a matched cell must have been measured one
 * way (cases[].fwd_rate_from, else the last trial's): interface counters over the load
 * window, or test frames over the sender's time. Cells that mix them are refused
 * (-EINVAL, err names the cell, both methods and files) unless mix_methods. */
#ifndef PPSLAB_ANALYSIS_RESULTS_COMPARE_H
#define PPSLAB_ANALYSIS_RESULTS_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "grid.h"
#include "plot.h"
#include "results.h"
#include "stats.h"

struct cmp_opts {
	double margin;                 /* δ (0.02 = 2 %) */
	double alpha;                  /* BH false discovery rate (0.05) */
	double floor;                  /* f on log values; < 0: search width / 2, or 0.0025 */
	const char *const *metrics;    /* NULL/0: headline rates both files have */
	size_t nmetrics;
	const char *const *lower;      /* more lower-is-better metrics */
	size_t nlower;
	const struct res_sel *where;   /* only cells with these values, or NULL */
	bool mix_methods;              /* compare forwarding rates measured two ways
					* (fwd_rate_from differs): refused otherwise */
};

struct cmp_row {
	long cell_a, cell_b;
	const char *metric;
	int lower_is_better;
	struct res_stats sa, sb;
	struct st_welch w;
	double p_adj;
	double csit_delta_pct, csit_sdelta_pct;
	double gmean_a, gmean_b;       /* geometric means, what ratio compares; NaN if none */
	enum st_verdict verdict;
	const char *note;              /* why, when not obvious; or NULL */
	int flagged;                   /* flagged repetitions on either side */
};

struct cmp {
	const struct res_file *a, *b;
	double margin, alpha, floor;
	size_t nmetrics;
	char **metrics;
	size_t nrows;
	struct cmp_row *rows;
	size_t n_only_a, n_only_b;
	size_t *only_a, *only_b;       /* cell indices in a and b */
	size_t counts[ST_INCONCLUSIVE + 1];
};

/* 0; -EINVAL when a requested metric is missing or no headline metric is common (err
 * says which and what exists); -ENOMEM. */
int cmp_run(const struct res_file *a, const struct res_file *b, const struct cmp_opts *o,
	    struct cmp **out, char *err, size_t errlen);
void cmp_free(struct cmp *c);
/* The search width of a file's first goal, or NaN: the default floor (trend's too). */
double cmp_goal_width(const struct res_file *rf);

/* The ppslab/compare document of comparisons[0..n) (all against one baseline). */
json_t *cmp_json(struct cmp *const *c, size_t n);
/* The result table of one comparison (text/md/csv/html). */
struct grid *cmp_grid(const struct cmp *c, enum grid_fmt fmt);
/* The environments of the files side by side: OS, kernel, CPU, NICs, router, every
 * tunable, run id and date. */
struct grid *cmp_env_grid(const struct res_file *const *files, size_t n);
/* Everything for people: the method line, the table, cells on one side only, counts. */
void cmp_print(FILE *f, const struct cmp *c, enum grid_fmt fmt);
/* Bars of metric per matched cell (mean ± stdev), one bar per file; '*' marks cells
 * with a REGRESSION or PROGRESSION verdict. */
int cmp_plot(struct cmp *const *c, size_t n, const char *metric, const struct plot_out *o,
	     char *err, size_t errlen);

/* One value of an axis of rf as a results file of its own, for comparing the values of
 * one axis within one run (ppslab compare --by): the cases whose axis has value, with
 * that axis taken out of their params (so the cells of two values match by the other
 * axes), named "AXIS=VALUE". When its cases recorded the router they ran on
 * (cases[].router_env, read after each reboot), the first one's OS, boot and tunables
 * replace environment.dut's, so the environments side by side are the values'. 0;
 * -ENOENT when no case has value; -EINVAL (err says why); -ENOMEM. */
int cmp_split(const struct res_file *rf, const char *axis, const json_t *value,
	      struct res_file **out, char *err, size_t errlen);

/* Verdict name (case-insensitive, "small_change" or "small-change") → verdict; -1. */
int cmp_verdict_parse(const char *s);

#endif
