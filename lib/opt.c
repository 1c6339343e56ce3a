/* SPDX-License-Identifier: BSD-2-Clause */
/* opt.c — typed option rows: parsing, defaults, errors and --help (see opt.h). */
#include "opt.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sysexits.h>

#include "cli.h"
#include "log.h"
#include "num.h"
#include "strlist.h"
#include "version.h"

static int key_of(const struct opt_def *defs, int i)
{
	return defs[i].short_name ? defs[i].short_name : 256 + i;
}

char *opt_duration_text(uint64_t ns, char *out, size_t len)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "h", 3600000000000ULL }, { "m", 60000000000ULL }, { "s", 1000000000ULL },
		{ "ms", 1000000ULL }, { "us", 1000ULL }, { "ns", 1 },
	};
	size_t i = 0;
	while (ns && ns % units[i].ns)
		i++;
	if (!ns)
		snprintf(out, len, "0");
	else
		snprintf(out, len, "%llu%s", (unsigned long long)(ns / units[i].ns), units[i].u);
	return out;
}

/* One end of the range, as the type writes it. */
static void bound_text(const struct opt_def *d, int hi, char *out, size_t len)
{
	if (d->type == OPT_DOUBLE)
		snprintf(out, len, "%g", hi ? d->hi : d->lo);
	else if (d->type == OPT_DURATION)
		opt_duration_text(hi ? d->max : d->min, out, len);
	else
		snprintf(out, len, "%llu", (unsigned long long)(hi ? d->max : d->min));
}

/* "a, b or c" */
static void names_text(const struct opt_def *d, char *out, size_t len)
{
	size_t n = 0, o = 0;
	*out = 0;
	while (d->names && d->names[n])
		n++;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
				      d->names[i]);
}

char *opt_text(const struct opt_def *d, const char *text, char *out, size_t len)
{
	size_t o = 0;
	if (!len)
		return out;
	*out = 0;
	for (const char *p = text; *p && o + 1 < len;) {
		char v[256], lo[64], hi[64];
		const char *end = *p == '{' ? strchr(p, '}') : NULL;
		size_t k = end ? (size_t)(end - p - 1) : 0;
		*v = 0;
		if (end && !strncmp(p + 1, "default", k) && k == 7) {
			snprintf(v, sizeof(v), "%s", d->def ? d->def : "");
		} else if (end && !strncmp(p + 1, "range", k) && k == 5) {
			bound_text(d, 0, lo, sizeof(lo));
			bound_text(d, 1, hi, sizeof(hi));
			snprintf(v, sizeof(v), d->type == OPT_DURATION ? "%s to %s" : "%s..%s", lo, hi);
		} else if (end && !strncmp(p + 1, "min", k) && k == 3) {
			bound_text(d, 0, v, sizeof(v));
		} else if (end && !strncmp(p + 1, "max", k) && k == 3) {
			bound_text(d, 1, v, sizeof(v));
		} else if (end && !strncmp(p + 1, "names", k) && k == 5) {
			names_text(d, v, sizeof(v));
		} else {
			out[o++] = *p++;
			out[o] = 0;
			continue;
		}
		o += (size_t)snprintf(out + o, len - o, "%s", v);
		if (o >= len)
			o = len - 1;
		p = end + 1;
	}
	return out;
}

/* What a value of d must be, when the row does not say. */
static const char *what_of(const struct opt_def *d)
{
	if (d->what)
		return d->what;
	switch (d->type) {
	case OPT_UINT: return "a whole number {range}";
	case OPT_COUNT: return "a whole number {range}, optionally with k, M or G";
	case OPT_DOUBLE: return "a number {range}";
	case OPT_DURATION: return "a duration from {range}, such as 10s or 500ms";
	case OPT_ENUM: return "{names}";
	case OPT_PATH: return "a file name";
	case OPT_STRS: return "at most {max} of them";
	default: return "a value";
	}
}

int opt_bad(const struct opt_def *d, const char *arg)
{
	char what[512];
	return cli_bad(d->name, arg, opt_text(d, what_of(d), what, sizeof(what)));
}

static int store_uint(void *f, size_t size, uint64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)f = (uint8_t)v; break;
	case 2: *(uint16_t *)f = (uint16_t)v; break;
	case 4: *(uint32_t *)f = (uint32_t)v; break;
	case 8: *(uint64_t *)f = v; break;
	default: return EX_SOFTWARE;
	}
	return 0;
}

/* The value arg of row d into base: 0, or a sysexits code after a message. */
static int set_value(const struct opt_def *d, const char *arg, void *base)
{
	void *f = (char *)base + d->off;
	uint64_t u;
	unsigned k;
	switch (d->type) {
	case OPT_FLAG:
	case OPT_CLEAR:
		return store_uint(f, d->size, d->type == OPT_FLAG);
	case OPT_INC:
		(*(int *)f)++;
		return 0;
	case OPT_UINT:
	case OPT_COUNT:
		if ((d->type == OPT_UINT ? num_u64 : num_count)(arg, d->min, d->max, &u))
			return opt_bad(d, arg);
		return store_uint(f, d->size, u);
	case OPT_DOUBLE:
		return num_double(arg, d->lo, d->hi, f) ? opt_bad(d, arg) : 0;
	case OPT_DURATION:
		return num_duration_ns(arg, d->min, d->max, f) ? opt_bad(d, arg) : 0;
	case OPT_ENUM:
		for (k = 0; d->names[k]; k++)
			if (!strcasecmp(d->names[k], arg))
				return store_uint(f, d->size, k);
		return opt_bad(d, arg);
	case OPT_LIST:
		if ((k = cli_list_empty(arg))) {
			log_err("--%s %s: item %u of the comma list is empty", d->name, arg, k);
			return EX_USAGE;
		}
		*(const char **)f = arg;
		return 0;
	case OPT_PATH:
		if (!*arg)
			return opt_bad(d, arg);
		/* fall through */
	case OPT_STR:
		*(const char **)f = arg;
		return 0;
	case OPT_STRS: {
		int *n = (int *)((char *)base + d->n_off);
		if ((uint64_t)*n >= d->max)
			return opt_bad(d, arg);
		((const char **)f)[(*n)++] = arg;
		return 0;
	}
	case OPT_CSV:
		return strlist_add_csv(f, arg) ? EX_OSERR : 0;
	case OPT_FN:
		return d->fn(d, arg, base);
	default:
		return EX_SOFTWARE;
	}
}

