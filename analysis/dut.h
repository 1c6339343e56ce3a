/* dut.h — the device under test as ppslab run drives it: the reference forwarder
 * (ppslab-rut, configured live through its control socket and restarted only when an
 * axis needs it), an external router configured by the profile's hooks, or none.
 *
 * Axis → forwarder setting:
 *   pollhz, burst_max, each_burst, user_frac, reg_frac, idle_poll → kern.polling.NAME
 *   update_counters → net.inet.ip.fw.update_counters
 *   firewall        → net.inet.ip.fw.enable
 *   rules, rules_kind → the rule set (rulegen.h), loaded with `ipfw -q flush` and
 *                     `ipfw -q /FILE`: all or nothing, without stopping the forwarder
 *   mode, kernel    → a restart (--mode, --kernel), as does a change of port backend
 *   hz              → a restart with --sysctl kern.hz=N (HZ is set when a kernel boots)
 *   pollhz, idle_poll at their defaults are not sent to a kernel without them
 * Only settings whose value changed since the last cell are sent, so a sweep over one
 * axis touches one knob per cell, like the seeds' `sysctl kern.polling.pollhz=N`. */
#ifndef PPSLAB_DUT_H
#define PPSLAB_DUT_H

#include <jansson.h>
#include <stdbool.h>

#include "box.h"
#include "profile.h"

struct dut;

struct dut_cfg {
	const struct profile *p;
	struct box box;          /* where the forwarder runs */
	const char *in, *out;    /* its two interfaces (rut0, rut1) */
	const char *tmpdir;      /* control socket, rule files, output (exists) */
};

/* 0 or -ENOMEM; nothing is started yet. */
int dut_new(const struct dut_cfg *cfg, struct dut **out);
/* Brings the router to params (the cell; the profile's fixed values fill the rest),
 * starting or restarting the forwarder when needed. On failure err says what (a hook's
 * status and output, a knob the forwarder refused) and -EIO, -ETIMEDOUT or -ENOMEM is
 * returned. */
int dut_apply(struct dut *d, const json_t *params, char *err, size_t errlen);
/* The forwarder's cumulative counters now (ctl stats), or NULL when there is no
 * forwarder to ask or it did not answer. New reference. */
json_t *dut_stats(struct dut *d);
/* Counters over an interval: b − a for every counter (see dut.c for which fields are
 * counters; gauges and settings are taken from b). New reference. */
json_t *dut_delta(const json_t *a, const json_t *b);
/* The router's record for a trial: the delta for ppslab-rut, the read hook's output for
 * an external router ({"hook": [...], "status": N, "output": JSON-or-text}), NULL when
 * there is nothing to record. New reference. */
json_t *dut_trial_record(struct dut *d, const json_t *before, const json_t *after);
/* False when the forwarder process has exited (crashed, killed): the next dut_apply
 * restarts it. */
bool dut_alive(struct dut *d);
/* Stops the forwarder (SIGINT, so it prints its summary), returns its summary JSON or
 * NULL; frees d. */
json_t *dut_close(struct dut *d);
/* The forwarder's ports (for the environment) and what kind of router this is. */
const char *dut_describe(const struct dut *d);

#endif
