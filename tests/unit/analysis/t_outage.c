/* SPDX-License-Identifier: BSD-2-Clause */
/* t_outage.c — the outage method's arithmetic (outage.h) on sink summaries written out
 * by hand: gaps put on t0's time line exactly, loss ÷ load per gap and in all, the
 * longest silence (not a merged record's span; one of a listed merged record's gaps
 * known by its length and the record's ends; an unlisted longer one by its length
 * only), streams without lists, the reset recipe's time, and the recovery recipe's:
 * from the load's drop to the end of each stream's latest loss, 0 without loss after
 * it, "not recovered" when loss goes on to the end; an action that outlasted the
 * load. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "outage.h"
#include "tap.h"

static json_t *js(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	if (!j)
		printf("# bad fixture: %s\n", e.text);
	return j;
}

static long long ival(const json_t *o, const char *k)
{
	return (long long)json_integer_value(json_object_get(o, k));
}

/* one stream at 10,000 pps; t0 on the sink's clock a CLOCK_REALTIME stamp of 2026,
 * past a double's 53 bits: every figure must still be exact to the nanosecond */
#define T0 1796459161580108501LL
static char sink1[1024];

static void make_sink1(void)
{
	snprintf(sink1, sizeof(sink1),
		 "{\"streams\": [{\"stream\": 1, \"lost_pkts\": 2503, \"gaps_unlisted\": 0,"
		 " \"gap_lost_pkts\": 2503, \"gaps_unlisted_lost_pkts\": 0,"
		 " \"longest_gap_ns\": 250100002, \"gaps\": ["
		 "  {\"before_ns\": %lld, \"after_ns\": %lld, \"lost_pkts\": 2, \"seq_before\": 10,"
		 "   \"seq_after\": 13, \"reordered_pkts\": 0, \"merged_gaps\": 1},"
		 "  {\"before_ns\": %lld, \"after_ns\": %lld, \"lost_pkts\": 2500,"
		 "   \"reordered_pkts\": 3, \"merged_gaps\": 1},"
		 "  {\"before_ns\": %lld, \"after_ns\": %lld, \"lost_pkts\": 1,"
		 "   \"reordered_pkts\": 0, \"merged_gaps\": 4}]}]}",
		 T0 - 1000000000LL, T0 - 999700000LL, T0 + 50001, T0 + 250150003,
		 T0 + 1000000000LL, T0 + 1900000000LL);
}

static void t_timeline(void)
{
	make_sink1();
	json_t *s = js(sink1), *gaps = json_array();
	struct outage_rate r[] = { { 1, 10000 } };
	struct outage_sum sum;
	outage_sum_init(&sum);
	T_EQ_INT(outage_gaps(gaps, s, T0, r, 1, &sum), 0);
	outage_finish(&sum);
	T_EQ_INT(json_array_size(gaps), 3);
	const json_t *g = json_array_get(gaps, 1);
	T_EQ_INT(ival(g, "stream"), 1);
	T_EQ_INT(ival(g, "start_ns"), 50001);          /* last frame before, after t0 */
	T_EQ_INT(ival(g, "end_ns"), 250150003);
	T_EQ_INT(ival(g, "duration_ns"), 250100002);
	T_EQ_INT(ival(g, "lost_pkts"), 2500);
	T_EQ_INT(ival(g, "reordered_pkts"), 3);
	T_NEAR(json_real_value(json_object_get(g, "loss_over_load_s")), 0.25, 1e-12);
	g = json_array_get(gaps, 0);                   /* before t0: negative */
	T_EQ_INT(ival(g, "start_ns"), -1000000000LL);
	T_EQ_INT(ival(g, "end_ns"), -999700000LL);
	T_EQ_INT(ival(g, "seq_before"), 10);
	T_EQ_INT(ival(g, "seq_after"), 13);
	/* the longest is the 250 ms silence; the merged record spans more but is no
	 * silence */
	T_NEAR(sum.longest_ns, 250100002, 0);
	T_EQ_INT(sum.longest_listed, 1);
	T_NEAR(sum.longest_start_ns, 50001, 0);
	T_EQ_U64(sum.longest_lost, 2500);
	T_NEAR(sum.longest_lol_s, 0.25, 1e-12);
	/* the exact figures make the sink's own longest (250100002) no longer than the
	 * listed one: its place is known */
	/* loss ÷ load: every frame the stream lost over its rate, exactly */
	T_EQ_U64(sum.lost, 2503);
	T_NEAR(sum.loss_over_load_s, 0.2503, 1e-12);
	T_EQ_INT(sum.gaps, 3);
	T_EQ_INT(sum.split, 0);
	T_EQ_U64(sum.outside, 0);
	const char *why = NULL;
	T_NEAR(outage_reset_ns(gaps, &why), 250100002, 0);
	T_TRUE(why == NULL);
	json_decref(s);
	json_decref(gaps);
}

