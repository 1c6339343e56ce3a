/* devpoll.c — the DEVICE_POLLING state machine (see devpoll.h). Owns one poll context: knobs,
 * statistics, the handler list and the tick clock. Called by the forwarder's poll-mode
 * loop (fwdloop.c) with the real clock and by tests/unit/t_poll.c with a simulated one.
 *
 * Behaviour follows DragonFly's sys/kern/kern_poll.c from revision 1.36 on (1.37, 1.48),
 * as docs/design/polling.md#the-round-step-by-step describes: the clock hook schedules,
 * a POLL run hands out one each_burst chunk to every handler, a POLLMORE run either asks
 * for the next chunk or ends the round and adapts burst by the load of the round
 * measured against the poll period (pollhz, not hz as DragonFly before revision 1.36
 * did: docs/design/polling.md#version-differences). */
#include "devpoll.h"

#include <errno.h>
#include <string.h>

#include "clock.h"

void poll_init(struct poll *p, enum poll_range range, poll_clock_fn now, void *clk)
{
	memset(p, 0, sizeof(*p));
	p->range = range;
	p->now = now;
	p->clk = clk;
	p->k = (struct poll_knobs){ .enable = 1, .pollhz = 2000, .burst_max = 150,
				    .each_burst = 5, .user_frac = 50, .reg_frac = 20,
				    .idle_poll = 0 };
	p->st.burst = 5;
	p->reg_count = 0;          /* the very first round checks status */
	hist_init(&p->late_ns);
}

int poll_register(struct poll *p, poll_handler_fn fn, void *arg)
{
	if (p->nh >= POLL_LIST_LEN)
		return -ENOSPC;
	p->h[p->nh++] = (struct poll_handler){ .fn = fn, .arg = arg };
	p->st.handlers = p->k.enable ? (uint32_t)p->nh : 0;
	return 0;
}

static uint64_t period_of(uint32_t hz, uint64_t k)
{
	return k * NS_PER_S / hz;
}

/* A new pollhz: the next tick comes one new period after the last one fired. */
static void clock_rebase(struct poll *p, uint32_t old_hz)
{
	if (!p->clock_started || p->k_tick == 0)
		return;
	p->base_ns += period_of(old_hz, p->k_tick - 1);
	p->k_tick = 1;
}

/* Clamps v into [lo, hi] (DragonFly) or rejects it (FreeBSD 8). */
static int ranged(const struct poll *p, int64_t v, int64_t lo, int64_t hi, uint32_t *out)
{
	if (v < lo || v > hi) {
		if (p->range == POLL_RANGE_EINVAL)
			return -EINVAL;
		v = v < lo ? lo : hi;
	}
	*out = (uint32_t)v;
	return 0;
}

static void set_enable(struct poll *p, uint32_t on)
{
	if (on == p->k.enable)
		return;
	p->k.enable = on;
	if (!on) {
		/* DEREGISTER: the round in progress is abandoned, the interfaces go back to
		 * interrupts (the forwarder's intr service) */
		p->sched_poll = p->sched_pollmore = false;
		p->st.residual_burst = 0;
		p->st.pending_polls = 0;
		p->st.phase = 0;
	}
	p->st.handlers = on ? (uint32_t)p->nh : 0;
}

int poll_set(struct poll *p, enum poll_knob k, int64_t v)
{
	uint32_t u;
	int rc;
	switch (k) {
	case POLL_K_ENABLE:
		set_enable(p, v != 0);
		return 0;
	case POLL_K_IDLE_POLL:
		p->k.idle_poll = v != 0;
		return 0;
	case POLL_K_POLLHZ: {
		/* DragonFly: <= 0 is EINVAL in both policies; above 30000 clamps or fails */
		if (v <= 0)
			return -EINVAL;
		if ((rc = ranged(p, v, 1, POLL_HZ_MAX, &u)))
			return rc;
		uint32_t old = p->k.pollhz;
		p->k.pollhz = u;
		if (p->k.reg_frac > u)      /* bounded by pollhz (DragonFly 1.36+) */
			p->k.reg_frac = u;
		if (p->reg_count >= p->k.reg_frac)
			p->reg_count = p->k.reg_frac - 1;
		if (old != u)
			clock_rebase(p, old);
		return 0;
	}
	case POLL_K_BURST_MAX:
		if ((rc = ranged(p, v, POLL_BURST_MIN, POLL_BURST_MAX, &u)))
			return rc;
		p->k.burst_max = u;
		/* lowering the maximum lowers burst (and the chunk) with it */
		if (p->st.burst > u)
			p->st.burst = u;
		if (p->k.each_burst > u)
			p->k.each_burst = u;
		return 0;
	case POLL_K_EACH_BURST:
		if ((rc = ranged(p, v, 1, p->k.burst_max, &u)))
			return rc;
		p->k.each_burst = u;
		return 0;
	case POLL_K_USER_FRAC:
		/* FreeBSD 8 rejects >= 100; DragonFly stores any unsigned value, and above
		 * 100 the unsigned 100 - user_frac wraps so the load never exceeds it */
		if (p->range == POLL_RANGE_EINVAL && (v < 0 || v > 99))
			return -EINVAL;
		p->k.user_frac = (uint32_t)v;
		return 0;
	case POLL_K_REG_FRAC:
		if ((rc = ranged(p, v, 1, p->k.pollhz, &u)))
			return rc;
		p->k.reg_frac = u;
		if (p->reg_count >= u)
			p->reg_count = u - 1;
		return 0;
	case POLL_K_COUNT:
		break;
	}
	return -EINVAL;
}

