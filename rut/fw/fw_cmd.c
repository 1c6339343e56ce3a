/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_cmd.c — the ipfw(8) command interpreter and rule files: add (with automatic
 * numbering), delete, flush, zero, resetlog, show/list, enable/disable, their messages and
 * the exit status ipfw would give (fw_diag.ex), and loading or checking a file of rules as
 * one transaction (fw_load_file, fw_check_file[_all]); docs/design/ipfw.md#commands.
 * Called by the forwarder's control socket, its rule-file option, --check-rules and the
 * tests; the rule language itself is fw_parse.c, the listing fw_show.c, the ruleset
 * fw.c. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <arpa/inet.h>

#include "fw_impl.h"
#include "fw_dyn.h"
#include "fw_lang.h"
#include "fw_lpm.h"
#include "fw_out.h"

/* ---- commands ---- */

struct xc {
	struct fw *fw;
	struct fw_rules *rules;   /* a staged copy being changed, or the live set (read) */
	struct fw_grave *grave;    /* the stage's; NULL: no stage */
	struct fw_grave grave_mem;
	bool quiet, acct, times;
	int dyn;                /* -d 1, -D 2, plus 4 for -e */
	bool file;              /* a line of a rules file: only commands that change rules */
	bool check;             /* checking a file: unknown rule numbers are not errors */
	struct fw_out *out;
	struct fw_diag *d;
	int warnings;           /* "rule N: ..." warnings after the first (in d->msg) */
};

static int warn_unavail(struct xc *x, int col, uint32_t num, const char *op)
{
	if (x->warnings++ == 0)
		fw_kernel_err(x->d, col, EX_UNAVAILABLE, "rule %u: setsockopt(IP_FW_%s): Invalid argument",
		       num, op);
	return -EINVAL;
}

static int finish_warnings(struct xc *x, int rc)
{
	if (x->warnings > 1) {
		size_t l = strlen(x->d->msg);
		snprintf(x->d->msg + l, sizeof(x->d->msg) - l, " (and %d more)", x->warnings - 1);
	}
	return rc;
}

/* ---- stages: a rule set is never changed while threads evaluate it. A command that
 * changes rules works on a copy (the rules' compiled tests and counters are shared,
 * not copied) and publishes it with one pointer store; what the copy dropped is freed
 * once no thread can be reading the old set (fw_retire). */

static int stage_begin(struct xc *x)
{
	struct fw_rules *s = malloc(sizeof(*s));
	if (!s || fw_rules_clone(s, fw_rules_get(x->fw))) {
		free(s);
		return -ENOMEM;
	}
	x->rules = s;
	memset(&x->grave_mem, 0, sizeof(x->grave_mem));
	x->grave_mem.fw = x->fw;
	x->grave = &x->grave_mem;
	return 0;
}

/* The stage never went live: what it created goes, the live set keeps the rest. */
static void stage_abort(struct xc *x)
{
	struct fw_rules *s = x->rules;
	struct fw_grave *g = x->grave;
	for (int i = 0; i < s->n; i++)
		if (s->rule[i].staged)
			fw_rule_release(x->fw, &s->rule[i]);
	for (int i = 0; i < g->n; i++)
		if (g->r[i].staged)
			fw_rule_release(x->fw, &g->r[i]);
	fw_rules_free(s);
	free(s);
	free(g->r);
	free(g->z);
	x->grave = NULL;
	x->rules = atomic_load_explicit(&x->fw->rules, memory_order_acquire);
}

struct retired_set {
	struct fw *fw;
	struct fw_rules *set;
	struct fw_rule *dead;
	int ndead;
};

static void retired_free(void *arg)
{
	struct retired_set *r = arg;
	for (int i = 0; i < r->ndead; i++)
		fw_rule_release(r->fw, &r->dead[i]);
	free(r->dead);
	fw_rules_free(r->set);
	free(r->set);
	free(r);
}

/* The stage goes live: its counter resets, then the pointer; the old set and the rules
 * only it had are freed after the grace period; the states of deleted rules go. */
static void stage_commit(struct xc *x)
{
	struct fw *fw = x->fw;
	struct fw_rules *s = x->rules;
	struct fw_grave *g = x->grave;
	for (int i = 0; i < s->n; i++)
		s->rule[i].staged = false;
	fw_rules_finish(s);
	for (int i = 0; i < g->nz; i++)
		fw_slot_zero(fw, g->z[i].slot, g->z[i].counters, g->z[i].log_max);
	free(g->z);
	struct fw_rules *old = atomic_exchange_explicit(&fw->rules, s, memory_order_acq_rel);
	struct retired_set *r = malloc(sizeof(*r));
	if (r) {
		*r = (struct retired_set){ .fw = fw, .set = old, .dead = g->r, .ndead = g->n };
		fw_retire(fw, retired_free, r);
	} else {
		/* no memory to remember them: the old arrays are lost, not freed too early */
		free(g->r);
	}
	x->grave = NULL;
	x->rules = s;
	if (g->n)
		fw_dyn_orphans(fw);   /* delete_range(): the deleted rules' states go too */
}

static int cmd_add(struct xc *x, const struct fw_tok *t, int n, int eol_col)
{
	struct fw_compiled c;
	x->fw->warn_to = x->d;
	int rc = fw_compile(x->fw, t, n, eol_col, &c, x->d);
	x->fw->warn_to = NULL;
	if (rc)
		return rc;
	/* commit_rules(): every add clamps net.inet.ip.fw.autoinc_step to 1..1000 and
	 * writes it back, numbered or not */
	x->fw->tun.autoinc_step = fw_autoinc_step(x->fw);
	uint32_t num = c.number;
	if (!num) {
		/* prev + step, or prev again once that would reach 65535
		 * (docs/design/ipfw.md#rule-numbers) */
		uint32_t prev = fw_rules_last_number(x->rules), step = fw_autoinc_step(x->fw);
		num = prev >= FW_DEFAULT_RULE - step ? prev : prev + step;
		if (!num)
			num = step;
	}
	c.rule.staged = true;
	int64_t slot = fw_slot_new(x->fw, c.rule.log_max);
	if (slot < 0) {
		free(c.rule.insn);
		return slot == -ENOSPC ? fw_err(x->d, 0, EX_UNAVAILABLE, "too many rules (at most %d)",
						FW_CCHUNKS * FW_CCHUNK - 1)
				       : fw_oom(x->d);
	}
	c.rule.slot = (uint32_t)slot;
	rc = x->file ? fw_rules_push(x->rules, &c, num) : fw_rules_insert(x->rules, &c, num);
	if (rc < 0) {
		free(c.rule.insn);
		fw_slot_free(x->fw, (uint32_t)slot);
		return fw_oom(x->d);
	}
	if (!x->file) {
		/* live: the new set goes in at once, then the echo lists the rule in it, in
		 * list form, without counters */
		stage_commit(x);
		if (!x->quiet) {
			fw_out_printf(x->out, "%05u ", num);
			fw_out_body(x->fw, rc, x->out);
			fw_out_puts(x->out, "\n");
		}
	}
	return 0;
}

