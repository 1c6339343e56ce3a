/* SPDX-License-Identifier: BSD-2-Clause */
/* plot_kinds.c — plot_results (see plot.h) and the kinds drawn as lines and points:
 * line, load, frame size (the box plot is in plot_box.c, the heatmap in plot_heatmap.c).
 * Each kind builds a pivot (pivot.c), so a plot shows exactly the medians `ppslab table`
 * prints for the same axes, and turns it into a figure (plot_fig.c): one panel per block
 * of the pivot (small multiples, when more axes vary than the kind shows), one series
 * per column. The figure's scales come from the data (plot_scale.c), overlapping series
 * are told apart, cells with a flagged repetition are marked where the table puts its
 * '*' (the notes say why), and the project's models are drawn beside the measurement
 * (model.h: the polling bound, the rule-cost fit; the rig's ceiling). Called by
 * plot.c (for cmd_plot.c and run_print.c) and report_plot.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "axes.h"
#include "fmt.h"
#include "model.h"
#include "names.h"
#include "pivot.h"
#include "plot_write.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

/* The axes report_plot.c also looks for. */
static const char *const load_axes[] = { "load_pps", "intended_pps", "offered_pps",
					 "rate_pps", "load_pct", "load", NULL };
static const char *const size_axes[] = { "frame_size", "size", "wire_size", NULL };

static int write_line(struct fig *f, struct files *fs, const struct plot_out *o,
		      const char *const *metrics, size_t nm, char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	struct pivot *pv;
	int rc = plot_pivot(f->rf, rq->x, rq->by, metrics, nm, rq->where, &pv, err, errlen);
	if (rc || (rc = plot_check_lines(&pv, 1, err, errlen)))
		return rc;
	plot_fig_common(f, pv);
	f->bound = f->rate && axis_find(pv->row_axis) && axis_find(pv->row_axis)->poll_bound;
	f->offered = f->rate ? plot_fixed_offered(f->rf) : NAN;
	if ((rc = plot_build_xy(f, pv, 1, 0, 0)) || (rc = plot_note_flags(f, pv, "framed markers")))
		goto out;
	char l[256];
	snprintf(f->xlabel, sizeof(f->xlabel), "%s", name_label(pv->row_axis, l, sizeof(l)));
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		plot_default_title(pv, pv->row_axis, "vs", f->title, sizeof(f->title));
	plot_decide_x(f);
	plot_find_identical(f, pv->row_axis);
	if (f->bound)
		plot_analyze_bound(f);
	if (f->xnum && model_is_rules_axis(pv->row_axis))
		plot_analyze_fit(f);
	rc = plot_write_xy(f, fs, o);
out:
	pv_free(pv);
	return rc;
}

static const char *first_axis_of(const struct res_file *rf, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (res_axis(rf, names[i]))
			return names[i];
	return NULL;
}

