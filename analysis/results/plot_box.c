/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_box.c — the box plot (see plot_write.h): per x value and series, the
 * quartiles, whiskers at min and max, the median, and every repetition as a dot */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "pivot.h"
#include "plot_write.h"

/* Per panel and series: the box statistics of each cell, into f's series; *valsp
 * ends as room for the repetitions of the largest cell (the caller frees it). */
static int box_series(struct fig *f, const struct pivot *pv, const char *metric,
		      double slot, double **valsp)
{
	const struct res_file *rf = f->rf;
	size_t nc = pv->ncols, cap = 0;
	double *vals = NULL;
	int rc = 0;
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
			if ((rc = plot_ser_alloc(se, bl->nrows)))
				break;
			se->metric = metric;
			char ml[256];
			snprintf(se->title, sizeof(se->title), "%s", nc > 1 ? pv->cols[c].label
				 : name_label(metric, ml, sizeof(ml)));
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
				se->x[k] = plot_cat_pos(f, bl->rows[r]) + 1 +
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
	*valsp = vals;
	return rc;
}

/* The data: the boxes, then the repetitions, then the flagged ones again; *flagp their
 * index per panel and series, -1 for none (the caller frees it). */
static int box_dat(struct fig *f, FILE *d, const struct pivot *pv, const char *metric,
		   double slot, double width, double *vals, long **flagp)
{
	const struct res_file *rf = f->rf;
	size_t nc = pv->ncols;
	int rc = 0;
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
				double xc = plot_cat_pos(f, bl->rows[r]) + 1 +
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
				double xc = plot_cat_pos(f, bl->rows[r]) + 1 +
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
	*flagp = flag_index;
	return rc;
}

/* The script's frame and axes: sizes, margins, ranges, tics. */
static void box_frame(struct fig *f, struct files *fs, const struct plot_out *o, size_t nc,
		      double width, struct frame *fr)
{
	FILE *gp = fs->gp;
	plot_fig_grid(f, fs, o, fr);
	/* the y tic labels, then the y label turned on its side, then a margin */
	fr->left = plot_text_w(fr, (size_t)f->ytic_chars + 1, PLOT_FONT) +
		  2 * plot_line_h(fr, PLOT_FONT) + (fr->dumb ? 2 : 12);
	fr->right = plot_text_w(fr, 3, PLOT_FONT);
	fr->gapx = fr->right + plot_text_w(fr, (size_t)f->ytic_chars + 2, PLOT_FONT);
	plot_frame_panels(fr);
	plot_gp_set_str(gp, "xlabel", f->xlabel);
	plot_gp_set_str(gp, "ylabel", f->ylabel);
	fprintf(gp, "set style fill solid 0.3 border -1\nset boxwidth %g absolute\n", width);
	fputs(fr->dumb ? "" : "set grid ytics lc 'gray85'\n", gp);
	fputs("set border 3\nset xtics nomirror\nset ytics nomirror\n", gp);
	if (f->logy)
		fputs("set logscale y\n", gp);
	plot_place_keys(f, fr, nc + (f->nflagged > 0), 20);
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
	fputs("# box: quartiles; whiskers: min and max; bar: median; dots: each repetition\n", gp);
	plot_gp_axis_labels(fs, fr, f->xlabel, f->ylabel);
	plot_gp_multiplot(fs, fr);
}

/* Each panel's plot command: boxes, medians, dots, the flagged crossed over. */
static void box_panels(struct fig *f, struct files *fs, const struct frame *fr, size_t nc,
		       const long *flag_index)
{
	FILE *gp = fs->gp;
	for (size_t p = 0; p < f->np; p++) {
		size_t col = p % (size_t)fr->cols;
		if (p == 1)
			plot_gp_untitle(fs, fr);
		plot_gp_panel(fs, fr, p, f->p[p].label);
		if (fr->np > 1) {
			fputs("set xlabel ''\nset ylabel ''\nset format y ", gp);
			plot_gp_str(gp, col == 0 ? f->yfmt : "");
			fputc('\n', gp);
		} else {
			fputs("set format y ", gp);
			plot_gp_str(gp, f->yfmt);
			fputc('\n', gp);
		}
		plot_key_at(gp, f, f->p[p].key);
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
			fprintf(gp, ", \\\n     '' index %ld u 1:2 w points pt 4 ps 1.6 lw 2 "
				"lc rgb '%s' ", flag_index[p * nc + c], PLOT_FLAGGED_RGB);
			plot_gp_title(gp, !keyed++, PLOT_FLAGGED_KEY);
		}
		fputc('\n', gp);
	}
}

int plot_write_box(struct fig *f, struct files *fs, const struct plot_out *o,
		   const char *metric, char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	struct pivot *pv;
	const char *m[] = { metric };
	int rc = plot_pivot(rf, rq->x, rq->by, m, 1, rq->where, &pv, err, errlen);
	if (rc || (rc = plot_check_lines(&pv, 1, err, errlen)))
		return rc;
	plot_fig_common(f, pv);
	f->ceiling = NAN;
	if ((rc = plot_panels_of(f, pv)) || (rc = plot_collect_cats(f, pv)))
		goto out;
	f->xnum = 0;
	size_t nc = pv->ncols;
	double slot = 0.8 / (double)nc, width = slot * 0.7;
	double *vals = NULL;
	long *flag_index = NULL;
	rc = box_series(f, pv, metric, slot, &vals);
	if (rc || (rc = plot_note_flags(f, pv, "framed dots")))
		goto done;
	char l[256];
	snprintf(f->xlabel, sizeof(f->xlabel), "%s", name_label(pv->row_axis, l, sizeof(l)));
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
	{
		plot_default_title(pv, pv->row_axis, "per", f->title, sizeof(f->title));
		size_t n = strlen(f->title);
		snprintf(f->title + n, sizeof(f->title) - n, ", every repetition");
	}
	plot_decide_x(f);
	plot_decide_y(f, NULL, 0);
	rc = box_dat(f, fs->dat, pv, metric, slot, width, vals, &flag_index);
	if (rc) {
		free(flag_index);
		goto done;
	}
	struct frame fr;
	box_frame(f, fs, o, nc, width, &fr);
	box_panels(f, fs, &fr, nc, flag_index);
	free(flag_index);
	plot_gp_end(fs, &fr);
done:
	free(vals);
out:
	pv_free(pv);
	return rc;
}
