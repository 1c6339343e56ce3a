/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_impl.h — what the plot files share: plot.c (files, gnuplot, the frame of a
 * figure: terminal, titles, panels), plot_fig.c (the figure: panels and series from a
 * pivot, and what is read from them), plot_scale.c (axes and key corners), plot_xy.c
 * (writing a figure of lines and points), and the kinds: plot_kinds.c (line, load,
 * frame size, and plot_results), plot_box.c, plot_heatmap.c. Not a public contract:
 * see plot.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PLOT_IMPL_H
#define PPSLAB_ANALYSIS_RESULTS_PLOT_IMPL_H

#include <limits.h>
#include <stdio.h>

#include "model.h"
#include "pivot.h"
#include "plot.h"
#include "safefile.h"

enum term { TERM_PNG, TERM_SVG, TERM_DUMB };

struct files {
	char dir[PATH_MAX];
	char base[NAME_MAX + 1];   /* without extension */
	char image[NAME_MAX + 1];  /* base + extension, "" for stdout */
	enum term term;
	int tmp;                   /* dir is ours: remove it afterwards */
	FILE *gp, *dat;            /* the streams of sgp and sdat */
	/* every file is a temporary renamed over its name (safefile.h); gnuplot writes the
	 * image to simg's temporary, renamed once it succeeded */
	struct safefile sgp, sdat, simg;
};

/* Creates NAME.gp and NAME.dat beside o->path (or in a new temporary directory for the
 * terminal), and the image's temporary, none through a planted link. 0 or
 * -errno/-EINVAL with err set. */
int plot_files_open(struct files *fs, const struct plot_out *o, char *err, size_t errlen);
/* Closes them, renaming the script and data into place; discard drops them all (a
 * request refused before gnuplot ran). The image is renamed by plot_files_finish only. */
int plot_files_close(struct files *fs, int discard);
/* Runs `gnuplot NAME.gp` in the directory: 0, -ENOENT (no gnuplot), -EIO (failed). */
int plot_run_gnuplot(struct files *fs, char *err, size_t errlen);
/* Ends a plot whose script and data were written with result rc: unless rc is already a
 * failure, checks both files were written in full (-EIO) and runs gnuplot; then closes
 * them, removing them when gnuplot never ran (flushed files stay even if it failed, to
 * debug). Returns the first failure, err set, or 0. */
int plot_files_finish(struct files *fs, int rc, char *err, size_t errlen);
/* "set WHAT 'escaped text'" */
void plot_gp_set_str(FILE *f, const char *what, const char *s);
/* The data file in a plot command: 'NAME.dat' the first time, then , '' */
void plot_gp_dat_ref(FILE *gp, const struct files *fs, int first);
/* A label or a number in a .dat file. */
void plot_dat_str(FILE *f, const char *s);
void plot_dat_num(FILE *f, double v);
/* The DUT line under the title; the file, run and date in the footer. */
void plot_subtitle_of(const struct res_file *rf, char *buf, size_t len);
void plot_footer_of(const struct res_file *rf, char *buf, size_t len);

/* ---- the frame of a figure ----------------------------------------------------------
 * Every figure is laid out here, in pixels (characters on the dumb terminal): the title,
 * subtitle and notes as centred lines at the top, wrapped to the width so that none is
 * cut at the edges; the footer at the bottom right; one panel, or a grid of panels (small
 * multiples) sharing their scales, each with its margins set in screen coordinates so
 * that tic labels, axis labels and panel titles have room. Text widths are estimated
 * from the font size (PLOT_CHAR_EM of an em per character, generous for DejaVu Sans),
 * so a line is wrapped before it could reach an edge. */
#define PLOT_FONT 10        /* tics, axis labels, key */
#define PLOT_FONT_TITLE 11
#define PLOT_FONT_SUB 9     /* subtitle and notes */
#define PLOT_CHAR_EM 0.72   /* width of a character, in ems (pixels per point) */
#define PLOT_LINE_EM 1.6    /* height of a line, in ems */
#define PLOT_MAX_PANELS 24
#define PLOT_MAX_NOTES 12

struct frame {
	int w, h;               /* pixels, or characters for dumb */
	int dumb;
	int np, rows, cols;     /* panels */
	double top, bottom;     /* title block and footer heights */
	int ntitle;             /* title-block labels written (tags 1000...) */
	int footer;             /* label 999 written */
	/* per panel, in pixels */
	double left, right;     /* outside the plot area: tic labels and axis labels */
	double ptitle;          /* a panel's own title line (small multiples) */
	double xtics, xlab;     /* below a panel: its tic labels; below the last row: the
				 * x label */
	double pw, ph;          /* plot area of one panel */
	double gapx;            /* between panels: the right margin and the next's tics */
	double title_frac;      /* the most of the height the title block takes; 0: 40 % */
};

