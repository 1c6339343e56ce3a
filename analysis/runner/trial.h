/* SPDX-License-Identifier: BSD-2-Clause */
/* trial.h — one measurement of ppslab run: sinks up, forwarder counters read, senders
 * blast for the trial's duration, residual frames settle, sinks stopped, every
 * component's JSON summary collected into one trial record (docs/results-schema.md,
 * cases[].trials[]) and the consistency checks of checks.h run on it.
 *
 * One-way ("uni"): blast A from the gen box to dst, counted by the sink box.
 * Bidirectional ("bi"): blast B at the same time from the sink box to dst_b, counted
 * on the gen box (stream 2), as the seeds' "blast A and blast B". Rates are per
 * direction; the record's fwd_rate_pps is the aggregate, with _a and _b per stream. */
#ifndef PPSLAB_ANALYSIS_RUNNER_TRIAL_H
#define PPSLAB_ANALYSIS_RUNNER_TRIAL_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>

#include "box.h"
#include "dut.h"
#include "profile.h"

struct trial_env {
	const struct profile *p;
	struct box gen, sink;       /* the two end boxes */
	const char *gen_if, *sink_if;
	const char *dst, *dst_b;
	const char *tmpdir;
	struct dut *dut;            /* NULL: nothing in between to read */
	volatile sig_atomic_t *stop;/* set by SIGINT/SIGTERM: end the trial early */
};

struct trial_req {
	double load_pps;            /* per direction; 0 = as fast as the sender can */
	double duration_s, warmup_s;
	const json_t *params;       /* the cell (size, flows, direction come from it) */
	const char *kind;           /* "fixed", "search", "mrr", "ladder", "rig" */
	int seq;                    /* trial number within the case, 1-based */
};

/* Runs the trial. *rec always receives a record (with "error" set on failure) unless
 * memory ran out. Returns 0, -EINTR (stopped by *stop: the record is partial), -EIO (a
 * component failed or produced no summary: the record says which) or -ENOMEM. */
int trial_run(const struct trial_env *e, const struct trial_req *r, json_t **rec);

/* The frames the trial record says were sent and received (test frames, warm-up
 * excluded), and the offered load; 0 when absent. */
void trial_counts(const json_t *rec, unsigned long long *tx, unsigned long long *rx,
		  double *offered_pps);

#endif
