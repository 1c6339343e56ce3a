/* SPDX-License-Identifier: BSD-2-Clause */
/* sink.c — the receive engine of ppslab-sink (see sink.h): workers, their receive loop,
 * the interval hand-off and the merge at the end.
 *
 * Per burst a worker reads the clocks once (for frames without a kernel timestamp, and
 * for the CLOCK_MONOTONIC offset when a sender stamped monotonic time), classifies each
 * frame and accounts test frames in their stream. When no port has anything it waits in
 * poll() for up to 1 ms, so an idle sink costs nothing and a hand-off request is served
 * within about a millisecond. Counters have one writer (the worker) and are published
 * with relaxed atomic stores; nothing is allocated per packet (a stream is allocated
 * once, on its first frame; its --delay-by-size table is one sink_init allocated). */
#include "sink.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "relaxed.h"
#include "thread.h"

#define SINK_BURST 256

bool sink_class_is_error(enum pkt_class c)
{
	switch (c) {
	case PKT_TRUNCATED: case PKT_IP_OPTIONS: case PKT_IP_FRAGMENT: case PKT_BAD_IP_CSUM:
	case PKT_BAD_LEN: case PKT_BAD_UDP_CSUM: case PKT_BAD_SIG_VERSION: case PKT_HOP_LIMIT_ZERO:
	case PKT_WRONG_VLAN:
		return true;
	default:
		return false;
	}
}

/* Several workers: afpacket ports join a fanout group, xdp: ports take a queue each
 * (xdp[i] says which). Other backends cannot share an interface among workers. */
static int check_thread_specs(const struct sink_cfg *cfg, bool *xdp, char *err, size_t errlen)
{
	for (int i = 0; i < cfg->nports; i++) {
		char be[16], tg[64];
		int rc = port_spec_parse(cfg->port_specs[i], be, tg, err, errlen);
		if (rc)
			return rc;
		xdp[i] = !strcmp(be, "xdp");
		if (strcmp(be, "afpacket") && !xdp[i]) {
			snprintf(err, errlen, "--threads %d needs afpacket ports (PACKET_FANOUT) or "
				 "xdp: ports (a queue per thread); '%s' is %s", cfg->nthreads,
				 cfg->port_specs[i], be);
			return -EINVAL;
		}
	}
	return 0;
}

int sink_init(struct sink *s, const struct sink_cfg *cfg, char *err, size_t errlen)
{
	int rc;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->nworkers = cfg->nthreads > 1 ? cfg->nthreads : 1;
	if (s->nworkers > SINK_MAX_THREADS) {
		snprintf(err, errlen, "at most %d threads", SINK_MAX_THREADS);
		return -EINVAL;
	}
	bool xdp[SINK_MAX_PORTS] = { false };
	if (s->nworkers > 1 && (rc = check_thread_specs(cfg, xdp, err, errlen)))
		return rc;
	if (cfg->delay_by_size) {   /* here, not on a stream's first frame */
		s->by_size_pool = calloc(SINK_BY_SIZE_TABLES, sizeof(*s->by_size_pool));
		if (!s->by_size_pool)
			return -ENOMEM;
		for (int i = 0; i < SINK_BY_SIZE_TABLES; i++)
			delay_sizes_init(&s->by_size_pool[i]);
	}
	for (int t = 0; t < s->nworkers; t++) {
		struct sink_worker *w = aligned_alloc(64, (sizeof(*w) + 63) / 64 * 64);
		if (!w) {
			sink_fini(s);
			return -ENOMEM;
		}
		memset(w, 0, sizeof(*w));
		s->w[t] = w;
		if (cfg->epoch_on &&
		    !(w->stale_at = calloc(SINK_STALE_RING, sizeof(*w->stale_at)))) {
			sink_fini(s);
			return -ENOMEM;
		}
		w->s = s;
		w->id = t;
		hist_init(&w->ih[0]);
		hist_init(&w->ih[1]);
	}
	/* Sockets join each interface's group in worker order, so member t is worker t; all
	 * stay gated until every group is complete (see port_afpacket.c). */
	for (int i = 0; i < cfg->nports; i++) {
		uint16_t group = (uint16_t)(((unsigned)getpid() * 7u + (unsigned)i) & 0xffffu);
		if (!group)
			group = 1;
		for (int t = 0; t < s->nworkers; t++) {
			struct port_cfg pc = { .dir = PORT_RX, .frame_max = PKT_FRAME_MAX,
					       .udp_dport = cfg->dport };
			if (s->nworkers > 1 && xdp[i]) {
				pc.queue_offset = (uint16_t)t;
			} else if (s->nworkers > 1) {
				pc.fanout_id = group;
				pc.fanout_cbpf_off = SINK_STREAM_BYTE_OFF;
				pc.fanout_cbpf_off6 = SINK_STREAM_BYTE_OFF6;
				pc.rx_gated = 1;
			}
			rc = port_open(cfg->port_specs[i], &pc, &s->w[t]->ports[i], err, errlen);
			if (rc) {
				sink_fini(s);
				return rc;
			}
		}
	}
	for (int i = 0; i < cfg->nports; i++)
		for (int t = 0; t < s->nworkers; t++)
			if ((rc = port_rx_open(s->w[t]->ports[i]))) {
				snprintf(err, errlen, "%s: opening the fanout gate: %s",
					 cfg->port_specs[i], strerror(-rc));
				sink_fini(s);
				return rc;
			}
	return 0;
}

