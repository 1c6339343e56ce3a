/* SPDX-License-Identifier: BSD-2-Clause */
/* t_pace.c — the transmit schedule on a simulated clock: steady rate without drift,
 * bursts sharing a deadline, "as fast as possible", step lists and ramps (deadlines
 * from the closed-form Λ⁻¹, exact frame counts), Poisson arrivals (mean and spread of
 * the gaps), the exact split of a schedule over threads, and a sender that stalls:
 * its bursts and time behind (pace_track) under each --late-policy. */
#include <stdlib.h>

#include "pace.h"
#include "tap.h"

/* Runs p on a simulated clock ticking every tick_ns until end_ns, sending what is due
 * in batches of at most 64; returns the frames sent and fills deadlines[0..n) with the
 * deadline of each frame as the schedule gave it (if deadlines is not NULL). */
static uint64_t simulate(struct pace *p, uint64_t end_ns, uint64_t tick_ns, uint64_t *deadlines,
			 uint64_t cap)
{
	uint64_t sent = 0;
	for (uint64_t t = p->start_ns; t < end_ns; t += tick_ns) {
		uint32_t n;
		while ((n = pace_due(p, t, 64)) > 0) {
			for (uint32_t i = 0; i < n; i++) {
				uint64_t d = pace_deadline_of(p, p->k + i);
				if (d > t)
					return UINT64_MAX;      /* said due but is not */
				if (deadlines && sent + i < cap)
					deadlines[sent + i] = d;
			}
			pace_advance(p, n);
			sent += n;
		}
	}
	return sent;
}

static void t_constant(void)
{
	struct pace p;
	pace_init(&p, 1000, 1000.0, 1);                 /* 1 frame per ms */
	T_EQ_U64(pace_due(&p, 999, 64), 0);
	T_EQ_U64(pace_due(&p, 1000, 64), 1);
	T_EQ_U64(pace_due(&p, 1000 + 10000000, 64), 11);   /* frames 0..10 */
	T_EQ_U64(pace_deadline_of(&p, 10), 1000 + 10000000);
	/* send what is due, one at a time over 1 s of simulated time: exactly 1000 */
	uint64_t sent = 0;
	for (uint64_t t = 1000; t < 1000 + 1000000000ULL; t += 100000) {
		uint32_t n = pace_due(&p, t, 64);
		pace_advance(&p, n);
		sent += n;
	}
	T_EQ_U64(sent, 1000);
}

static void t_no_drift(void)
{
	/* 3 pps: deadlines 0, 333333333, 666666666, 1000000000: computed from k, not summed */
	struct pace p;
	pace_init(&p, 0, 3.0, 1);
	T_EQ_U64(pace_deadline_of(&p, 3), 1000000000ULL);
	T_EQ_U64(pace_deadline_of(&p, 3000000), 1000000000000000ULL);
	pace_init(&p, 0, 1488095.0, 1);
	uint64_t d = pace_deadline_of(&p, 1488095ULL * 3600);   /* one hour at 1 GbE line rate */
	T_NEAR((double)d, 3600e9, 2.0);
}

static void t_burst(void)
{
	struct pace p;
	pace_init(&p, 0, 1000.0, 4);
	T_EQ_U64(pace_deadline_of(&p, 0), 0);
	T_EQ_U64(pace_deadline_of(&p, 3), 0);
	T_EQ_U64(pace_deadline_of(&p, 4), 4000000);
	T_EQ_U64(pace_due(&p, 0, 64), 4);
	pace_advance(&p, 4);
	T_EQ_U64(pace_due(&p, 3999999, 64), 0);
	T_EQ_U64(pace_due(&p, 4000000, 64), 4);
	T_EQ_U64(pace_due(&p, 4000000, 3), 3);
}

static void t_max(void)
{
	struct pace p;
	pace_init(&p, 0, 0, 1);
	T_EQ_U64(pace_due(&p, 0, 64), 64);
	T_EQ_U64(pace_next_deadline(&p), 0);
}

