/* SPDX-License-Identifier: BSD-2-Clause */
/* t_trend.c — the segmentation of `ppslab trend` on series with known change points,
 * checked against numbers worked out by hand (the working is in the comments): no
 * change, one step, two steps, a step in the newest run, a whole-run outlier and a
 * single-repetition outlier that must not split a group (one repetition per run too),
 * noise at and below the margin, a step below the margin, latency (lower is better),
 * zero values; then labels (natural order, dotted keys) and series built from
 * hand-made results files: cells missing in some runs, an axis as the label. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trend.h"
#include "trendseg.h"

#define MAXR 16

/* Run i has three repetitions level[i]·{0.99, 1, 1.01}·100,000 (or one, level·100,000).
 * The three logs around ln(level) are ln .99, 0, ln 1.01: their sample variance is
 * s² = ((−0.010017)² + 0.000033² + 0.009984²)/2 = 1.00008e-4, the same in every run. */
struct series {
	double v[MAXR][3];
	struct tseg_run r[MAXR];
	size_t n;
};

static void make(struct series *s, const double *level, size_t n, size_t reps)
{
	static const double spread[] = { 0.99, 1, 1.01 };
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < reps; j++)
			s->v[i][j] = 1e5 * level[i] * (reps == 1 ? 1 : spread[j]);
		s->r[i].v = s->v[i];
		s->r[i].n = reps;
	}
}

static const struct tseg_opts opts = { .margin = 0.02, .floor = 0.0025 };

static int seg(struct series *s, const struct tseg_opts *o, struct tseg_result *res)
{
	int rc = tseg_segment(s->r, s->n, o ? o : &opts, res);
	if (rc)
		T_FAIL("tseg_segment: %d", rc);
	return rc;
}

static void t_penalty_and_chi2(void)
{
	/* β = 1.5 ln N + 1: N = 10 → 1.5·2.302585 + 1 */
	T_NEAR(tseg_beta(10), 4.453878, 1e-6);
	T_NEAR(tseg_beta(1), 1, 0);
	/* weights 1, 1, 2 on 0, 3, 3: mean 2.25, χ² = 2.25² + 0.75² + 2·0.75² = 6.75 */
	double y[] = { 0, 3, 3 }, w[] = { 1, 1, 2 };
	T_NEAR(tseg_chi2(y, w, 0, 3), 6.75, 1e-12);
	T_NEAR(tseg_chi2(y, w, 1, 3), 0, 1e-12);
}

static void t_no_change(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 1, 1 };
	make(&s, lv, 5, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 1);
	T_EQ_INT(r.has_newest, 0);
	/* the geometric mean of 99, 100, 101 (thousand): ∛999,900 · 1000 = 99,996.67 */
	T_NEAR(r.level[0], 99996.667, 0.001);
	T_NEAR(r.lambda, 1, 0);
	/* q = ln(1.02)/2 */
	T_NEAR(r.q, 0.00990131, 1e-8);
	tseg_free(&r);
}

static void t_one_step(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 0.8, 0.8, 0.8 };
	make(&s, lv, 6, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 2);
	T_EQ_U64(r.start[1], 3);
	T_EQ_U64(r.nvalues[0], 9);
	/* B is 0.8·A value by value: the ratio is 0.8 exactly. Nine logs per side with
	 * s² = 3·2.000151e-4/8 = 7.50057e-5 (three copies of the run's pattern; the runs
	 * share their mean), se = √(2 s²/9) = 0.0040826, ν = 16 (equal sides), t from the
	 * table at 15: 2.131; 0.8·e^(∓0.0087001) = [0.793070, 0.806990]. */
	const struct tseg_cmp *c = &r.change[0];
	T_EQ_INT(c->verdict, ST_REGRESSION);
	T_NEAR(c->w.ratio, 0.8, 1e-12);
	T_NEAR(c->w.nu, 16, 1e-9);
	T_NEAR(c->w.ci_lo, 0.793070, 2e-6);
	T_NEAR(c->w.ci_hi, 0.806990, 2e-6);
	T_NEAR(r.level[1], 0.8 * 99996.667, 0.001);
	/* the newest group against the best earlier one: the same comparison */
	T_EQ_INT(r.has_newest, 1);
	T_EQ_U64(r.newest.a, 0);
	T_EQ_INT(r.newest.verdict, ST_REGRESSION);
	T_EQ_INT(r.outlier[0] | r.outlier[3], 0);
	tseg_free(&r);
}

