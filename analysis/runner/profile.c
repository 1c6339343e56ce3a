/* SPDX-License-Identifier: BSD-2-Clause */
/* profile.c — reading and validating sweep profiles (see profile.h and docs/profiles.md).
 * Called by `ppslab run` (profile_load) and the unit tests (profile_parse).
 *
 * The text is parsed by jansson; --set overrides are applied to the tree; then one pass
 * checks every key against the tables below and fills struct profile, collecting every
 * problem (not only the first). Errors are placed with jpos.c's index of the raw text,
 * or as "--set N" when the value came from the command line, and sorted in file order. */
#include "profile.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jpos.h"
#include "lab.h"
#include "num.h"
#include "pollkern.h"
#include "results.h"

/* ---- axes ---------------------------------------------------------------------- */

enum akind { AK_INT, AK_ENUM, AK_BOOL01, AK_ONOFF, AK_RULES, AK_RATE };

struct axis_spec {
	const char *name;
	enum akind kind;
	long long min, max;
	const char *const *names;   /* AK_ENUM */
	const char *def;            /* default, as JSON text */
};

static const char *const mode_names[] = { "poll", "intr", "busy", NULL };
/* lib/pollkern.c's names, in its order (t_profile checks they agree) */
const char *const prof_kernel_names[] = { "dragonfly-1.8", "dragonfly-2.0", "freebsd-7",
					  "freebsd-14", NULL };
static const char *const dir_names[] = { "uni", "bi", NULL };
const char *const prof_rules_kinds[] = { "nomatch", "count", NULL };
static const char *const counters_names[] = { "percpu", "shared", NULL };

#define RULES_MAX 100000

static const struct axis_spec axes_tab[] = {
	{ "pollhz", AK_INT, 1, 30000, NULL, "2000" },
	{ "hz", AK_INT, 1, PK_HZ_MAX, NULL, "null" },      /* null: the kernel's own HZ */
	{ "burst_max", AK_INT, 10, PK_BURST_MAX_TOP, NULL, "150" },
	{ "each_burst", AK_INT, 1, PK_BURST_MAX_TOP, NULL, "5" },
	{ "user_frac", AK_INT, 0, 99, NULL, "50" },
	{ "reg_frac", AK_INT, 1, 10000, NULL, "20" },
	{ "idle_poll", AK_BOOL01, 0, 1, NULL, "0" },
	{ "mode", AK_ENUM, 0, 0, mode_names, "\"poll\"" },
	{ "kernel", AK_ENUM, 0, 0, prof_kernel_names, "\"" PK_DEFAULT "\"" },
	{ "rules", AK_RULES, 0, RULES_MAX, NULL, "0" },
	{ "rules_kind", AK_ENUM, 0, 0, prof_rules_kinds, "\"nomatch\"" },
	{ "update_counters", AK_BOOL01, 0, 1, NULL, "1" },
	{ "counters", AK_ENUM, 0, 0, counters_names, "\"percpu\"" },
	{ "firewall", AK_ONOFF, 0, 0, NULL, "\"auto\"" },
	{ "offered", AK_RATE, 0, 0, NULL, "\"max\"" },
	{ "size", AK_INT, 64, 9018, NULL, "64" },
	{ "flows", AK_INT, 1, 65535, NULL, "1" },
	{ "direction", AK_ENUM, 0, 0, dir_names, "\"uni\"" },
};
#define NAXES (sizeof(axes_tab) / sizeof(axes_tab[0]))

const char *const prof_axis_names[] = {
	"pollhz", "hz", "burst_max", "each_burst", "user_frac", "reg_frac", "idle_poll", "mode",
	"kernel", "rules", "rules_kind", "update_counters", "counters", "firewall", "offered",
	"size", "flows", "direction", NULL,
};

static const struct axis_spec *axis_spec(const char *name)
{
	for (size_t i = 0; name && i < NAXES; i++)
		if (!strcmp(axes_tab[i].name, name))
			return &axes_tab[i];
	return NULL;
}

bool prof_is_axis(const char *name)
{
	return axis_spec(name) != NULL;
}

/* The defaults as jansson values: built once (pthread_once), immutable and never freed,
 * so prof_axis_default() can hand out borrowed pointers to any thread. */
static json_t *defaults[NAXES];
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void defaults_init(void)
{
	for (size_t i = 0; i < NAXES; i++)
		defaults[i] = json_loads(axes_tab[i].def, JSON_DECODE_ANY, NULL);
}

const json_t *prof_axis_default(const char *axis)
{
	const struct axis_spec *s = axis_spec(axis);
	if (!s)
		return NULL;
	pthread_once(&defaults_once, defaults_init);
	return defaults[s - axes_tab];
}

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

static int diag_add(struct prof_diag *d, const char *msg)
{
	if (!d)
		return 0;
	char **m = realloc(d->msg, (d->n + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	d->msg = m;
	if (!(m[d->n] = strdup(msg)))
		return -ENOMEM;
	d->n++;
	return 0;
}

struct perr {
	int line, col;        /* 0: no place in the file */
	size_t setno;         /* 1-based --set, 0: from the file */
	size_t seq;
	char *msg;
};

struct setmark {
	char *path;
	size_t setno;
};

struct vctx {
	const char *fname;
	struct jpos *jp;
	struct setmark *marks;
	size_t nmarks;
	struct perr *errs;
	size_t nerr;
	int oom;
	char dir[PATH_MAX];   /* the profile's directory */
	bool allow_any_dst;
	enum prof_router router_kind;
	json_t *raxes;        /* the router axes' names (name → true), for placeholders */
};

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

__attribute__((format(printf, 4, 5)))
static void verr(struct vctx *c, const char *path, bool at_key, const char *fmt, ...)
{
	char what[1024], msg[2048];
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
static void seterr(struct vctx *c, size_t setno, const char *fmt, ...)
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
static int perr_cmp(const void *a, const void *b)
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
static const char *got(const json_t *v, char *buf, size_t len)
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

#define GOT(v) got((v), gbuf, sizeof(gbuf))

/* Unknown keys of obj: an error each, naming the key, where, and the known ones. */
static void check_keys(struct vctx *c, const json_t *obj, const char *path,
		       const char *const *known)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)obj, k, v) {
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
		verr(c, kp, true, "unknown key \"%s\" in %s; known keys: %s", k,
		     *path ? path : "the top level", list);
	}
}

/* ---- typed getters: each reports its own error and returns -EINVAL -------------- */

static int want_object(struct vctx *c, const json_t *v, const char *path)
{
	char gbuf[128];
	if (v && !json_is_object(v)) {
		verr(c, path, false, "expected an object {...}, got %s", GOT(v));
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
		verr(c, path, false, "expected a whole number %lld..%lld, got %s", min, max,
		     GOT(v));
		return -EINVAL;
	}
	if (d < (double)min || d > (double)max) {
		verr(c, path, false, "expected a whole number %lld..%lld, got %s (out of range)",
		     min, max, GOT(v));
		return -EINVAL;
	}
	*out = (long long)d;
	return 0;
}

static int get_int(struct vctx *c, const json_t *obj, const char *key, const char *path,
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
static int get_dur(struct vctx *c, const json_t *obj, const char *key, const char *path,
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
	verr(c, kp, false, "expected %s (at most 24 h), got %s", num_expect_duration(),
	     GOT(v));
	return -EINVAL;
}

/* A packet rate: a positive number of pps or text such as "200k"; "max" → 0 when
 * allowed. */
static int as_rate(struct vctx *c, const json_t *v, const char *path, bool allow_max,
		   double *out)
{
	char gbuf[128];
	if (json_is_number(v) && json_number_value(v) > 0 && json_number_value(v) <= 1e12) {
		*out = json_number_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (allow_max && !strcmp(s, "max")) {
			*out = 0;
			return 0;
		}
		if (!num_pps(s, out))
			return 0;
	}
	verr(c, path, false, "expected a number or a rate like \"200k\"%s, got %s",
	     allow_max ? " or \"max\"" : "", GOT(v));
	return -EINVAL;
}

static int get_bool(struct vctx *c, const json_t *obj, const char *key, const char *path,
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
	verr(c, jpos_path_key(kp, sizeof(kp), path, key), false,
	     "expected true or false, got %s", GOT(v));
	return -EINVAL;
}

static void names_list(const char *const *names, char *buf, size_t len)
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
	names_list(names, list, sizeof(list));
	verr(c, path, false, "expected %s, got %s", list, GOT(v));
	return -EINVAL;
}

static int get_enum(struct vctx *c, const json_t *obj, const char *key, const char *path,
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
static int get_str(struct vctx *c, const json_t *obj, const char *key, const char *path,
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
	verr(c, jpos_path_key(kp, sizeof(kp), path, key), false,
	     "expected a non-empty string, got %s", GOT(v));
	return -EINVAL;
}

/* ---- axis values ----------------------------------------------------------------- */

/* dir/rel, or rel when absolute. */
static void join_path(char *buf, size_t len, const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir || !*dir)
		snprintf(buf, len, "%s", rel);
	else
		snprintf(buf, len, "%s/%s", dir, rel);
}

static int rules_file(const char *rules_dir, const json_t *v, char *buf, size_t len)
{
	if (!json_is_string(v) || strncmp(json_string_value(v), "file:", 5))
		return -EINVAL;
	const char *rel = json_string_value(v) + 5;
	if (!*rel)
		return -EINVAL;
	join_path(buf, len, rules_dir, rel);
	return 0;
}

int prof_rules_path(const struct profile *p, const json_t *v, char *buf, size_t len)
{
	return rules_file(p ? p->router.rules_dir : NULL, v, buf, len);
}

bool prof_firewall_on(const struct profile *p, const json_t *params)
{
	const char *fw = json_string_value(prof_value(p, params, "firewall"));
	if (fw && strcmp(fw, "auto"))
		return !strcmp(fw, "on");
	const json_t *rules = prof_value(p, params, "rules");
	return json_is_string(rules) || (json_is_integer(rules) && json_integer_value(rules) > 0);
}

/* Checks one value of axis s at path; *norm gets the value to keep (a new reference):
 * whole numbers as integers, idle_poll/update_counters as 0/1, firewall as
 * "on"/"off"/"auto", others as given. */
static int check_axis(struct vctx *c, const struct axis_spec *s, const json_t *v,
		      const char *path, const char *rules_dir, json_t **norm)
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
			verr(c, path, false, "expected 0 or 1 (or true/false, \"on\"/\"off\"), got %s",
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
			verr(c, path, false, "expected \"on\", \"off\", \"auto\", true or false, got %s",
			     GOT(v));
			return -EINVAL;
		}
		break;
	case AK_RULES:
		if (json_is_string(v) && !strncmp(json_string_value(v), "file:", 5)) {
			struct stat st;
			if (rules_file(rules_dir, v, fbuf, sizeof(fbuf))) {
				verr(c, path, false, "\"file:\" needs a path after it");
				return -EINVAL;
			}
			if (stat(fbuf, &st)) {
				verr(c, path, false, "rule file %s: %s", fbuf, strerror(errno));
				return -EINVAL;
			}
			if (!S_ISREG(st.st_mode)) {
				verr(c, path, false, "rule file %s: not a regular file", fbuf);
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
			if (d == floor(d) && d >= 0 && d <= RULES_MAX) {
				*norm = json_integer((json_int_t)d);
				break;
			}
		}
		verr(c, path, false,
		     "expected a rule count 0..%d or \"file:PATH\" (a rule file), got %s",
		     RULES_MAX, GOT(v));
		return -EINVAL;
	case AK_RATE:
		if (as_rate(c, v, path, true, &r))
			return -EINVAL;
		*norm = json_incref((json_t *)v);
		break;
	}
	if (!*norm) {
		c->oom = 1;
		return -ENOMEM;
	}
	return 0;
}

