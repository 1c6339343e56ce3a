/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_plot.c — `ppslab plot RESULTS ...`: the command line over plot.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cmds.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "plot.h"

#define SYNOPSIS "ppslab plot RESULTS [--kind line|heatmap|load|framesize|box] [--x AXIS] " \
		 "[--by AXIS] [--metric M] [--where AXIS=VALUE,...] [-o FILE.png|.svg|.txt]"

/* A plot word (plot.h) by its option's name; --plot is --output. */
static int words(const struct opt_def *d, const char *arg, void *base)
{
	char err[4096];
	int r = plot_words_set(base, d->short_name == 'p' ? "output" : d->name, arg, err,
			       sizeof(err));
	if (!r)
		return 0;
	log_err("%s", err);
	return r == -EINVAL ? EX_USAGE : EX_OSERR;
}

#define WORDS OPT_FN, .fn = words
static struct opt_def opts[] = {
	{ "kind", 'k', "KIND", "line, heatmap, load (rate and loss vs offered load), "
	  "framesize (vs the line rate) or box (repetitions); default: as report chooses "
	  "(framesize when a frame size varies, load when an offered load does, else line)", WORDS },
	{ "x", 'x', "AXIS", "axis on x (default: the first that varies; load_pps; frame_size)", WORDS },
	{ "y", 'y', "AXIS", "heatmap: axis on y (default: the next that varies)", WORDS },
	{ "by", 'b', "AXIS", "one line (or box) per value of this axis; the axes left over get a panel per value", WORDS },
	{ "metric", 'm', "M[,M...]", "metric(s) measured per case (default fwd_pps; framesize: "
	  "ndr_pps, pdr_pps)", WORDS },
	{ "where", 'w', "AXIS=VALUE,...", "fix axes (repeatable): fewer panels", WORDS },
	{ "errors", 'e', "WHAT", "error bars: minmax (median, min–max; default), stdev (mean ± "
	  "stdev) or none", WORDS },
	{ "link", 0, "SPEED", "framesize: line rate of 1G, 10G, 100M... (default: the DUT "
	  "NIC's speed)", WORDS },
	{ "logx", 0, NULL, "logarithmic x axis (default: when x spans more than two decades)", WORDS },
	{ "logy", 0, NULL, "logarithmic y axis (default: when y spans more than two decades)", WORDS },
	{ "title", 't', "TEXT", "title (default: what is plotted and the fixed axes)", WORDS },
	{ "output", 'o', "FILE", "FILE.png, FILE.svg or FILE.txt (dumb); FILE.gp and FILE.dat "
	  "beside it (default: terminal)", WORDS },
	{ "plot", 'p', "FILE", "the same as --output, as run, compare and trend name it", WORDS },
	{ "image-size", 0, "WxH", "in pixels (default 900x540, larger with panels), characters for dumb (the width of $COLUMNS or the terminal, else 100; 32 high)", WORDS },
	{ "size", 0, "WxH", NULL, WORDS },   /* the older name of --image-size */
	OPT_HELP_ROW,
	{ NULL },
};

int cmd_plot(int argc, char **argv)
{
	struct plot_words w = { .rq = { .kind = PLOT_LINE } };
	struct res_file *rf = NULL;
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	int first, rc = opt_parse(&prog, argc, argv, &w, &first);
	if (rc) {
		rc = rc == OPT_DONE ? EX_OK : rc;
		goto out;
	}
	if ((rc = ana_one_file("plot", SYNOPSIS, argc - first)) ||
	    (rc = ana_load(argv[first], &rf)))
		goto out;
	char err[1024];
	int r = plot_words_draw(rf, &w, stdout, err, sizeof(err));
	if (r) {
		log_err("%s", err);
		rc = ana_plot_status(r);
		goto out;
	}
	rc = EX_OK;
out:
	res_free(rf);
	plot_words_free(&w);
	return rc;
}
