/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_xy.c — writes a figure of lines and points (line, load, frame size;
 * see plot_write.h): the data blocks, the key (one per panel, or one shared by small
 * multiples), the series with their bands, fits and marked points, and the references */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "plot_write.h"

/* A number in 3 significant digits, without an exponent up to 1e6: "1.3", "2120". */
static char *num3(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1000 && fabs(v) < 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
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
	fputs(f->kind == PLOT_LOAD ? "# offered fr fr_low fr_high n bound loss_pct label flagged (or failed)\n"
				   : "# x y low high n bound - label flagged (or failed)\n", d);
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

static void ser_style(FILE *gp, const struct fig *f, const struct ser *se, size_t s,
		      int key_only)
{
	int same = se->same_as >= 0;
	/* categories (NP, versions) have no order between them to draw a line along */
	const char *with = f->rq->errors == PLOT_ERR_NONE || f->kind == PLOT_BOX || key_only
			   ? (f->xnum ? "linespoints" : "points")
			   : f->xnum ? "yerrorlines" : "yerrorbars";
	/* a series equal to an earlier one: open and larger markers around its points */
	fprintf(gp, " w %s pt %d ps %s lw 1.5 dt %d lc rgb '#%s' ", with,
		same ? pt_open[s % NSTYLE] : pt_solid[s % NSTYLE], same ? "2.2" : "1.1",
		same ? 2 : dts[s % 4], colors[s % NCOLOR]);
}

/* A mark drawn around a point (where the rate leaves the bound, the MFR, a flagged
 * cell) is larger than a key row: the key gets an entry of its own with a small mark,
 * so that its symbol stays inside the key's box. */
enum emit_mode { EMIT_KEY, EMIT_KEYED, EMIT_BARE };

static void big_mark(FILE *gp, enum emit_mode mode, int keyed, int pt, const char *ps, const char *rgb,
		     const char *t)
{
	fprintf(gp, " w p pt %d ps %s lw 2 lc rgb '%s' ", pt, mode == EMIT_KEY ? "1.3" : ps, rgb);
	if (mode == EMIT_KEY || !keyed) {
		plot_gp_title(gp, keyed, t);
		return;
	}
	fprintf(gp, "notitle, \\\n     NaN w p pt %d ps 1.3 lw 2 lc rgb '%s' ", pt, rgb);
	plot_gp_title(gp, 1, t);
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
/* A reference line: what (an expression, a space, its style), NaN in the key alone. */
static void ref(FILE *gp, int *first, enum emit_mode m, int keyed, const char *what,
		const char *t)
{
	const char *style = strchr(what, ' ');
	elem(gp, first);
	fprintf(gp, "%.*s%s", m == EMIT_KEY ? 3 : (int)(style - what),
		m == EMIT_KEY ? "NaN" : what, style);
	plot_gp_title(gp, keyed, t);
}

static void emit(struct emit_ctx *c, size_t p, enum emit_mode m)
{
	const struct fig *f = c->f;
	const struct keyset *ks = c->ks;
	FILE *gp = c->fs->gp;
	const struct panel *pn = &f->p[p];
	int keyed = m != EMIT_BARE, detail = m == EMIT_KEYED;
	int first = 1, named = 0;
	char t[512], a[64], b2[64], rgb[16];
	for (size_t s = 0; s < c->nser; s++) {
		const struct ser *se = s < pn->ns ? &pn->s[s] : NULL;
		if (!(m == EMIT_KEY ? ks->bound[s] : se && se->band))
			continue;
		elem(gp, &first);
		source(gp, c, m, &named, c->ser_index[p][s], "(zx($1)):(zy($6))");
		fprintf(gp, " w l lw %s lc rgb '#a0%s' ", c->dumb ? "1" : "7", colors[s % NCOLOR]);
		snprintf(t, sizeof(t), "pollhz × burst_max%s%s", c->nser > 1 ? ", " : "",
			 c->nser > 1 ? f->p[0].s[s].name : "");
		plot_gp_title(gp, keyed, t);
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
		plot_gp_title(gp, keyed, se->title);
		if (c->y2) {
			snprintf(t, sizeof(t), "loss %%%s%s", strcmp(se->name, "FR") ? " " : "",
				 strcmp(se->name, "FR") ? se->name : "");
			elem(gp, &first);
			source(gp, c, m, &named, c->ser_index[p][s], "(zx($1)):7 axes x1y2");
			fprintf(gp, " w linespoints pt %d ps 0.8 dt 2 lc rgb '#%s' ",
				pt_open[s % NSTYLE], colors[s % NCOLOR]);
			plot_gp_title(gp, keyed, t);
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
				plot_gp_title(gp, keyed, t);
				/* a and the fit's quality as a key line of their own */
				snprintf(t, sizeof(t), "a = %s µs, R² = %.3f, farthest point %.0f %%",
					 num3(se->fit.a_s * 1e6, na, sizeof(na)), se->fit.r2,
					 se->fit.max_rel_err * 100);
				fputs(", \\\n     NaN w l lc rgb '#ffffff' ", gp);
				plot_gp_title(gp, keyed, t);
			} else {
				snprintf(t, sizeof(t), "fit 1/(a + b·N)%s%s", c->nser > 1 ? ", " : "",
					 c->nser > 1 ? f->p[0].s[s].name : "");
				plot_gp_title(gp, keyed, t);
			}
		}
		if (m == EMIT_KEY ? ks->leave[s] : se && se->leave >= 0) {
			elem(gp, &first);
			source(gp, c, m, &named, c->leave_index[p][s], "(zx($1)):(zy($2))");
			if (detail)
				snprintf(t, sizeof(t), "%s%sleaves the bound at %s=%s",
					 c->nser > 1 ? se->name : "", c->nser > 1 ? " " : "", f->xaxis,
					 se->lab[se->leave]);
			else
				snprintf(t, sizeof(t), "%s%sleaves the bound", c->nser > 1 ?
					 f->p[0].s[s].name : "", c->nser > 1 ? " " : "");
			snprintf(rgb, sizeof(rgb), "#%s", colors[s % NCOLOR]);
			big_mark(gp, m, keyed, 6, "3.2", rgb, t);
		}
		if (m == EMIT_KEY ? ks->mfr[s] : se && se->mfr >= 0 && f->kind == PLOT_LOAD) {
			elem(gp, &first);
			source(gp, c, m, &named, c->mfr_index[p][s], "(zx($1)):2");
			if (detail)
				snprintf(t, sizeof(t), "MFR%s%s %s at %s offered", c->nser > 1 ? " " : "",
					 c->nser > 1 ? se->name : "",
					 si_pps(se->y[se->mfr], a, sizeof(a)),
					 si_pps(se->x[se->mfr], b2, sizeof(b2)));
			else
				snprintf(t, sizeof(t), "MFR%s%s", c->nser > 1 ? " " : "",
					 c->nser > 1 ? f->p[0].s[s].name : "");
			snprintf(rgb, sizeof(rgb), "#%s", colors[s % NCOLOR]);
			big_mark(gp, m, keyed, 6, "3", rgb, t);
		}
	}
	/* flagged cells over everything they could hide under: one style, one key entry */
	if (m == EMIT_KEY ? ks->flagged : c->flag_index[p] >= 0) {
		elem(gp, &first);
		source(gp, c, m, &named, c->flag_index[p], "(zx($1)):(zy($2))");
		/* an open square around the point: the value's own marker stays visible */
		big_mark(gp, m, keyed, 4, "2.4", PLOT_FLAGGED_RGB, PLOT_FLAGGED_KEY);
		if (m != EMIT_KEY && c->y2 && c->flag_y2[p]) {
			elem(gp, &first);
			source(gp, c, m, &named, c->flag_index[p], "(zx($1)):3 axes x1y2");
			fprintf(gp, " w p pt 4 ps 1.8 lw 2 lc rgb '%s' notitle", PLOT_FLAGGED_RGB);
		}
	}
	/* references last: the key lists the measurement first */
	if (f->kind == PLOT_FRAMESIZE && f->line_drawn) {
		snprintf(t, sizeof(t), "theoretical maximum, %s", c->ln);
		ref(gp, &first, m, keyed, "maxfps(x) w l dt 2 lw 2 lc 'gray30' ", t);
	}
	if (f->kind == PLOT_LOAD)
		ref(gp, &first, m, keyed, "x w l dt 3 lc 'gray40' ", "no loss (FR = offered load)");
	if (f->draw_offered) {
		snprintf(t, sizeof(t), "offered load %s", si_pps(f->offered, a, sizeof(a)));
		ref(gp, &first, m, keyed, "OFFERED w l dt 3 lw 1.5 lc 'gray25' ", t);
	}
	if (f->draw_ceiling) {
		snprintf(t, sizeof(t), "rig ceiling %s", si_pps(f->ceiling, a, sizeof(a)));
		ref(gp, &first, m, keyed, "CEILING w l dt 4 lw 1.5 lc 'gray50' ", t);
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
	if (f->draw_offered) {
		char a[64];
		fprintf(gp, "# the offered load of every cell\nOFFERED = %.10g\nset label 998 ",
			f->offered);
		char t[96];
		snprintf(t, sizeof(t), "offered load %s", si_pps(f->offered, a, sizeof(a)));
		plot_gp_str(gp, t);
		fputs(" at graph 0.99, first OFFERED right offset 0,0.7 tc 'gray25'\n", gp);
	}
}

/* Whether every polling bound of the figure is above its y range. */
static int bound_above(const struct fig *f)
{
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns; s++)
			for (size_t i = 0; i < f->p[p].s[s].n; i++)
				if (isfinite(f->p[p].s[s].bound[i]) &&
				    f->p[p].s[s].bound[i] / f->yscale <= f->yhi)
					return 0;
	return 1;
}

/* The frame of a figure of lines: title block, the shared key of small multiples,
 * margins and panels; title_frac (0: the default) caps the title block's share of the
 * height. Writes the terminal and the title block to fs->gp. */
static void layout(struct fig *f, struct files *fs, const struct plot_out *o, double title_frac,
		   const char *sub, const char *foot, size_t entries, size_t chars, int y2,
		   struct frame *out, double *ktop, double *kbot)
{
	struct frame fr;
	plot_gp_begin(fs, o, f->np, &fr, f->rf->path);
	fr.title_frac = title_frac;
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
	*out = fr;
	*ktop = key_top;
	*kbot = key_bot;
}

/* The share of the height the panels have. */
static double panel_share(const struct frame *fr)
{
	return fr->rows * fr->ph / fr->h;
}

/* The y range from the data and the references that fit (the polling bound, the rig's
 * ceiling, the offered load, the line rate, named ln), and the notes on what is out of
 * it. */
static void xy_scale(struct fig *f, char *ln, size_t lnlen)
{
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
	if (isfinite(f->offered))
		refs[nrefs++] = f->offered / f->yscale;
	double line_max = NAN, line_min = NAN;
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
			snprintf(ln, lnlen, "%g GbE", f->link_bps / 1e9);
		else
			snprintf(ln, lnlen, "%g Mb/s", f->link_bps / 1e6);
	}
	plot_decide_y(f, refs, nrefs);
	/* a band wholly above the range is not drawn: neither in the key nor in the notes */
	int band_seen = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			struct ser *se = &f->p[p].s[s];
			/* a band is a line: two neighbouring points with a bound, one in range */
			int in = 0;
			for (size_t i = 1; i < se->n; i++)
				in |= isfinite(se->bound[i]) && isfinite(se->bound[i - 1]) &&
				      fmin(se->bound[i], se->bound[i - 1]) / f->yscale <= f->yhi;
			se->band = in;
			band_seen |= in;
		}
	if (band_seen)
		plot_note(f, "pale bands: the polling bound, pollhz × burst_max frames/s per receiving port");
	else if (f->bound && bound_above(f))
		plot_note(f, "the polling bound, pollhz × burst_max, is above the plotted range");
	char a[64], b2[64];
	if (isfinite(f->ceiling)) {
		f->draw_ceiling = f->ceiling >= f->ylo && f->ceiling <= f->yhi;
		if (!f->draw_ceiling && f->ceiling > f->yhi)
			plot_note(f, "the rig's own ceiling, %s, is above the plotted range",
			     si_pps(f->ceiling, a, sizeof(a)));
	}
	if (isfinite(f->offered)) {
		f->draw_offered = f->offered / f->yscale >= f->ylo && f->offered / f->yscale <= f->yhi;
		if (!f->draw_offered && f->offered / f->yscale > f->yhi)
			plot_note(f, "the offered load, %s, is above the plotted range",
				  si_pps(f->offered, a, sizeof(a)));
	}
	f->line_drawn = f->link_bps > 0 && !(line_min > f->yhi);
	if (isfinite(line_max) && line_max > f->yhi) {
		if (line_min > f->yhi)
			plot_note(f, "the %s line rate (%s at %g B to %s at %g B) is above the plotted "
			     "range", ln, si_pps(line_max, a, sizeof(a)), f->xtic_v[0],
			     si_pps(line_min, b2, sizeof(b2)), f->xtic_v[f->xtic_n - 1]);
		else
			plot_note(f, "the %s line rate is cut at the top: %s at %g B", ln,
			     si_pps(line_max, a, sizeof(a)), f->xtic_v[0]);
	}
	if (f->kind == PLOT_FRAMESIZE && !(f->link_bps > 0))
		plot_note(f, "line rate unknown (give --link)");
}

