/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd.h — the control commands, run on the forwarding thread through the hook main
 * installs in the loop (fwdloop_set_cmd): `sysctl` (bsdctl.c over
 * the forwarder's tree), `ipfw` (the firewall's fw_exec), `stats` (rutstats.c) and `pause`
 * (fwdloop_pause). */
#ifndef PPSLAB_RUT_CMD_H
#define PPSLAB_RUT_CMD_H

#include "ctl.h"
#include "fwdloop.h"

/* Runs the request in r (r->line, r->data), writing r->out and r->err. Returns the
 * exit status of the BSD tool it stands for, or FWDLOOP_CMD_LATER for a rule load that
 * goes on (fwdloop.h): while its job is in the loop's slot, each call looks at it
 * again (whatever r holds) until it returns the status. */
int cmd_exec(struct fwdloop *s, struct ctl_req *r);
/* cmd_exec as the loop's command hook (fwdloop_set_cmd): ctx is the struct fwdloop. */
int cmd_hook(void *ctx, struct ctl_req *r);

#endif
