// SPDX-License-Identifier: BSD-2-Clause
/* plot_write.h — the writers of a built figure, one per kind: plot_xy.c (line, load,
 * frame size), plot_box.c, plot_heatmap.c, plot_latload.c, plot_timeline.c. Only plot_kinds.c (plot_results, the
 * dispatcher) calls them; they call down to plot_scale.h, plot_fig.h and plot_gp.h. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PLOT_WRITE_H
#define PPSLAB_ANALYSIS_RESULTS_PLOT_WRITE_H

#include "plot_scale.h"

/* Writes a line, load or frame-size figure whose series are built. 0. */
int plot_write_xy(struct fig *f, struct files *fs, const struct plot_out *o);
int plot_write_box(struct fig *f, struct files *fs, const struct plot_out *o,
		   const char *metric, char *err, size_t errlen);
int plot_write_heatmap(struct fig *f, struct files *fs, const struct plot_out *o,
		       const char *metric, char *err, size_t errlen);
/* plot_latload.c: the latency at load of the cases f->rq->where selects. */
int plot_write_latload(struct fig *f, struct files *fs, const struct plot_out *o, char *err,
		       size_t errlen);

/* plot_timeline.c: the outage cases' gaps around t0 (trial.method "outage"). */
int plot_write_timeline(struct fig *f, struct files *fs, const struct plot_out *o, char *err,
			size_t errlen);
#endif
