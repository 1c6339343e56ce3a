/* SPDX-License-Identifier: BSD-2-Clause */
/* sink.h — the receive engine: classifies every frame, accounts test frames per stream,
 * measures one-way delay and jitter, with one or several receive threads.
 *
 * main.c builds a sink_cfg; sink_init opens the ports (for each -i, one socket per
 * worker); sink_start runs the workers until rc->stop; sink_stop joins them. While they
 * run, the main thread reads summed counters (single writer per worker, relaxed atomics)
 * with sink_totals, and takes each interval's delay histogram with sink_interval, a
 * hand-off in which every worker swaps its double-buffered histogram at a batch
 * boundary (so the two threads never touch the same buffer). After sink_stop,
 * sink_finish merges the workers' streams into s->streams and applies the expected
 * frame counts (tail loss).
 *
 * Several workers (cfg.nthreads > 1) share each afpacket interface through a
 * PACKET_FANOUT_CBPF group that picks the socket by the signature's stream id byte, so
 * every stream is owned by exactly one worker and its sequence accounting stays exact;
 * a flow hash would spread a many-flow stream over several workers. On an xdp: port
 * worker t reads queue t (after the spec's queue=): the interface's RSS decides which
 * worker sees a frame, so a stream spread over queues is merged at the end and marked
 * split (its loss then comes from the sender's count, --expect-from). */
#ifndef PPSLAB_SINK_SINK_H
#define PPSLAB_SINK_SINK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "delay.h"
#include "gap.h"
#include "hist.h"
#include "pkt.h"
#include "pkt6.h"
#include "port.h"
#include "runctl.h"
#include "seq.h"

#define SINK_MAX_PORTS 8
#define SINK_MAX_THREADS 16
#define SINK_STREAMS 256
/* --delay-by-size tables, for the whole sink (a stream split over workers takes one a
 * worker): 123 kB each, 3.9 MB in all */
#define SINK_BY_SIZE_TABLES 32
/* --epoch: the arrival times of the last so many stale frames a worker keeps (64 kB) */
#define SINK_STALE_RING 4096
/* Where the fanout program reads the stream id: Ethernet 14 + IPv4 20 + UDP 8, then the
 * signature's fourth byte (sig.h); 4 bytes further per VLAN tag in the frame
 * (port_afpacket.c's selector moves it). */
#define SINK_STREAM_BYTE_OFF (PKT_PAYLOAD_OFF + 3)
#define SINK_STREAM_BYTE_OFF6 (PKT_PAYLOAD6_OFF + 3)    /* in an IPv6 test frame */

struct sink_cfg {
	const char *port_specs[SINK_MAX_PORTS];
	int nports;
	int nthreads;            /* receive workers; 0 or 1 = one */
	int cpus[SINK_MAX_THREADS];   /* pin worker t to cpus[t % ncpus] */
	int ncpus;               /* 0: not pinned */
	uint16_t dport;          /* test UDP port; 0 = any */
	bool verify_udp_csum;
	uint64_t warmup_ns;      /* test frames within this long of the first are not measured */
	uint64_t max_delay_ns;   /* one-way delays above are implausible (clocks disagree) */
	uint64_t gap_min_ns;     /* a silence longer than this is a gap (gap.h); 0: off */
	unsigned gap_list;       /* gaps listed per stream, at most GAP_LIST */
	bool delay_by_size;      /* also keep each stream's one-way delays per frame size */
	bool epoch_on;           /* --epoch: test frames of another epoch are stale */
	uint8_t epoch;           /* the trial's epoch (sig.h: the numbers' top 8 bits) */
	bool vlan_expect;        /* --vlan: test frames must carry exactly these tags */
	struct pkt_vlan vlan;    /* (n 0: untagged); the VIDs are compared, not PCP, TPID */
};

/* Test frames per tag stack (untagged one of them), bounded: a worker keeps the first
 * SINK_VLANS stacks it sees and counts the rest in vlans_other. A frame with a valid
 * signature counts here whether or not its tags were the expected ones (wrong_vlan). */
#define SINK_VLANS 64
struct sink_vlan_count {
	uint8_t n;                   /* tags: 0, 1 or 2 */
	uint16_t vid, outer_vid;     /* the only or inner VID; QinQ's outer one */
	bool wrong;                  /* not what --vlan expects */
	uint64_t pkts;
};

