/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_table.c — `ppslab table RESULTS ...`: the command line over pivot.c. Prints a
 * metric pivoted over two axes as aligned text (like the seeds' HZ table), Markdown,
 * CSV or HTML. */
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
#include "pivot.h"

#define SYNOPSIS "ppslab table RESULTS [--rows AXIS] [--cols AXIS|SPEC,...] [--metric M] " \
		 "[--where AXIS=VALUE,...] [--format text|md|csv|html] [--show minmax|stdev|n|flags]"

static const struct opt_def opts[] = {
	{ "rows", 'r', "AXIS", "axis whose values are the rows (default: the first that varies)" },
	{ "row-label", 0, "TEXT", "header of the row column (default: the axis name)" },
	{ "cols", 'c', "AXIS|SPEC,...", "column axis, or column specs "
	  "LABEL=[AXIS=VALUE[&...]][:METRIC]" },
	{ "col", 0, "SPEC", "one column spec (repeatable), e.g. 'blast A=dir=bi:fwd_pps_a'" },
	{ "metric", 'm', "M[,M...]", "metric(s) from cases[].metrics (default fwd_pps); "
	  "several: a column each" },
	{ "where", 'w', "AXIS=VALUE,...", "only cases with these values (repeatable)" },
	{ "format", 'f', "FMT", "text (default), md, csv or html" },
	{ "show", 's', "WHAT,...", "besides the median: minmax, stdev, n, flags (CSV column)" },
	{ "decimals", 0, "N", "digits after the point (default: automatic per column)" },
	{ "title", 't', "TEXT", "caption ('' for none; default: metric, repetitions, fixed "
	  "axes)" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

struct args {
	const char *rows, *row_label, *cols, *title;
	struct strlist metrics, specs;
	struct res_sel where;
	int fmt, decimals;
	unsigned show;
};

static int parse_show(const char *text, unsigned *show)
{
	struct strlist l = { 0 };
	int rc = strlist_add_csv(&l, text) ? EX_OSERR : 0;
	for (size_t i = 0; i < l.n && !rc; i++) {
		if (!strcmp(l.v[i], "median"))
			continue;
		else if (!strcmp(l.v[i], "minmax"))
			*show |= PV_SHOW_MINMAX;
		else if (!strcmp(l.v[i], "stdev"))
			*show |= PV_SHOW_STDEV;
		else if (!strcmp(l.v[i], "n"))
			*show |= PV_SHOW_N;
		else if (!strcmp(l.v[i], "flags"))
			*show |= PV_SHOW_FLAGS;
		else
			rc = cli_bad("show", l.v[i], "median, minmax, stdev, n or flags");
	}
	strlist_free(&l);
	return rc;
}

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	uint64_t u;
	switch (key) {
	case 'r': a->rows = arg; return 0;
	case 'c':
		if (strchr(arg, '=') || strchr(arg, ':'))
			return strlist_add_csv(&a->specs, arg) ? EX_OSERR : 0;
		a->cols = arg;
		return 0;
	case 'm': return strlist_add_csv(&a->metrics, arg) ? EX_OSERR : 0;
	case 'w': return ana_opt_where(&a->where, arg);
	case 'f': return ana_opt_format(arg, 1, &a->fmt);
	case 's': return parse_show(arg, &a->show);
	case 't': a->title = arg; return 0;
	}
	if (!strcmp(name, "row-label"))
		a->row_label = arg;
	else if (!strcmp(name, "col"))
		return strlist_add(&a->specs, arg) ? EX_OSERR : 0;
	else if (!strcmp(name, "decimals")) {
		if (num_u64(arg, 0, 9, &u))
			return cli_bad("decimals", arg, "a whole number 0..9");
		a->decimals = (int)u;
	}
	return 0;
}

int cmd_table(int argc, char **argv)
{
	struct args a = { .fmt = GRID_TEXT, .decimals = -1 };
	struct res_file *rf = NULL;
	struct pivot *pv = NULL;
	struct pv_colspec *spec = NULL;
	size_t nspec = 0;
	struct cli_prog prog = { "ppslab", SYNOPSIS, opts, handle, &a };
	int first, rc = cli_parse(&prog, argc, argv, NULL, &first);
	if (rc) {
		rc = rc == CLI_DONE ? EX_OK : rc;
		goto out;
	}
	if ((rc = ana_one_file("table", SYNOPSIS, argc - first)))
		goto out;
	for (size_t i = 0; i < a.specs.n; i++) {
		char err[512];
		int r = pv_colspecs_parse(a.specs.v[i], &spec, &nspec, err, sizeof(err));
		if (r) {
			log_err("--cols: %s", r == -EINVAL ? err : "out of memory");
			rc = EX_USAGE;
			goto out;
		}
	}
	if (a.cols && nspec) {
		log_err("--cols %s: give either an axis or column specs (--col), not both", a.cols);
		rc = EX_USAGE;
		goto out;
	}
	if ((rc = ana_load(argv[first], &rf)))
		goto out;
	struct pv_req rq = {
		.rows = a.rows, .row_label = a.row_label, .cols = a.cols, .spec = spec,
		.nspec = nspec, .metrics = (const char *const *)a.metrics.v,
		.nmetrics = a.metrics.n, .where = &a.where, .show = a.show,
		.decimals = a.decimals,
	};
	char err[1024];
	int r = pv_build(rf, &rq, &pv, err, sizeof(err));
	if (r) {
		log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : EX_OSERR;
		goto out;
	}
	pv_print(stdout, pv, (enum grid_fmt)a.fmt, a.title);
	rc = fflush(stdout) ? EX_IOERR : EX_OK;
out:
	pv_free(pv);
	res_free(rf);
	pv_colspecs_free(spec, nspec);
	strlist_free(&a.metrics);
	strlist_free(&a.specs);
	res_sel_free(&a.where);
	return rc;
}
