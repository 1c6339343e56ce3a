/* SPDX-License-Identifier: BSD-2-Clause */
/* count_bench.c — micro-benchmark of what `ppslab run` does with the forwarder's
 * counters after each trial (analysis/runner/dut_count.c): two `stats` replies of N
 * rules read as JSON and subtracted rule by rule (dut_delta), the later one with a rule
 * inserted in front so no rule keeps its index. Printed per N as ms, one JSON line
 * each with --json. Not part of `make check`; run by bench/b_fw.sh. The count must grow
 * linearly with N: 100,000 rules is the documented maximum.
 *
 *   count_bench [--json] [N...]      (default 1000 10000 20000 100000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dut.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* a stats reply's rules[] as ppslab-rut prints them, shifted by one rule when extra */
static char *stats_text(long n, int extra)
{
	size_t cap = (size_t)(n + 2) * 96 + 64, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	len += (size_t)snprintf(s + len, cap - len, "{\"rx_pkts\":%d,\"rules\":[", extra * 100);
	if (extra)
		len += (size_t)snprintf(s + len, cap - len, "{\"number\":1,\"pkts\":1,\"bytes\":46,"
					"\"last_match_s\":0},");
	for (long i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "{\"number\":%ld,\"pkts\":%ld,\"bytes\":%ld,"
					"\"last_match_s\":0}%s", 2 + i, i * extra, i * 46 * extra,
					i + 1 < n ? "," : "");
	snprintf(s + len, cap - len, "]}");
	return s;
}

int main(int argc, char **argv)
{
	int json = argc > 1 && !strcmp(argv[1], "--json");
	long def[] = { 1000, 10000, 20000, 100000 };
	int first = 1 + json, nn = argc > first ? argc - first : 4;
	for (int k = 0; k < nn; k++) {
		long n = argc > first ? strtol(argv[first + k], NULL, 10) : def[k];
		char *ta = stats_text(n, 0), *tb = stats_text(n, 1);
		if (!ta || !tb || n < 1) {
			fprintf(stderr, "count_bench: %ld rules: cannot build the replies\n", n);
			return 1;
		}
		double t0 = now_s();
		json_t *a = json_loads(ta, 0, NULL), *b = json_loads(tb, 0, NULL);
		double t1 = now_s();
		json_t *d = dut_delta(a, b);
		double t2 = now_s();
		if (!d || json_array_size(json_object_get(d, "rules")) != (size_t)n + 1) {
			fprintf(stderr, "count_bench: %ld rules: wrong delta\n", n);
			return 1;
		}
		if (json)
			printf("{\"rules\":%ld,\"parse_ms\":%.1f,\"delta_ms\":%.1f,\"total_ms\":%.1f}\n", n,
			       (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2 - t0) * 1e3);
		else
			printf("%7ld rules: parse %8.1f ms, delta %8.1f ms, total %8.1f ms\n", n,
			       (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2 - t0) * 1e3);
		json_decref(a);
		json_decref(b);
		json_decref(d);
		free(ta);
		free(tb);
	}
	return 0;
}
