/* SPDX-License-Identifier: BSD-2-Clause */
/* deviations.c — a profile's settings against RFC 2544's requirements (see
 * deviations.h; the requirements, in words, in docs/method.md#rfc-2544-requirements).
 * Each rule names the section it holds the setting to; the first argument of every
 * finding is what the profile asked, so that a reader sees by how much it deviates. */
#include "deviations.h"
#include "jout.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const unsigned dev_rfc_sizes[DEV_SIZES_N] = { 64, 128, 256, 512, 1024, 1280, 1518 };

/* RFC 2544 §24: the test part of a trial lasts at least 60 s; §23: 2 s for the last
 * frames after it; §26.4: 50 back-to-back trials; §26.2: 20 latency trials of 120 s;
 * §11.4: 1 and 25 filters; §26.3: steps of at most 10 % of the maximum rate; §26.5:
 * repeated and the mean reported; §26.6: each kind of reset reported. */
#define RFC_TRIAL_S 60.0
#define RFC_SETTLE_S 2.0
#define RFC_B2B_TRIALS 50
#define RFC_RECOVERY_OVERLOAD_S 60.0   /* §26.5: at least 60 s at 110 % */
#define RFC_LATENCY_TRIALS 20
#define RFC_LATENCY_S 120.0
#define RFC_FILTERS_MANY 25
#define RFC_LOSS_STEP 0.10

struct out {
	json_t *list;
	const char *test;
	int oom;
};

__attribute__((format(printf, 2, 3)))
static void say(struct out *o, const char *fmt, ...)
{
	char what[400], b[480];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(b, sizeof(b), "%s%s%s", o->test ? o->test : "", o->test ? ": " : "", what);
	if (json_array_append_new(o->list, json_string(b)))
		o->oom = 1;
}

/* The values an axis takes in p: its swept list, or its one fixed value (borrowed). */
static const json_t *axis_values(const struct profile *p, const char *name, json_t *one)
{
	bool swept;
	const json_t *v = prof_axis_values(p, name, &swept);
	if (swept)
		return v;
	json_array_clear(one);
	if (v)
		json_array_append(one, jmut(v));
	return one;
}

/* §9.1: the seven Ethernet sizes, each measured; IMIX is none of them. */
static void sizes(struct out *o, const struct profile *p, const char *sect, json_t *one)
{
	const json_t *v = axis_values(p, "size", one);
	size_t have = 0;
	for (size_t k = 0; k < DEV_SIZES_N; k++) {
		size_t i;
		const json_t *s;
		json_array_foreach(v, i, s)
			if (json_is_integer(s) && json_integer_value(s) == (json_int_t)dev_rfc_sizes[k]) {
				have++;
				break;
			}
	}
	if (have < DEV_SIZES_N)
		say(o, "%zu of the %d frame sizes of RFC 2544 §9.1 (64, 128, 256, 512, 1024, 1280, "
		    "1518 bytes) measured, which §%s ask%s for each", have, DEV_SIZES_N, sect,
		    strstr(sect, " and ") ? "" : "s");
}

static void trial_length(struct out *o, const struct prof_trial *t)
{
	if (t->duration_s < RFC_TRIAL_S)
		say(o, "%g s trials instead of 60 s (RFC 2544 §24)", t->duration_s);
}

/* §26.1 through a search: zero loss, every trial counted (no exceed ratio). */
static void search_goals(struct out *o, const struct prof_trial *t)
{
	if (t->method != PM_MLR)
		return;
	bool exceed = t->ngoals ? false : t->exceed_ratio > 0;
	for (size_t g = 0; g < t->ngoals; g++)
		exceed |= t->goals[g].exceed_ratio > 0;
	if (exceed)
		say(o, "MLRsearch exceed ratio above 0");
}

/* §26.2: at the throughput rate, 20 trials of 120 s each (the frame tagged at 60 s);
 * ppslab takes one trial per load and every frame's delay. */
