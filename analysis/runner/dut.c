/* SPDX-License-Identifier: BSD-2-Clause */
/* dut.c — drives the device under test for ppslab run (run.c): ppslab-rut through its
 * control socket, an external router through the profile's hooks, or nothing. See
 * dut.h for the axis → setting map. */
#include "dut.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "jout.h"
#include "log.h"
#include "pollkern.h"
#include "proc.h"
#include "results.h"
#include "rulegen.h"

struct dut {
	struct dut_cfg cfg;
	enum prof_router kind;
	pid_t pid;               /* the forwarder, 0 when not running */
	json_t *applied;         /* axis → value last applied (owned) */
	char sock[512], outpath[512], rulepath[512];
	char mode[16], kernel[32];
	unsigned starts;
	char desc[128];
	json_t *hook_log;        /* the hooks this case ran (external router) */
	json_t *verified;        /* what this case's verify hooks read back, or NULL */
};

/* axes that are knobs of a running forwarder, and their sysctl names */
static const struct {
	const char *axis, *oid;
} knobs[] = {
	{ "pollhz", "kern.polling.pollhz" },
	{ "burst_max", "kern.polling.burst_max" },
	{ "each_burst", "kern.polling.each_burst" },
	{ "user_frac", "kern.polling.user_frac" },
	{ "reg_frac", "kern.polling.reg_frac" },
	{ "idle_poll", "kern.polling.idle_poll" },
	{ "update_counters", "net.inet.ip.fw.update_counters" },
	{ "firewall", "net.inet.ip.fw.enable" },
};

int dut_new(const struct dut_cfg *cfg, struct dut **out)
{
	struct dut *d = calloc(1, sizeof(*d));
	if (!d || !(d->applied = json_object())) {
		free(d);
		return -ENOMEM;
	}
	d->cfg = *cfg;
	d->kind = cfg->p->router.kind;
	/* the socket lives on the forwarder's host: over ssh our temporary directory is
	 * not there, /tmp is */
	if (cfg->box.ssh)
		snprintf(d->sock, sizeof(d->sock), "/tmp/ppslab-rut-%d-%ld.sock", (int)getpid(),
			 (long)time(NULL));
	else
		snprintf(d->sock, sizeof(d->sock), "%s/rut.sock", cfg->tmpdir);
	snprintf(d->rulepath, sizeof(d->rulepath), "%s/rules.ipfw", cfg->tmpdir);
	snprintf(d->desc, sizeof(d->desc), "%s",
		 d->kind == PR_RUT ? "ppslab-rut" : d->kind == PR_EXTERNAL ? "external" : "none");
	*out = d;
	return 0;
}

const char *dut_describe(const struct dut *d)
{
	return d->desc;
}

/* ppslab-rut ctl SOCK words... with input (or NULL) on its stdin; output into out (may
 * be NULL). Returns the status. */
static int ctl_in(struct dut *d, char *out, size_t outlen, const char *const *words,
		  const char *input);

static int ctl(struct dut *d, char *out, size_t outlen, const char *const *words)
{
	return ctl_in(d, out, outlen, words, NULL);
}

static int ctl_in(struct dut *d, char *out, size_t outlen, const char *const *words,
		  const char *input)
{
	struct box_cmd c;
	char none[256];
	int rc = box_cmd_init(&c, &d->cfg.box, "ppslab-rut");
	rc = rc ? rc : box_arg(&c, "ctl");
	rc = rc ? rc : box_arg(&c, d->sock);
	for (int i = 0; !rc && words[i]; i++)
		rc = box_arg(&c, words[i]);
	rc = rc ? rc : box_cmd_done(&c, &d->cfg.box);
	if (rc) {
		box_cmd_free(&c);
		return rc;
	}
	/* the socket is a path on the forwarder's host: no namespace needed there */
	struct proc_opts o = { .stdin_data = input, .out = out ? out : none,
			       .outlen = out ? outlen : sizeof(none), .merge_err = 1,
			       .timeout_ns = 30 * NS_PER_S };
	rc = proc_run(c.argv, &o);
	box_cmd_free(&c);
	return rc;
}

