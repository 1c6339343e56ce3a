/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_eval.c — matching: every vector T1..T15 of
 * docs/design/ipfw.md#rule-matching-test-vectors, counters per pass (N3 of
 * docs/design/ipfw.md#numbering-and-counter-test-vectors), the tunables, and log lines
 * (docs/design/ipfw.md#logging). A packet that no user rule matches ends in rule
 * 65535, so "✗" is checked as "decided by 65535". */
#include <time.h>

#include "fw_impl.h"
#include "fw_util.h"

#define TCP 6
#define UDP 17
#define ICMP 1
#define ESP 50

static uint32_t rule_of(struct fw *fw, struct fw_pkt p)
{
	uint32_t r = 0;
	fw_eval(fw, &p, &r);
	return r;
}

static enum fw_verdict verdict_of(struct fw *fw, struct fw_pkt p)
{
	uint32_t r;
	return fw_eval(fw, &p, &r);
}

static uint64_t pkts_of(struct fw *fw, uint32_t number)
{
	struct fw_rule_stats st;
	for (int i = 0; i < fw_rule_count(fw); i++)
		if (!fw_rule_stats(fw, i, &st) && st.number == number)
			return st.pkts;
	return UINT64_MAX;
}

static uint64_t bytes_of(struct fw *fw, uint32_t number)
{
	struct fw_rule_stats st;
	for (int i = 0; i < fw_rule_count(fw); i++)
		if (!fw_rule_stats(fw, i, &st) && st.number == number)
			return st.bytes;
	return UINT64_MAX;
}

static struct fw *with(const char *cmd)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, cmd);
	return fw;
}

static void t1_deny_to_host(void)
{
	struct fw *fw = with("add 100 deny ip from any to 10.0.0.1");
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "1.1.1.1", 1000, "10.0.0.1", 80)), 100);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 1000, "10.0.0.1", 53)), 100);
	T_EQ_U64(rule_of(fw, fw_pk(ICMP, "1.1.1.1", 0, "10.0.0.1", 0)), 100);
	T_EQ_INT(verdict_of(fw, fw_pk(ICMP, "1.1.1.1", 0, "10.0.0.1", 0)), FW_DENY);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "1.1.1.1", 1000, "10.0.0.2", 80)), 65535);
	fw_free(fw);
}

static void t2_all_is_ip(void)
{
	struct fw *fw = fw_mk();
	T_STREQ(fw_echo(fw, "add deny all from any to 10.0.0.1"), "00100 deny ip from any to 10.0.0.1");
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "1.1.1.1", 1000, "10.0.0.1", 80)), 100);
	T_EQ_U64(rule_of(fw, fw_pk(ESP, "1.1.1.1", 0, "10.0.0.1", 0)), 100);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 1000, "10.0.0.2", 80)), 65535);
	/* the 2006 DragonFly "ip does not match, all does": both catch the same packets */
	FW_OK(fw, "add 50 deny ip from any to 192.168.44.1");
	FW_OK(fw, "add 40 count all from any to 192.168.44.1");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 9, "192.168.44.1", 9)), 50);
	T_EQ_U64(pkts_of(fw, 40), 1);
	fw_free(fw);
}

static void t3_tcp_net_to_ports(void)
{
	struct fw *fw = with("add 200 allow tcp from 192.168.1.0/24 to any 80,443");
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "192.168.1.7", 40000, "8.8.8.8", 443)), 200);
	T_EQ_INT(verdict_of(fw, fw_pk(TCP, "192.168.1.7", 40000, "8.8.8.8", 443)), FW_PASS);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "192.168.1.7", 40000, "8.8.8.8", 80)), 200);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "192.168.1.7", 40000, "8.8.8.8", 443)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "192.168.2.7", 40000, "8.8.8.8", 443)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "192.168.1.7", 40000, "8.8.8.8", 8080)), 65535);
	struct fw_pkt frag = fw_pk(TCP, "192.168.1.7", 40000, "8.8.8.8", 443);
	frag.frag = true;
	frag.has_ports = false;
	T_EQ_U64(rule_of(fw, frag), 65535);
	/* the fragment offset alone is enough, whatever has_ports says */
	frag.has_ports = true;
	T_EQ_U64(rule_of(fw, frag), 65535);
	fw_free(fw);
}

