/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_eval.c — one pass of a packet over the ruleset (docs/design/ipfw.md#evaluation),
 * per-rule counters and log lines (docs/design/ipfw.md#logging). Called by the forwarder
 * for every packet, twice when forwarded (the inbound and the outbound pass): no
 * allocation, no locks, no system call except one coarse clock read per pass that
 * matches (unless fw_set_now supplies the second).
 *
 * The scan is the prefilter of fw_impl.h — three masked compares ORed together — done
 * for 8 rules at a time on the block index (struct fw_blk), a branch only per block
 * and per candidate; then, only for rules that pass it, the rule's short program of
 * remaining tests, evaluated like ipfw_chk(): tests ANDed, FW_F_NOT inverting one test,
 * a run of FW_F_OR tests passing as soon as one of them does. */
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fw_impl.h"
#include "fw_dyn.h"
#include "fw_lpm.h"

static inline uint64_t if_bit(int idx)
{
	return idx >= 0 && idx < FW_MAX_IFS ? 1ull << idx : 0;
}

static inline bool is_local(const struct fw *fw, uint32_t a)
{
	for (int i = 0; i < fw->nlocal; i++)
		if (fw->local[i] == a)
			return true;
	return false;
}

bool fw_is_me(const struct fw *fw, uint32_t a)
{
	return is_local(fw, a);
}

bool fw_is_me6(const struct fw *fw, const uint8_t a[16])
{
	for (int i = 0; i < fw->nlocal6; i++)
		if (!memcmp(fw->local6 + 16 * i, a, 16))
			return true;
	return false;
}

/* an IPv6 address against a list of (address, mask) pairs of 16 bytes each */
static bool list6_match(const struct fw_insn *x, const uint8_t *a)
{
	const uint8_t *r = x->data;
	for (int k = 0; k < x->n; k++, r += 32) {
		int i = 0;
		while (i < 16 && (a[i] & r[16 + i]) == r[i])
			i++;
		if (i == 16)
			return true;
	}
	return false;
}

static inline bool port_match(const struct fw_insn *x, const struct fw_pkt *p, uint16_t port)
{
	/* a port test fails on a packet without ports (ipfw2), so `not` matches it
	 * (docs/design/ipfw.md#ports) */
	if (!p->has_ports || p->frag)
		return false;
	if (x->n == 1)
		return port >= x->a && port <= x->b;
	const uint16_t *r = x->data;
	for (int k = 0; k < x->n; k++)
		if (port >= r[2 * k] && port <= r[2 * k + 1])
			return true;
	return false;
}

static inline bool list_match(const struct fw_insn *x, uint32_t a)
{
	const uint32_t *r = x->data;
	for (int k = 0; k < x->n; k++)
		if ((a & r[2 * k + 1]) == r[2 * k])
			return true;
	return false;
}

static inline bool set_match(const struct fw_insn *x, uint32_t a)
{
	const uint32_t *map = x->data;
	unsigned o = ntohl(a) & 0xff;
	return (a & x->b) == x->a && (map[o / 32] >> (o % 32) & 1);
}

/* The packet fields the common tests read, 64 bits each so that an interface bitmask
 * test has the same shape as an address test. */
enum { F_SRC, F_DST, F_PROTO, F_IN, F_RECV, F_XMIT, F_VIA, F_N };

/* How each op is tested: EQ (f & b) == a, ANY (f & (b:a)) != 0, or by a case below.
 * Table-driven so that a program runs on two well-predicted branches per test instead
 * of a jump table (indirect branches cost several nanoseconds each on the VMs here). */
enum { K_EQ, K_ANY, K_OTHER };
static const uint8_t kind_of[FW_OP_MAX] = {
	[FW_OP_PROTO] = K_EQ,	   [FW_OP_SRC] = K_EQ,		[FW_OP_DST] = K_EQ,
	[FW_OP_SRC_ME] = K_OTHER,  [FW_OP_DST_ME] = K_OTHER,	[FW_OP_SRC_SET] = K_OTHER,
	[FW_OP_DST_SET] = K_OTHER, [FW_OP_SRC_LIST] = K_OTHER,	[FW_OP_DST_LIST] = K_OTHER,
	[FW_OP_SRCPORT] = K_OTHER, [FW_OP_DSTPORT] = K_OTHER,	[FW_OP_IN] = K_EQ,
	[FW_OP_RECV] = K_ANY,	   [FW_OP_XMIT] = K_ANY,	[FW_OP_VIA] = K_ANY,
	[FW_OP_IP4] = K_OTHER,	   [FW_OP_IP6] = K_OTHER,	[FW_OP_SRC_LOOKUP] = K_OTHER,
	[FW_OP_DST_LOOKUP] = K_OTHER, [FW_OP_FRAG] = K_OTHER,	[FW_OP_IPLEN] = K_OTHER,
	[FW_OP_IPTTL] = K_OTHER,   [FW_OP_ICMPTYPE] = K_OTHER,	[FW_OP_TCPFLAGS] = K_OTHER,
	[FW_OP_ESTAB] = K_OTHER,   [FW_OP_NOP] = K_OTHER,	[FW_OP_PROBE] = K_OTHER,
	[FW_OP_CHECK] = K_OTHER,   [FW_OP_KEEP] = K_OTHER,	[FW_OP_LIMIT] = K_OTHER,
	[FW_OP_RECV_TAB] = K_OTHER, [FW_OP_XMIT_TAB] = K_OTHER, [FW_OP_VIA_TAB] = K_OTHER,
	[FW_OP_SRC6] = K_OTHER,	   [FW_OP_DST6] = K_OTHER,	[FW_OP_SRC_ME6] = K_OTHER,
	[FW_OP_DST_ME6] = K_OTHER, [FW_OP_ICMP6TYPE] = K_OTHER,	[FW_OP_EXT6HDR] = K_OTHER,
	[FW_OP_FLOW6ID] = K_OTHER,
};
static const uint8_t field_of[FW_OP_MAX] = {
	[FW_OP_PROTO] = F_PROTO, [FW_OP_SRC] = F_SRC,	[FW_OP_DST] = F_DST,   [FW_OP_IN] = F_IN,
	[FW_OP_RECV] = F_RECV,	 [FW_OP_XMIT] = F_XMIT, [FW_OP_VIA] = F_VIA,
};

/* An IPv4 address test is false on an IPv6 packet without a branch: the packet's
 * address field is FW_F_V6 (above any 32-bit address), an EQ test's mask takes the
 * high half in (no other EQ field has it), and its value never has it. */
#define FW_F_V6 (1ull << 32)
#define FW_F_HI 0xffffffff00000000ull

static void pkt_fields(const struct fw_pkt *p, uint64_t *f)
{
	/* an inbound packet has no output interface yet, whatever the caller knows
	 * (docs/design/ipfw.md#direction-and-interfaces) */
	int xmit = p->in ? -1 : p->xmit_if;
	f[F_SRC] = p->ip6 ? FW_F_V6 : p->src;
	f[F_DST] = p->ip6 ? FW_F_V6 : p->dst;
	f[F_PROTO] = p->proto;
	f[F_IN] = p->in;
	f[F_RECV] = if_bit(p->recv_if);
	f[F_XMIT] = if_bit(xmit);
	/* via: the transmit interface if there is one, else the receive one */
	f[F_VIA] = if_bit(xmit >= 0 ? xmit : p->recv_if);
}

static inline bool range_match(const struct fw_insn *x, uint32_t v)
{
	const uint16_t *r = x->data;
	for (int k = 0; k < x->n; k++)
		if (v >= r[2 * k] && v <= r[2 * k + 1])
			return true;
	return false;
}

/* ip_fw2.c flags_match(): every wanted bit set, every unwanted one clear */
static inline bool flags_match(const struct fw_insn *x, uint32_t bits)
{
	return (bits & x->a) == x->a && (bits & x->b) == 0;
}

static bool other_match(const struct fw *fw, const struct fw_insn *x, const struct fw_pkt *p)
{
	bool first = !p->frag && !(p->ip_off & 0x1fff);   /* ipfw_chk's offset == 0 */
	bool v6 = p->ip6;
	switch (x->op) {
	/* O_IP_SRC_ME: a local IPv4 address, or on IPv6 a local IPv6 one (the fall
	 * through into O_IP6_SRC_ME) */
	case FW_OP_SRC_ME: return v6 ? fw_is_me6(fw, p->src6) : is_local(fw, p->src);
	case FW_OP_DST_ME: return v6 ? fw_is_me6(fw, p->dst6) : is_local(fw, p->dst);
	case FW_OP_SRC_ME6: return v6 && fw_is_me6(fw, p->src6);
	case FW_OP_DST_ME6: return v6 && fw_is_me6(fw, p->dst6);
	case FW_OP_SRC6: return v6 && list6_match(x, p->src6);
	case FW_OP_DST6: return v6 && list6_match(x, p->dst6);
	/* the IPv4 address forms: is_ipv4 only */
	case FW_OP_SRC_SET: return !v6 && set_match(x, p->src);
	case FW_OP_DST_SET: return !v6 && set_match(x, p->dst);
	case FW_OP_SRC_LIST: return !v6 && list_match(x, p->src);
	case FW_OP_DST_LIST: return !v6 && list_match(x, p->dst);
	case FW_OP_SRCPORT: return port_match(x, p, p->sport);
	case FW_OP_DSTPORT: return port_match(x, p, p->dport);
	case FW_OP_IP4: return !v6;
	case FW_OP_IP6: return v6;
	case FW_OP_NOP: return true;
	case FW_OP_SRC_LOOKUP:
	case FW_OP_DST_LOOKUP: {
		/* O_IP_*_LOOKUP: the address of the packet's family (an addr:radix table
		 * holds both) */
		const struct fw_table *t = fw_table_at(fw, (int)x->a);
		bool src = x->op == FW_OP_SRC_LOOKUP;
		uint32_t v;
		if (!t || !(v6 ? fw_table_lookup6(t, src ? p->src6 : p->dst6, &v, NULL)
			       : fw_table_lookup(t, src ? p->src : p->dst, &v)))
			return false;
		return !x->n || v == x->b;
	}
	case FW_OP_RECV_TAB:
	case FW_OP_XMIT_TAB:
	case FW_OP_VIA_TAB: {
		/* iface_match(): the interface looked up in the table, as the other
		 * interface tests pick it (xmit none inbound, via the xmit one if any) */
		const struct fw_table *t = fw_table_at(fw, (int)x->a);
		int xmit = p->in ? -1 : p->xmit_if;
		int k = x->op == FW_OP_RECV_TAB ? p->recv_if
			: x->op == FW_OP_XMIT_TAB ? xmit : xmit >= 0 ? xmit : p->recv_if;
		return t && fw_iftable_port(t, k);
	}
	case FW_OP_FRAG:
		/* r364117: ip_off's flag bits, and bit 0 for a non-zero offset */
		return flags_match(x, (uint32_t)(p->ip_off & 0xe000) >> 8 | !first);
	/* O_IPLEN, O_IPTTL: is_ipv4 only */
	case FW_OP_IPLEN: return !v6 && range_match(x, p->ip_len);
	case FW_OP_IPTTL: return !v6 && range_match(x, p->ttl);
	case FW_OP_ICMPTYPE:
		/* icmptype_match(): type <= ICMP_MAXTYPE (40) and the type's bit of a 32-bit
		 * map; for 32..40 amd64's shift takes the count modulo 32 */
		return first && p->proto == 1 && p->icmp_type <= 40 &&
		       (x->a >> (p->icmp_type & 31) & 1);
	case FW_OP_ICMP6TYPE: {
		/* icmp6type_match(): type <= ICMP6_MAXTYPE and its bit */
		const uint32_t *map = x->data;
		return v6 && first && p->proto == 58 && p->icmp_type <= FW_ICMP6_MAXTYPE &&
		       (map[p->icmp_type / 32] >> (p->icmp_type % 32) & 1);
	}
	/* O_EXT_HDR: any of the headers asked for was walked */
	case FW_OP_EXT6HDR: return v6 && (p->ext6 & x->a);
	case FW_OP_FLOW6ID: {
		/* flow6id_match() compares the whole first word of the header
		 * (ipfw_chk's flow_id6 = ntohl(ip6_flow), version and traffic class
		 * included) with labels of at most 20 bits: it never matches an IPv6
		 * packet, on FreeBSD 14 as here (docs/firewall.md#ipv6) */
		const uint32_t *l = x->data;
		for (int k = 0; v6 && k < x->n; k++)
			if (p->flow6 == l[k])
				return true;
		return false;
	}
	case FW_OP_TCPFLAGS: return first && p->proto == 6 && flags_match(x, p->tcp_flags);
	case FW_OP_ESTAB:
		/* "reject packets which have SYN only" */
		return first && p->proto == 6 && (p->tcp_flags & (0x04 | 0x10 | 0x02)) != 0x02;
	default: return false;
	}
}

/* What a rule's program decided. */
enum { PROG_FAIL = 0, PROG_MATCH, PROG_NEXT, PROG_JUMP, PROG_DENY };

/* Runs rule idx's program like ipfw_chk's inner loop: tests ANDed, FW_F_NOT inverting
 * one test, a run of FW_F_OR tests passing as soon as one of them does; a probe or
 * check-state looks the state table up once per pass and name (DYN_LOOKUP_NEEDED) and
 * on a hit jumps to the parent rule's action (*jump); keep-state/limit, the last test,
 * installs a state or denies the packet. */
static int prog_run(struct fw *fw, const struct fw_rules *rs, int idx, const struct fw_insn *x,
		    int n, const struct fw_pkt *p, const uint64_t *f, struct fw_dyn_info *di, int *jump)
{
	for (int k = 0; k < n; k++, x++) {
		bool m;
		unsigned kind = kind_of[x->op];
		if (kind == K_EQ) {
			m = (f[field_of[x->op]] & (x->b | FW_F_HI)) == x->a;
		} else if (kind == K_ANY) {
			m = (f[field_of[x->op]] & ((uint64_t)x->b << 32 | x->a)) != 0;
		} else if (x->op == FW_OP_PROBE || x->op == FW_OP_CHECK) {
			if (di->dir == FW_DYN_UNKNOWN || (di->kidx != 0 && di->kidx != x->a)) {
				int r = fw_dyn_lookup(fw, rs, p, (uint16_t)x->a, di);
				if (r >= 0) {
					*jump = r;
					return PROG_JUMP;
				}
			}
			if (x->op == FW_OP_CHECK)
				return PROG_NEXT;
			continue;
		} else if (x->op == FW_OP_KEEP || x->op == FW_OP_LIMIT) {
			if (fw_dyn_install(fw, rs, idx, x, p))
				return PROG_DENY;
			continue;
		} else {
			m = other_match(fw, x, p);
		}
		m ^= (x->flags & FW_F_NOT) != 0;
		if (x->flags & FW_F_OR) {
			if (m)   /* the block passed: skip to its last test */
				while (x->flags & FW_F_OR) {
					x++;
					k++;
				}
			continue;
		}
		if (!m)
			return PROG_FAIL;
	}
	return PROG_MATCH;
}

/* ---- log lines, formatted by hand: this runs inside the forwarding loop ---- */

struct lb {
	char *p, *end;
};

static void lb_s(struct lb *b, const char *s)
{
	while (*s && b->p < b->end)
		*b->p++ = *s++;
}

static void lb_u(struct lb *b, uint64_t v)
{
	char t[24];
	int n = 0;
	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n && b->p < b->end)
		*b->p++ = t[--n];
}

static void lb_ip(struct lb *b, uint32_t a_be)
{
	uint32_t a = ntohl(a_be);
	for (int k = 3; k >= 0; k--) {
		lb_u(b, a >> (8 * k) & 0xff);
		if (k)
			lb_s(b, ".");
	}
}

static void lb_ip6(struct lb *b, const uint8_t *a)
{
	char t[INET6_ADDRSTRLEN];
	lb_s(b, "[");
	lb_s(b, inet_ntop(AF_INET6, a, t, sizeof(t)) ? t : "?");
	lb_s(b, "]");
}

static void emit_log(struct fw *fw, const struct fw_rules *rs, int i, const struct fw_pkt *p)
{
	const struct fw_rule *r = &rs->rule[i];
	const struct fw_hot *h = &rs->hot[i];
	char line[256];
	struct lb b = { line, line + sizeof(line) - 1 };
	uint32_t limit_reached = 0;
	if (!fw->tun.verbose)
		return;
	if (r->log_max) {
		/* the allowance is the rule's, whichever thread logs */
		_Atomic uint32_t *left = &fw_cline(&fw->cs, r->slot, 0)->log_left;
		uint32_t l = atomic_load_explicit(left, memory_order_relaxed);
		do {
			if (!l)
				return;
		} while (!atomic_compare_exchange_weak_explicit(left, &l, l - 1, memory_order_relaxed,
								memory_order_relaxed));
		if (l == 1)
			limit_reached = r->log_max;
	}
	/* FreeBSD ipfw_log(): "ipfw: 100 Deny TCP 10.0.0.1:1234 10.0.0.2:80 in via em0" */
	lb_s(&b, "ipfw: ");
	lb_u(&b, h->number);
	lb_s(&b, " ");
	switch (h->action) {
	case FW_A_ALLOW: lb_s(&b, "Accept"); break;
	case FW_A_DENY: lb_s(&b, "Deny"); break;
	case FW_A_RESET: lb_s(&b, "Reset"); break;
	case FW_A_COUNT: lb_s(&b, "Count"); break;
	case FW_A_SKIPTO: lb_s(&b, "SkipTo "); lb_u(&b, r->skipto); break;
	case FW_A_UNREACH:
		/* O_REJECT's code 1 is "Reject"; O_UNREACH6's every code "Unreach N" */
		if (r->icmp_code == 1 && !r->unreach6) {
			lb_s(&b, "Reject");
		} else {
			lb_s(&b, "Unreach ");
			lb_u(&b, r->icmp_code);
		}
		break;
	default: lb_s(&b, fw->tun.default_to_accept ? "Accept" : "Deny"); break;
	}
	bool ports = p->has_ports && !p->frag;
	switch (p->proto) {
	case 58:
		if (!p->ip6)
			goto other;
		/* ipfw_log(): "ICMPv6:type.code", IPv6 addresses in brackets */
		lb_s(&b, " ICMPv6:");
		lb_u(&b, p->icmp_type);
		lb_s(&b, ".");
		lb_u(&b, p->icmp_code);
		lb_s(&b, " ");
		break;
	case 6: lb_s(&b, " TCP "); break;
	case 17: lb_s(&b, " UDP "); break;
	case 132: lb_s(&b, " SCTP "); break;
	case 1:
		lb_s(&b, " ICMP:");
		lb_u(&b, p->icmp_type);
		lb_s(&b, ".");
		lb_u(&b, p->icmp_code);
		lb_s(&b, " ");
		break;
	default:
	other:
		lb_s(&b, " P:");
		lb_u(&b, p->proto);
		lb_s(&b, " ");
		break;
	}
	if (p->ip6)
		lb_ip6(&b, p->src6);
	else
		lb_ip(&b, p->src);
	if (ports) {
		lb_s(&b, ":");
		lb_u(&b, p->sport);
	}
	lb_s(&b, " ");
	if (p->ip6)
		lb_ip6(&b, p->dst6);
	else
		lb_ip(&b, p->dst);
	if (ports) {
		lb_s(&b, ":");
		lb_u(&b, p->dport);
	}
	int ifx = p->in ? p->recv_if : p->xmit_if;
	if (ifx >= 0 && ifx < fw->nifs) {
		lb_s(&b, p->in ? " in via " : " out via ");
		lb_s(&b, fw->ifname[ifx]);
	} else {
		lb_s(&b, p->in ? " in" : " out");
		lb_s(&b, " [no if info]");
	}
	if (p->frag)
		lb_s(&b, " (frag)");
	*b.p = '\0';
	if (fw->log_fn)
		fw->log_fn(fw->log_arg, line);
	if (limit_reached && fw->log_fn) {
		b = (struct lb){ line, line + sizeof(line) - 1 };
		lb_s(&b, "ipfw: limit ");
		lb_u(&b, limit_reached);
		lb_s(&b, " reached on entry ");
		lb_u(&b, h->number);
		*b.p = '\0';
		fw->log_fn(fw->log_arg, line);
	}
}

static uint64_t now_s(const struct fw *fw)
{
	uint64_t s = atomic_load_explicit(&fw->now_s, memory_order_relaxed);
	if (s)
		return s;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	return (uint64_t)ts.tv_sec;
}

/* bit l set when lane l of the 4-lane all-ones/zero vector z is set */
static inline unsigned lanes(fw_v4u z)
{
#ifdef __SSE2__
	return (unsigned)_mm_movemask_ps((__m128)z);
#else
	return (z[0] & 1) | (z[1] & 2) | (z[2] & 4) | (z[3] & 8);
#endif
}

typedef int32_t fw_v4s __attribute__((vector_size(16)));

/* The packet as the prefilter sees it, each field in every lane */
struct vpkt {
	fw_v4u s, d, key, sp, dp;
};

/* lanes whose port range excludes the packet's port (unsigned compare done signed) */
static inline fw_v4u port_fail(fw_v4u p, fw_v4u lo, fw_v4u spanb)
{
	const fw_v4u bias = { 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u };
	return (fw_v4u)((fw_v4s)((p - lo) ^ bias) > (fw_v4s)spanb);
}

/* The candidates of block b: bit l set when rule 8b+l passes its prefilter. */
static inline unsigned block_pass(const struct fw_blk *k, const struct vpkt *v)
{
	fw_v4u z0 = ((v->s & k->smask[0]) ^ k->saddr[0]) | ((v->d & k->dmask[0]) ^ k->daddr[0]) |
		    ((v->key & k->kmask[0]) ^ k->kval[0]);
	fw_v4u z1 = ((v->s & k->smask[1]) ^ k->saddr[1]) | ((v->d & k->dmask[1]) ^ k->daddr[1]) |
		    ((v->key & k->kmask[1]) ^ k->kval[1]);
	unsigned bits = lanes((fw_v4u)(z0 == 0)) | lanes((fw_v4u)(z1 == 0)) << 4;
	if (k->ports && bits) {
		fw_v4u f0 = port_fail(v->sp, k->splo[0], k->spspan[0]) |
			    port_fail(v->dp, k->dplo[0], k->dpspan[0]);
		fw_v4u f1 = port_fail(v->sp, k->splo[1], k->spspan[1]) |
			    port_fail(v->dp, k->dplo[1], k->dpspan[1]);
		bits &= ~(lanes(f0) | lanes(f1) << 4);
	}
	return bits;
}

/* ipfw_chk's pullup_failed: the header the protocol needs is not all there (PULLUP_TO
 * of struct tcphdr 20, udphdr 8 (UDP-Lite too), sctphdr 12, icmphdr 4 bytes, on
 * fragment offset 0), or a TCP fragment at offset 1 (RFC 3128: it could rewrite the
 * first fragment's flags). Dropped before any rule, no rule counted. */
static int pullup_fails(const struct fw_pkt *p)
{
	unsigned off = p->ip_off & 0x1fff;
	if (p->ext_bad)
		return FW_WHY_EXTHDR;
	if (p->cut)
		return FW_WHY_TRUNCATED;
	if (off || p->frag)
		return off == 1 && p->proto == 6 && !p->ip6 ? FW_WHY_TINYFRAG : 0;
	/* IPv6: struct icmp6_hdr is 8 bytes */
	unsigned need = p->proto == 6 ? 20 : p->proto == 17 || p->proto == 136 ? 8
		      : p->proto == 132 ? 12 : p->proto == 1 ? 4
		      : p->proto == 58 && p->ip6 ? 8 : 0;
	return p->l4_len < need ? FW_WHY_TRUNCATED : 0;
}

/* A rule's counters in the pass's view: the thread's own (percpu), or the shared one
 * every thread writes (shared). Either way a plain increment, not an atomic one: a
 * view of one's own needs none (counter(9)), and FreeBSD 9 incremented the shared
 * counters inside the rule without one (ipfw_chk under the chain's read lock), losing
 * an update now and then; what it cost was the line moving between the CPUs. */
static inline void account(const struct fw *fw, const struct fw_rules *rs, int i,
			   const struct fw_pkt *p, uint64_t *t, int view)
{
	struct fw_cline *c = fw_cline(&fw->cs, rs->rule[i].slot, view);
	if (!*t)
		*t = now_s(fw);
	atomic_store_explicit(&c->pkts, atomic_load_explicit(&c->pkts, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_store_explicit(&c->bytes, atomic_load_explicit(&c->bytes, memory_order_relaxed) +
					 p->ip_len, memory_order_relaxed);
	atomic_store_explicit(&c->last_s, *t, memory_order_relaxed);
}

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* ipfw_chk()'s IPv6 branch: the extension headers walked to the upper-layer protocol
 * (hop-by-hop and destination options, routing of type 0 or 2, fragment, AH; ESP, no
 * next header, OSPF, PIM, CARP, IPv6 and IPv4 end the walk), each header's fixed part
 * present or the packet is cut short (pullup_failed); an unknown one, or a routing
 * header of another type, is denied before the rules (net.inet6.ip6.fw.
 * deny_unknown_exthdrs, 1). A fragment at a non-zero offset ends the walk without a
 * transport header. docs/firewall.md#ipv6. */
void fw_pkt_ip6(const uint8_t *ip, unsigned plen, int recv_if, int tid, struct fw_pkt *p)
{
	unsigned len = 40 + plen, hl = 40, off = 0;
	uint8_t proto = ip[6];
	bool mf = false, done = false;
	memset(p, 0, sizeof(*p));
	p->ip6 = true;
	p->src6 = ip + 8;
	p->dst6 = ip + 24;
	p->ttl = ip[7];
	/* flow_id6 = ntohl(ip6_flow): the whole first word, version included */
	p->flow6 = (uint32_t)rd16(ip) << 16 | rd16(ip + 2);
	p->ip_len = (uint16_t)(len > 0xffff ? 0xffff : len);
	while (!done && !off) {
		const uint8_t *x = ip + hl;
		unsigned need;
		switch (proto) {
		case 0: case 60: case 43: case 51:
			need = proto == 43 ? 4 : 2;
			break;
		case 44: need = 8; break;
		case 58: case 17: case 136: need = 8; break;
		case 6: need = 20; break;
		case 132: need = 12; break;
		case 50: case 103: need = 4; break;
		case 59: need = 0; break;
		case 89 /* OSPF */: case 112 /* CARP */: need = 2; break;
		case 41: need = 40; break;
		case 4: need = 20; break;
		default:
			p->ext_bad = true;
			done = true;
			continue;
		}
		if (hl + need > len) {
			p->cut = true;
			break;
		}
		/* ext_hd: the bits ext6hdr tests, as the walk sets them */
		switch (proto) {
		case 0: case 60:
			p->ext6 |= proto ? FW_EXT_DSTOPTS : FW_EXT_HOPOPTS;
			hl += (x[1] + 1u) * 8u;
			proto = x[0];
			break;
		case 43:
			if (x[2] != 0 && x[2] != 2) {
				p->ext_bad = true;
				done = true;
				break;
			}
			p->ext6 |= FW_EXT_ROUTING | (x[2] ? FW_EXT_RTHDR2 : FW_EXT_RTHDR0);
			hl += (x[1] + 1u) * 8u;
			proto = x[0];
			break;
		case 51:
			p->ext6 |= FW_EXT_AH;
			hl += (x[1] + 2u) * 4u;
			proto = x[0];
			break;
		case 44: {
			uint16_t offlg = rd16(x + 2);
			p->ext6 |= FW_EXT_FRAGMENT;
			off = offlg >> 3;
			mf = offlg & 1;
			hl += 8;
			proto = x[0];
			break;
		}
		case 50:
			p->ext6 |= FW_EXT_ESP;
			done = true;
			break;
		default:
			done = true;
			break;
		}
	}
	p->proto = proto;
	p->ip_off = (uint16_t)((off & 0x1fff) | (mf ? 0x2000 : 0));
	p->frag = off != 0;
	p->l4_len = (uint16_t)(hl < len ? len - hl : 0);
	const uint8_t *l4 = ip + hl;
	bool first = !p->frag && !p->ext_bad && !p->cut;
	p->has_ports = first && p->l4_len >= 4 &&
		       (proto == 6 || proto == 17 || proto == 132 || proto == 136);
	p->sport = p->has_ports ? rd16(l4) : 0;
	p->dport = p->has_ports ? rd16(l4 + 2) : 0;
	bool tcp = first && proto == 6 && p->l4_len >= 20;
	p->tcp_flags = tcp ? l4[13] : 0;
	p->tcp_ack = tcp ? (uint32_t)rd16(l4 + 8) << 16 | rd16(l4 + 10) : 0;
	if (first && proto == 58 && p->l4_len >= 2) {
		p->icmp_type = l4[0];
		p->icmp_code = l4[1];
	}
	p->in = true;
	p->recv_if = recv_if;
	p->xmit_if = -1;
	p->tid = (uint8_t)tid;
}

enum fw_verdict fw_eval_ex(struct fw *fw, const struct fw_pkt *p, struct fw_match *m)
{
	return fw_eval_rs(fw, fw_rules_get(fw), p, m);
}

/* The scan's register allocation (issue 37, docs/firewall.md#speed). The prefilter's
 * vectors (v) and the candidate (h) are live across a rule's program, which holds calls
 * (states, tables, me6), and no SSE register survives a call. Since IPv6 entered the
 * program GCC 12 kept v.s, v.d and v.key in registers over the scan and so stored them,
 * and h, on every program run and loaded them back after it: 4 more stores and about 3
 * more loads per rule whose program runs (bench/fw_insns.sh counts them). Two empty asm
 * statements, which change no value, undo that: the first lets v's address escape, so
 * v lives in its stack slot and the scan loads the three vectors per block of 8 rules
 * (as before IPv6) instead of saving them per program; the second makes h after the
 * program a new value computed from i, so h is not kept (spilled) across the program. */
enum fw_verdict fw_eval_rs(struct fw *fw, const struct fw_rules *rs, const struct fw_pkt *p,
			   struct fw_match *m)
{
	m->icmp_code = 0;
	m->why = FW_WHY_RULE;
	m->unreach6 = false;
	if (!fw->tun.enable) {
		m->rule_no = 0;
		return FW_PASS;
	}
	int why = pullup_fails(p);
	if (why) {
		if (fw->tun.verbose && fw->log_fn)
			fw->log_fn(fw->log_arg, "ipfw: pullup failed");
		m->rule_no = 0;
		m->why = (uint8_t)why;
		return FW_DENY;
	}
	const struct fw_blk *blk = rs->blk;
	const struct fw_cand *cand = rs->cand;
	const uint32_t key = p->proto | (p->in ? FW_KEY_IN : 0) | (p->ip6 ? FW_KEY_IP6 : 0);
	/* no ports on anything but TCP/UDP/UDP-Lite/SCTP with fragment offset 0
	 * (docs/design/ipfw.md#ports) */
	const bool ports = p->has_ports && !p->frag;
	const uint32_t sp = ports ? p->sport : FW_NO_PORT, dp = ports ? p->dport : FW_NO_PORT;
	const struct vpkt v = { .s = { p->src, p->src, p->src, p->src },
				.d = { p->dst, p->dst, p->dst, p->dst },
				.key = { key, key, key, key },
				.sp = { sp, sp, sp, sp },
				.dp = { dp, dp, dp, dp } };
	/* v's home is this stack slot, not registers (issue 37: above fw_eval_rs) */
	__asm__("" : : "r"(&v) : "memory");
	const bool upd = fw->tun.update_counters;
	const int tid = p->tid;
	const int view = fw->tun.counters == FW_CTR_SHARED || tid >= fw->nthreads ? 0 : 1 + tid;
	uint64_t t = 0, f[F_N];
	struct fw_dyn_info di = { .dir = FW_DYN_UNKNOWN, .parent = -1 };
	pkt_fields(p, f);
	/* rule 65535 is last and passes everything, so every scan ends in it. bits holds
	 * the candidates of block b not yet tried. */
	int b = 0, i;
	unsigned bits = block_pass(&blk[0], &v);
	for (;;) {
		while (!bits)
			bits = block_pass(&blk[++b], &v);
		i = b * FW_BLK + __builtin_ctz(bits);
		bits &= bits - 1;
		const struct fw_cand *h = &cand[i];
		if (h->nprog) {
			int jump = -1;
			int r = prog_run(fw, rs, i, h->prog, h->nprog, p, f, &di, &jump);
			if (r == PROG_FAIL || r == PROG_NEXT)
				continue;
			/* h again from i: h is not live across the program (issue 37) */
			__asm__("" : "+r"(i));
			h = &cand[i];
			if (r == PROG_JUMP) {
				i = jump;   /* the state's parent rule: its action, its counters */
				h = &cand[i];
			} else if (r == PROG_DENY) {
				/* keep-state/limit refused: denied by this rule, counted */
				if (upd)
					account(fw, rs, i, p, &t, view);
				m->rule_no = h->number;
				return FW_DENY;
			}
		}
		if (upd)
			account(fw, rs, i, p, &t, view);
		if (h->log)
			emit_log(fw, rs, i, p);
		int next;
		switch (h->action) {
		case FW_A_COUNT:
		case FW_A_CHECK:
			next = i + 1;
			break;
		case FW_A_SKIPTO: {
			/* never backwards: fw_rules_finish() resolved the target index */
			const struct fw_rule *r = &rs->rule[i];
			next = (int)(fw->tun.skipto_dragonfly ? r->skip_df : r->skip_fb);
			if (next <= i)
				next = i + 1;
			break;
		}
		case FW_A_ALLOW:
			m->rule_no = h->number;
			return FW_PASS;
		case FW_A_DENY:
			m->rule_no = h->number;
			return FW_DENY;
		case FW_A_RESET:
			m->rule_no = h->number;
			m->unreach6 = rs->rule[i].unreach6;
			return FW_RESET;
		case FW_A_UNREACH:
			m->rule_no = h->number;
			m->icmp_code = rs->rule[i].icmp_code;
			m->unreach6 = rs->rule[i].unreach6;
			return FW_UNREACH;
		default:
			m->rule_no = h->number;
			return fw->tun.default_to_accept ? FW_PASS : FW_DENY;
		}
		/* go on at rule `next` (after a state's jump it may lie before i) */
		b = next / FW_BLK;
		bits = block_pass(&blk[b], &v) & (~0u << (next % FW_BLK));
	}
}

enum fw_verdict fw_eval(struct fw *fw, const struct fw_pkt *p, uint32_t *rule_no)
{
	struct fw_match m;
	enum fw_verdict v = fw_eval_ex(fw, p, &m);
	if (rule_no)
		*rule_no = m.rule_no;
	return v;
}

void fw_eval_burst(struct fw *fw, const struct fw_pkt *p, int n, enum fw_verdict *v,
		   uint32_t *rule_no)
{
	struct fw_match m;
	for (int k = 0; k < n; k++) {
		v[k] = fw_eval_ex(fw, &p[k], &m);
		if (rule_no)
			rule_no[k] = m.rule_no;
	}
}
