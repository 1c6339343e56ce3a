// SPDX-License-Identifier: BSD-2-Clause
/* plot_timeline.c — the outage timeline (see plot_write.h): per case and stream of the
 * outage method, a row on a time axis in milliseconds relative to the action's instant
 * t0: the measured trial as a thin line, each gap of the sinks' lists as a bar from the
 * last frame before it to the first frame after it, the longest gap marked in its own
 * colour with its length (or the merged record that holds it), t0 as a vertical line,
 * and for the recovery recipe (RFC 2544 §26.5, where t0 is the load's drop A) its B,
 * the recovery time after t0, marked with its length on each row of its case. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "jout.h"
#include "plot_write.h"

#define ROWS_MAX 64

struct row {
	size_t cs;              /* the case */
	long stream;
	double from_ms, to_ms;  /* the measured trial, relative to t0 */
};

/* The rows: every stream with gaps or a rate of every outage case where selects. */
static size_t rows_of(const struct res_file *rf, const struct res_sel *where, struct row *rw)
{
	size_t n = 0;
	for (size_t c = 0; c < rf->ncases && n < ROWS_MAX; c++) {
		const struct res_case *rc = &rf->cases[c];
		if (where && !res_params_match(rc->params, where))
			continue;
		const json_t *o = json_object_get(json_object_get(rc->obj, "results"), "OUTAGE");
		if (!json_is_object(o) || !json_is_array(json_object_get(o, "gaps")))
			continue;
		/* the trial of the outage: the last of the case's */
		const json_t *tr = json_array_get(json_object_get(rc->obj, "trials"),
						  json_array_size(json_object_get(rc->obj, "trials")) - 1);
		double at = jnum(o, "at_s"), dur = jnum(tr, "duration_s");
		long streams[ROWS_MAX];
		size_t ns = 0, i;
		const json_t *g;
		const json_t *sk;
		size_t j;
		json_array_foreach(json_object_get(tr, "sink"), j, sk)   /* the sinks' streams */
			json_array_foreach(json_object_get(sk, "streams"), i, g)
				if (ns < ROWS_MAX)
					streams[ns++] = (long)json_integer_value(json_object_get(g, "stream"));
		json_array_foreach(json_object_get(o, "gaps"), i, g) {
			long s = (long)json_integer_value(json_object_get(g, "stream"));
			size_t k = 0;
			while (k < ns && streams[k] != s)
				k++;
			if (k == ns && ns < ROWS_MAX)
				streams[ns++] = s;
		}
		for (size_t k = 0; k < ns && n < ROWS_MAX; k++)
			rw[n++] = (struct row){ c, streams[k], isnan(at) ? NAN : -at * 1e3,
						isnan(at) || isnan(dur) ? NAN : (dur - at) * 1e3 };
	}
	return n;
}

