/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_equiv.c — the fast matcher (vectorised prefilter, 8-rule blocks, programs,
 * precomputed skipto indexes) against a plain reference interpreter written here from
 * docs/design/ipfw.md (addresses, ports, direction and interfaces, evaluation), over
 * random rulesets built from every construct and random
 * packets from a small address/port universe (so that rules match often). A fixed
 * xorshift seed keeps failures reproducible. */
#include <stdio.h>

#include "fw_impl.h"
#include "fw_util.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *pick(const char *const *v, unsigned n)
{
	return v[rnd(n)];
}

#define PICK(v) pick(v, sizeof(v) / sizeof(v[0]))

static void gen_addr(char *b, size_t l)
{
	switch (rnd(9)) {
	case 0: snprintf(b, l, "any"); break;
	case 1: snprintf(b, l, "10.0.%u.%u", rnd(3), rnd(4)); break;
	case 2: snprintf(b, l, "10.0.%u.0/24", rnd(3)); break;
	case 3: snprintf(b, l, "not 10.0.%u.0/23", rnd(3)); break;
	case 4: snprintf(b, l, "{ 10.0.1.%u or not 10.0.2.0/24 or me }", rnd(4)); break;
	case 5: snprintf(b, l, "me"); break;
	case 6: snprintf(b, l, "10.0.%u.0/24{%u,%u-3}", rnd(3), rnd(2), 1 + rnd(2)); break;
	case 7: snprintf(b, l, "10.0.0.%u,10.0.%u.0/24", rnd(4), rnd(3)); break;
	default: snprintf(b, l, "10.0.%u.%u:255.255.0.254", rnd(3), rnd(4)); break;
	}
}

static void gen_ports(char *b, size_t l)
{
	switch (rnd(6)) {
	case 0: case 1: b[0] = '\0'; break;
	case 2: snprintf(b, l, " %u", 7 + rnd(4)); break;
	case 3: snprintf(b, l, " %u-%u", 7 + rnd(2), 8 + rnd(3)); break;
	case 4: snprintf(b, l, " not %u", 7 + rnd(4)); break;
	default: snprintf(b, l, " %u,%u-%u", 7 + rnd(2), 9, 9 + rnd(2)); break;
	}
}

static void gen_rule(char *b, size_t l, unsigned num)
{
	static const char *const acts[] = { "deny", "allow", "count", "count", "unreach port", "reset",
					    "skipto", "deny log" };
	static const char *const protos[] = { "ip", "all", "tcp", "udp", "icmp", "{ tcp or udp }",
					      "not udp" };
	static const char *const opts[] = { "", "", "in", "out", "via em0", "recv em1", "xmit rut*",
					    "not via em0", "{ via em0 or via em1 }", "in recv rut0",
					    "out xmit 198.18.0.1", "{ in or via em1 }", "{ out or recv em0 } in" };
	char src[64], dst[64], sp[32], dp[32], act[32];
	const char *a = PICK(acts);
	if (!strcmp(a, "skipto"))
		snprintf(act, sizeof(act), "skipto %u", 1 + rnd(2100));
	else
		snprintf(act, sizeof(act), "%s", a);
	gen_addr(src, sizeof(src));
	gen_addr(dst, sizeof(dst));
	gen_ports(sp, sizeof(sp));
	gen_ports(dp, sizeof(dp));
	const char *proto = PICK(protos);
	if (num)
		snprintf(b, l, "add %u %s %s from %s%s to %s%s %s", num, act, proto, src, sp, dst, dp,
			 PICK(opts));
	else
		snprintf(b, l, "add %s %s from %s%s to %s%s %s", act, proto, src, sp, dst, dp, PICK(opts));
}

/* ---- the reference: every listing test, in order, no prefilter ---- */

