/* SPDX-License-Identifier: BSD-2-Clause */
/* trial.c — one measurement of ppslab run (called by run.c for every trial a case's
 * method asks for). Starts the tools through box.h, waits on them with bounded times,
 * and turns their JSON summaries into the trial record; see trial.h. */
#include "trial.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
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

/* One read of an interface's receive counter: the value (-1: unreadable) and when it
 * was taken, t_ns ± unc_ns, on the box's own clock when it said (remote: CLOCK_REALTIME
 * there, read right before and after the counter) or else on our CLOCK_MONOTONIC
 * around the whole read (an ssh round trip: hundreds of ms). */
struct rx_read {
	double v;
	double t_ns, unc_ns;
	bool remote_clock;
};

/* "1700000000.123456789" → ns, NaN when it is not (a date without %N) */
static double date_ns(const char *s)
{
	char *end;
	long long sec = strtoll(s, &end, 10);
	if (end == s || *end != '.' || end[1] < '0' || end[1] > '9')
		return NAN;
	return (double)sec * 1e9 + strtod(end, NULL) * 1e9;
}

/* The kernel's own count of frames the interface under a port spec received
 * ("afpacket:sink0,ring=v2" → sink0), on its box. */
static struct rx_read if_rx_packets(const struct box *b, const char *spec)
{
	char ifname[64];
	struct rx_read r = { .v = -1, .t_ns = NAN, .unc_ns = NAN };
	const char *colon = strchr(spec, ':');
	snprintf(ifname, sizeof(ifname), "%s", colon && strncmp(spec, "udp:", 4) ? colon + 1 : spec);
	ifname[strcspn(ifname, ",")] = 0;
	if (!strncmp(spec, "udp:", 4))
		return r;
	if (b->ssh)
		return r;   /* over ssh: an rx_reader */
	uint64_t t0 = mono_ns();
	r.v = if_rx_here(b->netns, ifname);
	uint64_t t1 = mono_ns();
	r.t_ns = (double)t0 + (double)(t1 - t0) / 2;
	r.unc_ns = (double)(t1 - t0) / 2;
	return r;
}

/* The counter of an interface on an ssh box, read through one ssh session kept open
 * for the trial: a read then costs the channel's round trip, where a new connection
 * would take long enough to land the read after the load window. The box stamps each
 * read with its own clock right before and after it. */
struct rx_reader {
	pid_t pid;
	int in, out;
};

static const char reader_script[] =
	"echo @@ready\n"
	"while read -r x; do date +%s.%N; ip -s -j link show dev \"$1\"; date +%s.%N; echo @@; done\n";

/* One line from fd within the deadline: 0, or -ETIMEDOUT / -EIO. */
static int read_line(int fd, char *buf, size_t len, uint64_t deadline)
{
	size_t n = 0;
	while (n + 1 < len) {
		uint64_t now = mono_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, (int)((deadline - now) / NS_PER_MS) + 1);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return -ETIMEDOUT;
		char ch;
		if (read(fd, &ch, 1) != 1)
			return -EIO;
		if (ch == '\n')
			break;
		buf[n++] = ch;
	}
	buf[n] = 0;
	return 0;
}

static void reader_stop(struct rx_reader *rd)
{
	if (rd->in > 0)
		close(rd->in);   /* the remote loop ends at end of input */
	if (rd->out > 0)
		close(rd->out);
	if (rd->pid > 0)
		proc_wait(rd->pid, 5 * NS_PER_S);
	memset(rd, 0, sizeof(*rd));
}

