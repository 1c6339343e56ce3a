/* SPDX-License-Identifier: BSD-2-Clause */
/* search.h — the trial methods of ppslab run as pure state machines: which load to try
 * next, for how long, and what the trials so far say
 * (docs/design/methodology.md#trial-methods).
 *
 * The caller drives it and owns every side effect:
 *
 *     struct search *s = search_new(&cfg);
 *     struct search_req r;
 *     while (search_next(s, &r) == 0) {            // 1: done
 *             measure r.load_pps for r.duration_s -> tx, rx
 *             if (the sender did not offer what was asked)
 *                     search_invalid(s);           // the same request again
 *             else
 *                     search_record(s, &r, tx, rx, offered_pps);
 *     }
 *     search_result(s, &res);
 *
 * so the algorithms are tested against a simulated device (tests/unit/analysis/t_search.c) and
 * the runner can save the results file after every trial.
 *
 * Methods:
 * - fixed:   one trial at cfg.load_pps: forwarding rate at offered load (RFC 2285).
 * - rfc2544: binary search for the zero-loss throughput between min and max load
 *            (RFC 2544 §26.1): first a trial at max; stop when (hi−lo)/hi ≤ width.
 * - mlr:     MLR-lite: a trial at max (MRR), one at the forwarding rate it gave,
 *            then phases of growing duration and halving width; NDR (loss 0) and PDR
 *            (loss ≤ pdr_loss) from the same trials; loads classified with RFC 9971's
 *            formula; Conditional Throughput reported with its bounds.
 * - ladder:  forwarding rate at each load of a list, ascending (MFR, overload: RFC 2889).
 * Loss ratio of a trial = (tx − rx) / tx, negative loss counted as 0 and tx = 0 as loss 1
 * (CSIT: unsent frames count as loss). Forwarding rate of a trial = rx / duration_s.
 * Requested loads are whole pps (rounded, at least 1).
 *
 * rfc2544 in detail: trial 1 at max_load. Zero loss there ends the search with an
 * irregular result (max load is only a lower bound). Otherwise trial 2 is at the
 * forwarding rate trial 1 achieved (clamped to [min, max)): a device usually loses a
 * little at its own forwarding rate, which then starts the bisection at FRMOL instead of
 * MOL (TRex ndr_bench's optimised mode has the same idea). Then classic bisection:
 * lo = the highest zero-loss load measured (min_load, unmeasured, at first), hi = the
 * lowest lossy one, next = (lo + hi) / 2, until (hi − lo)/hi ≤ width; min_load itself is
 * measured when the interval reaches it unmeasured. A loss at min_load ends the search
 * irregular (min load is an upper bound).
 *
 * mlr in detail (docs/design/methodology.md#mlr-lite-search): trials 1 and 2 (max, then
 * its forwarding rate) last initial_s; phase k = 0..P (P = phases) uses trials of dur_k = initial·(final/initial)^(k/P)
 * (final = duration_s), width_k = width·2^(P−k), and decides a load with
 * duration_sum dur_k (one trial) before the final phase, duration_sum_s in it. Each goal
 * classifies every load with search_classify() (trials shorter than dur_k are "short")
 * and proposes, in this order: nothing if RLB and RUB are within width_k; more trials at
 * an UNDECIDED load between the bounds (the lowest above the RLB; with no RLB the highest
 * below the RUB; with neither, last phase's RLB, then its RUB, then the lowest);
 * sqrt(RLB·RUB), unless RLB·(1+e) is smaller (external search up from the RLB, e =
 * width_k·4^n after n such steps in the phase, a measured load counting as a step for
 * every goal whose step region it probes); RLB·(1+e) if the RUB is missing and
 * RUB·(1−e) if the RLB is missing (clamped to [min, max]); nothing if max is a lower bound
 * or min an upper bound. The lowest proposal of the goals is measured for dur_k; when no
 * goal proposes anything the next phase starts. Results use the final phase's
 * classification.
 *
 * Goals (RFC 9971 §4.3): cfg.ngoals = 0 gives mlr's two goals, NDR (loss 0) and PDR
 * (loss pdr_loss), sharing duration_s, duration_sum_s, exceed_ratio and width; up to
 * SEARCH_MAX_GOALS goals in cfg.goals each bring their own loss ratio, exceed ratio,
 * final trial duration, duration sum and width, and optionally a latency bound. The
 * phases then run from initial_s to the longest final duration; in phase k a goal asks
 * for trials of min(dur_k, its final), decides a load with one such trial before its
 * final phase and with its own duration sum in it, and its width_k is its width·2^(P−k).
 * Every goal classifies every trial, so the goals share them. A goal with latency_ns > 0
 * counts a frame received later than that as lost: its loss ratio of a trial is
 * (tx − rx + late) / tx, late the count search_record_late was given for it. */
