/* SPDX-License-Identifier: BSD-2-Clause */
/* dut_ext.c — an external router driven by the profile's hooks (see dut.h and
 * dut_impl.h): hook words with the cell's values, ssh vectors wrapped, each run logged
 * for the case; the setup, axis and router axis hooks, reboots, the verify and check
 * hooks; the ssh destinations reached once; the read hook. dut_apply() and
 * dut_stats() choose the router's kind here, above dut.c. */
#include "dut_impl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "clock.h"
#include "jout.h"
#include "log.h"
#include "proc.h"
#include "results.h"

/* ---- an external router: hooks ------------------------------------------------- */

struct expansion {
	const struct cell *cell;
	const char *value_of;    /* the router axis {value} stands for, or NULL */
	char *o;
	size_t n, cap;
	bool oom;
};

static void exp_add(struct expansion *x, const char *s, size_t n)
{
	if (x->oom)
		return;
	if (x->n + n + 1 > x->cap) {
		size_t cap = 2 * (x->n + n + 1);
		char *r = realloc(x->o, cap);
		if (!r) {
			x->oom = true;
			return;
		}
		x->o = r;
		x->cap = cap;
	}
	memcpy(x->o + x->n, s, n);
	x->n += n;
	x->o[x->n] = 0;
}

static void exp_piece(void *ctx, const char *lit, size_t n, const char *name)
{
	struct expansion *x = ctx;
	if (!name) {
		exp_add(x, lit, n);
		return;
	}
	char val[256];
	if (x->value_of && !strcmp(name, "value"))
		name = x->value_of;
	const json_t *v = cell_value(x->cell, name);
	res_value_str(v, val, sizeof(val));
	exp_add(x, val, strlen(val));
}

/* a hook word with {axis} replaced by the cell's value and {{ }} by braces ({value}
 * by value_of's, in a router axis' own hooks) */
static char *expand_axis(const struct cell *cell, const char *value_of, const char *tmpl)
{
	struct expansion x = { .cell = cell, .value_of = value_of };
	exp_add(&x, "", 0);
	prof_hook_scan(tmpl, exp_piece, &x, NULL);   /* the profile checked the word */
	if (x.oom) {
		free(x.o);
		return NULL;
	}
	return x.o;
}

static char *expand(const struct cell *cell, const char *tmpl)
{
	return expand_axis(cell, NULL, tmpl);
}

int dut_hook_argv(const struct dut_cfg *cfg, const json_t *hook, const struct cell *cell,
		  struct box_cmd *out)
{
	return dut_hook_argv_axis(cfg, hook, cell, NULL, out);
}

int dut_hook_argv_axis(const struct dut_cfg *cfg, const json_t *hook, const struct cell *cell,
		       const char *value_of, struct box_cmd *out)
{
	struct box_cmd raw = { 0 };
	size_t i;
	json_t *w;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	json_array_foreach(hook, i, w) {
		char *word = expand_axis(cell, value_of, json_string_value(w));
		rc = word ? box_arg(&raw, word) : -ENOMEM;
		free(word);
		if (rc)
			break;
	}
	if (!rc) {
		rc = box_ssh_wrap(raw.argv, cfg->box.ssh_opts, out);
		if (rc == -ENOENT) {   /* not ssh: as written */
			*out = raw;
			return 0;
		}
	}
	box_cmd_free(&raw);
	return rc;
}

/* The remote side of an ssh hook runs under this wrapper (docs/profiles-lab.md): it
 * writes its process group (sshd gives each session one) to a file of the router
 * named by ppslab, runs the hook's words as they came, removes the file. A hook killed
 * at its timeout leaves the file, and group_kill() stops that group on the router:
 * killing the local ssh client alone leaves the remote command running. set -C: the
 * file is created, never followed through a link. */
static const char remote_wrap[] =
	"f=$1; shift; (set -C; ps -o pgid= -p $$ >\"$f\") 2>/dev/null; \"$@\"; s=$?; "
	"rm -f \"$f\"; exit $s";
static const char remote_kill[] =
	"p=$(tr -d ' ' <\"$1\" 2>/dev/null) || exit 0; rm -f \"$1\"; "
	"case $p in ''|*[!0-9]*) exit 0 ;; esac; kill -s TERM -- \"-$p\" 2>/dev/null; "
	"sleep 1; kill -s KILL -- \"-$p\" 2>/dev/null; exit 0";

