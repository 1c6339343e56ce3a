/* SPDX-License-Identifier: BSD-2-Clause */
/* faults.h — turns a valid 64-byte test frame into one of each classifier class, for the
 * sink's unit tests and the frame-crafting helper of the integration tests (craft.c).
 * Each fault is made the way a broken sender or a damaged link would make it, with the
 * other checksums recomputed so that exactly one thing is wrong. Header-only (static). */
#ifndef PPSLAB_TESTS_HELPERS_FAULTS_H
#define PPSLAB_TESTS_HELPERS_FAULTS_H

#include <string.h>

#include "csum.h"
#include "pkt.h"
#include "pkt6.h"

static inline void fault_fix_ip(uint8_t *fr)
{
	fr[PKT_IP_OFF + 10] = fr[PKT_IP_OFF + 11] = 0;
	uint16_t c = csum_ip4_hdr(fr + PKT_IP_OFF, (fr[PKT_IP_OFF] & 15) * 4u);
	memcpy(fr + PKT_IP_OFF + 10, &c, 2);
}

static inline void fault_fix_udp(uint8_t *fr)
{
	unsigned ihl = (fr[PKT_IP_OFF] & 15) * 4u;
	uint8_t *udp = fr + PKT_IP_OFF + ihl;
	uint16_t ulen = (uint16_t)(udp[4] << 8 | udp[5]);
	udp[6] = udp[7] = 0;
	uint16_t c = csum_udp4(fr + PKT_IP_OFF + 12, fr + PKT_IP_OFF + 16, udp, ulen);
	memcpy(udp + 6, &c, 2);
}

/* Class names as pkt_class_name() spells them; "test" leaves the frame valid. Works on a
 * frame of *len bytes (60 for 64-byte frames) in a buffer of at least *len + 4 bytes;
 * may change *len. Returns the class the sink must put it in, or -1 for an unknown
 * name. */
static inline int fault_apply(const char *name, uint8_t *fr, uint32_t *len)
{
	if (!strcmp(name, "test"))
		return PKT_TEST;
	if (!strcmp(name, "truncated")) {          /* IP says more than the frame holds */
		uint16_t il = (uint16_t)(*len - PKT_ETH_LEN + 40);
		fr[PKT_IP_OFF + 2] = (uint8_t)(il >> 8);
		fr[PKT_IP_OFF + 3] = (uint8_t)il;
		fault_fix_ip(fr);
		return PKT_TRUNCATED;
	}
	if (!strcmp(name, "not_ip4")) {            /* an IPv6 ethertype */
		fr[12] = 0x86;
		fr[13] = 0xdd;
		return PKT_NOT_IP4;
	}
	if (!strcmp(name, "ip_options")) {        /* 4 bytes of NOP options inserted */
		memmove(fr + PKT_UDP_OFF + 4, fr + PKT_UDP_OFF, *len - PKT_UDP_OFF);
		memset(fr + PKT_UDP_OFF, 1, 4);
		*len += 4;
		fr[PKT_IP_OFF] = 0x46;
		uint16_t il = (uint16_t)(fr[PKT_IP_OFF + 2] << 8 | fr[PKT_IP_OFF + 3]) + 4;
		fr[PKT_IP_OFF + 2] = (uint8_t)(il >> 8);
		fr[PKT_IP_OFF + 3] = (uint8_t)il;
		fault_fix_ip(fr);
		fault_fix_udp(fr);
		return PKT_IP_OPTIONS;
	}
	if (!strcmp(name, "ip_fragment")) {       /* more fragments follow */
		fr[PKT_IP_OFF + 6] = 0x20;
		fault_fix_ip(fr);
		return PKT_IP_FRAGMENT;
	}
	if (!strcmp(name, "bad_ip_csum")) {
		fr[PKT_IP_OFF + 10] ^= 0x5a;
		return PKT_BAD_IP_CSUM;
	}
	if (!strcmp(name, "bad_len")) {           /* UDP length beyond the IP payload */
		fr[PKT_UDP_OFF + 4] = 0;
		fr[PKT_UDP_OFF + 5] = 200;
		return PKT_BAD_LEN;
	}
	if (!strcmp(name, "not_udp")) {           /* protocol TCP */
		fr[PKT_IP_OFF + 9] = 6;
		fault_fix_ip(fr);
		return PKT_NOT_UDP;
	}
	if (!strcmp(name, "wrong_port")) {        /* to port 10 instead of 9 */
		fr[PKT_UDP_OFF + 2] = 0;
		fr[PKT_UDP_OFF + 3] = 10;
		fault_fix_udp(fr);
		return PKT_WRONG_PORT;
	}
	if (!strcmp(name, "bad_udp_csum")) {
		fr[PKT_UDP_OFF + 6] ^= 0x5a;
		if (!fr[PKT_UDP_OFF + 6] && !fr[PKT_UDP_OFF + 7])
			fr[PKT_UDP_OFF + 7] = 1;          /* 0 would mean "no checksum" */
		return PKT_BAD_UDP_CSUM;
	}
	if (!strcmp(name, "foreign")) {           /* the test port, no magic */
		fr[PKT_PAYLOAD_OFF] ^= 0xff;
		fault_fix_udp(fr);
		return PKT_FOREIGN;
	}
	if (!strcmp(name, "bad_sig_version")) {
		fr[PKT_PAYLOAD_OFF + 2] = (uint8_t)((fr[PKT_PAYLOAD_OFF + 2] & 0x0f) | 0x70);
		fault_fix_udp(fr);
		return PKT_BAD_SIG_VERSION;
	}
	return -1;
}