static int write_load(struct fig *f, struct files *fs, const struct plot_out *o, char *err,
		      size_t errlen)
{
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	const char *x = rq->x ? rq->x : first_axis_of(rf, load_axes);
	const char *fr = rq->nmetrics ? rq->metrics[0] : "fwd_pps";
	int has_off = res_has_metric(rf, "offered_pps"), has_loss = res_has_metric(rf, "loss_pct");
	const char *m[3];
	size_t nm = 0;
	m[nm++] = fr;
	if (has_off)
		m[nm++] = "offered_pps";
	if (has_loss)
		m[nm++] = "loss_pct";
	struct pivot *pv;
	int rc = plot_pivot(rf, x, rq->by, m, nm, rq->where, &pv, err, errlen);
	if (rc || (rc = plot_check_lines(&pv, nm, err, errlen)))
		return rc;
	if (!has_off && !plot_rows_numeric(pv)) {
		rc = fail(err, errlen, "--x %s: the offered load must be a number (no "
			  "offered_pps metric either)", pv->row_axis);
		goto out;
	}
	plot_fig_common(f, pv);
	f->rate = name_is_rate(fr);
	f->ceiling = f->rate ? plot_rig_ceiling(rf) : NAN;
	char l[256];
	f->yscale = 1;
	snprintf(f->ylabel, sizeof(f->ylabel), "%s", name_label(fr, l, sizeof(l)));
	if ((rc = plot_build_xy(f, pv, nm, has_off, has_loss)) ||
	    (rc = plot_note_flags(f, pv, "framed markers")))
		goto out;
	f->xnum = 1;   /* x is the offered load, a number */
	snprintf(f->xlabel, sizeof(f->xlabel), "%s", has_off ? "offered load (packets/s)"
		 : name_label(pv->row_axis, l, sizeof(l)));
	if (has_loss)
		snprintf(f->y2label, sizeof(f->y2label), "frame loss (%%)");
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		snprintf(f->title, sizeof(f->title), "Forwarding rate%s vs offered load (RFC "
			 "2285/2889)%s%s%s", has_loss ? " and loss" : "", *pv->fixed ? " (" : "",
			 pv->fixed, *pv->fixed ? ")" : "");
	plot_decide_x(f);
	plot_analyze_mfr(f);
	rc = plot_write_xy(f, fs, o);
out:
	pv_free(pv);
	return rc;
}

static int write_framesize(struct fig *f, struct files *fs, const struct plot_out *o,
			   char *err, size_t errlen)
{
	const struct plot_req *rq = f->rq;
	const struct res_file *rf = f->rf;
	const char *x = rq->x ? rq->x : "frame_size";
	if (!res_axis(rf, x))
		return fail(err, errlen, "--x %s: %s has no such axis; a frame-size plot needs "
			    "the frame size as an axis (give it with --x)", x, rf->path);
	const char *m[4];
	size_t nm = 0;
	if (rq->nmetrics) {
		for (size_t i = 0; i < rq->nmetrics && nm < 4; i++)
			m[nm++] = rq->metrics[i];
	} else {
		/* the search's goals (NDR and PDR by default), a line each */
		for (size_t i = 0; i < RES_MAX_GOALS && nm < 4; i++)
			if (res_goal_metric(rf, i))
				m[nm++] = res_goal_metric(rf, i);
		if (!nm && res_has_metric(rf, "ndr_pps"))   /* a file without its goals */
			m[nm++] = "ndr_pps";
		if (nm < 2 && res_has_metric(rf, "pdr_pps") && !res_goal_metric(rf, 0))
			m[nm++] = "pdr_pps";
		if (!nm)
			m[nm++] = "fwd_pps";
	}
	struct pivot *pv;
	int rc = plot_pivot(rf, x, rq->by, m, nm, rq->where, &pv, err, errlen);
	if (rc || (rc = plot_check_lines(&pv, 1, err, errlen)))
		return rc;
	if (!plot_rows_numeric(pv)) {
		rc = fail(err, errlen, "--x %s: frame sizes must be numbers", x);
		goto out;
	}
	plot_fig_common(f, pv);
	f->link_bps = rq->link_bps;
	if (!(f->link_bps > 0)) {
		json_t *sp = res_get(rf->root, "environment", "dut", "nics", NULL);
		sp = json_object_get(json_array_get(sp, 0), "speed_mbps");
		if (json_is_number(sp) && json_number_value(sp) > 0)
			f->link_bps = json_number_value(sp) * 1e6;
	}
	if ((rc = plot_build_xy(f, pv, 1, 0, 0)) || (rc = plot_note_flags(f, pv, "framed markers")))
		goto out;
	snprintf(f->xlabel, sizeof(f->xlabel), "frame size (bytes, with FCS)");
	snprintf(f->ylabel, sizeof(f->ylabel), "throughput (frames/s)");
	if (rq->title)
		snprintf(f->title, sizeof(f->title), "%s", rq->title);
	else
		snprintf(f->title, sizeof(f->title), "Throughput vs frame size (RFC 2544 §26.1)%s%s%s",
			 *pv->fixed ? " (" : "", pv->fixed, *pv->fixed ? ")" : "");
	plot_decide_x(f);
	plot_find_identical(f, "frame size");
	rc = plot_write_xy(f, fs, o);
out:
	pv_free(pv);
	return rc;
}

