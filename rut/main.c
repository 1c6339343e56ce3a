/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c — ppslab-rut: options, the control client (`ppslab-rut ctl`), start-up
 * (ports, routes, neighbours, knobs, control socket), interval lines and the summary.
 * Forwarding is fwd.c, scheduling fwdloop.c and devpoll.c, control ctl.c and cmd.c. */
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsdctl.h"
#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "ctl.h"
#include "fmt.h"
#include "fw.h"
#include "fwd.h"
#include "fwlog.h"
#include "jout.h"
#include "kstack.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "pollkern.h"
#include "port.h"
#include "priv.h"
#include "ready.h"
#include "route.h"
#include "runctl.h"
#include "rut_sysctl.h"
#include "fwdloop.h"
#include "rutstats.h"
#include "vlan.h"

/* long-only options, by name (their getopt keys are 256 + table index) */
#define MAX_REPEAT 64

struct args {
	const char *specs[2];
	enum fwdloop_mode mode;
	const struct pollkern *kern;
	enum pk_range range;
	int range_set, pollhz_set, kern_set;
	uint64_t duration_ns, burst, spin_ns, rt_prio;
	const char *knobs[MAX_REPEAT];      /* NAME=VALUE, in the order given */
	char knob_buf[2][64];
	int nknobs;
	const char *routes[MAX_REPEAT];
	int nroutes;
	const char *route_file;
	const char *neigh[MAX_REPEAT];
	int nneigh;
	const char *vlans[MAX_REPEAT];      /* --vlan PORT=VID[.INNER][:PCP] */
	int nvlans;
	struct vlan_port vlan[2];           /* -i's and -o's, from vlans */
	const char *ctl_path;
	const char *rules, *check_rules;
	int l2, default_accept;
	struct cli_common com;
	uint64_t threads;
	const char *cpus_arg;
	int cpus[FWD_MAX_THREADS], ncpus;
};

#define SYNOPSIS                                                                          \
	"ppslab-rut -i PORTSPEC -o PORTSPEC [--mode poll|intr|busy] [--threads N] [--rules FILE] [--ctl PATH] [options]\n" \
	"       ppslab-rut --check-rules FILE [-i PORTSPEC -o PORTSPEC]\n"                      \
	"       ppslab-rut ctl PATH sysctl [-a|-n|-e|-N|-d|-q|-i] NAME[=VALUE] ...\n"         \
	"       ppslab-rut ctl PATH ipfw [-q] add|delete|show|list|zero|flush|resetlog ... | ipfw [-q] /FILE\n" \
	"       ppslab-rut ctl PATH stats\n"                                                  \
	"       ppslab-rut ctl PATH pause MS"

static opt_fn opt_kernel, opt_knob;
static const char *const modes[] = { "poll", "intr", "busy", NULL };
static const char *const range_policies[] = { "einval", "clamp", "round", NULL };

#define A(m) OPT_AT(struct args, m)
#define REPEAT(m) OPT_STRS, A(m), .n_off = offsetof(struct args, n##m), .max = MAX_REPEAT, \
	.what = "at most {max} of them"
