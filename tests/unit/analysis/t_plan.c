/* SPDX-License-Identifier: BSD-2-Clause */
/* t_plan.c — a profile's matrix as cases: the cartesian product with the first axis
 * slowest, case ids in canonical value text, "all" without axes, repetitions in order,
 * random order deterministic per seed and a permutation of every repetition, the
 * case limit, estimated times and the printed plan. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "tap.h"

static struct profile *prof(const char *text, char *const *sets, size_t nsets)
{
	struct profile *p = NULL;
	struct prof_diag d = { 0 };
	if (profile_parse(text, strlen(text), "plan.json", sets, nsets, &p, &d))
		T_FAIL("%s", d.n ? d.msg[0] : "profile_parse failed");
	prof_diag_free(&d);
	return p;
}

static void t_expand(void)
{
	struct profile *p = prof("{\"matrix\": {\"pollhz\": [1000, 2000, 3000], \"offered\": [\"200k\", 1.5e5]},"
				 " \"repetitions\": 2}", NULL, 0);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncells, 6);
	T_EQ_INT(pl.ncases, 12);
	T_STREQ(pl.cases[0].case_id, "pollhz=1000/offered=200k");
	T_STREQ(pl.cases[1].case_id, "pollhz=1000/offered=150000");
	T_STREQ(pl.cases[2].case_id, "pollhz=2000/offered=200k");
	T_STREQ(pl.cases[5].case_id, "pollhz=3000/offered=150000");
	T_STREQ(pl.cases[6].case_id, "pollhz=1000/offered=200k");
	for (size_t i = 0; i < pl.ncases; i++) {
		T_EQ_INT(pl.cases[i].cell, i % 6);
		T_EQ_INT(pl.cases[i].rep, i / 6 + 1);
	}
	json_t *pa = pl.cases[3].params;
	T_EQ_INT(json_object_size(pa), 2);
	T_EQ_INT(json_integer_value(json_object_get(pa, "pollhz")), 2000);
	T_NEAR(pl.cases[3].values.offered_pps, 150000, 0);
	T_EQ_INT(pl.cases[3].values.pollhz, 2000);
	T_TRUE(pl.cases[3].values.params == pa);
	T_EQ_INT(pl.cases[3].values.burst_max, 150);   /* the default fills the rest */
	/* params keep matrix order */
	T_STREQ(json_object_iter_key(json_object_iter(pa)), "pollhz");
	plan_free(&pl);
	T_EQ_INT(pl.ncases, 0);
	plan_free(&pl);
	profile_free(p);
}

static void t_no_axes(void)
{
	char *sets[] = { "repetitions=3" };
	struct profile *p = prof("{\"params\": {\"pollhz\": 4000}}", sets, 1);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncells, 1);
	T_EQ_INT(pl.ncases, 3);
	for (size_t i = 0; i < 3; i++) {
		T_STREQ(pl.cases[i].case_id, "all");
		T_EQ_INT(pl.cases[i].rep, i + 1);
		T_EQ_INT(json_object_size(pl.cases[i].params), 0);
	}
	plan_free(&pl);
	profile_free(p);
}

static void order_of(const char *seed, size_t *cells, size_t n)
{
	char s1[64];
	snprintf(s1, sizeof(s1), "seed=%s", seed);
	char *sets[] = { s1 };
	struct profile *p = prof("{\"matrix\": {\"pollhz\": [1,2,3,4,5], \"flows\": [1,2,3,4]},"
				 " \"order\": \"random\", \"repetitions\": 3}", sets, 1);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncases, n);
	for (size_t i = 0; i < n && i < pl.ncases; i++)
		cells[i] = pl.cases[i].cell;
	plan_free(&pl);
	profile_free(p);
}

static void t_random(void)
{
	size_t a[60], b[60], c[60];
	order_of("42", a, 60);
	order_of("42", b, 60);
	order_of("43", c, 60);
	T_TRUE(!memcmp(a, b, sizeof(a)));
	T_TRUE(memcmp(a, c, sizeof(a)) != 0);
	/* each repetition is a permutation of the 20 cells, and not the matrix order */
	for (size_t r = 0; r < 3; r++) {
		int seen[20] = { 0 };
		size_t inorder = 0;
		for (size_t i = 0; i < 20; i++) {
			size_t cell = a[r * 20 + i];
			T_TRUE(cell < 20);
			if (cell < 20)
				seen[cell]++;
			inorder += cell == i;
		}
		for (size_t i = 0; i < 20; i++)
			T_EQ_INT(seen[i], 1);
		T_TRUE(inorder < 20);
	}
	/* repetitions are shuffled independently */
	T_TRUE(memcmp(a, a + 20, 20 * sizeof(a[0])) != 0);
	/* seed 0 is a valid seed too */
	order_of("0", c, 60);
	T_TRUE(memcmp(a, c, sizeof(a)) != 0);
}

