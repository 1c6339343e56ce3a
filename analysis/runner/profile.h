/* SPDX-License-Identifier: BSD-2-Clause */
/* profile.h — sweep profiles (profiles/NAME.json): parsed once with jansson, validated,
 * with every error placed as FILE:LINE:COLUMN: JSON-PATH: what was expected.
 *
 * A profile says what to sweep (the matrix), how to measure each cell (the trial
 * method), what traffic to send, which router is under test and where the boxes are.
 * The format, with every key and its default, is in docs/profiles.md; the keys
 * of a real three-box lab in docs/profiles-lab.md:
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
 * its default): the registry of lib/axes.h, with its values and defaults (the table
 * in docs/profiles.md#axes follows it). Values are checked per axis, and kept in a
 * canonical form (whole numbers as JSON integers, so "2k" and 2000.0 become 2000);
 * prof_cell (cell.h) resolves a cell's values.
 *
 * A matrix axis is a non-empty list of distinct values; an axis may not be both in
 * "matrix" and "params". Other keys and their defaults:
 *   repetitions 1..1000 (1); order (sequential); seed >= 0 (1); description ("");
 *   allow_any_dst (false: topology.dst/dst_b must lie in 198.18.0.0/15, dst6/dst6_b
 *     in 2001:2::/48);
 *   trial: method (fixed), warmup (1s), duration (2s), settle (0.5s), min_load (1000),
 *     max_load ("max" or 0 = the rig's ceiling), width (0.005, in (0,1)), pdr_loss
 *     (0.005), initial (1s, <= duration), phases (2, 0..10), duration_sum (= duration),
 *     exceed_ratio (0), max_trials (40), ladder (list of rates; default 10..100 % of
 *     max), goals (mlr: a preset "csit", "rfc2544" or "tst009", or a list of up to 8
 *     {name, loss_ratio, exceed_ratio, final, duration_sum, width, latency}; default
 *     NDR and PDR), max_delay (10s: the sink's --max-delay), max_clock_error (0.1, in (0,1]:
 *     lat_* are withheld when the sender's and sink's clocks may differ by more than
 *     this fraction of the median delay). Durations are seconds or text ("500ms");
 *     loads are pps or rates ("200k").
 *   router: kind (rut), ports (afpacket|xdp), rules_dir (the profile's directory),
 *     rt_prio (0..99, 0), ring (0 or 64..4194304 frames, 0), threads (1..64, 1: rut
 *     --threads, and the lab's veths get as many queues), hook_timeout (30s); only
 *     with kind "external": hooks (object: axis → argument vector), setup_hook,
 *     read_hook, check_hook (argument vectors), hook_estimate (a duration, or an
 *     object of axis, "setup", "read", "check" → duration; 1s). In a hook word every
 *     {NAME} names an axis and {{ / }} are literal braces. An external router's swept
 *     axes must each be set by a hook (its own, or one naming {AXIS}), except those
 *     ppslab applies itself: offered, size, flows, direction. Also only external:
 *     axes (router axes, a list of {name, values, set, verify, reboot, timeout}: the
 *     router's own knobs, swept before the matrix's axes; a name of letters, digits and
 *     ._-% that is no built-in axis and not value, setup, read, check, verify, reboot
 *     or ready; {value} in its set and verify is its value), reboot_hook (required
 *     with a reboot axis), ready_hook, reboot_timeout (10m), reboot_estimate (2m).
 *   topology: kind netns (lab "ppslab"; netns LAB-gen/LAB-rut/LAB-sink, iface gen0,
 *     "rut0,rut1", sink0 filled in), local (gen/sink iface required; rut's "IN,OUT" too
 *     when router.kind is rut) or ssh (each such box also needs "ssh": "[user@]host",
 *     no spaces, no leading '-'; an external router's "ssh" is where its environment
 *     is read); "iface" is an interface or a port spec ("xdp:gen0,queue=0": the name
 *     is checked without prefix and options), "IN,OUT" for the router; "bin" is an
 *     absolute directory; dst (198.19.0.2), dst_b (198.18.0.2), their IPv6 counterparts
 *     for ip_version 6 dst6 (2001:2:0:1::2) and dst6_b (2001:2::2), dst_mac, dst_mac_b
 *     (the next hop of blast A and B, "aa:bb:cc:dd:ee:ff": no route lookup).
 *     "gen" and "sink" may each be a list of 1..8 boxes (several senders: the load is
 *     split over all their threads; several sinks: local and ssh only); a sender or
 *     sink box also takes "port" (a backend and its keys: "xdp", "xdp,mode=copy",
 *     "afpacket,frames=4096", "pcap"; a sender also "libnet"), "threads" (1..64, a
 *     sink 1..16), "cpus" ([0, 1] or "0,1"), in the netns topology "queues" (1..64:
 *     the lab's veths get the largest queues, or threads, of any box), and a sender
 *     "dst" and "dst6" (its own destinations). In the lab, sender box i runs in LAB-gen, LAB-gen2,
 *     ...; an xdp: sink there reads every queue (threads default to the lab's queues).
 *     Several sender or sink boxes take no bidirectional cells.
 *   rig: calibrate (true), direct (true). output: results ("results.json"), table and
 *     plot (objects, kept as they are for the table/plot commands).
 *   tests: a list of 1..PROF_TESTS_MAX {name, description, trial, matrix, params}, run
 *     in this order (struct profile's tests); the profile's own trial, matrix and params
 *     are what a test does not say.
 *
 * Error places: FILE:LINE:COL where LINE and COL are 1-based and COL counts UTF-8
 * characters (as jansson does), pointing at the offending key (unknown keys) or value.
 *
 * --set KEY=VALUE overrides: an axis name sets that axis (a comma list sweeps it:
 * "pollhz=1000,2000"; one value fixes it); a dotted path sets any other key
 * ("trial.duration=1s", "repetitions=3", "router.ports=xdp"); a path through a list
 * sets the key in each of its objects ("topology.gen.threads=2" with several senders).
 * The value is read as JSON
 * when it parses as JSON, else as a string. Overrides are applied before validation,
 * so an overridden value is checked like one in the file (its place is "--set N").
 *
 * The module owns no global state; profile_load() returns an immutable profile. */
