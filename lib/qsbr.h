/* SPDX-License-Identifier: BSD-2-Clause */
/* qsbr.h — quiescent-state-based reclamation: how ppslab-rut frees what its forwarding
 * threads may still be reading (a replaced rule set, a table's old hash, a removed
 * dynamic state) without a lock on the forwarding path
 * (docs/design/ipfw-fidelity.md#built-for-several-forwarding-threads).
 *
 * Readers (forwarding threads, ids 0..n-1) load shared pointers with acquire and use
 * them freely between two quiescent points: a quiescent point is a place where the
 * thread holds no such pointer (between bursts). A writer publishes the new object
 * with a release store, then retires the old one: qsbr_retire tags it with a new epoch
 * E, and qsbr_reclaim runs its free function once every online thread has passed a
 * quiescent point at or after E (its `seen` epoch >= E). A thread that waits (sleeps,
 * blocks in epoll) goes offline first and holds up nobody; it comes back online before
 * it reads a shared pointer again.
 *
 * Cost on the forwarding path: one acquire load of the epoch and one release store per
 * quiescent point, into the thread's own cache line. Retiring and reclaiming take a
 * mutex (the control path only). The free functions run in qsbr_reclaim's caller, so
 * whoever calls it must own what they touch (in ppslab-rut: the thread that runs
 * control commands). */
#ifndef PPSLAB_LIB_QSBR_H
#define PPSLAB_LIB_QSBR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define QSBR_MAX 64
#define QSBR_OFFLINE UINT64_MAX

struct qsbr_slot {
	_Alignas(64) _Atomic uint64_t seen;   /* epoch at its last quiescent point */
};

struct qsbr_item;

struct qsbr {
	_Alignas(64) _Atomic uint64_t epoch;
	int n;
	struct qsbr_slot slot[QSBR_MAX];
	pthread_mutex_t lock;              /* the list of retired objects */
	struct qsbr_item *limbo;
	_Atomic uint64_t retired, freed, pending;
};

/* n threads (1..QSBR_MAX), all online at epoch 1. 0 or -EINVAL. */
int qsbr_init(struct qsbr *q, int n);
/* Frees everything still retired (no thread may be reading any more). */
void qsbr_fini(struct qsbr *q);

/* Thread tid holds no shared pointer here. */
static inline void qsbr_quiescent(struct qsbr *q, int tid)
{
	uint64_t e = atomic_load_explicit(&q->epoch, memory_order_acquire);
	atomic_store_explicit(&q->slot[tid].seen, e, memory_order_release);
}
/* Thread tid stops reading until qsbr_online (before a sleep or a blocking wait). */
void qsbr_offline(struct qsbr *q, int tid);
/* Thread tid reads again; what it loads from here on is current. */
void qsbr_online(struct qsbr *q, int tid);

/* fn(arg) once every thread has passed a quiescent point after now. The writer has
 * already unpublished what arg names. When no memory is left for the record, waits
 * for that (qsbr_synchronize, self excluded) and calls fn at once. */
void qsbr_retire(struct qsbr *q, int self, void (*fn)(void *), void *arg);
/* Runs the free functions whose grace period has passed; returns how many. */
int qsbr_reclaim(struct qsbr *q);
/* Waits until every online thread but self has passed a quiescent point. */
void qsbr_synchronize(struct qsbr *q, int self);

#endif
