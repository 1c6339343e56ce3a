/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.h — conventions shared by the four mains: sysexits codes, one error message shape
 * ("PROG: --opt VALUE: expected ..."), and the benchmark-address guard (RFC 6815). */
#ifndef PPSLAB_LIB_CLI_H
#define PPSLAB_LIB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sysexits.h>

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

#endif
