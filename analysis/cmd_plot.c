/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_plot.c — `ppslab plot RESULTS ...`: the command line over plot.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cliopts.h"
#include "cmds.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "plot.h"

#define SYNOPSIS "ppslab plot RESULTS [--kind line|heatmap|load|framesize|box] [--x AXIS] " \
		 "[--by AXIS] [--metric M] [--where AXIS=VALUE,...] [-o FILE.png|.svg|.txt]"

static const struct opt_def opts[] = {
	{ "kind", 'k', "KIND", "line (default), heatmap, load (rate and loss vs offered load), "
	  "framesize (vs the line rate) or box (repetitions)" },
	{ "x", 'x', "AXIS", "axis on x (default: the first that varies; load_pps; frame_size)" },
	{ "y", 'y', "AXIS", "heatmap: axis on y (default: the next that varies)" },
	{ "by", 'b', "AXIS", "one line (or box) per value of this axis; the axes left over get a panel per value" },
	{ "metric", 'm', "M[,M...]", "metric(s) from cases[].metrics (default fwd_pps; framesize: "
	  "ndr_pps, pdr_pps)" },
	{ "where", 'w', "AXIS=VALUE,...", "fix axes (repeatable): fewer panels" },
	{ "errors", 'e', "WHAT", "error bars: minmax (median, min–max; default), stdev (mean ± "
	  "stdev) or none" },
	{ "link", 'l', "SPEED", "framesize: line rate of 1G, 10G, 100M... (default: the DUT "
	  "NIC's speed)" },
	{ "logx", 0, NULL, "logarithmic x axis (default: when x spans more than two decades)" },
	{ "logy", 0, NULL, "logarithmic y axis (default: when y spans more than two decades)" },
	{ "title", 't', "TEXT", "title (default: what is plotted and the fixed axes)" },
	{ "output", 'o', "FILE", "FILE.png, FILE.svg or FILE.txt (dumb); FILE.gp and FILE.dat "
	  "beside it (default: terminal)" },
	{ "image-size", 0, "WxH", "in pixels (default 900x540, larger with panels), characters for dumb (100x32)" },
	{ "size", 0, "WxH", NULL },   /* the older name of --image-size */
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

struct args {
	struct plot_req rq;
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

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	int v;
	switch (key) {
	case 'k':
		if ((v = plot_kind_parse(arg)) < 0)
			return cli_bad("kind", arg, "line, heatmap, load, framesize or box");
		a->rq.kind = (enum plot_kind)v;
		return 0;
	case 'x': a->rq.x = arg; return 0;
	case 'y': a->rq.y = arg; return 0;
	case 'b': a->rq.by = arg; return 0;
	case 'm': return strlist_add_csv(&a->metrics, arg) ? EX_OSERR : 0;
	case 'w': return ana_opt_where(&a->where, arg);
	case 'e':
		if ((v = plot_errors_parse(arg)) < 0)
			return cli_bad("errors", arg, "minmax, stdev or none");
		a->rq.errors = (enum plot_errors)v;
		return 0;
	case 'l':
		if (parse_link(arg, &a->rq.link_bps))
			return cli_bad("link", arg, "a link speed such as 1G, 10G, 2.5G or 100M");
		return 0;
	case 't': a->rq.title = arg; return 0;
	case 'o': a->out.path = arg; return 0;
	}
	if (!strcmp(name, "logx")) {
		a->rq.logx = 1;
	} else if (!strcmp(name, "logy")) {
		a->rq.logy = 1;
	} else if (!strcmp(name, "size") || !strcmp(name, "image-size")) {
		char w[32], *x = strchr(arg, 'x');
		uint64_t wv, hv;
		if (!x || (size_t)(x - arg) >= sizeof(w))
			return cli_bad(name, arg, "WIDTHxHEIGHT, e.g. 1200x700");
		snprintf(w, sizeof(w), "%.*s", (int)(x - arg), arg);
		if (num_u64(w, 20, 10000, &wv) || num_u64(x + 1, 10, 10000, &hv))
			return cli_bad(name, arg, "WIDTHxHEIGHT, e.g. 1200x700 (20..10000)");
		a->out.width = (int)wv;
		a->out.height = (int)hv;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct args a = { .rq = { .kind = PLOT_LINE } };
	struct res_file *rf = NULL;
	struct cli_prog prog = { "ppslab", SYNOPSIS, opts, handle, &a };
	int first, rc = cli_parse(&prog, argc, argv, NULL, &first);
	if (rc) {
		rc = rc == CLI_DONE ? EX_OK : rc;
		goto out;
	}
	if ((rc = ana_one_file("plot", SYNOPSIS, argc - first)) ||
	    (rc = ana_load(argv[first], &rf)))
		goto out;
	a.rq.metrics = (const char *const *)a.metrics.v;
	a.rq.nmetrics = a.metrics.n;
	a.rq.where = &a.where;
	char err[1024];
	int r = plot_results(rf, &a.rq, &a.out, err, sizeof(err));
	if (r) {
		log_err("%s", err);
		rc = ana_plot_status(r);
		goto out;
	}
	if (a.out.path) {
		const char *dot = strrchr(a.out.path, '.');
		printf("wrote %s (gnuplot script %.*s.gp, data %.*s.dat)\n", a.out.path,
		       (int)(dot - a.out.path), a.out.path, (int)(dot - a.out.path), a.out.path);
	}
	rc = EX_OK;
out:
	res_free(rf);
	strlist_free(&a.metrics);
	res_sel_free(&a.where);
	return rc;
}
