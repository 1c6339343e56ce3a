/* SPDX-License-Identifier: BSD-2-Clause */
/* report.c — the report of a results file (see report.h), in Markdown and as one
 * self-contained HTML page. Called by cmd_report.c. The same generator runs twice, once
 * per format, over a small document interface (headings, paragraphs, lists, grids,
 * figures). Plots are drawn once as SVG, embedded in the HTML page as data, and once as
 * PNG beside the Markdown (with their .gp and .dat), so the page can be mailed alone and
 * the directory restyled. Numbers are written for people: thousands separators, Mpps
 * where large, latency in µs or ms, percentages. */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "grid.h"
#include "model.h"
#include "names.h"
#include "pivot.h"
#include "plot.h"
#include "strlist.h"
#include "version.h"

#define MAX_PLOTS 24

/* ---- numbers for people ------------------------------------------------------------- */

struct ufmt {
	double div;        /* shown value = v / div */
	const char *unit;  /* "pps", "Mpps", "µs", "%", or "" */
	int dec;
};

static int ends_with(const char *s, const char *suf)
{
	size_t ls = strlen(s), lf = strlen(suf);
	return ls >= lf && !strcmp(s + ls - lf, suf);
}

/* The unit a column of this metric is shown in, from its largest magnitude. */
static void unit_for(const char *metric, double maxabs, int integral, struct ufmt *u)
{
	const char *nu = name_unit(metric);
	u->div = 1;
	u->unit = "";
	u->dec = grid_decimals(maxabs, integral);
	if (!strcmp(nu, "packets/s")) {
		if (maxabs >= 1e6) {
			u->div = 1e6, u->unit = "Mpps", u->dec = 3;
		} else {
			u->unit = "pps", u->dec = 0;
		}
	} else if (!strcmp(nu, "bit/s")) {
		if (maxabs >= 1e9)
			u->div = 1e9, u->unit = "Gbit/s", u->dec = 2;
		else if (maxabs >= 1e6)
			u->div = 1e6, u->unit = "Mbit/s", u->dec = 1;
		else
			u->unit = "bit/s", u->dec = 0;
	} else if (!strcmp(nu, "ns")) {
		if (maxabs >= 1e6)
			u->div = 1e6, u->unit = "ms", u->dec = maxabs >= 1e8 ? 0 : 2;
		else if (maxabs >= 1e3)
			u->div = 1e3, u->unit = "µs", u->dec = maxabs >= 1e5 ? 0 : 1;
		else
			u->unit = "ns", u->dec = 0;
	} else if (!strcmp(nu, "%")) {
		u->unit = "%";
		u->dec = maxabs >= 10 ? 1 : maxabs >= 0.1 ? 2 : 3;
	} else if (ends_with(metric, "_ratio")) {
		u->div = 0.01, u->unit = "%", u->dec = maxabs >= 0.1 ? 1 : 3;
	} else if (!strcmp(nu, "s")) {
		u->unit = "s", u->dec = maxabs >= 100 ? 0 : 2;
	} else if (*nu) {
		u->unit = nu;
	}
}

static char *human(const struct ufmt *u, double v, char *buf, size_t len)
{
	return grid_num(v / u->div, u->dec, buf, len);
}

/* One value with its unit: "1.629 Mpps", "813.7 ms", "450,072 pps", "0.25 %". */
static char *human_unit(const char *metric, double v, char *buf, size_t len)
{
	struct ufmt u;
	char n[64];
	unit_for(metric, fabs(v), v == floor(v), &u);
	human(&u, v, n, sizeof(n));
	snprintf(buf, len, "%s%s%s", n, *u.unit ? " " : "", u.unit);
	return buf;
}

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

