/* SPDX-License-Identifier: BSD-2-Clause */
/* t_route.c — the routing table: longest-prefix match against a brute-force reference
 * on random tables (all lengths, overlaps, replacements), route specs and files with
 * error positions, neighbours, and a generated table of a million prefixes (load and
 * lookup times printed as TAP comments, never asserted). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "route.h"
#include "tap.h"

static uint32_t be(const char *s)
{
	struct in_addr a;
	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

static uint64_t xs = 88172645463325252ULL;
static uint32_t rnd(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return (uint32_t)xs;
}

static const uint8_t *a6(const char *s)
{
	static uint8_t b[4][16];
	static int k;
	uint8_t *r = b[k++ & 3];
	inet_pton(AF_INET6, s, r);
	return r;
}

static const struct rt_ports PORTS = {
	.n = 2, .names = { "rut0", "rut1" },
	.addr_be = { 0x010012c6 /* 198.18.0.1 */, 0x010013c6 /* 198.19.0.1 */ },
	.plen = { 24, 24 },
	.addr6 = { { 0x20, 0x01, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },      /* 2001:2::1 */
		   { 0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 } },   /* 2001:2:0:1::1 */
	.plen6 = { 64, 64 },
};

/* IPv6 longest-prefix match: hand-made table, then random tables against a brute-force
 * reference (all lengths, overlaps, replacements) */
static int ref6(const uint8_t (*pfx)[16], const uint8_t *len, const int *port, int n,
		const uint8_t d[16])
{
	int best = -1, bl = -1;
	for (int i = 0; i < n; i++) {
		unsigned b = 0;
		while (b < len[i] && !((pfx[i][b / 8] ^ d[b / 8]) & (0x80u >> (b % 8))))
			b++;
		if (b == len[i] && (int)len[i] >= bl) {   /* >=: the later one replaces */
			bl = len[i];
			best = port[i];
		}
	}
	return best;
}

static void t_ipv6(void)
{
	struct rt *rt = rt_new();
	uint8_t nh[16];
	T_EQ_INT(rt6_lookup(rt, a6("2001:2::5"), nh), -1);   /* not built: no route */
	T_EQ_INT(rt6_add(rt, a6("2001:2::"), 64, NULL, 0), 0);
	T_EQ_INT(rt6_add(rt, a6("2001:2:0:1::"), 64, NULL, 1), 0);
	T_EQ_INT(rt6_add(rt, a6("2001:2:8000::"), 33, a6("2001:2:0:1::9"), 1), 0);
	T_EQ_INT(rt6_add(rt, a6("2001:2:8000::77"), 128, a6("2001:2::9"), 0), 0);
	T_EQ_INT(rt6_add(rt, a6("::"), 0, a6("fe80::1"), 0), 0);
	T_EQ_INT(rt6_add(rt, a6("::"), 129, NULL, 0), -EINVAL);
	T_EQ_INT(rt_add(rt, be("198.18.0.0"), 24, 0, 0), 0);
	T_EQ_INT(rt_build(rt), 0);
	T_EQ_INT(rt_count(rt), 6);
	T_EQ_INT(rt6_lookup(rt, a6("2001:2:0:1::2"), nh), 1);
	T_TRUE(!memcmp(nh, a6("2001:2:0:1::2"), 16));   /* on-link: the destination */
	T_EQ_INT(rt6_lookup(rt, a6("2001:2:ffff::1"), nh), 1);
	T_TRUE(!memcmp(nh, a6("2001:2:0:1::9"), 16));
	T_EQ_INT(rt6_lookup(rt, a6("2001:2:8000::77"), nh), 0);
	T_TRUE(!memcmp(nh, a6("2001:2::9"), 16));
	T_EQ_INT(rt6_lookup(rt, a6("2001:2:7fff::1"), nh), 0);   /* /33 misses: default */
	T_TRUE(!memcmp(nh, a6("fe80::1"), 16));
	/* a later route for a prefix replaces the earlier one */
	T_EQ_INT(rt6_add(rt, a6("2001:2:8000::"), 33, NULL, 0), 0);
	T_EQ_INT(rt_build(rt), 0);
	T_EQ_INT(rt6_lookup(rt, a6("2001:2:ffff::1"), nh), 0);
	rt_free(rt);

	enum { N = 300 };
	static uint8_t pfx[N][16], len[N];
	static int port[N];
	for (int round = 0; round < 20; round++) {
		rt = rt_new();
		int n = 1 + (int)(rnd() % N);
		for (int i = 0; i < n; i++) {
			/* few distinct bits so that prefixes overlap */
			memset(pfx[i], 0, 16);
			pfx[i][0] = 0x20;
			pfx[i][1] = 0x01;
			pfx[i][(rnd() % 16)] ^= (uint8_t)(rnd() & 0xc0);
			pfx[i][15] = (uint8_t)(rnd() & 3);
			len[i] = (uint8_t)(rnd() % 129);
			for (unsigned b = len[i]; b < 128; b++)
				pfx[i][b / 8] &= (uint8_t)~(0x80u >> (b % 8));
			port[i] = (int)(rnd() % 8);
			T_EQ_INT(rt6_add(rt, pfx[i], len[i], NULL, port[i]), 0);
		}
		T_EQ_INT(rt_build(rt), 0);
		int bad = 0;
		for (int q = 0; q < 2000; q++) {
			uint8_t d[16];
			memcpy(d, pfx[rnd() % (unsigned)n], 16);
			d[rnd() % 16] ^= (uint8_t)(1u << (rnd() % 8));
			if (rt6_lookup(rt, d, nh) != ref6(pfx, len, port, n, d))
				bad++;
		}
		T_EQ_INT(bad, 0);
		rt_free(rt);
	}
}

