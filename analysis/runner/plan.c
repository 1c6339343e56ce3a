/* SPDX-License-Identifier: BSD-2-Clause */
/* plan.c — a profile's matrix expanded into the cases `ppslab run` will measure, in run
 * order, with the time it should take (see plan.h). Called by the run command (and its
 * --dry-run) and the unit tests; pure apart from plan_print's output. */
#include "plan.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "axes.h"
#include "pollkern.h"
#include "results.h"
#include "rng.h"

#define PLAN_MAX_CASES 100000
/* Per case: starting the tools (or reconfiguring the router) and collecting summaries. */
#define CASE_START_S 2.0
/* Before the matrix: ppslab-gen --calibrate takes a few seconds. */
#define CALIBRATE_S 5.0
/* The search range assumed when max_load is the rig's (not yet measured) ceiling. */
#define ASSUMED_MAX_PPS 1e6

void plan_free(struct plan *pl)
{
	if (!pl)
		return;
	for (size_t i = 0; i < pl->ncases; i++) {
		json_decref(pl->cases[i].params);
		free(pl->cases[i].case_id);
	}
	free(pl->cases);
	for (size_t i = 0; i < pl->ntests; i++)
		plan_free(&pl->tests[i]);
	free(pl->tests);
	memset(pl, 0, sizeof(*pl));
}

/* The value index of axis a in cell (first axis varying slowest). */
static size_t cell_index(const struct profile *p, size_t cell, size_t a)
{
	size_t rest = cell;
	for (size_t b = p->naxes - 1; b > a; b--)
		rest /= json_array_size(p->axes[b].values);
	return rest % json_array_size(p->axes[a].values);
}

/* params and case_id of cell. */
static int make_cell(const struct profile *p, size_t cell, json_t **params, char **id)
{
	json_t *o = json_object();
	size_t cap = 64, len = 0;
	char *s = malloc(cap);
	if (!o || !s)
		goto fail;
	s[0] = 0;
	if (p->naxes == 0)
		snprintf(s, cap, "all");
	for (size_t a = 0; a < p->naxes; a++) {
		json_t *v = json_array_get(p->axes[a].values, cell_index(p, cell, a));
		char vb[1024];
		prof_id_text(v, vb, sizeof(vb));
		size_t need = len + strlen(p->axes[a].name) + strlen(vb) + 3;
		if (need > cap) {
			char *ns = realloc(s, need * 2);
			if (!ns)
				goto fail;
			s = ns;
			cap = need * 2;
		}
		len += (size_t)snprintf(s + len, cap - len, "%s%s=%s", a ? "/" : "",
					p->axes[a].name, vb);
		if (json_object_set(o, p->axes[a].name, v))
			goto fail;
	}
	*params = o;
	*id = s;
	return 0;
fail:
	json_decref(o);
	free(s);
	return -ENOMEM;
}

static bool is_reboot_axis(const struct profile *p, size_t a)
{
	return p->axes[a].router && p->axes[a].router->reboot;
}

/* The reboot group of cell: its reboot axes' value indices as one number (0 without
 * reboot axes). */
static size_t reboot_group(const struct profile *p, size_t cell, size_t *ngroups)
{
	size_t g = 0, n = 1;
	for (size_t a = 0; a < p->naxes; a++)
		if (is_reboot_axis(p, a)) {
			size_t k = json_array_size(p->axes[a].values);
			g = g * k + cell_index(p, cell, a);
			n *= k;
		}
	if (ngroups)
		*ngroups = n;
	return g;
}

bool plan_reboots_before(const struct profile *p, const struct plan *pl, size_t i)
{
	if (!prof_has_reboots(p) || i >= pl->ncases)
		return false;
	if (i == 0)
		return true;
	for (size_t a = 0; a < p->naxes; a++)
		if (is_reboot_axis(p, a) &&
		    !res_value_eq(json_object_get(pl->cases[i].params, p->axes[a].name),
				  json_object_get(pl->cases[i - 1].params, p->axes[a].name)))
			return true;
	return false;
}

