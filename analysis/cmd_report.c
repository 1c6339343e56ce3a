/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_report.c — `ppslab report RESULTS [-o DIR] [--compare BASE] [--by AXIS]`: the
 * command line over report.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cliopts.h"
#include "cmds.h"
#include "log.h"
#include "opt.h"
#include "report.h"

#define SYNOPSIS "ppslab report RESULTS [-o DIR] [--compare BASE.json] [--by AXIS [--baseline VALUE]] " \
		 "[--metric M] [--no-plots]"

static const struct opt_def opts[] = {
	{ "output", 'o', "DIR", "directory for report.md, report.html, plots (default report)" },
	{ "compare", 0, "BASE", "add a comparison against this baseline results file" },
	{ "metric", 'm', "M[,M...]", "metrics to tabulate, the first also plotted, and with "
	  "--by compared (default: rates, loss, latency, CPU)" },
	{ "by", 'b', "AXIS", "compare the values of AXIS within the file (an OS version, "
	  "kern.hz, ...), cells matched by their other params, as compare --by" },
	{ "baseline", 0, "VALUE", "with --by: the value the others are compared against "
	  "(default: the axis' first)" },
	{ "margin", 'd', "PCT", "comparison margin (default 2%)" },
	{ "no-plots", 0, NULL, "tables only (no gnuplot)" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

struct args {
	const char *dir, *base, *by, *by_baseline;
	struct strlist metrics;
	double margin;
	int no_plots;
};

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	if (!strcmp(name, "compare")) {   /* long only: -c is --cols elsewhere */
		a->base = arg;
		return 0;
	}
	if (!strcmp(name, "baseline")) {
		a->by_baseline = arg;
		return 0;
	}
	switch (key) {
	case 'o': a->dir = arg; return 0;
	case 'b': a->by = arg; return 0;
	case 'm': return strlist_add_csv(&a->metrics, arg) ? EX_OSERR : 0;
	case 'd':
		if (ana_pct(arg, 1e-6, 50, &a->margin))
			return cli_bad("margin", arg, "a percentage above 0 and up to 50, e.g. 2%");
		return 0;
	}
	if (!strcmp(name, "no-plots"))
		a->no_plots = 1;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct args a = { .dir = "report", .margin = 0.02 };
	struct res_file *rf = NULL, *base = NULL;
	struct cli_prog prog = { "ppslab", SYNOPSIS, opts, handle, &a };
	int first, rc = cli_parse(&prog, argc, argv, NULL, &first);
	if (rc) {
		rc = rc == CLI_DONE ? EX_OK : rc;
		goto out;
	}
	if (a.by_baseline && !a.by) {
		log_err("--baseline names a value of the --by axis: give --by AXIS");
		rc = EX_USAGE;
		goto out;
	}
	if ((rc = ana_one_file("report", SYNOPSIS, argc - first)) ||
	    (rc = ana_load(argv[first], &rf)) || (a.base && (rc = ana_load(a.base, &base))))
		goto out;
	struct report_opts o = {
		.dir = a.dir, .base = base, .metrics = (const char *const *)a.metrics.v,
		.nmetrics = a.metrics.n, .plots = !a.no_plots, .margin = a.margin,
		.by = a.by, .by_baseline = a.by_baseline,
	};
	char err[1024];
	size_t failures = 0;
	int r = report_write(rf, &o, &failures, err, sizeof(err));
	if (r) {
		log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : EX_CANTCREAT;
		goto out;
	}
	if (failures)
		log_warn("%zu plot(s) could not be drawn; the report says why", failures);
	printf("wrote %s/report.md and %s/report.html\n", a.dir, a.dir);
	rc = EX_OK;
out:
	res_free(rf);
	res_free(base);
	strlist_free(&a.metrics);
	return rc;
}
