/* SPDX-License-Identifier: BSD-2-Clause */
/* profile.c — reading and validating sweep profiles (see profile.h and docs/profiles.md).
 * Called by `ppslab run` (profile_load) and the unit tests (profile_parse).
 *
 * The text is parsed by jansson; --set overrides are applied to the tree
 * (profile_set.c); then one pass checks every key against the tables and fills struct
 * profile, collecting every problem (not only the first). This file holds the axes
 * (checked against lib/axes.c's registry; prof_cell resolves a cell of them), the
 * top level, matrix, params, trial, rig and output sections and the entry points; the
 * router and topology sections are in profile_router.c and profile_topo.c, the typed
 * checker in profile_check.c. Errors are placed with jpos.c's index of the raw text, or
 * as "--set N" when the value came from the command line, and sorted in file order. */
#include "profile_impl.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axes.h"
#include "cell.h"
#include "jpos.h"
#include "num.h"
#include "pkt.h"
#include "pkt6.h"
#include "pollkern.h"
#include "results.h"
#include "rulegen.h"

/* ---- axes ---------------------------------------------------------------------- */

/* The defaults as jansson values: built once (pthread_once), immutable and never freed,
 * so prof_axis_default() can hand out borrowed pointers to any thread. */
static json_t *defaults[AX_COUNT];
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void defaults_init(void)
{
	for (size_t i = 0; i < AX_COUNT; i++)
		defaults[i] = json_loads(axis_defs[i].def, JSON_DECODE_ANY, NULL);
}

/* The default of s, shared: a profile's fixed values hold references to it. */
static json_t *axis_default(const struct axis_def *s)
{
	pthread_once(&defaults_once, defaults_init);
	return defaults[s - axis_defs];
}

const json_t *prof_axis_default(const char *axis)
{
	const struct axis_def *s = axis_find(axis);
	return s ? axis_default(s) : NULL;
}

int prof_rules_path(const struct profile *p, const json_t *v, char *buf, size_t len)
{
	return prof_rules_file(p ? p->router.rules_dir : NULL, v, buf, len);
}

/* ---- sections: trial, rig and output, matrix and params, the top level ---------- */

static const char *const trial_keys[] = { "method", "warmup", "duration", "settle",
					  "min_load", "max_load", "width", "pdr_loss", "initial",
					  "phases", "duration_sum", "exceed_ratio", "max_trials",
					  "ladder", "max_delay", "max_clock_error", "late_policy",
					  "max_burst", "max_behind", "repeat_invalid", "b2b_trials",
					  "b2b_min_burst", "b2b_max_burst", "b2b_resolution",
					  "b2b_throughput", "goals", "latency_loads", "outage_load",
					  "outage_at", "outage_action", "outage_recipe",
					  "outage_gap_min", "outage_duration", NULL };
static const char *const method_names[] = { "fixed", "rfc2544", "mlr", "ladder", "b2b",
					     "outage", NULL };
static const char *const late_names[] = { "skip", "shift", "catchup", NULL };

const char *prof_method_name(enum prof_method m)
{
	return (unsigned)m <= PM_OUTAGE ? method_names[m] : "?";
}

bool prof_searches(const struct prof_trial *t)
{
	if (t->method == PM_B2B)
		return !(t->b2b_throughput_pps > 0);
	return t->method != PM_OUTAGE || t->outage_load_pct > 0;
}

static int get_ratio_at(struct vctx *c, const json_t *o, const char *path, const char *key,
			double lo, bool lo_open, double hi, bool hi_open, double def, double *out)
{
	char kp[512], gbuf[128];
	const json_t *v = o ? json_object_get(o, key) : NULL;
	*out = def;
	if (!v)
		return 0;
	jpos_path_key(kp, sizeof(kp), path, key);
	double d = json_is_number(v) ? json_number_value(v) : NAN;
	if (!isnan(d) && (lo_open ? d > lo : d >= lo) && (hi_open ? d < hi : d <= hi)) {
		*out = d;
		return 0;
	}
	prof_verr(c, kp, false, "expected a number in %c%g, %g%c, got %s", lo_open ? '(' : '[', lo, hi,
	     hi_open ? ')' : ']', GOT(v));
	return -EINVAL;
}

static int get_ratio(struct vctx *c, const json_t *o, const char *key, double lo, bool lo_open,
		     double hi, bool hi_open, double def, double *out)
{
	return get_ratio_at(c, o, "trial", key, lo, lo_open, hi, hi_open, def, out);
}

/* ---- trial.goals (docs/profiles.md#search-goals) ---- */

static const char *const goal_keys[] = { "name", "loss_ratio", "exceed_ratio", "final",
					 "duration_sum", "width", "latency", NULL };
static const char *const goal_presets[] = { "csit", "rfc2544", "tst009", NULL };
/* metrics of a case that a goal's NAME_pps must not take */
static const char *const goal_reserved[] = { "mrr", "mfr", "fr", "fwd", "offered", NULL };

static void preset_goals(struct prof_trial *t, int which)
{
	struct prof_goal *g = t->goals;
	t->goal_preset = goal_presets[which];
	switch (which) {
	case 0: /* CSIT: NDR and PDR 0.5 %, 1-s final trials, 21 s to decide, exceed 50 % */
		t->ngoals = 2;
		g[0] = (struct prof_goal){ .name = "NDR", .loss_ratio = 0, .exceed_ratio = 0.5,
					   .final_s = 1, .duration_sum_s = 21, .width = 0.005 };
		g[1] = g[0];
		snprintf(g[1].name, sizeof(g[1].name), "PDR");
		g[1].loss_ratio = 0.005;
		break;
	case 1: /* RFC 2544 §26.1 through RFC 9971: zero loss in one 60-s trial */
		t->ngoals = 1;
		g[0] = (struct prof_goal){ .name = "NDR", .loss_ratio = 0, .exceed_ratio = 0,
					   .final_s = 60, .duration_sum_s = 60, .width = t->width };
		break;
	default: /* ETSI GS NFV-TST 009 binary search with loss verification, as RFC 9971
		  * reads it (docs/profiles.md#search-goals says what is not confirmed) */
		t->ngoals = 1;
		g[0] = (struct prof_goal){ .name = "NDR", .loss_ratio = 0, .exceed_ratio = 0.5,
					   .final_s = 60, .duration_sum_s = 120, .width = t->width };
		break;
	}
}

static int goal_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (len == 0 || len >= sizeof(((struct prof_goal *)0)->name) || !isalpha((unsigned char)n[0]))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)n[i]) && n[i] != '_')
			return 0;
	return 1;
}

