/* SPDX-License-Identifier: BSD-2-Clause */
/* bsdctl.c — sysctl(8) emulation over an OID table (see bsdctl.h). Called by ctl.c on
 * the forwarding thread; the OID table and its callbacks belong to the caller. Behaviour
 * and messages follow FreeBSD 8.3's sbin/sysctl/sysctl.c (parse(), show_var(),
 * sysctl_all()); no code was copied. */
#include "bsdctl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct flags {
	bool a, n, N, e, d, q, i;
};

static const char usage_text[] =
	"usage: sysctl [-bdehiNnoqx] name[=value] ...\n"
	"       sysctl [-bdehNnoqx] -a\n";

static void show(const struct bsdctl_oid *o, void *ctx, const struct flags *f, struct sbuf *out)
{
	if (f->N) {
		sbuf_cat(out, o->name);
		return;
	}
	if (!f->n)
		sbuf_printf(out, "%s%s", o->name, f->e ? "=" : ": ");
	if (f->d) {
		sbuf_cat(out, o->descr ? o->descr : "");
		return;
	}
	if (o->type == BSDCTL_STRING) {
		sbuf_cat(out, o->gets(ctx, o));
		return;
	}
	int64_t v = o->get(ctx, o);
	if (o->type == BSDCTL_UINT)
		sbuf_printf(out, "%llu", (unsigned long long)(uint32_t)v);
	else
		sbuf_printf(out, "%lld", (long long)(int32_t)v);
}

static bool here(const struct bsdctl_oid *o, void *ctx)
{
	return !o->exists || o->exists(ctx, o);
}

/* Every leaf under node (a name prefix ending before a '.'), or all when node is "". */
static void list(const struct bsdctl_oid *tab, int n, void *ctx, const char *node,
		 const struct flags *f, struct sbuf *out)
{
	size_t l = strlen(node);
	for (int k = 0; k < n; k++) {
		if (!here(&tab[k], ctx) ||
		    (l && (strncmp(tab[k].name, node, l) || tab[k].name[l] != '.')))
			continue;
		show(&tab[k], ctx, f, out);
		sbuf_cat(out, "\n");
	}
}

static bool is_node(const struct bsdctl_oid *tab, int n, void *ctx, const char *name)
{
	size_t l = strlen(name);
	for (int k = 0; k < n; k++)
		if (l && here(&tab[k], ctx) && !strncmp(tab[k].name, name, l) &&
		    tab[k].name[l] == '.')
			return true;
	return false;
}

static int strict_num(const char *s, enum bsdctl_type t, int64_t *v)
{
	char *end;
	errno = 0;
	if (t == BSDCTL_INT) {
		long x = strtol(s, &end, 0);
		if (end == s || *end)
			return -EINVAL;
		*v = (int32_t)x;              /* (int)strtol(): truncated as sysctl(8) does */
	} else {
		unsigned long x = strtoul(s, &end, 0);
		if (end == s || *end)
			return -EINVAL;
		*v = (uint32_t)x;
	}
	return 0;
}

/* One argument. Returns 0 to go on, 1 after a warning (counted), or -1 for a fatal
 * error (sysctl(8)'s errx: stop with status 1). */
