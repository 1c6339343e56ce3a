/* SPDX-License-Identifier: BSD-2-Clause */
/* run_case.c — one case of a run, and a router that restarts during it (see run_impl.h) */
#include "run_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks.h"
#include "jout.h"
#include "fmt.h"
#include "log.h"
#include "proc.h"
#include "clock.h"
#include "search.h"
#include "b2b.h"
#include "outage.h"

/* A JSON string of text that may hold anything a tool printed: bytes that are not
 * UTF-8 become '?', so the error is never silently dropped. */
static json_t *run_jtext(const char *t)
{
	json_t *j = json_string(t);
	if (j)
		return j;
	char *c = strdup(t);
	if (!c)
		return json_string("?");
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80 || ((unsigned char)*p < 0x20 && *p != '\t'))
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

/* --- one case ------------------------------------------------------------------------ */

/* cases[].metrics from the method's result and the trial that shows the cell best */
static json_t *case_metrics(const struct search_res *sr, const json_t *trials,
			    const json_t *last, bool bi)
{
	json_t *m = json_object();
	jset_num(m, "fwd_pps", jnum(last, "fwd_rate_pps"));
	jset_num(m, "offered_pps", jnum(last, "offered_pps"));
	double loss = jnum(last, "loss_ratio");
	jset_num(m, "loss_pct", isnan(loss) ? NAN : loss * 100);
	jset_num(m, "fwd_pps_a", jnum(last, "fwd_rate_pps_a"));
	jset_num(m, "fwd_pps_b", bi ? jnum(last, "fwd_rate_pps_b") : NAN);
	const json_t *lat = json_object_get(last, "latency_ns");
	jset_num(m, "lat_p50_ns", jnum(lat, "p50"));
	jset_num(m, "lat_p99_ns", jnum(lat, "p99"));
	for (size_t g = 0; g < sr->ngoals; g++) {
		char k[32];
		snprintf(k, sizeof(k), "%s_pps", sr->goal[g].name);
		for (char *c = k; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		jset_num(m, k, sr->goal[g].ct_pps > 0 ? sr->goal[g].ct_pps : NAN);
	}
	if (sr->mrr_pps > 0)
		jset_num(m, "mrr_pps", sr->mrr_pps);
	/* MFR: the best forwarding rate of the case's trials as the load window measured
	 * it (the search's own figure counts a backlog delivered after the load too) */
	double mfr = NAN;
	size_t i;
	json_t *t;
	json_array_foreach(trials, i, t) {
		const char *kind = json_string_value(json_object_get(t, "kind"));
		if (kind && !strcmp(kind, "b2b"))
			continue;       /* a burst's frames over the sender's time: no rate */
		double f = jnum(t, "fwd_rate_pps");
		if (!isnan(f) && (isnan(mfr) || f > mfr))
			mfr = f;
	}
	if (!isnan(mfr))
		jset_num(m, "mfr_pps", mfr);
	else if (sr->mfr_pps > 0)
		jset_num(m, "mfr_pps", sr->mfr_pps);
	const json_t *rut = json_object_get(last, "rut");
	if (json_is_object(rut)) {
		jset_num(m, "cpu_s", jnum(rut, "fwd_cpu_s"));
		const json_t *pol = json_object_get(rut, "polling");
		/* with the host's delays of that trial, to judge its lost_polls by */
		static const char *const pk[] = { "burst", "lost_polls", "short_ticks", "suspect",
						  "stalled", "pending_polls", "host_delays",
						  "host_ns", "unsure_polls", NULL };
		for (int j = 0; pk[j] && json_is_object(pol); j++) {
			char k[48];
			snprintf(k, sizeof(k), "rut.%s", pk[j]);
			jset_num(m, k, jnum(pol, pk[j]));
		}
		jset_num(m, "rut.kernel_drops", jnum(rut, "kernel_drops"));
		json_t *rule;
		json_array_foreach(json_object_get(rut, "rules"), i, rule) {
			char k[48];
			snprintf(k, sizeof(k), "rut.rule_hits.%lld",
				 (long long)json_integer_value(json_object_get(rule, "number")));
			jset_num(m, k, jnum(rule, "pkts"));
		}
	}
	return m;
}

static json_t *results_obj(const struct search_res *sr, enum prof_method method)
{
	json_t *res = json_object();
	for (size_t g = 0; g < sr->ngoals; g++) {
		const struct search_goal_res *gr = &sr->goal[g];
		json_t *o = json_pack("{s:b,s:f,s:f,s:f,s:f,s:i,s:f}", "regular", gr->regular,
				      "loss_ratio", gr->loss_ratio, "rlb_pps", gr->rlb_pps,
				      "rub_pps", gr->rub_pps, "ct_pps", gr->ct_pps, "trials",
				      (int)sr->ntrials, "search_s", sr->trial_s);
		if (gr->latency_ns > 0)
			json_object_set_new(o, "latency_ns", json_real(gr->latency_ns));
		json_object_set_new(res, gr->name, o);
	}
	if (method == PM_MLR && sr->mrr_pps > 0)
		json_object_set_new(res, "MRR", json_pack("{s:f}", "avg", sr->mrr_pps));
	if ((method == PM_FIXED || method == PM_LADDER) && sr->mfr_pps > 0)
		json_object_set_new(res, "FR", json_pack("{s:f,s:f}", "fwd_pps", sr->mfr_pps,
							 "offered_pps", sr->mfr_load_pps));
	return res;
}

static struct check_ctx check_ctx(const struct profile *p, const struct cell *cell)
{
	struct check_ctx c = { .rate_tol = 0.005 };
	c.router = p->router.kind == PR_EXTERNAL ? CHECK_EXTERNAL
		 : p->router.kind == PR_NONE ? CHECK_NONE : CHECK_RUT;
	c.firewall = p->router.kind != PR_NONE && cell->firewall;
	c.update_counters = cell->update_counters;
	c.rules = (unsigned)cell->rules + 1;
	c.max_burst = p->trial.max_burst;
	c.max_behind = p->trial.max_behind;
	return c;
}

static void search_config(const struct runner *r, const struct cell *cell, struct search_cfg *sc)
{
	const struct prof_trial *t = &r->p->trial;
	static const enum search_method m[] = { SM_FIXED, SM_RFC2544, SM_MLR, SM_LADDER,
						SM_RFC2544 /* b2b: its throughput */,
						SM_RFC2544 /* outage: the NDR of its load */ };
	memset(sc, 0, sizeof(*sc));
	sc->method = m[t->method];
	double off = cell->offered_pps;
	/* "max" (NaN): the sender goes as fast as it can; the search needs some load */
	sc->load_pps = isnan(off) ? 1e9 : off;
	sc->min_load_pps = t->min_load_pps;
	sc->max_load_pps = t->max_load_pps > 0 ? t->max_load_pps
			 : r->ceiling_pps > 0 ? r->ceiling_pps : 1e6;
	sc->width = t->width;
	sc->duration_s = t->duration_s;
	sc->initial_s = t->initial_s;
	sc->phases = t->phases;
	sc->duration_sum_s = t->duration_sum_s;
	sc->exceed_ratio = t->exceed_ratio;
	sc->pdr_loss = t->pdr_loss;
	if (t->method == PM_MLR) {
		sc->ngoals = t->ngoals;
		for (size_t g = 0; g < t->ngoals && g < SEARCH_MAX_GOALS; g++) {
			const struct prof_goal *pg = &t->goals[g];
			struct search_goal_cfg *sg = &sc->goals[g];
			snprintf(sg->name, sizeof(sg->name), "%s", pg->name);
			sg->loss_ratio = pg->loss_ratio;
			sg->exceed_ratio = pg->exceed_ratio;
			sg->final_s = pg->final_s;
			sg->duration_sum_s = pg->duration_sum_s;
			sg->width = pg->width;
			sg->latency_ns = pg->latency_ns;
		}
	}
	sc->max_trials = t->max_trials;
	sc->repeat_invalid = t->repeat_invalid;
	static double ladder[64];
	sc->nladder = 0;
	for (size_t i = 0; t->ladder && i < json_array_size(t->ladder) && i < 64; i++)
		ladder[sc->nladder++] = json_number_value(json_array_get(t->ladder, i));
	sc->ladder = sc->nladder ? ladder : NULL;
}

/* The case's flags from its trials' failed checks: one per check, "NAME: DETAIL" of the
 * first trial that failed it (and in how many trials), so the table's footnote can say
 * why a cell is marked. */
static void failed_checks(const json_t *trials, json_t *flags)
{
	json_t *seen = json_object();
	size_t i, j, nt = 0;
	json_t *t, *ch;
	json_array_foreach(trials, i, t) {
		if (json_object_get(t, "repeated"))
			continue;       /* made again: the case does not stand on it */
		nt++;
		json_array_foreach(json_object_get(t, "checks"), j, ch) {
			const char *name = json_string_value(json_object_get(ch, "name"));
			if (!name || !json_is_false(json_object_get(ch, "ok")))
				continue;
			json_t *e = json_object_get(seen, name);
			if (e) {
				json_array_set_new(e, 0, json_integer(json_integer_value(json_array_get(e, 0)) + 1));
				continue;
			}
			json_object_set_new(seen, name, json_pack("[i,O]", 1, json_object_get(ch, "detail")));
		}
	}
	const char *name;
	json_t *e;
	json_object_foreach(seen, name, e) {
		char b[1200];
		json_int_t n = json_integer_value(json_array_get(e, 0));
		int w = snprintf(b, sizeof(b), "%s: %s", name, json_string_value(json_array_get(e, 1)));
		if (nt > 1 && w > 0 && (size_t)w < sizeof(b))
			snprintf(b + w, sizeof(b) - (size_t)w, " (%lld of %zu trials)", (long long)n, nt);
		json_array_append_new(flags, run_jtext(b));
	}
	json_decref(seen);
}

/* One-way delays across two clocks are kept out of the metrics (tables, compare,
 * report) when the clocks may differ by more than trial.max_clock_error of the delay;
 * the trials keep the sink's numbers, the case says why. */
static void withhold_latency(struct runner *r, json_t *c, json_t *m, const json_t *last)
{
	double p50 = jnum(m, "lat_p50_ns");
	const json_t *sink = json_array_get(json_object_get(last, "sink"), 0);
	bool valid = !json_is_false(json_object_get(sink, "delay_valid"));
	char why[400];
	if (!checks_latency_withheld(r->clock_bound_ns, p50, r->p->trial.max_clock_error, valid,
				     why, sizeof(why)))
		return;
	const char *k;
	json_t *v;
	json_object_foreach(m, k, v)
		if (!strncmp(k, "lat_", 4))
			json_object_set_new(m, k, json_null());
	json_object_set_new(c, "latency_withheld", run_jtext(why));
}

/* --- a router that restarts ---------------------------------------------------------- */

/* A short probe of test frames through the router, in both directions of a
 * bidirectional cell (as lab tools wait for a rebooted router): true when each sink
 * counted some; why says what it saw otherwise. */
static bool probe(struct runner *r, const struct cell *cell, char *why, size_t len)
{
	struct trial_env e = r->env;
	e.dut = NULL;   /* its read hook may not answer yet */
	struct trial_req tr = { .load_pps = 1000, .duration_s = 0.5, .warmup_s = 0,
				.cell = cell, .kind = "probe", .seq = 0 };
	json_t *rec = NULL;
	int rc = trial_run(&e, &tr, &rec);
	size_t want = cell->bi ? 2 : 1;
	const json_t *sinks = json_object_get(rec, "sink");
	bool ok = rc == 0 && json_array_size(sinks) == want;
	for (size_t i = 0; ok && i < want; i++)
		ok = jnum(json_array_get(sinks, i), "rx_pkts") > 0;
	if (!ok) {
		const char *e2 = json_string_value(json_object_get(rec, "error"));
		if (e2 && *e2)
			snprintf(why, len, "the probe failed: %s", e2);
		else
			snprintf(why, len, "no test frame passed through it%s",
				 want == 2 ? " in one direction at least" : "");
	}
	json_decref(rec);
	return ok;
}

/* The boot identity of a router environment (Linux's boot_id, the BSDs'
 * kern.boottime), or "". */
static const char *boot_of(const json_t *env)
{
	const char *b = json_string_value(json_object_get(env, "boot_id"));
	return b ? b : "";
}

/* The router's boot identity now, read where it can be: over topology.rut.ssh (the
 * command the environment reads it with), else by router.boot_hook. 0; -ENOENT: it
 * cannot be read in this profile; -EIO: the router did not answer; -EKEYREJECTED: ssh
 * refused its host key. */
static int router_boot(struct runner *r, char *buf, size_t len)
{
	buf[0] = 0;
	if (!r->dut)
		return -ENOENT;
	if (!r->rut_box.ssh)
		return r->p->router.boot_hook ? dut_boot_id(r->dut, buf, len) : -ENOENT;
	struct box_cmd c;
	char out[512] = "";
	int rc = box_sys_init(&c, &r->rut_box, "sh");
	rc = rc ? rc : box_arg(&c, "-c");
	rc = rc ? rc : box_arg(&c, "sysctl -n kern.boottime 2>/dev/null || "
			       "cat /proc/sys/kernel/random/boot_id 2>/dev/null");
	rc = rc ? rc : box_cmd_done(&c, &r->rut_box);
	if (rc)
		return rc;
	double tmo = r->p->router.hook_timeout_s > 0 ? r->p->router.hook_timeout_s : 30;
	char errp[600], e[2048];
	snprintf(errp, sizeof(errp), "%s/boot.err", r->tmpdir);
	struct proc_opts o = { .netns = c.netns, .out = out, .outlen = sizeof(out),
			       .err_path = errp, .timeout_ns = (uint64_t)(tmo * 1e9) };
	int st = proc_run(c.argv, &o);
	box_cmd_free(&c);
	out[strcspn(out, "\r\n")] = 0;
	e[0] = 0;
	if (st)
		proc_file_text(errp, e, sizeof(e));
	if (st && dut_hostkey_changed(e))
		return -EKEYREJECTED;
	if (st || !out[0])
		return -EIO;
	snprintf(buf, len, "%s", out);
	return 0;
}

static bool power_cycle(struct runner *r, json_t *c, const char *why);

/* The wait shown where the progress goes: on a terminal in the progress line, else a
 * line when it starts, every 30 s and at the end. */
static void progress_wait(struct runner *r, const struct plan_case *pc, double waited,
			  int tries, const char *state)
{
	static double said;
	if (r->o->quiet)
		return;
	if (r->tty) {   /* one line, short: the finished case's line overwrites it */
		fprintf(stderr, "\r[%zu/%zu] %s rep %u  router restarting: %.0f s, %d tr%s%-10s",
			r->done + 1, r->total, pc->case_id, pc->rep, waited, tries,
			tries == 1 ? "y" : "ies", "");
		fflush(stderr);
		return;
	}
	if (tries == 0 || waited - said >= 30) {
		fprintf(stderr, "case %zu/%zu %s rep %u: %s (%.0f s so far)\n", r->done + 1, r->total,
			pc->case_id, pc->rep, state, waited);
		said = tries == 0 ? 0 : waited;
	}
}

/* A wait for a router that restarts (wait_back). */
struct back {
	struct runner *r;
	const struct plan_case *pc;
	json_t *rec;            /* the case's router_reboot */
	char before[256];       /* its boot identity before the restart, or "" */
	bool by_hook;           /* read by router.boot_hook */
	bool env_known;         /* its environment is read (over ssh) */
	char last[600];         /* what the last try saw */
};

/* The case's router_reboot: the reboot axes' values (what: as text), how the router is
 * waited for, its boot identity before. */
static json_t *reboot_record(struct back *b, json_t *c, char *what, size_t len)
{
	const struct profile *p = b->r->p;
	const struct plan_case *pc = b->pc;
	size_t wl = 0;
	json_t *axes = json_object();
	for (size_t a = 0; a < p->router.naxes; a++)
		if (p->router.axes[a].reboot) {
			char vb[128];
			json_t *v = json_object_get(pc->params, p->router.axes[a].name);
			json_object_set(axes, p->router.axes[a].name, v);
			wl += (size_t)snprintf(what + wl, wl < len ? len - wl : 0,
					       "%s%s=%s", wl ? ", " : "", p->router.axes[a].name,
					       res_value_str(v, vb, sizeof(vb)));
		}
	json_t *rec = json_object();
	json_object_set_new(rec, "axes", axes);
	json_object_set_new(rec, "back_by", json_string(p->router.ready_hook ? "ready_hook"
									      : "probe"));
	json_object_set_new(rec, "boot_id_before", b->before[0] ? json_string(b->before)
								  : json_null());
	json_object_set_new(c, "router_reboot", rec);
	return rec;
}

/* One try: whether the router answers, by router.ready_hook or else (its setup hook
 * run first on the new boot, once its identity can tell) by a probe. 1 yes; 0 no
 * (b->last says why); -EKEYREJECTED. */
static int back_answers(struct back *b)
{
	struct runner *r = b->r;
	const struct profile *p = r->p;
	if (p->router.ready_hook) {
		char out[512];
		int st = dut_ready(r->dut, &b->pc->values, out, sizeof(out));
		if (st == 0 || st == -EKEYREJECTED)
			return st ? st : 1;
		out[strcspn(out, "\n")] = 0;
		snprintf(b->last, sizeof(b->last), "router.ready_hook exited with status %d%s%.300s",
			 st, out[0] ? ": " : "", out);
		return 0;
	}
	/* the setup first (forwarding may be off until it runs), on the new boot once its
	 * identity can tell */
	if (p->router.setup_hook && b->before[0] && (b->by_hook || r->rut_box.ssh)) {
		char nb[256];
		int bt = router_boot(r, nb, sizeof(nb));
		if (bt == -EKEYREJECTED)
			return bt;
		if (bt || !strcmp(nb, b->before)) {
			snprintf(b->last, sizeof(b->last), bt ? "its boot identity cannot be read yet"
				 : "it has not restarted yet (its boot identity is unchanged: %.200s)",
				 nb);
			return 0;
		}
	}
	char se[400];
	if (p->router.setup_hook && dut_setup_now(r->dut, &b->pc->values, se, sizeof(se))) {
		snprintf(b->last, sizeof(b->last), "%.500s", se);
		return 0;
	}
	return probe(r, &b->pc->values, b->last, sizeof(b->last));
}

/* Once it answers: whether it has restarted, by its boot identity (router.boot_hook,
 * or its environment read again over ssh; a router that has not gone down yet answers
 * too). 0 yes; 1 not yet (b->last says why); -EKEYREJECTED. */
static int back_restarted(struct back *b)
{
	struct runner *r = b->r;
	char now[256];
	int brc = b->by_hook || r->rut_box.ssh ? router_boot(r, now, sizeof(now)) : 0;
	if (brc == -EKEYREJECTED)   /* no use waiting: it never passes */
		return brc;
	if (b->by_hook) {   /* its boot identity by router.boot_hook */
		if (brc || (b->before[0] && !strcmp(now, b->before))) {
			snprintf(b->last, sizeof(b->last), brc ? "it answers, but its boot identity "
				 "cannot be read (router.boot_hook)" : "it answers, but has not "
				 "restarted yet (its boot identity is unchanged: %.200s)", now);
			return 1;
		}
		snprintf(r->boot_seen, sizeof(r->boot_seen), "%s", now);
		json_object_set_new(b->rec, "boot_id", json_string(now));
	}
	if (b->env_known) {
		json_t *env = run_external_env(r, false);
		const char *eb = boot_of(env);
		if (b->before[0] && (!*eb || !strcmp(eb, b->before))) {
			snprintf(b->last, sizeof(b->last), *eb ? "it answers, but has not restarted "
				 "yet (its boot identity is unchanged: %.200s)"
				 : "it answers, but its boot identity cannot be read", eb);
			json_decref(env);
			return 1;
		}
		char t[32];
		fmt_utc(t, sizeof(t), time(NULL));
		json_object_set_new(env, "collected_utc", json_string(t));
		json_decref(r->router_env);
		r->router_env = env;
		eb = boot_of(env);
		json_object_set_new(b->rec, "boot_id", *eb ? json_string(eb) : json_null());
		if (r->rut_box.ssh)
			snprintf(r->boot_seen, sizeof(r->boot_seen), "%s", eb);
	}
	return 0;
}

/* After the router was told to restart: polls, with backoff (0.5 s, doubling, at most
 * 10 s apart), until it answers and has restarted (back_answers, back_restarted), its
 * power cycled once when it does not come back in time. Fills c's router_reboot. 0;
 * -EIO when it is not back within router.reboot_timeout (err says how long it waited
 * and what it saw last); -EINTR. */
static int wait_back(struct runner *r, const struct plan_case *pc, json_t *c, char *err,
		     size_t errlen)
{
	const struct profile *p = r->p;
	double tmo = p->router.reboot_timeout_s, delay = 0.5, waited = 0;
	uint64_t t0 = mono_ns();
	int tries = 0, rc = -EIO;
	char what[300] = "";
	struct back b = { .r = r, .pc = pc, .last = "nothing yet",
			  .env_known = r->router_env && !json_object_get(r->router_env, "note"),
			  .by_hook = !r->rut_box.ssh && p->router.boot_hook };
	/* a router in a namespace of this host shares its boot: only a box of its own
	 * (over ssh) shows a restart in its boot identity */
	snprintf(b.before, sizeof(b.before), "%s", r->rut_box.ssh ? boot_of(r->router_env)
		 : r->boot_seen);
	json_t *rec = b.rec = reboot_record(&b, c, what, sizeof(what));
	progress_wait(r, pc, 0, 0, "the router restarts; waiting until it is back");
	bool hostkey = false, cycled = false;
	for (;;) {
		waited = (double)(mono_ns() - t0) / 1e9;
		if (waited >= tmo && !cycled && power_cycle(r, c, "the router did not come back "
							    "after its reboot")) {
			cycled = true;   /* and as long again */
			t0 = mono_ns();
			delay = 0.5;
			continue;
		}
		if (waited >= tmo)
			break;
		double until = fmin(waited + delay, tmo);
		delay = fmin(delay * 2, 10);
		while (!*r->env.stop && (double)(mono_ns() - t0) / 1e9 < until)
			usleep(100 * 1000);
		if (*r->env.stop) {
			rc = -EINTR;
			break;
		}
		tries++;
		waited = (double)(mono_ns() - t0) / 1e9;
		progress_wait(r, pc, waited, tries, "the router restarts; waiting until it is back");
		int st = back_answers(&b);
		if (st != -EKEYREJECTED && *r->env.stop) {
			rc = -EINTR;
			break;
		}
		st = st == 1 ? back_restarted(&b) : st == 0 ? 1 : st;
		if (st == -EKEYREJECTED) {   /* no use waiting: it never passes */
			hostkey = true;
			break;
		}
		if (st == 0) {
			rc = 0;
			break;
		}
	}
	waited = (double)(mono_ns() - t0) / 1e9;
	json_object_set_new(rec, "waited_s", json_real(round(waited * 10) / 10));
	json_object_set_new(rec, "tries", json_integer(tries));
	json_object_set_new(rec, "back", json_boolean(rc == 0));
	if (hostkey) {
		snprintf(err, errlen, "after the reboot for %s (%.1f s), %s", what, waited,
			 dut_hostkey_msg);
		json_object_set_new(rec, "last", json_string(dut_hostkey_msg));
	} else if (rc == -EIO) {
		snprintf(err, errlen, "the router did not come back after the reboot for %s: waited "
			 "%.1f s (router.reboot_timeout %g s)%s, %d tr%s; the last: %s", what, waited,
			 tmo, cycled ? " again after its power was cycled" : "", tries,
			 tries == 1 ? "y" : "ies", b.last);
		json_object_set_new(rec, "last", run_jtext(b.last));
	}
	if (!r->o->quiet && !r->tty && rc == 0)
		fprintf(stderr, "case %zu/%zu %s rep %u: the router is back after %.1f s (%d tr%s)\n",
			r->done + 1, r->total, pc->case_id, pc->rep, waited, tries,
			tries == 1 ? "y" : "ies");
	return rc;
}

/* Polls the router's boot identity with backoff (0.5 s, doubling, at most 10 s apart)
 * until it can be read or tmo seconds passed: router_boot()'s result. */
static int wait_boot(struct runner *r, char *now, size_t len, double tmo)
{
	uint64_t t0 = mono_ns();
	double delay = 0.5;
	int brc;
	while ((brc = router_boot(r, now, len)) == -EIO && !*r->env.stop &&
	       (double)(mono_ns() - t0) / 1e9 < tmo) {
		uint64_t until = mono_ns() + (uint64_t)(delay * 1e9);
		delay = fmin(delay * 2, 10);
		while (!*r->env.stop && mono_ns() < until)
			usleep(100 * 1000);
	}
	return brc;
}

/* router.power_cycle_hook, when the router does not answer: its run recorded in c's
 * "router_power_cycle". True when it ran and exited 0. */
static bool power_cycle(struct runner *r, json_t *c, const char *why)
{
	char out[1024];
	if (!r->dut || !r->p->router.power_cycle_hook)
		return false;
	if (!r->o->quiet)
		log_warn("%s: power-cycling it (router.power_cycle_hook)", why);
	int st = dut_power_cycle(r->dut, out, sizeof(out));
	json_t *pc = json_pack("{s:s,s:i}", "why", why, "status", st);
	if (pc && st) {
		out[strcspn(out, "\n")] = 0;
		json_object_set_new(pc, "output", run_jtext(out));
	}
	json_object_set_new(c, "router_power_cycle", pc);
	r->boot_stale = true;
	return st == 0;
}

/* The router stopped answering (its boot identity cannot be read): with
 * router.power_cycle_hook, cycle its power once and wait up to router.reboot_timeout
 * for it to answer again. router_boot()'s result at the end, the identity in now. */
static int revive(struct runner *r, json_t *c, const char *why, char *now, size_t len)
{
	if (!power_cycle(r, c, why))
		return -EIO;
	int brc = wait_boot(r, now, len, r->p->router.reboot_timeout_s);
	json_object_set_new(json_object_get(c, "router_power_cycle"), "back",
			    json_boolean(brc == 0));
	return brc;
}

/* After a restart of the router (a reset's or another): its environment read again over
 * ssh, the boot identity the next restart must change and what the cases record of it
 * (run_router_env_brief) the new boot's, not the one before. */
static void router_env_again(struct runner *r)
{
	if (!r->rut_box.ssh || !r->router_env)
		return;
	json_t *env = run_external_env(r, false);
	char t[32];
	fmt_utc(t, sizeof(t), time(NULL));
	json_object_set_new(env, "collected_utc", json_string(t));
	json_decref(r->router_env);
	r->router_env = env;
}

/* After a trial on an external router: its read hook must have answered, and its
 * boot identity must be the one the case's settings were made on. A router that
 * restarted (or crashed) lost its runtime settings: the trial fails, the setup and
 * every hook run again in the next case, and the case records both identities. A
 * router that does not answer is waited for up to router.reboot_timeout. After the
 * reset recipe's trial (reset) a restart is what was asked for: recorded, not a
 * failure, unless the router came back only by router.power_cycle_hook. 0, or -EIO
 * with why. */
static int router_after_trial(struct runner *r, const json_t *rec, json_t *c, bool reset,
			      char *why, size_t len)
{
	const struct profile *p = r->p;
	if (!r->dut || p->router.kind != PR_EXTERNAL)
		return 0;
	const json_t *rut = json_object_get(rec, "rut");
	json_int_t rst = json_integer_value(json_object_get(rut, "status"));
	int rc = 0;
	if (p->router.read_hook && json_is_object(rut) && rst != 0) {
		snprintf(why, len, "the router's read hook failed after the trial (status %lld): "
			 "its counters, and whether it kept its settings, are unknown",
			 (long long)rst);
		rc = -EIO;
	}
	if (!r->boot_seen[0])
		return rc;
	char now[256];
	int brc = wait_boot(r, now, sizeof(now), p->router.reboot_timeout_s);
	bool cycled = false;
	if (brc == -EIO && !*r->env.stop) {
		cycled = p->router.power_cycle_hook &&
			 json_object_get(c, "router_power_cycle") == NULL;
		brc = cycled ? revive(r, c, "the router stopped answering during a trial", now,
				      sizeof(now)) : brc;
	}
	if (brc == -ENOENT || (!brc && !strcmp(now, r->boot_seen)))
		return rc;
	json_t *rs = json_object();
	json_object_set_new(rs, "boot_id_before", json_string(r->boot_seen));
	json_object_set_new(rs, "boot_id", brc ? json_null() : json_string(now));
	json_object_set_new(c, "router_restarted", rs);
	/* the reset the trial measured: it came back by itself (a router that had to be
	 * power-cycled did not: that restart is the runner's, its silence no reset time) */
	if (reset && !brc && !cycled) {
		json_object_set_new(rs, "by", json_string("the reset (trial.outage_recipe)"));
		dut_rebooted(r->dut);
		snprintf(r->boot_seen, sizeof(r->boot_seen), "%s", now);
		router_env_again(r);
		return rc;
	}
	if (brc)
		snprintf(why, len, "the router stopped answering during the trial: its boot "
			 "identity could not be read for %.0f s (router.reboot_timeout)%s",
			 p->router.reboot_timeout_s, cycled ? ", nor after its power was cycled"
			 : p->router.power_cycle_hook ? "" : "; a router.power_cycle_hook would "
			 "restart it");
	else
		snprintf(why, len, "the router %s during the trial (its boot identity was "
			 "%.100s, now %.100s): its runtime settings are lost, so its setup and every "
			 "hook run again in the next case", cycled ? "stopped answering and was "
			 "power-cycled" : "restarted", r->boot_seen, now);
	/* nothing set since the boot holds now; reboot axes, written to the router's
	 * disk, do */
	dut_rebooted(r->dut);
	r->boot_seen[0] = 0;
	if (!brc) {
		snprintf(r->boot_seen, sizeof(r->boot_seen), "%s", now);
		router_env_again(r);
	}
	if (!r->o->quiet)
		log_warn("%s", why);
	return -EIO;
}

/* Brings the router to the cell: a restart first when a reboot axis changes (waited
 * for), then everything else (dut.h). Records what ran and what was read back in c.
 * 0; -EIO (err says why); -EINTR. */
static int router_to_cell(struct runner *r, const struct plan_case *pc, json_t *c, char *err,
			  size_t errlen)
{
	if (!r->dut)
		return 0;
	dut_case_begin(r->dut);
	/* the boot the case's settings are made on, to tell a restart after them */
	if (!r->boot_seen[0] && router_boot(r, r->boot_seen, sizeof(r->boot_seen)))
		r->boot_seen[0] = 0;
	if (r->boot_stale && dut_reboot_pending(r->dut, &pc->values)) {
		/* it may have come back late: the boot a restart must change is today's */
		if (r->router_env) {
			json_decref(r->router_env);
			r->router_env = run_external_env(r, false);
		}
		if (router_boot(r, r->boot_seen, sizeof(r->boot_seen)))
			r->boot_seen[0] = 0;
		r->boot_stale = false;
	}
	int rc = dut_apply_reboot(r->dut, &pc->values, err, errlen);
	if (rc == 1) {
		rc = wait_back(r, pc, c, err, errlen);
		if (rc) {
			dut_forget(r->dut);   /* whatever state it is in, set all of it again */
			r->boot_seen[0] = 0;  /* and its boot is read again when it answers */
		}
		else
			dut_rebooted(r->dut);
		r->boot_stale = rc != 0;
	}
	if (!rc)
		rc = dut_apply(r->dut, &pc->values, err, errlen);
	const json_t *hooks = dut_hook_log(r->dut);
	if (json_array_size(hooks))   /* what was run on the router, as run */
		json_object_set_new(c, "router_hooks", json_deep_copy(hooks));
	const json_t *ver = dut_verified(r->dut);
	if (ver)
		json_object_set_new(c, "router_verify", json_deep_copy(ver));
	if (prof_has_reboots(r->p) && r->router_env)
		json_object_set_new(c, "router_env", run_router_env_brief(r->router_env));
	return rc;
}

/* A case's trials, as its method asks for them (run_case). */
struct case_run {
	struct runner *r;
	const struct plan_case *pc;
	json_t *c, *trials;
	json_t *repeated;        /* trials made again, by reason: "burst", "behind"
				  * (docs/results-schema.md) */
	json_t *last;            /* the last trial the method took */
	struct search *s;
	struct search_cfg sc;
	struct check_ctx cc;
	bool at_max, flagged;
	bool late_unknown;       /* a latency goal's trial had no late count from a sink */
	int seq;
	unsigned long long b2b_held;  /* b2b: most frames a lossy burst got through, a bound
				       * on what the device holds (0: none yet) */
	char err[1024];
};

/* The latency goals' bounds into ns[] (SEARCH_MAX_GOALS), their goal indices into gi[];
 * their number. */
static size_t late_bounds(const struct search_cfg *sc, double *ns, size_t *gi)
{
	size_t n = 0;
	for (size_t g = 0; g < sc->ngoals; g++)
		if (sc->goals[g].latency_ns > 0) {
			ns[n] = sc->goals[g].latency_ns;
			gi[n++] = g;
		}
	return n;
}

/* Per goal, the frames of the trial rec later than its bound (late_frames of the
 * record, in late_bounds' order); a sink without a count makes every received frame
 * count as late (the goal cannot pass on a number it does not have) and *unknown true. */
static void late_counts(const json_t *rec, const size_t *gi, size_t n, uint64_t rx,
			uint64_t *late, bool *unknown)
{
	const json_t *lf = json_object_get(rec, "late_frames");
	for (size_t i = 0; i < n; i++) {
		const json_t *f = json_object_get(json_array_get(lf, i), "frames");
		if (json_is_integer(f) && json_integer_value(f) >= 0) {
			late[gi[i]] = (uint64_t)json_integer_value(f);
		} else {
			late[gi[i]] = rx;
			*unknown = true;
		}
	}
}

/* The case failed: its status, error and flags. -EIO. */
static int case_failed(json_t *c, json_t *flags, const char *err)
{
	json_object_set_new(c, "status", json_string("failed"));
	json_object_set_new(c, "error", run_jtext(err));
	json_object_set_new(c, "flags", flags);
	return -EIO;
}

static int case_interrupted(json_t *c, json_t *flags)
{
	json_object_set_new(c, "interrupted", json_true());
	json_object_set_new(c, "flags", flags);
	return -EINTR;
}

/* One trial at the load req asks for, checked, into the case's trials. 0 (the method
 * takes it); 1 (spoiled by the sender: the method asks for it again); -EINTR; -EIO
 * (k->err says why); -ENOMEM. */
static int case_trial(struct case_run *k, const struct search_req *req)
{
	struct runner *r = k->r;
	const struct profile *p = r->p;
	struct trial_req tr = { .load_pps = k->at_max ? 0 : req->load_pps,
				.duration_s = req->duration_s,
				.warmup_s = p->trial.warmup_s, .cell = &k->pc->values,
				.kind = k->sc.method == SM_FIXED ? "fixed"
					: k->sc.method == SM_LADDER ? "ladder" : "search",
				.seq = ++k->seq };
	double late_ns[SEARCH_MAX_GOALS];
	size_t late_gi[SEARCH_MAX_GOALS];
	tr.nlate = late_bounds(&k->sc, late_ns, late_gi);
	tr.late_ns = tr.nlate ? late_ns : NULL;
	json_t *rec = NULL;
	int rc = trial_run(&r->env, &tr, &rec);
	if (!rec)
		return rc;
	json_object_set_new(rec, "why", json_string(req->why ? req->why : ""));
	char rwhy[600];
	if (rc != -EINTR && router_after_trial(r, rec, k->c, false, rwhy, sizeof(rwhy))) {
		json_object_set_new(rec, "error", json_string(rwhy));
		rc = -EIO;
	}
	int nfail = checks_run(rec, &k->cc);
	char spoil[32] = "";
	/* traffic other than asked for (docs/method.md#a-sender-that-falls-behind):
	 * not the router's result; the method asks for the trial again */
	bool invalid = rc == 0 && p->trial.repeat_invalid &&
		       (k->sc.method == SM_RFC2544 || k->sc.method == SM_MLR) &&
		       check_pace_failed(rec, spoil, sizeof(spoil));
	/* or its loss may be an earlier trial's backlog
	 * (docs/method.md#frames-of-an-earlier-trial) */
	if (!invalid && rc == 0 && p->trial.repeat_invalid &&
	    (k->sc.method == SM_RFC2544 || k->sc.method == SM_MLR) && check_stale_spoiled(rec)) {
		invalid = true;
		snprintf(spoil, sizeof(spoil), "stale");
	}
	if (invalid)
		json_object_set_new(rec, "repeated", json_string(spoil));
	else if (nfail > 0)
		k->flagged = true;
	json_array_append_new(k->trials, rec);
	if (rc == -EINTR)
		return rc;
	if (rc || (r->dut && !dut_alive(r->dut))) {
		const json_t *e = json_object_get(rec, "error");
		snprintf(k->err, sizeof(k->err), "%s", json_is_string(e) && json_string_length(e)
			 ? json_string_value(e) : "the forwarder died during the trial");
		return -EIO;
	}
	if (invalid) {
		json_t *n = json_object_get(k->repeated, spoil);
		json_object_set_new(k->repeated, spoil, json_integer(json_integer_value(n) + 1));
		if (search_invalid(k->s)) {
			bool st = !strcmp(spoil, "stale");
			const char *c = st ? CHECK_STALE : CHECK_PACE, *f = c;
			size_t i;
			json_t *fl;
			json_array_foreach(json_object_get(rec, "flags"), i, fl)
				if (!strncmp(json_string_value(fl), c, strlen(c)) &&
				    json_string_value(fl)[strlen(c)] == ':')
					f = json_string_value(fl);
			snprintf(k->err, sizeof(k->err), "every one of %u trials at %.0f pps was "
				 "spoiled by %s (%s): %s", p->trial.repeat_invalid + 1, req->load_pps,
				 st ? "an earlier trial's frames" : "the sender", spoil, f);
			return -EIO;
		}
		r->save(r);
		return 1;
	}
	unsigned long long tx, rx;
	double offered;
	trial_counts(rec, &tx, &rx, &offered);
	uint64_t late[SEARCH_MAX_GOALS] = { 0 };
	late_counts(rec, late_gi, tr.nlate, rx, late, &k->late_unknown);
	search_record_late(k->s, req, tx, rx, offered > 0 ? offered : req->load_pps, late);
	k->last = rec;
	r->save(r);
	return 0;
}

/* --- back-to-back frames (docs/method.md#back-to-back-frames) ------------------------ */

/* One burst of exactly q->frames frames at the sender's full speed, into the case's
 * trials. 0 (recorded); 1 (the sender did not send it whole: asked for again); -EINTR;
 * -EIO (k->err says why). */
static int case_burst(struct case_run *k, struct b2b *b, const struct b2b_req *q, double rate_pps,
		      double thr_pps)
{
	struct runner *r = k->r;
	/* the burst takes frames/rate; the bound leaves a slower sender four times that.
	 * The device must be empty before the next burst: what it holds drains at its
	 * throughput, so the settling lasts the burst's frames at that rate (at most 30 s),
	 * and trial.settle more; once a burst lost frames, what came out of it bounds what
	 * the device can hold */
	unsigned long long held = k->b2b_held && k->b2b_held < q->frames ? k->b2b_held : q->frames;
	double drain = 1.2 * (double)held / thr_pps;
	struct trial_req tr = { .load_pps = 0, .count = q->frames, .warmup_s = 0,
				.settle_s = k->r->p->trial.settle_s + (drain < 30 ? drain : 30),
				.duration_s = 0.5 + 4.0 * (double)q->frames / rate_pps,
				.cell = &k->pc->values, .kind = "b2b", .seq = ++k->seq };
	json_t *rec = NULL;
	int rc = trial_run(&r->env, &tr, &rec);
	if (!rec)
		return rc;
	json_object_set_new(rec, "why", json_string(q->why));
	json_object_set_new(rec, "burst_frames", json_integer((json_int_t)q->frames));
	char rwhy[600];
	if (rc != -EINTR && router_after_trial(r, rec, k->c, false, rwhy, sizeof(rwhy))) {
		json_object_set_new(rec, "error", json_string(rwhy));
		rc = -EIO;
	}
	struct check_ctx cc = k->cc;
	cc.burst = true;
	int nfail = checks_run(rec, &cc);
	json_array_append_new(k->trials, rec);
	if (rc == -EINTR)
		return rc;
	if (rc || (r->dut && !dut_alive(r->dut))) {
		const json_t *e = json_object_get(rec, "error");
		snprintf(k->err, sizeof(k->err), "%s", json_is_string(e) && json_string_length(e)
			 ? json_string_value(e) : "the forwarder died during a burst");
		return -EIO;
	}
	unsigned long long tx, rx;
	double offered;
	trial_counts(rec, &tx, &rx, &offered);
	/* not the router's result, the same burst again: the sender sent less, or frames
	 * of an earlier burst the device still held arrived after this one began, and it
	 * lost frames (check_stale_spoiled; the sinks counted them apart, never as this
	 * burst's) */
	const char *bad = tx < q->frames ? "short"
			  : rx > tx || check_stale_spoiled(rec) ? "stale" : NULL;
	if (bad) {
		json_object_set_new(rec, "repeated", json_string(bad));
		json_t *n = json_object_get(k->repeated, bad);
		json_object_set_new(k->repeated, bad, json_integer(json_integer_value(n) + 1));
		if (b2b_invalid(b)) {
			snprintf(k->err, sizeof(k->err), "a burst of %llu frames: %llu sent, %llu "
				 "received, %u times over", (unsigned long long)q->frames, tx, rx,
				 r->p->trial.repeat_invalid + 1);
			return -EIO;
		}
		r->save(r);
		return 1;
	}
	if (nfail > 0)
		k->flagged = true;
	json_object_set_new(rec, "burst_passed", json_boolean(rx >= tx));
	if (rx < tx && (!k->b2b_held || rx < k->b2b_held))
		k->b2b_held = rx > 0 ? rx : 1;
	b2b_record(b, tx, rx);
	r->save(r);
	return 0;
}

/* The NDR of the rfc2544 search a method ran first (b2b's throughput, outage's load):
 * its load, or, irregular with a lower bound (no loss at max load), the rate itself;
 * 0 when it found none, *why then what it said. */
static double search_ndr(const struct search_res *sr, const char **why)
{
	*why = sr->ngoals && sr->goal[0].irregular ? sr->goal[0].irregular : "no trial";
	return !sr->ngoals ? 0 : sr->goal[0].regular ? sr->goal[0].ct_pps : sr->goal[0].rlb_pps;
}

/* The method's bursts after the throughput (sr's NDR, or the profile's): c's
 * results.B2B and metrics b2b_*, or why the size is skipped; an irregular answer into
 * flags. 0, -EINTR, -EIO, -ENOMEM. */
static int case_b2b(struct case_run *k, const struct search_res *sr, json_t *res, json_t *m,
		    json_t *flags)
{
	const struct prof_trial *t = &k->r->p->trial;
	double rate = t->max_load_pps > 0 ? t->max_load_pps : k->r->ceiling_pps;
	double thr = t->b2b_throughput_pps;
	const char *from = "trial.b2b_throughput", *none = NULL;
	if (!(thr > 0)) {
		from = "the rfc2544 search of this case";
		thr = search_ndr(sr, &none);
	}
	json_t *o = json_object();
	json_object_set_new(res, "B2B", o);
	jset_num(o, "rate_pps", rate);
	jset_num(o, "throughput_pps", thr);
	json_object_set_new(o, "throughput_from", json_string(from));
	if (!(rate > 0)) {
		snprintf(k->err, sizeof(k->err), "b2b needs the size's theoretical frame rate: give "
			 "trial.max_load, or let the rig measure its ceiling (rig.calibrate)");
		return -EIO;
	}
	if (!(thr > 0)) {
		snprintf(k->err, sizeof(k->err), "b2b needs the size's throughput, and the rfc2544 "
			 "search found none: %s", none);
		return -EIO;
	}
	const char *why;
	if (!b2b_applies(thr, rate, &why)) {
		char s[300];
		snprintf(s, sizeof(s), "size skipped: %s (throughput %.0f pps, theoretical rate "
			 "%.0f pps)", why, thr, rate);
		json_object_set_new(o, "skipped", json_string(s));
		log_info("%s", s);
		return 0;
	}
	if (k->r->env.ngens != 1 || k->pc->values.bi) {
		snprintf(k->err, sizeof(k->err), "b2b sends its bursts from one sender box in one "
			 "direction (this case has %zu sender boxes%s)", k->r->env.ngens,
			 k->pc->values.bi ? ", both directions" : "");
		return -EIO;
	}
	struct b2b_cfg bc = { .rate_pps = rate, .throughput_pps = thr,
			      .min_burst = t->b2b_min_burst, .max_burst = t->b2b_max_burst,
			      .resolution = t->b2b_resolution, .trials = t->b2b_trials,
			      .repeat_invalid = t->repeat_invalid };
	if (b2b_cfg_check(&bc, k->err, sizeof(k->err)))
		return -EIO;
	struct b2b *b = b2b_new(&bc);
	if (!b)
		return -ENOMEM;
	struct b2b_req q;
	int rc = 0;
	while (rc >= 0 && !*k->r->env.stop && b2b_next(b, &q) == 0)
		rc = case_burst(k, b, &q, rate, thr);
	rc = rc > 0 ? 0 : rc;
	struct b2b_res br;
	b2b_result(b, &br);
	const uint64_t *a;
	size_t na = b2b_answers(b, &a);
	json_t *ans = json_array();
	for (size_t i = 0; i < na; i++)
		json_array_append_new(ans, json_integer((json_int_t)a[i]));
	b2b_free(b);
	json_object_set_new(o, "answers", ans);
	json_object_set_new(o, "regular", json_boolean(br.regular));
	if (br.irregular)
		json_object_set_new(o, "irregular", json_string(br.irregular));
	json_object_set_new(o, "trials", json_integer(br.trials));
	json_object_set_new(o, "trials_asked", json_integer(bc.trials));
	json_object_set_new(o, "bursts", json_integer((json_int_t)br.bursts));
	jset_num(o, "mean_frames", br.mean_frames);
	if (br.trials) {
		json_object_set_new(o, "min_frames", json_integer((json_int_t)br.min_frames));
		json_object_set_new(o, "max_frames", json_integer((json_int_t)br.max_frames));
	}
	jset_num(o, "stdev_frames", br.trials ? br.stdev_frames : NAN);
	jset_num(o, "implied_buffer_s", br.implied_s);
	jset_num(o, "corrected_buffer_s", br.corrected_s);
	jset_num(m, "b2b_frames", br.mean_frames);
	jset_num(m, "b2b_implied_s", br.implied_s);
	jset_num(m, "b2b_corrected_s", br.corrected_s);
	if (br.irregular) {
		char f[300];
		snprintf(f, sizeof(f), "b2b: %s", br.irregular);
		json_array_append_new(flags, json_string(f));
	}
	return rc;
}

/* --- the outage timeline (docs/method.md#outage-timeline) --------------------------- */

struct outage_act {
	struct case_run *k;
	char out[4096];
	const char *what;       /* "ctl", "rules", "hook", "reboot" */
};

/* trial_req.action: fires the profile's action, its status */
static int outage_fire(void *arg)
{
	struct outage_act *a = arg;
	struct runner *r = a->k->r;
	const struct prof_trial *t = &r->p->trial;
	if (t->outage_ctl || t->outage_rules)
		return dut_action_ctl(r->dut, t->outage_ctl, t->outage_rules, t->outage_per_rule,
				      a->out, sizeof(a->out));
	return dut_action_hook(r->dut, a->what, t->outage_hook, &a->k->pc->values, a->out,
			       sizeof(a->out));
}

/* The rate of each stream: a sender's share of the load by its threads, as trial.c
 * splits it; blast B (stream 2) the whole load. Their number. */
static size_t outage_rates(const struct runner *r, bool bi, double load, struct outage_rate *v)
{
	unsigned threads = 0;
	size_t n = 0;
	for (size_t i = 0; i < r->env.ngens; i++)
		threads += r->env.gens[i].threads ? r->env.gens[i].threads : 1;
	for (size_t i = 0; i < r->env.ngens; i++)
		v[n++] = (struct outage_rate){ r->env.gens[i].stream, load *
					       (r->env.gens[i].threads ? r->env.gens[i].threads : 1) /
					       threads };
	if (bi && r->env.ngens == 1 && r->env.nsinks == 1)
		v[n++] = (struct outage_rate){ 2, load };
	return n;
}

/* The OUTAGE result of the trial record rec into o, its metrics into m, a flag for
 * what makes a figure uncertain into flags. */
static void outage_result(const struct prof_trial *t, const json_t *rec,
			  const struct outage_rate *rates, size_t nrates, json_t *o, json_t *m,
			  json_t *flags)
{
	json_t *gaps = json_array();
	struct outage_sum sum;
	outage_sum_init(&sum);
	const json_t *sinks = json_object_get(json_object_get(rec, "action"), "sinks");
	double bound = 0;
	size_t i;
	const json_t *sk;
	json_array_foreach(json_object_get(rec, "sink"), i, sk) {
		const json_t *a = json_array_get(sinks, i);
		double b = jnum(a, "clock_bound_ns");
		bound = isnan(b) || isnan(bound) ? NAN : b > bound ? b : bound;
		int e = outage_gaps(gaps, sk, (int64_t)json_integer_value(json_object_get(a, "t0_ns")),
				    rates, nrates, &sum);
		if (e) {
			char f[160];   /* its gaps are not in the figures: they are not 0 */
			snprintf(f, sizeof(f), "outage: sink %zu's gaps are not in the figures (%s)",
				 i + 1, e == -EINVAL ? "its summary has no streams" : strerror(-e));
			json_array_append_new(flags, json_string(f));
		}
	}
	outage_finish(&sum);
	double took = jnum(json_object_get(rec, "action"), "took_ns");
	json_object_set_new(o, "gaps", gaps);
	/* t0 is taken right before the action starts; what it does happens within the
	 * time it took, and a sink's clock is known to within its bound */
	jset_num(o, "t0_action_ns", took);
	jset_num(o, "t0_clock_bound_ns", bound);
	/* the load's end after t0: an action that ended later outlasted it */
	double load_end = jnum(json_object_get(rec, "action"), "load_end_ns");
	jset_num(o, "t0_load_end_ns", load_end);
	char late[400];
	if (outage_action_late(took, load_end, late, sizeof(late)))
		json_array_append_new(flags, json_string(late));
	json_object_set_new(o, "lost_pkts", json_integer((json_int_t)sum.lost));
	json_object_set_new(o, "lost_outside_gaps_pkts", json_integer((json_int_t)sum.outside));
	if (sum.outside) {
		char f[300];
		snprintf(f, sizeof(f), "outage: %llu of the %llu frames lost are in no gap (lost "
			 "before a stream's first measured frame or after its last): loss / load "
			 "counts them, the gaps do not", (unsigned long long)sum.outside,
			 (unsigned long long)sum.lost);
		json_array_append_new(flags, json_string(f));
	}
	jset_num(o, "rate_pps", sum.rate_pps);
	jset_num(o, "loss_over_load_s", sum.loss_over_load_s);
	json_object_set_new(o, "gaps_unlisted", json_integer((json_int_t)sum.unlisted));
	json_t *lg = json_null();
	if (!isnan(sum.longest_ns)) {
		lg = json_object();
		json_object_set_new(lg, "stream", json_integer(sum.longest_stream));
		jset_num(lg, "duration_ns", sum.longest_ns);
		jset_num(lg, "start_ns", sum.longest_start_ns);
		if (sum.longest_listed == 1)
			json_object_set_new(lg, "lost_pkts", json_integer((json_int_t)sum.longest_lost));
		jset_num(lg, "loss_over_load_s", sum.longest_lol_s);
		if (sum.longest_listed == 2) {   /* in a merged record: within its ends */
			json_object_set_new(lg, "merged_gaps", json_integer((json_int_t)sum.longest_merged));
			jset_num(lg, "within_start_ns", sum.longest_within_start_ns);
			jset_num(lg, "within_end_ns", sum.longest_within_end_ns);
		}
		if (!sum.longest_listed)
			json_array_append_new(flags, json_string("outage: the longest gap is not in the "
								 "sinks' lists (64 per stream): its "
								 "start is unknown"));
	}
	json_object_set_new(o, "longest", lg);
	if (sum.split)
		json_array_append_new(flags, json_string("outage: a stream was split over a sink's "
							 "threads and has no gap list"));
	/* no gap in any complete list: a measured 0 */
	double longest = !isnan(sum.longest_ns) ? sum.longest_ns : sum.split ? NAN : 0;
	jset_num(m, "outage_longest_s", longest / 1e9);
	jset_num(m, "outage_start_s", sum.longest_start_ns / 1e9);
	json_object_set_new(m, "outage_lost", json_integer((json_int_t)sum.lost));
	jset_num(m, "outage_loss_over_load_s", sum.loss_over_load_s);
	json_object_set_new(m, "outage_gaps", json_integer((json_int_t)sum.gaps));
	if (t->outage_recipe == PO_RESET) {
		const char *why = NULL;
		double rs = outage_reset_ns(gaps, &why);
		jset_num(o, "reset_ns", rs);
		jset_num(m, "outage_reset_s", rs / 1e9);
		if (why) {
			char f[300];
			snprintf(f, sizeof(f), "reset: %s", why);
			json_array_append_new(flags, json_string(f));
		}
	}
}

/* The recovery recipe (RFC 2544 §26.5) of the trial record rec: the time from the
 * load's drop (the record's action instant, on each sink's clock) to the last frame
 * lost (outage.h), into o.recovery_ns and the metric outage_recovery_s. */
static void recovery_result(const struct prof_trial *t, const json_t *rec, json_t *o,
			    json_t *m, json_t *flags)
{
	struct outage_recovery rv;
	outage_recovery_init(&rv);
	const json_t *sinks = json_object_get(json_object_get(rec, "action"), "sinks");
	/* the low-rate phase ends duration − outage_at after the drop; a loss ending in its
	 * second half is not known to have stopped */
	int64_t low = llround((t->outage_duration_s - t->outage_at_s) * 1e9);
	size_t i;
	const json_t *sk;
	json_array_foreach(json_object_get(rec, "sink"), i, sk) {
		int64_t a = (int64_t)json_integer_value(json_object_get(json_array_get(sinks, i),
									"t0_ns"));
		outage_recovery(sk, a, a + low, low / 2, &rv);
	}
	outage_recovery_finish(&rv);
	const json_t *drop = json_object_get(json_object_get(o, "action"), "load_drop");
	double to = jnum(drop, "to_pps");
	json_t *x = json_object();
	jset_num(x, "recovery_ns", rv.ns);
	json_object_set_new(x, "stream", rv.stream >= 0 && !isnan(rv.ns) ? json_integer(rv.stream)
								     : json_null());
	/* B is the end of the last gap: late by at most a frame interval at the lower rate */
	jset_num(x, "bound_ns", to > 0 ? 1e9 / to : NAN);
	json_object_set_new(x, "streams_no_loss_after_drop", json_integer((json_int_t)rv.at_once));
	json_object_set_new(x, "lost_outside_gaps_pkts", json_integer((json_int_t)rv.lost_after_end));
	if (!isnan(rv.ns) && rv.at_once == rv.streams)
		json_object_set_new(x, "note", json_string("no frame lost after the load's drop: "
							   "recovered at once"));
	json_object_set_new(x, "why", rv.why ? json_string(rv.why) : json_null());
	json_object_set_new(o, "recovery", x);
	jset_num(m, "outage_recovery_s", rv.ns / 1e9);
	char f[300];
	if (rv.why) {
		snprintf(f, sizeof(f), "recovery: %s", rv.why);
		json_array_append_new(flags, json_string(f));
	}
	if (rv.inexact)
		json_array_append_new(flags, json_string("recovery: a late frame filled a stream's "
							 "latest loss, and the loss before it is "
							 "not known exactly"));
}

/* The outage trial after the NDR search (sr; none with a fixed load): c's
 * results.OUTAGE and metrics outage_*. 0, -EINTR, -EIO (k->err says why), -ENOMEM. */
static int case_outage(struct case_run *k, const struct search_res *sr, json_t *res, json_t *m,
		       json_t *flags)
{
	struct runner *r = k->r;
	const struct prof_trial *t = &r->p->trial;
	json_t *o = json_object();
	json_object_set_new(res, "OUTAGE", o);
	bool rcv = t->outage_recipe == PO_RECOVERY;
	json_object_set_new(o, "recipe", json_string(prof_recipe_name(t->outage_recipe)));
	double load = t->outage_load_pps;
	char from[160];
	snprintf(from, sizeof(from), "trial.outage_load");
	if (t->outage_load_pct > 0) {
		const char *none;
		double ndr = search_ndr(sr, &none);
		if (!(ndr > 0)) {
			snprintf(k->err, sizeof(k->err), "outage_load is %g %% of the NDR, and the "
				 "rfc2544 search found none: %s", t->outage_load_pct, none);
			return -EIO;
		}
		load = floor(ndr * t->outage_load_pct / 100);
		snprintf(from, sizeof(from), "%g %% of the NDR (%.0f pps) of this case's rfc2544 "
			 "search", t->outage_load_pct, ndr);
	}
	jset_num(o, "load_pps", load);
	json_object_set_new(o, "load_from", json_string(from));
	jset_num(o, "at_s", t->outage_at_s);
	struct outage_act a = { .k = k, .what = rcv ? "recovery" : t->outage_ctl ? "ctl"
			       : t->outage_rules ? "rules"
			       : t->outage_recipe == PO_RESET && t->outage_hook == r->p->router.reboot_hook
			       ? "reboot" : "outage" };
	json_t *act = json_object();
	if (rcv)   /* RFC 2544 §26.5: 110 % of the throughput, then 50 % */
		json_object_set_new(act, "load_drop", json_pack("{s:f,s:f}", "from_pps",
								  RECOVERY_OVER * load, "to_pps",
								  RECOVERY_UNDER * RECOVERY_OVER * load));
	else if (t->outage_ctl)
		json_object_set_new(act, "ctl", json_deep_copy(t->outage_ctl));
	else if (t->outage_rules) {
		json_object_set_new(act, "rules", json_integer(t->outage_rules));
		json_object_set_new(act, "per_rule", json_boolean(t->outage_per_rule));
	} else
		json_object_set_new(act, "hook", json_deep_copy(t->outage_hook));
	json_object_set_new(o, "action", act);
	if (!(load >= 1)) {
		snprintf(k->err, sizeof(k->err), "the outage load is %.3f pps: a stream needs at "
			 "least 1 frame per second", load);
		return -EIO;
	}
	struct outage_rate rates[PROF_BOXES_MAX + 1];
	/* the recovery recipe's loss ÷ load is over the overload's rate */
	size_t nr = outage_rates(r, k->pc->values.bi, rcv ? RECOVERY_OVER * load : load, rates);
	double slow = load;
	for (size_t i = 0; i < nr; i++)
		slow = rates[i].pps < slow ? rates[i].pps : slow;
	/* a silence of ten frame intervals, and at least 50 ms, is a gap, lost frames or
	 * not (a router that holds frames while it stalls loses none); shorter ones are a
	 * busy host's, which would crowd the list (64 a stream) */
	double gap_min = t->outage_gap_min_s >= 0 ? t->outage_gap_min_s
		       : 10 / slow > 0.05 ? 10 / slow : 0.05;
	jset_num(o, "gap_min_s", gap_min);
	double limit = t->outage_hook ? (r->p->router.hook_timeout_s > 0
					 ? r->p->router.hook_timeout_s : 30) : DUT_CTL_LOAD_S;
	struct trial_req tr = { .load_pps = rcv ? RECOVERY_OVER * load : load,
				.duration_s = t->outage_duration_s,
				.warmup_s = t->warmup_s, .cell = &k->pc->values, .kind = "outage",
				.seq = ++k->seq, .action = outage_fire, .action_arg = &a,
				.action_at_s = t->outage_at_s, .action_limit_s = limit, .gaps = true,
				.gap_min_s = gap_min };
	if (rcv) {
		tr.action = NULL;
		tr.step_at_s = t->outage_at_s;
		tr.step_pps = RECOVERY_UNDER * RECOVERY_OVER * load;
	}
	json_t *rec = NULL;
	int rc = trial_run(&r->env, &tr, &rec);
	if (!rec)
		return rc;
	char why[64];
	snprintf(why, sizeof(why), rcv ? "recovery from %.0f pps" : "outage at %.0f pps",
		 rcv ? RECOVERY_OVER * load : load);
	json_object_set_new(rec, "why", json_string(why));
	json_t *ra = json_object_get(rec, "action");
	if (ra)
		json_object_set_new(ra, "output", run_jtext(a.out));
	int ast = ra ? (int)json_integer_value(json_object_get(ra, "status")) : 0;
	if (ast) {
		char e[700], how[96];
		/* killed at its limit: a hung hook or control socket never holds the run */
		if (jnum(ra, "took_ns") >= limit * 1e9)
			snprintf(how, sizeof(how), "timed out after %g s (%s)", limit,
				 t->outage_hook ? "router.hook_timeout" : "the control socket's limit");
		else
			snprintf(how, sizeof(how), "failed with %s %d", ast < 0 ? "error" : "status",
				 ast < 0 ? -ast : ast);
		snprintf(e, sizeof(e), "the outage action (%s) %s: %.400s", a.what, how,
			 a.out[0] ? a.out : "no output");
		json_object_set_new(rec, "error", json_string(e));
		rc = rc == -EINTR ? rc : -EIO;
	}
	char rwhy[600];
	if (rc != -EINTR && router_after_trial(r, rec, k->c, t->outage_recipe == PO_RESET, rwhy,
						 sizeof(rwhy))) {
		json_object_set_new(rec, "error", json_string(rwhy));
		rc = -EIO;
	}
	if (checks_run(rec, &k->cc) > 0)
		k->flagged = true;
	json_array_append_new(k->trials, rec);
	if (rc == -EINTR)
		return rc;
	if (!rc && !ra)
		json_object_set_new(rec, "error", json_string(rcv ? "the load's drop has no instant "
							      "(a sender reported no first frame)"
							      : "the outage action was not fired"));
	if (rc || !ra || (r->dut && !dut_alive(r->dut) && strcmp(a.what, "reboot"))) {
		const json_t *e = json_object_get(rec, "error");
		snprintf(k->err, sizeof(k->err), "%s", json_is_string(e) && json_string_length(e)
			 ? json_string_value(e) : "the forwarder died during the outage trial");
		return -EIO;
	}
	k->last = rec;
	outage_result(t, rec, rates, nr, o, m, flags);
	/* a router whose boot identity is known and did not change was not reset: the
	 * silence measured is something else */
	if (t->outage_recipe == PO_RESET && r->boot_seen[0] &&
	    !json_object_get(k->c, "router_restarted"))
		json_array_append_new(flags, json_string("reset: the router's boot identity did not "
							 "change over the trial: it did not restart"));
	if (rcv)
		recovery_result(t, rec, o, m, flags);
	if (t->outage_recipe == PO_RESET && t->outage_load_pps > 0)
		json_object_set_new(res, "deviations", json_pack("[s]", "reset (RFC 2544 §26.6) "
			"at a fixed load, not at a throughput measured in the same case"));
	if (rcv && t->outage_load_pps > 0)
		json_object_set_new(res, "deviations", json_pack("[s]", "recovery (RFC 2544 §26.5) "
			"from a given throughput, not one measured in the same case"));
	r->save(r);
	return 0;
}

/* A case that ran to its end: its results, metrics, flags and status. */
static void case_done(struct case_run *k, const struct search_res *sr, json_t *flags)
{
	struct runner *r = k->r;
	json_t *c = k->c;
	bool bi = k->pc->values.bi;
	json_object_set_new(c, "results", results_obj(sr, r->p->trial.method));
	json_t *m = case_metrics(sr, k->trials, k->last, bi);
	json_object_set_new(c, "metrics", m);
	json_t *from = json_object_get(k->last, "fwd_rate_from");
	if (json_is_string(from))   /* how this case's fwd_pps was measured (compare) */
		json_object_set(c, "fwd_rate_from", from);
	withhold_latency(r, c, m, k->last);
	if (k->flagged)
		failed_checks(k->trials, flags);
	if (k->late_unknown)
		json_array_append_new(flags, json_string("latency goal: a sink gave no latency "
							 "histogram; its frames counted as late"));
	double fwd = jnum(m, "fwd_pps");
	if (r->ceiling_pps > 0 && !isnan(fwd) && fwd >= 0.97 * r->ceiling_pps * (bi ? 2 : 1)) {
		char b[160];
		snprintf(b, sizeof(b), "at the rig's own ceiling (%.0f pps): the sender or sink, "
			 "not the router, may be the limit", r->ceiling_pps);
		json_array_append_new(flags, json_string(b));
		json_object_set_new(m, "rig_limited", json_integer(1));
	}
	json_object_set_new(c, "flags", flags);
	json_object_set_new(c, "status", json_string(json_array_size(flags) ? "flagged" : "ok"));
}

/* Runs one case into c (the case object already in the document). Returns 0, -EINTR,
 * or -EIO (the case failed: its status says so). */
int run_case(struct runner *r, const struct plan_case *pc, json_t *c)
{
	const struct profile *p = r->p;
	struct case_run k = { .r = r, .pc = pc, .c = c, .trials = json_array() };
	json_t *flags = json_array();
	json_object_set_new(c, "trials", k.trials);
	char t[32];
	fmt_utc(t, sizeof(t), time(NULL));
	json_object_set_new(c, "start_utc", json_string(t));
	int rc = router_to_cell(r, pc, c, k.err, sizeof(k.err));
	if (rc == -EINTR)
		return case_interrupted(c, flags);
	if (rc == -ENOMEM) {
		json_decref(flags);
		return -ENOMEM;
	}
	if (rc) {
		/* a router that stopped answering is power-cycled for the next case */
		char now[256];
		if (r->boot_seen[0] && p->router.power_cycle_hook &&
		    router_boot(r, now, sizeof(now)) == -EIO &&
		    !revive(r, c, "the router does not answer", now, sizeof(now))) {
			dut_rebooted(r->dut);
			snprintf(r->boot_seen, sizeof(r->boot_seen), "%s", now);
		}
		return case_failed(c, flags, k.err);
	}
	search_config(r, &pc->values, &k.sc);
	k.at_max = k.sc.method == SM_FIXED && isnan(pc->values.offered_pps);
	if (search_cfg_check(&k.sc, k.err, sizeof(k.err)))
		return case_failed(c, flags, k.err);
	if (!(k.s = search_new(&k.sc)))
		return -ENOMEM;
	k.cc = check_ctx(p, &pc->values);
	k.repeated = json_object();
	json_object_set_new(c, "repeated_why", k.repeated);
	struct search_req req;
	bool search = prof_searches(&p->trial);
	while (search && rc >= 0 && !*r->env.stop && search_next(k.s, &req) == 0)
		rc = case_trial(&k, &req);
	rc = rc > 0 ? 0 : rc;
	struct search_res sr;
	search_result(k.s, &sr);
	search_free(k.s);
	if (!search)
		sr.ngoals = 0;
	/* the method's own part after the search: its results and metrics, merged */
	json_t *b2b = NULL, *b2b_m = NULL;
	if ((p->trial.method == PM_B2B || p->trial.method == PM_OUTAGE) && rc == 0 &&
	    !*r->env.stop) {
		b2b = json_object();
		b2b_m = json_object();
		rc = (p->trial.method == PM_B2B ? case_b2b : case_outage)(&k, &sr, b2b, b2b_m, flags);
	}
	json_object_set_new(c, "repeated_trials", json_integer((json_int_t)sr.repeated +
							      (rc == -EIO && sr.spoiled)));
	if (rc == -EINTR || *r->env.stop) {
		json_decref(b2b);
		json_decref(b2b_m);
		return case_interrupted(c, flags);
	}
	fmt_utc(t, sizeof(t), time(NULL));
	json_object_set_new(c, "end_utc", json_string(t));
	if (rc) {
		if (b2b)                /* what the bursts found before the failure */
			json_object_set_new(c, "results", b2b);
		json_decref(b2b_m);
		return case_failed(c, flags, k.err);
	}
	if (p->trial.nlatency_loads) {   /* latency at load (run_latency.c); not with b2b */
		rc = run_latency(r, pc, c, &sr, &k.cc, &k.seq, flags, k.err, sizeof(k.err));
		if (rc == -ENOMEM)
			return rc;
		if (rc || *r->env.stop)          /* the search it follows ran to its end */
			json_object_set_new(c, "results", results_obj(&sr, p->trial.method));
		if (rc == -EINTR || *r->env.stop)
			return case_interrupted(c, flags);
		if (rc)
			return case_failed(c, flags, k.err);
		fmt_utc(t, sizeof(t), time(NULL));
		json_object_set_new(c, "end_utc", json_string(t));
	}
	case_done(&k, &sr, flags);
	if (b2b) {
		json_object_update(json_object_get(c, "results"), b2b);
		json_object_update(json_object_get(c, "metrics"), b2b_m);
		json_decref(b2b);
		json_decref(b2b_m);
	}
	if (p->trial.nlatency_loads)
		run_latency_metrics(c);
	return 0;
}

void run_warn_unread(const struct profile *p)
{
	const char *names[128];
	size_t n = prof_unread_axes(p, names, 128);
	for (size_t i = 0; i < n; i++) {
		const struct prof_raxis *ra = prof_router_axis(p, names[i]);
		log_warn("%s: nothing reads it back from the router, so a hook that did not take "
			 "effect would be measured under its label: give %s%s%s", names[i],
			 ra ? "router.axes[]" : "router.verify.", ra ? "" : names[i],
			 ra ? ".verify for it" : " (an argument vector that prints the router's value)");
	}
}