/* The data blocks: the series, then each one's fit, bound and MFR points, then each
 * panel's flagged points; their indexes into c. */
static void xy_dat(struct emit_ctx *c, FILE *d)
{
	const struct fig *f = c->f;
	long index = 0;
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			c->ser_index[p][s] = index;
			dat_series(d, f, p, s, &index);
		}
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			const struct ser *se = &f->p[p].s[s];
			c->fit_index[p][s] = c->leave_index[p][s] = c->mfr_index[p][s] = -1;
			if (se->has_fit) {
				c->fit_index[p][s] = index;
				dat_fit(d, f, se, &index);
			}
			if (se->leave >= 0) {
				char w[256];
				snprintf(w, sizeof(w), "%.200s leaves the polling bound", se->title);
				c->leave_index[p][s] = index;
				dat_point(d, w, se->x[se->leave], se->y[se->leave] / f->yscale, &index);
			}
			if (se->mfr >= 0) {
				c->mfr_index[p][s] = index;
				dat_point(d, "maximum forwarding rate", se->x[se->mfr],
					  se->y[se->mfr] / f->yscale, &index);
			}
		}
	for (size_t p = 0; p < f->np; p++) {
		long at = index;
		int r = dat_flagged(d, f, p, &index);
		c->flag_index[p] = r < 0 ? -1 : at;
		c->flag_y2[p] = r > 0;
	}
}