/* Two values of one axis are the same (offered: by rate). */
static bool same_value(const struct axis_spec *s, const json_t *a, const json_t *b)
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

/* ---- --set ------------------------------------------------------------------------ */

/* The value text of a --set: JSON when it parses as JSON, else a string. */
static json_t *set_value(const char *text)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
	return v ? v : json_string(text);
}

static int add_mark(struct vctx *c, const char *path, size_t setno)
{
	struct setmark *m = realloc(c->marks, (c->nmarks + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	c->marks = m;
	if (!(m[c->nmarks].path = strdup(path)))
		return -ENOMEM;
	m[c->nmarks++].setno = setno;
	return 0;
}

/* Object member key of parent (at path), created when missing (and then marked as this
 * --set's, so errors about it are placed there); NULL (error said) if not an object. */
static json_t *child_object(struct vctx *c, json_t *parent, const char *key, const char *path,
			    size_t setno, const char *what)
{
	json_t *o = json_object_get(parent, key);
	if (!o) {
		o = json_object();
		if (!o || json_object_set_new(parent, key, o) || add_mark(c, path, setno)) {
			c->oom = 1;
			return NULL;
		}
	}
	if (!json_is_object(o)) {
		seterr(c, setno, "cannot set %s: %s is not an object", what, key);
		return NULL;
	}
	return o;
}

/* Sets parts[0].parts[1]... under obj (at path) to the value text; a list on the way
 * takes the rest of the path in each of its objects (topology.gen.threads with several
 * senders). */
static void set_path(struct vctx *c, json_t *obj, char **parts, size_t np, const char *path,
		     const char *text, size_t setno, const char *key)
{
	char kp[512], ip[560];
	jpos_path_key(kp, sizeof(kp), path, parts[0]);
	if (np == 1) {
		json_t *v = set_value(text);
		if (!v || json_object_set_new(obj, parts[0], v) || add_mark(c, kp, setno))
			c->oom = 1;
		return;
	}
	json_t *a = json_object_get(obj, parts[0]);
	if (json_is_array(a)) {
		size_t i;
		json_t *e;
		if (!json_array_size(a))
			seterr(c, setno, "cannot set %s: %s is an empty list", key, parts[0]);
		json_array_foreach(a, i, e) {
			if (!json_is_object(e)) {
				seterr(c, setno, "cannot set %s: %s is not a list of objects", key,
				       parts[0]);
				return;
			}
			set_path(c, e, parts + 1, np - 1, jpos_path_idx(ip, sizeof(ip), kp, i), text,
				 setno, key);
		}
		return;
	}
	json_t *o = child_object(c, obj, parts[0], kp, setno, key);
	if (o)
		set_path(c, o, parts + 1, np - 1, kp, text, setno, key);
}

static void apply_set(struct vctx *c, json_t *root, const char *set, size_t setno)
{
	const char *eq = strchr(set, '=');
	char key[256], kp[512];
	if (!eq || eq == set || (size_t)(eq - set) >= sizeof(key)) {
		seterr(c, setno, "expected KEY=VALUE (e.g. pollhz=1000,2000 or trial.duration=1s), got \"%.80s\"",
		       set);
		return;
	}
	memcpy(key, set, (size_t)(eq - set));
	key[eq - set] = 0;
	const char *text = eq + 1;

	json_t *rax = json_object_get(json_object_get(root, "router"), "axes");
	size_t ri;
	json_t *ra;
	json_array_foreach(rax, ri, ra) {
		const char *rn = json_string_value(json_object_get(ra, "name"));
		if (!json_is_object(ra) || !rn || strcmp(rn, key) || prof_is_axis(key))
			continue;
		/* a router axis: its values, a comma list or one value */
		json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
		if (!v && strchr(text, ',')) {
			v = json_array();
			char *dup = strdup(text), *save = NULL;
			for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t && v;
			     t = strtok_r(NULL, ",", &save))
				json_array_append_new(v, set_value(t));
			free(dup);
		} else if (!v) {
			v = json_string(text);
		}
		if (v && !json_is_array(v)) {
			json_t *one = json_array();
			if (one)
				json_array_append_new(one, v);
			v = one;
		}
		char vp[96];
		snprintf(vp, sizeof(vp), "router.axes[%zu].values", ri);
		if (!v || json_object_set_new(ra, "values", v) || add_mark(c, vp, setno))
			c->oom = 1;
		return;
	}
	if (prof_is_axis(key)) {
		json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
		if (!v && strchr(text, ',')) {
			/* a comma list sweeps the axis */
			v = json_array();
			char *dup = strdup(text), *save = NULL;
			if (!v || !dup) {
				json_decref(v);
				free(dup);
				c->oom = 1;
				return;
			}
			for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
				json_array_append_new(v, set_value(t));
			if (json_array_size(v) == 0)
				json_array_append_new(v, json_string(""));
			free(dup);
		} else if (!v) {
			v = json_string(text);
		}
		if (!v) {
			c->oom = 1;
			return;
		}
		bool sweep = json_is_array(v);
		json_t *m = child_object(c, root, "matrix", "matrix", setno, key);
		json_t *p = m ? child_object(c, root, "params", "params", setno, key) : NULL;
		if (!m || !p) {
			json_decref(v);
			return;
		}
		json_object_del(sweep ? p : m, key);
		json_object_set_new(sweep ? m : p, key, v);
		jpos_path_key(kp, sizeof(kp), sweep ? "matrix" : "params", key);
		if (add_mark(c, kp, setno))
			c->oom = 1;
		return;
	}

	/* a dotted path: objects along it are made when missing */
	char *dup = strdup(key), *save = NULL, *parts[32];
	size_t np = 0;
	if (!dup) {
		c->oom = 1;
		return;
	}
	for (char *t = strtok_r(dup, ".", &save); t && np < 32; t = strtok_r(NULL, ".", &save))
		parts[np++] = t;
	if (!np || np == 32 || key[0] == '.' || key[strlen(key) - 1] == '.' || strstr(key, ".."))
		seterr(c, setno, "\"%s\" is not a key or a dotted path such as trial.duration", key);
	else
		set_path(c, root, parts, np, "", text, setno, key);
	free(dup);
}

/* ---- sections -------------------------------------------------------------------- */

static char *xstrdup(struct vctx *c, const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		c->oom = 1;
	return d;
}

/* ---- hook words ------------------------------------------------------------------ */

int prof_hook_scan(const char *s, prof_hook_piece_fn fn, void *ctx, size_t *bad_at)
{
	const char *lit = s;
	for (const char *q = s; *q;) {
		if ((q[0] == '{' && q[1] == '{') || (q[0] == '}' && q[1] == '}')) {
			if (q > lit && fn)
				fn(ctx, lit, (size_t)(q - lit), NULL);
			if (fn)
				fn(ctx, q, 1, NULL);
			q += 2;
			lit = q;
			continue;
		}
		if (*q == '}') {
			if (bad_at)
				*bad_at = (size_t)(q - s);
			return -EPROTO;
		}
		if (*q != '{') {
			q++;
			continue;
		}
		const char *e = strchr(q, '}');
		size_t n = e ? (size_t)(e - q - 1) : 0;
		if (!e || n == 0 || n >= PROF_HOOK_NAME_MAX || memchr(q + 1, '{', n)) {
			if (bad_at)
				*bad_at = (size_t)(q - s);
			return -EINVAL;
		}
		if (q > lit && fn)
			fn(ctx, lit, (size_t)(q - lit), NULL);
		char name[PROF_HOOK_NAME_MAX];
		memcpy(name, q + 1, n);
		name[n] = 0;
		if (fn)
			fn(ctx, NULL, 0, name);
		q = e + 1;
		lit = q;
	}
	if (*lit && fn)
		fn(ctx, lit, strlen(lit), NULL);
	return 0;
}

struct uses_ctx {
	const char *axis;
	bool found;
};

static void uses_piece(void *ctx, const char *lit, size_t n, const char *name)
{
	struct uses_ctx *u = ctx;
	(void)lit;
	(void)n;
	if (name && !strcmp(name, u->axis))
		u->found = true;
}

bool prof_hook_uses(const json_t *argv, const char *axis)
{
	struct uses_ctx u = { .axis = axis };
	size_t i;
	json_t *w;
	json_array_foreach((json_t *)argv, i, w)
		if (json_is_string(w))
			prof_hook_scan(json_string_value(w), uses_piece, &u, NULL);
	return u.found;
}

bool prof_axis_hooked(const struct profile *p, const char *axis)
{
	const char *k;
	json_t *v;
	if (p->router.kind != PR_EXTERNAL)
		return false;
	json_object_foreach(p->router.hooks, k, v)
		if (!strcmp(k, axis) || prof_hook_uses(v, axis))
			return true;
	return false;
}

bool prof_axis_by_ppslab(const char *axis)
{
	static const char *const own[] = { "offered", "size", "flows", "direction", NULL };
	for (int i = 0; own[i]; i++)
		if (!strcmp(own[i], axis))
			return true;
	return false;
}

/* What a hook word's placeholders may name: axes, and {value} in a router axis' own
 * set and verify hooks. */
enum ph_mode { PH_NONE, PH_AXES, PH_VALUE };

struct check_ctx_w {
	struct vctx *c;
	const char *path, *word;
	enum ph_mode mode;
};

static bool router_axis_name(const struct vctx *c, const char *name)
{
	return c->raxes && json_object_get(c->raxes, name);
}

static void check_piece(void *ctx, const char *lit, size_t n, const char *name)
{
	struct check_ctx_w *w = ctx;
	(void)lit;
	(void)n;
	if (!name || prof_is_axis(name) || router_axis_name(w->c, name))
		return;
	if (!strcmp(name, "value")) {
		if (w->mode != PH_VALUE)
			verr(w->c, w->path, false, "{value} is the value of a router axis: it belongs in "
			     "router.axes[].set and verify; elsewhere name the axis, {AXIS}");
		return;
	}
	char list[512] = "";
	size_t m = 0;
	const char *k;
	json_t *v;
	json_object_foreach(w->c->raxes, k, v)
		if (m < sizeof(list))
			m += (size_t)snprintf(list + m, sizeof(list) - m, ", %s", k);
	verr(w->c, w->path, false, "placeholder {%s} names no axis (axes: pollhz, hz, burst_max, each_burst, user_frac, reg_frac, idle_poll, mode, kernel, rules, rules_kind, update_counters, counters, firewall, offered, size, flows, direction%s%s; a literal brace is written {{ or }})",
	     name, list, w->mode == PH_VALUE ? "; {value} is this axis' value" : "");
}

/* An argument vector; with placeholders, each {NAME} must name an axis (or be {value},
 * in a router axis' hooks) and a literal brace is doubled. */
static void check_argv(struct vctx *c, const json_t *v, const char *path, enum ph_mode mode)
{
	char gbuf[128], ip[512];
	if (!json_is_array(v) || json_array_size(v) == 0) {
		verr(c, path, false, "expected a non-empty list of strings (an argument vector), got %s",
		     GOT(v));
		return;
	}
	size_t i;
	json_t *w;
	json_array_foreach(v, i, w) {
		jpos_path_idx(ip, sizeof(ip), path, i);
		if (!json_is_string(w) || strlen(json_string_value(w)) != json_string_length(w)) {
			verr(c, ip, false, "expected a string, got %s", GOT(w));
			continue;
		}
		if (mode == PH_NONE)
			continue;
		const char *s = json_string_value(w);
		struct check_ctx_w cw = { .c = c, .path = ip, .word = s, .mode = mode };
		size_t at = 0;
		int rc = prof_hook_scan(s, check_piece, &cw, &at);
		if (rc == -EPROTO)
			verr(c, ip, false, "a lone \"}\" in \"%.60s\" (a literal brace is written }})", s);
		else if (rc)
			verr(c, ip, false, "\"{\" without a closing \"}\" in \"%.60s\" (a placeholder is {AXIS}; a literal brace is written {{)", s);
	}
}

static const char *const router_keys[] = { "kind", "ports", "rules_dir", "rt_prio", "ring",
					    "threads",
					    "hooks", "setup_hook", "read_hook", "check_hook",
					    "hook_timeout", "hook_estimate", "axes", "reboot_hook",
					    "ready_hook", "reboot_timeout", "reboot_estimate", NULL };
static const char *const raxis_keys[] = { "name", "values", "set", "verify", "reboot",
					   "timeout", NULL };

/* A router axis' name: a sysctl-like name (kern.hz, dev.ix.0.rx_budget) or a word (os);
 * nothing that would break a case id ("a=1/b=2") or a selection ("a=1,b=2"). */
static bool raxis_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= PROF_HOOK_NAME_MAX || !isalpha((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-%", s[i]))
			return false;
	return true;
}

static bool raxis_reserved(const char *name)
{
	static const char *const words[] = { "value", "setup", "read", "check", "verify",
					     "reboot", "ready", NULL };
	for (int i = 0; words[i]; i++)
		if (!strcmp(words[i], name))
			return true;
	return false;
}

/* The names of router.axes that can be used: collected before any hook is checked, so
 * every hook may name them. */
static void raxis_names(struct vctx *c, const json_t *axes)
{
	size_t i;
	json_t *a;
	json_array_foreach((json_t *)axes, i, a) {
		const char *n = json_string_value(json_object_get(a, "name"));
		if (n && raxis_name_ok(n) && !prof_is_axis(n) && !raxis_reserved(n))
			json_object_set_new(c->raxes, n, json_true());
	}
}

/* One value of a router axis: a number (whole numbers kept as integers) or a string
 * that can be told from others in a case id and a selection. */
static json_t *raxis_value(struct vctx *c, const json_t *v, const char *path)
{
	char gbuf[128];
	if (json_is_number(v)) {
		double d = json_number_value(v);
		if (d == floor(d) && fabs(d) < 1e15)
			return json_integer((json_int_t)d);
		return json_real(d);
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		size_t n = strlen(s);
		bool ok = n > 0 && n == json_string_length(v) && n <= 200 && s[0] != ' ' &&
			  s[n - 1] != ' ';
		for (size_t i = 0; ok && i < n; i++)
			ok = (unsigned char)s[i] >= 0x20 && s[i] != 0x7f && s[i] != ',';
		if (ok)
			return json_string(s);
		verr(c, path, false, "expected a number or a string (1..200 characters, no comma, no "
		     "control characters, no space at either end), got %s", GOT(v));
		return NULL;
	}
	verr(c, path, false, "expected a number or a string, got %s", GOT(v));
	return NULL;
}

/* router.axes: [{name, values, set, verify, reboot, timeout}, ...] */
static void parse_router_axes(struct vctx *c, const json_t *axes, struct prof_router_cfg *r)
{
	char ap[64], kp[128], ip[160], gbuf[128];
	size_t i;
	json_t *a;
	if (!json_is_array(axes)) {
		verr(c, "router.axes", false, "expected a list of router axes [{\"name\": ..., "
		     "\"values\": [...], \"set\": [...]}, ...], got %s", GOT(axes));
		return;
	}
	if (!(r->axes = calloc(json_array_size(axes) + 1, sizeof(*r->axes)))) {
		c->oom = 1;
		return;
	}
	json_array_foreach((json_t *)axes, i, a) {
		jpos_path_idx(ap, sizeof(ap), "router.axes", i);
		if (want_object(c, a, ap))
			continue;
		check_keys(c, a, ap, raxis_keys);
		bool bad = false;
		const char *name;
		snprintf(kp, sizeof(kp), "%s.name", ap);
		if (get_str(c, a, "name", ap, &name)) {
			bad = true;
		} else if (!name) {
			verr(c, ap, false, "a router axis needs \"name\": the knob it sweeps (e.g. \"kern.hz\")");
			bad = true;
		} else if (prof_is_axis(name)) {
			verr(c, kp, false, "router axis \"%s\" collides with the built-in axis %s: sweep "
			     "that in matrix (with a hook in router.hooks), or give the router's knob "
			     "another name", name, name);
			bad = true;
		} else if (raxis_reserved(name)) {
			verr(c, kp, false, "\"%s\" is reserved ({value} stands for a router axis' value "
			     "in its hooks; setup, read, check, verify, reboot and ready name the "
			     "router's other hooks)", name);
			bad = true;
		} else if (!raxis_name_ok(name)) {
			verr(c, kp, false, "expected a name of letters, digits and ._-%% (starting with a "
			     "letter, up to %d characters), such as \"kern.hz\" or \"os\", got \"%.60s\"",
			     PROF_HOOK_NAME_MAX - 1, name);
			bad = true;
		} else {
			for (size_t j = 0; j < i; j++) {
				const char *o = json_string_value(json_object_get(json_array_get(axes, j),
										  "name"));
				if (o && !strcmp(o, name)) {
					verr(c, kp, false, "router axis \"%s\" is declared twice (first as "
					     "router.axes[%zu])", name, j);
					bad = true;
					break;
				}
			}
		}
		snprintf(kp, sizeof(kp), "%s.values", ap);
		json_t *v = json_object_get(a, "values"), *vals = NULL;
		if (!json_is_array(v) || json_array_size(v) == 0) {
			verr(c, v ? kp : ap, false, "expected \"values\": a non-empty list of the knob's "
			     "values, got %s", json_is_array(v) ? "an empty list" : GOT(v));
			bad = true;
		} else if (!(vals = json_array())) {
			c->oom = 1;
			return;
		} else {
			size_t k;
			json_t *w;
			json_array_foreach(v, k, w) {
				jpos_path_idx(ip, sizeof(ip), kp, k);
				json_t *norm = raxis_value(c, w, ip);
				if (!norm) {
					bad = true;
					continue;
				}
				for (size_t j = 0; j < json_array_size(vals); j++)
					if (res_value_eq(json_array_get(vals, j), norm)) {
						verr(c, ip, false, "%s appears twice in the list", GOT(w));
						bad = true;
					}
				json_array_append_new(vals, norm);
			}
		}
		json_t *set = json_object_get(a, "set"), *ver = json_object_get(a, "verify");
		snprintf(kp, sizeof(kp), "%s.set", ap);
		if (!set) {
			verr(c, ap, false, "a router axis needs \"set\": the argument vector that sets "
			     "it ({value} is the cell's value)");
			bad = true;
		} else {
			check_argv(c, set, kp, PH_VALUE);
		}
		snprintf(kp, sizeof(kp), "%s.verify", ap);
		if (ver)
			check_argv(c, ver, kp, PH_VALUE);
		bool reboot = false;
		double tmo = r->hook_timeout_s;
		get_bool(c, a, "reboot", ap, false, &reboot);
		get_dur(c, a, "timeout", ap, r->hook_timeout_s, &tmo);
		if (tmo <= 0) {
			snprintf(kp, sizeof(kp), "%s.timeout", ap);
			verr(c, kp, false, "must be longer than 0 s");
		}
		if (bad) {
			json_decref(vals);
			continue;
		}
		struct prof_raxis *x = &r->axes[r->naxes++];
		x->name = xstrdup(c, name);
		x->values = vals;
		x->set = json_incref(set);
		x->verify = ver ? json_incref(ver) : NULL;
		x->reboot = reboot;
		x->timeout_s = tmo;
	}
}
static const char *const router_kinds[] = { "rut", "external", "none", NULL };
static const char *const port_names[] = { "afpacket", "xdp", NULL };

static void parse_hook_estimate(struct vctx *c, json_t *o, struct prof_router_cfg *r);

static void parse_router(struct vctx *c, json_t *root, struct profile *p)
{
	struct prof_router_cfg *r = &p->router;
	json_t *o = json_object_get(root, "router");
	const char *s;
	int e;
	long long n;
	char dir[PATH_MAX + 8];

	r->kind = PR_RUT;
	r->hook_timeout_s = 30;
	if (want_object(c, o, "router"))
		o = NULL;
	if (o)
		check_keys(c, o, "router", router_keys);
	if (!get_enum(c, o, "kind", "router", router_kinds, PR_RUT, &e))
		r->kind = (enum prof_router)e;
	c->router_kind = r->kind;
	get_enum(c, o, "ports", "router", port_names, 0, &e);
	r->ports = xstrdup(c, port_names[e]);
	get_str(c, o, "rules_dir", "router", &s);
	if (s)
		join_path(dir, sizeof(dir), c->dir, s);
	else
		snprintf(dir, sizeof(dir), "%s", c->dir);
	r->rules_dir = xstrdup(c, dir);
	if (!get_int(c, o, "rt_prio", "router", 0, 99, 0, &n))
		r->rt_prio = (double)n;
	r->threads = 1;
	if (!get_int(c, o, "threads", "router", 1, 64, 1, &n))
		r->threads = (unsigned)n;
	if (!get_int(c, o, "ring", "router", 0, 4194304, 0, &n)) {
		if (n && n < 64)
			verr(c, "router.ring", false, "expected 0 (the backend's default) or 64..4194304 frames, got %lld", n);
		r->ring = (unsigned)n;
	}
	get_dur(c, o, "hook_timeout", "router", 30, &r->hook_timeout_s);
	if (r->hook_timeout_s <= 0)
		verr(c, "router.hook_timeout", false, "must be longer than 0 s");
	json_t *ax = o ? json_object_get(o, "axes") : NULL;
	if (!(c->raxes = json_object())) {
		c->oom = 1;
		return;
	}
	if (json_is_array(ax))
		raxis_names(c, ax);
	if (ax)
		parse_router_axes(c, ax, r);

	json_t *h = o ? json_object_get(o, "hooks") : NULL;
	if (h && !want_object(c, h, "router.hooks")) {
		const char *k;
		json_t *v;
		char kp[512];
		json_object_foreach(h, k, v) {
			jpos_path_key(kp, sizeof(kp), "router.hooks", k);
			if (!prof_is_axis(k))
				verr(c, kp, true, "hooks are per axis, and \"%s\" is no axis", k);
			check_argv(c, v, kp, PH_AXES);
		}
		r->hooks = json_incref(h);
	}
	json_t *sh = o ? json_object_get(o, "setup_hook") : NULL;
	json_t *rh = o ? json_object_get(o, "read_hook") : NULL;
	json_t *ch = o ? json_object_get(o, "check_hook") : NULL;
	if (sh) {
		check_argv(c, sh, "router.setup_hook", PH_AXES);
		r->setup_hook = json_incref(sh);
	}
	if (rh) {
		check_argv(c, rh, "router.read_hook", PH_AXES);
		r->read_hook = json_incref(rh);
	}
	if (ch) {
		check_argv(c, ch, "router.check_hook", PH_AXES);
		r->check_hook = json_incref(ch);
	}
	parse_hook_estimate(c, o, r);
	json_t *rb = o ? json_object_get(o, "reboot_hook") : NULL;
	json_t *rd = o ? json_object_get(o, "ready_hook") : NULL;
	if (rb) {
		check_argv(c, rb, "router.reboot_hook", PH_AXES);
		r->reboot_hook = json_incref(rb);
	}
	if (rd) {
		check_argv(c, rd, "router.ready_hook", PH_AXES);
		r->ready_hook = json_incref(rd);
	}
	get_dur(c, o, "reboot_timeout", "router", 600, &r->reboot_timeout_s);
	if (r->reboot_timeout_s <= 0)
		verr(c, "router.reboot_timeout", false, "must be longer than 0 s");
	get_dur(c, o, "reboot_estimate", "router", 120, &r->reboot_est_s);
	bool reboots = false;
	for (size_t i = 0; i < r->naxes; i++)
		if (r->axes[i].reboot && !reboots) {
			reboots = true;
			char kp[96];
			snprintf(kp, sizeof(kp), "router.axes[%zu].reboot", i);
			if (!rb)
				verr(c, kp, false, "axis %s takes a reboot, so the profile needs "
				     "router.reboot_hook: the argument vector that restarts the router "
				     "(e.g. [\"ssh\", \"root@r2\", \"shutdown\", \"-r\", \"now\"])",
				     r->axes[i].name);
		}
	json_t *he = o ? json_object_get(o, "hook_estimate") : NULL;
	if (r->kind != PR_EXTERNAL && (h || sh || rh || ch || he || ax || rb || rd))
		verr(c, ax ? "router.axes" : h ? "router.hooks" : sh ? "router.setup_hook"
		     : rh ? "router.read_hook" : ch ? "router.check_hook" : rb ? "router.reboot_hook"
		     : rd ? "router.ready_hook" : "router.hook_estimate", true,
		     ax ? "router axes are knobs of an external router, set by hooks: set "
			  "router.kind to \"external\""
			: "hooks configure an external router: set router.kind to \"external\"");
}

/* router.hook_estimate: seconds one hook run takes, for the plan's estimate; a duration
 * for every hook, or an object of axis (or "setup", "read", "check") → duration. */
static void parse_hook_estimate(struct vctx *c, json_t *o, struct prof_router_cfg *r)
{
	char kp[512];
	json_t *he = o ? json_object_get(o, "hook_estimate") : NULL;
	r->hook_est_s = PROF_HOOK_EST_DEFAULT_S;
	if (!he)
		return;
	if (!json_is_object(he)) {
		get_dur(c, o, "hook_estimate", "router", PROF_HOOK_EST_DEFAULT_S, &r->hook_est_s);
		return;
	}
	if (!(r->hook_est = json_object())) {
		c->oom = 1;
		return;
	}
	const char *k;
	json_t *v;
	json_object_foreach(he, k, v) {
		jpos_path_key(kp, sizeof(kp), "router.hook_estimate", k);
		if (!prof_is_axis(k) && !router_axis_name(c, k) && strcmp(k, "setup") &&
		    strcmp(k, "read") && strcmp(k, "check") && strcmp(k, "verify")) {
			verr(c, kp, true, "\"%s\" is neither an axis nor setup, read, check or verify", k);
			continue;
		}
		double d;
		if (!get_dur(c, he, k, "router.hook_estimate", 0, &d))
			json_object_set_new(r->hook_est, k, json_real(d));
	}
}

double prof_hook_estimate(const struct profile *p, const char *key)
{
	const json_t *v = json_object_get(p->router.hook_est, key);
	return json_is_number(v) ? json_number_value(v) : p->router.hook_est_s;
}

/* Every swept axis of an external router must change something: a hook of its own, a
 * hook naming it, or ppslab itself (the traffic's axes). Otherwise its cells would
 * measure one router under different labels. */
static void check_coverage(struct vctx *c, const struct profile *p)
{
	char kp[512];
	if (p->router.kind != PR_EXTERNAL)
		return;
	for (size_t i = 0; i < p->naxes; i++) {
		const char *a = p->axes[i].name;
		if (p->axes[i].router || prof_axis_by_ppslab(a) || prof_axis_hooked(p, a))
			continue;
		jpos_path_key(kp, sizeof(kp), "matrix", a);
		verr(c, kp, true,
		     "axis %s is swept, but nothing sets it on the external router: add router.hooks.%s "
		     "(an argument vector that sets {%s} there) or fix it in params; without one "
		     "every %s cell would measure the same router under another label", a, a, a, a);
	}
}

static const char *const trial_keys[] = { "method", "warmup", "duration", "settle",
					  "min_load", "max_load", "width", "pdr_loss", "initial",
					  "phases", "duration_sum", "exceed_ratio", "max_trials",
					  "ladder", "max_delay", "max_clock_error", NULL };
static const char *const method_names[] = { "fixed", "rfc2544", "mlr", "ladder", NULL };

static int get_ratio(struct vctx *c, const json_t *o, const char *key, double lo, bool lo_open,
		     double hi, bool hi_open, double def, double *out)
{
	char kp[512], gbuf[128];
	const json_t *v = o ? json_object_get(o, key) : NULL;
	*out = def;
	if (!v)
		return 0;
	jpos_path_key(kp, sizeof(kp), "trial", key);
	double d = json_is_number(v) ? json_number_value(v) : NAN;
	if (!isnan(d) && (lo_open ? d > lo : d >= lo) && (hi_open ? d < hi : d <= hi)) {
		*out = d;
		return 0;
	}
	verr(c, kp, false, "expected a number in %c%g, %g%c, got %s", lo_open ? '(' : '[', lo, hi,
	     hi_open ? ')' : ']', GOT(v));
	return -EINVAL;
}

static void parse_trial(struct vctx *c, json_t *root, struct profile *p)
{
	struct prof_trial *t = &p->trial;
	json_t *o = json_object_get(root, "trial");
	int e;
	long long n;
	char gbuf[128];

	if (want_object(c, o, "trial"))
		o = NULL;
	if (o)
		check_keys(c, o, "trial", trial_keys);
	if (!get_enum(c, o, "method", "trial", method_names, PM_FIXED, &e))
		t->method = (enum prof_method)e;
	get_dur(c, o, "warmup", "trial", 1, &t->warmup_s);
	get_dur(c, o, "duration", "trial", 2, &t->duration_s);
	get_dur(c, o, "settle", "trial", 0.5, &t->settle_s);
	/* mlr's first phase: 1 s, or the whole trial when trials are shorter than that */
	get_dur(c, o, "initial", "trial", t->duration_s > 0 && t->duration_s < 1 ? t->duration_s : 1,
		&t->initial_s);
	get_dur(c, o, "duration_sum", "trial", t->duration_s, &t->duration_sum_s);
	if (t->duration_s <= 0)
		verr(c, "trial.duration", false, "a trial must last longer than 0 s");
	if (t->initial_s <= 0)
		verr(c, "trial.initial", false, "a trial must last longer than 0 s");
	else if (t->initial_s > t->duration_s && t->duration_s > 0)
		verr(c, "trial.initial", false,
		     "the first phase's trials (%g s) must not be longer than trial.duration (%g s)",
		     t->initial_s, t->duration_s);
	if (t->duration_sum_s < t->duration_s)
		verr(c, "trial.duration_sum", false, "must be at least trial.duration (%g s), got %g s",
		     t->duration_s, t->duration_sum_s);

	t->min_load_pps = 1000;
	const json_t *v;
	if (o && (v = json_object_get(o, "min_load")))
		as_rate(c, v, "trial.min_load", false, &t->min_load_pps);
	if (o && (v = json_object_get(o, "max_load"))) {
		if (json_is_number(v) && json_number_value(v) == 0)
			t->max_load_pps = 0;
		else
			as_rate(c, v, "trial.max_load", true, &t->max_load_pps);
	}
	if (t->max_load_pps > 0 && t->min_load_pps >= t->max_load_pps)
		verr(c, "trial.min_load", false, "min_load (%.0f pps) must be below max_load (%.0f pps)",
		     t->min_load_pps, t->max_load_pps);
	get_ratio(c, o, "width", 0, true, 1, true, 0.005, &t->width);
	get_ratio(c, o, "pdr_loss", 0, false, 1, true, 0.005, &t->pdr_loss);
	get_ratio(c, o, "exceed_ratio", 0, false, 1, true, 0, &t->exceed_ratio);
	get_ratio(c, o, "max_clock_error", 0, true, 1, false, 0.1, &t->max_clock_error);
	get_dur(c, o, "max_delay", "trial", 10, &t->max_delay_s);
	if (t->max_delay_s < 1e-6)
		verr(c, "trial.max_delay", false, "must be at least 1 us, got %g s", t->max_delay_s);
	if (!get_int(c, o, "phases", "trial", 0, 10, 2, &n))
		t->phases = (unsigned)n;
	if (!get_int(c, o, "max_trials", "trial", 1, 10000, 40, &n))
		t->max_trials = (unsigned)n;

	json_t *l = o ? json_object_get(o, "ladder") : NULL;
	if (l) {
		if (!json_is_array(l) || json_array_size(l) == 0) {
			verr(c, "trial.ladder", false, "expected a non-empty list of rates, got %s",
			     GOT(l));
			return;
		}
		json_t *loads = json_array();
		size_t i;
		json_t *w;
		char ip[64];
		if (!loads) {
			c->oom = 1;
			return;
		}
		json_array_foreach(l, i, w) {
			double r;
			if (!as_rate(c, w, jpos_path_idx(ip, sizeof(ip), "trial.ladder", i), false,
				     &r))
				json_array_append_new(loads, json_real(r));
		}
		t->ladder = loads;
	}
}

static const char *const topo_keys[] = { "kind", "lab", "gen", "rut", "sink", "dst", "dst_b",
					 "dst_mac", "dst_mac_b", "ssh_options", NULL };
static const char *const topo_kinds[] = { "netns", "local", "ssh", NULL };
static const char *const host_keys[] = { "ssh", "netns", "iface", "bin", NULL };
static const char *const gen_keys[] = { "ssh", "netns", "iface", "bin", "port", "threads",
					"cpus", "queues", "dst", NULL };
static const char *const sink_keys[] = { "ssh", "netns", "iface", "bin", "port", "threads",
					 "cpus", "queues", NULL };

/* An ssh destination: [user@]host, no spaces, no option-like leading '-'. */
static bool ssh_dest_ok(const char *s)
{
	if (!*s || s[0] == '-' || strlen(s) > 255)
		return false;
	const char *at = strchr(s, '@');
	if (at && (at == s || !at[1] || strchr(at + 1, '@') || at[1] == '-'))
		return false;
	for (; *s; s++) {
		char ch = *s;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || strchr("._-@:[]%", ch)))
			return false;
	}
	return true;
}

