/* SPDX-License-Identifier: BSD-2-Clause */
/* rutstats.h — the forwarder's statistics as one JSON object: the --json summary
 * ("type": "summary") and the control socket's `stats` ("type": "stats") carry the
 * same fields, so `ppslab run` can take per-trial deltas of either. */
#ifndef PPSLAB_RUT_RUTSTATS_H
#define PPSLAB_RUT_RUTSTATS_H

#include <jansson.h>

#include "fwdloop.h"

/* Everything the forwarder counts, at the time of the call. Run on the forwarding
 * thread (ctl) or after it ended (summary): it reads the poll context directly. */
json_t *rutstats_json(struct fwdloop *s, const char *type);

/* Process CPU time (user, system) in seconds. */
void rutstats_cpu(double *user_s, double *sys_s);

#endif
