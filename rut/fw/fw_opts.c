/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_opts.c — the options of an ipfw rule (see fw_cc.h): in, out, via/recv/xmit,
 * frag, iplen, ipttl, icmptypes, the IPv6 ones (src-ip6, dst-ip6, icmp6types,
 * ext6hdr, flow-id), tcpflags, established, keep-state, limit, comments,
 * `not` and `{ ... or ... }` blocks, each compiled to a test, as ipfw2.c's
 * compile_rule() reads them; option words ipfw knows but this forwarder does not
 * implement are refused by name. Called by fw_parse.c after the destination. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "fw_cc.h"
#include "fw_lpm.h"

/* ipfw2.c rule_options: every option word ipfw knows (matched whole, as match_token) */
static const char *const option_words[] = {
	"tagged", "uid", "gid", "jail", "in", "limit", "set-limit", "keep-state",
	"record-state", "bridged", "layer2", "out", "diverted", "diverted-loopback",
	"diverted-output", "xmit", "recv", "via", "fragment", "frag", "fib", "ipoptions",
	"ipopts", "iplen", "ipid", "ipprecedence", "dscp", "iptos", "ipttl", "ipversion", "ipver",
	"estab", "established", "setup", "sockarg", "tcpdatalen", "tcpflags", "tcpflgs",
	"tcpoptions", "tcpopts", "tcpseq", "tcpack", "tcpwin", "icmptype", "icmptypes", "dst-ip",
	"src-ip", "dst-port", "src-port", "proto", "MAC", "mac", "mac-type", "verrevpath",
	"versrcreach", "antispoof", "ipsec", "icmp6type", "icmp6types", "ext6hdr", "flow-id",
	"ipv6", "ip6", "ipv4", "ip4", "dst-ipv6", "dst-ip6", "src-ipv6", "src-ip6", "lookup", "flow",
	"defer-action", "defer-immediate-action", "//",
	"extension",   /* not ipfw's: print_ext6hdr's listing, read back (opt_ext6list) */
	NULL,
};

bool fw_is_option_word(const char *s)
{
	for (int k = 0; s && option_words[k]; k++)
		if (!strcmp(s, option_words[k]))
			return true;
	return false;
}

/* ---- options ---- */

/* recv|xmit|via table(NAME[,VALUE]) (ipfw2.c fill_iface): the interface's name looked
 * up in table NAME, of type iface (created so when missing, as the kernel's
 * compatibility layer creates a table of the type the opcode needs); a value after the
 * comma is read and ignored, as fill_iface ignores it, and the listing has none */
static int parse_iface_table(struct cc *c, int op, int flags, int kcol, int ecol, const char *kw,
			     const char *s)
{
	char name[FW_NAMELEN + 16];
	const char *close = strchr(s + 6, ')');
	if (!close || close[1])
		return fw_err(c->d, ecol, EX_DATAERR, "forgotten parenthesis: '%s' (expected "
			      "%s table(NAME))", s, kw);
	size_t len = (size_t)(close - (s + 6));
	if (len >= sizeof(name))
		return fw_err(c->d, ecol + 6, EX_DATAERR, "Invalid table name: %.*s", (int)len, s + 6);
	memcpy(name, s + 6, len);
	name[len] = '\0';
	char *comma = strchr(name, ',');
	if (comma)
		*comma = '\0';
	if (!fw_table_name_ok(name))
		return fw_err(c->d, ecol + 6, EX_DATAERR,
			      "invalid table name '%s' (letters, digits, '-', '_', '.'; at most 63)",
			      name);
	int ti = fw_table_find(c->fw, name);
	if (ti < 0) {
		if ((ti = fw_table_create(c->fw, name)) < 0)
			return ti == -ENOMEM ? fw_oom(c->d)
					     : fw_err(c->d, ecol, EX_DATAERR,
						      "too many tables (at most %d)", FW_MAX_TABLES);
		fw_table_at(c->fw, ti)->type = FW_TT_IFACE;
	} else if (fw_table_at(c->fw, ti)->type != FW_TT_IFACE) {
		/* the kernel refuses a table of another type (EINVAL) */
		return fw_err(c->d, ecol + 6, EX_DATAERR,
			      "table %s holds addresses; '%s table(%s)' needs a table of type "
			      "iface (ipfw table NAME create type iface)", name, kw, name);
	}
	int off;
	size_t tl = strlen(name) + 8;
	char *text = data_alloc(c, tl, &off);
	if (!text)
		return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
	snprintf(text, tl, "table(%s)", name);
	int top = op == FW_OP_RECV ? FW_OP_RECV_TAB : op == FW_OP_XMIT ? FW_OP_XMIT_TAB
				   : FW_OP_VIA_TAB;
	struct fw_insn *x = add_insn(c, kcol, SEC_OPT, top, flags);
	if (!x)
		return -EINVAL;
	x->a = (uint32_t)ti;
	c->doff[c->ninsn - 1] = off;
	return 0;
}

