/* SPDX-License-Identifier: BSD-2-Clause */
/* trial.h — one measurement of ppslab run: sinks up, forwarder counters read, senders
 * blast for the trial's duration, residual frames settle, sinks stopped, every
 * component's JSON summary collected into one trial record (docs/results-schema.md,
 * cases[].trials[]) and the consistency checks of checks.h run on it.
 *
 * One-way ("uni"): blast A from every sender box to its dst, each box on a stream of
 * its own (1, then 3, 4, ...), the offered load split over all the senders' threads,
 * counted by the sink boxes. Bidirectional ("bi", one sender and one sink box): blast B
 * at the same time from the sink box to dst_b, counted on the sender box (stream 2), as
 * the seeds' "blast A and blast B". Rates are per direction; the record's fwd_rate_pps
 * is the aggregate, with _a and _b per direction.
 *
 * Several senders (boxes, or blast A and B) start at one instant: each box is handed
 * it on its own clock (ppslab-gen --start-at, shifted by the box's measured offset);
 * the record's "start" says when each box's first frame left and the spread. */
#ifndef PPSLAB_ANALYSIS_RUNNER_TRIAL_H
#define PPSLAB_ANALYSIS_RUNNER_TRIAL_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>

#include "box.h"
#include "dut.h"
#include "profile.h"

/* A sender or sink box: where, and how its tools open the test port. */
struct trial_box {
	const char *name;           /* "gen", "gen2", "sink", ...: names it in records */
	struct box box;
	const char *spec;           /* the port spec its tools open */
	unsigned threads;           /* the tools' --threads */
	const char *cpus;           /* their --cpus, or NULL */
	const char *dst;            /* a sender's destination */
	const char *dst6;           /* its IPv6 one (a cell's ip_version 6) */
	int stream;                 /* a sender's stream id */
	double clock_off_ns;        /* its clock − ours (0 on this host, or unknown) */
	double clock_bound_ns;      /* how well that is known (NaN: not at all) */
};

struct trial_env {
	const struct profile *p;
	size_t ngens, nsinks;       /* at least one each */
	struct trial_box gens[PROF_BOXES_MAX], sinks[PROF_BOXES_MAX];
	const char *dst_b, *dst6_b; /* blast B's destinations, IPv4 and IPv6 */
	const char *tmpdir;
	struct dut *dut;            /* NULL: nothing in between to read */
	volatile sig_atomic_t *stop;/* set by SIGINT/SIGTERM: end the trial early */
	/* the run's trial count: each trial's senders and sinks get the next epoch, 1..255
	 * (--epoch, sig.h), so no frame of an earlier trial counts in a later one; NULL:
	 * no --epoch */
	unsigned *epochs;
};

struct trial_req {
	double load_pps;            /* per direction; 0 = as fast as the sender can */
	double duration_s, warmup_s;
	unsigned long long count;   /* > 0: exactly this many frames (the sender's --count),
				     * with load_pps 0 back to back; duration_s only bounds it */
	double settle_s;            /* > 0: the settling after the load instead of the
				     * profile's trial.settle */
	const struct cell *cell;    /* size, flows, direction come from it */
	const char *kind;           /* "fixed", "search", "mrr", "ladder", "rig", "b2b" */
	int seq;                    /* trial number within the case, 1-based */
	/* latency goals' bounds (ns): the record's "late_frames" counts, per bound, the
	 * frames the sinks received later than it (trial_late); NULL: none */
	const double *late_ns;
	size_t nlate;
	bool delay_by_size;         /* the sinks also keep delays per frame size */
	/* the outage method: action(action_arg) is called once, action_at_s after the
	 * warm-up, while the load runs; it may take up to action_limit_s. The record's
	 * "action" says when it was fired, on our clock and on each sink's (0 from action:
	 * fired; anything else: the trial fails). NULL: none */
	int (*action)(void *arg);
	void *action_arg;
	double action_at_s, action_limit_s;
	/* a rate step (the recovery recipe, RFC 2544 §26.5): load_pps for step_at_s after
	 * the warm-up (the warm-up at load_pps too), then step_pps for the rest of
	 * duration_s (ppslab-gen --steps). The record's "action" says when the rate
	 * dropped, as for an action: t0 the first sender's step, on our clock and on each
	 * sink's, took_ns the senders' spread. 0: no step */
	double step_at_s, step_pps;
	bool gaps;                  /* the sinks list gaps (--gap-list 64, --gap-min) */
	double gap_min_s;           /* ... longer than this without loss too (0: loss only) */
};

/* ppslab-gen's first words on box b: its port, its destination, the next hop's MAC
 * when the profile gives it (no route or neighbour lookup; NULL: none), its threads and
 * CPUs. 0 or -errno. */
int trial_gen_args(struct box_cmd *c, const struct trial_box *b, const char *spec,
		   const char *dst, const char *mac);

/* Runs the trial. *rec always receives a record (with "error" set on failure) unless
 * memory ran out. Returns 0, -EINTR (stopped by *stop: the record is partial), -EIO (a
 * component failed or produced no summary: the record says which) or -ENOMEM. */
int trial_run(const struct trial_env *e, const struct trial_req *r, json_t **rec);

/* The frames the trial record says were sent and received (test frames, warm-up
 * excluded), and the offered load; 0 when absent. */
void trial_counts(const json_t *rec, unsigned long long *tx, unsigned long long *rx,
		  double *offered_pps);

#endif