/* Width of n characters and height of a line at a font size, on this frame. */
double plot_text_w(const struct frame *fr, size_t chars, int pt);
double plot_line_h(const struct frame *fr, int pt);

/* Starts the script: comment, terminal and output. Picks the figure size (o's, or a
 * default grown for np panels) and the grid of panels. */
void plot_gp_begin(struct files *fs, const struct plot_out *o, size_t np,
		   struct frame *fr, const char *source);
/* The title block: title, subtitle and notes, each wrapped to the width, and the
 * footer. Sets fr->top and fr->bottom. */
void plot_gp_titles(struct files *fs, struct frame *fr, const char *title,
		    const char *subtitle, const char *const *notes, size_t nnotes,
		    const char *footer);
/* A one-panel figure that keeps gnuplot's own margins but for the top: terminal, the
 * title block (wrapped like every figure's), the footer, grid and key top left. */
void plot_gp_header(struct files *fs, const struct plot_out *o, const char *title,
		    const char *subtitle, const char *footer, const char *source);
/* The panels keep at least 60 % of the height: o2 is o, with a default height grown
 * when the title block (measured in a dry run), fixed pixels and per_row pixels per row
 * of panels (their titles and tics) would leave them less. A given height is kept. */
void plot_fit_height(struct files *fs, const struct plot_out *o, size_t np, const char *title,
		     const char *sub, const char *const *notes, size_t nnotes, const char *foot,
		     double per_row, double fixed, struct plot_out *o2);
/* Sizes the panels once fr->left, right, ptitle, xtics and xlab are known. */
void plot_frame_panels(struct frame *fr);
/* Small multiples: one x label under the panels, one y label left of them (part of the
 * title block, drawn once). Nothing for a single panel (gnuplot's own labels). */
void plot_gp_axis_labels(struct files *fs, struct frame *fr, const char *xlabel,
			 const char *ylabel);
/* "set multiplot" when there are several panels. */
void plot_gp_multiplot(struct files *fs, const struct frame *fr);
/* Sets the margins of panel i (row-major) in screen coordinates; with small multiples
 * also its title (the label's lines, fr->ptitle tall). */
void plot_gp_panel(struct files *fs, const struct frame *fr, size_t i, const char *label);
/* Drops the title block's labels and the footer: in a multiplot they are drawn with
 * the first plot only. */
void plot_gp_untitle(struct files *fs, const struct frame *fr);
/* Ends the script (unset multiplot with small multiples). */
void plot_gp_end(struct files *fs, const struct frame *fr);
/* Wraps s into lines of at most cols characters, breaking after ", " or "; " or at a
 * space where it can (a word longer than a line is cut). Returns the number of lines
 * written to out (at most max). */
size_t plot_wrap(const char *s, size_t cols, char (*out)[512], size_t max);

/* ---- the figure (plot_fig.c) ------------------------------------------------------ */

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

/* ---- scales and keys (plot_scale.c) ------------------------------------------------ */

/* The x range, log or linear, and its tics. */
void plot_decide_x(struct fig *f);
/* Drops x tics that would run into each other at the panels' width. */
void plot_thin_xtics(struct fig *f, const struct frame *fr);
/* The y range, log or linear, with the references refs (display units) that fit. */
void plot_decide_y(struct fig *f, const double *refs, size_t nrefs);
/* Each panel's key corner: the one the data cross least. */
void plot_place_keys(struct fig *f, const struct frame *fr, size_t entries, size_t chars);

/* ---- writing (plot_xy.c) ---------------------------------------------------------- */

/* "set key" at corner key (0..3: top left, top right, bottom right, bottom left). */
void plot_key_at(FILE *gp, const struct fig *f, int key);
/* Writes a line, load or frame-size figure whose series are built. 0. */
int plot_write_xy(struct fig *f, struct files *fs, const struct plot_out *o);

/* ---- the other kinds (plot_box.c, plot_heatmap.c) --------------------------------- */

int plot_write_box(struct fig *f, struct files *fs, const struct plot_out *o,
		   const char *metric, char *err, size_t errlen);
int plot_write_heatmap(struct fig *f, struct files *fs, const struct plot_out *o,
		       const char *metric, char *err, size_t errlen);

#endif
