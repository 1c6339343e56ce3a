/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.c — shared command-line conventions (see cli.h). */
#include "cli.h"

#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "num.h"
#include "port.h"
#include "ready.h"

int cli_bad_text(char *err, size_t errlen, const char *name, const char *value,
		 const char *what)
{
	snprintf(err, errlen, "--%s %s: expected %s", name, value ? value : "(none)", what);
	return -EINVAL;
}

int cli_bad(const char *name, const char *value, const char *what)
{
	char err[4096];
	cli_bad_text(err, sizeof(err), name, value, what);
	log_err("%s", err);
	return EX_USAGE;
}

int cli_ready_fd(const char *arg, int *fd)
{
	char what[128];
	switch (ready_fd_parse(arg, fd)) {
	case 0:
		return 0;
	case -EBADF:
		snprintf(what, sizeof(what), "an open file descriptor; %s is not open", arg);
		break;
	case -EACCES:
		snprintf(what, sizeof(what), "a file descriptor open for writing; %s is read-only",
			 arg);
		break;
	default:
		snprintf(what, sizeof(what), "a file descriptor number, 3 or above "
			 "(0, 1 and 2 are the program's own input and output)");
		break;
	}
	return cli_bad("ready-fd", arg, what);
}

int cli_opt_ready_fd(const struct opt_def *d, const char *arg, void *base)
{
	return cli_ready_fd(arg, (int *)((char *)base + d->off));
}

bool cli_dst_allowed(uint32_t addr_be)
{
	uint32_t a = ntohl(addr_be);
	return (a & 0xfffe0000U) == 0xc6120000U || (a >> 24) == 127;
}

unsigned cli_list_empty(const char *list)
{
	unsigned k = 1;
	for (const char *p = list;; p++, k++) {
		const char *c = strchr(p, ',');
		if (c == p || (!c && !*p))
			return k;
		if (!c)
			return 0;
		p = c;
	}
}

int cli_exit_code(int neg_errno)
{
	switch (-neg_errno) {
	case 0: return EX_OK;
	case EPERM: case EACCES: return EX_NOPERM;
	case EINVAL: return EX_USAGE;
	case ENODEV: case ENXIO: case EADDRNOTAVAIL: case ENETUNREACH: case ENOENT:
	case EAFNOSUPPORT: case EPROTONOSUPPORT: case EOPNOTSUPP:   /* e.g. no AF_XDP */
		return EX_UNAVAILABLE;
	case ENOMEM: return EX_OSERR;
	default: return EX_IOERR;
	}
}

void cli_port_help(struct opt_def *defs, const char *name, const char *what, unsigned dir,
		   int l2_only)
{
	static char help[320];
	char ports[256];
	snprintf(help, sizeof(help), "%s: %s", what,
		 port_specs_help(dir, l2_only, ports, sizeof(ports)));
	opt_set_help(defs, name, help);
}

int cli_user_lookup(struct cli_common *c)
{
	char err[256];
	int rc;
	if (!c->user || !(rc = priv_lookup(c->user, &c->pu, err, sizeof(err))))
		return 0;
	log_err("--user %s", err);
	return rc == -ENOENT ? EX_NOUSER : EX_USAGE;
}

void cli_ready_init(struct ready *r, const char *tool, struct cli_common *c)
{
	ready_init(r, tool);
	r->json = c->json;
	r->quiet = c->verbose == 0;
	r->fd = c->ready_fd;
	c->ready_fd = -1;
}

void cli_ready_announce(struct ready *r)
{
	int rc = ready_announce(r, stdout, stderr);
	if (rc)
		log_warn("--ready-fd: %s (nobody is waiting?)", strerror(-rc));
}

int cli_cpus(const char *arg, int *cpus, unsigned max, unsigned *n)
{
	char buf[256], *save = NULL, what[64];
	cpu_set_t allowed;
	unsigned k = cli_list_empty(arg);
	*n = 0;
	if (k) {
		log_err("--cpus %s: item %u of the comma list is empty", arg, k);
		return EX_USAGE;
	}
	if (strlen(arg) >= sizeof(buf))
		return cli_bad("cpus", arg, "a list of CPU numbers such as 0,1");
	snprintf(what, sizeof(what), "a list of up to %u CPU numbers such as 0,1", max);
	strcpy(buf, arg);
	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t c;
		if (*n == max || num_u64(t, 0, CPU_SETSIZE - 1, &c))
			return cli_bad("cpus", arg, what);
		if (!CPU_ISSET((int)c, &allowed)) {
			log_err("--cpus %s: CPU %llu is not available to this process", arg,
				(unsigned long long)c);
			return EX_USAGE;
		}
		cpus[(*n)++] = (int)c;
	}
	return *n ? 0 : cli_bad("cpus", arg, "a list of CPU numbers such as 0,1");
}
