/* SPDX-License-Identifier: BSD-2-Clause */
/* t_trial_record.c — a trial's record made from its typed result (trial_record() in
 * analysis/runner/trial_record.c): its keys in the order results files have them
 * (docs/results-schema.md, cases[].trials[]), and its numbers as the results file
 * writes them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jout.h"
#include "results.h"
#include "tap.h"
#include "trial_impl.h"

/* The keys of o, comma-separated, in their order. */
static const char *keys(const json_t *o)
{
	static char buf[1024];
	const char *k;
	json_t *v;
	size_t n = 0;
	buf[0] = 0;
	json_object_foreach(jmut(o), k, v)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "," : "", k);
	return buf;
}

/* rec as the results file writes it (res_save's flags), compacted to one line */
static bool has(const json_t *rec, const char *text)
{
	char *s = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
	bool ok = s && strstr(s, text);
	if (!ok)
		printf("# %s\n# has no %s\n", s ? s : "(null)", text);
	free(s);
	return ok;
}

static struct trial_box gen_box = { .name = "gen", .spec = "afpacket:gen0", .threads = 1,
				    .stream = 1, .clock_bound_ns = NAN };
static struct trial_box gen2_box = { .name = "gen2", .spec = "afpacket:gen1", .threads = 2,
				     .stream = 3, .clock_off_ns = 1000, .clock_bound_ns = 500 };
static struct trial_box sink_box = { .name = "sink", .spec = "afpacket:sink0", .threads = 1 };

static void add(struct trial_tools *tt, struct tool *t, const struct trial_box *b,
		bool sender, const char *sum)
{
	snprintf(t->name, sizeof(t->name), "%s", b->name);
	t->tb = b;
	t->sender = sender;
	t->stream = b->stream;
	t->sum = json_loads(sum, 0, NULL);
	tt->all[tt->na++] = t;
	if (sender)
		tt->gens[tt->ng++] = t;
	else
		tt->sinks[tt->ns++] = t;
}

static void result_init(struct trial_res *s, const struct trial_req *r)
{
	memset(s, 0, sizeof(*s));
	s->req = r;
	s->gen = json_array();
	s->sink = json_array();
	s->exit = json_object();
	s->fwd_b = NAN;
}

static void result_free(struct trial_res *s, struct trial_tools *tt)
{
	json_decref(s->gen);
	json_decref(s->sink);
	json_decref(s->exit);
	for (size_t i = 0; i < tt->na; i++)
		json_decref(tt->all[i]->sum);
}

/* One sender, one sink, the rate read off the load window. */
static void t_windowed(void)
{
	struct trial_req r = { .load_pps = 30000, .duration_s = 1.5, .warmup_s = 0.3,
			       .kind = "fixed", .seq = 2 };
	struct trial_tools tt = { 0 };
	struct trial_res s;
	result_init(&s, &r);
	add(&tt, &tt.tl[0], &gen_box, true, "{\"tx_pkts\": 45000, \"pps\": 30000.5}");
	add(&tt, &tt.tl[1], &sink_box, false, "{\"rx_pkts\": 44990, \"latency_ns\": {\"p50\": 800}}");
	tt.nga = tt.nsa = 1;
	s.win_read = s.windowed = true;
	s.window_s = 1.25;
	s.res_pps = 1.6;
	s.tx = 45000;
	s.rx = 44990;
	s.offered_pps = 30000.5;
	s.loss_ratio = 10.0 / 45000;
	s.fwd_pps = s.fwd_a = 29992;
	json_t *rec = trial_record(&s, &tt);
	T_STREQ(keys(rec), "seq,kind,intended_pps,duration_s,warmup_s,per,gen,sink,exit,"
		"fwd_rate_from,window_s,fwd_rate_res_pps,tx_frames,rx_frames,offered_pps,"
		"loss_ratio,fwd_rate_pps,fwd_rate_pps_a,fwd_rate_pps_b,latency_ns,end_utc");
	T_TRUE(has(rec, "{\"seq\":2,\"kind\":\"fixed\",\"intended_pps\":30000.0,"
		   "\"duration_s\":1.5,\"warmup_s\":0.29999999999999999,\"per\":\"direction\""));
	T_TRUE(has(rec, "\"fwd_rate_from\":\"" RES_FWD_WINDOW "\",\"window_s\":1.25,"));
	T_TRUE(has(rec, "\"tx_frames\":45000,\"rx_frames\":44990,\"offered_pps\":30000.5,"));
	T_TRUE(has(rec, "\"fwd_rate_pps_b\":null,\"latency_ns\":{\"p50\":800},"
		   "\"end_utc\":\"1970-01-01T00:00:00Z\"}"));
	json_decref(rec);
	result_free(&s, &tt);
}

