/* SPDX-License-Identifier: BSD-2-Clause */
/* devpoll.c — the DEVICE_POLLING state machine (see devpoll.h). Owns one poll context: knobs,
 * statistics, the handler list and the tick clock. Called by the forwarder's poll-mode
 * loop (fwdloop.c) with the real clocks and by tests/unit/rut/t_poll.c with simulated ones.
 *
 * The round follows sys/kern/kern_poll.c as docs/design/polling.md#the-round-step-by-step
 * describes: the clock hook schedules, a POLL run hands out one each_burst chunk to every
 * handler, a POLLMORE run either asks for the next chunk or ends the round and adapts
 * burst by the load of the round. Where the kernels differ, the personality (p->kern)
 * decides; docs/design/polling.md#version-differences names the revision and function
 * of each branch. */
#include "devpoll.h"

#include <errno.h>
#include <string.h>

#include "clock.h"

void devpoll_init(struct devpoll *p, const struct pollkern *k, devpoll_clock_fn now, void *clk)
{
	memset(p, 0, sizeof(*p));
	p->kern = k ? k : pollkern_find(PK_DEFAULT);
	p->range = p->kern->range;
	p->now = now;
	p->clk = clk;
	p->k = (struct devpoll_knobs){ .enable = p->kern->enable_default, .pollhz = 2000,
				    .hz = p->kern->hz_default, .burst_max = 150,
				    .each_burst = 5, .user_frac = 50, .reg_frac = 20,
				    .idle_poll = 0 };
	p->st.burst = 5;
	p->reg_count = 0;          /* DragonFly: the very first round checks status */
	/* the ports start registered: on DragonFly with enable=1 (the loader tunable a
	 * polling router sets), on FreeBSD by `ifconfig IF polling` */
	p->registered = true;
	hist_init(&p->late_ns);
}

void devpoll_set_range(struct devpoll *p, enum pk_range r)
{
	p->range = r;
}

void devpoll_set_cpu_clock(struct devpoll *p, devpoll_clock_fn cpu_now)
{
	p->cpu_now = cpu_now;
}

int devpoll_register(struct devpoll *p, devpoll_handler_fn fn, void *arg)
{
	if (p->nh >= POLL_LIST_LEN)
		return -ENOSPC;
	p->h[p->nh++] = (struct devpoll_handler){ .fn = fn, .arg = arg };
	p->st.handlers = p->registered ? (uint32_t)p->nh : 0;
	return 0;
}

uint32_t devpoll_clock_hz(const struct devpoll *p)
{
	return p->kern->has_pollhz ? p->k.pollhz : p->k.hz;
}

/* The frequency the load, short_ticks and the reg_frac bound are measured against:
 * kern.hz before DragonFly 1.36 and on FreeBSD (where it is the clock), pollhz after. */
static uint32_t load_hz(const struct devpoll *p)
{
	return p->kern->load_vs_hz ? p->k.hz : p->k.pollhz;
}

static uint64_t period_of(uint32_t hz, uint64_t k)
{
	return k / hz * NS_PER_S + k % hz * NS_PER_S / hz;
}

/* A new clock rate: the next tick comes one new period after the last one fired. */
static void clock_rebase(struct devpoll *p, uint32_t old_hz)
{
	if (!p->clock_started || p->k_tick == 0)
		return;
	p->base_ns += period_of(old_hz, p->k_tick - 1);
	p->k_tick = 1;
}

/* v within [lo, hi] under the range policy: EINVAL (FreeBSD) rejects, CLAMP (DragonFly
 * 1.36+) clamps; ROUND (DragonFly before 1.36) stores it as written and the round
 * clamps it (round_clamp). *out is the value to store. */
static int ranged(const struct devpoll *p, int64_t v, int64_t lo, int64_t hi, uint32_t *out)
{
	if (v < lo || v > hi) {
		if (p->range == PK_RANGE_EINVAL)
			return -EINVAL;
		if (p->range == PK_RANGE_CLAMP)
			v = v < lo ? lo : hi;
	}
	*out = (uint32_t)v;
	return 0;
}

/* reg_frac changed: keep the status counter inside it, as each kernel does
 * (FreeBSD reg_frac_sysctl restarts an up-count; DragonFly starts the next
 * down-count below it). */
