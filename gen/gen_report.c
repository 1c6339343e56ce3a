/* SPDX-License-Identifier: BSD-2-Clause */
/* gen_report.c — ppslab-gen's interval lines and summary (see gen_report.h). Called by main.c
 * from the main thread, outside the workers' hot loop; pure arithmetic on counter
 * snapshots plus one netlink read of the interface's counters per line. */
#include "gen_report.h"

#include <math.h>
#include <string.h>

#include "clock.h"
#include "fmt.h"
#include "version.h"

void gen_report_init(struct gen_report *r, struct gen *g, const struct gen_info *info,
		     const char *ifname, int json, FILE *out)
{
	memset(r, 0, sizeof(*r));
	r->out = out;
	r->json = json;
	r->g = g;
	r->info = info;
	snprintf(r->ifname, sizeof(r->ifname), "%s", ifname ? ifname : "");
	r->have_if = r->ifname[0] && if_counters_read(r->ifname, &r->if0) == 0;
	r->if_prev = r->if0;
	hist_init(&r->gaps_prev);
}

void gen_report_header(struct gen_report *r)
{
	if (r->json)
		return;
	fprintf(r->out, "%8s %12s %11s %11s %12s %8s %8s %8s %9s %9s\n", "time", "pps",
		"Mbit/s L2", "Mbit/s L1", "if pps", "failed", "full", "late", "gap p99",
		"rate err");
	fflush(r->out);
}

/* A rate for people: thousands, two decimals under 100 pps, "-" when there is none. */
static const char *fmt_pps(double pps, char *b, size_t l)
{
	if (!isfinite(pps))
		snprintf(b, l, "-");
	else if (pps < 100)
		snprintf(b, l, "%.2f", pps);
	else
		fmt_thousands((uint64_t)(pps + 0.5), b, l);
	return b;
}

