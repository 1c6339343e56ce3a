/* SPDX-License-Identifier: BSD-2-Clause */
/* pace.c — absolute-deadline transmit schedules (see pace.h). Called by ppslab-gen's
 * workers once per batch: pace_due and pace_next_deadline are O(1) for deterministic
 * schedules (one Λ evaluation plus a rounding check) and O(due) for Poisson ones. */
#include "pace.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "rng.h"

#define NS 1000000000.0L

void pace_profile_init(struct pace_profile *pr)
{
	memset(pr, 0, sizeof(*pr));
}

int pace_profile_add(struct pace_profile *pr, uint64_t dur_ns, double r0_pps, double r1_pps)
{
	if (!dur_ns || !isfinite(r0_pps) || !isfinite(r1_pps) || r0_pps < 0 || r1_pps < 0 ||
	    pr->open_ended)
		return -EINVAL;
	if (pr->nseg == PACE_MAX_SEGS)
		return -E2BIG;
	struct pace_seg *s = &pr->seg[pr->nseg++];
	s->t0_ns = pr->total_ns;
	s->dur_ns = dur_ns;
	s->r0_pps = r0_pps;
	s->r1_pps = r1_pps;
	s->f0 = pr->total;
	/* ∫ of a linear rate: the mean rate times the length */
	pr->total += ((long double)r0_pps + (long double)r1_pps) * (long double)dur_ns / (2 * NS);
	pr->total_ns += dur_ns;
	return 0;
}

int pace_profile_const(struct pace_profile *pr, double pps)
{
	if (!(pps > 0) || !isfinite(pps))
		return -EINVAL;
	pace_profile_init(pr);
	pr->nseg = 1;
	pr->open_ended = 1;
	pr->seg[0] = (struct pace_seg){ .r0_pps = pps, .r1_pps = pps };
	return 0;
}

/* The last segment starting at or before t_ns. */
static const struct pace_seg *seg_at_time(const struct pace_profile *pr, uint64_t t_ns)
{
	unsigned lo = 0, hi = pr->nseg;   /* seg[lo].t0 <= t < seg[hi].t0 */
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (pr->seg[mid].t0_ns <= t_ns)
			lo = mid;
		else
			hi = mid;
	}
	return &pr->seg[lo];
}

/* The last segment whose first position is at or before x: after a pause (a segment
 * with no frames) the next frame belongs to the segment that follows it. */
static const struct pace_seg *seg_at_pos(const struct pace_profile *pr, long double x)
{
	unsigned lo = 0, hi = pr->nseg;
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (pr->seg[mid].f0 <= x)
			lo = mid;
		else
			hi = mid;
	}
	return &pr->seg[lo];
}

static int seg_open(const struct pace_profile *pr, const struct pace_seg *s)
{
	return pr->open_ended && s == &pr->seg[pr->nseg - 1];
}

long double pace_profile_frames(const struct pace_profile *pr, uint64_t t_ns)
{
	if (!pr->nseg)
		return 0;
	if (!pr->open_ended && t_ns >= pr->total_ns)
		return pr->total;
	const struct pace_seg *s = seg_at_time(pr, t_ns);
	long double tau = (long double)(t_ns - s->t0_ns) / NS;
	long double f = s->f0 + (long double)s->r0_pps * tau;
	if (!seg_open(pr, s) && s->r1_pps != s->r0_pps)
		f += ((long double)s->r1_pps - s->r0_pps) / (2 * (long double)s->dur_ns / NS) * tau * tau;
	return f;
}

