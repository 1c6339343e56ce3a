/* SPDX-License-Identifier: BSD-2-Clause */
/* report.c — the report of a results file (see report.h), in Markdown and as one
 * self-contained HTML page. Called by cmd_report.c. The same generator runs twice, once
 * per format, over a small document interface (headings, paragraphs, lists, grids,
 * figures). Plots are drawn once as SVG, embedded in the HTML page as data, and once as
 * PNG beside the Markdown (with their .gp and .dat), so the page can be mailed alone and
 * the directory restyled. Numbers are written for people: thousands separators, Mpps
 * where large, latency in µs or ms, percentages. Here what the page says; the writer,
 * the numbers and the tables are report_doc.c, the plots report_plot.c. */
#include "report_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "fmt.h"
#include "grid.h"
#include "jout.h"
#include "latload.h"
#include "model.h"
#include "names.h"
#include "pivot.h"
#include "safefile.h"
#include "strlist.h"
#include "version.h"

/* ---- what the report says about the method ------------------------------------ */

static int push(char ***v, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int push(char ***v, size_t *n, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return strv_add(v, n, buf);
}

int report_deviations(const struct res_file *rf, char ***out, size_t *n)
{
	json_t *m = res_get(rf->root, "method", NULL);
	json_t *ts = json_object_get(m, "trial_s");
	const char *trial = json_string_value(json_object_get(m, "trial"));
	int rc = 0, said = 0, sizes_said = 0;
	size_t i;
	json_t *g;
	/* the file's own list may already say it (ppslab run's, deviations.h) */
	json_array_foreach(json_object_get(m, "rfc2544_deviations"), i, g) {
		said |= json_is_string(g) && strstr(json_string_value(g), "60 s") != NULL;
		sizes_said |= json_is_string(g) && strstr(json_string_value(g), "§9.1") != NULL;
	}
	if (json_is_number(ts) && json_number_value(ts) < 60 && !said)
		rc |= push(out, n, "Trials last %g s; RFC 2544 §24 asks for at least 60 s.",
			   json_number_value(ts));
	const struct res_axis *fs = res_axis(rf, "frame_size");
	if (!fs)
		fs = res_axis(rf, "size");   /* ppslab run's name of it */
	/* a file of tests: ppslab run held each test's sizes to §9.1 itself */
	if ((!fs || fs->nvalues < 2) && !sizes_said && !json_object_get(m, "tests")) {
		json_t *f = json_object_get(m, "frame_size");
		char v[64] = "64";
		if (fs && fs->nvalues)
			res_value_str(fs->values[0], v, sizeof(v));
		else if (json_is_number(f))
			res_value_str(f, v, sizeof(v));
		rc |= push(out, n, "One frame size (%s bytes); RFC 2544 §9.1 tests 64, 128, 256, "
			   "512, 1024, 1280 and 1518.", v);
	}
	if (trial && (!strcmp(trial, "fixed") || !strcmp(trial, "ladder")))
		rc |= push(out, n, "Forwarding rate at set offered loads (RFC 2285 §3.6), not the "
			   "zero-loss throughput search of RFC 2544 §26.1.");
	json_array_foreach(json_object_get(m, "goals"), i, g) {
		json_t *lr = json_object_get(g, "loss_ratio"), *ex = json_object_get(g, "exceed_ratio");
		const char *name = json_string_value(json_object_get(g, "name"));
		if (json_is_number(lr) && json_number_value(lr) > 0)
			rc |= push(out, n, "Goal %s accepts %g %% loss; RFC 2544 throughput is the "
				   "rate with no loss.", name ? name : "?", json_number_value(lr) * 100);
		json_t *lat = json_object_get(g, "latency_ns");
		if (json_is_number(lat) && json_number_value(lat) > 0)
			rc |= push(out, n, "Goal %s counts a frame later than %g us as lost: a "
				   "latency-bounded rate (RFC 9971 allows such a criterion), not RFC "
				   "2544 throughput.", name ? name : "?", json_number_value(lat) / 1e3);
		if (json_is_number(ex) && json_number_value(ex) > 0)
			rc |= push(out, n, "Goal %s has exceed ratio %g (RFC 9971): some lossy "
				   "trials are tolerated at the reported rate, so it can exceed strict "
				   "RFC 2544 throughput.", name ? name : "?", json_number_value(ex));
	}
	const char *topo = json_string_value(res_get(rf->root, "environment", "topology", NULL));
	if (topo && (!strcmp(topo, "netns") || strstr(topo, "namespace")))
		rc |= push(out, n, "Sender, DUT and sink are network namespaces joined by veth on "
			   "one host; RFC 2544 §6 assumes a tester and a DUT on real links.");
	int lat = 0;
	for (size_t k = 0; k < rf->nmetrics; k++)
		lat |= !strncmp(rf->metrics[k], "lat_", 4) && res_metric_has_values(rf, rf->metrics[k]);
	if (lat)
		rc |= push(out, n, "Latency is percentiles over every test frame's timestamp "
			   "(RFC 8219 style), not one tagged frame per 120 s trial (RFC 2544 §26.2).");
	size_t withheld = 0;
	const char *why = NULL;
	for (size_t k = 0; k < rf->ncases; k++) {
		const char *w = json_string_value(json_object_get(rf->cases[k].obj,
								  "latency_withheld"));
		if (w) {
			withheld++;
			why = why ? why : w;
		}
	}
	if (withheld)
		rc |= push(out, n, "One-way latency is withheld from %zu case%s: %s.", withheld,
			   withheld == 1 ? "" : "s", why);
	size_t frames = 0;
	for (size_t k = 0; k < rf->ncases; k++) {
		const char *how = json_string_value(json_object_get(rf->cases[k].obj, "fwd_rate_from"));
		frames += how && strcmp(how, RES_FWD_WINDOW);
	}
	if (frames)
		rc |= push(out, n, "In %zu case%s the forwarding rate is test frames over the "
			   "sender's time, not the receiving interfaces' counters over the load "
			   "window (see the cases' flags): it also counts a backlog delivered after "
			   "the load.", frames, frames == 1 ? "" : "s");
	return rc ? -ENOMEM : 0;
}
/* ---- the document ------------------------------------------------------------- */

static void scalar_items(struct doc *d, json_t *obj, const char *const *skip)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		int s = 0;
		for (size_t i = 0; skip && skip[i]; i++)
			s |= !strcmp(skip[i], k);
		if (s)
			continue;
		char buf[512];
		if (json_is_number(v) && *name_unit(k)) {
			report_kv(d, k, "%s", report_human_unit(k, json_number_value(v), buf, sizeof(buf)));
		} else if (json_is_number(v) || json_is_string(v) || json_is_boolean(v)) {
			report_kv(d, k, "%s", res_value_str(v, buf, sizeof(buf)));
		} else if (json_is_array(v)) {
			size_t o = 0, i;
			json_t *e;
			char all[1024] = "";
			json_array_foreach(v, i, e)
				if (o < sizeof(all))
					o += (size_t)snprintf(all + o, sizeof(all) - o, "%s%s", i ? ", " : "",
							      res_value_str(e, buf, sizeof(buf)));
			report_kv(d, k, "%s", all);
		}
	}
}