static void t_parse6(void)
{
	uint8_t p[16], gw[16];
	uint8_t l;
	int port, col;
	char msg[160];
#define P6(s) rt6_parse(s, strlen(s), &PORTS, p, &l, gw, &port, &col, msg, sizeof(msg))
	T_TRUE(rt_spec_is6("2001:2::/48 via 2001:2::9", 24));
	T_TRUE(rt_spec_is6("::/0 dev rut0", 13));
	T_TRUE(!rt_spec_is6("10.0.0.0/8 via 198.19.0.2", 25));
	T_EQ_INT(P6("2001:2:8000::1/33,via=2001:2:0:1::9"), 0);
	T_TRUE(!memcmp(p, a6("2001:2:8000::"), 16));   /* masked */
	T_EQ_INT(l, 33);
	T_EQ_INT(port, 1);                                  /* the gateway's connected port */
	T_TRUE(!memcmp(gw, a6("2001:2:0:1::9"), 16));
	T_EQ_INT(P6("::/0 via fe80::1 dev rut0"), 0);
	T_EQ_INT(l, 0);
	T_EQ_INT(port, 0);
	T_EQ_INT(P6("2001:2:5::/64 dev rut1"), 0);
	T_TRUE(!memcmp(gw, a6("::"), 16));                  /* on-link */
	T_EQ_INT(P6("2001:2:5::/129 dev rut1"), -EINVAL);
	T_EQ_INT(col, 12);
	T_STREQ(msg, "expected a prefix length 0..128");
	T_EQ_INT(P6("2001:2:5::/64 via fe80::1"), -EINVAL);
	T_EQ_INT(col, 19);
	T_STREQ(msg, "a link-local gateway needs dev PORT (its scope is one link)");
	T_EQ_INT(P6("2001:2:5::/64 via 2001:3::1"), -EINVAL);
	T_STREQ(msg, "gateway 2001:3::1 is not on a connected subnet of a port (add dev PORT)");
	T_EQ_INT(P6("2001:2:5::/64 via 198.19.0.2"), -EINVAL);
	T_STREQ(msg, "expected a gateway IPv6 address");
	T_EQ_INT(P6("2001:2:5:::/64 dev rut1"), -EINVAL);
	T_EQ_INT(col, 1);
	T_EQ_INT(P6("2001:2:5::/64"), -EINVAL);
	T_STREQ(msg, "expected 'via GW' or 'dev PORT' after the prefix");
#undef P6
	/* a route file mixes the families */
	char path[] = "/tmp/t_route6_XXXXXX";
	int fd = mkstemp(path);
	const char *txt = "198.19.128.0/17 via 198.19.0.9\n2001:2:8000::/33 via 2001:2:0:1::9\n"
			  "2001:2:9::/64 bogus\n";
	T_EQ_INT((int)write(fd, txt, strlen(txt)), (int)strlen(txt));
	close(fd);
	struct rt *rt = rt_new();
	int line;
	T_EQ_INT(rt_load_file(rt, path, &PORTS, &line, &col, msg, sizeof(msg)), -EINVAL);
	T_EQ_INT(line, 3);
	T_EQ_INT(col, 15);
	T_EQ_INT(rt_count(rt), 2);
	T_EQ_INT(rt_build(rt), 0);
	uint8_t nh[16];
	T_EQ_INT(rt6_lookup(rt, a6("2001:2:9000::1"), nh), 1);
	unlink(path);
	rt_free(rt);
}