uint64_t pace_profile_time(const struct pace_profile *pr, long double x)
{
	if (!pr->nseg || x < 0 || (!pr->open_ended && x >= pr->total))
		return PACE_NEVER;
	const struct pace_seg *s = seg_at_pos(pr, x);
	long double y = x - s->f0, b = s->r0_pps, tau_ns;
	if (y <= 0)
		return s->t0_ns;
	if (seg_open(pr, s) || s->r1_pps == s->r0_pps) {
		tau_ns = y * NS / b;    /* (first · 10⁹) / R, as for a constant rate */
	} else {
		/* Λ(τ) − f0 = b·τ + a·τ² = y; the root in the form that stays exact as a → 0
		 * and when b = 0 (a ramp from zero) */
		long double a = ((long double)s->r1_pps - b) / (2 * (long double)s->dur_ns / NS);
		long double disc = b * b + 4 * a * y;
		if (disc < 0)
			disc = 0;
		long double den = b + sqrtl(disc);
		if (!(den > 0))
			return PACE_NEVER;
		tau_ns = 2 * y / den * NS;
	}
	if (!seg_open(pr, s) && tau_ns > (long double)s->dur_ns)
		tau_ns = (long double)s->dur_ns;
	return s->t0_ns + (uint64_t)tau_ns;
}

double pace_profile_rate(const struct pace_profile *pr, uint64_t t_ns)
{
	if (!pr->nseg || (!pr->open_ended && t_ns >= pr->total_ns))
		return 0;
	const struct pace_seg *s = seg_at_time(pr, t_ns);
	if (seg_open(pr, s) || s->r0_pps == s->r1_pps)
		return s->r0_pps;
	return s->r0_pps + (s->r1_pps - s->r0_pps) * (double)(t_ns - s->t0_ns) / (double)s->dur_ns;
}

uint64_t pace_profile_count(const struct pace_profile *pr)
{
	if (pr->open_ended)
		return UINT64_MAX;
	/* positions x < total; a total a hair above an integer (rounding of r·t) is that
	 * integer, so 10k pps for 1 s is exactly 10,000 frames */
	long double fl = floorl(pr->total);
	if (pr->total - fl < 1e-6L)
		return (uint64_t)fl;
	return (uint64_t)fl + 1;
}

uint64_t pace_split_count(uint64_t n, uint32_t burst, uint32_t stride, uint32_t phase)
{
	if (!burst)
		burst = 1;
	if (!stride)
		stride = 1;
	uint64_t full = n / burst, part = n % burst;      /* whole bursts, frames of the last */
	uint64_t mine = full / stride + (phase < full % stride ? 1 : 0);
	uint64_t r = mine * burst;
	if (part && full % stride == phase)
		r += part;
	return r;
}

static uint64_t pos_time(const struct pace *p, long double x)
{
	if (p->prof) {
		uint64_t t = pace_profile_time(p->prof, x);
		return t == PACE_NEVER ? PACE_NEVER : p->start_ns + t;
	}
	return p->start_ns + (uint64_t)(x * NS / p->pps);
}

static void la_refill(struct pace *p)
{
	while (p->la_n < PACE_LOOKAHEAD) {
		uint64_t at = PACE_NEVER;
		unsigned slot = (p->la_head + p->la_n) % PACE_LOOKAHEAD;
		if (p->la_n == 0 || p->la[(slot + PACE_LOOKAHEAD - 1) % PACE_LOOKAHEAD] != PACE_NEVER) {
			/* after the end of a closed profile every later burst is PACE_NEVER too */
			/* U in (0, 1): 53 random bits, offset by half a step so log never sees 0 */
			double u = ((double)(rng_xs64(&p->rng) >> 11) + 0.5) * 0x1.0p-53;
			p->e_sum += -logl(u);
			at = pos_time(p, p->e_sum * p->burst * p->stride);
		}
		p->la[slot] = at;
		p->la_n++;
	}
}

void pace_init(struct pace *p, uint64_t start_ns, double pps, uint32_t burst)
{
	struct pace_opts o = { .pps = pps, .burst = burst };
	pace_init_profile(p, start_ns, NULL, &o);
}