static void t_limit(void)
{
	char *sets[] = { "pollhz=1,2,3,4,5,6,7,8,9,10,11", "flows=1,2,3,4,5,6,7,8,9,10,11",
			 "repetitions=1000" };
	struct profile *p = prof("{}", sets, 3);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), -E2BIG);
	T_TRUE(pl.cases == NULL && pl.ncases == 0);
	profile_free(p);
}

static void t_estimate(void)
{
	/* fixed: 2 s start + 1 s warm-up + 2 s trial + 0.5 s settle */
	struct profile *p = prof("{\"matrix\": {\"pollhz\": [1000, 2000]}, \"repetitions\": 2}", NULL, 0);
	struct plan pl;
	if (!p)
		return;
	T_NEAR(plan_case_seconds(p), 5.5, 1e-9);
	T_EQ_INT(plan_make(p, &pl), 0);
	T_NEAR(pl.est_trial_s, 5.5, 1e-9);
	/* 4 cases, calibration 5 s, the direct run one case */
	T_NEAR(pl.est_s, 4 * 5.5 + 5 + 5.5, 1e-9);
	plan_free(&pl);
	profile_free(p);

	/* rfc2544 over 1000..1M pps at 0.5 %: 1 + ceil(log2(999000 / 5000)) = 9 trials */
	p = prof("{\"trial\": {\"method\": \"rfc2544\", \"max_load\": \"1M\", \"warmup\": 0}}", NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 9 * 2.5, 1e-9);
	profile_free(p);
	/* max_trials caps it */
	p = prof("{\"trial\": {\"method\": \"rfc2544\", \"max_trials\": 3, \"warmup\": 0}}", NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 3 * 2.5, 1e-9);
	profile_free(p);
	/* ladder of 4 steps of 1 s, settle 0 */
	p = prof("{\"trial\": {\"method\": \"ladder\", \"ladder\": [1000, 2000, 3000, 4000],"
		 " \"duration\": 1, \"settle\": 0}}", NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 1 + 4, 1e-9);
	profile_free(p);
	/* mlr, 1 phase: 2 trials of 1 s; phase 0: 3 trials of 1 s; final: 2 loads x 2 of 10 s */
	p = prof("{\"trial\": {\"method\": \"mlr\", \"phases\": 1, \"duration\": 10,"
		 " \"duration_sum\": 20, \"settle\": 0, \"warmup\": 0}}", NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 2 + 3 + 40, 1e-9);
	profile_free(p);
	/* b2b with the throughput given: bursts only, 1 + ceil(log2(1023)) = 11 for the
	 * first search, 12 for each later one, each 0.5 s + 2 × 1024 frames at 1 Mpps */
	p = prof("{\"trial\": {\"method\": \"b2b\", \"b2b_trials\": 3, \"b2b_max_burst\": 1024,"
		 " \"b2b_throughput\": \"10k\", \"max_load\": \"1M\", \"settle\": 0, \"warmup\": 0}}",
		 NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 35 * (0.5 + 2048 / 1e6), 1e-9);
	profile_free(p);
	/* ... measured first: the rfc2544 search's 9 trials of 2 s come before */
	p = prof("{\"trial\": {\"method\": \"b2b\", \"b2b_trials\": 1, \"b2b_max_burst\": 1024,"
		 " \"max_load\": \"1M\", \"settle\": 0, \"warmup\": 0}}", NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 9 * 2 + 11 * (0.5 + 2048 / 1e6), 1e-9);
	profile_free(p);
	/* the same as two goals: the same estimate */
	p = prof("{\"trial\": {\"method\": \"mlr\", \"phases\": 1, \"duration\": 10,"
		 " \"duration_sum\": 20, \"settle\": 0, \"warmup\": 0,"
		 " \"goals\": [{\"name\": \"NDR\"}, {\"name\": \"PDR\", \"loss_ratio\": 0.005}]}}",
		 NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 2 + 3 + 40, 1e-9);
	profile_free(p);
	/* three goals, each a load decided by its own duration sum of its final trials:
	 * phase 0 of 1-s trials (initial .. the longest final, 10 s), then 2 x 10 s,
	 * 3 x 4 s (a 4-s final, sum 12 s) and 1 x 10 s */
	p = prof("{\"trial\": {\"method\": \"mlr\", \"phases\": 1, \"settle\": 0, \"warmup\": 0,"
		 " \"goals\": [{\"name\": \"A\", \"final\": 10, \"duration_sum\": 20},"
		 " {\"name\": \"B\", \"final\": 4, \"duration_sum\": 12},"
		 " {\"name\": \"C\", \"final\": 10, \"latency\": \"1ms\"}]}}", NULL, 0);
	if (p)
		T_NEAR(plan_case_seconds(p), 2 + 2 + 3 + 20 + 12 + 10, 1e-9);
	profile_free(p);
}