/* hook's ssh words up to its destination, then the wrapper's words naming file, then
 * the hook's remote words; NULL when the hook is not ssh or has no remote command */
static json_t *wrapped_hook(const json_t *hook, const char *file, const char *script)
{
	if (!box_is_ssh(json_string_value(json_array_get(hook, 0))))
		return NULL;
	char *av[256];
	size_t m = 0, dest = 0, j;
	json_t *w;
	json_array_foreach(hook, j, w)
		if (m < 255)
			av[m++] = proc_arg(json_string_value(w));
	av[m] = NULL;
	if (box_ssh_dest(av, &dest) || (script == remote_wrap && dest + 1 >= m))
		return NULL;
	json_t *o = json_array();
	for (j = 0; j <= dest; j++)
		json_array_append(o, json_array_get(hook, j));
	json_array_append_new(o, json_string("sh"));
	json_array_append_new(o, json_string("-c"));
	json_array_append_new(o, json_string(script));
	json_array_append_new(o, json_string("ppslab-hook"));
	json_array_append_new(o, json_string(file));
	if (script == remote_wrap)
		for (j = dest + 1; j < m; j++)
			json_array_append(o, json_array_get(hook, j));
	return o;
}

/* A name for the wrapper's file on the router: not guessable, so no one there can
 * prepare it. */
static void group_file(char *buf, size_t len)
{
	unsigned char r[8] = { 0 };
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		uint64_t t = mono_ns() ^ ((uint64_t)getpid() << 32);
		memcpy(r, &t, sizeof(r));
	}
	snprintf(buf, len, "/tmp/ppslab-hook.%02x%02x%02x%02x%02x%02x%02x%02x", r[0], r[1],
		 r[2], r[3], r[4], r[5], r[6], r[7]);
}

/* Stops the remote process group of a timed-out ssh hook (see remote_wrap). */
static void group_kill(struct dut *d, const json_t *hook, const struct cell *cell,
		       const char *value_of, const char *file)
{
	json_t *k = wrapped_hook(hook, file, remote_kill);
	struct box_cmd c;
	if (k && !dut_hook_argv_axis(&d->cfg, k, cell, value_of, &c)) {
		char out[512];
		struct proc_opts o = { .out = out, .outlen = sizeof(out), .merge_err = 1,
				       .timeout_ns = 20 * NS_PER_S };
		proc_run(c.argv, &o);
		box_cmd_free(&c);
	}
	json_decref(k);
}

/* Runs a hook (what: its name in records and messages, a router axis' for its set
 * hook; axis: the router axis a verify reads, or NULL) with stdin_text (or NULL) on its standard input, killed after tmo
 * seconds (0: router.hook_timeout); output into out, stderr too unless errpath is
 * given (then it goes there). The run goes into d->hook_log. Returns the status
 * (-errno when it could not start). */
