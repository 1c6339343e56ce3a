/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_ip6.c — the firewall on IPv6 (docs/firewall.md#ipv6), against hand-computed
 * expectations: IPv6 addresses and prefixes in from/to and their listings as ipfw's
 * print_ip6 writes them, me and me6, the ip4/ip6 selectors, IPv4 address tests that an
 * IPv6 packet fails (so `not` matches it), ipfw_chk's walk of the extension headers
 * (ports behind options, routing type 0 walked and another denied, fragments, unknown
 * headers denied, headers cut short), the counters' bytes (40 + payload length), and
 * the IPv6 options src-ip6, dst-ip6, icmp6types, ext6hdr and flow-id: parsed, listed as
 * ipfw2.c/ipv6.c print them, matched as ipfw_chk matches them, bad input placed; the
 * replies of reject/unreach rules and of `unreach6 CODE` and `reset6` (O_UNREACH6). */
#include <unistd.h>

#include "csum.h"
#include "fw_impl.h"
#include "fw_lpm.h"
#include "fw_util.h"

static void a6(const char *s, uint8_t *out)
{
	if (inet_pton(AF_INET6, s, out) != 1)
		abort();
}

/* An IPv6 packet: header, then the extension headers exts (each given whole, its next
 * header byte filled in here), then an upper-layer header of 20 bytes (ports, ICMPv6
 * type). Returns the payload length. */
static unsigned mk6(uint8_t *buf, const char *src, const char *dst, uint8_t proto,
		    uint16_t sport, uint16_t dport, const uint8_t *const *exts,
		    const unsigned *elen, int n)
{
	memset(buf, 0, 200);
	buf[0] = 0x60;
	buf[7] = 64;
	a6(src, buf + 8);
	a6(dst, buf + 24);
	unsigned off = 40;
	uint8_t *nxt = buf + 6;
	for (int i = 0; i < n; i++) {
		*nxt = exts[i][0];        /* the header's own type, carried in byte 0 here */
		memcpy(buf + off, exts[i] + 1, elen[i]);
		nxt = buf + off;
		off += elen[i];
	}
	*nxt = proto;
	buf[off] = (uint8_t)(sport >> 8);
	buf[off + 1] = (uint8_t)sport;
	buf[off + 2] = (uint8_t)(dport >> 8);
	buf[off + 3] = (uint8_t)dport;
	off += 20;
	unsigned plen = off - 40;
	buf[4] = (uint8_t)(plen >> 8);
	buf[5] = (uint8_t)plen;
	return plen;
}

static uint32_t eval6(struct fw *fw, const uint8_t *ip, unsigned plen, struct fw_match *m)
{
	struct fw_pkt p;
	fw_pkt_ip6(ip, plen, EM0, 0, &p);
	enum fw_verdict v = fw_eval_ex(fw, &p, m);
	return m->rule_no | (uint32_t)v << 24;
}

#define V(verdict, rule) ((uint32_t)(rule) | (uint32_t)(verdict) << 24)

static void t_listing(void)
{
	struct fw *fw = fw_mk();
	T_STREQ(fw_echo(fw, "add 100 allow ip from 2001:2::/64 to any"),
		"00100 allow ip from 2001:2::/64 to any");
	T_STREQ(fw_echo(fw, "add 110 deny ip6 from any to 2001:2:0:1::2"),
		"00110 deny ip6 from any to 2001:2:0:1::2");
	T_STREQ(fw_echo(fw, "add 120 allow ipv6-icmp from me6 to any"),
		"00120 allow ipv6-icmp from me6 to any");
	/* the address is masked; /128 prints bare, /0 prints "any" */
	T_STREQ(fw_echo(fw, "add 130 count ip from 2001:2::1/48,2001:2::9/128 to ::/0"),
		"00130 count ip from 2001:2::/48,2001:2::9 to any");
	T_STREQ(fw_echo(fw, "add 140 deny udp from 2001:2::/64 to not 2001:2:0:1::/64 7"),
		"00140 deny udp from 2001:2::/64 to not 2001:2:0:1::/64 7");
	T_STREQ(fw_echo(fw, "add 150 count ip4 from any to any"), "00150 count ip4 from any to any");
	T_STREQ(fw_echo(fw, "add 160 count icmp6 from { 2001:2::1 or 198.18.0.1 } to any"),
		"00160 count ipv6-icmp from { 2001:2::1 or 198.18.0.1 } to any");
	/* bad input names the column */
	T_EQ_INT(fw_run(fw, "add 170 allow ip from 2001:2::/129 to any"), -EINVAL);
	T_STREQ(fw_d.msg, "bad prefix length '129' (0..128)");
	T_EQ_INT(fw_d.col, 32);
	T_EQ_INT(fw_run(fw, "add 170 allow ip from 2001:2::1,2001:2:::5 to any"), -EINVAL);
	T_STREQ(fw_d.msg, "bad IPv6 address '2001:2:::5'");
	fw_free(fw);
}

static void t_match(void)
{
	struct fw *fw = fw_mk();
	uint8_t me[16];
	a6("2001:2::1", me);
	T_EQ_INT(fw_set_local6(fw, me, 1), 0);
	FW_OK(fw, "add 100 deny ip from 198.18.0.0/15 to any");
	FW_OK(fw, "add 200 count ip4 from any to any");
	FW_OK(fw, "add 300 count ip6 from any to any");
	FW_OK(fw, "add 400 deny udp from 2001:2::/64 to any 7");
	FW_OK(fw, "add 500 allow ipv6-icmp from any to me");
	FW_OK(fw, "add 550 allow ip from any to me6");
	/* an IPv6 packet fails an IPv4 address test (O_IP_SRC_MASK: is_ipv4), so the
	 * `not` of one matches it */
	FW_OK(fw, "add 600 deny ip from not 198.18.0.0/15 to any");
	uint8_t ip[256];
	struct fw_match m;
	unsigned pl;

	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 600));
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 400));
	pl = mk6(ip, "2001:3::2", "2001:2:0:1::2", 17, 9, 7, NULL, NULL, 0);   /* not 2001:2::/64 */
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 600));
	pl = mk6(ip, "2001:2::2", "2001:2::1", 58, 0x8000, 0, NULL, NULL, 0);  /* echo request to me */
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 500));
	pl = mk6(ip, "2001:2::2", "2001:2::1", 6, 1000, 80, NULL, NULL, 0);   /* TCP to me6 */
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 550));

	/* IPv4 packets as before: 198.18/15 at 100, the rest through ip4's count to 600 */
	struct fw_pkt p4 = fw_pk(17, "198.18.0.2", 9, "198.19.0.2", 9);
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_DENY);
	T_EQ_INT(m.rule_no, 100);
	p4 = fw_pk(17, "10.0.0.1", 9, "198.19.0.2", 9);
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_DENY);
	T_EQ_INT(m.rule_no, 600);

	/* counters: rule 300 saw the five IPv6 packets, 40 + 20 bytes each (the whole
	 * packet: pktlen); rule 200 the one IPv4 packet that reached it */
	struct fw_rule_stats st;
	for (int i = 0; i < fw_rule_count(fw); i++) {
		fw_rule_stats(fw, i, &st);
		if (st.number == 300) {
			T_EQ_U64(st.pkts, 5);
			T_EQ_U64(st.bytes, 5 * 60);
		}
		if (st.number == 200)
			T_EQ_U64(st.pkts, 1);
	}
	fw_free(fw);
}

