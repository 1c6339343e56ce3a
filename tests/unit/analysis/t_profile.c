/* SPDX-License-Identifier: BSD-2-Clause */
/* t_profile.c — sweep profiles: defaults of an empty profile, a full one, and every
 * error path with its place (FILE:LINE:COL or --set N), collected all at once; --set
 * sweeping, fixing and dotted keys; rule files; ssh destinations; the benchmarking-range
 * guard; the bare-name lookup of profile_load. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "profile.h"
#include "tap.h"

static const char *top(void)
{
	const char *t = getenv("PPSLAB_TOP");
	return t ? t : ".";
}

static char name_buf[1024];

/* Messages are placed as NAME:LINE:COL; NAME is in the fixture directory so that
 * "file:" rules resolve there. */
static const char *fname(void)
{
	snprintf(name_buf, sizeof(name_buf), "%s/tests/unit/data/profile/inline.json", top());
	return name_buf;
}

static int parse_sets(const char *text, char *const *sets, size_t n, struct profile **p,
		      struct prof_diag *d)
{
	memset(d, 0, sizeof(*d));
	return profile_parse(text, strlen(text), fname(), sets, n, p, d);
}

static int parse(const char *text, struct profile **p, struct prof_diag *d)
{
	return parse_sets(text, NULL, 0, p, d);
}

/* True if some message contains s; prints them all otherwise. */
static int has(const struct prof_diag *d, const char *s)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->msg[i], s))
			return 1;
	for (size_t i = 0; i < d->n; i++)
		printf("# diag: %s\n", d->msg[i]);
	printf("# (none contains: %s)\n", s);
	return 0;
}

/* The message with FILE: stripped, for exact comparisons. */
static const char *rel(const struct prof_diag *d, size_t i)
{
	if (i >= d->n)
		return "(no such message)";
	size_t n = strlen(fname());
	return strncmp(d->msg[i], fname(), n) ? d->msg[i] : d->msg[i] + n;
}

static void t_defaults(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{}", &p, &d), 0);
	T_EQ_INT(d.n, 0);
	if (!p)
		return;
	T_STREQ(p->name, "inline");
	T_STREQ(p->description, "");
	T_EQ_INT(p->naxes, 0);
	T_EQ_INT(p->repetitions, 1);
	T_TRUE(!p->order_random);
	T_EQ_U64(p->seed, 1);
	T_EQ_INT(json_integer_value(json_object_get(p->fixed, "pollhz")), 2000);
	T_EQ_INT(json_integer_value(json_object_get(p->fixed, "burst_max")), 150);
	T_EQ_INT(json_integer_value(json_object_get(p->fixed, "update_counters")), 1);
	struct cell c;
	prof_cell(p, NULL, &c);
	T_STREQ(c.counters, "percpu");
	T_STREQ(c.mode, "poll");
	T_STREQ(c.rules_kind, "nomatch");
	T_STREQ(json_string_value(cell_value(&c, "firewall")), "auto");
	T_TRUE(!c.firewall);   /* auto without rules */
	T_STREQ(json_string_value(cell_value(&c, "offered")), "max");
	T_EQ_INT(json_object_size(p->fixed), AX_COUNT);
	T_STREQ(c.kernel, "dragonfly-2.0");
	T_TRUE(json_is_null(cell_value(&c, "hz")) && c.hz == 0);  /* the kernel's own */
	T_TRUE(isnan(c.offered_pps));
	T_EQ_INT(c.size, 64);
	T_EQ_INT(c.flows, 1);
	T_EQ_INT(c.pollhz, 2000);
	T_EQ_INT(c.burst_max, 150);
	T_EQ_INT(c.each_burst, 5);
	T_TRUE(c.update_counters && !c.idle_poll && !c.bi && !c.rules_file && c.rules == 0);
	T_TRUE(cell_value(&c, "nosuch") == NULL);
	T_EQ_INT(p->trial.method, PM_FIXED);
	T_NEAR(p->trial.warmup_s, 1, 0);
	T_NEAR(p->trial.duration_s, 2, 0);
	T_NEAR(p->trial.settle_s, 0.5, 0);
	T_NEAR(p->trial.min_load_pps, 1000, 0);
	T_NEAR(p->trial.max_load_pps, 0, 0);
	T_NEAR(p->trial.width, 0.005, 0);
	T_NEAR(p->trial.duration_sum_s, 2, 0);
	T_EQ_INT(p->trial.phases, 2);
	T_EQ_INT(p->trial.max_trials, 40);
	T_TRUE(p->trial.late_policy == NULL);   /* by method */
	T_EQ_INT((int)p->trial.max_burst, 64);
	T_NEAR(p->trial.max_behind, 0.01, 0);
	T_EQ_INT((int)p->trial.repeat_invalid, 3);
	T_TRUE(p->trial.ladder == NULL);
	T_EQ_INT(p->router.kind, PR_RUT);
	T_STREQ(p->router.ports, "afpacket");
	T_NEAR(p->router.hook_timeout_s, 30, 0);
	T_EQ_INT(p->topo.kind, PT_NETNS);
	T_STREQ(p->topo.lab, "ppslab");
	T_STREQ(p->topo.gens[0].netns, "ppslab-gen");
	T_STREQ(p->topo.rut.netns, "ppslab-rut");
	T_STREQ(p->topo.sinks[0].netns, "ppslab-sink");
	T_STREQ(p->topo.gens[0].iface, "gen0");
	T_STREQ(p->topo.rut.iface, "rut0,rut1");
	T_STREQ(p->topo.sinks[0].iface, "sink0");
	T_TRUE(p->topo.gens[0].ssh == NULL);
	T_STREQ(p->topo.dst, "198.19.0.2");
	T_STREQ(p->topo.dst_b, "198.18.0.2");
	T_TRUE(p->rig_calibrate && p->rig_direct);
	T_STREQ(p->results, "results.json");
	T_TRUE(p->output == NULL);
	profile_free(p);
	T_TRUE(axis_find("reg_frac") && axis_find("hz") && !axis_find("khz"));
	T_EQ_INT(json_integer_value(prof_axis_default("each_burst")), 5);
}

/* Each kernel's knobs (docs/design/polling.md#kernel-personalities): a profile that
 * sets pollhz for a FreeBSD kernel, idle_poll for a DragonFly one or burst_max above the
 * kernel's maximum is told so at the value; defaults are not a problem */
static void t_kernel_axes(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"matrix\": {\"hz\": [1000, 2000], \"idle_poll\": [0, 1]},\n"
		       " \"params\": {\"kernel\": \"freebsd-14\", \"burst_max\": 20000}}", &p, &d), 0);
	T_EQ_INT(d.n, 0);
	profile_free(p);
	T_EQ_INT(parse("{\"matrix\": {\"kernel\": [\"dragonfly-1.8\", \"freebsd-7\"],\n"
		       " \"pollhz\": [1000]}, \"params\": {\"idle_poll\": 1, \"burst_max\": 2000}}",
		       &p, &d), -EINVAL);
	T_EQ_INT(d.n, 4);
	T_STREQ(rel(&d, 0), ":2:2: matrix.pollhz: kernel freebsd-7 has no kern.polling.pollhz: "
			    "it polls at kern.hz (the hz axis)");
	T_STREQ(rel(&d, 1), ":2:32: params.idle_poll: kernel dragonfly-1.8 has no "
			    "kern.polling.idle_poll: DragonFly polls only on clock ticks");
	T_TRUE(has(&d, ":2:61: params.burst_max: kernel dragonfly-1.8 takes burst_max up to "
		       "1000, got 2000"));
	T_TRUE(has(&d, ":2:61: params.burst_max: kernel freebsd-7 takes burst_max up to 1000, "
		       "got 2000"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"params\": {\"kernel\": \"freebsd-5\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:23: params.kernel: expected \"dragonfly-1.8\", \"dragonfly-2.0\", "
		       "\"freebsd-5.3\", \"freebsd-7\" or \"freebsd-14\", got string \"freebsd-5\""));
	prof_diag_free(&d);
	/* an external router has no ppslab-rut kernel */
	T_EQ_INT(parse("{\"params\": {\"idle_poll\": 1}, \"router\": {\"kind\": \"external\"}}",
		       &p, &d), 0);
	profile_free(p);
}

