/* SPDX-License-Identifier: BSD-2-Clause */
/* t_cell.c — a cell resolved once into C values (cell.h): the swept value first, then the
 * profile's fixed value, then the registry's default; rates as pps (NAN for "max"),
 * booleans and enums typed, firewall "auto" resolved from the rules, the JSON values
 * kept as the results write them, router axes by name; and the plan giving every case
 * its own. */
#include <math.h>
#include <string.h>

#include "cell.h"
#include "plan.h"
#include "profile.h"
#include "tap.h"

static struct profile *prof(const char *text)
{
	struct profile *p = NULL;
	struct prof_diag d = { 0 };
	if (profile_parse(text, strlen(text), "cell.json", NULL, 0, &p, &d))
		T_FAIL("%s", d.n ? d.msg[0] : "profile_parse failed");
	prof_diag_free(&d);
	return p;
}

static void t_types(void)
{
	struct profile *p = prof("{\"matrix\": {\"offered\": [\"1.5Mpps\", \"max\", 2000]},"
				 " \"params\": {\"idle_poll\": true, \"kernel\": \"freebsd-7\","
				 " \"hz\": 2000, \"direction\": \"bi\", \"firewall\": false,"
				 " \"rules\": 7, \"rules_kind\": \"count\", \"counters\": \"shared\","
				 " \"size\": 1518, \"flows\": 16, \"mode\": \"busy\","
				 " \"ip_version\": 6}}");
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncases, 3);
	const struct cell *c = &pl.cases[0].values;
	T_NEAR(c->offered_pps, 1.5e6, 0);
	T_STREQ(json_string_value(cell_value(c, "offered")), "1.5Mpps");   /* as written */
	T_TRUE(isnan(pl.cases[1].values.offered_pps));                       /* "max" */
	T_NEAR(pl.cases[2].values.offered_pps, 2000, 0);
	T_TRUE(c->idle_poll && c->bi && !c->firewall && c->update_counters);
	T_STREQ(c->kernel, "freebsd-7");
	T_STREQ(c->mode, "busy");
	T_STREQ(c->rules_kind, "count");
	T_STREQ(c->counters, "shared");
	T_EQ_INT(c->hz, 2000);
	T_EQ_INT(c->rules, 7);
	T_TRUE(!c->rules_file);
	T_EQ_INT(c->size, 1518);
	T_EQ_INT(c->flows, 16);
	T_EQ_INT(c->ip_version, 6);
	T_EQ_INT(c->pollhz, 2000);   /* a default */
	/* the json beside the values: what the results and the hooks see */
	T_STREQ(json_string_value(cell_value(c, "firewall")), "off");
	T_EQ_INT(json_integer_value(cell_value(c, "idle_poll")), 1);
	for (size_t i = 0; i < AX_COUNT; i++)
		T_TRUE(c->v[i] == cell_value(c, axis_defs[i].name));
	/* the names are the registry's own (static), not the profile's strings */
	T_TRUE(c->kernel == axis_kernel_names[3]);
	plan_free(&pl);
	profile_free(p);
}

static void t_firewall(void)
{
	static const struct {
		const char *fw;
		int rules;
		bool on;
	} cases[] = { { "auto", 0, false }, { "auto", 1, true }, { "on", 0, true },
		      { "off", 5, false } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[200];
		snprintf(text, sizeof(text), "{\"params\": {\"firewall\": \"%s\", \"rules\": %d}}",
			 cases[i].fw, cases[i].rules);
		struct profile *p = prof(text);
		if (!p)
			continue;
		struct cell c;
		prof_cell(p, NULL, &c);
		T_EQ_INT(c.firewall, cases[i].on);
		profile_free(p);
	}
}

/* a swept value wins over a fixed one; a router axis is found by name, in params only */
static void t_precedence(void)
{
	struct profile *p = prof("{\"matrix\": {\"pollhz\": [500]}, \"params\": {\"burst_max\": 40},"
				 " \"router\": {\"kind\": \"external\", \"hooks\": {\"pollhz\": [\"x\","
				 " \"{pollhz}\"], \"burst_max\": [\"y\", \"{burst_max}\"]}, \"axes\": [{\"name\":"
				 " \"os\", \"values\": [\"a\", \"b\"], \"set\": [\"z\", \"{value}\"]}]}}");
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncases, 2);
	const struct cell *c = &pl.cases[1].values;
	T_EQ_INT(c->pollhz, 500);
	T_EQ_INT(c->burst_max, 40);
	T_STREQ(json_string_value(cell_value(c, "os")), "b");
	T_TRUE(cell_value(c, "nosuch") == NULL);
	struct cell f;
	prof_cell(p, NULL, &f);
	T_EQ_INT(f.pollhz, 2000);   /* without the cell: the default */
	T_EQ_INT(f.burst_max, 40);
	T_TRUE(cell_value(&f, "os") == NULL);
	plan_free(&pl);
	profile_free(p);
}

/* size "imix": ppslab-gen's mix, kept as the word; a size is still a number */
static void t_imix(void)
{
	struct profile *p = prof("{\"matrix\": {\"size\": [\"imix\", 128]}}");
	struct plan pl;
	if (!p)
		return;
	T_EQ_INT(plan_make(p, &pl), 0);
	T_EQ_INT(pl.ncases, 2);
	T_TRUE(pl.cases[0].values.imix);
	T_STREQ(json_string_value(cell_value(&pl.cases[0].values, "size")), "imix");
	T_TRUE(!pl.cases[1].values.imix);
	T_EQ_INT(pl.cases[1].values.size, 128);
	plan_free(&pl);
	profile_free(p);
}

int main(void)
{
	T_RUN(t_types);
	T_RUN(t_imix);
	T_RUN(t_firewall);
	T_RUN(t_precedence);
	return t_done();
}
