/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_cc.h — the rule compiler's state and its small helpers, shared by the files of the
 * rule language: fw_parse.c (sections and the rule), fw_addr.c (addresses, ports,
 * protocols) and fw_opts.c (options); the lexer and diagnostics are fw_lex.c. Private to
 * those files: the rest of the firewall sees fw_compile() and fw_lex() (fw_impl.h). */
#ifndef PPSLAB_RUT_FW_FW_CC_H
#define PPSLAB_RUT_FW_FW_CC_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "fw_impl.h"
#include "fw_lang.h"

#define FW_DATA_MAX 16384

/* the compiler's state for one rule (fw_compile() allocates it: it is big) */
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

static inline const char *tok(const struct cc *c)
{
	return c->i < c->n ? c->t[c->i].s : NULL;
}

static inline int col(const struct cc *c)
{
	return c->i < c->n ? c->t[c->i].col : c->eol_col;
}

/* "'word'" or "end of line", for messages */
static inline const char *got(const struct cc *c, char *buf, size_t len)
{
	if (c->i >= c->n)
		return "end of line";
	snprintf(buf, len, "'%s'", c->t[c->i].s);
	return buf;
}

#define GOT(c) got((c), (char[96]){ 0 }, 96)

/* Strict decimal in [0, max]; -1 if not all digits, -2 if too large. */
static inline long long dec(const char *s, size_t len, long long max)
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

static inline void *data_alloc(struct cc *c, size_t len, int *off)
{
	int o = (c->dlen + 7) & ~7;
	if ((size_t)o + len > FW_DATA_MAX)
		return NULL;
	*off = o;
	c->dlen = o + (int)len;
	return c->data + o;
}

enum sec { SEC_PROTO = 1, SEC_SRC, SEC_SRCPORT, SEC_DST, SEC_DSTPORT, SEC_OPT };

static inline struct fw_insn *add_insn(struct cc *c, int ecol, int sec, int op, int flags)
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

static inline bool is_open(const char *s)
{
	return s && (!strcmp(s, "{") || !strcmp(s, "("));
}

static inline bool is_close(const char *s)
{
	return s && (!strcmp(s, "}") || !strcmp(s, ")"));
}

static inline bool is_not(const char *s)
{
	return s && (fw_prefix(s, "not", 1) || !strcmp(s, "!"));
}

/* ---- fw_addr.c: addresses, ports, protocols ---- */

/* a.b.c.d, strictly (network order); 0 or -1 */
int fw_parse_ip4(const char *s, size_t len, uint32_t *out);
/* One address element of SRC or DST: 1 for `any`, 0 when a test was added, <0 */
int fw_parse_addr(struct cc *c, int sec, int flags);
/* the address of src-ip6/dst-ip6 (ipv6.c fill_ip6: any, me, me6, table(NAME), IPv6
 * addresses and lists); kw names the option. 1 for any, 0 when a test was added, <0 */
int fw_parse_addr6_opt(struct cc *c, int sec, int flags, const char *kw);
/* PORTS: 1 and a test, 0 when the word is no port list, <0 */
int fw_parse_ports(struct cc *c, int sec, int flags);
/* [not] PORTS | any after an address: 0 or <0; *not_col for a `not` of an option */
int fw_parse_opt_ports(struct cc *c, int sec, int *not_col);
/* a protocol: 1 for none stored, 0 when a test was added, 2 when not a protocol, <0 */
int fw_parse_proto(struct cc *c, int sec, int flags, bool compat);

/* ---- fw_opts.c: options ---- */

/* true for a word ipfw knows as an option (matched whole) */
bool fw_is_option_word(const char *s);
/* the options to the end of the line; carry_not: the column of a `not` already read */
int fw_parse_options(struct cc *c, int carry_not);
/* ":name" after keep-state, limit or check-state into *kidx; 0 or <0 */
int fw_parse_state_name(struct cc *c, bool any_ok, int *kidx);
/* "// comment": stores the comment word (if any) as a NOP test; 0 or <0 */
int fw_add_comment(struct cc *c, int kcol, int flags);

#endif
