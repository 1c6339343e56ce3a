/* SPDX-License-Identifier: BSD-2-Clause */
/* profile_router.c — a profile's "router" section (see profile_impl.h): the router's
 * kind and ports, an external router's hooks and their {AXIS} words, its own axes
 * (router.axes), reboots and hook estimates, and the check that every swept axis of an
 * external router is set by something. */
#include "profile_impl.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpos.h"
#include "results.h"


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
	json_array_foreach(argv, i, w)
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
	const struct axis_def *a = axis_find(axis);
	return a && a->act == AA_TRAFFIC;
}

struct check_ctx_w {
	struct vctx *c;
	const char *path, *word;
	enum ph_mode mode;
};

bool prof_router_axis_name(const struct vctx *c, const char *name)
{
	return c->raxes && json_object_get(c->raxes, name);
}

static void check_piece(void *ctx, const char *lit, size_t n, const char *name)
{
	struct check_ctx_w *w = ctx;
	(void)lit;
	(void)n;
	if (!name || axis_find(name) || prof_router_axis_name(w->c, name))
		return;
	if (!strcmp(name, "value")) {
		if (w->mode != PH_VALUE)
			prof_verr(w->c, w->path, false, "{value} is the value of a router axis: it belongs in "
				  "router.axes[].set and verify; elsewhere name the axis, {AXIS}");
		return;
	}
	char list[512] = "", all[512];
	size_t m = 0;
	const char *k;
	json_t *v;
	json_object_foreach(w->c->raxes, k, v)
		if (m < sizeof(list))
			m += (size_t)snprintf(list + m, sizeof(list) - m, ", %s", k);
	prof_verr(w->c, w->path, false, "placeholder {%s} names no axis (axes: %s%s%s; a literal brace is written {{ or }})",
		  name, axis_names_join(all, sizeof(all), ", "), list, w->mode == PH_VALUE ? "; {value} is this axis' value" : "");
}

/* An argument vector; with placeholders, each {NAME} must name an axis (or be {value},
 * in a router axis' hooks) and a literal brace is doubled. */
void prof_check_argv(struct vctx *c, const json_t *v, const char *path, enum ph_mode mode)
{
	char gbuf[128], ip[512];
	if (!json_is_array(v) || json_array_size(v) == 0) {
		prof_verr(c, path, false, "expected a non-empty list of strings (an argument vector), got %s",
			  GOT(v));
		return;
	}
	size_t i;
	json_t *w;
	json_array_foreach(v, i, w) {
		jpos_path_idx(ip, sizeof(ip), path, i);
		if (!json_is_string(w) || strlen(json_string_value(w)) != json_string_length(w)) {
			prof_verr(c, ip, false, "expected a string, got %s", GOT(w));
			continue;
		}
		if (mode == PH_NONE)
			continue;
		const char *s = json_string_value(w);
		struct check_ctx_w cw = { .c = c, .path = ip, .word = s, .mode = mode };
		size_t at = 0;
		int rc = prof_hook_scan(s, check_piece, &cw, &at);
		if (rc == -EPROTO)
			prof_verr(c, ip, false, "a lone \"}\" in \"%.60s\" (a literal brace is written }})", s);
		else if (rc)
			prof_verr(c, ip, false, "\"{\" without a closing \"}\" in \"%.60s\" (a placeholder is {AXIS}; a literal brace is written {{)", s);
	}
}

static const char *const router_keys[] = { "kind", "ports", "rules_dir", "rt_prio", "ring",
					    "threads",
					    "hooks", "setup_hook", "read_hook", "check_hook",
					    "hook_timeout", "hook_estimate", "axes", "reboot_hook",
					    "ready_hook", "reboot_timeout", "reboot_estimate", "verify",
					    "boot_hook", "power_cycle_hook", NULL };
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
	json_array_foreach(axes, i, a) {
		const char *n = json_string_value(json_object_get(a, "name"));
		if (n && raxis_name_ok(n) && !axis_find(n) && !raxis_reserved(n))
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
		prof_verr(c, path, false, "expected a number or a string (1..200 characters, no comma, no "
			  "control characters, no space at either end), got %s", GOT(v));
		return NULL;
	}
	prof_verr(c, path, false, "expected a number or a string, got %s", GOT(v));
	return NULL;
}