/* A heading; id (HTML only) makes it a link target. */
static void d_h(struct doc *d, int level, const char *id, const char *s)
{
	d_list_end(d);
	if (d->fmt == GRID_HTML) {
		fprintf(d->f, "<h%d%s%s%s>", level, id ? " id=\"" : "", id ? id : "", id ? "\"" : "");
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
	char buf[4096];
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
	char buf[4096];
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

/* A list item "KEY: value" with the key emphasised. */
__attribute__((format(printf, 3, 4)))
static void d_kv(struct doc *d, const char *key, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!d->in_list) {
		fputs(d->fmt == GRID_HTML ? "<ul>\n" : "", d->f);
		d->in_list = 1;
	}
	if (d->fmt == GRID_HTML) {
		fputs("<li><b>", d->f);
		d_text(d, key);
		fputs(":</b> ", d->f);
		d_text(d, buf);
		fputs("</li>\n", d->f);
	} else {
		fputs("- **", d->f);
		d_text(d, key);
		fputs(":** ", d->f);
		d_text(d, buf);
		fputc('\n', d->f);
	}
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

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		fputc(t[v >> 18 & 63], f);
		fputc(t[v >> 12 & 63], f);
		fputc(i + 1 < n ? t[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? t[v & 63] : '=', f);
	}
}

/* A drawn plot: its base name (NAME.png beside the Markdown) and its SVG for the page. */
struct drawn {
	const char *base;
	const char *caption;
	unsigned char *svg;   /* the SVG file's bytes, or NULL */
	size_t svg_len;
	int w, h;             /* from its viewBox */
};

static void d_img(struct doc *d, const struct drawn *p)
{
	d_list_end(d);
	if (d->fmt == GRID_HTML) {
		fputs("<figure>", d->f);
		if (p->svg) {
			fprintf(d->f, "<img width=\"%d\" height=\"%d\" alt=\"", p->w, p->h);
			grid_html_escape(d->f, p->caption);
			fputs("\" src=\"data:image/svg+xml;base64,", d->f);
			base64(d->f, p->svg, p->svg_len);
			fputs("\">", d->f);
		}
		fputs("<figcaption>", d->f);
		grid_html_escape(d->f, p->caption);
		fputs(p->svg ? "" : " (the SVG could not be drawn; see the PNG beside report.md)",
		      d->f);
		fputs("</figcaption></figure>\n", d->f);
	} else {
		fputs("![", d->f);
		md_escape(d->f, p->caption);
		fprintf(d->f, "](%s.png)\n\n", p->base);
		md_escape(d->f, p->caption);
		fprintf(d->f, " ([gnuplot script](%s.gp), [data](%s.dat))\n\n", p->base, p->base);
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
	return strv_add(v, n, buf);
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
		frames += how && strcmp(how, RES_FWD_WINDOW);
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
	unsigned char *svg;
	size_t svg_len;
	int w, h;
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
	struct rplot cmp_plot;
	json_t *fits;
};

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
	if (r->nplots >= MAX_PLOTS)
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
		if (a && a->nvalues > 1)
			return names[i];
	}
	return NULL;
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
	const char *fs = frame_size_axis(rf);
	if (fs) {
		const char *m[2];
		size_t nm = 0;
		if (res_has_metric(rf, "ndr_pps"))
			m[nm++] = "ndr_pps";
		if (res_has_metric(rf, "pdr_pps"))
			m[nm++] = "pdr_pps";
		if (!nm && res_has_metric(rf, "fwd_pps"))
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

static void draw_plots(struct rep *r, size_t *failures)
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

static void d_plot(struct doc *d, const struct rplot *p)
{
	if (!p->ok && !p->svg) {
		d_p(d, "%s: not drawn (%s)", p->caption, p->err);
		return;
	}
	struct drawn dr = { .base = p->name, .caption = p->caption, .svg = p->svg,
			    .svg_len = p->svg_len, .w = p->w, .h = p->h };
	d_img(d, &dr);
}

/* ---- the tables ----------------------------------------------------------------------- */

/* The metric over its pivot: one table per block, cells in the column's unit with the
 * min–max of the repetitions, '*' where a repetition was flagged. */
static void results_table(struct doc *d, const struct res_file *rf, const char *metric)
{
	struct pivot *pv;
	char err[512];
	const char *mm[] = { metric };
	struct pv_req rq = { .metrics = mm, .nmetrics = 1, .decimals = -1 };
	if (pv_build(rf, &rq, &pv, err, sizeof(err))) {
		d_p(d, "(no table: %s)", err);
		return;
	}
	double maxabs = 0;
	int integral = 1;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++) {
			const struct pv_cell *pc = &pv->blocks[b].cells[i];
			if (pc->cell < 0 || !pc->st.s.n)
				continue;
			maxabs = fmax(maxabs, fmax(fabs(pc->st.s.max), fabs(pc->st.s.min)));
			integral &= pc->st.s.median == floor(pc->st.s.median);
		}
	struct ufmt u;
	unit_for(metric, maxabs, integral, &u);
	char cap[1024], l[256];
	pv_caption(pv, cap, sizeof(cap));
	name_label(metric, l, sizeof(l));
	char *paren = strstr(l, " (");
	if (paren)
		*paren = 0;
	d_p(d, "%s%s%s, %s%s.", l, *u.unit ? " in " : "", u.unit,
	    strchr(cap, ',') ? strchr(cap, ',') + 2 : cap,
	    pv->n_max > 1 ? "; min–max of the repetitions in parentheses" : "");
	for (size_t b = 0; b < pv->nblocks; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		if (pv->nblocks > 1) {
			if (d->fmt == GRID_HTML) {
				fputs("<p class=\"block\">", d->f);
				grid_html_escape(d->f, bl->label);
				fputs("</p>\n", d->f);
			} else {
				fputs("**", d->f);
				md_escape(d->f, bl->label);
				fputs("**\n\n", d->f);
			}
		}
		struct grid *g = grid_new(pv->ncols + 1);
		if (!g || grid_add_row(g) < 0) {
			grid_free(g);
			break;
		}
		grid_set(g, 0, 0, pv->row_label);
		for (size_t c = 0; c < pv->ncols; c++) {
			grid_set(g, 0, c + 1, pv->cols[c].label);
			g->align[c + 1] = 'r';
		}
		for (size_t r = 0; r < bl->nrows; r++) {
			long row = grid_add_row(g);
			if (row < 0)
				break;
			char v[256];
			grid_set(g, (size_t)row, 0, res_value_str(bl->rows[r], v, sizeof(v)));
			for (size_t c = 0; c < pv->ncols; c++) {
				const struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
				if (pc->cell < 0 || !pc->st.s.n) {
					grid_set(g, (size_t)row, c + 1, "–");
					continue;
				}
				char med[64], lo[64], hi[64];
				human(&u, pc->st.s.median, med, sizeof(med));
				if (pc->st.s.n > 1 && pc->st.s.max > pc->st.s.min)
					grid_setf(g, (size_t)row, c + 1, "%s (%s–%s)%s", med,
						  human(&u, pc->st.s.min, lo, sizeof(lo)),
						  human(&u, pc->st.s.max, hi, sizeof(hi)),
						  pc->st.flagged ? "*" : "");
				else
					grid_setf(g, (size_t)row, c + 1, "%s%s", med,
						  pc->st.flagged ? "*" : "");
			}
		}
		d_grid(d, g);
	}
	if (pv->flagged_cells) {
		d_p(d, "* includes flagged repetitions (a consistency check failed or the offered "
		       "load missed its target; see Flagged and failed cases). Why:");
		/* each kind of flag with the cells it marks and its first text, as a table does */
		const char *k;
		json_t *e;
		int shown = 0;
		json_object_foreach(pv->reasons, k, e) {
			size_t n = json_object_size(json_object_get(e, "cells"));
			const char *t = json_string_value(json_object_get(e, "text"));
			(void)k;
			if (shown++ == 6) {
				d_li(d, "... and %zu more kinds", json_object_size(pv->reasons) - 6);
				break;
			}
			d_li(d, "%zu cell%s: %.200s%s", n, n == 1 ? "" : "s", t ? t : "",
			     t && strlen(t) > 200 ? "..." : "");
		}
		d_list_end(d);
	}
	pv_free(pv);
}

/* The rule-cost fits: b per rule per frame, a, R², for each series. */
static void fits_table(struct doc *d, json_t *fits)
{
	struct grid *g = grid_new(6);
	if (!g || grid_add_row(g) < 0) {
		grid_free(g);
		return;
	}
	static const char *const head[] = { "metric", "cells", "b (ns per rule per frame)",
					    "a (µs per frame)", "R²", "farthest point" };
	for (size_t c = 0; c < 6; c++) {
		grid_set(g, 0, c, head[c]);
		g->align[c] = c >= 2 ? 'r' : 'l';
	}
	size_t i;
	json_t *row;
	json_array_foreach(fits, i, row) {
		long k = grid_add_row(g);
		if (k < 0)
			break;
		char cells[512] = "", v[128];
		size_t o = 0;
		const char *key;
		json_t *val;
		json_object_foreach(json_object_get(row, "params"), key, val)
			if (o < sizeof(cells))
				o += (size_t)snprintf(cells + o, sizeof(cells) - o, "%s%s=%s", o ? ", " : "",
						      key, res_value_str(val, v, sizeof(v)));
		grid_setf(g, (size_t)k, 0, "%s vs %s", json_string_value(json_object_get(row, "metric")),
			  json_string_value(json_object_get(row, "axis")));
		grid_set(g, (size_t)k, 1, *cells ? cells : "all");
		grid_setf(g, (size_t)k, 2, "%.3g", json_number_value(json_object_get(row, "b_ns_per_rule")));
		grid_setf(g, (size_t)k, 3, "%.3g", json_number_value(json_object_get(row, "a_s")) * 1e6);
		grid_setf(g, (size_t)k, 4, "%.4f", json_number_value(json_object_get(row, "r2")));
		json_t *me = json_object_get(row, "max_rel_err");
		if (json_is_number(me))
			grid_setf(g, (size_t)k, 5, "%.1f %%", json_number_value(me) * 100);
		else
			grid_set(g, (size_t)k, 5, "–");
	}
	d_grid(d, g);
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
		if (json_is_number(v) && *name_unit(k)) {
			d_kv(d, k, "%s", human_unit(k, json_number_value(v), buf, sizeof(buf)));
		} else if (json_is_number(v) || json_is_string(v) || json_is_boolean(v)) {
			d_kv(d, k, "%s", res_value_str(v, buf, sizeof(buf)));
		} else if (json_is_array(v)) {
			size_t o = 0, i;
			json_t *e;
			char all[1024] = "";
			json_array_foreach(v, i, e)
				if (o < sizeof(all))
					o += (size_t)snprintf(all + o, sizeof(all) - o, "%s%s", i ? ", " : "",
							      res_value_str(e, buf, sizeof(buf)));
			d_kv(d, k, "%s", all);
		}
	}
}

