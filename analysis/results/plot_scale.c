/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_scale.c — a figure's scales (see plot_scale.h): log or linear axes from
 * the data, 0 drawn apart on a log axis, reference lines kept in range only while the
 * data keep their height, tics that fit, and the corner of each panel for its key */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "plot_scale.h"

/* A reference line is kept in the y range up to this multiple of the data's maximum:
 * beyond it the data would fill less than about half the height. */
#define REF_SQUEEZE 1.8

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

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* x: log over more than two decades (0 drawn apart at the left), never below 0 for
 * values that cannot be negative; tics at the data's values where they fit. */
void plot_decide_x(struct fig *f)
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
		plot_note(f, "x linear although it spans more than two decades: it has values below 0");
	if (f->logx && xmin < 0)
		f->logx = 0;
	if (f->logx) {
		if (has0)
			f->x0 = minpos / 4;
		f->xlo = (has0 ? f->x0 : minpos) / 1.3;
		f->xhi = xmax * 1.3;
		if (has0)
			plot_note(f, "x logarithmic: 0 is drawn apart at the left, past the dotted line");
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
void plot_thin_xtics(struct fig *f, const struct frame *fr)
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
void plot_decide_y(struct fig *f, const double *refs, size_t nrefs)
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
		plot_note(f, "y linear although it spans more than two decades: it has values below 0");
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
			plot_note(f, "y logarithmic: 0 is drawn apart at the bottom");
		else if (!f->rq->logy)
			plot_note(f, "y logarithmic: the values span %.1f decades", log10(dmax / minpos));
	} else {
		for (size_t i = 0; i < nrefs; i++)
			if (refs[i] > dmax && refs[i] <= REF_SQUEEZE * dmax)
				refmax = fmax(refmax, refs[i]);
		double top = fmax(dmax, refmax);
		if (f->kind == PLOT_BOX && dmin > 0 && dmax - dmin < 0.25 * dmax) {
			/* boxes of a spread of a few per cent would be flat lines over a y from 0:
			 * the range is the data's, and the notes say it does not start at 0 */
			double span = dmax - dmin > 0 ? dmax - dmin : dmax * 0.01;
			f->ylo = dmin - 0.15 * span;
			f->yhi = dmax + 0.15 * span;
			char lo[32];
			plot_note(f, "y from %s, not from 0: the values differ by %.2g %% at most",
				  si(f->ylo, lo, sizeof(lo)), (dmax - dmin) / dmax * 100);
		} else if (nonneg || (dmin >= 0 && f->nonneg)) {
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

/* Counts which corners a point (0..1 each way) falls in, for a key kw × kh; top: the
 * highest point seen. */
static void corner_hits(double nx, double ny, double kw, double kh, size_t cnt[4],
			double *top_seen)
{
	if (nx < 0 || nx > 1 || ny < 0 || ny > 1)
		return;
	*top_seen = fmax(*top_seen, ny);
	int left = nx <= kw + 0.02, right = nx >= 1 - kw - 0.02;
	int top = ny >= 1 - kh - 0.02, bot = ny <= kh + 0.02;
	cnt[0] += left && top;
	cnt[1] += right && top;
	cnt[2] += right && bot;
	cnt[3] += left && bot;
}

static size_t place_keys_once(struct fig *f, double kw, double kh, double *top);

/* The corner of each panel that the lines cross least under a key of this size: each
 * series and its bound sampled along their segments, and the rig's ceiling. When every
 * corner has something in it and y is linear, the y range grows at the top until the
 * key fits above everything drawn (at most twice the height), and the corners are
 * counted again. */
void plot_place_keys(struct fig *f, const struct frame *fr, size_t entries, size_t chars)
{
	double kw = (plot_text_w(fr, chars, PLOT_FONT) + plot_text_w(fr, 8, PLOT_FONT)) / fr->pw;
	double kh = ((double)entries * plot_line_h(fr, PLOT_FONT) * 0.9 + 6) / fr->ph;
	for (int pass = 0; pass < 2; pass++) {
		double top_seen = 0;
		size_t hit = place_keys_once(f, kw, kh, &top_seen);
		if (!hit || pass || f->logy || kh >= 0.9)
			break;
		double need = fmin(top_seen / (1 - kh - 0.04), 2);
		if (need <= 1)
			break;
		f->yhi = f->ylo + (f->yhi - f->ylo) * need;
	}
}

/* One count of every panel's corners; returns how many panels have no empty corner. */
static size_t place_keys_once(struct fig *f, double kw, double kh, double *top)
{
	size_t crowded = 0;
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
					corner_hits(nx, ny, kw, kh, cnt, top);
					if (isfinite(px) && which < 2 && f->kind != PLOT_BOX)
						for (int k = 1; k < 16; k++)
							corner_hits(px + (nx - px) * k / 16.0,
								    py + (ny - py) * k / 16.0, kw, kh, cnt, top);
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
				corner_hits(nx, ny, kw, kh, cnt, top);
			}
		}
		if (f->draw_offered)
			for (int k = 0; k <= 16; k++) {
				double nx, ny;
				norm_xy(f, f->xlo, f->offered, &nx, &ny);
				corner_hits(k / 16.0, ny, kw, kh, cnt, top);
			}
		if (f->draw_ceiling)
			for (int k = 0; k <= 16; k++) {
				double nx, ny;
				norm_xy(f, f->xlo, f->ceiling * f->yscale, &nx, &ny);
				corner_hits(k / 16.0, ny, kw, kh, cnt, top);
			}
		int best = 0;
		for (int c = 1; c < 4; c++)
			if (cnt[c] < cnt[best])
				best = c;
		f->p[p].key = best;
		crowded += cnt[best] > 0;
	}
	return crowded;
}

void plot_key_at(FILE *gp, const struct fig *f, int key)
{
	static const char *const pos[] = { "top left", "top right", "bottom right",
					   "bottom left" };
	fprintf(gp, "set key %s opaque box lc 'gray80' samplen 2.5 spacing 0.95%s\n", pos[key],
		f->np > 2 ? " font ',9'" : "");
}
