/* SPDX-License-Identifier: BSD-2-Clause */
/* relaxed.h — counters with one writer, read by other threads.
 *
 * The worker that owns a counter updates it with a relaxed load and a relaxed store (no
 * locked read-modify-write on the packet path); a reader on another thread sees each
 * value whole, possibly a little behind. Only one thread may write a counter: two
 * writers would lose updates. ppslab-gen, ppslab-sink and ppslab-rut keep their
 * per-thread counters this way. */
#ifndef PPSLAB_LIB_RELAXED_H
#define PPSLAB_LIB_RELAXED_H

#include <stdatomic.h>
#include <stdint.h>

static inline uint64_t relaxed_get(const _Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static inline void relaxed_set(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, v, memory_order_relaxed);
}

static inline void relaxed_add(_Atomic uint64_t *c, uint64_t v)
{
	relaxed_set(c, atomic_load_explicit(c, memory_order_relaxed) + v);
}

static inline void relaxed_sub(_Atomic uint64_t *c, uint64_t v)
{
	relaxed_set(c, atomic_load_explicit(c, memory_order_relaxed) - v);
}

#endif
