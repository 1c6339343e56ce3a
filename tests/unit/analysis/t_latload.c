// SPDX-License-Identifier: BSD-2-Clause
/* t_latload.c — latency at load's figures (latload.h): RFC 8219 typical (median) and
 * worst-case (p99.9) latency and PDV (p99.9 − min) from the sink's histogram objects,
 * made here from a real log-linear histogram (hist.h) of a known series; the rows of a
 * trial per stream and frame size; a table of a results file's points. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "hist.h"
#include "jout.h"
#include "latload.h"
#include "results.h"
#include "tap.h"

/* A histogram of the delays lo, lo + step, ... (n of them) as the sink writes it */
static json_t *hist_of(uint64_t lo, uint64_t step, unsigned n)
{
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	for (unsigned i = 0; i < n; i++)
		hist_add(h, lo + step * i);
	json_t *o = jout_hist(h);
	free(h);
	return o;
}

static void t_figures_of_a_known_series(void)
{
	/* 10,000 delays 10,000 ns .. 19,999 ns: median 15,000, p99.9 19,990, min 10,000,
	 * each within the histogram's 1/32 */
	json_t *h = hist_of(10000, 1, 10000);
	struct lat_fig f;
	char err[200];
	T_EQ_INT(lat_fig_of(h, &f, err, sizeof(err)), 0);
	T_NEAR(f.count, 10000, 0);
	T_NEAR(f.min_ns, 10000, 0);
	T_NEAR(f.typical_ns, 15000, 15000 / 32.0);
	T_NEAR(f.worst_ns, 19990, 19990 / 32.0);
	T_NEAR(f.pdv_ns, f.worst_ns - f.min_ns, 0);
	T_TRUE(f.min_ns <= f.typical_ns && f.typical_ns <= f.worst_ns);
	json_decref(h);
	/* one outlier in a thousand is below p99.9; two in a thousand move it */
	h = hist_of(1000, 0, 999);
	json_t *h2 = json_deep_copy(h);
	json_decref(h);
	struct hist *x = malloc(sizeof(*x));
	hist_init(x);
	for (int i = 0; i < 998; i++)
		hist_add(x, 1000);
	hist_add(x, 1000000);
	hist_add(x, 1000000);
	h = jout_hist(x);
	T_EQ_INT(lat_fig_of(h, &f, err, sizeof(err)), 0);
	T_NEAR(f.typical_ns, 1000, 0);
	T_NEAR(f.worst_ns, 1000000, 1000000 / 32.0);
	T_NEAR(f.pdv_ns, f.worst_ns - 1000, 0);
	json_decref(h);
	T_EQ_INT(lat_fig_of(h2, &f, err, sizeof(err)), 0);
	T_NEAR(f.pdv_ns, 0, 0);   /* a constant delay varies by nothing */
	json_decref(h2);
	free(x);
}

static void t_bad_histograms(void)
{
	struct lat_fig f;
	char err[200];
	json_t *h = json_pack("{s:i}", "count", 0);
	T_EQ_INT(lat_fig_of(h, &f, err, sizeof(err)), -ENODATA);
	json_decref(h);
	h = json_pack("{s:i,s:i,s:i,s:i}", "count", 5, "min", 100, "p50", 90, "p999", 200);
	T_EQ_INT(lat_fig_of(h, &f, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "not ordered") != NULL);
	json_decref(h);
	h = json_pack("{s:i,s:i,s:i,s:i}", "count", 5, "min", -1, "p50", 90, "p999", 200);
	T_EQ_INT(lat_fig_of(h, &f, err, sizeof(err)), -EINVAL);
	json_decref(h);
	h = json_pack("{s:i,s:i}", "count", 5, "min", 1);
	T_EQ_INT(lat_fig_of(h, &f, err, sizeof(err)), -EINVAL);
	json_decref(h);
	T_EQ_INT(lat_fig_of(NULL, &f, err, sizeof(err)), -ENODATA);
}