/* What the key lists, over every panel (a shared key for small multiples): into ks, and
 * c->nser; returns its entries, the widest in *charsp. */
static size_t xy_keyset(struct emit_ctx *c, struct keyset *ks, size_t *charsp)
{
	const struct fig *f = c->f;
	/* what the key lists, over every panel: a shared key for small multiples */
	for (size_t p = 0; p < f->np; p++)
		for (size_t s = 0; s < f->p[p].ns && s < 16; s++) {
			const struct ser *se = &f->p[p].s[s];
			ks->bound[s] |= se->band;
			ks->fit[s] |= se->has_fit;
			ks->leave[s] |= se->leave >= 0;
			ks->mfr[s] |= se->mfr >= 0 && f->kind == PLOT_LOAD;
		}
	for (size_t p = 0; p < f->np; p++)
		ks->flagged |= c->flag_index[p] >= 0;
	size_t nser = c->nser = f->p[0].ns < 16 ? f->p[0].ns : 16;
	size_t entries = 0, chars = 8;
	for (size_t s = 0; s < nser; s++) {
		size_t w = grid_width(f->p[0].s[s].title) + 6;
		chars = w > chars ? w : chars;
		entries += 1 + (f->kind == PLOT_LOAD && *f->y2label) + ks->bound[s] + ks->fit[s] +
			   ks->leave[s] + ks->mfr[s];
	}
	entries += f->draw_ceiling + f->draw_offered + (f->kind == PLOT_LOAD) + f->line_drawn + ks->flagged;
	*charsp = chars;
	return entries;
}

