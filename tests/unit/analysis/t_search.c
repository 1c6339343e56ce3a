/* SPDX-License-Identifier: BSD-2-Clause */
/* t_search.c — the trial methods of ppslab run (search.h) against a simulated device:
 * rx = min(load, capacity) × duration, optionally with a lossy band under capacity,
 * capacity jitter (seeded xorshift), rare glitch losses and overload collapse. Also the
 * RFC 9971 classification and Conditional Throughput against hand-worked examples. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "tap.h"

struct dev {
	double cap;             /* pps */
	double band_lo;         /* loads in [band_lo, cap] lose band_loss (0: no band) */
	double band_loss;
	double jitter;          /* capacity × (1 ± jitter), uniform */
	unsigned glitch_every;  /* every Nth trial under capacity loses glitch_frames */
	uint64_t glitch_frames;
	double collapse;        /* above capacity fr = cap − collapse·(load − cap) */
	uint64_t rng;
	unsigned n_under;
};

static double xorshift_unit(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (double)(*x >> 11) / 9007199254740992.0 * 2 - 1; /* [-1, 1) */
}

static void dev_trial(struct dev *d, double load, double dur, uint64_t *tx, uint64_t *rx)
{
	double cap = d->cap;
	if (d->jitter)
		cap *= 1 + d->jitter * xorshift_unit(&d->rng);
	*tx = (uint64_t)llround(load * dur);
	uint64_t r = *tx;       /* under capacity everything sent arrives */
	if (load > cap) {
		double fr = fmax(0, cap - d->collapse * (load - cap));
		uint64_t max_rx = (uint64_t)floor(fr * dur);
		if (max_rx < r)
			r = max_rx;
	}
	if (d->band_lo && load >= d->band_lo && load <= d->cap)
		r = (uint64_t)floor((double)*tx * (1 - d->band_loss));
	if (d->glitch_every && load <= cap && ++d->n_under % d->glitch_every == 0)
		r = r > d->glitch_frames ? r - d->glitch_frames : 0;
	*rx = r;
}

/* Drives s against d to the end (at most 5000 trials: a runaway search fails the test). */
static int run(struct search *s, struct dev *d, struct search_res *res)
{
	struct search_req r;
	int n = 0;
	while (search_next(s, &r) == 0) {
		if (++n > 5000)
			return -1;
		uint64_t tx, rx;
		dev_trial(d, r.load_pps, r.duration_s, &tx, &rx);
		search_record(s, &r, tx, rx, r.load_pps);
	}
	search_result(s, res);
	return 0;
}

static struct search_cfg cfg_rfc2544(double min, double max)
{
	return (struct search_cfg){ .method = SM_RFC2544, .min_load_pps = min,
				    .max_load_pps = max, .width = 0.005, .duration_s = 60 };
}

/* The "rfc2544"-like goal setting of docs/design/methodology.md#search-goal-settings:
 * init 1 s, final 60 s, sum 60 s, exceed 0 */
static struct search_cfg cfg_mlr60(double min, double max)
{
	return (struct search_cfg){ .method = SM_MLR, .min_load_pps = min, .max_load_pps = max,
				    .width = 0.005, .duration_s = 60, .initial_s = 1,
				    .phases = 2, .duration_sum_s = 60, .exceed_ratio = 0,
				    .pdr_loss = 0.005 };
}

/* The "quick" (CSIT-like) goal setting: 1 s trials, sum 21 s, exceed 0.5 */
static struct search_cfg cfg_quick(double min, double max)
{
	return (struct search_cfg){ .method = SM_MLR, .min_load_pps = min, .max_load_pps = max,
				    .width = 0.005, .duration_s = 1, .initial_s = 1,
				    .phases = 2, .duration_sum_s = 21, .exceed_ratio = 0.5,
				    .pdr_loss = 0.005 };
}

static double full_seconds(const struct search *s, double final_s)
{
	const struct search_trial *t;
	size_t n = search_trials(s, &t);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		if (t[i].duration_s >= final_s)
			sum += t[i].duration_s;
	return sum;
}

static void t_loss(void)
{
	T_NEAR(search_loss(1000, 1000), 0, 0);
	T_NEAR(search_loss(1000, 995), 0.005, 1e-15);
	T_NEAR(search_loss(1000, 1200), 0, 0);  /* negative loss counts as 0 */
	T_NEAR(search_loss(0, 0), 1, 0);        /* nothing sent: loss 1 */
	T_NEAR(search_loss(1000, 0), 1, 0);
}

/* Hand-worked with the formula of docs/design/methodology.md#load-classification
 * (full_lo, full_hi, short_lo, short_hi, exceed, sum). */
static void t_classify(void)
{
	/* exceed 0: one lossy 1-s short trial: eff_hi 1 > q 0 → UPPER (the time saver) */
	T_EQ_INT(search_classify(0, 0, 0, 1, 0, 60), SC_UPPER);
	/* exceed 0: short zero-loss trials: optimistic (0 ≤ 0), not pessimistic (60 ≤ 0) */
	T_EQ_INT(search_classify(0, 0, 10, 0, 0, 60), SC_UNDECIDED);
	T_EQ_INT(search_classify(60, 0, 0, 0, 0, 60), SC_LOWER);
	T_EQ_INT(search_classify(30, 0, 0, 0, 0, 60), SC_UNDECIDED);
	T_EQ_INT(search_classify(59, 1, 0, 0, 0, 60), SC_UPPER);
	/* exceed 0.5, sum 21: 11 lo + 10 hi → whole 21, q 10.5: 10 ≤ 10.5 and 10 ≤ 10.5 */
	T_EQ_INT(search_classify(11, 10, 0, 0, 0.5, 21), SC_LOWER);
	T_EQ_INT(search_classify(10, 11, 0, 0, 0.5, 21), SC_UPPER);
	/* 5 + 5: optimistic 5 ≤ 10.5, pessimistic 21 − 5 = 16 > 10.5 */
	T_EQ_INT(search_classify(5, 5, 0, 0, 0.5, 21), SC_UNDECIDED);
	/* short trials count only in excess (coef 1): 3 hi − 2 lo = 1 → eff_hi 11 > 10.5 */
	T_EQ_INT(search_classify(10, 10, 2, 3, 0.5, 21), SC_UPPER);
	/* 3 hi − 3 lo = 0 → eff_hi 10 ≤ 10.5, but whole − full_lo = 11 > 10.5 */
	T_EQ_INT(search_classify(10, 10, 3, 3, 0.5, 21), SC_UNDECIDED);
	/* short lo beyond the excess adds nothing: still not a lower bound */
	T_EQ_INT(search_classify(10, 10, 30, 0, 0.5, 21), SC_UNDECIDED);
	/* exceed 0.25 (coef 1/3), sum 4: pos_excess = 2 − 3/3 = 1, whole 4, q 1: both equal
	 * their limits (≤) → LOWER; without the short lo, pos_excess 2 → eff_hi 2 > q 1.25 */
	T_EQ_INT(search_classify(3, 0, 3, 2, 0.25, 4), SC_LOWER);
	T_EQ_INT(search_classify(3, 0, 0, 2, 0.25, 4), SC_UPPER);
	/* whole is at least the sum: 2 s of full lo with sum 4 and exceed .25 → undecided */
	T_EQ_INT(search_classify(2, 0, 0, 0, 0.25, 4), SC_UNDECIDED);
}

