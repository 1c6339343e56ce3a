/* SPDX-License-Identifier: BSD-2-Clause */
/* dut_count.c — the router's counters over a trial (see dut.h): after − before for
 * every counter of ppslab-rut's stats or of an external router's read hook, with the
 * rules that matched nothing left out. dut_trial_record() is called by trial.c. */
#include "dut_impl.h"

#include <stdio.h>
#include <string.h>

#include "jout.h"
#include "results.h"

/* counters: subtracted over an interval; everything else is a gauge or a setting */
static const char *const counters[] = {
	"t_ns", "rx_pkts", "fwd_pkts", "drop_pkts", "tx_pkts", "rx_bytes", "tx_bytes",
	"kernel_drops", "rx_bursts", "drop_txfull", "pkts", "bytes", "denied_pkts",
	"log_lines", "log_dropped", "short_ticks", "lost_polls", "suspect", "stalled",
	"ticks", "rounds", "chunks", "status_checks", "catchup_rounds", "idle_passes",
	"polled_frames", "idle_frames", "ticks_in_work", "clock_skips", "ticks_deferred",
	"ticks_after_round", "stolen_ns", "host_delays", "host_ns", "unsure_polls", "cpu_s",
	"cpu_user_s", "cpu_sys_s", "fwd_cpu_s", "tx_errors", "link_downs", "drop_link_down",
	"drop_port_gone", NULL,
};

static bool is_counter(const char *key)
{
	for (int i = 0; counters[i]; i++)
		if (!strcmp(key, counters[i]))
			return true;
	return false;
}

/* A rule's key among those of its array: "NUMBER#K" for the K-th rule numbered NUMBER
 * (ipfw allows several rules with one number; they keep their order). seen counts the
 * numbers met so far. False when the element has no integer number. */
static bool rule_key(json_t *seen, const json_t *num, char *key, size_t len)
{
	if (!json_is_integer(num))
		return false;
	char n[24];
	snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(num));
	json_t *c = json_object_get(seen, n);
	json_int_t k = c ? json_integer_value(c) + 1 : 0;
	json_object_set_new(seen, n, json_integer(k));
	snprintf(key, len, "%s#%lld", n, (long long)k);
	return true;
}

/* For an array of rules (elements with a "number"), a's rules by rule_key(); NULL for
 * any other array. A hash, not a search per rule: at 100,000 rules a search made each
 * trial's count take minutes. */
static json_t *rule_index(const json_t *a, const json_t *b)
{
	if (!json_is_object(json_array_get(b, 0)) ||
	    !json_object_get(json_array_get(b, 0), "number"))
		return NULL;
	json_t *idx = json_object(), *seen_a = json_object(), *x;
	size_t j;
	char key[48];
	json_array_foreach(jmut(a), j, x)
		if (rule_key(seen_a, json_object_get(x, "number"), key, sizeof(key)))
			json_object_set(idx, key, x);
	json_decref(seen_a);
	return idx;
}

static json_t *delta(const json_t *a, const json_t *b, bool all_counters)
{
	if (json_is_object(b)) {
		json_t *o = json_object();
		const char *k;
		json_t *bv;
		json_object_foreach(jmut(b), k, bv) {
			const json_t *av = json_is_object(a) ? json_object_get(a, k) : NULL;
			bool sub = all_counters || is_counter(k);
			/* drops{} and denied_by_rule{} hold only counters, keyed by cause/rule */
			bool inner = !strcmp(k, "drops") || !strcmp(k, "denied_by_rule");
			if (json_is_object(bv) || json_is_array(bv))
				json_object_set_new(o, k, delta(av, bv, inner));
			else if (sub && json_is_integer(bv) && json_is_integer(av))
				json_object_set_new(o, k, json_integer(json_integer_value(bv) -
								       json_integer_value(av)));
			else if (sub && json_is_number(bv) && json_is_number(av))
				json_object_set_new(o, k, json_real(json_number_value(bv) -
								    json_number_value(av)));
			else
				json_object_set_new(o, k, json_deep_copy(bv));
		}
		return o;
	}
	if (json_is_array(b)) {
		/* rules[] and ports[]: the same element when the rule number (or index) agrees */
		json_t *arr = json_array(), *idx = rule_index(a, b);
		json_t *seen_b = idx ? json_object() : NULL;
		size_t i;
		json_t *bv;
		json_array_foreach(jmut(b), i, bv) {
			const json_t *av = json_is_array(a) ? json_array_get(a, i) : NULL;
			char key[48];
			/* a rule: the one with that number, wherever it is */
			if (idx && rule_key(seen_b, json_object_get(bv, "number"), key, sizeof(key)))
				av = json_object_get(idx, key);
			json_array_append_new(arr, av ? delta(av, bv, all_counters) : json_deep_copy(bv));
		}
		json_decref(idx);
		json_decref(seen_b);
		return arr;
	}
	return json_deep_copy(b);
}

json_t *dut_delta(const json_t *a, const json_t *b)
{
	return b ? delta(a, b, false) : NULL;
}

