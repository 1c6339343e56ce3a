/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_kinds.c — one writer per kind of plot (line, heatmap, load, frame size, box;
 * see plot.h). Each builds a pivot (pivot.c), so a plot shows exactly the medians
 * `ppslab table` prints for the same axes, and turns it into a figure: one panel per
 * block of the pivot (small multiples, when more axes vary than the kind shows), one
 * series per column. The figure's scales come from the data (log axes over more than
 * two decades, 0 placed apart on them, no negative counts, reference lines that would
 * squeeze the data clipped with a note), overlapping series are told apart, cells with a
 * flagged repetition are marked where the table puts its '*' (the notes say why), and the
 * project's models are drawn beside the measurement (model.h: the polling bound, the
 * rule-cost fit; the rig's ceiling). Called by cmd_plot.c and report.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "grid.h"
#include "model.h"
#include "names.h"
#include "pivot.h"
#include "plot_impl.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

/* A measurement within this fraction of the polling bound (0.95 to 1.05 of it) follows
 * it. */
#define BOUND_FOLLOWS 0.95
/* A reference line is kept in the y range up to this multiple of the data's maximum:
 * beyond it the data would fill less than about half the height. */
#define REF_SQUEEZE 1.8

/* ---- the figure ---------------------------------------------------------------------- */

struct ser {
	char title[300];
	char name[128];          /* short, for notes: "NDR", "burst_max=20" */
	const char *metric;
	size_t n;
	double *x, *y, *lo, *hi, *bound, *y2;
	size_t *nrep;
	size_t *nflag;           /* repetitions flagged by a check (cases[].flags) */
	char (*lab)[64];         /* the row value as text */
	int same_as;             /* an earlier series of the panel with the same values */
	int has_fit;
	struct fit_rc fit;
	long leave;              /* the point where it leaves the polling bound, or -1 */
	long mfr;                /* load: the maximum forwarding rate's point, or -1 */
	/* box: quartiles per point */
	double *q1, *q3, *med;
};

struct panel {
	char label[512];
	size_t ns;
	struct ser *s;
	int key;                 /* 0..3: top left, top right, bottom right, bottom left */
};

struct fig {
	const struct res_file *rf;
	const struct plot_req *rq;
	enum plot_kind kind;
	size_t np;
	struct panel *p;
	int xnum;                /* x values are numbers; else categories 0, 1, ... */
	size_t ncat;
	json_t **cats;           /* the categories, in axis order */
	char xaxis[128];
	char title[1024], xlabel[256], ylabel[256], y2label[64];
	double yscale;           /* values are divided by this for display (ns → µs, ms) */
	int rate, nonneg;
	int logx, logy;
	double x0, y0;           /* where 0 is drawn on a log axis; NaN: no 0 */
	double xlo, xhi, ylo, yhi;
	double xmin_pos;         /* smallest positive x */
	double ceiling;          /* the rig's, pps; NaN when unknown or not a rate plot */
	int draw_ceiling;
	double link_bps;         /* framesize: the line rate */
	int line_drawn;          /* framesize: some of the line-rate curve is in range */
	int bound, fit;          /* the figure draws the polling bound, the rule fit */
	char *notes[PLOT_MAX_NOTES];
	size_t nnotes;
	char yfmt[32];
	int ytic_chars;
	size_t xtic_n;           /* explicit x tics at the data's values */
	double xtic_v[64];
	char xtic_l[64][32];
	size_t maxlab;           /* widest categorical tic label */
	int xrot;                /* categorical labels turned */
	size_t note_lines;       /* small multiples: the most note lines a panel has */
	size_t nflagged;         /* cells drawn with a flagged repetition */
};

__attribute__((format(printf, 2, 3)))
static void note(struct fig *f, const char *fmt, ...)
{
	if (f->nnotes >= PLOT_MAX_NOTES)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < f->nnotes; i++)
		if (!strcmp(f->notes[i], buf))
			return;
	if ((f->notes[f->nnotes] = strdup(buf)))
		f->nnotes++;
}

/* The cells a pivot draws that have a flagged repetition are marked; the notes say how
 * many and why (the flags' kinds, as the table's footnote does). */
static int flag_notes(struct fig *f, const struct pivot *pv, const char *how)
{
	unsigned char *seen = calloc(f->rf->ncells + 1, 1);
	if (!seen)
		return -ENOMEM;
	size_t n = 0;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++) {
			const struct pv_cell *pc = &pv->blocks[b].cells[i];
			if (pc->cell >= 0 && pc->st.s.n && pc->st.flagged && !seen[pc->cell]) {
				seen[pc->cell] = 1;
				n++;
			}
		}
	free(seen);
	f->nflagged = n;
	char lines[6][512];
	size_t k = plot_flag_notes(pv->reasons, n, how, lines, 6);
	for (size_t i = 0; i < k; i++)
		note(f, "%s", lines[i]);
	return 0;
}

static void ser_free(struct ser *s)
{
	free(s->x);
	free(s->nrep);
	free(s->lab);
}

static void fig_free(struct fig *f)
{
	for (size_t p = 0; p < f->np; p++) {
		for (size_t s = 0; s < f->p[p].ns; s++)
			ser_free(&f->p[p].s[s]);
		free(f->p[p].s);
	}
	free(f->p);
	free(f->cats);
	for (size_t i = 0; i < f->nnotes; i++)
		free(f->notes[i]);
}

/* Room for up to n points: x y lo hi bound y2 q1 q3 med in one block. */
static int ser_alloc(struct ser *s, size_t n)
{
	size_t k = n ? n : 1;
	s->x = calloc(9 * k, sizeof(double));
	s->nrep = calloc(2 * k, sizeof(size_t));
	s->lab = calloc(k, sizeof(*s->lab));
	if (!s->x || !s->nrep || !s->lab)
		return -ENOMEM;
	s->y = s->x + k;
	s->lo = s->y + k;
	s->hi = s->lo + k;
	s->bound = s->hi + k;
	s->y2 = s->bound + k;
	s->q1 = s->y2 + k;
	s->q3 = s->q1 + k;
	s->med = s->q3 + k;
	s->nflag = s->nrep + k;
	s->same_as = -1;
	s->leave = s->mfr = -1;
	return 0;
}

/* Orders a series' points by x (an axis may list its values in any order: lines must
 * not zigzag, and "where the rate leaves the bound" is read from low to high). */
static void ser_sort(struct ser *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double *cols[] = { s->x, s->y, s->lo, s->hi, s->bound, s->y2, s->q1, s->q3,
					   s->med };
			for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
				double t = cols[c][j];
				cols[c][j] = cols[c][j - 1];
				cols[c][j - 1] = t;
			}
			size_t *counts[] = { s->nrep, s->nflag };
			for (size_t c = 0; c < 2; c++) {
				size_t tn = counts[c][j];
				counts[c][j] = counts[c][j - 1];
				counts[c][j - 1] = tn;
			}
			char tl[64];
			memcpy(tl, s->lab[j], sizeof(tl));
			memcpy(s->lab[j], s->lab[j - 1], sizeof(tl));
			memcpy(s->lab[j - 1], tl, sizeof(tl));
		}
}