static void t_basic(void)
{
	struct rt *rt = rt_new();
	uint32_t nh;
	T_EQ_INT(rt_add(rt, be("198.18.0.0"), 24, 0, 0), 0);
	T_EQ_INT(rt_add(rt, be("198.19.0.0"), 24, 0, 1), 0);
	T_EQ_INT(rt_add(rt, be("10.0.0.0"), 8, be("198.19.0.2"), 1), 0);
	T_EQ_INT(rt_add(rt, be("10.1.2.128"), 25, be("198.18.0.2"), 0), 0);
	T_EQ_INT(rt_add(rt, be("10.1.2.200"), 32, be("198.19.0.9"), 1), 0);
	T_EQ_INT(rt_add(rt, 0, 33, 0, 0), -EINVAL);
	T_EQ_INT(rt_build(rt), 0);
	T_EQ_INT(rt_lookup(rt, be("198.19.0.2"), &nh), 1);
	T_EQ_U64(nh, be("198.19.0.2"));              /* on-link: next hop is the destination */
	T_EQ_INT(rt_lookup(rt, be("10.9.9.9"), &nh), 1);
	T_EQ_U64(nh, be("198.19.0.2"));
	T_EQ_INT(rt_lookup(rt, be("10.1.2.127"), &nh), 1);
	T_EQ_INT(rt_lookup(rt, be("10.1.2.129"), &nh), 0);
	T_EQ_U64(nh, be("198.18.0.2"));
	T_EQ_INT(rt_lookup(rt, be("10.1.2.200"), &nh), 1);
	T_EQ_U64(nh, be("198.19.0.9"));
	T_EQ_INT(rt_lookup(rt, be("10.1.2.201"), &nh), 0);
	T_EQ_INT(rt_lookup(rt, be("11.0.0.1"), &nh), -1);
	T_EQ_INT(rt_count(rt), 5);
	/* a default route, added later, and a replaced prefix: the later one wins */
	T_EQ_INT(rt_add(rt, 0, 0, be("198.18.0.2"), 0), 0);
	T_EQ_INT(rt_add(rt, be("10.0.0.0"), 8, be("198.18.0.3"), 0), 0);
	T_EQ_INT(rt_build(rt), 0);
	T_EQ_INT(rt_lookup(rt, be("11.0.0.1"), &nh), 0);
	T_EQ_INT(rt_lookup(rt, be("10.9.9.9"), &nh), 0);
	T_EQ_U64(nh, be("198.18.0.3"));
	T_EQ_INT(rt_lookup(rt, be("10.1.2.200"), &nh), 1);   /* the /32 still wins */
	rt_free(rt);
}

#define NREF 3000
static struct { uint32_t pfx; uint8_t len; int port; uint32_t gw; } ref[NREF];

static int ref_lookup(int n, uint32_t dst, uint32_t *gw)
{
	int best = -1, bl = -1;
	for (int i = 0; i < n; i++) {
		uint32_t m = ref[i].len ? 0xffffffffU << (32 - ref[i].len) : 0;
		if ((dst & m) == ref[i].pfx && ref[i].len >= bl) {   /* >=: later replaces */
			bl = ref[i].len;
			best = i;
		}
	}
	if (best < 0)
		return -1;
	*gw = ref[best].gw;
	return ref[best].port;
}

/* random prefixes of every length, clustered so they overlap; lookups compared with a
 * linear scan */
static void t_random_vs_reference(void)
{
	struct rt *rt = rt_new();
	for (int i = 0; i < NREF; i++) {
		uint8_t len = (uint8_t)(rnd() % 33);
		uint32_t a = (0x0a000000u | (rnd() & 0x0003ffffu)) ^ ((rnd() % 4) << 24);
		uint32_t m = len ? 0xffffffffU << (32 - len) : 0;
		ref[i].pfx = a & m;
		ref[i].len = len;
		ref[i].port = (int)(rnd() % 4);
		ref[i].gw = rnd() | 1;
		T_EQ_INT(rt_add(rt, htonl(a), len, htonl(ref[i].gw), ref[i].port), 0);
	}
	T_EQ_INT(rt_build(rt), 0);
	int bad = 0;
	for (int k = 0; k < 200000 && bad < 3; k++) {
		uint32_t dst = (0x0a000000u | (rnd() & 0x0003ffffu)) ^ ((rnd() % 8) << 24), gw = 0, nh = 0;
		int want = ref_lookup(NREF, dst, &gw);
		int got = rt_lookup(rt, htonl(dst), &nh);
		if (got != want || (want >= 0 && nh != htonl(gw))) {
			T_FAIL("dst %08x: port %d (nh %08x), expected %d (gw %08x)", dst, got, ntohl(nh), want, gw);
			bad++;
		}
	}
	rt_free(rt);
}

