/* SPDX-License-Identifier: BSD-2-Clause */
/* devpoll.h — the BSD DEVICE_POLLING scheduler (docs/design/polling.md), as a pure state
 * machine driven by an injected clock and handler callbacks.
 *
 * One poll context that behaves as the kernel personality it was made with (lib/
 * pollkern.h, docs/design/polling.md#kernel-personalities): DragonFly 1.8 (kern_poll.c
 * 1.25: a pollhz clock, but the load, short_ticks and the reg_frac bound measured with
 * kern.hz, knobs clamped at the start of each round), DragonFly 2.0 (1.48: pollhz
 * throughout, handlers that clamp), FreeBSD 7 and 14 (the clock is kern.hz, handlers
 * that fail with EINVAL, reg_frac counting up, idle_poll). The range policy can be
 * overridden (devpoll_set_range).
 *
 * A tick (devpoll_tick, the hardclock/systimer hook) schedules a POLL and a POLLMORE run;
 * devpoll_run executes the next scheduled run: a POLL run hands one chunk of at most
 * each_burst frames to every handler, a POLLMORE run either schedules the next chunk or
 * ends the round (burst adaptation by the load rule, the 7/8 rule when ticks fell due
 * during the round).
 *
 * The tick clock keeps absolute deadlines (docs/design/polling.md#the-tick-clock). A
 * tick the caller comes to late fires once, however many deadlines passed, as a late
 * hardclock or systimer does: devpoll_clock. While a round runs, devpoll_work fires the
 * deadlines the round's own work crossed, as hardclock interrupts a long round: the
 * round is placed on the kernel's timeline, starting at its tick's deadline, and with a
 * CPU clock (devpoll_set_cpu_clock) the time the thread spent descheduled is left out of
 * it (and out of the round's load); a deadline reached only by the host's delays fires
 * when the round is over, and a round that moved no frame never reaches one (a kernel's
 * empty round takes well under a tick). The thread's own work after a round (its
 * transmit) follows the round on that timeline too: devpoll_trail_done fires the
 * deadlines it reached one by one, and those that find the next poll scheduled but not
 * started count suspect, as hardclock_device_poll / pollclock do. short_ticks compare
 * the ticks' nominal times. Host lateness the CPU clock tells apart goes to the
 * tick_late_ns histogram and the extension counters, never into lost_polls,
 * short_ticks or the 7/8 rule, and so does host time in the steps of a busy round that
 * move no frame; host time in its frame steps cannot be told apart, and a tick it may
 * have caused counts unsure_polls (docs/forwarder.md says what holds). Nothing here
 * sleeps, allocates or reads a clock other than the injected ones, so the unit tests
 * run it on simulated time. */
#ifndef PPSLAB_RUT_DEVPOLL_H
#define PPSLAB_RUT_DEVPOLL_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "pollkern.h"

#define POLL_LIST_LEN 128          /* at most this many handlers, as in kern_poll.c */
#define POLL_HZ_MAX PK_HZ_MAX      /* DragonFly's pollhz bound, and ppslab's kern.hz */
#define POLL_BURST_MIN 10          /* MIN_POLL_BURST_MAX */
#define POLL_STALL_LIMIT 100       /* pending rounds beyond which a tick resets (stalled) */

enum devpoll_cmd { POLL_ONLY = 0, POLL_AND_CHECK_STATUS = 1 };

/* A registered interface's poll routine: process at most count frames. Returns the
 * number processed (>= 0) or -errno, which stops devpoll_work and is returned from it. */
typedef int (*devpoll_handler_fn)(void *arg, enum devpoll_cmd cmd, int count);
typedef uint64_t (*devpoll_clock_fn)(void *ctx);   /* ns */

/* The knobs: kern.polling.* and kern.hz. */
enum devpoll_knob {
	POLL_K_ENABLE, POLL_K_POLLHZ, POLL_K_BURST_MAX, POLL_K_EACH_BURST, POLL_K_USER_FRAC,
	POLL_K_REG_FRAC, POLL_K_IDLE_POLL, POLL_K_HZ, POLL_K_COUNT
};

struct devpoll_knobs {
	uint32_t enable;       /* as the kernel keeps it (see pk_enable) */
	uint32_t pollhz;       /* DragonFly's poll clock, 1..30000 */
	uint32_t hz;           /* kern.hz: FreeBSD's poll clock; DragonFly 1.8's load base */
	uint32_t burst_max;    /* 10..burst_max_max */
	uint32_t each_burst;   /* 1..burst_max */
	uint32_t user_frac;    /* % of each tick reserved for other work */
	uint32_t reg_frac;     /* 1..hz (1..pollhz on DragonFly 2.0) */
	uint32_t idle_poll;    /* FreeBSD: poll with each_burst between ticks */
};

/* Statistics with their BSD names and meaning (docs/design/polling.md#statistics), plus
 * extensions below the line. */
