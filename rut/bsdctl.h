/* SPDX-License-Identifier: BSD-2-Clause */
/* bsdctl.h — sysctl(8) over a table of OIDs: what `ppslab-rut ctl PATH sysctl ...`
 * runs, printing exactly what FreeBSD 8's sysctl prints and returning its exit status.
 *
 * The flavour is FreeBSD RELENG_8 sbin/sysctl/sysctl.c (the same tool DragonFly's
 * descends from): "name: value" lines; a node lists every leaf under it in table order
 * ("sysctl kern.polling" and "sysctl -a kern.polling" print the same); a write prints
 * "name: old -> new"; a handler's error prints "name: old" on stdout and
 * "sysctl: name=value: Invalid argument" on stderr, goes on with the next argument and
 * makes the exit status the number of such failures; an unknown OID, a write to a
 * read-only OID or a node, an empty or non-numeric value stop at once with status 1
 * ("sysctl: unknown oid 'x'", "sysctl: oid 'x' is read only", "sysctl: invalid
 * unsigned integer 'x'"); a boot-time tunable written at run time says so and stops
 * ("oid 'x' is a read only tunable", "Tunable values are set in /boot/loader.conf").
 * Numbers are read as strtol/strtoul with base 0 (so 0x10 and 010 work) and truncated
 * to 32 bits as the tool does. OIDs a context does not have (exists) are unknown to it.
 * Flags: -a -n -N -e -d -q -i. */
#ifndef PPSLAB_RUT_BSDCTL_H
#define PPSLAB_RUT_BSDCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "sbuf.h"

enum bsdctl_type { BSDCTL_INT, BSDCTL_UINT, BSDCTL_STRING };

struct bsdctl_oid {
	const char *name;        /* "kern.polling.burst_max" */
	enum bsdctl_type type;
	int writable;
	const char *descr;
	int arg;                 /* for the callbacks */
	int64_t (*get)(void *ctx, const struct bsdctl_oid *o);
	/* 0 or -errno (EINVAL for a range error); v is int32 (INT) or uint32 (UINT) */
	int (*set)(void *ctx, const struct bsdctl_oid *o, int64_t v);
	const char *(*gets)(void *ctx, const struct bsdctl_oid *o);   /* BSDCTL_STRING */
	/* optional: false when this context has no such OID */
	bool (*exists)(void *ctx, const struct bsdctl_oid *o);
	/* optional, for a writable OID: false when it is a boot-time tunable that cannot
	 * be written now */
	bool (*can_write)(void *ctx, const struct bsdctl_oid *o);
	/* a writable BSDCTL_STRING: 0 or -errno (EINVAL: a value it does not take) */
	int (*sets)(void *ctx, const struct bsdctl_oid *o, const char *v);
};

/* Runs "sysctl ARGS..." (argv without the word "sysctl"). Output goes to out (stdout)
 * and err (stderr, lines prefixed "sysctl: "). Returns the exit status. */
int bsdctl_sysctl(const struct bsdctl_oid *tab, int n, void *ctx, int argc, char **argv,
		  struct sbuf *out, struct sbuf *err);

#endif
