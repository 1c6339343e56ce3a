/* SPDX-License-Identifier: BSD-2-Clause */
/* t_anacli.c — what the analysis commands share: percentages, the one-file check, the
 * exit code of a failed plot, writing a JSON document, the row parsers (--margin,
 * --format, --where). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sysexits.h>
#include <unistd.h>

#include "anacli.h"
#include "tap.h"

static void t_pct(void)
{
	double f = -1;
	T_EQ_INT(ana_pct("2%", 0, 50, &f), 0);
	T_NEAR(f, 0.02, 1e-12);
	T_EQ_INT(ana_pct("0.5", 0, 50, &f), 0);
	T_NEAR(f, 0.005, 1e-12);
	T_EQ_INT(ana_pct("0", 0, 50, &f), 0);
	T_NEAR(f, 0, 0);
	T_EQ_INT(ana_pct("0%", 1e-6, 50, &f), -EINVAL);   /* below min */
	T_EQ_INT(ana_pct("51%", 0, 50, &f), -EINVAL);
	T_EQ_INT(ana_pct("", 0, 50, &f), -EINVAL);
	T_EQ_INT(ana_pct("%", 0, 50, &f), -EINVAL);
	T_EQ_INT(ana_pct("2%%", 0, 50, &f), -EINVAL);
	T_EQ_INT(ana_pct("two", 0, 50, &f), -EINVAL);
	char longtext[80];
	memset(longtext, '0', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = 0;
	T_EQ_INT(ana_pct(longtext, 0, 50, &f), -EINVAL);
}

/* The row parsers: --margin as compare and trend declare it, --format, --where. */
struct rows { double m; int fmt; struct res_sel w; };

static void t_rows(void)
{
	struct rows a = { 0 };
	struct opt_def margin = { "margin", 'd', "PCT", "m", OPT_FN, .off = 0, .lo = 1e-9,
				  .hi = 50, .fn = ana_opt_pct };
	struct opt_def fmt = { "format", 'f', "FMT", "f", OPT_FN,
			       .off = offsetof(struct rows, fmt), .fn = ana_opt_format };
	struct opt_def where = { "where", 'w', "W", "w", OPT_FN,
				 .off = offsetof(struct rows, w), .fn = ana_opt_where };
	T_EQ_INT(ana_opt_pct(&margin, "2%", &a), 0);
	T_NEAR(a.m, 0.02, 1e-12);
	T_EQ_INT(ana_opt_pct(&margin, "0", &a), EX_USAGE);   /* no margin is no test */
	T_EQ_INT(ana_opt_pct(&margin, "50.5%", &a), EX_USAGE);
	T_EQ_INT(ana_opt_format(&fmt, "csv", &a), 0);
	T_EQ_INT(ana_opt_format(&fmt, "html", &a), EX_USAGE);   /* not without .max = 1 */
	fmt.max = 1;
	T_EQ_INT(ana_opt_format(&fmt, "html", &a), 0);
	T_EQ_INT(ana_opt_where(&where, "nonsense", &a), EX_USAGE);
	res_sel_free(&a.w);
}

static void t_one_file(void)
{
	T_EQ_INT(ana_one_file("table", "ppslab table RESULTS", 1), 0);
	T_EQ_INT(ana_one_file("table", "ppslab table RESULTS", 0), EX_USAGE);
	T_EQ_INT(ana_one_file("plot", "ppslab plot RESULTS", 2), EX_USAGE);
}

static void t_plot_status(void)
{
	T_EQ_INT(ana_plot_status(-EINVAL), EX_USAGE);
	T_EQ_INT(ana_plot_status(-ENOENT), EX_UNAVAILABLE);
	T_EQ_INT(ana_plot_status(-EIO), EX_SOFTWARE);
	T_EQ_INT(ana_plot_status(-EACCES), EX_CANTCREAT);
}

static void t_write_json(void)
{
	char dir[] = "/tmp/ppslab-t_anacli.XXXXXX", path[64];
	T_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_t *j = json_pack("{s:s,s:i}", "schema", "ppslab/test", "n", 3);
	T_EQ_INT(ana_write_json(path, j), 0);
	json_t *back = json_load_file(path, 0, NULL);
	T_TRUE(back && json_equal(back, j));
	json_decref(back);
	snprintf(path, sizeof(path), "%s/no/such/dir.json", dir);
	T_EQ_INT(ana_write_json(path, j), EX_CANTCREAT);
	json_decref(j);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	T_RUN(t_pct);
	T_RUN(t_rows);
	T_RUN(t_one_file);
	T_RUN(t_plot_status);
	T_RUN(t_write_json);
	return t_done();
}