/* "12.3us" for a gap. */
static const char *fmt_ns(double ns, char *b, size_t l)
{
	if (!isfinite(ns))
		snprintf(b, l, "-");
	else if (ns < 1e3)
		snprintf(b, l, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(b, l, "%.1fus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(b, l, "%.2fms", ns / 1e6);
	else
		snprintf(b, l, "%.2fs", ns / 1e9);
	return b;
}

/* The histogram of what happened since prev: bucket differences. */
static void hist_delta(const struct hist *cur, const struct hist *prev, struct hist *d)
{
	hist_init(d);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t c = cur->bucket[i] - prev->bucket[i];
		if (!c)
			continue;
		d->bucket[i] = c;
		d->count += c;
		if (hist_bucket_lo(i) < d->min)
			d->min = hist_bucket_lo(i);
		d->max = hist_bucket_hi(i);
	}
}

/* Power-of-two buckets [lo, hi, count] (0 on its own), empty ones left out: compact and
 * enough to see bursts. */
static json_t *gaps_log2_json(const struct hist *h)
{
	json_t *arr = json_array();
	uint64_t acc = 0;
	int cur = -1;
	for (unsigned i = 0; i <= HIST_BUCKETS; i++) {
		int b = -2;
		if (i < HIST_BUCKETS) {
			uint64_t lo = hist_bucket_lo(i);
			b = lo ? 64 - __builtin_clzll(lo) : 0;   /* 0, then [2^(b-1), 2^b) */
		}
		if (b != cur) {
			if (acc) {
				json_t *e = json_array();
				uint64_t lo = cur ? 1ULL << (cur - 1) : 0, hi = cur ? (1ULL << cur) - 1 : 0;
				json_array_append_new(e, json_integer((json_int_t)lo));
				json_array_append_new(e, json_integer((json_int_t)hi));
				json_array_append_new(e, json_integer((json_int_t)acc));
				json_array_append_new(arr, e);
			}
			acc = 0;
			cur = b;
		}
		if (i < HIST_BUCKETS)
			acc += h->bucket[i];
	}
	return arr;
}

void gen_report_interval(struct gen_report *r, uint64_t now_ns)
{
	struct gen *g = r->g;
	struct gen_snap s;
	static struct hist gaps, d;    /* large; the reporter is single-threaded */
	struct if_counters ifc;
	uint64_t t = now_ns > g->start_ns ? now_ns - g->start_ns : 0;
	uint64_t dt = t - r->t_prev;
	if (!dt)
		return;
	gen_snapshot(g, &s);
	gen_gaps(g, &gaps);
	hist_delta(&gaps, &r->gaps_prev, &d);
	const struct gen_snap *p = &r->prev;
	uint64_t dpk = (s.tx_pkts - p->tx_pkts) + (s.warmup_pkts - p->warmup_pkts);
	uint64_t dby = (s.tx_bytes - p->tx_bytes) + (s.warmup_bytes - p->warmup_bytes);
	double pps = (double)dpk * 1e9 / (double)dt;
	double l2 = (double)dby * 8e9 / (double)dt;
	double l1 = (double)(dby + dpk * PKT_L1_OVERHEAD) * 8e9 / (double)dt;
	double exp = gen_expected(g, r->t_prev, t);
	if (isfinite(exp) && !g->cfg.poisson) {
		/* in whole bursts, as the schedule sends them: the deadlines up to t are
		 * B·⌈E(t)/B⌉ (burst j is due at E⁻¹(jB)), so a short interval at a low rate is
		 * judged by the frames actually due in it, not by a fraction of one */
		double b = (double)g->cfg.burst;
		double e0 = r->t_prev ? gen_expected(g, 0, r->t_prev) : 0;
		double e1 = gen_expected(g, 0, t);
		if (isfinite(e0) && isfinite(e1))
			exp = b * (ceil(e1 / b - 1e-9) - ceil(e0 / b - 1e-9));
	}
	double target = isfinite(exp) ? exp * 1e9 / (double)dt : NAN;
	double err = target > 0 ? pct_error(pps, target) : NAN;
	int warm = r->t_prev < g->cfg.warmup_ns;
	double if_pps = NAN;
	if (r->have_if && if_counters_read(r->ifname, &ifc) == 0) {
		if_pps = rate_per_s(ifc.tx_packets, r->if_prev.tx_packets, dt);
		r->if_prev = ifc;
	}
	uint64_t p99 = d.count ? hist_quantile(&d, 0.99) : 0;

	if (r->json) {
		json_t *o = jout_obj("gen", "interval");
		jset_u64(o, "t_ns", t);
		jset_u64(o, "dt_ns", dt);
		jset_b(o, "warmup", warm);
		jset_u64(o, "tx_attempt", s.tx_attempt - p->tx_attempt);
		jset_u64(o, "tx_pkts", s.tx_pkts - p->tx_pkts);
		jset_u64(o, "tx_bytes", s.tx_bytes - p->tx_bytes);
		jset_u64(o, "tx_fail", s.tx_fail - p->tx_fail);
		jset_u64(o, "tx_refused", s.tx_refused - p->tx_refused);
		jset_u64(o, "tx_full", s.tx_full - p->tx_full);
		jset_u64(o, "tx_unsent", s.tx_unsent - p->tx_unsent);
		jset_u64(o, "late", s.late - p->late);
		jset_u64(o, "warmup_pkts", s.warmup_pkts - p->warmup_pkts);
		jset_f(o, "pps", pps);
		jset_f(o, "l2_bps", l2);
		jset_f(o, "l1_bps", l1);
		jset_f(o, "target_pps", target);
		if (target > 0)
			jset_f(o, "rate_error_pct", err);
		jset_f(o, "if_tx_pps", if_pps);
		if (d.count) {
			jset_u64(o, "gap_p50_ns", hist_quantile(&d, 0.5));
			jset_u64(o, "gap_p99_ns", p99);
			jset_u64(o, "gap_max_ns", d.max);
		}
		json_object_set_new(o, "gap_hist_log2", gaps_log2_json(&d));
		jout_emit(r->out, o);
	} else {
		char b1[32], b2[32], b3[32], e[16];
		if (target > 0)
			snprintf(e, sizeof(e), "%+8.2f%%", err);
		else
			snprintf(e, sizeof(e), "%9s", "-");
		/* tenths of a second unless the intervals are shorter */
		int prec = dt < 100000000ULL ? 3 : 1;
		fprintf(r->out, "%8.*f %12s %11.3f %11.3f %12s %8llu %8llu %8llu %9s %s%s\n",
			prec, (double)t / 1e9, fmt_pps(pps, b1, sizeof(b1)),
			l2 / 1e6, l1 / 1e6,
			isfinite(if_pps) ? fmt_thousands((uint64_t)(if_pps + 0.5), b2, sizeof(b2)) : "-",
			(unsigned long long)(s.tx_fail - p->tx_fail),
			(unsigned long long)(s.tx_full - p->tx_full),
			(unsigned long long)(s.late - p->late),
			d.count ? fmt_ns((double)p99, b3, sizeof(b3)) : "-", e, warm ? " warm-up" : "");
		fflush(r->out);
	}
	r->prev = s;
	r->gaps_prev = gaps;
	r->t_prev = t;
}

static double nominal_pps(const struct gen *g)
{
	if (!g->paced)
		return NAN;
	if (g->prof.open_ended)
		return g->prof.seg[0].r0_pps;
	return g->prof.total_ns ? (double)(g->prof.total * 1e9L / (long double)g->prof.total_ns) : NAN;
}

void gen_verdict(const struct gen *g, const struct gen_snap *s, struct gen_verdict *v)
{
	memset(v, 0, sizeof(*v));
	uint64_t n = s->tx_pkts;
	/* frames the kernel took and then rejected never reached the wire: not sent */
	uint64_t left = n > s->tx_fail ? n - s->tx_fail : 0;
	v->duration_ns = s->last_ns > s->first_ns ? s->last_ns - s->first_ns : 0;
	/* a rate needs two frames apart in time; one batch has none */
	v->pps = (v->duration_ns && n > 1) ? (double)(n - 1) * 1e9 / (double)v->duration_ns : NAN;
	v->target_pps = NAN;
	v->rate_error_pct = NAN;
	if (!g->paced) {
		v->shortfall_pct = n ? -100.0 * (double)s->tx_fail / (double)n : 0;
		v->rate_ok = left > 0 && v->shortfall_pct >= -0.5;
		return;
	}
	uint64_t span = s->sched_last_ns > s->sched_first_ns ? s->sched_last_ns - s->sched_first_ns : 0;
	int on_time = 1;
	if (n > 1 && span && v->duration_ns) {
		v->target_pps = (double)(n - 1) * 1e9 / (double)span;
		v->rate_error_pct = pct_error(v->pps, v->target_pps);
		/* a short run's error is its last frame's jitter: within --late of the
		 * schedule's own span is on time whatever the percentage */
		uint64_t off = v->duration_ns > span ? v->duration_ns - span : span - v->duration_ns;
		on_time = fabs(v->rate_error_pct) <= 0.5 || off <= g->cfg.late_ns;
	}
	if (s->sched_pkts)
		v->shortfall_pct = 100.0 * ((double)left - (double)s->sched_pkts) / (double)s->sched_pkts;
	/* nothing measured (stopped in the warm-up, or before the first frame) is no pass */
	v->rate_ok = on_time && v->shortfall_pct >= -0.5 && left > 0;
}

json_t *gen_gaps_json(const struct hist *h, double nominal_ns)
{
	json_t *o = jout_hist(h);
	jset_f(o, "nominal_ns", nominal_ns);
	json_object_set_new(o, "hist_log2", gaps_log2_json(h));
	return o;
}

static void gaps_text(FILE *f, const struct hist *h, double nominal_ns)
{
	char a[32], b[32], c[32], d[32], e[32];
	if (!h->count)
		return;
	fprintf(f, "inter-departure gaps: p50 %s, p99 %s, p99.9 %s, max %s (nominal %s)\n",
		fmt_ns((double)hist_quantile(h, 0.5), a, sizeof(a)),
		fmt_ns((double)hist_quantile(h, 0.99), b, sizeof(b)),
		fmt_ns((double)hist_quantile(h, 0.999), c, sizeof(c)),
		fmt_ns((double)h->max, d, sizeof(d)), fmt_ns(nominal_ns, e, sizeof(e)));
	uint64_t acc[65] = { 0 };
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_lo(i);
		acc[lo ? 64 - __builtin_clzll(lo) : 0] += h->bucket[i];
	}
	for (int k = 0; k < 65; k++) {
		if (!acc[k])
			continue;
		double pct = 100.0 * (double)acc[k] / (double)h->count;
		int bar = (int)(pct / 2.5 + 0.5);
		char bars[48];
		memset(bars, '#', (size_t)bar);
		bars[bar] = 0;
		if (k == 0)
			snprintf(a, sizeof(a), "0 (same batch)");
		else
			snprintf(a, sizeof(a), "%s..%s", fmt_ns((double)(1ULL << (k - 1)), b, sizeof(b)),
				 fmt_ns((double)(1ULL << k), c, sizeof(c)));
		fprintf(f, "  %-20s %7.3f%% %s\n", a, pct, bars);
	}
}

