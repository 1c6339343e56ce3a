/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_reply.c — the reply a reset or unreach rule sends (fw.h: fw_reject_ok,
 * fw_reject_build), as FreeBSD decides and builds it: ipfw_chk's O_REJECT conditions,
 * ip_fw2.c send_reject (ipfw_send_pkt for the RST), ip_icmp.c icmp_error and
 * icmp_reflect for the unreachable; for IPv6 (fw_reply6, fw_reset6_build) O_UNREACH6's
 * conditions and send_reject6. The forwarder routes, limits, frames and sends it. */
#include "fw_impl.h"

#include <string.h>

#include "csum.h"
#include "pkt.h"

static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, (uint16_t)(v >> 16));
	wr16(p + 2, (uint16_t)v);
}

/* ip_icmp.c: ICMP_ECHO, ROUTERSOLICIT, TSTAMP, IREQ, MASKREQ (ipfw_chk's is_icmp_query) */
/* ipfw_send_pkt()'s TCP header of a RST answering the segment l4 (20 bytes into th,
 * checksum left to the caller): ports swapped; with ACK the RST takes its sequence
 * number from it, else RST|ACK acknowledges seq (+1 for a SYN). */
static void rst_tcp(uint8_t *th, const uint8_t *l4)
{
	uint8_t flags = l4[13];
	memcpy(th, l4 + 2, 2);
	memcpy(th + 2, l4, 2);
	uint32_t seq = (uint32_t)pkt_rd16(l4 + 4) << 16 | pkt_rd16(l4 + 6);
	if (flags & 0x10) {
		memcpy(th + 4, l4 + 8, 4);
		th[13] = 0x04;
	} else {
		wr32(th + 8, seq + ((flags & 0x02) ? 1 : 0));
		th[13] = 0x14;
	}
	th[12] = 5 << 4;
}

static bool icmp_query(uint8_t t)
{
	return t == 8 || t == 10 || t == 13 || t == 15 || t == 17;
}

bool fw_reject_ok(const uint8_t *ip, unsigned ip_len, bool l2_group, enum fw_verdict v,
		  unsigned *quote)
{
	unsigned hl = (ip[0] & 15u) * 4u;
	uint16_t off = pkt_rd16(ip + 6);
	uint8_t proto = ip[9];
	const uint8_t *l4 = ip + hl;
	uint32_t srch = (uint32_t)pkt_rd16(ip + 12) << 16 | pkt_rd16(ip + 14);
	uint32_t dsth = (uint32_t)pkt_rd16(ip + 16) << 16 | pkt_rd16(ip + 18);
	*quote = 0;
	/* ipfw_chk O_REJECT: offset 0, no ICMP but a query, no link-layer broadcast or
	 * multicast, no IP multicast */
	if ((off & 0x1fff) || l2_group || (dsth >> 28) == 14 ||
	    (proto == 1 && !icmp_query(l4[0])))
		return false;
	/* send_reject(): TCP only, and never in answer to an RST */
	if (v == FW_RESET)
		return proto == 6 && !(l4[13] & 0x04);
	/* icmp_error(): no RF bit, 8 bytes past the header; quote the header and
	 * max(8, min(icmp_quotelen 548, payload)) bytes, for TCP at least its header */
	if ((off & 0x8000) || ip_len < hl + 8)
		return false;
	unsigned elen;
	bool ok = true;
	if (proto == 6) {
		unsigned th = (l4[12] >> 4) * 4u;
		if (th < 20 || ip_len < hl + th)
			ok = false;
		elen = ip_len - hl < 548 ? ip_len - hl : 548;
		elen = elen > th ? elen : th;
	} else {
		elen = ip_len - hl < 548 ? ip_len - hl : 548;
		elen = elen > 8 ? elen : 8;
	}
	*quote = hl + elen < ip_len ? hl + elen : ip_len;
	/* icmp_reflect(): no reply to a multicast, 240/4 or 0/8 source */
	if ((srch >> 28) == 14 || (srch >> 28) == 15 || (srch >> 24) == 0)
		ok = false;
	return ok;
}

unsigned fw_reject_build(uint8_t *out, const uint8_t *ip, enum fw_verdict v, uint16_t code,
			 unsigned quote, uint32_t from, uint16_t ip_id)
{
	unsigned hl = (ip[0] & 15u) * 4u, len;
	const uint8_t *l4 = ip + hl;
	memset(out, 0, 40);
	if (v == FW_RESET) {
		/* ipfw_send_pkt(): addresses swapped, the TCP header rst_tcp()'s */
		uint8_t *th = out + 20;
		len = 40;
		out[0] = 0x45;
		out[1] = 0x10;   /* IPTOS_LOWDELAY */
		out[8] = 64;     /* ip_defttl */
		out[9] = 6;
		memcpy(out + 12, ip + 16, 4);
		memcpy(out + 16, ip + 12, 4);
		rst_tcp(th, l4);
		uint32_t sum = csum_add(0, out + 12, 8);
		uint8_t ph[4] = { 0, 6, 0, 20 };
		sum = csum_add(sum, ph, 4);
		uint16_t c = csum_fold(csum_add(sum, th, 20));
		memcpy(th + 16, &c, 2);
	} else {
		/* icmp_error(): type 3, the code, the quote; icmp_reflect(): TTL ip_defttl,
		 * from the address the forwarder chose, to the sender */
		uint8_t *ic = out + 20;
		len = 20 + 8 + quote;
		out[0] = 0x45;
		out[8] = 64;
		out[9] = 1;
		memcpy(out + 12, &from, 4);
		memcpy(out + 16, ip + 12, 4);
		ic[0] = 3;
		ic[1] = (uint8_t)code;
		memcpy(ic + 8, ip, quote);
		uint16_t c = csum_fold(csum_add(0, ic, 8 + quote));
		memcpy(ic + 2, &c, 2);
	}
	wr16(out + 2, (uint16_t)len);
	wr16(out + 4, ip_id);   /* ip_fillid(), net.inet.ip.random_id=0 */
	uint16_t hc = csum_ip4_hdr(out, 20);
	memcpy(out + 10, &hc, 2);
	return len;
}

