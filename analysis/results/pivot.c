/* SPDX-License-Identifier: BSD-2-Clause */
/* pivot.c — laying a metric out over two axes (see pivot.h). Called by
 * pivot_words.c, plot_fig.c, plot_heatmap.c, model.c, report_doc.c and report_plot.c;
 * everything printed goes through grid.c. */
#include "pivot.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "names.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

int pv_colspec_parse(const char *text, struct pv_colspec *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	const char *eq = strchr(text, '=');
	if (!eq || eq == text)
		return fail(err, errlen, "column '%s': expected LABEL=[AXIS=VALUE[&...]][:METRIC]",
			    text);
	char *body = strdup(eq + 1);
	out->label = strndup(text, (size_t)(eq - text));
	if (!body || !out->label) {
		free(body);
		free(out->label);
		return -ENOMEM;
	}
	int rc = 0;
	char *colon = strrchr(body, ':');
	if (colon) {
		*colon = 0;
		if (!colon[1]) {
			rc = fail(err, errlen, "column '%s': empty metric after ':'", text);
			goto out;
		}
		if (!(out->metric = strdup(colon + 1))) {
			rc = -ENOMEM;
			goto out;
		}
	}
	char *save = NULL;
	for (char *t = strtok_r(body, "&", &save); t; t = strtok_r(NULL, "&", &save)) {
		char *e = strchr(t, '=');
		if (!e || e == t || !e[1]) {
			rc = fail(err, errlen, "column '%s': '%s' is not AXIS=VALUE", text, t);
			goto out;
		}
		*e = 0;
		if ((rc = res_sel_add(&out->filt, t, e + 1)))
			goto out;
	}
	if (!out->filt.n && !out->metric)
		rc = fail(err, errlen, "column '%s': expected AXIS=VALUE conditions, a :METRIC "
			  "or both after the label", text);
out:
	free(body);
	if (rc) {
		free(out->label);
		free(out->metric);
		res_sel_free(&out->filt);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

int pv_colspecs_parse(const char *text, struct pv_colspec **out, size_t *n, char *err,
		      size_t errlen)
{
	char *dup = strdup(text), *save = NULL;
	if (!dup)
		return -ENOMEM;
	int rc = 0;
	for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		struct pv_colspec *g = realloc(*out, (*n + 1) * sizeof(*g));
		if (!g) {
			rc = -ENOMEM;
			break;
		}
		*out = g;
		if (!(rc = pv_colspec_parse(t, &g[*n], err, errlen)))
			(*n)++;
	}
	free(dup);
	return rc;
}

void pv_colspecs_free(struct pv_colspec *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].label);
		free(s[i].metric);
		res_sel_free(&s[i].filt);
	}
	free(s);
}

void pv_free(struct pivot *pv)
{
	if (!pv)
		return;
	for (size_t i = 0; i < pv->ncols; i++) {
		free(pv->cols[i].label);
		free(pv->cols[i].metric);
		res_sel_free(&pv->cols[i].filt);
	}
	for (size_t b = 0; b < pv->nblocks; b++) {
		free(pv->blocks[b].label);
		res_sel_free(&pv->blocks[b].fixed);
		free(pv->blocks[b].rows);
		free(pv->blocks[b].cells);
	}
	free(pv->cols);
	free(pv->blocks);
	free(pv->row_axis);
	free(pv->row_label);
	free(pv->fixed);
	free(pv->decimals);
	json_decref(pv->reasons);
	json_decref(pv->own_row);
	free(pv);
}

/* A selection compiled against the file: per condition its axis and which of the
 * axis' values match it (res_value_matches), so that a cell is matched by comparing
 * value indices — what keeps a pivot linear in cells. */
struct csel {
	size_t n;
	long *axis;              /* -1: the file has no such axis, nothing matches */
	unsigned char **ok;      /* per condition: ok[value index] */
};

static void csel_free(struct csel *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		free(cs->ok[i]);
	free(cs->ok);
	free(cs->axis);
	memset(cs, 0, sizeof(*cs));
}

static int csel_make(const struct res_file *rf, const struct res_sel *s, struct csel *cs)
{
	memset(cs, 0, sizeof(*cs));
	size_t n = s ? s->n : 0;
	cs->axis = calloc(n + 1, sizeof(*cs->axis));
	cs->ok = calloc(n + 1, sizeof(*cs->ok));
	if (!cs->axis || !cs->ok) {
		csel_free(cs);
		return -ENOMEM;
	}
	cs->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct res_axis *ax = res_axis(rf, s->c[i].axis);
		cs->axis[i] = ax ? ax - rf->axes : -1;
		if (!ax)
			continue;
		if (!(cs->ok[i] = calloc(ax->nvalues + 1, 1))) {
			csel_free(cs);
			return -ENOMEM;
		}
		for (size_t v = 0; v < ax->nvalues; v++)
			cs->ok[i][v] = (unsigned char)res_value_matches(ax->values[v], s->c[i].value);
	}
	return 0;
}

static bool csel_match(const struct res_file *rf, const struct csel *cs, size_t cell)
{
	for (size_t i = 0; i < cs->n; i++) {
		if (cs->axis[i] < 0)
			return false;
		long vi = rf->cells[cell].vi[cs->axis[i]];
		if (vi < 0 || !cs->ok[i][vi])
			return false;
	}
	return true;
}

/* Distinct values of axis among cells matching where (in the axis' order): one pass
 * over the cells. 0 also when out of memory (nothing to show). */
