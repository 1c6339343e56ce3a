/* trial.c — one measurement of ppslab run (called by run.c for every trial a case's
 * method asks for). Starts the tools through box.h, waits on them with bounded times,
 * and turns their JSON summaries into the trial record; see trial.h. */
#include "trial.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "ifinfo.h"
#include "jout.h"
#include "log.h"
#include "proc.h"
#include "results.h"

/* rx_packets of ifname read through netlink from inside netns (NULL: ours): this
 * thread enters the namespace for the read only, so the timestamp around it is good to
 * microseconds. -1 when it cannot be read. */
static double if_rx_here(const char *netns, const char *ifname)
{
	int back = -1, rc = 0;
	if (netns) {
		char p[300];
		snprintf(p, sizeof(p), "/run/netns/%s", netns);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		back = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || back < 0 || setns(fd, CLONE_NEWNET) < 0)
			rc = -1;
		if (fd >= 0)
			close(fd);
		if (rc) {
			if (back >= 0)
				close(back);
			return -1;
		}
	}
	struct if_counters c;
	double v = if_counters_read(ifname, &c) == 0 ? (double)c.rx_packets : -1;
	if (back >= 0) {
		if (setns(back, CLONE_NEWNET) < 0)
			log_err("cannot return to our own network namespace: %s", strerror(errno));
		close(back);
	}
	return v;
}

/* The kernel's own count of frames the interface under a port spec received
 * ("afpacket:sink0,ring=v2" → sink0), on its box; -1 when it cannot be read. */
static double if_rx_packets(const struct box *b, const char *spec)
{
	char ifname[64];
	const char *colon = strchr(spec, ':');
	snprintf(ifname, sizeof(ifname), "%s", colon && strncmp(spec, "udp:", 4) ? colon + 1 : spec);
	ifname[strcspn(ifname, ",")] = 0;
	if (!strncmp(spec, "udp:", 4))
		return -1;
	if (!b->ssh)
		return if_rx_here(b->netns, ifname);
	struct box_cmd c;
	static char out[1 << 16];
	int rc = box_sys_init(&c, b, "ip");
	const char *w[] = { "-s", "-j", "link", "show", "dev", ifname, NULL };
	for (int i = 0; !rc && w[i]; i++)
		rc = box_arg(&c, w[i]);
	rc = rc ? rc : box_cmd_done(&c, b);
	struct proc_opts o = { .netns = c.netns, .out = out, .outlen = sizeof(out),
			       .quiet_err = 1, .timeout_ns = 10 * NS_PER_S };
	double v = -1;
	if (!rc && proc_run(c.argv, &o) == 0) {
		json_t *j = json_loads(out, 0, NULL);
		json_t *rx = json_object_get(json_object_get(json_object_get(json_array_get(j, 0),
									      "stats64"), "rx"), "packets");
		if (json_is_integer(rx))
			v = (double)json_integer_value(rx);
		json_decref(j);
	}
	box_cmd_free(&c);
	return v;
}

struct tool {
	const char *name;       /* "gen", "sink", "gen_b", "sink_b" */
	const char *prog;       /* "ppslab-gen", "ppslab-sink" */
	pid_t pid;
	char out[600];
	int status;
};

static int tool_start(struct tool *t, const struct trial_env *e, const struct box *b,
		      struct box_cmd *c)
{
	snprintf(t->out, sizeof(t->out), "%s/%s.out", e->tmpdir, t->name);
	char err[640];
	snprintf(err, sizeof(err), "%s/%s.err", e->tmpdir, t->name);
	int rc = box_cmd_done(c, b);
	if (!rc) {
		t->pid = proc_spawn(c->argv, c->netns, t->out, err);
		rc = t->pid < 0 ? (int)t->pid : 0;
	}
	box_cmd_free(c);
	if (rc)
		t->pid = 0;
	t->status = -1;
	return rc;
}

