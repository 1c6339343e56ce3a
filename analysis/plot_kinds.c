/* plot_kinds.c — one writer per kind of plot (line, heatmap, load, frame size, box;
 * see plot.h). Each builds a pivot (pivot.c), so a plot shows exactly the medians
 * `ppslab table` prints for the same axes, writes the .dat and the .gp through
 * plot_impl.h, and plot_results() runs gnuplot. Called by cmd_plot.c and report.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "pivot.h"
#include "plot_impl.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int build_pivot(const struct res_file *rf, const char *rows, const char *cols,
		       const char *const *metrics, size_t nmetrics, const struct res_sel *where,
		       struct pivot **pv, char *err, size_t errlen)
{
	struct pv_req rq = { .rows = rows, .cols = cols, .metrics = metrics,
			     .nmetrics = nmetrics, .where = where, .decimals = -1 };
	int rc = pv_build(rf, &rq, pv, err, errlen);
	if (rc)
		return rc;
	if ((*pv)->nblocks > 1) {
		const struct res_sel *fx = &(*pv)->blocks[0].fixed;
		char axes[512];
		size_t o = 0;
		axes[0] = 0;
		for (size_t i = 0; i < fx->n && o < sizeof(axes); i++)
			o += (size_t)snprintf(axes + o, sizeof(axes) - o, "%s%s", i ? ", " : "",
					      fx->c[i].axis);
		char first[256];
		snprintf(first, sizeof(first), "%s", fx->n ? fx->c[0].axis : "?");
		pv_free(*pv);
		*pv = NULL;
		return fail(err, errlen, "axis %s still varies: fix it with --where %s=VALUE%s",
			    axes, first, cols ? "" : " or draw one line per value with --by");
	}
	if (!(*pv)->blocks[0].nrows || !(*pv)->n_max) {
		pv_free(*pv);
		*pv = NULL;
		return fail(err, errlen, "%s: no values of the metric to plot", rf->path);
	}
	return 0;
}

static int rows_numeric(const struct pv_block *b)
{
	for (size_t r = 0; r < b->nrows; r++)
		if (!json_is_number(b->rows[r]))
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

static const char *metric_of(const struct pivot *pv)
{
	return pv->ncols ? pv->cols[0].metric : "fwd_pps";
}

static int all_rates(const struct pivot *pv)
{
	int r = pv->ncols > 0;
	for (size_t c = 0; c < pv->ncols; c++)
		r &= name_is_rate(pv->cols[c].metric);
	return r;
}

static void ylabel_of(const struct pivot *pv, char *buf, size_t len)
{
	int same = 1;
	for (size_t c = 1; c < pv->ncols; c++)
		same &= !strcmp(pv->cols[c].metric, pv->cols[0].metric);
	if (same) {
		name_label(metric_of(pv), buf, len);
	} else {
		const char *u = name_unit(metric_of(pv));
		snprintf(buf, len, "%s%s%s%s", all_rates(pv) ? "rate" : "value", *u ? " (" : "",
			 u, *u ? ")" : "");
	}
}

/* A series title: the column label, with the metric's description when the columns
 * are metrics. */
static void series_title(const struct pivot *pv, size_t c, char *buf, size_t len)
{
	if (!strcmp(pv->cols[c].label, pv->cols[c].metric))
		name_label(pv->cols[c].metric, buf, len);
	else
		snprintf(buf, len, "%s", pv->cols[c].label);
}

static void default_title(const struct pivot *pv, const char *x, const char *what,
			  char *buf, size_t len)
{
	int same = 1;
	for (size_t c = 1; c < pv->ncols; c++)
		same &= !strcmp(pv->cols[c].metric, pv->cols[0].metric);
	size_t o = (size_t)snprintf(buf, len, "%s %s %s", same ? metric_of(pv) : "metrics",
				    what, x);
	if (o < len && *pv->fixed)
		snprintf(buf + o, len - o, " (%s)", pv->fixed);
}

static void xtics_categorical(FILE *gp, const struct pv_block *b, double base, double step)
{
	fputs("set xtics (", gp);
	for (size_t r = 0; r < b->nrows; r++) {
		char v[256];
		if (r)
			fputs(", ", gp);
		plot_gp_str(gp, res_value_str(b->rows[r], v, sizeof(v)));
		fprintf(gp, " %g", base + step * (double)r);
	}
	fputs(")\n", gp);
}

