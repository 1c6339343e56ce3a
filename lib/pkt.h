/* SPDX-License-Identifier: BSD-2-Clause */
/* pkt.h — the test frame: layout, template building and classification.
 *
 * A test frame is Ethernet II / IPv4 (no options) / UDP / payload, the payload starting
 * with the signature (sig.h). Lengths here exclude the 4-byte FCS, which the NIC adds;
 * "frame size" in the user interface includes it, as RFC 2544 counts: a 64-byte frame
 * is 60 bytes from software. On the wire each frame also costs 20 bytes of preamble,
 * start delimiter and inter-frame gap (L1). */
#ifndef PPSLAB_LIB_PKT_H
#define PPSLAB_LIB_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sig.h"

#define PKT_ETH_LEN 14
#define PKT_IP4_LEN 20
#define PKT_UDP_LEN 8
#define PKT_IP_OFF PKT_ETH_LEN
#define PKT_UDP_OFF (PKT_ETH_LEN + PKT_IP4_LEN)
#define PKT_PAYLOAD_OFF (PKT_UDP_OFF + PKT_UDP_LEN) /* 42 */
#define PKT_FCS_LEN 4
#define PKT_L1_OVERHEAD 20    /* preamble 7 + SFD 1 + inter-frame gap 12 */
#define PKT_WIRE_MIN 64       /* smallest frame with FCS */
#define PKT_WIRE_MAX 9018     /* largest frame with FCS we build (9000-byte jumbo IP MTU) */
#define PKT_FRAME_MAX (PKT_WIRE_MAX - PKT_FCS_LEN)
#define PKT_DEFAULT_DPORT 9   /* discard service; the sink's default test port */
#define PKT_DEFAULT_SPORT 9

