/* SPDX-License-Identifier: BSD-2-Clause */
/* t_results.c — reading results files: validation errors name the file, the JSON path
 * and what was expected; cells group repetitions whatever the order of params keys and
 * 1000 vs 1000.0; statistics skip failed cases and nulls; summary[] is recomputed from
 * cases[]; the atomic save round-trips. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "tap.h"

static const char *top(void)
{
	const char *t = getenv("PPSLAB_TOP");
	return t ? t : ".";
}

static struct res_file *load_small(void)
{
	char path[1024], err[512];
	struct res_file *rf = NULL;
	snprintf(path, sizeof(path), "%s/tests/data/small.json", top());
	if (res_load(path, &rf, err, sizeof(err)))
		T_FAIL("%.400s", err);
	return rf;
}

static void t_cells(void)
{
	struct res_file *rf = load_small();
	if (!rf)
		return;
	T_EQ_U64(rf->ncases, 12);
	T_EQ_U64(rf->ncells, 4);     /* rep 2 has its keys swapped, rep 3 says 1000.0 */
	T_EQ_U64(rf->naxes, 2);
	T_STREQ(rf->axes[0].name, "pollhz");
	T_STREQ(rf->axes[1].name, "burst_max");
	T_STREQ(rf->cells[0].key, "pollhz=1000/burst_max=50");
	T_EQ_U64(rf->cells[0].ncases, 3);
	T_STREQ(rf->cells[3].key, "pollhz=2000/burst_max=150");
	T_STREQ(rf->run_id, "small-2026-11-30");
	T_EQ_U64(rf->nmetrics, 3);
	T_STREQ(rf->metrics[2], "lat_p99_ns");
	T_EQ_INT(rf->cases[4].flagged, 1);
	T_EQ_INT(rf->cases[8].failed, 1);
	/* order-independent lookup, numbers compared as numbers */
	json_t *p = json_pack("{s:f,s:i}", "burst_max", 150.0, "pollhz", 2000);
	T_EQ_INT(res_find_cell(rf, p), 3);
	json_decref(p);
	p = json_pack("{s:i,s:i}", "burst_max", 150, "pollhz", 3000);
	T_EQ_INT(res_find_cell(rf, p), -1);
	json_decref(p);
	struct res_stats st;
	double v[3];
	T_EQ_INT(res_cell_stats(rf, 1, "fwd_pps", &st, v), 0);
	T_EQ_U64(st.s.n, 3);
	T_EQ_U64(st.flagged, 1);
	T_NEAR(st.s.median, 149990, 0);
	T_NEAR(v[1], 150020, 0);
	T_EQ_INT(res_cell_stats(rf, 2, "fwd_pps", &st, NULL), 0);
	T_EQ_U64(st.s.n, 2);
	T_EQ_U64(st.failed, 1);
	T_EQ_INT(res_cell_stats(rf, 3, "fwd_pps", &st, NULL), 0);
	T_EQ_U64(st.missing, 1);
	T_EQ_INT(res_cell_stats(rf, 3, "nope", &st, NULL), 0);
	T_EQ_U64(st.s.n, 0);
	T_EQ_U64(st.missing, 3);
	double x;
	T_EQ_INT(res_metric(&rf->cases[9], "fwd_pps", &x), -ENODATA);
	T_EQ_INT(res_metric(&rf->cases[9], "rx_pps", &x), -ENOENT);
	char env[256];
	T_STREQ(res_env_line(rf, "dut", env, sizeof(env)),
		"Linux Debian 12 (6.1.0), Test CPU, 2 cores, veth, ppslab-rut 0.1.0");
	T_STREQ(res_env_line(rf, "sink", env, sizeof(env)), "");
	res_free(rf);
}

