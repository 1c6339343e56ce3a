/* fw_cmd.c — the ipfw(8) command interpreter and rule files: add (with automatic
 * numbering), delete, flush, zero, resetlog, show/list, enable/disable, their messages and
 * the exit status ipfw would give (fw_diag.ex), and loading or checking a file of rules as
 * one transaction (fw_load_file, fw_check_file[_all]); docs/design/ipfw.md#commands.
 * Called by the forwarder's control socket, its rule-file option, --check-rules and the
 * tests; the rule language itself is fw_parse.c, the listing fw_show.c, the ruleset
 * fw.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "fw_impl.h"

/* ---- commands ---- */

struct xc {
	struct fw *fw;
	struct fw_rules *rules;   /* the live ruleset, or a staged copy */
	struct fw_grave *grave;    /* NULL: live (free removed rules at once) */
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
		/* prev + step, or prev again once that would reach 65535
		 * (docs/design/ipfw.md#rule-numbers) */
		uint32_t prev = fw_rules_last_number(x->rules), step = fw_autoinc_step(x->fw);
		num = prev >= FW_DEFAULT_RULE - step ? prev : prev + step;
		if (!num)
			num = step;
	}
	c.rule.staged = x->grave != NULL;
	rc = x->file ? fw_rules_push(x->rules, &c, num) : fw_rules_insert(x->rules, &c, num);
	if (rc < 0) {
		free(c.rule.insn);
		return fw_oom(x->d);
	}
	if (!x->file) {
		fw_rules_finish(x->rules);
		if (!x->quiet) {
			/* the echo is the rule in list form, without counters */
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
	if (fw_rules_sort(x->rules)) {
		return fw_oom(x->d);
	}
	for (int k = 0; k < n; k++) {
		uint32_t num;
		if (parse_num_arg(x, &t[k], &num))
			return -EINVAL;
		/* rule 65535 cannot be deleted; an unknown number is EINVAL (ipfw exits 69) */
		if (num == FW_DEFAULT_RULE || num == 0 ||
		    (!fw_rules_remove(x->rules, num, x->grave) && !x->check))
			rc = warn_unavail(x, t[k].col, num, "DEL");
	}
	fw_rules_finish(x->rules);
	return finish_warnings(x, rc);
}

static int cmd_zero(struct xc *x, const struct fw_tok *t, int n, bool counters)
{
	const char *op = counters ? "ZERO" : "RESETLOG";
	int rc = 0;
	if (n == 0) {
		for (int i = 0; i < x->rules->n; i++)
			fw_rules_zero(x->rules, i, counters);
		if (!x->quiet)
			fw_out_puts(x->out, counters ? "Accounting cleared.\n" : "Logging counts reset.\n");
		return 0;
	}
	if (fw_rules_sort(x->rules)) {
		return fw_oom(x->d);
	}
	for (int k = 0; k < n; k++) {
		uint32_t num;
		if (parse_num_arg(x, &t[k], &num))
			return -EINVAL;
		int found = 0;
		for (int i = fw_rules_lower_bound(x->rules, num); i < x->rules->n && x->rules->hot[i].number == num;
		     i++, found++)
			fw_rules_zero(x->rules, i, counters);
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
		struct xc x = { .fw = fw, .rules = &fw->rules, .out = &o, .d = d };
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

static void stage_abort(struct fw_rules *s, struct fw_grave *g)
{
	for (int i = 0; i < s->n; i++)
		if (s->rule[i].staged)
			free(s->rule[i].insn);
	for (int i = 0; i < g->n; i++)
		if (g->r[i].staged)
			free(g->r[i].insn);
	fw_rules_free(s);
	free(g->r);
}

static void stage_commit(struct fw *fw, struct fw_rules *s, struct fw_grave *g)
{
	for (int i = 0; i < g->n; i++)
		free(g->r[i].insn);
	free(g->r);
	for (int i = 0; i < s->n; i++)
		s->rule[i].staged = false;
	fw_rules_free(&fw->rules);
	fw->rules = *s;
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
	struct fw_rules stage;
	struct fw_grave g = { 0 };
	struct fw_lex *lx = malloc(sizeof(*lx));
	if (!lx || fw_rules_clone(&stage, &fw->rules)) {
		free(lx);
		fclose(f);
		fw_err(&d, 0, EX_OSERR, "out of memory");
		*first = d;
		return -ENOMEM;
	}
	struct fw_out o = { 0 };
	struct xc x = { .fw = fw, .rules = &stage, .grave = &g, .file = true, .check = check,
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
	if (!nerr && !fatal && !check && fw_rules_sort(&stage)) {
		fatal = -ENOMEM;
		fw_err(&d, 0, EX_OSERR, "out of memory");
		*first = d;
	}
	if (nerr || fatal || check) {
		stage_abort(&stage, &g);
	} else {
		fw_rules_finish(&stage);
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
