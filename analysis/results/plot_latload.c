// SPDX-License-Identifier: BSD-2-Clause
/* plot_latload.c — the latency-at-load figure (see plot_write.h): RFC 8219's typical
 * latency (the median, a solid line) and worst-case latency (the 99.9th percentile,
 * dashed, in the same colour) against the load in percent of the NDR, a line per frame
 * size (and per cell and stream where there are several); over repetitions, the
 * median of each point. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "latload.h"
#include "plot_write.h"
#include "stats.h"

/* A line: the points of one cell, stream and size. */
static int same_line(const struct res_file *rf, const struct lat_point *a,
		     const struct lat_point *b)
{
	return rf->cases[a->cs].cell == rf->cases[b->cs].cell && a->stream == b->stream &&
	       a->size == b->size;
}

static int by_line_then_load(const struct lat_point *a, const struct lat_point *b,
			     const struct res_file *rf)
{
	size_t ca = rf->cases[a->cs].cell, cb = rf->cases[b->cs].cell;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->load_pct < b->load_pct ? -1 : a->load_pct > b->load_pct;
}

/* qsort_r is not everywhere: a stable insertion sort, the points are few */
static void sort_points(struct lat_point *p, size_t n, const struct res_file *rf)
{
	for (size_t i = 1; i < n; i++) {
		struct lat_point t = p[i];
		size_t j = i;
		while (j > 0 && by_line_then_load(&p[j - 1], &t, rf) > 0) {
			p[j] = p[j - 1];
			j--;
		}
		p[j] = t;
	}
}

static void line_label(const struct res_file *rf, const struct lat_point *p, int cells,
		       int streams, char *buf, size_t len)
{
	int w = p->size >= 0 ? snprintf(buf, len, "size %ld", p->size)
		: snprintf(buf, len, "all sizes");
	if (cells && w > 0 && (size_t)w < len)
		w += snprintf(buf + w, len - (size_t)w, ", %s", rf->cells[rf->cases[p->cs].cell].key);
	if (streams && p->stream >= 0 && w > 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, ", stream %ld", p->stream);
}

int plot_write_latload(struct fig *f, struct files *fs, const struct plot_out *o, char *err,
		       size_t errlen)
{
	const struct res_file *rf = f->rf;
	struct lat_point *pt;
	size_t n;
	if (lat_points(rf, f->rq->where, &pt, &n))
		return fmt_err(-ENOMEM, err, errlen, "out of memory");
	if (!n) {
		free(pt);
		return fmt_err(-EINVAL, err, errlen, "--kind latload: %s has no latency at load "
			       "(trial.latency_loads)", rf->path);
	}
	sort_points(pt, n, rf);
	int cells = 0, streams = 0;
	/* a line says its cell where two cells have a line of the same size */
	for (size_t i = 1; i < n; i++) {
		streams |= pt[i].stream != pt[0].stream;
		for (size_t j = 0; j < i && !cells; j++)
			cells = pt[i].size == pt[j].size &&
				rf->cases[pt[i].cs].cell != rf->cases[pt[j].cs].cell;
	}
	double *ty = malloc(n * sizeof(*ty)), *wo = malloc(n * sizeof(*wo));
	if (!ty || !wo) {
		free(ty);
		free(wo);
		free(pt);
		return fmt_err(-ENOMEM, err, errlen, "out of memory");
	}
	/* a block a line: load %, then the medians over repetitions of typical and worst */
	size_t nlines = 0;
	char (*labels)[192] = calloc(n, sizeof(*labels));
	for (size_t i = 0; labels && i < n;) {
		size_t j = i;
		if (nlines)
			fputs("\n\n", fs->dat);
		line_label(rf, &pt[i], cells, streams, labels[nlines], sizeof(labels[0]));
		fputs("# load_pct typical_us worst_case_us\n", fs->dat);
		while (j < n && same_line(rf, &pt[i], &pt[j])) {
			size_t k = j, m = 0, mw = 0;
			for (; k < n && same_line(rf, &pt[i], &pt[k]) && pt[k].load_pct == pt[j].load_pct;
			     k++) {
				if (!isnan(pt[k].typical_ns))
					ty[m++] = pt[k].typical_ns / 1e3;
				if (!isnan(pt[k].worst_ns))
					wo[mw++] = pt[k].worst_ns / 1e3;
			}
			plot_dat_num(fs->dat, pt[j].load_pct);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, m ? st_median(ty, m) : NAN);
			fputc(' ', fs->dat);
			plot_dat_num(fs->dat, mw ? st_median(wo, mw) : NAN);
			fputc('\n', fs->dat);
			j = k;
		}
		nlines++;
		i = j;
	}
	free(ty);
	free(wo);
	free(pt);
	if (!labels)
		return fmt_err(-ENOMEM, err, errlen, "out of memory");
	char sub[512], foot[512];
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, f->rq->title ? f->rq->title
		       : "Latency at load: typical (median, solid) and worst-case (p99.9, dashed)",
		       sub, foot, NULL);
	FILE *gp = fs->gp;
	plot_gp_set_str(gp, "xlabel", "load (% of the NDR)");
	plot_gp_set_str(gp, "ylabel", "one-way latency (µs)");
	fputs("set xrange [-5:105]\nset yrange [0:*]\nset xtics 0,10,100\n", gp);
	fputs("plot ", gp);
	for (size_t l = 0; l < nlines; l++) {
		char t[256];
		plot_gp_dat_ref(gp, fs, l == 0);
		fprintf(gp, " index %zu u 1:2 w linespoints lw 2 pt 7 lc %zu ", l, l + 1);
		snprintf(t, sizeof(t), "%s typical", labels[l]);
		plot_gp_title(gp, 1, t);
		plot_gp_dat_ref(gp, fs, 0);
		fprintf(gp, " index %zu u 1:3 w linespoints lw 1 dt 2 pt 6 lc %zu ", l, l + 1);
		snprintf(t, sizeof(t), "%s worst-case", labels[l]);
		plot_gp_title(gp, 1, t);
	}
	fputc('\n', gp);
	free(labels);
	return 0;
}
