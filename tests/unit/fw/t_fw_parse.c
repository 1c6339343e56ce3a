/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_parse.c — the ipfw rule language: different spellings compile to the same rule
 * and the same listing (libpcap TESTrun's "aliases"), and malformed rules are refused
 * with the exact column and what was expected. */
#include "fw_impl.h"
#include "fw_lang.h"
#include "fw_util.h"

/* input → the listing ipfw prints: protocols, addresses and actions normalised as
 * docs/design/ipfw.md#show-and-list-format says */
static const struct {
	const char *in, *listed;
} listings[] = {
	{ "add 100 deny all from any to 10.0.0.1", "00100 deny ip from any to 10.0.0.1" },
	{ "add 100 deny ip from any to 10.0.0.1/32", "00100 deny ip from any to 10.0.0.1" },
	{ "add 100 count ip from 10.1.2.3/24 to any", "00100 count ip from 10.1.2.0/24 to any" },
	{ "add 100 unreach host tcp from any to any", "00100 reject tcp from any to any" },
	{ "add 100 unreach 1 tcp from any to any", "00100 reject tcp from any to any" },
	{ "add 100 unreach 3 udp from any to me 53", "00100 unreach port udp from any to me 53" },
	{ "add 100 unreach 200 udp from any to any", "00100 unreach 200 udp from any to any" },
	/* fill_reject_code() reads the number with strtoul(s, &end, 0) */
	{ "add 100 unreach 0x3 udp from any to any", "00100 unreach port udp from any to any" },
	{ "add 100 unreach 010 udp from any to any", "00100 unreach isolated udp from any to any" },
	{ "add 100 unreach filter-prohib ip from any to any",
	  "00100 unreach filter-prohib ip from any to any" },
	{ "add 100 pass tcp from any to any http", "00100 allow tcp from any to any 80" },
	{ "add 100 permit tcp from any to any netbios-ns,ssh-telnet",
	  "00100 allow tcp from any to any 137,22-23" },
	{ "add 100 accept 6 from any to any", "00100 allow tcp from any to any" },
	{ "add 100 allow 253 from any to any", "00100 allow 253 from any to any" },
	{ "add 100 deny TCP from any to any", "00100 deny tcp from any to any" },
	{ "add 100 deny ip from 1.2.3.4:255.255.255.0 to any", "00100 deny ip from 1.2.3.0/24 to any" },
	{ "add 100 deny ip from any to 1.2.3.4:255.0.255.0",
	  "00100 deny ip from any to 1.0.3.0:255.0.255.0" },
	{ "add 100 deny ip from 0.0.0.0/0 to any", "00100 deny ip from any to any" },
	{ "add 100 deny ip from any to any not out", "00100 deny ip from any to any in" },
	{ "add 100 deny ip from any to any not in", "00100 deny ip from any to any out" },
	/* IPFW_RULE_JUSTOPTS (FreeBSD 12+): a body of options lists as options */
	{ "add 100 deny in via em0", "00100 deny in via em0" },
	{ "add 100 deny not in", "00100 deny out" },
	{ "a 100 deny ip f a t m", "00100 deny ip from any to me" },
	{ "add 100 deny a from an to an", "00100 deny ip from any to any" },
	{ "add 100 deny log logamount 0 ip from any to any", "00100 deny log ip from any to any" },
	{ "add 100 deny log logamount 7 ip from any to any",
	  "00100 deny log logamount 7 ip from any to any" },
	{ "add 100 deny ip from {10.0.0.1 or 10.0.0.2} to any",
	  "00100 deny ip from { 10.0.0.1 or 10.0.0.2 } to any" },
	{ "add 100 deny ip from ( 10.0.0.1 or not me ) to any",
	  "00100 deny ip from { 10.0.0.1 or not me } to any" },
	{ "add 100 deny ip from { 10.0.0.1 } to any", "00100 deny ip from 10.0.0.1 to any" },
	{ "add 100 deny { tcp or udp } from any to any 53",
	  "00100 deny { tcp or udp } from any to any 53" },
	{ "add 100 deny ip from any to 10.0.0.0/24{7,5,1}",
	  "00100 deny ip from any to 10.0.0.0/24{1,5,7}" },
	{ "add 100 deny ip from any to 10.0.0.77/24{1,2,3,5,200-255}",
	  "00100 deny ip from any to 10.0.0.0/24{1-3,5,200-255}" },
	{ "add 100 deny ip from any to 10.0.0.16/28{17,18}",
	  "00100 deny ip from any to 10.0.0.16/28{17,18}" },
	{ "add 100 deny ip from 1.2.3.4,5.6.7.8/24,9.9.9.9:255.255.0.0 to any",
	  "00100 deny ip from 1.2.3.4,5.6.7.0/24,9.9.0.0/16 to any" },
	{ "add 100 deny ip from any to any ! 80", "00100 deny ip from any to any not 80" },
	{ "add 100 deny ip from any to any !80", "00100 deny ip from any to any not 80" },
	{ "add 100 deny tcp from any 1024-65535 to any 80,443 not via em0",
	  "00100 deny tcp from any 1024-65535 to any 80,443 not via em0" },
	{ "add 100 deny tcp from any to any not via em0", "00100 deny tcp from any to any not via em0" },
	{ "add 100 deny ip from any to any { via em0 or recv rut* } out",
	  "00100 deny ip from any to any { via em0 or recv rut* } out" },
	{ "add 100 deny ip from any to any via any", "00100 deny ip from any to any" },
	{ "add 100 deny ip from any to any xmit 10.0.0.254", "00100 deny ip from any to any xmit 10.0.0.254" },
	{ "add 100 set 5 deny ip from any to any", "00100 deny ip from any to any" },
	{ "add 100 skipto 200 ip from any to any", "00100 skipto 200 ip from any to any" },
	{ "add 100 reset tcp from any to any", "00100 reset tcp from any to any" },
	{ "add 100 deny ip from any to any in recv em0 xmit em1",
	  "00100 deny ip from any to any in recv em0 xmit em1" },
	{ "ipfw add 100 deny ip from any to any", "00100 deny ip from any to any" },
	{ "ipfw -f add 100 deny ip from any to any", "00100 deny ip from any to any" },
};

static void t_listing_normalised(void)
{
	for (size_t k = 0; k < sizeof(listings) / sizeof(listings[0]); k++) {
		struct fw *fw = fw_mk();
		const char *got = fw_echo(fw, listings[k].in);
		if (strcmp(got, listings[k].listed))
			T_FAIL("'%.100s' listed as '%.150s', expected '%.150s'", listings[k].in, got,
			       listings[k].listed);
		/* list prints the same body */
		FW_OK(fw, "list 100");
		char want[200];
		snprintf(want, sizeof(want), "%s\n", listings[k].listed);
		FW_TEXT(fw_out(), want);
		fw_free(fw);
	}
}

static void t_quiet_add_prints_nothing(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "ipfw -q add 100 deny ip from any to any");
	FW_TEXT(fw_out(), "");
	FW_OK(fw, "-q add deny ip from any to any");
	FW_TEXT(fw_out(), "");
	T_EQ_INT(fw_rule_count(fw), 3);
	fw_free(fw);
}

