/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c — ppslab-sink: options, run control (duration, idle, warm-up, signals), the
 * interface counters at start and end, and the reporting cadence. The receive engine is
 * sink.c; what is printed is sink_report.c; the sender's summary is read by expect.c. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "expect.h"
#include "ifinfo.h"
#include "log.h"
#include "num.h"
#include "priv.h"
#include "ready.h"
#include "sink_report.h"
#include "sink.h"

#define MAX_EXPECT_FILES 8

struct args {
	struct sink_cfg cfg;
	uint64_t duration_ns, idle_ns, expect;
	const char *expect_files[MAX_EXPECT_FILES];
	int nexpect_files;
	struct cli_common com;
	const char *cpus, *vlan;
};

#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "iface", 'i', "PORTSPEC", "receive on this port (repeatable): afpacket:IF, pcap:IF, udp:ADDR:PORT",
	  OPT_STRS, A(cfg.port_specs), .n_off = offsetof(struct args, cfg.nports),
	  .max = SINK_MAX_PORTS, .what = "at most {max} ports" },
	{ "dport", 'p', "PORT", "UDP destination port of the test frames, as ppslab-gen's --dport; 0 accepts any",
	  OPT_UINT, A(cfg.dport), .max = 65535, .def = OPT_TEXT(PKT_DEFAULT_DPORT), .what = "a UDP port {range}" },
	{ "port", 'p', "PORT", NULL, OPT_UINT, A(cfg.dport), .max = 65535,   /* the older name of --dport */
	  .what = "a UDP port {range}" },
	{ "threads", 'T', "N", "receive threads, {range} (afpacket: a fanout by stream id; xdp: thread i reads queue i; default {default})",
	  OPT_UINT, A(cfg.nthreads), .min = 1, .max = SINK_MAX_THREADS, .def = "1",
	  .what = "a thread count from {min} to {max}" },
	{ "cpus", 0, "LIST", "pin receive thread i to CPU LIST[i mod n] of the n listed, e.g. 0,1",
	  OPT_STR, A(cpus) },
	{ "duration", 't', "DUR", "stop after DUR", OPT_DURATION, A(duration_ns), .min = 1,
	  .max = NUM_DURATION_MAX, .what = NUM_EXPECT_DURATION },
	{ "idle", 0, "DUR", "stop DUR after the last test frame; the clock starts at the first (default 10s when no --duration)",
	  OPT_DURATION, A(idle_ns), .min = 1, .max = NUM_DURATION_MAX, .what = NUM_EXPECT_DURATION },
	{ "warmup", 'w', "DUR", "do not measure test frames within DUR of the first one",
	  OPT_DURATION, A(cfg.warmup_ns), .max = 3600 * NS_PER_S, .what = "a duration up to {max}" },
	{ "expect", 'e', "N", "frames the sender sent per stream: frames after the last arrival count as lost",
	  OPT_COUNT, A(expect), .max = 1ULL << 48, .what = NUM_EXPECT_COUNT },
	{ "expect-from", 'E', "FILE", "the sender's --json output: frames sent per stream (repeatable)",
	  OPT_STRS, A(expect_files), .n_off = offsetof(struct args, nexpect_files),
	  .max = MAX_EXPECT_FILES, .what = "at most {max} files" },
	{ "max-delay", 0, "DUR", "one-way delays above DUR are implausible: clocks disagree",
	  OPT_DURATION, A(cfg.max_delay_ns), .min = 1, .max = NUM_DURATION_MAX, .def = "10s",
	  .what = NUM_EXPECT_DURATION },
	{ "gap-min", 0, "DUR", "a silence of a stream longer than DUR is a gap in its gap list, lost frames or not (default 0: only gaps with lost frames)",
	  OPT_DURATION, A(cfg.gap_min_ns), .max = NUM_DURATION_MAX, .what = "a duration up to {max}" },
	{ "gap-list", 0, "N", "list at most N gaps per stream, {range} (more are counted; default {default})",
	  OPT_UINT, A(cfg.gap_list), .max = GAP_LIST, .def = OPT_TEXT(GAP_LIST_DEFAULT),
	  .what = "a count {range}" },
	{ "delay-by-size", 0, NULL, "also report each stream's one-way delays per frame size (up to 8 sizes a stream)",
	  OPT_FLAG, A(cfg.delay_by_size) },
	{ "epoch", 0, "E", "test frames are numbered in epoch E, {range}, as ppslab-gen --epoch E numbers them: another epoch's frames (an earlier trial's) count as stale_pkts, not received",
	  OPT_UINT, A(cfg.epoch), .max = 255, .what = "an epoch {range}" },
	{ "vlan", 0, "VID[,VID]|none", "expect test frames with this 802.1Q tag (two: QinQ, outer first), or untagged (none); others are wrong_vlan errors",
	  OPT_STR, A(vlan) },
	{ "no-udp-csum", 0, NULL, "do not verify UDP checksums", OPT_CLEAR, A(cfg.verify_udp_csum) },
	CLI_OPT_INTERVAL(struct args),
	CLI_OPT_JSON(struct args),
	CLI_OPT_READY_FD(struct args, "once every port counts frames, also write a byte to file descriptor N and close it"),
	CLI_OPT_USER(struct args, CLI_USER_HELP),
	CLI_OPT_QUIET(struct args),
	CLI_OPT_VERBOSE(struct args),
	OPT_VERSION_ROW,
	OPT_HELP_ROW,
	{ NULL },
};

