/* SPDX-License-Identifier: BSD-2-Clause */
/* profile_check.c — the typed JSON checker of profiles (see profile_impl.h): every
 * problem collected with its place (FILE:LINE:COL through jpos.c, or "--set N"), the
 * typed getters that report their own errors, and the check of one axis value. Used by
 * profile.c, profile_set.c, profile_router.c and profile_topo.c. */
#include "profile_impl.h"
#include "strlist.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jpos.h"
#include "num.h"
#include "results.h"

/* ---- diagnostics --------------------------------------------------------------- */

void prof_diag_free(struct prof_diag *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->msg[i]);
	free(d->msg);
	d->msg = NULL;
	d->n = 0;
}

int prof_diag_add(struct prof_diag *d, const char *msg)
{
	return d ? strv_add(&d->msg, &d->n, msg) : 0;
}

static size_t mark_of(const struct vctx *c, const char *path)
{
	size_t found = 0;
	for (size_t i = 0; i < c->nmarks; i++) {
		size_t n = strlen(c->marks[i].path);
		if (!strncmp(path, c->marks[i].path, n) &&
		    (path[n] == 0 || path[n] == '.' || path[n] == '['))
			found = c->marks[i].setno;
	}
	return found;
}

/* Appends one error (e.msg becomes a copy of msg); on allocation failure the context
 * remembers it ran out of memory. */
static void add_err(struct vctx *c, struct perr e, const char *msg)
{
	for (size_t i = 0; c->test && i < c->nerr; i++)
		if (!strcmp(c->errs[i].msg, msg))
			return;   /* the profile's own, found again in a test's tree */
	struct perr *n = realloc(c->errs, (c->nerr + 1) * sizeof(*n));
	if (!n || !(e.msg = strdup(msg))) {
		if (n)
			c->errs = n;
		c->oom = 1;
		return;
	}
	c->errs = n;
	c->errs[c->nerr++] = e;
}

/* The place of path: its key (at_key) or value, else that of the nearest ancestor. */
static void place(const struct vctx *c, const char *path, bool at_key, int *line, int *col)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", path);
	*line = *col = 0;
	if (at_key && !jpos_find_key(c->jp, buf, line, col))
		return;
	for (;;) {
		if (!jpos_find(c->jp, buf, line, col))
			return;
		char *dot = strrchr(buf, '.'), *br = strrchr(buf, '[');
		char *cut = dot > br ? dot : br;
		if (!cut) {
			if (!buf[0])
				return;
			buf[0] = 0;
		} else {
			*cut = 0;
		}
	}
}

/* While a test is checked (c->test): path as in the file. Its tree is the profile's
 * with the test's trial keys and axes laid over it, so trial.KEY, matrix.AXIS and
 * params.AXIS are the test's own when the test gives that key (or the whole section),
 * else the profile's. */
static const char *test_path(const struct vctx *c, const char *path, char *buf, size_t len)
{
	static const char *const sec[] = { "trial", "matrix", "params" };
	if (!c->test || !path)
		return path;
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(sec[i]);
		if (strncmp(path, sec[i], n) || (path[n] && path[n] != '.'))
			continue;
		const json_t *ts = json_object_get(c->test, sec[i]);
		if (!ts)
			return path;
		if (path[n] == '.') {
			char key[256];
			const char *k = path + n + 1;
			snprintf(key, sizeof(key), "%.*s", (int)strcspn(k, ".["), k);
			if (!json_object_get(ts, key))
				return path;
		}
		snprintf(buf, len, "%s.%s", c->test_at, path);
		return buf;
	}
	return path;
}

__attribute__((format(printf, 4, 5)))
void prof_verr(struct vctx *c, const char *path, bool at_key, const char *fmt, ...)
{
	char what[1024], msg[3200], tp[1024];
	path = test_path(c, path, tp, sizeof(tp));
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);

	struct perr e = { .seq = c->nerr };
	const char *shown = path && *path ? path : "(top level)";
	e.setno = path ? mark_of(c, path) : 0;
	if (e.setno)
		snprintf(msg, sizeof(msg), "--set %zu: %s: %s", e.setno, shown, what);
	else {
		if (path)
			place(c, path, at_key, &e.line, &e.col);
		if (e.line)
			snprintf(msg, sizeof(msg), "%s:%d:%d: %s: %s", c->fname, e.line, e.col,
				 shown, what);
		else
			snprintf(msg, sizeof(msg), "%s: %s: %s", c->fname, shown, what);
	}
	add_err(c, e, msg);
}

