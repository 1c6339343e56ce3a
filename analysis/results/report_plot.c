/* SPDX-License-Identifier: BSD-2-Clause */
/* report_plot.c — the report's plots (see report_plot.h): which plots a results file
 * calls for (its metrics against the axes that vary, boxes of the repetitions, the
 * comparison against a baseline), and drawing each twice, as SVG for the page and as
 * PNG with its .gp and .dat beside the Markdown. Called by report.c. */
#include "report_plot.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latload.h"
#include "pivot.h"

/* ---- the plan of plots ---------------------------------------------------------- */

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' || *s == '_'))
			*s = '_';
}

static struct rplot *add_plot(struct rep *r, enum plot_kind kind, const char *x,
			      const char *y, const char *const *m, size_t nm, const char *prefix,
			      const char *what, const struct res_sel *fixed,
			      const char *fixed_label)
{
	if (r->nplots >= REPORT_MAX_PLOTS)
		return NULL;
	struct rplot *p = &r->plots[r->nplots];
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < nm && i < 3; i++)
		p->metrics[i] = m[i];
	for (size_t i = 0; fixed && i < fixed->n; i++)
		if (res_sel_add(&p->where, fixed->c[i].axis, fixed->c[i].value)) {
			res_sel_free(&p->where);
			return NULL;
		}
	p->rq = (struct plot_req){ .kind = kind, .x = x, .y = y, .metrics = p->metrics,
				   .nmetrics = nm < 3 ? nm : 3, .where = &p->where };
	int o = snprintf(p->name, sizeof(p->name), "%s-%s-%s", prefix, m[0], x);
	for (size_t i = 0; fixed && i < fixed->n && o > 0 && (size_t)o < sizeof(p->name); i++)
		o += snprintf(p->name + o, sizeof(p->name) - (size_t)o, "-%s_%s", fixed->c[i].axis,
			      fixed->c[i].value);
	sanitize(p->name);
	snprintf(p->caption, sizeof(p->caption), "%s%s%s", what, fixed_label && *fixed_label ?
		 ", " : "", fixed_label ? fixed_label : "");
	r->nplots++;
	return p;
}

/* One figure of this kind with a panel per combination of the axes it does not show;
 * beyond the panels one figure takes, one figure per value of the first of them. */
__attribute__((format(printf, 8, 9)))
static void plan(struct rep *r, enum plot_kind kind, const char *x, const char *y,
		 const char *const *m, size_t nm, const char *prefix, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	struct pivot *pv;
	char err[256];
	struct pv_req rq = { .rows = kind == PLOT_HEATMAP ? y : x,
			     .cols = kind == PLOT_HEATMAP ? x : NULL, .metrics = m,
			     .nmetrics = nm, .decimals = -1 };
	if (pv_build(r->rf, &rq, &pv, err, sizeof(err)))
		return;
	if (pv->nblocks <= 24 || !pv->blocks[0].fixed.n) {
		add_plot(r, kind, x, y, m, nm, prefix, what, NULL, NULL);
	} else {
		const char *axis = pv->blocks[0].fixed.c[0].axis;
		const struct res_axis *ax = res_axis(r->rf, axis);
		for (size_t v = 0; ax && v < ax->nvalues; v++) {
			char val[256], label[400];
			struct res_sel one = { 0 };
			res_value_str(ax->values[v], val, sizeof(val));
			snprintf(label, sizeof(label), "%s=%s", axis, val);
			if (!res_sel_add(&one, axis, val))
				add_plot(r, kind, x, y, m, nm, prefix, what, &one, label);
			res_sel_free(&one);
		}
	}
	pv_free(pv);
}

/* ": a line per burst_max, a panel per rules" for the axes from k on. */
static void panels_text(const char **v, int nv, int k, const char *per, char *buf,
			size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	if (per && nv > 1)
		o += (size_t)snprintf(buf + o, len - o, ": %s %s", per, v[1]);
	for (int i = k; i < nv && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i == k ? (o ? ", a panel per " :
								       ": a panel per ") : " × ", v[i]);
}

