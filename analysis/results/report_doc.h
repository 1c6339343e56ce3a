// SPDX-License-Identifier: BSD-2-Clause
/* report_doc.h — the bottom of the report's files, report_doc.c: numbers for people, a
 * tiny document writer (Markdown or HTML) and the tables. It calls nothing above it;
 * report_plot.c and report.c use it. Private to them; the rest sees report.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_REPORT_DOC_H
#define PPSLAB_ANALYSIS_RESULTS_REPORT_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "grid.h"
#include "results.h"

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

#endif
