/* SPDX-License-Identifier: BSD-2-Clause */
/* pivot_words.c — a table asked for in the words of `ppslab table`'s options, for the
 * command and for `ppslab run` (see pivot.h). */
#include "pivot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fmt.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

static int show_parse(const char *text, unsigned *show, char *err, size_t errlen)
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

int pv_words_set(struct pv_words *w, const char *name, const char *arg, char *err,
		 size_t errlen)
{
	int rc = 0;
	if (!strcmp(name, "rows"))
		w->rows = arg;
	else if (!strcmp(name, "row-label"))
		w->row_label = arg;
	else if (!strcmp(name, "cols")) {
		/* specs have a label (=) or a metric (:); an axis name has neither */
		if (strchr(arg, '=') || strchr(arg, ':'))
			rc = strlist_add_csv(&w->specs, arg) ? -ENOMEM : 0;
		else
			w->cols = arg;
	} else if (!strcmp(name, "col"))
		rc = strlist_add(&w->specs, arg) ? -ENOMEM : 0;
	else if (!strcmp(name, "metric"))
		rc = strlist_add_csv(&w->metrics, arg) ? -ENOMEM : 0;
	else if (!strcmp(name, "where"))
		return res_sel_opt(&w->where, arg, err, errlen);
	else if (!strcmp(name, "show"))
		return show_parse(arg, &w->show, err, errlen);
	else if (!strcmp(name, "title"))
		w->title = arg;
	else
		return fmt_err(-ENOENT, err, errlen, "--%s: not an option of the table", name);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

int pv_words_end(struct pv_words *w, char *err, size_t errlen)
{
	for (size_t i = 0; i < w->specs.n; i++) {
		char why[512];
		int r = pv_colspecs_parse(w->specs.v[i], &w->spec, &w->nspec, why, sizeof(why));
		if (r)
			return fmt_err(r, err, errlen, "--cols: %s",
				       r == -EINVAL ? why : "out of memory");
	}
	if (w->cols && w->nspec)
		return fail(err, errlen, "--cols %s: give either an axis or column specs (--col), "
			    "not both", w->cols);
	return 0;
}

int pv_words_print(FILE *f, const struct res_file *rf, const struct pv_words *w, char *err,
		   size_t errlen)
{
	struct pivot *pv = NULL;
	struct pv_req rq = {
		.rows = w->rows, .row_label = w->row_label, .cols = w->cols, .spec = w->spec,
		.nspec = w->nspec, .metrics = (const char *const *)w->metrics.v,
		.nmetrics = w->metrics.n, .where = &w->where, .show = w->show,
		.decimals = w->decimals,
	};
	int r = pv_build(rf, &rq, &pv, err, errlen);
	if (r)
		return r;
	pv_print(f, pv, (enum grid_fmt)w->fmt, w->title);
	pv_free(pv);
	return fflush(f) ? fmt_err(-EIO, err, errlen, "cannot write the table: %s",
				   strerror(errno)) : 0;
}

void pv_words_free(struct pv_words *w)
{
	strlist_free(&w->metrics);
	strlist_free(&w->specs);
	res_sel_free(&w->where);
	pv_colspecs_free(w->spec, w->nspec);
	w->spec = NULL;
	w->nspec = 0;
}

int pv_table_text(FILE *f, const char *path, const struct pv_text *t, char *err,
		  size_t errlen)
{
	const struct { const char *name, *arg; } word[] = {
		{ "rows", t->rows }, { "cols", t->cols }, { "metric", t->metric },
		{ "where", t->where }, { "show", t->show }, { "row-label", t->row_label },
		{ "title", t->title },
	};
	struct pv_words w = PV_WORDS_INIT;
	struct res_file *rf = NULL;
	int rc = 0;
	for (size_t i = 0; i < sizeof(word) / sizeof(word[0]) && !rc; i++)
		if (word[i].arg)
			rc = pv_words_set(&w, word[i].name, word[i].arg, err, errlen);
	if (!rc && !(rc = pv_words_end(&w, err, errlen)) &&
	    !(rc = res_load(path, &rf, err, errlen)))
		rc = pv_words_print(f, rf, &w, err, errlen);
	res_free(rf);
	pv_words_free(&w);
	return rc;
}