/* A 16-bit header field, in network byte order, at p (any alignment). */
static inline uint16_t pkt_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* 802.1Q tags (pkt_vlan.c). A tag is 4 bytes after the source MAC: the TPID, then the
 * TCI (PCP 3 bits, DEI 1, VID 12). One tag has TPID 0x8100; QinQ (802.1ad) puts an
 * outer tag with TPID 0x88a8 before the inner 0x8100 one. A test frame may carry up
 * to two; its sizes count them (a 64-byte frame has 4 bytes less payload room per
 * tag, so the smallest test frame with tags is 68 or 72 bytes, IPv6's 88 or 92). */
#define PKT_TPID_8021Q 0x8100
#define PKT_TPID_8021AD 0x88a8
#define PKT_VLAN_TAG_LEN 4
#define PKT_VLAN_MAX 2
#define PKT_VID_MAX 4094      /* 4095 is reserved (802.1Q table 9-2); 0: priority tagged */
#define PKT_PCP_MAX 7

/* A stack of tags, outermost first: tci[i] = PCP << 13 | VID (DEI 0). */
struct pkt_vlan {
	uint8_t n;                    /* 0, 1 or 2 tags */
	uint16_t tci[PKT_VLAN_MAX];
	uint16_t tpid[PKT_VLAN_MAX];  /* as received (pkt_vlan_read); built: 0x8100, 0x88a8 */
};

static inline uint16_t pkt_vlan_vid(uint16_t tci)
{
	return tci & 0x0fff;
}

/* Tag i of a stack of n as built: 0x88a8 outside with QinQ, else 0x8100. */
static inline uint16_t pkt_vlan_tpid_at(unsigned n, unsigned i)
{
	return n == 2 && i == 0 ? PKT_TPID_8021AD : PKT_TPID_8021Q;
}

/* Writes one tag (TPID, TCI) at t, in network order. */
static inline void pkt_vlan_put_tag(uint8_t *t, uint16_t tpid, uint16_t tci)
{
	t[0] = (uint8_t)(tpid >> 8);
	t[1] = (uint8_t)tpid;
	t[2] = (uint8_t)(tci >> 8);
	t[3] = (uint8_t)tci;
}

/* "VID[:PCP]" (one tag) or "OUTER[:PCP],INNER[:PCP]" (QinQ), VID 0..4094, PCP 0..7
 * (default 0). 0 or -EINVAL / -ERANGE with the reason in err (naming the part). */
int pkt_vlan_parse(const char *s, struct pkt_vlan *v, char *err, size_t errlen);
/* "100" / "100:5" / "200,100:3": the same form back (PCP only when not 0). */
void pkt_vlan_format(const struct pkt_vlan *v, char *out, size_t len);
/* Inserts v's tags after the MACs of the untagged frame of len bytes in buf (which has
 * room for 4 * v->n more): 0x8100 for one tag, 0x88a8 then 0x8100 for two. Returns the
 * new length. */
uint32_t pkt_vlan_insert(uint8_t *buf, uint32_t len, const struct pkt_vlan *v);
/* The tags at the front of a received frame (TPID 0x8100 or 0x88a8, at most
 * PKT_VLAN_MAX; a third is left in place and the frame is then not IP). Fills v and
 * returns how many bytes they take (0, 4 or 8): the frame from that offset on, minus
 * 12, reads as an untagged one (pkt_classify(frame + off, len - off)). */
static inline unsigned pkt_vlan_read(const uint8_t *frame, size_t len, struct pkt_vlan *v)
{
	unsigned off = 0;
	v->n = 0;
	while (v->n < PKT_VLAN_MAX && len >= off + 18u) {
		uint16_t t = pkt_rd16(frame + 12 + off);
		if (t != PKT_TPID_8021Q && t != PKT_TPID_8021AD)
			break;
		v->tpid[v->n] = t;
		v->tci[v->n] = pkt_rd16(frame + 14 + off);
		v->n++;
		off += PKT_VLAN_TAG_LEN;
	}
	return off;
}

/* Frame length from software for a wire size (with FCS) and back. */

static inline uint32_t pkt_frame_len(uint32_t wire_size)
{
	return wire_size - PKT_FCS_LEN;
}

/* Bits per second at L2 (frame with FCS) and L1 (+20 bytes) for a packet rate. */
static inline double pkt_l2_bps(double pps, uint32_t wire_size)
{
	return pps * wire_size * 8.0;
}
static inline double pkt_l1_bps(double pps, uint32_t wire_size)
{
	return pps * (wire_size + PKT_L1_OVERHEAD) * 8.0;
}

/* What one flow's frames carry. Addresses in network order, ports in host order.
 * ipv 6 makes IPv6 frames (pkt6.h) from src6, dst6 and flowlabel, ttl the hop limit and
 * tos the traffic class; 0 or 4 IPv4 ones from src_ip and dst_ip. */
struct pkt_flow {
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	uint32_t src_ip;
	uint32_t dst_ip;
	uint16_t src_port;
	uint16_t dst_port;
	uint8_t ttl;
	uint8_t tos;
	uint8_t ipv;
	uint8_t src6[16], dst6[16];
	uint32_t flowlabel;           /* 20 bits */
	struct pkt_vlan vlan;         /* tags the frames carry (n 0: untagged) */
};

/* Builds a frame of frame_len bytes (60..PKT_FRAME_MAX, without FCS) into buf with libnet,
 * once, before any hot loop: valid IP and UDP checksums, a zero signature with the given
 * stream and flags, the rest of the payload filled with pad_byte. Returns 0 or -errno
 * with a message in err. */
int pkt_build_template(const struct pkt_flow *f, uint32_t frame_len, uint8_t stream,
		       uint8_t sig_flags, uint8_t pad_byte, uint8_t *buf, char *err,
		       size_t errlen);

/* Classification of a received frame. PKT_TEST is a valid test frame; every other class
 * is counted separately by the sink and never as test traffic. */
enum pkt_class {
	PKT_TEST = 0,
	PKT_TRUNCATED,        /* too short for the headers it claims */
	PKT_NOT_IP4,          /* not Ethernet II / IPv4 (ARP, VLAN-tagged, ...); for
			       * pkt_classify not IPv6 either */
	PKT_IP_OPTIONS,       /* IPv4 header longer than 20 bytes */
	PKT_IP_FRAGMENT,      /* MF set or fragment offset != 0; IPv6: a fragment header */
	PKT_BAD_IP_CSUM,
	PKT_BAD_LEN,          /* IP total length or UDP length inconsistent with the frame */
	PKT_NOT_UDP,
	PKT_WRONG_PORT,       /* UDP, but not to the test port */
	PKT_BAD_UDP_CSUM,
	PKT_FOREIGN,          /* test port, but no signature magic */
	PKT_BAD_SIG_VERSION,  /* magic, but a signature version we do not speak */
	PKT_HOP_LIMIT_ZERO,   /* IPv6 with hop limit 0 on arrival: no router sends it */
	PKT_WRONG_VLAN,       /* a test frame, but not with the tags the sink expects (its
			       * --vlan): a misconfigured trunk; set by the sink */
	PKT_CLASS_MAX
};

/* Stable snake_case names used in JSON ("bad_ip_csum", ...). */
const char *pkt_class_name(enum pkt_class c);

struct pkt_info {
	const uint8_t *ip;       /* IPv4 or IPv6 header */
	uint16_t ip_len;         /* IP total length (IPv6: 40 + payload length) */
	uint8_t ipv;             /* 4 or 6 (pkt_classify) */
	uint8_t ttl;
	uint8_t proto;
	uint32_t src_ip, dst_ip; /* network order */
	uint16_t src_port, dst_port;  /* host order (UDP) */
	const uint8_t *payload;
	uint16_t payload_len;
	struct sig sig;
};

/* L2+L3 checks (what a router checks): truncation, ethertype, version, options,
 * header checksum, lengths, fragments. Fills ip, ip_len, ttl, proto, addresses. */
enum pkt_class pkt_parse_ip4(const uint8_t *frame, size_t len, struct pkt_info *pi);
/* Full classification of a frame for the sink: pkt_parse_ip4 or, for the ethertype
 * 0x86dd, pkt_parse_ip6 (pkt6.h), then UDP, port (dport 0 accepts any), UDP checksum
 * (verify_udp_csum; over IPv6 a zero checksum fails it) and signature. */
enum pkt_class pkt_classify(const uint8_t *frame, size_t len, uint16_t dport,
			    bool verify_udp_csum, struct pkt_info *pi);
/* Classification of a bare UDP payload (ports that deliver payloads, e.g. udp:). */
enum pkt_class pkt_classify_payload(const uint8_t *payload, size_t len, struct pkt_info *pi);

#endif
