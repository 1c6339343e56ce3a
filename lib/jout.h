/* SPDX-License-Identifier: BSD-2-Clause */
/* jout.h — JSON output on jansson, outside the hot path.
 *
 * ppslab-gen, ppslab-sink and ppslab-rut with --json print JSON Lines: first a
 * "type": "ready" object (ready.h), then one compact object per interval and one final
 * object with "type": "summary".
 * Counters are 64-bit; jansson's integers are signed 64-bit, which holds every counter
 * we keep. */
#ifndef PPSLAB_LIB_JOUT_H
#define PPSLAB_LIB_JOUT_H

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* A const value where jansson wants json_t *: its iteration macros and json_incref take
 * json_t * though iterating does not change the value (json_incref changes only the
 * count). The one place the code says so; the build warns on a cast that drops const. */
static inline json_t *jmut(const json_t *j)
{
	union {
		const json_t *c;
		json_t *m;
	} u = { .c = j };
	return u.m;
}

/* Member k of o as a number, NaN when it is none (or o is NULL). */
static inline double jnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* o.k = v, null when v is NaN (as jset_f, which nulls an infinity too). */
static inline void jset_num(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, isnan(v) ? json_null() : json_real(v));
}

/* Prints obj compactly on one line, adds a newline, flushes, and drops the reference. */
void jout_emit(FILE *f, json_t *obj);

/* Set helpers: the value is created and the key set; NULL/NaN become null. */
void jset_u64(json_t *o, const char *key, uint64_t v);
void jset_i64(json_t *o, const char *key, int64_t v);
void jset_f(json_t *o, const char *key, double v);
void jset_s(json_t *o, const char *key, const char *v);
void jset_b(json_t *o, const char *key, int v);

struct hist;
/* A histogram's summary: {"count"}, and with samples also "min", "mean", "p50", "p90",
 * "p99", "p999" and "max", in that order; the caller may add keys after them. */
json_t *jout_hist(const struct hist *h);

/* Object with "schema": "ppslab/<tool>", "schema_version", "tool", "type". */
json_t *jout_obj(const char *tool, const char *type);

#define PPSLAB_JSON_SCHEMA_VERSION "1.0.0"

/* Reading it back: the last line of a JSON Lines file whose "type" is "summary" (what
 * a tool printed last), or NULL when there is none or the file cannot be read. */
json_t *jout_last_summary(const char *path);

#endif