static void t_summary(void)
{
	struct res_file *rf = load_small();
	if (!rf)
		return;
	json_t *s = res_summary(rf);
	/* 4 cells × 3 metrics, all with values */
	T_EQ_U64(json_array_size(s), 12);
	json_t *r = json_array_get(s, 3);   /* cell 1, fwd_pps */
	T_STREQ(json_string_value(json_object_get(r, "case")), "pollhz=1000/burst_max=150");
	T_STREQ(json_string_value(json_object_get(r, "metric")), "fwd_pps");
	T_EQ_INT(json_integer_value(json_object_get(r, "n")), 3);
	T_NEAR(json_number_value(json_object_get(r, "median")), 149990, 0);
	T_NEAR(json_number_value(json_object_get(r, "stdev")), 90.73771725877465, 1e-9);
	T_EQ_INT(json_integer_value(json_object_get(r, "flagged")), 1);
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(r, "params"), "pollhz")), 1000);
	json_decref(s);
	res_free(rf);
}

static void t_values(void)
{
	char b[64];
	json_t *v = json_real(1000.0);
	T_STREQ(res_value_str(v, b, sizeof(b)), "1000");
	T_TRUE(res_value_matches(v, "1000"));
	T_TRUE(res_value_matches(v, "1e3"));
	T_TRUE(!res_value_matches(v, "1000x"));
	json_decref(v);
	v = json_real(0.1);
	T_STREQ(res_value_str(v, b, sizeof(b)), "0.1");
	json_decref(v);
	v = json_string("NP");
	T_TRUE(res_value_matches(v, "NP"));
	json_t *w = json_integer(5);
	T_TRUE(!res_value_eq(v, w));
	json_decref(v);
	json_decref(w);
	struct res_sel s = { 0 };
	char err[128];
	T_EQ_INT(res_sel_parse(&s, "a=1,b=x y", err, sizeof(err)), 0);
	T_EQ_U64(s.n, 2);
	T_STREQ(s.c[1].value, "x y");
	T_EQ_INT(res_sel_parse(&s, "a", err, sizeof(err)), -EINVAL);
	T_EQ_INT(res_sel_parse(&s, "=1", err, sizeof(err)), -EINVAL);
	T_EQ_INT(res_sel_parse(&s, "a=", err, sizeof(err)), -EINVAL);
	res_sel_free(&s);
}

