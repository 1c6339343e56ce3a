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

/* Where a box is, for messages: "namespace ppslab-gen2", "ssh root@h", "this host". */
static const char *where(const struct box *b, char *buf, size_t len)
{
	if (b->ssh)
		snprintf(buf, len, "ssh %s%s%s", b->ssh, b->netns ? ", namespace " : "",
			 b->netns ? b->netns : "");
	else if (b->netns)
		snprintf(buf, len, "namespace %s", b->netns);
	else
		snprintf(buf, len, "this host");
	return buf;
}

struct tool {
	char name[16];          /* "gen", "gen2", "sink", "gen_b", "sink_b" */
	const char *prog;       /* "ppslab-gen", "ppslab-sink" */
	const struct trial_box *tb;   /* the box it runs on */
	bool sender;
	int stream;             /* a sender's */
	pid_t pid;
	int in;                 /* ssh: our end of its stdin (closing it stops it), or -1 */
	char out[600];
	int status;
	uint64_t ready_ns;      /* CLOCK_MONOTONIC when it said it was ready */
	json_t *sum;            /* its summary */
	struct rx_reader rd;    /* a sink over ssh: its interface's counters */
	struct rx_read win[2];  /* a sink: its interface's counter at both ends of the window */
};

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
			 "ready: %s", role, t->tb->name, where(&t->tb->box, wb, sizeof(wb)), t->prog,
			 t->name, st, why[0] ? why : "nothing on stderr");
	else
		snprintf(err, errlen, "the %s box %s (%s): %s (%s) was not ready within %d s: %s", role,
			 t->tb->name, where(&t->tb->box, wb, sizeof(wb)), t->prog, t->name,
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
	if (!tools_wait_all(one, 1, mono_ns() + 10 * NS_PER_S, NULL, false)) {
		kill(t->pid, SIGKILL);
		tools_wait_all(one, 1, mono_ns() + 5 * NS_PER_S, NULL, false);
		t->status = 128 + SIGKILL;
		t->pid = 0;
	}
}

static void set_num(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, isnan(v) ? json_null() : json_real(v));
}

/* What a sender numbered on its stream (the sink's --expect-from reading): test_pkts +
 * seq_holes, or tx_pkts from a summary without them. */
static double gen_sent(const json_t *g)
{
	double t = jnum(g, "test_pkts"), h = jnum(g, "seq_holes");
	return isnan(t) ? jnum(g, "tx_pkts") : t + (isnan(h) ? 0 : h);
}

/* The sinks' count of stream sid: received and lost (their own accounting), summed. */
static void stream_rx(struct tool **sinks, size_t n, int sid, double *rx, double *lost)
{
	*rx = *lost = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		json_t *st;
		json_array_foreach(json_object_get(sinks[i]->sum, "streams"), j, st)
			if (jnum(st, "stream") == sid) {
				double x = jnum(st, "rx_pkts"), l = jnum(st, "lost_pkts");
				*rx += isnan(x) ? 0 : x;
				*lost += isnan(l) ? 0 : l;
			}
	}
}

/* Per box and per stream: what each sender sent and its stream's fate at the sinks,
 * what each sink received; the record's "boxes", "streams" and "lost_frames". */
