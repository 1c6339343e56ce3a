/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_env.c — `ppslab env`: this box's environment (envinfo.h) as JSON, the command a
 * remote box runs over ssh for ppslab run. */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "anacli.h"
#include "cli.h"
#include "cmds.h"
#include "envinfo.h"
#include "ifinfo.h"
#include "log.h"
#include "opt.h"
#include "proc.h"

#define SYNOPSIS "ppslab env [--netns NS] [-i IF]... [--compact]"

struct env_args {
	const char *netns;
	struct strlist ifaces;
	bool compact;
};

#define A(m) OPT_AT(struct env_args, m)
static struct opt_def opts[] = {
	{ "netns", 0, "NS", "look the interfaces and tunables up in this network namespace",
	  OPT_STR, A(netns) },
	{ "iface", 'i', "IF", "describe this interface (repeatable, or IF,IF...)", OPT_CSV,
	  A(ifaces) },
	/* long only: -c is --cols elsewhere */
	{ "compact", 0, NULL, "one line of JSON instead of indented", OPT_FLAG, A(compact) },
	OPT_HELP_ROW,
	{ NULL },
};

int cmd_env(int argc, char **argv)
{
	struct env_args a = { 0 };
	json_t *box = NULL;
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	int first, rc = opt_parse(&prog, argc, argv, &a, &first);
	if (rc == OPT_DONE) {
		printf("\nPrints this box's environment as JSON: OS, kernel, CPU, memory, the\n"
		       "interfaces (driver, speed, MTU, queues, MAC) and forwarding tunables.\n"
		       "A value that cannot be read is null; an interface that does not exist\n"
		       "is listed with \"error\" (and a warning on stderr).\n");
		rc = EX_OK;
		goto out;
	}
	if (rc)
		goto out;
	if (first < argc) {
		log_err("env: unexpected argument '%s' (usage: %s)", argv[first], SYNOPSIS);
		rc = EX_USAGE;
		goto out;
	}
	for (size_t i = 0; i < a.ifaces.n; i++)
		if (!a.ifaces.v[i][0] || strlen(a.ifaces.v[i]) >= IFINFO_NAMESZ ||
		    strpbrk(a.ifaces.v[i], "/: \t\n")) {
			rc = cli_bad("iface", a.ifaces.v[i], "an interface name (1-15 characters, "
				     "no '/', ':' or spaces)");
			goto out;
		}
	if (a.netns && (!a.netns[0] || strchr(a.netns, '/') || !proc_netns_exists(a.netns))) {
		rc = cli_bad("netns", a.netns, "an existing network namespace (ip netns list)");
		goto out;
	}
	box = env_box(a.netns, a.ifaces.v, (int)a.ifaces.n);
	if (!box) {
		log_err("env: out of memory");
		rc = EX_OSERR;
		goto out;
	}
	size_t i;
	json_t *nic;
	json_array_foreach(json_object_get(box, "nics"), i, nic) {
		const char *e = json_string_value(json_object_get(nic, "error"));
		if (e)
			log_warn("env: interface %s%s%s: %s",
				 json_string_value(json_object_get(nic, "name")),
				 a.netns ? " in namespace " : "", a.netns ? a.netns : "", e);
	}
	char *text = json_dumps(box, a.compact ? JSON_COMPACT : JSON_INDENT(2));
	if (!text) {
		rc = EX_OSERR;
		goto out;
	}
	fputs(text, stdout);
	fputc('\n', stdout);
	free(text);
	rc = fflush(stdout) ? EX_IOERR : EX_OK;
out:
	json_decref(box);
	strlist_free(&a.ifaces);
	return rc;
}
