/* SPDX-License-Identifier: BSD-2-Clause */
/* t_compare.c — cell matching and verdicts of `ppslab compare` on hand-made files: cells
 * match whatever the order of axes and params keys (and 2 vs 2.0), cells on one side
 * only are listed, an identical cell is EQUIVALENT, a 10 % drop is a REGRESSION (for
 * latency a 10 % rise), a single repetition is INCONCLUSIVE, a marginal change that
 * does not survive Benjamini–Hochberg is INCONCLUSIVE, and the JSON carries it all. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "tap.h"

/* One case: params in the order given by yx_order, values as given. */
static void add_case(json_t *cases, int yx_order, double x, int rep, double fwd, double lat)
{
	json_t *p = yx_order ? json_pack("{s:s,s:f}", "y", "a", "x", x)
			     : json_pack("{s:i,s:s}", "x", (int)x, "y", "a");
	json_t *m = json_pack("{s:f,s:f}", "fwd_pps", fwd, "lat_p99_ns", lat);
	json_array_append_new(cases, json_pack("{s:i,s:o,s:s,s:o}", "rep", rep, "params", p,
					       "status", "ok", "metrics", m));
}

static struct res_file *doc(const char *name, json_t *cases, int yx_order)
{
	json_t *axes = yx_order ? json_pack("{s:[s],s:[i,i,i]}", "y", "a", "x", 1, 2, 4)
				: json_pack("{s:[i,i,i],s:[s]}", "x", 1, 2, 3, "y", "a");
	json_t *root = json_pack("{s:s,s:s,s:s,s:{s:o},s:o}", "schema", "ppslab/result",
				 "schema_version", "1.0.0", "run_id", name, "matrix", "axes", axes,
				 "cases", cases);
	struct res_file *rf = NULL;
	char err[512];
	if (res_from_json(root, name, &rf, err, sizeof(err)))
		T_FAIL("%.400s", err);
	json_decref(root);
	return rf;
}

static const struct cmp_row *row(const struct cmp *c, const char *key, const char *metric)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->a->cells[c->rows[i].cell_a].key, key) &&
		    !strcmp(c->rows[i].metric, metric))
			return &c->rows[i];
	return NULL;
}