static void parse_goal(struct vctx *c, json_t *o, const char *path, struct prof_trial *t,
		       struct prof_goal *g)
{
	char kp[512], gbuf[128];
	if (prof_want_object(c, o, path))
		return;
	prof_check_keys(c, o, path, goal_keys);
	const json_t *n = json_object_get(o, "name");
	if (!n)
		prof_verr(c, path, false, "a goal needs a \"name\"");
	else if (!json_is_string(n) || !goal_name_ok(json_string_value(n)))
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "name"), false,
			  "expected a name of 1 to 15 letters, digits or '_', starting with a "
			  "letter, got %s", GOT(n));
	else {
		const char *s = json_string_value(n);
		snprintf(g->name, sizeof(g->name), "%s", s);
		for (size_t i = 0; goal_reserved[i]; i++)
			if (!strcasecmp(s, goal_reserved[i]))
				prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "name"), false,
					  "\"%s\" is taken: the case's %s_pps is another metric", s,
					  goal_reserved[i]);
	}
	get_ratio_at(c, o, path, "loss_ratio", 0, false, 1, true, 0, &g->loss_ratio);
	get_ratio_at(c, o, path, "exceed_ratio", 0, false, 1, true, t->exceed_ratio,
		     &g->exceed_ratio);
	get_ratio_at(c, o, path, "width", 0, true, 1, true, t->width, &g->width);
	prof_get_dur(c, o, "final", path, t->duration_s, &g->final_s);
	if (g->final_s < PROF_TRIAL_MIN_S)
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "final"), false,
			  "a trial must last at least %g s, got %g s", PROF_TRIAL_MIN_S, g->final_s);
	prof_get_dur(c, o, "duration_sum", path, fmax(g->final_s, t->duration_sum_s),
		     &g->duration_sum_s);
	if (g->duration_sum_s < g->final_s)
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "duration_sum"), false,
			  "must be at least the goal's final (%g s), got %g s", g->final_s,
			  g->duration_sum_s);
	double lat_s = 0;
	const json_t *l = json_object_get(o, "latency");
	if (!prof_get_dur(c, o, "latency", path, 0, &lat_s) && l) {
		if (lat_s < 1e-6 || lat_s > 10)
			prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "latency"), false,
				  "expected a latency bound of 1 us to 10 s, got %s", GOT(l));
		g->latency_ns = round(lat_s * 1e9);
	}
}

/* trial.goals: a preset's name or a list of goals; after the trial's other keys, whose
 * values are the goals' defaults. */
static void parse_goals(struct vctx *c, json_t *o, struct prof_trial *t, bool initial_given)
{
	char ip[64], gbuf[128], names[128];
	json_t *v = o ? json_object_get(o, "goals") : NULL;
	if (!v)
		return;
	if (t->method != PM_MLR) {
		prof_verr(c, "trial.goals", true, "goals are searched by trial.method \"mlr\" only, "
			  "not \"%s\"", prof_method_name(t->method));
		return;
	}
	if (json_object_get(o, "pdr_loss"))
		prof_verr(c, "trial.pdr_loss", true,
			  "with trial.goals, give each goal its own loss_ratio");
	if (json_is_string(v)) {
		for (int i = 0; goal_presets[i]; i++)
			if (!strcmp(json_string_value(v), goal_presets[i])) {
				preset_goals(t, i);
				goto longest;
			}
		prof_names_list(goal_presets, names, sizeof(names));
		prof_verr(c, "trial.goals", false, "expected a preset (%s) or a list of goals, got %s",
			  names, GOT(v));
		return;
	}
	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > PROF_MAX_GOALS) {
		prof_verr(c, "trial.goals", false, "expected a preset or a list of 1 to %d goals, got %s",
			  PROF_MAX_GOALS, GOT(v));
		return;
	}
	size_t i;
	json_t *go;
	json_array_foreach(v, i, go) {
		jpos_path_idx(ip, sizeof(ip), "trial.goals", i);
		parse_goal(c, go, ip, t, &t->goals[i]);
		for (size_t j = 0; j < i && t->goals[i].name[0]; j++)
			if (!strcasecmp(t->goals[j].name, t->goals[i].name)) {
				char kp[512];
				prof_verr(c, jpos_path_key(kp, sizeof(kp), ip, "name"), false,
					  "two goals are named %s (names differ in more than case: "
					  "each is a metric)", t->goals[i].name);
			}
	}
	t->ngoals = i;
longest:
	/* the search's longest trials are the longest goal's final ones */
	t->duration_s = 0;
	for (i = 0; i < t->ngoals; i++)
		t->duration_s = fmax(t->duration_s, t->goals[i].final_s);
	if (!initial_given && t->initial_s > t->duration_s)
		t->initial_s = t->duration_s;
	else if (t->initial_s > t->duration_s && t->duration_s > 0)
		prof_verr(c, "trial.initial", false,
			  "the first phase's trials (%g s) must not be longer than the longest "
			  "goal's final trials (%g s)", t->initial_s, t->duration_s);
}

/* trial.latency_loads: percentages of the NDR, 0..100 each, distinct, at most
 * PROF_LATENCY_LOADS_MAX; only after a search that finds an NDR (rfc2544, mlr). */
static void parse_latency_loads(struct vctx *c, const json_t *o, struct prof_trial *t)
{
	const json_t *l = o ? json_object_get(o, "latency_loads") : NULL;
	char gbuf[128], ip[64];
	if (!l)
		return;
	if (!json_is_array(l) || json_array_size(l) == 0 ||
	    json_array_size(l) > PROF_LATENCY_LOADS_MAX) {
		prof_verr(c, "trial.latency_loads", false, "expected a list of 1 to %d percentages "
			  "of the NDR (0..100), got %s", PROF_LATENCY_LOADS_MAX, GOT(l));
		return;
	}
	if (t->method != PM_RFC2544 && t->method != PM_MLR)
		prof_verr(c, "trial.latency_loads", true, "needs a search that finds an NDR: "
			  "trial.method \"rfc2544\" or \"mlr\", got \"%s\"",
			  prof_method_name(t->method));
	bool ndr = !t->ngoals;          /* the default goals start with the NDR */
	for (size_t g = 0; g < t->ngoals; g++)
		ndr |= t->goals[g].loss_ratio == 0 && !(t->goals[g].latency_ns > 0);
	if (!ndr)
		prof_verr(c, "trial.latency_loads", true, "needs an NDR: a goal of trial.goals "
			  "with loss_ratio 0 and no latency bound, whose rate the loads are "
			  "percentages of");
	size_t i;
	const json_t *w;
	json_array_foreach(l, i, w) {
		double d = json_is_number(w) ? json_number_value(w) : NAN;
		jpos_path_idx(ip, sizeof(ip), "trial.latency_loads", i);
		if (isnan(d) || d < 0 || d > 100) {
			prof_verr(c, ip, false, "expected a percentage of the NDR in [0, 100], got %s",
				  GOT(w));
			continue;
		}
		bool dup = false;
		for (size_t k = 0; k < t->nlatency_loads; k++)
			dup |= t->latency_loads[k] == d;
		if (dup) {
			prof_verr(c, ip, false, "%g %% is listed twice", d);
			continue;
		}
		t->latency_loads[t->nlatency_loads++] = d;
	}
}

static const char *const recipe_names[] = { "timeline", "reset", "recovery", NULL };

const char *prof_recipe_name(enum prof_outage_recipe r)
{
	return (unsigned)r <= PO_RECOVERY ? recipe_names[r] : "?";
}

/* trial.outage_*: the load (a rate, or "N%" of the NDR), the action's instant within
 * the trial, the action ({"ctl": [...]} for ppslab-rut, {"hook": [...]} for any
 * router; a reset without one takes router.reboot_hook), the sinks' --gap-min */
