/* SPDX-License-Identifier: BSD-2-Clause */
/* fwdloop.h — the forwarding thread of ppslab-rut: the three scheduling modes and
 * everything that thread owns.
 *
 *   poll  DEVICE_POLLING (devpoll.c): a clock at pollhz on absolute CLOCK_MONOTONIC
 *         deadlines (timer slack 1 ns, sleep until spin_ns before the deadline, then
 *         spin), each tick a round of `burst` frames per ingress port in each_burst
 *         chunks, as the kernel personality does it; idle_poll (FreeBSD) keeps polling
 *         between ticks; kern.polling.enable=0 hands the ports back to interrupts (the
 *         intr service below) until they register again.
 *   intr  an interrupt-driven driver: epoll on the ports' descriptors, then every port
 *         is drained in bursts of `burst` frames round-robin (the seeds' "NP" rows).
 *   busy  spin over the ports, one burst each, run to completion (the DPDK style).
 *
 * Between batches (busy, intr) or after each round (poll) the thread looks at the
 * control mailbox and runs a waiting command (cmd.c), refreshes the kernel drop
 * counters every 100 ms and publishes a few polling figures for the interval lines. */
#ifndef PPSLAB_ROUTER_UNDER_TEST_FWDLOOP_H
#define PPSLAB_ROUTER_UNDER_TEST_FWDLOOP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctl.h"
#include "fwd.h"
#include "devpoll.h"
#include "runctl.h"

enum rut_mode { RUT_POLL = 0, RUT_INTR, RUT_BUSY };

const char *rut_mode_name(enum rut_mode m);
/* "poll", "intr", "busy" -> mode; -EINVAL otherwise. */
int rut_mode_parse(const char *s, enum rut_mode *m);

/* What the interval reporter may read while the thread runs. */
struct sched_pub {
	_Atomic uint64_t burst, pollhz, ticks, lost_polls, rounds;
};

/* Facts about the run that the stats report. */
struct rut_info {
	int routes, neighbours;
	double route_load_ms;
	uint64_t t0_ns;              /* start, CLOCK_MONOTONIC */
};

struct sched;
struct sched_handler {
	struct sched *s;
	int port;
};

struct sched {
	struct fwd *f;
	enum rut_mode mode;
	struct poll poll;            /* in every mode: the knobs are always readable */
	int burst;                   /* busy and intr modes */
	uint64_t spin_ns;            /* poll mode: spin this long before a deadline */
	int rt_prio;                 /* SCHED_FIFO priority the thread got, 0: normal */
	struct runctl *rc;
	struct ctl_req *mb;          /* NULL without --ctl */
	struct rut_info info;
	struct sched_pub pub;
	int epfd;                    /* the ctl wake-up, and the ports while ports_armed */
	bool ports_armed;            /* the ports are in epfd (intr; poll while disabled) */
	int err;                     /* -errno when forwarding failed */
	uint64_t cpu_ns;             /* the thread's CPU time when it ended */
	_Atomic int running;
	pthread_t th;
	struct sched_handler h[FWD_MAX_PORTS];
	uint64_t next_refresh;       /* CLOCK_MONOTONIC ns of the next counter refresh */
};

/* Sets up the thread's state (epoll set, poll handlers, knobs at the defaults of kernel
 * personality k, NULL for the default). 0 or -errno. */
int sched_init(struct sched *s, struct fwd *f, enum rut_mode mode, const struct pollkern *k,
	       int burst, uint64_t spin_ns, struct runctl *rc, struct ctl_req *mb);
void sched_fini(struct sched *s);
/* Starts the forwarding thread, with SCHED_FIFO priority rt_prio when > 0 (a tick
 * clock that other processes cannot delay). Without the privilege for that (EPERM)
 * the thread runs at normal priority and *rt_ok says so. 0 or -errno. */
int sched_start(struct sched *s, int rt_prio, bool *rt_ok);
/* Joins the thread (after rc->stop was set). */
void sched_join(struct sched *s);
/* The forwarding thread's CPU time so far (any thread; after the join, at its end). */
uint64_t sched_cpu_ns(struct sched *s);

#endif
