/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_parse.c — the ipfw rule language: a lexer for one line and a compiler from tokens
 * to a compiled rule (fw_impl.h), with diagnostics that name the column and what was
 * expected. Called by fw.c for `add` commands, rule files and --check-rules.
 *
 * The grammar is ipfw2's (sbin/ipfw/ipfw2.c add()), restricted to what the forwarder
 * can match:
 *   [N] [set S] ACTION [log [logamount L]] PROTO from SRC [PORTS] to DST [PORTS] OPTIONS
 * where PROTO, SRC and DST may be `{ X or Y or not Z }` blocks and OPTIONS are in, out,
 * via|recv|xmit IF, `not`, and `{ ... or ... }`. As in ipfw, a rule may skip straight
 * to its options ("deny in via em0" = "deny ip from any to any in via em0"), and
 * keywords match by prefix where ipfw2 uses strncmp(tok, word, strlen(tok)): from, to,
 * not, or, any, me, all, log, logamount. Actions and options match whole words.
 * Nothing here allocates except the final copy of a rule's tests. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <arpa/inet.h>

#include "fw_impl.h"

#define FW_DATA_MAX 16384

static void diag_set(struct fw_diag *d, int col, int ex, bool kernel, const char *fmt,
		     va_list ap)
{
	d->col = col;
	d->ex = ex;
	d->kernel = kernel;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

int fw_err(struct fw_diag *d, int col, int ex, const char *fmt, ...)
{
	if (d) {
		va_list ap;
		va_start(ap, fmt);
		diag_set(d, col, ex, false, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int fw_kernel_err(struct fw_diag *d, int col, int ex, const char *fmt, ...)
{
	if (d) {
		va_list ap;
		va_start(ap, fmt);
		diag_set(d, col, ex, true, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int fw_oom(struct fw_diag *d)
{
	fw_err(d, 0, EX_OSERR, "out of memory");
	return -ENOMEM;
}

void fw_warn(struct fw_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	size_t l = strlen(d->warn);
	if (l >= sizeof(d->warn) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(d->warn + l, sizeof(d->warn) - l, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n >= sizeof(d->warn) - l)
		memcpy(d->warn + sizeof(d->warn) - 5, "...\n", 5);
}

bool fw_prefix(const char *tok, const char *word, int min_len)
{
	size_t n = strlen(tok);
	return n >= (size_t)min_len && n <= strlen(word) && !strncmp(tok, word, n);
}

/* ---- lexer ---- */

int fw_lex(const char *line, struct fw_lex *lx, struct fw_diag *d)
{
	char *o = lx->buf;
	const char *p = line;
	lx->n = 0;
	lx->eol_col = 1;
	if (strlen(line) >= FW_MAX_LINE)
		return fw_err(d, FW_MAX_LINE, EX_DATAERR, "line too long (more than %d characters)",
			      FW_MAX_LINE - 1);
	/* rules are ASCII text: a control byte or a non-ASCII byte before a comment is
	 * named by its value (never echoed raw to a terminal) */
	for (const char *q = line; *q && *q != '#'; q++) {
		unsigned char ch = (unsigned char)*q;
		if ((ch < 0x20 && !isspace(ch)) || ch >= 0x7f)
			return fw_err(d, (int)(q - line) + 1, EX_DATAERR,
				      "unexpected byte 0x%02x (rules are ASCII text)", ch);
	}
	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#')
			break;
		if (lx->n + 1 >= FW_MAX_TOKS)
			return fw_err(d, (int)(p - line) + 1, EX_DATAERR,
				      "too many words on one line (at most %d)", FW_MAX_TOKS - 1);
		struct fw_tok *t = &lx->t[lx->n++];
		t->s = o;
		t->col = (int)(p - line) + 1;
		if (p[0] == '/' && p[1] == '/' && (!p[2] || isspace((unsigned char)p[2]))) {
			/* `// text`: the rest of the line is the comment, its words joined by
			 * single blanks as ipfw2's fill_comment() joins its arguments */
			*o++ = '/';
			*o++ = '/';
			*o++ = '\0';
			p += 2;
			while (isspace((unsigned char)*p))
				p++;
			if (!*p || *p == '#')
				break;
			struct fw_tok *c = &lx->t[lx->n++];
			c->s = o;
			c->col = (int)(p - line) + 1;
			while (*p && *p != '#') {
				if (isspace((unsigned char)*p)) {
					while (isspace((unsigned char)*p))
						p++;
					if (*p && *p != '#')
						*o++ = ' ';
					continue;
				}
				*o++ = *p++;
			}
			*o++ = '\0';
			lx->eol_col = (int)(p - line) + 1;
			while (lx->eol_col > 1 && isspace((unsigned char)line[lx->eol_col - 2]))
				lx->eol_col--;
			break;
		}
		if (!strncmp(p, "table(", 6)) {
			/* table(NAME[,VALUE]) is one word, parentheses included */
			while (*p && !isspace((unsigned char)*p) && *p != '#' && *p != ')')
				*o++ = *p++;
			if (*p == ')')
				*o++ = *p++;
		} else if (strchr("{}()!", *p)) {
			/* a brace, or '!' (ipfw's alternative spelling of "not"), stands alone
			 * at the start of a word: "{tcp" is "{" "tcp", "!80" is "!" "80" */
			*o++ = *p++;
		} else {
			bool inset = false;
			while (*p && !isspace((unsigned char)*p) && *p != '#') {
				if (inset) {
					inset = *p != '}';
				} else if (*p == '{') {
					inset = true;   /* an address set: 10.0.0.0/24{1,5,7} */
				} else if (strchr("}()", *p)) {
					break;          /* "udp}" is "udp" "}" */
				}
				*o++ = *p++;
			}
		}
		*o++ = '\0';
		lx->eol_col = (int)(p - line) + 1;
	}
	/* ipfw(8)'s main joins an argument ending in ',' with the next one, so that
	 * "1.2.3.4, 5.6.7.8" and "80, 443" are lists; the words are adjacent in buf */
	for (int i = 0; i + 1 < lx->n; i++) {
		size_t l = strlen(lx->t[i].s);
		if (!l || lx->t[i].s[l - 1] != ',' || !strcmp(lx->t[i + 1].s, "//") ||
		    (i > 0 && !strcmp(lx->t[i - 1].s, "//")))
			continue;
		char *end = (char *)lx->t[i].s + l;
		size_t l2 = strlen(lx->t[i + 1].s);
		memmove(end, lx->t[i + 1].s, l2 + 1);
		memmove(&lx->t[i + 1], &lx->t[i + 2], (size_t)(lx->n - i - 2) * sizeof(lx->t[0]));
		lx->n--;
		i--;
	}
	return 0;
}

/* ---- compiler state ---- */

struct cc {
	struct fw *fw;
	const struct fw_tok *t;
	int n, i, eol_col;
	struct fw_diag *d;
	struct fw_insn insn[FW_MAX_INSNS];
	int doff[FW_MAX_INSNS];          /* offset of each test's data, -1 for none */
	uint8_t sec[FW_MAX_INSNS];       /* section of each test (for error checks) */
	int ninsn;
	_Alignas(8) unsigned char data[FW_DATA_MAX];
	int dlen;
	bool justopts;                   /* IPFW_RULE_JUSTOPTS */
	int body_at;                     /* token index where the body begins */
	int state_at;                    /* index of the keep-state/limit test, -1 */
	int state_col;
};

static const char *tok(const struct cc *c)
{
	return c->i < c->n ? c->t[c->i].s : NULL;
}

static int col(const struct cc *c)
{
	return c->i < c->n ? c->t[c->i].col : c->eol_col;
}

/* "'word'" or "end of line", for messages */
static const char *got(const struct cc *c, char *buf, size_t len)
{
	if (c->i >= c->n)
		return "end of line";
	snprintf(buf, len, "'%s'", c->t[c->i].s);
	return buf;
}

#define GOT(c) got((c), (char[96]){ 0 }, 96)

/* Strict decimal in [0, max]; -1 if not all digits, -2 if too large. */
static long long dec(const char *s, size_t len, long long max)
{
	long long v = 0;
	if (!len)
		return -1;
	for (size_t k = 0; k < len; k++) {
		if (!isdigit((unsigned char)s[k]))
			return -1;
		v = v * 10 + (s[k] - '0');
		if (v > max)
			return -2;
	}
	return v;
}

static void *data_alloc(struct cc *c, size_t len, int *off)
{
	int o = (c->dlen + 7) & ~7;
	if ((size_t)o + len > FW_DATA_MAX)
		return NULL;
	*off = o;
	c->dlen = o + (int)len;
	return c->data + o;
}

enum sec { SEC_PROTO = 1, SEC_SRC, SEC_SRCPORT, SEC_DST, SEC_DSTPORT, SEC_OPT };

static int parse_ports(struct cc *c, int sec, int flags);

static struct fw_insn *add_insn(struct cc *c, int ecol, int sec, int op, int flags)
{
	if (c->ninsn == FW_MAX_INSNS) {
		fw_err(c->d, ecol, EX_DATAERR, "rule too long (more than %d tests)", FW_MAX_INSNS);
		return NULL;
	}
	struct fw_insn *x = &c->insn[c->ninsn];
	memset(x, 0, sizeof(*x));
	x->op = (uint8_t)op;
	x->flags = (uint8_t)flags;
	c->doff[c->ninsn] = -1;
	c->sec[c->ninsn] = (uint8_t)sec;
	c->ninsn++;
	return x;
}

/* ---- addresses ---- */

/* a.b.c.d, strictly: four decimal octets (inet_aton would also take "10.1" and hex) */
static int parse_ip4(const char *s, size_t len, uint32_t *out)
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
	if (parse_ip4(s, k, addr))
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
		if (parse_ip4(s + k + 1, len - k - 1, mask))
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
	if (parse_ip4(s, sl ? (size_t)(sl - s) : blen, &addr))
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

/* One address element of SRC or DST. Returns 1 for `any` (nothing stored), 0 when a
 * test was added, <0 on error. */
static int parse_addr(struct cc *c, int sec, int flags)
{
	const char *s = tok(c);
	int ecol = col(c);
	bool src = sec == SEC_SRC;
	if (!s || !strcmp(s, "{") || !strcmp(s, "(") || !strcmp(s, "}") || !strcmp(s, ")") ||
	    !strcmp(s, "!"))
		return fw_err(c->d, ecol, EX_DATAERR,
			      "expected an address (any, me, a.b.c.d[/N], a.b.c.d:mask, "
			      "a.b.c.d/N{x,y}, a list a,b,c) after '%s', got %s",
			      c->i > 0 ? c->t[c->i - 1].s : "from", GOT(c));
	c->i++;
	if (fw_prefix(s, "any", 1))
		return 1;
	if (fw_prefix(s, "me", 1))
		return add_insn(c, ecol, sec, src ? FW_OP_SRC_ME : FW_OP_DST_ME, flags) ? 0 : -EINVAL;
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
			if (n == FW_MAX_LIST)
				return fw_err(c->d, ecol, EX_DATAERR,
					      "address list too long (at most %d)", FW_MAX_LIST);
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

static bool is_option_word(const char *s);
static bool is_not(const char *s);

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
static int parse_ports(struct cc *c, int sec, int flags)
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
		if (n == FW_MAX_LIST)
			return fw_err(c->d, ecol, EX_DATAERR, "port list too long (at most %d)",
				      FW_MAX_LIST);
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
static int parse_opt_ports(struct cc *c, int sec, int *not_col)
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
		int rc = parse_ports(c, sec, flags);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	if (flags && sec == SEC_DSTPORT && (is_option_word(tok(c)) || is_not(tok(c)))) {
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
static int parse_proto(struct cc *c, int sec, int flags, bool compat)
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

/* ---- OR blocks of the proto / from / to sections ---- */

static bool is_open(const char *s)
{
	return s && (!strcmp(s, "{") || !strcmp(s, "("));
}

static bool is_close(const char *s)
{
	return s && (!strcmp(s, "}") || !strcmp(s, ")"));
}

static bool is_not(const char *s)
{
	return s && (fw_prefix(s, "not", 1) || !strcmp(s, "!"));
}

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
	"defer-action", "defer-immediate-action", "//", NULL,
};

static bool is_option_word(const char *s)
{
	for (int k = 0; s && option_words[k]; k++)
		if (!strcmp(s, option_words[k]))
			return true;
	return false;
}

/* PROTO, SRC or DST: X | not X | { [not] X or [not] Y ... }.
 * For SEC_PROTO, *opts_only is set when the body starts with an option instead
 * ("deny in via em0"), with *carry_not the column of a "not" already read. */
static int parse_section(struct cc *c, int sec, bool *opts_only, int *carry_not)
{
	int open_col = 0;
	const char *what = sec == SEC_PROTO ? "a protocol" : "an address";
	if (is_open(tok(c))) {
		open_col = col(c);
		c->i++;
	}
	for (;;) {
		int flags = 0, ncol = col(c);
		if (is_not(tok(c))) {
			flags = FW_F_NOT;
			c->i++;
			if (is_not(tok(c)))
				return fw_err(c->d, col(c), EX_DATAERR, "double 'not'");
		}
		if (is_open(tok(c)))
			return fw_err(c->d, col(c), EX_DATAERR,
				      open_col ? "nested '{' (only one level of braces is allowed)"
					       : "'not' cannot negate a '{ }' block; negate its elements");
		int rc;
		if (sec == SEC_PROTO) {
			rc = parse_proto(c, SEC_PROTO, flags, true);
			if (rc == 2) {
				/* compile_rule(): not a protocol, and nothing before it — the
				 * body is options only (IPFW_RULE_JUSTOPTS, "deny in via em0") */
				if (!open_col && c->ninsn == 0 && tok(c)) {
					*opts_only = true;
					*carry_not = flags ? ncol : 0;
					return 0;
				}
				return fw_err(c->d, col(c), EX_DATAERR,
					      "expected a protocol (ip, all, ip4, tcp, udp, icmp, esp, a "
					      "name or a number 1..255) after '%s', got %s",
					      c->i > 0 ? c->t[c->i - 1].s : "the action", GOT(c));
			}
			if (rc == 1 && (flags || open_col))
				return fw_err(c->d, ncol, EX_DATAERR,
					      "'ip'/'all' (any protocol) cannot be negated or be part "
					      "of an OR block");
		} else {
			rc = parse_addr(c, sec, flags);
			if (rc == 1 && flags)
				return fw_err(c->d, ncol, EX_DATAERR, "'not any' never matches");
			if (rc == 1 && open_col)
				return fw_err(c->d, ncol, EX_DATAERR,
					      "'any' cannot be part of an OR block");
		}
		if (rc < 0)
			return rc;
		if (!open_col)
			return 0;
		const char *s = tok(c);
		if (s && fw_prefix(s, "or", 1)) {
			c->insn[c->ninsn - 1].flags |= FW_F_OR;
			c->i++;
			continue;
		}
		if (is_close(s)) {
			c->i++;
			return 0;
		}
		return fw_err(c->d, col(c), EX_DATAERR,
			      "expected 'or' or '}' after %s in the block opened at column %d, got %s",
			      what, open_col, GOT(c));
	}
}

/* ---- options ---- */

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
	if (len >= FW_IFNAMSIZ)
		return fw_err(c->d, ecol, EX_DATAERR,
			      "interface name '%s' too long (at most %d characters)", s,
			      FW_IFNAMSIZ - 1);
	uint64_t mask = 0;
	if (isdigit((unsigned char)*s)) {
		uint32_t a;
		if (parse_ip4(s, len, &a))
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

/* option words ipfw knows that this forwarder does not implement */
static const char *const unsupported_options[] = {
	"tagged", "uid", "gid", "jail", "bridged", "layer2", "diverted", "diverted-loopback",
	"diverted-output", "fib", "ipoptions", "ipopts", "ipid", "ipprecedence", "dscp", "iptos",
	"ipversion", "ipver", "sockarg", "tcpdatalen", "tcpoptions", "tcpopts", "tcpseq", "tcpack",
	"tcpwin", "MAC", "mac", "mac-type", "verrevpath", "versrcreach", "antispoof", "ipsec",
	"icmp6type", "icmp6types", "ext6hdr", "flow-id", "dst-ipv6", "dst-ip6", "src-ipv6", "src-ip6",
	"lookup", "flow", "defer-action", "defer-immediate-action", NULL,
};

/* ":name" after keep-state, limit or check-state (ipfw2.c state_check_name) */
static int parse_state_name(struct cc *c, bool any_ok, int *kidx)
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

static int add_comment(struct cc *c, int kcol, int flags)
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
static int parse_options(struct cc *c, int carry_not)
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
		int rc = 0, before = c->ninsn;
		bool state = false;
		if (!strcmp(s, "in") || !strcmp(s, "out")) {
			/* `out` is stored as `not in` (docs/design/ipfw.md#direction-and-interfaces) */
			if (!strcmp(s, "out"))
				flags ^= FW_F_NOT;
			struct fw_insn *x = add_insn(c, kcol, SEC_OPT, FW_OP_IN, flags);
			rc = x ? 0 : -EINVAL;
			if (x)
				x->a = x->b = 1;   /* (in & 1) == 1 */
		} else if (!strcmp(s, "via")) {
			rc = parse_iface(c, FW_OP_VIA, flags, kcol);
		} else if (!strcmp(s, "recv")) {
			rc = parse_iface(c, FW_OP_RECV, flags, kcol);
		} else if (!strcmp(s, "xmit")) {
			rc = parse_iface(c, FW_OP_XMIT, flags, kcol);
		} else if (!strcmp(s, "ip4") || !strcmp(s, "ipv4") || !strcmp(s, "ip6") ||
			   !strcmp(s, "ipv6")) {
			rc = add_insn(c, kcol, SEC_OPT, s[2] == '4' || s[3] == '4' ? FW_OP_IP4 : FW_OP_IP6,
				      flags) ? 0 : -EINVAL;
		} else if (!strcmp(s, "proto")) {
			rc = parse_proto(c, SEC_OPT, flags, false);
			if (rc == 2)
				return fw_err(c->d, col(c), EX_DATAERR,
					      "invalid protocol %s after 'proto' (ip, all, ip4, ip6, a "
					      "name or a number 1..255)", GOT(c));
		} else if (!strcmp(s, "src-ip") || !strcmp(s, "dst-ip")) {
			if (!tok(c))
				return fw_err(c->d, col(c), EX_DATAERR,
					      "expected an address after '%s', got end of line", s);
			rc = parse_addr(c, s[0] == 's' ? SEC_SRC : SEC_DST, flags);
		} else if (!strcmp(s, "src-port") || !strcmp(s, "dst-port")) {
			const char *v = tok(c);
			if (v && fw_prefix(v, "any", 1)) {
				c->i++;
				rc = 1;
			} else if (!v || (rc = parse_ports(c, s[0] == 's' ? SEC_SRCPORT : SEC_DSTPORT,
						       flags)) == 0) {
				return fw_err(c->d, col(c), EX_DATAERR,
					      "expected ports after '%s' (numbers, ranges, a list or "
					      "service names), got %s", s, GOT(c));
			}
			rc = rc < 0 ? rc : 0;
		} else if (!strcmp(s, "frag") || !strcmp(s, "fragment")) {
			/* FreeBSD 13+: `frag [spec]`, a word of the flags mf, df, rf, offset
			 * (with '!'); without one it is "offset", as before */
			uint32_t set, clr;
			const char *bad, *v = tok(c);
			if (!v || parse_flags(ipoff_names, v, &set, &clr, &bad)) {
				set = 0x01;
				clr = 0;
			} else {
				c->i++;
			}
			struct fw_insn *x = add_insn(c, kcol, SEC_OPT, FW_OP_FRAG, flags);
			rc = x ? 0 : -EINVAL;
			if (x) {
				x->a = set;
				x->b = clr;
			}
		} else if (!strcmp(s, "iplen")) {
			rc = parse_u16_list(c, FW_OP_IPLEN, flags, kcol, s, 65535);
		} else if (!strcmp(s, "ipttl")) {
			rc = parse_u16_list(c, FW_OP_IPTTL, flags, kcol, s, 255);
		} else if (!strcmp(s, "icmptypes") || !strcmp(s, "icmptype")) {
			/* fill_icmptypes(): numbers 0..31, comma separated */
			const char *v = tok(c);
			uint32_t map = 0;
			if (!v)
				return fw_err(c->d, col(c), EX_DATAERR,
					      "expected ICMP types after '%s', got end of line", s);
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
			struct fw_insn *x = add_insn(c, kcol, SEC_OPT, FW_OP_ICMPTYPE, flags);
			rc = x ? 0 : -EINVAL;
			if (x)
				x->a = map;
		} else if (!strcmp(s, "tcpflags") || !strcmp(s, "tcpflgs") || !strcmp(s, "setup")) {
			uint32_t set = 0x02, clr = 0x10;   /* setup: syn,!ack */
			if (s[0] == 't') {
				const char *bad, *v = tok(c);
				if (!v)
					return fw_err(c->d, col(c), EX_DATAERR,
						      "expected TCP flags after '%s' (syn, fin, ack, psh, "
						      "rst, urg, each may be !negated), got end of line", s);
				if (parse_flags(tcpflag_names, v, &set, &clr, &bad))
					return fw_err(c->d, col(c) + (int)(bad - v), EX_DATAERR,
						      "invalid TCP flag '%s' (syn, fin, ack, psh, rst, urg)",
						      bad);
				c->i++;
			}
			struct fw_insn *x = add_insn(c, kcol, SEC_OPT, FW_OP_TCPFLAGS, flags);
			rc = x ? 0 : -EINVAL;
			if (x) {
				x->a = set;
				x->b = clr;
			}
		} else if (!strcmp(s, "established") || !strcmp(s, "estab")) {
			rc = add_insn(c, kcol, SEC_OPT, FW_OP_ESTAB, flags) ? 0 : -EINVAL;
		} else if (!strcmp(s, "keep-state") || !strcmp(s, "record-state") ||
			   !strcmp(s, "limit") || !strcmp(s, "set-limit")) {
			bool lim = s[0] == 'l' || s[0] == 's';
			if (open_col)
				return fw_err(c->d, kcol, EX_DATAERR, "'%s' cannot be part of an OR block", s);
			if (c->state_at >= 0)
				return fw_err(c->d, kcol, EX_DATAERR,
					      "only one of keep-state, record-state, limit and set-limit "
					      "(another at column %d)", c->state_col);
			if (flags)
				return fw_err(c->d, not_col, EX_DATAERR, "'not' cannot negate '%s'", s);
			uint32_t mask = 0;
			long long lim_n = 0;
			if (lim) {
				static const struct { const char *w; uint32_t m; } masks[] = {
					{ "all", 0x0f }, { "src-addr", FW_LIM_SRC_ADDR },
					{ "src-port", FW_LIM_SRC_PORT }, { "dst-addr", FW_LIM_DST_ADDR },
					{ "dst-port", FW_LIM_DST_PORT }, { NULL, 0 },
				};
				/* words apart, as compile_rule takes them, or joined by commas
				 * as print_limit_mask lists them (so a listing loads back) */
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
				if (!mask)
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
			int kidx;
			if ((rc = parse_state_name(c, false, &kidx)))
				return rc;
			bool record = s[0] == 'r' || s[0] == 's';
			struct fw_insn *x = add_insn(c, kcol, SEC_OPT, lim ? FW_OP_LIMIT : FW_OP_KEEP,
						     record ? FW_F_RECORD : 0);
			if (!x)
				return -EINVAL;
			x->a = (uint32_t)kidx;
			x->b = (uint32_t)lim_n;
			x->n = (uint16_t)mask;
			c->state_at = c->ninsn - 1;
			c->state_col = kcol;
			state = true;
		} else if (!strcmp(s, "//")) {
			if (flags)
				return fw_err(c->d, not_col, EX_DATAERR, "'not' cannot negate a comment");
			rc = add_comment(c, kcol, 0);
			if (rc == 0 && c->ninsn == before)
				rc = 1;
		} else {
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
		if (rc < 0)
			return rc;
		if (rc == 0 && c->ninsn == before && !state)
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

/* ---- the rule ---- */

static const char *const unsupported_actions[] = {
	"pipe", "queue", "divert", "tee", "fwd", "forward", "nat", "netgraph", "ngtee", "setfib",
	"call", "return", "reass", "setdscp", "abort", "abort6", "reset6", "unreach6", "nat64lsn",
	"nat64stl", "nat64clat", "nptv6", "eaction", "tcp-setmss", NULL,
};

static int parse_action(struct cc *c, struct fw_compiled *out)
{
	const char *s = tok(c);
	int acol = col(c);
	if (!s)
		return fw_err(c->d, acol, EX_DATAERR,
			      "expected an action (allow, deny, reject, reset, unreach CODE, count, "
			      "skipto N), got end of line");
	c->i++;
	struct fw_hot *h = &out->hot;
	if (!strcmp(s, "allow") || !strcmp(s, "accept") || !strcmp(s, "pass") ||
	    !strcmp(s, "permit")) {
		h->action = FW_A_ALLOW;
	} else if (!strcmp(s, "deny") || !strcmp(s, "drop")) {
		h->action = FW_A_DENY;
	} else if (!strcmp(s, "reject")) {
		h->action = FW_A_UNREACH;
		out->rule.icmp_code = 1;   /* ICMP_UNREACH_HOST */
	} else if (!strcmp(s, "reset")) {
		h->action = FW_A_RESET;
	} else if (!strcmp(s, "count")) {
		h->action = FW_A_COUNT;
	} else if (!strcmp(s, "//")) {
		/* compile_rule(): "a 'count' rule followed by the comment" */
		h->action = FW_A_COUNT;
		c->i--;
	} else if (!strcmp(s, "check-state")) {
		int kidx;
		h->action = FW_A_CHECK;
		const char *v = tok(c);
		if (v && v[0] != ':' && strcmp(v, "//") && strcmp(v, "log"))
			return fw_err(c->d, col(c), EX_DATAERR,
				      "invalid state name '%s' after 'check-state' (:NAME or :any)", v);
		int rc = parse_state_name(c, true, &kidx);
		if (rc)
			return rc;
		out->rule.check_kidx = (uint16_t)kidx;
	} else if (!strcmp(s, "unreach")) {
		const char *v = tok(c);
		long long code = -1;
		if (v) {
			code = dec(v, strlen(v), 255);
			if (code < 0)
				code = fw_unreach_code(v);
		}
		if (code < 0)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected an ICMP unreachable code after 'unreach' (0..255, or "
				      "net, host, protocol, port, needfrag, srcfail, net-unknown, "
				      "host-unknown, isolated, net-prohib, host-prohib, tosnet, toshost, "
				      "filter-prohib, host-precedence, precedence-cutoff), got %s", GOT(c));
		c->i++;
		h->action = FW_A_UNREACH;
		out->rule.icmp_code = (uint16_t)code;
	} else if (!strcmp(s, "skipto")) {
		const char *v = tok(c);
		long long n = v ? dec(v, strlen(v), FW_DEFAULT_RULE) : -1;
		if (n < 1)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected a rule number 1..65535 after 'skipto', got %s", GOT(c));
		c->i++;
		h->action = FW_A_SKIPTO;
		out->rule.skipto = (uint32_t)n;
	} else {
		for (int k = 0; unsupported_actions[k]; k++)
			if (!strcmp(s, unsupported_actions[k]))
				return fw_err(c->d, acol, EX_DATAERR,
					      "action '%s' is not supported by ppslab-rut", s);
		return fw_err(c->d, acol, EX_DATAERR,
			      "expected an action (allow, deny, reject, reset, unreach CODE, count, "
			      "skipto N, check-state), got '%s'", s);
	}
	return 0;
}

/* Lays the tests out in FreeBSD's order (compile_rule's copy into the rule): a probe
 * first when the rule keeps state (keep-state, limit), the others as entered, the
 * keep-state/limit test last. Folds the common tests (one plain protocol, source,
 * destination, port range of each side, direction) into the prefilter (fw_impl.h),
 * unless the rule keeps state: its probe must see every packet. The final copy holds
 * the listing tests, then the program (the tests not folded), then their data. */
static int finish(struct cc *c, struct fw_compiled *out)
{
	struct fw_hot *h = &out->hot;
	struct fw_insn ord[FW_MAX_INSNS + 2];
	int odoff[FW_MAX_INSNS + 2], no = 0;
	if (h->action == FW_A_CHECK) {
		/* check-state's own test; its comment stays with it */
		ord[no] = (struct fw_insn){ .op = FW_OP_CHECK, .a = out->rule.check_kidx };
		odoff[no++] = -1;
	} else if (c->state_at >= 0 && !(c->insn[c->state_at].flags & FW_F_RECORD)) {
		ord[no] = (struct fw_insn){ .op = FW_OP_PROBE, .a = c->insn[c->state_at].a };
		odoff[no++] = -1;
	}
	if (no + c->ninsn > FW_MAX_INSNS)
		return fw_err(c->d, c->eol_col, EX_DATAERR, "rule too long (more than %d tests)",
			      FW_MAX_INSNS);
	for (int k = 0; k < c->ninsn; k++)
		if (k != c->state_at) {
			ord[no] = c->insn[k];
			odoff[no++] = c->doff[k];
		}
	if (c->state_at >= 0) {
		ord[no] = c->insn[c->state_at];
		odoff[no++] = c->doff[c->state_at];
	}
	out->rule.dyn = c->state_at >= 0 || h->action == FW_A_CHECK;
	out->rule.justopts = c->justopts;
	bool lifted[FW_MAX_INSNS + 2];
	bool have_src = false, have_dst = false;
	int nprog = 0;
	h->spspan = h->dpspan = FW_NO_PORT;
	for (int k = 0; k < no; k++) {
		const struct fw_insn *x = &ord[k];
		bool alone = !(x->flags & FW_F_OR) && !(k > 0 && (ord[k - 1].flags & FW_F_OR));
		bool plain = alone && !(x->flags & FW_F_NOT);
		lifted[k] = false;
		if (x->op == FW_OP_NOP || (x->op == FW_OP_IP4 && plain)) {
			lifted[k] = true;   /* a comment, "ip4": nothing to test on IPv4 */
		} else if (out->rule.dyn) {
			/* every test stays in the program, in order, behind the probe */
		} else if (x->op == FW_OP_PROTO && plain && !(h->kmask & 0xff)) {
			h->kmask |= 0xff;
			h->kval |= x->a;
			lifted[k] = true;
		} else if (x->op == FW_OP_SRC && plain && !have_src) {
			h->saddr = x->a;
			h->smask = x->b;
			have_src = lifted[k] = true;
		} else if (x->op == FW_OP_DST && plain && !have_dst) {
			h->daddr = x->a;
			h->dmask = x->b;
			have_dst = lifted[k] = true;
		} else if (x->op == FW_OP_SRCPORT && plain && x->n == 1 && h->spspan == FW_NO_PORT) {
			h->splo = x->a;
			h->spspan = x->b - x->a;
			lifted[k] = true;
		} else if (x->op == FW_OP_DSTPORT && plain && x->n == 1 && h->dpspan == FW_NO_PORT) {
			h->dplo = x->a;
			h->dpspan = x->b - x->a;
			lifted[k] = true;
		} else if (x->op == FW_OP_IN && alone && !(h->kmask & FW_KEY_IN)) {
			h->kmask |= FW_KEY_IN;
			h->kval |= (x->flags & FW_F_NOT) ? 0 : FW_KEY_IN;
			lifted[k] = true;
		}
		if (!lifted[k])
			nprog++;
	}
	h->nprog = (uint16_t)nprog;
	out->rule.nlist = (uint16_t)no;
	out->rule.insn = NULL;
	if (!no)
		return 0;
	size_t isz = (size_t)(no + nprog) * sizeof(struct fw_insn);
	unsigned char *blk = malloc(isz + (size_t)c->dlen);
	if (!blk)
		return fw_oom(c->d);
	struct fw_insn *ins = (struct fw_insn *)blk;
	memcpy(blk + isz, c->data, (size_t)c->dlen);
	for (int k = 0; k < no; k++) {
		ins[k] = ord[k];
		ins[k].data = odoff[k] >= 0 ? blk + isz + odoff[k] : NULL;
	}
	int j = no;
	for (int k = 0; k < no; k++)
		if (!lifted[k])
			ins[j++] = ins[k];
	out->rule.insn = ins;
	return 0;
}

int fw_compile(struct fw *fw, const struct fw_tok *t, int n, int eol_col,
	       struct fw_compiled *out, struct fw_diag *d)
{
	/* the compiler state is big (it holds a rule's worth of data): keep it off small
	 * thread stacks */
	struct cc *c = malloc(sizeof(*c));
	if (!c)
		return fw_oom(d);
	memset(out, 0, sizeof(*out));
	c->fw = fw;
	c->t = t;
	c->n = n;
	c->i = 0;
	c->eol_col = eol_col;
	c->d = d;
	c->ninsn = 0;
	c->dlen = 0;
	c->justopts = false;
	c->state_at = -1;
	int rc = 0;
	const char *s = tok(c);

	/* [N] — rule number; 0 or absent means "next free" (docs/design/ipfw.md#rule-numbers) */
	if (s && isdigit((unsigned char)*s)) {
		long long v = dec(s, strlen(s), 1000000);
		if (v < 0 && v != -2) {
			rc = fw_err(d, col(c), EX_DATAERR,
				    "expected a rule number (1..65534) or an action, got '%s'", s);
			goto out;
		}
		if (v == FW_DEFAULT_RULE) {
			rc = fw_kernel_err(d, col(c), EX_UNAVAILABLE,
				    "rule 65535 is the default rule and cannot be added (EINVAL; "
				    "user rules are 1..65534)");
			goto out;
		}
		if (v == -2 || v > FW_DEFAULT_RULE) {
			rc = fw_err(d, col(c), EX_DATAERR, "rule number '%s' out of range 1..65534", s);
			goto out;
		}
		out->number = (uint32_t)v;
		c->i++;
	}
	/* [set S] — accepted and kept; sets are not enabled/disabled here */
	if ((s = tok(c)) && !strcmp(s, "set")) {
		c->i++;
		const char *v = tok(c);
		long long set = v ? dec(v, strlen(v), 30) : -1;
		if (set < 0) {
			rc = fw_err(d, col(c), EX_DATAERR, "expected a set number 0..30 after 'set', got %s",
				    GOT(c));
			goto out;
		}
		out->rule.set = (uint8_t)set;
		c->i++;
	}
	if ((s = tok(c)) && !strcmp(s, "prob")) {
		rc = fw_err(d, col(c), EX_DATAERR, "'prob' is not supported by ppslab-rut");
		goto out;
	}
	if ((rc = parse_action(c, out)))
		goto out;

	/* [log [logamount L]]: `log` whole (match_token), `logamount` a prefix */
	if ((s = tok(c)) && !strcmp(s, "log")) {
		c->i++;
		out->hot.log = 1;
		out->rule.log_max = fw->tun.verbose_limit;
		if ((s = tok(c)) && fw_prefix(s, "logamount", 1)) {
			c->i++;
			const char *v = tok(c);
			long long l = v ? dec(v, strlen(v), UINT32_MAX) : -1;
			if (l < 0) {
				rc = fw_err(d, col(c), EX_DATAERR,
					    "expected a number after 'logamount' (0 = unlimited), got %s",
					    GOT(c));
				goto out;
			}
			out->rule.log_max = (uint32_t)l;
			c->i++;
		}
		out->rule.log_left = out->rule.log_max;
	}

	if ((s = tok(c)) && (!strcmp(s, "altq") || !strcmp(s, "tag") || !strcmp(s, "untag"))) {
		rc = fw_err(d, col(c), EX_DATAERR, "'%s' is not supported by ppslab-rut", s);
		goto out;
	}
	if (out->hot.action == FW_A_CHECK) {
		/* compile_rule(): after check-state only a comment; the rest is ignored */
		if ((s = tok(c)) && !strcmp(s, "//")) {
			c->i++;
			if ((rc = add_comment(c, col(c), 0)))
				goto out;
		}
		rc = finish(c, out);
		goto out;
	}
	bool opts_only = false;
	int carry_not = 0;
	if (!tok(c)) {
		rc = fw_err(d, col(c), EX_DATAERR,
			    "expected a protocol (ip, all, tcp, udp, ...) after '%s', got end of line",
			    c->t[c->i - 1].s);
		goto out;
	}
	c->body_at = c->i;
	if ((rc = parse_section(c, SEC_PROTO, &opts_only, &carry_not)))
		goto out;
	c->justopts = opts_only;
	if (!opts_only) {
		s = tok(c);
		if (!s || !fw_prefix(s, "from", 1)) {
			rc = fw_err(d, col(c), EX_DATAERR, "expected 'from' after the protocol, got %s",
				    GOT(c));
			goto out;
		}
		c->i++;
		if ((rc = parse_section(c, SEC_SRC, NULL, NULL)) ||
		    (rc = parse_opt_ports(c, SEC_SRCPORT, &carry_not)))
			goto out;
		s = tok(c);
		if (!s || !fw_prefix(s, "to", 1)) {
			rc = fw_err(d, col(c), EX_DATAERR,
				    "expected 'to' after the source address or ports, got %s", GOT(c));
			goto out;
		}
		c->i++;
		if ((rc = parse_section(c, SEC_DST, NULL, NULL)) ||
		    (rc = parse_opt_ports(c, SEC_DSTPORT, &carry_not)))
			goto out;
	}
	if ((rc = parse_options(c, carry_not)))
		goto out;
	rc = finish(c, out);
out:
	free(c);
	return rc;
}