/* What the summary reports, read once at the end. */
struct summary {
	struct gen_snap s;
	struct gen_verdict v;
	const struct hist *gaps;
	struct if_counters if1;
	int have_if;
	double nom, nominal_gap, l2, l1;
	uint64_t inj;
};

/* The run as asked: where, what frames, what rate. */
static void summary_json_setup(json_t *o, const struct gen_report *r, const struct summary *m)
{
	const struct gen *g = r->g;
	const struct gen_info *in = r->info;
	const struct gen_cfg *c = &g->cfg;
	jset_s(o, "version", ppslab_version());
	jset_s(o, "mode", in->mode);
	jset_s(o, "port", port_spec(g->w[0].port));
	jset_s(o, "backend", port_backend(g->w[0].port));
	/* what describes no frame is null: a replay's frames are the capture's, a
	 * udp: sender's source is the kernel's choice */
	jset_s(o, "src", *in->src ? in->src : NULL);
	jset_s(o, "dst", *in->dst ? in->dst : NULL);
	if (c->replay) {
		json_object_set_new(o, "ip_version", json_null());
	} else {
		jset_u64(o, "ip_version", c->flow.ipv == 6 ? 6 : 4);
		if (c->flow.ipv == 6)
			jset_u64(o, "flow_label", c->flow.flowlabel);
	}
	/* the tags (docs/gen.md#vlan-tags): the only or inner one, the outer of QinQ */
	const struct pkt_vlan *vl = &c->flow.vlan;
	if (vl->n && !c->replay) {
		json_t *vo = json_object();
		unsigned in_tag = vl->n - 1u;
		jset_u64(vo, "vid", pkt_vlan_vid(vl->tci[in_tag]));
		jset_u64(vo, "pcp", vl->tci[in_tag] >> 13);
		if (vl->n == 2) {
			jset_u64(vo, "outer_vid", pkt_vlan_vid(vl->tci[0]));
			jset_u64(vo, "outer_pcp", vl->tci[0] >> 13);
		} else {
			json_object_set_new(vo, "outer_vid", json_null());
			json_object_set_new(vo, "outer_pcp", json_null());
		}
		json_object_set_new(o, "vlan", vo);
	} else {
		json_object_set_new(o, "vlan", json_null());
	}
	if (c->replay)
		json_object_set_new(o, "dport", json_null());
	else
		jset_u64(o, "dport", c->flow.dst_port);
	jset_s(o, "sports", *in->sport ? in->sport : NULL);
	jset_s(o, "dports", *in->dport ? in->dport : NULL);
	jset_u64(o, "flows", c->flows.n);
	jset_s(o, "flow_order", c->replay ? NULL : c->flows.random ? "random" : "seq");
	jset_u64(o, "stream", c->stream);
	jset_u64(o, "epoch", c->epoch);
	jset_u64(o, "wire_size", (uint64_t)(in->mean_wire + 0.5));
	jset_f(o, "mean_wire_size", in->mean_wire);
	if (!c->replay) {
		json_t *sz = json_array();
		for (unsigned i = 0; i < c->sizes.n; i++) {
			json_t *e = json_object();
			jset_u64(e, "size", c->sizes.wire[i]);
			jset_u64(e, "weight", c->sizes.weight[i]);
			json_array_append_new(sz, e);
		}
		json_object_set_new(o, "sizes", sz);
	} else {
		jset_s(o, "replay", in->replay_file);
		jset_u64(o, "replay_frames", c->replay->n);
	}
	jset_s(o, "rate", in->rate_text);
	jset_s(o, "profile", in->profile);
	jset_b(o, "poisson", c->poisson);
	jset_f(o, "nominal_pps", m->nom);
	jset_f(o, "link_bps", in->link_bps > 0 ? in->link_bps : NAN);
	jset_u64(o, "burst", c->burst);
	jset_u64(o, "threads", g->nw);
	jset_u64(o, "seed", c->seed);
}

