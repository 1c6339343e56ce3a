/* SPDX-License-Identifier: BSD-2-Clause */
/* thread.h — starting a worker thread on a CPU of the user's choice (--cpus).
 *
 * Linux, FreeBSD and DragonFly pin through pthread_attr_setaffinity_np; elsewhere the
 * thread runs where the scheduler puts it. As the programs always did, a CPU that
 * cannot be set is not an error here: pthread_create reports it if it matters. */
#ifndef PPSLAB_LIB_THREAD_H
#define PPSLAB_LIB_THREAD_H

#include <pthread.h>

/* Asks attr's thread to run on CPU cpu only; cpu < 0: anywhere (attr unchanged). */
void thread_attr_cpu(pthread_attr_t *attr, int cpu);
/* Starts fn(arg) in *th on CPU cpu (< 0: anywhere): 0 or −errno of pthread_create. */
int thread_start(pthread_t *th, int cpu, void *(*fn)(void *), void *arg);

#endif
