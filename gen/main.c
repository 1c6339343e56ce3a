/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c — ppslab-gen: options, address resolution and the benchmark-range guard, the
 * rate and profile, then either a run (workers in gen.c, lines and summary in
 * gen_report.c) or a calibration (calib.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib.h"
#include "priv.h"
#include "cli.h"
#include "clock.h"
#include "gen.h"
#include "ifinfo.h"
#include "log.h"
#include "num.h"
#include "pkt6.h"
#include "port.h"
#include "rate.h"
#include "ready.h"
#include "replay.h"
#include "gen_report.h"

/* the IPv6 sink's default address: in 2001:2::/48 (RFC 5180), as 198.19.0.2 for IPv4 */
#define GEN_DST6_DEFAULT "2001:2:0:1::2"

struct args {
	struct gen_cfg cfg;
	const char *dst, *src, *dst_mac, *src_mac, *sport, *dport;
	const char *rate, *link, *steps, *ramp, *size, *pattern, *inject, *inject_rate;
	const char *cpus, *replay, *vlan;
	uint64_t flows;
	int l1, calibrate, allow_any, ipv6;
	struct cli_common com;
	uint64_t start_at_ns;  /* --start-at (CLOCK_REALTIME ns), or 0 */
	char udp_dst[64];
	char udp_spec[160];    /* the udp: spec with ttl= from --ttl */
};

static opt_fn parse_start_at;
static const char *const flow_orders[] = { "seq", "random", NULL };
static const char *const bit_layers[] = { "L2", "L1", NULL };
static const char *const clocks[] = { "monotonic", "realtime", NULL };
static const char *const late_policies[] = { "catchup", "skip", "shift", NULL };

#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "iface", 'i', "PORTSPEC", "send on this port: afpacket:IF, pcap:IF, libnet:IF, xdp:IF, udp:ADDR:PORT (or IF)",
	  OPT_STR, A(cfg.port_spec) },
	{ "dst", 'd', "ADDR", "destination IPv4 or IPv6 address or range A-B or A/LEN (default {default}, the lab's sink; with -6 " GEN_DST6_DEFAULT ")",
	  OPT_STR, A(dst), .def = "198.19.0.2" },
	{ "src", 0, "ADDR", "source address or range, of --dst's family (default: the interface's own)", OPT_STR, A(src) },
	{ "ipv6", '6', NULL, "send IPv6 test frames (an IPv6 --dst implies it); sizes from 84", OPT_FLAG, A(ipv6) },
	{ "flow-label", 0, "N", "IPv6 flow label {range}", OPT_UINT, A(cfg.flow.flowlabel),
	  .max = PKT6_FLOWLABEL_MAX, .def = "0", .what = "a flow label {range}" },
	{ "vlan", 0, "VID[:PCP][,VID[:PCP]]", "802.1Q tag (VID 0..4094, PCP 0..7), or two for QinQ: outer (TPID 0x88a8), inner (0x8100); sizes count the tags",
	  OPT_STR, A(vlan) },
	{ "dst-mac", 0, "MAC", "destination MAC (default: from the neighbour table via the route)",
	  OPT_STR, A(dst_mac) },
	{ "src-mac", 0, "MAC", "source MAC (default: the interface's own)", OPT_STR, A(src_mac) },
	{ "dport", 0, "PORT", "UDP destination port or range P-Q (default 9)", OPT_STR, A(dport) },
	{ "sport", 0, "PORT", "UDP source port or range P-Q (default 9)", OPT_STR, A(sport) },
	{ "flows", 'f', "N", "N flows: source ports sport .. sport+N-1 (a shortcut for --sport)",
	  OPT_COUNT, A(flows), .min = 1, .max = 65535, .what = "a number of flows {range}" },
	{ "flow-order", 0, "ORDER", "walk the flows in order ({default}, default) or at random (random)",
	  OPT_ENUM, A(cfg.flows.random), .names = flow_orders, .def = "seq" },
	{ "rate", 'r', "RATE", "300k or 1.5Mpps, 100Mbit (bit/s), 50% (of --link) or max",
	  OPT_STR, A(rate), .def = "10k" },
	{ "link", 0, "SPEED", "link speed for --rate P%, e.g. 1G, 10G, 100M", OPT_STR, A(link) },
	{ "bit-layer", 0, "LAYER", "bit rates count {default} (frame with FCS, default) or L1 (+20 B preamble, SFD, gap)",
	  OPT_ENUM, A(l1), .names = bit_layers, .def = "L2", .what = "L1 or L2" },
	{ "steps", 0, "LIST", "rate profile RATE@DUR,...: e.g. 10k@5s,20k@5s,0@1s (0 pauses)",
	  OPT_LIST, A(steps) },
	{ "ramp", 0, "FROM:TO", "rate profile: linear ramp from FROM to TO over --duration", OPT_STR, A(ramp) },
	{ "poisson", 0, NULL, "Poisson arrivals (exponential gaps) at the rate or profile", OPT_FLAG, A(cfg.poisson) },
	{ "burst", 'b', "N", "frames sent back to back per deadline, per thread", OPT_UINT, A(cfg.burst),
	  .min = 1, .max = GEN_BATCH, .def = "1", .what = "a burst of {range} frames" },
	{ "size", 's', "SIZES", "frame size with FCS 64..9018 (default 64, as RFC 2544 counts), a list 64,1518, weights 64:7,594:4,1518:1, or imix",
	  OPT_LIST, A(size) },
	{ "pattern", 0, "PAT", "payload after the signature: zero (default), 0xNN, inc, random, hex:BYTES",
	  OPT_STR, A(pattern) },
	{ "inject", 0, "KINDS", "faulty frames, kinds in turn: ip-csum, udp-csum, len, magic (comma list)",
	  OPT_LIST, A(inject) },
	{ "inject-rate", 0, "FRAC", "fraction of frames that are faulty, e.g. 0.01, 1% or 1/100 (default 1%)",
	  OPT_STR, A(inject_rate) },
	{ "count", 'n', "N", "send N frames (all threads together), then stop", OPT_COUNT, A(cfg.count),
	  .min = 1, .max = 1ULL << 48, .what = "a number of frames {min}..2^48 ({max}), "
	  "optionally with k, M or G (e.g. 100000, 100k, 1.5M)" },
	{ "duration", 't', "DUR", "send for DUR (default 10s when no --count or --steps)",
	  OPT_DURATION, A(cfg.duration_ns), .min = 1, .max = NUM_DURATION_MAX, .what = NUM_EXPECT_DURATION },
	{ "warmup", 'w', "DUR", "first send for DUR frames flagged warm-up (not counted here or by the sink)",
	  OPT_DURATION, A(cfg.warmup_ns), .min = 1, .max = 3600 * NS_PER_S,
	  .what = "a warm-up duration up to {max}, such as 1s or 500ms" },
	{ "stream", 'S', "ID", "stream id {range} carried in every frame", OPT_UINT, A(cfg.stream),
	  .max = 255, .def = "0", .what = "a stream id {range}" },
	{ "epoch", 0, "E", "number the frames from E * 2^40, {range}: a sink told the same --epoch counts another epoch's frames as stale (default {default})",
	  OPT_UINT, A(cfg.epoch), .max = 255, .def = "0", .what = "an epoch {range}" },
	{ "ttl", 0, "N", "IP TTL (IPv6: the hop limit)", OPT_UINT, A(cfg.flow.ttl), .min = 1, .max = 255, .def = "64",
	  .what = "a TTL {range}" },
	{ "clock", 0, "CLOCK", "timestamp clock: {default} (default) or monotonic", OPT_ENUM, A(cfg.realtime_ts),
	  .names = clocks, .def = "realtime", .what = "realtime or monotonic" },
	{ "threads", 'T', "N", "sender threads, each with its own port and ring; the rate is split exactly",
	  OPT_UINT, A(cfg.threads), .min = 1, .max = GEN_MAX_THREADS, .def = "1",
	  .what = "a number of threads {range}" },
	{ "cpus", 0, "LIST", "pin thread i to CPU LIST[i mod n] of the n listed, e.g. 0,1", OPT_STR, A(cpus) },
	{ "replay", 0, "FILE", "send the frames of a pcap capture in order (repeating) at the set rate; once without --count, --duration or --steps",
	  OPT_STR, A(replay) },
	{ "seed", 0, "N", "seed of random flows and Poisson gaps", OPT_UINT, A(cfg.seed), .max = UINT64_MAX,
	  .def = "1", .what = "a whole number" },
	{ "late", 0, "DUR", "a frame sent this long after its deadline counts as late", OPT_DURATION,
	  A(cfg.late_ns), .min = 1000, .max = NS_PER_S, .def = "100us",
	  .what = "a duration from {min} to {max}, such as 100us" },
	{ "late-policy", 0, "POLICY", "frames more than --late behind: catchup (send them back to back, default), skip (leave them out, keep the gaps) or shift (keep the gaps, move the schedule later)",
	  OPT_ENUM, A(cfg.late_policy), .names = late_policies },
	{ "calibrate", 0, NULL, "measure this sender's ceiling on the port (--duration, default 2s) and its pacing error at 10/50/90% of it",
	  OPT_FLAG, A(calibrate) },
	CLI_OPT_INTERVAL(struct args),
	CLI_OPT_JSON(struct args),
	CLI_OPT_READY_FD(struct args, "just before the first frame, also write a byte to file descriptor N and close it"),
	{ "start-at", 0, "TIME", "send the first frame at TIME, seconds since the epoch on CLOCK_REALTIME (1700000000.25), at most 1h ahead; at once if it has passed",
	  OPT_FN, A(start_at_ns), .fn = parse_start_at },
	{ "allow-any-dst", 0, NULL, "allow destinations outside 198.18.0.0/15, 127/8, 2001:2::/48 and ::1 (RFC 6815, 5180)",
	  OPT_FLAG, A(allow_any) },
	CLI_OPT_USER(struct args, CLI_USER_HELP),
	CLI_OPT_QUIET(struct args),
	CLI_OPT_VERBOSE(struct args),
	OPT_VERSION_ROW,
	OPT_HELP_ROW,
	{ NULL },
};
#define GIVEN(name) opt_seen(opts, name)