/* A number in 3 significant digits, without an exponent up to 1e6: "1.3", "2120". */
static char *num3(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1000 && fabs(v) < 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* ---- small helpers ------------------------------------------------------------------- */

/* "20k", "1.5M", "250": a tic label for a number. */
static char *si(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(buf, len, "%.3gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

/* The same for a rate with its unit: "1.63 Mpps", "450 kpps", "900 pps". */
static char *si_pps(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1e6)
		snprintf(buf, len, "%.3g Mpps", v / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.3g kpps", v / 1e3);
	else
		snprintf(buf, len, "%.3g pps", v);
	return buf;
}

static int rows_numeric(const struct pivot *pv)
{
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t r = 0; r < pv->blocks[b].nrows; r++)
			if (!json_is_number(pv->blocks[b].rows[r]))
				return 0;
	return 1;
}

/* y and its error bar of a cell per the request. */
static void cell_y(const struct pv_cell *c, enum plot_errors e, double *y, double *lo,
		   double *hi)
{
	const struct st_summary *s = &c->st.s;
	if (e == PLOT_ERR_STDEV) {
		double sd = s->n >= 2 ? s->stdev : 0;
		*y = s->mean;
		*lo = s->mean - sd;
		*hi = s->mean + sd;
	} else {
		*y = s->median;
		*lo = s->min;
		*hi = s->max;
	}
}

static int all_rates(const struct pivot *pv)
{
	int r = pv->ncols > 0;
	for (size_t c = 0; c < pv->ncols; c++)
		r &= name_is_rate(pv->cols[c].metric);
	return r;
}

/* Metrics that cannot be negative: rates, counts, times, percentages. */
static int nonneg_metric(const char *m)
{
	const char *u = name_unit(m);
	return name_is_rate(m) || !strncmp(m, "rut.", 4) || !strcmp(u, "ns") ||
	       !strcmp(u, "s") || !strcmp(u, "µs") || !strcmp(u, "ms") || !strcmp(u, "%") ||
	       !strcmp(u, "bytes") || !strcmp(u, "bit/s");
}

/* "NDR", "PDR" for the search metrics; the label without its unit otherwise. */
static void short_name(const char *metric, char *buf, size_t len)
{
	static const struct { const char *m, *s; } k[] = {
		{ "ndr_pps", "NDR" }, { "pdr_pps", "PDR" }, { "mrr_pps", "MRR" },
		{ "mfr_pps", "MFR" }, { "fwd_pps", "forwarded rate" },
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (!strcmp(metric, k[i].m)) {
			snprintf(buf, len, "%s", k[i].s);
			return;
		}
	char l[256];
	name_label(metric, l, sizeof(l));
	char *paren = strstr(l, " (");
	if (paren)
		*paren = 0;
	snprintf(buf, len, "%.*s", (int)len - 1, l);
}

/* A series title: the column label, with the metric's description when the columns
 * are metrics. */
static void series_title(const struct pivot *pv, size_t c, char *buf, size_t len,
			 char *name, size_t nlen)
{
	if (!strcmp(pv->cols[c].label, pv->cols[c].metric)) {
		name_label(pv->cols[c].metric, buf, len);
		short_name(pv->cols[c].metric, name, nlen);
	} else {
		snprintf(buf, len, "%s", pv->cols[c].label);
		snprintf(name, nlen, "%s", pv->cols[c].label);
	}
}

/* The y label, and the display scale of nanosecond metrics (µs or ms). */
static void y_label_unit(struct fig *f, const struct pivot *pv, double dmax)
{
	const char *m0 = pv->ncols ? pv->cols[0].metric : "fwd_pps";
	int same = 1;
	for (size_t c = 1; c < pv->ncols; c++)
		same &= !strcmp(pv->cols[c].metric, m0);
	f->yscale = 1;
	const char *u = name_unit(m0);
	const char *shown = u;
	if (!strcmp(u, "ns") && dmax >= 1e3) {
		f->yscale = dmax >= 1e6 ? 1e6 : 1e3;
		shown = dmax >= 1e6 ? "ms" : "µs";
	}
	char l[256];
	if (same) {
		name_label(m0, l, sizeof(l));
		char *paren = strstr(l, " (");
		if (paren && *u)
			*paren = 0;
	} else {
		snprintf(l, sizeof(l), "%s", all_rates(pv) ? "rate" : "value");
	}
	if (*shown)
		snprintf(f->ylabel, sizeof(f->ylabel), "%.200s (%s)", l, shown);
	else
		snprintf(f->ylabel, sizeof(f->ylabel), "%s", l);
}

static void default_title(const struct pivot *pv, const char *x, const char *what,
			  char *buf, size_t len)
{
	int same = 1;
	for (size_t c = 1; c < pv->ncols; c++)
		same &= !strcmp(pv->cols[c].metric, pv->cols[0].metric);
	size_t o = (size_t)snprintf(buf, len, "%s %s %s", same ? pv->cols[0].metric : "metrics",
				    what, x);
	if (o < len && *pv->fixed)
		snprintf(buf + o, len - o, " (%s)", pv->fixed);
}

/* The categories of the row axis present in any block, in the axis' order. */
static int collect_cats(struct fig *f, const struct pivot *pv)
{
	const struct res_axis *ax = res_axis(f->rf, pv->row_axis);
	if (!ax)
		return -EINVAL;
	f->cats = calloc(ax->nvalues + 1, sizeof(*f->cats));
	if (!f->cats)
		return -ENOMEM;
	for (size_t v = 0; v < ax->nvalues; v++) {
		int in = 0;
		for (size_t b = 0; b < pv->nblocks && !in; b++)
			for (size_t r = 0; r < pv->blocks[b].nrows && !in; r++)
				in = res_value_eq(pv->blocks[b].rows[r], ax->values[v]);
		if (in)
			f->cats[f->ncat++] = ax->values[v];
	}
	return 0;
}

static double cat_pos(const struct fig *f, const json_t *v)
{
	for (size_t i = 0; i < f->ncat; i++)
		if (res_value_eq(f->cats[i], v))
			return (double)i;
	return NAN;
}

/* Builds the pivot and checks it: one block per panel, at most PLOT_MAX_PANELS. */
static int build_pivot(const struct res_file *rf, const char *rows, const char *cols,
		       const char *const *metrics, size_t nmetrics, const struct res_sel *where,
		       struct pivot **pv, char *err, size_t errlen)
{
	struct pv_req rq = { .rows = rows, .cols = cols, .metrics = metrics,
			     .nmetrics = nmetrics, .where = where, .decimals = -1 };
	int rc = pv_build(rf, &rq, pv, err, errlen);
	if (rc)
		return rc;
	if ((*pv)->nblocks > PLOT_MAX_PANELS) {
		const struct res_sel *fx = &(*pv)->blocks[0].fixed;
		char axes[512];
		size_t o = 0;
		axes[0] = 0;
		for (size_t i = 0; i < fx->n && o < sizeof(axes); i++)
			o += (size_t)snprintf(axes + o, sizeof(axes) - o, "%s%s", i ? ", " : "",
					      fx->c[i].axis);
		size_t nb = (*pv)->nblocks;
		char first[256];
		snprintf(first, sizeof(first), "%s", fx->n ? fx->c[0].axis : "?");
		pv_free(*pv);
		*pv = NULL;
		return fail(err, errlen, "%zu panels, one per value of %s: more than %d; fix one "
			    "with --where %s=VALUE%s", nb, axes, PLOT_MAX_PANELS, first,
			    cols ? "" : " or draw one line per value with --by");
	}
	if (!(*pv)->n_max) {
		pv_free(*pv);
		*pv = NULL;
		return fail(err, errlen, "%s: no values of the metric to plot", rf->path);
	}
	return 0;
}

/* A panel shows at most 16 lines (or boxes per x): more could not be told apart. */
static int check_lines(struct pivot **pv, size_t per_line, char *err, size_t errlen)
{
	if ((*pv)->ncols <= 16 * per_line)
		return 0;
	size_t n = (*pv)->ncols / per_line;
	pv_free(*pv);
	*pv = NULL;
	return fail(err, errlen, "%zu lines in one panel: more than 16; give --by an axis with "
		    "fewer values, or fix some with --where", n);
}

static int panels_of(struct fig *f, const struct pivot *pv)
{
	f->np = pv->nblocks;
	f->p = calloc(f->np, sizeof(*f->p));
	if (!f->p)
		return -ENOMEM;
	for (size_t b = 0; b < f->np; b++)
		snprintf(f->p[b].label, sizeof(f->p[b].label), "%s", pv->blocks[b].label);
	return 0;
}

/* ---- building the series --------------------------------------------------------------- */

/* Line and frame size: one series per column; load: one per group of nm columns (the
 * forwarding rate, then offered_pps and loss_pct when present). */
static int build_xy(struct fig *f, const struct pivot *pv, size_t nm, int has_off,
		    int has_loss)
{
	int rc = panels_of(f, pv);
	if (rc)
		return rc;
	f->xnum = rows_numeric(pv);
	if (!f->xnum && (rc = collect_cats(f, pv)))
		return rc;
	size_t nser = f->kind == PLOT_LOAD ? pv->ncols / nm : pv->ncols;
	for (size_t b = 0; b < pv->nblocks; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		struct panel *pn = &f->p[b];
		if (!(pn->s = calloc(nser ? nser : 1, sizeof(*pn->s))))
			return -ENOMEM;
		pn->ns = nser;
		for (size_t s = 0; s < nser; s++) {
			struct ser *se = &pn->s[s];
			size_t c = f->kind == PLOT_LOAD ? s * nm : s;
			if ((rc = ser_alloc(se, bl->nrows)))
				return rc;
			se->metric = pv->cols[c].metric;
			if (f->kind == PLOT_LOAD) {
				const struct res_sel *fl = &pv->cols[c].filt;
				if (fl->n)
					snprintf(se->name, sizeof(se->name), "%s=%s", fl->c[0].axis,
						 fl->c[0].value);
				else
					snprintf(se->name, sizeof(se->name), "FR");
				snprintf(se->title, sizeof(se->title), "FR%s%s", fl->n ? " " : "",
					 fl->n ? se->name : "");
			} else {
				series_title(pv, c, se->title, sizeof(se->title), se->name,
					     sizeof(se->name));
			}
			for (size_t r = 0; r < bl->nrows; r++) {
				const struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
				if (pc->cell < 0 || !pc->st.s.n)
					continue;
				size_t k = se->n;
				double x;
				se->nflag[k] = pc->st.flagged;
				if (f->kind == PLOT_LOAD) {
					const struct pv_cell *co = has_off ? &bl->cells[r * pv->ncols + c + 1]
									   : NULL;
					const struct pv_cell *cl = has_loss ? &bl->cells[r * pv->ncols + c +
											   nm - 1] : NULL;
					x = co && co->st.s.n ? co->st.s.median
					    : json_is_number(bl->rows[r]) ? json_number_value(bl->rows[r])
					    : NAN;
					se->y2[k] = cl && cl->st.s.n ? cl->st.s.median : NAN;
					/* the point is the cell: any of its numbers flagged marks it */
					if (co && co->st.flagged > se->nflag[k])
						se->nflag[k] = co->st.flagged;
					if (cl && cl->st.flagged > se->nflag[k])
						se->nflag[k] = cl->st.flagged;
					if (!isfinite(x))
						continue;
				} else {
					x = f->xnum ? json_number_value(bl->rows[r]) : cat_pos(f, bl->rows[r]);
					se->y2[k] = NAN;
				}
				se->x[k] = x;
				cell_y(pc, f->rq->errors, &se->y[k], &se->lo[k], &se->hi[k]);
				se->nrep[k] = pc->st.s.n;
				res_value_str(bl->rows[r], se->lab[k], sizeof(se->lab[k]));
				se->bound[k] = f->bound ? model_poll_bound(f->rf,
									   f->rf->cells[pc->cell].params,
									   se->metric, NAN, NAN) : NAN;
				se->n++;
			}
			ser_sort(se);
		}
	}
	return 0;
}

/* ---- analysis: identical series, the polling bound, the rule fit, the MFR ----------- */

/* Series that lie on an earlier one at some points would hide it there: they get open,
 * larger markers around its points (same_as), and a note when they coincide at half the
 * points or more ("PDR = NDR at every frame size", "at 6 of 7"). */
static void find_identical(struct fig *f, const char *xwhat)
{
	for (size_t p = 0; p < f->np; p++) {
		struct panel *pn = &f->p[p];
		for (size_t t = 1; t < pn->ns; t++) {
			for (size_t s = 0; s < t && pn->s[t].same_as < 0; s++) {
				const struct ser *a = &pn->s[s], *b = &pn->s[t];
				if (!a->n || !b->n || a->same_as >= 0)
					continue;
				double mx = 0;
				for (size_t i = 0; i < a->n; i++)
					mx = fmax(mx, fabs(a->y[i]));
				for (size_t i = 0; i < b->n; i++)
					mx = fmax(mx, fabs(b->y[i]));
				size_t same = 0;
				for (size_t i = 0; i < b->n; i++)
					for (size_t j = 0; j < a->n; j++)
						if (a->x[j] == b->x[i] && fabs(a->y[j] - b->y[i]) <= 0.002 * mx) {
							same++;
							break;
						}
				if (!same)
					continue;
				pn->s[t].same_as = (int)s;
				const char *in = f->np > 1 ? " in " : "", *lab = f->np > 1 ? pn->label : "";
				if (same == b->n && a->n == b->n)
					note(f, "%s = %s at every %s%s%s", b->name, a->name, xwhat, in, lab);
				else if (2 * same >= b->n)
					note(f, "%s = %s at %zu of %zu points%s%s (open markers)", b->name,
					     a->name, same, b->n, in, lab);
			}
		}
	}
}

static void analyze_bound(struct fig *f)
{
	int any = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			struct ser *se = &f->p[p].s[s];
			int followed = 0;
			for (size_t i = 0; i < se->n; i++) {
				if (!isfinite(se->bound[i]))
					continue;
				any = 1;
				double r = se->y[i] / se->bound[i];
				if (r >= BOUND_FOLLOWS && r <= 2 - BOUND_FOLLOWS) {
					followed = 1;
				} else if (followed && r < BOUND_FOLLOWS) {
					se->leave = (long)i;
					break;
				}
			}
		}
	f->bound = any;
	if (any)
		note(f, "pale bands: the polling bound, pollhz × burst_max frames/s per receiving port");
}

static void analyze_fit(struct fig *f)
{
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			struct ser *se = &f->p[p].s[s];
			if (!name_is_rate(se->metric))
				continue;
			se->has_fit = !fit_rule_cost(se->x, se->y, se->n, &se->fit);
			f->fit |= se->has_fit;
		}
}

static void analyze_mfr(struct fig *f)
{
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			struct ser *se = &f->p[p].s[s];
			for (size_t i = 0; i < se->n; i++)
				if (se->y[i] > 0 && (se->mfr < 0 || se->y[i] > se->y[se->mfr]))
					se->mfr = (long)i;
		}
}

/* ---- scales ------------------------------------------------------------------------------ */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* x: log over more than two decades (0 drawn apart at the left), never below 0 for
 * values that cannot be negative; tics at the data's values where they fit. */
static void decide_x(struct fig *f)
{
	double xmin = INFINITY, xmax = -INFINITY, minpos = INFINITY;
	int has0 = 0;
	double vals[64];
	size_t nv = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++)
			for (size_t i = 0; i < f->p[p].s[s].n; i++) {
				double x = f->p[p].s[s].x[i];
				xmin = fmin(xmin, x);
				xmax = fmax(xmax, x);
				if (x > 0)
					minpos = fmin(minpos, x);
				has0 |= x == 0;
				int seen = 0;
				for (size_t k = 0; k < nv && !seen; k++)
					seen = vals[k] == x;
				if (!seen && nv < 64)
					vals[nv++] = x;
			}
	qsort(vals, nv, sizeof(vals[0]), cmp_dbl);
	f->x0 = NAN;
	f->xmin_pos = minpos;
	if (!f->xnum) {
		f->xlo = f->kind == PLOT_BOX ? 0.4 : -0.5;
		f->xhi = (double)f->ncat - (f->kind == PLOT_BOX ? -0.6 : 0.5);
		return;
	}
	if (!isfinite(xmin)) {
		f->xlo = 0;
		f->xhi = 1;
		return;
	}
	int wide = isfinite(minpos) && xmax / minpos > 100 && nv >= 3;
	f->logx = f->kind == PLOT_FRAMESIZE || (f->rq->logx && isfinite(minpos)) ||
		  (wide && xmin >= 0 && f->kind != PLOT_LOAD);
	if (wide && xmin < 0)
		note(f, "x linear although it spans more than two decades: it has values below 0");
	if (f->logx && xmin < 0)
		f->logx = 0;
	if (f->logx) {
		if (has0)
			f->x0 = minpos / 4;
		f->xlo = (has0 ? f->x0 : minpos) / 1.3;
		f->xhi = xmax * 1.3;
		if (has0)
			note(f, "x logarithmic: 0 is drawn apart at the left, past the dotted line");
	} else {
		double span = xmax - xmin;
		if (span <= 0)
			span = fabs(xmax) > 0 ? fabs(xmax) : 1;
		f->xlo = xmin - 0.04 * span;
		f->xhi = xmax + 0.04 * span;
		if (xmin >= 0 && f->xlo < 0)
			f->xlo = 0;
	}
	if (f->kind == PLOT_LOAD)
		return;   /* offered loads differ per series: gnuplot's own tics */
	f->xtic_n = nv <= 16 ? nv : 0;
	for (size_t k = 0; k < f->xtic_n; k++) {
		f->xtic_v[k] = vals[k] == 0 && f->logx ? f->x0 : vals[k];
		/* "1k, 5k, 10k", not "1000, 5k, 10k" */
		if (xmax >= 1e4 && fabs(vals[k]) >= 1e3)
			si(vals[k], f->xtic_l[k], sizeof(f->xtic_l[k]));
		else
			snprintf(f->xtic_l[k], sizeof(f->xtic_l[k]), "%.6g", vals[k]);
	}
}