/* the first line of the tool's stderr, for a record's error */
static void tool_err(const struct tool *t, char *buf, size_t len)
{
	char p[640];
	snprintf(p, sizeof(p), "%.*s.err", (int)(strlen(t->out) - 4), t->out);
	buf[0] = 0;
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* How long a tool may take to say it is ready (ready.h): opening ports, and over ssh
 * the connection, take a fraction of this even on a slow or loaded machine. */
#define READY_TIMEOUT_S 30

/* Waits for the tool's ready record. 0, -EINTR (*stop), or -EIO with err saying which
 * tool failed, how, and what it printed on stderr. */
static int tool_ready(struct tool *t, const struct trial_env *e, char *err, size_t errlen)
{
	int st;
	int rc = proc_wait_ready(t->pid, t->out, (uint64_t)READY_TIMEOUT_S * NS_PER_S, e->stop,
				 &st);
	if (st >= 0) {
		t->pid = 0;
		t->status = st;
	}
	if (rc == 0 || rc == -EINTR)
		return rc;
	char p[640], why[400];
	snprintf(p, sizeof(p), "%.*s.err", (int)(strlen(t->out) - 4), t->out);
	proc_file_text(p, why, sizeof(why));
	if (rc == -ECHILD)
		snprintf(err, errlen, "%s (%s) exited with status %d before it was ready: %s",
			 t->prog, t->name, st, why[0] ? why : "nothing on stderr");
	else
		snprintf(err, errlen, "%s (%s) was not ready within %d s: %s", t->prog, t->name,
			 READY_TIMEOUT_S, why[0] ? why : "nothing on stderr");
	return -EIO;
}

/* expect: the sender's output file when it is on this host (the sink reads it at the
 * end, so frames lost after the last arrival count as lost), or NULL */
static int sink_cmd(const struct box *b, const char *ifname, double limit_s,
		    const char *expect, struct box_cmd *c)
{
	int rc = box_cmd_init(c, b, "ppslab-sink");
	if (!rc && expect) {
		rc = box_arg(c, "--expect-from");
		rc = rc ? rc : box_arg(c, expect);
	}
	rc = rc ? rc : box_arg(c, "-i");
	rc = rc ? rc : box_arg(c, ifname);
	rc = rc ? rc : box_arg(c, "--json");
	rc = rc ? rc : box_arg(c, "--duration");
	rc = rc ? rc : box_argf(c, "%.0fs", ceil(limit_s));
	rc = rc ? rc : box_arg(c, "--interval");
	rc = rc ? rc : box_arg(c, "3600s");
	return rc;
}

static int gen_cmd(const struct trial_env *e, const struct trial_req *r, const struct box *b,
		   const char *ifname, const char *dst, int stream, struct box_cmd *c)
{
	const struct profile *p = e->p;
	char rate[64];
	if (r->load_pps > 0)
		snprintf(rate, sizeof(rate), "%.0f", r->load_pps);
	else
		snprintf(rate, sizeof(rate), "max");
	char v[64];
	int rc = box_cmd_init(c, b, "ppslab-gen");
	rc = rc ? rc : box_arg(c, "-i");
	rc = rc ? rc : box_arg(c, ifname);
	rc = rc ? rc : box_arg(c, "--dst");
	rc = rc ? rc : box_arg(c, dst);
	rc = rc ? rc : box_arg(c, "--rate");
	rc = rc ? rc : box_arg(c, rate);
	rc = rc ? rc : box_arg(c, "--duration");
	rc = rc ? rc : box_argf(c, "%.3fs", r->duration_s);
	if (!rc && r->warmup_s > 0) {
		rc = box_arg(c, "--warmup");
		rc = rc ? rc : box_argf(c, "%.3fs", r->warmup_s);
	}
	rc = rc ? rc : box_arg(c, "--size");
	rc = rc ? rc : box_arg(c, res_value_str(prof_value(p, r->params, "size"), v, sizeof(v)));
	rc = rc ? rc : box_arg(c, "--flows");
	rc = rc ? rc : box_arg(c, res_value_str(prof_value(p, r->params, "flows"), v, sizeof(v)));
	rc = rc ? rc : box_arg(c, "--stream");
	rc = rc ? rc : box_argf(c, "%d", stream);
	rc = rc ? rc : box_arg(c, "--json");
	rc = rc ? rc : box_arg(c, "--interval");
	rc = rc ? rc : box_arg(c, "3600s");
	if (!rc && json_is_true(json_object_get(p->root, "allow_any_dst")))
		rc = box_arg(c, "--allow-any-dst");
	return rc;
}

static double jnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

void trial_counts(const json_t *rec, unsigned long long *tx, unsigned long long *rx,
		  double *offered_pps)
{
	double t = jnum(rec, "tx_frames"), x = jnum(rec, "rx_frames"), o = jnum(rec, "offered_pps");
	*tx = isnan(t) ? 0 : (unsigned long long)t;
	*rx = isnan(x) ? 0 : (unsigned long long)x;
	*offered_pps = isnan(o) ? 0 : o;
}

/* Waits for the tool without killing it: its status, or -1 while it still runs at the
 * deadline (or when *stop is set and stop_too). */
static int tool_wait(struct tool *t, uint64_t deadline, volatile sig_atomic_t *stop,
		     bool stop_too)
{
	if (!t->pid)
		return t->status;
	for (;;) {
		int st;
		pid_t w = waitpid(t->pid, &st, WNOHANG);
		if (w == t->pid) {
			t->pid = 0;
			t->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			return t->status;
		}
		if (w < 0 && errno != EINTR) {
			t->pid = 0;
			return t->status = -1;
		}
		if (mono_ns() >= deadline || (stop_too && stop && *stop))
			return -1;
		usleep(20 * 1000);
	}
}

/* SIGINT (the tools print their summary), then up to 10 s, then SIGKILL */
static void tool_stop(struct tool *t)
{
	if (!t->pid)
		return;
	kill(t->pid, SIGINT);
	if (tool_wait(t, mono_ns() + 10 * NS_PER_S, NULL, false) < 0) {
		kill(t->pid, SIGKILL);
		tool_wait(t, mono_ns() + 5 * NS_PER_S, NULL, false);
		t->status = 128 + SIGKILL;
	}
}

static double rate_of(const json_t *sink_sum, const json_t *gen_sum)
{
	double rx = jnum(sink_sum, "rx_pkts"), dns = jnum(gen_sum, "duration_ns");
	return isnan(rx) || isnan(dns) || dns <= 0 ? NAN : rx * 1e9 / dns;
}

static void set_num(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, isnan(v) ? json_null() : json_real(v));
}

