/* SPDX-License-Identifier: BSD-2-Clause */
/* sink_report.c — interval lines, the summary and the loss attribution of ppslab-sink (see
 * sink_report.h). Called by main.c from the main thread only, outside the hot path. */
#include "sink_report.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "jout.h"
#include "version.h"

#define REP_HEADER_EVERY 20   /* lines between repeated headers, as netstat -w does */

void sink_report_loss_attribute(uint64_t lost, uint64_t sender_holes, uint64_t ring_drops,
		    uint64_t if_drops, struct loss_split *out)
{
	out->lost_pkts = lost;
	out->sender_unsent_pkts = sender_holes < lost ? sender_holes : lost;
	uint64_t left = lost - out->sender_unsent_pkts;
	out->sink_dropped_pkts = ring_drops < left ? ring_drops : left;
	left -= out->sink_dropped_pkts;
	out->host_dropped_pkts = if_drops < left ? if_drops : left;
	out->network_lost_pkts = left - out->host_dropped_pkts;
}

static uint64_t d(uint64_t b, uint64_t a)
{
	return b >= a ? b - a : 0;
}

uint64_t sink_report_if_rx_drops(const struct if_counters *a, const struct if_counters *b)
{
	return d(b->rx_dropped, a->rx_dropped) + d(b->rx_missed_errors, a->rx_missed_errors) +
	       d(b->rx_fifo_errors, a->rx_fifo_errors) + d(b->rx_over_errors, a->rx_over_errors);
}

void sink_report_header(FILE *f, const struct sink_report_cfg *c)
{
	if (c->json)
		return;
	fprintf(f, "%8s %29s\n", "", "input        (test frames)");
	fprintf(f, "%8s %10s %6s %7s %13s %9s %8s %7s %9s\n", "time", "packets", "errs",
		"idrops", "bytes", "lost", "reorder", "dup", "p99_us");
	fflush(f);
}

void sink_report_interval(FILE *f, const struct sink_report_cfg *c, const struct sink_report_sample *cur,
		  const struct sink_report_sample *prev, const struct hist *h, int late,
		  uint64_t *lines)
{
	const struct sink_totals *a = &cur->t, *b = &prev->t;
	uint64_t dt = cur->t_ns - prev->t_ns;
	uint64_t ring = d(a->ring_drops, b->ring_drops), ifd = d(cur->if_drops, prev->if_drops);
	if (c->json) {
		json_t *o = jout_obj("sink", "interval");
		jset_u64(o, "t_ns", cur->t_ns);
		jset_u64(o, "dt_ns", dt);
		jset_u64(o, "rx_pkts", d(a->rx_pkts, b->rx_pkts));
		jset_u64(o, "rx_bytes", d(a->rx_bytes, b->rx_bytes));
		jset_u64(o, "rx_frames", d(a->rx_frames, b->rx_frames));
		jset_f(o, "pps", rate_per_s(a->rx_pkts, b->rx_pkts, dt));
		jset_i64(o, "lost_pkts", (int64_t)(a->lost_now - b->lost_now));
		jset_u64(o, "dup_pkts", d(a->dup, b->dup));
		jset_u64(o, "reordered_pkts", d(a->reord, b->reord));
		jset_u64(o, "err_pkts", d(a->err, b->err));
		jset_u64(o, "foreign_pkts", d(a->foreign, b->foreign));
		jset_u64(o, "other_pkts", d(a->other, b->other));
		jset_u64(o, "ring_drops", ring);
		jset_u64(o, "if_drops", ifd);
		jset_u64(o, "if_rx_packets", d(cur->if_rx, prev->if_rx));
		jset_u64(o, "latency_count", h->count);
		if (h->count) {
			jset_u64(o, "latency_p50_ns", hist_quantile(h, 0.50));
			jset_u64(o, "latency_p99_ns", hist_quantile(h, 0.99));
			jset_u64(o, "latency_max_ns", h->max);
		}
		jset_u64(o, "late_workers", (uint64_t)late);
		jout_emit(f, o);
		return;
	}
	if (*lines && *lines % REP_HEADER_EVERY == 0)
		sink_report_header(f, c);
	(*lines)++;
	/* every count with the same thousands separators (one formatter per line) */
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32], p99[24];
	int64_t lost = (int64_t)(a->lost_now - b->lost_now);
	if (h->count)
		snprintf(p99, sizeof(p99), "%.1f%s", hist_quantile(h, 0.99) / 1e3, late ? "*" : "");
	else
		snprintf(p99, sizeof(p99), "-");
	b6[0] = '-';
	fmt_thousands(lost < 0 ? (uint64_t)-lost : (uint64_t)lost, b6 + 1, sizeof(b6) - 1);
	fprintf(f, "%8.1f %10s %6s %7s %13s %9s %8s %7s %9s\n", (double)cur->t_ns / 1e9,
		fmt_thousands(d(a->rx_pkts, b->rx_pkts), b1, sizeof(b1)),
		fmt_thousands(d(a->err, b->err), b3, sizeof(b3)),
		fmt_thousands(ring + ifd, b4, sizeof(b4)),
		fmt_thousands(d(a->rx_bytes, b->rx_bytes), b2, sizeof(b2)),
		lost < 0 ? b6 : b6 + 1, fmt_thousands(d(a->reord, b->reord), b5, sizeof(b5)),
		fmt_thousands(d(a->dup, b->dup), b7, sizeof(b7)), p99);
	fflush(f);
}

