/* SPDX-License-Identifier: BSD-2-Clause */
/* deviations.h — what a profile (or one of its tests) asks, held against what RFC 2544
 * requires of its method (the table in docs/method.md#rfc-2544-requirements): one
 * finding a way it deviates, as a sentence naming the test and the section. ppslab run
 * writes them into the results file's method.rfc2544_deviations; the report and the
 * run's summary show them. Pure: no I/O. */
#ifndef PPSLAB_ANALYSIS_RUNNER_DEVIATIONS_H
#define PPSLAB_ANALYSIS_RUNNER_DEVIATIONS_H

#include <jansson.h>

#include "profile.h"

/* The frame sizes RFC 2544 §9.1 lists for Ethernet, bytes with the FCS. */
#define DEV_SIZES_N 7
extern const unsigned dev_rfc_sizes[DEV_SIZES_N];

/* Appends to list (a JSON array) a string for each way p's trial, frame sizes and
 * filters deviate from RFC 2544; each begins "TEST: " when test is not NULL. A profile
 * with tests: every test's, named, then each test of RFC 2544 §26 (26.1 .. 26.6) that
 * none of them is. 0 or -ENOMEM. */
int dev_find(const struct profile *p, const char *test, json_t *list);

#endif