static void fix_reg_count(struct devpoll *p)
{
	if (p->kern->reg_frac_up) {
		if (p->reg_count >= p->k.reg_frac)
			p->reg_count = 0;
	} else if (p->reg_count > p->k.reg_frac) {
		p->reg_count = p->k.reg_frac - 1;
	}
}

/* The reg_frac bound moved (pollhz on DragonFly 2.0, kern.hz elsewhere). */
static void bound_reg_frac(struct devpoll *p)
{
	uint32_t b = load_hz(p);
	if (p->range != PK_RANGE_ROUND && p->k.reg_frac > b) {
		p->k.reg_frac = b;
		fix_reg_count(p);
	}
}

static void deregister(struct devpoll *p)
{
	/* the round in progress is abandoned, the interfaces go back to interrupts (the
	 * forwarder's intr service) */
	p->registered = false;
	p->sched_poll = p->sched_pollmore = false;
	p->st.residual_burst = 0;
	p->st.pending_polls = 0;
	p->st.phase = 0;
	p->st.handlers = 0;
	p->deferred = false;
}

/* Polling switched on (every port registers) or off (every port goes back to
 * interrupts), as the enable knob is written. */
static void switch_polling(struct devpoll *p, int64_t v)
{
	p->k.enable = (uint32_t)v;
	if (!v && p->registered) {
		deregister(p);
	} else if (v && !p->registered) {
		p->registered = true;
		p->st.handlers = (uint32_t)p->nh;
	}
}

static int set_enable(struct devpoll *p, int64_t v)
{
	switch (p->kern->enable) {
	case PK_ENABLE_FLAG:
		/* DragonFly sysctl_polling: the value is kept as written; 0 takes every
		 * interface off the list, 1 does not put them back (an interface registers
		 * when it is brought up: ifconfig IF polling) */
		p->k.enable = (uint32_t)v;
		if (!v && p->registered)
			deregister(p);
		if (p->kern->reset_on_disable && (!v || !p->registered)) {
			/* 1.48 poll_reset_state when polling stops */
			p->st.burst = 5;
			p->reg_count = 0;
			p->t_prev_ns = 0;
		}
		return 0;
	case PK_ENABLE_SWITCH:
		/* FreeBSD 6/7 poll_switch: the same value changes nothing, only 0 and 1 are
		 * accepted, then polling is switched on or off on every capable interface */
		if (v == (int64_t)p->k.enable)
			return 0;
		if (v < 0 || v > 1)
			return -EINVAL;
		switch_polling(p, v);
		return 0;
	case PK_ENABLE_GLOBAL:
		/* FreeBSD 5 `polling`: stored as written; netisr_poll deregisters every
		 * port while it is 0, and a port registers again from its interrupt
		 * handler (ether_poll_register) once it is not */
		switch_polling(p, v);
		return 0;
	case PK_ENABLE_NONE:
		break;
	}
	return -ENOENT;
}

bool devpoll_has(const struct devpoll *p, enum devpoll_knob k)
{
	switch (k) {
	case POLL_K_POLLHZ: return p->kern->has_pollhz;
	case POLL_K_IDLE_POLL: return p->kern->has_idle_poll;
	case POLL_K_ENABLE: return p->kern->enable != PK_ENABLE_NONE;
	case POLL_K_COUNT: return false;
	default: return true;
	}
}

