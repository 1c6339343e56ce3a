/* proc.h — running other programs: always as an argument vector (never through a shell
 * with interpolated values), optionally inside a network namespace, with output
 * captured and a time limit.
 *
 * Namespaced commands go through `ip netns exec NS ...`, which also remounts /sys for
 * that namespace; small writes to /proc/sys use setns() directly. */
#ifndef PPSLAB_PROC_H
#define PPSLAB_PROC_H

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
	uint64_t timeout_ns;     /* kill (TERM, then KILL after 2 s) after this; 0 = none */
	const char *cwd;         /* run in this directory, or NULL for ours */
};

/* Runs argv to completion. Returns its exit status (0..255), 128+signal if it was killed,
 * or -errno if it could not be started. */
int proc_run(char *const argv[], const struct proc_opts *o);

/* Starts argv in the background with stdout to out_path (stderr to err_path, or
 * inherited when NULL). Returns the pid or -errno. */
pid_t proc_spawn(char *const argv[], const char *netns, const char *out_path,
		 const char *err_path);
/* Waits for pid up to timeout_ns (0 = forever); on timeout sends SIGTERM, then SIGKILL
 * after 2 s. Returns the exit status as proc_run does. */
int proc_wait(pid_t pid, uint64_t timeout_ns);

/* Writes val to a /proc/sys path inside netns (fork + setns). 0 or -errno. */
int proc_ns_write(const char *netns, const char *path, const char *val);
/* True if the named network namespace exists (/run/netns/NAME). */
int proc_netns_exists(const char *netns);

#endif