static void t_two_steps(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 0.8, 0.8, 0.8, 1, 1 };
	make(&s, lv, 8, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 3);
	T_EQ_U64(r.start[1], 3);
	T_EQ_U64(r.start[2], 6);
	T_EQ_INT(r.change[0].verdict, ST_REGRESSION);
	T_EQ_INT(r.change[1].verdict, ST_PROGRESSION);
	/* 1/0.8 */
	T_NEAR(r.change[1].w.ratio, 1.25, 1e-12);
	/* back at the first level: the newest group equals the best earlier one */
	T_EQ_U64(r.newest.a, 0);
	T_NEAR(r.newest.w.ratio, 1, 1e-12);
	T_EQ_INT(r.newest.verdict, ST_EQUIVALENT);
	tseg_free(&r);
}

static void t_newest_run(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 1, 0.5 };
	/* three repetitions: the newest run alone is a group, its drop is confirmed */
	make(&s, lv, 5, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 2);
	T_EQ_U64(r.start[1], 4);
	T_EQ_INT(r.change[0].verdict, ST_REGRESSION);
	T_NEAR(r.change[0].w.ratio, 0.5, 1e-12);
	tseg_free(&r);
	/* one repetition per run: Welch needs two values a side, so the drop is proposed,
	 * not confirmed; the run is an outlier of the one group */
	make(&s, lv, 5, 1);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.proposed, 2);
	T_EQ_U64(r.ngroups, 1);
	T_EQ_INT(r.outlier[4], 1);
	T_EQ_INT(r.outlier[3], 0);
	tseg_free(&r);
}

static void t_outlier_run(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 0.7, 1, 1, 1 };
	for (size_t reps = 1; reps <= 3; reps += 2) {
		make(&s, lv, 7, reps);
		if (seg(&s, NULL, &r))
			return;
		/* a group between two others needs two runs: 0.7 cannot be one, and cutting
		 * [0,3) [3,5) [5,7) gains too little. y = ln 0.7 = −0.357 at run 3, the
		 * rest 0: over the best two-cut alternative χ² falls from 0.109 to 0.064 (in
		 * units of φ², N/2 ln ratio ≈ 1.9) against 2β = 2·3.92. */
		T_EQ_U64(r.ngroups, 1);
		/* the median is 0 and the MAD 0, so the spread is q: |−0.357| > 3·√(q²+u) */
		T_EQ_INT(r.outlier[3], 1);
		T_EQ_INT(r.outlier[2] + r.outlier[4], 0);
		/* reported as an outlier, it does not make the series unsteady */
		T_EQ_INT(r.unsteady, 0);
		tseg_free(&r);
	}
}

static void t_outlier_repetition(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 1, 1, 1, 1 };
	make(&s, lv, 7, 3);
	s.v[3][2] = 70000;   /* one repetition of run 3: 70,000 instead of 101,000 */
	if (seg(&s, NULL, &r))
		return;
	/* run 3's logs −0.010, 0, −0.357: y = −0.1224 but its own variance is 0.0416, so
	 * u = 0.0139 and 3·√(q² + u) = 0.355 > 0.122: the spread explains it */
	T_EQ_U64(r.ngroups, 1);
	T_EQ_INT(r.outlier[3], 0);
	T_NEAR(r.y[3] - log(1e5), (log(0.99) + log(0.7)) / 3, 1e-12);
	tseg_free(&r);
}