static void stream_free(struct sink_stream *st)
{
	free(st);   /* its by_size is the pool's */
}

void sink_fini(struct sink *s)
{
	for (int t = 0; t < SINK_MAX_THREADS; t++) {
		struct sink_worker *w = s->w[t];
		if (!w)
			continue;
		for (int i = 0; i < SINK_MAX_PORTS; i++)
			port_close(w->ports[i]);
		for (int k = 0; k < SINK_STREAMS; k++)
			if (w->streams[k] != s->streams[k])
				stream_free(w->streams[k]);
		free(w->stale_at);
		free(w);
		s->w[t] = NULL;
	}
	for (int k = 0; k < SINK_STREAMS; k++) {
		stream_free(s->streams[k]);
		s->streams[k] = NULL;
	}
	free(s->by_size_pool);
	s->by_size_pool = NULL;
}

/* A stream's per-size delay table, the pool's next (sink.h); NULL when none is left. */
static struct delay_sizes *by_size_take(struct sink *s)
{
	if (!s->by_size_pool)
		return NULL;
	unsigned i = atomic_fetch_add_explicit(&s->by_size_used, 1, memory_order_relaxed);
	if (i < SINK_BY_SIZE_TABLES)
		return &s->by_size_pool[i];
	atomic_fetch_add_explicit(&s->by_size_unkept, 1, memory_order_relaxed);
	return NULL;
}

static struct sink_stream *stream_new(uint8_t id, int worker, struct sink *s)
{
	const struct sink_cfg *c = &s->cfg;
	struct sink_stream *st = malloc(sizeof(*st));
	if (!st)
		return NULL;
	memset(st, 0, sizeof(*st));
	if (c->delay_by_size)
		st->by_size = by_size_take(s);
	st->id = id;
	st->worker = worker;
	seq_init(&st->seq);
	gap_init(&st->gaps, c->gap_min_ns, c->gap_list);
	delay_init(&st->delay, c->max_delay_ns);
	return st;
}

static inline struct sink_stream *stream_get(struct sink_worker *w, uint8_t id)
{
	struct sink_stream *st = w->streams[id];
	if (!st)
		st = w->streams[id] = stream_new(id, w->id, w->s);
	return st;
}

/* A warm-up frame (sender-flagged, or within the sink's --warmup): not measured, but
 * remembered so that the measured part of its stream starts where the warm-up ended. */
static void warmup_frame(struct sink_worker *w, struct sink_stream *st, uint64_t seq)
{
	relaxed_add(&w->ctr.warmup_pkts, 1);
	st->warmup_pkts++;
	if (!st->started && (!st->have_warm || seq + 1 > st->warm_next))
		st->warm_next = seq + 1;
	st->have_warm = true;
}

/* The first measured frame of a stream sets its floor: 0 (senders number from 0), or,
 * after warm-up frames, the warm-up's end when this number lies at or beyond it (the
 * sender numbered its warm-up in the same sequence), else 0 (it restarted at 0, as
 * ppslab-gen does: a number below the warm-up's end cannot follow it in one sequence,
 * and the measured frames before this one, lost, are counted from 0). */