static void latency(struct out *o, const struct prof_trial *t)
{
	bool at_tput = false;
	for (size_t i = 0; i < t->nlatency_loads; i++)
		at_tput |= t->latency_loads[i] == 100;
	if (!at_tput)
		say(o, "latency not measured at 100 %% of the throughput, the rate RFC 2544 §26.2 "
		    "asks for");
	say(o, "latency from 1 trial of %g s per load instead of the mean of %d trials of %g s "
	    "(RFC 2544 §26.2)", t->duration_s, RFC_LATENCY_TRIALS, RFC_LATENCY_S);
}

/* §26.3: from the maximum rate down in steps of at most 10 % of it. */
static void loss_steps(struct out *o, const struct prof_trial *t)
{
	size_t n = t->ladder ? json_array_size(t->ladder) : 0;
	if (!n)
		return;   /* the default: 10..100 % of the maximum in 10 % steps */
	double hi = 0, lo = INFINITY, gap = 0, prev = NAN;
	for (size_t i = 0; i < n; i++)
		hi = fmax(hi, json_number_value(json_array_get(t->ladder, i)));
	/* the ladder is any order: the gaps of its loads sorted, by a pass per step */
	double cur = 0;
	for (size_t k = 0; k < n; k++) {
		double next = INFINITY;
		for (size_t i = 0; i < n; i++) {
			double v = json_number_value(json_array_get(t->ladder, i));
			if (v > cur && v < next)
				next = v;
		}
		if (isinf(next))
			break;
		if (!isnan(prev))
			gap = fmax(gap, next - prev);
		lo = fmin(lo, next);
		prev = cur = next;
	}
	if (t->max_load_pps > 0 && hi < t->max_load_pps)
		say(o, "frame loss measured up to %.0f pps, not from the maximum rate %.0f pps "
		    "(RFC 2544 §26.3)", hi, t->max_load_pps);
	if (gap > RFC_LOSS_STEP * hi * (1 + 1e-9) || lo > RFC_LOSS_STEP * hi * (1 + 1e-9))
		say(o, "frame loss in steps up to %.0f %% of the highest load instead of 10 %% "
		    "(RFC 2544 §26.3)", 100 * fmax(gap, lo) / hi);
}

/* §11.4: one filter, then 25; the test frames pass them (nomatch rules and the allow
 * rule after them, docs/profiles.md#axes). */
static void filters(struct out *o, const struct profile *p, json_t *one)
{
	const json_t *v = axis_values(p, "rules", one);
	json_int_t most = 0;
	bool single = false, file = false;
	size_t i;
	const json_t *r;
	json_array_foreach(v, i, r) {
		if (json_is_string(r))
			file = true;
		json_int_t n = json_is_integer(r) ? json_integer_value(r) : 0;
		most = n > most ? n : most;
		single |= n == 1;
	}
	if (file || most == 0)
		return;   /* no filter test (a rule set of its own is no §11.4 count) */
	if (most < RFC_FILTERS_MANY)
		say(o, "%lld filters at most instead of 25 (RFC 2544 §11.4)", (long long)most);
	if (!single)
		say(o, "no case with a single filter (RFC 2544 §11.4)");
	const char *kind = json_string_value(json_object_get(p->fixed, "rules_kind"));
	if (kind && strcmp(kind, "nomatch"))
		say(o, "filters of kind \"%s\" match the test frames; RFC 2544 §11.4's do not, "
		    "but for the one that passes them", kind);
}