/* What was sent, how it kept to the schedule, the rate it made. */
static void summary_json_counts(json_t *o, const struct gen_report *r, const struct summary *m)
{
	const struct gen *g = r->g;
	const struct gen_info *in = r->info;
	const struct gen_cfg *c = &g->cfg;
	const struct gen_snap *s = &m->s;
	const struct gen_verdict *v = &m->v;
	jset_f(o, "target_pps", v->target_pps);
	jset_u64(o, "tx_attempt", s->tx_attempt);
	jset_u64(o, "tx_pkts", s->tx_pkts);
	jset_u64(o, "tx_bytes", s->tx_bytes);
	jset_u64(o, "tx_fail", s->tx_fail);
	jset_u64(o, "tx_refused", s->tx_refused);
	jset_u64(o, "tx_full", s->tx_full);
	jset_u64(o, "tx_unsent", s->tx_unsent);
	jset_u64(o, "test_pkts", s->tx_test);
	jset_u64(o, "seq_holes", s->seq_holes);
	jset_u64(o, "late", s->late);
	jset_u64(o, "late_ns", c->late_ns);
	jset_s(o, "late_policy", gen_late_name(c->late_policy));
	jset_u64(o, "skipped", s->skipped);
	jset_u64(o, "shifted_ns", s->shifted_ns);
	jset_u64(o, "burst_max", s->burst_max);
	jset_f(o, "burst_tight_ns", g->paced ? g->nominal_gap_ns / 4 : NAN);
	jset_u64(o, "behind_ns", s->behind_ns);
	jset_u64(o, "behind_max_ns", s->behind_max_ns);
	jset_u64(o, "behind_n", s->behind_n);
	jset_u64(o, "sched_pkts", g->paced ? s->sched_pkts : s->tx_pkts);
	jset_u64(o, "warmup_pkts", s->warmup_pkts);
	jset_u64(o, "warmup_ns", c->warmup_ns);
	/* when the first frame left, on CLOCK_REALTIME (several senders' spread) */
	uint64_t first_real = 0;
	if (s->first_tx_ns) {
		int64_t m2r = (int64_t)(real_ns() - mono_ns());
		first_real = (uint64_t)((int64_t)s->first_tx_ns + m2r);
		jset_u64(o, "first_tx_real_ns", first_real);
	} else {
		json_object_set_new(o, "first_tx_real_ns", json_null());
	}
	if (in->start_at_ns) {
		jset_u64(o, "start_at_ns", in->start_at_ns);
		if (first_real)
			jset_i64(o, "start_late_ns", (int64_t)(first_real - in->start_at_ns));
	}
	json_t *fo = json_object();
	for (int f = 1; f < GEN_FAULT_MAX; f++)
		jset_u64(fo, gen_fault_name(f), s->fault[f]);
	json_object_set_new(o, "inject", fo);
	jset_u64(o, "inject_pkts", m->inj);
	jset_u64(o, "duration_ns", v->duration_ns);
	jset_f(o, "pps", v->pps);
	jset_f(o, "l2_bps", m->l2);
	jset_f(o, "l1_bps", m->l1);
	jset_f(o, "rate_error_pct", v->rate_error_pct);
	jset_f(o, "shortfall_pct", g->paced ? v->shortfall_pct : NAN);
	jset_b(o, "rate_ok", v->rate_ok);
	json_object_set_new(o, "gap_ns", gen_gaps_json(m->gaps, m->nominal_gap));
}