static void stream_start(struct sink_stream *st, uint64_t seq)
{
	uint64_t floor = 0;
	if (st->have_warm && seq >= st->warm_next)
		floor = st->warm_next;
	seq_init_at(&st->seq, floor);
	st->started = true;
}

/* One measured test frame. */
static void account(struct sink_worker *w, struct sink_stream *st, const struct pkt_info *pi,
		    uint32_t wire_len, uint64_t rx_real, int64_t mono_off)
{
	struct hist *ih = &w->ih[w->ih_cur];
	if (!st->started)
		stream_start(st, pi->sig.seq);
	uint64_t lost0 = seq_lost_now(&st->seq);
	uint64_t prev_next = st->seq.next_exp, seq64 = seq_unwrap(&st->seq, pi->sig.seq);
	enum seq_verdict v = seq_add(&st->seq, pi->sig.seq);
	uint64_t lost1 = seq_lost_now(&st->seq);
	if (lost1 >= lost0)
		relaxed_add(&w->ctr.lost_now, lost1 - lost0);
	else
		relaxed_sub(&w->ctr.lost_now, lost0 - lost1);
	if (v == SEQ_DUPLICATE) {
		relaxed_add(&w->ctr.dup_pkts, 1);
		return;
	}
	if (v == SEQ_BEFORE_FLOOR) {
		relaxed_add(&w->ctr.before_floor_pkts, 1);
		return;
	}
	if (v != SEQ_IN_ORDER)
		relaxed_add(&w->ctr.reordered_pkts, 1);
	if (v == SEQ_IN_ORDER)
		gap_advance(&st->gaps, prev_next, seq64, rx_real, st->seq.next_exp);
	else
		gap_fill(&st->gaps, seq64);
	relaxed_add(&w->ctr.rx_pkts, 1);
	relaxed_add(&w->ctr.rx_bytes, wire_len);
	st->rx_bytes += wire_len;
	if (!st->first_rx_ns)
		st->first_rx_ns = rx_real;
	st->last_rx_ns = rx_real;

	bool realtime = pi->sig.flags & SIG_F_REALTIME;
	st->clock_seen |= realtime ? 1u : 2u;
	uint64_t rx = realtime ? rx_real : (uint64_t)((int64_t)rx_real + mono_off);
	uint64_t n0 = st->delay.neg_pkts, i0 = st->delay.implausible_pkts;
	int64_t owd = delay_add(&st->delay, pi->sig.tx_ns, rx);
	if (owd >= 0) {
		hist_add(ih, (uint64_t)owd);
		if (st->by_size)
			delay_sizes_add(st->by_size, wire_len, (uint64_t)owd);
	} else if (st->delay.neg_pkts != n0)
		relaxed_add(&w->ctr.neg_delay_pkts, 1);
	else if (st->delay.implausible_pkts != i0)
		relaxed_add(&w->ctr.implausible_delay_pkts, 1);
}

/* Are a and b the same tag stack (the table's key)? */
static bool vlan_same(const struct sink_vlan_count *a, const struct sink_vlan_count *b)
{
	return a->n == b->n && a->vid == b->vid && a->outer_vid == b->outer_vid;
}

/* Counts a signed frame under its tag stack; the last one hit is tried first. */
static void vlan_count(struct sink_worker *w, const struct pkt_vlan *v, bool wrong)
{
	const struct sink_vlan_count k = {
		.n = v->n, .vid = v->n ? pkt_vlan_vid(v->tci[v->n - 1]) : 0,
		.outer_vid = v->n == 2 ? pkt_vlan_vid(v->tci[0]) : 0, .wrong = wrong, .pkts = 1 };
	struct sink_vlan_count *c = &w->vlans[w->vlan_last];
	if (w->nvlans && vlan_same(c, &k)) {
		c->pkts++;
		return;
	}
	for (unsigned i = 0; i < w->nvlans; i++) {
		c = &w->vlans[i];
		if (vlan_same(c, &k)) {
			c->pkts++;
			w->vlan_last = i;
			return;
		}
	}
	if (w->nvlans == SINK_VLANS) {
		w->vlans_other++;
		return;
	}
	w->vlan_last = w->nvlans;
	w->vlans[w->nvlans++] = k;
}

