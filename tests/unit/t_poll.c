/* t_poll.c — the DEVICE_POLLING scheduler on a simulated clock: every vector P1..P16 of
 * docs/design/polling.md#polling-test-vectors (ceilings, the CPU-limited burst, the
 * ramp, the 7/8 rule, chunking, the load rule, reg_frac, stalled), plus the statistics
 * and both range policies of the knobs. Handlers are simulated interfaces with an unlimited backlog
 * whose frames cost a fixed time each, so the clock advances as they work. */
#include <errno.h>

#include "clock.h"
#include "devpoll.h"
#include "tap.h"

struct sim {
	uint64_t t;             /* simulated CLOCK_MONOTONIC, ns */
	uint64_t frame_ns;      /* cost of one frame */
	uint64_t call_ns;       /* fixed cost of one handler call */
	uint64_t done[4];       /* frames processed per interface */
	int calls;
	int last_count[16];     /* counts of the last calls (ring) */
	enum poll_cmd last_cmd;
	uint64_t status_rounds[8];
	int nstatus;
};

struct ifc {
	struct sim *s;
	int idx;
};

static uint64_t sim_now(void *c)
{
	return ((struct sim *)c)->t;
}

static int sim_handler(void *arg, enum poll_cmd cmd, int count)
{
	struct ifc *i = arg;
	struct sim *s = i->s;
	s->done[i->idx] += (uint64_t)count;
	s->t += (uint64_t)count * s->frame_ns + s->call_ns;
	s->last_count[s->calls % 16] = count;
	s->last_cmd = cmd;
	s->calls++;
	return count;
}

static struct sim S;
static struct ifc IF[4];
static struct poll P;

static void setup(enum poll_range r, int nifs, uint64_t frame_ns)
{
	memset(&S, 0, sizeof(S));
	S.t = 1000 * NS_PER_S;
	S.frame_ns = frame_ns;
	poll_init(&P, r, sim_now, &S);
	for (int i = 0; i < nifs; i++) {
		IF[i] = (struct ifc){ .s = &S, .idx = i };
		poll_register(&P, sim_handler, &IF[i]);
	}
	poll_clock_start(&P, S.t);
}

/* The forwarder's loop on simulated time: work, sleep to the next deadline, tick. */
static void run_for(uint64_t dur_ns)
{
	uint64_t end = S.t + dur_ns;
	while (S.t < end) {
		while (poll_work(&P, 1000) == 1)
			;
		uint64_t next = poll_next_deadline(&P);
		if (S.t < next)
			S.t = next;
		poll_clock(&P, S.t);
	}
}

static uint64_t total_done(void)
{
	return S.done[0] + S.done[1] + S.done[2] + S.done[3];
}

/* frames forwarded per second after the ramp, measured over 2 s */
static double rate_after_ramp(uint32_t hz, uint32_t burst_max, int nifs, uint64_t frame_ns)
{
	setup(POLL_RANGE_EINVAL, nifs, frame_ns);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, hz), 0);
	T_EQ_INT(poll_set(&P, POLL_K_BURST_MAX, burst_max), 0);
	run_for(2 * NS_PER_S);
	uint64_t d0 = total_done();
	run_for(2 * NS_PER_S);
	return (double)(total_done() - d0) / 2.0;
}

static void t_defaults(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	T_EQ_U64(P.k.enable, 1);
	T_EQ_U64(P.k.pollhz, 2000);
	T_EQ_U64(P.k.burst_max, 150);
	T_EQ_U64(P.k.each_burst, 5);
	T_EQ_U64(P.k.user_frac, 50);
	T_EQ_U64(P.k.reg_frac, 20);
	T_EQ_U64(P.k.idle_poll, 0);
	T_EQ_U64(P.st.burst, 5);
	T_EQ_U64(P.st.handlers, 1);
	T_EQ_U64(P.st.phase, 0);
}

/* P1..P5: pollhz × burst_max per ingress interface when the CPU is not the limit */
static void t_ceiling_1000_150(void)
{
	T_NEAR(rate_after_ramp(1000, 150, 1, 100), 150000, 150);
	T_EQ_U64(P.st.burst, 150);
	T_EQ_U64(P.st.lost_polls, 0);
}

static void t_ceiling_2000_150(void)
{
	T_NEAR(rate_after_ramp(2000, 150, 1, 100), 300000, 150);
}

static void t_ceiling_3000_150(void)
{
	/* the 2006 DragonFly sweep's 450,072 pps at HZ 3000 is this bound plus measurement
	 * error */
	T_NEAR(rate_after_ramp(3000, 150, 1, 100), 450000, 150);
}