/* The interface's own counters around the run. */
static void summary_json_if(json_t *o, const struct gen_report *r, const struct summary *m)
{
	jset_s(o, "ifname", r->ifname);
	jset_u64(o, "if_tx_packets", m->if1.tx_packets - r->if0.tx_packets);
	jset_u64(o, "if_tx_bytes", m->if1.tx_bytes - r->if0.tx_bytes);
	jset_u64(o, "if_tx_dropped", m->if1.tx_dropped - r->if0.tx_dropped);
	jset_u64(o, "if_tx_errors", m->if1.tx_errors - r->if0.tx_errors);
	json_t *ifo = json_object();
	const struct if_counters *ab[2] = { &r->if0, &m->if1 };
	const char *names[2] = { "start", "end" };
	for (int k = 0; k < 2; k++) {
		json_t *e = json_object();
		jset_u64(e, "tx_packets", ab[k]->tx_packets);
		jset_u64(e, "tx_bytes", ab[k]->tx_bytes);
		jset_u64(e, "tx_dropped", ab[k]->tx_dropped);
		jset_u64(e, "tx_errors", ab[k]->tx_errors);
		json_object_set_new(ifo, names[k], e);
	}
	json_object_set_new(o, "if_tx", ifo);
}

static json_t *summary_json_threads(struct gen *g)
{
	const struct gen_cfg *c = &g->cfg;
	json_t *th = json_array();
	for (unsigned t = 0; t < g->nw; t++) {
		struct gen_snap ws;
		struct gen_verdict wv;
		gen_worker_snapshot(&g->w[t], &ws);
		gen_verdict(g, &ws, &wv);
		json_t *e = json_object();
		jset_u64(e, "thread", t);
		if (c->ncpus)
			jset_u64(e, "cpu", (uint64_t)c->cpus[t % c->ncpus]);
		jset_u64(e, "tx_pkts", ws.tx_pkts);
		jset_u64(e, "tx_full", ws.tx_full);
		jset_u64(e, "tx_fail", ws.tx_fail);
		jset_u64(e, "tx_refused", ws.tx_refused);
		jset_u64(e, "late", ws.late);
		jset_u64(e, "skipped", ws.skipped);
		jset_u64(e, "burst_max", ws.burst_max);
		jset_u64(e, "behind_ns", ws.behind_ns);
		jset_f(e, "pps", wv.pps);
		json_array_append_new(th, e);
	}
	return th;
}