/* An external router's environment per case (cases[].router_env, read after each
 * reboot) when it varied: one row per distinct OS and tunables, with how many cases ran
 * on it and which cells; the tunables shown are those that differ. Nothing when every
 * case ran on the same. */
static void router_env_rows(struct doc *d, const struct res_file *rf)
{
	json_t *first = NULL, *vary = json_object(), *groups = json_object(), *order = json_array();
	for (size_t k = 0; k < rf->ncases; k++) {   /* which tunables differ */
		const json_t *e = json_object_get(rf->cases[k].obj, "router_env");
		const json_t *t = json_object_get(e, "tunables");
		const char *key;
		json_t *v;
		if (!json_is_object(e))
			continue;
		if (!first) {
			first = jmut(e);
			continue;
		}
		json_object_foreach(jmut(t), key, v)
			if (!json_equal(v, json_object_get(json_object_get(first, "tunables"), key)))
				json_object_set_new(vary, key, json_true());
		json_object_foreach(json_object_get(first, "tunables"), key, v)
			if (!json_object_get(t, key))
				json_object_set_new(vary, key, json_true());
		if (!json_equal(json_object_get(e, "os"), json_object_get(first, "os")))
			json_object_set_new(vary, " os", json_true());
	}
	if (!first || !json_object_size(vary))
		goto out;
	for (size_t k = 0; k < rf->ncases; k++) {
		const struct res_case *c = &rf->cases[k];
		const json_t *e = json_object_get(c->obj, "router_env");
		if (!json_is_object(e))
			continue;
		const json_t *os = json_object_get(e, "os");
		const char *ver = json_string_value(json_object_get(os, "version"));
		const char *kern = json_string_value(json_object_get(os, "kernel"));
		char id[1024];
		size_t o = (size_t)snprintf(id, sizeof(id), "%s%s%s", ver ? ver : "?",
					    kern && (!ver || strcmp(ver, kern)) ? ", kernel " : "",
					    kern && (!ver || strcmp(ver, kern)) ? kern : "");
		const char *key;
		json_t *v;
		json_object_foreach(vary, key, v) {
			char val[128];
			if (key[0] == ' ' || o >= sizeof(id))
				continue;
			res_value_str(json_object_get(json_object_get(e, "tunables"), key), val,
				      sizeof(val));
			o += (size_t)snprintf(id + o, sizeof(id) - o, "; %s %s", key, val);
		}
		json_t *g = json_object_get(groups, id);
		if (!g) {
			g = json_pack("{s:i,s:o}", "n", 0, "cells", json_object());
			json_object_set_new(groups, id, g);
			json_array_append_new(order, json_string(id));
		}
		json_object_set_new(g, "n", json_integer(json_integer_value(json_object_get(g, "n")) + 1));
		json_object_set_new(json_object_get(g, "cells"), rf->cells[c->cell].key, json_true());
	}
	report_p(d, "The router's environment varied between cases (read again after each "
		 "reboot); the one above is the router at the start:");
	struct grid *gr = grid_new(3);
	if (gr && grid_add_row(gr) >= 0) {
		grid_set(gr, 0, 0, "router (OS; tunables that vary)");
		grid_set(gr, 0, 1, "cases");
		grid_set(gr, 0, 2, "cells");
		size_t i;
		json_t *idv;
		json_array_foreach(order, i, idv) {
			const json_t *g = json_object_get(groups, json_string_value(idv));
			long row = grid_add_row(gr);
			if (row < 0)
				break;
			char cells[600];
			size_t o = 0, n = 0;
			const char *ck;
			json_t *cv;
			cells[0] = 0;
			json_object_foreach(jmut(json_object_get(g, "cells")), ck, cv) {
				if (o < sizeof(cells))
					o += (size_t)snprintf(cells + o, sizeof(cells) - o, "%s%s",
							      n ? ", " : "", n < 6 ? ck : "...");
				if (++n > 6)
					break;
			}
			grid_set(gr, (size_t)row, 0, json_string_value(idv));
			grid_setf(gr, (size_t)row, 1, "%lld",
				  (long long)json_integer_value(json_object_get(g, "n")));
			grid_set(gr, (size_t)row, 2, cells);
		}
	}
	report_grid(d, gr);
out:
	json_decref(vary);
	json_decref(groups);
	json_decref(order);
}

static void by_headline(struct rep *r, struct doc *d);

/* A fit's cell as words: " (a=1, b=2)" with lead " (" and tail ")"; "" without params. */
static void fit_params_text(const json_t *row, const char *lead, const char *tail, char *buf,
			    size_t len)
{
	char v[64];
	size_t o = 0;
	const char *key;
	json_t *val;
	buf[0] = 0;
	json_object_foreach(json_object_get(row, "params"), key, val)
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", o ? ", " : lead, key,
					      res_value_str(val, v, sizeof(v)));
	if (o && o < len)
		snprintf(buf + o, len - o, "%s", tail);
}