/* N or N-M (ipfw_delete: strtol, '-', strtol) */
static int parse_range_arg(struct xc *x, const struct fw_tok *t, uint32_t *lo, uint32_t *hi)
{
	char *end;
	const char *s = t->s;
	unsigned long a = strtoul(s, &end, 10), b = a;
	if (end != s && *end == '-' && end[1])
		b = strtoul(end + 1, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || a > 65535 || b > 65535)
		return fw_err(x->d, t->col, EX_USAGE, "invalid rule number '%s' (1..65535 or N-M)", s);
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return 0;
}

/* ipfw_delete() over del_rules(): rule 65535 never matches a deletion; nothing found is
 * "rule N not found" (ipfw exits 69 after the other numbers); "delete 0" deletes every
 * rule (start and end 0 is IPFW_RCFLAG_ALL) */
static int cmd_delete(struct xc *x, const struct fw_tok *t, int n, int eol_col)
{
	int rc = 0;
	if (n == 0)
		return fw_err(x->d, eol_col, EX_USAGE, "expected a rule number after 'delete'");
	/* ipfw_delete: "delete set N" deletes a rule set; sets cannot be switched here */
	if (!strcmp(t[0].s, "set"))
		return fw_err(x->d, t[0].col, EX_USAGE, "'ipfw delete set' is not supported by "
			      "ppslab-rut (rule sets are kept, not switched: no 'ipfw set')");
	if (fw_rules_sort(x->rules)) {
		return fw_oom(x->d);
	}
	for (int k = 0; k < n; k++) {
		uint32_t lo = 0, hi = 0;
		if (parse_range_arg(x, &t[k], &lo, &hi))
			return -EINVAL;
		if (lo > hi) {
			rc = warn_unavail(x, t[k].col, lo, "XDEL");
			continue;
		}
		int del = fw_rules_remove_range(x->rules, lo, hi, x->grave);
		if (!del && !x->check) {
			if (x->warnings++ == 0) {
				if (lo == hi)
					fw_kernel_err(x->d, t[k].col, EX_UNAVAILABLE, "rule %u not found",
						     lo);
				else
					fw_kernel_err(x->d, t[k].col, EX_UNAVAILABLE,
						     "no rules rules in %u-%u range", lo, hi);
			}
			rc = -EINVAL;
		}
	}
	fw_rules_finish(x->rules);
	return finish_warnings(x, rc);
}

/* ipfw_zero() over clear_rules(): every rule numbered N (65535 too); none is
 * "Entry N not found" on standard output and exit 69; done is "Entry N cleared." */
static int cmd_zero(struct xc *x, const struct fw_tok *t, int n, bool counters)
{
	int rc = 0;
	if (n == 0) {
		for (int i = 0; i < x->rules->n; i++)
			if (fw_rules_zero(x->fw, x->rules, i, counters, x->grave))
				return fw_oom(x->d);
		if (!x->quiet)
			fw_out_puts(x->out, counters ? "Accounting cleared.\n" : "Logging counts reset.\n");
		return 0;
	}
	if (fw_rules_sort(x->rules)) {
		return fw_oom(x->d);
	}
	for (int k = 0; k < n; k++) {
		const char *s = t[k].s;
		char *end;
		unsigned long num = strtoul(s, &end, 10);
		if (!isdigit((unsigned char)*s))
			return fw_err(x->d, t[k].col, EX_USAGE, "invalid rule number ``%s''", s);
		if (*end || num > 65535)
			return fw_err(x->d, t[k].col, EX_DATAERR, "invalid rule number %s", s);
		int found = 0;
		for (int i = fw_rules_lower_bound(x->rules, (uint32_t)num);
		     i < x->rules->n && x->rules->hot[i].number == num; i++, found++)
			if (fw_rules_zero(x->fw, x->rules, i, counters, x->grave))
				return fw_oom(x->d);
		if (!found && !x->check) {
			/* ipfw prints it on standard output; a rules file's error needs it
			 * as the message (the first one, as for delete) */
			if (x->file) {
				if (x->warnings++ == 0)
					fw_kernel_err(x->d, t[k].col, EX_UNAVAILABLE, "Entry %lu not found",
						     num);
			} else {
				fw_out_printf(x->out, "Entry %lu not found\n", num);
				if (!x->d->ex) {
					x->d->ex = EX_UNAVAILABLE;
					x->d->col = t[k].col;
					x->d->kernel = true;
				}
			}
			rc = -EINVAL;
		} else if (!x->quiet) {
			fw_out_printf(x->out, counters ? "Entry %lu cleared.\n" : "Entry %lu logging count reset.\n",
				      num);
		}
	}
	return rc;
}

static int cmd_flush(struct xc *x)
{
	fw_rules_remove(x->rules, 0, x->grave);
	fw_rules_finish(x->rules);
	if (!x->quiet)
		fw_out_puts(x->out, "Flushed all rules.\n");
	return 0;
}