static void t_steps(void)
{
	/* 1000 pps for 1 s, a 0.5 s pause, 2000 pps for 1 s: 3000 frames, the first of the
	 * second step exactly at 1.5 s, none after 2.5 s */
	static struct pace_profile pr;
	struct pace p;
	struct pace_opts o = { .burst = 1 };
	pace_profile_init(&pr);
	T_EQ_INT(pace_profile_add(&pr, 1000000000ULL, 1000, 1000), 0);
	T_EQ_INT(pace_profile_add(&pr, 500000000ULL, 0, 0), 0);
	T_EQ_INT(pace_profile_add(&pr, 1000000000ULL, 2000, 2000), 0);
	T_EQ_U64(pace_profile_count(&pr), 3000);
	T_NEAR((double)pace_profile_frames(&pr, 1200000000ULL), 1000, 1e-6);
	T_NEAR((double)pace_profile_frames(&pr, 2000000000ULL), 2000, 1e-6);
	T_EQ_U64(pace_profile_time(&pr, 999), 999000000ULL);
	T_EQ_U64(pace_profile_time(&pr, 1000), 1500000000ULL);
	T_EQ_U64(pace_profile_time(&pr, 1001), 1500500000ULL);
	T_EQ_U64(pace_profile_time(&pr, 3000), PACE_NEVER);
	T_NEAR(pace_profile_rate(&pr, 1200000000ULL), 0, 0);
	T_NEAR(pace_profile_rate(&pr, 1600000000ULL), 2000, 0);
	pace_init_profile(&p, 5000, &pr, &o);
	T_EQ_U64(simulate(&p, 5000 + 4000000000ULL, 100000, NULL, 0), 3000);
	T_EQ_U64(pace_next_deadline(&p), PACE_NEVER);
	T_EQ_U64(pace_due(&p, UINT64_MAX / 2, 64), 0);
	/* per second: 1000, then 500 in [1, 2) (the pause), then 1500 */
	pace_init_profile(&p, 0, &pr, &o);
	T_EQ_U64(simulate(&p, 1000000000ULL, 1000, NULL, 0), 1000);
	T_EQ_U64(simulate(&p, 2000000000ULL, 1000, NULL, 0), 1000);
	T_EQ_U64(p.k, 2000);
	/* a closed profile's total is exact even when r·t is not an integer in binary */
	pace_profile_init(&pr);
	pace_profile_add(&pr, 100000000ULL, 12345.6, 12345.6);   /* 1234.56 frames */
	T_EQ_U64(pace_profile_count(&pr), 1235);
	pace_profile_init(&pr);
	pace_profile_add(&pr, 300000000ULL, 10000, 10000);
	T_EQ_U64(pace_profile_count(&pr), 3000);
	T_TRUE(pace_profile_add(&pr, 0, 1, 1) != 0);
	T_TRUE(pace_profile_add(&pr, 1000, -1, 1) != 0);
}

static void t_ramp(void)
{
	/* 0 -> 1000 pps over 1 s: Λ(t) = 500 t², 500 frames, frame x due at sqrt(x/500) s */
	static struct pace_profile pr;
	struct pace p;
	struct pace_opts o = { .burst = 1 };
	pace_profile_init(&pr);
	pace_profile_add(&pr, 1000000000ULL, 0, 1000);
	T_EQ_U64(pace_profile_count(&pr), 500);
	T_EQ_U64(pace_profile_time(&pr, 0), 0);
	T_NEAR((double)pace_profile_time(&pr, 125), 500000000.0, 2);
	T_NEAR((double)pace_profile_time(&pr, 499), 1e9 * sqrtl(499.0L / 500), 2);
	T_NEAR((double)pace_profile_frames(&pr, 500000000ULL), 125, 1e-9);
	T_NEAR(pace_profile_rate(&pr, 250000000ULL), 250, 1e-9);
	pace_init_profile(&p, 0, &pr, &o);
	uint64_t d[500];
	T_EQ_U64(simulate(&p, 1100000000ULL, 10000, d, 500), 500);
	for (int i = 1; i < 500; i++)
		T_TRUE(d[i] >= d[i - 1]);        /* gaps shrink as the rate grows */
	T_TRUE(d[2] - d[1] > d[499] - d[498]);
	/* a ramp down 2000 -> 1000 over 2 s: 3000 frames, the last near the end */
	pace_profile_init(&pr);
	pace_profile_add(&pr, 2000000000ULL, 2000, 1000);
	T_EQ_U64(pace_profile_count(&pr), 3000);
	T_NEAR((double)pace_profile_time(&pr, 2999), 2e9 - 1e6, 2e3);   /* last gap ≈ 1 ms */
	/* 2000 τ − 250 τ² = 1: τ = 2 / (2000 + sqrt(2000² − 1000)) s, just over 0.5 ms */
	T_NEAR((double)pace_profile_time(&pr, 1), 2e9 / (2000 + sqrt(2000.0 * 2000 - 1000)), 2);
}