#define SYNOPSIS "ppslab-gen -i PORTSPEC [--dst ADDR] [--rate RATE | --steps LIST | --ramp FROM:TO] " \
	"[--size SIZES] [--count N | --duration DUR] [options]\n       ppslab-gen -i PORTSPEC --calibrate [--size BYTES] [--threads N] [options]"

/* --start-at: whole seconds since the epoch with up to nine decimals (`date +%s.%N`),
 * not in the past by more than an hour (a clock or a unit mistake) nor more than an
 * hour ahead (every run is bounded). */
static int parse_start_at(const struct opt_def *d, const char *arg, void *base)
{
	uint64_t *out = (uint64_t *)((char *)base + d->off);
	static const char expect[] = "a time in seconds since the epoch on CLOCK_REALTIME, "
				     "such as 1700000000.25 (date +%s.%N), within an hour of now";
	uint64_t sec = 0, frac = 0, scale = NS_PER_S;
	const char *p = arg;
	if (*p < '0' || *p > '9')
		return cli_bad("start-at", arg, expect);
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > 4000000000ULL)
			return cli_bad("start-at", arg, expect);
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return cli_bad("start-at", arg, expect);
		for (; *p >= '0' && *p <= '9'; p++)
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
	}
	if (*p)
		return cli_bad("start-at", arg, expect);
	uint64_t t = sec * NS_PER_S + frac, now = real_ns(), hour = 3600 * NS_PER_S;
	if (t + hour < now || t > now + hour)
		return cli_bad("start-at", arg, expect);
	*out = t;
	return 0;
}

/* An address range inside the benchmarking range (or loopback), unless allowed. */
static int dst_guard(const struct args *a, const struct gen_range *r, const char *text)
{
	if (a->allow_any)
		return 0;
	uint32_t lo = r->lo, hi = r->lo + (r->n - 1);
	/* both ends in the same allowed block, so everything between is too */
	int bench = (lo >> 17) == (0xc6120000U >> 17) && (hi >> 17) == (lo >> 17);
	int loop = (lo >> 24) == 127 && (hi >> 24) == 127;
	if (!bench && !loop) {
		log_err("refusing to send to %s: outside the benchmarking range 198.18.0.0/15 "
			"(RFC 2544/6815); use --allow-any-dst in an isolated lab", text);
		return EX_USAGE;
	}
	return 0;
}

