/* SPDX-License-Identifier: BSD-2-Clause */
/* search.c — the trial methods of ppslab run (fixed, rfc2544, mlr, ladder) as state
 * machines, RFC 9971's load classification and Conditional Throughput (see search.h;
 * docs/design/methodology.md#trial-methods). Pure: no I/O, no clock. Called by the
 * runner, which measures what search_next asks for, and by tests/unit/analysis/t_search.c with a
 * simulated device. */
#include "search.h"
#include "fmt.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* durations compare with a relative tolerance: dur_k is computed with pow() */
#define FULL_TOL 1e-9

struct goal_state {
	const struct search_goal_cfg *c; /* in search.gc */
	double prev_rlb, prev_rub; /* bounds at the end of the previous phase, 0: none */
	unsigned ext_up, ext_dn;   /* external search steps taken in this phase */
};

/* A distinct load and its class for one goal (scratch of the mlr classification). */
struct load_class {
	double load;
	enum search_class cls;
};

struct search {
	struct search_cfg cfg;
	double *ladder;         /* sorted copy (ladder method) */
	size_t nladder;
	struct search_trial *tr;
	size_t ntr, cap;
	struct load_class *lc;  /* scratch, cap entries */
	size_t *order;          /* scratch: trial indices sorted by load, cap entries */
	int pending;
	struct search_req req;
	char why[32];
	int done, gave_up, spoiled;
	unsigned req_invalid;   /* invalid trials of the pending request */
	size_t repeated;
	/* rfc2544 */
	double lo, hi;
	int lo_measured, hi_measured;
	/* mlr */
	unsigned phase;
	size_t ngoals;
	struct search_goal_cfg gc[SEARCH_MAX_GOALS];
	struct goal_state g[SEARCH_MAX_GOALS];
};

double search_loss(uint64_t tx, uint64_t rx)
{
	if (tx == 0)
		return 1.0;
	if (rx >= tx)
		return 0.0;
	return (double)(tx - rx) / (double)tx;
}

enum search_class search_classify(double full_lo_s, double full_hi_s, double short_lo_s,
				  double short_hi_s, double exceed_ratio, double duration_sum_s)
{
	double coef = exceed_ratio / (1.0 - exceed_ratio);
	double pos_excess = fmax(0.0, short_hi_s - short_lo_s * coef);
	double eff_hi = full_hi_s + pos_excess;
	double whole = fmax(full_lo_s + eff_hi, duration_sum_s);
	double q = whole * exceed_ratio;
	int optimistic = eff_hi <= q;
	int pessimistic = whole - full_lo_s <= q;
	if (optimistic && pessimistic)
		return SC_LOWER;
	if (!optimistic && !pessimistic)
		return SC_UPPER;
	return SC_UNDECIDED;
}

static int is_full(double dur, double final_s)
{
	return dur >= final_s * (1.0 - FULL_TOL);
}

/* A trial's loss ratio for goal gi, or its plain loss ratio (gi < 0). */
static double tloss(const struct search_trial *t, int gi)
{
	return gi < 0 ? t->loss_ratio : t->goal_loss[gi];
}

static double ct_goal(double load_pps, const struct search_trial *t, size_t n, int gi,
		      double final_s, double duration_sum_s, double exceed_ratio);

double search_ct(double load_pps, const struct search_trial *t, size_t n, double final_s,
		 double duration_sum_s, double exceed_ratio)
{
	return ct_goal(load_pps, t, n, -1, final_s, duration_sum_s, exceed_ratio);
}

