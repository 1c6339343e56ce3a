/* SPDX-License-Identifier: BSD-2-Clause */
/* gen_report.h — what ppslab-gen prints: one line per interval under a header (or one JSON
 * object per interval), and the summary.
 *
 * The reporter runs in the main thread and only reads the workers' counters
 * (gen_snapshot, gen_gaps) and the interface's own counters (ifinfo.h), so every line
 * shows the sender's claim next to the kernel's: frames attempted, accepted, failed,
 * the ring found full, sent late, and what the interface says it transmitted. */
#ifndef PPSLAB_GEN_GEN_REPORT_H
#define PPSLAB_GEN_GEN_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "gen.h"
#include "hist.h"
#include "ifinfo.h"
#include "jout.h"

/* What the summary says about the run's settings (text main.c resolved). */
struct gen_info {
	const char *mode;          /* "send" or "replay" */
	const char *rate_text;     /* the --rate / --steps / --ramp as given */
	const char *profile;       /* "constant", "steps", "ramp" or "max" */
	const char *replay_file;
	char src[96], dst[96];     /* addresses or ranges (IPv6: two of 45 characters) */
	char sport[16], dport[16];
	double mean_wire;          /* mean frame size with FCS */
	double link_bps;           /* 0: not given */
	uint64_t start_at_ns;      /* --start-at, CLOCK_REALTIME; 0: not given */
};

struct gen_report {
	FILE *out;
	int json;
	struct gen *g;
	const struct gen_info *info;
	char ifname[IFINFO_NAMESZ];    /* "" when the port has no interface we can read */
	int have_if;
	struct if_counters if0, if_prev;
	uint64_t t_prev;               /* ns after g->start_ns of the previous line */
	struct gen_snap prev;
	struct hist gaps_prev;
};

/* Reads the interface's counters at the start. ifname may be "". */
void gen_report_init(struct gen_report *r, struct gen *g, const struct gen_info *info,
		     const char *ifname, int json, FILE *out);
void gen_report_header(struct gen_report *r);
/* One interval, from the previous one to now (CLOCK_MONOTONIC). */
void gen_report_interval(struct gen_report *r, uint64_t now_ns);
/* The summary, after gen_join. sig: the signal that stopped the run, or 0. */
void gen_report_summary(struct gen_report *r, int sig);

/* The summary's rate verdict, shared with calibration: the achieved rate over the
 * measured frames against the rate their own deadlines asked for. */
struct gen_verdict {
	uint64_t duration_ns;      /* first to last measured batch */
	double pps;                /* (n − 1) / duration: n frames span n − 1 gaps; NaN with
				    * fewer than 2 frames or all in one batch */
	double target_pps;         /* the same statistic of their deadlines; NaN when max */
	double rate_error_pct;
	double shortfall_pct;      /* frames that left (accepted − failed) against frames the
				    * schedule asked for; as fast as possible, −failed/accepted */
	int rate_ok;               /* error within 0.5 % (or within late_ns of the schedule's
				    * span), shortfall within 0.5 %, and something was sent */
};
void gen_verdict(const struct gen *g, const struct gen_snap *s, struct gen_verdict *v);

/* Gap histogram as JSON: count, min, mean, p50, p90, p99, p999, max, nominal_ns and
 * the non-empty power-of-two buckets [lo, hi, count]. */
json_t *gen_gaps_json(const struct hist *h, double nominal_ns);

#endif