/* The same for IPv6: 2001:2::/48 (RFC 5180 §8) or ::1. A range differs in the last 32
 * bits only (gen_range_ip6), so its first address decides. */
static int dst_guard6(const struct args *a, const uint8_t base[16], const struct gen_range *r,
		      const char *text)
{
	static const uint8_t loop[16] = { [15] = 1 };
	if (a->allow_any || pkt6_bench_addr(base) || (r->n == 1 && !memcmp(base, loop, 16)))
		return 0;
	log_err("refusing to send to %s: outside the benchmarking range 2001:2::/48 "
		"(RFC 5180, 6815); use --allow-any-dst in an isolated lab", text);
	return EX_USAGE;
}

/* Every frame of a capture must go to the benchmarking range: IPv4 198.18.0.0/15 or
 * 127/8, IPv6 2001:2::/48 (RFC 5180); other frames only with --allow-any-dst. */
static int replay_guard(const struct args *a, const struct gen_replay *r)
{
	if (a->allow_any)
		return 0;
	for (uint64_t i = 0; i < r->n; i++) {
		const uint8_t *f = r->data + r->off[i];
		uint32_t l = r->len[i];
		uint16_t et = l >= 14 ? (uint16_t)(f[12] << 8 | f[13]) : 0;
		int ok = 0;
		if (et == 0x0800 && l >= 34) {
			uint32_t d;
			memcpy(&d, f + 30, 4);
			ok = cli_dst_allowed(d);
		} else if (et == 0x86dd && l >= 54) {
			static const uint8_t pfx[6] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 };
			ok = !memcmp(f + 38, pfx, 6);
		}
		if (!ok) {
			log_err("refusing to replay %s: frame %llu is %s outside the benchmarking "
				"ranges 198.18.0.0/15 and 2001:2::/48 (RFC 6815); use --allow-any-dst "
				"in an isolated lab", a->replay, (unsigned long long)i + 1,
				et == 0x0800 || et == 0x86dd ? "addressed" : "not IP, and");
			return EX_USAGE;
		}
	}
	return 0;
}

/* Fills addresses the user did not give from the interface, the routing table and the
 * neighbour table, as the kernel would for a packet to the first destination. */
