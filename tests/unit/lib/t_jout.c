/* SPDX-License-Identifier: BSD-2-Clause */
/* t_jout.c — a histogram's JSON summary, shared by the sender's gaps and the sink's
 * latency: keys and their order, and an empty histogram. */
#include <stdlib.h>

#include "hist.h"
#include "jout.h"
#include "tap.h"

static void t_hist_empty(void)
{
	struct hist h;
	hist_init(&h);
	json_t *o = jout_hist(&h);
	T_EQ_U64(json_object_size(o), 1);
	T_EQ_U64(json_integer_value(json_object_get(o, "count")), 0);
	json_decref(o);
}

static void t_hist_keys(void)
{
	static struct hist h;
	hist_init(&h);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_add(&h, v);
	json_t *o = jout_hist(&h);
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	/* the order the gen and sink summaries have always printed */
	const char *keys[] = { "count", "min", "mean", "p50", "p90", "p99", "p999", "max" };
	const char *at = s;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char k[16];
		snprintf(k, sizeof(k), "\"%s\":", keys[i]);
		const char *p = strstr(at, k);
		T_TRUE(p != NULL);
		if (p)
			at = p;
	}
	T_EQ_U64(json_object_size(o), 8);
	T_EQ_U64(json_integer_value(json_object_get(o, "count")), 1000);
	T_EQ_U64(json_integer_value(json_object_get(o, "min")), 1);
	T_EQ_U64(json_integer_value(json_object_get(o, "max")), 1000);
	T_NEAR(json_real_value(json_object_get(o, "mean")), 500.5, 1e-9);
	T_EQ_U64(json_integer_value(json_object_get(o, "p50")), hist_quantile(&h, 0.5));
	free(s);
	json_decref(o);
}

int main(void)
{
	T_RUN(t_hist_empty);
	T_RUN(t_hist_keys);
	return t_done();
}