static json_t *log2_json(const uint64_t *h, int n)
{
	json_t *arr = json_array();
	int last = -1;
	for (int i = 0; i < n; i++)
		if (h[i])
			last = i;
	for (int i = 0; i <= last; i++)
		json_array_append_new(arr, json_integer((json_int_t)h[i]));
	return arr;
}

static json_t *hist_json(const struct hist *h, bool pdv)
{
	json_t *o = jout_hist(h);
	if (pdv && h->count)   /* RFC 5481 PDV: D − min D, at the 99.9th percentile */
		jset_u64(o, "pdv_p999", hist_quantile(h, 0.999) - h->min);
	return o;
}

/* The non-empty buckets of h as [lo, hi, count] (hi inclusive): what a reader needs to
 * count the frames later than a bound of its own (docs/sink.md). */
static json_t *hist_buckets(const struct hist *h)
{
	json_t *arr = json_array();
	for (unsigned i = 0; i < HIST_BUCKETS && h->count; i++)
		if (h->bucket[i])
			json_array_append_new(arr, json_pack("[I,I,I]", (json_int_t)hist_bucket_lo(i),
							     (json_int_t)hist_bucket_hi(i),
							     (json_int_t)h->bucket[i]));
	return arr;
}

static const char *clock_name(unsigned seen)
{
	switch (seen) {
	case 0: return "none";
	case 1: return "realtime";
	case 2: return "monotonic";
	default: return "mixed";
	}
}

/* What the delay figures assume, in one sentence, by the sender's clock. */
static const char *clock_note(unsigned seen)
{
	switch (seen) {
	case 0: return "no delay measured";
	case 1: return "sender CLOCK_REALTIME stamp vs the kernel's CLOCK_REALTIME receive "
		       "stamp: one-way delay is valid only when both clocks agree (same host, "
		       "or PTP/NTP-synchronized boxes); jitter and IPDV are valid regardless";
	case 2: return "sender CLOCK_MONOTONIC stamp vs this host's CLOCK_MONOTONIC: "
		       "one-way delay is valid only with sender and sink on the same host; "
		       "jitter and IPDV are valid regardless";
	default: return "streams stamped with different clocks (realtime and monotonic): "
			"compare one-way delays per stream only";
	}
}

