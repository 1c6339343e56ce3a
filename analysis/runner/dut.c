/* SPDX-License-Identifier: BSD-2-Clause */
/* dut.c — drives the device under test for ppslab run (run.c): ppslab-rut through its
 * control socket, or nothing; an external router's hooks are dut_ext.c's, which calls
 * down into this file (never the other way), the counters over a trial dut_count.c's.
 * See dut.h for the axis → setting map. */
#include "dut_impl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "axes.h"
#include "clock.h"
#include "jout.h"
#include "log.h"
#include "pollkern.h"
#include "proc.h"
#include "results.h"
#include "rulegen.h"
#include "safefile.h"
int dut_new(const struct dut_cfg *cfg, struct dut **out)
{
	struct dut *d = calloc(1, sizeof(*d));
	if (!d || !(d->applied = json_object())) {
		free(d);
		return -ENOMEM;
	}
	d->cfg = *cfg;
	d->kind = cfg->p->router.kind;
	prof_cell(cfg->p, NULL, &d->fixed);
	/* the socket lives on the forwarder's host: over ssh in a private directory made
	 * there at the first start (rut_sockdir) */
	if (!cfg->box.ssh)
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
 * be NULL). Returns the status. A forwarder that does not answer within limit_s is
 * taken for hung (d->fault): the client is killed and the forwarder with it later. */
static int ctl_in(struct dut *d, char *out, size_t outlen, const char *const *words,
		  const char *input, unsigned limit_s);

static int ctl(struct dut *d, char *out, size_t outlen, const char *const *words)
{
	return ctl_in(d, out, outlen, words, NULL, DUT_CTL_ANSWER_S);
}

static int ctl_in(struct dut *d, char *out, size_t outlen, const char *const *words,
		  const char *input, unsigned limit_s)
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
			       .timeout_ns = (uint64_t)limit_s * NS_PER_S };
	uint64_t t0 = mono_ns();
	rc = proc_run(c.argv, &o);
	box_cmd_free(&c);
	if (rc != 0 && mono_ns() - t0 >= (uint64_t)limit_s * NS_PER_S && d->pid && !d->fault[0])
		snprintf(d->fault, sizeof(d->fault), "ppslab-rut (pid %d) did not answer '%s' on "
			 "its control socket within %u s: hung or stopped", (int)d->pid, words[0],
			 limit_s);
	return rc;
}

const char *dut_fault(const struct dut *d)
{
	return d && d->fault[0] ? d->fault : NULL;
}

