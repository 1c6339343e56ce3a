/* SPDX-License-Identifier: BSD-2-Clause */
/* t_pivot.c — pivot tables on hand-made results files against golden text, Markdown and
 * CSV (tests/data/golden/, values checked by hand against tests/data/small.json), the
 * composite HZ table of the 2006 DragonFly sweep, number formatting, column specs, and the
 * errors a bad request gets. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "grid.h"
#include "pivot.h"
#include "tap.h"

static char *path_of(const char *rel)
{
	static char buf[4][1024];
	static int k;
	const char *top = getenv("PPSLAB_TOP");
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", top ? top : ".", rel);
	return buf[k];
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	fclose(m);
	fclose(f);
	return s;
}

static struct res_file *load(const char *rel)
{
	struct res_file *rf = NULL;
	char err[512];
	if (res_load(path_of(rel), &rf, err, sizeof(err)))
		T_FAIL("%.400s", err);
	return rf;
}

/* Renders the pivot and its footnote of deviations as `ppslab table` does and compares
 * with the golden file, naming the first differing line. */
static void golden(const struct pivot *pv, enum grid_fmt fmt, const char *title,
		   const char *name)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	pv_print(m, pv, fmt, title);
	pv_deviations_print(m, pv->rf, fmt);
	fclose(m);
	char rel[256];
	snprintf(rel, sizeof(rel), "tests/data/golden/%s", name);
	char *want = slurp(path_of(rel));
	if (!want) {
		T_FAIL("cannot read %s", rel);
	} else if (strcmp(out, want)) {
		int line = 1;
		size_t i = 0;
		while (out[i] && out[i] == want[i]) {
			line += out[i] == '\n';
			i++;
		}
		const char *a = out + i, *b = want + i;
		while (a > out && a[-1] != '\n') {
			a--;
			b--;
		}
		T_FAIL("%s differs at line %d: got \"%.*s\", want \"%.*s\"", name, line,
		       (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	}
	free(want);
	free(out);
}

static struct pivot *build(const struct res_file *rf, const struct pv_req *rq)
{
	struct pivot *pv = NULL;
	char err[512];
	if (pv_build(rf, rq, &pv, err, sizeof(err)))
		T_FAIL("pv_build: %.400s", err);
	return pv;
}

/* a file of back-to-back bursts (every fwd_pps null, b2b_frames given): the default
 * metric is the burst, not an empty forwarding rate */
static void t_b2b_default(void)
{
	json_error_t je;
	json_t *root = json_load_file(path_of("tests/data/small.json"), 0, &je);
	if (!root) {
		T_FAIL("small.json: %s", je.text);
		return;
	}
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "cases"), i, c)
		json_object_set_new(c, "metrics", json_pack("{s:n,s:i}", "fwd_pps", "b2b_frames",
							   (int)(1000 + i)));
	struct res_file *rf = NULL;
	char err[512];
	T_EQ_INT(res_from_json(root, "b2b", &rf, err, sizeof(err)), 0);
	json_decref(root);
	if (!rf)
		return;
	struct pv_req rq = { .decimals = -1 };
	struct pivot *pv = build(rf, &rq);
	if (pv)
		T_STREQ(pv->cols[0].metric, "b2b_frames");
	pv_free(pv);
	res_free(rf);
}

static void t_small_default(void)
{
	struct res_file *rf = load("tests/data/small.json");
	if (!rf)
		return;
	struct pv_req rq = { .decimals = -1 };
	struct pivot *pv = build(rf, &rq);
	if (pv) {
		/* the defaults: rows = first axis that varies, columns = the next */
		T_STREQ(pv->row_axis, "pollhz");
		T_EQ_U64(pv->ncols, 2);
		T_EQ_U64(pv->n_min, 2);
		T_EQ_U64(pv->n_max, 3);
		T_EQ_U64(pv->flagged_cells, 1);
		/* 2000/50: one repetition failed, so two values: 99,900 and 100,050 */
		const struct pv_cell *c = &pv->blocks[0].cells[1 * 2 + 0];
		T_EQ_U64(c->st.s.n, 2);
		T_EQ_U64(c->st.failed, 1);
		T_NEAR(c->st.s.median, 99975, 0);
		/* 2000/150: one repetition's value is null */
		c = &pv->blocks[0].cells[1 * 2 + 1];
		T_EQ_U64(c->st.missing, 1);
		T_NEAR(c->st.s.median, 200025, 0);
		golden(pv, GRID_TEXT, NULL, "small-default.txt");
	}
	pv_free(pv);
	res_free(rf);
}

static void t_small_minmax(void)
{
	struct res_file *rf = load("tests/data/small.json");
	if (!rf)
		return;
	struct pv_req rq = { .rows = "burst_max", .cols = "pollhz",
			     .show = PV_SHOW_MINMAX | PV_SHOW_STDEV | PV_SHOW_N, .decimals = -1 };
	struct pivot *pv = build(rf, &rq);
	if (pv)
		golden(pv, GRID_TEXT, NULL, "small-minmax.txt");
	pv_free(pv);
	res_free(rf);
}

