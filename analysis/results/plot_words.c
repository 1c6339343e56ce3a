// SPDX-License-Identifier: BSD-2-Clause
/* plot_words.c — the top of the plot files, calling down to plot_results (plot_kinds.c):
 * a typed request drawn and said (plot_draw), the names of kinds and error bars, and
 * `ppslab run`'s plot from the words of its profile's output.plot. */
#include "plot.h"

#include <errno.h>
#include <string.h>

#include "cli.h"
#include "fmt.h"

int plot_kind_parse(const char *s)
{
	static const char *names[] = { "line", "heatmap", "load", "framesize", "box", "latload",
				       "timeline" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

int plot_errors_parse(const char *s)
{
	return !strcmp(s, "minmax") ? PLOT_ERR_MINMAX : !strcmp(s, "stdev") ? PLOT_ERR_STDEV
	       : !strcmp(s, "none") ? PLOT_ERR_NONE : -1;
}

int plot_draw(const struct res_file *rf, struct plot_req *rq, int kind_given,
	      const struct plot_out *o, FILE *said, char *err, size_t errlen)
{
	if (!kind_given && !rq->y)
		plot_default_kind(rf, rq);
	if (!rf->naxes && rq->kind != PLOT_TIMELINE && rq->kind != PLOT_LATLOAD)
		return fmt_err(-EINVAL, err, errlen, "%s: no axis was swept (one cell): nothing to "
			       "draw a metric against; `ppslab table` shows its metrics", rf->path);
	int r = plot_results(rf, rq, o, err, errlen);
	if (r || !o->path)
		return r;
	const char *p = o->path, *dot = strrchr(p, '.');
	fprintf(said, "wrote %s (gnuplot script %.*s.gp, data %.*s.dat)\n", p,
		(int)(dot - p), p, (int)(dot - p), p);
	return 0;
}

int plot_results_text(const char *path, const struct plot_text *t, FILE *said, char *err,
		      size_t errlen)
{
	struct plot_req rq = { .x = t->x, .y = t->y, .by = t->by, .title = t->title };
	struct plot_out out = { .path = t->output };
	struct strlist metrics = { 0 };
	struct res_sel where = { 0 };
	struct res_file *rf = NULL;
	int kind = t->kind ? plot_kind_parse(t->kind) : PLOT_LINE, rc = 0;
	if (kind < 0)
		rc = cli_bad_text(err, errlen, "kind", t->kind, PLOT_KIND_NAMES);
	else if (t->metric && strlist_add_csv(&metrics, t->metric))
		rc = fmt_err(-ENOMEM, err, errlen, "out of memory");
	else if (t->where)
		rc = res_sel_opt(&where, t->where, err, errlen);
	rq.kind = (enum plot_kind)kind;
	rq.metrics = (const char *const *)metrics.v;
	rq.nmetrics = metrics.n;
	rq.where = &where;
	if (!rc && !(rc = res_load(path, &rf, err, errlen)))
		rc = plot_draw(rf, &rq, t->kind != NULL, &out, said, err, errlen);
	res_free(rf);
	strlist_free(&metrics);
	res_sel_free(&where);
	return rc;
}
