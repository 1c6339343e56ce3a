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

static const struct opt_def opts[] = {
	{ "output", 'o', "FILE", "results file (default: the profile's output.results, "
	  "else results.json)" },
	{ "set", 's', "KEY=VALUE", "override a profile key or axis, e.g. pollhz=1000,2000 or "
	  "trial.duration=1s (repeatable)" },
	{ "resume", 0, NULL, "continue an interrupted results file without repeating "
	  "finished cases" },
	{ "force", 0, NULL, "overwrite an interrupted or read-only results file" },
	{ "dry-run", 'n', NULL, "check the profile and print the plan (cells, trials, "
	  "estimated time); run nothing" },
	{ "plot", 'p', "FILE", "also write this plot at the end (.png, .svg or .txt; default: the "
	  "profile's output.plot, named after -o when -o is given)" },
	{ "no-table", 0, NULL, "do not print the table at the end" },
	{ "kill-strays", 0, NULL, "stop ppslab tools left running in the lab (e.g. by a run "
	  "killed with SIGKILL) instead of refusing to start" },
	{ "quiet", 'q', NULL, "no progress, only errors" },
	{ "verbose", 'v', NULL, "more diagnostics (repeat for more)" },
	{ "retry-failed", 0, NULL, "with --resume: run the failed cases again too" },
	{ "max-failed", 0, "N", "stop after N failed cases in a row, keeping the results "
	  "(default 10; 0: never)" },
	{ "help", 'h', NULL, "this help" },
	{ NULL, 0, NULL, NULL },
};

#define HELP_REQUESTED 1000

struct args {
	struct run_opts ro;
	size_t cap;
};

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct args *a = ctx;
	/* -r is --rows and -f --format elsewhere in ppslab: resume and force are long only */
	if (!strcmp(opts[idx].name, "resume"))
		key = 'r';
	else if (!strcmp(opts[idx].name, "force"))
		key = 'f';
	switch (key) {
	case 'o':
		a->ro.out = arg;
		break;
	case 's':
		if (!strchr(arg, '='))
			return cli_bad("set", arg, "KEY=VALUE");
		if (a->ro.nsets == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 8;
			char **v = realloc(a->ro.sets, a->cap * sizeof(*v));
			if (!v)
				return EX_OSERR;
			a->ro.sets = v;
		}
		a->ro.sets[a->ro.nsets++] = proc_arg(arg);   /* a word of argv */
		break;
	case 'r':
		a->ro.resume = true;
		break;
	case 'f':
		a->ro.force = true;
		break;
	case 'n':
		a->ro.dry_run = true;
		break;
	case 'p':
		a->ro.plot = arg;
		break;
	case 'q':
		a->ro.quiet = 1;
		log_init("ppslab", 0);
		break;
	case 'v':
		a->ro.verbose++;
		log_init("ppslab", 1 + a->ro.verbose);
		break;
	case 'h':
		return HELP_REQUESTED;
	default:
		if (!strcmp(opts[idx].name, "no-table"))
			a->ro.no_table = true;
		else if (!strcmp(opts[idx].name, "kill-strays"))
			a->ro.kill_strays = true;
		else if (!strcmp(opts[idx].name, "retry-failed"))
			a->ro.retry_failed = true;
		else if (!strcmp(opts[idx].name, "max-failed")) {
			char *e;
			unsigned long n = strtoul(arg, &e, 10);
			if (!*arg || *e || arg[0] == '-' || n > 1000000)
				return cli_bad("max-failed", arg, "a whole number 0..1000000");
			a->ro.max_failed = (unsigned)n;
		}
		break;
	}
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

int cmd_run(int argc, char **argv)
{
	struct args a = { .ro.max_failed = 10 };
	int first, rc = opt_parse(argc, argv, opts, handle, &a, &first);
	if (rc == HELP_REQUESTED) {
		opt_usage(stdout, SYNOPSIS, opts);
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