static int hook_exec(struct dut *d, const char *what, const char *axis, const json_t *hook,
		     const struct cell *cell, const char *stdin_text, char *out, size_t outlen,
		     double tmo, const char *errpath)
{
	struct box_cmd c;
	out[0] = 0;
	/* a router axis' set and verify hooks: {value} is that axis' */
	const char *value_of = axis ? axis : prof_router_axis(d->cfg.p, what) ? what : NULL;
	char gfile[64];
	group_file(gfile, sizeof(gfile));
	/* not around what runs while the router goes down or comes back */
	bool wrap = strcmp(what, "reboot") && strcmp(what, "ready") && strcmp(what, "boot") &&
		    strcmp(what, "power_cycle");
	json_t *wrapped = wrap ? wrapped_hook(hook, gfile, remote_wrap) : NULL;
	int st = dut_hook_argv_axis(&d->cfg, wrapped ? wrapped : hook, cell, value_of, &c);
	d->timed_out = false;
	if (st) {
		json_decref(wrapped);
		snprintf(out, outlen, "%s", st == -EINVAL ? "an ssh hook names no destination"
							 : strerror(-st));
		return st;
	}
	if (!(tmo > 0))
		tmo = d->cfg.p->router.hook_timeout_s > 0 ? d->cfg.p->router.hook_timeout_s : 30;
	struct proc_opts o = { .out = out, .outlen = outlen, .merge_err = !errpath,
			       .err_path = errpath, .stdin_data = stdin_text,
			       .timeout_ns = (uint64_t)(tmo * 1e9) };
	uint64_t t0 = mono_ns();
	st = proc_run(c.argv, &o);
	double secs = (double)(mono_ns() - t0) / 1e9;
	/* killed at its timeout: an ssh client says 255 for the TERM it got */
	d->timed_out = st == 128 + SIGTERM || st == 128 + SIGKILL || (st && secs >= tmo);
	d->hook_tmo = tmo;
	if (d->timed_out) {
		log_warn("hook %s (%s) timed out after %.0f s; stopping it", what, c.argv[0], tmo);
		if (wrapped)
			group_kill(d, hook, cell, value_of, gfile);
	}
	json_decref(wrapped);
	box_cmd_free(&c);
	/* the log shows the hook as written, expanded, without the wrapper */
	if (dut_hook_argv_axis(&d->cfg, hook, cell, value_of, &c))
		memset(&c, 0, sizeof(c));
	if (d->hook_log) {
		json_t *av = json_array();
		for (size_t i = 0; i < c.n; i++) {
			json_t *w = json_string(c.argv[i]);   /* NULL when not UTF-8 */
			json_array_append_new(av, w ? w : json_string("?"));
		}
		json_t *r = json_pack("{s:s,s:o,s:i,s:f}", "hook", what, "argv", av, "status", st,
				      "s", secs);
		if (r && d->timed_out)
			json_object_set_new(r, "timed_out", json_true());
		if (r && axis)
			json_object_set_new(r, "axis", json_string(axis));
		if (r && stdin_text)
			json_object_set_new(r, "stdin_bytes", json_integer((json_int_t)strlen(stdin_text)));
		json_array_append_new(d->hook_log, r);
	}
	box_cmd_free(&c);
	return st;
}

static int hook_run(struct dut *d, const char *what, const json_t *hook, const struct cell *cell,
		    const char *stdin_text, char *out, size_t outlen)
{
	return hook_exec(d, what, NULL, hook, cell, stdin_text, out, outlen, 0, NULL);
}

int dut_action_hook(struct dut *d, const char *what, const json_t *hook, const struct cell *cell,
		    char *out, size_t outlen)
{
	int st = hook_run(d, what, hook, cell, NULL, out, outlen);
	/* what it changed (a rule set, a knob, a reboot) is set again before the next case */
	if (d->kind == PR_RUT)
		dut_forget_live(d, false);
	else
		dut_rebooted(d);
	return st;
}

/* "failed with status N" or "timed out after N s (router.hook_timeout ...)" for the
 * hook just run */
static const char *how_failed(const struct dut *d, int st, char *buf, size_t len)
{
	if (d->timed_out)
		snprintf(buf, len, "timed out after %g s (its timeout; the remote command was "
			 "stopped)", d->hook_tmo);
	else
		snprintf(buf, len, "failed with status %d", st);
	return buf;
}

/* A hook did not succeed: what it changed on the router is unknown, so the setup and
 * every hook run again in the next case (reboot axes, persistent, stay as set). */
static void ext_unsure(struct dut *d)
{
	dut_rebooted(d);
}

const char dut_hostkey_msg[] = "the router's host key changed (a different boot environment "
			       "may have its own keys): ssh refuses to connect until the key in "
			       "known_hosts is replaced (ssh-keygen -R HOST, then connect once)";

bool dut_hostkey_changed(const char *out)
{
	return strstr(out, "REMOTE HOST IDENTIFICATION HAS CHANGED") ||
	       strstr(out, "Host key verification failed");
}

/* the hook's output for a message: its last lines, which say why; ssh's host key
 * warning (a banner of @) as one sentence */
static const char *tail_of(const char *out, size_t keep)
{
	if (dut_hostkey_changed(out))
		return dut_hostkey_msg;
	size_t n = strlen(out);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		n--;
	return n > keep ? out + n - keep : out;
}

