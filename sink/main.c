/* main.c — ppslab-sink: options, run control (duration, idle), interval lines and the
 * summary with per-stream detail and loss attribution. The receive loop is sink.c. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "fmt.h"
#include "ifinfo.h"
#include "jout.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "sink.h"
#include "version.h"

static const struct opt_def opts[] = {
	{ "iface", 'i', "PORTSPEC", "receive on this port (repeatable): afpacket:IF, pcap:IF, udp:ADDR:PORT" },
	{ "port", 'p', "PORT", "test UDP destination port; 0 accepts any (default 9)" },
	{ "duration", 't', "DUR", "stop after DUR" },
	{ "idle", 0, "DUR", "stop after DUR without test frames (default 10s when no --duration)" },
	{ "expect", 'e', "N", "frames the sender sent per stream: frames after the last arrival count as lost" },
	{ "no-udp-csum", 0, NULL, "do not verify UDP checksums" },
	{ "interval", 'I', "DUR", "report interval (default 1s)" },
	{ "json", 'j', NULL, "JSON lines: one per interval, then a summary" },
	{ "quiet", 'q', NULL, "only errors on stderr" },
	{ "verbose", 'v', NULL, "more diagnostics on stderr" },
	{ "version", 'V', NULL, "print the version" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

#define SYNOPSIS "ppslab-sink -i PORTSPEC [-i PORTSPEC ...] [--port PORT] " \
	"[--duration DUR] [--idle DUR] [--expect N] [options]"

struct args {
	struct sink_cfg cfg;
	uint64_t duration_ns, idle_ns, expect, interval_ns;
	int json, verbose;
};

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	uint64_t v;
	switch (key) {
	case 'i':
		if (a->cfg.nports == SINK_MAX_PORTS)
			return cli_bad(name, arg, "at most 8 ports");
		a->cfg.port_specs[a->cfg.nports++] = arg;
		break;
	case 'p':
		if (num_u64(arg, 0, 65535, &v))
			return cli_bad(name, arg, "a UDP port 0..65535");
		a->cfg.dport = (uint16_t)v;
		break;
	case 't':
		if (num_duration_ns(arg, 1, 366ULL * 86400 * NS_PER_S, &a->duration_ns))
			return cli_bad(name, arg, num_expect_duration());
		break;
	case 'e':
		if (num_count(arg, 0, 1ULL << 48, &a->expect))
			return cli_bad(name, arg, num_expect_count());
		break;
	case 'I':
		if (num_duration_ns(arg, 10 * NS_PER_MS, 3600 * NS_PER_S, &a->interval_ns))
			return cli_bad(name, arg, "an interval from 10ms to 1h");
		break;
	case 'j': a->json = 1; break;
	case 'q': a->verbose = 0; break;
	case 'v': a->verbose++; break;
	case 'V': printf("ppslab-sink %s\n", ppslab_version()); exit(0);
	case 'h': opt_usage(stdout, SYNOPSIS, opts); exit(0);
	default:
		if (!strcmp(name, "idle")) {
			if (num_duration_ns(arg, 1, 366ULL * 86400 * NS_PER_S, &a->idle_ns))
				return cli_bad(name, arg, num_expect_duration());
		} else if (!strcmp(name, "no-udp-csum")) {
			a->cfg.verify_udp_csum = false;
		}
		break;
	}
	return 0;
}

struct totals {
	uint64_t rx_frames, rx_pkts, rx_bytes, lost, dup, reord, err, foreign, other;
	uint64_t cls[PKT_CLASS_MAX];
};

static void totals_read(struct sink *s, struct totals *t)
{
	memset(t, 0, sizeof(*t));
	t->rx_frames = atomic_load_explicit(&s->ctr.rx_frames, memory_order_relaxed);
	t->rx_pkts = atomic_load_explicit(&s->ctr.rx_pkts, memory_order_relaxed);
	t->rx_bytes = atomic_load_explicit(&s->ctr.rx_bytes, memory_order_relaxed);
	t->lost = atomic_load_explicit(&s->ctr.lost_now, memory_order_relaxed);
	t->dup = atomic_load_explicit(&s->ctr.dup_pkts, memory_order_relaxed);
	t->reord = atomic_load_explicit(&s->ctr.reordered_pkts, memory_order_relaxed);
	for (int c = 0; c < PKT_CLASS_MAX; c++) {
		t->cls[c] = atomic_load_explicit(&s->ctr.cls[c], memory_order_relaxed);
		if (sink_class_is_error((enum pkt_class)c))
			t->err += t->cls[c];
		else if (c == PKT_FOREIGN)
			t->foreign += t->cls[c];
		else if (c != PKT_TEST)
			t->other += t->cls[c];
	}
}

static void print_header(void)
{
	printf("%8s %12s %6s %8s %14s %10s %9s %10s\n", "time", "packets", "errs", "idrops",
	       "bytes", "lost", "reorder", "dup");
}

static void report_interval(struct args *a, struct sink *s, const struct totals *c,
			    const struct totals *p, uint64_t drops, uint64_t pdrops, uint64_t t_ns,
			    uint64_t dt_ns)
{
	(void)s;
	if (a->json) {
		json_t *o = jout_obj("sink", "interval");
		jset_u64(o, "t_ns", t_ns);
		jset_u64(o, "dt_ns", dt_ns);
		jset_u64(o, "rx_pkts", c->rx_pkts - p->rx_pkts);
		jset_u64(o, "rx_bytes", c->rx_bytes - p->rx_bytes);
		jset_f(o, "pps", rate_per_s(c->rx_pkts, p->rx_pkts, dt_ns));
		jset_i64(o, "lost_pkts", (int64_t)(c->lost - p->lost));
		jset_u64(o, "dup_pkts", c->dup - p->dup);
		jset_u64(o, "reordered_pkts", c->reord - p->reord);
		jset_u64(o, "err_pkts", c->err - p->err);
		jset_u64(o, "foreign_pkts", c->foreign - p->foreign);
		jset_u64(o, "ring_drops", drops - pdrops);
		jout_emit(stdout, o);
	} else {
		char b1[32], b2[32];
		printf("%8.1f %12s %6llu %8llu %14s %10lld %9llu %10llu\n", (double)t_ns / 1e9,
		       fmt_thousands(c->rx_pkts - p->rx_pkts, b1, sizeof(b1)),
		       (unsigned long long)(c->err - p->err), (unsigned long long)(drops - pdrops),
		       fmt_thousands(c->rx_bytes - p->rx_bytes, b2, sizeof(b2)),
		       (long long)(c->lost - p->lost), (unsigned long long)(c->reord - p->reord),
		       (unsigned long long)(c->dup - p->dup));
		fflush(stdout);
	}
}

static json_t *hist_json(const uint64_t *h, int n)
{
	json_t *arr = json_array();
	int last = -1;
	for (int i = 0; i < n; i++)
		if (h[i])
			last = i;
	for (int i = 0; i <= last; i++)
		json_array_append_new(arr, json_integer((json_int_t)h[i]));
	return arr;
}

static json_t *latency_json(const struct sink_stream *st)
{
	json_t *o = json_object();
	const struct hist *h = &st->delay;
	jset_u64(o, "count", h->count);
	if (h->count) {
		jset_u64(o, "min", h->min);
		jset_f(o, "mean", hist_mean(h));
		jset_u64(o, "p50", hist_quantile(h, 0.50));
		jset_u64(o, "p90", hist_quantile(h, 0.90));
		jset_u64(o, "p99", hist_quantile(h, 0.99));
		jset_u64(o, "p999", hist_quantile(h, 0.999));
		jset_u64(o, "max", h->max);
	}
	return o;
}

static void report_summary(struct args *a, struct sink *s, const struct totals *t,
			   uint64_t drops, uint64_t dur_ns, int sig,
			   const struct if_counters *if0, const struct if_counters *if1,
			   const int *have_if)
{
	uint64_t lost = 0, dup = 0, reord = 0;
	for (int i = 0; i < SINK_STREAMS; i++) {
		struct sink_stream *st = s->streams[i];
		if (!st)
			continue;
		seq_finish(&st->seq, a->expect);
		lost += st->seq.lost_final;
		dup += st->seq.dup_pkts;
		reord += st->seq.reordered_pkts;
	}
	double pps = dur_ns ? (double)t->rx_pkts * 1e9 / (double)dur_ns : 0;
	if (a->json) {
		json_t *o = jout_obj("sink", "summary");
		jset_s(o, "version", ppslab_version());
		json_t *ports = json_array();
		for (int i = 0; i < s->cfg.nports; i++)
			json_array_append_new(ports, json_string(port_spec(s->ports[i])));
		json_object_set_new(o, "ports", ports);
		jset_u64(o, "dport", s->cfg.dport);
		jset_u64(o, "rx_frames", t->rx_frames);
		jset_u64(o, "rx_pkts", t->rx_pkts);
		jset_u64(o, "rx_bytes", t->rx_bytes);
		jset_u64(o, "lost_pkts", lost);
		jset_u64(o, "dup_pkts", dup);
		jset_u64(o, "reordered_pkts", reord);
		jset_u64(o, "err_pkts", t->err);
		jset_u64(o, "foreign_pkts", t->foreign);
		jset_u64(o, "other_pkts", t->other);
		jset_u64(o, "warmup_pkts", atomic_load(&s->ctr.warmup_pkts));
		jset_u64(o, "ring_drops", drops);
		jset_u64(o, "duration_ns", dur_ns);
		jset_f(o, "pps", pps);
		if (a->expect)
			jset_u64(o, "expect", a->expect);
		json_t *cls = json_object();
		for (int c = 1; c < PKT_CLASS_MAX; c++)
			jset_u64(cls, pkt_class_name((enum pkt_class)c), t->cls[c]);
		json_object_set_new(o, "classes", cls);
		json_t *ifs = json_array();
		for (int i = 0; i < s->cfg.nports; i++) {
			if (!have_if[i])
				continue;
			json_t *f = json_object();
			jset_s(f, "name", port_ifname(s->ports[i]));
			jset_u64(f, "rx_packets", if1[i].rx_packets - if0[i].rx_packets);
			jset_u64(f, "rx_dropped", if1[i].rx_dropped - if0[i].rx_dropped);
			jset_u64(f, "rx_missed_errors", if1[i].rx_missed_errors - if0[i].rx_missed_errors);
			jset_u64(f, "rx_fifo_errors", if1[i].rx_fifo_errors - if0[i].rx_fifo_errors);
			jset_u64(f, "rx_over_errors", if1[i].rx_over_errors - if0[i].rx_over_errors);
			jset_u64(f, "rx_crc_errors", if1[i].rx_crc_errors - if0[i].rx_crc_errors);
			json_array_append_new(ifs, f);
		}
		json_object_set_new(o, "interfaces", ifs);
		json_t *streams = json_array();
		for (int i = 0; i < SINK_STREAMS; i++) {
			struct sink_stream *st = s->streams[i];
			if (!st)
				continue;
			json_t *so = json_object();
			jset_u64(so, "stream", st->id);
			jset_u64(so, "rx_pkts", st->seq.rx_pkts);
			jset_u64(so, "rx_bytes", st->rx_bytes);
			jset_u64(so, "lost_pkts", st->seq.lost_final);
			jset_u64(so, "dup_pkts", st->seq.dup_pkts);
			jset_u64(so, "reordered_pkts", st->seq.reordered_pkts);
			jset_u64(so, "late_pkts", st->seq.late_pkts);
			jset_u64(so, "next_seq", st->seq.next_exp);
			jset_u64(so, "max_reorder_extent", st->seq.max_extent);
			json_object_set_new(so, "reorder_extent_log2_hist",
					    hist_json(st->seq.extent_hist, SEQ_HIST_LOG2));
			jset_u64(so, "max_loss_burst", st->seq.max_loss_burst);
			json_object_set_new(so, "loss_burst_log2_hist",
					    hist_json(st->seq.loss_burst_hist, SEQ_HIST_LOG2));
			jset_s(so, "clock", st->clock_flags_seen == 1 ? "realtime" :
				   st->clock_flags_seen == 2 ? "monotonic" : "mixed");
			json_object_set_new(so, "latency_ns", latency_json(st));
			jset_u64(so, "neg_delay_pkts", st->neg_delay);
			jset_f(so, "jitter_ns", st->jitter_ns);
			json_array_append_new(streams, so);
		}
		json_object_set_new(o, "streams", streams);
		jset_b(o, "interrupted", sig != 0);
		jout_emit(stdout, o);
	} else {
		char b1[32], b2[32];
		printf("received %s test frames (%s pps) in %.3f s: lost %llu, duplicated %llu, "
		       "reordered %llu; errors %llu, foreign %llu, other %llu; ring drops %llu\n",
		       fmt_thousands(t->rx_pkts, b1, sizeof(b1)),
		       fmt_thousands((uint64_t)(pps + 0.5), b2, sizeof(b2)), (double)dur_ns / 1e9,
		       (unsigned long long)lost, (unsigned long long)dup, (unsigned long long)reord,
		       (unsigned long long)t->err, (unsigned long long)t->foreign,
		       (unsigned long long)t->other, (unsigned long long)drops);
		for (int i = 0; i < SINK_STREAMS; i++) {
			struct sink_stream *st = s->streams[i];
			if (!st)
				continue;
			printf("  stream %u: rx %llu lost %llu dup %llu reord %llu; delay p50 %.1f us "
			       "p99 %.1f us max %.1f us; jitter %.2f us\n", st->id,
			       (unsigned long long)st->seq.rx_pkts,
			       (unsigned long long)st->seq.lost_final,
			       (unsigned long long)st->seq.dup_pkts,
			       (unsigned long long)st->seq.reordered_pkts,
			       hist_quantile(&st->delay, 0.5) / 1e3, hist_quantile(&st->delay, 0.99) / 1e3,
			       (st->delay.count ? st->delay.max : 0) / 1e3, st->jitter_ns / 1e3);
		}
	}
}

struct worker_arg {
	struct sink *s;
	struct runctl *rc;
	int ret;
};

static void *worker(void *p)
{
	struct worker_arg *w = p;
	w->ret = sink_run(w->s, w->rc);
	runctl_wake(w->rc);
	return NULL;
}

int main(int argc, char **argv)
{
	struct args a = { .cfg = { .dport = PKT_DEFAULT_DPORT, .verify_udp_csum = true },
			  .interval_ns = NS_PER_S, .verbose = 1 };
	int first, rc;
	char err[256];

	log_init("ppslab-sink", 1);
	if ((rc = opt_parse(argc, argv, opts, handle, &a, &first)))
		return rc;
	log_init("ppslab-sink", a.verbose);
	if (first < argc) {
		log_err("unexpected argument '%s' (see --help)", argv[first]);
		return EX_USAGE;
	}
	if (!a.cfg.nports) {
		log_err("no port: give -i PORTSPEC (e.g. -i sink0 or -i udp:0.0.0.0:9)");
		return EX_USAGE;
	}
	if (!a.duration_ns && !a.idle_ns)
		a.idle_ns = 10 * NS_PER_S;

	struct sink *s = calloc(1, sizeof(*s));
	if (!s)
		return EX_OSERR;
	if ((rc = sink_init(s, &a.cfg, err, sizeof(err)))) {
		log_err("%s", err);
		free(s);
		return cli_exit_code(rc);
	}
	struct if_counters if0[SINK_MAX_PORTS], if1[SINK_MAX_PORTS];
	int have_if[SINK_MAX_PORTS] = { 0 };
	for (int i = 0; i < a.cfg.nports; i++) {
		const char *ifn = port_ifname(s->ports[i]);
		have_if[i] = *ifn && if_counters_read(ifn, &if0[i]) == 0;
	}

	struct runctl rctl;
	runctl_init(&rctl);
	struct worker_arg w = { .s = s, .rc = &rctl };
	pthread_t th;
	if (pthread_create(&th, NULL, worker, &w)) {
		log_err("cannot start the receive thread");
		return EX_OSERR;
	}
	if (!a.json)
		print_header();
	struct totals prev, cur;
	memset(&prev, 0, sizeof(prev));
	uint64_t t0 = mono_ns(), last = t0, next = t0 + a.interval_ns, pdrops = 0;
	uint64_t end = a.duration_ns ? t0 + a.duration_ns : UINT64_MAX;
	int sig = 0;
	for (;;) {
		uint64_t wake = next < end ? next : end;
		if (a.idle_ns && wake > mono_ns() + 50 * NS_PER_MS)
			wake = mono_ns() + 50 * NS_PER_MS;   /* check idleness often */
		int sg = runctl_wait_until(&rctl, wake);
		if (sg == SIGINT || sg == SIGTERM) {
			sig = sg;
			break;
		}
		if (sg == SIGUSR1)
			break;   /* the receiver stopped on an error */
		uint64_t now = mono_ns();
		if (now >= end)
			break;
		if (a.idle_ns) {
			/* the receiver may stamp a frame after `now` was read: lt > now is not idle */
			uint64_t lt = atomic_load(&s->ctr.last_test_ns);
			if (lt < t0)
				lt = t0;
			if (now > lt && now - lt >= a.idle_ns)
				break;
		}
		if (now >= next) {
			uint64_t drops = 0;
			struct port_stats ps;
			totals_read(s, &cur);
			for (int i = 0; i < a.cfg.nports; i++) {
				port_stats(s->ports[i], &ps);
				drops += ps.rx_drops;
			}
			report_interval(&a, s, &cur, &prev, drops, pdrops, now - t0, now - last);
			prev = cur;
			pdrops = drops;
			last = now;
			next += a.interval_ns;
		}
	}
	atomic_store(&rctl.stop, 1);
	pthread_join(th, NULL);
	uint64_t dur = mono_ns() - t0, drops = 0;
	struct port_stats ps;
	totals_read(s, &cur);
	for (int i = 0; i < a.cfg.nports; i++) {
		port_stats(s->ports[i], &ps);
		drops += ps.rx_drops;
		if (have_if[i])
			have_if[i] = if_counters_read(port_ifname(s->ports[i]), &if1[i]) == 0;
	}
	if (cur.rx_frames > prev.rx_frames)
		report_interval(&a, s, &cur, &prev, drops, pdrops, dur, mono_ns() - last);
	report_summary(&a, s, &cur, drops, dur, sig, if0, if1, have_if);
	sink_fini(s);
	free(s);
	if (w.ret) {
		log_err("receive failed: %s", strerror(-w.ret));
		return cli_exit_code(w.ret);
	}
	return EX_OK;
}