static int write_line(const struct res_file *rf, const struct plot_req *rq, struct files *fs,
		      const struct plot_out *o, const char *const *metrics, size_t nm,
		      char *err, size_t errlen)
{
	struct pivot *pv;
	int rc = build_pivot(rf, rq->x, rq->by, metrics, nm, rq->where, &pv, err, errlen);
	if (rc)
		return rc;
	const struct pv_block *b = &pv->blocks[0];
	int numeric = rows_numeric(b);
	for (size_t c = 0; c < pv->ncols; c++) {
		char t[512];
		series_title(pv, c, t, sizeof(t));
		fprintf(fs->dat, "%s# series %zu: %s\n# x y low high n label\n", c ? "\n\n" : "",
			c, t);
		for (size_t r = 0; r < b->nrows; r++) {
			const struct pv_cell *pc = &b->cells[r * pv->ncols + c];
			if (pc->cell < 0 || !pc->st.s.n)
				continue;
			double y, lo, hi;
			cell_y(pc, rq->errors, &y, &lo, &hi);
			char v[256];
			if (numeric)
				plot_dat_num(fs->dat, json_number_value(b->rows[r]));
			else
				fprintf(fs->dat, "%zu", r);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, y);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, lo);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, hi);
			fprintf(fs->dat, " %zu ", pc->st.s.n);
			plot_dat_str(fs->dat, res_value_str(b->rows[r], v, sizeof(v)));
			fputc('\n', fs->dat);
		}
	}
	char title[1024], sub[768], foot[512], xl[256], yl[256];
	if (rq->title)
		snprintf(title, sizeof(title), "%s", rq->title);
	else
		default_title(pv, pv->row_axis, "vs", title, sizeof(title));
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, title, sub, foot, rf->path);
	FILE *gp = fs->gp;
	plot_gp_set_str(gp, "xlabel", name_label(pv->row_axis, xl, sizeof(xl)));
	ylabel_of(pv, yl, sizeof(yl));
	plot_gp_set_str(gp, "ylabel", yl);
	if (all_rates(pv))
		fputs("set format y '%.1s%c'\n", gp);
	if (!rq->logy)
		fputs("set yrange [0:*]\n", gp);
	else
		fputs("set logscale y\n", gp);
	if (rq->logx && numeric)
		fputs("set logscale x 2\n", gp);
	if (!numeric) {
		xtics_categorical(gp, b, 0, 1);
		fprintf(gp, "set xrange [-0.5:%zu.5]\n", b->nrows - 1);
	} else {
		fputs("set offsets graph 0.03, graph 0.03, 0, 0\n", gp);
	}
	const char *style = rq->errors == PLOT_ERR_NONE ? "u 1:2 w linespoints pt 7"
							: "u 1:2:3:4 w yerrorlines pt 7";
	fputs("plot ", gp);
	for (size_t c = 0; c < pv->ncols; c++) {
		char t[512];
		series_title(pv, c, t, sizeof(t));
		plot_gp_dat_ref(gp, fs, c == 0);
		fprintf(gp, " index %zu %s lw 1.5 title ", c, style);
		plot_gp_str(gp, t);
	}
	fputc('\n', gp);
	pv_free(pv);
	return 0;
}

