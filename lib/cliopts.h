/* SPDX-License-Identifier: BSD-2-Clause */
/* cliopts.h — one command-line layer over opt.h for the packet programs (ppslab-gen,
 * ppslab-sink, ppslab-rut) and the analyzer's commands.
 *
 * cli_parse answers --help and --version from the option table and hands every other
 * option to the program's own handler, except the options the three packet programs
 * share (CLI_OPT_*: --interval, --json, --ready-fd, --user, --quiet, --verbose), which
 * it stores in a struct cli_common when the caller passes one. The options are told by
 * their long name, so a table may put them anywhere. */
#ifndef PPSLAB_LIB_CLIOPTS_H
#define PPSLAB_LIB_CLIOPTS_H

#include <stdint.h>

#include "clock.h"
#include "opt.h"
#include "priv.h"
#include "ready.h"

/* The shared option table entries, each as --help prints it. */
#define CLI_OPT_INTERVAL { "interval", 'I', "DUR", "report interval (default 1s)" }
#define CLI_OPT_JSON { "json", 'j', NULL, "JSON lines: ready, one per interval, then a summary" }
#define CLI_OPT_READY_FD(help) { "ready-fd", 0, "N", help }
#define CLI_OPT_USER(help) { "user", 0, "NAME", help }
#define CLI_USER_HELP "after opening the ports, drop root to user NAME (uid, gid, groups; " \
	"no capabilities)"
#define CLI_OPT_QUIET { "quiet", 'q', NULL, "only errors on stderr" }
#define CLI_OPT_VERBOSE { "verbose", 'v', NULL, "more diagnostics on stderr" }
#define CLI_OPT_VERSION { "version", 'V', NULL, "print the version" }
#define CLI_OPT_HELP { "help", 'h', NULL, "this help" }

/* What the shared options set. */
struct cli_common {
	uint64_t interval_ns;   /* --interval, 10ms..1h */
	int json;               /* --json */
	int verbose;            /* the log level: 0 with --quiet, one more per --verbose */
	int ready_fd;           /* --ready-fd, or -1 */
	const char *user;       /* --user, or NULL */
	struct priv_user pu;    /* --user resolved by cli_user_lookup */
};
#define CLI_COMMON_INIT { .interval_ns = NS_PER_S, .verbose = 1, .ready_fd = -1 }

/* One program or command: its name, usage and option table, and its own options. */
struct cli_prog {
	const char *name;        /* "ppslab-gen": --version's first word, the log prefix */
	const char *synopsis;    /* --help's usage line(s) */
	const struct opt_def *defs;
	/* As opt_parse's handler: 0, or a sysexits code to stop with. */
	int (*handle)(int key, const char *arg, int idx, void *ctx);
	void *ctx;
};

/* cli_parse's answer to --help and --version, printed on stdout: exit with EX_OK. */
#define CLI_DONE (-1)

/* Parses argv[1..] by p->defs. With c, the shared options fill *c and the log level is
 * set to c->verbose (log_init) once all are read. With first, *first is the index of the
 * first operand; without, any operand is refused ("unexpected argument"). Returns 0,
 * CLI_DONE, or a sysexits code after a message (unknown option, bad value). */
int cli_parse(const struct cli_prog *p, int argc, char **argv, struct cli_common *c,
	      int *first);

/* Sets the help of option name to "WHAT: " and the port specs this build takes
 * (port_specs_help(dir, l2_only)). The text is kept in one static buffer: once per
 * program. */
void cli_port_help(struct opt_def *defs, const char *name, const char *what, unsigned dir,
		   int l2_only);

/* Resolves --user, if given, before anything is opened: 0, or EX_NOUSER (unknown user)
 * or EX_USAGE after a message naming --user. */
int cli_user_lookup(struct cli_common *c);

/* --cpus LIST: CPU numbers this process may run on, comma-separated, at most max of them,
 * into cpus[0..*n). A sysexits status, the culprit named on stderr: an empty item (by
 * its position), a number that is not a CPU, more than max, a CPU outside this
 * process's affinity. */
int cli_cpus(const char *arg, int *cpus, unsigned max, unsigned *n);

/* ready_init(r, tool) with --json, --quiet and --ready-fd of c; the descriptor passes
 * to r (c->ready_fd becomes -1), which ready_announce closes. */
void cli_ready_init(struct ready *r, const char *tool, struct cli_common *c);

/* ready_announce on stdout and stderr; a descriptor nobody reads is only warned of. */
void cli_ready_announce(struct ready *r);

#endif