static void t_parse(void)
{
	uint32_t p, gw;
	uint8_t l;
	int port, col;
	char msg[160];
#define P(s) rt_parse(s, strlen(s), &PORTS, &p, &l, &gw, &port, &col, msg, sizeof(msg))
	T_EQ_INT(P("10.0.0.0/8,via=198.19.0.2"), 0);
	T_EQ_U64(p, be("10.0.0.0"));
	T_EQ_INT(l, 8);
	T_EQ_U64(gw, be("198.19.0.2"));
	T_EQ_INT(port, 1);                            /* the port whose subnet holds the gateway */
	T_EQ_INT(P("10.1.2.3/16 via 198.18.0.7 dev rut1"), 0);
	T_EQ_U64(p, be("10.1.0.0"));                  /* host bits masked, as BSD route does */
	T_EQ_INT(port, 1);
	T_EQ_INT(P("default dev rut0"), 0);
	T_EQ_INT(l, 0);
	T_EQ_U64(gw, 0);
	T_EQ_INT(port, 0);
	T_EQ_INT(P("192.0.2.1,dev=rut1"), 0);
	T_EQ_INT(l, 32);
	T_EQ_INT(P("10.0.0.0/33,dev=rut0"), -EINVAL);
	T_EQ_INT(col, 10);
	T_STREQ(msg, "expected a prefix length 0..32");
	T_EQ_INT(P("10.0.0/8,dev=rut0"), -EINVAL);
	T_EQ_INT(col, 1);
	T_EQ_INT(P("10.0.0.0/8"), -EINVAL);
	T_EQ_INT(col, 11);
	T_EQ_INT(P("10.0.0.0/8,dev=eth9"), -EINVAL);
	T_EQ_INT(col, 16);
	T_STREQ(msg, "'eth9' is not one of the forwarder's ports");
	T_EQ_INT(P("10.0.0.0/8 via 203.0.113.1"), -EINVAL);
	T_EQ_INT(col, 16);
	T_STREQ(msg, "gateway 203.0.113.1 is not on a connected subnet of a port (add dev PORT)");
	T_EQ_INT(P("10.0.0.0/8 gw 1.2.3.4"), -EINVAL);
	T_EQ_INT(col, 12);
	T_EQ_INT(P("10.0.0.0/8x dev rut0"), -EINVAL);
	T_EQ_INT(col, 11);
	T_EQ_INT(P("10.0.0.0/8 via 1.2.3"), -EINVAL);
	T_EQ_INT(P("10.0.0.0/8 via="), -EINVAL);
#undef P
}

