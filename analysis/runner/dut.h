/* SPDX-License-Identifier: BSD-2-Clause */
/* dut.h — the device under test as ppslab run drives it: the reference forwarder
 * (ppslab-rut, configured live through its control socket and restarted only when an
 * axis needs it), an external router configured by the profile's hooks, or none.
 *
 * Axis → forwarder setting: each axis' act in the registry (lib/axes.h). A sysctl axis
 * is sent as its oid, in the registry's apply order (burst_max before each_burst);
 * firewall as net.inet.ip.fw.enable with "auto" resolved; the rules axes load the rule
 * set (rulegen.h) with `ipfw -q flush` and `ipfw -q /FILE`: all or nothing, without
 * stopping the forwarder; the restart axes start it again (mode, kernel: --mode,
 * --kernel; hz: --sysctl kern.hz=N, as HZ is set when a kernel boots), as does a change
 * of port backend. A knob a kernel lacks (pollhz, idle_poll) is not sent to it.
 * Only settings whose value changed since the last cell are sent, so a sweep over one
 * axis touches one knob per cell, like the seeds' `sysctl kern.polling.pollhz=N`.
 *
 * An external router is configured by the profile's hooks (argument vectors; profile.h):
 * setup_hook once, then per case every hook whose axis, or an axis one of its words
 * names, changed (all of them for the first case); the hook of "rules", or one naming
 * {rules}, gets the cell's rule set on its standard input (a "file:" rule set's content
 * as is, or the generated ipfw set of rulegen.h), never a path of the control host.
 * Router axes (profile.h) are set by their own hooks: those without "reboot" with the
 * axis hooks, when their value changed; those with "reboot" before, by
 * dut_apply_reboot(), which then runs router.reboot_hook. A restart loses every runtime
 * setting, so after it the setup hook and every hook run again (dut_rebooted()). Then
 * each router axis with "verify" is read back (every case: a router that restarted on
 * its own, or a setting that did not take, shows at once); a reading that differs
 * from the cell's value fails the case with both values. Then check_hook: a status
 * other than 0 fails the case with its output (e.g. polling not active on the
 * router). A vector that starts with ssh is run as box_ssh_wrap()
 * makes it: topology.ssh_options and ppslab's defaults, the remote words quoted.
 *
 * read_hook runs before and after every trial. When it prints a JSON object, these of
 * its keys are cumulative counters whose difference over the trial goes into the
 * trial's "rut" record, where the checks (checks.h) read them as they read ppslab-rut's:
 *   rx_pkts    frames the router received on its test ports
 *   fwd_pkts   frames it forwarded (sent on the test ports)
 *   drop_pkts  frames it dropped (firewall, queues, errors)
 *   rules      [{"number": N, "pkts": P, "bytes": B}]: the firewall's rule counters
 *   drops      {"malformed": N, "not_ip4": N}: frames dropped before the firewall
 * Any other output (other keys, text) is kept as "output" and not interpreted. */
#ifndef PPSLAB_ANALYSIS_RUNNER_DUT_H
#define PPSLAB_ANALYSIS_RUNNER_DUT_H

#include <jansson.h>
#include <stdbool.h>

#include "box.h"
#include "cell.h"
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
/* A case begins: dut_hook_log() and dut_verified() then say what this case ran. */
void dut_case_begin(struct dut *d);
/* Router axes with "reboot": when the cell's value of one differs from what was last
 * set (or nothing was set yet), the set hooks of those that differ run (the setup hook
 * first, once), then router.reboot_hook, whose ssh connection may drop (status 255)
 * or hang until its timeout as the router goes down. Returns 1: the router is
 * restarting, wait until it is back and call dut_rebooted(); 0: no reboot needed (and
 * always for ppslab-rut); -EIO with err saying which hook failed. */
int dut_apply_reboot(struct dut *d, const struct cell *cell, char *err, size_t errlen);
/* Whether dut_apply_reboot() would restart the router for cell. */
bool dut_reboot_pending(struct dut *d, const struct cell *cell);
/* Runs the setup hook now, on a router that is coming back (its forwarding may be off
 * until it runs: the probe waits for it); a dut_rebooted() that follows keeps it done.
 * 0 (also without a setup hook), or -EIO with err. */
int dut_setup_now(struct dut *d, const struct cell *cell, char *err, size_t errlen);
/* The router is back from a restart: its runtime settings are gone, so the setup hook,
 * the axes' hooks and the router axes without reboot run again in the next dut_apply. */
void dut_rebooted(struct dut *d);
/* The router's state is unknown (it did not come back in time): everything is set
 * again, reboot axes included. */
void dut_forget(struct dut *d);
/* router.ready_hook for the cell: its status (0: the router is back), output in out;
 * -EKEYREJECTED when ssh refused the router's host key (out says so). Not part of the
 * case's hook log. */
int dut_ready(struct dut *d, const struct cell *cell, char *out, size_t outlen);
/* What this case's verify hooks read: {AXIS: {"want": TEXT, "got": TEXT|null, "ok"}}
 * (borrowed), or NULL when no router axis is verified. */
const json_t *dut_verified(const struct dut *d);
/* Brings the router to cell (its swept and fixed values),
 * starting or restarting the forwarder when needed. On failure err says what (a hook's
 * status and output, a knob the forwarder refused) and -EIO, -ETIMEDOUT or -ENOMEM is
 * returned. */
