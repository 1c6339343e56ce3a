// SPDX-License-Identifier: BSD-2-Clause
/* run_latency.c — latency at load (docs/method.md#latency-at-load): after a search has
 * found a case's NDR, one trial at each of trial.latency_loads percent of it (0: a
 * probe at trial.min_load), the sinks keeping their one-way delays per frame size; each
 * load's RFC 8219 figures per stream and size (latload.h) into the case's
 * latency_at_load. Called by run_case.c; calls nothing of it. */
#include "run_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "jout.h"
#include "latload.h"
#include "search.h"

/* The NDR the search found (its conditional throughput), or 0: the first goal with zero
 * loss and no latency bound, whatever its name (trial.goals may call it anything; the
 * profile reader refuses latency_loads without one) */
static double found_ndr(const struct search_res *sr)
{
	for (size_t g = 0; g < sr->ngoals; g++)
		if (sr->goal[g].loss_ratio == 0 && !(sr->goal[g].latency_ns > 0))
			return sr->goal[g].ct_pps > 0 ? sr->goal[g].ct_pps : 0;
	return 0;
}

/* The books' check: frames of another trial arrived (checks.c) */
#define BOOKS "sent = received + lost"

/* The first failed check of a trial (only, the books' check) as "NAME: DETAIL", or NULL */
static json_t *first_failed(const json_t *rec, const char *only)
{
	size_t i;
	const json_t *ch;
	json_array_foreach(json_object_get(rec, "checks"), i, ch)
		if (json_is_false(json_object_get(ch, "ok")) &&
		    (!only || !strcmp(json_string_value(json_object_get(ch, "name")) ?
				      json_string_value(json_object_get(ch, "name")) : "", only))) {
			const char *n = json_string_value(json_object_get(ch, "name"));
			const char *d = json_string_value(json_object_get(ch, "detail"));
			char b[700];
			snprintf(b, sizeof(b), "%s: %s", n ? n : "?", d ? d : "");
			json_t *j = json_string(b);
			return j ? j : json_string("a check failed (its detail is not UTF-8)");
		}
	return NULL;
}

/* One load's entry: the trial, its counts and rows; a flag into flags when the trial
 * failed a check or its delays are withheld. */
static json_t *load_entry(struct runner *r, double pct, double pps, json_t *rec, json_t *flags)
{
	json_t *e = json_object();
	jset_num(e, "load_pct", pct);
	jset_num(e, "intended_pps", pps);
	jset_num(e, "offered_pps", jnum(rec, "offered_pps"));
	jset_num(e, "fwd_rate_pps", jnum(rec, "fwd_rate_pps"));
	jset_num(e, "loss_ratio", jnum(rec, "loss_ratio"));
	json_t *rows = lat_rows(json_object_get(rec, "sink"));
	const json_t *sink = json_array_get(json_object_get(rec, "sink"), 0);
	bool valid = !json_is_false(json_object_get(sink, "delay_valid"));
	char why[400];
	double p50 = jnum(json_object_get(rec, "latency_ns"), "p50");
	if (checks_latency_withheld(r->clock_bound_ns, p50, r->p->trial.max_clock_error, valid,
				    why, sizeof(why))) {
		json_object_set_new(e, "withheld", json_string(why));
		json_decref(rows);
		rows = json_array();
	}
	json_object_set_new(e, "latency", rows ? rows : json_array());
	json_t *f = first_failed(rec, NULL);
	if (f) {
		char b[900];
		snprintf(b, sizeof(b), "latency at %g %% of the NDR: %s", pct, json_string_value(f));
		json_t *fj = json_string(b);
		json_array_append_new(flags, fj ? fj : json_string("latency at load: a check failed"));
		json_object_set_new(e, "flag", f);
	}
	json_object_set_new(e, "trial", rec);
	return e;
}

