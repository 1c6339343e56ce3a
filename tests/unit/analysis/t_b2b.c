/* SPDX-License-Identifier: BSD-2-Clause */
/* t_b2b.c — the back-to-back method (b2b.h) against a simulated device with a known
 * buffer: a burst of B frames arrives at R frames/s, the device forwards at T while it
 * arrives, so it must hold B − floor(B·T/R) frames, and loses frames when that exceeds
 * its buffer K (optionally K jitters per burst, seeded). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "b2b.h"
#include "tap.h"

struct dev {
	double r, t;            /* arrival and forwarding rates */
	uint64_t k;             /* buffer, frames */
	uint64_t jitter;        /* K ± jitter per burst, uniform */
	uint64_t rng;
	unsigned short_every;   /* every Nth burst the sender sends one frame short */
	unsigned n;
};

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void dev_burst(struct dev *d, uint64_t frames, uint64_t *tx, uint64_t *rx)
{
	uint64_t k = d->k;
	if (d->jitter)
		k = k - d->jitter + xorshift(&d->rng) % (2 * d->jitter + 1);
	*tx = frames;
	uint64_t fwd = (uint64_t)floor((double)frames * d->t / d->r);
	uint64_t held = frames - fwd;
	*rx = held <= k ? frames : fwd + k;
}

/* the longest burst the device passes with buffer k */
static uint64_t dev_best(const struct dev *d, uint64_t k)
{
	uint64_t b = 0;
	while (b + 1 - (uint64_t)floor((double)(b + 1) * d->t / d->r) <= k)
		b++;
	return b;
}

static int run(struct b2b *b, struct dev *d)
{
	struct b2b_req r;
	int n = 0;
	while (b2b_next(b, &r) == 0) {
		if (++n > 100000)
			return -1;
		uint64_t tx, rx;
		dev_burst(d, r.frames, &tx, &rx);
		if (d->short_every && ++d->n % d->short_every == 0) {
			b2b_invalid(b);
			continue;
		}
		b2b_record(b, tx, rx);
	}
	return n;
}

static struct b2b_cfg cfg_for(double r, double t, unsigned trials)
{
	return (struct b2b_cfg){ .rate_pps = r, .throughput_pps = t, .min_burst = 1,
				 .max_burst = 1000000, .resolution = 1, .trials = trials,
				 .repeat_invalid = 3 };
}

/* one exact search finds the device's longest burst for several buffers and rates */
static void t_exact(void)
{
	static const uint64_t ks[] = { 1, 7, 256, 1000, 4097, 65536 };
	static const double ts[] = { 0.1, 0.5, 0.9 };
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
		for (size_t j = 0; j < sizeof(ts) / sizeof(ts[0]); j++) {
			struct dev d = { .r = 1e6, .t = 1e6 * ts[j], .k = ks[i] };
			struct b2b_cfg c = cfg_for(d.r, d.t, 1);
			struct b2b *b = b2b_new(&c);
			T_TRUE(b != NULL);
			T_TRUE(run(b, &d) > 0);
			struct b2b_res res;
			b2b_result(b, &res);
			uint64_t best = dev_best(&d, d.k);
			T_EQ_U64((uint64_t)res.mean_frames, best);
			T_EQ_INT(res.regular, 1);
			T_TRUE(res.bursts <= 22);       /* about log2(max_burst) */
			b2b_free(b);
		}
}

/* RFC 9004's figures: implied = B/R, corrected = B/R·(1 − T/R); with the simulated
 * device the corrected time is its buffer's time at R (K/R), the implied one is not */
static void t_times(void)
{
	struct dev d = { .r = 1e6, .t = 6e5, .k = 4000 };
	struct b2b_cfg c = cfg_for(d.r, d.t, 1);
	struct b2b *b = b2b_new(&c);
	run(b, &d);
	struct b2b_res res;
	b2b_result(b, &res);
	T_EQ_U64((uint64_t)res.mean_frames, 10000);     /* 4000 / (1 − 0.6) */
	T_NEAR(res.implied_s, 0.01, 1e-12);
	T_NEAR(res.corrected_s, 0.004, 1e-12);          /* = K / R */
	b2b_free(b);
}

