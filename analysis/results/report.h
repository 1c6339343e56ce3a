/* SPDX-License-Identifier: BSD-2-Clause */
/* report.h — one self-contained report of a results file, in Markdown and HTML: the
 * environment, the method and how it deviates from RFC 2544, the matrix, pivot tables
 * of the headline metrics, plots (PNG with their .gp/.dat), flagged and failed cases,
 * and optionally a comparison against a baseline results file. */
#ifndef PPSLAB_ANALYSIS_RESULTS_REPORT_H
#define PPSLAB_ANALYSIS_RESULTS_REPORT_H

#include <stddef.h>

#include "results.h"

struct report_opts {
	const char *dir;               /* output directory (created if missing) */
	const struct res_file *base;   /* compare against this baseline, or NULL */
	const char *const *metrics;    /* NULL/0: the headline metrics the file has */
	size_t nmetrics;
	int plots;                     /* draw plots (needs gnuplot) */
	double margin;                 /* comparison margin (0.02) */
	const char *by;                /* compare the values of this axis within the file,
					* or NULL (ppslab compare --by) */
	const char *by_baseline;       /* with by: the baseline value (default: the first) */
};

/* What a report says about the method beyond the file's own rfc2544_deviations: short
 * trials, one frame size, fixed-load trials, loss or exceed ratios above zero,
 * veth namespaces, percentile latency. Appends strings (caller frees) to *out. */
int report_deviations(const struct res_file *rf, char ***out, size_t *n);

/* Writes DIR/report.md, DIR/report.html and the plots. Plot failures are noted in the
 * report and counted in *plot_failures (gnuplot missing, ...). With o->by, a section
 * compares the values of that axis (each value's cases split off by cmp_split, matched
 * by their other params, against the baseline value): per value its cells, cases, the
 * headline metric and its verdicts, the values' environments side by side, and each
 * value's comparison. 0, -EINVAL (err says why: no such axis or value, one value, more
 * than 16), or -errno for files. */
int report_write(const struct res_file *rf, const struct report_opts *o,
		 size_t *plot_failures, char *err, size_t errlen);

#endif
