/* SPDX-License-Identifier: BSD-2-Clause */
/* t_rng.c — splitmix64 and xorshift64* give the published sequences (values from the
 * reference algorithms), so every user of lib/rng.h draws the numbers it drew before. */
#include "rng.h"
#include "tap.h"

static void t_splitmix64(void)
{
	T_EQ_U64(rng_splitmix64(0), 0xe220a8397b1dcdafULL);  /* Vigna's splitmix64.c, seed 0 */
	T_EQ_U64(rng_splitmix64(1), 0x910a2dec89025cc1ULL);
}

static void t_xs64(void)
{
	uint64_t s = 1;
	T_EQ_U64(rng_xs64(&s), 0x47e4ce4b896cdd1dULL);
	T_EQ_U64(s, 0x2000001ULL);
	T_EQ_U64(rng_xs64(&s), 0xabcfa6a8e079651dULL);
	T_EQ_U64(rng_xs64(&s), 0xb9d10d8feb731f57ULL);
	T_EQ_U64(s, 0xd004003202803ULL);
}

int main(void)
{
	T_RUN(t_splitmix64);
	T_RUN(t_xs64);
	return t_done();
}