static void t_unsteady(void)
{
	struct series s;
	struct tseg_result r;
	/* 1, 1, .8, .8, 1, .8: no cut pays (y = 0 or −0.223; one group χ² ∝ 6·0.1116² =
	 * 0.0746, the best cut [0,2) [2,6) leaves 0.0373: 3·ln 2 = 2.08 < β(6) = 3.69),
	 * and the runs scatter ±11.2 % around the one level, far beyond what their
	 * repetitions and the margin allow: said, not hidden */
	const double lv[] = { 1, 1, 0.8, 0.8, 1, 0.8 };
	make(&s, lv, 6, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 1);
	T_EQ_INT(r.unsteady, 1);
	T_NEAR(r.scatter, -log(0.8) / 2, 1e-9);
	tseg_free(&r);
}

static void t_noise_at_and_below_margin(void)
{
	struct series s;
	struct tseg_result r;
	/* runs within ±δ (2 %): 1.00 1.02 0.98 1.01 0.99 1.02 0.98 1.00 */
	const double at[] = { 1.00, 1.02, 0.98, 1.01, 0.99, 1.02, 0.98, 1.00 };
	make(&s, at, 8, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 1);
	tseg_free(&r);
	/* within ±δ/2: levels inside a band of width δ can never be cut, since no two
	 * groups can differ by δ; also with one repetition per run */
	const double below[] = { 1.00, 1.01, 0.99, 1.005, 0.995, 1.01, 0.99, 1.00 };
	for (size_t reps = 1; reps <= 3; reps += 2) {
		make(&s, below, 8, reps);
		if (seg(&s, NULL, &r))
			return;
		T_EQ_U64(r.ngroups, 1);
		T_EQ_INT(r.outlier[1] + r.outlier[2], 0);
		tseg_free(&r);
	}
	/* a persistent step of 1.5 %, below the margin, is not a change */
	const double small[] = { 1, 1, 1, 1, 0.985, 0.985, 0.985, 0.985 };
	make(&s, small, 8, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 1);
	tseg_free(&r);
	/* one of 3 % is: 0.97 exactly, ν = 22 (12 logs a side) */
	const double step3[] = { 1, 1, 1, 1, 0.97, 0.97, 0.97, 0.97 };
	make(&s, step3, 8, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.ngroups, 2);
	T_EQ_U64(r.start[1], 4);
	T_NEAR(r.change[0].w.ratio, 0.97, 1e-12);
	T_NEAR(r.change[0].w.nu, 22, 1e-9);
	T_EQ_INT(r.change[0].verdict, ST_REGRESSION);
	tseg_free(&r);
}

static void t_two_runs(void)
{
	struct series s;
	struct tseg_result r;
	/* N = 2, runs 1.00 and 1.03: w = 1/(q² + s²/3) = 1/(9.80360e-5 + 3.33360e-5) = 7612.0;
	 * one group: χ² = w·ln²(1.03)/2 = 3.3254, x = χ²/2 = 1.6627, cost 1 + ln x = 1.5084;
	 * two groups: 0 + β(2) = 1.5 ln 2 + 1 = 2.0397: one group */
	const double a[] = { 1, 1.03 };
	make(&s, a, 2, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.proposed, 1);
	T_NEAR(r.lambda, 1.6627, 1e-4);
	tseg_free(&r);
	/* 1.05: χ² = 7612·ln²(1.05)/2 = 9.061, cost 1 + ln 4.530 = 2.511 > 2.040: cut */
	const double b[] = { 1, 1.05 };
	make(&s, b, 2, 3);
	if (seg(&s, NULL, &r))
		return;
	T_EQ_U64(r.proposed, 2);
	T_EQ_U64(r.ngroups, 2);
	T_EQ_INT(r.change[0].verdict, ST_PROGRESSION);
	tseg_free(&r);
}