/* two sinks on two clocks, each given its own t0; a split stream; a longer gap the
 * list left out; a stream without a known rate */
static void t_several(void)
{
	json_t *a = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 10, \"longest_gap_ns\": 900,"
		       " \"gap_lost_pkts\": 7, \"gaps_unlisted_lost_pkts\": 3,"
		       " \"gaps_unlisted\": 2, \"gaps\": [{\"before_ns\": 5000, \"after_ns\": 5500,"
		       " \"lost_pkts\": 4, \"reordered_pkts\": 0, \"merged_gaps\": 1}]}]}");
	json_t *b = js("{\"streams\": [{\"stream\": 3, \"lost_pkts\": 6, \"gaps\": null,"
		       " \"longest_gap_ns\": null},"
		       " {\"stream\": 9, \"lost_pkts\": 0, \"longest_gap_ns\": 300, \"gaps\": ["
		       "  {\"before_ns\": 100, \"after_ns\": 400, \"lost_pkts\": 2,"
		       "   \"reordered_pkts\": 0, \"merged_gaps\": 1}]}]}");
	json_t *gaps = json_array();
	struct outage_rate r[] = { { 1, 500 }, { 3, 1500 } };
	struct outage_sum sum;
	outage_sum_init(&sum);
	T_EQ_INT(outage_gaps(gaps, a, 4000, r, 2, &sum), 0);
	T_EQ_INT(outage_gaps(gaps, b, -200, r, 2, &sum), 0);
	outage_finish(&sum);
	T_EQ_INT(json_array_size(gaps), 2);
	T_EQ_INT(ival(json_array_get(gaps, 0), "start_ns"), 1000);
	T_EQ_INT(ival(json_array_get(gaps, 1), "start_ns"), 300);   /* 100 − (−200) */
	T_EQ_INT(ival(json_array_get(gaps, 1), "stream"), 9);
	T_TRUE(json_is_null(json_object_get(json_array_get(gaps, 1), "loss_over_load_s")));
	T_EQ_INT(sum.split, 1);
	T_EQ_INT(sum.unlisted, 2);
	T_EQ_U64(sum.lost, 16);
	T_EQ_U64(sum.outside, 3);   /* stream 1: 10 lost, 4 + 3 (gap_lost_pkts, unlisted in it)
				     * in gaps; the others no list */
	T_NEAR(sum.rate_pps, 2000, 0);            /* streams with a rate */
	T_NEAR(sum.loss_over_load_s, 16.0 / 2000, 1e-15);
	/* stream 1's longest (900) is unlisted: its length, not its place */
	T_NEAR(sum.longest_ns, 900, 0);
	T_EQ_INT(sum.longest_stream, 1);
	T_EQ_INT(sum.longest_listed, 0);
	T_TRUE(isnan(sum.longest_start_ns));
	T_EQ_INT(outage_gaps(gaps, json_array_get(gaps, 0), 0, r, 2, &sum), -EINVAL);
	json_decref(a);
	json_decref(b);
	json_decref(gaps);
}

/* overload loss (the recovery recipe's 110 %): a lost frame a tick, more gaps than the
 * sink keeps open, so it merges them; the sink's longest silence (a tick and a bit) is
 * one of a listed merged record's gaps, whose silence_ns says so: listed, its length
 * exact and its place within the record, not "not in the lists"; a longer one that no
 * listed record holds is unlisted */
