/* main.c — ppslab-gen: options, address resolution, the interval reporter and the
 * summary. The transmit loop is gen.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "fmt.h"
#include "gen.h"
#include "ifinfo.h"
#include "jout.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "version.h"

static const struct opt_def opts[] = {
	{ "iface", 'i', "PORTSPEC", "send on this port: afpacket:IF, pcap:IF, udp:ADDR:PORT (or IF)" },
	{ "dst", 'd', "ADDR", "destination IPv4 address (default 198.19.0.2, the lab's sink)" },
	{ "src", 0, "ADDR", "source IPv4 address (default: the interface's own)" },
	{ "dst-mac", 0, "MAC", "destination MAC (default: from the neighbour table via the route)" },
	{ "src-mac", 0, "MAC", "source MAC (default: the interface's own)" },
	{ "dport", 0, "PORT", "UDP destination port (default 9)" },
	{ "sport", 0, "PORT", "UDP source port (default 9)" },
	{ "rate", 'r', "RATE", "packets per second (300k, 1.5M) or max (default 10k)" },
	{ "size", 's', "BYTES", "frame size with FCS, 64..9018 (default 64, as RFC 2544 counts)" },
	{ "count", 'n', "N", "send N frames, then stop" },
	{ "duration", 't', "DUR", "send for DUR (default 10s when no --count)" },
	{ "burst", 'b', "N", "frames sent back to back per pacing deadline (default 1)" },
	{ "stream", 'S', "ID", "stream id 0..255 carried in every frame (default 0)" },
	{ "ttl", 0, "N", "IP TTL (default 64)" },
	{ "clock", 0, "CLOCK", "timestamp clock: realtime (default) or monotonic" },
	{ "interval", 'I', "DUR", "report interval (default 1s)" },
	{ "json", 'j', NULL, "JSON lines: one per interval, then a summary" },
	{ "allow-any-dst", 0, NULL, "allow destinations outside 198.18.0.0/15 and 127/8 (RFC 6815)" },
	{ "quiet", 'q', NULL, "only errors on stderr" },
	{ "verbose", 'v', NULL, "more diagnostics on stderr" },
	{ "version", 'V', NULL, "print the version" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

#define SYNOPSIS "ppslab-gen -i PORTSPEC [--dst ADDR] [--rate RATE] [--size BYTES] " \
	"[--count N | --duration DUR] [options]"

struct args {
	struct gen_cfg cfg;
	const char *dst, *src, *dst_mac, *src_mac;
	char udp_dst[64];          /* the address of a udp: port spec */
	uint64_t interval_ns;
	int json, allow_any, verbose;
	int rate_max;
};

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	uint64_t v;
	switch (key) {
	case 'i': a->cfg.port_spec = arg; break;
	case 'd': a->dst = arg; break;
	case 'r':
		if (!strcmp(arg, "max")) {
			a->rate_max = 1;
			a->cfg.rate_pps = 0;
		} else if (num_pps(arg, &a->cfg.rate_pps)) {
			return cli_bad(name, arg, "packets per second such as 300k, 1.5M, 20000 or max");
		}
		break;
	case 's':
		if (num_bytes(arg, PKT_WIRE_MIN, PKT_WIRE_MAX, &v))
			return cli_bad(name, arg, "a frame size with FCS from 64 to 9018 bytes");
		a->cfg.wire_size = (uint32_t)v;
		break;
	case 'n':
		if (num_count(arg, 1, UINT64_MAX, &a->cfg.count))
			return cli_bad(name, arg, num_expect_count());
		break;
	case 't':
		if (num_duration_ns(arg, 1, 366ULL * 86400 * NS_PER_S, &a->cfg.duration_ns))
			return cli_bad(name, arg, num_expect_duration());
		break;
	case 'b':
		if (num_u64(arg, 1, 4096, &v))
			return cli_bad(name, arg, "a burst of 1..4096 frames");
		a->cfg.burst = (uint32_t)v;
		break;
	case 'S':
		if (num_u64(arg, 0, 255, &v))
			return cli_bad(name, arg, "a stream id 0..255");
		a->cfg.stream = (uint8_t)v;
		break;
	case 'I':
		if (num_duration_ns(arg, 10 * NS_PER_MS, 3600 * NS_PER_S, &a->interval_ns))
			return cli_bad(name, arg, "an interval from 10ms to 1h");
		break;
	case 'j': a->json = 1; break;
	case 'q': a->verbose = 0; break;
	case 'v': a->verbose++; break;
	case 'V': printf("ppslab-gen %s\n", ppslab_version()); exit(0);
	case 'h': opt_usage(stdout, SYNOPSIS, opts); exit(0);
	default:
		if (!strcmp(name, "src")) a->src = arg;
		else if (!strcmp(name, "dst-mac")) a->dst_mac = arg;
		else if (!strcmp(name, "src-mac")) a->src_mac = arg;
		else if (!strcmp(name, "allow-any-dst")) a->allow_any = 1;
		else if (!strcmp(name, "dport") || !strcmp(name, "sport")) {
			if (num_u64(arg, 1, 65535, &v))
				return cli_bad(name, arg, "a UDP port 1..65535");
			if (name[0] == 'd')
				a->cfg.flow.dst_port = (uint16_t)v;
			else
				a->cfg.flow.src_port = (uint16_t)v;
		} else if (!strcmp(name, "ttl")) {
			if (num_u64(arg, 1, 255, &v))
				return cli_bad(name, arg, "a TTL 1..255");
			a->cfg.flow.ttl = (uint8_t)v;
		} else if (!strcmp(name, "clock")) {
			if (!strcmp(arg, "realtime"))
				a->cfg.realtime_ts = true;
			else if (!strcmp(arg, "monotonic"))
				a->cfg.realtime_ts = false;
			else
				return cli_bad(name, arg, "realtime or monotonic");
		}
		break;
	}
	return 0;
}

