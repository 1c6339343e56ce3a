/* route.h — the forwarder's IPv4 routing table and neighbour table.
 *
 * Routes map a prefix to an egress port and a gateway (0 = on-link: the next hop is the
 * destination itself); lookup is longest-prefix match. Neighbours map (port, IPv4) to a
 * MAC, loaded from the system's neighbour table at start or given on the command line.
 * Both are built before forwarding starts and only read in the hot path. */
#ifndef PPSLAB_ROUTE_H
#define PPSLAB_ROUTE_H

#include <stdint.h>

struct rt;

struct rt *rt_new(void);
void rt_free(struct rt *rt);
/* prefix in network order; len 0..32; gw_be 0 for on-link. 0 or -errno. */
int rt_add(struct rt *rt, uint32_t prefix_be, uint8_t len, uint32_t gw_be, int port);
/* Egress port (>= 0) and next hop for dst, or -1 when no route matches. */
int rt_lookup(const struct rt *rt, uint32_t dst_be, uint32_t *nexthop_be);
int rt_count(const struct rt *rt);

struct nt;

struct nt *nt_new(void);
void nt_free(struct nt *nt);
int nt_add(struct nt *nt, int port, uint32_t ip_be, const uint8_t mac[6]);
/* Pointer to the MAC for (port, ip), or NULL. */
const uint8_t *nt_lookup(const struct nt *nt, int port, uint32_t ip_be);
/* Loads the system's complete/permanent IPv4 neighbours of ifname as port's. */
int nt_load_system(struct nt *nt, int port, const char *ifname);

#endif
