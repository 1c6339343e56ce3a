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

#include "clock.h"
#include "jout.h"
#include "log.h"
#include "pollkern.h"
#include "proc.h"
#include "results.h"
#include "rulegen.h"
#include "safefile.h"
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
	{ "counters", "net.inet.ip.fw.counters" },
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
static int rut_start(struct dut *d, const char *mode, const json_t *params, char *err,
		     size_t errlen)
{
	const struct profile *p = d->cfg.p;
	const json_t *kv = prof_value(p, params, "kernel"), *hv = prof_value(p, params, "hz");
	const char *kernel = json_is_string(kv) ? json_string_value(kv) : PK_DEFAULT;
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
	if (!rc && json_is_integer(hv)) {
		rc = box_arg(&c, "--sysctl");
		rc = rc ? rc : box_argf(&c, "kern.hz=%lld", (long long)json_integer_value(hv));
	}
	/* burst_max from the start, as a box boots with it: set live a moment later, a
	 * kernel that does not lower burst with burst_max (dragonfly-1.8) would keep the
	 * burst it grew to meanwhile */
	const json_t *bv = prof_value(p, params, "burst_max");
	if (!rc && json_is_integer(bv)) {
		rc = box_arg(&c, "--sysctl");
		rc = rc ? rc : box_argf(&c, "kern.polling.burst_max=%lld",
					(long long)json_integer_value(bv));
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
int dut_rules_text(struct dut *d, const json_t *params, char **text, char *path,
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
		struct safefile sf;   /* never through a link (safefile.h) */
		int rc = safe_create(&sf, d->rulepath, 0644);
		if (rc) {
			snprintf(err, errlen, "%s: %s", d->rulepath, strerror(-rc));
			return rc;
		}
		rc = rulegen_write(sf.f, kind, (unsigned)json_integer_value(rv));
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

/* the rule set of params, written and loaded */
static int rut_rules(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	char path[4096], *text;
	int rc = dut_rules_text(d, params, &text, path, sizeof(path), err, errlen);
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

bool dut_changed(struct dut *d, const json_t *params, const char *axis)
{
	const json_t *v = prof_value(d->cfg.p, params, axis);
	const json_t *old = json_object_get(d->applied, axis);
	return !old || !v || !res_value_eq(old, v);
}

void dut_remember(struct dut *d, const json_t *params, const char *axis)
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
	    dut_changed(d, params, "hz")) {
		if ((rc = rut_start(d, mode, params, err, errlen)))
			return rc;
		dut_remember(d, params, "hz");
	}
	/* burst_max before each_burst: each_burst must stay within 1..burst_max */
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		bool fw = !strcmp(knobs[i].axis, "firewall");
		/* a knob this kernel lacks keeps its default (the profile checked it) */
		if (!pollkern_has(k, knobs[i].axis))
			continue;
		if (!dut_changed(d, params, knobs[i].axis) && !(fw && dut_changed(d, params, "rules")))
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
		dut_remember(d, params, knobs[i].axis);
	}
	if (dut_changed(d, params, "rules") || dut_changed(d, params, "rules_kind")) {
		if ((rc = rut_rules(d, params, err, errlen)))
			return rc;
		dut_remember(d, params, "rules");
		dut_remember(d, params, "rules_kind");
	}
	dut_remember(d, params, "mode");
	return 0;
}

int dut_rut_apply(struct dut *d, const json_t *params, char *err, size_t errlen)
{
	if (d->kind != PR_RUT)
		return 0;
	int rc = rut_apply(d, params, err, errlen);
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
