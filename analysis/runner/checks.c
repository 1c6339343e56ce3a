/* SPDX-License-Identifier: BSD-2-Clause */
/* checks.c — the consistency checks of a trial (see checks.h), pure functions of
 * the trial record: what the components printed, nothing measured here. Called by
 * ppslab run after every trial; a failed check flags the trial.
 *
 * Field names are those the tools print: ppslab-gen's summary (gen/gen_report.c:
 * stream, tx_pkts, test_pkts, seq_holes, rate_error_pct, shortfall_pct, rate_ok),
 * ppslab-sink's (sink/sink_report.c: rx_pkts, err_pkts, ring_drops, streams[]{stream,
 * rx_pkts, lost_pkts, first_seq}) and ppslab-rut's stats (rut/rutstats.c:
 * rx_pkts, fwd_pkts, drop_pkts, drops{malformed, not_ip4}, rules[]{number, pkts},
 * polling{ticks, clock_skips}). */
#include "checks.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DETAIL_MAX 1024
#define RATE_TOL_DEFAULT 0.005
#define CLOCK_LOSS_MAX 0.01        /* share of poll deadlines the host may cost a trial */
#define UNSURE_MAX 0.001           /* share of ticks whose lost poll may be the host's */

struct out {
	json_t *checks, *flags;
	int failed;
	bool oom;
};

