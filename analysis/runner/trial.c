/* SPDX-License-Identifier: BSD-2-Clause */
/* trial.c — one measurement of ppslab run (called by run_case.c and run_rig.c for
 * every trial a case's method asks for). Starts the tools through box.h, waits on them with bounded times,
 * and computes from their JSON summaries the trial's result (struct trial_res); see
 * trial.h. The receiving interfaces' counters are read by trial_rx.c; trial_record.c
 * makes the result the trial record (see trial_impl.h). */
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

/* A cell's tag as ppslab-gen and ppslab-sink take it: --vlan VID or --vlan OUTER,INNER;
 * an untagged cell nothing, or for a sink (none) --vlan none: in a profile that sweeps
 * the vlan, a tag where none belongs is wrong_vlan, not test traffic. */
static int vlan_arg(struct box_cmd *c, const struct cell *cell, bool none)
{
	if (!cell->vlan && !none)
		return 0;
	int rc = box_arg(c, "--vlan");
	if (rc || !cell->vlan)
		return rc ? rc : box_arg(c, "none");
	if (cell->vlan_inner)
		return box_argf(c, "%u,%u", cell->vlan, cell->vlan_inner);
	return box_argf(c, "%u", cell->vlan);
}

/* The trial's epoch (trial_env.epochs), for its senders and sinks alike: an earlier
 * trial's frames, still in the router, are then stale at this trial's sinks, never
 * received (docs/method.md#frames-of-an-earlier-trial). 0: none given. */
static int epoch_arg(struct box_cmd *c, unsigned epoch)
{
	if (!epoch)
		return 0;
	int rc = box_arg(c, "--epoch");
	return rc ? rc : box_argf(c, "%u", epoch);
}

/* expects: the senders' output files the sink reads at its end (frames lost after the
 * last arrival count as lost), nexp of them */
