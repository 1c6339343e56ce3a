/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_run.c — `ppslab run PROFILE ...`: the command line over run.c. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "log.h"
#include "opt.h"
#include "proc.h"
#include "run.h"

#define SYNOPSIS "ppslab run PROFILE [-o RESULTS] [--set KEY=VALUE]... [--resume [--retry-failed]] [--dry-run]"

struct args {
	struct run_opts ro;
	size_t cap;
};

/* --set KEY=VALUE, kept in order. */
static int opt_set(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	if (!strchr(arg, '='))
		return opt_bad(d, arg);
	if (a->ro.nsets == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		char **v = realloc(a->ro.sets, a->cap * sizeof(*v));
		if (!v)
			return EX_OSERR;
		a->ro.sets = v;
	}
	a->ro.sets[a->ro.nsets++] = proc_arg(arg);   /* a word of argv */
	return 0;
}

static volatile sig_atomic_t stop_req, stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
	stop_req = 1;
}

/* The run's handlers (run.h): Ctrl-C or SIGTERM is reported, never a silent 130 or
 * 143; interrupt: a trial's waits end at once, and a closed pipe is EPIPE, not a kill. */
static void catch_signals(bool interrupt)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = interrupt ? 0 : SA_RESTART };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (interrupt)
		signal(SIGPIPE, SIG_IGN);
}

/* --quiet and --verbose set the log level at once. */
static int opt_log(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	(void)arg;
	if (d->short_name == 'q')
		a->ro.quiet = 1;
	else
		a->ro.verbose++;
	log_init("ppslab", d->short_name == 'q' ? 0 : 1 + a->ro.verbose);
	return 0;
}

/* -r is --rows and -f --format elsewhere in ppslab: resume and force are long only */
#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "output", 'o', "FILE", "results file (default: the profile's output.results, "
	  "else results.json)", OPT_STR, A(ro.out) },
	{ "set", 's', "KEY=VALUE", "override a profile key or axis, e.g. pollhz=1000,2000 or "
	  "trial.duration=1s (repeatable)", OPT_FN, .fn = opt_set, .what = "KEY=VALUE" },
	{ "resume", 0, NULL, "continue an interrupted results file without repeating "
	  "finished cases", OPT_FLAG, A(ro.resume) },
	{ "force", 0, NULL, "overwrite an interrupted or read-only results file", OPT_FLAG,
	  A(ro.force) },
	{ "dry-run", 'n', NULL, "check the profile and print the plan (cells, trials, "
	  "estimated time); run nothing", OPT_FLAG, A(ro.dry_run) },
	{ "plot", 'p', "FILE", "also write this plot at the end (.png, .svg or .txt; default: the "
	  "profile's output.plot, named after -o when -o is given)", OPT_STR, A(ro.plot) },
	{ "no-table", 0, NULL, "do not print the table at the end", OPT_FLAG, A(ro.no_table) },
	{ "allow-version-mismatch", 0, NULL, "run although an ssh box's ppslab is another "
	  "release than this host's (warned and recorded)", OPT_FLAG, A(ro.mixed_versions) },
	{ "kill-strays", 0, NULL, "stop ppslab tools left running in the lab (e.g. by a run "
	  "killed with SIGKILL) instead of refusing to start", OPT_FLAG, A(ro.kill_strays) },
	{ "quiet", 'q', NULL, "no progress, only errors", OPT_FN, .fn = opt_log },
	{ "verbose", 'v', NULL, "more diagnostics (repeat for more)", OPT_FN, .fn = opt_log },
	{ "retry-failed", 0, NULL, "with --resume: run the failed cases again too", OPT_FLAG,
	  A(ro.retry_failed) },
	{ "max-failed", 0, "N", "stop after N failed cases in a row, keeping the results "
	  "(default {default}; 0: never)", OPT_UINT, A(ro.max_failed), .max = 1000000,
	  .def = "10" },
	OPT_HELP_ROW,
	{ NULL },
};

int cmd_run(int argc, char **argv)
{
	struct args a = { 0 };
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	int first, rc = opt_parse(&prog, argc, argv, &a, &first);
	if (rc == OPT_DONE) {
		free(a.ro.sets);
		return EX_OK;
	}
	if (rc) {
		free(a.ro.sets);
		return rc;
	}
	if (first != argc - 1) {
		log_err(first >= argc ? "run: which profile? (%s)" : "run: one profile at a time (%s)",
			SYNOPSIS);
		free(a.ro.sets);
		return EX_USAGE;
	}
	if (a.ro.retry_failed && !a.ro.resume) {
		log_err("run: --retry-failed goes with --resume (it re-runs a results file's "
			"failed cases)");
		free(a.ro.sets);
		return EX_USAGE;
	}
	a.ro.profile = argv[first];
	/* the command line, for the results file */
	size_t len = 16;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *cmd = malloc(len);
	if (cmd) {
		strcpy(cmd, "ppslab");
		for (int i = 0; i < argc; i++) {
			strcat(cmd, " ");
			strcat(cmd, argv[i]);
		}
	}
	a.ro.cmdline = cmd;
	a.ro.stop = &stop_req;
	a.ro.stop_sig = &stop_sig;
	a.ro.catch_signals = catch_signals;
	rc = run_main(&a.ro);
	free(cmd);
	free(a.ro.sets);
	return rc;
}
