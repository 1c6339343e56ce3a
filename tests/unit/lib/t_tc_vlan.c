/* SPDX-License-Identifier: BSD-2-Clause */
/* t_tc_vlan.c — the tag programs of an emulated VLAN subinterface (lib/tc_vlan.c), run
 * on a small interpreter of the instructions they use, with the skb's metadata and the
 * helpers stood in for: which frames are popped and redirected, which go on, the tag
 * pushed, a failing helper dropping the frame; and the builder's refusals. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <stdint.h>

#include "tap.h"
#include "tc_vlan.h"

#define CTX 0x10000u   /* the context pointer's stand-in value */

struct run {
	struct __sk_buff skb;   /* vlan_present, vlan_proto (network order), vlan_tci */
	int64_t helper_rc;      /* what vlan_pop / vlan_push return */
	int pops, pushes, redirects;
	uint64_t push_proto, push_tci, redir_ifindex, redir_flags;
	int64_t ret;
	int fault;              /* an instruction the interpreter does not know, a bad jump */
};

/* Runs prog (n instructions) on r->skb; 0, or -1 with r->fault set. */
static int interp(const struct bpf_insn *p, int n, struct run *r)
{
	uint64_t reg[11] = { 0 };
	reg[1] = CTX;
	for (int pc = 0, steps = 0; steps < 100; steps++) {
		if (pc < 0 || pc >= n)
			return r->fault = 1, -1;
		const struct bpf_insn *in = &p[pc++];
		uint8_t d = in->dst_reg, s = in->src_reg;
		int64_t k = in->imm;
		switch (in->code) {
		case BPF_ALU64 | BPF_MOV | BPF_K: reg[d] = (uint64_t)k; break;
		case BPF_ALU64 | BPF_MOV | BPF_X: reg[d] = reg[s]; break;
		case BPF_ALU64 | BPF_AND | BPF_K: reg[d] &= (uint64_t)k; break;
		case BPF_LDX | BPF_MEM | BPF_W: {
			uint32_t v;
			if (reg[s] != CTX || in->off < 0 || (size_t)in->off + 4 > sizeof(r->skb))
				return r->fault = 2, -1;
			memcpy(&v, (const char *)&r->skb + in->off, 4);
			reg[d] = v;
			break;
		}
		case BPF_JMP | BPF_JEQ | BPF_K:
			if (reg[d] == (uint64_t)k)
				pc += in->off;
			break;
		case BPF_JMP | BPF_JNE | BPF_K:
			if (reg[d] != (uint64_t)k)
				pc += in->off;
			break;
		case BPF_JMP | BPF_CALL:
			if (k == BPF_FUNC_skb_vlan_pop) {
				if (reg[1] != CTX)
					return r->fault = 3, -1;
				r->pops++;
				reg[0] = (uint64_t)r->helper_rc;
			} else if (k == BPF_FUNC_skb_vlan_push) {
				if (reg[1] != CTX)
					return r->fault = 3, -1;
				r->pushes++;
				r->push_proto = reg[2];
				r->push_tci = reg[3];
				reg[0] = (uint64_t)r->helper_rc;
			} else if (k == BPF_FUNC_redirect) {
				r->redirects++;
				r->redir_ifindex = reg[1];
				r->redir_flags = reg[2];
				reg[0] = TC_ACT_REDIRECT;
			} else {
				return r->fault = 4, -1;
			}
			/* the caller-saved registers are the helper's */
			for (int i = 1; i <= 5; i++)
				reg[i] = 0xdeadbeefdeadbeefull;
			break;
		case BPF_JMP | BPF_EXIT:
			r->ret = (int64_t)(int32_t)reg[0];
			return 0;
		default:
			return r->fault = 5, -1;
		}
	}
	return r->fault = 6, -1;
}

static int64_t pop_on(unsigned vid, int present, unsigned proto, unsigned tci, struct run *r)
{
	struct bpf_insn p[TC_VLAN_INSNS_MAX];
	int n = tc_vlan_build(TC_VLAN_POP, vid, 7, p, TC_VLAN_INSNS_MAX);
	if (n <= 0)
		return -1000;
	r->skb.vlan_present = (uint32_t)present;
	r->skb.vlan_proto = htons((uint16_t)proto);
	r->skb.vlan_tci = tci;
	if (interp(p, n, r))
		return -2000 - r->fault;
	return r->ret;
}

