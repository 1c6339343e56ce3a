/* SPDX-License-Identifier: BSD-2-Clause */
/* results.h — reading (and atomically saving) `ppslab/result` files, the contract in
 * docs/results-schema.md. One module for every reader (table, plot, compare, report)
 * and for `ppslab run --resume`.
 *
 * res_load() parses the file with jansson and validates what readers rely on; every
 * problem is reported as "FILE: JSON-PATH: expected WHAT, got WHAT" (or FILE:LINE:COL
 * for text that is not JSON) and returns -EINVAL, so main() can exit EX_DATAERR. Keys a
 * reader does not know are ignored (the schema's forward-compatibility rule).
 *
 * After loading, cases are grouped into cells: a cell is one set of `params`, compared
 * order-independently and numerically (1000 and 1000.0 are the same value), so files
 * written with different axis orders match. Axes are the `matrix.axes` keys in file
 * order, then any other params key in first-seen order; an axis' values are ordered as
 * in `matrix.axes`, else numbers ascending, then other values as first seen.
 *
 * Statistics of a cell skip cases whose status is "failed" and metrics that are absent
 * or null; cases with status "flagged" or a non-empty `flags[]` are counted as flagged. */
#ifndef PPSLAB_ANALYSIS_RESULTS_RESULTS_H
#define PPSLAB_ANALYSIS_RESULTS_RESULTS_H

#include <jansson.h>
#include <stddef.h>

#include "stats.h"

/* How a trial's forwarding rate was measured (its "fwd_rate_from"). */
#define RES_FWD_WINDOW "interface counters, load window"
#define RES_FWD_FRAMES "test frames / sender's time"

#define RES_SCHEMA "ppslab/result"
#define RES_SCHEMA_MAJOR 1

struct res_case {
	json_t *obj;          /* the case object (borrowed from the file's tree) */
	json_t *params;       /* object of axis → value */
	json_t *metrics;      /* object of name → number|null, or NULL if the case has none */
	const char *case_id;  /* NULL if absent */
	const char *status;   /* "ok", "flagged", "failed", or NULL (not finished) */
	int rep;              /* 1-based repetition, 0 if absent */
	int flagged;          /* status "flagged" or a non-empty flags[] */
	int failed;           /* status "failed": excluded from statistics */
	size_t cell;          /* index into res_file.cells */
};

struct res_ix;            /* an index from text to position (private to results.c) */

struct res_cell {
	long *vi;             /* per axis of the file: its value's index in axes[a].values,
			       * -1 without one (lets pivots match cells in linear time) */
	char *key;            /* "pollhz=1000/burst_max=150" in axis order (display) */
	char *canon;          /* order-independent identity, for matching across files */
	json_t *params;       /* params of the cell's first case (borrowed) */
	size_t ncases;
	size_t *cases;        /* indices into res_file.cases, in file order */
};

struct res_axis {
	char *name;
	size_t nvalues;
	json_t **values;      /* distinct values in display order (borrowed) */
	struct res_ix *ix;    /* value → its index */
};

struct res_file {
	char *path;           /* as given, for messages */
	json_t *root;         /* the whole document (owned) */
	const char *run_id;   /* NULL if absent */
	size_t ncases;
	struct res_case *cases;
	size_t ncells;
	struct res_cell *cells;   /* in axis-value order */
	size_t naxes;
	struct res_axis *axes;
	size_t nmetrics;
	char **metrics;       /* every metric name any case has, first-seen order */
	struct res_ix *canon_ix;   /* cell canon → cell index */
};

/* Loads and validates path ("-" reads stdin). On error writes one line to err and
 * returns -ENOENT (cannot open), -EINVAL (not JSON / not a valid results file) or
 * -ENOMEM. *out is set only on success. */
int res_load(const char *path, struct res_file **out, char *err, size_t errlen);
/* The same on a parsed document; takes a reference on root. name is used in messages. */
int res_from_json(json_t *root, const char *name, struct res_file **out, char *err,
		  size_t errlen);
void res_free(struct res_file *rf);

/* Metric value of a case: 0 and *v, -ENOENT if absent, -ENODATA if null. */
int res_metric(const struct res_case *c, const char *name, double *v);
/* True if some case has the metric (even if null). */
int res_has_metric(const struct res_file *rf, const char *name);
/* The metric of the search's goal i (method.goals[i]: its name in lower case and
 * "_pps", as ppslab run writes it), as the file's own string (valid while rf is); NULL
 * when there is no goal i or no case has its metric. Goals are in the file's order:
 * NDR, PDR by default (docs/profiles.md#search-goals). */