static struct search_trial trial(double load, double dur, double loss)
{
	return (struct search_trial){ .load_pps = load, .duration_s = dur, .loss_ratio = loss };
}

static void t_ct(void)
{
	/* exceed 0.5, sum 21: 21 one-second trials at 1000 pps, 10 with loss 0, 5 with
	 * 0.001, 6 with 0.01, shuffled, plus a short and another load's trial (ignored).
	 * rem = 21·0.5 = 10.5; the ten zero-loss trials leave 0.5, the 11th (0.001) takes
	 * it below 0 → loss 0.001, CT = 999. */
	struct search_trial t[23];
	size_t n = 0;
	for (int i = 0; i < 21; i++)
		t[n++] = trial(1000, 1, i % 2 ? 0 : (i % 4 == 0 ? 0.01 : 0.001));
	/* i even: 11 trials: i%4==0 → 6 of 0.01, i%4==2 → 5 of 0.001; i odd: 10 of 0 */
	t[n++] = trial(1000, 0.5, 0.5);
	t[n++] = trial(2000, 1, 0);
	T_NEAR(search_ct(1000, t, n, 1, 21, 0.5), 999, 1e-9);
	/* the exceed 0.5 quantile with one more zero-loss trial: 22 s, rem 11 → 11 zero
	 * trials exactly exhaust it → loss 0 */
	t[21] = trial(1000, 1, 0);
	T_NEAR(search_ct(1000, t, 22, 1, 21, 0.5), 1000, 1e-9);
	/* exceed 0, sum 60: one 60-s trial with loss 0.002 → CT = 998 */
	struct search_trial u[2] = { trial(1000, 60, 0.002), trial(1000, 1, 0) };
	T_NEAR(search_ct(1000, u, 2, 60, 60, 0), 998, 1e-9);
	/* the list runs out: 30 s of full-length trials against sum 60 → loss 1, CT 0 */
	struct search_trial v[1] = { trial(1000, 30, 0) };
	T_NEAR(search_ct(1000, v, 1, 30, 60, 0), 0, 0);
	/* no trials at that load */
	T_NEAR(search_ct(500, v, 1, 30, 60, 0), 0, 0);
}

static void t_cfg_check(void)
{
	char err[160];
	struct search_cfg c = cfg_mlr60(1000, 1e6);
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), 0);
	c.width = 0;
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "width") != NULL);
	c = cfg_mlr60(1000, 1e6);
	c.max_load_pps = 500;
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "max_load_pps") != NULL);
	c = cfg_mlr60(1000, 1e6);
	c.exceed_ratio = 1;
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "exceed_ratio") != NULL);
	c = cfg_mlr60(1000, 1e6);
	c.initial_s = 120;
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "initial_s") != NULL);
	c = cfg_mlr60(1000, 1e6);
	c.duration_sum_s = 30;
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "duration_sum_s") != NULL);
	c = (struct search_cfg){ .method = SM_FIXED, .load_pps = 0, .duration_s = 1 };
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "load_pps") != NULL);
	errno = 0;
	T_TRUE(search_new(&c) == NULL);
	T_EQ_INT(errno, EINVAL);
	double lad[] = { 1000, NAN };
	c = (struct search_cfg){ .method = SM_LADDER, .ladder = lad, .nladder = 2,
				 .duration_s = 1 };
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "ladder load 2") != NULL);
	c.duration_s = -1;
	T_EQ_INT(search_cfg_check(&c, NULL, 0), -EINVAL);
}

static void t_fixed(void)
{
	struct search_cfg c = { .method = SM_FIXED, .load_pps = 1.5e6, .duration_s = 2 };
	struct search *s = search_new(&c);
	T_TRUE(s != NULL);
	if (!s)
		return;
	struct search_req r, r2;
	T_EQ_INT(search_next(s, &r), 0);
	T_NEAR(r.load_pps, 1.5e6, 0);
	T_NEAR(r.duration_s, 2, 0);
	T_STREQ(r.why, "fixed");
	/* asked again before recording: the same request */
	T_EQ_INT(search_next(s, &r2), 0);
	T_NEAR(r2.load_pps, r.load_pps, 0);
	/* the sender under-delivered: 1.4 Mpps offered, 1 Mpps forwarded */
	search_record(s, &r, 2800000, 2000000, 1.4e6);
	T_EQ_INT(search_next(s, &r), 1);
	T_EQ_INT(search_next(s, &r), 1);
	struct search_res res;
	search_result(s, &res);
	T_EQ_U64(res.ntrials, 1);
	T_NEAR(res.trial_s, 2, 0);
	T_NEAR(res.mfr_pps, 1e6, 1e-6);
	T_NEAR(res.mfr_load_pps, 1.4e6, 0);
	T_EQ_U64(res.ngoals, 0);
	search_free(s);
}