static void t_merged_longest(void)
{
	json_t *s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 1500,"
		       " \"gap_lost_pkts\": 1500, \"gaps_unlisted\": 10,"
		       " \"gaps_unlisted_lost_pkts\": 1100, \"longest_gap_ns\": 1300000, \"gaps\": ["
		       "  {\"before_ns\": 1000000, \"after_ns\": 1001000, \"lost_pkts\": 1,"
		       "   \"reordered_pkts\": 0, \"merged_gaps\": 1, \"silence_ns\": 1000},"
		       "  {\"before_ns\": 2000000, \"after_ns\": 42000000, \"lost_pkts\": 40,"
		       "   \"reordered_pkts\": 0, \"merged_gaps\": 40, \"silence_ns\": 1100000},"
		       "  {\"before_ns\": 50000000, \"after_ns\": 400000000, \"lost_pkts\": 359,"
		       "   \"reordered_pkts\": 0, \"merged_gaps\": 359, \"silence_ns\": 1300000}]}]}");
	json_t *gaps = json_array();
	struct outage_rate r[] = { { 1, 11000 } };
	struct outage_sum sum;
	outage_sum_init(&sum);
	T_EQ_INT(outage_gaps(gaps, s, 0, r, 1, &sum), 0);
	T_NEAR(sum.longest_ns, 1300000, 0);
	T_EQ_INT(sum.longest_listed, 2);
	T_TRUE(isnan(sum.longest_start_ns));
	T_NEAR(sum.longest_within_start_ns, 50000000, 0);
	T_NEAR(sum.longest_within_end_ns, 400000000, 0);
	T_EQ_U64(sum.longest_merged, 359);
	T_EQ_INT(ival(json_array_get(gaps, 2), "silence_ns"), 1300000);
	json_decref(s);
	json_decref(gaps);
	/* the same list, the sink's longest longer than any record's silence: unlisted */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 41, \"longest_gap_ns\": 1400000,"
	       " \"gaps\": [{\"before_ns\": 2000000, \"after_ns\": 42000000, \"lost_pkts\": 40,"
	       "   \"reordered_pkts\": 0, \"merged_gaps\": 40, \"silence_ns\": 1100000}]}]}");
	gaps = json_array();
	outage_sum_init(&sum);
	T_EQ_INT(outage_gaps(gaps, s, 0, r, 1, &sum), 0);
	T_NEAR(sum.longest_ns, 1400000, 0);
	T_EQ_INT(sum.longest_listed, 0);
	T_TRUE(isnan(sum.longest_within_start_ns));
	json_decref(s);
	json_decref(gaps);
}

/* the reset: the longest silence ending after t0; none is an irregular result */
static void t_reset(void)
{
	json_t *g = js("[{\"start_ns\": -900, \"end_ns\": -10, \"duration_ns\": 890,"
		       "  \"merged_gaps\": 1},"
		       " {\"start_ns\": -5, \"end_ns\": 600, \"duration_ns\": 605, \"merged_gaps\": 1},"
		       " {\"start_ns\": 700, \"end_ns\": 2000, \"duration_ns\": 1300, \"merged_gaps\": 2},"
		       " {\"start_ns\": 800, \"end_ns\": 900, \"duration_ns\": 100, \"merged_gaps\": 1}]");
	const char *why = NULL;
	T_NEAR(outage_reset_ns(g, &why), 605, 0);
	T_TRUE(why == NULL);
	json_decref(g);
	g = js("[{\"start_ns\": -900, \"end_ns\": -10, \"duration_ns\": 890, \"merged_gaps\": 1}]");
	T_TRUE(isnan(outage_reset_ns(g, &why)));
	T_TRUE(why && strstr(why, "no gap ends after the reset"));
	json_decref(g);
}

/* a stream's summary with its latest loss after_ns (0: none) and lost frames outside
 * its gaps (lost − in gaps) */