static void shuffle(size_t *v, size_t n, uint64_t *rng)
{
	/* Fisher–Yates; the modulo's bias is below 1e-14 for 100,000 cells */
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(rng_xs64(rng) % i), t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void hook_estimate(const struct profile *p, struct plan *pl);
static bool lost_after(const struct profile *p);

/* The rig's ceiling, measured once before the first case. */
static double rig_seconds(const struct profile *p)
{
	return (p->rig_calibrate ? CALIBRATE_S : 0) +
	       (p->rig_direct ? CASE_START_S + p->trial.warmup_s + p->trial.duration_s +
				p->trial.settle_s : 0);
}

/* A profile with tests: each test's plan, then their cases one test after another. */
static int plan_tests(const struct profile *p, struct plan *pl)
{
	size_t total = 0;
	int rc;
	if (!(pl->tests = calloc(p->ntests, sizeof(*pl->tests))))
		return -ENOMEM;
	for (size_t t = 0; t < p->ntests; t++) {
		if ((rc = plan_make(p->tests[t], &pl->tests[t])))
			goto fail;
		pl->ntests++;
		total += pl->tests[t].ncases;
		if (total > PLAN_MAX_CASES) {
			rc = -E2BIG;
			goto fail;
		}
	}
	rc = -ENOMEM;
	if (!(pl->cases = calloc(total ? total : 1, sizeof(*pl->cases))))
		goto fail;
	for (size_t t = 0; t < p->ntests; t++) {
		const struct plan *sp = &pl->tests[t];
		const struct profile *tp = p->tests[t];
		for (size_t k = 0; k < sp->ncases; k++) {
			const struct plan_case *s = &sp->cases[k];
			struct plan_case *c = &pl->cases[pl->ncases];
			size_t n = strlen(tp->test) + strlen(s->case_id) + 8;
			c->cell = pl->ncells + s->cell;
			c->rep = s->rep;
			c->params = json_object();
			c->case_id = malloc(n);
			if (!c->params || !c->case_id ||
			    json_object_set_new(c->params, "test", json_string(tp->test)) ||
			    json_object_update(c->params, s->params)) {
				pl->ncases++;   /* freed with the rest */
				goto fail;
			}
			if (strcmp(s->case_id, "all") || tp->naxes)
				snprintf(c->case_id, n, "test=%s/%s", tp->test, s->case_id);
			else
				snprintf(c->case_id, n, "test=%s", tp->test);
			c->prof = tp;
			c->test = tp->test;
			prof_cell(tp, c->params, &c->values);
			pl->ncases++;
		}
		pl->ncells += sp->ncells;
		pl->est_s += sp->est_s - rig_seconds(tp);
		pl->est_hook_s += sp->est_hook_s;
		pl->hook_runs += sp->hook_runs;
		pl->reboots += sp->reboots;
		pl->est_reboot_s += sp->est_reboot_s;
	}
	/* one router for the whole run: its setup hook runs once, not once a test as each
	 * test's plan counts it, and again after what lost its settings: within a test
	 * (its own plan counts those), and before a test after an outage action's test */
	if (p->router.kind == PR_EXTERNAL && p->router.setup_hook && p->ntests > 1) {
		size_t want = 1;
		for (size_t t = 1; t < p->ntests; t++)
			want += pl->tests[t - 1].ncases && lost_after(p->tests[t - 1]);
		double d = ((double)want - (double)p->ntests) * prof_hook_estimate(p, "setup");
		pl->est_hook_s += d;
		pl->est_s += d;
		pl->hook_runs = pl->hook_runs + want - p->ntests;
	}
	pl->est_trial_s = pl->ncases ? (pl->est_s - pl->est_hook_s - pl->est_reboot_s) /
					       (double)pl->ncases : 0;
	pl->est_s += rig_seconds(p);
	return 0;
fail:
	plan_free(pl);
	return rc;
}

int plan_make(const struct profile *p, struct plan *pl)
{
	memset(pl, 0, sizeof(*pl));
	if (p->ntests)
		return plan_tests(p, pl);
	size_t ncells = 1;
	for (size_t a = 0; a < p->naxes; a++) {
		size_t n = json_array_size(p->axes[a].values);
		if (n == 0 || ncells > PLAN_MAX_CASES / n)
			return -E2BIG;
		ncells *= n;
	}
	unsigned reps = p->repetitions ? p->repetitions : 1;
	if (ncells > PLAN_MAX_CASES / reps)
		return -E2BIG;
	size_t *order = malloc(ncells * sizeof(*order));
	pl->cases = calloc(ncells * reps, sizeof(*pl->cases));
	if (!order || !pl->cases) {
		free(order);
		free(pl->cases);
		pl->cases = NULL;
		return -ENOMEM;
	}
	pl->ncells = ncells;
	uint64_t rng = rng_splitmix64(p->seed);
	if (!rng)
		rng = 1;
	/* reboot groups, each run whole (all its repetitions) before the next; one group
	 * (every cell) without reboot axes */
	size_t ngroups = 1;
	reboot_group(p, 0, &ngroups);
	/* the cells of each group in matrix order: members[start[g] .. start[g + 1]) */
	size_t *groups = malloc(ngroups * sizeof(*groups));
	size_t *start = calloc(ngroups + 1, sizeof(*start));
	size_t *members = malloc(ncells * sizeof(*members));
	size_t *gcell = malloc(ncells * sizeof(*gcell));
	int rc = -ENOMEM;
	if (!groups || !start || !members || !gcell)
		goto out;
	for (size_t i = 0; i < ncells; i++) {
		gcell[i] = ngroups > 1 ? reboot_group(p, i, NULL) : 0;
		start[gcell[i] + 1]++;
	}
	for (size_t g = 0; g < ngroups; g++)
		start[g + 1] += start[g];
	/* groups[] doubles as each group's fill cursor before it holds the group order */
	memcpy(groups, start, ngroups * sizeof(*groups));
	for (size_t i = 0; i < ncells; i++)
		members[groups[gcell[i]]++] = i;
	for (size_t g = 0; g < ngroups; g++)
		groups[g] = g;
	if (p->order_random && ngroups > 1)
		shuffle(groups, ngroups, &rng);
	for (size_t gi = 0; gi < ngroups; gi++) {
		size_t g = groups[gi], n = start[g + 1] - start[g];
		for (unsigned r = 1; r <= reps; r++) {
			memcpy(order, members + start[g], n * sizeof(*order));
			if (p->order_random)
				shuffle(order, n, &rng);
			for (size_t i = 0; i < n; i++) {
				struct plan_case *c = &pl->cases[pl->ncases];
				c->cell = order[i];
				c->rep = r;
				if (make_cell(p, order[i], &c->params, &c->case_id))
					goto out;
				prof_cell(p, c->params, &c->values);
				c->prof = p;
				pl->ncases++;
			}
		}
	}
	rc = 0;
out:
	free(groups);
	free(start);
	free(members);
	free(gcell);
	if (rc) {
		free(order);
		plan_free(pl);
		return rc;
	}
	free(order);
	pl->est_trial_s = plan_case_seconds(p);
	pl->est_s = (double)pl->ncases * pl->est_trial_s;
	hook_estimate(p, pl);
	pl->est_s += pl->est_hook_s;
	for (size_t i = 0; i < pl->ncases; i++)
		pl->reboots += plan_reboots_before(p, pl, i);
	pl->est_reboot_s = (double)pl->reboots * p->router.reboot_est_s;
	pl->est_s += pl->est_reboot_s + rig_seconds(p);
	return 0;
}

static void search_estimate(const struct prof_trial *t, double *ntrials, double *trial_s);

/* Whether every case of p leaves an external router without its runtime settings:
 * an outage trial's action hook ran (the reset recipe's reboot, or any hook: what it
 * changed is unknown), after which the runner applies the setup and every hook again
 * (dut_action_hook). */
static bool lost_after(const struct profile *p)
{
	return p->router.kind == PR_EXTERNAL && p->trial.method == PM_OUTAGE &&
	       p->trial.outage_hook;
}

/* Whether an external router lost its runtime settings before case i: a reboot axis
 * restarts it first, or the case before ran an outage action hook (lost_after). */
static bool settings_lost_before(const struct profile *p, const struct plan *pl, size_t i)
{
	return (i > 0 && lost_after(p)) || plan_reboots_before(p, pl, i);
}

/* Does a hook (key: its axis) run before case i: the first case, an axis it names has
 * another value than in case i − 1, or the router restarted (runtime settings are
 * gone: settings_lost_before). A reboot axis' own set hook runs only when its value
 * changes. */
static bool hook_runs(const struct profile *p, const struct plan *pl, size_t i, const char *key,
		      const json_t *hook)
{
	if (i == 0)
		return true;
	const struct prof_raxis *ra = prof_router_axis(p, key);
	if (!(ra && ra->reboot) && settings_lost_before(p, pl, i))
		return true;
	for (size_t a = 0; a < p->naxes; a++) {
		const char *ax = p->axes[a].name;
		if (strcmp(ax, key) && !prof_hook_uses(hook, ax))
			continue;
		if (!res_value_eq(json_object_get(pl->cases[i].params, ax),
				  json_object_get(pl->cases[i - 1].params, ax)))
			return true;
	}
	return false;
}

static size_t hook_count(const struct profile *p, const struct plan *pl, const char *key,
			 const json_t *hook)
{
	size_t n = 0;
	for (size_t i = 0; i < pl->ncases; i++)
		n += hook_runs(p, pl, i, key, hook);
	return n;
}

static size_t verified_axes(const struct profile *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->router.naxes; i++)
		n += p->router.axes[i].verify != NULL;
	return n;
}