static void t_rfc2544_converges(void)
{
	double C = 987654, min = 1000, max = 1488095;
	struct search_cfg c = cfg_rfc2544(min, max);
	struct search *s = search_new(&c);
	struct dev d = { .cap = C };
	struct search_res res;
	T_EQ_INT(run(s, &d, &res), 0);
	struct search_goal_res *g = &res.goal[0];
	T_EQ_U64(res.ngoals, 1);
	T_STREQ(g->name, "NDR");
	T_TRUE(g->regular);
	T_TRUE(g->irregular == NULL);
	T_TRUE(g->rlb_pps <= C && C < g->rub_pps);
	T_TRUE((g->rub_pps - g->rlb_pps) / g->rub_pps <= c.width);
	T_NEAR(g->ct_pps, g->rlb_pps, 0);
	T_NEAR(res.mrr_pps, C, 1e-6);
	/* the max trial, the one at its forwarding rate, then bisection of [C, max]: at most
	 * ceil(log2((max − C)/(width·C))) halvings */
	size_t bound = 2 + (size_t)ceil(log2((max - C) / (c.width * C)));
	T_TRUE(res.ntrials <= bound);
	T_TRUE(res.ntrials >= bound - 2);
	T_NEAR(res.trial_s, 60.0 * res.ntrials, 1e-9);
	const struct search_trial *t;
	T_EQ_U64(search_trials(s, &t), res.ntrials);
	T_STREQ(t[0].why, "max");
	T_NEAR(t[0].load_pps, max, 0);
	search_free(s);

	/* a device that loses a little at its own forwarding rate: the bisection starts at
	 * FRMOL, so it needs ≈ log2((FRMOL − min)/(width·C)) trials */
	d = (struct dev){ .cap = C, .band_lo = 0.9 * C, .band_loss = 0.001 };
	s = search_new(&c);
	T_EQ_INT(run(s, &d, &res), 0);
	T_TRUE(res.goal[0].regular);
	T_TRUE(res.goal[0].rlb_pps < 0.9 * C && 0.9 * C <= res.goal[0].rub_pps);
	bound = 2 + (size_t)ceil(log2((C - min) / (c.width * 0.9 * C)));
	T_TRUE(res.ntrials <= bound);
	search_free(s);
}

static void t_mlr_ndr_pdr(void)
{
	/* loses 0.3 % at loads in [0.98 C, C] and (L − C)/L above: NDR = 0.98 C, PDR
	 * (0.5 %) = C/0.995 */
	double C = 1e6, ndr = 0.98 * C, pdr = C / 0.995;
	struct search_cfg cfgs[2] = { cfg_mlr60(1000, 1488095), cfg_quick(1000, 1488095) };
	for (int k = 0; k < 2; k++) {
		struct search *s = search_new(&cfgs[k]);
		struct dev d = { .cap = C, .band_lo = ndr, .band_loss = 0.003 };
		struct search_res res;
		T_EQ_INT(run(s, &d, &res), 0);
		T_EQ_U64(res.ngoals, 2);
		struct search_goal_res *n = &res.goal[0], *p = &res.goal[1];
		T_STREQ(n->name, "NDR");
		T_STREQ(p->name, "PDR");
		T_NEAR(p->loss_ratio, 0.005, 0);
		T_TRUE(n->regular && p->regular);
		T_TRUE(n->rlb_pps < ndr && ndr <= n->rub_pps);
		T_TRUE((n->rub_pps - n->rlb_pps) / n->rub_pps <= 0.005);
		T_TRUE(p->rlb_pps <= pdr + 1 && pdr - 1 < p->rub_pps);
		T_TRUE((p->rub_pps - p->rlb_pps) / p->rub_pps <= 0.005);
		T_TRUE(p->rlb_pps > n->rub_pps);
		/* CT: NDR's RLB forwards everything; PDR's RLB loses (rlb − C)/rlb */
		T_NEAR(n->ct_pps, n->rlb_pps, 0);
		T_TRUE(p->ct_pps <= p->rlb_pps && p->ct_pps >= C - 1);
		T_NEAR(res.mrr_pps, C, 1e-6);
		T_TRUE(!res.gave_up);
		search_free(s);
	}
}

/* MLR-lite spends its full-length seconds only near the answer: the final phase starts
 * from an interval 2·width wide that the earlier (short) phases found, refines its two
 * ends and bisects once or twice, so at most 4 full-length trials for NDR + PDR, while
 * RFC 2544 bisection runs every one of its ≥ log2((max − C)/(width·C)) trials full-length.
 * Draft-00 claims > 50 % saved in well-behaved cases: the whole MLR search (both goals,
 * short trials included) must cost under half the binary search's seconds. */
static void t_mlr_cheaper(void)
{
	double C = 987654, min = 1000, max = 1488095;
	struct dev d = { .cap = C };
	struct search_cfg c2544 = cfg_rfc2544(min, max), cmlr = cfg_mlr60(min, max);
	struct search *a = search_new(&c2544), *b = search_new(&cmlr);
	struct search_res ra, rb;
	T_EQ_INT(run(a, &d, &ra), 0);
	T_EQ_INT(run(b, &d, &rb), 0);
	T_TRUE(ra.goal[0].regular && rb.goal[0].regular && rb.goal[1].regular);
	double full_a = full_seconds(a, 60), full_b = full_seconds(b, 60);
	T_TRUE(full_a >= 60 * log2((max - C) / (c2544.width * C)));
	T_TRUE(full_b <= 4 * 60);
	T_TRUE(full_b < full_a);
	T_TRUE(rb.trial_s < ra.trial_s / 2);
	/* both agree on the answer */
	T_TRUE(rb.goal[0].rlb_pps <= C && C < rb.goal[0].rub_pps);
	search_free(a);
	search_free(b);
}

