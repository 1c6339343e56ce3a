/* SPDX-License-Identifier: BSD-2-Clause */
/* expect.c — reads the sender's JSON summary into per-stream expected counts (see
 * expect.h). Called by main.c before the run; jansson does the parsing and gives the
 * line and column of a syntax error. */
#include "expect.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int take(struct expect_table *t, const char *name, int line, json_t *o, char *err,
		size_t errlen)
{
	json_t *id = json_object_get(o, "stream"), *n = json_object_get(o, "tx_pkts");
	json_t *tp = json_object_get(o, "test_pkts"), *ho = json_object_get(o, "seq_holes");
	json_t *fa = json_object_get(o, "tx_fail");
	uint64_t holes = 0, failed = 0;
	if (json_is_integer(tp) && json_integer_value(tp) >= 0) {
		n = tp;
		if (json_is_integer(ho) && json_integer_value(ho) >= 0)
			holes = (uint64_t)json_integer_value(ho);
		/* frames the sender's kernel took and then rejected carry numbers but never
		 * left: the sender's loss, not the network's */
		if (json_is_integer(fa) && json_integer_value(fa) > 0)
			failed = (uint64_t)json_integer_value(fa);
		if (failed > (uint64_t)json_integer_value(tp))
			failed = (uint64_t)json_integer_value(tp);
	}
	if (!json_is_integer(id) || json_integer_value(id) < 0 ||
	    json_integer_value(id) >= EXPECT_STREAMS) {
		snprintf(err, errlen, "%s:%d: expected \"stream\": an integer 0..255", name, line);
		return -EINVAL;
	}
	if (!json_is_integer(n) || json_integer_value(n) < 0) {
		snprintf(err, errlen, "%s:%d: expected \"tx_pkts\" (or \"test_pkts\"): frames sent",
			 name, line);
		return -EINVAL;
	}
	int s = (int)json_integer_value(id);
	if (t->have[s]) {
		snprintf(err, errlen, "%s:%d: stream %d is also given by %s", name, line, s,
			 t->from[s]);
		return -EINVAL;
	}
	t->have[s] = true;
	t->tx_pkts[s] = (uint64_t)json_integer_value(n) + holes;
	t->holes[s] = holes + failed;
	snprintf(t->from[s], sizeof(t->from[s]), "%s", name);
	return 0;
}

static int use_summary(struct expect_table *t, const char *name, int line, json_t *o,
		       char *err, size_t errlen)
{
	json_t *arr = json_object_get(o, "streams");
	if (json_is_array(arr) && json_array_size(arr) &&
	    (json_object_get(json_array_get(arr, 0), "tx_pkts") ||
	     json_object_get(json_array_get(arr, 0), "test_pkts"))) {
		size_t i;
		json_t *e;
		json_array_foreach(arr, i, e) {
			if (!json_is_object(e)) {
				snprintf(err, errlen, "%s:%d: expected objects in \"streams\"", name, line);
				return -EINVAL;
			}
			int rc = take(t, name, line, e, err, errlen);
			if (rc)
				return rc;
		}
		return 0;
	}
	return take(t, name, line, o, err, errlen);
}

int expect_parse(struct expect_table *t, const char *name, const char *text, char *err,
		 size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	int rc = -EINVAL;
	if (doc) {   /* a single JSON document */
		if (!json_is_object(doc)) {
			snprintf(err, errlen, "%s:1:1: expected a JSON object (the sender's summary)",
				 name);
			json_decref(doc);
			return -EINVAL;
		}
		/* one line of another type: a sender that ended after its ready line */
		const char *ty = json_string_value(json_object_get(doc, "type"));
		if (ty && strcmp(ty, "summary")) {
			snprintf(err, errlen, "%s:1: no summary (an object with \"type\": \"summary\"), "
				 "only \"%s\": did the sender run with --json and finish?", name, ty);
			json_decref(doc);
			return -EINVAL;
		}
		rc = use_summary(t, name, 1, doc, err, errlen);
		json_decref(doc);
		return rc;
	}
	if (!strstr(je.text, "end of file expected")) {
		snprintf(err, errlen, "%s:%d:%d: %s", name, je.line, je.column, je.text);
		return -EINVAL;
	}
	/* JSON Lines: every line must parse; the last summary wins */
	json_t *best = NULL, *last = NULL;
	int best_line = 0, last_line = 0, line = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		line++;
		size_t k = 0;
		while (k < len && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
			k++;
		if (k < len) {
			json_t *o = json_loadb(p, len, 0, &je);
			if (!o || !json_is_object(o)) {
				if (o)
					snprintf(err, errlen, "%s:%d:1: expected a JSON object", name, line);
				else
					snprintf(err, errlen, "%s:%d:%d: %s", name, line, je.column, je.text);
				json_decref(o);
				goto out;
			}
			const char *ty = json_string_value(json_object_get(o, "type"));
			if (ty && !strcmp(ty, "summary")) {
				json_decref(best);
				best = json_incref(o);
				best_line = line;
			}
			json_decref(last);
			last = o;
			last_line = line;
		}
		p += len + (nl ? 1 : 0);
	}
	if (!best) {
		snprintf(err, errlen, "%s:%d: no summary (an object with \"type\": \"summary\"): "
			 "did the sender run with --json and finish?", name, last_line ? last_line : 1);
		goto out;
	}
	rc = use_summary(t, name, best_line, best, err, errlen);
out:
	json_decref(best);
	json_decref(last);
	return rc;
}

int expect_load(struct expect_table *t, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int rc = 0;
	while (buf) {
		if (n + 4096 + 1 > cap) {
			if (cap >= (64u << 20)) {
				snprintf(err, errlen, "%s: larger than 64 MiB: not a sender summary", path);
				rc = -EINVAL;
				break;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		rc = -EIO;
	}
	fclose(f);
	if (!rc) {
		buf[n] = 0;
		if (strlen(buf) != n) {
			snprintf(err, errlen, "%s: contains NUL bytes: not a JSON summary", path);
			rc = -EINVAL;
		} else {
			rc = expect_parse(t, path, buf, err, errlen);
		}
	}
	free(buf);
	return rc;
}
