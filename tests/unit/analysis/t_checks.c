/* SPDX-License-Identifier: BSD-2-Clause */
/* t_checks.c — the trial consistency checks (analysis/runner/checks.c) on crafted trial records
 * shaped like what ppslab-gen, ppslab-sink and ppslab-rut print. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "tap.h"

/* One sender (stream 1) sent 100,000; the sink counted 99,990 and lost 10; the forwarder
 * read 100,000, forwarded 99,995, the firewall denied 5; two rules, every frame passed
 * both the inbound and outbound pass; everybody exited 0; 19,998 pps forwarded of the
 * 20,000 offered, read off the interfaces' counters over the load window. */
static const char *good_text =
	"{\"intended_pps\": 20000, \"duration_s\": 5,"
	" \"gen\": [{\"type\": \"summary\", \"stream\": 1, \"tx_pkts\": 100000,"
	"   \"test_pkts\": 100000, \"seq_holes\": 0, \"target_pps\": 20000,"
	"   \"rate_error_pct\": 0.01, \"shortfall_pct\": 0.0, \"rate_ok\": true,"
	"   \"burst_max\": 1, \"burst_tight_ns\": 12500, \"behind_ns\": 0,"
	"   \"behind_max_ns\": 0}],"
	" \"sink\": [{\"type\": \"summary\", \"rx_pkts\": 99990, \"lost_pkts\": 10,"
	"   \"err_pkts\": 0, \"ring_drops\": 0, \"epoch\": 5, \"stale_pkts\": 0,"
	"   \"stale_overlap_ns\": null, \"dup_pkts\": 0,"
	"   \"streams\": [{\"stream\": 1, \"rx_pkts\": 99990, \"lost_pkts\": 10,"
	"                  \"first_seq\": 0, \"expect\": 100000}]}],"
	" \"rut\": {\"rx_pkts\": 100000, \"fwd_pkts\": 99995, \"drop_pkts\": 5,"
	"   \"drops\": {\"malformed\": 0, \"not_ip4\": 0, \"fw_deny\": 5},"
	"   \"rules\": [{\"number\": 100, \"pkts\": 199990}, {\"number\": 65535, \"pkts\": 5}],"
	"   \"polling\": {\"ticks\": 2000, \"clock_skips\": 20}},"
	" \"exit\": {\"gen\": 0, \"sink\": 0, \"rut\": 0},"
	" \"offered_pps\": 20000, \"fwd_rate_pps\": 19998, \"fwd_rate_res_pps\": 3,"
	" \"fwd_rate_from\": \"interface counters, load window\"}";

static const struct check_ctx fw_ctx = {
	.rate_tol = 0.005, .firewall = true, .update_counters = true, .rules = 1,
};

static json_t *good(void)
{
	json_error_t e;
	json_t *t = json_loads(good_text, 0, &e);
	if (!t) {
		fprintf(stderr, "good_text: line %d: %s\n", e.line, e.text);
		abort();
	}
	return t;
}

/* Sets a number at a path of object keys and array indexes, e.g. "sink.0.streams.0.rx_pkts". */
static void set_at(json_t *t, const char *path, json_t *v)
{
	char buf[256], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", path);
	char *tok = strtok_r(buf, ".", &save), *next;
	json_t *cur = t;
	while ((next = strtok_r(NULL, ".", &save))) {
		cur = json_is_array(cur) ? json_array_get(cur, strtoul(tok, NULL, 10))
					 : json_object_get(cur, tok);
		tok = next;
	}
	if (json_is_array(cur))
		json_array_set_new(cur, strtoul(tok, NULL, 10), v);
	else
		json_object_set_new(cur, tok, v);
}

static void set_int(json_t *t, const char *path, long long v)
{
	set_at(t, path, json_integer(v));
}

/* The named check: 1 ok, 0 failed, -1 skipped (null), -2 not there. */
static int verdict(json_t *t, const char *name)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(t, "checks"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name)) {
			json_t *ok = json_object_get(c, "ok");
			return json_is_null(ok) ? -1 : json_is_true(ok) ? 1 : 0;
		}
	return -2;
}

static const char *detail(json_t *t, const char *name)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(t, "checks"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name))
			return json_string_value(json_object_get(c, "detail"));
	return "";
}

static size_t nflags(json_t *t)
{
	return json_array_size(json_object_get(t, "flags"));
}

static const char *flag(json_t *t, size_t i)
{
	return json_string_value(json_array_get(json_object_get(t, "flags"), i));
}

#define NCHECKS 13
static const char *const names[NCHECKS] = {
	"offered load", "sent = received + lost", "sink clean", "sinks saw the traffic",
	"forwarder adds up", "forwarder vs sink", "ruleset executed", "components ok",
	"forwarded <= offered", "fwd_pps method", "poll clock kept time", "sender kept pace",
	"only this trial's frames",
};

