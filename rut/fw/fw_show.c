/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_show.c — `ipfw show` / `ipfw list` output, byte for byte in the BSD format
 * (docs/design/ipfw.md#show-and-list-format), and a rule's listing body (also the echo
 * of `add`). Called by fw.c's commands and by fw_rule_text(). Never on the forwarding
 * path's per-packet side.
 *
 * The body is rendered from the rule's listing tests (fw_impl.h) the way ipfw2's
 * show_ipfw() does: action, `log [logamount N]`, then the protocol, `from` source and
 * ports, `to` destination and ports, then options in the order entered; missing parts
 * print as `ip`, `from any`, `to any`; an OR block prints as `{ a or b }`; `not in` is
 * `out`. Addresses print masked, /32 bare, non-contiguous masks as addr:mask, address
 * sets with runs of three or more as ranges (FreeBSD print_ip()). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <arpa/inet.h>

#include "fw_impl.h"
#include "fw_dyn.h"
#include "fw_lpm.h"
#include "fw_lang.h"
#include "fw_out.h"
#include "fw_tab.h"

void fw_out_puts(struct fw_out *o, const char *s)
{
	size_t n = strlen(s);
	if (o->len && o->used < o->len - 1) {
		size_t room = o->len - 1 - o->used;
		size_t k = n < room ? n : room;
		memcpy(o->buf + o->used, s, k);
		o->used += k;
		o->buf[o->used] = '\0';
	}
	o->need += n;
}

void fw_out_printf(struct fw_out *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	fw_out_puts(o, tmp);
}

static void put_ip(struct fw_out *o, uint32_t a_be)
{
	uint32_t a = ntohl(a_be);
	fw_out_printf(o, "%u.%u.%u.%u", a >> 24, a >> 16 & 0xff, a >> 8 & 0xff, a & 0xff);
}

/* prefix length of a contiguous mask, -1 otherwise */
static int mask_len(uint32_t m_be)
{
	uint32_t inv = ~ntohl(m_be);
	if (inv & (inv + 1))
		return -1;
	return 32 - __builtin_popcount(inv);
}

static void put_addr(struct fw_out *o, uint32_t a, uint32_t m)
{
	int l = mask_len(m);
	put_ip(o, a);
	if (l < 0) {
		fw_out_puts(o, ":");
		put_ip(o, m);
	} else if (l < 32) {
		fw_out_printf(o, "/%d", l);
	}
}