static void parse_outage(struct vctx *c, json_t *o, struct profile *p)
{
	struct prof_trial *t = &p->trial;
	char gbuf[128];
	int e;
	const json_t *v;
	static const char *const outage_keys[] = { "outage_load", "outage_at", "outage_action",
						   "outage_recipe", "outage_gap_min",
						   "outage_duration", NULL };
	if (t->method != PM_OUTAGE) {
		for (int i = 0; o && outage_keys[i]; i++)
			if (json_object_get(o, outage_keys[i])) {
				char kp[64];
				snprintf(kp, sizeof(kp), "trial.%s", outage_keys[i]);
				prof_verr(c, kp, true, "applies to method \"outage\" only (this "
					  "profile's method is \"%s\")", prof_method_name(t->method));
			}
		return;
	}
	if (t->nlatency_loads)
		prof_verr(c, "trial.latency_loads", true, "does not apply to method \"outage\" (no "
			  "search to take the loads from)");
	if (!prof_get_enum(c, o, "outage_recipe", "trial", recipe_names, PO_TIMELINE, &e))
		t->outage_recipe = (enum prof_outage_recipe)e;
	v = o ? json_object_get(o, "outage_load") : NULL;
	double pct;
	if (!v)
		prof_verr(c, "trial", false, "method \"outage\" needs trial.outage_load: a rate "
			  "(\"10k\") or a percentage of the NDR (\"90%%\")");
	else if (json_is_string(v) && strchr(json_string_value(v), '%')) {
		if (num_percent(json_string_value(v), &pct))
			prof_verr(c, "trial.outage_load", false, "expected a percentage of the NDR "
				  "above 0 and at most 100 %%, got %s", GOT(v));
		else
			t->outage_load_pct = pct;
	} else {
		prof_as_rate(c, v, "trial.outage_load", false, &t->outage_load_pps);
	}
	prof_get_dur(c, o, "outage_at", "trial", 1, &t->outage_at_s);
	/* the outage trial's own length: a search before it keeps trial.duration (RFC
	 * 2544's 60 s), where a reset's trial runs for minutes */
	bool own = o && json_object_get(o, "outage_duration");
	prof_get_dur(c, o, "outage_duration", "trial", t->duration_s, &t->outage_duration_s);
	if (own && t->outage_duration_s < PROF_TRIAL_MIN_S)
		prof_verr(c, "trial.outage_duration", false, "a trial must last at least %g s, "
			  "got %g s", PROF_TRIAL_MIN_S, t->outage_duration_s);
	else if (t->outage_duration_s > 0 && t->outage_at_s >= t->outage_duration_s)
		prof_verr(c, o && json_object_get(o, "outage_at") ? "trial.outage_at"
			  : own ? "trial.outage_duration" : "trial.duration",
			  false, "the action must come within the trial: outage_at (%g s) must be "
			  "below trial.%s (%g s)", t->outage_at_s,
			  own ? "outage_duration" : "duration", t->outage_duration_s);
	t->outage_gap_min_s = -1;
	if (o && json_object_get(o, "outage_gap_min"))
		prof_get_dur(c, o, "outage_gap_min", "trial", 0, &t->outage_gap_min_s);
	json_t *act = o ? json_object_get(o, "outage_action") : NULL;
	if (t->outage_recipe == PO_RECOVERY) {   /* its event is the load's drop */
		if (act)
			prof_verr(c, "trial.outage_action", true, "does not apply to outage_recipe "
				  "\"recovery\" (its event is the load's drop from 110 %% of "
				  "outage_load to half that, outage_at seconds after the warm-up)");
		return;
	}
	if (!act) {
		if (t->outage_recipe != PO_RESET || !p->router.reboot_hook)
			prof_verr(c, "trial", false, "method \"outage\" needs trial.outage_action: "
				  "{\"ctl\": [words]} (ppslab-rut) or {\"hook\": [argv]}%s",
				  t->outage_recipe == PO_RESET ? ", or router.reboot_hook" : "");
		else
			t->outage_hook = p->router.reboot_hook;
		return;
	}
	if (prof_want_object(c, act, "trial.outage_action"))
		return;
	const json_t *ctl = json_object_get(act, "ctl"), *hook = json_object_get(act, "hook");
	const json_t *rules = json_object_get(act, "rules");
	prof_check_keys(c, act, "trial.outage_action",
			(const char *const[]){ "ctl", "hook", "rules", "per_rule", NULL });
	int kinds = !!ctl + !!hook + !!rules;
	if (kinds != 1) {
		prof_verr(c, "trial.outage_action", false, "expected one of \"ctl\", \"hook\" and "
			  "\"rules\", got %s", kinds ? "several" : "none");
		return;
	}
	if (p->router.kind == PR_NONE)
		prof_verr(c, "trial.outage_action", true, "needs a router to act on (router.kind "
			  "is \"none\")");
	else if ((ctl || rules) && p->router.kind != PR_RUT)
		prof_verr(c, ctl ? "trial.outage_action.ctl" : "trial.outage_action.rules", true,
			  "is for router.kind \"rut\" (ppslab-rut); give an external router a "
			  "\"hook\"");
	long long n;
	if (!rules && json_object_get(act, "per_rule"))
		prof_verr(c, "trial.outage_action.per_rule", true, "goes with \"rules\" only");
	if (ctl) {
		prof_check_argv(c, ctl, "trial.outage_action.ctl", PH_NONE);
		t->outage_ctl = ctl;
	} else if (rules) {
		if (!prof_get_int(c, act, "rules", "trial.outage_action", 1, RULEGEN_MAX, 1, &n))
			t->outage_rules = (unsigned)n;
		prof_get_bool(c, act, "per_rule", "trial.outage_action", false,
			      &t->outage_per_rule);
	} else {
		prof_check_argv(c, hook, "trial.outage_action.hook", PH_AXES);
		t->outage_hook = hook;
	}
}