/* IPv6: the UDP checksum of an IPv6 test frame recomputed. */
static inline void fault6_fix_udp(uint8_t *fr)
{
	uint8_t *udp = fr + PKT_UDP6_OFF;
	uint16_t ulen = (uint16_t)(udp[4] << 8 | udp[5]);
	uint16_t c = pkt6_udp_csum(fr + PKT_ETH_LEN, udp, ulen);
	memcpy(udp + 6, &c, 2);
}

/* The same for a valid 84-byte IPv6 test frame (80 bytes, pkt6_build_template): its
 * classes, each with exactly one thing wrong. */
static inline int fault6_apply(const char *name, uint8_t *fr, uint32_t *len)
{
	uint8_t *ip = fr + PKT_ETH_LEN, *udp = fr + PKT_UDP6_OFF;
	(void)len;
	if (!strcmp(name, "test"))
		return PKT_TEST;
	if (!strcmp(name, "truncated")) {          /* payload length past the frame */
		ip[5] = (uint8_t)(ip[5] + 40);
		return PKT_TRUNCATED;
	}
	if (!strcmp(name, "bad_len")) {            /* payload length shorter than UDP's */
		ip[5] = (uint8_t)(ip[5] - 6);
		return PKT_BAD_LEN;
	}
	if (!strcmp(name, "not_udp")) {            /* next header: no next header (59) */
		ip[6] = 59;
		return PKT_NOT_UDP;
	}
	if (!strcmp(name, "ip_fragment")) {        /* next header: a fragment header */
		ip[6] = 44;
		return PKT_IP_FRAGMENT;
	}
	if (!strcmp(name, "hop_limit_zero")) {
		ip[7] = 0;
		return PKT_HOP_LIMIT_ZERO;
	}
	if (!strcmp(name, "wrong_port")) {
		udp[2] = 0;
		udp[3] = 10;
		fault6_fix_udp(fr);
		return PKT_WRONG_PORT;
	}
	if (!strcmp(name, "bad_udp_csum")) {
		udp[6] ^= 0x5a;
		if (!udp[6] && !udp[7])
			udp[7] = 1;
		return PKT_BAD_UDP_CSUM;
	}
	if (!strcmp(name, "zero_udp_csum")) {      /* "none": not allowed over IPv6 */
		udp[6] = udp[7] = 0;
		return PKT_BAD_UDP_CSUM;
	}
	if (!strcmp(name, "foreign")) {
		fr[PKT_PAYLOAD6_OFF] ^= 0xff;
		fault6_fix_udp(fr);
		return PKT_FOREIGN;
	}
	if (!strcmp(name, "bad_sig_version")) {
		fr[PKT_PAYLOAD6_OFF + 2] = (uint8_t)((fr[PKT_PAYLOAD6_OFF + 2] & 0x0f) | 0x70);
		fault6_fix_udp(fr);
		return PKT_BAD_SIG_VERSION;
	}
	return -1;
}

#endif