static void headline(struct rep *r, struct doc *d, size_t nflag, size_t nfail)
{
	const struct res_file *rf = r->rf;
	char buf[1024], l[256], a[64], b[64];
	/* what was measured */
	size_t o = 0;
	buf[0] = 0;
	for (size_t k = 0; k < rf->naxes && o < sizeof(buf); k++)
		if (rf->axes[k].nvalues > 1)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s (%zu values)", o ? " × " : "",
					      rf->axes[k].name, rf->axes[k].nvalues);
	const char *m0 = r->nmetrics ? r->metrics[0] : "fwd_pps";
	name_label(m0, l, sizeof(l));
	char *paren = strstr(l, " (");
	if (paren)
		*paren = 0;
	json_t *reps = res_get(rf->root, "matrix", "repetitions", NULL);
	const char *trial = json_string_value(res_get(rf->root, "method", "trial", NULL));
	json_t *ts = res_get(rf->root, "method", "trial_s", NULL);
	char trials[128] = "";
	if (trial)
		snprintf(trials, sizeof(trials), ", %s trials%s%s%s", trial,
			 json_is_number(ts) ? " of " : "", json_is_number(ts) ?
			 res_value_str(ts, a, sizeof(a)) : "", json_is_number(ts) ? " s" : "");
	report_kv(d, "Measured", "%s (%s)%s%s: %zu cells, %s repetition%s each%s.", l, m0,
	     *buf ? " over " : "", buf, rf->ncells,
	     json_is_integer(reps) ? res_value_str(reps, b, sizeof(b)) : "?",
	     json_is_integer(reps) && json_integer_value(reps) == 1 ? "" : "s", trials);
	const char *desc = json_string_value(res_get(rf->root, "profile", "description", NULL));
	if (desc)
		report_kv(d, "Profile", "%s", desc);
	/* the sender, the sink and the topology are under Environment; the best and worst
	 * cells per offered load in the conclusion: the first screen keeps room for a
	 * figure */
	res_env_line(rf, "dut", buf, sizeof(buf));
	if (*buf)
		report_kv(d, "Device under test", "%s", buf);
	json_t *c = res_get(rf->root, "rig", "ceiling_pps", NULL);
	if (json_is_number(c))
		report_kv(d, "Rig ceiling", "%s (the sender and sink alone, without the DUT)",
		     report_human_unit("ceiling_pps", json_number_value(c), a, sizeof(a)));
	size_t i;
	json_t *row;
	json_array_foreach(r->fits, i, row) {
		if (i >= 4)
			break;
		char cells[256];
		fit_params_text(row, " (", ")", cells, sizeof(cells));
		if (!fit_rule_visible(json_number_value(json_object_get(row, "b_ns_per_rule")) * 1e-9,
				      json_number_value(json_object_get(row, "r2"))))
			report_kv(d, "Rule cost", "%s: no rule cost visible (b = %.3g ns, R² = %.2f)%s",
				  json_string_value(json_object_get(row, "metric")),
				  json_number_value(json_object_get(row, "b_ns_per_rule")),
				  json_number_value(json_object_get(row, "r2")), cells);
		else
			report_kv(d, "Rule cost", "%s: b = %.3g ns per rule per frame, a = %.3g µs, R² = %.3f%s",
			     json_string_value(json_object_get(row, "metric")),
			     json_number_value(json_object_get(row, "b_ns_per_rule")),
			     json_number_value(json_object_get(row, "a_s")) * 1e6,
			     json_number_value(json_object_get(row, "r2")), cells);
	}
	if (nflag || nfail)
		report_kv(d, "Flagged or failed", "%zu flagged and %zu failed of %zu cases (listed below)",
		     nflag, nfail, rf->ncases);
	else
		report_kv(d, "Flagged or failed", "none of %zu cases", rf->ncases);
	if (json_is_false(json_object_get(rf->root, "complete")))
		report_kv(d, "Incomplete", "the sweep did not finish (ppslab run --resume continues it)");
	if (r->o->base) {
		if (r->cmp) {
			o = 0;
			buf[0] = 0;
			for (int v = 0; v <= ST_INCONCLUSIVE && o < sizeof(buf); v++)
				if (r->cmp->counts[v])
					o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%zu %s", o ? ", " : "",
							      r->cmp->counts[v],
							      st_verdict_name((enum st_verdict)v));
			const char *bn = strrchr(r->o->base->path, '/');
			bn = bn ? bn + 1 : r->o->base->path;
			report_kv(d, "Against the baseline", "%s: %s", bn,
				  *buf ? buf : "no cell in common, nothing compared");
		} else {
			report_kv(d, "Against the baseline", "no comparison: %s", r->cmp_err);
		}
	}
	if (r->nby)
		by_headline(r, d);
}

/* ---- the conclusion in words ------------------------------------------------------ */

static double median_of(const struct res_file *rf, size_t c, const char *metric)
{
	struct res_stats st;
	if (res_cell_stats(rf, c, metric, &st, NULL) || !st.s.n)
		return NAN;
	return st.s.median;
}

static void plateaus(struct doc *d, const struct res_file *rf, const char *m0, double off);

/* What limited the router where: each cell of a rate metric is at the offered load,
 * on the polling bound (within 5 % of pollhz × burst_max), or below both (something
 * else: the CPU, the rules); the rule cost when a fit shows one. */
static void limits(struct rep *r, struct doc *d, const char *m0)
{
	const struct res_file *rf = r->rf;
	double off = model_fixed_offered(rf);
	size_t npoll = 0, noff = 0, nbelow = 0, nvalued = 0;
	double pollmax = 0, belowv = NAN, belowb = NAN;
	long belowc = -1;
	char a[64], b[64];
	for (size_t c = 0; c < rf->ncells; c++) {
		double v = median_of(rf, c, m0);
		if (!isfinite(v))
			continue;
		nvalued++;
		double bound = model_poll_bound(rf, rf->cells[c].params, m0, NAN, NAN);
		if (isfinite(off) && v >= 0.95 * off) {
			noff++;
		} else if (isfinite(bound) && v >= 0.95 * bound && v <= 1.05 * bound) {
			npoll++;
			pollmax = fmax(pollmax, v);
		} else if (isfinite(bound) && v < 0.95 * bound) {
			nbelow++;
			if (belowc < 0 || v > belowv) {
				belowc = (long)c;
				belowv = v;
				belowb = bound;
			}
		}
	}
	if (npoll)
		report_li(d, "%zu of %zu cells forward what polling allows (pollhz × burst_max per "
			  "port), up to %s.", npoll, nvalued, report_human_unit(m0, pollmax, a, sizeof(a)));
	if (noff)
		report_li(d, "%zu of %zu cells forward all of the offered load (%s): the sender, not "
			  "the router, is the limit there.", noff, nvalued,
			  report_human_unit("offered_pps", off, a, sizeof(a)));
	if (nbelow) {
		report_li(d, "%zu of %zu cells stay below the polling bound and the offered load: "
			  "something else limits them (CPU, firewall rules); the highest, %s, "
			  "forwards %s of a bound of %s.", nbelow, nvalued, rf->cells[belowc].key,
			  report_human_unit(m0, belowv, a, sizeof(a)),
			  report_human_unit(m0, belowb, b, sizeof(b)));
		plateaus(d, rf, m0, off);
	}
	size_t i, shown = 0, fitted = 0;
	json_t *row;
	json_array_foreach(r->fits, i, row) {
		double bns = json_number_value(json_object_get(row, "b_ns_per_rule"));
		double r2 = json_number_value(json_object_get(row, "r2"));
		const char *fm = json_string_value(json_object_get(row, "metric"));
		if (!fm || strcmp(fm, m0))
			continue;
		fitted++;
		if (!fit_rule_visible(bns * 1e-9, r2) || shown >= 3)
			continue;
		char cells[256];
		fit_params_text(row, " at ", "", cells, sizeof(cells));
		report_li(d, "Each firewall rule costs %.3g ns per frame%s (R² %.2f).", bns, cells, r2);
		shown++;
	}
	if (fitted && !shown)
		report_li(d, "No rule cost visible: the rate does not follow 1/(a + b·N) with b > 0.");
}