static void t_exthdr(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny udp from any to any 7");
	FW_OK(fw, "add 200 deny ip from any to any frag");
	FW_OK(fw, "add 300 allow ip6 from any to any");
	uint8_t ip[256];
	struct fw_match m;
	unsigned pl;
	/* hop-by-hop (8 bytes) and destination options (16): the walk reaches UDP port 7 */
	static const uint8_t hbh[9] = { 0, 0, 0 }, dst16[17] = { 60, 0, 1 };
	const uint8_t *e2[] = { hbh, dst16 };
	const unsigned l2[] = { 8, 16 };
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, e2, l2, 2);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 100));
	struct fw_pkt p;
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(p.proto, 17);
	T_EQ_INT(p.dport, 7);
	T_EQ_INT(p.l4_len, 20);
	T_EQ_INT(p.ip_len, 40 + 8 + 16 + 20);
	/* a routing header of type 0 is walked; of type 4, unknown: denied before the
	 * rules (deny_unknown_exthdrs) */
	uint8_t rt0[] = { 43, 0, 0, 0, 0, 0, 0, 0, 0 };
	const uint8_t *e1[] = { rt0 };
	const unsigned l1[] = { 8 };
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, e1, l1, 1);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 100));
	ip[40 + 2] = 4;
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 0));
	T_EQ_INT(m.why, FW_WHY_EXTHDR);
	/* an unknown next header (253, for experiments) */
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 253, 9, 7, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 0));
	T_EQ_INT(m.why, FW_WHY_EXTHDR);
	/* a fragment at offset 8 bytes (1 unit): no ports, `frag` matches */
	uint8_t fh[] = { 44, 0, 0, 0x00, 0x08, 0, 0, 0, 1 };
	const uint8_t *ef[] = { fh };
	const unsigned lf[] = { 8 };
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, ef, lf, 1);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 200));
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(p.frag && !p.has_ports);
	/* the first fragment (offset 0, more follow): ports are there */
	ip[40 + 3] = 0x01;
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 100));
	/* ESP ends the walk: what follows is encrypted */
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 50, 9, 7, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 300));
	/* cut short: a hop-by-hop header claiming 16 bytes in a payload of 4, and a UDP
	 * header of 4 bytes */
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, e2, l2, 1);
	T_EQ_INT(eval6(fw, ip, 4, &m), V(FW_DENY, 0));
	T_EQ_INT(m.why, FW_WHY_TRUNCATED);
	ip[6] = 17;
	T_EQ_INT(eval6(fw, ip, 4, &m), V(FW_DENY, 0));
	T_EQ_INT(m.why, FW_WHY_TRUNCATED);
	(void)pl;
	fw_free(fw);
}

/* src-ip6/dst-ip6, icmp6types, ext6hdr, flow-id listed as print_instruction and
 * ipv6.c's print_* write them */