static void per_box(json_t *rec, struct tool **ts, size_t nt, struct tool **sinks, size_t ns,
		    const struct tool *sinkb, bool windowed)
{
	json_t *boxes = json_array(), *streams = json_array();
	double lost_all = 0;
	char wb[160];
	for (size_t i = 0; i < nt; i++) {
		const struct tool *t = ts[i];
		json_t *b = json_object();
		json_object_set_new(b, "name", json_string(t->name));
		json_object_set_new(b, "role", json_string(t->sender ? "sender" : "sink"));
		json_object_set_new(b, "box", json_string(t->tb->name));
		json_object_set_new(b, "where", json_string(where(&t->tb->box, wb, sizeof(wb))));
		json_object_set_new(b, "port", json_string(t->tb->spec));
		json_object_set_new(b, "threads", json_integer(t->tb->threads ? t->tb->threads : 1));
		if (t->tb->cpus)
			json_object_set_new(b, "cpus", json_string(t->tb->cpus));
		if (t->sender) {
			double sent = gen_sent(t->sum), rx = 0, lost = 0;
			if (t->stream == 2 && sinkb) {
				struct tool *one[1] = { (struct tool *)sinkb };
				stream_rx(one, 1, 2, &rx, &lost);
			} else {
				stream_rx(sinks, ns, t->stream, &rx, &lost);
			}
			json_object_set_new(b, "stream", json_integer(t->stream));
			set_num(b, "tx_frames", sent);
			set_num(b, "offered_pps", jnum(t->sum, "pps"));
			json_object_set_new(b, "rx_frames", json_integer((json_int_t)rx));
			json_object_set_new(b, "lost_frames", json_integer((json_int_t)lost));
			if (t->sum && !isnan(sent)) {
				lost_all += lost;
				json_array_append_new(streams, json_pack("{s:i,s:s,s:I,s:I,s:I}", "stream",
									  t->stream, "box", t->name, "sent",
									  (json_int_t)sent, "received",
									  (json_int_t)rx, "lost",
									  (json_int_t)lost));
			}
		} else {
			set_num(b, "rx_frames", jnum(t->sum, "rx_pkts"));
			json_t *ids = json_array();
			size_t j;
			json_t *st;
			json_array_foreach(json_object_get(t->sum, "streams"), j, st)
				if (jnum(st, "rx_pkts") > 0)
					json_array_append_new(ids, json_integer((json_int_t)jnum(st, "stream")));
			json_object_set_new(b, "streams", ids);
			double secs, res;
			double w = windowed ? window_rate(&t->win[0], &t->win[1], &secs, &res) : NAN;
			set_num(b, "fwd_rate_pps", w);
		}
		json_array_append_new(boxes, b);
	}
	json_object_set_new(rec, "boxes", boxes);
	json_object_set_new(rec, "streams", streams);
	json_object_set_new(rec, "lost_frames", json_integer((json_int_t)lost_all));
}

/* The start instant and when each sender's first frame left, on our clock: each box's
 * first_tx_real_ns minus its clock's offset. The spread is good to the two largest
 * offset bounds. */
static void start_record(json_t *rec, struct tool **gens, size_t ng, uint64_t at_real,
			 double lead_s)
{
	json_t *s = json_object(), *per = json_object();
	double lo = INFINITY, hi = -INFINITY, b1 = 0, b2 = 0;
	json_object_set_new(s, "at_real_ns", json_integer((json_int_t)at_real));
	json_object_set_new(s, "lead_s", json_real(lead_s));
	size_t late = 0;
	for (size_t i = 0; i < ng; i++) {
		const struct tool *t = gens[i];
		double f = jnum(t->sum, "first_tx_real_ns");
		double off = t->tb->clock_off_ns, bound = t->tb->clock_bound_ns;
		json_t *o = json_object();
		set_num(o, "clock_offset_ns", off);
		set_num(o, "clock_bound_ns", bound);
		double rel = isnan(f) ? NAN : f - off - (double)at_real;
		set_num(o, "first_frame_ns", rel);
		if (!isnan(rel)) {
			lo = fmin(lo, rel);
			hi = fmax(hi, rel);
		}
		double bb = isnan(bound) ? 0 : bound;
		if (bb > b1) {
			b2 = b1;
			b1 = bb;
		} else if (bb > b2) {
			b2 = bb;
		}
		if (jnum(t->sum, "start_late_ns") > 1e6)
			late++;
		json_object_set_new(per, t->name, o);
	}
	json_object_set_new(s, "boxes", per);
	set_num(s, "spread_ns", hi >= lo ? hi - lo : NAN);
	json_object_set_new(s, "spread_bound_ns", json_real(b1 + b2));
	if (late)
		json_object_set_new(s, "late", json_pack("s", "a sender's first frame left more than 1 "
						       "ms after the instant: it was ready late (the "
						       "lead was too short) or its box was busy"));
	json_object_set_new(rec, "start", s);
}

