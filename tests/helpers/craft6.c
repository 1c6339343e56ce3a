/* SPDX-License-Identifier: BSD-2-Clause */
/* craft6.c — a test helper (not installed): sends hand-made IPv6 UDP frames for the
 * forwarder's IPv6 tests, until ppslab-gen sends IPv6 itself: chosen addresses, hop
 * limit, size, one malformed kind (--bad-plen: a payload length past the frame), and
 * TCP SYNs instead (--tcp-syn: port 9 to 9, sequence 0x01020304, for a reset rule).
 *
 *   craft6 -i IF --src ADDR6 --dst ADDR6 --dst-mac MAC [--hlim N] [--count N]
 *          [--size BYTES] [--bad-plen] [--tcp-syn] [--rate PPS]
 * Traffic goes only out of the caller's interface, in its namespace; rates are bounded. */
#include <arpa/inet.h>
#include <getopt.h>
#include <netinet/ip6.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "csum.h"
#include "ifinfo.h"
#include "num.h"
#include "port.h"

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "iface", 1, NULL, 'i' }, { "src", 1, NULL, 's' }, { "dst", 1, NULL, 'd' },
		{ "dst-mac", 1, NULL, 'm' }, { "hlim", 1, NULL, 'h' }, { "count", 1, NULL, 'n' },
		{ "size", 1, NULL, 'z' }, { "bad-plen", 0, NULL, 'b' }, { "rate", 1, NULL, 'r' },
		{ "tcp-syn", 0, NULL, 't' }, { NULL, 0, NULL, 0 },
	};
	const char *iface = NULL, *src = NULL, *dst = NULL, *dmac = NULL;
	uint64_t hlim = 64, count = 10, size = 78;
	double rate = 20000;
	int bad = 0, syn = 0, o;
	char err[256];
	while ((o = getopt_long(argc, argv, "i:", lo, NULL)) != -1) {
		switch (o) {
		case 'i': iface = optarg; break;
		case 's': src = optarg; break;
		case 'd': dst = optarg; break;
		case 'm': dmac = optarg; break;
		case 'b': bad = 1; break;
		case 't': syn = 1; break;
		case 'h': if (num_u64(optarg, 0, 255, &hlim)) goto usage; break;
		case 'n': if (num_u64(optarg, 1, 1000000, &count)) goto usage; break;
		case 'z': if (num_u64(optarg, 62, 1514, &size)) goto usage; break;
		case 'r': if (num_pps(optarg, &rate) || rate > 1e6) goto usage; break;
		default: goto usage;
		}
	}
	uint8_t fr[1514];
	memset(fr, 0, sizeof(fr));
	uint8_t *ip6 = fr + 14;     /* by offset: 2 bytes off struct ip6_hdr's alignment */
	if (!iface || !src || !dst || !dmac || inet_pton(AF_INET6, src, ip6 + 8) != 1 ||
	    inet_pton(AF_INET6, dst, ip6 + 24) != 1 || mac_parse(dmac, fr))
		goto usage;
	struct port *p;
	struct port_cfg pc = { .dir = PORT_TX, .frame_max = 1514 };
	if (port_open(iface, &pc, &p, err, sizeof(err))) {
		fprintf(stderr, "craft6: %s\n", err);
		return 69;
	}
	if (if_hwaddr(port_ifname(p), fr + 6)) {
		fprintf(stderr, "craft6: no MAC address on %s\n", port_ifname(p));
		port_close(p);
		return 69;
	}
	fr[12] = 0x86;
	fr[13] = 0xdd;
	uint16_t plen = (uint16_t)(size - 14 - 40);
	if (syn && plen < 20)
		goto usage;
	uint16_t said = bad ? (uint16_t)(plen + 8) : plen;
	ip6[0] = 6 << 4;
	ip6[4] = (uint8_t)(said >> 8);
	ip6[5] = (uint8_t)said;
	ip6[6] = 17;
	ip6[7] = (uint8_t)hlim;
	uint8_t *u = fr + 54;
	u[0] = 0; u[1] = 9; u[2] = 0; u[3] = 9;
	u[4] = (uint8_t)(plen >> 8);
	u[5] = (uint8_t)plen;
	for (unsigned i = 8; i < plen; i++)
		u[i] = (uint8_t)i;
	if (syn) {
		/* a TCP SYN: sequence 0x01020304, a 20-byte header, window 65535 */
		ip6[6] = 6;
		memcpy(u + 4, (const uint8_t[]){ 1, 2, 3, 4, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
						 0, 0, 0, 0 }, 16);
	}
	/* the UDP or TCP checksum over the pseudo-header (RFC 8200 8.1) */
	uint8_t ph[8] = { 0, 0, (uint8_t)(plen >> 8), (uint8_t)plen, 0, 0, 0, ip6[6] };
	uint16_t c = csum_fold(csum_add(csum_add(csum_add(0, ip6 + 8, 32), ph, 8), u, plen));
	if (syn)
		memcpy(u + 16, &c, 2);
	else
		memcpy(u + 6, c ? &c : &(uint16_t){ 0xffff }, 2);
	uint64_t t0 = mono_ns(), sent = 0;
	for (uint64_t i = 0; i < count; i++) {
		clock_wait_until(t0 + (uint64_t)((double)i * 1e9 / rate), 50000);
		struct port_pkt pk = { .data = fr, .len = (uint32_t)size };
		for (int tries = 0; port_tx_burst(p, &pk, 1) != 1; tries++) {
			if (tries > 100000) {
				fprintf(stderr, "craft6: the ring stays full\n");
				port_close(p);
				return 74;
			}
		}
		sent++;
	}
	printf("{\"schema\":\"ppslab/craft6\",\"type\":\"summary\",\"frames\":%llu}\n",
	       (unsigned long long)sent);
	port_close(p);
	return 0;
usage:
	fprintf(stderr, "usage: craft6 -i IF --src ADDR6 --dst ADDR6 --dst-mac MAC [--hlim N] "
		"[--count N] [--size BYTES] [--bad-plen] [--tcp-syn] [--rate PPS]\n");
	return 64;
}