/* One interface name: 1..15 characters, no '/', ':', ',' or spaces, not starting with
 * '-' (len: how much of s is the name). */
static bool ifname_ok(const char *s, size_t len)
{
	if (len == 0 || len > 15 || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == ':' || s[i] == ',' || (unsigned char)s[i] <= ' ' ||
		    s[i] == 0x7f)
			return false;
	return true;
}

/* A port spec as the tools take it: [BACKEND:]TARGET[,KEY=VALUE...]. The interface name
 * is checked without the backend prefix and options ("xdp:enp65s0f0np0",
 * "xdp:gen0,queue=0"); udp: targets are addresses, not interface names. */
static bool port_spec_ok(const char *s)
{
	size_t n = strcspn(s, ",");
	const char *colon = memchr(s, ':', n);
	const char *t = s;
	if (colon) {
		if (colon == s)
			return false;
		for (const char *q = s; q < colon; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')))
				return false;
		t = colon + 1;
	}
	size_t tl = n - (size_t)(t - s);
	if (colon && colon - s == 3 && !strncmp(s, "udp", 3)) {
		if (!tl)
			return false;
		for (size_t i = 0; i < tl; i++)
			if ((unsigned char)t[i] <= ' ')
				return false;
	} else if (!ifname_ok(t, tl)) {
		return false;
	}
	/* options: KEY=VALUE words */
	for (const char *o = s[n] ? s + n + 1 : NULL; o;) {
		size_t ol = strcspn(o, ",");
		const char *eq = memchr(o, '=', ol);
		if (!eq || eq == o || eq == o + ol - 1)
			return false;
		for (size_t i = 0; i < ol; i++)
			if ((unsigned char)o[i] <= ' ')
				return false;
		o = o[ol] ? o + ol + 1 : NULL;
	}
	return true;
}

/* The router's "IN,OUT" (two interface names), or a port spec of one box. */
static bool iface_ok(const char *s, bool pair)
{
	if (!pair)
		return port_spec_ok(s);
	const char *comma = strchr(s, ',');
	return comma && !strchr(comma + 1, ',') && ifname_ok(s, (size_t)(comma - s)) &&
	       ifname_ok(comma + 1, strlen(comma + 1));
}

/* One box: o (NULL: absent) at path; role "gen", "rut" or "sink"; idx its place in a
 * list of boxes (the netns default LAB-gen, LAB-gen2, ...). */
static void parse_host(struct vctx *c, json_t *o, const char *path, const char *role,
		       size_t idx, struct prof_host *h, enum prof_topo kind, const char *lab,
		       bool needed)
{
	char kp[128];
	const char *s;
	bool is_rut = !strcmp(role, "rut");

	if (want_object(c, o, path))
		return;
	if (o)
		check_keys(c, o, path, is_rut ? host_keys : !strcmp(role, "gen") ? gen_keys
											   : sink_keys);
	get_str(c, o, "ssh", path, &s);
	/* an external router is only read (its environment), over ssh whatever the
	 * topology: the sender and sink may well be on this host */
	bool ext_ssh = is_rut && c->router_kind == PR_EXTERNAL;
	if (s) {
		jpos_path_key(kp, sizeof(kp), path, "ssh");
		if (kind != PT_SSH && !ext_ssh)
			verr(c, kp, true, "ssh applies to topology kind \"ssh\" (and to an external "
			     "router's box)");
		else if (!ssh_dest_ok(s))
			verr(c, kp, false,
			     "expected an ssh destination [user@]host (no spaces, not starting with '-'), got \"%.60s\"",
			     s);
		else
			h->ssh = xstrdup(c, s);
	} else if (kind == PT_SSH && needed) {
		verr(c, path, false, "topology kind \"ssh\" needs \"ssh\": \"user@host\" for the %s box",
		     role);
	}
	get_str(c, o, "netns", path, &s);
	if (s && lab_name_check(s))
		verr(c, jpos_path_key(kp, sizeof(kp), path, "netns"), false,
		     "expected a namespace name ([A-Za-z0-9_.-], up to 24 characters), got \"%.60s\"", s);
	else if (s)
		h->netns = xstrdup(c, s);
	else if (kind == PT_NETNS && !(ext_ssh && h->ssh)) {
		char ns[64];
		if (idx)
			snprintf(ns, sizeof(ns), "%s-%s%zu", lab, role, idx + 1);
		else
			snprintf(ns, sizeof(ns), "%s-%s", lab, role);
		h->netns = xstrdup(c, ns);
	}
	get_str(c, o, "iface", path, &s);
	/* an external router's ports are only described (environment), never opened */
	bool pair = is_rut && (c->router_kind == PR_RUT || (s && strchr(s, ',')));
	if (s && !iface_ok(s, pair)) {
		verr(c, jpos_path_key(kp, sizeof(kp), path, "iface"), false,
		     pair ? "expected the router's two ports \"IN,OUT\" (interface names of up to 15 characters), got \"%.60s\"" :
			     "expected an interface name (up to 15 characters, no spaces) or a port spec such as \"xdp:enp65s0f0np0\" or \"xdp:gen0,queue=0\", got \"%.60s\"",
		     s);
	} else if (s) {
		h->iface = xstrdup(c, s);
	} else if (kind == PT_NETNS) {
		h->iface = xstrdup(c, is_rut ? "rut0,rut1" : !strcmp(role, "gen") ? "gen0" : "sink0");
	} else if (needed) {
		verr(c, path, false, "topology kind \"%s\" needs \"iface\" for the %s box%s",
		     kind == PT_SSH ? "ssh" : "local", role,
		     is_rut ? " (\"IN,OUT\": the router's two ports)" : "");
	}
	get_str(c, o, "bin", path, &s);
	if (s && s[0] != '/')
		verr(c, jpos_path_key(kp, sizeof(kp), path, "bin"), false,
		     "expected an absolute directory, got \"%.60s\"", s);
	else if (s)
		h->bin = xstrdup(c, s);
}

/* ---- sender and sink boxes: ports, threads, CPUs, queues ---------------------- */

/* The keys of each backend a profile's "port" may carry, and for which direction (the
 * backends' own tables in lib/port_*.c; the tools check the values' ranges again). */
enum pk_kind { PKV_U, PKV_01, PKV_ENUM };
struct port_key_spec {
	const char *backend, *key;
	unsigned dir;               /* 1 receive, 2 send */
	enum pk_kind kind;
	const char *names;          /* PKV_ENUM: "v2|v3" */
};
static const struct port_key_spec port_keys[] = {
	{ "afpacket", "ring", 1, PKV_ENUM, "v2|v3" },
	{ "afpacket", "frames", 3, PKV_U, NULL },
	{ "afpacket", "tov", 1, PKV_U, NULL },
	{ "afpacket", "bypass", 2, PKV_01, NULL },
	{ "afpacket", "promisc", 1, PKV_01, NULL },
	{ "afpacket", "linear", 2, PKV_01, NULL },
	{ "pcap", "promisc", 1, PKV_01, NULL },
	{ "xdp", "mode", 3, PKV_ENUM, "auto|copy|zc" },
	{ "xdp", "queue", 3, PKV_U, NULL },
	{ "xdp", "frames", 3, PKV_U, NULL },
	{ "xdp", "skb", 1, PKV_01, NULL },
	{ "xdp", "budget", 2, PKV_U, NULL },
};

static bool enum_has(const char *names, const char *v, size_t vl)
{
	for (const char *n = names; *n;) {
		size_t l = strcspn(n, "|");
		if (l == vl && !strncmp(n, v, l))
			return true;
		n += l + (n[l] == '|');
	}
	return false;
}

/* "port": BACKEND[,KEY=VALUE...] for a box of role gen (send) or sink (receive). Each
 * problem is said at path; returns the backend's length in s, 0 on error. */
static size_t check_port(struct vctx *c, const char *s, const char *path, bool send)
{
	static const char *const gen_be[] = { "afpacket", "xdp", "pcap", "libnet", NULL };
	static const char *const sink_be[] = { "afpacket", "xdp", "pcap", NULL };
	const char *const *be = send ? gen_be : sink_be;
	size_t bl = strcspn(s, ",");
	bool known = false;
	for (size_t i = 0; be[i]; i++)
		known |= strlen(be[i]) == bl && !strncmp(be[i], s, bl);
	if (!known) {
		char list[128];
		names_list(be, list, sizeof(list));
		verr(c, path, false, "expected a backend %s, optionally with its keys (\"xdp,mode=copy\"), "
		     "got \"%.*s\"%s", list, (int)(bl > 40 ? 40 : bl), s,
		     memchr(s, ':', bl) ? " (the interface goes into \"iface\")" : "");
		return 0;
	}
	bool ok = true;
	for (const char *o = s[bl] ? s + bl + 1 : NULL; o;) {
		size_t ol = strcspn(o, ","), kl = strcspn(o, "=");
		const struct port_key_spec *k = NULL;
		for (size_t i = 0; i < sizeof(port_keys) / sizeof(port_keys[0]); i++)
			if (strlen(port_keys[i].backend) == bl && !strncmp(port_keys[i].backend, s, bl) &&
			    kl < ol && strlen(port_keys[i].key) == kl && !strncmp(port_keys[i].key, o, kl))
				k = &port_keys[i];
		const char *v = o + kl + 1;
		size_t vl = kl < ol ? ol - kl - 1 : 0;
		bool vok = vl > 0 && k;
		if (vok && k->kind == PKV_ENUM)
			vok = enum_has(k->names, v, vl);
		else if (vok && k->kind == PKV_01)
			vok = vl == 1 && (*v == '0' || *v == '1');
		else if (vok)
			for (size_t i = 0; i < vl && vok; i++)
				vok = v[i] >= '0' && v[i] <= '9';
		if (kl >= ol || !vl) {
			verr(c, path, false, "\"%.*s\": expected KEY=VALUE after the backend", (int)ol, o);
			ok = false;
		} else if (!k) {
			char list[160] = "";
			size_t n = 0;
			for (size_t i = 0; i < sizeof(port_keys) / sizeof(port_keys[0]); i++)
				if (strlen(port_keys[i].backend) == bl &&
				    !strncmp(port_keys[i].backend, s, bl) && n < sizeof(list))
					n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
							      n ? ", " : "", port_keys[i].key);
			verr(c, path, false, "%.*s has no key \"%.*s\"%s%s", (int)bl, s, (int)kl, o,
			     n ? "; its keys: " : "", list);
			ok = false;
		} else if (!(k->dir & (send ? 2 : 1))) {
			verr(c, path, false, "%.*s's %s applies to a port that %s, not to a %s's",
			     (int)bl, s, k->key, send ? "receives" : "sends", send ? "sender" : "sink");
			ok = false;
		} else if (!vok) {
			verr(c, path, false, "%.*s's %s=%.*s: expected %s", (int)bl, s, k->key,
			     (int)(vl > 40 ? 40 : vl), v,
			     k->kind == PKV_ENUM ? k->names : k->kind == PKV_01 ? "0 or 1"
									    : "a whole number");
			ok = false;
		}
		o = o[ol] ? o + ol + 1 : NULL;
	}
	return ok ? bl : 0;
}