uint32_t poll_get(const struct poll *p, enum poll_knob k)
{
	switch (k) {
	case POLL_K_ENABLE: return p->k.enable;
	case POLL_K_POLLHZ: return p->k.pollhz;
	case POLL_K_BURST_MAX: return p->k.burst_max;
	case POLL_K_EACH_BURST: return p->k.each_burst;
	case POLL_K_USER_FRAC: return p->k.user_frac;
	case POLL_K_REG_FRAC: return p->k.reg_frac;
	case POLL_K_IDLE_POLL: return p->k.idle_poll;
	case POLL_K_COUNT: break;
	}
	return 0;
}

static bool active(const struct poll *p)
{
	return p->k.enable && p->nh > 0;
}

void poll_tick(struct poll *p)
{
	struct poll_stats *s = &p->st;
	if (!active(p))
		return;
	s->ticks++;
	/* short_ticks: less than half a nominal tick since the last normal tick; the
	 * reference moves only on normal ticks */
	uint64_t now = p->now(p->clk);
	uint64_t delta_us = (now - p->t_prev_ns) / NS_PER_US;
	if (s->ticks > 1 && delta_us * p->k.pollhz < 500000)
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

static int run_poll(struct poll *p)
{
	struct poll_stats *s = &p->st;
	enum poll_cmd cmd = POLL_ONLY;
	int err = 0;

	p->sched_poll = false;
	s->phase = 3;
	if (s->residual_burst == 0) {          /* first chunk of a round */
		p->t_start_ns = p->now(p->clk);
		if (p->reg_count == 0) {
			cmd = POLL_AND_CHECK_STATUS;
			p->reg_count = p->k.reg_frac - 1;
			s->status_checks++;
		} else {
			p->reg_count--;
		}
		s->residual_burst = s->burst;
	}
	uint32_t cycles = s->residual_burst < p->k.each_burst ? s->residual_burst
							      : p->k.each_burst;
	s->residual_burst -= cycles;
	for (int i = 0; i < p->nh; i++) {
		int rc = p->h[i].fn(p->h[i].arg, cmd, (int)cycles);
		if (rc < 0) {
			if (!err)
				err = rc;
		} else {
			s->polled_frames += (uint64_t)rc;
		}
	}
	s->chunks++;
	p->sched_pollmore = true;              /* DragonFly: POLL schedules POLLMORE */
	s->phase = 4;
	return err;
}

static void run_pollmore(struct poll *p)
{
	struct poll_stats *s = &p->st;

	p->sched_pollmore = false;
	s->phase = 5;
	if (s->residual_burst > 0) {           /* more chunks in this round */
		p->sched_poll = true;
		return;
	}
	/* the round is done: adapt burst by its load, in % of a poll period (integer
	 * arithmetic as the kernel: elapsed_us * pollhz / 10^4) */
	uint64_t elapsed_us = (p->now(p->clk) - p->t_start_ns) / NS_PER_US;
	uint64_t load = elapsed_us * p->k.pollhz / 10000;
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
		return;
	}
	/* ticks were missed: replay at once, with 1/8 less burst so it happens less */
	s->burst -= s->burst / 8;
	if (s->burst < 1)
		s->burst = 1;
	s->catchup_rounds++;
	p->sched_poll = true;
	s->phase = 6;
}

int poll_run(struct poll *p)
{
	if (!active(p)) {
		p->sched_poll = p->sched_pollmore = false;
		return 0;
	}
	if (p->sched_poll)
		return p->last_err = run_poll(p);
	if (p->sched_pollmore)
		run_pollmore(p);
	return 0;
}

int poll_idle(struct poll *p)
{
	int total = 0;
	if (!active(p))
		return 0;
	p->st.idle_passes++;
	for (int i = 0; i < p->nh; i++) {
		int rc = p->h[i].fn(p->h[i].arg, POLL_ONLY, (int)p->k.each_burst);
		if (rc < 0)
			return rc;
		total += rc;
	}
	p->st.idle_frames += (uint64_t)total;
	return total;
}

void poll_clock_start(struct poll *p, uint64_t now_ns)
{
	p->base_ns = now_ns;
	p->k_tick = 0;
	p->clock_started = true;
}

uint64_t poll_next_deadline(const struct poll *p)
{
	return p->base_ns + period_of(p->k.pollhz, p->k_tick);
}

int poll_clock(struct poll *p, uint64_t now_ns)
{
	int fired = 0;
	if (!p->clock_started)
		poll_clock_start(p, now_ns);
	for (;;) {
		uint64_t d = poll_next_deadline(p);
		if (now_ns < d)
			break;
		if (now_ns - d > POLL_CATCHUP_MAX_NS) {
			/* the whole process stood still (stopped, suspended): replaying
			 * seconds of ticks would measure nothing; restart the clock */
			p->st.clock_skips += (now_ns - d) / NS_PER_US * p->k.pollhz / 1000000;
			poll_clock_start(p, now_ns);
			continue;
		}
		hist_add(&p->late_ns, now_ns - d);
		poll_tick(p);
		fired++;
		if (++p->k_tick >= p->k.pollhz) {    /* rebase each second: no drift, no overflow */
			p->base_ns += period_of(p->k.pollhz, p->k_tick);
			p->k_tick = 0;
		}
	}
	return fired;
}

int poll_work(struct poll *p, int max_runs)
{
	for (int i = 0; i < max_runs; i++) {
		if (!poll_work_pending(p))
			return 0;
		int rc = poll_run(p);
		if (rc < 0)
			return rc;
		int n = poll_clock(p, p->now(p->clk));
		p->st.ticks_in_work += (uint64_t)n;
	}
	return poll_work_pending(p) ? 1 : 0;
}
