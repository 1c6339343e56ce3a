/* sink.c — the receive loop of ppslab-sink (see sink.h).
 *
 * Per burst: read the clocks once (for frames without a kernel timestamp, and for the
 * CLOCK_MONOTONIC offset when a sender stamped monotonic time), classify each frame,
 * account test frames in their stream. When no port has anything, wait in poll() for
 * up to 1 ms so an idle sink costs nothing. */
#include "sink.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

#define SINK_BURST 256

bool sink_class_is_error(enum pkt_class c)
{
	switch (c) {
	case PKT_TRUNCATED: case PKT_IP_OPTIONS: case PKT_IP_FRAGMENT: case PKT_BAD_IP_CSUM:
	case PKT_BAD_LEN: case PKT_BAD_UDP_CSUM: case PKT_BAD_SIG_VERSION:
		return true;
	default:
		return false;
	}
}

int sink_init(struct sink *s, const struct sink_cfg *cfg, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	for (int i = 0; i < cfg->nports; i++) {
		struct port_cfg pc = { .dir = PORT_RX, .frame_max = PKT_FRAME_MAX,
				       .udp_dport = cfg->dport };
		int rc = port_open(cfg->port_specs[i], &pc, &s->ports[i], err, errlen);
		if (rc) {
			sink_fini(s);
			return rc;
		}
	}
	return 0;
}

void sink_fini(struct sink *s)
{
	for (int i = 0; i < SINK_MAX_PORTS; i++) {
		port_close(s->ports[i]);
		s->ports[i] = NULL;
	}
	for (int i = 0; i < SINK_STREAMS; i++) {
		free(s->streams[i]);
		s->streams[i] = NULL;
	}
}

static inline void add(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

static inline void sub(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) - v,
			      memory_order_relaxed);
}

static struct sink_stream *stream_get(struct sink *s, uint8_t id)
{
	struct sink_stream *st = s->streams[id];
	if (st)
		return st;
	st = malloc(sizeof(*st));
	if (!st)
		return NULL;
	memset(st, 0, sizeof(*st));
	st->id = id;
	seq_init(&st->seq);
	hist_init(&st->delay);
	s->streams[id] = st;
	return st;
}

/* One test frame: sequence accounting, delay, jitter. rx_real is the receive time on
 * CLOCK_REALTIME; mono_off converts it to CLOCK_MONOTONIC. */
static void account(struct sink *s, const struct pkt_info *pi, uint32_t wire_len,
		    uint64_t rx_real, int64_t mono_off)
{
	struct sink_stream *st = stream_get(s, pi->sig.stream);
	if (!st)
		return;
	uint64_t lost0 = seq_lost_now(&st->seq);
	enum seq_verdict v = seq_add(&st->seq, pi->sig.seq);
	uint64_t lost1 = seq_lost_now(&st->seq);
	if (lost1 >= lost0)
		add(&s->ctr.lost_now, lost1 - lost0);
	else
		sub(&s->ctr.lost_now, lost0 - lost1);
	if (v == SEQ_DUPLICATE) {
		add(&s->ctr.dup_pkts, 1);
		return;
	}
	if (v != SEQ_IN_ORDER)
		add(&s->ctr.reordered_pkts, 1);
	add(&s->ctr.rx_pkts, 1);
	add(&s->ctr.rx_bytes, wire_len);
	st->rx_bytes += wire_len;
	if (!st->first_rx_ns)
		st->first_rx_ns = rx_real;
	st->last_rx_ns = rx_real;

	bool realtime = pi->sig.flags & SIG_F_REALTIME;
	st->clock_flags_seen |= realtime ? 1 : 2;
	int64_t rx = realtime ? (int64_t)rx_real : (int64_t)rx_real + mono_off;
	int64_t transit = rx - (int64_t)pi->sig.tx_ns;
	if (transit < 0)
		st->neg_delay++;
	else
		hist_add(&st->delay, (uint64_t)transit);
	if (st->have_transit) {   /* RFC 3550 §6.4.1 */
		int64_t d = transit - st->last_transit;
		if (d < 0)
			d = -d;
		st->jitter_ns += ((double)d - st->jitter_ns) / 16.0;
	}
	st->last_transit = transit;
	st->have_transit = true;
}

int sink_run(struct sink *s, struct runctl *rc)
{
	struct port_pkt pkts[SINK_BURST];
	struct pollfd pfd[SINK_MAX_PORTS];
	int np = s->cfg.nports;

	for (int i = 0; i < np; i++)
		pfd[i] = (struct pollfd){ .fd = port_fd(s->ports[i]), .events = POLLIN };
	while (!runctl_stopped(rc)) {
		int got = 0;
		for (int i = 0; i < np; i++) {
			struct port *p = s->ports[i];
			int n = port_rx_burst(p, pkts, SINK_BURST);
			if (n < 0)
				return n;
			if (!n)
				continue;
			got += n;
			uint64_t real = real_ns();
			int64_t mono_off = (int64_t)mono_ns() - (int64_t)real;
			bool l4 = port_layer(p) == PORT_L4;
			add(&s->ctr.rx_frames, (uint64_t)n);
			int tests = 0;
			for (int k = 0; k < n; k++) {
				struct pkt_info pi;
				enum pkt_class c = l4 ? pkt_classify_payload(pkts[k].data, pkts[k].len, &pi)
						      : pkt_classify(pkts[k].data, pkts[k].len, s->cfg.dport,
								     s->cfg.verify_udp_csum, &pi);
				add(&s->ctr.cls[c], 1);
				if (c != PKT_TEST)
					continue;
				if (pi.sig.flags & SIG_F_WARMUP) {
					add(&s->ctr.warmup_pkts, 1);
					continue;
				}
				/* wire size with FCS: Ethernet + IP length (+ padding) + 4 */
				uint32_t wire = l4 ? (uint32_t)pi.payload_len + PKT_PAYLOAD_OFF + PKT_FCS_LEN
						   : pkts[k].len + PKT_FCS_LEN;
				if (wire < PKT_WIRE_MIN)
					wire = PKT_WIRE_MIN;
				account(s, &pi, wire, pkts[k].ts_ns ? pkts[k].ts_ns : real, mono_off);
				tests++;
			}
			if (tests)
				atomic_store_explicit(&s->ctr.last_test_ns, mono_ns(),
						      memory_order_relaxed);
		}
		if (!got)
			poll(pfd, (nfds_t)np, 1);
	}
	return 0;
}