static void t4_udp_port_range(void)
{
	struct fw *fw = with("add 300 deny udp from any to any 1000-2000");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 5, "2.2.2.2", 1000)), 300);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 5, "2.2.2.2", 2000)), 300);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 5, "2.2.2.2", 999)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 5, "2.2.2.2", 2001)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "1.1.1.1", 5, "2.2.2.2", 1500)), 65535);
	fw_free(fw);
}

static void t5_unreach_port_to_me(void)
{
	struct fw *fw = fw_mk();
	T_STREQ(fw_echo(fw, "add 400 unreach port udp from any to me 53"),
		"00400 unreach port udp from any to me 53");
	struct fw_match m;
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 5000, "10.0.0.254", 53);
	T_EQ_INT(fw_eval_ex(fw, &p, &m), FW_UNREACH);
	T_EQ_U64(m.rule_no, 400);
	T_EQ_U64(m.icmp_code, 3);
	p.dst = ip4("198.18.0.1");   /* the other local address */
	T_EQ_INT(fw_eval_ex(fw, &p, &m), FW_UNREACH);
	p.dst = ip4("10.0.0.9");
	T_EQ_INT(fw_eval_ex(fw, &p, &m), FW_DENY);
	T_EQ_U64(m.rule_no, 65535);
	/* reject is unreach host (code 1) */
	FW_OK(fw, "add 300 reject tcp from any to any 25");
	p = fw_pk(TCP, "1.1.1.1", 5000, "10.0.0.9", 25);
	T_EQ_INT(fw_eval_ex(fw, &p, &m), FW_UNREACH);
	T_EQ_U64(m.icmp_code, 1);
	FW_OK(fw, "add 200 reset tcp from any to any 26");
	p.dport = 26;
	T_EQ_INT(fw_eval_ex(fw, &p, &m), FW_RESET);
	fw_free(fw);
}

static void t6_count_continues(void)
{
	struct fw *fw = fw_mk();
	T_STREQ(fw_echo(fw, "add 500 count ip from 10.1.2.3/24 to any"),
		"00500 count ip from 10.1.2.0/24 to any");
	FW_OK(fw, "add 510 allow ip from any to any");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.1.2.200", 1, "9.9.9.9", 1)), 510);
	T_EQ_U64(pkts_of(fw, 500), 1);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.1.3.1", 1, "9.9.9.9", 1)), 510);
	T_EQ_U64(pkts_of(fw, 500), 1);
	T_EQ_U64(pkts_of(fw, 510), 2);
	fw_free(fw);
}

static void t7_not_net(void)
{
	struct fw *fw = with("add 600 deny ip from not 10.0.0.0/8 to any");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "11.0.0.1", 1, "9.9.9.9", 1)), 600);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.5.5.5", 1, "9.9.9.9", 1)), 65535);
	fw_free(fw);
}

static void t8_or_block(void)
{
	struct fw *fw = with("add 700 deny ip from { 10.0.0.1 or 10.0.0.2 } to any");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.0.0.2", 1, "9.9.9.9", 1)), 700);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.0.0.1", 1, "9.9.9.9", 1)), 700);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.0.0.3", 1, "9.9.9.9", 1)), 65535);
	/* an OR block followed by an ANDed test, and `not` inside a block */
	FW_OK(fw, "add 710 deny { tcp or udp } from { 10.0.0.7 or not 10.0.0.0/8 } to any 53");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.0.0.7", 1, "9.9.9.9", 53)), 710);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "11.0.0.7", 1, "9.9.9.9", 53)), 710);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "10.0.0.8", 1, "9.9.9.9", 53)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(ESP, "10.0.0.7", 0, "9.9.9.9", 0)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "10.0.0.7", 1, "9.9.9.9", 54)), 65535);
	fw_free(fw);
}

static void t9_not_port_matches_portless(void)
{
	struct fw *fw = with("add 800 deny ip from any to any not 80");
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "1.1.1.1", 1, "2.2.2.2", 81)), 800);
	T_EQ_U64(rule_of(fw, fw_pk(TCP, "1.1.1.1", 1, "2.2.2.2", 80)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 80)), 65535);
	/* the port test fails on ICMP and on a non-first fragment, and is negated */
	T_EQ_U64(rule_of(fw, fw_pk(ICMP, "1.1.1.1", 0, "2.2.2.2", 0)), 800);
	struct fw_pkt frag = fw_pk(TCP, "1.1.1.1", 1, "2.2.2.2", 80);
	frag.frag = true;
	frag.has_ports = false;
	T_EQ_U64(rule_of(fw, frag), 800);
	/* without `not`, a port test never matches a portless packet */
	FW_OK(fw, "add 700 deny ip from any to any 0-65535");
	T_EQ_U64(rule_of(fw, fw_pk(ICMP, "1.1.1.1", 0, "2.2.2.2", 0)), 800);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 0, "2.2.2.2", 0)), 700);
	fw_free(fw);
}