static void parse_trial(struct vctx *c, json_t *root, struct profile *p)
{
	struct prof_trial *t = &p->trial;
	json_t *o = json_object_get(root, "trial");
	int e;
	long long n;
	char gbuf[128];

	if (prof_want_object(c, o, "trial"))
		o = NULL;
	if (o)
		prof_check_keys(c, o, "trial", trial_keys);
	if (!prof_get_enum(c, o, "method", "trial", method_names, PM_FIXED, &e))
		t->method = (enum prof_method)e;
	prof_get_dur(c, o, "warmup", "trial", 1, &t->warmup_s);
	prof_get_dur(c, o, "duration", "trial", 2, &t->duration_s);
	prof_get_dur(c, o, "settle", "trial", 0.5, &t->settle_s);
	/* mlr's first phase: 1 s, or the whole trial when trials are shorter than that */
	prof_get_dur(c, o, "initial", "trial", t->duration_s > 0 && t->duration_s < 1 ? t->duration_s : 1,
		     &t->initial_s);
	prof_get_dur(c, o, "duration_sum", "trial", t->duration_s, &t->duration_sum_s);
	/* a shorter trial is a handful of frames at most rates, and below the tools' own
	 * start-up and interval granularity: its loss would be noise */
	if (t->duration_s < PROF_TRIAL_MIN_S)
		prof_verr(c, "trial.duration", false, "a trial must last at least %g s, got %g s",
			  PROF_TRIAL_MIN_S, t->duration_s);
	if (t->initial_s < PROF_TRIAL_MIN_S && o && json_object_get(o, "initial"))
		prof_verr(c, "trial.initial", false, "a trial must last at least %g s, got %g s",
			  PROF_TRIAL_MIN_S, t->initial_s);
	else if (t->initial_s > t->duration_s && t->duration_s > 0)
		prof_verr(c, "trial.initial", false,
			  "the first phase's trials (%g s) must not be longer than trial.duration (%g s)",
			  t->initial_s, t->duration_s);
	if (t->duration_sum_s < t->duration_s)
		prof_verr(c, "trial.duration_sum", false, "must be at least trial.duration (%g s), got %g s",
			  t->duration_s, t->duration_sum_s);

	t->min_load_pps = 1000;
	const json_t *v;
	if (o && (v = json_object_get(o, "min_load")))
		prof_as_rate(c, v, "trial.min_load", false, &t->min_load_pps);
	if (o && (v = json_object_get(o, "max_load"))) {
		if (json_is_number(v) && json_number_value(v) == 0)
			t->max_load_pps = 0;
		else
			prof_as_rate(c, v, "trial.max_load", true, &t->max_load_pps);
	}
	if (t->max_load_pps > 0 && t->min_load_pps >= t->max_load_pps)
		prof_verr(c, "trial.min_load", false, "min_load (%.0f pps) must be below max_load (%.0f pps)",
			  t->min_load_pps, t->max_load_pps);
	get_ratio(c, o, "width", 0, true, 1, true, 0.005, &t->width);
	get_ratio(c, o, "pdr_loss", 0, false, 1, true, 0.005, &t->pdr_loss);
	get_ratio(c, o, "exceed_ratio", 0, false, 1, true, 0, &t->exceed_ratio);
	get_ratio(c, o, "max_clock_error", 0, true, 1, false, 0.1, &t->max_clock_error);
	prof_get_dur(c, o, "max_delay", "trial", 10, &t->max_delay_s);
	if (t->max_delay_s < 1e-6)
		prof_verr(c, "trial.max_delay", false, "must be at least 1 us, got %g s", t->max_delay_s);
	if (!prof_get_int(c, o, "phases", "trial", 0, 10, 2, &n))
		t->phases = (unsigned)n;
	if (!prof_get_int(c, o, "max_trials", "trial", 1, 10000, 40, &n))
		t->max_trials = (unsigned)n;
	/* absent: by method (trial.c) */
	if (o && json_object_get(o, "late_policy") &&
	    !prof_get_enum(c, o, "late_policy", "trial", late_names, 0, &e))
		t->late_policy = late_names[e];
	if (!prof_get_int(c, o, "max_burst", "trial", 1, 1000000, 64, &n))
		t->max_burst = (unsigned)n;
	get_ratio(c, o, "max_behind", 0, true, 1, false, 0.01, &t->max_behind);
	if (!prof_get_int(c, o, "repeat_invalid", "trial", 0, 100, 3, &n))
		t->repeat_invalid = (unsigned)n;
	if (!prof_get_int(c, o, "b2b_trials", "trial", 1, 1000, 50, &n))
		t->b2b_trials = (unsigned)n;
	if (!prof_get_int(c, o, "b2b_min_burst", "trial", 1, 1LL << 40, 1, &n))
		t->b2b_min_burst = (unsigned long long)n;
	if (!prof_get_int(c, o, "b2b_max_burst", "trial", 2, 1LL << 40, 1000000, &n))
		t->b2b_max_burst = (unsigned long long)n;
	if (!prof_get_int(c, o, "b2b_resolution", "trial", 1, 1LL << 40, 1, &n))
		t->b2b_resolution = (unsigned long long)n;
	if (t->b2b_max_burst <= t->b2b_min_burst)
		prof_verr(c, o && json_object_get(o, "b2b_max_burst") ? "trial.b2b_max_burst"
			  : "trial.b2b_min_burst", false, "b2b_max_burst must be longer than b2b_min_burst "
			  "(%llu frames), got %llu", t->b2b_min_burst, t->b2b_max_burst);
	if (o && (v = json_object_get(o, "b2b_throughput")))
		prof_as_rate(c, v, "trial.b2b_throughput", false, &t->b2b_throughput_pps);
	if (t->b2b_throughput_pps > 0 && t->max_load_pps > 0 &&
	    t->b2b_throughput_pps > t->max_load_pps)
		prof_verr(c, "trial.b2b_throughput", false, "the throughput (%.0f pps) cannot exceed "
			  "max_load, the theoretical frame rate (%.0f pps)", t->b2b_throughput_pps,
			  t->max_load_pps);
	parse_goals(c, o, t, o && json_object_get(o, "initial"));

	parse_latency_loads(c, o, t);
	parse_outage(c, o, p);
	json_t *l = o ? json_object_get(o, "ladder") : NULL;
	if (l) {
		if (!json_is_array(l) || json_array_size(l) == 0) {
			prof_verr(c, "trial.ladder", false, "expected a non-empty list of rates, got %s",
				  GOT(l));
			return;
		}
		json_t *loads = json_array();
		size_t i;
		json_t *w;
		char ip[64];
		if (!loads) {
			c->oom = 1;
			return;
		}
		json_array_foreach(l, i, w) {
			double r;
			if (!prof_as_rate(c, w, jpos_path_idx(ip, sizeof(ip), "trial.ladder", i), false,
					  &r))
				json_array_append_new(loads, json_real(r));
		}
		t->ladder = loads;
	}
}

static const char *const rig_keys[] = { "calibrate", "direct", NULL };
static const char *const output_keys[] = { "results", "table", "plot", NULL };

static void parse_rig_output(struct vctx *c, json_t *root, struct profile *p)
{
	json_t *o = json_object_get(root, "rig");
	const char *s;
	if (prof_want_object(c, o, "rig"))
		o = NULL;
	if (o)
		prof_check_keys(c, o, "rig", rig_keys);
	prof_get_bool(c, o, "calibrate", "rig", true, &p->rig_calibrate);
	prof_get_bool(c, o, "direct", "rig", true, &p->rig_direct);

	o = json_object_get(root, "output");
	if (prof_want_object(c, o, "output"))
		o = NULL;
	if (o) {
		prof_check_keys(c, o, "output", output_keys);
		prof_want_object(c, json_object_get(o, "table"), "output.table");
		prof_want_object(c, json_object_get(o, "plot"), "output.plot");
	}
	p->output = o;
	prof_get_str(c, o, "results", "output", &s);
	p->results = prof_xstrdup(c, s ? s : "results.json");
}

/* matrix and params: swept axes in matrix order, every other axis fixed. */
static void parse_axes(struct vctx *c, json_t *root, struct profile *p)
{
	json_t *m = json_object_get(root, "matrix");
	json_t *pa = json_object_get(root, "params");
	const char *k;
	json_t *v;
	char kp[512], ip[540], gbuf[128], list[512];
	const char *names[AX_COUNT + 1];

	prof_names_list(axis_name_list(names), list, sizeof(list));
	if (prof_want_object(c, m, "matrix"))
		m = NULL;
	if (prof_want_object(c, pa, "params"))
		pa = NULL;
	if (!(p->fixed = json_object())) {
		c->oom = 1;
		return;
	}
	size_t nr = p->router.naxes;
	p->axes = calloc((m ? json_object_size(m) : 0) + nr + 1, sizeof(*p->axes));
	if (!p->axes) {
		c->oom = 1;
		return;
	}
	/* the router's own knobs first: they vary slowest in matrix order */
	for (size_t i = 0; i < nr; i++) {
		struct prof_axis *a = &p->axes[p->naxes++];
		a->name = prof_xstrdup(c, p->router.axes[i].name);
		a->values = json_incref(p->router.axes[i].values);
		a->router = &p->router.axes[i];
	}
	json_object_foreach(m, k, v) {
		const struct axis_def *s = axis_find(k);
		jpos_path_key(kp, sizeof(kp), "matrix", k);
		if (!s && prof_router_axis_name(c, k)) {
			prof_verr(c, kp, true, "%s is a router axis: its values are router.axes[].values", k);
			continue;
		}
		if (!s) {
			prof_verr(c, kp, true, "unknown axis \"%s\"; axes: %s", k, list);
			continue;
		}
		if (pa && json_object_get(pa, k))
			prof_verr(c, kp, true, "axis %s is both swept (matrix) and fixed (params)", k);
		if (!json_is_array(v) || json_array_size(v) == 0) {
			prof_verr(c, kp, false, "expected a non-empty list of %s values, got %s", k,
				  GOT(v));
			continue;
		}
		json_t *vals = json_array();
		if (!vals) {
			c->oom = 1;
			return;
		}
		size_t i;
		json_t *w;
		bool bad = false;
		json_array_foreach(v, i, w) {
			json_t *norm;
			jpos_path_idx(ip, sizeof(ip), kp, i);
			if (prof_check_axis(c, s, w, ip, p->router.rules_dir, &norm)) {
				bad = true;
				continue;
			}
			for (size_t j = 0; j < json_array_size(vals); j++)
				if (prof_same_value(s, json_array_get(vals, j), norm)) {
					prof_verr(c, ip, false, "%s appears twice in the list",
						  GOT(w));
					bad = true;
				}
			json_array_append_new(vals, norm);
		}
		if (bad) {
			json_decref(vals);
			continue;
		}
		p->axes[p->naxes].name = prof_xstrdup(c, k);
		p->axes[p->naxes++].values = vals;
	}
	json_object_foreach(pa, k, v) {
		const struct axis_def *s = axis_find(k);
		json_t *norm;
		jpos_path_key(kp, sizeof(kp), "params", k);
		if (!s && prof_router_axis_name(c, k)) {
			prof_verr(c, kp, true, "%s is a router axis: give it one value in router.axes[].values", k);
			continue;
		}
		if (!s) {
			prof_verr(c, kp, true, "unknown axis \"%s\"; axes: %s", k, list);
			continue;
		}
		if (!prof_check_axis(c, s, v, kp, p->router.rules_dir, &norm))
			json_object_set_new(p->fixed, k, norm);
	}
	for (size_t i = 0; i < AX_COUNT; i++) {
		const char *name = axis_defs[i].name;
		if ((m && json_object_get(m, name)) || json_object_get(p->fixed, name))
			continue;
		json_object_set(p->fixed, name, axis_default(&axis_defs[i]));
	}
}

