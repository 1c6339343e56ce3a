/* SPDX-License-Identifier: BSD-2-Clause */
/* proc.h — running other programs: always as an argument vector (never through a shell
 * with interpolated values), optionally inside a network namespace, with output
 * captured and a time limit.
 *
 * Namespaced commands go through `ip netns exec NS ...`, which also remounts /sys for
 * that namespace; small writes to /proc/sys use setns() directly. */
#ifndef PPSLAB_LIB_PROC_H
#define PPSLAB_LIB_PROC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_opts {
	const char *netns;       /* run inside this named network namespace, or NULL */
	const char *stdin_data;  /* written to the child's stdin, or NULL for /dev/null */
	char *out;               /* captured stdout (and stderr if merge_err), NUL-terminated */
	size_t outlen;
	int merge_err;           /* capture stderr into out too */
	int quiet_err;           /* discard stderr (when not merged) */
	const char *err_path;    /* stderr to this file (when not merged), or NULL; in a
				  * directory only the caller can write, as proc_spawn's */
	uint64_t timeout_ns;     /* kill (TERM, then KILL after 2 s) after this; 0 = none */
	const char *cwd;         /* run in this directory, or NULL for ours */
};

/* A string for an argument vector. execvp(3) takes char *const[] for history's sake and
 * never writes the strings, so a const string may stand in one; this is the one place
 * that says so (the build warns on a cast that drops const). */
static inline char *proc_arg(const char *s)
{
	union {
		const char *c;
		char *m;
	} u = { .c = s };
	return u.m;
}

/* Runs argv to completion. Returns its exit status (0..255), 128+signal if it was killed,
 * or -errno if it could not be started. */
int proc_run(char *const argv[], const struct proc_opts *o);

/* Starts argv in the background with stdout to out_path (stderr to err_path, or
 * inherited when NULL). Returns the pid or -errno. The output files are opened by name
 * (O_NOFOLLOW, truncated), so they belong in a directory only the caller can write: the
 * run's own mkdtemp directory. */
pid_t proc_spawn(char *const argv[], const char *netns, const char *out_path,
		 const char *err_path);
/* The same with the child's stdin a pipe whose write end goes to *in_fd (close-on-exec):
 * closing it gives the child end of file (box_cmd_stoppable(): the remote tool stops). */
pid_t proc_spawn_in(char *const argv[], const char *netns, const char *out_path,
		    const char *err_path, int *in_fd);
/* Starts argv (no namespace) talking over two pipes: *in_fd gets the write end of its
 * stdin, *out_fd the read end of its stdout (both close-on-exec here); its stderr is
 * /dev/null. Returns the pid, or -errno with both set to -1: a probe or counter reader
 * on a box, which answers a line for each line it is sent. */
pid_t proc_spawn_pipes(char *const argv[], int *in_fd, int *out_fd);
/* Waits for pid up to timeout_ns (0 = forever); on timeout sends SIGTERM, then SIGKILL
 * after 2 s. Returns the exit status as proc_run does. */
int proc_wait(pid_t pid, uint64_t timeout_ns);

/* Waits until pid (our child, started by proc_spawn with its stdout to out_path) has
 * printed its ready record there (lib/ready.h: the JSON line of --json), for at most
 * timeout_ns, or until *stop (may be NULL) is set. Works alike for a tool on this host,
 * in a namespace or behind ssh, whose stdout ssh copies into the same file.
 * Returns 0 when the record is there, -ECHILD when pid ended without it, -ETIMEDOUT,
 * or -EINTR (*stop). *status is -1 while pid runs, else its exit status as proc_wait
 * gives it (the child was reaped: a tool that was ready and already finished, or one
 * that ended first). */
int proc_wait_ready(pid_t pid, const char *out_path, uint64_t timeout_ns,
		    volatile sig_atomic_t *stop, int *status);

/* The start of a text file (a tool's stderr) for a message: up to len - 1 bytes, line
 * breaks shown as " | ", trailing blank lines dropped; "" when it is empty or absent. */
void proc_file_text(const char *path, char *buf, size_t len);

/* Writes val to a /proc/sys path inside netns (fork + setns). 0 or -errno. */
int proc_ns_write(const char *netns, const char *path, const char *val);
/* True if the named network namespace exists (/run/netns/NAME). */
int proc_netns_exists(const char *netns);

/* Reads one line from fd (a child's pipe) into buf without its newline, waiting until
 * deadline (mono_ns()). 0; -ETIMEDOUT at the deadline; -EIO at end of file or error. */
int proc_read_line(int fd, char *buf, size_t len, uint64_t deadline);

#endif
