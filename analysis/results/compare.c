/* SPDX-License-Identifier: BSD-2-Clause */
/* compare.c — cell-by-cell regression verdicts between results files (see compare.h,
 * docs/design/methodology.md#comparing-two-runs). Called by cmd_compare.c, report.c and report_plot.c;
 * the statistics are in stats.c, the table layout in grid.c, the bar chart in plot.c. */
#include "compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fmt.h"
#include "jout.h"
#include "names.h"
#include "pivot.h"
#include "strlist.h"

/* The rates a comparison looks at unless told otherwise (one sample = one search
 * result or one fixed-load rate: docs/design/methodology.md#cells-cases-and-repetitions). */
static const char *const headline[] = { "ndr_pps", "pdr_pps", "mrr_pps", "fwd_pps",
					"fwd_pps_a", "fwd_pps_b", "b2b_frames", "b2b_corrected_s",
					"outage_longest_s", "outage_loss_over_load_s",
					"outage_reset_s", "outage_recovery_s" };

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

int cmp_verdict_parse(const char *s)
{
	for (int v = ST_REGRESSION; v <= ST_INCONCLUSIVE; v++) {
		const char *n = st_verdict_name((enum st_verdict)v);
		size_t i;
		for (i = 0; n[i] && s[i]; i++)
			if (tolower((unsigned char)n[i]) != tolower((unsigned char)s[i]) &&
			    !(n[i] == '_' && s[i] == '-'))
				break;
		if (!n[i] && !s[i])
			return v;
	}
	return -1;
}

void cmp_free(struct cmp *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nmetrics; i++)
		free(c->metrics[i]);
	free(c->metrics);
	free(c->rows);
	free(c->only_a);
	free(c->only_b);
	free(c);
}

double cmp_goal_width(const struct res_file *rf)
{
	/* the widest goal's: a difference within it may be the search's own */
	double wmax = NAN;
	size_t i;
	json_t *g;
	json_array_foreach(res_get(rf->root, "method", "goals", NULL), i, g) {
		json_t *w = json_object_get(g, "width");
		if (json_is_number(w) && !(json_number_value(w) <= wmax))
			wmax = json_number_value(w);
	}
	return wmax;
}

/* Is m the metric of one of a's search goals? */
static bool is_goal(const struct res_file *a, const char *m)
{
	for (size_t i = 0; i < RES_MAX_GOALS; i++) {
		const char *gm = res_goal_metric(a, i);
		if (gm && !strcmp(gm, m))
			return true;
	}
	return false;
}

static bool listed(const char *m, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], m))
			return true;
	return false;
}

static int add_metric(struct cmp *c, const char *m)
{
	return strv_add(&c->metrics, &c->nmetrics, m);
}

static int picked(const struct cmp *c, const char *m)
{
	for (size_t i = 0; i < c->nmetrics; i++)
		if (!strcmp(c->metrics[i], m))
			return 1;
	return 0;
}

static int pick_metrics(struct cmp *c, const struct cmp_opts *o, char *err, size_t errlen)
{
	if (o->nmetrics) {
		for (size_t i = 0; i < o->nmetrics; i++) {
			const struct res_file *miss = !res_has_metric(c->a, o->metrics[i]) ? c->a
						    : !res_has_metric(c->b, o->metrics[i]) ? c->b
						    : NULL;
			if (miss)
				return fail(err, errlen, "--metric %s: no case in %s has this metric",
					    o->metrics[i], miss->path);
			if (add_metric(c, o->metrics[i]))
				return -ENOMEM;
		}
		return 0;
	}
	int bidir = res_metric_has_values(c->a, "fwd_pps_b") ||
		    res_metric_has_values(c->b, "fwd_pps_b");
	/* every search goal both have, in the first file's order (NDR, PDR by default) */
	for (size_t i = 0; i < RES_MAX_GOALS; i++) {
		const char *gm = res_goal_metric(c->a, i);
		if (gm && res_has_metric(c->b, gm) && !picked(c, gm) && add_metric(c, gm))
			return -ENOMEM;
	}
	for (size_t i = 0; i < sizeof(headline) / sizeof(headline[0]); i++) {
		/* per-stream rates only when there are two streams: one way, _a is fwd_pps */
		if (!bidir && !strncmp(headline[i], "fwd_pps_", 8))
			continue;
		if (res_has_metric(c->a, headline[i]) && res_has_metric(c->b, headline[i]) &&
		    !picked(c, headline[i]) && add_metric(c, headline[i]))
			return -ENOMEM;
	}
	if (c->nmetrics)
		return 0;
	char list[600];
	size_t n = 0;
	list[0] = 0;
	for (size_t i = 0; i < c->a->nmetrics && n + 40 < sizeof(list); i++)
		if (res_has_metric(c->b, c->a->metrics[i]))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "",
					      c->a->metrics[i]);
	return fail(err, errlen, "%s and %s share none of the usual rate metrics (ndr_pps, "
		    "pdr_pps, fwd_pps, ...); choose with --metric (common: %s)", c->a->path,
		    c->b->path, n ? list : "none");
}

static int all_zero(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] != 0)
			return 0;
	return 1;
}

static int any_nonpositive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 1;
	return 0;
}

/* exp(mean(ln v)): the location the verdict's ratio compares; NaN for none or a value
 * that is not positive */