#ifndef PPSLAB_ANALYSIS_RUNNER_PROFILE_H
#define PPSLAB_ANALYSIS_RUNNER_PROFILE_H

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

enum prof_method { PM_FIXED, PM_RFC2544, PM_MLR, PM_LADDER, PM_B2B, PM_OUTAGE };
/* "fixed", "rfc2544", "mlr", "ladder", "b2b", "outage": the profile's word for a method,
 * and the results'. */
const char *prof_method_name(enum prof_method m);
enum prof_router { PR_RUT, PR_EXTERNAL, PR_NONE };
enum prof_topo { PT_NETNS, PT_LOCAL, PT_SSH };

struct prof_raxis;

struct prof_axis {
	char *name;
	json_t *values;       /* array of validated scalars, in profile order (owned) */
	const struct prof_raxis *router;  /* a router axis (router.axes), or NULL: built in */
};

/* A knob of an external router swept by the profile (router.axes[]): any sysctl-like
 * name or plain word that is no built-in axis, its values (numbers or strings, kept as
 * written; whole numbers as integers), the argument vector that sets it ({value} is the
 * cell's value, {AXIS} any axis'), optionally one whose trimmed standard output must
 * equal the value after it was set (verify), and whether it takes effect only when the
 * router restarts (reboot: ppslab runs router.reboot_hook after setting it and waits
 * until the router is back). */
struct prof_raxis {
	char *name;
	json_t *values;       /* the same array as its prof_axis (a reference) */
	json_t *set;          /* argument vector */
	json_t *verify;       /* argument vector, or NULL: not read back */
	bool reboot;
	double timeout_s;     /* its set and verify hooks are killed after this */
};

/* A search goal of mlr (RFC 9971 §4.3; docs/profiles.md#search-goals). */
#define PROF_MAX_GOALS 8
struct prof_goal {
	char name[16];          /* letters, digits, '_'; its metric is lower-case NAME_pps */
	double loss_ratio, exceed_ratio;
	double final_s, duration_sum_s;
	double width;
	double latency_ns;      /* > 0: a frame later than this counts as lost */
};
#define PROF_LATENCY_LOADS_MAX 16
/* What an outage trial measures: the gaps around any action ("timeline"), or the time
 * a reset takes (RFC 2544 §26.6, "reset"). */
