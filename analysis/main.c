/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c — ppslab: the analyzer's front door. Dispatches to a subcommand, like git. */
#include <stdio.h>
#include <string.h>

#include "axes.h"
#include "cli.h"
#include "cmds.h"
#include "log.h"
#include "version.h"

struct subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct subcmd subcmds[] = {
	{ "lab", cmd_lab, "make, remove or show the embedded three-namespace lab" },
	{ "run", cmd_run, "run a profile's sweep or throughput search into a results file" },
	{ "table", cmd_table, "pivot a results file's metric over two axes (text, Markdown, CSV)" },
	{ "plot", cmd_plot, "plot a results file with gnuplot (PNG, SVG, terminal)" },
	{ "compare", cmd_compare, "compare results files cell by cell: regression or noise?" },
	{ "trend", cmd_trend, "follow a cell over many runs: where did it change, and by how much?" },
	{ "report", cmd_report, "write a Markdown and HTML report of a results file" },
	{ "env", cmd_env, "print this box's environment as JSON (OS, CPU, memory, NICs)" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ppslab [-q | -v] [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (const struct subcmd *s = subcmds; s->name; s++)
		fprintf(f, "  %-10s %s\n", s->name, s->help);
	fprintf(f, "\noptions (before the command):\n"
		   "  -q, --quiet    only errors on stderr\n"
		   "  -v, --verbose  more diagnostics on stderr (-vv: debug)\n"
		   "  -V, --version  print the version\n"
		   "  -h, --help     this help\n"
		   "\n'ppslab COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
	int level = 1;

	/* Global options come before the command, as with git: -q, -v (repeatable). */
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-q") || !strcmp(argv[1], "--quiet"))
			level = 0;
		else if (!strcmp(argv[1], "-v") || !strcmp(argv[1], "--verbose"))
			level = level < 3 ? level + 1 : 3;
		else if (!strcmp(argv[1], "-vv"))
			level = 3;
		else
			break;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	log_init("ppslab", level);
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EX_OK;
	}
	if (!strcmp(argv[1], "--list-axes")) {   /* for the shell completion: not in --help */
		for (size_t i = 0; i < AX_COUNT; i++)
			printf("%s\n", axis_defs[i].name);
		return EX_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("ppslab %s\n", ppslab_version());
		return EX_OK;
	}
	for (const struct subcmd *s = subcmds; s->name; s++)
		if (!strcmp(argv[1], s->name))
			return s->fn(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		log_err("unknown option '%s' (see ppslab --help)", argv[1]);
	else
		log_err("'%s' is not a ppslab command (see ppslab --help)", argv[1]);
	return EX_USAGE;
}