#define SYNOPSIS "ppslab-sink -i PORTSPEC [-i PORTSPEC ...] [--dport PORT] [--threads N] " \
	"[--duration DUR] [--idle DUR] [--expect N | --expect-from FILE] [options]"

/* The interfaces behind the ports (one per -i; udp: has none). */
static int ifaces_open(struct sink *s, struct rep_iface *ifs)
{
	int n = 0;
	for (int i = 0; i < s->cfg.nports; i++) {
		const char *name = port_ifname(s->w[0]->ports[i]);
		bool dup = false;
		for (int k = 0; k < n; k++)
			dup |= !strcmp(ifs[k].name, name);
		if (!*name || dup)
			continue;
		snprintf(ifs[n].name, sizeof(ifs[n].name), "%s", name);
		ifs[n].ok = if_counters_read(name, &ifs[n].c0) == 0;
		if (!ifs[n].ok)
			log_warn("%s: cannot read the interface's counters: host drops unknown", name);
		ifs[n].c1 = ifs[n].c0;
		n++;
	}
	return n;
}

static void ifaces_read(struct rep_iface *ifs, int n, uint64_t *drops, uint64_t *rx)
{
	*drops = *rx = 0;
	for (int i = 0; i < n; i++) {
		if (!ifs[i].ok)
			continue;
		struct if_counters c;
		if (if_counters_read(ifs[i].name, &c) == 0)
			ifs[i].c1 = c;
		*drops += sink_report_if_rx_drops(&ifs[i].c0, &ifs[i].c1);
		*rx += ifs[i].c1.rx_packets - ifs[i].c0.rx_packets;
	}
}

static void sample(struct sink *s, struct rep_iface *ifs, int nifs, uint64_t t_ns,
		   struct sink_report_sample *out)
{
	sink_totals(s, &out->t);
	ifaces_read(ifs, nifs, &out->if_drops, &out->if_rx);
	out->t_ns = t_ns;
}

/* An xdp: port reads one queue per thread: frames the interface's RSS puts on the
 * other queues go to the kernel, unseen, and would count as lost. Said once. */
static void xdp_queues_note(const struct sink_cfg *c, int nworkers)
{
	for (int i = 0; i < c->nports; i++) {
		char be[16], tg[64], e[128];
		unsigned nq;
		if (port_spec_parse(c->port_specs[i], be, tg, e, sizeof(e)) || strcmp(be, "xdp") ||
		    strstr(c->port_specs[i], "queue=") || if_rx_queues(tg, &nq) ||
		    nq <= (unsigned)nworkers)
			continue;
		char which[32] = "queue 0";
		if (nworkers > 1)
			snprintf(which, sizeof(which), "queues 0..%d", nworkers - 1);
		log_warn("%s: reads %s of the %u receive queues %s has: frames on the others are "
			 "not counted (--threads %u reads them all)", c->port_specs[i], which, nq, tg,
			 nq);
	}
}

/* Every port open and bound, every receive thread running: ready.h. */
static void announce_ready(struct args *a, struct sink *s)
{
	struct ready r;
	cli_ready_init(&r, "sink", &a->com);
	for (int t = 0; t < s->nworkers; t++)
		for (int i = 0; i < s->cfg.nports; i++)
			ready_port_add(&r, s->w[t]->ports[i]);
	cli_ready_announce(&r);
	log_info("%d port(s), %d receive thread(s)", s->cfg.nports, s->nworkers);
}

static int load_expect(struct args *a, struct expect_table *et, char *err, size_t errlen)
{
	for (int i = 0; i < a->nexpect_files; i++) {
		int rc = expect_load(et, a->expect_files[i], err, errlen);
		if (rc) {
			log_err("--expect-from %s", err);
			return rc == -EINVAL ? EX_DATAERR : rc == -ENOMEM ? EX_OSERR : EX_NOINPUT;
		}
	}
	return 0;
}

