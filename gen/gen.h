/* gen.h — the sender engine: builds the frame template, paces, transmits, counts.
 *
 * main.c fills a gen_cfg from the command line, gen_init resolves what it can (port,
 * template), gen_run runs the transmit loop in the calling thread until the count or
 * duration is reached or rc->stop is set; the main thread meanwhile reads gen_snapshot
 * for its interval lines. Counters have a single writer (the worker) and are read with
 * relaxed atomics. */
#ifndef PPSLAB_GEN_H
#define PPSLAB_GEN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "pkt.h"
#include "port.h"
#include "runctl.h"

struct gen_cfg {
	const char *port_spec;
	struct pkt_flow flow;
	uint32_t wire_size;        /* frame size with FCS (64 = RFC 2544 minimum) */
	double rate_pps;           /* 0 = as fast as possible */
	uint32_t burst;            /* frames per pacing deadline */
	uint64_t count;            /* 0 = unbounded (then duration bounds the run) */
	uint64_t duration_ns;      /* 0 = unbounded (then count bounds the run) */
	uint8_t stream;
	bool realtime_ts;          /* signature timestamps on CLOCK_REALTIME (default) */
};

struct gen_counters {
	_Atomic uint64_t tx_attempt;  /* frames the schedule asked for */
	_Atomic uint64_t tx_pkts;     /* accepted by the ring / kernel */
	_Atomic uint64_t tx_bytes;    /* bytes of accepted frames, with FCS */
	_Atomic uint64_t tx_fail;     /* frames given up (kernel rejected) */
	_Atomic uint64_t tx_full;     /* times the ring/socket was full (backpressure) */
	_Atomic uint64_t late;        /* batches that started more than 100 us after their deadline */
	_Atomic uint64_t first_ns, last_ns;  /* CLOCK_MONOTONIC of the first and last send */
};

struct gen {
	struct gen_cfg cfg;
	struct port *port;
	uint8_t tmpl[PKT_FRAME_MAX];
	uint32_t frame_len;
	struct gen_counters ctr;
};

/* Opens the port and builds the template. 0 or -errno with a message in err. */
int gen_init(struct gen *g, const struct gen_cfg *cfg, char *err, size_t errlen);
/* The transmit loop; returns 0 or -errno. Calls runctl_wake when it ends by itself. */
int gen_run(struct gen *g, struct runctl *rc);
void gen_fini(struct gen *g);

/* A consistent-enough copy of the counters for reporting. */
struct gen_snap {
	uint64_t tx_attempt, tx_pkts, tx_bytes, tx_fail, tx_full, late, first_ns, last_ns;
};
void gen_snapshot(struct gen *g, struct gen_snap *s);

#endif
