/* rut_sysctl.h — the forwarder's sysctl tree: kern.polling.* over the poll context (the
 * knobs and statistics in the order DragonFly's `sysctl -a kern.polling` prints them,
 * seed 000, then FreeBSD's idle_poll). Used by the control socket (ctl.c) and the
 * stats JSON; the callbacks run on the forwarding thread, which owns the state. */
#ifndef PPSLAB_RUT_SYSCTL_H
#define PPSLAB_RUT_SYSCTL_H

#include "bsdctl.h"
#include "devpoll.h"

struct rut_sysctl_ctx {
	struct poll *poll;
};

/* The kern.polling.* OIDs (static, for every context). */
const struct bsdctl_oid *rut_sysctl_polling(int *n);

#endif
