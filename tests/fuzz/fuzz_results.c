/* fuzz_results.c — libFuzzer harness for analysis/results.c (make fuzz): arbitrary
 * bytes as a results file through res_from_json, then what every command does with a
 * loaded file (res_summary, the axes, a cell's statistics). Bad input must give an
 * error message, never a crash or a leak. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

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
		res_free(rf);
	} else if (!err[0]) {
		abort();   /* an error must say what is wrong */
	}
	json_decref(root);
	return 0;
}