/* Starts the session and waits until the box answers (its "@@ready"). 0 or -errno. */
static int reader_start(struct rx_reader *rd, const struct box *b, const char *spec)
{
	char ifname[64];
	const char *colon = strchr(spec, ':');
	memset(rd, 0, sizeof(*rd));
	if (!strncmp(spec, "udp:", 4))
		return -ENODEV;
	snprintf(ifname, sizeof(ifname), "%s", colon ? colon + 1 : spec);
	ifname[strcspn(ifname, ",")] = 0;
	struct box_cmd c;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int rc = box_sys_init(&c, b, "sh");
	rc = rc ? rc : box_arg(&c, "-c");
	rc = rc ? rc : box_arg(&c, reader_script);
	rc = rc ? rc : box_arg(&c, "sh");
	rc = rc ? rc : box_arg(&c, ifname);
	rc = rc ? rc : box_cmd_done(&c, b);
	if (!rc && (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0))
		rc = -errno;
	pid_t pid = rc ? -1 : fork();
	if (!rc && pid < 0)
		rc = -errno;
	if (pid == 0) {
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		int dn = open("/dev/null", O_WRONLY);
		if (dn >= 0)
			dup2(dn, 2);
		execvp(c.argv[0], c.argv);
		_exit(127);
	}
	box_cmd_free(&c);
	if (in[0] >= 0)
		close(in[0]);
	if (out[1] >= 0)
		close(out[1]);
	if (rc) {
		if (in[1] >= 0)
			close(in[1]);
		if (out[0] >= 0)
			close(out[0]);
		return rc;
	}
	rd->pid = pid;
	rd->in = in[1];
	rd->out = out[0];
	signal(SIGPIPE, SIG_IGN);
	char line[64];
	if (read_line(rd->out, line, sizeof(line), mono_ns() + 20 * NS_PER_S) ||
	    strcmp(line, "@@ready")) {
		reader_stop(rd);
		return -EHOSTUNREACH;
	}
	return 0;
}

static struct rx_read reader_read(struct rx_reader *rd)
{
	struct rx_read r = { .v = -1, .t_ns = NAN, .unc_ns = NAN };
	static char line[1 << 16];
	if (rd->pid <= 0)
		return r;
	uint64_t t0 = mono_ns(), deadline = t0 + 5 * NS_PER_S;
	double ta = NAN, tb = NAN;
	json_t *j = NULL;
	if (write(rd->in, "x\n", 2) != 2)
		return r;
	for (int n = 0; !read_line(rd->out, line, sizeof(line), deadline); n++) {
		if (!strcmp(line, "@@"))
			break;
		if (n == 0)
			ta = date_ns(line);
		else if (line[0] == '[' && !j)
			j = json_loads(line, 0, NULL);
		else
			tb = date_ns(line);
	}
	uint64_t t1 = mono_ns();
	json_t *rx = json_object_get(json_object_get(json_object_get(json_array_get(j, 0),
								      "stats64"), "rx"), "packets");
	if (json_is_integer(rx))
		r.v = (double)json_integer_value(rx);
	json_decref(j);
	if (isfinite(ta) && isfinite(tb) && tb >= ta) {
		r.t_ns = ta + (tb - ta) / 2;
		r.unc_ns = (tb - ta) / 2;
		r.remote_clock = true;
	} else {   /* a date without %N: our clock around the round trip */
		r.t_ns = (double)t0 + (double)(t1 - t0) / 2;
		r.unc_ns = (double)(t1 - t0) / 2;
	}
	return r;
}

/* The rate between two reads of one counter, and its resolution: a frame at each end
 * and the reads' time uncertainty. NaN when either read failed or they are on two
 * clocks. */
static double window_rate(const struct rx_read *a, const struct rx_read *b, double *secs,
			  double *res)
{
	*secs = (b->t_ns - a->t_ns) / 1e9;
	if (a->v < 0 || b->v < 0 || a->remote_clock != b->remote_clock || !(*secs > 0.2))
		return NAN;
	double rate = (b->v - a->v) / *secs;
	*res = (2 + rate * (a->unc_ns + b->unc_ns) / 1e9) / *secs;
	return rate;
}