void dut_case_begin(struct dut *d)
{
	json_decref(d->hook_log);
	json_decref(d->verified);
	d->hook_log = d->kind == PR_EXTERNAL ? json_array() : NULL;
	d->verified = NULL;
}

static int ext_setup(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[16384];
	if (!json_object_get(d->applied, " setup") && p->router.setup_hook) {
		int st = hook_run(d, "setup", p->router.setup_hook, cell, NULL, out, sizeof(out));
		if (st) {
			char how[120];
			snprintf(err, errlen, "setup hook %s: %.400s", how_failed(d, st, how, sizeof(how)),
				 tail_of(out, 400));
			ext_unsure(d);
			return -EIO;
		}
	}
	json_object_set_new(d->applied, " setup", json_true());
	return 0;
}

int dut_setup_now(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	if (d->kind != PR_EXTERNAL || !d->cfg.p->router.setup_hook)
		return 0;
	json_object_del(d->applied, " setup");
	int rc = ext_setup(d, cell, err, errlen);
	d->setup_fresh = rc == 0;
	return rc;
}

/* A router axis' set hook, with the axis' own timeout. */
static int raxis_set(struct dut *d, const struct prof_raxis *ra, const struct cell *cell,
		     char *err, size_t errlen)
{
	static char out[16384];
	int st = hook_exec(d, ra->name, NULL, ra->set, cell, NULL, out, sizeof(out),
			   ra->timeout_s, NULL);
	if (!st)
		return 0;
	char how[120];
	snprintf(err, errlen, "hook for %s %s: %.400s", ra->name, how_failed(d, st, how, sizeof(how)),
		 tail_of(out, 400));
	if (!ra->reboot)
		ext_unsure(d);
	return -EIO;
}

/* Whether an ssh client's status says the connection went away under it (255), as a
 * router that reboots takes it, or the run was killed after its timeout. */
static bool conn_lost(const json_t *hook, int st)
{
	return st == 128 + SIGTERM || st == 128 + SIGKILL ||
	       (st == 255 && box_is_ssh(json_string_value(json_array_get(hook, 0))));
}

bool dut_reboot_pending(struct dut *d, const struct cell *cell)
{
	const struct profile *p = d->cfg.p;
	bool need = false;
	if (d->kind != PR_EXTERNAL)
		return false;
	for (size_t i = 0; i < p->router.naxes; i++)
		need |= p->router.axes[i].reboot && dut_changed(d, cell, p->router.axes[i].name);
	return need;
}

int dut_apply_reboot(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[16384];
	if (!dut_reboot_pending(d, cell))
		return 0;
	int rc = ext_setup(d, cell, err, errlen);
	for (size_t i = 0; !rc && i < p->router.naxes; i++) {
		const struct prof_raxis *ra = &p->router.axes[i];
		if (ra->reboot && dut_changed(d, cell, ra->name))
			rc = raxis_set(d, ra, cell, err, errlen);
	}
	if (rc)
		return rc;
	int st = hook_run(d, "reboot", p->router.reboot_hook, cell, NULL, out, sizeof(out));
	if (st && !conn_lost(p->router.reboot_hook, st) && !d->timed_out) {
		snprintf(err, errlen, "the reboot hook failed with status %d: %.400s", st,
			 tail_of(out, 400));
		return -EIO;
	}
	/* set, and taking effect as the router starts; verified once it is back */
	for (size_t i = 0; i < p->router.naxes; i++)
		if (p->router.axes[i].reboot)
			dut_remember(d, cell, p->router.axes[i].name);
	return 1;
}

void dut_rebooted(struct dut *d)
{
	const struct profile *p = d->cfg.p;
	json_t *keep = json_object();
	for (size_t i = 0; keep && i < p->router.naxes; i++) {
		const json_t *v = json_object_get(d->applied, p->router.axes[i].name);
		if (p->router.axes[i].reboot && v)
			json_object_set(keep, p->router.axes[i].name, jmut(v));
	}
	json_object_clear(d->applied);
	if (keep)
		json_object_update(d->applied, keep);
	json_decref(keep);
	if (d->setup_fresh)   /* run on this boot, before the probe */
		json_object_set_new(d->applied, " setup", json_true());
	d->setup_fresh = false;
}