bool dut_alive(struct dut *d)
{
	if (d->kind != PR_RUT)
		return true;
	if (!d->pid)
		return false;
	int st;
	if (waitpid(d->pid, &st, WNOHANG) == d->pid) {
		log_warn("the forwarder (pid %d) exited: %s %d", (int)d->pid,
			 WIFSIGNALED(st) ? "signal" : "status",
			 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		d->pid = 0;
		return false;
	}
	return true;
}

static json_t *rut_stop(struct dut *d)
{
	if (!d->pid)
		return NULL;
	if (!d->cfg.box.ssh) {
		kill(d->pid, SIGINT);
	} else {   /* a signal would stop our ssh client, not the remote forwarder */
		struct box_cmd c;
		int rc = box_sys_init(&c, &d->cfg.box, "pkill");
		rc = rc ? rc : box_arg(&c, "-INT");
		rc = rc ? rc : box_arg(&c, "-f");
		rc = rc ? rc : box_arg(&c, "--");
		rc = rc ? rc : box_arg(&c, d->sock);
		rc = rc ? rc : box_cmd_done(&c, &d->cfg.box);
		struct proc_opts o = { .quiet_err = 1, .timeout_ns = 20 * NS_PER_S };
		if (!rc)
			proc_run(c.argv, &o);
		box_cmd_free(&c);
	}
	proc_wait(d->pid, 10 * NS_PER_S);
	d->pid = 0;
	return jout_last_summary(d->outpath);
}

/* How long ppslab-rut may take to be ready: its ports and tables, over ssh the
 * connection; a fraction of this on a slow or loaded machine. */
#define RUT_READY_TIMEOUT_S 30

/* (Re)starts the forwarder in mode with the cell's kernel personality and HZ (a boot
 * setting of the kernels, so a new value means a new forwarder). */
static int rut_start(struct dut *d, const char *mode, const json_t *params, char *err,
		     size_t errlen)
{
	const struct profile *p = d->cfg.p;
	const json_t *kv = prof_value(p, params, "kernel"), *hv = prof_value(p, params, "hz");
	const char *kernel = json_is_string(kv) ? json_string_value(kv) : PK_DEFAULT;
	json_decref(rut_stop(d));
	json_object_clear(d->applied);
	d->starts++;
	snprintf(d->outpath, sizeof(d->outpath), "%s/rut-%u.out", d->cfg.tmpdir, d->starts);
	const char *ports = p->router.ports ? p->router.ports : "afpacket";
	struct box_cmd c;
	int rc = box_cmd_init(&c, &d->cfg.box, "ppslab-rut");
	/* a bounded receive ring, one slot per frame, as on a NIC: excess load is lost
	 * within a trial instead of being buffered past its end */
	char ring[48] = "";
	if (p->router.ring && !strcmp(ports, "afpacket"))
		snprintf(ring, sizeof(ring), ",ring=v2,frames=%u", p->router.ring);
	rc = rc ? rc : box_arg(&c, "-i");
	rc = rc ? rc : box_argf(&c, "%s:%s%s", ports, d->cfg.in, ring);
	rc = rc ? rc : box_arg(&c, "-o");
	rc = rc ? rc : box_argf(&c, "%s:%s%s", ports, d->cfg.out, ring);
	rc = rc ? rc : box_arg(&c, "--mode");
	rc = rc ? rc : box_arg(&c, mode);
	rc = rc ? rc : box_arg(&c, "--ctl");
	rc = rc ? rc : box_arg(&c, d->sock);
	rc = rc ? rc : box_arg(&c, "--json");
	rc = rc ? rc : box_arg(&c, "--interval");
	rc = rc ? rc : box_arg(&c, "60s");
	rc = rc ? rc : box_arg(&c, "--kernel");
	rc = rc ? rc : box_arg(&c, kernel);
	if (!rc && json_is_integer(hv)) {
		rc = box_arg(&c, "--sysctl");
		rc = rc ? rc : box_argf(&c, "kern.hz=%lld", (long long)json_integer_value(hv));
	}
	if (!rc && p->router.rt_prio > 0) {
		rc = box_arg(&c, "--rt-prio");
		rc = rc ? rc : box_argf(&c, "%.0f", p->router.rt_prio);
	}
	rc = rc ? rc : box_cmd_done(&c, &d->cfg.box);
	if (rc) {
		box_cmd_free(&c);
		return rc;
	}
	char errpath[600];
	snprintf(errpath, sizeof(errpath), "%s.err", d->outpath);
	unlink(d->sock);
	pid_t pid = proc_spawn(c.argv, c.netns, d->outpath, errpath);
	box_cmd_free(&c);
	if (pid < 0) {
		snprintf(err, errlen, "cannot start ppslab-rut: %s", strerror((int)-pid));
		return (int)pid;
	}
	d->pid = pid;
	snprintf(d->mode, sizeof(d->mode), "%s", mode);
	snprintf(d->kernel, sizeof(d->kernel), "%s", kernel);
	snprintf(d->desc, sizeof(d->desc), "ppslab-rut --mode %s --kernel %s, %s ports", mode,
		 kernel, ports);
	/* ready (ready.h): forwarding, the control socket listening; then one stats over
	 * it, which must answer at once */
	int st;
	rc = proc_wait_ready(pid, d->outpath, (uint64_t)RUT_READY_TIMEOUT_S * NS_PER_S, NULL,
			     &st);
	if (st >= 0)
		d->pid = 0;
	const char *stats[] = { "stats", NULL };
	char out[512] = "";
	if (!rc && (st = ctl(d, out, sizeof(out), stats)) == 0)
		return 0;
	char msg[400];
	proc_file_text(errpath, msg, sizeof(msg));
	if (!msg[0])
		snprintf(msg, sizeof(msg), "nothing on stderr");
	if (rc == -ECHILD)
		snprintf(err, errlen, "ppslab-rut exited with status %d before it was ready: %s",
			 st, msg);
	else if (rc)
		snprintf(err, errlen, "ppslab-rut was not ready within %d s: %s",
			 RUT_READY_TIMEOUT_S, msg);
	else
		snprintf(err, errlen, "ppslab-rut was ready, but its control socket %s did not "
			 "answer stats (status %d): %.200s", d->sock, st, out);
	json_decref(rut_stop(d));
	return rc == -ETIMEDOUT ? -ETIMEDOUT : -EIO;
}

/* The rule set of a cell as text: a "file:" rule set's content, or the generated set
 * (also written to d->rulepath, kept for a look after the run). *path says which file.
 * 0, or -errno with err saying why. */
static int rules_text(struct dut *d, const json_t *params, char **text, char *path,
		      size_t pathlen, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	const json_t *rv = prof_value(p, params, "rules");
	const json_t *kv = prof_value(p, params, "rules_kind");
	const char *kind = json_is_string(kv) ? json_string_value(kv) : "nomatch";
	char rel[4096];
	*text = NULL;
	if (json_is_string(rv)) {   /* "file:PATH", checked by the profile */
		if (prof_rules_path(p, rv, rel, sizeof(rel)) || !realpath(rel, path)) {
			snprintf(err, errlen, "rule file %s: %s", json_string_value(rv),
				 strerror(errno));
			return -ENOENT;
		}
	} else {
		FILE *f = fopen(d->rulepath, "w");
		if (!f) {
			snprintf(err, errlen, "%s: %s", d->rulepath, strerror(errno));
			return -errno;
		}
		int rc = rulegen_write(f, kind, (unsigned)json_integer_value(rv));
		if (fclose(f) || rc) {
			snprintf(err, errlen, "cannot write the %s rule set to %s", kind, d->rulepath);
			return rc ? rc : -EIO;
		}
		snprintf(path, pathlen, "%s", d->rulepath);
	}
	size_t tlen = 0;
	FILE *tf = fopen(path, "r");
	if (tf) {
		FILE *m = open_memstream(text, &tlen);
		char buf[65536];
		size_t n;
		while (m && (n = fread(buf, 1, sizeof(buf), tf)) > 0)
			fwrite(buf, 1, n, m);
		if (m)
			fclose(m);
		fclose(tf);
	}
	if (!*text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* the rule set of params, written and loaded */
static int rut_rules(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	char path[4096], *text;
	int rc = rules_text(d, params, &text, path, sizeof(path), err, errlen);
	if (rc)
		return rc;
	/* the text goes through the client's stdin, so the file need not exist on the
	 * forwarder's host (ssh) */
	static char out[8192];
	const char *flush[] = { "ipfw", "-q", "flush", NULL };
	int st = ctl(d, out, sizeof(out), flush);
	if (st == 0) {
		const char *load[] = { "ipfw", "-q", "/dev/stdin", NULL };
		st = ctl_in(d, out, sizeof(out), load, text);
	}
	free(text);
	if (st) {
		snprintf(err, errlen, "loading %s into ppslab-rut: status %d: %.300s", path, st, out);
		return -EIO;
	}
	return 0;
}

static bool changed(struct dut *d, const json_t *params, const char *axis)
{
	const json_t *v = prof_value(d->cfg.p, params, axis);
	const json_t *old = json_object_get(d->applied, axis);
	return !old || !v || !res_value_eq(old, v);
}

static void remember(struct dut *d, const json_t *params, const char *axis)
{
	const json_t *v = prof_value(d->cfg.p, params, axis);
	if (v)
		json_object_set_new(d->applied, axis, json_deep_copy(v));
}

/* a value as the sysctl wants it: on/off and booleans as 1/0 */
static void knob_text(const json_t *v, char *buf, size_t len)
{
	if (json_is_boolean(v))
		snprintf(buf, len, "%d", json_is_true(v));
	else if (json_is_string(v))
		snprintf(buf, len, "%s", !strcmp(json_string_value(v), "on") ? "1"
					 : !strcmp(json_string_value(v), "off") ? "0"
					 : json_string_value(v));
	else
		res_value_str(v, buf, len);
}

static int rut_apply(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	const json_t *mv = prof_value(d->cfg.p, params, "mode");
	const char *mode = json_is_string(mv) ? json_string_value(mv) : "poll";
	const json_t *kv = prof_value(d->cfg.p, params, "kernel");
	const struct pollkern *k = pollkern_find(json_string_value(kv));
	int rc;
	if (!k)
		k = pollkern_find(PK_DEFAULT);
	if (!dut_alive(d) || strcmp(mode, d->mode) || strcmp(k->name, d->kernel) ||
	    changed(d, params, "hz")) {
		if ((rc = rut_start(d, mode, params, err, errlen)))
			return rc;
		remember(d, params, "hz");
	}
	/* burst_max before each_burst: each_burst must stay within 1..burst_max */
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		bool fw = !strcmp(knobs[i].axis, "firewall");
		/* a knob this kernel lacks keeps its default (the profile checked it) */
		if (!pollkern_has(k, knobs[i].axis))
			continue;
		if (!changed(d, params, knobs[i].axis) && !(fw && changed(d, params, "rules")))
			continue;
		char val[64], arg[128], out[1024];
		if (!strcmp(knobs[i].axis, "firewall"))   /* "auto" resolved */
			snprintf(val, sizeof(val), "%d", prof_firewall_on(d->cfg.p, params));
		else
			knob_text(prof_value(d->cfg.p, params, knobs[i].axis), val, sizeof(val));
		snprintf(arg, sizeof(arg), "%s=%s", knobs[i].oid, val);
		const char *w[] = { "sysctl", arg, NULL };
		int st = ctl(d, out, sizeof(out), w);
		if (st) {
			snprintf(err, errlen, "ppslab-rut refused sysctl %s (status %d): %.300s", arg,
				 st, out);
			return -EIO;
		}
		remember(d, params, knobs[i].axis);
	}
	if (changed(d, params, "rules") || changed(d, params, "rules_kind")) {
		if ((rc = rut_rules(d, params, err, errlen)))
			return rc;
		remember(d, params, "rules");
		remember(d, params, "rules_kind");
	}
	remember(d, params, "mode");
	return 0;
}

/* ---- an external router: hooks ------------------------------------------------- */

struct expansion {
	const struct profile *p;
	const json_t *params;
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
	const json_t *v = prof_value(x->p, x->params, name);
	res_value_str(v, val, sizeof(val));
	exp_add(x, val, strlen(val));
}

/* a hook word with {axis} replaced by the cell's value and {{ }} by braces ({value}
 * by value_of's, in a router axis' own hooks) */
static char *expand_axis(const struct profile *p, const json_t *params, const char *value_of,
			 const char *tmpl)
{
	struct expansion x = { .p = p, .params = params, .value_of = value_of };
	exp_add(&x, "", 0);
	prof_hook_scan(tmpl, exp_piece, &x, NULL);   /* the profile checked the word */
	if (x.oom) {
		free(x.o);
		return NULL;
	}
	return x.o;
}

static char *expand(const struct profile *p, const json_t *params, const char *tmpl)
{
	return expand_axis(p, params, NULL, tmpl);
}

int dut_hook_argv(const struct dut_cfg *cfg, const json_t *hook, const json_t *params,
		  struct box_cmd *out)
{
	return dut_hook_argv_axis(cfg, hook, params, NULL, out);
}

int dut_hook_argv_axis(const struct dut_cfg *cfg, const json_t *hook, const json_t *params,
		       const char *value_of, struct box_cmd *out)
{
	struct box_cmd raw = { 0 };
	size_t i;
	json_t *w;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	json_array_foreach(hook, i, w) {
		char *word = expand_axis(cfg->p, params, value_of, json_string_value(w));
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

/* Runs a hook (what: its name in records and messages, a router axis' for its set
 * hook; axis: the router axis a verify reads, or NULL) with stdin_text (or NULL) on its standard input, killed after tmo
 * seconds (0: router.hook_timeout); output into out, stderr too unless errpath is
 * given (then it goes there). The run goes into d->hook_log. Returns the status
 * (-errno when it could not start). */
static int hook_exec(struct dut *d, const char *what, const char *axis, const json_t *hook,
		     const json_t *params, const char *stdin_text, char *out, size_t outlen,
		     double tmo, const char *errpath)
{
	struct box_cmd c;
	out[0] = 0;
	/* a router axis' set and verify hooks: {value} is that axis' */
	const char *value_of = axis ? axis : prof_router_axis(d->cfg.p, what) ? what : NULL;
	int st = dut_hook_argv_axis(&d->cfg, hook, params, value_of, &c);
	if (st) {
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
	if (st == 128 + SIGTERM || st == 128 + SIGKILL)
		log_warn("hook %s (%s) killed after its %.0f s timeout", what, c.argv[0], tmo);
	if (d->hook_log) {
		json_t *av = json_array();
		for (size_t i = 0; i < c.n; i++) {
			json_t *w = json_string(c.argv[i]);   /* NULL when not UTF-8 */
			json_array_append_new(av, w ? w : json_string("?"));
		}
		json_t *r = json_pack("{s:s,s:o,s:i,s:f}", "hook", what, "argv", av, "status", st,
				      "s", secs);
		if (r && axis)
			json_object_set_new(r, "axis", json_string(axis));
		if (r && stdin_text)
			json_object_set_new(r, "stdin_bytes", json_integer((json_int_t)strlen(stdin_text)));
		json_array_append_new(d->hook_log, r);
	}
	box_cmd_free(&c);
	return st;
}

static int hook_run(struct dut *d, const char *what, const json_t *hook, const json_t *params,
		    const char *stdin_text, char *out, size_t outlen)
{
	return hook_exec(d, what, NULL, hook, params, stdin_text, out, outlen, 0, NULL);
}

/* the hook's output for a message: its last lines, which say why */
static const char *tail_of(const char *out, size_t keep)
{
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

static int ext_setup(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[16384];
	if (!json_object_get(d->applied, " setup") && p->router.setup_hook) {
		int st = hook_run(d, "setup", p->router.setup_hook, params, NULL, out, sizeof(out));
		if (st) {
			snprintf(err, errlen, "setup hook failed with status %d: %.400s", st,
				 tail_of(out, 400));
			return -EIO;
		}
	}
	json_object_set_new(d->applied, " setup", json_true());
	return 0;
}

/* A router axis' set hook, with the axis' own timeout. */
static int raxis_set(struct dut *d, const struct prof_raxis *ra, const json_t *params,
		     char *err, size_t errlen)
{
	static char out[16384];
	int st = hook_exec(d, ra->name, NULL, ra->set, params, NULL, out, sizeof(out),
			   ra->timeout_s, NULL);
	if (!st)
		return 0;
	snprintf(err, errlen, "hook for %s failed with status %d%s: %.400s", ra->name, st,
		 st == 128 + SIGTERM || st == 128 + SIGKILL ? " (killed after its timeout)" : "",
		 tail_of(out, 400));
	return -EIO;
}

/* Whether an ssh client's status says the connection went away under it (255), as a
 * router that reboots takes it, or the run was killed after its timeout. */
static bool conn_lost(const json_t *hook, int st)
{
	return st == 128 + SIGTERM || st == 128 + SIGKILL ||
	       (st == 255 && box_is_ssh(json_string_value(json_array_get(hook, 0))));
}

bool dut_reboot_pending(struct dut *d, const json_t *params)
{
	const struct profile *p = d->cfg.p;
	bool need = false;
	if (d->kind != PR_EXTERNAL)
		return false;
	for (size_t i = 0; i < p->router.naxes; i++)
		need |= p->router.axes[i].reboot && changed(d, params, p->router.axes[i].name);
	return need;
}

int dut_apply_reboot(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[16384];
	if (!dut_reboot_pending(d, params))
		return 0;
	int rc = ext_setup(d, params, err, errlen);
	for (size_t i = 0; !rc && i < p->router.naxes; i++) {
		const struct prof_raxis *ra = &p->router.axes[i];
		if (ra->reboot && changed(d, params, ra->name))
			rc = raxis_set(d, ra, params, err, errlen);
	}
	if (rc)
		return rc;
	int st = hook_run(d, "reboot", p->router.reboot_hook, params, NULL, out, sizeof(out));
	if (st && !conn_lost(p->router.reboot_hook, st)) {
		snprintf(err, errlen, "the reboot hook failed with status %d: %.400s", st,
			 tail_of(out, 400));
		return -EIO;
	}
	/* set, and taking effect as the router starts; verified once it is back */
	for (size_t i = 0; i < p->router.naxes; i++)
		if (p->router.axes[i].reboot)
			remember(d, params, p->router.axes[i].name);
	return 1;
}

void dut_rebooted(struct dut *d)
{
	const struct profile *p = d->cfg.p;
	json_t *keep = json_object();
	for (size_t i = 0; keep && i < p->router.naxes; i++) {
		const json_t *v = json_object_get(d->applied, p->router.axes[i].name);
		if (p->router.axes[i].reboot && v)
			json_object_set(keep, p->router.axes[i].name, (json_t *)v);
	}
	json_object_clear(d->applied);
	if (keep)
		json_object_update(d->applied, keep);
	json_decref(keep);
}

void dut_forget(struct dut *d)
{
	json_object_clear(d->applied);
}

int dut_ready(struct dut *d, const json_t *params, char *out, size_t outlen)
{
	json_t *log = d->hook_log;
	d->hook_log = NULL;   /* polled while waiting: the reboot record counts the tries */
	int st = hook_run(d, "ready", d->cfg.p->router.ready_hook, params, NULL, out, outlen);
	d->hook_log = log;
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
static int ext_verify(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[4096];
	char errpath[600], want[256], msg[600];
	size_t used = 0;
	int rc = 0;
	snprintf(errpath, sizeof(errpath), "%s/verify.err", d->cfg.tmpdir);
	err[0] = 0;
	for (size_t i = 0; i < p->router.naxes; i++) {
		const struct prof_raxis *ra = &p->router.axes[i];
		if (!ra->verify)
			continue;
		if (!d->verified && !(d->verified = json_object()))
			return -ENOMEM;
		res_value_str(json_object_get(params, ra->name), want, sizeof(want));
		int st = hook_exec(d, "verify", ra->name, ra->verify, params, NULL, out,
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
			snprintf(msg, sizeof(msg), "reading %s back failed with status %d: %.300s",
				 ra->name, st, e[0] ? e : tail_of(out, 300));
		} else if (!out[0]) {
			snprintf(msg, sizeof(msg), "%s reads back empty on the router (its verify hook "
				 "printed nothing), the cell wants %s", ra->name, want);
		} else {
			snprintf(msg, sizeof(msg), "%s is %.100s on the router, the cell wants %s: the "
				 "setting did not take effect%s", ra->name, out, want,
				 ra->reboot ? " (read after the reboot)"
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

static int ext_apply(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	static char out[16384];
	int rc = ext_setup(d, params, err, errlen);
	if (rc)
		return rc;
	/* the router's own knobs that take effect at once, then the axes' hooks; a hook
	 * runs when its axis or an axis it names changed; what was applied is remembered
	 * only when every hook succeeded, so a failure is retried */
	for (size_t i = 0; i < p->router.naxes; i++) {
		const struct prof_raxis *ra = &p->router.axes[i];
		if (!ra->reboot && changed(d, params, ra->name) &&
		    (rc = raxis_set(d, ra, params, err, errlen)))
			return rc;
	}
	const char *names[128];
	bool ch[128] = { false };
	size_t nn = 0;
	for (size_t i = 0; prof_axis_names[i] && nn < 128; i++)
		names[nn++] = prof_axis_names[i];
	for (size_t i = 0; i < p->router.naxes && nn < 128; i++)
		names[nn++] = p->router.axes[i].name;
	for (size_t i = 0; i < nn; i++)
		ch[i] = changed(d, params, names[i]);
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
			rc = rules_text(d, params, &text, path, sizeof(path), err, errlen);
			if (rc)
				return rc;
		}
		int st = hook_run(d, axis, hook, params, text, out, sizeof(out));
		free(text);
		if (st) {
			snprintf(err, errlen, "hook for %s failed with status %d: %.400s", axis, st,
				 tail_of(out, 400));
			return -EIO;
		}
	}
	for (size_t i = 0; i < nn; i++) {
		const struct prof_raxis *ra = prof_router_axis(p, names[i]);
		if (!ra || !ra->reboot)
			remember(d, params, names[i]);
	}
	if ((rc = ext_verify(d, params, err, errlen)))
		return rc;
	if (p->router.check_hook) {
		int st = hook_run(d, "check", p->router.check_hook, params, NULL, out, sizeof(out));
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
				av[m++] = (char *)json_string_value(w);
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
			if (!dut_hook_argv(&d->cfg, probe, NULL, &c)) {
				struct proc_opts o = { .out = out, .outlen = sizeof(out), .merge_err = 1,
						       .timeout_ns = 40 * NS_PER_S };
				int st = proc_run(c.argv, &o);
				if (st) {
					char *dst = expand(p, NULL, av[dest]);
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

int dut_apply(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	switch (d->kind) {
	case PR_RUT:
		return rut_apply(d, params, err, errlen);
	case PR_EXTERNAL:
		return ext_apply(d, params, err, errlen);
	default:
		return 0;
	}
}

/* An external router's counters: its read hook's output, {"status", "output"}. */
static json_t *ext_read(struct dut *d)
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

json_t *dut_stats(struct dut *d)
{
	if (d->kind == PR_EXTERNAL && d->cfg.p->router.read_hook)
		return ext_read(d);
	if (d->kind != PR_RUT || !d->pid)
		return NULL;
	/* about 60 bytes per rule: room for the largest rule sets a profile can load */
	size_t len = 16u << 20;
	char *out = malloc(len);
	const char *w[] = { "stats", NULL };
	json_t *j = out && ctl(d, out, len, w) == 0 ? json_loads(out, 0, NULL) : NULL;
	if (out && !j)
		log_warn("ppslab-rut ctl stats gave no JSON: the forwarder's counters are missing "
			 "from this trial");
	free(out);
	return j;
}

/* counters: subtracted over an interval; everything else is a gauge or a setting */
static const char *const counters[] = {
	"t_ns", "rx_pkts", "fwd_pkts", "drop_pkts", "tx_pkts", "rx_bytes", "tx_bytes",
	"kernel_drops", "rx_bursts", "drop_txfull", "pkts", "bytes", "denied_pkts",
	"log_lines", "log_dropped", "short_ticks", "lost_polls", "suspect", "stalled",
	"ticks", "rounds", "chunks", "status_checks", "catchup_rounds", "idle_passes",
	"polled_frames", "idle_frames", "ticks_in_work", "clock_skips", "ticks_deferred",
	"stolen_ns", "cpu_s",
	"cpu_user_s", "cpu_sys_s", "fwd_cpu_s", NULL,
};

static bool is_counter(const char *key)
{
	for (int i = 0; counters[i]; i++)
		if (!strcmp(key, counters[i]))
			return true;
	return false;
}

static json_t *delta(const json_t *a, const json_t *b, bool all_counters)
{
	if (json_is_object(b)) {
		json_t *o = json_object();
		const char *k;
		json_t *bv;
		json_object_foreach((json_t *)b, k, bv) {
			const json_t *av = json_is_object(a) ? json_object_get(a, k) : NULL;
			bool sub = all_counters || is_counter(k);
			/* drops{} and denied_by_rule{} hold only counters, keyed by cause/rule */
			bool inner = !strcmp(k, "drops") || !strcmp(k, "denied_by_rule");
			if (json_is_object(bv) || json_is_array(bv))
				json_object_set_new(o, k, delta(av, bv, inner));
			else if (sub && json_is_integer(bv) && json_is_integer(av))
				json_object_set_new(o, k, json_integer(json_integer_value(bv) -
								       json_integer_value(av)));
			else if (sub && json_is_number(bv) && json_is_number(av))
				json_object_set_new(o, k, json_real(json_number_value(bv) -
								    json_number_value(av)));
			else
				json_object_set_new(o, k, json_deep_copy(bv));
		}
		return o;
	}
	if (json_is_array(b)) {
		/* rules[] and ports[]: the same element when the rule number (or index) agrees */
		json_t *arr = json_array();
		size_t i;
		json_t *bv;
		json_array_foreach((json_t *)b, i, bv) {
			const json_t *av = json_is_array(a) ? json_array_get(a, i) : NULL;
			const json_t *bn = json_object_get(bv, "number");
			if (bn) {   /* a rule: the one with that number, wherever it is */
				size_t j;
				json_t *x;
				av = NULL;
				json_array_foreach((json_t *)a, j, x)
					if (res_value_eq(bn, json_object_get(x, "number")))
						av = x;
			}
			json_array_append_new(arr, av ? delta(av, bv, all_counters) : json_deep_copy(bv));
		}
		return arr;
	}
	return json_deep_copy(b);
}

json_t *dut_delta(const json_t *a, const json_t *b)
{
	return b ? delta(a, b, false) : NULL;
}

/* Rules that matched nothing during the trial are left out of the record (a 20,000-rule
 * set would otherwise write 20,000 zeros per trial); rules_idle says how many. */
static void drop_idle_rules(json_t *rec)
{
	json_t *rules = json_object_get(rec, "rules");
	if (!json_is_array(rules))
		return;
	json_t *kept = json_array();
	size_t i, idle = 0;
	json_t *r;
	json_array_foreach(rules, i, r) {
		if (json_integer_value(json_object_get(r, "pkts")) ||
		    json_integer_value(json_object_get(r, "bytes")))
			json_array_append(kept, r);
		else
			idle++;
	}
	json_object_set_new(rec, "rules", kept);
	json_object_set_new(rec, "rules_idle", json_integer((json_int_t)idle));
}

/* The read hook's counters over the trial (its output after − before, both JSON
 * objects in the schema of dut.h), put into rec beside "output" so the checks read them
 * as they read ppslab-rut's. A counter that went backwards (reset, wrapped) is left
 * out and said so in "counters_note". */
static void ext_counters(json_t *rec, const json_t *b, const json_t *a, json_int_t sb,
			 json_int_t sa)
{
	static const char *const keys[] = { "rx_pkts", "fwd_pkts", "drop_pkts", "tx_pkts",
					    "drops", "rules", NULL };
	if (!json_is_object(a) || !json_is_object(b) || sa != 0 || sb != 0) {
		json_object_set_new(rec, "counters_note", json_string(
			!json_is_object(a) || !json_is_object(b)
			? "the read hook printed no JSON object before and after the trial: no "
			  "router counters for the checks"
			: "the read hook failed before or after the trial: no router counters"));
		return;
	}
	json_t *dl = dut_delta(b, a);
	char note[256] = "";
	for (int i = 0; keys[i]; i++) {
		json_t *v = json_object_get(dl, keys[i]);
		if (!v || !json_object_get(b, keys[i]))
			continue;
		if (json_is_integer(v) && json_integer_value(v) < 0) {
			size_t l = strlen(note);
			snprintf(note + l, sizeof(note) - l, "%s%s went backwards", l ? ", " : "",
				 keys[i]);
			continue;
		}
		json_object_set(rec, keys[i], v);
	}
	json_decref(dl);
	if (note[0])
		json_object_set_new(rec, "counters_note", json_string(note));
	drop_idle_rules(rec);
	json_object_set_new(rec, "counters_from", json_string("read hook, after - before the trial"));
}

json_t *dut_trial_record(struct dut *d, const json_t *before, const json_t *after)
{
	if (d->kind == PR_RUT) {
		json_t *rec = before && after ? dut_delta(before, after) : NULL;
		if (rec)
			drop_idle_rules(rec);
		return rec;
	}
	if (d->kind != PR_EXTERNAL || !d->cfg.p->router.read_hook)
		return NULL;
	json_t *a = after ? json_incref((json_t *)after) : ext_read(d);
	json_t *o = json_object();
	json_object_set(o, "hook", d->cfg.p->router.read_hook);
	json_object_set(o, "status", json_object_get(a, "status"));
	json_object_set(o, "output", json_object_get(a, "output"));
	ext_counters(o, json_object_get(before, "output"), json_object_get(a, "output"),
		     json_integer_value(json_object_get(before, "status")),
		     json_integer_value(json_object_get(a, "status")));
	json_decref(a);
	return o;
}

json_t *dut_close(struct dut *d)
{
	if (!d)
		return NULL;
	json_t *sum = rut_stop(d);
	json_decref(d->applied);
	json_decref(d->hook_log);
	json_decref(d->verified);
	free(d);
	return sum;
}
