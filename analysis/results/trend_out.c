/* SPDX-License-Identifier: BSD-2-Clause */
/* trend_out.c — what `ppslab trend` shows of a trend (see trend.h): the ppslab/trend
 * JSON, the table of series, and the gnuplot figure of one series. */
#include "trend.h"
#include "plot_gp.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jout.h"
#include "names.h"
#include "pivot.h"

static const char *label_kind_name(enum trend_label k)
{
	return k == TL_AXIS ? "axis" : k == TL_KEY ? "key" : "created";
}

/* "13.8" or "13.8–13.10" ("13.8..13.10" in CSV): the labels of runs [a, b) of s. */
static char *span(const struct trend *t, const struct trend_series *s, size_t a, size_t b,
		  int csv, char *buf, size_t len)
{
	const char *l0 = t->runs[s->pts[a].run].label, *l1 = t->runs[s->pts[b - 1].run].label;
	if (b - a == 1)
		snprintf(buf, len, "%s", l0);
	else
		snprintf(buf, len, "%s%s%s", l0, csv ? ".." : "–", l1);
	return buf;
}

static json_t *cmp_obj(const struct trend *t, const struct trend_series *s,
		       const struct tseg_cmp *c)
{
	json_t *e = json_object();
	const struct tseg_result *g = &s->seg;
	json_object_set_new(e, "from_group", json_integer((json_int_t)c->a));
	json_object_set_new(e, "to_group", json_integer((json_int_t)c->b));
	size_t at = g->start[c->b];
	json_object_set_new(e, "at_run", json_integer((json_int_t)s->pts[at].run));
	json_object_set_new(e, "at_label", json_string(t->runs[s->pts[at].run].label));
	json_object_set_new(e, "n_a", json_integer((json_int_t)c->w.m));
	json_object_set_new(e, "n_b", json_integer((json_int_t)c->w.n));
	jset_f(e, "ratio", c->w.ratio);
	jset_f(e, "ci_lo", c->w.ci_lo);
	jset_f(e, "ci_hi", c->w.ci_hi);
	jset_f(e, "df", c->w.nu);
	jset_f(e, "p", c->w.p);
	json_object_set_new(e, "verdict", json_string(st_verdict_name(c->verdict)));
	json_object_set_new(e, "note", c->note ? json_string(c->note) : json_null());
	return e;
}

