/* SPDX-License-Identifier: BSD-2-Clause */
/* gap.h — a stream's outage timeline: the gaps in its sequence and in its time.
 *
 * A gap lies between two consecutive advances of NextExp (arrivals of a new highest
 * sequence number, seq.h): the frame before it (`seq_before`, received at `before_ns`)
 * and the first frame after it (`seq_after`, at `after_ns`). It is a gap when numbers
 * were skipped (seq_after > seq_before + 1) or when the silence after_ns − before_ns
 * is longer than gap_min (0: silences alone are no gaps). Frames that arrive later with
 * a number inside it (reordered into it) fill it: each takes one from `lost` and adds
 * one to `reordered`; a gap so filled with no long silence was reordering, and goes at
 * once. A gap is final once all its numbers left the sequence window
 * (SEQ_WIN below NextExp), or at the end. Final gaps are listed in sequence order up
 * to list_max (at most GAP_LIST); a full list keeps those that rank highest — a silence
 * above gap_min first, then the most frames lost in one gap (`run`), then the longest
 * silence — the others are only counted (unlisted, unlisted_lost), so an outage after
 * many scattered losses is still listed; longest_ns covers them all.
 *
 * Memory is fixed: GAP_PENDING gaps wait for their numbers to leave the window. When
 * one more opens (a forwarding thread lagging behind another opens a hole for each of
 * its frames; loss scattered through the window), those already out of the window are
 * made final first; if still full, two neighbours become one record (`merged` says how
 * many gaps it stands for: its loss and reordering are their sums, its ends the outer
 * ones), so holes that are filled later still vanish. The pair merged is, among those
 * where neither holds a long silence and the merged numbers span at most SEQ_WIN, the
 * one whose largest gap (`run`) is smallest, then with the least loss together, then
 * the oldest: single losses merge among themselves into records of about equal size,
 * a run of many lost frames keeps its own record while any pair of smaller gaps may
 * merge, and every record still leaves the window. Only when no pair may merge is the oldest made final early (early_final
 * counts them); a frame filling it later still finds it in the list. A frame below
 * the window (seq.h's "late" arrival) also fills the gap it falls in when that gap is
 * listed, and otherwise is taken off unlisted_lost (every missing number after the
 * first frame is in a gap).
 *
 * The loss before the first frame and after the last one is in seq.h's loss but in no
 * gap: no frame brackets it.
 *
 * `last` is the stream's latest loss, kept apart from the list and its merging (RFC
 * 2544 §26.5's recovery time ends at the last frame lost, after a minute of overload
 * whose scattered loss no list of 64 holds): the newest gap with a frame lost, exactly
 * as it was opened (its own ends, not a merged record's), updated on every advance
 * that skipped numbers, so one copy a lossy arrival. A frame that arrives later into
 * it takes one from its loss; when that empties it, the latest loss is older: the
 * record moves back to the newest open gap still holding loss, exact when that one is
 * a gap of its own (merged 1); otherwise (it is a merged record, or no open gap holds
 * loss and the newest listed one is taken while unlisted gaps exist, or none is left)
 * `last_inexact` says the record may not be the latest loss. */
#ifndef PPSLAB_SINK_GAP_H
#define PPSLAB_SINK_GAP_H

#include <stdbool.h>
#include <stdint.h>

#define GAP_LIST 64           /* the most a list may hold */
#define GAP_LIST_DEFAULT 16
#define GAP_PENDING 64

struct gap {
	uint64_t before_ns, after_ns;    /* receive times of the frames around it */
	uint64_t seq_before, seq_after;  /* their sequence numbers (64-bit, unwrapped) */
	uint64_t lost;                   /* numbers between them not received */
	uint64_t reordered;              /* frames that arrived later into it */
	uint64_t merged;                 /* gaps this record stands for (1: itself) */
	uint64_t silence_ns;             /* its longest silence: the duration, or of a
					  * merged record, the longest of its gaps' */
	uint64_t run;                    /* its largest loss: lost, or of a merged
					  * record, the largest of its gaps' */
};

struct gap_book {
	uint64_t gap_min_ns;             /* a longer silence is a gap; 0: off */
	uint32_t list_max;               /* gaps listed, at most GAP_LIST */
	bool have_adv;
	uint64_t last_ns, last_seq;      /* the newest advance of NextExp */
	uint64_t first_seq;              /* the first one's number: below it, no gap */
	struct gap pend[GAP_PENDING];    /* open gaps, oldest first from pend_head */
	uint32_t pend_head, pend_n;
	struct gap list[GAP_LIST];       /* final gaps, in sequence order */
	uint32_t nlist;
	uint64_t unlisted, unlisted_lost;
	uint64_t early_final;
	uint64_t merges;                 /* open gaps merged into a neighbour */
	uint64_t longest_ns;             /* the longest silence of every final gap */
	struct gap last;                 /* the latest loss (see above); valid: have_last */
	bool have_last, last_inexact;
	bool finished;
};

/* list_max above GAP_LIST is taken as GAP_LIST. */
void gap_init(struct gap_book *g, uint64_t gap_min_ns, uint32_t list_max);
/* An in-order arrival (a new highest number seq, previous NextExp prev_next) at rx_ns;
 * next_exp is NextExp after it. */
void gap_advance(struct gap_book *g, uint64_t prev_next, uint64_t seq, uint64_t rx_ns,
		 uint64_t next_exp);
/* A reordered or late arrival of seq: fills the gap it falls in. */
void gap_fill(struct gap_book *g, uint64_t seq);
/* Ends the book: every open gap becomes final. Idempotent. */
void gap_finish(struct gap_book *g);
static inline uint64_t gap_duration(const struct gap *x)
{
	return x->after_ns > x->before_ns ? x->after_ns - x->before_ns : 0;
}
/* Gaps counted (listed + unlisted) and their loss. */
uint64_t gap_count(const struct gap_book *g);
uint64_t gap_lost(const struct gap_book *g);

#endif