static void add_runs(struct plan *pl, size_t n, double each)
{
	pl->est_hook_s += (double)n * each;
	pl->hook_runs += n;
}

/* An external router's hooks in run order: setup once and after every reboot, each
 * router axis' and axis hook when its values change (and after a reboot), the verify
 * and check hooks every case, the read hook before and after every trial. The reboot
 * hook and the wait are the reboot estimate's. */
static void hook_estimate(const struct profile *p, struct plan *pl)
{
	pl->est_hook_s = 0;
	pl->hook_runs = 0;
	if (p->router.kind != PR_EXTERNAL)
		return;
	double ntrials, secs;
	search_estimate(&p->trial, &ntrials, &secs);
	size_t lost = 0;
	for (size_t i = 0; i < pl->ncases; i++)
		lost += settings_lost_before(p, pl, i);
	if (p->router.setup_hook)
		add_runs(pl, 1 + lost, prof_hook_estimate(p, "setup"));
	for (size_t a = 0; a < p->router.naxes; a++) {
		const struct prof_raxis *ra = &p->router.axes[a];
		add_runs(pl, hook_count(p, pl, ra->name, ra->set), prof_hook_estimate(p, ra->name));
	}
	const char *k;
	json_t *h;
	json_object_foreach(p->router.hooks, k, h)
		add_runs(pl, hook_count(p, pl, k, h), prof_hook_estimate(p, k));
	add_runs(pl, pl->ncases * verified_axes(p), prof_hook_estimate(p, "verify"));
	if (p->router.check_hook)
		add_runs(pl, pl->ncases, prof_hook_estimate(p, "check"));
	if (p->router.read_hook) {
		pl->est_hook_s += 2 * ntrials * (double)pl->ncases * prof_hook_estimate(p, "read");
		pl->hook_runs += (size_t)lround(2 * ntrials) * pl->ncases;
	}
	if (p->trial.method == PM_OUTAGE && p->trial.outage_hook)   /* the action, or reset */
		add_runs(pl, pl->ncases, p->router.hook_est_s);
}

