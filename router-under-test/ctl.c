/* SPDX-License-Identifier: BSD-2-Clause */
/* ctl.c — the control socket server (its own thread) and the `ppslab-rut ctl` client
 * (see ctl.h for the protocol). The server never touches forwarding state: it moves
 * bytes between the socket and the mailbox; cmd.c runs the commands on the forwarding
 * thread. */
#include "ctl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sysexits.h>
#include <unistd.h>

struct ctl {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int lfd;
	int stop_fd;                  /* eventfd: ctl_close wakes the thread */
	atomic_int gone;              /* the forwarding thread has stopped */
	pthread_t th;
	bool started;
	struct ctl_req req;
};

static void ev_write(int fd)
{
	uint64_t one = 1;
	ssize_t r = write(fd, &one, sizeof(one));
	(void)r;
}

static void ev_drain(int fd)
{
	uint64_t v;
	ssize_t r = read(fd, &v, sizeof(v));
	(void)r;
}

void ctl_complete(struct ctl_req *r)
{
	atomic_store_explicit(&r->state, CTL_DONE, memory_order_release);
	ev_write(r->done_fd);
}

struct ctl_req *ctl_mailbox(struct ctl *c)
{
	return c ? &c->req : NULL;
}

void ctl_forwarder_gone(struct ctl *c)
{
	if (c) {
		atomic_store(&c->gone, 1);
		ev_write(c->req.done_fd);
	}
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int reply(int fd, int status, const char *out, size_t outlen, const char *err,
		 size_t errlen)
{
	char hdr[64];
	int l = snprintf(hdr, sizeof(hdr), "%d %zu %zu\n", status, outlen, errlen);
	int rc = send_all(fd, hdr, (size_t)l);
	if (!rc && outlen)
		rc = send_all(fd, out, outlen);
	if (!rc && errlen)
		rc = send_all(fd, err, errlen);
	return rc;
}

static int reply_err(int fd, int status, const char *msg)
{
	char m[512];
	int l = snprintf(m, sizeof(m), "ppslab-rut: %s\n", msg);
	return reply(fd, status, "", 0, m, (size_t)l);
}

/* Waits until fd is readable or CTL_IDLE_S pass or the server stops: 1 readable,
 * 0 timeout/stop. */
static int wait_readable(struct ctl *c, int fd)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = c->stop_fd, .events = POLLIN } };
	for (;;) {
		int r = poll(p, 2, CTL_IDLE_S * 1000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (p[1].revents & POLLIN))
			return 0;
		return 1;
	}
}

/* Connection state: bytes read but not yet consumed. */
struct conn {
	int fd;
	char buf[CTL_LINE_MAX + 1];
	size_t have;
};