static json_t *series_json(const struct trend *t, const struct trend_series *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "key", json_string(s->key));
	json_object_set(o, "params", s->params);
	json_object_set_new(o, "metric", json_string(s->metric));
	json_object_set_new(o, "lower_is_better", json_boolean(s->lower_is_better));
	json_object_set_new(o, "flagged", json_boolean(s->flagged));
	json_t *pts = json_array(), *miss = json_array();
	for (size_t p = 0; p < s->npoints; p++) {
		const struct trend_point *pt = &s->pts[p];
		json_t *e = json_object();
		json_object_set_new(e, "run", json_integer((json_int_t)pt->run));
		json_object_set_new(e, "label", json_string(t->runs[pt->run].label));
		json_object_set_new(e, "n", json_integer((json_int_t)pt->st.s.n));
		jset_f(e, "median", pt->st.s.median);
		jset_f(e, "min", pt->st.s.min);
		jset_f(e, "max", pt->st.s.max);
		jset_f(e, "geomean", s->segmented ? exp(s->seg.y[p]) : NAN);
		json_object_set_new(e, "flagged", json_integer((json_int_t)pt->st.flagged));
		json_object_set_new(e, "group", s->segmented ? json_integer((json_int_t)
						tseg_group_of(&s->seg, p)) : json_null());
		json_object_set_new(e, "outlier", json_boolean(s->segmented && s->seg.outlier[p]));
		json_array_append_new(pts, e);
	}
	for (size_t i = 0; i < s->nmissing; i++)
		json_array_append_new(miss, json_integer((json_int_t)s->missing[i]));
	json_object_set_new(o, "points", pts);
	json_object_set_new(o, "missing_runs", miss);
	json_t *groups = json_array(), *changes = json_array();
	json_object_set_new(o, "groups", groups);
	json_object_set_new(o, "changes", changes);
	if (s->segmented) {
		const struct tseg_result *g = &s->seg;
		for (size_t k = 0; k < g->ngroups; k++) {
			json_t *e = json_object();
			size_t a = g->start[k], b = g->start[k + 1];
			json_object_set_new(e, "first_run", json_integer((json_int_t)s->pts[a].run));
			json_object_set_new(e, "last_run", json_integer((json_int_t)s->pts[b - 1].run));
			json_object_set_new(e, "first_label", json_string(t->runs[s->pts[a].run].label));
			json_object_set_new(e, "last_label",
					    json_string(t->runs[s->pts[b - 1].run].label));
			json_object_set_new(e, "runs", json_integer((json_int_t)(b - a)));
			json_object_set_new(e, "n", json_integer((json_int_t)g->nvalues[k]));
			jset_f(e, "level", g->level[k]);
			json_array_append_new(groups, e);
		}
		for (size_t k = 0; k + 1 < g->ngroups; k++)
			json_array_append_new(changes, cmp_obj(t, s, &g->change[k]));
		json_object_set_new(o, "newest", g->has_newest ? cmp_obj(t, s, &g->newest)
							       : json_null());
		json_t *seg = json_object();
		jset_f(seg, "q", g->q);
		jset_f(seg, "beta", g->beta);
		jset_f(seg, "lambda", g->lambda);
		jset_f(seg, "scatter", g->scatter);
		json_object_set_new(seg, "unsteady", json_boolean(g->unsteady));
		json_object_set_new(seg, "proposed_groups", json_integer((json_int_t)g->proposed));
		json_object_set_new(o, "segmentation", seg);
	} else {
		json_object_set_new(o, "newest", json_null());
		json_object_set_new(o, "segmentation", json_null());
	}
	json_object_set_new(o, "newest_regressed", json_boolean(trend_newest_is(s, ST_REGRESSION)));
	json_object_set_new(o, "newest_progressed",
			    json_boolean(trend_newest_is(s, ST_PROGRESSION)));
	json_object_set_new(o, "newest_missing", json_boolean(trend_newest_missing(t, s)));
	json_object_set_new(o, "note", s->note ? json_string(s->note) : json_null());
	return o;
}

json_t *trend_json(const struct trend *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "schema", json_string(TREND_SCHEMA));
	json_object_set_new(o, "schema_version", json_string(TREND_SCHEMA_VERSION));
	json_t *lab = json_object();
	json_object_set_new(lab, "kind", json_string(label_kind_name(t->label_kind)));
	json_object_set_new(lab, t->label_kind == TL_AXIS ? "axis" : "key",
			    json_string(t->label_kind == TL_CREATED ? "created_utc" : t->label));
	json_object_set_new(lab, "order", json_string(t->order_given ? "given" : "label"));
	json_object_set_new(o, "label", lab);
	jset_f(o, "margin", t->margin);
	jset_f(o, "floor", t->floor);
	json_object_set_new(o, "statistic", json_string("welch-log"));
	json_object_set_new(o, "segmentation", json_string("penalised-likelihood"));
	json_t *runs = json_array();
	for (size_t r = 0; r < t->nruns; r++) {
		const struct res_file *rf = t->files[t->runs[r].file];
		json_t *e = json_object();
		json_object_set_new(e, "label", json_string(t->runs[r].label));
		json_object_set(e, "value", t->runs[r].value);
		json_object_set_new(e, "file", json_string(rf->path));
		json_object_set_new(e, "run_id", rf->run_id ? json_string(rf->run_id) : json_null());
		json_object_set_new(e, "created_utc", t->runs[r].created
				    ? json_string(t->runs[r].created) : json_null());
		json_array_append_new(runs, e);
	}
	json_object_set_new(o, "runs", runs);
	json_t *metrics = json_array();
	for (size_t m = 0; m < t->nmetrics; m++)
		json_array_append_new(metrics, json_string(t->metrics[m]));
	json_object_set_new(o, "metrics", metrics);
	json_t *series = json_array();
	for (size_t s = 0; s < t->nseries; s++)
		json_array_append_new(series, series_json(t, &t->series[s]));
	json_object_set_new(o, "series", series);
	json_t *counts = json_object(), *ch = json_object();
	json_object_set_new(ch, "REGRESSION", json_integer((json_int_t)t->n_changes[ST_REGRESSION]));
	json_object_set_new(ch, "PROGRESSION", json_integer((json_int_t)t->n_changes[ST_PROGRESSION]));
	json_object_set_new(counts, "changes", ch);
	json_object_set_new(counts, "newest_regressed", json_integer((json_int_t)t->n_newest_regressed));
	json_object_set_new(counts, "newest_progressed",
			    json_integer((json_int_t)t->n_newest_progressed));
	json_object_set_new(counts, "newest_missing", json_integer((json_int_t)t->n_newest_missing));
	json_object_set_new(o, "counts", counts);
	return o;
}