static int resolve_macs(struct args *a, const char *ifname)
{
	struct pkt_flow *f = &a->cfg.flow;
	char ip[16];
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
	} else if (*ifname && f->ipv == 6) {
		char rif[IFINFO_NAMESZ] = "", ip6[INET6_ADDRSTRLEN];
		uint8_t gw[16];
		static const uint8_t none[16];
		inet_ntop(AF_INET6, f->dst6, ip6, sizeof(ip6));
		if (route_lookup6(f->dst6, rif, gw)) {
			log_err("no route to %s; give --dst-mac", ip6);
			return EX_UNAVAILABLE;
		}
		if (strcmp(rif, ifname))
			log_warn("the route to %s leaves via %s, not %s", ip6, rif, ifname);
		const uint8_t *hop = memcmp(gw, none, 16) ? gw : f->dst6;
		if (neigh_lookup6(ifname, hop, f->dst_mac)) {
			inet_ntop(AF_INET6, hop, ip6, sizeof(ip6));
			log_err("no neighbour entry for next hop %s on %s; give --dst-mac or add "
				"one (ip -6 neigh add %s lladdr MAC dev %s nud permanent)", ip6, ifname,
				ip6, ifname);
			return EX_UNAVAILABLE;
		}
	} else if (*ifname) {
		char rif[IFINFO_NAMESZ] = "";
		uint32_t gw = 0, hop;
		ip4_format(f->dst_ip, ip);
		if (route_lookup(f->dst_ip, rif, &gw)) {
			log_err("no route to %s; give --dst-mac", ip);
			return EX_UNAVAILABLE;
		}
		if (strcmp(rif, ifname))
			log_warn("the route to %s leaves via %s, not %s", ip, rif, ifname);
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

static int parse_cpus(struct args *a)
{
	return cli_cpus(a->cpus, a->cfg.cpus, GEN_MAX_THREADS, &a->cfg.ncpus);
}

static void range_text(const struct gen_range *r, int ip, char *out, size_t len)
{
	if (ip) {
		char lo[16], hi[16];
		ip4_format(htonl(r->lo), lo);
		ip4_format(htonl(r->lo + (r->n - 1)), hi);
		if (r->n == 1)
			snprintf(out, len, "%s", lo);
		else
			snprintf(out, len, "%s-%s", lo, hi);
	} else if (r->n == 1) {
		snprintf(out, len, "%u", r->lo);
	} else {
		snprintf(out, len, "%u-%u", r->lo, r->lo + r->n - 1);
	}
}

/* Rate, steps or ramp into the config's rate or profile. */
static int resolve_rate(struct args *a, double mean_wire, double link_bps,
			struct pace_profile *prof, const char **profile_name)
{
	struct gen_rate r;
	double pps;
	char err[160];
	int n = (GIVEN("rate") != 0) + (a->steps != NULL) + (a->ramp != NULL);
	if (n > 1) {
		log_err("give one of --rate, --steps and --ramp");
		return EX_USAGE;
	}
	if (a->steps) {
		struct gen_step st[GEN_MAX_STEPS];
		unsigned ns;
		if (gen_steps_parse(a->steps, st, GEN_MAX_STEPS, &ns, err, sizeof(err))) {
			log_err("--steps %s: %s", a->steps, err);
			return EX_USAGE;
		}
		pace_profile_init(prof);
		for (unsigned i = 0; i < ns; i++) {
			int rc = gen_rate_pps(&st[i].rate, mean_wire, a->l1, link_bps, &pps);
			if (rc == -EDESTADDRREQ) {
				log_err("--steps %s: step %u is a percentage: give --link", a->steps, i + 1);
				return EX_USAGE;
			}
			if (rc || pace_profile_add(prof, st[i].dur_ns, pps, pps)) {
				log_err("--steps %s: step %u is out of range", a->steps, i + 1);
				return EX_USAGE;
			}
		}
		if (prof->total < 1) {
			log_err("--steps %s: schedules no frames", a->steps);
			return EX_USAGE;
		}
		/* the steps are the run: a --count may end it early, never extend it */
		if (a->cfg.duration_ns) {
			log_err("--steps %s: the steps set the run's length; --duration does not apply",
				a->steps);
			return EX_USAGE;
		}
		if (a->cfg.count > pace_profile_count(prof)) {
			log_err("--count %llu: --steps %s schedules only %llu frames; give at most that, "
				"or longer steps", (unsigned long long)a->cfg.count, a->steps,
				(unsigned long long)pace_profile_count(prof));
			return EX_USAGE;
		}
		a->cfg.profile = prof;
		*profile_name = "steps";
		return 0;
	}
	if (a->ramp) {
		struct gen_rate from, to;
		double p0, p1;
		if (gen_ramp_parse(a->ramp, &from, &to))
			return cli_bad("ramp", a->ramp, "FROM:TO, two rates such as 10k:100k or 10Mbit:100Mbit");
		int rc = gen_rate_pps(&from, mean_wire, a->l1, link_bps, &p0);
		if (!rc)
			rc = gen_rate_pps(&to, mean_wire, a->l1, link_bps, &p1);
		if (rc == -EDESTADDRREQ) {
			log_err("--ramp %s: a percentage needs --link", a->ramp);
			return EX_USAGE;
		}
		if (rc)
			return cli_bad("ramp", a->ramp, "two rates that come to 0 .. 10^12 frames per second");
		if (!a->cfg.duration_ns) {
			/* the 10 s default applies only without --count */
			log_err("--ramp %s: a ramp runs over --duration, and --count gives none: add "
				"--duration DUR (the count may still end it early)", a->ramp);
			return EX_USAGE;
		}
		pace_profile_init(prof);
		pace_profile_add(prof, a->cfg.duration_ns, p0, p1);
		if (prof->total < 1) {
			log_err("--ramp %s: schedules no frames", a->ramp);
			return EX_USAGE;
		}
		a->cfg.profile = prof;
		*profile_name = "ramp";
		return 0;
	}
	if (gen_rate_parse(a->rate, 0, &r))
		return cli_bad("rate", a->rate, "packets per second such as 300k, 1.5Mpps or 20000, "
			       "bits per second such as 100Mbit, a percentage of --link such as 50%, or max");
	int rc = gen_rate_pps(&r, mean_wire, a->l1, link_bps, &pps);
	if (rc == -EDESTADDRREQ) {
		log_err("--rate %s: a percentage of what? give --link SPEED (e.g. --link 1G)", a->rate);
		return EX_USAGE;
	}
	if (rc)
		return cli_bad("rate", a->rate, "a rate that comes to 1 .. 10^12 frames per second");
	a->cfg.rate_pps = pps;
	*profile_name = r.kind == GEN_RATE_MAX ? "max" : "constant";
	return 0;
}

/* A udp: port names the one destination (ADDR:PORT) and the kernel makes the headers:
 * --dst and --dport may only repeat it; --ttl becomes the port's ttl= key. */
static int udp_target(struct args *a, char *target)
{
	struct gen_cfg *c = &a->cfg;
	char *colon = strrchr(target, ':');
	uint32_t addr, dst;
	uint64_t port;
	if (!colon) {
		log_err("-i %s: expected udp:ADDR:PORT, such as udp:198.19.0.2:9", c->port_spec);
		return EX_USAGE;
	}
	*colon = 0;
	if (ip4_parse(target, &addr)) {
		log_err("-i %s: udp: takes an IPv4 address and a port, such as udp:198.19.0.2:9",
			c->port_spec);
		return EX_USAGE;
	}
	if (num_u64(colon + 1, 1, 65535, &port)) {
		log_err("-i %s: expected a UDP port 1..65535 after the address", c->port_spec);
		return EX_USAGE;
	}
	c->flow.dst_port = (uint16_t)port;
	if (a->dport) {
		log_err("--dport: the udp: port spec names the destination port");
		return EX_USAGE;
	}
	if (GIVEN("dst") && (ip4_parse(a->dst, &dst) || dst != addr)) {
		log_err("--dst %s: a udp: port sends to the address it names (%s); give the "
			"destination there", a->dst, target);
		return EX_USAGE;
	}
	snprintf(a->udp_dst, sizeof(a->udp_dst), "%s", target);
	a->dst = a->udp_dst;
	if (GIVEN("ttl")) {
		if (strstr(c->port_spec, ",ttl=")) {
			log_err("--ttl: the udp: port spec sets ttl= already; give the TTL once");
			return EX_USAGE;
		}
		snprintf(a->udp_spec, sizeof(a->udp_spec), "%s,ttl=%u", c->port_spec, c->flow.ttl);
		c->port_spec = a->udp_spec;
	}
	return 0;
}

/* The source a udp: port reports: only what src=ADDR:PORT binds; otherwise the kernel
 * picks the address, and each thread's socket its own ephemeral port. */
static void udp_source(const char *spec, struct gen_info *info)
{
	const char *s = strstr(spec, ",src=");
	char buf[40];
	info->src[0] = info->sport[0] = 0;
	if (!s)
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(s + 5, ","), s + 5);
	char *colon = strrchr(buf, ':');
	if (!colon)
		return;
	*colon = 0;
	if (strcmp(buf, "0.0.0.0") && strcmp(buf, "*") && buf[0])
		snprintf(info->src, sizeof(info->src), "%s", buf);
	if (strcmp(colon + 1, "0"))
		snprintf(info->sport, sizeof(info->sport), "%s", colon + 1);
}

