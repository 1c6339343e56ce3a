/* SPDX-License-Identifier: BSD-2-Clause */
/* route.h — the forwarder's IPv4 routing table and neighbour table.
 *
 * Routes map a prefix to an egress port and a gateway (0 = on-link: the next hop is the
 * destination itself). They are collected with rt_add (a later route for the same
 * prefix replaces an earlier one), then rt_build compiles them into a DIR-24-8 table
 * (a 2^24-entry first level indexed by the top 24 bits, 256-entry second-level groups
 * for prefixes longer than /24, as in Gupta, Lin & McKeown, "Routing lookups in
 * hardware at memory access speeds", 1998): a lookup is one or two memory reads
 * whatever the number of prefixes, and a million prefixes build in well under a
 * second. rt_lookup is valid after rt_build; routes are not changed while forwarding.
 *
 * Neighbours map (port, IPv4) to a MAC, loaded from the system's neighbour table at
 * start or given on the command line. Both tables are only read in the hot path.
 *
 * IPv6 (rt6_*, nt6_*): routes in a hash table per prefix length, a lookup probing the
 * lengths present from the longest down (a handful in practice: /128, /64, /48, /0);
 * neighbours from the kernel's NDP table (netlink) at start or from --neigh. */
#ifndef PPSLAB_RUT_ROUTE_H
#define PPSLAB_RUT_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rt;

struct rt *rt_new(void);
void rt_free(struct rt *rt);
/* prefix in network order; len 0..32; gw_be 0 for on-link. 0 or -errno. */
int rt_add(struct rt *rt, uint32_t prefix_be, uint8_t len, uint32_t gw_be, int port);
/* Compiles the lookup table from the routes added so far. 0 or -ENOMEM. */
int rt_build(struct rt *rt);
/* Egress port (>= 0) and next hop for dst, or -1 when no route matches. */
int rt_lookup(const struct rt *rt, uint32_t dst_be, uint32_t *nexthop_be);
int rt_count(const struct rt *rt);   /* routes added, both families (a replaced prefix
				      * counts once each) */

/* IPv6: prefix and gateway 16 bytes each, network order; gw NULL for on-link; len
 * 0..128. rt_build compiles them too. 0 or -errno. */
int rt6_add(struct rt *rt, const uint8_t prefix[16], uint8_t len, const uint8_t *gw, int port);
/* Egress port (>= 0) and next hop (the gateway or dst itself) for dst, or -1. */
int rt6_lookup(const struct rt *rt, const uint8_t dst[16], uint8_t nexthop[16]);

/* What route specs name: the ports, by interface name, with their connected subnets
 * (a gateway given without dev= is reached through the port whose subnet holds it). */
struct rt_ports {
	int n;
	const char *names[8];
	uint32_t addr_be[8];   /* 0 when the port has no IPv4 address */
	uint8_t plen[8];
	uint8_t addr6[8][16];  /* all zero when the port has no global IPv6 address */
	uint8_t plen6[8];
};

/* Does the spec (route line) name an IPv6 prefix ("2001:2::/64 via ...", "::/0 dev P")?
 * Then rt6_parse reads it, else rt_parse. */
bool rt_spec_is6(const char *s, size_t len);
/* An IPv6 route spec: "PREFIX6[/LEN]" (::/0 the default route), then "via GW6" and/or "dev PORT" as
 * for IPv4; a link-local gateway (fe80::/10) needs dev. gw all zero for on-link. */
int rt6_parse(const char *s, size_t len, const struct rt_ports *ports, uint8_t prefix[16],
	      uint8_t *plen, uint8_t gw[16], int *port, int *col, char *msg, size_t msglen);

/* One route spec: "PREFIX[/LEN]" or "default", then "via GW" and/or "dev PORT", the
 * keywords followed by a space or '=', items separated by spaces or commas:
 * "10.0.0.0/8,via=198.19.0.2", "10.0.0.0/8 via 198.19.0.2 dev rut1", "default dev rut1".
 * Returns 0, or -EINVAL with *col (1-based column of the fault) and a message. */
int rt_parse(const char *s, size_t len, const struct rt_ports *ports, uint32_t *prefix_be,
	     uint8_t *plen, uint32_t *gw_be, int *port, int *col, char *msg, size_t msglen);

/* Loads a route file: one spec per line, '#' comments and blank lines ignored. Adds the
 * routes (not all-or-nothing: the caller exits on error). Returns routes added, or
 * -errno with *line / *col (1-based) and a message (line 0: the file could not be read). */
int rt_load_file(struct rt *rt, const char *path, const struct rt_ports *ports, int *line,
		 int *col, char *msg, size_t msglen);

struct nt;

struct nt *nt_new(void);
void nt_free(struct nt *nt);
int nt_add(struct nt *nt, int port, uint32_t ip_be, const uint8_t mac[6]);
/* Pointer to the MAC for (port, ip), or NULL. */
const uint8_t *nt_lookup(const struct nt *nt, int port, uint32_t ip_be);
/* Loads the system's complete/permanent IPv4 neighbours of ifname as port's. Returns
 * the number added, or -errno. */
int nt_load_system(struct nt *nt, int port, const char *ifname);
int nt_count(const struct nt *nt);   /* both families */
int nt6_add(struct nt *nt, int port, const uint8_t ip[16], const uint8_t mac[6]);
const uint8_t *nt6_lookup(const struct nt *nt, int port, const uint8_t ip[16]);
/* Loads the kernel's IPv6 neighbours of interface ifindex that have a link-layer address
 * (any NUD state but incomplete and failed) as port's, over netlink (RTM_GETNEIGH).
 * Returns the number added, or -errno. */
int nt6_load_system(struct nt *nt, int port, int ifindex);

/* "IP=MAC@PORT" (--neigh), IP an IPv4 or IPv6 address: 0 with *af AF_INET (*ip_be) or
 * AF_INET6 (ip6), or -EINVAL with a message. */
int nt_parse(const char *s, const struct rt_ports *ports, int *af, uint32_t *ip_be,
	     uint8_t ip6[16], uint8_t mac[6], int *port, char *msg, size_t msglen);

#endif
