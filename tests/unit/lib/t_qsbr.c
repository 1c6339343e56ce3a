/* SPDX-License-Identifier: BSD-2-Clause */
/* t_qsbr.c — quiescent-state-based reclamation (lib/qsbr.h): nothing
 * retired is freed while a thread that may hold it has not passed a quiescent point;
 * offline threads hold nobody up; and, with real threads, readers that swap in a new
 * object at every step never see one that was freed (the free function poisons the
 * object and keeps it, so a read after "free" shows in any build, and ASan sees the
 * real free at the end). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "qsbr.h"
#include "tap.h"

static int freed_count;
static void count_free(void *arg)
{
	(void)arg;
	freed_count++;
}

static void t_grace(void)
{
	struct qsbr q;
	T_EQ_INT(qsbr_init(&q, 3), 0);
	freed_count = 0;
	qsbr_retire(&q, 0, count_free, NULL);
	T_EQ_INT(qsbr_reclaim(&q), 0);            /* nobody has passed a quiescent point */
	qsbr_quiescent(&q, 0);
	qsbr_quiescent(&q, 1);
	T_EQ_INT(qsbr_reclaim(&q), 0);            /* thread 2 may still hold it */
	qsbr_quiescent(&q, 2);
	T_EQ_INT(qsbr_reclaim(&q), 1);
	T_EQ_INT(freed_count, 1);
	/* a quiescent point before the retire does not count */
	qsbr_quiescent(&q, 0);
	qsbr_quiescent(&q, 1);
	qsbr_quiescent(&q, 2);
	qsbr_retire(&q, 0, count_free, NULL);
	T_EQ_INT(qsbr_reclaim(&q), 0);
	qsbr_quiescent(&q, 0);
	qsbr_quiescent(&q, 1);
	qsbr_quiescent(&q, 2);
	T_EQ_INT(qsbr_reclaim(&q), 1);
	T_EQ_U64(atomic_load(&q.retired), 2);
	T_EQ_U64(atomic_load(&q.freed), 2);
	qsbr_fini(&q);
	T_EQ_INT(qsbr_init(&q, 0), -22);
	T_EQ_INT(qsbr_init(&q, QSBR_MAX + 1), -22);
}

static void t_offline(void)
{
	struct qsbr q;
	qsbr_init(&q, 2);
	freed_count = 0;
	qsbr_offline(&q, 1);                      /* asleep: holds nothing */
	qsbr_retire(&q, 0, count_free, NULL);
	qsbr_quiescent(&q, 0);
	T_EQ_INT(qsbr_reclaim(&q), 1);
	qsbr_online(&q, 1);                       /* back: what it reads now is current */
	qsbr_retire(&q, 0, count_free, NULL);
	qsbr_quiescent(&q, 0);
	T_EQ_INT(qsbr_reclaim(&q), 0);
	qsbr_quiescent(&q, 1);
	T_EQ_INT(qsbr_reclaim(&q), 1);
	/* what is left at the end is freed by fini */
	qsbr_retire(&q, 0, count_free, NULL);
	qsbr_fini(&q);
	T_EQ_INT(freed_count, 3);
}

/* ---- with threads ---- */

enum { LIVE = 0x11ce, DEAD = 0xdead };
struct obj {
	_Atomic int magic;
	int gen;
	struct obj *grave_next;
};

#define READERS 3
static struct qsbr gq;
static struct obj *_Atomic cur;
static _Atomic int stop, bad;
static struct obj *grave;   /* "freed" objects, poisoned, freed for real at the end */
static _Atomic uint64_t reads;

static void poison(void *arg)
{
	struct obj *o = arg;
	atomic_store(&o->magic, DEAD);
	o->grave_next = grave;
	grave = o;
}

static void *reader(void *arg)
{
	int tid = (int)(intptr_t)arg;
	uint64_t n = 0;
	while (!atomic_load(&stop)) {
		for (int k = 0; k < 64; k++) {
			struct obj *o = atomic_load_explicit(&cur, memory_order_acquire);
			if (atomic_load_explicit(&o->magic, memory_order_relaxed) != LIVE)
				atomic_fetch_add(&bad, 1);
			n++;
		}
		if (n % 4096 == 0) {
			/* now and then asleep, as an idle forwarding thread is */
			qsbr_offline(&gq, tid);
			sched_yield();
			qsbr_online(&gq, tid);
		} else {
			qsbr_quiescent(&gq, tid);
		}
	}
	qsbr_offline(&gq, tid);
	atomic_fetch_add(&reads, n);
	return NULL;
}

static void t_threads(void)
{
	pthread_t th[READERS];
	T_EQ_INT(qsbr_init(&gq, READERS + 1), 0);   /* slot READERS: the writer */
	qsbr_offline(&gq, READERS);
	struct obj *o = calloc(1, sizeof(*o));
	atomic_init(&o->magic, LIVE);
	atomic_store(&cur, o);
	for (int i = 0; i < READERS; i++)
		pthread_create(&th[i], NULL, reader, (void *)(intptr_t)i);
	int reclaimed = 0;
	for (int g = 1; g <= 20000; g++) {
		struct obj *n = calloc(1, sizeof(*n));
		atomic_init(&n->magic, LIVE);
		n->gen = g;
		struct obj *old = atomic_exchange_explicit(&cur, n, memory_order_acq_rel);
		qsbr_retire(&gq, READERS, poison, old);
		reclaimed += qsbr_reclaim(&gq);
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < READERS; i++)
		pthread_join(th[i], NULL);
	reclaimed += qsbr_reclaim(&gq);
	T_EQ_INT(atomic_load(&bad), 0);
	T_EQ_INT(reclaimed, 20000);               /* every reader offline: all of it */
	T_TRUE(atomic_load(&reads) > 0);
	qsbr_fini(&gq);
	free(atomic_load(&cur));
	while (grave) {
		struct obj *nx = grave->grave_next;
		free(grave);
		grave = nx;
	}
	printf("# %llu reads by %d threads while 20000 objects were replaced\n",
	       (unsigned long long)atomic_load(&reads), READERS);
}

/* synchronize returns once the others have passed a quiescent point */
static _Atomic int synced;
static void *late_reader(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 20 * 1000000 };
	nanosleep(&ts, NULL);
	qsbr_quiescent(&gq, 1);
	return NULL;
}

static void t_synchronize(void)
{
	pthread_t th;
	qsbr_init(&gq, 2);
	pthread_create(&th, NULL, late_reader, NULL);
	qsbr_synchronize(&gq, 0);
	atomic_store(&synced, 1);
	T_TRUE(atomic_load_explicit(&gq.slot[1].seen, memory_order_acquire) >= 2);
	pthread_join(th, NULL);
	qsbr_fini(&gq);
}

int main(void)
{
	T_RUN(t_grace);
	T_RUN(t_offline);
	T_RUN(t_threads);
	T_RUN(t_synchronize);
	return t_done();
}