static bool ref_test(const struct fw *fw, const struct fw_insn *x, const struct fw_pkt *p)
{
	bool ports = p->has_ports && !p->frag;
	int xmit = p->in ? -1 : p->xmit_if;
	uint64_t ifm = (uint64_t)x->b << 32 | x->a;
	switch (x->op) {
	case FW_OP_PROTO: return p->proto == x->a;
	case FW_OP_SRC: return (p->src & x->b) == x->a;
	case FW_OP_DST: return (p->dst & x->b) == x->a;
	case FW_OP_SRC_ME:
	case FW_OP_DST_ME: {
		uint32_t a = x->op == FW_OP_SRC_ME ? p->src : p->dst;
		for (int k = 0; k < fw->nlocal; k++)
			if (fw->local[k] == a)
				return true;
		return false;
	}
	case FW_OP_SRC_SET:
	case FW_OP_DST_SET: {
		uint32_t a = x->op == FW_OP_SRC_SET ? p->src : p->dst;
		const uint32_t *map = x->data;
		unsigned o = ntohl(a) & 255;
		return (a & x->b) == x->a && (map[o / 32] >> (o % 32) & 1);
	}
	case FW_OP_SRC_LIST:
	case FW_OP_DST_LIST: {
		uint32_t a = x->op == FW_OP_SRC_LIST ? p->src : p->dst;
		const uint32_t *r = x->data;
		for (int k = 0; k < x->n; k++)
			if ((a & r[2 * k + 1]) == r[2 * k])
				return true;
		return false;
	}
	case FW_OP_SRCPORT:
	case FW_OP_DSTPORT: {
		if (!ports)
			return false;
		uint16_t port = x->op == FW_OP_SRCPORT ? p->sport : p->dport;
		const uint16_t *r = x->data;
		for (int k = 0; k < x->n; k++)
			if (port >= r[2 * k] && port <= r[2 * k + 1])
				return true;
		return false;
	}
	case FW_OP_IN: return p->in;
	case FW_OP_RECV: return p->recv_if >= 0 && (ifm >> p->recv_if & 1);
	case FW_OP_XMIT: return xmit >= 0 && (ifm >> xmit & 1);
	case FW_OP_VIA: {
		int ifx = xmit >= 0 ? xmit : p->recv_if;
		return ifx >= 0 && (ifm >> ifx & 1);
	}
	}
	return false;
}

static bool ref_rule(const struct fw *fw, int i, const struct fw_pkt *p)
{
	const struct fw_rule *r = &fw->rules->rule[i];
	/* tests ANDed; a maximal run of OR-linked tests is one test that passes if any does */
	for (int k = 0; k < r->nlist;) {
		bool any = false;
		int j = k;
		for (;;) {
			const struct fw_insn *x = &r->insn[j];
			any |= ref_test(fw, x, p) ^ ((x->flags & FW_F_NOT) != 0);
			if (!(x->flags & FW_F_OR))
				break;
			j++;
		}
		if (!any)
			return false;
		k = j + 1;
	}
	return true;
}

static enum fw_verdict ref_eval(const struct fw *fw, const struct fw_pkt *p, uint32_t *rule,
				uint16_t *code, uint64_t *hits)
{
	const struct fw_rules *s = fw_rules_get(fw);
	for (int i = 0; i < s->n;) {
		if (!ref_rule(fw, i, p)) {
			i++;
			continue;
		}
		hits[i]++;
		const struct fw_hot *h = &s->hot[i];
		*rule = h->number;
		*code = 0;
		switch (h->action) {
		case FW_A_COUNT: i++; continue;
		case FW_A_SKIPTO: {
			uint32_t t = s->rule[i].skipto;
			int j;
			if (fw->tun.skipto_dragonfly) {
				for (j = i + 1; j < s->n && s->hot[j].number < t; j++)
					;
			} else {
				if (t <= h->number)
					t = h->number + 1;
				for (j = 0; j < s->n && s->hot[j].number < t; j++)
					;
			}
			i = j;
			continue;
		}
		case FW_A_ALLOW: return FW_PASS;
		case FW_A_DENY: return FW_DENY;
		case FW_A_RESET: return FW_RESET;
		case FW_A_UNREACH: *code = s->rule[i].icmp_code; return FW_UNREACH;
		default: return fw->tun.default_to_accept ? FW_PASS : FW_DENY;
		}
	}
	return (enum fw_verdict)-1;
}