/* Replies scripted by hand (loss or not) and the loads MLR-lite must ask for, computed
 * from docs/design/methodology.md#mlr-lite-search: one phase (P = 0) of 1-s trials
 * deciding a load with one trial, exceed 0, width 1 %. */
static void t_mlr_steps(void)
{
	struct search_cfg c = { .method = SM_MLR, .min_load_pps = 1000, .max_load_pps = 1e6,
				.width = 0.01, .duration_s = 1, .initial_s = 1, .phases = 0,
				.duration_sum_s = 1, .exceed_ratio = 0, .pdr_loss = 0.005 };
	struct search *s = search_new(&c);
	struct search_req r;
	/* each step: expected load, why, then the reply: lossy (2 %) or not */
	struct {
		double load;
		const char *why;
		int lossy;
	} step[] = {
		{ 1e6, "max", 1 },                      /* forwards 98 % → fr0 = 980000 */
		{ 980000, "mrr rate", 1 },
		/* both goals: RUB 980000, no RLB → 980000·(1 − 0.01) (NDR proposes first) */
		{ 970200, "p0/0 NDR extend down", 1 },
		{ 0, NULL, 0 },                         /* placeholder, filled below */
		{ 0, NULL, 0 },
		{ 0, NULL, 0 },
		{ 0, NULL, 0 },
	};
	/* second step down: e = 0.01·4 from the new RUB */
	step[3].load = round(970200 * (1 - 0.04));
	step[3].why = "p0/0 NDR extend down";
	step[3].lossy = 0;
	/* RLB 931392, RUB 970200 (4 % wide): external search up from the RLB,
	 * 931392·1.01 = 940706 < sqrt(RLB·RUB) = 950597 */
	step[4].load = round(step[3].load * 1.01);
	step[4].why = "p0/0 NDR extend up";
	step[4].lossy = 0;
	/* next step up, 940706·1.04, passes sqrt(940706·970200): geometric bisection */
	step[5].load = round(sqrt(step[4].load * 970200));
	step[5].why = "p0/0 NDR bisect";
	step[5].lossy = 1;
	/* RLB 940706, RUB 955339: 1.5 % > 1 %: bisect again */
	step[6].load = round(sqrt(step[4].load * step[5].load));
	step[6].why = "p0/0 NDR bisect";
	step[6].lossy = 0;
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		if (search_next(s, &r) != 0) {
			T_FAIL("step %zu: search ended early", i);
			break;
		}
		T_NEAR(r.load_pps, step[i].load, 0);
		T_STREQ(r.why, step[i].why);
		T_NEAR(r.duration_s, 1, 0);
		uint64_t tx = (uint64_t)r.load_pps;
		search_record(s, &r, tx, step[i].lossy ? tx - tx / 50 : tx, r.load_pps);
	}
	/* NDR: RLB 948004, RUB 955339: 0.77 % ≤ 1 %; PDR (0.5 %) shares them: done */
	T_EQ_INT(search_next(s, &r), 1);
	struct search_res res;
	search_result(s, &res);
	T_TRUE(res.goal[0].regular && res.goal[1].regular);
	T_NEAR(res.goal[0].rlb_pps, step[6].load, 0);
	T_NEAR(res.goal[0].rub_pps, step[5].load, 0);
	T_NEAR(res.goal[1].rlb_pps, step[6].load, 0);
	search_free(s);

	/* two phases (P = 1): phase 0 (1-s trials, width 2 %) stops at bounds 2 % apart;
	 * phase 1 (4-s trials, 1 %) re-measures the short-only RLB and narrows the rest */
	c.phases = 1;
	c.duration_s = 4;
	c.duration_sum_s = 4;
	s = search_new(&c);
	struct {
		double load, dur;
		const char *why;
		int lossy;
	} st2[] = {
		{ 1e6, 1, "max", 1 },
		{ 980000, 1, "mrr rate", 0 },   /* (980000 − 1e6)/1e6 = 2 % ≤ 2 %: phase done */
		/* 980000 has only a short lossless trial now (undecided); 1e6's short loss
		 * still makes it an upper bound with exceed 0 */
		{ 980000, 4, "p1/1 NDR refine", 0 },
		/* 2 % > 1 %: 980000·1.01 = 989800 < sqrt(980000·1e6) = 989949 */
		{ 989800, 4, "p1/1 NDR extend up", 1 },
	};
	for (size_t i = 0; i < sizeof(st2) / sizeof(st2[0]); i++) {
		if (search_next(s, &r) != 0) {
			T_FAIL("two phases, step %zu: search ended early", i);
			break;
		}
		T_NEAR(r.load_pps, st2[i].load, 0);
		T_NEAR(r.duration_s, st2[i].dur, 0);
		T_STREQ(r.why, st2[i].why);
		uint64_t tx = (uint64_t)(r.load_pps * r.duration_s);
		search_record(s, &r, tx, st2[i].lossy ? tx - tx / 50 : tx, r.load_pps);
	}
	/* (989800 − 980000)/989800 = 0.99 % ≤ 1 % */
	T_EQ_INT(search_next(s, &r), 1);
	search_result(s, &res);
	T_TRUE(res.goal[0].regular);
	T_NEAR(res.goal[0].rlb_pps, 980000, 0);
	T_NEAR(res.goal[0].rub_pps, 989800, 0);
	T_NEAR(res.trial_s, 10, 1e-12);
	search_free(s);
}

static void t_mlr_noise(void)
{
	/* ±0.3 % capacity jitter: any lossy trial saw capacity ≥ C·0.997 and any clean one
	 * ≤ C·1.003, so the bounds can only land in that band (± rounding) */
	double C = 765432;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct search_cfg c = cfg_mlr60(1000, 1488095);
		struct search *s = search_new(&c);
		struct dev d = { .cap = C, .jitter = 0.003, .rng = seed * 0x9E3779B97F4A7C15ull };
		struct search_res res;
		T_EQ_INT(run(s, &d, &res), 0);
		struct search_goal_res *n = &res.goal[0];
		T_TRUE(n->regular);
		T_TRUE(n->rub_pps >= C * 0.997 - 1);
		T_TRUE(n->rlb_pps <= C * 1.003 + 1);
		search_free(s);
	}
}