/* What the profile sets must exist on every kernel it runs ppslab-rut with
 * (docs/design/polling.md#kernel-personalities): pollhz on DragonFly only (FreeBSD
 * polls at kern.hz), idle_poll on FreeBSD only, burst_max above 1000 on freebsd-14
 * only. An axis left at its default is not sent to a kernel that lacks it. */
static void check_kernel_axes(struct vctx *c, json_t *root, const struct profile *p)
{
	json_t *m = json_object_get(root, "matrix"), *pa = json_object_get(root, "params");
	const json_t *kv = NULL, *kfix = json_object_get(p->fixed, "kernel");
	char kp[512], ip[540];
	if (p->router.kind != PR_RUT)
		return;
	m = json_is_object(m) ? m : NULL;
	pa = json_is_object(pa) ? pa : NULL;
	for (size_t a = 0; a < p->naxes; a++)
		if (!strcmp(p->axes[a].name, "kernel"))
			kv = p->axes[a].values;
	size_t nk = kv ? json_array_size(kv) : 1;
	for (size_t i = 0; i < nk; i++) {
		const json_t *kj = kv ? json_array_get(kv, i) : kfix;
		const struct pollkern *k = pollkern_find(json_string_value(kj));
		if (!k)
			continue;
		static const char *const only[] = { "pollhz", "idle_poll" };
		for (int j = 0; j < 2; j++) {
			const char *where = m && json_object_get(m, only[j]) ? "matrix"
					    : pa && json_object_get(pa, only[j]) ? "params" : NULL;
			if (!where || pollkern_has(k, only[j]))
				continue;
			jpos_path_key(kp, sizeof(kp), where, only[j]);
			prof_verr(c, kp, true, "kernel %s has no kern.polling.%s%s", k->name, only[j],
				  j == 0 ? ": it polls at kern.hz (the hz axis)"
				    : ": DragonFly polls only on clock ticks");
		}
		json_t *bm = m ? json_object_get(m, "burst_max") : NULL;
		const json_t *bv = pa ? json_object_get(pa, "burst_max") : NULL;
		for (size_t j = 0; j < (json_is_array(bm) ? json_array_size(bm) : 1); j++) {
			const json_t *v = json_is_array(bm) ? json_array_get(bm, j) : bv;
			double d = json_is_number(v) ? json_number_value(v) : 0;
			if (d <= k->burst_max_max)
				continue;
			if (json_is_array(bm)) {
				jpos_path_key(kp, sizeof(kp), "matrix", "burst_max");
				jpos_path_idx(ip, sizeof(ip), kp, j);
			} else {
				jpos_path_key(ip, sizeof(ip), "params", "burst_max");
			}
			prof_verr(c, ip, false, "kernel %s takes burst_max up to %u, got %.0f", k->name,
				  k->burst_max_max, d);
		}
	}
}

const json_t *prof_axis_values(const struct profile *p, const char *name, bool *swept)
{
	for (size_t a = 0; a < p->naxes; a++)
		if (!p->axes[a].router && !strcmp(p->axes[a].name, name)) {
			*swept = true;
			return p->axes[a].values;
		}
	*swept = false;
	return json_object_get(p->fixed, name);
}

/* Where value i of an axis was written: matrix.AXIS[i], params.AXIS, or NULL (its
 * default). */
static const char *axis_where(json_t *root, const char *name, bool swept, size_t i,
			      char *buf, size_t len)
{
	char kp[512];
	json_t *pa = json_object_get(root, "params");
	if (swept) {
		jpos_path_key(kp, sizeof(kp), "matrix", name);
		jpos_path_idx(buf, len, kp, i);
		return buf;
	}
	if (!json_is_object(pa) || !json_object_get(pa, name))
		return NULL;
	jpos_path_key(buf, len, "params", name);
	return buf;
}

/* Where ip_version 6 was first written (into buf), NULL if it was not. */
static const char *ip6_where(json_t *root, const struct profile *p, char *buf, size_t len)
{
	bool sw;
	const json_t *iv = prof_axis_values(p, "ip_version", &sw);
	for (size_t i = 0; i < (sw ? json_array_size(iv) : 1); i++) {
		const json_t *v = sw ? json_array_get(iv, i) : iv;
		if (json_is_integer(v) && json_integer_value(v) == 6)
			return axis_where(root, "ip_version", sw, i, buf, len);
	}
	return NULL;
}

/* The sizes from floor up to below need, too small for what the profile sends (a
 * smaller one is another check's), refused where the size was written ("the smallest
 * <frame>"), or, a size left at its default, at cause_at, where what makes them too
 * small was written ("<cause>, but size is its default"). */
static void refuse_sizes(struct vctx *c, json_t *root, const struct profile *p,
			 long long floor, int need, const char *frame, const char *cause_at,
			 const char *cause)
{
	bool sw;
	const json_t *sv = prof_axis_values(p, "size", &sw);
	char spath[560];
	for (size_t i = 0; i < (sw ? json_array_size(sv) : 1); i++) {
		const json_t *v = sw ? json_array_get(sv, i) : sv;
		if (!json_is_integer(v) || json_integer_value(v) >= need ||
		    json_integer_value(v) < floor)
			continue;
		const char *at = axis_where(root, "size", sw, i, spath, sizeof(spath));
		if (at)
			prof_verr(c, at, false, "size %lld is below %d, the smallest %s: give sizes "
				  "of %d or more", (long long)json_integer_value(v), need, frame, need);
		else
			prof_verr(c, cause_at, false, "%s, but size is its default, %lld: give "
				  "params.size %d or more", cause, (long long)json_integer_value(v),
				  need);
	}
}

/* An IPv6 test frame is PKT6_WIRE_MIN (84) bytes at least, which ppslab-gen -6 holds
 * to: a size below it meeting ip_version 6 is refused where the size was written, or,
 * a size left at its default, where the 6 was (imix's smallest IPv6 frame is 84). */
static void check_ip6_sizes(struct vctx *c, json_t *root, const struct profile *p)
{
	char ipath[560], frame[768], cause[256];
	const char *iw = ip6_where(root, p, ipath, sizeof(ipath));
	if (!iw)
		return;
	snprintf(frame, sizeof(frame), "IPv6 test frame (Ethernet, IPv6 and UDP headers, the "
		 "signature, the FCS), and the profile sends IPv6 (ip_version 6 at %s)", iw);
	snprintf(cause, sizeof(cause), "ip_version 6 sends IPv6 test frames, %d bytes at least "
		 "(Ethernet, IPv6 and UDP headers, the signature, the FCS)", PKT6_WIRE_MIN);
	refuse_sizes(c, root, p, LLONG_MIN, PKT6_WIRE_MIN, frame, iw, cause);
}

