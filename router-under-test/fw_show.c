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
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <arpa/inet.h>

#include "fw_impl.h"

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

static void put_insn(struct fw_out *o, const struct fw_insn *x)
{
	switch (x->op) {
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
		fw_out_printf(o, " recv %s", (const char *)x->data);
		break;
	case FW_OP_XMIT:
		fw_out_printf(o, " xmit %s", (const char *)x->data);
		break;
	case FW_OP_VIA:
		fw_out_printf(o, " via %s", (const char *)x->data);
		break;
	}
}

enum { S_NONE, S_PROTO, S_SRC, S_SRCPORT, S_DST, S_DSTPORT, S_OPT };

static int section(int op)
{
	switch (op) {
	case FW_OP_PROTO: return S_PROTO;
	case FW_OP_SRC: case FW_OP_SRC_ME: case FW_OP_SRC_SET: case FW_OP_SRC_LIST: return S_SRC;
	case FW_OP_SRCPORT: return S_SRCPORT;
	case FW_OP_DST: case FW_OP_DST_ME: case FW_OP_DST_SET: case FW_OP_DST_LIST: return S_DST;
	case FW_OP_DSTPORT: return S_DSTPORT;
	default: return S_OPT;
	}
}

/* Moves the listing from section *cur to next, printing the keywords and the defaults
 * of the sections passed (ipfw2's show_prerequisites()). */
static void advance(struct fw_out *o, int *cur, int next, const int *count)
{
	while (*cur < next) {
		int s = *cur;
		if ((s == S_PROTO && !count[S_PROTO]) || ((s == S_SRC || s == S_DST) && !count[s]))
			fw_out_puts(o, s == S_PROTO ? " ip" : " any");
		s++;
		if (s == S_SRC)
			fw_out_puts(o, " from");
		else if (s == S_DST)
			fw_out_puts(o, " to");
		*cur = s;
	}
}

void fw_out_body(const struct fw *fw, int idx, struct fw_out *o)
{
	const struct fw_hot *h = &fw->rules.hot[idx];
	const struct fw_rule *r = &fw->rules.rule[idx];
	switch (h->action) {
	case FW_A_ALLOW: fw_out_puts(o, "allow"); break;
	case FW_A_DENY: fw_out_puts(o, "deny"); break;
	case FW_A_RESET: fw_out_puts(o, "reset"); break;
	case FW_A_COUNT: fw_out_puts(o, "count"); break;
	case FW_A_SKIPTO: fw_out_printf(o, "skipto %u", r->skipto); break;
	case FW_A_UNREACH:
		if (r->icmp_code == 1)   /* `unreach host` is listed as `reject` */
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
	int cur = S_NONE, count[S_OPT + 1] = { 0 };
	bool in_block = false;
	for (int k = 0; k < r->nlist; k++) {
		const struct fw_insn *x = &r->insn[k];
		int s = section(x->op);
		advance(o, &cur, s, count);
		count[s]++;
		if ((x->flags & FW_F_OR) && !in_block)
			fw_out_puts(o, " {");
		if ((x->flags & FW_F_NOT) && x->op != FW_OP_IN)
			fw_out_puts(o, " not");
		put_insn(o, x);
		if (x->flags & FW_F_OR) {
			fw_out_puts(o, " or");
			in_block = true;
		} else if (in_block) {
			fw_out_puts(o, " }");
			in_block = false;
		}
	}
	advance(o, &cur, S_DSTPORT, count);
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

static void show_rule(const struct fw *fw, int i, bool acct, bool times, int pcw, int bcw,
		      struct fw_out *o)
{
	const struct fw_ctr *c = &fw->rules.ctr[i];
	fw_out_printf(o, "%05u ", fw->rules.hot[i].number);
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

int fw_show(const struct fw *fw, bool acct, bool times, const uint32_t *lo, const uint32_t *hi,
	    const int *col, int nnum, struct fw_out *o, struct fw_diag *d)
{
	const struct fw_rules *s = &fw->rules;
	/* widths are the most digits of any static rule's counter, even when only
	 * some rules are listed; no other minimum */
	int pcw = 1, bcw = 1;
	for (int i = 0; i < s->n; i++) {
		int p = digits(s->ctr[i].pkts), b = digits(s->ctr[i].bytes);
		pcw = p > pcw ? p : pcw;
		bcw = b > bcw ? b : bcw;
	}
	if (!nnum) {
		for (int i = 0; i < s->n; i++)
			show_rule(fw, i, acct, times, pcw, bcw, o);
		return 0;
	}
	int missing = 0, rc = 0;
	for (int k = 0; k < nnum; k++) {
		int seen = 0;
		for (int i = 0; i < s->n && s->hot[i].number <= hi[k]; i++) {
			if (s->hot[i].number < lo[k])
				continue;
			show_rule(fw, i, acct, times, pcw, bcw, o);
			seen++;
		}
		if (!seen && missing++ == 0)
			rc = fw_err(d, col[k], EX_UNAVAILABLE, "rule %u does not exist", lo[k]);
	}
	if (missing > 1) {
		size_t l = strlen(d->msg);
		snprintf(d->msg + l, sizeof(d->msg) - l, " (and %d more)", missing - 1);
	}
	return rc ? -ENOENT : 0;
}