struct devpoll_stats {
	uint32_t burst;            /* the current adaptive burst */
	uint32_t residual_burst;   /* part of this round's burst not yet handed out */
	uint32_t pending_polls;    /* ticks not yet served by a finished round */
	uint32_t phase;            /* 0..6, docs/design/polling.md#phases */
	uint32_t handlers;         /* registered interfaces */
	uint64_t short_ticks, lost_polls, suspect, stalled;
	/* extensions */
	uint64_t ticks;            /* clock hooks that found handlers */
	uint64_t rounds;           /* finished rounds */
	uint64_t chunks;           /* POLL runs */
	uint64_t status_checks;    /* POLL runs with POLL_AND_CHECK_STATUS */
	uint64_t catchup_rounds;   /* rounds started at once by the 7/8 rule (phase 6) */
	uint64_t idle_passes;      /* idle_poll passes */
	uint64_t polled_frames;    /* frames the handlers reported in rounds */
	uint64_t idle_frames;      /* frames the handlers reported in idle passes */
	uint64_t clock_skips;      /* deadlines that passed without a tick of their own: the
				    * thread came late and the tick fired once for them */
	uint64_t ticks_deferred;   /* ticks that fell due in a round only because the thread
				    * was descheduled; fired after the round */
	uint64_t ticks_after_round; /* ticks that fell due in the thread's own work after a
				    * round and fired one by one (devpoll_trail_done) */
	uint64_t stolen_ns;        /* time the thread was descheduled during rounds, left
				    * out of their load */
	uint64_t ticks_in_work;    /* ticks fired while a round ran (overrun) */
	uint64_t host_delays;      /* steps of rounds the host interrupted: they took far
				    * longer than the recent ones like them, on the thread's
				    * CPU clock (devpoll.c host_excess) */
	uint64_t host_ns;          /* what those steps took beyond the recent ones, left out
				    * of their round and of its load as stolen_ns is */
	uint64_t unsure_polls;     /* lost_polls of ticks a round or the work after it
				    * reached only by running over 1.5 times what its steps
				    * cost by the recent ones like them: the host may have
				    * made them (devpoll.c unsure_tick; ppslab run flags
				    * the cell) */
	uint64_t last_load_pct;    /* load of the last finished round, % of a tick */
};

struct devpoll_handler {
	devpoll_handler_fn fn;
	void *arg;
};

struct devpoll {
	struct devpoll_knobs k;
	struct devpoll_stats st;
	const struct pollkern *kern;
	enum pk_range range;
	devpoll_clock_fn now;         /* CLOCK_MONOTONIC */
	devpoll_clock_fn cpu_now;     /* the polling thread's CPU time, or NULL */
	void *clk;
	struct devpoll_handler h[POLL_LIST_LEN];
	int nh;
	bool registered;           /* the handlers are polled (else served by interrupts) */
	uint32_t reg_count;        /* the status-round counter */
	bool sched_poll, sched_pollmore;
	uint64_t t_start_ns;       /* start of the current round */
	uint64_t t_start_cpu_ns;   /* CPU time then (with cpu_now) */
	uint64_t round_stolen_ns;  /* descheduled time of the current round so far */
	uint64_t round_host_ns;    /* the host's excess in this round's chunks so far */
	uint64_t round_frames0;    /* polled_frames when this round started */
	bool round_past;           /* this empty round ran past a deadline (empty_round) */
	/* what the round's steps cost by the means (round_exp_ns, with the work after
	 * it trail_exp_ns); of its empty POLL and POLLMORE steps under the step rule,
	 * what they took and cost by the medians, and the host's share of it taken out
	 * so far (quiet_excess); round_blind: a step had no median yet */
	uint64_t round_exp_ns, quiet_ns, quiet_exp_ns, quiet_host_ns, trail_exp_ns;
	bool round_blind;
	/* the cost of the recent steps of rounds (CPU ns when there is a CPU clock): per
	 * frame of POLL runs that moved frames, of empty POLL runs, of POLLMORE runs, of
	 * the work after rounds per frame they moved and when they moved none, of
	 * empty POLL runs after frames moved (owed); a ring of 32 each and its median
	 * (devpoll.c host_excess) */
	uint32_t cost[6][32], ncost[6], med[6];
	uint32_t mean[6];          /* and the mean of the recent ones the rule let through */
	/* frames moved since the last POLL run (by one, by the work after a round, by an
	 * idle pass): the next empty run pays for them in the ports, and is learnt apart
	 * from the other empty runs and kept out of quiet_excess (devpoll.c) */
	bool owed;
	bool round_owed;           /* this round had such a run */
	uint64_t step_at;          /* the clock host_excess measures from */
	/* the kernel's timeline, which the host's delays are not on: the nominal time of
	 * the tick being fired, of the last tick or round end, and of this round's start */
	uint64_t tick_at_ns, v_ref_ns, v_start_ns;
	uint64_t t_prev_ns;        /* last normal (not short) tick */
	/* the tick clock: deadline k is base + k·10⁹/rate (rebased every second) */
	uint64_t base_ns, k_tick;
	bool clock_started;
	bool deferred;             /* the next deadline was deferred past the round */
	/* a round ended and the thread's own work after it (transmit, commands) has not
	 * been placed on the kernel's timeline yet: its CPU and wall clocks then */
	bool trail;
	uint64_t trail_cpu_ns, trail_wall_ns;
	uint64_t trail_frames;     /* polled_frames at the last devpoll_trail_done */
	/* lateness of the ticks fired (ns after the deadline they stand for) */
	struct hist late_ns;
	int last_err;
};

