/* SPDX-License-Identifier: BSD-2-Clause */
/* report_doc.c — how the report writes (see report_doc.h): numbers for people
 * (thousands separators, Mpps where large, latency in µs or ms, percentages), a tiny
 * document writer that emits the same headings, paragraphs, lists, grids and figures as
 * Markdown or HTML, and the report's tables (the pivot of a metric, the rule-cost fits).
 * Called by report.c, which says what goes on the page. */
#include "report_doc.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "names.h"
#include "pivot.h"

/* ---- numbers for people ------------------------------------------------------------- */

struct ufmt {
	double div;        /* shown value = v / div */
	const char *unit;  /* "pps", "Mpps", "µs", "%", or "" */
	int dec;
	int sig;           /* 3 significant digits instead of dec (latency) */
};

/* The unit a column of this metric is shown in, from its largest magnitude. */
static void unit_for(const char *metric, double maxabs, int integral, struct ufmt *u)
{
	const char *nu = name_unit(metric);
	u->div = 1;
	u->unit = "";
	u->sig = 0;
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
		/* one unit for the table from its largest value, every value with 3
		 * significant digits in it: 814 ms, 0.471 ms (not "0") */
		u->sig = 1;
		if (maxabs >= 1e6)
			u->div = 1e6, u->unit = "ms";
		else if (maxabs >= 1e3)
			u->div = 1e3, u->unit = "µs";
		else
			u->unit = "ns";
	} else if (!strcmp(nu, "%")) {
		u->unit = "%";
		u->dec = maxabs >= 10 ? 1 : maxabs >= 0.1 ? 2 : 3;
	} else if (name_ends_with(metric, "_ratio")) {
		u->div = 0.01, u->unit = "%", u->dec = maxabs >= 0.1 ? 1 : 3;
	} else if (!strcmp(nu, "s")) {
		u->unit = "s", u->dec = maxabs >= 100 ? 0 : 2;
	} else if (*nu) {
		u->unit = nu;
	}
}

static char *human(const struct ufmt *u, double v, char *buf, size_t len)
{
	double x = v / u->div;
	if (u->sig && x != 0 && isfinite(x)) {
		int dec = 3 - ((int)floor(log10(fabs(x))) + 1);
		return grid_num(x, dec < 0 ? 0 : dec > 4 ? 4 : dec, buf, len);
	}
	return grid_num(x, u->dec, buf, len);
}

/* One value with its unit: "1.629 Mpps", "813.7 ms", "450,072 pps", "0.25 %". */
char *report_human_unit(const char *metric, double v, char *buf, size_t len)
{
	struct ufmt u;
	char n[64];
	unit_for(metric, fabs(v), v == floor(v), &u);
	human(&u, v, n, sizeof(n));
	snprintf(buf, len, "%s%s%s", n, *u.unit ? " " : "", u.unit);
	return buf;
}

/* ---- a tiny document writer: Markdown or HTML ---------------------------------- */

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

void report_list_end(struct doc *d)
{
	if (!d->in_list)
		return;
	fputs(d->fmt == GRID_HTML ? "</ul>\n" : "\n", d->f);
	d->in_list = 0;
}

/* A heading; id (HTML only) makes it a link target. */
void report_h(struct doc *d, int level, const char *id, const char *s)
{
	report_list_end(d);
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
void report_p(struct doc *d, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	report_list_end(d);
	fputs(d->fmt == GRID_HTML ? "<p>" : "", d->f);
	d_text(d, buf);
	fputs(d->fmt == GRID_HTML ? "</p>\n" : "\n\n", d->f);
}

/* A list item, "KEY: value" with the key emphasised when there is one. */
__attribute__((format(printf, 3, 0)))
static void item(struct doc *d, const char *key, const char *fmt, va_list ap)
{
	char buf[4096];
	int html = d->fmt == GRID_HTML;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!d->in_list) {
		fputs(html ? "<ul>\n" : "", d->f);
		d->in_list = 1;
	}
	fputs(html ? "<li>" : "- ", d->f);
	if (key) {
		fputs(html ? "<b>" : "**", d->f);
		d_text(d, key);
		fputs(html ? ":</b> " : ":** ", d->f);
	}
	d_text(d, buf);
	fputs(html ? "</li>\n" : "\n", d->f);
}

