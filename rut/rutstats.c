/* SPDX-License-Identifier: BSD-2-Clause */
/* rutstats.c — the statistics JSON object (see rutstats.h). Called by cmd.c (ctl `stats`)
 * on the forwarding thread and by main.c for the summary. Field names are the
 * contract with `ppslab run` and scripts: docs/forwarder.md lists them. */
#include "rutstats.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "clock.h"
#include "fw.h"
#include "fwlog.h"
#include "hist.h"
#include "jout.h"
#include "relaxed.h"
#include "version.h"

void rutstats_cpu(double *user_s, double *sys_s)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static json_t *drops_obj(const uint64_t *d)
{
	json_t *o = json_object();
	for (int i = 0; i < FWD_DROP_COUNT; i++)
		jset_u64(o, fwd_drop_name((enum fwd_drop)i), d[i]);
	return o;
}

static json_t *late_obj(const struct hist *h)
{
	json_t *j = json_object();
	jset_u64(j, "count", h->count);
	jset_f(j, "mean", h->count ? hist_mean(h) : 0);
	jset_u64(j, "p50", hist_quantile(h, 0.50));
	jset_u64(j, "p90", hist_quantile(h, 0.90));
	jset_u64(j, "p99", hist_quantile(h, 0.99));
	jset_u64(j, "p999", hist_quantile(h, 0.999));
	jset_u64(j, "max", h->count ? h->max : 0);
	return j;
}

/* The counters of a poll context that add up over the threads. */
static void add_counters(struct devpoll_stats *a, const struct devpoll_stats *b)
{
	a->short_ticks += b->short_ticks;
	a->lost_polls += b->lost_polls;
	a->suspect += b->suspect;
	a->stalled += b->stalled;
	a->ticks += b->ticks;
	a->rounds += b->rounds;
	a->chunks += b->chunks;
	a->status_checks += b->status_checks;
	a->catchup_rounds += b->catchup_rounds;
	a->idle_passes += b->idle_passes;
	a->polled_frames += b->polled_frames;
	a->idle_frames += b->idle_frames;
	a->ticks_in_work += b->ticks_in_work;
	a->clock_skips += b->clock_skips;
	a->ticks_deferred += b->ticks_deferred;
	a->ticks_after_round += b->ticks_after_round;
	a->stolen_ns += b->stolen_ns;
	a->host_delays += b->host_delays;
	a->host_ns += b->host_ns;
	a->unsure_polls += b->unsure_polls;
}

/* One context's figures, or (all) thread 0's knobs and state with the counters of
 * every thread summed and the lateness of every tick. */