/* Drops explicit x tics that would run into each other at this panel width. */
static void thin_xtics(struct fig *f, const struct frame *fr)
{
	if (!f->xtic_n)
		return;
	double prev_end = -INFINITY;
	size_t keep = 0;
	for (size_t k = 0; k < f->xtic_n; k++) {
		double v = f->xtic_v[k];
		double pos = f->logx ? (log(v) - log(f->xlo)) / (log(f->xhi) - log(f->xlo))
				     : (v - f->xlo) / (f->xhi - f->xlo);
		double px = pos * fr->pw, half = plot_text_w(fr, grid_width(f->xtic_l[k]), PLOT_FONT) / 2;
		if (px - half < prev_end + plot_text_w(fr, 1, PLOT_FONT))
			continue;
		prev_end = px + half;
		f->xtic_v[keep] = v;
		memmove(f->xtic_l[keep], f->xtic_l[k], sizeof(f->xtic_l[k]));
		keep++;
	}
	f->xtic_n = keep;
}

/* y: from 0 for values that cannot be negative; log over more than two decades (0
 * drawn apart at the bottom); references kept in range only while the data keep about
 * half the height, else noted. refmax: the highest reference worth showing. */
static void decide_y(struct fig *f, const double *refs, size_t nrefs)
{
	double dmin = INFINITY, dmax = -INFINITY, minpos = INFINITY;
	int has0 = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			const struct ser *se = &f->p[p].s[s];
			for (size_t i = 0; i < se->n; i++) {
				double v[3] = { se->y[i], se->lo[i], se->hi[i] };
				for (int k = 0; k < 3; k++) {
					double y = v[k] / f->yscale;
					if (!isfinite(y))
						continue;
					dmin = fmin(dmin, y);
					dmax = fmax(dmax, y);
					if (y > 0)
						minpos = fmin(minpos, y);
					has0 |= y == 0;
				}
			}
		}
	f->y0 = NAN;
	if (!isfinite(dmax)) {
		f->ylo = 0;
		f->yhi = 1;
		return;
	}
	int nonneg = f->nonneg && dmin >= 0;
	int wide = isfinite(minpos) && dmax / minpos > 100;
	f->logy = (f->rq->logy && isfinite(minpos)) || (wide && nonneg);
	if (wide && !nonneg && !f->rq->logy)
		note(f, "y linear although it spans more than two decades: it has values below 0");
	if (f->logy && dmin < 0)
		f->logy = 0;
	double refmax = -INFINITY;
	if (f->logy) {
		if (has0)
			f->y0 = minpos / sqrt(10);
		double lowest = has0 ? f->y0 : minpos;
		double room = dmax * fmax(dmax / lowest, sqrt(10));
		for (size_t i = 0; i < nrefs; i++)
			if (refs[i] > dmax && refs[i] <= room)
				refmax = fmax(refmax, refs[i]);
		f->ylo = lowest / 1.6;
		f->yhi = fmax(dmax, refmax) * 1.6;
		if (has0)
			note(f, "y logarithmic: 0 is drawn apart at the bottom");
		else if (!f->rq->logy)
			note(f, "y logarithmic: the values span %.1f decades", log10(dmax / minpos));
	} else {
		for (size_t i = 0; i < nrefs; i++)
			if (refs[i] > dmax && refs[i] <= REF_SQUEEZE * dmax)
				refmax = fmax(refmax, refs[i]);
		double top = fmax(dmax, refmax);
		if (nonneg || (dmin >= 0 && f->nonneg)) {
			f->ylo = 0;
			f->yhi = top > 0 ? top * 1.08 : 1;
		} else {
			double span = top - dmin;
			if (span <= 0)
				span = fabs(top) > 0 ? fabs(top) : 1;
			f->ylo = dmin - 0.05 * span;
			f->yhi = top + 0.08 * span;
		}
	}
	/* tic format and the widest tic label */
	double a = fmax(fabs(f->ylo), fabs(f->yhi));
	if (f->rate || a >= 1e5) {
		snprintf(f->yfmt, sizeof(f->yfmt), "%s", f->logy ? "%.0s%c" : "%.1s%c");
		f->ytic_chars = 6;
	} else {
		snprintf(f->yfmt, sizeof(f->yfmt), "%%g");
		char b[64];
		snprintf(b, sizeof(b), "%g", a);
		f->ytic_chars = (int)strlen(b) + 2;
	}
}

/* Where a point falls in a panel, 0..1 each way. */
static void norm_xy(const struct fig *f, double x, double y, double *nx, double *ny)
{
	if (f->logx) {
		x = x == 0 && isfinite(f->x0) ? f->x0 : x;
		*nx = x > 0 ? (log(x) - log(f->xlo)) / (log(f->xhi) - log(f->xlo)) : 0;
	} else {
		*nx = (x - f->xlo) / (f->xhi - f->xlo);
	}
	y /= f->yscale;
	if (f->logy) {
		y = y <= 0 && isfinite(f->y0) ? f->y0 : y;
		*ny = y > 0 ? (log(y) - log(f->ylo)) / (log(f->yhi) - log(f->ylo)) : 0;
	} else {
		*ny = (y - f->ylo) / (f->yhi - f->ylo);
	}
}

/* Counts which corners a point (0..1 each way) falls in, for a key kw × kh. */
static void corner_hits(double nx, double ny, double kw, double kh, size_t cnt[4])
{
	if (nx < 0 || nx > 1 || ny < 0 || ny > 1)
		return;
	int left = nx <= kw + 0.02, right = nx >= 1 - kw - 0.02;
	int top = ny >= 1 - kh - 0.02, bot = ny <= kh + 0.02;
	cnt[0] += left && top;
	cnt[1] += right && top;
	cnt[2] += right && bot;
	cnt[3] += left && bot;
}

/* The corner of each panel that the lines cross least under a key of this size: each
 * series and its bound sampled along their segments, and the rig's ceiling. */
static void place_keys(struct fig *f, const struct frame *fr, size_t entries, size_t chars)
{
	double kw = (plot_text_w(fr, chars, PLOT_FONT) + plot_text_w(fr, 8, PLOT_FONT)) / fr->pw;
	double kh = ((double)entries * plot_line_h(fr, PLOT_FONT) * 0.9 + 6) / fr->ph;
	for (size_t p = 0; p < f->np; p++) {
		size_t cnt[4] = { 0, 0, 0, 0 };
		for (size_t s = 0; s < f->p[p].ns; s++) {
			const struct ser *se = &f->p[p].s[s];
			for (int which = 0; which < 3; which++) {
				const double *ys = which == 0 ? se->y : which == 1 ? se->bound : se->hi;
				double px = NAN, py = NAN;
				for (size_t i = 0; i < se->n; i++) {
					if (!isfinite(ys[i])) {
						px = NAN;
						continue;
					}
					double nx, ny;
					norm_xy(f, se->x[i], ys[i], &nx, &ny);
					corner_hits(nx, ny, kw, kh, cnt);
					if (isfinite(px) && which < 2 && f->kind != PLOT_BOX)
						for (int k = 1; k < 16; k++)
							corner_hits(px + (nx - px) * k / 16.0,
								    py + (ny - py) * k / 16.0, kw, kh, cnt);
					px = nx;
					py = ny;
				}
			}
		}
		for (size_t s = 0; s < f->p[p].ns; s++) {
			const struct ser *se = &f->p[p].s[s];
			if (!se->has_fit)
				continue;
			double lo = f->logx ? f->xmin_pos : fmax(0, f->xlo), hi = f->xhi;
			for (int k = 0; k <= 32; k++) {
				double x = f->logx ? lo * pow(hi / lo, k / 32.0) : lo + (hi - lo) * k / 32.0;
				double nx, ny;
				norm_xy(f, x, fit_rule_rate(&se->fit, x), &nx, &ny);
				corner_hits(nx, ny, kw, kh, cnt);
			}
		}
		if (f->draw_ceiling)
			for (int k = 0; k <= 16; k++) {
				double nx, ny;
				norm_xy(f, f->xlo, f->ceiling * f->yscale, &nx, &ny);
				corner_hits(k / 16.0, ny, kw, kh, cnt);
			}
		int best = 0;
		for (int c = 1; c < 4; c++)
			if (cnt[c] < cnt[best])
				best = c;
		f->p[p].key = best;
	}
}

/* ---- writing ----------------------------------------------------------------------------- */

static const int pt_solid[] = { 7, 5, 9, 11, 13, 15 };
static const int pt_open[] = { 6, 4, 8, 10, 12, 14 };
static const int dts[] = { 1, 2, 4, 5 };
#define NSTYLE 6
/* gnuplot's default colours, without its yellow, as hex for the alpha of bands */
static const char *const colors[] = { "9400d3", "009e73", "56b4e9", "e69f00", "0072b2",
				      "e51e10", "000000", "b8860b" };
#define NCOLOR 8

static void dat_series(FILE *d, const struct fig *f, size_t p, size_t s, long *index)
{
	const struct ser *se = &f->p[p].s[s];
	fprintf(d, "%s# panel %zu%s%s, series %zu: %s\n", *index ? "\n\n" : "", p,
		*f->p[p].label ? " " : "", f->p[p].label, s, se->title);
	fputs(f->kind == PLOT_LOAD ? "# offered fr fr_low fr_high n bound loss_pct label flagged\n"
				   : "# x y low high n bound - label flagged\n", d);
	if (f->yscale != 1)
		fprintf(d, "# y, low and high in units of %g ns\n", f->yscale);
	for (size_t i = 0; i < se->n; i++) {
		plot_dat_num(d, se->x[i]);
		double v[5] = { se->y[i] / f->yscale, se->lo[i] / f->yscale, se->hi[i] / f->yscale,
				NAN, NAN };
		for (int k = 0; k < 3; k++) {
			fputc(' ', d);
			plot_dat_num(d, v[k]);
		}
		fprintf(d, " %zu ", se->nrep[i]);
		plot_dat_num(d, se->bound[i] / f->yscale);
		fputc(' ', d);
		plot_dat_num(d, se->y2[i]);
		fputc(' ', d);
		plot_dat_str(d, se->lab[i]);
		fprintf(d, " %zu\n", se->nflag[i]);
	}
	(*index)++;
}

/* The points of a panel whose cells have a flagged repetition, every series' in one
 * block, drawn over the series in a style of their own. Returns whether any has a loss
 * (load: marked on the right axis too); -1 when the panel has none (no block). */
static int dat_flagged(FILE *d, const struct fig *f, size_t p, long *index)
{
	const struct panel *pn = &f->p[p];
	int any = 0, y2 = 0;
	for (size_t s = 0; s < pn->ns && s < 16; s++)
		for (size_t i = 0; i < pn->s[s].n; i++) {
			const struct ser *se = &pn->s[s];
			if (!se->nflag[i])
				continue;
			if (!any++)
				fprintf(d, "\n\n# flagged points, panel %zu%s%s: a repetition failed a "
					"check (see the table)\n# x y y2 n_flagged series label\n", p,
					*pn->label ? " " : "", pn->label);
			plot_dat_num(d, se->x[i]);
			fputc(' ', d);
			plot_dat_num(d, se->y[i] / f->yscale);
			fputc(' ', d);
			plot_dat_num(d, se->y2[i]);
			fprintf(d, " %zu %zu ", se->nflag[i], s);
			plot_dat_str(d, se->lab[i]);
			fputc('\n', d);
			y2 |= isfinite(se->y2[i]);
		}
	if (!any)
		return -1;
	(*index)++;
	return y2;
}