/* Whether cell c is below its polling bound and the offered load. */
static int held_below(const struct res_file *rf, size_t c, const char *m0, double off,
		      double *v)
{
	*v = median_of(rf, c, m0);
	double bound = model_poll_bound(rf, rf->cells[c].params, m0, NAN, NAN);
	return isfinite(*v) && isfinite(bound) && *v < 0.95 * bound &&
	       !(isfinite(off) && *v >= 0.95 * off);
}

/* The cells held below the bound, grouped by every axis but the first that varies: where
 * each group stops following the bound and the rate it is held at ("burst_max=150,
 * rules=10: held at 447–449 kpps from pollhz=3000 on"). At most four groups. */
static void plateaus(struct doc *d, const struct res_file *rf, const char *m0, double off)
{
	const char *x = NULL;
	for (size_t k = 0; k < rf->naxes && !x; k++)
		if (rf->axes[k].nvalues > 1)
			x = rf->axes[k].name;
	if (!x)
		return;
	unsigned char *done = calloc(rf->ncells + 1, 1);
	if (!done)
		return;
	size_t shown = 0;
	for (size_t c = 0; c < rf->ncells && shown < 4; c++) {
		double v;
		if (done[c] || !held_below(rf, c, m0, off, &v))
			continue;
		/* the group: the cells equal to c in every varying axis but x */
		double lo = v, hi = v;
		long first = (long)c;
		for (size_t e = c; e < rf->ncells; e++) {
			double w;
			int same = 1;
			for (size_t k = 0; k < rf->naxes && same; k++)
				if (rf->axes[k].nvalues > 1 && strcmp(rf->axes[k].name, x))
					same = res_value_eq(json_object_get(rf->cells[e].params, rf->axes[k].name),
							    json_object_get(rf->cells[c].params, rf->axes[k].name));
			if (!same || !held_below(rf, e, m0, off, &w))
				continue;
			done[e] = 1;
			lo = fmin(lo, w);
			hi = fmax(hi, w);
			json_t *xe = json_object_get(rf->cells[e].params, x);
			json_t *xf = json_object_get(rf->cells[first].params, x);
			if (json_is_number(xe) && json_is_number(xf) &&
			    json_number_value(xe) < json_number_value(xf))
				first = (long)e;
		}
		char grp[512] = "", val[128], a[64], b[64];
		size_t o = 0;
		for (size_t k = 0; k < rf->naxes && o < sizeof(grp); k++)
			if (rf->axes[k].nvalues > 1 && strcmp(rf->axes[k].name, x))
				o += (size_t)snprintf(grp + o, sizeof(grp) - o, "%s%s=%s", o ? ", " : "",
						      rf->axes[k].name,
						      res_value_str(json_object_get(rf->cells[c].params,
										    rf->axes[k].name),
								    val, sizeof(val)));
		report_human_unit(m0, lo, a, sizeof(a));
		report_human_unit(m0, hi, b, sizeof(b));
		/* "559,442–559,877 pps": the unit once */
		const char *ua = strrchr(a, ' '), *ub = strrchr(b, ' ');
		if (ua && ub && !strcmp(ua, ub))
			a[ua - a] = 0;
		res_value_str(json_object_get(rf->cells[first].params, x), val, sizeof(val));
		if (lo == hi)
			report_li(d, "%s%sheld at %s from %s=%s on.", grp, *grp ? ": " : "", a, x, val);
		else
			report_li(d, "%s%sheld at %s–%s from %s=%s on.", grp, *grp ? ": " : "", a, b, x,
				  val);
		shown++;
	}
	free(done);
}

/* Best and worst cell per offered load: across loads they compare nothing. */
static void best_worst(struct doc *d, const struct res_file *rf, const char *m0)
{
	static const char *const load_axes[] = { "load_pps", "intended_pps", "offered_pps",
						 "rate_pps", "load_pct", "load", "rate" };
	const struct res_axis *ax = NULL;
	for (size_t i = 0; i < sizeof(load_axes) / sizeof(load_axes[0]) && !ax; i++) {
		ax = res_axis(rf, load_axes[i]);
		if (ax && ax->nvalues < 2)
			ax = NULL;
	}
	int lower = name_lower_is_better(m0);
	size_t ngroups = ax ? ax->nvalues : 1, said = 0;
	char a[64], b[64], lv[64];
	for (size_t g = 0; g < ngroups; g++) {
		long best = -1, worst = -1;
		double vb = 0, vw = 0;
		size_t n = 0;
		for (size_t c = 0; c < rf->ncells; c++) {
			if (ax && !res_value_eq(json_object_get(rf->cells[c].params, ax->name),
						ax->values[g]))
				continue;
			double v = median_of(rf, c, m0);
			if (!isfinite(v))
				continue;
			n++;
			if (best < 0 || (lower ? v < vb : v > vb))
				best = (long)c, vb = v;
			if (worst < 0 || (lower ? v > vw : v < vw))
				worst = (long)c, vw = v;
		}
		if (n < 2)
			continue;
		double off = model_fixed_offered(rf);
		if (ax)
			snprintf(lv, sizeof(lv), "%s=%s", ax->name, res_value_str(ax->values[g], a,
										      sizeof(a)));
		else if (isfinite(off))
			snprintf(lv, sizeof(lv), "%s offered", report_human_unit("offered_pps", off, a,
										 sizeof(a)));
		else
			snprintf(lv, sizeof(lv), "all %zu cells", n);
		report_li(d, "%s %s: best %s, %s; worst %s, %s.", ax || isfinite(off) ? "At"
			  : "Across", lv, rf->cells[best].key,
			  report_human_unit(m0, vb, a, sizeof(a)), rf->cells[worst].key,
			  report_human_unit(m0, vw, b, sizeof(b)));
		said++;
	}
	if (ax && !said)
		report_li(d, "One cell per offered load: the load plot shows the rate at each.");
}