/* The tags of a vlan value: 0 ("none"), 1 (a VID) or 2 ("OUTER.INNER"). */
static int vlan_tags(const json_t *v)
{
	return json_is_integer(v) ? 1 : json_is_string(v) && strchr(json_string_value(v), '.') ? 2
									  : 0;
}

/* A tagged cell: its frames carry 4 bytes a tag more than the smallest test frame (68,
 * 72 with QinQ; IPv6 88, 92), which ppslab-gen --vlan holds to; and only ppslab-rut puts
 * its ports on trunks: another router takes the tag by its hook keyed vlan (an external
 * one) or not at all. Refused where the vlan (or the size) was written. */
static void check_vlan(struct vctx *c, json_t *root, const struct profile *p)
{
	bool sw_v;
	const json_t *vv = prof_axis_values(p, "vlan", &sw_v);
	char vpath[560], ipath[560], vb[64], frame[1024], cause[256];
	const char *vw = NULL;
	int tags = 0;
	for (size_t i = 0; i < (sw_v ? json_array_size(vv) : 1); i++) {
		const json_t *v = sw_v ? json_array_get(vv, i) : vv;
		if (vlan_tags(v) > tags) {
			tags = vlan_tags(v);
			vw = axis_where(root, "vlan", sw_v, i, vpath, sizeof(vpath));
			res_value_str(v, vb, sizeof(vb));
		}
	}
	if (!tags || !vw)
		return;
	if (p->router.kind == PR_NONE) {
		prof_verr(c, vw, false, "vlan %s tags the test frames, but router.kind \"none\" has "
			  "no router to take them off and on: give router.kind \"rut\" (ppslab-rut on "
			  "trunks) or \"external\" with router.hooks.vlan, or vlan \"none\"", vb);
		return;
	}
	/* a swept vlan nothing sets is prof_check_coverage's to say */
	if (p->router.kind == PR_EXTERNAL && !json_object_get(p->router.hooks, "vlan") &&
	    (!sw_v || prof_axis_hooked(p, "vlan"))) {
		prof_verr(c, vw, false, "vlan %s tags the test frames, but nothing puts the external "
			  "router's ports on that VLAN: add router.hooks.vlan (an argument vector that "
			  "does, {vlan} its value: a VID, or OUTER.INNER), or vlan \"none\"", vb);
		return;
	}
	bool six = ip6_where(root, p, ipath, sizeof(ipath)) != NULL;
	int base = six ? PKT6_WIRE_MIN : PKT_WIRE_MIN, need = base + tags * PKT_VLAN_TAG_LEN;
	const char *what = tags == 2 ? "two VLAN tags (QinQ)" : "a VLAN tag";
	snprintf(frame, sizeof(frame), "%s test frame with %s (%d bytes and %d a tag), and the "
		 "profile tags its frames (vlan %s at %s)", six ? "IPv6" : "IPv4", what, base,
		 PKT_VLAN_TAG_LEN, vb, vw);
	snprintf(cause, sizeof(cause), "vlan %s puts %s on the test frames, %d bytes at least "
		 "(%d and %d a tag)", vb, what, need, base, PKT_VLAN_TAG_LEN);
	/* below the untagged smallest: check_ip6_sizes (or the range) says so */
	refuse_sizes(c, root, p, base, need, frame, vw, cause);
}

static const char *const top_keys[] = { "description", "matrix", "params", "repetitions",
					"order", "seed", "trial", "router", "topology", "rig",
					"output", "allow_any_dst", "tests", NULL };
static const char *const order_names[] = { "sequential", "random", NULL };

static void validate(struct vctx *c, json_t *root, struct profile *p)
{
	long long n;
	int e;
	char gbuf[128];

	prof_check_keys(c, root, "", top_keys);
	json_t *d = json_object_get(root, "description");
	if (d && !json_is_string(d))
		prof_verr(c, "description", false, "expected a string, got %s", GOT(d));
	p->description = json_is_string(d) ? json_string_value(d) : "";
	prof_get_bool(c, root, "allow_any_dst", "", false, &c->allow_any_dst);
	if (!prof_get_int(c, root, "repetitions", "", 1, 1000, 1, &n))
		p->repetitions = (unsigned)n;
	if (!prof_get_enum(c, root, "order", "", order_names, 0, &e))
		p->order_random = e == 1;
	p->seed = 1;
	json_t *sd = json_object_get(root, "seed");
	if (sd && (!json_is_integer(sd) || json_integer_value(sd) < 0))
		prof_verr(c, "seed", false, "expected a whole number 0 or more, got %s", GOT(sd));
	else if (sd)
		p->seed = (uint64_t)json_integer_value(sd);
	prof_parse_router(c, root, p);
	parse_axes(c, root, p);
	check_kernel_axes(c, root, p);
	check_ip6_sizes(c, root, p);
	check_vlan(c, root, p);
	parse_trial(c, root, p);
	prof_parse_topology(c, root, p);
	parse_rig_output(c, root, p);
	prof_check_coverage(c, p);
}

/* ---- tests (docs/profiles.md#tests) ---------------------------------------------- */

static const char *const test_keys[] = { "name", "description", "trial", "matrix", "params",
					 NULL };

