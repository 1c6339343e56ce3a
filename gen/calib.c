/* SPDX-License-Identifier: BSD-2-Clause */
/* calib.c — the --calibrate run (see calib.h). Called by main.c instead of a normal
 * run; each phase is a complete gen_init / gen_start / gen_join with its own ports, so
 * the phases measure exactly what a normal run at that rate would do. */
#include "calib.h"

#include <math.h>
#include <signal.h>
#include <string.h>

#include "clock.h"
#include "fmt.h"
#include "jout.h"
#include "version.h"

static const double fractions[CALIB_POINTS] = { 0.10, 0.50, 0.90 };

struct phase_result {
	int done;
	double target_pps;
	struct gen_snap s;
	struct gen_verdict v;
	struct hist gaps;
	double nominal_gap_ns;
	double if_pps;
	char port[160], backend[16];
};

static struct phase_result res[1 + CALIB_POINTS];   /* large: gap histograms */

/* One phase at pps (0: as fast as possible) for dur_ns. Returns 0 or -errno; *sig is
 * set when a signal stopped it. */
static int phase(const struct calib_cfg *cc, struct runctl *rc, double pps, uint64_t dur_ns,
		 struct phase_result *r, int *sig, char *err, size_t errlen)
{
	struct gen g;
	struct gen_cfg c = cc->base;
	struct if_counters if0, if1;
	c.rate_pps = pps;
	c.profile = NULL;
	c.poisson = 0;
	c.count = 0;
	c.warmup_ns = 0;
	c.duration_ns = dur_ns;
	int rcode = gen_init(&g, &c, err, errlen);
	if (rcode)
		return rcode;
	int have_if = cc->ifname[0] && if_counters_read(cc->ifname, &if0) == 0;
	if (cc->ready && !cc->ready->done) {
		for (unsigned t = 0; t < g.nw; t++)
			ready_port_add(cc->ready, g.w[t].port);
		ready_announce(cc->ready, cc->out, stderr);
	}
	uint64_t start = mono_ns() + 20 * NS_PER_MS;
	if ((rcode = gen_start(&g, rc, start, err, errlen))) {
		gen_fini(&g);
		return rcode;
	}
	/* a bounded wait: the run ends by itself after dur_ns; 5 s more is a stuck port */
	uint64_t limit = start + dur_ns + 5 * NS_PER_S;
	for (;;) {
		int s = runctl_wait_until(rc, limit);
		if (s == SIGINT || s == SIGTERM) {
			*sig = s;
			break;
		}
		if (gen_running(&g) == 0)
			break;
		if (s == 0 && mono_ns() >= limit) {
			atomic_store(&rc->stop, 1);
			break;
		}
	}
	int wret = gen_join(&g);
	gen_snapshot(&g, &r->s);
	gen_verdict(&g, &r->s, &r->v);
	gen_gaps(&g, &r->gaps);
	r->target_pps = pps;
	r->nominal_gap_ns = pps > 0 ? 1e9 * g.cfg.burst * g.nw / pps : NAN;
	r->if_pps = NAN;
	if (have_if && if_counters_read(cc->ifname, &if1) == 0 && r->v.duration_ns)
		r->if_pps = (double)(if1.tx_packets - if0.tx_packets) * 1e9 / (double)r->v.duration_ns;
	snprintf(r->port, sizeof(r->port), "%s", port_spec(g.w[0].port));
	snprintf(r->backend, sizeof(r->backend), "%s", port_backend(g.w[0].port));
	r->done = !*sig;
	gen_fini(&g);
	if (wret)
		snprintf(err, errlen, "send failed: %s", strerror(-wret));
	return wret;
}

static json_t *point_json(const struct phase_result *r, double frac)
{
	json_t *o = json_object();
	jset_f(o, "fraction", frac);
	jset_f(o, "target_pps", r->target_pps);
	jset_f(o, "pps", r->v.pps);
	jset_f(o, "rate_error_pct", r->v.rate_error_pct);
	jset_f(o, "shortfall_pct", r->v.shortfall_pct);
	jset_b(o, "rate_ok", r->v.rate_ok);
	jset_u64(o, "tx_pkts", r->s.tx_pkts);
	jset_u64(o, "sched_pkts", r->s.sched_pkts);
	jset_u64(o, "tx_full", r->s.tx_full);
	jset_u64(o, "late", r->s.late);
	jset_f(o, "if_tx_pps", r->if_pps);
	json_object_set_new(o, "gap_ns", gen_gaps_json(&r->gaps, r->nominal_gap_ns));
	return o;
}