static double gmean(const double *v, size_t n)
{
	double s = 0;
	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		s += log(v[i]);
	}
	return exp(s / (double)n);
}

static void compute_row(struct cmp *c, struct cmp_row *r, const double *va,
			const double *vb)
{
	size_t m = r->sa.s.n, n = r->sb.s.n;
	r->p_adj = NAN;
	r->gmean_a = gmean(va, m);
	r->gmean_b = gmean(vb, n);
	st_csit_delta(r->sa.s.mean, r->sa.s.pstdev, r->sb.s.mean, r->sb.s.pstdev,
		      &r->csit_delta_pct, &r->csit_sdelta_pct);
	r->verdict = ST_INCONCLUSIVE;
	r->w = (struct st_welch){ .m = m, .n = n, .d = NAN, .se = NAN, .nu = NAN,
				  .t_crit = NAN, .t_stat = NAN, .ratio = NAN, .ci_lo = NAN,
				  .ci_hi = NAN, .p = NAN };
	if (!m || !n) {
		r->note = !m ? "no value in the baseline" : "no value in this run";
		return;
	}
	if (all_zero(va, m) && all_zero(vb, n)) {
		/* e.g. zero loss on both sides: nothing changed, and no ratio to test */
		r->w.ratio = r->w.ci_lo = r->w.ci_hi = 1;
		r->verdict = ST_EQUIVALENT;
		r->note = "zero on both sides";
		return;
	}
	if (any_nonpositive(va, m) || any_nonpositive(vb, n)) {
		r->note = "zero or negative values: no ratio on a log scale";
		return;
	}
	int rc = st_welch_log(va, m, vb, n, c->floor, &r->w);
	if (rc) {
		r->note = m < 2 ? "single repetition in the baseline"
			      : "single repetition in this run";
		return;
	}
	r->verdict = st_verdict(r->w.ratio, r->w.ci_lo, r->w.ci_hi, c->margin,
				r->lower_is_better);
}

/* BH per metric across cells, then change verdicts that do not survive it are
 * demoted to INCONCLUSIVE. */
static int apply_bh(struct cmp *c)
{
	double *p = malloc((c->nrows + 1) * sizeof(*p)), *q = malloc((c->nrows + 1) * sizeof(*q));
	size_t *idx = malloc((c->nrows + 1) * sizeof(*idx));
	int rc = 0;
	if (!p || !q || !idx) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t m = 0; m < c->nmetrics; m++) {
		size_t k = 0;
		for (size_t i = 0; i < c->nrows; i++)
			if (!strcmp(c->rows[i].metric, c->metrics[m])) {
				p[k] = c->rows[i].w.p;
				idx[k++] = i;
			}
		if ((rc = st_bh(p, k, q)))
			goto out;
		for (size_t j = 0; j < k; j++) {
			struct cmp_row *r = &c->rows[idx[j]];
			r->p_adj = q[j];
			if ((r->verdict == ST_REGRESSION || r->verdict == ST_PROGRESSION ||
			     r->verdict == ST_SMALL_CHANGE) && !(q[j] <= c->alpha)) {
				r->verdict = ST_INCONCLUSIVE;
				r->note = "not significant after Benjamini-Hochberg";
			}
		}
	}
out:
	free(p);
	free(q);
	free(idx);
	return rc;
}

/* How a case's fwd_pps was measured: the case's "fwd_rate_from", else its last
 * trial's; NULL when the file does not say (older files, fixtures). */
static const char *case_method(const struct res_case *c)
{
	const char *m = json_string_value(json_object_get(c->obj, "fwd_rate_from"));
	if (m)
		return m;
	json_t *tr = json_object_get(c->obj, "trials");
	return json_string_value(json_object_get(json_array_get(tr, json_array_size(tr) - 1),
						 "fwd_rate_from"));
}

/* The one method of a cell's cases that say one; "" when none says, NULL when they
 * differ (the first two in *x, *y). */
static const char *cell_method(const struct res_file *rf, size_t cell, const char **x,
			       const char **y)
{
	const char *m = "";
	for (size_t k = 0; k < rf->cells[cell].ncases; k++) {
		const struct res_case *c = &rf->cases[rf->cells[cell].cases[k]];
		const char *cm = c->failed ? NULL : case_method(c);
		if (!cm)
			continue;
		if (*m && strcmp(m, cm)) {
			*x = m;
			*y = cm;
			return NULL;
		}
		m = cm;
	}
	return m;
}

/* Forwarding rates measured two ways (the load window's interface counters, or test
 * frames over the sender's time, which also counts a backlog) are not one quantity. */
static bool rate_metric(const char *m)
{
	return !strncmp(m, "fwd_pps", 7) || !strcmp(m, "mfr_pps");
}

static int check_methods(const struct cmp *c, long ia, long ib, const char *metric,
			 char *err, size_t errlen)
{
	const char *x = NULL, *y = NULL;
	const char *ma = cell_method(c->a, (size_t)ia, &x, &y);
	if (!ma)
		return fail(err, errlen, "%s, cell %s: %s was measured by \"%s\" in some "
			    "repetitions and by \"%s\" in others: not one quantity (LAB.md, "
			    "\"Forwarding rate\"); --mix-methods compares anyway", c->a->path,
			    c->a->cells[ia].key, metric, x, y);
	const char *mb = cell_method(c->b, (size_t)ib, &x, &y);
	if (!mb)
		return fail(err, errlen, "%s, cell %s: %s was measured by \"%s\" in some "
			    "repetitions and by \"%s\" in others: not one quantity (LAB.md, "
			    "\"Forwarding rate\"); --mix-methods compares anyway", c->b->path,
			    c->b->cells[ib].key, metric, x, y);
	if (*ma && *mb && strcmp(ma, mb))
		return fail(err, errlen, "cell %s: %s was measured by \"%s\" in %s and by \"%s\" "
			    "in %s: not one quantity (LAB.md, \"Forwarding rate\"); --mix-methods "
			    "compares anyway", c->a->cells[ia].key, metric, ma, c->a->path, mb,
			    c->b->path);
	return 0;
}