static void t_match_and_verdicts(void)
{
	json_t *ca = json_array(), *cb = json_array();
	static const double base[] = { 1000, 1001, 999 };
	for (int r = 0; r < 3; r++) {
		add_case(ca, 0, 1, r + 1, base[r], 100 * base[r] / 1000);
		add_case(ca, 0, 2, r + 1, 2 * base[r], 200 * base[r] / 1000);
		add_case(ca, 0, 3, r + 1, 3 * base[r], 300 * base[r] / 1000);
		add_case(ca, 0, 5, r + 1, 5 * base[r], 500 * base[r] / 1000);
		/* B lists its axes and params keys the other way round, x as a real */
		add_case(cb, 1, 1, r + 1, base[r], 100 * base[r] / 1000);
		add_case(cb, 1, 2, r + 1, 0.9 * 2 * base[r], 1.1 * 200 * base[r] / 1000);
		add_case(cb, 1, 4, r + 1, 4 * base[r], 400 * base[r] / 1000);
	}
	add_case(cb, 1, 5, 1, 5000, 500);
	struct res_file *a = doc("A", ca, 0), *b = doc("B", cb, 1);
	if (!a || !b)
		goto out;
	const char *m[] = { "fwd_pps", "lat_p99_ns" };
	struct cmp_opts o = { .margin = 0.02, .alpha = 0.05, .floor = -1, .metrics = m,
			      .nmetrics = 2 };
	struct cmp *c = NULL;
	char err[512];
	T_EQ_INT(cmp_run(a, b, &o, &c, err, sizeof(err)), 0);
	if (!c)
		goto out;
	T_NEAR(c->floor, 0.0025, 0);   /* no search width in these files */
	T_EQ_U64(c->nrows, 6);         /* x = 1, 2, 5 × two metrics */
	T_EQ_U64(c->n_only_a, 1);
	T_EQ_U64(c->n_only_b, 1);
	T_STREQ(a->cells[c->only_a[0]].key, "x=3/y=a");
	T_STREQ(b->cells[c->only_b[0]].key, "y=a/x=4");
	const struct cmp_row *r = row(c, "x=1/y=a", "fwd_pps");
	T_TRUE(r && r->verdict == ST_EQUIVALENT && fabs(r->w.ratio - 1) < 1e-12);
	r = row(c, "x=2/y=a", "fwd_pps");
	T_TRUE(r && r->verdict == ST_REGRESSION);
	if (r) {
		T_NEAR(r->w.ratio, 0.9, 1e-9);
		T_TRUE(r->w.ci_hi < 0.98 && r->p_adj < 0.05);
		T_NEAR(r->csit_delta_pct, -10, 1e-9);
		T_TRUE(!r->lower_is_better);
	}
	r = row(c, "x=2/y=a", "lat_p99_ns");
	T_TRUE(r && r->lower_is_better && r->verdict == ST_REGRESSION);
	r = row(c, "x=5/y=a", "fwd_pps");
	T_TRUE(r && r->verdict == ST_INCONCLUSIVE && r->note &&
	       strstr(r->note, "single repetition in this run"));
	T_EQ_U64(c->counts[ST_REGRESSION], 2);
	T_EQ_U64(c->counts[ST_EQUIVALENT], 2);
	T_EQ_U64(c->counts[ST_INCONCLUSIVE], 2);

	struct cmp *cs[] = { c };
	json_t *j = cmp_json(cs, 1);
	T_STREQ(json_string_value(json_object_get(j, "schema")), "ppslab/compare");
	T_STREQ(json_string_value(json_object_get(j, "baseline_run_id")), "A");
	T_STREQ(json_string_value(json_object_get(j, "candidate_run_id")), "B");
	T_STREQ(json_string_value(json_object_get(j, "fdr")), "BH");
	T_NEAR(json_number_value(json_object_get(j, "margin")), 0.02, 0);
	json_t *rows = json_object_get(j, "rows");
	T_EQ_U64(json_array_size(rows), 6);
	json_t *r3 = json_array_get(rows, 2);   /* x=2 fwd_pps */
	T_STREQ(json_string_value(json_object_get(r3, "key")), "x=2/y=a");
	T_STREQ(json_string_value(json_object_get(r3, "verdict")), "REGRESSION");
	static const char *const keys[] = { "key", "params", "metric", "n_a", "n_b", "ratio",
					    "ci_lo", "ci_hi", "p", "p_adj", "verdict",
					    "csit_delta_pct", "csit_sdelta_pct" };
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!json_object_get(r3, keys[k]))
			T_FAIL("row lacks %s", keys[k]);
	T_STREQ(json_string_value(json_object_get(json_array_get(json_object_get(j,
		"only_candidate"), 0), "key")), "y=a/x=4");
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(j, "counts"), "REGRESSION")), 2);
	json_decref(j);

	/* the result table and its text */
	struct grid *g = cmp_grid(c, GRID_TEXT);
	T_TRUE(g && g->nrows == 7);
	if (g) {
		T_STREQ(grid_get(g, 3, 0), "x=2/y=a");
		T_STREQ(grid_get(g, 0, 3), "baseline");
		T_STREQ(grid_get(g, 0, 4), "this run");
		T_STREQ(grid_get(g, 3, 5), "0.900");
		T_STREQ(grid_get(g, 3, 9), "REGRESSION");
		T_STREQ(grid_get(g, 3, 8), "-10.0 ± 0.1 %");
		/* the values shown are what the ratio compares: their quotient is 0.900 */
		const struct cmp_row *r3r = row(c, "x=2/y=a", "fwd_pps");
		T_TRUE(r3r && fabs(r3r->gmean_b / r3r->gmean_a - r3r->w.ratio) < 1e-9);
	}
	grid_free(g);
	cmp_free(c);

	/* default metrics: the headline rates both have, here fwd_pps only */
	struct cmp_opts d = { .margin = 0.02, .alpha = 0.05, .floor = -1 };
	T_EQ_INT(cmp_run(a, b, &d, &c, err, sizeof(err)), 0);
	if (c) {
		T_EQ_U64(c->nmetrics, 1);
		T_STREQ(c->metrics[0], "fwd_pps");
	}
	cmp_free(c);
	/* a metric one side lacks is an error naming the file */
	const char *bad[] = { "ndr_pps" };
	struct cmp_opts e = { .margin = 0.02, .alpha = 0.05, .floor = -1, .metrics = bad,
			      .nmetrics = 1 };
	T_EQ_INT(cmp_run(a, b, &e, &c, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "--metric ndr_pps: no case in A") != NULL);
out:
	res_free(a);
	res_free(b);
}