enum prof_outage_recipe { PO_TIMELINE, PO_RESET, PO_RECOVERY };
/* "timeline", "reset", "recovery": the profile's word for a recipe, and the results'. */
const char *prof_recipe_name(enum prof_outage_recipe r);

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
	double max_delay_s;   /* one-way delays above are implausible (the sink's --max-delay,
			       * default 10) */
	double max_clock_error;/* lat_* are withheld when the sender's and sink's clocks may
			       * differ by more than this fraction of the median delay (0.1) */
	/* a sender that falls behind (docs/method.md#a-sender-that-falls-behind) */
	const char *late_policy; /* the senders' --late-policy, static; NULL: by method, skip
				  * for searches (rfc2544, mlr), catchup for fixed and ladder */
	unsigned max_burst;   /* check "sender kept pace": largest burst, frames (64) */
	double max_behind;    /* ... and time behind, a fraction of the trial (0.01) */
	unsigned repeat_invalid;/* a trial that fails it is repeated this often (3) */
	/* b2b: back-to-back frames (docs/method.md#back-to-back-frames); the throughput
	 * search before it and the theoretical frame rate use the fields above (max_load:
	 * that rate, 0 the rig's ceiling) */
	unsigned b2b_trials;  /* searches for the longest burst (50, RFC 2544 §26.4) */
	unsigned long long b2b_min_burst, b2b_max_burst; /* frames (1, 1000000) */
	unsigned long long b2b_resolution; /* a search's last step, frames (1) */
	double b2b_throughput_pps; /* 0: measured first by an rfc2544 search in the case */
	/* mlr's goals (trial.goals): 0 = NDR and PDR from width, pdr_loss, duration,
	 * duration_sum, exceed_ratio; otherwise duration_s is the longest final_s */
	size_t ngoals;
	struct prof_goal goals[PROF_MAX_GOALS];
	const char *goal_preset; /* "csit", "rfc2544", "tst009" (static), or NULL */
	/* latency at load (docs/method.md#latency-at-load): after a search, a trial at each
	 * of these percentages of the NDR found (0: a probe at min_load); none: off */
	size_t nlatency_loads;
	double latency_loads[PROF_LATENCY_LOADS_MAX];
	/* outage (docs/method.md#outage-timeline): one trial at a held load, an action
	 * fired at outage_at_s into it, the sinks' gaps relative to that instant */
	double outage_load_pps;  /* > 0: the load, a fixed rate */
	double outage_load_pct;  /* > 0: the load, this % of the NDR an rfc2544 search of the
				  * case finds first */
	double outage_at_s;      /* the action's instant, seconds after the warm-up (1) */
	double outage_duration_s;/* the outage trial's length (trial.outage_duration, else
				  * duration_s, which the search before it keeps) */
	double outage_gap_min_s; /* the sinks' --gap-min; < 0 (absent): ten frame intervals */
	enum prof_outage_recipe outage_recipe;
	const json_t *outage_ctl;  /* words for `ppslab-rut ctl SOCK` (borrowed from root),
				    * or NULL */
	const json_t *outage_hook; /* an argument vector with {AXIS} placeholders, or NULL */
	unsigned outage_rules;     /* > 0: that many generated rules loaded into ppslab-rut */
	bool outage_per_rule;      /* ... one call a rule, as ipfw(8) loads a file */
};
/* Whether a case of t runs a load search: its method's, or the rfc2544 search for the
 * throughput b2b and outage run first; not b2b with trial.b2b_throughput given, nor
 * outage at a fixed load. */
bool prof_searches(const struct prof_trial *t);

