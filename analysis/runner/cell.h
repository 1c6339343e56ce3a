/* SPDX-License-Identifier: BSD-2-Clause */
/* cell.h — one cell of a sweep with every built-in axis resolved once (the swept value,
 * else the profile's fixed value, else the registry's default; lib/axes.h) into C
 * values. plan_make fills one per case (profile.c's prof_cell reads the profile); the
 * runner, the DUT drivers and the checks take these fields, and the JSON values stay
 * beside them for the results (written unchanged) and for hooks' {AXIS} words. */
#ifndef PPSLAB_ANALYSIS_RUNNER_CELL_H
#define PPSLAB_ANALYSIS_RUNNER_CELL_H

#include <jansson.h>
#include <stdbool.h>

#include "axes.h"

struct profile;

struct cell {
	const json_t *params;         /* the swept values (router axes' too), or NULL */
	const json_t *v[AX_COUNT];    /* each built-in axis' value as the results write it */
	long long pollhz, hz;         /* hz 0: the kernel's own */
	long long burst_max, each_burst, user_frac, reg_frac;
	bool idle_poll, update_counters;
	const char *mode, *kernel, *counters, *rules_kind;   /* the registry's names */
	long long rules;              /* generated rules (0 with a rule file) */
	bool rules_file;              /* rules is "file:PATH" */
	bool firewall;                /* "on", or "auto" with a rule file or a count > 0 */
	double offered_pps;           /* NAN: "max" */
	unsigned size, flows;         /* frame bytes with FCS (0: imix); flows */
	bool imix;                    /* size "imix": ppslab-gen's --size imix */
	bool bi;                      /* direction "bi": blasts A and B at once */
	unsigned ip_version;          /* 4 or 6: ppslab-gen -6 to the IPv6 destinations */
	unsigned vlan, vlan_inner;    /* the test frames' tag (0: "none", untagged) and with
				       * QinQ the inner one (0: a single tag) */
};

/* Resolves params (borrowed by c, like the profile) for p into c. */
void prof_cell(const struct profile *p, const json_t *params, struct cell *c);
/* The value of a built-in or router axis by name, as {AXIS} and the results show it
 * (borrowed), or NULL: no such axis, or a router axis without a value. */
const json_t *cell_value(const struct cell *c, const char *name);

#endif