/* Fills addresses the user did not give from the interface, the routing table and the
 * neighbour table, as the kernel would for a packet to dst. */
static int resolve(struct args *a, const char *ifname)
{
	struct pkt_flow *f = &a->cfg.flow;
	char ip[16];
	if (ip4_parse(a->dst, &f->dst_ip))
		return cli_bad("dst", a->dst, "an IPv4 address");
	if (!a->allow_any && !cli_dst_allowed(f->dst_ip)) {
		log_err("refusing to send to %s: outside the benchmarking range 198.18.0.0/15 "
			"(RFC 2544/6815); use --allow-any-dst in an isolated lab", a->dst);
		return EX_USAGE;
	}
	if (a->src) {
		if (ip4_parse(a->src, &f->src_ip))
			return cli_bad("src", a->src, "an IPv4 address");
	} else if (*ifname && if_ip4(ifname, &f->src_ip, NULL)) {
		log_err("%s has no IPv4 address; give --src", ifname);
		return EX_USAGE;
	}
	if (a->src_mac) {
		if (mac_parse(a->src_mac, f->src_mac))
			return cli_bad("src-mac", a->src_mac, "a MAC such as 02:00:00:00:00:01");
	} else if (*ifname && if_hwaddr(ifname, f->src_mac)) {
		log_err("cannot read the MAC of %s; give --src-mac", ifname);
		return EX_UNAVAILABLE;
	}
	if (a->dst_mac) {
		if (mac_parse(a->dst_mac, f->dst_mac))
			return cli_bad("dst-mac", a->dst_mac, "a MAC such as 02:00:00:00:00:01");
	} else if (*ifname) {
		char rif[IFINFO_NAMESZ] = "";
		uint32_t gw = 0, hop;
		if (route_lookup(f->dst_ip, rif, &gw)) {
			log_err("no route to %s; give --dst-mac", a->dst);
			return EX_UNAVAILABLE;
		}
		if (strcmp(rif, ifname))
			log_warn("the route to %s leaves via %s, not %s", a->dst, rif, ifname);
		hop = gw ? gw : f->dst_ip;
		if (neigh_lookup(ifname, hop, f->dst_mac)) {
			ip4_format(hop, ip);
			log_err("no neighbour entry for next hop %s on %s; give --dst-mac or add "
				"one (ip neigh add %s lladdr MAC dev %s nud permanent)", ip, ifname,
				ip, ifname);
			return EX_UNAVAILABLE;
		}
	}
	return 0;
}

static void print_header(void)
{
	printf("%8s %12s %12s %12s %10s %10s %9s\n", "time", "pps", "Mbit/s L2", "Mbit/s L1",
	       "failed", "full", "rate err");
}