static void t_rows_per_stream_and_size(void)
{
	/* an IMIX stream split by size, a stream without the split, an empty size */
	json_t *by = json_array();
	json_t *a = hist_of(2000, 1, 700), *b = hist_of(5000, 1, 400), *c = hist_of(0, 0, 0);
	json_object_set_new(a, "size", json_integer(64));
	json_object_set_new(b, "size", json_integer(594));
	json_object_set_new(c, "size", json_integer(1518));
	json_array_append_new(by, a);
	json_array_append_new(by, b);
	json_array_append_new(by, c);
	json_t *s1 = json_pack("{s:i,s:o}", "stream", 1, "latency_by_size", by);
	json_t *s2 = json_pack("{s:i,s:o}", "stream", 2, "latency_ns", hist_of(9000, 0, 10));
	json_t *sinks = json_pack("[{s:[o,o]}]", "streams", s1, s2);
	json_t *rows = lat_rows(sinks);
	T_EQ_INT((long long)json_array_size(rows), 3);
	json_t *r0 = json_array_get(rows, 0), *r1 = json_array_get(rows, 1),
	       *r2 = json_array_get(rows, 2);
	T_EQ_INT(json_integer_value(json_object_get(r0, "size")), 64);
	T_EQ_INT(json_integer_value(json_object_get(r1, "size")), 594);
	T_EQ_INT(json_integer_value(json_object_get(r1, "stream")), 1);
	T_NEAR(json_real_value(json_object_get(r0, "count")), 700, 0);
	T_NEAR(json_real_value(json_object_get(r1, "min_ns")), 5000, 0);
	T_TRUE(json_is_null(json_object_get(r2, "size")));
	T_EQ_INT(json_integer_value(json_object_get(r2, "stream")), 2);
	T_NEAR(json_real_value(json_object_get(r2, "pdv_ns")), 0, 0);
	json_decref(rows);
	json_decref(sinks);
}

static void t_grid_of_a_results_file(void)
{
	const char *doc = "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\","
		"\"cases\":[{\"case_id\":\"c1\",\"rep\":1,\"status\":\"ok\",\"params\":{\"size\":64},"
		"\"metrics\":{\"ndr_pps\":1000},\"latency_at_load\":["
		"{\"load_pct\":0,\"intended_pps\":100,\"latency\":[{\"stream\":1,\"size\":64,"
		"\"count\":50,\"min_ns\":1000,\"typical_ns\":1500,\"worst_ns\":4000,\"pdv_ns\":3000}]},"
		"{\"load_pct\":100,\"intended_pps\":1000,\"latency\":[{\"stream\":1,\"size\":64,"
		"\"count\":500,\"error\":\"bad\"}]}]},"
		"{\"case_id\":\"c2\",\"rep\":1,\"status\":\"ok\",\"params\":{\"size\":128},"
		"\"metrics\":{\"ndr_pps\":900}}]}";
	json_t *root = json_loads(doc, 0, NULL);
	struct res_file *rf = NULL;
	char err[300];
	T_EQ_INT(res_from_json(root, "t", &rf, err, sizeof(err)), 0);
	json_decref(root);
	if (!rf)
		return;
	struct grid *g = lat_grid(rf, NULL);
	T_TRUE(g != NULL);
	if (g) {
		T_EQ_INT((long long)g->nrows, 3);
		T_STREQ(grid_get(g, 1, 2), "0");
		T_STREQ(grid_get(g, 1, 3), "64");
		T_STREQ(grid_get(g, 1, 6), "1.5");
		T_STREQ(grid_get(g, 1, 7), "4.0");
		T_STREQ(grid_get(g, 1, 8), "3.0");
		T_STREQ(grid_get(g, 2, 6), "-");   /* in error: no figure */
		grid_free(g);
	}
	struct res_sel w = { 0 };
	res_sel_add(&w, "size", "128");
	errno = 0;
	T_TRUE(lat_grid(rf, &w) == NULL && errno == ENOENT);
	res_sel_free(&w);
	res_free(rf);
}

int main(void)
{
	T_RUN(t_figures_of_a_known_series);
	T_RUN(t_bad_histograms);
	T_RUN(t_rows_per_stream_and_size);
	T_RUN(t_grid_of_a_results_file);
	return t_done();
}
