/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_compare.c — `ppslab compare A.json B.json [C.json ...]`: the command line over
 * compare.c. A is the baseline; every other file is compared against it. With --by
 * AXIS, one file: its values of AXIS are compared, the first (or --baseline's) as the
 * baseline, each cell matched by its other params. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anacli.h"
#include "cli.h"
#include "cmds.h"
#include "compare.h"
#include "jout.h"
#include "log.h"
#include "num.h"
#include "opt.h"

#define SYNOPSIS "ppslab compare A.json B.json [C.json ...] | RESULTS.json --by AXIS " \
		 "[--baseline VALUE]  [--metric M] [--margin 2%] [--where AXIS=VALUE,...] " \
		 "[--format text|md|csv|html] [-o COMPARE.json] [--plot FILE.png] " \
		 "[--fail-on regression] [--mix-methods]"

#define FAIL_MISSING (1u << 8)

struct args {
	struct cmp_opts co;
	struct strlist metrics, lower;
	struct res_sel where;
	int fmt, no_env;
	unsigned fail_on;
	const char *out, *plot, *plot_metric;
	const char *by, *baseline;
};

/* --fail-on WHAT,...: verdicts as bits of fail_on. */
static int opt_fail_on(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	struct strlist l = { 0 };
	int rc = strlist_add_csv(&l, arg) ? EX_OSERR : 0;
	(void)d;
	for (size_t i = 0; i < l.n && !rc; i++) {
		int v = cmp_verdict_parse(l.v[i]);
		if (!strcmp(l.v[i], "missing"))
			a->fail_on |= FAIL_MISSING;
		else if (v >= 0)
			a->fail_on |= 1u << v;
		else
			rc = cli_bad("fail-on", l.v[i], "regression, progression, "
				     "small_change, inconclusive, equivalent or missing");
	}
	strlist_free(&l);
	return rc;
}

#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "metric", 'm', "M[,M...]", "metrics to compare (default: those of every search goal's "
	  "rate (ndr_pps, pdr_pps, ...), mrr_pps, fwd_pps, fwd_pps_a/_b if two-way, both have)", OPT_CSV, A(metrics) },
	{ "margin", 'd', "PCT", "practical margin δ: smaller changes are not regressions",
	  OPT_FN, A(co.margin), .lo = 1e-9, .hi = 50, .def = "2%", .fn = ana_opt_pct,
	  .what = "a percentage above 0 and up to 50, e.g. 2%" },
	{ "alpha", 0, "A", "false discovery rate for Benjamini-Hochberg", OPT_DOUBLE, A(co.alpha),
	  .lo = 1e-9, .hi = 0.5, .def = "0.05",
	  .what = "a probability above 0 and up to 0.5, e.g. 0.05" },
	ANA_OPT_FLOOR(struct args, co.floor),
	ANA_OPT_LOWER(struct args, lower),
	ANA_OPT_WHERE(struct args, where, "only cells with these values (repeatable)"),
	{ "by", 'b', "AXIS", "compare the values of AXIS within one results file (an OS "
	  "version, kern.hz, ...), cells matched by their other params", OPT_STR, A(by) },
	{ "baseline", 0, "VALUE", "with --by: the value the others are compared against "
	  "(default: the axis' first)", OPT_STR, A(baseline) },
	{ "format", 'f', "FMT", "text (default), md, csv or html", OPT_FN, A(fmt), .max = 1,
	  .fn = ana_opt_format },
	{ "output", 'o', "FILE", "write the comparison JSON (ppslab/compare) to FILE, '-' for "
	  "stdout", OPT_STR, A(out) },
	{ "plot", 'p', "FILE", "bar chart with error bars: FILE.png, .svg or .txt (.gp, .dat "
	  "kept)", OPT_STR, A(plot) },
	{ "plot-metric", 0, "M", "metric of the bar chart (default: the first compared)",
	  OPT_STR, A(plot_metric) },
	{ "fail-on", 0, "WHAT,...", "exit 1 on regression, progression, small_change, "
	  "inconclusive, equivalent or missing (a cell on one side)", OPT_FN, .fn = opt_fail_on },
	{ "no-env", 0, NULL, "leave out the environments side by side", OPT_FLAG, A(no_env) },
	{ "mix-methods", 0, NULL, "compare forwarding rates even when the files measured them "
	  "two ways (interface counters vs test frames / sender's time)", OPT_FLAG,
	  A(co.mix_methods) },
	OPT_HELP_ROW,
	{ NULL },
};

