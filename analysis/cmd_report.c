/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_report.c — `ppslab report RESULTS [-o DIR] [--compare BASE] [--by AXIS]`: the
 * command line over report.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cmds.h"
#include "log.h"
#include "opt.h"
#include "report.h"

#define SYNOPSIS "ppslab report RESULTS [-o DIR] [--compare BASE.json] [--by AXIS [--baseline VALUE]] " \
		 "[--metric M] [--no-plots]"

struct args {
	const char *dir, *base, *by, *by_baseline;
	struct strlist metrics;
	double margin;
	int no_plots;
};

#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "output", 'o', "DIR", "directory for report.md, report.html, plots", OPT_STR, A(dir),
	  .def = "report" },
	{ "compare", 0, "BASE", "add a comparison against this baseline results file", OPT_STR,
	  A(base) },
	{ "metric", 'm', "M[,M...]", "metrics to tabulate, the first also plotted, and with "
	  "--by compared (default: rates, loss, latency, CPU)", OPT_CSV, A(metrics) },
	{ "by", 'b', "AXIS", "compare the values of AXIS within the file (an OS version, "
	  "kern.hz, ...), cells matched by their other params, as compare --by", OPT_STR, A(by) },
	{ "baseline", 0, "VALUE", "with --by: the value the others are compared against "
	  "(default: the axis' first)", OPT_STR, A(by_baseline) },
	{ "margin", 'd', "PCT", "comparison margin", OPT_FN, A(margin), .lo = 1e-6, .hi = 50,
	  .def = "2%", .fn = ana_opt_pct, .what = "a percentage above 0 and up to 50, e.g. 2%" },
	{ "no-plots", 0, NULL, "tables only (no gnuplot)", OPT_FLAG, A(no_plots) },
	OPT_HELP_ROW,
	{ NULL },
};

int cmd_report(int argc, char **argv)
{
	struct args a = { 0 };
	struct res_file *rf = NULL, *base = NULL;
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	int first, rc = opt_parse(&prog, argc, argv, &a, &first);
	if (rc) {
		rc = rc == OPT_DONE ? EX_OK : rc;
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
