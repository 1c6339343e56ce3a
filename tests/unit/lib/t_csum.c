/* SPDX-License-Identifier: BSD-2-Clause */
/* t_csum.c — RFC 1071 checksums against known vectors and RFC 1624 incremental updates
 * against full recomputation. */
#include <stdlib.h>

#include "csum.h"
#include "tap.h"

static uint16_t be16(uint16_t stored)
{
	uint8_t b[2];
	memcpy(b, &stored, 2);
	return (uint16_t)(b[0] << 8 | b[1]);
}

static void t_rfc1071_example(void)
{
	/* RFC 1071 §3: the sum of 0001 f203 f4f5 f6f7 is ddf2; the checksum its complement */
	static const uint8_t d[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	T_EQ_U64(be16(csum_fold(csum_add(0, d, sizeof(d)))), 0x220d);
	/* odd length: the last byte is padded with zero */
	static const uint8_t o[] = { 0x00, 0x01, 0xf2 };
	T_EQ_U64(be16(csum_fold(csum_add(0, o, sizeof(o)))), (uint16_t)~(0x0001 + 0xf200));
}

static void t_ip4_header(void)
{
	/* a textbook header with checksum b861 */
	uint8_t h[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
			  0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	T_EQ_U64(be16(csum_ip4_hdr(h, 20)), 0xb861);
	T_TRUE(csum_ip4_ok(h, 20));
	h[11] ^= 1;
	T_TRUE(!csum_ip4_ok(h, 20));
}

static void t_udp4_vector(void)
{
	/* 198.18.0.2:9 -> 198.19.0.2:7, 18-byte payload 01 02 03 0..., as libnet computes */
	uint8_t src[4] = { 198, 18, 0, 2 }, dst[4] = { 198, 19, 0, 2 };
	uint8_t u[26] = { 0x00, 0x09, 0x00, 0x07, 0x00, 0x1a, 0x00, 0x00, 1, 2, 3 };
	uint16_t c = csum_udp4(src, dst, u, sizeof(u));
	T_EQ_U64(be16(c), 0x6f7e);
	memcpy(u + 6, &c, 2);
	T_TRUE(csum_udp4_ok(src, dst, u, sizeof(u)));
	u[20] ^= 0x40;
	T_TRUE(!csum_udp4_ok(src, dst, u, sizeof(u)));
	u[6] = u[7] = 0;   /* "no checksum" verifies */
	T_TRUE(csum_udp4_ok(src, dst, u, sizeof(u)));
}

static void t_rfc1624_example(void)
{
	/* RFC 1624 §4: HC 0xdd2f, m 0x5555 -> m' 0x3285 gives 0x0000 by eqn. 3 */
	T_EQ_U64(csum_replace16(0xdd2f, 0x5555, 0x3285), 0x0000);
}

static void t_incremental_matches_full(void)
{
	srand(1);
	for (int it = 0; it < 2000; it++) {
		uint8_t h[20];
		for (int i = 0; i < 20; i++)
			h[i] = (uint8_t)rand();
		h[0] = 0x45;
		uint16_t c = csum_ip4_hdr(h, 20);
		memcpy(h + 10, &c, 2);
		/* change TTL (16-bit word 4), an address (32 bits), and a range */
		uint16_t ow, nw;
		memcpy(&ow, h + 8, 2);
		h[8] = (uint8_t)rand();
		memcpy(&nw, h + 8, 2);
		c = csum_replace16(c, ow, nw);
		uint32_t oa, na;
		memcpy(&oa, h + 12, 4);
		na = (uint32_t)rand();
		memcpy(h + 12, &na, 4);
		c = csum_replace32(c, oa, na);
		uint8_t old[4];
		memcpy(old, h + 16, 4);
		for (int i = 16; i < 20; i++)
			h[i] = (uint8_t)rand();
		c = csum_replace_bytes(c, old, h + 16, 4);
		memcpy(h + 10, &c, 2);
		if (!csum_ip4_ok(h, 20)) {
			T_FAIL("iteration %d: incremental checksum does not verify", it);
			return;
		}
	}
}

int main(void)
{
	T_RUN(t_rfc1071_example);
	T_RUN(t_ip4_header);
	T_RUN(t_udp4_vector);
	T_RUN(t_rfc1624_example);
	T_RUN(t_incremental_matches_full);
	return t_done();
}