/* "cpus": a list of CPU numbers, [0, 1] or "0,1", into "0,1". */
static char *parse_cpus(struct vctx *c, const json_t *v, const char *path)
{
	char gbuf[128], buf[400] = "";
	size_t n = 0, k = 0;
	bool ok = true;
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (!json_is_integer(e) || json_integer_value(e) < 0 ||
			    json_integer_value(e) > 1023) {
				char ip[512];
				verr(c, jpos_path_idx(ip, sizeof(ip), path, i), false,
				     "expected a CPU number 0..1023, got %s", GOT(e));
				ok = false;
				continue;
			}
			n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%lld",
					      k++ ? "," : "", (long long)json_integer_value(e));
		}
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		for (const char *q = s; ok && *q;) {
			size_t l = strcspn(q, ",");
			char *end;
			long x = l && q[0] >= '0' && q[0] <= '9' ? strtol(q, &end, 10) : -1;
			ok = x >= 0 && x <= 1023 && end == q + l;
			if (ok)
				n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0,
						      "%s%ld", k++ ? "," : "", x);
			q += l;
			if (*q == ',' && !*++q)
				ok = false;
		}
		if (!ok)
			verr(c, path, false, "expected a list of CPU numbers 0..1023, [0, 1] or \"0,1\", got %s",
			     GOT(v));
	} else {
		verr(c, path, false, "expected a list of CPU numbers 0..1023, [0, 1] or \"0,1\", got %s",
		     GOT(v));
		ok = false;
	}
	if (ok && (k == 0 || k > 64)) {
		verr(c, path, false, "expected 1..64 CPU numbers, got %zu", k);
		ok = false;
	}
	return ok && n < sizeof(buf) ? xstrdup(c, buf) : NULL;
}