static int parse_iface(struct cc *c, int op, int flags, int kcol)
{
	const struct fw *fw = c->fw;
	const char *s = tok(c);
	const char *kw = c->t[c->i - 1].s;
	if (!s || is_open(s) || is_close(s) || !strcmp(s, "!"))
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected an interface name, glob (em*) or address after '%s', got %s",
			      kw, GOT(c));
	int ecol = col(c);
	c->i++;
	if (!strcmp(s, "any")) {
		/* ipfw drops "via any" from the rule (it matches everything) */
		if (flags & FW_F_NOT)
			return fw_err(c->d, kcol, EX_DATAERR, "'not %s any' never matches", kw);
		return 1;
	}
	size_t len = strlen(s);
	if (!strncmp(s, "table(", 6))
		return parse_iface_table(c, op, flags, kcol, ecol, kw, s);
	if (len >= FW_IFNAMSIZ)
		return fw_err(c->d, ecol, EX_DATAERR,
			      "interface name '%s' too long (at most %d characters)", s,
			      FW_IFNAMSIZ - 1);
	uint64_t mask = 0;
	if (isdigit((unsigned char)*s)) {
		uint32_t a;
		if (fw_parse_ip4(s, len, &a))
			return fw_err(c->d, ecol, EX_DATAERR,
				      "invalid interface address '%s' (expected a.b.c.d)", s);
		for (int k = 0; k < fw->nifs; k++)
			if (fw->ifaddr[k] == a)
				mask |= 1ull << k;
	} else if (strpbrk(s, "*?[")) {
		for (int k = 0; k < fw->nifs; k++)
			if (!fnmatch(s, fw->ifname[k], 0))
				mask |= 1ull << k;
	} else {
		for (int k = 0; k < fw->nifs; k++)
			if (!strcmp(s, fw->ifname[k]))
				mask |= 1ull << k;
	}
	if (!mask && fw->nifs > 0 && fw->warn_to)
		fw_warn(fw->warn_to, "ppslab-rut: warning: '%s %s' (column %d): no port of this "
			"forwarder is %s; the test never matches (ipfw accepts such rules too)\n",
			kw, s, ecol, isdigit((unsigned char)*s) ? "at that address"
			: strpbrk(s, "*?[") ? "matched by that pattern" : "named so");
	int off;
	char *name = data_alloc(c, len + 1, &off);
	if (!name)
		return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
	memcpy(name, s, len + 1);
	struct fw_insn *x = add_insn(c, kcol, SEC_OPT, op, flags);
	if (!x)
		return -EINVAL;
	x->a = (uint32_t)mask;
	x->b = (uint32_t)(mask >> 32);
	c->doff[c->ninsn - 1] = off;
	return 0;
}

/* a u16 list for iplen/ipttl: N or N-M or N,M,... (ipfw2.c: fill_cmd for one value,
 * add_ports() for ranges and lists); numbers only */
static int parse_u16_list(struct cc *c, int op, int flags, int kcol, const char *kw, long max)
{
	const char *s = tok(c);
	int ecol = col(c);
	if (!s)
		return fw_err(c->d, ecol, EX_DATAERR, "expected a value or a list after '%s', got end of line",
			      kw);
	int off, n = 0;
	uint16_t *pr = data_alloc(c, 2 * FW_MAX_LIST * sizeof(uint16_t), &off);
	if (!pr)
		return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
	for (const char *p = s;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *dash = memchr(p, '-', len);
		long long lo = dec(p, dash ? (size_t)(dash - p) : len, max);
		long long hi = dash ? dec(dash + 1, (size_t)(p + len - dash - 1), max) : lo;
		if (lo < 0 || hi < 0 || lo > hi || n == FW_MAX_LIST)
			return fw_err(c->d, ecol + (int)(p - s), EX_DATAERR,
				      "invalid %s '%.*s' (expected a number 0..%ld, a range or a list)", kw,
				      (int)len, p, max);
		pr[2 * n] = (uint16_t)lo;
		pr[2 * n + 1] = (uint16_t)hi;
		n++;
		if (!e)
			break;
		p = e + 1;
	}
	c->dlen = off + n * 2 * (int)sizeof(uint16_t);
	struct fw_insn *x = add_insn(c, kcol, SEC_OPT, op, flags);
	if (!x)
		return -EINVAL;
	x->n = (uint16_t)n;
	c->doff[c->ninsn - 1] = off;
	c->i++;
	return 0;
}

