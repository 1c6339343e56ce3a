/* SPDX-License-Identifier: BSD-2-Clause */
/* anacli.h — what the analysis commands (table, plot, compare, trend, report, env) share
 * besides their option rows (opt.h): loading a results file with the right exit code,
 * percentages and list-valued options, writing a JSON document, and the exit code of
 * a failed plot. */
#ifndef PPSLAB_ANALYSIS_ANACLI_H
#define PPSLAB_ANALYSIS_ANACLI_H

#include <jansson.h>
#include <stddef.h>

#include "opt.h"
#include "results.h"
#include "strlist.h"   /* the commands' repeatable options */

/* Loads path; on failure prints the error and returns EX_NOINPUT (cannot open),
 * EX_DATAERR (not JSON / not a results file) or EX_OSERR. 0 on success. */
int ana_load(const char *path, struct res_file **out);

/* 0 when a command that takes one results file got noperands == 1; else EX_USAGE after
 * "CMD needs exactly one results file (usage: SYNOPSIS)". */
int ana_one_file(const char *cmd, const char *synopsis, int noperands);

/* "2%", "2" or "0.5%": a percentage from min to max, as a fraction (0.02). 0, or -EINVAL
 * for anything else (also text of 64 characters or more). */
int ana_pct(const char *s, double min, double max, double *frac);

/* Row parsers (opt.h) of the commands' shared option kinds, into the row's field:
 * a percentage d->lo..d->hi as a fraction (double; --margin, --floor), --where
 * AXIS=VALUE,... added to a struct res_sel, --format FMT as a grid_fmt (int; html
 * too when d->max is 1). 0, or EX_USAGE after a message naming the option. */
int ana_opt_pct(const struct opt_def *d, const char *arg, void *base);
int ana_opt_where(const struct opt_def *d, const char *arg, void *base);
int ana_opt_format(const struct opt_def *d, const char *arg, void *base);

/* The rows several commands share, into member m of their struct T: --where (with the
 * command's help), and compare's and trend's --floor and --lower-is-better. */
#define ANA_OPT_WHERE(T, m, help) { "where", 'w', "AXIS=VALUE,...", help, OPT_FN,       \
	OPT_AT(T, m), .fn = ana_opt_where }
#define ANA_OPT_FLOOR(T, m) { "floor", 0, "PCT", "variance floor of the log values "     \
	"(default: search width / 2, else 0.25%)", OPT_FN, OPT_AT(T, m), .hi = 50,        \
	.fn = ana_opt_pct, .what = "a percentage from 0 to 50, e.g. 0.25%" }
#define ANA_OPT_LOWER(T, m) { "lower-is-better", 0, "M[,M...]", "more metrics where "    \
	"lower is better (lat_*, *_ns, loss*, cpu* already are)", OPT_CSV, OPT_AT(T, m) }

/* Writes j to path ("-": stdout, indented as on disk). 0, or EX_CANTCREAT after a
 * message naming -o PATH. */
int ana_write_json(const char *path, const json_t *j);

/* The exit code of a failed plot (plot.h's -errno): EX_USAGE for what was asked,
 * EX_UNAVAILABLE without gnuplot, EX_SOFTWARE when gnuplot failed, else EX_CANTCREAT. */
int ana_plot_status(int neg_errno);

#endif
