/* SPDX-License-Identifier: BSD-2-Clause */
/* trial.c — one measurement of ppslab run (called by run_case.c and run_rig.c for
 * every trial a case's method asks for). Starts the tools through box.h, waits on them with bounded times,
 * and turns their JSON summaries into the trial record; see trial.h. The receiving
 * interfaces' counters are read by trial_rx.c, the per-box figures and the start
 * instant put into the record by trial_record.c (see trial_impl.h). */
#include "trial_impl.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "clock.h"
#include "jout.h"
#include "log.h"
#include "proc.h"
#include "results.h"

/* Why a receiving interface's counters could not be read (fwd_rate_fallback). */
static const char *counters_why(const struct trial_box *b, const char *role)
{
	static char why[400];
	if (!strncmp(b->spec, "udp:", 4))
		snprintf(why, sizeof(why), "the %s port %s (box %s) is a UDP socket: no interface "
			 "counters to read", role, b->spec, b->name);
	else if (b->box.ssh)
		snprintf(why, sizeof(why), "no counters of %s from %s (box %s, %s) over ssh: `ip -s -j "
			 "link show` (iproute2 with JSON) and `date +%%s.%%N` are needed there", b->spec,
			 b->box.ssh, b->name, role);
	else
		snprintf(why, sizeof(why), "the kernel's counters of %s%s%s (box %s) could not be read",
			 b->spec, b->box.netns ? " in namespace " : "", b->box.netns ? b->box.netns : "",
			 b->name);
	return why;
}

