/* SPDX-License-Identifier: BSD-2-Clause */
/* box.c — argument vectors for running a tool on a box (this host, a namespace, or
 * ssh). Used by the runner (run_env.c, run_rig.c, trial*.c, dut*.c). See box.h. */
#include "box.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *box_self_dir(void)
{
	static char dir[PATH_MAX];
	if (!dir[0]) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
		if (n <= 0) {
			strcpy(dir, ".");
		} else {
			dir[n] = 0;
			char *slash = strrchr(dir, '/');
			if (slash)
				*slash = 0;
		}
	}
	return dir;
}

char *box_shell_quote(const char *s)
{
	size_t n = 2;
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *q = malloc(n + 1), *o = q;
	if (!q)
		return NULL;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

int box_arg(struct box_cmd *c, const char *word)
{
	if (c->n + 2 > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		char **v = realloc(c->argv, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->argv = v;
		c->cap = cap;
	}
	if (!(c->argv[c->n] = strdup(word)))
		return -ENOMEM;
	c->argv[++c->n] = NULL;
	return 0;
}

int box_argf(struct box_cmd *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return box_arg(c, buf);
}

int box_cmd_init(struct box_cmd *c, const struct box *b, const char *prog)
{
	memset(c, 0, sizeof(*c));
	c->netns = b->ssh ? NULL : b->netns;
	char path[PATH_MAX];
	if (strchr(prog, '/'))
		snprintf(path, sizeof(path), "%s", prog);
	else if (b->bin)
		snprintf(path, sizeof(path), "%s/%s", b->bin, prog);
	else if (b->ssh)
		snprintf(path, sizeof(path), "%s", prog);   /* the remote PATH finds it */
	else
		snprintf(path, sizeof(path), "%s/%s", box_self_dir(), prog);
	return box_arg(c, path);
}

int box_sys_init(struct box_cmd *c, const struct box *b, const char *prog)
{
	memset(c, 0, sizeof(*c));
	c->netns = b->ssh ? NULL : b->netns;
	return box_arg(c, prog);
}

/* The user's options, then ppslab's defaults: OpenSSH keeps the first value of an
 * option, so the user's ConnectTimeout or BatchMode wins over ours. */
static int ssh_options(struct box_cmd *s, char *const *user)
{
	static const char *const fixed[] = { "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
					     "-o", "ServerAliveInterval=5", NULL };
	int rc = 0;
	for (int i = 0; !rc && user && user[i]; i++)
		rc = box_arg(s, user[i]);
	for (int i = 0; !rc && fixed[i]; i++)
		rc = box_arg(s, fixed[i]);
	return rc;
}

bool box_is_ssh(const char *prog)
{
	if (!prog)
		return false;
	const char *base = strrchr(prog, '/');
	return !strcmp(base ? base + 1 : prog, "ssh");
}

/* ssh(1)'s options that take an argument (OpenSSH 9). */
static bool ssh_opt_has_arg(char ch)
{
	return ch && strchr("BbcDEeFIiJLlmOoPpQRSWw", ch) != NULL;
}

int box_ssh_dest(char *const *av, size_t *dest)
{
	size_t i = 1;
	for (; av[i]; i++) {
		const char *w = av[i];
		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		if (w[0] != '-' || !w[1])
			break;
		for (size_t j = 1; w[j]; j++)
			if (ssh_opt_has_arg(w[j])) {
				if (!w[j + 1] && av[i + 1])
					i++;   /* its argument is the next word */
				else if (!w[j + 1])
					return -EINVAL;
				break;
			}
	}
	if (!av[i])
		return -EINVAL;
	*dest = i;
	return 0;
}

int box_ssh_wrap(char *const *av, char *const *user_opts, struct box_cmd *out)
{
	size_t dest;
	memset(out, 0, sizeof(*out));
	if (!av || !box_is_ssh(av[0]))
		return -ENOENT;
	if (box_ssh_dest(av, &dest))
		return -EINVAL;
	int rc = 0;
	/* the vector's own options first: they are the most specific */
	for (size_t i = 0; !rc && i < dest; i++)
		rc = box_arg(out, av[i]);
	if (!rc && dest > 1 && !strcmp(av[dest - 1], "--")) {
		/* keep "--" right before the destination */
		free(out->argv[--out->n]);
		out->argv[out->n] = NULL;
	}
	rc = rc ? rc : ssh_options(out, user_opts);
	/* ssh reads options again after the destination: "--" ends them */
	rc = rc ? rc : box_arg(out, av[dest]);
	rc = rc ? rc : box_arg(out, "--");
	if (!rc && av[dest + 1]) {
		/* the remote shell splits one command line again: every word quoted */
		size_t len = 1;
		char *line;
		for (size_t i = dest + 1; av[i]; i++) {
			char *q = box_shell_quote(av[i]);
			if (!q) {
				rc = -ENOMEM;
				break;
			}
			len += strlen(q) + 1;
			free(q);
		}
		if (!rc && !(line = malloc(len)))
			rc = -ENOMEM;
		if (!rc) {
			line[0] = 0;
			for (size_t i = dest + 1; av[i]; i++) {
				char *q = box_shell_quote(av[i]);
				if (!q) {
					rc = -ENOMEM;
					break;
				}
				if (line[0])
					strcat(line, " ");
				strcat(line, q);
				free(q);
			}
			rc = rc ? rc : box_arg(out, line);
			free(line);
		}
	}
	if (rc)
		box_cmd_free(out);
	return rc;
}

int box_cmd_stoppable(struct box_cmd *c, const struct box *b)
{
	/* fd 3 keeps the channel's input for the watcher (an asynchronous list's stdin is
	 * /dev/null); $$ is the tool once the shell has exec'd it */
	static const char *const pre[] = {
		"sh", "-c",
		"exec 3<&0; { cat <&3 >/dev/null 2>&1; kill -INT $$; } >/dev/null 2>&1 & "
		"exec \"$@\" 3<&-", "sh", NULL };
	if (!b->ssh)
		return 0;
	size_t np = 4;
	if (c->n + np + 1 > c->cap) {
		size_t cap = c->n + np + 16;
		char **v = realloc(c->argv, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->argv = v;
		c->cap = cap;
	}
	memmove(c->argv + np, c->argv, (c->n + 1) * sizeof(*c->argv));
	for (size_t i = 0; i < np; i++)
		if (!(c->argv[i] = strdup(pre[i]))) {
			for (size_t j = 0; j < i; j++)
				free(c->argv[j]);
			memmove(c->argv, c->argv + np, (c->n + 1) * sizeof(*c->argv));
			return -ENOMEM;
		}
	c->n += np;
	return 0;
}

int box_cmd_done(struct box_cmd *c, const struct box *b)
{
	if (!b->ssh)
		return 0;
	/* the remote command: optional "ip netns exec NS", then every word quoted */
	size_t len = 1, nq = c->n;
	char **q = calloc(nq + 1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	int rc = -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		if (!(q[i] = box_shell_quote(c->argv[i])))
			goto out;
		len += strlen(q[i]) + 1;
	}
	char *ns = NULL;
	if (b->netns && !(ns = box_shell_quote(b->netns)))
		goto out;
	if (ns)
		len += strlen(ns) + 16;
	char *line = malloc(len);
	if (!line) {
		free(ns);
		goto out;
	}
	line[0] = 0;
	if (ns) {
		strcat(line, "ip netns exec ");
		strcat(line, ns);
		free(ns);
	}
	for (size_t i = 0; i < c->n; i++) {
		if (line[0])
			strcat(line, " ");
		strcat(line, q[i]);
	}
	struct box_cmd s = { 0 };
	rc = box_arg(&s, "ssh");
	rc = rc ? rc : ssh_options(&s, b->ssh_opts);
	if (!rc)
		rc = box_arg(&s, b->ssh);
	if (!rc)
		rc = box_arg(&s, "--");
	if (!rc)
		rc = box_arg(&s, line);
	free(line);
	if (rc) {
		box_cmd_free(&s);
		goto out;
	}
	box_cmd_free(c);
	*c = s;
	c->netns = NULL;
out:
	for (size_t i = 0; i < nq && q; i++)
		free(q[i]);
	free(q);
	return rc;
}

void box_cmd_free(struct box_cmd *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->argv[i]);
	free(c->argv);
	memset(c, 0, sizeof(*c));
}
