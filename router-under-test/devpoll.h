/* devpoll.h — the BSD DEVICE_POLLING scheduler (docs/design/polling.md), as a pure state
 * machine driven by an injected clock and handler callbacks.
 *
 * One poll context with the semantics of DragonFly 1.36 and later (kern_poll.c revisions
 * 1.37 and 1.48; docs/design/polling.md#kernel-versions): the poll clock runs at
 * `pollhz` and pollhz is used throughout (short_ticks, the load measurement, the
 * reg_frac bound), reg_frac counts down (rounds 1, 21, 41, ... check status), `enable`
 * registers or deregisters every handler. Writes to the knobs follow one of two range
 * policies (poll_init): POLL_RANGE_EINVAL, the FreeBSD 8 rule that an out-of-range write
 * fails with EINVAL and changes nothing (the forwarder's default: the error is what the
 * user sees), or POLL_RANGE_CLAMP, DragonFly 1.36+'s handlers that clamp into range
 * (docs/design/polling.md#range-policies).
 *
 * A tick (poll_tick, the hardclock/systimer hook) schedules a POLL and a POLLMORE run;
 * poll_run executes the next scheduled run: a POLL run hands one chunk of at most
 * each_burst frames to every handler, a POLLMORE run either schedules the next chunk or
 * ends the round (burst adaptation by the load rule, the 7/8 rule when ticks were
 * missed). poll_clock fires the ticks that fell due on absolute deadlines and
 * poll_work runs scheduled work to completion, firing due ticks between runs, as
 * hardclock interrupts a long round in the kernel. The caller decides how to wait for
 * the next deadline (sleep, spin, or idle-poll). Nothing here sleeps, allocates or reads
 * a clock other than the injected one, so the unit tests run it on simulated time. */
#ifndef PPSLAB_POLL_H
#define PPSLAB_POLL_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

#define POLL_LIST_LEN 128          /* at most this many handlers, as in kern_poll.c */
#define POLL_HZ_MAX 30000          /* DragonFly's pollhz bound */
#define POLL_BURST_MIN 10          /* burst_max bounds */
#define POLL_BURST_MAX 1000
#define POLL_STALL_LIMIT 100       /* pending rounds beyond which a tick resets (stalled) */
#define POLL_CATCHUP_MAX_NS 1000000000ULL /* ticks later than this are skipped, not replayed */

enum poll_cmd { POLL_ONLY = 0, POLL_AND_CHECK_STATUS = 1 };

enum poll_range {
	POLL_RANGE_EINVAL = 0,   /* FreeBSD 8: out-of-range writes fail with -EINVAL */
	POLL_RANGE_CLAMP = 1,    /* DragonFly 1.36+: writes are clamped into range */
};

/* A registered interface's poll routine: process at most count frames. Returns the
 * number processed (>= 0) or -errno, which stops poll_work and is returned from it. */
typedef int (*poll_handler_fn)(void *arg, enum poll_cmd cmd, int count);
typedef uint64_t (*poll_clock_fn)(void *ctx);   /* monotonic ns */

/* The kern.polling.* knobs. */
enum poll_knob {
	POLL_K_ENABLE, POLL_K_POLLHZ, POLL_K_BURST_MAX, POLL_K_EACH_BURST, POLL_K_USER_FRAC,
	POLL_K_REG_FRAC, POLL_K_IDLE_POLL, POLL_K_COUNT
};

struct poll_knobs {
	uint32_t enable;       /* 1: handlers registered, 0: back to interrupts */
	uint32_t pollhz;       /* 1..30000 */
	uint32_t burst_max;    /* 10..1000 */
	uint32_t each_burst;   /* 1..burst_max */
	uint32_t user_frac;    /* % of each tick reserved for other work; EINVAL mode 0..99 */
	uint32_t reg_frac;     /* 1..pollhz */
	uint32_t idle_poll;    /* 1: poll with each_burst between ticks (FreeBSD) */
};

/* Statistics with their BSD names and meaning (docs/design/polling.md#statistics), plus
 * extensions below the line. */
struct poll_stats {
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
	uint64_t clock_skips;      /* ticks more than POLL_CATCHUP_MAX_NS late, not replayed */
	uint64_t ticks_in_work;    /* ticks that fell due while a round ran (overrun) */
	uint64_t last_load_pct;    /* load of the last finished round, % of a tick */
};

struct poll_handler {
	poll_handler_fn fn;
	void *arg;
};

struct poll {
	struct poll_knobs k;
	struct poll_stats st;
	enum poll_range range;
	poll_clock_fn now;
	void *clk;
	struct poll_handler h[POLL_LIST_LEN];
	int nh;
	uint32_t reg_count;        /* counts down to the next status check */
	bool sched_poll, sched_pollmore;
	uint64_t t_start_ns;       /* start of the current round */
	uint64_t t_prev_ns;        /* last normal (not short) tick */
	/* the tick clock: deadline k is base + k·10⁹/pollhz (rebased every second) */
	uint64_t base_ns, k_tick;
	bool clock_started;
	/* lateness of ticks fired by poll_clock (ns after their deadline) */
	struct hist late_ns;
	int last_err;
};

/* Defaults as FreeBSD/DragonFly: enable 1, pollhz 2000, burst 5, burst_max 150,
 * each_burst 5, user_frac 50, reg_frac 20, idle_poll 0. */
void poll_init(struct poll *p, enum poll_range range, poll_clock_fn now, void *clk);
/* 0, or -ENOSPC beyond POLL_LIST_LEN. */
int poll_register(struct poll *p, poll_handler_fn fn, void *arg);

/* Writes a knob under the range policy: 0, or -EINVAL (nothing changed). Values are
 * what sysctl passes (pollhz is a signed int in DragonFly; the rest unsigned). */
int poll_set(struct poll *p, enum poll_knob k, int64_t v);
uint32_t poll_get(const struct poll *p, enum poll_knob k);

/* The clock hook (hardclock at HZ / the DragonFly systimer at pollhz). */
void poll_tick(struct poll *p);
/* A POLL or POLLMORE run is scheduled. */
static inline bool poll_work_pending(const struct poll *p)
{
	return p->sched_poll || p->sched_pollmore;
}
/* Executes the next scheduled run (POLL before POLLMORE). 0 or a handler's -errno. */
int poll_run(struct poll *p);
/* One idle-poll pass: every handler with POLL_ONLY and each_burst. Returns the frames
 * the handlers reported, or a handler's -errno. */
int poll_idle(struct poll *p);

/* The tick clock on absolute deadlines. poll_clock_start sets deadline 0 at now;
 * poll_clock fires every tick due at now (replaying missed ones, skipping what is more
 * than POLL_CATCHUP_MAX_NS late) and records their lateness. Returns ticks fired. */
void poll_clock_start(struct poll *p, uint64_t now_ns);
int poll_clock(struct poll *p, uint64_t now_ns);
uint64_t poll_next_deadline(const struct poll *p);
/* Runs scheduled work until none is left or max_runs runs were made, firing the ticks
 * that fall due between runs. 0 when no work is left, 1 when some is (the caller looks
 * at its control inputs and calls again: a round that never ends must not lock it
 * out), or a handler's -errno. */
int poll_work(struct poll *p, int max_runs);

#endif