static void t_full(void)
{
	const char *text =
		"{\n"
		"  \"description\": \"full\",\n"
		"  \"matrix\": { \"offered\": [\"100k\", 200000, \"max\"], \"firewall\": [true, \"off\"],\n"
		"              \"pollhz\": [\"2k\", 3000.0] },\n"
		"  \"params\": { \"mode\": \"intr\", \"idle_poll\": true, \"rules\": 10, \"size\": 1518 },\n"
		"  \"repetitions\": 3, \"order\": \"random\", \"seed\": 7,\n"
		"  \"trial\": { \"method\": \"mlr\", \"warmup\": \"250ms\", \"duration\": 10,\n"
		"             \"initial\": \"1s\", \"duration_sum\": \"30s\", \"min_load\": \"10k\",\n"
		"             \"max_load\": \"1.5M\", \"width\": 0.01, \"pdr_loss\": 0.001,\n"
		"             \"ladder\": [\"100k\", 200000] },\n"
		"  \"router\": { \"kind\": \"external\", \"hooks\": { \"pollhz\": [\"ssh\", \"r2\",\n"
		"              \"sysctl\", \"kern.polling.pollhz={pollhz}\"],\n"
		"              \"firewall\": [\"ssh\", \"r2\", \"fw\", \"{firewall}\"] },\n"
		"              \"read_hook\": [\"ssh\", \"r2\", \"ipfw\", \"show\"],\n"
		"              \"hook_timeout\": \"5s\" },\n"
		"  \"topology\": { \"kind\": \"ssh\", \"gen\": { \"ssh\": \"lab@gen1\", \"iface\": \"em0\" },\n"
		"                \"sink\": { \"ssh\": \"sink2\", \"iface\": \"em1\", \"bin\": \"/opt/ppslab/bin\" } },\n"
		"  \"rig\": { \"direct\": false },\n"
		"  \"output\": { \"results\": \"out.json\", \"table\": { \"rows\": \"pollhz\" } }\n"
		"}\n";
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse(text, &p, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (!p)
		return;
	T_STREQ(p->description, "full");
	T_EQ_INT(p->naxes, 3);
	T_STREQ(p->axes[0].name, "offered");
	T_STREQ(p->axes[1].name, "firewall");
	T_STREQ(p->axes[2].name, "pollhz");
	T_STREQ(json_string_value(json_array_get(p->axes[1].values, 0)), "on");
	T_EQ_INT(json_integer_value(json_array_get(p->axes[2].values, 0)), 2000);
	T_TRUE(json_is_integer(json_array_get(p->axes[2].values, 1)));
	json_t *cell = json_pack("{s:s}", "offered", "100k");
	struct cell c;
	prof_cell(p, cell, &c);
	T_NEAR(c.offered_pps, 100000, 0);
	T_STREQ(json_string_value(cell_value(&c, "offered")), "100k");   /* as written */
	T_STREQ(c.mode, "intr");
	T_TRUE(c.idle_poll);
	T_EQ_INT(c.rules, 10);
	T_TRUE(c.firewall);   /* auto with rules */
	json_decref(cell);
	T_EQ_INT(p->repetitions, 3);
	T_TRUE(p->order_random);
	T_EQ_U64(p->seed, 7);
	T_EQ_INT(p->trial.method, PM_MLR);
	T_NEAR(p->trial.warmup_s, 0.25, 1e-12);
	T_NEAR(p->trial.duration_s, 10, 0);
	T_NEAR(p->trial.duration_sum_s, 30, 0);
	T_NEAR(p->trial.min_load_pps, 10000, 0);
	T_NEAR(p->trial.max_load_pps, 1500000, 0);
	T_NEAR(p->trial.pdr_loss, 0.001, 0);
	T_EQ_INT(json_array_size(p->trial.ladder), 2);
	T_NEAR(json_number_value(json_array_get(p->trial.ladder, 0)), 100000, 0);
	T_EQ_INT(p->router.kind, PR_EXTERNAL);
	T_EQ_INT(json_array_size(json_object_get(p->router.hooks, "pollhz")), 4);
	T_EQ_INT(json_array_size(p->router.read_hook), 4);
	T_TRUE(p->router.setup_hook == NULL);
	T_NEAR(p->router.hook_timeout_s, 5, 0);
	T_EQ_INT(p->topo.kind, PT_SSH);
	T_STREQ(p->topo.gens[0].ssh, "lab@gen1");
	T_STREQ(p->topo.sinks[0].bin, "/opt/ppslab/bin");
	T_TRUE(p->topo.rut.ssh == NULL && p->topo.gens[0].netns == NULL && p->topo.lab == NULL);
	T_TRUE(p->rig_calibrate && !p->rig_direct);
	T_STREQ(p->results, "out.json");
	T_TRUE(json_is_object(json_object_get(p->output, "table")));
	profile_free(p);
}

static void t_syntax_error(void)
{
	struct profile *p = (struct profile *)1;
	struct prof_diag d;
	T_EQ_INT(parse("{\n  \"a\": 1,\n}\n", &p, &d), -EINVAL);
	T_TRUE(p == NULL);
	T_EQ_INT(d.n, 1);
	T_TRUE(!strncmp(rel(&d, 0), ":3:1: ", 6));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {}, \"trial\": {}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "duplicate object key"));
	prof_diag_free(&d);
	T_EQ_INT(parse("[1, 2]", &p, &d), -EINVAL);
	T_STREQ(rel(&d, 0), ":1:1: a profile is a JSON object {...}");
	prof_diag_free(&d);
}

static void t_unknown_key(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\n  \"trial\": {\"durration\": 1}\n}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	/* long: compared whole, printed when it differs (T_STREQ's buffer is shorter) */
	const char *want_keys =
		":2:13: trial.durration: unknown key \"durration\" in trial; known keys: method, "
		"warmup, duration, settle, min_load, max_load, width, pdr_loss, initial, phases, "
		"duration_sum, exceed_ratio, max_trials, ladder, max_delay, max_clock_error, "
		"late_policy, max_burst, max_behind, repeat_invalid, b2b_trials, b2b_min_burst, "
		"b2b_max_burst, b2b_resolution, b2b_throughput, goals, latency_loads, outage_load, "
		"outage_at, outage_action, outage_recipe, outage_gap_min, outage_duration";
	if (strcmp(rel(&d, 0), want_keys))
		printf("# got: %s\n", rel(&d, 0));
	T_TRUE(!strcmp(rel(&d, 0), want_keys));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"khz\": [1]}, \"colour\": 1}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 2);
	T_TRUE(!strncmp(rel(&d, 0), ":1:13: matrix.khz: unknown axis \"khz\"; axes: \"pollhz\"", 52));
	T_TRUE(!strncmp(rel(&d, 1), ":1:26: colour: unknown key \"colour\" in the top level", 50));
	prof_diag_free(&d);
}

static void t_wrong_type(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"params\": {\"offered\": \"abc\"}}", &p, &d), -EINVAL);
	T_STREQ(rel(&d, 0), ":1:24: params.offered: expected a number or a rate like \"200k\" or "
			    "\"max\", got string \"abc\"");
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"duration\": true, \"method\": \"binary\"}, \"rig\": 3}",
		       &p, &d), -EINVAL);
	T_EQ_INT(d.n, 3);
	T_TRUE(has(&d, ":1:24: trial.duration: expected a duration such as 10, 10s"));
	T_TRUE(has(&d, ":1:40: trial.method: expected \"fixed\", \"rfc2544\", \"mlr\", "
		       "\"ladder\", \"b2b\" or \"outage\", got string \"binary\""));
	T_TRUE(has(&d, ":1:58: rig: expected an object {...}, got 3"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"mode\": \"poll\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "matrix.mode: expected a non-empty list of mode values, got string \"poll\""));
	prof_diag_free(&d);
	/* a forwarder of two threads, its counters swept */
	T_EQ_INT(parse("{\"matrix\": {\"counters\": [\"shared\", \"percpu\"]},"
		       " \"router\": {\"threads\": 2}}", &p, &d), 0);
	if (p) {
		T_EQ_INT(p->router.threads, 2);
		T_STREQ(json_string_value(json_array_get(p->axes[0].values, 0)), "shared");
		profile_free(p);
	}
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"params\": {\"counters\": \"atomic\"}, \"router\": {\"threads\": 65}}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, "params.counters: expected \"percpu\" or \"shared\", got string \"atomic\""));
	T_TRUE(has(&d, "router.threads: expected a whole number 1..64, got 65 (out of range)"));
	prof_diag_free(&d);
}

static void t_axis_ranges(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"matrix\": {\"pollhz\": [1000, 50000, 2.5], \"size\": [63],\n"
		       " \"direction\": [\"both\"], \"burst_max\": [],\n"
		       " \"rules\": [-1, \"many\"], \"update_counters\": [2]},\n"
		       " \"params\": {\"user_frac\": 100}}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:30: matrix.pollhz[1]: expected a whole number 1..30000, got 50000 (out of range)"));
	T_TRUE(has(&d, ":1:37: matrix.pollhz[2]: expected a whole number 1..30000, got 2.5"));
	T_TRUE(has(&d, "matrix.size[0]: expected a whole number 64..9018, got 63 (out of range)"));
	T_TRUE(has(&d, ":2:16: matrix.direction[0]: expected \"uni\" or \"bi\", got string \"both\""));
	T_TRUE(has(&d, "matrix.burst_max: expected a non-empty list of burst_max values, got a list"));
	T_TRUE(has(&d, ":3:12: matrix.rules[0]: expected a rule count 0..100000 or \"file:PATH\""));
	T_TRUE(has(&d, "matrix.rules[1]: expected a rule count"));
	T_TRUE(has(&d, "matrix.update_counters[0]: expected 0 or 1"));
	T_TRUE(has(&d, ":4:26: params.user_frac: expected a whole number 0..99, got 100"));
	T_EQ_INT(d.n, 9);
	/* in file order */
	for (size_t i = 1; i < d.n; i++) {
		int l0 = 0, c0 = 0, l1 = 0, c1 = 0;
		sscanf(rel(&d, i - 1), ":%d:%d:", &l0, &c0);
		sscanf(rel(&d, i), ":%d:%d:", &l1, &c1);
		T_TRUE(l0 < l1 || (l0 == l1 && c0 <= c1));
	}
	prof_diag_free(&d);
}

static void t_duplicates(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"matrix\": {\"pollhz\": [1000, 2000], \"offered\": [\"100k\", 100000]},\n"
		       " \"params\": {\"pollhz\": 3000}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 2);
	T_STREQ(rel(&d, 0), ":1:13: matrix.pollhz: axis pollhz is both swept (matrix) and fixed (params)");
	T_STREQ(rel(&d, 1), ":1:57: matrix.offered[1]: 100000 appears twice in the list");
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"firewall\": [true, \"on\"]}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "matrix.firewall[1]: string \"on\" appears twice"));
	prof_diag_free(&d);
}