static int varying(const struct res_file *rf, const char **out, size_t max)
{
	size_t k = 0;
	for (size_t a = 0; a < rf->naxes && k < max; a++)
		if (rf->axes[a].nvalues > 1)
			out[k++] = rf->axes[a].name;
	return (int)k;
}

static const char *frame_size_axis(const struct res_file *rf)
{
	static const char *const names[] = { "frame_size", "size", "wire_size" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct res_axis *a = res_axis(rf, names[i]);
		bool nums = a != NULL;   /* a word among the sizes ("imix"): not a size axis */
		for (size_t v = 0; a && v < a->nvalues; v++)
			nums &= json_is_number(a->values[v]);
		if (a && a->nvalues > 1 && nums)
			return names[i];
	}
	return NULL;
}

void report_plan_plots(struct rep *r)
{
	const struct res_file *rf = r->rf;
	const char *v[16];
	int nv = varying(rf, v, 16);
	const char *load_axes[] = { "load_pps", "intended_pps", "offered_pps", "rate_pps",
				    "load_pct", "load" };
	const char *load = NULL;
	for (size_t i = 0; i < sizeof(load_axes) / sizeof(load_axes[0]) && !load; i++) {
		const struct res_axis *a = res_axis(rf, load_axes[i]);
		if (a && a->nvalues > 1)
			load = load_axes[i];
	}
	const char *fs = frame_size_axis(rf);
	if (fs) {
		const char *m[4];
		size_t nm = 0;
		for (size_t i = 0; i < RES_MAX_GOALS && nm < 4; i++)
			if (res_goal_metric(rf, i))
				m[nm++] = res_goal_metric(rf, i);
		if (!nm && res_has_metric(rf, "ndr_pps"))   /* a file without its goals */
			m[nm++] = "ndr_pps";
		if (nm < 2 && res_has_metric(rf, "pdr_pps") && !res_goal_metric(rf, 0))
			m[nm++] = "pdr_pps";
		if (!nm && res_metric_has_values(rf, "fwd_pps"))
			m[nm++] = "fwd_pps";
		if (nm)
			plan(r, PLOT_FRAMESIZE, fs, NULL, m, nm, "framesize", "throughput vs frame size "
			     "against the line rate (RFC 2544 §26.1)");
	}
	if (load && res_has_metric(rf, "fwd_pps")) {
		const char *m[3] = { "fwd_pps" };
		size_t nm = 1;
		if (res_has_metric(rf, "offered_pps"))
			m[nm++] = "offered_pps";
		if (res_has_metric(rf, "loss_pct"))
			m[nm++] = "loss_pct";
		plan(r, PLOT_LOAD, load, NULL, m, nm, "load", "forwarding rate and loss vs offered "
		     "load (RFC 2285/2889)");
	}
	struct lat_point *lp;
	size_t nlp = 0;
	if (!lat_points(rf, NULL, &lp, &nlp) && nlp) {   /* docs/method.md#latency-at-load */
		static const char *const lm[] = { "latency" };
		add_plot(r, PLOT_LATLOAD, "load_pct", NULL, lm, 1, "latload", "latency at load "
			 "(RFC 8219 typical and worst-case), a line per frame size", NULL, NULL);
	}
	free(lp);
	for (size_t c = 0; c < rf->ncases; c++)   /* docs/method.md#outage-timeline */
		if (json_object_get(json_object_get(rf->cases[c].obj, "results"), "OUTAGE")) {
			static const char *const om[] = { "gaps" };
			add_plot(r, PLOT_TIMELINE, "t0", NULL, om, 1, "timeline", "outage timeline: "
				 "each stream's gaps around the action at t0", NULL, NULL);
			break;
		}
	if (!r->nmetrics || !nv)
		return;
	const char *m0[] = { r->metrics[0] };
	int special = (fs && !strcmp(v[0], fs)) || (load && !strcmp(v[0], load));
	if (!special || nv > 1) {
		/* line: the first axis on x, the second as lines, the others as panels */
		char what[512];
		panels_text(v, nv, 2, "a line per", what, sizeof(what));
		plan(r, PLOT_LINE, v[0], NULL, m0, 1, "line", "%s vs %s%s", m0[0], v[0], what);
		if (nv > 1) {
			panels_text(v, nv, 2, NULL, what, sizeof(what));
			plan(r, PLOT_HEATMAP, v[0], v[1], m0, 1, "heatmap", "%s over %s × %s%s", m0[0],
			     v[0], v[1], what);
		}
	}
	json_t *reps = res_get(rf->root, "matrix", "repetitions", NULL);
	if (json_is_integer(reps) && json_integer_value(reps) > 1) {
		char what[512];
		panels_text(v, nv, 2, "a box per", what, sizeof(what));
		plan(r, PLOT_BOX, v[0], NULL, m0, 1, "repetitions", "the repetitions of %s per %s%s",
		     m0[0], v[0], what);
	}
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, k;
	do {
		if (n + 65536 > cap) {
			unsigned char *g = realloc(buf, cap = n + 65536);
			if (!g) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = g;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k > 0);
	fclose(f);
	*len = n;
	return buf;
}

/* The size an SVG declares in its viewBox. */
static void svg_size(const unsigned char *svg, size_t len, int *w, int *h)
{
	*w = 900;
	*h = 540;
	char head[1024];
	size_t n = len < sizeof(head) - 1 ? len : sizeof(head) - 1;
	memcpy(head, svg, n);
	head[n] = 0;
	const char *vb = strstr(head, "viewBox=\"");
	int x0, y0;
	if (vb)
		sscanf(vb + 9, "%d %d %d %d", &x0, &y0, w, h);
}

/* Draws a plot twice: SVG for the page (read back, the file removed), then PNG with its
 * .gp and .dat for the Markdown and for restyling. */
static int draw_one(struct rep *r, struct rplot *p,
		    int (*draw)(struct rep *r, struct rplot *p, const struct plot_out *o))
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s.svg", r->o->dir, p->name);
	struct plot_out svg = { .path = path };
	if (!draw(r, p, &svg)) {
		p->svg = slurp(path, &p->svg_len);
		if (p->svg)
			svg_size(p->svg, p->svg_len, &p->w, &p->h);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s.png", r->o->dir, p->name);
	struct plot_out png = { .path = path };
	p->ok = !draw(r, p, &png);
	return p->ok;
}

static int draw_results(struct rep *r, struct rplot *p, const struct plot_out *o)
{
	return plot_results(r->rf, &p->rq, o, p->err, sizeof(p->err));
}

static int draw_cmp(struct rep *r, struct rplot *p, const struct plot_out *o)
{
	struct cmp *cs[] = { r->cmp };
	return cmp_plot(cs, 1, p->metrics[0], o, p->err, sizeof(p->err));
}

void report_draw_plots(struct rep *r, size_t *failures)
{
	for (size_t i = 0; i < r->nplots; i++)
		*failures += !draw_one(r, &r->plots[i], draw_results);
	if (r->cmp && r->cmp->nrows) {
		struct rplot *p = &r->cmp_plot;
		p->metrics[0] = r->cmp->metrics[0];
		snprintf(p->name, sizeof(p->name), "compare-%s", r->cmp->metrics[0]);
		sanitize(p->name);
		snprintf(p->caption, sizeof(p->caption), "baseline vs this run, %s, mean ± stdev",
			 r->cmp->metrics[0]);
		*failures += !draw_one(r, p, draw_cmp);
	}
}

void report_plot_one(struct doc *d, const struct rplot *p)
{
	if (!p->ok && !p->svg) {
		report_p(d, "%s: not drawn (%s)", p->caption, p->err);
		return;
	}
	struct drawn dr = { .base = p->name, .caption = p->caption, .svg = p->svg,
			    .svg_len = p->svg_len, .w = p->w, .h = p->h };
	report_img(d, &dr);
}