/* The keys only sender and sink boxes have (after parse_host did the common ones):
 * h->spec from iface and port, threads, cpus, queues and a sender's dst. */
static void parse_box_port(struct vctx *c, json_t *o, const char *path, bool send,
			   struct prof_host *h, enum prof_topo kind)
{
	char kp[512];
	const char *port;
	long long n;
	h->threads = 1;
	if (get_str(c, o, "port", path, &port))
		port = NULL;
	size_t bl = port ? check_port(c, port, jpos_path_key(kp, sizeof(kp), path, "port"), send)
			 : 0;
	const char *ifs = h->iface;
	const char *colon = ifs ? strchr(ifs, ':') : NULL;
	bool named = colon && (size_t)(colon - ifs) < strcspn(ifs, ",");
	if (port && named) {
		verr(c, jpos_path_key(kp, sizeof(kp), path, "port"), true,
		     "iface \"%.60s\" names its backend already: give it once (\"iface\": \"%.*s\" "
		     "with \"port\", or the whole spec in \"iface\")", ifs, (int)strcspn(colon + 1, ","),
		     colon + 1);
	} else if (ifs && bl) {
		char spec[512];
		snprintf(spec, sizeof(spec), "%.*s:%s%s", (int)bl, port, ifs, port + bl);
		h->spec = xstrdup(c, spec);
		h->backend = strndup(port, bl);
	} else if (ifs) {
		h->spec = xstrdup(c, ifs);
		h->backend = named ? strndup(ifs, (size_t)(colon - ifs)) : strdup("afpacket");
	}
	if (h->spec && !h->backend)
		c->oom = 1;
	if (!get_int(c, o, "threads", path, 1, send ? 64 : 16, 1, &n))
		h->threads = (unsigned)n;
	if (h->backend && !send && h->threads > 1 && strcmp(h->backend, "afpacket") &&
	    strcmp(h->backend, "xdp"))
		verr(c, jpos_path_key(kp, sizeof(kp), path, "threads"), false,
		     "a sink's threads share its port through an afpacket fanout or an xdp: queue "
		     "each; a %s port takes one thread", h->backend);
	const json_t *cv = json_object_get(o, "cpus");
	if (cv)
		h->cpus = parse_cpus(c, cv, jpos_path_key(kp, sizeof(kp), path, "cpus"));
	const json_t *qv = json_object_get(o, "queues");
	if (qv && kind != PT_NETNS)
		verr(c, jpos_path_key(kp, sizeof(kp), path, "queues"), true,
		     "queues applies to topology kind \"netns\" (the lab's veths); a NIC's queues are "
		     "set on its box (ethtool -L)");
	else if (!get_int(c, o, "queues", path, 1, LAB_QUEUES_MAX, 0, &n))
		h->queues = (unsigned)n;
}