/* the compiled rule, prefilter and program included, compared field by field */
static bool same_rule(const struct fw *a, const struct fw *b)
{
	const struct fw_hot *ha = &a->rules->hot[0], *hb = &b->rules->hot[0];
	const struct fw_rule *ra = &a->rules->rule[0], *rb = &b->rules->rule[0];
	if (memcmp(ha, hb, sizeof(*ha)) || ra->nlist != rb->nlist || ra->icmp_code != rb->icmp_code ||
	    ra->skipto != rb->skipto || ra->log_max != rb->log_max)
		return false;
	for (int k = 0; k < ra->nlist + ha->nprog; k++) {
		const struct fw_insn *x = &ra->insn[k], *y = &rb->insn[k];
		if (x->op != y->op || x->flags != y->flags || x->n != y->n || x->a != y->a || x->b != y->b)
			return false;
	}
	return true;
}

static void t_aliases_compile_identically(void)
{
	static const char *const pairs[][2] = {
		/* T2: the 2006 DragonFly sweep's ip/all confusion — both mean "no protocol
		 * test" (docs/design/ipfw.md#ip-and-all) */
		{ "deny ip from any to 10.0.0.1", "deny all from any to 10.0.0.1" },
		{ "deny ip from any to 10.0.0.1", "deny a from any to 10.0.0.1" },
		{ "deny ip from any to 10.0.0.1", "drop ip from any to 10.0.0.1/32" },
		{ "deny ip from any to 10.0.0.1", "deny ip from any to 10.0.0.1:255.255.255.255" },
		{ "count ip from 10.1.2.0/24 to any", "count ip from 10.1.2.3/24 to any" },
		{ "count ip from 10.1.2.0/24 to any", "count ip from 10.1.2.77:255.255.255.0 to any" },
		{ "allow tcp from any to any 80", "accept 6 from any to any http" },
		{ "allow tcp from any to any 80", "pass tcp from any to any www" },
		{ "deny ip from any to any out", "deny ip from any to any not in" },
		{ "deny ip from any to any out", "deny not in" },
		{ "deny ip from any to any in via em0", "deny in via em0" },
		{ "reject udp from any to me 53", "unreach host udp from any to me 53" },
		{ "reject udp from any to me 53", "unreach 1 udp from any to m 53" },
		{ "deny ip from { 10.0.0.1 or 10.0.0.2 } to any", "deny ip from {10.0.0.1 or 10.0.0.2} to any" },
		{ "deny ip from 10.0.0.1 to any", "deny ip from { 10.0.0.1 } to any" },
		{ "deny ip from any to any not 80", "deny ip from any to any !80" },
	};
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		struct fw *a = fw_mk(), *b = fw_mk();
		char ca[256], cb[256];
		snprintf(ca, sizeof(ca), "add 100 %s", pairs[k][0]);
		snprintf(cb, sizeof(cb), "add 100 %s", pairs[k][1]);
		FW_OK(a, ca);
		FW_OK(b, cb);
		if (!same_rule(a, b))
			T_FAIL("'%s' and '%s' compile differently", pairs[k][0], pairs[k][1]);
		fw_free(a);
		fw_free(b);
	}
}

