/* SPDX-License-Identifier: BSD-2-Clause */
/* run_print.c — the end of a run: the summary, the table and the plot (see run_impl.h) */
#include "run_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "model.h"
#include "pivot.h"
#include "plot.h"

/* --- the end: summary, table, plot ----------------------------------------------------- */

void run_finish_outputs(json_t *root, const char *out)
{
	struct res_file *rf = NULL;
	char err[512];
	if (res_from_json(root, out, &rf, err, sizeof(err)) == 0) {
		json_t *sum = res_summary(rf);
		if (sum)
			json_object_set_new(root, "summary", sum);
		/* the rule-cost model beside the medians it was fitted to (model.h) */
		json_t *fits = res_fits(rf);
		if (fits && json_array_size(fits))
			json_object_set_new(root, "fits", fits);
		else
			json_decref(fits);
		res_free(rf);
	} else {
		log_warn("summary not computed: %s", err);
	}
}

static bool swept(const struct profile *p, const char *axis, size_t len)
{
	if (p->ntests && len == 4 && !strncmp(axis, "test", 4))
		return true;   /* a results file of tests has this axis first */
	for (size_t i = 0; i < p->naxes; i++)
		if (strlen(p->axes[i].name) == len && !strncmp(p->axes[i].name, axis, len))
			return true;
	return false;
}

/* An output setting as it applies to this run: --set may have fixed an axis the
 * profile's table or plot names (rows, x, by, a where condition); such a name is
 * dropped (defaults apply) rather than failing the table. Returns NULL to drop. */
static const char *applies(const struct profile *p, const char *key, const char *val, char *buf,
			   size_t len, bool *dropped)
{
	bool axis_key = !strcmp(key, "rows") || !strcmp(key, "x") || !strcmp(key, "y") ||
			!strcmp(key, "by") || (!strcmp(key, "cols") && !strchr(val, '='));
	if (axis_key)   /* with the first axis gone, the second takes its place */
		return swept(p, val, strlen(val)) && !*dropped ? val
		       : ((*dropped = true), NULL);
	if (strcmp(key, "where"))
		return val;
	size_t n = 0;
	buf[0] = 0;
	for (const char *c = val; *c;) {
		size_t l = strcspn(c, ","), eq = strcspn(c, "=");
		if (eq < l && swept(p, c, eq) && n + l + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? "," : "", (int)l, c);
		c += l + (c[l] == ',');
	}
	return n ? buf : NULL;
}

/* A run without swept axes has one cell: no pivot to make, its metrics as lines. */
static void print_single_cell(const struct profile *p, const json_t *root)
{
	json_t *sum = json_object_get(root, "summary"), *row;
	size_t i;
	printf("\n%s, one cell (no axis swept)\n", p->name);
	json_array_foreach(sum, i, row) {
		const char *m = json_string_value(json_object_get(row, "metric"));
		const json_t *med = json_object_get(row, "median");
		if (m && json_is_number(med))
			printf("  %-22s %.6g%s\n", m, json_number_value(med),
			       json_integer_value(json_object_get(row, "n")) > 1 ? " (median)" : "");
	}
}

/* The run's deviations from RFC 2544 (method.rfc2544_deviations), a line each. */
static void print_deviations(const json_t *root)
{
	const json_t *l = json_object_get(json_object_get(root, "method"), "rfc2544_deviations");
	size_t i;
	const json_t *d;
	if (!json_array_size(l))
		return;
	printf("\ndeviations from RFC 2544 (method.rfc2544_deviations):\n");
	json_array_foreach(l, i, d)
		if (json_is_string(d))
			printf("  - %s\n", json_string_value(d));
}

/* An output.table or output.plot word as it applies to this run (applies()), NULL when
 * the profile does not give it or --set dropped it. */
static const char *word(const struct profile *p, const json_t *o, const char *key, char *buf,
			size_t len, bool *dropped)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? applies(p, key, json_string_value(v), buf, len, dropped)
	       : NULL;
}