/* 50 searches on a steady device: all agree, and the later ones bracket the previous
 * answer instead of starting over (far fewer bursts than 50 full searches) */
static void t_repeat_steady(void)
{
	struct dev d = { .r = 1e6, .t = 2e5, .k = 3000 };
	struct b2b_cfg c = cfg_for(d.r, d.t, 50);
	struct b2b *b = b2b_new(&c);
	T_TRUE(run(b, &d) > 0);
	struct b2b_res res;
	b2b_result(b, &res);
	uint64_t best = dev_best(&d, d.k);
	T_EQ_INT(res.trials, 50);
	T_NEAR(res.mean_frames, (double)best, 0);
	T_EQ_U64(res.min_frames, best);
	T_EQ_U64(res.max_frames, best);
	T_NEAR(res.stdev_frames, 0, 0);
	T_TRUE(res.bursts < 50 * 8);
	T_EQ_INT(res.regular, 1);
	const uint64_t *a;
	T_EQ_INT(b2b_answers(b, &a), 50);
	T_EQ_U64(a[49], best);
	b2b_free(b);
}

/* a buffer that varies per burst: every answer lies within the jitter's range and the
 * mean near the middle */
static void t_repeat_jitter(void)
{
	struct dev d = { .r = 1e6, .t = 5e5, .k = 2000, .jitter = 50, .rng = 88172645463325252ULL };
	struct b2b_cfg c = cfg_for(d.r, d.t, 50);
	c.resolution = 4;
	struct b2b *b = b2b_new(&c);
	T_TRUE(run(b, &d) > 0);
	struct b2b_res res;
	b2b_result(b, &res);
	T_EQ_INT(res.trials, 50);
	T_TRUE(res.min_frames >= dev_best(&d, d.k - d.jitter) - c.resolution);
	T_TRUE(res.max_frames <= dev_best(&d, d.k + d.jitter));
	T_NEAR(res.mean_frames, (double)dev_best(&d, d.k), 0.05 * (double)dev_best(&d, d.k));
	T_TRUE(res.stdev_frames > 0);
	b2b_free(b);
}

/* the ends of the range: a device holding more than max_burst is a lower bound; one
 * losing even min_burst answers 0; both irregular */
static void t_ends(void)
{
	struct dev big = { .r = 1e6, .t = 5e5, .k = 1000000 };
	struct b2b_cfg c = cfg_for(big.r, big.t, 3);
	c.max_burst = 5000;
	struct b2b *b = b2b_new(&c);
	int n = run(b, &big);
	struct b2b_res res;
	b2b_result(b, &res);
	T_EQ_INT(n, 3);                     /* one burst of max_burst per search */
	T_NEAR(res.mean_frames, 5000, 0);
	T_EQ_INT(res.regular, 0);
	T_TRUE(res.irregular && strstr(res.irregular, "lower bound"));
	b2b_free(b);

	struct dev none = { .r = 1e6, .t = 5e5, .k = 0 };
	c = cfg_for(none.r, none.t, 2);
	c.min_burst = 4;
	b = b2b_new(&c);
	T_TRUE(run(b, &none) > 0);
	b2b_result(b, &res);
	T_NEAR(res.mean_frames, 0, 0);
	T_EQ_INT(res.trials, 2);
	T_EQ_INT(res.regular, 0);
	T_TRUE(res.irregular && strstr(res.irregular, "min_burst"));
	b2b_free(b);
}

/* a burst the sender did not send whole is sent again; when it stays short the method
 * ends, irregular */
