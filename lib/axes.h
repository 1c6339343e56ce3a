/* SPDX-License-Identifier: BSD-2-Clause */
/* axes.h — the one registry of a profile's built-in axes: for each its name, type,
 * range (from the bounds of pollkern.h and pkt.h), default, unit, label and how it acts
 * on the router under test. The analyzer's profile checker, --set, the plan, the DUT
 * driver (dut_apply is a loop over it), tables and plots read it; so do the unit tests
 * that hold docs/profiles.md to it. Nothing else names an axis list. A table of
 * constants: no state. See docs/profiles.md#axes and HACKING.md's parameter flow. */
#ifndef PPSLAB_LIB_AXES_H
#define PPSLAB_LIB_AXES_H

#include <stdbool.h>
#include <stddef.h>

/* The built-in axes, in registry order (the order of docs/profiles.md and --dry-run). */
enum axis_id {
	AX_POLLHZ, AX_HZ, AX_BURST_MAX, AX_EACH_BURST, AX_USER_FRAC, AX_REG_FRAC, AX_IDLE_POLL,
	AX_MODE, AX_KERNEL, AX_RULES, AX_RULES_KIND, AX_UPDATE_COUNTERS, AX_COUNTERS,
	AX_FIREWALL, AX_OFFERED, AX_SIZE, AX_FLOWS, AX_DIRECTION, AX_IP_VERSION, AX_VLAN,
	AX_COUNT
};

/* What values an axis takes (the checker keeps them in this canonical form). */
enum axis_type {
	AK_INT,       /* a whole number in min..max */
	AK_ENUM,      /* one of names */
	AK_BOOL01,    /* 0|1 (true/false, "on"/"off" become 1/0) */
	AK_ONOFF,     /* "on"|"off"|"auto" (true/false become on/off) */
	AK_RULES,     /* a rule count 0..max, or "file:PATH" */
	AK_RATE,      /* pps, a rate text ("200k"), or "max": kept as written */
	AK_SIZE,      /* a frame size min..max, or "imix" (ppslab-gen's 64:7,594:4,1518:1) */
	AK_IPVER,     /* the IP version: 4 or 6 (min and max) */
	AK_VLAN,      /* "none", a VLAN id min..max, or "OUTER.INNER" (QinQ): kept as
		       * "none", an integer, or the string "O.I" */
};

/* How ppslab-rut takes a new value (an external router: the profile's hooks, except
 * for AA_TRAFFIC axes, which ppslab applies itself whatever the router). */
enum axis_act {
	AA_SYSCTL,    /* a live sysctl of ppslab-rut (oid), sent when the value changed */
	AA_RESTART,   /* a restart of ppslab-rut (mode, kernel; hz as --sysctl kern.hz=N; vlan
		       * as its ports' --vlan, besides the senders' and sinks' tags) */
	AA_RULES,     /* the rule set, loaded again when it changed */
	AA_TRAFFIC,   /* the senders' traffic: nothing on the router */
};

struct axis_def {
	const char *name;
	enum axis_type kind;
	long long min, max;         /* AK_INT, AK_SIZE, AK_RULES (the count) */
	const char *const *names;   /* AK_ENUM, NULL-terminated */
	const char *def;            /* the default as JSON text ("null": the kernel's own) */
	const char *unit;           /* of a value in tables and plots ("" for none) */
	const char *label;          /* what tables and plots call it */
	const char *words;          /* what a title calls it, or NULL: the label */
	enum axis_act act;
	const char *oid;            /* AA_SYSCTL: ppslab-rut's sysctl */
	int order;                  /* AA_SYSCTL: sysctls are sent in rising order (burst_max
				     * before each_burst: each_burst must stay within it) */
	bool rut_only;              /* the oid is ppslab-rut's own: a BSD has no such sysctl */
	bool poll_bound;            /* with burst_max and HZ it bounds the polled rate (a
				     * plot along it draws the bound, model.h) */
};

/* The registry, indexed by enum axis_id. */
extern const struct axis_def axis_defs[AX_COUNT];
/* The axis of that name, or NULL. */
const struct axis_def *axis_find(const char *name);
/* The enum names of the kernel and rules_kind axes (lib/pollkern.c's kernels, in its
 * order; rulegen's kinds). */
extern const char *const axis_kernel_names[];
extern const char *const axis_rules_kinds[];
/* The axes' names into names[0..AX_COUNT), NULL after them; returns names. */
const char **axis_name_list(const char **names);
/* The axes' names joined by sep into buf (for messages); returns buf. */
char *axis_names_join(char *buf, size_t len, const char *sep);
/* The axes' ids in the order their sysctls are sent (AA_SYSCTL only, by order); their
 * count. */
size_t axis_sysctl_order(enum axis_id *ids, size_t max);

#endif
