/* SPDX-License-Identifier: BSD-2-Clause */
/* ready.h — how ppslab-rut, ppslab-sink and ppslab-gen say they are ready, and how a
 * waiting program finds out (docs/readiness.md is the user's description).
 *
 * A program announces readiness exactly once, at the point its main() defines:
 *   ppslab-rut   ports open, routes, neighbours and rules loaded, the forwarding thread
 *                running, the control socket listening (and root dropped, with --user);
 *   ppslab-sink  every port open and bound and its receive threads running: a frame
 *                that arrives after the announcement is counted;
 *   ppslab-gen   ports open and frames built, immediately before the first frame is
 *                sent (with --calibrate: before the first measurement's first frame).
 * The announcement is
 *   with --json  one JSON line on stdout, the first JSON line the program prints:
 *                {"schema":"ppslab/TOOL","schema_version":...,"tool":"TOOL",
 *                 "type":"ready","pid":N,"ports":["afpacket:rut0",...]}
 *                plus "ctl": PATH or null for ppslab-rut;
 *   without      one line on stderr, unless -q:
 *                "ppslab-TOOL: ready: ports SPEC, SPEC[; control socket PATH|none]";
 *   --ready-fd N additionally one byte ('\n') written to fd N, which is then closed. A
 *                reader that gets end-of-file without the byte knows the program ended
 *                before it was ready.
 * Port specs are the ports as opened, with the backend named ("rut0" is listed as
 * "afpacket:rut0", options kept), each distinct spec once, in the order first added.
 *
 * Nothing here exits; functions return 0 or -errno. */
#ifndef PPSLAB_LIB_READY_H
#define PPSLAB_LIB_READY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "port.h"

#define READY_MAX_PORTS 16
#define READY_SPEC_MAX 192

struct ready {
	const char *tool;      /* "rut", "sink", "gen": the JSON record's tool */
	bool json;             /* announce on stdout as a JSON line (--json) */
	bool quiet;            /* -q: no stderr line */
	bool has_ctl;          /* the record carries "ctl" (ppslab-rut), NULL → null */
	const char *ctl;       /* the control socket path, or NULL */
	int fd;                /* --ready-fd, or -1 */
	bool done;             /* announced: a second ready_announce does nothing */
	int nports;
	char ports[READY_MAX_PORTS][READY_SPEC_MAX];
};

/* tool: "rut", "sink" or "gen"; no fd, no ports, not announced. */
void ready_init(struct ready *r, const char *tool);

/* --ready-fd ARG: a decimal descriptor 3 or above (0..2 carry the program's own input
 * and output) that is open for writing. 0 and *fd set; -EINVAL for text that is not
 * such a number, -EBADF when it is not open, -EACCES when it is open read-only. */
int ready_fd_parse(const char *arg, int *fd);

/* Adds a spec as ready_port_add would list it: "rut0" with backend "afpacket" becomes
 * "afpacket:rut0". A spec already listed, or one past READY_MAX_PORTS, is not added
 * again (0); -ENAMETOOLONG when it does not fit. */
int ready_spec_add(struct ready *r, const char *spec, const char *backend);
/* The spec and backend of an open port. */
int ready_port_add(struct ready *r, const struct port *p);

/* The JSON record (a new reference; NULL when out of memory) and the stderr line
 * (without '\n'; truncated to len) of r, for pid. */
json_t *ready_record(const struct ready *r, long pid);
void ready_line(const struct ready *r, char *buf, size_t len);

/* Announces r once: the JSON line to out with r->json, else the stderr line to err
 * unless r->quiet; then the byte to r->fd, which is closed. Later calls do nothing.
 * Returns 0, or -errno when the byte could not be written (the reader went away): the
 * caller may warn; the program is ready all the same. A SIGPIPE from that write is
 * held and discarded, never delivered. */
int ready_announce(struct ready *r, FILE *out, FILE *err);

/* The reader's side: the ready record among the complete ('\n'-ended) lines of text
 * (text[0..len)), as a new reference, or NULL when there is none yet. */
json_t *ready_find(const char *text, size_t len);

#endif