void dut_forget(struct dut *d)
{
	json_object_clear(d->applied);
	d->setup_fresh = false;   /* a setup run before a wait that failed is not this boot's */
}

int dut_ready(struct dut *d, const struct cell *cell, char *out, size_t outlen)
{
	json_t *log = d->hook_log;
	d->hook_log = NULL;   /* polled while waiting: the reboot record counts the tries */
	int st = hook_run(d, "ready", d->cfg.p->router.ready_hook, cell, NULL, out, outlen);
	d->hook_log = log;
	if (st && dut_hostkey_changed(out)) {
		snprintf(out, outlen, "%s", dut_hostkey_msg);
		return -EKEYREJECTED;
	}
	return st;
}

const json_t *dut_verified(const struct dut *d)
{
	return d->verified;
}

/* A verify hook's output against the cell's value: the same text once trimmed, or the
 * same number ("4000" and "4000.0"). */
static bool same_reading(const char *got, const char *want)
{
	if (!strcmp(got, want))
		return true;
	char *e1, *e2;
	double a = strtod(got, &e1), b = strtod(want, &e2);
	return *got && *want && !*e1 && !*e2 && a == b;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;
	while (n && strchr(" \t\r\n", s[n - 1]))
		s[--n] = 0;
	while (s[i] && strchr(" \t\r\n", s[i]))
		i++;
	memmove(s, s + i, n - i + 1);
}

/* Every router axis with verify read back: the case fails unless each equals the
 * cell's value (nothing is measured under a setting that did not take effect). An axis
 * that did not read back is set again in the next case. */
static int ext_verify(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[4096];
	char errpath[600], want[256], msg[600];
	size_t used = 0;
	int rc = 0;
	snprintf(errpath, sizeof(errpath), "%s/verify.err", d->cfg.tmpdir);
	err[0] = 0;
	/* the router axes' own verify hooks, then router.verify's of built-in axes */
	size_t nb = json_object_size(p->router.verify);
	const char *bname[64];
	const json_t *bhook[64];
	size_t k = 0;
	const char *key;
	json_t *val;
	json_object_foreach(p->router.verify, key, val)
		if (k < 64) {
			bname[k] = key;
			bhook[k++] = val;
		}
	nb = k;
	for (size_t i = 0; i < p->router.naxes + nb; i++) {
		const struct prof_raxis *rx = i < p->router.naxes ? &p->router.axes[i] : NULL;
		/* a built-in axis: {value} is its value, the hook timeout its */
		struct {
			const char *name;
			const json_t *verify;
			double timeout_s;
			bool reboot;
		} one = { rx ? rx->name : bname[i - p->router.naxes],
			  rx ? rx->verify : bhook[i - p->router.naxes], rx ? rx->timeout_s : 0,
			  rx && rx->reboot }, *ra = &one;
		if (!ra->verify)
			continue;
		if (!d->verified && !(d->verified = json_object()))
			return -ENOMEM;
		res_value_str(cell_value(cell, ra->name), want, sizeof(want));
		int st = hook_exec(d, "verify", ra->name, ra->verify, cell, NULL, out,
				   sizeof(out), ra->timeout_s, errpath);
		trim(out);
		bool ok = st == 0 && same_reading(out, want);
		json_t *got = st == 0 ? json_string(out) : json_null();
		json_object_set_new(d->verified, ra->name,
				    json_pack("{s:s,s:o,s:b}", "want", want, "got",
					      got ? got : json_string("?"), "ok", ok));
		if (ok)
			continue;
		json_object_del(d->applied, ra->name);
		if (st) {
			char e[300];
			proc_file_text(errpath, e, sizeof(e));
			char how[120];
			snprintf(msg, sizeof(msg), "reading %s back %s: %.300s", ra->name,
				 how_failed(d, st, how, sizeof(how)),
				 e[0] && !dut_hostkey_changed(e) ? e : tail_of(e[0] ? e : out, 300));
		} else if (!out[0]) {
			snprintf(msg, sizeof(msg), "%s reads back empty on the router (its verify hook "
				 "printed nothing), the cell wants %s", ra->name, want);
		} else {
			snprintf(msg, sizeof(msg), "%s is %.100s on the router, the cell wants %s: the "
				 "setting did not take effect%s", ra->name, out, want,
				 ra->reboot ? " (read after the reboot)"
				 : !rx ? ""
					    : " (if it takes effect only at boot, give the axis "
					      "\"reboot\": true)");
		}
		if (used < errlen)
			used += (size_t)snprintf(err + used, errlen - used, "%s%s", used ? "; " : "",
						 msg);
		rc = -EIO;
	}
	return rc;
}