struct flagname {
	const char *name;
	uint8_t bit;
};
/* ipfw2.c f_tcpflags and (r364117, FreeBSD 13+) f_ipoff, in their listing order */
static const struct flagname tcpflag_names[] = {
	{ "syn", 0x02 }, { "fin", 0x01 }, { "ack", 0x10 }, { "psh", 0x08 }, { "rst", 0x04 },
	{ "urg", 0x20 }, { NULL, 0 },
};
static const struct flagname ipoff_names[] = {
	{ "rf", 0x80 }, { "df", 0x40 }, { "mf", 0x20 }, { "offset", 0x01 }, { NULL, 0 },
};

/* fill_flags(): "a,!b,..." → set/clear; 0, or -1 when a word is not a flag */
static int parse_flags(const struct flagname *tab, const char *s, uint32_t *set, uint32_t *clr,
		       const char **bad)
{
	*set = *clr = 0;
	for (const char *p = s; *p;) {
		bool neg = *p == '!';
		p += neg;
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int k = 0;
		while (tab[k].name && (strlen(tab[k].name) != len || strncmp(tab[k].name, p, len)))
			k++;
		if (!tab[k].name) {
			*bad = p;
			return -1;
		}
		*(neg ? clr : set) |= tab[k].bit;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* The flag list after tcpflags or frag as one word: the lexer makes a '!' at the start
 * of a word a word of its own (ipfw's "not"), but ipfw(8) hands "!ack" to fill_flags
 * whole, so "!" directly followed by the next word is put back together. *used: the
 * tokens it took (0 at the end of the line). */
static const char *flag_word(const struct cc *c, char *buf, size_t len, int *used)
{
	const char *v = tok(c);
	*used = v ? 1 : 0;
	if (v && !strcmp(v, "!") && c->i + 1 < c->n && c->t[c->i + 1].col == c->t[c->i].col + 1) {
		snprintf(buf, len, "!%s", c->t[c->i + 1].s);
		*used = 2;
		return buf;
	}
	return v;
}

/* option words ipfw knows that this forwarder does not implement */
static const char *const unsupported_options[] = {
	"tagged", "uid", "gid", "jail", "bridged", "layer2", "diverted", "diverted-loopback",
	"diverted-output", "fib", "ipoptions", "ipopts", "ipid", "ipprecedence", "dscp", "iptos",
	"ipversion", "ipver", "sockarg", "tcpdatalen", "tcpoptions", "tcpopts", "tcpseq", "tcpack",
	"tcpwin", "MAC", "mac", "mac-type", "verrevpath", "versrcreach", "antispoof", "ipsec",
	"lookup", "flow", "defer-action", "defer-immediate-action", NULL,
};

/* ":name" after keep-state, limit or check-state (ipfw2.c state_check_name) */
int fw_parse_state_name(struct cc *c, bool any_ok, int *kidx)
{
	const char *s = tok(c);
	*kidx = 1;   /* "default" */
	if (!s || s[0] != ':')
		return 0;
	if (any_ok && !strcmp(s + 1, "any")) {
		*kidx = 0;
	} else {
		if (!fw_table_name_ok(s + 1) || !strcmp(s + 1, "any"))
			return fw_err(c->d, col(c), EX_DATAERR, "invalid state name '%s'", s);
		int k = fw_state_name(c->fw, s + 1, true);
		if (k < 0)
			return fw_err(c->d, col(c), EX_DATAERR, "too many state names (at most %d)",
				      FW_MAX_SNAMES - 1);
		*kidx = k;
	}
	c->i++;
	return 0;
}

int fw_add_comment(struct cc *c, int kcol, int flags)
{
	const char *s = tok(c);
	if (!s)
		return 0;   /* "//" alone: an empty comment stores nothing */
	size_t len = strlen(s);
	/* fill_comment(): the words and a blank after each, at most 84 bytes */
	if (len + 1 > 84)
		return fw_err(c->d, col(c), EX_DATAERR, "comment too long (max 80 chars)");
	int off;
	char *txt = data_alloc(c, len + 1, &off);
	if (!txt)
		return fw_err(c->d, kcol, EX_DATAERR, "rule too long");
	memcpy(txt, s, len + 1);
	struct fw_insn *x = add_insn(c, kcol, SEC_OPT, FW_OP_NOP, flags);
	if (!x)
		return -EINVAL;
	c->doff[c->ninsn - 1] = off;
	c->i++;
	return 0;
}

/* The options (ipfw2.c compile_rule, read_options): every word matched whole. */
/* The option being compiled: its word and column, FW_F_NOT after a 'not' (at not_col),
 * whether it stands inside '{ }'; a handler sets state for keep-state and its kin
 * (stored apart from the tests). A handler returns -EINVAL (fw_err), 0 when it stored
 * a test, 1 when there is nothing to test. */
struct optx {
	const char *s;
	int kcol, flags, not_col;
	bool in_block, state;
};

/* in, out: `out` is stored as `not in` (docs/design/ipfw.md#direction-and-interfaces) */
static int opt_dir(struct cc *c, struct optx *o)
{
	int flags = o->flags ^ (!strcmp(o->s, "out") ? FW_F_NOT : 0);
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_IN, flags);
	if (!x)
		return -EINVAL;
	x->a = x->b = 1;   /* (in & 1) == 1 */
	return 0;
}

static int opt_iface(struct cc *c, struct optx *o)
{
	int op = !strcmp(o->s, "via") ? FW_OP_VIA : !strcmp(o->s, "recv") ? FW_OP_RECV : FW_OP_XMIT;
	return parse_iface(c, op, o->flags, o->kcol);
}

static int opt_ipver(struct cc *c, struct optx *o)
{
	const char *s = o->s;
	return add_insn(c, o->kcol, SEC_OPT, s[2] == '4' || s[3] == '4' ? FW_OP_IP4 : FW_OP_IP6,
			o->flags) ? 0 : -EINVAL;
}

static int opt_proto(struct cc *c, struct optx *o)
{
	int rc = fw_parse_proto(c, SEC_OPT, o->flags, false);
	if (rc == 2)
		return fw_err(c->d, col(c), EX_DATAERR,
			      "invalid protocol %s after 'proto' (ip, all, ip4, ip6, a "
			      "name or a number 1..255)", GOT(c));
	return rc;
}

static int opt_addr(struct cc *c, struct optx *o)
{
	if (!tok(c))
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected an address after '%s', got end of line", o->s);
	return fw_parse_addr(c, o->s[0] == 's' ? SEC_SRC : SEC_DST, o->flags);
}

static int opt_port(struct cc *c, struct optx *o)
{
	const char *v = tok(c);
	int rc;
	if (v && fw_prefix(v, "any", 1)) {
		c->i++;
		rc = 1;
	} else if (!v || (rc = fw_parse_ports(c, o->s[0] == 's' ? SEC_SRCPORT : SEC_DSTPORT,
					       o->flags)) == 0) {
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected ports after '%s' (numbers, ranges, a list or "
			      "service names), got %s", o->s, GOT(c));
	}
	return rc < 0 ? rc : 0;
}

/* FreeBSD 13+: `frag [spec]`, a word of the flags mf, df, rf, offset (with '!');
 * without one it is "offset", as before */
static int opt_frag(struct cc *c, struct optx *o)
{
	uint32_t set, clr;
	char fb[FW_MAX_LINE];
	int used;
	const char *bad, *v = flag_word(c, fb, sizeof(fb), &used);
	if (!v || parse_flags(ipoff_names, v, &set, &clr, &bad)) {
		set = 0x01;
		clr = 0;
	} else {
		c->i += used;
	}
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_FRAG, o->flags);
	if (!x)
		return -EINVAL;
	x->a = set;
	x->b = clr;
	return 0;
}

static int opt_iplen(struct cc *c, struct optx *o)
{
	return parse_u16_list(c, FW_OP_IPLEN, o->flags, o->kcol, o->s, 65535);
}

static int opt_ipttl(struct cc *c, struct optx *o)
{
	return parse_u16_list(c, FW_OP_IPTTL, o->flags, o->kcol, o->s, 255);
}

/* fill_icmptypes(): numbers 0..31, comma separated */
static int opt_icmptypes(struct cc *c, struct optx *o)
{
	const char *v = tok(c);
	uint32_t map = 0;
	if (!v)
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected ICMP types after '%s', got end of line", o->s);
	for (const char *p = v;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		long long t = dec(p, len, 255);
		if (t < 0)
			return fw_err(c->d, col(c) + (int)(p - v), EX_DATAERR,
				      "invalid ICMP type '%.*s' (expected numbers 0..31)",
				      (int)len, p);
		if (t > 31)
			return fw_err(c->d, col(c) + (int)(p - v), EX_DATAERR,
				      "ICMP type %lld out of range 0..31", t);
		map |= 1u << t;
		if (!e)
			break;
		p = e + 1;
	}
	c->i++;
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_ICMPTYPE, o->flags);
	if (!x)
		return -EINVAL;
	x->a = map;
	return 0;
}

