/* SPDX-License-Identifier: BSD-2-Clause */
/* gen.h — the sender engine: templates, workers, pacing, transmission, accounting.
 *
 * main.c fills a gen_cfg from the command line; gen_init builds the frame templates and
 * opens one port per worker (each thread its own ring or socket); gen_start runs the
 * workers from a common start time; the main thread meanwhile reads gen_snapshot and
 * gen_gaps for its interval lines; gen_join waits for them. Counters have a single
 * writer (their worker) and are read with relaxed atomics.
 *
 * Threads split the schedule exactly (pace.h: worker t owns the bursts j ≡ t mod N), so
 * their frames add up to the target count and rate. Sequence numbers of the stream come
 * from one shared counter, claimed per batch just before the batch is handed to the
 * port, so the stream the sink sees is gap-free across threads: unique numbers 0, 1, 2,
 * ... in roughly send order (threads interleave, which the sink counts as reordering
 * within a batch or two, never as loss). A batch claimed but never accepted because the
 * run stopped while the ring was full is given back when no other thread claimed since,
 * and otherwise counted in seq_holes. */
#ifndef PPSLAB_GEN_GEN_H
#define PPSLAB_GEN_GEN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "frame.h"
#include "hist.h"
#include "pace.h"
#include "pkt.h"
#include "port.h"
#include "replay.h"
#include "runctl.h"

#define GEN_MAX_THREADS 64

#define GEN_BATCH 512   /* frames per hand-over at most: 512 per sendto measured best here (64: -25%) */

struct gen_cfg {
	const char *port_spec;
	struct pkt_flow flow;          /* the base flow: the first of every range */
	struct gen_sizes sizes;
	struct gen_flows flows;        /* n == 1: the base flow only */
	struct gen_pattern pattern;
	struct gen_inject inject;
	const struct gen_replay *replay;   /* send these frames instead of test frames */
	double rate_pps;               /* constant rate when profile is NULL; 0 = max */
	const struct pace_profile *profile;  /* steps or ramp (copied by gen_init) */
	int poisson;
	uint64_t seed;
	uint32_t burst;                /* frames per deadline, per thread */
	uint64_t count;                /* 0 = unbounded (then duration or the profile bound it) */
	uint64_t duration_ns;          /* 0 = unbounded */
	uint64_t warmup_ns;            /* flagged warm-up frames first, at the first rate */
	uint8_t stream;
	uint8_t epoch;                 /* the top 8 bits of every sequence number (sig.h) */
	bool realtime_ts;              /* signature timestamps on CLOCK_REALTIME */
	unsigned threads;
	int cpus[GEN_MAX_THREADS];     /* pin thread t to cpus[t % ncpus] */
	unsigned ncpus;
	uint64_t late_ns;              /* a frame sent this long after its deadline is late */
	enum pace_late late_policy;   /* docs/gen.md#falling-behind */
	/* tests only (PPSLAB_TEST_GEN_STALL, HACKING.md): whenever CLOCK_REALTIME passes a
	 * multiple of stall_every_ns in the measured phase, each worker stops for stall_ns,
	 * as a host that stalls it would */
	uint64_t stall_every_ns, stall_ns;
};

/* One worker's counters: single writer, relaxed atomics. Measured frames only, except
 * warmup_*. tx_attempt = tx_pkts + tx_unsent; tx_fail counts frames the kernel took
 * and then rejected (they never reached the wire). */
struct gen_wctr {
	_Atomic uint64_t tx_attempt;   /* frames handed to the port */
	_Atomic uint64_t tx_pkts;      /* accepted by the ring / kernel */
	_Atomic uint64_t tx_bytes;     /* their bytes, with FCS */
	_Atomic uint64_t tx_test;      /* of those, test frames with a sequence number */
	_Atomic uint64_t tx_fail;      /* rejected by the kernel after acceptance */
	_Atomic uint64_t tx_refused;   /* sent, then refused by ICMP (udp: port unreachable) */
	_Atomic uint64_t tx_full;      /* times the ring/socket was full (ENOBUFS, EAGAIN) */
	_Atomic uint64_t tx_unsent;    /* never accepted: the run stopped while full */
	_Atomic uint64_t seq_holes;    /* sequence numbers claimed but never sent */
	_Atomic uint64_t late;         /* frames sent more than late_ns after their deadline */
	_Atomic uint64_t skipped;      /* left out by --late-policy skip (never numbered) */
	_Atomic uint64_t shifted_ns;   /* how far --late-policy shift moved the schedule */
	_Atomic uint64_t burst_max;    /* the largest burst sent (pace_track) */
	_Atomic uint64_t behind_ns, behind_max_ns, behind_n;   /* time behind schedule */
	_Atomic uint64_t warmup_pkts, warmup_bytes;
	_Atomic uint64_t fault[GEN_FAULT_MAX];
	_Atomic uint64_t first_tx_ns;  /* the first batch accepted, warm-up included */
	_Atomic uint64_t first_ns, last_ns;              /* first and last measured batch */
	_Atomic uint64_t sched_first_ns, sched_last_ns;  /* their deadlines */
};