int cmp_run(const struct res_file *a, const struct res_file *b, const struct cmp_opts *o,
	    struct cmp **out, char *err, size_t errlen)
{
	struct cmp *c = calloc(1, sizeof(*c));
	double *va = NULL, *vb = NULL;
	int rc = -ENOMEM;
	if (!c)
		return -ENOMEM;
	c->a = a;
	c->b = b;
	c->margin = o->margin;
	c->alpha = o->alpha;
	c->floor = o->floor;
	if (c->floor < 0) {
		/* f ≈ width/2 of the search; fixed trials have none: 0.25 %
		 * (docs/design/methodology.md#variance-floor) */
		double w = fmax(cmp_goal_width(a), cmp_goal_width(b));
		c->floor = isfinite(w) && w > 0 ? w / 2 : 0.0025;
	}
	if (o->where) {
		const struct res_file *f[] = { a, b };
		for (size_t i = 0; i < 2; i++)
			if ((rc = res_sel_check(f[i], o->where, "--where", err, errlen)))
				goto fail;
	}
	if ((rc = pick_metrics(c, o, err, errlen)))
		goto fail;
	rc = -ENOMEM;
	size_t maxrows = a->ncells * c->nmetrics + 1;
	c->rows = calloc(maxrows, sizeof(*c->rows));
	c->only_a = calloc(a->ncells + 1, sizeof(*c->only_a));
	c->only_b = calloc(b->ncells + 1, sizeof(*c->only_b));
	size_t cap = 1;
	for (size_t i = 0; i < a->ncells; i++)
		cap = a->cells[i].ncases > cap ? a->cells[i].ncases : cap;
	for (size_t i = 0; i < b->ncells; i++)
		cap = b->cells[i].ncases > cap ? b->cells[i].ncases : cap;
	va = malloc(cap * sizeof(*va));
	vb = malloc(cap * sizeof(*vb));
	if (!c->rows || !c->only_a || !c->only_b || !va || !vb)
		goto fail;
	for (size_t i = 0; i < a->ncells; i++) {
		if (!res_params_match(a->cells[i].params, o->where))
			continue;
		long j = res_find_canon(b, a->cells[i].canon);
		if (j < 0) {
			c->only_a[c->n_only_a++] = i;
			continue;
		}
		for (size_t m = 0; m < c->nmetrics; m++) {
			struct cmp_row *r = &c->rows[c->nrows];
			memset(r, 0, sizeof(*r));
			r->cell_a = (long)i;
			r->cell_b = j;
			r->metric = c->metrics[m];
			/* a goal's rate is higher-better, whatever words its name has
			 * ("LowLoss" is no loss) */
			r->lower_is_better = is_goal(a, r->metric)
					     ? listed(r->metric, o->lower, o->nlower)
					     : name_lower_in(r->metric, o->lower, o->nlower);
			if (res_cell_stats(a, i, r->metric, &r->sa, va) ||
			    res_cell_stats(b, (size_t)j, r->metric, &r->sb, vb))
				goto fail;
			/* a metric that applies to neither side (fwd_pps_b of a one-way run) */
			if (!r->sa.s.n && !r->sb.s.n)
				continue;
			if (rate_metric(r->metric) &&
			    (rc = check_methods(c, (long)i, j, r->metric, err, errlen))) {
				if (!o->mix_methods)
					goto fail;
				rc = -ENOMEM;   /* what a later goto fail means */
				r->note = "fwd_pps measured two ways (--mix-methods)";
			}
			r->flagged = r->sa.flagged || r->sb.flagged;
			compute_row(c, r, va, vb);
			c->nrows++;
		}
	}
	for (size_t j = 0; j < b->ncells; j++)
		if (res_params_match(b->cells[j].params, o->where) &&
		    res_find_canon(a, b->cells[j].canon) < 0)
			c->only_b[c->n_only_b++] = j;
	if ((rc = apply_bh(c)))
		goto fail;
	for (size_t i = 0; i < c->nrows; i++)
		c->counts[c->rows[i].verdict]++;
	free(va);
	free(vb);
	*out = c;
	return 0;
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(va);
	free(vb);
	cmp_free(c);
	return rc;
}

