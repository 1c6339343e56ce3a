/* SPDX-License-Identifier: BSD-2-Clause */
/* ifinfo_linux.c — Linux implementation of ifinfo.h: ioctl for index/MAC/MTU,
 * getifaddrs for the IPv4 address, rtnetlink (RTM_GETLINK, IFLA_STATS64) for the 64-bit
 * counters and RTM_GETROUTE for the route — namespace-correct without a remounted /sys —
 * and /proc/net/arp, which follows the caller's network namespace; IPv6 neighbours by
 * RTM_GETNEIGH (no /proc file lists them). */
#if defined(__linux__) && !defined(PPSLAB_PORTABLE)
#include "ifinfo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int ifreq_ioctl(const char *ifname, unsigned long req, struct ifreq *ifr)
{
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(ifr, 0, sizeof(*ifr));
	strcpy(ifr->ifr_name, ifname);
	int rc = ioctl(fd, req, ifr) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

int if_index_of(const char *ifname)
{
	struct ifreq ifr;
	int rc = ifreq_ioctl(ifname, SIOCGIFINDEX, &ifr);
	return rc ? rc : ifr.ifr_ifindex;
}

int if_hwaddr(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;
	int rc = ifreq_ioctl(ifname, SIOCGIFHWADDR, &ifr);
	if (!rc)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return rc;
}

int if_mtu(const char *ifname, uint32_t *mtu)
{
	struct ifreq ifr;
	int rc = ifreq_ioctl(ifname, SIOCGIFMTU, &ifr);
	if (!rc)
		*mtu = (uint32_t)ifr.ifr_mtu;
	return rc;
}

int if_ip4(const char *ifname, uint32_t *addr_be, uint8_t *prefix_len)
{
	struct ifaddrs *ifa, *i;
	int rc = -EADDRNOTAVAIL;
	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || strcmp(i->ifa_name, ifname))
			continue;
		*addr_be = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
		if (prefix_len) {
			uint32_t m = ntohl(((struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr);
			*prefix_len = (uint8_t)__builtin_popcount(m);
		}
		rc = 0;
		break;
	}
	freeifaddrs(ifa);
	return rc;
}

/* One rtnetlink request and its answer: the first message of type want in the reply
 * (left in buf), 0; the kernel's error, or -errno; or none when the reply has neither. */
static int nl_request(const void *req, size_t len, uint16_t want, char *buf, size_t bufl,
		      struct nlmsghdr **msg, int none)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	ssize_t n = send(fd, req, len, 0) < 0 ? -1 : recv(fd, buf, bufl, 0);
	int rc = n < 0 ? -errno : none;
	close(fd);
	for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; n > 0 && NLMSG_OK(nh, (size_t)n);
	     nh = NLMSG_NEXT(nh, n)) {
		if (nh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(nh);
			rc = e->error ? e->error : none;
			break;
		}
		if (nh->nlmsg_type == want) {
			*msg = nh;
			rc = 0;
			break;
		}
	}
	return rc;
}

/* RTM_GETLINK of one interface: its RTM_NEWLINK message in buf. */
static int get_link(const char *ifname, char *buf, size_t bufl, struct nlmsghdr **nh)
{
	int idx = if_index_of(ifname);
	if (idx < 0)
		return idx;
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETLINK,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = idx },
	};
	return nl_request(&req, sizeof(req), RTM_NEWLINK, buf, bufl, nh, -ENODATA);
}

int if_rx_queues(const char *ifname, unsigned *n)
{
	char buf[16384];
	struct nlmsghdr *nh;
	int rc = get_link(ifname, buf, sizeof(buf), &nh);
	if (rc)
		return rc;
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	int alen = (int)IFLA_PAYLOAD(nh);
	for (struct rtattr *a = IFLA_RTA(ifi); RTA_OK(a, alen); a = RTA_NEXT(a, alen))
		if (a->rta_type == IFLA_NUM_RX_QUEUES && RTA_PAYLOAD(a) >= sizeof(uint32_t)) {
			uint32_t v;
			memcpy(&v, RTA_DATA(a), sizeof(v));
			*n = v;
			return 0;
		}
	return -ENODATA;
}

