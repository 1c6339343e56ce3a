/* SPDX-License-Identifier: BSD-2-Clause */
/* t_proc.c — proc_spawn_pipes: a child answers a line for each line it is sent, its
 * stderr is not ours, it ends when its stdin closes, a program that cannot start is
 * status 127 and end of file, never a hang. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "clock.h"
#include "proc.h"
#include "tap.h"

#define SEC 1000000000ULL

static void t_dialogue(void)
{
	char *const argv[] = { proc_arg("sh"), proc_arg("-c"),
			       proc_arg("echo noise >&2; while read l; do echo \"got $l\"; done"),
			       NULL };
	int in = -2, out = -2;
	char line[64];
	pid_t pid = proc_spawn_pipes(argv, &in, &out);
	T_TRUE(pid > 0);
	T_TRUE(in >= 0 && out >= 0);
	T_TRUE(fcntl(in, F_GETFD) & FD_CLOEXEC);
	T_TRUE(fcntl(out, F_GETFD) & FD_CLOEXEC);
	T_EQ_INT(write(in, "x\n", 2), 2);
	T_EQ_INT(proc_read_line(out, line, sizeof(line), mono_ns() + 10 * SEC), 0);
	T_STREQ(line, "got x");     /* the stderr line went elsewhere */
	T_EQ_INT(write(in, "y\n", 2), 2);
	T_EQ_INT(proc_read_line(out, line, sizeof(line), mono_ns() + 10 * SEC), 0);
	T_STREQ(line, "got y");
	close(in);                   /* end of file: the loop ends */
	T_EQ_INT(proc_read_line(out, line, sizeof(line), mono_ns() + 10 * SEC), -EIO);
	T_EQ_INT(proc_wait(pid, 10 * SEC), 0);
	close(out);
}

static void t_cannot_start(void)
{
	char *const argv[] = { proc_arg("/nonexistent/ppslab-t_proc"), NULL };
	int in, out;
	char line[64];
	pid_t pid = proc_spawn_pipes(argv, &in, &out);
	T_TRUE(pid > 0);
	T_EQ_INT(proc_read_line(out, line, sizeof(line), mono_ns() + 10 * SEC), -EIO);
	T_EQ_INT(proc_wait(pid, 10 * SEC), 127);
	close(in);
	close(out);
}

int main(void)
{
	T_RUN(t_dialogue);
	T_RUN(t_cannot_start);
	return t_done();
}
