/* SPDX-License-Identifier: BSD-2-Clause */
/* thread.c — worker threads pinned to a CPU (see thread.h). */
#include "thread.h"

#include <sched.h>
#if defined(__FreeBSD__) || defined(__DragonFly__)
#include <pthread_np.h>
#endif
#if defined(__FreeBSD__)
#include <sys/param.h>
#include <sys/cpuset.h>
typedef cpuset_t cpu_set_t;
#endif

void thread_attr_cpu(pthread_attr_t *attr, int cpu)
{
#if defined(__linux__) || defined(__FreeBSD__) || defined(__DragonFly__)
	if (cpu < 0)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_setaffinity_np(attr, sizeof(set), &set);
#else
	(void)attr;
	(void)cpu;
#endif
}

int thread_start(pthread_t *th, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	thread_attr_cpu(&attr, cpu);
	int e = pthread_create(th, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -e;
}
