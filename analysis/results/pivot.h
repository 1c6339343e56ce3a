/* SPDX-License-Identifier: BSD-2-Clause */
/* pivot.h — a metric of a results file laid out over two axes: rows are the values of
 * one axis, columns the values of another (or a list of metrics, or composite column
 * specs), each cell the statistics of one matrix cell's repetitions. Axes that still
 * vary are listed: one block per combination of their values. `ppslab table` prints
 * pivots; `ppslab plot` turns them into gnuplot data; `ppslab report` does both.
 *
 * Composite columns reproduce tables like the 2006 DragonFly polling HZ sweep's
 *     HZ    1 blast      blast A and blast B
 *     3000   450,072       349,696   349,814
 * where each column picks its own cases and metric: a column spec is
 *     LABEL=[AXIS=VALUE[&AXIS=VALUE...]][:METRIC]
 * e.g. "1 blast=dir=uni:fwd_pps", "blast A=dir=bi:fwd_pps_a"; without ":METRIC" the
 * table's metric is used. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PIVOT_H
#define PPSLAB_ANALYSIS_RESULTS_PIVOT_H

#include <stdio.h>

#include "grid.h"
#include "results.h"
#include "strlist.h"

enum pv_show {
	PV_SHOW_MINMAX = 1,   /* (min–max) */
	PV_SHOW_STDEV = 2,    /* ±stdev */
	PV_SHOW_N = 4,        /* n=3 */
	PV_SHOW_FLAGS = 8,    /* CSV: a flagged-count column (text/md always mark '*') */
};

struct pv_colspec {
	char *label;
	char *metric;         /* NULL: the table's first metric */
	struct res_sel filt;
};

struct pv_req {
	const char *rows;             /* row axis; NULL: the first axis that varies */
	const char *row_label;        /* header of the row column; NULL: the axis name */
	const char *cols;             /* column axis; NULL: see below */
	const struct pv_colspec *spec;/* composite columns (then cols must be NULL) */
	size_t nspec;
	const char *const *metrics;   /* metric names; NULL/0: "fwd_pps" (b2b_frames in a file
				       * of back-to-back bursts without a rate) */
	size_t nmetrics;
	const struct res_sel *where;  /* conditions every case must meet, or NULL */
	unsigned show;                /* enum pv_show bits */
	int decimals;                 /* digits after the point; -1: per column, automatic */
};
/* Without cols or spec: one metric → the next axis that varies becomes the columns
 * (one column if none does); several metrics → one column per metric. With cols and
 * several metrics: one column per (value, metric). */

struct pv_cell {
	long cell;                    /* res_file cell index, or -1: no such cell */
	struct res_stats st;
};

struct pv_col {
	char *label;
	char *metric;
	struct res_sel filt;          /* the column's own conditions */
};

struct pv_block {
	char *label;                  /* "burst_max=50, rules=0", or "" for a single block */
	struct res_sel fixed;         /* the listed axes' values of this block */
	size_t nrows;
	json_t **rows;                /* row axis values present in this block */
	struct pv_cell *cells;        /* nrows × ncols */
};

struct pivot {
	const struct res_file *rf;
	char *row_axis, *row_label;
	size_t ncols;
	struct pv_col *cols;
	size_t nblocks;
	struct pv_block *blocks;
	char *fixed;                  /* "burst_max=150" for axes with one value (caption) */
	unsigned show;
	int *decimals;                /* per column */
	size_t n_min, n_max;          /* repetitions per cell with data */
	size_t flagged_cells;
	size_t failed_cells;          /* cells with a value and a failed repetition (†) */
	json_t *reasons;              /* why: flag kind → {"cells": {ID: true}, "text"} */
	json_t *own_row;              /* a file without axes: its one row's value ("all";
				       * row_axis is "") */
	/* people's tables show nanoseconds in one unit per table, 3 significant digits */
	double ns_div;                /* 1, 1e3 or 1e6 */
	const char *ns_unit;          /* "ns", "µs" or "ms" */
};
/* The mark of a cell with a failed repetition (the median is of the others). */
#define PV_FAILED_MARK "†"

/* Parses one column spec (see above). 0, -EINVAL (err says why), -ENOMEM. */
int pv_colspec_parse(const char *text, struct pv_colspec *out, char *err, size_t errlen);
/* Parses a comma-separated list of specs into *out (appending). */
int pv_colspecs_parse(const char *text, struct pv_colspec **out, size_t *n, char *err,
		      size_t errlen);
