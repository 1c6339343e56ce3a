/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fwd_vlan.c — ppslab-rut on trunks (docs/forwarder.md#vlans), on frames in memory: the
 * --vlan words, tags taken off and put on (802.1Q, QinQ, priority tags, wrong and
 * missing tags, a tag cut short), and whole bursts through the forwarder between two
 * ports held in memory: IPv4 and IPv6 inside the tags routed with the out port's tag
 * and priority, the drops counted by cause, rx_bytes and tx_bytes the frames as on the
 * wire, and the firewall seeing the inner packet on the vlan interface (`recv
 * rut0.100` matches, `recv rut0` does not), and its replies (reset6's RST, unreach6's
 * unreachable) leaving inside the receiving port's vlan. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csum.h"
#include "fw.h"
#include "fwd.h"
#include "pkt.h"
#include "pkt6.h"
#include "port_impl.h"
#include "route.h"
#include "tap.h"
#include "vlan.h"

/* ---- the option's words ---- */

static void t_parse(void)
{
	char port[32], err[256];
	struct vlan_port v;
	T_EQ_INT(vlan_parse("rut0=100", port, sizeof(port), &v, err, sizeof(err)), 0);
	T_STREQ(port, "rut0");
	T_EQ_INT(v.ntags, 1);
	T_EQ_INT(v.vid[0], 100);
	T_EQ_INT(v.pcp, 0);
	T_EQ_INT(vlan_parse("rut1=200.4094:5", port, sizeof(port), &v, err, sizeof(err)), 0);
	T_STREQ(port, "rut1");
	T_EQ_INT(v.ntags, 2);
	T_EQ_INT(v.vid[0], 200);
	T_EQ_INT(v.vid[1], 4094);
	T_EQ_INT(v.pcp, 5);
	static const char *const bad[] = { "rut0", "=100", "rut0=", "rut0=0", "rut0=4095",
					   "rut0=100.", "rut0=100.0", "rut0=100:8", "rut0=100:",
					   "rut0=100x", "rut0=1.2.3", "rut0=-1", "rut0=99999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		int rc = vlan_parse(bad[i], port, sizeof(port), &v, err, sizeof(err));
		T_EQ_INT(rc, -EINVAL);
		T_TRUE(err[0] != 0);
	}
	char name[16];
	v = (struct vlan_port){ .ntags = 1, .vid = { 100 } };
	T_EQ_INT(vlan_ifname("rut0", &v, name, sizeof(name)), 0);
	T_STREQ(name, "rut0.100");
	v = (struct vlan_port){ .ntags = 2, .vid = { 200, 100 } };
	T_EQ_INT(vlan_ifname("rut0", &v, name, sizeof(name)), 0);
	T_STREQ(name, "rut0.200.100");
	T_EQ_INT(vlan_ifname("averylongname", &v, name, sizeof(name)), -ENAMETOOLONG);
	v.ntags = 0;
	T_EQ_INT(vlan_ifname("rut0", &v, name, sizeof(name)), 0);
	T_STREQ(name, "rut0");
}

/* ---- frames ---- */

#define HEAD 64
static const uint8_t SINK_MAC[6] = { 2, 0x70, 0x70, 1, 0, 2 };
static const uint8_t GEN_MAC[6] = { 2, 0x70, 0x70, 0, 0, 2 };
static const uint8_t RUT0_MAC[6] = { 2, 0x70, 0x70, 0, 0, 1 };
static const uint8_t RUT1_MAC[6] = { 2, 0x70, 0x70, 1, 0, 1 };

static uint32_t be(const char *s)
{
	struct in_addr a;
	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

/* An untagged UDP test frame of len bytes at buf, to dst (IPv4 or IPv6). */
static void frame(uint8_t *buf, uint32_t len, const char *dst)
{
	struct pkt_flow fl = { .src_port = 1024, .dst_port = 9, .ttl = 64 };
	memcpy(fl.src_mac, GEN_MAC, 6);
	memcpy(fl.dst_mac, RUT0_MAC, 6);
	char err[128];
	if (strchr(dst, ':')) {
		fl.ipv = 6;
		ip6_parse("2001:2::2", fl.src6);
		ip6_parse(dst, fl.dst6);
		if (pkt6_build_template(&fl, len, 0, 0, 0xa5, buf, err, sizeof(err)))
			abort();
	} else {
		fl.src_ip = be("198.18.0.2");
		fl.dst_ip = be(dst);
		if (pkt_build_template(&fl, len, 0, 0, 0xa5, buf, err, sizeof(err)))
			abort();
	}
}

/* Inserts a tag (tpid, tci) after the addresses of the len-byte frame at buf: len + 4. */
static uint32_t tag(uint8_t *buf, uint32_t len, uint16_t tpid, uint16_t tci)
{
	memmove(buf + 16, buf + 12, len - 12);
	buf[12] = (uint8_t)(tpid >> 8);
	buf[13] = (uint8_t)tpid;
	buf[14] = (uint8_t)(tci >> 8);
	buf[15] = (uint8_t)tci;
	return len + 4;
}

static void t_strip_push(void)
{
	static uint8_t mem[HEAD + 2048];
	uint8_t *buf = mem + HEAD, plain[128];
	frame(plain, 64, "198.18.1.2");
	struct vlan_port v1 = { .ntags = 1, .vid = { 100 } };
	struct vlan_port q = { .ntags = 2, .vid = { 200, 100 }, .pcp = 3 };
	struct vlan_port un = { 0 };

	/* 802.1Q: off, then on again with another priority */
	memcpy(buf, plain, 64);
	struct port_pkt pk = { .data = buf, .len = tag(buf, 64, 0x8100, 0x6000 | 100) };
	T_EQ_INT(vlan_strip(&v1, &pk), VLAN_IN_OK);
	T_EQ_INT(pk.len, 64);
	T_TRUE(pk.data == buf + 4);
	T_TRUE(!memcmp(pk.data, plain, 64));
	v1.pcp = 7;
	vlan_push(&v1, &pk);
	T_TRUE(pk.data == buf);
	T_EQ_INT(pk.len, 68);
	T_EQ_INT(pkt_rd16(buf + 12), 0x8100);
	T_EQ_INT(pkt_rd16(buf + 14), 0xe000 | 100);
	T_TRUE(!memcmp(buf, plain, 12) && !memcmp(buf + 16, plain + 12, 52));
	v1.pcp = 0;

	/* either TPID is a tag (ether_input strips both) */
	memcpy(buf, plain, 64);
	pk = (struct port_pkt){ .data = buf, .len = tag(buf, 64, 0x88a8, 100) };
	T_EQ_INT(vlan_strip(&v1, &pk), VLAN_IN_OK);

	/* the wrong VLAN id, none, a tag on an untagged port; a priority tag comes off
	 * there but is no tag of a trunk's */
	memcpy(buf, plain, 64);
	pk = (struct port_pkt){ .data = buf, .len = tag(buf, 64, 0x8100, 101) };
	T_EQ_INT(vlan_strip(&v1, &pk), VLAN_IN_UNKNOWN);
	T_TRUE(pk.data == buf && pk.len == 68);
	T_EQ_INT(vlan_strip(&un, &pk), VLAN_IN_TAGGED);
	memcpy(buf, plain, 64);
	pk = (struct port_pkt){ .data = buf, .len = 64 };
	T_EQ_INT(vlan_strip(&v1, &pk), VLAN_IN_UNTAGGED);
	T_EQ_INT(vlan_strip(&un, &pk), VLAN_IN_OK);
	T_TRUE(pk.data == buf && pk.len == 64);
	pk.len = tag(buf, 64, 0x8100, 0x4000);   /* VLAN id 0, priority 2 */
	T_EQ_INT(vlan_strip(&v1, &pk), VLAN_IN_UNTAGGED);
	T_EQ_INT(vlan_strip(&un, &pk), VLAN_IN_OK);
	T_TRUE(!memcmp(pk.data, plain, 64));

	/* a tag cut short */
	memcpy(buf, plain, 64);
	pk = (struct port_pkt){ .data = buf, .len = tag(buf, 64, 0x8100, 100) };
	pk.len = 17;
	T_EQ_INT(vlan_strip(&v1, &pk), VLAN_IN_SHORT);

	/* QinQ: both off; the outer alone is one level short (the inner interface's
	 * frame is untagged), a single-tag port finds a tag it has no interface for */
	memcpy(buf, plain, 64);
	uint32_t l = tag(buf, 64, 0x8100, 100);
	l = tag(buf, l, 0x88a8, 200);
	pk = (struct port_pkt){ .data = buf, .len = l };
	struct vlan_port v200 = { .ntags = 1, .vid = { 200 } };
	T_EQ_INT(vlan_strip(&v200, &pk), VLAN_IN_TAGGED);
	struct vlan_port q2 = { .ntags = 2, .vid = { 200, 101 } };
	T_EQ_INT(vlan_strip(&q2, &pk), VLAN_IN_UNKNOWN);
	T_EQ_INT(vlan_strip(&q, &pk), VLAN_IN_OK);
	T_EQ_INT(pk.len, 64);
	T_TRUE(!memcmp(pk.data, plain, 64));
	vlan_push(&q, &pk);
	T_EQ_INT(pk.len, 72);
	T_TRUE(pk.data == buf);
	T_EQ_INT(pkt_rd16(buf + 12), 0x88a8);
	T_EQ_INT(pkt_rd16(buf + 14), 0x6000 | 200);
	T_EQ_INT(pkt_rd16(buf + 16), 0x8100);
	T_EQ_INT(pkt_rd16(buf + 18), 0x6000 | 100);
	memcpy(buf, plain, 64);
	pk = (struct port_pkt){ .data = buf, .len = tag(buf, 64, 0x88a8, 200) };
	T_EQ_INT(vlan_strip(&q, &pk), VLAN_IN_UNTAGGED);
}

/* ---- a forwarder between two ports in memory ---- */

#define MP_N 32
struct memport {
	struct port p;
	uint8_t in[MP_N][HEAD + 2048];
	uint32_t inlen[MP_N];
	int nin;
	uint8_t out[MP_N][2048];
	uint32_t outlen[MP_N];
	int nout;
};

static int mp_rx(struct port *p, struct port_pkt *pk, int max)
{
	struct memport *m = (struct memport *)p;
	int n = m->nin < max ? m->nin : max;
	for (int i = 0; i < n; i++)
		pk[i] = (struct port_pkt){ .data = m->in[i] + HEAD, .len = m->inlen[i] };
	m->nin = 0;
	return n;
}

static int mp_tx(struct port *p, const struct port_pkt *pk, int n)
{
	struct memport *m = (struct memport *)p;
	int i;
	for (i = 0; i < n && m->nout < MP_N; i++) {
		memcpy(m->out[m->nout], pk[i].data, pk[i].len);
		m->outlen[m->nout++] = pk[i].len;
	}
	return i;
}

static const struct port_ops mp_ops = { .name = "mem", .rx_burst = mp_rx, .tx_burst = mp_tx };

static struct memport mp[2];
static struct fwd f;

/* Queues an untagged frame to dst with the tags given (outer first; 0: none) on port i. */
static void put(int i, const char *dst, uint32_t len, uint16_t outer, uint16_t inner)
{
	struct memport *m = &mp[i];
	uint8_t *b = m->in[m->nin] + HEAD;
	frame(b, len, dst);
	if (inner)
		len = tag(b, len, 0x8100, inner);
	if (outer)
		len = tag(b, len, inner ? 0x88a8 : 0x8100, outer);
	m->inlen[m->nin++] = len;
}

static void setup(struct vlan_port v0, struct vlan_port v1, const char *rules)
{
	memset(mp, 0, sizeof(mp));
	for (int i = 0; i < 2; i++) {
		mp[i].p.ops = &mp_ops;
		mp[i].p.layer = PORT_L2;
	}
	static const char *const ifn[2] = { "rut0", "rut1" };
	struct vlan_port v[2] = { v0, v1 };
	const char *names[2];
	for (int i = 0; i < 2; i++) {
		struct fwd_port *p = &f.ports[i];
		snprintf(p->ifname, sizeof(p->ifname), "%s", ifn[i]);
		p->vlan = v[i];
		if (vlan_ifname(p->ifname, &p->vlan, p->name, sizeof(p->name)))
			abort();
		names[i] = p->name;
	}
	struct fw *fw = NULL;
	if (rules) {
		uint32_t me[2] = { be("198.18.0.1"), be("198.18.1.1") };
		fw = fw_new(names, 2, me, 2);
		char out[256], line[256];
		struct fw_diag d;
		for (const char *r = rules; *r;) {
			const char *e = strchr(r, '\n');
			size_t n = e ? (size_t)(e - r) : strlen(r);
			snprintf(line, sizeof(line), "%.*s", (int)n, r);
			memset(&d, 0, sizeof(d));
			if (fw_exec(fw, line, out, sizeof(out), &d))
				abort();
			r += n + (e != NULL);
		}
		fw_tunables(fw)->enable = 1;
	}
	struct fwd_port saved[2] = { f.ports[0], f.ports[1] };
	if (fwd_init_detached(&f, fw))
		abort();
	f.ports[0] = saved[0];
	f.ports[1] = saved[1];
	if (fw && fw_set_threads(fw, 1))
		abort();
	f.nports = 2;
	f.rt = rt_new();
	f.nt = nt_new();
	static const uint8_t rut0_6[16] = { 0x20, 1, 0, 2, [15] = 1 };
	static const uint8_t rut1_6[16] = { 0x20, 1, 0, 2, 0, 0, 0, 1, [15] = 1 };
	static const uint8_t sink6[16] = { 0x20, 1, 0, 2, 0, 0, 0, 1, [15] = 2 };
	memcpy(f.ports[0].mac, RUT0_MAC, 6);
	memcpy(f.ports[1].mac, RUT1_MAC, 6);
	f.ports[0].ip = be("198.18.0.1");
	f.ports[1].ip = be("198.18.1.1");
	memcpy(f.ports[0].ip6, rut0_6, 16);
	memcpy(f.ports[1].ip6, rut1_6, 16);
	rt_add(f.rt, be("198.18.0.0"), 24, 0, 0);
	rt_add(f.rt, be("198.18.1.0"), 24, 0, 1);
	rt6_add(f.rt, rut0_6, 64, NULL, 0);
	rt6_add(f.rt, rut1_6, 64, NULL, 1);
	nt_add(f.nt, 1, be("198.18.1.2"), SINK_MAC);
	nt6_add(f.nt, 1, sink6, SINK_MAC);
	if (fwd_ready(&f))
		abort();
	for (int i = 0; i < 2; i++)
		f.thr[0]->port[i] = &mp[i].p;
}

static void teardown(void)
{
	for (int i = 0; i < 2; i++)
		f.thr[0]->port[i] = NULL;   /* ours, not port_open's */
	fwd_fini(&f);
	memset(&f, 0, sizeof(f));
}

static uint64_t drop(int port, enum fwd_drop d)
{
	struct fwd_port_ctr_sum c;
	fwd_port_sum(&f, port, &c);
	return c.drops[d];
}

static void t_trunk_to_trunk(void)
{
	struct vlan_port in = { .ntags = 1, .vid = { 100 } };
	struct vlan_port out = { .ntags = 1, .vid = { 200 }, .pcp = 5 };
	setup(in, out, NULL);
	uint8_t want4[128], want6[128];
	frame(want4, 64, "198.18.1.2");
	frame(want6, 80, "2001:2:0:1::2");
	put(0, "198.18.1.2", 64, 100, 0);        /* forwarded, tag 200 */
	put(0, "2001:2:0:1::2", 80, 100, 0);     /* IPv6 inside: forwarded, tag 200 */
	put(0, "198.18.1.2", 64, 101, 0);        /* another VLAN: vlan_unknown */
	put(0, "198.18.1.2", 64, 0, 0);          /* untagged: vlan_untagged */
	put(0, "198.18.1.2", 64, 100, 7);        /* a tag inside the vlan: vlan_tagged */
	T_EQ_INT(fwd_burst(f.thr[0], 0, 64), 5);
	T_EQ_INT(mp[1].nout, 2);
	/* the frame out: the sink's MAC, rut1's, tag 200 with PCP 5, TTL 63 */
	const uint8_t *o = mp[1].out[0];
	T_EQ_INT(mp[1].outlen[0], 68);
	T_TRUE(!memcmp(o, SINK_MAC, 6) && !memcmp(o + 6, RUT1_MAC, 6));
	T_EQ_INT(pkt_rd16(o + 12), 0x8100);
	T_EQ_INT(pkt_rd16(o + 14), 0xa000 | 200);
	T_EQ_INT(pkt_rd16(o + 16), 0x0800);
	T_EQ_INT(o[16 + 2 + 8], 63);
	T_TRUE(!memcmp(o + 16 + 2 + 12, want4 + 14 + 12, 64 - 14 - 12));   /* addresses on */
	uint8_t untag[64];   /* without its tag: a valid test frame, checksum updated */
	memcpy(untag, o, 12);
	memcpy(untag + 12, o + 16, 52);
	struct pkt_info pi;
	T_EQ_INT(pkt_parse_ip4(untag, 64, &pi), PKT_TEST);
	T_EQ_INT(mp[1].outlen[1], 84);
	o = mp[1].out[1];
	T_EQ_INT(pkt_rd16(o + 12), 0x8100);
	T_EQ_INT(pkt_rd16(o + 14), 0xa000 | 200);
	T_EQ_INT(pkt_rd16(o + 16), 0x86dd);
	T_EQ_INT(o[16 + 2 + 7], 63);   /* hop limit */
	T_TRUE(!memcmp(o + 18 + 8, want6 + 14 + 8, 80 - 14 - 8));
	struct fwd_port_ctr_sum c0, c1;
	fwd_port_sum(&f, 0, &c0);
	fwd_port_sum(&f, 1, &c1);
	T_EQ_U64(c0.rx_pkts, 5);
	T_EQ_U64(c0.rx_bytes, 68 + 84 + 68 + 64 + 72);   /* as on the wire, tags and all */
	T_EQ_U64(c0.fwd_pkts, 2);
	T_EQ_U64(c0.ip6_fwd_pkts, 1);
	T_EQ_U64(c0.drops[FWD_DROP_VLAN_UNKNOWN], 1);
	T_EQ_U64(c0.drops[FWD_DROP_VLAN_UNTAGGED], 1);
	T_EQ_U64(c0.drops[FWD_DROP_VLAN_TAGGED], 1);
	T_EQ_U64(c0.drops[FWD_DROP_NOT_IP4], 0);
	T_EQ_U64(c1.tx_pkts, 2);
	T_EQ_U64(c1.tx_bytes, 68 + 84);
	teardown();
}

static void t_untagged_and_qinq(void)
{
	/* untagged in: a tagged frame is no protocol here, a priority-tagged one is the
	 * port's; out through QinQ 300.400 */
	struct vlan_port un = { 0 };
	struct vlan_port q = { .ntags = 2, .vid = { 300, 400 } };
	setup(un, q, NULL);
	put(0, "198.18.1.2", 64, 0, 0);
	put(0, "198.18.1.2", 64, 5, 0);
	mp[0].inlen[2] = 0;
	{
		uint8_t *b = mp[0].in[2] + HEAD;
		frame(b, 64, "198.18.1.2");
		mp[0].inlen[2] = tag(b, 64, 0x8100, 0x2000);   /* VLAN id 0, priority 1 */
		mp[0].nin = 3;
	}
	T_EQ_INT(fwd_burst(f.thr[0], 0, 64), 3);
	T_EQ_INT(mp[1].nout, 2);
	for (int i = 0; i < 2; i++) {
		const uint8_t *o = mp[1].out[i];
		T_EQ_INT(mp[1].outlen[i], 72);
		T_EQ_INT(pkt_rd16(o + 12), 0x88a8);
		T_EQ_INT(pkt_rd16(o + 14), 300);
		T_EQ_INT(pkt_rd16(o + 16), 0x8100);
		T_EQ_INT(pkt_rd16(o + 18), 400);
		T_EQ_INT(pkt_rd16(o + 20), 0x0800);
	}
	T_EQ_U64(drop(0, FWD_DROP_VLAN_TAGGED), 1);
	T_EQ_U64(drop(0, FWD_DROP_NOT_IP4), 0);
	teardown();

	/* QinQ in, untagged out */
	setup(q, un, NULL);
	put(0, "198.18.1.2", 64, 300, 400);
	put(0, "198.18.1.2", 64, 300, 401);
	put(0, "198.18.1.2", 64, 300, 0);
	T_EQ_INT(fwd_burst(f.thr[0], 0, 64), 3);
	T_EQ_INT(mp[1].nout, 1);
	T_EQ_INT(mp[1].outlen[0], 64);
	T_EQ_INT(pkt_rd16(mp[1].out[0] + 12), 0x0800);
	T_EQ_U64(drop(0, FWD_DROP_VLAN_UNKNOWN), 1);
	T_EQ_U64(drop(0, FWD_DROP_VLAN_UNTAGGED), 1);
	teardown();
}

/* The firewall on a vlan interface: the inner IPv4 or IPv6 header, the interface
 * rut0.100 (recv) and rut1.200 (xmit); the parent's name matches nothing. */
static void t_firewall(void)
{
	struct vlan_port in = { .ntags = 1, .vid = { 100 } };
	struct vlan_port out = { .ntags = 1, .vid = { 200 } };
	setup(in, out,
	      "add 100 deny ip from any to any recv rut0\n"
	      "add 110 deny ip from any to any xmit rut1\n"
	      "add 200 deny udp from 198.18.0.2 to 198.18.1.3 dst-port 9 recv rut0.100\n"
	      "add 300 deny ip6 from any to any xmit rut1.200\n"
	      "add 400 deny ip from any to any via rut0.101\n"
	      "add 65000 allow ip from any to any");
	put(0, "198.18.1.2", 64, 100, 0);        /* passes both ways: forwarded */
	put(0, "198.18.1.3", 64, 100, 0);        /* 200, on the inner header */
	put(0, "2001:2:0:1::2", 80, 100, 0);     /* 300, outbound on rut1.200 */
	T_EQ_INT(fwd_burst(f.thr[0], 0, 64), 3);
	T_EQ_INT(mp[1].nout, 1);
	T_EQ_U64(fwd_denied(&f, 100), 0);
	T_EQ_U64(fwd_denied(&f, 110), 0);
	T_EQ_U64(fwd_denied(&f, 200), 1);
	T_EQ_U64(fwd_denied(&f, 300), 1);
	T_EQ_U64(fwd_denied(&f, 400), 0);
	T_EQ_U64(drop(0, FWD_DROP_FW_DENY), 2);
	T_EQ_INT(pkt_rd16(mp[1].out[0] + 14), 200);
	teardown();
}

/* The firewall's replies on a trunk (send_reject6): reset6 answers an IPv6 TCP SYN with
 * an RST and unreach6 an IPv6 datagram with its own ICMPv6 code, both out of the
 * receiving port inside its vlan, their checksums right; the same rules drop an IPv4
 * packet without a reply (counted as suppressed), and reset6 a datagram too. */
static void t_replies6(void)
{
	struct vlan_port in = { .ntags = 1, .vid = { 100 } };
	struct vlan_port out = { .ntags = 1, .vid = { 200 } };
	setup(in, out,
	      "add 100 reset6 ip from any to any 9 recv rut0.100\n"
	      "add 200 unreach6 admin-prohib ip from any to any 7\n"
	      "add 65000 allow ip from any to any");
	put(0, "2001:2:0:1::2", 80, 100, 0);     /* made a TCP SYN below: 100, an RST */
	uint8_t *ip6 = mp[0].in[0] + HEAD + 18, *th = ip6 + 40;
	ip6[6] = 6;
	th[4] = 0x11, th[5] = 0x22, th[6] = 0x33, th[7] = 0x44;
	th[12] = 0x50;
	th[13] = 0x02;
	put(0, "2001:2:0:1::2", 80, 100, 0);     /* UDP to 9: 100, nothing answers */
	put(0, "2001:2:0:1::2", 80, 100, 0);     /* to 7: 200, administratively prohibited */
	mp[0].in[2][HEAD + 18 + 40 + 3] = 7;
	put(0, "198.18.1.2", 64, 100, 0);        /* IPv4 to 9: 100, nothing answers */
	put(0, "198.18.1.2", 64, 100, 0);        /* IPv4 to 7: 200, nothing answers */
	mp[0].in[4][HEAD + 18 + 20 + 3] = 7;
	T_EQ_INT(fwd_burst(f.thr[0], 0, 64), 5);
	T_EQ_INT(mp[1].nout, 0);
	T_EQ_INT(mp[0].nout, 2);
	T_EQ_U64(fwd_denied(&f, 100), 3);
	T_EQ_U64(fwd_denied(&f, 200), 2);
	struct fwd_port_ctr_sum c0;
	fwd_port_sum(&f, 0, &c0);
	T_EQ_U64(c0.drops[FWD_DROP_FW_RESET], 3);
	T_EQ_U64(c0.drops[FWD_DROP_FW_UNREACH], 2);
	T_EQ_U64(c0.rst_sent, 1);
	T_EQ_U64(c0.unreach_sent, 1);
	T_EQ_U64(c0.reply_skip[FWD_RS_SUPPRESSED], 3);
	/* the RST: to the sender's MAC, tag 100, from the SYN's destination, RST|ACK */
	const uint8_t *o = mp[0].out[0];
	T_EQ_INT(mp[0].outlen[0], 18 + 60);
	T_TRUE(!memcmp(o, GEN_MAC, 6) && !memcmp(o + 6, RUT0_MAC, 6));
	T_EQ_INT(pkt_rd16(o + 12), 0x8100);
	T_EQ_INT(pkt_rd16(o + 14) & 0xfff, 100);
	T_EQ_INT(pkt_rd16(o + 16), 0x86dd);
	const uint8_t *r = o + 18;
	T_EQ_INT(r[6], 6);
	T_EQ_INT(r[7], 64);
	T_TRUE(!memcmp(r + 8, ip6 + 24, 16) && !memcmp(r + 24, ip6 + 8, 16));
	T_EQ_INT(pkt_rd16(r + 40), 9);
	T_EQ_INT(pkt_rd16(r + 42), 1024);
	T_EQ_INT(r[40 + 13], 0x14);
	T_TRUE(r[48] == 0x11 && r[49] == 0x22 && r[50] == 0x33 && r[51] == 0x45);
	uint8_t ph[8] = { 0, 0, 0, 20, 0, 0, 0, 6 };
	T_EQ_INT(csum_fold(csum_add(csum_add(csum_add(0, r + 8, 32), ph, 8), r + 40, 20)), 0);
	/* the unreachable: type 1 code 1, from rut0's address, quoting the datagram */
	o = mp[0].out[1];
	T_EQ_INT(pkt_rd16(o + 14) & 0xfff, 100);
	r = o + 18;
	unsigned icl = pkt_rd16(r + 4);
	T_EQ_INT(icl, 8 + 40 + 26);
	T_EQ_INT(r[6], 58);
	T_EQ_INT(r[40], 1);
	T_EQ_INT(r[41], 1);
	T_TRUE(!memcmp(r + 24, ip6 + 8, 16));
	T_TRUE(!memcmp(r + 48, mp[0].in[2] + HEAD + 18, 40 + 26));
	uint8_t ph6[8] = { 0, 0, (uint8_t)(icl >> 8), (uint8_t)icl, 0, 0, 0, 58 };
	T_EQ_INT(csum_fold(csum_add(csum_add(csum_add(0, r + 8, 32), ph6, 8), r + 40, icl)), 0);
	teardown();
}

int main(void)
{
	T_RUN(t_parse);
	T_RUN(t_strip_push);
	T_RUN(t_trunk_to_trunk);
	T_RUN(t_untagged_and_qinq);
	T_RUN(t_firewall);
	T_RUN(t_replies6);
	return t_done();
}
