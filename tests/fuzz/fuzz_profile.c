/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_profile.c — libFuzzer harness for the profile reader (analysis/runner/profile.c
 * with profile_check.c, profile_set.c, profile_router.c, profile_topo.c), jpos.c and
 * plan.c (make fuzz): arbitrary bytes as a profile, with and without --set overrides
 * taken from the input's first line, then the plan of whatever parsed. A bad profile
 * must give placed error messages, never a crash, a hang or a leak; a good one a plan
 * whose case count is cells × repetitions. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "plan.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* "--set K=V\n" lines at the start become overrides (at most 4) */
	char *sets[4];
	size_t nsets = 0, off = 0;
	while (nsets < 4 && size - off > 6 && !memcmp(data + off, "--set ", 6)) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		if (!nl)
			break;
		size_t l = (size_t)(nl - (data + off)) - 6;
		sets[nsets] = strndup((const char *)data + off + 6, l);
		if (!sets[nsets])
			break;
		nsets++;
		off = (size_t)(nl - data) + 1;
	}
	struct profile *p = NULL;
	struct prof_diag d = { 0 };
	int rc = profile_parse((const char *)data + off, size - off, "fuzz.json", sets, nsets, &p,
			       &d);
	if (rc == 0) {
		if (d.n)
			abort();   /* success says nothing is wrong */
		struct plan pl;
		if (plan_make(p, &pl) == 0) {
			if (pl.ncases != pl.ncells * p->repetitions)
				abort();
			FILE *f = fopen("/dev/null", "w");
			if (f) {
				plan_print(p, &pl, f);
				fclose(f);
			}
			for (size_t i = 0; i < pl.ncases && i < 16; i++)
				for (size_t a = 0; a < AX_COUNT; a++)
					if (!pl.cases[i].values.v[a])
						abort();   /* every axis has a value in every cell */
			plan_free(&pl);
		}
		profile_free(p);
	} else if (rc == -EINVAL && d.n == 0) {
		abort();   /* invalid without saying why */
	}
	prof_diag_free(&d);
	for (size_t i = 0; i < nsets; i++)
		free(sets[i]);
	return 0;
}