/* The cell with the highest (or, lower being better, lowest) median of the metric, and
 * the one at the other end. */
static int extremes(const struct res_file *rf, const char *metric, long *best, long *worst,
		    double *vbest, double *vworst)
{
	int lower = name_lower_is_better(metric);
	*best = *worst = -1;
	for (size_t c = 0; c < rf->ncells; c++) {
		struct res_stats st;
		if (res_cell_stats(rf, c, metric, &st, NULL) || !st.s.n)
			continue;
		double v = st.s.median;
		if (*best < 0 || (lower ? v < *vbest : v > *vbest)) {
			*best = (long)c;
			*vbest = v;
		}
		if (*worst < 0 || (lower ? v > *vworst : v < *vworst)) {
			*worst = (long)c;
			*vworst = v;
		}
	}
	return *best >= 0;
}

static void headline(struct rep *r, struct doc *d, size_t nflag, size_t nfail)
{
	const struct res_file *rf = r->rf;
	char buf[1024], l[256], a[64], b[64];
	/* what was measured */
	size_t o = 0;
	buf[0] = 0;
	for (size_t k = 0; k < rf->naxes && o < sizeof(buf); k++)
		if (rf->axes[k].nvalues > 1)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s (%zu values)", o ? " × " : "",
					      rf->axes[k].name, rf->axes[k].nvalues);
	const char *m0 = r->nmetrics ? r->metrics[0] : "fwd_pps";
	name_label(m0, l, sizeof(l));
	char *paren = strstr(l, " (");
	if (paren)
		*paren = 0;
	json_t *reps = res_get(rf->root, "matrix", "repetitions", NULL);
	const char *trial = json_string_value(res_get(rf->root, "method", "trial", NULL));
	json_t *ts = res_get(rf->root, "method", "trial_s", NULL);
	char trials[128] = "";
	if (trial)
		snprintf(trials, sizeof(trials), ", %s trials%s%s%s", trial,
			 json_is_number(ts) ? " of " : "", json_is_number(ts) ?
			 res_value_str(ts, a, sizeof(a)) : "", json_is_number(ts) ? " s" : "");
	d_kv(d, "Measured", "%s (%s)%s%s: %zu cells, %s repetition%s each%s.", l, m0,
	     *buf ? " over " : "", buf, rf->ncells,
	     json_is_integer(reps) ? res_value_str(reps, b, sizeof(b)) : "?",
	     json_is_integer(reps) && json_integer_value(reps) == 1 ? "" : "s", trials);
	const char *desc = json_string_value(res_get(rf->root, "profile", "description", NULL));
	if (desc)
		d_kv(d, "Profile", "%s", desc);
	static const char *const roles[][2] = { { "dut", "Device under test" },
						{ "sender", "Sender" }, { "sink", "Sink" } };
	for (size_t i = 0; i < 3; i++) {
		res_env_line(rf, roles[i][0], buf, sizeof(buf));
		if (*buf)
			d_kv(d, roles[i][1], "%s", buf);
	}
	const char *topo = json_string_value(res_get(rf->root, "environment", "topology", NULL));
	if (topo)
		d_kv(d, "Topology", "%s", topo);
	long best, worst;
	double vb = 0, vw = 0;
	if (extremes(rf, m0, &best, &worst, &vb, &vw)) {
		d_kv(d, "Best cell", "%s: %s", rf->cells[best].key, human_unit(m0, vb, a, sizeof(a)));
		if (worst != best)
			d_kv(d, "Worst cell", "%s: %s", rf->cells[worst].key,
			     human_unit(m0, vw, b, sizeof(b)));
	}
	json_t *c = res_get(rf->root, "rig", "ceiling_pps", NULL);
	if (json_is_number(c))
		d_kv(d, "Rig ceiling", "%s (the sender and sink alone, without the DUT)",
		     human_unit("ceiling_pps", json_number_value(c), a, sizeof(a)));
	size_t i;
	json_t *row;
	json_array_foreach(r->fits, i, row) {
		if (i >= 4)
			break;
		char cells[256] = "", v[64];
		size_t co = 0;
		const char *key;
		json_t *val;
		json_object_foreach(json_object_get(row, "params"), key, val)
			if (co < sizeof(cells))
				co += (size_t)snprintf(cells + co, sizeof(cells) - co, "%s%s=%s",
						       co ? ", " : " (", key, res_value_str(val, v, sizeof(v)));
		if (co && co < sizeof(cells) - 1)
			strcat(cells, ")");
		d_kv(d, "Rule cost", "%s: b = %.3g ns per rule per frame, a = %.3g µs, R² = %.3f%s",
		     json_string_value(json_object_get(row, "metric")),
		     json_number_value(json_object_get(row, "b_ns_per_rule")),
		     json_number_value(json_object_get(row, "a_s")) * 1e6,
		     json_number_value(json_object_get(row, "r2")), cells);
	}
	if (nflag || nfail)
		d_kv(d, "Flagged or failed", "%zu flagged and %zu failed of %zu cases (listed below)",
		     nflag, nfail, rf->ncases);
	else
		d_kv(d, "Flagged or failed", "none of %zu cases", rf->ncases);
	if (json_is_false(json_object_get(rf->root, "complete")))
		d_kv(d, "Incomplete", "the sweep did not finish (ppslab run --resume continues it)");
	if (r->o->base) {
		if (r->cmp) {
			o = 0;
			buf[0] = 0;
			for (int v = 0; v <= ST_INCONCLUSIVE && o < sizeof(buf); v++)
				if (r->cmp->counts[v])
					o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%zu %s", o ? ", " : "",
							      r->cmp->counts[v],
							      st_verdict_name((enum st_verdict)v));
			d_kv(d, "Against the baseline", "%s", *buf ? buf : "no common cells");
		} else {
			d_kv(d, "Against the baseline", "no comparison: %s", r->cmp_err);
		}
	}
}