/* The stream's gap list (gap.h), times also relative to its first measured frame. */
static void gaps_json(json_t *so, const struct sink_stream *st)
{
	const struct gap_book *g = &st->gaps;
	if (st->split) {   /* each worker saw a part: the parts' gaps are not the stream's */
		jset_s(so, "gaps", NULL);
		jset_s(so, "longest_gap_ns", NULL);
		jset_s(so, "last_gap", NULL);
		return;
	}
	json_t *arr = json_array();
	for (uint32_t i = 0; i < g->nlist; i++) {
		const struct gap *x = &g->list[i];
		json_t *o = json_object();
		jset_u64(o, "before_ns", x->before_ns);
		jset_u64(o, "after_ns", x->after_ns);
		/* signed: a wall clock stepped back during the run shows, not wraps */
		jset_i64(o, "before_rel_ns", (int64_t)(x->before_ns - st->first_rx_ns));
		jset_i64(o, "after_rel_ns", (int64_t)(x->after_ns - st->first_rx_ns));
		jset_u64(o, "duration_ns", gap_duration(x));
		jset_u64(o, "seq_before", x->seq_before);
		jset_u64(o, "seq_after", x->seq_after);
		jset_u64(o, "lost_pkts", x->lost);
		jset_u64(o, "reordered_pkts", x->reordered);
		jset_b(o, "reordered", x->reordered != 0);
		jset_u64(o, "merged_gaps", x->merged);
		/* the longest silence in it: duration_ns for a gap of its own; of a merged
		 * record, its longest gap's (longest_gap_ns is the largest of these) */
		jset_u64(o, "silence_ns", x->silence_ns);
		json_array_append_new(arr, o);
	}
	json_object_set_new(so, "gaps", arr);
	jset_u64(so, "gap_count", gap_count(g));
	jset_u64(so, "gaps_unlisted", g->unlisted);
	jset_u64(so, "gaps_unlisted_lost_pkts", g->unlisted_lost);
	jset_u64(so, "gaps_early_final", g->early_final);
	jset_u64(so, "gap_merges", g->merges);
	jset_u64(so, "gap_lost_pkts", gap_lost(g));
	jset_u64(so, "longest_gap_ns", g->longest_ns);
	/* the latest loss, whatever the list kept (gap.h) */
	json_t *lo = json_null();
	if (g->have_last) {
		lo = json_object();
		jset_u64(lo, "before_ns", g->last.before_ns);
		jset_u64(lo, "after_ns", g->last.after_ns);
		jset_u64(lo, "seq_before", g->last.seq_before);
		jset_u64(lo, "seq_after", g->last.seq_after);
		jset_u64(lo, "lost_pkts", g->last.lost);
		jset_u64(lo, "reordered_pkts", g->last.reordered);
	}
	json_object_set_new(so, "last_gap", lo);
	jset_b(so, "last_gap_inexact", g->last_inexact);
}