int cmp_split(const struct res_file *rf, const char *axis, const json_t *value,
	      struct res_file **out, char *err, size_t errlen)
{
	char vb[256], name[512];
	snprintf(name, sizeof(name), "%s=%s", axis, res_value_str(value, vb, sizeof(vb)));
	json_t *root = json_object(), *cases = json_array(), *env = NULL;
	int rc = -ENOMEM;
	*out = NULL;
	if (!root || !cases || json_object_update(root, rf->root))
		goto out;
	json_t *renv = NULL;
	size_t n = 0;
	for (size_t i = 0; i < rf->ncases; i++) {
		const struct res_case *c = &rf->cases[i];
		const json_t *v = json_object_get(c->params, axis);
		if (!v || !res_value_eq(v, value))
			continue;
		json_t *cc = json_object(), *pa = json_deep_copy(c->params);
		if (!cc || !pa || json_object_update(cc, c->obj) || json_object_del(pa, axis) ||
		    json_object_set_new(cc, "params", pa) || json_array_append_new(cases, cc)) {
			json_decref(cc);
			json_decref(pa);
			goto out;
		}
		if (!renv && !c->failed && json_is_object(json_object_get(c->obj, "router_env")))
			renv = json_object_get(c->obj, "router_env");
		n++;
	}
	if (!n) {
		snprintf(err, errlen, "%s: no case has %s", rf->path, name);
		rc = -ENOENT;
		goto out;
	}
	json_object_set(root, "cases", cases);
	json_object_del(root, "summary");
	/* the matrix without the axis */
	json_t *m = json_object_get(rf->root, "matrix"), *axes = json_object_get(m, "axes");
	if (json_is_object(m) && json_is_object(axes)) {
		json_t *m2 = json_object(), *a2 = json_object();
		bool ok = m2 && a2 && !json_object_update(m2, m) && !json_object_update(a2, axes);
		if (ok)
			json_object_del(a2, axis);
		ok = ok && !json_object_set(m2, "axes", a2) && !json_object_set(root, "matrix", m2);
		json_decref(m2);
		json_decref(a2);
		if (!ok)
			goto out;
	}
	/* the router the value's cases ran on */
	json_t *e = json_object_get(rf->root, "environment");
	if (renv && json_is_object(e)) {
		json_t *d0 = json_object_get(e, "dut"), *dut = json_object();
		env = json_object();
		bool ok = env && dut && !json_object_update(env, e) &&
			  !(json_is_object(d0) && json_object_update(dut, d0)) &&
			  !json_object_update(dut, renv) && !json_object_set(env, "dut", dut) &&
			  !json_object_set(root, "environment", env);
		json_decref(dut);
		if (!ok)
			goto out;
	}
	rc = res_from_json(root, name, out, err, errlen);
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	json_decref(env);
	json_decref(cases);
	json_decref(root);
	return rc;
}

json_t *cmp_json(struct cmp *const *cs, size_t n)
{
	const struct cmp *c0 = cs[0];
	json_t *o = json_object();
	json_object_set_new(o, "schema", json_string("ppslab/compare"));
	json_object_set_new(o, "schema_version", json_string("1.0.0"));
	json_object_set_new(o, "baseline_run_id", c0->a->run_id ? json_string(c0->a->run_id)
								 : json_null());
	json_object_set_new(o, "baseline_file", json_string(c0->a->path));
	json_object_set_new(o, "candidate_run_id", c0->b->run_id ? json_string(c0->b->run_id)
								  : json_null());
	json_object_set_new(o, "candidate_file", json_string(c0->b->path));
	json_t *cands = json_array();
	for (size_t k = 0; k < n; k++) {
		json_t *e = json_object();
		json_object_set_new(e, "file", json_string(cs[k]->b->path));
		json_object_set_new(e, "run_id", cs[k]->b->run_id ? json_string(cs[k]->b->run_id)
								  : json_null());
		json_array_append_new(cands, e);
	}
	json_object_set_new(o, "candidates", cands);
	jset_f(o, "margin", c0->margin);
	jset_f(o, "alpha", c0->alpha);
	jset_f(o, "floor", c0->floor);
	json_object_set_new(o, "fdr", json_string("BH"));
	json_object_set_new(o, "statistic", json_string("welch-log"));
	json_t *rows = json_array(), *oa = json_array(), *ob = json_array();
	json_t *counts = json_object();
	for (size_t k = 0; k < n; k++) {
		const struct cmp *c = cs[k];
		json_t *rid = c->b->run_id ? json_string(c->b->run_id) : json_null();
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			json_t *e = json_object();
			json_object_set(e, "candidate_run_id", rid);
			json_object_set_new(e, "candidate", json_string(c->b->path));
			json_object_set_new(e, "key", json_string(c->a->cells[r->cell_a].key));
			json_object_set(e, "params", c->a->cells[r->cell_a].params);
			json_object_set_new(e, "metric", json_string(r->metric));
			json_object_set_new(e, "lower_is_better", json_boolean(r->lower_is_better));
			json_object_set_new(e, "n_a", json_integer((json_int_t)r->sa.s.n));
			json_object_set_new(e, "n_b", json_integer((json_int_t)r->sb.s.n));
			jset_f(e, "median_a", r->sa.s.median);
			jset_f(e, "median_b", r->sb.s.median);
			jset_f(e, "gmean_a", r->gmean_a);
			jset_f(e, "gmean_b", r->gmean_b);
			jset_f(e, "ratio", r->w.ratio);
			jset_f(e, "ci_lo", r->w.ci_lo);
			jset_f(e, "ci_hi", r->w.ci_hi);
			jset_f(e, "df", r->w.nu);
			jset_f(e, "p", r->w.p);
			jset_f(e, "p_adj", r->p_adj);
			json_object_set_new(e, "verdict", json_string(st_verdict_name(r->verdict)));
			json_object_set_new(e, "note", r->note ? json_string(r->note) : json_null());
			json_object_set_new(e, "flagged", json_boolean(r->flagged));
			jset_f(e, "csit_delta_pct", r->csit_delta_pct);
			jset_f(e, "csit_sdelta_pct", r->csit_sdelta_pct);
			json_array_append_new(rows, e);
		}
		for (size_t i = 0; i < c->n_only_a; i++) {
			json_t *e = json_object();
			json_object_set(e, "candidate_run_id", rid);
			json_object_set_new(e, "key", json_string(c->a->cells[c->only_a[i]].key));
			json_object_set(e, "params", c->a->cells[c->only_a[i]].params);
			json_array_append_new(oa, e);
		}
		for (size_t i = 0; i < c->n_only_b; i++) {
			json_t *e = json_object();
			json_object_set(e, "candidate_run_id", rid);
			json_object_set_new(e, "key", json_string(c->b->cells[c->only_b[i]].key));
			json_object_set(e, "params", c->b->cells[c->only_b[i]].params);
			json_array_append_new(ob, e);
		}
		json_decref(rid);
		for (int v = ST_REGRESSION; v <= ST_INCONCLUSIVE; v++) {
			const char *name = st_verdict_name((enum st_verdict)v);
			json_int_t prev = json_integer_value(json_object_get(counts, name));
			json_object_set_new(counts, name, json_integer(prev + (json_int_t)c->counts[v]));
		}
	}
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "only_baseline", oa);
	json_object_set_new(o, "only_candidate", ob);
	json_object_set_new(o, "counts", counts);
	return o;
}