static void t_opt6_listing(void)
{
	struct fw *fw = fw_mk();
	/* the first source/destination test is listed after from/to (print_address) */
	T_STREQ(fw_echo(fw, "add 100 allow ip6 from any to any src-ip6 2001:2::1/64"),
		"00100 allow ip6 from 2001:2::/64 to any");
	T_STREQ(fw_echo(fw, "add 110 deny ip from 2001:2::1 to any dst-ipv6 2001:2:0:1::/64,2001:2:0:2::9"),
		"00110 deny ip from 2001:2::1 to 2001:2:0:1::/64,2001:2:0:2::9");
	/* a second one keeps its keyword; `me` there is me6 (fill_ip6) */
	T_STREQ(fw_echo(fw, "add 120 count ip from 2001:2::1 to any src-ip6 me"),
		"00120 count ip from 2001:2::1 to any src-ip6 me6");
	T_STREQ(fw_echo(fw, "add 121 count ip from any to 2001:2::1 not dst-ip6 me6"),
		"00121 count ip from any to 2001:2::1 not dst-ip6 me6");
	/* on an ip6 rule every address is IPv6 (add_src): `me` is me6 */
	T_STREQ(fw_echo(fw, "add 130 allow ip6 from me to any"), "00130 allow ip6 from me6 to any");
	/* ::/0 is left out of a list, and alone it is any (no test at all) */
	T_STREQ(fw_echo(fw, "add 131 count ip from 2001:2::/48,::/0 to any dst-ip6 ::/0"),
		"00131 count ip from 2001:2::/48 to any");
	T_STREQ(fw_echo(fw, "add 140 allow ipv6-icmp from any to any icmp6types 136,128,129,201,0"),
		"00140 allow ipv6-icmp from any to any icmp6types 0,128,129,136,201");
	T_STREQ(fw_echo(fw, "add 150 deny ip6 from any to any ext6hdr rthdr0,frag"),
		"00150 deny ip6 from any to any extension header: fragmentation,rthdr0");
	T_STREQ(fw_echo(fw, "add 151 deny ip6 from any to any not ext6hdr esp,ah,dstopt,route,rthdr2,hopopt"),
		"00151 deny ip6 from any to any not extension header: hop options,routing options,"
		"rthdr2,destination options,authentication header,encapsulated security payload");
	/* that listing reads back (an extension, so that every listing loads) */
	T_STREQ(fw_echo(fw, "add 152 deny ip6 from any to any not extension header: hop options,"
			    "routing options,rthdr2,destination options,authentication header,"
			    "encapsulated security payload in"),
		"00152 deny ip6 from any to any not extension header: hop options,routing options,"
		"rthdr2,destination options,authentication header,encapsulated security payload in");
	T_STREQ(fw_echo(fw, "add 153 deny ip6 from any to any extension header: fragmentation"),
		"00153 deny ip6 from any to any extension header: fragmentation");
	T_STREQ(fw_echo(fw, "add 154 deny ip6 from any to any extension header: hop"),
		"ERROR 52:expected extension header names after 'extension header:', got end of "
		"line");
	T_STREQ(fw_echo(fw, "add 154 deny ip6 from any to any extension header: hop bogus"),
		"ERROR 52:invalid extension header 'hop bogus' after 'extension header:'");
	/* print_flow6id(): each label followed by ',', the last by ' ' */
	T_STREQ(fw_echo(fw, "add 160 deny ip6 from any to any flow-id 5,1048575"),
		"00160 deny ip6 from any to any flow-id 5,1048575 ");
	T_STREQ(fw_echo(fw, "add 161 count ip from any to any proto ip6 flow-id 7 in"),
		"00161 count ip6 from any to any flow-id 7  in");
	/* what lists loads back to itself */
	T_STREQ(fw_echo(fw, "add 170 count ip from 2001:2::1 to any src-ip6 me6"),
		"00170 count ip from 2001:2::1 to any src-ip6 me6");
	T_STREQ(fw_echo(fw, "add 171 allow ipv6-icmp from any to any icmp6types 0,128,129,136,201"),
		"00171 allow ipv6-icmp from any to any icmp6types 0,128,129,136,201");
	fw_free(fw);
}

/* bad values: the message and the column of the culprit, and the exit status */
static void t_opt6_errors(void)
{
	static const struct {
		const char *rule, *msg;
		int col, ex;
	} bad[] = {
		{ "add 1 allow ipv6-icmp from any to any icmp6types 128,202",
		  "ICMPv6 type 202 out of range 0..201", 54, 65 },
		{ "add 1 allow ipv6-icmp from any to any icmp6types 1-5",
		  "invalid ICMPv6 type '1-5' after 'icmp6types' (expected numbers 0..201 separated by "
		  "commas)", 50, 65 },
		{ "add 1 allow ipv6-icmp from any to any icmp6types",
		  "expected ICMPv6 types after 'icmp6types', got end of line", 49, 65 },
		{ "add 1 deny ip6 from any to any ext6hdr frag,bogus",
		  "invalid option for ipv6 exten header 'bogus' (frag, hopopt, route, dstopt, ah, esp, "
		  "rthdr0, rthdr2)", 45, 65 },
		{ "add 1 deny ip from any to any flow-id 5",
		  "flow-id filter is active only for ipv6 protocol (write the rule as 'ACTION ip6 from "
		  "...' or put 'proto ip6' before it)", 31, 64 },
		{ "add 1 deny ip6 from any to any flow-id 5,1048576",
		  "flow label 1048576 out of range 0..1048575", 42, 65 },
		{ "add 1 deny ip from any to any src-ip6 198.18.0.1",
		  "bad IPv6 address '198.18.0.1' after 'src-ip6' (expected any, me, me6, table(NAME), "
		  "or IPv6 addresses ADDR[/N] separated by commas)", 39, 65 },
		{ "add 1 deny ip6 from 198.18.0.1 to any",
		  "bad IPv6 address '198.18.0.1' after 'from' (expected any, me, me6, table(NAME), or "
		  "IPv6 addresses ADDR[/N] separated by commas)", 21, 65 },
		{ "add 1 deny ip from any to any not dst-ip6 ::/0", "not any never matches", 43, 65 },
	};
	struct fw *fw = fw_mk();
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		if (fw_run(fw, bad[k].rule) != -EINVAL || fw_d.col != bad[k].col ||
		    strcmp(fw_d.msg, bad[k].msg) || fw_d.ex != bad[k].ex)
			T_FAIL("'%s': column %d ex %d '%.200s'", bad[k].rule, fw_d.col, fw_d.ex,
			       fw_d.msg);
	}
	T_EQ_INT(fw_rule_count(fw), 1);
	fw_free(fw);
	/* in a rules file: FILE:LINE:COLUMN */
	char path[] = "/tmp/t_fw_ip6.XXXXXX";
	int fd = mkstemp(path);
	T_TRUE(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("add 100 allow ip6 from any to any\n"
	      "add 200 allow ipv6-icmp from any to any icmp6types 128,300\n", f);
	fclose(f);
	struct fw_diag d = { 0 };
	char buf[512];
	T_EQ_INT(fw_check_file(path, NULL, 0, &d), -EINVAL);
	char want[512];
	snprintf(want, sizeof(want), "%s:2:56: ICMPv6 type 300 out of range 0..201", path);
	if (strcmp(fw_diag_str(&d, buf, sizeof(buf)), want))
		T_FAIL("'%.200s', expected '%.200s'", buf, want);
	unlink(path);
}