static bool test_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (len == 0 || len > PROF_TEST_NAME_MAX || !islower((unsigned char)n[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!islower((unsigned char)n[i]) && !isdigit((unsigned char)n[i]) && n[i] != '_' &&
		    n[i] != '-')
			return false;
	return true;
}

/* The tree of test t: root without "tests", t's trial keys laid over the profile's
 * trial, each axis t sweeps or fixes taken out of the profile's matrix and params and
 * put where t has it. NULL when memory ran out. */
static json_t *test_root(const json_t *root, const json_t *t)
{
	json_t *d = json_deep_copy(root);
	static const char *const sec[] = { "matrix", "params" };
	const char *k;
	json_t *v;
	if (!d)
		return NULL;
	json_object_del(d, "tests");
	json_t *tt = json_object_get(t, "trial");
	if (json_is_object(tt)) {
		json_t *dt = json_object_get(d, "trial");
		if (!json_is_object(dt)) {
			dt = json_object();
			if (!dt || json_object_set_new(d, "trial", dt))
				goto fail;
		}
		json_object_foreach(tt, k, v)
			if (json_object_set_new(dt, k, json_deep_copy(v)))
				goto fail;
	}
	for (int s = 0; s < 2; s++)
		json_object_foreach(json_object_get(t, sec[s]), k, v) {
			json_object_del(json_object_get(d, "matrix"), k);
			json_object_del(json_object_get(d, "params"), k);
		}
	for (int s = 0; s < 2; s++) {
		json_t *ts = json_object_get(t, sec[s]), *ds = json_object_get(d, sec[s]);
		if (!json_is_object(ts))
			continue;
		if (!json_is_object(ds)) {
			ds = json_object();
			if (!ds || json_object_set_new(d, sec[s], ds))
				goto fail;
		}
		json_object_foreach(ts, k, v)
			if (json_object_set_new(ds, k, json_deep_copy(v)))
				goto fail;
	}
	return d;
fail:
	json_decref(d);
	return NULL;
}

/* tests[]: each checked as the whole profile it makes (test_root), its errors placed in
 * the test where the test says the key; after the profile's own check. */
static void parse_tests(struct vctx *c, struct profile *p)
{
	json_t *l = json_object_get(p->root, "tests");
	char ip[64], kp[512], gbuf[128];
	size_t i;
	json_t *t;
	if (!l)
		return;
	if (!json_is_array(l) || json_array_size(l) == 0 ||
	    json_array_size(l) > PROF_TESTS_MAX) {
		prof_verr(c, "tests", false, "expected a list of 1 to %d tests, got %s",
			  PROF_TESTS_MAX, GOT(l));
		return;
	}
	if (!(p->tests = calloc(json_array_size(l), sizeof(*p->tests)))) {
		c->oom = 1;
		return;
	}
	json_array_foreach(l, i, t) {
		jpos_path_idx(ip, sizeof(ip), "tests", i);
		if (prof_want_object(c, t, ip))
			continue;
		prof_check_keys(c, t, ip, test_keys);
		bool bad = false;
		static const char *const obj[] = { "trial", "matrix", "params" };
		for (int s = 0; s < 3; s++)
			bad |= prof_want_object(c, json_object_get(t, obj[s]),
						jpos_path_key(kp, sizeof(kp), ip, obj[s])) != 0;
		const json_t *n = json_object_get(t, "name"), *d = json_object_get(t, "description");
		if (d && !json_is_string(d))
			prof_verr(c, jpos_path_key(kp, sizeof(kp), ip, "description"), false,
				  "expected a string, got %s", GOT(d));
		if (!n) {
			prof_verr(c, ip, false, "a test needs a \"name\"");
			bad = true;
		} else if (!json_is_string(n) || !test_name_ok(json_string_value(n))) {
			prof_verr(c, jpos_path_key(kp, sizeof(kp), ip, "name"), false,
				  "expected a name of 1 to %d lower-case letters, digits, '_' or '-', "
				  "starting with a letter, got %s", PROF_TEST_NAME_MAX, GOT(n));
			bad = true;
		} else {
			for (size_t j = 0; j < p->ntests; j++)
				if (!strcmp(p->tests[j]->test, json_string_value(n))) {
					prof_verr(c, jpos_path_key(kp, sizeof(kp), ip, "name"), false,
						  "two tests are named \"%s\"", json_string_value(n));
					bad = true;
				}
		}
		if (bad)
			continue;
		struct profile *tp = calloc(1, sizeof(*tp));
		if (!tp || !(tp->root = test_root(p->root, t)) || !(tp->path = strdup(p->path)) ||
		    !(tp->name = strdup(p->name)) || !(tp->test = strdup(json_string_value(n)))) {
			profile_free(tp);
			c->oom = 1;
			return;
		}
		tp->test_description = d && json_is_string(d) ? json_string_value(d) : "";
		p->tests[p->ntests++] = tp;
		/* the router's section is read again: its axes' names anew */
		json_decref(c->raxes);
		c->raxes = NULL;
		c->test = t;
		c->test_at = ip;
		validate(c, tp->root, tp);
		c->test = NULL;
		c->test_at = NULL;
	}
}

/* ---- entry points ---------------------------------------------------------------- */

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ntests; i++)
		profile_free(p->tests[i]);
	free(p->tests);
	free(p->test);
	free(p->path);
	free(p->name);
	for (size_t i = 0; i < p->naxes; i++) {
		free(p->axes[i].name);
		json_decref(p->axes[i].values);
	}
	free(p->axes);
	json_decref(p->fixed);
	json_decref(p->trial.ladder);
	free(p->router.ports);
	free(p->router.rules_dir);
	json_decref(p->router.hooks);
	json_decref(p->router.setup_hook);
	json_decref(p->router.read_hook);
	json_decref(p->router.check_hook);
	json_decref(p->router.hook_est);
	for (size_t i = 0; i < p->router.naxes; i++) {
		free(p->router.axes[i].name);
		json_decref(p->router.axes[i].values);
		json_decref(p->router.axes[i].set);
		json_decref(p->router.axes[i].verify);
	}
	free(p->router.axes);
	json_decref(p->router.reboot_hook);
	json_decref(p->router.ready_hook);
	json_decref(p->router.verify);
	json_decref(p->router.boot_hook);
	json_decref(p->router.power_cycle_hook);
	struct prof_host *h[1 + 2 * PROF_BOXES_MAX];
	size_t nh = 0;
	h[nh++] = &p->topo.rut;
	for (size_t i = 0; i < p->topo.ngens; i++)
		h[nh++] = &p->topo.gens[i];
	for (size_t i = 0; i < p->topo.nsinks; i++)
		h[nh++] = &p->topo.sinks[i];
	for (size_t i = 0; i < nh; i++) {
		free(h[i]->name);
		free(h[i]->ssh);
		free(h[i]->netns);
		free(h[i]->iface);
		free(h[i]->bin);
		free(h[i]->spec);
		free(h[i]->backend);
		free(h[i]->cpus);
		free(h[i]->dst);
		free(h[i]->dst6);
	}
	free(p->topo.gens);
	free(p->topo.sinks);
	free(p->topo.lab);
	free(p->topo.dst);
	free(p->topo.dst_b);
	free(p->topo.dst6);
	free(p->topo.dst6_b);
	free(p->topo.dst_mac);
	free(p->topo.dst_mac_b);
	json_decref(p->topo.ssh_options);
	free(p->results);
	json_decref(p->root);
	free(p);
}

/* name: file name without directory and ".json". */
static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	return strndup(b, n);
}

int profile_parse(const char *text, size_t len, const char *name, char *const *sets,
		  size_t nsets, struct profile **out, struct prof_diag *d)
{
	struct vctx c = { .fname = name ? name : "profile" };
	struct profile *p = NULL;
	json_error_t je;
	int rc = -ENOMEM;
	char msg[1200];

	*out = NULL;
	const char *slash = strrchr(c.fname, '/');
	if (slash)
		snprintf(c.dir, sizeof(c.dir), "%.*s", (int)(slash - c.fname) ? (int)(slash - c.fname) : 1,
			 c.fname);
	else
		snprintf(c.dir, sizeof(c.dir), ".");

	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(msg, sizeof(msg), "%s:%d:%d: %s", c.fname, je.line, je.column, je.text);
		return prof_diag_add(d, msg) ? -ENOMEM : -EINVAL;
	}
	if (!json_is_object(root)) {
		snprintf(msg, sizeof(msg), "%s:1:1: a profile is a JSON object {...}", c.fname);
		json_decref(root);
		return prof_diag_add(d, msg) ? -ENOMEM : -EINVAL;
	}
	if (!(c.jp = jpos_index(text, len)))
		goto out;
	for (size_t i = 0; i < nsets; i++)
		prof_apply_set(&c, root, sets[i] ? sets[i] : "", i + 1);
	if (!(p = calloc(1, sizeof(*p))))
		goto out;
	p->root = root;
	root = NULL;
	if (!(p->path = strdup(c.fname)) || !(p->name = base_name(c.fname)))
		goto out;
	validate(&c, p->root, p);
	parse_tests(&c, p);
	if (c.oom)
		goto out;
	if (c.nerr)
		qsort(c.errs, c.nerr, sizeof(*c.errs), prof_perr_cmp);
	for (size_t i = 0; i < c.nerr; i++)
		if (prof_diag_add(d, c.errs[i].msg))
			goto out;
	if (c.nerr) {
		rc = -EINVAL;
		goto out;
	}
	*out = p;
	p = NULL;
	rc = 0;
out:
	profile_free(p);
	json_decref(root);
	jpos_free(c.jp);
	for (size_t i = 0; i < c.nerr; i++)
		free(c.errs[i].msg);
	free(c.errs);
	for (size_t i = 0; i < c.nmarks; i++)
		free(c.marks[i].path);
	free(c.marks);
	json_decref(c.raxes);
	return rc;
}

