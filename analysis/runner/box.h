/* SPDX-License-Identifier: BSD-2-Clause */
/* box.h — where ppslab run starts a tool: on this host, inside a named network
 * namespace, or on another host over ssh. One function builds the argument vector for
 * all three, so the runner never cares which.
 *
 * Over ssh the remote side gets one command line that its shell splits again: every
 * word is quoted here (POSIX single quotes), so values from profiles or results are
 * never expanded by any shell, local or remote. ssh runs with the profile's
 * ssh_options first, then BatchMode=yes (no password prompt can hang a sweep), a
 * connect timeout and a keep-alive: OpenSSH keeps the first value of an option, so the
 * user's win. */
#ifndef PPSLAB_ANALYSIS_RUNNER_BOX_H
#define PPSLAB_ANALYSIS_RUNNER_BOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct box {
	const char *role;     /* "gen", "rut", "sink": for messages */
	const char *ssh;      /* [user@]host, or NULL */
	const char *netns;    /* namespace on that host, or NULL */
	const char *bin;      /* directory of the ppslab programs there, or NULL: ours */
	char *const *ssh_opts;/* extra words for ssh, NULL-terminated ({"-p", "2222", NULL}), or NULL */
};

/* A built command: argv (NULL-terminated) and the namespace to pass to proc_spawn or
 * proc_run (NULL when the vector already handles it, as over ssh). */
struct box_cmd {
	char **argv;
	const char *netns;
	size_t n, cap;
};

/* Starts a command for prog ("ppslab-gen"; a path or a name without '/' is looked up
 * in box->bin, or beside our own program when bin is NULL) on box. Then box_arg()
 * appends words; box_argf() one formatted word. All return 0 or -ENOMEM. */
int box_cmd_init(struct box_cmd *c, const struct box *b, const char *prog);
/* The same for a system command ("ip"), found by PATH there, never in box->bin. */
int box_sys_init(struct box_cmd *c, const struct box *b, const char *prog);
int box_arg(struct box_cmd *c, const char *word);
int box_argf(struct box_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Finishes the vector (for ssh: quotes every word into one remote command line).
 * 0 or -ENOMEM. */
int box_cmd_done(struct box_cmd *c, const struct box *b);
/* For a tool on an ssh box (before box_cmd_done): the remote side runs it under a shell
 * that sends it SIGINT when ssh's standard input ends, so closing that input (a pipe of
 * ours, proc_spawn_in) stops the remote tool as SIGINT stops a local one — a signal to
 * the local ssh would end only ssh. No-op on a box of this host. 0 or -ENOMEM. */
int box_cmd_stoppable(struct box_cmd *c, const struct box *b);
void box_cmd_free(struct box_cmd *c);

/* Hooks that start with ssh: a vector whose first word is "ssh" (or ".../ssh") runs
 * ssh on this host. box_ssh_wrap() makes it safe and consistent with the boxes: the
 * vector's own ssh options first, then user_opts (topology.ssh_options), then ppslab's
 * defaults (BatchMode=yes, ConnectTimeout=10, ServerAliveInterval=5; OpenSSH keeps the
 * first value of an option), the destination, "--", and every word after it quoted
 * for the remote shell and joined into one, so each arrives as one word, spaces and
 * shell characters intact. -ENOENT: not an ssh vector (run it as is); -EINVAL: no
 * destination; -ENOMEM. */
int box_ssh_wrap(char *const *av, char *const *user_opts, struct box_cmd *out);
/* The index of an ssh vector's destination word (after its options); -EINVAL if none. */
int box_ssh_dest(char *const *av, size_t *dest);
bool box_is_ssh(const char *prog);

/* POSIX shell single-quoting of s into a new string ("it's" → 'it'\''s'). */
char *box_shell_quote(const char *s);

/* The directory of the running program (/proc/self/exe), for finding its siblings. */
const char *box_self_dir(void);

#endif