/* ipfw_chk: O_IP6_SRC/DST(_MASK), O_ICMP6TYPE (offset 0, ICMPv6, the type's bit),
 * O_EXT_HDR (any header the walk saw), O_FLOW6ID; each false on IPv4 */
static void t_opt6_match(void)
{
	struct fw *fw = fw_mk();
	uint8_t me[16];
	a6("2001:2::1", me);
	T_EQ_INT(fw_set_local6(fw, me, 1), 0);
	FW_OK(fw, "add 100 deny ip from any to any dst-ip6 2001:2:0:9::/64,2001:2:0:8::1");
	FW_OK(fw, "add 110 deny ip from any to any not src-ip6 2001:2::/48");
	FW_OK(fw, "add 120 allow ip from any to any dst-ip6 me6 icmp6types 128");
	FW_OK(fw, "add 130 deny ipv6-icmp from any to any icmp6types 1,135");
	FW_OK(fw, "add 140 deny ip6 from any to any ext6hdr rthdr0");
	FW_OK(fw, "add 150 count ip6 from any to any ext6hdr frag,dstopt");
	FW_OK(fw, "add 160 deny ip6 from any to any flow-id 0,5");
	FW_OK(fw, "add 170 count ip6 from any to any not flow-id 5");
	FW_OK(fw, "add 180 allow ip6 from any to any");
	uint8_t ip[256];
	struct fw_match m;
	unsigned pl;
	/* to 2001:2:0:9::/64, and to the list's host */
	pl = mk6(ip, "2001:2::2", "2001:2:0:9::77", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 100));
	pl = mk6(ip, "2001:2::2", "2001:2:0:8::1", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 100));
	pl = mk6(ip, "2001:2::2", "2001:2:0:8::2", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));
	/* from outside 2001:2::/48 */
	pl = mk6(ip, "2001:3::2", "2001:2:0:8::2", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 110));
	/* echo request (128) to me6 passes at 120; one to another address does not, nor
	 * type 129 to me6; 135 (neighbour solicitation) and 1 are denied at 130 */
	pl = mk6(ip, "2001:2::2", "2001:2::1", 58, 128 << 8, 0, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 120));
	pl = mk6(ip, "2001:2::2", "2001:2::3", 58, 128 << 8, 0, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));
	pl = mk6(ip, "2001:2::2", "2001:2::1", 58, 129 << 8, 0, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));
	pl = mk6(ip, "2001:2::2", "2001:2::3", 58, 135 << 8, 0, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 130));
	pl = mk6(ip, "2001:2::2", "2001:2::3", 58, 1 << 8, 0, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 130));
	/* a UDP packet with the type byte 135 where ICMPv6's would be: not ICMPv6 */
	pl = mk6(ip, "2001:2::2", "2001:2::3", 17, 135 << 8, 0, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));
	/* ICMPv6 135 behind a fragment at a non-zero offset: no type to test */
	uint8_t fh[] = { 44, 0, 0, 0x00, 0x08, 0, 0, 0, 1 };
	const uint8_t *ef[] = { fh };
	const unsigned lf[] = { 8 };
	pl = mk6(ip, "2001:2::2", "2001:2::3", 58, 135 << 8, 0, ef, lf, 1);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));   /* 150 counted it (frag) */
	/* routing header type 0: rthdr0 at 140; type 2 is not rthdr0 */
	uint8_t rt[] = { 43, 0, 0, 0, 0, 0, 0, 0, 0 };
	const uint8_t *er[] = { rt };
	const unsigned lr[] = { 8 };
	pl = mk6(ip, "2001:2::2", "2001:2::3", 17, 9, 9, er, lr, 1);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 140));
	struct fw_pkt p;
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(p.ext6, FW_EXT_ROUTING | FW_EXT_RTHDR0);
	ip[40 + 2] = 2;
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(p.ext6, FW_EXT_ROUTING | FW_EXT_RTHDR2);
	/* hop-by-hop, destination options, AH, ESP: the bits the walk sets */
	static const uint8_t hbh[9] = { 0 }, dst8[9] = { 60 }, ah[13] = { 51, 0, 1 };
	const uint8_t *e3[] = { hbh, dst8, ah };
	const unsigned l3[] = { 8, 8, 12 };
	pl = mk6(ip, "2001:2::2", "2001:2::3", 50, 9, 9, e3, l3, 3);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(p.ext6, FW_EXT_HOPOPTS | FW_EXT_DSTOPTS | FW_EXT_AH | FW_EXT_ESP);
	/* flow-id: ipfw_chk's flow_id6 is the header's whole first word (version 6,
	 * traffic class, label), so a label list never matches: label 5 passes 160 and
	 * `not flow-id 5` counts it */
	pl = mk6(ip, "2001:2::2", "2001:2::3", 17, 9, 9, NULL, NULL, 0);
	ip[3] = 5;
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(p.flow6, 0x60000005u);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 180));
	struct fw_rule_stats st;
	for (int i = 0; i < fw_rule_count(fw); i++) {
		fw_rule_stats(fw, i, &st);
		if (st.number == 150)   /* the fragment, the three headers' packet is not here */
			T_EQ_U64(st.pkts, 1);
		if (st.number == 170)   /* the 7 packets that got past 160 */
			T_EQ_U64(st.pkts, 7);
	}
	/* IPv4 packets fail every IPv6 test: 110's `src-ip6 not` one too (is_ipv6 &&) */
	struct fw_pkt p4 = fw_pk(1, "198.18.0.2", 0, "198.19.0.2", 0);
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_DENY);
	T_EQ_INT(m.rule_no, 110);
	fw_free(fw);
}

/* IPv6 keys in an address table (addr:radix holds both families): add, list (IPv4
 * entries first, as ta_foreach_radix walks), lookup, delete, -q updates, and
 * table(NAME) in rules on IPv6 packets, longest prefix first */