static const char *varying_axis_of(const struct res_file *rf, const char *const *names)
{
	for (size_t i = 0; names[i]; i++) {
		const struct res_axis *a = res_axis(rf, names[i]);
		if (a && a->nvalues > 1)
			return names[i];
	}
	return NULL;
}

void plot_default_kind(const struct res_file *rf, struct plot_req *rq)
{
	const char *fs = varying_axis_of(rf, size_axes), *ld = varying_axis_of(rf, load_axes);
	const struct res_axis *fa = fs ? res_axis(rf, fs) : NULL;
	for (size_t i = 0; fa && i < fa->nvalues; i++)
		if (!json_is_number(fa->values[i]))
			fs = NULL;   /* a word among the sizes ("imix"): no frame-size axis to draw */
	rq->kind = PLOT_LINE;
	/* an outage run's figure is its timeline; a run of one cell's, its latency at
	 * load when it has one (it has no axis for a line) */
	if (res_get(rf->root, "method", "outage", NULL)) {
		rq->kind = PLOT_TIMELINE;
		return;
	}
	for (size_t i = 0; !rf->naxes && i < rf->nmetrics; i++)
		if (!strncmp(rf->metrics[i], "latload.", 8)) {
			rq->kind = PLOT_LATLOAD;
			return;
		}
	if (fs && (!rq->x || !strcmp(rq->x, fs)) && (res_goal_metric(rf, 0) || res_has_metric(rf, "ndr_pps") ||
		   res_has_metric(rf, "pdr_pps") || res_has_metric(rf, "fwd_pps"))) {
		rq->kind = PLOT_FRAMESIZE;
		if (!rq->x)
			rq->x = fs;
		return;
	}
	if (ld && (!rq->x || !strcmp(rq->x, ld)) && res_has_metric(rf, "fwd_pps"))
		rq->kind = PLOT_LOAD;
}

int plot_results(const struct res_file *rf, const struct plot_req *rq,
		 const struct plot_out *o, char *err, size_t errlen)
{
	struct files fs;
	int rc = plot_files_open(&fs, o, err, errlen);
	if (rc) {
		plot_files_close(&fs, 1);
		return rc;
	}
	const char *metric = rq->nmetrics ? rq->metrics[0] : "fwd_pps";
	static const char *const def[] = { "fwd_pps" };
	struct fig f = { .rf = rf, .rq = rq, .kind = rq->kind, .yscale = 1, .x0 = NAN,
			 .y0 = NAN, .ceiling = NAN, .offered = NAN };
	switch (rq->kind) {
	case PLOT_LINE:
		rc = write_line(&f, &fs, o, rq->nmetrics ? rq->metrics : def,
				rq->nmetrics ? rq->nmetrics : 1, err, errlen);
		break;
	case PLOT_HEATMAP:
		rc = plot_write_heatmap(&f, &fs, o, metric, err, errlen);
		break;
	case PLOT_LOAD:
		rc = write_load(&f, &fs, o, err, errlen);
		break;
	case PLOT_FRAMESIZE:
		rc = write_framesize(&f, &fs, o, err, errlen);
		break;
	case PLOT_BOX:
		rc = plot_write_box(&f, &fs, o, metric, err, errlen);
		break;
	case PLOT_LATLOAD:
		rc = plot_write_latload(&f, &fs, o, err, errlen);
		break;
	case PLOT_TIMELINE:
		rc = plot_write_timeline(&f, &fs, o, err, errlen);
		break;
	}
	plot_fig_free(&f);
	return plot_files_finish(&fs, rc, err, errlen);
}