/* The fitted curve of a series as points (N, rate), spaced as the x axis is. */
static void dat_fit(FILE *d, const struct fig *f, const struct ser *se, long *index)
{
	fprintf(d, "\n\n# fit rate = 1/(a + b*N): a = %.6g s, b = %.6g s per rule per frame, "
		"R^2 = %.4f\n# N rate\n", se->fit.a_s, se->fit.b_s, se->fit.r2);
	double lo = f->logx ? f->xmin_pos : fmax(0, f->xlo);
	double hi = f->xhi;
	if (f->logx)
		hi = hi / 1.3;
	for (int i = 0; i <= 80; i++) {
		double n = f->logx ? lo * pow(hi / lo, i / 80.0) : lo + (hi - lo) * i / 80.0;
		plot_dat_num(d, n);
		fputc(' ', d);
		plot_dat_num(d, fit_rule_rate(&se->fit, n) / f->yscale);
		fputc('\n', d);
	}
	(*index)++;
}

static void dat_point(FILE *d, const char *what, double x, double y, long *index)
{
	fprintf(d, "\n\n# %s\n", what);
	plot_dat_num(d, x);
	fputc(' ', d);
	plot_dat_num(d, y);
	fputc('\n', d);
	(*index)++;
}

/* The data file in a plot command: named the first time, '' (the same) after. */
static void dref(FILE *gp, const struct files *fs, int *named)
{
	if (*named) {
		fputs("''", gp);
	} else {
		plot_gp_dat_ref(gp, fs, 1);
		*named = 1;
	}
}

/* A plot element separator: the first element starts the command. */
static void elem(FILE *gp, int *first)
{
	fputs(*first ? "plot " : ", \\\n     ", gp);
	*first = 0;
}

static void key_at(FILE *gp, const struct fig *f, int key)
{
	static const char *const pos[] = { "top left", "top right", "bottom right",
					   "bottom left" };
	fprintf(gp, "set key %s opaque box lc 'gray80' samplen 2.5 spacing 0.95%s\n", pos[key],
		f->np > 2 ? " font ',9'" : "");
}

static void ser_style(FILE *gp, const struct fig *f, const struct ser *se, size_t s,
		      int key_only)
{
	int same = se->same_as >= 0;
	const char *with = f->rq->errors == PLOT_ERR_NONE || f->kind == PLOT_BOX || key_only
			   ? "linespoints" : "yerrorlines";
	/* a series equal to an earlier one: open and larger markers around its points */
	fprintf(gp, " w %s pt %d ps %s lw 1.5 dt %d lc rgb '#%s' ", with,
		same ? pt_open[s % NSTYLE] : pt_solid[s % NSTYLE], same ? "2.2" : "1.1",
		same ? 2 : dts[s % 4], colors[s % NCOLOR]);
}

static void title_or_not(FILE *gp, int keyed, const char *t)
{
	if (keyed) {
		fputs("title ", gp);
		plot_gp_str(gp, t);
	} else {
		fputs("notitle", gp);
	}
}

/* Which key entries some panel has, per series. */
struct keyset {
	int bound[16], fit[16], leave[16], mfr[16];
	int flagged;
};

/* Small multiples: what the single key cannot say per panel (each fit's b and R², where
 * the rate leaves the bound, the MFR), as lines under the panel's title, wrapped to the
 * panel's width. Returns the lines written to out. */
static size_t panel_note_lines(const struct fig *f, const struct frame *fr,
			       const struct panel *pn, char (*out)[512], size_t max)
{
	size_t n = 0;
	char a[64], b[64], c[64];
	size_t cols = (size_t)(fr->pw * 0.96 / plot_text_w(fr, 1, PLOT_FONT));
	if (fr->dumb || cols < 20)   /* no room: the key says the rest */
		return 0;
	for (size_t s = 0; s < pn->ns && n < max; s++) {
		const struct ser *se = &pn->s[s];
		const char *who = pn->ns > 1 ? se->name : "";
		const char *sep = pn->ns > 1 ? ": " : "";
		char text[512];
		text[0] = 0;
		if (se->has_fit)
			snprintf(text, sizeof(text), "%s%sb = %s ns/rule/frame, a = %s µs, R² = %.2f",
				 who, sep, num3(se->fit.b_s * 1e9, a, sizeof(a)),
				 num3(se->fit.a_s * 1e6, b, sizeof(b)), se->fit.r2);
		else if (se->leave >= 0)
			snprintf(text, sizeof(text), "%s%sleaves the bound at %s=%s", who, sep, f->xaxis,
				 se->lab[se->leave]);
		else if (se->mfr >= 0 && f->kind == PLOT_LOAD)
			snprintf(text, sizeof(text), "%s%sMFR %s at %s", who, sep,
				 si_pps(se->y[se->mfr], a, sizeof(a)), si_pps(se->x[se->mfr], c, sizeof(c)));
		if (*text)
			n += plot_wrap(text, cols, out + n, max - n);
	}
	return n;
}

/* The panel's title: its label, then its note lines. */
static void panel_title(const struct fig *f, const struct frame *fr, const struct panel *pn,
			char *buf, size_t len)
{
	char lines[12][512];
	size_t n = panel_note_lines(f, fr, pn, lines, 12);
	size_t o = (size_t)snprintf(buf, len, "%s", pn->label);
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "\n%s", lines[i]);
	/* as many lines as the panel with the most, so the labels line up */
	for (size_t i = n; i < f->note_lines && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "\n ");
}

enum emit_mode { EMIT_KEY, EMIT_KEYED, EMIT_BARE };

struct emit_ctx {
	const struct fig *f;
	struct files *fs;
	const struct keyset *ks;
	size_t nser;
	int y2, dumb;
	const char *ln;
	long ser_index[PLOT_MAX_PANELS][16], fit_index[PLOT_MAX_PANELS][16],
	     leave_index[PLOT_MAX_PANELS][16], mfr_index[PLOT_MAX_PANELS][16];
	long flag_index[PLOT_MAX_PANELS];   /* the panel's flagged points, or -1 */
	int flag_y2[PLOT_MAX_PANELS];       /* some have a loss on the right axis */
};

/* The source of one plot element: the data block, or NaN for a key entry alone. */
static void source(FILE *gp, struct emit_ctx *c, enum emit_mode m, int *named, long index,
		   const char *cols)
{
	if (m == EMIT_KEY) {
		fputs("NaN", gp);
		return;
	}
	dref(gp, c->fs, named);
	fprintf(gp, " index %ld u %s", index, cols);
}

/* One panel's plot command (or the shared key's, with every entry some panel has):
 * the polling bound under the data, the series, the fits, the marked points, then the
 * references. */
static void emit(struct emit_ctx *c, size_t p, enum emit_mode m)
{
	const struct fig *f = c->f;
	const struct keyset *ks = c->ks;
	FILE *gp = c->fs->gp;
	const struct panel *pn = &f->p[p];
	int keyed = m != EMIT_BARE, detail = m == EMIT_KEYED;
	int first = 1, named = 0;
	char t[512], a[64], b2[64];
	for (size_t s = 0; s < c->nser; s++) {
		const struct ser *se = s < pn->ns ? &pn->s[s] : NULL;
		int has = 0;
		for (size_t i = 0; se && i < se->n; i++)
			has |= isfinite(se->bound[i]);
		if (!(m == EMIT_KEY ? ks->bound[s] : has))
			continue;
		elem(gp, &first);
		source(gp, c, m, &named, c->ser_index[p][s], "(zx($1)):(zy($6))");
		fprintf(gp, " w l lw %s lc rgb '#a0%s' ", c->dumb ? "1" : "7", colors[s % NCOLOR]);
		snprintf(t, sizeof(t), "pollhz × burst_max%s%s", c->nser > 1 ? ", " : "",
			 c->nser > 1 ? f->p[0].s[s].name : "");
		title_or_not(gp, keyed, t);
	}
	for (size_t s = 0; s < c->nser && s < pn->ns; s++) {
		const struct ser *se = &pn->s[s];
		elem(gp, &first);
		if (m == EMIT_KEY)
			fputs("NaN", gp);
		else
			source(gp, c, m, &named, c->ser_index[p][s],
			       f->rq->errors == PLOT_ERR_NONE || f->kind == PLOT_BOX
			       ? "(zx($1)):(zy($2))" : "(zx($1)):(zy($2)):(zy($3)):(zy($4))");
		ser_style(gp, f, se, s, m == EMIT_KEY);
		title_or_not(gp, keyed, se->title);
		if (c->y2) {
			snprintf(t, sizeof(t), "loss %%%s%s", strcmp(se->name, "FR") ? " " : "",
				 strcmp(se->name, "FR") ? se->name : "");
			elem(gp, &first);
			source(gp, c, m, &named, c->ser_index[p][s], "(zx($1)):7 axes x1y2");
			fprintf(gp, " w linespoints pt %d ps 0.8 dt 2 lc rgb '#%s' ",
				pt_open[s % NSTYLE], colors[s % NCOLOR]);
			title_or_not(gp, keyed, t);
		}
	}
	for (size_t s = 0; s < c->nser; s++) {
		const struct ser *se = s < pn->ns ? &pn->s[s] : NULL;
		if (m == EMIT_KEY ? ks->fit[s] : se && se->has_fit) {
			elem(gp, &first);
			source(gp, c, m, &named, c->fit_index[p][s], "(zx($1)):(zy($2))");
			fprintf(gp, " w l lw 2 dt (6,3) lc rgb '#%s' ", c->nser > 1 ?
				colors[s % NCOLOR] : "303030");
			if (detail) {
				char nb[32], na[32];
				snprintf(t, sizeof(t), "fit 1/(a + b·N)%s%s: b = %s ns per rule per "
					 "frame", c->nser > 1 ? ", " : "", c->nser > 1 ? se->name : "",
					 num3(se->fit.b_s * 1e9, nb, sizeof(nb)));
				title_or_not(gp, keyed, t);
				/* a and the fit's quality as a key line of their own */
				snprintf(t, sizeof(t), "a = %s µs, R² = %.3f, farthest point %.0f %%",
					 num3(se->fit.a_s * 1e6, na, sizeof(na)), se->fit.r2,
					 se->fit.max_rel_err * 100);
				fputs(", \\\n     NaN w l lc rgb '#ffffff' ", gp);
				title_or_not(gp, keyed, t);
			} else {
				snprintf(t, sizeof(t), "fit 1/(a + b·N)%s%s", c->nser > 1 ? ", " : "",
					 c->nser > 1 ? f->p[0].s[s].name : "");
				title_or_not(gp, keyed, t);
			}
		}
		if (m == EMIT_KEY ? ks->leave[s] : se && se->leave >= 0) {
			elem(gp, &first);
			source(gp, c, m, &named, c->leave_index[p][s], "(zx($1)):(zy($2))");
			fprintf(gp, " w p pt 6 ps 3.2 lw 2 lc rgb '#%s' ", colors[s % NCOLOR]);
			if (detail)
				snprintf(t, sizeof(t), "%s%sleaves the bound at %s=%s",
					 c->nser > 1 ? se->name : "", c->nser > 1 ? " " : "", f->xaxis,
					 se->lab[se->leave]);
			else
				snprintf(t, sizeof(t), "%s%sleaves the bound", c->nser > 1 ?
					 f->p[0].s[s].name : "", c->nser > 1 ? " " : "");
			title_or_not(gp, keyed, t);
		}
		if (m == EMIT_KEY ? ks->mfr[s] : se && se->mfr >= 0 && f->kind == PLOT_LOAD) {
			elem(gp, &first);
			source(gp, c, m, &named, c->mfr_index[p][s], "(zx($1)):2");
			fprintf(gp, " w p pt 6 ps 3 lw 2 lc rgb '#%s' ", colors[s % NCOLOR]);
			if (detail)
				snprintf(t, sizeof(t), "MFR%s%s %s at %s offered", c->nser > 1 ? " " : "",
					 c->nser > 1 ? se->name : "",
					 si_pps(se->y[se->mfr], a, sizeof(a)),
					 si_pps(se->x[se->mfr], b2, sizeof(b2)));
			else
				snprintf(t, sizeof(t), "MFR%s%s", c->nser > 1 ? " " : "",
					 c->nser > 1 ? f->p[0].s[s].name : "");
			title_or_not(gp, keyed, t);
		}
	}
	/* flagged cells over everything they could hide under: one style, one key entry */
	if (m == EMIT_KEY ? ks->flagged : c->flag_index[p] >= 0) {
		elem(gp, &first);
		source(gp, c, m, &named, c->flag_index[p], "(zx($1)):(zy($2))");
		fprintf(gp, " w p pt 2 ps 2.6 lw 2 lc rgb '%s' ", PLOT_FLAGGED_RGB);
		title_or_not(gp, keyed, PLOT_FLAGGED_KEY);
		if (m != EMIT_KEY && c->y2 && c->flag_y2[p]) {
			elem(gp, &first);
			source(gp, c, m, &named, c->flag_index[p], "(zx($1)):3 axes x1y2");
			fprintf(gp, " w p pt 2 ps 1.8 lw 2 lc rgb '%s' notitle", PLOT_FLAGGED_RGB);
		}
	}
	/* references last: the key lists the measurement first */
	if (f->kind == PLOT_FRAMESIZE && f->line_drawn) {
		elem(gp, &first);
		snprintf(t, sizeof(t), "theoretical maximum, %s", c->ln);
		fputs(m == EMIT_KEY ? "NaN" : "maxfps(x)", gp);
		fputs(" w l dt 2 lw 2 lc 'gray30' ", gp);
		title_or_not(gp, keyed, t);
	}
	if (f->kind == PLOT_LOAD) {
		elem(gp, &first);
		fputs(m == EMIT_KEY ? "NaN" : "x", gp);
		fputs(" w l dt 3 lc 'gray40' ", gp);
		title_or_not(gp, keyed, "no loss (FR = offered load)");
	}
	if (f->draw_ceiling) {
		elem(gp, &first);
		snprintf(t, sizeof(t), "rig ceiling %s", si_pps(f->ceiling, a, sizeof(a)));
		fputs(m == EMIT_KEY ? "NaN" : "CEILING", gp);
		fputs(" w l dt 4 lw 1.5 lc 'gray50' ", gp);
		title_or_not(gp, keyed, t);
	}
	fputc('\n', gp);
}

