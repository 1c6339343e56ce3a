/* SPDX-License-Identifier: BSD-2-Clause */
/* trial_rx.c — the kernel's receive counters of a trial's receiving interfaces (see
 * trial_impl.h): read through netlink inside a namespace on this host, or through one
 * ssh session kept open for the trial on a remote box, each read stamped with when it
 * was taken; the rate over the load window from two reads. */
#include "trial_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "ifinfo.h"
#include "log.h"
#include "proc.h"

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

static const char reader_script[] =
	"echo @@ready\n"
	"while read -r x; do date +%s.%N; ip -s -j link show dev \"$1\"; date +%s.%N; echo @@; done\n";


void trial_reader_stop(struct rx_reader *rd)
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
int trial_reader_start(struct rx_reader *rd, const struct box *b, const char *spec)
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
	pid_t pid = rc ? -1 : proc_spawn_pipes(c.argv, &in[1], &out[0]);
	if (!rc && pid < 0)
		rc = (int)pid;
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
	if (proc_read_line(rd->out, line, sizeof(line), mono_ns() + 20 * NS_PER_S) ||
	    strcmp(line, "@@ready")) {
		trial_reader_stop(rd);
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
	for (int n = 0; !proc_read_line(rd->out, line, sizeof(line), deadline); n++) {
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
double trial_window_rate(const struct rx_read *a, const struct rx_read *b, double *secs,
			 double *res)
{
	*secs = (b->t_ns - a->t_ns) / 1e9;
	if (a->v < 0 || b->v < 0 || a->remote_clock != b->remote_clock || !(*secs > 0.2))
		return NAN;
	double rate = (b->v - a->v) / *secs;
	*res = (2 + rate * (a->unc_ns + b->unc_ns) / 1e9) / *secs;
	return rate;
}

/* The counter reads of every receiving interface at one end of the window. */
void trial_window_read(struct tool **ts, size_t n, int w)
{
	for (size_t i = 0; i < n; i++) {
		struct tool *t = ts[i];
		t->win[w] = t->tb->box.ssh ? reader_read(&t->rd) : if_rx_packets(&t->tb->box,
										  t->tb->spec);
	}
}