static void t_small_md_csv(void)
{
	struct res_file *rf = load("tests/data/small.json");
	if (!rf)
		return;
	const char *m[] = { "fwd_pps", "loss_pct", "lat_p99_ns" };
	struct pv_req rq = { .metrics = m, .nmetrics = 3, .decimals = -1 };
	struct pivot *pv = build(rf, &rq);
	if (pv) {
		/* several metrics: one column each, burst_max listed as blocks */
		T_EQ_U64(pv->nblocks, 2);
		T_STREQ(pv->blocks[1].label, "burst_max=150");
		golden(pv, GRID_MD, NULL, "small-metrics.md");
	}
	pv_free(pv);
	struct pv_req rc = { .show = PV_SHOW_MINMAX | PV_SHOW_STDEV | PV_SHOW_N | PV_SHOW_FLAGS,
			     .decimals = -1 };
	pv = build(rf, &rc);
	if (pv)
		golden(pv, GRID_CSV, NULL, "small.csv");
	pv_free(pv);
	res_free(rf);
}

static void t_seed_table(void)
{
	/* the 2006 DragonFly sweep's table: HZ | 1 blast | blast A | blast B from a uni/bi
	 * sweep */
	struct res_file *rf = load("tests/data/hz-dragonfly.json");
	if (!rf)
		return;
	struct pv_colspec *spec = NULL;
	size_t n = 0;
	char err[256];
	T_EQ_INT(pv_colspecs_parse("1 blast=dir=uni:fwd_pps,blast A=dir=bi:fwd_pps_a,"
				   "blast B=dir=bi:fwd_pps_b", &spec, &n, err, sizeof(err)), 0);
	T_EQ_U64(n, 3);
	struct pv_req rq = { .row_label = "HZ", .spec = spec, .nspec = n, .decimals = -1 };
	struct pivot *pv = build(rf, &rq);
	if (pv) {
		T_EQ_U64(pv->nblocks, 1);
		golden(pv, GRID_TEXT, "", "seed-hz-dragonfly.txt");
	}
	pv_free(pv);
	pv_colspecs_free(spec, n);
	res_free(rf);
}

static void t_blocks(void)
{
	struct res_file *rf = load("tests/data/sweep.json");
	if (!rf)
		return;
	const char *m[] = { "lat_p99_ns" };
	struct pv_req rq = { .rows = "pollhz", .cols = "burst_max", .metrics = m, .nmetrics = 1,
			     .decimals = -1 };
	struct pivot *pv = build(rf, &rq);
	if (pv) {
		T_EQ_U64(pv->nblocks, 2);
		golden(pv, GRID_TEXT, NULL, "sweep-blocks.txt");
	}
	pv_free(pv);
	/* --where fixes the listed axis: one block, and the caption says so */
	struct res_sel w = { 0 };
	char err[256];
	T_EQ_INT(res_sel_parse(&w, "rules=10", err, sizeof(err)), 0);
	rq.where = &w;
	pv = build(rf, &rq);
	if (pv) {
		char cap[256];
		T_EQ_U64(pv->nblocks, 1);
		/* nanoseconds in one unit for the table, named in the caption */
		T_STREQ(pv_caption(pv, cap, sizeof(cap)), "lat_p99_ns in ms, median of 3 repetitions "
			"(rules=10)");
		T_STREQ(pv->ns_unit, "ms");
	}
	pv_free(pv);
	res_sel_free(&w);
	res_free(rf);
}

static void t_errors(void)
{
	struct res_file *rf = load("tests/data/hz-dragonfly.json");
	if (!rf)
		return;
	struct pivot *pv = NULL;
	char err[512];
	struct pv_req rq = { .rows = "hz", .decimals = -1 };
	T_EQ_INT(pv_build(rf, &rq, &pv, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "--rows hz") && strstr(err, "axes: pollhz, dir"));
	const char *m[] = { "rx_pps" };
	struct pv_req rm = { .metrics = m, .nmetrics = 1, .decimals = -1 };
	T_EQ_INT(pv_build(rf, &rm, &pv, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "--metric rx_pps") && strstr(err, "fwd_pps_a"));
	struct res_sel w = { 0 };
	res_sel_parse(&w, "pollhz=7000", err, sizeof(err));
	struct pv_req rw = { .where = &w, .decimals = -1 };
	T_EQ_INT(pv_build(rf, &rw, &pv, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "pollhz=7000") && strstr(err, "3000, 4000, 5000, 6000"));
	res_sel_free(&w);
	/* a column that does not fix dir, which another column fixes, matches two cells
	 * (alone it would simply list dir as blocks) */
	struct pv_colspec *spec = NULL;
	size_t n = 0;
	pv_colspecs_parse("uni=dir=uni:fwd_pps,all=:fwd_pps", &spec, &n, err, sizeof(err));
	struct pv_req rs = { .rows = "pollhz", .spec = spec, .nspec = n, .decimals = -1 };
	T_EQ_INT(pv_build(rf, &rs, &pv, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "matches several cells") && strstr(err, "axis dir varies"));
	pv_colspecs_free(spec, n);
	T_TRUE(pv == NULL);
	res_free(rf);
}