/* src-ip6, dst-ip6 (and -ipv6): ipv6.c add_srcip6/add_dstip6 */
static int opt_addr6(struct cc *c, struct optx *o)
{
	return fw_parse_addr6_opt(c, o->s[0] == 's' ? SEC_SRC : SEC_DST, o->flags, o->s);
}

/* A comma list of numbers 0..max into vals (at most nmax); the count, or <0 with the
 * diagnostic. what names a value in messages. */
static int num_list(struct cc *c, const char *kw, const char *what, long long max,
		    uint32_t *vals, int nmax)
{
	const char *v = tok(c);
	int n = 0;
	if (!v)
		return fw_err(c->d, col(c), EX_DATAERR, "expected %ss after '%s', got end of line",
			      what, kw);
	for (const char *p = v;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		long long t = dec(p, len, 0xffffffffll);
		if (t < 0)
			return fw_err(c->d, col(c) + (int)(p - v), EX_DATAERR,
				      "invalid %s '%.*s' after '%s' (expected numbers 0..%lld "
				      "separated by commas)", what, (int)len, p, kw, max);
		if (t > max)
			return fw_err(c->d, col(c) + (int)(p - v), EX_DATAERR,
				      "%s %lld out of range 0..%lld", what, t, max);
		if (n == nmax)
			return fw_err(c->d, col(c) + (int)(p - v), EX_DATAERR,
				      "too many %ss after '%s' (at most %d)", what, kw, nmax);
		vals[n++] = (uint32_t)t;
		if (!e)
			break;
		p = e + 1;
	}
	c->i++;
	return n;
}