static void put_addr_insn(const struct fw *fw, struct fw_out *o, const struct fw_insn *x)
{
	switch (x->op) {
	case FW_OP_SRC_LOOKUP:
	case FW_OP_DST_LOOKUP:
		fw_out_printf(o, " table(%s", fw_table_at(fw, (int)x->a) ? fw_table_at(fw, (int)x->a)->name : "?");
		if (x->n)
			fw_out_printf(o, ",%u", x->b);
		fw_out_puts(o, ")");
		break;
	case FW_OP_PROTO: {
		const char *name = fw_proto_name((int)x->a);
		if (name)
			fw_out_printf(o, " %s", name);
		else
			fw_out_printf(o, " %u", x->a);
		break;
	}
	case FW_OP_SRC:
	case FW_OP_DST:
		fw_out_puts(o, " ");
		put_addr(o, x->a, x->b);
		break;
	case FW_OP_SRC_ME:
	case FW_OP_DST_ME:
		fw_out_puts(o, " me");
		break;
	case FW_OP_SRC_ME6:
	case FW_OP_DST_ME6:
		fw_out_puts(o, " me6");
		break;
	case FW_OP_SRC6:
	case FW_OP_DST6: {
		/* print_ip6(): each address by inet_ntop, "/N" below 128, "any" for /0,
		 * "/MASK" for a mask that is not a prefix; commas between */
		const uint8_t *r = x->data;
		for (int k = 0; k < x->n; k++, r += 32) {
			char t[INET6_ADDRSTRLEN];
			int bits = 0, b = 0;
			while (b < 128 && (r[16 + b / 8] & (0x80 >> (b % 8))))
				b++;
			bits = b;
			while (b < 128 && !(r[16 + b / 8] & (0x80 >> (b % 8))))
				b++;
			fw_out_puts(o, k ? "," : " ");
			if (b < 128)
				bits = -1;
			if (bits == 0) {
				fw_out_puts(o, "any");
				continue;
			}
			fw_out_puts(o, inet_ntop(AF_INET6, r, t, sizeof(t)));
			if (bits < 0)
				fw_out_printf(o, "/%s", inet_ntop(AF_INET6, r + 16, t, sizeof(t)));
			else if (bits < 128)
				fw_out_printf(o, "/%d", bits);
		}
		break;
	}
	case FW_OP_SRC_SET:
	case FW_OP_DST_SET: {
		const uint32_t *map = x->data;
		int l = mask_len(x->b);
		unsigned low = ntohl(x->a) & 0xff, high = low + (1u << (32 - l)) - 1;
		char sep = '{';
		fw_out_puts(o, " ");
		put_ip(o, x->a);
		fw_out_printf(o, "/%d", l);
		for (unsigned v = low; v <= high; v++) {
			if (!(map[v / 32] >> (v % 32) & 1))
				continue;
			unsigned w = v + 1;
			while (w <= high && (map[w / 32] >> (w % 32) & 1))
				w++;
			fw_out_printf(o, "%c%u", sep, v);
			if (w > v + 2) {   /* three or more in a row print as a range */
				fw_out_printf(o, "-%u", w - 1);
				v = w - 1;
			}
			sep = ',';
		}
		fw_out_puts(o, "}");
		break;
	}
	case FW_OP_SRC_LIST:
	case FW_OP_DST_LIST: {
		const uint32_t *r = x->data;
		for (int k = 0; k < x->n; k++) {
			fw_out_puts(o, k ? "," : " ");
			put_addr(o, r[2 * k], r[2 * k + 1]);
		}
		break;
	}
	case FW_OP_SRCPORT:
	case FW_OP_DSTPORT: {
		const uint16_t *r = x->data;
		for (int k = 0; k < x->n; k++) {
			fw_out_puts(o, k ? "," : " ");
			if (r[2 * k] == r[2 * k + 1])
				fw_out_printf(o, "%u", r[2 * k]);
			else
				fw_out_printf(o, "%u-%u", r[2 * k], r[2 * k + 1]);
		}
		break;
	}
	case FW_OP_IN:
		fw_out_puts(o, (x->flags & FW_F_NOT) ? " out" : " in");
		break;
	case FW_OP_RECV:
	case FW_OP_RECV_TAB:
		fw_out_printf(o, " recv %s", (const char *)x->data);
		break;
	case FW_OP_XMIT:
	case FW_OP_XMIT_TAB:
		fw_out_printf(o, " xmit %s", (const char *)x->data);
		break;
	case FW_OP_VIA:
	case FW_OP_VIA_TAB:
		fw_out_printf(o, " via %s", (const char *)x->data);
		break;
	}
}

/* ---- one instruction, as print_instruction() prints it ---- */

struct show {
	const struct fw_rule *r;
	bool printed[FW_MAX_INSNS + 2];
	bool have_proto, have_src, have_dst, have_probe;
	bool or_block;
};

static void put_u16_list(struct fw_out *o, const struct fw_insn *x)
{
	const uint16_t *r = x->data;
	for (int k = 0; k < x->n; k++) {
		fw_out_puts(o, k ? "," : " ");
		if (r[2 * k] == r[2 * k + 1])
			fw_out_printf(o, "%u", r[2 * k]);
		else
			fw_out_printf(o, "%u-%u", r[2 * k], r[2 * k + 1]);
	}
}

/* print_flags(): " name a,!b" in the table's order; syn,!ack is " setup" */
static void put_flags(struct fw_out *o, const char *name, const struct fw_insn *x,
		      const char *const *names, const uint8_t *bits)
{
	if (x->op == FW_OP_TCPFLAGS && x->a == 0x02 && x->b == 0x10) {
		fw_out_puts(o, " setup");
		return;
	}
	const char *comma = "";
	fw_out_printf(o, " %s ", name);
	for (int k = 0; names[k]; k++) {
		if (x->a & bits[k]) {
			fw_out_printf(o, "%s%s", comma, names[k]);
			comma = ",";
		}
		if (x->b & bits[k]) {
			fw_out_printf(o, "%s!%s", comma, names[k]);
			comma = ",";
		}
	}
}