static int parse_one(const struct bsdctl_oid *tab, int n, void *ctx, const char *arg,
		     const struct flags *f, struct sbuf *out, struct sbuf *err)
{
	char name[256];
	const char *eq = strchr(arg, '='), *newval = NULL;
	size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
	if (nl >= sizeof(name)) {
		sbuf_printf(err, "sysctl: oid too long: '%s'\n", arg);
		return -1;
	}
	memcpy(name, arg, nl);
	name[nl] = 0;
	if (eq) {
		newval = eq + 1;
		while (*newval == ' ' || *newval == '\t')
			newval++;
	}
	const struct bsdctl_oid *o = NULL;
	for (int k = 0; k < n; k++)
		if (!strcmp(tab[k].name, name) && here(&tab[k], ctx))
			o = &tab[k];
	bool node = !o && is_node(tab, n, ctx, name);
	if (!o && !node) {
		if (f->i)
			return 0;
		if (!f->q)
			sbuf_printf(err, "sysctl: unknown oid '%s'\n", name);
		return -1;
	}
	if (!newval || f->d) {
		if (node) {
			list(tab, n, ctx, name, f, out);
		} else {
			show(o, ctx, f, out);
			sbuf_cat(out, "\n");
		}
		return 0;
	}
	if (node) {
		sbuf_printf(err, "sysctl: oid '%s' isn't a leaf node\n", name);
		return -1;
	}
	if (!o->writable || (o->type == BSDCTL_STRING ? !o->sets : !o->set)) {
		sbuf_printf(err, "sysctl: oid '%s' is read only\n", name);
		return -1;
	}
	if (o->can_write && !o->can_write(ctx, o)) {
		sbuf_printf(err, "sysctl: oid '%s' is a read only tunable\n", name);
		sbuf_cat(err, "sysctl: Tunable values are set in /boot/loader.conf\n");
		return -1;
	}
	if (o->type == BSDCTL_STRING) {
		/* a string takes the value as written (sysctl(8)'s CTLTYPE_STRING) */
		show(o, ctx, f, out);
		int rc = o->sets(ctx, o, newval);
		if (rc) {
			sbuf_cat(out, "\n");
			sbuf_printf(err, "sysctl: %s: %s\n", arg, strerror(-rc));
			return 1;
		}
		struct flags vf = *f;
		vf.n = true;
		sbuf_cat(out, " -> ");
		show(o, ctx, &vf, out);
		sbuf_cat(out, "\n");
		return 0;
	}
	if (!*newval) {
		sbuf_cat(err, "sysctl: empty numeric value\n");
		return -1;
	}
	int64_t v;
	if (strict_num(newval, o->type, &v)) {
		sbuf_printf(err, "sysctl: invalid %sinteger '%s'\n",
			    o->type == BSDCTL_UINT ? "unsigned " : "", newval);
		return -1;
	}
	show(o, ctx, f, out);
	int rc = o->set(ctx, o, v);
	if (rc) {
		sbuf_cat(out, "\n");
		sbuf_printf(err, "sysctl: %s: %s\n", arg, strerror(-rc));
		return 1;
	}
	struct flags vf = *f;
	vf.n = true;                      /* the new value alone after the arrow */
	sbuf_cat(out, " -> ");
	show(o, ctx, &vf, out);
	sbuf_cat(out, "\n");
	return 0;
}

int bsdctl_sysctl(const struct bsdctl_oid *tab, int n, void *ctx, int argc, char **argv,
		  struct sbuf *out, struct sbuf *err)
{
	struct flags f = { 0 };
	int k = 0;
	for (; k < argc && argv[k][0] == '-' && argv[k][1]; k++) {
		if (!strcmp(argv[k], "--")) {
			k++;
			break;
		}
		for (const char *c = argv[k] + 1; *c; c++) {
			switch (*c) {
			case 'a': f.a = true; break;
			case 'n': f.n = true; break;
			case 'N': f.N = true; break;
			case 'e': f.e = true; break;
			case 'd': f.d = true; break;
			case 'q': f.q = true; break;
			case 'i': f.i = true; break;
			case 'w': break;              /* compatibility, ignored */
			default:
				sbuf_printf(err, "sysctl: illegal option -- %c\n", *c);
				sbuf_cat(err, usage_text);
				return 1;
			}
		}
	}
	if (f.N && f.n) {
		sbuf_cat(err, usage_text);
		return 1;
	}
	if (f.a && k == argc) {
		list(tab, n, ctx, "", &f, out);
		return 0;
	}
	if (k == argc) {
		sbuf_cat(err, usage_text);
		return 1;
	}
	int warncount = 0;
	for (; k < argc; k++) {
		int rc = parse_one(tab, n, ctx, argv[k], &f, out, err);
		if (rc < 0)
			return 1;
		warncount += rc;
	}
	return warncount;
}