/* The counter reads of every receiving interface at one end of the window. */
static void window_read(struct tool **ts, size_t n, int w)
{
	for (size_t i = 0; i < n; i++) {
		struct tool *t = ts[i];
		t->win[w] = t->tb->box.ssh ? reader_read(&t->rd) : if_rx_packets(&t->tb->box,
										  t->tb->spec);
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

	/* A tool that does not stop when told ends by its own duration (--duration). */
	bool remote = false;
	for (size_t i = 0; i < na; i++)
		remote |= all[i]->tb->box.ssh != NULL;
	double limit = r->warmup_s + r->duration_s + p->trial.settle_s + (remote ? 4 : 60);
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
			reader_start(&sinks[i]->rd, &sinks[i]->tb->box, sinks[i]->tb->spec);
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
		window_read(sinks, ns, w);
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
out:
	for (size_t i = 0; i < ns; i++)
		reader_stop(&sinks[i]->rd);
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
		if ((t->status != 0 || !t->sum) && !err[0]) {
			char why[300], wb[160];
			tool_err(t, why, sizeof(why));
			snprintf(err, sizeof(err), "%s (%s box %s, %s) exited with status %d%s%s%s",
				 t->name, t->sender ? "sender" : "sink", t->tb->name,
				 where(&t->tb->box, wb, sizeof(wb)), t->status,
				 t->sum ? "" : " without a summary", why[0] ? ": " : "", why);
		}
	}
	json_object_set_new(rec, "gen", gj);
	json_object_set_new(rec, "sink", sj);
	json_object_set_new(rec, "exit", exits);
	if (e->dut) {
		json_t *rr = dut_trial_record(e->dut, before, after);
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
		double w = window_rate(&sinks[i]->win[0], &sinks[i]->win[1], &secs, &rs);
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
			double d = jnum(gens[i]->sum, "duration_ns");
			if (d > dmax)
				dmax = d;
		}
		for (size_t i = 0; i < ns; i++) {
			double x = jnum(sinks[i]->sum, "rx_pkts");
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
			double t = jnum(all[i]->sum, "tx_pkts"), o = jnum(all[i]->sum, "pps");
			tx += isnan(t) ? 0 : t;
			offered += isnan(o) ? 0 : o;
		} else {
			double x = jnum(all[i]->sum, "rx_pkts");
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
	set_num(rec, "fwd_rate_res_pps", res);
	json_object_set_new(rec, "tx_frames", json_integer((json_int_t)tx));
	json_object_set_new(rec, "rx_frames", json_integer((json_int_t)rx));
	bool any_gen = false;
	for (size_t i = 0; i < ng; i++)
		any_gen |= gens[i]->sum != NULL;
	set_num(rec, "offered_pps", any_gen ? offered : NAN);
	set_num(rec, "loss_ratio", tx > 0 ? (tx > rx ? (tx - rx) / tx : 0) : NAN);
	set_num(rec, "fwd_rate_pps", isnan(fa) ? NAN : fa + (bi && !isnan(fb) ? fb : 0));
	set_num(rec, "fwd_rate_pps_a", fa);
	set_num(rec, "fwd_rate_pps_b", bi ? fb : NAN);
	const json_t *lat = json_object_get(sinks[0]->sum, "latency_ns");
	if (json_is_object(lat))
		json_object_set_new(rec, "latency_ns", json_deep_copy(lat));
	if (na > 2)   /* per box, and the streams merged over the sinks */
		per_box(rec, all, na, sinks, nsa, sinkb, windowed);
	if (several && at_real)
		start_record(rec, gens, ng, at_real, lead_s);
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