int run_latency(struct runner *r, const struct plan_case *pc, json_t *c,
		const struct search_res *sr, const struct check_ctx *cc, int *seq,
		json_t *flags, char *err, size_t errlen)
{
	const struct prof_trial *t = &r->p->trial;
	double ndr = found_ndr(sr);
	json_t *list = json_array();
	json_object_set_new(c, "latency_at_load", list);
	if (!(ndr > 0)) {
		json_object_set_new(c, "latency_at_load_skipped",
				    json_string("the search found no NDR: no load to measure at"));
		return 0;
	}
	for (size_t i = 0; i < t->nlatency_loads && !*r->env.stop; i++) {
		double pct = t->latency_loads[i];
		/* 0 %: a probe low enough to queue nothing, RFC 2544 §26.2's "low" load */
		double pps = pct > 0 ? ndr * pct / 100 : t->min_load_pps;
		if (pct > 0 && pps < 1)
			pps = 1;
		/* a trial whose books fail is made again, up to trial.repeat_invalid times:
		 * the first one after a lossy search trial can meet the frames the router
		 * still held from it (old stamps, more frames than were sent); the tries
		 * before the kept one are listed in "repeated". Other failed checks (a
		 * busy host) flag the load, as they flag a search trial. */
		json_t *rec = NULL, *fails = json_array();
		int rc = 0;
		for (unsigned k = 0; k <= t->repeat_invalid && !*r->env.stop; k++) {
			struct trial_req tr = { .load_pps = pps, .duration_s = t->duration_s,
						.warmup_s = t->warmup_s, .cell = &pc->values,
						.kind = "latency", .seq = ++*seq, .delay_by_size = true };
			json_decref(rec);
			rec = NULL;
			rc = trial_run(&r->env, &tr, &rec);
			if (!rec || rc)
				break;
			checks_run(rec, cc);
			json_t *f = first_failed(rec, BOOKS);
			if (!f)
				break;
			if (k < t->repeat_invalid)
				json_array_append_new(fails, f);
			else
				json_decref(f);
		}
		if (!rec) {
			json_decref(fails);
			return rc ? rc : -ENOMEM;
		}
		if (rc == -EINTR || *r->env.stop) {
			json_decref(rec);
			json_decref(fails);
			return -EINTR;
		}
		json_t *e = load_entry(r, pct, pps, rec, flags);
		if (json_array_size(fails))
			json_object_set_new(e, "repeated", fails);
		else
			json_decref(fails);
		json_array_append_new(list, e);
		r->save(r);
		if (rc || (r->dut && !dut_alive(r->dut))) {
			const json_t *er = json_object_get(rec, "error");
			snprintf(err, errlen, "latency at %g %% of the NDR: %s", pct,
				 json_is_string(er) && json_string_length(er) ? json_string_value(er)
				 : "the forwarder died during the trial");
			return -EIO;
		}
	}
	return *r->env.stop ? -EINTR : 0;
}

void run_latency_metrics(json_t *c)
{
	json_t *m = json_object_get(c, "metrics");
	size_t i, j;
	const json_t *e, *row;
	if (!json_is_object(m))
		return;
	json_array_foreach(json_object_get(c, "latency_at_load"), i, e) {
		const json_t *rows = json_object_get(e, "latency");
		/* several sizes (an IMIX) or streams: the name says which */
		bool sizes = false, streams = false;
		const json_t *r0 = json_array_get(rows, 0);
		json_array_foreach(rows, j, row) {
			sizes |= !json_equal(json_object_get(row, "size"), json_object_get(r0, "size"));
			streams |= !json_equal(json_object_get(row, "stream"),
					       json_object_get(r0, "stream"));
		}
		json_array_foreach(rows, j, row) {
			static const char *const fig[][2] = { { "typical_ns", "p50_ns" },
							      { "worst_ns", "p999_ns" },
							      { "pdv_ns", "pdv_ns" } };
			const json_t *sz = json_object_get(row, "size");
			char base[96];
			int w = snprintf(base, sizeof(base), "latload.%g.", jnum(e, "load_pct"));
			if (sizes && json_is_integer(sz))
				w += snprintf(base + w, sizeof(base) - (size_t)w, "s%lld.",
					      (long long)json_integer_value(sz));
			if (streams)
				snprintf(base + w, sizeof(base) - (size_t)w, "st%lld.",
					 (long long)json_integer_value(json_object_get(row, "stream")));
			for (size_t f = 0; f < 3; f++) {
				char k[128];
				snprintf(k, sizeof(k), "%s%s", base, fig[f][1]);
				jset_num(m, k, jnum(row, fig[f][0]));
			}
		}
	}
}