static void put_insn(const struct fw *fw, struct fw_out *o, struct show *st, int k)
{
	const struct fw_insn *x = &st->r->insn[k];
	if (st->printed[k])
		return;
	if ((x->flags & FW_F_OR) && !st->or_block)
		fw_out_puts(o, " {");
	if ((x->flags & FW_F_NOT) && x->op != FW_OP_IN)
		fw_out_puts(o, " not");
	switch (x->op) {
	case FW_OP_PROTO: {
		const char *name = fw_proto_name((int)x->a);
		if (st->have_proto)
			fw_out_puts(o, " proto");
		if (x->a == 0)
			fw_out_puts(o, " ip");   /* getprotobynumber(0): "ip" */
		else if (name)
			fw_out_printf(o, " %s", name);
		else
			fw_out_printf(o, " %u", x->a);
		break;
	}
	case FW_OP_IP4: fw_out_puts(o, " ip4"); break;
	case FW_OP_IP6: fw_out_puts(o, " ip6"); break;
	case FW_OP_SRC: case FW_OP_SRC_ME: case FW_OP_SRC_SET: case FW_OP_SRC_LIST:
	case FW_OP_SRC_LOOKUP: case FW_OP_SRC6: case FW_OP_SRC_ME6:
		if (st->have_src)
			fw_out_puts(o, x->op == FW_OP_SRC6 || x->op == FW_OP_SRC_ME6 ? " src-ip6"
										   : " src-ip");
		put_addr_insn(fw, o, x);
		break;
	case FW_OP_DST: case FW_OP_DST_ME: case FW_OP_DST_SET: case FW_OP_DST_LIST:
	case FW_OP_DST_LOOKUP: case FW_OP_DST6: case FW_OP_DST_ME6:
		if (st->have_dst)
			fw_out_puts(o, x->op == FW_OP_DST6 || x->op == FW_OP_DST_ME6 ? " dst-ip6"
										   : " dst-ip");
		put_addr_insn(fw, o, x);
		break;
	case FW_OP_SRCPORT:
	case FW_OP_DSTPORT:
		/* print_newports(): the keyword only among the options */
		if (st->have_src && st->have_dst)
			fw_out_puts(o, x->op == FW_OP_SRCPORT ? " src-port" : " dst-port");
		put_u16_list(o, x);
		break;
	case FW_OP_IN: fw_out_puts(o, (x->flags & FW_F_NOT) ? " out" : " in"); break;
	case FW_OP_RECV:
	case FW_OP_RECV_TAB: fw_out_printf(o, " recv %s", (const char *)x->data); break;
	case FW_OP_XMIT:
	case FW_OP_XMIT_TAB: fw_out_printf(o, " xmit %s", (const char *)x->data); break;
	case FW_OP_VIA:
	case FW_OP_VIA_TAB: fw_out_printf(o, " via %s", (const char *)x->data); break;
	case FW_OP_FRAG: {
		static const char *const n[] = { "rf", "df", "mf", "offset", NULL };
		static const uint8_t b[] = { 0x80, 0x40, 0x20, 0x01 };
		put_flags(o, "frag", x, n, b);
		break;
	}
	case FW_OP_IPLEN:
	case FW_OP_IPTTL: {
		const uint16_t *r = x->data;
		fw_out_puts(o, x->op == FW_OP_IPLEN ? " iplen" : " ipttl");
		if (x->n == 1 && r[0] == r[1])
			fw_out_printf(o, " %u", r[0]);
		else
			put_u16_list(o, x);
		break;
	}
	case FW_OP_ICMPTYPE: {
		char sep = ' ';
		fw_out_puts(o, " icmptypes");
		for (int t = 0; t < 32; t++)
			if (x->a >> t & 1) {
				fw_out_printf(o, "%c%d", sep, t);
				sep = ',';
			}
		break;
	}
	case FW_OP_ICMP6TYPE: {
		/* print_icmp6types(): the 7 words' bits in order */
		const uint32_t *map = x->data;
		char sep = ' ';
		fw_out_puts(o, " icmp6types");
		for (int t = 0; t < 7 * 32; t++)
			if (map[t / 32] >> (t % 32) & 1) {
				fw_out_printf(o, "%c%d", sep, t);
				sep = ',';
			}
		break;
	}
	case FW_OP_EXT6HDR: {
		/* print_ext6hdr(): its words, in its order (FreeBSD cannot read this back;
		 * fw_opts.c's opt_ext6list does) */
		char sep = ' ';
		fw_out_puts(o, " extension header:");
		for (int k2 = 0; k2 < FW_EXT6_WORDS; k2++)
			if (x->a & fw_ext6_words[k2].bit) {
				fw_out_printf(o, "%c%s", sep, fw_ext6_words[k2].name);
				sep = ',';
			}
		break;
	}
	case FW_OP_FLOW6ID: {
		/* print_flow6id(): each label followed by ',' and the last by ' ' */
		const uint32_t *l = x->data;
		fw_out_puts(o, " flow-id ");
		for (int k2 = 0; k2 < x->n; k2++)
			fw_out_printf(o, "%u%c", l[k2], k2 == x->n - 1 ? ' ' : ',');
		break;
	}
	case FW_OP_TCPFLAGS: {
		static const char *const n[] = { "syn", "fin", "ack", "psh", "rst", "urg", NULL };
		static const uint8_t b[] = { 0x02, 0x01, 0x10, 0x08, 0x04, 0x20 };
		put_flags(o, "tcpflags", x, n, b);
		break;
	}
	case FW_OP_ESTAB: fw_out_puts(o, " established"); break;
	case FW_OP_NOP: fw_out_printf(o, " // %s", (const char *)x->data); break;
	case FW_OP_PROBE: st->have_probe = true; break;
	case FW_OP_CHECK: break;
	case FW_OP_KEEP:
		fw_out_puts(o, st->have_probe ? " keep-state" : " record-state");
		fw_out_printf(o, " :%s", fw_state_name_str(fw, (int)x->a));
		break;
	case FW_OP_LIMIT: {
		static const struct { const char *w; uint32_t m; } masks[] = {
			{ "all", 0x0f }, { "src-addr", FW_LIM_SRC_ADDR }, { "src-port", FW_LIM_SRC_PORT },
			{ "dst-addr", FW_LIM_DST_ADDR }, { "dst-port", FW_LIM_DST_PORT },
		};
		const char *comma = " ";
		uint32_t m = x->n;
		fw_out_puts(o, st->have_probe ? " limit" : " set-limit");
		for (int k2 = 0; k2 < 5; k2++)
			if ((m & masks[k2].m) == masks[k2].m) {
				m &= ~masks[k2].m;
				fw_out_printf(o, "%s%s", comma, masks[k2].w);
				comma = ",";
			}
		fw_out_printf(o, " %u :%s", x->b, fw_state_name_str(fw, (int)x->a));
		break;
	}
	}
	if (x->flags & FW_F_OR) {
		fw_out_puts(o, " or");
		st->or_block = true;
	} else if (st->or_block) {
		fw_out_puts(o, " }");
		st->or_block = false;
	}
	st->printed[k] = true;
}