static double ct_goal(double load_pps, const struct search_trial *t, size_t n, int gi,
		      double final_s, double duration_sum_s, double exceed_ratio)
{
	const struct search_trial **full = malloc((n ? n : 1) * sizeof(*full));
	if (!full)
		return NAN;
	size_t nf = 0;
	double full_sum = 0;
	for (size_t i = 0; i < n; i++)
		if (t[i].load_pps == load_pps && is_full(t[i].duration_s, final_s)) {
			full[nf++] = &t[i];
			full_sum += t[i].duration_s;
		}
	/* by loss, ascending: an insertion sort (qsort has no context for the goal; a load
	 * has a handful of trials), stable as qsort's order of equal losses does not matter */
	for (size_t i = 1; i < nf; i++) {
		const struct search_trial *v = full[i];
		size_t j = i;
		for (; j > 0 && tloss(full[j - 1], gi) > tloss(v, gi); j--)
			full[j] = full[j - 1];
		full[j] = v;
	}
	double rem = fmax(duration_sum_s, full_sum) * (1.0 - exceed_ratio);
	double loss = 1.0;
	for (size_t i = 0; i < nf && rem > 0; i++) {
		loss = tloss(full[i], gi);
		rem -= full[i]->duration_s;
	}
	if (rem > 0)
		loss = 1.0;
	free(full);
	return load_pps * (1.0 - loss);
}

#define bad(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

static int pos_finite(double v)
{
	return isfinite(v) && v > 0;
}

static int goals_check(const struct search_cfg *c, char *err, size_t errlen)
{
	if (c->ngoals > SEARCH_MAX_GOALS)
		return bad(err, errlen, "search: at most %d goals (got %zu)", SEARCH_MAX_GOALS,
			   c->ngoals);
	double longest = 0;
	for (size_t i = 0; i < c->ngoals; i++) {
		const struct search_goal_cfg *g = &c->goals[i];
		size_t len = strnlen(g->name, SEARCH_GOAL_NAME);
		if (len == 0 || len == SEARCH_GOAL_NAME)
			return bad(err, errlen, "search: goal %zu needs a name of 1 to %d characters",
				   i + 1, SEARCH_GOAL_NAME - 1);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->goals[j].name, g->name))
				return bad(err, errlen, "search: two goals are named %s", g->name);
		if (!(g->loss_ratio >= 0 && g->loss_ratio < 1))
			return bad(err, errlen, "search: goal %s: loss_ratio must be in [0, 1) (got %g)",
				   g->name, g->loss_ratio);
		if (!(g->exceed_ratio >= 0 && g->exceed_ratio < 1))
			return bad(err, errlen,
				   "search: goal %s: exceed_ratio must be in [0, 1) (got %g)", g->name,
				   g->exceed_ratio);
		if (!pos_finite(g->final_s))
			return bad(err, errlen, "search: goal %s: final_s must be > 0 (got %g)",
				   g->name, g->final_s);
		if (!isfinite(g->duration_sum_s) || g->duration_sum_s < g->final_s)
			return bad(err, errlen,
				   "search: goal %s: duration_sum_s must be >= its final_s = %g (got %g)",
				   g->name, g->final_s, g->duration_sum_s);
		if (!(g->width > 0 && g->width < 1))
			return bad(err, errlen, "search: goal %s: width must be in (0, 1) (got %g)",
				   g->name, g->width);
		if (!(isfinite(g->latency_ns) && g->latency_ns >= 0))
			return bad(err, errlen, "search: goal %s: latency_ns must be >= 0 (got %g)",
				   g->name, g->latency_ns);
		longest = fmax(longest, g->final_s);
	}
	if (c->ngoals && fabs(longest - c->duration_s) > c->duration_s * FULL_TOL)
		return bad(err, errlen,
			   "search: duration_s (%g) must be the longest goal final_s (%g)",
			   c->duration_s, longest);
	return 0;
}