static void t_mlr_glitches(void)
{
	/* every 4th trial at or under capacity loses 3 frames. With exceed 0.5 and sum 21 s
	 * (the quick profile) a load is a lower bound while at most half of its 1-s trials
	 * are lossy: NDR still lands at capacity. With exceed 0 a single glitch makes its
	 * load an upper bound and a lower bound needs 21 clean seconds in a row, which this
	 * device never gives: every load down to min is an upper bound. */
	double C = 500000;
	struct search_cfg c = cfg_quick(1000, 744047);
	struct search *s = search_new(&c);
	struct dev d = { .cap = C, .glitch_every = 4, .glitch_frames = 3 };
	struct search_res res;
	T_EQ_INT(run(s, &d, &res), 0);
	T_TRUE(res.goal[0].regular);
	T_TRUE(res.goal[0].rlb_pps <= C && C < res.goal[0].rub_pps);
	search_free(s);

	c.exceed_ratio = 0;
	s = search_new(&c);
	d = (struct dev){ .cap = C, .glitch_every = 4, .glitch_frames = 3 };
	T_EQ_INT(run(s, &d, &res), 0);
	T_TRUE(!res.goal[0].regular);
	T_STREQ(res.goal[0].irregular, "min load is an upper bound");
	T_NEAR(res.goal[0].rub_pps, c.min_load_pps, 0);
	/* PDR (0.5 %) ignores 3 lost frames in 500k either way */
	T_TRUE(res.goal[1].rlb_pps >= C);
	search_free(s);
}

static void t_irregular_fast_device(void)
{
	/* the device outruns max load: max is only a lower bound */
	double max = 100000;
	struct dev d = { .cap = 2 * max };
	struct search_cfg c = cfg_rfc2544(1000, max);
	struct search *s = search_new(&c);
	struct search_res res;
	T_EQ_INT(run(s, &d, &res), 0);
	T_EQ_U64(res.ntrials, 1);
	T_TRUE(!res.goal[0].regular);
	T_STREQ(res.goal[0].irregular, "max load is a lower bound");
	T_NEAR(res.goal[0].rlb_pps, max, 0);
	T_NEAR(res.goal[0].rub_pps, 0, 0);
	search_free(s);

	c = cfg_mlr60(1000, max);
	s = search_new(&c);
	T_EQ_INT(run(s, &d, &res), 0);
	for (int i = 0; i < 2; i++) {
		T_TRUE(!res.goal[i].regular);
		T_STREQ(res.goal[i].irregular, "max load is a lower bound");
		T_NEAR(res.goal[i].rlb_pps, max, 0);
		T_NEAR(res.goal[i].ct_pps, max, 0);
	}
	/* max measured once per phase and nothing else: 1 s, dur_1 ≈ 7.75 s, 60 s */
	T_EQ_U64(res.ntrials, 3);
	T_NEAR(full_seconds(s, 60), 60, 0);
	search_free(s);
}

static void t_irregular_slow_device(void)
{
	/* loses even at min load: min is an upper bound, no lower bound */
	double min = 1000;
	struct dev d = { .cap = 500 };
	struct search_cfg c = cfg_rfc2544(min, 100000);
	struct search *s = search_new(&c);
	struct search_res res;
	T_EQ_INT(run(s, &d, &res), 0);
	T_TRUE(!res.goal[0].regular);
	T_STREQ(res.goal[0].irregular, "min load is an upper bound");
	T_NEAR(res.goal[0].rub_pps, min, 0);
	T_NEAR(res.goal[0].rlb_pps, 0, 0);
	T_NEAR(res.goal[0].ct_pps, 0, 0);
	T_EQ_U64(res.ntrials, 2);       /* max, then its forwarding rate clamped to min */
	search_free(s);

	c = cfg_mlr60(min, 100000);
	s = search_new(&c);
	T_EQ_INT(run(s, &d, &res), 0);
	for (int i = 0; i < 2; i++) {
		T_TRUE(!res.goal[i].regular);
		T_STREQ(res.goal[i].irregular, "min load is an upper bound");
		T_NEAR(res.goal[i].rub_pps, min, 0);
		T_NEAR(res.goal[i].rlb_pps, 0, 0);
	}
	search_free(s);
}

static void t_max_trials(void)
{
	struct dev d = { .cap = 987654 };
	struct search_res res;
	struct search_req r;
	struct search_cfg cs[3] = { cfg_rfc2544(1000, 1488095), cfg_mlr60(1000, 1488095),
				    { .method = SM_LADDER, .max_load_pps = 1e6, .duration_s = 1 } };
	for (int k = 0; k < 3; k++) {
		cs[k].max_trials = 4;
		struct search *s = search_new(&cs[k]);
		T_EQ_INT(run(s, &d, &res), 0);
		T_EQ_U64(res.ntrials, 4);
		T_TRUE(res.gave_up);
		for (size_t i = 0; i < res.ngoals; i++) {
			T_TRUE(!res.goal[i].regular);
			T_STREQ(res.goal[i].irregular, "max_trials reached");
		}
		T_EQ_INT(search_next(s, &r), 1);
		search_free(s);
	}
	/* a search that finishes within its limit has not given up */
	struct search_cfg c = cfg_rfc2544(1000, 1488095);
	c.max_trials = 40;
	struct search *s = search_new(&c);
	T_EQ_INT(run(s, &d, &res), 0);
	T_TRUE(!res.gave_up && res.goal[0].regular);
	search_free(s);
}

