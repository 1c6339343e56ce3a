/* SPDX-License-Identifier: BSD-2-Clause */
/* trend.c — runs ordered by a label, cells matched across them, each (cell, metric)
 * series segmented (see trend.h; the method is in trendseg.h). The outputs are in
 * trend_out.c. */
#include "trend.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fmt.h"
#include "names.h"
#include "strlist.h"

/* The rates a trend follows unless told otherwise: the ones compare looks at. */
static const char *const headline[] = { "ndr_pps", "pdr_pps", "mrr_pps", "fwd_pps",
					"fwd_pps_a", "fwd_pps_b" };

/* ---- labels ------------------------------------------------------------------------ */

json_t *trend_key_get(json_t *root, const char *path)
{
	if (!strncmp(path, "$.", 2))
		path += 2;
	if (!*path)
		return root;
	if (!json_is_object(root))
		return NULL;
	/* the longest key first: "tunables.kern.polling.pollhz" may be one key */
	size_t len = strlen(path);
	for (size_t l = len; l > 0; l--) {
		if (l < len && path[l] != '.')
			continue;
		char key[512];
		if (l >= sizeof(key))
			continue;
		memcpy(key, path, l);
		key[l] = 0;
		json_t *v = json_object_get(root, key);
		if (!v)
			continue;
		if (l == len)
			return v;
		json_t *r = trend_key_get(v, path + l + 1);
		if (r)
			return r;
	}
	return NULL;
}

int trend_label_cmp(const json_t *a, const json_t *b)
{
	int na = json_is_number(a), nb = json_is_number(b);
	if (na && nb) {
		double x = json_number_value(a), y = json_number_value(b);
		return (x > y) - (x < y);
	}
	if (na != nb)
		return na ? -1 : 1;
	char ta[512], tb[512];
	res_value_str(a, ta, sizeof(ta));
	res_value_str(b, tb, sizeof(tb));
	int c = name_natcmp(ta, tb);
	return c ? c : strcmp(ta, tb);
}

static const struct trend *sort_t;
static const size_t *sort_sub;   /* per run: the axis value's position in its file */

static int run_cmp(const void *pa, const void *pb)
{
	const struct trend_run *a = pa, *b = pb;
	size_t ia = (size_t)(a - sort_t->runs), ib = (size_t)(b - sort_t->runs);
	if (!sort_t->order_given) {
		int c = trend_label_cmp(a->value, b->value);
		if (c)
			return c;
		if (a->created && b->created && (c = strcmp(a->created, b->created)))
			return c;
		if (!a->created != !b->created)
			return a->created ? -1 : 1;
	}
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (sort_sub[ia] > sort_sub[ib]) - (sort_sub[ia] < sort_sub[ib]);
}