/* Per stream: sequence accounting, delay and jitter. Allocated on first sight. */
struct sink_stream {
	uint8_t id;
	int worker;              /* the worker that owns it */
	bool started;            /* the measured part began (seq floor set) */
	bool split;              /* seen by several workers: merged, loss not exact */
	bool have_warm;
	uint64_t warm_next;      /* highest warm-up sequence number seen + 1 */
	uint64_t warmup_pkts;
	struct seq_stream seq;
	struct gap_book gaps;    /* its outage timeline; not kept for a split stream */
	uint64_t rx_bytes;       /* with FCS */
	struct delay_stats delay;
	struct delay_sizes *by_size;   /* cfg.delay_by_size: the delays per frame size, a
					* table of the sink's pool (NULL: the pool ran out) */
	unsigned clock_seen;     /* 1: CLOCK_REALTIME stamps seen, 2: CLOCK_MONOTONIC */
	uint64_t first_rx_ns, last_rx_ns;   /* CLOCK_REALTIME of first/last arrival */
	uint64_t expect;         /* frames the sender sent (after sink_finish; 0 unknown) */
	uint64_t sender_holes;   /* of those numbers, never sent (the sender's own count) */
	bool have_expect;
	bool beyond_expect;      /* numbers at or above `expect` arrived: stale or wrong count */
};

struct sink_counters {
	_Atomic uint64_t rx_frames;     /* everything read from the ports */
	_Atomic uint64_t rx_pkts;       /* distinct measured test frames */
	_Atomic uint64_t rx_bytes;      /* of those, with FCS */
	_Atomic uint64_t lost_now;      /* provisional loss: Σ streams (final + missing) */
	_Atomic uint64_t dup_pkts, reordered_pkts, warmup_pkts, before_floor_pkts;
	_Atomic uint64_t neg_delay_pkts, implausible_delay_pkts;
	_Atomic uint64_t ring_drops;    /* the ports' own drops, sampled at each hand-off */
	/* cfg.epoch_on: signed frames of another epoch (an earlier trial's), never test
	 * frames of this one */
	_Atomic uint64_t stale_pkts;
	_Atomic uint64_t cls[PKT_CLASS_MAX];   /* frames by class; cls[PKT_TEST] = arrivals */
	_Atomic uint64_t last_test_ns;  /* CLOCK_MONOTONIC of the last test frame */
	_Atomic uint64_t first_test_ns; /* CLOCK_MONOTONIC of the first test frame; 0 = none yet */
};

struct sink;

struct sink_worker {
	struct sink *s;
	int id;
	struct port *ports[SINK_MAX_PORTS];
	struct sink_stream *streams[SINK_STREAMS];
	struct sink_counters ctr;
	/* cfg.epoch_on, per clock a frame names (0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC; 0:
	 * none): when the last stale frame arrived, and the earliest send stamp of this
	 * epoch's frames (warm-up too), for sink_stale_overlap; and when each of the last
	 * SINK_STALE_RING stale frames arrived (allocated by sink_init), for
	 * sink_stale_load */
	uint64_t stale_last_rx[2], own_first_tx[2];
	struct sink_stale_at { uint64_t rx[2]; } *stale_at;
	uint64_t stale_seen;
	/* per tag stack: written by the worker, read after sink_stop */
	struct sink_vlan_count vlans[SINK_VLANS];
	unsigned nvlans, vlan_last;
	uint64_t vlans_other;
	/* interval delay histograms: the worker fills ih[ih_cur]; on a request it flips
	 * ih_cur and acknowledges, then the main thread reads and clears the other one */
	struct hist ih[2];
	unsigned ih_cur;
	unsigned swap_seen;               /* worker's copy of the last request served */
	_Atomic unsigned swap_req, swap_ack;
	unsigned swap_sent;               /* main's copy of the last request sent */
	pthread_t th;
	bool running;
	int ret;
	struct runctl *rc;
};