static int sink_cmd(const struct tool *t, const char *spec, unsigned threads, double limit_s,
		    char *const *expects, size_t nexp, double max_delay_s,
		    const struct trial_req *r, bool vlan_swept, unsigned epoch, struct box_cmd *c)
{
	const struct trial_box *b = t->tb;
	bool by_size = r->delay_by_size;
	int rc = box_cmd_init(c, &b->box, "ppslab-sink");
	rc = rc ? rc : epoch_arg(c, epoch);
	if (!rc && r->gaps) {   /* the outage method: the gaps are the result */
		rc = box_arg(c, "--gap-list");
		rc = rc ? rc : box_arg(c, "64");
		rc = rc ? rc : box_arg(c, "--gap-min");
		rc = rc ? rc : box_argf(c, "%.0fus", r->gap_min_s * 1e6);
	}
	if (!rc && by_size)   /* the latency phase: its delays per frame size */
		rc = box_arg(c, "--delay-by-size");
	if (!rc && max_delay_s > 0) {   /* beyond it, a delay says the clocks disagree */
		rc = box_arg(c, "--max-delay");
		rc = rc ? rc : box_argf(c, "%.6fs", max_delay_s);
	}
	for (size_t i = 0; !rc && i < nexp; i++) {
		rc = box_arg(c, "--expect-from");
		rc = rc ? rc : box_arg(c, expects[i]);
	}
	if (!rc)
		rc = vlan_arg(c, r->cell, vlan_swept && strncmp(spec, "udp:", 4));
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

int trial_gen_args(struct box_cmd *c, const struct trial_box *b, const char *spec,
		   const char *dst, const char *mac)
{
	int rc = box_cmd_init(c, &b->box, "ppslab-gen");
	rc = rc ? rc : box_arg(c, "-i");
	rc = rc ? rc : box_arg(c, spec);
	rc = rc ? rc : box_arg(c, "--dst");
	rc = rc ? rc : box_arg(c, dst);
	if (!rc && mac) {
		rc = box_arg(c, "--dst-mac");
		rc = rc ? rc : box_arg(c, mac);
	}
	return rc ? rc : threads_cpus(c, b->threads, b->cpus);
}

/* load_pps: this sender's share (0: as fast as it can); start_at: CLOCK_REALTIME ns on
 * its box's clock, or 0 */
static int gen_cmd(const struct trial_env *e, const struct trial_req *r, const struct tool *t,
		   const char *spec, const char *dst, double load_pps, uint64_t start_at,
		   unsigned epoch, struct box_cmd *c)
{
	const struct profile *p = e->p;
	const struct trial_box *b = t->tb;
	char rate[64];
	if (load_pps > 0)
		snprintf(rate, sizeof(rate), "%.3f", load_pps);
	else
		snprintf(rate, sizeof(rate), "max");
	int rc = trial_gen_args(c, b, spec, dst, t->stream == 2 ? p->topo.dst_mac_b
							     : p->topo.dst_mac);
	if (r->step_at_s > 0 && load_pps > 0) {   /* the steps are the run's length */
		rc = rc ? rc : box_arg(c, "--steps");
		rc = rc ? rc : box_argf(c, "%s@%.3fs,%.3f@%.3fs", rate, r->step_at_s,
					r->step_pps * load_pps / r->load_pps,
					r->duration_s - r->step_at_s);
	} else {
		rc = rc ? rc : box_arg(c, "--rate");
		rc = rc ? rc : box_arg(c, rate);
		rc = rc ? rc : box_arg(c, "--duration");
		rc = rc ? rc : box_argf(c, "%.3fs", r->duration_s);
	}
	if (!rc && r->count) {          /* a burst (b2b): exactly so many frames */
		rc = box_arg(c, "--count");
		rc = rc ? rc : box_argf(c, "%llu", r->count);
	}
	/* after a stall: no line-rate burst toward the router; what is less late than half
	 * of trial.max_burst frames still goes, so a sender merely woken late by a busy
	 * host skips nothing (docs/method.md#a-sender-that-falls-behind) */
	/* a rate step (recovery): skip keeps the schedule's phase, so the step comes when
	 * it is due and no frame owed from before it goes after it */
	const char *policy = p->trial.late_policy ? p->trial.late_policy
			   : r->step_at_s > 0 || p->trial.method == PM_RFC2544 || p->trial.method == PM_MLR ||
			     p->trial.method == PM_B2B ? "skip"
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
	rc = rc ? rc : r->cell->imix ? box_arg(c, "imix") : box_argf(c, "%u", r->cell->size);
	rc = rc ? rc : box_arg(c, "--flows");
	rc = rc ? rc : box_argf(c, "%u", r->cell->flows);
	rc = rc ? rc : box_arg(c, "--stream");
	rc = rc ? rc : box_argf(c, "%d", t->stream);
	rc = rc ? rc : epoch_arg(c, epoch);
	rc = rc ? rc : box_arg(c, "--json");
	rc = rc ? rc : box_arg(c, "--interval");
	rc = rc ? rc : box_arg(c, "3600s");
	if (!rc && json_is_true(json_object_get(p->root, "allow_any_dst")))
		rc = box_arg(c, "--allow-any-dst");
	if (!rc && r->cell->ip_version == 6)   /* dst is the IPv6 one: start_gens */
		rc = box_arg(c, "-6");
	rc = rc ? rc : vlan_arg(c, r->cell, false);
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

/* A tool of the trial, added to tt's list of all. */
static struct tool *tool_add(struct trial_tools *tt, const char *name,
			     const struct trial_box *tb, bool sender, int stream)
{
	struct tool *t = &tt->tl[tt->na];
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->prog = sender ? "ppslab-gen" : "ppslab-sink";
	t->tb = tb;
	t->sender = sender;
	t->stream = stream;
	t->in = -1;
	return tt->all[tt->na++] = t;
}

/* every tool: the senders of blast A, the sinks, and for bi the blast B pair (the
 * sender on the sink box, its sink on the sender box) */
static void tools_make(const struct trial_env *e, bool bi, struct trial_tools *tt)
{
	memset(tt, 0, sizeof(*tt));
	tt->bi = bi && e->ngens == 1 && e->nsinks == 1;
	for (size_t i = 0; i < e->ngens; i++)
		tt->gens[tt->ng++] = tool_add(tt, e->gens[i].name, &e->gens[i], true,
					      e->gens[i].stream);
	if (tt->bi)
		tt->gens[tt->ng++] = tt->genb = tool_add(tt, "gen_b", &e->sinks[0], true, 2);
	tt->nga = e->ngens;
	for (size_t i = 0; i < e->nsinks; i++)
		tt->sinks[tt->ns++] = tool_add(tt, e->sinks[i].name, &e->sinks[i], false, 0);
	if (tt->bi)
		tt->sinks[tt->ns++] = tt->sinkb = tool_add(tt, "sink_b", &e->gens[0], false, 0);
	tt->nsa = e->nsinks;
}

/* sinks first, each ready (ready.h) before a frame is sent: none goes uncounted. A
 * sink on this host reads its senders' output at its end (the files are here, ssh
 * copies a remote sender's), unless it is one of several sinks: it cannot know which
 * senders' streams reach it. 0, or -1 with err set. */
static int start_sinks(const struct trial_env *e, struct trial_tools *tt, double limit,
		       const struct trial_req *r, unsigned epoch, char *err, size_t errlen)
{
	char xbuf[PROF_BOXES_MAX + 1][600];
	char *xa[PROF_BOXES_MAX + 1];
	struct box_cmd c;
	int rc;
	for (size_t i = 0; i < tt->ng; i++) {
		snprintf(xbuf[i], sizeof(xbuf[i]), "%s/%s.out", e->tmpdir, tt->gens[i]->name);
		xa[i] = xbuf[i];
	}
	bool vlan_swept;
	prof_axis_values(e->p, "vlan", &vlan_swept);
	for (size_t i = 0; i < tt->ns && !err[0]; i++) {
		struct tool *t = tt->sinks[i];
		bool b = t == tt->sinkb;
		char plain[300];
		spec_plain(t->tb->spec, plain, sizeof(plain));
		char **exp = b ? &xa[tt->ng - 1] : xa;
		size_t nexp = t->tb->box.ssh ? 0 : b ? 1 : tt->nsa == 1 ? tt->nga : 0;
		if ((rc = sink_cmd(t, b ? plain : t->tb->spec, t->tb->threads, limit, exp, nexp,
				   e->p->trial.max_delay_s, r, vlan_swept, epoch, &c)) ||
		    (rc = tool_start(t, e, &c)))
			snprintf(err, errlen, "cannot start ppslab-sink (%s): %s", t->name,
				 strerror(-rc));
	}
	for (size_t i = 0; i < tt->ns && !err[0]; i++)
		if (tool_ready(tt->sinks[i], e, err, errlen))
			return -1;
	return err[0] ? -1 : 0;
}

/* The senders started, the offered load split exactly over every thread of every
 * sender of a direction; several start at one instant, far enough ahead for them all
 * to get ready: the sinks' start time twice per sender (they start at once, sharing
 * the control host and, over ssh, its connections), and 100 ms. *t_load: when the
 * load starts (the senders ready, or their instant). 0, or -1 with s->err set. */
static int start_gens(const struct trial_env *e, const struct trial_req *r,
		      struct trial_tools *tt, double sinks_s, unsigned epoch, struct trial_res *s,
		      uint64_t *t_load)
{
	struct box_cmd c;
	int rc;
	unsigned threads_a = 0;
	for (size_t i = 0; i < tt->nga; i++)
		threads_a += tt->gens[i]->tb->threads ? tt->gens[i]->tb->threads : 1;
	s->several = tt->ng > 1;
	if (s->several) {
		s->lead_s = fmin(0.1 + 2 * sinks_s * (double)tt->ng, 20);
		uint64_t lead = (uint64_t)(s->lead_s * 1e9);
		*t_load = mono_ns() + lead;
		s->at_real = real_ns() + lead;
	}
	for (size_t i = 0; i < tt->ng && !s->err[0]; i++) {
		struct tool *t = tt->gens[i];
		bool b = t == tt->genb;
		char plain[300];
		spec_plain(t->tb->spec, plain, sizeof(plain));
		double share = r->load_pps > 0 && !b
			       ? r->load_pps * (double)(t->tb->threads ? t->tb->threads : 1) / threads_a
			       : r->load_pps;
		double off = isnan(t->tb->clock_off_ns) ? 0 : t->tb->clock_off_ns;
		uint64_t start_at = s->several ? (uint64_t)((double)s->at_real + off) : 0;
		bool six = r->cell->ip_version == 6;
		const char *dst = b ? (six ? e->dst6_b : e->dst_b) : six ? t->tb->dst6 : t->tb->dst;
		if ((rc = gen_cmd(e, r, t, b ? plain : t->tb->spec, dst, share, start_at, epoch, &c)) ||
		    (rc = tool_start(t, e, &c)))
			snprintf(s->err, sizeof(s->err), "cannot start ppslab-gen (%s): %s", t->name,
				 strerror(-rc));
	}
	for (size_t i = 0; i < tt->ng && !s->err[0]; i++)
		if (tool_ready(tt->gens[i], e, s->err, sizeof(s->err)))
			return -1;
	if (!s->several && !s->err[0])
		*t_load = tt->gens[0]->ready_ns;
	return s->err[0] ? -1 : 0;
}

/* The outage action at t_act (CLOCK_MONOTONIC), the senders still sending: its instant
 * on CLOCK_REALTIME, the time it took and its result into s. */
static void fire_action(const struct trial_env *e, const struct trial_req *r,
			struct trial_tools *tt, uint64_t t_act, struct trial_res *s)
{
	if (tools_wait_any(tt->gens, tt->ng, t_act, e->stop) >= 0) {
		snprintf(s->err, sizeof(s->err), "a sender ended before the outage action's instant "
			 "(%g s after the warm-up)", r->action_at_s);
		return;
	}
	if (e->stop && *e->stop)
		return;
	uint64_t m0 = s->act_m0 = mono_ns();
	s->act_t0 = real_ns();
	s->act_rc = r->action(r->action_arg);
	s->act_took_ns = (double)(mono_ns() - m0);
	s->act_fired = true;
	if (s->act_rc && !s->err[0])
		snprintf(s->err, sizeof(s->err), "the outage action failed (%s %d)",
			 s->act_rc < 0 ? "error" : "status", s->act_rc < 0 ? -s->act_rc : s->act_rc);
}

/* The forwarding rate is read off the kernel's counters of the receiving interfaces
 * while the load is on: from the end of the warm-up (plus a margin for the senders'
 * start) until 100 ms before the senders stop. Frames a backlog delivers after the load ends
 * are not counted in it, frames of the warm-up delivered during it are: the rate
 * at which the router forwards under this load (RFC 2285), whatever their tag. Then
 * waits for the senders to end. */
static void load_window(const struct trial_env *e, const struct trial_req *r,
			struct trial_tools *tt, uint64_t t_load, struct trial_res *s)
{
	uint64_t t_win0 = t_load + (uint64_t)((r->warmup_s + 0.15) * 1e9);
	uint64_t t_win1 = t_load + (uint64_t)((r->warmup_s + r->duration_s - 0.1) * 1e9);
	uint64_t deadline = t_load + (uint64_t)((r->warmup_s + r->duration_s + 30) * 1e9);
	uint64_t t_act = r->action ? t_load + (uint64_t)((r->warmup_s + r->action_at_s) * 1e9) : 0;
	if (t_win1 <= t_win0 + 200 * NS_PER_MS)
		s->nowin = "the trial is too short for a load window (it needs 0.45 s after the warm-up)";
	for (int w = 0; w < 2 && t_win1 > t_win0 + 200 * NS_PER_MS; w++) {
		if (t_act && t_act < (w ? t_win1 : t_win0)) {
			fire_action(e, r, tt, t_act, s);
			t_act = 0;
			if (s->err[0] || (e->stop && *e->stop))
				break;
		}
		if (tools_wait_any(tt->gens, tt->ng, w ? t_win1 : t_win0, e->stop) >= 0 ||
		    (e->stop && *e->stop)) {
			s->nowin = "a sender ended before the load window closed";
			break;
		}
		trial_window_read(tt->sinks, tt->ns, w);
		s->win_read = w == 1;
	}
	if (t_act && !s->err[0] && !(e->stop && *e->stop))   /* after the window's end */
		fire_action(e, r, tt, t_act, s);
	/* the senders' schedule ends there: an action that ends later outlasted the load */
	s->act_load_end_ns = s->act_fired ? (double)(int64_t)(t_load + (uint64_t)((r->warmup_s +
							r->duration_s) * 1e9) - s->act_m0) : NAN;
	if (!tools_wait_all(tt->gens, tt->ng, deadline, e->stop, true)) {
		for (size_t i = 0; i < tt->ng; i++)
			if (tt->gens[i]->pid && !(e->stop && *e->stop) && !s->err[0])
				snprintf(s->err, sizeof(s->err), "ppslab-gen (%s) did not finish in time",
					 tt->gens[i]->name);
	}
}

/* Every tool stopped: the senders first (a sender still running when a trial failed
 * is stopped here), then the sinks. A sink that ended before it was stopped did not
 * count the frames after its end: the trial's figures would be wrong, so it fails. */
static void tools_end(const struct trial_env *e, struct trial_tools *tt, char *err,
		      size_t errlen)
{
	for (size_t i = 0; i < tt->ns; i++)
		trial_reader_stop(&tt->sinks[i]->rd);
	for (size_t i = 0; i < tt->ns && !err[0] && !(e->stop && *e->stop); i++) {
		struct tool *t = tt->sinks[i];
		char wb[160];
		if (t->pid && tool_poll(t) >= 0)
			snprintf(err, errlen, "the sink box %s (%s): %s (%s) ended with status %d "
				 "before the trial stopped it: frames after its end were not counted",
				 t->tb->name, trial_where(&t->tb->box, wb, sizeof(wb)), t->prog, t->name,
				 t->status);
	}
	for (size_t i = 0; i < tt->na; i++)
		tool_stop(tt->all[i]);
}

/* The tools run: sinks, the router's counters before, senders, the load window, the
 * settling, the router's counters after, every tool stopped. */
static void trial_measure(const struct trial_env *e, const struct trial_req *r,
			  struct trial_tools *tt, struct trial_res *s)
{
	const struct profile *p = e->p;
	/* A tool that does not stop when told ends by its own duration (--duration): after
	 * the longest this trial may take before it stops it (the senders' readiness,
	 * their common start at most 20 s ahead, an external router's read hook up to its
	 * timeout, the load, the senders' 30 s of grace, the settling), so that a sink never
	 * ends by itself while frames are on their way. Senders over ssh on a loaded host
	 * take seconds to start. */
	double read_hook = e->dut && p->router.kind == PR_EXTERNAL && p->router.read_hook
			   ? p->router.hook_timeout_s : 0;
	double settle = r->settle_s > 0 ? r->settle_s : p->trial.settle_s;
	double limit = r->warmup_s + r->duration_s + settle + READY_TIMEOUT_S + 20 +
		       30 + 10 + read_hook + (r->action ? r->action_limit_s : 0);
	/* sessions to read remote counters, opened before anything is timed */
	for (size_t i = 0; i < tt->ns; i++)
		if (tt->sinks[i]->tb->box.ssh)
			trial_reader_start(&tt->sinks[i]->rd, &tt->sinks[i]->tb->box,
					   tt->sinks[i]->tb->spec);
	for (size_t i = 0; i < tt->na; i++) {   /* no stale output of an earlier trial */
		char pth[600];
		snprintf(pth, sizeof(pth), "%s/%s.out", e->tmpdir, tt->all[i]->name);
		unlink(pth);
	}
	/* 1..255, never 0: a sender started without --epoch is stale here too */
	unsigned epoch = e->epochs ? (*e->epochs)++ % 255 + 1 : 0;
	uint64_t t_sinks = mono_ns(), t_load = 0;
	if (start_sinks(e, tt, limit, r, epoch, s->err, sizeof(s->err)))
		goto out;
	double sinks_s = (double)(mono_ns() - t_sinks) / 1e9;
	s->dut_before = e->dut ? dut_stats(e->dut) : NULL;
	if (e->dut && dut_fault(e->dut)) {   /* hung: nothing it counts can be trusted */
		snprintf(s->err, sizeof(s->err), "%s", dut_fault(e->dut));
		goto out;
	}
	if (start_gens(e, r, tt, sinks_s, epoch, s, &t_load))
		goto out;
	load_window(e, r, tt, t_load, s);
	/* residual frames drain before anyone counts */
	if (settle > 0 && !(e->stop && *e->stop))
		usleep((useconds_t)(settle * 1e6));
	s->dut_after = e->dut ? dut_stats(e->dut) : NULL;
	if (e->dut && dut_fault(e->dut) && !s->err[0])
		snprintf(s->err, sizeof(s->err), "%s", dut_fault(e->dut));
out:
	tools_end(e, tt, s->err, sizeof(s->err));
}

/* What everyone printed (their summaries and exit statuses), the router's counters
 * over the trial, and the first failure among them in s->err. */
static void trial_collect(const struct trial_env *e, struct trial_tools *tt,
			  struct trial_res *s)
{
	s->gen = json_array();
	s->sink = json_array();
	s->exit = json_object();
	for (size_t i = 0; i < tt->na; i++) {
		struct tool *t = tt->all[i];
		if (!t->out[0])
			continue;
		t->sum = jout_last_summary(t->out);
		json_object_set_new(s->exit, t->name, json_integer(t->status));
		if (t->sum)
			json_array_append(t->sender ? s->gen : s->sink, t->sum);
		char why[300], wb[160];
		if (t->killed && !s->err[0])   /* not "status 137": what happened */
			snprintf(s->err, sizeof(s->err), "%s (%s box %s, %s) did not finish within %d s "
				 "of being told to stop and was killed", t->name,
				 t->sender ? "sender" : "sink", t->tb->name,
				 trial_where(&t->tb->box, wb, sizeof(wb)), TOOL_STOP_S);
		if ((t->status != 0 || !t->sum) && !s->err[0]) {
			tool_err(t, why, sizeof(why));
			snprintf(s->err, sizeof(s->err), "%s (%s box %s, %s) exited with status %d%s%s%s",
				 t->name, t->sender ? "sender" : "sink", t->tb->name,
				 trial_where(&t->tb->box, wb, sizeof(wb)), t->status,
				 t->sum ? "" : " without a summary", why[0] ? ": " : "", why);
		}
	}
	if (e->dut) {
		s->rut = dut_trial_record(e->dut, s->dut_before, s->dut_after);
		if (s->rut && !s->err[0])
			dut_link_fault(s->rut, s->err, sizeof(s->err));
	}
}

/* The forwarding rate of each direction, the sum over its receiving interfaces'
 * counters over the load window: false when one could not be read (s->nowin says
 * why). */
static bool window_rates(struct trial_tools *tt, struct trial_res *s)
{
	for (size_t i = 0; i < tt->ns; i++) {
		double secs, rs;
		/* an interface counts every frame it receives: where the sink counted no
		 * test frame (or gave no count), its counters measured other traffic */
		if (!(jnum(tt->sinks[i]->sum, "rx_pkts") > 0)) {
			s->nowin = tt->sinks[i] == tt->sinkb ? "the sink of blast B counted no test "
				"frame: its interface's counters are not the test traffic's rate"
				: "a sink counted no test frame: its interface's counters are not the "
				"test traffic's rate";
			return false;
		}
		double w = trial_window_rate(&tt->sinks[i]->win[0], &tt->sinks[i]->win[1], &secs, &rs);
		if (isnan(w)) {
			if (!s->nowin)
				s->nowin = counters_why(tt->sinks[i]->tb, tt->sinks[i] == tt->sinkb
						? "sender box's, blast B" : "sink box's");
			return false;
		}
		if (tt->sinks[i] == tt->sinkb) {
			s->fwd_b = w;
			s->res_b = rs;
		} else {
			s->fwd_a = isnan(s->fwd_a) ? w : s->fwd_a + w;
			s->res_a += rs;
			s->window_s = secs;
		}
		s->remote_clock |= tt->sinks[i]->win[0].remote_clock;
	}
	return true;
}

/* Without a load window: the test frames over the longest sender's time. */
static void frame_rates(struct trial_tools *tt, struct trial_res *s)
{
	double dmax = 0, xa = 0, xb = 0;
	for (size_t i = 0; i < tt->ng; i++) {
		double d = jnum(tt->gens[i]->sum, "duration_ns");
		if (d > dmax)
			dmax = d;
	}
	for (size_t i = 0; i < tt->ns; i++) {
		double x = jnum(tt->sinks[i]->sum, "rx_pkts");
		if (tt->sinks[i] == tt->sinkb)
			xb += isnan(x) ? 0 : x;
		else
			xa += isnan(x) ? 0 : x;
	}
	bool any = false;
	for (size_t i = 0; i < tt->nsa; i++)
		any |= tt->sinks[i]->sum != NULL;
	s->fwd_a = dmax > 0 && any ? xa * 1e9 / dmax : NAN;
	s->fwd_b = tt->bi && dmax > 0 && tt->sinkb->sum ? xb * 1e9 / dmax : NAN;
	if (!s->nowin && !s->win_read)
		s->nowin = "the load window was not read";
	s->res_pps = dmax > 0 ? (tt->bi ? 2 : 1) * 1e9 / dmax : NAN;
}

/* the trial's numbers: sent and received test frames; the forwarding rate of each
 * direction and their sum */
static void trial_figures(struct trial_tools *tt, struct trial_res *s)
{
	s->fwd_a = s->fwd_b = s->window_s = NAN;
	s->windowed = s->win_read && window_rates(tt, s);
	if (!s->windowed)
		frame_rates(tt, s);
	else
		s->res_pps = s->res_a + (tt->bi ? s->res_b : 0);
	double offered = 0;
	bool any_gen = false;
	for (size_t i = 0; i < tt->na; i++) {
		if (tt->all[i]->sender) {
			double t = jnum(tt->all[i]->sum, "tx_pkts");
			double o = jnum(tt->all[i]->sum, "pps");
			s->tx += isnan(t) ? 0 : t;
			offered += isnan(o) ? 0 : o;
			any_gen |= tt->all[i]->sum != NULL;
		} else {
			double x = jnum(tt->all[i]->sum, "rx_pkts");
			s->rx += isnan(x) ? 0 : x;
		}
	}
	s->offered_pps = any_gen ? offered : NAN;
	s->loss_ratio = s->tx > 0 ? (s->tx > s->rx ? (s->tx - s->rx) / s->tx : 0) : NAN;
	s->fwd_pps = isnan(s->fwd_a) ? NAN : s->fwd_a + (tt->bi && !isnan(s->fwd_b) ? s->fwd_b : 0);
	if (!tt->bi)
		s->fwd_b = NAN;
	s->end = time(NULL);
}

/* The rate step's instant (trial_req.step_at_s) on our clock, from each sender's
 * summary: its first frame left at first_tx_real_ns on its box's clock (the schedule's
 * start, late by what the first frame was), the warm-up and the first step after it.
 * The earliest sender's becomes the "action" instant, the senders' spread its time
 * taken; none when a sender gave no first frame. */
static void step_instant(const struct trial_req *r, struct trial_tools *tt, struct trial_res *s)
{
	int64_t lo = 0, hi = 0;
	for (size_t i = 0; i < tt->ng; i++) {
		const json_t *g = tt->gens[i]->sum;
		const json_t *f = json_object_get(g, "first_tx_real_ns");
		const json_t *w = json_object_get(g, "warmup_ns");
		if (!json_is_integer(f) || !json_is_integer(w))
			return;
		double off = isnan(tt->gens[i]->tb->clock_off_ns) ? 0 : tt->gens[i]->tb->clock_off_ns;
		/* integers: a stamp near 2^61 is past a double's 53 bits */
		int64_t a = (int64_t)json_integer_value(f) + (int64_t)json_integer_value(w) +
			    llround(r->step_at_s * 1e9) - llround(off);
		lo = !i || a < lo ? a : lo;
		hi = !i || a > hi ? a : hi;
	}
	if (!tt->ng)
		return;
	s->act_fired = true;
	s->act_t0 = (uint64_t)lo;
	s->act_took_ns = (double)(hi - lo);
	s->act_rc = 0;
}

int trial_run(const struct trial_env *e, const struct trial_req *r, json_t **recp)
{
	bool bi = r->cell->bi;
	struct trial_tools tt;
	struct trial_res s = { .req = r, .per_aggregate = bi };
	tools_make(e, bi, &tt);
	trial_measure(e, r, &tt, &s);
	trial_collect(e, &tt, &s);
	if (r->step_at_s > 0)
		step_instant(r, &tt, &s);
	trial_figures(&tt, &s);
	s.interrupted = e->stop && *e->stop;
	*recp = trial_record(&s, &tt);
	for (size_t i = 0; i < tt.na; i++)
		json_decref(tt.all[i]->sum);
	json_decref(s.dut_before);
	json_decref(s.dut_after);
	json_decref(s.gen);
	json_decref(s.sink);
	json_decref(s.exit);
	json_decref(s.rut);
	return !*recp ? -ENOMEM : s.interrupted ? -EINTR : s.err[0] ? -EIO : 0;
}