int plot_write_timeline(struct fig *f, struct files *fs, const struct plot_out *o, char *err,
			size_t errlen)
{
	const struct res_file *rf = f->rf;
	struct row rw[ROWS_MAX];
	size_t n = rows_of(rf, f->rq->where, rw);
	if (!n)
		return fmt_err(-EINVAL, err, errlen, "--kind timeline: %s has no outage case "
			       "(trial.method \"outage\")%s", rf->path, f->rq->where ? " where "
			       "--where selects" : "");
	/* block 0: the trials, one line a row (y, from, to); block 1: the gaps as boxes
	 * (centre, y, half width, half height, lost frames); block 2: the longest of each
	 * case, the same, with its length as a label */
	FILE *d = fs->dat;
	double lo = 0, hi = 0;
	size_t longest_lines = 0;
	fputs("# row from_ms to_ms\n", d);
	for (size_t r = 0; r < n; r++) {
		plot_dat_num(d, (double)r);
		fputc(' ', d);
		plot_dat_num(d, rw[r].from_ms);
		fputc(' ', d);
		plot_dat_num(d, rw[r].to_ms);
		fputc('\n', d);
		lo = rw[r].from_ms < lo ? rw[r].from_ms : lo;
		hi = rw[r].to_ms > hi ? rw[r].to_ms : hi;
	}
	for (int b = 1; b <= 2; b++) {
		fputs(b == 2 ? "\n\n# centre_ms row half_ms half_row lost_pkts duration_ms "
		      "merged_gaps (the longest silence's length, in a record of merged_gaps)\n"
		      : "\n\n# centre_ms row half_ms half_row lost_pkts duration_ms merged_gaps\n",
		      d);
		size_t lines = 0;
		for (size_t r = 0; r < n; r++) {
			const json_t *o2 = json_object_get(json_object_get(rf->cases[rw[r].cs].obj,
									   "results"), "OUTAGE");
			const json_t *lg = json_object_get(o2, "longest");
			size_t i;
			const json_t *g;
			json_array_foreach(json_object_get(o2, "gaps"), i, g) {
				if ((long)json_integer_value(json_object_get(g, "stream")) != rw[r].stream)
					continue;
				double s = jnum(g, "start_ns") / 1e6, e = jnum(g, "end_ns") / 1e6;
				double mg = jnum(g, "merged_gaps");
				int longest = json_is_object(lg) && jnum(lg, "stream") == rw[r].stream &&
					      jnum(lg, "start_ns") / 1e6 == s && mg == 1;
				/* a merged record holding the longest silence (outage.c: its
				 * length and the record's ends known, not its start): the
				 * record marked, labelled with the silence's length */
				int within = !longest && json_is_object(lg) && mg > 1 &&
					     jnum(lg, "stream") == rw[r].stream &&
					     jnum(lg, "merged_gaps") == mg &&
					     jnum(lg, "within_start_ns") / 1e6 == s &&
					     jnum(lg, "within_end_ns") / 1e6 == e;
				if ((b == 2) != (longest || within))
					continue;
				plot_dat_num(d, (s + e) / 2);
				fputc(' ', d);
				plot_dat_num(d, (double)r);
				fputc(' ', d);
				plot_dat_num(d, (e - s) / 2);
				fputs(b == 2 ? " 0.3 " : " 0.2 ", d);
				plot_dat_num(d, jnum(g, "lost_pkts"));
				fputc(' ', d);
				plot_dat_num(d, within ? jnum(lg, "duration_ns") / 1e6 : e - s);
				fputc(' ', d);
				plot_dat_num(d, within ? mg : 1);
				fputc('\n', d);
				lo = s < lo ? s : lo;
				hi = e > hi ? e : hi;
				lines++;
			}
		}
		if (!lines)   /* an empty block would shift gnuplot's indices */
			fputs("NaN NaN NaN NaN NaN NaN NaN\n", d);
		if (b == 2)
			longest_lines = lines;
	}
	/* block 3: the recovery recipe's B (RFC 2544 §26.5), on each row of its case: t0 is
	 * A, the load's drop, so B lies at the recovery time after it */
	fputs("\n\n# recovery_ms row\n", d);
	size_t rcv_lines = 0;
	for (size_t r = 0; r < n; r++) {
		const json_t *rv = json_object_get(json_object_get(json_object_get(
			rf->cases[rw[r].cs].obj, "results"), "OUTAGE"), "recovery");
		double ms = jnum(rv, "recovery_ns") / 1e6;
		if (!isfinite(ms))
			continue;
		plot_dat_num(d, ms);
		fputc(' ', d);
		plot_dat_num(d, (double)r);
		fputc('\n', d);
		hi = ms > hi ? ms : hi;
		rcv_lines++;
	}
	if (!rcv_lines)
		fputs("NaN NaN\n", d);
	char sub[512], foot[512];
	plot_subtitle_of(rf, sub, sizeof(sub));
	plot_footer_of(rf, foot, sizeof(foot));
	plot_gp_header(fs, o, f->rq->title ? f->rq->title
		       : "Outage timeline: gaps of each stream around the action at t0", sub, foot,
		       NULL);
	FILE *gp = fs->gp;
	plot_gp_set_str(gp, "xlabel", "time after the action t0 (ms)");
	plot_gp_set_str(gp, "ylabel", "");
	/* room on the right for the longest gap's label */
	double pad = (hi - lo) * 0.03 + 1;
	fprintf(gp, "set xrange [%.6g:%.6g]\nset yrange [-0.8:%.1f]\n", lo - pad, hi + 8 * pad,
		(double)n - 0.2);
	fputs("set ytics (", gp);
	for (size_t r = 0; r < n; r++) {
		char t[300];
		const struct res_case *rc = &rf->cases[rw[r].cs];
		snprintf(t, sizeof(t), "%s%s#%d stream %ld", rf->cells[rc->cell].key,
			 rf->cells[rc->cell].key[0] ? " " : "", rc->rep, rw[r].stream);
		fputs(r ? ", " : "", gp);
		plot_gp_str(gp, t);
		fprintf(gp, " %zu", r);
	}
	fputs(")\n", gp);
	fputs("set arrow 1 from 0, graph 0 to 0, graph 1 nohead lw 2 lc rgb '#404040' dt 2\n", gp);
	fputs("set label 1 't0' at 0, graph 1 offset 0.5,-1 left\n", gp);
	fputs("set style fill solid 0.8 noborder\nset key bottom right opaque\n", gp);
	fputs("plot ", gp);
	plot_gp_dat_ref(gp, fs, 1);
	fputs(" index 0 u 2:1:($3-$2):(0) w vectors nohead lw 1 lc rgb '#909090' ", gp);
	plot_gp_title(gp, 1, "measured trial");
	plot_gp_dat_ref(gp, fs, 0);
	fputs(" index 1 u 1:2:3:4 w boxxyerror lc rgb '#e69f00' ", gp);
	plot_gp_title(gp, 1, "gap (last frame before to first after)");
	plot_gp_dat_ref(gp, fs, 0);
	fputs(" index 2 u 1:2:3:4 w boxxyerror lc rgb " "'" PLOT_FLAGGED_RGB "' ", gp);
	plot_gp_title(gp, !!longest_lines, "longest gap");
	/* no label without a longest gap: gnuplot 5.4 crashes on a label from a NaN row */
	if (longest_lines) {
		plot_gp_dat_ref(gp, fs, 0);
		fputs(" index 2 u ($1+$3):2:($7 > 1 ? sprintf('%.3f ms, within %d merged gaps', "
		      "$6, $7) : sprintf('%.3f ms, %d lost', $6, $5)) w labels left offset 1,0 "
		      "notitle", gp);
	}
	/* the recovery's B: only when a case has one (no label from a NaN row) */
	if (rcv_lines) {
		plot_gp_dat_ref(gp, fs, 0);
		fputs(" index 3 u 1:2:(0):(0.35) w vectors nohead lw 3 lc rgb '#0072b2' ", gp);
		plot_gp_title(gp, 1, "recovery: last frame lost (B)");
		plot_gp_dat_ref(gp, fs, 0);
		fputs(" index 3 u 1:($2+0.35):(sprintf('recovery %.3f ms', $1)) w labels left "
		      "offset 0.5,0.5 tc rgb '#0072b2' notitle", gp);
	}
	fputc('\n', gp);
	return 0;
}
