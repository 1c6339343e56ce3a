/* SPDX-License-Identifier: BSD-2-Clause */
/* t_model.c — the rule-cost fit recovers a and b from rates made with known values
 * (exactly, and within a few per cent through noise), refuses what cannot be fitted,
 * and res_fits() finds the fit in tests/data/rules.json (made from a = 1.5 µs, b = 1.3 ns
 * per rule per frame); the polling bound reads pollhz and burst_max from the cell, the
 * profile's params or the DUT's tunables and doubles for the aggregate of a
 * bidirectional run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "tap.h"

static const double A = 1.5e-6, B = 1.3e-9;
static const double N[] = { 0, 100, 1000, 5000, 10000, 20000 };
#define NN (sizeof(N) / sizeof(N[0]))

static struct res_file *load(const char *rel)
{
	char path[1024], err[512];
	const char *top = getenv("PPSLAB_TOP");
	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	struct res_file *rf = NULL;
	if (res_load(path, &rf, err, sizeof(err)))
		T_FAIL("%.400s", err);
	return rf;
}

static void t_exact(void)
{
	double r[NN];
	for (size_t i = 0; i < NN; i++)
		r[i] = 1 / (A + B * N[i]);
	struct fit_rc f;
	T_EQ_INT(fit_rule_cost(N, r, NN, &f), 0);
	T_EQ_U64(f.n, NN);
	T_NEAR(f.a_s / A, 1, 1e-9);
	T_NEAR(f.b_s / B, 1, 1e-9);
	T_NEAR(f.r2, 1, 1e-9);
	T_NEAR(f.max_rel_err, 0, 1e-9);
	T_NEAR(fit_rule_rate(&f, 10000), 1 / (A + B * 10000), 1e-3);
}

static void t_noise(void)
{
	/* ±1 % on each rate, alternating: b within 3 %, the worst point about 1 % off */
	double r[NN];
	for (size_t i = 0; i < NN; i++)
		r[i] = 1 / (A + B * N[i]) * (i % 2 ? 1.01 : 0.99);
	struct fit_rc f;
	T_EQ_INT(fit_rule_cost(N, r, NN, &f), 0);
	T_NEAR(f.b_s / B, 1, 0.03);
	T_TRUE(f.r2 > 0.999);
	T_TRUE(f.max_rel_err > 0.005 && f.max_rel_err < 0.03);
}

static void t_refused(void)
{
	double r[NN];
	for (size_t i = 0; i < NN; i++)
		r[i] = 1 / (A + B * N[i]);
	struct fit_rc f;
	T_EQ_INT(fit_rule_cost(N, r, 2, &f), -EINVAL);           /* two points */
	const double same[] = { 100, 100, 100 };
	T_EQ_INT(fit_rule_cost(same, r, 3, &f), -EINVAL);        /* one N */
	/* zero and missing rates are skipped, not fitted as infinite times */
	double holes[NN];
	for (size_t i = 0; i < NN; i++)
		holes[i] = i == 2 ? 0 : i == 3 ? NAN : r[i];
	T_EQ_INT(fit_rule_cost(N, holes, NN, &f), 0);
	T_EQ_U64(f.n, NN - 2);
	T_NEAR(f.b_s / B, 1, 1e-9);
	/* flat: no cost per rule, every time explained */
	const double flat[] = { 5e5, 5e5, 5e5, 5e5 };
	T_EQ_INT(fit_rule_cost(N, flat, 4, &f), 0);
	T_NEAR(f.b_s, 0, 1e-18);
	T_NEAR(f.r2, 1, 1e-12);
}

