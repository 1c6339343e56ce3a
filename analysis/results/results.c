/* SPDX-License-Identifier: BSD-2-Clause */
/* results.c — loading, validating, grouping and summarizing `ppslab/result` files, and
 * saving them atomically (see results.h, docs/results-schema.md). Called by the table,
 * plot, compare and report commands; `ppslab run` may use res_summary and res_save. */
#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "jout.h"
#include "safefile.h"
#include "strlist.h"

static const char *type_name(const json_t *v)
{
	if (!v)
		return "nothing";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE: return "true";
	case JSON_FALSE: return "false";
	case JSON_NULL: return "null";
	}
	return "something else";
}

__attribute__((format(printf, 4, 5)))
static int bad(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
	int o = snprintf(err, errlen, "%s: ", name);
	if (o < 0 || (size_t)o >= errlen)
		return -EINVAL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + o, errlen - (size_t)o, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int is_scalar(const json_t *v)
{
	return json_is_number(v) || json_is_string(v) || json_is_boolean(v);
}

char *res_text_safe(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	if (!len)
		return buf;
	for (const unsigned char *p = (const unsigned char *)s; *p && o + 1 < len; p++) {
		char e[8];
		if (*p >= 0x20 && *p != 0x7f) {
			buf[o++] = (char)*p;
			continue;
		}
		snprintf(e, sizeof(e), *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r"
			 : "\\x%02x", *p);
		size_t n = strlen(e);
		if (o + n >= len)
			break;
		memcpy(buf + o, e, n);
		o += n;
	}
	buf[o] = 0;
	return buf;
}

/* A name from the file (axis, metric, run id) with a control character: refused, since
 * it could not be shown or matched as typed. */
static bool has_ctl(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

/* the metrics that are rates, which cannot be negative */
static bool is_rate(const char *k)
{
	size_t n = strlen(k);
	return n > 4 && (!strcmp(k + n - 4, "_pps") || !strcmp(k + n - 4, "_bps"));
}

char *res_value_str(const json_t *v, char *buf, size_t len)
{
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		double d = json_real_value(v);
		if (d == floor(d) && fabs(d) < 1e15) {
			snprintf(buf, len, "%.0f", d);
		} else {
			/* shortest text that reads back as the same double */
			for (int p = 6; p <= 17; p++) {
				snprintf(buf, len, "%.*g", p, d);
				if (strtod(buf, NULL) == d)
					break;
			}
		}
	} else if (json_is_string(v)) {
		res_text_safe(json_string_value(v), buf, len);
	} else if (json_is_true(v)) {
		snprintf(buf, len, "true");
	} else if (json_is_false(v)) {
		snprintf(buf, len, "false");
	} else {
		snprintf(buf, len, "null");
	}
	return buf;
}

int res_value_eq(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_is_string(a) && json_is_string(b))
		return !strcmp(json_string_value(a), json_string_value(b));
	if (json_is_boolean(a) && json_is_boolean(b))
		return json_is_true(a) == json_is_true(b);
	return json_is_null(a) && json_is_null(b);
}

int res_value_matches(const json_t *v, const char *text)
{
	if (json_is_number(v)) {
		char *end;
		double d = strtod(text, &end);
		if (end != text && !*end)
			return d == json_number_value(v);
	}
	char buf[256];
	return !strcmp(res_value_str(v, buf, sizeof(buf)), text);
}

/* Order of values on an axis: numbers ascending before everything else. */
static int value_cmp_sorted(const json_t *a, const json_t *b)
{
	int na = json_is_number(a), nb = json_is_number(b);
	if (na && nb) {
		double x = json_number_value(a), y = json_number_value(b);
		return (x > y) - (x < y);
	}
	return nb - na;
}

int res_metric(const struct res_case *c, const char *name, double *v)
{
	json_t *m = c->metrics ? json_object_get(c->metrics, name) : NULL;
	if (!m)
		return -ENOENT;
	if (!json_is_number(m))
		return -ENODATA;
	*v = json_number_value(m);
	return 0;
}

int res_has_metric(const struct res_file *rf, const char *name)
{
	for (size_t i = 0; i < rf->nmetrics; i++)
		if (!strcmp(rf->metrics[i], name))
			return 1;
	return 0;
}

const char *res_outage_metric(const struct res_file *rf)
{
	const char *recipe = json_string_value(res_get(rf->root, "method", "outage", "recipe", NULL));
	return !recipe ? NULL : !strcmp(recipe, "recovery") ? "outage_recovery_s"
	       : !strcmp(recipe, "reset") ? "outage_reset_s" : "outage_longest_s";
}

const char *res_goal_metric(const struct res_file *rf, size_t i)
{
	const json_t *g = json_array_get(res_get(rf->root, "method", "goals", NULL), i);
	const char *n = json_string_value(json_object_get(g, "name"));
	char buf[64];
	size_t k = 0;
	if (!n)
		return NULL;
	for (; n[k] && k + 5 < sizeof(buf); k++)
		buf[k] = (char)tolower((unsigned char)n[k]);
	if (n[k])
		return NULL;
	snprintf(buf + k, sizeof(buf) - k, "_pps");
	for (size_t m = 0; m < rf->nmetrics; m++)
		if (!strcmp(rf->metrics[m], buf))
			return rf->metrics[m];
	return NULL;
}

