/* profile.h — sweep profiles (profiles/NAME.json): parsed once with jansson, validated,
 * with every error placed as FILE:LINE:COLUMN: JSON-PATH: what was expected.
 *
 * A profile says what to sweep (the matrix), how to measure each cell (the trial
 * method), what traffic to send, which router is under test and where the boxes are.
 * The format, with every key and its default, is in README.md ("Profiles"):
 *
 *   { "description": "...",
 *     "matrix":   { "pollhz": [1000, 2000], "rules": [0, 10] },     swept axes
 *     "params":   { "burst_max": 150, "mode": "poll" },             fixed axes
 *     "repetitions": 1, "order": "sequential"|"random", "seed": 42,
 *     "trial":    { "method": "fixed"|"rfc2544"|"mlr"|"ladder", "warmup": "1s",
 *                   "duration": "2s", "settle": "0.5s", ... },
 *     "router":   { "kind": "rut"|"external"|"none", "ports": "afpacket"|"xdp", ... },
 *     "topology": { "kind": "netns"|"local"|"ssh", ... },
 *     "rig":      { "calibrate": true, "direct": true },
 *     "output":   { "results": "results.json", "table": {...}, "plot": {...} } }
 *
 * Axes (each may be swept in "matrix" or fixed in "params"; an axis in neither takes
 * its default): pollhz, burst_max, each_burst, user_frac, reg_frac, idle_poll, mode,
 * rules, rules_kind, update_counters, firewall, offered, size, flows, direction.
 * Values are checked per axis (pollhz 1..30000, mode poll|intr|busy, offered a rate
 * "200k" or pps number, size 64..9018, direction uni|bi, rules a count or "file:PATH").
 *
 * --set KEY=VALUE overrides: an axis name sets that axis (a comma list sweeps it:
 * "pollhz=1000,2000"; one value fixes it); a dotted path sets any other key
 * ("trial.duration=1s", "repetitions=3", "router.ports=xdp"). The value is read as JSON
 * when it parses as JSON, else as a string. Overrides are applied before validation,
 * so an overridden value is checked like one in the file (its place is "--set N").
 *
 * The module owns no global state; profile_load() returns an immutable profile. */
#ifndef PPSLAB_PROFILE_H
#define PPSLAB_PROFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every problem found, in file order: "FILE:LINE:COL: PATH: expected X, got Y". */
struct prof_diag {
	size_t n;
	char **msg;
};
void prof_diag_free(struct prof_diag *d);

enum prof_method { PM_FIXED, PM_RFC2544, PM_MLR, PM_LADDER };
enum prof_router { PR_RUT, PR_EXTERNAL, PR_NONE };
enum prof_topo { PT_NETNS, PT_LOCAL, PT_SSH };

struct prof_axis {
	char *name;
	json_t *values;       /* array of validated scalars, in profile order (owned) */
};

struct prof_trial {
	enum prof_method method;
	double warmup_s;      /* frames sent before measuring, not counted (default 1) */
	double duration_s;    /* a fixed trial, and final trials of a search (default 2) */
	double settle_s;      /* pause after each trial for residual frames (default 0.5) */
	/* searches (rfc2544, mlr, ladder): loads in pps */
	double min_load_pps;  /* default 1000 */
	double max_load_pps;  /* 0 = the rig's measured ceiling (default) */
	double width;         /* relative width to stop at (default 0.005) */
	double pdr_loss;      /* PDR goal loss ratio for mlr (default 0.005) */
	double initial_s;     /* mlr: shortest trials (default 1) */
	unsigned phases;      /* mlr: intermediate phases (default 2) */
	double duration_sum_s;/* mlr: full-length seconds to decide a load (default = duration_s) */
	double exceed_ratio;  /* mlr (default 0) */
	unsigned max_trials;  /* a search gives up (irregular) after this many (default 40) */
	json_t *ladder;       /* ladder: array of loads in pps (owned), or NULL = 10..100 % of max */
};

struct prof_router_cfg {
	enum prof_router kind;
	char *ports;          /* rut port backend: "afpacket" (default) or "xdp" */
	char *rules_dir;      /* where "file:NAME" rules are looked up (default: profile's dir) */
	double rt_prio;       /* rut --rt-prio, 0 = normal */
	/* external: per-axis hooks, each an argument vector template whose words may hold
	 * {axis} placeholders ("ssh", "r2", "sysctl", "kern.polling.pollhz={pollhz}"),
	 * run when that axis changes; setup runs once, read after every trial (its stdout,
	 * JSON or text, goes into the trial's "rut" record). */
	json_t *hooks;        /* object: axis → array of strings (owned), or NULL */
	json_t *setup_hook;   /* array of strings, or NULL */
	json_t *read_hook;    /* array of strings, or NULL */
	double hook_timeout_s;/* a hook that runs longer is killed (default 30) */
};

struct prof_host {
	char *ssh;            /* ssh destination ("user@host"), NULL = this host */
	char *netns;          /* namespace to run in (netns topology fills it), or NULL */
	char *iface;          /* test port of this box (gen0/sink0; rut: "rut0,rut1") */
	char *bin;            /* directory of the ppslab programs there, NULL = ours */
};

struct prof_topology {
	enum prof_topo kind;
	char *lab;            /* netns: lab name (default "ppslab"); made if missing */
	struct prof_host gen, rut, sink;
	char *dst;            /* destination address of blast A (default 198.19.0.2) */
	char *dst_b;          /* of blast B in bidirectional runs (default 198.18.0.2) */
};

struct profile {
	char *path;           /* as given */
	char *name;           /* file name without directory and .json */
	json_t *root;         /* the effective profile after --set (owned) */
	const char *description;

	size_t naxes;         /* swept axes, in matrix order */
	struct prof_axis *axes;
	json_t *fixed;        /* object: every other axis → its value, defaults filled (owned) */

	unsigned repetitions; /* default 1 */
	bool order_random;    /* default false (sequential) */
	uint64_t seed;        /* default 1 */

	struct prof_trial trial;
	struct prof_router_cfg router;
	struct prof_topology topo;
	bool rig_calibrate;   /* default true */
	bool rig_direct;      /* default true */
	char *results;        /* output.results (default "results.json"), or NULL */
	json_t *output;       /* the whole "output" object (table/plot settings), borrowed */
};

/* The known axes, NULL-terminated, and one axis' default (borrowed; NULL if unknown). */
extern const char *const prof_axis_names[];
const json_t *prof_axis_default(const char *axis);
bool prof_is_axis(const char *name);

/* Loads path (a file, or a name looked up as profiles/NAME.json beside the program and
 * in PPSLAB_PROFILES), applies sets[0..nsets) ("KEY=VALUE"), validates. Every error goes
 * into d (which may be NULL). Returns 0, -ENOENT (no such file: d says where it looked),
 * -EINVAL (invalid: d has every error found), -ENOMEM. */
int profile_load(const char *path, char *const *sets, size_t nsets, struct profile **out,
		 struct prof_diag *d);
/* The same on text already in memory (name used in messages). */
int profile_parse(const char *text, size_t len, const char *name, char *const *sets,
		  size_t nsets, struct profile **out, struct prof_diag *d);
void profile_free(struct profile *p);

/* The value of axis for a cell: params first, then the profile's fixed values, then
 * the default. Borrowed; NULL only for an unknown axis. */
const json_t *prof_value(const struct profile *p, const json_t *params, const char *axis);
/* Numeric value (rates like "200k" converted to pps); NAN if not a number. */
double prof_num(const struct profile *p, const json_t *params, const char *axis);

#endif