static void t10_noncontiguous_mask(void)
{
	struct fw *fw = fw_mk();
	T_STREQ(fw_echo(fw, "add 900 deny ip from any to 1.2.3.4:255.0.255.0"),
		"00900 deny ip from any to 1.0.3.0:255.0.255.0");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "9.9.9.9", 1, "1.77.3.9", 1)), 900);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "9.9.9.9", 1, "1.2.4.4", 1)), 65535);
	fw_free(fw);
}

static void t11_address_set(void)
{
	struct fw *fw = with("add 1000 deny ip from any to 10.0.0.0/24{1,5,7}");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "9.9.9.9", 1, "10.0.0.5", 1)), 1000);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "9.9.9.9", 1, "10.0.0.1", 1)), 1000);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "9.9.9.9", 1, "10.0.0.6", 1)), 65535);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "9.9.9.9", 1, "10.0.1.5", 1)), 65535);
	/* address lists: any element */
	FW_OK(fw, "add 1010 deny ip from 1.2.3.4,5.6.7.0/24 to any");
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "5.6.7.99", 1, "9.9.9.9", 1)), 1010);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.2.3.4", 1, "9.9.9.9", 1)), 1010);
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.2.3.5", 1, "9.9.9.9", 1)), 65535);
	fw_free(fw);
}

static void t12_via_both_passes(void)
{
	struct fw *fw = with("add 1100 deny ip from any to any via em0");
	FW_OK(fw, "add 2000 allow ip from any to any");
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	/* forwarded em0 → em1: the inbound pass (recv em0) matches */
	T_EQ_U64(rule_of(fw, fw_pass(p, true, EM0, EM1)), 1100);
	T_EQ_U64(rule_of(fw, fw_pass(p, false, EM0, EM1)), 2000);
	/* em1 → em0: the outbound pass (xmit em0) matches */
	T_EQ_U64(rule_of(fw, fw_pass(p, true, EM1, EM0)), 2000);
	T_EQ_U64(rule_of(fw, fw_pass(p, false, EM1, EM0)), 1100);
	/* an inbound pass has no output interface, whatever xmit_if holds */
	struct fw_pkt q = fw_pass(p, true, EM1, EM0);
	q.xmit_if = EM0;
	T_EQ_U64(rule_of(fw, q), 2000);
	FW_OK(fw, "add 1050 deny ip from any to any xmit em1");
	q = fw_pass(p, true, EM0, EM1);
	q.xmit_if = EM1;
	T_EQ_U64(rule_of(fw, q), 1100);
	T_EQ_U64(rule_of(fw, fw_pass(p, false, EM0, EM1)), 1050);
	/* recv works on both passes */
	FW_OK(fw, "add 1020 deny ip from any to any out recv em1");
	T_EQ_U64(rule_of(fw, fw_pass(p, false, EM1, EM0)), 1020);
	/* globs and interface addresses */
	FW_OK(fw, "add 1010 count ip from any to any recv rut*");
	FW_OK(fw, "add 1011 count ip from any to any xmit 198.18.0.1");
	rule_of(fw, fw_pass(p, false, RUT1, RUT0));
	T_EQ_U64(pkts_of(fw, 1010), 1);
	T_EQ_U64(pkts_of(fw, 1011), 1);
	fw_free(fw);
}

static void t13_skipto_in_recv(void)
{
	struct fw *fw = with("add 1200 skipto 2000 ip from any to any in recv em0");
	FW_OK(fw, "add 1300 deny ip from any to any in");
	FW_OK(fw, "add 2000 allow ip from any to any");
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	/* in-pass from em0: 1200 counted, 1300 skipped, 2000 allows */
	T_EQ_U64(rule_of(fw, fw_pass(p, true, EM0, EM1)), 2000);
	T_EQ_U64(pkts_of(fw, 1200), 1);
	T_EQ_U64(pkts_of(fw, 1300), 0);
	/* in-pass from em1: 1300 denies */
	T_EQ_U64(rule_of(fw, fw_pass(p, true, EM1, EM0)), 1300);
	T_EQ_INT(verdict_of(fw, fw_pass(p, true, EM1, EM0)), FW_DENY);
	/* every out-pass: 1200 ✗, 1300 ✗, 2000 allows */
	T_EQ_U64(rule_of(fw, fw_pass(p, false, EM0, EM1)), 2000);
	T_EQ_U64(rule_of(fw, fw_pass(p, false, EM1, EM0)), 2000);
	T_EQ_U64(pkts_of(fw, 1200), 1);
	T_EQ_U64(pkts_of(fw, 1300), 2);
	T_EQ_U64(pkts_of(fw, 2000), 3);
	fw_free(fw);
}