static void t_all_good(void)
{
	json_t *t = good();
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_U64(json_array_size(json_object_get(t, "checks")), NCHECKS);
	for (int i = 0; i < NCHECKS; i++) {
		T_STREQ(json_string_value(json_object_get(json_array_get(json_object_get(t, "checks"),
					 (size_t)i), "name")), names[i]);
		T_EQ_INT(verdict(t, names[i]), 1);
	}
	T_EQ_U64(nflags(t), 0);
	T_TRUE(strstr(detail(t, "sent = received + lost"), "stream 1: gen 100000 = sink 99990 + lost 10"));
	T_TRUE(strstr(detail(t, "forwarder adds up"), "rx 100000 = fwd 99995 + drop 5"));
	T_TRUE(strstr(detail(t, "forwarder vs sink"), "forwarded 99995 >= sinks counted 99990"));
	T_TRUE(strstr(detail(t, "ruleset executed"), "rule counters 199995 >= 100000"));
	/* running again replaces, never appends */
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_U64(json_array_size(json_object_get(t, "checks")), NCHECKS);
	json_decref(t);
}

static void t_offered_load(void)
{
	json_t *t = good();
	set_at(t, "gen.0.rate_error_pct", json_real(-3.1));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "offered load"), 0);
	T_TRUE(strstr(detail(t, "offered load"), "gen stream 1: rate error -3.100 %"));
	T_EQ_U64(nflags(t), 1);
	T_TRUE(!strncmp(flag(t, 0), "offered load: ", 14));
	/* a looser tolerance accepts it */
	struct check_ctx loose = fw_ctx;
	loose.rate_tol = 0.05;
	T_EQ_INT(checks_run(t, &loose), 0);
	T_EQ_INT(verdict(t, "offered load"), 1);
	/* on target but short of the schedule */
	set_at(t, "gen.0.rate_error_pct", json_real(0.0));
	set_at(t, "gen.0.shortfall_pct", json_real(-1.0));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "offered load"), 0);
	/* within 0.5 % either way passes; just beyond fails */
	set_at(t, "gen.0.shortfall_pct", json_real(-0.49));
	set_at(t, "gen.0.rate_error_pct", json_real(0.49));
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	set_at(t, "gen.0.rate_error_pct", json_real(-0.51));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	/* unpaced (no target): rate_error_pct and shortfall_pct null, rate_ok decides */
	set_at(t, "gen.0.rate_error_pct", json_null());
	set_at(t, "gen.0.shortfall_pct", json_null());
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "offered load"), 1);
	set_at(t, "gen.0.rate_ok", json_false());
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "offered load"), 0);
	json_decref(t);
}

static void t_sent_received_lost(void)
{
	json_t *t = good();
	set_int(t, "sink.0.streams.0.rx_pkts", 99980);
	set_int(t, "sink.0.rx_pkts", 99980);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "sent = received + lost"), 0);
	T_TRUE(strstr(detail(t, "sent = received + lost"),
		      "stream 1: gen 100000 != sink 99980 + lost 10 (unaccounted 10)"));
	T_TRUE(!strncmp(flag(t, 0), "sent = received + lost: ", 24));
	json_decref(t);

	/* more accounted than sent: stale frames of an earlier trial, or a wrong count */
	t = good();
	set_int(t, "sink.0.streams.0.lost_pkts", 25);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_TRUE(strstr(detail(t, "sent = received + lost"),
		      "gen 100000 != sink 99990 + lost 25 (excess 15)"));
	json_decref(t);

	/* the sender's holes are numbers the sink counts as lost */
	t = good();
	set_int(t, "gen.0.test_pkts", 99995);
	set_int(t, "gen.0.seq_holes", 5);
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	json_decref(t);

	/* numbers below the sink's floor (its own warm-up) were not measured */
	t = good();
	set_int(t, "sink.0.streams.0.first_seq", 500);
	set_int(t, "sink.0.streams.0.rx_pkts", 99490);
	set_int(t, "sink.0.rx_pkts", 99490);
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_TRUE(strstr(detail(t, "sent = received + lost"), "500 before the sink's floor"));
	json_decref(t);

	/* the stream at the sink is another one: nobody reported stream 1 */
	t = good();
	set_int(t, "sink.0.streams.0.stream", 2);
	T_TRUE(checks_run(t, &fw_ctx) >= 1);
	T_EQ_INT(verdict(t, "sent = received + lost"), 0);
	T_TRUE(strstr(detail(t, "sent = received + lost"), "no sink reported the stream"));
	json_decref(t);

	/* counters that went through a double still count */
	t = good();
	set_at(t, "sink.0.streams.0.rx_pkts", json_real(99990.0));
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	json_decref(t);
}

