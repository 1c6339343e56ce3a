/* sink.h — the receive engine: classifies every frame, accounts test frames per stream,
 * measures one-way delay and jitter.
 *
 * main.c builds a sink_cfg, sink_init opens the ports, sink_run is the receive loop (in
 * a worker thread) until rc->stop. The main thread reads the aggregate counters (single
 * writer, relaxed atomics) for interval lines; per-stream detail is read after the
 * worker has stopped. */
#ifndef PPSLAB_SINK_H
#define PPSLAB_SINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "ifinfo.h"
#include "pkt.h"
#include "port.h"
#include "runctl.h"
#include "seq.h"

#define SINK_MAX_PORTS 8
#define SINK_STREAMS 256

struct sink_cfg {
	const char *port_specs[SINK_MAX_PORTS];
	int nports;
	uint16_t dport;          /* test UDP port; 0 = any */
	bool verify_udp_csum;
};

/* Per stream: sequence accounting, delay and jitter. Allocated on first sight. */
struct sink_stream {
	uint8_t id;
	struct seq_stream seq;
	uint64_t rx_bytes;       /* with FCS */
	struct hist delay;       /* one-way delay, ns */
	uint64_t neg_delay;      /* delay < 0: clocks disagree */
	uint64_t clock_flags_seen;  /* SIG_F_REALTIME bits seen (1: realtime, 2: monotonic) */
	int64_t last_transit;
	bool have_transit;
	double jitter_ns;        /* RFC 3550 interarrival jitter, J += (|D| − J)/16 */
	uint64_t first_rx_ns, last_rx_ns;   /* CLOCK_REALTIME of first/last arrival */
};

struct sink_counters {
	_Atomic uint64_t rx_frames;     /* everything read from the ports */
	_Atomic uint64_t rx_pkts;       /* distinct test frames */
	_Atomic uint64_t rx_bytes;      /* of test frames, with FCS */
	_Atomic uint64_t lost_now;      /* provisional loss: Σ streams (final + missing) */
	_Atomic uint64_t dup_pkts, reordered_pkts, warmup_pkts;
	_Atomic uint64_t cls[PKT_CLASS_MAX];   /* frames by class; cls[PKT_TEST] = arrivals */
	_Atomic uint64_t last_test_ns;  /* CLOCK_MONOTONIC of the last test frame */
};

struct sink {
	struct sink_cfg cfg;
	struct port *ports[SINK_MAX_PORTS];
	struct sink_stream *streams[SINK_STREAMS];
	struct sink_counters ctr;
};

int sink_init(struct sink *s, const struct sink_cfg *cfg, char *err, size_t errlen);
int sink_run(struct sink *s, struct runctl *rc);
void sink_fini(struct sink *s);

/* Error classes that are malformed frames (err_pkts), as opposed to foreign or other
 * traffic. */
bool sink_class_is_error(enum pkt_class c);

#endif
