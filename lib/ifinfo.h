/* SPDX-License-Identifier: BSD-2-Clause */
/* ifinfo.h — what the system knows about an interface: index, MAC, IPv4 address,
 * its own 64-bit counters, and neighbour/route lookups for resolving a next hop.
 *
 * This is the one small interface behind which system-specific code sits (Linux:
 * ifinfo_linux.c, netlink and /proc/net; FreeBSD/DragonFly, and Linux in a PORTABLE=1
 * build: ifinfo_bsd.c, getifaddrs). All calls act in the caller's network namespace.
 * Functions return 0 or -errno. ifinfo_bsd.c has no neighbour or route lookup yet:
 * those return -EOPNOTSUPP there, and callers ask for the MAC or route explicitly. */
#ifndef PPSLAB_LIB_IFINFO_H
#define PPSLAB_LIB_IFINFO_H

#include <stdint.h>

#define IFINFO_NAMESZ 16

/* The interface's own counters (Linux: struct rtnl_link_stats64 via RTM_GETLINK).
 * Names follow /sys/class/net/IF/statistics. Analogues in the em(4) driver the seeds
 * quote: rx_missed_errors ~ "Missed Packets", rx_fifo_errors ~ "Receive No Buffers",
 * rx_over_errors ~ "RX overruns". */
struct if_counters {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_errors, tx_errors, rx_dropped, tx_dropped;
	uint64_t rx_missed_errors, rx_fifo_errors, rx_over_errors, rx_crc_errors;
	uint64_t rx_length_errors, rx_frame_errors, tx_fifo_errors, rx_nohandler;
};

int if_index_of(const char *ifname);                  /* > 0, or -errno */
int if_hwaddr(const char *ifname, uint8_t mac[6]);
int if_ip4(const char *ifname, uint32_t *addr_be, uint8_t *prefix_len);
int if_counters_read(const char *ifname, struct if_counters *c);
int if_mtu(const char *ifname, uint32_t *mtu);
/* The receive queues the interface has (Linux: IFLA_NUM_RX_QUEUES; -EOPNOTSUPP
 * elsewhere). */
int if_rx_queues(const char *ifname, unsigned *n);

/* The neighbour (ARP) entry for ip on ifname, if complete or permanent. */
int neigh_lookup(const char *ifname, uint32_t ip_be, uint8_t mac[6]);
/* The route the kernel would use to reach dst (all tables and rules, as `ip route get`):
 * the outgoing interface (lo for a local address) and the gateway (0 when on-link).
 * -ENETUNREACH (or the kernel's error) when there is none, or it is a blackhole,
 * unreachable or prohibit route. */
int route_lookup(uint32_t dst_be, char ifname[IFINFO_NAMESZ], uint32_t *gw_be);
/* The same two for IPv6 (Linux: rtnetlink RTM_GETNEIGH and RTM_GETROUTE with AF_INET6;
 * -EOPNOTSUPP in ifinfo_bsd.c). neigh_lookup6: ip's entry on ifname if valid (reachable,
 * stale, delay, probe or permanent; -ENOENT otherwise). route_lookup6: the outgoing
 * interface and the gateway, all zero when on-link. */
int neigh_lookup6(const char *ifname, const uint8_t ip[16], uint8_t mac[6]);
int route_lookup6(const uint8_t dst[16], char ifname[IFINFO_NAMESZ], uint8_t gw[16]);

/* "02:00:00:00:00:01" <-> bytes. */
int mac_parse(const char *s, uint8_t mac[6]);
void mac_format(const uint8_t mac[6], char out[18]);
/* Dotted quad -> network order (strict: four decimal octets). */
int ip4_parse(const char *s, uint32_t *addr_be);
void ip4_format(uint32_t addr_be, char out[16]);
/* "a.b.c.d/len" (len 0..32; a bare address is /32). */
int ip4_parse_prefix(const char *s, uint32_t *addr_be, uint8_t *len);

#endif
