/* SPDX-License-Identifier: BSD-2-Clause */
/* rng.h — the two small generators ppslab uses where it needs numbers that look random
 * but repeat from a seed: splitmix64 (Steele, Lea, Flood 2014) turns any seed (0, 1,
 * 2 ...) into a well-mixed state, xorshift64* (Vigna 2014) draws from a non-zero state.
 * The Poisson schedule, random flows, random payload bytes and the plan's shuffle all
 * draw from these, so one seed means the same numbers everywhere. */
#ifndef PPSLAB_LIB_RNG_H
#define PPSLAB_LIB_RNG_H

#include <stdint.h>

static inline uint64_t rng_splitmix64(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* The next number; *s must not be 0 (it would stay 0). */
static inline uint64_t rng_xs64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
