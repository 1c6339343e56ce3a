/* SPDX-License-Identifier: BSD-2-Clause */
/* pkt6.h — the IPv6 test frame: Ethernet II (0x86dd) / IPv6 (no extension headers) /
 * UDP / payload, the payload starting with the same signature as IPv4's (sig.h).
 *
 * The smallest such frame is 14 + 40 + 8 + 18 = 80 bytes from software, 84 with the
 * FCS: a 64-byte frame cannot carry an IPv6 test frame (RFC 5180 §5.1.1 leaves the
 * smallest size to what the tester's tag needs). IPv6 has no header checksum; the UDP
 * checksum is mandatory (RFC 8200 §8.1) and covers a pseudo-header of both addresses,
 * the UDP length and the next header. */
#ifndef PPSLAB_LIB_PKT6_H
#define PPSLAB_LIB_PKT6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pkt.h"

#define PKT_ETHERTYPE_IP6 0x86dd
#define PKT_IP6_LEN 40
#define PKT_UDP6_OFF (PKT_ETH_LEN + PKT_IP6_LEN)            /* 54 */
#define PKT_PAYLOAD6_OFF (PKT_UDP6_OFF + PKT_UDP_LEN)       /* 62 */
#define PKT6_WIRE_MIN (PKT_PAYLOAD6_OFF + SIG_LEN + PKT_FCS_LEN)   /* 84 */
#define PKT6_FLOWLABEL_MAX 0xfffffU

/* The UDP checksum over IPv6 (pseudo-header from the addresses at ip6 + 8 and + 24,
 * UDP header and data, the checksum field taken as 0); a computed 0 is returned as
 * 0xffff. In memory order, as csum.h's. */
uint16_t pkt6_udp_csum(const uint8_t *ip6, const uint8_t *udp, size_t udp_len);
/* True if the UDP datagram verifies with its checksum in place. A checksum field of 0
 * does not: IPv6 has no "no checksum" (RFC 8200 §8.1). */
bool pkt6_udp_csum_ok(const uint8_t *ip6, const uint8_t *udp, size_t udp_len);

/* Builds an IPv6 test frame of frame_len bytes (PKT6_WIRE_MIN - 4 .. PKT_FRAME_MAX,
 * without FCS) from f (f->src6, f->dst6, f->flowlabel, f->ttl as the hop limit, f->tos
 * as the traffic class): a zero signature with stream and flags, the rest of the
 * payload pad_byte, a valid UDP checksum. 0 or -EINVAL with a message in err. */
int pkt6_build_template(const struct pkt_flow *f, uint32_t frame_len, uint8_t stream,
			uint8_t sig_flags, uint8_t pad_byte, uint8_t *buf, char *err,
			size_t errlen);

/* L2+L3 checks of an IPv6 frame (the ethertype already 0x86dd): version, payload
 * length against the frame, hop limit 0 on arrival. Fills pi (ip, ip_len = 40 +
 * payload length, ttl = hop limit, proto = next header; src_ip/dst_ip are 0). */
enum pkt_class pkt_parse_ip6(const uint8_t *frame, size_t len, struct pkt_info *pi);

/* 2001:2::/48, the IPv6 benchmarking range (RFC 5180 §8). */
bool pkt6_bench_addr(const uint8_t a[16]);
/* Text forms (inet_pton/inet_ntop): 0 or -EINVAL. */
int ip6_parse(const char *s, uint8_t a[16]);
void ip6_format(const uint8_t a[16], char out[46]);

#endif