/* Each bad document gives -EINVAL and a message with the JSON path and the expectation. */
static void t_bad_documents(void)
{
	static const struct { const char *json, *want; } c[] = {
		{ "[]", "t.json: $: expected an object (a ppslab results file), got an array" },
		{ "{}", "t.json: $.schema: missing (expected \"ppslab/result\")" },
		{ "{\"schema\":\"ppslab/gen\"}", "$.schema: expected \"ppslab/result\", got \"ppslab/gen\"" },
		{ "{\"schema\":5}", "$.schema: expected \"ppslab/result\", got an integer" },
		{ "{\"schema\":\"ppslab/result\"}", "$.schema_version: missing" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"2.0.0\",\"cases\":[]}",
		  "$.schema_version: expected major version 1, got \"2.0.0\"" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":1,\"cases\":[]}",
		  "$.schema_version: expected a version string" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\"}",
		  "$.cases: missing (expected an array of cases)" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":{}}",
		  "$.cases: expected an array, got an object" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[3]}",
		  "$.cases[0]: expected an object, got an integer" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{}]}",
		  "$.cases[0].params: missing (expected an object of axis values)" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{}},"
		  "{\"params\":{\"hz\":[1]}}]}", "$.cases[1].params.hz: expected a number, string or "
		  "boolean, got an array" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"metrics\":{\"fwd_pps\":\"100\"}}]}", "$.cases[0].metrics.fwd_pps: expected a number "
		  "or null, got a string" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"metrics\":[1]}]}", "$.cases[0].metrics: expected an object, got an array" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"status\":\"good\"}]}", "$.cases[0].status: expected \"ok\", \"flagged\" or "
		  "\"failed\", got \"good\"" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"rep\":-1}]}", "$.cases[0].rep: expected a repetition number" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"flags\":\"slow\"}]}", "$.cases[0].flags: expected an array of strings, got a string" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"flags\":[1]}]}", "$.cases[0].flags[0]: expected a string, got an integer" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[],"
		  "\"matrix\":{\"axes\":[1]}}", "$.matrix.axes: expected an object of arrays, got an array" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[],"
		  "\"matrix\":{\"axes\":{\"hz\":5}}}", "$.matrix.axes.hz: expected an array of values" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[],"
		  "\"environment\":\"x\"}", "$.environment: expected an object, got a string" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[],"
		  "\"run_id\":7}", "$.run_id: expected a string, got an integer" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[],"
		  "\"run_id\":\"a\\nb\"}", "$.run_id: a control character" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":"
		  "{\"h\\u001bz\":1}}]}", "$.cases[0].params: an axis name with a control character" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"metrics\":{\"a\\nb\":1}}]}", "$.cases[0].metrics: a metric name with a control" },
		/* a negative rate would give compare a negative spread */
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"metrics\":{\"fwd_pps\":5}},{\"params\":{},\"metrics\":{\"fwd_pps\":-5}}]}",
		  "$.cases[1].metrics.fwd_pps: a rate cannot be negative, got -5" },
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":[{\"params\":{},"
		  "\"metrics\":{\"fwd_bps\":-1.5}}]}", "$.cases[0].metrics.fwd_bps: a rate cannot be" },
		/* a repetition twice would shift the median */
		{ "{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\",\"cases\":["
		  "{\"params\":{\"hz\":1},\"rep\":0},{\"params\":{\"hz\":1},\"rep\":1},"
		  "{\"params\":{\"hz\":2},\"rep\":1},{\"params\":{\"hz\":1.0},\"rep\":1}]}",
		  "$.cases[3]: repetition 1 of case hz=1 again (first at $.cases[1])" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		json_error_t je;
		json_t *root = json_loads(c[i].json, 0, &je);
		struct res_file *rf = NULL;
		char err[512] = "";
		if (!root) {
			T_FAIL("case %zu: test JSON does not parse: %s", i, je.text);
			continue;
		}
		int rc = res_from_json(root, "t.json", &rf, err, sizeof(err));
		json_decref(root);
		if (rc != -EINVAL || rf || !strstr(err, c[i].want) || strncmp(err, "t.json: ", 8))
			T_FAIL("case %zu: rc %d, \"%.200s\", wanted \"%.200s\"", i, rc, err, c[i].want);
		res_free(rf);
	}
	/* a valid minimal file: no cases yet */
	json_t *ok = json_loads("{\"schema\":\"ppslab/result\",\"schema_version\":\"1.2.0\","
				"\"cases\":[]}", 0, NULL);
	struct res_file *rf = NULL;
	char err[256];
	T_EQ_INT(res_from_json(ok, "ok.json", &rf, err, sizeof(err)), 0);
	T_TRUE(rf && rf->ncells == 0);
	res_free(rf);
	json_decref(ok);
}

/* Control characters in values are shown as escapes: table, plot and terminals never
 * get them raw. */
static void t_text_safe(void)
{
	char b[64];
	T_STREQ(res_text_safe("plain é", b, sizeof(b)), "plain é");
	T_STREQ(res_text_safe("a\nb\tc\rd\x1b[31m\x7f", b, sizeof(b)), "a\\nb\\tc\\rd\\x1b[31m\\x7f");
	T_STREQ(res_text_safe("ab\n", b, 4), "ab");   /* an escape is never cut in half */
	json_t *v = json_string("x\ny");
	T_STREQ(res_value_str(v, b, sizeof(b)), "x\\ny");
	T_TRUE(res_value_matches(v, "x\\ny"));   /* matched as shown */
	json_decref(v);
	/* negative numbers that are not rates, and unnumbered repetitions, still load */
	json_t *ok = json_loads("{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\","
				"\"cases\":[{\"params\":{},\"metrics\":{\"offset_ns\":-3}},"
				"{\"params\":{}}]}", 0, NULL);
	struct res_file *rf = NULL;
	char err[256] = "";
	T_EQ_INT(res_from_json(ok, "ok.json", &rf, err, sizeof(err)), 0);
	res_free(rf);
	json_decref(ok);
}

/* Values are found by index (what keeps load and pivot linear in cells): 1000 and
 * 1000.0, 0 and -0 are one value, the string "1000" another; cells by canon. */