struct gen_worker {
	struct gen *g;
	unsigned idx;
	struct port *port;
	pthread_t th;
	int started;
	int ret;
	int warm;                      /* in the warm-up phase */
	struct pace pace;
	struct pace_track track;       /* bursts and time behind of the measured phase */
	uint64_t rng;                  /* xorshift64* for random flows */
	uint64_t warm_seq;
	uint64_t prev_send_ns;
	uint64_t sched_pkts;           /* after the run: frames the schedule asked of it */
	uint8_t *slots;                /* GEN_BATCH frames of frame_max bytes */
	uint8_t slot_size[GEN_BATCH];  /* size index a slot holds (0xff: none yet) */
	uint8_t slot_fault[GEN_BATCH];
	struct port_pkt pkts[GEN_BATCH];
	struct gen_wctr ctr __attribute__((aligned(64)));
	struct hist gaps;              /* inter-departure gaps of measured frames, ns */
};

struct gen {
	struct gen_cfg cfg;
	struct gen_frames fr;
	struct pace_profile prof;      /* the measured schedule */
	struct pace_profile warm_prof;
	int paced;                     /* 0: as fast as possible */
	double nominal_gap_ns;         /* a worker's gap between deadlines at the mean rate */
	double warm_pps;               /* 0: as fast as possible */
	unsigned nw;
	struct gen_worker *w;
	struct runctl *rc;
	uint64_t start_ns;             /* warm-up start (= measured start without warm-up) */
	uint64_t meas_ns;              /* measured schedule start */
	uint64_t end_ns;               /* 0: no time bound */
	_Atomic uint64_t seq_next __attribute__((aligned(64)));
	_Atomic unsigned running;
};

/* Builds the templates and opens the ports. 0 or -errno with a message in err. */
int gen_init(struct gen *g, const struct gen_cfg *cfg, char *err, size_t errlen);
/* Starts the workers; the schedule begins at start_ns (CLOCK_MONOTONIC, a few ms
 * ahead so that every thread is ready). Workers call runctl_wake when the last ends. */
int gen_start(struct gen *g, struct runctl *rc, uint64_t start_ns, char *err, size_t errlen);
unsigned gen_running(struct gen *g);
/* Waits for the workers; returns the first worker's error, or 0. */
int gen_join(struct gen *g);
void gen_fini(struct gen *g);

/* Sums of the workers' counters. first/last over all workers. */
struct gen_snap {
	uint64_t tx_attempt, tx_pkts, tx_bytes, tx_test, tx_fail, tx_refused, tx_full, tx_unsent;
	uint64_t seq_holes;
	uint64_t late, warmup_pkts, warmup_bytes, fault[GEN_FAULT_MAX];
	uint64_t skipped, shifted_ns;  /* sums */
	/* the largest of the workers' (threads run side by side: a stall of the host is
	 * behind time of each, not their sum) */
	uint64_t burst_max, behind_ns, behind_max_ns, behind_n;
	uint64_t first_ns, last_ns, sched_first_ns, sched_last_ns;
	uint64_t first_tx_ns;          /* the first batch of any phase (CLOCK_MONOTONIC), 0: none */
	uint64_t sched_pkts;           /* valid after gen_join */
};
void gen_snapshot(struct gen *g, struct gen_snap *s);
void gen_worker_snapshot(struct gen_worker *w, struct gen_snap *s);
/* The merged inter-departure histogram (each worker's own gaps). */
void gen_gaps(struct gen *g, struct hist *out);
/* "catchup", "skip", "shift"; gen_late_parse: 0 or -EINVAL. */
const char *gen_late_name(enum pace_late l);
int gen_late_parse(const char *s, enum pace_late *l);
/* Frames the schedule asks for between a and b ns after start_ns (warm-up included):
 * the target of an interval. NaN when as fast as possible. */
double gen_expected(const struct gen *g, uint64_t a_ns, uint64_t b_ns);
/* Frames per second the measured schedule asks for at its start. */
double gen_initial_pps(const struct gen *g);

#endif