/* The axes, ranges, tics and the references' definitions, shared by every panel. */
static void axes_settings(FILE *gp, const struct fig *f, int dumb, int y2)
{
	plot_gp_set_str(gp, "xlabel", f->xlabel);
	plot_gp_set_str(gp, "ylabel", f->ylabel);
	fputs(dumb ? "" : "set grid lc 'gray85'\n", gp);
	fprintf(gp, "set border 3\nset xtics nomirror\nset ytics nomirror\n");
	if (f->logx)
		fputs("set logscale x\n", gp);
	if (f->logy)
		fputs("set logscale y\n", gp);
	if (f->kind == PLOT_LOAD)
		fputs("set format x '%.1s%c'\n", gp);
	fputs("set format y ", gp);
	plot_gp_str(gp, f->yfmt);
	fputc('\n', gp);
	fprintf(gp, "set xrange [%.10g:%.10g]\nset yrange [%.10g:%.10g]\n", f->xlo, f->xhi,
		f->ylo, f->yhi);
	fprintf(gp, "# a 0 on a log axis is drawn at X0 or Y0, apart from the rest\n"
		"X0 = %.10g\nY0 = %.10g\nzx(v) = %s\nzy(v) = %s\n",
		isfinite(f->x0) ? f->x0 : 0, isfinite(f->y0) ? f->y0 : 0,
		isfinite(f->x0) ? "(v == 0 ? X0 : v)" : "v", isfinite(f->y0) ? "(v <= 0 ? Y0 : v)" : "v");
	if (f->xtic_n) {
		fputs("set xtics (", gp);
		for (size_t k = 0; k < f->xtic_n; k++) {
			fputs(k ? ", " : "", gp);
			plot_gp_str(gp, f->xtic_l[k]);
			fprintf(gp, " %.10g", f->xtic_v[k]);
		}
		fputs(")\n", gp);
	}
	if (!f->xnum) {
		fputs("set xtics (", gp);
		for (size_t i = 0; i < f->ncat; i++) {
			char v[64];
			fputs(i ? ", " : "", gp);
			plot_gp_str(gp, res_value_str(f->cats[i], v, sizeof(v)));
			fprintf(gp, " %zu", i);
		}
		fputs(")\n", gp);
		if (f->xrot)
			fputs("set xtics rotate by -45 left\n", gp);
	}
	if (isfinite(f->x0))
		fprintf(gp, "set arrow 1 from %.10g, graph 0 to %.10g, graph 1 nohead dt 3 "
			"lc 'gray50'\n", sqrt(f->x0 * f->xmin_pos), sqrt(f->x0 * f->xmin_pos));
	if (isfinite(f->y0)) {
		double yb = f->y0 * pow(10, 0.25);
		fprintf(gp, "set ytics add ('0' %.10g)\nset arrow 2 from graph 0, first %.10g to "
			"graph 1, first %.10g nohead dt 3 lc 'gray50'\n", f->y0, yb, yb);
	}
	if (y2) {
		fputs("set y2tics nomirror\nset y2range [0:100]\nset border 11\n", gp);
		plot_gp_set_str(gp, "y2label", f->y2label);
	}
	if (f->kind == PLOT_FRAMESIZE && f->link_bps > 0)
		fprintf(gp, "link_bps = %.17g\n# RFC 2544 §26.1: the theoretical maximum counts 20 "
			"bytes of preamble and gap\nmaxfps(x) = link_bps / ((x + 20) * 8)\n",
			f->link_bps);
	if (f->draw_ceiling)
		fprintf(gp, "CEILING = %.10g\n", f->ceiling);
}

static int write_xy(struct fig *f, struct files *fs, const struct plot_out *o)
{
	FILE *d = fs->dat, *gp = fs->gp;
	const struct res_file *rf = f->rf;
	char sub[768], foot[512];
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));

	/* references for the y range */
	double refs[256];
	size_t nrefs = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++)
			for (size_t i = 0; i < f->p[p].s[s].n && nrefs < 250; i++)
				if (isfinite(f->p[p].s[s].bound[i]))
					refs[nrefs++] = f->p[p].s[s].bound[i] / f->yscale;
	if (isfinite(f->ceiling))
		refs[nrefs++] = f->ceiling;
	double line_max = NAN, line_min = NAN;
	char ln[64] = "";
	if (f->kind == PLOT_FRAMESIZE && f->link_bps > 0) {
		double xmin = INFINITY, xmax = 0;
		for (size_t k = 0; k < f->xtic_n; k++) {
			xmin = fmin(xmin, f->xtic_v[k]);
			xmax = fmax(xmax, f->xtic_v[k]);
		}
		line_max = f->link_bps / ((xmin + 20) * 8);
		line_min = f->link_bps / ((xmax + 20) * 8);
		refs[nrefs++] = line_max;
		if (f->link_bps >= 1e9)
			snprintf(ln, sizeof(ln), "%g GbE", f->link_bps / 1e9);
		else
			snprintf(ln, sizeof(ln), "%g Mb/s", f->link_bps / 1e6);
	}
	decide_y(f, refs, nrefs);
	char a[64], b2[64];
	if (isfinite(f->ceiling)) {
		f->draw_ceiling = f->ceiling >= f->ylo && f->ceiling <= f->yhi;
		if (!f->draw_ceiling && f->ceiling > f->yhi)
			note(f, "the rig's own ceiling, %s, is above the plotted range",
			     si_pps(f->ceiling, a, sizeof(a)));
	}
	f->line_drawn = f->link_bps > 0 && !(line_min > f->yhi);
	if (isfinite(line_max) && line_max > f->yhi) {
		if (line_min > f->yhi)
			note(f, "the %s line rate (%s at %g B to %s at %g B) is above the plotted "
			     "range", ln, si_pps(line_max, a, sizeof(a)), f->xtic_v[0],
			     si_pps(line_min, b2, sizeof(b2)), f->xtic_v[f->xtic_n - 1]);
		else
			note(f, "the %s line rate is cut at the top: %s at %g B", ln,
			     si_pps(line_max, a, sizeof(a)), f->xtic_v[0]);
	}
	if (f->kind == PLOT_FRAMESIZE && !(f->link_bps > 0))
		note(f, "line rate unknown (give --link)");

	/* the data */
	long index = 0;
	long ser_index[PLOT_MAX_PANELS][16];
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			ser_index[p][s] = index;
			dat_series(d, f, p, s, &index);
		}
	long fit_index[PLOT_MAX_PANELS][16], leave_index[PLOT_MAX_PANELS][16],
	     mfr_index[PLOT_MAX_PANELS][16];
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			const struct ser *se = &f->p[p].s[s];
			fit_index[p][s] = leave_index[p][s] = mfr_index[p][s] = -1;
			if (se->has_fit) {
				fit_index[p][s] = index;
				dat_fit(d, f, se, &index);
			}
			if (se->leave >= 0) {
				char w[256];
				snprintf(w, sizeof(w), "%.200s leaves the polling bound", se->title);
				leave_index[p][s] = index;
				dat_point(d, w, se->x[se->leave], se->y[se->leave] / f->yscale, &index);
			}
			if (se->mfr >= 0) {
				mfr_index[p][s] = index;
				dat_point(d, "maximum forwarding rate", se->x[se->mfr],
					  se->y[se->mfr] / f->yscale, &index);
			}
		}
	long flag_index[PLOT_MAX_PANELS];
	int flag_y2[PLOT_MAX_PANELS];
	for (size_t p = 0; p < f->np; p++) {
		long at = index;
		int r = dat_flagged(d, f, p, &index);
		flag_index[p] = r < 0 ? -1 : at;
		flag_y2[p] = r > 0;
	}

	/* what the key lists, over every panel: a shared key for small multiples */
	struct keyset ks;
	memset(&ks, 0, sizeof(ks));
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			const struct ser *se = &f->p[p].s[s];
			for (size_t i = 0; i < se->n; i++)
				ks.bound[s] |= isfinite(se->bound[i]);
			ks.fit[s] |= se->has_fit;
			ks.leave[s] |= se->leave >= 0;
			ks.mfr[s] |= se->mfr >= 0 && f->kind == PLOT_LOAD;
		}
	for (size_t p = 0; p < f->np; p++)
		ks.flagged |= flag_index[p] >= 0;
	size_t nser = f->p[0].ns < 16 ? f->p[0].ns : 16;
	size_t entries = 0, chars = 8;
	for (size_t s = 0; s < nser; s++) {
		size_t w = grid_width(f->p[0].s[s].title) + 6;
		chars = w > chars ? w : chars;
		entries += 1 + (f->kind == PLOT_LOAD && *f->y2label) + ks.bound[s] + ks.fit[s] +
			   ks.leave[s] + ks.mfr[s];
	}
	entries += f->draw_ceiling + (f->kind == PLOT_LOAD) + f->line_drawn + ks.flagged;

	/* the frame */
	struct frame fr;
	plot_gp_begin(fs, o, f->np, &fr, rf->path);
	plot_gp_titles(fs, &fr, f->title, sub, (const char *const *)f->notes, f->nnotes, foot);
	double key_top = 0, key_bot = 0;
	if (fr.np > 1) {
		/* the shared key: a strip under the title block, as many columns as fit */
		double ew = plot_text_w(&fr, chars, PLOT_FONT - 1) + (fr.dumb ? 8 : 60);
		size_t kcols = (size_t)((fr.w * 0.94) / ew);
		if (kcols < 1)
			kcols = 1;
		if (kcols > entries)
			kcols = entries;
		size_t krows = (entries + kcols - 1) / kcols;
		key_top = fr.top;
		fr.top += (double)krows * plot_line_h(&fr, PLOT_FONT - 1) + (fr.dumb ? 3 : 12);
		key_bot = fr.top;
		fr.top += fr.dumb ? 0 : plot_line_h(&fr, PLOT_FONT);   /* gnuplot sets titles off the plot */
	}
	int y2 = f->kind == PLOT_LOAD && *f->y2label;
	/* the y tic labels, then the y label turned on its side, then a margin */
	fr.left = plot_text_w(&fr, (size_t)f->ytic_chars + 1, PLOT_FONT) +
		  2 * plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 2 : 12);
	fr.right = y2 ? plot_text_w(&fr, 5, PLOT_FONT) + plot_line_h(&fr, PLOT_FONT) + 8
		      : plot_text_w(&fr, 3, PLOT_FONT);
	fr.gapx = fr.right + plot_text_w(&fr, (size_t)f->ytic_chars + 2, PLOT_FONT);
	fr.ptitle = fr.np > 1 ? plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 0 : 4) : (fr.dumb ? 0 : 6);
	fr.xtics = plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 0 : 8);
	fr.xlab = plot_line_h(&fr, PLOT_FONT) * 1.3 + (fr.dumb ? 0 : 8);
	if (!f->xnum) {
		size_t maxw = 0;
		for (size_t i = 0; i < f->ncat; i++) {
			char v[64];
			size_t w = grid_width(res_value_str(f->cats[i], v, sizeof(v)));
			maxw = w > maxw ? w : maxw;
		}
		f->maxlab = maxw;
		double slot = (fr.w - fr.left - fr.right) / (double)fr.cols / (double)(f->ncat ? f->ncat : 1);
		if (plot_text_w(&fr, maxw + 1, PLOT_FONT) > slot && !fr.dumb) {
			f->xrot = 1;
			fr.xtics = plot_text_w(&fr, maxw, PLOT_FONT) * 0.71 + plot_line_h(&fr, PLOT_FONT);
		}
	}
	plot_frame_panels(&fr);
	if (fr.np > 1) {
		/* room under each panel's title for its notes, as many lines as the most needs */
		size_t most = 0;
		char lines[12][512];
		for (size_t p = 0; p < f->np; p++) {
			size_t k = panel_note_lines(f, &fr, &f->p[p], lines, 12);
			most = k > most ? k : most;
		}
		fr.ptitle += (double)most * plot_line_h(&fr, PLOT_FONT);
		f->note_lines = most;
		plot_frame_panels(&fr);
	}
	thin_xtics(f, &fr);

	if (fr.np == 1)
		axes_settings(gp, f, fr.dumb, y2);
	if (fr.np == 1)   /* small multiples share a key above the panels */
		place_keys(f, &fr, entries, chars + (f->fit ? 40 : 0));

	struct emit_ctx ec = { .f = f, .fs = fs, .ks = &ks, .nser = nser, .y2 = y2,
			       .dumb = fr.dumb, .ln = ln };
	memcpy(ec.ser_index, ser_index, sizeof(ser_index));
	memcpy(ec.fit_index, fit_index, sizeof(fit_index));
	memcpy(ec.leave_index, leave_index, sizeof(leave_index));
	memcpy(ec.mfr_index, mfr_index, sizeof(mfr_index));
	memcpy(ec.flag_index, flag_index, sizeof(flag_index));
	memcpy(ec.flag_y2, flag_y2, sizeof(flag_y2));
	int multi = fr.np > 1;
	if (multi) {
		/* the key alone first, over the whole width, with the title block */
		plot_gp_axis_labels(fs, &fr, f->xlabel, f->ylabel);
		fputs("set multiplot\n", gp);
		fprintf(gp, "# the key shared by the panels\nset lmargin at screen 0.01\n"
			"set rmargin at screen 0.99\nset tmargin at screen %.5f\n"
			"set bmargin at screen %.5f\n", 1 - key_top / fr.h, 1 - key_bot / fr.h);
		fprintf(gp, "unset border\nunset tics\nunset xlabel\nunset ylabel\nunset title\n"
			"unset grid\nunset arrow\nunset logscale\nset xrange [0:1]\nset yrange [0:1]\n"
			"set key center center horizontal opaque box lc 'gray80' samplen 2.5 width "
			"-1%s\n", fr.dumb ? "" : " font ',9'");
		emit(&ec, 0, EMIT_KEY);
		plot_gp_untitle(fs, &fr);
		fputs("\n# the panels\nunset key\n", gp);
		axes_settings(gp, f, fr.dumb, y2);
	}
	for (size_t p = 0; p < f->np; p++) {
		const struct panel *pn = &f->p[p];
		size_t row = p / (size_t)fr.cols, col = p % (size_t)fr.cols;
		char ptitle[4096];
		panel_title(f, &fr, pn, ptitle, sizeof(ptitle));
		plot_gp_panel(fs, &fr, p, ptitle);
		if (multi) {
			/* the axis labels once for all panels, y tic labels in the first column
			 * (the scales are shared) */
			(void)row;
			fputs("set xlabel ''\nset ylabel ''\nset format y ", gp);
			plot_gp_str(gp, col == 0 ? f->yfmt : "");
			fputc('\n', gp);
			if (y2) {
				int lastcol = col == (size_t)fr.cols - 1 || p == f->np - 1;
				plot_gp_set_str(gp, "y2label", lastcol ? f->y2label : "");
				fputs(lastcol ? "set format y2 '%g'\n" : "set format y2 ''\n", gp);
			}
			emit(&ec, p, EMIT_BARE);
		} else {
			key_at(gp, f, pn->key);
			emit(&ec, p, EMIT_KEYED);
		}
	}
	plot_gp_end(fs, &fr);
	return 0;
}

