/* SPDX-License-Identifier: BSD-2-Clause */
/* model.h — the project's two models of a forwarder, set beside what was measured:
 *
 * - the rule cost: a frame that walks past N firewall rules takes a + b·N seconds of
 *   the forwarder's time, so the forwarding rate is 1/(a + b·N). Fitted by least squares
 *   of 1/rate on N (the time per frame is what is linear in N); b is reported in ns per
 *   rule per frame.
 * - the polling bound: BSD device polling takes at most burst_max frames per interface
 *   per tick of its clock (pollhz on DragonFly, kern.hz on FreeBSD), so a polled
 *   forwarder cannot exceed pollhz × burst_max per receiving port.
 *
 * Plots draw both (plot_fig.c, plot_xy.c); `ppslab run` stores the rule-cost fits in
 * the results file's fits[] beside summary[] (docs/results-schema.md#fits). */
#ifndef PPSLAB_ANALYSIS_RESULTS_MODEL_H
#define PPSLAB_ANALYSIS_RESULTS_MODEL_H

#include <stddef.h>

#include "results.h"

struct fit_rc {
	size_t n;            /* points used */
	double a_s;          /* seconds per frame with no rules */
	double b_s;          /* seconds per rule per frame */
	double r2;           /* coefficient of determination of 1/rate on N */
	double max_rel_err;  /* largest |fitted rate / measured rate − 1| over the points */
};

/* Fits rate = 1/(a + b·N) to k points (N ≥ 0, rate > 0; other points are skipped).
 * 0, or -EINVAL with fewer than 3 usable points or fewer than 2 distinct N. */
int fit_rule_cost(const double *n, const double *rate, size_t k, struct fit_rc *out);
/* The fitted rate at N. */
double fit_rule_rate(const struct fit_rc *f, double n);
/* Whether a fit says the rules cost something: b > 0 and R² at least FIT_R2_MIN. A fit
 * with a negative cost, or one the points do not follow, is not drawn or quoted as a
 * cost ("no rule cost visible"). Takes b and R² so stored fits[] rows can be judged. */
#define FIT_R2_MIN 0.7
int fit_rule_visible(double b_s, double r2);

/* Axis names that count firewall rules ("rules", "fw_rules"); 1 if name is one. */
int model_is_rules_axis(const char *name);

/* A parameter of a cell as the run had it: the cell's params, else the profile's
 * params, else the DUT's tunable kern.polling.NAME. NaN when not known or not a number
 * ("2k" and "150" as strings are read as numbers). */
double model_param_num(const struct res_file *rf, const json_t *params, const char *name);
/* The same for a string parameter ("mode", "direction"); NULL when not known. */
const char *model_param_str(const struct res_file *rf, const json_t *params,
			    const char *name);

/* The polling bound clock × burst_max × receiving ports for a cell and a rate metric, the
 * clock being pollhz, or kern.hz (param "hz", default 1000) with a FreeBSD kernel:
 * 2 ports for the aggregate of a bidirectional run, 1 otherwise; NaN when the cell is
 * not polled (mode other than poll), polls in the idle loop too (idle_poll 1), or pollhz
 * or burst_max is unknown. The values
 * given override the cell's (NaN: from the cell). */
double model_poll_bound(const struct res_file *rf, const json_t *params, const char *metric,
			double pollhz, double burst_max);

/* The offered load every cell had, pps: method.offered_pps, else the profile's
 * "offered" param; NaN when a load axis varies or the load is not a number ("max"). */
double model_fixed_offered(const struct res_file *rf);
/* The rule-cost fits a results file supports: for each rate metric with values and a
 * numeric rules axis with at least 3 values, one row per combination of the other
 * axes: {model: "rule_cost", metric, axis, params, n, a_s, b_s, b_ns_per_rule, r2,
 * max_rel_err}. An empty array when there is nothing to fit; NULL on ENOMEM. */
json_t *res_fits(const struct res_file *rf);

#endif