/* Reads one request line into line. 1 got it, 0 EOF/timeout, -1 too long. */
static int read_line(struct ctl *c, struct conn *k, char *line)
{
	for (;;) {
		char *nl = memchr(k->buf, '\n', k->have);
		if (nl) {
			size_t l = (size_t)(nl - k->buf);
			memcpy(line, k->buf, l);
			line[l] = 0;
			memmove(k->buf, nl + 1, k->have - l - 1);
			k->have -= l + 1;
			return 1;
		}
		if (k->have >= CTL_LINE_MAX)
			return -1;
		if (!wait_readable(c, k->fd))
			return 0;
		ssize_t r = read(k->fd, k->buf + k->have, CTL_LINE_MAX - k->have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		k->have += (size_t)r;
	}
}

/* Reads exactly n bytes of payload (some may already be buffered). 0 or -1. */
static int read_data(struct ctl *c, struct conn *k, char *dst, size_t n)
{
	size_t got = k->have < n ? k->have : n;
	memcpy(dst, k->buf, got);
	memmove(k->buf, k->buf + got, k->have - got);
	k->have -= got;
	while (got < n) {
		if (!wait_readable(c, k->fd))
			return -1;
		ssize_t r = read(k->fd, dst + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* Hands the request in c->req to the forwarding thread and waits for it. */
static int run_request(struct ctl *c)
{
	struct ctl_req *r = &c->req;
	sbuf_reset(&r->out);
	sbuf_reset(&r->err);
	r->status = 0;
	ev_drain(r->done_fd);
	if (atomic_load(&c->gone))
		return -ESHUTDOWN;
	atomic_store_explicit(&r->state, CTL_POSTED, memory_order_release);
	ev_write(r->wake_fd);
	struct pollfd p[2] = { { .fd = r->done_fd, .events = POLLIN },
			       { .fd = c->stop_fd, .events = POLLIN } };
	for (;;) {
		if (atomic_load_explicit(&r->state, memory_order_acquire) == CTL_DONE) {
			atomic_store(&r->state, CTL_IDLE);
			return 0;
		}
		if (atomic_load(&c->gone) || (p[1].revents & POLLIN)) {
			/* nobody will run it: take it back (the forwarder never will) */
			int expect = CTL_POSTED;
			if (atomic_compare_exchange_strong(&r->state, &expect, CTL_IDLE))
				return -ESHUTDOWN;
			continue;   /* it completed meanwhile */
		}
		if (poll(p, 2, 1000) > 0 && (p[0].revents & POLLIN))
			ev_drain(r->done_fd);
	}
}

static void serve(struct ctl *c, int fd)
{
	struct conn *k = calloc(1, sizeof(*k));
	struct ctl_req *r = &c->req;
	if (!k)
		return;
	k->fd = fd;
	for (;;) {
		int got = read_line(c, k, r->line);
		if (got == 0)
			break;
		if (got < 0) {
			char m[128];
			snprintf(m, sizeof(m), "control line longer than %d bytes", CTL_LINE_MAX);
			reply_err(fd, EX_USAGE, m);
			break;
		}
		size_t l = strlen(r->line);
		if (l && r->line[l - 1] == '\r')
			r->line[--l] = 0;
		r->data = NULL;
		r->datalen = 0;
		if (!strncmp(r->line, "load ", 5)) {
			char *end;
			errno = 0;
			unsigned long long n = strtoull(r->line + 5, &end, 10);
			if (end == r->line + 5 || *end != ' ' || errno || n > CTL_LOAD_MAX) {
				reply_err(fd, EX_USAGE, "load: expected 'load LENGTH ipfw [-q] NAME' "
							"with LENGTH at most 64 MiB");
				break;
			}
			r->data = malloc((size_t)n + 1);
			if (!r->data) {
				reply_err(fd, EX_OSERR, "load: out of memory");
				break;
			}
			if (read_data(c, k, r->data, (size_t)n)) {
				free(r->data);
				r->data = NULL;
				break;
			}
			r->data[n] = 0;
			r->datalen = (size_t)n;
		}
		int rc = run_request(c);
		free(r->data);
		r->data = NULL;
		if (rc == -ESHUTDOWN) {
			reply_err(fd, EX_UNAVAILABLE, "the forwarder is not running");
			break;
		}
		if (r->out.overflow)
			sbuf_cat(&r->err, "ppslab-rut: reply too large, cut\n");
		if (reply(fd, r->status, sbuf_data(&r->out), r->out.len, sbuf_data(&r->err),
			  r->err.len))
			break;
	}
	free(k);
}

static bool peer_allowed(int fd)
{
	struct ucred cr;
	socklen_t l = sizeof(cr);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) < 0)
		return false;
	return cr.uid == 0 || cr.uid == geteuid();
}

static void *ctl_thread(void *arg)
{
	struct ctl *c = arg;
	struct pollfd p[2] = { { .fd = c->lfd, .events = POLLIN }, { .fd = c->stop_fd, .events = POLLIN } };
	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents & POLLIN)
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		int fd = accept4(c->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (!peer_allowed(fd))
			reply_err(fd, EX_NOPERM, "permission denied: not the forwarder's user or root");
		else
			serve(c, fd);
		close(fd);
	}
	return NULL;
}

/* A socket file at path: is somebody listening? */
static bool socket_alive(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return true;
	int alive = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0 ||
		    errno != ECONNREFUSED;
	close(fd);
	return alive;
}

int ctl_open(struct ctl **out, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int rc;
	*out = NULL;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: a control socket path is at most %zu bytes", path,
			 sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	struct ctl *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->lfd = c->stop_fd = c->req.wake_fd = c->req.done_fd = -1;
	snprintf(c->path, sizeof(c->path), "%s", path);
	sbuf_init(&c->req.out, CTL_REPLY_MAX);
	sbuf_init(&c->req.err, 1 << 20);
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "%s exists and is not a socket", path);
			rc = -EEXIST;
			goto fail;
		}
		if (socket_alive(&sa)) {
			snprintf(err, errlen, "%s: another process is listening there", path);
			rc = -EADDRINUSE;
			goto fail;
		}
		unlink(path);              /* stale: left by a forwarder that crashed */
	}
	c->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	c->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	c->req.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	c->req.done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->lfd < 0 || c->stop_fd < 0 || c->req.wake_fd < 0 || c->req.done_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "control socket: %s", strerror(errno));
		goto fail;
	}
	/* owner-only from the start: no window in which others could connect */
	mode_t old = umask(0177);
	rc = bind(c->lfd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc < 0 || chmod(path, 0600) < 0 || listen(c->lfd, 8) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (pthread_create(&c->th, NULL, ctl_thread, c)) {
		rc = -EAGAIN;
		snprintf(err, errlen, "cannot start the control thread");
		unlink(path);
		goto fail;
	}
	c->started = true;
	*out = c;
	return 0;
fail:
	ctl_close(c);
	return rc;
}