/* ---- line, load, frame size ---------------------------------------------------------- */

static double rig_ceiling(const struct res_file *rf)
{
	json_t *c = res_get(rf->root, "rig", "ceiling_pps", NULL);
	return json_is_number(c) && json_number_value(c) > 0 ? json_number_value(c) : NAN;
}

static int is_poll_axis(const char *a)
{
	return a && (!strcmp(a, "pollhz") || !strcmp(a, "burst_max") || !strcmp(a, "hz"));
}

static void fig_common(struct fig *f, const struct pivot *pv)
{
	snprintf(f->xaxis, sizeof(f->xaxis), "%s", pv->row_axis);
	f->rate = all_rates(pv);
	f->nonneg = 1;
	for (size_t c = 0; c < pv->ncols; c++)
		f->nonneg &= nonneg_metric(pv->cols[c].metric);
	f->ceiling = f->rate ? rig_ceiling(f->rf) : NAN;
	double dmax = 0;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++)
			if (pv->blocks[b].cells[i].st.s.n)
				dmax = fmax(dmax, fabs(pv->blocks[b].cells[i].st.s.max));
	y_label_unit(f, pv, dmax);
}

static int write_line(struct fig *f, struct files *fs, const struct plot_out *o,
		      const char *const *metrics, size_t nm, char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	struct pivot *pv;
	int rc = build_pivot(f->rf, rq->x, rq->by, metrics, nm, rq->where, &pv, err, errlen);
	if (rc || (rc = check_lines(&pv, 1, err, errlen)))
		return rc;
	fig_common(f, pv);
	f->bound = f->rate && is_poll_axis(pv->row_axis);
	if ((rc = build_xy(f, pv, 1, 0, 0)) || (rc = flag_notes(f, pv, "crossed markers")))
		goto out;
	char l[256];
	snprintf(f->xlabel, sizeof(f->xlabel), "%s", name_label(pv->row_axis, l, sizeof(l)));
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		default_title(pv, pv->row_axis, "vs", f->title, sizeof(f->title));
	decide_x(f);
	find_identical(f, pv->row_axis);
	if (f->bound)
		analyze_bound(f);
	if (f->xnum && model_is_rules_axis(pv->row_axis))
		analyze_fit(f);
	rc = write_xy(f, fs, o);
out:
	pv_free(pv);
	return rc;
}

static const char *first_axis_of(const struct res_file *rf, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (res_axis(rf, names[i]))
			return names[i];
	return NULL;
}

static int write_load(struct fig *f, struct files *fs, const struct plot_out *o, char *err,
		      size_t errlen)
{
	static const char *const load_axes[] = { "load_pps", "intended_pps", "offered_pps",
						 "rate_pps", "load_pct", "load", NULL };
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	const char *x = rq->x ? rq->x : first_axis_of(rf, load_axes);
	const char *fr = rq->nmetrics ? rq->metrics[0] : "fwd_pps";
	int has_off = res_has_metric(rf, "offered_pps"), has_loss = res_has_metric(rf, "loss_pct");
	const char *m[3];
	size_t nm = 0;
	m[nm++] = fr;
	if (has_off)
		m[nm++] = "offered_pps";
	if (has_loss)
		m[nm++] = "loss_pct";
	struct pivot *pv;
	int rc = build_pivot(rf, x, rq->by, m, nm, rq->where, &pv, err, errlen);
	if (rc || (rc = check_lines(&pv, nm, err, errlen)))
		return rc;
	if (!has_off && !rows_numeric(pv)) {
		rc = fail(err, errlen, "--x %s: the offered load must be a number (no "
			  "offered_pps metric either)", pv->row_axis);
		goto out;
	}
	fig_common(f, pv);
	f->rate = name_is_rate(fr);
	f->ceiling = f->rate ? rig_ceiling(rf) : NAN;
	char l[256];
	f->yscale = 1;
	snprintf(f->ylabel, sizeof(f->ylabel), "%s", name_label(fr, l, sizeof(l)));
	if ((rc = build_xy(f, pv, nm, has_off, has_loss)) ||
	    (rc = flag_notes(f, pv, "crossed markers")))
		goto out;
	f->xnum = 1;   /* x is the offered load, a number */
	snprintf(f->xlabel, sizeof(f->xlabel), "%s", has_off ? "offered load (packets/s)"
		 : name_label(pv->row_axis, l, sizeof(l)));
	if (has_loss)
		snprintf(f->y2label, sizeof(f->y2label), "frame loss (%%)");
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		snprintf(f->title, sizeof(f->title), "Forwarding rate%s vs offered load (RFC "
			 "2285/2889)%s%s%s", has_loss ? " and loss" : "", *pv->fixed ? " (" : "",
			 pv->fixed, *pv->fixed ? ")" : "");
	decide_x(f);
	analyze_mfr(f);
	rc = write_xy(f, fs, o);
out:
	pv_free(pv);
	return rc;
}

static int write_framesize(struct fig *f, struct files *fs, const struct plot_out *o,
			   char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	const char *x = rq->x ? rq->x : "frame_size";
	if (!res_axis(rf, x))
		return fail(err, errlen, "--x %s: %s has no such axis; a frame-size plot needs "
			    "the frame size as an axis (give it with --x)", x, rf->path);
	const char *m[4];
	size_t nm = 0;
	if (rq->nmetrics) {
		for (size_t i = 0; i < rq->nmetrics && nm < 4; i++)
			m[nm++] = rq->metrics[i];
	} else {
		if (res_has_metric(rf, "ndr_pps"))
			m[nm++] = "ndr_pps";
		if (res_has_metric(rf, "pdr_pps"))
			m[nm++] = "pdr_pps";
		if (!nm)
			m[nm++] = "fwd_pps";
	}
	struct pivot *pv;
	int rc = build_pivot(rf, x, rq->by, m, nm, rq->where, &pv, err, errlen);
	if (rc || (rc = check_lines(&pv, 1, err, errlen)))
		return rc;
	if (!rows_numeric(pv)) {
		rc = fail(err, errlen, "--x %s: frame sizes must be numbers", x);
		goto out;
	}
	fig_common(f, pv);
	f->link_bps = rq->link_bps;
	if (!(f->link_bps > 0)) {
		json_t *sp = res_get(rf->root, "environment", "dut", "nics", NULL);
		sp = json_object_get(json_array_get(sp, 0), "speed_mbps");
		if (json_is_number(sp) && json_number_value(sp) > 0)
			f->link_bps = json_number_value(sp) * 1e6;
	}
	if ((rc = build_xy(f, pv, 1, 0, 0)) || (rc = flag_notes(f, pv, "crossed markers")))
		goto out;
	snprintf(f->xlabel, sizeof(f->xlabel), "frame size (bytes, with FCS)");
	snprintf(f->ylabel, sizeof(f->ylabel), "throughput (frames/s)");
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		snprintf(f->title, sizeof(f->title), "Throughput vs frame size (RFC 2544 §26.1)%s%s%s",
			 *pv->fixed ? " (" : "", pv->fixed, *pv->fixed ? ")" : "");
	decide_x(f);
	find_identical(f, "frame size");
	rc = write_xy(f, fs, o);
out:
	pv_free(pv);
	return rc;
}