static void stream_json(json_t *arr, const struct sink_stream *st)
{
	json_t *so = json_object();
	const struct seq_stream *q = &st->seq;
	jset_u64(so, "stream", st->id);
	if (st->worker >= 0)
		jset_u64(so, "thread", (uint64_t)st->worker);
	else
		jset_s(so, "thread", NULL);
	jset_u64(so, "rx_pkts", q->rx_pkts);
	jset_u64(so, "rx_bytes", st->rx_bytes);
	jset_u64(so, "lost_pkts", q->lost_final);
	jset_u64(so, "dup_pkts", q->dup_pkts);
	jset_u64(so, "reordered_pkts", q->reordered_pkts);
	jset_u64(so, "late_pkts", q->late_pkts);
	jset_u64(so, "first_seq", q->floor);
	jset_u64(so, "next_seq", q->next_exp);
	jset_u64(so, "first_rx_ns", st->first_rx_ns);
	jset_u64(so, "last_rx_ns", st->last_rx_ns);
	if (st->have_expect)
		jset_u64(so, "expect", st->expect);
	else
		jset_s(so, "expect", NULL);
	jset_b(so, "beyond_expect", st->beyond_expect);
	jset_u64(so, "sender_holes", st->sender_holes);
	jset_u64(so, "warmup_pkts", st->warmup_pkts);
	jset_u64(so, "before_floor_pkts", q->before_floor_pkts);
	uint64_t sent = q->rx_pkts + q->lost_final;
	jset_f(so, "loss_pct", sent ? 100.0 * (double)q->lost_final / (double)sent : 0.0);
	jset_u64(so, "max_reorder_extent", q->max_extent);
	jset_u64(so, "reorder_extent_truncated", q->extent_truncated);
	json_object_set_new(so, "reorder_extent_log2_hist", log2_json(q->extent_hist, SEQ_HIST_LOG2));
	jset_u64(so, "max_loss_burst", q->max_loss_burst);
	json_object_set_new(so, "loss_burst_log2_hist", log2_json(q->loss_burst_hist, SEQ_HIST_LOG2));
	jset_s(so, "clock", clock_name(st->clock_seen));
	json_object_set_new(so, "latency_ns", hist_json(&st->delay.owd, true));
	json_object_set_new(so, "ipdv_ns", hist_json(&st->delay.ipdv, false));
	if (st->by_size) {   /* --delay-by-size: the one-way delays per frame size */
		json_t *bs = json_array();
		const struct delay_sizes *z = st->by_size;
		unsigned ord[DELAY_SIZES];   /* in size order, whichever came first */
		for (unsigned i = 0; i < z->n; i++) {
			unsigned j = i;
			for (; j > 0 && z->size[ord[j - 1]] > z->size[i]; j--)
				ord[j] = ord[j - 1];
			ord[j] = i;
		}
		for (unsigned i = 0; i < z->n; i++) {
			json_t *e = hist_json(&z->owd[ord[i]], true);
			jset_u64(e, "size", z->size[ord[i]]);
			json_array_append_new(bs, e);
		}
		json_object_set_new(so, "latency_by_size", bs);
		jset_u64(so, "latency_other_size_pkts", st->by_size->other_pkts);
	}
	jset_u64(so, "neg_delay_pkts", st->delay.neg_pkts);
	jset_u64(so, "implausible_delay_pkts", st->delay.implausible_pkts);
	jset_f(so, "jitter_ns", st->delay.jitter_ns);
	jset_b(so, "split", st->split);
	gaps_json(so, st);
	json_array_append_new(arr, so);
}

/* The summary's numbers, gathered once from the streams and the interfaces. */
struct summary {
	const struct sink_report_cfg *c;
	struct sink *s;
	const struct sink_totals *t;
	const struct rep_iface *ifs;
	int nifs;
	uint64_t dur_ns;
	uint64_t lost, dup, reord, late, if_drops, if_rx, crc, holes;
	unsigned clocks;
	struct hist *all;     /* every stream's one-way delays; NULL without memory */
	double jitter_max;
	struct loss_split ls;
	bool delay_valid;
	uint64_t active_ns;   /* from the first to the last test frame */
	double pps;
};

static void summary_gather(struct summary *m)
{
	struct sink *s = m->s;
	const struct sink_totals *t = m->t;
	const struct rep_iface *ifs = m->ifs;
	int nifs = m->nifs;
	m->all = malloc(sizeof(*m->all));
	if (m->all)
		hist_init(m->all);
	for (int i = 0; i < SINK_STREAMS; i++) {
		struct sink_stream *st = s->streams[i];
		if (!st)
			continue;
		m->lost += st->seq.lost_final;
		m->holes += st->sender_holes < st->seq.lost_final ? st->sender_holes : st->seq.lost_final;
		m->dup += st->seq.dup_pkts;
		m->reord += st->seq.reordered_pkts;
		m->late += st->seq.late_pkts;
		m->clocks |= st->clock_seen;
		if (m->all)
			hist_merge(m->all, &st->delay.owd);
		if (st->delay.jitter_ns > m->jitter_max)
			m->jitter_max = st->delay.jitter_ns;
	}
	for (int i = 0; i < nifs; i++) {
		if (!ifs[i].ok)
			continue;
		m->if_drops += sink_report_if_rx_drops(&ifs[i].c0, &ifs[i].c1);
		m->if_rx += d(ifs[i].c1.rx_packets, ifs[i].c0.rx_packets);
		m->crc += d(ifs[i].c1.rx_crc_errors, ifs[i].c0.rx_crc_errors);
	}
	sink_report_loss_attribute(m->lost, m->holes, t->ring_drops, m->if_drops, &m->ls);
	m->delay_valid = !t->neg_delay && !t->implausible_delay;
	/* The rate is the traffic's, from the first to the last test frame, not the sink's
	 * lifetime (which includes the wait before the sender starts and the idle time). */
	m->active_ns = t->first_test_ns && t->last_test_ns > t->first_test_ns
		       ? t->last_test_ns - t->first_test_ns : 0;
	uint64_t arrived = t->cls[PKT_TEST];
	m->pps = m->active_ns && arrived > 1 ? (double)(arrived - 1) * 1e9 / (double)m->active_ns
					     : 0;
}