static void t_table6(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "table t6 create");
	FW_OK(fw, "table t6 add 2001:2::99/64 7 2001:2:0:0:8000::/65 8 2001:2::5 9 198.18.0.7/24 1");
	FW_TEXT(fw_out(), "added: 2001:2::/64 7\nadded: 2001:2:0:0:8000::/65 8\n"
			  "added: 2001:2::5/128 9\nadded: 198.18.0.0/24 1\n");
	FW_OK(fw, "table t6 list");
	FW_TEXT(fw_out(), "198.18.0.0/24 1\n2001:2::/64 7\n2001:2::5/128 9\n"
			  "2001:2:0:0:8000::/65 8\n");
	FW_OK(fw, "table t6 lookup 2001:2::77");
	FW_TEXT(fw_out(), "2001:2::/64 7\n");
	FW_OK(fw, "table t6 lookup 2001:2::8000:0:0:1");
	FW_TEXT(fw_out(), "2001:2:0:0:8000::/65 8\n");
	FW_OK(fw, "table t6 lookup 2001:2::5");
	FW_TEXT(fw_out(), "2001:2::5/128 9\n");
	T_EQ_INT(fw_run(fw, "table t6 lookup 2001:3::5"), -EINVAL);
	T_STREQ(fw_d.msg, "Entry 2001:3::5 not found");
	T_EQ_INT(fw_d.ex, 69);
	/* an existing key: exists (status 71), or with -q the new value */
	T_EQ_INT(fw_run(fw, "table t6 add 2001:2::/64 70"), -EINVAL);
	T_EQ_INT(fw_d.ex, 71);
	FW_OK(fw, "-q table t6 add 2001:2::/64 70");
	FW_OK(fw, "table t6 lookup 2001:2::77");
	FW_TEXT(fw_out(), "2001:2::/64 70\n");
	/* rules: the address of the packet's family is looked up */
	T_STREQ(fw_echo(fw, "add 100 deny ip6 from table(t6,9) to any"),
		"00100 deny ip6 from table(t6,9) to any");
	T_STREQ(fw_echo(fw, "add 200 count ip from any to any dst-ip6 table(t6)"),
		"00200 count ip from any to table(t6)");
	T_STREQ(fw_echo(fw, "add 300 allow ip from table(t6) to any"),
		"00300 allow ip from table(t6) to any");
	uint8_t ip[256];
	struct fw_match m;
	unsigned pl;
	pl = mk6(ip, "2001:2::5", "2001:9::1", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 100));
	pl = mk6(ip, "2001:2::6", "2001:9::1", 17, 9, 9, NULL, NULL, 0);   /* /64, value 70 */
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 300));
	pl = mk6(ip, "2001:3::6", "2001:2::1", 17, 9, 9, NULL, NULL, 0);   /* in by its dst */
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 65535));
	struct fw_pkt p4 = fw_pk(17, "198.18.0.2", 9, "198.19.0.2", 9);
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_PASS);
	T_EQ_INT(m.rule_no, 300);
	struct fw_rule_stats st;
	for (int i = 0; i < fw_rule_count(fw); i++) {
		fw_rule_stats(fw, i, &st);
		if (st.number == 200)
			T_EQ_U64(st.pkts, 1);
	}
	/* delete: the prefix goes, its longer neighbour stays */
	FW_OK(fw, "table t6 delete 2001:2::/64");
	FW_TEXT(fw_out(), "deleted: 2001:2::/64 0\n");
	T_EQ_INT(fw_run(fw, "table t6 delete 2001:2::/64"), -EINVAL);
	pl = mk6(ip, "2001:2::6", "2001:9::1", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 65535));
	pl = mk6(ip, "2001:2::8000:0:0:6", "2001:9::1", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 300));
	/* bad keys, tables.c's words */
	T_EQ_INT(fw_run(fw, "table t6 add 2001:2::/129 1"), -EINVAL);
	T_STREQ(fw_d.msg, "bad IPv6 mask width: 129");
	T_EQ_INT(fw_d.col, 14);
	T_EQ_INT(fw_run(fw, "table t6 add ::198.18.0.1 1"), -EINVAL);
	T_STREQ(fw_d.msg, "Use IPv4 instead of v4-compatible");
	/* flush empties both families */
	FW_OK(fw, "table t6 flush");
	FW_OK(fw, "table t6 list");
	T_STREQ(fw_out(), "");
	pl = mk6(ip, "2001:2::5", "2001:9::1", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 65535));
	/* many entries: every one found by its own address, none by a neighbour's */
	char cmd[128];
	for (int i = 0; i < 2000; i++) {
		snprintf(cmd, sizeof(cmd), "-q table t6 add 2001:2:%x::/%d %d", i, 48 + i % 3 * 8, i);
		FW_OK(fw, cmd);
	}
	int bad = 0;
	const struct fw_table *t = fw_table_at(fw, fw_table_find(fw, "t6"));
	for (int i = 0; i < 2000; i++) {
		uint8_t a[16];
		uint32_t v;
		char txt[64];
		snprintf(txt, sizeof(txt), "2001:2:%x::1", i);
		a6(txt, a);
		bad += !fw_table_lookup6(t, a, &v, NULL) || v != (uint32_t)i;
	}
	T_EQ_INT(bad, 0);
	fw_free(fw);
}

/* keep-state and limit on IPv6 flows (ipfw_dyn_lookup_state for addr_type 6): the
 * reply matches the state at check-state, another flow does not, an IPv4 flow with the
 * same ports is another flow; `-D show` lists the addresses by inet_ntop; limit counts
 * per masked IPv6 source */
