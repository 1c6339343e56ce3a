/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_heatmap.c — the heatmap (see plot_write.h): the median of a metric over
 * two axes, one colour scale for every panel, the value written in each cell */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "grid.h"
#include "names.h"
#include "pivot.h"
#include "plot_write.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

/* The values of an axis present in a pivot's rows (or columns), in natural order. */
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
	plot_sort_values(out, n);
	return n;
}

/* One block per panel: x index, y index, median, as a grid (NaN: no value), how many
 * of the cell's repetitions were flagged, and how many failed when none has a value (the
 * cell says "failed", as the table does); panel_flagged[b] when some cell of b is. */
static void hm_dat(FILE *d, const struct pivot *pv, const char *metric, const char *xa,
		   json_t **xs, size_t nx, json_t **ys, size_t ny, const char *ku, double kdiv,
		   int *panel_flagged)
{
	for (size_t b = 0; b < pv->nblocks; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		fprintf(d, "%s# panel %zu%s%s: %s (median%s%s); x: %s, y: %s (indexes into the tics)\n"
			"# x y value flagged failed\n", b ? "\n\n" : "", b, *bl->label ? " " : "", bl->label,
			metric, ku ? ", in " : "", ku ? ku : "", xa, pv->row_axis);
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
						fl = pc->st.flagged + pc->st.failed;
					} else if (pv->cols[c].filt.n &&
						   res_value_matches(xs[xi], pv->cols[c].filt.c[0].value) &&
						   pc->cell >= 0) {
						failed = pc->st.failed;
					}
				}
				fprintf(d, "%zu %zu ", xi, yi);
				plot_dat_num(d, v / kdiv);
				fprintf(d, " %zu %zu\n", fl, failed);
				panel_flagged[b] |= fl > 0;
			}
			fputc('\n', d);
		}
	}
}

/* The title asked for, or "Metric over x × y (fixed axes)". */
static void hm_title(struct fig *f, const struct pivot *pv, const char *metric, const char *xa)
{
	if (f->rq->title) {
		snprintf(f->title, sizeof(f->title), "%s", f->rq->title);
	} else {
		char wm[256], wx[256], wy[256];
		name_words(metric, wm, sizeof(wm));
		size_t n = (size_t)snprintf(f->title, sizeof(f->title), "%s over %s × %s", wm,
					    name_words(xa, wx, sizeof(wx)),
					    name_words(pv->row_axis, wy, sizeof(wy)));
		if (*f->title >= 'a' && *f->title <= 'z')
			*f->title = (char)(*f->title - 'a' + 'A');
		if (*pv->fixed && n < sizeof(f->title))
			snprintf(f->title + n, sizeof(f->title) - n, " (%s)", pv->fixed);
	}
}

/* Each panel: its labels and tics, the cells as pixels with their values, the flagged
 * framed. */
static void hm_panels(const struct fig *f, struct files *fs, const struct frame *fr,
		      const char *xlabel, const char *ylabel, int rate, const int *panel_flagged)
{
	FILE *gp = fs->gp;
	for (size_t p = 0; p < f->np; p++) {
		size_t col = p % (size_t)fr->cols;
		if (p == 1)
			plot_gp_untitle(fs, fr);
		plot_gp_panel(fs, fr, p, f->p[p].label);
		int last_col = col == (size_t)fr->cols - 1 || p == f->np - 1;
		plot_gp_set_str(gp, "xlabel", fr->np > 1 ? "" : xlabel);
		plot_gp_set_str(gp, "ylabel", fr->np > 1 ? "" : ylabel);
		fputs(col == 0 ? "set format y '%g'\n" : "set format y ''\n", gp);
		if (fr->np > 1)
			fputs(last_col ? "set colorbox\n" : "unset colorbox\n", gp);
		fputs("plot ", gp);
		if (!p)
			plot_gp_dat_ref(gp, fs, 1);
		else
			fputs("''", gp);
		/* each cell a rectangle of its own ("pixels"): a browser scales an SVG's
		 * embedded image smoothly, which turns a 5×2 matrix into a gradient. No value:
		 * no number (NaN is not equal to itself), "failed" when its repetitions
		 * failed */
		fprintf(gp, " index %zu u 1:2:3 w image pixels notitle, \\\n     '' index %zu u 1:2:"
			"($5 > 0 ? 'failed' : $3 == $3 ? %s.($4 > 0 ? '*' : '') : ''):(ink($3)) "
			"w labels tc rgb variable notitle", p, p,
			rate ? "gprintf('%.1s%c', $3)" : "sprintf('%.3g', $3)");
		/* a flagged cell framed in a colour the palette does not have */
		if (panel_flagged[p])
			fprintf(gp, ", \\\n     '' index %zu u 1:2:($4 > 0 ? 0.46 : NaN):(0.46) "
				"w boxxyerror fs empty border lc rgb '%s' lw %s lc rgb '%s' notitle", p,
				PLOT_FLAGGED_RGB, fr->dumb ? "1" : "3", PLOT_FLAGGED_RGB);
		fputc('\n', gp);
	}
}

int plot_write_heatmap(struct fig *f, struct files *fs, const struct plot_out *o,
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
	if ((rc = plot_pivot(rf, ya, xa, m, 1, rq->where, &pv, err, errlen)))
		return rc;
	json_t **xs = NULL, **ys = NULL;
	const struct res_axis *xax = res_axis(rf, xa), *yax = res_axis(rf, pv->row_axis);
	if ((rc = plot_panels_of(f, pv)) || !xax || !yax)
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
	/* nanoseconds shown in µs or ms, as the table and the line plots do */
	double kdiv = 1;
	const char *ku = NULL;
	if (!strcmp(name_unit(metric), "ns") && fmax(fabs(vmin), fabs(vmax)) >= 1e3) {
		kdiv = fmax(fabs(vmin), fabs(vmax)) >= 1e6 ? 1e6 : 1e3;
		ku = kdiv == 1e6 ? "ms" : "µs";
		vmin /= kdiv;
		vmax /= kdiv;
	}
	int logcb = vmin > 0 && vmax / vmin > 100;
	double cblo = logcb ? vmin : fmin(0, vmin), cbhi = vmax > cblo ? vmax : cblo + 1;
	FILE *d = fs->dat, *gp = fs->gp;
	if ((rc = plot_note_flags(f, pv, "framed, value marked *")))
		goto out;
	int *panel_flagged = calloc(pv->nblocks + 1, sizeof(int));
	if (!panel_flagged) {
		rc = -ENOMEM;
		goto out;
	}
	hm_dat(d, pv, metric, xa, xs, nx, ys, ny, ku, kdiv, panel_flagged);
	char l[256];
	hm_title(f, pv, metric, xa);
	if (logcb)
		plot_note(f, "colour scale logarithmic: the values span %.1f decades",
		     log10(vmax / vmin));
	struct frame fr;
	plot_fig_grid(f, fs, o, &fr);
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
	plot_frame_panels(&fr);
	char xlabel[256], ylabel[256];
	name_label(xa, xlabel, sizeof(xlabel));
	name_label(pv->row_axis, ylabel, sizeof(ylabel));
	name_label(metric, l, sizeof(l));
	if (ku) {
		char *paren = strstr(l, " (");
		if (paren)
			snprintf(paren, sizeof(l) - (size_t)(paren - l), " (%s)", ku);
	}
	plot_gp_set_str(gp, "cblabel", l);
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
	hm_panels(f, fs, &fr, xlabel, ylabel, rate, panel_flagged);
	free(panel_flagged);
	plot_gp_end(fs, &fr);
out:
	free(xs);
	free(ys);
	pv_free(pv);
	return rc;
}