/* ---- box ------------------------------------------------------------------------------- */

static int write_box(struct fig *f, struct files *fs, const struct plot_out *o,
		     const char *metric, char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	struct pivot *pv;
	const char *m[] = { metric };
	int rc = build_pivot(rf, rq->x, rq->by, m, 1, rq->where, &pv, err, errlen);
	if (rc || (rc = check_lines(&pv, 1, err, errlen)))
		return rc;
	fig_common(f, pv);
	f->ceiling = NAN;
	if ((rc = panels_of(f, pv)) || (rc = collect_cats(f, pv)))
		goto out;
	f->xnum = 0;
	size_t nc = pv->ncols;
	double slot = 0.8 / (double)nc, width = slot * 0.7;
	double *vals = NULL;
	size_t cap = 0;
	/* per panel and series: the box statistics; the repetitions go to .dat blocks */
	for (size_t b = 0; b < pv->nblocks && !rc; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		struct panel *pn = &f->p[b];
		if (!(pn->s = calloc(nc, sizeof(*pn->s)))) {
			rc = -ENOMEM;
			break;
		}
		pn->ns = nc;
		for (size_t c = 0; c < nc && !rc; c++) {
			struct ser *se = &pn->s[c];
			if ((rc = ser_alloc(se, bl->nrows)))
				break;
			se->metric = metric;
			snprintf(se->title, sizeof(se->title), "%s", nc > 1 ? pv->cols[c].label : metric);
			snprintf(se->name, sizeof(se->name), "%.127s", se->title);
			for (size_t r = 0; r < bl->nrows; r++) {
				const struct pv_cell *pc = &bl->cells[r * nc + c];
				if (pc->cell < 0 || !pc->st.s.n)
					continue;
				const struct res_cell *cell = &rf->cells[pc->cell];
				if (cell->ncases > cap) {
					free(vals);
					cap = cell->ncases;
					if (!(vals = malloc(cap * sizeof(*vals)))) {
						rc = -ENOMEM;
						break;
					}
				}
				struct res_stats st;
				if (res_cell_stats(rf, (size_t)pc->cell, metric, &st, vals)) {
					rc = -ENOMEM;
					break;
				}
				size_t k = se->n++;
				se->x[k] = cat_pos(f, bl->rows[r]) + 1 +
					   ((double)c - (double)(nc - 1) / 2) * slot;
				se->y[k] = st.s.median;
				se->med[k] = st.s.median;
				se->lo[k] = st.s.min;
				se->hi[k] = st.s.max;
				se->q1[k] = st_quantile(vals, st.s.n, 0.25);
				se->q3[k] = st_quantile(vals, st.s.n, 0.75);
				se->bound[k] = se->y2[k] = NAN;
				se->nrep[k] = st.s.n;
				se->nflag[k] = st.flagged;
				res_value_str(bl->rows[r], se->lab[k], sizeof(se->lab[k]));
			}
		}
	}
	if (rc || (rc = flag_notes(f, pv, "crossed dots")))
		goto done;
	char l[256];
	snprintf(f->xlabel, sizeof(f->xlabel), "%s", name_label(pv->row_axis, l, sizeof(l)));
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		default_title(pv, pv->row_axis, "repetitions per", f->title, sizeof(f->title));
	decide_x(f);
	decide_y(f, NULL, 0);
	FILE *d = fs->dat, *gp = fs->gp;
	/* boxes, then the repetitions, per panel and series */
	long index = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			const struct ser *se = &f->p[p].s[s];
			fprintf(d, "%s# panel %zu%s%s, boxes %zu: %s\n# x q1 min max q3 median n label\n",
				index ? "\n\n" : "", p, *f->p[p].label ? " " : "", f->p[p].label, s,
				se->title);
			for (size_t i = 0; i < se->n; i++) {
				double v[6] = { se->x[i], se->q1[i], se->lo[i], se->hi[i], se->q3[i],
						se->med[i] };
				for (int k = 0; k < 6; k++) {
					plot_dat_num(d, k ? v[k] / f->yscale : v[k]);
					fputc(' ', d);
				}
				fprintf(d, "%zu ", se->nrep[i]);
				plot_dat_str(d, se->lab[i]);
				fputc('\n', d);
			}
			index++;
		}
	for (size_t b = 0; b < pv->nblocks && !rc; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		for (size_t c = 0; c < nc; c++) {
			fprintf(d, "\n\n# panel %zu, repetitions %zu: %s\n# x value\n", b, c,
				pv->cols[c].label);
			for (size_t r = 0; r < bl->nrows; r++) {
				const struct pv_cell *pc = &bl->cells[r * nc + c];
				if (pc->cell < 0 || !pc->st.s.n)
					continue;
				struct res_stats st;
				if (res_cell_stats(rf, (size_t)pc->cell, metric, &st, vals)) {
					rc = -ENOMEM;
					break;
				}
				double xc = cat_pos(f, bl->rows[r]) + 1 +
					    ((double)c - (double)(nc - 1) / 2) * slot;
				/* spread the dots sideways a little, deterministically */
				for (size_t i = 0; i < st.s.n; i++) {
					double j = st.s.n > 1 ? ((double)i / (double)(st.s.n - 1) - 0.5) : 0;
					plot_dat_num(d, xc + j * width * 0.5);
					fputc(' ', d);
					plot_dat_num(d, vals[i] / f->yscale);
					fputc('\n', d);
				}
			}
			index++;
		}
	}
	/* the flagged repetitions again, each at its dot: the cases in the order
	 * res_cell_stats took their values (failed ones and those without the metric are
	 * no dot) */
	long *flag_index = calloc(pv->nblocks * nc + 1, sizeof(*flag_index));
	if (!rc && !flag_index)
		rc = -ENOMEM;
	for (size_t b = 0; b < pv->nblocks && !rc; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		for (size_t c = 0; c < nc; c++) {
			flag_index[b * nc + c] = -1;
			int any = 0;
			for (size_t r = 0; r < bl->nrows; r++) {
				const struct pv_cell *pc = &bl->cells[r * nc + c];
				if (pc->cell < 0 || !pc->st.s.n || !pc->st.flagged)
					continue;
				const struct res_cell *cell = &rf->cells[pc->cell];
				double xc = cat_pos(f, bl->rows[r]) + 1 +
					    ((double)c - (double)(nc - 1) / 2) * slot;
				size_t i = 0, nv = pc->st.s.n;
				for (size_t k = 0; k < cell->ncases; k++) {
					const struct res_case *cs = &rf->cases[cell->cases[k]];
					double v;
					if (cs->failed || res_metric(cs, metric, &v))
						continue;
					if (cs->flagged) {
						if (!any++) {
							fprintf(d, "\n\n# flagged repetitions, panel %zu, "
								"series %zu: %s (see the table)\n# x value rep\n",
								b, c, pv->cols[c].label);
							flag_index[b * nc + c] = index++;
						}
						double j = nv > 1 ? ((double)i / (double)(nv - 1) - 0.5) : 0;
						plot_dat_num(d, xc + j * width * 0.5);
						fputc(' ', d);
						plot_dat_num(d, v / f->yscale);
						fprintf(d, " %d\n", cs->rep);
					}
					i++;
				}
			}
		}
	}
	if (rc) {
		free(flag_index);
		goto done;
	}
	char sub[768], foot[512];
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	struct frame fr;
	plot_gp_begin(fs, o, f->np, &fr, rf->path);
	plot_gp_titles(fs, &fr, f->title, sub, (const char *const *)f->notes, f->nnotes, foot);
	/* the y tic labels, then the y label turned on its side, then a margin */
	fr.left = plot_text_w(&fr, (size_t)f->ytic_chars + 1, PLOT_FONT) +
		  2 * plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 2 : 12);
	fr.right = plot_text_w(&fr, 3, PLOT_FONT);
	fr.gapx = fr.right + plot_text_w(&fr, (size_t)f->ytic_chars + 2, PLOT_FONT);
	fr.ptitle = fr.np > 1 ? plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 0 : 4) : (fr.dumb ? 0 : 6);
	fr.xtics = plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 0 : 8);
	fr.xlab = plot_line_h(&fr, PLOT_FONT) * 1.3 + (fr.dumb ? 0 : 8);
	plot_frame_panels(&fr);
	plot_gp_set_str(gp, "xlabel", f->xlabel);
	plot_gp_set_str(gp, "ylabel", f->ylabel);
	fprintf(gp, "set style fill solid 0.3 border -1\nset boxwidth %g absolute\n", width);
	fputs(fr.dumb ? "" : "set grid ytics lc 'gray85'\n", gp);
	fputs("set border 3\nset xtics nomirror\nset ytics nomirror\n", gp);
	if (f->logy)
		fputs("set logscale y\n", gp);
	fprintf(gp, "set xrange [%.10g:%.10g]\nset yrange [%.10g:%.10g]\n", f->xlo, f->xhi,
		f->ylo, f->yhi);
	fputs("set xtics (", gp);
	for (size_t i = 0; i < f->ncat; i++) {
		char v[64];
		fputs(i ? ", " : "", gp);
		plot_gp_str(gp, res_value_str(f->cats[i], v, sizeof(v)));
		fprintf(gp, " %zu", i + 1);
	}
	fputs(")\n", gp);
	place_keys(f, &fr, nc + (f->nflagged > 0), 20);
	fputs("# box: quartiles; whiskers: min and max; bar: median; dots: each repetition\n", gp);
	plot_gp_axis_labels(fs, &fr, f->xlabel, f->ylabel);
	plot_gp_multiplot(fs, &fr);
	for (size_t p = 0; p < f->np; p++) {
		size_t col = p % (size_t)fr.cols;
		if (p == 1)
			plot_gp_untitle(fs, &fr);
		plot_gp_panel(fs, &fr, p, f->p[p].label);
		if (fr.np > 1) {
			fputs("set xlabel ''\nset ylabel ''\nset format y ", gp);
			plot_gp_str(gp, col == 0 ? f->yfmt : "");
			fputc('\n', gp);
		} else {
			fputs("set format y ", gp);
			plot_gp_str(gp, f->yfmt);
			fputc('\n', gp);
		}
		key_at(gp, f, f->p[p].key);
		for (size_t c = 0; c < nc; c++) {
			long bi = (long)(p * nc + c), ri = (long)(f->np * nc + p * nc + c);
			fputs(c ? ", \\\n     ''" : "plot ", gp);
			if (!c) {
				if (!p)
					plot_gp_dat_ref(gp, fs, 1);
				else
					fputs("''", gp);
			}
			fprintf(gp, " index %ld u 1:2:3:4:5 w candlesticks whiskerbars lc %zu title ",
				bi, c + 1);
			plot_gp_str(gp, f->p[p].s[c].title);
			fprintf(gp, ", \\\n     '' index %ld u 1:6:6:6:6 w candlesticks lt -1 lw 2 "
				"notitle", bi);
			fprintf(gp, ", \\\n     '' index %ld u 1:2 w points pt 7 ps 0.5 lc 'black' "
				"notitle", ri);
		}
		/* flagged repetitions crossed over their dots, one key entry per panel */
		int keyed = 0;
		for (size_t c = 0; c < nc; c++) {
			if (flag_index[p * nc + c] < 0)
				continue;
			fprintf(gp, ", \\\n     '' index %ld u 1:2 w points pt 2 ps 1.8 lw 2 "
				"lc rgb '%s' ", flag_index[p * nc + c], PLOT_FLAGGED_RGB);
			if (keyed++) {
				fputs("notitle", gp);
			} else {
				fputs("title ", gp);
				plot_gp_str(gp, PLOT_FLAGGED_KEY);
			}
		}
		fputc('\n', gp);
	}
	free(flag_index);
	plot_gp_end(fs, &fr);
done:
	free(vals);
out:
	pv_free(pv);
	return rc;
}

/* ---- heatmap ------------------------------------------------------------------------- */