void ctl_close(struct ctl *c)
{
	if (!c)
		return;
	if (c->started) {
		atomic_store(&c->gone, 1);
		ev_write(c->stop_fd);
		pthread_join(c->th, NULL);
		unlink(c->path);
	}
	if (c->lfd >= 0)
		close(c->lfd);
	if (c->stop_fd >= 0)
		close(c->stop_fd);
	if (c->req.wake_fd >= 0)
		close(c->req.wake_fd);
	if (c->req.done_fd >= 0)
		close(c->req.done_fd);
	sbuf_free(&c->req.out);
	sbuf_free(&c->req.err);
	free(c);
}

/* ---- client ---- */

static int read_all(int fd, char *dst, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, dst + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

/* ipfw(8): "if the last argument is an absolute pathname, interpret it as a file". */
static const char *ipfw_file_arg(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[0], "ipfw") || argv[argc - 1][0] != '/')
		return NULL;
	for (int i = 1; i < argc - 1; i++)
		if (argv[i][0] != '-')
			return NULL;
	return argv[argc - 1];
}

static char *slurp(const char *path, size_t *len, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f) {
		snprintf(msg, msglen, "ipfw: pathname: %s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > CTL_LOAD_MAX + 1)
				cap = CTL_LOAD_MAX + 1;
			char *nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0 || n > CTL_LOAD_MAX)
			break;
	}
	int bad = ferror(f) || n > CTL_LOAD_MAX || !buf;
	fclose(f);
	if (bad) {
		snprintf(msg, msglen, "ipfw: %s: %s", path,
			 n > CTL_LOAD_MAX ? "larger than 64 MiB" : "read error");
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int ctl_client(const char *path, int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char line[CTL_LINE_MAX + 2], msg[512];
	size_t l = 0;
	char *data = NULL;
	size_t datalen = 0;
	int status = EX_UNAVAILABLE;

	if (argc < 1) {
		fprintf(stderr, "ppslab-rut ctl: give a command: sysctl, ipfw or stats\n");
		return EX_USAGE;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "ppslab-rut ctl: %s: path too long\n", path);
		return EX_USAGE;
	}
	strcpy(sa.sun_path, path);
	const char *file = ipfw_file_arg(argc, argv);
	if (file) {
		data = slurp(file, &datalen, msg, sizeof(msg));
		if (!data) {
			fprintf(stderr, "%s\n", msg);
			return EX_USAGE;
		}
		l = (size_t)snprintf(line, sizeof(line), "load %zu", datalen);
		argc--;                          /* the words before the file name, then it */
	}
	for (int i = 0; i <= argc; i++) {
		const char *w = i < argc ? argv[i] : file;
		if (!w)
			break;
		if (strchr(w, '\n')) {
			fprintf(stderr, "ppslab-rut ctl: an argument contains a newline\n");
			free(data);
			return EX_USAGE;
		}
		size_t wl = strlen(w);
		if (l + wl + 1 > CTL_LINE_MAX) {
			fprintf(stderr, "ppslab-rut ctl: the command is longer than %d bytes\n",
				CTL_LINE_MAX);
			free(data);
			return EX_USAGE;
		}
		if (l)
			line[l++] = ' ';
		memcpy(line + l, w, wl);
		l += wl;
	}
	line[l++] = '\n';
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;
		fprintf(stderr, "ppslab-rut ctl: %s: %s%s\n", path, strerror(e),
			e == ENOENT || e == ECONNREFUSED ? " (is ppslab-rut running with --ctl there?)" : "");
		if (fd >= 0)
			close(fd);
		free(data);
		return e == EACCES || e == EPERM ? EX_NOPERM : EX_UNAVAILABLE;
	}
	int se = send_all(fd, line, l);
	if (!se && datalen)
		se = send_all(fd, data, datalen);
	if (se && se != -EPIPE && se != -ECONNRESET) {
		fprintf(stderr, "ppslab-rut ctl: %s: send: %s\n", path, strerror(-se));
		goto out;
	}
	/* on EPIPE the server has answered (and closed) already, e.g. to refuse us */
	/* the reply header, byte by byte (it is short), then both bodies */
	char hdr[64];
	size_t h = 0;
	while (h < sizeof(hdr) - 1) {
		ssize_t r = read(fd, hdr + h, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (hdr[h++] == '\n')
			break;
	}
	hdr[h] = 0;
	int st;
	size_t ol, el;
	if (sscanf(hdr, "%d %zu %zu", &st, &ol, &el) != 3 || ol > CTL_REPLY_MAX + 4096 ||
	    el > CTL_REPLY_MAX) {
		fprintf(stderr, "ppslab-rut ctl: %s: no valid reply\n", path);
		goto out;
	}
	char *body = malloc(ol + el + 1);
	if (!body || read_all(fd, body, ol + el)) {
		fprintf(stderr, "ppslab-rut ctl: %s: reply cut short\n", path);
		free(body);
		goto out;
	}
	write_all(1, body, ol);
	write_all(2, body + ol, el);
	free(body);
	status = st;
out:
	close(fd);
	free(data);
	return status;
}