static void t_sink_errors(void)
{
	json_t *t = good();
	set_int(t, "sink.0.err_pkts", 3);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "sink clean"), 0);
	T_TRUE(strstr(detail(t, "sink clean"), "sink[0]: err_pkts 3, ring_drops 0"));
	set_int(t, "sink.0.err_pkts", 0);
	set_int(t, "sink.0.ring_drops", 2);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "sink clean"), 0);
	json_decref(t);
}

/* Everything dropped: the sink counted nothing (it lists the expected stream with all
 * lost, as it does with --expect-from). */
static json_t *all_dropped(void)
{
	json_t *t = good();
	set_int(t, "sink.0.rx_pkts", 0);
	set_int(t, "sink.0.lost_pkts", 100000);
	set_int(t, "sink.0.streams.0.rx_pkts", 0);
	set_int(t, "sink.0.streams.0.lost_pkts", 100000);
	set_int(t, "rut.fwd_pkts", 0);
	set_int(t, "rut.drop_pkts", 100000);
	set_int(t, "rut.rules.0.pkts", 100000);
	set_int(t, "rut.rules.1.pkts", 0);
	return t;
}

static void t_sink_saw_nothing(void)
{
	json_t *t = all_dropped();
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "sinks saw the traffic"), 0);
	T_EQ_INT(verdict(t, "sent = received + lost"), 1);
	T_TRUE(strstr(detail(t, "sinks saw the traffic"),
		      "sink[0]: no test frame counted while 100000 were sent"));
	/* a deny-all rule set: total loss is the expected result */
	struct check_ctx deny = fw_ctx;
	deny.expect_total_loss = true;
	T_EQ_INT(checks_run(t, &deny), 0);
	T_EQ_INT(verdict(t, "sinks saw the traffic"), -1);
	T_TRUE(!strncmp(detail(t, "sinks saw the traffic"), "skipped: ", 9));
	json_decref(t);

	/* a sink that stopped early lists no stream at all */
	t = all_dropped();
	json_object_set_new(json_array_get(json_object_get(t, "sink"), 0), "streams", json_array());
	T_EQ_INT(checks_run(t, &fw_ctx), 2);
	T_EQ_INT(verdict(t, "sinks saw the traffic"), 0);
	T_EQ_INT(verdict(t, "sent = received + lost"), 0);
	T_EQ_INT(checks_run(t, &(struct check_ctx){ .firewall = true, .update_counters = true,
						    .rules = 1, .expect_total_loss = true }), 0);
	T_EQ_INT(verdict(t, "sent = received + lost"), 1);
	json_decref(t);

	/* nothing sent: nothing to see */
	t = all_dropped();
	set_int(t, "gen.0.test_pkts", 0);
	set_int(t, "gen.0.tx_pkts", 0);
	set_int(t, "sink.0.streams.0.lost_pkts", 0);
	T_EQ_INT(verdict((checks_run(t, &fw_ctx), t), "sinks saw the traffic"), 1);
	json_decref(t);
}

/* Two directions: stream 1 to sink 0, stream 2 to sink 1; sink 1 got nothing. */
static void t_two_sinks(void)
{
	json_t *t = good(), *g2 = json_deep_copy(json_array_get(json_object_get(t, "gen"), 0));
	json_t *s2 = json_deep_copy(json_array_get(json_object_get(t, "sink"), 0));
	json_object_set_new(g2, "stream", json_integer(2));
	json_array_append_new(json_object_get(t, "gen"), g2);
	json_array_append_new(json_object_get(t, "sink"), s2);
	set_int(t, "sink.1.streams.0.stream", 2);
	set_int(t, "rut.rx_pkts", 200000);
	set_int(t, "rut.fwd_pkts", 199990);
	set_int(t, "rut.drop_pkts", 10);
	set_int(t, "rut.rules.0.pkts", 400000);
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_TRUE(strstr(detail(t, "sent = received + lost"), "stream 2: gen 100000 = sink 99990"));
	set_int(t, "sink.1.rx_pkts", 0);
	set_int(t, "sink.1.streams.0.rx_pkts", 0);
	set_int(t, "sink.1.streams.0.lost_pkts", 100000);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "sinks saw the traffic"), 0);
	T_TRUE(strstr(detail(t, "sinks saw the traffic"), "sink[0]: 99990 test frames of 100000 sent"));
	T_TRUE(strstr(detail(t, "sinks saw the traffic"), "sink[1]: no test frame counted while 100000"));
	json_decref(t);
}

