/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_fig.c — the figure a plot draws, built from a pivot (see plot_fig.h):
 * its panels and series, their titles and labels, and what the project reads from them —
 * series that coincide, where a rate leaves the polling bound, the rule-cost fit, the
 * maximum forwarding rate */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "names.h"
#include "pivot.h"
#include "plot_fig.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

/* A measurement within this fraction of the polling bound (0.95 to 1.05 of it) follows
 * it. */
#define BOUND_FOLLOWS 0.95

__attribute__((format(printf, 2, 3)))
void plot_note(struct fig *f, const char *fmt, ...)
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
int plot_note_flags(struct fig *f, const struct pivot *pv, const char *how)
{
	unsigned char *seen = calloc(f->rf->ncells + 1, 1);
	if (!seen)
		return -ENOMEM;
	size_t n = 0, nfail = 0;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++) {
			const struct pv_cell *pc = &pv->blocks[b].cells[i];
			if (pc->cell < 0 || !pc->st.s.n || seen[pc->cell])
				continue;
			n += pc->st.flagged > 0;
			nfail += pc->st.failed > 0;
			seen[pc->cell] = pc->st.flagged || pc->st.failed;
		}
	free(seen);
	f->nflagged = n + nfail;
	char lines[6][512];
	size_t k = plot_flag_notes(pv->reasons, n, how, lines, 6);
	for (size_t i = 0; i < k; i++)
		plot_note(f, "%s", lines[i]);
	/* a cell drawn from fewer repetitions than it had is marked as a flagged one is */
	if (nfail)
		plot_note(f, "%zu cell%s with a failed repetition (%s too): the median is of the "
			  "others", nfail, nfail == 1 ? "" : "s", how);
	return 0;
}

static void ser_free(struct ser *s)
{
	free(s->x);
	free(s->nrep);
	free(s->lab);
}

void plot_fig_free(struct fig *f)
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
int plot_ser_alloc(struct ser *s, size_t n)
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

int plot_rows_numeric(const struct pivot *pv)
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

void plot_default_title(const struct pivot *pv, const char *x, const char *what,
			char *buf, size_t len)
{
	int same = 1;
	for (size_t c = 1; c < pv->ncols; c++)
		same &= !strcmp(pv->cols[c].metric, pv->cols[0].metric);
	char m[256], xa[256];
	if (same)
		name_words(pv->cols[0].metric, m, sizeof(m));
	else
		snprintf(m, sizeof(m), "%s", all_rates(pv) ? "rates" : "metrics");
	name_words(x, xa, sizeof(xa));
	size_t o = (size_t)snprintf(buf, len, "%s %s %s", m, what, xa);
	if (o < len && *pv->fixed)
		snprintf(buf + o, len - o, " (%s)", pv->fixed);
	if (*buf >= 'a' && *buf <= 'z')
		*buf = (char)(*buf - 'a' + 'A');
}

void plot_sort_values(json_t **v, size_t n)
{
	/* numbers first in value order, then text in natural order; insertion: few values */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			json_t *a = v[j - 1], *b = v[j];
			int an = json_is_number(a), bn = json_is_number(b), gt;
			if (an && bn) {
				gt = json_number_value(a) > json_number_value(b);
			} else if (an || bn) {
				gt = bn;
			} else {
				char sa[256], sb[256];
				gt = name_natcmp(res_value_str(a, sa, sizeof(sa)),
						 res_value_str(b, sb, sizeof(sb))) > 0;
			}
			if (!gt)
				break;
			v[j - 1] = b;
			v[j] = a;
		}
}

/* The categories of the row axis present in any block, in natural order (versions:
 * 13.8, 13.10, 14.0). */
int plot_collect_cats(struct fig *f, const struct pivot *pv)
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
	plot_sort_values(f->cats, f->ncat);
	return 0;
}

double plot_cat_pos(const struct fig *f, const json_t *v)
{
	for (size_t i = 0; i < f->ncat; i++)
		if (res_value_eq(f->cats[i], v))
			return (double)i;
	return NAN;
}

/* Builds the pivot and checks it: one block per panel, at most PLOT_MAX_PANELS. */
int plot_pivot(const struct res_file *rf, const char *rows, const char *cols,
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
int plot_check_lines(struct pivot **pv, size_t per_line, char *err, size_t errlen)
{
	if ((*pv)->ncols <= 16 * per_line)
		return 0;
	size_t n = (*pv)->ncols / per_line;
	pv_free(*pv);
	*pv = NULL;
	return fail(err, errlen, "%zu lines in one panel: more than 16; give --by an axis with "
		    "fewer values, or fix some with --where", n);
}

int plot_panels_of(struct fig *f, const struct pivot *pv)
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
int plot_build_xy(struct fig *f, const struct pivot *pv, size_t nm, int has_off,
		  int has_loss)
{
	int rc = plot_panels_of(f, pv);
	if (rc)
		return rc;
	f->xnum = plot_rows_numeric(pv);
	if (!f->xnum && (rc = plot_collect_cats(f, pv)))
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
			if ((rc = plot_ser_alloc(se, bl->nrows)))
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
				se->nflag[k] = pc->st.flagged + pc->st.failed;
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
					x = f->xnum ? json_number_value(bl->rows[r]) : plot_cat_pos(f, bl->rows[r]);
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
void plot_find_identical(struct fig *f, const char *xwhat)
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
					plot_note(f, "%s = %s at every %s%s%s", b->name, a->name, xwhat, in, lab);
				else if (2 * same >= b->n)
					plot_note(f, "%s = %s at %zu of %zu points%s%s (open markers)", b->name,
					     a->name, same, b->n, in, lab);
			}
		}
	}
}

