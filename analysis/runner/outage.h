/* SPDX-License-Identifier: BSD-2-Clause */
/* outage.h — the outage method's arithmetic (docs/method.md#outage-timeline): the
 * sinks' gap lists put on the time line of the action's instant t0, the longest gap,
 * loss ÷ load, and the reset recipe's time. Pure: JSON in, JSON out, no clock.
 *
 * A gap of a sink (ppslab-sink's "streams"[].gaps, docs/sink.md#gaps) lies between the
 * last frame before it (before_ns) and the first frame after it (after_ns), both on
 * that sink's clock (CLOCK_REALTIME there). The runner knows t0 on its own clock and
 * the sink box's offset from it, so it hands t0 already on the sink's clock; then
 *     start = before_ns − t0,   end = after_ns − t0,   duration = after_ns − before_ns.
 * "loss ÷ load" is the frames lost divided by the rate they were offered at, in
 * seconds: what CSIT and the Open Traffic Generator call the effective blocked time,
 * printed beside the measured gap so the two compare. */
#ifndef PPSLAB_ANALYSIS_RUNNER_OUTAGE_H
#define PPSLAB_ANALYSIS_RUNNER_OUTAGE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* The rate one stream was offered at (a sender's share of the load). */
struct outage_rate {
	int stream;
	double pps;
};

/* What a trial's gap lists say, over every stream of every sink. */
struct outage_sum {
	size_t gaps;                /* gaps listed */
	size_t unlisted;            /* gaps the sinks counted but did not list */
	size_t split;               /* streams with no gap list (split over threads) */
	uint64_t lost;              /* frames lost, every stream's lost_pkts */
	uint64_t outside;           /* of them, in no gap (before a stream's first measured
				     * frame or after its last: nothing brackets them) */
	double rate_pps;            /* the streams' rates summed */
	double loss_over_load_s;    /* lost / rate_pps; NaN without a rate */
	/* the longest silence (a gap of one record, not merged), over every stream */
	double longest_ns;          /* NaN: no gap at all */
	int longest_stream;
	int longest_listed;         /* 1: a listed gap of its own, its start known; 2: one of
				     * the gaps of a listed merged record (its length exact,
				     * its place within the record's); 0: not listed */
	double longest_start_ns;    /* relative to t0 (NaN unless longest_listed is 1) */
	double longest_within_start_ns, longest_within_end_ns;   /* the merged record's
				     * ends, relative to t0 (longest_listed 2) */
	uint64_t longest_merged;    /* that record's merged_gaps (longest_listed 2) */
	uint64_t longest_lost;
	double longest_lol_s;       /* its lost / its stream's rate */
};

/* Appends to out (an array) one object per gap the sink summary lists, in its order:
 * {"stream", "start_ns", "end_ns" (relative to t0_ns, the action's instant on this
 * sink's clock), "duration_ns", "seq_before", "seq_after", "lost_pkts", "reordered_pkts", "merged_gaps",
 * "loss_over_load_s" (null without the stream's rate)}, and adds the sink's streams to
 * *sum (outage_sum_init once, then each sink's). 0, -EINVAL (sink is no summary with
 * streams), -ENOMEM. */
void outage_sum_init(struct outage_sum *sum);
int outage_gaps(json_t *out, const json_t *sink, int64_t t0_ns, const struct outage_rate *rates,
		size_t nrates, struct outage_sum *sum);
/* After the last outage_gaps: the totals' ratio. */
void outage_finish(struct outage_sum *sum);

/* The reset recipe (RFC 2544 §26.6): the time from the last frame before the reset to
 * the first frame after it, the longest silence that ends after t0 among gaps (an array
 * made by outage_gaps); NaN with *why (static) when none does. */
double outage_reset_ns(const json_t *gaps, const char **why);

/* Whether the action outlasted the load: done_ns is when it ended after t0 (the time it
 * took: the runner waits for it), load_end_ns when the senders' schedule ended after
 * t0. An action still running when the load ended (a forwarder whose control the load
 * starved, as in receive livelock, answers only when the traffic stops) did what it did
 * partly or wholly after the measured stream: the gaps end before it did. 1 with why
 * (the case's flag, naming both instants), 0 when it ended within the load or an
 * instant is unknown (NaN). */
int outage_action_late(double done_ns, double load_end_ns, char *why, size_t len);

/* The recovery recipe (RFC 2544 §26.5): the load drops from 110 % to 50 % of the
 * throughput at A (a_ns, on this sink's clock); the recovery time runs from A to B,
 * the last frame lost. A stream's latest loss is its sink's "last_gap" (kept whatever
 * the gap list holds, docs/sink.md#gaps); B is that gap's end, the receive time of the
 * first frame after the last one lost: the lost frame was sent one frame interval (at
 * the lower rate) before it, so B is late by at most that interval and the recovery
 * time is an upper bound good to it. A stream whose latest loss ends at or before A
 * recovered at once: 0. Loss whose end falls within tail_ns of the stream's end (the
 * low-rate phase's end, end_ns on the sink's clock) is not known to have stopped: the
 * stream has not recovered. outage_recovery_init once, outage_recovery per sink, then
 * outage_recovery_finish: ns the largest over the streams, or NaN with why. */
#define RECOVERY_OVER 1.1      /* §26.5: the overload, of the throughput */
#define RECOVERY_UNDER 0.5     /* ... then this of the overload's rate (55 %) */

struct outage_recovery {
	double ns;                  /* the recovery time; NaN: see why */
	int stream;                 /* the stream it is of (-1: none lost after A) */
	size_t streams, at_once;    /* streams seen; of them, no loss after A */
	uint64_t lost_after_end;    /* frames lost after a stream's last frame, or before its
				     * first: in no gap, so maybe still lost at the end */
	int not_recovered;          /* a stream's loss went on into the tail */
	int inexact;                /* a sink's last_gap_inexact */
	int split;                  /* a stream without a last-loss record (split) */
	int unknown;                /* no record, and last_gap_inexact: not "at once" */
	const char *why;            /* static: why ns is NaN, or NULL */
};
void outage_recovery_init(struct outage_recovery *rv);
/* 0, -EINVAL (sink is no summary with streams) */
int outage_recovery(const json_t *sink, int64_t a_ns, int64_t end_ns, int64_t tail_ns,
		    struct outage_recovery *rv);
void outage_recovery_finish(struct outage_recovery *rv);

#endif