static size_t axis_values_in(const struct res_file *rf, const struct res_axis *ax,
			     const struct res_sel *where, json_t **out)
{
	struct csel w;
	unsigned char *mark = calloc(ax->nvalues + 1, 1);
	if (!mark || csel_make(rf, where, &w)) {
		free(mark);
		return 0;
	}
	size_t ai = (size_t)(ax - rf->axes), k = 0;
	for (size_t c = 0; c < rf->ncells; c++) {
		long vi = rf->cells[c].vi[ai];
		if (vi >= 0 && !mark[vi] && csel_match(rf, &w, c))
			mark[vi] = 1;
	}
	for (size_t v = 0; v < ax->nvalues; v++)
		if (mark[v]) {
			if (out)
				out[k] = ax->values[v];
			k++;
		}
	csel_free(&w);
	free(mark);
	return k;
}

static int sel_has_axis(const struct res_sel *s, const char *axis)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->c[i].axis, axis))
			return 1;
	return 0;
}

static int check_metric(const struct res_file *rf, const char *m, const char *what,
			char *err, size_t errlen)
{
	if (res_has_metric(rf, m))
		return 0;
	char list[600];
	size_t o = 0;
	list[0] = 0;
	for (size_t i = 0; i < rf->nmetrics && o + 40 < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "",
				      rf->metrics[i]);
	if (o + 40 >= sizeof(list))
		snprintf(list + o, sizeof(list) - o, ", …");
	return fail(err, errlen, "%s %s: no case in %s has this metric (metrics: %s)", what, m,
		    rf->path, rf->nmetrics ? list : "none");
}

static int check_axis(const struct res_file *rf, const char *a, const char *what, char *err,
		      size_t errlen)
{
	if (res_axis(rf, a))
		return 0;
	char list[512];
	size_t o = 0;
	list[0] = 0;
	for (size_t i = 0; i < rf->naxes && o + 40 < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "",
				      rf->axes[i].name);
	return fail(err, errlen, "%s %s: %s has no such axis (axes: %s)", what, a, rf->path,
		    rf->naxes ? list : "none");
}