static int cmd_show(struct xc *x, const struct fw_tok *t, int n)
{
	uint32_t lo[64], hi[64];
	int cols[64];
	if (n > 64)
		return fw_err(x->d, t[64].col, EX_USAGE, "too many rule numbers (at most 64)");
	for (int k = 0; k < n; k++) {
		char *end;
		const char *s = t[k].s;
		unsigned long a = strtoul(s, &end, 10), b = a;
		if (end != s && *end == '-' && end[1])
			b = strtoul(end + 1, &end, 10);
		if (!*s || *end || *s == '-' || *s == '+' || a > 65535 || b > 65535 || a > b)
			return fw_err(x->d, t[k].col, EX_USAGE, "invalid rule number: %s", s);
		lo[k] = (uint32_t)a;
		hi[k] = (uint32_t)b;
		cols[k] = t[k].col;
	}
	return fw_show(x->fw, x->acct, x->times, x->dyn, lo, hi, cols, n, x->out, x->d);
}

static int cmd_enable(struct xc *x, const struct fw_tok *t, int n, int eol_col, bool on)
{
	if (n != 1)
		return fw_err(x->d, n ? t[1].col : eol_col, EX_USAGE,
			      "expected one of firewall, verbose, one_pass after '%s'",
			      on ? "enable" : "disable");
	if (!strcmp(t[0].s, "firewall"))
		x->fw->tun.enable = on;
	else if (!strcmp(t[0].s, "verbose"))
		x->fw->tun.verbose = on;
	else if (!strcmp(t[0].s, "one_pass"))
		x->fw->tun.one_pass = on;
	else
		return fw_err(x->d, t[0].col, EX_USAGE,
			      "expected one of firewall, verbose, one_pass, got '%s'", t[0].s);
	return 0;
}

/* ---- ipfw table NAME add|delete|list|flush|create|destroy|lookup (sbin/ipfw/tables.c)
 * for address tables. Table commands take effect at once, in a rules file too (as
 * ipfw(8) runs a file's lines one by one); only rule changes are all-or-nothing. */

/* an address key of either family */
struct tkey {
	bool six;
	uint32_t addr;      /* IPv4, network order */
	uint8_t a6[16];
	int plen;
	uint32_t val;
};

/* tentry_fill_key(): a.b.c.d[/N] or an IPv6 address[/N], stored masked */
static int table_key(struct xc *x, const struct fw_tok *t, struct tkey *k)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", t->s);
	char *sl = strchr(buf, '/');
	long m = -1;
	if (sl) {
		*sl = '\0';
		char *end;
		m = strtol(sl + 1, &end, 10);
		if (!sl[1] || *end || m < 0)
			m = 1000;
	}
	memset(k, 0, sizeof(*k));
	struct in_addr a;
	if (inet_pton(AF_INET, buf, &a) == 1) {
		if (m > 32)
			return fw_err(x->d, t->col, EX_DATAERR, "bad IPv4 mask width: %s", sl + 1);
		k->addr = a.s_addr;
		k->plen = m < 0 ? 32 : (int)m;
		return 0;
	}
	if (inet_pton(AF_INET6, buf, k->a6) == 1) {
		static const uint8_t z[12];
		if (!memcmp(k->a6, z, 12) && (k->a6[12] | k->a6[13] | k->a6[14] || k->a6[15] > 1))
			return fw_err(x->d, t->col, EX_DATAERR, "Use IPv4 instead of v4-compatible");
		if (m > 128)
			return fw_err(x->d, t->col, EX_DATAERR, "bad IPv6 mask width: %s", sl + 1);
		k->six = true;
		k->plen = m < 0 ? 128 : (int)m;
		return 0;
	}
	return fw_err(x->d, t->col, EX_DATAERR,
		      "invalid table key '%s' (expected a.b.c.d[/N] or an IPv6 address[/N]; "
		      "host names are not resolved)", t->s);
}

/* an address key (a digit or ':' first), else an interface name */
static bool key_is_addr(const char *s)
{
	return isdigit((unsigned char)*s) || *s == ':';
}

/* tentry_fill_key() for IPFW_TABLE_INTERFACE: a name shorter than IF_NAMESIZE */
static int table_ifkey(struct xc *x, const struct fw_tok *t)
{
	if (strlen(t->s) >= FW_IFNAMSIZ)
		return fw_err(x->d, t->col, EX_DATAERR, "Interface name too long: '%s' (at most %d "
			      "characters)", t->s, FW_IFNAMSIZ - 1);
	return 0;
}

static int table_value(struct xc *x, const struct fw_tok *t, uint32_t *val);

/* add to a table that does not exist: "Compatibility layer: auto-create table if not
 * exists." (tables.c), with the kernel's deprecation warning. 0 with *ti, or the
 * status of the error said. */
static int table_autocreate(struct xc *x, int col, const char *name, int *ti)
{
	if ((*ti = fw_table_create(x->fw, name)) < 0)
		return fw_kernel_err(x->d, col, EX_OSERR, "Adding record failed: %s",
				     *ti == -ENOMEM ? "Cannot allocate memory" : "too many tables");
	if (!x->quiet)
		fw_warn(x->d, "ipfw: DEPRECATED: inserting data into non-existent table "
			"%s. (auto-created)\n", name);
	return 0;
}


/* add/delete on an interface table (type iface): the same words and statuses as for
 * addresses, keys being interface names */
