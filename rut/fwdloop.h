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
 * runs a waiting command through the hook main installed (fwdloop_set_cmd), frees what
 * the commands replaced, and runs the firewall's once-a-second work. */
#ifndef PPSLAB_RUT_FWDLOOP_H
#define PPSLAB_RUT_FWDLOOP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctl.h"
#include "fwd.h"
#include "devpoll.h"

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

/* The scheduler: its threads and their state, private to fwdloop.c. */
struct fwdloop;
struct runctl;

/* A scheduler to set up with fwdloop_init or fwdloop_init_detached; NULL without
 * memory. fwdloop_free finishes it (fwdloop_fini) and frees it. */
struct fwdloop *fwdloop_new(void);
void fwdloop_free(struct fwdloop *s);

/* The command hook: runs the control request r waiting in the mailbox, on thread 0
 * between batches, and returns the exit status of the BSD tool it stands for. main
 * installs it (cmd.c's cmd_hook) before the start; the loop knows no command. */
typedef int (*fwdloop_cmd_fn)(void *ctx, struct ctl_req *r);
void fwdloop_set_cmd(struct fwdloop *s, fwdloop_cmd_fn fn, void *ctx);
/* A command that goes on beside the forwarding (cmd.c's loads: the rule load by a
 * thread of its own, the reply once thread 0's rings drained): the hook returns
 * FWDLOOP_CMD_LATER and the request stays open; thread 0 calls the hook again whenever
 * it has nothing due — poll mode: once in each wait for the next tick; intr mode: when
 * no port has frames, every ms; busy mode: after a round that read nothing — until it
 * returns a status, which completes the request. Meanwhile no other command runs. The
 * hook keeps the command's state in the job slot; fwdloop_fini frees what is left
 * there with its free function. */
#define FWDLOOP_CMD_LATER (-1)
void *fwdloop_job(const struct fwdloop *s);
void fwdloop_set_job(struct fwdloop *s, void *job, void (*free_fn)(void *));
/* Thread 0's ports' kernel ring drops so far, read afresh (thread 0 only: a command). */
uint64_t fwdloop_kernel_drops0(struct fwdloop *s);
/* ... and the frames it has read from them (thread 0 only). */
uint64_t fwdloop_rx_pkts0(struct fwdloop *s);

/* The last rule-set load through the control socket (cmd.c writes it, the stats read
 * it): docs/forwarder.md#loading-a-rule-set-under-traffic. */
struct fwdloop_load {
	uint64_t count;              /* loads asked for */
	bool per_rule;               /* the last: one rule a call (else all at once) */
	bool running;                /* it goes on */
	int status;                  /* its exit status (when not running) */
	uint64_t lines, calls;       /* command lines in its file; calls made (rules added) */
	uint64_t start_ns, end_ns;   /* CLOCK_REALTIME: the command taken, its last call done */
	uint64_t drained_ns;         /* ... thread 0 first found its rings empty after it */
	uint64_t stall_ns;           /* thread 0 held by it (all at once: the whole load) */
	uint64_t busy_ns, call_max_ns;  /* its calls' time, all and the longest */
	uint64_t cpu_ns;             /* the CPU time its calls took */
	uint64_t kernel_drops;       /* thread 0's ring drops from start, read before thread 0
				      * last found its rings empty (by drained_ns) */
	uint64_t kernel_drops_drained;  /* ... read at drained_ns, after: more than
					 * kernel_drops only when the ring overflowed between */
	uint64_t kernel_drops_before;   /* ... and before start (since the forwarder began) */
	uint64_t rx_pkts_drained;    /* the frames thread 0 read by drained_ns (since it began):
				      * its rings empty, every frame they took in by then */
};
void fwdloop_load_set(struct fwdloop *s, const struct fwdloop_load *l);
void fwdloop_load_stats(struct fwdloop *s, struct fwdloop_load *l);

/* What the scheduler was set up with, and what it knows of the run. */
struct fwd *fwdloop_fwd(const struct fwdloop *s);
enum fwdloop_mode fwdloop_mode(const struct fwdloop *s);
int fwdloop_nthr(const struct fwdloop *s);
uint64_t fwdloop_spin_ns(const struct fwdloop *s);
/* The SCHED_FIFO priority the threads got, 0: normal. */
int fwdloop_rt_prio(const struct fwdloop *s);
/* The run's facts (main fills routes, neighbours, route_load_ms; t0_ns is the init's). */
struct fwdloop_info *fwdloop_info(struct fwdloop *s);
const struct fwdloop_pub *fwdloop_pub(const struct fwdloop *s);
/* Forwarding threads running now (a failed one has stopped). */
int fwdloop_running(const struct fwdloop *s);
/* Thread i: the CPU it is pinned to (-1: none), -errno when its forwarding failed. */
int fwdloop_thr_cpu(const struct fwdloop *s, int i);
int fwdloop_thr_err(const struct fwdloop *s, int i);
/* Knob writes so far (rut_sysctl's hook counts them; fwdloop_knob_sync waits for them). */
uint32_t fwdloop_knob_seq(const struct fwdloop *s);

/* Pauses forwarding for ns from now (a running pause ends then instead): every thread
 * stops reading its ports at its next batch or round until then (thread 0 still runs
 * commands). Called on thread 0 (a command). -EINVAL for 0. */
int fwdloop_pause(struct fwdloop *s, uint64_t ns);
struct fwdloop_pause {
	uint64_t count;              /* pauses asked for */
	uint64_t req_ns;             /* the last one's length, as asked */
	uint64_t last_ns, total_ns;  /* the stalls as they were, from the command to thread
				      * 0's waking: the last, all */
	uint64_t late_ns;            /* how long after the command thread 0 stopped (it was
				      * forwarding, or the host held it) */
};
void fwdloop_pause_stats(const struct fwdloop *s, struct fwdloop_pause *p);

/* Sets up the threads' state (epoll sets, poll handlers, knobs at the defaults of
 * kernel personality k, NULL for the default), one per forwarder thread (f->nthr);
 * thread i runs on cpus[i % ncpus] (ncpus 0: anywhere). 0 or -errno. */
int fwdloop_init(struct fwdloop *s, struct fwd *f, enum fwdloop_mode mode,
		 const struct pollkern *k, int burst, uint64_t spin_ns, struct runctl *rc,
		 struct ctl_req *mb, const int *cpus, int ncpus);
/* A scheduler of one thread that never runs, for driving the commands in tests: its poll
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
uint64_t fwdloop_thr_cpu_ns(struct fwdloop *s, int i);
/* Thread 0's poll context: the one the sysctl names read and write (DragonFly's global
 * kern.polling names are those of the default CPU). */
struct devpoll *fwdloop_poll0(struct fwdloop *s);
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