int calib_run(const struct calib_cfg *cc, const struct gen_info *info, struct runctl *rc,
	      char *err, size_t errlen)
{
	FILE *f = cc->out;
	int sig = 0, ret = 0, npts = 0;
	char b1[32], b2[32], b3[32];
	memset(res, 0, sizeof(res));

	if (!cc->json) {
		fprintf(f, "calibrating on %s: %u thread%s, %.0f B frames; ceiling for %.1f s, then "
			"10%%, 50%% and 90%% of it for %.1f s each\n", cc->base.port_spec,
			cc->base.threads, cc->base.threads == 1 ? "" : "s", info->mean_wire,
			(double)cc->max_ns / 1e9, (double)cc->frac_ns / 1e9);
		fflush(f);
	}
	ret = phase(cc, rc, 0, cc->max_ns, &res[0], &sig, err, errlen);
	double max_pps = res[0].done ? res[0].v.pps : NAN;
	if (!ret && !sig && !cc->json) {
		fprintf(f, "ceiling: %s pps (%.3f Mbit/s L2), interface %s pps, ring full %llu times\n",
			fmt_thousands((uint64_t)(max_pps + 0.5), b1, sizeof(b1)),
			max_pps * info->mean_wire * 8 / 1e6,
			isfinite(res[0].if_pps) ? fmt_thousands((uint64_t)(res[0].if_pps + 0.5), b2, sizeof(b2)) : "-",
			(unsigned long long)res[0].s.tx_full);
		fprintf(f, "%8s %12s %12s %9s %10s %8s %9s %9s %9s\n", "fraction", "target pps",
			"pps", "error", "shortfall", "late", "gap50 us", "gap99 us", "nom. us");
		fflush(f);
	}
	for (int i = 0; i < CALIB_POINTS && !ret && !sig && max_pps >= 1; i++) {
		struct phase_result *r = &res[1 + i];
		ret = phase(cc, rc, fractions[i] * max_pps, cc->frac_ns, r, &sig, err, errlen);
		if (ret || sig)
			break;
		npts++;
		if (!cc->json) {
			fprintf(f, "%7.0f%% %12s %12s %+8.3f%% %+9.3f%% %8llu %9.1f %9.1f %9.1f  %s\n",
				fractions[i] * 100,
				fmt_thousands((uint64_t)(r->target_pps + 0.5), b1, sizeof(b1)),
				isfinite(r->v.pps) ? fmt_thousands((uint64_t)(r->v.pps + 0.5), b2, sizeof(b2)) : "-",
				r->v.rate_error_pct, r->v.shortfall_pct, (unsigned long long)r->s.late,
				(double)hist_quantile(&r->gaps, 0.5) / 1e3,
				(double)hist_quantile(&r->gaps, 0.99) / 1e3, r->nominal_gap_ns / 1e3,
				r->v.rate_ok ? "ok" : "MISSED");
			fflush(f);
		}
	}
	(void)b3;

	/* frames of every phase that ran, the interrupted one too; figures only from whole
	 * phases (an interrupted ceiling is no ceiling, for the interface either) */
	uint64_t tx = 0, bytes = 0, fail = 0;
	int all_ok = npts == CALIB_POINTS;
	for (int i = 0; i <= CALIB_POINTS; i++) {
		tx += res[i].s.tx_pkts;
		bytes += res[i].s.tx_bytes;
		fail += res[i].s.tx_fail;
		if (i && i <= npts)
			all_ok &= res[i].v.rate_ok;
	}
	double if_max = res[0].done ? res[0].if_pps : NAN;
	if (cc->json) {
		json_t *o = jout_obj("gen", "summary");
		jset_s(o, "version", ppslab_version());
		jset_s(o, "mode", "calibrate");
		jset_s(o, "port", res[0].port[0] ? res[0].port : cc->base.port_spec);
		jset_s(o, "backend", res[0].backend);
		jset_s(o, "src", *info->src ? info->src : NULL);
		jset_s(o, "dst", *info->dst ? info->dst : NULL);
		jset_u64(o, "threads", cc->base.threads);
		jset_u64(o, "wire_size", (uint64_t)(info->mean_wire + 0.5));
		jset_f(o, "max_pps", max_pps);
		jset_f(o, "max_l2_bps", max_pps * info->mean_wire * 8);
		jset_f(o, "max_l1_bps", max_pps * (info->mean_wire + PKT_L1_OVERHEAD) * 8);
		jset_f(o, "if_max_pps", if_max);
		jset_u64(o, "max_tx_full", res[0].s.tx_full);
		json_t *pts = json_array();
		for (int i = 0; i < npts; i++)
			json_array_append_new(pts, point_json(&res[1 + i], fractions[i]));
		json_object_set_new(o, "points", pts);
		jset_u64(o, "tx_pkts", tx);
		jset_u64(o, "tx_bytes", bytes);
		jset_u64(o, "tx_fail", fail);
		jset_u64(o, "duration_ns", res[0].v.duration_ns);
		jset_f(o, "pps", max_pps);
		jset_b(o, "rate_ok", all_ok);
		jset_b(o, "interrupted", sig != 0);
		jout_emit(f, o);
	} else {
		if (npts == CALIB_POINTS)
			fprintf(f, "pacing %s at 10-90%% of the ceiling\n",
				all_ok ? "within 0.5%" : "MISSED its target");
		if (sig) {
			if (!res[0].done)
				fprintf(f, "interrupted by signal %d while measuring the ceiling: no "
					"ceiling (%s frames sent)\n", sig, fmt_thousands(tx, b1, sizeof(b1)));
			else
				fprintf(f, "interrupted by signal %d at the %.0f%% point: the ceiling and "
					"%d point%s above are complete (%s frames sent in all)\n", sig,
					fractions[npts < CALIB_POINTS ? npts : CALIB_POINTS - 1] * 100, npts,
					npts == 1 ? "" : "s", fmt_thousands(tx, b1, sizeof(b1)));
		}
		fflush(f);
	}
	return ret;
}
