/* SPDX-License-Identifier: BSD-2-Clause */
/* profile_set.c — the --set KEY=VALUE overrides of a profile (see profile.h for what
 * they mean, profile_impl.h for the call): applied to the parsed tree before it is
 * checked, each changed path marked so its errors are placed at "--set N". */
#include "profile_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jpos.h"

/* The value text of a --set: JSON when it parses as JSON, else a string. */
static json_t *set_value(const char *text)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
	return v ? v : json_string(text);
}

/* A vlan value "OUTER.INNER" (300.400): a string, not the number JSON reads in it. */
static bool vlan_pair(const char *key, const char *text)
{
	const struct axis_def *a = axis_find(key);
	return a && a->kind == AK_VLAN && strchr(text, '.') && !strpbrk(text, ",[\"");
}

static json_t *axis_set_value(const char *key, const char *text)
{
	return vlan_pair(key, text) ? json_string(text) : set_value(text);
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
		prof_seterr(c, setno, "cannot set %s: %s is not an object", what, key);
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
			prof_seterr(c, setno, "cannot set %s: %s is an empty list", key, parts[0]);
		json_array_foreach(a, i, e) {
			if (!json_is_object(e)) {
				prof_seterr(c, setno, "cannot set %s: %s is not a list of objects", key,
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

void prof_apply_set(struct vctx *c, json_t *root, const char *set, size_t setno)
{
	const char *eq = strchr(set, '=');
	char key[256], kp[512];
	if (!eq || eq == set || (size_t)(eq - set) >= sizeof(key)) {
		prof_seterr(c, setno, "expected KEY=VALUE (e.g. pollhz=1000,2000 or trial.duration=1s), got \"%.80s\"",
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
		if (!json_is_object(ra) || !rn || strcmp(rn, key) || axis_find(key))
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
	if (axis_find(key)) {
		json_t *v = vlan_pair(key, text) ? json_string(text)
			    : json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
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
				json_array_append_new(v, axis_set_value(key, t));
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
		prof_seterr(c, setno, "\"%s\" is not a key or a dotted path such as trial.duration", key);
	else
		set_path(c, root, parts, np, "", text, setno, key);
	free(dup);
}
