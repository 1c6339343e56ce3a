/* SPDX-License-Identifier: BSD-2-Clause */
/* delay.h — one-way delay, delay variation and jitter of one stream, from the transmit
 * timestamp in the signature and the receive timestamp.
 *
 * Per arrival: transit = rx − tx (ns; signed: unsynchronized clocks give any value).
 * - One-way delay (OWD) goes into a log-linear histogram (min, mean, percentiles, max)
 *   only when it is plausible: a negative transit, or one above max_ns, says the two
 *   clocks disagree (another box without PTP/NTP, or CLOCK_MONOTONIC across boxes) and
 *   is counted instead (neg_pkts, implausible_pkts), never folded into the percentiles.
 * - RFC 3550 §6.4.1 interarrival jitter J += (|D| − J)/16 with D the difference of
 *   consecutive transits (in arrival order), and RFC 3393 IPDV |D| in a histogram: both
 *   use differences, so a constant clock offset cancels and they stay valid when the
 *   OWD does not.
 * - RFC 5481 PDV at the 99.9th percentile is derived as p99.9(OWD) − min(OWD).
 * No allocation; O(1) per arrival. */
#ifndef PPSLAB_SINK_DELAY_H
#define PPSLAB_SINK_DELAY_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

struct delay_stats {
	struct hist owd;           /* plausible one-way delays, ns */
	struct hist ipdv;          /* |transit_i − transit_{i−1}|, ns (RFC 3393) */
	uint64_t max_ns;           /* plausibility bound */
	uint64_t neg_pkts;         /* transit < 0 */
	uint64_t implausible_pkts; /* transit > max_ns */
	double jitter_ns;          /* RFC 3550 interarrival jitter */
	int64_t last_transit_ns;
	bool have_transit;
};

void delay_init(struct delay_stats *d, uint64_t max_ns);
/* Accounts one arrival; returns the one-way delay, or -1 when it was not plausible. */
int64_t delay_add(struct delay_stats *d, uint64_t tx_ns, uint64_t rx_ns);
/* Adds src's histograms and counts into dst (jitter: the larger, as a bound). */
void delay_merge(struct delay_stats *dst, const struct delay_stats *src);

/* One-way delay per frame size (ppslab-sink --delay-by-size): a histogram for each of
 * the first DELAY_SIZES sizes a stream carries (an IMIX has three), in the order they
 * were first seen; a frame of a further size is counted in other_pkts, not split, so
 * the memory is bounded (DELAY_SIZES histograms a stream). Sizes are wire bytes with
 * the FCS, as ppslab-gen's --size counts them. */
#define DELAY_SIZES 8
struct delay_sizes {
	unsigned n;
	uint32_t size[DELAY_SIZES];
	struct hist owd[DELAY_SIZES];
	uint64_t other_pkts;
};

void delay_sizes_init(struct delay_sizes *z);
void delay_sizes_add(struct delay_sizes *z, uint32_t size, uint64_t owd_ns);
/* Adds src into dst size by size (a size dst has no room for goes to other_pkts). */
void delay_sizes_merge(struct delay_sizes *dst, const struct delay_sizes *src);

#endif