/* print_opcode(): the first not yet printed instruction of kind op (op < 0: any but a
 * comment); its index or -1 */
static int put_first(const struct fw *fw, struct fw_out *o, struct show *st, int op)
{
	for (int k = 0; k < st->r->nlist; k++) {
		int xo = st->r->insn[k].op;
		if (st->printed[k] || (op >= 0 && xo != op) || (op < 0 && xo == FW_OP_NOP))
			continue;
		put_insn(fw, o, st, k);
		return k;
	}
	return -1;
}

static bool is_src(int op)
{
	return op == FW_OP_SRC || op == FW_OP_SRC_ME || op == FW_OP_SRC_SET ||
	       op == FW_OP_SRC_LIST || op == FW_OP_SRC_LOOKUP || op == FW_OP_SRC6 ||
	       op == FW_OP_SRC_ME6;
}

static bool is_dst(int op)
{
	return op == FW_OP_DST || op == FW_OP_DST_ME || op == FW_OP_DST_SET ||
	       op == FW_OP_DST_LIST || op == FW_OP_DST_LOOKUP || op == FW_OP_DST6 ||
	       op == FW_OP_DST_ME6;
}

/* print_proto(): ip4/ip6 first, then the protocol (an OR block of them), else "ip" */
static void put_proto(const struct fw *fw, struct fw_out *o, struct show *st)
{
	int proto = 0, ip4 = 0, ip6 = 0;
	for (int k = 0; k < st->r->nlist; k++) {
		const struct fw_insn *x = &st->r->insn[k];
		if (x->op == FW_OP_PROTO)
			proto++;
		else if (x->op == FW_OP_IP4)
			ip4 = 1 + !!(x->flags & FW_F_OR);
		else if (x->op == FW_OP_IP6)
			ip6 = 1 + !!(x->flags & FW_F_OR);
	}
	if (!proto && !ip4 && !ip6) {
		st->have_proto = true;
		fw_out_puts(o, " ip");
		return;
	}
	int k = -1;
	if (ip4 || ip6)
		k = put_first(fw, o, st, ip4 > ip6 ? FW_OP_IP4 : FW_OP_IP6);
	if (k >= 0 && (st->r->insn[k].flags & FW_F_OR))
		k = put_first(fw, o, st, ip4 > ip6 ? FW_OP_IP6 : FW_OP_IP4);
	if (k < 0 || (st->r->insn[k].flags & FW_F_OR))
		for (int l = proto; l > 0; l--) {
			k = put_first(fw, o, st, FW_OP_PROTO);
			if (k < 0 || !(st->r->insn[k].flags & FW_F_OR))
				break;
		}
	st->have_proto = true;
}