static struct opt_def opts[] = {
	{ "in", 'i', "PORTSPEC", "first port (afpacket:IF, pcap:IF or IF)", OPT_STR, A(specs[0]) },
	{ "out", 'o', "PORTSPEC", "second port; frames are forwarded both ways", OPT_STR, A(specs[1]) },
	{ "mode", 'm', "MODE", "scheduling: {default} (BSD device polling, default), intr or busy",
	  OPT_ENUM, A(mode), .names = modes, .def = "poll" },
	{ "threads", 'T', "N", "forwarding threads {range}, thread i on queue i of every port (afpacket: a fanout group per port, xdp: queue i; default {default})",
	  OPT_UINT, A(threads), .min = 1, .max = FWD_MAX_THREADS, .def = "1",
	  .what = "a number of threads {range}" },
	{ "cpus", 0, "LIST", "pin thread i to CPU LIST[i mod n] of the n listed, e.g. 0,1", OPT_STR, A(cpus_arg) },
	{ "kernel", 0, "NAME", "whose device polling: dragonfly-1.8, dragonfly-2.0 (default), freebsd-5.3, freebsd-7 or freebsd-14",
	  OPT_FN, .fn = opt_kernel },
	{ "pollhz", 0, "HZ", "DragonFly's poll clock, kern.polling.pollhz {range} (default 2000)", OPT_FN,
	  A(knob_buf[0]), .min = 1, .max = POLL_HZ_MAX, .what = "a rate of {range} Hz", .fn = opt_knob },
	/* the kernel's handler has the last word (20000 on freebsd-14 only) */
	{ "burst-max", 0, "N", "kern.polling.burst_max 10..1000, 20000 on freebsd-14 (default 150)", OPT_FN,
	  A(knob_buf[1]), .min = POLL_BURST_MIN, .max = PK_BURST_MAX_TOP, .what = "{range} frames",
	  .fn = opt_knob },
	{ "sysctl", 's', "NAME=VALUE", "set a kern.polling or net.inet.ip.fw knob, or kern.hz, at start (repeatable)",
	  OPT_FN, .what = "NAME=VALUE, e.g. kern.polling.each_burst=10", .fn = opt_knob },
	{ "range-policy", 0, "POLICY", "override the kernel's knob range checks: einval (FreeBSD), clamp (DragonFly 2.0) or round (DragonFly 1.8)",
	  OPT_ENUM, A(range), .names = range_policies },
	{ "spin", 0, "DUR", "poll mode: spin this long before each tick", OPT_DURATION, A(spin_ns),
	  .max = NS_PER_S, .def = "50us", .what = "a duration from {min} to {max}, e.g. 50us" },
	{ "rt-prio", 0, "PRIO", "run the forwarding threads SCHED_FIFO at PRIO {range} (default: normal)",
	  OPT_UINT, A(rt_prio), .min = 1, .max = 99, .what = "a SCHED_FIFO priority {range}" },
	{ "burst", 'b', "N", "frames per receive burst in intr and busy modes", OPT_UINT, A(burst),
	  .min = 1, .max = FWD_BURST_MAX, .def = "64", .what = "a burst of {range} frames" },
	{ "l2", 0, NULL, "bridge: every frame goes unchanged to the other port", OPT_FLAG, A(l2) },
	{ "route", 'r', "SPEC", "static route PREFIX/LEN,via=GW or PREFIX/LEN,dev=PORT, IPv4 or IPv6 (repeatable)",
	  REPEAT(routes) },
	{ "routes", 0, "FILE", "static routes from FILE, one SPEC per line", OPT_STR, A(route_file) },
	{ "neigh", 0, "IP=MAC@PORT", "static neighbour, IPv4 or IPv6 (repeatable); the rest from the system", REPEAT(neigh) },
	{ "vlan", 0, "PORT=VID", "PORT is a trunk carrying 802.1Q VLAN VID (also VID.INNER: QinQ, 802.1ad outer; VID:PCP or VID.INNER:PCP, the priority put on, 0..7, default 0): tags off on input, on on output, and the port is the vlan interface PORT.VID to the firewall, routes and neighbours (repeatable; default untagged)",
	  REPEAT(vlans) },
	{ "rules", 'f', "FILE", "ipfw rules to load at start; turns the firewall on", OPT_STR, A(rules) },
	{ "check-rules", 0, "FILE", "check FILE as --rules would load it (FILE:LINE:COL: errors), exit",
	  OPT_STR, A(check_rules) },
	{ "default-accept", 0, NULL, "rule 65535 allows; turns the firewall on", OPT_FLAG, A(default_accept) },
	{ "ctl", 'c', "PATH", "control socket for ppslab-rut ctl (mode 0600)", OPT_STR, A(ctl_path) },
	{ "duration", 't', "DUR", "stop after DUR (default: until SIGINT/SIGTERM)", OPT_DURATION,
	  A(duration_ns), .min = 1, .max = NUM_DURATION_MAX, .what = NUM_EXPECT_DURATION },
	CLI_OPT_INTERVAL(struct args),
	CLI_OPT_JSON(struct args),
	CLI_OPT_READY_FD(struct args, "once forwarding with the control socket listening, also write a byte to file descriptor N and close it"),
	CLI_OPT_USER(struct args, "after opening the ports and the control socket, drop root to user NAME (uid, gid, groups; no capabilities)"),
	CLI_OPT_QUIET(struct args),
	CLI_OPT_VERBOSE(struct args),
	OPT_VERSION_ROW,
	OPT_HELP_ROW,
	{ NULL },
};

static int repeat(const char **arr, int *n, const char *name, const char *arg)
{
	if (*n == MAX_REPEAT) {
		log_err("--%s: at most %d times", name, MAX_REPEAT);
		return EX_USAGE;
	}
	arr[(*n)++] = arg;
	return 0;
}

/* --kernel NAME: whose device polling (pollkern.h). */
static int opt_kernel(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	char names[128];
	if ((a->kern = pollkern_find(arg)))
		return 0;
	return cli_bad(d->name, arg, pollkern_names(names, sizeof(names)));
}

/* --sysctl NAME=VALUE, and --pollhz and --burst-max as the kern.polling knobs they set
 * (their rows fill a knob_buf): knobs set at start, in the order given. */
