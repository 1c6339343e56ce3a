/* SPDX-License-Identifier: BSD-2-Clause */
/* pivot_words.c — a table from its typed request (pv_table_print), the values of its
 * options that both `ppslab table` and `ppslab run` give (--show, column specs), and
 * run's table from the words of its profile's output.table (see pivot.h). */
#include "pivot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fmt.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

int pv_show_parse(const char *text, unsigned *show, char *err, size_t errlen)
{
	struct strlist l = { 0 };
	int rc = strlist_add_csv(&l, text) ? -ENOMEM : 0;
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
			rc = cli_bad_text(err, errlen, "show", l.v[i],
					  "median, minmax, stdev, n or flags");
	}
	strlist_free(&l);
	return rc;
}

int pv_cols_opt(const char *text, const char **cols, struct strlist *specs)
{
	if (strchr(text, '=') || strchr(text, ':'))
		return strlist_add_csv(specs, text) ? -ENOMEM : 0;
	*cols = text;
	return 0;
}

int pv_specs_parse(const struct strlist *specs, const char *cols, struct pv_colspec **spec,
		   size_t *nspec, char *err, size_t errlen)
{
	for (size_t i = 0; i < specs->n; i++) {
		char why[512];
		int r = pv_colspecs_parse(specs->v[i], spec, nspec, why, sizeof(why));
		if (r)
			return fmt_err(r, err, errlen, "--cols: %s",
				       r == -EINVAL ? why : "out of memory");
	}
	if (cols && *nspec)
		return fail(err, errlen, "--cols %s: give either an axis or column specs (--col), "
			    "not both", cols);
	return 0;
}

int pv_table_print(FILE *f, const struct res_file *rf, const struct pv_req *rq,
		   enum grid_fmt fmt, const char *title, char *err, size_t errlen)
{
	struct pivot *pv = NULL;
	int r = pv_build(rf, rq, &pv, err, errlen);
	if (r)
		return r;
	pv_print(f, pv, fmt, title);
	pv_free(pv);
	return fflush(f) ? fmt_err(-EIO, err, errlen, "cannot write the table: %s",
				   strerror(errno)) : 0;
}

int pv_table_text(FILE *f, const char *path, const struct pv_text *t, char *err,
		  size_t errlen)
{
	struct strlist metrics = { 0 }, specs = { 0 };
	struct res_sel where = { 0 };
	struct pv_req rq = { .rows = t->rows, .row_label = t->row_label, .where = &where,
			     .decimals = -1 };
	struct pv_colspec *spec = NULL;
	struct res_file *rf = NULL;
	int rc = 0;
	if (t->cols)
		rc = pv_cols_opt(t->cols, &rq.cols, &specs);
	if (!rc && t->metric)
		rc = strlist_add_csv(&metrics, t->metric) ? -ENOMEM : 0;
	if (rc)
		snprintf(err, errlen, "out of memory");
	else if (t->where)
		rc = res_sel_opt(&where, t->where, err, errlen);
	if (!rc && t->show)
		rc = pv_show_parse(t->show, &rq.show, err, errlen);
	rq.metrics = (const char *const *)metrics.v;
	rq.nmetrics = metrics.n;
	if (!rc && !(rc = pv_specs_parse(&specs, rq.cols, &spec, &rq.nspec, err, errlen)) &&
	    !(rc = res_load(path, &rf, err, errlen))) {
		rq.spec = spec;
		rc = pv_table_print(f, rf, &rq, GRID_TEXT, t->title, err, errlen);
	}
	res_free(rf);
	strlist_free(&metrics);
	strlist_free(&specs);
	res_sel_free(&where);
	pv_colspecs_free(spec, rq.nspec);
	return rc;
}