struct prof_router_cfg {
	enum prof_router kind;
	char *ports;          /* rut port backend: "afpacket" (default) or "xdp" */
	char *rules_dir;      /* where "file:NAME" rules are looked up, resolved against the
			       * profile's directory (default: that directory) */
	double rt_prio;       /* rut --rt-prio, 0 = normal */
	unsigned threads;     /* rut --threads (one per queue), 1 = one */
	unsigned ring;        /* frames per receive ring of each forwarder port, one slot per
			       * frame like a NIC's descriptor ring (afpacket ring=v2,frames=N);
			       * 0: the backend's default (about 130,000 small frames) */
	/* external: per-axis hooks, each an argument vector template whose words may hold
	 * {axis} placeholders ("ssh", "r2", "sysctl", "kern.polling.pollhz={pollhz}"),
	 * run when that axis changes; setup runs once, read after every trial (its stdout,
	 * JSON or text, goes into the trial's "rut" record). */
	json_t *hooks;        /* object: axis → array of strings (owned), or NULL */
	json_t *setup_hook;   /* array of strings, or NULL */
	json_t *read_hook;    /* array of strings, or NULL */
	json_t *check_hook;   /* array of strings, or NULL: run after the hooks of every case;
			       * a status other than 0 fails the case with its output */
	double hook_timeout_s;/* a hook that runs longer is killed (default 30) */
	double hook_est_s;    /* the plan's estimate of one hook run (default 1 s) */
	json_t *hook_est;     /* object: axis, "setup", "read", "check", "verify" → seconds,
			       * or NULL */
	/* router axes: knobs of the router itself, swept like built-in axes (they come
	 * first in struct profile's axes, in this order) */
	size_t naxes;
	struct prof_raxis *axes;
	json_t *reboot_hook;  /* restarts the router after a reboot axis was set, or NULL */
	json_t *ready_hook;   /* exits 0 once the router is back; NULL: a probe of test
			       * frames through it */
	double reboot_timeout_s; /* how long a reboot may take (default 600) */
	double reboot_est_s;  /* the plan's estimate of one reboot (default 120) */
	json_t *verify;       /* object: built-in axis → argument vector that prints the
			       * router's value of it, compared with the cell's, or NULL */
	json_t *boot_hook;    /* prints the router's boot identity (changes at every boot),
			       * or NULL: read over topology.rut.ssh */
	json_t *power_cycle_hook; /* cuts and restores the router's power (IPMI, a PDU),
			       * tried once when it does not come back or stops answering;
			       * or NULL */
};

/* Sender and sink boxes a topology may list (topology.gen, topology.sink as lists). */
#define PROF_BOXES_MAX 8
/* The shortest trial (trial.duration, trial.initial), seconds. */
#define PROF_TRIAL_MIN_S 0.1

struct prof_host {
	char *name;           /* names the box in records and messages: "gen", "gen2", ...,
			       * "sink", "sink2", ..., "rut" */
	char *ssh;            /* ssh destination ("user@host"), NULL = this host */
	char *netns;          /* namespace to run in (netns topology fills it), or NULL */
	char *iface;          /* test port of this box (gen0/sink0; rut: "rut0,rut1") */
	char *bin;            /* directory of the ppslab programs there, NULL = ours */
	/* sender and sink boxes only: */
	char *spec;           /* the port spec the tools open: iface when it names a backend
			       * ("xdp:gen0,queue=0"), else "BACKEND:IFACE[,KEYS]" from "port",
			       * else iface (afpacket) */
	char *backend;        /* of spec: "afpacket", "xdp", "pcap", "libnet", "udp" */
	unsigned threads;     /* the tool's --threads (1; an xdp: sink in the lab: one per
			       * queue of the lab) */
	char *cpus;           /* the tool's --cpus ("0,1"), or NULL */
	unsigned queues;      /* netns: queues its veth needs (0: not given) */
	char *dst;            /* a sender's destination (default topology.dst) */
	char *dst6;           /* its IPv6 one, ip_version 6 (default topology.dst6) */
	int stream;           /* a sender's stream id: 1, then 3, 4, ... (2 is blast B) */
};

struct prof_topology {
	enum prof_topo kind;
	char *lab;            /* netns: lab name (default "ppslab"); made if missing */
	struct prof_host rut;
	struct prof_host *gens, *sinks;   /* every sender and sink box, at least one each,
					   * at most PROF_BOXES_MAX */
	size_t ngens, nsinks;
	unsigned lab_senders; /* netns: sender namespaces the lab needs (ngens) */
	unsigned lab_queues;  /* netns: queues the lab's veths need at least (the largest
			       * queues, or threads, of a box; 1 when nothing asks for more) */
	char *dst;            /* destination address of blast A (default 198.19.0.2) */
	char *dst_b;          /* of blast B in bidirectional runs (default 198.18.0.2) */
	char *dst6, *dst6_b;  /* their IPv6 counterparts, ip_version 6 (default the lab's sink0
			       * 2001:2:0:1::2 and gen0 2001:2::2) */
	char *dst_mac;        /* next-hop MAC of blast A (the router's port A), or NULL: the
			       * sender looks it up (route and neighbour table) */
	char *dst_mac_b;      /* of blast B (the router's port B), or NULL */
	json_t *ssh_options;  /* ssh: extra words for every ssh command, e.g. ["-p", "2222",
			       * "-i", "/root/.ssh/lab"] (array of strings, owned), or NULL */
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

