/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_dyn.c — dynamic rules as FreeBSD 14's ip_fw_dynamic.c keeps them: a state made by
 * keep-state on the first packet, matched in both directions by check-state or by the
 * rule's own probe, refreshed by each packet and removed by the once-a-second sweep when
 * its lifetime has run out (a simulated clock: fw_set_uptime); limit's parents and their
 * count; names; record-state; dyn_max; the states of a deleted rule; `ipfw -d show`.
 * docs/design/ipfw-fidelity.md#dynamic-rules says where each behaviour comes from. */
#include <stdio.h>

#include "fw_impl.h"
#include "fw_util.h"

enum { SYN = 0x02, RST = 0x04, ACK = 0x10, FIN = 0x01 };

/* "pass N" / "deny N" */
static const char *verdict(struct fw *fw, struct fw_pkt p)
{
	static char buf[64];
	struct fw_match m;
	enum fw_verdict v = fw_eval_ex(fw, &p, &m);
	snprintf(buf, sizeof(buf), "%s %u", v == FW_PASS ? "pass" : v == FW_DENY ? "deny" : "other",
		 m.rule_no);
	return buf;
}

static struct fw_pkt tcp(const char *s, int sp, const char *d, int dp, int flags)
{
	struct fw_pkt p = fw_pk(6, s, sp, d, dp);
	p.tcp_flags = (uint8_t)flags;
	return p;
}

static uint32_t dyn_count(struct fw *fw)
{
	struct fw_dyn_stats st;
	fw_dyn_stats(fw, &st);
	return st.count;
}

/* the clock moves to t and the sweep runs to its end */
static void at(struct fw *fw, uint32_t t)
{
	fw_set_uptime(fw, t);
	fw_dyn_maintain(fw, UINT32_MAX);
}

/* keep-state: the first packet makes the state, the reply direction matches it at
 * check-state and takes the parent rule's action and counters (ipfw_chk O_CHECK_STATE,
 * dyn_lookup_ipv4_state MATCH_REVERSE); a packet of another flow does not */
static void t_keep_state(void)
{
	struct fw *fw = fw_mk();
	at(fw, 100);
	FW_OK(fw, "add 100 check-state");
	FW_OK(fw, "add 200 allow tcp from 10.0.0.0/8 to any setup keep-state");
	FW_OK(fw, "add 300 deny ip from any to any");
	T_EQ_U64(dyn_count(fw), 0);
	T_STREQ(verdict(fw, tcp("10.0.0.1", 1000, "2.2.2.2", 80, SYN)), "pass 200");
	T_EQ_U64(dyn_count(fw), 1);
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, SYN | ACK)), "pass 200");
	T_STREQ(verdict(fw, tcp("10.0.0.1", 1000, "2.2.2.2", 80, ACK)), "pass 200");
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, ACK)), "pass 200");
	/* another port, another host: no state */
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1001, ACK)), "deny 300");
	T_STREQ(verdict(fw, tcp("10.0.0.1", 1000, "2.2.2.3", 80, ACK)), "deny 300");
	T_EQ_U64(dyn_count(fw), 1);
	/* established both ways: dyn_ack_lifetime; the check-state rule counts nothing */
	FW_OK(fw, "-d show");
	FW_TEXT(fw_out(), "00100 0   0 check-state :default\n"
			  "00200 4 400 allow tcp from 10.0.0.0/8 to any setup keep-state :default\n"
			  "00300 2 200 deny ip from any to any\n"
			  "65535 0   0 deny ip from any to any\n"
			  "## Dynamic rules (1 152):\n"
			  "00200 4 400 (300s) STATE tcp 10.0.0.1 1000 <-> 2.2.2.2 80 :default\n");
	/* -d list: no counters, no expiry (show_dyn_state without co.do_acct) */
	FW_OK(fw, "-d list");
	T_TRUE(strstr(fw_out(), "## Dynamic rules (1 152):\n"
				"00200 STATE tcp 10.0.0.1 1000 <-> 2.2.2.2 80 :default\n") != NULL);
	/* -D: the states only */
	FW_OK(fw, "-D show");
	FW_TEXT(fw_out(), "## Dynamic rules (1 152):\n"
			  "00200 4 400 (300s) STATE tcp 10.0.0.1 1000 <-> 2.2.2.2 80 :default\n");
	/* the keep-state rule probes by itself: no check-state needed for the reply */
	FW_OK(fw, "delete 100");
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, ACK)), "pass 200");
	/* deleting the rule removes its states */
	FW_OK(fw, "delete 200");
	T_EQ_U64(dyn_count(fw), 0);
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, ACK)), "deny 300");
	fw_free(fw);
}