int res_metric_has_values(const struct res_file *rf, const char *name)
{
	double v;
	for (size_t i = 0; i < rf->ncases; i++)
		if (!res_metric(&rf->cases[i], name, &v))
			return 1;
	return 0;
}

const struct res_axis *res_axis(const struct res_file *rf, const char *name)
{
	for (size_t i = 0; i < rf->naxes; i++)
		if (!strcmp(rf->axes[i].name, name))
			return &rf->axes[i];
	return NULL;
}

static long axis_index(const struct res_file *rf, const char *name)
{
	const struct res_axis *a = res_axis(rf, name);
	return a ? a - rf->axes : -1;
}

/* ---- an index of byte strings (open addressing), so that loading and pivoting stay
 * linear in cells ---------------------------------------------------------------------- */

struct res_ix {
	size_t cap, n;   /* cap a power of two, n ≤ cap / 2 */
	char **key;      /* each: its length (size_t) then its bytes */
	size_t *val;
};

static uint64_t ix_hash(const char *k, size_t len)
{
	uint64_t h = 1469598103934665603ull;   /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
	return h;
}

static size_t ix_slot(const struct res_ix *ix, const char *k, size_t len)
{
	size_t m = ix->cap - 1, i = (size_t)ix_hash(k, len) & m;
	while (ix->key[i]) {
		size_t l;
		memcpy(&l, ix->key[i], sizeof(l));
		if (l == len && !memcmp(ix->key[i] + sizeof(l), k, len))
			return i;
		i = (i + 1) & m;
	}
	return i;
}

static long ix_get(const struct res_ix *ix, const char *k, size_t len)
{
	if (!ix || !ix->cap)
		return -1;
	size_t i = ix_slot(ix, k, len);
	return ix->key[i] ? (long)ix->val[i] : -1;
}

static void ix_free(struct res_ix *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->cap; i++)
		free(ix->key[i]);
	free(ix->key);
	free(ix->val);
	free(ix);
}

/* Adds k → val unless k is there. 0 or -ENOMEM. */
static int ix_put(struct res_ix **pix, const char *k, size_t len, size_t val)
{
	struct res_ix *ix = *pix;
	if (!ix && !(ix = *pix = calloc(1, sizeof(*ix))))
		return -ENOMEM;
	if ((ix->n + 1) * 2 > ix->cap) {
		struct res_ix g = { .cap = ix->cap ? ix->cap * 2 : 16 };
		g.key = calloc(g.cap, sizeof(*g.key));
		g.val = calloc(g.cap, sizeof(*g.val));
		if (!g.key || !g.val) {
			free(g.key);
			free(g.val);
			return -ENOMEM;
		}
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->key[i]) {
				size_t l;
				memcpy(&l, ix->key[i], sizeof(l));
				size_t j = ix_slot(&g, ix->key[i] + sizeof(l), l);
				g.key[j] = ix->key[i];
				g.val[j] = ix->val[i];
			}
		free(ix->key);
		free(ix->val);
		g.n = ix->n;
		*ix = g;
	}
	size_t i = ix_slot(ix, k, len);
	if (ix->key[i])
		return 0;
	if (!(ix->key[i] = malloc(sizeof(len) + len + 1)))
		return -ENOMEM;
	memcpy(ix->key[i], &len, sizeof(len));
	memcpy(ix->key[i] + sizeof(len), k, len);
	ix->val[i] = val;
	ix->n++;
	return 0;
}

/* The identity of a scalar as res_value_eq sees it: its type, then numbers by their
 * double's text (0 for -0), strings by their bytes. *k is malloc'd when it does not
 * fit buf (the caller frees it if it is not buf). */
static size_t value_key(const json_t *v, char *buf, size_t buflen, char **k)
{
	*k = buf;
	if (json_is_string(v)) {
		size_t n = json_string_length(v);
		if (n + 1 > buflen && !(*k = malloc(n + 1))) {
			*k = buf;
			return 0;
		}
		(*k)[0] = 's';
		memcpy(*k + 1, json_string_value(v), n);
		return n + 1;
	}
	if (json_is_number(v)) {   /* as a double, as res_value_eq compares them */
		double d = json_number_value(v);
		snprintf(buf, buflen, "n%.17g", d == 0 ? 0.0 : d);
		return strlen(buf);
	}
	buf[0] = json_is_true(v) ? 't' : json_is_false(v) ? 'f' : 'z';
	return 1;
}

long res_value_index(const struct res_axis *a, const json_t *v)
{
	char buf[128], *k;
	size_t n = value_key(v, buf, sizeof(buf), &k);
	long r = ix_get(a->ix, k, n);
	if (k != buf)
		free(k);
	return r;
}

static long value_index(const struct res_axis *a, const json_t *v)
{
	return res_value_index(a, v);
}