/* router.axes: [{name, values, set, verify, reboot, timeout}, ...] */
/* Router axis i (a, at path ap) of axes: its name in *name, false when it is good. */
static bool raxis_name_bad(struct vctx *c, const json_t *axes, size_t i, const json_t *a,
			   const char *ap, const char **name)
{
	char kp[128];
	snprintf(kp, sizeof(kp), "%s.name", ap);
	if (prof_get_str(c, a, "name", ap, name)) {
		return true;
	} else if (!*name) {
		prof_verr(c, ap, false, "a router axis needs \"name\": the knob it sweeps (e.g. \"kern.hz\")");
		return true;
	} else if (axis_find(*name)) {
		prof_verr(c, kp, false, "router axis \"%s\" collides with the built-in axis %s: sweep "
			  "that in matrix (with a hook in router.hooks), or give the router's knob "
			  "another name", *name, *name);
		return true;
	} else if (raxis_reserved(*name)) {
		prof_verr(c, kp, false, "\"%s\" is reserved ({value} stands for a router axis' value "
			  "in its hooks; setup, read, check, verify, reboot and ready name the "
			  "router's other hooks)", *name);
		return true;
	} else if (!raxis_name_ok(*name)) {
		prof_verr(c, kp, false, "expected a name of letters, digits and ._-%% (starting with a "
			  "letter, up to %d characters), such as \"kern.hz\" or \"os\", got \"%.60s\"",
			  PROF_HOOK_NAME_MAX - 1, *name);
		return true;
	} else {
		for (size_t j = 0; j < i; j++) {
			const char *o = json_string_value(json_object_get(json_array_get(axes, j),
									  "name"));
			if (o && !strcmp(o, *name)) {
				prof_verr(c, kp, false, "router axis \"%s\" is declared twice (first as "
					  "router.axes[%zu])", *name, j);
				return true;
			}
		}
	}
	return false;
}

/* The values of router axis a (at path ap), normalised, into *vals (*bad when one is
 * not good). True when memory ran out. */
static bool raxis_values(struct vctx *c, const json_t *a, const char *ap, bool *bad,
			 json_t **vals)
{
	char kp[128], ip[160], gbuf[128];
	snprintf(kp, sizeof(kp), "%s.values", ap);
	json_t *v = json_object_get(a, "values");
	if (!json_is_array(v) || json_array_size(v) == 0) {
		prof_verr(c, v ? kp : ap, false, "expected \"values\": a non-empty list of the knob's "
			  "values, got %s", json_is_array(v) ? "an empty list" : GOT(v));
		*bad = true;
	} else if (!(*vals = json_array())) {
		c->oom = 1;
		return true;
	} else {
		size_t k;
		json_t *w;
		json_array_foreach(v, k, w) {
			jpos_path_idx(ip, sizeof(ip), kp, k);
			json_t *norm = raxis_value(c, w, ip);
			if (!norm) {
				*bad = true;
				continue;
			}
			/* the same text is the same case id: "1000" and 1000 would collide */
			char t1[1024], t2[1024];
			prof_id_text(norm, t1, sizeof(t1));
			for (size_t j = 0; j < json_array_size(*vals); j++)
				if (!strcmp(prof_id_text(json_array_get(*vals, j), t2, sizeof(t2)),
					    t1)) {
					bool same = res_value_eq(json_array_get(*vals, j), norm);
					prof_verr(c, ip, false, "%s appears twice in the list%s",
						  GOT(w), same ? "" : " (a number and a string "
						  "with the same text would name one case)");
					*bad = true;
				}
			json_array_append_new(*vals, norm);
		}
	}
	return false;
}