static void t_set(void)
{
	struct profile *p;
	struct prof_diag d;
	char *sets[] = { "pollhz=1000,2000", "burst_max=200", "trial.duration=1s", "repetitions=3",
			 "router.ports=xdp", "rules=[0, 5]" };
	T_EQ_INT(parse_sets("{\"matrix\": {\"burst_max\": [50, 100]}, \"params\": {\"rules\": 1},"
			    " \"trial\": {\"duration\": 5}}",
			    sets, 6, &p, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (!p)
		return;
	T_EQ_INT(p->naxes, 2);
	T_STREQ(p->axes[0].name, "pollhz");
	T_EQ_INT(json_array_size(p->axes[0].values), 2);
	T_EQ_INT(json_integer_value(json_array_get(p->axes[0].values, 1)), 2000);
	T_STREQ(p->axes[1].name, "rules");
	T_EQ_INT(json_integer_value(json_object_get(p->fixed, "burst_max")), 200);
	T_TRUE(json_object_get(p->fixed, "rules") == NULL);
	T_NEAR(p->trial.duration_s, 1, 0);
	T_EQ_INT(p->repetitions, 3);
	T_STREQ(p->router.ports, "xdp");
	profile_free(p);
}

static void t_set_errors(void)
{
	struct profile *p;
	struct prof_diag d;
	char *sets[] = { "pollhz", "trial.duration=abc", "pollhz=1000,99999", "topology.gen.iface=",
			 "matrx.pollhz=1", "=3", "trial..x=1", "rules_kind=many" };
	T_EQ_INT(parse_sets("{\"trial\": {\"duration\": 5}}", sets, 8, &p, &d), -EINVAL);
	T_EQ_INT(d.n, 8);
	T_STREQ(rel(&d, 0), "--set 1: expected KEY=VALUE (e.g. pollhz=1000,2000 or trial.duration=1s), got \"pollhz\"");
	T_TRUE(!strncmp(rel(&d, 1), "--set 2: trial.duration: expected a duration", 44));
	T_STREQ(rel(&d, 2), "--set 3: matrix.pollhz[1]: expected a whole number 1..30000, got 99999 (out of range)");
	T_STREQ(rel(&d, 3), "--set 4: topology.gen.iface: expected a non-empty string, got string \"\"");
	T_TRUE(!strncmp(rel(&d, 4), "--set 5: matrx: unknown key \"matrx\" in the top level", 50));
	T_TRUE(!strncmp(rel(&d, 5), "--set 6: expected KEY=VALUE", 27));
	T_TRUE(!strncmp(rel(&d, 6), "--set 7: \"trial..x\" is not a key", 32));
	T_STREQ(rel(&d, 7), "--set 8: params.rules_kind: expected \"nomatch\" or \"count\", got string \"many\"");
	prof_diag_free(&d);
	/* a dotted path through a non-object */
	char *s2[] = { "description.x=1" };
	T_EQ_INT(parse_sets("{\"description\": \"d\"}", s2, 1, &p, &d), -EINVAL);
	T_STREQ(rel(&d, 0), "--set 1: cannot set description.x: description is not an object");
	prof_diag_free(&d);
}

static void t_rules_file(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"matrix\": {\"rules\": [0, \"file:rules/two.rules\", \"file:rules/none.rules\"]}}",
		       &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, ":1:50: matrix.rules[2]: rule file "));
	T_TRUE(has(&d, "tests/unit/data/profile/rules/none.rules: No such file or directory"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"router\": {\"rules_dir\": \"rules\"}, \"params\": {\"rules\": \"file:two.rules\"}}",
		       &p, &d), 0);
	if (p) {
		char path[2048];
		struct cell c;
		prof_cell(p, NULL, &c);
		T_TRUE(c.rules_file && c.rules == 0 && c.firewall);
		T_EQ_INT(prof_rules_path(p, cell_value(&c, "rules"), path, sizeof(path)), 0);
		T_TRUE(strstr(path, "tests/unit/data/profile/rules/two.rules") != NULL);
		json_t *n = json_integer(3);
		T_EQ_INT(prof_rules_path(p, n, path, sizeof(path)), -EINVAL);
		json_decref(n);
		profile_free(p);
	}
	T_EQ_INT(parse("{\"params\": {\"rules\": \"file:rules\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "params.rules: rule file "));
	T_TRUE(has(&d, "rules: not a regular file"));
	prof_diag_free(&d);
}

static void t_topology(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"topology\": {\"kind\": \"ssh\",\n"
		       "  \"gen\": {\"ssh\": \"-oProxyCommand=x\", \"iface\": \"em0\"},\n"
		       "  \"sink\": {\"ssh\": \"a b\", \"iface\": \"em 1\"}}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 5);
	T_TRUE(has(&d, ":1:14: topology.rut: topology kind \"ssh\" needs \"iface\" for the rut box (\"IN,OUT\": the router's two ports)"));
	T_TRUE(has(&d, ":2:18: topology.gen.ssh: expected an ssh destination [user@]host (no spaces, not starting with '-'), got \"-oProxyCommand=x\""));
	T_TRUE(has(&d, ":3:19: topology.sink.ssh: expected an ssh destination"));
	T_TRUE(has(&d, ":3:35: topology.sink.iface: expected an interface name"));
	T_TRUE(has(&d, ":1:14: topology.rut: topology kind \"ssh\" needs \"ssh\": \"user@host\" for the rut box"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"topology\": {\"kind\": \"local\", \"gen\": {\"iface\": \"veth0\"}}, \"router\": {\"kind\": \"none\"}}",
		       &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, "topology.sink: topology kind \"local\" needs \"iface\" for the sink box"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"topology\": {\"lab\": \"t1\", \"rut\": {\"iface\": \"a\"}, \"gen\": {\"ssh\": \"h\"}}}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, "topology.rut.iface: expected the router's two ports \"IN,OUT\""));
	T_TRUE(has(&d, "topology.gen.ssh: ssh applies to topology kind \"ssh\""));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"topology\": {\"lab\": \"t1\"}}", &p, &d), 0);
	if (p) {
		T_STREQ(p->topo.sinks[0].netns, "t1-sink");
		profile_free(p);
	}
}

static void t_dst_guard(void)
{
	struct profile *p;
	struct prof_diag d;
	const char *t = "{\"topology\": {\"dst\": \"10.1.2.3\", \"dst_b\": \"198.20.0.1\"}}";
	T_EQ_INT(parse(t, &p, &d), -EINVAL);
	T_EQ_INT(d.n, 2);
	T_TRUE(has(&d, ":1:22: topology.dst: 10.1.2.3 is outside the benchmarking range 198.18.0.0/15"));
	T_TRUE(has(&d, "topology.dst_b: 198.20.0.1 is outside"));
	prof_diag_free(&d);
	/* --set cannot sneak a destination past the guard either */
	char *s1[] = { "topology.dst=8.8.8.8" };
	T_EQ_INT(parse_sets("{}", s1, 1, &p, &d), -EINVAL);
	T_TRUE(has(&d, "--set 1: topology.dst: 8.8.8.8 is outside"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"allow_any_dst\": true, \"topology\": {\"dst\": \"10.1.2.3\"}}", &p, &d), 0);
	if (p) {
		T_STREQ(p->topo.dst, "10.1.2.3");
		profile_free(p);
	}
	T_EQ_INT(parse("{\"topology\": {\"dst\": \"198.19.300.1\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "topology.dst: expected an IPv4 address, got \"198.19.300.1\""));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"allow_any_dst\": \"yes\"}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "allow_any_dst: expected true or false"));
	prof_diag_free(&d);
}

/* ip_version: 4 or 6, its cells, the IPv6 destinations and their guard, and sizes
 * below the smallest IPv6 test frame refused where they were written */
static void t_ip_version(void)
{
	struct profile *p;
	struct prof_diag d;
	struct cell c;
	T_EQ_INT(parse("{\"matrix\": {\"ip_version\": [4, \"6\"]}, \"params\": {\"size\": 84}}",
		       &p, &d), 0);
	if (p) {
		T_EQ_INT(p->naxes, 1);
		T_EQ_INT(json_integer_value(json_array_get(p->axes[0].values, 1)), 6);
		json_t *six = json_pack("{s:i}", "ip_version", 6);
		prof_cell(p, six, &c);
		T_EQ_INT(c.ip_version, 6);
		prof_cell(p, NULL, &c);
		T_EQ_INT(c.ip_version, 4);   /* the default */
		json_decref(six);
		T_STREQ(p->topo.dst6, "2001:2:0:1::2");   /* the lab's sink0 and gen0 */
		T_STREQ(p->topo.dst6_b, "2001:2::2");
		T_STREQ(p->topo.gens[0].dst6, "2001:2:0:1::2");
		profile_free(p);
	}
	T_EQ_INT(parse("{\"params\": {\"ip_version\": 5}}", &p, &d), -EINVAL);
	T_STREQ(rel(&d, 0), ":1:27: params.ip_version: expected the IP version, 4 or 6, got 5");
	prof_diag_free(&d);
	/* 64 with 6: at the size; the default size: at the 6; 84 and imix pass */
	T_EQ_INT(parse("{\"matrix\": {\"ip_version\": [4, 6], \"size\": [64, 84, \"imix\"]}}",
		       &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, ":1:44: matrix.size[0]: size 64 is below 84, the smallest IPv6 test frame"));
	T_TRUE(has(&d, "(ip_version 6 at matrix.ip_version[1])"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"params\": {\"ip_version\": 6}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:27: params.ip_version: ip_version 6 sends IPv6 test frames, 84 bytes "
		   "at least"));
	T_TRUE(has(&d, "but size is its default, 64: give params.size 84 or more"));
	prof_diag_free(&d);
	char *s1[] = { "ip_version=6", "size=128" };
	T_EQ_INT(parse_sets("{}", s1, 2, &p, &d), 0);
	profile_free(p);
	/* a topology's IPv6 destinations: addresses from 2001:2::/48 (RFC 5180) */
	T_EQ_INT(parse("{\"topology\": {\"dst6\": \"2001:db8::1\", \"dst6_b\": \"198.18.0.2\", "
		       "\"gen\": {\"dst6\": \"2001:3::1\"}}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 3);
	T_TRUE(has(&d, "topology.dst6: 2001:db8::1 is outside the benchmarking range 2001:2::/48 (RFC 5180)"));
	T_TRUE(has(&d, "topology.dst6_b: expected an IPv6 address, got \"198.18.0.2\""));
	T_TRUE(has(&d, "topology.gen.dst6: 2001:3::1 is outside"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"allow_any_dst\": true, \"topology\": {\"dst6\": \"2001:db8::1\", "
		       "\"gen\": {\"dst6\": \"2001:2:0:7::9\"}}}", &p, &d), 0);
	if (p) {
		T_STREQ(p->topo.dst6, "2001:db8::1");
		T_STREQ(p->topo.gens[0].dst6, "2001:2:0:7::9");
		profile_free(p);
	}
}

/* vlan: "none", a VID or "OUTER.INNER", its cells, sizes below a tagged test frame
 * refused where written, and the router kinds that cannot take a tag refused */
static void t_vlan(void)
{
	struct profile *p;
	struct prof_diag d;
	struct cell c;
	T_EQ_INT(parse("{\"matrix\": {\"vlan\": [\"none\", 100, \"200\", \"300.0400\"]}, "
		       "\"params\": {\"size\": 72}}", &p, &d), 0);
	if (p) {
		T_EQ_INT(p->naxes, 1);
		json_t *v = p->axes[0].values;
		T_STREQ(json_string_value(json_array_get(v, 0)), "none");
		T_EQ_INT(json_integer_value(json_array_get(v, 2)), 200);
		T_STREQ(json_string_value(json_array_get(v, 3)), "300.400");   /* normalised */
		json_t *q = json_pack("{s:s}", "vlan", "300.400");
		prof_cell(p, q, &c);
		T_EQ_INT(c.vlan, 300);
		T_EQ_INT(c.vlan_inner, 400);
		json_decref(q);
		q = json_pack("{s:i}", "vlan", 100);
		prof_cell(p, q, &c);
		T_EQ_INT(c.vlan, 100);
		T_EQ_INT(c.vlan_inner, 0);
		json_decref(q);
		prof_cell(p, NULL, &c);
		T_EQ_INT(c.vlan, 0);   /* the default: untagged */
		T_STREQ(json_string_value(c.v[AX_VLAN]), "none");
		profile_free(p);
	}
	static const char *const bad[] = { "0", "4095", "\"1.\"", "\"1.2.3\"", "\"x\"", "\".5\"",
					   "\"5.4095\"", "true", "\"-1\"", "\"99999999999\"" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char js[128];
		snprintf(js, sizeof(js), "{\"params\": {\"size\": 128, \"vlan\": %s}}", bad[i]);
		T_EQ_INT(parse(js, &p, &d), -EINVAL);
		T_TRUE(has(&d, ":1:34: params.vlan: expected \"none\" (untagged), a VLAN id 1..4094 "
			   "or \"OUTER.INNER\" (QinQ, each 1..4094), got"));
		prof_diag_free(&d);
	}
	/* 64 with a tag: at the size; 68 takes one tag, not two; the default size: at the tag */
	T_EQ_INT(parse("{\"matrix\": {\"vlan\": [\"none\", 7], \"size\": [64, 68, \"imix\"]}}",
		       &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, ":1:43: matrix.size[0]: size 64 is below 68, the smallest IPv4 test frame "
		   "with a VLAN tag (64 bytes and 4 a tag), and the profile tags its frames (vlan 7 "
		   "at matrix.vlan[1]): give sizes of 68 or more"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"vlan\": [7, \"7.8\"], \"size\": [68, 72]}}", &p, &d),
		 -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, "matrix.size[0]: size 68 is below 72, the smallest IPv4 test frame with two "
		   "VLAN tags (QinQ)"));
	T_TRUE(has(&d, "(vlan 7.8 at matrix.vlan[1])"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"params\": {\"vlan\": 9}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:21: params.vlan: vlan 9 puts a VLAN tag on the test frames, 68 bytes "
		   "at least (64 and 4 a tag), but size is its default, 64: give params.size 68 or "
		   "more"));
	prof_diag_free(&d);
	/* IPv6: 88 and 92; 84 with a tag is the tag's to say, 64 ip_version's */
	T_EQ_INT(parse("{\"matrix\": {\"ip_version\": [4, 6], \"size\": [64, 84, 92]}, "
		       "\"params\": {\"vlan\": \"1.2\"}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 2);
	T_TRUE(has(&d, "matrix.size[0]: size 64 is below 84, the smallest IPv6 test frame"));
	T_TRUE(has(&d, "matrix.size[1]: size 84 is below 92, the smallest IPv6 test frame with two "
		   "VLAN tags (QinQ) (84 bytes and 4 a tag), and the profile tags its frames (vlan "
		   "1.2 at params.vlan)"));
	prof_diag_free(&d);
	char *s1[] = { "vlan=none,100", "size=68" };
	T_EQ_INT(parse_sets("{}", s1, 2, &p, &d), 0);
	profile_free(p);
	/* other routers: none refuses a tag, external needs its hook keyed vlan */
	T_EQ_INT(parse("{\"params\": {\"vlan\": 100, \"size\": 68}, \"router\": {\"kind\": "
		       "\"none\"}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, "params.vlan: vlan 100 tags the test frames, but router.kind \"none\" has no "
		   "router to take them off and on"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"params\": {\"vlan\": \"none\"}, \"router\": {\"kind\": \"none\"}}", &p,
		       &d), 0);
	profile_free(p);
	T_EQ_INT(parse("{\"params\": {\"vlan\": 100, \"size\": 68}, \"router\": {\"kind\": "
		       "\"external\", \"hooks\": {\"rules\": [\"x\", \"{vlan}\"]}}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, "params.vlan: vlan 100 tags the test frames, but nothing puts the external "
		   "router's ports on that VLAN: add router.hooks.vlan"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"vlan\": [\"none\", 100]}, \"params\": {\"size\": 68}, "
		       "\"router\": {\"kind\": \"external\"}}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 1);   /* swept without a hook: the coverage check's one error */
	T_TRUE(has(&d, "matrix.vlan: axis vlan is swept, but nothing sets it"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"vlan\": [\"none\", 100]}, \"params\": {\"size\": 68}, "
		       "\"router\": {\"kind\": \"external\", \"hooks\": {\"vlan\": [\"set-vlan\", "
		       "\"{vlan}\"]}}}", &p, &d), 0);
	profile_free(p);
}

static void t_router_hooks(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"router\": {\"kind\": \"external\",\n"
		       "  \"hooks\": {\"pollhz\": [\"sysctl\", \"hz={polhz}\"], \"colour\": [\"x\"],\n"
		       "            \"rules\": \"ipfw\", \"mode\": [\"a{mode\"]},\n"
		       "  \"setup_hook\": [1], \"rt_prio\": 100}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:34: router.hooks.pollhz[1]: placeholder {polhz} names no axis"));
	T_TRUE(has(&d, ":2:49: router.hooks.colour: hooks are per axis, and \"colour\" is no axis"));
	T_TRUE(has(&d, "router.hooks.rules: expected a non-empty list of strings (an argument vector), got string \"ipfw\""));
	T_TRUE(has(&d, "router.hooks.mode[0]: \"{\" without a closing \"}\""));
	T_TRUE(has(&d, ":4:18: router.setup_hook[0]: expected a string, got 1"));
	T_TRUE(has(&d, "router.rt_prio: expected a whole number 0..99, got 100 (out of range)"));
	T_EQ_INT(d.n, 6);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"router\": {\"read_hook\": [\"cat\"]}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "router.read_hook: hooks configure an external router"));
	prof_diag_free(&d);
}

/* an external router: every swept axis needs a hook (or is ppslab's own), placed at the
 * axis; {{ and }} are literal braces; the check hook and the plan's estimates */
static void t_external_coverage(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"matrix\": {\"pollhz\": [1000, 2000], \"offered\": [\"10k\", \"20k\"],\n"
		       "            \"rules_kind\": [\"nomatch\", \"count\"], \"rules\": [0, 10]},\n"
		       " \"router\": {\"kind\": \"external\",\n"
		       "   \"hooks\": {\"rules\": [\"load\", \"{rules}\", \"{rules_kind}\"]}}}", &p, &d),
		 -EINVAL);
	T_EQ_INT(d.n, 1);
	T_TRUE(has(&d, ":1:13: matrix.pollhz: axis pollhz is swept, but nothing sets it on the "
		   "external router: add router.hooks.pollhz"));
	prof_diag_free(&d);
	/* the same sweep on ppslab-rut needs no hook */
	T_EQ_INT(parse("{\"matrix\": {\"pollhz\": [1000, 2000]}}", &p, &d), 0);
	profile_free(p);
	/* --set: placed at the --set */
	char *sets[] = { "router.kind=external", "burst_max=10,20" };
	T_EQ_INT(parse_sets("{}", sets, 2, &p, &d), -EINVAL);
	T_TRUE(has(&d, "--set 2: matrix.burst_max: axis burst_max is swept, but nothing sets it"));
	prof_diag_free(&d);

	/* literal braces, check hook, estimates, the router's two ports described */
	T_EQ_INT(parse("{\"matrix\": {\"pollhz\": [1000, 2000]},\n"
		       " \"router\": {\"kind\": \"external\",\n"
		       "   \"hooks\": {\"pollhz\": [\"sh\", \"-c\", \"awk '{{print $1}}' x\", \"{pollhz}\"]},\n"
		       "   \"check_hook\": [\"true\", \"{mode}\"],\n"
		       "   \"hook_estimate\": {\"pollhz\": \"3s\", \"read\": 0.5}},\n"
		       " \"topology\": {\"rut\": {\"iface\": \"ix0,ix1\"}}}", &p, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (p) {
		T_TRUE(prof_axis_hooked(p, "pollhz"));
		T_TRUE(!prof_axis_hooked(p, "rules"));
		T_EQ_INT(json_array_size(p->router.check_hook), 2);
		T_NEAR(prof_hook_estimate(p, "pollhz"), 3, 0);
		T_NEAR(prof_hook_estimate(p, "read"), 0.5, 0);
		T_NEAR(prof_hook_estimate(p, "setup"), PROF_HOOK_EST_DEFAULT_S, 0);
		T_STREQ(p->topo.rut.iface, "ix0,ix1");
		profile_free(p);
	}
	T_EQ_INT(parse("{\"router\": {\"kind\": \"external\",\n"
		       "   \"setup_hook\": [\"sh\", \"-c\", \"awk '{print}'\"],\n"
		       "   \"read_hook\": [\"x}\"], \"hook_estimate\": {\"colour\": 1}}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:31: router.setup_hook[2]: placeholder {print} names no axis"));
	T_TRUE(has(&d, ":3:18: router.read_hook[0]: a lone \"}\" in \"x}\" (a literal brace is written }})"));
	T_TRUE(has(&d, ":3:43: router.hook_estimate.colour: \"colour\" is neither an axis nor setup, read, check or verify"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"router\": {\"check_hook\": [\"true\"]}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "router.check_hook: hooks configure an external router"));
	prof_diag_free(&d);
}

/* router axes: any knob of an external router, swept with its own set (and verify)
 * hooks; they come first among the swept axes, take {value}, may be named by any hook;
 * their errors are placed: name collisions, duplicates, empty values, unknown
 * placeholders, a reboot axis without a reboot hook; --set sweeps them too */
static void t_router_axes(void)
{
	struct profile *p;
	struct prof_diag d;
	int rc;
	rc = parse("{\"matrix\": {\"direction\": [\"uni\", \"bi\"]},\n"
		       " \"router\": {\"kind\": \"external\",\n"
		       "  \"axes\": [{\"name\": \"kern.hz\", \"values\": [1000, 2000.0, \"4k\"],\n"
		       "             \"set\": [\"ssh\", \"r2\", \"loader\", \"kern.hz\", \"{value}\"],\n"
		       "             \"verify\": [\"ssh\", \"r2\", \"sysctl\", \"-n\", \"{{kern.hz}}\"],\n"
		       "             \"reboot\": true, \"timeout\": \"2m\"},\n"
		       "            {\"name\": \"os\", \"values\": [\"14.0-RELEASE\", \"14.1-RELEASE\"],\n"
		       "             \"set\": [\"ssh\", \"r2\", \"bectl\", \"activate\", \"{os}\"]}],\n"
		       "  \"reboot_hook\": [\"ssh\", \"r2\", \"shutdown\", \"-r\", \"now\"],\n"
		       "  \"ready_hook\": [\"ping\", \"{kern.hz}\"], \"reboot_timeout\": \"5m\",\n"
		       "  \"boot_hook\": [\"ssh\", \"r2\", \"sysctl\", \"-n\", \"kern.boottime\"],\n"
		       "  \"check_hook\": [\"c\", \"{os}\"], \"hook_estimate\": {\"kern.hz\": 3, \"verify\": 2}}}",
		       &p, &d);
	T_EQ_INT(rc, 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (p) {
		T_EQ_INT(p->naxes, 3);
		T_STREQ(p->axes[0].name, "kern.hz");
		T_STREQ(p->axes[1].name, "os");
		T_STREQ(p->axes[2].name, "direction");
		T_TRUE(p->axes[0].router == &p->router.axes[0]);
		T_TRUE(p->axes[2].router == NULL);
		/* numbers kept as written: 2000.0 an integer, "4k" a string */
		T_EQ_INT(json_integer_value(json_array_get(p->axes[0].values, 1)), 2000);
		T_STREQ(json_string_value(json_array_get(p->axes[0].values, 2)), "4k");
		T_TRUE(p->router.axes[0].reboot && !p->router.axes[1].reboot);
		T_TRUE(p->router.axes[0].verify != NULL && p->router.axes[1].verify == NULL);
		T_NEAR(p->router.axes[0].timeout_s, 120, 0);
		T_NEAR(p->router.axes[1].timeout_s, 30, 0);
		T_NEAR(p->router.reboot_timeout_s, 300, 0);
		T_NEAR(p->router.reboot_est_s, 120, 0);
		T_TRUE(prof_has_reboots(p));
		T_TRUE(prof_router_axis(p, "os") == &p->router.axes[1]);
		T_TRUE(prof_router_axis(p, "pollhz") == NULL);
		T_NEAR(prof_hook_estimate(p, "kern.hz"), 3, 0);
		T_NEAR(prof_hook_estimate(p, "verify"), 2, 0);
		json_t *cell = json_pack("{s:i,s:s}", "kern.hz", 2000, "os", "14.0-RELEASE");
		struct cell c, f;
		prof_cell(p, cell, &c);
		prof_cell(p, NULL, &f);
		T_EQ_INT(json_integer_value(cell_value(&c, "kern.hz")), 2000);
		T_TRUE(cell_value(&f, "kern.hz") == NULL);
		T_TRUE(cell_value(&c, "nosuch") == NULL);
		json_decref(cell);
		profile_free(p);
	}

	rc = parse("{\"router\": {\"kind\": \"external\", \"axes\": [\n"
		       "  {\"name\": \"hz\", \"values\": [1], \"set\": [\"x\"]},\n"
		       "  {\"name\": \"os\", \"values\": [], \"set\": [\"x\", \"{vaule}\"]},\n"
		       "  {\"name\": \"os\", \"values\": [\"a\", \"a\", {}], \"set\": [\"x\"], \"reboot\": true},\n"
		       "  {\"name\": \"a/b\", \"values\": [\"x,y\"], \"sett\": [\"x\"]}],\n"
		       " \"setup_hook\": [\"x\", \"{value}\"]},\n"
		       " \"matrix\": {\"os\": [1]}}", &p, &d);
	T_EQ_INT(rc, -EINVAL);
	T_TRUE(has(&d, ":2:12: router.axes[0].name: router axis \"hz\" collides with the built-in axis hz"));
	T_TRUE(has(&d, ":3:28: router.axes[1].values: expected \"values\": a non-empty list of the knob's values, got an empty list"));
	T_TRUE(has(&d, ":3:45: router.axes[1].set[1]: placeholder {vaule} names no axis"));
	T_TRUE(has(&d, ":4:12: router.axes[2].name: router axis \"os\" is declared twice (first as router.axes[1])"));
	T_TRUE(has(&d, ":4:34: router.axes[2].values[1]: string \"a\" appears twice in the list"));
	T_TRUE(has(&d, ":4:39: router.axes[2].values[2]: expected a number or a string, got an object"));
	T_TRUE(has(&d, ":5:12: router.axes[3].name: expected a name of letters, digits and ._-%"));
	T_TRUE(has(&d, ":5:30: router.axes[3].values[0]: expected a number or a string (1..200 characters, no comma"));
	T_TRUE(has(&d, ":5:38: router.axes[3].sett: unknown key \"sett\""));
	T_TRUE(has(&d, ":5:3: router.axes[3]: a router axis needs \"set\""));
	T_TRUE(has(&d, ":6:22: router.setup_hook[1]: {value} is the value of a router axis"));
	T_TRUE(has(&d, ":7:13: matrix.os: os is a router axis: its values are router.axes[].values"));
	T_EQ_INT(d.n, 12);
	prof_diag_free(&d);

	rc = parse("{\"router\": {\"kind\": \"external\", \"axes\": [\n"
		       "  {\"name\": \"kern.hz\", \"values\": [1], \"set\": [\"x\"], \"reboot\": true}]}}",
		       &p, &d);
	T_EQ_INT(rc, -EINVAL);
	T_TRUE(has(&d, ":2:62: router.axes[0].reboot: axis kern.hz takes a reboot, so the profile needs router.reboot_hook"));
	prof_diag_free(&d);
	/* a reboot axis needs the router's boot identity: rut.ssh or router.boot_hook;
	 * router.verify reads back built-in axes only */
	rc = parse("{\"router\": {\"kind\": \"external\", \"reboot_hook\": [\"r\"], \"axes\": [\n"
		       "  {\"name\": \"kern.hz\", \"values\": [1], \"set\": [\"x\"], \"reboot\": true}],\n"
		       " \"verify\": {\"burst_max\": [\"v\"], \"kern.hz\": [\"v\"]}}}", &p, &d);
	T_EQ_INT(rc, -EINVAL);
	T_TRUE(has(&d, ":2:62: router.axes[0].reboot: axis kern.hz takes a reboot, but nothing reads the "
		   "router's boot identity"));
	T_TRUE(has(&d, ":3:33: router.verify[\"kern.hz\"]: \"kern.hz\" is no built-in axis"));
	T_EQ_INT(d.n, 2);
	prof_diag_free(&d);
	rc = parse("{\"router\": {\"kind\": \"external\", \"reboot_hook\": [\"r\"], \"axes\": [\n"
		       "  {\"name\": \"kern.hz\", \"values\": [1], \"set\": [\"x\"], \"reboot\": true}],\n"
		       " \"boot_hook\": [\"b\"], \"verify\": {\"burst_max\": [\"v\", \"{burst_max}\"]},"
		       " \"hooks\": {\"burst_max\": [\"s\"], \"pollhz\": [\"s\"]}}}", &p, &d);
	T_EQ_INT(rc, 0);
	if (p) {
		const char *un[8];
		T_TRUE(prof_axis_verified(p, "burst_max") && !prof_axis_verified(p, "kern.hz"));
		T_EQ_INT(prof_unread_axes(p, un, 8), 2);
		T_STREQ(un[0], "kern.hz");
		T_STREQ(un[1], "pollhz");
		profile_free(p);
	}
	prof_diag_free(&d);
	rc = parse("{\"router\": {\"axes\": [{\"name\": \"os\", \"values\": [1], \"set\": [\"x\"]}]}}",
		       &p, &d);
	T_EQ_INT(rc, -EINVAL);
	T_TRUE(has(&d, "router.axes: router axes are knobs of an external router, set by hooks"));
	prof_diag_free(&d);

	/* --set: a router axis swept with a comma list, or fixed to one value */
	char *sets[] = { "kern.hz=100,200,300", "os=b" };
	rc = parse_sets("{\"router\": {\"kind\": \"external\", \"axes\": [\n"
			    "  {\"name\": \"kern.hz\", \"values\": [1], \"set\": [\"x\", \"{value}\"]},\n"
			    "  {\"name\": \"os\", \"values\": [\"a\", \"c\"], \"set\": [\"x\"]}]}}",
			    sets, 2, &p, &d);
	T_EQ_INT(rc, 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (p) {
		T_EQ_INT(json_array_size(p->axes[0].values), 3);
		T_EQ_INT(json_integer_value(json_array_get(p->axes[0].values, 2)), 300);
		T_EQ_INT(json_array_size(p->axes[1].values), 1);
		T_STREQ(json_string_value(json_array_get(p->axes[1].values, 0)), "b");
		profile_free(p);
	}
	char *bad[] = { "kern.hz=1,1" };
	rc = parse_sets("{\"router\": {\"kind\": \"external\", \"axes\": [\n"
			    "  {\"name\": \"kern.hz\", \"values\": [1], \"set\": [\"x\"]}]}}",
			    bad, 1, &p, &d);
	T_EQ_INT(rc, -EINVAL);
	T_TRUE(has(&d, "--set 1: router.axes[0].values[1]: 1 appears twice in the list"));
	prof_diag_free(&d);
}

/* port specs: the interface name is checked without backend prefix and options; the
 * next-hop MACs; the sink's --max-delay and the latency clock fraction */
static void t_pace_keys(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"trial\": {\"late_policy\": \"catchup\", \"max_burst\": 20,"
		       " \"max_behind\": 0.05, \"repeat_invalid\": 0}}", &p, &d), 0);
	if (p) {
		T_STREQ(p->trial.late_policy, "catchup");
		T_EQ_INT((int)p->trial.max_burst, 20);
		T_NEAR(p->trial.max_behind, 0.05, 0);
		T_EQ_INT((int)p->trial.repeat_invalid, 0);
		profile_free(p);
	}
	T_EQ_INT(parse("{\"trial\": {\"late_policy\": \"later\",\n \"max_burst\": 0,"
		       " \"max_behind\": 0, \"repeat_invalid\": 101}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:27: trial.late_policy: "));
	T_TRUE(has(&d, "trial.max_burst: "));
	T_TRUE(has(&d, "trial.max_behind: expected a number in (0, 1]"));
	T_TRUE(has(&d, "trial.repeat_invalid: "));
	T_EQ_INT(d.n, 4);
	prof_diag_free(&d);
}

static void t_ports_and_clocks(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"topology\": {\"kind\": \"local\",\n"
		       " \"gen\": {\"iface\": \"xdp:enp65s0f0np0\"}, \"sink\": {\"iface\": \"xdp:gen0,queue=0\"},\n"
		       " \"rut\": {\"iface\": \"a,b\"},\n"
		       " \"dst_mac\": \"02:00:00:00:00:01\", \"dst_mac_b\": \"0A:bc:00:00:00:02\"},\n"
		       " \"trial\": {\"max_delay\": \"50ms\", \"max_clock_error\": 0.25}}", &p, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (p) {
		T_STREQ(p->topo.gens[0].iface, "xdp:enp65s0f0np0");
		T_STREQ(p->topo.gens[0].spec, "xdp:enp65s0f0np0");
		T_STREQ(p->topo.gens[0].backend, "xdp");
		T_STREQ(p->topo.dst_mac, "02:00:00:00:00:01");
		T_STREQ(p->topo.dst_mac_b, "0A:bc:00:00:00:02");
		T_NEAR(p->trial.max_delay_s, 0.05, 1e-12);
		T_NEAR(p->trial.max_clock_error, 0.25, 0);
		profile_free(p);
	}
	/* ports, threads and several sender boxes: the spec, the split's streams, the lab */
	T_EQ_INT(parse("{\"topology\": {\"gen\": [{\"port\": \"xdp,mode=copy\", \"threads\": 2,"
		       " \"cpus\": [0, 1]}, {\"dst\": \"198.19.0.3\"}], \"sink\": {\"port\": \"xdp\"}}}",
		       &p, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		printf("# %s\n", d.msg[i]);
	if (p) {
		T_EQ_INT((int)p->topo.ngens, 2);
		T_STREQ(p->topo.gens[0].spec, "xdp:gen0,mode=copy");
		T_EQ_INT((int)p->topo.gens[0].threads, 2);
		T_STREQ(p->topo.gens[0].cpus, "0,1");
		T_EQ_INT(p->topo.gens[0].stream, 1);
		T_STREQ(p->topo.gens[1].name, "gen2");
		T_STREQ(p->topo.gens[1].netns, "ppslab-gen2");
		T_STREQ(p->topo.gens[1].spec, "gen0");
		T_STREQ(p->topo.gens[1].dst, "198.19.0.3");
		T_EQ_INT(p->topo.gens[1].stream, 3);
		T_EQ_INT((int)p->topo.lab_senders, 2);
		T_EQ_INT((int)p->topo.lab_queues, 2);
		T_EQ_INT((int)p->topo.sinks[0].threads, 2);   /* an xdp: sink reads every queue */
		profile_free(p);
	}
	T_EQ_INT(parse("{}", &p, &d), 0);
	if (p) {
		T_NEAR(p->trial.max_delay_s, 10, 0);
		T_NEAR(p->trial.max_clock_error, 0.1, 0);
		T_TRUE(p->topo.dst_mac == NULL);
		profile_free(p);
	}
	T_EQ_INT(parse("{\"topology\": {\"kind\": \"local\", \"rut\": {\"iface\": \"a,b\"},\n"
		       " \"gen\": {\"iface\": \"xdp:enp65s0f0np0wxyz\"}, \"sink\": {\"iface\": \"xdp:gen0,queue\"},\n"
		       " \"dst_mac\": \"02:00:00:00:00\", \"dst_mac_b\": \"ff:ff:ff:ff:ff:ff\"},\n"
		       " \"trial\": {\"max_clock_error\": 0}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:19: topology.gen.iface: expected an interface name (up to 15 characters"));
	T_TRUE(has(&d, "topology.sink.iface: expected an interface name"));
	T_TRUE(has(&d, ":3:13: topology.dst_mac: expected a MAC address aa:bb:cc:dd:ee:ff, got \"02:00:00:00:00\""));
	T_TRUE(has(&d, "topology.dst_mac_b: ff:ff:ff:ff:ff:ff is a multicast or broadcast address"));
	T_TRUE(has(&d, "trial.max_clock_error: expected a number in (0, 1]"));
	T_EQ_INT(d.n, 5);
	prof_diag_free(&d);
	/* udp: targets are addresses, not names */
	T_EQ_INT(parse("{\"topology\": {\"kind\": \"local\", \"rut\": {\"iface\": \"a,b\"},\n"
		       " \"gen\": {\"iface\": \"udp:198.19.0.2:9\"}, \"sink\": {\"iface\": \"pcap:em1\"}}}",
		       &p, &d), 0);
	profile_free(p);
}

static void t_trial_relations(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"trial\": {\"method\": \"rfc2544\", \"min_load\": \"500k\", \"max_load\": \"100k\",\n"
		       " \"width\": 1.5, \"initial\": \"5s\", \"duration\": \"2s\", \"ladder\": [\"1k\", 0],"
		       " \"phases\": -1, \"warmup\": \"2d\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "trial.min_load: min_load (500000 pps) must be below max_load (100000 pps)"));
	T_TRUE(has(&d, "trial.width: expected a number in (0, 1), got 1.5"));
	T_TRUE(has(&d, "trial.initial: the first phase's trials (5 s) must not be longer than trial.duration (2 s)"));
	T_TRUE(has(&d, "trial.ladder[1]: expected a number or a rate like \"200k\", got 0"));
	T_TRUE(has(&d, "trial.phases: expected a whole number 0..10, got -1"));
	T_TRUE(has(&d, "trial.warmup: expected a duration"));
	T_EQ_INT(d.n, 6);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"duration\": 0}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "trial.duration: a trial must last at least 0.1 s, got 0 s"));
	prof_diag_free(&d);
	/* "1ns" passed --dry-run: below the shortest trial, placed; "initial" too when given */
	T_EQ_INT(parse("{\"trial\": {\"duration\": \"1ns\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:24: trial.duration: a trial must last at least 0.1 s, got 1e-09 s"));
	T_EQ_INT(d.n, 1);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"initial\": \"50ms\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "trial.initial: a trial must last at least 0.1 s, got 0.05 s"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"duration\": \"100ms\"}}", &p, &d), 0);
	profile_free(p);
	prof_diag_free(&d);
	/* "0.5" pps was sent as 1 pps: a rate that is not whole is refused, placed */
	T_EQ_INT(parse("{\"params\": {\"offered\": \"0.5\"},\n \"trial\": {\"min_load\": 2.5}}", &p, &d),
		 -EINVAL);
	T_TRUE(has(&d, ":1:24: params.offered: expected a whole number of packets per second, got "
		   "string \"0.5\" (0.5 pps)"));
	T_TRUE(has(&d, ":2:24: trial.min_load: expected a whole number of packets per second"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"matrix\": {\"offered\": [\"1.5k\", 2e5, \"max\"]}}", &p, &d), 0);
	profile_free(p);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"max_load\": \"max\"}, \"repetitions\": 0, \"order\": \"shuffled\", \"seed\": -1}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, "repetitions: expected a whole number 1..1000, got 0"));
	T_TRUE(has(&d, "order: expected \"sequential\" or \"random\""));
	T_TRUE(has(&d, "seed: expected a whole number 0 or more, got -1"));
	T_EQ_INT(d.n, 3);
	prof_diag_free(&d);
	/* trials shorter than 1 s: mlr's first phase defaults to the trial, no error */
	T_EQ_INT(parse("{\"trial\": {\"method\": \"fixed\", \"duration\": \"600ms\"}}", &p, &d), 0);
	T_NEAR(p->trial.initial_s, 0.6, 1e-9);
	profile_free(p);
	prof_diag_free(&d);
}

static void t_load(void)
{
	struct profile *p = NULL;
	struct prof_diag d = { 0 };
	char dir[1024], file[1100];
	snprintf(dir, sizeof(dir), "%s/tests/unit/data/profile", top());
	setenv("PPSLAB_PROFILES", dir, 1);
	T_EQ_INT(profile_load("small", NULL, 0, &p, &d), 0);
	if (p) {
		T_STREQ(p->name, "small");
		T_EQ_INT(p->naxes, 2);
		T_STREQ(p->axes[1].name, "rules");
		T_NEAR(p->trial.warmup_s, 0.5, 0);
		T_EQ_INT(json_integer_value(json_object_get(p->fixed, "burst_max")), 100);
		profile_free(p);
	}
	snprintf(file, sizeof(file), "%s/small.json", dir);
	char *sets[] = { "trial.duration=-1" };
	T_EQ_INT(profile_load(file, sets, 1, &p, &d), -EINVAL);
	T_TRUE(has(&d, "--set 1: trial.duration: expected a duration"));
	prof_diag_free(&d);
	T_EQ_INT(profile_load("no-such-profile", NULL, 0, &p, &d), -ENOENT);
	T_TRUE(has(&d, "no-such-profile: no such profile (looked for profiles/no-such-profile.json, "));
	T_TRUE(has(&d, "tests/unit/data/profile/no-such-profile.json"));
	prof_diag_free(&d);
	T_EQ_INT(profile_load("/nonexistent/x.json", NULL, 0, &p, &d), -ENOENT);
	T_STREQ(d.msg[0], "/nonexistent/x.json: no such profile");
	prof_diag_free(&d);
	T_EQ_INT(profile_load(dir, NULL, 0, &p, &d), -EISDIR);
	prof_diag_free(&d);
	/* a NULL diag is allowed */
	T_EQ_INT(profile_load("no-such-profile", NULL, 0, &p, NULL), -ENOENT);
	unsetenv("PPSLAB_PROFILES");
}

/* the b2b method's fields: defaults (RFC 2544's 50 searches), values, errors placed */
static void t_b2b_fields(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"trial\": {\"method\": \"b2b\"}}", &p, &d), 0);
	T_EQ_INT(p->trial.method, PM_B2B);
	T_EQ_INT(p->trial.b2b_trials, 50);
	T_EQ_U64(p->trial.b2b_min_burst, 1);
	T_EQ_U64(p->trial.b2b_max_burst, 1000000);
	T_EQ_U64(p->trial.b2b_resolution, 1);
	T_NEAR(p->trial.b2b_throughput_pps, 0, 0);
	profile_free(p);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"b2b\", \"b2b_trials\": 5, \"b2b_max_burst\": 4096,"
		       " \"b2b_resolution\": 2, \"b2b_throughput\": \"250k\", \"max_load\": \"1M\"}}",
		       &p, &d), 0);
	T_EQ_INT(p->trial.b2b_trials, 5);
	T_EQ_U64(p->trial.b2b_max_burst, 4096);
	T_EQ_U64(p->trial.b2b_resolution, 2);
	T_NEAR(p->trial.b2b_throughput_pps, 250000, 0);
	profile_free(p);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"b2b\", \"b2b_trials\": 0,\n"
		       " \"b2b_min_burst\": 100, \"b2b_max_burst\": 50, \"b2b_throughput\": \"2M\","
		       " \"max_load\": \"1M\"}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:43: trial.b2b_trials: expected a whole number 1..1000, got 0"));
	T_TRUE(has(&d, ":2:41: trial.b2b_max_burst: b2b_max_burst must be longer than "
		   "b2b_min_burst (100 frames), got 50"));
	T_TRUE(has(&d, "trial.b2b_throughput: the throughput (2000000 pps) cannot exceed max_load, "
		   "the theoretical frame rate (1000000 pps)"));
	T_EQ_INT(d.n, 3);
	prof_diag_free(&d);
}

/* the outage method's fields: the load as a rate or a share of the NDR, the action of
 * each kind, the reset recipe taking the reboot hook, every error at its place */
static void t_outage_fields(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"duration\": 3, \"outage_load\": \"10k\",\n"
		       " \"outage_at\": \"500ms\", \"outage_action\": {\"ctl\": [\"pause\", \"250\"]}}}",
		       &p, &d), 0);
	T_EQ_INT(d.n, 0);
	if (p) {
		T_EQ_INT(p->trial.method, PM_OUTAGE);
		T_NEAR(p->trial.outage_load_pps, 10000, 0);
		T_NEAR(p->trial.outage_load_pct, 0, 0);
		T_NEAR(p->trial.outage_at_s, 0.5, 1e-12);
		T_NEAR(p->trial.outage_duration_s, 3, 0);   /* trial.duration's, when absent */
		T_NEAR(p->trial.outage_gap_min_s, -1, 0);
		T_EQ_INT(p->trial.outage_recipe, PO_TIMELINE);
		T_EQ_INT(json_array_size(p->trial.outage_ctl), 2);
		T_TRUE(p->trial.outage_hook == NULL);
	}
	profile_free(p);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"outage_load\": \"90%\",\n"
		       " \"outage_action\": {\"rules\": 20000}, \"outage_gap_min\": \"5ms\"}}",
		       &p, &d), 0);
	if (p) {
		T_NEAR(p->trial.outage_load_pct, 90, 0);
		T_EQ_INT(p->trial.outage_rules, 20000);
		T_TRUE(!p->trial.outage_per_rule);
		T_NEAR(p->trial.outage_gap_min_s, 0.005, 1e-12);
		T_NEAR(p->trial.outage_at_s, 1, 0);
	}
	profile_free(p);
	prof_diag_free(&d);
	/* the outage trial's own length; the search keeps trial.duration */
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"duration\": 60, \"outage_load\": \"90%\",\n"
		       " \"outage_at\": 100, \"outage_duration\": \"4min\", \"outage_action\": {\"rules\": 5}}}",
		       &p, &d), 0);
	T_EQ_INT(d.n, 0);
	if (p) {
		T_NEAR(p->trial.duration_s, 60, 0);
		T_NEAR(p->trial.outage_duration_s, 240, 0);
	}
	profile_free(p);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"duration\": 60, \"outage_load\": \"90%\",\n"
		       " \"outage_at\": 100, \"outage_action\": {\"rules\": 5}}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:15: trial.outage_at: the action must come within the trial: outage_at "
		   "(100 s) must be below trial.duration (60 s)"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"outage_load\": \"90%\",\n"
		       " \"outage_duration\": 0.01, \"outage_action\": {\"rules\": 5}}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:21: trial.outage_duration: a trial must last at least"));
	prof_diag_free(&d);
	/* a reset without an action takes the reboot hook */
	T_EQ_INT(parse("{\"router\": {\"kind\": \"external\", \"reboot_hook\": [\"reboot-it\"]},\n"
		       " \"trial\": {\"method\": \"outage\", \"outage_recipe\": \"reset\",\n"
		       " \"outage_load\": 1000, \"duration\": 30}}", &p, &d), 0);
	if (p) {
		T_EQ_INT(p->trial.outage_recipe, PO_RESET);
		T_TRUE(p->trial.outage_hook == p->router.reboot_hook);
	}
	profile_free(p);
	prof_diag_free(&d);
	/* errors, each placed */
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"duration\": 2,\n"
		       " \"outage_load\": \"150%\", \"outage_at\": 2,\n"
		       " \"outage_action\": {\"ctl\": [\"pause\"], \"hook\": [\"x\"]}}}", &p, &d),
		 -EINVAL);
	T_TRUE(has(&d, ":2:17: trial.outage_load: expected a percentage of the NDR above 0 and at "
		   "most 100 %, got string \"150%\""));
	T_TRUE(has(&d, ":2:38: trial.outage_at: the action must come within the trial: outage_at "
		   "(2 s) must be below trial.duration (2 s)"));
	T_TRUE(has(&d, ":3:19: trial.outage_action: expected one of \"ctl\", \"hook\" and "
		   "\"rules\", got several"));
	T_EQ_INT(d.n, 3);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"router\": {\"kind\": \"external\"},\n"
		       " \"trial\": {\"method\": \"outage\", \"outage_recipe\": \"reboot\",\n"
		       " \"outage_action\": {\"ctl\": [\"pause\", \"1\"]}}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:49: trial.outage_recipe: expected \"timeline\", \"reset\" or \"recovery\", got "
		   "string \"reboot\""));
	T_TRUE(has(&d, "trial: method \"outage\" needs trial.outage_load"));
	T_TRUE(has(&d, ":3:20: trial.outage_action.ctl: is for router.kind \"rut\""));
	T_EQ_INT(d.n, 3);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"fixed\", \"outage_at\": 1}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:31: trial.outage_at: applies to method \"outage\" only (this profile's "
		   "method is \"fixed\")"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"outage_load\": 5000,\n"
		       " \"outage_action\": {\"rules\": 0}}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:29: trial.outage_action.rules: expected a whole number 1..100000, got 0 (out of range)"));
	prof_diag_free(&d);
	/* one call a rule, as ipfw(8) loads a file; never without rules */
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"outage_load\": 5000,\n"
		       " \"outage_action\": {\"rules\": 20, \"per_rule\": true}}}", &p, &d), 0);
	if (p)
		T_TRUE(p->trial.outage_per_rule);
	profile_free(p);
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"outage\", \"outage_load\": 5000,\n"
		       " \"outage_action\": {\"ctl\": [\"pause\", \"9\"], \"per_rule\": true}}}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:43: trial.outage_action.per_rule: goes with \"rules\" only"));
	prof_diag_free(&d);
}