static json_t *summary_json_ifaces(const struct rep_iface *ifs, int nifs)
{
	json_t *ja = json_array();
	for (int i = 0; i < nifs; i++) {
		if (!ifs[i].ok)
			continue;
		const struct if_counters *a = &ifs[i].c0, *b = &ifs[i].c1;
		json_t *jf = json_object();
		jset_s(jf, "name", ifs[i].name);
		jset_u64(jf, "rx_packets", d(b->rx_packets, a->rx_packets));
		jset_u64(jf, "rx_bytes", d(b->rx_bytes, a->rx_bytes));
		jset_u64(jf, "rx_dropped", d(b->rx_dropped, a->rx_dropped));
		jset_u64(jf, "rx_missed_errors", d(b->rx_missed_errors, a->rx_missed_errors));
		jset_u64(jf, "rx_fifo_errors", d(b->rx_fifo_errors, a->rx_fifo_errors));
		jset_u64(jf, "rx_over_errors", d(b->rx_over_errors, a->rx_over_errors));
		jset_u64(jf, "rx_crc_errors", d(b->rx_crc_errors, a->rx_crc_errors));
		jset_u64(jf, "rx_errors", d(b->rx_errors, a->rx_errors));
		jset_u64(jf, "rx_nohandler", d(b->rx_nohandler, a->rx_nohandler));
		json_array_append_new(ja, jf);
	}
	return ja;
}

static json_t *summary_json_workers(const struct sink *s)
{
	json_t *wa = json_array();
	for (int k = 0; k < s->nworkers; k++) {
		const struct sink_counters *wc = &s->w[k]->ctr;
		json_t *wo = json_object();
		jset_u64(wo, "thread", (uint64_t)k);
		jset_u64(wo, "rx_frames", atomic_load(&wc->rx_frames));
		jset_u64(wo, "rx_pkts", atomic_load(&wc->rx_pkts));
		jset_u64(wo, "ring_drops", atomic_load(&wc->ring_drops));
		json_t *ids = json_array();
		for (int i = 0; i < SINK_STREAMS; i++)
			if (s->streams[i] && s->streams[i]->worker == k)
				json_array_append_new(ids, json_integer(i));
		json_object_set_new(wo, "streams", ids);
		json_array_append_new(wa, wo);
	}
	return wa;
}

/* Signed test frames per tag stack (docs/sink.md#vlans). */
static json_t *summary_json_vlans(const struct sink *s)
{
	json_t *va = json_array();
	for (unsigned i = 0; i < s->nvlans; i++) {
		const struct sink_vlan_count *v = &s->vlans[i];
		json_t *vo = json_object();
		jset_u64(vo, "tags", v->n);
		if (v->n)
			jset_u64(vo, "vid", v->vid);
		else
			json_object_set_new(vo, "vid", json_null());
		if (v->n == 2)
			jset_u64(vo, "outer_vid", v->outer_vid);
		else
			json_object_set_new(vo, "outer_vid", json_null());
		jset_u64(vo, "pkts", v->pkts);
		jset_b(vo, "wrong_vlan", v->wrong);
		json_array_append_new(va, vo);
	}
	return va;
}