/* dut_apply() for an external router: its hooks, verify and check (see dut.h). */
static int ext_apply(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[16384];
	int rc = ext_setup(d, cell, err, errlen);
	if (rc)
		return rc;
	/* the router's own knobs that take effect at once, then the axes' hooks; a hook
	 * runs when its axis or an axis it names changed; what was applied is remembered
	 * only when every hook succeeded, so a failure is retried */
	for (size_t i = 0; i < p->router.naxes; i++) {
		const struct prof_raxis *ra = &p->router.axes[i];
		if (!ra->reboot && dut_changed(d, cell, ra->name) &&
		    (rc = raxis_set(d, ra, cell, err, errlen)))
			return rc;
	}
	const char *names[128];
	bool ch[128] = { false };
	size_t nn = 0;
	for (size_t i = 0; i < AX_COUNT && nn < 128; i++)
		names[nn++] = axis_defs[i].name;
	for (size_t i = 0; i < p->router.naxes && nn < 128; i++)
		names[nn++] = p->router.axes[i].name;
	for (size_t i = 0; i < nn; i++)
		ch[i] = dut_changed(d, cell, names[i]);
	const char *axis;
	json_t *hook;
	json_object_foreach(p->router.hooks, axis, hook) {
		bool need = false, rules = !strcmp(axis, "rules") || prof_hook_uses(hook, "rules");
		for (size_t i = 0; i < nn; i++)
			if (ch[i] && (!strcmp(names[i], axis) || prof_hook_uses(hook, names[i]) ||
				      (rules && !strcmp(names[i], "rules_kind"))))
				need = true;   /* a hook given the rule set: rules_kind makes it too */
		if (!need)
			continue;
		/* the rule set reaches the router on the hook's stdin: no file of the control
		 * host is named to the router */
		char *text = NULL, path[4096];
		if (rules) {
			rc = dut_rules_text(d, cell, &text, path, sizeof(path), err, errlen);
			if (rc)
				return rc;
		}
		int st = hook_run(d, axis, hook, cell, text, out, sizeof(out));
		free(text);
		if (st) {
			char how[120];
			snprintf(err, errlen, "hook for %s %s: %.400s", axis,
				 how_failed(d, st, how, sizeof(how)), tail_of(out, 400));
			ext_unsure(d);
			return -EIO;
		}
	}
	for (size_t i = 0; i < nn; i++) {
		const struct prof_raxis *ra = prof_router_axis(p, names[i]);
		if (!ra || !ra->reboot)
			dut_remember(d, cell, names[i]);
	}
	if ((rc = ext_verify(d, cell, err, errlen)))
		return rc;
	if (p->router.check_hook) {
		int st = hook_run(d, "check", p->router.check_hook, cell, NULL, out, sizeof(out));
		if (st)
			ext_unsure(d);
		if (st && d->timed_out) {
			char how[120];
			snprintf(err, errlen, "the router's check hook %s: %.500s",
				 how_failed(d, st, how, sizeof(how)), tail_of(out, 500));
			return -EIO;
		}
		if (st) {
			snprintf(err, errlen, "the router's check hook says the settings did not take "
				 "effect (status %d): %.500s", st, tail_of(out, 500));
			return -EIO;
		}
	}
	return 0;
}

const json_t *dut_hook_log(const struct dut *d)
{
	return d->hook_log;
}

