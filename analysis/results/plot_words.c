// SPDX-License-Identifier: BSD-2-Clause
/* plot_words.c — a plot asked for in the words of `ppslab plot`'s options: the top of
 * the plot files, calling down to plot_results (plot_kinds.c). */
#include "plot.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "fmt.h"
#include "num.h"

int plot_kind_parse(const char *s)
{
	static const char *names[] = { "line", "heatmap", "load", "framesize", "box" };
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

/* "10G", "2.5G", "100M", also with bit/bps/bit/s. */
static int parse_link(const char *s, double *bps)
{
	if (!num_bps(s, bps))
		return 0;
	char buf[64];
	snprintf(buf, sizeof(buf), "%sbit", s);
	return num_bps(buf, bps);
}

static int parse_size(const char *name, const char *arg, struct plot_out *o, char *err,
		      size_t errlen)
{
	char w[32];
	const char *x = strchr(arg, 'x');
	uint64_t wv, hv;
	if (!x || (size_t)(x - arg) >= sizeof(w))
		return cli_bad_text(err, errlen, name, arg, "WIDTHxHEIGHT, e.g. 1200x700");
	snprintf(w, sizeof(w), "%.*s", (int)(x - arg), arg);
	if (num_u64(w, 20, 10000, &wv) || num_u64(x + 1, 10, 10000, &hv))
		return cli_bad_text(err, errlen, name, arg,
				    "WIDTHxHEIGHT, e.g. 1200x700 (20..10000)");
	o->width = (int)wv;
	o->height = (int)hv;
	return 0;
}

int plot_words_set(struct plot_words *w, const char *name, const char *arg, char *err,
		   size_t errlen)
{
	int v;
	if (!strcmp(name, "kind")) {
		if ((v = plot_kind_parse(arg)) < 0)
			return cli_bad_text(err, errlen, "kind", arg,
					    "line, heatmap, load, framesize or box");
		w->rq.kind = (enum plot_kind)v;
		w->kind_given = 1;
	} else if (!strcmp(name, "x")) {
		w->rq.x = arg;
	} else if (!strcmp(name, "y")) {
		w->rq.y = arg;
	} else if (!strcmp(name, "by")) {
		w->rq.by = arg;
	} else if (!strcmp(name, "metric")) {
		if (strlist_add_csv(&w->metrics, arg))
			return fmt_err(-ENOMEM, err, errlen, "out of memory");
	} else if (!strcmp(name, "where")) {
		return res_sel_opt(&w->where, arg, err, errlen);
	} else if (!strcmp(name, "errors")) {
		if ((v = plot_errors_parse(arg)) < 0)
			return cli_bad_text(err, errlen, "errors", arg, "minmax, stdev or none");
		w->rq.errors = (enum plot_errors)v;
	} else if (!strcmp(name, "link")) {
		if (parse_link(arg, &w->rq.link_bps))
			return cli_bad_text(err, errlen, "link", arg,
					    "a link speed such as 1G, 10G, 2.5G or 100M");
	} else if (!strcmp(name, "logx")) {
		w->rq.logx = 1;
	} else if (!strcmp(name, "logy")) {
		w->rq.logy = 1;
	} else if (!strcmp(name, "title")) {
		w->rq.title = arg;
	} else if (!strcmp(name, "output")) {
		w->out.path = arg;
	} else if (!strcmp(name, "size") || !strcmp(name, "image-size")) {
		return parse_size(name, arg, &w->out, err, errlen);
	} else {
		return fmt_err(-ENOENT, err, errlen, "--%s: not an option of the plot", name);
	}
	return 0;
}

int plot_words_draw(const struct res_file *rf, struct plot_words *w, FILE *said, char *err,
		    size_t errlen)
{
	w->rq.metrics = (const char *const *)w->metrics.v;
	w->rq.nmetrics = w->metrics.n;
	w->rq.where = &w->where;
	if (!w->kind_given && !w->rq.y)
		plot_default_kind(rf, &w->rq);
	int r = plot_results(rf, &w->rq, &w->out, err, errlen);
	if (r || !w->out.path)
		return r;
	const char *p = w->out.path, *dot = strrchr(p, '.');
	fprintf(said, "wrote %s (gnuplot script %.*s.gp, data %.*s.dat)\n", p,
		(int)(dot - p), p, (int)(dot - p), p);
	return 0;
}

void plot_words_free(struct plot_words *w)
{
	strlist_free(&w->metrics);
	res_sel_free(&w->where);
}

int plot_results_text(const char *path, const struct plot_text *t, FILE *said, char *err,
		      size_t errlen)
{
	const struct { const char *name, *arg; } word[] = {
		{ "kind", t->kind }, { "x", t->x }, { "y", t->y }, { "by", t->by },
		{ "metric", t->metric }, { "where", t->where }, { "title", t->title },
		{ "output", t->output },
	};
	struct plot_words w = { .rq = { .kind = PLOT_LINE } };
	struct res_file *rf = NULL;
	int rc = 0;
	for (size_t i = 0; i < sizeof(word) / sizeof(word[0]) && !rc; i++)
		if (word[i].arg)
			rc = plot_words_set(&w, word[i].name, word[i].arg, err, errlen);
	if (!rc && !(rc = res_load(path, &rf, err, errlen)))
		rc = plot_words_draw(rf, &w, said, err, errlen);
	res_free(rf);
	plot_words_free(&w);
	return rc;
}
