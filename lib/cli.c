/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.c — shared command-line conventions (see cli.h). */
#include "cli.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
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