static void t_lower_is_better(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 1, 1.2, 1.2, 1.2 };
	struct tseg_opts o = opts;
	o.lower_is_better = 1;
	make(&s, lv, 6, 3);
	if (seg(&s, &o, &r))
		return;
	T_EQ_U64(r.ngroups, 2);
	T_EQ_INT(r.change[0].verdict, ST_REGRESSION);   /* latency up 20 % */
	tseg_free(&r);
	/* latency down then up: the best earlier group is the lowest */
	const double lv2[] = { 1, 1, 0.5, 0.5, 0.8, 0.8 };
	make(&s, lv2, 6, 3);
	if (seg(&s, &o, &r))
		return;
	T_EQ_U64(r.ngroups, 3);
	T_EQ_U64(r.newest.a, 1);
	T_NEAR(r.newest.w.ratio, 1.6, 1e-12);
	T_EQ_INT(r.newest.verdict, ST_REGRESSION);
	tseg_free(&r);
}

static void t_bad_values(void)
{
	struct series s;
	struct tseg_result r;
	const double lv[] = { 1, 1, 0 };
	make(&s, lv, 3, 3);
	T_EQ_INT(tseg_segment(s.r, 3, &opts, &r), -EDOM);
	T_EQ_INT(tseg_segment(s.r, 0, &opts, &r), -EINVAL);
	s.r[0].n = 0;
	T_EQ_INT(tseg_segment(s.r, 2, &opts, &r), -EINVAL);
}

static void t_labels(void)
{
	json_t *a = json_string("13.9"), *b = json_string("13.10"), *c = json_string("r2"),
	       *d = json_string("r10"), *n2 = json_integer(2), *n10 = json_real(10.0),
	       *e = json_string("13.09");
	T_TRUE(trend_label_cmp(a, b) < 0);
	T_TRUE(trend_label_cmp(b, a) > 0);
	T_TRUE(trend_label_cmp(c, d) < 0);
	T_TRUE(trend_label_cmp(n2, n10) < 0);
	T_TRUE(trend_label_cmp(n10, a) < 0);   /* numbers before text */
	T_TRUE(trend_label_cmp(a, a) == 0);
	T_TRUE(trend_label_cmp(a, e) != 0);    /* equal as numbers, told apart as text */
	json_decref(a);
	json_decref(b);
	json_decref(c);
	json_decref(d);
	json_decref(n2);
	json_decref(n10);
	json_decref(e);

	json_t *root = json_pack("{s:{s:{s:{s:i},s:{s:s}}}}", "environment", "dut", "tunables",
				 "kern.polling.pollhz", 2000, "os", "version", "14.1-RELEASE");
	json_t *v = trend_key_get(root, "environment.dut.tunables.kern.polling.pollhz");
	T_TRUE(json_is_integer(v) && json_integer_value(v) == 2000);
	T_STREQ(json_string_value(trend_key_get(root, "$.environment.dut.os.version")),
		"14.1-RELEASE");
	T_TRUE(!trend_key_get(root, "environment.dut.os.name"));
	T_TRUE(!trend_key_get(root, "environment.dut.os.version.x"));
	json_decref(root);
}

/* A results file: cells x = 1..nx (repetitions of level·{0.99, 1, 1.01}·1000·x), an
 * optional os axis, a created time and an OS version. */
static struct res_file *doc(const char *name, const char *created, const char *version,
			    const char *os, const int *xs, size_t nx, const double *level)
{
	json_t *cases = json_array(), *xv = json_array();
	static const double spread[] = { 0.99, 1, 1.01 };
	for (size_t i = 0; i < nx; i++) {
		json_array_append_new(xv, json_integer(xs[i]));
		for (int r = 0; r < 3; r++) {
			json_t *p = os ? json_pack("{s:i,s:s}", "x", xs[i], "os", os)
				       : json_pack("{s:i}", "x", xs[i]);
			json_t *m = json_pack("{s:f}", "fwd_pps", 1000.0 * xs[i] * level[i] * spread[r]);
			json_array_append_new(cases, json_pack("{s:i,s:o,s:s,s:o}", "rep", r + 1,
							       "params", p, "status", "ok",
							       "metrics", m));
		}
	}
	json_t *axes = os ? json_pack("{s:o,s:[s]}", "x", xv, "os", os) : json_pack("{s:o}", "x", xv);
	json_t *root = json_pack("{s:s,s:s,s:s,s:s,s:{s:{s:{s:s}}},s:{s:o},s:o}", "schema",
				 "ppslab/result", "schema_version", "1.0.0", "run_id", name,
				 "created_utc", created, "environment", "dut", "os", "version",
				 version, "matrix", "axes", axes, "cases", cases);
	struct res_file *rf = NULL;
	char err[512];
	if (!root || res_from_json(root, name, &rf, err, sizeof(err)))
		T_FAIL("%.400s", root ? err : "json_pack");
	json_decref(root);
	return rf;
}

