/* SPDX-License-Identifier: BSD-2-Clause */
/* hist.c — log-linear histogram (see hist.h). */
#include "hist.h"

#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);  /* >= HIST_SUB_BITS */
	unsigned shift = msb - HIST_SUB_BITS;
	unsigned sub = (unsigned)(v >> shift) & (HIST_SUB - 1);
	return (shift + 1) * HIST_SUB + sub;
}

uint64_t hist_bucket_lo(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	unsigned shift = idx / HIST_SUB - 1;
	uint64_t sub = idx % HIST_SUB;
	return (HIST_SUB + sub) << shift;
}

uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	unsigned shift = idx / HIST_SUB - 1;
	return hist_bucket_lo(idx) + ((1ULL << shift) - 1);
}

void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->count) {
		if (src->min < dst->min)
			dst->min = src->min;
		if (src->max > dst->max)
			dst->max = src->max;
	}
}

void hist_add_shared(struct hist *h, uint64_t v, uint64_t n)
{
	unsigned i = hist_index(v);
	__atomic_store_n(&h->bucket[i], h->bucket[i] + n, __ATOMIC_RELAXED);
	__atomic_store_n(&h->count, h->count + n, __ATOMIC_RELAXED);
	if (v < h->min)
		__atomic_store_n(&h->min, v, __ATOMIC_RELAXED);
	if (v > h->max)
		__atomic_store_n(&h->max, v, __ATOMIC_RELAXED);
	h->sum += (long double)v * n;
}

void hist_merge_shared(struct hist *dst, const struct hist *src, bool with_sum)
{
	uint64_t cnt = __atomic_load_n(&src->count, __ATOMIC_RELAXED);
	if (!cnt)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += __atomic_load_n(&src->bucket[i], __ATOMIC_RELAXED);
	dst->count += cnt;
	uint64_t mn = __atomic_load_n(&src->min, __ATOMIC_RELAXED);
	uint64_t mx = __atomic_load_n(&src->max, __ATOMIC_RELAXED);
	if (mn < dst->min)
		dst->min = mn;
	if (mx > dst->max)
		dst->max = mx;
	if (with_sum)
		dst->sum += src->sum;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	/* rank of the sample: ceil(q * n), at least 1 */
	uint64_t rank = (uint64_t)(q * (double)h->count);
	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);
			uint64_t mid = lo + (hi - lo) / 2;
			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)(h->sum / h->count) : 0.0;
}