int devpoll_set(struct devpoll *p, enum devpoll_knob k, int64_t v)
{
	uint32_t u;
	int rc;
	if (!devpoll_has(p, k))
		return -ENOENT;
	switch (k) {
	case POLL_K_ENABLE:
		return set_enable(p, v);
	case POLL_K_IDLE_POLL:
		p->k.idle_poll = (uint32_t)v;     /* FreeBSD: a plain unsigned int */
		return 0;
	case POLL_K_POLLHZ: {
		/* DragonFly sysctl_pollhz (every revision): <= 0 is EINVAL, above 30000 is
		 * clamped (under the EINVAL policy it fails) */
		if (v <= 0)
			return -EINVAL;
		if (v > POLL_HZ_MAX && p->range == PK_RANGE_EINVAL)
			return -EINVAL;
		u = v > POLL_HZ_MAX ? POLL_HZ_MAX : (uint32_t)v;
		uint32_t old = p->k.pollhz;
		p->k.pollhz = u;
		bound_reg_frac(p);               /* 1.48 poll_sysctl_pollhz */
		if (old != u)
			clock_rebase(p, old);
		return 0;
	}
	case POLL_K_HZ: {
		/* HZ is a boot-time setting of the kernels; writing it here stands for a
		 * kernel booted with that HZ (ppslab's bound 1..30000, always EINVAL) */
		if (v < 1 || v > POLL_HZ_MAX)
			return -EINVAL;
		uint32_t old = p->k.hz;
		p->k.hz = (uint32_t)v;
		bound_reg_frac(p);
		if (old != p->k.hz && !p->kern->has_pollhz)
			clock_rebase(p, old);
		return 0;
	}
	case POLL_K_BURST_MAX:
		if ((rc = ranged(p, v, POLL_BURST_MIN, p->kern->burst_max_max, &u)))
			return rc;
		p->k.burst_max = u;
		switch (p->kern->lower) {
		case PK_LOWER_NONE:              /* 1.25: burst just stops growing */
		case PK_LOWER_ROUND:             /* FreeBSD 5: the next round clamps */
			break;
		case PK_LOWER_FOLLOW:            /* 1.48 poll_sysctl_burstmax */
			if (p->k.each_burst > u)
				p->k.each_burst = u;
			if (p->st.burst > u)
				p->st.burst = u;
			if (p->st.residual_burst > u)
				p->st.residual_burst = u;
			break;
		case PK_LOWER_EACH10:            /* FreeBSD poll_burst_max_sysctl */
			if (p->st.burst > u)
				p->st.burst = u;
			if (p->k.each_burst > u)
				p->k.each_burst = POLL_BURST_MIN;
			break;
		}
		return 0;
	case POLL_K_EACH_BURST:
		if ((rc = ranged(p, v, 1, p->k.burst_max, &u)))
			return rc;
		p->k.each_burst = u;
		return 0;
	case POLL_K_USER_FRAC:
		/* FreeBSD user_frac_sysctl rejects above 99; DragonFly stores any unsigned
		 * value, and above 100 the unsigned 100 - user_frac wraps so the load never
		 * exceeds it */
		if (p->range == PK_RANGE_EINVAL && (v < 0 || v > 99))
			return -EINVAL;
		p->k.user_frac = (uint32_t)v;
		return 0;
	case POLL_K_REG_FRAC:
		if ((rc = ranged(p, v, 1, load_hz(p), &u)))
			return rc;
		p->k.reg_frac = u;
		fix_reg_count(p);
		return 0;
	case POLL_K_COUNT:
		break;
	}
	return -EINVAL;
}

uint32_t devpoll_get(const struct devpoll *p, enum devpoll_knob k)
{
	switch (k) {
	case POLL_K_ENABLE: return p->k.enable;
	case POLL_K_POLLHZ: return p->k.pollhz;
	case POLL_K_HZ: return p->k.hz;
	case POLL_K_BURST_MAX: return p->k.burst_max;
	case POLL_K_EACH_BURST: return p->k.each_burst;
	case POLL_K_USER_FRAC: return p->k.user_frac;
	case POLL_K_REG_FRAC: return p->k.reg_frac;
	case POLL_K_IDLE_POLL: return p->k.idle_poll;
	case POLL_K_COUNT: break;
	}
	return 0;
}

void devpoll_tick(struct devpoll *p)
{
	struct devpoll_stats *s = &p->st;
	if (!devpoll_registered(p))
		return;
	s->ticks++;
	/* short_ticks: less than half a nominal tick since the last normal tick; the
	 * reference moves only on normal ticks. The nominal tick is 1/hz where the
	 * kernel measured against hz (DragonFly 1.25, whose ticks come at pollhz). A tick
	 * of the clock is taken at its deadline: how late the thread came is the host's */
	uint64_t now = p->tick_at_ns ? p->tick_at_ns : p->now(p->clk);
	p->tick_at_ns = 0;
	uint64_t delta_us = (now - p->t_prev_ns) / NS_PER_US;
	if (s->ticks > 1 && p->t_prev_ns && delta_us * load_hz(p) < 500000)
		s->short_ticks++;
	else
		p->t_prev_ns = now;
	if (s->pending_polls > POLL_STALL_LIMIT) {
		s->stalled++;
		s->pending_polls = 0;
		s->phase = 0;
	}
	if (s->phase <= 2) {
		if (s->phase != 0)
			s->suspect++;       /* the last schedule request never ran */
		s->phase = 1;
		p->sched_poll = p->sched_pollmore = true;
		s->phase = 2;
	}
	if (s->pending_polls++ > 0)
		s->lost_polls++;
}