/* Defaults as the personality's kernel (pollhz 2000, kern.hz 100 on DragonFly and 1000
 * on FreeBSD, burst 5, burst_max 150, each_burst 5, user_frac 50, reg_frac 20,
 * idle_poll 0; enable as pollkern.enable_default). k NULL: the default personality. */
void devpoll_init(struct devpoll *p, const struct pollkern *k, devpoll_clock_fn now, void *clk);
/* Overrides the personality's range policy (--range-policy). */
void devpoll_set_range(struct devpoll *p, enum pk_range r);
/* The polling thread's CPU clock (same ctx as now): tells work from descheduled time. */
void devpoll_set_cpu_clock(struct devpoll *p, devpoll_clock_fn cpu_now);
/* 0, or -ENOSPC beyond POLL_LIST_LEN. */
int devpoll_register(struct devpoll *p, devpoll_handler_fn fn, void *arg);

/* Writes a knob as the personality's sysctl handler (or round-start clamp) does: 0, or
 * -EINVAL (nothing changed), or -ENOENT for a knob this kernel does not have. Values
 * are what sysctl passes (pollhz and enable are signed ints; the rest unsigned). */
int devpoll_set(struct devpoll *p, enum devpoll_knob k, int64_t v);
uint32_t devpoll_get(const struct devpoll *p, enum devpoll_knob k);
/* Whether the personality has that knob. */
bool devpoll_has(const struct devpoll *p, enum devpoll_knob k);
/* The rate of the tick clock: pollhz (DragonFly) or kern.hz (FreeBSD). */
uint32_t devpoll_clock_hz(const struct devpoll *p);
/* The handlers are registered for polling (false after enable=0 until they register
 * again, which only the FreeBSD 7 switch does). */
static inline bool devpoll_registered(const struct devpoll *p)
{
	return p->registered && p->nh > 0;
}

/* The clock hook (hardclock at HZ / the DragonFly systimer at pollhz). */
void devpoll_tick(struct devpoll *p);
/* A POLL or POLLMORE run is scheduled. */
static inline bool devpoll_work_pending(const struct devpoll *p)
{
	return p->sched_poll || p->sched_pollmore;
}
/* Executes the next scheduled run (POLL before POLLMORE). 0 or a handler's -errno. */
int devpoll_run(struct devpoll *p);
/* One idle-poll pass: every handler with POLL_ONLY and each_burst. Returns the frames
 * the handlers reported, or a handler's -errno. */
int devpoll_idle(struct devpoll *p);

/* The tick clock on absolute deadlines. devpoll_clock_start sets deadline 0 at now;
 * devpoll_clock fires one tick when a deadline is due at now, standing for every deadline
 * that passed (the ones before the last counted in clock_skips), records its lateness
 * and moves to the first deadline after now. Returns the ticks fired (0 or 1). */
void devpoll_clock_start(struct devpoll *p, uint64_t now_ns);
int devpoll_clock(struct devpoll *p, uint64_t now_ns);
uint64_t devpoll_next_deadline(const struct devpoll *p);
/* The thread's own work after the last round (transmitting its frames, serving
 * commands) is over. On the kernel's timeline it is netisr work that follows the round:
 * it starts where the round ended and lasts the CPU time it took. Every deadline it
 * reached fires now as a tick of its own, as hardclock does while the netisr is busy:
 * the first schedules the next poll (phase 2), each further one finds that poll
 * scheduled but not started and counts suspect, and lost_polls since the poll is still
 * pending. Deadlines passed only by the host's delays (wall time that is not CPU time)
 * stay for devpoll_clock, which fires them once, and so does a stretch of that work far
 * longer than the recent ones for as many frames (host_delays, as in rounds). Nothing is done unless a round ended
 * since the last tick. Call it after each devpoll_work that returned 0, once that
 * work is done. Returns the ticks fired; the caller runs the scheduled poll at once
 * (devpoll_work) rather than wait for the next deadline. */
int devpoll_trail_done(struct devpoll *p);
/* Runs scheduled work until none is left or max_runs runs were made, firing the ticks
 * that fall due between runs (see above). 0 when no work is left, 1 when some is (the
 * caller looks at its control inputs and calls again: a round that never ends must not
 * lock it out), or a handler's -errno. */
int devpoll_work(struct devpoll *p, int max_runs);

#endif