static void t_self_and_bh(void)
{
	/* ten cells; B equals A except a 4 % drop in x=1 with enough noise that its p
	 * (≈0.02) does not survive Benjamini–Hochberg across the ten cells */
	json_t *ca = json_array(), *cb = json_array();
	static const double base[] = { 100, 101, 99 }, moved[] = { 96, 97.5, 95 };
	for (int x = 1; x <= 10; x++)
		for (int r = 0; r < 3; r++) {
			add_case(ca, 0, x, r + 1, base[r] * x, 10);
			add_case(cb, 0, x, r + 1, (x == 1 ? moved[r] : base[r]) * x, 10);
		}
	struct res_file *a = doc("A", ca, 0), *b = doc("B", cb, 0);
	if (!a || !b)
		goto out;
	struct cmp_opts o = { .margin = 0.02, .alpha = 0.05, .floor = -1 };
	struct cmp *c = NULL;
	char err[256];
	T_EQ_INT(cmp_run(a, b, &o, &c, err, sizeof(err)), 0);
	if (c) {
		const struct cmp_row *r = row(c, "x=1/y=a", "fwd_pps");
		T_TRUE(r != NULL);
		if (r) {
			/* on its own it would be a regression ... */
			T_EQ_INT(st_verdict(r->w.ratio, r->w.ci_lo, r->w.ci_hi, 0.02, 0),
				 ST_REGRESSION);
			T_TRUE(r->w.p < 0.05);
			/* ... but not among ten cells */
			T_NEAR(r->p_adj, r->w.p * 10, 1e-12);
			T_EQ_INT(r->verdict, ST_INCONCLUSIVE);
			T_TRUE(r->note && strstr(r->note, "Benjamini"));
		}
		T_EQ_U64(c->counts[ST_REGRESSION], 0);
	}
	cmp_free(c);
	/* a file against itself: nothing but EQUIVALENT or INCONCLUSIVE */
	T_EQ_INT(cmp_run(a, a, &o, &c, err, sizeof(err)), 0);
	if (c) {
		T_EQ_U64(c->nrows, 10);
		T_EQ_U64(c->counts[ST_REGRESSION] + c->counts[ST_PROGRESSION] +
			 c->counts[ST_SMALL_CHANGE], 0);
		T_EQ_U64(c->n_only_a + c->n_only_b, 0);
	}
	cmp_free(c);
out:
	res_free(a);
	res_free(b);
}

/* forwarding rates measured two ways are not one quantity: refused unless asked */
static void t_methods(void)
{
	json_t *ca = json_array(), *cb = json_array();
	static const double base[] = { 1000, 1001, 999 };
	for (int r = 0; r < 3; r++) {
		add_case(ca, 0, 1, r + 1, base[r], 100);
		add_case(cb, 0, 1, r + 1, base[r], 100);
		add_case(ca, 0, 2, r + 1, base[r], 100);
		add_case(cb, 0, 2, r + 1, base[r], 100);
	}
	size_t i;
	json_t *c;
	json_array_foreach(ca, i, c)
		json_object_set_new(c, "fwd_rate_from", json_string("interface counters, load window"));
	json_array_foreach(cb, i, c)   /* B's x=2 fell back, in its last trial */
		if (json_real_value(json_object_get(json_object_get(c, "params"), "x")) == 2 ||
		    json_integer_value(json_object_get(json_object_get(c, "params"), "x")) == 2)
			json_object_set_new(c, "trials", json_pack("[{s:s}]", "fwd_rate_from",
								   "test frames / sender's time"));
	struct res_file *a = doc("A", ca, 0), *b = doc("B", cb, 0);
	struct cmp_opts o = { .margin = 0.02, .alpha = 0.05, .floor = -1 };
	struct cmp *cm = NULL;
	char err[512];
	if (!a || !b)
		goto out;
	T_EQ_INT(cmp_run(a, b, &o, &cm, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "cell x=2/y=a: fwd_pps was measured by \"interface counters, load "
		      "window\" in A and by \"test frames / sender's time\" in B") != NULL);
	T_TRUE(strstr(err, "--mix-methods") != NULL);
	/* a latency comparison does not care */
	const char *lat[] = { "lat_p99_ns" };
	o.metrics = lat;
	o.nmetrics = 1;
	T_EQ_INT(cmp_run(a, b, &o, &cm, err, sizeof(err)), 0);
	cmp_free(cm);
	cm = NULL;
	o.metrics = NULL;
	o.nmetrics = 0;
	o.mix_methods = true;
	T_EQ_INT(cmp_run(a, b, &o, &cm, err, sizeof(err)), 0);
	if (cm) {
		const struct cmp_row *r = row(cm, "x=2/y=a", "fwd_pps");
		T_TRUE(r && r->note && strstr(r->note, "two ways"));
	}
	cmp_free(cm);
	/* within one file: repetitions measured two ways */
	o.mix_methods = false;
	json_object_set_new(json_array_get(ca, 0), "fwd_rate_from",
			    json_string("test frames / sender's time"));
	json_incref(ca);   /* a's document owns it */
	res_free(a);
	a = doc("A", ca, 0);
	T_EQ_INT(cmp_run(a, a, &o, &cm, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "in some repetitions") != NULL);
out:
	res_free(a);
	res_free(b);
}

static void t_verdict_names(void)
{
	T_EQ_INT(cmp_verdict_parse("regression"), ST_REGRESSION);
	T_EQ_INT(cmp_verdict_parse("SMALL_CHANGE"), ST_SMALL_CHANGE);
	T_EQ_INT(cmp_verdict_parse("small-change"), ST_SMALL_CHANGE);
	T_EQ_INT(cmp_verdict_parse("inconclusive"), ST_INCONCLUSIVE);
	T_EQ_INT(cmp_verdict_parse("regress"), -1);
	T_EQ_INT(cmp_verdict_parse(""), -1);
}

int main(void)
{
	T_RUN(t_match_and_verdicts);
	T_RUN(t_self_and_bh);
	T_RUN(t_methods);
	T_RUN(t_verdict_names);
	return t_done();
}