void pace_init_profile(struct pace *p, uint64_t start_ns, const struct pace_profile *prof,
		       const struct pace_opts *o)
{
	double pps = prof ? 0 : o->pps;
	memset(p, 0, sizeof(*p));
	p->start_ns = start_ns;
	p->pps = pps;
	p->prof = prof;
	p->burst = o->burst ? o->burst : 1;
	p->stride = o->stride ? o->stride : 1;
	p->phase = o->phase < p->stride ? o->phase : 0;
	p->limit = prof ? pace_split_count(pace_profile_count(prof), p->burst, p->stride, p->phase)
			: UINT64_MAX;
	if (prof && prof->open_ended)
		p->limit = UINT64_MAX;
	p->poisson = o->poisson && (prof || pps > 0);
	if (p->poisson) {
		p->limit = UINT64_MAX;   /* a closed Poisson profile ends by time, not count */
		p->rng = rng_splitmix64(o->seed ^ rng_splitmix64(p->phase + 1));
		if (!p->rng)
			p->rng = 1;
		la_refill(p);
	}
}

static int as_fast_as_possible(const struct pace *p)
{
	return !p->prof && p->pps <= 0;
}

/* Deadline of this schedule's burst m (deterministic schedules). */
static uint64_t burst_deadline(const struct pace *p, uint64_t m)
{
	long double x = ((long double)m * p->stride + p->phase) * p->burst;
	return pos_time(p, x);
}

uint64_t pace_position(const struct pace *p, uint64_t k)
{
	return ((k / p->burst) * p->stride + p->phase) * p->burst + k % p->burst;
}

uint64_t pace_deadline_of(const struct pace *p, uint64_t k)
{
	if (as_fast_as_possible(p))
		return p->start_ns;
	if (k >= p->limit)
		return PACE_NEVER;
	uint64_t m = k / p->burst;     /* a burst shares its first frame's deadline */
	if (p->poisson) {
		if (m < p->la_burst || m >= p->la_burst + p->la_n)
			return PACE_NEVER;
		return p->la[(p->la_head + (m - p->la_burst)) % PACE_LOOKAHEAD];
	}
	return burst_deadline(p, m);
}

static uint32_t cap(uint64_t due, const struct pace *p, uint32_t max)
{
	if (p->limit != UINT64_MAX && due > p->limit - p->k)
		due = p->limit - p->k;
	return due > max ? max : (uint32_t)due;
}

uint32_t pace_due(const struct pace *p, uint64_t now_ns, uint32_t max)
{
	if (as_fast_as_possible(p))
		return cap(max, p, max);
	if (p->k >= p->limit || !max)
		return 0;
	uint64_t m0 = p->k / p->burst;
	if (p->poisson) {
		unsigned j = 0;
		while (j < p->la_n && p->la[(p->la_head + j) % PACE_LOOKAHEAD] <= now_ns)
			j++;
		if (!j)
			return 0;
		return cap((m0 + j) * p->burst - p->k, p, max);
	}
	if (burst_deadline(p, m0) > now_ns)
		return 0;
	/* estimate the last due burst from Λ(now), then settle the rounding with the exact
	 * deadlines (a step or two at most) */
	long double lam = p->prof ? pace_profile_frames(p->prof, now_ns - p->start_ns)
				  : (long double)(now_ns - p->start_ns) * p->pps / NS;
	uint64_t jmax = (uint64_t)(lam / p->burst);
	uint64_t mmax = jmax >= p->phase ? (jmax - p->phase) / p->stride : 0;
	if (mmax < m0)
		mmax = m0;
	if (mmax > m0 + 2 && (mmax - m0 - 2) * p->burst >= max) {
		/* far behind: at least max frames are due whatever the rounding of Λ (off by
		 * one burst at most), and only max are asked for */
		return cap(max, p, max);
	}
	while (mmax > m0 && burst_deadline(p, mmax) > now_ns)
		mmax--;
	while (burst_deadline(p, mmax + 1) <= now_ns)
		mmax++;
	return cap((mmax + 1) * p->burst - p->k, p, max);
}

