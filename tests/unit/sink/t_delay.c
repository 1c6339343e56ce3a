/* SPDX-License-Identifier: BSD-2-Clause */
/* t_delay.c — one-way delay, RFC 3550 jitter and RFC 3393 IPDV on known arrival series;
 * clock disagreement (negative, implausible) kept out of the percentiles. */
#include <stdlib.h>

#include "delay.h"
#include "tap.h"

static void t_jitter_known_series(void)
{
	/* transits 100, 110, 100, 130 ns: |D| = 10, 10, 30;
	 * J = 10/16; J += (10 − J)/16; J += (30 − J)/16 (RFC 3550 §6.4.1, A.8) */
	struct delay_stats *d = malloc(sizeof(*d));
	delay_init(d, 1000000);
	static const uint64_t tx[] = { 1000, 2000, 3000, 4000 };
	static const uint64_t tr[] = { 100, 110, 100, 130 };
	double j = 0;
	for (int i = 0; i < 4; i++) {
		T_EQ_INT(delay_add(d, tx[i], tx[i] + tr[i]), (long long)tr[i]);
		if (i) {
			double a = (double)(tr[i] > tr[i - 1] ? tr[i] - tr[i - 1] : tr[i - 1] - tr[i]);
			j += (a - j) / 16.0;
		}
	}
	T_NEAR(d->jitter_ns, 3.0102539, 1e-6);
	T_NEAR(d->jitter_ns, j, 1e-12);
	T_EQ_U64(d->owd.count, 4);
	T_EQ_U64(d->owd.min, 100);
	T_EQ_U64(d->owd.max, 130);
	T_EQ_U64(d->ipdv.count, 3);
	T_EQ_U64(d->ipdv.max, 30);
	T_EQ_U64(hist_quantile(&d->ipdv, 0.5), 10);
	free(d);
}

static void t_constant_delay_no_jitter(void)
{
	/* a constant transit, even with a huge clock offset, has zero jitter */
	struct delay_stats *d = malloc(sizeof(*d));
	delay_init(d, 10000000000ULL);
	for (uint64_t i = 0; i < 1000; i++)
		delay_add(d, 5000000000000ULL + i * 1000, i * 1000);   /* rx clock far behind */
	T_NEAR(d->jitter_ns, 0, 1e-12);
	T_EQ_U64(d->neg_pkts, 1000);
	T_EQ_U64(d->owd.count, 0);
	T_EQ_U64(d->ipdv.max, 0);
	free(d);
}

static void t_implausible(void)
{
	struct delay_stats *d = malloc(sizeof(*d));
	delay_init(d, 1000000);   /* 1 ms */
	T_EQ_INT(delay_add(d, 0, 500), 500);
	T_EQ_INT(delay_add(d, 0, 2000000), -1);
	T_EQ_INT(delay_add(d, 10, 5), -1);
	T_EQ_U64(d->implausible_pkts, 1);
	T_EQ_U64(d->neg_pkts, 1);
	T_EQ_U64(d->owd.count, 1);
	/* jitter still follows every arrival: |2,000,000 − 500| then |−5 − 2,000,000| */
	T_TRUE(d->jitter_ns > 200000);
	free(d);
}

static void t_jitter_alternating(void)
{
	/* transits alternate 1000 / 3000 ns: |D| = 2000 always; J converges to 2000 */
	struct delay_stats *d = malloc(sizeof(*d));
	delay_init(d, 1000000);
	for (int i = 0; i < 400; i++)
		delay_add(d, (uint64_t)i * 10000, (uint64_t)i * 10000 + (i % 2 ? 3000 : 1000));
	T_NEAR(d->jitter_ns, 2000, 0.01);
	T_NEAR(hist_quantile(&d->owd, 0.5), 1000, 0);
	T_NEAR(hist_quantile(&d->owd, 0.51), 3000, 3000 / 32.0);
	struct delay_stats *e = malloc(sizeof(*e));
	delay_init(e, 1000000);
	delay_merge(e, d);
	T_EQ_U64(e->owd.count, 400);
	T_NEAR(e->jitter_ns, d->jitter_ns, 0);
	free(e);
	free(d);
}

/* Per frame size: an IMIX's three sizes each in a histogram of its own, in the order
 * first seen; a ninth size counted, not split; a merge matches sizes, not slots. */
static void t_sizes_split(void)
{
	struct delay_sizes *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	delay_sizes_init(a);
	delay_sizes_init(b);
	for (int i = 0; i < 7; i++)
		delay_sizes_add(a, 64, 1000 + (uint64_t)i);
	for (int i = 0; i < 4; i++)
		delay_sizes_add(a, 594, 5000);
	delay_sizes_add(a, 1518, 9000);
	T_EQ_INT(a->n, 3);
	T_EQ_U64(a->size[0], 64);
	T_EQ_U64(a->size[1], 594);
	T_EQ_U64(a->size[2], 1518);
	T_EQ_U64(a->owd[0].count, 7);
	T_EQ_U64(a->owd[0].min, 1000);
	T_EQ_U64(a->owd[0].max, 1006);
	T_EQ_U64(a->owd[1].count, 4);
	T_EQ_U64(a->owd[2].count, 1);
	T_EQ_U64(hist_quantile(&a->owd[2], 0.5), 9000);
	for (uint32_t s = 100; s < 100 + DELAY_SIZES; s++)
		delay_sizes_add(a, s, 1);
	T_EQ_INT(a->n, DELAY_SIZES);
	T_EQ_U64(a->other_pkts, 3);   /* 100..104 took the five free slots */
	/* b holds 1518 first, then 64: merged by size */
	delay_sizes_add(b, 1518, 9100);
	delay_sizes_add(b, 64, 2000);
	delay_sizes_merge(a, b);
	T_EQ_U64(a->owd[0].count, 8);
	T_EQ_U64(a->owd[0].max, 2000);
	T_EQ_U64(a->owd[2].count, 2);
	T_EQ_U64(a->owd[2].max, 9100);
	/* a size the destination has no room for goes to other_pkts with its count */
	delay_sizes_init(b);
	delay_sizes_add(b, 9000, 1);
	delay_sizes_add(b, 9000, 2);
	delay_sizes_merge(a, b);
	T_EQ_U64(a->other_pkts, 5);
	free(a);
	free(b);
}

int main(void)
{
	T_RUN(t_jitter_known_series);
	T_RUN(t_constant_delay_no_jitter);
	T_RUN(t_implausible);
	T_RUN(t_jitter_alternating);
	T_RUN(t_sizes_split);
	return t_done();
}