/* ---- the table ------------------------------------------------------------------- */

static int series_decimals(const struct trend_series *s)
{
	double maxabs = 0;
	int integral = 1;
	for (size_t p = 0; p < s->npoints; p++) {
		double v = s->pts[p].st.s.median;
		if (isfinite(v)) {
			maxabs = fmax(maxabs, fabs(v));
			integral &= v == floor(v);
		}
	}
	/* group levels are geometric means: never integral */
	return grid_decimals(maxabs, integral && maxabs >= 1000);
}

/* Appends to a growing text; returns 0 or -ENOMEM. */
static int cat(char **s, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cat(char **s, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *ns = realloc(*s, *len + (size_t)n + 1);
	if (!ns)
		return -ENOMEM;
	*s = ns;
	va_start(ap, fmt);
	vsnprintf(ns + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
	return 0;
}

static void fmt_ratio(const struct tseg_cmp *c, int csv, char *buf, size_t len)
{
	if (!isfinite(c->w.ratio))
		snprintf(buf, len, "-");
	else if (csv)
		snprintf(buf, len, "%.6g", c->w.ratio);
	else if (isfinite(c->w.ci_lo))
		snprintf(buf, len, "%.3f [%.3f, %.3f]", c->w.ratio, c->w.ci_lo, c->w.ci_hi);
	else
		snprintf(buf, len, "%.3f", c->w.ratio);
}

/* The row of series s: cell, metric, runs, groups, changes, newest against the best. */
static int series_row(const struct trend *t, const struct trend_series *s, struct grid *g,
		      size_t R, int csv)
{
	const struct tseg_result *sg = &s->seg;
	char a[96], b[160], r[96];
	char *groups = NULL, *changes = NULL;
	size_t gl = 0, cl = 0;
	int d = series_decimals(s), rc = 0;
	size_t k = 0;
	grid_setf(g, R, k++, "%s%s", s->key, s->flagged && !csv ? "*" : "");
	grid_set(g, R, k++, s->metric);
	if (s->nmissing)
		grid_setf(g, R, k++, "%zu of %zu", s->npoints, t->nruns);
	else
		grid_setf(g, R, k++, "%zu", s->npoints);
	if (!s->segmented) {
		grid_set(g, R, k++, s->note ? s->note : "-");
		grid_set(g, R, k++, "-");
		grid_set(g, R, k++, "-");
		return 0;
	}
	for (size_t i = 0; i < sg->ngroups && !rc; i++) {
		span(t, s, sg->start[i], sg->start[i + 1], csv, b, sizeof(b));
		if (csv)
			rc = cat(&groups, &gl, "%s%s@%s", i ? " " : "",
				 pv_raw(sg->level[i], a, sizeof(a)), b);
		else
			rc = cat(&groups, &gl, "%s%s (%s)", i ? ", " : "",
				 grid_num(sg->level[i], d, a, sizeof(a)), b);
	}
	for (size_t i = 0; i + 1 < sg->ngroups && !rc; i++) {
		const struct tseg_cmp *c = &sg->change[i];
		const char *at = t->runs[s->pts[sg->start[i + 1]].run].label;
		fmt_ratio(c, csv, r, sizeof(r));
		if (csv)
			rc = cat(&changes, &cl, "%s%s@%s:%s", i ? " " : "",
				 st_verdict_name(c->verdict), at, r);
		else
			rc = cat(&changes, &cl, "%s%s %s at %s", i ? "; " : "",
				 st_verdict_name(c->verdict), r, at);
	}
	if (rc) {
		free(groups);
		free(changes);
		return rc;
	}
	grid_set(g, R, k++, groups ? groups : "");
	grid_set(g, R, k++, changes ? changes : (csv ? "" : "none"));
	if (sg->has_newest) {
		const struct tseg_cmp *c = &sg->newest;
		fmt_ratio(c, csv, r, sizeof(r));
		span(t, s, sg->start[c->a], sg->start[c->a + 1], csv, b, sizeof(b));
		if (csv)
			grid_setf(g, R, k++, "%s:%s@%s", st_verdict_name(c->verdict), r, b);
		else
			grid_setf(g, R, k++, "%s %s vs %s", st_verdict_name(c->verdict), r, b);
	} else {
		grid_set(g, R, k++, csv ? "" : "-");
	}
	free(groups);
	free(changes);
	return 0;
}

struct grid *trend_grid(const struct trend *t, enum grid_fmt fmt)
{
	static const char *const head[] = { "cell", "metric", "runs", "groups (level, runs)",
					    "changes (ratio, 95% CI, where)",
					    "newest vs best earlier" };
	static const char *const head_csv[] = { "cell", "metric", "runs", "groups", "changes",
						"newest" };
	int csv = fmt == GRID_CSV;
	size_t nc = sizeof(head) / sizeof(head[0]);
	struct grid *g = grid_new(nc);
	if (!g || grid_add_row(g) < 0) {
		grid_free(g);
		return NULL;
	}
	for (size_t i = 0; i < nc; i++)
		grid_set(g, 0, i, csv ? head_csv[i] : head[i]);
	g->align[2] = 'r';
	for (size_t s = 0; s < t->nseries; s++) {
		long row = grid_add_row(g);
		if (row < 0 || series_row(t, &t->series[s], g, (size_t)row, csv)) {
			grid_free(g);
			return NULL;
		}
	}
	return g;
}

static const char *order_text(const struct trend *t, char *buf, size_t len)
{
	if (t->order_given)
		snprintf(buf, len, "in the order given, labelled by %s%s",
			 t->label_kind == TL_AXIS ? "axis " : "",
			 t->label_kind == TL_CREATED ? "creation time" : t->label);
	else if (t->label_kind == TL_CREATED)
		snprintf(buf, len, "by creation time");
	else
		snprintf(buf, len, "by %s%s", t->label_kind == TL_AXIS ? "axis " : "", t->label);
	return buf;
}

static void print_intro(FILE *f, const struct trend *t, int md);
static void print_notes(FILE *f, const struct trend *t, int md);

/* Text as HTML paragraphs: one per blank-line-separated block, escaped. */
static void html_paras(FILE *f, const char *text)
{
	const char *p = text;
	while (*p) {
		while (*p == '\n')
			p++;
		if (!*p)
			break;
		const char *e = strstr(p, "\n\n");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *para = strndup(p, n);
		if (para) {
			fputs("<p>", f);
			grid_html_escape(f, para);
			fputs("</p>\n", f);
			free(para);
		}
		p += n;
	}
}

/* One page that needs nothing else, as `ppslab report` writes: the runs, the table of
 * series and the notes. */
static void print_html(FILE *f, const struct trend *t)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>ppslab trend</title>\n<style>body{font:15px/1.45 system-ui,sans-serif;"
	      "color:#1d232a;max-width:1180px;margin:1.5em auto;padding:0 1.2em}"
	      "table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.93em}"
	      "th,td{border:1px solid #ccd3da;padding:3px 9px;text-align:left;vertical-align:top}"
	      "th{background:#eef2f6}.r{text-align:right;font-variant-numeric:tabular-nums}"
	      "</style></head><body>\n<h1>ppslab trend</h1>\n", f);
	for (int part = 0; part < 2; part++) {
		char *buf = NULL;
		size_t n = 0;
		FILE *m = open_memstream(&buf, &n);
		if (m) {
			if (part)
				print_notes(m, t, 0);
			else
				print_intro(m, t, 0);
			fclose(m);
			html_paras(f, buf ? buf : "");
		}
		free(buf);
		if (!part) {
			struct grid *g = trend_grid(t, GRID_HTML);
			if (g)
				grid_print(f, g, GRID_HTML);
			grid_free(g);
		}
	}
	fputs("</body></html>\n", f);
}

void trend_print(FILE *f, const struct trend *t, enum grid_fmt fmt)
{
	int md = fmt == GRID_MD;
	if (fmt == GRID_CSV) {
		/* the rows only: the rest is in the JSON */
		struct grid *g = trend_grid(t, fmt);
		if (g)
			grid_print(f, g, fmt);
		grid_free(g);
		return;
	}
	if (fmt == GRID_HTML) {
		print_html(f, t);
		return;
	}
	print_intro(f, t, md);
	struct grid *g = trend_grid(t, fmt);
	if (g)
		grid_print(f, g, fmt);
	grid_free(g);
	print_notes(f, t, md);
}

/* The runs and the method, before the table. */
static void print_intro(FILE *f, const struct trend *t, int md)
{
	const char *q = md ? "`" : "";
	char ob[600];
	fprintf(f, "Runs %s (%zu): ", order_text(t, ob, sizeof(ob)), t->nruns);
	for (size_t r = 0; r < t->nruns; r++)
		fprintf(f, "%s%s%s%s", r ? ", " : "", q, t->runs[r].label, q);
	fprintf(f, ".\nGroups of equal performance: penalised-likelihood segmentation of each "
		"run's log mean, noise from the repetitions' spread and the margin; each change "
		"confirmed by Welch t on log values (95%% interval of the ratio), margin ±%g%%, "
		"variance floor %g%%.\n\n", t->margin * 100, t->floor * 100);
}

/* Flags, outliers, unsteady and missing series, the counts: after the table. */
static void print_notes(FILE *f, const struct trend *t, int md)
{
	const char *q = md ? "`" : "";
	int flagged = 0, any = 0;
	for (size_t s = 0; s < t->nseries; s++)
		flagged |= t->series[s].flagged;
	if (flagged)
		fprintf(f, md ? "\n\\* includes flagged repetitions\n"
			      : "* includes flagged repetitions\n");
	for (size_t s = 0; s < t->nseries; s++) {
		const struct trend_series *ts = &t->series[s];
		for (size_t p = 0; ts->segmented && p < ts->npoints; p++) {
			if (!ts->seg.outlier[p])
				continue;
			size_t gi = tseg_group_of(&ts->seg, p);
			fprintf(f, "%s%s%s%s %s at %s%s%s: %.3f of its group's level (kept in it%s)",
				any ? "; " : "\nOutliers: ", q, ts->key, q, ts->metric, q,
				t->runs[ts->pts[p].run].label, q, exp(ts->seg.y[p]) / ts->seg.level[gi],
				p + 1 == ts->npoints ? "; the newest run: more repetitions or the next "
				"run will tell a change from a disturbance" : "");
			any = 1;
		}
	}
	if (any)
		fputs(".\n", f);
	any = 0;
	for (size_t s = 0; s < t->nseries; s++) {
		const struct trend_series *ts = &t->series[s];
		if (!ts->segmented || !ts->seg.unsteady)
			continue;
		fprintf(f, "%s%s%s%s %s (runs ±%.1f %% around their groups)",
			any ? "; " : "\nUnsteady (the runs scatter more than their repetitions and "
			"the margin allow, so the groups may hide a change, or the runs are not in "
			"the order performance changed in): ", q, ts->key, q, ts->metric,
			ts->seg.scatter * 100);
		any = 1;
	}
	if (any)
		fputs(".\n", f);
	any = 0;
	for (size_t s = 0; s < t->nseries; s++) {
		const struct trend_series *ts = &t->series[s];
		if (!ts->nmissing)
			continue;
		fprintf(f, "%s%s%s%s %s not in ", any ? "; " : "\nMissing: ", q, ts->key, q,
			ts->metric);
		for (size_t i = 0; i < ts->nmissing; i++)
			fprintf(f, "%s%s%s%s", i ? ", " : "", q, t->runs[ts->missing[i]].label, q);
		any = 1;
	}
	if (any)
		fputs(".\n", f);
	fprintf(f, "\nChanges: %zu REGRESSION, %zu PROGRESSION. Newest group: %zu regressed, "
		"%zu progressed (against the group before it or the best earlier one), %zu "
		"missing in the newest run, of %zu series.\n", t->n_changes[ST_REGRESSION],
		t->n_changes[ST_PROGRESSION], t->n_newest_regressed, t->n_newest_progressed,
		t->n_newest_missing, t->nseries);
}

/* ---- the plot ---------------------------------------------------------------------- */

/* Decimals of the y tics with SI prefixes (150k, 1.45M): enough for a tenth of the
 * span of the medians, at most three. */
static int si_decimals(const struct trend_series *s)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t p = 0; p < s->npoints; p++) {
		lo = fmin(lo, s->pts[p].st.s.min);
		hi = fmax(hi, s->pts[p].st.s.max);
	}
	if (!(hi > 0) || !isfinite(lo))
		return 0;
	double unit = pow(1000, floor(log10(hi) / 3)), step = (hi - lo) / 10 / unit;
	if (!(step > 0))
		return 1;
	int d = (int)ceil(-log10(step));
	return d < 0 ? 0 : d > 3 ? 3 : d;
}

