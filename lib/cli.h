/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.h — conventions shared by the four mains: sysexits codes, one error message shape
 * ("PROG: --opt VALUE: expected ..."), the benchmark-address guard (RFC 6815), and the
 * option rows (opt.h) and helpers the packet programs share: --interval, --json,
 * --ready-fd, --user, --quiet, --verbose into a struct cli_common, --cpus, the port help
 * and the ready announcement. */
#ifndef PPSLAB_LIB_CLI_H
#define PPSLAB_LIB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sysexits.h>

#include "clock.h"
#include "opt.h"
#include "priv.h"
#include "ready.h"

/* Logs "--name VALUE: expected WHAT" and returns EX_USAGE. */
int cli_bad(const char *name, const char *value, const char *what);
/* The same message written to err, for modules that parse option words (a NULL value
 * reads "(none)"); returns -EINVAL. */
int cli_bad_text(char *err, size_t errlen, const char *name, const char *value,
		 const char *what);

/* True for addresses a blast may go to without --allow-any-dst: 198.18.0.0/15 (RFC 2544
 * benchmarking range, RFC 6815) and loopback 127.0.0.0/8 (cannot leak). */
bool cli_dst_allowed(uint32_t addr_be);

/* The position (from 1) of the first empty item of a comma list ("64,,1518": 2; "a,": 2;
 * "": 1), or 0 when every item has text. */
unsigned cli_list_empty(const char *list);

/* --ready-fd ARG (ready.h): 0 with *fd set, or EX_USAGE after a message that names the
 * option and what is wrong with ARG. Checked while the options are read, before
 * anything is opened. */
int cli_ready_fd(const char *arg, int *fd);

/* Maps a -errno from a module to a sysexits code. */
int cli_exit_code(int neg_errno);

/* What the shared options set; a program's option struct holds it as member com. */
struct cli_common {
	uint64_t interval_ns;   /* --interval */
	int json;               /* --json */
	int verbose;            /* the log level: 0 with --quiet, one more per --verbose */
	int ready_fd;           /* --ready-fd, or -1 */
	const char *user;       /* --user, or NULL */
	struct priv_user pu;    /* --user resolved by cli_user_lookup */
};
#define CLI_COMMON_INIT { .verbose = 1, .ready_fd = -1 }

/* The shared option rows of a struct T with a member com, each as --help prints it. */
#define CLI_OPT_INTERVAL(T) { "interval", 'I', "DUR", "report interval", OPT_DURATION, \
	OPT_AT(T, com.interval_ns), .min = 10 * NS_PER_MS, .max = 3600 * NS_PER_S,      \
	.def = "1s", .what = "an interval from {min} to {max}" }
#define CLI_OPT_JSON(T) { "json", 'j', NULL, "JSON lines: ready, one per interval, then a " \
	"summary", OPT_FLAG, OPT_AT(T, com.json) }
#define CLI_OPT_READY_FD(T, help) { "ready-fd", 0, "N", help, OPT_FN,                  \
	OPT_AT(T, com.ready_fd), .fn = cli_opt_ready_fd }
#define CLI_OPT_USER(T, help) { "user", 0, "NAME", help, OPT_STR, OPT_AT(T, com.user) }
#define CLI_USER_HELP "after opening the ports, drop root to user NAME (uid, gid, groups; " \
	"no capabilities)"
#define CLI_OPT_QUIET(T) { "quiet", 'q', NULL, "only errors on stderr", OPT_CLEAR,        \
	OPT_AT(T, com.verbose) }
#define CLI_OPT_VERBOSE(T) { "verbose", 'v', NULL, "more diagnostics on stderr", OPT_INC, \
	OPT_AT(T, com.verbose) }

/* --ready-fd N as a row's parser (cli_ready_fd into the row's int). */
int cli_opt_ready_fd(const struct opt_def *d, const char *arg, void *base);

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
