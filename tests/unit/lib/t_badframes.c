/* SPDX-License-Identifier: BSD-2-Clause */
/* t_badframes.c — the bad frames of docs/bad-input.md that t_pkt.c does not craft: ARP,
 * 802.1ad double tags, an IPv6 packet behind the IPv4 ethertype, a header length below
 * 20, a fragment with an offset (not only MF), frames of 0..13 bytes, options together
 * with a bad checksum (the checksum wins: the forwarder must not forward it), a UDP
 * checksum of 0 (none, valid), a signature cut short, and random bytes: each gets its
 * class from pkt_classify and from pkt_parse_ip4 (the forwarder's parse), never a crash
 * and never PKT_TEST. */
#include <arpa/inet.h>
#include <stdlib.h>

#include "faults.h"
#include "pkt.h"
#include "tap.h"

static uint8_t base[PKT_FRAME_MAX];
static uint32_t base_len;

static void mk_base(void)
{
	char err[128];
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64 };
	f.src_ip = htonl(0xc6120002);
	f.dst_ip = htonl(0xc6130002);
	base_len = pkt_frame_len(64);
	if (pkt_build_template(&f, base_len, 1, 0, 0, base, err, sizeof(err)))
		abort();
}

/* A copy of exactly len bytes on the heap, so that a read past it is caught under ASan. */
static enum pkt_class classify(const uint8_t *fr, size_t len, bool l3_only)
{
	uint8_t *c = malloc(len ? len : 1);
	memcpy(c, fr, len);
	struct pkt_info pi;
	enum pkt_class k = l3_only ? pkt_parse_ip4(c, len, &pi) : pkt_classify(c, len, 9, true, &pi);
	free(c);
	return k;
}

static void t_link_layer(void)
{
	uint8_t fr[PKT_FRAME_MAX];
	memcpy(fr, base, base_len);
	fr[12] = 0x08; fr[13] = 0x06;                     /* ARP */
	T_EQ_INT(classify(fr, base_len, false), PKT_NOT_IP4);
	T_EQ_INT(classify(fr, base_len, true), PKT_NOT_IP4);
	memcpy(fr, base, base_len);
	fr[12] = 0x88; fr[13] = 0xa8;                     /* 802.1ad (QinQ) outer tag */
	T_EQ_INT(classify(fr, base_len, false), PKT_NOT_IP4);
	memcpy(fr, base, base_len);
	fr[12] = 0x81; fr[13] = 0x00;                     /* 802.1Q: the forwarder's view */
	T_EQ_INT(classify(fr, base_len, true), PKT_NOT_IP4);
	memcpy(fr, base, base_len);
	fr[PKT_IP_OFF] = 0x60;                            /* IPv6 behind 0x0800 */
	T_EQ_INT(classify(fr, base_len, false), PKT_NOT_IP4);
	T_EQ_INT(classify(fr, base_len, true), PKT_NOT_IP4);
}

static void t_short_frames(void)
{
	for (size_t n = 0; n < 14; n++)
		T_EQ_INT(classify(base, n, false), PKT_TRUNCATED);
	T_EQ_INT(classify(base, 14, false), PKT_TRUNCATED);   /* Ethernet only */
	T_EQ_INT(classify(base, 33, true), PKT_TRUNCATED);    /* 19 bytes of IP header */
	/* IP and UDP fine, 3 bytes of signature: not a test frame */
	uint8_t fr[PKT_FRAME_MAX];
	memcpy(fr, base, base_len);
	uint16_t il = 20 + 8 + 3, ul = 8 + 3;
	fr[PKT_IP_OFF + 2] = (uint8_t)(il >> 8); fr[PKT_IP_OFF + 3] = (uint8_t)il;
	fr[PKT_UDP_OFF + 4] = (uint8_t)(ul >> 8); fr[PKT_UDP_OFF + 5] = (uint8_t)ul;
	fault_fix_ip(fr);
	fault_fix_udp(fr);
	T_EQ_INT(classify(fr, PKT_ETH_LEN + il, false), PKT_FOREIGN);
}

