/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_trend.c — `ppslab trend FILES...|DIR`: the command line over trend.c. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "anacli.h"
#include "cli.h"
#include "cmds.h"
#include "jout.h"
#include "log.h"
#include "num.h"
#include "opt.h"
#include "trend.h"

#define SYNOPSIS "ppslab trend FILES...|DIR [--label KEY | --label-from AXIS] " \
		 "[--order label|given] [--metric M] [--margin 2%] [--where AXIS=VALUE,...] " \
		 "[--format text|md|csv|html] [-o TREND.json] [--plot FILE.png] " \
		 "[--fail-on regression]"

#define FAIL_REG 1u
#define FAIL_PROG 2u
#define FAIL_MISSING 4u

struct args {
	struct trend_opts to;
	struct strlist metrics, lower;
	struct res_sel where;
	int fmt, label_set;
	unsigned fail_on;
	const char *out, *plot, *plot_metric;
};

/* --label KEY and --label-from AXIS: one of them. */
static int opt_label(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	int from = !d->short_name;   /* --label-from is long only */
	if (a->label_set++)
		return cli_bad(d->name, arg, "one --label or --label-from");
	if (!*arg)
		return opt_bad(d, arg);
	a->to.label_kind = from ? TL_AXIS : strcmp(arg, "created") ? TL_KEY : TL_CREATED;
	a->to.label = from || strcmp(arg, "created") ? arg : NULL;
	return 0;
}

/* --plot FILE: refused before anything is printed, not after the table. */
static int opt_plot(const struct opt_def *d, const char *arg, void *base)
{
	const char *dot = strrchr(arg, '.'), *slash = strrchr(arg, '/');
	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : arg) ||
	    (strcmp(dot, ".png") && strcmp(dot, ".svg") && strcmp(dot, ".txt")))
		return opt_bad(d, arg);
	((struct args *)base)->plot = arg;
	return 0;
}

/* --fail-on WHAT,...: bits of fail_on. */
static int opt_fail_on(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	(void)d;
	struct strlist l = { 0 };
	int rc = strlist_add_csv(&l, arg) ? EX_OSERR : 0;
	if (!l.n && !rc)
		rc = cli_bad("fail-on", arg, "regression, progression or missing");
	for (size_t i = 0; i < l.n && !rc; i++) {
		if (!strcmp(l.v[i], "regression"))
			a->fail_on |= FAIL_REG;
		else if (!strcmp(l.v[i], "progression"))
			a->fail_on |= FAIL_PROG;
		else if (!strcmp(l.v[i], "missing"))
			a->fail_on |= FAIL_MISSING;
		else
			rc = cli_bad("fail-on", l.v[i], "regression, progression or missing");
	}
	strlist_free(&l);
	return rc;
}