static void t_state6(void)
{
	struct fw *fw = fw_mk();
	fw_set_uptime(fw, 100);
	fw_dyn_maintain(fw, UINT32_MAX);
	FW_OK(fw, "add 100 check-state");
	FW_OK(fw, "add 200 allow udp from 2001:2::/64 to any keep-state");
	FW_OK(fw, "add 250 allow tcp from any to any limit src-addr 2");
	FW_OK(fw, "add 300 deny ip from any to any");
	uint8_t ip[256];
	struct fw_match m;
	unsigned pl;
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 200));
	/* the reply, from outside 2001:2::/64: the state lets it pass, on rule 200 */
	pl = mk6(ip, "2001:2:0:1::2", "2001:2::2", 17, 7, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 200));
	/* another port, another address: no state */
	pl = mk6(ip, "2001:2:0:1::2", "2001:2::2", 17, 7, 10, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 300));
	pl = mk6(ip, "2001:2:0:1::3", "2001:2::2", 17, 7, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 300));
	/* an IPv4 packet with the same ports finds no IPv6 state */
	struct fw_pkt p4 = fw_pk(17, "198.19.0.2", 7, "198.18.0.2", 9);
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_DENY);
	T_EQ_INT(m.rule_no, 300);
	FW_OK(fw, "-D show");
	FW_TEXT(fw_out(), "## Dynamic rules (1 152):\n"
			  "00200 2 120 (10s) STATE udp 2001:2::2 9 <-> 2001:2:0:1::2 7 :default\n");
	/* limit src-addr 2: two TCP flows from one IPv6 source, the third denied at 250;
	 * another source has its own count */
	for (int sp = 1000; sp < 1003; sp++) {
		pl = mk6(ip, "2001:2:0:5::1", "2001:2:0:1::2", 6, (uint16_t)sp, 80, NULL, NULL, 0);
		ip[40 + 13] = 0x02;   /* SYN */
		T_EQ_INT(eval6(fw, ip, pl, &m), sp < 1002 ? V(FW_PASS, 250) : V(FW_DENY, 250));
	}
	pl = mk6(ip, "2001:2:0:5::2", "2001:2:0:1::2", 6, 1000, 80, NULL, NULL, 0);
	ip[40 + 13] = 0x02;
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_PASS, 250));
	struct fw_dyn_stats st;
	fw_dyn_stats(fw, &st);
	T_EQ_INT(st.count, 4);
	T_EQ_INT(st.parent_count, 2);
	/* the UDP state expires after dyn_udp_lifetime; then the reply is denied */
	fw_set_uptime(fw, 111);
	fw_dyn_maintain(fw, UINT32_MAX);
	pl = mk6(ip, "2001:2:0:1::2", "2001:2::2", 17, 7, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_DENY, 300));
	fw_free(fw);
}

