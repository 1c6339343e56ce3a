/* SPDX-License-Identifier: BSD-2-Clause */
/* model.c — the rule-cost fit and the polling bound (see model.h). */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "pivot.h"

int fit_rule_cost(const double *n, const double *rate, size_t k, struct fit_rc *out)
{
	double sx = 0, sy = 0;
	size_t m = 0;
	double first = NAN;
	int distinct = 0;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < k; i++) {
		if (!(n[i] >= 0) || !(rate[i] > 0) || !isfinite(n[i]) || !isfinite(rate[i]))
			continue;
		if (isnan(first))
			first = n[i];
		else if (n[i] != first)
			distinct = 1;
		sx += n[i];
		sy += 1 / rate[i];
		m++;
	}
	if (m < 3 || !distinct)
		return -EINVAL;
	double mx = sx / (double)m, my = sy / (double)m, sxx = 0, sxy = 0, syy = 0;
	for (size_t i = 0; i < k; i++) {
		if (!(n[i] >= 0) || !(rate[i] > 0) || !isfinite(n[i]) || !isfinite(rate[i]))
			continue;
		double dx = n[i] - mx, dy = 1 / rate[i] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	out->n = m;
	out->b_s = sxy / sxx;
	out->a_s = my - out->b_s * mx;
	double sse = 0;
	for (size_t i = 0; i < k; i++) {
		if (!(n[i] >= 0) || !(rate[i] > 0) || !isfinite(n[i]) || !isfinite(rate[i]))
			continue;
		double e = 1 / rate[i] - (out->a_s + out->b_s * n[i]);
		sse += e * e;
		double rel = fabs(fit_rule_rate(out, n[i]) / rate[i] - 1);
		if (!(rel <= out->max_rel_err))
			out->max_rel_err = isfinite(rel) ? rel : INFINITY;
	}
	/* every time per frame equal: the line explains all there is */
	out->r2 = syy > 0 ? 1 - sse / syy : 1;
	return 0;
}

int fit_rule_visible(double b_s, double r2)
{
	return b_s > 0 && r2 >= FIT_R2_MIN;
}

double fit_rule_rate(const struct fit_rc *f, double n)
{
	double t = f->a_s + f->b_s * n;
	return t > 0 ? 1 / t : NAN;
}

int model_is_rules_axis(const char *name)
{
	return !strcmp(name, "rules") || !strcmp(name, "fw_rules");
}

/* "2k", "150", "1.5M" as a number; NaN otherwise. */
static double num_of(const json_t *v)
{
	if (json_is_number(v))
		return json_number_value(v);
	if (!json_is_string(v))
		return NAN;
	const char *s = json_string_value(v);
	char *end;
	double d = strtod(s, &end);
	if (end == s)
		return NAN;
	if (*end == 'k' || *end == 'K')
		d *= 1e3, end++;
	else if (*end == 'M')
		d *= 1e6, end++;
	return *end ? NAN : d;
}

static const json_t *param_of(const struct res_file *rf, const json_t *params,
			      const char *name)
{
	const json_t *v = json_object_get(params, name);
	if (!v)
		v = res_get(rf->root, "profile", "params", name, NULL);
	if (!v) {
		char k[128];
		snprintf(k, sizeof(k), "kern.polling.%s", name);
		v = json_object_get(res_get(rf->root, "environment", "dut", "tunables", NULL), k);
	}
	return v;
}

double model_param_num(const struct res_file *rf, const json_t *params, const char *name)
{
	return num_of(param_of(rf, params, name));
}

const char *model_param_str(const struct res_file *rf, const json_t *params,
			    const char *name)
{
	return json_string_value(param_of(rf, params, name));
}