static void report_interval(struct args *a, const struct gen_snap *s, const struct gen_snap *p,
			    uint64_t t_ns, uint64_t dt_ns)
{
	double pps = rate_per_s(s->tx_pkts, p->tx_pkts, dt_ns);
	double l2 = pkt_l2_bps(pps, a->cfg.wire_size), l1 = pkt_l1_bps(pps, a->cfg.wire_size);
	double err = a->cfg.rate_pps > 0 ? pct_error(pps, a->cfg.rate_pps) : 0;
	if (a->json) {
		json_t *o = jout_obj("gen", "interval");
		jset_u64(o, "t_ns", t_ns);
		jset_u64(o, "dt_ns", dt_ns);
		jset_u64(o, "tx_pkts", s->tx_pkts - p->tx_pkts);
		jset_u64(o, "tx_bytes", s->tx_bytes - p->tx_bytes);
		jset_u64(o, "tx_fail", s->tx_fail - p->tx_fail);
		jset_u64(o, "tx_full", s->tx_full - p->tx_full);
		jset_f(o, "pps", pps);
		jset_f(o, "l2_bps", l2);
		jset_f(o, "l1_bps", l1);
		if (a->cfg.rate_pps > 0)
			jset_f(o, "rate_error_pct", err);
		jout_emit(stdout, o);
	} else {
		char b[32];
		printf("%8.1f %12s %12.3f %12.3f %10llu %10llu %+8.2f%%\n", (double)t_ns / 1e9,
		       fmt_thousands((uint64_t)(pps + 0.5), b, sizeof(b)), l2 / 1e6, l1 / 1e6,
		       (unsigned long long)(s->tx_fail - p->tx_fail),
		       (unsigned long long)(s->tx_full - p->tx_full), err);
		fflush(stdout);
	}
}

static void report_summary(struct args *a, struct gen *g, const struct gen_snap *s,
			   const struct if_counters *if0, const struct if_counters *if1,
			   int have_if, int sig)
{
	uint64_t dur = s->last_ns > s->first_ns ? s->last_ns - s->first_ns : 0;
	/* duration spans first to last send: n frames occupy n-1 gaps of 1/rate */
	double pps = (dur && s->tx_pkts > 1) ? (double)(s->tx_pkts - 1) * 1e9 / (double)dur
					    : (double)s->tx_pkts;
	double err = a->cfg.rate_pps > 0 ? pct_error(pps, a->cfg.rate_pps) : 0;
	int rate_ok = a->cfg.rate_pps <= 0 || (err > -0.5 && err < 0.5);
	char dst[16], src[16];
	ip4_format(a->cfg.flow.dst_ip, dst);
	ip4_format(a->cfg.flow.src_ip, src);
	if (a->json) {
		json_t *o = jout_obj("gen", "summary");
		jset_s(o, "version", ppslab_version());
		jset_s(o, "port", port_spec(g->port));
		jset_s(o, "backend", port_backend(g->port));
		jset_s(o, "src", src);
		jset_s(o, "dst", dst);
		jset_u64(o, "dport", a->cfg.flow.dst_port);
		jset_u64(o, "stream", a->cfg.stream);
		jset_u64(o, "wire_size", a->cfg.wire_size);
		jset_f(o, "target_pps", a->cfg.rate_pps > 0 ? a->cfg.rate_pps : NAN);
		jset_u64(o, "tx_attempt", s->tx_attempt);
		jset_u64(o, "tx_pkts", s->tx_pkts);
		jset_u64(o, "tx_bytes", s->tx_bytes);
		jset_u64(o, "tx_fail", s->tx_fail);
		jset_u64(o, "tx_full", s->tx_full);
		jset_u64(o, "late", s->late);
		jset_u64(o, "duration_ns", dur);
		jset_f(o, "pps", pps);
		jset_f(o, "l2_bps", pkt_l2_bps(pps, a->cfg.wire_size));
		jset_f(o, "l1_bps", pkt_l1_bps(pps, a->cfg.wire_size));
		if (a->cfg.rate_pps > 0)
			jset_f(o, "rate_error_pct", err);
		jset_b(o, "rate_ok", rate_ok);
		if (have_if) {
			jset_u64(o, "if_tx_packets", if1->tx_packets - if0->tx_packets);
			jset_u64(o, "if_tx_dropped", if1->tx_dropped - if0->tx_dropped);
			jset_u64(o, "if_tx_errors", if1->tx_errors - if0->tx_errors);
		}
		jset_b(o, "interrupted", sig != 0);
		jout_emit(stdout, o);
	} else {
		char b1[32], b2[32];
		printf("sent %s frames of %u B in %.3f s: %s pps, %.3f Mbit/s L2, %.3f Mbit/s L1\n",
		       fmt_thousands(s->tx_pkts, b1, sizeof(b1)), a->cfg.wire_size, (double)dur / 1e9,
		       fmt_thousands((uint64_t)(pps + 0.5), b2, sizeof(b2)),
		       pkt_l2_bps(pps, a->cfg.wire_size) / 1e6, pkt_l1_bps(pps, a->cfg.wire_size) / 1e6);
		printf("failed %llu, ring full %llu times, late batches %llu",
		       (unsigned long long)s->tx_fail, (unsigned long long)s->tx_full,
		       (unsigned long long)s->late);
		if (a->cfg.rate_pps > 0)
			printf("; target %.0f pps, error %+.2f%%%s", a->cfg.rate_pps, err,
			       rate_ok ? "" : " (MISSED the target rate)");
		printf("\n");
		if (have_if)
			printf("interface %s: tx_packets +%llu, tx_dropped +%llu\n", port_ifname(g->port),
			       (unsigned long long)(if1->tx_packets - if0->tx_packets),
			       (unsigned long long)(if1->tx_dropped - if0->tx_dropped));
	}
}