static const char *const orders[] = { "label", "given", NULL };
#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "label", 'l', "KEY", "order and label the runs by this key of the results files: "
	  "created (default: the creation time), file, run_id or a dotted path such as "
	  "environment.dut.os.version or profile.description", OPT_FN, .fn = opt_label,
	  .what = "a key such as created, file, run_id or environment.dut.os.version" },
	{ "label-from", 0, "AXIS", "label by an axis of the cells instead (e.g. os): each of "
	  "its values is a run, cells match by their other params", OPT_FN, .fn = opt_label,
	  .what = "an axis name such as os" },
	{ "order", 0, "HOW", "label (default: sort by the label, numbers and versions "
	  "naturally) or given (the order of the files)", OPT_ENUM, A(to.order_given),
	  .names = orders },
	{ "metric", 'm', "M[,M...]", "metrics to follow (default: those of every search goal's "
	  "rate (ndr_pps, pdr_pps, ...), mrr_pps, fwd_pps, fwd_pps_a/_b if two-way, some run has)", OPT_CSV, A(metrics) },
	{ "margin", 'd', "PCT", "practical margin δ: smaller changes are not changes",
	  OPT_FN, A(to.margin), .lo = 1e-9, .hi = 50, .def = "2%", .fn = ana_opt_pct,
	  .what = "a percentage above 0 and up to 50, e.g. 2%" },
	ANA_OPT_FLOOR(struct args, to.floor),
	ANA_OPT_LOWER(struct args, lower),
	ANA_OPT_WHERE(struct args, where, "only cells with these values (repeatable)"),
	{ "format", 'f', "FMT", "text (default), md, csv or html (one page)", OPT_FN, A(fmt),
	  .max = 1, .fn = ana_opt_format },
	{ "output", 'o', "FILE", "write the trend JSON (ppslab/trend) to FILE, '-' for stdout",
	  OPT_STR, A(out) },
	{ "plot", 'p', "FILE", "a plot per cell: FILE.png, .svg or .txt (.gp, .dat kept); with "
	  "several cells FILE-CELL.png", OPT_FN, .fn = opt_plot,
	  .what = "FILE.png, FILE.svg or FILE.txt" },
	{ "plot-metric", 0, "M", "metric of the plots (default: the first followed)", OPT_STR,
	  A(plot_metric) },
	{ "fail-on", 0, "WHAT,...", "exit 1 when a cell's newest group regressed (regression) "
	  "or progressed (progression), or the newest run lacks a cell (missing)", OPT_FN,
	  .fn = opt_fail_on },
	OPT_HELP_ROW,
	{ NULL },
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The results files of a directory, by name: *.json whose schema is ppslab/result (or
 * not ppslab's at all: then loading says what is wrong). Other ppslab documents, such as
 * an earlier trend's or compare's JSON kept beside the runs, are passed over. */
static int list_dir(const char *dir, struct strlist *paths)
{
	DIR *d = opendir(dir);
	if (!d) {
		int e = errno;
		log_err("%s: %s", dir, strerror(e));
		return e == ENOENT || e == EACCES ? EX_NOINPUT : EX_OSERR;
	}
	struct strlist names = { 0 };
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d)) && !rc) {
		size_t l = strlen(e->d_name);
		if (l > 5 && !strcmp(e->d_name + l - 5, ".json") && e->d_name[0] != '.')
			rc = strlist_add(&names, e->d_name) ? EX_OSERR : 0;
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), by_name);
	size_t before = paths->n;
	for (size_t i = 0; i < names.n && !rc; i++) {
		size_t len = strlen(dir) + strlen(names.v[i]) + 2;
		char *p = malloc(len);
		if (!p) {
			rc = EX_OSERR;
			break;
		}
		snprintf(p, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names.v[i]);
		json_t *root = json_load_file(p, 0, NULL);
		const char *schema = json_string_value(json_object_get(root, "schema"));
		if (schema && !strncmp(schema, "ppslab/", 7) && strcmp(schema, "ppslab/result"))
			log_info("%s: a %s document, not a results file: passed over", p, schema);
		else
			rc = strlist_add(paths, p) ? EX_OSERR : 0;
		json_decref(root);
		free(p);
	}
	strlist_free(&names);
	if (!rc && paths->n == before) {
		log_err("%s: no results files (*.json) in this directory", dir);
		rc = EX_NOINPUT;
	}
	return rc;
}

/* "pollhz=1000/burst_max=150" → "pollhz_1000_burst_max_150" for a file name. */
static void file_part(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (; *s && o + 1 < len; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '.' || c == '-';
		buf[o++] = ok ? c : '_';
	}
	buf[o] = 0;
}

/* One plot per series of the plot metric: FILE itself when there is one, else
 * FILE's name with "-CELL" before the extension. */
static int plots(const struct trend *t, const char *path, const char *metric,
		 struct strlist *written)
{
	size_t n = 0;
	for (size_t s = 0; s < t->nseries; s++)
		n += !strcmp(t->series[s].metric, metric);
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	if (!dot || (slash && dot < slash))
		dot = path + strlen(path);
	for (size_t s = 0; s < t->nseries; s++) {
		const struct trend_series *ts = &t->series[s];
		if (strcmp(ts->metric, metric))
			continue;
		char name[4096], part[1024];
		if (n == 1) {
			snprintf(name, sizeof(name), "%s", path);
		} else {
			file_part(ts->key, part, sizeof(part));
			snprintf(name, sizeof(name), "%.*s-%s%s", (int)(dot - path), path, part, dot);
			for (size_t k = 0, dup = 2; k < written->n; k++)
				if (!strcmp(written->v[k], name)) {
					snprintf(name, sizeof(name), "%.*s-%s-%zu%s", (int)(dot - path),
						 path, part, dup++, dot);
					k = (size_t)-1;
				}
		}
		struct plot_out po = { .path = name };
		char err[1024];
		int r = trend_plot(t, s, &po, err, sizeof(err));
		if (r) {
			log_err("%s", err);
			return ana_plot_status(r);
		}
		if (strlist_add(written, name))
			return EX_OSERR;
	}
	return 0;
}

static void fail_list(const struct trend *t, int (*pred)(const struct trend *,
							 const struct trend_series *),
		      const char *what)
{
	size_t n = 0, o = 0, shown = 0;
	char list[400];
	list[0] = 0;
	for (size_t s = 0; s < t->nseries; s++) {
		if (!pred(t, &t->series[s]))
			continue;
		int w = snprintf(list + o, sizeof(list) - o, "%s%s %s", n ? ", " : "",
				 t->series[s].key, t->series[s].metric);
		if (w > 0 && o + (size_t)w + 6 < sizeof(list)) {
			o += (size_t)w;
			shown++;
		} else {
			list[o] = 0;
		}
		n++;
	}
	log_err("%zu cell(s) %s: %s%s (--fail-on)", n, what, list, shown < n ? ", ..." : "");
}