static int write_heatmap(const struct res_file *rf, const struct plot_req *rq,
			 struct files *fs, const struct plot_out *o, const char *metric,
			 char *err, size_t errlen)
{
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
	const struct pv_block *b = &pv->blocks[0];
	const char *xaxis = pv->cols[0].filt.n ? pv->cols[0].filt.c[0].axis : "";
	fprintf(fs->dat, "# %s (median) over %s (rows) x %s (columns)\n", metric,
		pv->row_axis, xaxis);
	plot_dat_str(fs->dat, pv->row_axis);
	for (size_t c = 0; c < pv->ncols; c++) {
		fputc(' ', fs->dat);
		plot_dat_str(fs->dat, pv->cols[c].filt.n ? pv->cols[c].filt.c[0].value : "");
	}
	fputc('\n', fs->dat);
	for (size_t r = 0; r < b->nrows; r++) {
		char v[256];
		plot_dat_str(fs->dat, res_value_str(b->rows[r], v, sizeof(v)));
		for (size_t c = 0; c < pv->ncols; c++) {
			const struct pv_cell *pc = &b->cells[r * pv->ncols + c];
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, pc->cell >= 0 && pc->st.s.n ? pc->st.s.median : NAN);
		}
		fputc('\n', fs->dat);
	}
	char title[1024], sub[768], foot[512], l[256];
	if (rq->title) {
		snprintf(title, sizeof(title), "%s", rq->title);
	} else {
		size_t n = (size_t)snprintf(title, sizeof(title), "%s over %s × %s", metric, xaxis,
					    pv->row_axis);
		if (*pv->fixed && n < sizeof(title))
			snprintf(title + n, sizeof(title) - n, " (%s)", pv->fixed);
	}
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, title, sub, foot, rf->path);
	FILE *gp = fs->gp;
	plot_gp_set_str(gp, "xlabel", name_label(xaxis, l, sizeof(l)));
	plot_gp_set_str(gp, "ylabel", name_label(pv->row_axis, l, sizeof(l)));
	plot_gp_set_str(gp, "cblabel", name_label(metric, l, sizeof(l)));
	int rate = name_is_rate(metric);
	fputs("unset grid\nunset key\nset palette defined (0 '#440154', 0.5 '#21918c', 1 '#fde725')\n"
	      "set tics scale 0\n", gp);
	if (rate)
		fputs("set format cb '%.1s%c'\n", gp);
	fputs("plot ", gp);
	plot_gp_dat_ref(gp, fs, 1);
	fprintf(gp, " matrix rowheaders columnheaders u 1:2:3 w image notitle, \\\n     '' "
		"matrix rowheaders columnheaders u 1:2:(%s) w labels tc 'white' notitle\n",
		rate ? "gprintf('%.1s%c', $3)" : "sprintf('%.3g', $3)");
	pv_free(pv);
	return 0;
}

static const char *first_axis_of(const struct res_file *rf, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (res_axis(rf, names[i]))
			return names[i];
	return NULL;
}

static int write_load(const struct res_file *rf, const struct plot_req *rq, struct files *fs,
		      const struct plot_out *o, char *err, size_t errlen)
{
	static const char *const load_axes[] = { "load_pps", "intended_pps", "offered_pps",
						 "rate_pps", "load_pct", "load", NULL };
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
	if (rc)
		return rc;
	const struct pv_block *b = &pv->blocks[0];
	if (!has_off && !rows_numeric(b)) {
		pv_free(pv);
		return fail(err, errlen, "--x %s: the offered load must be a number (no "
			    "offered_pps metric either)", pv->row_axis);
	}
	size_t nser = pv->ncols / nm;
	double mfr = -1, mfr_x = 0;
	for (size_t s = 0; s < nser; s++) {
		fprintf(fs->dat, "%s# series %zu: %s\n# offered fr fr_low fr_high loss_pct %s\n",
			s ? "\n\n" : "", s, rq->by ? pv->cols[s * nm].label : fr, pv->row_axis);
		for (size_t r = 0; r < b->nrows; r++) {
			const struct pv_cell *cf = &b->cells[r * pv->ncols + s * nm];
			const struct pv_cell *co = has_off ? &b->cells[r * pv->ncols + s * nm + 1] : NULL;
			const struct pv_cell *cl = has_loss ? &b->cells[r * pv->ncols + s * nm + nm - 1]
							    : NULL;
			if (cf->cell < 0 || !cf->st.s.n)
				continue;
			double xo = co && co->st.s.n ? co->st.s.median
				  : json_is_number(b->rows[r]) ? json_number_value(b->rows[r]) : NAN;
			double y, lo, hi;
			cell_y(cf, rq->errors, &y, &lo, &hi);
			if (s == 0 && y > mfr && isfinite(xo)) {
				mfr = y;
				mfr_x = xo;
			}
			char v[256];
			plot_dat_num(fs->dat, xo);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, y);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, lo);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, hi);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, cl && cl->st.s.n ? cl->st.s.median : NAN);
			fputc(' ', fs->dat);
			plot_dat_str(fs->dat, res_value_str(b->rows[r], v, sizeof(v)));
			fputc('\n', fs->dat);
		}
	}
	char title[1024], sub[768], foot[512], l[256];
	if (rq->title)
		snprintf(title, sizeof(title), "%s", rq->title);
	else
		snprintf(title, sizeof(title), "Forwarding rate%s vs offered load (RFC 2285/2889)%s%s%s",
			 has_loss ? " and loss" : "", *pv->fixed ? " (" : "", pv->fixed,
			 *pv->fixed ? ")" : "");
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, title, sub, foot, rf->path);
	FILE *gp = fs->gp;
	plot_gp_set_str(gp, "xlabel", has_off ? "offered load (packets/s)"
					 : name_label(pv->row_axis, l, sizeof(l)));
	plot_gp_set_str(gp, "ylabel", name_label(fr, l, sizeof(l)));
	fputs("set format x '%.1s%c'\nset format y '%.1s%c'\nset xrange [0:*]\nset yrange [0:*]\n",
	      gp);
	if (has_loss)
		fputs("set ytics nomirror\nset y2tics\nset y2range [0:100]\n"
		      "set y2label 'frame loss (%)'\n", gp);
	if (mfr > 0) {
		char t[192], a[64], bb[64];
		grid_num(mfr, 0, a, sizeof(a));
		grid_num(mfr_x, 0, bb, sizeof(bb));
		snprintf(t, sizeof(t), "MFR %s at %s offered", a, bb);
		fputs("set label 1 ", gp);
		plot_gp_str(gp, t);
		fprintf(gp, " at %.17g, %.17g point pt 6 ps 2 offset 1, -1.5\n", mfr_x, mfr);
	}
	fputs("plot x w l dt 3 lc 'gray40' title 'no loss (FR = offered load)'", gp);
	for (size_t s = 0; s < nser; s++) {
		char t[512];
		snprintf(t, sizeof(t), "FR%s%s", rq->by ? " " : "", rq->by ? pv->cols[s * nm].label : "");
		fputs(", \\\n     ", gp);
		if (s)
			fputs("''", gp);
		else
			plot_gp_dat_ref(gp, fs, 1);
		fprintf(gp, " index %zu %s lw 1.5 lc %zu title ", s,
			rq->errors == PLOT_ERR_NONE ? "u 1:2 w linespoints pt 7"
						    : "u 1:2:3:4 w yerrorlines pt 7", s + 1);
		plot_gp_str(gp, t);
		if (has_loss) {
			snprintf(t, sizeof(t), "loss %%%s%s", rq->by ? " " : "",
				 rq->by ? pv->cols[s * nm].label : "");
			fprintf(gp, ", \\\n     '' index %zu u 1:5 axes x1y2 w linespoints pt 6 dt 2 "
				"lc %zu title ", s, s + 1);
			plot_gp_str(gp, t);
		}
	}
	fputc('\n', gp);
	pv_free(pv);
	return 0;
}