static void t_ceiling_1000_1000(void)
{
	T_NEAR(rate_after_ramp(1000, 1000, 1, 100), 1000000, 1000);
}

static void t_two_interfaces(void)
{
	rate_after_ramp(1000, 150, 2, 100);
	uint64_t a = S.done[0], b = S.done[1];
	run_for(NS_PER_S);
	T_NEAR((double)(S.done[0] - a), 150000, 150);
	T_NEAR((double)(S.done[1] - b), 150000, 150);
}

/* P6: c = 5 µs per frame, user_frac 50, HZ 1000: min(150k, 0.5e6/5) = 100k, burst
 * settles near 100 */
static void t_cpu_limited(void)
{
	double r = rate_after_ramp(1000, 150, 1, 5000);
	T_NEAR(r, 100000, 2000);
	T_TRUE(P.st.burst >= 98 && P.st.burst <= 103);
	T_EQ_U64(P.st.lost_polls, 0);
}

/* P7: from reset at HZ 3000 burst reaches 150 at tick 145 (48.3 ms) after admitting
 * 11,165 frames */
static void t_ramp(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 3000), 0);
	uint64_t t0 = S.t;
	for (int tick = 1; tick <= 145; tick++) {
		uint64_t next = poll_next_deadline(&P);
		if (S.t < next)
			S.t = next;
		T_EQ_INT(poll_clock(&P, S.t), 1);
		while (poll_work(&P, 1000) == 1)
			;
		if (tick == 144)
			T_EQ_U64(P.st.burst, 149);
	}
	T_EQ_U64(P.st.burst, 150);
	T_EQ_U64(S.done[0], 11165);
	T_EQ_U64(P.st.rounds, 145);
	/* tick 145 is deadline 144 after tick 1 at t0: 144/3000 s = 48.0 ms, plus the round */
	T_NEAR((double)(S.t - t0) / 1e6, 48.0, 0.4);
}

/* P8: burst 150, a round overruns one tick: load rule 149, then 7/8 rule 131, an
 * immediate extra round, phase 6 */
static void t_seven_eighths(void)
{
	rate_after_ramp(1000, 150, 1, 100);
	T_EQ_U64(P.st.burst, 150);
	while (poll_work(&P, 1000) == 1)          /* serve the tick run_for ended on */
		;
	T_EQ_U64(P.st.burst, 150);
	uint64_t lost0 = P.st.lost_polls, catch0 = P.st.catchup_rounds;
	S.frame_ns = 8000;                       /* 150 frames: 1.2 ms, one tick overrun */
	uint64_t next = poll_next_deadline(&P);
	S.t = next;
	T_EQ_INT(poll_clock(&P, S.t), 1);
	int guard = 0;
	while (guard++ < 1000) {
		T_EQ_INT(poll_run(&P), 0);
		poll_clock(&P, S.t);
		if (P.st.phase == 6 || P.st.phase == 0)
			break;
	}
	T_EQ_U64(P.st.phase, 6);
	T_EQ_U64(P.st.burst, 131);               /* 149 - 149/8 */
	T_EQ_U64(P.st.lost_polls, lost0 + 1);
	T_EQ_U64(P.st.catchup_rounds, catch0 + 1);
	T_EQ_U64(P.st.pending_polls, 1);
	T_TRUE(poll_work_pending(&P));
	T_EQ_U64(P.st.last_load_pct, 120);
}

/* P9: burst 12, each_burst 5: chunks 5, 5, 2 (three POLL runs), then adaptation */
static void t_chunks(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 1000), 0);
	while (P.st.burst < 12) {
		uint64_t next = poll_next_deadline(&P);
		S.t = next > S.t ? next : S.t;
		poll_clock(&P, S.t);
		while (poll_work(&P, 1000) == 1)
			;
	}
	T_EQ_U64(P.st.burst, 12);
	S.t = poll_next_deadline(&P);
	poll_clock(&P, S.t);
	uint64_t chunks0 = P.st.chunks;
	int calls0 = S.calls;
	T_EQ_INT(poll_run(&P), 0);               /* POLL: 5 */
	T_EQ_U64(P.st.residual_burst, 7);
	T_EQ_U64(P.st.phase, 4);
	T_EQ_INT(poll_run(&P), 0);               /* POLLMORE: residual left, reschedule */
	T_EQ_U64(P.st.phase, 5);
	T_EQ_U64(P.st.burst, 12);
	T_EQ_INT(poll_run(&P), 0);               /* POLL: 5 */
	T_EQ_INT(poll_run(&P), 0);
	T_EQ_INT(poll_run(&P), 0);               /* POLL: 2 */
	T_EQ_U64(P.st.residual_burst, 0);
	T_EQ_INT(poll_run(&P), 0);               /* POLLMORE: round over, adapt */
	T_EQ_U64(P.st.chunks - chunks0, 3);
	T_EQ_INT(S.calls - calls0, 3);
	T_EQ_INT(S.last_count[(calls0 + 0) % 16], 5);
	T_EQ_INT(S.last_count[(calls0 + 1) % 16], 5);
	T_EQ_INT(S.last_count[(calls0 + 2) % 16], 2);
	T_EQ_U64(P.st.burst, 13);
	T_EQ_U64(P.st.phase, 0);
	T_TRUE(!poll_work_pending(&P));
}

