/* SPDX-License-Identifier: BSD-2-Clause */
/* clock.c — absolute-deadline waits (see clock.h). Used by the sender's pacing, the
 * forwarder's poll clock and every interval reporter. */
#include "clock.h"

#include <errno.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

void clock_low_slack(void)
{
#ifdef __linux__
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
#endif
}

uint64_t clock_wait_until(uint64_t deadline_ns, uint64_t spin_ns)
{
	uint64_t now = mono_ns();
	if (now + spin_ns < deadline_ns) {
		uint64_t wake = deadline_ns - spin_ns;
		struct timespec ts = { .tv_sec = (time_t)(wake / NS_PER_S),
				       .tv_nsec = (long)(wake % NS_PER_S) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = mono_ns();
	}
	while (now < deadline_ns)
		now = mono_ns();
	return now;
}