/* An error of --set N itself (before it is applied). */
__attribute__((format(printf, 3, 4)))
void prof_seterr(struct vctx *c, size_t setno, const char *fmt, ...)
{
	char what[1024], msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "--set %zu: %s", setno, what);
	struct perr e = { .seq = c->nerr, .setno = setno };
	add_err(c, e, msg);
}

/* File order: placed errors by position, then unplaced ones, then --set ones by N. */
int prof_perr_cmp(const void *a, const void *b)
{
	const struct perr *x = a, *y = b;
	int gx = x->setno ? 2 : x->line ? 0 : 1, gy = y->setno ? 2 : y->line ? 0 : 1;
	if (gx != gy)
		return gx - gy;
	if (x->setno != y->setno)
		return x->setno < y->setno ? -1 : 1;
	if (x->line != y->line)
		return x->line - y->line;
	if (x->col != y->col)
		return x->col - y->col;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* "got ..." text of a value, for messages. */
const char *prof_got(const json_t *v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "nothing");
	else if (json_is_string(v))
		snprintf(buf, len, "string \"%.60s%s\"", json_string_value(v),
			 strlen(json_string_value(v)) > 60 ? "..." : "");
	else if (json_is_object(v))
		snprintf(buf, len, "an object");
	else if (json_is_array(v))
		snprintf(buf, len, "a list");
	else
		res_value_str(v, buf, len);
	return buf;
}

/* Unknown keys of obj: an error each, naming the key, where, and the known ones. */
void prof_check_keys(struct vctx *c, json_t *obj, const char *path, const char *const *known)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		bool ok = false;
		for (size_t i = 0; known[i]; i++)
			ok |= !strcmp(known[i], k);
		if (ok)
			continue;
		char list[512] = "", kp[512];
		size_t n = 0;
		for (size_t i = 0; known[i] && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
					      known[i]);
		jpos_path_key(kp, sizeof(kp), path, k);
		prof_verr(c, kp, true, "unknown key \"%s\" in %s; known keys: %s", k,
			  *path ? path : "the top level", list);
	}
}

/* ---- typed getters: each reports its own error and returns -EINVAL -------------- */

int prof_want_object(struct vctx *c, const json_t *v, const char *path)
{
	char gbuf[128];
	if (v && !json_is_object(v)) {
		prof_verr(c, path, false, "expected an object {...}, got %s", GOT(v));
		return -EINVAL;
	}
	return 0;
}

/* A whole number in [min, max]: JSON integers, integral reals, or count text ("2k"). */
static int as_int(struct vctx *c, const json_t *v, const char *path, long long min,
		  long long max, long long *out)
{
	char gbuf[128];
	double d = NAN;
	if (json_is_integer(v)) {
		d = (double)json_integer_value(v);
	} else if (json_is_real(v)) {
		d = json_real_value(v);
	} else if (json_is_string(v)) {
		uint64_t u;
		int rc = num_count(json_string_value(v), 0, UINT64_MAX / 2, &u);
		if (rc == 0)
			d = (double)u;
	}
	if (isnan(d) || d != floor(d)) {
		prof_verr(c, path, false, "expected a whole number %lld..%lld, got %s", min, max,
			  GOT(v));
		return -EINVAL;
	}
	if (d < (double)min || d > (double)max) {
		prof_verr(c, path, false, "expected a whole number %lld..%lld, got %s (out of range)",
			  min, max, GOT(v));
		return -EINVAL;
	}
	*out = (long long)d;
	return 0;
}

int prof_get_int(struct vctx *c, const json_t *obj, const char *key, const char *path,
		 long long min, long long max, long long def, long long *out)
{
	char kp[512];
	const json_t *v = obj ? json_object_get(obj, key) : NULL;
	*out = def;
	if (!v)
		return 0;
	return as_int(c, v, jpos_path_key(kp, sizeof(kp), path, key), min, max, out);
}