static int pred_reg(const struct trend *t, const struct trend_series *s)
{
	(void)t;
	return trend_newest_is(s, ST_REGRESSION);
}

static int pred_prog(const struct trend *t, const struct trend_series *s)
{
	(void)t;
	return trend_newest_is(s, ST_PROGRESSION);
}

int cmd_trend(int argc, char **argv)
{
	struct args a = { .to = { .floor = -1, .label_kind = TL_CREATED },
			  .fmt = GRID_TEXT };
	struct strlist paths = { 0 }, written = { 0 };
	struct res_file **rf = NULL;
	struct trend *t = NULL;
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	int first, rc = opt_parse(&prog, argc, argv, &a, &first);
	if (rc) {
		rc = rc == OPT_DONE ? EX_OK : rc;
		goto out;
	}
	if (argc - first < 1) {
		log_err("trend needs results files or a directory of them (usage: %s)", SYNOPSIS);
		rc = EX_USAGE;
		goto out;
	}
	for (int i = first; i < argc && !rc; i++) {
		struct stat st;
		if (strcmp(argv[i], "-") && !stat(argv[i], &st) && S_ISDIR(st.st_mode))
			rc = list_dir(argv[i], &paths);
		else
			rc = strlist_add(&paths, argv[i]) ? EX_OSERR : 0;
	}
	if (rc)
		goto out;
	if (!(rf = calloc(paths.n, sizeof(*rf)))) {
		rc = EX_OSERR;
		goto out;
	}
	for (size_t i = 0; i < paths.n; i++)
		if ((rc = ana_load(paths.v[i], &rf[i])))
			goto out;
	a.to.metrics = (const char *const *)a.metrics.v;
	a.to.nmetrics = a.metrics.n;
	a.to.lower = (const char *const *)a.lower.v;
	a.to.nlower = a.lower.n;
	a.to.where = &a.where;
	char err[1024];
	int r = trend_build((const struct res_file *const *)rf, paths.n, &a.to, &t, err,
			    sizeof(err));
	if (r) {
		log_err("%s", err);
		rc = r == -EINVAL ? EX_USAGE : r == -ENODATA ? EX_DATAERR : EX_OSERR;
		goto out;
	}
	const char *pm = a.plot_metric ? a.plot_metric : t->metrics[0];
	if (a.plot) {
		size_t k = 0;
		for (size_t s = 0; s < t->nseries; s++)
			k += !strcmp(t->series[s].metric, pm);
		if (!k) {
			log_err("--plot-metric %s: not followed (metrics: %s%s)", pm,
				t->metrics[0], t->nmetrics > 1 ? ", ..." : "");
			rc = EX_USAGE;
			goto out;
		}
	}
	int json_stdout = a.out && !strcmp(a.out, "-");
	if (!json_stdout)
		trend_print(stdout, t, (enum grid_fmt)a.fmt);
	if (a.out) {
		json_t *j = trend_json(t);
		rc = ana_write_json(a.out, j);
		json_decref(j);
		if (rc)
			goto out;
	}
	if (a.plot) {
		if ((rc = plots(t, a.plot, pm, &written)))
			goto out;
		if (!json_stdout && a.fmt != GRID_CSV) {
			printf("\nPlots (with .gp and .dat beside each): ");
			for (size_t i = 0; i < written.n; i++)
				printf("%s%s", i ? ", " : "", written.v[i]);
			printf("\n");
		}
	}
	if (fflush(stdout)) {
		rc = EX_IOERR;
		goto out;
	}
	rc = EX_OK;
	if ((a.fail_on & FAIL_REG) && t->n_newest_regressed) {
		fail_list(t, pred_reg, "whose newest group regressed");
		rc = 1;
	}
	if ((a.fail_on & FAIL_PROG) && t->n_newest_progressed) {
		fail_list(t, pred_prog, "whose newest group progressed");
		rc = 1;
	}
	if ((a.fail_on & FAIL_MISSING) && t->n_newest_missing) {
		fail_list(t, trend_newest_missing, "missing in the newest run");
		rc = 1;
	}
out:
	trend_free(t);
	for (size_t i = 0; rf && i < paths.n; i++)
		res_free(rf[i]);
	free(rf);
	strlist_free(&paths);
	strlist_free(&written);
	strlist_free(&a.metrics);
	strlist_free(&a.lower);
	res_sel_free(&a.where);
	return rc;
}
