/* SPDX-License-Identifier: BSD-2-Clause */
/* opt.c — table-driven option parsing and --help (see opt.h). */
#include "opt.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

int opt_key(const struct opt_def *defs, int idx)
{
	return defs[idx].short_name ? defs[idx].short_name : OPT_LONG_KEY(idx);
}

int opt_parse(int argc, char **argv, const struct opt_def *defs,
	      int (*handle)(int key, const char *arg, int idx, void *ctx), void *ctx,
	      int *first_arg)
{
	int n = 0;
	while (defs[n].name)
		n++;
	struct option *lo = calloc((size_t)n + 1, sizeof(*lo));
	char *so = calloc((size_t)n * 2 + 3, 1);
	int rc = 0;
	if (!lo || !so) {
		rc = 71;
		goto out;
	}
	char *sp = so;
	*sp++ = ':';   /* a missing argument returns ':', told apart from an unknown option */
	for (int i = 0; i < n; i++) {
		lo[i].name = defs[i].name;
		lo[i].has_arg = defs[i].arg ? required_argument : no_argument;
		lo[i].val = opt_key(defs, i);
		if (defs[i].short_name && defs[i].help) {   /* an alias has its option's letter */
			*sp++ = (char)defs[i].short_name;
			if (defs[i].arg)
				*sp++ = ':';
		}
	}
	optind = 1;
	opterr = 0;
	for (;;) {
		int li = -1;
		optopt = 0;
		int c = getopt_long(argc, argv, so, lo, &li);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			/* A long option is the argument getopt just passed (optopt is then its
			 * key, or 0 when unknown); a short one is optopt's letter. */
			const char *prev = optind > 1 && optind <= argc ? argv[optind - 1] : "";
			char sopt[3] = { '-', (char)optopt, 0 };
			int plen = (int)strcspn(prev, "=");
			bool is_long = !strncmp(prev, "--", 2);
			if (is_long && optopt > 0 && optopt < 256) {   /* or -Zq after --json? */
				int k = 0;
				while (k < n && (strncmp(defs[k].name, prev + 2, (size_t)plen - 2) ||
						 defs[k].name[plen - 2] || opt_key(defs, k) != optopt))
					k++;
				is_long = k < n;
			}
			const char *bad = is_long ? prev : optopt > 0 && optopt < 256 ? sopt : "?";
			int len = (int)strcspn(bad, "=");   /* --name=VALUE: the name */
			if (c == ':')
				log_err("option '%.*s' needs an argument (see --help)", len, bad);
			else if (optopt && bad == prev)
				log_err("option '%.*s' takes no argument (see --help)", len, bad);
			else
				log_err("unknown option '%.*s' (see --help)", len, bad);
			rc = 64;
			goto out;
		}
		int idx = li;
		if (idx < 0)
			for (idx = 0; idx < n && opt_key(defs, idx) != c; idx++)
				;
		rc = handle(c, optarg, idx, ctx);
		if (rc)
			goto out;
	}
	if (first_arg)
		*first_arg = optind;
out:
	free(lo);
	free(so);
	return rc;
}

void opt_set_help(struct opt_def *defs, const char *name, const char *help)
{
	for (int i = 0; defs[i].name; i++)
		if (!strcmp(defs[i].name, name))
			defs[i].help = help;
}

void opt_usage(FILE *f, const char *synopsis, const struct opt_def *defs)
{
	size_t w = 0;
	char col[128];
	for (int i = 0; defs[i].name; i++) {
		if (!defs[i].help)
			continue;
		size_t l = strlen(defs[i].name) + 6 + (defs[i].arg ? strlen(defs[i].arg) + 1 : 0);
		if (l > w)
			w = l;
	}
	if (w > 34)
		w = 34;
	fprintf(f, "usage: %s\n\noptions:\n", synopsis);
	for (int i = 0; defs[i].name; i++) {
		if (!defs[i].help)
			continue;
		if (defs[i].short_name)
			snprintf(col, sizeof(col), "-%c, --%s%s%s", defs[i].short_name, defs[i].name,
				 defs[i].arg ? " " : "", defs[i].arg ? defs[i].arg : "");
		else
			snprintf(col, sizeof(col), "    --%s%s%s", defs[i].name,
				 defs[i].arg ? " " : "", defs[i].arg ? defs[i].arg : "");
		if (strlen(col) > w)
			fprintf(f, "  %s\n  %*s  %s\n", col, (int)w, "", defs[i].help);
		else
			fprintf(f, "  %-*s  %s\n", (int)w, col, defs[i].help);
	}
}
