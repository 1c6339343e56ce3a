// SPDX-License-Identifier: BSD-2-Clause
/* plot_fig.h — a figure of a plot, plot_fig.c: its panels and series from a pivot, and
 * what is read from them (bounds, fits, the maximum forwarding rate). Over plot_gp.h;
 * the scales (plot_scale.h) and writers (plot_write.h) build on it. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PLOT_FIG_H
#define PPSLAB_ANALYSIS_RESULTS_PLOT_FIG_H

#include "model.h"
#include "pivot.h"
#include "plot_gp.h"

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
	int band;                /* its polling bound is drawn: some of it in the y range */
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
	double offered;          /* line: the one offered load of every cell, pps; or NaN */
	int draw_offered;
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

/* Adds a note under the title (a repeated one once; at most PLOT_MAX_NOTES). */
__attribute__((format(printf, 2, 3)))
void plot_note(struct fig *f, const char *fmt, ...);
/* Counts the cells of pv with a flagged repetition (f->nflagged) and notes why; how
 * says how they are marked. 0 or -ENOMEM. */
int plot_note_flags(struct fig *f, const struct pivot *pv, const char *how);
void plot_fig_free(struct fig *f);
/* Room for up to n points in s. 0 or -ENOMEM. */
int plot_ser_alloc(struct ser *s, size_t n);
/* Whether every row value of pv is a number. */
int plot_rows_numeric(const struct pivot *pv);
/* The title in words: "Forwarded rate vs polling clock (rules=0)" for WHAT "vs". */
void plot_default_title(const struct pivot *pv, const char *x, const char *what,
			char *buf, size_t len);
/* Sorts axis values: numbers by value, then text in natural order. */
void plot_sort_values(json_t **v, size_t n);
/* The row axis' values present in pv, in natural order (f->cats), and where one is. */
int plot_collect_cats(struct fig *f, const struct pivot *pv);
double plot_cat_pos(const struct fig *f, const json_t *v);
/* Builds the pivot a plot draws: one block per panel, at most PLOT_MAX_PANELS, some
 * value. 0 or -errno with err set. */
int plot_pivot(const struct res_file *rf, const char *rows, const char *cols,
	       const char *const *metrics, size_t nmetrics, const struct res_sel *where,
	       struct pivot **pv, char *err, size_t errlen);
/* Refuses more than 16 lines (of per_line columns each) in a panel, freeing *pv. */
int plot_check_lines(struct pivot **pv, size_t per_line, char *err, size_t errlen);
/* One panel per block of pv, labelled. 0 or -ENOMEM. */
int plot_panels_of(struct fig *f, const struct pivot *pv);
/* The series of a line, load (nm columns per series) or frame-size figure. */
int plot_build_xy(struct fig *f, const struct pivot *pv, size_t nm, int has_off,
		  int has_loss);
/* Marks series lying on an earlier one (same_as) and notes it. */
void plot_find_identical(struct fig *f, const char *xwhat);
/* Where each series leaves the polling bound; f->bound when some point has one. */
void plot_analyze_bound(struct fig *f);
/* The rule-cost fit of each rate series. */
void plot_analyze_fit(struct fig *f);
/* The maximum forwarding rate's point of each series. */
void plot_analyze_mfr(struct fig *f);
/* The offered load every cell of a fixed-load sweep had (method.offered_pps), NaN when
 * the file has none or it varies. */
double plot_fixed_offered(const struct res_file *rf);
/* The rig's ceiling in pps, NaN when the file has none. */
double plot_rig_ceiling(const struct res_file *rf);
/* What every figure from pv starts with: x axis, rate, nonneg, ceiling, y label. */
void plot_fig_common(struct fig *f, const struct pivot *pv);
/* A grid of panels (box, heatmap): the height fitted to the title block, the script
 * begun with it, each panel's title line, tics and x label sized; the caller sets left,
 * right and gapx, then plot_frame_panels. */
void plot_fig_grid(struct fig *f, struct files *fs, const struct plot_out *o, struct frame *fr);

#endif
