/* SPDX-License-Identifier: BSD-2-Clause */
/* t_pkt6.c — the IPv6 test frame: its template (84 bytes the smallest), the UDP checksum
 * against a plain RFC 1071 sum over the RFC 8200 pseudo-header, the classifier's IPv6
 * classes (truncated, bad payload length, another next header, a fragment header, hop
 * limit 0, a bad or zero UDP checksum, another port, no magic), the benchmarking range. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pkt.h"
#include "pkt6.h"
#include "tap.h"

static struct pkt_flow flow6(void)
{
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64, .tos = 0xb8, .ipv = 6,
			      .flowlabel = 0xabcde };
	ip6_parse("2001:2::1", f.src6);
	ip6_parse("2001:2:0:1::2", f.dst6);
	return f;
}

static uint32_t build6(uint8_t *buf, uint32_t wire)
{
	char err[128];
	struct pkt_flow f = flow6();
	if (pkt6_build_template(&f, pkt_frame_len(wire), 3, SIG_F_REALTIME, 0xa5, buf, err,
				sizeof(err)))
		return 0;
	return pkt_frame_len(wire);
}

/* The reference: RFC 1071 one 16-bit word at a time over pseudo-header and datagram. */
static uint16_t ref_csum(const uint8_t *ip6, const uint8_t *udp, size_t ulen)
{
	uint32_t s = 0;
	for (int i = 8; i < 40; i += 2)
		s += (uint32_t)(ip6[i] << 8 | ip6[i + 1]);
	s += (uint32_t)ulen + 17;
	for (size_t i = 0; i < ulen; i += 2) {
		if (i == 6)
			continue;       /* the checksum field as 0 */
		s += (uint32_t)(udp[i] << 8 | (i + 1 < ulen ? udp[i + 1] : 0));
	}
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	uint16_t c = (uint16_t)~s;
	return c ? c : 0xffff;
}

static void t_template(void)
{
	uint8_t fr[PKT_FRAME_MAX];
	struct pkt_info pi;
	uint32_t n = build6(fr, PKT6_WIRE_MIN);
	T_EQ_U64(PKT6_WIRE_MIN, 84);
	T_EQ_U64(n, 80);
	T_EQ_U64(fr[12] << 8 | fr[13], 0x86dd);
	T_EQ_U64(fr[14] >> 4, 6);
	T_EQ_U64((fr[14] & 15) << 4 | fr[15] >> 4, 0xb8);                 /* traffic class */
	T_EQ_U64((uint32_t)(fr[15] & 15) << 16 | fr[16] << 8 | fr[17], 0xabcde);   /* flow label */
	T_EQ_U64(fr[18] << 8 | fr[19], 26);          /* payload length: UDP 8 + 18 */
	T_EQ_U64(fr[20], 17);
	T_EQ_U64(fr[21], 64);
	T_EQ_U64(fr[PKT_UDP6_OFF + 4] << 8 | fr[PKT_UDP6_OFF + 5], 26);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TEST);
	T_EQ_U64(pi.ipv, 6);
	T_EQ_U64(pi.ttl, 64);
	T_EQ_U64(pi.ip_len, 66);
	T_EQ_U64(pi.sig.stream, 3);
	T_EQ_U64(pi.sig.flags, SIG_F_REALTIME);
	T_EQ_U64(pi.payload_len, SIG_LEN);
	/* below the smallest: refused with the reason */
	char err[128] = "";
	struct pkt_flow f = flow6();
	T_EQ_INT(pkt6_build_template(&f, pkt_frame_len(64), 0, 0, 0, fr, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "80..") != NULL);
	T_EQ_INT(pkt6_build_template(&f, pkt_frame_len(83), 0, 0, 0, fr, err, sizeof(err)), -EINVAL);
}

static void t_checksum(void)
{
	static const uint32_t sizes[] = { 84, 85, 128, 1280, 1518, 9018 };
	uint8_t fr[PKT_FRAME_MAX];
	struct pkt_info pi;
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t n = build6(fr, sizes[i]);
		T_EQ_U64(n, sizes[i] - 4);
		uint16_t got, want = htons(ref_csum(fr + 14, fr + PKT_UDP6_OFF, n - PKT_UDP6_OFF));
		memcpy(&got, fr + PKT_UDP6_OFF + 6, 2);
		T_EQ_U64(got, want);
		T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TEST);
	}
	/* one byte of an address changed: the pseudo-header is covered */
	uint32_t n = build6(fr, 84);
	fr[14 + 8 + 15] ^= 1;
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_UDP_CSUM);
	T_EQ_INT(pkt_classify(fr, n, 9, false, &pi), PKT_TEST);
	/* zero: "no checksum" does not exist in IPv6 */
	n = build6(fr, 84);
	fr[PKT_UDP6_OFF + 6] = fr[PKT_UDP6_OFF + 7] = 0;
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_UDP_CSUM);
}