static int table_iface_mod(struct xc *x, const struct fw_tok *t, const struct fw_tok *a, int na,
			   int ti, const char *name, bool add)
{
	struct fw *fw = x->fw;
	uint32_t vals[FW_MAX_TOKS];
	int k = 0;
	const struct fw_tok *keys[FW_MAX_TOKS];
	for (int i = 0; i < na && k < FW_MAX_TOKS; k++) {
		keys[k] = &a[i];
		vals[k] = 0;
		if (table_ifkey(x, &a[i]) ||
		    (add && i + 1 < na && table_value(x, &a[i + 1], &vals[k])))
			return -EINVAL;
		i += add ? 2 : 1;
	}
	if (ti < 0) {
		if (!add)
			return fw_kernel_err(x->d, t[0].col, EX_DATAERR, "Table %s does not exist",
					    name);
		int st = table_autocreate(x, t[0].col, name, &ti);
		if (st)
			return st;
		fw_table_at(fw, ti)->type = FW_TT_IFACE;
	}
	struct fw_table *tb = fw_table_at(fw, ti);
	int err = 0;
	for (int i = 0; i < k; i++) {
		int rc = add ? fw_iftable_put(fw, tb, keys[i]->s, vals[i], x->quiet)
			     : fw_iftable_del(fw, tb, keys[i]->s);
		if (rc == -ENOMEM)
			return fw_oom(x->d);
		if (rc > 0)
			rc = 0;
		if (rc && !err)
			err = rc;
		if (!x->quiet)
			fw_out_printf(x->out, "%s: %s %u\n",
				      !rc ? (add ? "added" : "deleted")
				      : rc == -EEXIST ? "exists" : "notfound", keys[i]->s, vals[i]);
	}
	if (err && !x->quiet)
		return fw_kernel_err(x->d, a[0].col, EX_OSERR, "%s record failed: %s",
				     add ? "Adding" : "Deleting",
				     err == -EEXIST ? "record already exists" : "record not found");
	return 0;
}

/* tentry_fill_value() for legacy values: a number (strtoul base 0) or an IPv4 address */
static int table_value(struct xc *x, const struct fw_tok *t, uint32_t *val)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(t->s, &end, 0);
	if (*t->s && !*end && t->s[0] != '-' && !errno && v <= UINT32_MAX) {
		*val = (uint32_t)v;
		return 0;
	}
	struct in_addr a;
	if (inet_pton(AF_INET, t->s, &a) == 1) {
		*val = ntohl(a.s_addr);
		return 0;
	}
	return fw_err(x->d, t->col, EX_OSERR, "Unable to parse value %s", t->s);
}

static void table_entry(struct fw_out *o, uint32_t addr_h, int plen, uint32_t val)
{
	fw_out_printf(o, "%u.%u.%u.%u/%d %u\n", addr_h >> 24, addr_h >> 16 & 0xff,
		      addr_h >> 8 & 0xff, addr_h & 0xff, plen, val);
}

/* table_show_entry() for AF_INET6: inet_ntop, "/N", the value */
static void table_entry6(struct fw_out *o, const uint8_t *a, int plen, uint32_t val)
{
	char t[INET6_ADDRSTRLEN];
	fw_out_printf(o, "%s/%d %u\n", inet_ntop(AF_INET6, a, t, sizeof(t)) ? t : "?", plen, val);
}

static void table_list(struct xc *x, const struct fw_table *t, bool header)
{
	if (header)
		fw_out_printf(x->out, "--- table(%s), set(0) ---\n", t->name);
	if (t->type == FW_TT_IFACE) {
		for (uint32_t k = 0; k < t->count; k++)
			fw_out_printf(x->out, "%s %u\n", t->ifkey[k], t->ifkval[k]);
		return;
	}
	uint32_t n, *e = fw_table_entries(t, &n);
	for (uint32_t k = 0; k < n; k++)
		table_entry(x->out, e[3 * k], (int)e[3 * k + 1], e[3 * k + 2]);
	free(e);
	/* ta_foreach_radix: the IPv4 tree, then the IPv6 one */
	struct fw_lpm6_ent *e6 = fw_table_entries6(t, &n);
	for (uint32_t k = 0; k < n; k++)
		table_entry6(x->out, e6[k].addr, (int)e6[k].plen, e6[k].val);
	free(e6);
}

static bool table_referenced(const struct fw *fw, int ti)
{
	const struct fw_rules *rs = fw_rules_get(fw);
	for (int i = 0; i < rs->n; i++) {
		const struct fw_rule *r = &rs->rule[i];
		for (int k = 0; k < r->nlist; k++)
			if ((r->insn[k].op == FW_OP_SRC_LOOKUP || r->insn[k].op == FW_OP_DST_LOOKUP ||
			     r->insn[k].op == FW_OP_RECV_TAB || r->insn[k].op == FW_OP_XMIT_TAB ||
			     r->insn[k].op == FW_OP_VIA_TAB) &&
			    r->insn[k].a == (uint32_t)ti)
				return true;
	}
	return false;
}

/* tablename_cmp(): shorter names first, then strcmp (so "2" before "10") */
static int name_cmp(const void *a, const void *b)
{
	const struct fw_table *x = *(const struct fw_table *const *)a;
	const struct fw_table *y = *(const struct fw_table *const *)b;
	size_t lx = strlen(x->name), ly = strlen(y->name);
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->name, y->name);
}

/* A table command's words: t[0] the table's name ("all": every table), a[0..na-1] the
 * words after the subcommand, ti the table's index (-1: none of that name). */
struct tabcmd {
	const struct fw_tok *t, *a;
	int na, ti, eol_col;
	const char *name;
	bool all;
};