/* lifetimes (dyn_update_proto_state): each packet sets expire to now + the lifetime of
 * the flow's state; the sweep (dyn_expire_states) removes states with expire <= now */
static void t_expiry(void)
{
	struct fw *fw = fw_mk();
	at(fw, 100);
	FW_OK(fw, "add 100 allow udp from 10.0.0.0/8 to any keep-state");
	FW_OK(fw, "add 300 deny ip from any to any");
	struct fw_pkt out = fw_pk(17, "10.0.0.1", 5000, "2.2.2.2", 53);
	struct fw_pkt back = fw_pk(17, "2.2.2.2", 53, "10.0.0.1", 5000);
	T_STREQ(verdict(fw, out), "pass 100");
	at(fw, 109);   /* dyn_udp_lifetime 10: expires at 110 */
	T_EQ_U64(dyn_count(fw), 1);
	T_STREQ(verdict(fw, back), "pass 100");   /* refreshed: now 119 */
	at(fw, 118);
	T_EQ_U64(dyn_count(fw), 1);
	FW_OK(fw, "-D show");
	FW_TEXT(fw_out(), "## Dynamic rules (1 152):\n"
			  "00100 2 200 (1s) STATE udp 10.0.0.1 5000 <-> 2.2.2.2 53 :default\n");
	/* past its lifetime, not yet swept: still matches (dyn_lookup_ipv4_state does not
	 * look at the expiry), lists as an empty line, in full with -e */
	fw_set_uptime(fw, 119);
	FW_OK(fw, "-D show");
	FW_TEXT(fw_out(), "## Dynamic rules (1 152):\n\n");
	FW_OK(fw, "-De show");
	FW_TEXT(fw_out(), "## Dynamic rules (1 152):\n"
			  "00100 2 200 (0s) STATE udp 10.0.0.1 5000 <-> 2.2.2.2 53 :default\n");
	at(fw, 119);
	T_EQ_U64(dyn_count(fw), 0);
	T_STREQ(verdict(fw, back), "deny 300");
	FW_OK(fw, "-D show");
	FW_TEXT(fw_out(), "");   /* no states: no header (ipfw_show_config) */

	/* the sysctl changes the next refresh */
	fw_tunables(fw)->dyn_udp_lifetime = 3;
	T_STREQ(verdict(fw, out), "pass 100");
	at(fw, 121);
	T_EQ_U64(dyn_count(fw), 1);
	at(fw, 122);
	T_EQ_U64(dyn_count(fw), 0);

	/* TCP: SYN 20 s, established 300 s, FIN from both sides 1 s, RST 1 s */
	FW_OK(fw, "add 200 allow tcp from 10.0.0.0/8 to any keep-state");
	struct fw_pkt a = tcp("10.0.0.1", 1000, "2.2.2.2", 80, SYN);
	T_STREQ(verdict(fw, a), "pass 200");
	at(fw, 141);
	T_EQ_U64(dyn_count(fw), 1);
	at(fw, 142);   /* 122 + 20 */
	T_EQ_U64(dyn_count(fw), 0);
	T_STREQ(verdict(fw, a), "pass 200");
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, SYN | ACK)), "pass 200");
	T_STREQ(verdict(fw, tcp("10.0.0.1", 1000, "2.2.2.2", 80, ACK)), "pass 200");
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, ACK)), "pass 200");
	at(fw, 441);
	T_EQ_U64(dyn_count(fw), 1);
	T_STREQ(verdict(fw, tcp("10.0.0.1", 1000, "2.2.2.2", 80, FIN | ACK)), "pass 200");
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, FIN | ACK)), "pass 200");
	at(fw, 442);
	T_EQ_U64(dyn_count(fw), 0);
	T_STREQ(verdict(fw, a), "pass 200");
	T_STREQ(verdict(fw, tcp("2.2.2.2", 80, "10.0.0.1", 1000, RST)), "pass 200");
	at(fw, 443);
	T_EQ_U64(dyn_count(fw), 0);
	fw_free(fw);
}