static void t_prefilter_takes_the_common_tests(void)
{
	/* a plain rule needs no program: everything is in the three masked compares */
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny tcp from 10.0.0.0/8 to 192.168.1.1 in");
	const struct fw_hot *h = &fw->rules->hot[0];
	T_EQ_INT(h->nprog, 0);
	T_EQ_U64(h->saddr, ip4("10.0.0.0"));
	T_EQ_U64(h->smask, ip4("255.0.0.0"));
	T_EQ_U64(h->daddr, ip4("192.168.1.1"));
	T_EQ_U64(h->dmask, 0xffffffffu);
	T_EQ_U64(h->kval, 6 | FW_KEY_IN);
	/* an IPv4 address test holds on IPv4 packets only: the family bit must be clear */
	T_EQ_U64(h->kmask, 0xff | FW_KEY_IN | FW_KEY_IP6);
	/* negations, OR blocks and ports stay in the program */
	FW_OK(fw, "add 200 deny { tcp or udp } from not 10.0.0.0/8 to any 80");
	T_EQ_INT(fw->rules->hot[1].nprog, 3);   /* one port range goes to the prefilter too */
	T_EQ_U64(fw->rules->hot[1].smask, 0);
	fw_free(fw);
}

static void t_interfaces_resolved_at_compile_time(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to any via rut*");
	FW_OK(fw, "add 200 deny ip from any to any recv em1");
	FW_OK(fw, "add 300 deny ip from any to any xmit 198.18.0.1");
	FW_OK(fw, "add 400 deny ip from any to any via nosuch0");
	const struct fw_insn *x = fw->rules->rule[0].insn;
	T_EQ_U64(x->a, 1u << RUT0 | 1u << RUT1);
	T_EQ_U64(fw->rules->rule[1].insn->a, 1u << EM1);
	T_EQ_U64(fw->rules->rule[2].insn->a, 1u << RUT0);
	T_EQ_U64(fw->rules->rule[3].insn->a, 0);   /* accepted, never matches (as BSD) */
	fw_free(fw);
}