int search_cfg_check(const struct search_cfg *c, char *err, size_t errlen)
{
	if (!c)
		return bad(err, errlen, "search: no configuration");
	if (!pos_finite(c->duration_s))
		return bad(err, errlen, "search: duration_s must be > 0 (got %g)", c->duration_s);
	if (c->ngoals && c->method != SM_MLR)
		return bad(err, errlen, "search: goals are for the mlr method");
	switch (c->method) {
	case SM_FIXED:
		if (!pos_finite(c->load_pps) || c->load_pps < 0.5)
			return bad(err, errlen, "search: fixed load_pps must be >= 1 pps (got %g)",
				   c->load_pps);
		return 0;
	case SM_LADDER:
		if (c->ladder && c->nladder) {
			for (size_t i = 0; i < c->nladder; i++)
				if (!pos_finite(c->ladder[i]) || c->ladder[i] < 0.5)
					return bad(err, errlen,
						   "search: ladder load %zu must be >= 1 pps (got %g)",
						   i + 1, c->ladder[i]);
			return 0;
		}
		if (!pos_finite(c->max_load_pps) || c->max_load_pps < 10)
			return bad(err, errlen,
				   "search: ladder without loads needs max_load_pps >= 10 (got %g)",
				   c->max_load_pps);
		return 0;
	case SM_RFC2544:
	case SM_MLR:
		break;
	default:
		return bad(err, errlen, "search: unknown method %d", (int)c->method);
	}
	if (!pos_finite(c->min_load_pps) || c->min_load_pps < 1)
		return bad(err, errlen, "search: min_load_pps must be >= 1 pps (got %g)",
			   c->min_load_pps);
	if (!isfinite(c->max_load_pps) || c->max_load_pps < c->min_load_pps)
		return bad(err, errlen, "search: max_load_pps (%g) must be >= min_load_pps (%g)",
			   c->max_load_pps, c->min_load_pps);
	/* with goals, each has its own width, duration sum and exceed ratio */
	if (!c->ngoals && !(c->width > 0 && c->width < 1))
		return bad(err, errlen, "search: width must be in (0, 1) (got %g)", c->width);
	if (c->method == SM_RFC2544)
		return 0;
	if (!pos_finite(c->initial_s) || c->initial_s > c->duration_s)
		return bad(err, errlen, "search: initial_s must be in (0, duration_s = %g] (got %g)",
			   c->duration_s, c->initial_s);
	if (c->phases > 30)
		return bad(err, errlen, "search: phases must be <= 30 (got %u)", c->phases);
	if (c->ngoals)
		return goals_check(c, err, errlen);
	if (!isfinite(c->duration_sum_s) || c->duration_sum_s < c->duration_s)
		return bad(err, errlen,
			   "search: duration_sum_s must be >= duration_s = %g (got %g)",
			   c->duration_s, c->duration_sum_s);
	if (!(c->exceed_ratio >= 0 && c->exceed_ratio < 1))
		return bad(err, errlen, "search: exceed_ratio must be in [0, 1) (got %g)",
			   c->exceed_ratio);
	if (!(c->pdr_loss >= 0 && c->pdr_loss < 1))
		return bad(err, errlen, "search: pdr_loss must be in [0, 1) (got %g)", c->pdr_loss);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double whole_pps(double v)
{
	v = round(v);
	return v < 1 ? 1 : v;
}

struct search *search_new(const struct search_cfg *cfg)
{
	if (search_cfg_check(cfg, NULL, 0)) {
		errno = EINVAL;
		return NULL;
	}
	struct search *s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->cfg = *cfg;
	s->cfg.ladder = NULL;
	if (cfg->method == SM_LADDER) {
		s->nladder = cfg->ladder && cfg->nladder ? cfg->nladder : 10;
		s->ladder = malloc(s->nladder * sizeof(*s->ladder));
		if (!s->ladder)
			goto nomem;
		for (size_t i = 0; i < s->nladder; i++)
			s->ladder[i] = whole_pps(cfg->ladder && cfg->nladder
						 ? cfg->ladder[i]
						 : cfg->max_load_pps * (double)(i + 1) / 10.0);
		qsort(s->ladder, s->nladder, sizeof(*s->ladder), cmp_double);
		s->cfg.nladder = s->nladder;
	}
	s->cfg.min_load_pps = whole_pps(cfg->min_load_pps);
	s->cfg.max_load_pps = whole_pps(cfg->max_load_pps);
	s->lo = s->cfg.min_load_pps;
	s->hi = s->cfg.max_load_pps;
	if (cfg->method == SM_RFC2544) {
		s->ngoals = 1;
		s->gc[0] = (struct search_goal_cfg){ .name = "NDR", .loss_ratio = 0,
						     .final_s = cfg->duration_s,
						     .duration_sum_s = cfg->duration_s,
						     .width = cfg->width };
	} else if (cfg->method == SM_MLR && cfg->ngoals) {
		s->ngoals = cfg->ngoals;
		memcpy(s->gc, cfg->goals, cfg->ngoals * sizeof(*s->gc));
	} else if (cfg->method == SM_MLR) {
		s->ngoals = 2;
		s->gc[0] = (struct search_goal_cfg){ .name = "NDR", .loss_ratio = 0 };
		s->gc[1] = (struct search_goal_cfg){ .name = "PDR", .loss_ratio = cfg->pdr_loss };
		for (size_t i = 0; i < 2; i++) {
			s->gc[i].exceed_ratio = cfg->exceed_ratio;
			s->gc[i].final_s = cfg->duration_s;
			s->gc[i].duration_sum_s = cfg->duration_sum_s;
			s->gc[i].width = cfg->width;
		}
	}
	for (size_t i = 0; i < s->ngoals; i++)
		s->g[i].c = &s->gc[i];
	return s;
nomem:
	search_free(s);
	errno = ENOMEM;
	return NULL;
}

void search_free(struct search *s)
{
	if (!s)
		return;
	free(s->ladder);
	free(s->tr);
	free(s->lc);
	free(s->order);
	free(s);
}

size_t search_goals(const struct search *s, const struct search_goal_cfg **g)
{
	*g = s->gc;
	return s->ngoals;
}

size_t search_trials(const struct search *s, const struct search_trial **t)
{
	*t = s->tr;
	return s->ntr;
}

static int request(struct search *s, struct search_req *r, double load, double dur,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int request(struct search *s, struct search_req *r, double load, double dur,
		   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	s->req = (struct search_req){ .load_pps = whole_pps(load), .duration_s = dur,
				      .why = s->why };
	s->pending = 1;
	s->req_invalid = 0;
	*r = s->req;
	return 0;
}

/* ---- rfc2544 ---------------------------------------------------------------- */

static int next_rfc2544(struct search *s, struct search_req *r)
{
	const struct search_cfg *c = &s->cfg;
	if (s->ntr == 0)
		return request(s, r, c->max_load_pps, c->duration_s, "max");
	if (!s->hi_measured)
		return 1;       /* zero loss at max: max is only a lower bound */
	if (s->hi <= c->min_load_pps)
		return 1;       /* loss at min: min is an upper bound */
	if (s->ntr == 1) {
		double fr0 = whole_pps(s->tr[0].fwd_pps);
		if (fr0 < c->min_load_pps)
			fr0 = c->min_load_pps;
		if (fr0 < s->hi)
			return request(s, r, fr0, c->duration_s, "fr at max");
	}
	double mid = whole_pps((s->lo + s->hi) / 2);
	if ((s->hi - s->lo) / s->hi <= c->width || mid <= s->lo || mid >= s->hi) {
		if (s->lo_measured)
			return 1;
		return request(s, r, c->min_load_pps, c->duration_s, "min");
	}
	return request(s, r, mid, c->duration_s, "bisect");
}

/* ---- mlr ------------------------------------------------------------------- */

static double phase_dur(const struct search *s, unsigned k)
{
	const struct search_cfg *c = &s->cfg;
	if (k >= c->phases)
		return c->duration_s;
	return c->initial_s * pow(c->duration_s / c->initial_s, (double)k / c->phases);
}

/* A goal's trial duration, duration sum and width in phase k. */
static double goal_dur(const struct search *s, const struct goal_state *g, unsigned k)
{
	return fmin(phase_dur(s, k), g->c->final_s);
}

static double goal_sum(const struct search *s, const struct goal_state *g, unsigned k)
{
	return k >= s->cfg.phases ? g->c->duration_sum_s : goal_dur(s, g, k);
}

static double goal_width(const struct search *s, const struct goal_state *g, unsigned k)
{
	return g->c->width * ldexp(1.0, (int)(s->cfg.phases - k));
}

/* Trial indices sorted by load into order[ntr]: insertion sort (qsort would need the
 * trials as context; a search has tens of trials). */
static void sort_by_load(const struct search *s, size_t *order)
{
	for (size_t i = 0; i < s->ntr; i++)
		order[i] = i;
	for (size_t i = 1; i < s->ntr; i++) {
		size_t v = order[i], j = i;
		while (j > 0 && s->tr[order[j - 1]].load_pps > s->tr[v].load_pps) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
}

/* The distinct loads measured, ascending, into lc[] (ntr entries), with their class for
 * goal gi when trials of final_s are full-length and sum_s decides a load; order[] (ntr
 * entries) is scratch. Returns the number of loads. */
static size_t load_classes(const struct search *s, size_t gi, double final_s, double sum_s,
			   size_t *order, struct load_class *lc)
{
	double loss = s->gc[gi].loss_ratio;
	sort_by_load(s, order);
	size_t n = 0;
	for (size_t i = 0; i < s->ntr;) {
		double load = s->tr[order[i]].load_pps;
		double b[4] = { 0 };    /* full_lo, full_hi, short_lo, short_hi */
		for (; i < s->ntr && s->tr[order[i]].load_pps == load; i++) {
			const struct search_trial *t = &s->tr[order[i]];
			int idx = (is_full(t->duration_s, final_s) ? 0 : 2) +
				  (t->goal_loss[gi] > loss ? 1 : 0);
			b[idx] += t->duration_s;
		}
		lc[n].load = load;
		lc[n].cls = search_classify(b[0], b[1], b[2], b[3], s->gc[gi].exceed_ratio, sum_s);
		n++;
	}
	return n;
}

/* RUB: the smallest upper bound; RLB: the largest lower bound below it (0: none). */
static void bounds(const struct load_class *lc, size_t n, double *rlb, double *rub)
{
	*rlb = *rub = 0;
	for (size_t i = 0; i < n; i++)
		if (lc[i].cls == SC_UPPER) {
			*rub = lc[i].load;
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (lc[i].cls == SC_LOWER && (!*rub || lc[i].load < *rub))
			*rlb = lc[i].load;
}

enum prop { P_NONE, P_REFINE, P_BISECT, P_UP, P_DOWN };

static const char *prop_name[] = { "", "refine", "bisect", "extend up", "extend down" };

/* One goal's proposal for phase k: the load to measure next, or P_NONE; *rlb and *rub
 * get the goal's bounds in that phase. */
static enum prop propose(struct search *s, size_t gi, unsigned k, double *load,
			 double *rlb_out, double *rub_out)
{
	const struct search_cfg *c = &s->cfg;
	struct goal_state *g = &s->g[gi];
	double w = goal_width(s, g, k);
	size_t n = load_classes(s, gi, goal_dur(s, g, k), goal_sum(s, g, k), s->order, s->lc);
	const struct load_class *lc = s->lc;
	double rlb, rub;
	bounds(lc, n, &rlb, &rub);
	*rlb_out = rlb;
	*rub_out = rub;
	if (rlb && rub && (rub - rlb) / rub <= w)
		return P_NONE;
	/* undecided loads between the bounds need more trials */
	double lo_u = 0, hi_u = 0;
	int prev_lb_u = 0, prev_ub_u = 0;
	for (size_t i = 0; i < n; i++) {
		if (lc[i].cls != SC_UNDECIDED || lc[i].load <= rlb || (rub && lc[i].load >= rub))
			continue;
		if (!lo_u)
			lo_u = lc[i].load;
		hi_u = lc[i].load;
		prev_lb_u |= lc[i].load == g->prev_rlb;
		prev_ub_u |= lc[i].load == g->prev_rub;
	}
	if (lo_u) {
		if (rlb)
			*load = lo_u;
		else if (rub)
			*load = hi_u;
		else
			*load = prev_lb_u ? g->prev_rlb : prev_ub_u ? g->prev_rub : lo_u;
		return P_REFINE;
	}
	if (rlb && rub) {
		double up = whole_pps(rlb * (1 + w * ldexp(1.0, 2 * (int)g->ext_up)));
		double mid = whole_pps(sqrt(rlb * rub));
		if (up > rlb && up < mid) {
			*load = up;
			return P_UP;
		}
		if (mid <= rlb || mid >= rub)
			return P_NONE;  /* bounds 1 pps apart */
		*load = mid;
		return P_BISECT;
	}
	if (rlb) {              /* no upper bound */
		if (rlb >= c->max_load_pps)
			return P_NONE;  /* max load is a lower bound */
		double up = whole_pps(rlb * (1 + w * ldexp(1.0, 2 * (int)g->ext_up)));
		*load = fmin(c->max_load_pps, fmax(up, rlb + 1));
		return P_UP;
	}
	if (rub) {              /* no lower bound */
		if (rub <= c->min_load_pps)
			return P_NONE;  /* min load is an upper bound */
		double dn = whole_pps(rub * (1 - w * ldexp(1.0, 2 * (int)g->ext_dn)));
		*load = fmax(c->min_load_pps, fmin(dn, rub - 1));
		return P_DOWN;
	}
	return P_NONE;          /* no trials: cannot happen after trial 1 */
}

static int next_mlr(struct search *s, struct search_req *r)
{
	const struct search_cfg *c = &s->cfg;
	if (s->ntr == 0)
		return request(s, r, c->max_load_pps, c->initial_s, "max");
	if (s->ntr == 1) {
		double fr0 = whole_pps(s->tr[0].fwd_pps);
		fr0 = fmin(c->max_load_pps, fmax(c->min_load_pps, fr0));
		if (fr0 < c->max_load_pps)
			return request(s, r, fr0, c->initial_s, "mrr rate");
	}
	for (;;) {
		unsigned k = s->phase;
		double best = 0, dur = 0, load[SEARCH_MAX_GOALS], rlb[SEARCH_MAX_GOALS],
		       rub[SEARCH_MAX_GOALS];
		size_t bg = 0;
		enum prop bp = P_NONE, p[SEARCH_MAX_GOALS];
		/* the lowest load proposed; of goals proposing it, the longest trial */
		for (size_t i = 0; i < s->ngoals; i++) {
			p[i] = propose(s, i, k, &load[i], &rlb[i], &rub[i]);
			if (p[i] == P_NONE)
				continue;
			double d = goal_dur(s, &s->g[i], k);
			if (!best || load[i] < best || (load[i] == best && d > dur)) {
				best = load[i];
				dur = d;
				bg = i;
				bp = p[i];
			}
		}
		if (bp != P_NONE) {
			/* the load measured is an external-search step of every goal whose step
			 * region it probes (goals often share bounds: the step grows once) */
			for (size_t i = 0; i < s->ngoals; i++) {
				if (p[i] == P_UP && best > rlb[i] && best <= load[i])
					s->g[i].ext_up++;
				else if (p[i] == P_DOWN && best < rub[i] && best >= load[i])
					s->g[i].ext_dn++;
			}
			return request(s, r, best, dur, "p%u/%u %s %s", k, c->phases,
				       s->gc[bg].name, prop_name[bp]);
		}
		if (k >= c->phases)
			return 1;
		for (size_t i = 0; i < s->ngoals; i++) {
			struct goal_state *g = &s->g[i];
			size_t n = load_classes(s, i, goal_dur(s, g, k), goal_sum(s, g, k),
						s->order, s->lc);
			bounds(s->lc, n, &g->prev_rlb, &g->prev_rub);
			g->ext_up = g->ext_dn = 0;
		}
		s->phase++;
	}
}

/* ---- driver ------------------------------------------------------------------ */

int search_next(struct search *s, struct search_req *r)
{
	if (s->pending) {
		*r = s->req;
		return 0;
	}
	if (s->done)
		return 1;
	/* a method that wants another trial past max_trials gives up; the request it made
	 * is withdrawn (ext counters of mlr moved, but nothing follows) */
	int rc;
	switch (s->cfg.method) {
	case SM_FIXED:
		rc = s->ntr ? 1 : request(s, r, s->cfg.load_pps, s->cfg.duration_s, "fixed");
		break;
	case SM_RFC2544:
		rc = next_rfc2544(s, r);
		break;
	case SM_MLR:
		rc = next_mlr(s, r);
		break;
	case SM_LADDER:
		rc = s->ntr >= s->nladder
			     ? 1
			     : request(s, r, s->ladder[s->ntr], s->cfg.duration_s, "ladder %zu/%zu",
				       s->ntr + 1, s->nladder);
		break;
	default:
		rc = 1;
	}
	if (rc == 0 && s->cfg.max_trials && s->ntr >= s->cfg.max_trials) {
		s->pending = 0;
		s->gave_up = 1;
		rc = 1;
	}
	if (rc)
		s->done = 1;
	return rc;
}

void search_record(struct search *s, const struct search_req *r, uint64_t tx, uint64_t rx,
		   double offered_pps)
{
	search_record_late(s, r, tx, rx, offered_pps, NULL);
}

void search_record_late(struct search *s, const struct search_req *r, uint64_t tx,
			uint64_t rx, double offered_pps, const uint64_t *late)
{
	(void)r;        /* the pending request is authoritative */
	if (!s->pending)
		return;
	if (s->ntr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct search_trial *tr = realloc(s->tr, cap * sizeof(*tr));
		if (!tr)
			return; /* the trial is lost; the search asks for it again */
		s->tr = tr;
		struct load_class *lc = realloc(s->lc, cap * sizeof(*lc));
		if (!lc)
			return;
		s->lc = lc;
		size_t *order = realloc(s->order, cap * sizeof(*order));
		if (!order)
			return;
		s->order = order;
		s->cap = cap;
	}
	struct search_trial *t = &s->tr[s->ntr++];
	*t = (struct search_trial){ .load_pps = s->req.load_pps, .duration_s = s->req.duration_s,
				    .offered_pps = offered_pps, .tx = tx, .rx = rx,
				    .loss_ratio = search_loss(tx, rx),
				    .fwd_pps = (double)rx / s->req.duration_s };
	snprintf(t->why, sizeof(t->why), "%s", s->why);
	for (size_t i = 0; i < s->ngoals; i++) {
		t->goal_loss[i] = t->loss_ratio;
		if (!late || !(s->gc[i].latency_ns > 0))
			continue;
		t->late[i] = late[i];
		/* the frames lost and those that came too late; a count of late frames above
		 * rx (which a caller should not give) is capped at every frame */
		uint64_t lost = tx > rx ? tx - rx : 0;
		uint64_t bad = lost + (late[i] < rx ? late[i] : rx);
		t->goal_loss[i] = tx ? fmin(1.0, (double)bad / (double)tx) : 1.0;
	}
	s->pending = 0;
	if (s->cfg.method == SM_RFC2544) {
		if (t->loss_ratio == 0) {
			if (!s->lo_measured || t->load_pps > s->lo) {
				s->lo = t->load_pps;
				s->lo_measured = 1;
			}
		} else if (!s->hi_measured || t->load_pps < s->hi) {
			s->hi = t->load_pps;
			s->hi_measured = 1;
		}
	}
}

int search_invalid(struct search *s)
{
	if (!s->pending)
		return 0;
	if (s->req_invalid < s->cfg.repeat_invalid) {
		s->req_invalid++;
		s->repeated++;
		return 0;       /* still pending: search_next asks for it again */
	}
	s->pending = 0;
	s->spoiled = 1;
	s->done = 1;
	return 1;
}

static void result_rfc2544(const struct search *s, struct search_res *res)
{
	struct search_goal_res *g = &res->goal[0];
	res->ngoals = 1;
	*g = (struct search_goal_res){ .name = "NDR", .loss_ratio = 0, .final_s = s->cfg.duration_s,
				       .duration_sum_s = s->cfg.duration_s, .width = s->cfg.width };
	g->rlb_pps = s->lo_measured ? s->lo : 0;
	g->rub_pps = s->hi_measured ? s->hi : 0;
	g->ct_pps = g->rlb_pps;
	if (!g->rub_pps)
		g->irregular = s->ntr ? "max load is a lower bound" : "no trials";
	else if (g->rub_pps <= s->cfg.min_load_pps)
		g->irregular = "min load is an upper bound";
	else if (!g->rlb_pps)
		g->irregular = "no lower bound";
	else if ((g->rub_pps - g->rlb_pps) / g->rub_pps > s->cfg.width)
		g->irregular = "width not reached";
}

static void result_mlr(const struct search *s, struct search_res *res)
{
	const struct search_cfg *c = &s->cfg;
	size_t *order = malloc((s->ntr ? s->ntr : 1) * sizeof(*order));
	struct load_class *lc = malloc((s->ntr ? s->ntr : 1) * sizeof(*lc));
	res->ngoals = s->ngoals;
	for (size_t i = 0; i < s->ngoals; i++) {
		struct search_goal_res *g = &res->goal[i];
		const struct search_goal_cfg *gc = &s->gc[i];
		*g = (struct search_goal_res){ .loss_ratio = gc->loss_ratio,
					       .exceed_ratio = gc->exceed_ratio,
					       .final_s = gc->final_s,
					       .duration_sum_s = gc->duration_sum_s,
					       .width = gc->width, .latency_ns = gc->latency_ns };
		snprintf(g->name, sizeof(g->name), "%s", gc->name);
		if (!order || !lc) {
			g->irregular = "out of memory";
			continue;
		}
		size_t n = load_classes(s, i, gc->final_s, gc->duration_sum_s, order, lc);
		bounds(lc, n, &g->rlb_pps, &g->rub_pps);
		if (g->rlb_pps)
			g->ct_pps = ct_goal(g->rlb_pps, s->tr, s->ntr, (int)i, gc->final_s,
					    gc->duration_sum_s, gc->exceed_ratio);
		if (!s->ntr)
			g->irregular = "no trials";
		else if (!g->rub_pps && g->rlb_pps >= c->max_load_pps)
			g->irregular = "max load is a lower bound";
		else if (!g->rlb_pps && g->rub_pps && g->rub_pps <= c->min_load_pps)
			g->irregular = "min load is an upper bound";
		else if (!g->rlb_pps)
			g->irregular = "no lower bound";
		else if (!g->rub_pps)
			g->irregular = "no upper bound";
		else if ((g->rub_pps - g->rlb_pps) / g->rub_pps > gc->width)
			g->irregular = "width not reached";
	}
	free(order);
	free(lc);
}

void search_result(const struct search *s, struct search_res *res)
{
	memset(res, 0, sizeof(*res));
	res->ntrials = s->ntr;
	for (size_t i = 0; i < s->ntr; i++) {
		res->trial_s += s->tr[i].duration_s;
		if (s->tr[i].fwd_pps > res->mfr_pps) {
			res->mfr_pps = s->tr[i].fwd_pps;
			res->mfr_load_pps = s->tr[i].offered_pps;
		}
	}
	if (s->ntr && (s->cfg.method == SM_MLR || s->cfg.method == SM_RFC2544))
		res->mrr_pps = s->tr[0].fwd_pps;
	if (s->cfg.method == SM_RFC2544)
		result_rfc2544(s, res);
	else if (s->cfg.method == SM_MLR)
		result_mlr(s, res);
	res->gave_up = s->gave_up;
	res->repeated = s->repeated;
	res->spoiled = s->spoiled;
	for (size_t i = 0; i < res->ngoals; i++) {
		if (s->gave_up)
			res->goal[i].irregular = "max_trials reached";
		if (s->spoiled)
			res->goal[i].irregular = "a trial's offered load stayed invalid";
		res->goal[i].regular = !res->goal[i].irregular;
	}
}