/* Everything that depends on several options, checked after all are read. */
/* The frames: a capture (--replay), or sizes, pattern and faults. */
static int setup_frames(struct args *a, int l4, struct gen_info *info, struct gen_replay *rp)
{
	struct gen_cfg *c = &a->cfg;
	char err[256];
	int rc;

	if (a->replay) {
		if (a->size || a->pattern || a->inject || a->inject_rate || a->flows ||
		    GIVEN("flow-order") || a->sport || a->dport || a->src || GIVEN("dst") || a->src_mac ||
		    a->dst_mac || GIVEN("stream") || GIVEN("epoch") || GIVEN("ttl") || GIVEN("clock") ||
		    c->warmup_ns || l4 || a->ipv6 || GIVEN("flow-label") || a->vlan) {
			log_err("--replay sends the capture's frames as they are: --size, --pattern, "
				"--inject, --flows, --flow-order, ports, --src, --dst, MACs, --stream, "
				"--epoch, --ttl, --clock, --warmup, --vlan, -6 and --flow-label do not apply, nor "
				"a udp: port");
			return EX_USAGE;
		}
		if ((rc = gen_replay_load(a->replay, rp, err, sizeof(err)))) {
			log_err("--replay %s", err);
			return rc == -ENOENT ? EX_NOINPUT : EX_DATAERR;
		}
		if ((rc = replay_guard(a, rp)))
			return rc;
		if (rp->truncated)
			log_warn("%s: %llu frames were captured shorter than they were and are sent as "
				 "captured", a->replay, (unsigned long long)rp->truncated);
		c->replay = rp;
		info->mean_wire = gen_replay_mean_wire(rp);
		info->mode = "replay";
		info->replay_file = a->replay;
		if (!c->count && !c->duration_ns && !a->steps)
			c->count = rp->n;      /* the file once; steps repeat it for their length */
	} else {
		/* IPv6's smallest test frame is 84 bytes (pkt6.h), and each VLAN tag takes 4
		 * more (the sizes count them): smaller sizes are refused, the default and
		 * imix's smallest size are the smallest that carries the signature */
		uint32_t min = (a->ipv6 ? PKT6_WIRE_MIN : PKT_WIRE_MIN) +
			       (uint32_t)c->flow.vlan.n * PKT_VLAN_TAG_LEN;
		if (a->size) {
			if (gen_sizes_parse_min(a->size, min, &c->sizes, err, sizeof(err))) {
				log_err("--size %s: expected frame sizes with FCS %u..9018, a list %u,1518, "
					"weights %u:7,594:4,1518:1 or imix (%s)", a->size, min, min, min, err);
				return EX_USAGE;
			}
		} else {
			gen_sizes_single(&c->sizes, min);
		}
		info->mean_wire = gen_sizes_mean(&c->sizes);
		info->mode = "send";
		if (a->pattern && gen_pattern_parse(a->pattern, &c->pattern))
			return cli_bad("pattern", a->pattern, "zero, 0xNN, inc, random or hex:BYTES (up to 64)");
		if (a->inject_rate && !a->inject) {
			log_err("--inject-rate needs --inject KINDS");
			return EX_USAGE;
		}
		if (a->inject) {
			if (gen_inject_parse(a->inject, &c->inject))
				return cli_bad("inject", a->inject, "a comma list of ip-csum, udp-csum, len, magic");
			if (a->inject_rate) {
				if (gen_fraction_parse(a->inject_rate, &c->inject.num, &c->inject.den))
					return cli_bad("inject-rate", a->inject_rate,
						       "a fraction in (0, 1] such as 0.01, 1% or 1/100");
			} else {
				c->inject.num = 1;
				c->inject.den = 100;
			}
			for (unsigned i = 0; a->ipv6 && i < c->inject.nkinds; i++)
				if (c->inject.kind[i] == GEN_FAULT_IP_CSUM) {
					log_err("--inject ip-csum: IPv6 has no header checksum; give "
						"udp-csum, len or magic");
					return EX_USAGE;
				}
			if (l4 && (c->inject.nkinds > 1 || c->inject.kind[0] != GEN_FAULT_MAGIC)) {
				log_err("--inject: a udp: port sends only payloads, so only 'magic' can be "
					"injected (the kernel makes the headers)");
				return EX_USAGE;
			}
		}
	}
	return 0;
}

/* The interface's first global IPv6 address (not link-local fe80::/10). */
static int if_ip6_global(const char *ifname, uint8_t a[16])
{
	struct ifaddrs *ifa0, *ifa;
	int rc = -EADDRNOTAVAIL;
	if (getifaddrs(&ifa0))
		return -errno;
	for (ifa = ifa0; ifa; ifa = ifa->ifa_next) {
		if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != AF_INET6 || strcmp(ifa->ifa_name, ifname))
			continue;
		const uint8_t *b = ((const struct sockaddr_in6 *)(const void *)ifa->ifa_addr)->sin6_addr.s6_addr;
		if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
			continue;
		memcpy(a, b, 16);
		rc = 0;
		break;
	}
	freeifaddrs(ifa0);
	return rc;
}

static void range_text6(const uint8_t base[16], const struct gen_range *r, char *out, size_t len)
{
	uint8_t hi[16];
	char l[46], h[46];
	uint32_t last = htonl(r->lo + (r->n - 1));
	memcpy(hi, base, 12);
	memcpy(hi + 12, &last, 4);
	ip6_format(base, l);
	ip6_format(hi, h);
	if (r->n == 1)
		snprintf(out, len, "%s", l);
	else
		snprintf(out, len, "%s-%s", l, h);
}

/* Shared by both families: source and destination ports, --flows, the flow count. */
static int setup_ports(struct args *a)
{
	struct gen_cfg *c = &a->cfg;
	struct gen_flows *fl = &c->flows;
	if (a->sport && gen_range_port(a->sport, &fl->sport))
		return cli_bad("sport", a->sport, "a UDP port 1..65535 or a range such as 1000-1999");
	if (!a->sport)
		fl->sport = (struct gen_range){ c->flow.src_port, 1 };
	if (a->dport && gen_range_port(a->dport, &fl->dport))
		return cli_bad("dport", a->dport, "a UDP port 1..65535 or a range such as 9-10");
	if (!a->dport)
		fl->dport = (struct gen_range){ c->flow.dst_port, 1 };
	if (a->flows) {
		if (fl->sport.n > 1) {
			log_err("--flows N sets the source ports; give it or an --sport range, not both");
			return EX_USAGE;
		}
		if (fl->sport.lo + a->flows - 1 > 65535) {
			log_err("--flows %llu: source ports %u..%llu pass 65535; lower --sport",
				(unsigned long long)a->flows, fl->sport.lo,
				(unsigned long long)(fl->sport.lo + a->flows - 1));
			return EX_USAGE;
		}
		fl->sport.n = (uint32_t)a->flows;
	}
	if (gen_flows_finish(fl)) {
		log_err("more than 2^48 flows");
		return EX_USAGE;
	}
	return 0;
}