/* Appends to a detail text, "; " between parts; silently truncates. */
static void part(char *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void part(char *d, const char *fmt, ...)
{
	size_t l = strlen(d);
	if (l + 3 >= DETAIL_MAX)
		return;
	if (l) {
		memcpy(d + l, "; ", 3);
		l += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d + l, DETAIL_MAX - l, fmt, ap);
	va_end(ap);
}

enum verdict { V_SKIP = -1, V_FAIL = 0, V_OK = 1 };

static void record(struct out *o, const char *name, enum verdict v, const char *detail)
{
	char text[DETAIL_MAX + 16];
	json_t *c = json_object();
	if (!c || json_array_append_new(o->checks, c)) {
		o->oom = true;
		return;
	}
	if (v == V_SKIP)
		snprintf(text, sizeof(text), "skipped: %s", detail);
	else
		snprintf(text, sizeof(text), "%s", detail);
	if (json_object_set_new(c, "name", json_string(name)) ||
	    json_object_set_new(c, "ok", v == V_SKIP ? json_null() : json_boolean(v == V_OK)) ||
	    json_object_set_new(c, "detail", json_string(text)))
		o->oom = true;
	if (v == V_FAIL) {
		char flag[DETAIL_MAX + 64];
		snprintf(flag, sizeof(flag), "%s: %s", name, detail);
		o->failed++;
		if (json_array_append_new(o->flags, json_string(flag)))
			o->oom = true;
	}
}

/* A non-negative whole number: a JSON integer, or a real without a fraction (a counter
 * that went through a double somewhere). */
static bool get_u64(const json_t *obj, const char *key, uint64_t *v)
{
	json_t *j = json_object_get(obj, key);
	if (json_is_integer(j) && json_integer_value(j) >= 0) {
		*v = (uint64_t)json_integer_value(j);
		return true;
	}
	if (json_is_real(j)) {
		double d = json_real_value(j);
		if (d >= 0 && d < 1.8e19 && d == floor(d)) {
			*v = (uint64_t)d;
			return true;
		}
	}
	return false;
}

static bool get_num(json_t *obj, const char *key, double *v)
{
	json_t *j = json_object_get(obj, key);
	if (!json_is_number(j))
		return false;
	*v = json_number_value(j);
	return isfinite(*v);
}

/* What a sender sent on its stream, as the sink's --expect-from reads it: test_pkts +
 * seq_holes (numbers 0..sent−1), or tx_pkts from an older summary. */
static bool gen_sent(json_t *g, uint64_t *sent)
{
	uint64_t holes = 0;
	if (get_u64(g, "test_pkts", sent)) {
		if (get_u64(g, "seq_holes", &holes))
			*sent += holes;
		return true;
	}
	return get_u64(g, "tx_pkts", sent);
}

static json_t *nonempty_array(json_t *trial, const char *key)
{
	json_t *a = json_object_get(trial, key);
	return json_is_array(a) && json_array_size(a) ? a : NULL;
}

/* 1 offered load */
static void c_offered(struct out *o, json_t *trial, double tol)
{
	json_t *gens = nonempty_array(trial, "gen"), *g;
	char d[DETAIL_MAX] = "";
	size_t i;
	int judged = 0, bad = 0;
	if (!gens) {
		record(o, "offered load", V_SKIP, "no sender summary");
		return;
	}
	double tol_pct = 100 * tol;
	json_array_foreach(gens, i, g) {
		double err = 0, sf = 0;
		uint64_t sid = 0;
		bool has_err = get_num(g, "rate_error_pct", &err);
		bool has_sf = get_num(g, "shortfall_pct", &sf);
		json_t *rok = json_object_get(g, "rate_ok");
		char who[48];
		if (get_u64(g, "stream", &sid))
			snprintf(who, sizeof(who), "gen stream %" PRIu64, sid);
		else
			snprintf(who, sizeof(who), "gen[%zu]", i);
		if (has_err || has_sf) {
			bool ok = (!has_err || fabs(err) <= tol_pct) && (!has_sf || sf >= -tol_pct);
			judged++;
			bad += !ok;
			if (has_err && has_sf)
				part(d, "%s: rate error %+.3f %%, shortfall %+.3f %%", who, err, sf);
			else if (has_err)
				part(d, "%s: rate error %+.3f %%", who, err);
			else
				part(d, "%s: shortfall %+.3f %%", who, sf);
		} else if (json_is_boolean(rok)) {
			judged++;
			bad += !json_is_true(rok);
			part(d, "%s: rate_ok %s (no target rate)", who, json_is_true(rok) ? "true" : "false");
		} else {
			part(d, "%s: no rate verdict", who);
		}
	}
	part(d, "tolerance %.3f %%", tol_pct);
	record(o, "offered load", judged ? (bad ? V_FAIL : V_OK) : V_SKIP, d);
}

/* The sinks' accounting of one stream: rx + lost + first_seq (numbers below the floor
 * were never measured: the sink's own warm-up, or a late join). */
struct sink_stream_sum {
	uint64_t rx, lost, floor;
	bool found;
};

/* Adds one sink's entries for stream sid to s (s->floor starts at UINT64_MAX). */
static void sink_stream_add(json_t *sink, uint64_t sid, struct sink_stream_sum *s)
{
	json_t *st;
	size_t j;
	json_array_foreach(json_object_get(sink, "streams"), j, st) {
		uint64_t id, rx = 0, lost = 0, fl = 0;
		if (!get_u64(st, "stream", &id) || id != sid)
			continue;
		get_u64(st, "rx_pkts", &rx);
		get_u64(st, "lost_pkts", &lost);
		get_u64(st, "first_seq", &fl);
		s->rx += rx;
		s->lost += lost;
		if (fl < s->floor)
			s->floor = fl;
		s->found = true;
	}
}

static void sink_stream(json_t *sinks, uint64_t sid, struct sink_stream_sum *s)
{
	json_t *sk;
	size_t i;
	memset(s, 0, sizeof(*s));
	s->floor = UINT64_MAX;
	json_array_foreach(sinks, i, sk)
		sink_stream_add(sk, sid, s);
	if (!s->found)
		s->floor = 0;
}

/* 2 sent = received + lost */
static void c_accounting(struct out *o, json_t *trial, const struct check_ctx *ctx)
{
	json_t *gens = nonempty_array(trial, "gen"), *sinks = nonempty_array(trial, "sink"), *g;
	char d[DETAIL_MAX] = "";
	size_t i;
	int judged = 0, bad = 0;
	if (!gens || !sinks) {
		record(o, "sent = received + lost", V_SKIP, !gens ? "no sender summary"
								  : "no sink summary");
		return;
	}
	json_array_foreach(gens, i, g) {
		uint64_t sid, sent;
		if (!get_u64(g, "stream", &sid) || !gen_sent(g, &sent)) {
			part(d, "gen[%zu]: no stream or sent count", i);
			continue;
		}
		struct sink_stream_sum s;
		sink_stream(sinks, sid, &s);
		judged++;
		if (!s.found) {
			bool ok = sent == 0 || ctx->expect_total_loss;
			bad += !ok;
			part(d, "stream %" PRIu64 ": gen %" PRIu64 ", no sink reported the stream%s",
			     sid, sent, ok && sent ? " (total loss expected)" : "");
			continue;
		}
		uint64_t acc = s.rx + s.lost + s.floor;
		char fl[64] = "";
		if (s.floor)
			snprintf(fl, sizeof(fl), " + %" PRIu64 " before the sink's floor", s.floor);
		if (acc == sent) {
			part(d, "stream %" PRIu64 ": gen %" PRIu64 " = sink %" PRIu64 " + lost %" PRIu64 "%s",
			     sid, sent, s.rx, s.lost, fl);
		} else {
			bad++;
			part(d, "stream %" PRIu64 ": gen %" PRIu64 " != sink %" PRIu64 " + lost %" PRIu64
			     "%s (%s %" PRIu64 ")", sid, sent, s.rx, s.lost, fl,
			     acc < sent ? "unaccounted" : "excess", acc < sent ? sent - acc : acc - sent);
		}
	}
	record(o, "sent = received + lost", judged ? (bad ? V_FAIL : V_OK) : V_SKIP, d);
}

/* 3 sink clean */
static void c_sink_clean(struct out *o, json_t *trial)
{
	json_t *sinks = nonempty_array(trial, "sink"), *sk;
	char d[DETAIL_MAX] = "";
	size_t i;
	int judged = 0, bad = 0;
	if (!sinks) {
		record(o, "sink clean", V_SKIP, "no sink summary");
		return;
	}
	json_array_foreach(sinks, i, sk) {
		uint64_t err, ring;
		bool he = get_u64(sk, "err_pkts", &err), hr = get_u64(sk, "ring_drops", &ring);
		if (!he && !hr) {
			part(d, "sink[%zu]: no err_pkts or ring_drops", i);
			continue;
		}
		judged++;
		bad += (he && err) || (hr && ring);
		char e[32] = "-", r[32] = "-";
		if (he)
			snprintf(e, sizeof(e), "%" PRIu64, err);
		if (hr)
			snprintf(r, sizeof(r), "%" PRIu64, ring);
		part(d, "sink[%zu]: err_pkts %s, ring_drops %s", i, e, r);
	}
	record(o, "sink clean", judged ? (bad ? V_FAIL : V_OK) : V_SKIP, d);
}

/* 4 sinks saw the traffic */
static void c_sinks_saw(struct out *o, json_t *trial, const struct check_ctx *ctx)
{
	json_t *gens = nonempty_array(trial, "gen"), *sinks = nonempty_array(trial, "sink");
	json_t *sk, *g;
	char d[DETAIL_MAX] = "";
	size_t i, j;
	int judged = 0, bad = 0;
	if (ctx->expect_total_loss) {
		record(o, "sinks saw the traffic", V_SKIP, "total loss expected");
		return;
	}
	if (!gens || !sinks) {
		record(o, "sinks saw the traffic", V_SKIP, !gens ? "no sender summary"
								 : "no sink summary");
		return;
	}
	json_array_foreach(sinks, i, sk) {
		uint64_t rx, to_it = 0, all = 0;
		bool mapped = false;
		if (!get_u64(sk, "rx_pkts", &rx)) {
			part(d, "sink[%zu]: no rx_pkts", i);
			continue;
		}
		/* the senders of the streams this sink lists; all senders when it lists none */
		json_array_foreach(gens, j, g) {
			uint64_t sid, sent;
			if (!gen_sent(g, &sent))
				continue;
			all += sent;
			struct sink_stream_sum s = { .floor = UINT64_MAX };
			if (get_u64(g, "stream", &sid)) {
				sink_stream_add(sk, sid, &s);
				if (s.found) {
					mapped = true;
					to_it += sent;
				}
			}
		}
		if (!mapped)
			to_it = all;
		judged++;
		if (to_it && !rx) {
			bad++;
			part(d, "sink[%zu]: no test frame counted while %" PRIu64 " were sent", i, to_it);
		} else {
			part(d, "sink[%zu]: %" PRIu64 " test frames of %" PRIu64 " sent", i, rx, to_it);
		}
	}
	record(o, "sinks saw the traffic", judged ? (bad ? V_FAIL : V_OK) : V_SKIP, d);
}

/* Why the router's counters are absent, for a skipped check. */
static const char *no_router_counters(const struct check_ctx *ctx, json_t *trial)
{
	json_t *rut = json_object_get(trial, "rut");
	switch (ctx->router) {
	case CHECK_NONE:
		return "no router between sender and sink";
	case CHECK_EXTERNAL:
		if (!json_is_object(rut))
			return "the external router has no read_hook";
		if (json_is_string(json_object_get(rut, "counters_note")))
			return json_string_value(json_object_get(rut, "counters_note"));
		return "the read hook's JSON has no such counters (rx_pkts, fwd_pkts, drop_pkts, "
		       "rules: LAB.md)";
	default:
		return "no forwarder counters";
	}
}

/* 5 forwarder adds up */
static void c_rut_adds_up(struct out *o, json_t *trial, const struct check_ctx *ctx)
{
	json_t *rut = json_object_get(trial, "rut");
	uint64_t rx, fwd, drop;
	char d[DETAIL_MAX] = "";
	if (!json_is_object(rut) || !json_object_get(rut, "rx_pkts")) {
		record(o, "forwarder adds up", V_SKIP, no_router_counters(ctx, trial));
		return;
	}
	if (!get_u64(rut, "rx_pkts", &rx) || !get_u64(rut, "fwd_pkts", &fwd) ||
	    !get_u64(rut, "drop_pkts", &drop)) {
		record(o, "forwarder adds up", V_SKIP, ctx->router == CHECK_EXTERNAL
		       ? "the read hook's counters lack rx_pkts, fwd_pkts or drop_pkts"
		       : "the forwarder's record has no rx_pkts, fwd_pkts and drop_pkts");
		return;
	}
	bool ok = rx == fwd + drop;
	part(d, "rx %" PRIu64 " %s fwd %" PRIu64 " + drop %" PRIu64, rx, ok ? "=" : "!=", fwd, drop);
	record(o, "forwarder adds up", ok ? V_OK : V_FAIL, d);
}

/* 6 forwarder vs sink */
static void c_rut_vs_sink(struct out *o, json_t *trial, const struct check_ctx *ctx)
{
	json_t *rut = json_object_get(trial, "rut"), *sinks = nonempty_array(trial, "sink"), *sk;
	uint64_t fwd, sum = 0;
	char d[DETAIL_MAX] = "";
	size_t i;
	if (!json_is_object(rut) || !get_u64(rut, "fwd_pkts", &fwd)) {
		record(o, "forwarder vs sink", V_SKIP, no_router_counters(ctx, trial));
		return;
	}
	if (!sinks) {
		record(o, "forwarder vs sink", V_SKIP, "no sink summary");
		return;
	}
	json_array_foreach(sinks, i, sk) {
		uint64_t rx;
		if (!get_u64(sk, "rx_pkts", &rx)) {
			record(o, "forwarder vs sink", V_SKIP, "a sink summary has no rx_pkts");
			return;
		}
		sum += rx;
	}
	bool ok = fwd >= sum;
	part(d, "forwarded %" PRIu64 " %s sinks counted %" PRIu64, fwd, ok ? ">=" : "<", sum);
	record(o, "forwarder vs sink", ok ? V_OK : V_FAIL, d);
}

/* 7 ruleset executed */
static void c_ruleset(struct out *o, json_t *trial, const struct check_ctx *ctx)
{
	json_t *rut = json_object_get(trial, "rut"), *rules, *r;
	char d[DETAIL_MAX] = "";
	size_t i;
	uint64_t sum = 0, rx;
	if (ctx->router == CHECK_NONE) {
		record(o, "ruleset executed", V_SKIP, "no router between sender and sink");
		return;
	}
	if (!ctx->firewall) {
		record(o, "ruleset executed", V_SKIP, "the firewall is off in this cell "
		       "(firewall=off, or auto without rules)");
		return;
	}
	if (!json_is_object(rut) || !json_is_array(rules = json_object_get(rut, "rules"))) {
		record(o, "ruleset executed", V_SKIP, ctx->router == CHECK_EXTERNAL
		       ? (json_is_object(rut) && json_is_string(json_object_get(rut, "counters_note"))
			  ? json_string_value(json_object_get(rut, "counters_note"))
			  : "no rule counters from the external router (its read hook's JSON has "
			    "no \"rules\": [{\"number\", \"pkts\"}])")
		       : "no rule counters from the forwarder");
		return;
	}
	if (ctx->update_counters && !ctx->rules) {
		record(o, "ruleset executed", V_SKIP, "no rule besides 65535");
		return;
	}
	json_array_foreach(rules, i, r) {
		uint64_t p;
		if (get_u64(r, "pkts", &p))
			sum += p;
	}
	if (!ctx->update_counters) {
		if (!sum) {
			part(d, "update_counters = 0: rule counters unchanged");
			record(o, "ruleset executed", V_OK, d);
			return;
		}
		part(d, "update_counters = 0 but rule counters moved by %" PRIu64, sum);
		int shown = 0;
		json_array_foreach(rules, i, r) {
			uint64_t p, n;
			if (get_u64(r, "pkts", &p) && p && get_u64(r, "number", &n) && shown++ < 5)
				part(d, "rule %" PRIu64 ": %" PRIu64, n, p);
		}
		record(o, "ruleset executed", V_FAIL, d);
		return;
	}
	if (!get_u64(rut, "rx_pkts", &rx)) {
		record(o, "ruleset executed", V_SKIP, ctx->router == CHECK_EXTERNAL
		       ? "the read hook's counters have no rx_pkts"
		       : "the forwarder's record has no rx_pkts");
		return;
	}
	/* frames the forwarder discarded before the firewall (fwd.c: not IPv4, malformed)
	 * never reach a rule */
	uint64_t mal = 0, nip = 0, evaluated;
	json_t *drops = json_object_get(rut, "drops");
	get_u64(drops, "malformed", &mal);
	get_u64(drops, "not_ip4", &nip);
	evaluated = rx > mal + nip ? rx - mal - nip : 0;
	bool ok = sum >= evaluated;
	part(d, "rule counters %" PRIu64 " %s %" PRIu64 " frames evaluated (rx %" PRIu64
	     " - %" PRIu64 " malformed or not IPv4)", sum, ok ? ">=" : "<", evaluated, rx,
	     mal + nip);
	record(o, "ruleset executed", ok ? V_OK : V_FAIL, d);
}

/* 8 components ok */
static void c_exits(struct out *o, json_t *trial)
{
	json_t *ex = json_object_get(trial, "exit"), *v;
	const char *name;
	char d[DETAIL_MAX] = "";
	int bad = 0;
	if (!json_is_object(ex) || !json_object_size(ex)) {
		record(o, "components ok", V_SKIP, "no exit statuses");
		return;
	}
	json_object_foreach(ex, name, v) {
		if (json_is_integer(v)) {
			json_int_t st = json_integer_value(v);
			bad += st != 0;
			if (st > 128 && st < 128 + 65)
				part(d, "%s %" JSON_INTEGER_FORMAT " (signal %" JSON_INTEGER_FORMAT ")",
				     name, st, st - 128);
			else
				part(d, "%s %" JSON_INTEGER_FORMAT, name, st);
		} else if (json_is_string(v)) {
			bad++;
			part(d, "%s %s", name, json_string_value(v));
		} else {
			bad++;
			part(d, "%s: no status", name);
		}
	}
	record(o, "components ok", bad ? V_FAIL : V_OK, d);
}

/* 9 forwarded <= offered: a router cannot forward more test traffic than it was
 * offered. The tolerance is the measurement's own: the rate's resolution (counter
 * quantum and the read times, "fwd_rate_res_pps") and the sender's pacing tolerance
 * (check 1), since the load window sees the sender's pace over part of the trial. */
static void c_fwd_le_offered(struct out *o, json_t *trial, double tol)
{
	double fwd, off, res = 0;
	char d[DETAIL_MAX] = "";
	if (!get_num(trial, "fwd_rate_pps", &fwd) || !get_num(trial, "offered_pps", &off) ||
	    off <= 0) {
		record(o, "forwarded <= offered", V_SKIP, "no forwarding rate or offered load");
		return;
	}
	get_num(trial, "fwd_rate_res_pps", &res);
	/* a sender that skipped or shifted what a stall owed kept its gaps: a window
	 * without the stall saw its nominal rate, which its average understates */
	json_t *g;
	size_t i;
	double gap_pps = 0;
	json_array_foreach(json_object_get(trial, "gen"), i, g) {
		uint64_t sk = 0, sh = 0;
		double nom, pps;
		get_u64(g, "skipped", &sk);
		get_u64(g, "shifted_ns", &sh);
		if ((sk || sh) && get_num(g, "nominal_pps", &nom) && get_num(g, "pps", &pps) &&
		    nom > pps)
			gap_pps += nom - pps;
	}
	off += gap_pps;
	double limit = off * (1 + tol) + (res > 0 ? res : 0);
	bool ok = fwd <= limit;
	part(d, "forwarded %.0f pps %s offered %.0f pps + %.3f %% pacing + %.0f pps resolution "
	     "(%.0f pps)", fwd, ok ? "<=" : ">", off, 100 * tol, res > 0 ? res : 0, limit);
	if (gap_pps > 0)
		part(d, "offered counts the senders' nominal rate between stalls (+%.0f pps)",
		     gap_pps);
	if (!ok)
		part(d, "a router cannot forward more than it is offered: the count includes "
		     "frames that are not this trial's load (a backlog, other traffic)");
	record(o, "forwarded <= offered", ok ? V_OK : V_FAIL, d);
}

/* 10 fwd_pps method: the forwarding rate comes from the receiving interfaces' kernel
 * counters over the load window; the fallback (test frames / the sender's time, which
 * counts a backlog delivered after the load) is flagged with the reason. */
static void c_fwd_method(struct out *o, json_t *trial, bool burst)
{
	const char *m = json_string_value(json_object_get(trial, "fwd_rate_from"));
	const char *why = json_string_value(json_object_get(trial, "fwd_rate_fallback"));
	char d[DETAIL_MAX] = "";
	if (burst) {
		record(o, "fwd_pps method", V_SKIP, "a burst (b2b) is counted in frames, not as a rate");
		return;
	}
	if (!m) {
		record(o, "fwd_pps method", V_SKIP, "no forwarding rate");
		return;
	}
	if (!strcmp(m, RES_FWD_WINDOW)) {
		record(o, "fwd_pps method", V_OK, m);
		return;
	}
	part(d, "%s, not %s: %s", m, RES_FWD_WINDOW, why ? why : "no reason recorded");
	record(o, "fwd_pps method", V_FAIL, d);
}

/* 12 sender kept pace: a sender that stalled and then caught up sent a burst at the
 * port's speed, which a router policing its input rightly drops: the trial measured
 * the sender, not the router. Unpaced senders ("burst_tight_ns" null) are not judged. */
static void c_pace(struct out *o, json_t *trial, const struct check_ctx *ctx)
{
	json_t *gens = nonempty_array(trial, "gen"), *g;
	char d[DETAIL_MAX] = "";
	size_t i;
	int judged = 0, burst = 0, behind = 0;
	uint64_t max_burst = ctx->max_burst ? ctx->max_burst : CHECK_MAX_BURST;
	double frac = ctx->max_behind > 0 ? ctx->max_behind : CHECK_MAX_BEHIND, dur = 0;
	bool has_dur = get_num(trial, "duration_s", &dur) && dur > 0;
	json_array_foreach(gens, i, g) {
		uint64_t b, bn = 0, bmax = 0, sid;
		double tight;
		if (!get_u64(g, "burst_max", &b) || !get_num(g, "burst_tight_ns", &tight))
			continue;
		get_u64(g, "behind_ns", &bn);
		get_u64(g, "behind_max_ns", &bmax);
		char who[48];
		if (get_u64(g, "stream", &sid))
			snprintf(who, sizeof(who), "gen stream %" PRIu64, sid);
		else
			snprintf(who, sizeof(who), "gen[%zu]", i);
		judged++;
		bool bad_b = b > max_burst;
		bool bad_l = has_dur && (double)bn > frac * dur * 1e9;
		burst += bad_b;
		behind += bad_l;
		part(d, "%s: largest burst %" PRIu64 " frames%s, behind schedule %.3f ms "
		     "(longest %.3f ms)%s", who, b, bad_b ? " (too large)" : "", (double)bn / 1e6,
		     (double)bmax / 1e6, bad_l ? " (too long)" : "");
	}
	if (!judged) {
		record(o, CHECK_PACE, V_SKIP, "no paced sender with burst accounting");
		return;
	}
	if (has_dur)
		part(d, "tolerance %" PRIu64 " frames, %.3f ms behind (%g of %g s)", max_burst,
		     frac * dur * 1e3, frac, dur);
	else
		part(d, "tolerance %" PRIu64 " frames (no trial duration: time behind not judged)",
		     max_burst);
	/* what may have changed the answer: a burst the loss may come from (a trial that
	 * lost nothing withstood it), time behind that offered less than asked (a trial
	 * that lost frames lost them at a load no higher) */
	uint64_t tx, rx;
	bool counts = get_u64(trial, "tx_frames", &tx) && get_u64(trial, "rx_frames", &rx);
	bool loss = !counts || tx == 0 || rx < tx;
	bool fail_b = burst && loss, fail_l = behind && (!counts || !loss);
	if (burst && !fail_b)
		part(d, "a burst, but nothing was lost: the router withstood it");
	if (behind && !fail_l)
		part(d, "behind, but frames were lost at a load no higher than asked");
	if (fail_b || fail_l)
		part(d, "not the traffic asked for: %s%s%s", fail_b ? "a burst with loss" : "",
		     fail_b && fail_l ? ", " : "", fail_l ? "time behind without loss" : "");
	record(o, CHECK_PACE, fail_b || fail_l ? V_FAIL : V_OK, d);
}

/* Did frames of an earlier trial reach a sink after this trial's first frame was sent
 * (a sink's "stale_overlap_ns" > 0)? *load gets how many did ("stale_load_pkts"; a
 * sink that cannot say, or remembered only its last ones, makes it UINT64_MAX). */
static bool stale_overlap(const json_t *trial, uint64_t *load)
{
	json_t *sk;
	size_t i;
	bool any = false;
	*load = 0;
	json_array_foreach(json_object_get(trial, "sink"), i, sk) {
		uint64_t n, l;
		double v;
		if (!get_u64(sk, "stale_pkts", &n) || !n || !get_num(sk, "stale_overlap_ns", &v) ||
		    v <= 0)
			continue;
		any = true;
		if (!get_u64(sk, "stale_load_pkts", &l) ||
		    json_is_true(json_object_get(sk, "stale_load_truncated")))
			*load = UINT64_MAX;
		else if (*load != UINT64_MAX)
			*load += l;
	}
	return any;
}

/* The frames the trial lost; UINT64_MAX when that is unknown. */
static uint64_t trial_lost(const json_t *trial)
{
	uint64_t tx, rx;
	if (!get_u64(trial, "tx_frames", &tx) || !get_u64(trial, "rx_frames", &rx) || tx == 0)
		return UINT64_MAX;
	return rx < tx ? tx - rx : 0;
}

bool check_stale_spoiled(const json_t *trial)
{
	uint64_t load, lost = trial_lost(trial);
	/* a frame for a frame: each stale one took the router no longer than one of this
	 * trial's, so more lost than stale ones came means a loss without them too */
	return stale_overlap(trial, &load) && lost > 0 && (lost == UINT64_MAX || lost <= load);
}

/* 13 only this trial's frames: each trial numbers its frames in an epoch of its own
 * (sig.h), so an earlier trial's frames the router still held are counted apart
 * ("stale_pkts"), never as received, lost, duplicated or reordered. Those that arrived
 * after this trial's first frame was sent ("stale_overlap_ns" > 0) took the router's
 * time while this load ran: when the trial lost frames, the loss may be theirs
 * (spoiled: check_stale_spoiled). A stream numbered at or beyond what its sender sent
 * ("beyond_expect") has books that cannot be right. */
static void c_stale(struct out *o, json_t *trial)
{
	json_t *sinks = nonempty_array(trial, "sink"), *sk, *st;
	char d[DETAIL_MAX] = "";
	size_t i, j;
	int judged = 0, beyond = 0, blind = 0;
	if (!sinks) {
		record(o, CHECK_STALE, V_SKIP, "no sink summary");
		return;
	}
	json_array_foreach(sinks, i, sk) {
		uint64_t ep, stale = 0, dup = 0;
		double ov;
		if (!get_u64(sk, "epoch", &ep)) {
			part(d, "sink[%zu]: no epoch (an earlier trial's frames cannot be told apart)", i);
			continue;
		}
		judged++;
		get_u64(sk, "stale_pkts", &stale);
		get_u64(sk, "dup_pkts", &dup);
		char when[160] = "", many[64] = "";
		uint64_t sl;
		if (stale && get_num(sk, "stale_overlap_ns", &ov) && ov > 0 &&
		    get_u64(sk, "stale_load_pkts", &sl))
			snprintf(many, sizeof(many), ", %" PRIu64 "%s of them after it", sl,
				 json_is_true(json_object_get(sk, "stale_load_truncated")) ? " or more"
											   : "");
		if (stale && get_num(sk, "stale_overlap_ns", &ov))
			snprintf(when, sizeof(when), " (the last %.3f ms %s this trial's first frame "
				 "was sent%s)", fabs(ov) / 1e6, ov > 0 ? "after" : "before", many);
		part(d, "sink[%zu]: epoch %" PRIu64 ", %" PRIu64 " frames of an earlier trial not "
		     "counted%s; %" PRIu64 " duplicates of its own not counted", i, ep, stale, when,
		     dup);
		/* the overlap is measured from this trial's first frame at the sink: when none
		 * came, whether the stale ones shared the router with the load is unknown */
		uint64_t own = 0;
		if (stale && !get_num(sk, "stale_overlap_ns", &ov) && get_u64(sk, "rx_pkts", &own) &&
		    !own) {
			blind++;
			part(d, "sink[%zu]: none of this trial's frames arrived, only an earlier "
			     "trial's: whether they took the router's time during this load cannot be "
			     "said", i);
		}
		json_array_foreach(json_object_get(sk, "streams"), j, st) {
			uint64_t sid = 0;
			if (!json_is_true(json_object_get(st, "beyond_expect")))
				continue;
			beyond++;
			get_u64(st, "stream", &sid);
			part(d, "stream %" PRIu64 ": numbers at or beyond what its sender sent", sid);
		}
	}
	if (!judged) {
		record(o, CHECK_STALE, V_SKIP, d);
		return;
	}
	bool spoiled = check_stale_spoiled(trial);
	uint64_t load, lost = trial_lost(trial);
	if (stale_overlap(trial, &load) && !spoiled) {
		if (!lost)
			part(d, "they overlapped this load, but nothing was lost: the router kept up "
			     "with both");
		else
			part(d, "%" PRIu64 " of them overlapped this load, fewer than the %" PRIu64
			     " frames lost: a loss without them too", load, lost);
	}
	if (spoiled)
		part(d, "spoiled: frames were lost while the router still forwarded an earlier "
		     "trial's");
	record(o, CHECK_STALE, spoiled || beyond || blind ? V_FAIL : V_OK, d);
}

bool check_pace_failed(const json_t *trial, char *why, size_t len)
{
	size_t i;
	json_t *c;
	if (len)
		why[0] = 0;
	json_array_foreach(json_object_get(trial, "checks"), i, c) {
		const char *name = json_string_value(json_object_get(c, "name"));
		if (!name || strcmp(name, CHECK_PACE) || !json_is_false(json_object_get(c, "ok")))
			continue;
		const char *det = json_string_value(json_object_get(c, "detail"));
		bool b = det && strstr(det, "a burst with loss");
		bool l = det && strstr(det, "time behind without loss");
		snprintf(why, len, "%s%s%s", b ? "burst" : "", b && l ? ", " : "", l ? "behind" : "");
		return true;
	}
	return false;
}

bool checks_latency_withheld(double bound_ns, double p50_ns, double frac, bool delay_valid,
			     char *why, size_t len)
{
	why[0] = 0;
	if (!isfinite(p50_ns))
		return false;   /* nothing to withhold */
	if (!delay_valid) {
		snprintf(why, len, "the sink saw negative or implausible one-way delays: the "
			 "sender's and sink's clocks disagree");
		return true;
	}
	if (!isfinite(bound_ns) || bound_ns < 0) {
		snprintf(why, len, "the sender's and sink's clocks could not be compared (no "
			 "time synchronisation status, no round trip): their offset is unknown");
		return true;
	}
	if (bound_ns > frac * fabs(p50_ns)) {
		snprintf(why, len, "the sender's and sink's clocks may differ by up to %.0f us, "
			 "more than %.0f %% of the median one-way delay (%.0f us; "
			 "trial.max_clock_error)", bound_ns / 1e3, 100 * frac, p50_ns / 1e3);
		return true;
	}
	return false;
}

/* 11 poll clock kept time: a tick the forwarding thread comes to late fires once, as a
 * late hardclock does, so the rounds of the deadlines it stands for are not run; past
 * 1 % the poll-mode rate is below what the kernel would forward on a quiet host */
static void c_poll_clock(struct out *o, json_t *trial)
{
	json_t *pol = json_object_get(json_object_get(trial, "rut"), "polling");
	uint64_t ticks, skips;
	char d[DETAIL_MAX] = "";
	if (!get_u64(pol, "ticks", &ticks) || !get_u64(pol, "clock_skips", &skips)) {
		record(o, "poll clock kept time", V_SKIP, "no poll clock counters");
		return;
	}
	if (ticks + skips == 0) {
		record(o, "poll clock kept time", V_SKIP, "the forwarder did not poll");
		return;
	}
	double lost = (double)skips / (double)(ticks + skips);
	bool ok = lost <= CLOCK_LOSS_MAX;
	part(d, "%" PRIu64 " of %" PRIu64 " deadlines passed without a tick (%.2f %% %s 1 %%): "
	     "the host delayed the forwarding thread", skips, ticks + skips, 100 * lost,
	     ok ? "<=" : ">");
	/* lost polls the forwarder could not tell from the host's (devpoll.h unsure_polls):
	 * past 0.1 % of the ticks, lost_polls and the 7/8 cuts may be the host's */
	uint64_t unsure, lp = 0;
	if (get_u64(pol, "unsure_polls", &unsure) && ticks) {
		get_u64(pol, "lost_polls", &lp);
		double u = (double)unsure / (double)ticks;
		bool uok = u <= UNSURE_MAX;
		part(d, "%" PRIu64 " of %" PRIu64 " lost_polls in %" PRIu64 " ticks (%.3f %% %s "
		     "0.1 %%) came in rounds the host may have slowed: %s", unsure, lp, ticks,
		     100 * u, uok ? "<=" : ">",
		     uok ? "told apart" : "lost_polls and 7/8 cuts may be the host's");
		ok = ok && uok;
	}
	record(o, "poll clock kept time", ok ? V_OK : V_FAIL, d);
}

int checks_run(json_t *trial, const struct check_ctx *ctx)
{
	static const struct check_ctx defaults = { .rate_tol = RATE_TOL_DEFAULT };
	struct out o = { .checks = json_array(), .flags = json_array() };
	if (!ctx)
		ctx = &defaults;
	double tol = ctx->rate_tol > 0 ? ctx->rate_tol : RATE_TOL_DEFAULT;
	if (!json_is_object(trial) || !o.checks || !o.flags) {
		json_decref(o.checks);
		json_decref(o.flags);
		return json_is_object(trial) ? -ENOMEM : -EINVAL;
	}
	c_offered(&o, trial, tol);
	c_accounting(&o, trial, ctx);
	c_sink_clean(&o, trial);
	c_sinks_saw(&o, trial, ctx);
	c_rut_adds_up(&o, trial, ctx);
	c_rut_vs_sink(&o, trial, ctx);
	c_ruleset(&o, trial, ctx);
	c_exits(&o, trial);
	c_fwd_le_offered(&o, trial, tol);
	c_fwd_method(&o, trial, ctx->burst);
	c_poll_clock(&o, trial);
	c_pace(&o, trial, ctx);
	c_stale(&o, trial);
	if (o.oom) {
		json_decref(o.checks);
		json_decref(o.flags);
		return -ENOMEM;
	}
	/* json_object_set_new() consumes the value even when it fails */
	int e = json_object_set_new(trial, "checks", o.checks);
	e |= json_object_set_new(trial, "flags", o.flags);
	if (e)
		return -ENOMEM;
	return o.failed;
}