static void t14_backward_skipto(void)
{
	/* 1400 skipto 100 (backward), a second rule numbered 1400, then 1500 */
	struct fw *fw = with("add 1400 skipto 100 ip from any to any");
	FW_OK(fw, "add 1400 deny ip from any to any");
	FW_OK(fw, "add 1500 allow ip from any to any");
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	/* FreeBSD (default): continue at the first rule numbered >= 1401 */
	T_EQ_U64(rule_of(fw, p), 1500);
	/* DragonFly / older ipfw2: the next rule in the list, the other 1400 */
	fw_tunables(fw)->skipto_dragonfly = true;
	T_EQ_U64(rule_of(fw, p), 1400);
	T_EQ_INT(verdict_of(fw, p), FW_DENY);
	/* a forward target behaves the same in both */
	FW_OK(fw, "add 1300 skipto 1500 ip from any to any");
	T_EQ_U64(rule_of(fw, p), 1500);
	fw_tunables(fw)->skipto_dragonfly = false;
	T_EQ_U64(rule_of(fw, p), 1500);
	/* a target past every user rule lands on 65535 */
	FW_OK(fw, "add 1 skipto 60000 ip from any to any");
	T_EQ_U64(rule_of(fw, p), 65535);
	fw_free(fw);
}

static void t15_rule_65535_reserved(void)
{
	struct fw *fw = fw_mk();
	T_EQ_INT(fw_run(fw, "add 65535 deny ip from any to any"), -EINVAL);
	T_EQ_INT(fw_d.ex, 69);
	T_EQ_INT(fw_run(fw, "add 65535 allow ip from any to any"), -EINVAL);
	T_EQ_INT(fw_run(fw, "delete 65535"), -EINVAL);
	T_STREQ(fw_d.msg, "rule 65535 not found");   /* ipfw_delete(), FreeBSD 14 */
	T_EQ_INT(fw_d.ex, 69);
	T_EQ_INT(fw_rule_count(fw), 1);
	fw_free(fw);
}

/* N3: 10 packets forwarded em0 → em1 each go through the ruleset twice */
static void forward10(struct fw *fw)
{
	struct fw_pkt p = fw_pk(UDP, "198.18.0.2", 1024, "198.19.0.2", 9);
	p.ip_len = 100;   /* 114-byte frames */
	for (int k = 0; k < 10; k++) {
		T_EQ_INT(verdict_of(fw, fw_pass(p, true, EM0, EM1)), FW_PASS);
		T_EQ_INT(verdict_of(fw, fw_pass(p, false, EM0, EM1)), FW_PASS);
	}
}

static void t_counters_per_pass(void)
{
	struct fw *fw = with("add 100 count ip from any to any");
	fw_tunables(fw)->default_to_accept = true;
	forward10(fw);
	T_EQ_U64(pkts_of(fw, 100), 20);
	T_EQ_U64(bytes_of(fw, 100), 2000);
	T_EQ_U64(pkts_of(fw, 65535), 20);
	T_EQ_U64(bytes_of(fw, 65535), 2000);
	fw_free(fw);

	fw = with("add 100 count ip from any to any in");
	fw_tunables(fw)->default_to_accept = true;
	forward10(fw);
	T_EQ_U64(pkts_of(fw, 100), 10);
	T_EQ_U64(bytes_of(fw, 100), 1000);
	T_EQ_U64(pkts_of(fw, 65535), 20);
	fw_free(fw);

	/* a packet denied on the inbound pass is counted once */
	fw = with("add 100 count ip from any to any");
	FW_OK(fw, "add 200 deny ip from any to any in");
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	p.ip_len = 28;
	T_EQ_INT(verdict_of(fw, fw_pass(p, true, EM0, EM1)), FW_DENY);
	T_EQ_U64(pkts_of(fw, 100), 1);
	T_EQ_U64(bytes_of(fw, 100), 28);
	T_EQ_U64(pkts_of(fw, 200), 1);
	T_EQ_U64(pkts_of(fw, 65535), 0);
	fw_free(fw);
}