/* Creation times as x tics: "2026-12-01T02:00:00Z" takes a third of a figure turned on
 * its side. What every run shares is said once in the x label ("created (UTC), 2026")
 * and left out of the tics: "12-01 02:00", or "12-01" when every run has the same
 * time of day. Other labels are kept as they are. */
static void compact_labels(const struct trend *t, char (*out)[64], char *xl, size_t xlen)
{
	int iso = t->label_kind == TL_CREATED, same_year = 1, same_time = 1;
	for (size_t r = 0; r < t->nruns && iso; r++) {
		const char *l = t->runs[r].label;
		iso = strlen(l) >= 16 && l[4] == '-' && l[7] == '-' && l[10] == 'T' && l[13] == ':';
		if (iso && r) {
			same_year &= !strncmp(l, t->runs[0].label, 4);
			same_time &= !strncmp(l + 11, t->runs[0].label + 11, 5);
		}
	}
	for (size_t r = 0; r < t->nruns; r++) {
		const char *l = t->runs[r].label;
		if (!iso)
			snprintf(out[r], 64, "%.63s", l);
		else if (same_year && same_time)
			snprintf(out[r], 64, "%.5s", l + 5);
		else if (same_year)
			snprintf(out[r], 64, "%.5s %.5s", l + 5, l + 11);
		else
			snprintf(out[r], 64, "%.10s", l);
	}
	if (iso && same_year)
		snprintf(xl, xlen, "created (UTC), %.4s%s%.5s", t->runs[0].label,
			 same_time ? ", at " : "", same_time ? t->runs[0].label + 11 : "");
	else if (iso)
		snprintf(xl, xlen, "created (UTC)");
	else
		*xl = 0;
}