/* IPv6 addresses: ranges over their last 32 bits (gen_range_ip6), the RFC 5180 guard. */
static int setup_flows6(struct args *a, const char *ifname, struct gen_info *info)
{
	struct gen_cfg *c = &a->cfg;
	struct gen_flows *fl = &c->flows;
	int rc;
	c->flow.ipv = 6;
	if ((rc = gen_range_ip6(a->dst, &fl->dst_ip, c->flow.dst6)))
		return cli_bad("dst", a->dst, rc == -ERANGE
			       ? "an IPv6 range whose ends differ in the last 32 bits only, or a "
				 "prefix /104../128, the end after the start"
			       : "an IPv6 address or range such as 2001:2:0:1::2-2001:2:0:1::9 or "
				 "2001:2:0:1::/124");
	if ((rc = dst_guard6(a, c->flow.dst6, &fl->dst_ip, a->dst)))
		return rc;
	if (a->src) {
		if ((rc = gen_range_ip6(a->src, &fl->src_ip, c->flow.src6)))
			return cli_bad("src", a->src, rc == -ERANGE
				       ? "an IPv6 range whose ends differ in the last 32 bits only"
				       : "an IPv6 address or range (the family of --dst)");
	} else if (*ifname) {
		if (if_ip6_global(ifname, c->flow.src6)) {
			log_err("%s has no global IPv6 address; give --src", ifname);
			return EX_USAGE;
		}
		uint32_t lo;
		memcpy(&lo, c->flow.src6 + 12, 4);
		fl->src_ip = (struct gen_range){ ntohl(lo), 1 };
	}
	if ((rc = setup_ports(a)))
		return rc;
	c->flow.src_port = (uint16_t)fl->sport.lo;
	c->flow.dst_port = (uint16_t)fl->dport.lo;
	range_text6(c->flow.src6, &fl->src_ip, info->src, sizeof(info->src));
	range_text6(c->flow.dst6, &fl->dst_ip, info->dst, sizeof(info->dst));
	range_text(&fl->sport, 0, info->sport, sizeof(info->sport));
	range_text(&fl->dport, 0, info->dport, sizeof(info->dport));
	return 0;
}

/* Addresses and ports, their ranges and the flows they make, and what the info says. */
static int setup_flows(struct args *a, const char *ifname, struct gen_info *info, int l4)
{
	struct gen_cfg *c = &a->cfg;
	int rc;

	struct gen_flows *fl = &c->flows;
	if (a->ipv6)
		return setup_flows6(a, ifname, info);
	if (ip4_parse(a->dst, &c->flow.dst_ip) == 0) {
		fl->dst_ip = (struct gen_range){ ntohl(c->flow.dst_ip), 1 };
	} else if (gen_range_ip4(a->dst, &fl->dst_ip)) {
		return cli_bad("dst", a->dst, "an IPv4 address or range such as 198.19.0.2-198.19.0.9 "
			       "or 198.19.0.0/28");
	}
	if (!c->replay && (rc = dst_guard(a, &fl->dst_ip, a->dst)))
		return rc;
	if (a->src) {
		if (gen_range_ip4(a->src, &fl->src_ip))
			return cli_bad("src", a->src, "an IPv4 address or range");
	} else if (*ifname && !c->replay) {
		if (if_ip4(ifname, &c->flow.src_ip, NULL)) {
			log_err("%s has no IPv4 address; give --src", ifname);
			return EX_USAGE;
		}
		fl->src_ip = (struct gen_range){ ntohl(c->flow.src_ip), 1 };
	} else {
		fl->src_ip = (struct gen_range){ ntohl(c->flow.src_ip), 1 };
	}
	if ((rc = setup_ports(a)))
		return rc;
	if (l4 && (a->src || a->sport || a->src_mac || a->dst_mac)) {
		log_err("a udp: port sends through the kernel, which picks addresses and MACs; "
			"bind a source with udp:ADDR:PORT,src=ADDR:PORT");
		return EX_USAGE;
	}
	if (l4 && fl->n > 1) {
		log_err("a udp: port sends from one socket to one address: address and port ranges "
			"need an L2 port (afpacket:, pcap:, libnet:)");
		return EX_USAGE;
	}
	c->flow.src_ip = htonl(fl->src_ip.lo);
	c->flow.dst_ip = htonl(fl->dst_ip.lo);
	c->flow.src_port = (uint16_t)fl->sport.lo;
	c->flow.dst_port = (uint16_t)fl->dport.lo;
	range_text(&fl->src_ip, 1, info->src, sizeof(info->src));
	range_text(&fl->dst_ip, 1, info->dst, sizeof(info->dst));
	range_text(&fl->sport, 0, info->sport, sizeof(info->sport));
	range_text(&fl->dport, 0, info->dport, sizeof(info->dport));
	if (c->replay)     /* the capture's frames carry their own: claim none */
		info->src[0] = info->dst[0] = info->sport[0] = info->dport[0] = 0;
	if (l4)
		udp_source(c->port_spec, info);
	return 0;
}

static int setup(struct args *a, char *ifname, struct gen_info *info, struct gen_replay *rp,
		 struct pace_profile *prof)
{
	struct gen_cfg *c = &a->cfg;
	char backend[16], target[64], err[256];
	int rc, l4;
	double link_bps = 0;