static void t_res_fits(void)
{
	struct res_file *rf = load("tests/data/rules.json");
	if (!rf)
		return;
	json_t *fits = res_fits(rf);
	T_TRUE(fits && json_array_size(fits) == 1);
	json_t *row = json_array_get(fits, 0);
	T_STREQ(json_string_value(json_object_get(row, "model")), "rule_cost");
	T_STREQ(json_string_value(json_object_get(row, "metric")), "fwd_pps");
	T_STREQ(json_string_value(json_object_get(row, "axis")), "rules");
	T_EQ_INT(json_integer_value(json_object_get(row, "n")), 6);
	T_NEAR(json_number_value(json_object_get(row, "b_ns_per_rule")), 1.3, 0.005);
	T_NEAR(json_number_value(json_object_get(row, "a_s")) * 1e6, 1.5, 0.01);
	T_TRUE(json_number_value(json_object_get(row, "r2")) > 0.9999);
	T_EQ_INT(json_object_size(json_object_get(row, "params")), 0);
	json_decref(fits);
	res_free(rf);
	/* rules 0 and 10 only: nothing to fit */
	rf = load("tests/data/sweep.json");
	if (!rf)
		return;
	fits = res_fits(rf);
	T_TRUE(fits && json_array_size(fits) == 0);
	json_decref(fits);
	res_free(rf);
}

static void t_bound(void)
{
	struct res_file *rf = load("tests/data/hz-sweep.json");
	if (!rf)
		return;
	json_t *p = json_pack("{s:i, s:s}", "pollhz", 1000, "direction", "bi");
	/* burst_max 150 from the profile's params; two receiving ports for the aggregate */
	T_NEAR(model_poll_bound(rf, p, "fwd_pps", NAN, NAN), 300000, 1e-6);
	T_NEAR(model_poll_bound(rf, p, "fwd_pps_a", NAN, NAN), 150000, 1e-6);
	T_NEAR(model_poll_bound(rf, p, "fwd_pps", 2000, 20), 80000, 1e-6);
	json_object_set_new(p, "idle_poll", json_integer(1));   /* polls beyond pollhz */
	T_TRUE(isnan(model_poll_bound(rf, p, "fwd_pps", NAN, NAN)));
	json_object_set_new(p, "idle_poll", json_integer(0));
	T_NEAR(model_poll_bound(rf, p, "fwd_pps", NAN, NAN), 300000, 1e-6);
	/* FreeBSD's kernels poll at kern.hz: hz 2000, burst_max 20 → 40,000 */
	json_t *fb = json_pack("{s:s, s:i, s:i, s:s}", "kernel", "freebsd-7", "hz", 2000,
			       "burst_max", 20, "direction", "uni");
	T_NEAR(model_poll_bound(rf, fb, "fwd_pps", NAN, NAN), 40000, 1e-6);
	json_object_del(fb, "hz");   /* FreeBSD's default kern.hz */
	T_NEAR(model_poll_bound(rf, fb, "fwd_pps", NAN, NAN), 20000, 1e-6);
	json_decref(fb);
	json_object_set_new(p, "mode", json_string("intr"));
	T_TRUE(isnan(model_poll_bound(rf, p, "fwd_pps", NAN, NAN)));
	json_object_set_new(p, "pollhz", json_string("2k"));
	T_NEAR(model_param_num(rf, p, "pollhz"), 2000, 1e-9);
	json_decref(p);
	res_free(rf);
	/* burst_max from the DUT's tunables (kern.polling.burst_max) */
	rf = load("tests/data/hz-dragonfly.json");
	if (!rf)
		return;
	p = json_pack("{s:i, s:s}", "pollhz", 4000, "dir", "uni");
	T_NEAR(model_poll_bound(rf, p, "fwd_pps", NAN, NAN), 600000, 1e-6);
	json_decref(p);
	res_free(rf);
	T_TRUE(model_is_rules_axis("rules") && model_is_rules_axis("fw_rules") &&
	       !model_is_rules_axis("pollhz"));
}

int main(void)
{
	T_RUN(t_exact);
	T_RUN(t_noise);
	T_RUN(t_refused);
	T_RUN(t_res_fits);
	T_RUN(t_bound);
	return t_done();
}