/* Rules that matched nothing during the trial are left out of the record (a 20,000-rule
 * set would otherwise write 20,000 zeros per trial); rules_idle says how many. */
static void drop_idle_rules(json_t *rec)
{
	json_t *rules = json_object_get(rec, "rules");
	if (!json_is_array(rules))
		return;
	json_t *kept = json_array();
	size_t i, idle = 0;
	json_t *r;
	json_array_foreach(rules, i, r) {
		if (json_integer_value(json_object_get(r, "pkts")) ||
		    json_integer_value(json_object_get(r, "bytes")))
			json_array_append(kept, r);
		else
			idle++;
	}
	json_object_set_new(rec, "rules", kept);
	json_object_set_new(rec, "rules_idle", json_integer((json_int_t)idle));
}

/* The read hook's counters over the trial (its output after − before, both JSON
 * objects in the schema of dut.h), put into rec beside "output" so the checks read them
 * as they read ppslab-rut's. A counter that went backwards (reset, wrapped) is left
 * out and said so in "counters_note". */
static void ext_counters(json_t *rec, const json_t *b, const json_t *a, json_int_t sb,
			 json_int_t sa)
{
	static const char *const keys[] = { "rx_pkts", "fwd_pkts", "drop_pkts", "tx_pkts",
					    "drops", "rules", NULL };
	if (!json_is_object(a) || !json_is_object(b) || sa != 0 || sb != 0) {
		json_object_set_new(rec, "counters_note", json_string(
			!json_is_object(a) || !json_is_object(b)
			? "the read hook printed no JSON object before and after the trial: no "
			  "router counters for the checks"
			: "the read hook failed before or after the trial: no router counters"));
		return;
	}
	json_t *dl = dut_delta(b, a);
	char note[256] = "";
	for (int i = 0; keys[i]; i++) {
		json_t *v = json_object_get(dl, keys[i]);
		if (!v || !json_object_get(b, keys[i]))
			continue;
		if (json_is_integer(v) && json_integer_value(v) < 0) {
			size_t l = strlen(note);
			snprintf(note + l, sizeof(note) - l, "%s%s went backwards", l ? ", " : "",
				 keys[i]);
			continue;
		}
		json_object_set(rec, keys[i], v);
	}
	json_decref(dl);
	if (note[0])
		json_object_set_new(rec, "counters_note", json_string(note));
	drop_idle_rules(rec);
	json_object_set_new(rec, "counters_from", json_string("read hook, after - before the trial"));
}

json_t *dut_trial_record(struct dut *d, const json_t *before, const json_t *after)
{
	if (d->kind == PR_RUT) {
		json_t *rec = before && after ? dut_delta(before, after) : NULL;
		if (rec)
			drop_idle_rules(rec);
		return rec;
	}
	if (d->kind != PR_EXTERNAL || !d->cfg.p->router.read_hook)
		return NULL;
	json_t *a = after ? json_incref(jmut(after)) : dut_ext_read(d);
	json_t *o = json_object();
	json_object_set(o, "hook", d->cfg.p->router.read_hook);
	json_object_set(o, "status", json_object_get(a, "status"));
	json_object_set(o, "output", json_object_get(a, "output"));
	ext_counters(o, json_object_get(before, "output"), json_object_get(a, "output"),
		     json_integer_value(json_object_get(before, "status")),
		     json_integer_value(json_object_get(a, "status")));
	json_decref(a);
	return o;
}

int dut_link_fault(const json_t *rec, char *why, size_t len)
{
	const json_t *dr = json_object_get(rec, "drops");
	json_int_t down = json_integer_value(json_object_get(dr, "link_down"));
	json_int_t gone = json_integer_value(json_object_get(dr, "port_gone"));
	json_int_t txe = json_integer_value(json_object_get(rec, "tx_errors"));
	json_int_t flaps = json_integer_value(json_object_get(rec, "link_downs"));
	if (down <= 0 && gone <= 0 && txe <= 0 && flaps <= 0)
		return 0;
	/* which ports: their names make the message actionable */
	char names[128] = "";
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(rec, "ports"), i, p) {
		const json_t *pd = json_object_get(p, "drops");
		if (json_integer_value(json_object_get(p, "link_downs")) > 0 ||
		    json_integer_value(json_object_get(p, "tx_errors")) > 0 ||
		    json_integer_value(json_object_get(pd, "link_down")) > 0 ||
		    json_integer_value(json_object_get(pd, "port_gone")) > 0) {
			size_t l = strlen(names);
			snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "",
				 json_is_string(json_object_get(p, "ifname"))
				 ? json_string_value(json_object_get(p, "ifname")) : "?");
		}
	}
	snprintf(why, len, "the forwarder's link failed during the trial%s%s: %lld frames dropped "
		 "with the link down, %lld with the port deleted, %lld transmit errors, the link "
		 "went down %lld times", names[0] ? " on " : "", names, (long long)down,
		 (long long)gone, (long long)txe, (long long)flaps);
	return 1;
}
