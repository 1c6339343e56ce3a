/* SPDX-License-Identifier: BSD-2-Clause */
/* proc.c — running programs as argument vectors, in namespaces, with time limits
 * (see proc.h). Used by `ppslab lab` and by `ppslab run` for every tool it starts. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "ready.h"

#define NETNS_DIR "/run/netns/"

int proc_netns_exists(const char *netns)
{
	char path[256];
	snprintf(path, sizeof(path), NETNS_DIR "%s", netns);
	return access(path, F_OK) == 0;
}

/* argv prefixed with "ip netns exec NS" when netns is set; the vector is static per call */
static char **ns_argv(char *const argv[], const char *netns, char **buf, int cap)
{
	int n = 0;
	if (netns) {
		buf[n++] = "ip";
		buf[n++] = "netns";
		buf[n++] = "exec";
		buf[n++] = proc_arg(netns);
	}
	for (int i = 0; argv[i] && n < cap - 1; i++)
		buf[n++] = argv[i];
	buf[n] = NULL;
	return buf;
}

static int status_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 255;
}

int proc_wait(pid_t pid, uint64_t timeout_ns)
{
	int st;
	uint64_t deadline = timeout_ns ? mono_ns() + timeout_ns : 0;
	int termed = 0;
	for (;;) {
		pid_t r = waitpid(pid, &st, deadline ? WNOHANG : 0);
		if (r == pid)
			return status_of(st);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		uint64_t now = mono_ns();
		if (deadline && now >= deadline) {
			if (!termed) {
				kill(pid, SIGTERM);
				termed = 1;
				deadline = now + 2 * NS_PER_S;
			} else {
				kill(pid, SIGKILL);
				deadline = 0;   /* now wait without limit */
			}
			continue;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

/* Whether the file holds a ready record yet. Only its start is read: the record is the
 * tool's first JSON line. */
static bool has_ready(const char *path)
{
	const size_t cap = 65536;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char *buf = malloc(cap);
	if (!buf) {
		close(fd);
		return false;
	}
	size_t n = 0;
	ssize_t r;
	while (n < cap && (r = read(fd, buf + n, cap - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	json_t *rec = ready_find(buf, n);
	free(buf);
	json_decref(rec);
	return rec != NULL;
}

int proc_wait_ready(pid_t pid, const char *out_path, uint64_t timeout_ns,
		    volatile sig_atomic_t *stop, int *status)
{
	uint64_t deadline = mono_ns() + timeout_ns;
	*status = -1;
	for (;;) {
		if (has_ready(out_path))
			return 0;
		int st;
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid) {
			*status = status_of(st);
			/* it may have been ready and finished between the two looks */
			return has_ready(out_path) ? 0 : -ECHILD;
		}
		if (w < 0 && errno != EINTR)
			return -ECHILD;
		if (stop && *stop)
			return -EINTR;
		if (mono_ns() >= deadline)
			return -ETIMEDOUT;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

void proc_file_text(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	size_t n = 0;
	int c;
	while (n + 4 < len && (c = fgetc(f)) != EOF) {
		if (c == '\n') {
			memcpy(buf + n, " | ", 3);
			n += 3;
		} else {
			buf[n++] = (char)c;
		}
	}
	fclose(f);
	buf[n] = 0;
	while (n >= 3 && !strcmp(buf + n - 3, " | "))
		buf[n -= 3] = 0;
}

pid_t proc_spawn(char *const argv[], const char *netns, const char *out_path,
		 const char *err_path)
{
	return proc_spawn_in(argv, netns, out_path, err_path, NULL);
}

pid_t proc_spawn_in(char *const argv[], const char *netns, const char *out_path,
		    const char *err_path, int *in_fd)
{
	char *buf[128];
	char **av = ns_argv(argv, netns, buf, 128);
	int inp[2] = { -1, -1 };
	if (in_fd && pipe2(inp, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		if (in_fd) {
			close(inp[0]);
			close(inp[1]);
		}
		return -e;
	}
	if (pid > 0) {
		if (in_fd) {
			close(inp[0]);
			*in_fd = inp[1];
		}
		return pid;
	}
	if (pid == 0) {
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		int in = in_fd ? inp[0] : open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		if (out_path) {
			int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
			if (fd < 0)
				_exit(127);
			dup2(fd, 1);
		}
		if (err_path) {
			int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
			if (fd < 0)
				_exit(127);
			dup2(fd, 2);
		}
		execvp(av[0], av);
		fprintf(stderr, "cannot run %s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

pid_t proc_spawn_pipes(char *const argv[], int *in_fd, int *out_fd)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	pid_t pid = -1;
	*in_fd = *out_fd = -1;
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		int e = errno;
		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				close(in[i]);
			if (out[i] >= 0)
				close(out[i]);
		}
		return -e;
	}
	if (pid == 0) {
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		int dn = open("/dev/null", O_WRONLY);
		if (dn >= 0)
			dup2(dn, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*in_fd = in[1];
	*out_fd = out[0];
	return pid;
}

int proc_run(char *const argv[], const struct proc_opts *o)
{
	static const struct proc_opts none = { 0 };
	char *buf[128];
	int outp[2] = { -1, -1 }, inp[2] = { -1, -1 };
	if (!o)
		o = &none;
	char **av = ns_argv(argv, o->netns, buf, 128);
	if (o->out && pipe2(outp, O_CLOEXEC) < 0)
		return -errno;
	if (o->stdin_data && pipe2(inp, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		if (o->stdin_data)
			dup2(inp[0], 0);
		else {
			int in = open("/dev/null", O_RDONLY);
			if (in >= 0)
				dup2(in, 0);
		}
		if (o->out) {
			dup2(outp[1], 1);
			if (o->merge_err)
				dup2(outp[1], 2);
		}
		if (o->quiet_err && !o->merge_err) {
			int dn = open("/dev/null", O_WRONLY);
			if (dn >= 0)
				dup2(dn, 2);
		}
		if (o->err_path && !o->merge_err) {
			int ef = open(o->err_path,
				      O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (ef >= 0)
				dup2(ef, 2);
		}
		if (o->cwd && chdir(o->cwd) < 0) {
			fprintf(stderr, "cannot run %s in %s: %s\n", av[0], o->cwd, strerror(errno));
			_exit(127);
		}
		execvp(av[0], av);
		fprintf(stderr, "cannot run %s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	/* stdin is written while stdout is read, both within the time limit: a child that
	 * prints before it reads, or never reads at all, cannot block us */
	size_t in_len = o->stdin_data ? strlen(o->stdin_data) : 0, in_off = 0, got = 0;
	if (o->stdin_data) {
		close(inp[0]);
		signal(SIGPIPE, SIG_IGN);
		fcntl(inp[1], F_SETFL, fcntl(inp[1], F_GETFL) | O_NONBLOCK);
		if (!in_len) {
			close(inp[1]);
			inp[1] = -1;
		}
	}
	if (o->out)
		close(outp[1]);
	uint64_t deadline = o->timeout_ns ? mono_ns() + o->timeout_ns : 0;
	while (inp[1] >= 0 || outp[0] >= 0) {
		int wait_ms = -1;
		if (deadline) {
			uint64_t now = mono_ns();
			if (now >= deadline)
				break;
			wait_ms = (int)((deadline - now) / NS_PER_MS) + 1;
		}
		struct pollfd p[2];
		int np = 0, pi = -1, po = -1;
		if (inp[1] >= 0) {
			p[np] = (struct pollfd){ .fd = inp[1], .events = POLLOUT };
			pi = np++;
		}
		if (outp[0] >= 0) {
			p[np] = (struct pollfd){ .fd = outp[0], .events = POLLIN };
			po = np++;
		}
		int r = poll(p, (nfds_t)np, wait_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (pi >= 0 && p[pi].revents) {
			ssize_t w = write(inp[1], o->stdin_data + in_off, in_len - in_off);
			if (w > 0)
				in_off += (size_t)w;
			if ((w < 0 && errno != EAGAIN && errno != EINTR) || in_off >= in_len ||
			    (p[pi].revents & (POLLERR | POLLHUP))) {
				close(inp[1]);
				inp[1] = -1;
			}
		}
		if (po >= 0 && p[po].revents) {
			char tmp[4096];
			ssize_t rd = read(outp[0], tmp, sizeof(tmp));
			if (rd < 0 && errno == EINTR)
				continue;
			if (rd <= 0) {
				close(outp[0]);
				outp[0] = -1;
				continue;
			}
			size_t take = (size_t)rd;
			if (got + take >= o->outlen)
				take = o->outlen - 1 - got;
			memcpy(o->out + got, tmp, take);
			got += take;
		}
	}
	if (inp[1] >= 0)
		close(inp[1]);
	if (o->out) {
		o->out[got] = 0;
		if (outp[0] >= 0)
			close(outp[0]);
	}
	if (deadline) {   /* what is left of the limit applies to the exit too */
		uint64_t now = mono_ns();
		return proc_wait(pid, now < deadline ? deadline - now : 1);
	}
	return proc_wait(pid, o->timeout_ns);
}

int proc_ns_write(const char *netns, const char *path, const char *val)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char nspath[256];
		snprintf(nspath, sizeof(nspath), NETNS_DIR "%s", netns);
		int nfd = open(nspath, O_RDONLY | O_CLOEXEC);
		if (nfd < 0 || setns(nfd, CLONE_NEWNET) < 0)
			_exit(2);
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			_exit(3);
		size_t l = strlen(val);
		_exit(write(fd, val, l) == (ssize_t)l ? 0 : 4);
	}
	int st = proc_wait(pid, 5 * NS_PER_S);
	return st == 0 ? 0 : st == 2 ? -ENOENT : st == 3 ? -EACCES : -EIO;
}

int proc_read_line(int fd, char *buf, size_t len, uint64_t deadline)
{
	size_t n = 0;
	while (n + 1 < len) {
		uint64_t now = mono_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, (int)((deadline - now) / NS_PER_MS) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -ETIMEDOUT;
		char c;
		ssize_t got = read(fd, &c, 1);
		if (got <= 0)
			return -EIO;
		if (c == '\n')
			break;
		buf[n++] = c;
	}
	buf[n] = 0;
	return 0;
}
