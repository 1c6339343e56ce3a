/* pace.h — the sender's transmit schedule: when frame k is due.
 *
 * A pure calculation on absolute deadlines (CLOCK_MONOTONIC ns from a start time), so
 * that rounding never accumulates: frame k of a constant rate R is due at
 * start + k·10⁹/R, frames are sent in bursts of `burst` back-to-back frames sharing the
 * first frame's deadline. The sender sends what is due, then sleeps (far) or spins
 * (near) until the next deadline: the per-second rate is steady, not 1-second bursts. */
#ifndef PPSLAB_PACE_H
#define PPSLAB_PACE_H

#include <stdint.h>

struct pace {
	uint64_t start_ns;
	double pps;          /* 0: as fast as possible */
	uint32_t burst;      /* frames per deadline, >= 1 */
	uint64_t k;          /* index of the next frame */
};

void pace_init(struct pace *p, uint64_t start_ns, double pps, uint32_t burst);
/* Deadline of frame k (ns, CLOCK_MONOTONIC); start_ns for every frame when pps is 0. */
uint64_t pace_deadline_of(const struct pace *p, uint64_t k);
static inline uint64_t pace_next_deadline(const struct pace *p)
{
	return pace_deadline_of(p, p->k);
}
/* How many frames from the next one on are due at `now` (capped at max), without
 * consuming them. */
uint32_t pace_due(const struct pace *p, uint64_t now_ns, uint32_t max);
static inline void pace_advance(struct pace *p, uint64_t n)
{
	p->k += n;
}

#endif