/* fill_icmp6types(): ICMPv6 types 0..ICMP6_MAXTYPE (201), comma separated, into a
 * 7-word bitmap */
static int opt_icmp6types(struct cc *c, struct optx *o)
{
	uint32_t t[FW_ICMP6_MAXTYPE + 1];
	int n = num_list(c, o->s, "ICMPv6 type", FW_ICMP6_MAXTYPE, t, FW_ICMP6_MAXTYPE + 1);
	if (n < 0)
		return n;
	int off;
	uint32_t *map = data_alloc(c, 7 * sizeof(uint32_t), &off);
	if (!map)
		return fw_err(c->d, o->kcol, EX_DATAERR, "rule too long");
	memset(map, 0, 7 * sizeof(uint32_t));
	for (int k = 0; k < n; k++)
		map[t[k] / 32] |= 1u << (t[k] % 32);
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_ICMP6TYPE, o->flags);
	if (!x)
		return -EINVAL;
	c->doff[c->ninsn - 1] = off;
	return 0;
}

/* fill_ext6hdr(): the words of ipv6.c's ext6hdrcodes, comma separated */
static int opt_ext6hdr(struct cc *c, struct optx *o)
{
	static const struct flagname ext[] = {
		{ "frag", FW_EXT_FRAGMENT }, { "hopopt", FW_EXT_HOPOPTS },
		{ "route", FW_EXT_ROUTING }, { "dstopt", FW_EXT_DSTOPTS }, { "ah", FW_EXT_AH },
		{ "esp", FW_EXT_ESP }, { "rthdr0", FW_EXT_RTHDR0 }, { "rthdr2", FW_EXT_RTHDR2 },
		{ NULL, 0 },
	};
	const char *v = tok(c);
	uint32_t bits = 0;
	if (!v)
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected extension headers after 'ext6hdr' (frag, hopopt, route, "
			      "dstopt, ah, esp, rthdr0, rthdr2), got end of line");
	for (const char *p = v;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int k = 0;
		while (ext[k].name && (strlen(ext[k].name) != len || strncmp(ext[k].name, p, len)))
			k++;
		if (!ext[k].name)
			return fw_err(c->d, col(c) + (int)(p - v), EX_DATAERR,
				      "invalid option for ipv6 exten header '%.*s' (frag, hopopt, "
				      "route, dstopt, ah, esp, rthdr0, rthdr2)", (int)len, p);
		bits |= ext[k].bit;
		if (!e)
			break;
		p = e + 1;
	}
	c->i++;
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_EXT6HDR, o->flags);
	if (!x)
		return -EINVAL;
	x->a = bits;
	return 0;
}

const struct fw_ext6_word fw_ext6_words[FW_EXT6_WORDS] = {
	{ "fragmentation", FW_EXT_FRAGMENT }, { "hop options", FW_EXT_HOPOPTS },
	{ "routing options", FW_EXT_ROUTING }, { "rthdr0", FW_EXT_RTHDR0 },
	{ "rthdr2", FW_EXT_RTHDR2 }, { "destination options", FW_EXT_DSTOPTS },
	{ "authentication header", FW_EXT_AH }, { "encapsulated security payload", FW_EXT_ESP },
};

/* "extension header: fragmentation,hop options,..." as print_ext6hdr lists ext6hdr:
 * read back so that every listing loads (FreeBSD's ipfw does not read it; as limit's
 * comma-joined masks, an extension). Its names have blanks, so words are joined until
 * the last element is a whole name. */