/* limit: a parent per masked flow counts its states; over the limit the packet is
 * denied at the limit rule (ipfw_dyn_install_state fails, ipfw_chk O_LIMIT) and the
 * rule counts it; a parent goes dyn_short_lifetime after its last state */
static void t_limit(void)
{
	struct fw *fw = fw_mk();
	at(fw, 100);
	FW_OK(fw, "add 100 allow udp from any to any 53 limit src-addr 2");
	FW_OK(fw, "add 300 deny ip from any to any");
	T_STREQ(verdict(fw, fw_pk(17, "1.1.1.1", 1000, "2.2.2.2", 53)), "pass 100");
	T_STREQ(verdict(fw, fw_pk(17, "1.1.1.1", 1001, "2.2.2.3", 53)), "pass 100");
	T_STREQ(verdict(fw, fw_pk(17, "1.1.1.1", 1002, "2.2.2.2", 53)), "deny 100");
	T_STREQ(verdict(fw, fw_pk(17, "1.1.1.2", 1002, "2.2.2.2", 53)), "pass 100");
	/* an existing flow still passes */
	T_STREQ(verdict(fw, fw_pk(17, "2.2.2.2", 53, "1.1.1.1", 1000)), "pass 100");
	struct fw_dyn_stats st;
	fw_dyn_stats(fw, &st);
	T_EQ_U64(st.count, 3);
	T_EQ_U64(st.parent_count, 2);
	T_EQ_U64(st.denied_limit, 1);
	FW_OK(fw, "show 100");
	FW_TEXT(fw_out(), "00100 5 500 allow udp from any to any 53 limit src-addr 2 :default\n");
	at(fw, 111);   /* the states go (10 s), the parents 5 s later */
	fw_dyn_stats(fw, &st);
	T_EQ_U64(st.count, 0);
	T_EQ_U64(st.parent_count, 2);
	at(fw, 116);
	fw_dyn_stats(fw, &st);
	T_EQ_U64(st.parent_count, 0);
	T_STREQ(verdict(fw, fw_pk(17, "1.1.1.1", 1002, "2.2.2.2", 53)), "pass 100");

	/* masks: src-addr dst-port 1 */
	FW_OK(fw, "flush");
	FW_OK(fw, "add 100 allow tcp from any to any limit src-addr dst-port 1");
	T_STREQ(verdict(fw, tcp("1.1.1.1", 1000, "2.2.2.2", 80, SYN)), "pass 100");
	T_STREQ(verdict(fw, tcp("1.1.1.1", 1001, "2.2.2.3", 80, SYN)), "deny 100");
	T_STREQ(verdict(fw, tcp("1.1.1.1", 1001, "2.2.2.3", 443, SYN)), "pass 100");
	FW_OK(fw, "-D show");
	T_TRUE(strstr(fw_out(), "PARENT 1 tcp 1.1.1.1 0 <-> 0.0.0.0 80 :default\n") != NULL);
	fw_free(fw);
}

/* names: check-state :NAME matches only states of that name, :any all of them;
 * record-state makes a state without probing it */