/* table NAME add|delete KEY [VALUE] ... */
static int table_addel(struct xc *x, const struct tabcmd *c, bool add)
{
	struct fw *fw = x->fw;
	const struct fw_tok *t = c->t, *a = c->a;
	int na = c->na, ti = c->ti;
	const char *name = c->name;
	if (na == 0)
		return fw_err(x->d, c->eol_col, EX_USAGE, "address required");
	/* the table's type, or for a table to be made, the first key's
	 * (tables.c guess_key_type: an address, else an interface name) */
	bool iface = ti >= 0 ? fw_table_at(fw, ti)->type == FW_TT_IFACE
			     : !key_is_addr(a[0].s);
	if (iface)
		return table_iface_mod(x, t, a, na, ti, name, add);
	/* parse every key (and value) before changing anything */
	int cnt = add ? na / 2 + 1 : na, k = 0;
	struct tkey *e = malloc((size_t)cnt * sizeof(*e));
	if (!e)
		return fw_oom(x->d);
	for (int i = 0; i < na; k++) {
		if (table_key(x, &a[i], &e[k]) ||
		    (add && i + 1 < na && table_value(x, &a[i + 1], &e[k].val))) {
			free(e);
			return -EINVAL;
		}
		i += add ? 2 : 1;
	}
	if (ti < 0) {
		if (!add) {
			free(e);
			return fw_kernel_err(x->d, t[0].col, EX_DATAERR, "Table %s does not exist",
					    name);
		}
		int st = table_autocreate(x, t[0].col, name, &ti);
		if (st) {
			free(e);
			return st;
		}
	}
	struct fw_table *tb = fw_table_at(fw, ti);
	int err = 0;
	for (int i = 0; i < k; i++) {
		uint32_t addr = e[i].addr, val = e[i].val;
		int plen = e[i].plen;
		/* tables.c: table_modify_record(..., do_quiet, do_quiet, ...): with -q
		 * an add of an existing key updates its value */
		int rc = e[i].six ? (add ? fw_table_put6(fw, tb, e[i].a6, plen, val, x->quiet)
					 : fw_table_del6(fw, tb, e[i].a6, plen))
			 : add ? fw_table_put(fw, tb, addr, plen, val, x->quiet)
			       : fw_table_del(fw, tb, addr, plen);
		if (rc > 0)
			rc = 0;
		if (rc == -ENOMEM) {
			free(e);
			return fw_oom(x->d);
		}
		if (rc && !err)
			err = rc;
		if (!x->quiet) {
			const char *px = !rc ? (add ? "added" : "deleted")
				       : rc == -EEXIST ? "exists" : "notfound";
			fw_out_printf(x->out, "%s: ", px);
			if (e[i].six) {
				uint8_t m[16];
				fw_mask6(e[i].a6, plen, m);
				table_entry6(x->out, m, plen, val);
			} else {
				uint32_t h = ntohl(addr) & (plen ? 0xffffffffu << (32 - plen) : 0);
				table_entry(x->out, h, plen, val);
			}
		}
	}
	free(e);
	/* "do not yell on duplicate keys or failed deletions" — with -q only */
	if (err && !x->quiet)
		return fw_kernel_err(x->d, a[0].col, EX_OSERR, "%s record failed: %s",
			      add ? "Adding" : "Deleting",
			      err == -EEXIST ? "record already exists" : "record not found");
	return 0;
}

/* table NAME create [type addr] [algo addr:radix] [missing] [or-flush] */
static int table_create_cmd(struct xc *x, const struct tabcmd *c)
{
	struct fw *fw = x->fw;
	const struct fw_tok *t = c->t, *a = c->a;
	int na = c->na, ti = c->ti;
	const char *name = c->name;
	bool missing = false, orflush = false;
	uint8_t type = FW_TT_ADDR;
	for (int i = 0; i < na; i++) {
		const char *w = a[i].s;
		if (!strcmp(w, "type") && i + 1 < na) {
			if (!strcmp(a[++i].s, "iface"))
				type = FW_TT_IFACE;
			else if (strcmp(a[i].s, "addr"))
				return fw_err(x->d, a[i].col, EX_USAGE,
					      "table type '%s' is not supported by ppslab-rut "
					      "(addr or iface)", a[i].s);
		} else if (!strcmp(w, "algo") && i + 1 < na) {
			if (strcmp(a[++i].s, "addr:radix") && strcmp(a[i].s, "iface:array"))
				return fw_err(x->d, a[i].col, EX_USAGE,
					      "algorithm '%s' is not supported by ppslab-rut "
					      "(addr:radix, iface:array)", a[i].s);
		} else if (!strcmp(w, "valtype") && i + 1 < na) {
			if (strcmp(a[++i].s, "legacy"))
				return fw_err(x->d, a[i].col, EX_USAGE,
					      "value type '%s' is not supported by ppslab-rut",
					      a[i].s);
		} else if (!strcmp(w, "missing")) {
			missing = true;
		} else if (!strcmp(w, "or-flush")) {
			missing = orflush = true;
		} else {
			return fw_err(x->d, a[i].col, EX_USAGE,
				      "table create option '%s' is not supported by ppslab-rut "
				      "(type addr|iface, algo, valtype legacy, missing, "
				      "or-flush)", w);
		}
	}
	if (ti >= 0) {
		if (!missing)
			return fw_kernel_err(x->d, t[0].col, EX_OSERR,
					    "Table creation failed: File exists");
		if (orflush)
			fw_table_flush(fw, fw_table_at(fw, ti));
		return 0;
	}
	ti = fw_table_create(fw, name);
	if (ti < 0)
		return fw_kernel_err(x->d, t[0].col, EX_OSERR, "Table creation failed: %s",
			      ti == -ENOMEM ? "Cannot allocate memory" : "No space left on device");
	fw_table_at(fw, ti)->type = type;
	return 0;
}

/* table NAME|all destroy|flush */
static int table_clear(struct xc *x, const struct tabcmd *c, bool destroy)
{
	struct fw *fw = x->fw;
	const struct fw_tok *t = c->t;
	int ti = c->ti;
	const char *name = c->name;
	bool all = c->all;
	for (int i = 0; i < FW_MAX_TABLES; i++) {
		if (!fw_table_at(fw, i) || (!all && i != ti))
			continue;
		if (destroy && table_referenced(fw, i)) {
			if (all)
				continue;
			return fw_kernel_err(x->d, t[0].col, EX_OSERR, "failed to destroy "
					    "table %s: Device busy", name);
		}
		if (destroy)
			fw_table_destroy(fw, i);
		else
			fw_table_flush(fw, fw_table_at(fw, i));
	}
	if (!all && ti < 0 && !x->quiet)
		fw_warn(x->d, "ipfw: failed to %s table %s%s: No such process\n",
			destroy ? "destroy" : "flush", name, destroy ? "" : " info");
	return 0;
}

/* table NAME|all list */
static int table_list_cmd(struct xc *x, const struct tabcmd *c)
{
	struct fw *fw = x->fw;
	const struct fw_tok *t = c->t;
	int ti = c->ti;
	bool all = c->all;
	if (!all) {
		if (ti < 0)
			return fw_kernel_err(x->d, t[0].col, EX_OSERR,
					    "failed to request table info: No such process");
		table_list(x, fw_table_at(fw, ti), false);
		return 0;
	}
	const struct fw_table *v[FW_MAX_TABLES];
	int nv = 0;
	for (int i = 0; i < FW_MAX_TABLES; i++)
		if (fw_table_at(fw, i))
			v[nv++] = fw_table_at(fw, i);
	qsort(v, (size_t)nv, sizeof(v[0]), name_cmp);
	for (int i = 0; i < nv; i++)
		table_list(x, v[i], true);
	return 0;
}