static void t_update_counters_off(void)
{
	struct fw *fw = with("add 100 count ip from any to any");
	FW_OK(fw, "add 200 deny ip from any to 10.0.0.1");
	fw_tunables(fw)->default_to_accept = true;
	fw_tunables(fw)->update_counters = false;
	forward10(fw);
	/* rules still decide */
	T_EQ_U64(rule_of(fw, fw_pk(UDP, "1.1.1.1", 1, "10.0.0.1", 1)), 200);
	T_EQ_U64(pkts_of(fw, 100), 0);
	T_EQ_U64(bytes_of(fw, 100), 0);
	T_EQ_U64(pkts_of(fw, 200), 0);
	T_EQ_U64(pkts_of(fw, 65535), 0);
	struct fw_rule_stats st;
	fw_rule_stats(fw, 0, &st);
	T_EQ_U64(st.last_match_s, 0);
	fw_tunables(fw)->update_counters = true;
	forward10(fw);
	T_EQ_U64(pkts_of(fw, 100), 20);
	fw_free(fw);
}

static void t_enable_off_bypasses(void)
{
	struct fw *fw = with("add 100 deny ip from any to any");
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	T_EQ_INT(verdict_of(fw, p), FW_DENY);
	fw_tunables(fw)->enable = false;
	T_EQ_INT(verdict_of(fw, p), FW_PASS);
	T_EQ_U64(rule_of(fw, p), 0);
	T_EQ_U64(pkts_of(fw, 100), 1);   /* only the first, enabled pass counted */
	FW_OK(fw, "enable firewall");
	T_EQ_INT(verdict_of(fw, p), FW_DENY);
	FW_OK(fw, "disable firewall");
	T_EQ_INT(verdict_of(fw, p), FW_PASS);
	fw_free(fw);
}

static void t_default_rule(void)
{
	struct fw *fw = fw_mk();
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	T_EQ_INT(verdict_of(fw, p), FW_DENY);
	T_EQ_U64(rule_of(fw, p), 65535);
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), "65535 deny ip from any to any\n");
	fw_tunables(fw)->default_to_accept = true;
	T_EQ_INT(verdict_of(fw, p), FW_PASS);
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), "65535 allow ip from any to any\n");
	fw_free(fw);
}

static void t_last_match_time(void)
{
	struct fw *fw = with("add 100 count ip from any to any");
	struct fw_pkt p = fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1);
	struct fw_rule_stats st;
	time_t before = time(NULL);
	verdict_of(fw, p);
	fw_rule_stats(fw, 0, &st);
	T_TRUE(st.last_match_s + 1 >= (uint64_t)before && st.last_match_s <= (uint64_t)time(NULL) + 1);
	fw_set_now(fw, 1164582035);   /* the 2006 DragonFly sweep's day */
	verdict_of(fw, p);
	fw_rule_stats(fw, 0, &st);
	T_EQ_U64(st.last_match_s, 1164582035);
	FW_OK(fw, "zero");
	fw_rule_stats(fw, 0, &st);
	T_EQ_U64(st.last_match_s, 0);
	T_EQ_U64(st.pkts, 0);
	fw_free(fw);
}

struct logsink {
	int n;
	char lines[16][256];
};

static void sink(void *arg, const char *line)
{
	struct logsink *s = arg;
	if (s->n < 16)
		snprintf(s->lines[s->n], sizeof(s->lines[0]), "%s", line);
	s->n++;
}

