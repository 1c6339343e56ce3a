/* SPDX-License-Identifier: BSD-2-Clause */
/* names.h — what the metric and axis names of a results file mean to a reader: a
 * label with its unit for plot axes and report captions, and whether lower is better
 * (latency, loss, CPU, drops) so comparisons point the right way. Unknown names get
 * their unit from the suffix convention of docs/results-schema.md (_pps, _bps, _ns,
 * _s, _pct, _bytes). */
#ifndef PPSLAB_ANALYSIS_RESULTS_NAMES_H
#define PPSLAB_ANALYSIS_RESULTS_NAMES_H

#include <stddef.h>

/* "forwarded rate (packets/s)" for "fwd_pps"; the name itself plus a unit otherwise.
 * Returns buf. */
char *name_label(const char *name, char *buf, size_t len);
/* Words for a title: "forwarded rate" for fwd_pps, "polling clock" for pollhz; the
 * label without its unit otherwise. Returns buf. */
char *name_words(const char *name, char *buf, size_t len);
/* The unit alone ("packets/s", "%", "ns", ...) or "" when unknown. */
const char *name_unit(const char *name);
/* 1 for metrics where a smaller value is better; name_lower_in also for those named in
 * lower (--lower-is-better). */
int name_lower_is_better(const char *name);
int name_lower_in(const char *name, const char *const *lower, size_t nlower);
/* 1 for rate metrics (pps): plotted with SI prefixes (1.5M). */
int name_is_rate(const char *name);

/* Text with its digit runs compared as numbers, leading zeros aside ("13.8" < "13.10" <
 * "14.0", "r2" < "r10"): versions and other categories in a person's order. */
int name_natcmp(const char *a, const char *b);
/* 1 when s ends with suf. */
int name_ends_with(const char *s, const char *suf);
/* The file name of path: what follows its last '/'. */
const char *name_base(const char *path);

#endif
