// SPDX-License-Identifier: BSD-2-Clause
/* outage.c — the outage method's arithmetic (see outage.h) */
#include "outage.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "jout.h"

static double rate_of(const struct outage_rate *rates, size_t n, int stream)
{
	for (size_t i = 0; i < n; i++)
		if (rates[i].stream == stream)
			return rates[i].pps;
	return NAN;
}

static double u64_of(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_integer(v) && json_integer_value(v) >= 0
	       ? (double)json_integer_value(v) : json_is_real(v) ? json_real_value(v) : NAN;
}

/* A stream's frames lost in no gap (before its first frame or after its last): its
 * loss beyond its gaps' (gap_lost_pkts holds the unlisted gaps' loss already). */
static uint64_t lost_outside(const json_t *st)
{
	double lost = u64_of(st, "lost_pkts"), in_gaps = u64_of(st, "gap_lost_pkts");
	return !isnan(lost) && !isnan(in_gaps) && lost > in_gaps ? (uint64_t)(lost - in_gaps) : 0;
}

void outage_sum_init(struct outage_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->longest_ns = sum->longest_start_ns = sum->longest_lol_s = NAN;
	sum->longest_within_start_ns = sum->longest_within_end_ns = NAN;
	sum->loss_over_load_s = NAN;
}

/* a stamp in ns: CLOCK_REALTIME is near 2^61, past a double's 53 bits */
static int64_t ns_of(const json_t *o, const char *k)
{
	return (int64_t)json_integer_value(json_object_get(o, k));
}

int outage_gaps(json_t *out, const json_t *sink, int64_t t0_ns, const struct outage_rate *rates,
		size_t nrates, struct outage_sum *sum)
{
	const json_t *streams = json_object_get(sink, "streams");
	if (!json_is_array(streams) || !json_is_array(out))
		return -EINVAL;
	size_t i, j;
	const json_t *st, *g;
	json_array_foreach(streams, i, st) {
		int id = (int)json_integer_value(json_object_get(st, "stream"));
		double pps = rate_of(rates, nrates, id);
		double lost = u64_of(st, "lost_pkts");
		if (!isnan(lost))
			sum->lost += (uint64_t)lost;
		if (pps > 0)
			sum->rate_pps += pps;
		const json_t *gl = json_object_get(st, "gaps");
		if (!json_is_array(gl)) {   /* split over threads: no list of its own */
			sum->split++;
			continue;
		}
		sum->unlisted += (size_t)json_integer_value(json_object_get(st, "gaps_unlisted"));
		sum->outside += lost_outside(st);
		const json_t *in_merged = NULL;   /* the listed merged record of the longest
						   * silence among them */
		double merged_sil = NAN;
		json_array_foreach(gl, j, g) {
			int64_t b = ns_of(g, "before_ns"), a = ns_of(g, "after_ns");
			double gl_lost = u64_of(g, "lost_pkts");
			double merged = u64_of(g, "merged_gaps");
			double sil = u64_of(g, "silence_ns");   /* an older sink's: none */
			json_t *o = json_object();
			if (!o)
				return -ENOMEM;
			json_object_set_new(o, "stream", json_integer(id));
			/* integers: exact to the nanosecond */
			json_object_set_new(o, "start_ns", json_integer(b - t0_ns));
			json_object_set_new(o, "end_ns", json_integer(a - t0_ns));
			json_object_set_new(o, "duration_ns", json_integer(a - b));
			json_object_set_new(o, "seq_before",
					    json_integer(json_integer_value(json_object_get(g, "seq_before"))));
			json_object_set_new(o, "seq_after",
					    json_integer(json_integer_value(json_object_get(g, "seq_after"))));
			json_object_set_new(o, "lost_pkts", json_integer((json_int_t)gl_lost));
			json_object_set_new(o, "reordered_pkts",
					    json_integer(json_integer_value(json_object_get(g, "reordered_pkts"))));
			json_object_set_new(o, "merged_gaps", json_integer((json_int_t)merged));
			jset_num(o, "loss_over_load_s", pps > 0 ? gl_lost / pps : NAN);
			if (!isnan(sil))
				json_object_set_new(o, "silence_ns", json_integer((json_int_t)sil));
			if (merged > 1 && !isnan(sil) && !(sil <= merged_sil)) {
				merged_sil = sil;
				in_merged = g;
			}
			if (json_array_append_new(out, o))
				return -ENOMEM;
			sum->gaps++;
			/* the longest silence: a record of one gap (a merged one spans frames
			 * received between its parts) */
			double d = (double)(a - b);
			if (merged == 1 && (isnan(sum->longest_ns) || d > sum->longest_ns)) {
				sum->longest_ns = d;
				sum->longest_stream = id;
				sum->longest_listed = 1;
				sum->longest_start_ns = (double)(b - t0_ns);
				sum->longest_lost = (uint64_t)gl_lost;
				sum->longest_lol_s = pps > 0 ? gl_lost / pps : NAN;
			}
		}
		/* the sink's longest covers the gaps of merged records and unlisted gaps
		 * too: longer than any listed gap of its own, its length is known; its place
		 * is within a listed merged record whose longest silence it is (overload
		 * loss merges scattered gaps: docs/sink.md#gaps), else unknown */
		double lg = u64_of(st, "longest_gap_ns");
		if (lg > 0 && (isnan(sum->longest_ns) || lg > sum->longest_ns)) {
			bool in = in_merged && merged_sil == lg;
			sum->longest_ns = lg;
			sum->longest_stream = id;
			sum->longest_listed = in ? 2 : 0;
			sum->longest_start_ns = NAN;
			sum->longest_within_start_ns = in ? (double)(ns_of(in_merged, "before_ns") - t0_ns)
							  : NAN;
			sum->longest_within_end_ns = in ? (double)(ns_of(in_merged, "after_ns") - t0_ns)
							: NAN;
			sum->longest_merged = in ? (uint64_t)u64_of(in_merged, "merged_gaps") : 0;
			sum->longest_lost = 0;
			sum->longest_lol_s = NAN;
		}
	}
	return 0;
}

