/* SPDX-License-Identifier: BSD-2-Clause */
/* delay.c — one-way delay, IPDV and RFC 3550 jitter (see delay.h). Called per test frame
 * by the sink's receive loop. */
#include "delay.h"

void delay_init(struct delay_stats *d, uint64_t max_ns)
{
	hist_init(&d->owd);
	hist_init(&d->ipdv);
	d->max_ns = max_ns;
	d->neg_pkts = d->implausible_pkts = 0;
	d->jitter_ns = 0;
	d->last_transit_ns = 0;
	d->have_transit = false;
}

int64_t delay_add(struct delay_stats *d, uint64_t tx_ns, uint64_t rx_ns)
{
	int64_t transit = (int64_t)(rx_ns - tx_ns);   /* modular: any offset stays exact */
	if (d->have_transit) {
		int64_t diff = transit - d->last_transit_ns;
		uint64_t a = diff < 0 ? (uint64_t)0 - (uint64_t)diff : (uint64_t)diff;
		d->jitter_ns += ((double)a - d->jitter_ns) / 16.0;
		hist_add(&d->ipdv, a);
	}
	d->last_transit_ns = transit;
	d->have_transit = true;
	if (transit < 0) {
		d->neg_pkts++;
		return -1;
	}
	if ((uint64_t)transit > d->max_ns) {
		d->implausible_pkts++;
		return -1;
	}
	hist_add(&d->owd, (uint64_t)transit);
	return transit;
}

void delay_merge(struct delay_stats *dst, const struct delay_stats *src)
{
	hist_merge(&dst->owd, &src->owd);
	hist_merge(&dst->ipdv, &src->ipdv);
	dst->neg_pkts += src->neg_pkts;
	dst->implausible_pkts += src->implausible_pkts;
	if (src->jitter_ns > dst->jitter_ns)
		dst->jitter_ns = src->jitter_ns;
}

void delay_sizes_init(struct delay_sizes *z)
{
	z->n = 0;
	z->other_pkts = 0;
	for (unsigned i = 0; i < DELAY_SIZES; i++) {
		z->size[i] = 0;
		hist_init(&z->owd[i]);
	}
}

/* The slot of size, made when there is room; -1 when there is none. */
static int size_slot(struct delay_sizes *z, uint32_t size)
{
	for (unsigned i = 0; i < z->n; i++)
		if (z->size[i] == size)
			return (int)i;
	if (z->n == DELAY_SIZES)
		return -1;
	z->size[z->n] = size;
	return (int)z->n++;
}

void delay_sizes_add(struct delay_sizes *z, uint32_t size, uint64_t owd_ns)
{
	int i = size_slot(z, size);
	if (i < 0)
		z->other_pkts++;
	else
		hist_add(&z->owd[i], owd_ns);
}

void delay_sizes_merge(struct delay_sizes *dst, const struct delay_sizes *src)
{
	dst->other_pkts += src->other_pkts;
	for (unsigned k = 0; k < src->n; k++) {
		int i = size_slot(dst, src->size[k]);
		if (i < 0)
			dst->other_pkts += src->owd[k].count;
		else
			hist_merge(&dst->owd[i], &src->owd[k]);
	}
}