void plot_analyze_bound(struct fig *f)
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
				/* forwarding all it was offered: the offered load is the limit there */
				int at_offered = isfinite(f->offered) && se->y[i] >= BOUND_FOLLOWS * f->offered;
				if (r >= BOUND_FOLLOWS && r <= 2 - BOUND_FOLLOWS) {
					followed = 1;
				} else if (followed && r < BOUND_FOLLOWS && !at_offered) {
					se->leave = (long)i;
					break;
				}
			}
		}
	f->bound = any;
}

void plot_analyze_fit(struct fig *f)
{
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			struct ser *se = &f->p[p].s[s];
			if (!name_is_rate(se->metric))
				continue;
			if (fit_rule_cost(se->x, se->y, se->n, &se->fit))
				continue;
			se->has_fit = fit_rule_visible(se->fit.b_s, se->fit.r2);
			f->fit |= se->has_fit;
			if (!se->has_fit) {
				char who[800];
				snprintf(who, sizeof(who), "%s%s%s%s", f->p[p].ns > 1 ? se->name : "",
					 f->np > 1 && f->p[p].ns > 1 ? " in " : "",
					 f->np > 1 ? f->p[p].label : "",
					 f->np > 1 || f->p[p].ns > 1 ? ": " : "");
				plot_note(f, "%sno rule cost visible (a fit of 1/(a + b·N) gives b = %.3g ns "
					  "per rule, R² = %.2f; drawn only for b > 0 and R² ≥ %.1f)", who,
					  se->fit.b_s * 1e9, se->fit.r2, FIT_R2_MIN);
			}
		}
}

void plot_analyze_mfr(struct fig *f)
{
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++) {
			struct ser *se = &f->p[p].s[s];
			for (size_t i = 0; i < se->n; i++)
				if (se->y[i] > 0 && (se->mfr < 0 || se->y[i] > se->y[se->mfr]))
					se->mfr = (long)i;
		}
}

double plot_fixed_offered(const struct res_file *rf)
{
	return model_fixed_offered(rf);
}

double plot_rig_ceiling(const struct res_file *rf)
{
	json_t *c = res_get(rf->root, "rig", "ceiling_pps", NULL);
	return json_is_number(c) && json_number_value(c) > 0 ? json_number_value(c) : NAN;
}

void plot_fig_common(struct fig *f, const struct pivot *pv)
{
	snprintf(f->xaxis, sizeof(f->xaxis), "%s", pv->row_axis);
	f->rate = all_rates(pv);
	f->nonneg = 1;
	for (size_t c = 0; c < pv->ncols; c++)
		f->nonneg &= nonneg_metric(pv->cols[c].metric);
	f->ceiling = f->rate ? plot_rig_ceiling(f->rf) : NAN;
	double dmax = 0;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++)
			if (pv->blocks[b].cells[i].st.s.n)
				dmax = fmax(dmax, fabs(pv->blocks[b].cells[i].st.s.max));
	y_label_unit(f, pv, dmax);
}

void plot_fig_grid(struct fig *f, struct files *fs, const struct plot_out *o, struct frame *fr)
{
	char sub[768], foot[512];
	plot_subtitle_of(f->rf, sub, sizeof(sub));
	plot_footer_of(f->rf, foot, sizeof(foot));
	struct plot_out o2;
	/* per row of panels its title and tic labels; below them the x label */
	plot_fit_height(fs, o, f->np, f->title, sub, (const char *const *)f->notes, f->nnotes, foot,
			f->np > 1 ? 2 * PLOT_FONT * PLOT_LINE_EM + 12 : PLOT_FONT * PLOT_LINE_EM + 14,
			PLOT_FONT * PLOT_LINE_EM * 1.3 + 8, &o2);
	plot_gp_begin(fs, &o2, f->np, fr, f->rf->path);
	plot_gp_titles(fs, fr, f->title, sub, (const char *const *)f->notes, f->nnotes, foot);
	fr->ptitle = fr->np > 1 ? plot_line_h(fr, PLOT_FONT) + (fr->dumb ? 0 : 4) : (fr->dumb ? 0 : 6);
	fr->xtics = plot_line_h(fr, PLOT_FONT) + (fr->dumb ? 0 : 8);
	fr->xlab = plot_line_h(fr, PLOT_FONT) * 1.3 + (fr->dumb ? 0 : 8);
}
