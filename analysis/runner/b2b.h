/* SPDX-License-Identifier: BSD-2-Clause */
/* b2b.h — the back-to-back frame method of ppslab run (RFC 2544 §26.4 as updated by
 * RFC 9004) as a pure state machine: which burst length to send next, and what the
 * bursts so far say (docs/method.md#back-to-back-frames).
 *
 * The caller measures, it decides, as with search.h:
 *
 *     struct b2b *b = b2b_new(&cfg);             // NULL, errno EINVAL: b2b_cfg_check
 *     struct b2b_req r;
 *     while (b2b_next(b, &r) == 0) {             // 1: done
 *             send exactly r.frames frames back to back at the port's full speed,
 *             count what arrived -> tx, rx
 *             if (the sender did not send all r.frames)
 *                     b2b_invalid(b);            // the same burst again
 *             else
 *                     b2b_record(b, tx, rx);
 *     }
 *     b2b_result(b, &res);
 *
 * A burst passes when every frame it sent arrived (rx ≥ tx, tx = r.frames).
 *
 * One search finds the longest passing burst between min_burst and max_burst: the
 * first burst is max_burst (passing ends the search with max_burst, an irregular result:
 * only a lower bound); then bisection between lo, the longest burst that passed (0,
 * unmeasured, at first), and hi, the shortest that lost frames, until hi − lo ≤
 * resolution; min_burst itself is measured when the interval reaches it unmeasured, and
 * a loss there ends the search with 0 (irregular: the device buffers less than
 * min_burst). The search's answer is lo.
 *
 * The method repeats the search cfg.trials times (RFC 2544 asks for 50). A search after
 * the first starts at the previous answer and brackets it first, stepping by
 * max(resolution, previous/64) and doubling the step while the verdict stays the same,
 * then bisects the bracket: a device whose buffer holds steady is measured in a few
 * bursts instead of log2(max_burst).
 *
 * The result is the mean of the searches' answers (the Back-to-back Frames benchmark),
 * their minimum, maximum and standard deviation, and the two times RFC 9004 §5
 * derives from the mean B, the maximum theoretical frame rate R of the frame size and
 * the measured throughput T (frames per second):
 *     implied DUT buffer time   = B / R
 *     corrected DUT buffer time = (B − T·B/R) / R = B/R · (1 − T/R)
 * The correction removes the frames the device forwarded while the burst arrived (it
 * keeps forwarding at T during the burst's B/R seconds), so only the frames it had to
 * hold are left, expressed as time at the frame rate the burst arrived at.
 *
 * The method is meaningful only where T < R: a device forwarding every frame at the
 * theoretical maximum never needs a buffer, and every burst passes. b2b_applies()
 * decides that before any burst is sent. */
#ifndef PPSLAB_ANALYSIS_RUNNER_B2B_H
#define PPSLAB_ANALYSIS_RUNNER_B2B_H

#include <stddef.h>
#include <stdint.h>

struct b2b_cfg {
	double rate_pps;        /* R: the maximum theoretical frame rate of the size, > 0 */
	double throughput_pps;  /* T: the measured throughput, 0 < T < R·(1 − skip_margin) */
	uint64_t min_burst;     /* shortest burst tried, ≥ 1 */
	uint64_t max_burst;     /* longest, > min_burst */
	uint64_t resolution;    /* a search stops when hi − lo ≤ this, ≥ 1 (1: exact) */
	unsigned trials;        /* searches, ≥ 1 (RFC 2544: 50) */
	unsigned max_bursts;    /* the whole method gives up after this many bursts;
				 * 0: no limit */
	unsigned repeat_invalid;/* a burst the sender did not send whole is sent again up to
				 * this many times (b2b_invalid) */
};

/* T at least this fraction below R for the method to apply (b2b_applies). */
#define B2B_SKIP_MARGIN 0.005

struct b2b_req {
	uint64_t frames;        /* send exactly this many frames back to back */
	unsigned trial;         /* which search, 1-based */
	const char *why;        /* "b2b 3/50 max", "... bisect", "... bracket up" (valid until
				 * the next b2b_next or b2b_free) */
};

struct b2b_res {
	unsigned trials;        /* searches that ended with an answer */
	size_t bursts;          /* bursts recorded */
	size_t repeated;        /* invalid bursts sent again, not counted */
	double mean_frames;     /* B: the mean longest passing burst, NAN with no search */
	uint64_t min_frames, max_frames;
	double stdev_frames;    /* sample standard deviation, 0 with one search */
	double implied_s;       /* B / R */
	double corrected_s;     /* B/R · (1 − T/R) */
	int regular;            /* every search ended inside [min_burst, max_burst] within
				 * resolution and all cfg.trials ran */
	const char *irregular;  /* why not (static), or NULL */
};

/* 0, or -EINVAL with a message naming the bad field in err (may be NULL). */
int b2b_cfg_check(const struct b2b_cfg *cfg, char *err, size_t errlen);
/* 1 when the method applies to a size with throughput t_pps and theoretical rate r_pps;
 * 0 with why (a static sentence) when it does not. */
int b2b_applies(double t_pps, double r_pps, const char **why);
struct b2b *b2b_new(const struct b2b_cfg *cfg);
void b2b_free(struct b2b *b);
/* 0 and *r filled: send this burst next; 1: finished. Asked again before b2b_record it
 * repeats the pending request. */
int b2b_next(struct b2b *b, struct b2b_req *r);
/* The burst just requested: frames sent and received. Ignored with nothing pending. */
void b2b_record(struct b2b *b, uint64_t tx, uint64_t rx);
/* The burst just requested was not sent whole: 0, it will be requested again; 1, the
 * repetitions are used up and the method ends (irregular). Ignored (0) with nothing
 * pending. */
int b2b_invalid(struct b2b *b);
void b2b_result(const struct b2b *b, struct b2b_res *res);
/* Each finished search's longest passing burst, in order; their number. Valid until the
 * next b2b_record. */
size_t b2b_answers(const struct b2b *b, const uint64_t **a);

#endif