int dut_apply(struct dut *d, const struct cell *cell, char *err, size_t errlen);
/* The forwarder's cumulative counters now (ctl stats), or for an external router its
 * read hook's output ({"status", "output"}); NULL when there is nothing to ask or it
 * did not answer. New reference. */
json_t *dut_stats(struct dut *d);
/* Counters over an interval: b − a for every counter (see dut_count.c for which fields are
 * counters; gauges and settings are taken from b). New reference. */
json_t *dut_delta(const json_t *a, const json_t *b);
/* The router's record for a trial: the delta for ppslab-rut, the read hook's output for
 * an external router ({"hook": [...], "status": N, "output": JSON-or-text}, and the
 * counters below), NULL when there is nothing to record. New reference. */
json_t *dut_trial_record(struct dut *d, const json_t *before, const json_t *after);
/* 1 when a forwarder's trial record (dut_trial_record) says a link failed during the
 * trial: frames dropped with the egress link down (drops.link_down) or its interface
 * deleted (drops.port_gone), transmit errors (tx_errors), or the link went down
 * (link_downs). why then says which ports and how many; the trial fails with it (the
 * frames lost are the rig's, not the router's under test). 0 otherwise. */
int dut_link_fault(const json_t *rec, char *why, size_t len);
/* False when the forwarder process has exited (crashed, killed) or is hung (did not
 * answer its control socket within DUT_CTL_ANSWER_S, dut_fault()): the next dut_apply
 * kills a hung one by PID and starts a new one. */
bool dut_alive(struct dut *d);
/* Why the forwarder is taken for hung (it did not answer its control socket within
 * the bound, or answered stats with no JSON while running), or NULL. A trial that saw
 * this fails with it: its counters and its rate cannot be trusted. */
const char *dut_fault(const struct dut *d);
/* How long ppslab-rut may take to answer a control command (stats, a sysctl); a rule
 * set's load has DUT_CTL_LOAD_S. */
#define DUT_CTL_ANSWER_S 10
#define DUT_CTL_LOAD_S 120
/* The hooks this case ran: [{"hook": AXIS|"setup"|"reboot"|"verify"|"check", "axis"
 * (verify's), "argv": [...] as run, "status", "s": seconds, "stdin_bytes"}] (borrowed;
 * NULL for ppslab-rut). */
const json_t *dut_hook_log(const struct dut *d);
/* Reaches every ssh destination the hooks name once ("ssh ... DEST true", with the
 * options a hook would get): 0, or -EHOSTUNREACH with err naming the destination and
 * what ssh said. */
int dut_reach(struct dut *d, char *err, size_t errlen);
/* A hook's argument vector for a cell, as dut runs it: placeholders replaced, and an
 * ssh vector wrapped by box_ssh_wrap() with the box's ssh options. 0, -EINVAL (an ssh
 * vector without a destination), -ENOMEM. */
int dut_hook_argv(const struct dut_cfg *cfg, const json_t *hook, const struct cell *cell,
		  struct box_cmd *out);
/* An external router's boot identity through router.boot_hook (its output's first
 * line): 0; -ENOENT (no boot hook); -EIO (it failed or printed nothing);
 * -EKEYREJECTED (ssh refused the router's host key). */
int dut_boot_id(struct dut *d, char *buf, size_t len);
/* router.power_cycle_hook (an IPMI or PDU command that cuts and restores the router's
 * power): its status, output in out (into the case's hook log); -ENOENT without one. */
int dut_power_cycle(struct dut *d, char *out, size_t outlen);
/* Whether ssh's output says the host key changed or is refused, and the one sentence a
 * message gives for it instead of ssh's banner of @. */
bool dut_hostkey_changed(const char *out);
extern const char dut_hostkey_msg[];
/* The same for a router axis' set or verify hook, where {value} is value_of's value. */
int dut_hook_argv_axis(const struct dut_cfg *cfg, const json_t *hook, const struct cell *cell,
		       const char *value_of, struct box_cmd *out);
/* The outage method's action on ppslab-rut: `ppslab-rut ctl SOCK WORDS...`, or with
 * rules > 0 that many of rulegen's "nomatch" rules loaded on top of the rule set
 * (`ipfw -q /dev/stdin`; per_rule: `ipfw -q -per-rule`, one call a rule as ipfw(8)
 * makes them); the rule set (and for words the sysctls) is sent again before the next
 * case. The client's status (-ENODEV: no ppslab-rut running), its output in out. */
int dut_action_ctl(struct dut *d, const json_t *words, unsigned rules, bool per_rule, char *out,
		   size_t outlen);
/* An outage action through a hook (an argument vector with {AXIS} placeholders, run as
 * the other hooks are, with router.hook_timeout), for any router; what names it in the
 * case's hook log ("outage", or "reboot" for a reset, left unwrapped as the reboot hook
 * is); every setting is sent again before the next case. Its status, its output in
 * out. */
int dut_action_hook(struct dut *d, const char *what, const json_t *hook, const struct cell *cell,
		    char *out, size_t outlen);
/* Stops the forwarder (SIGINT, so it prints its summary), returns its summary JSON or
 * NULL; frees d. */
json_t *dut_close(struct dut *d);
/* The forwarder's ports (for the environment) and what kind of router this is. */
const char *dut_describe(const struct dut *d);

#endif