__attribute__((format(printf, 2, 3)))
void report_li(struct doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	item(d, NULL, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 3, 4)))
void report_kv(struct doc *d, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	item(d, key, fmt, ap);
	va_end(ap);
}

void report_grid(struct doc *d, struct grid *g)
{
	report_list_end(d);
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

void report_img(struct doc *d, const struct drawn *p)
{
	report_list_end(d);
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

/* ---- the tables ----------------------------------------------------------------------- */

/* The metric over its pivot: one table per block, cells in the column's unit with the
 * min–max of the repetitions, '*' where a repetition was flagged. */
void report_results_table(struct doc *d, const struct res_file *rf, const char *metric)
{
	struct pivot *pv;
	char err[512];
	const char *mm[] = { metric };
	struct pv_req rq = { .metrics = mm, .nmetrics = 1, .decimals = -1 };
	char head[512], l[256];
	name_label(metric, l, sizeof(l));
	char *lp = strstr(l, " (");
	if (lp)
		*lp = 0;
	if (pv_build(rf, &rq, &pv, err, sizeof(err))) {
		snprintf(head, sizeof(head), "%s — %s", metric, l);
		report_h(d, 3, NULL, head);
		report_p(d, "(no table: %s)", err);
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
	json_t *ts = res_get(rf->root, "method", "trial_s", NULL);
	if (!strcmp(metric, "cpu_s") && json_is_number(ts) && json_number_value(ts) > 0) {
		/* CPU seconds mean little without the trial's length: a share of it */
		u.div = json_number_value(ts) / 100;
		u.unit = "% of the trial";
		u.dec = 1;
		u.sig = 0;
	}
	/* the heading names the unit the table is in */
	snprintf(head, sizeof(head), "%s — %s%s%s%s", metric, l, *u.unit ? " (" : "", u.unit,
		 *u.unit ? ")" : "");
	report_h(d, 3, NULL, head);
	char cap[1024];
	pv_caption(pv, cap, sizeof(cap));
	const char *of = strstr(cap, "median of");
	if (!of)
		of = strstr(cap, "single repetition");
	report_p(d, "%s%s%s, %s%s.", l, *u.unit ? " in " : "", u.unit, of ? of : cap,
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
				const char *fx = pc->st.failed ? PV_FAILED_MARK : "";
				if (pc->st.s.n > 1 && pc->st.s.max > pc->st.s.min)
					grid_setf(g, (size_t)row, c + 1, "%s (%s–%s)%s%s", med,
						  human(&u, pc->st.s.min, lo, sizeof(lo)),
						  human(&u, pc->st.s.max, hi, sizeof(hi)),
						  pc->st.flagged ? "*" : "", fx);
				else
					grid_setf(g, (size_t)row, c + 1, "%s%s%s", med,
						  pc->st.flagged ? "*" : "", fx);
			}
		}
		report_grid(d, g);
	}
	if (pv->failed_cells)
		report_p(d, PV_FAILED_MARK " a repetition failed (%zu cell%s): the median is of the "
			 "others (see Flagged and failed cases).", pv->failed_cells,
			 pv->failed_cells == 1 ? "" : "s");
	if (pv->flagged_cells && d->why_said) {
		report_p(d, "* includes flagged repetitions (why: under the first table).");
	} else if (pv->flagged_cells) {
		d->why_said = 1;
		report_p(d, "* includes flagged repetitions (a consistency check failed or the offered "
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
				report_li(d, "... and %zu more kinds", json_object_size(pv->reasons) - 6);
				break;
			}
			report_li(d, "%zu cell%s: %.200s%s", n, n == 1 ? "" : "s", t ? t : "",
			     t && strlen(t) > 200 ? "..." : "");
		}
		report_list_end(d);
	}
	pv_free(pv);
}

/* The rule-cost fits: b per rule per frame, a, R², for each series. */
void report_fits_table(struct doc *d, json_t *fits)
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
	report_grid(d, g);
}