static void conclusion(struct rep *r, struct doc *d)
{
	const char *m0 = r->nmetrics ? r->metrics[0] : "fwd_pps";
	report_h(d, 2, "conclusion", "Conclusion");
	if (name_is_rate(m0))
		limits(r, d, m0);
	best_worst(d, r->rf, m0);
	report_list_end(d);
}

/* ---- --by AXIS: the values of one axis against the baseline value ---------------- */

/* The axis' values as files of their own (the baseline first) and each compared with
 * it, as ppslab compare --by does. 0, -EINVAL (err says why), -ENOMEM. */
static int by_setup(struct rep *r, char *err, size_t errlen)
{
	const struct res_file *rf = r->rf;
	const char *by = r->o->by;
	char list[512], vb[256];
	size_t n = 0, base = 0;
	const struct res_axis *ax = res_axis(rf, by);
	list[0] = 0;
	if (!ax) {
		for (size_t i = 0; i < rf->naxes && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
					      rf->axes[i].name);
		snprintf(err, errlen, "--by %s: %s has no such axis (axes: %s)", by, rf->path,
			 n ? list : "none");
		return -EINVAL;
	}
	for (size_t i = 0; i < ax->nvalues && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
				      res_value_str(ax->values[i], vb, sizeof(vb)));
	if (ax->nvalues < 2) {
		snprintf(err, errlen, "--by %s: %s has one value of it (%s): nothing to compare",
			 by, rf->path, list);
		return -EINVAL;
	}
	if (ax->nvalues > REPORT_MAX_BY) {
		snprintf(err, errlen, "--by %s: %zu values, more than the %d one report compares",
			 by, ax->nvalues, REPORT_MAX_BY);
		return -EINVAL;
	}
	if (r->o->by_baseline) {
		for (base = 0; base < ax->nvalues &&
		     !res_value_matches(ax->values[base], r->o->by_baseline); base++)
			;
		if (base == ax->nvalues) {
			snprintf(err, errlen, "--baseline %s: %s has no such value (values: %s)",
				 r->o->by_baseline, by, list);
			return -EINVAL;
		}
	}
	r->by_ax = ax;
	for (size_t k = 0; k < ax->nvalues; k++) {
		size_t i = k == 0 ? base : k <= base ? k - 1 : k;
		int rc = cmp_split(rf, by, ax->values[i], &r->by_rf[r->nby], err, errlen);
		if (rc)
			return rc == -ENOMEM ? rc : -EINVAL;
		r->by_val[r->nby++] = ax->values[i];
	}
	/* the metrics asked for, else the headline rates both values have */
	struct cmp_opts co = { .margin = r->o->margin > 0 ? r->o->margin : 0.02, .alpha = 0.05,
			       .floor = -1, .metrics = r->o->metrics, .nmetrics = r->o->nmetrics };
	for (size_t i = 1; i < r->nby; i++) {
		int rc = cmp_run(r->by_rf[0], r->by_rf[i], &co, &r->by_cmp[i], err, errlen);
		if (rc) {
			char e2[512];
			snprintf(e2, sizeof(e2), "%s", err);
			snprintf(err, errlen, "--by %s: %s", by, e2);
			return rc;
		}
	}
	return 0;
}

/* "2 REGRESSION, 3 EQUIVALENT" of one comparison, or what it could not compare. */
static char *verdict_counts(const struct cmp *c, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (int v = 0; v <= ST_INCONCLUSIVE && o < len; v++)
		if (c->counts[v])
			o += (size_t)snprintf(buf + o, len - o, "%s%zu %s", o ? ", " : "",
					      c->counts[v], st_verdict_name((enum st_verdict)v));
	if (!o)
		snprintf(buf, len, "no cell in common, nothing compared");
	return buf;
}

/* The headline line: each value against the baseline value. */
static void by_headline(struct rep *r, struct doc *d)
{
	char buf[1024], vb[128], bb[128], vc[256];
	size_t o = 0;
	buf[0] = 0;
	res_value_str(r->by_val[0], bb, sizeof(bb));
	for (size_t i = 1; i < r->nby && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s against %s: %s",
				      i > 1 ? "; " : "", res_value_str(r->by_val[i], vb, sizeof(vb)),
				      bb, verdict_counts(r->by_cmp[i], vc, sizeof(vc)));
	snprintf(vc, sizeof(vc), "By %s", r->by_ax->name);
	report_kv(d, vc, "%s", buf);
}

/* The section: per value its cells, cases, the headline metric over its cells and its
 * verdicts against the baseline; the values' environments side by side; each value's
 * comparison. */