static int opt_ext6list(struct cc *c, struct optx *o)
{
	const struct fw_ext6_word *ext = fw_ext6_words;
	const char *h = tok(c);
	if (!h || strcmp(h, "header:"))
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected 'header:' after 'extension' (the listing of ext6hdr), got %s",
			      GOT(c));
	c->i++;
	int vcol = col(c);
	char buf[256] = "";
	for (;;) {
		const char *w = tok(c);
		if (!w || strlen(buf) + strlen(w) + 2 > sizeof(buf))
			return fw_err(c->d, vcol, EX_DATAERR,
				      "expected extension header names after 'extension header:', "
				      "got %s", GOT(c));
		if (*buf)
			strcat(buf, " ");
		strcat(buf, w);
		c->i++;
		size_t bl = strlen(buf);
		if (buf[bl - 1] == ',')
			continue;
		const char *last = strrchr(buf, ',');
		last = last ? last + 1 : buf;
		bool whole = false, part = false;
		for (int k = 0; k < FW_EXT6_WORDS; k++) {
			size_t ll = strlen(last);
			whole |= !strcmp(ext[k].name, last);
			part |= !strncmp(ext[k].name, last, ll) && ext[k].name[ll] == ' ';
		}
		if (whole)
			break;
		if (!part)
			return fw_err(c->d, vcol, EX_DATAERR,
				      "invalid extension header '%s' after 'extension header:'", last);
	}
	uint32_t bits = 0;
	for (char *e = buf; e;) {
		char *n = strchr(e, ',');
		if (n)
			*n++ = '\0';
		int k = 0;
		while (k < FW_EXT6_WORDS && strcmp(ext[k].name, e))
			k++;
		if (k == FW_EXT6_WORDS)
			return fw_err(c->d, vcol, EX_DATAERR,
				      "invalid extension header '%s' after 'extension header:'", e);
		bits |= ext[k].bit;
		e = n;
	}
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_EXT6HDR, o->flags);
	if (!x)
		return -EINVAL;
	x->a = bits;
	return 0;
}

/* fill_flow6(): flow labels 0..0xfffff, comma separated; compile_rule takes flow-id
 * only on a rule whose protocol is ip6 (EX_USAGE otherwise) */
static int opt_flowid(struct cc *c, struct optx *o)
{
	bool ip6 = false;
	for (int k = 0; k < c->ninsn; k++)
		if (c->insn[k].op == FW_OP_IP6 && !(c->insn[k].flags & FW_F_NOT))
			ip6 = true;
	if (!ip6)
		return fw_err(c->d, o->kcol, EX_USAGE,
			      "flow-id filter is active only for ipv6 protocol (write the rule "
			      "as 'ACTION ip6 from ...' or put 'proto ip6' before it)");
	uint32_t l[FW_PORT_LIST_MAX];
	int n = num_list(c, o->s, "flow label", 0xfffff, l, FW_PORT_LIST_MAX);
	if (n < 0)
		return n;
	int off;
	uint32_t *d = data_alloc(c, (size_t)n * sizeof(uint32_t), &off);
	if (!d)
		return fw_err(c->d, o->kcol, EX_DATAERR, "rule too long");
	memcpy(d, l, (size_t)n * sizeof(uint32_t));
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_FLOW6ID, o->flags);
	if (!x)
		return -EINVAL;
	x->n = (uint16_t)n;
	c->doff[c->ninsn - 1] = off;
	return 0;
}

static int opt_tcpflags(struct cc *c, struct optx *o)
{
	uint32_t set = 0x02, clr = 0x10;   /* setup: syn,!ack */
	if (o->s[0] == 't') {
		char fb[FW_MAX_LINE];
		int used;
		const char *bad, *v = flag_word(c, fb, sizeof(fb), &used);
		if (!v)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected TCP flags after '%s' (syn, fin, ack, psh, "
				      "rst, urg, each may be !negated), got end of line", o->s);
		if (parse_flags(tcpflag_names, v, &set, &clr, &bad))
			return fw_err(c->d, col(c) + (int)(bad - v), EX_DATAERR,
				      "invalid TCP flag '%s' (syn, fin, ack, psh, rst, urg)",
				      bad);
		c->i += used;
	}
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, FW_OP_TCPFLAGS, o->flags);
	if (!x)
		return -EINVAL;
	x->a = set;
	x->b = clr;
	return 0;
}

static int opt_estab(struct cc *c, struct optx *o)
{
	return add_insn(c, o->kcol, SEC_OPT, FW_OP_ESTAB, o->flags) ? 0 : -EINVAL;
}