/* "1 GbE", "2.5 GbE", "100 Mb/s". */
static void link_name(double bps, char *buf, size_t len)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%g GbE", bps / 1e9);
	else
		snprintf(buf, len, "%g Mb/s", bps / 1e6);
}

static int write_framesize(const struct res_file *rf, const struct plot_req *rq,
			   struct files *fs, const struct plot_out *o, char *err, size_t errlen)
{
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
	if (rc)
		return rc;
	const struct pv_block *b = &pv->blocks[0];
	if (!rows_numeric(b)) {
		pv_free(pv);
		return fail(err, errlen, "--x %s: frame sizes must be numbers", x);
	}
	double link = rq->link_bps;
	if (!(link > 0)) {
		json_t *sp = res_get(rf->root, "environment", "dut", "nics", NULL);
		sp = json_object_get(json_array_get(sp, 0), "speed_mbps");
		if (json_is_number(sp) && json_number_value(sp) > 0)
			link = json_number_value(sp) * 1e6;
	}
	double xmin = INFINITY, xmax = 0;
	for (size_t c = 0; c < pv->ncols; c++) {
		char t[512];
		series_title(pv, c, t, sizeof(t));
		fprintf(fs->dat, "%s# series %zu: %s\n# frame_size y low high n\n", c ? "\n\n" : "",
			c, t);
		for (size_t r = 0; r < b->nrows; r++) {
			const struct pv_cell *pc = &b->cells[r * pv->ncols + c];
			double fsz = json_number_value(b->rows[r]);
			xmin = fmin(xmin, fsz);
			xmax = fmax(xmax, fsz);
			if (pc->cell < 0 || !pc->st.s.n)
				continue;
			double y, lo, hi;
			cell_y(pc, rq->errors, &y, &lo, &hi);
			plot_dat_num(fs->dat, fsz);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, y);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, lo);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, hi);
			fprintf(fs->dat, " %zu\n", pc->st.s.n);
		}
	}
	char title[1024], sub[768], foot[512], ln[64];
	if (rq->title)
		snprintf(title, sizeof(title), "%s", rq->title);
	else
		snprintf(title, sizeof(title), "Throughput vs frame size (RFC 2544 §26.1)%s%s%s",
			 *pv->fixed ? " (" : "", pv->fixed, *pv->fixed ? ")" : "");
	plot_subtitle_of(rf, sub, sizeof(sub));
	if (!(link > 0) && strlen(sub) + 40 < sizeof(sub))
		strcat(sub, "; line rate unknown (give --link)");
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, title, sub, foot, rf->path);
	FILE *gp = fs->gp;
	fputs("set xlabel 'frame size (bytes, with FCS)'\nset ylabel 'throughput (frames/s)'\n"
	      "set format y '%.1s%c'\nset yrange [0:*]\nset logscale x 2\nset key top right box opaque\n",
	      gp);
	fprintf(gp, "set xrange [%g:%g]\n", xmin / 1.15, xmax * 1.15);
	fputs("set xtics (", gp);
	for (size_t r = 0; r < b->nrows; r++)
		fprintf(gp, "%s%g", r ? ", " : "", json_number_value(b->rows[r]));
	fputs(")\n", gp);
	if (link > 0) {
		link_name(link, ln, sizeof(ln));
		/* RFC 2544 §26.1: the theoretical maximum counts 20 bytes of preamble and gap */
		fprintf(gp, "link_bps = %.17g\nmaxfps(x) = link_bps / ((x + 20) * 8)\n", link);
		fputs("plot maxfps(x) w l dt 2 lw 2 lc 'gray30' title ", gp);
		char t[128];
		snprintf(t, sizeof(t), "theoretical maximum, %s", ln);
		plot_gp_str(gp, t);
		fputs(", \\\n     ", gp);
	} else {
		fputs("plot ", gp);
	}
	for (size_t c = 0; c < pv->ncols; c++) {
		char t[512];
		series_title(pv, c, t, sizeof(t));
		if (c)
			fputs(", \\\n     ''", gp);
		else
			plot_gp_dat_ref(gp, fs, 1);
		fprintf(gp, " index %zu %s lw 1.5 title ", c,
			rq->errors == PLOT_ERR_NONE ? "u 1:2 w linespoints pt 7"
						    : "u 1:2:3:4 w yerrorlines pt 7");
		plot_gp_str(gp, t);
	}
	fputc('\n', gp);
	pv_free(pv);
	return 0;
}