double model_fixed_offered(const struct res_file *rf)
{
	static const char *const load_axes[] = { "load_pps", "intended_pps", "offered_pps",
						 "rate_pps", "load", "offered", "rate" };
	for (size_t i = 0; i < sizeof(load_axes) / sizeof(load_axes[0]); i++) {
		const struct res_axis *a = res_axis(rf, load_axes[i]);
		if (a && a->nvalues > 1)
			return NAN;
	}
	json_t *o = res_get(rf->root, "method", "offered_pps", NULL);
	if (json_is_number(o) && json_number_value(o) > 0)
		return json_number_value(o);
	/* a profile's "offered" param ("60k"; "max" is no number) */
	double v = model_param_num(rf, rf->ncells ? rf->cells[0].params : NULL, "offered");
	return v > 0 ? v : NAN;
}

double model_poll_bound(const struct res_file *rf, const json_t *params, const char *metric,
			double pollhz, double burst_max)
{
	const char *mode = model_param_str(rf, params, "mode");
	if (mode && strcmp(mode, "poll"))
		return NAN;
	/* kern.polling.idle_poll=1: the idle loop polls too, more often than pollhz */
	if (model_param_num(rf, params, "idle_poll") > 0)
		return NAN;
	/* the poll clock: pollhz on DragonFly's kernels (ppslab-rut's default), kern.hz on
	 * FreeBSD's (docs/design/polling.md#kernel-personalities) */
	const char *kernel = model_param_str(rf, params, "kernel");
	if (isnan(pollhz) && kernel && !strncmp(kernel, "freebsd", 7)) {
		pollhz = model_param_num(rf, params, "hz");
		if (isnan(pollhz)) {
			const json_t *t = json_object_get(res_get(rf->root, "environment", "dut",
								  "tunables", NULL), "kern.hz");
			pollhz = json_is_number(t) ? json_number_value(t) : 1000;
		}
	} else if (isnan(pollhz)) {
		pollhz = model_param_num(rf, params, "pollhz");
	}
	if (isnan(burst_max))
		burst_max = model_param_num(rf, params, "burst_max");
	if (!(pollhz > 0) || !(burst_max > 0))
		return NAN;
	const char *dir = model_param_str(rf, params, "direction");
	if (!dir)
		dir = model_param_str(rf, params, "dir");
	int per_stream = name_ends_with(metric, "_a") || name_ends_with(metric, "_b");
	double ports = dir && !strcmp(dir, "bi") && !per_stream ? 2 : 1;
	return pollhz * burst_max * ports;
}

/* Rate metrics worth a rule-cost fit: what the forwarder forwards, not what was
 * offered. */
static int fit_metric(const char *m)
{
	return name_is_rate(m) && strncmp(m, "offered", 7) && strncmp(m, "intended", 8) &&
	       strncmp(m, "load", 4) && strncmp(m, "rate", 4) && strncmp(m, "rut.", 4);
}

/* A fit already in arr for the same cells with the same a and b: a metric that copies
 * another (mfr_pps of fixed trials, fwd_pps_a of a one-way run) adds nothing. */
static int seen_fit(json_t *arr, const struct res_sel *fixed, const struct res_sel *filt,
		    const struct fit_rc *f)
{
	size_t i;
	json_t *row;
	json_array_foreach(arr, i, row) {
		json_t *p = json_object_get(row, "params");
		if (json_object_size(p) != fixed->n + filt->n ||
		    json_number_value(json_object_get(row, "a_s")) != f->a_s ||
		    json_number_value(json_object_get(row, "b_s")) != f->b_s)
			continue;
		int same = 1;
		const struct res_sel *sels[] = { fixed, filt };
		for (size_t s = 0; s < 2 && same; s++)
			for (size_t k = 0; k < sels[s]->n && same; k++) {
				json_t *v = json_object_get(p, sels[s]->c[k].axis);
				same = v && res_value_matches(v, sels[s]->c[k].value);
			}
		if (same)
			return 1;
	}
	return 0;
}