/* table NAME lookup ADDR */
static int table_lookup_cmd(struct xc *x, const struct tabcmd *c)
{
	struct fw *fw = x->fw;
	const struct fw_tok *t = c->t, *a = c->a;
	int na = c->na, ti = c->ti;
	const char *name = c->name;
	if (na == 0)
		return fw_err(x->d, c->eol_col, EX_USAGE, "address required");
	struct tkey key;
	uint32_t val;
	if (ti >= 0 && fw_table_at(fw, ti)->type == FW_TT_IFACE) {
		if (table_ifkey(x, &a[0]))
			return -EINVAL;
		if (!fw_iftable_lookup(fw_table_at(fw, ti), a[0].s, &val))
			return fw_kernel_err(x->d, a[0].col, EX_UNAVAILABLE,
					    "Entry %s not found", a[0].s);
		fw_out_printf(x->out, "%s %u\n", a[0].s, val);
		return 0;
	}
	if (table_key(x, &a[0], &key))
		return -EINVAL;
	if (ti < 0)
		return fw_kernel_err(x->d, t[0].col, EX_UNAVAILABLE, "Table %s not found",
				    name);
	const struct fw_table *tb = fw_table_at(fw, ti);
	uint32_t addr = key.addr;
	if (key.six) {
		const struct fw_lpm6_ent *hit;
		if (!fw_table_lookup6(tb, key.a6, &val, &hit))
			return fw_kernel_err(x->d, a[0].col, EX_UNAVAILABLE, "Entry %s not found",
					    a[0].s);
		table_entry6(x->out, hit->addr, (int)hit->plen, hit->val);
		return 0;
	}
	if (!fw_table_lookup(tb, addr, &val))
		return fw_kernel_err(x->d, a[0].col, EX_UNAVAILABLE, "Entry %s not found",
				    a[0].s);
	/* the entry that matched: the longest length holding the address */
	for (int l = 32; l >= 0; l--) {
		uint32_t m = l ? 0xffffffffu << (32 - l) : 0, v2;
		if (fw_table_lookup_len(tb, addr, l, &v2)) {
			table_entry(x->out, ntohl(addr) & m, l, v2);
			break;
		}
	}
	return 0;
}

static int cmd_table(struct xc *x, const struct fw_tok *t, int n, int eol_col)
{
	struct fw *fw = x->fw;
	if (n < 1)
		return fw_err(x->d, eol_col, EX_USAGE, "table needs name");
	const char *name = t[0].s;
	bool all = !strcmp(name, "all");
	if (!all && !fw_table_name_ok(name))
		return fw_err(x->d, t[0].col, EX_USAGE, "table name %s is invalid", name);
	if (n < 2)
		return fw_err(x->d, eol_col, EX_USAGE, "table needs command");
	static const char *const cmds[] = { "add", "delete", "create", "destroy", "flush", "list",
					    "lookup", "modify", "swap", "info", "detail", "atomic",
					    "lock", "unlock", NULL };
	/* get_token(): a unique prefix */
	int which = -1, hits = 0;
	for (int k = 0; cmds[k]; k++)
		if (!strncmp(cmds[k], t[1].s, strlen(t[1].s)) && t[1].s[0]) {
			which = k;
			hits++;
		}
	if (hits != 1)
		return fw_err(x->d, t[1].col, EX_USAGE, "%s table command %s",
			      hits ? "ambiguous" : "invalid", t[1].s);
	const char *cmd = cmds[which];
	if (which >= 7)
		return fw_err(x->d, t[1].col, EX_USAGE, "'ipfw table %s' is not supported by ppslab-rut",
			      cmd);
	if (all && which != 3 && which != 4 && which != 5)
		return fw_err(x->d, t[0].col, EX_USAGE, "table name required");
	struct tabcmd c = { .t = t, .a = t + 2, .na = n - 2, .eol_col = eol_col, .name = name,
			    .all = all, .ti = all ? -1 : fw_table_find(fw, name) };
	switch (which) {
	case 0:
	case 1: return table_addel(x, &c, which == 0);
	case 2: return table_create_cmd(x, &c);
	case 3:
	case 4: return table_clear(x, &c, which == 3);
	case 5: return table_list_cmd(x, &c);
	case 6: return table_lookup_cmd(x, &c);
	}
	return -EINVAL;
}