static void parse_router_axes(struct vctx *c, const json_t *axes, struct prof_router_cfg *r)
{
	char ap[64], kp[128], gbuf[128];
	size_t i;
	json_t *a;
	if (!json_is_array(axes)) {
		prof_verr(c, "router.axes", false, "expected a list of router axes [{\"name\": ..., "
			  "\"values\": [...], \"set\": [...]}, ...], got %s", GOT(axes));
		return;
	}
	if (!(r->axes = calloc(json_array_size(axes) + 1, sizeof(*r->axes)))) {
		c->oom = 1;
		return;
	}
	json_array_foreach(axes, i, a) {
		jpos_path_idx(ap, sizeof(ap), "router.axes", i);
		if (prof_want_object(c, a, ap))
			continue;
		prof_check_keys(c, a, ap, raxis_keys);
		const char *name = NULL;
		bool bad = raxis_name_bad(c, axes, i, a, ap, &name);
		json_t *vals = NULL;
		if (raxis_values(c, a, ap, &bad, &vals))
			return;
		json_t *set = json_object_get(a, "set"), *ver = json_object_get(a, "verify");
		snprintf(kp, sizeof(kp), "%s.set", ap);
		if (!set) {
			prof_verr(c, ap, false, "a router axis needs \"set\": the argument vector that sets "
				  "it ({value} is the cell's value)");
			bad = true;
		} else {
			prof_check_argv(c, set, kp, PH_VALUE);
		}
		snprintf(kp, sizeof(kp), "%s.verify", ap);
		if (ver)
			prof_check_argv(c, ver, kp, PH_VALUE);
		bool reboot = false;
		double tmo = r->hook_timeout_s;
		prof_get_bool(c, a, "reboot", ap, false, &reboot);
		prof_get_dur(c, a, "timeout", ap, r->hook_timeout_s, &tmo);
		if (tmo <= 0) {
			snprintf(kp, sizeof(kp), "%s.timeout", ap);
			prof_verr(c, kp, false, "must be longer than 0 s");
		}
		if (bad) {
			json_decref(vals);
			continue;
		}
		struct prof_raxis *x = &r->axes[r->naxes++];
		x->name = prof_xstrdup(c, name);
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

/* The router's own settings: kind, ports, rules_dir, rt_prio, threads, ring,
 * hook_timeout (o: the profile's "router", or NULL). */
static void parse_router_basics(struct vctx *c, json_t *o, struct prof_router_cfg *r)
{
	const char *s;
	int e;
	long long n;
	char dir[PATH_MAX + 8];
	if (o)
		prof_check_keys(c, o, "router", router_keys);
	if (!prof_get_enum(c, o, "kind", "router", router_kinds, PR_RUT, &e))
		r->kind = (enum prof_router)e;
	c->router_kind = r->kind;
	prof_get_enum(c, o, "ports", "router", port_names, 0, &e);
	r->ports = prof_xstrdup(c, port_names[e]);
	prof_get_str(c, o, "rules_dir", "router", &s);
	if (s)
		prof_join_path(dir, sizeof(dir), c->dir, s);
	else
		snprintf(dir, sizeof(dir), "%s", c->dir);
	r->rules_dir = prof_xstrdup(c, dir);
	if (!prof_get_int(c, o, "rt_prio", "router", 0, 99, 0, &n))
		r->rt_prio = (double)n;
	r->threads = 1;
	if (!prof_get_int(c, o, "threads", "router", 1, 64, 1, &n))
		r->threads = (unsigned)n;
	if (!prof_get_int(c, o, "ring", "router", 0, 4194304, 0, &n)) {
		if (n && n < 64)
			prof_verr(c, "router.ring", false, "expected 0 (the backend's default) or 64..4194304 frames, got %lld", n);
		r->ring = (unsigned)n;
	}
	prof_get_dur(c, o, "hook_timeout", "router", 30, &r->hook_timeout_s);
	if (r->hook_timeout_s <= 0)
		prof_verr(c, "router.hook_timeout", false, "must be longer than 0 s");
}

void prof_parse_router(struct vctx *c, json_t *root, struct profile *p)
{
	struct prof_router_cfg *r = &p->router;
	json_t *o = json_object_get(root, "router");

	r->kind = PR_RUT;
	r->hook_timeout_s = 30;
	if (prof_want_object(c, o, "router"))
		o = NULL;
	parse_router_basics(c, o, r);
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
	if (h && !prof_want_object(c, h, "router.hooks")) {
		const char *k;
		json_t *v;
		char kp[512];
		json_object_foreach(h, k, v) {
			jpos_path_key(kp, sizeof(kp), "router.hooks", k);
			if (!axis_find(k))
				prof_verr(c, kp, true, "hooks are per axis, and \"%s\" is no axis", k);
			prof_check_argv(c, v, kp, PH_AXES);
		}
		r->hooks = json_incref(h);
	}
	json_t *sh = o ? json_object_get(o, "setup_hook") : NULL;
	json_t *rh = o ? json_object_get(o, "read_hook") : NULL;
	json_t *ch = o ? json_object_get(o, "check_hook") : NULL;
	if (sh) {
		prof_check_argv(c, sh, "router.setup_hook", PH_AXES);
		r->setup_hook = json_incref(sh);
	}
	if (rh) {
		prof_check_argv(c, rh, "router.read_hook", PH_AXES);
		r->read_hook = json_incref(rh);
	}
	if (ch) {
		prof_check_argv(c, ch, "router.check_hook", PH_AXES);
		r->check_hook = json_incref(ch);
	}
	parse_hook_estimate(c, o, r);
	/* router.verify: a read-back hook per built-in axis the hooks set (router axes
	 * have their own verify) */
	json_t *vf = o ? json_object_get(o, "verify") : NULL;
	if (vf && !prof_want_object(c, vf, "router.verify")) {
		const char *k;
		json_t *v;
		char kp[512];
		json_object_foreach(vf, k, v) {
			jpos_path_key(kp, sizeof(kp), "router.verify", k);
			if (!axis_find(k))
				prof_verr(c, kp, true, "\"%s\" is no built-in axis (a router axis "
					  "reads itself back with its own \"verify\")", k);
			prof_check_argv(c, v, kp, PH_AXES);
		}
		r->verify = json_incref(vf);
	}
	json_t *bh = o ? json_object_get(o, "boot_hook") : NULL;
	if (bh) {
		prof_check_argv(c, bh, "router.boot_hook", PH_AXES);
		r->boot_hook = json_incref(bh);
	}
	json_t *pc = o ? json_object_get(o, "power_cycle_hook") : NULL;
	if (pc) {
		prof_check_argv(c, pc, "router.power_cycle_hook", PH_NONE);
		r->power_cycle_hook = json_incref(pc);
	}
	json_t *rb = o ? json_object_get(o, "reboot_hook") : NULL;
	json_t *rd = o ? json_object_get(o, "ready_hook") : NULL;
	if (rb) {
		prof_check_argv(c, rb, "router.reboot_hook", PH_AXES);
		r->reboot_hook = json_incref(rb);
	}
	if (rd) {
		prof_check_argv(c, rd, "router.ready_hook", PH_AXES);
		r->ready_hook = json_incref(rd);
	}
	prof_get_dur(c, o, "reboot_timeout", "router", 600, &r->reboot_timeout_s);
	if (r->reboot_timeout_s <= 0)
		prof_verr(c, "router.reboot_timeout", false, "must be longer than 0 s");
	prof_get_dur(c, o, "reboot_estimate", "router", 120, &r->reboot_est_s);
	bool reboots = false;
	for (size_t i = 0; i < r->naxes; i++)
		if (r->axes[i].reboot && !reboots) {
			reboots = true;
			char kp[96];
			snprintf(kp, sizeof(kp), "router.axes[%zu].reboot", i);
			if (!rb)
				prof_verr(c, kp, false, "axis %s takes a reboot, so the profile needs "
					  "router.reboot_hook: the argument vector that restarts the router "
					  "(e.g. [\"ssh\", \"root@r2\", \"shutdown\", \"-r\", \"now\"])",
					  r->axes[i].name);
		}
	json_t *he = o ? json_object_get(o, "hook_estimate") : NULL;
	if (r->kind != PR_EXTERNAL && (vf || bh || pc))
		prof_verr(c, vf ? "router.verify" : bh ? "router.boot_hook" : "router.power_cycle_hook", true,
			  "read-back and boot hooks are an external router's: set router.kind to "
			  "\"external\"");
	if (r->kind != PR_EXTERNAL && (h || sh || rh || ch || he || ax || rb || rd))
		prof_verr(c, ax ? "router.axes" : h ? "router.hooks" : sh ? "router.setup_hook"
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
		prof_get_dur(c, o, "hook_estimate", "router", PROF_HOOK_EST_DEFAULT_S, &r->hook_est_s);
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
		if (!axis_find(k) && !prof_router_axis_name(c, k) && strcmp(k, "setup") &&
		    strcmp(k, "read") && strcmp(k, "check") && strcmp(k, "verify")) {
			prof_verr(c, kp, true, "\"%s\" is neither an axis nor setup, read, check or verify", k);
			continue;
		}
		double d;
		if (!prof_get_dur(c, he, k, "router.hook_estimate", 0, &d))
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
void prof_check_coverage(struct vctx *c, const struct profile *p)
{
	char kp[512];
	if (p->router.kind != PR_EXTERNAL)
		return;
	for (size_t i = 0; i < p->naxes; i++) {
		const char *a = p->axes[i].name;
		if (p->axes[i].router || prof_axis_by_ppslab(a) || prof_axis_hooked(p, a))
			continue;
		jpos_path_key(kp, sizeof(kp), "matrix", a);
		prof_verr(c, kp, true,
			  "axis %s is swept, but nothing sets it on the external router: add router.hooks.%s "
			  "(an argument vector that sets {%s} there) or fix it in params; without one "
			  "every %s cell would measure the same router under another label", a, a, a, a);
	}
	/* a reboot is waited for until the router's boot identity changed, and a restart
	 * between trials is noticed by it: without a way to read it, hooks would run on
	 * the old boot of a router still shutting down */
	for (size_t i = 0; i < p->router.naxes; i++) {
		if (!p->router.axes[i].reboot || p->topo.rut.ssh || p->router.boot_hook)
			continue;
		snprintf(kp, sizeof(kp), "router.axes[%zu].reboot", i);
		prof_verr(c, kp, false, "axis %s takes a reboot, but nothing reads the router's boot "
			  "identity, so a reboot that has not happened yet cannot be told from one that "
			  "is over: give topology.rut.ssh (its kern.boottime or boot_id is read there) or "
			  "router.boot_hook (an argument vector that prints it)", p->router.axes[i].name);
		break;
	}
}

bool prof_axis_verified(const struct profile *p, const char *axis)
{
	const struct prof_raxis *ra = prof_router_axis(p, axis);
	return ra ? ra->verify != NULL : json_object_get(p->router.verify, axis) != NULL;
}

size_t prof_unread_axes(const struct profile *p, const char **names, size_t max)
{
	size_t n = 0;
	if (p->router.kind != PR_EXTERNAL)
		return 0;
	for (size_t i = 0; i < p->naxes && n < max; i++) {
		const char *a = p->axes[i].name;
		if (prof_axis_by_ppslab(a) || prof_axis_verified(p, a))
			continue;
		if (p->axes[i].router || prof_axis_hooked(p, a))
			names[n++] = a;
	}
	/* a fixed value a hook sets is a setting too */
	const char *k;
	json_t *v;
	json_object_foreach(p->router.hooks, k, v) {
		bool swept = false;
		for (size_t i = 0; i < p->naxes; i++)
			swept |= !strcmp(p->axes[i].name, k);
		if (!swept && !prof_axis_by_ppslab(k) && !prof_axis_verified(p, k) && n < max)
			names[n++] = k;
	}
	return n;
}

const struct prof_raxis *prof_router_axis(const struct profile *p, const char *name)
{
	for (size_t i = 0; p && name && i < p->router.naxes; i++)
		if (!strcmp(p->router.axes[i].name, name))
			return &p->router.axes[i];
	return NULL;
}
