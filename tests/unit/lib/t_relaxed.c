/* SPDX-License-Identifier: BSD-2-Clause */
/* t_relaxed.c — one-writer counters: add, subtract (modulo 2^64, as a difference of two
 * counts may go either way), set, and a reader on another thread sees only values the
 * writer wrote, never decreasing, and the last one once the writer is joined. */
#include <pthread.h>

#include "relaxed.h"
#include "tap.h"

static void t_ops(void)
{
	_Atomic uint64_t c = 0;
	relaxed_add(&c, 5);
	relaxed_add(&c, 7);
	T_EQ_U64(relaxed_get(&c), 12);
	relaxed_sub(&c, 2);
	T_EQ_U64(relaxed_get(&c), 10);
	relaxed_sub(&c, 11);
	T_EQ_U64(relaxed_get(&c), UINT64_MAX);
	relaxed_add(&c, 1);
	T_EQ_U64(relaxed_get(&c), 0);
	relaxed_set(&c, 42);
	T_EQ_U64(relaxed_get(&c), 42);
}

#define N 2000000u
static _Atomic uint64_t shared;
static _Atomic int done;

static void *writer(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < N; i++)
		relaxed_add(&shared, 3);
	atomic_store(&done, 1);
	return NULL;
}

static void t_reader(void)
{
	pthread_t th;
	uint64_t prev = 0, bad = 0;
	T_EQ_INT(pthread_create(&th, NULL, writer, NULL), 0);
	while (!atomic_load(&done)) {
		uint64_t v = relaxed_get(&shared);
		if (v < prev || v % 3 || v > 3ull * N)
			bad++;
		prev = v;
	}
	pthread_join(th, NULL);
	T_EQ_U64(bad, 0);
	T_EQ_U64(relaxed_get(&shared), 3ull * N);
}

int main(void)
{
	T_RUN(t_ops);
	T_RUN(t_reader);
	return t_done();
}