/* [-flags] COMMAND ARGS, t[0] being the first word after an optional "ipfw" */
static int run(struct xc *x, const struct fw_tok *t, int n, int eol_col)
{
	int i = 0;
	for (; i < n && t[i].s[0] == '-' && t[i].s[1]; i++) {
		for (const char *f = t[i].s + 1; *f; f++) {
			switch (*f) {
			case 'q': x->quiet = true; break;
			case 'f': break;   /* no confirmation is ever asked */
			case 'a': x->acct = true; break;
			case 't': x->times = true; break;
			case 'N': break;   /* names are not resolved in listings */
			case 'd': if (!(x->dyn & 3)) x->dyn |= 1; break;
			case 'D': x->dyn = (x->dyn & 4) | 2; break;
			case 'e': x->dyn |= 4; break;   /* expired states in full (with -d) */
			default:
				return fw_err(x->d, t[i].col, EX_USAGE,
					      "unknown flag '-%c' (supported: -q -f -a -t -N -d -D -e)", *f);
			}
		}
	}
	if (i == n)
		return fw_err(x->d, eol_col, EX_USAGE,
			      "expected a command (add, delete, flush, zero, resetlog, show, list)");
	const char *cmd = t[i].s;
	const struct fw_tok *a = t + i + 1;
	int na = n - i - 1;
	bool changes = false;
	enum { ADD, DEL, FLUSH, ZERO, RESETLOG, LIST, SHOW, ENABLE, DISABLE, TABLE, NONE } which = NONE;
	/* ipfw2's command prefixes, checked in its order ("d" is delete, "s" set) */
	if (fw_prefix(cmd, "add", 1)) which = ADD, changes = true;
	else if (fw_prefix(cmd, "delete", 1)) which = DEL, changes = true;
	else if (fw_prefix(cmd, "flush", 1)) which = FLUSH, changes = true;
	else if (fw_prefix(cmd, "zero", 1)) which = ZERO, changes = true;
	else if (fw_prefix(cmd, "resetlog", 1)) which = RESETLOG, changes = true;
	else if (fw_prefix(cmd, "print", 1) || fw_prefix(cmd, "list", 1)) which = LIST;
	else if (fw_prefix(cmd, "enable", 1)) which = ENABLE;
	else if (fw_prefix(cmd, "disable", 2)) which = DISABLE;
	else if (fw_prefix(cmd, "table", 1)) which = TABLE, changes = true;
	else if (fw_prefix(cmd, "set", 1) || fw_prefix(cmd, "pipe", 2) ||
		 fw_prefix(cmd, "queue", 1) || fw_prefix(cmd, "nat", 1))
		return fw_err(x->d, t[i].col, EX_USAGE, "'ipfw %s' is not supported by ppslab-rut", cmd);
	else if (fw_prefix(cmd, "show", 1)) which = SHOW;
	else
		return fw_err(x->d, t[i].col, EX_USAGE, "bad command `%s'", cmd);
	if (x->file && !changes)
		return fw_err(x->d, t[i].col, EX_DATAERR,
			      "'%s' cannot appear in a rules file (only add, delete, flush, zero, "
			      "resetlog, table)", cmd);
	/* a live rule change: on a stage, published by the command (add, to echo the rule
	 * as it went in) or here (delete and flush, which ipfw applies as far as it can
	 * even when it fails) */
	bool stage = !x->file && (which == ADD || which == DEL || which == FLUSH);
	if (stage) {
		if (stage_begin(x))
			return fw_oom(x->d);
		int rc = which == ADD ? cmd_add(x, a, na, eol_col)
		       : which == DEL ? cmd_delete(x, a, na, eol_col) : cmd_flush(x);
		if (x->grave) {
			if (which == ADD)
				stage_abort(x);
			else
				stage_commit(x);
		}
		return rc;
	}
	switch (which) {
	case ADD: return cmd_add(x, a, na, eol_col);
	case DEL: return cmd_delete(x, a, na, eol_col);
	case FLUSH: return cmd_flush(x);
	case ZERO: return cmd_zero(x, a, na, true);
	case RESETLOG: return cmd_zero(x, a, na, false);
	case SHOW: x->acct = true; return cmd_show(x, a, na);
	case LIST: return cmd_show(x, a, na);
	case TABLE: return cmd_table(x, a, na, eol_col);
	case ENABLE: return cmd_enable(x, a, na, eol_col, true);
	case DISABLE: return cmd_enable(x, a, na, eol_col, false);
	case NONE: break;
	}
	return -EINVAL;
}

int fw_exec(struct fw *fw, const char *line, char *out, size_t outlen, struct fw_diag *d)
{
	struct fw_diag dummy;
	if (!d)
		d = &dummy;
	if (!d->file[0]) {
		strcpy(d->file, "-");
		d->line = 0;
	}
	d->col = 0;
	d->kernel = false;
	d->msg[0] = '\0';
	d->warn[0] = '\0';
	d->ex = 0;
	struct fw_out o = { .buf = out, .len = outlen };
	if (out && outlen)
		out[0] = '\0';
	struct fw_lex *lx = malloc(sizeof(*lx));
	if (!lx)
		return fw_oom(d);
	int rc = fw_lex(line, lx, d);
	if (!rc) {
		struct xc x = { .fw = fw, .rules = atomic_load_explicit(&fw->rules, memory_order_acquire), .out = &o,
				.d = d };
		int skip = lx->n && !strcmp(lx->t[0].s, "ipfw");
		rc = run(&x, lx->t + skip, lx->n - skip, lx->eol_col);
	}
	free(lx);
	if (!rc && out && outlen && o.need > outlen - 1) {
		fw_err(d, 0, EX_SOFTWARE, "output truncated (%zu bytes needed)", o.need + 1);
		rc = -ENOSPC;
	}
	return rc;
}

/* ---- rule files ---- */

static bool is_action_word(const char *s)
{
	static const char *const w[] = { "allow", "accept", "pass", "permit", "deny", "drop",
					 "reject", "reset", "unreach", "count", "skipto",
					 "check-state", "//", NULL };
	for (int k = 0; w[k]; k++)
		if (!strcmp(s, w[k]))
			return true;
	return false;
}