static void t_forwarder(void)
{
	json_t *t = good();
	set_int(t, "rut.drop_pkts", 4);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "forwarder adds up"), 0);
	T_TRUE(strstr(detail(t, "forwarder adds up"), "rx 100000 != fwd 99995 + drop 4"));
	json_decref(t);

	/* the sinks counted more than was forwarded */
	t = good();
	set_int(t, "rut.fwd_pkts", 99000);
	set_int(t, "rut.drop_pkts", 1000);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "forwarder vs sink"), 0);
	T_EQ_INT(verdict(t, "forwarder adds up"), 1);
	T_TRUE(strstr(detail(t, "forwarder vs sink"), "forwarded 99000 < sinks counted 99990"));
	json_decref(t);
}

static void t_ruleset(void)
{
	/* counters short of what the forwarder read: some frames matched no rule */
	json_t *t = good();
	set_int(t, "rut.rules.0.pkts", 49000);
	set_int(t, "rut.rules.1.pkts", 1000);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "ruleset executed"), 0);
	T_TRUE(strstr(detail(t, "ruleset executed"), "rule counters 50000 < 100000 frames evaluated"));
	/* frames dropped before the firewall are not owed a rule */
	set_at(t, "rut.drops.malformed", json_integer(30000));
	set_at(t, "rut.drops.not_ip4", json_integer(20000));
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "ruleset executed"), 1);
	/* firewall off, or no rules besides 65535: not applicable */
	T_EQ_INT(checks_run(t, &(struct check_ctx){ .firewall = false }), 0);
	T_EQ_INT(verdict(t, "ruleset executed"), -1);
	T_EQ_INT(checks_run(t, &(struct check_ctx){ .firewall = true, .update_counters = true }), 0);
	T_EQ_INT(verdict(t, "ruleset executed"), -1);
	json_decref(t);

	/* update_counters = 0: the counters must not move */
	struct check_ctx noupd = fw_ctx;
	noupd.update_counters = false;
	t = good();
	T_EQ_INT(checks_run(t, &noupd), 1);
	T_EQ_INT(verdict(t, "ruleset executed"), 0);
	T_TRUE(strstr(detail(t, "ruleset executed"), "update_counters = 0 but rule counters moved by 199995"));
	T_TRUE(strstr(detail(t, "ruleset executed"), "rule 100: 199990"));
	T_TRUE(!strncmp(flag(t, 0), "ruleset executed: ", 18));
	set_int(t, "rut.rules.0.pkts", 0);
	set_int(t, "rut.rules.1.pkts", 0);
	T_EQ_INT(checks_run(t, &noupd), 0);
	T_EQ_INT(verdict(t, "ruleset executed"), 1);
	json_decref(t);
}

static void t_exits(void)
{
	json_t *t = good();
	set_int(t, "exit.rut", 1);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "components ok"), 0);
	T_TRUE(strstr(detail(t, "components ok"), "rut 1"));
	set_int(t, "exit.rut", 0);
	set_at(t, "exit.sink", json_string("timeout"));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_TRUE(strstr(detail(t, "components ok"), "sink timeout"));
	set_int(t, "exit.sink", 143);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_TRUE(strstr(detail(t, "components ok"), "sink 143 (signal 15)"));
	json_decref(t);
}

/* 9: a late tick fires once, so deadlines the host made the thread miss are rounds not
 * run; past 1 % the trial is flagged with the numbers */
static void t_poll_clock(void)
{
	json_t *t = good();
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_TRUE(strstr(detail(t, "poll clock kept time"), "20 of 2020 deadlines passed without a tick"));
	set_int(t, "rut.polling.clock_skips", 90);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "poll clock kept time"), 0);
	T_TRUE(!strncmp(flag(t, 0), "poll clock kept time: 90 of 2090 deadlines", 42));
	/* lost polls the forwarder could not tell from the host's: past 0.1 % of the
	 * ticks, flagged with the numbers */
	set_int(t, "rut.polling.clock_skips", 20);
	set_int(t, "rut.polling.lost_polls", 30);
	set_int(t, "rut.polling.unsure_polls", 2);
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_TRUE(strstr(detail(t, "poll clock kept time"),
		      "2 of 30 lost_polls in 2000 ticks (0.100 % <= 0.1 %) came in rounds the "
		      "host may have slowed: told apart"));
	set_int(t, "rut.polling.unsure_polls", 3);
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "poll clock kept time"), 0);
	T_TRUE(strstr(flag(t, 0), "3 of 30 lost_polls in 2000 ticks (0.150 % > 0.1 %) came "
		      "in rounds the host may have slowed: lost_polls and 7/8 cuts may be the "
		      "host's"));
	set_int(t, "rut.polling.unsure_polls", 0);
	/* intr and busy modes have no ticks */
	set_int(t, "rut.polling.clock_skips", 0);
	set_int(t, "rut.polling.ticks", 0);
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "poll clock kept time"), -1);
	json_decref(t);
}