int plot_write_xy(struct fig *f, struct files *fs, const struct plot_out *o)
{
	FILE *gp = fs->gp;
	const struct res_file *rf = f->rf;
	char sub[768], foot[512], ln[64] = "";
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	xy_scale(f, ln, sizeof(ln));
	struct keyset ks;
	memset(&ks, 0, sizeof(ks));
	struct emit_ctx ec = { .f = f, .fs = fs, .ks = &ks, .ln = ln };
	xy_dat(&ec, fs->dat);
	size_t chars, entries = xy_keyset(&ec, &ks, &chars);

	/* the frame: the panels keep at least 60 % of the height whatever the notes and
	 * the key take. A dry run measures; the default height then grows, or a size that
	 * was given keeps fewer note lines (the last ends in "...") */
	struct frame fr;
	double key_top = 0, key_bot = 0;
	int y2 = f->kind == PLOT_LOAD && *f->y2label;
	FILE *real = fs->gp;
	char *dry = NULL;
	size_t drylen = 0;
	struct plot_out o2 = *o;
	double frac = 0;
	if ((fs->gp = open_memstream(&dry, &drylen))) {
		for (int pass = 0; pass < 3; pass++) {
			layout(f, fs, &o2, frac, sub, foot, entries, chars, y2, &fr, &key_top, &key_bot);
			if (fr.dumb || panel_share(&fr) >= 0.6)
				break;
			if (!o->height) {
				o2.height = (int)ceil((fr.h - fr.rows * fr.ph) / 0.39);
			} else {
				double other = 1 - panel_share(&fr) - (frac ? frac : 0.4);
				frac = fmax(0.12, 0.4 - other);
			}
		}
		fclose(fs->gp);
		free(dry);
	}
	fs->gp = real;
	layout(f, fs, &o2, frac, sub, foot, entries, chars, y2, &fr, &key_top, &key_bot);
	plot_thin_xtics(f, &fr);

	if (fr.np == 1) {   /* small multiples share a key above the panels */
		plot_place_keys(f, &fr, entries, chars + (f->fit ? 40 : 0));
		axes_settings(gp, f, fr.dumb, y2);
	}

	ec.y2 = y2;
	ec.dumb = fr.dumb;
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
		size_t col = p % (size_t)fr.cols;
		char ptitle[4096];
		panel_title(f, &fr, pn, ptitle, sizeof(ptitle));
		plot_gp_panel(fs, &fr, p, ptitle);
		if (multi) {
			/* the axis labels once for all panels, y tic labels in the first column
			 * (the scales are shared) */
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
			plot_key_at(gp, f, pn->key);
			emit(&ec, p, EMIT_KEYED);
		}
	}
	plot_gp_end(fs, &fr);
	return 0;
}
