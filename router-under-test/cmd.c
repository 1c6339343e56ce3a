/* cmd.c — runs one control request on the forwarding thread (see cmd.h). Called by
 * fwdloop.c between batches, when ctl.c has posted a request. */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "bsdctl.h"
#include "jout.h"
#include "rut_sysctl.h"
#include "rutstats.h"

#define CMD_MAX_WORDS 256

static int cmd_sysctl(struct sched *s, int argc, char **argv, struct ctl_req *r)
{
	int n;
	const struct bsdctl_oid *tab = rut_sysctl_polling(&n);
	struct rut_sysctl_ctx ctx = { .poll = &s->poll };
	return bsdctl_sysctl(tab, n, &ctx, argc, argv, &r->out, &r->err);
}

static int cmd_stats(struct sched *s, struct ctl_req *r)
{
	json_t *o = stats_json(s, "stats");
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!txt) {
		sbuf_cat(&r->err, "ppslab-rut: stats: out of memory\n");
		return EX_OSERR;
	}
	sbuf_cat(&r->out, txt);
	sbuf_cat(&r->out, "\n");
	free(txt);
	return EX_OK;
}

int cmd_exec(struct sched *s, struct ctl_req *r)
{
	char words[CTL_LINE_MAX + 1];
	char *argv[CMD_MAX_WORDS];
	int argc = 0;
	snprintf(words, sizeof(words), "%s", r->line);
	for (char *save = NULL, *w = strtok_r(words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (argc == CMD_MAX_WORDS) {
			sbuf_printf(&r->err, "ppslab-rut: more than %d words\n", CMD_MAX_WORDS);
			return EX_USAGE;
		}
		argv[argc++] = w;
	}
	if (!argc) {
		sbuf_cat(&r->err, "ppslab-rut: empty command (sysctl, ipfw or stats)\n");
		return EX_USAGE;
	}
	if (!strcmp(argv[0], "sysctl"))
		return cmd_sysctl(s, argc - 1, argv + 1, r);
	if (!strcmp(argv[0], "stats") && argc == 1)
		return cmd_stats(s, r);
	sbuf_printf(&r->err, "ppslab-rut: unknown command '%s' (sysctl, ipfw or stats)\n", argv[0]);
	return EX_USAGE;
}
