/* SPDX-License-Identifier: BSD-2-Clause */
/* run_impl.h — what the files of `ppslab run` share (run.h is what others see): the
 * runner's state and the steps run.c calls. run.c owns the whole run and the results
 * document; run_env.c the topology, the boxes' environment and clocks; run_rig.c the
 * rig's own ceiling; run_case.c one case and a router that restarts; run_print.c the
 * summary, table and plot at the end. Calls go down only: run.c calls the others,
 * run_case.c calls run_env.c; none calls back into the file that calls it. */
#ifndef PPSLAB_ANALYSIS_RUNNER_RUN_IMPL_H
#define PPSLAB_ANALYSIS_RUNNER_RUN_IMPL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "box.h"
#include "dut.h"
#include "plan.h"
#include "profile.h"
#include "run.h"
#include "trial.h"

struct runner {
	const struct run_opts *o;
	const struct profile *p; /* what the case in hand measures: base, or its test */
	struct profile *base;    /* the profile loaded (owned) */
	struct plan plan;
	const char *out;         /* results path */
	json_t *root;            /* the results document */
	json_t *cases;           /* root.cases (borrowed) */
	struct trial_env env;
	unsigned epochs;         /* trials run: env.epochs, each trial's epoch */
	struct box rut_box;
	struct dut *dut;
	char tmpdir[64];
	char rut_in[32], rut_out[32];   /* the forwarder's interfaces (dut keeps pointers) */
	char **ssh_opts;         /* topology.ssh_options as a vector (borrowed strings) */
	double ceiling_pps;      /* the rig's, 0 unknown */
	double clock_bound_ns;   /* |clock(sink) − clock(gen)| at most this; NaN unknown */
	size_t done, total, failed;
	uint64_t t_start;
	double case_s_sum;
	size_t case_s_n;
	bool tty;
	json_t *router_env;      /* the external router as last read (at the start, then after
				  * every reboot), or NULL */
	bool boot_stale;         /* a reboot was not waited out: router_env's boot identity
				  * may be old */
	char boot_seen[256];     /* the external router's boot identity last read, or "" */
	/* run.c's: saves the document with updated_utc now (run_case after each trial);
	 * logs a failure and returns its -errno */
	int (*save)(struct runner *r);
};

/* run_env.c: the topology and what the run records of it */
int run_topology_up(struct runner *r);
/* the rut box's two interfaces from "rut0,rut1" */
void run_rut_ifaces(const struct profile *p, char *in, char *out, size_t len);
/* An external router's environment, read without ppslab on it (rutenv.h); say: log
 * what is read. */
json_t *run_external_env(struct runner *r, bool say);
void run_env_after_setup(struct runner *r);
/* What a case records of the router it ran on: OS, boot identity, tunables. */
json_t *run_router_env_brief(const json_t *env);
/* Every sender's and sink's clock against ours, and the bound on their difference. */
void run_clocks(struct runner *r, json_t *env);
/* Each box's clock offset against ours, for the start instant handed to it. */
void run_box_offsets(struct runner *r);
/* The results document's environment object. */
json_t *run_environment(struct runner *r);
/* Each ssh box and hook destination reached once before anything is measured. */
int run_reach_all(struct runner *r);
/* Each ssh box's ppslab version against this host's, before anything is measured:
 * env is the environment just collected (collected) or a resumed file's (the
 * versions are then asked again). 0, or EX_CONFIG: another release, refused. */
int run_versions(struct runner *r, json_t *env, bool collected);

/* run_rig.c: the rig's own ceiling (calibration and the direct run), or NULL */
json_t *run_rig_measure(struct runner *r);

/* run_case.c: below run.c (it calls nothing there, and saves through r->save) */
/* Runs one case into c (the case object already in the document). Returns
 * 0, -EINTR, or -EIO (the case failed: its status says so). */
int run_case(struct runner *r, const struct plan_case *pc, json_t *c);
/* run_latency.c: below run_case.c. Latency at load after a search (sr): a trial at each
 * of trial.latency_loads percent of its NDR into c's latency_at_load, its trials
 * numbered on from *seq and checked with cc, a failed check as a flag into flags.
 * 0; -EINTR; -EIO (err says why); -ENOMEM. */
struct search_res;
struct check_ctx;
int run_latency(struct runner *r, const struct plan_case *pc, json_t *c,
		const struct search_res *sr, const struct check_ctx *cc, int *seq,
		json_t *flags, char *err, size_t errlen);
/* The case's metrics (after case_done) from its latency_at_load: per load
 * latload.PCT[.sSIZE][.stN].{p50,p999,pdv}_ns, the size and stream named only where a
 * load has several (an IMIX; both directions), so that table, plot, compare and trend
 * take them as any metric, across cells of different sizes too. */
void run_latency_metrics(json_t *c);
/* --dry-run: a warning line for each setting of an external router nothing reads back. */
void run_warn_unread(const struct profile *p);

/* run_print.c, from the document, never the run: the summary and the rule-cost fits
 * into the document root (saved as out); the table and the plot the profile's output
 * asks for (or o's --plot), or the single cell's metrics. */
void run_finish_outputs(json_t *root, const char *out);
void run_print_table_plot(const struct profile *p, const struct run_opts *o, const char *out,
			  const json_t *root);

#endif