/* an external router's hooks are in the estimate: setup once, an axis' hook when a
 * value it names changes between consecutive cases, check every case, read twice a
 * trial, each at router.hook_estimate */
static void t_hook_estimate(void)
{
	struct profile *p = prof("{\"matrix\": {\"pollhz\": [1000, 2000], \"rules\": [0, 10]},"
				 " \"rig\": {\"calibrate\": false, \"direct\": false},"
				 " \"router\": {\"kind\": \"external\", \"setup_hook\": [\"s\"],"
				 "  \"hooks\": {\"pollhz\": [\"h\", \"{pollhz}\"], \"rules\": [\"r\", \"{rules}\"]},"
				 "  \"check_hook\": [\"c\"], \"read_hook\": [\"x\"],"
				 "  \"hook_estimate\": {\"pollhz\": 2, \"rules\": \"10s\", \"read\": 0.5}}}",
				 NULL, 0);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	/* sequential: (1000,0) (1000,10) (2000,0) (2000,10): pollhz runs twice, rules four
	 * times; setup 1 s; check 4 × 1 s; read 4 cases × 2 × 0.5 s */
	T_NEAR(pl.est_hook_s, 1 + 2 * 2 + 4 * 10 + 4 * 1 + 4 * 2 * 0.5, 1e-9);
	T_EQ_INT(pl.hook_runs, 1 + 2 + 4 + 4 + 8);
	T_NEAR(pl.est_s, 4 * pl.est_trial_s + pl.est_hook_s, 1e-9);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	plan_print(p, &pl, f);
	fclose(f);
	T_TRUE(strstr(text, "plus 53 s for 19 runs of the router's hooks") != NULL);
	T_TRUE(strstr(text, "  rules        4 runs, ~10 s each") != NULL);
	T_TRUE(strstr(text, "  pollhz       2 runs, ~2 s each") != NULL);
	free(text);
	plan_free(&pl);
	profile_free(p);
}

/* router axes that take a reboot group the cases: each combination of their values,
 * every repetition, before the next (sequential: matrix order; random: the groups and
 * the cells within shuffled by the seed); the plan counts one reboot per group and
 * adds them to its estimate, setup and every runtime hook again after each; it says
 * which router axes are verified */
