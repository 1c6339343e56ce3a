/* SPDX-License-Identifier: BSD-2-Clause */
/* pace.h — the sender's transmit schedule: when frame k is due.
 *
 * A pure calculation on absolute deadlines (CLOCK_MONOTONIC ns from a start time), so
 * that rounding never accumulates: frame k of a constant rate R is due at
 * start + k·10⁹/R, frames are sent in bursts of `burst` back-to-back frames sharing the
 * first frame's deadline. The sender sends what is due, then sleeps (far) or spins
 * (near) until the next deadline: the per-second rate is steady, not 1-second bursts.
 *
 * Rate profiles. A profile is a piecewise-linear rate r(t): a constant rate (one
 * open-ended segment), a step list (constant segments) or a linear ramp (one segment
 * from r0 to r1). Its cumulative frame count Λ(t) = ∫r is piecewise quadratic, and
 * frame position x (0, 1, 2, ...) is due at Λ⁻¹(x), solved in closed form per segment;
 * so every deadline is computed from its index, never summed. A closed profile
 * (steps, ramp) schedules exactly the positions x < Λ(end); later frames never come
 * (PACE_NEVER).
 *
 * Threads. A schedule can be one of `stride` interleaved shares of the profile: bursts
 * are numbered globally j = 0, 1, 2, ... (burst j holds positions j·b .. j·b+b−1) and
 * this schedule owns the bursts j ≡ phase (mod stride). The union of the stride
 * schedules is exactly the single-thread schedule, so N threads together send exactly
 * the target rate, each on its own ring, without talking to each other.
 *
 * Poisson. With `poisson`, burst arrivals form a Poisson process of the profile's rate
 * (time-changed through Λ, so a ramp or step list is followed too): each share draws
 * exponential gaps from its own xorshift generator at rate r(t)/stride, and the
 * superposition of independent Poisson processes is a Poisson process of the summed
 * rate. The next PACE_LOOKAHEAD burst deadlines are drawn ahead, so pace_due can count
 * several due bursts at once; deadlines further ahead are not known yet. */
#ifndef PPSLAB_LIB_PACE_H
#define PPSLAB_LIB_PACE_H

#include <stdint.h>

#define PACE_NEVER UINT64_MAX
#define PACE_MAX_SEGS 256
#define PACE_LOOKAHEAD 64

struct pace_seg {
	uint64_t t0_ns;      /* start, ns after the schedule's start */
	uint64_t dur_ns;     /* length; ignored for the open-ended last segment */
	double r0_pps;       /* rate at the start of the segment */
	double r1_pps;       /* rate at its end (r0 for a step) */
	long double f0;      /* frames scheduled before t0: Λ(t0) */
};

struct pace_profile {
	unsigned nseg;
	int open_ended;      /* the last segment lasts for ever (a constant rate) */
	long double total;   /* Λ at the end of a closed profile */
	uint64_t total_ns;   /* length of a closed profile */
	struct pace_seg seg[PACE_MAX_SEGS];
};

/* An empty closed profile; pace_profile_add appends a segment of dur_ns going linearly
 * from r0 to r1 pps (r0 == r1: a step; 0 is a pause). 0, -EINVAL (negative or
 * non-finite rate, zero duration) or -E2BIG (too many segments). */
void pace_profile_init(struct pace_profile *pr);
int pace_profile_add(struct pace_profile *pr, uint64_t dur_ns, double r0_pps, double r1_pps);
/* A constant rate for ever (pps > 0). */
int pace_profile_const(struct pace_profile *pr, double pps);
/* Λ(t): frames the profile schedules in [0, t_ns) from its start (fractional). */
long double pace_profile_frames(const struct pace_profile *pr, uint64_t t_ns);
/* Λ⁻¹(x): ns after the start at which position x is due; PACE_NEVER past the end. */
uint64_t pace_profile_time(const struct pace_profile *pr, long double x);
/* r(t) in pps. */
double pace_profile_rate(const struct pace_profile *pr, uint64_t t_ns);
/* Positions a closed profile schedules (⌈total⌉); UINT64_MAX when open-ended. */
uint64_t pace_profile_count(const struct pace_profile *pr);

/* How many of the positions 0..n−1 fall into the share `phase` of `stride` with bursts
 * of `burst`: the exact per-thread split of a count (the shares sum to n). */
uint64_t pace_split_count(uint64_t n, uint32_t burst, uint32_t stride, uint32_t phase);

struct pace {
	uint64_t start_ns;
	double pps;          /* constant rate when prof is NULL; 0: as fast as possible */
	uint32_t burst;      /* frames per deadline, >= 1 */
	uint64_t k;          /* index of the next frame of this schedule */
	const struct pace_profile *prof;   /* NULL: constant pps */
	uint32_t stride, phase;            /* this schedule's share (1, 0: all of it) */
	uint64_t limit;      /* frames this schedule has at all (UINT64_MAX: unbounded) */
	int poisson;
	uint64_t rng;        /* xorshift64* state */
	long double e_sum;   /* cumulative Exp(1) draws, in bursts of this share */
	uint64_t la[PACE_LOOKAHEAD];       /* deadlines of bursts la_burst .. + la_n − 1 */
	uint64_t la_burst;
	unsigned la_head, la_n;
};