static const struct trend_series *series(const struct trend *t, const char *key)
{
	for (size_t i = 0; i < t->nseries; i++)
		if (!strcmp(t->series[i].key, key))
			return &t->series[i];
	return NULL;
}

static void t_build(void)
{
	/* versions 13.9, 13.10, 14.0, 14.1, written in the order 14.0, 13.10, 14.1, 13.9
	 * and created in the order 13.10, 13.9, 14.1, 14.0; cell x=1 drops to 0.8 from
	 * 14.0 on, x=2 is flat, x=3 exists only from 14.0 on */
	const int x12[] = { 1, 2 }, x123[] = { 1, 2, 3 };
	const double hi[] = { 1, 1 }, lo[] = { 0.8, 1, 1 };
	struct res_file *rf[4] = {
		doc("a", "2026-01-04T00:00:00Z", "14.0", NULL, x123, 3, lo),
		doc("b", "2026-01-01T00:00:00Z", "13.10", NULL, x12, 2, hi),
		doc("c", "2026-01-03T00:00:00Z", "14.1", NULL, x123, 3, lo),
		doc("d", "2026-01-02T00:00:00Z", "13.9", NULL, x12, 2, hi),
	};
	struct trend *t = NULL;
	char err[512];
	const char *m[] = { "fwd_pps" };
	struct trend_opts o = { .margin = 0.02, .floor = -1, .label_kind = TL_KEY,
				.label = "environment.dut.os.version", .metrics = m, .nmetrics = 1 };
	for (size_t i = 0; i < 4; i++)
		if (!rf[i])
			goto out;
	T_EQ_INT(trend_build((const struct res_file *const *)rf, 4, &o, &t, err, sizeof(err)), 0);
	if (!t)
		goto out;
	T_EQ_U64(t->nruns, 4);
	T_STREQ(t->runs[0].label, "13.9");
	T_STREQ(t->runs[1].label, "13.10");
	T_STREQ(t->runs[3].label, "14.1");
	T_NEAR(t->floor, 0.0025, 0);
	T_EQ_U64(t->nseries, 3);
	const struct trend_series *s1 = series(t, "x=1"), *s3 = series(t, "x=3");
	if (!s1 || !s3) {
		T_FAIL("series x=1 or x=3 missing");
		goto out;
	}
	T_EQ_U64(s1->seg.ngroups, 2);
	T_EQ_U64(s1->pts[s1->seg.start[1]].run, 2);   /* from 14.0 on */
	T_EQ_INT(trend_newest_is(s1, ST_REGRESSION), 1);
	T_EQ_U64(s3->npoints, 2);
	T_EQ_U64(s3->nmissing, 2);
	T_EQ_U64(s3->missing[0], 0);
	T_EQ_INT(trend_newest_missing(t, s3), 0);
	T_EQ_U64(t->n_newest_regressed, 1);
	json_t *j = trend_json(t);
	T_STREQ(json_string_value(json_object_get(j, "schema")), "ppslab/trend");
	T_EQ_U64(json_array_size(json_object_get(j, "series")), 3);
	json_decref(j);
	trend_free(t);
	t = NULL;

	/* by creation time: 13.10, 13.9, 14.1, 14.0 */
	o.label_kind = TL_CREATED;
	o.label = NULL;
	T_EQ_INT(trend_build((const struct res_file *const *)rf, 4, &o, &t, err, sizeof(err)), 0);
	if (!t)
		goto out;
	T_STREQ(t->runs[0].label, "2026-01-01T00:00:00Z");
	T_EQ_U64(t->runs[0].file, 1);
	T_EQ_U64(t->runs[3].file, 0);
	trend_free(t);
	t = NULL;

	/* in the order given */
	o.label_kind = TL_KEY;
	o.label = "environment.dut.os.version";
	o.order_given = 1;
	T_EQ_INT(trend_build((const struct res_file *const *)rf, 4, &o, &t, err, sizeof(err)), 0);
	if (!t)
		goto out;
	T_STREQ(t->runs[0].label, "14.0");
	T_STREQ(t->runs[1].label, "13.10");
	trend_free(t);
	t = NULL;

	/* a key one file lacks: a data error naming the file and the path */
	o.label = "environment.dut.os.name";
	T_EQ_INT(trend_build((const struct res_file *const *)rf, 4, &o, &t, err, sizeof(err)),
		 -ENODATA);
	T_TRUE(strstr(err, "a: $.environment.dut.os.name: missing") != NULL);
	o.label_kind = TL_AXIS;
	o.label = "os";
	T_EQ_INT(trend_build((const struct res_file *const *)rf, 4, &o, &t, err, sizeof(err)),
		 -ENODATA);
	T_TRUE(strstr(err, "--label-from os: a has no such axis (axes: x)") != NULL);
out:
	trend_free(t);
	for (size_t i = 0; i < 4; i++)
		res_free(rf[i]);
}