struct sink {
	struct sink_cfg cfg;
	int nworkers;
	struct sink_worker *w[SINK_MAX_THREADS];
	_Atomic uint64_t warm_end_ns;   /* CLOCK_MONOTONIC end of the warm-up; 0 = not begun */
	struct sink_stream *streams[SINK_STREAMS];   /* merged by sink_finish */
	uint64_t split_streams;
	/* merged by sink_finish: every worker's tag stacks (at most SINK_VLANS, the rest
	 * in vlans_other) */
	struct sink_vlan_count vlans[SINK_VLANS];
	unsigned nvlans;
	uint64_t vlans_other;
	/* cfg.delay_by_size: the per-size delay tables, allocated by sink_init (never in the
	 * receive path); a stream takes the next on its first frame, and once all
	 * SINK_BY_SIZE_TABLES are taken a new stream keeps no per-size delays and is
	 * counted in by_size_unkept */
	struct delay_sizes *by_size_pool;
	_Atomic unsigned by_size_used;
	_Atomic uint64_t by_size_unkept;
};

/* Aggregate of every worker's counters. */
struct sink_totals {
	uint64_t rx_frames, rx_pkts, rx_bytes, lost_now, dup, reord, warmup, before_floor;
	uint64_t neg_delay, implausible_delay, ring_drops, last_test_ns;
	uint64_t stale;               /* another epoch's frames (cfg.epoch_on) */
	uint64_t first_test_ns;   /* earliest over the workers; 0 = no test frame yet */
	uint64_t err, foreign, other;
	uint64_t cls[PKT_CLASS_MAX];
};

/* Opens every port for every worker (cfg.nports may be 0: workers without ports, for
 * tests that feed sink_process directly). 0 or -errno with a message in err. */
int sink_init(struct sink *s, const struct sink_cfg *cfg, char *err, size_t errlen);
/* Starts the workers. A worker that fails sets its ret and calls runctl_wake. */
int sink_start(struct sink *s, struct runctl *rc);
/* Joins the workers (after rc->stop is set) and folds the ports' final drop counts in.
 * Returns the first worker error (0 or -errno). */
int sink_stop(struct sink *s);
void sink_totals(struct sink *s, struct sink_totals *t);
/* Merges every worker's interval histogram into h (which the caller initialized) and
 * clears them; also refreshes the ring-drop counters. Waits up to timeout_ns for each
 * worker; returns the number of workers that did not answer in time (their share comes
 * with a later interval). Called by one thread only. */
int sink_interval(struct sink *s, struct hist *h, uint64_t timeout_ns);
/* After sink_stop: merges streams into s->streams, then ends each stream's accounting
 * with its expected count: expect_stream[id] when have_stream[id] (streams that never
 * arrived are created, all lost; holes_stream[id], if given, says how many of those
 * numbers the sender never sent), else expect_all (0 = unknown). 0 or -ENOMEM. */
int sink_finish(struct sink *s, uint64_t expect_all, const uint64_t *expect_stream,
		const bool *have_stream, const uint64_t *holes_stream);
void sink_fini(struct sink *s);

/* The per-burst work of a worker, for its receive loop and for tests: classifies and
 * accounts n frames received at rx_real_ns (CLOCK_REALTIME, used when a frame has no
 * kernel stamp) / now_mono_ns. */
void sink_process(struct sink_worker *w, const struct port_pkt *pkts, int n,
		  enum port_layer layer, uint64_t rx_real_ns, uint64_t now_mono_ns);

/* After sink_stop, with cfg.epoch_on: how long after this epoch's first frame left its
 * sender the last frame of another epoch arrived (ns; <= 0: before it, the router had
 * delivered the earlier trial's frames before this one's load began). false when it
 * cannot be said: no stale frame, none of this epoch, or their stamps on no common
 * clock. As exact as the sender's and the sink's clocks agree (on one host: exactly). */
bool sink_stale_overlap(const struct sink *s, int64_t *ns);
/* After sink_stop, with cfg.epoch_on: how many frames of another epoch arrived after
 * this epoch's first frame was sent (*n; *truncated when more may have than the
 * SINK_STALE_RING a worker remembers). false when it cannot be said (as
 * sink_stale_overlap). */
bool sink_stale_load(const struct sink *s, uint64_t *n, bool *truncated);

/* Error classes that are malformed frames (err_pkts), as opposed to foreign or other
 * traffic. */
bool sink_class_is_error(enum pkt_class c);

#endif