static char *fmt_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

/* Decimals for a metric's geometric means across both files. */
static int metric_decimals(const struct cmp *c, const char *metric)
{
	double maxabs = 0;
	int integral = 1;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (strcmp(r->metric, metric))
			continue;
		double v[] = { r->gmean_a, r->gmean_b };
		for (size_t k = 0; k < 2; k++)
			if (isfinite(v[k])) {
				maxabs = fmax(maxabs, fabs(v[k]));
				integral &= v[k] == floor(v[k]);
			}
	}
	return grid_decimals(maxabs, integral);
}

/* A verdict's colour on an HTML page: red a regression, green a progression, amber a
 * small change, grey an inconclusive one; text keeps no colour. */
static const char *verdict_style(const char *text)
{
	static const struct { const char *v, *style; } tab[] = {
		{ "REGRESSION", "color:#b00020;font-weight:bold" },
		{ "PROGRESSION", "color:#1b7f2a;font-weight:bold" },
		{ "SMALL_CHANGE", "color:#9a6700" },
		{ "INCONCLUSIVE", "color:#666" },
		{ "EQUIVALENT", "color:#1f4e8c" },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strncmp(text, tab[i].v, strlen(tab[i].v)))
			return tab[i].style;
	return NULL;
}

struct grid *cmp_grid(const struct cmp *c, enum grid_fmt fmt)
{
	/* The values shown are what the verdict compares: the ratio is of the geometric
	 * means (Welch t on log values), so the columns beside it are those, not medians,
	 * which may even differ in direction. The CSIT Δ compares arithmetic means, and
	 * says so. */
	static const char *const head[] = { "cell", "metric", "n", "baseline", "this run",
					    "this/baseline", "95% CI", "p adj",
					    "Δ of means (CSIT)", "verdict" };
	static const char *const head_csv[] = { "cell", "metric", "n_a", "n_b", "median_a",
						"median_b", "ratio", "ci_lo", "ci_hi", "p", "p_adj",
						"csit_delta_pct", "csit_sdelta_pct", "verdict",
						"note", "gmean_a", "gmean_b" };
	int csv = fmt == GRID_CSV;
	size_t nc = csv ? sizeof(head_csv) / sizeof(head_csv[0]) : sizeof(head) / sizeof(head[0]);
	struct grid *g = grid_new(nc);
	if (!g || grid_add_row(g) < 0) {
		grid_free(g);
		return NULL;
	}
	g->html_style = verdict_style;
	for (size_t i = 0; i < nc; i++) {
		grid_set(g, 0, i, csv ? head_csv[i] : head[i]);
		g->align[i] = i >= 2 && i + 1 < nc ? 'r' : 'l';
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		long row = grid_add_row(g);
		if (row < 0) {
			grid_free(g);
			return NULL;
		}
		size_t R = (size_t)row, k = 0;
		char a[64], b[64], t[128];
		const char *key = c->a->cells[r->cell_a].key;
		if (csv) {
			grid_set(g, R, k++, key);
			grid_set(g, R, k++, r->metric);
			grid_setf(g, R, k++, "%zu", r->sa.s.n);
			grid_setf(g, R, k++, "%zu", r->sb.s.n);
			double v[] = { r->sa.s.median, r->sb.s.median, r->w.ratio, r->w.ci_lo,
				       r->w.ci_hi, r->w.p, r->p_adj, r->csit_delta_pct,
				       r->csit_sdelta_pct };
			for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++)
				grid_set(g, R, k++, pv_raw(v[j], a, sizeof(a)));
			grid_set(g, R, k++, st_verdict_name(r->verdict));
			grid_set(g, R, k++, r->note ? r->note : "");
			grid_set(g, R, k++, pv_raw(r->gmean_a, a, sizeof(a)));
			grid_set(g, R, k++, pv_raw(r->gmean_b, a, sizeof(a)));
			continue;
		}
		int d = metric_decimals(c, r->metric);
		grid_setf(g, R, k++, "%s%s", key, r->flagged ? "*" : "");
		grid_set(g, R, k++, r->metric);
		grid_setf(g, R, k++, "%zu/%zu", r->sa.s.n, r->sb.s.n);
		grid_set(g, R, k++, isfinite(r->gmean_a) ? grid_num(r->gmean_a, d, a, sizeof(a)) : "-");
		grid_set(g, R, k++, isfinite(r->gmean_b) ? grid_num(r->gmean_b, d, a, sizeof(a)) : "-");
		grid_set(g, R, k++, isfinite(r->w.ratio) ? (snprintf(t, sizeof(t), "%.3f",
								     r->w.ratio), t) : "-");
		if (isfinite(r->w.ci_lo))
			grid_setf(g, R, k++, "[%.3f, %.3f]", r->w.ci_lo, r->w.ci_hi);
		else
			grid_set(g, R, k++, "-");
		grid_set(g, R, k++, fmt_p(r->p_adj, a, sizeof(a)));
		if (isfinite(r->csit_delta_pct) && isfinite(r->csit_sdelta_pct))
			grid_setf(g, R, k++, "%+.1f ± %.1f %%", r->csit_delta_pct,
				  r->csit_sdelta_pct);
		else
			grid_set(g, R, k++, "-");
		if (r->note && r->verdict == ST_INCONCLUSIVE)
			snprintf(t, sizeof(t), "%s (%s)", st_verdict_name(r->verdict), r->note);
		else
			snprintf(t, sizeof(t), "%s", st_verdict_name(r->verdict));
		grid_set(g, R, k++, t);
		(void)b;
	}
	return g;
}

