/* SPDX-License-Identifier: BSD-2-Clause */
/* ready.c — the readiness announcement and its reader (see ready.h). */
#include "ready.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jout.h"

void ready_init(struct ready *r, const char *tool)
{
	memset(r, 0, sizeof(*r));
	r->tool = tool;
	r->fd = -1;
}

int ready_fd_parse(const char *arg, int *fd)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || *arg == '+' || v < 3 || v > INT_MAX)
		return -EINVAL;
	int fl = fcntl((int)v, F_GETFL);
	if (fl < 0)
		return -EBADF;
	if ((fl & O_ACCMODE) == O_RDONLY)
		return -EACCES;
	*fd = (int)v;
	return 0;
}

int ready_spec_add(struct ready *r, const char *spec, const char *backend)
{
	char s[READY_SPEC_MAX];
	/* a backend is named before the first ':' of the part before any option */
	size_t head = strcspn(spec, ",");
	bool named = memchr(spec, ':', head) != NULL;
	int n = named || !backend || !*backend
		? snprintf(s, sizeof(s), "%s", spec)
		: snprintf(s, sizeof(s), "%s:%s", backend, spec);
	if (n < 0 || (size_t)n >= sizeof(s))
		return -ENAMETOOLONG;
	for (int i = 0; i < r->nports; i++)
		if (!strcmp(r->ports[i], s))
			return 0;
	if (r->nports < READY_MAX_PORTS)
		memcpy(r->ports[r->nports++], s, (size_t)n + 1);
	return 0;
}

int ready_port_add(struct ready *r, const struct port *p)
{
	return ready_spec_add(r, port_spec(p), port_backend(p));
}

json_t *ready_record(const struct ready *r, long pid)
{
	json_t *o = jout_obj(r->tool, "ready");
	json_t *ports = json_array();
	if (!o || !ports) {
		json_decref(o);
		json_decref(ports);
		return NULL;
	}
	jset_i64(o, "pid", pid);
	for (int i = 0; i < r->nports; i++)
		json_array_append_new(ports, json_string(r->ports[i]));
	json_object_set_new(o, "ports", ports);
	if (r->has_ctl)
		jset_s(o, "ctl", r->ctl);
	return o;
}

void ready_line(const struct ready *r, char *buf, size_t len)
{
	size_t n = 0;
	int w = snprintf(buf, len, "ppslab-%s: ready: ports ", r->tool);
	for (int i = 0; w >= 0 && i < r->nports; i++) {
		n += (size_t)w;
		if (n >= len)
			return;
		w = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", r->ports[i]);
	}
	if (w < 0 || (n += (size_t)w) >= len)
		return;
	if (r->has_ctl)
		snprintf(buf + n, len - n, "; control socket %s", r->ctl ? r->ctl : "none");
}

/* One byte to fd, then close it. A reader that went away raises SIGPIPE for this
 * thread: it is blocked around the write and the pending one taken back. */
static int ready_byte(int fd)
{
	sigset_t pipe_set, old;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	ssize_t w;
	do
		w = write(fd, "\n", 1);
	while (w < 0 && errno == EINTR);
	int rc = w == 1 ? 0 : w < 0 ? -errno : -EIO;
	if (rc == -EPIPE && !sigismember(&old, SIGPIPE)) {
		const struct timespec zero = { 0, 0 };
		while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
			;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fd);
	return rc;
}

int ready_announce(struct ready *r, FILE *out, FILE *err)
{
	if (r->done)
		return 0;
	r->done = true;
	if (r->json) {
		json_t *o = ready_record(r, (long)getpid());
		if (o)
			jout_emit(out, o);
	} else if (!r->quiet) {
		char line[READY_MAX_PORTS * (READY_SPEC_MAX + 2) + 4200];
		ready_line(r, line, sizeof(line));
		fprintf(err, "%s\n", line);
		fflush(err);
	}
	int rc = 0;
	if (r->fd >= 0) {
		rc = ready_byte(r->fd);
		r->fd = -1;
	}
	return rc;
}

json_t *ready_find(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;   /* a line still being written */
		size_t l = (size_t)(nl - p);
		if (memmem(p, l, "\"ready\"", 7)) {
			json_t *o = json_loadb(p, l, 0, NULL);
			const char *ty = json_string_value(json_object_get(o, "type"));
			if (ty && !strcmp(ty, "ready"))
				return o;
			json_decref(o);
		}
		p = nl + 1;
	}
	return NULL;
}
