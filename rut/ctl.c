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
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

struct ctl {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int lfd;
	int guard_fd;                 /* ctl_guard's pipe: its end makes the guard unlink */
	pid_t guard_pid;
	dev_t dev;                    /* the socket file we made */
	ino_t ino;
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

/* ---- server: one thread, a poll loop over every client ----
 *
 * Each client is a small state machine: reading its request (line, then a load's
 * bytes), waiting for the mailbox, its request on the forwarding thread, sending its
 * reply. Sockets are non-blocking, so a client that sends and never reads, or never
 * sends, costs the others nothing: the first is dropped when its reply has not been
 * taken within CTL_SEND_S, the second after CTL_IDLE_S of silence. Requests go to the
 * one-slot mailbox in the order they were complete; the forwarding thread is never
 * waited for (its completion wakes the loop through done_fd). */

#define CTL_CLIENTS_MAX 64
#define CTL_SEND_S 10

enum cl_state { CL_READ, CL_QUEUED, CL_RUNNING, CL_WRITE };

struct client {
	int fd;
	enum cl_state st;
	char buf[CTL_LINE_MAX + 1];   /* bytes read, not yet consumed */
	size_t have;
	char line[CTL_LINE_MAX + 1];  /* the complete request line */
	char *data;                   /* load: its bytes */
	size_t datalen, datagot;
	bool in_load;
	char *wbuf;                   /* the reply being sent */
	size_t wlen, woff;
	bool close_after;             /* close once the reply is sent */
	uint64_t deadline;            /* CLOCK_MONOTONIC ns: idle (reading) or send limit */
	uint64_t seq;                 /* order of complete requests */
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Queues a reply for k: header, then out and err. */
static void cl_reply(struct client *k, int status, const char *out, size_t outlen,
		     const char *err, size_t errlen)
{
	char hdr[64];
	int l = snprintf(hdr, sizeof(hdr), "%d %zu %zu\n", status, outlen, errlen);
	free(k->wbuf);
	k->wbuf = malloc((size_t)l + outlen + errlen);
	k->wlen = k->woff = 0;
	if (!k->wbuf) {   /* nothing to say it with: drop the client */
		k->close_after = true;
	} else {
		memcpy(k->wbuf, hdr, (size_t)l);
		if (outlen)
			memcpy(k->wbuf + l, out, outlen);
		if (errlen)
			memcpy(k->wbuf + l + outlen, err, errlen);
		k->wlen = (size_t)l + outlen + errlen;
	}
	k->st = CL_WRITE;
	k->deadline = now_ns() + (uint64_t)CTL_SEND_S * 1000000000u;
}

static void cl_error(struct client *k, int status, bool close_after, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void cl_error(struct client *k, int status, bool close_after, const char *fmt, ...)
{
	char m[512];
	int l = snprintf(m, sizeof(m), "ppslab-rut: ");
	va_list ap;
	va_start(ap, fmt);
	l += vsnprintf(m + l, sizeof(m) - (size_t)l - 1, fmt, ap);
	va_end(ap);
	if (l > (int)sizeof(m) - 2)
		l = (int)sizeof(m) - 2;
	m[l++] = '\n';
	cl_reply(k, status, "", 0, m, (size_t)l);
	k->close_after |= close_after;
}

static void cl_free(struct client *k)
{
	if (!k)
		return;
	close(k->fd);
	free(k->data);
	free(k->wbuf);
	free(k);
}

/* Takes what k has buffered as far as it goes: a complete request makes it CL_QUEUED,
 * a bad one gets its error reply. */
static void cl_parse(struct client *k, uint64_t *seq)
{
	if (k->in_load) {
		size_t take = k->datalen - k->datagot < k->have ? k->datalen - k->datagot : k->have;
		memcpy(k->data + k->datagot, k->buf, take);
		memmove(k->buf, k->buf + take, k->have - take);
		k->have -= take;
		k->datagot += take;
		if (k->datagot == k->datalen) {
			k->data[k->datalen] = 0;
			k->in_load = false;
			k->st = CL_QUEUED;
			k->seq = ++*seq;
		}
		return;
	}
	char *nl = memchr(k->buf, '\n', k->have);
	if (!nl) {
		if (k->have >= CTL_LINE_MAX)
			cl_error(k, EX_USAGE, true, "control line longer than %d bytes", CTL_LINE_MAX);
		return;
	}
	size_t l = (size_t)(nl - k->buf);
	bool nul = memchr(k->buf, 0, l) != NULL;
	memcpy(k->line, k->buf, l);
	k->line[l] = 0;
	memmove(k->buf, nl + 1, k->have - l - 1);
	k->have -= l + 1;
	if (nul) {   /* the part before it is not what was sent: run nothing (as rule files) */
		cl_error(k, EX_USAGE, false, "the command contains a NUL byte: refused");
		return;
	}
	if (l && k->line[l - 1] == '\r')
		k->line[--l] = 0;
	if (!strncmp(k->line, "load ", 5)) {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(k->line + 5, &end, 10);
		if (end == k->line + 5 || *end != ' ' || errno || n > CTL_LOAD_MAX ||
		    k->line[5] == '-') {
			cl_error(k, EX_USAGE, true, "load: expected 'load LENGTH ipfw [-q] NAME' with "
				 "LENGTH at most 64 MiB");
			return;
		}
		if (!(k->data = malloc((size_t)n + 1))) {
			cl_error(k, EX_OSERR, true, "load: out of memory");
			return;
		}
		k->datalen = (size_t)n;
		k->datagot = 0;
		k->in_load = true;
		cl_parse(k, seq);
		return;
	}
	k->st = CL_QUEUED;
	k->seq = ++*seq;
}

/* Reads what k sent (non-blocking) while it is reading. False: k is gone (EOF or an
 * error). */
static bool cl_read(struct client *k, uint64_t *seq)
{
	while (k->st == CL_READ) {
		/* a load's bytes go straight to their buffer once the line buffer is empty */
		bool direct = k->in_load && k->have == 0;
		char *dst = direct ? k->data + k->datagot : k->buf + k->have;
		size_t room = direct ? k->datalen - k->datagot : CTL_LINE_MAX - k->have;
		if (!room)
			return true;
		ssize_t r = read(k->fd, dst, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (r <= 0)
			return false;
		k->deadline = now_ns() + (uint64_t)CTL_IDLE_S * 1000000000u;
		if (direct)
			k->datagot += (size_t)r;
		else
			k->have += (size_t)r;
		cl_parse(k, seq);
	}
	return true;
}

/* Sends what is left of k's reply. False: k is gone, or done and to be closed. */
static bool cl_write(struct client *k, uint64_t *seq)
{
	while (k->woff < k->wlen) {
		ssize_t w = send(k->fd, k->wbuf + k->woff, k->wlen - k->woff, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (w <= 0)
			return false;
		k->woff += (size_t)w;
	}
	free(k->wbuf);
	k->wbuf = NULL;
	k->wlen = k->woff = 0;
	if (k->close_after)
		return false;
	/* the next request may be buffered already */
	k->st = CL_READ;
	k->deadline = now_ns() + (uint64_t)CTL_IDLE_S * 1000000000u;
	cl_parse(k, seq);
	return true;
}

static bool peer_allowed(int fd)
{
	struct ucred cr;
	socklen_t l = sizeof(cr);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) < 0)
		return false;
	return cr.uid == 0 || cr.uid == geteuid();
}

/* Hands k's request to the forwarding thread. */
static void post(struct ctl *c, struct client *k)
{
	struct ctl_req *r = &c->req;
	sbuf_reset(&r->out);
	sbuf_reset(&r->err);
	r->status = 0;
	memcpy(r->line, k->line, sizeof(r->line));
	r->data = k->data;
	r->datalen = k->data ? k->datalen : 0;
	k->st = CL_RUNNING;
	atomic_store_explicit(&r->state, CTL_POSTED, memory_order_release);
	ev_write(r->wake_fd);
}

/* The request of k has completed (or was taken back): its reply. */
static void finish(struct ctl *c, struct client *k, bool ran)
{
	struct ctl_req *r = &c->req;
	free(k->data);
	k->data = NULL;
	r->data = NULL;
	if (!ran) {
		cl_error(k, EX_UNAVAILABLE, true, "the forwarder is not running");
		return;
	}
	if (r->out.overflow)
		sbuf_cat(&r->err, "ppslab-rut: reply too large, cut\n");
	cl_reply(k, r->status, sbuf_data(&r->out), r->out.len, sbuf_data(&r->err), r->err.len);
}

static void *ctl_thread(void *arg)
{
	struct ctl *c = arg;
	struct ctl_req *r = &c->req;
	struct client *cl[CTL_CLIENTS_MAX] = { 0 };
	struct pollfd p[CTL_CLIENTS_MAX + 3];
	int who[CTL_CLIENTS_MAX + 3];
	struct client *running = NULL;
	uint64_t seq = 0;
	for (;;) {
		/* the forwarding thread finished (or is gone): the running request's reply */
		if (running && atomic_load_explicit(&r->state, memory_order_acquire) == CTL_DONE) {
			atomic_store(&r->state, CTL_IDLE);
			finish(c, running, true);
			running = NULL;
		}
		if (running && atomic_load(&c->gone)) {
			int expect = CTL_POSTED;
			if (atomic_compare_exchange_strong(&r->state, &expect, CTL_IDLE)) {
				finish(c, running, false);
				running = NULL;
			}
			continue;   /* else it completed meanwhile: taken above */
		}
		/* the next request in the order they came */
		if (!running) {
			struct client *next = NULL;
			for (int i = 0; i < CTL_CLIENTS_MAX; i++)
				if (cl[i] && cl[i]->st == CL_QUEUED && (!next || cl[i]->seq < next->seq))
					next = cl[i];
			if (next && atomic_load(&c->gone))
				finish(c, next, false);
			else if (next)
				post(c, running = next);
		}
		uint64_t now = now_ns(), first = UINT64_MAX;
		int n = 0;
		p[n] = (struct pollfd){ .fd = c->stop_fd, .events = POLLIN };
		who[n++] = -1;
		p[n] = (struct pollfd){ .fd = r->done_fd, .events = POLLIN };
		who[n++] = -1;
		p[n] = (struct pollfd){ .fd = c->lfd, .events = POLLIN };
		who[n++] = -1;
		for (int i = 0; i < CTL_CLIENTS_MAX; i++) {
			struct client *k = cl[i];
			if (!k)
				continue;
			if ((k->st == CL_READ || k->st == CL_WRITE) && now >= k->deadline) {
				cl_free(k);   /* silent too long, or not taking its reply */
				cl[i] = NULL;
				continue;
			}
			if (k->st == CL_READ || k->st == CL_WRITE) {
				if (k->deadline < first)
					first = k->deadline;
				p[n] = (struct pollfd){ .fd = k->fd,
							.events = k->st == CL_READ ? POLLIN : POLLOUT };
				who[n++] = i;
			}
		}
		int tmo = first == UINT64_MAX ? -1 : (int)((first - now) / 1000000u) + 1;
		int pr = poll(p, (nfds_t)n, tmo);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr <= 0)
			continue;
		if (p[0].revents & POLLIN)
			break;
		if (p[1].revents & POLLIN)
			ev_drain(r->done_fd);
		if (p[2].revents & POLLIN) {
			for (;;) {
				int fd = accept4(c->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
				if (fd < 0)
					break;
				int slot = -1;
				for (int i = 0; i < CTL_CLIENTS_MAX && slot < 0; i++)
					if (!cl[i])
						slot = i;
				struct client *k = slot >= 0 ? calloc(1, sizeof(*k)) : NULL;
				if (!k) {   /* full: it may try again */
					static const char busy[] = "69 0 44\nppslab-rut: too many control clients\n";
					ssize_t w = send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
					(void)w;
					close(fd);
					continue;
				}
				k->fd = fd;
				k->st = CL_READ;
				k->deadline = now_ns() + (uint64_t)CTL_IDLE_S * 1000000000u;
				if (!peer_allowed(fd))
					cl_error(k, EX_NOPERM, true, "permission denied: not the forwarder's "
						 "user or root");
				cl[slot] = k;
			}
		}
		for (int j = 3; j < n; j++) {
			struct client *k = cl[who[j]];
			if (!k || !p[j].revents)
				continue;
			bool keep = k->st == CL_READ ? cl_read(k, &seq)
				    : k->st == CL_WRITE ? cl_write(k, &seq) : true;
			if (keep && k->st == CL_WRITE && k->woff == 0)
				keep = cl_write(k, &seq);   /* an error reply: send it at once */
			if (!keep) {
				cl_free(k);
				cl[who[j]] = NULL;
			}
		}
	}
	if (running) {   /* stopping: take the request back, or wait for it to complete */
		int expect = CTL_POSTED;
		if (!atomic_compare_exchange_strong(&r->state, &expect, CTL_IDLE))
			while (atomic_load_explicit(&r->state, memory_order_acquire) != CTL_DONE &&
			       !atomic_load(&c->gone))
				usleep(1000);   /* the forwarding thread is mid-command: its end */
		free(running->data);
		running->data = NULL;
		r->data = NULL;
	}
	for (int i = 0; i < CTL_CLIENTS_MAX; i++)
		cl_free(cl[i]);
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
	c->lfd = c->stop_fd = c->req.wake_fd = c->req.done_fd = c->guard_fd = -1;
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
	/* non-blocking: the control thread accepts until there is nobody left */
	c->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
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
	struct stat made;
	if (!rc && lstat(path, &made) == 0) {
		c->dev = made.st_dev;
		c->ino = made.st_ino;
	}
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

/* The guard process: waits for the forwarder to end (its pipe's end), then removes
 * the socket file if it is still the one the forwarder made. */
static void guard_main(int rfd, const char *path, dev_t dev, ino_t ino)
{
	signal(SIGINT, SIG_IGN);   /* Ctrl-C reaches the whole group: outlive the forwarder */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_NAME, "ppslab-rut-ctl");
	prctl(PR_SET_PDEATHSIG, 0);
	char b;
	while (read(rfd, &b, 1) < 0 && errno == EINTR)
		;
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == dev && st.st_ino == ino)
		unlink(path);
	_exit(0);
}

int ctl_guard(struct ctl *c)
{
	int p[2];
	if (!c || pipe2(p, O_CLOEXEC) < 0)
		return c ? -errno : 0;
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		/* nothing of the forwarder's stays open here: its ports, its socket */
		for (int fd = 3; fd < 65536; fd++)
			if (fd != p[0])
				close(fd);
		guard_main(p[0], c->path, c->dev, c->ino);
	}
	close(p[0]);
	c->guard_fd = p[1];
	c->guard_pid = pid;
	return 0;
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
	if (c->guard_fd >= 0) {   /* the guard removes it if we could not, and ends */
		close(c->guard_fd);
		waitpid(c->guard_pid, NULL, 0);
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
		fprintf(stderr, "ppslab-rut ctl: give a command: sysctl, ipfw, stats or pause\n");
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
