/* plot_impl.h — what plot.c (files, gnuplot, common script lines) shares with
 * plot_kinds.c (one writer per kind of plot). Not a public contract: see plot.h. */
#ifndef PPSLAB_PLOT_IMPL_H
#define PPSLAB_PLOT_IMPL_H

#include <limits.h>
#include <stdio.h>

#include "plot.h"

enum term { TERM_PNG, TERM_SVG, TERM_DUMB };

struct files {
	char dir[PATH_MAX];
	char base[NAME_MAX + 1];   /* without extension */
	char image[NAME_MAX + 1];  /* base + extension, "" for stdout */
	enum term term;
	int tmp;                   /* dir is ours: remove it afterwards */
	FILE *gp, *dat;
};

/* Opens NAME.gp and NAME.dat beside o->path (or in a new temporary directory for the
 * terminal). 0 or -errno/-EINVAL with err set. */
int plot_files_open(struct files *fs, const struct plot_out *o, char *err, size_t errlen);
/* Closes them; discard removes them (a request refused before gnuplot ran). */
int plot_files_close(struct files *fs, int discard);
/* Runs `gnuplot NAME.gp` in the directory: 0, -ENOENT (no gnuplot), -EIO (failed). */
int plot_run_gnuplot(struct files *fs, char *err, size_t errlen);
/* Terminal, output, title with subtitle, footer, grid and key. */
void plot_gp_header(struct files *fs, const struct plot_out *o, const char *title,
		    const char *subtitle, const char *footer, const char *source);
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

#endif
