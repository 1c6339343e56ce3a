/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_addr.c — the address, port and protocol parts of an ipfw rule (see fw_cc.h): SRC
 * and DST (any, me, a.b.c.d[/N|:mask], sets, lists, tables), their ports and the
 * protocol, each compiled to a test. Called by fw_parse.c for the rule's sections and
 * by fw_opts.c for the options that take the same values (src-ip, dst-port, proto). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <arpa/inet.h>

#include "fw_cc.h"
#include "fw_lpm.h"
#include "fw_tab.h"

/* ---- addresses ---- */

/* a.b.c.d, strictly: four decimal octets (inet_aton would also take "10.1" and hex) */
int fw_parse_ip4(const char *s, size_t len, uint32_t *out)
{
	uint32_t v = 0;
	size_t k = 0;
	for (int part = 0; part < 4; part++) {
		size_t start = k;
		unsigned oct = 0;
		while (k < len && isdigit((unsigned char)s[k]) && k - start < 3)
			oct = oct * 10 + (unsigned)(s[k++] - '0');
		if (k == start || oct > 255)
			return -1;
		v = v << 8 | oct;
		if (part < 3) {
			if (k >= len || s[k] != '.')
				return -1;
			k++;
		}
	}
	if (k != len)
		return -1;
	*out = htonl(v);
	return 0;
}

static uint32_t plen_mask(int plen)
{
	return htonl(plen ? 0xffffffffu << (32 - plen) : 0);
}

/* addr[/N | :mask] from s[0..len), network order, address masked */
static int parse_elem(struct cc *c, int ecol, const char *s, size_t len, uint32_t *addr,
		      uint32_t *mask)
{
	size_t k = 0;
	while (k < len && s[k] != '/' && s[k] != ':')
		k++;
	if (fw_parse_ip4(s, k, addr))
		return fw_err(c->d, ecol, EX_DATAERR,
			      "invalid address '%.*s' (expected a.b.c.d, 'any' or 'me'; host "
			      "names are not resolved)", (int)len, s);
	*mask = 0xffffffffu;
	if (k < len && s[k] == '/') {
		long long p = dec(s + k + 1, len - k - 1, 32);
		if (p < 0)
			return fw_err(c->d, ecol + (int)k, EX_DATAERR,
				      "invalid prefix length in '%.*s' (expected /0../32)", (int)len, s);
		*mask = plen_mask((int)p);
	} else if (k < len) {
		if (fw_parse_ip4(s + k + 1, len - k - 1, mask))
			return fw_err(c->d, ecol + (int)k + 1, EX_DATAERR,
				      "invalid mask in '%.*s' (expected a.b.c.d:m.m.m.m)", (int)len, s);
	}
	*addr &= *mask;   /* stored masked: 10.1.2.3/24 is 10.1.2.0/24 */
	return 0;
}

