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
#include "grid.h"
#include "results.h"

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

/* A caption or footnote line in the table's format. */
static void note_line(FILE *f, enum grid_fmt fmt, const char *text)
{
	if (fmt == GRID_HTML) {
		fputs("<p>", f);
		grid_html_escape(f, text);
		fputs("</p>\n", f);
	} else {
		fprintf(f, "%s\n", text);
	}
}

/* A file with no axis (one cell: a method's single case, repeated or not): a row per
 * metric, its median over the repetitions and their number, '*' on flagged ones. The
 * metrics asked for, or every one with a value. 0, -EINVAL (a metric no case has),
 * -ENOMEM. */
static int one_cell(FILE *f, const struct res_file *rf, const struct pv_req *rq,
		    enum grid_fmt fmt, const char *title, char *err, size_t errlen)
{
	for (size_t i = 0; i < rq->nmetrics; i++)
		if (!res_has_metric(rf, rq->metrics[i]))
			return fail(err, errlen, "--metric %s: no case in %s has this metric",
				    rq->metrics[i], rf->path);
	struct grid *g = grid_new(3);
	if (!g || grid_add_row(g) < 0) {
		grid_free(g);
		return -ENOMEM;
	}
	grid_set(g, 0, 0, "metric");
	grid_set(g, 0, 1, "median");
	grid_set(g, 0, 2, "n");
	g->align[1] = g->align[2] = 'r';
	size_t nm = rq->nmetrics ? rq->nmetrics : rf->nmetrics, flagged = 0;
	int rc = 0;
	for (size_t i = 0; i < nm && !rc; i++) {
		const char *m = rq->nmetrics ? rq->metrics[i] : rf->metrics[i];
		struct res_stats st;
		if (res_cell_stats(rf, 0, m, &st, NULL)) {
			rc = -ENOMEM;
			break;
		}
		if (!st.s.n && !rq->nmetrics)
			continue;   /* null everywhere: not this method's */
		long r = grid_add_row(g);
		char v[64];
		if (r < 0 || grid_set(g, (size_t)r, 0, m) ||
		    grid_setf(g, (size_t)r, 1, "%s%s", st.s.n ? (fmt == GRID_CSV
				 ? pv_raw(st.s.median, v, sizeof(v))
				 : (snprintf(v, sizeof(v), "%.6g", st.s.median), v)) : "",
			      st.flagged && fmt != GRID_CSV ? "*" : "") ||
		    grid_setf(g, (size_t)r, 2, "%zu", st.s.n))
			rc = -ENOMEM;
		flagged += st.flagged > 0;
	}
	if (!rc) {
		char cap[256];
		snprintf(cap, sizeof(cap), "one cell (no axis swept): %zu case%s", rf->ncases,
			 rf->ncases == 1 ? "" : "s");
		if (fmt != GRID_CSV && (!title || *title))
			note_line(f, fmt, title ? title : cap);
		if (fmt == GRID_MD)
			fputc('\n', f);
		grid_print(f, g, fmt);
		if (flagged && fmt != GRID_CSV)
			note_line(f, fmt, "* includes flagged repetitions (ppslab report lists "
				  "their flags)");
	}
	grid_free(g);
	return rc == -ENOMEM ? fmt_err(rc, err, errlen, "out of memory") : rc;
}

void pv_deviations_print(FILE *f, const struct res_file *rf, enum grid_fmt fmt)
{
	const json_t *l = res_get(rf->root, "method", "rfc2544_deviations", NULL);
	size_t i;
	const json_t *d;
	if (fmt == GRID_CSV || !json_array_size(l))
		return;
	if (fmt == GRID_MD)
		fputc('\n', f);
	note_line(f, fmt, "Deviations from RFC 2544:");
	json_array_foreach(l, i, d) {
		char line[1024];
		if (!json_is_string(d))
			continue;
		snprintf(line, sizeof(line), "%s %s", fmt == GRID_TEXT ? "  -" : "-",
			 json_string_value(d));
		if (fmt == GRID_HTML)
			note_line(f, fmt, line + 2);
		else
			fprintf(f, "%s\n", line);
	}
}

int pv_table_print(FILE *f, const struct res_file *rf, const struct pv_req *rq,
		   enum grid_fmt fmt, const char *title, char *err, size_t errlen)
{
	struct pivot *pv = NULL;
	int r;
	if (!rf->naxes && rf->ncells == 1 && !rq->rows && !rq->cols && !rq->nspec && !(rq->where && rq->where->n)) {
		if ((r = one_cell(f, rf, rq, fmt, title, err, errlen)))
			return r;
	} else {
		if ((r = pv_build(rf, rq, &pv, err, errlen)))
			return r;
		pv_print(f, pv, fmt, title);
		pv_free(pv);
	}
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