/* Interval lines until the duration, idleness, a signal or a receiver's error ends the
 * run: the signal that ended it, or 0. */
static int receive(const struct args *a, struct sink *s, struct runctl *rctl,
		   struct rep_iface *ifs, int nifs, const struct sink_report_cfg *rcfg,
		   struct hist *ih, uint64_t t0, struct sink_report_sample *prev, uint64_t *lines)
{
	struct sink_report_sample cur;
	uint64_t next = t0 + a->com.interval_ns;
	uint64_t end = a->duration_ns ? t0 + a->duration_ns : UINT64_MAX;
	int sig = 0;
	for (;;) {
		uint64_t wake = next < end ? next : end;
		if (a->idle_ns && wake > mono_ns() + 50 * NS_PER_MS)
			wake = mono_ns() + 50 * NS_PER_MS;   /* check idleness often */
		int sg = runctl_wait_until(rctl, wake);
		if (sg == SIGINT || sg == SIGTERM) {
			sig = sg;
			break;
		}
		if (sg == SIGUSR1)
			break;   /* a receiver stopped on an error */
		uint64_t now = mono_ns();
		if (now >= end)
			break;
		if (a->idle_ns) {
			struct sink_totals t;
			sink_totals(s, &t);
			/* The idle clock starts at the first test frame: a sink started before
			 * its sender waits for it however long (--duration bounds that).
			 * A worker may stamp a frame after `now` was read: lt > now is not idle. */
			uint64_t lt = t.last_test_ns;
			if (t.first_test_ns && now > lt && now - lt >= a->idle_ns)
				break;
		}
		if (now >= next && ih) {
			hist_init(ih);
			int late = sink_interval(s, ih, 200 * NS_PER_MS);
			sample(s, ifs, nifs, mono_ns() - t0, &cur);
			sink_report_interval(stdout, rcfg, &cur, prev, ih, late, lines);
			*prev = cur;
			next += a->com.interval_ns;
			if (next <= now)   /* we fell behind (a stopped process): skip, do not burst */
				next = now + a->com.interval_ns;
		}
	}
	return sig;
}

/* The options, and what depends on several of them, before anything is opened. */
static int options(struct args *a, int argc, char **argv)
{
	struct opt_prog prog = { "ppslab-sink", SYNOPSIS, opts };
	char err[256];
	unsigned n;
	int rc;
	cli_port_help(opts, "iface", "receive on this port (repeatable)", PORT_RX, 0);
	if ((rc = opt_parse(&prog, argc, argv, a, NULL)))
		return rc;
	log_init("ppslab-sink", a->com.verbose);
	if (!a->cfg.nports) {
		log_err("no port: give -i PORTSPEC (e.g. -i sink0 or -i udp:0.0.0.0:9)");
		return EX_USAGE;
	}
	if (a->expect && a->nexpect_files) {
		log_err("--expect and --expect-from both say what was sent: give one");
		return EX_USAGE;
	}
	for (int i = 0; i < a->cfg.nports; i++) {
		char be[16], tg[64];
		if (port_spec_parse(a->cfg.port_specs[i], be, tg, err, sizeof(err))) {
			log_err("--iface %s: %s", a->cfg.port_specs[i], err);
			return EX_USAGE;
		}
		if (a->vlan && !strcmp(be, "udp")) {
			log_err("--vlan %s: a udp: port receives payloads, never a frame's tags; "
				"give an L2 port (afpacket:, xdp:, pcap:)", a->vlan);
			return EX_USAGE;
		}
	}
	a->cfg.epoch_on = opt_seen(opts, "epoch") != 0;
	if (a->vlan) {
		a->cfg.vlan_expect = true;
		if (strcmp(a->vlan, "none") &&
		    pkt_vlan_parse(a->vlan, &a->cfg.vlan, err, sizeof(err))) {
			log_err("--vlan %s: %s (or none: untagged)", a->vlan, err);
			return EX_USAGE;
		}
	}
	if (a->cpus) {
		rc = cli_cpus(a->cpus, a->cfg.cpus, SINK_MAX_THREADS, &n);
		a->cfg.ncpus = (int)n;
		if (rc)
			return rc;
	}
	if (!a->duration_ns && !a->idle_ns)
		a->idle_ns = 10 * NS_PER_S;
	return cli_user_lookup(&a->com);
}