static void env_row(struct grid *g, const char *label, const char *const *vals, size_t n)
{
	int any = 0;
	for (size_t i = 0; i < n; i++)
		any |= vals[i] && *vals[i];
	if (!any)
		return;
	long r = grid_add_row(g);
	if (r < 0)
		return;
	grid_set(g, (size_t)r, 0, label);
	for (size_t i = 0; i < n; i++)
		grid_set(g, (size_t)r, i + 1, vals[i] && *vals[i] ? vals[i] : "-");
}

#define MAXFILES 16

struct grid *cmp_env_grid(const struct res_file *const *files, size_t n)
{
	if (n > MAXFILES)
		n = MAXFILES;
	struct grid *g = grid_new(n + 1);
	if (!g || grid_add_row(g) < 0) {
		grid_free(g);
		return NULL;
	}
	char names[MAXFILES][300];
	for (size_t i = 0; i < n; i++) {
		if (n == 1)   /* a report's own environment: the run it is about */
			snprintf(names[i], sizeof(names[i]), "this run: %s", name_base(files[i]->path));
		else if (i == 0 || n == 2)
			snprintf(names[i], sizeof(names[i]), "%s: %s", i ? "this run" : "baseline",
				 name_base(files[i]->path));
		else
			snprintf(names[i], sizeof(names[i]), "run %zu: %s", i,
				 name_base(files[i]->path));
		grid_set(g, 0, i + 1, names[i]);
	}
	char buf[MAXFILES][512];
	const char *v[MAXFILES];
	/* fixed rows from the DUT's description */
	static const struct { const char *label; const char *k[4]; } rows[] = {
		{ "DUT OS", { "os", "name", NULL } },
		{ "version", { "os", "version", NULL } },
		{ "kernel", { "os", "kernel", NULL } },
		{ "CPU", { "cpu", "model", NULL } },
		{ "router", { "router", NULL } },
	};
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		for (size_t i = 0; i < n; i++) {
			json_t *box = res_get(files[i]->root, "environment", "dut", NULL);
			json_t *x = box;
			for (size_t k = 0; rows[r].k[k] && x; k++)
				x = json_object_get(x, rows[r].k[k]);
			v[i] = json_string_value(x);
			if (!strcmp(rows[r].label, "CPU") && v[i]) {
				json_t *cores = res_get(box, "cpu", "cores", NULL);
				if (json_is_integer(cores)) {
					snprintf(buf[i], sizeof(buf[i]), "%s, %lld cores", v[i],
						 (long long)json_integer_value(cores));
					v[i] = buf[i];
				}
			}
		}
		env_row(g, rows[r].label, v, n);
	}
	for (size_t i = 0; i < n; i++) {
		json_t *nics = res_get(files[i]->root, "environment", "dut", "nics", NULL);
		size_t o = 0;
		buf[i][0] = 0;
		size_t j;
		json_t *nic;
		json_array_foreach(nics, j, nic) {
			const char *nm = json_string_value(json_object_get(nic, "name"));
			const char *drv = json_string_value(json_object_get(nic, "driver"));
			json_t *sp = json_object_get(nic, "speed_mbps");
			if (o < sizeof(buf[i]))
				o += (size_t)snprintf(buf[i] + o, sizeof(buf[i]) - o, "%s%s%s%s%s",
						      j ? ", " : "", nm ? nm : "?",
						      drv ? " (" : "", drv ? drv : "", drv ? ")" : "");
			if (json_is_number(sp) && o < sizeof(buf[i]))
				o += (size_t)snprintf(buf[i] + o, sizeof(buf[i]) - o, " %.0f Mb/s",
						      json_number_value(sp));
		}
		v[i] = buf[i];
	}
	env_row(g, "NICs", v, n);
	static const char *const roles[] = { "sender", "sink" };
	for (size_t r = 0; r < 2; r++) {
		for (size_t i = 0; i < n; i++)
			v[i] = res_env_line(files[i], roles[r], buf[i], sizeof(buf[i]));
		env_row(g, roles[r], v, n);
	}
	/* every tunable any file has, in first-seen order */
	for (size_t i = 0; i < n; i++) {
		json_t *tun = res_get(files[i]->root, "environment", "dut", "tunables", NULL);
		const char *key;
		json_t *val;
		json_object_foreach(tun, key, val) {
			int seen = 0;
			for (size_t p = 0; p < i; p++)
				seen |= res_get(files[p]->root, "environment", "dut", "tunables", key,
						NULL) != NULL;
			if (seen)
				continue;
			for (size_t k = 0; k < n; k++) {
				json_t *x = res_get(files[k]->root, "environment", "dut", "tunables",
						    key, NULL);
				v[k] = x ? res_value_str(x, buf[k], sizeof(buf[k])) : "-";
			}
			env_row(g, key, v, n);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const char *t = json_string_value(res_get(files[i]->root, "method", "trial", NULL));
		json_t *ts = res_get(files[i]->root, "method", "trial_s", NULL);
		if (t && json_is_number(ts))
			snprintf(buf[i], sizeof(buf[i]), "%s, %g s trials", t, json_number_value(ts));
		else
			snprintf(buf[i], sizeof(buf[i]), "%s", t ? t : "");
		v[i] = buf[i];
	}
	env_row(g, "method", v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = files[i]->run_id;
	env_row(g, "run", v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = json_string_value(json_object_get(files[i]->root, "created_utc"));
	env_row(g, "created", v, n);
	return g;
}

void cmp_print(FILE *f, const struct cmp *c, enum grid_fmt fmt)
{
	int md = fmt == GRID_MD, html = fmt == GRID_HTML;
	char line[1024];
	snprintf(line, sizeof(line), "This run, %s, against the baseline, %s. baseline and "
		 "this run: geometric means of the repetitions; this/baseline: their ratio, "
		 "with its 95%% interval (Welch t on log values), which the verdict reads; "
		 "margin ±%g%%; variance floor %g%%; Benjamini-Hochberg per metric (α %g).",
		 name_base(c->b->path), name_base(c->a->path), c->margin * 100,
		 c->floor * 100, c->alpha);
	if (html) {
		fputs("<p>", f);
		grid_html_escape(f, line);
		fputs("</p>\n", f);
	} else {
		fprintf(f, "%s\n\n", line);
	}
	struct grid *g = c->nrows ? cmp_grid(c, fmt) : NULL;
	if (g)
		grid_print(f, g, fmt);
	else if (!c->nrows)
		fprintf(f, html ? "<p><b>No cell in common: nothing was compared.</b></p>\n"
			: "No cell in common: nothing was compared.\n");
	grid_free(g);
	int flagged = 0;
	for (size_t i = 0; i < c->nrows; i++)
		flagged |= c->rows[i].flagged;
	if (flagged)
		fprintf(f, html ? "<p>* includes flagged repetitions</p>\n"
			: md ? "\n\\* includes flagged repetitions\n" : "* includes flagged repetitions\n");
	for (size_t side = 0; side < 2; side++) {
		size_t n = side ? c->n_only_b : c->n_only_a;
		const struct res_file *rf = side ? c->b : c->a;
		if (!n)
			continue;
		fprintf(f, html ? "<p>Only in %s, %s (%zu cells): "
			: "\nOnly in %s, %s (%zu cells): ", side ? "this run" : "the baseline",
			name_base(rf->path), n);
		for (size_t i = 0; i < n; i++) {
			const char *k = rf->cells[side ? c->only_b[i] : c->only_a[i]].key;
			if (html) {
				fputs(i ? ", " : "", f);
				grid_html_escape(f, k);
			} else {
				fprintf(f, "%s%s%s%s", i ? ", " : "", md ? "`" : "", k, md ? "`" : "");
			}
		}
		fputs(html ? "</p>\n" : "\n", f);
	}
	fprintf(f, html ? "<p>" : "\n");
	fprintf(f, "Verdicts: %zu REGRESSION, %zu PROGRESSION, %zu EQUIVALENT, %zu SMALL_CHANGE, "
		"%zu INCONCLUSIVE.", c->counts[ST_REGRESSION], c->counts[ST_PROGRESSION],
		c->counts[ST_EQUIVALENT], c->counts[ST_SMALL_CHANGE], c->counts[ST_INCONCLUSIVE]);
	fprintf(f, html ? "</p>\n" : "\n");
}

int cmp_plot(struct cmp *const *cs, size_t n, const char *metric, const struct plot_out *o,
	     char *err, size_t errlen)
{
	const struct cmp *c0 = cs[0];
	size_t nsets = n + 1, nl = 0;
	const char **labels = calloc(c0->nrows + 1, sizeof(*labels));
	char **owned = calloc(c0->nrows + 1, sizeof(*owned));
	double *val = calloc((c0->nrows + 1) * nsets, sizeof(*val));
	double *er = calloc((c0->nrows + 1) * nsets, sizeof(*er));
	const char **sets = calloc(nsets, sizeof(*sets));
	char (*setn)[256] = calloc(nsets, sizeof(*setn));
	unsigned char *flg = calloc((c0->nrows + 1) * nsets, 1);
	json_t *reasons = json_object();
	size_t nflagged = 0;
	int rc = -ENOMEM;
	if (!labels || !owned || !val || !er || !sets || !setn || !flg || !reasons)
		goto out;
	for (size_t s = 0; s < nsets; s++) {
		const struct res_file *rf = s ? cs[s - 1]->b : c0->a;
		const char *os = json_string_value(res_get(rf->root, "environment", "dut", "os",
							   "name", NULL));
		const char *ver = json_string_value(res_get(rf->root, "environment", "dut", "os",
							    "version", NULL));
		char who[32];
		if (s == 0 || nsets == 2)
			snprintf(who, sizeof(who), "%s", s ? "this run" : "baseline");
		else
			snprintf(who, sizeof(who), "run %zu", s);
		snprintf(setn[s], sizeof(setn[s]), "%s: %s%s%s%s%s", who,
			 name_base(rf->path), os ? " (" : "", os ? os : "", ver ? " " : "",
			 ver ? ver : "");
		if (os)
			strcat(setn[s], ")");
		sets[s] = setn[s];
	}
	for (size_t i = 0; i < c0->nrows; i++) {
		const struct cmp_row *r = &c0->rows[i];
		if (strcmp(r->metric, metric))
			continue;
		int mark = 0;
		for (size_t s = 0; s < nsets; s++) {
			double v = NAN, e = NAN;
			const struct res_file *frf = NULL;
			long fcell = -1;
			if (s == 0) {
				v = r->sa.s.mean;
				e = r->sa.s.stdev;
				if (r->sa.flagged) {
					frf = c0->a;
					fcell = r->cell_a;
				}
			} else {
				/* the same cell and metric in candidate s */
				const struct cmp *c = cs[s - 1];
				for (size_t k = 0; k < c->nrows; k++)
					if (!strcmp(c->rows[k].metric, metric) &&
					    !strcmp(c->a->cells[c->rows[k].cell_a].canon,
						    c0->a->cells[r->cell_a].canon)) {
						v = c->rows[k].sb.s.mean;
						e = c->rows[k].sb.s.stdev;
						if (c->rows[k].sb.flagged) {
							frf = c->b;
							fcell = c->rows[k].cell_b;
						}
						mark |= c->rows[k].verdict == ST_REGRESSION ||
							c->rows[k].verdict == ST_PROGRESSION;
					}
			}
			val[nl * nsets + s] = v;
			er[nl * nsets + s] = isfinite(e) ? e : 0;
			if (frf && fcell >= 0 && isfinite(v)) {
				/* a bar whose repetitions were flagged is hatched, and the notes say
				 * why */
				char id[48];
				snprintf(id, sizeof(id), "%zu:%ld", s, fcell);
				flg[nl * nsets + s] = 1;
				nflagged++;
				if (pv_add_reasons(reasons, frf, (size_t)fcell, id))
					goto out;
			}
		}
		/* the values only ("3000/150/0"); the axis names go in the x label */
		char key[512];
		size_t ko = 0;
		key[0] = 0;
		for (size_t x = 0; x < c0->a->naxes && ko < sizeof(key); x++) {
			json_t *v = json_object_get(c0->a->cells[r->cell_a].params,
						    c0->a->axes[x].name);
			char vb[256];
			if (v)
				ko += (size_t)snprintf(key + ko, sizeof(key) - ko, "%s%s", ko ? "/" : "",
						       res_value_str(v, vb, sizeof(vb)));
		}
		size_t len = strlen(key) + 2;
		if (!(owned[nl] = malloc(len)))
			goto out;
		snprintf(owned[nl], len, "%s%s", key, mark ? "*" : "");
		labels[nl] = owned[nl];
		nl++;
	}
	if (!nl) {
		rc = fail(err, errlen, "--plot: no matched cell has %s on both sides", metric);
		goto out;
	}
	char title[512], yl[256], xl[512];
	size_t xo = 0;
	xl[0] = 0;
	for (size_t x = 0; x < c0->a->naxes && xo < sizeof(xl); x++)
		xo += (size_t)snprintf(xl + xo, sizeof(xl) - xo, "%s%s", xo ? "/" : "",
				       c0->a->axes[x].name);
	snprintf(title, sizeof(title), "%s: %s against the baseline %s (mean ± stdev; * = "
		 "regression or progression)", metric,
		 n > 1 ? "the runs" : name_base(cs[0]->b->path), name_base(c0->a->path));
	char notes[6][512];
	const char *np[6];
	size_t nn = plot_flag_notes(reasons, nflagged, "hatched bars", notes, 6);
	for (size_t i = 0; i < nn; i++)
		np[i] = notes[i];
	struct plot_bars b = {
		.title = title, .subtitle = NULL, .xlabel = xl,
		.ylabel = name_label(metric, yl, sizeof(yl)),
		.footer = "ppslab compare", .nsets = nsets, .set_names = sets, .nlabels = nl,
		.labels = labels, .value = val, .err = er, .flagged = flg, .notes = np,
		.nnotes = nn,
	};
	rc = plot_bars(&b, o, err, errlen);
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; owned && i < nl; i++)
		free(owned[i]);
	free(owned);
	free(labels);
	free(val);
	free(er);
	free(sets);
	free(setn);
	free(flg);
	json_decref(reasons);
	return rc;
}