static void t_reboot_groups(void)
{
	const char *text =
		"{\"matrix\": {\"direction\": [\"uni\", \"bi\"]}, \"repetitions\": 2,"
		" \"rig\": {\"calibrate\": false, \"direct\": false},"
		" \"router\": {\"kind\": \"external\", \"setup_hook\": [\"s\"],"
		"  \"axes\": [{\"name\": \"fw\", \"values\": [0, 1], \"set\": [\"f\", \"{value}\"]},"
		"            {\"name\": \"kern.hz\", \"values\": [100, 1000, 4000],"
		"             \"set\": [\"l\", \"{value}\"], \"verify\": [\"v\"], \"reboot\": true}],"
		"  \"reboot_hook\": [\"r\"], \"reboot_estimate\": \"1m\", \"boot_hook\": [\"b\"],"
		"  \"hook_estimate\": {\"verify\": 0.5}}}";
	struct profile *p = prof(text, NULL, 0);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncases, 24);
	T_EQ_INT(pl.reboots, 3);
	T_NEAR(pl.est_reboot_s, 180, 1e-9);
	/* sequential: kern.hz 100 for 8 cases (both reps), then 1000, then 4000 */
	for (size_t i = 0; i < pl.ncases; i++) {
		static const int hz[] = { 100, 1000, 4000 };
		T_EQ_INT(json_integer_value(json_object_get(pl.cases[i].params, "kern.hz")), hz[i / 8]);
		T_EQ_INT(pl.cases[i].rep, (i % 8) / 4 + 1);
		T_EQ_INT(plan_reboots_before(p, &pl, i), i % 8 == 0);
	}
	T_STREQ(pl.cases[0].case_id, "fw=0/kern.hz=100/direction=uni");
	T_STREQ(pl.cases[1].case_id, "fw=0/kern.hz=100/direction=bi");
	T_STREQ(pl.cases[2].case_id, "fw=1/kern.hz=100/direction=uni");
	/* hooks: setup 1 + 3; fw: changes within a group (0,0,1,1 | 0,0,1,1) and after
	 * each reboot: 4 a group; kern.hz 3; verify 24 × 0.5 s */
	T_EQ_INT(pl.hook_runs, 4 + 12 + 3 + 24);
	T_NEAR(pl.est_hook_s, 4 + 12 + 3 + 12, 1e-9);
	T_NEAR(pl.est_s, 24 * pl.est_trial_s + pl.est_hook_s + 180, 1e-9);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	plan_print(p, &pl, f);
	fclose(f);
	T_TRUE(strstr(buf, "plus 3 min 0 s for 3 reboots") != NULL);
	T_TRUE(strstr(buf, "  fw      NOT verified (no \"verify\"") != NULL);
	T_TRUE(strstr(buf, "  kern.hz verified (read back every case), set 3 times, takes a reboot\n") != NULL);
	T_TRUE(strstr(buf, "reboots: 3, ~1 min 0 s each (router.reboot_estimate); the router is back "
			   "when test frames pass through it again (a probe), waiting up to 10 min 0 s") != NULL);
	T_TRUE(strstr(buf, "  setup        once and after every reboot") != NULL);
	if (t_cur_failed)
		printf("%s", buf);
	free(buf);
	plan_free(&pl);

	/* random: still one reboot per group; the same seed, the same order */
	char *sets[] = { "order=random", "seed=7" };
	struct profile *q = prof(text, sets, 2);
	struct plan a, b;
	if (q && !plan_make(q, &a) && !plan_make(q, &b)) {
		T_EQ_INT(a.reboots, 3);
		size_t changes = 0;
		for (size_t i = 0; i < a.ncases; i++) {
			T_STREQ(a.cases[i].case_id, b.cases[i].case_id);
			changes += plan_reboots_before(q, &a, i);
		}
		T_EQ_INT(changes, 3);
		plan_free(&a);
		plan_free(&b);
	}
	profile_free(q);
	profile_free(p);
}

static void t_print(void)
{
	struct profile *p = prof("{\"description\": \"two by two\","
				 " \"matrix\": {\"pollhz\": [1000, 2000], \"burst_max\": [50, 100]},"
				 " \"repetitions\": 10, \"trial\": {\"duration\": 4}}", NULL, 0);
	struct plan pl;
	char *buf = NULL;
	size_t len = 0;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	FILE *f = open_memstream(&buf, &len);
	plan_print(p, &pl, f);
	fclose(f);
	T_TRUE(strstr(buf, "profile plan (plan.json)\n  two by two\n") != NULL);
	T_TRUE(strstr(buf, "  pollhz    1000, 2000\n  burst_max 50, 100\n") != NULL);
	T_TRUE(strstr(buf, "fixed: each_burst=5 user_frac=50") != NULL);
	T_TRUE(strstr(buf, "method: fixed, warm-up 1 s, trials 4 s, settle 0.5 s\n") != NULL);
	T_TRUE(strstr(buf, "cases: 4 cells x 10 repetitions = 40 cases, order sequential\n") != NULL);
	/* 40 x 7.5 s + 5 s + 7.5 s = 312.5 s */
	T_TRUE(strstr(buf, "estimated time: about 5 min 13 s (8 s per case") != NULL ||
	       strstr(buf, "estimated time: about 5 min 12 s (8 s per case") != NULL);
	T_TRUE(strstr(buf, "\n   1  pollhz=1000/burst_max=50  rep 1\n") != NULL);
	T_TRUE(strstr(buf, "\n  40  pollhz=2000/burst_max=100  rep 10\n") != NULL);
	if (t_cur_failed)
		printf("%s", buf);
	free(buf);
	plan_free(&pl);
	profile_free(p);
}

