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

struct args {
	struct pv_words w;
};

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	const char *name = opts[idx].name;
	uint64_t u;
	char err[4096];
	int r;
	switch (key) {
	case 'f': return ana_opt_format(arg, 1, &a->w.fmt);
	}
	if (!strcmp(name, "decimals")) {
		if (num_u64(arg, 0, 9, &u))
			return cli_bad("decimals", arg, "a whole number 0..9");
		a->w.decimals = (int)u;
		return 0;
	}
	if (!(r = pv_words_set(&a->w, name, arg, err, sizeof(err))))
		return 0;
	log_err("%s", err);
	return r == -EINVAL ? EX_USAGE : EX_OSERR;
}

int cmd_table(int argc, char **argv)
{
	struct args a = { .w = PV_WORDS_INIT };
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