/* a sender that caught up after a stall sent a burst: the trial is not the router's */
static void t_pace(void)
{
	json_t *t = good();
	char why[64];
	T_EQ_INT(checks_run(t, NULL), 0);
	T_EQ_INT(verdict(t, "sender kept pace"), 1);
	T_TRUE(!check_pace_failed(t, why, sizeof(why)));
	T_TRUE(strstr(detail(t, "sender kept pace"), "gen stream 1: largest burst 1 frames, "
		      "behind schedule 0.000 ms (longest 0.000 ms); tolerance 64 frames, "
		      "50.000 ms behind (0.01 of 5 s)"));
	/* 64 frames pass, 65 do not */
	set_int(t, "gen.0.burst_max", 64);
	T_EQ_INT(checks_run(t, NULL), 0);
	set_int(t, "gen.0.burst_max", 65);
	T_EQ_INT(checks_run(t, NULL), 1);
	T_EQ_INT(verdict(t, "sender kept pace"), 0);
	T_TRUE(check_pace_failed(t, why, sizeof(why)));
	T_STREQ(why, "burst");
	T_TRUE(!strncmp(flag(t, 0), "sender kept pace: gen stream 1: largest burst 65 frames "
			"(too large)", 66));
	/* behind for more than 1 % of 5 s, with a tolerance of its own */
	set_int(t, "gen.0.burst_max", 3);
	set_int(t, "gen.0.behind_ns", 50000001);
	set_int(t, "gen.0.behind_max_ns", 40000000);
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(check_pace_failed(t, why, sizeof(why)));
	T_STREQ(why, "behind");
	struct check_ctx c = { .max_burst = 2, .max_behind = 0.02 };
	T_EQ_INT(checks_run(t, &c), 1);
	T_TRUE(check_pace_failed(t, why, sizeof(why)));
	T_STREQ(why, "burst");
	/* what it did to the answer: a burst the router withstood (nothing lost) is no
	 * reason to doubt it, nor time behind when frames were lost anyway (less load, and
	 * still loss) */
	set_int(t, "gen.0.burst_max", 500);
	set_int(t, "gen.0.behind_ns", 0);
	set_int(t, "tx_frames", 100000);
	set_int(t, "rx_frames", 100000);
	T_EQ_INT(checks_run(t, NULL), 0);
	T_EQ_INT(verdict(t, "sender kept pace"), 1);
	T_TRUE(strstr(detail(t, "sender kept pace"), "a burst, but nothing was lost"));
	set_int(t, "rx_frames", 99990);
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(check_pace_failed(t, why, sizeof(why)));
	T_STREQ(why, "burst");
	T_TRUE(strstr(detail(t, "sender kept pace"), "not the traffic asked for: a burst with loss"));
	set_int(t, "gen.0.burst_max", 3);
	set_int(t, "gen.0.behind_ns", 60000000);
	T_EQ_INT(checks_run(t, NULL), 0);
	T_TRUE(strstr(detail(t, "sender kept pace"), "behind, but frames were lost"));
	set_int(t, "rx_frames", 100000);
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(check_pace_failed(t, why, sizeof(why)));
	T_STREQ(why, "behind");
	/* a sender that skipped after a stall kept its gaps: a window without the stall
	 * saw its nominal rate, more than its average */
	set_int(t, "fwd_rate_pps", 20050);
	set_at(t, "offered_pps", json_real(19500));
	set_at(t, "gen.0.pps", json_real(19500));
	set_at(t, "gen.0.nominal_pps", json_real(20000));
	checks_run(t, NULL);
	T_EQ_INT(verdict(t, "forwarded <= offered"), 0);
	set_int(t, "gen.0.skipped", 110);
	checks_run(t, NULL);
	T_EQ_INT(verdict(t, "forwarded <= offered"), 1);
	T_TRUE(strstr(detail(t, "forwarded <= offered"), "nominal rate between stalls (+500 pps)"));
	/* an unpaced sender (as fast as possible) has no schedule to keep */
	set_at(t, "gen.0.burst_tight_ns", json_null());
	T_EQ_INT(checks_run(t, NULL), 0);
	T_EQ_INT(verdict(t, "sender kept pace"), -1);
	json_decref(t);
}

/* An earlier trial's frames the sink counted apart: before this trial's load, or during
 * it without loss, they change nothing; during it with loss the trial is spoiled (the
 * search repeats it); a stream numbered beyond what was sent fails; no epoch: skipped. */