static void t_pop(void)
{
	struct run r = { 0 };
	/* VLAN 100 (priority 0, and 5): popped and redirected into the hidden peer's egress */
	T_EQ_INT(pop_on(100, 1, ETH_P_8021Q, 100, &r), TC_ACT_REDIRECT);
	T_EQ_INT(r.pops, 1);
	T_EQ_INT(r.redirects, 1);
	T_EQ_U64(r.redir_ifindex, 7);
	T_EQ_U64(r.redir_flags, 0);   /* egress of the peer: the frame arrives on P.V */
	memset(&r, 0, sizeof(r));
	T_EQ_INT(pop_on(100, 1, ETH_P_8021Q, (5u << 13) | 100, &r), TC_ACT_REDIRECT);
	T_EQ_INT(r.pops, 1);
	memset(&r, 0, sizeof(r));   /* the drop eligible bit: VLAN 100 all the same */
	T_EQ_INT(pop_on(100, 1, ETH_P_8021Q, (1u << 12) | 100, &r), TC_ACT_REDIRECT);
	/* VID 4094, the highest */
	memset(&r, 0, sizeof(r));
	T_EQ_INT(pop_on(4094, 1, ETH_P_8021Q, 4094, &r), TC_ACT_REDIRECT);
}

static void t_pass(void)
{
	struct run r = { 0 };
	/* another VID, untagged (a stale TCI), an 802.1ad outer tag: go on, untouched */
	T_EQ_INT(pop_on(100, 1, ETH_P_8021Q, 200, &r), TC_ACT_UNSPEC);
	T_EQ_INT(pop_on(100, 1, ETH_P_8021Q, 5u << 13, &r), TC_ACT_UNSPEC);   /* priority-tagged */
	T_EQ_INT(pop_on(100, 0, ETH_P_8021Q, 100, &r), TC_ACT_UNSPEC);
	T_EQ_INT(pop_on(100, 1, ETH_P_8021AD, 100, &r), TC_ACT_UNSPEC);
	T_EQ_INT(r.pops + r.redirects, 0);
}

static void t_pop_fails(void)
{
	struct run r = { .helper_rc = -ENOMEM };
	T_EQ_INT(pop_on(100, 1, ETH_P_8021Q, 100, &r), TC_ACT_SHOT);
	T_EQ_INT(r.pops, 1);
	T_EQ_INT(r.redirects, 0);
}

static void t_push(void)
{
	struct bpf_insn p[TC_VLAN_INSNS_MAX];
	int n = tc_vlan_build(TC_VLAN_PUSH, 300, 3, p, TC_VLAN_INSNS_MAX);
	T_TRUE(n > 0);
	struct run r = { 0 };
	T_EQ_INT(interp(p, n, &r), 0);
	T_EQ_INT(r.ret, TC_ACT_REDIRECT);
	T_EQ_INT(r.pushes, 1);
	T_EQ_U64(r.push_proto, htons(ETH_P_8021Q));
	T_EQ_U64(r.push_tci, 300);   /* priority 0 */
	T_EQ_U64(r.redir_ifindex, 3);
	T_EQ_U64(r.redir_flags, 0);  /* out of P */
	struct run f = { .helper_rc = -ENOMEM };
	T_EQ_INT(interp(p, n, &f), 0);
	T_EQ_INT(f.ret, TC_ACT_SHOT);
	T_EQ_INT(f.redirects, 0);
}

static void t_refusals(void)
{
	struct bpf_insn p[TC_VLAN_INSNS_MAX];
	T_EQ_INT(tc_vlan_build(TC_VLAN_POP, 0, 3, p, TC_VLAN_INSNS_MAX), -EINVAL);
	T_EQ_INT(tc_vlan_build(TC_VLAN_POP, 4095, 3, p, TC_VLAN_INSNS_MAX), -EINVAL);
	T_EQ_INT(tc_vlan_build(TC_VLAN_PUSH, 100, 0, p, TC_VLAN_INSNS_MAX), -EINVAL);
	T_EQ_INT(tc_vlan_build((enum tc_vlan_dir)9, 100, 3, p, TC_VLAN_INSNS_MAX), -EINVAL);
	T_EQ_INT(tc_vlan_build(TC_VLAN_POP, 100, 3, p, 4), -ENOSPC);
}

int main(void)
{
	T_RUN(t_pop);
	T_RUN(t_pass);
	T_RUN(t_pop_fails);
	T_RUN(t_push);
	T_RUN(t_refusals);
	return t_done();
}