/* The tags --vlan expects: as many, the same VIDs (priorities and TPIDs may differ: a
 * network may remark them, and many switches tag QinQ's outer with 0x8100). */
static bool vlan_ok(const struct sink_cfg *c, const struct pkt_vlan *v)
{
	if (!c->vlan_expect)
		return true;
	if (v->n != c->vlan.n)
		return false;
	for (unsigned i = 0; i < v->n; i++)
		if (pkt_vlan_vid(v->tci[i]) != pkt_vlan_vid(c->vlan.tci[i]))
			return false;
	return true;
}

void sink_process(struct sink_worker *w, const struct port_pkt *pkts, int n,
		  enum port_layer layer, uint64_t rx_real_ns, uint64_t now_mono_ns)
{
	struct sink *s = w->s;
	int64_t mono_off = (int64_t)now_mono_ns - (int64_t)rx_real_ns;
	bool l4 = layer == PORT_L4;
	uint64_t cls[PKT_CLASS_MAX] = { 0 };
	int tests = 0;
	relaxed_add(&w->ctr.rx_frames, (uint64_t)n);
	for (int k = 0; k < n; k++) {
		struct pkt_info pi;
		struct pkt_vlan vl = { .n = 0 };
		enum pkt_class c;
		if (l4) {
			c = pkt_classify_payload(pkts[k].data, pkts[k].len, &pi);
		} else {
			/* behind the tags the frame reads as an untagged one (pkt.h) */
			unsigned off = pkt_vlan_read(pkts[k].data, pkts[k].len, &vl);
			c = pkt_classify(pkts[k].data + off, pkts[k].len - off, s->cfg.dport,
					 s->cfg.verify_udp_csum, &pi);
			if (c == PKT_TEST) {
				bool ok = vlan_ok(&s->cfg, &vl);
				vlan_count(w, &vl, !ok);
				if (!ok)
					c = PKT_WRONG_VLAN;
			}
		}
		cls[c]++;
		if (c != PKT_TEST)
			continue;
		if (s->cfg.epoch_on) {   /* sig.h: the trial's epoch, then its number */
			unsigned ck = pi.sig.flags & SIG_F_REALTIME ? 0 : 1;
			if (sig_epoch_of(pi.sig.seq) != s->cfg.epoch) {
				cls[c]--;   /* an earlier trial's frame: not one of ours */
				relaxed_add(&w->ctr.stale_pkts, 1);
				uint64_t rx = pkts[k].ts_ns ? pkts[k].ts_ns : rx_real_ns;
				uint64_t rxm = (uint64_t)((int64_t)rx + mono_off);
				w->stale_last_rx[0] = rx > w->stale_last_rx[0] ? rx : w->stale_last_rx[0];
				w->stale_last_rx[1] = rxm > w->stale_last_rx[1] ? rxm : w->stale_last_rx[1];
				struct sink_stale_at *a = &w->stale_at[w->stale_seen++ % SINK_STALE_RING];
				a->rx[0] = rx;
				a->rx[1] = rxm;
				continue;
			}
			if (!w->own_first_tx[ck] || pi.sig.tx_ns < w->own_first_tx[ck])
				w->own_first_tx[ck] = pi.sig.tx_ns;
			pi.sig.seq &= SIG_EPOCH_MASK;
		}
		tests++;
		struct sink_stream *st = stream_get(w, pi.sig.stream);
		if (!st)
			continue;   /* out of memory: the frame is still in cls[PKT_TEST] */
		bool warm = pi.sig.flags & SIG_F_WARMUP;
		if (!warm && s->cfg.warmup_ns) {
			uint64_t end = atomic_load_explicit(&s->warm_end_ns, memory_order_relaxed);
			if (!end) {   /* the first test frame of the run starts the warm-up */
				uint64_t want = now_mono_ns + s->cfg.warmup_ns;
				if (atomic_compare_exchange_strong(&s->warm_end_ns, &end, want))
					end = want;
			}
			warm = now_mono_ns < end;
		}
		if (warm) {
			warmup_frame(w, st, pi.sig.seq);
			continue;
		}
		/* wire size with FCS: Ethernet + IP length (+ padding) + 4 */
		uint32_t wire = l4 ? (uint32_t)pi.payload_len + PKT_PAYLOAD_OFF + PKT_FCS_LEN
				   : pkts[k].len + PKT_FCS_LEN;
		if (wire < PKT_WIRE_MIN)
			wire = PKT_WIRE_MIN;
		account(w, st, &pi, wire, pkts[k].ts_ns ? pkts[k].ts_ns : rx_real_ns, mono_off);
	}
	for (int c = 0; c < PKT_CLASS_MAX; c++)
		if (cls[c])
			relaxed_add(&w->ctr.cls[c], cls[c]);
	if (tests) {
		/* only this worker writes its counters: a plain test-and-set is enough */
		if (!relaxed_get(&w->ctr.first_test_ns))
			relaxed_set(&w->ctr.first_test_ns, now_mono_ns);
		relaxed_set(&w->ctr.last_test_ns, now_mono_ns);
	}
}