static void t_build_axis(void)
{
	/* one file per OS, each with an os axis of one value: the os values are the runs,
	 * cells match by x alone */
	const int xs[] = { 1, 2 };
	const double hi[] = { 1, 1 }, lo[] = { 1, 0.5 };
	struct res_file *rf[3] = {
		doc("freebsd-5.3", "2026-01-01T00:00:00Z", "5.3", "5.3", xs, 2, hi),
		doc("freebsd-4.10", "2026-01-02T00:00:00Z", "4.10", "4.10", xs, 2, hi),
		doc("freebsd-6.0", "2026-01-03T00:00:00Z", "6.0", "6.0", xs, 2, lo),
	};
	struct trend *t = NULL;
	char err[512];
	struct trend_opts o = { .margin = 0.02, .floor = -1, .label_kind = TL_AXIS, .label = "os" };
	for (size_t i = 0; i < 3; i++)
		if (!rf[i])
			goto out;
	T_EQ_INT(trend_build((const struct res_file *const *)rf, 3, &o, &t, err, sizeof(err)), 0);
	if (!t)
		goto out;
	T_EQ_U64(t->nruns, 3);
	T_STREQ(t->runs[0].label, "4.10");
	T_STREQ(t->runs[2].label, "6.0");
	T_EQ_U64(t->nseries, 2);
	const struct trend_series *s1 = series(t, "x=1"), *s2 = series(t, "x=2");
	if (!s1 || !s2) {
		T_FAIL("series x=1 or x=2 missing");
		goto out;
	}
	T_EQ_U64(s1->npoints, 3);
	T_EQ_U64(s1->seg.ngroups, 1);
	T_EQ_U64(s2->seg.ngroups, 2);
	T_NEAR(s2->seg.change[0].w.ratio, 0.5, 1e-12);
	T_EQ_U64(t->n_changes[ST_REGRESSION], 1);
out:
	trend_free(t);
	for (size_t i = 0; i < 3; i++)
		res_free(rf[i]);
}

int main(void)
{
	T_RUN(t_penalty_and_chi2);
	T_RUN(t_no_change);
	T_RUN(t_one_step);
	T_RUN(t_two_steps);
	T_RUN(t_newest_run);
	T_RUN(t_outlier_run);
	T_RUN(t_outlier_repetition);
	T_RUN(t_unsteady);
	T_RUN(t_noise_at_and_below_margin);
	T_RUN(t_two_runs);
	T_RUN(t_lower_is_better);
	T_RUN(t_bad_values);
	T_RUN(t_labels);
	T_RUN(t_build);
	T_RUN(t_build_axis);
	return t_done();
}