static void by_section(struct rep *r, struct doc *d)
{
	const char *m0 = r->nmetrics ? r->metrics[0] : "fwd_pps";
	const char *axis = r->by_ax->name;
	char buf[1024], vb[128], a[64], b[64], c[64];
	snprintf(buf, sizeof(buf), "By %s", axis);
	report_h(d, 2, "by", buf);
	report_p(d, "The values of %s compared within this run, each cell matched by its other "
		 "params, against %s=%s (the baseline), as ppslab compare --by %s does. The "
		 "headline metric is %s: the geometric mean of the medians of the value's cells "
		 "(their median if one is zero), lowest–highest in parentheses.", axis, axis, res_value_str(r->by_val[0], vb, sizeof(vb)),
		 axis, m0);
	struct grid *g = grid_new(5);
	if (g && grid_add_row(g) >= 0) {
		grid_set(g, 0, 0, axis);
		grid_set(g, 0, 1, "cells");
		grid_set(g, 0, 2, "cases");
		grid_set(g, 0, 3, m0);
		grid_set(g, 0, 4, "against the baseline");
		for (size_t i = 0; i < r->nby; i++) {
			const struct res_file *f = r->by_rf[i];
			long row = grid_add_row(g);
			if (row < 0)
				break;
			double *med = calloc(f->ncells ? f->ncells : 1, sizeof(*med));
			size_t nm = 0;
			for (size_t k = 0; med && k < f->ncells; k++) {
				double v = median_of(f, k, m0);
				if (isfinite(v))
					med[nm++] = v;
			}
			struct st_summary s;
			if (nm && !st_summarize(med, nm, &s)) {
				/* the geometric mean, as the comparison's ratio; the median when a
				 * cell is zero (a loss of none) */
				double lg = 0;
				for (size_t k = 0; k < nm; k++)
					lg += med[k] > 0 ? log(med[k]) : NAN;
				int geo = isfinite(lg);
				report_human_unit(m0, geo ? exp(lg / (double)nm) : s.median, a, sizeof(a));
				report_human_unit(m0, s.min, b, sizeof(b));
				report_human_unit(m0, s.max, c, sizeof(c));
				/* "224,484 pps (49,863–559,877)": the unit once */
				const char *ua = strrchr(a, ' '), *ub = strrchr(b, ' '), *uc = strrchr(c, ' ');
				if (ua && ub && uc && !strcmp(ua, ub) && !strcmp(ua, uc)) {
					b[ub - b] = 0;
					c[uc - c] = 0;
				}
				grid_setf(g, (size_t)row, 3, "%s%s (%s–%s)", geo ? "" : "median ", a, b, c);
			} else {
				grid_set(g, (size_t)row, 3, "-");
			}
			free(med);
			grid_set(g, (size_t)row, 0, res_value_str(r->by_val[i], vb, sizeof(vb)));
			grid_setf(g, (size_t)row, 1, "%zu", f->ncells);
			grid_setf(g, (size_t)row, 2, "%zu", f->ncases);
			grid_set(g, (size_t)row, 4, i ? verdict_counts(r->by_cmp[i], buf, sizeof(buf))
				 : "baseline");
		}
	}
	report_grid(d, g);
	report_grid(d, cmp_env_grid((const struct res_file *const *)r->by_rf, r->nby));
	report_list_end(d);
	for (size_t i = 1; i < r->nby; i++) {
		cmp_print(d->f, r->by_cmp[i], d->fmt);
		fputc('\n', d->f);
	}
}

/* The method: its scalars, goals, the rig, the axes, repetitions and cases, and the
 * deviations from RFC 2544. */
static void method_section(struct doc *d, const struct res_file *rf, size_t nflag,
			   size_t nfail)
{
	char buf[1024];
	report_h(d, 2, "method", "Method");
	static const char *const skip[] = { "goals", "rfc2544_deviations", "tests", NULL };
	scalar_items(d, res_get(rf->root, "method", NULL), skip);
	size_t i;
	json_t *g;
	json_array_foreach(res_get(rf->root, "method", "tests", NULL), i, g) {
		/* a file of tests: each test's method on a line */
		char tb[512], vb[128];
		size_t o = 0;
		const char *k;
		json_t *v;
		tb[0] = 0;
		json_object_foreach(g, k, v)
			if (strcmp(k, "name") && o < sizeof(tb) && !json_is_object(v) &&
			    !json_is_array(v))
				o += (size_t)snprintf(tb + o, sizeof(tb) - o, "%s%s=%s", o ? ", " : "",
						      k, res_value_str(v, vb, sizeof(vb)));
		snprintf(buf, sizeof(buf), "test %s",
			 json_is_string(json_object_get(g, "name"))
			 ? json_string_value(json_object_get(g, "name")) : "?");
		report_kv(d, buf, "%s", tb);
	}
	json_array_foreach(res_get(rf->root, "method", "goals", NULL), i, g) {
		char gb[512];
		size_t o = 0;
		const char *k;
		json_t *v;
		gb[0] = 0;
		json_object_foreach(g, k, v)
			if (o < sizeof(gb) && !json_is_object(v) && !json_is_array(v))
				o += (size_t)snprintf(gb + o, sizeof(gb) - o, "%s%s=%s", o ? ", " : "",
						      k, res_value_str(v, buf, sizeof(buf)));
		report_kv(d, "goal", "%s", gb);
	}
	scalar_items(d, res_get(rf->root, "rig", NULL), NULL);
	for (size_t a = 0; a < rf->naxes; a++) {
		char vals[1024];
		size_t o = 0;
		vals[0] = 0;
		for (size_t k = 0; k < rf->axes[a].nvalues && o < sizeof(vals); k++)
			o += (size_t)snprintf(vals + o, sizeof(vals) - o, "%s%s", k ? ", " : "",
					      res_value_str(rf->axes[a].values[k], buf, sizeof(buf)));
		snprintf(buf, sizeof(buf), "axis %s", rf->axes[a].name);
		report_kv(d, buf, "%s", vals);
	}
	json_t *x;
	if ((x = res_get(rf->root, "matrix", "repetitions", NULL)) && json_is_integer(x))
		report_kv(d, "repetitions", "%lld per cell", (long long)json_integer_value(x));
	report_kv(d, "cases", "%zu in %zu cells; %zu flagged, %zu failed", rf->ncases, rf->ncells,
	     nflag, nfail);
	report_h(d, 3, NULL, "Deviations from RFC 2544");
	json_t *dev;
	json_array_foreach(res_get(rf->root, "method", "rfc2544_deviations", NULL), i, dev)
		if (json_is_string(dev))
			report_li(d, "%s", json_string_value(dev));
	char **devs = NULL;
	size_t ndev = 0;
	report_deviations(rf, &devs, &ndev);
	for (size_t k = 0; k < ndev; k++) {
		report_li(d, "%s", devs[k]);
		free(devs[k]);
	}
	free(devs);
	report_list_end(d);

}

/* The flagged and failed cases, a row each: cell, repetition, status, flags in words. */
static void flagged_section(struct doc *d, const struct res_file *rf)
{
	report_h(d, 2, "flagged", "Flagged and failed cases");
	struct grid *gr = grid_new(4);
	if (gr && grid_add_row(gr) >= 0) {
		grid_set(gr, 0, 0, "cell");
		grid_set(gr, 0, 1, "rep");
		grid_set(gr, 0, 2, "status");
		grid_set(gr, 0, 3, "flags");
		for (size_t k = 0; k < rf->ncases; k++) {
			const struct res_case *c = &rf->cases[k];
			if (!c->flagged && !c->failed)
				continue;
			long row = grid_add_row(gr);
			if (row < 0)
				break;
			char fl[1024];
			size_t o = 0;
			json_t *f;
			size_t j;
			fl[0] = 0;
			char fw[1024];
			json_array_foreach(json_object_get(c->obj, "flags"), j, f)
				if (o < sizeof(fl) && json_is_string(f))
					o += (size_t)snprintf(fl + o, sizeof(fl) - o, "%s%s",
							      j ? "; " : "",
							      pv_flag_words(json_string_value(f),
									    fw, sizeof(fw)));
			grid_set(gr, (size_t)row, 0, rf->cells[c->cell].key);
			grid_setf(gr, (size_t)row, 1, "%d", c->rep);
			grid_set(gr, (size_t)row, 2, c->status ? c->status : "-");
			grid_set(gr, (size_t)row, 3, fl);
		}
	}
	report_grid(d, gr);
}

