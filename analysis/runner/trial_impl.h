/* SPDX-License-Identifier: BSD-2-Clause */
/* trial_impl.h — the tools of a trial and their counters, shared by trial.c (starting,
 * waiting on and stopping the tools), trial_rx.c (the receiving interfaces' counters)
 * and trial_record.c (the record's figures). Private to them; the run_*.c files see trial.h. */
#ifndef PPSLAB_ANALYSIS_RUNNER_TRIAL_IMPL_H
#define PPSLAB_ANALYSIS_RUNNER_TRIAL_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "trial.h"

/* One read of an interface's receive counter: the value (-1: unreadable) and when it
 * was taken, t_ns ± unc_ns, on the box's own clock when it said (remote: CLOCK_REALTIME
 * there, read right before and after the counter) or else on our CLOCK_MONOTONIC
 * around the whole read (an ssh round trip: hundreds of ms). */
struct rx_read {
	double v;
	double t_ns, unc_ns;
	bool remote_clock;
};

/* The counter of an interface on an ssh box, read through one ssh session kept open
 * for the trial: a read then costs the channel's round trip, where a new connection
 * would take long enough to land the read after the load window. The box stamps each
 * read with its own clock right before and after it. */
struct rx_reader {
	pid_t pid;
	int in, out;
};

/* One ppslab-gen or ppslab-sink of the trial. */
struct tool {
	char name[16];          /* "gen", "gen2", "sink", "gen_b", "sink_b" */
	const char *prog;       /* "ppslab-gen", "ppslab-sink" */
	const struct trial_box *tb;   /* the box it runs on */
	bool sender;
	int stream;             /* a sender's */
	pid_t pid;
	int in;                 /* ssh: our end of its stdin (closing it stops it), or -1 */
	char out[600];
	int status;
	bool killed;            /* it did not end when told to and was killed (tool_stop) */
	uint64_t ready_ns;      /* CLOCK_MONOTONIC when it said it was ready */
	json_t *sum;            /* its summary */
	struct rx_reader rd;    /* a sink over ssh: its interface's counters */
	struct rx_read win[2];  /* a sink: its interface's counter at both ends of the window */
};

/* The tools of one trial: blast A's senders and sinks, for bi blast B's pair too. */
struct trial_tools {
	struct tool tl[2 * PROF_BOXES_MAX + 2];
	struct tool *gens[PROF_BOXES_MAX + 1], *sinks[PROF_BOXES_MAX + 1];
	struct tool *all[2 * PROF_BOXES_MAX + 2];   /* senders first, then sinks */
	struct tool *genb, *sinkb;   /* blast B's, or NULL */
	size_t ng, ns, na;
	size_t nga, nsa;             /* blast A's senders and sinks */
	bool bi;                     /* both directions, one sender and one sink box */
};

/* What a trial measured, before trial_record() makes it the record. */
struct trial_res {
	const struct trial_req *req;
	bool per_aggregate;          /* the cell is "bi": rates are the aggregate */
	json_t *gen, *sink, *exit;   /* the tools' summaries and exit statuses (owned) */
	json_t *dut_before, *dut_after, *rut;   /* the router's counters (owned) */
	bool win_read;               /* the load window's counters were read at both ends */
	bool windowed;               /* and every rate came from them */
	bool remote_clock;           /* a read was timed on a sink box's clock */
	const char *nowin;           /* why there is no load window, or NULL */
	double window_s, res_a, res_b, res_pps;   /* the window, the rate's resolution */
	double tx, rx, offered_pps, loss_ratio;
	double fwd_pps, fwd_a, fwd_b;   /* NaN: unknown */
	bool several;                /* the senders started at one instant: */
	uint64_t at_real;            /* CLOCK_REALTIME ns */
	double lead_s;               /* that far ahead */
	time_t end;
	/* the outage action (trial_req.action): fired at CLOCK_REALTIME act_t0 ns (taken
	 * right before the call), which took act_took_ns; its return value */
	bool act_fired;
	uint64_t act_t0, act_m0;     /* act_m0: the same instant on CLOCK_MONOTONIC */
	double act_took_ns;
	double act_load_end_ns;      /* the load's scheduled end after it (NaN: not fired) */
	int act_rc;
	bool interrupted;
	char err[900];               /* the first failure, "" when none */
};

/* ---- trial_rx.c ---- */

/* Opens the ssh session that reads the counter of spec's interface on box b: 0 or
 * -errno. */
int trial_reader_start(struct rx_reader *rd, const struct box *b, const char *spec);
void trial_reader_stop(struct rx_reader *rd);
/* The counter reads of every receiving interface (tools ts) at end w of the window. */
void trial_window_read(struct tool **ts, size_t n, int w);
/* The rate between two reads of one counter (*secs apart), and its resolution *res;
 * NaN when either read failed or they are on two clocks. */
double trial_window_rate(const struct rx_read *a, const struct rx_read *b, double *secs,
			 double *res);

/* ---- trial_record.c ---- */

/* Where a box is, for messages: "namespace ppslab-gen2", "ssh root@h", "this host". */
const char *trial_where(const struct box *b, char *buf, size_t len);
/* The trial's record (docs/results-schema.md, cases[].trials[]), or NULL when memory
 * ran out. */
json_t *trial_record(const struct trial_res *s, const struct trial_tools *tt);

#endif