/* One round of a single chunk taking round_us; returns the burst change. */
static int one_round(uint32_t hz, uint64_t round_us)
{
	setup(POLL_RANGE_EINVAL, 1, 0);
	poll_set(&P, POLL_K_POLLHZ, hz);
	poll_set(&P, POLL_K_EACH_BURST, 150);    /* the whole burst in one call */
	S.call_ns = round_us * NS_PER_US;
	uint32_t b0 = P.st.burst;
	S.t = poll_next_deadline(&P);
	poll_clock(&P, S.t);
	T_EQ_INT(poll_work(&P, 1000), 0);
	return (int)P.st.burst - (int)b0;
}

/* P10, P11: HZ 1000, user_frac 50: 600 µs is load 60 > 50 (burst - 1); 500 µs is load 50,
 * not > 50 (burst + 1); HZ 3000, 200 µs is load 60 (burst - 1) */
static void t_load_rule(void)
{
	T_EQ_INT(one_round(1000, 600), -1);
	T_EQ_U64(P.st.last_load_pct, 60);
	T_EQ_INT(one_round(1000, 500), 1);
	T_EQ_U64(P.st.last_load_pct, 50);
	T_EQ_INT(one_round(3000, 200), -1);
	T_EQ_U64(P.st.last_load_pct, 60);
}

/* P12: reg_frac 20 (counting down, as DragonFly and FreeBSD 5): rounds 1, 21, 41 check
 * status */
static void t_reg_frac(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	poll_set(&P, POLL_K_POLLHZ, 1000);
	int checked[64], n = 0;
	for (int round = 1; round <= 60; round++) {
		S.t = poll_next_deadline(&P) > S.t ? poll_next_deadline(&P) : S.t;
		poll_clock(&P, S.t);
		T_EQ_INT(poll_run(&P), 0);           /* the round's first chunk */
		if (S.last_cmd == POLL_AND_CHECK_STATUS)
			checked[n++] = round;
		while (poll_work(&P, 1000) == 1)
			;
	}
	T_EQ_INT(n, 3);
	T_EQ_INT(checked[0], 1);
	T_EQ_INT(checked[1], 21);
	T_EQ_INT(checked[2], 41);
	T_EQ_U64(P.st.status_checks, 3);
}

/* P13: a tick that finds pending 101: stalled + 1, pending and phase reset, then it
 * schedules normally; the 100 ticks before it were lost and suspect */
static void t_stalled(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	for (int i = 0; i < 101; i++) {
		S.t += 10;
		poll_tick(&P);
	}
	T_EQ_U64(P.st.pending_polls, 101);
	T_EQ_U64(P.st.lost_polls, 100);
	T_EQ_U64(P.st.suspect, 100);
	T_EQ_U64(P.st.stalled, 0);
	poll_tick(&P);
	T_EQ_U64(P.st.stalled, 1);
	T_EQ_U64(P.st.pending_polls, 1);
	T_EQ_U64(P.st.phase, 2);
	T_EQ_U64(P.st.suspect, 100);           /* phase was reset to 0 first */
	T_EQ_U64(P.st.lost_polls, 100);
	T_EQ_INT(poll_work(&P, 1000), 0);
	T_EQ_U64(P.st.pending_polls, 0);
	T_EQ_U64(P.st.phase, 0);
}

static void t_short_ticks(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	poll_set(&P, POLL_K_POLLHZ, 1000);
	poll_tick(&P);
	S.t += 100 * NS_PER_US;                 /* a tenth of a tick later: short */
	poll_tick(&P);
	T_EQ_U64(P.st.short_ticks, 1);
	S.t += 450 * NS_PER_US;                 /* 550 µs after the last normal tick */
	poll_tick(&P);
	T_EQ_U64(P.st.short_ticks, 1);
	S.t += 499 * NS_PER_US;                 /* < half a tick since the normal one */
	poll_tick(&P);
	T_EQ_U64(P.st.short_ticks, 2);
}

