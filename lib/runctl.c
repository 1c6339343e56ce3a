/* SPDX-License-Identifier: BSD-2-Clause */
/* runctl.c — signal-safe waiting for the main thread (see runctl.h). */
#include "runctl.h"

#include <errno.h>
#include <time.h>

#include "clock.h"

void runctl_init(struct runctl *rc)
{
	sigemptyset(&rc->set);
	sigaddset(&rc->set, SIGINT);
	sigaddset(&rc->set, SIGTERM);
	sigaddset(&rc->set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &rc->set, NULL);
	rc->main_thread = pthread_self();
	atomic_store(&rc->stop, 0);
	atomic_store(&rc->sig, 0);
}

int runctl_wait_until(struct runctl *rc, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = mono_ns();
		if (now >= deadline_ns)
			return 0;
		uint64_t d = deadline_ns - now;
		struct timespec ts = { .tv_sec = (time_t)(d / NS_PER_S), .tv_nsec = (long)(d % NS_PER_S) };
		int s = sigtimedwait(&rc->set, NULL, &ts);
		if (s < 0) {
			if (errno == EAGAIN)
				return 0;
			continue;   /* EINTR */
		}
		if (s == SIGINT || s == SIGTERM) {
			atomic_store(&rc->sig, s);
			atomic_store(&rc->stop, 1);
		}
		return s;
	}
}

void runctl_wake(struct runctl *rc)
{
	pthread_kill(rc->main_thread, SIGUSR1);
}