static void t_stale(void)
{
	json_t *t = good();
	set_int(t, "tx_frames", 100000);
	set_int(t, "rx_frames", 99990);
	T_EQ_INT(checks_run(t, NULL), 0);
	T_EQ_INT(verdict(t, CHECK_STALE), 1);
	T_TRUE(!check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "sink[0]: epoch 5, 0 frames of an earlier trial not "
		      "counted; 0 duplicates of its own not counted"));
	/* all delivered before this trial's first frame was sent */
	set_int(t, "sink.0.stale_pkts", 700);
	set_int(t, "sink.0.stale_overlap_ns", -2500000);
	set_int(t, "sink.0.dup_pkts", 3);
	T_EQ_INT(checks_run(t, NULL), 0);
	T_TRUE(!check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "700 frames of an earlier trial not counted (the "
		      "last 2.500 ms before this trial's first frame was sent); 3 duplicates"));
	/* the last one 1 us after it, 10 of them after it, and 10 lost: spoiled (each
	 * may have cost one of this trial's) */
	set_int(t, "sink.0.stale_overlap_ns", 1000);
	set_int(t, "sink.0.stale_load_pkts", 10);
	set_at(t, "sink.0.stale_load_truncated", json_false());
	T_EQ_INT(checks_run(t, NULL), 1);
	T_EQ_INT(verdict(t, CHECK_STALE), 0);
	T_TRUE(check_stale_spoiled(t));
	T_TRUE(strstr(flag(t, 0), "only this trial's frames: ") == flag(t, 0));
	T_TRUE(strstr(detail(t, CHECK_STALE), "spoiled: frames were lost while the router still "
		      "forwarded an earlier trial's"));
	T_TRUE(strstr(detail(t, CHECK_STALE), "(the last 0.001 ms after this trial's first frame "
		      "was sent, 10 of them after it)"));
	/* 11 lost, 10 after it: a loss without them too */
	set_int(t, "rx_frames", 99989);
	T_EQ_INT(checks_run(t, NULL), 0);
	T_TRUE(!check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "10 of them overlapped this load, fewer than the 11 "
		      "frames lost: a loss without them too"));
	/* ... unless the sink remembered only its last ones, or could not count them */
	set_at(t, "sink.0.stale_load_truncated", json_true());
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "10 or more of them after it"));
	set_at(t, "sink.0.stale_load_truncated", json_false());
	set_at(t, "sink.0.stale_load_pkts", json_null());
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(check_stale_spoiled(t));
	set_int(t, "sink.0.stale_load_pkts", 10);
	set_int(t, "rx_frames", 100000);            /* nothing lost: the router kept up */
	T_EQ_INT(checks_run(t, NULL), 0);
	T_TRUE(!check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "nothing was lost: the router kept up with both"));
	json_object_del(t, "rx_frames");            /* the loss unknown: spoiled */
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(check_stale_spoiled(t));
	set_int(t, "rx_frames", 99990);             /* overlap unknown (no common clock) */
	set_at(t, "sink.0.stale_overlap_ns", json_null());
	T_EQ_INT(checks_run(t, NULL), 0);
	T_TRUE(!check_stale_spoiled(t));
	/* unknown because none of this trial's frames reached the sink, only stale ones:
	 * the loss may be theirs, and nothing says it is not (flagged, not repeated) */
	set_int(t, "rx_frames", 0);
	set_int(t, "sink.0.rx_pkts", 0);
	T_TRUE(checks_run(t, NULL) >= 1);
	T_EQ_INT(verdict(t, CHECK_STALE), 0);
	T_TRUE(!check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "sink[0]: none of this trial's frames arrived, only "
		      "an earlier trial's: whether they took the router's time during this load "
		      "cannot be said"));
	set_int(t, "sink.0.rx_pkts", 99990);
	set_int(t, "rx_frames", 99990);
	T_EQ_INT(checks_run(t, NULL), 0);
	set_int(t, "rx_frames", 100000);
	set_at(t, "sink.0.streams.0.beyond_expect", json_true());   /* the books are wrong */
	T_EQ_INT(checks_run(t, NULL), 1);
	T_TRUE(!check_stale_spoiled(t));
	T_TRUE(strstr(detail(t, CHECK_STALE), "stream 1: numbers at or beyond what its sender sent"));
	set_at(t, "sink.0.epoch", json_null());    /* a sink not told the trial's epoch */
	T_EQ_INT(checks_run(t, NULL), 0);
	T_EQ_INT(verdict(t, CHECK_STALE), -1);
	json_decref(t);
}