#ifndef PPSLAB_ANALYSIS_RUNNER_SEARCH_H
#define PPSLAB_ANALYSIS_RUNNER_SEARCH_H

#include <stddef.h>
#include <stdint.h>

enum search_method { SM_FIXED, SM_RFC2544, SM_MLR, SM_LADDER };

#define SEARCH_MAX_GOALS 8
#define SEARCH_GOAL_NAME 16     /* bytes of a goal's name, with its NUL */

/* One search goal (RFC 9971 §4.3), mlr only. */
struct search_goal_cfg {
	char name[SEARCH_GOAL_NAME]; /* "NDR", "PDR", "LAT"...: letters, digits, '_' */
	double loss_ratio;      /* [0, 1) */
	double exceed_ratio;    /* [0, 1) */
	double final_s;         /* goal final trial duration, > 0 */
	double duration_sum_s;  /* goal duration sum, >= final_s */
	double width;           /* goal width, (0, 1) */
	double latency_ns;      /* > 0: a frame later than this counts as lost; 0: none */
};

struct search_cfg {
	enum search_method method;
	double load_pps;        /* fixed */
	double min_load_pps, max_load_pps;   /* searches and the default ladder */
	double width;           /* relative width, e.g. 0.005, in (0, 1) */
	double duration_s;      /* fixed and rfc2544 trials; mlr final trials */
	double initial_s;       /* mlr: first phase's trial duration */
	unsigned phases;        /* mlr: intermediate phases before the final one */
	double duration_sum_s;  /* mlr: full-length seconds needed to decide a load */
	double exceed_ratio;    /* mlr */
	double pdr_loss;        /* mlr: PDR goal's loss ratio, e.g. 0.005 */
	unsigned max_trials;    /* give up (irregular result) after this many; 0: no limit */
	unsigned repeat_invalid;/* a request whose trial was invalid is made again up to this
				 * many times (search_invalid) */
	const double *ladder;   /* ladder loads (copied), or NULL: 10 %, 20 % .. 100 % of max */
	size_t nladder;
	/* mlr: 0, NDR and PDR from the fields above; else these goals (duration_s must then
	 * be the longest final_s of them) */
	size_t ngoals;
	struct search_goal_cfg goals[SEARCH_MAX_GOALS];
};

struct search_req {
	double load_pps;
	double duration_s;
	const char *why;        /* "max", "bisect", "p1/2 NDR refine", "ladder 3/10" ...
				 * (valid until the next search_next or search_free) */
};

/* One goal's answer (rfc2544: NDR only; mlr: NDR and PDR, or cfg.goals). */
struct search_goal_res {
	char name[SEARCH_GOAL_NAME]; /* "NDR", "PDR", or a configured goal's (a copy: the
				 * result outlives the search) */
	double loss_ratio;      /* the goal */
	double exceed_ratio, final_s, duration_sum_s, width, latency_ns; /* and the rest */
	int regular;            /* both bounds found and within width */
	double rlb_pps, rub_pps;/* relevant lower / upper bound; 0 when missing */
	double ct_pps;          /* conditional throughput (mlr), or rlb (rfc2544) */
	const char *irregular;  /* why not regular ("max load is a lower bound", ...), static;
				 * NULL when regular */
};

struct search_res {
	size_t ntrials;
	double trial_s;         /* sum of trial durations */
	size_t ngoals;
	struct search_goal_res goal[SEARCH_MAX_GOALS];
	/* the maximum forwarding rate seen and the offered load of the first trial reaching
	 * it (any method; the answer of fixed and ladder, where "first" is the lowest) */
	double mfr_pps, mfr_load_pps;
	/* mlr and rfc2544: forwarding rate of the first trial, at max load (MRR / FRMOL) */
	double mrr_pps;
	int gave_up;            /* max_trials reached: every goal is irregular */
	size_t repeated;        /* invalid trials made again (search_invalid), not counted */
	int spoiled;            /* a request stayed invalid after repeat_invalid repetitions:
				 * the search ended there, every goal irregular */
};