static void t_invalid(void)
{
	struct dev d = { .r = 1e6, .t = 5e5, .k = 500, .short_every = 5 };
	struct b2b_cfg c = cfg_for(d.r, d.t, 2);
	struct b2b *b = b2b_new(&c);
	T_TRUE(run(b, &d) > 0);
	struct b2b_res res;
	b2b_result(b, &res);
	T_EQ_U64((uint64_t)res.mean_frames, dev_best(&d, d.k));
	T_TRUE(res.repeated > 0);
	T_EQ_INT(res.regular, 1);
	b2b_free(b);

	d.short_every = 1;
	c.repeat_invalid = 2;
	b = b2b_new(&c);
	T_EQ_INT(run(b, &d), 3);            /* the first burst, then 2 repetitions */
	b2b_result(b, &res);
	T_EQ_INT(res.trials, 0);
	T_TRUE(isnan(res.mean_frames));
	T_EQ_INT(res.regular, 0);
	b2b_free(b);
}

static void t_max_bursts(void)
{
	struct dev d = { .r = 1e6, .t = 5e5, .k = 700 };
	struct b2b_cfg c = cfg_for(d.r, d.t, 50);
	c.max_bursts = 30;
	struct b2b *b = b2b_new(&c);
	T_EQ_INT(run(b, &d), 30);
	struct b2b_res res;
	b2b_result(b, &res);
	T_TRUE(res.trials >= 1 && res.trials < 50);
	T_EQ_INT(res.regular, 0);
	T_TRUE(res.irregular && strstr(res.irregular, "max_bursts"));
	b2b_free(b);
}

/* the method applies only below the theoretical maximum; bad configurations are named */
static void t_cfg(void)
{
	const char *why = NULL;
	T_EQ_INT(b2b_applies(1e6, 1e6, &why), 0);
	T_TRUE(why && strstr(why, "theoretical maximum"));
	T_EQ_INT(b2b_applies(0.999 * 1e6, 1e6, NULL), 0);
	T_EQ_INT(b2b_applies(0.99 * 1e6, 1e6, NULL), 1);
	char err[160];
	struct b2b_cfg c = cfg_for(1e6, 1e6, 1);
	T_EQ_INT(b2b_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "throughput_pps") != NULL);
	errno = 0;
	T_TRUE(b2b_new(&c) == NULL);
	T_EQ_INT(errno, EINVAL);
	c = cfg_for(1e6, 5e5, 0);
	T_EQ_INT(b2b_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "trials") != NULL);
	c = cfg_for(1e6, 5e5, 1);
	c.max_burst = 1;
	T_EQ_INT(b2b_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "max_burst") != NULL);
	c = cfg_for(0, 5e5, 1);
	T_EQ_INT(b2b_cfg_check(&c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "rate_pps") != NULL);
}

/* asked twice before recording, it repeats the pending request */
static void t_pending(void)
{
	struct b2b_cfg c = cfg_for(1e6, 5e5, 1);
	struct b2b *b = b2b_new(&c);
	struct b2b_req r1, r2;
	T_EQ_INT(b2b_next(b, &r1), 0);
	T_EQ_INT(b2b_next(b, &r2), 0);
	T_EQ_U64(r1.frames, r2.frames);
	T_EQ_U64(r1.frames, 1000000);
	T_STREQ(r1.why, "b2b 1/1 max");
	b2b_record(b, 5, 5);                /* short of frames: not a pass */
	T_EQ_INT(b2b_next(b, &r1), 0);
	T_TRUE(r1.frames < 1000000);
	b2b_free(b);
}

int main(void)
{
	T_RUN(t_exact);
	T_RUN(t_times);
	T_RUN(t_repeat_steady);
	T_RUN(t_repeat_jitter);
	T_RUN(t_ends);
	T_RUN(t_invalid);
	T_RUN(t_max_bursts);
	T_RUN(t_cfg);
	T_RUN(t_pending);
	return t_done();
}