/* Where the plot goes: --plot; else the profile's output.plot.output when the results go
 * to the profile's own output.results; else (-o elsewhere) beside the results file and
 * named after it, with the profile's plot type, so that a second run with -o never
 * writes over the plot of the first (README: `run demo` then `run demo ... -o sweep.json`
 * makes demo-out/demo.png and sweep.png). NULL when there is no plot to write. */
static const char *plot_path(const struct profile *p, const struct run_opts *o, const char *out,
			     const char *prof_plot, char *buf, size_t len)
{
	if (o->plot)
		return o->plot;
	if (!prof_plot)
		return NULL;
	if (!o->out || (p->results && !strcmp(o->out, p->results)))
		return prof_plot;
	const char *ext = strrchr(prof_plot, '.'), *slash = strrchr(out, '/');
	const char *dot = strrchr(out, '.');
	size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - out) : strlen(out);
	if (!ext || strchr(ext, '/'))
		ext = ".png";
	if (stem + strlen(ext) + sizeof("-plot") > len) {
		log_err("%s: too long a name to put the plot beside it: give --plot", out);
		return NULL;
	}
	snprintf(buf, len, "%.*s%s", (int)stem, out, ext);
	if (!strcmp(buf, out))   /* -o x.png: never the results file itself */
		snprintf(buf, len, "%.*s-plot%s", (int)stem, out, ext);
	return buf;
}

void run_print_table_plot(const struct profile *p, const struct run_opts *o, const char *out,
			  const json_t *root)
{
	char wbuf[2][512], err[4096];
	bool dropped[2] = { false, false };
	const json_t *tab = json_object_get(p->output, "table");
	const json_t *plot = json_object_get(p->output, "plot");
	if (p->naxes == 0 && !p->ntests) {
		print_single_cell(p, root);
		if (!o->no_table)
			print_deviations(root);
		/* a timeline needs no axis: its rows are the cases */
		const char *k = json_string_value(json_object_get(plot, "kind"));
		if (!k || strcmp(k, "timeline"))
			return;
	} else if (!o->no_table) {
		char *b = wbuf[0];
		size_t l = sizeof(wbuf[0]);
		bool *d = &dropped[0];
		/* in this order: where shares one buffer, and an axis dropped before shifts
		 * the ones after */
		struct pv_text t;
		t.rows = word(p, tab, "rows", b, l, d);
		t.cols = word(p, tab, "cols", b, l, d);
		t.metric = word(p, tab, "metric", b, l, d);
		t.where = word(p, tab, "where", b, l, d);
		t.show = word(p, tab, "show", b, l, d);
		t.row_label = word(p, tab, "row_label", b, l, d);
		t.title = word(p, tab, "title", b, l, d);
		printf("\n");
		fflush(stdout);
		err[0] = 0;
		int rc = pv_table_text(stdout, out, &t, err, sizeof(err));
		if (rc && rc != -EIO && err[0])   /* a closed stdout has nobody to tell */
			log_err("%s", err);
		print_deviations(root);
	}
	char pbuf[4096];
	const char *plotfile = plot_path(p, o, out, json_string_value(json_object_get(plot, "output")),
					 pbuf, sizeof(pbuf));
	if (plotfile) {
		char *b = wbuf[1];
		size_t l = sizeof(wbuf[1]);
		bool *d = &dropped[1];
		struct plot_text t;
		t.kind = word(p, plot, "kind", b, l, d);
		t.x = word(p, plot, "x", b, l, d);
		t.y = word(p, plot, "y", b, l, d);
		t.by = word(p, plot, "by", b, l, d);
		t.metric = word(p, plot, "metric", b, l, d);
		t.where = word(p, plot, "where", b, l, d);
		t.title = word(p, plot, "title", b, l, d);
		t.output = plotfile;
		err[0] = 0;
		if (plot_results_text(out, &t, stdout, err, sizeof(err)) && err[0])
			log_err("%s", err);
	}
}