void outage_finish(struct outage_sum *sum)
{
	sum->loss_over_load_s = sum->rate_pps > 0 ? (double)sum->lost / sum->rate_pps : NAN;
}

double outage_reset_ns(const json_t *gaps, const char **why)
{
	double best = NAN;
	size_t i;
	const json_t *g;
	json_array_foreach(gaps, i, g) {
		double e = jnum(g, "end_ns"), d = jnum(g, "duration_ns");
		if (jnum(g, "merged_gaps") != 1 || !(e > 0))
			continue;
		if (isnan(best) || d > best)
			best = d;
	}
	if (isnan(best))
		*why = "no gap ends after the reset was fired: the router forwarded through it, or "
		       "stopped for good (no frame after it)";
	return best;
}

int outage_action_late(double done_ns, double load_end_ns, char *why, size_t len)
{
	if (isnan(done_ns) || isnan(load_end_ns) || done_ns <= load_end_ns)
		return 0;
	snprintf(why, len, "outage: the action outlasted the load: it ended %.3f s after t0, "
		 "the load %.3f s after t0; what it did to forwarding after the load is not "
		 "measured, and the gaps end before it did (a forwarder whose control the load "
		 "starved answers only when the traffic stops)", done_ns / 1e9, load_end_ns / 1e9);
	return 1;
}

void outage_recovery_init(struct outage_recovery *rv)
{
	memset(rv, 0, sizeof(*rv));
	rv->ns = 0;
	rv->stream = -1;
}

/* The frames a stream lost in no gap that may have been lost after the drop at a_ns:
 * the tail (after its last frame: the sender's count less NextExp) always; the head
 * (before its first frame) unless that first frame came before the drop, which then
 * places the head before it too. A sink without the sender's count or the first
 * frame's time: all of them. */
static uint64_t lost_unplaced(const json_t *st, int64_t a_ns)
{
	uint64_t out = lost_outside(st);
	const json_t *ex = json_object_get(st, "expect"), *nx = json_object_get(st, "next_seq");
	const json_t *f = json_object_get(st, "first_rx_ns");
	if (!out || !json_is_integer(ex) || !json_is_integer(nx) || !json_is_integer(f))
		return out;
	json_int_t e = json_integer_value(ex), n = json_integer_value(nx);
	uint64_t tail = e > n ? (uint64_t)(e - n) : 0;
	if (tail > out)
		return out;
	int64_t first = (int64_t)json_integer_value(f);
	return first > 0 && first <= a_ns ? tail : out;
}

int outage_recovery(const json_t *sink, int64_t a_ns, int64_t end_ns, int64_t tail_ns,
		    struct outage_recovery *rv)
{
	const json_t *streams = json_object_get(sink, "streams");
	if (!json_is_array(streams))
		return -EINVAL;
	size_t i;
	const json_t *st;
	json_array_foreach(streams, i, st) {
		int id = (int)json_integer_value(json_object_get(st, "stream"));
		rv->streams++;
		if (!json_is_array(json_object_get(st, "gaps"))) {   /* split over threads */
			rv->split++;
			continue;
		}
		rv->lost_after_end += lost_unplaced(st, a_ns);
		if (json_is_true(json_object_get(st, "last_gap_inexact")))
			rv->inexact++;
		const json_t *lg = json_object_get(st, "last_gap");
		if (!json_is_object(lg) && json_is_true(json_object_get(st, "last_gap_inexact"))) {
			rv->unknown++;   /* late frames emptied it: the loss before is not known */
			continue;
		}
		if (!json_is_object(lg) || ns_of(lg, "after_ns") <= a_ns) {
			rv->at_once++;
			continue;
		}
		int64_t b = ns_of(lg, "after_ns");
		if (b > end_ns - tail_ns)
			rv->not_recovered++;
		if ((double)(b - a_ns) > rv->ns) {
			rv->ns = (double)(b - a_ns);
			rv->stream = id;
		}
	}
	return 0;
}

void outage_recovery_finish(struct outage_recovery *rv)
{
	if (rv->split) {
		rv->why = "a stream was split over a sink's threads: it has no record of its "
			  "latest loss";
		rv->ns = NAN;
	} else if (rv->unknown) {
		rv->why = "a stream's latest loss is not known: late frames filled the gap it was "
			  "in, and the loss before it was not kept exactly";
		rv->ns = NAN;
	} else if (rv->not_recovered) {
		rv->why = "not recovered: a stream still lost frames near the end of the trial";
		rv->ns = NAN;
	} else if (rv->lost_after_end) {
		rv->why = "not recovered: frames were lost after a stream's last frame received "
			  "(or before its first), in no gap";
		rv->ns = NAN;
	} else if (!rv->streams) {
		rv->why = "no stream was received";
		rv->ns = NAN;
	}
}