/* a.b.c.d[/N]{x,y,a-b}: the last octet must be one of the listed values (N 24..32) */
static int parse_set(struct cc *c, int sec, int flags, int ecol, const char *s)
{
	const char *br = strchr(s, '{');
	size_t blen = (size_t)(br - s);
	size_t slen = strlen(s);
	if (s[slen - 1] != '}' || strchr(br + 1, '{'))
		return fw_err(c->d, ecol + (int)slen, EX_DATAERR,
			      "expected '}' to end the address set '%s'", s);
	const char *sl = memchr(s, '/', blen);
	uint32_t addr;
	int plen = 24;
	if (fw_parse_ip4(s, sl ? (size_t)(sl - s) : blen, &addr))
		return fw_err(c->d, ecol, EX_DATAERR,
			      "invalid address in the set '%s' (expected a.b.c.d/N{x,y,...})", s);
	if (sl) {
		long long p = dec(sl + 1, (size_t)(br - sl - 1), 32);
		/* fill_ip(): "invalid set with mask %d" outside 24..31 */
		if (p < 24 || p > 31)
			return fw_err(c->d, ecol + (int)(sl - s), EX_DATAERR,
				      "invalid set with mask %lld in '%s' (an address set needs /24../31)",
				      p < 0 ? 0 : p, s);
		plen = (int)p;
	}
	uint32_t mask = plen_mask(plen);
	addr &= mask;
	unsigned low = ntohl(addr) & 0xff, high = low + (1u << (32 - plen)) - 1;
	int off;
	uint32_t *map = data_alloc(c, 8 * sizeof(uint32_t), &off);
	if (!map)
		return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
	memset(map, 0, 8 * sizeof(uint32_t));
	const char *p = br + 1, *end = s + slen - 1;
	int count = 0;
	while (p <= end) {
		const char *e = p;
		while (e < end && *e != ',')
			e++;
		if (e == p)
			return fw_err(c->d, ecol + (int)(p - s), EX_DATAERR,
				      "empty element in the address set '%s'", s);
		const char *dash = memchr(p, '-', (size_t)(e - p));
		long long lo = dec(p, (size_t)((dash ? dash : e) - p), 99999);
		long long hi = dash ? dec(dash + 1, (size_t)(e - dash - 1), 99999) : lo;
		int ecol2 = ecol + (int)(p - s);
		if (lo < 0 || hi < 0)
			return fw_err(c->d, ecol2, EX_DATAERR,
				      "invalid set element '%.*s' (expected a number %u..%u or a range)",
				      (int)(e - p), p, low, high);
		if ((unsigned)lo < low || (unsigned)hi > high || lo > hi)
			return fw_err(c->d, ecol2, EX_DATAERR,
				      "set element '%.*s' out of range %u..%u for /%d", (int)(e - p), p,
				      low, high, plen);
		for (long long v = lo; v <= hi; v++)
			map[v / 32] |= 1u << (v % 32);
		count++;
		p = e + 1;
	}
	if (!count)
		return fw_err(c->d, ecol + (int)blen, EX_DATAERR, "empty address set '%s'", s);
	struct fw_insn *x = add_insn(c, ecol, sec, sec == SEC_SRC ? FW_OP_SRC_SET : FW_OP_DST_SET,
				     flags);
	if (!x)
		return -EINVAL;
	x->a = addr;
	x->b = mask;
	c->doff[c->ninsn - 1] = off;
	return 0;
}

static int parse_addr6(struct cc *c, int sec, int flags, int ecol, const char *s);
static bool is_addr6(const char *s);

/* table(NAME) or table(NAME,VALUE) (ipfw2.c fill_table): an address lookup; the table
 * is created when missing, as FreeBSD's compatibility layer does. */
static int parse_table(struct cc *c, bool src, int flags, int ecol, const char *s)
{
	char name[FW_NAMELEN + 16];
	const char *close = strchr(s + 6, ')');
	if (!close || close[1])
		return fw_err(c->d, ecol, EX_DATAERR, "expected table(NAME) or table(NAME,VALUE), got '%s'",
			      s);
	size_t len = (size_t)(close - (s + 6));
	if (len >= sizeof(name))
		return fw_err(c->d, ecol, EX_DATAERR, "invalid table name in '%s'", s);
	memcpy(name, s + 6, len);
	name[len] = '\0';
	char *comma = strchr(name, ',');
	long long val = -1;
	if (comma) {
		*comma = '\0';
		val = dec(comma + 1, strlen(comma + 1), UINT32_MAX);
		if (val < 0)
			return fw_err(c->d, ecol + (int)(comma - name) + 7, EX_DATAERR,
				      "invalid table value '%s' in '%s' (expected a number)", comma + 1, s);
	}
	if (!fw_table_name_ok(name))
		return fw_err(c->d, ecol + 6, EX_DATAERR,
			      "invalid table name '%s' (letters, digits, '-', '_', '.'; at most 63)",
			      name);
	int ti = fw_table_find(c->fw, name);
	if (ti < 0 && (ti = fw_table_create(c->fw, name)) < 0)
		return ti == -ENOMEM ? fw_oom(c->d)
				     : fw_err(c->d, ecol, EX_DATAERR, "too many tables (at most %d)",
					      FW_MAX_TABLES);
	if (fw_table_at(c->fw, ti)->type != FW_TT_ADDR)
		return fw_err(c->d, ecol + 6, EX_DATAERR,
			      "table %s holds interface names; an address needs a table of type "
			      "addr", name);
	struct fw_insn *x = add_insn(c, ecol, src ? SEC_SRC : SEC_DST,
				     src ? FW_OP_SRC_LOOKUP : FW_OP_DST_LOOKUP, flags);
	if (!x)
		return -EINVAL;
	x->a = (uint32_t)ti;
	if (val >= 0) {
		x->n = 1;
		x->b = (uint32_t)val;
	}
	return 0;
}


