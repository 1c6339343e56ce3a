/* SPDX-License-Identifier: BSD-2-Clause */
/* run.h — ppslab run: a profile's matrix executed case by case into a results file
 * (docs/results-schema.md) that is rewritten atomically after every trial, so Ctrl-C,
 * a crash or a dead component never loses a finished trial, and --resume continues.
 *
 * Before the matrix the rig's own ceiling is measured (the sender's calibration and a
 * direct sender → sink run without the router), so cells limited by the rig rather
 * than by the router are flagged. Each case: the router brought to the cell's settings
 * (dut.h), the trial method driven (search.h) trial by trial (trial.h), every trial
 * checked (checks.h). At the end, per-cell summaries, the table and the plot the
 * profile's "output" asks for. */
#ifndef PPSLAB_ANALYSIS_RUNNER_RUN_H
#define PPSLAB_ANALYSIS_RUNNER_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct run_opts {
	const char *profile;     /* path or name */
	char **sets;             /* --set KEY=VALUE */
	size_t nsets;
	const char *out;         /* results file; NULL: the profile's output.results */
	const char *plot;        /* plot file (.png/.svg/.txt); NULL: the profile's */
	bool resume;             /* continue an incomplete results file */
	bool retry_failed;       /* with resume: run the failed cases again too */
	unsigned max_failed;     /* stop after this many failed cases in a row (0: never) */
	bool force;              /* overwrite an incomplete results file */
	bool mixed_versions;     /* run although a box's ppslab is another release */
	bool kill_strays;        /* stop ppslab tools left running in the lab (lab_procs) */
	bool dry_run;            /* print the plan, run nothing */
	bool no_table;           /* do not print the table at the end */
	int quiet;               /* 1: no progress */
	int verbose;
	const char *cmdline;     /* for the results file */
	/* The command's SIGINT and SIGTERM: *stop set when one came, *stop_sig to which.
	 * The run calls catch_signals(false) once it holds its locks (system calls
	 * restart), catch_signals(true) before the first case (they are interrupted). */
	volatile sig_atomic_t *stop, *stop_sig;
	void (*catch_signals)(bool interrupt);
};

/* Runs it; returns a sysexits code: 0 (complete, flagged cases included), 1 (some case
 * failed), EX_USAGE, EX_DATAERR (bad profile or results file), EX_NOINPUT,
 * EX_CANTCREAT (output not writable, checked before anything runs), EX_IOERR (a save
 * failed mid-run: the previous file is intact), EX_UNAVAILABLE (the lab or a box
 * cannot be set up), EX_NOPERM (netns topology without root), EX_CONFIG (an ssh box's ppslab is another
 * release than this host's, and not mixed_versions), 130 (interrupted: the
 * results so far are saved, the file stays resumable). After max_failed failed cases
 * in a row it stops as an interrupted run does (the file resumable) and returns 1. */
int run_main(const struct run_opts *o);

#endif