static struct fw_pkt gen_pkt(void)
{
	static const int protos[] = { 6, 17, 1, 50 };
	static const char *const addrs[] = { "10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3",
					     "10.0.1.1", "10.0.1.2", "10.0.2.1", "10.0.2.3",
					     "10.0.3.9", "10.0.0.254", "198.18.0.1", "10.1.0.1" };
	char s[32], d[32];
	snprintf(s, sizeof(s), "%s", PICK(addrs));
	snprintf(d, sizeof(d), "%s", PICK(addrs));
	struct fw_pkt p = fw_pk(protos[rnd(4)], s, 6 + (int)rnd(6), d, 6 + (int)rnd(6));
	bool in = rnd(2);
	p = fw_pass(p, in, (int)rnd(4), (int)rnd(4));
	if (!rnd(8))
		p.frag = true;   /* a forwarder may leave has_ports set: the offset decides */
	if (!rnd(16))
		p.recv_if = -1;
	return p;
}

static uint64_t rule_pkts(const struct fw *fw, int i)
{
	struct fw_rule_stats st;
	fw_rule_stats(fw, i, &st);
	return st.pkts;
}

static void t_random_rulesets_match_the_reference(void)
{
	int mismatches = 0;
	long evals = 0, decided_early = 0;
	for (int round = 0; round < 40 && mismatches < 5; round++) {
		struct fw *fw = fw_mk();
		int nrules = 1 + (int)rnd(round < 20 ? 30 : 300);
		char cmd[512];
		for (int k = 0; k < nrules; k++) {
			gen_rule(cmd, sizeof(cmd), rnd(4) ? 1 + rnd(2000) : 0);
			if (fw_run(fw, cmd)) {
				T_FAIL("'%.200s': %.150s", cmd, fw_d.msg);
				mismatches++;
				break;
			}
		}
		fw_tunables(fw)->default_to_accept = rnd(2);
		uint64_t *hits = calloc((size_t)fw->rules->n, sizeof(*hits));
		for (int k = 0; k < 2000 && mismatches < 5; k++) {
			struct fw_pkt p = gen_pkt();
			fw_tunables(fw)->skipto_dragonfly = rnd(2);
			struct fw_match m;
			uint32_t rrule = 0;
			uint16_t rcode = 0;
			enum fw_verdict v = fw_eval_ex(fw, &p, &m);
			enum fw_verdict rv = ref_eval(fw, &p, &rrule, &rcode, hits);
			evals++;
			decided_early += rrule != 65535;
			if (v != rv || m.rule_no != rrule || m.icmp_code != rcode) {
				mismatches++;
				T_FAIL("round %d packet %d: fast %d rule %u, reference %d rule %u", round, k, v,
				       m.rule_no, rv, rrule);
			}
		}
		/* counters: the fast path counted exactly what the reference matched */
		for (int i = 0; i < fw->rules->n && !mismatches; i++)
			if (rule_pkts(fw, i) != hits[i]) {
				mismatches++;
				T_FAIL("round %d: rule index %d counted %llu, reference %llu", round, i,
				       (unsigned long long)rule_pkts(fw, i), (unsigned long long)hits[i]);
			}
		free(hits);
		fw_free(fw);
	}
	printf("# %ld evaluations compared, %ld decided before rule 65535\n", evals, decided_early);
	/* the universe must make rules match, or the comparison says little */
	T_TRUE(decided_early > evals / 4);
}

int main(void)
{
	T_RUN(t_random_rulesets_match_the_reference);
	return t_done();
}