static int add_run(struct trend *t, size_t *cap, size_t **sub, size_t file, json_t *value,
		   size_t subidx)
{
	if (t->nruns == *cap) {
		size_t nc = *cap ? 2 * *cap : 8;
		struct trend_run *nr = realloc(t->runs, nc * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		t->runs = nr;
		size_t *ns = realloc(*sub, nc * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		*sub = ns;
		*cap = nc;
	}
	struct trend_run *r = &t->runs[t->nruns];
	char buf[512];
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->value = json_incref(value);
	r->created = json_string_value(json_object_get(t->files[file]->root, "created_utc"));
	if (!(r->label = strdup(res_value_str(value, buf, sizeof(buf))))) {
		json_decref(r->value);
		return -ENOMEM;
	}
	(*sub)[t->nruns++] = subidx;
	return 0;
}

/* The runs of every file with their labels, sorted. */
static int make_runs(struct trend *t, const struct trend_opts *o, size_t **sub, char *err,
		     size_t errlen)
{
	size_t cap = 0;
	for (size_t f = 0; f < t->nfiles; f++) {
		const struct res_file *rf = t->files[f];
		int rc;
		if (o->label_kind == TL_AXIS) {
			const struct res_axis *ax = res_axis(rf, o->label);
			if (!ax) {
				char list[400];
				size_t n = 0;
				list[0] = 0;
				for (size_t i = 0; i < rf->naxes && n + 40 < sizeof(list); i++)
					n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
							      i ? ", " : "", rf->axes[i].name);
				return fmt_err(-ENODATA, err, errlen, "--label-from %s: %s has no such "
					       "axis (axes: %s)", o->label, rf->path, n ? list : "none");
			}
			for (size_t i = 0; i < ax->nvalues; i++) {
				/* --where on the label axis picks runs */
				int keep = 1;
				for (size_t c = 0; o->where && c < o->where->n; c++)
					if (!strcmp(o->where->c[c].axis, o->label) &&
					    !res_value_matches(ax->values[i], o->where->c[c].value))
						keep = 0;
				if (keep && (rc = add_run(t, &cap, sub, f, ax->values[i], i)))
					return rc;
			}
			continue;
		}
		json_t *v = NULL, *own = NULL;
		const char *what = o->label_kind == TL_CREATED ? "created_utc" : o->label;
		if (o->label_kind == TL_KEY && !strcmp(o->label, "file") &&
		    !json_object_get(rf->root, "file"))
			v = own = json_string(name_base(rf->path));
		else
			v = trend_key_get(rf->root, what);
		if (!v || json_is_null(v))
			return fmt_err(-ENODATA, err, errlen, "%s: $.%s: missing (%s); order by another "
				       "key with --label, or by an axis with --label-from", rf->path,
				       what, o->label_kind == TL_CREATED ? "the default label, the "
				       "run's creation time" : "--label");
		if (json_is_object(v) || json_is_array(v))
			return fmt_err(-ENODATA, err, errlen, "%s: $.%s: expected a string or a "
				       "number for --label, got an %s", rf->path, what,
				       json_is_object(v) ? "object" : "array");
		rc = add_run(t, &cap, sub, f, v, 0);
		json_decref(own);
		if (rc)
			return rc;
	}
	sort_t = t;
	sort_sub = *sub;
	/* sort indices, not runs, so run_cmp can find each run's file position */
	size_t *idx = malloc((t->nruns + 1) * sizeof(*idx));
	struct trend_run *sorted = malloc((t->nruns + 1) * sizeof(*sorted));
	size_t *ssub = malloc((t->nruns + 1) * sizeof(*ssub));
	if (!idx || !sorted || !ssub) {
		free(idx);
		free(sorted);
		free(ssub);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nruns; i++)
		idx[i] = i;
	/* insertion sort: stable, and run counts are small */
	for (size_t i = 1; i < t->nruns; i++) {
		size_t x = idx[i], j = i;
		while (j > 0 && run_cmp(&t->runs[idx[j - 1]], &t->runs[x]) > 0) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = x;
	}
	for (size_t i = 0; i < t->nruns; i++) {
		sorted[i] = t->runs[idx[i]];
		ssub[i] = (*sub)[idx[i]];
	}
	free(t->runs);
	free(*sub);
	free(idx);
	t->runs = sorted;
	*sub = ssub;
	sort_t = NULL;
	sort_sub = NULL;
	return 0;
}

/* ---- metrics and cells --------------------------------------------------------------- */

static int any_has(const struct trend *t, const char *m, int values)
{
	for (size_t f = 0; f < t->nfiles; f++)
		if (values ? res_metric_has_values(t->files[f], m) : res_has_metric(t->files[f], m))
			return 1;
	return 0;
}

static int add_metric(struct trend *t, const char *m)
{
	return strv_add(&t->metrics, &t->nmetrics, m);
}

static int picked(const struct trend *t, const char *m)
{
	for (size_t i = 0; i < t->nmetrics; i++)
		if (!strcmp(t->metrics[i], m))
			return 1;
	return 0;
}

static int pick_metrics(struct trend *t, const struct trend_opts *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->nmetrics; i++) {
		if (!any_has(t, o->metrics[i], 0))
			return fmt_err(-EINVAL, err, errlen, "--metric %s: no case in any of the %zu "
				       "files has this metric (%s has: %s%s)", o->metrics[i], t->nfiles,
				       t->files[0]->path, t->files[0]->nmetrics ? t->files[0]->metrics[0]
				       : "none", t->files[0]->nmetrics > 1 ? ", ..." : "");
		if (add_metric(t, o->metrics[i]))
			return -ENOMEM;
	}
	if (o->nmetrics)
		return 0;
	int bidir = any_has(t, "fwd_pps_b", 1);
	/* every search goal of the files (NDR, PDR by default), then the usual rates */
	for (size_t f = 0; f < t->nfiles; f++)
		for (size_t i = 0; i < RES_MAX_GOALS; i++) {
			const char *gm = res_goal_metric(t->files[f], i);
			if (gm && any_has(t, gm, 1) && !picked(t, gm) && add_metric(t, gm))
				return -ENOMEM;
		}
	for (size_t i = 0; i < sizeof(headline) / sizeof(headline[0]); i++) {
		if (!bidir && !strncmp(headline[i], "fwd_pps_", 8))
			continue;
		if (any_has(t, headline[i], 1) && !picked(t, headline[i]) &&
		    add_metric(t, headline[i]))
			return -ENOMEM;
	}
	if (t->nmetrics)
		return 0;
	char list[600];
	size_t n = 0;
	list[0] = 0;
	for (size_t i = 0; i < t->files[0]->nmetrics && n + 40 < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "",
				      t->files[0]->metrics[i]);
	return fmt_err(-EINVAL, err, errlen, "none of the files has the usual rate metrics "
		       "(ndr_pps, pdr_pps, mrr_pps, fwd_pps); choose with --metric (%s has: %s)",
		       t->files[0]->path, n ? list : "none");
}