static void t_method_names(void)
{
	T_STREQ(prof_method_name(PM_FIXED), "fixed");
	T_STREQ(prof_method_name(PM_RFC2544), "rfc2544");
	T_STREQ(prof_method_name(PM_MLR), "mlr");
	T_STREQ(prof_method_name(PM_LADDER), "ladder");
	T_STREQ(prof_method_name(PM_B2B), "b2b");
	T_STREQ(prof_method_name(PM_OUTAGE), "outage");
	T_STREQ(prof_method_name((enum prof_method)6), "?");
}

/* trial.goals: a list with each goal's attributes and their defaults, the presets, and
 * every bad goal placed at FILE:LINE:COLUMN. */
static void t_goals(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"duration\": \"2s\", \"width\": 0.01,\n"
		       " \"exceed_ratio\": 0.25, \"duration_sum\": \"6s\", \"goals\": [\n"
		       "  {\"name\": \"NDR\"},\n"
		       "  {\"name\": \"PDR\", \"loss_ratio\": 0.005, \"final\": \"5s\",\n"
		       "   \"duration_sum\": \"20s\", \"exceed_ratio\": 0.5, \"width\": 0.002},\n"
		       "  {\"name\": \"lat99_9\", \"loss_ratio\": 0.001, \"latency\": \"100us\"}]}}",
		       &p, &d), 0);
	T_EQ_INT(d.n, 0);
	if (p) {
		const struct prof_trial *t = &p->trial;
		T_EQ_U64(t->ngoals, 3);
		T_STREQ(t->goals[0].name, "NDR");
		T_NEAR(t->goals[0].loss_ratio, 0, 0);
		T_NEAR(t->goals[0].exceed_ratio, 0.25, 0);      /* trial.exceed_ratio */
		T_NEAR(t->goals[0].final_s, 2, 0);              /* trial.duration */
		T_NEAR(t->goals[0].duration_sum_s, 6, 0);       /* trial.duration_sum */
		T_NEAR(t->goals[0].width, 0.01, 0);             /* trial.width */
		T_NEAR(t->goals[0].latency_ns, 0, 0);
		T_NEAR(t->goals[1].final_s, 5, 0);
		T_NEAR(t->goals[1].duration_sum_s, 20, 0);
		T_NEAR(t->goals[1].exceed_ratio, 0.5, 0);
		T_NEAR(t->goals[1].width, 0.002, 0);
		T_NEAR(t->goals[2].latency_ns, 100000, 0);
		T_NEAR(t->goals[2].loss_ratio, 0.001, 0);
		T_NEAR(t->duration_s, 5, 0);    /* the longest final */
		T_TRUE(t->goal_preset == NULL);
		profile_free(p);
	}
	prof_diag_free(&d);
	/* presets */
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"goals\": \"csit\"}}", &p, &d), 0);
	if (p) {
		const struct prof_trial *t = &p->trial;
		T_EQ_U64(t->ngoals, 2);
		T_STREQ(t->goal_preset, "csit");
		T_STREQ(t->goals[1].name, "PDR");
		T_NEAR(t->goals[1].loss_ratio, 0.005, 0);
		for (size_t g = 0; g < 2; g++) {
			T_NEAR(t->goals[g].final_s, 1, 0);
			T_NEAR(t->goals[g].duration_sum_s, 21, 0);
			T_NEAR(t->goals[g].exceed_ratio, 0.5, 0);
			T_NEAR(t->goals[g].width, 0.005, 0);
		}
		T_NEAR(t->duration_s, 1, 0);
		profile_free(p);
	}
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"goals\": \"rfc2544\"}}", &p, &d), 0);
	if (p) {
		T_EQ_U64(p->trial.ngoals, 1);
		T_NEAR(p->trial.goals[0].final_s, 60, 0);
		T_NEAR(p->trial.goals[0].duration_sum_s, 60, 0);
		T_NEAR(p->trial.goals[0].exceed_ratio, 0, 0);
		T_NEAR(p->trial.goals[0].loss_ratio, 0, 0);
		T_NEAR(p->trial.duration_s, 60, 0);
		profile_free(p);
	}
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"goals\": \"tst009\"}}", &p, &d), 0);
	if (p) {
		T_EQ_U64(p->trial.ngoals, 1);
		T_NEAR(p->trial.goals[0].duration_sum_s, 120, 0);
		profile_free(p);
	}
	prof_diag_free(&d);
	/* --set picks a preset */
	char *sets[] = { "trial.goals=csit" };
	T_EQ_INT(parse_sets("{\"trial\": {\"method\": \"mlr\"}}", sets, 1, &p, &d), 0);
	if (p) {
		T_STREQ(p->trial.goal_preset, "csit");
		profile_free(p);
	}
	prof_diag_free(&d);
	/* bad goals, each placed */
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"goals\": [\n"
		       "  {\"name\": \"NDR\", \"loss_ratio\": 1},\n"
		       "  {\"loss_ratio\": 0.1},\n"
		       "  {\"name\": \"ndr\", \"final\": \"2s\", \"duration_sum\": \"1s\"},\n"
		       "  {\"name\": \"9x\", \"latency\": \"20s\", \"colour\": 1},\n"
		       "  {\"name\": \"MRR\", \"width\": 0}]}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":2:33: trial.goals[0].loss_ratio: expected a number in [0, 1), got 1"));
	T_TRUE(has(&d, ":3:3: trial.goals[1]: a goal needs a \"name\""));
	T_TRUE(has(&d, ":4:12: trial.goals[2].name: two goals are named ndr"));
	T_TRUE(has(&d, ":4:50: trial.goals[2].duration_sum: must be at least the goal's final "
		       "(2 s), got 1 s"));
	T_TRUE(has(&d, ":5:12: trial.goals[3].name: expected a name of 1 to 15 letters"));
	T_TRUE(has(&d, ":5:29: trial.goals[3].latency: expected a latency bound of 1 us to 10 s"));
	T_TRUE(has(&d, "trial.goals[3].colour: unknown key \"colour\""));
	T_TRUE(has(&d, ":6:12: trial.goals[4].name: \"MRR\" is taken"));
	T_TRUE(has(&d, ":6:28: trial.goals[4].width: expected a number in (0, 1), got 0"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"rfc2544\", \"goals\": \"csit\"}}", &p, &d),
		 -EINVAL);
	T_TRUE(has(&d, ":1:33: trial.goals: goals are searched by trial.method \"mlr\" only"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"pdr_loss\": 0.01, \"goals\": \"cist\"}}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, "trial.pdr_loss: with trial.goals, give each goal its own loss_ratio"));
	T_TRUE(has(&d, "trial.goals: expected a preset (\"csit\", \"rfc2544\" or \"tst009\") or "
		       "a list of goals, got string \"cist\""));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"goals\": [1, 2, 3, 4, 5, 6, 7, 8, 9]}}",
		       &p, &d), -EINVAL);
	T_TRUE(has(&d, "trial.goals: expected a preset or a list of 1 to 8 goals"));
	prof_diag_free(&d);
	T_EQ_INT(parse("{\"trial\": {\"method\": \"mlr\", \"initial\": \"3s\", \"duration\": \"4s\", "
		       "\"goals\": [{\"name\": \"A\", \"final\": \"2s\"}]}}", &p, &d), -EINVAL);
	T_TRUE(has(&d, "trial.initial: the first phase's trials (3 s) must not be longer than "
		       "the longest goal's final trials (2 s)"));
	prof_diag_free(&d);
}