static void t_missing_inputs(void)
{
	/* an empty record: every check skipped, none failed */
	json_t *t = json_object();
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_U64(json_array_size(json_object_get(t, "checks")), NCHECKS);
	for (int i = 0; i < NCHECKS; i++) {
		T_EQ_INT(verdict(t, names[i]), -1);
		T_TRUE(!strncmp(detail(t, names[i]), "skipped: ", 9));
	}
	T_EQ_U64(nflags(t), 0);
	json_decref(t);

	/* an external router without a read hook: no "rut" */
	t = good();
	json_object_del(t, "rut");
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "forwarder adds up"), -1);
	T_EQ_INT(verdict(t, "forwarder vs sink"), -1);
	T_EQ_INT(verdict(t, "ruleset executed"), -1);
	T_EQ_INT(verdict(t, "sent = received + lost"), 1);
	json_decref(t);

	/* a forwarder record without rule counters or drop counts */
	t = good();
	json_object_del(json_object_get(t, "rut"), "rules");
	json_object_del(json_object_get(t, "rut"), "drop_pkts");
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "forwarder adds up"), -1);
	T_EQ_INT(verdict(t, "ruleset executed"), -1);
	T_EQ_INT(verdict(t, "forwarder vs sink"), 1);
	json_decref(t);

	/* no sink summaries (a sink that died before printing; check 8 says so) */
	t = good();
	json_object_set_new(t, "sink", json_array());
	set_int(t, "exit.sink", 1);
	T_EQ_INT(checks_run(t, NULL), 1);
	T_EQ_INT(verdict(t, "sent = received + lost"), -1);
	T_EQ_INT(verdict(t, "sink clean"), -1);
	T_EQ_INT(verdict(t, "sinks saw the traffic"), -1);
	T_EQ_INT(verdict(t, "components ok"), 0);
	T_EQ_INT(verdict(t, "ruleset executed"), -1);   /* ctx NULL: firewall off */
	json_decref(t);

	T_EQ_INT(checks_run(NULL, &fw_ctx), -EINVAL);
	json_t *arr = json_array();
	T_EQ_INT(checks_run(arr, &fw_ctx), -EINVAL);
	json_decref(arr);
}

/* a router cannot forward more than it is offered: beyond the pacing tolerance and
 * the rate's resolution, the trial is flagged */
static void t_fwd_above_offered(void)
{
	json_t *t = good();
	/* 50,721 pps at 50,000 offered (the case that went unflagged) */
	set_at(t, "offered_pps", json_real(50000));
	set_at(t, "fwd_rate_pps", json_real(50721));
	set_at(t, "fwd_rate_res_pps", json_real(4));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "forwarded <= offered"), 0);
	T_TRUE(strstr(detail(t, "forwarded <= offered"), "forwarded 50721 pps > offered 50000 pps"));
	T_TRUE(!strncmp(flag(t, 0), "forwarded <= offered: ", 22));
	/* within 0.5 % pacing + resolution: fine */
	set_at(t, "fwd_rate_pps", json_real(50200));
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "forwarded <= offered"), 1);
	/* the resolution counts: a coarse window widens the tolerance */
	set_at(t, "fwd_rate_pps", json_real(50400));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	set_at(t, "fwd_rate_res_pps", json_real(200));
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	/* no offered load: skipped */
	json_object_del(t, "offered_pps");
	T_EQ_INT(checks_run(t, &fw_ctx), 0);
	T_EQ_INT(verdict(t, "forwarded <= offered"), -1);
	json_decref(t);
}

/* the fallback from the load window's counters to test frames / sender's time is a
 * flag with its reason */
static void t_method_fallback(void)
{
	json_t *t = good();
	set_at(t, "fwd_rate_from", json_string(RES_FWD_FRAMES));
	set_at(t, "fwd_rate_fallback", json_string("the sink's port udp:198.19.0.2:9 is a UDP "
						   "socket: no interface counters to read"));
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_EQ_INT(verdict(t, "fwd_pps method"), 0);
	T_TRUE(strstr(detail(t, "fwd_pps method"), "test frames / sender's time, not interface "
		      "counters, load window: the sink's port udp:"));
	T_TRUE(!strncmp(flag(t, 0), "fwd_pps method: test frames", 27));
	json_object_del(t, "fwd_rate_fallback");
	T_EQ_INT(checks_run(t, &fw_ctx), 1);
	T_TRUE(strstr(detail(t, "fwd_pps method"), "no reason recorded"));
	/* a burst of the b2b method has no load window to read: skipped, not a flag */
	struct check_ctx bc = fw_ctx;
	bc.burst = true;
	T_EQ_INT(checks_run(t, &bc), 0);
	T_EQ_INT(verdict(t, "fwd_pps method"), -1);
	T_TRUE(strstr(detail(t, "fwd_pps method"), "a burst (b2b)"));
	json_decref(t);
}

/* an external router: its read hook's counters feed checks 5-7; without them the skip
 * says why in the router's terms, never "firewall off" when it is on */