/* send_reject6's conditions (ipfw_chk O_UNREACH6) and map_icmp_unreach's codes */
static void t_reject6(void)
{
	uint8_t ip[256], c6 = 99;
	struct fw_pkt p;
	unsigned pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 9, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(fw_reject6_ok(&p, false, FW_UNREACH, 1, &c6));   /* reject: host */
	T_EQ_INT(c6, 0);                                          /* no route */
	T_TRUE(fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));   /* unreach port */
	T_EQ_INT(c6, 4);
	T_TRUE(fw_reject6_ok(&p, false, FW_UNREACH, 13, &c6));  /* filter-prohib */
	T_EQ_INT(c6, 1);
	T_TRUE(fw_reject6_ok(&p, false, FW_RESET, 0, &c6));     /* reset: ICMP_REJECT_RST */
	T_EQ_INT(c6, 1);
	T_TRUE(!fw_reject6_ok(&p, true, FW_UNREACH, 3, &c6));   /* a link-layer group frame */
	/* ICMPv6: a query is answered, an error or neighbour discovery is not */
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 58, 128 << 8, 0, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 58, 1 << 8, 0, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(!fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 58, 135 << 8, 0, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(!fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	/* a multicast destination, a multicast or unspecified source */
	pl = mk6(ip, "2001:2::2", "ff02::1", 17, 9, 9, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(!fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	pl = mk6(ip, "ff02::2", "2001:2::1", 17, 9, 9, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(!fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	pl = mk6(ip, "::", "2001:2::1", 17, 9, 9, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(!fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	/* a later fragment */
	uint8_t fh[] = { 44, 0, 0, 0x00, 0x08, 0, 0, 0, 1 };
	const uint8_t *ef[] = { fh };
	const unsigned lf[] = { 8 };
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 9, ef, lf, 1);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_TRUE(!fw_reject6_ok(&p, false, FW_UNREACH, 3, &c6));
	/* the rules give the verdict and code the forwarder passes on */
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 unreach port udp from any to 2001:2:8000::/33");
	FW_OK(fw, "add 200 reject ip6 from any to 2001:2:9000::/36");
	struct fw_match m;
	pl = mk6(ip, "2001:2::2", "2001:2:8000::5", 17, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_UNREACH, 100));
	T_EQ_INT(m.icmp_code, 3);
	pl = mk6(ip, "2001:2::2", "2001:2:9000::5", 6, 9, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_UNREACH, 200));
	T_EQ_INT(m.icmp_code, 1);
	fw_free(fw);
}

/* `unreach6 CODE` and `reset6` (ipfw2.c TOK_UNREACH6/TOK_RESET6, both O_UNREACH6):
 * ipv6.c fill_unreach6_code's numbers (strtoul base 0, below 0x100) and names,
 * print_unreach6_code's listing, the listing loaded back, bad codes placed */
static void t_unreach6_lang(void)
{
	static const struct {
		const char *add, *show;
	} ok[] = {
		{ "add 100 unreach6 admin-prohib ip6 from any to 2001:2:8000::/33",
		  "00100 unreach6 admin-prohib ip6 from any to 2001:2:8000::/33" },
		{ "add 110 unreach6 0 udp from any to any 7", "00110 unreach6 no-route udp from any to any 7" },
		{ "add 120 unreach6 0x3 ip from any to any", "00120 unreach6 address ip from any to any" },
		{ "add 130 unreach6 port log ip6 from any to any",
		  "00130 unreach6 port log ip6 from any to any" },
		{ "add 140 unreach6 2 ip from any to any", "00140 unreach6 2 ip from any to any" },
		{ "add 150 unreach6 255 ip from any to any", "00150 unreach6 255 ip from any to any" },
		{ "add 160 unreach6 010 ip from any to any", "00160 unreach6 8 ip from any to any" },
		{ "add 170 reset6 tcp from any to any", "00170 reset6 tcp from any to any" },
		{ "add 180 reset6 log logamount 5 ip6 from any to any",
		  "00180 reset6 log logamount 5 ip6 from any to any" },
		{ "add 190 unreach6 admin-prohib ip from any to any in // v4 too",
		  "00190 unreach6 admin-prohib ip from any to any in // v4 too" },
	};
	struct fw *fw = fw_mk();
	for (size_t k = 0; k < sizeof(ok) / sizeof(ok[0]); k++) {
		const char *got = fw_echo(fw, ok[k].add);
		if (strcmp(got, ok[k].show))
			T_FAIL("'%s' listed '%.200s'", ok[k].add, got);
	}
	/* what `show` prints loads back into the same rules */
	FW_OK(fw, "show");
	char path[] = "/tmp/t_fw_ip6.XXXXXX";
	int fd = mkstemp(path);
	T_TRUE(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(fw_out(), f);
	fclose(f);
	FW_OK(fw, "list");
	char want[4096];
	snprintf(want, sizeof(want), "%s", fw_out());
	struct fw *fw2 = fw_mk();
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw2, path, &d), 0);
	if (d.msg[0])
		T_FAIL("%d:%d: %.200s", d.line, d.col, d.msg);
	FW_OK(fw2, "list");
	if (strcmp(fw_out(), want))
		T_FAIL("loaded back, listed:\n%.200s\nexpected:\n%.200s", fw_out(), want);
	T_TRUE(strstr(want, "00170 reset6 tcp from any to any\n") != NULL);
	unlink(path);
	fw_free(fw2);
	static const struct {
		const char *rule, *got;
		int col;
	} bad[] = {
		{ "add 1 unreach6 256 ip from any to any", "'256'", 16 },
		{ "add 1 unreach6 -1 ip from any to any", "'-1'", 16 },
		{ "add 1 unreach6 admin ip from any to any", "'admin'", 16 },
		{ "add 1 unreach6 host ip from any to any", "'host'", 16 },
		{ "add 1 unreach6 0x100 ip from any to any", "'0x100'", 16 },
		{ "add 1 unreach6", "end of line", 15 },
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char msg[256];
		snprintf(msg, sizeof(msg),
			 "expected an ICMPv6 unreachable code after 'unreach6' (0..255, or no-route, "
			 "admin-prohib, address, port), got %s", bad[k].got);
		if (fw_run(fw, bad[k].rule) != -EINVAL || fw_d.col != bad[k].col ||
		    strcmp(fw_d.msg, msg) || fw_d.ex != 65)
			T_FAIL("'%s': column %d ex %d '%.200s'", bad[k].rule, fw_d.col, fw_d.ex,
			       fw_d.msg);
	}
	/* abort6 is still refused by name */
	T_EQ_INT(fw_run(fw, "add 1 abort6 ip from any to any"), -EINVAL);
	T_STREQ(fw_d.msg, "action 'abort6' is not supported by ppslab-rut");
	T_EQ_INT(fw_rule_count(fw), 11);
	fw_free(fw);
}

struct logs {
	char lines[4][160];
	int n;
};

static void logs_add(void *arg, const char *line)
{
	struct logs *s = arg;
	if (s->n < 4)
		snprintf(s->lines[s->n++], sizeof(s->lines[0]), "%s", line);
}

/* O_UNREACH6 in ipfw_chk and send_reject6: the code goes out as it is (no
 * map_icmp_unreach), an IPv4 packet is dropped without a reply, `reset6` answers a TCP
 * segment that is no RST with an RST and anything else with nothing; the log words
 * (ipfw_log: "Unreach N" whatever N, "Reset") */
static void t_unreach6_eval(void)
{
	uint8_t ip[256], c6 = 99;
	struct fw_pkt p;
	struct fw_match m;
	struct logs lg = { 0 };
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 unreach6 port udp from any to any 7");
	FW_OK(fw, "add 200 unreach6 admin-prohib log ip from any to any 8");
	FW_OK(fw, "add 300 reset6 log ip from any to any 9");
	FW_OK(fw, "add 400 reset tcp from any to any 10");
	FW_OK(fw, "add 500 unreach6 2 ip from any to any 11");
	fw_set_log(fw, logs_add, &lg);
	fw_tunables(fw)->verbose = true;
	/* IPv6: the rule's own ICMPv6 code (map_icmp_unreach would give 1 and 1) */
	unsigned pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 7, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_UNREACH, 100));
	T_TRUE(m.unreach6);
	T_EQ_INT(m.icmp_code, 4);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_UNREACH, &m, &c6), FW_R6_UNREACH);
	T_EQ_INT(c6, 4);
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 11, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_UNREACH, 500));
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_UNREACH, &m, &c6), FW_R6_UNREACH);
	T_EQ_INT(c6, 2);
	/* O_UNREACH6's conditions hold for it too: no reply to a link-layer group frame,
	 * an ICMPv6 error, a multicast source */
	T_EQ_INT(fw_reply6(&p, true, FW_UNREACH, &m, &c6), FW_R6_NONE);
	pl = mk6(ip, "ff02::2", "2001:2:0:1::2", 17, 9, 11, NULL, NULL, 0);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_UNREACH, &m, &c6), FW_R6_NONE);
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 9, 8, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_UNREACH, 200));
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_UNREACH, &m, &c6), FW_R6_UNREACH);
	T_EQ_INT(c6, 1);
	T_STREQ(lg.lines[0], "ipfw: 200 Unreach 1 UDP [2001:2::2]:9 [2001:2:0:1::2]:8 in via em0");
	/* IPv4: the same rules drop it, and nothing answers */
	struct fw_pkt p4 = fw_pk(17, "198.18.0.2", 9, "198.19.0.2", 7);
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_UNREACH);
	T_EQ_INT(m.rule_no, 100);
	T_TRUE(m.unreach6);
	T_EQ_INT(fw_reply6(&p4, false, FW_UNREACH, &m, &c6), FW_R6_NONE);
	p4 = fw_pk(6, "198.18.0.2", 1000, "198.19.0.2", 9);
	p4.tcp_flags = 0x02;
	T_EQ_INT(fw_eval_ex(fw, &p4, &m), FW_RESET);
	T_TRUE(m.unreach6);
	T_EQ_INT(fw_reply6(&p4, false, FW_RESET, &m, &c6), FW_R6_NONE);
	/* reset6: an RST to TCP, nothing to an RST, to UDP, to ICMPv6 */
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 6, 1000, 9, NULL, NULL, 0);
	ip[40 + 13] = 0x02;
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_RESET, 300));
	T_TRUE(m.unreach6);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_RESET, &m, &c6), FW_R6_RST);
	T_STREQ(lg.lines[1], "ipfw: 300 Reset TCP 198.18.0.2:1000 198.19.0.2:9 in via em0");
	T_STREQ(lg.lines[2], "ipfw: 300 Reset TCP [2001:2::2]:1000 [2001:2:0:1::2]:9 in via em0");
	ip[40 + 13] = 0x14;
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_RESET, &m, &c6), FW_R6_NONE);
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 17, 1000, 9, NULL, NULL, 0);
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_RESET, 300));
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_RESET, &m, &c6), FW_R6_NONE);
	/* `reset` (O_REJECT) still answers IPv6 TCP with an unreachable, code 1 */
	pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 6, 1000, 10, NULL, NULL, 0);
	ip[40 + 13] = 0x02;
	T_EQ_INT(eval6(fw, ip, pl, &m), V(FW_RESET, 400));
	T_TRUE(!m.unreach6);
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	T_EQ_INT(fw_reply6(&p, false, FW_RESET, &m, &c6), FW_R6_UNREACH);
	T_EQ_INT(c6, 1);
	fw_free(fw);
}