struct pace_opts {
	double pps;          /* constant rate when there is no profile; 0: as fast as possible */
	uint32_t burst;      /* 0 means 1 */
	uint32_t stride;     /* 0 means 1 */
	uint32_t phase;      /* < stride */
	int poisson;
	uint64_t seed;       /* for Poisson; any value */
};

void pace_init(struct pace *p, uint64_t start_ns, double pps, uint32_t burst);
/* A schedule following prof, or the constant o->pps when prof is NULL (0: as fast as
 * possible); prof must outlive p and may be shared by several schedules. */
void pace_init_profile(struct pace *p, uint64_t start_ns, const struct pace_profile *prof,
		       const struct pace_opts *o);
/* Deadline of this schedule's frame k (ns, CLOCK_MONOTONIC); start_ns for every frame
 * when as fast as possible; PACE_NEVER past the end of a closed profile. Poisson
 * schedules know only the frames of the next PACE_LOOKAHEAD bursts (else PACE_NEVER). */
uint64_t pace_deadline_of(const struct pace *p, uint64_t k);
static inline uint64_t pace_next_deadline(const struct pace *p)
{
	return pace_deadline_of(p, p->k);
}
/* How many frames from the next one on are due at `now` (capped at max), without
 * consuming them. */
uint32_t pace_due(const struct pace *p, uint64_t now_ns, uint32_t max);
/* Consumes n frames. */
void pace_advance(struct pace *p, uint64_t n);
/* Global position (in the whole profile) of this schedule's frame k. */
uint64_t pace_position(const struct pace *p, uint64_t k);
/* Moves every deadline from frame k on later by d_ns (--late-policy shift): the gaps are
 * kept, the average rate falls. */
void pace_shift(struct pace *p, uint64_t d_ns);

/* What a sender does with frames more than late_ns past their deadline, after a stall:
 * send them back to back to keep the average (catchup), leave them out and keep the
 * gaps (skip), or keep the gaps and move the rest of the schedule later (shift: the
 * average falls). */
enum pace_late { PACE_LATE_CATCHUP, PACE_LATE_SKIP, PACE_LATE_SHIFT };
/* When the next frame is more than late_ns past its deadline at now_ns: skip advances
 * past every frame due by min(upto_ns, now_ns − late_ns), at most limit − k of them,
 * and returns how many; shift moves the schedule so that the next frame is due at
 * now_ns and puts the shift in *shift_ns. 0 and nothing done for catchup, on time, or
 * an unpaced schedule. */
uint64_t pace_late_apply(struct pace *p, enum pace_late pol, uint64_t now_ns, uint64_t upto_ns,
			 uint64_t late_ns, uint64_t limit, uint64_t *shift_ns);

/* What a sender really sent against its schedule: its bursts and how long it ran behind.
 *
 * A burst is a run of frames each handed over less than tight_ns after the one before
 * (frames of one hand-over count as back to back); tight_ns is a quarter of the nominal
 * gap between the schedule's deadlines, so jitter of a few microseconds never joins two
 * frames while frames sent to catch up always do. The sender is behind while the
 * oldest frame it owes is more than lag_ns (its --late) past its deadline; a stretch
 * begins at that frame's deadline and ends when the sender is caught up again. Pure:
 * the caller passes the clock, so it is tested on simulated time. */
struct pace_track {
	uint64_t tight_ns, lag_ns;
	uint64_t last_ns;       /* the last hand-over (0: none yet) */
	uint64_t run;           /* frames of the burst in progress */
	uint64_t burst_max;     /* the largest burst sent */
	uint64_t behind_since;  /* start of the stretch in progress (0: on schedule) */
	uint64_t behind_total_ns, behind_max_ns, behind_n;
};
/* nominal_gap_ns: the schedule's gap between deadlines (NaN or ≤ 0: unpaced, where no
 * run of frames is a burst against a schedule: tight_ns 0). */
void pace_track_init(struct pace_track *t, double nominal_gap_ns, uint64_t lag_ns);
/* n frames handed over together at now_ns. */
void pace_track_sent(struct pace_track *t, uint64_t now_ns, uint64_t n);
/* At now_ns the oldest frame owed was due at due_ns (PACE_NEVER or later than now_ns:
 * nothing is owed). */
void pace_track_due(struct pace_track *t, uint64_t now_ns, uint64_t due_ns);
/* The run ended at now_ns: closes a stretch behind still open. */
void pace_track_end(struct pace_track *t, uint64_t now_ns);

#endif
