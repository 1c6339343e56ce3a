/* SPDX-License-Identifier: BSD-2-Clause */
/* rut_sysctl.h — the forwarder's sysctl tree: kern.hz and kern.ppslab.kernel (the
 * kernel personality, read-only), kern.polling.* over the poll context (the knobs and
 * statistics in the order DragonFly's `sysctl -a kern.polling` prints them in the 2006
 * DragonFly polling HZ sweep, docs/glossary.md#the-2006-dragonfly-polling-hz-sweep, then
 * FreeBSD's idle_poll and idlepoll_sleeping; only those the personality's kernel has)
 * and net.inet.ip.fw.* over the firewall's tunables. Used by the control socket
 * (cmd.c) and --sysctl at start; the callbacks run on the forwarding thread, which owns
 * the state. kern.hz is a boot-time tunable: written only at start (boot set). */
#ifndef PPSLAB_RUT_RUT_SYSCTL_H
#define PPSLAB_RUT_RUT_SYSCTL_H

#include "bsdctl.h"
#include "devpoll.h"

struct fw;

struct rut_sysctl_ctx {
	struct devpoll *poll;
	struct fw *fw;          /* may be NULL with rut_sysctl_polling */
	bool boot;              /* --sysctl at start: tunables may be set */
	/* optional: told of every knob write poll accepted (the other threads' contexts
	 * replay it: fwdloop.h) */
	void (*knob_hook)(void *arg, int knob, int64_t v);
	void *hook_arg;
};

/* kern.hz, kern.ppslab.kernel and the kern.polling.* OIDs (static, for every context;
 * those the context's kernel lacks do not exist for it). */
const struct bsdctl_oid *rut_sysctl_polling(int *n);
/* kern.polling.*, then net.inet.ip.fw.* (ctx->fw must be set). */
const struct bsdctl_oid *rut_sysctl_table(int *n);

#endif