static json_t *polling_obj(struct fwdloop *s, int thr, bool all)
{
	const struct devpoll *p0 = fwdloop_poll0(s);
	struct fwdloop_view *v = malloc(sizeof(*v)), *w = all ? malloc(sizeof(*w)) : NULL;
	if (!v || (all && !w)) {
		free(v);
		free(w);
		return json_object();
	}
	fwdloop_poll_view(s, thr, v);
	for (int i = 1; all && i < fwdloop_nthr(s); i++) {
		fwdloop_poll_view(s, i, w);
		add_counters(&v->st, &w->st);
		hist_merge(&v->late_ns, &w->late_ns);
	}
	const struct devpoll_stats *st = &v->st;
	json_t *o = json_object();
	/* the kern.polling names first, in sysctl order */
	jset_u64(o, "burst", st->burst);
	jset_u64(o, "each_burst", v->k.each_burst);
	jset_u64(o, "burst_max", v->k.burst_max);
	jset_u64(o, "user_frac", v->k.user_frac);
	jset_u64(o, "reg_frac", v->k.reg_frac);
	jset_u64(o, "short_ticks", st->short_ticks);
	jset_u64(o, "lost_polls", st->lost_polls);
	jset_u64(o, "pending_polls", st->pending_polls);
	jset_u64(o, "residual_burst", st->residual_burst);
	jset_u64(o, "handlers", st->handlers);
	if (devpoll_has(p0, POLL_K_ENABLE))
		jset_u64(o, "enable", v->k.enable);
	jset_u64(o, "phase", st->phase);
	jset_u64(o, "suspect", st->suspect);
	jset_u64(o, "stalled", st->stalled);
	if (devpoll_has(p0, POLL_K_POLLHZ))
		jset_u64(o, "pollhz", v->k.pollhz);
	if (devpoll_has(p0, POLL_K_IDLE_POLL)) {
		jset_u64(o, "idle_poll", v->k.idle_poll);
		jset_u64(o, "idlepoll_sleeping", !(v->k.idle_poll && v->registered));
	}
	/* extensions */
	if (all) {
		jset_s(o, "kernel", p0->kern->name);
		jset_u64(o, "hz", v->k.hz);
		jset_u64(o, "clock_hz", v->clock_hz);
		jset_s(o, "range_policy", pollkern_range_name(p0->range));
		jset_u64(o, "spin_ns", fwdloop_spin_ns(s));
		jset_u64(o, "rt_prio", (uint64_t)fwdloop_rt_prio(s));
	} else {
		jset_u64(o, "t_ns", v->t_ns - fwdloop_info(s)->t0_ns);   /* when these were taken */
	}
	jset_u64(o, "ticks", st->ticks);
	jset_u64(o, "rounds", st->rounds);
	jset_u64(o, "chunks", st->chunks);
	jset_u64(o, "status_checks", st->status_checks);
	jset_u64(o, "catchup_rounds", st->catchup_rounds);
	jset_u64(o, "idle_passes", st->idle_passes);
	jset_u64(o, "polled_frames", st->polled_frames);
	jset_u64(o, "idle_frames", st->idle_frames);
	jset_u64(o, "ticks_in_work", st->ticks_in_work);
	jset_u64(o, "clock_skips", st->clock_skips);
	jset_u64(o, "ticks_deferred", st->ticks_deferred);
	jset_u64(o, "ticks_after_round", st->ticks_after_round);
	jset_u64(o, "stolen_ns", st->stolen_ns);
	jset_u64(o, "host_delays", st->host_delays);
	jset_u64(o, "host_ns", st->host_ns);
	jset_u64(o, "unsure_polls", st->unsure_polls);
	jset_u64(o, "last_load_pct", st->last_load_pct);
	/* lateness of the ticks after their deadline (CLOCK_MONOTONIC ns): the timer's
	 * accuracy, rounds that overran, and the host's scheduling of the thread */
	json_object_set_new(o, "tick_late_ns", late_obj(&v->late_ns));
	free(v);
	free(w);
	return o;
}

/* The firewall: tunables, what it dropped, and every rule's counters in ruleset order
 * (packets and bytes = IP length, counted per pass as ipfw does; last match in
 * CLOCK_REALTIME seconds), plus the frames each rule number dropped as the forwarder
 * counted them (kept even with net.inet.ip.fw.update_counters=0). */
