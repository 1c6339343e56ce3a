/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_plot.c — `ppslab plot RESULTS ...`: the command line, its words turned into a
 * typed request (struct plot_req, plot_out) drawn by plot.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cmds.h"
#include "fmt.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "plot.h"

#define SYNOPSIS "ppslab plot RESULTS [--kind line|heatmap|load|framesize|box|latload|timeline] [--x AXIS] " \
		 "[--by AXIS] [--metric M] [--where AXIS=VALUE,...] [-o FILE.png|.svg|.txt]"

/* What is drawn: the request as the options give it. */
struct args {
	struct plot_req rq;           /* metrics and where: set before drawing */
	int kind_given;               /* --kind was given; else the kind the file calls for */
	struct plot_out out;
	struct strlist metrics;
	struct res_sel where;
};

/* "10G", "2.5G", "100M", also with bit/bps/bit/s. */
static int parse_link(const char *s, double *bps)
{
	if (!num_bps(s, bps))
		return 0;
	char buf[64];
	snprintf(buf, sizeof(buf), "%sbit", s);
	return num_bps(buf, bps);
}

static int parse_size(const char *name, const char *arg, struct plot_out *o, char *err,
		      size_t errlen)
{
	char w[32];
	const char *x = strchr(arg, 'x');
	uint64_t wv, hv;
	if (!x || (size_t)(x - arg) >= sizeof(w))
		return cli_bad_text(err, errlen, name, arg, "WIDTHxHEIGHT, e.g. 1200x700");
	snprintf(w, sizeof(w), "%.*s", (int)(x - arg), arg);
	if (num_u64(w, 20, 10000, &wv) || num_u64(x + 1, 10, 10000, &hv))
		return cli_bad_text(err, errlen, name, arg,
				    "WIDTHxHEIGHT, e.g. 1200x700 (20..10000)");
	o->width = (int)wv;
	o->height = (int)hv;
	return 0;
}

/* One option by its long name into the typed request. 0; -EINVAL with err the message
 * ("--kind X: expected ..."); -ENOMEM; -ENOENT for another name. */
static int set(struct args *w, const char *name, const char *arg, char *err, size_t errlen)
{
	int v;
	if (!strcmp(name, "kind")) {
		if ((v = plot_kind_parse(arg)) < 0)
			return cli_bad_text(err, errlen, "kind", arg, PLOT_KIND_NAMES);
		w->rq.kind = (enum plot_kind)v;
		w->kind_given = 1;
	} else if (!strcmp(name, "metric")) {
		if (strlist_add_csv(&w->metrics, arg))
			return fmt_err(-ENOMEM, err, errlen, "out of memory");
	} else if (!strcmp(name, "errors")) {
		if ((v = plot_errors_parse(arg)) < 0)
			return cli_bad_text(err, errlen, "errors", arg, "minmax, stdev or none");
		w->rq.errors = (enum plot_errors)v;
	} else if (!strcmp(name, "link")) {
		if (parse_link(arg, &w->rq.link_bps))
			return cli_bad_text(err, errlen, "link", arg,
					    "a link speed such as 1G, 10G, 2.5G or 100M");
	} else if (!strcmp(name, "size") || !strcmp(name, "image-size")) {
		return parse_size(name, arg, &w->out, err, errlen);
	} else {
		return fmt_err(-ENOENT, err, errlen, "--%s: not an option of the plot", name);
	}
	return 0;
}

/* A plot word by its option's name into the typed request. */
static int words(const struct opt_def *d, const char *arg, void *base)
{
	char err[4096];
	int r = set(base, d->name, arg, err, sizeof(err));
	if (!r)
		return 0;
	log_err("%s", err);
	return r == -EINVAL ? EX_USAGE : EX_OSERR;
}

#define A(m) OPT_AT(struct args, m)
#define WORDS OPT_FN, .fn = words
static struct opt_def opts[] = {
	{ "kind", 'k', "KIND", "line, heatmap, load (rate and loss vs offered load), "
	  "framesize (vs the line rate), box (repetitions), latload (latency at load, a line "
	  "per frame size) or timeline (an outage case's gaps around its action); default: as "
	  "report chooses "
	  "(framesize when a frame size varies, load when an offered load does, else line)", WORDS },
	{ "x", 'x', "AXIS", "axis on x (default: the first that varies; load_pps; frame_size)", OPT_STR, A(rq.x) },
	{ "y", 'y', "AXIS", "heatmap: axis on y (default: the next that varies)", OPT_STR, A(rq.y) },
	{ "by", 'b', "AXIS", "one line (or box) per value of this axis; the axes left over get a panel per value", OPT_STR, A(rq.by) },
	{ "metric", 'm', "M[,M...]", "metric(s) measured per case (default fwd_pps; framesize: "
	  "every search goal's, ndr_pps and pdr_pps by default)", WORDS },
	ANA_OPT_WHERE(struct args, where, "fix axes (repeatable): fewer panels"),
	{ "errors", 'e', "WHAT", "error bars: minmax (median, min–max; default), stdev (mean ± "
	  "stdev) or none", WORDS },
	{ "link", 0, "SPEED", "framesize: line rate of 1G, 10G, 100M... (default: the DUT "
	  "NIC's speed)", WORDS },
	{ "logx", 0, NULL, "logarithmic x axis (default: when x spans more than two decades)", OPT_FLAG, A(rq.logx) },
	{ "logy", 0, NULL, "logarithmic y axis (default: when y spans more than two decades)", OPT_FLAG, A(rq.logy) },
	{ "title", 't', "TEXT", "title (default: what is plotted and the fixed axes)", OPT_STR, A(rq.title) },
	{ "output", 'o', "FILE", "FILE.png, FILE.svg or FILE.txt (dumb); FILE.gp and FILE.dat "
	  "beside it (default: terminal)", OPT_STR, A(out.path) },
	{ "plot", 'p', "FILE", "the same as --output, as run, compare and trend name it", OPT_STR, A(out.path) },
	{ "image-size", 0, "WxH", "in pixels (default 900x540, larger with panels), characters for dumb (the width of $COLUMNS or the terminal, else 100; 32 high)", WORDS },
	{ "size", 0, "WxH", NULL, WORDS },   /* the older name of --image-size */
	OPT_HELP_ROW,
	{ NULL },
};

int cmd_plot(int argc, char **argv)
{
	struct args w = { .rq = { .kind = PLOT_LINE } };
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
	w.rq.metrics = (const char *const *)w.metrics.v;
	w.rq.nmetrics = w.metrics.n;
	w.rq.where = &w.where;
	int r = plot_draw(rf, &w.rq, w.kind_given, &w.out, stdout, err, sizeof(err));
	if (r) {
		log_err("%s", err);
		rc = ana_plot_status(r);
		goto out;
	}
	rc = EX_OK;
out:
	res_free(rf);
	strlist_free(&w.metrics);
	res_sel_free(&w.where);
	return rc;
}