static void fix(uint8_t *fr, uint32_t n)
{
	uint16_t ulen = (uint16_t)(fr[PKT_UDP6_OFF + 4] << 8 | fr[PKT_UDP6_OFF + 5]);
	if (ulen > n - PKT_UDP6_OFF)
		ulen = (uint16_t)(n - PKT_UDP6_OFF);
	uint16_t c = pkt6_udp_csum(fr + 14, fr + PKT_UDP6_OFF, ulen);
	memcpy(fr + PKT_UDP6_OFF + 6, &c, 2);
}

static void t_classes(void)
{
	uint8_t base[PKT_FRAME_MAX], fr[PKT_FRAME_MAX];
	struct pkt_info pi;
	uint32_t n = build6(base, 128);

	T_EQ_INT(pkt_classify(base, 53, 9, true, &pi), PKT_TRUNCATED);    /* half a header */
	memcpy(fr, base, n);
	fr[18] = 0x07;                                  /* payload length past the frame */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TRUNCATED);
	memcpy(fr, base, n);
	fr[18] = 0;
	fr[19] = 20;                                    /* shorter than the UDP length says */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_LEN);
	memcpy(fr, base, n);
	fr[19] = 4;                                     /* not even a UDP header */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_LEN);
	memcpy(fr, base, n);
	fr[20] = 58;                                    /* ICMPv6 */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_NOT_UDP);
	memcpy(fr, base, n);
	fr[20] = 0;                                     /* hop-by-hop options first */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_NOT_UDP);
	memcpy(fr, base, n);
	fr[20] = 44;                                    /* a fragment header */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_IP_FRAGMENT);
	memcpy(fr, base, n);
	fr[21] = 0;                                     /* hop limit 0 on arrival */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_HOP_LIMIT_ZERO);
	T_STREQ(pkt_class_name(PKT_HOP_LIMIT_ZERO), "hop_limit_zero");
	memcpy(fr, base, n);
	fr[21] = 1;                                     /* 1 still arrives */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TEST);
	memcpy(fr, base, n);
	fr[14] = 0x45;                                  /* IPv4 behind 0x86dd */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_NOT_IP4);
	memcpy(fr, base, n);
	fr[PKT_UDP6_OFF + 3] = 10;                      /* another port */
	fix(fr, n);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_WRONG_PORT);
	T_EQ_INT(pkt_classify(fr, n, 0, true, &pi), PKT_TEST);
	memcpy(fr, base, n);
	fr[PKT_UDP6_OFF + 5] += 2;                      /* UDP length past the datagram */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_LEN);
	memcpy(fr, base, n);
	fr[PKT_PAYLOAD6_OFF] ^= 0xff;                   /* somebody else's UDP */
	fix(fr, n);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_FOREIGN);
	memcpy(fr, base, n);
	fr[PKT_PAYLOAD6_OFF + 2] = 0x21;                /* signature version 2 */
	fix(fr, n);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_SIG_VERSION);
	/* Ethernet padding after the payload length is allowed, as for IPv4 */
	memcpy(fr, base, n);
	T_EQ_INT(pkt_classify(fr, n + 4, 9, true, &pi), PKT_TEST);
}

/* A payload length of up to 65,535 with the frame to hold it: the IP length (header
 * included) does not fit 16 bits, so the datagram is refused before a UDP length or
 * checksum is read past the frame. */
static void t_huge_payload(void)
{
	size_t n = PKT_ETH_LEN + PKT_IP6_LEN + 65500;
	uint8_t *fr = calloc(1, n);
	struct pkt_info pi;
	T_TRUE(fr != NULL);
	if (!fr)
		return;
	build6(fr, 128);
	fr[18] = 65500 >> 8;
	fr[19] = 65500 & 0xff;
	fr[PKT_UDP6_OFF + 4] = fr[PKT_UDP6_OFF + 5] = 0xff;    /* UDP length 65,535 */
	fr[PKT_UDP6_OFF + 6] = 1;
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_LEN);
	free(fr);
}

static void t_addresses(void)
{
	uint8_t a[16];
	char s[46];
	T_EQ_INT(ip6_parse("2001:2::1", a), 0);
	T_TRUE(pkt6_bench_addr(a));
	T_EQ_INT(ip6_parse("2001:2:0:ffff::1", a), 0);
	T_TRUE(pkt6_bench_addr(a));
	T_EQ_INT(ip6_parse("2001:3::1", a), 0);
	T_TRUE(!pkt6_bench_addr(a));
	T_EQ_INT(ip6_parse("2001:2:1::1", a), 0);     /* outside the /48 */
	T_TRUE(!pkt6_bench_addr(a));
	T_EQ_INT(ip6_parse("2001:db8::1", a), 0);
	T_TRUE(!pkt6_bench_addr(a));
	T_EQ_INT(ip6_parse("198.18.0.1", a), -EINVAL);
	T_EQ_INT(ip6_parse("2001:2::1::2", a), -EINVAL);
	T_EQ_INT(ip6_parse("2001:2:0:1::2", a), 0);
	ip6_format(a, s);
	T_STREQ(s, "2001:2:0:1::2");
}

int main(void)
{
	T_RUN(t_template);
	T_RUN(t_checksum);
	T_RUN(t_classes);
	T_RUN(t_huge_payload);
	T_RUN(t_addresses);
	return t_done();
}
