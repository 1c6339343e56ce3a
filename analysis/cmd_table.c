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
#include "cmds.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "pivot.h"

#define SYNOPSIS "ppslab table RESULTS [--rows AXIS] [--cols AXIS|SPEC,...] [--metric M] " \
		 "[--where AXIS=VALUE,...] [--format text|md|csv|html] [--show minmax|stdev|n|flags]"

struct args {
	struct pv_words w;
};

/* A table word (pivot_words.h) by its option's name. */
static int words(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	char err[4096];
	int r = pv_words_set(&a->w, d->name, arg, err, sizeof(err));
	if (!r)
		return 0;
	log_err("%s", err);
	return r == -EINVAL ? EX_USAGE : EX_OSERR;
}

#define A(m) OPT_AT(struct args, m)
#define WORDS OPT_FN, .fn = words
static struct opt_def opts[] = {
	{ "rows", 'r', "AXIS", "axis whose values are the rows (default: the first that varies)", WORDS },
	{ "row-label", 0, "TEXT", "header of the row column (default: the axis name)", WORDS },
	{ "cols", 'c', "AXIS|SPEC,...", "column axis, or column specs "
	  "LABEL=[AXIS=VALUE[&...]][:METRIC]", WORDS },
	{ "col", 0, "SPEC", "one column spec (repeatable), e.g. 'blast A=dir=bi:fwd_pps_a'", WORDS },
	{ "metric", 'm', "M[,M...]", "metric(s) measured per case (default fwd_pps); "
	  "several: a column each", WORDS },
	{ "where", 'w', "AXIS=VALUE,...", "only cases with these values (repeatable)", WORDS },
	{ "format", 'f', "FMT", "text (default), md, csv or html", OPT_FN, A(w.fmt), .max = 1, .fn = ana_opt_format },
	{ "show", 0, "WHAT,...", "besides the median: minmax, stdev, n, flags (CSV column)", WORDS },
	{ "decimals", 0, "N", "digits after the point (default: automatic per column)", OPT_UINT, A(w.decimals), .max = 9, .what = "a whole number {range}" },
	{ "title", 't', "TEXT", "caption ('' for none; default: metric, repetitions, fixed "
	  "axes)", WORDS },
	OPT_HELP_ROW,
	{ NULL },
};

int cmd_table(int argc, char **argv)
{
	struct args a = { .w = PV_WORDS_INIT };
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
	if ((r = pv_words_end(&a.w, err, sizeof(err)))) {
		log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : EX_OSERR;
		goto out;
	}
	if ((rc = ana_load(argv[first], &rf)))
		goto out;
	if ((r = pv_words_print(stdout, rf, &a.w, err, sizeof(err)))) {
		if (r != -EIO)   /* a closed stdout has nobody to tell */
			log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : r == -EIO ? EX_IOERR : EX_OSERR;
		goto out;
	}
	rc = EX_OK;
out:
	res_free(rf);
	pv_words_free(&a.w);
	return rc;
}