static void t_names(void)
{
	struct fw *fw = fw_mk();
	at(fw, 100);
	FW_OK(fw, "add 100 check-state :other");
	FW_OK(fw, "add 150 deny udp from 2.2.2.2 to any");
	FW_OK(fw, "add 200 allow udp from 10.0.0.0/8 to any keep-state :web");
	FW_OK(fw, "add 300 deny ip from any to any");
	struct fw_pkt back = fw_pk(17, "2.2.2.2", 53, "10.0.0.1", 5000);
	T_STREQ(verdict(fw, fw_pk(17, "10.0.0.1", 5000, "2.2.2.2", 53)), "pass 200");
	T_STREQ(verdict(fw, back), "deny 150");
	FW_OK(fw, "add 90 check-state :web");
	T_STREQ(verdict(fw, back), "pass 200");
	FW_OK(fw, "delete 90");
	FW_OK(fw, "add 90 check-state :any");
	T_STREQ(verdict(fw, back), "pass 200");
	FW_OK(fw, "-D show");
	T_TRUE(strstr(fw_out(), "STATE udp 10.0.0.1 5000 <-> 2.2.2.2 53 :web\n") != NULL);

	FW_OK(fw, "flush");
	FW_OK(fw, "add 200 allow udp from 10.0.0.0/8 to any record-state");
	FW_OK(fw, "add 300 deny ip from any to any");
	T_STREQ(verdict(fw, fw_pk(17, "10.0.0.1", 5000, "2.2.2.2", 53)), "pass 200");
	T_EQ_U64(dyn_count(fw), 1);
	T_STREQ(verdict(fw, back), "deny 300");
	FW_OK(fw, "add 50 check-state");
	T_STREQ(verdict(fw, back), "pass 200");
	fw_free(fw);
}

/* dyn_max: no state can be made, the packet is denied at the keep-state rule */
static void t_dyn_max(void)
{
	struct fw *fw = fw_mk();
	at(fw, 100);
	fw_tunables(fw)->dyn_max = 1;
	FW_OK(fw, "add 100 allow udp from any to any keep-state");
	T_STREQ(verdict(fw, fw_pk(17, "10.0.0.1", 5000, "2.2.2.2", 53)), "pass 100");
	T_STREQ(verdict(fw, fw_pk(17, "10.0.0.1", 5001, "2.2.2.2", 53)), "deny 100");
	struct fw_dyn_stats st;
	fw_dyn_stats(fw, &st);
	T_EQ_U64(st.denied_nomem, 1);
	T_EQ_U64(st.count, 1);
	fw_free(fw);
}

/* the hash grows past 256 buckets as states come (dyn_tick), up to dyn_buckets;
 * 100,000 states stay findable */
static void t_grow(void)
{
	struct fw *fw = fw_mk();
	at(fw, 100);
	fw_tunables(fw)->dyn_max = 200000;
	fw_tunables(fw)->dyn_udp_lifetime = 100;
	FW_OK(fw, "add 100 allow udp from any to any keep-state");
	FW_OK(fw, "add 300 deny ip from any to any");
	char a[32];
	struct fw_dyn_stats st;
	for (int i = 0; i < 100000; i++) {
		snprintf(a, sizeof(a), "10.%d.%d.%d", i >> 16, (i >> 8) & 255, i & 255);
		struct fw_pkt p = fw_pk(17, a, 1000, "2.2.2.2", 53);
		fw_eval_ex(fw, &p, &(struct fw_match){ 0 });
		if (i == 999) {
			fw_dyn_stats(fw, &st);
			T_EQ_U64(st.curr_buckets, 256);
			at(fw, 101);   /* 1,000 states: next power of two */
			fw_dyn_stats(fw, &st);
			T_EQ_U64(st.curr_buckets, 1024);
		}
		if (i % 10000 == 9999)
			at(fw, 102 + (uint32_t)i / 10000);   /* a second passes */
	}
	fw_dyn_stats(fw, &st);
	T_EQ_U64(st.count, 100000);
	T_EQ_U64(st.curr_buckets, 8192);   /* capped by dyn_buckets */
	int found = 0;
	for (int i = 0; i < 100000; i += 7) {
		snprintf(a, sizeof(a), "10.%d.%d.%d", i >> 16, (i >> 8) & 255, i & 255);
		struct fw_match m;
		struct fw_pkt p = fw_pk(17, "2.2.2.2", 53, a, 1000);
		found += fw_eval_ex(fw, &p, &m) == FW_PASS;
	}
	T_EQ_INT(found, (100000 + 6) / 7);
	fw_free(fw);
}

int main(void)
{
	T_RUN(t_keep_state);
	T_RUN(t_expiry);
	T_RUN(t_limit);
	T_RUN(t_names);
	T_RUN(t_dyn_max);
	T_RUN(t_grow);
	return t_done();
}