static uint64_t ports_drops(struct sink_worker *w, int np)
{
	uint64_t d = 0;
	struct port_stats ps;
	for (int i = 0; i < np; i++) {
		port_stats(w->ports[i], &ps);
		d += ps.rx_drops;
	}
	return d;
}

/* Serves a hand-off request: flip the interval histogram, sample the ring drops. */
static void handoff(struct sink_worker *w, unsigned req)
{
	w->ih_cur ^= 1u;
	relaxed_set(&w->ctr.ring_drops, ports_drops(w, w->s->cfg.nports));
	w->swap_seen = req;
	atomic_store_explicit(&w->swap_ack, req, memory_order_release);
}

static int worker_loop(struct sink_worker *w)
{
	struct port_pkt pkts[SINK_BURST];
	struct pollfd pfd[SINK_MAX_PORTS];
	int np = w->s->cfg.nports;

	for (int i = 0; i < np; i++)
		pfd[i] = (struct pollfd){ .fd = port_fd(w->ports[i]), .events = POLLIN };
	while (!runctl_stopped(w->rc)) {
		unsigned req = atomic_load_explicit(&w->swap_req, memory_order_acquire);
		if (req != w->swap_seen)
			handoff(w, req);
		int got = 0;
		for (int i = 0; i < np; i++) {
			struct port *p = w->ports[i];
			int n = port_rx_burst(p, pkts, SINK_BURST);
			if (n < 0)
				return n;
			if (!n)
				continue;
			got += n;
			sink_process(w, pkts, n, port_layer(p), real_ns(), mono_ns());
		}
		if (!got)
			poll(pfd, (nfds_t)np, 1);
	}
	return 0;
}

static void *worker_main(void *p)
{
	struct sink_worker *w = p;
	w->ret = worker_loop(w);
	if (w->ret)
		runctl_wake(w->rc);
	return NULL;
}

int sink_start(struct sink *s, struct runctl *rc)
{
	for (int t = 0; t < s->nworkers; t++) {
		struct sink_worker *w = s->w[t];
		w->rc = rc;
		int e = thread_start(&w->th, s->cfg.ncpus ? s->cfg.cpus[t % s->cfg.ncpus] : -1,
				     worker_main, w);
		if (e) {
			atomic_store(&rc->stop, 1);
			sink_stop(s);
			return e;
		}
		w->running = true;
	}
	return 0;
}

int sink_stop(struct sink *s)
{
	int ret = 0;
	for (int t = 0; t < s->nworkers; t++) {
		struct sink_worker *w = s->w[t];
		if (w->running) {
			pthread_join(w->th, NULL);
			w->running = false;
		}
		relaxed_set(&w->ctr.ring_drops, ports_drops(w, s->cfg.nports));
		if (w->ret && !ret)
			ret = w->ret;
	}
	return ret;
}

