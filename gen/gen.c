/* gen.c — the transmit loop of ppslab-gen (see gen.h).
 *
 * Per batch: read the clock once, ask the schedule how many frames are due, patch the
 * signature (sequence, timestamp) into a ring of pre-built frames with an RFC 1624
 * update of the UDP checksum, hand the batch to the port. A full ring is backpressure,
 * not loss: the loop retries (counting tx_full) so the offered load falls visibly short
 * instead of frames vanishing silently. */
#include "gen.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "csum.h"
#include "pace.h"

#define GEN_BATCH 64
#define GEN_SPIN_NS 50000ULL      /* spin for the last 50 us before a deadline */
#define GEN_LATE_NS 100000ULL

int gen_init(struct gen *g, const struct gen_cfg *cfg, char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	g->frame_len = pkt_frame_len(cfg->wire_size);
	int rc = pkt_build_template(&cfg->flow, g->frame_len, cfg->stream,
				    cfg->realtime_ts ? SIG_F_REALTIME : 0, 0, g->tmpl, err, errlen);
	if (rc)
		return rc;
	struct port_cfg pc = { .dir = PORT_TX, .frame_max = g->frame_len };
	return port_open(cfg->port_spec, &pc, &g->port, err, errlen);
}

void gen_fini(struct gen *g)
{
	port_close(g->port);
	g->port = NULL;
}

static inline void add(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

int gen_run(struct gen *g, struct runctl *rc)
{
	static uint8_t frames[GEN_BATCH][PKT_FRAME_MAX];
	struct port_pkt pkts[GEN_BATCH];
	const uint32_t flen = g->frame_len;
	const uint32_t sig_off = PKT_PAYLOAD_OFF;
	const uint32_t patch_off = sig_off + 4;        /* seq + timestamp: 14 bytes */
	uint16_t tmpl_csum;
	struct pace pace;
	uint64_t seq = 0, end_ns = 0;
	int ret = 0;

	memcpy(&tmpl_csum, g->tmpl + PKT_UDP_OFF + 6, 2);
	for (int i = 0; i < GEN_BATCH; i++) {
		memcpy(frames[i], g->tmpl, flen);
		pkts[i].data = frames[i];
		pkts[i].len = flen;
	}
	clock_low_slack();
	uint64_t start = mono_ns() + 1000000ULL;   /* first deadline 1 ms from now */
	pace_init(&pace, start, g->cfg.rate_pps, g->cfg.burst);
	if (g->cfg.duration_ns)
		end_ns = start + g->cfg.duration_ns;
	clockid_t ts_clock = g->cfg.realtime_ts ? CLOCK_REALTIME : CLOCK_MONOTONIC;

	while (!runctl_stopped(rc)) {
		if (g->cfg.count && seq >= g->cfg.count)
			break;
		uint64_t now = mono_ns();
		if (end_ns && now >= end_ns)
			break;
		uint32_t want = GEN_BATCH;
		if (g->cfg.count && g->cfg.count - seq < want)
			want = (uint32_t)(g->cfg.count - seq);
		uint32_t n = pace_due(&pace, now, want);
		if (n == 0) {
			uint64_t dl = pace_next_deadline(&pace);
			if (end_ns && dl > end_ns)
				dl = end_ns;
			clock_wait_until(dl, GEN_SPIN_NS);
			continue;
		}
		if (now > pace_next_deadline(&pace) + GEN_LATE_NS)
			add(&g->ctr.late, 1);
		uint64_t ts = clock_ns(ts_clock);
		for (uint32_t i = 0; i < n; i++) {
			uint8_t *f = frames[i];
			sig_put_seq_ts(f + sig_off, seq + i, ts);
			uint16_t c = csum_replace_bytes(tmpl_csum, g->tmpl + patch_off, f + patch_off, 14);
			c = csum_udp_nonzero(c);
			memcpy(f + PKT_UDP_OFF + 6, &c, 2);
		}
		add(&g->ctr.tx_attempt, n);
		uint32_t sent = 0;
		while (sent < n && !runctl_stopped(rc)) {
			int a = port_tx_burst(g->port, pkts + sent, (int)(n - sent));
			if (a < 0) {
				ret = a;
				goto out;
			}
			sent += (uint32_t)a;
			if (sent < n) {         /* ring full: let the kernel drain, then retry */
				add(&g->ctr.tx_full, 1);
				sched_yield();
			}
		}
		struct port_stats st;
		port_stats(g->port, &st);
		atomic_store_explicit(&g->ctr.tx_fail, st.tx_errors, memory_order_relaxed);
		uint64_t t = mono_ns();
		if (!atomic_load_explicit(&g->ctr.first_ns, memory_order_relaxed))
			atomic_store_explicit(&g->ctr.first_ns, now, memory_order_relaxed);
		atomic_store_explicit(&g->ctr.last_ns, t, memory_order_relaxed);
		add(&g->ctr.tx_pkts, sent);
		add(&g->ctr.tx_bytes, (uint64_t)sent * (flen + PKT_FCS_LEN));
		seq += sent;
		pace_advance(&pace, sent);
	}
out:
	runctl_wake(rc);
	return ret;
}

void gen_snapshot(struct gen *g, struct gen_snap *s)
{
	s->tx_attempt = atomic_load_explicit(&g->ctr.tx_attempt, memory_order_relaxed);
	s->tx_pkts = atomic_load_explicit(&g->ctr.tx_pkts, memory_order_relaxed);
	s->tx_bytes = atomic_load_explicit(&g->ctr.tx_bytes, memory_order_relaxed);
	s->tx_fail = atomic_load_explicit(&g->ctr.tx_fail, memory_order_relaxed);
	s->tx_full = atomic_load_explicit(&g->ctr.tx_full, memory_order_relaxed);
	s->late = atomic_load_explicit(&g->ctr.late, memory_order_relaxed);
	s->first_ns = atomic_load_explicit(&g->ctr.first_ns, memory_order_relaxed);
	s->last_ns = atomic_load_explicit(&g->ctr.last_ns, memory_order_relaxed);
}
