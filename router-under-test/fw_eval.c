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
static const uint8_t kind_of[] = {
	[FW_OP_PROTO] = K_EQ,	   [FW_OP_SRC] = K_EQ,		[FW_OP_DST] = K_EQ,
	[FW_OP_SRC_ME] = K_OTHER,  [FW_OP_DST_ME] = K_OTHER,	[FW_OP_SRC_SET] = K_OTHER,
	[FW_OP_DST_SET] = K_OTHER, [FW_OP_SRC_LIST] = K_OTHER,	[FW_OP_DST_LIST] = K_OTHER,
	[FW_OP_SRCPORT] = K_OTHER, [FW_OP_DSTPORT] = K_OTHER,	[FW_OP_IN] = K_EQ,
	[FW_OP_RECV] = K_ANY,	   [FW_OP_XMIT] = K_ANY,	[FW_OP_VIA] = K_ANY,
};
static const uint8_t field_of[] = {
	[FW_OP_PROTO] = F_PROTO, [FW_OP_SRC] = F_SRC,	[FW_OP_DST] = F_DST,   [FW_OP_IN] = F_IN,
	[FW_OP_RECV] = F_RECV,	 [FW_OP_XMIT] = F_XMIT, [FW_OP_VIA] = F_VIA,
};

static void pkt_fields(const struct fw_pkt *p, uint64_t *f)
{
	/* an inbound packet has no output interface yet, whatever the caller knows
	 * (docs/design/ipfw.md#direction-and-interfaces) */
	int xmit = p->in ? -1 : p->xmit_if;
	f[F_SRC] = p->src;
	f[F_DST] = p->dst;
	f[F_PROTO] = p->proto;
	f[F_IN] = p->in;
	f[F_RECV] = if_bit(p->recv_if);
	f[F_XMIT] = if_bit(xmit);
	/* via: the transmit interface if there is one, else the receive one */
	f[F_VIA] = if_bit(xmit >= 0 ? xmit : p->recv_if);
}

static bool other_match(const struct fw *fw, const struct fw_insn *x, const struct fw_pkt *p)
{
	switch (x->op) {
	case FW_OP_SRC_ME: return is_local(fw, p->src);
	case FW_OP_DST_ME: return is_local(fw, p->dst);
	case FW_OP_SRC_SET: return set_match(x, p->src);
	case FW_OP_DST_SET: return set_match(x, p->dst);
	case FW_OP_SRC_LIST: return list_match(x, p->src);
	case FW_OP_DST_LIST: return list_match(x, p->dst);
	case FW_OP_SRCPORT: return port_match(x, p, p->sport);
	case FW_OP_DSTPORT: return port_match(x, p, p->dport);
	default: return false;
	}
}

static bool prog_match(const struct fw *fw, const struct fw_insn *x, int n,
		       const struct fw_pkt *p, const uint64_t *f)
{
	for (int k = 0; k < n; k++, x++) {
		bool m;
		unsigned kind = kind_of[x->op];
		if (kind == K_EQ)
			m = (f[field_of[x->op]] & x->b) == x->a;
		else if (kind == K_ANY)
			m = (f[field_of[x->op]] & ((uint64_t)x->b << 32 | x->a)) != 0;
		else
			m = other_match(fw, x, p);
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
			return false;
	}
	return true;
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

static void emit_log(struct fw *fw, int i, const struct fw_pkt *p)
{
	struct fw_rule *r = &fw->rules.rule[i];
	const struct fw_hot *h = &fw->rules.hot[i];
	char line[256];
	struct lb b = { line, line + sizeof(line) - 1 };
	uint32_t limit_reached = 0;
	if (!fw->tun.verbose)
		return;
	if (r->log_max) {
		if (!r->log_left)
			return;
		if (--r->log_left == 0)
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
		if (r->icmp_code == 1) {
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
		lb_s(&b, " P:");
		lb_u(&b, p->proto);
		lb_s(&b, " ");
		break;
	}
	lb_ip(&b, p->src);
	if (ports) {
		lb_s(&b, ":");
		lb_u(&b, p->sport);
	}
	lb_s(&b, " ");
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
	if (fw->now_s)
		return fw->now_s;
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

enum fw_verdict fw_eval_ex(struct fw *fw, const struct fw_pkt *p, struct fw_match *m)
{
	m->icmp_code = 0;
	if (!fw->tun.enable) {
		m->rule_no = 0;
		return FW_PASS;
	}
	const struct fw_blk *blk = fw->rules.blk;
	const struct fw_cand *cand = fw->rules.cand;
	const uint32_t key = p->proto | (p->in ? FW_KEY_IN : 0);
	/* no ports on anything but TCP/UDP/SCTP with fragment offset 0
	 * (docs/design/ipfw.md#ports) */
	const bool ports = p->has_ports && !p->frag;
	const uint32_t sp = ports ? p->sport : FW_NO_PORT, dp = ports ? p->dport : FW_NO_PORT;
	const struct vpkt v = { .s = { p->src, p->src, p->src, p->src },
				.d = { p->dst, p->dst, p->dst, p->dst },
				.key = { key, key, key, key },
				.sp = { sp, sp, sp, sp },
				.dp = { dp, dp, dp, dp } };
	const bool upd = fw->tun.update_counters;
	uint64_t t = 0, f[F_N];
	pkt_fields(p, f);
	/* rule 65535 is last and passes everything, so every scan ends in it. bits holds
	 * the candidates of block b not yet tried. */
	int b = 0;
	unsigned bits = block_pass(&blk[0], &v);
	for (;;) {
		while (!bits)
			bits = block_pass(&blk[++b], &v);
		int i = b * FW_BLK + __builtin_ctz(bits);
		bits &= bits - 1;
		const struct fw_cand *h = &cand[i];
		if (h->nprog && !prog_match(fw, h->prog, h->nprog, p, f))
			continue;
		if (upd) {
			struct fw_ctr *c = &fw->rules.ctr[i];
			if (!t)
				t = now_s(fw);
			c->pkts++;
			c->bytes += p->ip_len;
			c->last_s = t;
		}
		if (h->log)
			emit_log(fw, i, p);
		switch (h->action) {
		case FW_A_COUNT:
			continue;
		case FW_A_SKIPTO: {
			/* never backwards: fw_rules_finish() resolved the target index */
			const struct fw_rule *r = &fw->rules.rule[i];
			int next = (int)(fw->tun.skipto_dragonfly ? r->skip_df : r->skip_fb);
			if (next <= i)
				next = i + 1;
			b = next / FW_BLK;
			bits = block_pass(&blk[b], &v) & (~0u << (next % FW_BLK));
			continue;
		}
		case FW_A_ALLOW:
			m->rule_no = h->number;
			return FW_PASS;
		case FW_A_DENY:
			m->rule_no = h->number;
			return FW_DENY;
		case FW_A_RESET:
			m->rule_no = h->number;
			return FW_RESET;
		case FW_A_UNREACH:
			m->rule_no = h->number;
			m->icmp_code = fw->rules.rule[i].icmp_code;
			return FW_UNREACH;
		default:
			m->rule_no = h->number;
			return fw->tun.default_to_accept ? FW_PASS : FW_DENY;
		}
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