/* One recorded trial (the search's trace, in order). */
struct search_trial {
	double load_pps;        /* requested (intended) load */
	double duration_s;
	double offered_pps;     /* as passed to search_record */
	uint64_t tx, rx;
	double loss_ratio;      /* search_loss(tx, rx) */
	double fwd_pps;         /* rx / duration_s */
	char why[32];
	/* per goal: frames later than its latency bound (search_record_late), and the
	 * trial's loss ratio for it (loss_ratio for a goal without a latency bound) */
	uint64_t late[SEARCH_MAX_GOALS];
	double goal_loss[SEARCH_MAX_GOALS];
};

/* RFC 9971 load classification (docs/design/methodology.md#load-classification), from
 * the summed durations of the trials at one load: full-length/short × low/high loss. */
enum search_class { SC_UNDECIDED, SC_LOWER, SC_UPPER };

/* 0, or -EINVAL with a message naming the bad field in err (may be NULL). */
int search_cfg_check(const struct search_cfg *cfg, char *err, size_t errlen);
/* NULL with errno EINVAL (bad cfg: see search_cfg_check) or ENOMEM. */
struct search *search_new(const struct search_cfg *cfg);
void search_free(struct search *s);
/* 0 and *r filled: measure this next; 1: finished (also when max_trials is reached).
 * Asked again before search_record, it repeats the pending request. */
int search_next(struct search *s, struct search_req *r);
/* The outcome of the trial just requested: frames sent and received, and the load the
 * sender really offered (RFC 2285 OLoad; pass r->load_pps if unknown). The pending
 * request's load and duration are used; with nothing pending the call is ignored. */
void search_record(struct search *s, const struct search_req *r, uint64_t tx, uint64_t rx,
		   double offered_pps);
/* The same with, for each goal i (in the order of the search's goals), late[i] frames
 * of rx received later than its latency bound (ignored for a goal without one; late may
 * be NULL: none late). */
void search_record_late(struct search *s, const struct search_req *r, uint64_t tx,
			uint64_t rx, double offered_pps, const uint64_t *late);
/* The search's goals, in order (their names as search_result gives them). */
size_t search_goals(const struct search *s, const struct search_goal_cfg **g);
/* The trial just requested did not offer what was asked (the runner's "sender kept
 * pace" check failed): it is not recorded, and search_next asks for the same load and
 * duration again, up to cfg.repeat_invalid times per request. 0: it will be repeated;
 * 1: the repetitions are used up, the search is over and spoiled (search_next returns
 * 1, every goal is irregular). Ignored (0) with nothing pending. */
int search_invalid(struct search *s);
void search_result(const struct search *s, struct search_res *res);
/* Loss ratio as defined above. */
double search_loss(uint64_t tx, uint64_t rx);
/* The trials so far, in order; their number. Valid until the next search_record. */
size_t search_trials(const struct search *s, const struct search_trial **t);

/* RFC 9971 Appendix A (exceed_ratio in [0, 1)):
 *   coef = exceed/(1−exceed); pos_excess = max(0, short_hi − short_lo·coef)
 *   eff_hi = full_hi + pos_excess; whole = max(full_lo + eff_hi, duration_sum)
 *   q = whole·exceed; optimistic = eff_hi ≤ q; pessimistic = whole − full_lo ≤ q
 *   LOWER if both, UPPER if neither, else UNDECIDED. */
enum search_class search_classify(double full_lo_s, double full_hi_s, double short_lo_s,
				  double short_hi_s, double exceed_ratio, double duration_sum_s);
/* Conditional Throughput (RFC 9971 Appendix B;
 * docs/design/methodology.md#conditional-throughput) at load_pps from the trials of t at
 * that load lasting at least final_s: sorted by loss, rem = max(duration_sum,
 * their duration sum)·(1 − exceed); walk them taking each one's loss and subtracting its
 * duration while rem > 0; if they run out with rem > 0, loss = 1. CT = load·(1 − loss). */
double search_ct(double load_pps, const struct search_trial *t, size_t n, double final_s,
		 double duration_sum_s, double exceed_ratio);

#endif
