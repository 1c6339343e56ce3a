/* report.c — the Markdown and HTML report of a results file (see report.h). Called by
 * cmd_report.c. The same generator runs twice, once per format, over a small document
 * interface (headings, paragraphs, lists, grids, images); plots are drawn on the first
 * pass only and referenced by relative file names, so the directory can be moved or
 * mailed as a whole. */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "checks.h"
#include "compare.h"
#include "grid.h"
#include "names.h"
#include "pivot.h"
#include "plot.h"
#include "version.h"

#define MAX_PLOTS 24

/* ---- a tiny document writer: Markdown or HTML ---------------------------------- */

struct doc {
	FILE *f;
	enum grid_fmt fmt;   /* GRID_MD or GRID_HTML */
	int in_list;
};

static void md_escape(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (strchr("\\`*_[]<>|#", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
}

static void d_text(struct doc *d, const char *s)
{
	if (d->fmt == GRID_HTML)
		grid_html_escape(d->f, s);
	else
		md_escape(d->f, s);
}

static void d_list_end(struct doc *d)
{
	if (!d->in_list)
		return;
	fputs(d->fmt == GRID_HTML ? "</ul>\n" : "\n", d->f);
	d->in_list = 0;
}

static void d_h(struct doc *d, int level, const char *s)
{
	d_list_end(d);
	if (d->fmt == GRID_HTML) {
		fprintf(d->f, "<h%d>", level);
		d_text(d, s);
		fprintf(d->f, "</h%d>\n", level);
	} else {
		for (int i = 0; i < level; i++)
			fputc('#', d->f);
		fputc(' ', d->f);
		d_text(d, s);
		fputs("\n\n", d->f);
	}
}

__attribute__((format(printf, 2, 3)))
static void d_p(struct doc *d, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d_list_end(d);
	fputs(d->fmt == GRID_HTML ? "<p>" : "", d->f);
	d_text(d, buf);
	fputs(d->fmt == GRID_HTML ? "</p>\n" : "\n\n", d->f);
}

__attribute__((format(printf, 2, 3)))
static void d_li(struct doc *d, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!d->in_list) {
		fputs(d->fmt == GRID_HTML ? "<ul>\n" : "", d->f);
		d->in_list = 1;
	}
	fputs(d->fmt == GRID_HTML ? "<li>" : "- ", d->f);
	d_text(d, buf);
	fputs(d->fmt == GRID_HTML ? "</li>\n" : "\n", d->f);
}

static void d_grid(struct doc *d, struct grid *g)
{
	d_list_end(d);
	if (!g)
		return;
	grid_print(d->f, g, d->fmt);
	fputc('\n', d->f);
	grid_free(g);
}

static void d_img(struct doc *d, const char *base, const char *caption)
{
	d_list_end(d);
	if (d->fmt == GRID_HTML) {
		fprintf(d->f, "<figure><img src=\"%s.png\" alt=\"", base);
		grid_html_escape(d->f, caption);
		fputs("\"><figcaption>", d->f);
		grid_html_escape(d->f, caption);
		fprintf(d->f, " (<a href=\"%s.gp\">gnuplot script</a>, <a href=\"%s.dat\">data</a>)"
			"</figcaption></figure>\n", base, base);
	} else {
		fputs("![", d->f);
		md_escape(d->f, caption);
		fprintf(d->f, "](%s.png)\n\n", base);
		md_escape(d->f, caption);
		fprintf(d->f, " ([gnuplot script](%s.gp), [data](%s.dat))\n\n", base, base);
	}
}

/* ---- what the report says about the method ------------------------------------ */

static int push(char ***v, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int push(char ***v, size_t *n, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char **g = realloc(*v, (*n + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	*v = g;
	if (!(g[*n] = strdup(buf)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

int report_deviations(const struct res_file *rf, char ***out, size_t *n)
{
	json_t *m = res_get(rf->root, "method", NULL);
	json_t *ts = json_object_get(m, "trial_s");
	const char *trial = json_string_value(json_object_get(m, "trial"));
	int rc = 0, said = 0;
	size_t i;
	json_t *g;
	/* the file's own list may already say it */
	json_array_foreach(json_object_get(m, "rfc2544_deviations"), i, g)
		said |= json_is_string(g) && strstr(json_string_value(g), "60 s") != NULL;
	if (json_is_number(ts) && json_number_value(ts) < 60 && !said)
		rc |= push(out, n, "Trials last %g s; RFC 2544 §24 asks for at least 60 s.",
			   json_number_value(ts));
	const struct res_axis *fs = res_axis(rf, "frame_size");
	if (!fs || fs->nvalues < 2) {
		json_t *f = json_object_get(m, "frame_size");
		char v[64] = "64";
		if (fs && fs->nvalues)
			res_value_str(fs->values[0], v, sizeof(v));
		else if (json_is_number(f))
			res_value_str(f, v, sizeof(v));
		rc |= push(out, n, "One frame size (%s bytes); RFC 2544 §9.1 tests 64, 128, 256, "
			   "512, 1024, 1280 and 1518.", v);
	}
	if (trial && (!strcmp(trial, "fixed") || !strcmp(trial, "ladder")))
		rc |= push(out, n, "Forwarding rate at set offered loads (RFC 2285 §3.6), not the "
			   "zero-loss throughput search of RFC 2544 §26.1.");
	json_array_foreach(json_object_get(m, "goals"), i, g) {
		json_t *lr = json_object_get(g, "loss_ratio"), *ex = json_object_get(g, "exceed_ratio");
		const char *name = json_string_value(json_object_get(g, "name"));
		if (json_is_number(lr) && json_number_value(lr) > 0)
			rc |= push(out, n, "Goal %s accepts %g %% loss; RFC 2544 throughput is the "
				   "rate with no loss.", name ? name : "?", json_number_value(lr) * 100);
		if (json_is_number(ex) && json_number_value(ex) > 0)
			rc |= push(out, n, "Goal %s has exceed ratio %g (RFC 9971): some lossy "
				   "trials are tolerated at the reported rate, so it can exceed strict "
				   "RFC 2544 throughput.", name ? name : "?", json_number_value(ex));
	}
	const char *topo = json_string_value(res_get(rf->root, "environment", "topology", NULL));
	if (topo && (!strcmp(topo, "netns") || strstr(topo, "namespace")))
		rc |= push(out, n, "Sender, DUT and sink are network namespaces joined by veth on "
			   "one host; RFC 2544 §6 assumes a tester and a DUT on real links.");
	int lat = 0;
	for (size_t k = 0; k < rf->nmetrics; k++)
		lat |= !strncmp(rf->metrics[k], "lat_", 4) && res_metric_has_values(rf, rf->metrics[k]);
	if (lat)
		rc |= push(out, n, "Latency is percentiles over every test frame's timestamp "
			   "(RFC 8219 style), not one tagged frame per 120 s trial (RFC 2544 §26.2).");
	size_t withheld = 0;
	const char *why = NULL;
	for (size_t k = 0; k < rf->ncases; k++) {
		const char *w = json_string_value(json_object_get(rf->cases[k].obj,
								  "latency_withheld"));
		if (w) {
			withheld++;
			why = why ? why : w;
		}
	}
	if (withheld)
		rc |= push(out, n, "One-way latency is withheld from %zu case%s: %s.", withheld,
			   withheld == 1 ? "" : "s", why);
	size_t frames = 0;
	for (size_t k = 0; k < rf->ncases; k++) {
		const char *how = json_string_value(json_object_get(rf->cases[k].obj, "fwd_rate_from"));
		frames += how && strcmp(how, CHECK_FWD_WINDOW);
	}
	if (frames)
		rc |= push(out, n, "In %zu case%s the forwarding rate is test frames over the "
			   "sender's time, not the receiving interfaces' counters over the load "
			   "window (see the cases' flags): it also counts a backlog delivered after "
			   "the load.", frames, frames == 1 ? "" : "s");
	return rc ? -ENOMEM : 0;
}

/* ---- the plan of plots ---------------------------------------------------------- */

struct rplot {
	char name[160];
	char caption[512];
	struct plot_req rq;
	struct res_sel where;
	const char *metrics[3];
	int ok;
	char err[300];
};

struct rep {
	const struct res_file *rf;
	const struct report_opts *o;
	const char **metrics;
	size_t nmetrics;
	struct rplot plots[MAX_PLOTS];
	size_t nplots;
	struct cmp *cmp;
	char cmp_err[512];
	int cmp_plot_ok;
	char cmp_plot_err[300];
	char cmp_plot_metric[64];
};

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' || *s == '_'))
			*s = '_';
}

/* Adds one plot per block of a pivot of rows × metric(s) [× by]. */
static void plan(struct rep *r, enum plot_kind kind, const char *x, const char *y,
		 const char *const *m, size_t nm, const char *what)
{
	struct pivot *pv;
	char err[256];
	struct pv_req rq = { .rows = kind == PLOT_HEATMAP ? y : x,
			     .cols = kind == PLOT_HEATMAP ? x : NULL, .metrics = m,
			     .nmetrics = nm, .decimals = -1 };
	if (pv_build(r->rf, &rq, &pv, err, sizeof(err)))
		return;
	for (size_t b = 0; b < pv->nblocks && r->nplots < MAX_PLOTS; b++) {
		struct rplot *p = &r->plots[r->nplots];
		memset(p, 0, sizeof(*p));
		for (size_t i = 0; i < nm && i < 3; i++)
			p->metrics[i] = m[i];
		const struct res_sel *fx = &pv->blocks[b].fixed;
		int bad = 0;
		for (size_t i = 0; i < fx->n; i++)
			bad |= res_sel_add(&p->where, fx->c[i].axis, fx->c[i].value);
		if (bad) {
			res_sel_free(&p->where);
			break;
		}
		p->rq = (struct plot_req){ .kind = kind, .x = x, .y = y,
					   .metrics = p->metrics, .nmetrics = nm,
					   .where = &p->where };
		int o = snprintf(p->name, sizeof(p->name), "%s-%s-%s", what, m[0], x);
		for (size_t i = 0; i < fx->n && o > 0 && (size_t)o < sizeof(p->name); i++)
			o += snprintf(p->name + o, sizeof(p->name) - (size_t)o, "-%s_%s", fx->c[i].axis,
				      fx->c[i].value);
		sanitize(p->name);
		snprintf(p->caption, sizeof(p->caption), "%s%s%s", what,
			 *pv->blocks[b].label ? ", " : "", pv->blocks[b].label);
		r->nplots++;
	}
	pv_free(pv);
}

static int varying(const struct res_file *rf, const char **out, size_t max)
{
	size_t k = 0;
	for (size_t a = 0; a < rf->naxes && k < max; a++)
		if (rf->axes[a].nvalues > 1)
			out[k++] = rf->axes[a].name;
	return (int)k;
}

static void plan_plots(struct rep *r)
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
	const struct res_axis *fs = res_axis(rf, "frame_size");
	if (fs && fs->nvalues > 1) {
		const char *m[2];
		size_t nm = 0;
		if (res_has_metric(rf, "ndr_pps"))
			m[nm++] = "ndr_pps";
		if (res_has_metric(rf, "pdr_pps"))
			m[nm++] = "pdr_pps";
		if (!nm && res_has_metric(rf, "fwd_pps"))
			m[nm++] = "fwd_pps";
		if (nm)
			plan(r, PLOT_FRAMESIZE, "frame_size", NULL, m, nm,
			     "throughput vs frame size");
	}
	if (load && res_has_metric(rf, "fwd_pps")) {
		const char *m[3] = { "fwd_pps" };
		size_t nm = 1;
		if (res_has_metric(rf, "offered_pps"))
			m[nm++] = "offered_pps";
		if (res_has_metric(rf, "loss_pct"))
			m[nm++] = "loss_pct";
		plan(r, PLOT_LOAD, load, NULL, m, nm, "forwarding rate and loss vs offered load");
	}
	if (!r->nmetrics || !nv)
		return;
	const char *m0[] = { r->metrics[0] };
	int special = (fs && fs->nvalues > 1 && !strcmp(v[0], "frame_size")) ||
		      (load && !strcmp(v[0], load));
	if (!special || nv > 1) {
		/* line: first axis on x, the second as lines, the rest fixed per plot */
		if (nv > 1)
			plan(r, PLOT_LINE, v[0], NULL, m0, 1, "lines");
		else
			plan(r, PLOT_LINE, v[0], NULL, m0, 1, "line");
		if (nv > 1)
			plan(r, PLOT_HEATMAP, v[0], v[1], m0, 1, "heatmap");
	}
	json_t *reps = res_get(rf->root, "matrix", "repetitions", NULL);
	if (json_is_integer(reps) && json_integer_value(reps) > 1)
		plan(r, PLOT_BOX, v[0], NULL, m0, 1, "repetitions");
}

static void draw_plots(struct rep *r, size_t *failures)
{
	for (size_t i = 0; i < r->nplots; i++) {
		struct rplot *p = &r->plots[i];
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s.png", r->o->dir, p->name);
		struct plot_out po = { .path = path };
		p->ok = !plot_results(r->rf, &p->rq, &po, p->err, sizeof(p->err));
		*failures += !p->ok;
	}
	if (r->cmp && r->cmp->nrows) {
		char path[PATH_MAX];
		snprintf(r->cmp_plot_metric, sizeof(r->cmp_plot_metric), "%s", r->cmp->metrics[0]);
		snprintf(path, sizeof(path), "%s/compare-%s.png", r->o->dir, r->cmp_plot_metric);
		struct plot_out po = { .path = path };
		struct cmp *cs[] = { r->cmp };
		r->cmp_plot_ok = !cmp_plot(cs, 1, r->cmp_plot_metric, &po, r->cmp_plot_err,
					   sizeof(r->cmp_plot_err));
		*failures += !r->cmp_plot_ok;
	}
}

/* ---- the document ------------------------------------------------------------- */

static void scalar_items(struct doc *d, json_t *obj, const char *const *skip)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		int s = 0;
		for (size_t i = 0; skip && skip[i]; i++)
			s |= !strcmp(skip[i], k);
		if (s)
			continue;
		char buf[512];
		if (json_is_number(v) || json_is_string(v) || json_is_boolean(v)) {
			d_li(d, "%s: %s", k, res_value_str(v, buf, sizeof(buf)));
		} else if (json_is_array(v)) {
			size_t o = 0, i;
			json_t *e;
			char all[1024] = "";
			json_array_foreach(v, i, e)
				if (o < sizeof(all))
					o += (size_t)snprintf(all + o, sizeof(all) - o, "%s%s", i ? ", " : "",
							      res_value_str(e, buf, sizeof(buf)));
			d_li(d, "%s: %s", k, all);
		}
	}
}

static void emit(struct rep *r, struct doc *d)
{
	const struct res_file *rf = r->rf;
	const char *slash = strrchr(rf->path, '/');
	const char *fname = slash ? slash + 1 : rf->path;
	char buf[1024];

	snprintf(buf, sizeof(buf), "ppslab report: %s", rf->run_id ? rf->run_id : fname);
	d_h(d, 1, buf);
	d_li(d, "results file: %s", fname);
	json_t *x;
	if ((x = json_object_get(rf->root, "created_utc")) && json_is_string(x))
		d_li(d, "created: %s", json_string_value(x));
	if ((x = json_object_get(rf->root, "updated_utc")) && json_is_string(x))
		d_li(d, "updated: %s", json_string_value(x));
	if ((x = res_get(rf->root, "tool", "version", NULL)) && json_is_string(x))
		d_li(d, "tool: ppslab %s", json_string_value(x));
	if ((x = res_get(rf->root, "tool", "cmdline", NULL)) && json_is_string(x))
		d_li(d, "command: %s", json_string_value(x));
	x = json_object_get(rf->root, "complete");
	if (json_is_false(x))
		d_li(d, "INCOMPLETE: the sweep did not finish (ppslab run --resume continues it)");
	d_li(d, "cases: %zu in %zu cells", rf->ncases, rf->ncells);

	d_h(d, 2, "Environment");
	const struct res_file *one[] = { rf };
	d_grid(d, cmp_env_grid(one, 1));

	d_h(d, 2, "Method");
	static const char *const skip[] = { "goals", "rfc2544_deviations", NULL };
	scalar_items(d, res_get(rf->root, "method", NULL), skip);
	size_t i;
	json_t *g;
	json_array_foreach(res_get(rf->root, "method", "goals", NULL), i, g) {
		char gb[512];
		size_t o = 0;
		const char *k;
		json_t *v;
		gb[0] = 0;
		json_object_foreach(g, k, v)
			if (o < sizeof(gb) && !json_is_object(v) && !json_is_array(v))
				o += (size_t)snprintf(gb + o, sizeof(gb) - o, "%s%s=%s", o ? ", " : "",
						      k, res_value_str(v, buf, sizeof(buf)));
		d_li(d, "goal: %s", gb);
	}
	scalar_items(d, res_get(rf->root, "rig", NULL), NULL);
	d_h(d, 3, "Deviations from RFC 2544");
	json_t *dev;
	json_array_foreach(res_get(rf->root, "method", "rfc2544_deviations", NULL), i, dev)
		if (json_is_string(dev))
			d_li(d, "%s", json_string_value(dev));
	char **devs = NULL;
	size_t ndev = 0;
	report_deviations(rf, &devs, &ndev);
	for (size_t k = 0; k < ndev; k++) {
		d_li(d, "%s", devs[k]);
		free(devs[k]);
	}
	free(devs);
	d_list_end(d);

	d_h(d, 2, "Matrix");
	for (size_t a = 0; a < rf->naxes; a++) {
		char vals[1024];
		size_t o = 0;
		vals[0] = 0;
		for (size_t k = 0; k < rf->axes[a].nvalues && o < sizeof(vals); k++)
			o += (size_t)snprintf(vals + o, sizeof(vals) - o, "%s%s", k ? ", " : "",
					      res_value_str(rf->axes[a].values[k], buf, sizeof(buf)));
		d_li(d, "%s: %s", rf->axes[a].name, vals);
	}
	size_t nflag = 0, nfail = 0;
	for (size_t k = 0; k < rf->ncases; k++) {
		nflag += rf->cases[k].flagged && !rf->cases[k].failed;
		nfail += rf->cases[k].failed;
	}
	if ((x = res_get(rf->root, "matrix", "repetitions", NULL)) && json_is_integer(x))
		d_li(d, "repetitions: %lld per cell", (long long)json_integer_value(x));
	d_li(d, "flagged cases: %zu; failed cases: %zu", nflag, nfail);

	d_h(d, 2, "Results");
	d_p(d, "Medians over the repetitions, with min–max in parentheses.");
	for (size_t m = 0; m < r->nmetrics; m++) {
		char l[256];
		snprintf(buf, sizeof(buf), "%s — %s", r->metrics[m],
			 name_label(r->metrics[m], l, sizeof(l)));
		d_h(d, 3, buf);
		struct pivot *pv;
		char err[512];
		const char *mm[] = { r->metrics[m] };
		struct pv_req rq = { .metrics = mm, .nmetrics = 1, .show = PV_SHOW_MINMAX,
				     .decimals = -1 };
		if (pv_build(rf, &rq, &pv, err, sizeof(err))) {
			d_p(d, "(no table: %s)", err);
			continue;
		}
		d_list_end(d);
		pv_print(d->f, pv, d->fmt, NULL);
		fputc('\n', d->f);
		pv_free(pv);
	}

	if (r->o->plots) {
		d_h(d, 2, "Plots");
		if (!r->nplots)
			d_p(d, "Nothing to plot: no axis varies.");
		for (size_t k = 0; k < r->nplots; k++) {
			if (r->plots[k].ok)
				d_img(d, r->plots[k].name, r->plots[k].caption);
			else
				d_p(d, "%s: not drawn (%s)", r->plots[k].caption, r->plots[k].err);
		}
	}

	if (nflag || nfail) {
		d_h(d, 2, "Flagged and failed cases");
		struct grid *gr = grid_new(4);
		if (gr && grid_add_row(gr) >= 0) {
			grid_set(gr, 0, 0, "cell");
			grid_set(gr, 0, 1, "rep");
			grid_set(gr, 0, 2, "status");
			grid_set(gr, 0, 3, "flags");
			for (size_t k = 0; k < rf->ncases; k++) {
				const struct res_case *c = &rf->cases[k];
				if (!c->flagged && !c->failed)
					continue;
				long row = grid_add_row(gr);
				if (row < 0)
					break;
				char fl[1024];
				size_t o = 0;
				json_t *f;
				size_t j;
				fl[0] = 0;
				json_array_foreach(json_object_get(c->obj, "flags"), j, f)
					if (o < sizeof(fl))
						o += (size_t)snprintf(fl + o, sizeof(fl) - o, "%s%s",
								      j ? "; " : "", json_string_value(f));
				grid_set(gr, (size_t)row, 0, rf->cells[c->cell].key);
				grid_setf(gr, (size_t)row, 1, "%d", c->rep);
				grid_set(gr, (size_t)row, 2, c->status ? c->status : "-");
				grid_set(gr, (size_t)row, 3, fl);
			}
		}
		d_grid(d, gr);
	}

	if (r->o->base) {
		const struct res_file *base = r->o->base;
		const char *bs = strrchr(base->path, '/');
		snprintf(buf, sizeof(buf), "Comparison with %s", bs ? bs + 1 : base->path);
		d_h(d, 2, buf);
		const struct res_file *two[] = { base, rf };
		d_grid(d, cmp_env_grid(two, 2));
		if (!r->cmp) {
			d_p(d, "No comparison: %s", r->cmp_err);
		} else {
			d_list_end(d);
			cmp_print(d->f, r->cmp, d->fmt);
			fputc('\n', d->f);
			if (r->o->plots && r->cmp->nrows) {
				char base_name[128];
				snprintf(base_name, sizeof(base_name), "compare-%s", r->cmp_plot_metric);
				if (r->cmp_plot_ok)
					d_img(d, base_name, "baseline vs this run, mean ± stdev");
				else
					d_p(d, "comparison plot not drawn (%s)", r->cmp_plot_err);
			}
		}
	}
	time_t now = time(NULL);
	struct tm tm;
	char ts[64];
	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	d_p(d, "Generated by ppslab %s at %s.", ppslab_version(), ts);
	d_list_end(d);
}

static const char *const default_metrics[] = { "ndr_pps", "pdr_pps", "mrr_pps", "fwd_pps",
					       "fwd_pps_a", "fwd_pps_b", "loss_pct",
					       "lat_p50_ns", "lat_p99_ns", "cpu_s" };

static int write_one(struct rep *r, const char *name, enum grid_fmt fmt, char *err,
		     size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", r->o->dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	struct doc d = { .f = f, .fmt = fmt };
	if (fmt == GRID_HTML) {
		fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", f);
		grid_html_escape(f, r->rf->run_id ? r->rf->run_id : r->rf->path);
		fputs("</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;"
		      "padding:0 1em}table{border-collapse:collapse;margin:1em 0}th,td{border:1px "
		      "solid #bbb;padding:2px 8px;text-align:left}.r{text-align:right;"
		      "font-variant-numeric:tabular-nums}img{max-width:100%}figure{margin:1em 0}"
		      "</style></head><body>\n", f);
	}
	emit(r, &d);
	if (fmt == GRID_HTML)
		fputs("</body></html>\n", f);
	int bad = ferror(f);
	if (fclose(f) || bad) {
		snprintf(err, errlen, "cannot write %s", path);
		return -EIO;
	}
	return 0;
}

int report_write(const struct res_file *rf, const struct report_opts *o,
		 size_t *plot_failures, char *err, size_t errlen)
{
	struct rep r = { .rf = rf, .o = o };
	int rc = 0;
	*plot_failures = 0;
	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		int e = errno;
		snprintf(err, errlen, "cannot make %s: %s", o->dir, strerror(e));
		return -e;
	}
	r.metrics = calloc(rf->nmetrics + 1, sizeof(*r.metrics));
	if (!r.metrics)
		return -ENOMEM;
	if (o->nmetrics) {
		for (size_t i = 0; i < o->nmetrics; i++) {
			if (!res_has_metric(rf, o->metrics[i])) {
				snprintf(err, errlen, "--metric %s: no case in %s has this metric",
					 o->metrics[i], rf->path);
				rc = -EINVAL;
				goto out;
			}
			if (r.nmetrics < rf->nmetrics)
				r.metrics[r.nmetrics++] = o->metrics[i];
		}
	} else {
		int bidir = res_metric_has_values(rf, "fwd_pps_b");
		for (size_t i = 0; i < sizeof(default_metrics) / sizeof(default_metrics[0]); i++) {
			if (!bidir && !strncmp(default_metrics[i], "fwd_pps_", 8))
				continue;
			if (res_has_metric(rf, default_metrics[i]))
				r.metrics[r.nmetrics++] = default_metrics[i];
		}
	}
	if (o->base) {
		struct cmp_opts co = { .margin = o->margin > 0 ? o->margin : 0.02, .alpha = 0.05,
				       .floor = -1 };
		if (cmp_run(o->base, rf, &co, &r.cmp, r.cmp_err, sizeof(r.cmp_err)))
			r.cmp = NULL;
	}
	if (o->plots) {
		plan_plots(&r);
		draw_plots(&r, plot_failures);
	}
	if ((rc = write_one(&r, "report.md", GRID_MD, err, errlen)) ||
	    (rc = write_one(&r, "report.html", GRID_HTML, err, errlen)))
		goto out;
out:
	for (size_t i = 0; i < r.nplots; i++)
		res_sel_free(&r.plots[i].where);
	cmp_free(r.cmp);
	free(r.metrics);
	return rc;
}