static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f)
		return -errno;
	errno = 0;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		int e = errno;
		fclose(f);
		return e ? -e : S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	size_t cap = 8192, n = 0;
	char *b = malloc(cap);
	int rc = 0;
	while (b) {
		size_t r = fread(b + n, 1, cap - n, f);
		n += r;
		if (n < cap) {
			if (ferror(f))
				rc = -EIO;
			break;
		}
		if (cap >= (64u << 20)) {
			rc = -EFBIG;
			break;
		}
		char *nb = realloc(b, cap * 2);
		if (!nb) {
			free(b);
			b = NULL;
			break;
		}
		b = nb;
		cap *= 2;
	}
	fclose(f);
	if (!b)
		return -ENOMEM;
	if (rc) {
		free(b);
		return rc;
	}
	*text = b;
	*len = n;
	return 0;
}

/* Where a bare name is looked for, in order; returns how many candidates were written. */
static size_t candidates(const char *name, char cand[][PATH_MAX + 64], size_t max)
{
	size_t n = 0;
	snprintf(cand[n++], sizeof(cand[0]), "profiles/%s.json", name);
	const char *env = getenv("PPSLAB_PROFILES");
	if (env && *env && n < max)
		snprintf(cand[n++], sizeof(cand[0]), "%s/%s.json", env, name);
	char exe[PATH_MAX];
	ssize_t r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (r > 0) {
		exe[r] = 0;
		char *s = strrchr(exe, '/');
		if (s) {
			*s = 0;
			/* installed: PREFIX/bin → PREFIX/share/ppslab/profiles; built: build/bin → profiles */
			if (n < max)
				snprintf(cand[n++], sizeof(cand[0]), "%s/../share/ppslab/profiles/%s.json",
					 exe, name);
			if (n < max)
				snprintf(cand[n++], sizeof(cand[0]), "%s/../../profiles/%s.json", exe,
					 name);
		}
	}
#ifdef PPSLAB_SHARE_DIR
	if (n < max)
		snprintf(cand[n++], sizeof(cand[0]), "%s/profiles/%s.json", PPSLAB_SHARE_DIR, name);
#endif
	return n;
}

int profile_load(const char *path, char *const *sets, size_t nsets, struct profile **out,
		 struct prof_diag *d)
{
	char cand[5][PATH_MAX + 64], msg[8192];
	char *text = NULL;
	size_t len = 0, n;
	int rc;

	*out = NULL;
	if (!path || !*path)
		return prof_diag_add(d, "no profile given") ? -ENOMEM : -ENOENT;
	bool bare = !strchr(path, '/') && !strstr(path, ".json");
	if (!bare) {
		snprintf(cand[0], sizeof(cand[0]), "%s", path);
		n = 1;
	} else {
		n = candidates(path, cand, 5);
	}
	rc = -ENOENT;
	size_t i;
	for (i = 0; i < n; i++) {
		rc = read_file(cand[i], &text, &len);
		if (rc != -ENOENT)
			break;
	}
	if (rc == -ENOENT) {
		size_t m = (size_t)snprintf(msg, sizeof(msg), "%s: no such profile", path);
		if (bare)
			for (size_t j = 0; j < n && m < sizeof(msg); j++)
				m += (size_t)snprintf(msg + m, sizeof(msg) - m, "%s%s",
						      j ? ", " : " (looked for ", cand[j]);
		if (bare && m < sizeof(msg))
			snprintf(msg + m, sizeof(msg) - m, ")");
		return prof_diag_add(d, msg) ? -ENOMEM : -ENOENT;
	}
	if (rc) {
		snprintf(msg, sizeof(msg), "%.4000s: %s", cand[i], strerror(-rc));
		return prof_diag_add(d, msg) ? -ENOMEM : rc;
	}
	rc = profile_parse(text, len, cand[i], sets, nsets, out, d);
	free(text);
	return rc;
}

/* ---- values of a cell -------------------------------------------------------------- */

bool prof_has_reboots(const struct profile *p)
{
	for (size_t i = 0; i < p->router.naxes; i++)
		if (p->router.axes[i].reboot)
			return true;
	return false;
}

/* The value of a built-in axis for a cell: params, else the profile's fixed value,
 * else the default. The one reader of a profile's axes: prof_cell. */
static const json_t *prof_value(const struct profile *p, const json_t *params,
				const struct axis_def *a)
{
	const json_t *v = params ? json_object_get(params, a->name) : NULL;
	if (!v && p)
		v = json_object_get(p->fixed, a->name);
	return v ? v : axis_default(a);
}

/* an enum axis' value as the registry's own name (static), or its default's */
static const char *cell_name(const json_t *v, const struct axis_def *a)
{
	for (size_t i = 0; json_is_string(v) && a->names[i]; i++)
		if (!strcmp(a->names[i], json_string_value(v)))
			return a->names[i];
	return cell_name(axis_default(a), a);
}

void prof_cell(const struct profile *p, const json_t *params, struct cell *c)
{
	memset(c, 0, sizeof(*c));
	c->params = params;
	for (size_t i = 0; i < AX_COUNT; i++)
		c->v[i] = prof_value(p, params, &axis_defs[i]);
#define INT_OF(ax) (json_is_integer(c->v[ax]) ? json_integer_value(c->v[ax]) : 0)
	c->pollhz = INT_OF(AX_POLLHZ);
	c->hz = INT_OF(AX_HZ);
	c->burst_max = INT_OF(AX_BURST_MAX);
	c->each_burst = INT_OF(AX_EACH_BURST);
	c->user_frac = INT_OF(AX_USER_FRAC);
	c->reg_frac = INT_OF(AX_REG_FRAC);
	c->idle_poll = INT_OF(AX_IDLE_POLL) != 0;
	c->update_counters = INT_OF(AX_UPDATE_COUNTERS) != 0;
	c->rules = INT_OF(AX_RULES);
	c->size = (unsigned)INT_OF(AX_SIZE);
	c->imix = json_is_string(c->v[AX_SIZE]);   /* "imix", the one word it takes */
	c->flows = (unsigned)INT_OF(AX_FLOWS);
	c->ip_version = INT_OF(AX_IP_VERSION) == 6 ? 6 : 4;
	c->vlan = (unsigned)INT_OF(AX_VLAN);
	if (json_is_string(c->v[AX_VLAN]) &&   /* "OUTER.INNER", checked; else "none" */
	    sscanf(json_string_value(c->v[AX_VLAN]), "%u.%u", &c->vlan, &c->vlan_inner) != 2)
		c->vlan = c->vlan_inner = 0;
#undef INT_OF
	c->mode = cell_name(c->v[AX_MODE], &axis_defs[AX_MODE]);
	c->kernel = cell_name(c->v[AX_KERNEL], &axis_defs[AX_KERNEL]);
	c->counters = cell_name(c->v[AX_COUNTERS], &axis_defs[AX_COUNTERS]);
	c->rules_kind = cell_name(c->v[AX_RULES_KIND], &axis_defs[AX_RULES_KIND]);
	c->rules_file = json_is_string(c->v[AX_RULES]);
	c->bi = !strcmp(cell_name(c->v[AX_DIRECTION], &axis_defs[AX_DIRECTION]), "bi");
	const char *fw = json_string_value(c->v[AX_FIREWALL]);
	c->firewall = fw && strcmp(fw, "auto") ? !strcmp(fw, "on") : c->rules_file || c->rules > 0;
	const json_t *o = c->v[AX_OFFERED];
	c->offered_pps = json_is_number(o) ? json_number_value(o) : NAN;
	if (json_is_string(o) && num_pps(json_string_value(o), &c->offered_pps))
		c->offered_pps = NAN;
}

const json_t *cell_value(const struct cell *c, const char *name)
{
	const struct axis_def *a = axis_find(name);
	if (a)
		return c->v[a - axis_defs];
	return c->params && name ? json_object_get(c->params, name) : NULL;
}