/* print_address(): the first (OR block of) addresses of the side, "any" without one;
 * its one port list too, unless it is part of an OR block */
static void put_side(const struct fw *fw, struct fw_out *o, struct show *st, bool src)
{
	int count = 0, portcnt = 0, portop = src ? FW_OP_SRCPORT : FW_OP_DSTPORT;
	const struct fw_rule *r = st->r;
	for (int k = 0; k < r->nlist; k++) {
		int op = r->insn[k].op;
		if (src ? is_src(op) : is_dst(op))
			count++;
		else if (op == portop)
			portcnt++;
	}
	if (!count)
		fw_out_puts(o, " any");
	for (int k = 0; k < r->nlist && count > 0; k++) {
		int op = r->insn[k].op;
		if (!(src ? is_src(op) : is_dst(op)))
			continue;
		put_insn(fw, o, st, k);
		if (!(r->insn[k].flags & FW_F_OR))
			break;
		count--;
	}
	if (portcnt == 1) {
		bool pf = false;
		for (int k = 0; k < r->nlist; k++) {
			if (r->insn[k].op != portop) {
				pf = r->insn[k].flags & FW_F_OR;
				continue;
			}
			if (!pf && !(r->insn[k].flags & FW_F_OR))
				put_insn(fw, o, st, k);
			break;
		}
	}
	if (src)
		st->have_src = true;
	else
		st->have_dst = true;
}

/* show_static_rule(): the action, log, then protocol, source, destination and the
 * remaining options in rule order, the comment last; a rule that began with options
 * (JUSTOPTS) has no protocol/from/to part. */