	if (!c->port_spec) {
		log_err("no port: give -i PORTSPEC (e.g. -i gen0 or -i udp:198.19.0.2:9)");
		return EX_USAGE;
	}
	if (port_spec_parse(c->port_spec, backend, target, err, sizeof(err))) {
		log_err("-i %s: %s", c->port_spec, err);
		return EX_USAGE;
	}
	l4 = !strcmp(backend, "udp");
	/* the family: -6, or an IPv6 --dst (or --src); a mix of families is refused */
	if (!a->replay) {
		int d6 = GIVEN("dst") && strchr(a->dst, ':'), s6 = a->src && strchr(a->src, ':');
		if ((a->ipv6 || d6) && GIVEN("dst") && !d6) {
			log_err("--dst %s: -6 sends IPv6, give an IPv6 address or range", a->dst);
			return EX_USAGE;
		}
		a->ipv6 |= d6 || (s6 && !GIVEN("dst"));
		if (a->src && !!s6 != !!a->ipv6) {
			log_err("--src %s: not of the destination's family (IPv%d)", a->src,
				a->ipv6 ? 6 : 4);
			return EX_USAGE;
		}
		if (a->ipv6 && !GIVEN("dst"))
			a->dst = GEN_DST6_DEFAULT;
		if (GIVEN("flow-label") && !a->ipv6) {
			log_err("--flow-label: IPv4 has no flow label; it needs -6 or an IPv6 --dst");
			return EX_USAGE;
		}
		if (a->ipv6 && l4) {
			log_err("-i %s: a udp: port sends over an IPv4 socket; IPv6 test frames need "
				"an L2 port (afpacket:, xdp:, pcap:, libnet:)", c->port_spec);
			return EX_USAGE;
		}
	}
	if (a->vlan) {
		if (pkt_vlan_parse(a->vlan, &c->flow.vlan, err, sizeof(err))) {
			log_err("--vlan %s: %s", a->vlan, err);
			return EX_USAGE;
		}
		if (l4) {
			log_err("--vlan %s: a udp: port sends through a socket, and a socket cannot "
				"tag its frames; give an L2 port (afpacket:, xdp:, pcap:, libnet:) or "
				"send through a VLAN interface (udp: over IF.VID)", a->vlan);
			return EX_USAGE;
		}
	}
	if (!l4) {
		snprintf(ifname, IFINFO_NAMESZ, "%.15s", target);
		/* before its address or MAC is asked for, which would blame those */
		if (strlen(target) >= IFINFO_NAMESZ || if_index_of(ifname) < 0) {
			log_err("-i %s: no interface '%s'", c->port_spec, target);
			return EX_UNAVAILABLE;
		}
	} else if ((rc = udp_target(a, target)) != 0) {
		return rc;
	}
	if (a->calibrate && (a->replay || a->steps || a->ramp || GIVEN("rate") || c->count ||
			     c->poisson || c->warmup_ns)) {
		log_err("--calibrate measures the ceiling and paces fractions of it itself: it takes "
			"no --rate, --steps, --ramp, --count, --poisson, --warmup or --replay");
		return EX_USAGE;
	}
	if (a->calibrate && a->start_at_ns) {
		log_err("--start-at: --calibrate runs several measurements one after another; it "
			"takes no start time");
		return EX_USAGE;
	}
	if (a->link && gen_link_parse(a->link, &link_bps))
		return cli_bad("link", a->link, "a link speed such as 1G, 10G, 100M or 25Gbit");
	info->link_bps = link_bps;

	if ((rc = setup_frames(a, l4, info, rp)))
		return rc;
	if (!c->count && !c->duration_ns && !a->steps)
		c->duration_ns = (a->calibrate ? 2 : 10) * NS_PER_S;
	if (!a->calibrate && (rc = resolve_rate(a, info->mean_wire, link_bps, prof, &info->profile)))
		return rc;
	if (a->calibrate)
		info->profile = "calibrate";
	info->rate_text = a->steps ? a->steps : a->ramp ? a->ramp : a->rate;
	if (c->poisson && !(c->rate_pps > 0) && !c->profile) {
		log_err("--poisson needs a rate (not max)");
		return EX_USAGE;
	}
	/* an epoch holds 2^40 numbers (sig.h): past them a frame would carry the next
	 * epoch, stale at a sink told this one (a plan whose count is known: --count,
	 * --steps, --ramp, or --rate with --duration) */
	if (GIVEN("epoch") && !c->replay) {
		long double most = c->count ? (long double)c->count : INFINITY;
		if (c->profile && !c->profile->open_ended)
			most = fminl(most, (long double)pace_profile_count(c->profile));
		else if (!c->profile && c->rate_pps > 0 && c->duration_ns)
			most = fminl(most, (long double)c->rate_pps * c->duration_ns / 1e9L);
		if (isfinite(most) && most > (long double)(SIG_EPOCH_MASK + 1)) {
			log_err("--epoch %u: an epoch numbers at most 2^40 frames (%llu), and this "
				"run sends %.0Lf: send fewer, or no --epoch", (unsigned)c->epoch,
				(unsigned long long)(SIG_EPOCH_MASK + 1), most);
			return EX_USAGE;
		}
	}

	if ((rc = setup_flows(a, ifname, info, l4)))
		return rc;
	if (!c->replay && (rc = resolve_macs(a, ifname)))
		return rc;
	if (a->cpus && (rc = parse_cpus(a)))
		return rc;
	if (l4) {
		/* counters of the interface the kernel sends through */
		uint32_t gw;
		if (route_lookup(c->flow.dst_ip, ifname, &gw))
			ifname[0] = 0;
	}
	/* a frame longer than the MTU allows is dropped by the kernel (with a log line per
	 * frame): refuse it here instead */
	/* Linux lets a tagged frame pass the MTU by one tag (4 bytes), not two */
	uint32_t mtu, longest = c->replay ? c->replay->len_max : pkt_frame_len(gen_sizes_max(&c->sizes));
	uint32_t over = c->flow.vlan.n && !c->replay ? PKT_VLAN_TAG_LEN : 0;
	if (*ifname && if_mtu(ifname, &mtu) == 0 && longest > mtu + PKT_ETH_LEN + over) {
		log_err("%s: frames of %u bytes with FCS do not fit %s (MTU %u: at most %u with FCS%s); "
			"raise its MTU (ip link set %s mtu 9000) or send smaller frames",
			c->replay ? a->replay : "--size", longest + PKT_FCS_LEN, ifname, mtu,
			mtu + PKT_ETH_LEN + PKT_FCS_LEN + over, over ? ", one tag beyond the MTU" : "",
			ifname);
		return EX_USAGE;
	}
	return 0;
}

/* SIGINT or SIGTERM received (and held: main blocks them first thing) before the run
 * started: nothing was sent, so there is nothing to summarize. 128 + the signal, as a
 * shell reports a process the signal ended, or 0. */
static int stopped_before_run(void)
{
	sigset_t p;
	int s = 0;
	if (sigpending(&p) == 0)
		s = sigismember(&p, SIGINT) ? SIGINT : sigismember(&p, SIGTERM) ? SIGTERM : 0;
	if (s)
		log_err("interrupted before sending (%s): nothing was sent", strsignal(s));
	return s ? 128 + s : 0;
}