static void t_poisson(void)
{
	/* 100k pps for 10 s of Poisson arrivals: about 1e6 frames, mean gap 10 us, and the
	 * gaps exponential (standard deviation equal to the mean) */
	static struct pace_profile pr;
	struct pace p;
	struct pace_opts o = { .burst = 1, .poisson = 1, .seed = 42 };
	pace_profile_const(&pr, 100000);
	pace_init_profile(&p, 0, &pr, &o);
	uint64_t n = 0, prev = 0, first = pace_next_deadline(&p);
	double s1 = 0, s2 = 0;
	while (n < 1000000) {
		uint64_t d = pace_next_deadline(&p);
		if (n) {
			double g = (double)(d - prev);
			s1 += g;
			s2 += g * g;
		}
		prev = d;
		T_EQ_U64(pace_due(&p, d, 64) >= 1, 1);
		T_EQ_U64(pace_due(&p, d - 1, 64), 0);
		pace_advance(&p, 1);
		n++;
	}
	double mean = s1 / (double)(n - 1), sd = sqrt(s2 / (double)(n - 1) - mean * mean);
	T_NEAR(mean, 10000.0, 50.0);            /* 0.5%: 1e6 samples give ±0.1% (1σ) */
	T_NEAR(sd / mean, 1.0, 0.01);
	T_NEAR((double)(prev - first) / 1e9, 10.0, 0.05);
	/* the same seed gives the same schedule; a ramp is followed too (more frames late) */
	struct pace q;
	pace_init_profile(&q, 0, &pr, &o);
	T_EQ_U64(pace_next_deadline(&q), first);
	pace_profile_init(&pr);
	pace_profile_add(&pr, 2000000000ULL, 0, 20000);     /* 20,000 frames */
	pace_init_profile(&q, 0, &pr, &o);
	uint64_t early = simulate(&q, 1000000000ULL, 100000, NULL, 0);
	uint64_t all = early + simulate(&q, 3000000000ULL, 100000, NULL, 0);
	T_NEAR((double)early, 5000, 300);       /* Λ(1 s) = 5000 */
	T_NEAR((double)all, 20000, 600);
	T_EQ_U64(pace_next_deadline(&q), PACE_NEVER);
}

