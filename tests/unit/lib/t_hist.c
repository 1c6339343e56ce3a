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

int main(void)
{
	T_RUN(t_buckets);
	T_RUN(t_uniform_percentiles);
	T_RUN(t_exact_small);
	T_RUN(t_exponential);
	T_RUN(t_bimodal);
	return t_done();
}
