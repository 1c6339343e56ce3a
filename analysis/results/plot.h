/* SPDX-License-Identifier: BSD-2-Clause */
/* plot.h — gnuplot figures of results files (gnuplot 5.4; docs/design/methodology.md#plots).
 *
 * Every plot is two files written next to the image — NAME.dat (whitespace columns,
 * series as gnuplot `index` blocks) and NAME.gp (the script, which refers to NAME.dat
 * and NAME.png by relative paths) — and then `gnuplot NAME.gp` run in that directory
 * as an argument vector (proc.h), so a user can restyle the .gp and re-run it. Text
 * from results files (titles, labels) is escaped for gnuplot's single-quoted strings
 * and the terminal is noenhanced, so no label can inject gnuplot commands or markup.
 *
 * Terminals: NAME.png → pngcairo, NAME.svg → svg, NAME.txt → dumb into the file; no
 * image path → dumb on stdout, with the .gp/.dat in a temporary directory that is
 * removed afterwards.
 *
 * What a figure shows, and the rules its scales, series and models follow (small
 * multiples for the axes left over, log axes over more than two decades, references
 * that never squeeze the data, flagged cells marked, the polling bound and the rule-cost
 * fit), are in
 * docs/plots.md. */
#ifndef PPSLAB_ANALYSIS_RESULTS_PLOT_H
#define PPSLAB_ANALYSIS_RESULTS_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"
#include "strlist.h"

enum plot_kind {
	PLOT_LINE,       /* metric vs --x, one line per value of --by (error bars) */
	PLOT_HEATMAP,    /* metric over --x × --y */
	PLOT_LOAD,       /* forwarding rate and loss vs offered load (RFC 2285/2889) */
	PLOT_FRAMESIZE,  /* throughput vs frame size with the line-rate curve (RFC 2544) */
	PLOT_BOX,        /* box and whisker of the repetitions per --x value */
	PLOT_LATLOAD,    /* latency at load (RFC 8219): a line per frame size */
	PLOT_TIMELINE,   /* the outage method's gaps around the action's instant */
};

enum plot_errors { PLOT_ERR_MINMAX, PLOT_ERR_STDEV, PLOT_ERR_NONE };

struct plot_req {
	enum plot_kind kind;
	const char *x;                 /* x axis; NULL: chosen per kind */
	const char *y;                 /* heatmap: y axis; NULL: the next axis that varies */
	const char *by;                /* one line per value of this axis, or NULL */
	const char *const *metrics;    /* NULL/0: per kind (fwd_pps; ndr_pps+pdr_pps) */
	size_t nmetrics;
	const struct res_sel *where;   /* fixes the other axes */
	enum plot_errors errors;
	double link_bps;               /* frame-size plot: 0 = the DUT NIC's speed, if known */
	int logx, logy;
	const char *title;             /* NULL: generated */
};

struct plot_out {
	const char *path;              /* NAME.png, NAME.svg, NAME.txt, or NULL (stdout) */
	int width, height;             /* pixels (PNG/SVG) or characters (dumb); 0: default */
};

/* A bar chart with error bars (compare's A vs B): nlabels groups of nsets bars. */
struct plot_bars {
	const char *title, *subtitle, *xlabel, *ylabel;
	const char *footer;            /* small print bottom right, or NULL */
	size_t nsets;
	const char *const *set_names;  /* legend per bar of a group ("A: FreeBSD 13.2") */
	size_t nlabels;
	const char *const *labels;     /* x tic per group (cell key) */
	const double *value, *err;     /* nlabels × nsets, row-major; NaN: no bar */
	const unsigned char *flagged;  /* nlabels × nsets: the bar's cell has a flagged
					* repetition (drawn hatched); or NULL */
	const char *const *notes;      /* lines under the title (why bars are flagged) */
	size_t nnotes;
};

/* Writes NAME.dat and NAME.gp and runs gnuplot. Returns 0; -EINVAL for a request the
 * data cannot satisfy (err names the option and what exists); -ENOENT if gnuplot is
 * not installed; -EIO if gnuplot failed (err names the script); other -errno. */
int plot_results(const struct res_file *rf, const struct plot_req *rq,
		 const struct plot_out *o, char *err, size_t errlen);
int plot_bars(const struct plot_bars *b, const struct plot_out *o, char *err,
	      size_t errlen);

/* plot_results of rf; the kind the file calls for (plot_default_kind) unless kind_given
 * or rq->y; with an output file, says on said where it wrote the plot, its script and
 * data. plot_results' returns. */
int plot_draw(const struct res_file *rf, struct plot_req *rq, int kind_given,
	      const struct plot_out *o, FILE *said, char *err, size_t errlen);

/* `ppslab run`'s plot: the words of output.plot (NULL: not given), the results file at
 * path, drawn as `ppslab plot` would, saying so on said. 0 or a -errno with err the
 * message. */
struct plot_text {
	const char *kind, *x, *y, *by, *metric, *where, *title, *output;
};
int plot_results_text(const char *path, const struct plot_text *t, FILE *said, char *err,
		      size_t errlen);

/* The kind a file calls for when none is asked, as `ppslab report` chooses: a frame
 * size that varies → framesize (x that axis), else an offered load that varies → load,
 * else line; an --x of another axis means line. Sets rq->kind and, for framesize,
 * rq->x when it is not given. */
void plot_default_kind(const struct res_file *rf, struct plot_req *rq);

/* Kind and error-bar names for options; -1 if unknown. */
#define PLOT_KIND_NAMES "line, heatmap, load, framesize, box, latload or timeline"
int plot_kind_parse(const char *s);
int plot_errors_parse(const char *s);

/* The notes under a figure that say why some of its cells are marked, as a table's
 * footnote does: "N flagged cells (HOW): ..." then, per kind of flag, "N cells: TEXT"
 * (at most 4 kinds, then "... and K more kinds"). reasons maps a kind to {"cells":
 * {ID: true}, "text": the first flag's text} (struct pivot's), or is NULL; ncells is how
 * many cells the figure marks. Returns the notes written to out (at most max). */
size_t plot_flag_notes(const json_t *reasons, size_t ncells, const char *how,
		       char (*out)[512], size_t max);
/* The key entry of a flagged mark. */
#define PLOT_FLAGGED_KEY "flagged (see table)"
/* The colour of flagged marks: a dark red no series has. */
#define PLOT_FLAGGED_RGB "#b00020"

/* Writes s as a gnuplot single-quoted string: ' doubled, control characters as
 * spaces. */
void plot_gp_str(FILE *f, const char *s);

#endif