int if_counters_read(const char *ifname, struct if_counters *c)
{
	char buf[16384];
	struct nlmsghdr *nh;
	int rc = get_link(ifname, buf, sizeof(buf), &nh);
	if (rc)
		return rc;
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	int alen = (int)IFLA_PAYLOAD(nh);
	for (struct rtattr *a = IFLA_RTA(ifi); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
		if (a->rta_type != IFLA_STATS64)
			continue;
		struct rtnl_link_stats64 s;
		memset(&s, 0, sizeof(s));
		size_t l = RTA_PAYLOAD(a) < sizeof(s) ? RTA_PAYLOAD(a) : sizeof(s);
		memcpy(&s, RTA_DATA(a), l);
		*c = (struct if_counters){
			.rx_packets = s.rx_packets, .tx_packets = s.tx_packets,
			.rx_bytes = s.rx_bytes, .tx_bytes = s.tx_bytes,
			.rx_errors = s.rx_errors, .tx_errors = s.tx_errors,
			.rx_dropped = s.rx_dropped, .tx_dropped = s.tx_dropped,
			.rx_missed_errors = s.rx_missed_errors,
			.rx_fifo_errors = s.rx_fifo_errors,
			.rx_over_errors = s.rx_over_errors, .rx_crc_errors = s.rx_crc_errors,
			.rx_length_errors = s.rx_length_errors,
			.rx_frame_errors = s.rx_frame_errors,
			.tx_fifo_errors = s.tx_fifo_errors, .rx_nohandler = s.rx_nohandler,
		};
		return 0;
	}
	return -ENODATA;
}