static void summary_text(const struct gen_report *r, const struct summary *m, int sig)
{
	const struct gen *g = r->g;
	const struct gen_info *in = r->info;
	const struct gen_cfg *c = &g->cfg;
	const struct gen_snap *s = &m->s;
	const struct gen_verdict *v = &m->v;
	char b1[32], b2[32], b3[32], b4[32];
	FILE *f = r->out;
	if (isfinite(v->pps))
		fprintf(f, "sent %s frames (%s B mean, with FCS) in %.3f s: %s pps, %.3f Mbit/s L2, "
			"%.3f Mbit/s L1\n", fmt_thousands(s->tx_pkts, b1, sizeof(b1)),
			fmt_thousands((uint64_t)(in->mean_wire + 0.5), b4, sizeof(b4)),
			(double)v->duration_ns / 1e9, fmt_pps(v->pps, b2, sizeof(b2)), m->l2 / 1e6, m->l1 / 1e6);
	else
		fprintf(f, "sent %s frames (%s B mean, with FCS) in one batch: no rate to measure\n",
			fmt_thousands(s->tx_pkts, b1, sizeof(b1)),
			fmt_thousands((uint64_t)(in->mean_wire + 0.5), b4, sizeof(b4)));
	char b5[32], b6[32];
	fprintf(f, "attempted %s, accepted %s, failed %s, unsent %s; ring full %s times; "
		"late %llu (> %s)\n", fmt_thousands(s->tx_attempt, b1, sizeof(b1)),
		fmt_thousands(s->tx_pkts, b2, sizeof(b2)), fmt_thousands(s->tx_fail, b4, sizeof(b4)),
		fmt_thousands(s->tx_unsent, b5, sizeof(b5)), fmt_thousands(s->tx_full, b6, sizeof(b6)),
		(unsigned long long)s->late, fmt_ns((double)c->late_ns, b3, sizeof(b3)));
	if (s->tx_refused)
		fprintf(f, "refused: %s ICMP errors came back for frames sent (port or host "
			"unreachable: is a receiver listening at the destination?)\n",
			fmt_thousands(s->tx_refused, b1, sizeof(b1)));
	if (m->have_if)
		fprintf(f, "interface %s: tx_packets +%s, tx_dropped +%llu, tx_errors +%llu\n",
			r->ifname, fmt_thousands(m->if1.tx_packets - r->if0.tx_packets, b1, sizeof(b1)),
			(unsigned long long)(m->if1.tx_dropped - r->if0.tx_dropped),
			(unsigned long long)(m->if1.tx_errors - r->if0.tx_errors));
	gaps_text(f, m->gaps, m->nominal_gap);
	if (g->paced) {
		fprintf(f, "pacing (--late-policy %s): largest burst %s frames (gaps under %s), "
			"behind schedule %s in %llu stretch%s, the longest %s",
			gen_late_name(c->late_policy), fmt_thousands(s->burst_max, b1, sizeof(b1)),
			fmt_ns(g->nominal_gap_ns / 4, b2, sizeof(b2)),
			fmt_ns((double)s->behind_ns, b3, sizeof(b3)), (unsigned long long)s->behind_n,
			s->behind_n == 1 ? "" : "es", fmt_ns((double)s->behind_max_ns, b4, sizeof(b4)));
		if (c->late_policy == PACE_LATE_SKIP)
			fprintf(f, "; %s frames skipped", fmt_thousands(s->skipped, b1, sizeof(b1)));
		else if (c->late_policy == PACE_LATE_SHIFT)
			fprintf(f, "; the schedule shifted %s later",
				fmt_ns((double)s->shifted_ns, b1, sizeof(b1)));
		fprintf(f, "\n");
	}
	if (s->warmup_pkts)
		fprintf(f, "warm-up: %s frames flagged, not counted\n",
			fmt_thousands(s->warmup_pkts, b1, sizeof(b1)));
	if (m->inj) {
		fprintf(f, "injected faults:");
		for (int k = 1; k < GEN_FAULT_MAX; k++)
			if (s->fault[k])
				fprintf(f, " %s %llu", gen_fault_name(k), (unsigned long long)s->fault[k]);
		fprintf(f, "\n");
	}
	if (s->tx_test && c->epoch) {   /* numbered from the epoch's base (sig.h) */
		uint64_t b = sig_epoch_base(c->epoch);
		fprintf(f, "stream %u: sequence numbers %llu..%llu (epoch %u: ppslab-sink --epoch "
			"%u --expect %llu)%s\n", c->stream, (unsigned long long)b,
			(unsigned long long)(b + s->tx_test + s->seq_holes - 1), c->epoch, c->epoch,
			(unsigned long long)(s->tx_test + s->seq_holes),
			s->seq_holes ? ", with holes" : "");
	} else if (s->tx_test) {
		fprintf(f, "stream %u: sequence numbers 0..%llu (ppslab-sink --expect %llu)%s\n",
			c->stream, (unsigned long long)(s->tx_test + s->seq_holes - 1),
			(unsigned long long)(s->tx_test + s->seq_holes),
			s->seq_holes ? ", with holes" : "");
	}
	if (g->paced) {
		if (isfinite(v->target_pps))
			fprintf(f, "target %s pps: error %+.3f%%", fmt_pps(v->target_pps, b1, sizeof(b1)),
				v->rate_error_pct);
		else
			fprintf(f, "target: -");
		fprintf(f, ", %s of %s scheduled frames sent%s: %s\n",
			fmt_thousands(s->tx_pkts > s->tx_fail ? s->tx_pkts - s->tx_fail : 0, b2, sizeof(b2)),
			fmt_thousands(s->sched_pkts, b3, sizeof(b3)), s->tx_fail ? " (failed ones not)" : "",
			v->rate_ok ? "rate OK" : (s->tx_pkts ? "MISSED the target rate" : "nothing measured"));
	} else if (!v->rate_ok) {
		fprintf(f, "%s\n", s->tx_pkts ? "MISSED: more than 0.5 % of the frames failed"
					     : "nothing measured");
	}
	if (sig)
		fprintf(f, "interrupted by signal %d\n", sig);
	fflush(f);
}

