/* SPDX-License-Identifier: BSD-2-Clause */
/* hist.h — a log-linear histogram of non-negative 64-bit values (latency in ns,
 * inter-departure gaps in ns, burst lengths).
 *
 * Values below 2^HIST_SUB_BITS are exact; above, each power of two is split into
 * 2^HIST_SUB_BITS linear buckets, so a reported percentile is within 1/32 (3.1%) of the
 * true value. Adding is O(1), allocation-free; merging adds counts. */
#ifndef PPSLAB_LIB_HIST_H
#define PPSLAB_LIB_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_SUB_BITS 5
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max;
	long double sum;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *dst, const struct hist *src);
/* The value below which a fraction q (0..1) of the samples lie: the midpoint of the
 * bucket holding the q-th sample, clamped to [min, max]. 0 when empty. */
/* A histogram one thread adds to while another copies it: hist_add_shared adds n equal
 * values with relaxed stores (the writer is the only one), hist_merge_shared reads them
 * with relaxed loads into dst. The sum is not published: pass with_sum only once the
 * writer has ended (joined). */
void hist_add_shared(struct hist *h, uint64_t v, uint64_t n);
void hist_merge_shared(struct hist *dst, const struct hist *src, bool with_sum);
uint64_t hist_quantile(const struct hist *h, double q);
double hist_mean(const struct hist *h);

/* Bucket index and its value range (for tests and for printing the histogram). */
unsigned hist_index(uint64_t v);
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx); /* inclusive */

#endif