/* The groups' levels as segments, the changes between them and the outliers, as data
 * blocks after the runs; their counts and indexes (blocks only for what exists: gnuplot
 * numbers the non-empty ones). */
static void seg_dat(FILE *dat, const struct trend_series *s, size_t *nchanges,
		    size_t *noutliers, int *idx_changes, int *idx_outliers)
{
	const struct tseg_result *g = &s->seg;
	fputs("\n\n# group: from to level (geometric mean)\n", dat);
	for (size_t k = 0; k < g->ngroups; k++) {
		double x0 = (double)s->pts[g->start[k]].run - 0.35;
		double x1 = (double)s->pts[g->start[k + 1] - 1].run + 0.35;
		fprintf(dat, "%s%g ", k ? "\n" : "", x0);
		plot_dat_num(dat, g->level[k]);
		fprintf(dat, "\n%g ", x1);
		plot_dat_num(dat, g->level[k]);
		fputc('\n', dat);
	}
	int next = 2;   /* index 0: the runs, 1: the groups */
	if (g->ngroups > 1) {
		fputs("\n\n# change: x level_before level_after colour text\n", dat);
		*idx_changes = next++;
	}
	for (size_t k = 0; k + 1 < g->ngroups; k++) {
		const struct tseg_cmp *c = &g->change[k];
		double x = ((double)s->pts[g->start[k + 1] - 1].run +
			    (double)s->pts[g->start[k + 1]].run) / 2;
		char txt[96];
		snprintf(txt, sizeof(txt), "%s %.3f", st_verdict_name(c->verdict), c->w.ratio);
		fprintf(dat, "%g ", x);
		plot_dat_num(dat, g->level[k]);
		fputc(' ', dat);
		plot_dat_num(dat, g->level[k + 1]);
		fprintf(dat, " %d ", c->verdict == ST_REGRESSION ? 0xcc0000 : 0x0060c0);
		plot_dat_str(dat, txt);
		fputc('\n', dat);
		(*nchanges)++;
	}
	for (size_t p = 0; p < s->npoints; p++) {
		if (!g->outlier[p])
			continue;
		if (!(*noutliers)++) {
			fputs("\n\n# outlier: run median\n", dat);
			*idx_outliers = next++;
		}
		fprintf(dat, "%zu ", s->pts[p].run);
		plot_dat_num(dat, s->pts[p].st.s.median);
		fputc('\n', dat);
	}
}