/* --by AXIS: whole's values of AXIS as files of their own (cmp_split), the baseline
 * first. rf has room for 16. A sysexits code. */
static int split_by(struct args *a, const struct res_file *whole, struct res_file **rf,
		    size_t *nf)
{
	char err[1024], list[512];
	const struct res_axis *ax = res_axis(whole, a->by);
	size_t n = 0;
	list[0] = 0;
	if (!ax) {
		for (size_t i = 0; i < whole->naxes && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
					      whole->axes[i].name);
		log_err("--by %s: %s has no such axis (axes: %s)", a->by, whole->path,
			n ? list : "none");
		return EX_USAGE;
	}
	for (size_t i = 0; i < ax->nvalues && n < sizeof(list); i++) {
		char vb[256];
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
				      res_value_str(ax->values[i], vb, sizeof(vb)));
	}
	if (ax->nvalues < 2) {
		log_err("--by %s: %s has one value of it (%s): nothing to compare", a->by,
			whole->path, list);
		return EX_USAGE;
	}
	if (ax->nvalues > 16) {
		log_err("--by %s: %zu values, more than the 16 one comparison takes; choose with "
			"--where on another run", a->by, ax->nvalues);
		return EX_USAGE;
	}
	for (size_t i = 0; i < a->where.n; i++)
		if (!strcmp(a->where.c[i].axis, a->by)) {
			log_err("--where %s=%s: %s is the --by axis, whose values are compared",
				a->where.c[i].axis, a->where.c[i].value, a->by);
			return EX_USAGE;
		}
	size_t base = 0;
	if (a->baseline) {
		size_t i;
		for (i = 0; i < ax->nvalues && !res_value_matches(ax->values[i], a->baseline); i++)
			;
		if (i == ax->nvalues) {
			log_err("--baseline %s: %s has no such value (values: %s)", a->baseline,
				a->by, list);
			return EX_USAGE;
		}
		base = i;
	}
	*nf = 0;
	for (size_t k = 0; k < ax->nvalues; k++) {
		size_t i = k == 0 ? base : k <= base ? k - 1 : k;
		int rc = cmp_split(whole, a->by, ax->values[i], &rf[(*nf)++], err, sizeof(err));
		if (rc) {
			(*nf)--;
			log_err("%s", err);
			return rc == -ENOMEM ? EX_OSERR : EX_DATAERR;
		}
	}
	return 0;
}

/* The comparison's JSON says it compared values of one axis of one file. */
static void by_json(json_t *j, const struct args *a, const struct res_file *whole,
		    const struct res_file *base)
{
	const char *eq = strchr(base->path, '=');
	json_object_set_new(j, "by", json_pack("{s:s,s:s,s:s}", "file", whole->path, "axis", a->by,
					       "baseline", eq ? eq + 1 : base->path));
	json_object_set_new(j, "baseline_file", json_string(whole->path));
	json_object_set_new(j, "candidate_file", json_string(whole->path));
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "candidates"), i, c)
		json_object_set_new(c, "file", json_string(whole->path));
}

