/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_fidelity.c — the fidelity table: rules as people write them, each with a packet,
 * the verdict FreeBSD 14's ipfw gives it and the line `ipfw list` prints, and the
 * source function the behaviour comes from (docs/design/ipfw-fidelity.md says more).
 * Every row runs through the parser, the listing and the evaluator; the integration
 * test (tests/integ/t_rut_fw.sh) sends some of the same rows as frames through the lab.
 *
 * Packets: "PROTO SRC[:PORT] DST[:PORT]" then words: out (the outbound pass), off=N
 * (fragment offset in 8-byte units), mf, df, l4=N (bytes after the IP header),
 * len=N (IP length), ttl=N, flags=syn|ack|... (TCP), icmp=TYPE. Verdicts: "pass N",
 * "deny N", "reset N", "unreach CODE N", "drop tinyfrag", "drop truncated", or
 * "error TEXT" (the rule is refused, TEXT in the message). */
#include <stdio.h>

#include "fw_impl.h"
#include "fw_util.h"

struct row {
	const char *rule, *pkt, *verdict, *listing, *source;
};

static const struct row rows[] = {
	/* protocol words */
	{ "allow ipv4 from any to any", "udp 198.18.0.2:9 198.19.0.2:9", "pass 100",
	  "00100 allow ip4 from any to any", "ipfw2.c add_proto_compat: ipv4 is O_IP4" },
	{ "allow ip4 from any to any", "tcp 198.18.0.2:9 198.19.0.2:80 flags=syn", "pass 100",
	  "00100 allow ip4 from any to any", "ipfw2.c add_proto_compat; ip_fw2.c O_IP4" },
	{ "allow ipv6 from any to any", "udp 198.18.0.2:9 198.19.0.2:9", "deny 65535",
	  "00100 allow ip6 from any to any", "add_proto_compat: ipv6 is O_IP6, never IPv4" },
	{ "allow ip from any to any ip4", "udp 1.1.1.1:1 2.2.2.2:2", "pass 100",
	  "00100 allow ip4 from any to any", "show_static_rule/print_proto: ip4 first" },
	{ "deny IP from any to any", "udp 1.1.1.1:1 2.2.2.2:2", "deny 65535",
	  "00100 deny ip from any to any", "add_proto0: getprotobyname(\"IP\") is 0" },
	{ "deny ip from any to any proto tcp", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn", "deny 100",
	  "00100 deny tcp from any to any", "compile_rule TOK_PROTO; print_proto" },
	{ "deny udp from any to any proto tcp", "udp 1.1.1.1:1 2.2.2.2:2", "deny 65535",
	  "00100 deny udp from any to any proto tcp", "print_instruction O_PROTO: proto" },
	/* UDP-Lite has ports */
	{ "deny udplite from any to any 53", "udplite 1.1.1.1:5 2.2.2.2:53", "deny 100",
	  "00100 deny udplite from any to any 53", "ip_fw2.c ipfw_chk O_IP_DSTPORT" },
	{ "deny udplite from any to any not 53", "udplite 1.1.1.1:5 2.2.2.2:53", "deny 65535",
	  "00100 deny udplite from any to any not 53", "ipfw_chk O_IP_DSTPORT, F_NOT" },
	/* keyword forms and syntax */
	{ "allow tcp from any to any dst-port 80", "tcp 1.1.1.1:5 2.2.2.2:80 flags=syn", "pass 100",
	  "00100 allow tcp from any to any 80", "print_address: one port list after the address" },
	{ "allow tcp from any 1024-65535 to any src-port 2000", "tcp 1.1.1.1:2000 2.2.2.2:80",
	  "pass 100", "00100 allow tcp from any to any src-port 1024-65535 src-port 2000",
	  "print_address: several port lists stay options" },
	{ "allow src-ip 10.0.0.1", "udp 10.0.0.1:1 2.2.2.2:2", "pass 100",
	  "00100 allow src-ip 10.0.0.1", "compile_rule IPFW_RULE_JUSTOPTS" },
	{ "allow dst-ip 10.0.0.0/8 dst-port 53", "udp 1.1.1.1:1 10.9.9.9:53", "pass 100",
	  "00100 allow dst-ip 10.0.0.0/8 dst-port 53", "JUSTOPTS; print_instruction dst-ip" },
	{ "deny ip from any to any in via em0", "udp 1.1.1.1:1 2.2.2.2:2", "deny 100",
	  "00100 deny ip from any to any in via em0", "ipfw_chk O_IN, O_VIA" },
	{ "deny ip from 1.2.3.4, 5.6.7.8 to any", "udp 5.6.7.8:1 2.2.2.2:2", "deny 100",
	  "00100 deny ip from 1.2.3.4,5.6.7.8 to any", "ipfw main: joins an argument ending in ','" },
	{ "deny tcp from any to any 80, 443", "tcp 1.1.1.1:1 2.2.2.2:443", "deny 100",
	  "00100 deny tcp from any to any 80,443", "ipfw main: joins an argument ending in ','" },
	{ "allow ip from any to any // a   comment", "udp 1.1.1.1:1 2.2.2.2:2", "pass 100",
	  "00100 allow ip from any to any // a comment", "fill_comment: words joined by blanks" },
	{ "// only a comment", "udp 1.1.1.1:1 2.2.2.2:2", "deny 65535",
	  "00100 count // only a comment", "compile_rule TOK_COMMENT: a count rule" },
	{ "allow tcp from any to any setup", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn", "pass 100",
	  "00100 allow tcp from any to any setup", "TOK_SETUP: tcpflags syn,!ack" },
	{ "allow tcp from any to any setup", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn,ack", "deny 65535",
	  "00100 allow tcp from any to any setup", "ipfw_chk O_TCPFLAGS flags_match" },
	{ "allow tcp from any to any tcpflags syn,!ack", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn",
	  "pass 100", "00100 allow tcp from any to any setup", "print_flags: syn,!ack is setup" },
	/* a list starting with '!': ipfw(8) hands "!ack" to fill_flags whole */
	{ "deny tcp from any to any tcpflags !ack", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn",
	  "deny 100", "00100 deny tcp from any to any tcpflags !ack", "fill_flags: '!' first" },
	{ "deny tcp from any to any tcpflags !ack,fin", "tcp 1.1.1.1:1 2.2.2.2:2 flags=fin",
	  "deny 100", "00100 deny tcp from any to any tcpflags fin,!ack", "fill_flags; print_flags" },
	{ "deny udp from any to any frag !offset", "udp 1.1.1.1:1 2.2.2.2:2", "deny 100",
	  "00100 deny udp from any to any frag !offset", "fill_flags(f_ipoff): '!' first" },
	{ "deny udp from any to any frag !offset", "udp 1.1.1.1 2.2.2.2 off=5", "deny 65535",
	  "00100 deny udp from any to any frag !offset", "ipfw_chk O_FRAG: offset != 0" },
	{ "deny tcp from any to any tcpflags fin,!ack", "tcp 1.1.1.1:1 2.2.2.2:2 flags=fin",
	  "deny 100", "00100 deny tcp from any to any tcpflags fin,!ack", "print_flags order" },
	{ "allow tcp from any to any established", "tcp 1.1.1.1:1 2.2.2.2:2 flags=ack", "pass 100",
	  "00100 allow tcp from any to any established", "ipfw_chk O_ESTAB" },
	{ "allow tcp from any to any established", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn", "deny 65535",
	  "00100 allow tcp from any to any established", "O_ESTAB: SYN alone is not" },
	{ "deny ip from any to any frag", "udp 1.1.1.1 2.2.2.2 off=100", "deny 100",
	  "00100 deny ip from any to any frag offset", "TOK_FRAG without spec is offset (r364117)" },
	{ "deny ip from any to any frag", "udp 1.1.1.1:1 2.2.2.2:2 mf", "deny 65535",
	  "00100 deny ip from any to any frag offset", "ipfw_chk O_FRAG" },
	{ "deny ip from any to any frag mf", "udp 1.1.1.1:1 2.2.2.2:2 mf", "deny 100",
	  "00100 deny ip from any to any frag mf", "O_FRAG flags_match on ip_off" },
	{ "deny udp from any to any 9 frag", "udp 1.1.1.1 2.2.2.2 off=100", "deny 65535",
	  "00100 deny udp from any to any 9 frag offset", "O_IP_DSTPORT needs offset 0" },
	{ "deny ip from any to any iplen 100", "udp 1.1.1.1:1 2.2.2.2:2 len=100", "deny 100",
	  "00100 deny ip from any to any iplen 100", "ipfw_chk O_IPLEN" },
	{ "deny ip from any to any iplen 28-64,1500", "udp 1.1.1.1:1 2.2.2.2:2 len=46", "deny 100",
	  "00100 deny ip from any to any iplen 28-64,1500", "add_ports for O_IPLEN lists" },
	{ "deny ip from any to any ipttl 1-10", "udp 1.1.1.1:1 2.2.2.2:2 ttl=5", "deny 100",
	  "00100 deny ip from any to any ipttl 1-10", "ipfw_chk O_IPTTL" },
	{ "allow icmp from any to any icmptypes 0,8", "icmp 1.1.1.1 2.2.2.2 icmp=8", "pass 100",
	  "00100 allow icmp from any to any icmptypes 0,8", "fill_icmptypes; icmptype_match" },
	{ "allow icmp from any to any icmptypes 0,8", "icmp 1.1.1.1 2.2.2.2 icmp=3", "deny 65535",
	  "00100 allow icmp from any to any icmptypes 0,8", "icmptype_match" },
	{ "reset tcp from any to any 23", "tcp 1.1.1.1:999 2.2.2.2:23 flags=syn", "reset 100",
	  "00100 reset tcp from any to any 23", "O_REJECT ICMP_REJECT_RST" },
	{ "unreach port udp from any to any 53", "udp 1.1.1.1:5 2.2.2.2:53", "unreach 3 100",
	  "00100 unreach port udp from any to any 53", "print_reject_code" },
	{ "reject ip from any to any", "udp 1.1.1.1:5 2.2.2.2:53", "unreach 1 100",
	  "00100 reject ip from any to any", "O_REJECT ICMP_UNREACH_HOST lists as reject" },
	{ "deny log ip from any to any", "udp 1.1.1.1:5 2.2.2.2:53", "deny 100",
	  "00100 deny log ip from any to any", "rule_action_params: log whole" },
	{ "allow ip from any to any out", "udp 1.1.1.1:5 2.2.2.2:53 out", "pass 100",
	  "00100 allow ip from any to any out", "TOK_OUT: not in" },
	/* states (the dynamic behaviour is in t_fw_dyn.c) */
	{ "allow tcp from any to any limit src-addr dst-port 5", "tcp 1.1.1.1:1 2.2.2.2:2 flags=syn",
	  "pass 100", "00100 allow tcp from any to any limit src-addr,dst-port 5 :default",
	  "print_limit_mask joins the masks with ','; they load back" },
	{ "allow udp from any to any keep-state :dns", "udp 1.1.1.1:1 2.2.2.2:53", "pass 100",
	  "00100 allow udp from any to any keep-state :dns", "state_check_name; print :name" },
	{ "check-state :any // first", "udp 1.1.1.1:1 2.2.2.2:53", "deny 65535",
	  "00100 check-state :any // first", "compile_rule TOK_CHECKSTATE, fill_comment" },
	{ "allow ip from table(10) to table(20,7)", "udp 1.1.1.1:1 2.2.2.2:53", "deny 65535",
	  "00100 allow ip from table(10) to table(20,7)", "fill_table; empty tables match nothing" },
	/* dropped before any rule (ipfw_chk pullup_failed) */
	{ "allow ip from any to any", "tcp 1.1.1.1 2.2.2.2 off=1", "drop tinyfrag",
	  "00100 allow ip from any to any", "ipfw_chk: TCP fragment offset 1 (RFC 3128)" },
	{ "allow ip from any to any", "tcp 1.1.1.1 2.2.2.2 off=2", "pass 100",
	  "00100 allow ip from any to any", "only offset 1 is refused" },
	{ "allow ip from any to any", "tcp 1.1.1.1:1 2.2.2.2:2 l4=19", "drop truncated",
	  "00100 allow ip from any to any", "PULLUP_TO(hlen, ulp, struct tcphdr)" },
	{ "allow ip from any to any", "udp 1.1.1.1:1 2.2.2.2:2 l4=7", "drop truncated",
	  "00100 allow ip from any to any", "PULLUP_TO(hlen, ulp, struct udphdr)" },
	{ "allow ip from any to any", "udplite 1.1.1.1:1 2.2.2.2:2 l4=4", "drop truncated",
	  "00100 allow ip from any to any", "UDP-Lite pulls up a udphdr too" },
	{ "allow ip from any to any", "icmp 1.1.1.1 2.2.2.2 l4=3 icmp=8", "drop truncated",
	  "00100 allow ip from any to any", "PULLUP_TO(hlen, ulp, struct icmphdr)" },
	{ "allow ip from any to any", "esp 1.1.1.1 2.2.2.2 l4=0", "pass 100",
	  "00100 allow ip from any to any", "other protocols pull up nothing" },
	/* refused */
	{ "deny l ip from any to any", "", "error got 'l'", "", "match_token: log is whole" },
	{ "deny ip from any to 10.0.0.5/32{5}", "", "error invalid set with mask 32", "",
	  "fill_ip: a set needs /24../31" },
	{ "allow ip from any to any tcpoptions mss", "", "error option 'tcpoptions' is not supported",
	  "", "outside ppslab-rut's subset: refused by name" },
	{ "allow ip from any to any keep-state keep-state", "", "error only one of keep-state", "",
	  "compile_rule: one state option" },
	{ "allow ip from table(1 to any", "", "error expected table(NAME)", "", "fill_table" },
};