static void emit(struct rep *r, struct doc *d)
{
	const struct res_file *rf = r->rf;
	const char *slash = strrchr(rf->path, '/');
	const char *fname = slash ? slash + 1 : rf->path;
	char buf[1024];
	size_t nflag = 0, nfail = 0;
	for (size_t k = 0; k < rf->ncases; k++) {
		nflag += rf->cases[k].flagged && !rf->cases[k].failed;
		nfail += rf->cases[k].failed;
	}

	snprintf(buf, sizeof(buf), "ppslab report: %s", rf->run_id ? rf->run_id : fname);
	report_h(d, 1, NULL, buf);
	if (d->fmt == GRID_HTML)
		fputs("<section class=\"headline\">\n", d->f);
	conclusion(r, d);
	headline(r, d, nflag, nfail);
	report_list_end(d);
	if (d->fmt == GRID_HTML) {
		fputs("</section>\n<nav>", d->f);
		if (r->o->plots)
			fputs("<a href=\"#plots\">Plots</a> · ", d->f);
		fputs("<a href=\"#results\">Results</a> · <a href=\"#method\">"
		      "Method</a> · <a href=\"#environment\">Environment</a>", d->f);
		if (nflag || nfail)
			fputs(" · <a href=\"#flagged\">Flagged and failed</a>", d->f);
		if (r->o->base)
			fputs(" · <a href=\"#comparison\">Comparison</a>", d->f);
		if (r->nby) {
			fputs(" · <a href=\"#by\">By ", d->f);
			grid_html_escape(d->f, r->by_ax->name);
			fputs("</a>", d->f);
		}
		fputs("</nav>\n", d->f);
	}

	if (r->o->plots) {
		report_h(d, 2, "plots", "Plots");
		if (!r->nplots)
			report_p(d, "Nothing to plot: no axis varies.");
		for (size_t k = 0; k < r->nplots; k++)
			report_plot_one(d, &r->plots[k]);
	}

	report_h(d, 2, "results", "Results");
	for (size_t m = 0; m < r->nmetrics; m++)
		report_results_table(d, rf, r->metrics[m]);
	struct grid *lg = lat_grid(rf, NULL);   /* NULL: no case has it */
	if (lg) {
		report_h(d, 3, NULL, "Latency at load (RFC 8219)");
		report_p(d, "One-way latency at percentages of each case's NDR (0 %%: a low probe "
			 "load), per frame size: typical is the median, worst-case the 99.9th "
			 "percentile, PDV the 99.9th percentile minus the minimum.");
		report_grid(d, lg);
	}
	if (json_array_size(r->fits)) {
		report_h(d, 3, NULL, "Rule cost: rate = 1/(a + b·N)");
		report_p(d, "Least squares of the time per frame, 1/rate, on the number of rules N over "
		       "the medians; b is what each rule costs each frame.");
		report_fits_table(d, r->fits);
	}

	method_section(d, rf, nflag, nfail);

	report_h(d, 2, "environment", "Environment");
	const struct res_file *one[] = { rf };
	report_grid(d, cmp_env_grid(one, 1));
	router_env_rows(d, rf);
	report_kv(d, "results file", "%s", fname);
	json_t *x;
	if ((x = json_object_get(rf->root, "created_utc")) && json_is_string(x))
		report_kv(d, "created", "%s", json_string_value(x));
	if ((x = json_object_get(rf->root, "updated_utc")) && json_is_string(x))
		report_kv(d, "updated", "%s", json_string_value(x));
	if ((x = res_get(rf->root, "tool", "version", NULL)) && json_is_string(x))
		report_kv(d, "tool", "ppslab %s", json_string_value(x));
	if ((x = res_get(rf->root, "tool", "cmdline", NULL)) && json_is_string(x))
		report_kv(d, "command", "%s", json_string_value(x));
	report_list_end(d);

	if (nflag || nfail)
		flagged_section(d, rf);

	if (r->o->base) {
		const struct res_file *base = r->o->base;
		const char *bs = strrchr(base->path, '/');
		snprintf(buf, sizeof(buf), "This run against the baseline %s",
			 bs ? bs + 1 : base->path);
		report_h(d, 2, "comparison", buf);
		const struct res_file *two[] = { base, rf };
		report_grid(d, cmp_env_grid(two, 2));
		if (!r->cmp) {
			report_p(d, "No comparison: %s", r->cmp_err);
		} else {
			report_list_end(d);
			cmp_print(d->f, r->cmp, d->fmt);
			fputc('\n', d->f);
			if (r->o->plots && r->cmp->nrows)
				report_plot_one(d, &r->cmp_plot);
		}
	}
	if (r->nby)
		by_section(r, d);
	char ts[64];
	fmt_utc(ts, sizeof(ts), time(NULL));
	report_p(d, "Generated by ppslab %s at %s.", ppslab_version(), ts);
	report_list_end(d);
}

static const char *const default_metrics[] = { "ndr_pps", "pdr_pps", "mrr_pps", "fwd_pps",
					       "mfr_pps", "fwd_pps_a", "fwd_pps_b", "loss_pct",
					       "lat_p50_ns", "lat_p99_ns", "cpu_s", "b2b_frames",
					       "b2b_implied_s", "b2b_corrected_s", "outage_longest_s",
					       "outage_loss_over_load_s", "outage_lost", "outage_reset_s",
					       "outage_recovery_s" };

static int listed(const char *const *v, size_t n, const char *m)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], m))
			return 1;
	return 0;
}

/* A metric with the same median as another in every cell (mfr_pps of fixed-load
 * trials is their fwd_pps): a second table of it says nothing new. */
static int same_medians(const struct res_file *rf, const char *a, const char *b)
{
	for (size_t c = 0; c < rf->ncells; c++) {
		struct res_stats sa, sb;
		if (res_cell_stats(rf, c, a, &sa, NULL) || res_cell_stats(rf, c, b, &sb, NULL))
			return 0;
		if (sa.s.n != sb.s.n || (sa.s.n && sa.s.median != sb.s.median))
			return 0;
	}
	return 1;
}