static void t_colspec(void)
{
	struct pv_colspec s;
	char err[256];
	T_EQ_INT(pv_colspec_parse("blast A=dir=bi:fwd_pps_a", &s, err, sizeof(err)), 0);
	T_STREQ(s.label, "blast A");
	T_STREQ(s.metric, "fwd_pps_a");
	T_EQ_U64(s.filt.n, 1);
	T_STREQ(s.filt.c[0].axis, "dir");
	T_STREQ(s.filt.c[0].value, "bi");
	pv_colspecs_free(NULL, 0);
	free(s.label);
	free(s.metric);
	res_sel_free(&s.filt);
	T_EQ_INT(pv_colspec_parse("x=a=1&b=two", &s, err, sizeof(err)), 0);
	T_EQ_U64(s.filt.n, 2);
	T_TRUE(s.metric == NULL);
	T_STREQ(s.filt.c[1].value, "two");
	free(s.label);
	res_sel_free(&s.filt);
	T_EQ_INT(pv_colspec_parse("loss=:loss_pct", &s, err, sizeof(err)), 0);
	T_EQ_U64(s.filt.n, 0);
	T_STREQ(s.metric, "loss_pct");
	free(s.label);
	free(s.metric);
	T_EQ_INT(pv_colspec_parse("nolabel", &s, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "LABEL=") != NULL);
	T_EQ_INT(pv_colspec_parse("l=dir:", &s, err, sizeof(err)), -EINVAL);
	T_EQ_INT(pv_colspec_parse("l=dir", &s, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "not AXIS=VALUE") != NULL);
	T_EQ_INT(pv_colspec_parse("l=", &s, err, sizeof(err)), -EINVAL);
}

static void t_numbers(void)
{
	char b[64];
	T_STREQ(grid_num(450072, 0, b, sizeof(b)), "450,072");
	T_STREQ(grid_num(999, 0, b, sizeof(b)), "999");
	T_STREQ(grid_num(1000, 0, b, sizeof(b)), "1,000");
	T_STREQ(grid_num(14880952.4, 0, b, sizeof(b)), "14,880,952");
	T_STREQ(grid_num(-1234.5, 1, b, sizeof(b)), "-1,234.5");
	T_STREQ(grid_num(-0.001, 2, b, sizeof(b)), "0.00");
	T_STREQ(grid_num(0.375, 3, b, sizeof(b)), "0.375");
	T_STREQ(grid_num(NAN, 0, b, sizeof(b)), "-");
	T_EQ_INT(grid_decimals(450072, 0), 0);
	T_EQ_INT(grid_decimals(49.997, 0), 1);
	T_EQ_INT(grid_decimals(5.03, 0), 2);
	T_EQ_INT(grid_decimals(0.375, 0), 3);
	T_EQ_INT(grid_decimals(0.0004, 0), 6);
	T_EQ_INT(grid_decimals(12, 1), 0);
	T_STREQ(pv_raw(149953.5, b, sizeof(b)), "149953.5");
	T_STREQ(pv_raw(0.1, b, sizeof(b)), "0.1");
	T_STREQ(pv_raw(2e6, b, sizeof(b)), "2000000");
	T_EQ_U64(grid_width("±1–2"), 4);
}

static void t_grid_formats(void)
{
	struct grid *g = grid_new(2);
	grid_add_row(g);
	grid_set(g, 0, 0, "a|b");
	grid_set(g, 0, 1, "n");
	g->align[1] = 'r';
	grid_add_row(g);
	grid_set(g, 1, 0, "x, \"y\"");
	grid_set(g, 1, 1, "<1>*");
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	grid_print(m, g, GRID_CSV);
	grid_print(m, g, GRID_MD);
	grid_print(m, g, GRID_HTML);
	grid_print(m, g, GRID_TEXT);
	fclose(m);
	T_STREQ(out, "a|b,n\r\n\"x, \"\"y\"\"\",<1>*\r\n"
		"| a\\|b   |     n |\n"
		"| ------ | ----: |\n"
		"| x, \"y\" | <1>\\* |\n"
		"<table>\n<tr><th>a|b</th><th class=\"r\">n</th></tr>\n"
		"<tr><td>x, &quot;y&quot;</td><td class=\"r\">&lt;1&gt;*</td></tr>\n</table>\n"
		"a|b        n\n"
		"x, \"y\"  <1>*\n");
	free(out);
	grid_free(g);
	T_EQ_INT(grid_fmt_parse("markdown"), GRID_MD);
	T_EQ_INT(grid_fmt_parse("xls"), -1);
}

int main(void)
{
	T_RUN(t_small_default);
	T_RUN(t_b2b_default);
	T_RUN(t_small_minmax);
	T_RUN(t_small_md_csv);
	T_RUN(t_seed_table);
	T_RUN(t_blocks);
	T_RUN(t_errors);
	T_RUN(t_colspec);
	T_RUN(t_numbers);
	T_RUN(t_grid_formats);
	return t_done();
}
