// SPDX-License-Identifier: BSD-2-Clause
/* latload.c — RFC 8219 latency figures from the sink's histograms (see latload.h) */
#include "latload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "grid.h"
#include "results.h"

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

int lat_fig_of(const json_t *hist, struct lat_fig *f, char *err, size_t len)
{
	f->count = num(hist, "count");
	f->min_ns = num(hist, "min");
	f->typical_ns = num(hist, "p50");
	f->worst_ns = num(hist, "p999");
	f->pdv_ns = NAN;
	if (!(f->count > 0)) {
		snprintf(err, len, "no one-way delay was measured");
		return -ENODATA;
	}
	if (isnan(f->min_ns) || isnan(f->typical_ns) || isnan(f->worst_ns)) {
		snprintf(err, len, "the histogram lacks its min, p50 or p999");
		return -EINVAL;
	}
	if (f->min_ns < 0 || f->typical_ns < f->min_ns || f->worst_ns < f->typical_ns) {
		snprintf(err, len, "the histogram's figures are not ordered (min %.0f, p50 %.0f, "
			 "p999 %.0f ns)", f->min_ns, f->typical_ns, f->worst_ns);
		return -EINVAL;
	}
	f->pdv_ns = f->worst_ns - f->min_ns;
	return 0;
}

static int add_row(json_t *rows, const json_t *stream, const json_t *size, const json_t *h)
{
	struct lat_fig f;
	char err[200];
	int rc = lat_fig_of(h, &f, err, sizeof(err));
	if (rc == -ENODATA)
		return 0;
	json_t *o = json_pack("{s:O,s:O}", "stream", stream ? stream : json_null(), "size",
			      size ? size : json_null());
	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "count", json_real(f.count));
	if (rc) {
		json_object_set_new(o, "error", json_string(err));
	} else {
		json_object_set_new(o, "min_ns", json_real(f.min_ns));
		json_object_set_new(o, "typical_ns", json_real(f.typical_ns));
		json_object_set_new(o, "worst_ns", json_real(f.worst_ns));
		json_object_set_new(o, "pdv_ns", json_real(f.pdv_ns));
	}
	return json_array_append_new(rows, o) ? -ENOMEM : 0;
}

json_t *lat_rows(const json_t *sinks)
{
	json_t *rows = json_array();
	size_t i, j, k;
	const json_t *s, *st, *e;
	if (!rows)
		return NULL;
	json_array_foreach(sinks, i, s) {
		json_array_foreach(json_object_get(s, "streams"), j, st) {
			const json_t *id = json_object_get(st, "stream");
			const json_t *bs = json_object_get(st, "latency_by_size");
			int rc = 0;
			if (!json_is_array(bs))
				rc = add_row(rows, id, NULL, json_object_get(st, "latency_ns"));
			json_array_foreach(bs, k, e)
				if (!rc)
					rc = add_row(rows, id, json_object_get(e, "size"), e);
			if (rc) {
				json_decref(rows);
				return NULL;
			}
		}
	}
	return rows;
}

static long intval(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_integer(v) ? (long)json_integer_value(v)
	       : json_is_real(v) ? (long)json_real_value(v) : -1;
}

int lat_points(const struct res_file *rf, const struct res_sel *where,
	       struct lat_point **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (size_t c = 0; c < rf->ncases; c++) {
		const struct res_case *rc = &rf->cases[c];
		if (where && !res_params_match(rc->params, where))
			continue;
		size_t i, j;
		const json_t *e, *row;
		json_array_foreach(json_object_get(rc->obj, "latency_at_load"), i, e) {
			const json_t *rows = json_object_get(e, "latency");
			json_array_foreach(rows, j, row) {
				if (*n == cap) {
					size_t nc = cap ? 2 * cap : 16;
					struct lat_point *np = realloc(*out, nc * sizeof(*np));
					if (!np) {
						free(*out);
						*out = NULL;
						*n = 0;
						return -ENOMEM;
					}
					*out = np;
					cap = nc;
				}
				struct lat_point *p = &(*out)[(*n)++];
				const json_t *er = json_object_get(row, "error");
				p->cs = c;
				p->load_pct = num(e, "load_pct");
				p->load_pps = num(e, "intended_pps");
				p->stream = intval(row, "stream");
				p->size = intval(row, "size");
				p->count = num(row, "count");
				p->typical_ns = num(row, "typical_ns");
				p->worst_ns = num(row, "worst_ns");
				p->pdv_ns = num(row, "pdv_ns");
				p->note = json_is_string(er) ? json_string_value(er) : NULL;
			}
		}
	}
	return 0;
}

static void us(struct grid *g, size_t r, size_t col, double ns)
{
	if (isnan(ns))
		grid_set(g, r, col, "-");
	else
		grid_setf(g, r, col, "%.1f", ns / 1e3);
}

struct grid *lat_grid(const struct res_file *rf, const struct res_sel *where)
{
	static const char *const head[] = { "case", "rep", "load %", "size", "stream",
					    "load pps", "typical us", "worst-case us", "PDV us",
					    "frames" };
	struct lat_point *pt;
	size_t n;
	if (lat_points(rf, where, &pt, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	if (!n) {
		errno = ENOENT;
		return NULL;
	}
	struct grid *g = grid_new(10);
	if (!g) {
		free(pt);
		errno = ENOMEM;
		return NULL;
	}
	long r = grid_add_row(g);
	for (size_t k = 0; k < 10 && r >= 0; k++) {
		grid_set(g, 0, k, head[k]);
		g->align[k] = k ? 'r' : 'l';
	}
	for (size_t i = 0; i < n && r >= 0; i++) {
		const struct lat_point *p = &pt[i];
		const struct res_case *c = &rf->cases[p->cs];
		if ((r = grid_add_row(g)) < 0)
			break;
		size_t R = (size_t)r;
		grid_set(g, R, 0, rf->cells[c->cell].key);
		grid_setf(g, R, 1, "%d", c->rep);
		grid_setf(g, R, 2, "%g", p->load_pct);
		if (p->size >= 0)
			grid_setf(g, R, 3, "%ld", p->size);
		else
			grid_set(g, R, 3, "all");
		if (p->stream >= 0)
			grid_setf(g, R, 4, "%ld", p->stream);
		grid_setf(g, R, 5, "%.0f", p->load_pps);
		us(g, R, 6, p->typical_ns);
		us(g, R, 7, p->worst_ns);
		us(g, R, 8, p->pdv_ns);
		grid_setf(g, R, 9, "%.0f", p->count);
	}
	free(pt);
	if (r < 0) {
		grid_free(g);
		errno = ENOMEM;
		return NULL;
	}
	return g;
}
