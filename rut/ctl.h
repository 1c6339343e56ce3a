/* SPDX-License-Identifier: BSD-2-Clause */
/* ctl.h — the control socket of ppslab-rut (--ctl PATH) and its client
 * (`ppslab-rut ctl PATH COMMAND ...`).
 *
 * Protocol (UNIX stream socket, text, one request after another on a connection):
 *   request:  a line of at most CTL_LINE_MAX bytes ending in '\n': the command words
 *             separated by single spaces ("sysctl kern.polling.pollhz=4000",
 *             "ipfw -q add 100 deny ip from any to 10.0.0.1", "stats");
 *             or "load LENGTH ipfw [-q] [-per-rule] NAME\n" followed by exactly LENGTH bytes (at
 *             most CTL_LOAD_MAX): the contents of a rule file NAME, as ipfw(8) reads
 *             commands from a file.
 *   reply:    a line "STATUS OUTLEN ERRLEN\n", then OUTLEN bytes of standard output
 *             and ERRLEN bytes of standard error: STATUS is the exit status the BSD
 *             tool would have had, and the client exits with it.
 * The socket is created with mode 0600; a connecting process must have the
 * forwarder's uid or be root (SO_PEERCRED), else it gets status 77 and is closed. A
 * request line longer than CTL_LINE_MAX is answered with status 64 and the connection
 * closed; one with a NUL byte is answered with status 64 and nothing of it runs; a
 * connection idle for CTL_IDLE_S seconds is closed, and so is one that has not taken
 * its reply within 10 s.
 *
 * Threads: the control thread owns the socket and serves every client from one poll
 * loop over non-blocking sockets (none can hold up another); it hands each complete
 * request, in order, to the forwarding thread through a one-slot mailbox (struct
 * ctl_req) and is woken by its completion. The
 * forwarding thread looks at the mailbox at its batch or tick boundaries (one atomic
 * load), runs the command (cmd.c) and completes it, so forwarding never stops for
 * longer than the command itself and the engines it touches need no locks. */
#ifndef PPSLAB_RUT_CTL_H
#define PPSLAB_RUT_CTL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "sbuf.h"

#define CTL_LINE_MAX 4096
#define CTL_LOAD_MAX (64u << 20)
#define CTL_IDLE_S 10
#define CTL_REPLY_MAX (256u << 20)   /* a reply larger than this is cut and says so */

enum ctl_state { CTL_IDLE = 0, CTL_POSTED = 1, CTL_DONE = 2 };

/* The mailbox. Written by the control thread while IDLE, by the forwarding thread
 * while POSTED; the state change is the hand-over (release/acquire). */
struct ctl_req {
	atomic_int state;
	char line[CTL_LINE_MAX + 1];   /* the request line, without '\n' */
	char *data;                    /* load: the file contents */
	size_t datalen;
	struct sbuf out, err;
	int status;
	int wake_fd;    /* eventfd the control thread writes on posting (intr mode waits on it) */
	int done_fd;    /* eventfd the forwarding thread writes on completion */
};

struct ctl;

/* Creates the socket at path (a stale socket left by a crash is replaced; a live one
 * or another file is an error) and starts the control thread. 0 or -errno with a
 * message in err. */
int ctl_open(struct ctl **out, const char *path, char *err, size_t errlen);
struct ctl_req *ctl_mailbox(struct ctl *c);
/* The forwarding thread has stopped: pending and later requests are answered with
 * status 69 (EX_UNAVAILABLE). */
void ctl_forwarder_gone(struct ctl *c);
/* Before dropping root (--user): a process that stays root, holds nothing of the
 * forwarder's and removes the socket file once the forwarder has ended, however it
 * ended (the user may not be allowed to remove it from its directory). 0 or -errno. */
int ctl_guard(struct ctl *c);
/* Stops the thread, closes and unlinks the socket (and ends the guard). */
void ctl_close(struct ctl *c);

/* Forwarding-thread side: a request is waiting. */
static inline bool ctl_pending(struct ctl_req *r)
{
	return r && atomic_load_explicit(&r->state, memory_order_acquire) == CTL_POSTED;
}
/* Forwarding-thread side: r->status, out and err are set; hand the reply back. */
void ctl_complete(struct ctl_req *r);

/* The client: sends argv (COMMAND ARGS...) to the forwarder at path, copies the reply
 * to stdout/stderr and returns the exit status (69 when it cannot connect, 77 when
 * not allowed, 64 for a bad command line). */
int ctl_client(const char *path, int argc, char **argv);

#endif
