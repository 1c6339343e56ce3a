/* SPDX-License-Identifier: BSD-2-Clause */
/* qsbr.c — quiescent-state-based reclamation (see qsbr.h). Used by the firewall (fw.c,
 * fw_lpm.c, fw_dyn.c) through fw_retire, set up by fwdloop.c, one slot per forwarding
 * thread; tests/unit/lib/t_qsbr.c checks it with real threads.
 *
 * Why it is correct: a writer stores the new pointer, then takes epoch E (a seq_cst
 * increment). A reader whose quiescent point stored seen >= E read the epoch after that
 * increment, so every load it makes afterwards sees the new pointer, and its release
 * store orders its earlier uses of the old object before the reclaimer's acquire load
 * of `seen`. Going online is a store of `seen` followed by a full fence, paired with
 * the fence in qsbr_reclaim before it reads the slots: either the reclaimer sees the
 * thread online (and waits for it), or the thread sees the new pointer. */
#include "qsbr.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

struct qsbr_item {
	struct qsbr_item *next;
	uint64_t epoch;
	void (*fn)(void *);
	void *arg;
};

int qsbr_init(struct qsbr *q, int n)
{
	if (n < 1 || n > QSBR_MAX)
		return -EINVAL;
	atomic_init(&q->epoch, 1);
	q->n = n;
	for (int i = 0; i < QSBR_MAX; i++)
		atomic_init(&q->slot[i].seen, i < n ? 1 : QSBR_OFFLINE);
	pthread_mutex_init(&q->lock, NULL);
	q->limbo = NULL;
	atomic_init(&q->retired, 0);
	atomic_init(&q->freed, 0);
	atomic_init(&q->pending, 0);
	return 0;
}

void qsbr_fini(struct qsbr *q)
{
	struct qsbr_item *it = q->limbo;
	q->limbo = NULL;
	while (it) {
		struct qsbr_item *nx = it->next;
		it->fn(it->arg);
		free(it);
		it = nx;
	}
	pthread_mutex_destroy(&q->lock);
}

void qsbr_offline(struct qsbr *q, int tid)
{
	atomic_store_explicit(&q->slot[tid].seen, QSBR_OFFLINE, memory_order_release);
}

void qsbr_online(struct qsbr *q, int tid)
{
	uint64_t e = atomic_load_explicit(&q->epoch, memory_order_acquire);
	atomic_store_explicit(&q->slot[tid].seen, e, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
}

/* The oldest epoch some thread (not self) may still be reading in. */
static uint64_t min_seen(struct qsbr *q, int self)
{
	atomic_thread_fence(memory_order_seq_cst);
	uint64_t m = QSBR_OFFLINE;
	for (int i = 0; i < q->n; i++) {
		if (i == self)
			continue;
		uint64_t s = atomic_load_explicit(&q->slot[i].seen, memory_order_acquire);
		if (s < m)
			m = s;
	}
	return m;
}

void qsbr_synchronize(struct qsbr *q, int self)
{
	uint64_t e = atomic_fetch_add(&q->epoch, 1) + 1;
	for (unsigned spin = 0; min_seen(q, self) < e; spin++) {
		if (spin < 64) {
			sched_yield();
		} else {
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL);
		}
	}
}

void qsbr_retire(struct qsbr *q, int self, void (*fn)(void *), void *arg)
{
	struct qsbr_item *it = malloc(sizeof(*it));
	if (!it) {
		qsbr_synchronize(q, self);
		fn(arg);
		atomic_fetch_add_explicit(&q->retired, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&q->freed, 1, memory_order_relaxed);
		return;
	}
	it->fn = fn;
	it->arg = arg;
	it->epoch = atomic_fetch_add(&q->epoch, 1) + 1;
	pthread_mutex_lock(&q->lock);
	it->next = q->limbo;
	q->limbo = it;
	pthread_mutex_unlock(&q->lock);
	atomic_fetch_add_explicit(&q->retired, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&q->pending, 1, memory_order_relaxed);
}

int qsbr_reclaim(struct qsbr *q)
{
	if (!atomic_load_explicit(&q->pending, memory_order_relaxed))
		return 0;
	uint64_t safe = min_seen(q, -1);
	struct qsbr_item *done = NULL;
	pthread_mutex_lock(&q->lock);
	for (struct qsbr_item **pp = &q->limbo; *pp;) {
		struct qsbr_item *it = *pp;
		if (it->epoch <= safe) {
			*pp = it->next;
			it->next = done;
			done = it;
		} else {
			pp = &it->next;
		}
	}
	pthread_mutex_unlock(&q->lock);
	/* the list is newest first, so done is oldest first: freed in retire order */
	int n = 0;
	while (done) {
		struct qsbr_item *nx = done->next;
		done->fn(done->arg);
		free(done);
		done = nx;
		n++;
	}
	atomic_fetch_add_explicit(&q->freed, (uint64_t)n, memory_order_relaxed);
	atomic_fetch_sub_explicit(&q->pending, (uint64_t)n, memory_order_relaxed);
	return n;
}