static void fw_objs(json_t *o, struct fwd *f, const uint64_t *drops)
{
	static const char *const ctr_names[] = { "percpu", "shared" };
	if (!f->fw)
		return;
	const struct fw_tunables *t = fw_tunables(f->fw);
	int n = fw_rule_count(f->fw);
	json_t *fo = json_object();
	jset_u64(fo, "enable", t->enable);
	jset_u64(fo, "default_to_accept", t->default_to_accept);
	jset_u64(fo, "update_counters", t->update_counters);
	jset_s(fo, "counters", ctr_names[t->counters == FW_CTR_SHARED]);
	jset_u64(fo, "verbose", t->verbose);
	jset_u64(fo, "static_count", (uint64_t)n);
	jset_u64(fo, "denied_pkts", drops[FWD_DROP_FW_DENY] + drops[FWD_DROP_FW_UNREACH] +
					drops[FWD_DROP_FW_RESET]);
	/* dropped before any rule (ipfw_chk's pullup_failed) */
	jset_u64(fo, "pullup_failed", drops[FWD_DROP_FW_TINYFRAG] + drops[FWD_DROP_FW_TRUNCATED]);
	struct fw_dyn_stats ds;
	fw_dyn_stats(f->fw, &ds);
	jset_u64(fo, "dyn_count", ds.count);
	jset_u64(fo, "dyn_parent_count", ds.parent_count);
	jset_u64(fo, "curr_dyn_buckets", ds.curr_buckets);
	jset_u64(fo, "dyn_denied_limit", ds.denied_limit);
	jset_u64(fo, "dyn_denied_nomem", ds.denied_nomem);
	if (f->log) {
		jset_u64(fo, "log_lines", atomic_load(&f->log->lines));
		jset_u64(fo, "log_dropped", atomic_load(&f->log->dropped));
	}
	json_object_set_new(o, "fw", fo);
	json_t *rules = json_array();
	for (int i = 0; i < n; i++) {
		struct fw_rule_stats st;
		if (fw_rule_stats(f->fw, i, &st))
			continue;
		json_t *r = json_object();
		jset_u64(r, "number", st.number);
		jset_u64(r, "pkts", st.pkts);
		jset_u64(r, "bytes", st.bytes);
		jset_u64(r, "last_match_s", st.last_match_s);
		json_array_append_new(rules, r);
	}
	json_object_set_new(o, "rules", rules);
	json_t *den = json_object();
	for (int k = 0; k < 65536; k++) {
		uint64_t v = fwd_denied(f, k);
		if (v) {
			char key[8];
			snprintf(key, sizeof(key), "%d", k);
			jset_u64(den, key, v);
		}
	}
	json_object_set_new(o, "denied_by_rule", den);
}

/* When forwarding began and ended on CLOCK_REALTIME, the sinks' clock: the first frame
 * any thread forwarded (null: none yet), the end of the last thread's loop (null while
 * one runs). A restart's down time is the new process' first_fwd_real_ns less the old
 * one's fwd_end_real_ns. */
static void fwd_times(const struct fwd *f, json_t *o)
{
	uint64_t first = 0, end = 0;
	bool running = false;
	for (int i = 0; i < f->nthr; i++) {
		uint64_t a = relaxed_get(&f->thr[i]->first_fwd_real_ns);
		uint64_t b = relaxed_get(&f->thr[i]->end_real_ns);
		if (a && (!first || a < first))
			first = a;
		running |= !b;
		end = b > end ? b : end;
	}
	if (first)
		jset_u64(o, "first_fwd_real_ns", first);
	else
		jset_s(o, "first_fwd_real_ns", NULL);
	if (running || !end)
		jset_s(o, "fwd_end_real_ns", NULL);
	else
		jset_u64(o, "fwd_end_real_ns", end);
}

