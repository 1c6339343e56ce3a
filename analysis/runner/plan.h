/* SPDX-License-Identifier: BSD-2-Clause */
/* plan.h — a profile's matrix turned into the ordered list of cases to run, and the
 * time that will take (ppslab run --dry-run prints it).
 *
 * A cell is one combination of the swept axes' values (the cartesian product, first
 * axis varying slowest); a case is a cell at one repetition. Order "sequential" runs
 * cells in matrix order, repetition r of every cell before repetition r+1; "random"
 * shuffles each repetition's cells with Fisher–Yates on a xorshift64* seeded with the
 * profile's seed, so the same seed gives the same order on every machine
 * (docs/design/methodology.md#cells-cases-and-repetitions).
 *
 * Router axes that take a reboot (profile.h) group the cases: every case of one
 * combination of their values, all repetitions, runs before the next combination, so
 * the router restarts once per combination. The groups keep their matrix order
 * (sequential) or are shuffled with the seed (random), as are the cells of each
 * repetition within a group. */
#ifndef PPSLAB_ANALYSIS_RUNNER_PLAN_H
#define PPSLAB_ANALYSIS_RUNNER_PLAN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cell.h"
#include "profile.h"

struct plan_case {
	size_t cell;          /* 0..ncells-1, in matrix order */
	unsigned rep;         /* 1-based */
	json_t *params;       /* object: swept axis → value, in matrix order (owned) */
	char *case_id;        /* "pollhz=1000/rules=0" (schema: case_id), "all" with no axes */
	struct cell values;   /* every axis' value, typed (borrows params and the profile) */
	const struct profile *prof; /* what measures it: the profile, or its test (borrowed) */
	const char *test;     /* the test's name (params.test), or NULL without tests */
};

struct plan {
	size_t ncells;
	size_t ncases;        /* ncells × repetitions */
	struct plan_case *cases;   /* in run order */
	double est_s;         /* estimated wall time of the whole run, seconds */
	double est_trial_s;   /* of one case */
	double est_hook_s;    /* of an external router's hooks in all (included in est_s) */
	size_t hook_runs;     /* how many hook runs that is */
	size_t reboots;       /* router restarts for reboot axes (one per group, the first
			       * case's included) */
	double est_reboot_s;  /* their time at router.reboot_estimate (included in est_s) */
	size_t ntests;        /* a profile with tests: each test's own plan, in run order; its
			       * cases follow one another in cases[], each params with "test"
			       * first and a case id "test=NAME/..." */
	struct plan *tests;
};

/* Expands p into pl (with tests: each test's cases after the one before's, the rig's
 * ceiling counted once). 0 or -ENOMEM (or -E2BIG beyond 100,000 cases). The estimate
 * includes an external router's hooks: setup once and after every reboot, an axis'
 * hook whenever a value it names changes between consecutive cases (and after every
 * reboot, which loses runtime settings), verify of each verified router axis and the
 * check hook every case, the read hook twice per expected trial, each at
 * router.hook_estimate; and the reboots, at router.reboot_estimate. */
int plan_make(const struct profile *p, struct plan *pl);
void plan_free(struct plan *pl);
/* Does case i of pl start with a reboot: the first case, or one whose reboot axes'
 * values differ from the case before (false without reboot axes). */
bool plan_reboots_before(const struct profile *p, const struct plan *pl, size_t i);

/* Estimated seconds for one case of p: warm-up + trials × (duration + settle), with a
 * search's expected trial count (rfc2544: log2 of the range over the width; mlr: the
 * phases' trials; ladder: its steps), plus a fixed start-up cost per case. */
double plan_case_seconds(const struct profile *p);

/* The plan as people read it: profile, axes and their values, method and durations,
 * cells, cases, estimated time, then one line per case in run order. */
void plan_print(const struct profile *p, const struct plan *pl, FILE *f);

#endif