static int add_fits(const struct res_file *rf, const struct res_axis *ax, const char *metric,
		    json_t *arr)
{
	const char *m[] = { metric };
	struct pivot *pv;
	char err[256];
	struct pv_req rq = { .rows = ax->name, .metrics = m, .nmetrics = 1, .decimals = -1 };
	if (pv_build(rf, &rq, &pv, err, sizeof(err)))
		return 0;   /* nothing to fit in this shape: not an error */
	int rc = 0;
	for (size_t b = 0; b < pv->nblocks && !rc; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		double *n = calloc(bl->nrows + 1, sizeof(double));
		double *y = calloc(bl->nrows + 1, sizeof(double));
		if (!n || !y) {
			free(n);
			free(y);
			rc = -ENOMEM;
			break;
		}
		for (size_t c = 0; c < pv->ncols && !rc; c++) {
			size_t k = 0;
			for (size_t r = 0; r < bl->nrows; r++) {
				const struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
				if (pc->cell < 0 || !pc->st.s.n || !json_is_number(bl->rows[r]))
					continue;
				n[k] = json_number_value(bl->rows[r]);
				y[k++] = pc->st.s.median;
			}
			struct fit_rc f;
			if (fit_rule_cost(n, y, k, &f) || seen_fit(arr, &bl->fixed, &pv->cols[c].filt, &f))
				continue;
			json_t *params = json_object(), *o = json_object();
			if (!params || !o) {
				json_decref(params);
				json_decref(o);
				rc = -ENOMEM;
				break;
			}
			const struct res_sel *sels[] = { &bl->fixed, &pv->cols[c].filt };
			for (size_t s = 0; s < 2; s++)
				for (size_t i = 0; i < sels[s]->n; i++) {
					const struct res_axis *a = res_axis(rf, sels[s]->c[i].axis);
					json_t *val = NULL;
					for (size_t v = 0; a && v < a->nvalues && !val; v++)
						if (res_value_matches(a->values[v], sels[s]->c[i].value))
							val = a->values[v];
					json_object_set_new(params, sels[s]->c[i].axis,
							    val ? json_incref(val)
								: json_string(sels[s]->c[i].value));
				}
			json_object_set_new(o, "model", json_string("rule_cost"));
			json_object_set_new(o, "formula", json_string("rate = 1/(a + b*N)"));
			json_object_set_new(o, "metric", json_string(metric));
			json_object_set_new(o, "axis", json_string(ax->name));
			json_object_set_new(o, "params", params);
			json_object_set_new(o, "n", json_integer((json_int_t)f.n));
			json_object_set_new(o, "a_s", json_real(f.a_s));
			json_object_set_new(o, "b_s", json_real(f.b_s));
			json_object_set_new(o, "b_ns_per_rule", json_real(f.b_s * 1e9));
			json_object_set_new(o, "r2", json_real(f.r2));
			json_object_set_new(o, "max_rel_err", isfinite(f.max_rel_err)
					    ? json_real(f.max_rel_err) : json_null());
			if (json_array_append_new(arr, o))
				rc = -ENOMEM;
		}
		free(n);
		free(y);
	}
	pv_free(pv);
	return rc;
}

json_t *res_fits(const struct res_file *rf)
{
	json_t *arr = json_array();
	if (!arr)
		return NULL;
	for (size_t a = 0; a < rf->naxes; a++) {
		const struct res_axis *ax = &rf->axes[a];
		if (!model_is_rules_axis(ax->name) || ax->nvalues < 3)
			continue;
		int numeric = 1;
		for (size_t v = 0; v < ax->nvalues; v++)
			numeric &= json_is_number(ax->values[v]);
		if (!numeric)
			continue;
		for (size_t m = 0; m < rf->nmetrics; m++)
			if (fit_metric(rf->metrics[m]) && res_metric_has_values(rf, rf->metrics[m]) &&
			    add_fits(rf, ax, rf->metrics[m], arr)) {
				json_decref(arr);
				return NULL;
			}
	}
	return arr;
}