/* ipfw_send_pkt() for IPv6: the RST's bytes, behind an extension header, its checksum
 * over the pseudo-header */
static void t_reset6_build(void)
{
	uint8_t ip[256], r[64];
	struct fw_pkt p;
	uint8_t hbh[] = { 0, 0, 0, 1, 4, 0, 0, 0, 0 };   /* hop-by-hop: a PadN */
	const uint8_t *ex[] = { hbh };
	const unsigned el[] = { 8 };
	unsigned pl = mk6(ip, "2001:2::2", "2001:2:0:1::2", 6, 1000, 9, ex, el, 1);
	uint8_t *th = ip + 48;
	static const uint8_t seq[] = { 0x11, 0x22, 0x33, 0x44 }, ack[] = { 0xaa, 0xbb, 0xcc, 0xdd };
	memcpy(th + 4, seq, 4);
	memcpy(th + 8, ack, 4);
	th[12] = 5 << 4;
	th[13] = 0x02;                              /* a SYN: RST|ACK, ack seq + 1 */
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	memset(r, 0xee, sizeof(r));
	T_EQ_INT(fw_reset6_build(r, ip, &p), 60);
	static const uint8_t hdr[8] = { 0x60, 0, 0, 0, 0, 20, 6, 64 };
	T_TRUE(!memcmp(r, hdr, 8));
	T_TRUE(!memcmp(r + 8, ip + 24, 16) && !memcmp(r + 24, ip + 8, 16));
	T_TRUE(r[40] == 0x00 && r[41] == 0x09 && r[42] == 0x03 && r[43] == 0xe8);
	T_TRUE(r[44] == 0 && r[45] == 0 && r[46] == 0 && r[47] == 0);
	T_TRUE(r[48] == 0x11 && r[49] == 0x22 && r[50] == 0x33 && r[51] == 0x45);
	T_EQ_INT(r[52], 0x50);
	T_EQ_INT(r[53], 0x14);
	T_TRUE(r[54] == 0 && r[55] == 0 && r[58] == 0 && r[59] == 0);
	uint8_t ph[8] = { 0, 0, 0, 20, 0, 0, 0, 6 };
	T_EQ_INT(csum_fold(csum_add(csum_add(csum_add(0, r + 8, 32), ph, 8), r + 40, 20)), 0);
	/* the checksum as computed apart (RFC 1071, in Python) for these addresses and ports */
	T_EQ_INT(r[56] << 8 | r[57], 0x276e);
	th[13] = 0x10;                              /* with ACK: RST, seq = its ack */
	fw_pkt_ip6(ip, pl, EM0, 0, &p);
	fw_reset6_build(r, ip, &p);
	T_TRUE(!memcmp(r + 44, ack, 4));
	T_TRUE(r[48] == 0 && r[49] == 0 && r[50] == 0 && r[51] == 0);
	T_EQ_INT(r[53], 0x04);
	T_EQ_INT(csum_fold(csum_add(csum_add(csum_add(0, r + 8, 32), ph, 8), r + 40, 20)), 0);
}

int main(void)
{
	T_RUN(t_listing);
	T_RUN(t_match);
	T_RUN(t_exthdr);
	T_RUN(t_opt6_listing);
	T_RUN(t_opt6_errors);
	T_RUN(t_opt6_match);
	T_RUN(t_table6);
	T_RUN(t_state6);
	T_RUN(t_reject6);
	T_RUN(t_unreach6_lang);
	T_RUN(t_unreach6_eval);
	T_RUN(t_reset6_build);
	return t_done();
}