/* compile_rule's proto is IPPROTO_IPV6: the rule's protocol (or a `proto` before)
 * is ip6, not negated */
static bool rule_ip6(const struct cc *c)
{
	for (int k = 0; k < c->ninsn; k++)
		if (c->insn[k].op == FW_OP_IP6 && !(c->insn[k].flags & FW_F_NOT))
			return true;
	return false;
}

int fw_parse_addr6_opt(struct cc *c, int sec, int flags, const char *kw)
{
	const char *s = tok(c);
	int ecol = col(c);
	bool src = sec == SEC_SRC;
	if (!s)
		return fw_err(c->d, ecol, EX_DATAERR,
			      "expected an IPv6 address after '%s', got end of line", kw);
	if (!strncmp(s, "table(", 6)) {
		c->i++;
		return parse_table(c, src, flags, ecol, s);
	}
	/* fill_ip6: "any" stores nothing, "me" and "me6" are O_IP6_*_ME */
	if (!strcmp(s, "any")) {
		c->i++;
		return 1;
	}
	if (!strcmp(s, "me") || !strcmp(s, "me6")) {
		c->i++;
		return add_insn(c, ecol, sec, src ? FW_OP_SRC_ME6 : FW_OP_DST_ME6, flags) ? 0 : -EINVAL;
	}
	if (!is_addr6(s))
		return fw_err(c->d, ecol, EX_DATAERR,
			      "bad IPv6 address '%s' after '%s' (expected any, me, me6, table(NAME), "
			      "or IPv6 addresses ADDR[/N] separated by commas)", s, kw);
	c->i++;
	return parse_addr6(c, sec, flags, ecol, s);
}

int fw_parse_addr(struct cc *c, int sec, int flags)
{
	const char *s = tok(c);
	int ecol = col(c);
	bool src = sec == SEC_SRC;
	if (!s || !strcmp(s, "{") || !strcmp(s, "(") || !strcmp(s, "}") || !strcmp(s, ")") ||
	    !strcmp(s, "!"))
		return fw_err(c->d, ecol, EX_DATAERR,
			      "expected an address (any, me, me6, a.b.c.d[/N], a.b.c.d:mask, "
			      "a.b.c.d/N{x,y}, an IPv6 address[/N], a list a,b,c) after '%s', got %s",
			      c->i > 0 ? c->t[c->i - 1].s : "from", GOT(c));
	c->i++;
	if (fw_prefix(s, "any", 1))
		return 1;
	/* add_src/add_dst: on an ip6 rule every address is add_srcip6's, so `me` is
	 * O_IP6_SRC_ME (listed me6) and an IPv4 address is a bad one */
	if (rule_ip6(c) && (sec == SEC_SRC || sec == SEC_DST) && strncmp(s, "table(", 6)) {
		c->i--;
		return fw_parse_addr6_opt(c, sec, flags, c->i > 0 ? c->t[c->i - 1].s : "from");
	}
	if (fw_prefix(s, "me", 1))
		return add_insn(c, ecol, sec, src ? FW_OP_SRC_ME : FW_OP_DST_ME, flags) ? 0 : -EINVAL;
	if (!strcmp(s, "me6"))
		return add_insn(c, ecol, sec, src ? FW_OP_SRC_ME6 : FW_OP_DST_ME6, flags) ? 0 : -EINVAL;
	if (is_addr6(s))
		return parse_addr6(c, sec, flags, ecol, s);
	if (!strncmp(s, "table(", 6))
		return parse_table(c, sec == SEC_SRC || sec == SEC_SRCPORT, flags, ecol, s);
	if (strchr(s, '{'))
		return parse_set(c, sec, flags, ecol, s);
	if (strchr(s, ',')) {
		/* a,b/N,c:m — any element may match (FreeBSD >= 5) */
		int off, n = 0;
		uint32_t *pairs = data_alloc(c, 2 * FW_MAX_LIST * sizeof(uint32_t), &off);
		if (!pairs)
			return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
		const char *p = s;
		for (;;) {
			const char *e = strchr(p, ',');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			if (!len)
				return fw_err(c->d, ecol + (int)(p - s), EX_DATAERR,
					      "empty element in the address list '%s'", s);
			if (n == FW_ADDR_LIST_MAX)
				return fw_err(c->d, ecol, EX_DATAERR,
					      "address list too long (at most %d addresses, as "
					      "FreeBSD's ipfw)", FW_ADDR_LIST_MAX);
			int rc = parse_elem(c, ecol + (int)(p - s), p, len, &pairs[2 * n],
					    &pairs[2 * n + 1]);
			if (rc)
				return rc;
			n++;
			if (!e)
				break;
			p = e + 1;
		}
		c->dlen = off + n * 2 * (int)sizeof(uint32_t);   /* give back the unused part */
		struct fw_insn *x = add_insn(c, ecol, sec, src ? FW_OP_SRC_LIST : FW_OP_DST_LIST,
					     flags);
		if (!x)
			return -EINVAL;
		x->n = (uint16_t)n;
		c->doff[c->ninsn - 1] = off;
		return 0;
	}
	uint32_t addr, mask;
	int rc = parse_elem(c, ecol, s, strlen(s), &addr, &mask);
	if (rc)
		return rc;
	if (!mask)
		return 1;   /* a /0 mask is `any` (docs/design/ipfw.md#addresses) */
	struct fw_insn *x = add_insn(c, ecol, sec, src ? FW_OP_SRC : FW_OP_DST, flags);
	if (!x)
		return -EINVAL;
	x->a = addr;
	x->b = mask;
	return 0;
}