static int defaults(struct opt_def *defs, void *base)
{
	for (int i = 0; defs[i].name; i++) {
		defs[i].seen = 0;
		if (defs[i].def && defs[i].help && set_value(&defs[i], defs[i].def, base)) {
			log_err("option table: the default of --%s, %s, is not a value of it",
				defs[i].name, defs[i].def);
			return EX_SOFTWARE;
		}
	}
	return 0;
}

/* The message for getopt's '?' or ':' (c). */
static void getopt_error(int c, int argc, char **argv, const struct opt_def *defs, int n)
{
	/* A long option is the argument getopt just passed (optopt is then its key, or 0
	 * when unknown); a short one is optopt's letter. */
	const char *prev = optind > 1 && optind <= argc ? argv[optind - 1] : "";
	char sopt[3] = { '-', (char)optopt, 0 };
	int plen = (int)strcspn(prev, "=");
	bool is_long = !strncmp(prev, "--", 2);
	if (is_long && optopt > 0 && optopt < 256) {   /* or -Zq after --json? */
		int k = 0;
		while (k < n && (strncmp(defs[k].name, prev + 2, (size_t)plen - 2) ||
				 defs[k].name[plen - 2] || key_of(defs, k) != optopt))
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
}

static int parse_argv(const struct opt_prog *p, int argc, char **argv, void *base,
		      struct option *lo, char *so, int n, int *first)
{
	struct opt_def *defs = p->defs;
	char *sp = so;
	*sp++ = ':';   /* a missing argument returns ':', told apart from an unknown option */
	for (int i = 0; i < n; i++) {
		lo[i].name = defs[i].name;
		lo[i].has_arg = defs[i].arg ? required_argument : no_argument;
		lo[i].val = key_of(defs, i);
		if (defs[i].short_name && defs[i].help) {   /* an alias has its option's letter */
			*sp++ = (char)defs[i].short_name;
			if (defs[i].arg)
				*sp++ = ':';
		}
	}
	optind = 1;
	opterr = 0;
	for (;;) {
		int idx = -1, rc;
		optopt = 0;
		int c = getopt_long(argc, argv, so, lo, &idx);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			getopt_error(c, argc, argv, defs, n);
			return EX_USAGE;
		}
		if (idx < 0)
			for (idx = 0; idx < n && (key_of(defs, idx) != c || !defs[idx].help); idx++)
				;
		struct opt_def *d = &defs[idx];
		d->seen++;
		if (d->type == OPT_HELP) {
			opt_usage(stdout, p->synopsis, defs);
			return OPT_DONE;
		}
		if (d->type == OPT_VERSION) {
			printf("%s %s\n", p->name, ppslab_version());
			return OPT_DONE;
		}
		if ((rc = set_value(d, optarg, base)))
			return rc;
	}
	if (first) {
		*first = optind;
	} else if (optind < argc) {
		log_err("unexpected argument '%s' (see --help)", argv[optind]);
		return EX_USAGE;
	}
	return 0;
}

int opt_parse(const struct opt_prog *p, int argc, char **argv, void *base, int *first)
{
	int n = 0, rc;
	while (p->defs[n].name)
		n++;
	if ((rc = defaults(p->defs, base)))
		return rc;
	struct option *lo = calloc((size_t)n + 1, sizeof(*lo));
	char *so = calloc((size_t)n * 2 + 3, 1);
	rc = lo && so ? parse_argv(p, argc, argv, base, lo, so, n, first) : EX_OSERR;
	free(lo);
	free(so);
	return rc;
}

unsigned opt_seen(const struct opt_def *defs, const char *name)
{
	for (int i = 0; defs[i].name; i++)
		if (!strcmp(defs[i].name, name))
			return defs[i].seen;
	return 0;
}

void opt_set_help(struct opt_def *defs, const char *name, const char *help)
{
	for (int i = 0; defs[i].name; i++)
		if (!strcmp(defs[i].name, name))
			defs[i].help = help;
}

/* The help of row d: its text filled in, and the default appended unless placed. */
static const char *help_text(const struct opt_def *d, char *out, size_t len)
{
	opt_text(d, d->help, out, len);
	if (d->def && !strstr(d->help, "{default}")) {
		size_t o = strlen(out);
		snprintf(out + o, len - o, " (default %s)", d->def);
	}
	return out;
}

void opt_usage(FILE *f, const char *synopsis, const struct opt_def *defs)
{
	size_t w = 0;
	char col[128], help[1024];
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
		const struct opt_def *d = &defs[i];
		if (!d->help)
			continue;
		snprintf(col, sizeof(col), "%c%c%c --%s%s%s", d->short_name ? '-' : ' ',
			 d->short_name ? d->short_name : ' ', d->short_name ? ',' : ' ', d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
		help_text(d, help, sizeof(help));
		if (strlen(col) > w)
			fprintf(f, "  %s\n  %*s  %s\n", col, (int)w, "", help);
		else
			fprintf(f, "  %-*s  %s\n", (int)w, col, help);
	}
}