/* As fast as the sender can, no load window (and why), a failure: its error last;
 * interrupted, the error says so. */
static void t_fallback_error(void)
{
	struct trial_req r = { .load_pps = 0, .duration_s = 1, .kind = "rig", .seq = 0 };
	struct trial_tools tt = { 0 };
	struct trial_res s;
	result_init(&s, &r);
	add(&tt, &tt.tl[0], &gen_box, true, "{\"tx_pkts\": 10}");
	add(&tt, &tt.tl[1], &sink_box, false, "{\"rx_pkts\": 0}");
	s.per_aggregate = true;
	s.nowin = "the load window was not read";
	s.res_pps = s.offered_pps = s.loss_ratio = s.fwd_pps = s.fwd_a = NAN;
	snprintf(s.err, sizeof(s.err), "sink (sink box sink, this host) exited with status 1");
	json_t *rec = trial_record(&s, &tt);
	T_STREQ(keys(rec), "seq,kind,intended_pps,duration_s,warmup_s,per,gen,sink,exit,"
		"fwd_rate_from,fwd_rate_fallback,fwd_rate_res_pps,tx_frames,rx_frames,"
		"offered_pps,loss_ratio,fwd_rate_pps,fwd_rate_pps_a,fwd_rate_pps_b,end_utc,error");
	T_TRUE(has(rec, "\"intended_pps\":\"max\""));
	T_TRUE(has(rec, "\"per\":\"aggregate\""));
	T_TRUE(has(rec, "\"fwd_rate_from\":\"" RES_FWD_FRAMES "\",\"fwd_rate_fallback\":"
		   "\"the load window was not read\",\"fwd_rate_res_pps\":null"));
	T_TRUE(has(rec, "\"error\":\"sink (sink box sink, this host) exited with status 1\"}"));
	json_decref(rec);
	s.interrupted = true;
	rec = trial_record(&s, &tt);
	T_TRUE(has(rec, "\"error\":\"interrupted\"}"));
	json_decref(rec);
	result_free(&s, &tt);
}

/* Two senders at one instant: per box, the streams, the frames lost and the start. */
static void t_boxes_start(void)
{
	struct trial_req r = { .load_pps = 1000, .duration_s = 1, .kind = "search", .seq = 1 };
	struct trial_tools tt = { 0 };
	struct trial_res s;
	result_init(&s, &r);
	add(&tt, &tt.tl[0], &gen_box, true, "{\"tx_pkts\": 100, \"test_pkts\": 100, "
	    "\"pps\": 500.0, \"first_tx_real_ns\": 5000002000}");
	add(&tt, &tt.tl[1], &gen2_box, true, "{\"tx_pkts\": 100, \"test_pkts\": 100, "
	    "\"pps\": 500.0, \"first_tx_real_ns\": 5000004000}");
	add(&tt, &tt.tl[2], &sink_box, false, "{\"rx_pkts\": 199, \"streams\": ["
	    "{\"stream\": 1, \"rx_pkts\": 100, \"lost_pkts\": 0, \"expect\": 100},"
	    "{\"stream\": 3, \"rx_pkts\": 99, \"lost_pkts\": 1, \"expect\": 100}]}");
	tt.nga = 2;
	tt.nsa = 1;
	s.fwd_b = s.fwd_a = s.fwd_pps = s.res_pps = s.offered_pps = s.loss_ratio = NAN;
	s.several = true;
	s.at_real = 5000000000ULL;
	s.lead_s = 0.5;
	json_t *rec = trial_record(&s, &tt);
	T_STREQ(keys(rec), "seq,kind,intended_pps,duration_s,warmup_s,per,gen,sink,exit,"
		"fwd_rate_from,fwd_rate_res_pps,tx_frames,rx_frames,offered_pps,loss_ratio,"
		"fwd_rate_pps,fwd_rate_pps_a,fwd_rate_pps_b,boxes,streams,lost_frames,start,"
		"end_utc");
	T_STREQ(keys(json_array_get(json_object_get(rec, "boxes"), 0)),
		"name,role,box,where,port,threads,stream,tx_frames,offered_pps,rx_frames,"
		"lost_frames");
	T_STREQ(keys(json_array_get(json_object_get(rec, "boxes"), 2)),
		"name,role,box,where,port,threads,rx_frames,streams,fwd_rate_pps");
	T_TRUE(has(rec, "\"streams\":[{\"stream\":1,\"box\":\"gen\",\"sent\":100,"
		   "\"received\":100,\"lost\":0},{\"stream\":3,\"box\":\"gen2\",\"sent\":100,"
		   "\"received\":99,\"lost\":1}],\"lost_frames\":1,"));
	T_STREQ(keys(json_object_get(rec, "start")), "at_real_ns,lead_s,boxes,spread_ns,"
		"spread_bound_ns");
	T_TRUE(has(rec, "\"gen2\":{\"clock_offset_ns\":1000.0,\"clock_bound_ns\":500.0,"
		   "\"first_frame_ns\":3000.0}},\"spread_ns\":1000.0,\"spread_bound_ns\":500.0}"));
	json_decref(rec);
	result_free(&s, &tt);
}