static int one(const struct profile *p, const char *test, json_t *list)
{
	struct out o = { .list = list, .test = test };
	const struct prof_trial *t = &p->trial;
	json_t *tmp = json_array();
	if (!tmp)
		return -ENOMEM;
	switch (t->method) {
	case PM_FIXED:
		trial_length(&o, t);
		break;
	case PM_RFC2544:
	case PM_MLR:
		trial_length(&o, t);
		search_goals(&o, t);
		sizes(&o, p, t->nlatency_loads ? "26.1 and §26.2" : "26.1", tmp);
		if (t->nlatency_loads)
			latency(&o, t);
		break;
	case PM_LADDER:
		trial_length(&o, t);
		loss_steps(&o, t);
		sizes(&o, p, "26.3", tmp);
		break;
	case PM_B2B:
		if (t->b2b_trials < RFC_B2B_TRIALS)
			say(&o, "%u back-to-back trials instead of 50 (RFC 2544 §26.4)",
			    t->b2b_trials);
		sizes(&o, p, "26.4", tmp);
		break;
	case PM_OUTAGE:
		if (t->outage_recipe == PO_RESET && !(t->outage_load_pct > 0))
			say(&o, "reset (RFC 2544 §26.6) at a fixed load, not at a throughput "
			    "measured first");
		if (t->outage_recipe == PO_RECOVERY && t->outage_at_s < RFC_RECOVERY_OVERLOAD_S)
			say(&o, "recovery (RFC 2544 §26.5) after %g s of overload at 110 %% of the "
			    "throughput instead of at least 60 s", t->outage_at_s);
		if (t->outage_recipe == PO_RECOVERY && !(t->outage_load_pct > 0))
			say(&o, "recovery (RFC 2544 §26.5) from a given throughput, not one "
			    "measured first");
		else if (t->outage_recipe == PO_RECOVERY && t->outage_load_pct != 100)
			say(&o, "recovery (RFC 2544 §26.5) from %g %% of the NDR instead of the "
			    "throughput (100 %%)", t->outage_load_pct);
		/* §26.5: the test repeated, the mean reported */
		if (t->outage_recipe == PO_RECOVERY && p->repetitions < 2)
			say(&o, "recovery (RFC 2544 §26.5) measured once a case, not repeated for "
			    "a mean (repetitions 1)");
		/* §26.6: a hardware reset, a software reset and a power interruption of 10 s,
		 * each reported; a profile's action is one of them */
		if (t->outage_recipe == PO_RESET)
			say(&o, "reset (RFC 2544 §26.6) of one kind, by the %s, instead of each of "
			    "a hardware reset, a software reset and a 10-s power interruption",
			    t->outage_hook && t->outage_hook == p->router.reboot_hook
			    ? "router's reboot hook" : "outage action");
		break;
	default:
		break;
	}
	if (t->settle_s < RFC_SETTLE_S)
		say(&o, "%g s settle instead of 2 s (RFC 2544 §23)", t->settle_s);
	filters(&o, p, tmp);
	json_decref(tmp);
	return o.oom ? -ENOMEM : 0;
}

/* Which of §26's tests a (test's) trial is: a bit each of 26.1 .. 26.6. */
static unsigned sec26_of(const struct prof_trial *t)
{
	switch (t->method) {
	case PM_RFC2544:
	case PM_MLR:
		return 1u << 1 | (t->nlatency_loads ? 1u << 2 : 0);
	case PM_LADDER:
		return 1u << 3;
	case PM_B2B:
		return 1u << 4;
	case PM_OUTAGE:
		return t->outage_recipe == PO_RECOVERY ? 1u << 5
		       : t->outage_recipe == PO_RESET ? 1u << 6 : 0;
	default:
		return 0;
	}
}

int dev_find(const struct profile *p, const char *test, json_t *list)
{
	if (!p->ntests)
		return one(p, test, list);
	unsigned have = 0;
	for (size_t i = 0; i < p->ntests; i++) {
		int rc = one(p->tests[i], p->tests[i]->test, list);
		if (rc)
			return rc;
		have |= sec26_of(&p->tests[i]->trial);
	}
	/* a profile of tests is a suite: what of §26 it leaves out is a deviation too */
	static const char *const name[7] = { NULL, "throughput", "latency", "frame loss rate",
					     "back-to-back frames", "system recovery", "reset" };
	struct out o = { .list = list };
	for (int s = 1; s <= 6; s++)
		if (!(have & 1u << s))
			say(&o, "no test of RFC 2544 §26.%d (%s) among the profile's tests", s,
			    name[s]);
	return o.oom ? -ENOMEM : 0;
}