static int proto_of(const char *w)
{
	if (!strcmp(w, "udplite"))
		return 136;
	if (!strcmp(w, "esp"))
		return 50;
	return !strcmp(w, "tcp") ? 6 : !strcmp(w, "udp") ? 17 : !strcmp(w, "icmp") ? 1 : -1;
}

static struct fw_pkt parse_pkt(const char *spec)
{
	char buf[256], proto[16], src[40], dst[40];
	snprintf(buf, sizeof(buf), "%s", spec);
	int n = 0;
	sscanf(buf, "%15s %39s %39s %n", proto, src, dst, &n);
	int sp = 0, dp = 0;
	char *c = strchr(src, ':');
	if (c) {
		*c = 0;
		sp = atoi(c + 1);
	}
	c = strchr(dst, ':');
	if (c) {
		*c = 0;
		dp = atoi(c + 1);
	}
	struct fw_pkt p = fw_pk(proto_of(proto), src, sp, dst, dp);
	for (char *save = NULL, *w = strtok_r(buf + n, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, "out")) {
			p = fw_pass(p, false, EM0, EM1);
		} else if (!strncmp(w, "off=", 4)) {
			p.ip_off |= (uint16_t)atoi(w + 4);
			p.frag = true;
		} else if (!strcmp(w, "mf")) {
			p.ip_off |= 0x2000;
		} else if (!strcmp(w, "df")) {
			p.ip_off |= 0x4000;
		} else if (!strncmp(w, "l4=", 3)) {
			p.l4_len = (uint16_t)atoi(w + 3);
		} else if (!strncmp(w, "len=", 4)) {
			p.ip_len = (uint16_t)atoi(w + 4);
		} else if (!strncmp(w, "ttl=", 4)) {
			p.ttl = (uint8_t)atoi(w + 4);
		} else if (!strncmp(w, "icmp=", 5)) {
			p.icmp_type = (uint8_t)atoi(w + 5);
		} else if (!strncmp(w, "flags=", 6)) {
			static const char *const nm[] = { "fin", "syn", "rst", "psh", "ack", "urg" };
			for (int k = 0; k < 6; k++)
				if (strstr(w + 6, nm[k]))
					p.tcp_flags |= (uint8_t)(1u << k);
		}
	}
	return p;
}