json_t *rutstats_json(struct fwdloop *s, const char *type)
{
	struct fwd *f = fwdloop_fwd(s);
	struct fwd_totals t;
	double us, ss;
	uint64_t now = mono_ns();

	fwd_totals(f, &t);
	rutstats_cpu(&us, &ss);
	json_t *o = jout_obj("rut", type);
	jset_s(o, "version", ppslab_version());
	jset_s(o, "mode", fwdloop_mode_name(fwdloop_mode(s)));
	jset_s(o, "forwarding", f->l2 ? "l2" : "l3");   /* routed: IPv4 and IPv6 */
	jset_u64(o, "t_ns", now - fwdloop_info(s)->t0_ns);
	jset_u64(o, "rx_pkts", t.rx_pkts);
	jset_u64(o, "fwd_pkts", t.fwd_pkts);
	jset_u64(o, "drop_pkts", t.drop_pkts);
	jset_u64(o, "tx_pkts", t.tx_pkts);
	jset_u64(o, "rx_bytes", t.rx_bytes);
	jset_u64(o, "tx_bytes", t.tx_bytes);
	jset_u64(o, "kernel_drops", t.kernel_drops);
	jset_u64(o, "tx_errors", t.tx_errors);     /* the links: see ports[] */
	jset_u64(o, "link_downs", t.link_downs);
	jset_f(o, "avg_batch", t.rx_bursts ? (double)t.rx_pkts / (double)t.rx_bursts : 0);
	/* IPv6 among the frames read and forwarded (in rx_pkts, fwd_pkts) */
	jset_u64(o, "ip6_rx_pkts", t.ip6_rx_pkts);
	jset_u64(o, "ip6_fwd_pkts", t.ip6_fwd_pkts);
	json_object_set_new(o, "drops", drops_obj(t.drops));
	/* replies of reset/unreach rules: sent (also in tx_pkts), and why not */
	json_t *rep = json_object(), *ns = json_object();
	jset_u64(rep, "rst", t.rst_sent);
	jset_u64(rep, "unreach", t.unreach_sent);
	jset_u64(rep, "echo", t.echo_sent);
	jset_u64(rep, "port_unreach", t.port_unreach_sent);
	jset_u64(rep, "time_exceeded6", t.timex6_sent);
	for (int k = 0; k < FWD_RS_COUNT; k++)
		jset_u64(ns, fwd_reply_skip_name((enum fwd_reply_skip)k), t.reply_skip[k]);
	json_object_set_new(rep, "not_sent", ns);
	json_object_set_new(o, "replies", rep);
	json_t *ports = json_array();
	for (int i = 0; i < f->nports; i++) {
		const struct fwd_port *p = &f->ports[i];
		struct fwd_port_ctr_sum c;
		fwd_port_sum(f, i, &c);
		json_t *po = json_object();
		jset_s(po, "port", port_spec(p->port));
		jset_s(po, "ifname", p->ifname);
		/* the port's interface as the router sees it (a trunk's vlan interface) */
		jset_s(po, "name", p->name);
		if (p->vlan.ntags) {
			json_t *ids = json_array();
			for (int k = 0; k < p->vlan.ntags; k++)
				json_array_append_new(ids, json_integer(p->vlan.vid[k]));
			json_object_set_new(po, "vlan", ids);
			jset_u64(po, "vlan_pcp", p->vlan.pcp);
		}
		jset_u64(po, "rx_pkts", c.rx_pkts);
		jset_u64(po, "rx_bytes", c.rx_bytes);
		jset_u64(po, "rx_bursts", c.rx_bursts);
		jset_u64(po, "tx_pkts", c.tx_pkts);
		jset_u64(po, "tx_bytes", c.tx_bytes);
		jset_u64(po, "fwd_pkts", c.fwd_pkts);
		jset_u64(po, "ip6_rx_pkts", c.ip6_rx_pkts);
		jset_u64(po, "ip6_fwd_pkts", c.ip6_fwd_pkts);
		jset_u64(po, "drop_txfull", c.drops[FWD_DROP_TXFULL]);
		/* the egress link: frames dropped while it was down or deleted, frames its
		 * socket refused, and how often it went away */
		jset_u64(po, "drop_link_down", c.drops[FWD_DROP_LINK_DOWN]);
		jset_u64(po, "drop_port_gone", c.drops[FWD_DROP_PORT_GONE]);
		jset_u64(po, "tx_errors", c.tx_errors);
		jset_u64(po, "link_downs", c.link_downs);
		jset_u64(po, "rst_sent", c.rst_sent);
		jset_u64(po, "unreach_sent", c.unreach_sent);
		jset_u64(po, "echo_sent", c.echo_sent);
		jset_u64(po, "port_unreach_sent", c.port_unreach_sent);
		jset_u64(po, "time_exceeded6_sent", c.timex6_sent);
		jset_u64(po, "kernel_drops", c.kernel_drops);
		json_object_set_new(po, "drops", drops_obj(c.drops));
		json_array_append_new(ports, po);
	}
	json_object_set_new(o, "ports", ports);
	json_object_set_new(o, "polling", polling_obj(s, 0, true));
	struct fwdloop_pause pz;
	fwdloop_pause_stats(s, &pz);
	json_t *po = json_object();
	jset_u64(po, "count", pz.count);
	jset_u64(po, "requested_ns", pz.req_ns);
	jset_u64(po, "last_ns", pz.last_ns);
	jset_u64(po, "last_late_ns", pz.late_ns);
	jset_u64(po, "total_ns", pz.total_ns);
	json_object_set_new(o, "pause", po);
	fwd_times(f, o);
	struct fwdloop_load ld;
	fwdloop_load_stats(s, &ld);
	json_t *lo = json_object();
	jset_u64(lo, "count", ld.count);
	json_object_set_new(lo, "mode", json_string(ld.per_rule ? "per-rule" : "file"));
	json_object_set_new(lo, "running", json_boolean(ld.running));
	json_object_set_new(lo, "status", json_integer(ld.status));
	jset_u64(lo, "lines", ld.lines);
	jset_u64(lo, "calls", ld.calls);
	jset_u64(lo, "start_ns", ld.start_ns);
	jset_u64(lo, "end_ns", ld.end_ns);
	jset_u64(lo, "drained_ns", ld.drained_ns);
	jset_u64(lo, "stall_ns", ld.stall_ns);
	jset_u64(lo, "busy_ns", ld.busy_ns);
	jset_u64(lo, "call_max_ns", ld.call_max_ns);
	jset_u64(lo, "cpu_ns", ld.cpu_ns);
	jset_u64(lo, "kernel_drops", ld.kernel_drops);
	jset_u64(lo, "kernel_drops_drained", ld.kernel_drops_drained);
	jset_u64(lo, "kernel_drops_before", ld.kernel_drops_before);
	jset_u64(lo, "rx_pkts_drained", ld.rx_pkts_drained);
	json_object_set_new(o, "load", lo);
	/* per thread: its queue of every port; the sums are the fields above */
	json_t *th = json_array();
	for (int i = 0; i < fwdloop_nthr(s); i++) {
		struct fwd_totals tt;
		fwd_thr_totals(f->thr[i], &tt);
		json_t *to = json_object();
		jset_u64(to, "thread", (uint64_t)i);
		if (fwdloop_thr_cpu(s, i) >= 0)
			jset_u64(to, "cpu", (uint64_t)fwdloop_thr_cpu(s, i));
		else
			json_object_set_new(to, "cpu", json_null());
		jset_u64(to, "rx_pkts", tt.rx_pkts);
		jset_u64(to, "fwd_pkts", tt.fwd_pkts);
		jset_u64(to, "drop_pkts", tt.drop_pkts);
		jset_u64(to, "tx_pkts", tt.tx_pkts);
		jset_u64(to, "rx_bytes", tt.rx_bytes);
		jset_u64(to, "tx_bytes", tt.tx_bytes);
		jset_u64(to, "rx_bursts", tt.rx_bursts);
		jset_u64(to, "kernel_drops", tt.kernel_drops);
		jset_f(to, "cpu_s", (double)fwdloop_thr_cpu_ns(s, i) / 1e9);
		if (fwdloop_mode(s) == RUT_POLL)
			json_object_set_new(to, "polling", polling_obj(s, i, false));
		json_array_append_new(th, to);
	}
	json_object_set_new(o, "threads", th);
	fw_objs(o, f, t.drops);
	jset_u64(o, "routes", (uint64_t)fwdloop_info(s)->routes);
	jset_u64(o, "neighbours", (uint64_t)fwdloop_info(s)->neighbours);
	jset_f(o, "route_load_ms", fwdloop_info(s)->route_load_ms);
	jset_f(o, "cpu_s", us + ss);
	jset_f(o, "cpu_user_s", us);
	jset_f(o, "cpu_sys_s", ss);
	jset_f(o, "fwd_cpu_s", (double)fwdloop_cpu_ns(s) / 1e9);
	return o;
}