struct worker_arg {
	struct gen *g;
	struct runctl *rc;
	int ret;
};

static void *worker(void *p)
{
	struct worker_arg *w = p;
	w->ret = gen_run(w->g, w->rc);
	return NULL;
}

int main(int argc, char **argv)
{
	struct args a = {
		.cfg = { .wire_size = 64, .rate_pps = 10000, .burst = 1, .realtime_ts = true,
			 .flow = { .src_port = PKT_DEFAULT_SPORT, .dst_port = PKT_DEFAULT_DPORT,
				   .ttl = 64 } },
		.dst = "198.19.0.2",
		.interval_ns = NS_PER_S,
		.verbose = 1,
	};
	int first, rc;
	char err[256];

	log_init("ppslab-gen", 1);
	if ((rc = opt_parse(argc, argv, opts, handle, &a, &first)))
		return rc;
	log_init("ppslab-gen", a.verbose);
	if (first < argc) {
		log_err("unexpected argument '%s' (see --help)", argv[first]);
		return EX_USAGE;
	}
	if (!a.cfg.port_spec) {
		log_err("no port: give -i PORTSPEC (e.g. -i gen0 or -i udp:198.19.0.2:9)");
		return EX_USAGE;
	}
	if (!a.cfg.count && !a.cfg.duration_ns)
		a.cfg.duration_ns = 10 * NS_PER_S;

	/* The interface name, for address resolution and counters (none for udp:, whose
	 * target names the destination instead). */
	char backend[16], target[64], ifname[IFINFO_NAMESZ] = "";
	if (port_spec_parse(a.cfg.port_spec, backend, target, err, sizeof(err))) {
		log_err("-i %s: %s", a.cfg.port_spec, err);
		return EX_USAGE;
	}
	if (strcmp(backend, "udp")) {
		snprintf(ifname, sizeof(ifname), "%.15s", target);
	} else {
		char *c = strrchr(target, ':');
		uint64_t port;
		if (c) {
			*c = 0;
			if (!num_u64(c + 1, 1, 65535, &port))
				a.cfg.flow.dst_port = (uint16_t)port;
			snprintf(a.udp_dst, sizeof(a.udp_dst), "%s", target);
			a.dst = a.udp_dst;
		}
	}
	if ((rc = resolve(&a, ifname)))
		return rc;

	struct gen g;
	if ((rc = gen_init(&g, &a.cfg, err, sizeof(err)))) {
		log_err("%s", err);
		return cli_exit_code(rc);
	}
	struct if_counters if0 = { 0 }, if1 = { 0 };
	int have_if = *ifname && if_counters_read(ifname, &if0) == 0;

	struct runctl rctl;
	runctl_init(&rctl);
	struct worker_arg w = { .g = &g, .rc = &rctl };
	pthread_t th;
	if (pthread_create(&th, NULL, worker, &w)) {
		log_err("cannot start the sender thread");
		return EX_OSERR;
	}
	if (!a.json)
		print_header();
	struct gen_snap prev = { 0 }, cur;
	uint64_t t0 = mono_ns(), last = t0, next = t0 + a.interval_ns;
	int sig = 0;
	for (;;) {
		int s = runctl_wait_until(&rctl, next);
		if (s == SIGINT || s == SIGTERM) {
			sig = s;
			break;
		}
		if (s == SIGUSR1)
			break;    /* the sender finished */
		uint64_t now = mono_ns();
		gen_snapshot(&g, &cur);
		report_interval(&a, &cur, &prev, now - t0, now - last);
		prev = cur;
		last = now;
		next += a.interval_ns;
	}
	atomic_store(&rctl.stop, 1);
	pthread_join(th, NULL);
	gen_snapshot(&g, &cur);
	if (cur.tx_pkts > prev.tx_pkts) {
		uint64_t now = mono_ns();
		report_interval(&a, &cur, &prev, now - t0, now - last);
	}
	if (have_if)
		have_if = if_counters_read(ifname, &if1) == 0;
	report_summary(&a, &g, &cur, &if0, &if1, have_if, sig);
	gen_fini(&g);
	if (w.ret) {
		log_err("send failed: %s", strerror(-w.ret));
		return cli_exit_code(w.ret);
	}
	return EX_OK;
}