static int opt_knob(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	uint64_t v;
	if (!d->size)
		return strchr(arg, '=') ? repeat(a->knobs, &a->nknobs, d->name, arg) : opt_bad(d, arg);
	if (num_u64(arg, d->min, d->max, &v))
		return opt_bad(d, arg);
	char *b = (char *)base + d->off, *dash;
	snprintf(b, d->size, "kern.polling.%s=%llu", d->name, (unsigned long long)v);
	if ((dash = strchr(b, '-')))
		*dash = '_';   /* burst-max: kern.polling.burst_max */
	return repeat(a->knobs, &a->nknobs, d->name, b);
}

/* --cpus LIST: CPU numbers this process may use, comma-separated. */
static int parse_cpus(struct args *a)
{
	unsigned n;
	int rc = cli_cpus(a->cpus_arg, a->cpus, FWD_MAX_THREADS, &n);
	a->ncpus = (int)n;
	return rc;
}

/* --vlan: each PORT=... names -i's or -o's interface, once; into a->vlan[]. The
 * interface names are the targets of the port specs (afpacket:rut0 is rut0). */
static int parse_vlans(struct args *a)
{
	char tg[2][64], be[16], err[256];
	for (int i = 0; i < 2; i++)
		if (!a->specs[i] || port_spec_parse(a->specs[i], be, tg[i], err, sizeof(err)))
			tg[i][0] = 0;
	bool seen[2] = { false, false };
	for (int k = 0; k < a->nvlans; k++) {
		char port[64];
		struct vlan_port v;
		if (vlan_parse(a->vlans[k], port, sizeof(port), &v, err, sizeof(err))) {
			log_err("--vlan %s: %s", a->vlans[k], err);
			return EX_USAGE;
		}
		int i = !strcmp(port, tg[0]) && tg[0][0] ? 0 : !strcmp(port, tg[1]) && tg[1][0] ? 1 : -1;
		if (i < 0) {
			log_err("--vlan %s: %s is not a port; expected the interface of -i or -o "
				"(%s, %s)", a->vlans[k], port, tg[0][0] ? tg[0] : "none",
				tg[1][0] ? tg[1] : "none");
			return EX_USAGE;
		}
		if (seen[i]) {
			log_err("--vlan %s: %s has a vlan already (one vlan interface a port)",
				a->vlans[k], port);
			return EX_USAGE;
		}
		seen[i] = true;
		a->vlan[i] = v;
	}
	if (a->nvlans && a->l2) {
		log_err("--vlan %s: not with --l2 (the bridge passes frames as they are)", a->vlans[0]);
		return EX_USAGE;
	}
	return 0;
}

/* The ports as route specs name them. */
static void ports_of(const struct fwd *f, struct rt_ports *rp)
{
	memset(rp, 0, sizeof(*rp));
	rp->n = f->nports;
	for (int i = 0; i < f->nports; i++) {
		rp->names[i] = f->ports[i].name;
		rp->addr_be[i] = f->ports[i].ip;
		rp->plen[i] = f->ports[i].plen;
		memcpy(rp->addr6[i], f->ports[i].ip6, 16);
		rp->plen6[i] = f->ports[i].plen6;
	}
}

/* Routes and neighbours from the command line and the route file. */
static int load_tables(const struct args *a, struct fwd *f, struct fwdloop_info *info)
{
	struct rt_ports rp;
	char msg[256];
	ports_of(f, &rp);
	for (int i = 0; i < a->nroutes; i++) {
		uint32_t pfx, gw;
		uint8_t len, p6[16], g6[16];
		int port, col, rc;
		const char *s = a->routes[i];
		bool six = rt_spec_is6(s, strlen(s));
		if (six ? rt6_parse(s, strlen(s), &rp, p6, &len, g6, &port, &col, msg, sizeof(msg))
			: rt_parse(s, strlen(s), &rp, &pfx, &len, &gw, &port, &col, msg, sizeof(msg))) {
			log_err("--route %s: column %d: %s", s, col, msg);
			return EX_USAGE;
		}
		rc = six ? rt6_add(f->rt, p6, len, g6, port) : rt_add(f->rt, pfx, len, gw, port);
		if (rc)
			return EX_OSERR;
	}
	uint64_t t0 = mono_ns();
	if (a->route_file) {
		int line, col;
		int n = rt_load_file(f->rt, a->route_file, &rp, &line, &col, msg, sizeof(msg));
		if (n < 0) {
			if (line)
				log_err("%s:%d:%d: %s", a->route_file, line, col, msg);
			else
				log_err("%s: %s", a->route_file, msg);
			return line ? EX_DATAERR : EX_NOINPUT;
		}
	}
	for (int i = 0; i < a->nneigh; i++) {
		uint32_t ip;
		uint8_t ip6[16], mac[6];
		int port, af;
		if (nt_parse(a->neigh[i], &rp, &af, &ip, ip6, mac, &port, msg, sizeof(msg))) {
			log_err("--neigh %s: %s", a->neigh[i], msg);
			return EX_USAGE;
		}
		if (af == AF_INET6 ? nt6_add(f->nt, port, ip6, mac) : nt_add(f->nt, port, ip, mac))
			return EX_OSERR;
	}
	if (fwd_ready(f)) {
		log_err("out of memory building the routing table");
		return EX_OSERR;
	}
	info->route_load_ms = (double)(mono_ns() - t0) / 1e6;
	info->routes = rt_count(f->rt);
	info->neighbours = nt_count(f->nt);
	if (a->route_file)
		log_warn("%d routes (%s) loaded in %.0f ms", info->routes, a->route_file,
			 info->route_load_ms);
	return 0;
}