void pace_advance(struct pace *p, uint64_t n)
{
	p->k += n;
	if (!p->poisson)
		return;
	uint64_t m = p->k / p->burst;
	while (p->la_n && p->la_burst < m) {
		p->la_head = (p->la_head + 1) % PACE_LOOKAHEAD;
		p->la_n--;
		p->la_burst++;
	}
	if (p->la_burst < m) {   /* advanced past the lookahead: skip the draws too */
		while (p->la_burst < m) {
			la_refill(p);
			p->la_head = (p->la_head + 1) % PACE_LOOKAHEAD;
			p->la_n--;
			p->la_burst++;
		}
	}
	la_refill(p);
}

void pace_shift(struct pace *p, uint64_t d_ns)
{
	/* deadlines are start + Λ⁻¹(x): moving the start moves them all; the frames already
	 * sent keep theirs (they are not asked for again) */
	p->start_ns += d_ns;
	if (p->poisson)
		for (unsigned j = 0; j < p->la_n; j++) {
			uint64_t *dl = &p->la[(p->la_head + j) % PACE_LOOKAHEAD];
			if (*dl != PACE_NEVER)
				*dl += d_ns;
		}
}

uint64_t pace_late_apply(struct pace *p, enum pace_late pol, uint64_t now_ns, uint64_t upto_ns,
			 uint64_t late_ns, uint64_t limit, uint64_t *shift_ns)
{
	*shift_ns = 0;
	if (pol == PACE_LATE_CATCHUP || as_fast_as_possible(p) || p->k >= limit)
		return 0;
	uint64_t dl = pace_deadline_of(p, p->k);
	if (dl == PACE_NEVER || now_ns < late_ns || dl >= now_ns - late_ns)
		return 0;
	if (pol == PACE_LATE_SHIFT) {
		*shift_ns = now_ns - dl;
		pace_shift(p, *shift_ns);
		return 0;
	}
	uint64_t upto = now_ns - late_ns < upto_ns ? now_ns - late_ns : upto_ns, skip = 0;
	uint32_t d;
	while (p->k < limit && (d = pace_due(p, upto, 1u << 20)) > 0) {
		if (d > limit - p->k)
			d = (uint32_t)(limit - p->k);
		pace_advance(p, d);
		skip += d;
	}
	return skip;
}

void pace_track_init(struct pace_track *t, double nominal_gap_ns, uint64_t lag_ns)
{
	memset(t, 0, sizeof(*t));
	t->tight_ns = nominal_gap_ns > 0 && isfinite(nominal_gap_ns)
		? (uint64_t)(nominal_gap_ns / 4) : 0;
	t->lag_ns = lag_ns;
}

void pace_track_sent(struct pace_track *t, uint64_t now_ns, uint64_t n)
{
	if (!n)
		return;
	if (t->last_ns && now_ns >= t->last_ns && now_ns - t->last_ns < t->tight_ns)
		t->run += n;
	else
		t->run = n;
	t->last_ns = now_ns;
	if (t->run > t->burst_max)
		t->burst_max = t->run;
}

static void behind_close(struct pace_track *t, uint64_t now_ns)
{
	uint64_t d = now_ns > t->behind_since ? now_ns - t->behind_since : 0;
	t->behind_total_ns += d;
	if (d > t->behind_max_ns)
		t->behind_max_ns = d;
	t->behind_since = 0;
}

void pace_track_due(struct pace_track *t, uint64_t now_ns, uint64_t due_ns)
{
	int behind = due_ns != PACE_NEVER && due_ns < now_ns && now_ns - due_ns > t->lag_ns;
	if (behind && !t->behind_since) {
		t->behind_since = due_ns ? due_ns : 1;
		t->behind_n++;
	} else if (!behind && t->behind_since) {
		behind_close(t, now_ns);
	}
}

void pace_track_end(struct pace_track *t, uint64_t now_ns)
{
	if (t->behind_since)
		behind_close(t, now_ns);
}