/* The values of an axis present in a pivot's rows (or columns), in axis order. */
static size_t present(const struct res_file *rf, const char *axis, const struct pivot *pv,
		      int in_rows, json_t **out)
{
	const struct res_axis *ax = res_axis(rf, axis);
	size_t n = 0;
	for (size_t v = 0; ax && v < ax->nvalues; v++) {
		int in = 0;
		if (in_rows) {
			for (size_t b = 0; b < pv->nblocks && !in; b++)
				for (size_t r = 0; r < pv->blocks[b].nrows && !in; r++)
					in = res_value_eq(pv->blocks[b].rows[r], ax->values[v]);
		} else {
			for (size_t c = 0; c < pv->ncols && !in; c++)
				in = pv->cols[c].filt.n &&
				     res_value_matches(ax->values[v], pv->cols[c].filt.c[0].value);
		}
		if (in)
			out[n++] = ax->values[v];
	}
	return n;
}

static int write_heatmap(struct fig *f, struct files *fs, const struct plot_out *o,
			 const char *metric, char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	/* rows of the matrix are y values, columns x values; a probe pivot picks the axes
	 * that vary when they are not given */
	struct pivot *pv;
	const char *m[] = { metric };
	struct pivot *probe;
	int rc = pv_build(rf, &(struct pv_req){ .rows = rq->x, .cols = rq->y, .metrics = m,
						.nmetrics = 1, .where = rq->where, .decimals = -1 },
			  &probe, err, errlen);
	if (rc)
		return rc;
	char xa[256], ya[256];
	snprintf(xa, sizeof(xa), "%s", probe->row_axis);
	snprintf(ya, sizeof(ya), "%s", probe->ncols && probe->cols[0].filt.n ?
		 probe->cols[0].filt.c[0].axis : "");
	pv_free(probe);
	if (!*ya)
		return fail(err, errlen, "a heatmap needs two axes that vary; give --x and --y "
			    "(only %s varies)", xa);
	if ((rc = build_pivot(rf, ya, xa, m, 1, rq->where, &pv, err, errlen)))
		return rc;
	json_t **xs = NULL, **ys = NULL;
	const struct res_axis *xax = res_axis(rf, xa), *yax = res_axis(rf, pv->row_axis);
	if ((rc = panels_of(f, pv)) || !xax || !yax)
		goto out;
	xs = calloc(xax->nvalues + 1, sizeof(*xs));
	ys = calloc(yax->nvalues + 1, sizeof(*ys));
	if (!xs || !ys) {
		rc = -ENOMEM;
		goto out;
	}
	size_t nx = present(rf, xa, pv, 0, xs), ny = present(rf, pv->row_axis, pv, 1, ys);
	/* one colour scale for every panel: log over more than two decades */
	double vmin = INFINITY, vmax = -INFINITY;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++) {
			const struct pv_cell *pc = &pv->blocks[b].cells[i];
			if (pc->cell >= 0 && pc->st.s.n) {
				vmin = fmin(vmin, pc->st.s.median);
				vmax = fmax(vmax, pc->st.s.median);
			}
		}
	int rate = name_is_rate(metric);
	int logcb = vmin > 0 && vmax / vmin > 100;
	double cblo = logcb ? vmin : fmin(0, vmin), cbhi = vmax > cblo ? vmax : cblo + 1;
	FILE *d = fs->dat, *gp = fs->gp;
	if ((rc = flag_notes(f, pv, "framed, value marked *")))
		goto out;
	int *panel_flagged = calloc(pv->nblocks + 1, sizeof(int));
	if (!panel_flagged) {
		rc = -ENOMEM;
		goto out;
	}
	/* one block per panel: x index, y index, median, as a grid (NaN: no value), how
	 * many of the cell's repetitions were flagged, and how many failed when none has a
	 * value (the cell says "failed", as the table does) */
	for (size_t b = 0; b < pv->nblocks; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		fprintf(d, "%s# panel %zu%s%s: %s (median); x: %s, y: %s (indexes into the tics)\n"
			"# x y value flagged failed\n", b ? "\n\n" : "", b, *bl->label ? " " : "", bl->label,
			metric, xa, pv->row_axis);
		for (size_t yi = 0; yi < ny; yi++) {
			long r = -1;
			for (size_t k = 0; k < bl->nrows && r < 0; k++)
				if (res_value_eq(bl->rows[k], ys[yi]))
					r = (long)k;
			for (size_t xi = 0; xi < nx; xi++) {
				double v = NAN;
				size_t fl = 0, failed = 0;
				for (size_t c = 0; c < pv->ncols && r >= 0; c++) {
					const struct pv_cell *pc = &bl->cells[(size_t)r * pv->ncols + c];
					if (pv->cols[c].filt.n &&
					    res_value_matches(xs[xi], pv->cols[c].filt.c[0].value) &&
					    pc->cell >= 0 && pc->st.s.n) {
						v = pc->st.s.median;
						fl = pc->st.flagged;
					} else if (pv->cols[c].filt.n &&
						   res_value_matches(xs[xi], pv->cols[c].filt.c[0].value) &&
						   pc->cell >= 0) {
						failed = pc->st.failed;
					}
				}
				fprintf(d, "%zu %zu ", xi, yi);
				plot_dat_num(d, v);
				fprintf(d, " %zu %zu\n", fl, failed);
				panel_flagged[b] |= fl > 0;
			}
			fputc('\n', d);
		}
	}
	char sub[768], foot[512], l[256];
	if (rq->title) {
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	} else {
		size_t n = (size_t)snprintf(f->title, sizeof(f->title), "%s over %s × %s", metric,
					    xa, pv->row_axis);
		if (*pv->fixed && n < sizeof(f->title))
			snprintf(f->title + n, sizeof(f->title) - n, " (%s)", pv->fixed);
	}
	if (logcb)
		note(f, "colour scale logarithmic: the values span %.1f decades",
		     log10(vmax / vmin));
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	struct frame fr;
	plot_gp_begin(fs, o, f->np, &fr, rf->path);
	plot_gp_titles(fs, &fr, f->title, sub, (const char *const *)f->notes, f->nnotes, foot);
	size_t yw = 0;
	for (size_t i = 0; i < ny; i++) {
		char v[256];
		size_t w = grid_width(res_value_str(ys[i], v, sizeof(v)));
		yw = w > yw ? w : yw;
	}
	fr.left = plot_text_w(&fr, yw + 1, PLOT_FONT) + plot_line_h(&fr, PLOT_FONT) +
		  (fr.dumb ? 2 : 12);
	/* the colour box and its labels right of the last column only (one scale) */
	fr.right = fr.dumb ? 12 : plot_text_w(&fr, 7, PLOT_FONT) + plot_line_h(&fr, PLOT_FONT) + 40;
	fr.gapx = plot_text_w(&fr, yw + 2, PLOT_FONT);
	fr.ptitle = fr.np > 1 ? plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 0 : 4) : (fr.dumb ? 0 : 6);
	fr.xtics = plot_line_h(&fr, PLOT_FONT) + (fr.dumb ? 0 : 8);
	fr.xlab = plot_line_h(&fr, PLOT_FONT) * 1.3 + (fr.dumb ? 0 : 8);
	plot_frame_panels(&fr);
	char xlabel[256], ylabel[256];
	name_label(xa, xlabel, sizeof(xlabel));
	name_label(pv->row_axis, ylabel, sizeof(ylabel));
	plot_gp_set_str(gp, "cblabel", name_label(metric, l, sizeof(l)));
	fputs("unset grid\nunset key\nset palette defined (0 '#440154', 0.5 '#21918c', 1 '#fde725')\n"
	      "set tics scale 0\nset border 0\n", gp);
	fprintf(gp, "set cbrange [%.10g:%.10g]\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n",
		cblo, cbhi, nx - 1, ny - 1);
	if (logcb)
		fputs("set logscale cb\n", gp);
	if (rate)
		fputs("set format cb '%.1s%c'\n", gp);
	for (int axis = 0; axis < 2; axis++) {
		fputs(axis ? "set ytics (" : "set xtics (", gp);
		for (size_t i = 0; i < (axis ? ny : nx); i++) {
			char v[256];
			fputs(i ? ", " : "", gp);
			plot_gp_str(gp, res_value_str(axis ? ys[i] : xs[i], v, sizeof(v)));
			fprintf(gp, " %zu", i);
		}
		fputs(")\n", gp);
	}
	/* the cell's value in black on the light end of the palette, white on the dark */
	fprintf(gp, "ink(v) = v != v ? 0x606060 : (%s) > 0.6 ? 0x000000 : 0xffffff\n", logcb
		? "(log(v) - log(CBLO)) / (log(CBHI) - log(CBLO))" : "(v - CBLO) / (CBHI - CBLO)");
	fprintf(gp, "CBLO = %.10g\nCBHI = %.10g\n", cblo, cbhi);
	plot_gp_axis_labels(fs, &fr, xlabel, ylabel);
	plot_gp_multiplot(fs, &fr);
	for (size_t p = 0; p < f->np; p++) {
		size_t row = p / (size_t)fr.cols, col = p % (size_t)fr.cols;
		if (p == 1)
			plot_gp_untitle(fs, &fr);
		plot_gp_panel(fs, &fr, p, f->p[p].label);
		int last_col = col == (size_t)fr.cols - 1 || p == f->np - 1;
		(void)row;
		plot_gp_set_str(gp, "xlabel", fr.np > 1 ? "" : xlabel);
		plot_gp_set_str(gp, "ylabel", fr.np > 1 ? "" : ylabel);
		fputs(col == 0 ? "set format y '%g'\n" : "set format y ''\n", gp);
		if (fr.np > 1)
			fputs(last_col ? "set colorbox\n" : "unset colorbox\n", gp);
		fputs("plot ", gp);
		if (!p)
			plot_gp_dat_ref(gp, fs, 1);
		else
			fputs("''", gp);
		/* no value: no number (NaN is not equal to itself), "failed" when its
		 * repetitions failed */
		fprintf(gp, " index %zu u 1:2:3 w image notitle, \\\n     '' index %zu u 1:2:"
			"($5 > 0 ? 'failed' : $3 == $3 ? %s.($4 > 0 ? '*' : '') : ''):(ink($3)) "
			"w labels tc rgb variable notitle", p, p,
			rate ? "gprintf('%.1s%c', $3)" : "sprintf('%.3g', $3)");
		/* a flagged cell framed in a colour the palette does not have */
		if (panel_flagged[p])
			fprintf(gp, ", \\\n     '' index %zu u 1:2:($4 > 0 ? 0.46 : NaN):(0.46) "
				"w boxxyerror fs empty border lc rgb '%s' lw %s lc rgb '%s' notitle", p,
				PLOT_FLAGGED_RGB, fr.dumb ? "1" : "3", PLOT_FLAGGED_RGB);
		fputc('\n', gp);
	}
	free(panel_flagged);
	plot_gp_end(fs, &fr);
out:
	free(xs);
	free(ys);
	pv_free(pv);
	return rc;
}

int plot_results(const struct res_file *rf, const struct plot_req *rq,
		 const struct plot_out *o, char *err, size_t errlen)
{
	struct files fs;
	int rc = plot_files_open(&fs, o, err, errlen);
	if (rc) {
		plot_files_close(&fs, 1);
		return rc;
	}
	const char *metric = rq->nmetrics ? rq->metrics[0] : "fwd_pps";
	static const char *const def[] = { "fwd_pps" };
	struct fig f = { .rf = rf, .rq = rq, .kind = rq->kind, .yscale = 1, .x0 = NAN,
			 .y0 = NAN, .ceiling = NAN };
	switch (rq->kind) {
	case PLOT_LINE:
		rc = write_line(&f, &fs, o, rq->nmetrics ? rq->metrics : def,
				rq->nmetrics ? rq->nmetrics : 1, err, errlen);
		break;
	case PLOT_HEATMAP:
		rc = write_heatmap(&f, &fs, o, metric, err, errlen);
		break;
	case PLOT_LOAD:
		rc = write_load(&f, &fs, o, err, errlen);
		break;
	case PLOT_FRAMESIZE:
		rc = write_framesize(&f, &fs, o, err, errlen);
		break;
	case PLOT_BOX:
		rc = write_box(&f, &fs, o, metric, err, errlen);
		break;
	}
	fig_free(&f);
	return plot_files_finish(&fs, rc, err, errlen);
}
