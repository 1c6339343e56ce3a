/* SPDX-License-Identifier: BSD-2-Clause */
/* b2b.c — the back-to-back frame method as a state machine (see b2b.h;
 * docs/method.md#back-to-back-frames). Pure: no I/O, no clock. Called by the runner,
 * which sends the bursts b2b_next asks for, and by tests/unit/analysis/t_b2b.c with a
 * simulated device. */
#include "b2b.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct b2b {
	struct b2b_cfg cfg;
	uint64_t *ans;          /* each finished search's answer */
	unsigned nans;
	size_t bursts, repeated;
	int done, pending;
	unsigned req_invalid;   /* invalid bursts of the pending request */
	const char *irregular;
	struct b2b_req req;
	char why[48];
	/* the running search */
	uint64_t lo, hi;        /* longest passing, shortest lossy */
	int lo_known, hi_known;
	uint64_t step;          /* bracketing step (searches after the first) */
	const char *stepping;   /* "bracket up"/"bracket down", NULL: bisecting */
};

int b2b_cfg_check(const struct b2b_cfg *c, char *err, size_t errlen)
{
	const char *what = NULL;
	if (!(c->rate_pps > 0) || !isfinite(c->rate_pps))
		what = "rate_pps: the theoretical frame rate must be a positive number";
	else if (!(c->throughput_pps > 0) || !isfinite(c->throughput_pps))
		what = "throughput_pps: the measured throughput must be a positive number";
	else if (!b2b_applies(c->throughput_pps, c->rate_pps, NULL))
		what = "throughput_pps: at the theoretical frame rate the method does not apply";
	else if (c->min_burst < 1)
		what = "min_burst: at least 1 frame";
	else if (c->max_burst <= c->min_burst)
		what = "max_burst: must be longer than min_burst";
	else if (c->resolution < 1)
		what = "resolution: at least 1 frame";
	else if (c->trials < 1)
		what = "trials: at least 1";
	if (!what)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", what);
	return -EINVAL;
}

int b2b_applies(double t_pps, double r_pps, const char **why)
{
	if (t_pps < r_pps * (1 - B2B_SKIP_MARGIN))
		return 1;
	if (why)
		*why = "its throughput is the theoretical maximum frame rate: the device "
		       "forwards every burst as it comes and needs no buffer to measure";
	return 0;
}

struct b2b *b2b_new(const struct b2b_cfg *cfg)
{
	if (b2b_cfg_check(cfg, NULL, 0)) {
		errno = EINVAL;
		return NULL;
	}
	struct b2b *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->cfg = *cfg;
	if (!(b->ans = calloc(cfg->trials, sizeof(*b->ans)))) {
		free(b);
		return NULL;
	}
	return b;
}

void b2b_free(struct b2b *b)
{
	if (!b)
		return;
	free(b->ans);
	free(b);
}

static void irregular(struct b2b *b, const char *why)
{
	if (!b->irregular)
		b->irregular = why;
}

/* The running search ends with answer a; the next one starts, or the method ends. */
static void search_end(struct b2b *b, uint64_t a)
{
	b->ans[b->nans++] = a;
	b->lo_known = b->hi_known = 0;
	b->lo = b->hi = 0;
	b->stepping = NULL;
	if (b->nans >= b->cfg.trials)
		b->done = 1;
}

static uint64_t first_step(const struct b2b *b, uint64_t prev)
{
	uint64_t s = prev / 64;
	return s > b->cfg.resolution ? s : b->cfg.resolution;
}

/* The next burst of the running search, or an answer (then the next search's). */
static int plan(struct b2b *b, uint64_t *frames, const char **what)
{
	const struct b2b_cfg *c = &b->cfg;
	for (;;) {
		if (b->done)
			return 1;
		if (!b->lo_known && !b->hi_known) {
			if (b->nans == 0) {
				*frames = c->max_burst;
				*what = "max";
				return 0;
			}
			uint64_t p = b->ans[b->nans - 1];
			p = p < c->min_burst ? c->min_burst : p > c->max_burst ? c->max_burst : p;
			b->step = first_step(b, p);
			b->stepping = "bracket";
			*frames = p;
			*what = "previous";
			return 0;
		}
		if (b->lo_known && !b->hi_known) {
			/* only passes so far (searches after the first): step up */
			if (b->lo >= c->max_burst) {
				irregular(b, "a burst of max_burst frames passed: the buffer is at "
					  "least that long (a lower bound)");
				search_end(b, c->max_burst);
				continue;
			}
			uint64_t n = c->max_burst - b->lo > b->step ? b->lo + b->step : c->max_burst;
			b->step *= 2;
			*frames = n;
			*what = "bracket up";
			return 0;
		}
		if (!b->lo_known && b->stepping && b->hi > c->min_burst) {
			/* only losses so far (searches after the first): step down */
			uint64_t n = b->hi - c->min_burst > b->step ? b->hi - b->step : c->min_burst;
			b->step *= 2;
			*frames = n;
			*what = "bracket down";
			return 0;
		}
		/* bisect between lo (0 and unmeasured at first) and hi */
		uint64_t lo = b->lo_known ? b->lo : 0;
		if (b->hi <= c->min_burst && !b->lo_known) {
			irregular(b, "a burst of min_burst frames lost frames: the buffer is "
				  "shorter than that");
			search_end(b, 0);
			continue;
		}
		if (b->hi - lo <= c->resolution) {
			if (!b->lo_known) {
				/* the interval reached min_burst unmeasured */
				*frames = c->min_burst;
				*what = "min";
				return 0;
			}
			search_end(b, lo);
			continue;
		}
		uint64_t n = lo + (b->hi - lo) / 2;
		if (n < c->min_burst)
			n = c->min_burst;
		*frames = n;
		*what = "bisect";
		return 0;
	}
}

