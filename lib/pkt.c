/* SPDX-License-Identifier: BSD-2-Clause */
/* pkt.c — classification of received frames (see pkt.h). Called per frame by the sink
 * and, for the IPv4 part, by the forwarder: no allocation, no system calls. The order of
 * the checks decides the class a frame with several faults lands in: the outermost
 * fault wins. */
#include "pkt.h"

#include <errno.h>
#include <string.h>

#include "csum.h"
#include "pkt6.h"

static const char *const class_names[PKT_CLASS_MAX] = {
	[PKT_TEST] = "test",
	[PKT_TRUNCATED] = "truncated",
	[PKT_NOT_IP4] = "not_ip4",
	[PKT_IP_OPTIONS] = "ip_options",
	[PKT_IP_FRAGMENT] = "ip_fragment",
	[PKT_BAD_IP_CSUM] = "bad_ip_csum",
	[PKT_BAD_LEN] = "bad_len",
	[PKT_NOT_UDP] = "not_udp",
	[PKT_WRONG_PORT] = "wrong_port",
	[PKT_BAD_UDP_CSUM] = "bad_udp_csum",
	[PKT_FOREIGN] = "foreign",
	[PKT_BAD_SIG_VERSION] = "bad_sig_version",
	[PKT_HOP_LIMIT_ZERO] = "hop_limit_zero",
	[PKT_WRONG_VLAN] = "wrong_vlan",
};

const char *pkt_class_name(enum pkt_class c)
{
	return (unsigned)c < PKT_CLASS_MAX ? class_names[c] : "unknown";
}

enum pkt_class pkt_parse_ip4(const uint8_t *frame, size_t len, struct pkt_info *pi)
{
	if (len < PKT_ETH_LEN)
		return PKT_TRUNCATED;
	if (pkt_rd16(frame + 12) != 0x0800)
		return PKT_NOT_IP4;
	if (len < PKT_ETH_LEN + PKT_IP4_LEN)
		return PKT_TRUNCATED;
	const uint8_t *ip = frame + PKT_ETH_LEN;
	if ((ip[0] >> 4) != 4)
		return PKT_NOT_IP4;
	unsigned ihl = (ip[0] & 0x0f) * 4u;
	if (ihl < PKT_IP4_LEN)
		return PKT_BAD_LEN;
	if (len < PKT_ETH_LEN + ihl)
		return PKT_TRUNCATED;
	uint16_t ip_len = pkt_rd16(ip + 2);
	if (ip_len < ihl)
		return PKT_BAD_LEN;
	if (ip_len > len - PKT_ETH_LEN)      /* shorter than it claims (padding may follow) */
		return PKT_TRUNCATED;
	if (!csum_ip4_ok(ip, ihl))
		return PKT_BAD_IP_CSUM;
	pi->ip = ip;
	pi->ip_len = ip_len;
	pi->ttl = ip[8];
	pi->proto = ip[9];
	memcpy(&pi->src_ip, ip + 12, 4);
	memcpy(&pi->dst_ip, ip + 16, 4);
	if (ihl != PKT_IP4_LEN)
		return PKT_IP_OPTIONS;
	if (pkt_rd16(ip + 6) & 0x3fff)           /* MF or a fragment offset */
		return PKT_IP_FRAGMENT;
	return PKT_TEST;
}

static enum pkt_class sig_class(const uint8_t *payload, size_t len, struct pkt_info *pi)
{
	int rc = sig_get(payload, len, &pi->sig);
	if (rc == -ENODATA || rc == -EPROTO)
		return PKT_FOREIGN;
	if (rc == -EPROTONOSUPPORT)
		return PKT_BAD_SIG_VERSION;
	return PKT_TEST;
}

enum pkt_class pkt_classify(const uint8_t *frame, size_t len, uint16_t dport,
			    bool verify_udp_csum, struct pkt_info *pi)
{
	bool v6 = len >= PKT_ETH_LEN && pkt_rd16(frame + 12) == PKT_ETHERTYPE_IP6;
	unsigned l3 = v6 ? PKT_IP6_LEN : PKT_IP4_LEN;
	pi->ipv = v6 ? 6 : 4;
	enum pkt_class c = v6 ? pkt_parse_ip6(frame, len, pi) : pkt_parse_ip4(frame, len, pi);
	if (c != PKT_TEST)
		return c;
	if (pi->proto != 17)      /* IPv6: an extension header or another protocol */
		return PKT_NOT_UDP;
	const uint8_t *udp = pi->ip + l3;
	size_t l4_len = pi->ip_len - l3;
	if (l4_len < PKT_UDP_LEN)
		return PKT_BAD_LEN;
	uint16_t ulen = pkt_rd16(udp + 4);
	if (ulen < PKT_UDP_LEN || ulen > l4_len)
		return PKT_BAD_LEN;
	pi->src_port = pkt_rd16(udp);
	pi->dst_port = pkt_rd16(udp + 2);
	if (dport && pi->dst_port != dport)
		return PKT_WRONG_PORT;
	if (verify_udp_csum && (v6 ? !pkt6_udp_csum_ok(pi->ip, udp, ulen)
				   : !csum_udp4_ok(pi->ip + 12, pi->ip + 16, udp, ulen)))
		return PKT_BAD_UDP_CSUM;
	pi->payload = udp + PKT_UDP_LEN;
	pi->payload_len = (uint16_t)(ulen - PKT_UDP_LEN);
	return sig_class(pi->payload, pi->payload_len, pi);
}

enum pkt_class pkt_classify_payload(const uint8_t *payload, size_t len, struct pkt_info *pi)
{
	pi->ip = NULL;
	pi->ipv = 0;             /* the kernel's business: either family */
	pi->ip_len = (uint16_t)(len + PKT_IP4_LEN + PKT_UDP_LEN);
	pi->payload = payload;
	pi->payload_len = (uint16_t)len;
	return sig_class(payload, len, pi);
}