void sink_totals(struct sink *s, struct sink_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (int k = 0; k < s->nworkers; k++) {
		struct sink_counters *c = &s->w[k]->ctr;
#define RD(x) relaxed_get(&c->x)
		t->rx_frames += RD(rx_frames);
		t->rx_pkts += RD(rx_pkts);
		t->rx_bytes += RD(rx_bytes);
		t->lost_now += RD(lost_now);
		t->dup += RD(dup_pkts);
		t->reord += RD(reordered_pkts);
		t->warmup += RD(warmup_pkts);
		t->before_floor += RD(before_floor_pkts);
		t->neg_delay += RD(neg_delay_pkts);
		t->implausible_delay += RD(implausible_delay_pkts);
		t->ring_drops += RD(ring_drops);
		t->stale += RD(stale_pkts);
		uint64_t lt = RD(last_test_ns);
		if (lt > t->last_test_ns)
			t->last_test_ns = lt;
		uint64_t ft = RD(first_test_ns);
		if (ft && (!t->first_test_ns || ft < t->first_test_ns))
			t->first_test_ns = ft;
		for (int cl = 0; cl < PKT_CLASS_MAX; cl++)
			t->cls[cl] += RD(cls[cl]);
#undef RD
	}
	for (int cl = 0; cl < PKT_CLASS_MAX; cl++) {
		if (sink_class_is_error((enum pkt_class)cl))
			t->err += t->cls[cl];
		else if (cl == PKT_FOREIGN)
			t->foreign += t->cls[cl];
		else if (cl != PKT_TEST)
			t->other += t->cls[cl];
	}
}

bool sink_stale_overlap(const struct sink *s, int64_t *ns)
{
	bool known = false;
	for (unsigned ck = 0; ck < 2; ck++) {
		uint64_t last = 0, first = 0;
		for (int t = 0; t < s->nworkers; t++) {
			const struct sink_worker *w = s->w[t];
			last = w->stale_last_rx[ck] > last ? w->stale_last_rx[ck] : last;
			if (w->own_first_tx[ck] && (!first || w->own_first_tx[ck] < first))
				first = w->own_first_tx[ck];
		}
		if (!last || !first)
			continue;
		int64_t d = (int64_t)(last - first);
		if (!known || d > *ns)
			*ns = d;
		known = true;
	}
	return known;
}

bool sink_stale_load(const struct sink *s, uint64_t *n, bool *truncated)
{
	bool known = false;
	*n = 0;
	*truncated = false;
	for (unsigned ck = 0; ck < 2; ck++) {
		uint64_t first = 0, c = 0, any = 0;
		bool tr = false;
		for (int t = 0; t < s->nworkers; t++) {
			const struct sink_worker *w = s->w[t];
			if (w->own_first_tx[ck] && (!first || w->own_first_tx[ck] < first))
				first = w->own_first_tx[ck];
			any |= w->stale_last_rx[ck];
		}
		if (!first || !any)
			continue;
		for (int t = 0; t < s->nworkers; t++) {
			const struct sink_worker *w = s->w[t];
			uint64_t kept = w->stale_seen < SINK_STALE_RING ? w->stale_seen : SINK_STALE_RING;
			for (uint64_t i = 0; i < kept; i++)
				c += w->stale_at[i].rx[ck] > first;
			/* all it remembers came after: older ones may have too */
			if (w->stale_seen > SINK_STALE_RING &&
			    w->stale_at[w->stale_seen % SINK_STALE_RING].rx[ck] > first)
				tr = true;
		}
		if (!known || c > *n) {
			*n = c;
			*truncated = tr;
		}
		known = true;
	}
	return known;
}

int sink_interval(struct sink *s, struct hist *h, uint64_t timeout_ns)
{
	int late = 0;
	for (int t = 0; t < s->nworkers; t++) {
		struct sink_worker *w = s->w[t];
		if (!w->running) {   /* stopped: both buffers are ours */
			for (int b = 0; b < 2; b++) {
				hist_merge(h, &w->ih[b]);
				hist_init(&w->ih[b]);
			}
			continue;
		}
		/* a request still unanswered from last time: do not send another */
		if (atomic_load_explicit(&w->swap_ack, memory_order_acquire) != w->swap_sent)
			continue;
		w->swap_sent++;
		atomic_store_explicit(&w->swap_req, w->swap_sent, memory_order_release);
	}
	uint64_t deadline = mono_ns() + timeout_ns;
	for (int t = 0; t < s->nworkers; t++) {
		struct sink_worker *w = s->w[t];
		if (!w->running)
			continue;
		while (atomic_load_explicit(&w->swap_ack, memory_order_acquire) != w->swap_sent &&
		       mono_ns() < deadline) {
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL);
		}
		if (atomic_load_explicit(&w->swap_ack, memory_order_acquire) != w->swap_sent) {
			late++;
			continue;
		}
		/* the worker now fills ih[ih_cur] and will not flip again before our next
		 * request: the other buffer is ours until then */
		struct hist *old = &w->ih[w->ih_cur ^ 1u];
		hist_merge(h, old);
		hist_init(old);
	}
	return late;
}

