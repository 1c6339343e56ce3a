/* SPDX-License-Identifier: BSD-2-Clause */
/* fwdloop.h — the forwarding threads of ppslab-rut: the three scheduling modes and
 * everything each thread owns.
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
 * With N threads (--threads) each runs the mode over its own queue of every port
 * (fwd.h). In poll mode each thread has a poll context of its own — its rounds, its
 * adaptive burst, its statistics — as DragonFly's per-CPU polling (kern_poll.c 1.37
 * on) has one per CPU; the contexts tick on one clock (the same origin and rate), and
 * a knob written through the control socket goes to every context (each replays the
 * writes of thread 0's, in order: docs/design/polling.md#several-forwarding-threads).
 *
 * Between batches (busy, intr) or after each round (poll) a thread passes a quiescent
 * point (qsbr.h), applies knob writes, refreshes its kernel drop counters every 100 ms
 * and publishes its polling figures; thread 0 also looks at the control mailbox and
 * runs a waiting command (cmd.c), frees what the commands replaced, and runs the
 * firewall's once-a-second work. */
#ifndef PPSLAB_ROUTER_UNDER_TEST_FWDLOOP_H
#define PPSLAB_ROUTER_UNDER_TEST_FWDLOOP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctl.h"
#include "fwd.h"
#include "devpoll.h"
#include "qsbr.h"
#include "runctl.h"

enum fwdloop_mode { RUT_POLL = 0, RUT_INTR, RUT_BUSY };

const char *fwdloop_mode_name(enum fwdloop_mode m);
/* "poll", "intr", "busy" -> mode; -EINVAL otherwise. */
int fwdloop_mode_parse(const char *s, enum fwdloop_mode *m);

/* What the interval reporter may read while the threads run (thread 0's). */
struct fwdloop_pub {
	_Atomic uint64_t burst, pollhz, ticks, lost_polls, rounds;
};

/* Facts about the run that the stats report. */
struct fwdloop_info {
	int routes, neighbours;
	double route_load_ms;
	uint64_t t0_ns;              /* start, CLOCK_MONOTONIC */
};

/* A thread's poll context as another thread may read it (fwdloop_poll_view). */
struct fwdloop_view {
	struct devpoll_stats st;
	struct devpoll_knobs k;
	uint32_t clock_hz;
	bool registered;
	uint64_t t_ns;               /* CLOCK_MONOTONIC when it was taken */
	struct hist late_ns;         /* tick lateness (refreshed every 100 ms) */
};

#define KNOB_LOG 256

struct fwdloop;
struct fwdloop_thr;
struct fwdloop_handler {
	struct fwdloop_thr *t;
	int port;
};

struct fwdloop_thr {
	struct fwdloop *s;
	int id;
	struct fwd_thr *ft;
	struct devpoll poll;            /* in every mode: the knobs are always readable */
	struct fwdloop_handler h[FWD_MAX_PORTS];
	int epfd;                    /* the ports while ports_armed; thread 0: the ctl wake-up */
	bool ports_armed;            /* the ports are in epfd (intr; poll while disabled) */
	int cpu;                     /* pinned to this CPU, -1: not pinned */
	int err;                     /* -errno when forwarding failed */
	uint64_t cpu_ns;             /* the thread's CPU time when it ended */
	_Atomic int running;
	pthread_t th;
	uint64_t next_refresh;       /* CLOCK_MONOTONIC ns of the next counter refresh */
	uint64_t next_link;          /* ... and of the next link check (fwd_link_check) */
	uint32_t kseen;              /* knob writes applied */
	_Atomic uint32_t kdone;
	pthread_mutex_t view_lock;   /* view: the thread's poll context, published */
	struct fwdloop_view view;
};

struct fwdloop {
	struct fwd *f;
	enum fwdloop_mode mode;
	int burst;                   /* busy and intr modes */
	uint64_t spin_ns;            /* poll mode: spin this long before a deadline */
	_Atomic int rt_prio;         /* SCHED_FIFO priority the threads got, 0: normal */
	struct runctl *rc;
	struct ctl_req *mb;          /* NULL without --ctl */
	struct fwdloop_info info;
	struct fwdloop_pub pub;
	int nthr;
	struct fwdloop_thr *t[FWD_MAX_THREADS];
	struct qsbr qsbr;
	uint64_t clock_base;         /* the poll clock's origin, shared by the threads */
	/* knob writes of thread 0's context, replayed by the others in order */
	struct { int knob; int64_t v; } klog[KNOB_LOG];
	_Atomic uint32_t kseq;
	_Atomic int nrunning;
};

/* Sets up the threads' state (epoll sets, poll handlers, knobs at the defaults of
 * kernel personality k, NULL for the default), one per forwarder thread (f->nthr);
 * thread i runs on cpus[i % ncpus] (ncpus 0: anywhere). 0 or -errno. */
int fwdloop_init(struct fwdloop *s, struct fwd *f, enum fwdloop_mode mode,
		 const struct pollkern *k, int burst, uint64_t spin_ns, struct runctl *rc,
		 struct ctl_req *mb, const int *cpus, int ncpus);
/* A scheduler of one thread that never runs, for driving cmd_exec in tests: its poll
 * context on the clock now(clk). */
int fwdloop_init_detached(struct fwdloop *s, struct fwd *f, const struct pollkern *k,
			  devpoll_clock_fn now, void *clk);
void fwdloop_fini(struct fwdloop *s);
/* Starts the forwarding threads, with SCHED_FIFO priority rt_prio when > 0 (a tick
 * clock that other processes cannot delay). Without the privilege for that (EPERM)
 * they run at normal priority and *rt_ok says so. 0 or -errno. */
int fwdloop_start(struct fwdloop *s, int rt_prio, bool *rt_ok);
/* Joins the threads (after rc->stop was set). */
void fwdloop_join(struct fwdloop *s);
/* The forwarding threads' CPU time so far, all or thread i's (any thread; after the
 * join, at their end). */
uint64_t fwdloop_cpu_ns(struct fwdloop *s);
uint64_t fwdloop_thr_cpu_ns(struct fwdloop_thr *t);
/* Thread 0's poll context: the one the sysctl names read and write (DragonFly's global
 * kern.polling names are those of the default CPU). */
static inline struct devpoll *fwdloop_poll0(struct fwdloop *s)
{
	return &s->t[0]->poll;
}
/* --range-policy, on every context (before the threads start). */
void fwdloop_set_range(struct fwdloop *s, enum pk_range r);
/* rut_sysctl's hook: thread 0's context took a knob write; the others replay it. */
void fwdloop_knob_written(void *arg, int knob, int64_t v);
/* Waits (up to 2 s) until every running thread has applied the knob writes so far;
 * false if one did not. Thread 0 (a command) or before the start. */
bool fwdloop_knob_sync(struct fwdloop *s);
/* Thread i's poll context now: its own if called by that thread or after the join,
 * else what it last published (every round in poll mode, every 100 ms otherwise). */
void fwdloop_poll_view(struct fwdloop *s, int i, struct fwdloop_view *v);

#endif
