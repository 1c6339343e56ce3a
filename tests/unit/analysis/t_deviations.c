/* SPDX-License-Identifier: BSD-2-Clause */
/* t_deviations.c — the deviations from RFC 2544 a profile asks for (deviations.h): a
 * table of profile settings, each with every finding it must give, in order, and none
 * other (recovery's and reset's: RFC 2544 §26.5 and §26.6); a profile of tests names
 * each test's. */
#include <stdio.h>
#include <string.h>

#include "deviations.h"
#include "profile.h"
#include "tap.h"

#define ALL_SIZES "\"matrix\": {\"size\": [64, 128, 256, 512, 1024, 1280, 1518]}"
#define RFC_TRIAL "\"warmup\": \"1s\", \"duration\": \"60s\", \"settle\": \"2s\""

static const struct row {
	const char *what, *profile;
	const char *want[10];
} rows[] = {
	{ "26.1 as RFC 2544 asks: nothing",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"rfc2544\", " RFC_TRIAL "}}", { NULL } },
	{ "short trials and settle",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"rfc2544\", \"duration\": \"1s\", "
	  "\"settle\": \"0.3s\"}}",
	  { "1 s trials instead of 60 s (RFC 2544 §24)",
	    "0.3 s settle instead of 2 s (RFC 2544 §23)", NULL } },
	{ "fewer frame sizes",
	  "{\"matrix\": {\"size\": [64, 1518, 100]}, \"trial\": {\"method\": \"rfc2544\", "
	  RFC_TRIAL "}}",
	  { "2 of the 7 frame sizes of RFC 2544 §9.1 (64, 128, 256, 512, 1024, 1280, 1518 bytes) "
	    "measured, which §26.1 asks for each", NULL } },
	{ "one fixed size (IMIX is none of them)",
	  "{\"params\": {\"size\": \"imix\"}, \"trial\": {\"method\": \"ladder\", " RFC_TRIAL "}}",
	  { "0 of the 7 frame sizes of RFC 2544 §9.1 (64, 128, 256, 512, 1024, 1280, 1518 bytes) "
	    "measured, which §26.3 asks for each", NULL } },
	{ "latency at two sizes",
	  "{\"matrix\": {\"size\": [64, 1518]}, \"trial\": {\"method\": \"rfc2544\", "
	  RFC_TRIAL ", \"latency_loads\": [100]}}",
	  { "2 of the 7 frame sizes of RFC 2544 §9.1 (64, 128, 256, 512, 1024, 1280, 1518 bytes) "
	    "measured, which §26.1 and §26.2 ask for each",
	    "latency from 1 trial of 60 s per load instead of the mean of 20 trials of 120 s "
	    "(RFC 2544 §26.2)", NULL } },
	{ "latency from one trial, not at the throughput",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"rfc2544\", " RFC_TRIAL ", "
	  "\"latency_loads\": [0, 50]}}",
	  { "latency not measured at 100 % of the throughput, the rate RFC 2544 §26.2 asks for",
	    "latency from 1 trial of 60 s per load instead of the mean of 20 trials of 120 s "
	    "(RFC 2544 §26.2)", NULL } },
	{ "MLR with a lossy, exceeding goal",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"mlr\", " RFC_TRIAL ", \"goals\": \"csit\"}}",
	  { "1 s trials instead of 60 s (RFC 2544 §24)", "MLRsearch exceed ratio above 0", NULL } },
	{ "frame loss in coarse steps below the maximum",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"ladder\", " RFC_TRIAL ", "
	  "\"max_load\": \"100k\", \"ladder\": [\"20k\", \"60k\", \"80k\"]}}",
	  { "frame loss measured up to 80000 pps, not from the maximum rate 100000 pps "
	    "(RFC 2544 §26.3)",
	    "frame loss in steps up to 50 % of the highest load instead of 10 % (RFC 2544 §26.3)",
	    NULL } },
	{ "frame loss in 10 % steps (the default ladder): nothing",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"ladder\", " RFC_TRIAL "}}", { NULL } },
	{ "back-to-back: fewer trials",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"b2b\", " RFC_TRIAL ", \"b2b_trials\": 5}}",
	  { "5 back-to-back trials instead of 50 (RFC 2544 §26.4)", NULL } },
	{ "back-to-back: 50 trials, short trial length does not count",
	  "{" ALL_SIZES ", \"trial\": {\"method\": \"b2b\", \"duration\": \"1s\", "
	  "\"settle\": \"2s\"}}", { NULL } },
	{ "recovery: 60 s of overload from the NDR, repeated: nothing",
	  "{\"repetitions\": 3, \"trial\": {\"method\": \"outage\", \"outage_recipe\": \"recovery\", "
	  "\"outage_load\": \"100%\", \"outage_at\": \"60s\", \"duration\": \"70s\", "
	  "\"settle\": \"2s\"}}", { NULL } },
	{ "recovery: shortened, from a given rate",
	  "{\"trial\": {\"method\": \"outage\", \"outage_recipe\": \"recovery\", "
	  "\"outage_load\": \"10k\", \"outage_at\": \"2s\", \"duration\": \"4s\", "
	  "\"settle\": \"2s\"}}",
	  { "recovery (RFC 2544 §26.5) after 2 s of overload at 110 % of the throughput "
	    "instead of at least 60 s",
	    "recovery (RFC 2544 §26.5) from a given throughput, not one measured first",
	    "recovery (RFC 2544 §26.5) measured once a case, not repeated for a mean "
	    "(repetitions 1)", NULL } },
	{ "recovery: from 90 % of the NDR",
	  "{\"trial\": {\"method\": \"outage\", \"outage_recipe\": \"recovery\", "
	  "\"outage_load\": \"90%\", \"outage_at\": \"60s\", \"duration\": \"70s\", "
	  "\"settle\": \"2s\"}}",
	  { "recovery (RFC 2544 §26.5) from 90 % of the NDR instead of the throughput (100 %)",
	    "recovery (RFC 2544 §26.5) measured once a case, not repeated for a mean "
	    "(repetitions 1)", NULL } },
	{ "reset through the reboot hook at the NDR: one kind of reset",
	  "{\"router\": {\"kind\": \"external\", \"reboot_hook\": [\"true\"]}, "
	  "\"trial\": {\"method\": \"outage\", \"outage_recipe\": \"reset\", "
	  "\"outage_load\": \"100%\", \"duration\": \"60s\", \"settle\": \"2s\"}}",
	  { "reset (RFC 2544 §26.6) of one kind, by the router's reboot hook, instead of each "
	    "of a hardware reset, a software reset and a 10-s power interruption", NULL } },
	{ "reset through an action hook at a fixed load",
	  "{\"router\": {\"kind\": \"external\"}, \"trial\": {\"method\": \"outage\", "
	  "\"outage_recipe\": \"reset\", \"outage_load\": \"10k\", \"outage_action\": "
	  "{\"hook\": [\"true\"]}, \"duration\": \"60s\", \"settle\": \"2s\"}}",
	  { "reset (RFC 2544 §26.6) at a fixed load, not at a throughput measured first",
	    "reset (RFC 2544 §26.6) of one kind, by the outage action, instead of each of a "
	    "hardware reset, a software reset and a 10-s power interruption", NULL } },
	{ "filters: 10, none single",
	  "{\"matrix\": {\"size\": [64, 128, 256, 512, 1024, 1280, 1518], \"rules\": [0, 10]}, "
	  "\"trial\": {\"method\": \"rfc2544\", " RFC_TRIAL "}}",
	  { "10 filters at most instead of 25 (RFC 2544 §11.4)",
	    "no case with a single filter (RFC 2544 §11.4)", NULL } },
	{ "filters: 1 and 25 that match",
	  "{\"matrix\": {\"size\": [64, 128, 256, 512, 1024, 1280, 1518], \"rules\": [1, 25]}, "
	  "\"params\": {\"rules_kind\": \"count\"}, \"trial\": {\"method\": \"rfc2544\", "
	  RFC_TRIAL "}}",
	  { "filters of kind \"count\" match the test frames; RFC 2544 §11.4's do not, but for "
	    "the one that passes them", NULL } },
	{ "filters: 1 and 25: nothing",
	  "{\"matrix\": {\"size\": [64, 128, 256, 512, 1024, 1280, 1518], \"rules\": [1, 25]}, "
	  "\"trial\": {\"method\": \"rfc2544\", " RFC_TRIAL "}}", { NULL } },
	{ "tests: each named",
	  "{" ALL_SIZES ", \"trial\": {" RFC_TRIAL "}, \"tests\": ["
	  "{\"name\": \"tput\", \"trial\": {\"method\": \"rfc2544\"}},"
	  "{\"name\": \"b2b\", \"trial\": {\"method\": \"b2b\", \"b2b_trials\": 2}, "
	  "\"params\": {\"size\": 64}},"
	  "{\"name\": \"short\", \"trial\": {\"method\": \"fixed\", \"duration\": \"2s\"}}]}",
	  { "b2b: 2 back-to-back trials instead of 50 (RFC 2544 §26.4)",
	    "b2b: 1 of the 7 frame sizes of RFC 2544 §9.1 (64, 128, 256, 512, 1024, 1280, 1518 "
	    "bytes) measured, which §26.4 asks for each",
	    "short: 2 s trials instead of 60 s (RFC 2544 §24)",
	    "no test of RFC 2544 §26.2 (latency) among the profile's tests",
	    "no test of RFC 2544 §26.3 (frame loss rate) among the profile's tests",
	    "no test of RFC 2544 §26.5 (system recovery) among the profile's tests",
	    "no test of RFC 2544 §26.6 (reset) among the profile's tests", NULL } },
	{ "tests: every one of §26 but the reset",
	  "{" ALL_SIZES ", \"trial\": {" RFC_TRIAL "}, \"repetitions\": 2, \"tests\": ["
	  "{\"name\": \"lat\", \"trial\": {\"method\": \"rfc2544\", \"latency_loads\": [50]}},"
	  "{\"name\": \"loss\", \"trial\": {\"method\": \"ladder\"}},"
	  "{\"name\": \"b2b\", \"trial\": {\"method\": \"b2b\"}},"
	  "{\"name\": \"rcv\", \"trial\": {\"method\": \"outage\", \"outage_recipe\": \"recovery\","
	  " \"outage_load\": \"100%\", \"outage_at\": \"60s\", \"outage_duration\": \"90s\"}}]}",
	  { "lat: latency not measured at 100 % of the throughput, the rate RFC 2544 §26.2 asks for",
	    "lat: latency from 1 trial of 60 s per load instead of the mean of 20 trials of 120 s "
	    "(RFC 2544 §26.2)",
	    "no test of RFC 2544 §26.6 (reset) among the profile's tests", NULL } },
};

