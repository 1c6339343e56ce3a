/* SPDX-License-Identifier: BSD-2-Clause */
/* calib.h — `ppslab-gen --calibrate`: this sender's own ceiling on a port and its pacing
 * error below it, measured in a few seconds before a device is judged.
 *
 * Phase 1 sends as fast as possible for max_ns and takes the achieved rate as the
 * ceiling (max_pps); then, for each fraction (10%, 50%, 90%), it paces at that
 * fraction of the ceiling for frac_ns and records the rate error, the shortfall, the
 * late frames and the inter-departure gaps against the nominal gap. The summary's
 * "max_pps" is what `ppslab run` reads as the rig's ceiling. */
#ifndef PPSLAB_GEN_CALIB_H
#define PPSLAB_GEN_CALIB_H

#include <stdio.h>

#include "gen.h"
#include "gen_report.h"
#include "ready.h"
#include "runctl.h"

#define CALIB_POINTS 3

struct calib_cfg {
	struct gen_cfg base;       /* port, addresses, size, threads; rate and bounds ignored */
	uint64_t max_ns;           /* length of the ceiling phase */
	uint64_t frac_ns;          /* length of each paced phase */
	const char *ifname;        /* interface counters ("" none) */
	int json;
	FILE *out;
	struct ready *ready;       /* announced before the first phase sends, or NULL */
};

/* Runs the phases; prints progress lines and the summary. Stops early (still printing
 * what was measured) on SIGINT/SIGTERM through rc. 0 or -errno with err. */
int calib_run(const struct calib_cfg *cc, const struct gen_info *info, struct runctl *rc,
	      char *err, size_t errlen);

#endif
