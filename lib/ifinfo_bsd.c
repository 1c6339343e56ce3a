/* SPDX-License-Identifier: BSD-2-Clause */
/* ifinfo_bsd.c — the portable implementation of ifinfo.h, for FreeBSD and DragonFly
 * (and Linux in a PORTABLE=1 build, which leaves ifinfo_linux.c out): if_nametoindex,
 * getifaddrs for the MAC (AF_LINK on the BSDs, AF_PACKET on Linux), the IPv4 address and
 * the counters (the link entry's ifa_data: struct if_data on the BSDs, struct
 * rtnl_link_stats on Linux), ioctl(SIOCGIFMTU) for the MTU. Called by every program
 * through ifinfo.h.
 *
 * Not here yet: neighbour and route lookups (the BSDs need a PF_ROUTE RTM_GET or the
 * NET_RT_FLAGS sysctl); they return -EOPNOTSUPP, and the callers then ask for the
 * value explicitly (ppslab-gen --dst-mac, ppslab-rut --neigh and --route). */
#if !defined(__linux__) || defined(PPSLAB_PORTABLE)
#include "ifinfo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/if_link.h>
#include <netpacket/packet.h>
#define IFI_LINK_FAMILY AF_PACKET
#else
#include <net/if_dl.h>
#define IFI_LINK_FAMILY AF_LINK
#endif

int if_index_of(const char *ifname)
{
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	unsigned idx = if_nametoindex(ifname);
	return idx ? (int)idx : (errno ? -errno : -ENODEV);
}

/* The getifaddrs entry of ifname in family fam (the first), in *list (to be freed). */
static int find_ifa(const char *ifname, int fam, struct ifaddrs **list, struct ifaddrs **out)
{
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	if (getifaddrs(list))
		return -errno;
	for (struct ifaddrs *a = *list; a; a = a->ifa_next)
		if (a->ifa_addr && a->ifa_addr->sa_family == fam && !strcmp(a->ifa_name, ifname)) {
			*out = a;
			return 0;
		}
	freeifaddrs(*list);
	*list = NULL;
	return if_nametoindex(ifname) ? -EADDRNOTAVAIL : -ENODEV;
}

int if_hwaddr(const char *ifname, uint8_t mac[6])
{
	struct ifaddrs *list, *a;
	int rc = find_ifa(ifname, IFI_LINK_FAMILY, &list, &a);
	if (rc)
		return rc;
#ifdef __linux__
	const struct sockaddr_ll *ll = (const struct sockaddr_ll *)(void *)a->ifa_addr;
	if (ll->sll_halen == 6)
		memcpy(mac, ll->sll_addr, 6);
	else if (ll->sll_halen == 0)
		memset(mac, 0, 6);   /* loopback */
	else
		rc = -EAFNOSUPPORT;
#else
	const struct sockaddr_dl *dl = (const struct sockaddr_dl *)(void *)a->ifa_addr;
	if (dl->sdl_alen == 6)
		memcpy(mac, LLADDR(dl), 6);
	else if (dl->sdl_alen == 0)
		memset(mac, 0, 6);
	else
		rc = -EAFNOSUPPORT;
#endif
	freeifaddrs(list);
	return rc;
}

int if_mtu(const char *ifname, uint32_t *mtu)
{
	struct ifreq ifr;
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, ifname);
	int rc = ioctl(fd, SIOCGIFMTU, &ifr) < 0 ? -errno : 0;
	close(fd);
	if (!rc)
		*mtu = (uint32_t)ifr.ifr_mtu;
	return rc;
}

int if_ip4(const char *ifname, uint32_t *addr_be, uint8_t *prefix_len)
{
	struct ifaddrs *list, *a;
	int rc = find_ifa(ifname, AF_INET, &list, &a);
	if (rc)
		return rc;
	*addr_be = ((const struct sockaddr_in *)(void *)a->ifa_addr)->sin_addr.s_addr;
	uint8_t len = 32;
	if (a->ifa_netmask) {
		uint32_t m = ntohl(((const struct sockaddr_in *)(void *)a->ifa_netmask)->sin_addr.s_addr);
		for (len = 0; len < 32 && (m & (0x80000000u >> len)); len++)
			;
	}
	if (prefix_len)
		*prefix_len = len;
	freeifaddrs(list);
	return 0;
}

int if_counters_read(const char *ifname, struct if_counters *c)
{
	struct ifaddrs *list, *a;
	int rc = find_ifa(ifname, IFI_LINK_FAMILY, &list, &a);
	if (rc)
		return rc;
	if (!a->ifa_data) {
		freeifaddrs(list);
		return -ENODATA;
	}
	memset(c, 0, sizeof(*c));
#ifdef __linux__
	/* 32-bit counters: getifaddrs copies struct rtnl_link_stats, not the 64-bit set */
	const struct rtnl_link_stats *s = a->ifa_data;
	*c = (struct if_counters){
		.rx_packets = s->rx_packets, .tx_packets = s->tx_packets,
		.rx_bytes = s->rx_bytes, .tx_bytes = s->tx_bytes,
		.rx_errors = s->rx_errors, .tx_errors = s->tx_errors,
		.rx_dropped = s->rx_dropped, .tx_dropped = s->tx_dropped,
		.rx_missed_errors = s->rx_missed_errors, .rx_fifo_errors = s->rx_fifo_errors,
		.rx_over_errors = s->rx_over_errors, .rx_crc_errors = s->rx_crc_errors,
		.rx_length_errors = s->rx_length_errors, .rx_frame_errors = s->rx_frame_errors,
		.tx_fifo_errors = s->tx_fifo_errors, .rx_nohandler = s->rx_nohandler,
	};
#else
	/* struct if_data: no per-cause drop split; iqdrops are the input queue's drops
	 * (the em(4) "Missed Packets" surface in ierrors there) */
	const struct if_data *d = a->ifa_data;
	c->rx_packets = d->ifi_ipackets;
	c->tx_packets = d->ifi_opackets;
	c->rx_bytes = d->ifi_ibytes;
	c->tx_bytes = d->ifi_obytes;
	c->rx_errors = d->ifi_ierrors;
	c->tx_errors = d->ifi_oerrors;
	c->rx_dropped = d->ifi_iqdrops;
#ifdef __FreeBSD__
	c->tx_dropped = d->ifi_oqdrops;
#endif
	c->rx_nohandler = d->ifi_noproto;
#endif
	freeifaddrs(list);
	return 0;
}

int if_rx_queues(const char *ifname, unsigned *n)
{
	(void)ifname;
	(void)n;
	return -EOPNOTSUPP;
}

int neigh_lookup(const char *ifname, uint32_t ip_be, uint8_t mac[6])
{
	(void)ifname;
	(void)ip_be;
	(void)mac;
	return -EOPNOTSUPP;
}

int route_lookup(uint32_t dst_be, char ifname[IFINFO_NAMESZ], uint32_t *gw_be)
{
	(void)dst_be;
	(void)ifname;
	(void)gw_be;
	return -EOPNOTSUPP;
}

int neigh_lookup6(const char *ifname, const uint8_t ip[16], uint8_t mac[6])
{
	(void)ifname;
	(void)ip;
	(void)mac;
	return -EOPNOTSUPP;
}

int route_lookup6(const uint8_t dst[16], char ifname[IFINFO_NAMESZ], uint8_t gw[16])
{
	(void)dst;
	(void)ifname;
	(void)gw;
	return -EOPNOTSUPP;
}
#endif