bool dut_alive(struct dut *d)
{
	if (d->kind != PR_RUT)
		return true;
	if (!d->pid || d->fault[0])
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
	/* a hung forwarder (stopped, or stuck) would not act on SIGINT: killed at once */
	bool hung = d->fault[0] != 0;
	if (hung)
		log_warn("killing the forwarder (pid %d): %s", (int)d->pid, d->fault);
	if (!d->cfg.box.ssh) {
		kill(d->pid, hung ? SIGKILL : SIGINT);
	} else {   /* a signal would stop our ssh client, not the remote forwarder */
		struct box_cmd c;
		int rc = box_sys_init(&c, &d->cfg.box, "pkill");
		rc = rc ? rc : box_arg(&c, hung ? "-KILL" : "-INT");
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
	d->fault[0] = 0;
	return hung ? NULL : jout_last_summary(d->outpath);
}

/* Over ssh, the control socket's directory on the forwarder's host: `mktemp -d` there
 * (mode 0700, a random name), so no one else on that host can predict, plant or reach
 * the socket. Made once; dut_close removes it. 0 or -EIO with err saying why. */
static int rut_sockdir(struct dut *d, char *err, size_t errlen)
{
	static const char tmpl[] = "/tmp/ppslab-rut.XXXXXXXXXX";
	if (!d->cfg.box.ssh || d->sock[0])
		return 0;
	struct box_cmd c;
	char out[512] = "";
	int rc = box_sys_init(&c, &d->cfg.box, "mktemp");
	rc = rc ? rc : box_arg(&c, "-d");
	rc = rc ? rc : box_arg(&c, tmpl);
	rc = rc ? rc : box_cmd_done(&c, &d->cfg.box);
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .merge_err = 1,
			       .timeout_ns = 30 * NS_PER_S };
	int st = rc ? rc : proc_run(c.argv, &o);
	box_cmd_free(&c);
	out[strcspn(out, "\n")] = 0;
	size_t pre = sizeof(tmpl) - 11;   /* "/tmp/ppslab-rut." */
	if (st || strlen(out) != sizeof(tmpl) - 1 || strncmp(out, tmpl, pre) ||
	    strspn(out + pre, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != 10) {
		snprintf(err, errlen, "cannot make a private directory for ppslab-rut's control "
			 "socket on the router's host (mktemp -d %s: status %d): %.200s", tmpl, st,
			 out);
		return -EIO;
	}
	snprintf(d->sock, sizeof(d->sock), "%s/rut.sock", out);
	return 0;
}

/* Removes rut_sockdir's directory. */
static void rut_sockdir_rm(struct dut *d)
{
	if (!d->cfg.box.ssh || !d->sock[0])
		return;
	char dir[512];
	snprintf(dir, sizeof(dir), "%.*s", (int)(strlen(d->sock) - strlen("/rut.sock")), d->sock);
	struct box_cmd c;
	int rc = box_sys_init(&c, &d->cfg.box, "rm");
	rc = rc ? rc : box_arg(&c, "-rf");
	rc = rc ? rc : box_arg(&c, "--");
	rc = rc ? rc : box_arg(&c, dir);
	rc = rc ? rc : box_cmd_done(&c, &d->cfg.box);
	struct proc_opts o = { .quiet_err = 1, .timeout_ns = 20 * NS_PER_S };
	if (!rc)
		proc_run(c.argv, &o);
	box_cmd_free(&c);
}

/* How long ppslab-rut may take to be ready: its ports and tables, over ssh the
 * connection; a fraction of this on a slow or loaded machine. */
#define RUT_READY_TIMEOUT_S 30

/* (Re)starts the forwarder in mode with the cell's kernel personality and HZ (a boot
 * setting of the kernels, so a new value means a new forwarder). */
static int rut_start(struct dut *d, const char *mode, const struct cell *cell, char *err,
		     size_t errlen)
{
	const struct profile *p = d->cfg.p;
	const char *kernel = cell->kernel;
	json_decref(rut_stop(d));
	json_object_clear(d->applied);
	int src = rut_sockdir(d, err, errlen);
	if (src)
		return src;
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
	if (!rc && cell->hz) {
		rc = box_arg(&c, "--sysctl");
		rc = rc ? rc : box_argf(&c, "kern.hz=%lld", cell->hz);
	}
	/* a tagged cell: both ports trunks of its VLAN (vlan interfaces rut0.100 and
	 * rut1.100), set at start as a vlan(4) interface is created */
	for (int i = 0; !rc && cell->vlan && i < 2; i++) {
		rc = box_arg(&c, "--vlan");
		if (rc)
			break;
		if (cell->vlan_inner)
			rc = box_argf(&c, "%s=%u.%u", i ? d->cfg.out : d->cfg.in, cell->vlan,
				      cell->vlan_inner);
		else
			rc = box_argf(&c, "%s=%u", i ? d->cfg.out : d->cfg.in, cell->vlan);
	}
	/* burst_max from the start, as a box boots with it: set live a moment later, a
	 * kernel that does not lower burst with burst_max (dragonfly-1.8) would keep the
	 * burst it grew to meanwhile */
	if (!rc) {
		rc = box_arg(&c, "--sysctl");
		rc = rc ? rc : box_argf(&c, "%s=%lld", axis_defs[AX_BURST_MAX].oid, cell->burst_max);
	}
	if (!rc && p->router.rt_prio > 0) {
		rc = box_arg(&c, "--rt-prio");
		rc = rc ? rc : box_argf(&c, "%.0f", p->router.rt_prio);
	}
	if (!rc && p->router.threads > 1) {   /* one per queue: the lab made as many */
		rc = box_arg(&c, "--threads");
		rc = rc ? rc : box_argf(&c, "%u", p->router.threads);
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
	char thr[24] = "";
	if (p->router.threads > 1)
		snprintf(thr, sizeof(thr), " --threads %u", p->router.threads);
	snprintf(d->desc, sizeof(d->desc), "ppslab-rut --mode %s --kernel %s%s, %s ports", mode,
		 kernel, thr, ports);
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
int dut_rules_text(struct dut *d, const struct cell *cell, char **text, char *path,
		   size_t pathlen, char *err, size_t errlen)
{
	const struct profile *p = d->cfg.p;
	const json_t *rv = cell->v[AX_RULES];
	const char *kind = cell->rules_kind;
	char rel[4096];
	*text = NULL;
	if (cell->rules_file) {   /* "file:PATH", checked by the profile */
		if (prof_rules_path(p, rv, rel, sizeof(rel)) || !realpath(rel, path)) {
			snprintf(err, errlen, "rule file %s: %s", json_string_value(rv),
				 strerror(errno));
			return -ENOENT;
		}
	} else {
		struct safefile sf;   /* never through a link (safefile.h) */
		int rc = safe_create(&sf, d->rulepath, 0644);
		if (rc) {
			snprintf(err, errlen, "%s: %s", d->rulepath, strerror(-rc));
			return rc;
		}
		rc = rulegen_write(sf.f, kind, (unsigned)cell->rules);
		if (rc)
			safe_abort(&sf);
		else
			rc = safe_commit(&sf, 0);
		if (rc) {
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

/* the rule set of a cell, written and loaded */
static int rut_rules(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	char path[4096], *text;
	int rc = dut_rules_text(d, cell, &text, path, sizeof(path), err, errlen);
	if (rc)
		return rc;
	/* the text goes through the client's stdin, so the file need not exist on the
	 * forwarder's host (ssh) */
	static char out[8192];
	const char *flush[] = { "ipfw", "-q", "flush", NULL };
	int st = ctl(d, out, sizeof(out), flush);
	if (st == 0) {
		const char *load[] = { "ipfw", "-q", "/dev/stdin", NULL };
		st = ctl_in(d, out, sizeof(out), load, text, DUT_CTL_LOAD_S);
	}
	free(text);
	if (st) {
		snprintf(err, errlen, "loading %s into ppslab-rut: status %d: %.300s", path, st, out);
		return -EIO;
	}
	return 0;
}

void dut_forget_live(struct dut *d, bool rules_only)
{
	for (int i = 0; i < AX_COUNT; i++)
		if (axis_defs[i].act == AA_RULES || (!rules_only && axis_defs[i].act == AA_SYSCTL))
			json_object_del(d->applied, axis_defs[i].name);
}

int dut_action_ctl(struct dut *d, const json_t *words, unsigned rules, bool per_rule, char *out,
		   size_t outlen)
{
	out[0] = 0;
	if (d->kind != PR_RUT || !d->pid)
		return -ENODEV;
	const char *w[64];
	size_t n = 0;
	char *text = NULL;
	size_t tlen = 0;
	if (rules) {   /* rulegen's set, added to what is loaded, as the rules axis loads it */
		FILE *m = open_memstream(&text, &tlen);
		int rc = m ? rulegen_write(m, "nomatch", rules) : -ENOMEM;
		if (m)
			fclose(m);
		if (rc || !text) {
			free(text);
			return rc ? rc : -ENOMEM;
		}
		w[n++] = "ipfw";
		w[n++] = "-q";
		if (per_rule)   /* ppslab-rut's model of ipfw(8): one call a line */
			w[n++] = "-per-rule";
		w[n++] = "/dev/stdin";
	} else {
		size_t i;
		const json_t *v;
		json_array_foreach(words, i, v)
			if (n < 63)
				w[n++] = json_string_value(v);
	}
	w[n] = NULL;
	dut_forget_live(d, rules != 0);
	int st = ctl_in(d, out, outlen, w, text, DUT_CTL_LOAD_S);
	free(text);
	return st;
}

bool dut_changed(struct dut *d, const struct cell *cell, const char *axis)
{
	const json_t *v = cell_value(cell, axis);
	const json_t *old = json_object_get(d->applied, axis);
	return !old || !v || !res_value_eq(old, v);
}

void dut_remember(struct dut *d, const struct cell *cell, const char *axis)
{
	const json_t *v = cell_value(cell, axis);
	if (v)
		json_object_set_new(d->applied, axis, json_deep_copy(v));
}

/* Restarts ppslab-rut when a restart axis changed, then sends each sysctl axis that
 * changed in the registry's order, then loads the rule set when a rules axis did. */
static int rut_apply(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	const struct pollkern *k = pollkern_find(cell->kernel);
	int rc;
	if (!dut_alive(d) || strcmp(cell->mode, d->mode) || strcmp(k->name, d->kernel) ||
	    dut_changed(d, cell, "hz") || dut_changed(d, cell, "vlan")) {
		if ((rc = rut_start(d, cell->mode, cell, err, errlen)))
			return rc;
		dut_remember(d, cell, "hz");
		dut_remember(d, cell, "vlan");
	}
	enum axis_id ids[AX_COUNT];
	size_t n = axis_sysctl_order(ids, AX_COUNT);
	for (size_t i = 0; i < n; i++) {
		const struct axis_def *a = &axis_defs[ids[i]];
		bool fw = ids[i] == AX_FIREWALL;
		/* a knob this kernel lacks keeps its default (the profile checked it) */
		if (!pollkern_has(k, a->name))
			continue;
		if (!dut_changed(d, cell, a->name) && !(fw && dut_changed(d, cell, "rules")))
			continue;
		char val[64], arg[128], out[1024];
		if (fw)   /* "auto" resolved */
			snprintf(val, sizeof(val), "%d", cell->firewall);
		else
			res_value_str(cell->v[ids[i]], val, sizeof(val));
		snprintf(arg, sizeof(arg), "%s=%s", a->oid, val);
		const char *w[] = { "sysctl", arg, NULL };
		int st = ctl(d, out, sizeof(out), w);
		if (st) {
			snprintf(err, errlen, "ppslab-rut refused sysctl %s (status %d): %.300s", arg,
				 st, out);
			return -EIO;
		}
		dut_remember(d, cell, a->name);
	}
	bool rules = false;
	for (size_t i = 0; i < AX_COUNT; i++)
		rules |= axis_defs[i].act == AA_RULES && dut_changed(d, cell, axis_defs[i].name);
	if (rules && (rc = rut_rules(d, cell, err, errlen)))
		return rc;
	for (size_t i = 0; i < AX_COUNT; i++)
		if (axis_defs[i].act == AA_RULES || i == AX_MODE)
			dut_remember(d, cell, axis_defs[i].name);
	return 0;
}

int dut_rut_apply(struct dut *d, const struct cell *cell, char *err, size_t errlen)
{
	if (d->kind != PR_RUT)
		return 0;
	int rc = rut_apply(d, cell, err, errlen);
	if (rc && d->fault[0])   /* hung: that, not the command it did not answer */
		snprintf(err, errlen, "%s", d->fault);
	return rc;
}
json_t *dut_rut_stats(struct dut *d)
{
	if (d->kind != PR_RUT || !d->pid)
		return NULL;
	/* about 60 bytes per rule: room for the largest rule sets a profile can load */
	size_t len = 16u << 20;
	char *out = malloc(len);
	const char *w[] = { "stats", NULL };
	int st = out ? ctl(d, out, len, w) : -ENOMEM;
	json_t *j = st == 0 ? json_loads(out, 0, NULL) : NULL;
	/* a running forwarder that does not give its counters is not trusted with the
	 * trial: its rate may be anything (stopped, stuck, its socket gone) */
	if (out && !j && !d->fault[0])
		snprintf(d->fault, sizeof(d->fault), "ppslab-rut (pid %d) did not answer 'stats' "
			 "on its control socket (status %d): %.200s", (int)d->pid, st, out);
	free(out);
	return j;
}
json_t *dut_close(struct dut *d)
{
	if (!d)
		return NULL;
	json_t *sum = rut_stop(d);
	rut_sockdir_rm(d);
	json_decref(d->applied);
	json_decref(d->hook_log);
	json_decref(d->verified);
	free(d);
	return sum;
}
