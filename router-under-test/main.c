/* main.c — ppslab-rut: options, the scheduling loop (busy), interval lines and the
 * summary. Forwarding is fwd.c; routes and neighbours route.c. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "clock.h"
#include "fmt.h"
#include "fwd.h"
#include "jout.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "runctl.h"
#include "version.h"

static const struct opt_def opts[] = {
	{ "in", 'i', "PORTSPEC", "first port (afpacket:IF, pcap:IF or IF)" },
	{ "out", 'o', "PORTSPEC", "second port; frames are forwarded both ways" },
	{ "mode", 'm', "MODE", "scheduling: busy (spin, run to completion)" },
	{ "burst", 'b', "N", "frames per receive burst in busy mode (default 64)" },
	{ "duration", 't', "DUR", "stop after DUR (default: until SIGINT/SIGTERM)" },
	{ "interval", 'I', "DUR", "report interval (default 1s)" },
	{ "json", 'j', NULL, "JSON lines: one per interval, then a summary" },
	{ "quiet", 'q', NULL, "only errors on stderr" },
	{ "verbose", 'v', NULL, "more diagnostics on stderr" },
	{ "version", 'V', NULL, "print the version" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

#define SYNOPSIS "ppslab-rut -i PORTSPEC -o PORTSPEC [--mode busy] [--duration DUR] [options]"

struct args {
	const char *specs[2];
	int nspecs;
	uint64_t duration_ns, interval_ns, burst;
	int json, verbose;
};

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	switch (key) {
	case 'i': a->specs[0] = arg; break;
	case 'o': a->specs[1] = arg; break;
	case 'm':
		if (strcmp(arg, "busy"))
			return cli_bad(name, arg, "busy");
		break;
	case 'b':
		if (num_u64(arg, 1, FWD_BURST_MAX, &a->burst))
			return cli_bad(name, arg, "a burst of 1..1024 frames");
		break;
	case 't':
		if (num_duration_ns(arg, 1, 366ULL * 86400 * NS_PER_S, &a->duration_ns))
			return cli_bad(name, arg, num_expect_duration());
		break;
	case 'I':
		if (num_duration_ns(arg, 10 * NS_PER_MS, 3600 * NS_PER_S, &a->interval_ns))
			return cli_bad(name, arg, "an interval from 10ms to 1h");
		break;
	case 'j': a->json = 1; break;
	case 'q': a->verbose = 0; break;
	case 'v': a->verbose++; break;
	case 'V': printf("ppslab-rut %s\n", ppslab_version()); exit(0);
	case 'h': opt_usage(stdout, SYNOPSIS, opts); exit(0);
	}
	return 0;
}

struct snap {
	uint64_t rx, fwd, drop, txfull;
};

static uint64_t ld(_Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static void snap_read(struct fwd *f, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < f->nports; i++) {
		s->rx += ld(&f->ports[i].ctr.rx_pkts);
		s->txfull += ld(&f->ports[i].ctr.drop_txfull);
	}
	s->fwd = ld(&f->ctr.fwd_pkts);
	s->drop = s->txfull + ld(&f->ctr.drop_malformed) + ld(&f->ctr.drop_not_ip4) +
		  ld(&f->ctr.drop_ttl) + ld(&f->ctr.drop_no_route) + ld(&f->ctr.drop_no_neigh);
}

static void report_interval(struct args *a, const struct snap *c, const struct snap *p,
			    uint64_t t_ns, uint64_t dt_ns)
{
	if (a->json) {
		json_t *o = jout_obj("rut", "interval");
		jset_u64(o, "t_ns", t_ns);
		jset_u64(o, "dt_ns", dt_ns);
		jset_u64(o, "rx_pkts", c->rx - p->rx);
		jset_u64(o, "fwd_pkts", c->fwd - p->fwd);
		jset_u64(o, "drop_pkts", c->drop - p->drop);
		jset_f(o, "fwd_pps", rate_per_s(c->fwd, p->fwd, dt_ns));
		jout_emit(stdout, o);
	} else {
		char b1[32], b2[32];
		printf("%8.1f %12s %12s %10llu\n", (double)t_ns / 1e9,
		       fmt_thousands((uint64_t)(rate_per_s(c->rx, p->rx, dt_ns) + .5), b1, sizeof(b1)),
		       fmt_thousands((uint64_t)(rate_per_s(c->fwd, p->fwd, dt_ns) + .5), b2, sizeof(b2)),
		       (unsigned long long)(c->drop - p->drop));
		fflush(stdout);
	}
}

static void report_summary(struct args *a, struct fwd *f, uint64_t dur_ns, int sig)
{
	struct snap s;
	struct rusage ru;
	snap_read(f, &s);
	getrusage(RUSAGE_SELF, &ru);
	double cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (a->json) {
		json_t *o = jout_obj("rut", "summary");
		jset_s(o, "version", ppslab_version());
		jset_s(o, "mode", "busy");
		jset_u64(o, "rx_pkts", s.rx);
		jset_u64(o, "fwd_pkts", s.fwd);
		jset_u64(o, "drop_pkts", s.drop);
		json_t *d = json_object();
		jset_u64(d, "txfull", s.txfull);
		jset_u64(d, "malformed", ld(&f->ctr.drop_malformed));
		jset_u64(d, "not_ip4", ld(&f->ctr.drop_not_ip4));
		jset_u64(d, "ttl_expired", ld(&f->ctr.drop_ttl));
		jset_u64(d, "no_route", ld(&f->ctr.drop_no_route));
		jset_u64(d, "no_neigh", ld(&f->ctr.drop_no_neigh));
		json_object_set_new(o, "drops", d);
		json_t *ports = json_array();
		for (int i = 0; i < f->nports; i++) {
			struct fwd_port *p = &f->ports[i];
			struct port_stats ps;
			port_stats(p->port, &ps);
			json_t *po = json_object();
			jset_s(po, "port", port_spec(p->port));
			jset_u64(po, "rx_pkts", ld(&p->ctr.rx_pkts));
			jset_u64(po, "rx_bytes", ld(&p->ctr.rx_bytes));
			jset_u64(po, "tx_pkts", ld(&p->ctr.tx_pkts));
			jset_u64(po, "tx_bytes", ld(&p->ctr.tx_bytes));
			jset_u64(po, "drop_txfull", ld(&p->ctr.drop_txfull));
			jset_u64(po, "kernel_drops", ps.rx_drops);
			json_array_append_new(ports, po);
		}
		json_object_set_new(o, "ports", ports);
		jset_u64(o, "duration_ns", dur_ns);
		jset_f(o, "fwd_pps", dur_ns ? (double)s.fwd * 1e9 / (double)dur_ns : 0);
		jset_f(o, "cpu_s", cpu_s);
		jset_b(o, "interrupted", sig != 0);
		jout_emit(stdout, o);
	} else {
		char b1[32], b2[32];
		printf("received %s, forwarded %s, dropped %llu in %.3f s; CPU %.2f s\n",
		       fmt_thousands(s.rx, b1, sizeof(b1)), fmt_thousands(s.fwd, b2, sizeof(b2)),
		       (unsigned long long)s.drop, (double)dur_ns / 1e9, cpu_s);
	}
}

struct worker_arg {
	struct fwd *f;
	struct runctl *rc;
	int burst;
	int ret;
};

/* busy: spin over the ports, run each burst to completion (the DPDK style) */
static void *worker(void *p)
{
	struct worker_arg *w = p;
	while (!runctl_stopped(w->rc)) {
		for (int i = 0; i < w->f->nports; i++) {
			int n = fwd_burst(w->f, i, w->burst);
			if (n < 0) {
				w->ret = n;
				runctl_wake(w->rc);
				return NULL;
			}
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct args a = { .interval_ns = NS_PER_S, .burst = 64, .verbose = 1 };
	int first, rc;
	char err[256];

	log_init("ppslab-rut", 1);
	if ((rc = opt_parse(argc, argv, opts, handle, &a, &first)))
		return rc;
	log_init("ppslab-rut", a.verbose);
	if (first < argc) {
		log_err("unexpected argument '%s' (see --help)", argv[first]);
		return EX_USAGE;
	}
	if (!a.specs[0] || !a.specs[1]) {
		log_err("give both ports: -i PORTSPEC -o PORTSPEC (e.g. -i rut0 -o rut1)");
		return EX_USAGE;
	}
	struct fwd *f = calloc(1, sizeof(*f));
	if (!f)
		return EX_OSERR;
	if ((rc = fwd_init(f, a.specs, 2, 1514, err, sizeof(err)))) {
		log_err("%s", err);
		fwd_fini(f);
		free(f);
		return cli_exit_code(rc);
	}
	struct runctl rctl;
	runctl_init(&rctl);
	struct worker_arg w = { .f = f, .rc = &rctl, .burst = (int)a.burst };
	pthread_t th;
	if (pthread_create(&th, NULL, worker, &w)) {
		log_err("cannot start the forwarding thread");
		return EX_OSERR;
	}
	if (!a.json)
		printf("%8s %12s %12s %10s\n", "time", "rx pps", "fwd pps", "dropped");
	struct snap prev = { 0 }, cur;
	uint64_t t0 = mono_ns(), last = t0, next = t0 + a.interval_ns;
	uint64_t end = a.duration_ns ? t0 + a.duration_ns : UINT64_MAX;
	int sig = 0;
	for (;;) {
		int s = runctl_wait_until(&rctl, next < end ? next : end);
		if (s == SIGINT || s == SIGTERM) {
			sig = s;
			break;
		}
		if (s == SIGUSR1)
			break;
		uint64_t now = mono_ns();
		if (now >= end)
			break;
		snap_read(f, &cur);
		report_interval(&a, &cur, &prev, now - t0, now - last);
		prev = cur;
		last = now;
		next += a.interval_ns;
	}
	atomic_store(&rctl.stop, 1);
	pthread_join(th, NULL);
	report_summary(&a, f, mono_ns() - t0, sig);
	fwd_fini(f);
	free(f);
	if (w.ret) {
		log_err("forwarding failed: %s", strerror(-w.ret));
		return cli_exit_code(w.ret);
	}
	return EX_OK;
}