/* An IPv6 address list (fill_ip6): ADDR[/N] elements separated by commas, each one
 * address and mask of 16 bytes; an element ::/0 is left out, as fill_ip6 leaves it
 * (a list of nothing else is `any`: no test, IPv4 packets too). 1 for any, 0, or <0. */
static int parse_addr6(struct cc *c, int sec, int flags, int ecol, const char *s)
{
	int off, n = 0;
	uint8_t *pairs = data_alloc(c, 32 * FW_ADDR_LIST_MAX, &off);
	if (!pairs)
		return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
	const char *p = s;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int pcol = ecol + (int)(p - s);
		char a[INET6_ADDRSTRLEN];
		const char *sl = memchr(p, '/', len);
		size_t al = sl ? (size_t)(sl - p) : len;
		if (!len)
			return fw_err(c->d, pcol, EX_DATAERR, "empty element in the address list '%s'", s);
		if (n == FW_ADDR_LIST_MAX)
			return fw_err(c->d, ecol, EX_DATAERR,
				      "address list too long (at most %d addresses, as FreeBSD's "
				      "ipfw)", FW_ADDR_LIST_MAX);
		uint8_t *ad = pairs + 32 * n, *mk = ad + 16;
		if (al >= sizeof(a))
			return fw_err(c->d, pcol, EX_DATAERR, "bad IPv6 address '%.*s'", (int)len, p);
		memcpy(a, p, al);
		a[al] = 0;
		if (inet_pton(AF_INET6, a, ad) != 1)
			return fw_err(c->d, pcol, EX_DATAERR, "bad IPv6 address '%s'", a);
		long long bits = 128;
		if (sl) {
			bits = dec(sl + 1, len - al - 1, 128);
			if (bits < 0)
				return fw_err(c->d, pcol + (int)al + 1, EX_DATAERR,
					      "bad prefix length '%.*s' (0..128)", (int)(len - al - 1),
					      sl + 1);
		}
		for (int b = 0; b < 16; b++) {
			int k = (int)bits - 8 * b;
			mk[b] = k >= 8 ? 0xff : k <= 0 ? 0 : (uint8_t)(0xff << (8 - k));
			ad[b] &= mk[b];
		}
		/* fill_ip6: an element of width 0 is left out of the list; `not` of a
		 * list of nothing else never matches */
		if (bits == 0) {
			if (!e && n == 0 && (flags & FW_F_NOT))
				return fw_err(c->d, pcol, EX_DATAERR, "not any never matches");
		} else {
			n++;
		}
		if (!e)
			break;
		p = e + 1;
	}
	c->dlen = off + n * 32;   /* give back the unused part */
	if (!n)
		return 1;   /* nothing but ::/0: any, no test (fill_ip6's F_LEN 0) */
	struct fw_insn *x = add_insn(c, ecol, sec, sec == SEC_SRC ? FW_OP_SRC6 : FW_OP_DST6, flags);
	if (!x)
		return -EINVAL;
	x->n = (uint16_t)n;
	c->doff[c->ninsn - 1] = off;
	return 0;
}

