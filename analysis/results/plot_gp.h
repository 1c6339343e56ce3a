// SPDX-License-Identifier: BSD-2-Clause
/* plot_gp.h — the bottom of the plot files, plot.c: the files of a plot (script, data,
 * image; gnuplot run over them) and the frame of a figure (terminal, titles, panels).
 * It calls nothing above it; the figure (plot_fig.h), the writers, trend_out.c and
 * plot_bars use it. Not a public contract: see plot.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PLOT_GP_H
#define PPSLAB_ANALYSIS_RESULTS_PLOT_GP_H

#include <limits.h>
#include <stdio.h>

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
/* A plot element's key entry: "title 'escaped t'", or notitle unless keyed. */
void plot_gp_title(FILE *gp, int keyed, const char *t);
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

#endif