static json_t *rcv_stream(int id, long long after_ns, long long outside)
{
	char b[600];
	if (after_ns)
		snprintf(b, sizeof(b), "{\"stream\": %d, \"lost_pkts\": %lld, \"gap_lost_pkts\": "
			 "10000, \"gaps_unlisted_lost_pkts\": 1000, \"gaps\": [],"
			 " \"last_gap_inexact\": false, \"last_gap\": {\"before_ns\": %lld,"
			 " \"after_ns\": %lld, \"lost_pkts\": 1}}", id, 10000 + outside,
			 after_ns - 300000, after_ns);
	else
		snprintf(b, sizeof(b), "{\"stream\": %d, \"lost_pkts\": 0, \"gap_lost_pkts\": 0,"
			 " \"gaps_unlisted_lost_pkts\": 0, \"gaps\": [], \"last_gap\": null}", id);
	return js(b);
}

static json_t *rcv_sink(json_t *a, json_t *b)
{
	json_t *s = json_pack("{s:[o]}", "streams", a);
	if (b)
		json_array_append_new(json_object_get(s, "streams"), b);
	return s;
}

#define LOW 2000000000LL   /* the low-rate phase: 2 s after the drop */

static void t_recovery(void)
{
	struct outage_recovery rv;
	/* the latest losses 123,456,789 ns and 100 ms after the drop: the larger, exactly
	 * (stamps past a double's 53 bits) */
	json_t *s = rcv_sink(rcv_stream(1, T0 + 123456789, 0), rcv_stream(2, T0 + 100000000, 0));
	outage_recovery_init(&rv);
	T_EQ_INT(outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv), 0);
	outage_recovery_finish(&rv);
	T_TRUE(rv.ns == 123456789);
	T_EQ_INT(rv.stream, 1);
	T_TRUE(rv.why == NULL);
	json_decref(s);
	/* the latest loss before the drop, or none at all: recovered at once, 0 */
	s = rcv_sink(rcv_stream(1, T0 - 5, 0), rcv_stream(2, 0, 0));
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(rv.ns == 0);
	T_EQ_INT((int)rv.at_once, 2);
	T_EQ_INT(rv.stream, -1);
	T_TRUE(rv.why == NULL);
	json_decref(s);
	/* a gap ending exactly at the drop is before it */
	s = rcv_sink(rcv_stream(1, T0, 0), NULL);
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(rv.ns == 0);
	json_decref(s);
	/* loss still going in the second half of the low-rate phase: not recovered */
	s = rcv_sink(rcv_stream(1, T0 + 1000000001, 0), NULL);
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(isnan(rv.ns));
	T_TRUE(rv.why && strstr(rv.why, "not recovered"));
	json_decref(s);
	/* ... and at its half, still recovered */
	s = rcv_sink(rcv_stream(1, T0 + 1000000000, 0), NULL);
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(rv.ns == 1000000000);
	json_decref(s);
	/* frames lost after the last one received (in no gap): not recovered */
	s = rcv_sink(rcv_stream(1, T0 + 1000, 7), NULL);
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(isnan(rv.ns));
	T_EQ_U64(rv.lost_after_end, 7);
	json_decref(s);
	/* with the sender's count and the first frame's time: the head (lost before the
	 * first frame, which came before the drop) is before the drop; the tail is not */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 13, \"gap_lost_pkts\": 10,"
	       " \"expect\": 20000, \"next_seq\": 20000, \"first_rx_ns\": 1796478245000000000,"
	       " \"gaps\": [], \"last_gap_inexact\": false, \"last_gap\": {\"before_ns\": 1,"
	       " \"after_ns\": 1796478246000000000, \"lost_pkts\": 1}}]}");
	outage_recovery_init(&rv);
	outage_recovery(s, 1796478246000000000 - 50000000, 1796478248000000000, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_EQ_U64(rv.lost_after_end, 0);
	T_TRUE(rv.ns == 50000000);
	T_TRUE(rv.why == NULL);
	json_decref(s);
	/* ... the same 3 lost after the last frame (NextExp 3 short of the count) */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 13, \"gap_lost_pkts\": 10,"
	       " \"expect\": 20000, \"next_seq\": 19997, \"first_rx_ns\": 1796478245000000000,"
	       " \"gaps\": [], \"last_gap_inexact\": false, \"last_gap\": null}]}");
	outage_recovery_init(&rv);
	outage_recovery(s, 1796478246000000000, 1796478248000000000, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_EQ_U64(rv.lost_after_end, 3);
	T_TRUE(isnan(rv.ns));
	json_decref(s);
	/* ... and a head whose first frame came after the drop: not placed */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 13, \"gap_lost_pkts\": 10,"
	       " \"expect\": 20000, \"next_seq\": 20000, \"first_rx_ns\": 1796478247000000000,"
	       " \"gaps\": [], \"last_gap_inexact\": false, \"last_gap\": null}]}");
	outage_recovery_init(&rv);
	outage_recovery(s, 1796478246000000000, 1796478248000000000, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_EQ_U64(rv.lost_after_end, 3);
	json_decref(s);
	/* as the sink writes it: gap_lost_pkts holds the 936 unlisted of its 1,000 too, so
	 * the 30 lost after the last frame are not hidden behind the unlisted loss */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 1030, \"gap_lost_pkts\": 1000,"
	       " \"gaps_unlisted_lost_pkts\": 936, \"gaps_unlisted\": 936, \"gaps\": [],"
	       " \"last_gap_inexact\": false, \"last_gap\": {\"before_ns\": 1, \"after_ns\": 2,"
	       " \"lost_pkts\": 1}}]}");
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(isnan(rv.ns));
	T_EQ_U64(rv.lost_after_end, 30);
	T_TRUE(rv.why && strstr(rv.why, "not recovered"));
	{
		struct outage_sum sum;
		json_t *gaps = json_array();
		outage_sum_init(&sum);
		T_EQ_INT(outage_gaps(gaps, s, 0, NULL, 0, &sum), 0);
		T_EQ_U64(sum.outside, 30);
		json_decref(gaps);
	}
	json_decref(s);
	/* late frames emptied the record and the loss before it is not exact: no number */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 0, \"gap_lost_pkts\": 0,"
	       " \"gaps_unlisted_lost_pkts\": 0, \"gaps\": [], \"last_gap_inexact\": true,"
	       " \"last_gap\": null}]}");
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(isnan(rv.ns));
	T_TRUE(rv.why && strstr(rv.why, "not known"));
	json_decref(s);
	/* a stream split over threads: no record, no number */
	s = js("{\"streams\": [{\"stream\": 1, \"lost_pkts\": 5, \"gaps\": null}]}");
	outage_recovery_init(&rv);
	outage_recovery(s, T0, T0 + LOW, LOW / 2, &rv);
	outage_recovery_finish(&rv);
	T_TRUE(isnan(rv.ns));
	T_TRUE(rv.why && strstr(rv.why, "split"));
	json_decref(s);
	outage_recovery_init(&rv);
	s = json_object();
	T_EQ_INT(outage_recovery(s, T0, T0, 0, &rv), -EINVAL);
	json_decref(s);
}