/* ipfw2.c add_src/add_dst: an IPv6 address when the first element parses as one */
static bool is_addr6(const char *s)
{
	char a[INET6_ADDRSTRLEN];
	uint8_t b[16];
	size_t l = strcspn(s, "/,");
	if (!strchr(s, ':') || l >= sizeof(a))
		return false;
	memcpy(a, s, l);
	a[l] = 0;
	return inet_pton(AF_INET6, a, b) == 1;
}

/* ---- ports ---- */

/* one port: a number 0..65535 or a service name; -1 unknown name, -2 bad number */
static long port_value(const char *s, size_t len)
{
	char name[64];
	if (len && isdigit((unsigned char)s[0])) {
		long long v = dec(s, len, 65535);
		return v == -2 ? -2 : v < 0 ? -1 : (long)v;
	}
	if (!len || len >= sizeof(name))
		return -1;
	memcpy(name, s, len);
	name[len] = '\0';
	return fw_service_port(name);
}

/* PORTS: 22,80,1000-2000,http. Returns 1 and adds a test, 0 when the word is not a
 * port list at all (an unknown name in first place: the caller tries what else may
 * follow), <0 on error. */
int fw_parse_ports(struct cc *c, int sec, int flags)
{
	const char *s = tok(c);
	int ecol = col(c);
	int off, n = 0;
	uint16_t *pr = data_alloc(c, 2 * FW_MAX_LIST * sizeof(uint16_t), &off);
	if (!pr)
		return fw_err(c->d, ecol, EX_DATAERR, "rule too long");
	const char *p = s;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int pcol = ecol + (int)(p - s);
		long lo, hi;
		if (!len)
			return fw_err(c->d, pcol, EX_DATAERR, "empty element in the port list '%s'", s);
		if (n == FW_PORT_LIST_MAX)
			return fw_err(c->d, ecol, EX_DATAERR, "too many ports/ranges (at most %d in "
				      "one list, as FreeBSD's kernel takes)", FW_PORT_LIST_MAX);
		lo = port_value(p, len);   /* whole element first: names may contain '-' */
		hi = lo;
		if (lo == -1) {
			const char *dash = memchr(p + 1, '-', len - 1);
			if (dash) {
				lo = port_value(p, (size_t)(dash - p));
				hi = port_value(dash + 1, (size_t)(p + len - dash - 1));
			}
		}
		if (lo == -1 || hi == -1) {
			if (n == 0 && !e && !isdigit((unsigned char)*s)) {
				c->dlen = off;
				return 0;
			}
			return fw_err(c->d, pcol, EX_DATAERR,
				      "invalid port '%.*s' in '%s' (expected a number 0..65535, a range "
				      "or a service name)", (int)len, p, s);
		}
		if (lo == -2 || hi == -2)
			return fw_err(c->d, pcol, EX_DATAERR, "port '%.*s' out of range 0..65535",
				      (int)len, p);
		if (lo > hi)
			return fw_err(c->d, pcol, EX_DATAERR,
				      "empty port range '%.*s' (low end above high end)", (int)len, p);
		pr[2 * n] = (uint16_t)lo;
		pr[2 * n + 1] = (uint16_t)hi;
		n++;
		if (!e)
			break;
		p = e + 1;
	}
	c->dlen = off + n * 2 * (int)sizeof(uint16_t);
	struct fw_insn *x = add_insn(c, ecol, sec, sec == SEC_SRCPORT ? FW_OP_SRCPORT : FW_OP_DSTPORT,
				     flags);
	if (!x)
		return -EINVAL;
	x->n = (uint16_t)n;
	x->a = pr[0];
	x->b = pr[1];
	c->doff[c->ninsn - 1] = off;
	c->i++;
	return 1;
}

