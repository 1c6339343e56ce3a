/* SPDX-License-Identifier: BSD-2-Clause */
/* dut_impl.h — the state of the device under test, shared by dut.c (ppslab-rut and
 * what every router does), dut_ext.c (an external router's hooks) and dut_count.c (the
 * router's counters over a trial). Private to them; the run_*.c files see dut.h. */
#ifndef PPSLAB_ANALYSIS_RUNNER_DUT_IMPL_H
#define PPSLAB_ANALYSIS_RUNNER_DUT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "dut.h"

struct dut {
	struct dut_cfg cfg;
	enum prof_router kind;
	pid_t pid;               /* the forwarder, 0 when not running */
	json_t *applied;         /* axis → value last applied (owned) */
	struct cell fixed;       /* the profile's fixed values alone (hooks run outside a case) */
	char sock[512], outpath[512], rulepath[512];
	char mode[16], kernel[32];
	unsigned starts;
	char desc[128];
	json_t *hook_log;        /* the hooks this case ran (external router) */
	json_t *verified;        /* what this case's verify hooks read back, or NULL */
	char fault[400];         /* why the forwarder is hung ("" when it answers): it is
				  * killed and replaced before the next case */
	bool timed_out;          /* the hook run last was killed at its timeout */
	double hook_tmo;         /* and that timeout, seconds */
	bool setup_fresh;        /* the setup hook ran on the router's new boot (before the
				  * probe): dut_rebooted() keeps it done */
};

/* ---- dut.c ---- */

/* Whether axis' value in cell differs from the one last applied (or none was). */
bool dut_changed(struct dut *d, const struct cell *cell, const char *axis);
/* Records axis' value in cell as applied. */
void dut_remember(struct dut *d, const struct cell *cell, const char *axis);
/* The cell's rule set as text into *text (caller frees); *path says which file holds
 * it. 0, or -errno with err saying why. */
int dut_rules_text(struct dut *d, const struct cell *cell, char **text, char *path,
		   size_t pathlen, char *err, size_t errlen);

/* dut_apply() and dut_stats() of ppslab-rut (and of no router); dut_ext.c's for an
 * external router call nothing back here but these and the three above. */
int dut_rut_apply(struct dut *d, const struct cell *cell, char *err, size_t errlen);
json_t *dut_rut_stats(struct dut *d);

/* ppslab-rut's settings an action may have changed behind dut's back, forgotten so
 * that the next case sends them again: the rule set's axes, and unless rules_only the
 * sysctl axes (a restart axis stays: the forwarder was not restarted). */
void dut_forget_live(struct dut *d, bool rules_only);

/* ---- dut_ext.c ---- */

/* An external router's counters: its read hook's output, {"status", "output"}. */
json_t *dut_ext_read(struct dut *d);

#endif
