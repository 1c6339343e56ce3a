/* SPDX-License-Identifier: BSD-2-Clause */
/* t_hist.c — the log-linear histogram: exact small values, bucket bounds, percentiles
 * of known distributions within the 1/32 resolution. */
#include <stdlib.h>

#include "hist.h"
#include "tap.h"

static void t_buckets(void)
{
	for (uint64_t v = 0; v < 100000; v += 7) {
		unsigned i = hist_index(v);
		if (v < hist_bucket_lo(i) || v > hist_bucket_hi(i)) {
			T_FAIL("value %llu outside bucket %u [%llu, %llu]", (unsigned long long)v, i,
			       (unsigned long long)hist_bucket_lo(i), (unsigned long long)hist_bucket_hi(i));
			return;
		}
	}
	T_EQ_U64(hist_index(31), 31);
	T_EQ_U64(hist_bucket_lo(hist_index(32)), 32);
	T_TRUE(hist_index(UINT64_MAX) < HIST_BUCKETS);
	/* consecutive buckets tile the line */
	for (unsigned i = 1; i < 500; i++)
		T_EQ_U64(hist_bucket_lo(i), hist_bucket_hi(i - 1) + 1);
}

static void t_uniform_percentiles(void)
{
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	for (uint64_t v = 1; v <= 1000000; v++)
		hist_add(h, v);
	T_EQ_U64(h->count, 1000000);
	T_EQ_U64(h->min, 1);
	T_EQ_U64(h->max, 1000000);
	T_NEAR(hist_quantile(h, 0.5), 500000, 500000 / 32.0);
	T_NEAR(hist_quantile(h, 0.99), 990000, 990000 / 32.0);
	T_NEAR(hist_quantile(h, 0.999), 999000, 999000 / 32.0);
	T_NEAR(hist_mean(h), 500000.5, 0.01);
	free(h);
}

static void t_exact_small(void)
{
	struct hist h;
	hist_init(&h);
	for (int i = 0; i < 90; i++)
		hist_add(&h, 10);
	for (int i = 0; i < 10; i++)
		hist_add(&h, 20);
	T_EQ_U64(hist_quantile(&h, 0.5), 10);
	T_EQ_U64(hist_quantile(&h, 0.9), 10);
	T_EQ_U64(hist_quantile(&h, 0.91), 20);
	T_EQ_U64(hist_quantile(&h, 1.0), 20);
	struct hist e;
	hist_init(&e);
	T_EQ_U64(hist_quantile(&e, 0.5), 0);
	hist_merge(&e, &h);
	T_EQ_U64(e.count, 100);
	T_EQ_U64(e.min, 10);
}

static void t_exponential(void)
{
	/* an exponential distribution with mean 10 us, drawn deterministically by the
	 * inverse CDF at evenly spaced probabilities: quantile q is −ln(1 − q)·mean */
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	enum { N = 1000000 };
	const double mean = 10000;
	for (int i = 0; i < N; i++)
		hist_add(h, (uint64_t)(-log(1.0 - (i + 0.5) / N) * mean));
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	for (int k = 0; k < 4; k++) {
		double want = -log(1.0 - qs[k]) * mean;
		T_NEAR(hist_quantile(h, qs[k]), want, want / 32.0 + 1);
	}
	T_NEAR(hist_mean(h), mean, mean * 0.01);
	free(h);
}

static void t_bimodal(void)
{
	/* 99% at ~2 us and 1% at ~500 us: p99 is still the fast mode, p99.9 the slow one */
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	for (int i = 0; i < 99000; i++)
		hist_add(h, 2000 + (uint64_t)(i % 100));
	for (int i = 0; i < 1000; i++)
		hist_add(h, 500000 + (uint64_t)i);
	T_NEAR(hist_quantile(h, 0.99), 2050, 2100 / 32.0);
	T_NEAR(hist_quantile(h, 0.999), 500500, 501000 / 32.0);
	T_EQ_U64(hist_quantile(h, 1.0), 500999);
	T_EQ_U64(hist_quantile(h, 0.0), 2000);
	free(h);
}

/* The shared pair: n equal values added with relaxed stores are n hist_add calls;
 * merging from a live writer copies everything but the sum, which waits for the end. */
static void t_shared(void)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct hist *m = malloc(sizeof(*m)), *r = malloc(sizeof(*r));
	hist_init(a);
	hist_init(b);
	const uint64_t v[] = { 0, 7, 7, 1000, 123456789 }, n[] = { 3, 1, 4, 2, 5 };
	for (int i = 0; i < 5; i++) {
		hist_add_shared(a, v[i], n[i]);
		for (uint64_t k = 0; k < n[i]; k++)
			hist_add(b, v[i]);
	}
	T_TRUE(!memcmp(a->bucket, b->bucket, sizeof(a->bucket)));
	T_EQ_U64(a->count, 15);
	T_EQ_U64(a->min, 0);
	T_EQ_U64(a->max, 123456789);
	T_NEAR((double)a->sum, (double)b->sum, 0.5);
	hist_init(m);
	hist_add(m, 5);
	*r = *m;
	hist_merge(r, a);
	hist_merge_shared(m, a, false);    /* the writer still runs: no sum */
	T_TRUE(!memcmp(m->bucket, r->bucket, sizeof(m->bucket)));
	T_EQ_U64(m->count, 16);
	T_EQ_U64(m->min, 0);
	T_EQ_U64(m->max, 123456789);
	T_NEAR((double)m->sum, 5, 0);
	hist_init(m);
	hist_merge_shared(m, a, true);
	T_NEAR((double)m->sum, (double)a->sum, 0);
	hist_init(b);
	hist_init(m);
	hist_merge_shared(m, b, true);     /* an empty one leaves min and max alone */
	T_EQ_U64(m->min, UINT64_MAX);
	T_EQ_U64(m->count, 0);
	free(a);
	free(b);
	free(m);
	free(r);
}

int main(void)
{
	T_RUN(t_buckets);
	T_RUN(t_uniform_percentiles);
	T_RUN(t_exact_small);
	T_RUN(t_exponential);
	T_RUN(t_bimodal);
	T_RUN(t_shared);
	return t_done();
}