/* The page's style: readable type, tables with right-aligned tabular numbers, figures
 * that shrink with the window; nothing loaded from anywhere. */
static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:#1d232a;max-width:1180px;margin:1.5em auto;padding:0 1.2em}"
	"h1{font-size:1.5em;margin:.2em 0 .6em}h2{font-size:1.25em;margin-top:2em;"
	"border-bottom:1px solid #d8dde3;padding-bottom:.2em}h3{font-size:1.05em;margin-top:1.5em}"
	".headline{background:#f3f6f9;border:1px solid #d8dde3;border-radius:6px;padding:.4em 1em}"
	".headline ul{list-style:none;padding:0;margin:.4em 0}.headline li{margin:.25em 0}"
	".headline h2{margin-top:.4em}"
	"nav{margin:1em 0;color:#555}nav a{color:#0b5cad;text-decoration:none}"
	"table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.93em}"
	"th,td{border:1px solid #ccd3da;padding:3px 9px;text-align:left;vertical-align:top}"
	"th{background:#eef2f6}.r{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}p.block{font-weight:600;margin:.8em 0 .2em}"
	"figure{margin:1.2em 0}figure img{max-width:100%;height:auto;border:1px solid #e3e7eb}"
	"figcaption{color:#555;font-size:.9em}";

static int write_one(struct rep *r, const char *name, enum grid_fmt fmt, char *err,
		     size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", r->o->dir, name);
	struct safefile sf;   /* a temporary renamed over it, never a planted link */
	int rc = safe_create(&sf, path, 0644);
	if (rc) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		return rc;
	}
	FILE *f = sf.f;
	struct doc d = { .f = f, .fmt = fmt };
	if (fmt == GRID_HTML) {
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>ppslab report: ", f);
		grid_html_escape(f, r->rf->run_id ? r->rf->run_id : r->rf->path);
		fprintf(f, "</title>\n<style>%s</style></head><body>\n", css);
	}
	emit(r, &d);
	if (fmt == GRID_HTML)
		fputs("</body></html>\n", f);
	if ((rc = safe_commit(&sf, 0))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		return rc;
	}
	return 0;
}

int report_write(const struct res_file *rf, const struct report_opts *o,
		 size_t *plot_failures, char *err, size_t errlen)
{
	struct rep r = { .rf = rf, .o = o };
	int rc = 0;
	*plot_failures = 0;
	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		int e = errno;
		snprintf(err, errlen, "cannot make %s: %s", o->dir, strerror(e));
		return -e;
	}
	struct stat dst;   /* a directory someone else linked there is not ours to fill */
	if (lstat(o->dir, &dst) == 0 && S_ISLNK(dst.st_mode) && dst.st_uid != geteuid()) {
		snprintf(err, errlen, "%s is a symbolic link of another user (uid %u): not "
			 "writing through it", o->dir, (unsigned)dst.st_uid);
		return -EPERM;
	}
	r.metrics = calloc(rf->nmetrics + 1, sizeof(*r.metrics));
	if (!r.metrics)
		return -ENOMEM;
	if (o->nmetrics) {
		for (size_t i = 0; i < o->nmetrics; i++) {
			if (!res_has_metric(rf, o->metrics[i])) {
				snprintf(err, errlen, "--metric %s: no case in %s has this metric",
					 o->metrics[i], rf->path);
				rc = -EINVAL;
				goto out;
			}
			if (r.nmetrics < rf->nmetrics)
				r.metrics[r.nmetrics++] = o->metrics[i];
		}
	} else {
		int bidir = res_metric_has_values(rf, "fwd_pps_b");
		/* back-to-back bursts have no rate, loss or latency of their own */
		int b2b = res_metric_has_values(rf, "b2b_frames");
		/* an outage run's headline is its recipe's time: its rate is the load the
		 * method held (an overload, a stall), no router's limit to conclude on */
		const char *om = res_outage_metric(rf);
		if (om && res_metric_has_values(rf, om) && r.nmetrics < rf->nmetrics)
			r.metrics[r.nmetrics++] = om;
		/* every search goal's rate first (NDR, PDR by default) */
		for (size_t i = 0; i < RES_MAX_GOALS; i++) {
			const char *gm = res_goal_metric(rf, i);
			if (gm && !listed(r.metrics, r.nmetrics, gm) && r.nmetrics < rf->nmetrics)
				r.metrics[r.nmetrics++] = gm;
		}
		for (size_t i = 0; i < sizeof(default_metrics) / sizeof(default_metrics[0]); i++) {
			if (!bidir && !strncmp(default_metrics[i], "fwd_pps_", 8))
				continue;
			if (b2b && !res_metric_has_values(rf, default_metrics[i]))
				continue;
			if (!strcmp(default_metrics[i], "mfr_pps") && same_medians(rf, "mfr_pps", "fwd_pps"))
				continue;
			if (res_has_metric(rf, default_metrics[i]) &&
			    !listed(r.metrics, r.nmetrics, default_metrics[i]) && r.nmetrics < rf->nmetrics)
				r.metrics[r.nmetrics++] = default_metrics[i];
		}
	}
	r.fits = res_fits(rf);
	if (o->by && (rc = by_setup(&r, err, errlen)))
		goto out;
	if (o->base) {
		struct cmp_opts co = { .margin = o->margin > 0 ? o->margin : 0.02, .alpha = 0.05,
				       .floor = -1 };
		if (cmp_run(o->base, rf, &co, &r.cmp, r.cmp_err, sizeof(r.cmp_err)))
			r.cmp = NULL;
	}
	if (o->plots) {
		report_plan_plots(&r);
		report_draw_plots(&r, plot_failures);
	}
	if ((rc = write_one(&r, "report.md", GRID_MD, err, errlen)) ||
	    (rc = write_one(&r, "report.html", GRID_HTML, err, errlen)))
		goto out;
out:
	for (size_t i = 0; i < r.nplots; i++) {
		res_sel_free(&r.plots[i].where);
		free(r.plots[i].svg);
	}
	free(r.cmp_plot.svg);
	json_decref(r.fits);
	cmp_free(r.cmp);
	for (size_t i = 0; i < r.nby; i++) {
		cmp_free(r.by_cmp[i]);
		res_free(r.by_rf[i]);
	}
	free(r.metrics);
	return rc;
}
