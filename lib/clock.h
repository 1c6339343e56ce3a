/* SPDX-License-Identifier: BSD-2-Clause */
/* clock.h — time in nanoseconds and sleeping until absolute deadlines.
 *
 * Pacing and intervals use CLOCK_MONOTONIC (never steps). Transmit timestamps in the
 * signature use CLOCK_REALTIME by default, so that a sink on another box with PTP/NTP
 * can compute one-way delay; kernel receive timestamps are CLOCK_REALTIME too. */
#ifndef PPSLAB_LIB_CLOCK_H
#define PPSLAB_LIB_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_S 1000000000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_US 1000ULL

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static inline uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static inline uint64_t real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

/* Sets this thread's timer slack to 1 ns so that sleeps end when asked, not up to 50 us
 * later (the Linux default). No-op elsewhere. */
void clock_low_slack(void);

/* Sleeps until deadline (CLOCK_MONOTONIC ns): with clock_nanosleep(TIMER_ABSTIME) while
 * more than spin_ns remain, then by spinning on the clock. Returns the time it woke. */
uint64_t clock_wait_until(uint64_t deadline_ns, uint64_t spin_ns);

#endif
