/* SPDX-License-Identifier: BSD-2-Clause */
/* t_thread.c — thread_start runs the function on the CPU asked for (Linux: the thread's
 * affinity is that one CPU), and anywhere, as its caller may, for cpu < 0. */
#include <sched.h>
#include <stdlib.h>

#include "tap.h"
#include "thread.h"

struct seen {
	int ran;
	int ncpu;     /* CPUs in the thread's affinity mask */
	int cpu0;     /* CPU 0 among them */
};

static void *probe(void *arg)
{
	struct seen *s = arg;
	s->ran = 1;
#if defined(__linux__)
	cpu_set_t set;
	CPU_ZERO(&set);
	if (!pthread_getaffinity_np(pthread_self(), sizeof(set), &set)) {
		s->ncpu = CPU_COUNT(&set);
		s->cpu0 = CPU_ISSET(0, &set);
	}
#endif
	return NULL;
}

static void t_pinned(void)
{
	struct seen s = { 0 };
	pthread_t th;
	T_EQ_INT(thread_start(&th, 0, probe, &s), 0);
	pthread_join(th, NULL);
	T_TRUE(s.ran);
#if defined(__linux__)
	T_EQ_INT(s.ncpu, 1);
	T_TRUE(s.cpu0);
#endif
}

static void t_anywhere(void)
{
	struct seen s = { 0 }, me = { 0 };
	pthread_t th;
	probe(&me);    /* the caller's own mask: what an unpinned thread inherits */
	T_EQ_INT(thread_start(&th, -1, probe, &s), 0);
	pthread_join(th, NULL);
	T_TRUE(s.ran);
	T_EQ_INT(s.ncpu, me.ncpu);
}

int main(void)
{
	T_RUN(t_pinned);
	T_RUN(t_anywhere);
	return t_done();
}