/* ipfw_chk's is_icmp6_query(): echo request, membership query, who-are-you / FQDN /
 * node information query (all 139) */
static bool icmp6_query(uint8_t t)
{
	return t == 128 || t == 130 || t == 139;
}

/* ip_fw2.c map_icmp_unreach() */
static uint8_t map_icmp_unreach(uint16_t code)
{
	switch (code) {
	case 0: case 1: case 5: case 6: case 7: case 11: case 12:
		return 0;   /* ICMP6_DST_UNREACH_NOROUTE */
	case 3:
		return 4;   /* ICMP6_DST_UNREACH_NOPORT */
	default:
		return 1;   /* ICMP6_DST_UNREACH_ADMIN */
	}
}

enum fw_reply6 fw_reply6(const struct fw_pkt *p, bool l2_group, enum fw_verdict v,
			 const struct fw_match *m, uint8_t *code6)
{
	static const uint8_t zero[16];
	/* O_REJECT's `reset` is ICMP_REJECT_RST (0x100): map_icmp_unreach gives it
	 * ICMP6_DST_UNREACH_ADMIN, not ICMP6_UNREACH_RST; O_UNREACH6's code is the
	 * ICMPv6 one, or ICMP6_UNREACH_RST for `reset6` */
	bool rst6 = m->unreach6 && v == FW_RESET;
	*code6 = m->unreach6 ? (uint8_t)m->icmp_code
			     : map_icmp_unreach(v == FW_RESET ? 0x100 : m->icmp_code);
	/* ipfw_chk O_UNREACH6: an IPv6 packet at offset 0, an ICMPv6 one only if a query,
	 * no link-layer group frame, no multicast destination */
	if (!p->ip6 || p->frag || (p->ip_off & 0x1fff) || l2_group || p->dst6[0] == 0xff)
		return FW_R6_NONE;
	if (p->proto == 58 && !icmp6_query(p->icmp_type))
		return FW_R6_NONE;
	if (rst6) {
		/* send_reject6(): ICMP6_UNREACH_RST answers TCP that is no RST with an RST
		 * (the header is whole: ipfw_chk pulled it up), and drops anything else
		 * without a word */
		bool tcp = p->proto == 6 && p->l4_len >= 20 && !p->ext_bad && !p->cut;
		return tcp && !(p->tcp_flags & 0x04) ? FW_R6_RST : FW_R6_NONE;
	}
	/* icmp6_error(): never to a multicast or unspecified source */
	if (p->src6[0] == 0xff || !memcmp(p->src6, zero, 16))
		return FW_R6_NONE;
	return FW_R6_UNREACH;
}

bool fw_reject6_ok(const struct fw_pkt *p, bool l2_group, enum fw_verdict v, uint16_t code,
		   uint8_t *code6)
{
	const struct fw_match m = { .icmp_code = code };
	return fw_reply6(p, l2_group, v, &m, code6) == FW_R6_UNREACH;
}

unsigned fw_reset6_build(uint8_t *out, const uint8_t *ip6, const struct fw_pkt *p)
{
	/* the TCP header past the extension headers the walk crossed */
	unsigned hl = 40u + pkt_rd16(ip6 + 4) - p->l4_len;
	const uint8_t *l4 = ip6 + hl;
	uint8_t *th = out + 40;
	memset(out, 0, 60);
	/* ipfw_send_pkt(): version 6, traffic class and flow label 0, a 20-byte TCP
	 * header, hop limit IPV6_DEFHLIM, addresses and ports swapped */
	out[0] = 6 << 4;
	out[5] = 20;
	out[6] = 6;
	out[7] = 64;
	memcpy(out + 8, ip6 + 24, 16);
	memcpy(out + 24, ip6 + 8, 16);
	/* the RST's TCP header as for IPv4 */
	rst_tcp(th, l4);
	/* in6_cksum(): the pseudo-header (RFC 8200 8.1) and the segment */
	uint8_t ph[8] = { 0, 0, 0, 20, 0, 0, 0, 6 };
	uint32_t sum = csum_add(0, out + 8, 32);
	sum = csum_add(sum, ph, 8);
	uint16_t c = csum_fold(csum_add(sum, th, 20));
	memcpy(th + 16, &c, 2);
	return 60;
}