const char *res_goal_metric(const struct res_file *rf, size_t i);
#define RES_MAX_GOALS 16        /* goals looked at (ppslab run writes up to 8) */
/* True if some case has a number for it (fwd_pps_b is null in one-way runs). */
int res_metric_has_values(const struct res_file *rf, const char *name);
/* An outage run's headline metric, its recipe's time (method.outage.recipe: recovery
 * outage_recovery_s, reset outage_reset_s, else outage_longest_s); NULL when the file
 * is no outage run. */
const char *res_outage_metric(const struct res_file *rf);
const struct res_axis *res_axis(const struct res_file *rf, const char *name);
/* The index of v among a's values, -1 if it is none of them; O(1). */
long res_value_index(const struct res_axis *a, const json_t *v);

/* s with every control character written as an escape (\n, \t, \r, \xHH), so that
 * no text from a results file reaches a terminal, table or gnuplot file raw; cut to
 * len. Returns buf. */
char *res_text_safe(const char *s, char *buf, size_t len);
/* Canonical text of a scalar: integers and integral reals without a fraction
 * ("1000"), other reals shortest round-trip, strings as is but for control characters
 * (escaped: res_text_safe), true/false, null. */
char *res_value_str(const json_t *v, char *buf, size_t len);
/* Scalar equality: numbers numerically, strings, booleans, null. */
int res_value_eq(const json_t *a, const json_t *b);
/* True if v equals the text a user typed: numerically when both are numbers, else by
 * canonical text. */
int res_value_matches(const json_t *v, const char *text);

/* Statistics of one cell's metric over its repetitions. */
struct res_stats {
	struct st_summary s;  /* over the numeric values */
	size_t flagged;       /* cases (not failed) that are flagged and have a value */
	size_t failed;        /* failed cases in the cell */
	size_t missing;       /* non-failed cases where the metric is absent or null */
};
/* Fills st; vals (capacity ≥ cell's ncases, or NULL) receives the values in file order.
 * 0 or -ENOMEM. */
int res_cell_stats(const struct res_file *rf, size_t cell, const char *metric,
		   struct res_stats *st, double *vals);
/* Index of the cell whose params equal params (order-independent), or -1. */
long res_find_cell(const struct res_file *rf, const json_t *params);
/* The canonical identity of params (what res_cell.canon holds), malloc'ed; NULL on
 * ENOMEM. */
char *res_canon(const json_t *params);
/* Index of the cell with this canonical identity, or -1. */
long res_find_canon(const struct res_file *rf, const char *canon);

/* summary[] recomputed from cases[]: one row per (cell, metric) with at least one
 * value: {case, params, metric, n, median, mean, stdev, min, max, cv, flagged}.
 * New reference, or NULL on allocation failure. */
json_t *res_summary(const struct res_file *rf);

/* A selection: axis=value conditions that cases must all meet. */
struct res_sel {
	size_t n;
	struct res_cond {
		char *axis;
		char *value;
	} *c;
};
/* Parses "a=1,b=x" and appends to sel. Returns 0, -EINVAL (err says what), -ENOMEM. */
int res_sel_parse(struct res_sel *sel, const char *text, char *err, size_t errlen);
/* The --where option of the analysis commands: res_sel_parse, and on any failure
 * -EINVAL with err "--where TEXT: expected AXIS=VALUE[,AXIS=VALUE...]". */
int res_sel_opt(struct res_sel *sel, const char *text, char *err, size_t errlen);
int res_sel_add(struct res_sel *sel, const char *axis, const char *value);
void res_sel_free(struct res_sel *sel);
int res_params_match(const json_t *params, const struct res_sel *sel);
/* Checks every condition names an axis of rf and a value some case has; otherwise
 * -EINVAL with err naming the axis or value and what exists. what is the option name
 * for the message ("--where"). */
int res_sel_check(const struct res_file *rf, const struct res_sel *sel, const char *what,
		  char *err, size_t errlen);

/* The value at a chain of object keys (NULL-terminated), or NULL:
 * res_get(rf->root, "environment", "dut", "os", "name", NULL). */
json_t *res_get(const json_t *root, ...) __attribute__((sentinel));
/* One line describing a box of the environment (role "dut", "sender" or "sink"):
 * "FreeBSD 14.1-RELEASE (GENERIC), Intel Atom C3558, 2 cores, igb 1000 Mb/s".
 * Empty when the file says nothing about it. Returns buf. */
char *res_env_line(const struct res_file *rf, const char *role, char *buf, size_t len);

/* Writes root to path atomically and safely (safefile.h: a temporary with a random
 * name beside it, never a planted link, fsync, rename). 0 or -errno (-ENOSPC when the
 * disk is full); on failure path is as it was. */
int res_save(const char *path, const json_t *root);

#endif