/* limit's mask: words apart, as compile_rule takes them, or joined by commas as
 * print_limit_mask lists them (so a listing loads back); 0 when there is none */
static uint32_t limit_mask(struct cc *c)
{
	static const struct { const char *w; uint32_t m; } masks[] = {
		{ "all", 0x0f }, { "src-addr", FW_LIM_SRC_ADDR },
		{ "src-port", FW_LIM_SRC_PORT }, { "dst-addr", FW_LIM_DST_ADDR },
		{ "dst-port", FW_LIM_DST_PORT }, { NULL, 0 },
	};
	uint32_t mask = 0;
	for (const char *v; (v = tok(c));) {
		uint32_t m = 0;
		for (const char *w = v; *w;) {
			size_t l = strcspn(w, ",");
			int k = 0;
			while (masks[k].w && (strlen(masks[k].w) != l ||
					      strncmp(masks[k].w, w, l)))
				k++;
			if (!masks[k].w || !l) {
				m = 0;
				break;
			}
			m |= masks[k].m;
			w += l;
			if (*w == ',' && *++w == 0)
				m = 0;   /* a trailing comma */
		}
		if (!m)
			break;
		mask |= m;
		c->i++;
	}
	return mask;
}

/* keep-state, record-state, limit, set-limit */
static int opt_state(struct cc *c, struct optx *o)
{
	const char *s = o->s;
	bool lim = s[0] == 'l' || s[0] == 's';
	if (o->in_block)
		return fw_err(c->d, o->kcol, EX_DATAERR, "'%s' cannot be part of an OR block", s);
	if (c->state_at >= 0)
		return fw_err(c->d, o->kcol, EX_DATAERR,
			      "only one of keep-state, record-state, limit and set-limit "
			      "(another at column %d)", c->state_col);
	if (o->flags)
		return fw_err(c->d, o->not_col, EX_DATAERR, "'not' cannot negate '%s'", s);
	uint32_t mask = 0;
	long long lim_n = 0;
	if (lim) {
		if (!(mask = limit_mask(c)))
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected a limit mask after '%s' (all, src-addr, "
				      "src-port, dst-addr, dst-port), got %s", s, GOT(c));
		const char *v = tok(c);
		lim_n = v ? dec(v, strlen(v), 65534) : -1;
		if (lim_n < 1)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected the number of sessions 1..65534 after the "
				      "limit mask, got %s", GOT(c));
		c->i++;
	}
	int kidx, rc;
	if ((rc = fw_parse_state_name(c, false, &kidx)))
		return rc;
	bool record = s[0] == 'r' || s[0] == 's';
	struct fw_insn *x = add_insn(c, o->kcol, SEC_OPT, lim ? FW_OP_LIMIT : FW_OP_KEEP,
				     record ? FW_F_RECORD : 0);
	if (!x)
		return -EINVAL;
	x->a = (uint32_t)kidx;
	x->b = (uint32_t)lim_n;
	x->n = (uint16_t)mask;
	c->state_at = c->ninsn - 1;
	c->state_col = o->kcol;
	o->state = true;
	return 0;
}

static int opt_comment(struct cc *c, struct optx *o)
{
	int before = c->ninsn;
	if (o->flags)
		return fw_err(c->d, o->not_col, EX_DATAERR, "'not' cannot negate a comment");
	int rc = fw_add_comment(c, o->kcol, 0);
	return rc == 0 && c->ninsn == before ? 1 : rc;
}

/* compile_rule()'s option words, by family */
static const struct {
	const char *w[5];
	int (*fn)(struct cc *c, struct optx *o);
} opt_tab[] = {
	{ { "in", "out" }, opt_dir },
	{ { "via", "recv", "xmit" }, opt_iface },
	{ { "ip4", "ipv4", "ip6", "ipv6" }, opt_ipver },
	{ { "proto" }, opt_proto },
	{ { "src-ip", "dst-ip" }, opt_addr },
	{ { "src-ip6", "src-ipv6", "dst-ip6", "dst-ipv6" }, opt_addr6 },
	{ { "icmp6types", "icmp6type" }, opt_icmp6types },
	{ { "ext6hdr" }, opt_ext6hdr },
	{ { "extension" }, opt_ext6list },
	{ { "flow-id" }, opt_flowid },
	{ { "src-port", "dst-port" }, opt_port },
	{ { "frag", "fragment" }, opt_frag },
	{ { "iplen" }, opt_iplen },
	{ { "ipttl" }, opt_ipttl },
	{ { "icmptypes", "icmptype" }, opt_icmptypes },
	{ { "tcpflags", "tcpflgs", "setup" }, opt_tcpflags },
	{ { "established", "estab" }, opt_estab },
	{ { "keep-state", "record-state", "limit", "set-limit" }, opt_state },
	{ { "//" }, opt_comment },
};

