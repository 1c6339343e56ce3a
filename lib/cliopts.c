/* SPDX-License-Identifier: BSD-2-Clause */
/* cliopts.c — the command-line layer shared by the programs (see cliopts.h). */
#include "cliopts.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "cli.h"
#include "log.h"
#include "num.h"
#include "port.h"
#include "version.h"

struct parse_ctx {
	const struct cli_prog *p;
	struct cli_common *c;
};

/* The shared options of c; 1 when name is none of them. */
static int common_opt(struct cli_common *c, const char *name, const char *arg)
{
	if (!strcmp(name, "interval")) {
		if (num_duration_ns(arg, 10 * NS_PER_MS, 3600 * NS_PER_S, &c->interval_ns))
			return cli_bad(name, arg, "an interval from 10ms to 1h");
	} else if (!strcmp(name, "json")) {
		c->json = 1;
	} else if (!strcmp(name, "quiet")) {
		c->verbose = 0;
	} else if (!strcmp(name, "verbose")) {
		c->verbose++;
	} else if (!strcmp(name, "ready-fd")) {
		return cli_ready_fd(arg, &c->ready_fd);
	} else if (!strcmp(name, "user")) {
		c->user = arg;
	} else {
		return 1;
	}
	return 0;
}

static int handle(int key, const char *arg, int idx, void *ctx)
{
	struct parse_ctx *pc = ctx;
	const struct cli_prog *p = pc->p;
	const char *name = p->defs[idx].name;
	if (!strcmp(name, "help")) {
		opt_usage(stdout, p->synopsis, p->defs);
		return CLI_DONE;
	}
	if (!strcmp(name, "version")) {
		printf("%s %s\n", p->name, ppslab_version());
		return CLI_DONE;
	}
	int rc = pc->c ? common_opt(pc->c, name, arg) : 1;
	return rc != 1 ? rc : p->handle(key, arg, idx, p->ctx);
}

int cli_parse(const struct cli_prog *p, int argc, char **argv, struct cli_common *c,
	      int *first)
{
	struct parse_ctx pc = { .p = p, .c = c };
	int k, rc = opt_parse(argc, argv, p->defs, handle, &pc, &k);
	if (rc)
		return rc;
	if (c)
		log_init(p->name, c->verbose);
	if (first) {
		*first = k;
	} else if (k < argc) {
		log_err("unexpected argument '%s' (see --help)", argv[k]);
		return EX_USAGE;
	}
	return 0;
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