static void parse_dst(struct vctx *c, json_t *o, const char *path, const char *key,
		      const char *def, char **out)
{
	const char *s;
	char kp[512];
	struct in_addr a;
	get_str(c, o, key, path, &s);
	if (!s)
		s = def;
	jpos_path_key(kp, sizeof(kp), path, key);
	if (inet_pton(AF_INET, s, &a) != 1) {
		verr(c, kp, false, "expected an IPv4 address, got \"%.60s\"", s);
		return;
	}
	/* RFC 2544 §12 / RFC 6815: benchmark traffic goes to 198.18.0.0/15 */
	if ((ntohl(a.s_addr) & 0xFFFE0000u) != 0xC6120000u && !c->allow_any_dst) {
		verr(c, kp, false,
		     "%s is outside the benchmarking range 198.18.0.0/15 (RFC 2544, RFC 6815); set \"allow_any_dst\": true at the top level if this isolated lab really uses it",
		     s);
		return;
	}
	*out = xstrdup(c, s);
}

/* A next-hop MAC, "aa:bb:cc:dd:ee:ff": the senders use it instead of a route and
 * neighbour lookup (portable senders have neither). */
static void parse_mac(struct vctx *c, json_t *o, const char *key, char **out)
{
	const char *s;
	char kp[64];
	unsigned b[6];
	char tail;
	get_str(c, o, key, "topology", &s);
	if (!s)
		return;
	jpos_path_key(kp, sizeof(kp), "topology", key);
	bool hex = strlen(s) == 17;
	for (size_t i = 0; hex && i < 17; i++)
		hex = i % 3 == 2 ? s[i] == ':' : isxdigit((unsigned char)s[i]) != 0;
	if (!hex || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
				      &b[4], &b[5], &tail) != 6 ||
	    s[2] != ':' || s[5] != ':' || s[8] != ':' || s[11] != ':' || s[14] != ':') {
		verr(c, kp, false, "expected a MAC address aa:bb:cc:dd:ee:ff, got \"%.60s\"", s);
		return;
	}
	if (b[0] & 1) {
		verr(c, kp, false, "%s is a multicast or broadcast address, not a router's port", s);
		return;
	}
	*out = xstrdup(c, s);
}

/* topology.gen or topology.sink: one box (an object, or absent: the defaults) or a list
 * of 1..PROF_BOXES_MAX. Returns how many went into *out (at least one, unless memory
 * ran out). */
static size_t parse_boxes(struct vctx *c, json_t *topo, const char *role,
			  struct prof_topology *t, const char *lab, struct prof_host **out)
{
	char path[64], ip[96];
	json_t *v = topo ? json_object_get(topo, role) : NULL;
	bool send = !strcmp(role, "gen"), list = json_is_array(v);
	size_t n = list ? json_array_size(v) : 1;
	snprintf(path, sizeof(path), "topology.%s", role);
	if (list && (n == 0 || n > PROF_BOXES_MAX)) {
		verr(c, path, false, "expected 1..%d %s boxes, got %zu", PROF_BOXES_MAX,
		     send ? "sender" : "sink", n);
		n = n ? PROF_BOXES_MAX : 1;
	}
	if (list && !send && n > 1 && t->kind == PT_NETNS)
		verr(c, path, false, "the lab has one sink namespace: several sinks need topology "
		     "kind \"local\" or \"ssh\"");
	*out = calloc(n, sizeof(**out));
	if (!*out) {
		c->oom = 1;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct prof_host *h = &(*out)[i];
		json_t *o = list ? json_array_get(v, i) : v;
		const char *bp = list ? jpos_path_idx(ip, sizeof(ip), path, i) : path;
		char name[32];
		if (i)
			snprintf(name, sizeof(name), "%s%zu", role, i + 1);
		else
			snprintf(name, sizeof(name), "%s", role);
		h->name = xstrdup(c, name);
		parse_host(c, o, bp, role, i, h, t->kind, lab, true);
		if (!json_is_object(o))
			o = NULL;
		parse_box_port(c, o, bp, send, h, t->kind);
		if (send) {
			parse_dst(c, o, bp, "dst", t->dst ? t->dst : "198.19.0.2", &h->dst);
			h->stream = i ? (int)i + 2 : 1;   /* 2 is blast B's */
		}
	}
	return n;
}

/* The lab's sender namespaces and queues, and an xdp: sink's threads there: one per
 * queue, or frames on the queues it does not read would count as lost. */
static void lab_needs(struct vctx *c, json_t *topo, struct prof_topology *t)
{
	if (t->kind != PT_NETNS || !t->ngens || !t->nsinks)
		return;
	unsigned q = 1;
	struct prof_host *all[2 * PROF_BOXES_MAX];
	size_t na = 0;
	for (size_t i = 0; i < t->ngens; i++)
		all[na++] = &t->gens[i];
	for (size_t i = 0; i < t->nsinks; i++)
		all[na++] = &t->sinks[i];
	for (size_t i = 0; i < na; i++) {
		unsigned need = all[i]->queues > all[i]->threads ? all[i]->queues : all[i]->threads;
		if (need > q)
			q = need;
	}
	t->lab_senders = (unsigned)t->ngens;
	t->lab_queues = q > LAB_QUEUES_MAX ? LAB_QUEUES_MAX : q;
	struct prof_host *k = &t->sinks[0];
	if (!k->backend || strcmp(k->backend, "xdp") || (k->spec && strstr(k->spec, "queue=")))
		return;
	json_t *so = json_object_get(topo, "sink");
	bool given = json_is_object(so) && json_object_get(so, "threads");
	char kp[128];
	if (given && k->threads < t->lab_queues)
		verr(c, jpos_path_key(kp, sizeof(kp), "topology.sink", "threads"), false,
		     "an xdp: sink reads one queue per thread, and the lab's veths get %u queues (the "
		     "largest threads or queues of a box): give it threads %u", t->lab_queues,
		     t->lab_queues);
	else if (!given && t->lab_queues > 16)
		verr(c, "topology.sink", false, "an xdp: sink reads one queue per thread, at most 16, "
		     "and the lab's veths get %u queues", t->lab_queues);
	else if (!given)
		k->threads = t->lab_queues;
}

