/* SPDX-License-Identifier: BSD-2-Clause */
/* csum.h — Internet checksums: RFC 1071 computation and RFC 1624 incremental update.
 *
 * All 16-bit values here are in memory (network) order, exactly as stored in a header:
 * the one's-complement sum is byte-order independent (RFC 1071 §2(B)), so a checksum
 * returned by these functions is written to the header with memcpy / a uint16_t store,
 * and "old"/"new" field values are read the same way. */
#ifndef PPSLAB_LIB_CSUM_H
#define PPSLAB_LIB_CSUM_H

#include <stddef.h>
#include <stdint.h>

/* Adds buf (any length; an odd last byte is padded with zero) to a 32-bit accumulator. */
uint32_t csum_add(uint32_t sum, const void *buf, size_t len);
/* Folds the carries and complements: the value to store in a checksum field. */
uint16_t csum_fold(uint32_t sum);
/* IPv4 header checksum over hlen bytes, computed with the checksum field taken as 0. */
uint16_t csum_ip4_hdr(const void *iph, size_t hlen);
/* UDP over IPv4 (pseudo-header + UDP header + data, checksum field taken as 0);
 * a computed 0 is returned as 0xffff (RFC 768). */
uint16_t csum_udp4(const void *saddr, const void *daddr, const void *udp, size_t udp_len);
/* True if the IPv4 header / UDP datagram (with their checksum fields in place) verify.
 * A UDP checksum field of 0 means "none" and verifies. */
int csum_ip4_ok(const void *iph, size_t hlen);
int csum_udp4_ok(const void *saddr, const void *daddr, const void *udp, size_t udp_len);

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), for one 16-bit field changing from m to m'. */
uint16_t csum_replace16(uint16_t hc, uint16_t old16, uint16_t new16);
/* The same for a 32-bit field (two 16-bit words as stored). */
uint16_t csum_replace32(uint16_t hc, uint32_t old32, uint32_t new32);
/* The same for an even-length byte range changing from old to new. */
uint16_t csum_replace_bytes(uint16_t hc, const void *old, const void *new_, size_t len);
/* UDP: an updated checksum of 0 must be sent as 0xffff. */
static inline uint16_t csum_udp_nonzero(uint16_t c)
{
	return c ? c : 0xffff;
}

#endif