/* A duration: a number of seconds or text such as "500ms" (lib/num.h). */
int prof_get_dur(struct vctx *c, const json_t *obj, const char *key, const char *path,
		 double def, double *out)
{
	char kp[512], gbuf[128];
	const json_t *v = obj ? json_object_get(obj, key) : NULL;
	*out = def;
	if (!v)
		return 0;
	jpos_path_key(kp, sizeof(kp), path, key);
	if (json_is_number(v)) {
		double d = json_number_value(v);
		if (d >= 0 && d <= 86400) {
			*out = d;
			return 0;
		}
	} else if (json_is_string(v)) {
		uint64_t ns;
		if (!num_duration_ns(json_string_value(v), 0, 86400ULL * 1000000000ULL, &ns)) {
			*out = (double)ns / 1e9;
			return 0;
		}
	}
	prof_verr(c, kp, false, "expected %s (at most 24 h), got %s", num_expect_duration(),
		  GOT(v));
	return -EINVAL;
}

/* A packet rate: a positive number of pps or text such as "200k"; "max" → 0 when
 * allowed. */
int prof_as_rate(struct vctx *c, const json_t *v, const char *path, bool allow_max,
		 double *out)
{
	char gbuf[128];
	double r = NAN;
	if (json_is_number(v) && json_number_value(v) > 0 && json_number_value(v) <= 1e12)
		r = json_number_value(v);
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (allow_max && !strcmp(s, "max")) {
			*out = 0;
			return 0;
		}
		if (num_pps(s, &r))
			r = NAN;
	}
	if (r == floor(r)) {
		*out = r;
		return 0;
	}
	if (!isnan(r)) {   /* the sender paces whole frames per second: 0.5 was sent as 1 */
		prof_verr(c, path, false, "expected a whole number of packets per second, got %s "
			  "(%g pps)", GOT(v), r);
		return -EINVAL;
	}
	prof_verr(c, path, false, "expected a number or a rate like \"200k\"%s, got %s",
		  allow_max ? " or \"max\"" : "", GOT(v));
	return -EINVAL;
}

int prof_get_bool(struct vctx *c, const json_t *obj, const char *key, const char *path,
		  bool def, bool *out)
{
	char kp[512], gbuf[128];
	const json_t *v = obj ? json_object_get(obj, key) : NULL;
	*out = def;
	if (!v)
		return 0;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return 0;
	}
	prof_verr(c, jpos_path_key(kp, sizeof(kp), path, key), false,
		  "expected true or false, got %s", GOT(v));
	return -EINVAL;
}

void prof_names_list(const char *const *names, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; names[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s\"%s\"", i ? (names[i + 1] ? ", " :
									    " or ") : "",
				      names[i]);
}

static int as_enum(struct vctx *c, const json_t *v, const char *path,
		   const char *const *names, int *out)
{
	char gbuf[128], list[256];
	if (json_is_string(v))
		for (int i = 0; names[i]; i++)
			if (!strcmp(names[i], json_string_value(v))) {
				*out = i;
				return 0;
			}
	prof_names_list(names, list, sizeof(list));
	prof_verr(c, path, false, "expected %s, got %s", list, GOT(v));
	return -EINVAL;
}

int prof_get_enum(struct vctx *c, const json_t *obj, const char *key, const char *path,
		  const char *const *names, int def, int *out)
{
	char kp[512];
	const json_t *v = obj ? json_object_get(obj, key) : NULL;
	*out = def;
	if (!v)
		return 0;
	return as_enum(c, v, jpos_path_key(kp, sizeof(kp), path, key), names, out);
}

/* A string (borrowed), or NULL when absent. */
int prof_get_str(struct vctx *c, const json_t *obj, const char *key, const char *path,
		 const char **out)
{
	char kp[512], gbuf[128];
	const json_t *v = obj ? json_object_get(obj, key) : NULL;
	*out = NULL;
	if (!v)
		return 0;
	if (json_is_string(v) && json_string_length(v) > 0 &&
	    strlen(json_string_value(v)) == json_string_length(v)) {
		*out = json_string_value(v);
		return 0;
	}
	prof_verr(c, jpos_path_key(kp, sizeof(kp), path, key), false,
		  "expected a non-empty string, got %s", GOT(v));
	return -EINVAL;
}

/* ---- axis values ----------------------------------------------------------------- */