/* tests[]: each a whole profile, the test's trial keys over the profile's, its axes
 * taking the profile's place; errors placed in the test where it gives the key, the
 * profile's own said once */
static void t_tests(void)
{
	struct profile *p;
	struct prof_diag d;
	T_EQ_INT(parse("{\"matrix\": {\"size\": [64, 1518]}, \"params\": {\"rules\": 3},\n"
		       " \"trial\": {\"warmup\": \"0.2s\", \"duration\": \"1s\"},\n"
		       " \"tests\": [{\"name\": \"tput\", \"trial\": {\"method\": \"rfc2544\"}},\n"
		       "  {\"name\": \"filters-25\", \"description\": \"11.4\",\n"
		       "   \"matrix\": {\"rules\": [1, 25]}, \"params\": {\"size\": 64},\n"
		       "   \"trial\": {\"method\": \"ladder\", \"duration\": \"2s\"}}]}",
		       &p, &d), 0);
	T_EQ_INT(d.n, 0);
	T_EQ_INT(p->ntests, 2);
	if (p->ntests == 2) {
		const struct profile *a = p->tests[0], *b = p->tests[1];
		T_STREQ(a->test, "tput");
		T_EQ_INT(a->trial.method, PM_RFC2544);
		T_TRUE(a->trial.warmup_s == 0.2 && a->trial.duration_s == 1);
		T_EQ_INT(a->naxes, 1);
		T_STREQ(a->axes[0].name, "size");
		T_EQ_INT(json_integer_value(json_object_get(a->fixed, "rules")), 3);
		T_STREQ(b->test, "filters-25");
		T_STREQ(b->test_description, "11.4");
		T_EQ_INT(b->trial.method, PM_LADDER);
		T_TRUE(b->trial.warmup_s == 0.2 && b->trial.duration_s == 2);
		T_EQ_INT(b->naxes, 1);   /* rules swept, size now fixed */
		T_STREQ(b->axes[0].name, "rules");
		T_EQ_INT(json_integer_value(json_object_get(b->fixed, "size")), 64);
		T_TRUE(!json_object_get(b->root, "tests"));
	}
	T_TRUE(p->test == NULL);
	profile_free(p);

	T_EQ_INT(parse("{\"trial\": {\"duration\": 0.01},\n"
		       " \"tests\": [{\"name\": \"a\", \"trial\": {\"method\": \"nope\"}},\n"
		       "  {\"name\": \"a\"},\n"
		       "  {\"name\": \"B1\", \"matrix\": 3},\n"
		       "  {\"trial\": {}, \"colour\": 1},\n"
		       "  {\"name\": \"c\", \"matrix\": {\"size\": [64, 64]}}]}", &p, &d), -EINVAL);
	T_EQ_INT(d.n, 8);
	T_STREQ(rel(&d, 0), ":1:24: trial.duration: a trial must last at least 0.1 s, got 0.01 s");
	T_STREQ(rel(&d, 1), ":2:46: tests[0].trial.method: expected \"fixed\", "
		"\"rfc2544\", \"mlr\", \"ladder\", \"b2b\" or \"outage\", got string \"nope\"");
	T_STREQ(rel(&d, 2), ":3:12: tests[1].name: two tests are named \"a\"");
	T_STREQ(rel(&d, 3), ":4:12: tests[2].name: expected a name of 1 to 32 lower-case "
		"letters, digits, '_' or '-', starting with a letter, got string \"B1\"");
	T_STREQ(rel(&d, 4), ":4:28: tests[2].matrix: expected an object {...}, got 3");
	T_STREQ(rel(&d, 5), ":5:3: tests[3]: a test needs a \"name\"");
	T_STREQ(rel(&d, 6), ":5:17: tests[3].colour: unknown key \"colour\" in tests[3]; known "
		"keys: name, description, trial, matrix, params");
	T_STREQ(rel(&d, 7), ":6:41: tests[4].matrix.size[1]: 64 appears twice in the list");
	prof_diag_free(&d);

	T_EQ_INT(parse("{\"tests\": []}", &p, &d), -EINVAL);
	T_TRUE(has(&d, ":1:11: tests: expected a list of 1 to 16 tests, got a list"));
	prof_diag_free(&d);
	/* --set through the list: each test's own */
	char *sets[] = { "tests.trial.duration=0.01" };
	T_EQ_INT(parse_sets("{\"tests\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}", sets, 1, &p,
			    &d), -EINVAL);
	T_EQ_INT(d.n, 2);
	T_STREQ(d.msg[0], "--set 1: tests[0].trial.duration: a trial must last at least 0.1 s, "
		"got 0.01 s");
	T_STREQ(d.msg[1], "--set 1: tests[1].trial.duration: a trial must last at least 0.1 s, "
		"got 0.01 s");
	prof_diag_free(&d);
}

int main(void)
{
	T_RUN(t_tests);
	T_RUN(t_defaults);
	T_RUN(t_method_names);
	T_RUN(t_b2b_fields);
	T_RUN(t_full);
	T_RUN(t_kernel_axes);
	T_RUN(t_syntax_error);
	T_RUN(t_unknown_key);
	T_RUN(t_wrong_type);
	T_RUN(t_axis_ranges);
	T_RUN(t_duplicates);
	T_RUN(t_set);
	T_RUN(t_set_errors);
	T_RUN(t_rules_file);
	T_RUN(t_topology);
	T_RUN(t_dst_guard);
	T_RUN(t_ip_version);
	T_RUN(t_vlan);
	T_RUN(t_router_hooks);
	T_RUN(t_external_coverage);
	T_RUN(t_router_axes);
	T_RUN(t_ports_and_clocks);
	T_RUN(t_pace_keys);
	T_RUN(t_trial_relations);
	T_RUN(t_goals);
	T_RUN(t_outage_fields);
	T_RUN(t_load);
	return t_done();
}