static void t_ip_header(void)
{
	uint8_t fr[PKT_FRAME_MAX];
	memcpy(fr, base, base_len);
	fr[PKT_IP_OFF] = 0x44;                            /* IHL 16 bytes */
	fault_fix_ip(fr);
	T_EQ_INT(classify(fr, base_len, false), PKT_BAD_LEN);
	T_EQ_INT(classify(fr, base_len, true), PKT_BAD_LEN);

	memcpy(fr, base, base_len);
	fr[PKT_IP_OFF] = 0x4f;                            /* IHL 60, the frame is shorter */
	T_EQ_INT(classify(fr, 60, true), PKT_TRUNCATED);

	memcpy(fr, base, base_len);
	fr[PKT_IP_OFF + 6] = 0x00; fr[PKT_IP_OFF + 7] = 0x10;   /* offset 128 bytes, no MF */
	fault_fix_ip(fr);
	T_EQ_INT(classify(fr, base_len, false), PKT_IP_FRAGMENT);
	T_EQ_INT(classify(fr, base_len, true), PKT_IP_FRAGMENT);

	memcpy(fr, base, base_len);
	fr[PKT_IP_OFF + 6] = 0x40;                        /* DF: not a fragment */
	fault_fix_ip(fr);
	T_EQ_INT(classify(fr, base_len, false), PKT_TEST);

	/* options and a bad header checksum: the checksum decides, so the forwarder (which
	 * forwards options) drops it as malformed */
	uint32_t len = base_len;
	memcpy(fr, base, base_len);
	fault_apply("ip_options", fr, &len);
	T_EQ_INT(classify(fr, len, true), PKT_IP_OPTIONS);
	fr[PKT_IP_OFF + 10] ^= 0x11;
	T_EQ_INT(classify(fr, len, true), PKT_BAD_IP_CSUM);
	T_EQ_INT(classify(fr, len, false), PKT_BAD_IP_CSUM);
}

static void t_udp(void)
{
	uint8_t fr[PKT_FRAME_MAX];
	memcpy(fr, base, base_len);
	fr[PKT_UDP_OFF + 6] = fr[PKT_UDP_OFF + 7] = 0;    /* no checksum: valid (RFC 768) */
	T_EQ_INT(classify(fr, base_len, false), PKT_TEST);
	memcpy(fr, base, base_len);
	fr[PKT_UDP_OFF + 4] = 0; fr[PKT_UDP_OFF + 5] = 7; /* UDP length below its header */
	T_EQ_INT(classify(fr, base_len, false), PKT_BAD_LEN);
}

/* 20000 frames of random bytes (a fixed seed), half of them behind a valid Ethernet
 * and IPv4 start: never a test frame, always a class with a name. */
static void t_random_bytes(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int bad = 0;
	for (int i = 0; i < 20000; i++) {
		uint8_t fr[256];
		size_t len = (size_t)(i % 200);
		for (size_t k = 0; k < len; k++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			fr[k] = (uint8_t)x;
		}
		if (i & 1 && len >= 34) {
			fr[12] = 0x08; fr[13] = 0x00; fr[14] = 0x45;
		}
		enum pkt_class a = classify(fr, len, false), b = classify(fr, len, true);
		if (a == PKT_TEST || a >= PKT_CLASS_MAX || b >= PKT_CLASS_MAX ||
		    !strcmp(pkt_class_name(a), "unknown"))
			bad++;
	}
	T_EQ_INT(bad, 0);
}

int main(void)
{
	mk_base();
	T_RUN(t_link_layer);
	T_RUN(t_short_frames);
	T_RUN(t_ip_header);
	T_RUN(t_udp);
	T_RUN(t_random_bytes);
	return t_done();
}