void fw_out_body(const struct fw *fw, int idx, struct fw_out *o)
{
	const struct fw_rules *rs = fw_rules_get(fw);
	const struct fw_hot *h = &rs->hot[idx];
	const struct fw_rule *r = &rs->rule[idx];
	struct show st = { .r = r };
	switch (h->action) {
	case FW_A_ALLOW: fw_out_puts(o, "allow"); break;
	case FW_A_DENY: fw_out_puts(o, "deny"); break;
	case FW_A_RESET: fw_out_puts(o, r->unreach6 ? "reset6" : "reset"); break;
	case FW_A_COUNT: fw_out_puts(o, "count"); break;
	case FW_A_SKIPTO: fw_out_printf(o, "skipto %u", r->skipto); break;
	case FW_A_CHECK:
		fw_out_printf(o, "check-state :%s", fw_state_name_str(fw, r->check_kidx));
		break;
	case FW_A_UNREACH:
		if (r->unreach6) {
			/* ipv6.c print_unreach6_code(): the name, else the number */
			if (fw_unreach6_name(r->icmp_code))
				fw_out_printf(o, "unreach6 %s", fw_unreach6_name(r->icmp_code));
			else
				fw_out_printf(o, "unreach6 %u", r->icmp_code);
		} else if (r->icmp_code == 1)   /* `unreach host` is listed as `reject` */
			fw_out_puts(o, "reject");
		else if (fw_unreach_name(r->icmp_code))
			fw_out_printf(o, "unreach %s", fw_unreach_name(r->icmp_code));
		else
			fw_out_printf(o, "unreach %u", r->icmp_code);
		break;
	default: fw_out_puts(o, fw->tun.default_to_accept ? "allow" : "deny"); break;
	}
	if (h->log) {
		if (r->log_max)
			fw_out_printf(o, " log logamount %u", r->log_max);
		else
			fw_out_puts(o, " log");
	}
	if (h->action == FW_A_DEFAULT) {
		fw_out_puts(o, " ip from any to any");
		return;
	}
	if (h->action != FW_A_CHECK) {
		if (r->justopts) {
			st.have_proto = st.have_src = st.have_dst = true;
		} else {
			put_proto(fw, o, &st);
			fw_out_puts(o, " from");
			put_side(fw, o, &st, true);
			fw_out_puts(o, " to");
			put_side(fw, o, &st, false);
		}
		while (put_first(fw, o, &st, -1) >= 0)
			;
	}
	put_first(fw, o, &st, FW_OP_NOP);
}

int fw_list_body(const struct fw *fw, int idx, char *buf, size_t len)
{
	struct fw_out o = { .buf = buf, .len = len };
	if (buf && len)
		buf[0] = '\0';
	fw_out_body(fw, idx, &o);
	return (int)o.need;
}

static int digits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static void show_rule(const struct fw *fw, const struct fw_rules *s, const struct fw_ctr *c,
		      int i, bool acct, bool times, int pcw, int bcw, struct fw_out *o)
{
	fw_out_printf(o, "%05u ", s->hot[i].number);
	if (acct)
		fw_out_printf(o, "%*llu %*llu ", pcw, (unsigned long long)c->pkts, bcw,
			      (unsigned long long)c->bytes);
	if (times) {
		/* ctime() without its newline: 24 characters, or as many blanks */
		char ts[32];
		time_t t = (time_t)c->last_s;
		if (c->last_s && ctime_r(&t, ts)) {
			ts[strcspn(ts, "\n")] = '\0';
			fw_out_printf(o, "%s ", ts);
		} else {
			fw_out_printf(o, "%*s ", 24, " ");
		}
	}
	fw_out_body(fw, i, o);
	fw_out_puts(o, "\n");
}

/* ipfw2.c show_dyn_state(); a state past its lifetime that the sweep has not removed
 * yet prints nothing but its newline without -e, as list_dyn_state() does */
struct dyn_show {
	const struct fw *fw;
	int pcw, bcw;        /* counter widths, 0: no counters */
	bool expired;
	struct fw_out *o;
};

static void show_one(void *arg, const struct fw_dyn_entry *s)
{
	const struct dyn_show *ds = arg;
	struct fw_out *o = ds->o;
	if (s->expire == 0 && !s->parent && !ds->expired) {
		fw_out_puts(o, "\n");
		return;
	}
	fw_out_printf(o, "%05u", s->rulenum);
	if (ds->pcw > 0 || ds->bcw > 0)
		fw_out_printf(o, " %*llu %*llu (%us)", ds->pcw, (unsigned long long)s->pcnt, ds->bcw,
			      (unsigned long long)s->bcnt, s->expire);
	if (s->parent)
		fw_out_printf(o, " PARENT %u", s->link);
	else
		fw_out_puts(o, s->limit ? " LIMIT" : " STATE");
	const char *pn = fw_proto_name(s->proto);
	if (pn)
		fw_out_printf(o, " %s", pn);
	else
		fw_out_printf(o, " proto %u", s->proto);
	/* show_dyn_state(): addr_type 4 by inet_ntoa, 6 by inet_ntop */
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	fw_dyn_ntop(s->v6, s->src, s->src6, a);
	fw_dyn_ntop(s->v6, s->dst, s->dst6, b);
	fw_out_printf(o, " %s %u <-> %s %u :%s\n", a, s->sport, b, s->dport,
		      fw_state_name_str(ds->fw, s->kidx));
}