/* [not] PORTS | any, optional after an address. Returns 0 (done, maybe nothing), <0.
 * After the destination, "not" followed by an option ("to any not via em0") is the
 * option's: *not_col then says where it was (ipfw2 carries the flag the same way). */
int fw_parse_opt_ports(struct cc *c, int sec, int *not_col)
{
	int flags = 0, ncol = 0;
	const char *s = tok(c);
	if (s && (fw_prefix(s, "not", 1) || !strcmp(s, "!"))) {
		flags = FW_F_NOT;
		ncol = col(c);
		c->i++;
		s = tok(c);
	}
	if (s && fw_prefix(s, "any", 1)) {
		if (flags)
			return fw_err(c->d, ncol, EX_DATAERR, "'not any' never matches");
		c->i++;
		return 0;
	}
	if (s && strcmp(s, "{") && strcmp(s, "(")) {
		int rc = fw_parse_ports(c, sec, flags);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	if (flags && sec == SEC_DSTPORT && (fw_is_option_word(tok(c)) || is_not(tok(c)))) {
		*not_col = ncol;
		return 0;
	}
	if (flags)
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected ports after 'not' (a number, a range, a list or a service "
			      "name), got %s", GOT(c));
	return 0;
}

/* ---- protocols ---- */

/* ipfw2.c add_proto_compat() (compat: the rule's protocol) and add_proto() (the
 * `proto` option): `ip` (exactly) and `all` (a prefix) store no test; ip4/ipv4 and
 * ip6/ipv6 are "IPv4 only" / "IPv6 only" (O_IP4, O_IP6), not IP protocols 4 and 41 —
 * add_proto() takes only ip4/ip6; anything else is a number 1..255 or a name, looked
 * up as getprotobyname(3) does, aliases in any case ("TCP") — except that the alias
 * "IP" is /etc/protocols' 0, a protocol no IPv4 packet has: such a rule never matches,
 * on FreeBSD as here. Returns 1 for no test, 0 when a test was added, 2 when the word
 * is not a protocol, <0 on error. */
int fw_parse_proto(struct cc *c, int sec, int flags, bool compat)
{
	const char *s = tok(c);
	int ecol = col(c);
	int p, op = FW_OP_PROTO;
	if (!s)
		return 2;
	/* `all` is a keyword prefix in ipfw2's add_proto(); `ip` is /etc/protocols' 0:
	 * both store no protocol test (docs/design/ipfw.md#ip-and-all) */
	if (fw_prefix(s, "all", 1) || !strcmp(s, "ip")) {
		c->i++;
		return 1;
	}
	if (!strcmp(s, "ip4") || (compat && !strcmp(s, "ipv4"))) {
		op = FW_OP_IP4;
		p = 0;
	} else if (!strcmp(s, "ip6") || (compat && !strcmp(s, "ipv6"))) {
		op = FW_OP_IP6;
		p = 0;
	} else if (!strcasecmp(s, "ip")) {
		p = 0;
	} else if (isdigit((unsigned char)*s)) {
		long long v = dec(s, strlen(s), 255);
		if (v < 1)
			return fw_err(c->d, ecol, EX_DATAERR,
				      "invalid protocol number '%s' (1..255; 'ip' or 'all' for any)", s);
		p = (int)v;
	} else if ((p = fw_proto_by_name(s)) < 0) {
		return 2;
	}
	struct fw_insn *x = add_insn(c, ecol, sec, op, flags);
	if (!x)
		return -EINVAL;
	if (op == FW_OP_PROTO) {
		x->a = (uint32_t)p;
		x->b = 0xff;   /* compared as (proto & b) == a, like an address */
	}
	c->i++;
	return 0;
}
