/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_table.c — `ppslab table RESULTS ...`: the command line, its words turned into a
 * typed request (struct pv_req) printed by pivot.c. Prints a metric pivoted over two
 * axes as aligned text (like the seeds' HZ table), Markdown, CSV or HTML. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cliopts.h"
#include "cmds.h"
#include "fmt.h"
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
	{ "metric", 'm', "M[,M...]", "metric(s) measured per case (default fwd_pps); "
	  "several: a column each" },
	{ "where", 'w', "AXIS=VALUE,...", "only cases with these values (repeatable)" },
	{ "format", 'f', "FMT", "text (default), md, csv or html" },
	{ "show", 0, "WHAT,...", "besides the median: minmax, stdev, n, flags (CSV column)" },
	{ "decimals", 0, "N", "digits after the point (default: automatic per column)" },
	{ "title", 't', "TEXT", "caption ('' for none; default: metric, repetitions, fixed "
	  "axes)" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

/* What is printed: the request as the options give it. */
struct args {
	struct pv_req rq;             /* metrics, where and spec: set after the last option */
	const char *title;
	struct strlist metrics, specs;
	struct res_sel where;
	int fmt;                      /* enum grid_fmt */
	struct pv_colspec *spec;      /* the specs parsed */
};

/* One option by its long name into the typed request. 0; -EINVAL with err the message
 * ("--show X: expected ..."); -ENOMEM; -ENOENT for another name. */
static int set(struct args *w, const char *name, const char *arg, char *err, size_t errlen)
{
	int rc = 0;
	if (!strcmp(name, "rows"))
		w->rq.rows = arg;
	else if (!strcmp(name, "row-label"))
		w->rq.row_label = arg;
	else if (!strcmp(name, "cols"))
		rc = pv_cols_opt(arg, &w->rq.cols, &w->specs);
	else if (!strcmp(name, "col"))
		rc = strlist_add(&w->specs, arg) ? -ENOMEM : 0;
	else if (!strcmp(name, "metric"))
		rc = strlist_add_csv(&w->metrics, arg) ? -ENOMEM : 0;
	else if (!strcmp(name, "where"))
		return res_sel_opt(&w->where, arg, err, errlen);
	else if (!strcmp(name, "show"))
		return pv_show_parse(arg, &w->rq.show, err, errlen);
	else if (!strcmp(name, "title"))
		w->title = arg;
	else
		return fmt_err(-ENOENT, err, errlen, "--%s: not an option of the table", name);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}


static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	uint64_t u;
	char err[4096];
	int r;
	switch (key) {
	case 'f': return ana_opt_format(arg, 1, &a->fmt);
	}
	if (!strcmp(name, "decimals")) {
		if (num_u64(arg, 0, 9, &u))
			return cli_bad("decimals", arg, "a whole number 0..9");
		a->rq.decimals = (int)u;
		return 0;
	}
	if (!(r = set(a, name, arg, err, sizeof(err))))
		return 0;
	log_err("%s", err);
	return r == -EINVAL ? EX_USAGE : EX_OSERR;
}

int cmd_table(int argc, char **argv)
{
	struct args a = { .rq = { .decimals = -1 }, .fmt = GRID_TEXT };
	struct res_file *rf = NULL;
	struct cli_prog prog = { "ppslab", SYNOPSIS, opts, handle, &a };
	char err[4096];
	int r, first, rc = cli_parse(&prog, argc, argv, NULL, &first);
	if (rc) {
		rc = rc == CLI_DONE ? EX_OK : rc;
		goto out;
	}
	if ((rc = ana_one_file("table", SYNOPSIS, argc - first)))
		goto out;
	if ((r = pv_specs_parse(&a.specs, a.rq.cols, &a.spec, &a.rq.nspec, err, sizeof(err)))) {
		log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : EX_OSERR;
		goto out;
	}
	if ((rc = ana_load(argv[first], &rf)))
		goto out;
	a.rq.spec = a.spec;
	a.rq.metrics = (const char *const *)a.metrics.v;
	a.rq.nmetrics = a.metrics.n;
	a.rq.where = &a.where;
	if ((r = pv_table_print(stdout, rf, &a.rq, (enum grid_fmt)a.fmt, a.title, err,
				sizeof(err)))) {
		if (r != -EIO)   /* a closed stdout has nobody to tell */
			log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : r == -EIO ? EX_IOERR : EX_OSERR;
		goto out;
	}
	rc = EX_OK;
out:
	res_free(rf);
	strlist_free(&a.metrics);
	strlist_free(&a.specs);
	res_sel_free(&a.where);
	pv_colspecs_free(a.spec, a.rq.nspec);
	return rc;
}