int cmd_compare(int argc, char **argv)
{
	struct args a = { .co = { .floor = -1 }, .fmt = GRID_TEXT };
	struct res_file *rf[16] = { 0 }, *whole = NULL;
	struct cmp *cs[16] = { 0 };
	size_t nf = 0;
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	int first, rc = opt_parse(&prog, argc, argv, &a, &first);
	if (rc) {
		rc = rc == OPT_DONE ? EX_OK : rc;
		goto out;
	}
	if (a.by) {
		if (argc - first != 1) {
			log_err("--by compares the values of one axis within one results file; got %d "
				"files (usage: %s)", argc - first, SYNOPSIS);
			rc = EX_USAGE;
			goto out;
		}
		if ((rc = ana_load(argv[first], &whole)) || (rc = split_by(&a, whole, rf, &nf)))
			goto out;
	} else if (a.baseline) {
		log_err("--baseline names a value of the --by axis: give --by AXIS");
		rc = EX_USAGE;
		goto out;
	} else if (argc - first < 2 || argc - first > 16) {
		log_err("compare needs a baseline and 1..15 other results files (usage: %s)",
			SYNOPSIS);
		rc = EX_USAGE;
		goto out;
	} else {
		for (int i = first; i < argc; i++)
			if ((rc = ana_load(argv[i], &rf[nf++])))
				goto out;
	}
	a.co.metrics = (const char *const *)a.metrics.v;
	a.co.nmetrics = a.metrics.n;
	a.co.lower = (const char *const *)a.lower.v;
	a.co.nlower = a.lower.n;
	a.co.where = &a.where;
	char err[1024];
	for (size_t i = 1; i < nf; i++) {
		int r = cmp_run(rf[0], rf[i], &a.co, &cs[i - 1], err, sizeof(err));
		if (r) {
			log_err("%s", err);
			rc = r == -EINVAL ? EX_USAGE : EX_OSERR;
			goto out;
		}
	}
	size_t nc = nf - 1;
	enum grid_fmt fmt = (enum grid_fmt)a.fmt;
	if (a.out && !strcmp(a.out, "-")) {
		fmt = GRID_TEXT;   /* the JSON owns stdout */
	} else if (fmt == GRID_CSV) {
		/* CSV: the rows only, one table for all candidates */
		for (size_t i = 0; i < nc; i++) {
			struct grid *g = cmp_grid(cs[i], GRID_CSV);
			if (g && i)
				for (size_t c = 0; c < g->ncols; c++)
					grid_set(g, 0, c, NULL);
			if (g)
				grid_print(stdout, g, GRID_CSV);
			grid_free(g);
		}
	} else {
		if (!a.no_env) {
			struct grid *g = cmp_env_grid((const struct res_file *const *)rf, nf);
			if (g)
				grid_print(stdout, g, fmt);
			grid_free(g);
			fputc('\n', stdout);
		}
		for (size_t i = 0; i < nc; i++) {
			if (i)
				fputc('\n', stdout);
			if (whole)
				printf("%s, by %s:\n", whole->path, a.by);
			cmp_print(stdout, cs[i], fmt);
		}
	}
	if (a.out) {
		json_t *j = cmp_json(cs, nc);
		if (whole)
			by_json(j, &a, whole, rf[0]);
		rc = ana_write_json(a.out, j);
		json_decref(j);
		if (rc)
			goto out;
	}
	if (a.plot) {
		const char *m = a.plot_metric ? a.plot_metric : cs[0]->metrics[0];
		struct plot_out po = { .path = a.plot };
		int r = cmp_plot(cs, nc, m, &po, err, sizeof(err));
		if (r) {
			log_err("%s", err);
			rc = ana_plot_status(r);
			goto out;
		}
	}
	if (fflush(stdout)) {
		rc = EX_IOERR;
		goto out;
	}
	rc = EX_OK;
	for (size_t i = 0; i < nc; i++) {
		/* an empty comparison is no pass: say so, and fail a gate that asked */
		if (!cs[i]->nrows) {
			log_warn("%s and %s have no cell in common (%zu cells only in the baseline, "
				 "%zu only in this run): nothing was compared%s", rf[0]->path,
				 cs[i]->b->path, cs[i]->n_only_a, cs[i]->n_only_b,
				 a.fail_on ? " (--fail-on)" : "");
			if (a.fail_on)
				rc = 1;
		}
		for (int v = ST_REGRESSION; v <= ST_INCONCLUSIVE; v++)
			if ((a.fail_on & (1u << v)) && cs[i]->counts[v]) {
				log_err("%zu cell(s) %s in %s (--fail-on)", cs[i]->counts[v],
					st_verdict_name((enum st_verdict)v), cs[i]->b->path);
				rc = 1;
			}
		if ((a.fail_on & FAIL_MISSING) && (cs[i]->n_only_a || cs[i]->n_only_b)) {
			log_err("%zu cell(s) only in %s, %zu only in %s (--fail-on missing)",
				cs[i]->n_only_a, rf[0]->path, cs[i]->n_only_b, cs[i]->b->path);
			rc = 1;
		}
	}
out:
	for (size_t i = 0; i < 16; i++) {
		cmp_free(cs[i]);
		res_free(rf[i]);
	}
	res_free(whole);
	strlist_free(&a.metrics);
	strlist_free(&a.lower);
	res_sel_free(&a.where);
	return rc;
}
