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
#include "cmds.h"
#include "fmt.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "grid.h"
#include "latload.h"
#include "pivot.h"

#define SYNOPSIS "ppslab table RESULTS [--rows AXIS] [--cols AXIS|SPEC,...] [--metric M] " \
		 "[--where AXIS=VALUE,...] [--format text|md|csv|html] [--show minmax|stdev|n|flags] " \
		 "[--latency]"

/* What is printed: the request as the options give it. */
struct args {
	struct pv_req rq;             /* metrics, where and spec: set after the last option */
	const char *title;
	struct strlist metrics, specs;
	struct res_sel where;
	int fmt;                      /* enum grid_fmt */
	struct pv_colspec *spec;      /* the specs parsed */
	int latency;                  /* --latency: the latency at load instead */
};

/* One option by its long name into the typed request. 0; -EINVAL with err the message
 * ("--show X: expected ..."); -ENOMEM; -ENOENT for another name. */
static int set(struct args *w, const char *name, const char *arg, char *err, size_t errlen)
{
	int rc = 0;
	if (!strcmp(name, "cols"))
		rc = pv_cols_opt(arg, &w->rq.cols, &w->specs);
	else if (!strcmp(name, "col"))
		rc = strlist_add(&w->specs, arg) ? -ENOMEM : 0;
	else if (!strcmp(name, "metric"))
		rc = strlist_add_csv(&w->metrics, arg) ? -ENOMEM : 0;
	else if (!strcmp(name, "show"))
		return pv_show_parse(arg, &w->rq.show, err, errlen);
	else
		return fmt_err(-ENOENT, err, errlen, "--%s: not an option of the table", name);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* A table word by its option's name into the typed request. */
static int words(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	char err[4096];
	int r = set(a, d->name, arg, err, sizeof(err));
	if (!r)
		return 0;
	log_err("%s", err);
	return r == -EINVAL ? EX_USAGE : EX_OSERR;
}

#define A(m) OPT_AT(struct args, m)
#define WORDS OPT_FN, .fn = words
static struct opt_def opts[] = {
	{ "rows", 'r', "AXIS", "axis whose values are the rows (default: the first that varies)", OPT_STR, A(rq.rows) },
	{ "row-label", 0, "TEXT", "header of the row column (default: the axis name)", OPT_STR, A(rq.row_label) },
	{ "cols", 'c', "AXIS|SPEC,...", "column axis, or column specs "
	  "LABEL=[AXIS=VALUE[&...]][:METRIC]", WORDS },
	{ "col", 0, "SPEC", "one column spec (repeatable), e.g. 'blast A=dir=bi:fwd_pps_a'", WORDS },
	{ "metric", 'm', "M[,M...]", "metric(s) measured per case (default fwd_pps); "
	  "several: a column each", WORDS },
	ANA_OPT_WHERE(struct args, where, "only cases with these values (repeatable)"),
	{ "format", 'f', "FMT", "text (default), md, csv or html", OPT_FN, A(fmt), .max = 1, .fn = ana_opt_format },
	{ "show", 0, "WHAT,...", "besides the median: minmax, stdev, n, flags (CSV column)", WORDS },
	{ "decimals", 0, "N", "digits after the point (default: automatic per column)", OPT_UINT, A(rq.decimals), .max = 9, .what = "a whole number {range}" },
	{ "latency", 0, NULL, "the latency at load of every case (RFC 8219 typical, worst-case, "
	  "PDV per load and frame size) instead of a pivot", OPT_FLAG, A(latency) },
	{ "title", 't', "TEXT", "caption ('' for none; default: metric, repetitions, fixed "
	  "axes)", OPT_STR, A(title) },
	OPT_HELP_ROW,
	{ NULL },
};

/* --latency: every case's latency at load as one table. A sysexits status. */
static int latency_table(const struct res_file *rf, const struct res_sel *where,
			 enum grid_fmt fmt)
{
	struct grid *g = lat_grid(rf, where->n ? where : NULL);
	if (!g && errno == ENOENT) {
		log_err("%s: no case has a latency at load (trial.latency_loads: "
			"docs/method.md#latency-at-load)", rf->path);
		return EX_DATAERR;
	}
	if (!g) {
		log_err("out of memory");
		return EX_OSERR;
	}
	grid_print(stdout, g, fmt);
	grid_free(g);
	pv_deviations_print(stdout, rf, fmt);
	return fflush(stdout) || ferror(stdout) ? EX_IOERR : EX_OK;
}

int cmd_table(int argc, char **argv)
{
	struct args a = { .rq = { .decimals = -1 }, .fmt = GRID_TEXT };
	struct res_file *rf = NULL;
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	char err[4096];
	int r, first, rc = opt_parse(&prog, argc, argv, &a, &first);
	if (rc) {
		rc = rc == OPT_DONE ? EX_OK : rc;
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
	if (a.latency) {
		rc = latency_table(rf, &a.where, (enum grid_fmt)a.fmt);
		goto out;
	}
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
	pv_deviations_print(stdout, rf, (enum grid_fmt)a.fmt);
	rc = fflush(stdout) || ferror(stdout) ? EX_IOERR : EX_OK;
out:
	res_free(rf);
	strlist_free(&a.metrics);
	strlist_free(&a.specs);
	res_sel_free(&a.where);
	pv_colspecs_free(a.spec, a.rq.nspec);
	return rc;
}