int dut_reach(struct dut *d, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	if (d->kind != PR_EXTERNAL)
		return 0;
	const json_t *all[64];
	size_t n = 0;
	const char *k;
	json_t *h;
	all[n++] = p->router.setup_hook;
	all[n++] = p->router.read_hook;
	all[n++] = p->router.check_hook;
	all[n++] = p->router.reboot_hook;
	all[n++] = p->router.ready_hook;
	for (size_t i = 0; i < p->router.naxes && n + 2 < 64; i++) {
		all[n++] = p->router.axes[i].set;
		all[n++] = p->router.axes[i].verify;
	}
	json_object_foreach(p->router.hooks, k, h)
		if (n < 64)
			all[n++] = h;
	json_t *seen = json_object();
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!all[i] || !box_is_ssh(json_string_value(json_array_get(all[i], 0))))
			continue;
		/* the hook's ssh words up to its destination, then "true" */
		json_t *probe = json_array();
		size_t j, dest = 0;
		json_t *w;
		char *av[256];
		size_t m = 0;
		json_array_foreach(all[i], j, w)
			if (m < 255)
				av[m++] = proc_arg(json_string_value(w));
		av[m] = NULL;
		if (box_ssh_dest(av, &dest)) {
			json_decref(probe);
			continue;
		}
		for (j = 0; j <= dest; j++)
			json_array_append_new(probe, json_string(av[j]));
		json_array_append_new(probe, json_string("true"));
		char *key = json_dumps(probe, JSON_COMPACT);
		if (key && !json_object_get(seen, key)) {
			json_object_set_new(seen, key, json_true());
			struct box_cmd c;
			static char out[4096];
			if (!dut_hook_argv(&d->cfg, probe, &d->fixed, &c)) {
				struct proc_opts o = { .out = out, .outlen = sizeof(out), .merge_err = 1,
						       .timeout_ns = 40 * NS_PER_S };
				int st = proc_run(c.argv, &o);
				if (st) {
					char *dst = expand(&d->fixed, av[dest]);
					snprintf(err, errlen, "the router's hooks cannot reach %s over ssh "
						 "(status %d): %.300s", dst ? dst : av[dest], st,
						 tail_of(out, 300));
					free(dst);
					rc = -EHOSTUNREACH;
				}
				box_cmd_free(&c);
			}
		}
		free(key);
		json_decref(probe);
	}
	json_decref(seen);
	return rc;
}

int dut_boot_id(struct dut *d, char *buf, size_t len)
{
	char out[512];
	buf[0] = 0;
	if (d->kind != PR_EXTERNAL || !d->cfg.p->router.boot_hook)
		return -ENOENT;
	json_t *log = d->hook_log;
	d->hook_log = NULL;
	int st = hook_run(d, "boot", d->cfg.p->router.boot_hook, NULL, NULL, out, sizeof(out));
	d->hook_log = log;
	if (st && dut_hostkey_changed(out))
		return -EKEYREJECTED;
	trim(out);
	if (st || !out[0])
		return -EIO;
	snprintf(buf, len, "%.*s", (int)strcspn(out, "\n"), out);
	return 0;
}

int dut_power_cycle(struct dut *d, char *out, size_t outlen)
{
	if (d->kind != PR_EXTERNAL || !d->cfg.p->router.power_cycle_hook)
		return -ENOENT;
	return hook_run(d, "power_cycle", d->cfg.p->router.power_cycle_hook, NULL, NULL, out,
			outlen);
}

/* An external router's counters: its read hook's output, {"status", "output"}. */
json_t *dut_ext_read(struct dut *d)
{
	static char out[1 << 18];
	json_t *log = d->hook_log;
	d->hook_log = NULL;   /* read hooks are not part of the case's settings */
	int st = hook_run(d, "read", d->cfg.p->router.read_hook, NULL, NULL, out, sizeof(out));
	d->hook_log = log;
	json_t *o = json_object();
	json_object_set_new(o, "status", json_integer(st));
	json_t *j = json_loads(out, JSON_DECODE_ANY, NULL);
	if (!j) {   /* text; bytes that are not UTF-8 become '?' */
		for (char *q = out; *q; q++)
			if ((unsigned char)*q >= 0x80)
				*q = '?';
		j = json_string(out);
	}
	json_object_set_new(o, "output", j ? j : json_null());
	return o;
}

int dut_apply(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	if (d->kind == PR_EXTERNAL)
		return ext_apply(d, cell, err, errlen);
	return dut_rut_apply(d, cell, err, errlen);
}

json_t *dut_stats(struct dut *d)
{
	if (d->kind == PR_EXTERNAL && d->cfg.p->router.read_hook)
		return dut_ext_read(d);
	return dut_rut_stats(d);
}