int trial_run(const struct trial_env *e, const struct trial_req *r, json_t **recp)
{
	const struct profile *p = e->p;
	const json_t *dir = prof_value(p, r->params, "direction");
	bool bi = json_is_string(dir) && !strcmp(json_string_value(dir), "bi");
	json_t *rec = json_object();
	if (!rec)
		return -ENOMEM;
	*recp = rec;
	json_object_set_new(rec, "seq", json_integer(r->seq));
	json_object_set_new(rec, "kind", json_string(r->kind));
	json_object_set_new(rec, "intended_pps",
			    r->load_pps > 0 ? json_real(r->load_pps) : json_string("max"));
	json_object_set_new(rec, "duration_s", json_real(r->duration_s));
	json_object_set_new(rec, "warmup_s", json_real(r->warmup_s));
	json_object_set_new(rec, "per", json_string(bi ? "aggregate" : "direction"));

	struct tool sink = { .name = "sink", .prog = "ppslab-sink" };
	struct tool sinkb = { .name = "sink_b", .prog = "ppslab-sink" };
	struct tool gen = { .name = "gen", .prog = "ppslab-gen" };
	struct tool genb = { .name = "gen_b", .prog = "ppslab-gen" };
	struct tool *tools[4] = { &gen, &genb, &sink, &sinkb };
	/* A sink here is stopped with SIGINT when the senders are done; over ssh a signal
	 * does not reach the remote process, so there the sink's own duration ends it
	 * shortly after the load. */
	bool remote = e->gen.ssh || e->sink.ssh;
	double limit = r->warmup_s + r->duration_s + p->trial.settle_s + (remote ? 4 : 60);
	uint64_t sinks_end = mono_ns() + (uint64_t)((limit + 15) * 1e9);
	char err[700] = "";
	int rc = 0;
	struct box_cmd c;
	json_t *before = NULL, *after = NULL;
	struct { uint64_t t; double a, b; } win[2] = { { 0, -1, -1 }, { 0, -1, -1 } };
	for (int i = 0; i < 4; i++) {   /* no stale output of an earlier trial */
		char pth[600];
		snprintf(pth, sizeof(pth), "%s/%s.out", e->tmpdir, tools[i]->name);
		unlink(pth);
	}

	/* sinks first, each ready (ready.h) before a frame is sent: none goes uncounted */
	char xa[600], xb[600];
	snprintf(xa, sizeof(xa), "%s/gen.out", e->tmpdir);
	snprintf(xb, sizeof(xb), "%s/gen_b.out", e->tmpdir);
	bool local = !e->gen.ssh && !e->sink.ssh;
	if ((rc = sink_cmd(&e->sink, e->sink_if, limit, local ? xa : NULL, &c)) ||
	    (rc = tool_start(&sink, e, &e->sink, &c))) {
		snprintf(err, sizeof(err), "cannot start ppslab-sink: %s", strerror(-rc));
		goto out;
	}
	if (bi && ((rc = sink_cmd(&e->gen, e->gen_if, limit, local ? xb : NULL, &c)) ||
		   (rc = tool_start(&sinkb, e, &e->gen, &c)))) {
		snprintf(err, sizeof(err), "cannot start the blast B sink: %s", strerror(-rc));
		goto out;
	}
	if (tool_ready(&sink, e, err, sizeof(err)) ||
	    (bi && tool_ready(&sinkb, e, err, sizeof(err))))
		goto out;

	before = e->dut ? dut_stats(e->dut) : NULL;
	if ((rc = gen_cmd(e, r, &e->gen, e->gen_if, e->dst, 1, &c)) ||
	    (rc = tool_start(&gen, e, &e->gen, &c))) {
		snprintf(err, sizeof(err), "cannot start ppslab-gen: %s", strerror(-rc));
		goto out;
	}
	if (bi && ((rc = gen_cmd(e, r, &e->sink, e->sink_if, e->dst_b, 2, &c)) ||
		   (rc = tool_start(&genb, e, &e->sink, &c)))) {
		snprintf(err, sizeof(err), "cannot start the blast B sender: %s", strerror(-rc));
		goto out;
	}
	/* the load starts when the senders are ready, not when they were started */
	if (tool_ready(&gen, e, err, sizeof(err)) ||
	    (bi && tool_ready(&genb, e, err, sizeof(err))))
		goto out;
	/* The forwarding rate is read off the kernel's counters of the receiving interfaces
	 * while the load is on: from the end of the warm-up (plus a margin for the senders'
	 * start) until 100 ms before the senders stop. Frames a backlog delivers after the load ends
	 * are not counted in it, frames of the warm-up delivered during it are: the rate
	 * at which the router forwards under this load (RFC 2285), whatever their tag. */
	uint64_t t_load = mono_ns();
	uint64_t t_win0 = t_load + (uint64_t)((r->warmup_s + 0.15) * 1e9);
	uint64_t t_win1 = t_load + (uint64_t)((r->warmup_s + r->duration_s - 0.1) * 1e9);
	uint64_t deadline = t_load + (uint64_t)((r->warmup_s + r->duration_s + 30) * 1e9);
	for (int w = 0; w < 2 && t_win1 > t_win0 + 200 * NS_PER_MS; w++) {
		if (tool_wait(&gen, w ? t_win1 : t_win0, e->stop, true) >= 0 ||
		    (bi && tool_wait(&genb, w ? t_win1 : t_win0, e->stop, true) >= 0) ||
		    (e->stop && *e->stop))
			break;   /* a sender ended early: no window */
		uint64_t t0 = mono_ns();
		win[w].a = if_rx_packets(&e->sink, e->sink_if);
		win[w].b = bi ? if_rx_packets(&e->gen, e->gen_if) : -1;
		win[w].t = t0 + (mono_ns() - t0) / 2;   /* the reads took a few ms */
	}
	for (int i = 0; i < 2; i++)
		if (tools[i]->pid && tool_wait(tools[i], deadline, e->stop, true) < 0) {
			if (!(e->stop && *e->stop))
				snprintf(err, sizeof(err), "ppslab-%s did not finish in time", tools[i]->name);
			tool_stop(tools[i]);
		}
	/* residual frames drain before anyone counts */
	if (p->trial.settle_s > 0 && !(e->stop && *e->stop))
		usleep((useconds_t)(p->trial.settle_s * 1e6));
	after = e->dut ? dut_stats(e->dut) : NULL;
out:
	for (int i = 0; i < 4; i++) {
		if (remote && i >= 2 && !(e->stop && *e->stop))
			tool_wait(tools[i], sinks_end, NULL, false);
		tool_stop(tools[i]);
	}

	/* what everyone printed */
	json_t *gens = json_array(), *sinks = json_array(), *exits = json_object();
	json_t *gs[2] = { NULL, NULL }, *ss[2] = { NULL, NULL };
	for (int i = 0; i < 4; i++) {
		struct tool *t = tools[i];
		if (!t->out[0])
			continue;
		json_t *sum = jout_last_summary(t->out);
		json_object_set_new(exits, t->name, json_integer(t->status));
		if (i < 2)
			gs[i] = sum;
		else
			ss[i - 2] = sum;
		if (sum)
			json_array_append(i < 2 ? gens : sinks, sum);
		if ((t->status != 0 || !sum) && !err[0]) {
			char why[300];
			tool_err(t, why, sizeof(why));
			snprintf(err, sizeof(err), "%s exited with status %d%s%s%s", t->name, t->status,
				 sum ? "" : " without a summary", why[0] ? ": " : "", why);
		}
	}
	json_object_set_new(rec, "gen", gens);
	json_object_set_new(rec, "sink", sinks);
	json_object_set_new(rec, "exit", exits);
	if (e->dut) {
		json_t *rr = dut_trial_record(e->dut, before, after);
		if (rr)
			json_object_set_new(rec, "rut", rr);
	}
	json_decref(before);
	json_decref(after);

	/* the trial's numbers: sent and received test frames, rates over the sender's time */
	double tx = 0, rx = 0, offered = 0, fa = rate_of(ss[0], gs[0]), fb = NAN;
	double wdt = (double)(win[1].t - win[0].t) / 1e9;
	bool windowed = win[0].t && win[1].t && wdt > 0.2 && win[0].a >= 0 && win[1].a >= 0;
	if (windowed)   /* the kernel's count of the load window (see above) */
		fa = (win[1].a - win[0].a) / wdt;
	for (int i = 0; i < 2; i++) {
		double t = jnum(gs[i], "tx_pkts"), x = jnum(ss[i], "rx_pkts"), o = jnum(gs[i], "pps");
		tx += isnan(t) ? 0 : t;
		rx += isnan(x) ? 0 : x;
		offered += isnan(o) ? 0 : o;
	}
	if (bi)
		fb = windowed && win[0].b >= 0 && win[1].b >= 0 ? (win[1].b - win[0].b) / wdt
								  : rate_of(ss[1], gs[1]);
	json_object_set_new(rec, "fwd_rate_from", json_string(windowed ? "interface counters, load window"
									: "test frames / sender's time"));
	if (windowed)
		json_object_set_new(rec, "window_s", json_real(wdt));
	json_object_set_new(rec, "tx_frames", json_integer((json_int_t)tx));
	json_object_set_new(rec, "rx_frames", json_integer((json_int_t)rx));
	set_num(rec, "offered_pps", gs[0] ? offered : NAN);
	set_num(rec, "loss_ratio", tx > 0 ? (tx > rx ? (tx - rx) / tx : 0) : NAN);
	set_num(rec, "fwd_rate_pps", isnan(fa) ? NAN : fa + (bi && !isnan(fb) ? fb : 0));
	set_num(rec, "fwd_rate_pps_a", fa);
	set_num(rec, "fwd_rate_pps_b", fb);
	const json_t *lat = json_object_get(ss[0], "latency_ns");
	if (json_is_object(lat))
		json_object_set_new(rec, "latency_ns", json_deep_copy(lat));
	time_t now = time(NULL);
	char t1[32];
	strftime(t1, sizeof(t1), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_set_new(rec, "end_utc", json_string(t1));
	for (int i = 0; i < 2; i++) {
		json_decref(gs[i]);
		json_decref(ss[i]);
	}
	if (e->stop && *e->stop) {
		json_object_set_new(rec, "error", json_string("interrupted"));
		return -EINTR;
	}
	if (err[0]) {
		json_object_set_new(rec, "error", json_string(err) ? json_string(err) : json_string("a component failed (its message is not UTF-8)"));
		return -EIO;
	}
	return 0;
}