/* (Re)builds the index of a's values after they were reordered. 0 or -ENOMEM. */
static int index_values(struct res_axis *a)
{
	ix_free(a->ix);
	a->ix = NULL;
	for (size_t i = 0; i < a->nvalues; i++) {
		char buf[128], *k;
		size_t n = value_key(a->values[i], buf, sizeof(buf), &k);
		int rc = ix_put(&a->ix, k, n, i);
		if (k != buf)
			free(k);
		if (rc)
			return rc;
	}
	return 0;
}

static int add_axis(struct res_file *rf, const char *name)
{
	if (axis_index(rf, name) >= 0)
		return 0;
	struct res_axis *n = realloc(rf->axes, (rf->naxes + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	rf->axes = n;
	n[rf->naxes] = (struct res_axis){ .name = strdup(name) };
	if (!n[rf->naxes].name)
		return -ENOMEM;
	rf->naxes++;
	return 0;
}

static int add_value(struct res_axis *a, json_t *v)
{
	if (value_index(a, v) >= 0)
		return 0;
	/* doubling (at 0, 1, 2, 4, ...): an axis may have a value per cell */
	if (!(a->nvalues & (a->nvalues - 1))) {
		json_t **n = realloc(a->values, (a->nvalues ? a->nvalues * 2 : 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		a->values = n;
	}
	char buf[128], *k;
	size_t kn = value_key(v, buf, sizeof(buf), &k);
	int rc = ix_put(&a->ix, k, kn, a->nvalues);
	if (k != buf)
		free(k);
	if (rc)
		return rc;
	a->values[a->nvalues++] = v;
	return 0;
}

static int add_metric(struct res_file *rf, const char *name)
{
	if (res_has_metric(rf, name))
		return 0;
	return strv_add(&rf->metrics, &rf->nmetrics, name);
}

/* Appends "name=value" pairs to a growing string. */
static int key_append(char **s, size_t *len, const char *sep, const char *name,
		      const json_t *v)
{
	char val[256];
	res_value_str(v, val, sizeof(val));
	size_t add = strlen(sep) + strlen(name) + 1 + strlen(val);
	char *n = realloc(*s, *len + add + 1);
	if (!n)
		return -ENOMEM;
	sprintf(n + *len, "%s%s=%s", *len ? sep : "", name, val);
	*s = n;
	*len += strlen(n + *len);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The canonical identity of a params object: keys sorted, values in canonical text,
 * joined with separators that cannot appear in a typed value (US and RS). */
char *res_canon(const json_t *params)
{
	size_t n = json_object_size(params), i = 0, len = 0;
	const char **keys = malloc((n ? n : 1) * sizeof(*keys));
	char *s = NULL;
	if (!keys)
		return NULL;
	const char *k;
	json_t *v;
	json_object_foreach(jmut(params), k, v)
		keys[i++] = k;
	qsort(keys, n, sizeof(*keys), cmp_str);
	s = strdup("");
	for (i = 0; s && i < n; i++) {
		if (key_append(&s, &len, "\x1e", keys[i], json_object_get(params, keys[i]))) {
			free(s);
			s = NULL;
		}
	}
	free(keys);
	return s;
}

static char *display_key(const struct res_file *rf, const json_t *params)
{
	char *s = strdup("");
	size_t len = 0;
	for (size_t a = 0; s && a < rf->naxes; a++) {
		json_t *v = json_object_get(params, rf->axes[a].name);
		if (v && key_append(&s, &len, "/", rf->axes[a].name, v)) {
			free(s);
			return NULL;
		}
	}
	return s;
}

long res_find_canon(const struct res_file *rf, const char *canon)
{
	return ix_get(rf->canon_ix, canon, strlen(canon));
}

long res_find_cell(const struct res_file *rf, const json_t *params)
{
	char *c = res_canon(params);
	long r = c ? res_find_canon(rf, c) : -1;
	free(c);
	return r;
}

/* Cells sorted by their axis values' display order, axis by axis. */
static const struct res_file *sort_rf;

static int cell_cmp(const void *pa, const void *pb)
{
	const struct res_cell *a = pa, *b = pb;
	for (size_t i = 0; i < sort_rf->naxes; i++) {
		long ia = a->vi[i], ib = b->vi[i];
		if (ia != ib)
			return ia < ib ? -1 : 1;
	}
	return strcmp(a->canon, b->canon);
}

struct ordv {
	json_t *v;
	size_t i;
};

static int ordv_cmp(const void *pa, const void *pb)
{
	const struct ordv *a = pa, *b = pb;
	int c = value_cmp_sorted(a->v, b->v);
	return c ? c : (a->i > b->i) - (a->i < b->i);   /* stable */
}

static int order_values(struct res_file *rf, json_t *maxes)
{
	for (size_t i = 0; i < rf->naxes; i++) {
		struct res_axis *a = &rf->axes[i];
		json_t *decl = maxes ? json_object_get(maxes, a->name) : NULL;
		size_t nd = decl ? json_array_size(decl) : 0;
		struct ordv *o = malloc((a->nvalues + nd + 1) * sizeof(*o));
		struct res_ix *seen = NULL;
		if (!o)
			return -ENOMEM;
		size_t k = 0, rest = 0;
		int rc = 0;
		/* declared values first, in the matrix's order; then the rest: numbers
		 * ascending, others as first seen */
		for (size_t j = 0; j < nd + a->nvalues && !rc; j++) {
			json_t *v = j < nd ? json_array_get(decl, j) : a->values[j - nd];
			char buf[128], *key;
			size_t kn = value_key(v, buf, sizeof(buf), &key);
			if (ix_get(seen, key, kn) < 0) {
				rc = ix_put(&seen, key, kn, k);
				o[k].v = v;
				o[k].i = k;
				k++;
			}
			if (key != buf)
				free(key);
			if (j + 1 == nd)
				rest = k;
		}
		ix_free(seen);
		if (!rc)
			qsort(o + rest, k - rest, sizeof(*o), ordv_cmp);
		json_t **vals = rc ? NULL : malloc((k + 1) * sizeof(*vals));
		if (!vals) {
			free(o);
			return -ENOMEM;
		}
		for (size_t j = 0; j < k; j++)
			vals[j] = o[j].v;
		free(o);
		free(a->values);
		a->values = vals;
		a->nvalues = k;
		if (index_values(a))
			return -ENOMEM;
	}
	return 0;
}

static int check_case(json_t *c, size_t i, const char *name, struct res_case *rc, char *err,
		      size_t errlen)
{
	if (!json_is_object(c))
		return bad(err, errlen, name, "$.cases[%zu]: expected an object, got %s", i,
			   type_name(c));
	json_t *p = json_object_get(c, "params");
	if (!p)
		return bad(err, errlen, name, "$.cases[%zu].params: missing (expected an object "
			   "of axis values)", i);
	if (!json_is_object(p))
		return bad(err, errlen, name, "$.cases[%zu].params: expected an object, got %s",
			   i, type_name(p));
	const char *k;
	json_t *v;
	json_object_foreach(p, k, v) {
		if (!is_scalar(v))
			return bad(err, errlen, name, "$.cases[%zu].params.%s: expected a number, "
				   "string or boolean, got %s", i, k, type_name(v));
		if (has_ctl(k))
			return bad(err, errlen, name, "$.cases[%zu].params: an axis name with a "
				   "control character", i);
	}
	json_t *m = json_object_get(c, "metrics");
	if (m && !json_is_null(m)) {
		if (!json_is_object(m))
			return bad(err, errlen, name, "$.cases[%zu].metrics: expected an object, "
				   "got %s", i, type_name(m));
		json_object_foreach(m, k, v) {
			if (!json_is_number(v) && !json_is_null(v))
				return bad(err, errlen, name, "$.cases[%zu].metrics.%s: expected a "
					   "number or null, got %s", i, k, type_name(v));
			if (has_ctl(k))
				return bad(err, errlen, name, "$.cases[%zu].metrics: a metric name "
					   "with a control character", i);
			if (is_rate(k) && json_is_number(v) && json_number_value(v) < 0)
				return bad(err, errlen, name, "$.cases[%zu].metrics.%s: a rate cannot "
					   "be negative, got %g", i, k, json_number_value(v));
		}
	} else {
		m = NULL;
	}
	json_t *st = json_object_get(c, "status");
	const char *status = NULL;
	if (st && !json_is_null(st)) {
		status = json_string_value(st);
		if (!status)
			return bad(err, errlen, name, "$.cases[%zu].status: expected \"ok\", "
				   "\"flagged\" or \"failed\", got %s", i, type_name(st));
		if (strcmp(status, "ok") && strcmp(status, "flagged") && strcmp(status, "failed"))
			return bad(err, errlen, name, "$.cases[%zu].status: expected \"ok\", "
				   "\"flagged\" or \"failed\", got \"%s\"", i, status);
	}
	json_t *rep = json_object_get(c, "rep");
	if (rep && !json_is_null(rep) && (!json_is_integer(rep) || json_integer_value(rep) < 0))
		return bad(err, errlen, name, "$.cases[%zu].rep: expected a repetition number "
			   "(integer ≥ 0), got %s", i, type_name(rep));
	json_t *id = json_object_get(c, "case_id");
	if (id && !json_is_null(id) && !json_is_string(id))
		return bad(err, errlen, name, "$.cases[%zu].case_id: expected a string, got %s",
			   i, type_name(id));
	json_t *fl = json_object_get(c, "flags");
	if (fl && !json_is_null(fl) && !json_is_array(fl))
		return bad(err, errlen, name, "$.cases[%zu].flags: expected an array of "
			   "strings, got %s", i, type_name(fl));
	size_t fi;
	json_array_foreach(fl, fi, v)
		if (!json_is_string(v))
			return bad(err, errlen, name, "$.cases[%zu].flags[%zu]: expected a string, "
				   "got %s", i, fi, type_name(v));
	*rc = (struct res_case){
		.obj = c, .params = p, .metrics = m, .case_id = json_string_value(id),
		.status = status, .rep = rep ? (int)json_integer_value(rep) : 0,
		.flagged = (status && !strcmp(status, "flagged")) || json_array_size(fl) > 0,
		.failed = status && !strcmp(status, "failed"),
	};
	return 0;
}

static int check_top(json_t *root, const char *name, json_t **maxes, char *err,
		     size_t errlen)
{
	if (!json_is_object(root))
		return bad(err, errlen, name, "$: expected an object (a ppslab results file), "
			   "got %s", type_name(root));
	json_t *s = json_object_get(root, "schema");
	if (!s)
		return bad(err, errlen, name, "$.schema: missing (expected \"%s\")", RES_SCHEMA);
	if (!json_is_string(s) || strcmp(json_string_value(s), RES_SCHEMA))
		return bad(err, errlen, name, "$.schema: expected \"%s\", got %s%s%s", RES_SCHEMA,
			   json_is_string(s) ? "\"" : type_name(s),
			   json_is_string(s) ? json_string_value(s) : "",
			   json_is_string(s) ? "\"" : "");
	json_t *sv = json_object_get(root, "schema_version");
	if (!sv)
		return bad(err, errlen, name, "$.schema_version: missing (expected \"%d.x.y\")",
			   RES_SCHEMA_MAJOR);
	const char *svs = json_string_value(sv);
	char *end;
	long major = svs ? strtol(svs, &end, 10) : -1;
	if (!svs || end == svs || (*end && *end != '.'))
		return bad(err, errlen, name, "$.schema_version: expected a version string such "
			   "as \"%d.0.0\", got %s", RES_SCHEMA_MAJOR, type_name(sv));
	if (major != RES_SCHEMA_MAJOR)
		return bad(err, errlen, name, "$.schema_version: expected major version %d, got "
			   "\"%s\" (this ppslab reads %s %d.x files)", RES_SCHEMA_MAJOR, svs,
			   RES_SCHEMA, RES_SCHEMA_MAJOR);
	json_t *rid = json_object_get(root, "run_id");
	if (rid && !json_is_null(rid) && !json_is_string(rid))
		return bad(err, errlen, name, "$.run_id: expected a string, got %s",
			   type_name(rid));
	if (json_is_string(rid) && has_ctl(json_string_value(rid)))
		return bad(err, errlen, name, "$.run_id: a control character in the run's id");
	static const char *objs[] = { "environment", "method", "matrix", "tool" };
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		json_t *o = json_object_get(root, objs[i]);
		if (o && !json_is_null(o) && !json_is_object(o))
			return bad(err, errlen, name, "$.%s: expected an object, got %s", objs[i],
				   type_name(o));
	}
	json_t *sum = json_object_get(root, "summary");
	if (sum && !json_is_null(sum) && !json_is_array(sum))
		return bad(err, errlen, name, "$.summary: expected an array, got %s",
			   type_name(sum));
	json_t *cases = json_object_get(root, "cases");
	if (!cases)
		return bad(err, errlen, name, "$.cases: missing (expected an array of cases)");
	if (!json_is_array(cases))
		return bad(err, errlen, name, "$.cases: expected an array, got %s",
			   type_name(cases));
	*maxes = NULL;
	json_t *mx = json_object_get(root, "matrix");
	json_t *ax = json_is_object(mx) ? json_object_get(mx, "axes") : NULL;
	if (ax && !json_is_null(ax)) {
		if (!json_is_object(ax))
			return bad(err, errlen, name, "$.matrix.axes: expected an object of arrays, "
				   "got %s", type_name(ax));
		const char *k;
		json_t *v;
		json_object_foreach(ax, k, v) {
			if (!json_is_array(v))
				return bad(err, errlen, name, "$.matrix.axes.%s: expected an array of "
					   "values, got %s", k, type_name(v));
			size_t i;
			json_t *e;
			json_array_foreach(v, i, e)
				if (!is_scalar(e))
					return bad(err, errlen, name, "$.matrix.axes.%s[%zu]: expected a "
						   "number, string or boolean, got %s", k, i,
						   type_name(e));
		}
		*maxes = ax;
	}
	return 0;
}

void res_free(struct res_file *rf)
{
	if (!rf)
		return;
	for (size_t i = 0; i < rf->ncells; i++) {
		free(rf->cells[i].key);
		free(rf->cells[i].canon);
		free(rf->cells[i].cases);
		free(rf->cells[i].vi);
	}
	for (size_t i = 0; i < rf->naxes; i++) {
		free(rf->axes[i].name);
		free(rf->axes[i].values);
		ix_free(rf->axes[i].ix);
	}
	ix_free(rf->canon_ix);
	for (size_t i = 0; i < rf->nmetrics; i++)
		free(rf->metrics[i]);
	free(rf->metrics);
	free(rf->axes);
	free(rf->cells);
	free(rf->cases);
	free(rf->path);
	json_decref(rf->root);
	free(rf);
}

struct canon_idx {
	char *canon;
	size_t i;
};

static int cmp_canon_idx(const void *a, const void *b)
{
	const struct canon_idx *x = a, *y = b;
	int c = strcmp(x->canon, y->canon);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int cmp_rep(const void *a, const void *b)
{
	const struct res_case *x = *(const struct res_case *const *)a;
	const struct res_case *y = *(const struct res_case *const *)b;
	return (x->rep > y->rep) - (x->rep < y->rep);
}

/* Two cases of one cell with the same repetition number: one would count twice (a
 * median shifted, a spread made up). -EINVAL naming both, or 0 (or -ENOMEM). */
static int check_reps(const struct res_file *rf, const struct res_cell *c, const char *name,
		      char *err, size_t errlen)
{
	if (c->ncases < 2)
		return 0;
	const struct res_case **v = malloc(c->ncases * sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	for (size_t k = 0; k < c->ncases; k++)   /* a case without "rep" is not numbered */
		if (json_is_integer(json_object_get(rf->cases[c->cases[k]].obj, "rep")))
			v[n++] = &rf->cases[c->cases[k]];
	qsort(v, n, sizeof(*v), cmp_rep);
	int rc = 0;
	for (size_t k = 1; k < n && !rc; k++)
		if (v[k]->rep == v[k - 1]->rep) {
			size_t a = (size_t)(v[k - 1] - rf->cases), b = (size_t)(v[k] - rf->cases);
			rc = bad(err, errlen, name, "$.cases[%zu]: repetition %d of case %s again "
				 "(first at $.cases[%zu]): each repetition counts once", a > b ? a : b,
				 v[k]->rep, c->key, a < b ? a : b);
		}
	free(v);
	return rc;
}

/* Groups cases into cells by canonical params, then orders the cells. */
static int build_cells(struct res_file *rf, const char *name, char *err, size_t errlen)
{
	size_t n = rf->ncases;
	int rc = -ENOMEM;
	struct canon_idx *ci = calloc(n ? n : 1, sizeof(*ci));
	if (!ci)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		ci[i].i = i;
		if (!(ci[i].canon = res_canon(rf->cases[i].params)))
			goto out;
	}
	qsort(ci, n, sizeof(*ci), cmp_canon_idx);
	rf->cells = calloc(n ? n : 1, sizeof(*rf->cells));
	if (!rf->cells)
		goto out;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !strcmp(ci[j].canon, ci[i].canon))
			j++;
		struct res_cell *c = &rf->cells[rf->ncells++];
		c->canon = ci[i].canon;
		ci[i].canon = NULL;
		c->params = rf->cases[ci[i].i].params;
		c->ncases = j - i;
		if (!(c->cases = malloc(c->ncases * sizeof(*c->cases))) ||
		    !(c->key = display_key(rf, c->params)))
			goto out;
		for (size_t k = i; k < j; k++)
			c->cases[k - i] = ci[k].i;
		if ((rc = check_reps(rf, c, name, err, errlen)))
			goto out;
		rc = -ENOMEM;
		if (!(c->vi = malloc((rf->naxes + 1) * sizeof(*c->vi))))
			goto out;
		for (size_t a = 0; a < rf->naxes; a++) {
			json_t *v = json_object_get(c->params, rf->axes[a].name);
			c->vi[a] = v ? value_index(&rf->axes[a], v) : -1;
		}
		i = j;
	}
	sort_rf = rf;
	qsort(rf->cells, rf->ncells, sizeof(*rf->cells), cell_cmp);
	sort_rf = NULL;
	for (size_t c = 0; c < rf->ncells; c++) {
		for (size_t k = 0; k < rf->cells[c].ncases; k++)
			rf->cases[rf->cells[c].cases[k]].cell = c;
		if (ix_put(&rf->canon_ix, rf->cells[c].canon, strlen(rf->cells[c].canon), c))
			goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(ci[i].canon);
	free(ci);
	return rc;
}

int res_from_json(json_t *root, const char *name, struct res_file **out, char *err,
		  size_t errlen)
{
	json_t *maxes;
	int rc = check_top(root, name, &maxes, err, errlen);
	if (rc)
		return rc;
	struct res_file *rf = calloc(1, sizeof(*rf));
	if (!rf || !(rf->path = strdup(name))) {
		free(rf);
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	rf->root = json_incref(root);
	rf->run_id = json_string_value(json_object_get(root, "run_id"));
	json_t *cases = json_object_get(root, "cases");
	rf->ncases = json_array_size(cases);
	rf->cases = calloc(rf->ncases ? rf->ncases : 1, sizeof(*rf->cases));
	rc = -ENOMEM;
	if (!rf->cases)
		goto fail;
	const char *k;
	json_t *v;
	json_object_foreach(maxes, k, v)
		if (add_axis(rf, k))
			goto fail;
	for (size_t i = 0; i < rf->ncases; i++) {
		if ((rc = check_case(json_array_get(cases, i), i, name, &rf->cases[i], err, errlen)))
			goto fail;
		rc = -ENOMEM;
		json_object_foreach(rf->cases[i].params, k, v)
			if (add_axis(rf, k))
				goto fail;
		json_object_foreach(rf->cases[i].metrics, k, v)
			if (add_metric(rf, k))
				goto fail;
	}
	for (size_t i = 0; i < rf->ncases; i++)
		json_object_foreach(rf->cases[i].params, k, v)
			if (add_value(&rf->axes[axis_index(rf, k)], v))
				goto fail;
	if (order_values(rf, maxes) || (rc = build_cells(rf, name, err, errlen)))
		goto fail;
	*out = rf;
	return 0;
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	res_free(rf);
	return rc;
}

int res_load(const char *path, struct res_file **out, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;
	if (!strcmp(path, "-")) {
		root = json_loadf(stdin, JSON_REJECT_DUPLICATES, &je);
	} else {
		FILE *f = fopen(path, "r");
		if (!f) {
			int e = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			return e == ENOMEM ? -ENOMEM : -ENOENT;
		}
		struct stat st;
		if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
			fclose(f);
			snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
			return -ENOENT;   /* not an input file: the callers' EX_NOINPUT */
		}
		root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
		fclose(f);
	}
	if (!root) {
		snprintf(err, errlen, "%s:%d:%d: not valid JSON: %s", path, je.line, je.column,
			 je.text);
		return -EINVAL;
	}
	int rc = res_from_json(root, path, out, err, errlen);
	json_decref(root);
	return rc;
}

int res_cell_stats(const struct res_file *rf, size_t cell, const char *metric,
		   struct res_stats *st, double *vals)
{
	const struct res_cell *c = &rf->cells[cell];
	double *v = vals ? vals : calloc(c->ncases ? c->ncases : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	st->flagged = st->failed = st->missing = 0;
	for (size_t i = 0; i < c->ncases; i++) {
		const struct res_case *rc = &rf->cases[c->cases[i]];
		if (rc->failed) {
			st->failed++;
			continue;
		}
		if (res_metric(rc, metric, &v[n])) {
			st->missing++;
			continue;
		}
		st->flagged += rc->flagged != 0;
		n++;
	}
	int rc = st_summarize(v, n, &st->s);
	if (!vals)
		free(v);
	return rc;
}

json_t *res_summary(const struct res_file *rf)
{
	json_t *arr = json_array();
	struct res_stats st;
	for (size_t c = 0; arr && c < rf->ncells; c++) {
		for (size_t m = 0; m < rf->nmetrics; m++) {
			if (res_cell_stats(rf, c, rf->metrics[m], &st, NULL)) {
				json_decref(arr);
				return NULL;
			}
			if (!st.s.n)
				continue;
			json_t *o = json_object();
			json_object_set_new(o, "case", json_string(rf->cells[c].key));
			json_object_set(o, "params", rf->cells[c].params);
			json_object_set_new(o, "metric", json_string(rf->metrics[m]));
			json_object_set_new(o, "n", json_integer((json_int_t)st.s.n));
			const struct { const char *k; double v; } f[] = {
				{ "median", st.s.median }, { "mean", st.s.mean },
				{ "stdev", st.s.stdev }, { "min", st.s.min }, { "max", st.s.max },
				{ "cv", st.s.cv },
			};
			for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
				json_object_set_new(o, f[i].k, isfinite(f[i].v) ? json_real(f[i].v)
									      : json_null());
			json_object_set_new(o, "flagged", json_integer((json_int_t)st.flagged));
			json_array_append_new(arr, o);
		}
	}
	return arr;
}

int res_sel_add(struct res_sel *sel, const char *axis, const char *value)
{
	struct res_cond *n = realloc(sel->c, (sel->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	sel->c = n;
	n[sel->n].axis = strdup(axis);
	n[sel->n].value = strdup(value);
	if (!n[sel->n].axis || !n[sel->n].value) {
		free(n[sel->n].axis);
		free(n[sel->n].value);
		return -ENOMEM;
	}
	sel->n++;
	return 0;
}

int res_sel_parse(struct res_sel *sel, const char *text, char *err, size_t errlen)
{
	char *dup = strdup(text), *save = NULL;
	if (!dup)
		return -ENOMEM;
	int rc = 0;
	for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		if (!eq || eq == t || !eq[1]) {
			snprintf(err, errlen, "'%s': expected AXIS=VALUE", t);
			rc = -EINVAL;
			break;
		}
		*eq = 0;
		rc = res_sel_add(sel, t, eq + 1);
	}
	if (!rc && !strchr(text, '=')) {
		snprintf(err, errlen, "'%s': expected AXIS=VALUE[,AXIS=VALUE...]", text);
		rc = -EINVAL;
	}
	free(dup);
	return rc;
}

int res_sel_opt(struct res_sel *sel, const char *text, char *err, size_t errlen)
{
	if (res_sel_parse(sel, text, err, errlen))
		return cli_bad_text(err, errlen, "where", text, "AXIS=VALUE[,AXIS=VALUE...]");
	return 0;
}

void res_sel_free(struct res_sel *sel)
{
	for (size_t i = 0; i < sel->n; i++) {
		free(sel->c[i].axis);
		free(sel->c[i].value);
	}
	free(sel->c);
	sel->c = NULL;
	sel->n = 0;
}

int res_params_match(const json_t *params, const struct res_sel *sel)
{
	for (size_t i = 0; sel && i < sel->n; i++) {
		json_t *v = json_object_get(params, sel->c[i].axis);
		if (!v || !res_value_matches(v, sel->c[i].value))
			return 0;
	}
	return 1;
}

/* "a, b, c" of an axis' values, shortened to fit. */
static void values_list(const struct res_axis *a, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < a->nvalues && o + 8 < len; i++) {
		char v[64];
		res_value_str(a->values[i], v, sizeof(v));
		int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", v);
		if (w < 0 || (size_t)w >= len - o) {
			size_t at = o + 8 < len ? o : len - 8;
			memcpy(buf + at, ", ...", 6);
			break;
		}
		o += (size_t)w;
	}
}

int res_sel_check(const struct res_file *rf, const struct res_sel *sel, const char *what,
		  char *err, size_t errlen)
{
	char list[512];
	for (size_t i = 0; i < sel->n; i++) {
		const struct res_axis *a = res_axis(rf, sel->c[i].axis);
		if (!a) {
			size_t o = 0;
			list[0] = 0;
			for (size_t j = 0; j < rf->naxes && o < sizeof(list) - 1; j++)
				o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", j ? ", " : "",
						      rf->axes[j].name);
			snprintf(err, errlen, "%s %s=%s: %s has no axis '%s' (axes: %s)", what,
				 sel->c[i].axis, sel->c[i].value, rf->path, sel->c[i].axis,
				 rf->naxes ? list : "none");
			return -EINVAL;
		}
		int found = 0;
		for (size_t j = 0; j < a->nvalues; j++)
			found |= res_value_matches(a->values[j], sel->c[i].value);
		if (!found) {
			values_list(a, list, sizeof(list));
			snprintf(err, errlen, "%s %s=%s: no case in %s has %s=%s (values: %s)", what,
				 sel->c[i].axis, sel->c[i].value, rf->path, sel->c[i].axis,
				 sel->c[i].value, list);
			return -EINVAL;
		}
	}
	return 0;
}

int res_save(const char *path, const json_t *root)
{
	/* dumped to memory first, written with write(2): a full disk says ENOSPC */
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	char *t = realloc(text, len + 2);
	if (!t) {
		free(text);
		return -ENOMEM;
	}
	t[len] = '\n';
	t[len + 1] = 0;
	/* a results file someone made private stays private through every save */
	struct stat st;
	mode_t mode = lstat(path, &st) == 0 && S_ISREG(st.st_mode) ? st.st_mode & 0777 : 0644;
	int rc = safe_write_file(path, mode, t, len + 1, SAFE_SYNC);
	free(t);
	return rc;
}

json_t *res_get(const json_t *root, ...)
{
	va_list ap;
	va_start(ap, root);
	const json_t *v = root;
	for (const char *k = va_arg(ap, const char *); k && v; k = va_arg(ap, const char *))
		v = json_is_object(v) ? json_object_get(v, k) : NULL;
	va_end(ap);
	return jmut(v);
}

char *res_env_line(const struct res_file *rf, const char *role, char *buf, size_t len)
{
	json_t *box = res_get(rf->root, "environment", role, NULL);
	size_t o = 0;
	buf[0] = 0;
	if (!json_is_object(box))
		return buf;
#define ADD(...) do { if (o < len) o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__); } while (0)
	const char *os = json_string_value(res_get(box, "os", "name", NULL));
	const char *ver = json_string_value(res_get(box, "os", "version", NULL));
	const char *kern = json_string_value(res_get(box, "os", "kernel", NULL));
	if (os)
		ADD("%s", os);
	if (ver)
		ADD("%s%s", o ? " " : "", ver);
	if (kern)
		ADD("%s(%s)", o ? " " : "", kern);
	const char *cpu = json_string_value(res_get(box, "cpu", "model", NULL));
	json_t *cores = res_get(box, "cpu", "cores", NULL);
	if (cpu)
		ADD("%s%s", o ? ", " : "", cpu);
	if (json_is_integer(cores))
		ADD("%s%lld cores", o ? ", " : "", (long long)json_integer_value(cores));
	json_t *nics = json_object_get(box, "nics");
	json_t *nic = json_array_get(nics, 0);
	const char *drv = json_string_value(json_object_get(nic, "driver"));
	json_t *speed = json_object_get(nic, "speed_mbps");
	if (drv) {
		ADD("%s%s", o ? ", " : "", drv);
		if (json_array_size(nics) > 1)
			ADD(" ×%zu", json_array_size(nics));
		if (json_is_number(speed))
			ADD(" %.0f Mb/s", json_number_value(speed));
	}
	const char *router = json_string_value(json_object_get(box, "router"));
	if (router)
		ADD("%s%s", o ? ", " : "", router);
#undef ADD
	return buf;
}