/* Why the receiving interfaces' counters could not be read (fwd_rate_fallback). */
static const char *counters_why(const struct trial_env *e, bool b_only)
{
	const struct box *b = b_only ? &e->gen : &e->sink;
	const char *spec = b_only ? e->gen_if : e->sink_if;
	static char why[300];
	if (!strncmp(spec, "udp:", 4))
		snprintf(why, sizeof(why), "the %s port %s is a UDP socket: no interface counters "
			 "to read", b_only ? "sender box's" : "sink's", spec);
	else if (b->ssh)
		snprintf(why, sizeof(why), "no counters of %s from %s (%s) over ssh: `ip -s -j link "
			 "show` (iproute2 with JSON) and `date +%%s.%%N` are needed there", spec, b->ssh,
			 b_only ? "the sender box, blast B" : "the sink box");
	else
		snprintf(why, sizeof(why), "the kernel's counters of %s%s%s could not be read",
			 spec, b->netns ? " in namespace " : "", b->netns ? b->netns : "");
	return why;
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
		    const char *expect, double max_delay_s, struct box_cmd *c)
{
	int rc = box_cmd_init(c, b, "ppslab-sink");
	if (!rc && max_delay_s > 0) {   /* beyond it, a delay says the clocks disagree */
		rc = box_arg(c, "--max-delay");
		rc = rc ? rc : box_argf(c, "%.6fs", max_delay_s);
	}
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
	/* the next hop's MAC when the profile gives it: no route or neighbour lookup */
	const char *mac = stream == 1 ? p->topo.dst_mac : p->topo.dst_mac_b;
	if (!rc && mac) {
		rc = box_arg(c, "--dst-mac");
		rc = rc ? rc : box_arg(c, mac);
	}
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
	struct rx_read win[2][2];   /* [start, end][stream A, B] */
	bool win_read = false;
	struct rx_reader rda = { 0 }, rdb = { 0 };
	/* sessions to read remote counters, opened before anything is timed */
	if (e->sink.ssh)
		reader_start(&rda, &e->sink, e->sink_if);
	if (bi && e->gen.ssh)
		reader_start(&rdb, &e->gen, e->gen_if);
	const char *nowin = NULL;   /* why there is no load window */
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
	if ((rc = sink_cmd(&e->sink, e->sink_if, limit, local ? xa : NULL,
				 p->trial.max_delay_s, &c)) ||
	    (rc = tool_start(&sink, e, &e->sink, &c))) {
		snprintf(err, sizeof(err), "cannot start ppslab-sink: %s", strerror(-rc));
		goto out;
	}
	if (bi && ((rc = sink_cmd(&e->gen, e->gen_if, limit, local ? xb : NULL,
					 p->trial.max_delay_s, &c)) ||
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
	if (t_win1 <= t_win0 + 200 * NS_PER_MS)
		nowin = "the trial is too short for a load window (it needs 0.45 s after the warm-up)";
	for (int w = 0; w < 2 && t_win1 > t_win0 + 200 * NS_PER_MS; w++) {
		if (tool_wait(&gen, w ? t_win1 : t_win0, e->stop, true) >= 0 ||
		    (bi && tool_wait(&genb, w ? t_win1 : t_win0, e->stop, true) >= 0) ||
		    (e->stop && *e->stop)) {
			nowin = "a sender ended before the load window closed";
			break;
		}
		win[w][0] = e->sink.ssh ? reader_read(&rda) : if_rx_packets(&e->sink, e->sink_if);
		win[w][1] = !bi ? (struct rx_read){ .v = -1 }
			  : e->gen.ssh ? reader_read(&rdb) : if_rx_packets(&e->gen, e->gen_if);
		win_read = w == 1;
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
	reader_stop(&rda);
	reader_stop(&rdb);
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
	double wa = NAN, wb = NAN, ra = NAN, rb = 0;
	double wfa = win_read ? window_rate(&win[0][0], &win[1][0], &wa, &ra) : NAN;
	double wfb = win_read && bi ? window_rate(&win[0][1], &win[1][1], &wb, &rb) : NAN;
	bool windowed = !isnan(wfa) && (!bi || !isnan(wfb));
	if (!windowed && !nowin)
		nowin = counters_why(e, bi && !isnan(wfa));
	if (windowed)   /* the kernel's count of the load window (see above) */
		fa = wfa;
	for (int i = 0; i < 2; i++) {
		double t = jnum(gs[i], "tx_pkts"), x = jnum(ss[i], "rx_pkts"), o = jnum(gs[i], "pps");
		tx += isnan(t) ? 0 : t;
		rx += isnan(x) ? 0 : x;
		offered += isnan(o) ? 0 : o;
	}
	if (bi)
		fb = windowed ? wfb : rate_of(ss[1], gs[1]);
	json_object_set_new(rec, "fwd_rate_from", json_string(windowed ? RES_FWD_WINDOW
									: RES_FWD_FRAMES));
	if (!windowed && nowin)
		json_object_set_new(rec, "fwd_rate_fallback", json_string(nowin));
	/* the rate's resolution: a frame at each end of the window, and the reads' own
	 * time (the timestamp is their midpoint, good to half their duration) */
	double res = NAN;
	if (windowed) {
		json_object_set_new(rec, "window_s", json_real(wa));
		if (win[0][0].remote_clock)
			json_object_set_new(rec, "window_clock", json_string("the sink box's, around "
									     "each read"));
		res = ra + (bi ? rb : 0);
	} else {
		double dns = jnum(gs[0], "duration_ns");
		res = dns > 0 ? (bi ? 2 : 1) * 1e9 / dns : NAN;
	}
	set_num(rec, "fwd_rate_res_pps", res);
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