	/* tests (docs/profiles.md#tests): several measurements of one router, run one after
	 * another into one results file. Each is a whole profile: this one without "tests",
	 * the test's trial keys laid over trial, each axis it sweeps or fixes taken out of
	 * matrix and params and put where the test has it. 0: a profile of one test (itself). */
	size_t ntests;
	struct profile **tests;
	char *test;           /* a test's name; NULL in the profile itself */
	const char *test_description; /* a test's own "description", or "" */
};

/* Tests a profile may list, and the longest name ([a-z0-9_-], a letter first). */
#define PROF_TESTS_MAX 16
#define PROF_TEST_NAME_MAX 32

/* One built-in axis' default (borrowed; NULL if unknown). */
const json_t *prof_axis_default(const char *axis);
/* A value as it appears in a case id: res_value_str's text, but a string's '/', '=',
 * '%', '\\' and control characters written %XX, so that no value can make two cells
 * one id ("a/b=c" is "a%2Fb%3Dc"). Returns buf. */
char *prof_id_text(const json_t *v, char *buf, size_t len);
/* The values of a built-in axis: the swept list (*swept set), else its fixed value
 * (borrowed). */
const json_t *prof_axis_values(const struct profile *p, const char *name, bool *swept);
/* The router axis of that name, or NULL. */
const struct prof_raxis *prof_router_axis(const struct profile *p, const char *name);
/* True when some router axis has "reboot": true. */
bool prof_has_reboots(const struct profile *p);

/* Loads path (a file, or a bare name without '/' and ".json" looked up as
 * profiles/NAME.json in the current directory, then $PPSLAB_PROFILES/NAME.json, then
 * beside the program: EXEDIR/../share/ppslab/profiles (installed) and EXEDIR/../../profiles
 * (the build tree), then PPSLAB_SHARE_DIR/profiles when built with that macro), applies sets[0..nsets) ("KEY=VALUE"), validates. Every error goes
 * into d (which may be NULL). Returns 0, -ENOENT (no such file: d says where it looked),
 * -EINVAL (invalid: d has every error found), -ENOMEM. */
int profile_load(const char *path, char *const *sets, size_t nsets, struct profile **out,
		 struct prof_diag *d);
/* The same on text already in memory (name used in messages). */
int profile_parse(const char *text, size_t len, const char *name, char *const *sets,
		  size_t nsets, struct profile **out, struct prof_diag *d);
void profile_free(struct profile *p);

/* The file of a rules value "file:PATH", resolved against router.rules_dir, into buf:
 * 0, or -EINVAL when v is not such a value (a count). */
int prof_rules_path(const struct profile *p, const json_t *v, char *buf, size_t len);

/* ---- hooks of an external router ----
 * A hook is an argument vector; in each word {AXIS} is replaced by the cell's value and
 * {{ / }} stand for a literal brace. prof_hook_scan() walks one word: fn gets literal
 * text (lit, n) or a placeholder's name. Returns 0, -EINVAL ("{" without "}", an empty
 * or too long name) or -EPROTO (a lone "}"), with *bad_at its offset. */
#define PROF_HOOK_NAME_MAX 64
typedef void (*prof_hook_piece_fn)(void *ctx, const char *lit, size_t n, const char *name);
int prof_hook_scan(const char *word, prof_hook_piece_fn fn, void *ctx, size_t *bad_at);
/* True if some word of the vector names {axis}. */
bool prof_hook_uses(const json_t *argv, const char *axis);
/* True if an external router's hooks set axis: a hook of its own or one naming it. */
bool prof_axis_hooked(const struct profile *p, const char *axis);
/* Whether an external router's setting of axis is read back (a router axis' verify,
 * router.verify.AXIS). */
bool prof_axis_verified(const struct profile *p, const char *axis);
/* The axes an external router's hooks set that nothing reads back (swept or fixed),
 * up to max names into names; their count. --dry-run warns of each. */
size_t prof_unread_axes(const struct profile *p, const char **names, size_t max);
/* True for the axes ppslab applies itself, whatever the router: the traffic's (offered,
 * size, flows, direction). */
bool prof_axis_by_ppslab(const char *axis);
/* The plan's estimate of one run of a hook: key is an axis, "setup", "read" or "check". */
#define PROF_HOOK_EST_DEFAULT_S 1.0
double prof_hook_estimate(const struct profile *p, const char *key);

#endif
