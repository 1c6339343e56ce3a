// SPDX-License-Identifier: BSD-2-Clause
/* report_plot.h — which plots a report has and drawing them, report_plot.c, over
 * report_doc.h; report.c (the document and its sections) is above both. */
#ifndef PPSLAB_ANALYSIS_RESULTS_REPORT_PLOT_H
#define PPSLAB_ANALYSIS_RESULTS_REPORT_PLOT_H

#include "compare.h"
#include "plot.h"
#include "report.h"
#include "report_doc.h"

#define REPORT_MAX_PLOTS 24
#define REPORT_MAX_BY 16   /* values of the --by axis, as compare --by takes */

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