static void t_fidelity_table(void)
{
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		const struct row *r = &rows[k];
		struct fw *fw = fw_mk();
		char cmd[512];
		snprintf(cmd, sizeof(cmd), "add 100 %s", r->rule);
		int rc = fw_run(fw, cmd);
		if (!strncmp(r->verdict, "error ", 6)) {
			if (rc != -EINVAL || !strstr(fw_d.msg, r->verdict + 6))
				T_FAIL("'%s' (%s): %d '%s', expected an error with '%s'", r->rule, r->source,
				       rc, fw_d.msg, r->verdict + 6);
			fw_free(fw);
			continue;
		}
		if (rc) {
			T_FAIL("'%s' (%s) refused: %s", r->rule, r->source, fw_d.msg);
			fw_free(fw);
			continue;
		}
		FW_OK(fw, "list 100");
		char want[300];
		snprintf(want, sizeof(want), "%s\n", r->listing);
		if (strcmp(fw_out(), want))
			T_FAIL("'%s' (%s) lists as '%.*s', expected '%s'", r->rule, r->source,
			       (int)strcspn(fw_out(), "\n"), fw_out(), r->listing);
		struct fw_pkt p = parse_pkt(r->pkt);
		struct fw_match m;
		enum fw_verdict v = fw_eval_ex(fw, &p, &m);
		char got[64];
		if (m.why == FW_WHY_TINYFRAG || m.why == FW_WHY_TRUNCATED)
			snprintf(got, sizeof(got), "drop %s", m.why == FW_WHY_TINYFRAG ? "tinyfrag" : "truncated");
		else if (v == FW_UNREACH)
			snprintf(got, sizeof(got), "unreach %u %u", m.icmp_code, m.rule_no);
		else
			snprintf(got, sizeof(got), "%s %u",
				 v == FW_PASS ? "pass" : v == FW_RESET ? "reset" : "deny", m.rule_no);
		if (strcmp(got, r->verdict))
			T_FAIL("'%s' on '%s' (%s): %s, expected %s", r->rule, r->pkt, r->source, got,
			       r->verdict);
		/* the listing loads again into the same rule (ipfw list | ipfw) */
		struct fw *fw2 = fw_mk();
		snprintf(cmd, sizeof(cmd), "add %s", r->listing);
		if (fw_run(fw2, cmd) || fw_run(fw2, "list") || strncmp(fw_out(), want, strlen(want)))
			T_FAIL("the listing '%s' does not load back (%s)", r->listing, fw_d.msg);
		fw_free(fw2);
		fw_free(fw);
	}
	printf("# %zu rows\n", sizeof(rows) / sizeof(rows[0]));
}

/* a rule naming an interface no port has: accepted (as ipfw does), with a warning */
static void t_unknown_interface_warns(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to any via em7");
	T_TRUE(strstr(fw_d.warn, "'via em7'") != NULL);
	T_TRUE(strstr(fw_d.warn, "never matches") != NULL);
	FW_OK(fw, "add 110 deny ip from any to any recv rut*");
	T_TRUE(fw_d.warn[0] == 0);
	FW_OK(fw, "add 120 deny ip from any to any xmit 10.9.9.9");
	T_TRUE(strstr(fw_d.warn, "at that address") != NULL);
	fw_free(fw);
}

int main(void)
{
	T_RUN(t_fidelity_table);
	T_RUN(t_unknown_interface_warns);
	return t_done();
}