static void t_ladder(void)
{
	/* the default ladder: 10 % .. 100 % of max, ascending */
	struct search_cfg c = { .method = SM_LADDER, .max_load_pps = 1e6, .duration_s = 2 };
	struct search *s = search_new(&c);
	struct dev d = { .cap = 550000, .collapse = 0.5 };
	struct search_res res;
	T_EQ_INT(run(s, &d, &res), 0);
	const struct search_trial *t;
	T_EQ_U64(search_trials(s, &t), 10);
	for (int i = 0; i < 10; i++)
		T_NEAR(t[i].load_pps, 1e5 * (i + 1), 0);
	T_STREQ(t[2].why, "ladder 3/10");
	/* collapse above capacity (fr = 550k − (load − 550k)/2): 500k → 500k, 600k → 525k,
	 * 700k → 475k .. 1M → 325k: the MFR is 525k, at 600k */
	T_NEAR(res.mfr_pps, 525000, 1e-6);
	T_NEAR(res.mfr_load_pps, 600000, 0);
	T_NEAR(t[4].fwd_pps, 500000, 1e-6);
	T_NEAR(t[9].fwd_pps, 325000, 1e-6);
	search_free(s);

	/* a given ladder is copied and sorted */
	double lad[] = { 300000, 100000.4, 200000 };
	c = (struct search_cfg){ .method = SM_LADDER, .ladder = lad, .nladder = 3,
				 .duration_s = 1 };
	s = search_new(&c);
	lad[0] = 1;
	d = (struct dev){ .cap = 250000 };
	T_EQ_INT(run(s, &d, &res), 0);
	T_EQ_U64(search_trials(s, &t), 3);
	T_NEAR(t[0].load_pps, 100000, 0);
	T_NEAR(t[1].load_pps, 200000, 0);
	T_NEAR(t[2].load_pps, 300000, 0);
	T_NEAR(res.mfr_pps, 250000, 1e-6);
	T_NEAR(res.mfr_load_pps, 300000, 0);
	search_free(s);

	/* a flat top: the MFR is reported at the lowest load that reached it */
	lad[0] = 300000;
	d = (struct dev){ .cap = 150000 };
	s = search_new(&c);
	T_EQ_INT(run(s, &d, &res), 0);
	T_NEAR(res.mfr_pps, 150000, 1e-6);
	T_NEAR(res.mfr_load_pps, 200000, 0);
	search_free(s);
}

/* A policer of capacity C behind a sender that stalls on every spoil_every-th trial
 * (0: never) and then catches up with a burst the policer drops (1 % of the
 * frames). The runner's check sees the burst: with `repeat` the trial is declared
 * invalid (search_invalid), without it recorded as it came. */
static int run_stalls(struct search *s, double C, unsigned spoil_every, int repeat,
		      struct search_res *res)
{
	struct dev d = { .cap = C };
	struct search_req r;
	unsigned n = 0;
	while (search_next(s, &r) == 0) {
		if (++n > 5000)
			return -1;
		uint64_t tx, rx;
		dev_trial(&d, r.load_pps, r.duration_s, &tx, &rx);
		if (spoil_every && n % spoil_every == 0) {
			rx = rx - rx / 100;
			if (repeat) {
				search_invalid(s);
				continue;
			}
		}
		search_record(s, &r, tx, rx, r.load_pps);
	}
	search_result(s, res);
	return 0;
}

static void t_invalid_repeated(void)
{
	double C = 20000, min = 1000, max = 40000;
	for (int m = 0; m < 2; m++) {
		/* mlr with exceed_ratio 0: one lossy trial makes an upper bound */
		struct search_cfg c = m ? cfg_quick(min, max) : cfg_rfc2544(min, max);
		c.duration_s = 1;
		c.duration_sum_s = 1;
		c.exceed_ratio = 0;
		c.repeat_invalid = 3;
		struct search_res res;
		/* every second trial spoiled, and repeated: the answer is the device's */
		struct search *s = search_new(&c);
		T_EQ_INT(run_stalls(s, C, 2, 1, &res), 0);
		T_TRUE(res.goal[0].regular);
		T_TRUE(res.goal[0].rlb_pps <= C && C < res.goal[0].rub_pps);
		T_TRUE(res.goal[0].rlb_pps >= C * (1 - 2 * c.width));
		T_TRUE(res.repeated > 0);
		T_EQ_INT(res.spoiled, 0);
		/* every trial recorded has its own load: none of the repeated ones is there */
		const struct search_trial *t;
		size_t nt = search_trials(s, &t);
		T_EQ_U64(nt, res.ntrials);
		T_EQ_U64((uint64_t)((nt + res.repeated) / 2), (uint64_t)res.repeated);
		search_free(s);
		/* the same stalls counted as the router's loss: the answer is wrong (a load the
		 * device forwards entirely becomes an upper bound) */
		s = search_new(&c);
		T_EQ_INT(run_stalls(s, C, 2, 0, &res), 0);
		T_TRUE(res.goal[0].rub_pps > 0 && res.goal[0].rub_pps < C);
		T_EQ_U64(res.repeated, 0);
		search_free(s);
	}
}

static void t_invalid_spoiled(void)
{
	/* every trial spoiled: the first load is asked 1 + repeat_invalid times, then the
	 * search ends, spoiled, every goal irregular */
	struct search_cfg c = cfg_quick(1000, 40000);
	c.repeat_invalid = 2;
	struct search *s = search_new(&c);
	struct search_res res;
	struct search_req r;
	double first = 0;
	unsigned asked = 0;
	while (search_next(s, &r) == 0) {
		if (!first)
			first = r.load_pps;
		T_NEAR(r.load_pps, first, 0);
		if (++asked > 10)
			break;
		search_invalid(s);
	}
	T_EQ_INT((int)asked, 3);
	search_result(s, &res);
	T_EQ_INT(res.spoiled, 1);
	T_EQ_U64(res.repeated, 2);
	T_EQ_U64(res.ntrials, 0);
	for (size_t g = 0; g < res.ngoals; g++) {
		T_EQ_INT(res.goal[g].regular, 0);
		T_STREQ(res.goal[g].irregular, "a trial's offered load stayed invalid");
	}
	T_EQ_INT(search_next(s, &r), 1);
	/* nothing pending: ignored */
	T_EQ_INT(search_invalid(s), 0);
	search_free(s);
	/* repeat_invalid 0: the first invalid trial ends it */
	c.repeat_invalid = 0;
	s = search_new(&c);
	T_EQ_INT(search_next(s, &r), 0);
	T_EQ_INT(search_invalid(s), 1);
	T_EQ_INT(search_next(s, &r), 1);
	search_free(s);
}