/* command → column and a piece of the message */
static const struct {
	const char *cmd;
	int col;
	const char *msg;
	int ex;
} errors[] = {
	{ "add 100 deny ip from any", 25, "expected 'to' after the source address or ports, got end of line", 65 },
	{ "add 100 deny ip from any to", 28, "expected an address (any, me, me6, a.b.c.d[/N]", 65 },
	{ "add 100 dney ip from any to any", 9, "expected an action (allow, deny, reject, reset, unreach CODE, unreach6 CODE, reset6, count, skipto N, check-state), got 'dney'", 65 },
	{ "add 100 deny ipx from any to any", 14, "expected a protocol (ip, all, ip4, tcp, udp, icmp, esp, a name or a number 1..255) or an option after 'deny', got 'ipx'", 65 },
	{ "add 100 deny ip form any to any", 17, "expected 'from' after the protocol, got 'form'", 65 },
	{ "add 100 deny ip from 10.0.0.300 to any", 22, "invalid address '10.0.0.300'", 65 },
	{ "add 100 deny ip from 10.0.0.0/33 to any", 30, "invalid prefix length in '10.0.0.0/33'", 65 },
	{ "add 100 deny ip from 1.2.3.4:255.0.x.0 to any", 30, "invalid mask", 65 },
	{ "add 100 deny tcp from any to any 70000", 34, "port '70000' out of range 0..65535", 65 },
	{ "add 100 deny tcp from any to any 80,2000-1000", 37, "empty port range '2000-1000'", 65 },
	{ "add 100 deny tcp from any to any 80,nosuchsvc", 37, "invalid port 'nosuchsvc'", 65 },
	{ "add 100 deny ip from { 10.0.0.1 or 10.0.0.2 to any", 45, "expected 'or' or '}' after an address in the block opened at column 22, got 'to'", 65 },
	{ "add 100 deny ip from { 10.0.0.1 or { 10.0.0.2 } to any", 36, "nested '{'", 65 },
	{ "add 100 unreach foo ip from any to any", 17, "expected an ICMP unreachable code after 'unreach'", 65 },
	{ "add 100 unreach 256 ip from any to any", 17, "expected an ICMP unreachable code", 65 },
	{ "add 100 skipto ip from any to any", 16, "expected a rule number 1..65534 after 'skipto', got 'ip'", 65 },
	/* ipfw2.c chkarg: a skipto target must be below IP_FW_TABLEARG (65535) */
	{ "add 100 skipto 65535 ip from any to any", 16, "illegal argument for skipto: 65535 (1..65534)", 65 },
	{ "add 100 skipto tablearg ip from any to any", 16, "'skipto tablearg' is not supported by ppslab-rut (the target must be a rule number)", 65 },
	{ "add 70000 deny ip from any to any", 5, "rule number '70000' out of range 1..65534", 65 },
	{ "add 65535 deny ip from any to any", 5, "rule 65535 is the default rule and cannot be added", 69 },
	{ "add 100x deny ip from any to any", 5, "expected a rule number (1..65534) or an action, got '100x'", 65 },
	{ "add 100 deny ip from not any to any", 22, "'not any' never matches", 65 },
	{ "add 100 deny ip from { any or 10.0.0.1 } to any", 24, "'any' cannot be part of an OR block", 65 },
	{ "add 100 deny ip from any to any via", 36, "expected an interface name, glob (em*) or address after 'via', got end of line", 65 },
	{ "add 100 deny ip from any to any via averyveryverylongname0", 37, "too long", 65 },
	{ "add 100 deny ip from any to any tcpoptions mss", 33, "option 'tcpoptions' is not supported by ppslab-rut", 65 },
	{ "add 100 deny ip from any to any bogus", 33, "expected an option (in, out, via, recv, xmit, proto, src-ip, dst-ip, src-port, dst-port, frag, iplen, ipttl, icmptypes, tcpflags, setup, established, keep-state, limit, // ...) or the end of the rule, got 'bogus'", 65 },
	{ "add 100 pipe 1 ip from any to any", 9, "action 'pipe' is not supported", 65 },
	{ "add 100 deny ip from any to 10.0.0.0/24{1,300}", 43, "set element '300' out of range 0..255", 65 },
	{ "add 100 deny ip from any to 10.0.0.0/16{1}", 37, "invalid set with mask 16", 65 },
	{ "add 100 deny ip from any to 10.0.0.5/32{5}", 37, "invalid set with mask 32", 65 },
	{ "add 100 deny ip from any to any { via em0 or }", 46, "expected an option after 'or', got '}'", 65 },
	{ "add 100 deny ip from any to any { in", 37, "expected '}' to close the '{' at column 33, got end of line", 65 },
	{ "add 100 deny ip from any to any or in", 33, "'or' must join two options inside '{ }'", 65 },
	{ "add 100 deny ip from any to any not not in", 37, "double 'not'", 65 },
	{ "add 100 deny log logamount x ip from any to any", 28, "expected a number after 'logamount'", 65 },
	{ "add 100 deny ip from any to any not", 36, "expected ports after 'not'", 65 },
	{ "add 100 deny 0 from any to any", 14, "invalid protocol number '0'", 65 },
	{ "add 100 deny ip from www.example.com to any", 22, "host names are not resolved", 65 },
	{ "add 100 deny", 13, "expected a protocol (ip, all, tcp, udp, ...) after 'deny', got end of line", 65 },
	{ "add 100 deny not { tcp or udp } from any to any", 18, "'not' cannot negate a '{ }' block", 65 },
	{ "add 100 prob 0.5 deny ip from any to any", 9, "'prob' is not supported", 65 },
	{ "frobnicate", 1, "bad command `frobnicate'", 64 },
	{ "-x show", 1, "unknown flag '-x'", 64 },
	{ "delete", 7, "expected a rule number after 'delete'", 64 },
	{ "delete x1", 8, "invalid rule number 'x1'", 64 },
	{ "show 5x", 6, "invalid rule number: 5x", 64 },
	{ "ipfw pipe 1 config bw 1Mbit/s", 6, "'ipfw pipe' is not supported", 64 },
};