/* Blast B goes from the sink box back to the sender box: one of each. */
static void no_bi(struct vctx *c, json_t *root)
{
	char ip[128];
	const json_t *m = json_object_get(json_object_get(root, "matrix"), "direction");
	const json_t *pv = json_object_get(json_object_get(root, "params"), "direction");
	size_t i;
	json_t *v;
	json_array_foreach(m, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), "bi"))
			verr(c, jpos_path_idx(ip, sizeof(ip), "matrix.direction", i), false,
			     "bidirectional cells need one sender and one sink box (blast B goes from "
			     "the sink box back to the sender box); the topology lists several");
	if (json_is_string(pv) && !strcmp(json_string_value(pv), "bi"))
		verr(c, "params.direction", false, "bidirectional cells need one sender and one sink "
		     "box (blast B goes from the sink box back to the sender box); the topology "
		     "lists several");
}

static void parse_topology(struct vctx *c, json_t *root, struct profile *p)
{
	struct prof_topology *t = &p->topo;
	json_t *o = json_object_get(root, "topology");
	const char *lab = NULL;
	int e;

	if (want_object(c, o, "topology"))
		o = NULL;
	if (o)
		check_keys(c, o, "topology", topo_keys);
	if (!get_enum(c, o, "kind", "topology", topo_kinds, PT_NETNS, &e))
		t->kind = (enum prof_topo)e;
	get_str(c, o, "lab", "topology", &lab);
	if (lab && t->kind != PT_NETNS) {
		verr(c, "topology.lab", true, "lab applies to topology kind \"netns\"");
	} else if (lab && lab_name_check(lab)) {
		verr(c, "topology.lab", false,
		     "expected a lab name ([A-Za-z0-9_.-], 1..24 characters, not starting with '-' or '.'), got \"%.60s\"",
		     lab);
		lab = NULL;
	}
	if (t->kind == PT_NETNS)
		t->lab = xstrdup(c, lab ? lab : "ppslab");
	const char *l = t->lab ? t->lab : "ppslab";
	parse_dst(c, o, "topology", "dst", "198.19.0.2", &t->dst);
	parse_dst(c, o, "topology", "dst_b", "198.18.0.2", &t->dst_b);
	t->ngens = parse_boxes(c, o, "gen", t, l, &t->gens);
	parse_host(c, o ? json_object_get(o, "rut") : NULL, "topology.rut", "rut", 0, &t->rut,
		   t->kind, l, p->router.kind == PR_RUT);
	t->rut.name = xstrdup(c, "rut");
	t->nsinks = parse_boxes(c, o, "sink", t, l, &t->sinks);
	lab_needs(c, o, t);
	if (t->ngens > 1 || t->nsinks > 1)
		no_bi(c, root);
	parse_mac(c, o, "dst_mac", &t->dst_mac);
	parse_mac(c, o, "dst_mac_b", &t->dst_mac_b);
	json_t *so = o ? json_object_get(o, "ssh_options") : NULL;
	if (so && t->kind != PT_SSH && p->router.kind != PR_EXTERNAL) {
		verr(c, "topology.ssh_options", true, "ssh_options applies to topology kind \"ssh\" "
		     "(and to an external router's hooks)");
	} else if (so) {
		check_argv(c, so, "topology.ssh_options", PH_NONE);
		t->ssh_options = json_incref(so);
	}
}

static const char *const rig_keys[] = { "calibrate", "direct", NULL };
static const char *const output_keys[] = { "results", "table", "plot", NULL };

static void parse_rig_output(struct vctx *c, json_t *root, struct profile *p)
{
	json_t *o = json_object_get(root, "rig");
	const char *s;
	if (want_object(c, o, "rig"))
		o = NULL;
	if (o)
		check_keys(c, o, "rig", rig_keys);
	get_bool(c, o, "calibrate", "rig", true, &p->rig_calibrate);
	get_bool(c, o, "direct", "rig", true, &p->rig_direct);

	o = json_object_get(root, "output");
	if (want_object(c, o, "output"))
		o = NULL;
	if (o) {
		check_keys(c, o, "output", output_keys);
		want_object(c, json_object_get(o, "table"), "output.table");
		want_object(c, json_object_get(o, "plot"), "output.plot");
	}
	p->output = o;
	get_str(c, o, "results", "output", &s);
	p->results = xstrdup(c, s ? s : "results.json");
}

/* matrix and params: swept axes in matrix order, every other axis fixed. */
static void parse_axes(struct vctx *c, json_t *root, struct profile *p)
{
	json_t *m = json_object_get(root, "matrix");
	json_t *pa = json_object_get(root, "params");
	const char *k;
	json_t *v;
	char kp[512], ip[540], gbuf[128], list[512];

	names_list(prof_axis_names, list, sizeof(list));
	if (want_object(c, m, "matrix"))
		m = NULL;
	if (want_object(c, pa, "params"))
		pa = NULL;
	if (!(p->fixed = json_object())) {
		c->oom = 1;
		return;
	}
	size_t nr = p->router.naxes;
	p->axes = calloc((m ? json_object_size(m) : 0) + nr + 1, sizeof(*p->axes));
	if (!p->axes) {
		c->oom = 1;
		return;
	}
	/* the router's own knobs first: they vary slowest in matrix order */
	for (size_t i = 0; i < nr; i++) {
		struct prof_axis *a = &p->axes[p->naxes++];
		a->name = xstrdup(c, p->router.axes[i].name);
		a->values = json_incref(p->router.axes[i].values);
		a->router = &p->router.axes[i];
	}
	json_object_foreach(m, k, v) {
		const struct axis_spec *s = axis_spec(k);
		jpos_path_key(kp, sizeof(kp), "matrix", k);
		if (!s && router_axis_name(c, k)) {
			verr(c, kp, true, "%s is a router axis: its values are router.axes[].values", k);
			continue;
		}
		if (!s) {
			verr(c, kp, true, "unknown axis \"%s\"; axes: %s", k, list);
			continue;
		}
		if (pa && json_object_get(pa, k))
			verr(c, kp, true, "axis %s is both swept (matrix) and fixed (params)", k);
		if (!json_is_array(v) || json_array_size(v) == 0) {
			verr(c, kp, false, "expected a non-empty list of %s values, got %s", k,
			     GOT(v));
			continue;
		}
		json_t *vals = json_array();
		if (!vals) {
			c->oom = 1;
			return;
		}
		size_t i;
		json_t *w;
		bool bad = false;
		json_array_foreach(v, i, w) {
			json_t *norm;
			jpos_path_idx(ip, sizeof(ip), kp, i);
			if (check_axis(c, s, w, ip, p->router.rules_dir, &norm)) {
				bad = true;
				continue;
			}
			for (size_t j = 0; j < json_array_size(vals); j++)
				if (same_value(s, json_array_get(vals, j), norm)) {
					verr(c, ip, false, "%s appears twice in the list",
					     GOT(w));
					bad = true;
				}
			json_array_append_new(vals, norm);
		}
		if (bad) {
			json_decref(vals);
			continue;
		}
		p->axes[p->naxes].name = xstrdup(c, k);
		p->axes[p->naxes++].values = vals;
	}
	json_object_foreach(pa, k, v) {
		const struct axis_spec *s = axis_spec(k);
		json_t *norm;
		jpos_path_key(kp, sizeof(kp), "params", k);
		if (!s && router_axis_name(c, k)) {
			verr(c, kp, true, "%s is a router axis: give it one value in router.axes[].values", k);
			continue;
		}
		if (!s) {
			verr(c, kp, true, "unknown axis \"%s\"; axes: %s", k, list);
			continue;
		}
		if (!check_axis(c, s, v, kp, p->router.rules_dir, &norm))
			json_object_set_new(p->fixed, k, norm);
	}
	for (size_t i = 0; i < NAXES; i++) {
		const char *name = axes_tab[i].name;
		if ((m && json_object_get(m, name)) || json_object_get(p->fixed, name))
			continue;
		json_object_set(p->fixed, name, (json_t *)prof_axis_default(name));
	}
}

/* What the profile sets must exist on every kernel it runs ppslab-rut with
 * (docs/design/polling.md#kernel-personalities): pollhz on DragonFly only (FreeBSD
 * polls at kern.hz), idle_poll on FreeBSD only, burst_max above 1000 on freebsd-14
 * only. An axis left at its default is not sent to a kernel that lacks it. */
static void check_kernel_axes(struct vctx *c, json_t *root, const struct profile *p)
{
	json_t *m = json_object_get(root, "matrix"), *pa = json_object_get(root, "params");
	const json_t *kv = NULL, *kfix = json_object_get(p->fixed, "kernel");
	char kp[512], ip[540];
	if (p->router.kind != PR_RUT)
		return;
	m = json_is_object(m) ? m : NULL;
	pa = json_is_object(pa) ? pa : NULL;
	for (size_t a = 0; a < p->naxes; a++)
		if (!strcmp(p->axes[a].name, "kernel"))
			kv = p->axes[a].values;
	size_t nk = kv ? json_array_size(kv) : 1;
	for (size_t i = 0; i < nk; i++) {
		const json_t *kj = kv ? json_array_get(kv, i) : kfix;
		const struct pollkern *k = pollkern_find(json_string_value(kj));
		if (!k)
			continue;
		static const char *const only[] = { "pollhz", "idle_poll" };
		for (int j = 0; j < 2; j++) {
			const char *where = m && json_object_get(m, only[j]) ? "matrix"
					    : pa && json_object_get(pa, only[j]) ? "params" : NULL;
			if (!where || pollkern_has(k, only[j]))
				continue;
			jpos_path_key(kp, sizeof(kp), where, only[j]);
			verr(c, kp, true, "kernel %s has no kern.polling.%s%s", k->name, only[j],
			     j == 0 ? ": it polls at kern.hz (the hz axis)"
				    : ": DragonFly polls only on clock ticks");
		}
		json_t *bm = m ? json_object_get(m, "burst_max") : NULL;
		const json_t *bv = pa ? json_object_get(pa, "burst_max") : NULL;
		for (size_t j = 0; j < (json_is_array(bm) ? json_array_size(bm) : 1); j++) {
			const json_t *v = json_is_array(bm) ? json_array_get(bm, j) : bv;
			double d = json_is_number(v) ? json_number_value(v) : 0;
			if (d <= k->burst_max_max)
				continue;
			if (json_is_array(bm)) {
				jpos_path_key(kp, sizeof(kp), "matrix", "burst_max");
				jpos_path_idx(ip, sizeof(ip), kp, j);
			} else {
				jpos_path_key(ip, sizeof(ip), "params", "burst_max");
			}
			verr(c, ip, false, "kernel %s takes burst_max up to %u, got %.0f", k->name,
			     k->burst_max_max, d);
		}
	}
}