/* Explicit goals equal to the default NDR and PDR give the very same search: the default
 * is those two goals, not a second algorithm. */
static void t_goals_default_same(void)
{
	struct search_cfg a = cfg_quick(10000, 1e6), b = a;
	b.ngoals = 2;
	b.goals[0] = (struct search_goal_cfg){ .name = "NDR", .loss_ratio = 0, .exceed_ratio = 0.5,
					       .final_s = 1, .duration_sum_s = 21, .width = 0.005 };
	b.goals[1] = b.goals[0];
	snprintf(b.goals[1].name, sizeof(b.goals[1].name), "PDR");
	b.goals[1].loss_ratio = 0.005;
	struct dev da = { .cap = 400000, .band_lo = 380000, .band_loss = 0.002, .jitter = 0.01,
			  .rng = 7 }, db = da;
	struct search *sa = search_new(&a), *sb = search_new(&b);
	struct search_res ra, rb;
	T_EQ_INT(run(sa, &da, &ra), 0);
	T_EQ_INT(run(sb, &db, &rb), 0);
	const struct search_trial *ta, *tb;
	size_t na = search_trials(sa, &ta), nb = search_trials(sb, &tb);
	T_EQ_U64(na, nb);
	for (size_t i = 0; i < na && i < nb; i++) {
		T_NEAR(ta[i].load_pps, tb[i].load_pps, 0);
		T_NEAR(ta[i].duration_s, tb[i].duration_s, 0);
		T_STREQ(ta[i].why, tb[i].why);
	}
	T_EQ_U64(ra.ngoals, 2);
	T_EQ_U64(rb.ngoals, 2);
	for (size_t g = 0; g < 2; g++) {
		T_STREQ(ra.goal[g].name, rb.goal[g].name);
		T_NEAR(ra.goal[g].ct_pps, rb.goal[g].ct_pps, 0);
		T_NEAR(ra.goal[g].final_s, 1, 0);
		T_NEAR(ra.goal[g].duration_sum_s, 21, 0);
	}
	search_free(sa);
	search_free(sb);
}

/* A forwarder that polls: up to `knee` pps every frame leaves within the bound; above
 * it frames queue, and the share (1 − knee/load) of them waits longer than the bound
 * (ppslab-rut in poll mode past pollhz × burst_max). Loss as dev_trial. */
static int run_late(struct search *s, struct dev *d, double knee, struct search_res *res)
{
	struct search_req r;
	int n = 0;
	const struct search_goal_cfg *gc;
	size_t ng = search_goals(s, &gc);
	while (search_next(s, &r) == 0) {
		if (++n > 5000)
			return -1;
		uint64_t tx, rx, late[SEARCH_MAX_GOALS] = { 0 };
		dev_trial(d, r.load_pps, r.duration_s, &tx, &rx);
		for (size_t g = 0; g < ng; g++)
			if (gc[g].latency_ns > 0 && r.load_pps > knee)
				late[g] = (uint64_t)floor((double)rx * (1 - knee / r.load_pps));
		search_record_late(s, &r, tx, rx, r.load_pps, late);
	}
	search_result(s, res);
	return 0;
}

/* Three goals with different loss ratios, exceed ratios, final durations, duration sums
 * and widths, one of them latency-bounded, from one set of trials. */
static void t_goals_three(void)
{
	const double C = 500000, band = 450000, knee = 300000;
	struct search_cfg c = { .method = SM_MLR, .min_load_pps = 10000, .max_load_pps = 1e6,
				.duration_s = 2, .initial_s = 0.5, .phases = 2, .max_trials = 200 };
	c.ngoals = 3;
	c.goals[0] = (struct search_goal_cfg){ .name = "NDR", .loss_ratio = 0, .exceed_ratio = 0,
					       .final_s = 1, .duration_sum_s = 1, .width = 0.005 };
	c.goals[1] = (struct search_goal_cfg){ .name = "PDR", .loss_ratio = 0.005,
					       .exceed_ratio = 0.5, .final_s = 2,
					       .duration_sum_s = 4, .width = 0.01 };
	c.goals[2] = (struct search_goal_cfg){ .name = "LAT", .loss_ratio = 0.001,
					       .exceed_ratio = 0, .final_s = 1,
					       .duration_sum_s = 2, .width = 0.002,
					       .latency_ns = 100000 };
	T_EQ_INT(search_cfg_check(&c, NULL, 0), 0);
	struct dev d = { .cap = C, .band_lo = band, .band_loss = 0.002, .rng = 3 };
	struct search *s = search_new(&c);
	struct search_res res;
	T_EQ_INT(run_late(s, &d, knee, &res), 0);
	T_EQ_U64(res.ngoals, 3);
	for (size_t g = 0; g < 3; g++)
		if (!res.goal[g].regular)
			T_FAIL("goal %s irregular: %s", res.goal[g].name, res.goal[g].irregular);
	/* NDR: the lossy band starts at 450000; its width is 0.5 % */
	T_TRUE(res.goal[0].rlb_pps < band && band <= res.goal[0].rub_pps);
	T_TRUE((res.goal[0].rub_pps - res.goal[0].rlb_pps) / res.goal[0].rub_pps <= 0.005);
	/* PDR: 0.2 % loss in the band passes 0.5 %; above C it fails */
	T_TRUE(res.goal[1].rlb_pps <= C && C < res.goal[1].rub_pps);
	T_TRUE(res.goal[1].rlb_pps >= band);
	T_TRUE((res.goal[1].rub_pps - res.goal[1].rlb_pps) / res.goal[1].rub_pps <= 0.01);
	/* LAT: 0.1 % late at knee / 0.999: within 1 % of the knee, well under the NDR */
	T_TRUE(fabs(res.goal[2].rlb_pps - knee) / knee <= 0.01);
	T_TRUE(res.goal[2].rub_pps > knee);
	T_TRUE((res.goal[2].rub_pps - res.goal[2].rlb_pps) / res.goal[2].rub_pps <= 0.002);
	T_NEAR(res.goal[2].latency_ns, 100000, 0);
	/* each goal decided on its own trials: PDR's bounds carry 2-s trials summing to at
	 * least 2 s (exceed 0.5 of 4 s), NDR's and LAT's 1-s trials */
	const struct search_trial *t;
	size_t n = search_trials(s, &t);
	double pdr_full = 0, lat_full = 0;
	int why_goal[3] = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (t[i].load_pps == res.goal[1].rlb_pps && t[i].duration_s >= 2)
			pdr_full += t[i].duration_s;
		if (t[i].load_pps == res.goal[2].rlb_pps && t[i].duration_s >= 1)
			lat_full += t[i].duration_s;
		for (size_t g = 0; g < 3; g++)
			why_goal[g] |= strstr(t[i].why, res.goal[g].name) != NULL;
		/* a trial lasts some goal's phase duration: never longer than the longest final */
		T_TRUE(t[i].duration_s <= 2 + 1e-9);
	}
	T_TRUE(pdr_full >= 2);
	T_TRUE(lat_full >= 2);
	/* shared: three searches of one goal each need more trials than the three together */
	size_t alone = 0;
	for (size_t g = 0; g < 3; g++) {
		struct search_cfg one = c;
		one.ngoals = 1;
		one.goals[0] = c.goals[g];
		one.duration_s = c.goals[g].final_s;
		if (one.initial_s > one.duration_s)
			one.initial_s = one.duration_s;
		struct dev d1 = { .cap = C, .band_lo = band, .band_loss = 0.002, .rng = 3 };
		struct search *s1 = search_new(&one);
		struct search_res r1;
		T_EQ_INT(run_late(s1, &d1, knee, &r1), 0);
		T_TRUE(r1.goal[0].regular);
		/* the same answer alone, to the goal's width */
		T_TRUE(fabs(r1.goal[0].rlb_pps - res.goal[g].rlb_pps) / res.goal[g].rlb_pps <=
		       2 * c.goals[g].width);
		alone += r1.ntrials;
		search_free(s1);
	}
	T_TRUE(res.ntrials < alone);
	/* and some trials asked for by one goal decided another: all three proposed */
	T_TRUE(why_goal[0] && why_goal[1] && why_goal[2]);
	search_free(s);
	/* the result outlives the search (the runner frees it before writing the case) */
	T_STREQ(res.goal[2].name, "LAT");
}