/* DragonFly before 1.36 (netisr_poll of 1.19-1.27): the knobs are plain variables,
 * made consistent at the start of each round; burst is left alone */
static void round_clamp(struct devpoll *p)
{
	uint32_t b = load_hz(p);
	if (p->k.reg_frac > b)
		p->k.reg_frac = b;
	else if (p->k.reg_frac < 1)
		p->k.reg_frac = 1;
	fix_reg_count(p);
	if (p->k.burst_max < POLL_BURST_MIN)
		p->k.burst_max = POLL_BURST_MIN;
	else if (p->k.burst_max > p->kern->burst_max_max)
		p->k.burst_max = p->kern->burst_max_max;
	if (p->k.each_burst < 1)
		p->k.each_burst = 1;
	else if (p->k.each_burst > p->k.burst_max)
		p->k.each_burst = p->k.burst_max;
	/* FreeBSD 5 netisr_poll: "if (poll_burst > poll_burst_max) poll_burst =
	 * poll_burst_max" (DragonFly 1.25 leaves burst above it) */
	if (p->kern->lower == PK_LOWER_ROUND && p->st.burst > p->k.burst_max)
		p->st.burst = p->k.burst_max;
}

/* Is this round a status round? DragonFly counts down (rounds 1, reg_frac + 1, ...);
 * FreeBSD 6.0 on counts up (rounds reg_frac, 2·reg_frac, ...). */
static bool status_round(struct devpoll *p)
{
	if (p->kern->reg_frac_up) {
		if (++p->reg_count == p->k.reg_frac) {
			p->reg_count = 0;
			return true;
		}
		return false;
	}
	if (p->reg_count == 0) {
		p->reg_count = p->k.reg_frac - 1;
		return true;
	}
	p->reg_count--;
	return false;
}