void pv_colspecs_free(struct pv_colspec *s, size_t n);

/* Builds the pivot; on a bad request returns -EINVAL with err naming the option and
 * what exists (unknown axis or metric, a value no case has, a column that matches
 * several cells). A file with no axis (one cell) has one row, "all", under the
 * heading "cell" (row_axis ""), a column per metric. */
int pv_build(const struct res_file *rf, const struct pv_req *rq, struct pivot **out,
	     char *err, size_t errlen);
void pv_free(struct pivot *pv);

/* The default caption: "fwd_pps, median of 3 repetitions (burst_max=150)";
 * "lat_p50_ns in ms, ..." for nanoseconds. */
char *pv_caption(const struct pivot *pv, char *buf, size_t len);
/* The grid of one block: header row, then one row per row value. CSV grids hold raw
 * numbers and extra columns for each --show item; text/md/html grids formatted cells
 * with '*' on flagged ones. */
struct grid *pv_grid(const struct pivot *pv, size_t block, enum grid_fmt fmt);
/* Prints the whole pivot: caption (title overrides; "" for none), blocks with their
 * headings, the flagged-trials footnote. CSV prints one table with the listed axes as
 * leading columns. */
void pv_print(FILE *f, const struct pivot *pv, enum grid_fmt fmt, const char *title);

/* Adds why the cases of a cell were flagged to reasons: per kind of flag (the text of
 * cases[].flags before its first ':'), {"cells": {ID: true}, "text": its first text}, the
 * cell named id. Failed cases are left out. 0 or -ENOMEM. */
int pv_add_reasons(json_t *reasons, const struct res_file *rf, size_t cell, const char *id);
/* A flag as a person reads it: "CHECK: detail" with the failed check named by what went
 * wrong ("poll clock lost ticks: ...", not "poll clock kept time: ..."); into buf. */
const char *pv_flag_words(const char *flag, char *buf, size_t len);

/* --show's list (median, minmax, stdev, n, flags) added to *show. 0; -EINVAL with err
 * "--show X: expected ..."; -ENOMEM. */
int pv_show_parse(const char *text, unsigned *show, char *err, size_t errlen);
/* --cols TEXT: column specs, added to specs, when it holds a label '=' or a metric ':';
 * else an axis name, *cols. 0 or -ENOMEM. */
int pv_cols_opt(const char *text, const char **cols, struct strlist *specs);
/* Parses each text of specs into *spec, *nspec, and refuses an axis cols given with
 * them. 0, -EINVAL (err names --cols), -ENOMEM. */
int pv_specs_parse(const struct strlist *specs, const char *cols, struct pv_colspec **spec,
		   size_t *nspec, char *err, size_t errlen);
/* Builds the pivot of rf and prints it on f in fmt under title; a file with no axis
 * (one cell) without rows, columns or --where: a row per metric. 0, -EINVAL (err says
 * why), -ENOMEM, -EIO when f cannot be flushed. */
int pv_table_print(FILE *f, const struct res_file *rf, const struct pv_req *rq,
		   enum grid_fmt fmt, const char *title, char *err, size_t errlen);
/* The file's deviations from RFC 2544 (method.rfc2544_deviations) as a table's
 * footnote, so that a table pasted into a report still says that trials were
 * shortened; nothing in CSV, which is data, or without deviations. */
void pv_deviations_print(FILE *f, const struct res_file *rf, enum grid_fmt fmt);

/* `ppslab run`'s table: the words of output.table (NULL: not given), the results file at
 * path, printed on f as `ppslab table` would. 0 or a -errno with err the message. */
struct pv_text {
	const char *rows, *cols, *metric, *where, *show, *row_label, *title;
};
int pv_table_text(FILE *f, const char *path, const struct pv_text *t, char *err,
		  size_t errlen);

/* Raw number for machine output: integral values without a fraction, others shortest
 * round-trip; NaN is "". */
char *pv_raw(double v, char *buf, size_t len);
/* A cell's text for people: median [±sd] [(min–max)] [n=N], '*' when flagged, '†' when
 * a repetition failed; nanoseconds in the table's ns_unit. */
char *pv_cell_text(const struct pivot *pv, size_t col, const struct pv_cell *c, char *buf,
		   size_t len);

#endif
