/* SPDX-License-Identifier: BSD-2-Clause */
/* opt.h — one option table per program drives getopt_long and --help.
 *
 * Each entry names the long option, its short letter (0 for none), the argument's name
 * (NULL for a flag) and one line of help. The key passed to the handler is the short
 * letter, or 256 + the entry's index for long-only options. --help text is generated
 * from the same table, so it cannot drift from what is parsed. */
#ifndef PPSLAB_LIB_OPT_H
#define PPSLAB_LIB_OPT_H

#include <stdio.h>

struct opt_def {
	const char *name;   /* long name without "--" */
	int short_name;     /* 'i', or 0 */
	const char *arg;    /* "PORTSPEC", or NULL for a flag */
	const char *help;   /* NULL: an older spelling kept working, not listed by --help;
			     * give it the short letter of the option it stands for (its key) */
};

#define OPT_LONG_KEY(i) (256 + (i))

/* Parses argv with getopt_long; calls handle(key, optarg, defs index, ctx) for each
 * option. The handler returns 0, or non-zero to stop (its value is returned).
 * On an unknown option or a missing argument, logs which (log_err) and returns
 * 64 (EX_USAGE). *first_arg receives the index of the first non-option argument. */
int opt_parse(int argc, char **argv, const struct opt_def *defs,
	      int (*handle)(int key, const char *arg, int idx, void *ctx), void *ctx,
	      int *first_arg);

/* Prints "usage: SYNOPSIS" and the option table (two-column, aligned). */
void opt_usage(FILE *f, const char *synopsis, const struct opt_def *defs);

/* The key a defs entry is delivered with. */
int opt_key(const struct opt_def *defs, int idx);

/* Replaces the help of the option named name (text made at run time, such as the port
 * backends this build has). */
void opt_set_help(struct opt_def *defs, const char *name, const char *help);

#endif