/* Expected trials of one case and their summed duration. */
static void search_estimate(const struct prof_trial *t, double *ntrials, double *trial_s)
{
	double max = t->max_load_pps > 0 ? t->max_load_pps : ASSUMED_MAX_PPS;
	double min = t->min_load_pps < max ? t->min_load_pps : max / 2;
	double n = 1, secs;

	switch (t->method) {
	case PM_FIXED:
		n = 1;
		secs = t->duration_s;
		break;
	case PM_RFC2544:
		/* a trial at max, then halvings of [min, max] until (hi-lo)/hi <= width,
		 * taking hi near max */
		n = 1 + ceil(log2((max - min) / (t->width * max)));
		if (n < 1)
			n = 1;
		secs = n * t->duration_s;
		break;
	case PM_MLR: {
		/* MRR and the trial at its forwarding rate (initial length); phase k < P:
		 * about two trials of init*(final/init)^(k/P) (the width halves each phase,
		 * the first phase needs a third); final phase: two loads (NDR and PDR bounds)
		 * each for duration_sum */
		unsigned P = t->phases;
		n = 2;
		secs = 2 * t->initial_s;
		for (unsigned k = 0; k < P; k++) {
			double dur = t->initial_s * pow(t->duration_s / t->initial_s, (double)k / P);
			double m = k == 0 ? 3 : 2;
			n += m;
			secs += m * dur;
		}
		if (!t->ngoals) {
			double per = ceil(t->duration_sum_s / t->duration_s);
			n += 2 * per;
			secs += 2 * per * t->duration_s;
			break;
		}
		/* goals: a load each decided with its duration sum of its final trials
		 * (NDR and PDR above are the case of two goals sharing them) */
		for (size_t g = 0; g < t->ngoals; g++) {
			double per = ceil(t->goals[g].duration_sum_s / t->goals[g].final_s);
			n += per;
			secs += per * t->goals[g].final_s;
		}
		break;
	}
	case PM_B2B: {
		/* the rfc2544 search for the throughput (none when it is given), then the
		 * bursts: the first search bisects [min, max] burst, each later one brackets
		 * the previous answer (about 12 bursts); a burst is a short trial of at most
		 * max_burst frames at max load */
		struct prof_trial s = *t;
		s.method = PM_RFC2544;
		n = 0, secs = 0;
		if (prof_searches(t))
			search_estimate(&s, &n, &secs);
		double span = (double)(t->b2b_max_burst - t->b2b_min_burst) /
			      (double)t->b2b_resolution;
		double bursts = 1 + ceil(log2(span > 1 ? span : 1)) +
				12.0 * (t->b2b_trials - 1);
		n += bursts;
		secs += bursts * (0.5 + 2.0 * (double)t->b2b_max_burst / max);
		*ntrials = n;
		*trial_s = secs;
		return;
	}
	case PM_OUTAGE: {
		/* an rfc2544 search for the NDR when the load is a share of it, then one
		 * trial through the action */
		struct prof_trial s = *t;
		s.method = PM_RFC2544;
		n = 0, secs = 0;
		if (prof_searches(t))
			search_estimate(&s, &n, &secs);
		*ntrials = n + 1;
		*trial_s = secs + t->outage_duration_s;
		return;
	}
	case PM_LADDER:
	default:
		n = t->ladder ? (double)json_array_size(t->ladder) : 10;
		secs = n * t->duration_s;
		break;
	}
	if (t->max_trials && n > t->max_trials) {
		secs *= t->max_trials / n;
		n = t->max_trials;
	}
	*ntrials = n;
	*trial_s = secs;
}

