/* SPDX-License-Identifier: BSD-2-Clause */
/* profile_impl.h — the checker's state and helpers shared by the files that read a
 * profile: profile.c (the axes, the top level, trial, the entry points),
 * profile_check.c (diagnostics and typed getters), profile_set.c (--set),
 * profile_router.c and profile_topo.c (those sections). Private to them; everyone else
 * sees profile.h.
 *
 * Every checker reports its own errors into struct vctx and returns -EINVAL (or NULL);
 * running out of memory sets c->oom. */
#ifndef PPSLAB_ANALYSIS_RUNNER_PROFILE_IMPL_H
#define PPSLAB_ANALYSIS_RUNNER_PROFILE_IMPL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "axes.h"
#include "profile.h"

struct jpos;

/* One problem found, with its place. */
struct perr {
	int line, col;        /* 0: no place in the file */
	size_t setno;         /* 1-based --set, 0: from the file */
	size_t seq;
	char *msg;
};

/* A path (and what is under it) that --set N wrote. */
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
	/* checking one of tests[] (docs/profiles.md#tests): its object and its path
	 * ("tests[2]"); an error under a trial key, matrix or params axis the test gives
	 * itself is placed there, and an error the profile's own check already made is not
	 * said again */
	const json_t *test;
	const char *test_at;
};

/* What a hook word's placeholders may name: axes, and {value} in a router axis' own
 * set and verify hooks. */
enum ph_mode { PH_NONE, PH_AXES, PH_VALUE };

/* ---- profile_check.c: diagnostics ---- */

/* Appends a copy of msg to d (NULL: nothing); -ENOMEM. */
int prof_diag_add(struct prof_diag *d, const char *msg);
/* An error at path (its key when at_key, else its value; else the nearest ancestor's
 * place, or "--set N" when an override wrote it). */
__attribute__((format(printf, 4, 5)))
void prof_verr(struct vctx *c, const char *path, bool at_key, const char *fmt, ...);
/* An error of --set N itself (before it is applied). */
__attribute__((format(printf, 3, 4)))
void prof_seterr(struct vctx *c, size_t setno, const char *fmt, ...);
/* qsort order of struct perr: file order, then unplaced ones, then --set ones by N. */
int prof_perr_cmp(const void *a, const void *b);
/* "got ..." text of a value, for messages, into buf. */
const char *prof_got(const json_t *v, char *buf, size_t len);
/* prof_got() into a local char gbuf[128]. */
#define GOT(v) prof_got((v), gbuf, sizeof(gbuf))
/* "\"a\", \"b\" or \"c\"" of a NULL-ended list, into buf. */
void prof_names_list(const char *const *names, char *buf, size_t len);
/* A copy of s (NULL stays NULL); c->oom when memory ran out. */
char *prof_xstrdup(struct vctx *c, const char *s);

/* ---- profile_check.c: typed getters (absent keys take def; 0 or -EINVAL) ---- */

/* Unknown keys of obj: an error each, naming the key, where, and the known ones. */
void prof_check_keys(struct vctx *c, json_t *obj, const char *path, const char *const *known);
int prof_want_object(struct vctx *c, const json_t *v, const char *path);
int prof_get_int(struct vctx *c, const json_t *obj, const char *key, const char *path,
		 long long min, long long max, long long def, long long *out);
/* A duration: a number of seconds or text such as "500ms" (lib/num.h). */
int prof_get_dur(struct vctx *c, const json_t *obj, const char *key, const char *path,
		 double def, double *out);
/* A packet rate: a positive number of pps or text such as "200k"; "max" → 0 when
 * allowed. */
int prof_as_rate(struct vctx *c, const json_t *v, const char *path, bool allow_max,
		 double *out);
int prof_get_bool(struct vctx *c, const json_t *obj, const char *key, const char *path,
		  bool def, bool *out);
int prof_get_enum(struct vctx *c, const json_t *obj, const char *key, const char *path,
		  const char *const *names, int def, int *out);
/* A string (borrowed), or NULL when absent. */
int prof_get_str(struct vctx *c, const json_t *obj, const char *key, const char *path,
		 const char **out);

/* ---- profile_check.c: axis values ---- */

/* dir/rel, or rel when absolute. */
void prof_join_path(char *buf, size_t len, const char *dir, const char *rel);
/* The path of a "file:PATH" rules value under rules_dir; -EINVAL when v is none. */
int prof_rules_file(const char *rules_dir, const json_t *v, char *buf, size_t len);
/* Checks one value of axis s at path; *norm gets the value to keep (a new reference). */
int prof_check_axis(struct vctx *c, const struct axis_def *s, json_t *v, const char *path,
		    const char *rules_dir, json_t **norm);
/* Two values of one axis are the same (offered: by rate). */
bool prof_same_value(const struct axis_def *s, const json_t *a, const json_t *b);

/* ---- profile_set.c ---- */

/* Applies --set number setno ("KEY=VALUE") to the tree root. */
void prof_apply_set(struct vctx *c, json_t *root, const char *set, size_t setno);

/* ---- profile_router.c ---- */

/* An argument vector at path; with placeholders (mode), each {NAME} must name an axis
 * (or be {value}, in a router axis' hooks). */
void prof_check_argv(struct vctx *c, const json_t *v, const char *path, enum ph_mode mode);
/* Whether name is one of router.axes (collected by prof_parse_router). */
bool prof_router_axis_name(const struct vctx *c, const char *name);
/* The "router" section into p->router; also sets c->router_kind and c->raxes. */
void prof_parse_router(struct vctx *c, json_t *root, struct profile *p);
/* Every swept axis of an external router is set by a hook or by ppslab. */
void prof_check_coverage(struct vctx *c, const struct profile *p);

/* ---- profile_topo.c ---- */

/* The "topology" section into p->topo (after the router's: its kind matters). */
void prof_parse_topology(struct vctx *c, json_t *root, struct profile *p);

#endif
