/* SPDX-License-Identifier: BSD-2-Clause */
/* runctl.h — how every tool's main thread waits: for the next interval, for a worker to
 * finish, or for SIGINT/SIGTERM, without async signal handlers.
 *
 * runctl_init blocks SIGINT, SIGTERM and SIGUSR1 in the calling thread before any worker
 * is created (workers inherit the mask), then the main thread waits with sigtimedwait.
 * A signal sets `stop`, which workers read once per batch; a worker that finishes on
 * its own calls runctl_wake so the main thread prints the summary at once. */
#ifndef PPSLAB_LIB_RUNCTL_H
#define PPSLAB_LIB_RUNCTL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

struct runctl {
	sigset_t set;
	pthread_t main_thread;
	atomic_int stop;        /* set by a signal or by main: workers stop at the next batch */
	atomic_int sig;         /* the signal that stopped us, or 0 */
};

void runctl_init(struct runctl *rc);
/* Waits until deadline (CLOCK_MONOTONIC ns) or a signal/wake. Returns 0 on timeout, the
 * signal number otherwise. SIGINT/SIGTERM also set rc->stop. */
int runctl_wait_until(struct runctl *rc, uint64_t deadline_ns);
/* Called by a worker when it is done. */
void runctl_wake(struct runctl *rc);
static inline int runctl_stopped(struct runctl *rc)
{
	return atomic_load_explicit(&rc->stop, memory_order_relaxed);
}

#endif