/* A latency goal without late counts (search_record) sees only loss: its answer is
 * then the loss goal's, never a silent better one. */
static void t_goals_late_capped(void)
{
	struct search_cfg c = { .method = SM_MLR, .min_load_pps = 1000, .max_load_pps = 1e6,
				.duration_s = 1, .initial_s = 1, .phases = 0 };
	c.ngoals = 1;
	c.goals[0] = (struct search_goal_cfg){ .name = "LAT", .loss_ratio = 0.01, .final_s = 1,
					       .duration_sum_s = 1, .width = 0.01,
					       .latency_ns = 1000 };
	struct search *s = search_new(&c);
	struct search_req r;
	T_EQ_INT(search_next(s, &r), 0);
	uint64_t late[SEARCH_MAX_GOALS] = { 5000000 };  /* more than received: capped */
	search_record_late(s, &r, 1000000, 999000, r.load_pps, late);
	const struct search_trial *t;
	T_EQ_U64(search_trials(s, &t), 1);
	T_NEAR(t[0].loss_ratio, 0.001, 1e-12);
	T_NEAR(t[0].goal_loss[0], 1, 0);
	T_EQ_U64(t[0].late[0], 5000000);
	search_free(s);
}

static void t_goals_check(void)
{
	char err[200];
	struct search_cfg c = { .method = SM_MLR, .min_load_pps = 1000, .max_load_pps = 1e6,
				.duration_s = 2, .initial_s = 1, .phases = 1 };
	c.ngoals = 2;
	c.goals[0] = (struct search_goal_cfg){ .name = "A", .final_s = 1, .duration_sum_s = 1,
					       .width = 0.01 };
	c.goals[1] = (struct search_goal_cfg){ .name = "B", .final_s = 2, .duration_sum_s = 2,
					       .width = 0.01 };
	T_EQ_INT(search_cfg_check(&c, err, sizeof(err)), 0);
	struct search_cfg b = c;
	snprintf(b.goals[1].name, sizeof(b.goals[1].name), "A");
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "two goals are named A") != NULL);
	b = c;
	b.goals[1].duration_sum_s = 1;
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "goal B: duration_sum_s") != NULL);
	b = c;
	b.duration_s = 3;       /* not the longest final */
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "longest goal final_s") != NULL);
	b = c;
	b.goals[0].width = 0;
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	b = c;
	b.goals[0].name[0] = 0;
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	b = c;
	b.ngoals = SEARCH_MAX_GOALS + 1;
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	b = c;
	b.method = SM_RFC2544;
	T_EQ_INT(search_cfg_check(&b, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "mlr") != NULL);
	T_TRUE(search_new(&b) == NULL);
}

int main(void)
{
	T_RUN(t_loss);
	T_RUN(t_classify);
	T_RUN(t_ct);
	T_RUN(t_cfg_check);
	T_RUN(t_fixed);
	T_RUN(t_rfc2544_converges);
	T_RUN(t_mlr_ndr_pdr);
	T_RUN(t_mlr_cheaper);
	T_RUN(t_mlr_steps);
	T_RUN(t_mlr_noise);
	T_RUN(t_mlr_glitches);
	T_RUN(t_irregular_fast_device);
	T_RUN(t_irregular_slow_device);
	T_RUN(t_max_trials);
	T_RUN(t_ladder);
	T_RUN(t_invalid_repeated);
	T_RUN(t_invalid_spoiled);
	T_RUN(t_goals_default_same);
	T_RUN(t_goals_three);
	T_RUN(t_goals_late_capped);
	T_RUN(t_goals_check);
	return t_done();
}