/* Each condition of --where must name an axis and a value some file has. */
static int check_where(const struct trend *t, const struct res_sel *w, char *err,
		       size_t errlen)
{
	for (size_t c = 0; w && c < w->n; c++) {
		struct res_sel one = { 1, &w->c[c] };
		char first[512] = "";
		int found = 0;
		for (size_t f = 0; f < t->nfiles && !found; f++) {
			char e[512];
			if (!res_sel_check(t->files[f], &one, "--where", e, sizeof(e)))
				found = 1;
			else if (!*first)
				snprintf(first, sizeof(first), "%s", e);
		}
		if (!found)
			return fmt_err(-EINVAL, err, errlen, "%s", first);
	}
	return 0;
}

/* The cell's identity and display key without the label axis (TL_AXIS). */
static int cell_id(const struct res_file *rf, const struct res_cell *c, const char *drop,
		   json_t **params, char **canon, char **key)
{
	*params = json_copy(c->params);
	if (!*params)
		return -ENOMEM;
	if (drop)
		json_object_del(*params, drop);
	*canon = res_canon(*params);
	size_t cap = 64, len = 0;
	*key = malloc(cap);
	if (!*canon || !*key)
		return -ENOMEM;
	**key = 0;
	for (size_t a = 0; a < rf->naxes; a++) {
		json_t *v = json_object_get(*params, rf->axes[a].name);
		char vb[256];
		if (!v)
			continue;
		res_value_str(v, vb, sizeof(vb));
		size_t need = len + strlen(rf->axes[a].name) + strlen(vb) + 3;
		if (need > cap) {
			char *n = realloc(*key, cap = 2 * need);
			if (!n)
				return -ENOMEM;
			*key = n;
		}
		len += (size_t)snprintf(*key + len, cap - len, "%s%s=%s", len ? "/" : "",
					rf->axes[a].name, vb);
	}
	if (!len) {
		free(*key);
		*key = strdup("all");
	}
	return *key ? 0 : -ENOMEM;
}

static void series_free(struct trend_series *s)
{
	free(s->key);
	free(s->canon);
	json_decref(s->params);
	for (size_t i = 0; i < s->npoints; i++)
		free(s->pts[i].v);
	free(s->pts);
	free(s->missing);
	tseg_free(&s->seg);
}