static void t_external(void)
{
	struct check_ctx ext = fw_ctx;
	ext.router = CHECK_EXTERNAL;
	json_t *t = good();
	json_object_set_new(json_object_get(t, "rut"), "output", json_object());
	T_EQ_INT(checks_run(t, &ext), 0);
	T_EQ_INT(verdict(t, "forwarder adds up"), 1);
	T_EQ_INT(verdict(t, "forwarder vs sink"), 1);
	T_EQ_INT(verdict(t, "ruleset executed"), 1);
	set_int(t, "rut.drop_pkts", 4);
	T_EQ_INT(checks_run(t, &ext), 1);
	T_EQ_INT(verdict(t, "forwarder adds up"), 0);
	json_decref(t);

	/* output that is no JSON object: the record says so, the checks repeat it */
	t = good();
	json_t *rut = json_pack("{s:i,s:s,s:s}", "status", 0, "output", "00100 0 0 allow ip",
				"counters_note", "the read hook printed no JSON object before and "
				"after the trial: no router counters for the checks");
	json_object_set_new(t, "rut", rut);
	T_EQ_INT(checks_run(t, &ext), 0);
	T_EQ_INT(verdict(t, "forwarder adds up"), -1);
	T_TRUE(strstr(detail(t, "forwarder adds up"), "skipped: the read hook printed no JSON"));
	T_EQ_INT(verdict(t, "ruleset executed"), -1);
	T_TRUE(strstr(detail(t, "ruleset executed"), "skipped: the read hook printed no JSON"));
	T_TRUE(!strstr(detail(t, "ruleset executed"), "firewall off"));
	/* no read hook at all */
	json_object_del(t, "rut");
	T_EQ_INT(checks_run(t, &ext), 0);
	T_TRUE(strstr(detail(t, "forwarder vs sink"), "skipped: the external router has no read_hook"));
	/* JSON without rule counters */
	json_object_set_new(t, "rut", json_pack("{s:i,s:i,s:i}", "rx_pkts", 100000, "fwd_pkts",
						99995, "drop_pkts", 5));
	T_EQ_INT(checks_run(t, &ext), 0);
	T_EQ_INT(verdict(t, "forwarder adds up"), 1);
	T_TRUE(strstr(detail(t, "ruleset executed"), "skipped: no rule counters from the external router"));
	/* the firewall really off: said so, with the reason's words */
	ext.firewall = false;
	T_EQ_INT(checks_run(t, &ext), 0);
	T_TRUE(strstr(detail(t, "ruleset executed"), "skipped: the firewall is off in this cell"));
	/* no router at all */
	ext.router = CHECK_NONE;
	T_EQ_INT(checks_run(t, &ext), 0);
	T_TRUE(strstr(detail(t, "ruleset executed"), "skipped: no router"));
	json_decref(t);
}

/* one-way delays across two clocks are published only when the clocks' bound is small
 * against the delay */
static void t_latency_withheld(void)
{
	char why[400];
	/* one clock (bound 0): kept */
	T_TRUE(!checks_latency_withheld(0, 40000, 0.1, true, why, sizeof(why)));
	/* 3 ms of NTP offset against a 40 us delay: withheld, with both numbers */
	T_TRUE(checks_latency_withheld(3e6, 40000, 0.1, true, why, sizeof(why)));
	T_TRUE(strstr(why, "up to 3000 us") && strstr(why, "10 %") && strstr(why, "40 us"));
	/* 3 us against 40 us: within 10 % */
	T_TRUE(!checks_latency_withheld(3000, 40000, 0.1, true, why, sizeof(why)));
	/* a looser fraction from the profile */
	T_TRUE(!checks_latency_withheld(3e6, 40000, 100, true, why, sizeof(why)));
	/* unknown bound: withheld */
	T_TRUE(checks_latency_withheld(NAN, 40000, 0.1, true, why, sizeof(why)));
	T_TRUE(strstr(why, "could not be compared") != NULL);
	/* the sink saw impossible delays: withheld whatever the bound */
	T_TRUE(checks_latency_withheld(0, 40000, 0.1, false, why, sizeof(why)));
	T_TRUE(strstr(why, "negative or implausible") != NULL);
	/* no latency measured: nothing to withhold */
	T_TRUE(!checks_latency_withheld(NAN, NAN, 0.1, true, why, sizeof(why)));
}

int main(void)
{
	T_RUN(t_all_good);
	T_RUN(t_offered_load);
	T_RUN(t_sent_received_lost);
	T_RUN(t_sink_errors);
	T_RUN(t_sink_saw_nothing);
	T_RUN(t_two_sinks);
	T_RUN(t_forwarder);
	T_RUN(t_ruleset);
	T_RUN(t_exits);
	T_RUN(t_poll_clock);
	T_RUN(t_pace);
	T_RUN(t_stale);
	T_RUN(t_missing_inputs);
	T_RUN(t_fwd_above_offered);
	T_RUN(t_method_fallback);
	T_RUN(t_external);
	T_RUN(t_latency_withheld);
	return t_done();
}