static const char *const top_keys[] = { "description", "matrix", "params", "repetitions",
					"order", "seed", "trial", "router", "topology", "rig",
					"output", "allow_any_dst", NULL };
static const char *const order_names[] = { "sequential", "random", NULL };

static void validate(struct vctx *c, json_t *root, struct profile *p)
{
	long long n;
	int e;
	char gbuf[128];

	check_keys(c, root, "", top_keys);
	json_t *d = json_object_get(root, "description");
	if (d && !json_is_string(d))
		verr(c, "description", false, "expected a string, got %s", GOT(d));
	p->description = json_is_string(d) ? json_string_value(d) : "";
	get_bool(c, root, "allow_any_dst", "", false, &c->allow_any_dst);
	if (!get_int(c, root, "repetitions", "", 1, 1000, 1, &n))
		p->repetitions = (unsigned)n;
	if (!get_enum(c, root, "order", "", order_names, 0, &e))
		p->order_random = e == 1;
	p->seed = 1;
	json_t *sd = json_object_get(root, "seed");
	if (sd && (!json_is_integer(sd) || json_integer_value(sd) < 0))
		verr(c, "seed", false, "expected a whole number 0 or more, got %s", GOT(sd));
	else if (sd)
		p->seed = (uint64_t)json_integer_value(sd);
	parse_router(c, root, p);
	parse_axes(c, root, p);
	check_kernel_axes(c, root, p);
	parse_trial(c, root, p);
	parse_topology(c, root, p);
	parse_rig_output(c, root, p);
	check_coverage(c, p);
}

/* ---- entry points ---------------------------------------------------------------- */

void profile_free(struct profile *p)
{
	if (!p)
		return;
	free(p->path);
	free(p->name);
	for (size_t i = 0; i < p->naxes; i++) {
		free(p->axes[i].name);
		json_decref(p->axes[i].values);
	}
	free(p->axes);
	json_decref(p->fixed);
	json_decref(p->trial.ladder);
	free(p->router.ports);
	free(p->router.rules_dir);
	json_decref(p->router.hooks);
	json_decref(p->router.setup_hook);
	json_decref(p->router.read_hook);
	json_decref(p->router.check_hook);
	json_decref(p->router.hook_est);
	for (size_t i = 0; i < p->router.naxes; i++) {
		free(p->router.axes[i].name);
		json_decref(p->router.axes[i].values);
		json_decref(p->router.axes[i].set);
		json_decref(p->router.axes[i].verify);
	}
	free(p->router.axes);
	json_decref(p->router.reboot_hook);
	json_decref(p->router.ready_hook);
	struct prof_host *h[1 + 2 * PROF_BOXES_MAX];
	size_t nh = 0;
	h[nh++] = &p->topo.rut;
	for (size_t i = 0; i < p->topo.ngens; i++)
		h[nh++] = &p->topo.gens[i];
	for (size_t i = 0; i < p->topo.nsinks; i++)
		h[nh++] = &p->topo.sinks[i];
	for (size_t i = 0; i < nh; i++) {
		free(h[i]->name);
		free(h[i]->ssh);
		free(h[i]->netns);
		free(h[i]->iface);
		free(h[i]->bin);
		free(h[i]->spec);
		free(h[i]->backend);
		free(h[i]->cpus);
		free(h[i]->dst);
	}
	free(p->topo.gens);
	free(p->topo.sinks);
	free(p->topo.lab);
	free(p->topo.dst);
	free(p->topo.dst_b);
	free(p->topo.dst_mac);
	free(p->topo.dst_mac_b);
	json_decref(p->topo.ssh_options);
	free(p->results);
	json_decref(p->root);
	free(p);
}

/* name: file name without directory and ".json". */
static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	return strndup(b, n);
}

int profile_parse(const char *text, size_t len, const char *name, char *const *sets,
		  size_t nsets, struct profile **out, struct prof_diag *d)
{
	struct vctx c = { .fname = name ? name : "profile" };
	struct profile *p = NULL;
	json_error_t je;
	int rc = -ENOMEM;
	char msg[1200];

	*out = NULL;
	const char *slash = strrchr(c.fname, '/');
	if (slash)
		snprintf(c.dir, sizeof(c.dir), "%.*s", (int)(slash - c.fname) ? (int)(slash - c.fname) : 1,
			 c.fname);
	else
		snprintf(c.dir, sizeof(c.dir), ".");

	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(msg, sizeof(msg), "%s:%d:%d: %s", c.fname, je.line, je.column, je.text);
		return diag_add(d, msg) ? -ENOMEM : -EINVAL;
	}
	if (!json_is_object(root)) {
		snprintf(msg, sizeof(msg), "%s:1:1: a profile is a JSON object {...}", c.fname);
		json_decref(root);
		return diag_add(d, msg) ? -ENOMEM : -EINVAL;
	}
	if (!(c.jp = jpos_index(text, len)))
		goto out;
	for (size_t i = 0; i < nsets; i++)
		apply_set(&c, root, sets[i] ? sets[i] : "", i + 1);
	if (!(p = calloc(1, sizeof(*p))))
		goto out;
	p->root = root;
	root = NULL;
	if (!(p->path = strdup(c.fname)) || !(p->name = base_name(c.fname)))
		goto out;
	validate(&c, p->root, p);
	if (c.oom)
		goto out;
	if (c.nerr)
		qsort(c.errs, c.nerr, sizeof(*c.errs), perr_cmp);
	for (size_t i = 0; i < c.nerr; i++)
		if (diag_add(d, c.errs[i].msg))
			goto out;
	if (c.nerr) {
		rc = -EINVAL;
		goto out;
	}
	*out = p;
	p = NULL;
	rc = 0;
out:
	profile_free(p);
	json_decref(root);
	jpos_free(c.jp);
	for (size_t i = 0; i < c.nerr; i++)
		free(c.errs[i].msg);
	free(c.errs);
	for (size_t i = 0; i < c.nmarks; i++)
		free(c.marks[i].path);
	free(c.marks);
	json_decref(c.raxes);
	return rc;
}

static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f)
		return -errno;
	errno = 0;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		int e = errno;
		fclose(f);
		return e ? -e : S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	size_t cap = 8192, n = 0;
	char *b = malloc(cap);
	int rc = 0;
	while (b) {
		size_t r = fread(b + n, 1, cap - n, f);
		n += r;
		if (n < cap) {
			if (ferror(f))
				rc = -EIO;
			break;
		}
		if (cap >= (64u << 20)) {
			rc = -EFBIG;
			break;
		}
		char *nb = realloc(b, cap * 2);
		if (!nb) {
			free(b);
			b = NULL;
			break;
		}
		b = nb;
		cap *= 2;
	}
	fclose(f);
	if (!b)
		return -ENOMEM;
	if (rc) {
		free(b);
		return rc;
	}
	*text = b;
	*len = n;
	return 0;
}

/* Where a bare name is looked for, in order; returns how many candidates were written. */
static size_t candidates(const char *name, char cand[][PATH_MAX + 64], size_t max)
{
	size_t n = 0;
	snprintf(cand[n++], sizeof(cand[0]), "profiles/%s.json", name);
	const char *env = getenv("PPSLAB_PROFILES");
	if (env && *env && n < max)
		snprintf(cand[n++], sizeof(cand[0]), "%s/%s.json", env, name);
	char exe[PATH_MAX];
	ssize_t r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (r > 0) {
		exe[r] = 0;
		char *s = strrchr(exe, '/');
		if (s) {
			*s = 0;
			/* installed: PREFIX/bin → PREFIX/share/ppslab/profiles; built: build/bin → profiles */
			if (n < max)
				snprintf(cand[n++], sizeof(cand[0]), "%s/../share/ppslab/profiles/%s.json",
					 exe, name);
			if (n < max)
				snprintf(cand[n++], sizeof(cand[0]), "%s/../../profiles/%s.json", exe,
					 name);
		}
	}
#ifdef PPSLAB_SHARE_DIR
	if (n < max)
		snprintf(cand[n++], sizeof(cand[0]), "%s/profiles/%s.json", PPSLAB_SHARE_DIR, name);
#endif
	return n;
}

int profile_load(const char *path, char *const *sets, size_t nsets, struct profile **out,
		 struct prof_diag *d)
{
	char cand[5][PATH_MAX + 64], msg[8192];
	char *text = NULL;
	size_t len = 0, n;
	int rc;

	*out = NULL;
	if (!path || !*path)
		return diag_add(d, "no profile given") ? -ENOMEM : -ENOENT;
	bool bare = !strchr(path, '/') && !strstr(path, ".json");
	if (!bare) {
		snprintf(cand[0], sizeof(cand[0]), "%s", path);
		n = 1;
	} else {
		n = candidates(path, cand, 5);
	}
	rc = -ENOENT;
	size_t i;
	for (i = 0; i < n; i++) {
		rc = read_file(cand[i], &text, &len);
		if (rc != -ENOENT)
			break;
	}
	if (rc == -ENOENT) {
		size_t m = (size_t)snprintf(msg, sizeof(msg), "%s: no such profile", path);
		if (bare)
			for (size_t j = 0; j < n && m < sizeof(msg); j++)
				m += (size_t)snprintf(msg + m, sizeof(msg) - m, "%s%s",
						      j ? ", " : " (looked for ", cand[j]);
		if (bare && m < sizeof(msg))
			snprintf(msg + m, sizeof(msg) - m, ")");
		return diag_add(d, msg) ? -ENOMEM : -ENOENT;
	}
	if (rc) {
		snprintf(msg, sizeof(msg), "%.4000s: %s", cand[i], strerror(-rc));
		return diag_add(d, msg) ? -ENOMEM : rc;
	}
	rc = profile_parse(text, len, cand[i], sets, nsets, out, d);
	free(text);
	return rc;
}

/* ---- values of a cell -------------------------------------------------------------- */

const struct prof_raxis *prof_router_axis(const struct profile *p, const char *name)
{
	for (size_t i = 0; p && name && i < p->router.naxes; i++)
		if (!strcmp(p->router.axes[i].name, name))
			return &p->router.axes[i];
	return NULL;
}

bool prof_has_reboots(const struct profile *p)
{
	for (size_t i = 0; i < p->router.naxes; i++)
		if (p->router.axes[i].reboot)
			return true;
	return false;
}

const json_t *prof_value(const struct profile *p, const json_t *params, const char *axis)
{
	if (!prof_is_axis(axis))
		return prof_router_axis(p, axis) && params ? json_object_get(params, axis) : NULL;
	const json_t *v = params ? json_object_get(params, axis) : NULL;
	if (!v && p)
		v = json_object_get(p->fixed, axis);
	return v ? v : prof_axis_default(axis);
}

double prof_num(const struct profile *p, const json_t *params, const char *axis)
{
	const json_t *v = prof_value(p, params, axis);
	double d;
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_string(v) && !num_pps(json_string_value(v), &d))
		return d;
	return NAN;
}
