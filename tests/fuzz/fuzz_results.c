/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_results.c — libFuzzer harness for analysis/results/results.c (make fuzz): arbitrary
 * bytes as a results file through res_from_json, then what every command does with a
 * loaded file (res_summary, the axes, a cell's statistics). Bad input must give an
 * error message, never a crash or a leak. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "model.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t je;
	json_t *root = json_loadb((const char *)data, size, 0, &je);
	if (!root)
		return 0;
	struct res_file *rf = NULL;
	char err[512] = "";
	if (res_from_json(root, "fuzz.json", &rf, err, sizeof(err)) == 0) {
		json_t *s = res_summary(rf);
		json_decref(s);
		/* what ppslab run stores beside the summary: the rule-cost fits */
		json_t *fits = res_fits(rf);
		json_decref(fits);
		/* what table, plot and compare do with every cell and metric */
		for (size_t c = 0; c < rf->ncells && c < 64; c++) {
			for (size_t m = 0; m < rf->nmetrics && m < 16; m++) {
				struct res_stats st;
				res_cell_stats(rf, c, rf->metrics[m], &st, NULL);
			}
			if (res_find_cell(rf, rf->cells[c].params) < 0 ||
			    res_find_canon(rf, rf->cells[c].canon) < 0)
				abort();   /* a cell is found by its own identity */
		}
		for (size_t a = 0; a < rf->naxes; a++) {
			char buf[256];
			for (size_t v = 0; v < rf->axes[a].nvalues && v < 64; v++)
				res_value_str(rf->axes[a].values[v], buf, sizeof(buf));
			if (res_axis(rf, rf->axes[a].name) != &rf->axes[a])
				abort();
		}
		char line[512];
		res_env_line(rf, "rut", line, sizeof(line));
		struct res_sel sel = { 0 };
		char serr[256];
		if (rf->naxes && rf->axes[0].nvalues) {
			char v[128], text[512];
			res_value_str(rf->axes[0].values[0], v, sizeof(v));
			snprintf(text, sizeof(text), "%s=%s", rf->axes[0].name, v);
			if (res_sel_parse(&sel, text, serr, sizeof(serr)) == 0)
				res_sel_check(rf, &sel, "--where", serr, sizeof(serr));
			res_sel_free(&sel);
		}
		res_free(rf);
	} else if (!err[0]) {
		abort();   /* an error must say what is wrong */
	}
	json_decref(root);
	return 0;
}