/* Router-axis values with '/', '=', '%' or a backslash once gave two cells one case id
 * ("a/b=c" and "a" + "b=c" across two axes): one was skipped as done. Escaped, every
 * cell has its own id; a number and a string with the same text are refused. */
static void t_case_ids(void)
{
	static const char *const rt = "{\"router\": {\"kind\": \"external\", \"axes\": ["
		"{\"name\": \"a\", \"values\": [\"x/y=z\", \"x\"], \"set\": [\"s\", \"{value}\"]},"
		"{\"name\": \"b\", \"values\": [\"1\", \"y=z/b=1\", \"50%\", \"c:\\\\d\"], "
		"\"set\": [\"s\", \"{value}\"]}]}}";
	struct profile *p = prof(rt, NULL, 0);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_U64(pl.ncases, 8);
	T_STREQ(pl.cases[0].case_id, "a=x%2Fy%3Dz/b=1");
	T_STREQ(pl.cases[5].case_id, "a=x/b=y%3Dz%2Fb%3D1");
	T_STREQ(pl.cases[6].case_id, "a=x/b=50%25");
	T_STREQ(pl.cases[7].case_id, "a=x/b=c:%5Cd");
	for (size_t i = 0; i < pl.ncases; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(pl.cases[i].case_id, pl.cases[j].case_id))
				T_FAIL("cases %zu and %zu share the id %s", j, i, pl.cases[i].case_id);
	plan_free(&pl);
	profile_free(p);
	char b[64];
	json_t *v = json_integer(1000);
	T_STREQ(prof_id_text(v, b, sizeof(b)), "1000");
	json_decref(v);
	v = json_string("tab\there");
	T_STREQ(prof_id_text(v, b, sizeof(b)), "tab%09here");
	json_decref(v);
	/* "1000" and 1000 would both be "1000": refused at the second, with its place */
	struct profile *q = NULL;
	struct prof_diag d = { 0 };
	const char *two = "{\"router\": {\"kind\": \"external\", \"axes\": [{\"name\": \"a\",\n"
		"  \"values\": [1000, \"1000\"], \"set\": [\"s\", \"{value}\"]}]}}";
	T_TRUE(profile_parse(two, strlen(two), "ids.json", NULL, 0, &q, &d) != 0);
	T_TRUE(d.n >= 1 && strstr(d.msg[0], "ids.json:2:") &&
	       strstr(d.msg[0], "router.axes[0].values[1]") && strstr(d.msg[0], "name one case"));
	if (d.n && !strstr(d.msg[0], "name one case"))
		printf("# %s\n", d.msg[0]);
	prof_diag_free(&d);
	profile_free(q);
}

/* a profile of tests: each test's cases after the one before's, tagged, each measured by
 * its own test; the time is the tests' sum with the rig's ceiling once */
static void t_tests(void)
{
	struct profile *p = prof("{\"matrix\": {\"size\": [64, 128]}, \"repetitions\": 2,"
				 " \"trial\": {\"duration\": \"1s\"}, \"tests\": ["
				 "{\"name\": \"a\", \"trial\": {\"method\": \"fixed\"}},"
				 "{\"name\": \"b\", \"trial\": {\"method\": \"ladder\"},"
				 " \"params\": {\"size\": 256}}]}", NULL, 0);
	struct plan pl, pa, pb;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ntests, 2);
	T_EQ_INT(pl.ncases, 6);
	T_EQ_INT(pl.ncells, 3);
	static const char *const ids[] = { "test=a/size=64", "test=a/size=128", "test=a/size=64",
					   "test=a/size=128", "test=b", "test=b" };
	for (size_t i = 0; i < pl.ncases && i < 6; i++) {
		T_STREQ(pl.cases[i].case_id, ids[i]);
		T_STREQ(pl.cases[i].test, i < 4 ? "a" : "b");
		T_TRUE(pl.cases[i].prof == p->tests[i < 4 ? 0 : 1]);
		T_STREQ(json_object_iter_key(json_object_iter(pl.cases[i].params)), "test");
		T_EQ_INT(pl.cases[i].values.size, i < 4 ? (i % 2 ? 128 : 64) : 256);
	}
	T_EQ_INT(pl.cases[4].cell, 2);
	T_EQ_INT(pl.cases[5].rep, 2);
	/* each test's own plan, less the rig's ceiling, summed; the ceiling once */
	T_EQ_INT(plan_make(p->tests[0], &pa), 0);
	T_EQ_INT(plan_make(p->tests[1], &pb), 0);
	double rig = pa.est_s - 4 * plan_case_seconds(p->tests[0]);
	T_TRUE(rig > 0);
	T_NEAR(pl.est_s, pa.est_s + pb.est_s - rig, 1e-9);
	T_NEAR(pb.est_s - rig, 2 * plan_case_seconds(p->tests[1]), 1e-9);
	T_TRUE(plan_case_seconds(p->tests[1]) > plan_case_seconds(p->tests[0]));   /* 10 steps */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	plan_print(p, &pl, f);
	fclose(f);
	T_TRUE(strstr(buf, "\n== test 1/2: a: about ") != NULL);
	T_TRUE(strstr(buf, "\n== test 2/2: b: about ") != NULL);
	T_TRUE(strstr(buf, "\nall 2 tests: 6 cases, estimated time about ") != NULL);
	T_TRUE(strstr(buf, "  6  test=b  rep 2\n") != NULL);
	free(buf);
	plan_free(&pa);
	plan_free(&pb);
	plan_free(&pl);
	profile_free(p);
}