/* P14, P15: burst_max 5 is EINVAL (FreeBSD 8) or clamped to 10 (DragonFly); pollhz 40000
 * becomes 30000 (DragonFly) and 0 is EINVAL in both */
static void t_range_einval(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	T_EQ_INT(poll_set(&P, POLL_K_BURST_MAX, 5), -EINVAL);
	T_EQ_U64(P.k.burst_max, 150);
	T_EQ_INT(poll_set(&P, POLL_K_BURST_MAX, 1001), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 40000), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 0), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, -5), -EINVAL);
	T_EQ_U64(P.k.pollhz, 2000);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 30000), 0);
	T_EQ_INT(poll_set(&P, POLL_K_EACH_BURST, 151), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_EACH_BURST, 0), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_EACH_BURST, 150), 0);
	T_EQ_INT(poll_set(&P, POLL_K_USER_FRAC, 100), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_USER_FRAC, 99), 0);
	T_EQ_INT(poll_set(&P, POLL_K_USER_FRAC, 0), 0);
	T_EQ_INT(poll_set(&P, POLL_K_REG_FRAC, 0), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_REG_FRAC, 30001), -EINVAL);
	T_EQ_INT(poll_set(&P, POLL_K_REG_FRAC, 30000), 0);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 1000), 0);
	T_EQ_U64(P.k.reg_frac, 1000);          /* bounded by pollhz */
	/* lowering burst_max lowers burst and each_burst */
	P.st.burst = 140;
	T_EQ_INT(poll_set(&P, POLL_K_BURST_MAX, 100), 0);
	T_EQ_U64(P.st.burst, 100);
	T_EQ_U64(P.k.each_burst, 100);
}

static void t_range_clamp(void)
{
	setup(POLL_RANGE_CLAMP, 1, 100);
	T_EQ_INT(poll_set(&P, POLL_K_BURST_MAX, 5), 0);
	T_EQ_U64(P.k.burst_max, 10);
	T_EQ_U64(P.k.each_burst, 5);
	T_EQ_INT(poll_set(&P, POLL_K_BURST_MAX, 5000), 0);
	T_EQ_U64(P.k.burst_max, 1000);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 40000), 0);
	T_EQ_U64(P.k.pollhz, 30000);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 0), -EINVAL);
	T_EQ_U64(P.k.pollhz, 30000);
	T_EQ_INT(poll_set(&P, POLL_K_EACH_BURST, 5000), 0);
	T_EQ_U64(P.k.each_burst, 1000);
	T_EQ_INT(poll_set(&P, POLL_K_REG_FRAC, 0), 0);
	T_EQ_U64(P.k.reg_frac, 1);
	T_EQ_INT(poll_set(&P, POLL_K_USER_FRAC, 150), 0);
	T_EQ_U64(P.k.user_frac, 150);
}

/* P16 (DragonFly, FreeBSD 5): user_frac above 100 wraps 100 - user_frac, so even rounds
 * that take the whole tick never lower burst */
static void t_user_frac_wrap(void)
{
	setup(POLL_RANGE_CLAMP, 1, 6000);        /* 150 frames: 0.9 ms of a 1 ms tick */
	poll_set(&P, POLL_K_POLLHZ, 1000);
	poll_set(&P, POLL_K_USER_FRAC, 150);
	run_for(NS_PER_S);
	T_EQ_U64(P.st.burst, 150);
}

/* the pollhz knob changes the tick rate at once, the clock stays on its deadlines */
static void t_pollhz_live(void)
{
	rate_after_ramp(1000, 100, 1, 100);
	uint64_t t0 = P.st.ticks, d0 = total_done();
	run_for(NS_PER_S);
	T_NEAR((double)(P.st.ticks - t0), 1000, 1);
	T_NEAR((double)(total_done() - d0), 100000, 100);
	T_EQ_INT(poll_set(&P, POLL_K_POLLHZ, 4000), 0);
	t0 = P.st.ticks;
	d0 = total_done();
	run_for(NS_PER_S);
	T_NEAR((double)(P.st.ticks - t0), 4000, 2);
	T_NEAR((double)(total_done() - d0), 400000, 400);
	T_EQ_U64(P.st.lost_polls, 0);
	T_EQ_U64(P.st.short_ticks, 0);
}