/* --sysctl and the shortcuts, in order, with sysctl(8)'s checks and messages. */
static int apply_knobs(const struct args *a, struct fwdloop *s)
{
	int n;
	const struct bsdctl_oid *tab = rut_sysctl_table(&n);
	/* thread 0's context; the others replay its writes when they start */
	struct rut_sysctl_ctx ctx = { .poll = fwdloop_poll0(s), .fw = fwdloop_fwd(s)->fw, .boot = true,
				      .knob_hook = fwdloop_knob_written, .hook_arg = s };
	for (int i = 0; i < a->nknobs; i++) {
		struct sbuf out, err;
		char *argv[1] = { strdup(a->knobs[i]) };   /* bsdctl_sysctl's words are its own */
		if (!argv[0])
			return EX_OSERR;
		sbuf_init(&out, 0);
		sbuf_init(&err, 0);
		int st = bsdctl_sysctl(tab, n, &ctx, 1, argv, &out, &err);
		free(argv[0]);
		if (st) {
			size_t l = err.len;
			while (l && err.s[l - 1] == '\n')
				err.s[--l] = 0;
			log_err("--sysctl %s: %s", a->knobs[i], sbuf_data(&err));
		} else if (log_level() >= 2) {
			fputs(sbuf_data(&out), stderr);
		}
		sbuf_free(&out);
		sbuf_free(&err);
		if (st)
			return EX_USAGE;
	}
	return 0;
}

struct snap {
	struct fwd_totals t;
	uint64_t cpu_ns;
};

