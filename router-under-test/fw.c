/* fw.c — the firewall's ruleset and its ipfw(8) commands: rule numbering and
 * auto-increment (B.2), add/delete/flush/zero/resetlog/show/list (B.1, B.9), tunables,
 * and loading or checking rule files as one transaction. Called by the forwarder and
 * its control socket (fw_exec, fw_load_file), by main.c (--check-rules) and the tests.
 * Matching is fw_eval.c, listing fw_show.c, the rule language fw_parse.c.
 *
 * The ruleset is struct fw_set (fw_impl.h): parallel arrays in (number, insertion)
 * order ending with rule 65535. A live `add` inserts in place; a file is applied to a
 * copy of the arrays (the rules' compiled tests are shared, not copied), appending out
 * of order if it must and sorting once at the end, then swapped in — so 20,000 rules
 * load in a few tens of milliseconds and a bad line leaves the ruleset untouched. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "fw_impl.h"

/* ---- sets ---- */

static int set_reserve(struct fw_set *s, int need)
{
	if (need <= s->cap)
		return 0;
	int cap = s->cap ? s->cap : 64;
	while (cap < need)
		cap *= 2;
	struct fw_hot *h = realloc(s->hot, (size_t)cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	s->hot = h;
	struct fw_rule *r = realloc(s->rule, (size_t)cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	s->rule = r;
	struct fw_ctr *c = realloc(s->ctr, (size_t)cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	s->ctr = c;
	struct fw_blk *b = realloc(s->blk, (size_t)(cap + FW_BLK - 1) / FW_BLK * sizeof(*b));
	if (!b)
		return -ENOMEM;
	s->blk = b;
	struct fw_cand *k = realloc(s->cand, (size_t)cap * sizeof(*k));
	if (!k)
		return -ENOMEM;
	s->cand = k;
	s->cap = cap;
	return 0;
}

static void set_free_arrays(struct fw_set *s)
{
	free(s->blk);
	free(s->cand);
	free(s->arena);
	free(s->hot);
	free(s->rule);
	free(s->ctr);
	memset(s, 0, sizeof(*s));
}

/* A set holding only rule 65535 */
static int set_init(struct fw_set *s)
{
	memset(s, 0, sizeof(*s));
	if (set_reserve(s, 64))
		return -ENOMEM;
	memset(&s->hot[0], 0, sizeof(s->hot[0]));
	memset(&s->rule[0], 0, sizeof(s->rule[0]));
	memset(&s->ctr[0], 0, sizeof(s->ctr[0]));
	s->hot[0].number = FW_DEFAULT_RULE;
	s->hot[0].action = FW_A_DEFAULT;
	s->hot[0].spspan = s->hot[0].dpspan = FW_NO_PORT;
	s->n = 1;
	s->sorted = true;
	fw_set_finish(s);
	return 0;
}

static int set_clone(struct fw_set *dst, const struct fw_set *src)
{
	memset(dst, 0, sizeof(*dst));
	if (set_reserve(dst, src->n + 64)) {
		set_free_arrays(dst);
		return -ENOMEM;
	}
	memcpy(dst->hot, src->hot, (size_t)src->n * sizeof(*dst->hot));
	memcpy(dst->rule, src->rule, (size_t)src->n * sizeof(*dst->rule));
	memcpy(dst->ctr, src->ctr, (size_t)src->n * sizeof(*dst->ctr));
	dst->arena = NULL;   /* built by fw_set_finish() when the copy is committed */
	dst->arena_cap = 0;
	dst->n = src->n;
	dst->sorted = src->sorted;
	dst->seq_next = src->seq_next;
	return 0;
}

/* The number of the last rule before 65535 (0 if none): B.2's `prev` */
static uint32_t set_last_number(const struct fw_set *s)
{
	if (s->sorted)
		return s->n > 1 ? s->hot[s->n - 2].number : 0;
	uint32_t m = 0;
	for (int i = 0; i < s->n - 1; i++)
		if (s->hot[i].number > m)
			m = s->hot[i].number;
	return m;
}

struct order {
	uint32_t number, seq;
	int idx;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Stable order by (number, insertion) after out-of-order appends. */
static int set_sort(struct fw_set *s)
{
	if (s->sorted)
		return 0;
	int n = s->n - 1;   /* rule 65535 stays last */
	struct order *o = malloc((size_t)n * sizeof(*o));
	struct fw_hot *h = malloc((size_t)s->cap * sizeof(*h));
	struct fw_rule *r = malloc((size_t)s->cap * sizeof(*r));
	struct fw_ctr *c = malloc((size_t)s->cap * sizeof(*c));
	if (!o || !h || !r || !c) {
		free(o);
		free(h);
		free(r);
		free(c);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		o[i] = (struct order){ s->hot[i].number, s->rule[i].seq, i };
	qsort(o, (size_t)n, sizeof(*o), cmp_order);
	for (int i = 0; i <= n; i++) {
		int from = i < n ? o[i].idx : n;
		h[i] = s->hot[from];
		r[i] = s->rule[from];
		c[i] = s->ctr[from];
	}
	free(o);
	free(s->hot);
	free(s->rule);
	free(s->ctr);
	s->hot = h;
	s->rule = r;
	s->ctr = c;
	s->sorted = true;
	return 0;
}

/* first index whose number is >= num (the default rule bounds every search) */
static int lower_bound(const struct fw_set *s, uint32_t num)
{
	int lo = 0, hi = s->n - 1;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->hot[mid].number < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void fw_set_finish(struct fw_set *s)
{
	int total = 0;
	for (int i = 0; i < s->n; i++)
		total += s->hot[i].nprog;
	if (total > s->arena_cap) {
		struct fw_insn *a = realloc(s->arena, (size_t)total * sizeof(*a));
		if (a) {
			s->arena = a;
			s->arena_cap = total;
		}
	}
	bool in_arena = total <= s->arena_cap;
	for (int i = 0, at = 0; i < s->n; i++) {
		const struct fw_hot *h = &s->hot[i];
		const struct fw_rule *r = &s->rule[i];
		struct fw_cand *c = &s->cand[i];
		c->nprog = h->nprog;
		c->action = h->action;
		c->log = h->log;
		c->number = h->number;
		c->prog = h->nprog ? r->insn + r->nlist : NULL;
		if (h->nprog && in_arena) {
			memcpy(&s->arena[at], c->prog, h->nprog * sizeof(*s->arena));
			c->prog = &s->arena[at];
			at += h->nprog;
		}
	}
	for (int b = 0; b < (s->n + FW_BLK - 1) / FW_BLK; b++) {
		struct fw_blk *k = &s->blk[b];
		k->ports = 0;
		for (int l = 0; l < FW_BLK; l++) {
			int i = b * FW_BLK + l, v = l / 4, e = l % 4;
			struct fw_hot never = { .saddr = 1, .spspan = FW_NO_PORT, .dpspan = FW_NO_PORT };
			/* past the end: (src & 0) ^ 1 is never 0 */
			const struct fw_hot *h = i < s->n ? &s->hot[i] : &never;
			k->saddr[v][e] = h->saddr;
			k->smask[v][e] = h->smask;
			k->daddr[v][e] = h->daddr;
			k->dmask[v][e] = h->dmask;
			k->kval[v][e] = h->kval;
			k->kmask[v][e] = h->kmask;
			k->splo[v][e] = h->splo;
			k->spspan[v][e] = h->spspan ^ 0x80000000u;
			k->dplo[v][e] = h->dplo;
			k->dpspan[v][e] = h->dpspan ^ 0x80000000u;
			k->ports |= (h->spspan != FW_NO_PORT) | (h->dpspan != FW_NO_PORT);
		}
	}
	/* skipto never goes backwards (B.3). FreeBSD (2013): a target <= the rule's own
	 * number becomes number+1, then the first rule numbered >= target. Older ipfw2 and
	 * DragonFly: search forward from the next rule for the first numbered >= target,
	 * so a backward target lands on the very next rule (T14). */
	for (int i = 0; i < s->n; i++) {
		if (s->hot[i].action != FW_A_SKIPTO)
			continue;
		uint32_t num = s->hot[i].number, t = s->rule[i].skipto;
		s->rule[i].skip_fb = (uint32_t)lower_bound(s, t <= num ? num + 1 : t);
		int df = lower_bound(s, t);
		s->rule[i].skip_df = (uint32_t)(df > i ? df : i + 1);
	}
}

/* Appends before rule 65535; the set stays sorted only if the number keeps order. */
static int set_push(struct fw_set *s, const struct fw_compiled *c, uint32_t number)
{
	if (set_reserve(s, s->n + 1))
		return -ENOMEM;
	int at = s->n - 1;
	if (at > 0 && s->hot[at - 1].number > number)
		s->sorted = false;
	s->hot[at + 1] = s->hot[at];
	s->rule[at + 1] = s->rule[at];
	s->ctr[at + 1] = s->ctr[at];
	s->hot[at] = c->hot;
	s->hot[at].number = number;
	s->rule[at] = c->rule;
	s->rule[at].seq = s->seq_next++;
	memset(&s->ctr[at], 0, sizeof(s->ctr[at]));
	s->n++;
	return 0;
}

/* Inserts after the existing rules with the same number (B.2) in a sorted set.
 * Returns the new rule's index or -ENOMEM. */
static int set_insert(struct fw_set *s, const struct fw_compiled *c, uint32_t number)
{
	if (set_reserve(s, s->n + 1))
		return -ENOMEM;
	int at = lower_bound(s, number + 1);
	int tail = s->n - at;
	memmove(&s->hot[at + 1], &s->hot[at], (size_t)tail * sizeof(*s->hot));
	memmove(&s->rule[at + 1], &s->rule[at], (size_t)tail * sizeof(*s->rule));
	memmove(&s->ctr[at + 1], &s->ctr[at], (size_t)tail * sizeof(*s->ctr));
	s->hot[at] = c->hot;
	s->hot[at].number = number;
	s->rule[at] = c->rule;
	s->rule[at].seq = s->seq_next++;
	memset(&s->ctr[at], 0, sizeof(s->ctr[at]));
	s->n++;
	return at;
}

/* Rules removed from a staged set are freed only when the load commits (the live set
 * may still own them); rules removed from the live set are freed at once. */
struct grave {
	struct fw_rule *r;
	int n, cap;
};

static void bury(struct grave *g, const struct fw_rule *r)
{
	if (!g) {
		free(r->insn);
		return;
	}
	if (g->n == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		struct fw_rule *nr = realloc(g->r, (size_t)cap * sizeof(*nr));
		if (!nr) {
			/* cannot defer: leak rather than free what the live set may use */
			return;
		}
		g->r = nr;
		g->cap = cap;
	}
	g->r[g->n++] = *r;
}

/* Removes the user rules numbered num (all user rules when num is 0). Returns how many. */
static int set_remove(struct fw_set *s, uint32_t num, struct grave *g)
{
	int j = 0, removed = 0;
	for (int i = 0; i < s->n; i++) {
		bool kill = s->hot[i].action != FW_A_DEFAULT && (!num || s->hot[i].number == num);
		if (kill) {
			bury(g, &s->rule[i]);
			removed++;
			continue;
		}
		if (j != i) {
			s->hot[j] = s->hot[i];
			s->rule[j] = s->rule[i];
			s->ctr[j] = s->ctr[i];
		}
		j++;
	}
	s->n = j;
	return removed;
}

static void zero_rule(struct fw_set *s, int i, bool counters)
{
	if (counters)
		memset(&s->ctr[i], 0, sizeof(s->ctr[i]));
	s->rule[i].log_left = s->rule[i].log_max;
}

/* ---- the handle ---- */

struct fw *fw_new(const char *const *if_names, int n_ifs, const uint32_t *local_addrs,
		  int n_local)
{
	if (n_ifs < 0 || n_ifs > FW_MAX_IFS || n_local < 0 || (n_ifs && !if_names) ||
	    (n_local && !local_addrs)) {
		errno = EINVAL;
		return NULL;
	}
	struct fw *fw = calloc(1, sizeof(*fw));
	if (!fw)
		return NULL;
	for (int i = 0; i < n_ifs; i++) {
		if (!if_names[i] || strlen(if_names[i]) >= FW_IFNAMSIZ) {
			free(fw);
			errno = EINVAL;
			return NULL;
		}
		strcpy(fw->ifname[i], if_names[i]);
	}
	fw->nifs = n_ifs;
	if (n_local) {
		fw->local = malloc((size_t)n_local * sizeof(*fw->local));
		if (!fw->local) {
			free(fw);
			return NULL;
		}
		memcpy(fw->local, local_addrs, (size_t)n_local * sizeof(*fw->local));
		fw->nlocal = n_local;
	}
	/* FreeBSD/DragonFly defaults; update_counters is this project's extension */
	fw->tun = (struct fw_tunables){ .enable = true, .update_counters = true,
					.autoinc_step = 100, .one_pass = true };
	if (set_init(&fw->set)) {
		free(fw->local);
		free(fw);
		errno = ENOMEM;
		return NULL;
	}
	return fw;
}

void fw_free(struct fw *fw)
{
	if (!fw)
		return;
	for (int i = 0; i < fw->set.n; i++)
		free(fw->set.rule[i].insn);
	set_free_arrays(&fw->set);
	free(fw->local);
	free(fw);
}

struct fw_tunables *fw_tunables(struct fw *fw)
{
	return &fw->tun;
}

void fw_set_if_addrs(struct fw *fw, const uint32_t *if_addrs, int n_ifs)
{
	for (int i = 0; i < FW_MAX_IFS; i++)
		fw->ifaddr[i] = i < n_ifs ? if_addrs[i] : 0;
}

void fw_set_log(struct fw *fw, fw_log_fn fn, void *arg)
{
	fw->log_fn = fn;
	fw->log_arg = arg;
}

void fw_set_now(struct fw *fw, uint64_t now_s)
{
	fw->now_s = now_s;
}

uint32_t fw_autoinc_step(const struct fw *fw)
{
	uint32_t s = fw->tun.autoinc_step;
	return s < 1 ? 1 : s > 1000 ? 1000 : s;   /* clamped as BSD's sysctl handler does */
}

int fw_rule_count(const struct fw *fw)
{
	return fw->set.n;
}

int fw_rule_stats(const struct fw *fw, int idx, struct fw_rule_stats *st)
{
	if (idx < 0 || idx >= fw->set.n)
		return -ENOENT;
	st->number = fw->set.hot[idx].number;
	st->pkts = fw->set.ctr[idx].pkts;
	st->bytes = fw->set.ctr[idx].bytes;
	st->last_match_s = fw->set.ctr[idx].last_s;
	return 0;
}

int fw_rule_text(const struct fw *fw, int idx, char *buf, size_t len)
{
	if (idx < 0 || idx >= fw->set.n)
		return -ENOENT;
	return fw_list_body(fw, idx, buf, len);
}

const char *fw_diag_str(const struct fw_diag *d, char *buf, size_t len)
{
	if (d->line > 0)
		snprintf(buf, len, "%s:%d:%d: %s", d->file[0] ? d->file : "-", d->line, d->col,
			 d->msg);
	else if (d->col > 0)
		snprintf(buf, len, "%s (column %d)", d->msg, d->col);
	else
		snprintf(buf, len, "%s", d->msg);
	return buf;
}

/* ---- commands ---- */

struct xc {
	struct fw *fw;
	struct fw_set *set;     /* the live set, or a staged copy */
	struct grave *grave;    /* NULL: live (free removed rules at once) */
	bool quiet, acct, times;
	bool file;              /* a line of a rules file: only commands that change rules */
	bool check;             /* checking a file: unknown rule numbers are not errors */
	struct fw_out *out;
	struct fw_diag *d;
	int warnings;           /* "rule N: ..." warnings after the first (in d->msg) */
};

static int warn_unavail(struct xc *x, int col, uint32_t num, const char *op)
{
	if (x->warnings++ == 0)
		fw_err(x->d, col, EX_UNAVAILABLE, "rule %u: setsockopt(IP_FW_%s): Invalid argument",
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

static int parse_num_arg(struct xc *x, const struct fw_tok *t, uint32_t *num)
{
	char *end;
	unsigned long v = strtoul(t->s, &end, 10);
	if (!*t->s || *end || t->s[0] == '-' || t->s[0] == '+' || v > 65535)
		return fw_err(x->d, t->col, EX_USAGE, "invalid rule number '%s' (1..65535)", t->s);
	*num = (uint32_t)v;
	return 0;
}

static int cmd_add(struct xc *x, const struct fw_tok *t, int n, int eol_col)
{
	struct fw_compiled c;
	int rc = fw_compile(x->fw, t, n, eol_col, &c, x->d);
	if (rc)
		return rc;
	uint32_t num = c.number;
	if (!num) {
		/* B.2: prev + step, or prev again once that would reach 65535 */
		uint32_t prev = set_last_number(x->set), step = fw_autoinc_step(x->fw);
		num = prev >= FW_DEFAULT_RULE - step ? prev : prev + step;
		if (!num)
			num = step;
	}
	c.rule.staged = x->grave != NULL;
	rc = x->file ? set_push(x->set, &c, num) : set_insert(x->set, &c, num);
	if (rc < 0) {
		free(c.rule.insn);
		return fw_oom(x->d);
	}
	if (!x->file) {
		fw_set_finish(x->set);
		if (!x->quiet) {
			/* the echo is the rule in list form, without counters (B.2) */
			fw_out_printf(x->out, "%05u ", num);
			fw_out_body(x->fw, rc, x->out);
			fw_out_puts(x->out, "\n");
		}
	}
	return 0;
}

static int cmd_delete(struct xc *x, const struct fw_tok *t, int n, int eol_col)
{
	int rc = 0;
	if (n == 0)
		return fw_err(x->d, eol_col, EX_USAGE, "expected a rule number after 'delete'");
	if (set_sort(x->set)) {
		return fw_oom(x->d);
	}
	for (int k = 0; k < n; k++) {
		uint32_t num;
		if (parse_num_arg(x, &t[k], &num))
			return -EINVAL;
		/* rule 65535 cannot be deleted; an unknown number is EINVAL (ipfw exits 69) */
		if (num == FW_DEFAULT_RULE || num == 0 ||
		    (!set_remove(x->set, num, x->grave) && !x->check))
			rc = warn_unavail(x, t[k].col, num, "DEL");
	}
	fw_set_finish(x->set);
	return finish_warnings(x, rc);
}

static int cmd_zero(struct xc *x, const struct fw_tok *t, int n, bool counters)
{
	const char *op = counters ? "ZERO" : "RESETLOG";
	int rc = 0;
	if (n == 0) {
		for (int i = 0; i < x->set->n; i++)
			zero_rule(x->set, i, counters);
		if (!x->quiet)
			fw_out_puts(x->out, counters ? "Accounting cleared.\n" : "Logging counts reset.\n");
		return 0;
	}
	if (set_sort(x->set)) {
		return fw_oom(x->d);
	}
	for (int k = 0; k < n; k++) {
		uint32_t num;
		if (parse_num_arg(x, &t[k], &num))
			return -EINVAL;
		int found = 0;
		for (int i = lower_bound(x->set, num); i < x->set->n && x->set->hot[i].number == num;
		     i++, found++)
			zero_rule(x->set, i, counters);
		if (!found && !x->check)
			rc = warn_unavail(x, t[k].col, num, op);
		else if (!x->quiet)
			fw_out_printf(x->out, counters ? "Entry %u cleared\n" : "Entry %u logging count reset\n",
				      num);
	}
	return finish_warnings(x, rc);
}

static int cmd_flush(struct xc *x)
{
	set_remove(x->set, 0, x->grave);
	fw_set_finish(x->set);
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
	return fw_show(x->fw, x->acct, x->times, lo, hi, cols, n, x->out, x->d);
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
			default:
				return fw_err(x->d, t[i].col, EX_USAGE,
					      "unknown flag '-%c' (supported: -q -f -a -t -N)", *f);
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
	enum { ADD, DEL, FLUSH, ZERO, RESETLOG, LIST, SHOW, ENABLE, DISABLE, NONE } which = NONE;
	/* ipfw2's command prefixes, checked in its order ("d" is delete, "s" set) */
	if (fw_prefix(cmd, "add", 1)) which = ADD, changes = true;
	else if (fw_prefix(cmd, "delete", 1)) which = DEL, changes = true;
	else if (fw_prefix(cmd, "flush", 1)) which = FLUSH, changes = true;
	else if (fw_prefix(cmd, "zero", 1)) which = ZERO, changes = true;
	else if (fw_prefix(cmd, "resetlog", 1)) which = RESETLOG, changes = true;
	else if (fw_prefix(cmd, "print", 1) || fw_prefix(cmd, "list", 1)) which = LIST;
	else if (fw_prefix(cmd, "enable", 1)) which = ENABLE;
	else if (fw_prefix(cmd, "disable", 2)) which = DISABLE;
	else if (fw_prefix(cmd, "set", 1) || fw_prefix(cmd, "pipe", 2) ||
		 fw_prefix(cmd, "queue", 1) || fw_prefix(cmd, "table", 1) || fw_prefix(cmd, "nat", 1))
		return fw_err(x->d, t[i].col, EX_USAGE, "'ipfw %s' is not supported by ppslab-rut", cmd);
	else if (fw_prefix(cmd, "show", 1)) which = SHOW;
	else
		return fw_err(x->d, t[i].col, EX_USAGE, "bad command `%s'", cmd);
	if (x->file && !changes)
		return fw_err(x->d, t[i].col, EX_DATAERR,
			      "'%s' cannot appear in a rules file (only add, delete, flush, zero, "
			      "resetlog)", cmd);
	switch (which) {
	case ADD: return cmd_add(x, a, na, eol_col);
	case DEL: return cmd_delete(x, a, na, eol_col);
	case FLUSH: return cmd_flush(x);
	case ZERO: return cmd_zero(x, a, na, true);
	case RESETLOG: return cmd_zero(x, a, na, false);
	case SHOW: x->acct = true; return cmd_show(x, a, na);
	case LIST: return cmd_show(x, a, na);
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
	d->msg[0] = '\0';
	d->ex = 0;
	struct fw_out o = { .buf = out, .len = outlen };
	if (out && outlen)
		out[0] = '\0';
	struct fw_lex *lx = malloc(sizeof(*lx));
	if (!lx)
		return fw_oom(d);
	int rc = fw_lex(line, lx, d);
	if (!rc) {
		struct xc x = { .fw = fw, .set = &fw->set, .out = &o, .d = d };
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
					 "reject", "reset", "unreach", "count", "skipto", NULL };
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
	    fw_prefix(t[0].s, "resetlog", 1))
		return run(x, t, n, lx->eol_col);
	return fw_err(x->d, t[0].col, EX_DATAERR,
		      "expected an ipfw command, a rule (NUMBER ACTION ... or ACTION ...) or a line "
		      "of `ipfw show` output, got '%s'", t[0].s);
}

static void stage_abort(struct fw_set *s, struct grave *g)
{
	for (int i = 0; i < s->n; i++)
		if (s->rule[i].staged)
			free(s->rule[i].insn);
	for (int i = 0; i < g->n; i++)
		if (g->r[i].staged)
			free(g->r[i].insn);
	set_free_arrays(s);
	free(g->r);
}

static void stage_commit(struct fw *fw, struct fw_set *s, struct grave *g)
{
	for (int i = 0; i < g->n; i++)
		free(g->r[i].insn);
	free(g->r);
	for (int i = 0; i < s->n; i++)
		s->rule[i].staged = false;
	set_free_arrays(&fw->set);
	fw->set = *s;
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
	struct fw_set stage;
	struct grave g = { 0 };
	struct fw_lex *lx = malloc(sizeof(*lx));
	if (!lx || set_clone(&stage, &fw->set)) {
		free(lx);
		fclose(f);
		fw_err(&d, 0, EX_OSERR, "out of memory");
		*first = d;
		return -ENOMEM;
	}
	struct fw_out o = { 0 };
	struct xc x = { .fw = fw, .set = &stage, .grave = &g, .file = true, .check = check,
			.out = &o, .d = &d };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		memset(&d, 0, sizeof(d));
		x.warnings = 0;
		int lrc = fw_lex(line, lx, &d);
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
	if (!nerr && !fatal && !check && set_sort(&stage)) {
		fatal = -ENOMEM;
		fw_err(&d, 0, EX_OSERR, "out of memory");
		*first = d;
	}
	if (nerr || fatal || check) {
		stage_abort(&stage, &g);
	} else {
		fw_set_finish(&stage);
		stage_commit(fw, &stage, &g);
	}
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
	int rc = run_file(fw, path, true, fn, arg, &first);
	fw_free(fw);
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