static void t_file_errors(void)
{
	char path[] = "/tmp/ppslab-t_route.XXXXXX";
	int fd = mkstemp(path), line, col;
	char msg[160];
	const char *text = "# routes\n\n10.0.0.0/8 via 198.19.0.2\n 11.0.0.0/8,dev=rut1 # tail\n"
			   "12.0.0.0/8 dev rut7\n";
	T_TRUE(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	struct rt *rt = rt_new();
	T_EQ_INT(rt_load_file(rt, path, &PORTS, &line, &col, msg, sizeof(msg)), -EINVAL);
	T_EQ_INT(line, 5);
	T_EQ_INT(col, 16);
	T_EQ_INT(rt_count(rt), 2);
	rt_free(rt);
	rt = rt_new();
	T_EQ_INT(rt_load_file(rt, "/nonexistent/routes", &PORTS, &line, &col, msg, sizeof(msg)), -ENOENT);
	T_EQ_INT(line, 0);
	rt_free(rt);
	unlink(path);
}

static void t_neigh(void)
{
	struct nt *nt = nt_new();
	uint8_t mac[6] = { 2, 0x70, 0x70, 1, 0, 2 }, m2[6];
	uint32_t ip;
	uint8_t ip6[16];
	int port, af;
	char msg[160];
#define nt_parse(s, P, ip, m, port, msg, n) nt_parse(s, P, &af, ip, ip6, m, port, msg, n)
	T_EQ_INT(nt_parse("198.19.0.2=02:70:70:01:00:02@rut1", &PORTS, &ip, m2, &port, msg, sizeof(msg)), 0);
	T_EQ_INT(af, AF_INET);
	T_EQ_U64(ip, be("198.19.0.2"));
	T_EQ_INT(port, 1);
	T_TRUE(!memcmp(m2, mac, 6));
	T_EQ_INT(nt_parse("198.19.0.2=02:70:70:01:00:02@eth0", &PORTS, &ip, m2, &port, msg, sizeof(msg)), -EINVAL);
	T_STREQ(msg, "'eth0' is not one of the forwarder's ports");
	T_EQ_INT(nt_parse("198.19.0.2=zz@rut1", &PORTS, &ip, m2, &port, msg, sizeof(msg)), -EINVAL);
	T_EQ_INT(nt_parse("198.19.0.2", &PORTS, &ip, m2, &port, msg, sizeof(msg)), -EINVAL);
	/* IPv6 neighbours: the address's colons do not confuse IP=MAC */
	T_EQ_INT(nt_parse("2001:2:0:1::2=02:70:70:01:00:02@rut1", &PORTS, &ip, m2, &port, msg,
			  sizeof(msg)), 0);
	T_EQ_INT(af, AF_INET6);
	T_TRUE(!memcmp(ip6, a6("2001:2:0:1::2"), 16));
	T_EQ_INT(port, 1);
	T_EQ_INT(nt_parse("2001:2::zz=02:70:70:01:00:02@rut1", &PORTS, &ip, m2, &port, msg,
			  sizeof(msg)), -EINVAL);
	T_STREQ(msg, "'2001:2::zz' is not an IPv6 address");
#undef nt_parse
	T_EQ_INT(nt6_add(nt, 1, ip6, mac), 0);
	T_TRUE(nt6_lookup(nt, 1, ip6) != NULL);
	T_TRUE(nt6_lookup(nt, 0, ip6) == NULL);
	T_TRUE(nt6_lookup(nt, 1, a6("2001:2:0:1::3")) == NULL);
	T_EQ_INT(nt_count(nt), 1);
	nt_free(nt);
	nt = nt_new();
	for (uint32_t i = 0; i < 1000; i++) {
		mac[5] = (uint8_t)i;
		T_EQ_INT(nt_add(nt, (int)(i % 2), htonl(0x0a000000u + i), mac), 0);
	}
	T_EQ_INT(nt_count(nt), 1000);
	const uint8_t *got = nt_lookup(nt, 1, htonl(0x0a000000u + 777));
	T_TRUE(got && got[5] == (uint8_t)777);
	T_TRUE(nt_lookup(nt, 0, htonl(0x0a000000u + 777)) == NULL);
	nt_free(nt);
}

/* a million prefixes from a file: load + build time and lookup cost, printed */
static void t_million(void)
{
	char path[] = "/tmp/ppslab-t_route1m.XXXXXX";
	int fd = mkstemp(path), line, col;
	char msg[160];
	FILE *f = fdopen(fd, "w");
	const int n = 1000000;
	/* lengths shaped like an Internet table: over half /24, most of the rest /16../23,
	 * a few short and a few host routes */
	static const uint8_t lens[100] = {
		8, 12, 13, 14, 15, 16, 16, 16, 17, 18, 18, 19, 19, 19, 20, 20, 20, 20, 21, 21,
		21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23, 23, 23, 23,
		23, 23, 23, 25, 26, 28, 29, 30, 32, 32 };
	for (int i = 0; i < n; i++) {
		uint32_t a = rnd();
		int r = (int)(rnd() % 100);
		int len = r < 50 ? lens[r] : 24;
		fprintf(f, "%u.%u.%u.%u/%d %s\n", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255,
			len, (i & 1) ? "via 198.19.0.2" : "dev rut0");
	}
	fclose(f);
	struct rt *rt = rt_new();
	uint64_t t0 = mono_ns();
	T_EQ_INT(rt_load_file(rt, path, &PORTS, &line, &col, msg, sizeof(msg)), n);
	uint64_t t1 = mono_ns();
	T_EQ_INT(rt_build(rt), 0);
	uint64_t t2 = mono_ns();
	printf("# 1,000,000 routes: file parsed in %.0f ms, table built in %.0f ms\n",
	       (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6);
	uint32_t nh, sum = 0;
	const int lookups = 5000000;
	uint64_t t3 = mono_ns();
	for (int i = 0; i < lookups; i++)
		sum += (uint32_t)rt_lookup(rt, rnd(), &nh);
	uint64_t t4 = mono_ns();
	printf("# %d random lookups: %.1f ns each (checksum %u)\n", lookups,
	       (double)(t4 - t3) / lookups, sum);
	T_EQ_INT(rt_count(rt), n);
	rt_free(rt);
	unlink(path);
}

int main(void)
{
	T_RUN(t_basic);
	T_RUN(t_random_vs_reference);
	T_RUN(t_parse);
	T_RUN(t_file_errors);
	T_RUN(t_neigh);
	T_RUN(t_ipv6);
	T_RUN(t_parse6);
	T_RUN(t_million);
	return t_done();
}