static void t_split(void)
{
	/* the count split: shares add up to n exactly, bursts stay whole */
	for (uint64_t n = 0; n < 300; n += 7)
		for (uint32_t b = 1; b <= 5; b++)
			for (uint32_t s = 1; s <= 4; s++) {
				uint64_t sum = 0;
				for (uint32_t t = 0; t < s; t++)
					sum += pace_split_count(n, b, s, t);
				T_EQ_U64(sum, n);
			}
	T_EQ_U64(pace_split_count(10, 1, 3, 0), 4);
	T_EQ_U64(pace_split_count(10, 1, 3, 1), 3);
	T_EQ_U64(pace_split_count(10, 4, 2, 0), 6);   /* bursts 0 and 2: 4 + 2 frames */
	T_EQ_U64(pace_split_count(10, 4, 2, 1), 4);

	/* three shares of a schedule together are exactly the one-thread schedule, for a
	 * constant rate, steps with a pause and a ramp, with bursts */
	static struct pace_profile prs[3];
	pace_profile_const(&prs[0], 33333.3);
	pace_profile_init(&prs[1]);
	pace_profile_add(&prs[1], 300000000ULL, 7000, 7000);
	pace_profile_add(&prs[1], 100000000ULL, 0, 0);
	pace_profile_add(&prs[1], 300000000ULL, 13000, 13000);
	pace_profile_init(&prs[2]);
	pace_profile_add(&prs[2], 700000000ULL, 1000, 30000);
	for (int k = 0; k < 3; k++)
		for (uint32_t b = 1; b <= 3; b += 2) {
			enum { N = 12000 };
			static uint64_t one[N], all[N];
			static int cnt[N];
			struct pace p;
			struct pace_opts o = { .burst = b };
			pace_init_profile(&p, 0, &prs[k], &o);
			uint64_t n1 = simulate(&p, 700000000ULL, 1000, one, N);
			uint64_t n3 = 0;
			memset(cnt, 0, sizeof(cnt));
			for (uint32_t t = 0; t < 3; t++) {
				struct pace_opts ot = { .burst = b, .stride = 3, .phase = t };
				pace_init_profile(&p, 0, &prs[k], &ot);
				uint64_t sent = 0;
				for (uint64_t tt = 0; tt < 700000000ULL; tt += 1000) {
					uint32_t d;
					while ((d = pace_due(&p, tt, 64)) > 0) {
						for (uint32_t i = 0; i < d; i++) {
							uint64_t pos = pace_position(&p, p.k + i);
							if (pos < N) {
								all[pos] = pace_deadline_of(&p, p.k + i);
								cnt[pos]++;
							}
						}
						pace_advance(&p, d);
						sent += d;
					}
				}
				n3 += sent;
			}
			T_EQ_U64(n3, n1);
			for (uint64_t i = 0; i < n1 && i < N; i++) {
				T_EQ_U64(cnt[i], 1);          /* every position sent once */
				T_EQ_U64(all[i], one[i]);     /* at the one-thread deadline */
			}
		}
}

static void t_far_behind(void)
{
	/* a sender 10 s behind at 1 Mpps gets full batches, not a rounding surprise */
	struct pace p;
	pace_init(&p, 0, 1e6, 1);
	T_EQ_U64(pace_due(&p, 10000000000ULL, 64), 64);
	pace_advance(&p, 9999990);
	T_EQ_U64(pace_due(&p, 10000000000ULL, 64), 11);   /* frames up to 10 s exactly */
}

/* A sender at 20 kpps (deadlines 50 us apart) on a clock ticking every 10 us for 1 s,
 * --late 100us, whose thread is stopped for 4 ms from 0.5 s (no tick runs then). */
struct stall_run {
	uint64_t sent, skipped, shifted_ns;
	struct pace_track tr;
};

static void stall_sim(enum pace_late pol, uint64_t stall_ns, struct stall_run *r)
{
	const uint64_t start = 1000000, end = start + 1000000000ULL, tick = 10000;
	const uint64_t late = 100000, s0 = start + 500000000ULL;
	struct pace p;
	pace_init(&p, start, 20000, 1);
	*r = (struct stall_run){ 0 };
	pace_track_init(&r->tr, 50000, late);
	for (uint64_t t = start; t < end; t += tick) {
		if (t >= s0 && t < s0 + stall_ns)
			continue;
		uint32_t n;
		for (;;) {     /* as gen.c's worker: the policy, then what is due, in batches */
			n = pace_due(&p, t, 64);
			pace_track_due(&r->tr, t, n ? pace_deadline_of(&p, p.k) : PACE_NEVER);
			if (!n)
				break;
			uint64_t sh;
			uint64_t sk = pace_late_apply(&p, pol, t, t, late, UINT64_MAX, &sh);
			r->skipped += sk;
			r->shifted_ns += sh;
			if (sk || sh)
				continue;
			pace_track_sent(&r->tr, t, n);
			pace_advance(&p, n);
			r->sent += n;
		}
	}
	pace_track_end(&r->tr, end);
}