static int run(struct args *a, struct runctl *rctl, const char *ifname,
	       const struct gen_info *info)
{
	struct gen g;
	struct gen_report rep;
	char err[256];
	int rc;

	if ((rc = gen_init(&g, &a->cfg, err, sizeof(err)))) {
		log_err("%s", err);
		return cli_exit_code(rc);
	}
	if (a->com.user && (rc = priv_drop(&a->com.pu, err, sizeof(err)))) {
		log_err("%s", err);
		gen_fini(&g);
		return EX_NOPERM;
	}
	if ((rc = stopped_before_run())) {
		gen_fini(&g);
		return rc;
	}
	gen_report_init(&rep, &g, info, ifname, a->com.json, stdout);
	struct ready rd;
	cli_ready_init(&rd, "gen", &a->com);   /* ports open, frames built */
	for (unsigned t = 0; t < g.nw; t++)
		ready_port_add(&rd, g.w[t].port);
	cli_ready_announce(&rd);
	/* a few ms ahead, so that every thread is waiting when the schedule begins; with
	 * --start-at the realtime instant on our monotonic clock (at once when it passed:
	 * the summary's first_tx_real_ns shows how late) */
	uint64_t start = mono_ns() + 20 * NS_PER_MS;
	if (a->start_at_ns) {
		uint64_t rnow = real_ns(), mnow = mono_ns();
		start = mnow + (a->start_at_ns > rnow + NS_PER_MS ? a->start_at_ns - rnow : NS_PER_MS);
	}
	if ((rc = gen_start(&g, rctl, start, err, sizeof(err)))) {
		log_err("%s", err);
		gen_fini(&g);
		return EX_OSERR;
	}
	gen_report_header(&rep);
	uint64_t next = start + a->com.interval_ns;
	int sig = 0;
	for (;;) {
		int s = runctl_wait_until(rctl, next);
		if (s == SIGINT || s == SIGTERM) {
			sig = s;
			break;
		}
		if (gen_running(&g) == 0)
			break;        /* the senders finished */
		if (s == 0) {
			gen_report_interval(&rep, mono_ns());
			next += a->com.interval_ns;
		}
	}
	atomic_store(&rctl->stop, 1);
	int wret = gen_join(&g);
	uint64_t now = mono_ns();
	struct gen_snap cur;
	gen_snapshot(&g, &cur);
	if (cur.tx_pkts + cur.warmup_pkts > rep.prev.tx_pkts + rep.prev.warmup_pkts)
		gen_report_interval(&rep, now);
	gen_report_summary(&rep, sig);
	gen_fini(&g);
	if (wret) {
		log_err("send failed: %s", strerror(-wret));
		return cli_exit_code(wret);
	}
	return EX_OK;
}

/* PPSLAB_TEST_GEN_STALL=EVERY:LENGTH (HACKING.md): for tests only, whenever
 * CLOCK_REALTIME passes a multiple of EVERY in the measured phase each sender thread
 * stops for LENGTH, as a loaded host stops it. */
static int test_stall(struct gen_cfg *cfg)
{
	const char *v = getenv("PPSLAB_TEST_GEN_STALL");
	if (!v || !*v)
		return 0;
	char every[64];
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : sizeof(every);
	if (n < sizeof(every)) {
		memcpy(every, v, n);
		every[n] = 0;
	}
	if (n >= sizeof(every) ||
	    num_duration_ns(every, 1000000, 3600 * NS_PER_S, &cfg->stall_every_ns) ||
	    num_duration_ns(colon + 1, 1000, NS_PER_S, &cfg->stall_ns)) {
		log_err("PPSLAB_TEST_GEN_STALL=%s: expected EVERY:LENGTH, e.g. 100ms:4ms "
			"(EVERY at least 1ms, LENGTH 1us..1s)", v);
		return EX_USAGE;
	}
	log_warn("PPSLAB_TEST_GEN_STALL: stalling every %s for %s (a test setting)", every,
		 colon + 1);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = {
		.cfg = { .rate_pps = 10000,
			 .flow = { .src_port = PKT_DEFAULT_SPORT, .dst_port = PKT_DEFAULT_DPORT },
			 .pattern = { .kind = GEN_PAT_BYTES, .len = 1 } },
		.com = CLI_COMMON_INIT,
	};
	static struct pace_profile prof;
	struct gen_replay rp = { 0 };
	struct gen_info info = { .mode = "send" };
	char ifname[IFINFO_NAMESZ] = "";
	struct runctl rctl;
	int rc;

	/* SIGINT and SIGTERM wait, blocked, from the start: before the run they end it with
	 * a message (stopped_before_run), during it the summary still comes */
	runctl_init(&rctl);
	log_init("ppslab-gen", 1);
	cli_port_help(opts, "iface", "send on this port", PORT_TX, 0);
	struct opt_prog prog = { "ppslab-gen", SYNOPSIS, opts };
	if ((rc = opt_parse(&prog, argc, argv, &a, NULL)))
		return rc == OPT_DONE ? EX_OK : rc;
	log_init("ppslab-gen", a.com.verbose);
	if (a.com.user && a.calibrate) {
		log_err("--user: --calibrate opens its port for each measurement; run it "
			"without --user");
		return EX_USAGE;
	}
	if ((rc = cli_user_lookup(&a.com)))
		return rc;
	if ((rc = test_stall(&a.cfg)))
		return rc;
	if ((rc = setup(&a, ifname, &info, &rp, &prof)) || (rc = stopped_before_run())) {
		gen_replay_free(&rp);
		return rc;
	}
	if (a.calibrate) {
		char err[256];
		struct ready rd;
		cli_ready_init(&rd, "gen", &a.com);
		struct calib_cfg cc = { .base = a.cfg, .max_ns = a.cfg.duration_ns,
					.frac_ns = a.cfg.duration_ns / 2, .ifname = ifname,
					.json = a.com.json, .out = stdout, .ready = &rd };
		rc = calib_run(&cc, &info, &rctl, err, sizeof(err));
		if (rc) {
			log_err("%s", err);
			return cli_exit_code(rc);
		}
		return EX_OK;
	}
	info.start_at_ns = a.start_at_ns;
	rc = run(&a, &rctl, ifname, &info);
	gen_replay_free(&rp);
	return rc;
}
