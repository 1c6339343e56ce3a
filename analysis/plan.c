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

#include "pollkern.h"
#include "results.h"

#define PLAN_MAX_CASES 100000
/* Per case: starting the tools (or reconfiguring the router) and collecting summaries. */
#define CASE_START_S 2.0
/* Before the matrix: ppslab-gen --calibrate takes a few seconds. */
#define CALIBRATE_S 5.0
/* The search range assumed when max_load is the rig's (not yet measured) ceiling. */
#define ASSUMED_MAX_PPS 1e6

/* splitmix64 turns any seed (0, 1, 2 ...) into a well-mixed, non-zero state. */
static uint64_t splitmix64(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* xorshift64* (Vigna 2014). */
static uint64_t xs64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void plan_free(struct plan *pl)
{
	if (!pl)
		return;
	for (size_t i = 0; i < pl->ncases; i++) {
		json_decref(pl->cases[i].params);
		free(pl->cases[i].case_id);
	}
	free(pl->cases);
	memset(pl, 0, sizeof(*pl));
}

/* params and case_id of cell (first axis varying slowest). */
static int make_cell(const struct profile *p, size_t cell, json_t **params, char **id)
{
	size_t idx[p->naxes ? p->naxes : 1];
	size_t rest = cell;
	for (size_t a = p->naxes; a-- > 0;) {
		size_t n = json_array_size(p->axes[a].values);
		idx[a] = rest % n;
		rest /= n;
	}
	json_t *o = json_object();
	size_t cap = 64, len = 0;
	char *s = malloc(cap);
	if (!o || !s)
		goto fail;
	s[0] = 0;
	if (p->naxes == 0)
		snprintf(s, cap, "all");
	for (size_t a = 0; a < p->naxes; a++) {
		json_t *v = json_array_get(p->axes[a].values, idx[a]);
		char vb[256];
		res_value_str(v, vb, sizeof(vb));
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

static void hook_estimate(const struct profile *p, struct plan *pl);

int plan_make(const struct profile *p, struct plan *pl)
{
	memset(pl, 0, sizeof(*pl));
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
	uint64_t rng = splitmix64(p->seed);
	if (!rng)
		rng = 1;
	for (unsigned r = 1; r <= reps; r++) {
		for (size_t i = 0; i < ncells; i++)
			order[i] = i;
		if (p->order_random) {
			/* Fisher–Yates; the modulo's bias is below 1e-14 for 100,000 cells */
			for (size_t i = ncells; i > 1; i--) {
				size_t j = (size_t)(xs64(&rng) % i), t = order[i - 1];
				order[i - 1] = order[j];
				order[j] = t;
			}
		}
		for (size_t i = 0; i < ncells; i++) {
			struct plan_case *c = &pl->cases[pl->ncases];
			c->cell = order[i];
			c->rep = r;
			if (make_cell(p, order[i], &c->params, &c->case_id)) {
				free(order);
				plan_free(pl);
				return -ENOMEM;
			}
			pl->ncases++;
		}
	}
	free(order);
	pl->est_trial_s = plan_case_seconds(p);
	pl->est_s = (double)pl->ncases * pl->est_trial_s;
	hook_estimate(p, pl);
	pl->est_s += pl->est_hook_s;
	if (p->rig_calibrate)
		pl->est_s += CALIBRATE_S;
	if (p->rig_direct)
		pl->est_s += CASE_START_S + p->trial.warmup_s + p->trial.duration_s +
			     p->trial.settle_s;
	return 0;
}

static void search_estimate(const struct prof_trial *t, double *ntrials, double *trial_s);

/* Does a hook (key: its axis) run before case i: the first case, or an axis it names
 * has another value than in case i − 1. */
static bool hook_runs(const struct profile *p, const struct plan *pl, size_t i, const char *key,
		      const json_t *hook)
{
	if (i == 0)
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

/* An external router's hooks in run order: setup once, each axis hook when its values
 * change, the check hook every case, the read hook before and after every trial. */
static void hook_estimate(const struct profile *p, struct plan *pl)
{
	pl->est_hook_s = 0;
	pl->hook_runs = 0;
	if (p->router.kind != PR_EXTERNAL)
		return;
	double ntrials, secs;
	search_estimate(&p->trial, &ntrials, &secs);
	if (p->router.setup_hook) {
		pl->est_hook_s += prof_hook_estimate(p, "setup");
		pl->hook_runs++;
	}
	for (size_t i = 0; i < pl->ncases; i++) {
		const char *k;
		json_t *h;
		json_object_foreach(p->router.hooks, k, h)
			if (hook_runs(p, pl, i, k, h)) {
				pl->est_hook_s += prof_hook_estimate(p, k);
				pl->hook_runs++;
			}
		if (p->router.check_hook) {
			pl->est_hook_s += prof_hook_estimate(p, "check");
			pl->hook_runs++;
		}
		if (p->router.read_hook) {
			pl->est_hook_s += 2 * ntrials * prof_hook_estimate(p, "read");
			pl->hook_runs += (size_t)lround(2 * ntrials);
		}
	}
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
		double per = ceil(t->duration_sum_s / t->duration_s);
		n += 2 * per;
		secs += 2 * per * t->duration_s;
		break;
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
	return CASE_START_S + p->trial.warmup_s + secs + n * p->trial.settle_s;
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

static const char *method_name(enum prof_method m)
{
	static const char *const names[] = { "fixed", "rfc2544", "mlr", "ladder" };
	return (unsigned)m < 4 ? names[m] : "?";
}

/* An external router: which hook sets each swept axis, how often it runs, and its
 * estimated time (router.hook_estimate). */
static void print_hooks(const struct profile *p, const struct plan *pl, FILE *f)
{
	char tb[64];
	if (p->router.kind != PR_EXTERNAL)
		return;
	fprintf(f, "\nrouter hooks (external router; router.hook_estimate per run):\n");
	if (p->router.setup_hook)
		fprintf(f, "  setup        once, ~%g s\n", prof_hook_estimate(p, "setup"));
	const char *k;
	json_t *h;
	json_object_foreach(p->router.hooks, k, h) {
		size_t n = 0;
		for (size_t i = 0; i < pl->ncases; i++)
			n += hook_runs(p, pl, i, k, h);
		fprintf(f, "  %-12s %zu run%s, ~%g s each\n", k, n, n == 1 ? "" : "s",
			prof_hook_estimate(p, k));
	}
	if (p->router.check_hook)
		fprintf(f, "  check        every case, ~%g s\n", prof_hook_estimate(p, "check"));
	if (p->router.read_hook)
		fprintf(f, "  read         before and after every trial, ~%g s\n",
			prof_hook_estimate(p, "read"));
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

void plan_print(const struct profile *p, const struct plan *pl, FILE *f)
{
	char vb[256], tb[64];
	const struct prof_trial *t = &p->trial;

	fprintf(f, "profile %s (%s)\n", p->name, p->path);
	if (p->description && *p->description)
		fprintf(f, "  %s\n", p->description);

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
	for (size_t i = 0; prof_axis_names[i]; i++) {
		const json_t *v = json_object_get(p->fixed, prof_axis_names[i]);
		if (k && !pollkern_has(k, prof_axis_names[i]))
			continue;
		if (v && !json_is_null(v))     /* null: the kernel's own (hz) */
			fprintf(f, " %s=%s", prof_axis_names[i], res_value_str(v, vb, sizeof(vb)));
	}
	fprintf(f, "\n\nmethod: %s, warm-up %g s, trials %g s, settle %g s", method_name(t->method),
		t->warmup_s, t->duration_s, t->settle_s);
	if (t->method == PM_RFC2544 || t->method == PM_MLR) {
		fprintf(f, ", loads %.0f..", t->min_load_pps);
		if (t->max_load_pps > 0)
			fprintf(f, "%.0f pps", t->max_load_pps);
		else
			fprintf(f, "rig ceiling");
		fprintf(f, ", width %g%%", t->width * 100);
	}
	if (t->method == PM_MLR)
		fprintf(f, ", PDR loss %g%%, initial %g s, %u phases", t->pdr_loss * 100,
			t->initial_s, t->phases);
	if (t->method == PM_LADDER)
		fprintf(f, ", %zu steps", t->ladder ? json_array_size(t->ladder) : (size_t)10);
	fprintf(f, "\n");
	unsigned reps = pl->ncells ? (unsigned)(pl->ncases / pl->ncells) : 0;
	fprintf(f, "cases: %zu cell%s x %u repetition%s = %zu case%s, order %s", pl->ncells,
		pl->ncells == 1 ? "" : "s", reps, reps == 1 ? "" : "s", pl->ncases,
		pl->ncases == 1 ? "" : "s", p->order_random ? "random" : "sequential");
	if (p->order_random)
		fprintf(f, " (seed %llu)", (unsigned long long)p->seed);
	fprintf(f, "\nestimated time: %s (%s per case", fmt_time(pl->est_s, tb, sizeof(tb)),
		fmt_time(pl->est_trial_s, vb, sizeof(vb)) + 6);
	if (pl->hook_runs)
		fprintf(f, ", plus %s for %zu runs of the router's hooks",
			fmt_time(pl->est_hook_s, vb, sizeof(vb)) + 6, pl->hook_runs);
	if (p->rig_calibrate || p->rig_direct)
		fprintf(f, ", plus the rig's own ceiling first");
	fprintf(f, ")\n");
	print_hooks(p, pl, f);
	fprintf(f, "\nrun order:\n");
	int dw = snprintf(vb, sizeof(vb), "%zu", pl->ncases);
	for (size_t i = 0; i < pl->ncases; i++)
		fprintf(f, "  %*zu  %s  rep %u\n", dw, i + 1, pl->cases[i].case_id,
			pl->cases[i].rep);
}