int main(int argc, char **argv)
{
	struct args a = { .cfg = { .verify_udp_csum = true }, .com = CLI_COMMON_INIT };
	int rc;
	char err[256];

	log_init("ppslab-sink", 1);
	if ((rc = options(&a, argc, argv)))
		return rc == OPT_DONE ? EX_OK : rc;
	struct expect_table *et = calloc(1, sizeof(*et));
	if (!et)
		return EX_OSERR;

	struct sink *s = calloc(1, sizeof(*s));
	if (!s) {
		free(et);
		return EX_OSERR;
	}
	if ((rc = sink_init(s, &a.cfg, err, sizeof(err)))) {
		log_err("%s", err);
		free(s);
		free(et);
		return rc == -EINVAL ? EX_USAGE : cli_exit_code(rc);
	}
	xdp_queues_note(&a.cfg, s->nworkers);
	struct rep_iface ifs[SINK_MAX_PORTS];
	memset(ifs, 0, sizeof(ifs));
	int nifs = ifaces_open(s, ifs);
	if (a.com.user && (rc = priv_drop(&a.com.pu, err, sizeof(err)))) {
		log_err("%s", err);
		sink_fini(s);
		free(s);
		free(et);
		return EX_NOPERM;
	}
	struct sink_report_cfg rcfg = { .json = a.com.json, .expect_all = a.expect,
				.nexpect_files = a.nexpect_files, .interval_ns = a.com.interval_ns,
				.duration_ns = a.duration_ns, .idle_ns = a.idle_ns,
				.warmup_ns = a.cfg.warmup_ns, .max_delay_ns = a.cfg.max_delay_ns,
				.gap_min_ns = a.cfg.gap_min_ns, .gap_list = a.cfg.gap_list, .port_specs = a.cfg.port_specs, .nports = a.cfg.nports,
				.nthreads = s->nworkers, .dport = a.cfg.dport,
				.vlan = a.vlan };

	struct runctl rctl;
	runctl_init(&rctl);
	if ((rc = sink_start(s, &rctl))) {
		log_err("cannot start the receive threads");
		sink_fini(s);
		free(s);
		free(et);
		return EX_OSERR;
	}
	announce_ready(&a, s);
	sink_report_header(stdout, &rcfg);
	struct hist *ih = malloc(sizeof(*ih));
	struct sink_report_sample prev, cur;
	uint64_t t0 = mono_ns(), lines = 0;
	memset(&prev, 0, sizeof(prev));
	sample(s, ifs, nifs, 0, &prev);
	prev.t_ns = 0;
	int sig = receive(&a, s, &rctl, ifs, nifs, &rcfg, ih, t0, &prev, &lines);
	atomic_store(&rctl.stop, 1);
	int wret = sink_stop(s);
	uint64_t dur = mono_ns() - t0;
	if (ih) {
		hist_init(ih);
		sink_interval(s, ih, 0);
	}
	sample(s, ifs, nifs, dur, &cur);
	if (ih && (cur.t.rx_frames > prev.t.rx_frames || cur.t.ring_drops > prev.t.ring_drops))
		sink_report_interval(stdout, &rcfg, &cur, &prev, ih, 0, &lines);
	/* The sender's summary is read now, when the sender has finished (the sink usually
	 * starts first); a bad file still leaves a complete summary, without tail loss. */
	char xerr[512];
	int xrc = load_expect(&a, et, xerr, sizeof(xerr));
	if (xrc) {
		memset(et, 0, sizeof(*et));
		rcfg.expect_error = xerr;
	}
	if (sink_finish(s, a.expect, et->tx_pkts, a.nexpect_files && !xrc ? et->have : NULL,
			et->holes)) {
		log_err("out of memory");
		wret = wret ? wret : -ENOMEM;
	}
	sink_report_summary(stdout, &rcfg, s, &cur.t, ifs, nifs, dur, sig);
	if (cur.t.neg_delay || cur.t.implausible_delay)
		log_warn("%llu negative and %llu implausible one-way delays: the sender's clock and "
			 "this host's disagree; delay percentiles are not valid (jitter is)",
			 (unsigned long long)cur.t.neg_delay,
			 (unsigned long long)cur.t.implausible_delay);
	for (int i = 0; i < SINK_STREAMS; i++)
		if (s->streams[i] && s->streams[i]->beyond_expect)
			log_warn("stream %d: sequence numbers at or above the %llu frames the sender "
				 "reported: stale frames, or the wrong summary", i,
				 (unsigned long long)s->streams[i]->expect);
	free(ih);
	sink_fini(s);
	free(s);
	free(et);
	if (wret) {
		log_err("receive failed: %s", strerror(-wret));
		return cli_exit_code(wret);
	}
	return xrc ? xrc : EX_OK;
}