/* Folds b (another worker's part of the same stream) into a. Sequence state cannot be
 * merged exactly, so counts are added and the stream is marked split. */
static void stream_fold(struct sink_stream *a, struct sink_stream *b)
{
	seq_fold(&a->seq, a->started, &b->seq, b->started);
	a->started |= b->started;
	a->rx_bytes += b->rx_bytes;
	a->warmup_pkts += b->warmup_pkts;
	delay_merge(&a->delay, &b->delay);
	if (a->by_size && b->by_size)
		delay_sizes_merge(a->by_size, b->by_size);
	a->clock_seen |= b->clock_seen;
	if (b->first_rx_ns && (!a->first_rx_ns || b->first_rx_ns < a->first_rx_ns))
		a->first_rx_ns = b->first_rx_ns;
	if (b->last_rx_ns > a->last_rx_ns)
		a->last_rx_ns = b->last_rx_ns;
	a->split = true;
}

/* Every worker's tag stacks into s->vlans (bounded as a worker's are). */
static void vlans_merge(struct sink *s)
{
	s->nvlans = 0;
	s->vlans_other = 0;
	for (int t = 0; t < s->nworkers; t++) {
		const struct sink_worker *w = s->w[t];
		s->vlans_other += w->vlans_other;
		for (unsigned i = 0; i < w->nvlans; i++) {
			const struct sink_vlan_count *c = &w->vlans[i];
			unsigned j = 0;
			while (j < s->nvlans && !vlan_same(&s->vlans[j], c))
				j++;
			if (j < s->nvlans)
				s->vlans[j].pkts += c->pkts;
			else if (s->nvlans < SINK_VLANS)
				s->vlans[s->nvlans++] = *c;
			else
				s->vlans_other += c->pkts;
		}
	}
}

int sink_finish(struct sink *s, uint64_t expect_all, const uint64_t *expect_stream,
		const bool *have_stream, const uint64_t *holes_stream)
{
	vlans_merge(s);
	for (int id = 0; id < SINK_STREAMS; id++) {
		struct sink_stream *m = NULL;
		for (int t = 0; t < s->nworkers; t++) {
			struct sink_stream *st = s->w[t]->streams[id];
			if (!st)
				continue;
			s->w[t]->streams[id] = NULL;
			if (!m) {
				m = st;
			} else {
				stream_fold(m, st);
				stream_free(st);
			}
		}
		uint64_t e = have_stream && have_stream[id] ? expect_stream[id] : expect_all;
		if (!m && have_stream && have_stream[id]) {   /* expected, never arrived */
			m = stream_new((uint8_t)id, -1, s);
			if (!m)
				return -ENOMEM;
		}
		if (!m)
			continue;
		if (m->split)
			s->split_streams++;
		if (!m->started)
			seq_init_at(&m->seq, m->have_warm ? m->warm_next : 0);
		m->have_expect = e != 0 || (have_stream && have_stream[id]);
		m->expect = e;
		if (have_stream && have_stream[id] && holes_stream)
			m->sender_holes = holes_stream[id];
		if (m->have_expect && m->seq.next_exp > e)
			m->beyond_expect = true;
		if (m->split && ((m->have_expect && e >= m->seq.floor) || !m->have_expect)) {
			/* counts were added: the loss is what the sender sent (without its count:
			 * up to the highest number seen) minus what came */
			seq_finish_folded(&m->seq, m->have_expect ? e : m->seq.next_exp);
		}
		seq_finish(&m->seq, e);
		gap_finish(&m->gaps);
		s->streams[id] = m;
	}
	return 0;
}