static void t_track_steady(void)
{
	/* no stall: every frame on its own, never behind, under every policy */
	for (int pol = PACE_LATE_CATCHUP; pol <= PACE_LATE_SHIFT; pol++) {
		struct stall_run r;
		stall_sim((enum pace_late)pol, 0, &r);
		T_EQ_U64(r.sent, 20000);
		T_EQ_U64(r.tr.burst_max, 1);
		T_EQ_U64(r.tr.behind_total_ns, 0);
		T_EQ_U64(r.tr.behind_n, 0);
		T_EQ_U64(r.skipped + r.shifted_ns, 0);
	}
}

static void t_track_catchup(void)
{
	/* the 80 frames due during the stall, and the one due as it ends, go back to back */
	struct stall_run r;
	stall_sim(PACE_LATE_CATCHUP, 4000000, &r);
	T_EQ_U64(r.sent, 20000);
	T_EQ_U64(r.tr.burst_max, 81);
	T_EQ_U64(r.tr.behind_n, 1);
	/* behind from the first frame owed (0.5 s) until caught up (simulated sends take
	 * no time: at 0.504 s) */
	T_EQ_U64(r.tr.behind_max_ns, 4000000);
	T_EQ_U64(r.tr.behind_total_ns, 4000000);
}

static void t_track_skip(void)
{
	/* frames more than 100 us late are left out: 0.5 s .. 0.5039 s, 79 of them; those
	 * due within --late go out, two together at most */
	struct stall_run r;
	stall_sim(PACE_LATE_SKIP, 4000000, &r);
	T_EQ_U64(r.skipped, 79);
	T_EQ_U64(r.sent + r.skipped, 20000);
	T_TRUE(r.tr.burst_max <= 2);
	T_EQ_U64(r.tr.behind_n, 1);
	T_EQ_U64(r.tr.behind_max_ns, 4000000);
	/* a stall shorter than --late is neither skipped nor behind */
	stall_sim(PACE_LATE_SKIP, 60000, &r);
	T_EQ_U64(r.skipped, 0);
	T_EQ_U64(r.tr.behind_n, 0);
	T_EQ_U64(r.tr.burst_max, 2);
}

static void t_track_shift(void)
{
	/* the schedule moves 4 ms later: the gaps stay, the frames of the last 4 ms are
	 * never due */
	struct stall_run r;
	stall_sim(PACE_LATE_SHIFT, 4000000, &r);
	T_EQ_U64(r.shifted_ns, 4000000);
	T_EQ_U64(r.skipped, 0);
	T_EQ_U64(r.sent, 20000 - 80);
	T_EQ_U64(r.tr.burst_max, 1);
	T_EQ_U64(r.tr.behind_n, 1);
	T_EQ_U64(r.tr.behind_max_ns, 4000000);
}

static void t_track_threshold(void)
{
	/* a quarter of the nominal gap joins frames; a batch counts as back to back */
	struct pace_track t;
	pace_track_init(&t, 1000, 0);
	pace_track_sent(&t, 10000, 3);
	pace_track_sent(&t, 10249, 2);      /* 249 ns < 250: the same burst */
	T_EQ_U64(t.burst_max, 5);
	pace_track_sent(&t, 10499, 1);      /* 250 ns: a new one */
	pace_track_sent(&t, 11000, 4);
	T_EQ_U64(t.burst_max, 5);
	T_EQ_U64(t.run, 4);
	/* unpaced: only a hand-over is a burst */
	pace_track_init(&t, 0, 0);
	pace_track_sent(&t, 5, 7);
	pace_track_sent(&t, 5, 7);
	T_EQ_U64(t.burst_max, 7);
}

int main(void)
{
	T_RUN(t_constant);
	T_RUN(t_no_drift);
	T_RUN(t_burst);
	T_RUN(t_max);
	T_RUN(t_steps);
	T_RUN(t_ramp);
	T_RUN(t_poisson);
	T_RUN(t_split);
	T_RUN(t_far_behind);
	T_RUN(t_track_steady);
	T_RUN(t_track_catchup);
	T_RUN(t_track_skip);
	T_RUN(t_track_shift);
	T_RUN(t_track_threshold);
	return t_done();
}