/* A word that is no option here: one ipfw has and this forwarder does not, a missing
 * protocol, or no option at all. */
static int opt_unknown(struct cc *c, const char *s, int kcol)
{
	for (int k = 0; unsupported_options[k]; k++)
		if (!strcmp(s, unsupported_options[k]))
			return fw_err(c->d, kcol, EX_DATAERR,
				      "option '%s' is not supported by ppslab-rut", s);
	if (c->justopts && c->ninsn == 0 && c->i - 1 == c->body_at)
		return fw_err(c->d, kcol, EX_DATAERR,
			      "expected a protocol (ip, all, ip4, tcp, udp, icmp, esp, a "
			      "name or a number 1..255) or an option after '%s', got '%s'",
			      c->t[c->i - 2].s, s);
	return fw_err(c->d, kcol, EX_DATAERR,
		      "expected an option (in, out, via, recv, xmit, proto, src-ip, "
		      "dst-ip, src-port, dst-port, frag, iplen, ipttl, icmptypes, "
		      "tcpflags, setup, established, keep-state, limit, // ...) or the "
		      "end of the rule, got '%s'", s);
}

/* One option word s at kcol: its family's handler, or the diagnostic. */
static int opt_one(struct cc *c, struct optx *o)
{
	for (size_t k = 0; k < sizeof(opt_tab) / sizeof(opt_tab[0]); k++)
		for (int j = 0; j < 5 && opt_tab[k].w[j]; j++)
			if (!strcmp(o->s, opt_tab[k].w[j]))
				return opt_tab[k].fn(c, o);
	return opt_unknown(c, o->s, o->kcol);
}

int fw_parse_options(struct cc *c, int carry_not)
{
	int open_col = 0, block_tests = 0, not_col = carry_not;
	int flags = carry_not ? FW_F_NOT : 0;
	bool need_test = false;   /* after 'or' */
	while (c->i < c->n) {
		const char *s = tok(c);
		int kcol = col(c);
		c->i++;
		if (!strcmp(s, "not") || !strcmp(s, "!")) {
			if (flags)
				return fw_err(c->d, kcol, EX_DATAERR, "double 'not'");
			flags = FW_F_NOT;
			not_col = kcol;
			continue;
		}
		if (flags && (is_open(s) || is_close(s) || !strcmp(s, "or") || !strcmp(s, "|")))
			return fw_err(c->d, kcol, EX_DATAERR,
				      "expected an option after 'not', got '%s'", s);
		if (!strcmp(s, "or") || !strcmp(s, "|")) {
			if (!open_col || !block_tests || need_test)
				return fw_err(c->d, kcol, EX_DATAERR,
					      "'or' must join two options inside '{ }'");
			c->insn[c->ninsn - 1].flags |= FW_F_OR;
			need_test = true;
			continue;
		}
		if (is_open(s)) {
			if (open_col)
				return fw_err(c->d, kcol, EX_DATAERR,
					      "nested '{' (only one level of braces is allowed)");
			open_col = kcol;
			block_tests = 0;
			continue;
		}
		if (is_close(s)) {
			if (!open_col)
				return fw_err(c->d, kcol, EX_DATAERR, "'%s' without a matching '{'", s);
			if (need_test)
				return fw_err(c->d, kcol, EX_DATAERR, "expected an option after 'or', got '%s'", s);
			if (!block_tests)
				return fw_err(c->d, kcol, EX_DATAERR, "empty '{ }' block");
			open_col = 0;
			continue;
		}
		int before = c->ninsn;
		struct optx o = { .s = s, .kcol = kcol, .flags = flags, .not_col = not_col,
				  .in_block = open_col != 0 };
		int rc = opt_one(c, &o);
		if (rc < 0)
			return rc;
		if (rc == 0 && c->ninsn == before && !o.state)
			rc = 1;   /* "src-ip any", "proto ip": nothing stored */
		if (rc == 1 && open_col)
			return fw_err(c->d, kcol, EX_DATAERR, "'%s' with nothing to test cannot be part of "
				      "an OR block", s);
		if (rc == 0) {
			block_tests++;
			need_test = false;
		}
		flags = 0;
	}
	if (flags)
		return fw_err(c->d, c->eol_col, EX_DATAERR,
			      "expected an option after the 'not' at column %d, got end of line", not_col);
	if (need_test)
		return fw_err(c->d, c->eol_col, EX_DATAERR, "expected an option after 'or', got end of line");
	if (open_col)
		return fw_err(c->d, c->eol_col, EX_DATAERR,
			      "expected '}' to close the '{' at column %d, got end of line", open_col);
	return 0;
}
