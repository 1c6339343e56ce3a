/* SPDX-License-Identifier: BSD-2-Clause */
/* t_ifinfo.c — the system side of ifinfo.h on the loopback interface, whichever
 * implementation the build has (ifinfo_linux.c: ioctl and rtnetlink; ifinfo_bsd.c in a
 * PORTABLE=1 build or on the BSDs: getifaddrs): index, MAC, MTU, 127.0.0.1/8, counters
 * that count a datagram sent through it, errors for an interface that is not there, and
 * (Linux) the kernel's route to local addresses, IPv4 and IPv6. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ifinfo.h"
#include "tap.h"

static const char *lo(void)
{
	return if_nametoindex("lo") ? "lo" : "lo0";
}

static void t_loopback(void)
{
	uint8_t mac[6] = { 1, 1, 1, 1, 1, 1 };
	uint32_t mtu = 0, addr = 0;
	uint8_t len = 0;
	int idx = if_index_of(lo());
	T_TRUE(idx > 0);
	T_EQ_INT(idx, (int)if_nametoindex(lo()));
	T_EQ_INT(if_hwaddr(lo(), mac), 0);
	T_TRUE(!memcmp(mac, "\0\0\0\0\0\0", 6));   /* loopback has no MAC */
	T_EQ_INT(if_mtu(lo(), &mtu), 0);
	T_TRUE(mtu >= 1500);
	T_EQ_INT(if_ip4(lo(), &addr, &len), 0);
	T_EQ_INT(addr, (int)htonl(INADDR_LOOPBACK));
	T_EQ_INT(len, 8);
}

static void t_counters(void)
{
	struct if_counters a, b;
	T_EQ_INT(if_counters_read(lo(), &a), 0);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	T_TRUE(fd >= 0);
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	for (int i = 0; i < 10; i++)
		T_TRUE(sendto(fd, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) == 1);
	close(fd);
	T_EQ_INT(if_counters_read(lo(), &b), 0);
	T_TRUE(b.tx_packets >= a.tx_packets + 10);   /* others may send on lo too */
	T_TRUE(b.rx_packets >= a.rx_packets + 10);
	T_TRUE(b.tx_bytes >= a.tx_bytes + 10 * 29);  /* IP + UDP + 1 byte each */
}

#if defined(__linux__) && !defined(PPSLAB_PORTABLE)
/* the kernel's route, not the main table's longest prefix: 127.0.0.1 and any 127/8
 * address are local (table local) and leave through lo, whatever the default route */
static void t_route_local(void)
{
	char ifn[IFINFO_NAMESZ] = "";
	uint32_t gw = 1, a;
	T_EQ_INT(route_lookup(htonl(INADDR_LOOPBACK), ifn, &gw), 0);
	T_STREQ(ifn, "lo");
	T_EQ_INT(gw, 0);
	T_EQ_INT(ip4_parse("127.1.2.3", &a), 0);
	ifn[0] = 0;
	T_EQ_INT(route_lookup(a, ifn, &gw), 0);
	T_STREQ(ifn, "lo");
}

/* IPv6 (RTM_GETROUTE and RTM_GETNEIGH with AF_INET6): ::1 is local and leaves through
 * lo, on-link (no gateway); lo keeps no neighbour entry for an address in 2001:2::/48;
 * an interface that is not there is named. Where the host has IPv6 off there is no ::1
 * to route to: then only the errors are checked. */
static void t_route_local6(void)
{
	char ifn[IFINFO_NAMESZ] = "";
	uint8_t gw[16], one[16] = { 0 }, bench[16] = { 0x20, 0x01, 0, 2, [15] = 9 }, mac[6];
	memset(gw, 0xee, sizeof(gw));
	one[15] = 1;
	int fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd >= 0 && access("/proc/net/if_inet6", F_OK) == 0) {
		T_EQ_INT(route_lookup6(one, ifn, gw), 0);
		T_STREQ(ifn, "lo");
		T_TRUE(!memcmp(gw, (uint8_t[16]){ 0 }, 16));
	}
	if (fd >= 0)
		close(fd);
	T_EQ_INT(neigh_lookup6(lo(), bench, mac), -ENOENT);
	T_EQ_INT(neigh_lookup6("ppslab-none9", bench, mac), -ENODEV);
}
#endif

static void t_missing(void)
{
	uint8_t mac[6];
	uint32_t v;
	uint8_t len;
	struct if_counters c;
	T_EQ_INT(if_index_of("ppslab-none9"), -ENODEV);
	T_TRUE(if_hwaddr("ppslab-none9", mac) < 0);
	T_TRUE(if_mtu("ppslab-none9", &v) < 0);
	T_TRUE(if_ip4("ppslab-none9", &v, &len) < 0);
	T_TRUE(if_counters_read("ppslab-none9", &c) < 0);
	T_EQ_INT(if_index_of("an-interface-name-far-too-long"), -ENAMETOOLONG);
#if !defined(__linux__) || defined(PPSLAB_PORTABLE)
	/* not in the portable implementation yet: callers ask for --dst-mac/--neigh */
	char ifn[IFINFO_NAMESZ];
	T_EQ_INT(route_lookup(htonl(INADDR_LOOPBACK), ifn, &v), -EOPNOTSUPP);
	T_EQ_INT(neigh_lookup(lo(), htonl(INADDR_LOOPBACK), mac), -EOPNOTSUPP);
	uint8_t a6[16] = { [15] = 1 };
	T_EQ_INT(route_lookup6(a6, ifn, a6), -EOPNOTSUPP);
	T_EQ_INT(neigh_lookup6(lo(), a6, mac), -EOPNOTSUPP);
#endif
}

int main(void)
{
	T_RUN(t_loopback);
	T_RUN(t_counters);
	T_RUN(t_missing);
#if defined(__linux__) && !defined(PPSLAB_PORTABLE)
	T_RUN(t_route_local);
	T_RUN(t_route_local6);
#endif
	return t_done();
}
