/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_parse.c — the ipfw rule language: the compiler from tokens (fw_lex.c) to a
 * compiled rule (fw_impl.h), with diagnostics that name the column and what was
 * expected. Called by fw.c for `add` commands, rule files and --check-rules. Here the
 * rule and its sections; addresses, ports and protocols are fw_addr.c, the options
 * fw_opts.c, the state they share fw_cc.h.
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
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "fw_cc.h"
#include "fw_lang.h"
#include "fw_tab.h"

/* ---- OR blocks of the proto / from / to sections ---- */

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
			rc = fw_parse_proto(c, SEC_PROTO, flags, true);
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
			rc = fw_parse_addr(c, sec, flags);
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

/* ---- the rule ---- */

static const char *const unsupported_actions[] = {
	"pipe", "queue", "divert", "tee", "fwd", "forward", "nat", "netgraph", "ngtee", "setfib",
	"call", "return", "reass", "setdscp", "abort", "abort6", "nat64lsn",
	"nat64stl", "nat64clat", "nptv6", "eaction", "tcp-setmss", NULL,
};

/* An unreach or unreach6 code as ipfw2.c fill_reject_code() and ipv6.c
 * fill_unreach6_code() read it: strtoul(s, &end, 0) below 0x100 (so 0x3 and 010 too),
 * else a name; -1 if neither. */
static long reject_code(const char *v, int (*by_name)(const char *))
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 0);
	if (end != v && !*end && !errno && n < 0x100)
		return (long)n;
	return by_name(v);
}

static int parse_action(struct cc *c, struct fw_compiled *out)
{
	const char *s = tok(c);
	int acol = col(c);
	if (!s)
		return fw_err(c->d, acol, EX_DATAERR,
			      "expected an action (allow, deny, reject, reset, unreach CODE, "
			      "unreach6 CODE, reset6, count, skipto N), got end of line");
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
	} else if (!strcmp(s, "reset6")) {
		/* TOK_RESET6: O_UNREACH6 with ICMP6_UNREACH_RST */
		h->action = FW_A_RESET;
		out->rule.unreach6 = true;
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
		int rc = fw_parse_state_name(c, true, &kidx);
		if (rc)
			return rc;
		out->rule.check_kidx = (uint16_t)kidx;
	} else if (!strcmp(s, "unreach")) {
		const char *v = tok(c);
		long code = v ? reject_code(v, fw_unreach_code) : -1;
		if (code < 0)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected an ICMP unreachable code after 'unreach' (0..255, or "
				      "net, host, protocol, port, needfrag, srcfail, net-unknown, "
				      "host-unknown, isolated, net-prohib, host-prohib, tosnet, toshost, "
				      "filter-prohib, host-precedence, precedence-cutoff), got %s", GOT(c));
		c->i++;
		h->action = FW_A_UNREACH;
		out->rule.icmp_code = (uint16_t)code;
	} else if (!strcmp(s, "unreach6")) {
		const char *v = tok(c);
		long code = v ? reject_code(v, fw_unreach6_code) : -1;
		if (code < 0)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected an ICMPv6 unreachable code after 'unreach6' (0..255, "
				      "or no-route, admin-prohib, address, port), got %s", GOT(c));
		c->i++;
		h->action = FW_A_UNREACH;
		out->rule.icmp_code = (uint16_t)code;
		out->rule.unreach6 = true;
	} else if (!strcmp(s, "skipto")) {
		const char *v = tok(c);
		long long n = v ? dec(v, strlen(v), FW_DEFAULT_RULE) : -1;
		if (v && !strcmp(v, "tablearg"))
			return fw_err(c->d, col(c), EX_DATAERR,
				      "'skipto tablearg' is not supported by ppslab-rut (the target "
				      "must be a rule number)");
		if (n < 1)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "expected a rule number 1..65534 after 'skipto', got %s", GOT(c));
		/* ipfw2.c chkarg: arg1 >= IP_FW_TABLEARG (65535) is refused */
		if (n >= FW_DEFAULT_RULE)
			return fw_err(c->d, col(c), EX_DATAERR,
				      "illegal argument for skipto: %s (1..65534)", v);
		c->i++;
		h->action = FW_A_SKIPTO;
		out->rule.skipto = (uint32_t)n;
	} else {
		for (int k = 0; unsupported_actions[k]; k++)
			if (!strcmp(s, unsupported_actions[k]))
				return fw_err(c->d, acol, EX_DATAERR,
					      "action '%s' is not supported by ppslab-rut", s);
		return fw_err(c->d, acol, EX_DATAERR,
			      "expected an action (allow, deny, reject, reset, unreach CODE, "
			      "unreach6 CODE, reset6, count, skipto N, check-state), got '%s'", s);
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
		if (x->op == FW_OP_NOP) {
			lifted[k] = true;   /* a comment */
		} else if ((x->op == FW_OP_IP4 || x->op == FW_OP_IP6) && plain && !out->rule.dyn &&
			   !(x->op == FW_OP_IP6 && (have_src || have_dst))) {
			/* the family in the key: its bit clear (ip4) or set (ip6) */
			h->kmask |= FW_KEY_IP6;
			h->kval |= x->op == FW_OP_IP6 ? FW_KEY_IP6 : 0;
			lifted[k] = true;
		} else if (out->rule.dyn) {
			/* every test stays in the program, in order, behind the probe */
		} else if (x->op == FW_OP_PROTO && plain && !(h->kmask & 0xff)) {
			h->kmask |= 0xff;
			h->kval |= x->a;
			lifted[k] = true;
		} else if (x->op == FW_OP_SRC && plain && !have_src && !(h->kval & FW_KEY_IP6)) {
			/* an IPv4 address matches IPv4 packets only (O_IP_SRC_MASK: is_ipv4) */
			h->saddr = x->a;
			h->smask = x->b;
			h->kmask |= FW_KEY_IP6;
			have_src = lifted[k] = true;
		} else if (x->op == FW_OP_DST && plain && !have_dst && !(h->kval & FW_KEY_IP6)) {
			h->daddr = x->a;
			h->dmask = x->b;
			h->kmask |= FW_KEY_IP6;
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
	}

	if ((s = tok(c)) && (!strcmp(s, "altq") || !strcmp(s, "tag") || !strcmp(s, "untag"))) {
		rc = fw_err(d, col(c), EX_DATAERR, "'%s' is not supported by ppslab-rut", s);
		goto out;
	}
	if (out->hot.action == FW_A_CHECK) {
		/* compile_rule(): after check-state only a comment; the rest is ignored */
		if ((s = tok(c)) && !strcmp(s, "//")) {
			c->i++;
			if ((rc = fw_add_comment(c, col(c), 0)))
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
		    (rc = fw_parse_opt_ports(c, SEC_SRCPORT, &carry_not)))
			goto out;
		s = tok(c);
		if (!s || !fw_prefix(s, "to", 1)) {
			rc = fw_err(d, col(c), EX_DATAERR,
				    "expected 'to' after the source address or ports, got %s", GOT(c));
			goto out;
		}
		c->i++;
		if ((rc = parse_section(c, SEC_DST, NULL, NULL)) ||
		    (rc = fw_parse_opt_ports(c, SEC_DSTPORT, &carry_not)))
			goto out;
	}
	if ((rc = fw_parse_options(c, carry_not)))
		goto out;
	rc = finish(c, out);
out:
	free(c);
	return rc;
}
