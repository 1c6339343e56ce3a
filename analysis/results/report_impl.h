/* SPDX-License-Identifier: BSD-2-Clause */
/* report_impl.h — what the files of the report share: report.c (the document and its
 * sections), report_doc.c (numbers for people, the Markdown/HTML writer, the tables)
 * and report_plot.c (which plots a report has, and drawing them). Private to them; the
 * rest of the analyzer sees report.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_REPORT_IMPL_H
#define PPSLAB_ANALYSIS_RESULTS_REPORT_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "grid.h"
#include "plot.h"
#include "report.h"
#include "results.h"

#define REPORT_MAX_PLOTS 24
#define REPORT_MAX_BY 16   /* values of the --by axis, as compare --by takes */

/* ---- report_doc.c: a tiny document writer, Markdown or HTML ---- */

struct doc {
	FILE *f;
	enum grid_fmt fmt;   /* GRID_MD or GRID_HTML */
	int in_list;
	int why_said;        /* the flags' reasons were listed (under the first table) */
};

/* A drawn plot: its base name (NAME.png beside the Markdown) and its SVG for the page. */
struct drawn {
	const char *base;
	const char *caption;
	unsigned char *svg;   /* the SVG file's bytes, or NULL */
	size_t svg_len;
	int w, h;             /* from its viewBox */
};

/* One value with its unit: "1.629 Mpps", "813.7 ms", "450,072 pps", "0.25 %". */
char *report_human_unit(const char *metric, double v, char *buf, size_t len);
/* Closes an open list (before anything that is not a list item). */
void report_list_end(struct doc *d);
/* A heading; id (HTML only) makes it a link target. */
void report_h(struct doc *d, int level, const char *id, const char *s);
/* A paragraph, a list item, and a list item "KEY: value" with the key emphasised. */
void report_p(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_li(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_kv(struct doc *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prints a grid in the document's format and frees it (NULL: nothing). */
void report_grid(struct doc *d, struct grid *g);
/* A figure: the SVG embedded in the page, the PNG linked from the Markdown. */
void report_img(struct doc *d, const struct drawn *p);
/* The metric over its pivot, one table per block, under a heading naming its unit. */
void report_results_table(struct doc *d, const struct res_file *rf, const char *metric);
/* The rule-cost fits: b per rule per frame, a, R², for each series. */
void report_fits_table(struct doc *d, json_t *fits);

/* ---- report_plot.c: the plan of plots ---- */

struct rplot {
	char name[160];
	char caption[512];
	struct plot_req rq;
	struct res_sel where;
	const char *metrics[3];
	int ok;
	char err[300];
	unsigned char *svg;
	size_t svg_len;
	int w, h;
};

struct rep {
	const struct res_file *rf;
	const struct report_opts *o;
	const char **metrics;
	size_t nmetrics;
	struct rplot plots[REPORT_MAX_PLOTS];
	size_t nplots;
	struct cmp *cmp;
	char cmp_err[512];
	struct rplot cmp_plot;
	json_t *fits;
	/* --by AXIS: the values' files (the baseline first) and each other's comparison */
	const struct res_axis *by_ax;
	struct res_file *by_rf[REPORT_MAX_BY];
	const json_t *by_val[REPORT_MAX_BY];
	size_t nby;
	struct cmp *by_cmp[REPORT_MAX_BY];
};

/* Chooses the report's plots for its metrics and varying axes into r->plots. */
void report_plan_plots(struct rep *r);
/* Draws every planned plot (and the comparison's), counting failures in *failures. */
void report_draw_plots(struct rep *r, size_t *failures);
/* A plot in the document, or why it was not drawn. */
void report_plot_one(struct doc *d, const struct rplot *p);

#endif