/* an action that outlasted the load: flagged with both instants; one that ended
 * within it, at its very end, or with an instant unknown, not */
static void t_action_late(void)
{
	char why[400] = "";
	T_EQ_INT(outage_action_late(3.5e9, 2e9, why, sizeof(why)), 1);
	T_TRUE(strstr(why, "outlasted the load") != NULL);
	T_TRUE(strstr(why, "ended 3.500 s after t0, the load 2.000 s after t0") != NULL);
	T_EQ_INT(outage_action_late(2e9 + 1, 2e9, why, sizeof(why)), 1);
	why[0] = 0;
	T_EQ_INT(outage_action_late(20e6, 2e9, why, sizeof(why)), 0);
	T_EQ_INT(outage_action_late(2e9, 2e9, why, sizeof(why)), 0);
	T_EQ_INT(outage_action_late(NAN, 2e9, why, sizeof(why)), 0);
	T_EQ_INT(outage_action_late(3e9, NAN, why, sizeof(why)), 0);
	T_STREQ(why, "");
}

int main(void)
{
	T_RUN(t_timeline);
	T_RUN(t_several);
	T_RUN(t_merged_longest);
	T_RUN(t_reset);
	T_RUN(t_recovery);
	T_RUN(t_action_late);
	return t_done();
}