/* Latency bounds: per bound, the frames of every sink in buckets reaching above it
 * ("frames", the bucket holding the bound included) and wholly above it ("surely"),
 * plus implausible delays; the sink's buckets stay out of the record's latency_ns; a
 * sink without buckets gives null and names itself. */
static void t_late_frames(void)
{
	static struct trial_box sink_b = { .name = "sink_b", .spec = "afpacket:gen0", .threads = 1 };
	double bounds[3] = { 100000, 98303, 1000000 };
	struct trial_req r = { .load_pps = 1000, .duration_s = 1, .kind = "search", .seq = 1,
			       .late_ns = bounds, .nlate = 3 };
	struct trial_tools tt = { 0 };
	struct trial_res s;
	result_init(&s, &r);
	add(&tt, &tt.tl[0], &gen_box, true, "{\"tx_pkts\": 100}");
	/* 100000 ns lies in [98304, 100351]: 7 frames may be later, 5 surely are */
	add(&tt, &tt.tl[1], &sink_box, false, "{\"rx_pkts\": 60, \"implausible_delay_pkts\": 1,"
	    " \"latency_ns\": {\"p50\": 900, \"buckets\": [[896, 927, 40], [98304, 100351, 7],"
	    " [100352, 102399, 5]]}}");
	add(&tt, &tt.tl[2], &sink_b, false, "{\"rx_pkts\": 40, \"latency_ns\": {\"p50\": 900,"
	    " \"buckets\": [[896, 927, 37], [1048576, 1081343, 3]]}}");
	s.fwd_b = s.fwd_a = s.fwd_pps = s.res_pps = s.offered_pps = s.loss_ratio = NAN;
	json_array_append(s.sink, tt.tl[1].sum);
	json_array_append(s.sink, tt.tl[2].sum);
	json_t *rec = trial_record(&s, &tt);
	T_TRUE(has(rec, "\"latency_ns\":{\"p50\":900},"));
	/* nor in the sinks' summaries the record carries */
	T_TRUE(has(rec, "\"sink\":[{\"rx_pkts\":60,\"implausible_delay_pkts\":1,"
		   "\"latency_ns\":{\"p50\":900}},{\"rx_pkts\":40,\"latency_ns\":{\"p50\":900}}]"));
	/* 100000: 7 + 5 + 1 implausible + 3 (sink_b) = 16 frames, 5 + 1 + 3 = 9 surely;
	 * 98303 starts no bucket's interior: the 98304 bucket is wholly above it (exact);
	 * 1 ms: only sink_b's 3 and the implausible one */
	T_TRUE(has(rec, "\"late_frames\":[{\"bound_ns\":100000.0,\"frames\":16,\"surely\":9},"
		   "{\"bound_ns\":98303.0,\"frames\":16,\"surely\":16},"
		   "{\"bound_ns\":1000000.0,\"frames\":4,\"surely\":4}]"));
	json_decref(rec);
	/* a sink without buckets (the record took both sinks' out: the first's back) */
	T_TRUE(json_object_get(json_object_get(tt.tl[2].sum, "latency_ns"), "buckets") == NULL);
	json_object_set_new(json_object_get(tt.tl[1].sum, "latency_ns"), "buckets",
			    json_loads("[[896, 927, 40]]", 0, NULL));
	r.nlate = 1;
	rec = trial_record(&s, &tt);
	T_TRUE(has(rec, "\"late_frames\":[{\"bound_ns\":100000.0,\"frames\":null,"
		   "\"missing\":\"sink_b\"}]"));
	json_decref(rec);
	/* without bounds no late_frames at all: results of other searches are unchanged */
	r.nlate = 0;
	rec = trial_record(&s, &tt);
	T_TRUE(json_object_get(rec, "late_frames") == NULL);
	json_decref(rec);
	result_free(&s, &tt);
}

int main(void)
{
	T_RUN(t_windowed);
	T_RUN(t_fallback_error);
	T_RUN(t_boxes_start);
	T_RUN(t_late_frames);
	return t_done();
}
