/* SPDX-License-Identifier: BSD-2-Clause */
/* csum.c — RFC 1071 checksums and RFC 1624 incremental updates (see csum.h).
 * Called by the frame builder (gen), the classifier (sink, rut) and the forwarder's
 * TTL rewrite. */
#include "csum.h"

#include <string.h>

uint32_t csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t acc = sum;

	while (len >= 8) {
		uint32_t a, b;
		memcpy(&a, p, 4);
		memcpy(&b, p + 4, 4);
		acc += (uint64_t)a + b;
		p += 8;
		len -= 8;
	}
	while (len >= 2) {
		uint16_t w;
		memcpy(&w, p, 2);
		acc += w;
		p += 2;
		len -= 2;
	}
	if (len) {
		uint8_t last[2] = { p[0], 0 };
		uint16_t w;
		memcpy(&w, last, 2);
		acc += w;
	}
	/* fold 64 -> 32 bits keeping the end-around carries */
	while (acc >> 32)
		acc = (acc & 0xffffffffULL) + (acc >> 32);
	return (uint32_t)acc;
}

uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t csum_ip4_hdr(const void *iph, size_t hlen)
{
	const uint8_t *h = iph;
	uint32_t s = csum_add(0, h, 10);          /* up to the checksum field */
	s = csum_add(s, h + 12, hlen - 12);       /* skip it */
	return csum_fold(s);
}

static uint32_t pseudo4(const void *saddr, const void *daddr, size_t udp_len)
{
	uint8_t ph[12];
	memcpy(ph, saddr, 4);
	memcpy(ph + 4, daddr, 4);
	ph[8] = 0;
	ph[9] = 17;
	ph[10] = (uint8_t)(udp_len >> 8);
	ph[11] = (uint8_t)udp_len;
	return csum_add(0, ph, sizeof(ph));
}

uint16_t csum_udp4(const void *saddr, const void *daddr, const void *udp, size_t udp_len)
{
	const uint8_t *u = udp;
	uint32_t s = pseudo4(saddr, daddr, udp_len);
	s = csum_add(s, u, 6);                    /* ports and length */
	s = csum_add(s, u + 8, udp_len - 8);      /* data, skipping the checksum field */
	return csum_udp_nonzero(csum_fold(s));
}

int csum_ip4_ok(const void *iph, size_t hlen)
{
	return csum_fold(csum_add(0, iph, hlen)) == 0;
}

int csum_udp4_ok(const void *saddr, const void *daddr, const void *udp, size_t udp_len)
{
	const uint8_t *u = udp;
	if (u[6] == 0 && u[7] == 0)
		return 1;
	uint32_t s = pseudo4(saddr, daddr, udp_len);
	return csum_fold(csum_add(s, u, udp_len)) == 0;
}

static uint16_t add1c(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

uint16_t csum_replace16(uint16_t hc, uint16_t old16, uint16_t new16)
{
	uint32_t s = (uint16_t)~hc;
	s += (uint16_t)~old16;
	s += new16;
	return (uint16_t)~add1c(s);
}

uint16_t csum_replace32(uint16_t hc, uint32_t old32, uint32_t new32)
{
	uint32_t s = (uint16_t)~hc;
	s += (uint16_t)~(old32 & 0xffff);
	s += (uint16_t)~(old32 >> 16);
	s += new32 & 0xffff;
	s += new32 >> 16;
	return (uint16_t)~add1c(s);
}

uint16_t csum_replace_bytes(uint16_t hc, const void *old, const void *new_, size_t len)
{
	const uint8_t *o = old, *n = new_;
	uint32_t s = (uint16_t)~hc;
	for (size_t i = 0; i + 1 < len; i += 2) {
		uint16_t ow, nw;
		memcpy(&ow, o + i, 2);
		memcpy(&nw, n + i, 2);
		s += (uint16_t)~ow;
		s += nw;
		s = add1c(s);
	}
	return (uint16_t)~add1c(s);
}
