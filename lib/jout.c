/* SPDX-License-Identifier: BSD-2-Clause */
/* jout.c — JSON Lines output helpers (see jout.h). */
#include "jout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void jout_emit(FILE *f, json_t *obj)
{
	char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (s) {
		fputs(s, f);
		fputc('\n', f);
		fflush(f);
		free(s);
	}
	json_decref(obj);
}

json_t *jout_hist(const struct hist *h)
{
	json_t *o = json_object();
	jset_u64(o, "count", h->count);
	if (h->count) {
		jset_u64(o, "min", h->min);
		jset_f(o, "mean", hist_mean(h));
		jset_u64(o, "p50", hist_quantile(h, 0.50));
		jset_u64(o, "p90", hist_quantile(h, 0.90));
		jset_u64(o, "p99", hist_quantile(h, 0.99));
		jset_u64(o, "p999", hist_quantile(h, 0.999));
		jset_u64(o, "max", h->max);
	}
	return o;
}

void jset_u64(json_t *o, const char *key, uint64_t v)
{
	json_object_set_new(o, key, json_integer((json_int_t)v));
}

void jset_i64(json_t *o, const char *key, int64_t v)
{
	json_object_set_new(o, key, json_integer((json_int_t)v));
}

void jset_f(json_t *o, const char *key, double v)
{
	json_object_set_new(o, key, isfinite(v) ? json_real(v) : json_null());
}

void jset_s(json_t *o, const char *key, const char *v)
{
	json_object_set_new(o, key, v ? json_string(v) : json_null());
}

void jset_b(json_t *o, const char *key, int v)
{
	json_object_set_new(o, key, json_boolean(v));
}

json_t *jout_obj(const char *tool, const char *type)
{
	json_t *o = json_object();
	char schema[64];
	snprintf(schema, sizeof(schema), "ppslab/%s", tool);
	jset_s(o, "schema", schema);
	jset_s(o, "schema_version", PPSLAB_JSON_SCHEMA_VERSION);
	jset_s(o, "tool", tool);
	jset_s(o, "type", type);
	return o;
}

json_t *jout_last_summary(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	json_t *sum = NULL;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0)
		if (strstr(line, "\"type\":\"summary\"")) {
			json_decref(sum);
			sum = json_loads(line, 0, NULL);
		}
	free(line);
	fclose(f);
	return sum;
}