static bool is_num(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* `ipfw show -t` puts ctime()'s "Sun Nov 26 15:00:35 2006" before the body */
static bool is_weekday(const char *s)
{
	static const char *const d[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", NULL };
	for (int k = 0; d[k]; k++)
		if (!strcmp(s, d[k]))
			return true;
	return false;
}

/* "65535 [P B] deny|allow ip from any to any": the default rule as ipfw lists it */
static bool is_default_body(const struct fw_tok *t, int n)
{
	static const char *const acts[] = { "deny", "drop", "allow", "accept", "pass", "permit", NULL };
	if (n != 6)
		return false;
	bool act = false;
	for (int k = 0; acts[k]; k++)
		act |= !strcmp(t[0].s, acts[k]);
	return act && (!strcmp(t[1].s, "ip") || !strcmp(t[1].s, "all")) &&
	       !strcmp(t[2].s, "from") && !strcmp(t[3].s, "any") && !strcmp(t[4].s, "to") &&
	       !strcmp(t[5].s, "any");
}

/* One line of a rules file: an ipfw command ("ipfw -q add ...", "add ...", "flush"), a
 * rule body with or without its number, or a line of `ipfw show`/`list` output. */
static int file_line(struct xc *x, struct fw_lex *lx)
{
	struct fw_tok *t = lx->t;
	int n = lx->n;
	x->quiet = x->acct = x->times = false;
	if (!n)
		return 0;
	if (!strcmp(t[0].s, "ipfw"))
		return run(x, t + 1, n - 1, lx->eol_col);
	if (is_action_word(t[0].s))
		return cmd_add(x, t, n, lx->eol_col);
	if (is_num(t[0].s)) {
		int body = 1;
		if (n >= 3 && is_num(t[1].s) && is_num(t[2].s)) {
			/* `ipfw show`: NUMBER PACKETS BYTES [ctime] BODY — counters ignored */
			body = 3;
			if (n >= body + 5 && is_weekday(t[body].s))
				body += 5;
		}
		if (strtoul(t[0].s, NULL, 10) == FW_DEFAULT_RULE && is_default_body(t + body, n - body))
			return 0;   /* the default rule: always present, its action a tunable */
		if (body > 1) {
			/* drop the counter words: the rule is number + body */
			memmove(&t[1], &t[body], (size_t)(n - body) * sizeof(*t));
			n -= body - 1;
		}
		return cmd_add(x, t, n, lx->eol_col);
	}
	if (t[0].s[0] == '-' || fw_prefix(t[0].s, "add", 1) || fw_prefix(t[0].s, "delete", 1) ||
	    fw_prefix(t[0].s, "flush", 1) || fw_prefix(t[0].s, "zero", 1) ||
	    fw_prefix(t[0].s, "resetlog", 1) || fw_prefix(t[0].s, "table", 1))
		return run(x, t, n, lx->eol_col);
	return fw_err(x->d, t[0].col, EX_DATAERR,
		      "expected an ipfw command, a rule (NUMBER ACTION ... or ACTION ...) or a line "
		      "of `ipfw show` output, got '%s'", t[0].s);
}

/* Applies (or, with check, only tries) every line of path on a copy of fw's ruleset.
 * Load: 0, or the first error (in *first) and nothing changed. Check: the number of
 * erroneous lines (each passed to fn). Either: -errno when the file cannot be read. */
static int run_file(struct fw *fw, const char *path, bool check, fw_diag_fn fn, void *arg,
		    struct fw_diag *first)
{
	struct fw_diag d;
	int nerr = 0, err1 = 0, fatal = 0, lineno = 0;
	memset(&d, 0, sizeof(d));
	snprintf(d.file, sizeof(d.file), "%s", path);
	FILE *f = fopen(path, "r");
	if (!f) {
		fatal = -errno;
		fw_err(&d, 0, EX_NOINPUT, "cannot open: %s", strerror(-fatal));
		*first = d;
		return fatal;
	}
	struct fw_out o = { 0 };
	struct xc x = { .fw = fw, .file = true, .check = check, .out = &o, .d = &d };
	struct fw_lex *lx = malloc(sizeof(*lx));
	if (!lx || stage_begin(&x)) {
		free(lx);
		fclose(f);
		fw_err(&d, 0, EX_OSERR, "out of memory");
		*first = d;
		return -ENOMEM;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		char keep[sizeof(d.warn)];
		memcpy(keep, d.warn, sizeof(keep));
		memset(&d, 0, sizeof(d));
		memcpy(d.warn, keep, sizeof(keep));
		x.warnings = 0;
		const char *nul = memchr(line, 0, (size_t)len);
		int lrc = nul ? fw_err(&d, (int)(nul - line) + 1, EX_DATAERR,
				       "unexpected byte 0x00 (rules are ASCII text)")
			      : fw_lex(line, lx, &d);
		if (!lrc)
			lrc = file_line(&x, lx);
		if (!lrc)
			continue;
		snprintf(d.file, sizeof(d.file), "%s", path);
		d.line = lineno;
		if (!d.ex)
			d.ex = EX_DATAERR;
		if (nerr++ == 0) {
			*first = d;
			err1 = lrc;
		}
		if (fn)
			fn(arg, &d);
		if (lrc == -ENOMEM || !check)
			break;
	}
	memcpy(first->warn, d.warn, sizeof(d.warn));
	if (!nerr && ferror(f)) {
		fatal = -EIO;
		memset(&d, 0, sizeof(d));
		snprintf(d.file, sizeof(d.file), "%s", path);
		d.line = lineno;
		fw_err(&d, 0, EX_IOERR, "read error");
		*first = d;
	}
	free(line);
	free(lx);
	fclose(f);
	if (!nerr && !fatal && !check && fw_rules_sort(x.rules)) {
		fatal = -ENOMEM;
		fw_err(&d, 0, EX_OSERR, "out of memory");
		*first = d;
	}
	if (nerr || fatal || check)
		stage_abort(&x);
	else
		stage_commit(&x);
	if (fatal)
		return fatal;
	return check ? nerr : err1;
}

int fw_load_file(struct fw *fw, const char *path, struct fw_diag *d)
{
	struct fw_diag tmp;
	return run_file(fw, path, false, NULL, NULL, d ? d : &tmp);
}

int fw_check_file_all(const char *path, const char *const *if_names, int n_ifs,
		      fw_diag_fn fn, void *arg)
{
	struct fw *fw = fw_new(if_names, n_ifs, NULL, 0);
	if (!fw)
		return -errno;
	struct fw_diag first;
	memset(&first, 0, sizeof(first));
	int rc = run_file(fw, path, true, fn, arg, &first);
	fw_free(fw);
	if (rc >= 0 && first.warn[0] && fn) {
		/* the warnings `add` prints (an interface no port has), as one diagnostic
		 * with ex 0 */
		struct fw_diag w;
		memset(&w, 0, sizeof(w));
		memcpy(w.warn, first.warn, sizeof(w.warn));
		fn(arg, &w);
	}
	return rc;
}

int fw_check_file(const char *path, const char *const *if_names, int n_ifs, struct fw_diag *d)
{
	struct fw *fw = fw_new(if_names, n_ifs, NULL, 0);
	if (!fw)
		return -errno;
	struct fw_diag tmp;
	int rc = run_file(fw, path, true, NULL, NULL, d ? d : &tmp);
	fw_free(fw);
	return rc > 0 ? -EINVAL : rc;
}
