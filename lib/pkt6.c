/* SPDX-License-Identifier: BSD-2-Clause */
/* pkt6.c — the IPv6 test frame: checksum, template and parse (see pkt6.h). The parse is
 * called per frame by the sink through pkt_classify: no allocation, no system calls. */
#include "pkt6.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "csum.h"

static uint32_t pseudo_sum(const uint8_t *ip6, size_t udp_len)
{
	uint8_t tail[8] = { 0, 0, (uint8_t)(udp_len >> 8), (uint8_t)udp_len, 0, 0, 0, 17 };
	return csum_add(csum_add(0, ip6 + 8, 32), tail, 8);
}

uint16_t pkt6_udp_csum(const uint8_t *ip6, const uint8_t *udp, size_t udp_len)
{
	uint32_t s = pseudo_sum(ip6, udp_len);
	s = csum_add(s, udp, 6);                 /* ports and length; the checksum as 0 */
	if (udp_len > PKT_UDP_LEN)
		s = csum_add(s, udp + PKT_UDP_LEN, udp_len - PKT_UDP_LEN);
	return csum_udp_nonzero(csum_fold(s));
}

bool pkt6_udp_csum_ok(const uint8_t *ip6, const uint8_t *udp, size_t udp_len)
{
	if (udp[6] == 0 && udp[7] == 0)
		return false;
	return csum_fold(csum_add(pseudo_sum(ip6, udp_len), udp, udp_len)) == 0;
}

int pkt6_build_template(const struct pkt_flow *f, uint32_t frame_len, uint8_t stream,
			uint8_t sig_flags, uint8_t pad_byte, uint8_t *buf, char *err,
			size_t errlen)
{
	if (frame_len < PKT6_WIRE_MIN - PKT_FCS_LEN || frame_len > PKT_FRAME_MAX) {
		snprintf(err, errlen, "IPv6 frame of %u bytes (without FCS) outside %u..%u",
			 frame_len, PKT6_WIRE_MIN - PKT_FCS_LEN, PKT_FRAME_MAX);
		return -EINVAL;
	}
	uint8_t *ip = buf + PKT_ETH_LEN, *udp = buf + PKT_UDP6_OFF;
	uint32_t ulen = frame_len - PKT_UDP6_OFF;
	uint32_t vtf = 6u << 28 | (uint32_t)f->tos << 20 | (f->flowlabel & PKT6_FLOWLABEL_MAX);
	memcpy(buf, f->dst_mac, 6);
	memcpy(buf + 6, f->src_mac, 6);
	buf[12] = PKT_ETHERTYPE_IP6 >> 8;
	buf[13] = PKT_ETHERTYPE_IP6 & 0xff;
	for (int i = 0; i < 4; i++)
		ip[i] = (uint8_t)(vtf >> (24 - 8 * i));
	ip[4] = (uint8_t)(ulen >> 8);            /* payload length: UDP and its data */
	ip[5] = (uint8_t)ulen;
	ip[6] = 17;                              /* next header: UDP */
	ip[7] = f->ttl;                          /* hop limit */
	memcpy(ip + 8, f->src6, 16);
	memcpy(ip + 24, f->dst6, 16);
	udp[0] = (uint8_t)(f->src_port >> 8);
	udp[1] = (uint8_t)f->src_port;
	udp[2] = (uint8_t)(f->dst_port >> 8);
	udp[3] = (uint8_t)f->dst_port;
	udp[4] = (uint8_t)(ulen >> 8);
	udp[5] = (uint8_t)ulen;
	udp[6] = udp[7] = 0;
	memset(buf + PKT_PAYLOAD6_OFF, pad_byte, frame_len - PKT_PAYLOAD6_OFF);
	struct sig s = { .flags = sig_flags, .stream = stream };
	sig_put(buf + PKT_PAYLOAD6_OFF, &s);
	uint16_t c = pkt6_udp_csum(ip, udp, ulen);
	memcpy(udp + 6, &c, 2);
	return 0;
}

enum pkt_class pkt_parse_ip6(const uint8_t *frame, size_t len, struct pkt_info *pi)
{
	if (len < PKT_ETH_LEN + PKT_IP6_LEN)
		return PKT_TRUNCATED;
	const uint8_t *ip = frame + PKT_ETH_LEN;
	if ((ip[0] >> 4) != 6)
		return PKT_NOT_IP4;
	uint16_t plen = pkt_rd16(ip + 4);
	if (plen > len - PKT_ETH_LEN - PKT_IP6_LEN)   /* shorter than it claims */
		return PKT_TRUNCATED;
	if (plen > UINT16_MAX - PKT_IP6_LEN)          /* ip_len, 16 bits, could not hold it */
		return PKT_BAD_LEN;
	pi->ip = ip;
	pi->ip_len = (uint16_t)(PKT_IP6_LEN + plen);
	pi->ttl = ip[7];
	pi->proto = ip[6];
	pi->src_ip = pi->dst_ip = 0;
	if (pi->proto == 44)                     /* a fragment header */
		return PKT_IP_FRAGMENT;
	if (pi->ttl == 0)                        /* no router forwards it (RFC 8200 §3) */
		return PKT_HOP_LIMIT_ZERO;
	return PKT_TEST;
}

bool pkt6_bench_addr(const uint8_t a[16])
{
	static const uint8_t pfx[6] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 };
	return !memcmp(a, pfx, 6);
}

int ip6_parse(const char *s, uint8_t a[16])
{
	return inet_pton(AF_INET6, s, a) == 1 ? 0 : -EINVAL;
}

void ip6_format(const uint8_t a[16], char out[46])
{
	if (!inet_ntop(AF_INET6, a, out, 46))
		snprintf(out, 46, "?");
}