static void t_errors_name_column_and_expectation(void)
{
	for (size_t k = 0; k < sizeof(errors) / sizeof(errors[0]); k++) {
		struct fw *fw = fw_mk();
		int rc = fw_run(fw, errors[k].cmd);
		if (rc != -EINVAL)
			T_FAIL("'%s' returned %d, expected -EINVAL", errors[k].cmd, rc);
		else if (fw_d.col != errors[k].col || !strstr(fw_d.msg, errors[k].msg) ||
			 fw_d.ex != errors[k].ex)
			T_FAIL("'%s': column %d ex %d '%s', expected column %d ex %d '%s'", errors[k].cmd,
			       fw_d.col, fw_d.ex, fw_d.msg, errors[k].col, errors[k].ex, errors[k].msg);
		/* nothing was added */
		T_EQ_INT(fw_rule_count(fw), 1);
		fw_free(fw);
	}
}

/* FreeBSD's bounds on one list: 30 ports or ranges (the kernel's
 * check_ipfw_rule_body refuses an O_IP_*PORT of more than 31 words) and 31 addresses
 * (ipfw2.c: an instruction of at most F_LEN_MASK words) */
static void t_list_bounds(void)
{
	char ports[512] = "", addrs[1024] = "", rule[2048];
	struct fw *fw = fw_mk();
	for (int k = 0; k < 31; k++) {
		snprintf(ports + strlen(ports), sizeof(ports) - strlen(ports), "%s%d", k ? "," : "", 1000 + k);
		snprintf(addrs + strlen(addrs), sizeof(addrs) - strlen(addrs), "%s10.0.0.%d", k ? "," : "", k + 1);
	}
	*strrchr(ports, ',') = '\0';          /* 30 ports */
	snprintf(rule, sizeof(rule), "add 100 deny tcp from any to any %s", ports);
	FW_OK(fw, rule);
	snprintf(rule, sizeof(rule), "add 110 deny tcp from any to any %s,2000", ports);
	T_EQ_INT(fw_run(fw, rule), -EINVAL);
	T_TRUE(strstr(fw_d.msg, "too many ports/ranges") != NULL);
	snprintf(rule, sizeof(rule), "add 120 deny tcp from any to any dst-port %s,2000-3000", ports);
	T_EQ_INT(fw_run(fw, rule), -EINVAL);
	snprintf(rule, sizeof(rule), "add 130 deny ip from %s to any", addrs);   /* 31 */
	FW_OK(fw, rule);
	snprintf(rule, sizeof(rule), "add 140 deny ip from %s,10.0.1.1 to any", addrs);
	T_EQ_INT(fw_run(fw, rule), -EINVAL);
	T_TRUE(strstr(fw_d.msg, "address list too long") != NULL);
	fw_free(fw);
}