static void t_enable(void)
{
	setup(POLL_RANGE_EINVAL, 2, 100);
	T_EQ_U64(P.st.handlers, 2);
	poll_tick(&P);
	T_EQ_INT(poll_set(&P, POLL_K_ENABLE, 0), 0);
	T_EQ_U64(P.st.handlers, 0);
	T_EQ_U64(P.st.pending_polls, 0);
	T_TRUE(!poll_work_pending(&P));
	uint64_t ticks = P.st.ticks;
	poll_tick(&P);                            /* no handlers: returns at once */
	T_EQ_U64(P.st.ticks, ticks);
	T_EQ_INT(poll_idle(&P), 0);
	T_EQ_INT(poll_set(&P, POLL_K_ENABLE, 1), 0);
	T_EQ_U64(P.st.handlers, 2);
}

static void t_idle_poll(void)
{
	setup(POLL_RANGE_EINVAL, 2, 100);
	poll_set(&P, POLL_K_EACH_BURST, 7);
	T_EQ_INT(poll_idle(&P), 14);
	T_EQ_U64(P.st.idle_passes, 1);
	T_EQ_U64(P.st.idle_frames, 14);
	T_EQ_U64(P.st.burst, 5);                 /* no adaptation */
	T_EQ_U64(P.st.ticks, 0);
}

/* missed deadlines are replayed (lost_polls), a stop of seconds is skipped */
static void t_clock(void)
{
	setup(POLL_RANGE_EINVAL, 1, 100);
	poll_set(&P, POLL_K_POLLHZ, 1000);
	T_EQ_INT(poll_clock(&P, S.t), 1);
	T_EQ_U64(poll_next_deadline(&P), S.t + NS_PER_MS);
	S.t += 3 * NS_PER_MS + 500;              /* three deadlines passed, 500 ns late */
	T_EQ_INT(poll_clock(&P, S.t), 3);
	T_EQ_U64(P.st.lost_polls, 3);            /* the first tick was never served */
	T_EQ_U64(P.late_ns.max, 2 * NS_PER_MS + 500);
	T_EQ_U64(P.late_ns.min, 0);
	while (poll_work(&P, 1000) == 1)
		;
	T_EQ_U64(P.st.pending_polls, 0);
	S.t += 5 * NS_PER_S;                     /* the process was stopped */
	T_EQ_INT(poll_clock(&P, S.t), 1);
	T_TRUE(P.st.clock_skips >= 4990 && P.st.clock_skips <= 5000);
	T_EQ_U64(poll_next_deadline(&P), S.t + NS_PER_MS);
	/* a whole hour of deadlines at 30000 Hz stays exact (rebased each second) */
	poll_set(&P, POLL_K_POLLHZ, 3000);
	uint64_t t0 = poll_next_deadline(&P);
	for (int i = 0; i < 3000 * 10; i++)
		poll_clock(&P, poll_next_deadline(&P));
	T_EQ_U64(poll_next_deadline(&P), t0 + 10 * NS_PER_S);
}

static void t_register_limit(void)
{
	setup(POLL_RANGE_EINVAL, 0, 100);
	for (int i = 0; i < POLL_LIST_LEN; i++)
		T_EQ_INT(poll_register(&P, sim_handler, &IF[0]), 0);
	T_EQ_INT(poll_register(&P, sim_handler, &IF[0]), -ENOSPC);
	T_EQ_U64(P.st.handlers, POLL_LIST_LEN);
}

static int err_handler(void *arg, enum poll_cmd cmd, int count)
{
	(void)arg, (void)cmd, (void)count;
	return -EIO;
}

static void t_handler_error(void)
{
	setup(POLL_RANGE_EINVAL, 0, 100);
	poll_register(&P, err_handler, NULL);
	poll_tick(&P);
	T_EQ_INT(poll_work(&P, 1000), -EIO);
}

int main(void)
{
	T_RUN(t_defaults);
	T_RUN(t_ceiling_1000_150);
	T_RUN(t_ceiling_2000_150);
	T_RUN(t_ceiling_3000_150);
	T_RUN(t_ceiling_1000_1000);
	T_RUN(t_two_interfaces);
	T_RUN(t_cpu_limited);
	T_RUN(t_ramp);
	T_RUN(t_seven_eighths);
	T_RUN(t_chunks);
	T_RUN(t_load_rule);
	T_RUN(t_reg_frac);
	T_RUN(t_stalled);
	T_RUN(t_short_ticks);
	T_RUN(t_range_einval);
	T_RUN(t_range_clamp);
	T_RUN(t_user_frac_wrap);
	T_RUN(t_pollhz_live);
	T_RUN(t_enable);
	T_RUN(t_idle_poll);
	T_RUN(t_clock);
	T_RUN(t_register_limit);
	T_RUN(t_handler_error);
	return t_done();
}