static void summary_json(FILE *f, const struct summary *m, int sig)
{
	const struct sink_report_cfg *c = m->c;
	struct sink *s = m->s;
	const struct sink_totals *t = m->t;
	json_t *o = jout_obj("sink", "summary");
	jset_s(o, "version", ppslab_version());
	json_t *ports = json_array();
	for (int i = 0; i < c->nports; i++)
		json_array_append_new(ports, json_string(c->port_specs[i]));
	json_object_set_new(o, "ports", ports);
	jset_u64(o, "dport", c->dport);
	jset_u64(o, "threads", (uint64_t)s->nworkers);
	jset_u64(o, "rx_frames", t->rx_frames);
	jset_u64(o, "rx_pkts", t->rx_pkts);
	jset_u64(o, "rx_bytes", t->rx_bytes);
	jset_u64(o, "lost_pkts", m->lost);
	jset_u64(o, "dup_pkts", m->dup);
	jset_u64(o, "reordered_pkts", m->reord);
	jset_u64(o, "late_pkts", m->late);
	jset_u64(o, "err_pkts", t->err);
	jset_u64(o, "foreign_pkts", t->foreign);
	jset_u64(o, "other_pkts", t->other);
	jset_u64(o, "warmup_pkts", t->warmup);
	jset_u64(o, "before_floor_pkts", t->before_floor);
	if (s->cfg.epoch_on)
		jset_u64(o, "epoch", s->cfg.epoch);
	else
		jset_s(o, "epoch", NULL);
	jset_u64(o, "stale_pkts", t->stale);
	int64_t ov;
	if (sink_stale_overlap(s, &ov))
		jset_i64(o, "stale_overlap_ns", ov);
	else
		jset_s(o, "stale_overlap_ns", NULL);
	uint64_t sl;
	bool sl_tr;
	if (sink_stale_load(s, &sl, &sl_tr)) {
		jset_u64(o, "stale_load_pkts", sl);
		jset_b(o, "stale_load_truncated", sl_tr);
	} else {
		jset_s(o, "stale_load_pkts", NULL);
		jset_s(o, "stale_load_truncated", NULL);
	}
	jset_u64(o, "ring_drops", t->ring_drops);
	jset_u64(o, "if_rx_packets", m->if_rx);
	jset_u64(o, "if_drops", m->if_drops);
	jset_u64(o, "if_crc_errors", m->crc);
	jset_u64(o, "sender_unsent_pkts", m->ls.sender_unsent_pkts);
	jset_u64(o, "sink_dropped_pkts", m->ls.sink_dropped_pkts);
	jset_u64(o, "host_dropped_pkts", m->ls.host_dropped_pkts);
	jset_u64(o, "network_lost_pkts", m->ls.network_lost_pkts);
	jset_u64(o, "duration_ns", m->dur_ns);
	jset_u64(o, "active_ns", m->active_ns);
	jset_f(o, "pps", m->pps);
	if (c->expect_all)
		jset_u64(o, "expect", c->expect_all);
	jset_u64(o, "expect_files", (uint64_t)c->nexpect_files);
	jset_s(o, "expect_error", c->expect_error);
	jset_u64(o, "warmup_ns", c->warmup_ns);
	json_t *cls = json_object();
	for (int k = 1; k < PKT_CLASS_MAX; k++)
		jset_u64(cls, pkt_class_name((enum pkt_class)k), t->cls[k]);
	json_object_set_new(o, "classes", cls);
	json_object_set_new(o, "interfaces", summary_json_ifaces(m->ifs, m->nifs));
	jset_s(o, "delay_clock", clock_name(m->clocks));
	jset_s(o, "delay_note", clock_note(m->clocks));
	jset_b(o, "delay_valid", m->delay_valid);
	jset_u64(o, "neg_delay_pkts", t->neg_delay);
	jset_u64(o, "implausible_delay_pkts", t->implausible_delay);
	jset_u64(o, "max_delay_ns", c->max_delay_ns);
	jset_u64(o, "gap_min_ns", c->gap_min_ns);
	jset_u64(o, "gap_list", c->gap_list);
	json_object_set_new(o, "latency_ns", m->all ? hist_json(m->all, true) : json_null());
	if (m->all)
		json_object_set_new(json_object_get(o, "latency_ns"), "buckets",
				    hist_buckets(m->all));
	jset_f(o, "jitter_max_ns", m->jitter_max);
	jset_s(o, "vlan_expect", c->vlan);
	json_object_set_new(o, "vlans", summary_json_vlans(s));
	jset_u64(o, "vlans_other_pkts", s->vlans_other);
	json_object_set_new(o, "workers", summary_json_workers(s));
	jset_u64(o, "split_streams", s->split_streams);
	if (s->cfg.delay_by_size)
		jset_u64(o, "latency_by_size_unkept_streams",
			 atomic_load(&s->by_size_unkept));
	json_t *streams = json_array();
	for (int i = 0; i < SINK_STREAMS; i++)
		if (s->streams[i])
			stream_json(streams, s->streams[i]);
	json_object_set_new(o, "streams", streams);
	jset_b(o, "interrupted", sig != 0);
	jout_emit(f, o);
}