static int tool_start(struct tool *t, const struct trial_env *e, struct box_cmd *c)
{
	const struct box *b = &t->tb->box;
	snprintf(t->out, sizeof(t->out), "%s/%s.out", e->tmpdir, t->name);
	char err[640];
	snprintf(err, sizeof(err), "%s/%s.err", e->tmpdir, t->name);
	t->in = -1;
	int rc = box_cmd_stoppable(c, b);
	rc = rc ? rc : box_cmd_done(c, b);
	if (!rc) {
		t->pid = proc_spawn_in(c->argv, c->netns, t->out, err, b->ssh ? &t->in : NULL);
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
 * tool on which box failed, how, and what it printed on stderr. */
static int tool_ready(struct tool *t, const struct trial_env *e, char *err, size_t errlen)
{
	int st;
	int rc = proc_wait_ready(t->pid, t->out, (uint64_t)READY_TIMEOUT_S * NS_PER_S, e->stop,
				 &st);
	t->ready_ns = mono_ns();
	if (st >= 0) {
		t->pid = 0;
		t->status = st;
	}
	if (rc == 0 || rc == -EINTR)
		return rc;
	char p[640], why[400], wb[160];
	snprintf(p, sizeof(p), "%.*s.err", (int)(strlen(t->out) - 4), t->out);
	proc_file_text(p, why, sizeof(why));
	const char *role = t->sender ? "sender" : "sink";
	if (rc == -ECHILD)
		snprintf(err, errlen, "the %s box %s (%s): %s (%s) exited with status %d before it was "
			 "ready: %s", role, t->tb->name, trial_where(&t->tb->box, wb, sizeof(wb)), t->prog,
			 t->name, st, why[0] ? why : "nothing on stderr");
	else
		snprintf(err, errlen, "the %s box %s (%s): %s (%s) was not ready within %d s: %s", role,
			 t->tb->name, trial_where(&t->tb->box, wb, sizeof(wb)), t->prog, t->name,
			 READY_TIMEOUT_S, why[0] ? why : "nothing on stderr");
	return -EIO;
}

/* A box's settings for a tool of the other direction (blast B): the port without the
 * backend's keys, which may be for one direction only ("afpacket:gen0,bypass=0"). */
static void spec_plain(const char *spec, char *buf, size_t len)
{
	snprintf(buf, len, "%s", spec);
	buf[strcspn(buf, ",")] = 0;
}

static int threads_cpus(struct box_cmd *c, unsigned threads, const char *cpus)
{
	int rc = 0;
	if (threads > 1) {
		rc = box_arg(c, "--threads");
		rc = rc ? rc : box_argf(c, "%u", threads);
	}
	if (!rc && cpus) {
		rc = box_arg(c, "--cpus");
		rc = rc ? rc : box_arg(c, cpus);
	}
	return rc;
}

/* expects: the senders' output files the sink reads at its end (frames lost after the
 * last arrival count as lost), nexp of them */
static int sink_cmd(const struct tool *t, const char *spec, unsigned threads, double limit_s,
		    char *const *expects, size_t nexp, double max_delay_s, struct box_cmd *c)
{
	const struct trial_box *b = t->tb;
	int rc = box_cmd_init(c, &b->box, "ppslab-sink");
	if (!rc && max_delay_s > 0) {   /* beyond it, a delay says the clocks disagree */
		rc = box_arg(c, "--max-delay");
		rc = rc ? rc : box_argf(c, "%.6fs", max_delay_s);
	}
	for (size_t i = 0; !rc && i < nexp; i++) {
		rc = box_arg(c, "--expect-from");
		rc = rc ? rc : box_arg(c, expects[i]);
	}
	rc = rc ? rc : box_arg(c, "-i");
	rc = rc ? rc : box_arg(c, spec);
	rc = rc ? rc : threads_cpus(c, threads > 16 ? 16 : threads, b->cpus);
	rc = rc ? rc : box_arg(c, "--json");
	rc = rc ? rc : box_arg(c, "--duration");
	rc = rc ? rc : box_argf(c, "%.0fs", ceil(limit_s));
	rc = rc ? rc : box_arg(c, "--interval");
	rc = rc ? rc : box_arg(c, "3600s");
	return rc;
}

/* load_pps: this sender's share (0: as fast as it can); start_at: CLOCK_REALTIME ns on
 * its box's clock, or 0 */
static int gen_cmd(const struct trial_env *e, const struct trial_req *r, const struct tool *t,
		   const char *spec, const char *dst, double load_pps, uint64_t start_at,
		   struct box_cmd *c)
{
	const struct profile *p = e->p;
	const struct trial_box *b = t->tb;
	char rate[64];
	if (load_pps > 0)
		snprintf(rate, sizeof(rate), "%.3f", load_pps);
	else
		snprintf(rate, sizeof(rate), "max");
	char v[64];
	int rc = box_cmd_init(c, &b->box, "ppslab-gen");
	rc = rc ? rc : box_arg(c, "-i");
	rc = rc ? rc : box_arg(c, spec);
	rc = rc ? rc : box_arg(c, "--dst");
	rc = rc ? rc : box_arg(c, dst);
	/* the next hop's MAC when the profile gives it: no route or neighbour lookup */
	const char *mac = t->stream == 2 ? p->topo.dst_mac_b : p->topo.dst_mac;
	if (!rc && mac) {
		rc = box_arg(c, "--dst-mac");
		rc = rc ? rc : box_arg(c, mac);
	}
	rc = rc ? rc : threads_cpus(c, b->threads, b->cpus);
	rc = rc ? rc : box_arg(c, "--rate");
	rc = rc ? rc : box_arg(c, rate);
	rc = rc ? rc : box_arg(c, "--duration");
	rc = rc ? rc : box_argf(c, "%.3fs", r->duration_s);
	/* after a stall: no line-rate burst toward the router; what is less late than half
	 * of trial.max_burst frames still goes, so a sender merely woken late by a busy
	 * host skips nothing (docs/method.md#a-sender-that-falls-behind) */
	const char *policy = p->trial.late_policy ? p->trial.late_policy
			   : p->trial.method == PM_RFC2544 || p->trial.method == PM_MLR ? "skip"
										: NULL;
	if (!rc && load_pps > 0 && policy) {
		double late_us = 0.5e6 * (p->trial.max_burst ? p->trial.max_burst : 64) / load_pps;
		late_us = late_us < 10 ? 10 : late_us > 1e6 ? 1e6 : late_us;
		rc = box_arg(c, "--late-policy");
		rc = rc ? rc : box_arg(c, policy);
		rc = rc ? rc : box_arg(c, "--late");
		rc = rc ? rc : box_argf(c, "%.0fus", late_us);
	}
	if (!rc && r->warmup_s > 0) {
		rc = box_arg(c, "--warmup");
		rc = rc ? rc : box_argf(c, "%.3fs", r->warmup_s);
	}
	if (!rc && start_at) {
		rc = box_arg(c, "--start-at");
		rc = rc ? rc : box_argf(c, "%llu.%09llu", (unsigned long long)(start_at / NS_PER_S),
					(unsigned long long)(start_at % NS_PER_S));
	}
	rc = rc ? rc : box_arg(c, "--size");
	rc = rc ? rc : box_arg(c, res_value_str(prof_value(p, r->params, "size"), v, sizeof(v)));
	rc = rc ? rc : box_arg(c, "--flows");
	rc = rc ? rc : box_arg(c, res_value_str(prof_value(p, r->params, "flows"), v, sizeof(v)));
	rc = rc ? rc : box_arg(c, "--stream");
	rc = rc ? rc : box_argf(c, "%d", t->stream);
	rc = rc ? rc : box_arg(c, "--json");
	rc = rc ? rc : box_arg(c, "--interval");
	rc = rc ? rc : box_arg(c, "3600s");
	if (!rc && json_is_true(json_object_get(p->root, "allow_any_dst")))
		rc = box_arg(c, "--allow-any-dst");
	return rc;
}


/* Reaps the tool if it ended: its status, or -1 while it runs. */
static int tool_poll(struct tool *t)
{
	if (!t->pid)
		return t->status;
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
	return -1;
}

/* Waits until the deadline for the first of the n tools to end: its index, or -1 at
 * the deadline (or when *stop is set). Tools already ended before do not count. */
static int tools_wait_any(struct tool **ts, size_t n, uint64_t deadline,
			  volatile sig_atomic_t *stop)
{
	for (;;) {
		for (size_t i = 0; i < n; i++)
			if (ts[i]->pid && tool_poll(ts[i]) >= 0)
				return (int)i;
		if (mono_ns() >= deadline || (stop && *stop))
			return -1;
		usleep(10 * 1000);
	}
}

/* Waits for every one of the n tools to end, until the deadline: true when all did. */
static bool tools_wait_all(struct tool **ts, size_t n, uint64_t deadline,
			   volatile sig_atomic_t *stop, bool stop_too)
{
	for (;;) {
		bool all = true;
		for (size_t i = 0; i < n; i++)
			if (ts[i]->pid && tool_poll(ts[i]) < 0)
				all = false;
		if (all)
			return true;
		if (mono_ns() >= deadline || (stop_too && stop && *stop))
			return false;
		usleep(20 * 1000);
	}
}

/* SIGINT (the tools print their summary) — over ssh through the end of its stdin, as a
 * signal would stop only the local ssh — then up to 10 s, then SIGKILL */
/* How long a tool told to stop may take to print its summary and exit. */
#define TOOL_STOP_S 10

static void tool_stop(struct tool *t)
{
	if (t->in >= 0) {
		close(t->in);
		t->in = -1;
	} else if (t->pid) {
		kill(t->pid, SIGINT);
	}
	if (!t->pid)
		return;
	struct tool *one[1] = { t };
	if (!tools_wait_all(one, 1, mono_ns() + TOOL_STOP_S * NS_PER_S, NULL, false)) {
		kill(t->pid, SIGKILL);
		tools_wait_all(one, 1, mono_ns() + 5 * NS_PER_S, NULL, false);
		t->status = 128 + SIGKILL;
		t->killed = true;
		t->pid = 0;
	}
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

	/* every tool: the senders of blast A, the sinks, and for bi the blast B pair (the
	 * sender on the sink box, its sink on the sender box) */
	struct tool tl[2 * PROF_BOXES_MAX + 2];
	struct tool *gens[PROF_BOXES_MAX + 1], *sinks[PROF_BOXES_MAX + 1], *all[2 * PROF_BOXES_MAX + 2];
	struct tool *genb = NULL, *sinkb = NULL;
	size_t ng = 0, ns = 0, na = 0, nga, nsa;
	memset(tl, 0, sizeof(tl));
	bi = bi && e->ngens == 1 && e->nsinks == 1;
	for (size_t i = 0; i < e->ngens; i++) {
		struct tool *t = &tl[na];
		snprintf(t->name, sizeof(t->name), "%s", e->gens[i].name);
		t->prog = "ppslab-gen";
		t->tb = &e->gens[i];
		t->sender = true;
		t->stream = e->gens[i].stream;
		gens[ng++] = all[na++] = t;
	}
	if (bi) {
		genb = &tl[na];
		snprintf(genb->name, sizeof(genb->name), "gen_b");
		genb->prog = "ppslab-gen";
		genb->tb = &e->sinks[0];
		genb->sender = true;
		genb->stream = 2;
		gens[ng++] = all[na++] = genb;
	}
	nga = e->ngens;
	for (size_t i = 0; i < e->nsinks; i++) {
		struct tool *t = &tl[na];
		snprintf(t->name, sizeof(t->name), "%s", e->sinks[i].name);
		t->prog = "ppslab-sink";
		t->tb = &e->sinks[i];
		sinks[ns++] = all[na++] = t;
	}
	if (bi) {
		sinkb = &tl[na];
		snprintf(sinkb->name, sizeof(sinkb->name), "sink_b");
		sinkb->prog = "ppslab-sink";
		sinkb->tb = &e->gens[0];
		sinks[ns++] = all[na++] = sinkb;
	}
	nsa = e->nsinks;
	for (size_t i = 0; i < na; i++)
		all[i]->in = -1;

	/* A tool that does not stop when told ends by its own duration (--duration): after
	 * the longest this trial may take before it stops it (the senders' readiness,
	 * their common start at most 20 s ahead, an external router's read hook up to its
	 * timeout, the load, the senders' 30 s of grace, the settling), so that a sink never
	 * ends by itself while frames are on their way. Senders over ssh on a loaded host
	 * take seconds to start. */
	double read_hook = e->dut && p->router.kind == PR_EXTERNAL && p->router.read_hook
			   ? p->router.hook_timeout_s : 0;
	double limit = r->warmup_s + r->duration_s + p->trial.settle_s + READY_TIMEOUT_S + 20 +
		       30 + 10 + read_hook;
	char err[900] = "";
	int rc = 0;
	struct box_cmd c;
	json_t *before = NULL, *after = NULL;
	bool win_read = false;
	const char *nowin = NULL;   /* why there is no load window */
	bool several = ng > 1;      /* several senders start at one instant */
	uint64_t at_real = 0;
	double lead_s = 0;
	/* sessions to read remote counters, opened before anything is timed */
	for (size_t i = 0; i < ns; i++)
		if (sinks[i]->tb->box.ssh)
			trial_reader_start(&sinks[i]->rd, &sinks[i]->tb->box, sinks[i]->tb->spec);
	for (size_t i = 0; i < na; i++) {   /* no stale output of an earlier trial */
		char pth[600];
		snprintf(pth, sizeof(pth), "%s/%s.out", e->tmpdir, all[i]->name);
		unlink(pth);
	}

	/* sinks first, each ready (ready.h) before a frame is sent: none goes uncounted. A
	 * sink on this host reads its senders' output at its end (the files are here, ssh
	 * copies a remote sender's), unless it is one of several sinks: it cannot know which
	 * senders' streams reach it. */
	char xbuf[PROF_BOXES_MAX + 1][600];
	char *xa[PROF_BOXES_MAX + 1];
	for (size_t i = 0; i < ng; i++) {
		snprintf(xbuf[i], sizeof(xbuf[i]), "%s/%s.out", e->tmpdir, gens[i]->name);
		xa[i] = xbuf[i];
	}
	uint64_t t_sinks = mono_ns();
	for (size_t i = 0; i < ns && !err[0]; i++) {
		struct tool *t = sinks[i];
		bool b = t == sinkb;
		char plain[300];
		spec_plain(t->tb->spec, plain, sizeof(plain));
		char **exp = b ? &xa[ng - 1] : xa;
		size_t nexp = t->tb->box.ssh ? 0 : b ? 1 : nsa == 1 ? nga : 0;
		if ((rc = sink_cmd(t, b ? plain : t->tb->spec, t->tb->threads, limit, exp, nexp,
				   p->trial.max_delay_s, &c)) ||
		    (rc = tool_start(t, e, &c)))
			snprintf(err, sizeof(err), "cannot start ppslab-sink (%s): %s", t->name,
				 strerror(-rc));
	}
	if (err[0])
		goto out;
	for (size_t i = 0; i < ns; i++)
		if (tool_ready(sinks[i], e, err, sizeof(err)))
			goto out;
	double sinks_s = (double)(mono_ns() - t_sinks) / 1e9;

	before = e->dut ? dut_stats(e->dut) : NULL;
	if (e->dut && dut_fault(e->dut)) {   /* hung: nothing it counts can be trusted */
		snprintf(err, sizeof(err), "%s", dut_fault(e->dut));
		goto out;
	}
	/* The offered load split exactly over every thread of every sender of a direction. */
	unsigned threads_a = 0;
	for (size_t i = 0; i < nga; i++)
		threads_a += gens[i]->tb->threads ? gens[i]->tb->threads : 1;
	/* One instant for several senders, far enough ahead for them all to get ready: the
	 * sinks' start time twice per sender (they start at once, sharing the control host
	 * and, over ssh, its connections), and 100 ms. */
	uint64_t t_load = 0;
	if (several) {
		lead_s = fmin(0.1 + 2 * sinks_s * (double)ng, 20);
		uint64_t lead = (uint64_t)(lead_s * 1e9);
		t_load = mono_ns() + lead;
		at_real = real_ns() + lead;
	}
	for (size_t i = 0; i < ng && !err[0]; i++) {
		struct tool *t = gens[i];
		bool b = t == genb;
		char plain[300];
		spec_plain(t->tb->spec, plain, sizeof(plain));
		double share = r->load_pps > 0 && !b
			       ? r->load_pps * (double)(t->tb->threads ? t->tb->threads : 1) / threads_a
			       : r->load_pps;
		double off = isnan(t->tb->clock_off_ns) ? 0 : t->tb->clock_off_ns;
		uint64_t start_at = several ? (uint64_t)((double)at_real + off) : 0;
		if ((rc = gen_cmd(e, r, t, b ? plain : t->tb->spec, b ? e->dst_b : t->tb->dst, share,
				  start_at, &c)) ||
		    (rc = tool_start(t, e, &c)))
			snprintf(err, sizeof(err), "cannot start ppslab-gen (%s): %s", t->name,
				 strerror(-rc));
	}
	if (err[0])
		goto out;
	/* the load starts when the senders are ready (or at their instant), not when they
	 * were started */
	for (size_t i = 0; i < ng; i++)
		if (tool_ready(gens[i], e, err, sizeof(err)))
			goto out;
	if (!several)
		t_load = gens[0]->ready_ns;
	/* The forwarding rate is read off the kernel's counters of the receiving interfaces
	 * while the load is on: from the end of the warm-up (plus a margin for the senders'
	 * start) until 100 ms before the senders stop. Frames a backlog delivers after the load ends
	 * are not counted in it, frames of the warm-up delivered during it are: the rate
	 * at which the router forwards under this load (RFC 2285), whatever their tag. */
	uint64_t t_win0 = t_load + (uint64_t)((r->warmup_s + 0.15) * 1e9);
	uint64_t t_win1 = t_load + (uint64_t)((r->warmup_s + r->duration_s - 0.1) * 1e9);
	uint64_t deadline = t_load + (uint64_t)((r->warmup_s + r->duration_s + 30) * 1e9);
	if (t_win1 <= t_win0 + 200 * NS_PER_MS)
		nowin = "the trial is too short for a load window (it needs 0.45 s after the warm-up)";
	for (int w = 0; w < 2 && t_win1 > t_win0 + 200 * NS_PER_MS; w++) {
		if (tools_wait_any(gens, ng, w ? t_win1 : t_win0, e->stop) >= 0 ||
		    (e->stop && *e->stop)) {
			nowin = "a sender ended before the load window closed";
			break;
		}
		trial_window_read(sinks, ns, w);
		win_read = w == 1;
	}
	if (!tools_wait_all(gens, ng, deadline, e->stop, true)) {
		for (size_t i = 0; i < ng; i++)
			if (gens[i]->pid && !(e->stop && *e->stop) && !err[0])
				snprintf(err, sizeof(err), "ppslab-gen (%s) did not finish in time",
					 gens[i]->name);
	}
	/* residual frames drain before anyone counts */
	if (p->trial.settle_s > 0 && !(e->stop && *e->stop))
		usleep((useconds_t)(p->trial.settle_s * 1e6));
	after = e->dut ? dut_stats(e->dut) : NULL;
	if (e->dut && dut_fault(e->dut) && !err[0])
		snprintf(err, sizeof(err), "%s", dut_fault(e->dut));
out:
	for (size_t i = 0; i < ns; i++)
		trial_reader_stop(&sinks[i]->rd);
	/* a sink that ended before it was stopped did not count the frames after its end:
	 * the trial's figures would be wrong, so the trial fails */
	for (size_t i = 0; i < ns && !err[0] && !(e->stop && *e->stop); i++) {
		struct tool *t = sinks[i];
		char wb[160];
		if (t->pid && tool_poll(t) >= 0)
			snprintf(err, sizeof(err), "the sink box %s (%s): %s (%s) ended with status %d "
				 "before the trial stopped it: frames after its end were not counted",
				 t->tb->name, trial_where(&t->tb->box, wb, sizeof(wb)), t->prog, t->name,
				 t->status);
	}
	/* the senders first (a sender still running when a trial failed is stopped here),
	 * then the sinks */
	for (size_t i = 0; i < na; i++)
		tool_stop(all[i]);

	/* what everyone printed */
	json_t *gj = json_array(), *sj = json_array(), *exits = json_object();
	for (size_t i = 0; i < na; i++) {
		struct tool *t = all[i];
		if (!t->out[0])
			continue;
		t->sum = jout_last_summary(t->out);
		json_object_set_new(exits, t->name, json_integer(t->status));
		if (t->sum)
			json_array_append(t->sender ? gj : sj, t->sum);
		if (t->killed && !err[0]) {   /* not "status 137": what happened */
			char wb[160];
			snprintf(err, sizeof(err), "%s (%s box %s, %s) did not finish within %d s "
				 "of being told to stop and was killed", t->name,
				 t->sender ? "sender" : "sink", t->tb->name,
				 trial_where(&t->tb->box, wb, sizeof(wb)), TOOL_STOP_S);
		}
		if ((t->status != 0 || !t->sum) && !err[0]) {
			char why[300], wb[160];
			tool_err(t, why, sizeof(why));
			snprintf(err, sizeof(err), "%s (%s box %s, %s) exited with status %d%s%s%s",
				 t->name, t->sender ? "sender" : "sink", t->tb->name,
				 trial_where(&t->tb->box, wb, sizeof(wb)), t->status,
				 t->sum ? "" : " without a summary", why[0] ? ": " : "", why);
		}
	}
	json_object_set_new(rec, "gen", gj);
	json_object_set_new(rec, "sink", sj);
	json_object_set_new(rec, "exit", exits);
	if (e->dut) {
		json_t *rr = dut_trial_record(e->dut, before, after);
		if (rr && !err[0])
			dut_link_fault(rr, err, sizeof(err));
		if (rr)
			json_object_set_new(rec, "rut", rr);
	}
	json_decref(before);
	json_decref(after);

	/* the trial's numbers: sent and received test frames; the forwarding rate of each
	 * direction, the sum over its receiving interfaces */
	double tx = 0, rx = 0, offered = 0, fa = NAN, fb = NAN, res = NAN;
	double wa = NAN, ra = 0, rb = 0;
	bool windowed = win_read, remote_clock = false;
	for (size_t i = 0; i < ns && windowed; i++) {
		double secs, rs;
		/* an interface counts every frame it receives: where the sink counted no
		 * test frame (or gave no count), its counters measured other traffic */
		if (!(trial_jnum(sinks[i]->sum, "rx_pkts") > 0)) {
			windowed = false;
			nowin = sinks[i] == sinkb ? "the sink of blast B counted no test frame: its "
				"interface's counters are not the test traffic's rate"
				: "a sink counted no test frame: its interface's counters are not the "
				"test traffic's rate";
			break;
		}
		double w = trial_window_rate(&sinks[i]->win[0], &sinks[i]->win[1], &secs, &rs);
		if (isnan(w)) {
			windowed = false;
			if (!nowin)
				nowin = counters_why(sinks[i]->tb, sinks[i] == sinkb ? "sender box's, blast B"
										       : "sink box's");
			break;
		}
		if (sinks[i] == sinkb) {
			fb = w;
			rb = rs;
		} else {
			fa = isnan(fa) ? w : fa + w;
			ra += rs;
			wa = secs;
		}
		remote_clock |= sinks[i]->win[0].remote_clock;
	}
	if (!windowed) {   /* the test frames over the longest sender's time */
		double dmax = 0, xa_ = 0, xb_ = 0;
		for (size_t i = 0; i < ng; i++) {
			double d = trial_jnum(gens[i]->sum, "duration_ns");
			if (d > dmax)
				dmax = d;
		}
		for (size_t i = 0; i < ns; i++) {
			double x = trial_jnum(sinks[i]->sum, "rx_pkts");
			if (sinks[i] == sinkb)
				xb_ += isnan(x) ? 0 : x;
			else
				xa_ += isnan(x) ? 0 : x;
		}
		bool any = false;
		for (size_t i = 0; i < nsa; i++)
			any |= sinks[i]->sum != NULL;
		fa = dmax > 0 && any ? xa_ * 1e9 / dmax : NAN;
		fb = bi && dmax > 0 && sinkb->sum ? xb_ * 1e9 / dmax : NAN;
		if (!nowin && !win_read)
			nowin = "the load window was not read";
		res = dmax > 0 ? (bi ? 2 : 1) * 1e9 / dmax : NAN;
	} else {
		res = ra + (bi ? rb : 0);
	}
	for (size_t i = 0; i < na; i++) {
		if (all[i]->sender) {
			double t = trial_jnum(all[i]->sum, "tx_pkts"), o = trial_jnum(all[i]->sum, "pps");
			tx += isnan(t) ? 0 : t;
			offered += isnan(o) ? 0 : o;
		} else {
			double x = trial_jnum(all[i]->sum, "rx_pkts");
			rx += isnan(x) ? 0 : x;
		}
	}
	json_object_set_new(rec, "fwd_rate_from", json_string(windowed ? RES_FWD_WINDOW
									: RES_FWD_FRAMES));
	if (!windowed && nowin)
		json_object_set_new(rec, "fwd_rate_fallback", json_string(nowin));
	/* the rate's resolution: a frame at each end of the window, and the reads' own
	 * time (the timestamp is their midpoint, good to half their duration) */
	if (windowed) {
		json_object_set_new(rec, "window_s", json_real(wa));
		if (remote_clock)
			json_object_set_new(rec, "window_clock", json_string("the sink box's, around "
									     "each read"));
	}
	trial_set_num(rec, "fwd_rate_res_pps", res);
	json_object_set_new(rec, "tx_frames", json_integer((json_int_t)tx));
	json_object_set_new(rec, "rx_frames", json_integer((json_int_t)rx));
	bool any_gen = false;
	for (size_t i = 0; i < ng; i++)
		any_gen |= gens[i]->sum != NULL;
	trial_set_num(rec, "offered_pps", any_gen ? offered : NAN);
	trial_set_num(rec, "loss_ratio", tx > 0 ? (tx > rx ? (tx - rx) / tx : 0) : NAN);
	trial_set_num(rec, "fwd_rate_pps", isnan(fa) ? NAN : fa + (bi && !isnan(fb) ? fb : 0));
	trial_set_num(rec, "fwd_rate_pps_a", fa);
	trial_set_num(rec, "fwd_rate_pps_b", bi ? fb : NAN);
	const json_t *lat = json_object_get(sinks[0]->sum, "latency_ns");
	if (json_is_object(lat))
		json_object_set_new(rec, "latency_ns", json_deep_copy(lat));
	if (na > 2)   /* per box, and the streams merged over the sinks */
		trial_per_box(rec, all, na, sinks, nsa, sinkb, windowed);
	if (several && at_real)
		trial_start_record(rec, gens, ng, at_real, lead_s);
	time_t now = time(NULL);
	char t1[32];
	strftime(t1, sizeof(t1), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_set_new(rec, "end_utc", json_string(t1));
	for (size_t i = 0; i < na; i++)
		json_decref(all[i]->sum);
	if (e->stop && *e->stop) {
		json_object_set_new(rec, "error", json_string("interrupted"));
		return -EINTR;
	}
	if (err[0]) {
		json_t *ej = json_string(err);
		json_object_set_new(rec, "error", ej ? ej : json_string("a component failed (its "
									"message is not UTF-8)"));
		return -EIO;
	}
	return 0;
}