double plan_case_seconds(const struct profile *p)
{
	double n, secs;
	search_estimate(&p->trial, &n, &secs);
	/* latency at load: one trial of trial.duration a load, each with its warm-up */
	double nl = (double)p->trial.nlatency_loads;
	return CASE_START_S + p->trial.warmup_s + secs + n * p->trial.settle_s +
	       nl * (p->trial.warmup_s + p->trial.duration_s + p->trial.settle_s);
}

/* "about 3 min 20 s", "about 45 s", "about 1 h 5 min". */
static char *fmt_time(double s, char *buf, size_t len)
{
	long t = lround(s);
	if (t < 60)
		snprintf(buf, len, "about %ld s", t);
	else if (t < 3600)
		snprintf(buf, len, "about %ld min %ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "about %ld h %ld min", t / 3600, (t % 3600 + 30) / 60);
	return buf;
}

/* An external router: its axes (verified or not, reboot or not), which hook sets each
 * swept axis, how often it runs, and its estimated time (router.hook_estimate); the
 * reboots and how the router is waited for. */
static void print_hooks(const struct profile *p, const struct plan *pl, FILE *f)
{
	char tb[64];
	if (p->router.kind != PR_EXTERNAL)
		return;
	if (p->router.naxes) {
		size_t w = 0;
		for (size_t a = 0; a < p->router.naxes; a++)
			if (strlen(p->router.axes[a].name) > w)
				w = strlen(p->router.axes[a].name);
		fprintf(f, "\nrouter axes (set on the router by their hooks):\n");
		for (size_t a = 0; a < p->router.naxes; a++) {
			const struct prof_raxis *ra = &p->router.axes[a];
			size_t n = hook_count(p, pl, ra->name, ra->set);
			fprintf(f, "  %-*s %s, set %zu time%s%s\n", (int)w, ra->name,
				ra->verify ? "verified (read back every case)"
					   : "NOT verified (no \"verify\": a setting that does not take "
					     "effect would go unnoticed)",
				n, n == 1 ? "" : "s", ra->reboot ? ", takes a reboot" : "");
		}
	}
	if (pl->reboots) {
		char tb2[64];
		fprintf(f, "reboots: %zu, ~%s each (router.reboot_estimate); the router is back when "
			"%s, waiting up to %s (router.reboot_timeout)\n", pl->reboots,
			fmt_time(p->router.reboot_est_s, tb, sizeof(tb)) + 6,
			p->router.ready_hook ? "router.ready_hook exits 0"
					     : "test frames pass through it again (a probe)",
			fmt_time(p->router.reboot_timeout_s, tb2, sizeof(tb2)) + 6);
	}
	fprintf(f, "\nrouter hooks (external router; router.hook_estimate per run):\n");
	const char *k;
	json_t *h;
	int hw = p->trial.method == PM_OUTAGE && p->trial.outage_hook ? 14 : 12;   /* names */
	for (size_t a = 0; a < p->router.naxes; a++)
		if ((int)strlen(p->router.axes[a].name) > hw)
			hw = (int)strlen(p->router.axes[a].name);
	if (p->router.setup_hook) {
		size_t n = 1;
		for (size_t i = 0; i < pl->ncases; i++)
			n += settings_lost_before(p, pl, i);
		if (!lost_after(p))
			fprintf(f, "  %-*s %s, ~%g s\n", hw, "setup",
				n == 1 ? "once" : "once and after every reboot",
				prof_hook_estimate(p, "setup"));
		else   /* and after every case's action: its settings are applied again */
			fprintf(f, "  %-*s %zu run%s (once and after every %s), ~%g s each\n", hw,
				"setup", n, n == 1 ? "" : "s", pl->reboots ? "reboot and outage action"
				: "outage action", prof_hook_estimate(p, "setup"));
	}
	for (size_t a = 0; a < p->router.naxes; a++) {
		const struct prof_raxis *ra = &p->router.axes[a];
		size_t n = hook_count(p, pl, ra->name, ra->set);
		fprintf(f, "  %-*s %zu run%s, ~%g s each\n", hw, ra->name, n, n == 1 ? "" : "s",
			prof_hook_estimate(p, ra->name));
	}
	json_object_foreach(p->router.hooks, k, h) {
		size_t n = hook_count(p, pl, k, h);
		fprintf(f, "  %-*s %zu run%s, ~%g s each\n", hw, k, n, n == 1 ? "" : "s",
			prof_hook_estimate(p, k));
	}
	if (verified_axes(p))
		fprintf(f, "  %-*s every case, %zu axis%s, ~%g s each\n", hw, "verify",
			verified_axes(p), verified_axes(p) == 1 ? "" : "es",
			prof_hook_estimate(p, "verify"));
	if (p->router.check_hook)
		fprintf(f, "  %-*s every case, ~%g s\n", hw, "check", prof_hook_estimate(p, "check"));
	if (p->router.read_hook)
		fprintf(f, "  %-*s before and after every trial, ~%g s\n", hw, "read",
			prof_hook_estimate(p, "read"));
	if (p->trial.method == PM_OUTAGE && p->trial.outage_hook)
		fprintf(f, "  %-*s every case, ~%g s\n", hw,
			p->trial.outage_hook == p->router.reboot_hook ? "reset (reboot)" : "outage action",
			p->router.hook_est_s);
	fprintf(f, "  hooks in all: %zu runs, %s\n", pl->hook_runs,
		fmt_time(pl->est_hook_s, tb, sizeof(tb)));
	bool any = false;
	for (size_t a = 0; a < p->naxes; a++)
		if (prof_axis_by_ppslab(p->axes[a].name)) {
			fprintf(f, "%s%s", any ? ", " : "  applied by ppslab itself (the traffic): ",
				p->axes[a].name);
			any = true;
		}
	if (any)
		fprintf(f, "\n");
}

/* The axes, senders and sinks, method, cases and time of p (a profile or one test). */
static void print_body(const struct profile *p, const struct plan *pl, FILE *f)
{
	char vb[256], tb[64];
	const struct prof_trial *t = &p->trial;
	size_t w = 0;
	for (size_t a = 0; a < p->naxes; a++)
		if (strlen(p->axes[a].name) > w)
			w = strlen(p->axes[a].name);
	fprintf(f, "\naxes swept: %zu\n", p->naxes);
	for (size_t a = 0; a < p->naxes; a++) {
		size_t i;
		json_t *v;
		fprintf(f, "  %-*s ", (int)w, p->axes[a].name);
		json_array_foreach(p->axes[a].values, i, v)
			fprintf(f, "%s%s", i ? ", " : "", res_value_str(v, vb, sizeof(vb)));
		fprintf(f, "\n");
	}
	fprintf(f, "fixed:");
	/* a kernel without a knob (pollhz on FreeBSD) does not get its default */
	const struct pollkern *k = pollkern_find(json_string_value(json_object_get(p->fixed,
										     "kernel")));
	for (size_t i = 0; i < AX_COUNT; i++) {
		const char *name = axis_defs[i].name;
		const json_t *v = json_object_get(p->fixed, name);
		if (k && p->router.kind == PR_RUT && !pollkern_has(k, name))
			continue;
		/* an external router gets only what its hooks set, and the traffic's */
		bool hooked = prof_axis_hooked(p, name) ||
			      (i == AX_RULES_KIND && prof_axis_hooked(p, "rules"));
		if (p->router.kind == PR_EXTERNAL && axis_defs[i].act != AA_TRAFFIC && !hooked)
			continue;
		if (v && !json_is_null(v))     /* null: the kernel's own (hz) */
			fprintf(f, " %s=%s", name, res_value_str(v, vb, sizeof(vb)));
	}
	/* where the load comes from and goes: each sender's and sink's port and threads */
	for (int side = 0; side < 2; side++) {
		size_t n = side ? p->topo.nsinks : p->topo.ngens;
		const struct prof_host *hs = side ? p->topo.sinks : p->topo.gens;
		fprintf(f, "\n%s:", side ? (n > 1 ? "sinks" : "sink") : (n > 1 ? "senders" : "sender"));
		for (size_t i = 0; i < n; i++) {
			const struct prof_host *h = &hs[i];
			fprintf(f, "%s %s %s", i ? "," : "", h->name, h->spec ? h->spec : "?");
			if (h->threads > 1)
				fprintf(f, " x%u threads", h->threads);
			if (h->cpus)
				fprintf(f, " cpus %s", h->cpus);
			if (h->ssh || h->netns)
				fprintf(f, " (%s%s%s)", h->ssh ? h->ssh : "", h->ssh && h->netns ? " " : "",
					h->netns ? h->netns : "");
		}
	}
	if (p->topo.kind == PT_NETNS && (p->topo.lab_senders > 1 || p->topo.lab_queues > 1))
		fprintf(f, "\nlab %s: %u sender namespace%s, %u queue%s per veth at least", p->topo.lab,
			p->topo.lab_senders, p->topo.lab_senders == 1 ? "" : "s", p->topo.lab_queues,
			p->topo.lab_queues == 1 ? "" : "s");
	fprintf(f, "\n\nmethod: %s, warm-up %g s, trials %g s, settle %g s",
		prof_method_name(t->method), t->warmup_s, t->duration_s, t->settle_s);
	if (t->method == PM_RFC2544 || t->method == PM_MLR || t->method == PM_B2B ||
	    (t->method == PM_OUTAGE && t->outage_load_pct > 0)) {
		fprintf(f, ", loads %.0f..", t->min_load_pps);
		if (t->max_load_pps > 0)
			fprintf(f, "%.0f pps", t->max_load_pps);
		else
			fprintf(f, "rig ceiling");
		fprintf(f, ", width %g%%", t->width * 100);
	}
	if (t->method == PM_MLR && !t->ngoals)
		fprintf(f, ", PDR loss %g%%, initial %g s, %u phases", t->pdr_loss * 100,
			t->initial_s, t->phases);
	if (t->method == PM_MLR && t->ngoals) {
		fprintf(f, ", initial %g s, %u phases; goals", t->initial_s, t->phases);
		if (t->goal_preset)
			fprintf(f, " (preset %s)", t->goal_preset);
		for (size_t g = 0; g < t->ngoals; g++) {
			const struct prof_goal *pg = &t->goals[g];
			fprintf(f, "%s %s: loss %g%%", g ? ";" : "", pg->name, pg->loss_ratio * 100);
			if (pg->latency_ns > 0)
				fprintf(f, " (later than %g us counts)", pg->latency_ns / 1e3);
			fprintf(f, ", exceed %g%%, final %g s, sum %g s, width %g%%",
				pg->exceed_ratio * 100, pg->final_s, pg->duration_sum_s,
				pg->width * 100);
		}
	}
	if (t->method == PM_LADDER)
		fprintf(f, ", %zu steps", t->ladder ? json_array_size(t->ladder) : (size_t)10);
	if (t->method == PM_B2B) {
		fprintf(f, ", %u back-to-back searches%s of %llu..%llu frames", t->b2b_trials,
			t->b2b_trials < 50 ? " (RFC 2544 asks for 50)" : "", t->b2b_min_burst,
			t->b2b_max_burst);
		if (t->b2b_throughput_pps > 0)
			fprintf(f, ", throughput %.0f pps given", t->b2b_throughput_pps);
		else
			fprintf(f, " after an rfc2544 search for the throughput");
	}
	if (t->method == PM_OUTAGE) {
		if (t->outage_load_pct > 0)
			fprintf(f, "; outage (%s) at %g %% of the NDR an rfc2544 search finds",
				prof_recipe_name(t->outage_recipe), t->outage_load_pct);
		else
			fprintf(f, "; outage (%s) at %.0f pps", prof_recipe_name(t->outage_recipe),
				t->outage_load_pps);
		if (t->outage_duration_s != t->duration_s)
			fprintf(f, " in a %g-s trial", t->outage_duration_s);
		if (t->outage_recipe == PO_RECOVERY)
			fprintf(f, " as the throughput: 110 %% of it for %g s, then half that",
				t->outage_at_s);
		else
			fprintf(f, ", the action %g s into the trial: ", t->outage_at_s);
		if (t->outage_recipe == PO_RECOVERY)
			;
		else if (t->outage_rules)
			fprintf(f, "%u rules loaded", t->outage_rules);
		else {
			const json_t *aw = t->outage_ctl ? t->outage_ctl : t->outage_hook;
			fprintf(f, "%s", t->outage_ctl ? "ppslab-rut ctl" : "hook");
			size_t i;
			const json_t *v;
			json_array_foreach(aw, i, v)
				fprintf(f, " %s", json_string_value(v));
		}
	}
	for (size_t i = 0; i < t->nlatency_loads; i++)   /* run_latency.c */
		fprintf(f, "%s%g", i ? "," : ", then latency at ", t->latency_loads[i]);
	if (t->nlatency_loads)
		fprintf(f, " %% of the NDR");
	fprintf(f, "\n");
	unsigned reps = pl->ncells ? (unsigned)(pl->ncases / pl->ncells) : 0;
	fprintf(f, "cases: %zu cell%s x %u repetition%s = %zu case%s, order %s", pl->ncells,
		pl->ncells == 1 ? "" : "s", reps, reps == 1 ? "" : "s", pl->ncases,
		pl->ncases == 1 ? "" : "s", p->order_random ? "random" : "sequential");
	if (p->order_random)
		fprintf(f, " (seed %llu)", (unsigned long long)p->seed);
	/* a test's time leaves the rig's ceiling to the whole run's (plan_print) */
	fprintf(f, "\nestimated time: %s (%s per case",
		fmt_time(p->test ? pl->est_s - rig_seconds(p) : pl->est_s, tb, sizeof(tb)),
		fmt_time(pl->est_trial_s, vb, sizeof(vb)) + 6);
	if (pl->hook_runs)
		fprintf(f, ", plus %s for %zu runs of the router's hooks",
			fmt_time(pl->est_hook_s, vb, sizeof(vb)) + 6, pl->hook_runs);
	if (pl->reboots)
		fprintf(f, ", plus %s for %zu reboot%s", fmt_time(pl->est_reboot_s, vb, sizeof(vb)) + 6,
			pl->reboots, pl->reboots == 1 ? "" : "s");
	if ((p->rig_calibrate || p->rig_direct) && !p->test)
		fprintf(f, ", plus the rig's own ceiling first");
	fprintf(f, ")\n");
	print_hooks(p, pl, f);
}

void plan_print(const struct profile *p, const struct plan *pl, FILE *f)
{
	char vb[256], tb[64];
	fprintf(f, "profile %s (%s)\n", p->name, p->path);
	if (p->description && *p->description)
		fprintf(f, "  %s\n", p->description);
	if (!p->ntests) {
		print_body(p, pl, f);
	} else {
		fprintf(f, "\ntests: %zu, one after another into one results file\n", p->ntests);
		for (size_t i = 0; i < p->ntests && i < pl->ntests; i++) {
			const struct profile *tp = p->tests[i];
			fprintf(f, "\n== test %zu/%zu: %s: %s, %zu case%s\n", i + 1, p->ntests,
				tp->test, fmt_time(pl->tests[i].est_s - rig_seconds(tp), tb, sizeof(tb)),
				pl->tests[i].ncases, pl->tests[i].ncases == 1 ? "" : "s");
			if (*tp->test_description)
				fprintf(f, "  %s\n", tp->test_description);
			print_body(tp, &pl->tests[i], f);
		}
		fprintf(f, "\nall %zu tests: %zu cases, estimated time %s (the rig's own ceiling "
			"measured once, first)\n", p->ntests, pl->ncases,
			fmt_time(pl->est_s, tb, sizeof(tb)));
	}
	fprintf(f, "\nrun order:\n");
	int dw = snprintf(vb, sizeof(vb), "%zu", pl->ncases);
	for (size_t i = 0; i < pl->ncases; i++)
		fprintf(f, "  %*zu  %s  rep %u\n", dw, i + 1, pl->cases[i].case_id,
			pl->cases[i].rep);
}