static void t_value_index(void)
{
	json_t *root = json_loads("{\"schema\":\"ppslab/result\",\"schema_version\":\"1.0.0\","
		"\"cases\":[{\"params\":{\"a\":1000}},{\"params\":{\"a\":1000.0}},"
		"{\"params\":{\"a\":\"1000\"}},{\"params\":{\"a\":0}},{\"params\":{\"a\":-0.0}},"
		"{\"params\":{\"a\":\"x\\ty\"}},{\"params\":{\"a\":\"x\"}}]}", 0, NULL);
	struct res_file *rf = NULL;
	char err[256] = "";
	T_EQ_INT(res_from_json(root, "v.json", &rf, err, sizeof(err)), 0);
	json_decref(root);
	if (!rf)
		return;
	const struct res_axis *a = res_axis(rf, "a");
	T_EQ_U64(a->nvalues, 5);   /* 0, 1000, "1000", "x\ty", "x" */
	json_t *i = json_integer(1000), *r = json_real(1000.0), *t = json_string("1000");
	json_t *z = json_real(-0.0), *u = json_string("nope");
	T_TRUE(res_value_index(a, i) >= 0 && res_value_index(a, i) == res_value_index(a, r));
	T_TRUE(res_value_index(a, t) >= 0 && res_value_index(a, t) != res_value_index(a, i));
	T_EQ_INT((int)res_value_index(a, z), 0);
	T_EQ_INT((int)res_value_index(a, u), -1);
	T_EQ_U64(rf->ncells, 5);
	for (size_t c = 0; c < rf->ncells; c++)
		T_EQ_INT((int)res_find_canon(rf, rf->cells[c].canon), (int)c);
	T_EQ_INT((int)res_find_canon(rf, "a=nope"), -1);
	json_decref(i);
	json_decref(r);
	json_decref(t);
	json_decref(z);
	json_decref(u);
	res_free(rf);
}

static void t_bad_files(void)
{
	char dir[] = "/tmp/ppslab-t_results.XXXXXX", path[256], err[512];
	struct res_file *rf = NULL;
	if (!mkdtemp(dir)) {
		T_FAIL("mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/none.json", dir);
	T_EQ_INT(res_load(path, &rf, err, sizeof(err)), -ENOENT);
	T_TRUE(strstr(err, "none.json: No such file") != NULL);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	FILE *f = fopen(path, "w");
	fputs("{\n  \"schema\": \"ppslab/result\",\n  \"cases\": [,]\n}\n", f);
	fclose(f);
	T_EQ_INT(res_load(path, &rf, err, sizeof(err)), -EINVAL);
	/* FILE:LINE:COLUMN: for text that is not JSON */
	T_TRUE(strstr(err, "bad.json:3:") && strstr(err, "not valid JSON"));
	f = fopen(path, "w");
	fputs("{\"schema\":\"ppslab/result\",\"schema\":\"ppslab/result\"}", f);
	fclose(f);
	T_EQ_INT(res_load(path, &rf, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "duplicate") != NULL);
	unlink(path);
	rmdir(dir);
}

static void t_save(void)
{
	struct res_file *rf = load_small();
	if (!rf)
		return;
	char dir[] = "/tmp/ppslab-t_save.XXXXXX", path[256], err[256];
	if (!mkdtemp(dir)) {
		T_FAIL("mkdtemp");
		res_free(rf);
		return;
	}
	snprintf(path, sizeof(path), "%s/r.json", dir);
	json_object_set_new(rf->root, "summary", res_summary(rf));
	T_EQ_INT(res_save(path, rf->root), 0);
	struct res_file *back = NULL;
	T_EQ_INT(res_load(path, &back, err, sizeof(err)), 0);
	if (back) {
		T_TRUE(json_equal(back->root, rf->root));
		T_EQ_U64(back->ncells, 4);
	}
	T_EQ_INT(res_save("/nonexistent-dir/x.json", rf->root), -ENOENT);
	res_free(back);
	res_free(rf);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	T_RUN(t_cells);
	T_RUN(t_summary);
	T_RUN(t_values);
	T_RUN(t_bad_documents);
	T_RUN(t_text_safe);
	T_RUN(t_value_index);
	T_RUN(t_bad_files);
	T_RUN(t_save);
	return t_done();
}