int b2b_next(struct b2b *b, struct b2b_req *r)
{
	if (!b->pending) {
		if (b->cfg.max_bursts && b->bursts >= b->cfg.max_bursts && !b->done) {
			irregular(b, "gave up after max_bursts bursts");
			b->done = 1;
		}
		uint64_t n;
		const char *what;
		if (plan(b, &n, &what))
			return 1;
		snprintf(b->why, sizeof(b->why), "b2b %u/%u %s", b->nans + 1, b->cfg.trials, what);
		b->req = (struct b2b_req){ .frames = n, .trial = b->nans + 1, .why = b->why };
		b->pending = 1;
		b->req_invalid = 0;
	}
	*r = b->req;
	return 0;
}

void b2b_record(struct b2b *b, uint64_t tx, uint64_t rx)
{
	if (!b->pending)
		return;
	b->pending = 0;
	b->bursts++;
	const struct b2b_cfg *c = &b->cfg;
	uint64_t x = b->req.frames;
	int pass = tx >= x && rx >= tx;
	if (pass) {
		if (!b->lo_known || x > b->lo)
			b->lo = x;
		b->lo_known = 1;
		if (b->hi_known && b->lo >= b->hi)     /* an earlier loss was not the device's */
			b->hi_known = 0, b->hi = 0;
		if (x >= c->max_burst) {
			irregular(b, "a burst of max_burst frames passed: the buffer is at least "
				  "that long (a lower bound)");
			search_end(b, c->max_burst);
		}
	} else {
		if (!b->hi_known || x < b->hi)
			b->hi = x;
		b->hi_known = 1;
		if (b->lo_known && b->lo >= b->hi)     /* an earlier pass was luck: start low */
			b->lo_known = 0, b->lo = 0;
		if (x <= c->min_burst) {
			irregular(b, "a burst of min_burst frames lost frames: the buffer is "
				  "shorter than that");
			search_end(b, 0);
		}
	}
	if (b->lo_known && b->hi_known)
		b->stepping = NULL;
}

int b2b_invalid(struct b2b *b)
{
	if (!b->pending)
		return 0;
	if (b->req_invalid++ < b->cfg.repeat_invalid) {
		b->repeated++;
		return 0;
	}
	b->pending = 0;
	b->done = 1;
	irregular(b, "a burst stayed short of frames after repeat_invalid repetitions: the "
		  "sender could not send it whole");
	return 1;
}

void b2b_result(const struct b2b *b, struct b2b_res *res)
{
	memset(res, 0, sizeof(*res));
	const struct b2b_cfg *c = &b->cfg;
	res->trials = b->nans;
	res->bursts = b->bursts;
	res->repeated = b->repeated;
	res->mean_frames = res->implied_s = res->corrected_s = NAN;
	if (b->nans) {
		double sum = 0;
		res->min_frames = UINT64_MAX;
		for (unsigned i = 0; i < b->nans; i++) {
			sum += (double)b->ans[i];
			if (b->ans[i] < res->min_frames)
				res->min_frames = b->ans[i];
			if (b->ans[i] > res->max_frames)
				res->max_frames = b->ans[i];
		}
		double mean = sum / b->nans, ss = 0;
		for (unsigned i = 0; i < b->nans; i++)
			ss += ((double)b->ans[i] - mean) * ((double)b->ans[i] - mean);
		res->mean_frames = mean;
		res->stdev_frames = b->nans > 1 ? sqrt(ss / (b->nans - 1)) : 0;
		res->implied_s = mean / c->rate_pps;
		res->corrected_s = (mean - c->throughput_pps * res->implied_s) / c->rate_pps;
	}
	res->irregular = b->irregular;
	if (!res->irregular && b->nans < c->trials)
		res->irregular = "stopped before every search ran";
	res->regular = res->irregular == NULL;
}

size_t b2b_answers(const struct b2b *b, const uint64_t **a)
{
	*a = b->ans;
	return b->nans;
}