/* The `ipfw -d` listing of the states of rules lo..hi into o */
static void fw_dyn_show(const struct fw *fw, uint32_t lo, uint32_t hi, int pcw, int bcw,
			bool expired, struct fw_out *o)
{
	struct dyn_show ds = { .fw = fw, .pcw = pcw, .bcw = bcw, .expired = expired, .o = o };
	fw_dyn_walk(fw, lo, hi, show_one, &ds);
}

int fw_show(const struct fw *fw, bool acct, bool times, int dyn, const uint32_t *lo,
	    const uint32_t *hi, const int *col, int nnum, struct fw_out *o, struct fw_diag *d)
{
	bool expired = dyn & 4;   /* -e */
	dyn &= 3;
	const struct fw_rules *s = fw_rules_get(fw);
	/* the counters once (threads go on counting), then the widths: the most digits of
	 * the counter of any static rule from the lowest number asked for to the highest
	 * (ipfw_list sets fo.first and fo.last to them, prepare_format_opts measures the
	 * rules between), and with -d of any state's (prepare_format_dyn) */
	struct fw_ctr *ctr = malloc((size_t)s->n * sizeof(*ctr));
	if (!ctr)
		return fw_oom(d);
	uint32_t first = 0, last = FW_DEFAULT_RULE;
	if (nnum) {
		first = FW_DEFAULT_RULE;
		last = 0;
		for (int k = 0; k < nnum; k++) {
			first = lo[k] < first ? lo[k] : first;
			last = hi[k] > last ? hi[k] : last;
		}
	}
	int pcw = 1, bcw = 1;
	for (int i = 0; i < s->n; i++) {
		fw_slot_read(fw, s->rule[i].slot, &ctr[i]);
		if (s->hot[i].number < first || s->hot[i].number > last)
			continue;
		int p = digits(ctr[i].pkts), b = digits(ctr[i].bytes);
		pcw = p > pcw ? p : pcw;
		bcw = b > bcw ? b : bcw;
	}
	uint32_t nstates = dyn ? fw_dyn_total(fw) : 0;
	if (nstates && acct)
		fw_dyn_widths(fw, &pcw, &bcw);
	/* ipfw_show_config(): IP_FW_XGET's states part, an ipfw_obj_ctlv (16 bytes) and an
	 * ipfw_obj_dyntlv (136 bytes on amd64) per state */
	size_t dynsz = 16 + (size_t)nstates * 136;
	if (!nnum) {
		for (int i = 0; i < s->n && dyn != 2; i++)
			show_rule(fw, s, &ctr[i], i, acct, times, pcw, bcw, o);
		if (nstates) {
			fw_out_printf(o, "## Dynamic rules (%u %zu):\n", nstates, dynsz);
			fw_dyn_show(fw, 0, 65535, acct ? pcw : 0, acct ? bcw : 0, expired, o);
		}
		free(ctr);
		return 0;
	}
	int missing = 0, rc = 0;
	for (int k = 0; k < nnum && dyn != 2; k++) {
		int seen = 0;
		for (int i = 0; i < s->n && s->hot[i].number <= hi[k]; i++) {
			if (s->hot[i].number < lo[k])
				continue;
			show_rule(fw, s, &ctr[i], i, acct, times, pcw, bcw, o);
			seen++;
		}
		if (!seen && missing++ == 0) {
			if (lo[k] == hi[k])
				rc = fw_kernel_err(d, col[k], EX_UNAVAILABLE, "rule %u does not exist",
						  lo[k]);
			else
				rc = fw_kernel_err(d, col[k], EX_UNAVAILABLE, "no rules in range %u-%u", lo[k],
					    hi[k]);
		}
	}
	if (nstates) {
		fw_out_puts(o, "## Dynamic rules:\n");
		for (int k = 0; k < nnum; k++)
			fw_dyn_show(fw, lo[k], hi[k], acct ? pcw : 0, acct ? bcw : 0, expired, o);
	}
	free(ctr);
	if (missing > 1) {
		size_t l = strlen(d->msg);
		snprintf(d->msg + l, sizeof(d->msg) - l, " (and %d more)", missing - 1);
	}
	return rc ? -ENOENT : 0;
}