static void t_log_lines(void)
{
	struct logsink s = { 0 };
	struct fw *fw = with("add 100 deny log logamount 2 udp from any to any 9");
	fw_set_log(fw, sink, &s);
	struct fw_pkt p = fw_pk(UDP, "198.18.0.2", 1024, "198.19.0.2", 9);
	/* verbose off: no lines, the allowance untouched */
	verdict_of(fw, fw_pass(p, true, RUT0, RUT1));
	T_EQ_INT(s.n, 0);
	fw_tunables(fw)->verbose = true;
	for (int k = 0; k < 3; k++)
		verdict_of(fw, fw_pass(p, true, RUT0, RUT1));
	T_EQ_INT(s.n, 3);
	T_STREQ(s.lines[0], "ipfw: 100 Deny UDP 198.18.0.2:1024 198.19.0.2:9 in via rut0");
	T_STREQ(s.lines[2], "ipfw: limit 2 reached on entry 100");
	/* resetlog restarts the allowance */
	FW_OK(fw, "resetlog");
	FW_TEXT(fw_out(), "Logging counts reset.\n");
	verdict_of(fw, fw_pass(p, false, RUT0, RUT1));
	T_EQ_INT(s.n, 4);
	T_STREQ(s.lines[3], "ipfw: 100 Deny UDP 198.18.0.2:1024 198.19.0.2:9 out via rut1");
	FW_OK(fw, "resetlog 100");
	FW_TEXT(fw_out(), "Entry 100 logging count reset.\n");
	/* other actions and protocols */
	FW_OK(fw, "add 50 count log icmp from any to any");
	FW_OK(fw, "add 60 unreach port log esp from any to any");
	struct fw_pkt q = fw_pk(ICMP, "1.2.3.4", 0, "5.6.7.8", 0);
	q.icmp_type = 8;
	verdict_of(fw, fw_pass(q, true, EM0, EM1));
	T_STREQ(s.lines[4], "ipfw: 50 Count ICMP:8.0 1.2.3.4 5.6.7.8 in via em0");
	verdict_of(fw, fw_pass(fw_pk(ESP, "1.2.3.4", 0, "5.6.7.8", 0), true, EM0, EM1));
	T_STREQ(s.lines[5], "ipfw: 60 Unreach 3 P:50 1.2.3.4 5.6.7.8 in via em0");
	fw_free(fw);
}

static void t_log_verbose_limit(void)
{
	struct logsink s = { 0 };
	struct fw *fw = fw_mk();
	fw_set_log(fw, sink, &s);
	fw_tunables(fw)->verbose = true;
	/* without logamount a rule gets verbose_limit at the time it is added */
	FW_OK(fw, "add 100 count log ip from any to any");
	fw_tunables(fw)->verbose_limit = 3;
	T_STREQ(fw_echo(fw, "add 200 count log ip from any to any"),
		"00200 count log logamount 3 ip from any to any");
	for (int k = 0; k < 5; k++)
		verdict_of(fw, fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1));
	/* 100 unlimited: 5 lines; 200: 3 lines and the limit notice */
	T_EQ_INT(s.n, 9);
	T_STREQ(s.lines[6], "ipfw: limit 3 reached on entry 200");
	/* zero also restarts the allowance */
	FW_OK(fw, "zero 200");
	verdict_of(fw, fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 1));
	T_EQ_INT(s.n, 11);
	fw_free(fw);
}

static void t_burst(void)
{
	struct fw *fw = with("add 100 deny udp from any to any 9");
	struct fw_pkt p[3] = { fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 9), fw_pk(TCP, "1.1.1.1", 1, "2.2.2.2", 9),
			       fw_pk(UDP, "1.1.1.1", 1, "2.2.2.2", 10) };
	enum fw_verdict v[3];
	uint32_t r[3];
	fw_tunables(fw)->default_to_accept = true;
	fw_eval_burst(fw, p, 3, v, r);
	T_EQ_INT(v[0], FW_DENY);
	T_EQ_INT(v[1], FW_PASS);
	T_EQ_U64(r[0], 100);
	T_EQ_U64(r[2], 65535);
	fw_eval_burst(fw, p, 3, v, NULL);
	T_EQ_U64(pkts_of(fw, 100), 2);
	fw_free(fw);
}

int main(void)
{
	T_RUN(t1_deny_to_host);
	T_RUN(t2_all_is_ip);
	T_RUN(t3_tcp_net_to_ports);
	T_RUN(t4_udp_port_range);
	T_RUN(t5_unreach_port_to_me);
	T_RUN(t6_count_continues);
	T_RUN(t7_not_net);
	T_RUN(t8_or_block);
	T_RUN(t9_not_port_matches_portless);
	T_RUN(t10_noncontiguous_mask);
	T_RUN(t11_address_set);
	T_RUN(t12_via_both_passes);
	T_RUN(t13_skipto_in_recv);
	T_RUN(t14_backward_skipto);
	T_RUN(t15_rule_65535_reserved);
	T_RUN(t_counters_per_pass);
	T_RUN(t_update_counters_off);
	T_RUN(t_enable_off_bypasses);
	T_RUN(t_default_rule);
	T_RUN(t_last_match_time);
	T_RUN(t_log_lines);
	T_RUN(t_log_verbose_limit);
	T_RUN(t_burst);
	return t_done();
}