static void t_table(void)
{
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct profile *p = NULL;
		struct prof_diag d = { 0 };
		const char *t = rows[r].profile;
		if (profile_parse(t, strlen(t), "t.json", NULL, 0, &p, &d)) {
			for (size_t i = 0; i < d.n; i++)
				printf("# %s\n", d.msg[i]);
			T_FAIL("%s: the profile does not parse", rows[r].what);
			prof_diag_free(&d);
			continue;
		}
		json_t *l = json_array();
		T_EQ_INT(dev_find(p, NULL, l), 0);
		size_t n = 0;
		while (rows[r].want[n])
			n++;
		if (json_array_size(l) != n) {
			for (size_t i = 0; i < json_array_size(l); i++)
				printf("# got: %s\n", json_string_value(json_array_get(l, i)));
			T_FAIL("%s: %zu findings, expected %zu", rows[r].what, json_array_size(l), n);
		}
		for (size_t i = 0; i < n && i < json_array_size(l); i++)
			T_STREQ(json_string_value(json_array_get(l, i)), rows[r].want[i]);
		json_decref(l);
		profile_free(p);
	}
}

/* a test's name before each finding of its own, when the caller names it */
static void t_named(void)
{
	struct profile *p = NULL;
	const char *t = "{\"trial\": {\"method\": \"fixed\", \"settle\": \"2s\", \"duration\": \"5s\"}, "
			ALL_SIZES "}";
	T_EQ_INT(profile_parse(t, strlen(t), "t.json", NULL, 0, &p, NULL), 0);
	json_t *l = json_array();
	T_EQ_INT(dev_find(p, "lab", l), 0);
	T_EQ_INT(json_array_size(l), 1);
	T_STREQ(json_string_value(json_array_get(l, 0)), "lab: 5 s trials instead of 60 s (RFC 2544 §24)");
	json_decref(l);
	profile_free(p);
}

int main(void)
{
	T_RUN(t_table);
	T_RUN(t_named);
	return t_done();
}