void gen_report_summary(struct gen_report *r, int sig)
{
	struct gen *g = r->g;
	const struct gen_cfg *c = &g->cfg;
	struct summary m = { .if1 = r->if0 };
	static struct hist gaps;
	m.have_if = r->have_if && if_counters_read(r->ifname, &m.if1) == 0;
	gen_snapshot(g, &m.s);
	gen_gaps(g, &gaps);
	m.gaps = &gaps;
	gen_verdict(g, &m.s, &m.v);
	m.nom = nominal_pps(g);
	m.nominal_gap = m.nom > 0 ? 1e9 * c->burst * g->nw / m.nom : NAN;
	m.l2 = m.v.pps * (m.s.tx_pkts ? (double)m.s.tx_bytes / (double)m.s.tx_pkts
				      : r->info->mean_wire) * 8;
	m.l1 = m.l2 + m.v.pps * PKT_L1_OVERHEAD * 8;
	for (int f = 1; f < GEN_FAULT_MAX; f++)
		m.inj += m.s.fault[f];
	if (!r->json) {
		summary_text(r, &m, sig);
		return;
	}
	json_t *o = jout_obj("gen", "summary");
	summary_json_setup(o, r, &m);
	summary_json_counts(o, r, &m);
	if (m.have_if)
		summary_json_if(o, r, &m);
	json_object_set_new(o, "per_thread", summary_json_threads(g));
	jset_b(o, "interrupted", sig != 0);
	jout_emit(r->out, o);
}