static int add_col(struct pivot *pv, const char *label, const char *metric,
		   const struct res_sel *filt)
{
	struct pv_col *n = realloc(pv->cols, (pv->ncols + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	pv->cols = n;
	struct pv_col *c = &n[pv->ncols];
	memset(c, 0, sizeof(*c));
	c->label = strdup(label);
	c->metric = strdup(metric);
	if (!c->label || !c->metric) {
		free(c->label);
		free(c->metric);
		return -ENOMEM;
	}
	pv->ncols++;
	for (size_t i = 0; filt && i < filt->n; i++)
		if (res_sel_add(&c->filt, filt->c[i].axis, filt->c[i].value))
			return -ENOMEM;
	return 0;
}

/* Axis in which two cells differ, for the "matches several cells" message. */
static const char *differing_axis(const struct res_file *rf, long a, long b)
{
	for (size_t i = 0; i < rf->naxes; i++) {
		json_t *va = json_object_get(rf->cells[a].params, rf->axes[i].name);
		json_t *vb = json_object_get(rf->cells[b].params, rf->axes[i].name);
		if (!va || !vb || !res_value_eq(va, vb))
			return rf->axes[i].name;
	}
	return "?";
}

static int sel_text(const struct res_sel *s, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < s->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", i ? ", " : "", s->c[i].axis,
				      s->c[i].value);
	return 0;
}

/* Listed axes: every combination of their values that has data becomes a block, in
 * the order of their first cells. blk[c] is cell c's block, -1 when where leaves it
 * out. Sorting the cells by their values makes this O(n log n), not cells × blocks. */
struct blk_ent {
	const long *t;   /* the listed axes' value indices */
	size_t n, cell;
};

static int blk_cmp(const void *pa, const void *pb)
{
	const struct blk_ent *a = pa, *b = pb;
	for (size_t i = 0; i < a->n; i++)
		if (a->t[i] != b->t[i])
			return a->t[i] < b->t[i] ? -1 : 1;
	return (a->cell > b->cell) - (a->cell < b->cell);
}

struct blk_grp {
	size_t first, start, end;   /* its first cell; its entries in the sorted order */
};

static int grp_cmp(const void *pa, const void *pb)
{
	const struct blk_grp *a = pa, *b = pb;
	return (a->first > b->first) - (a->first < b->first);
}

static int make_blocks(struct pivot *pv, const struct res_sel *where, char **listed,
		       size_t nlisted, long *blk)
{
	const struct res_file *rf = pv->rf;
	struct csel w;
	if (csel_make(rf, where, &w))
		return -ENOMEM;
	long *tup = malloc((rf->ncells * nlisted + 1) * sizeof(*tup));
	struct blk_ent *e = malloc((rf->ncells + 1) * sizeof(*e));
	struct blk_grp *g = malloc((rf->ncells + 1) * sizeof(*g));
	int rc = -ENOMEM;
	if (!tup || !e || !g)
		goto out;
	size_t ne = 0, ng = 0;
	for (size_t c = 0; c < rf->ncells; c++) {
		blk[c] = -1;
		if (!csel_match(rf, &w, c))
			continue;
		long *t = tup + ne * nlisted;
		for (size_t i = 0; i < nlisted; i++) {
			const struct res_axis *ax = res_axis(rf, listed[i]);
			t[i] = ax ? rf->cells[c].vi[ax - rf->axes] : -1;
		}
		e[ne++] = (struct blk_ent){ .t = t, .n = nlisted, .cell = c };
	}
	qsort(e, ne, sizeof(*e), blk_cmp);
	for (size_t i = 0; i < ne; i++) {
		if (i && !memcmp(e[i].t, e[i - 1].t, nlisted * sizeof(long))) {
			g[ng - 1].end = i + 1;
			continue;
		}
		g[ng++] = (struct blk_grp){ .first = e[i].cell, .start = i, .end = i + 1 };
	}
	qsort(g, ng, sizeof(*g), grp_cmp);   /* blocks in the order of their first cells */
	if (ng && !(pv->blocks = calloc(ng, sizeof(*pv->blocks))))
		goto out;
	for (size_t k = 0; k < ng; k++) {
		struct pv_block *nb = &pv->blocks[pv->nblocks++];
		const json_t *p = rf->cells[g[k].first].params;
		char val[256];
		for (size_t i = 0; i < nlisted; i++) {
			json_t *v = json_object_get(p, listed[i]);
			if (res_sel_add(&nb->fixed, listed[i],
					v ? res_value_str(v, val, sizeof(val)) : "null"))
				goto out;
		}
		char label[1024];
		sel_text(&nb->fixed, label, sizeof(label));
		if (!(nb->label = strdup(label)))
			goto out;
		for (size_t i = g[k].start; i < g[k].end; i++)
			blk[e[i].cell] = (long)k;
	}
	rc = 0;
out:
	free(tup);
	free(e);
	free(g);
	csel_free(&w);
	if (rc)
		return rc;
	if (!pv->nblocks) {
		/* nothing matches: one empty block so the caller can say so */
		if (!(pv->blocks = calloc(1, sizeof(*pv->blocks))) ||
		    !(pv->blocks[0].label = strdup("")))
			return -ENOMEM;
		pv->nblocks = 1;
	}
	return 0;
}

/* Which axes still vary among the cells matching where, excluding the used ones. */
static size_t varying_axes(const struct res_file *rf, const struct res_sel *where,
			   const char **used, size_t nused, char **out)
{
	size_t k = 0;
	for (size_t a = 0; a < rf->naxes; a++) {
		int skip = sel_has_axis(where, rf->axes[a].name);
		for (size_t u = 0; u < nused; u++)
			skip |= used[u] && !strcmp(used[u], rf->axes[a].name);
		if (!skip && axis_values_in(rf, &rf->axes[a], where, NULL) > 1)
			out[k++] = rf->axes[a].name;
	}
	return k;
}

/* A flag is "CHECK: detail", CHECK the name of the consistency check that failed, which
 * names what should hold ("poll clock kept time"). A reader of a table or figure is told
 * what went wrong instead, so that a failure never reads as a pass; the results file
 * keeps the check's name. Unknown names (newer checks, other flags) stay as they are. */
static const char *failed_check_words(const char *name, size_t len)
{
	static const struct { const char *check, *failed; } tab[] = {
		{ "offered load", "offered load missed its target" },
		{ "sent = received + lost", "frames unaccounted for (sent ≠ received + lost)" },
		{ "sink clean", "sink dropped or damaged frames" },
		{ "sinks saw the traffic", "a sink saw too little of the traffic" },
		{ "forwarder adds up", "forwarder's counters do not add up" },
		{ "forwarder vs sink", "sink counted more than the forwarder forwarded" },
		{ "ruleset executed", "firewall rules did not run" },
		{ "components ok", "a tool failed" },
		{ "forwarded <= offered", "forwarded more than offered" },
		{ "fwd_pps method", "forwarding rate not from the interfaces' counters" },
		{ "poll clock kept time", "poll clock lost ticks" },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strlen(tab[i].check) == len && !strncmp(name, tab[i].check, len))
			return tab[i].failed;
	return NULL;
}

const char *pv_flag_words(const char *flag, char *buf, size_t len)
{
	size_t n = strcspn(flag, ":");
	const char *w = flag[n] == ':' ? failed_check_words(flag, n) : NULL;
	snprintf(buf, len, "%s%s", w ? w : "", w ? flag + n : flag);
	return buf;
}

int pv_add_reasons(json_t *reasons, const struct res_file *rf, size_t cell, const char *id)
{
	char key[128];
	for (size_t k = 0; k < rf->cells[cell].ncases; k++) {
		const struct res_case *c = &rf->cases[rf->cells[cell].cases[k]];
		size_t i;
		json_t *f;
		if (c->failed)
			continue;
		json_array_foreach(json_object_get(c->obj, "flags"), i, f) {
			const char *t = json_string_value(f);
			if (!t)
				continue;
			size_t n = strcspn(t, ":");
			snprintf(key, sizeof(key), "%.*s", (int)(n < sizeof(key) ? n : sizeof(key) - 1), t);
			json_t *e = json_object_get(reasons, key);
			if (!e) {
				char text[1024], safe[1024];   /* a tool's text: no control
								* character shown raw */
				e = json_pack("{s:{},s:s}", "cells", "text",
					      res_text_safe(pv_flag_words(t, text, sizeof(text)),
							    safe, sizeof(safe)));
				if (!e || json_object_set_new(reasons, key, e))
					return -ENOMEM;
			}
			if (json_object_set_new(json_object_get(e, "cells"), id, json_true()))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The reasons of a flagged cell's cases, for the footnote. */
static void note_reasons(struct pivot *pv, size_t cell)
{
	char id[32];
	if (!pv->reasons && !(pv->reasons = json_object()))
		return;
	snprintf(id, sizeof(id), "%zu", cell);
	pv_add_reasons(pv->reasons, pv->rf, cell, id);
}

struct row_ent {
	long block, row;   /* row: the row axis' value index */
	size_t cell;
};

static int row_cmp(const void *pa, const void *pb)
{
	const struct row_ent *a = pa, *b = pb;
	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	return (a->cell > b->cell) - (a->cell < b->cell);
}

/* Each block's rows (the row axis' values its cells have, in the axis' order) and its
 * cells: every cell lands in its block, row and the columns whose filter it matches —
 * one pass over the cells, sorted once; two cells in one place are refused. */
static int fill_cells(struct pivot *pv, const long *blk, char *err, size_t errlen)
{
	const struct res_file *rf = pv->rf;
	const struct res_axis *rax = res_axis(rf, pv->row_axis);   /* NULL: own_row */
	size_t ai = rax ? (size_t)(rax - rf->axes) : 0;
	pv->n_min = SIZE_MAX;
	pv->n_max = 0;
	struct row_ent *e = malloc((rf->ncells + 1) * sizeof(*e));
	struct csel *cf = calloc(pv->ncols + 1, sizeof(*cf));
	int rc = -ENOMEM;
	size_t ne = 0, i = 0;
	if (!e || !cf)
		goto out;
	for (size_t c = 0; c < pv->ncols; c++)
		if (csel_make(rf, &pv->cols[c].filt, &cf[c]))
			goto out;
	for (size_t c = 0; c < rf->ncells; c++)
		if (blk[c] >= 0 && (!rax || rf->cells[c].vi[ai] >= 0))
			e[ne++] = (struct row_ent){ .block = blk[c],
						    .row = rax ? rf->cells[c].vi[ai] : 0,
						    .cell = c };
	qsort(e, ne, sizeof(*e), row_cmp);
	for (size_t b = 0; b < pv->nblocks; b++) {
		struct pv_block *bl = &pv->blocks[b];
		size_t from = i;
		while (i < ne && e[i].block == (long)b)
			i++;
		bl->rows = calloc(i - from + 1, sizeof(*bl->rows));
		if (!bl->rows)
			goto out;
		for (size_t k = from; k < i; k++)
			if (k == from || e[k].row != e[k - 1].row)
				bl->rows[bl->nrows++] = rax ? rax->values[e[k].row] : pv->own_row;
		bl->cells = calloc(bl->nrows * pv->ncols + 1, sizeof(*bl->cells));
		if (!bl->cells)
			goto out;
		for (size_t k = 0; k < bl->nrows * pv->ncols; k++)
			bl->cells[k].cell = -1;
		for (size_t k = from, r = 0; k < i; k++) {
			if (k > from && e[k].row != e[k - 1].row)
				r++;
			for (size_t c = 0; c < pv->ncols; c++) {
				if (!csel_match(rf, &cf[c], e[k].cell))
					continue;
				struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
				if (pc->cell >= 0) {
					char rv[256];
					res_value_str(bl->rows[r], rv, sizeof(rv));
					rc = fail(err, errlen, "column '%s' at %s=%s matches several "
						  "cells: axis %s varies; fix it with --where or in "
						  "the column spec", pv->cols[c].label, pv->row_axis,
						  rv, differing_axis(rf, pc->cell, (long)e[k].cell));
					goto out;
				}
				pc->cell = (long)e[k].cell;
			}
		}
		for (size_t k = 0; k < bl->nrows * pv->ncols; k++) {
			struct pv_cell *pc = &bl->cells[k];
			if (pc->cell < 0)
				continue;
			size_t c = k % pv->ncols;
			if (res_cell_stats(rf, (size_t)pc->cell, pv->cols[c].metric, &pc->st, NULL))
				goto out;
			if (pc->st.s.n) {
				if (pc->st.s.n < pv->n_min)
					pv->n_min = pc->st.s.n;
				if (pc->st.s.n > pv->n_max)
					pv->n_max = pc->st.s.n;
			}
			pv->flagged_cells += pc->st.flagged > 0;
			if (pc->st.flagged)
				note_reasons(pv, (size_t)pc->cell);
		}
	}
	if (pv->n_min == SIZE_MAX)
		pv->n_min = 0;
	rc = 0;
out:
	for (size_t c = 0; cf && c < pv->ncols; c++)
		csel_free(&cf[c]);
	free(cf);
	free(e);
	return rc;
}

static int add_used(const char **used, size_t *n, const char *axis)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(used[i], axis))
			return 0;
	used[(*n)++] = axis;
	return 0;
}

static int is_ns(const char *metric)
{
	return !strcmp(name_unit(metric), "ns");
}

/* The matrix cells shown with a value and a failed repetition. 0 or -ENOMEM. */
static int count_failed(struct pivot *pv)
{
	unsigned char *seen = calloc(pv->rf->ncells + 1, 1);
	if (!seen)
		return -ENOMEM;
	for (size_t b = 0; b < pv->nblocks; b++)
		for (size_t i = 0; i < pv->blocks[b].nrows * pv->ncols; i++) {
			const struct pv_cell *pc = &pv->blocks[b].cells[i];
			if (pc->cell >= 0 && pc->st.s.n && pc->st.failed && !seen[pc->cell]) {
				seen[pc->cell] = 1;
				pv->failed_cells++;
			}
		}
	free(seen);
	return 0;
}

/* One unit for every nanosecond column of the table, from the largest value. */
static void ns_unit_of(struct pivot *pv)
{
	double maxabs = 0;
	for (size_t c = 0; c < pv->ncols; c++) {
		if (!is_ns(pv->cols[c].metric))
			continue;
		for (size_t b = 0; b < pv->nblocks; b++)
			for (size_t r = 0; r < pv->blocks[b].nrows; r++) {
				const struct pv_cell *pc = &pv->blocks[b].cells[r * pv->ncols + c];
				if (pc->cell >= 0 && pc->st.s.n)
					maxabs = fmax(maxabs, fmax(fabs(pc->st.s.max), fabs(pc->st.s.min)));
			}
	}
	pv->ns_div = maxabs >= 1e6 ? 1e6 : maxabs >= 1e3 ? 1e3 : 1;
	pv->ns_unit = maxabs >= 1e6 ? "ms" : maxabs >= 1e3 ? "µs" : "ns";
}

/* v with 3 significant digits and no exponent: 814, 12.3, 0.471. */
static char *sig3(double v, char *buf, size_t len)
{
	int dec = 0;
	if (v != 0 && isfinite(v)) {
		int digits = (int)floor(log10(fabs(v))) + 1;
		dec = 3 - digits;
		dec = dec < 0 ? 0 : dec > 4 ? 4 : dec;
	}
	return grid_num(v, dec, buf, len);
}

static void compute_decimals(struct pivot *pv, int fixed)
{
	for (size_t c = 0; c < pv->ncols; c++) {
		if (fixed >= 0) {
			pv->decimals[c] = fixed;
			continue;
		}
		double maxabs = 0;
		int integral = 1;
		for (size_t b = 0; b < pv->nblocks; b++)
			for (size_t r = 0; r < pv->blocks[b].nrows; r++) {
				const struct pv_cell *pc = &pv->blocks[b].cells[r * pv->ncols + c];
				if (pc->cell < 0 || !pc->st.s.n)
					continue;
				double v[] = { pc->st.s.median, pc->st.s.min, pc->st.s.max };
				for (size_t i = 0; i < 3; i++) {
					if (fabs(v[i]) > maxabs)
						maxabs = fabs(v[i]);
					integral &= v[i] == floor(v[i]);
				}
			}
		pv->decimals[c] = grid_decimals(maxabs, integral);
	}
}

/* What a request asks of the file: cases, --where, metrics, --rows, --cols and the
 * column specs name what exists; the axes they take are added to used. 0 or -EINVAL
 * with err set. */
static int pv_check(const struct res_file *rf, const struct pv_req *rq,
		    const char *const *metrics, size_t nmetrics, const struct res_sel *where,
		    const char **used, size_t *nused, char *err, size_t errlen)
{
	int rc;

	if (!rf->ncases)
		return fail(err, errlen, "%s: the file has no cases yet", rf->path);
	if ((rc = res_sel_check(rf, where, "--where", err, errlen)))
		return rc;
	size_t nmatch = 0;
	for (size_t c = 0; c < rf->ncells; c++)
		nmatch += res_params_match(rf->cells[c].params, where);
	if (!nmatch) {
		char w[512];
		sel_text(where, w, sizeof(w));
		return fail(err, errlen, "--where %s: no case in %s has all of these", w,
			    rf->path);
	}
	if (!rq->nspec || rq->nmetrics)
		for (size_t i = 0; i < nmetrics; i++)
			if ((rc = check_metric(rf, metrics[i], "--metric", err, errlen)))
				return rc;
	if (rq->cols && rq->nspec)
		return fail(err, errlen, "--cols: give an axis or column specs, not both");
	if (rq->rows) {
		if ((rc = check_axis(rf, rq->rows, "--rows", err, errlen)))
			return rc;
		add_used(used, nused, rq->rows);
	}
	if (rq->cols) {
		if ((rc = check_axis(rf, rq->cols, "--cols", err, errlen)))
			return rc;
		if (rq->rows && !strcmp(rq->rows, rq->cols))
			return fail(err, errlen, "--rows and --cols are both %s", rq->cols);
		add_used(used, nused, rq->cols);
	}
	for (size_t s = 0; s < rq->nspec; s++) {
		char what[300];
		snprintf(what, sizeof(what), "column '%s':", rq->spec[s].label);
		if (rq->spec[s].metric &&
		    (rc = check_metric(rf, rq->spec[s].metric, what, err, errlen)))
			return rc;
		if ((rc = res_sel_check(rf, &rq->spec[s].filt, what, err, errlen)))
			return rc;
		for (size_t i = 0; i < rq->spec[s].filt.n && *nused < 60; i++)
			add_used(used, nused, rq->spec[s].filt.c[i].axis);
	}
	return 0;
}

/* A column per value of the axis cols (per metric with several). 0 or -ENOMEM. */
static int axis_cols(struct pivot *pv, const char *cols, const struct res_sel *where,
		     const char *const *metrics, size_t nmetrics)
{
	const struct res_file *rf = pv->rf;
	const struct res_axis *ax = res_axis(rf, cols);
	json_t **vals = calloc(ax->nvalues + 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	size_t nv = axis_values_in(rf, ax, where, vals);
	for (size_t v = 0; v < nv; v++) {
		char val[256], label[600];
		res_value_str(vals[v], val, sizeof(val));
		struct res_sel f = { 0 };
		if (res_sel_add(&f, cols, val)) {
			free(vals);
			return -ENOMEM;
		}
		for (size_t m = 0; m < nmetrics; m++) {
			if (nmetrics > 1)
				snprintf(label, sizeof(label), "%s=%s %s", cols, val, metrics[m]);
			else
				snprintf(label, sizeof(label), "%s=%s", cols, val);
			if (add_col(pv, label, metrics[m], &f)) {
				res_sel_free(&f);
				free(vals);
				return -ENOMEM;
			}
		}
		res_sel_free(&f);
	}
	free(vals);
	return 0;
}

/* The axes not used with one value left, "a=1, b=x", into fixed. */
static void fixed_axes(const struct res_file *rf, const struct res_sel *where,
		       const char **used, size_t nused, char *fixed, size_t len)
{
	size_t fo = 0;
	fixed[0] = 0;
	for (size_t a = 0; a < rf->naxes; a++) {
		const struct res_axis *ax = &rf->axes[a];
		int skip = 0;
		for (size_t i = 0; i < nused; i++)
			skip |= !strcmp(used[i], ax->name);
		json_t *one[2];
		if (skip || axis_values_in(rf, ax, where, NULL) != 1)
			continue;
		axis_values_in(rf, ax, where, one);
		char val[256];
		fo += (size_t)snprintf(fixed + fo, len - fo, "%s%s=%s", fo ? ", " : "",
				       ax->name, res_value_str(one[0], val, sizeof(val)));
		if (fo >= len)
			break;
	}
}

int pv_build(const struct res_file *rf, const struct pv_req *rq, struct pivot **out,
	     char *err, size_t errlen)
{
	static const char *const def_metric[] = { "fwd_pps" }, *const def_b2b[] = { "b2b_frames" };
	/* a back-to-back run has no forwarding rate: its figure is the burst; an outage
	 * run's is its recipe's time (the rate is the load it held) */
	const char *def_outage[1] = { res_outage_metric(rf) };
	const char *const *metrics = rq->nmetrics ? rq->metrics
				   : def_outage[0] && res_metric_has_values(rf, def_outage[0])
				   ? def_outage
				   : !res_metric_has_values(rf, "fwd_pps") &&
				     res_metric_has_values(rf, "b2b_frames")
				   ? def_b2b : def_metric;
	size_t nmetrics = rq->nmetrics ? rq->nmetrics : 1;
	static const struct res_sel none = { 0 };
	const struct res_sel *where = rq->where ? rq->where : &none;
	int rc;

	const char *used[64];
	size_t nused = 0;
	if ((rc = pv_check(rf, rq, metrics, nmetrics, where, used, &nused, err, errlen)))
		return rc;

	struct pivot *pv = calloc(1, sizeof(*pv));
	if (!pv)
		return -ENOMEM;
	pv->rf = rf;
	pv->show = rq->show;
	rc = -ENOMEM;
	char *vary[64];
	const char *rows = rq->rows;
	if (!rows) {
		size_t nv = varying_axes(rf, where, used, nused, vary);
		if (nv) {
			rows = vary[0];
		} else {
			for (size_t a = 0; a < rf->naxes && !rows; a++) {
				int u = 0;
				for (size_t i = 0; i < nused; i++)
					u |= !strcmp(used[i], rf->axes[a].name);
				if (!u)
					rows = rf->axes[a].name;
			}
		}
		if (!rows && !rf->naxes && rf->ncells == 1 && !rq->cols && !rq->nspec) {
			/* one cell (a method run once on one router): one row */
			if (!(pv->own_row = json_string("all")))
				goto fail;
			rows = "";
		}
		if (!rows) {
			rc = fail(err, errlen, "%s: no axis left for the rows (axes: %zu); the cases "
				  "have no params", rf->path, rf->naxes);
			goto fail;
		}
		add_used(used, &nused, rows);
	}
	const char *cols = rq->cols;
	if (!cols && !rq->nspec && nmetrics == 1) {
		size_t nv = varying_axes(rf, where, used, nused, vary);
		if (nv) {
			cols = vary[0];
			add_used(used, &nused, cols);
		}
	}
	if (!(pv->row_axis = strdup(rows)) ||
	    !(pv->row_label = strdup(rq->row_label ? rq->row_label : pv->own_row ? "cell" : rows)))
		goto fail;

	if (rq->nspec) {
		for (size_t s = 0; s < rq->nspec; s++)
			if (add_col(pv, rq->spec[s].label,
				    rq->spec[s].metric ? rq->spec[s].metric : metrics[0],
				    &rq->spec[s].filt))
				goto fail;
	} else if (cols) {
		if (axis_cols(pv, cols, where, metrics, nmetrics))
			goto fail;
	} else {
		for (size_t m = 0; m < nmetrics; m++)
			if (add_col(pv, metrics[m], metrics[m], NULL))
				goto fail;
	}

	/* axes that still vary are listed as blocks; those with one value are captioned */
	char *listed[64];
	size_t nlisted = varying_axes(rf, where, used, nused, listed);
	char fixed[1024];
	fixed_axes(rf, where, used, nused, fixed, sizeof(fixed));
	if (!(pv->fixed = strdup(fixed)))
		goto fail;
	rc = -ENOMEM;
	long *blk = malloc((rf->ncells + 1) * sizeof(*blk));
	if (!blk)
		goto fail;
	rc = make_blocks(pv, where, listed, nlisted, blk);
	if (!rc)
		rc = fill_cells(pv, blk, err, errlen);
	free(blk);
	if (rc)
		goto fail;
	rc = -ENOMEM;
	if (!(pv->decimals = calloc(pv->ncols + 1, sizeof(*pv->decimals))))
		goto fail;
	compute_decimals(pv, rq->decimals);
	ns_unit_of(pv);
	if ((rc = count_failed(pv)))
		goto fail;
	*out = pv;
	return 0;
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	pv_free(pv);
	return rc;
}

char *pv_raw(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
	} else if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
	} else {
		for (int p = 6; p <= 17; p++) {
			snprintf(buf, len, "%.*g", p, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
	return buf;
}

char *pv_caption(const struct pivot *pv, char *buf, size_t len)
{
	size_t o = 0;
	int same = pv->ncols > 0;
	for (size_t c = 1; c < pv->ncols; c++)
		same &= !strcmp(pv->cols[c].metric, pv->cols[0].metric);
	buf[0] = 0;
	if (same)
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s, ", pv->cols[0].metric,
				      is_ns(pv->cols[0].metric) ? " in " : "",
				      is_ns(pv->cols[0].metric) ? pv->ns_unit : "");
	if (o >= len)
		return buf;
	if (!pv->n_max)
		o += (size_t)snprintf(buf + o, len - o, "no data");
	else if (pv->n_max == 1)
		o += (size_t)snprintf(buf + o, len - o, "single repetition");
	else if (pv->n_min == pv->n_max)
		o += (size_t)snprintf(buf + o, len - o, "median of %zu repetitions", pv->n_max);
	else
		o += (size_t)snprintf(buf + o, len - o, "median of %zu–%zu repetitions",
				      pv->n_min, pv->n_max);
	if (o < len && *pv->fixed)
		snprintf(buf + o, len - o, " (%s)", pv->fixed);
	return buf;
}

/* A number of column col: nanoseconds in the table's unit with 3 significant digits,
 * others with the column's decimals. */
static char *cell_num(const struct pivot *pv, size_t col, double v, char *buf, size_t len)
{
	if (is_ns(pv->cols[col].metric) && pv->ns_div > 0)
		return sig3(v / pv->ns_div, buf, len);
	return grid_num(v, pv->decimals[col], buf, len);
}

char *pv_cell_text(const struct pivot *pv, size_t col, const struct pv_cell *c, char *buf,
		   size_t len)
{
	char a[64], b[64];
	if (c->cell < 0 || !c->st.s.n) {
		snprintf(buf, len, "%s", c->cell >= 0 && c->st.failed ? "failed" : "-");
		return buf;
	}
	size_t o = (size_t)snprintf(buf, len, "%s", cell_num(pv, col, c->st.s.median, a, sizeof(a)));
	if ((pv->show & PV_SHOW_STDEV) && c->st.s.n >= 2 && o < len)
		o += (size_t)snprintf(buf + o, len - o, " ±%s",
				      cell_num(pv, col, c->st.s.stdev, a, sizeof(a)));
	if ((pv->show & PV_SHOW_MINMAX) && c->st.s.n >= 2 && o < len)
		o += (size_t)snprintf(buf + o, len - o, " (%s–%s)",
				      cell_num(pv, col, c->st.s.min, a, sizeof(a)),
				      cell_num(pv, col, c->st.s.max, b, sizeof(b)));
	if ((pv->show & PV_SHOW_N) && o < len)
		o += (size_t)snprintf(buf + o, len - o, " n=%zu", c->st.s.n);
	if (c->st.flagged && o < len)
		o += (size_t)snprintf(buf + o, len - o, "*");
	if (c->st.failed && o < len)
		snprintf(buf + o, len - o, "%s", PV_FAILED_MARK);
	return buf;
}

/* Columns a CSV table has per pivot column. */
static size_t csv_per_col(unsigned show)
{
	return 1 + ((show & PV_SHOW_MINMAX) ? 2 : 0) + ((show & PV_SHOW_STDEV) ? 1 : 0) +
	       ((show & PV_SHOW_N) ? 1 : 0) + ((show & PV_SHOW_FLAGS) ? 1 : 0);
}

/* CSV rows for blocks [b0, b1): listed axes first, then the row axis, then values. */
static struct grid *csv_grid(const struct pivot *pv, size_t b0, size_t b1)
{
	size_t nl = pv->blocks[0].fixed.n, per = csv_per_col(pv->show);
	struct grid *g = grid_new(nl + 1 + pv->ncols * per);
	if (!g || grid_add_row(g) < 0)
		goto fail;
	size_t k = 0;
	for (size_t i = 0; i < nl; i++)
		grid_set(g, 0, k++, pv->blocks[0].fixed.c[i].axis);
	grid_set(g, 0, k++, pv->row_label);
	for (size_t c = 0; c < pv->ncols; c++) {
		const char *l = pv->cols[c].label;
		grid_set(g, 0, k++, l);
		if (pv->show & PV_SHOW_MINMAX) {
			grid_setf(g, 0, k++, "%s min", l);
			grid_setf(g, 0, k++, "%s max", l);
		}
		if (pv->show & PV_SHOW_STDEV)
			grid_setf(g, 0, k++, "%s stdev", l);
		if (pv->show & PV_SHOW_N)
			grid_setf(g, 0, k++, "%s n", l);
		if (pv->show & PV_SHOW_FLAGS)
			grid_setf(g, 0, k++, "%s flagged", l);
	}
	for (size_t b = b0; b < b1; b++) {
		const struct pv_block *bl = &pv->blocks[b];
		for (size_t r = 0; r < bl->nrows; r++) {
			long row = grid_add_row(g);
			char v[256];
			if (row < 0)
				goto fail;
			k = 0;
			for (size_t i = 0; i < nl; i++)
				grid_set(g, (size_t)row, k++, bl->fixed.c[i].value);
			grid_set(g, (size_t)row, k++, res_value_str(bl->rows[r], v, sizeof(v)));
			for (size_t c = 0; c < pv->ncols; c++) {
				const struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
				const struct st_summary *s = &pc->st.s;
				int has = pc->cell >= 0 && s->n;
				grid_set(g, (size_t)row, k++, has ? pv_raw(s->median, v, sizeof(v)) : "");
				if (pv->show & PV_SHOW_MINMAX) {
					grid_set(g, (size_t)row, k++, has ? pv_raw(s->min, v, sizeof(v)) : "");
					grid_set(g, (size_t)row, k++, has ? pv_raw(s->max, v, sizeof(v)) : "");
				}
				if (pv->show & PV_SHOW_STDEV)
					grid_set(g, (size_t)row, k++, has ? pv_raw(s->stdev, v, sizeof(v)) : "");
				if (pv->show & PV_SHOW_N)
					grid_setf(g, (size_t)row, k++, "%zu", has ? s->n : 0);
				if (pv->show & PV_SHOW_FLAGS)
					grid_setf(g, (size_t)row, k++, "%zu", has ? pc->st.flagged : 0);
			}
		}
	}
	return g;
fail:
	grid_free(g);
	return NULL;
}

struct grid *pv_grid(const struct pivot *pv, size_t block, enum grid_fmt fmt)
{
	if (fmt == GRID_CSV)
		return csv_grid(pv, block, block + 1);
	const struct pv_block *bl = &pv->blocks[block];
	struct grid *g = grid_new(pv->ncols + 1);
	if (!g || grid_add_row(g) < 0) {
		grid_free(g);
		return NULL;
	}
	grid_set(g, 0, 0, pv->row_label);
	for (size_t c = 0; c < pv->ncols; c++) {
		/* a column of nanoseconds named by a metric says its unit */
		if (is_ns(pv->cols[c].metric) && !strcmp(pv->cols[c].label, pv->cols[c].metric))
			grid_setf(g, 0, c + 1, "%s (%s)", pv->cols[c].label, pv->ns_unit);
		else
			grid_set(g, 0, c + 1, pv->cols[c].label);
		g->align[c + 1] = 'r';
	}
	/* a column with a marked cell pads the others by as much, so the digits line up */
	for (size_t c = 0; c < pv->ncols; c++) {
		int anyf = 0, anyx = 0;
		for (size_t r = 0; r < bl->nrows; r++) {
			const struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
			anyf |= pc->st.flagged > 0;
			anyx |= pc->cell >= 0 && pc->st.s.n && pc->st.failed;
		}
		for (size_t r = 0; r < bl->nrows; r++) {
			const struct pv_cell *pc = &bl->cells[r * pv->ncols + c];
			char buf[256];
			/* room for the two pads below, whatever pv_cell_text wrote */
			pv_cell_text(pv, c, pc, buf, sizeof(buf) - 2);
			int has = pc->cell >= 0 && pc->st.s.n;
			if (anyf && !(has && pc->st.flagged))
				strcat(buf, " ");
			if (anyx && !(has && pc->st.failed))
				strcat(buf, " ");
			if (c == 0 && grid_add_row(g) < 0) {
				grid_free(g);
				return NULL;
			}
			grid_set(g, r + 1, c + 1, buf);
		}
	}
	if (!pv->ncols)
		for (size_t r = 0; r < bl->nrows; r++)
			if (grid_add_row(g) < 0) {
				grid_free(g);
				return NULL;
			}
	for (size_t r = 0; r < bl->nrows; r++) {
		char buf[256];
		grid_set(g, r + 1, 0, res_value_str(bl->rows[r], buf, sizeof(buf)));
	}
	return g;
}

/* Why cells are marked: up to 6 kinds of flags, each with the cells it marks and its
 * first text (shortened). */
static void print_reasons(FILE *f, const struct pivot *pv, enum grid_fmt fmt)
{
	const char *k;
	json_t *e;
	int shown = 0;
	json_object_foreach(pv->reasons, k, e) {
		char line[300];
		size_t n = json_object_size(json_object_get(e, "cells"));
		const char *t = json_string_value(json_object_get(e, "text"));
		(void)k;
		if (shown++ == 6) {
			snprintf(line, sizeof(line), "  ... and %zu more kinds",
				 json_object_size(pv->reasons) - 6);
		} else if (shown > 6) {
			break;
		} else {
			snprintf(line, sizeof(line), "  %zu cell%s: %.200s%s", n, n == 1 ? "" : "s", t,
				 strlen(t) > 200 ? "..." : "");
		}
		if (fmt == GRID_HTML) {
			fputs("<p>", f);
			grid_html_escape(f, line);
			fputs("</p>\n", f);
		} else {
			fprintf(f, "%s%s\n", fmt == GRID_MD ? (shown == 1 ? "\n- " : "- ") : "",
				fmt == GRID_MD ? line + 2 : line);
		}
	}
}

void pv_print(FILE *f, const struct pivot *pv, enum grid_fmt fmt, const char *title)
{
	char cap[1024];
	if (fmt == GRID_CSV) {
		struct grid *g = csv_grid(pv, 0, pv->nblocks);
		if (g)
			grid_print(f, g, fmt);
		grid_free(g);
		return;
	}
	const char *caption = title ? title : pv_caption(pv, cap, sizeof(cap));
	if (*caption) {
		if (fmt == GRID_HTML) {
			fputs("<p>", f);
			grid_html_escape(f, caption);
			fputs("</p>\n", f);
		} else {
			fprintf(f, "%s\n", caption);
			if (fmt == GRID_MD || pv->nblocks > 1)
				fputc('\n', f);
		}
	}
	for (size_t b = 0; b < pv->nblocks; b++) {
		if (pv->nblocks > 1) {
			if (fmt == GRID_HTML) {
				fputs("<p><b>", f);
				grid_html_escape(f, pv->blocks[b].label);
				fputs("</b></p>\n", f);
			} else {
				fprintf(f, fmt == GRID_MD ? "**%s**\n\n" : "%s\n", pv->blocks[b].label);
			}
		}
		struct grid *g = pv_grid(pv, b, fmt);
		if (g)
			grid_print(f, g, fmt);
		grid_free(g);
		if ((fmt == GRID_MD || pv->nblocks > 1) && b + 1 < pv->nblocks)
			fputc('\n', f);
	}
	if (pv->flagged_cells) {
		const char *note = "* includes flagged repetitions (a consistency check failed "
				   "or the offered load missed its target; below, which)";
		if (fmt == GRID_HTML) {
			fputs("<p>", f);
			grid_html_escape(f, note);
			fputs("</p>\n", f);
		} else {
			fprintf(f, fmt == GRID_MD ? "\n\\%s\n" : "%s\n", note);
		}
		print_reasons(f, pv, fmt);
	}
	if (pv->failed_cells) {
		char note[256];
		snprintf(note, sizeof(note), PV_FAILED_MARK " a repetition failed (%zu cell%s): the "
			 "median is of the others", pv->failed_cells, pv->failed_cells == 1 ? "" : "s");
		if (fmt == GRID_HTML) {
			fputs("<p>", f);
			grid_html_escape(f, note);
			fputs("</p>\n", f);
		} else {
			fprintf(f, fmt == GRID_MD ? "\n%s\n" : "%s\n", note);
		}
	}
}