/* The median of a full ring of 32 samples. */
static uint32_t median32(const uint32_t *v)
{
	uint32_t a[32];
	memcpy(a, v, sizeof(a));
	for (int i = 1; i < 32; i++) {
		uint32_t x = a[i];
		int j = i;
		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
	return a[16];
}

/* How much of the last step of a round (a POLL run, or a POLLMORE run, with what led
 * to it) the host took. On a VM without steal reporting the thread's CPU clock runs on
 * while the host has the CPU, and interrupt work is charged to whatever thread ran, so
 * a step can look long without the forwarder having worked: an empty ring read charged
 * 247 us. A step longer than 4 times the median of the last 32 steps like it (per frame
 * for POLL runs that moved frames; empty POLL runs; POLLMORE runs) plus 50 us was
 * interrupted, and what it took beyond that median is the host's. The medians follow a
 * real change of the cost per frame (a bigger rule set) within 16 steps; a single
 * interruption does not move them. */
#define HOST_FACTOR 4u
#define HOST_SLACK_NS 50000u
enum { STEP_FRAMES, STEP_EMPTY, STEP_MORE, STEP_TRAIL_FRAMES, STEP_TRAIL_EMPTY, STEP_OWED };
static uint64_t step_clock(const struct devpoll *p)
{
	return p->cpu_now ? p->cpu_now(p->clk) : p->now(p->clk);
}

static uint64_t host_excess(struct devpoll *p, int kind, uint64_t frames)
{
	uint64_t at = step_clock(p), d = at > p->step_at ? at - p->step_at : 0;
	p->step_at = at;
	uint64_t per = frames ? d / frames : d;
	uint64_t expect = (uint64_t)p->med[kind] * (frames ? frames : 1);
	bool known = p->ncost[kind] >= 32;
	bool host = known && d > HOST_FACTOR * expect + HOST_SLACK_NS;
	uint32_t per32 = (uint32_t)(per > UINT32_MAX ? UINT32_MAX : per);
	/* the mean of the steps the rule let through, over the last 16 or so: what a
	 * round's steps cost on average, where the median is what one usually costs
	 * (a transmit kick every few steps is not in the median, it is in the mean) */
	if (!host)
		p->mean[kind] = p->ncost[kind] ? (uint32_t)((int64_t)p->mean[kind] +
			((int64_t)per32 - (int64_t)p->mean[kind]) / 16) : per32;
	uint64_t mean = (uint64_t)p->mean[kind] * (frames ? frames : 1);
	p->cost[kind][p->ncost[kind]++ % 32] = per32;
	if (p->ncost[kind] % 32 == 0)
		p->med[kind] = median32(p->cost[kind]);
	if (p->ncost[kind] >= 64)
		p->ncost[kind] -= 32;
	bool trail = kind == STEP_TRAIL_FRAMES || kind == STEP_TRAIL_EMPTY;
	if (!known) {
		p->round_blind = true;
		return 0;
	}
	if (trail)
		p->trail_exp_ns += mean;
	else
		p->round_exp_ns += mean;
	if (!host) {
		/* an empty POLL run that paid for frames moved before it (STEP_OWED) is
		 * the forwarder's own work, never judged by quiet_excess */
		if (kind == STEP_EMPTY || kind == STEP_MORE) {
			p->quiet_ns += d;
			p->quiet_exp_ns += expect;
		}
		return 0;
	}
	p->st.host_delays++;
	p->st.host_ns += d - expect;
	p->round_host_ns += d - expect;
	return d - expect;
}

static int run_poll(struct devpoll *p)
{
	struct devpoll_stats *s = &p->st;
	enum devpoll_cmd cmd = POLL_ONLY;
	int err = 0;

	p->sched_poll = false;
	p->trail = false;
	s->phase = 3;
	if (s->residual_burst == 0) {          /* first chunk of a round */
		p->t_start_ns = p->now(p->clk);
		p->t_start_cpu_ns = p->cpu_now ? p->cpu_now(p->clk) : 0;
		p->round_stolen_ns = 0;
		p->round_host_ns = 0;
		p->round_frames0 = s->polled_frames;
		p->round_past = false;
		p->round_owed = false;
		p->round_exp_ns = p->quiet_ns = p->quiet_exp_ns = p->quiet_host_ns = 0;
		p->round_blind = false;
		p->step_at = p->cpu_now ? p->t_start_cpu_ns : p->t_start_ns;
		/* on the kernel's timeline the round starts with its tick (or the round
		 * before it), however late the thread came to it */
		p->v_start_ns = p->v_ref_ns && p->v_ref_ns <= p->t_start_ns ? p->v_ref_ns
									     : p->t_start_ns;
		if (p->range == PK_RANGE_ROUND)
			round_clamp(p);
		if (status_round(p)) {
			cmd = POLL_AND_CHECK_STATUS;
			s->status_checks++;
		}
		s->residual_burst = s->burst;
	}
	uint32_t cycles = s->residual_burst < p->k.each_burst ? s->residual_burst
							      : p->k.each_burst;
	s->residual_burst -= cycles;
	uint64_t got = 0;
	for (int i = 0; i < p->nh; i++) {
		int rc = p->h[i].fn(p->h[i].arg, cmd, (int)cycles);
		if (rc < 0) {
			if (!err)
				err = rc;
		} else {
			s->polled_frames += (uint64_t)rc;
			got += (uint64_t)rc;
		}
	}
	/* the first empty run after frames moved pays for them in the ports (XDP:
	 * recycling the frames held, reaping transmit completions, refilling the fill
	 * ring): it is learnt apart, as STEP_OWED */
	host_excess(p, got ? STEP_FRAMES : p->owed ? STEP_OWED : STEP_EMPTY, got);
	if (!got && p->owed)
		p->round_owed = true;
	p->owed = got > 0;
	s->chunks++;
	p->sched_pollmore = true;              /* DragonFly: POLL schedules POLLMORE */
	s->phase = 4;
	return err;
}

/* The time the thread was runnable but not running since the round started: wall
 * time minus CPU time (0 without a CPU clock). It only grows within a round. */
static void update_stolen(struct devpoll *p, uint64_t now)
{
	if (!p->cpu_now)
		return;
	uint64_t wall = now - p->t_start_ns, cpu = p->cpu_now(p->clk) - p->t_start_cpu_ns;
	if (wall > cpu && wall - cpu > p->round_stolen_ns) {
		p->st.stolen_ns += wall - cpu - p->round_stolen_ns;
		p->round_stolen_ns = wall - cpu;
	}
}

/* The host's small delays in a round that moves frames. The steps that move no frame
 * (empty POLL runs, POLLMORE runs) cost the same every time, whatever the rule set
 * (two ring reads, a few clock reads): when together they took more than 1.5 times
 * what the medians say plus 10 us, the rest of what they took beyond the medians is the
 * host's, even if each step stayed under host_excess's rule (interrupt work charged
 * to the thread, a hypervisor that does not report its steal: on the thread's CPU
 * clock, never in its run-queue delay; measured in docs/design/polling.md). The frame
 * steps are not judged so: their cost is the forwarder's own, and a new one must be
 * learnt (P8). Nor is an empty POLL run right after frames moved (STEP_OWED): on XDP
 * it recycles and refills for them and reaps their transmit's completions, the
 * forwarder's own cost, which would otherwise be taken for the host's (P35). Counted
 * once a round in host_delays, and left out of the round as a step's excess is. */
#define QUIET_NUM 3u                /* 1.5 times */
#define QUIET_DEN 2u
#define QUIET_SLACK_NS 10000u
static void quiet_excess(struct devpoll *p)
{
	if (p->quiet_ns * QUIET_DEN <= QUIET_NUM * p->quiet_exp_ns + QUIET_DEN * QUIET_SLACK_NS)
		return;
	uint64_t x = p->quiet_ns - p->quiet_exp_ns;
	if (x <= p->quiet_host_ns)
		return;
	if (!p->quiet_host_ns && !p->round_past)
		p->st.host_delays++;           /* once a round */
	p->st.host_ns += x - p->quiet_host_ns;
	p->round_host_ns += x - p->quiet_host_ns;
	p->quiet_host_ns = x;
}

/* A tick for deadline d fires in a round (or the work after it, with after_exp its
 * cost by the means): it is the kernel's for sure when the round, at 1.5 times what
 * its steps cost by the means, would still have reached d; else the host may have
 * made it (a step without a median yet, or frame steps slowed in pieces no rule told
 * apart), and unsure_polls counts it, when it is a lost poll, for the runner to flag
 * the cell. */
static void unsure_tick(struct devpoll *p, uint64_t d, uint64_t after_exp)
{
	if (p->st.pending_polls == 0 || p->st.pending_polls > POLL_STALL_LIMIT)
		return;                        /* not a lost poll */
	uint64_t exp = p->round_exp_ns + after_exp;
	if (p->round_blind || !p->cpu_now || d > p->v_start_ns + exp + exp / 2)
		p->st.unsure_polls++;
}

/* Now on the kernel's timeline: the round's start plus the time it ran. */
static uint64_t kernel_now(const struct devpoll *p, uint64_t now)
{
	uint64_t ran = now - p->t_start_ns, away = p->round_stolen_ns + p->round_host_ns;
	return p->v_start_ns + (ran > away ? ran - away : 0);
}

static void run_pollmore(struct devpoll *p)
{
	struct devpoll_stats *s = &p->st;

	p->sched_pollmore = false;
	s->phase = 5;
	host_excess(p, STEP_MORE, 0);
	if (s->residual_burst > 0) {           /* more chunks in this round */
		p->sched_poll = true;
		return;
	}
	/* the round is done: adapt burst by its load, in % of a tick (integer arithmetic
	 * as the kernel: elapsed_us * hz / 10^4), leaving out time the thread spent
	 * descheduled, which the kernel's netisr would not have lost */
	uint64_t now = p->now(p->clk);
	update_stolen(p, now);
	quiet_excess(p);
	p->v_ref_ns = kernel_now(p, now);      /* a catch-up round starts here */
	uint64_t elapsed_ns = p->v_ref_ns - p->v_start_ns;
	uint64_t load = elapsed_ns / NS_PER_US * load_hz(p) / 10000;
	s->last_load_pct = load;
	if (load > (uint32_t)(100u - p->k.user_frac)) {   /* strict >; unsigned as BSD */
		if (s->burst > 1)
			s->burst--;
	} else if (s->burst < p->k.burst_max) {
		s->burst++;
	}
	s->rounds++;
	if (s->pending_polls > 0)
		s->pending_polls--;
	if (s->pending_polls == 0) {
		s->phase = 0;
		/* what the thread does next, before its next tick, follows the round on
		 * the kernel's timeline (devpoll_trail_done) */
		p->trail = true;
		p->trail_wall_ns = now;
		p->trail_cpu_ns = p->cpu_now ? p->cpu_now(p->clk) : 0;
		return;
	}
	/* ticks fell due while the round ran: start the next at once, with 1/8 less
	 * burst so that it happens less */
	s->burst -= s->burst / 8;
	if (s->burst < 1)
		s->burst = 1;
	s->catchup_rounds++;
	p->sched_poll = true;
	s->phase = 6;
}

int devpoll_run(struct devpoll *p)
{
	if (!devpoll_registered(p)) {
		p->sched_poll = p->sched_pollmore = false;
		return 0;
	}
	if (p->sched_poll)
		return p->last_err = run_poll(p);
	if (p->sched_pollmore)
		run_pollmore(p);
	return 0;
}

int devpoll_idle(struct devpoll *p)
{
	int total = 0;
	if (!devpoll_registered(p))
		return 0;
	p->st.idle_passes++;
	for (int i = 0; i < p->nh; i++) {
		int rc = p->h[i].fn(p->h[i].arg, POLL_ONLY, (int)p->k.each_burst);
		if (rc < 0)
			return rc;
		total += rc;
	}
	p->st.idle_frames += (uint64_t)total;
	if (total)
		p->owed = true;
	return total;
}

void devpoll_clock_start(struct devpoll *p, uint64_t now_ns)
{
	p->base_ns = now_ns;
	p->k_tick = 0;
	p->clock_started = true;
	p->deferred = false;
}

uint64_t devpoll_next_deadline(const struct devpoll *p)
{
	return p->base_ns + period_of(devpoll_clock_hz(p), p->k_tick);
}

/* Moves the clock to deadline k (rebasing each whole second: no drift, no overflow). */
static void clock_to(struct devpoll *p, uint64_t k)
{
	uint32_t hz = devpoll_clock_hz(p);
	p->base_ns += k / hz * NS_PER_S;
	p->k_tick = k % hz;
}

/* Fires one tick for the due deadline, late by now - deadline. */
static void fire(struct devpoll *p, uint64_t now_ns)
{
	uint64_t d = devpoll_next_deadline(p);
	hist_add(&p->late_ns, now_ns - d);
	p->deferred = false;
	p->tick_at_ns = d;
	devpoll_tick(p);
	clock_to(p, p->k_tick + 1);
}

int devpoll_clock(struct devpoll *p, uint64_t now_ns)
{
	if (!p->clock_started)
		devpoll_clock_start(p, now_ns);
	uint64_t d = devpoll_next_deadline(p);
	if (now_ns < d)
		return 0;
	/* the last deadline at or before now: every one before it passed unseen, and a
	 * late hardclock or systimer fires once for them all */
	uint32_t hz = devpoll_clock_hz(p);
	uint64_t since = now_ns - p->base_ns;
	uint64_t k = since / NS_PER_S * hz + since % NS_PER_S * hz / NS_PER_S;
	while (period_of(hz, k + 1) <= since)
		k++;
	while (k > p->k_tick && period_of(hz, k) > since)
		k--;
	p->st.clock_skips += k - p->k_tick;
	p->trail = false;
	hist_add(&p->late_ns, now_ns - d);
	p->deferred = false;
	p->tick_at_ns = p->v_ref_ns = p->base_ns + period_of(hz, k);
	devpoll_tick(p);
	clock_to(p, k + 1);
	return 1;
}

int devpoll_trail_done(struct devpoll *p)
{
	/* the frames the work after the rounds moved: those since the last call */
	uint64_t frames = p->st.polled_frames - p->trail_frames;
	p->trail_frames = p->st.polled_frames;
	if (frames)
		p->owed = true;    /* their transmit's completions come back in the next run */
	if (!p->trail || !p->clock_started)
		return 0;
	p->trail = false;
	uint64_t now = p->now(p->clk);
	/* the work's CPU time, never more than the wall time it spanned; without a CPU
	 * clock the host's share cannot be told apart and none of it is placed */
	uint64_t wall = now - p->trail_wall_ns, own = 0;
	p->trail_exp_ns = 0;
	if (p->cpu_now) {
		uint64_t cpu = p->cpu_now(p->clk) - p->trail_cpu_ns;
		p->step_at = p->trail_cpu_ns;
		uint64_t host = host_excess(p, frames ? STEP_TRAIL_FRAMES : STEP_TRAIL_EMPTY,
					    frames);
		cpu = cpu > host ? cpu - host : 0;
		own = cpu < wall ? cpu : wall;
	}
	uint64_t vend = p->v_ref_ns + own;
	int fired = 0;
	while (devpoll_registered(p) && devpoll_next_deadline(p) <= vend &&
	       devpoll_next_deadline(p) <= now) {
		unsure_tick(p, devpoll_next_deadline(p), p->trail_exp_ns);
		fire(p, now);
		fired++;
	}
	p->st.ticks_after_round += (uint64_t)fired;
	if (fired)
		p->v_ref_ns = vend;    /* the scheduled poll starts when that work ends */
	return fired;
}

/* A round that has moved no frame never reaches a deadline on the kernel's timeline:
 * a kernel's empty round reads a ring status per interface and chunk, well under a
 * microsecond each, far under the shortest tick (33 us at pollhz 30,000). Here it
 * takes tens of microseconds (ring reads from user space, clock reads) and whatever
 * the host adds in small pieces that no step's rule sees (an idle round at burst 150
 * is 60 steps), so at pollhz 10,000 it could pass a 100 us tick. What it ran past the
 * next deadline is counted as the host's (host_delays, host_ns) and left out, as a
 * step's excess is; the deadline waits for the round's end (ticks_deferred). A round
 * with an owed run (the completions of the frames before it) is not judged so. */
static void empty_round(struct devpoll *p, uint64_t now_ns)
{
	/* a round whose first run paid for the frames moved before it did frame work */
	if (p->st.polled_frames != p->round_frames0 || p->round_owed)
		return;
	uint64_t vnow = kernel_now(p, now_ns), d = devpoll_next_deadline(p);
	if (vnow < d)
		return;
	uint64_t x = vnow - d + 1;
	if (!p->round_past && !p->quiet_host_ns)
		p->st.host_delays++;           /* once a round */
	p->round_past = true;
	p->st.host_ns += x;
	p->round_host_ns += x;
}

/* Between two runs of a round: the deadlines the round's own work reached on the
 * kernel's timeline fire one by one (hardclock interrupting the round: pending_polls,
 * lost_polls, the 7/8 rule); a deadline reached only because the thread came late to
 * the round or was descheduled in it waits until the round is over. Between rounds,
 * devpoll_clock. Returns the ticks fired during the round. */
static int clock_in_work(struct devpoll *p, uint64_t now_ns)
{
	if (!p->clock_started || now_ns < devpoll_next_deadline(p))
		return 0;
	if (p->st.phase == 0) {
		devpoll_clock(p, now_ns);
		return 0;
	}
	update_stolen(p, now_ns);
	quiet_excess(p);
	empty_round(p, now_ns);
	uint64_t vnow = kernel_now(p, now_ns);
	int fired = 0;
	while (devpoll_registered(p) && devpoll_next_deadline(p) <= vnow) {
		unsure_tick(p, devpoll_next_deadline(p), 0);
		fire(p, now_ns);
		fired++;
	}
	if (!p->deferred && devpoll_next_deadline(p) <= now_ns) {
		p->deferred = true;
		p->st.ticks_deferred++;
	}
	return fired;
}

int devpoll_work(struct devpoll *p, int max_runs)
{
	for (int i = 0; i < max_runs; i++) {
		if (!devpoll_work_pending(p))
			return 0;
		int rc = devpoll_run(p);
		if (rc < 0)
			return rc;
		p->st.ticks_in_work += (uint64_t)clock_in_work(p, p->now(p->clk));
	}
	return devpoll_work_pending(p) ? 1 : 0;
}