static uint64_t ldp(const _Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static void report_interval(const struct args *a, struct fwdloop *s, const struct snap *c,
			    const struct snap *p, uint64_t t_ns, uint64_t dt_ns)
{
	double cpu_pct = dt_ns ? 100.0 * (double)(c->cpu_ns - p->cpu_ns) / (double)dt_ns : 0;
	if (a->com.json) {
		json_t *o = jout_obj("rut", "interval");
		jset_u64(o, "t_ns", t_ns);
		jset_u64(o, "dt_ns", dt_ns);
		jset_u64(o, "rx_pkts", c->t.rx_pkts - p->t.rx_pkts);
		jset_u64(o, "fwd_pkts", c->t.fwd_pkts - p->t.fwd_pkts);
		jset_u64(o, "drop_pkts", c->t.drop_pkts - p->t.drop_pkts);
		jset_u64(o, "kernel_drops", c->t.kernel_drops - p->t.kernel_drops);
		jset_f(o, "fwd_pps", rate_per_s(c->t.fwd_pkts, p->t.fwd_pkts, dt_ns));
		jset_f(o, "fwd_cpu_pct", cpu_pct);
		if (fwdloop_mode(s) == RUT_POLL) {
			/* the poll clock: pollhz on DragonFly, kern.hz on FreeBSD */
			jset_u64(o, fwdloop_poll0(s)->kern->has_pollhz ? "pollhz" : "hz",
				 ldp(&fwdloop_pub(s)->pollhz));
			jset_u64(o, "burst", ldp(&fwdloop_pub(s)->burst));
			jset_u64(o, "lost_polls", ldp(&fwdloop_pub(s)->lost_polls));
		}
		jout_emit(stdout, o);
		return;
	}
	char b1[32], b2[32], b3[32], b4[32];
	printf("%8.1f %12s %12s %10s %12s %6.1f", (double)t_ns / 1e9,
	       fmt_thousands((uint64_t)(rate_per_s(c->t.rx_pkts, p->t.rx_pkts, dt_ns) + .5), b1, sizeof(b1)),
	       fmt_thousands((uint64_t)(rate_per_s(c->t.fwd_pkts, p->t.fwd_pkts, dt_ns) + .5), b2, sizeof(b2)),
	       fmt_thousands(c->t.drop_pkts - p->t.drop_pkts, b4, sizeof(b4)),
	       fmt_thousands(c->t.kernel_drops - p->t.kernel_drops, b3, sizeof(b3)), cpu_pct);
	if (fwdloop_mode(s) == RUT_POLL)
		printf(" %6llu %5llu", (unsigned long long)ldp(&fwdloop_pub(s)->pollhz),
		       (unsigned long long)ldp(&fwdloop_pub(s)->burst));
	printf("\n");
	fflush(stdout);
}

static uint64_t ju(const json_t *o, const char *k)
{
	return (uint64_t)json_integer_value(json_object_get(o, k));
}

static void report_summary(const struct args *a, struct fwdloop *s, uint64_t dur_ns, int sig)
{
	json_t *o = rutstats_json(s, "summary");
	uint64_t fwd = (uint64_t)json_integer_value(json_object_get(o, "fwd_pkts"));
	if (a->com.json) {
		jset_u64(o, "duration_ns", dur_ns);
		jset_f(o, "fwd_pps", dur_ns ? (double)fwd * 1e9 / (double)dur_ns : 0);
		jset_b(o, "interrupted", sig != 0);
		jout_emit(stdout, o);
		return;
	}
	char b1[32], b2[32], b3[32];
	printf("received %s, forwarded %s, dropped %llu (kernel ring drops %s) in %.3f s; "
	       "CPU %.2f s (forwarding thread%s %.2f s)\n",
	       fmt_thousands(ju(o, "rx_pkts"), b1, sizeof(b1)), fmt_thousands(fwd, b2, sizeof(b2)),
	       (unsigned long long)ju(o, "drop_pkts"),
	       fmt_thousands(ju(o, "kernel_drops"), b3, sizeof(b3)),
	       (double)dur_ns / 1e9, json_real_value(json_object_get(o, "cpu_s")),
	       fwdloop_nthr(s) > 1 ? "s" : "", (double)fwdloop_cpu_ns(s) / 1e9);
	json_t *th;
	size_t i;
	json_array_foreach(fwdloop_nthr(s) > 1 ? json_object_get(o, "threads") : NULL, i, th)
		printf("thread %zu: received %s, forwarded %s, dropped %llu, CPU %.2f s\n", i,
		       fmt_thousands(ju(th, "rx_pkts"), b1, sizeof(b1)),
		       fmt_thousands(ju(th, "fwd_pkts"), b2, sizeof(b2)),
		       (unsigned long long)ju(th, "drop_pkts"),
		       json_real_value(json_object_get(th, "cpu_s")));
	json_t *fo = json_object_get(o, "fw");
	if (fo && json_integer_value(json_object_get(fo, "enable")))
		printf("firewall: %lld rules, %lld packets denied\n",
		       (long long)json_integer_value(json_object_get(fo, "static_count")),
		       (long long)json_integer_value(json_object_get(fo, "denied_pkts")));
	/* polling: thread 0's clock and burst, the counters and lateness of all threads */
	json_t *po = json_object_get(o, "polling"), *late = json_object_get(po, "tick_late_ns");
	const struct devpoll *p = fwdloop_poll0(s);
	double p50 = (double)ju(late, "p50") / 1e3, p99 = (double)ju(late, "p99") / 1e3,
	       mx = (double)ju(late, "max") / 1e3;
	if (fwdloop_mode(s) == RUT_POLL)
		printf("polling (%s): %s %llu, burst %llu of %llu, %llu ticks, lost_polls %llu, "
		       "tick lateness p50 %.1f us, p99 %.1f us, max %.1f us\n", p->kern->name,
		       p->kern->has_pollhz ? "pollhz" : "hz", (unsigned long long)ju(po, "clock_hz"),
		       (unsigned long long)ju(po, "burst"), (unsigned long long)ju(po, "burst_max"),
		       (unsigned long long)ju(po, "ticks"), (unsigned long long)ju(po, "lost_polls"),
		       p50, p99, mx);
	if (fwdloop_mode(s) == RUT_POLL && !fwdloop_rt_prio(s))
		printf("polling: normal priority (no --rt-prio): ticks ran late by p99 %.1f us, "
		       "max %.1f us; %llu deadlines passed unseen, %llu ticks waited for the end "
		       "of a round the host delayed, and the thread%s descheduled for %.1f ms "
		       "of %s rounds: the host's scheduling, which the kernel would not see\n",
		       p99, mx, (unsigned long long)ju(po, "clock_skips"),
		       (unsigned long long)ju(po, "ticks_deferred"),
		       fwdloop_nthr(s) > 1 ? "s were" : " was", (double)ju(po, "stolen_ns") / 1e6,
		       fwdloop_nthr(s) > 1 ? "their" : "its");
	json_decref(o);
}

/* Every IPv4 address of this namespace: what `me` matches
 * (docs/design/ipfw.md#addresses). */
static int local_addrs(uint32_t *out, int max)
{
	struct ifaddrs *ifa, *i;
	int n = 0;
	if (getifaddrs(&ifa))
		return 0;
	for (i = ifa; i && n < max; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET)
			out[n++] = ((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr;
	freeifaddrs(ifa);
	return n;
}

/* Every IPv6 address of this namespace: what `me` and `me6` match on IPv6
 * (search_ip6_addr_net: any interface's, link-local ones too). */
static int local_addrs6(uint8_t *out, int max)
{
	struct ifaddrs *ifa, *i;
	int n = 0;
	if (getifaddrs(&ifa))
		return 0;
	for (i = ifa; i && n < max; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET6)
			memcpy(out + 16 * n++,
			       ((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr.s6_addr, 16);
	freeifaddrs(ifa);
	return n;
}

/* The firewall, always present (ipfw commands work on it through --ctl); consulted only
 * when --rules or --default-accept turned it on, or net.inet.ip.fw.enable=1 later. */
static int setup_fw(const struct args *a, struct fwd *f, struct fwlog *log)
{
	const char *names[FWD_MAX_PORTS];
	uint32_t addrs[FWD_MAX_PORTS], local[256];
	for (int i = 0; i < f->nports; i++) {
		names[i] = f->ports[i].name;   /* a trunk port's vlan interface: rut0.100 */
		addrs[i] = f->ports[i].ip;
	}
	struct fw *fw = fw_new(names, f->nports, local, local_addrs(local, 256));
	if (!fw || fwd_set_fw(f, fw)) {
		fw_free(fw);
		log_err("cannot create the firewall: %s", strerror(errno ? errno : ENOMEM));
		return EX_OSERR;
	}
	fw_set_if_addrs(fw, addrs, f->nports);
	uint8_t local6[64 * 16];
	if (fw_set_local6(fw, local6, local_addrs6(local6, 64))) {
		log_err("cannot create the firewall: %s", strerror(ENOMEM));
		return EX_OSERR;
	}
	fwlog_init(log);
	fw_set_log(fw, fwlog_push, log);
	f->log = log;
	struct fw_tunables *t = fw_tunables(fw);
	t->enable = a->rules || a->default_accept;
	t->default_to_accept = a->default_accept;
	/* The firewall follows FreeBSD 14 unless DragonFly is asked for by name: --kernel
	 * dragonfly-* or --range-policy clamp|round given on the command line. The default
	 * kernel personality alone does not change ipfw's semantics. */
	if (a->range_set)
		t->skipto_dragonfly = a->range != PK_RANGE_EINVAL;
	else
		t->skipto_dragonfly = a->kern_set && a->kern->range != PK_RANGE_EINVAL;
	if (a->rules) {
		struct fw_diag d = { 0 };
		char buf[512];
		uint64_t t0 = mono_ns();
		int lrc = fw_load_file(fw, a->rules, &d);
		if (d.warn[0])
			fputs(d.warn, stderr);
		if (lrc < 0) {
			log_err("%s", fw_diag_str(&d, buf, sizeof(buf)));
			return d.ex ? d.ex : EX_DATAERR;
		}
		log_info("%d rules (%s) loaded in %.0f ms", fw_rule_count(fw), a->rules,
			 (double)(mono_ns() - t0) / 1e6);
	}
	return 0;
}

struct check_ctx {
	int n;
};

static void print_diag(void *arg, const struct fw_diag *d)
{
	char buf[512];
	if (!d->ex) {   /* the file's warnings, printed as `add` prints them */
		fputs(d->warn, stderr);
		return;
	}
	((struct check_ctx *)arg)->n++;
	fprintf(stderr, "%s\n", fw_diag_str(d, buf, sizeof(buf)));
}

/* --check-rules FILE: every error, as FILE:LINE:COLUMN: message; EX_DATAERR if any.
 * Interface names come from -i/-o when given (without opening the ports). */
static int check_rules(const struct args *a)
{
	char be[16], tgt[2][64], vname[2][16], err[256];
	const char *names[2];
	int n = 0;
	for (int i = 0; i < 2; i++)
		if (a->specs[i] && !port_spec_parse(a->specs[i], be, tgt[i], err, sizeof(err)))
			names[n++] = vlan_ifname(tgt[i], &a->vlan[i], vname[i], sizeof(vname[i]))
				     ? tgt[i] : vname[i];
	struct check_ctx c = { 0 };
	int rc = fw_check_file_all(a->check_rules, names, n, print_diag, &c);
	if (rc < 0) {
		log_err("%s: %s", a->check_rules, strerror(-rc));
		return rc == -ENOENT || rc == -EACCES ? EX_NOINPUT : EX_IOERR;
	}
	return rc > 0 ? EX_DATAERR : EX_OK;
}

static void warn_kernel_stack(const struct fwd *f)
{
	char why[160];
	for (int i = 0; i < f->nports; i++)
		if (!f->l2 && kstack_forwards(f->ports[i].ifname, why, sizeof(why)))
			log_warn("%s: the kernel forwards these frames too (%s): each would arrive "
				 "twice; turn it off (sysctl -w net.ipv4.conf.%s.forwarding=0, and "
				 "net.ipv6's) or shield the port (ppslab lab shield on)",
				 f->ports[i].ifname, why, f->ports[i].ifname);
}

/* --user: the control socket becomes the user's (so that it can still unlink it and
 * the user's clients pass the peer check), then root is dropped. */
static int drop_to_user(struct args *a)
{
	char err[256];
	if (a->ctl_path && chown(a->ctl_path, a->com.pu.uid, a->com.pu.gid) < 0) {
		log_err("--user %s: cannot hand the control socket %s over: %s", a->com.user,
			a->ctl_path, strerror(errno));
		return EX_NOPERM;
	}
	if (priv_drop(&a->com.pu, err, sizeof(err))) {
		log_err("%s", err);
		return EX_NOPERM;
	}
	return 0;
}

/* Forwarding, tables loaded, the control socket listening, root dropped: ready.h. */
static void announce_ready(struct args *a, const struct fwd *f)
{
	struct ready r;
	cli_ready_init(&r, "rut", &a->com);
	r.has_ctl = true;
	r.ctl = a->ctl_path;
	for (int i = 0; i < f->nports; i++)
		ready_port_add(&r, f->ports[i].port);
	cli_ready_announce(&r);
}

static int run(struct args *a, struct fwlog *log)
{
	char err[256];
	int rc, sig = 0;
	struct fwd *f = calloc(1, sizeof(*f));
	struct fwdloop *s = fwdloop_new();
	struct ctl *ctl = NULL;
	struct runctl rctl;
	if (!f || !s) {
		free(f);
		fwdloop_free(s);
		return EX_OSERR;
	}
	if ((rc = fwd_init(f, a->specs, 2, 1514, (int)a->threads, a->vlan, err, sizeof(err)))) {
		log_err("%s", err);
		rc = cli_exit_code(rc);
		goto out;
	}
	f->l2 = a->l2;
	/* a broken forwarder, for the test suite to prove it catches one (fwd.h) */
	const char *fe = getenv("PPSLAB_RUT_FAULT_DROP_EVERY");
	if (fe && *fe) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(fe, &end, 10);
		if (errno || *end || v < 1 || v > UINT32_MAX || *fe == '-') {
			log_err("PPSLAB_RUT_FAULT_DROP_EVERY=%s: expected a whole number 1..%u", fe,
				UINT32_MAX);
			rc = EX_USAGE;
			goto out;
		}
		f->fault_drop_every = (uint32_t)v;
		log_warn("PPSLAB_RUT_FAULT_DROP_EVERY=%lu: every %lu-th frame to send is discarded "
			 "and counted as sent (a fault for the test suite)", v, v);
	}
	struct fwdloop_info info = { 0 };
	if ((rc = load_tables(a, f, &info)) || (rc = setup_fw(a, f, log)))
		goto out;
	warn_kernel_stack(f);
	runctl_init(&rctl);
	if (a->ctl_path && (rc = ctl_open(&ctl, a->ctl_path, err, sizeof(err)))) {
		log_err("--ctl %s", err);
		rc = cli_exit_code(rc);
		goto out;
	}
	if ((rc = fwdloop_init(s, f, a->mode, a->kern, (int)a->burst, a->spin_ns, &rctl,
			       ctl_mailbox(ctl), a->cpus, a->ncpus))) {
		log_err("scheduler: %s", strerror(-rc));
		rc = EX_OSERR;
		goto out;
	}
	if (a->range_set)
		fwdloop_set_range(s, a->range);
	info.t0_ns = fwdloop_info(s)->t0_ns;
	*fwdloop_info(s) = info;
	fwdloop_set_cmd(s, cmd_hook, s);
	if ((rc = apply_knobs(a, s)))
		goto out;
	bool rt_ok;
	if ((rc = fwdloop_start(s, (int)a->rt_prio, &rt_ok))) {
		log_err("cannot start the forwarding threads: %s", strerror(-rc));
		atomic_store(&rctl.stop, 1);
		fwdloop_join(s);
		ctl_forwarder_gone(ctl);
		rc = EX_OSERR;
		goto out;
	}
	if (a->rt_prio && !rt_ok)
		log_warn("--rt-prio: not permitted to run SCHED_FIFO (needs CAP_SYS_NICE); "
			 "the forwarding threads run at normal priority");
	/* the user may not be allowed to remove the socket from its directory: a guard
	 * that stays root removes it when we end (ctl.h) */
	if (a->com.user && ctl && ctl_guard(ctl))
		log_warn("--user: cannot start the process that removes %s at exit", a->ctl_path);
	/* after the thread got its SCHED_FIFO priority: the drop covers every thread */
	if (a->com.user && (rc = drop_to_user(a))) {
		atomic_store(&rctl.stop, 1);
		fwdloop_join(s);
		ctl_forwarder_gone(ctl);
		goto out;
	}
	announce_ready(a, f);
	if (!a->com.json) {
		printf("%8s %12s %12s %10s %12s %6s%s\n", "time", "rx pps", "fwd pps", "dropped",
		       "kernel drops", "cpu %", a->mode != RUT_POLL ? ""
		       : a->kern->has_pollhz ? " pollhz burst" : "     hz burst");
		fflush(stdout);
	}
	struct snap prev = { 0 }, cur;
	uint64_t t0 = fwdloop_info(s)->t0_ns, last = mono_ns(), next = last + a->com.interval_ns;
	uint64_t end = a->duration_ns ? t0 + a->duration_ns : UINT64_MAX;
	for (;;) {
		int g = runctl_wait_until(&rctl, next < end ? next : end);
		if (g == SIGINT || g == SIGTERM) {
			sig = g;
			break;
		}
		if (g == SIGUSR1 && fwdloop_running(s) < fwdloop_nthr(s))
			break;   /* a forwarding thread failed */
		uint64_t now = mono_ns();
		if (now >= end)
			break;
		if (now < next)
			continue;
		fwlog_drain(log, stderr);
		fwd_totals(f, &cur.t);
		cur.cpu_ns = fwdloop_cpu_ns(s);
		report_interval(a, s, &cur, &prev, now - t0, now - last);
		prev = cur;
		last = now;
		next += a->com.interval_ns;
	}
	atomic_store(&rctl.stop, 1);
	fwdloop_join(s);
	ctl_forwarder_gone(ctl);
	fwlog_drain(log, stderr);
	report_summary(a, s, mono_ns() - t0, sig);
	rc = EX_OK;
	for (int i = 0; i < fwdloop_nthr(s); i++)
		if (fwdloop_thr_err(s, i)) {
			log_err("forwarding failed (thread %d): %s", i, strerror(-fwdloop_thr_err(s, i)));
			rc = cli_exit_code(fwdloop_thr_err(s, i));
			break;
		}
out:
	ctl_close(ctl);
	fwdloop_free(s);
	fwd_fini(f);
	free(f);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { .com = CLI_COMMON_INIT, .kern = pollkern_find(PK_DEFAULT) };
	int rc;

	log_init("ppslab-rut", 1);
	if (argc >= 2 && !strcmp(argv[1], "ctl")) {
		if (argc < 4) {
			log_err("usage: ppslab-rut ctl PATH sysctl|ipfw|stats [ARGS...]");
			return EX_USAGE;
		}
		return ctl_client(argv[2], argc - 3, argv + 3);
	}
	static char ports[256], ihelp[320];
	snprintf(ihelp, sizeof(ihelp), "first port: %s",
		 port_specs_help(PORT_RX | PORT_TX, 1, ports, sizeof(ports)));
	opt_set_help(opts, "in", ihelp);
	struct opt_prog prog = { "ppslab-rut", SYNOPSIS, opts };
	if ((rc = opt_parse(&prog, argc, argv, &a, NULL)))
		return rc == OPT_DONE ? EX_OK : rc;
	log_init("ppslab-rut", a.com.verbose);
	a.kern_set = opt_seen(opts, "kernel") > 0;
	a.pollhz_set = opt_seen(opts, "pollhz") > 0;
	a.range_set = opt_seen(opts, "range-policy") > 0;
	if ((rc = parse_vlans(&a)))
		return rc;
	if (a.check_rules)
		return check_rules(&a);
	if (a.cpus_arg && (rc = parse_cpus(&a)))
		return rc;
	if (a.pollhz_set && !a.kern->has_pollhz) {
		log_err("--pollhz: %s has no kern.polling.pollhz: it polls at kern.hz "
			"(--sysctl kern.hz=N)", a.kern->name);
		return EX_USAGE;
	}
	if ((rc = cli_user_lookup(&a.com)))
		return rc;
	if (!a.specs[0] || !a.specs[1]) {
		log_err("give both ports: -i PORTSPEC -o PORTSPEC (e.g. -i rut0 -o rut1)");
		return EX_USAGE;
	}
	struct fwlog *log = calloc(1, sizeof(*log));
	if (!log)
		return EX_OSERR;
	rc = run(&a, log);
	free(log);
	return rc;
}
