// SPDX-License-Identifier: BSD-2-Clause
/* plot_scale.h — a figure's scales and keys, plot_scale.c, over plot_fig.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PLOT_SCALE_H
#define PPSLAB_ANALYSIS_RESULTS_PLOT_SCALE_H

#include "plot_fig.h"

/* The x range, log or linear, and its tics. */
void plot_decide_x(struct fig *f);
/* Drops x tics that would run into each other at the panels' width. */
void plot_thin_xtics(struct fig *f, const struct frame *fr);
/* The y range, log or linear, with the references refs (display units) that fit. */
void plot_decide_y(struct fig *f, const double *refs, size_t nrefs);
/* Each panel's key corner: the one the data cross least. */
void plot_place_keys(struct fig *f, const struct frame *fr, size_t entries, size_t chars);
/* "set key" at corner key (0..3: top left, top right, bottom right, bottom left). */
void plot_key_at(FILE *gp, const struct fig *f, int key);

#endif
