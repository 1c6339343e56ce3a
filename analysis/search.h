/* search.h — the trial methods of ppslab run as pure state machines: which load to try
 * next, for how long, and what the trials so far say (spec/methodology.md §1–3).
 *
 * The caller drives it and owns every side effect:
 *
 *     struct search *s = search_new(&cfg);
 *     struct search_req r;
 *     while (search_next(s, &r) == 0) {            // 1: done
 *             measure r.load_pps for r.duration_s -> tx, rx
 *             search_record(s, &r, tx, rx, offered_pps);
 *     }
 *     search_result(s, &res);
 *
 * so the algorithms are tested against a simulated device (tests/unit/t_search.c) and
 * the runner can save the results file after every trial.
 *
 * Methods:
 * - fixed:   one trial at cfg.load_pps: forwarding rate at offered load (RFC 2285).
 * - rfc2544: binary search for the zero-loss throughput between min and max load
 *            (RFC 2544 §26.1): first a trial at max; stop when (hi−lo)/hi ≤ width.
 * - mlr:     MLR-lite (§3.4): a trial at max (MRR), one at the forwarding rate it gave,
 *            then phases of growing duration and halving width; NDR (loss 0) and PDR
 *            (loss ≤ pdr_loss) from the same trials; loads classified with RFC 9971's
 *            formula; Conditional Throughput reported with its bounds.
 * - ladder:  forwarding rate at each load of a list, ascending (MFR, overload: RFC 2889).
 * Loss ratio of a trial = (tx − rx) / tx, negative loss counted as 0 and tx = 0 as loss 1
 * (CSIT: unsent frames count as loss). */
#ifndef PPSLAB_SEARCH_H
#define PPSLAB_SEARCH_H

#include <stddef.h>
#include <stdint.h>

enum search_method { SM_FIXED, SM_RFC2544, SM_MLR, SM_LADDER };

struct search_cfg {
	enum search_method method;
	double load_pps;        /* fixed */
	double min_load_pps, max_load_pps;   /* searches and the default ladder */
	double width;           /* relative width, e.g. 0.005 */
	double duration_s;      /* fixed and rfc2544 trials; mlr final trials */
	double initial_s;       /* mlr: first phase's trial duration */
	unsigned phases;        /* mlr: intermediate phases before the final one */
	double duration_sum_s;  /* mlr: full-length seconds needed to decide a load */
	double exceed_ratio;    /* mlr */
	double pdr_loss;        /* mlr: PDR goal's loss ratio, e.g. 0.005 */
	unsigned max_trials;    /* give up (irregular result) after this many */
	const double *ladder;   /* ladder loads (copied), or NULL: 10 %, 20 % .. 100 % of max */
	size_t nladder;
};

struct search_req {
	double load_pps;
	double duration_s;
	const char *why;        /* "max", "bisect", "phase 1", "ladder 3/10" ... (static) */
};

/* One goal's answer (rfc2544: NDR only; mlr: NDR and PDR). */
struct search_goal_res {
	const char *name;       /* "NDR", "PDR" */
	double loss_ratio;      /* the goal */
	int regular;            /* both bounds found and within width */
	double rlb_pps, rub_pps;/* relevant lower / upper bound; 0 when missing */
	double ct_pps;          /* conditional throughput (mlr), or rlb (rfc2544) */
};

struct search_res {
	size_t ntrials;
	double trial_s;         /* sum of trial durations */
	size_t ngoals;
	struct search_goal_res goal[2];
	/* fixed and ladder: the maximum forwarding rate seen and the load it was at */
	double mfr_pps, mfr_load_pps;
	/* mlr: the trial at max load (MRR) */
	double mrr_pps;
};

struct search *search_new(const struct search_cfg *cfg);   /* NULL: -ENOMEM or bad cfg */
void search_free(struct search *s);
/* 0 and *r filled: measure this next; 1: finished. */
int search_next(struct search *s, struct search_req *r);
/* The outcome of the trial just requested: frames sent and received, and the load the
 * sender really offered (RFC 2285 OLoad; pass r->load_pps if unknown). */
void search_record(struct search *s, const struct search_req *r, uint64_t tx, uint64_t rx,
		   double offered_pps);
void search_result(const struct search *s, struct search_res *res);
/* Loss ratio as defined above. */
double search_loss(uint64_t tx, uint64_t rx);

#endif