int trend_plot(const struct trend *t, size_t si, const struct plot_out *o, char *err,
	       size_t errlen)
{
	const struct trend_series *s = &t->series[si];
	struct files fs;
	int rc = plot_files_open(&fs, o, err, errlen);
	if (rc) {
		plot_files_close(&fs, 1);
		return rc;
	}
	FILE *dat = fs.dat, *gp = fs.gp;
	/* index 0: runs; 1: group levels as segments; 2: changes; 3: outliers */
	fputs("# run median min max n label\n", dat);
	for (size_t p = 0; p < s->npoints; p++) {
		const struct trend_point *pt = &s->pts[p];
		fprintf(dat, "%zu ", pt->run);
		plot_dat_num(dat, pt->st.s.median);
		fputc(' ', dat);
		plot_dat_num(dat, pt->st.s.min);
		fputc(' ', dat);
		plot_dat_num(dat, pt->st.s.max);
		fprintf(dat, " %zu ", pt->st.s.n);
		plot_dat_str(dat, t->runs[pt->run].label);
		fputc('\n', dat);
	}
	size_t nchanges = 0, noutliers = 0;
	int idx_changes = -1, idx_outliers = -1;
	if (s->segmented)
		seg_dat(dat, s, &nchanges, &noutliers, &idx_changes, &idx_outliers);
	char title[1024], sub[1024], yl[256], ob[600], words[256];
	name_words(s->metric, words, sizeof(words));
	if (*words >= 'a' && *words <= 'z')
		*words = (char)(*words - 'a' + 'A');
	snprintf(title, sizeof(title), "%s of %s, run by run (%s)", words, s->key,
		 order_text(t, ob, sizeof(ob)));
	/* the figure says what the text says: an unsteady series' line is no level */
	int unsteady = s->segmented && s->seg.unsteady;
	if (!s->segmented)
		snprintf(sub, sizeof(sub), "%s", s->note ? s->note : "");
	else if (s->seg.ngroups == 1)
		snprintf(sub, sizeof(sub), "one group: no change confirmed (margin ±%g%%)", t->margin * 100);
	else
		snprintf(sub, sizeof(sub), "%zu groups, %zu change%s; newest vs best earlier: %s %.3f",
			 s->seg.ngroups, nchanges, nchanges == 1 ? "" : "s",
			 st_verdict_name(s->seg.newest.verdict), s->seg.newest.w.ratio);
	if (unsteady) {
		size_t n = strlen(sub);
		snprintf(sub + n, sizeof(sub) - n, "; unsteady: the runs scatter ±%.1f %% around "
			 "their group%s, more than their repetitions and the margin allow",
			 s->seg.scatter * 100, s->seg.ngroups > 1 ? "s" : "");
	}
	plot_gp_header(&fs, o, title, sub, NULL, NULL);
	plot_gp_set_str(gp, "ylabel", name_label(s->metric, yl, sizeof(yl)));
	char (*tics)[64] = calloc(t->nruns + 1, sizeof(*tics));
	char xl[128];
	if (!tics) {
		plot_files_close(&fs, 1);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	compact_labels(t, tics, xl, sizeof(xl));
	if (t->label_kind != TL_CREATED || t->order_given || *xl)
		plot_gp_set_str(gp, "xlabel", *xl ? xl : t->label_kind == TL_CREATED ? "run"
				: t->label);
	fprintf(gp, "set xrange [-0.6:%g]\nset offsets 0, 0, graph 0.08, graph 0.08\n",
		(double)t->nruns - 0.4);
	if (name_is_rate(s->metric))
		fprintf(gp, "set format y '%%.%ds%%c'\n", si_decimals(s));
	fputs("set key below horizontal\n", gp);
	/* every run's label, also where this cell is missing */
	size_t maxw = 0;
	for (size_t r = 0; r < t->nruns; r++)
		maxw = grid_width(tics[r]) > maxw ? grid_width(tics[r]) : maxw;
	fputs("set xtics (", gp);
	for (size_t r = 0; r < t->nruns; r++) {
		fputs(r ? ", " : "", gp);
		plot_gp_str(gp, tics[r]);
		fprintf(gp, " %zu", r);
	}
	fputs(")\n", gp);
	free(tics);
	if (maxw * t->nruns > 80)
		fprintf(gp, "set xtics rotate by -45 left\nset bmargin %zu\n", maxw / 2 + 5);
	fputs("set grid noxtics\nplot ", gp);
	plot_gp_dat_ref(gp, &fs, 1);
	fputs(" index 0 using 1:2:3:4 with yerrorbars pt 7 ps 1 lc rgb '#4a4a4a' "
	      "title 'median of each run (min-max)'", gp);
	if (s->segmented) {
		plot_gp_dat_ref(gp, &fs, 0);
		if (unsteady)
			fprintf(gp, " index 1 using 1:2 with lines lw 2 dt (8,5) lc rgb '#2a9d2a' "
				"title 'geometric mean of the group (unsteady: runs ±%.1f %%)'",
				s->seg.scatter * 100);
		else
			fputs(" index 1 using 1:2 with lines lw 4 lc rgb '#2a9d2a' "
			      "title 'groups (geometric mean)'", gp);
	}
	if (nchanges) {
		plot_gp_dat_ref(gp, &fs, 0);
		fprintf(gp, " index %d using 1:2:(0):($3-$2):4 with vectors head filled lw 2 "
			"lc rgb variable title 'change'", idx_changes);
		plot_gp_dat_ref(gp, &fs, 0);
		fprintf(gp, " index %d using 1:3:5 with labels left offset 0.8,0.8 font ',9' "
			"notitle", idx_changes);
	}
	if (noutliers) {
		plot_gp_dat_ref(gp, &fs, 0);
		fprintf(gp, " index %d using 1:2 with points pt 6 ps 2.5 lc rgb '#e07000' "
			"title 'outlier (kept in its group)'", idx_outliers);
	}
	fputc('\n', gp);
	return plot_files_finish(&fs, rc, err, errlen);
}