void trend_free(struct trend *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nruns; i++) {
		free(t->runs[i].label);
		json_decref(t->runs[i].value);
	}
	free(t->runs);
	for (size_t i = 0; i < t->nmetrics; i++)
		free(t->metrics[i]);
	free(t->metrics);
	for (size_t i = 0; i < t->nseries; i++)
		series_free(&t->series[i]);
	free(t->series);
	free(t->label);
	free(t);
}

/* The series of (canon, metric); a new one (*made) is empty but for the metric. NULL
 * on ENOMEM. */
static struct trend_series *series_for(struct trend *t, size_t *cap, const char *canon,
				       const char *metric, int *made)
{
	*made = 0;
	for (size_t i = t->nseries; i-- > 0;)
		if (t->series[i].metric == metric && !strcmp(t->series[i].canon, canon))
			return &t->series[i];
	if (t->nseries == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		struct trend_series *n = realloc(t->series, nc * sizeof(*n));
		if (!n)
			return NULL;
		t->series = n;
		*cap = nc;
	}
	struct trend_series *s = &t->series[t->nseries++];
	memset(s, 0, sizeof(*s));
	s->metric = metric;
	*made = 1;
	return s;
}

static int add_point(struct trend_series *s, size_t run, long cell, const struct res_stats *st,
		     const double *v)
{
	struct trend_point *n = realloc(s->pts, (s->npoints + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	s->pts = n;
	struct trend_point *p = &s->pts[s->npoints];
	p->run = run;
	p->cell = cell;
	p->st = *st;
	if (!(p->v = malloc((st->s.n ? st->s.n : 1) * sizeof(*p->v))))
		return -ENOMEM;
	memcpy(p->v, v, st->s.n * sizeof(*v));
	s->npoints++;
	s->flagged |= st->flagged != 0;
	return 0;
}

/* Every (cell, metric) over the runs in order. */
static int make_series(struct trend *t, const struct trend_opts *o)
{
	size_t cap = 0, vcap = 1;
	for (size_t f = 0; f < t->nfiles; f++)
		for (size_t c = 0; c < t->files[f]->ncells; c++)
			if (t->files[f]->cells[c].ncases > vcap)
				vcap = t->files[f]->cells[c].ncases;
	double *vals = malloc(vcap * sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	int rc = 0;
	const char *drop = o->label_kind == TL_AXIS ? o->label : NULL;
	for (size_t r = 0; r < t->nruns && !rc; r++) {
		const struct res_file *rf = t->files[t->runs[r].file];
		for (size_t c = 0; c < rf->ncells && !rc; c++) {
			const struct res_cell *cell = &rf->cells[c];
			if (!res_params_match(cell->params, o->where))
				continue;
			if (drop && !res_value_eq(json_object_get(cell->params, drop),
						  t->runs[r].value))
				continue;
			json_t *params = NULL;
			char *canon = NULL, *key = NULL;
			if ((rc = cell_id(rf, cell, drop, &params, &canon, &key)))
				goto next;
			for (size_t m = 0; m < t->nmetrics && !rc; m++) {
				struct res_stats st;
				if ((rc = res_cell_stats(rf, c, t->metrics[m], &st, vals)))
					break;
				if (!st.s.n)
					continue;
				int made;
				struct trend_series *s = series_for(t, &cap, canon, t->metrics[m],
								    &made);
				if (!s) {
					rc = -ENOMEM;
					break;
				}
				if (made) {
					s->params = json_incref(params);
					s->lower_is_better = name_lower_in(t->metrics[m], o->lower, o->nlower);
					if (!(s->canon = strdup(canon)) || !(s->key = strdup(key))) {
						rc = -ENOMEM;
						break;
					}
				}
				rc = add_point(s, r, (long)c, &st, vals);
			}
next:
			json_decref(params);
			free(canon);
			free(key);
		}
	}
	free(vals);
	return rc;
}

static int segment(struct trend *t, struct trend_series *s)
{
	s->missing = calloc(t->nruns + 1, sizeof(*s->missing));
	struct tseg_run *r = calloc(s->npoints + 1, sizeof(*r));
	if (!s->missing || !r) {
		free(r);
		return -ENOMEM;
	}
	for (size_t run = 0, p = 0; run < t->nruns; run++) {
		if (p < s->npoints && s->pts[p].run == run)
			p++;
		else
			s->missing[s->nmissing++] = run;
	}
	int allzero = 1;
	for (size_t p = 0; p < s->npoints; p++) {
		r[p].v = s->pts[p].v;
		r[p].n = s->pts[p].st.s.n;
		for (size_t j = 0; j < r[p].n; j++)
			allzero &= r[p].v[j] == 0;
	}
	struct tseg_opts so = { .margin = t->margin, .floor = t->floor,
				.lower_is_better = s->lower_is_better };
	int rc = tseg_segment(r, s->npoints, &so, &s->seg);
	free(r);
	if (rc == -EDOM) {
		s->note = allzero ? "zero in every run: no change"
				  : "zero or negative values: no ratio on a log scale";
		return 0;
	}
	if (rc)
		return rc;
	s->segmented = 1;
	return 0;
}

int trend_newest_is(const struct trend_series *s, enum st_verdict v)
{
	if (!s->segmented || s->seg.ngroups < 2)
		return 0;
	return s->seg.change[s->seg.ngroups - 2].verdict == v ||
	       (s->seg.has_newest && s->seg.newest.verdict == v);
}

int trend_newest_missing(const struct trend *t, const struct trend_series *s)
{
	return t->nruns && s->nmissing && s->missing[s->nmissing - 1] == t->nruns - 1;
}

int trend_build(const struct res_file *const *files, size_t n, const struct trend_opts *o,
		struct trend **out, char *err, size_t errlen)
{
	struct trend *t = calloc(1, sizeof(*t));
	size_t *sub = NULL;
	int rc = -ENOMEM;
	if (!t || !n) {
		free(t);
		return t ? fmt_err(-EINVAL, err, errlen, "no results files") : -ENOMEM;
	}
	t->files = files;
	t->nfiles = n;
	t->label_kind = o->label_kind;
	t->order_given = o->order_given;
	t->margin = o->margin;
	t->floor = o->floor;
	if (t->floor < 0) {
		double w = NAN;
		for (size_t f = 0; f < n; f++)
			if (isfinite(cmp_goal_width(files[f])))
				w = isfinite(w) ? fmax(w, cmp_goal_width(files[f])) : cmp_goal_width(files[f]);
		t->floor = isfinite(w) && w > 0 ? w / 2 : 0.0025;
	}
	if (o->label && !(t->label = strdup(o->label)))
		goto fail;
	if ((rc = check_where(t, o->where, err, errlen)) ||
	    (rc = pick_metrics(t, o, err, errlen)) ||
	    (rc = make_runs(t, o, &sub, err, errlen)) || (rc = make_series(t, o)))
		goto fail;
	if (!t->nseries) {
		rc = fmt_err(-EINVAL, err, errlen, "no cell has a value of %s%s in any run%s",
			     t->metrics[0], t->nmetrics > 1 ? " (or the other metrics)" : "",
			     o->where && o->where->n ? " with --where" : "");
		goto fail;
	}
	for (size_t s = 0; s < t->nseries; s++) {
		struct trend_series *ts = &t->series[s];
		if ((rc = segment(t, ts)))
			goto fail;
		if (ts->segmented)
			for (size_t g = 0; g + 1 < ts->seg.ngroups; g++)
				t->n_changes[ts->seg.change[g].verdict]++;
		t->n_newest_regressed += trend_newest_is(ts, ST_REGRESSION);
		t->n_newest_progressed += trend_newest_is(ts, ST_PROGRESSION);
		t->n_newest_missing += trend_newest_missing(t, ts);
	}
	free(sub);
	*out = t;
	return 0;
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(sub);
	trend_free(t);
	return rc;
}