static int write_box(const struct res_file *rf, const struct plot_req *rq, struct files *fs,
		     const struct plot_out *o, const char *metric, char *err, size_t errlen)
{
	struct pivot *pv;
	const char *m[] = { metric };
	int rc = build_pivot(rf, rq->x, rq->by, m, 1, rq->where, &pv, err, errlen);
	if (rc)
		return rc;
	const struct pv_block *b = &pv->blocks[0];
	size_t nc = pv->ncols;
	double slot = 0.8 / (double)nc, width = slot * 0.7;
	double *vals = NULL;
	size_t cap = 0;
	/* per series: one block of box statistics, then one of the raw repetitions */
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t c = 0; c < nc; c++) {
			fprintf(fs->dat, "%s# %s %zu: %s\n", pass || c ? "\n\n" : "",
				pass ? "repetitions" : "boxes", c, pv->cols[c].label);
			fputs(pass ? "# x value\n" : "# x q1 min max q3 median n label\n", fs->dat);
			for (size_t r = 0; r < b->nrows; r++) {
				const struct pv_cell *pc = &b->cells[r * nc + c];
				if (pc->cell < 0 || !pc->st.s.n)
					continue;
				const struct res_cell *cell = &rf->cells[pc->cell];
				if (cell->ncases > cap) {
					free(vals);
					cap = cell->ncases;
					if (!(vals = malloc(cap * sizeof(*vals)))) {
						pv_free(pv);
						return -ENOMEM;
					}
				}
				struct res_stats st;
				if (res_cell_stats(rf, (size_t)pc->cell, metric, &st, vals)) {
					free(vals);
					pv_free(pv);
					return -ENOMEM;
				}
				double xc = (double)r + 1 + ((double)c - (double)(nc - 1) / 2) * slot;
				if (pass) {
					/* spread the dots sideways a little, deterministically */
					for (size_t i = 0; i < st.s.n; i++) {
						double j = st.s.n > 1 ? ((double)i / (double)(st.s.n - 1) - 0.5)
								      : 0;
						plot_dat_num(fs->dat, xc + j * width * 0.5);
						fputc(' ', fs->dat);
						plot_dat_num(fs->dat, vals[i]);
						fputc('\n', fs->dat);
					}
				} else {
					char v[256];
					plot_dat_num(fs->dat, xc);
					fputc(' ', fs->dat);
					plot_dat_num(fs->dat, st_quantile(vals, st.s.n, 0.25));
					fputc(' ', fs->dat);
					plot_dat_num(fs->dat, st.s.min);
					fputc(' ', fs->dat);
					plot_dat_num(fs->dat, st.s.max);
					fputc(' ', fs->dat);
					plot_dat_num(fs->dat, st_quantile(vals, st.s.n, 0.75));
					fputc(' ', fs->dat);
					plot_dat_num(fs->dat, st.s.median);
					fprintf(fs->dat, " %zu ", st.s.n);
					plot_dat_str(fs->dat, res_value_str(b->rows[r], v, sizeof(v)));
					fputc('\n', fs->dat);
				}
			}
		}
	}
	free(vals);
	char title[1024], sub[768], foot[512], l[256];
	if (rq->title)
		snprintf(title, sizeof(title), "%s", rq->title);
	else
		default_title(pv, pv->row_axis, "repetitions per", title, sizeof(title));
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, title, sub, foot, rf->path);
	FILE *gp = fs->gp;
	plot_gp_set_str(gp, "xlabel", name_label(pv->row_axis, l, sizeof(l)));
	plot_gp_set_str(gp, "ylabel", name_label(metric, l, sizeof(l)));
	if (name_is_rate(metric))
		fputs("set format y '%.1s%c'\n", gp);
	fprintf(gp, "set style fill solid 0.3 border -1\nset boxwidth %g absolute\n", width);
	xtics_categorical(gp, b, 1, 1);
	fprintf(gp, "set xrange [0.4:%zu.6]\nset grid noxtics\n", b->nrows);
	fputs("# box: quartiles; whiskers: min and max; bar: median; dots: each repetition\n"
	      "plot ", gp);
	for (size_t c = 0; c < nc; c++) {
		if (c)
			fputs(", \\\n     ''", gp);
		else
			plot_gp_dat_ref(gp, fs, 1);
		fprintf(gp, " index %zu u 1:2:3:4:5 w candlesticks whiskerbars lc %zu title ", c,
			c + 1);
		plot_gp_str(gp, nc > 1 ? pv->cols[c].label : metric);
		fprintf(gp, ", \\\n     '' index %zu u 1:6:6:6:6 w candlesticks lt -1 lw 2 notitle", c);
		fprintf(gp, ", \\\n     '' index %zu u 1:2 w points pt 7 ps 0.5 lc 'black' notitle",
			nc + c);
	}
	fputc('\n', gp);
	pv_free(pv);
	return 0;
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
	switch (rq->kind) {
	case PLOT_LINE:
		rc = write_line(rf, rq, &fs, o, rq->nmetrics ? rq->metrics : def,
				rq->nmetrics ? rq->nmetrics : 1, err, errlen);
		break;
	case PLOT_HEATMAP:
		rc = write_heatmap(rf, rq, &fs, o, metric, err, errlen);
		break;
	case PLOT_LOAD:
		rc = write_load(rf, rq, &fs, o, err, errlen);
		break;
	case PLOT_FRAMESIZE:
		rc = write_framesize(rf, rq, &fs, o, err, errlen);
		break;
	case PLOT_BOX:
		rc = write_box(rf, rq, &fs, o, metric, err, errlen);
		break;
	}
	if (!rc && (ferror(fs.gp) || ferror(fs.dat) || fflush(fs.gp) || fflush(fs.dat))) {
		snprintf(err, errlen, "cannot write %s/%s.gp or .dat", fs.dir, fs.base);
		rc = -EIO;
	}
	int ran = 0;
	if (!rc) {
		/* flushed files are complete: keep them even if gnuplot fails, to debug */
		ran = 1;
		rc = plot_run_gnuplot(&fs, err, errlen);
	}
	int rc2 = plot_files_close(&fs, !ran);
	return rc ? rc : rc2;
}