int neigh_lookup(const char *ifname, uint32_t ip_be, uint8_t mac[6])
{
	FILE *f = fopen("/proc/net/arp", "r");
	char line[256], ip[64], hw[64], dev[64];
	unsigned type, flags;
	int rc = -ENOENT;
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {     /* header */
		fclose(f);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		uint32_t a;
		if (sscanf(line, "%63s 0x%x 0x%x %63s %*s %63s", ip, &type, &flags, hw, dev) != 5)
			continue;
		if (strcmp(dev, ifname) || ip4_parse(ip, &a) || a != ip_be)
			continue;
		if (!(flags & 0x2))      /* ATF_COM: complete (permanent entries have it too) */
			continue;
		if (mac_parse(hw, mac) == 0) {
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/* The kernel's own answer, as `ip route get` gives it (RTM_GETROUTE): every table and
 * policy rule counts, so a local destination leaves through lo rather than through the
 * default route of the main table. */
int route_lookup(uint32_t dst_be, char ifname[IFINFO_NAMESZ], uint32_t *gw_be)
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rt;
		struct rtattr dst_attr;
		uint32_t dst;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETROUTE,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.rt = { .rtm_family = AF_INET, .rtm_dst_len = 32 },
		.dst_attr = { .rta_len = RTA_LENGTH(sizeof(uint32_t)), .rta_type = RTA_DST },
		.dst = dst_be,
	};
	char buf[8192];
	struct nlmsghdr *nh;
	int rc = nl_request(&req, sizeof(req), RTM_NEWROUTE, buf, sizeof(buf), &nh, -ENETUNREACH);
	if (rc)
		return rc;
	struct rtmsg *rt = NLMSG_DATA(nh);
	if (rt->rtm_type != RTN_UNICAST && rt->rtm_type != RTN_LOCAL)
		return -ENETUNREACH;             /* blackhole, unreachable, prohibit */
	int alen = (int)RTM_PAYLOAD(nh), oif = 0;
	uint32_t gw = 0;
	for (struct rtattr *a = RTM_RTA(rt); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
		if (a->rta_type == RTA_OIF && RTA_PAYLOAD(a) >= sizeof(int))
			memcpy(&oif, RTA_DATA(a), sizeof(int));
		else if (a->rta_type == RTA_GATEWAY && RTA_PAYLOAD(a) >= 4)
			memcpy(&gw, RTA_DATA(a), 4);
	}
	char name[IF_NAMESIZE];
	if (oif <= 0 || !if_indextoname((unsigned)oif, name))
		return -ENETUNREACH;
	snprintf(ifname, IFINFO_NAMESZ, "%.15s", name);
	*gw_be = gw;
	return 0;
}

/* RTM_GETNEIGH of one entry (as `ip -6 neigh get IP dev IF`): the kernel answers with the
 * entry or ENOENT. */
int neigh_lookup6(const char *ifname, const uint8_t ip[16], uint8_t mac[6])
{
	int idx = if_index_of(ifname);
	if (idx < 0)
		return idx;
	struct {
		struct nlmsghdr nh;
		struct ndmsg nd;
		struct rtattr dst_attr;
		uint8_t dst[16];
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETNEIGH,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.nd = { .ndm_family = AF_INET6, .ndm_ifindex = idx },
		.dst_attr = { .rta_len = RTA_LENGTH(16), .rta_type = NDA_DST },
	};
	memcpy(req.dst, ip, 16);
	char buf[4096];
	struct nlmsghdr *nh;
	int rc = nl_request(&req, sizeof(req), RTM_NEWNEIGH, buf, sizeof(buf), &nh, -ENOENT);
	if (rc)
		return rc;
	struct ndmsg *nd = NLMSG_DATA(nh);
	if (!(nd->ndm_state & (NUD_PERMANENT | NUD_NOARP | NUD_REACHABLE | NUD_PROBE |
			       NUD_STALE | NUD_DELAY)))
		return -ENOENT;                  /* incomplete or failed */
	int alen = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(*nd)));
	for (struct rtattr *a = (struct rtattr *)((char *)nd + NLMSG_ALIGN(sizeof(*nd)));
	     RTA_OK(a, alen); a = RTA_NEXT(a, alen))
		if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6) {
			memcpy(mac, RTA_DATA(a), 6);
			return 0;
		}
	return -ENOENT;
}

int route_lookup6(const uint8_t dst[16], char ifname[IFINFO_NAMESZ], uint8_t gw[16])
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rt;
		struct rtattr dst_attr;
		uint8_t dst[16];
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETROUTE,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.rt = { .rtm_family = AF_INET6, .rtm_dst_len = 128 },
		.dst_attr = { .rta_len = RTA_LENGTH(16), .rta_type = RTA_DST },
	};
	memcpy(req.dst, dst, 16);
	char buf[8192];
	struct nlmsghdr *nh;
	int rc = nl_request(&req, sizeof(req), RTM_NEWROUTE, buf, sizeof(buf), &nh, -ENETUNREACH);
	if (rc)
		return rc;
	struct rtmsg *rt = NLMSG_DATA(nh);
	if (rt->rtm_type != RTN_UNICAST && rt->rtm_type != RTN_LOCAL)
		return -ENETUNREACH;             /* blackhole, unreachable, prohibit */
	int alen = (int)RTM_PAYLOAD(nh), oif = 0;
	memset(gw, 0, 16);
	for (struct rtattr *a = RTM_RTA(rt); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
		if (a->rta_type == RTA_OIF && RTA_PAYLOAD(a) >= sizeof(int))
			memcpy(&oif, RTA_DATA(a), sizeof(int));
		else if (a->rta_type == RTA_GATEWAY && RTA_PAYLOAD(a) >= 16)
			memcpy(gw, RTA_DATA(a), 16);
	}
	char name[IF_NAMESIZE];
	if (oif <= 0 || !if_indextoname((unsigned)oif, name))
		return -ENETUNREACH;
	snprintf(ifname, IFINFO_NAMESZ, "%.15s", name);
	return 0;
}
#endif