static void t_diag_string(void)
{
	struct fw_diag d = { .file = "r.rules", .line = 3, .col = 14, .msg = "expected 'to'" };
	char buf[512];
	T_STREQ(fw_diag_str(&d, buf, sizeof(buf)), "r.rules:3:14: expected 'to'");
	d.line = 0;
	T_STREQ(fw_diag_str(&d, buf, sizeof(buf)), "expected 'to' (column 14)");
}

static void t_lexer(void)
{
	struct fw_lex *lx = malloc(sizeof(*lx));
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_lex("  add 100 deny {tcp or udp} from 10.0.0.0/24{1,2} to any # comment", lx, &d), 0);
	static const char *const want[] = { "add", "100", "deny", "{", "tcp", "or", "udp", "}",
					    "from", "10.0.0.0/24{1,2}", "to", "any" };
	T_EQ_INT(lx->n, 12);
	for (int k = 0; k < lx->n && k < 12; k++)
		T_STREQ(lx->t[k].s, want[k]);
	T_EQ_INT(lx->t[0].col, 3);
	T_EQ_INT(lx->t[4].col, 17);
	T_EQ_INT(lx->t[7].col, 27);
	T_EQ_INT(lx->eol_col, 57);
	T_EQ_INT(fw_lex("\t!80", lx, &d), 0);
	T_EQ_INT(lx->n, 2);
	T_STREQ(lx->t[0].s, "!");
	T_STREQ(lx->t[1].s, "80");
	T_EQ_INT(lx->t[1].col, 3);
	char *big = malloc(FW_MAX_LINE + 10);
	memset(big, 'a', FW_MAX_LINE + 9);
	big[FW_MAX_LINE + 9] = '\0';
	T_EQ_INT(fw_lex(big, lx, &d), -EINVAL);
	T_TRUE(strstr(d.msg, "line too long") != NULL);
	free(big);
	free(lx);
}

int main(void)
{
	T_RUN(t_listing_normalised);
	T_RUN(t_quiet_add_prints_nothing);
	T_RUN(t_aliases_compile_identically);
	T_RUN(t_prefilter_takes_the_common_tests);
	T_RUN(t_interfaces_resolved_at_compile_time);
	T_RUN(t_errors_name_column_and_expectation);
	T_RUN(t_list_bounds);
	T_RUN(t_diag_string);
	T_RUN(t_lexer);
	return t_done();
}