static void summary_text(FILE *f, const struct summary *m)
{
	const struct sink_report_cfg *c = m->c;
	struct sink *s = m->s;
	const struct sink_totals *t = m->t;
	const struct rep_iface *ifs = m->ifs;
	int nifs = m->nifs;
	uint64_t dur_ns = m->dur_ns;
	char b1[32], b2[32], b3[32], n[7][32];
	fprintf(f, "received %s test frames (%s pps over %.3f s from the first to the last) in "
		"%.3f s: lost %s, duplicated %s, reordered %s; errors %s, foreign %s, other %s; "
		"ring drops %s\n",
		fmt_thousands(t->rx_pkts, b1, sizeof(b1)),
		fmt_thousands((uint64_t)(m->pps + 0.5), b2, sizeof(b2)), (double)m->active_ns / 1e9,
		(double)dur_ns / 1e9, fmt_thousands(m->lost, n[0], sizeof(n[0])),
		fmt_thousands(m->dup, n[1], sizeof(n[1])), fmt_thousands(m->reord, n[2], sizeof(n[2])),
		fmt_thousands(t->err, n[3], sizeof(n[3])), fmt_thousands(t->foreign, n[4], sizeof(n[4])),
		fmt_thousands(t->other, n[5], sizeof(n[5])),
		fmt_thousands(t->ring_drops, n[6], sizeof(n[6])));
	fprintf(f, "loss: %llu lost = %llu never sent (sender's holes) + %llu dropped by the sink's "
		"ring + %llu dropped by the host before the sink (interface counters) + %llu lost "
		"in the network\n", (unsigned long long)m->lost,
		(unsigned long long)m->ls.sender_unsent_pkts, (unsigned long long)m->ls.sink_dropped_pkts,
		(unsigned long long)m->ls.host_dropped_pkts, (unsigned long long)m->ls.network_lost_pkts);
	int64_t ov;
	if (t->stale && sink_stale_overlap(s, &ov))
		fprintf(f, "stale: %llu frames of another epoch (an earlier trial's), not counted; "
			"the last %.6f s %s this epoch's first frame was sent\n",
			(unsigned long long)t->stale, (double)(ov < 0 ? -ov : ov) / 1e9,
			ov > 0 ? "after" : "before");
	else if (t->stale)
		fprintf(f, "stale: %llu frames of another epoch (an earlier trial's), not counted\n",
			(unsigned long long)t->stale);
	if (t->err || t->other) {
		fprintf(f, "classes:");
		for (int k = 1; k < PKT_CLASS_MAX; k++)
			if (t->cls[k])
				fprintf(f, " %s %llu", pkt_class_name((enum pkt_class)k),
					(unsigned long long)t->cls[k]);
		fprintf(f, "\n");
	}
	for (int i = 0; i < nifs; i++) {
		if (!ifs[i].ok)
			continue;
		const struct if_counters *a = &ifs[i].c0, *b = &ifs[i].c1;
		fprintf(f, "interface %s: %s rx packets; dropped %llu, missed %llu, fifo %llu, "
			"over %llu, crc %llu\n", ifs[i].name,
			fmt_thousands(d(b->rx_packets, a->rx_packets), b3, sizeof(b3)),
			(unsigned long long)d(b->rx_dropped, a->rx_dropped),
			(unsigned long long)d(b->rx_missed_errors, a->rx_missed_errors),
			(unsigned long long)d(b->rx_fifo_errors, a->rx_fifo_errors),
			(unsigned long long)d(b->rx_over_errors, a->rx_over_errors),
			(unsigned long long)d(b->rx_crc_errors, a->rx_crc_errors));
	}
	fprintf(f, "delay: %s; %llu negative, %llu implausible (> %.3f s)%s\n", clock_note(m->clocks),
		(unsigned long long)t->neg_delay, (unsigned long long)t->implausible_delay,
		(double)c->max_delay_ns / 1e9, m->delay_valid ? "" : ": CLOCKS DISAGREE, one-way delays are not valid");
	for (unsigned i = 0; i < s->nvlans; i++) {
		const struct sink_vlan_count *v = &s->vlans[i];
		if (!v->n && s->nvlans == 1)
			break;     /* untagged only: nothing to say */
		if (v->n == 2)
			fprintf(f, "  vlan %u,%u (QinQ): %llu test frames%s\n", v->outer_vid, v->vid,
				(unsigned long long)v->pkts, v->wrong ? " (wrong_vlan)" : "");
		else if (v->n)
			fprintf(f, "  vlan %u: %llu test frames%s\n", v->vid,
				(unsigned long long)v->pkts, v->wrong ? " (wrong_vlan)" : "");
		else
			fprintf(f, "  untagged: %llu test frames%s\n", (unsigned long long)v->pkts,
				v->wrong ? " (wrong_vlan)" : "");
	}
	if (s->vlans_other)
		fprintf(f, "  vlans beyond the first %d: %llu test frames\n", SINK_VLANS,
			(unsigned long long)s->vlans_other);
	for (int i = 0; i < SINK_STREAMS; i++) {
		struct sink_stream *st = s->streams[i];
		if (!st)
			continue;
		const struct hist *h = &st->delay.owd;
		fprintf(f, "  stream %u: rx %llu lost %llu dup %llu reord %llu (max extent %llu); "
			"delay min %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us; "
			"jitter %.2f us; gaps %llu, longest %.3f ms%s\n", st->id,
			(unsigned long long)st->seq.rx_pkts, (unsigned long long)st->seq.lost_final,
			(unsigned long long)st->seq.dup_pkts,
			(unsigned long long)st->seq.reordered_pkts,
			(unsigned long long)st->seq.max_extent,
			(h->count ? h->min : 0) / 1e3, hist_quantile(h, 0.5) / 1e3,
			hist_quantile(h, 0.9) / 1e3, hist_quantile(h, 0.99) / 1e3,
			hist_quantile(h, 0.999) / 1e3, (h->count ? h->max : 0) / 1e3,
			st->delay.jitter_ns / 1e3, (unsigned long long)gap_count(&st->gaps),
			st->gaps.longest_ns / 1e6, st->split ? " (split across threads: inexact)" : "");
	}
}

void sink_report_summary(FILE *f, const struct sink_report_cfg *c, struct sink *s, const struct sink_totals *t,
		 const struct rep_iface *ifs, int nifs, uint64_t dur_ns, int sig)
{
	struct summary m = { .c = c, .s = s, .t = t, .ifs = ifs, .nifs = nifs, .dur_ns = dur_ns };
	summary_gather(&m);
	if (c->json)
		summary_json(f, &m, sig);
	else
		summary_text(f, &m);
	free(m.all);
}