/* an outage action hook (the reset recipe's reboot) leaves the router without its
 * runtime settings: the setup and every hook run again before the next case, in this
 * test or the next; the router is one for the whole run, so its setup runs once before
 * the first test, not once a test */
static void t_reset_reapply(void)
{
	static const char head[] =
		"{\"repetitions\": 3, \"params\": {\"rules\": 1},"
		" \"rig\": {\"calibrate\": false, \"direct\": false},"
		" \"router\": {\"kind\": \"external\", \"setup_hook\": [\"s\"], \"reboot_hook\": [\"r\"],"
		"  \"hooks\": {\"rules\": [\"l\"]}, \"hook_estimate\": {\"setup\": 1, \"rules\": 10}},"
		" \"trial\": {\"duration\": \"5s\"},"
		" \"tests\": [";
	static const char reset[] =
		"{\"name\": \"reset\", \"trial\": {\"method\": \"outage\", \"outage_recipe\": \"reset\","
		" \"outage_load\": \"10k\"}}";
	static const char fixed[] = "{\"name\": \"tput\", \"trial\": {\"method\": \"fixed\"}}";
	char text[1024];
	/* reset first: setup and rules before each of its 3 cases and before tput's
	 * first; rules also before each tput case (its own plan's first, an estimate) */
	snprintf(text, sizeof(text), "%s%s, %s]}", head, reset, fixed);
	struct profile *p = prof(text, NULL, 0);
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	const struct plan *rs = &pl.tests[0];
	/* the reset test: setup 3, rules 3, the reboot 3 */
	T_EQ_INT(rs->hook_runs, 3 + 3 + 3);
	T_NEAR(rs->est_hook_s, 3 * 1 + 3 * 10 + 3 * p->router.hook_est_s, 1e-9);
	/* the whole run: tput's setup after the last reset, its rules once */
	T_EQ_INT(pl.hook_runs, 9 + 1 + 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	plan_print(p, &pl, f);
	fclose(f);
	T_TRUE(strstr(buf, "  setup          3 runs (once and after every outage action), ~1 s each\n") != NULL);
	T_TRUE(strstr(buf, "  rules          3 runs, ~10 s each\n") != NULL);
	free(buf);
	plan_free(&pl);
	profile_free(p);
	/* reset last: one setup before the run, again between the resets, none after */
	snprintf(text, sizeof(text), "%s%s, %s]}", head, fixed, reset);
	if (!(p = prof(text, NULL, 0)))
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.hook_runs, (1 + 1) + (2 + 3 + 3));
	plan_free(&pl);
	profile_free(p);
}

int main(void)
{
	T_RUN(t_tests);
	T_RUN(t_expand);
	T_RUN(t_no_axes);
	T_RUN(t_random);
	T_RUN(t_limit);
	T_RUN(t_estimate);
	T_RUN(t_hook_estimate);
	T_RUN(t_reboot_groups);
	T_RUN(t_reset_reapply);
	T_RUN(t_print);
	T_RUN(t_case_ids);
	return t_done();
}
