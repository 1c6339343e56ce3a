/* SPDX-License-Identifier: BSD-2-Clause */
/* latload.h — latency at load (docs/method.md#latency-at-load): RFC 8219's figures of
 * one one-way delay histogram as ppslab-sink reports it, and the rows of a latency
 * trial, one per stream and frame size. Pure functions on JSON, no I/O.
 *
 * Typical Latency is the median (RFC 8219 §7.2), Worst-Case Latency the 99.9th
 * percentile (§7.2), PDV the 99.9th percentile of the one-way delay minus its minimum
 * (§7.3.1, after RFC 5481 §4.2). The sink's percentiles are a log-linear histogram's,
 * within 1/32 of the true value (lib/hist.h). */
#ifndef PPSLAB_ANALYSIS_RESULTS_LATLOAD_H
#define PPSLAB_ANALYSIS_RESULTS_LATLOAD_H

#include <jansson.h>
#include <stddef.h>

struct lat_fig {
	double count, min_ns, typical_ns, worst_ns, pdv_ns;
};

/* The figures of a histogram object ({count, min, p50, p999, ...}). 0; -ENODATA (no
 * sample); -EINVAL (a figure missing, negative or out of order: min ≤ p50 ≤ p999); err
 * says why. */
int lat_fig_of(const json_t *hist, struct lat_fig *f, char *err, size_t len);

/* A latency trial's rows from its record's "sink" array: for each sink's streams, one
 * object per frame size of its "latency_by_size" ({stream, size, count, min_ns,
 * typical_ns, worst_ns, pdv_ns}), or, for a stream without it, one of its whole
 * "latency_ns" with size null. A histogram without samples gives no row; one that is
 * not consistent gives a row with "error". NULL only without memory. */
json_t *lat_rows(const json_t *sinks);

/* One measured point of a results file's latency at load: a case's load and one of its
 * rows (figures NaN where withheld or in error). */
struct lat_point {
	size_t cs;               /* index into rf->cases */
	double load_pct, load_pps;
	long stream, size;       /* -1: none said */
	double count, typical_ns, worst_ns, pdv_ns;
	const char *note;        /* why the figures are missing, or NULL */
};
struct res_file;
struct res_sel;
/* Every point of the cases where selects (NULL: all), in file order; n the count (0:
 * no case has latency_at_load). 0 or -ENOMEM. Free *out with free(). */
int lat_points(const struct res_file *rf, const struct res_sel *where,
	       struct lat_point **out, size_t *n);

/* The table of them (docs/analysis.md): case, rep, load %, size, stream, load pps,
 * typical, worst-case and PDV in µs, frames. NULL with errno ENOENT (no case has
 * latency_at_load) or ENOMEM. */
struct grid *lat_grid(const struct res_file *rf, const struct res_sel *where);

#endif