/* dir/rel, or rel when absolute. */
void prof_join_path(char *buf, size_t len, const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir || !*dir)
		snprintf(buf, len, "%s", rel);
	else
		snprintf(buf, len, "%s/%s", dir, rel);
}

int prof_rules_file(const char *rules_dir, const json_t *v, char *buf, size_t len)
{
	if (!json_is_string(v) || strncmp(json_string_value(v), "file:", 5))
		return -EINVAL;
	const char *rel = json_string_value(v) + 5;
	if (!*rel)
		return -EINVAL;
	prof_join_path(buf, len, rules_dir, rel);
	return 0;
}

/* Checks one value of axis s at path; *norm gets the value to keep (a new reference):
 * whole numbers as integers, idle_poll/update_counters as 0/1, firewall as
 * "on"/"off"/"auto", others as given. */
int prof_check_axis(struct vctx *c, const struct axis_def *s, json_t *v, const char *path,
		    const char *rules_dir, json_t **norm)
{
	char gbuf[128], fbuf[PATH_MAX + 64];
	long long n;
	int e;
	double r;
	*norm = NULL;
	switch (s->kind) {
	case AK_INT:
		if (as_int(c, v, path, s->min, s->max, &n))
			return -EINVAL;
		*norm = json_integer(n);
		break;
	case AK_SIZE: {   /* "imix": ppslab-gen's own mix, its sizes measured apart */
		uint64_t cnt;
		if (json_is_string(v) && !strcmp(json_string_value(v), "imix")) {
			*norm = json_string("imix");
			break;
		}
		if (!json_is_number(v) && (!json_is_string(v) ||
		    num_count(json_string_value(v), 0, UINT64_MAX / 2, &cnt))) {
			prof_verr(c, path, false, "expected a frame size %lld..%lld or \"imix\", "
				  "got %s", s->min, s->max, GOT(v));
			return -EINVAL;
		}
		if (as_int(c, v, path, s->min, s->max, &n))
			return -EINVAL;
		*norm = json_integer(n);
		break;
	}
	case AK_IPVER:   /* 4 or 6, also written "4"/"6" */
		n = json_is_integer(v) ? json_integer_value(v)
		  : json_is_string(v) && strlen(json_string_value(v)) == 1
		    ? json_string_value(v)[0] - '0' : 0;
		if (n != s->min && n != s->max) {
			prof_verr(c, path, false, "expected the IP version, %lld or %lld, got %s",
				  s->min, s->max, GOT(v));
			return -EINVAL;
		}
		*norm = json_integer(n);
		break;
	case AK_VLAN: {   /* "none", a VID (also "100"), or "OUTER.INNER" (QinQ) */
		unsigned long o = 0, in = 0;
		const char *t = json_is_string(v) ? json_string_value(v) : NULL;
		char *end = NULL;
		if (t && !strcmp(t, "none")) {
			*norm = json_string("none");
			break;
		}
		if (json_is_integer(v) && json_integer_value(v) >= s->min &&
		    json_integer_value(v) <= s->max) {
			*norm = json_integer(json_integer_value(v));
			break;
		}
		if (t && *t >= '0' && *t <= '9') {
			o = strtoul(t, &end, 10);
			if (*end == '.' && end[1] >= '0' && end[1] <= '9')
				in = strtoul(end + 1, &end, 10);
			else if (*end == '.')
				end = NULL;
		}
		if (!end || *end || end - t > 9 || o < (unsigned long)s->min ||
		    o > (unsigned long)s->max ||
		    (strchr(t, '.') && (in < (unsigned long)s->min || in > (unsigned long)s->max))) {
			prof_verr(c, path, false, "expected \"none\" (untagged), a VLAN id %lld..%lld "
				  "or \"OUTER.INNER\" (QinQ, each %lld..%lld), got %s", s->min, s->max,
				  s->min, s->max, GOT(v));
			return -EINVAL;
		}
		if (strchr(t, '.')) {
			char b[24];
			snprintf(b, sizeof(b), "%lu.%lu", o, in);
			*norm = json_string(b);
		} else {
			*norm = json_integer((json_int_t)o);
		}
		break;
	}
	case AK_ENUM:
		if (as_enum(c, v, path, s->names, &e))
			return -EINVAL;
		*norm = json_string(s->names[e]);
		break;
	case AK_BOOL01:
		if (json_is_boolean(v)) {
			*norm = json_integer(json_is_true(v));
		} else if (json_is_integer(v) &&
			   (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
			*norm = json_integer(json_integer_value(v));
		} else if (json_is_string(v) && (!strcmp(json_string_value(v), "on") ||
						 !strcmp(json_string_value(v), "off"))) {
			*norm = json_integer(!strcmp(json_string_value(v), "on"));
		} else {
			prof_verr(c, path, false, "expected 0 or 1 (or true/false, \"on\"/\"off\"), got %s",
				  GOT(v));
			return -EINVAL;
		}
		break;
	case AK_ONOFF:
		if (json_is_boolean(v))
			*norm = json_string(json_is_true(v) ? "on" : "off");
		else if (json_is_integer(v) &&
			 (json_integer_value(v) == 0 || json_integer_value(v) == 1))
			*norm = json_string(json_integer_value(v) ? "on" : "off");
		else if (json_is_string(v) && (!strcmp(json_string_value(v), "on") ||
					       !strcmp(json_string_value(v), "off") ||
					       !strcmp(json_string_value(v), "auto")))
			*norm = json_string(json_string_value(v));
		else {
			prof_verr(c, path, false, "expected \"on\", \"off\", \"auto\", true or false, got %s",
				  GOT(v));
			return -EINVAL;
		}
		break;
	case AK_RULES:
		if (json_is_string(v) && !strncmp(json_string_value(v), "file:", 5)) {
			struct stat st;
			if (prof_rules_file(rules_dir, v, fbuf, sizeof(fbuf))) {
				prof_verr(c, path, false, "\"file:\" needs a path after it");
				return -EINVAL;
			}
			if (stat(fbuf, &st)) {
				prof_verr(c, path, false, "rule file %s: %s", fbuf, strerror(errno));
				return -EINVAL;
			}
			if (!S_ISREG(st.st_mode)) {
				prof_verr(c, path, false, "rule file %s: not a regular file", fbuf);
				return -EINVAL;
			}
			*norm = json_string(json_string_value(v));
			break;
		}
		if (json_is_number(v) || json_is_string(v)) {
			double d = json_is_number(v) ? json_number_value(v) : NAN;
			uint64_t u;
			if (json_is_string(v) &&
			    !num_count(json_string_value(v), 0, UINT64_MAX / 2, &u))
				d = (double)u;
			if (d == floor(d) && d >= 0 && d <= s->max) {
				*norm = json_integer((json_int_t)d);
				break;
			}
		}
		prof_verr(c, path, false,
			  "expected a rule count 0..%lld or \"file:PATH\" (a rule file), got %s",
			  s->max, GOT(v));
		return -EINVAL;
	case AK_RATE:
		if (prof_as_rate(c, v, path, true, &r))
			return -EINVAL;
		*norm = json_incref(v);
		break;
	}
	if (!*norm) {
		c->oom = 1;
		return -ENOMEM;
	}
	return 0;
}

/* Two values of one axis are the same (offered: by rate). */
bool prof_same_value(const struct axis_def *s, const json_t *a, const json_t *b)
{
	if (res_value_eq(a, b))
		return true;
	if (s->kind == AK_RATE) {
		double x = NAN, y = NAN;
		if (json_is_number(a))
			x = json_number_value(a);
		else if (num_pps(json_string_value(a), &x))
			x = NAN;
		if (json_is_number(b))
			y = json_number_value(b);
		else if (num_pps(json_string_value(b), &y))
			y = NAN;
		return x == y;
	}
	return false;
}

char *prof_xstrdup(struct vctx *c, const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		c->oom = 1;
	return d;
}

char *prof_id_text(const json_t *v, char *buf, size_t len)
{
	if (!json_is_string(v))
		return res_value_str(v, buf, len);
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)json_string_value(v);
	     *p && o + 4 < len; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '/' || *p == '=' || *p == '%' || *p == '\\')
			o += (size_t)snprintf(buf + o, len - o, "%%%02X", *p);
		else
			buf[o++] = (char)*p;
	}
	buf[len ? (o < len ? o : len - 1) : 0] = 0;
	return buf;
}
