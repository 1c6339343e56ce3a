/* SPDX-License-Identifier: BSD-2-Clause */
/* trend.h — a series of results files, ordered by a label, for `ppslab trend`: where
 * did performance change, and is the newest run worse than the best before it?
 *
 * Runs are ordered by a label: the run's creation time (created_utc, the default), a
 * key of the results file (a dotted path such as environment.dut.os.version or
 * profile.description; keys that contain dots, as sysctl names do, are matched whole),
 * or an axis of the cells (--label-from os: each value of the axis in each file is a
 * run, and cells are matched by their other params). Labels sort naturally: numbers by
 * value, text with its digit runs as numbers ("13.9" before "13.10"); ties keep the
 * creation time, then the order the files were given. Cells are matched across runs
 * by their params, order-independently, as `ppslab compare` matches them; every
 * (cell, metric) is one series, cut into groups by trendseg.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_TREND_H
#define PPSLAB_ANALYSIS_RESULTS_TREND_H

#include <stdio.h>

#include "grid.h"
#include "plot.h"
#include "results.h"
#include "trendseg.h"

#define TREND_SCHEMA "ppslab/trend"
#define TREND_SCHEMA_VERSION "1.0.0"

enum trend_label {
	TL_CREATED,           /* created_utc */
	TL_KEY,               /* a key path of the results file */
	TL_AXIS,              /* an axis of the cells */
};

struct trend_opts {
	double margin;                 /* δ (0.02) */
	double floor;                  /* f; < 0: search width / 2, else 0.0025 */
	enum trend_label label_kind;
	const char *label;             /* key path (TL_KEY) or axis name (TL_AXIS) */
	int order_given;               /* keep the files' order instead of sorting */
	const char *const *metrics;    /* NULL/0: the headline rates some run has */
	size_t nmetrics;
	const char *const *lower;      /* more lower-is-better metrics */
	size_t nlower;
	const struct res_sel *where;   /* only cells with these values, or NULL */
};

struct trend_run {
	size_t file;                   /* index into the files */
	char *label;                   /* as shown */
	json_t *value;                 /* the label's value (owned reference) */
	const char *created;           /* created_utc, or NULL */
};

struct trend_point {
	size_t run;
	long cell;                     /* cell index in the run's file */
	struct res_stats st;
	double *v;                     /* the repetitions' values (st.s.n) */
};

struct trend_series {
	char *key;                     /* the cell ("pollhz=1000"; "all" when no axis) */
	char *canon;
	json_t *params;                /* its params (without the label axis) */
	const char *metric;
	int lower_is_better;
	size_t npoints;
	struct trend_point *pts;       /* in run order */
	size_t nmissing;
	size_t *missing;               /* runs without this cell or metric */
	int segmented;
	struct tseg_result seg;        /* groups over pts[] when segmented */
	const char *note;              /* why not segmented, or NULL */
	int flagged;                   /* some repetition is flagged */
};

struct trend {
	const struct res_file *const *files;
	size_t nfiles;
	enum trend_label label_kind;
	char *label;                   /* the key or axis; NULL for the creation time */
	int order_given;
	double margin, floor;
	size_t nruns;
	struct trend_run *runs;
	size_t nmetrics;
	char **metrics;
	size_t nseries;
	struct trend_series *series;
	/* per series, on the newest group: the change into it or the comparison with the
	 * best earlier group is a REGRESSION (resp. PROGRESSION); the newest run lacks it */
	size_t n_newest_regressed, n_newest_progressed, n_newest_missing;
	size_t n_changes[ST_INCONCLUSIVE + 1];
};

/* Builds the series and segments them. 0; -EINVAL for a request the files cannot
 * satisfy (err names the option and what exists: exit 64); -ENODATA when a file lacks
 * the label (err names the file and the path: exit 65); -ENOMEM. */
int trend_build(const struct res_file *const *files, size_t n, const struct trend_opts *o,
		struct trend **out, char *err, size_t errlen);
void trend_free(struct trend *t);

/* Natural order of two label values (numbers by value before text; text by its digit
 * runs as numbers, the rest bytewise): <0, 0, >0. */
int trend_label_cmp(const json_t *a, const json_t *b);
/* The value at a dotted key path of root, keys with dots matched whole; NULL if none. */
json_t *trend_key_get(json_t *root, const char *path);

/* Did series s's newest group regress (progress)? See struct trend. */
int trend_newest_is(const struct trend_series *s, enum st_verdict v);
/* The newest run overall lacks series s. */
int trend_newest_missing(const struct trend *t, const struct trend_series *s);

/* The ppslab/trend document. */
json_t *trend_json(const struct trend *t);
/* One row per series: cell, metric, runs, groups, changes (where), newest vs best. */
struct grid *trend_grid(const struct trend *t, enum grid_fmt fmt);
/* Everything for people: the order, the method line, the table, outliers, missing
 * cells, notes, counts. */
void trend_print(FILE *f, const struct trend *t, enum grid_fmt fmt);
/* The gnuplot figure of series s: each run's median with its min–max, the groups as
 * horizontal segments, the changes as arrows, the labels on x. */
int trend_plot(const struct trend *t, size_t s, const struct plot_out *o, char *err,
	       size_t errlen);

#endif