static void emit(struct rep *r, struct doc *d)
{
	const struct res_file *rf = r->rf;
	const char *slash = strrchr(rf->path, '/');
	const char *fname = slash ? slash + 1 : rf->path;
	char buf[1024];
	size_t nflag = 0, nfail = 0;
	for (size_t k = 0; k < rf->ncases; k++) {
		nflag += rf->cases[k].flagged && !rf->cases[k].failed;
		nfail += rf->cases[k].failed;
	}

	snprintf(buf, sizeof(buf), "ppslab report: %s", rf->run_id ? rf->run_id : fname);
	d_h(d, 1, NULL, buf);
	if (d->fmt == GRID_HTML)
		fputs("<section class=\"headline\">\n", d->f);
	headline(r, d, nflag, nfail);
	d_list_end(d);
	if (d->fmt == GRID_HTML) {
		fputs("</section>\n<nav><a href=\"#results\">Results</a> · <a href=\"#method\">"
		      "Method</a> · <a href=\"#environment\">Environment</a>", d->f);
		if (r->o->plots)
			fputs(" · <a href=\"#plots\">Plots</a>", d->f);
		if (nflag || nfail)
			fputs(" · <a href=\"#flagged\">Flagged and failed</a>", d->f);
		if (r->o->base)
			fputs(" · <a href=\"#comparison\">Comparison</a>", d->f);
		fputs("</nav>\n", d->f);
	}

	d_h(d, 2, "results", "Results");
	for (size_t m = 0; m < r->nmetrics; m++) {
		char l[256];
		snprintf(buf, sizeof(buf), "%s — %s", r->metrics[m],
			 name_label(r->metrics[m], l, sizeof(l)));
		d_h(d, 3, NULL, buf);
		results_table(d, rf, r->metrics[m]);
	}
	if (json_array_size(r->fits)) {
		d_h(d, 3, NULL, "Rule cost: rate = 1/(a + b·N)");
		d_p(d, "Least squares of the time per frame, 1/rate, on the number of rules N over "
		       "the medians; b is what each rule costs each frame.");
		fits_table(d, r->fits);
	}

	d_h(d, 2, "method", "Method");
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
		d_kv(d, "goal", "%s", gb);
	}
	scalar_items(d, res_get(rf->root, "rig", NULL), NULL);
	for (size_t a = 0; a < rf->naxes; a++) {
		char vals[1024];
		size_t o = 0;
		vals[0] = 0;
		for (size_t k = 0; k < rf->axes[a].nvalues && o < sizeof(vals); k++)
			o += (size_t)snprintf(vals + o, sizeof(vals) - o, "%s%s", k ? ", " : "",
					      res_value_str(rf->axes[a].values[k], buf, sizeof(buf)));
		snprintf(buf, sizeof(buf), "axis %s", rf->axes[a].name);
		d_kv(d, buf, "%s", vals);
	}
	json_t *x;
	if ((x = res_get(rf->root, "matrix", "repetitions", NULL)) && json_is_integer(x))
		d_kv(d, "repetitions", "%lld per cell", (long long)json_integer_value(x));
	d_kv(d, "cases", "%zu in %zu cells; %zu flagged, %zu failed", rf->ncases, rf->ncells,
	     nflag, nfail);
	d_h(d, 3, NULL, "Deviations from RFC 2544");
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

	d_h(d, 2, "environment", "Environment");
	const struct res_file *one[] = { rf };
	d_grid(d, cmp_env_grid(one, 1));
	d_kv(d, "results file", "%s", fname);
	if ((x = json_object_get(rf->root, "created_utc")) && json_is_string(x))
		d_kv(d, "created", "%s", json_string_value(x));
	if ((x = json_object_get(rf->root, "updated_utc")) && json_is_string(x))
		d_kv(d, "updated", "%s", json_string_value(x));
	if ((x = res_get(rf->root, "tool", "version", NULL)) && json_is_string(x))
		d_kv(d, "tool", "ppslab %s", json_string_value(x));
	if ((x = res_get(rf->root, "tool", "cmdline", NULL)) && json_is_string(x))
		d_kv(d, "command", "%s", json_string_value(x));
	d_list_end(d);

	if (r->o->plots) {
		d_h(d, 2, "plots", "Plots");
		if (!r->nplots)
			d_p(d, "Nothing to plot: no axis varies.");
		for (size_t k = 0; k < r->nplots; k++)
			d_plot(d, &r->plots[k]);
	}

	if (nflag || nfail) {
		d_h(d, 2, "flagged", "Flagged and failed cases");
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
		d_h(d, 2, "comparison", buf);
		const struct res_file *two[] = { base, rf };
		d_grid(d, cmp_env_grid(two, 2));
		if (!r->cmp) {
			d_p(d, "No comparison: %s", r->cmp_err);
		} else {
			d_list_end(d);
			cmp_print(d->f, r->cmp, d->fmt);
			fputc('\n', d->f);
			if (r->o->plots && r->cmp->nrows)
				d_plot(d, &r->cmp_plot);
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
					       "mfr_pps", "fwd_pps_a", "fwd_pps_b", "loss_pct",
					       "lat_p50_ns", "lat_p99_ns", "cpu_s" };

/* A metric with the same median as another in every cell (mfr_pps of fixed-load
 * trials is their fwd_pps): a second table of it says nothing new. */
static int same_medians(const struct res_file *rf, const char *a, const char *b)
{
	for (size_t c = 0; c < rf->ncells; c++) {
		struct res_stats sa, sb;
		if (res_cell_stats(rf, c, a, &sa, NULL) || res_cell_stats(rf, c, b, &sb, NULL))
			return 0;
		if (sa.s.n != sb.s.n || (sa.s.n && sa.s.median != sb.s.median))
			return 0;
	}
	return 1;
}

/* The page's style: readable type, tables with right-aligned tabular numbers, figures
 * that shrink with the window; nothing loaded from anywhere. */
static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:#1d232a;max-width:1180px;margin:1.5em auto;padding:0 1.2em}"
	"h1{font-size:1.5em;margin:.2em 0 .6em}h2{font-size:1.25em;margin-top:2em;"
	"border-bottom:1px solid #d8dde3;padding-bottom:.2em}h3{font-size:1.05em;margin-top:1.5em}"
	".headline{background:#f3f6f9;border:1px solid #d8dde3;border-radius:6px;padding:.4em 1em}"
	".headline ul{list-style:none;padding:0;margin:.4em 0}.headline li{margin:.25em 0}"
	"nav{margin:1em 0;color:#555}nav a{color:#0b5cad;text-decoration:none}"
	"table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.93em}"
	"th,td{border:1px solid #ccd3da;padding:3px 9px;text-align:left;vertical-align:top}"
	"th{background:#eef2f6}.r{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}p.block{font-weight:600;margin:.8em 0 .2em}"
	"figure{margin:1.2em 0}figure img{max-width:100%;height:auto;border:1px solid #e3e7eb}"
	"figcaption{color:#555;font-size:.9em}";

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
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>ppslab report: ", f);
		grid_html_escape(f, r->rf->run_id ? r->rf->run_id : r->rf->path);
		fprintf(f, "</title>\n<style>%s</style></head><body>\n", css);
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
			if (!strcmp(default_metrics[i], "mfr_pps") && same_medians(rf, "mfr_pps", "fwd_pps"))
				continue;
			if (res_has_metric(rf, default_metrics[i]) && r.nmetrics < rf->nmetrics)
				r.metrics[r.nmetrics++] = default_metrics[i];
		}
	}
	r.fits = res_fits(rf);
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
	for (size_t i = 0; i < r.nplots; i++) {
		res_sel_free(&r.plots[i].where);
		free(r.plots[i].svg);
	}
	free(r.cmp_plot.svg);
	json_decref(r.fits);
	cmp_free(r.cmp);
	free(r.metrics);
	return rc;
}
