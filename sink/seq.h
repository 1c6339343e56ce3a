/* SPDX-License-Identifier: BSD-2-Clause */
/* seq.h — exact per-stream loss, duplicate and reordering accounting (RFC 4737 terms).
 *
 * Sequence numbers on the wire are 48-bit and start at 0 (or at a floor, for a stream the
 * sink joins late). They are unwrapped into 64 bits the way RTP extends its 16-bit
 * numbers (RFC 3550 A.1): the candidate closest to NextExp wins, so a sender that wraps
 * 2^48 − 1 → 0 (6.5 years at 1.5 Mpps, or a sender that starts high) costs no false loss
 * and no false reordering. A sliding window of SEQ_WIN numbers below the highest seen
 * (NextExp − 1) remembers which have arrived:
 * - s ≥ NextExp: in order (or after a gap; the gap's numbers become "missing");
 * - s in the window, not yet seen: reordered (a late frame fills its gap: it is never
 *   lost and never counted twice); its RFC 4737 extent is recorded;
 * - s in the window, already seen: duplicate;
 * - s below the window: a very late arrival: it had been declared lost, so it is moved
 *   from lost to reordered ("late_pkts" counts these; beyond the window a duplicate
 *   cannot be told apart, which needs 65,536 frames of reordering to matter).
 * The extent is exact while the earliest higher arrival is among the SEQ_EXT_RING newest
 * NextExp advances (4,096 in-order arrivals); beyond, the lower bound is recorded and
 * counted in extent_truncated.
 * Numbers leave the window unreceived as final loss; consecutive ones form a loss
 * burst, whose length goes into a log2 histogram.
 * lost_now() = final loss + missing in the window: exact once no frame is still in
 * flight; seq_finish() adds the tail loss when the expected count is known. */
#ifndef PPSLAB_SINK_SEQ_H
#define PPSLAB_SINK_SEQ_H

#include <stdbool.h>
#include <stdint.h>

#define SEQ_WIN (1u << 16)
#define SEQ_EXT_RING 4096
#define SEQ_HIST_LOG2 24      /* bucket b holds lengths in [2^b, 2^(b+1)) */

struct seq_stream {
	uint64_t rx_pkts;           /* distinct test frames received (duplicates excluded) */
	uint64_t dup_pkts;
	uint64_t reordered_pkts;    /* arrived after a higher sequence number */
	uint64_t late_pkts;         /* of those, arrived below the window */
	uint64_t lost_final;        /* left the window unreceived */
	uint64_t missing;           /* unreceived numbers inside the window */
	uint64_t next_exp;          /* RFC 4737 NextExp: highest seen + 1 */
	uint64_t arrivals;          /* every frame, duplicates included: arrival position */
	uint64_t max_extent;        /* largest RFC 4737 reordering extent */
	uint64_t extent_truncated;  /* extents that reached past the SEQ_EXT_RING newest
				     * advances: reported as that lower bound */
	uint64_t extent_hist[SEQ_HIST_LOG2];
	uint64_t loss_burst_hist[SEQ_HIST_LOG2];
	uint64_t max_loss_burst;
	uint64_t run;               /* current run of finalized losses */
	uint64_t bits[SEQ_WIN / 64];
	/* arrival positions at which NextExp advanced, to find the earliest arrival with a
	 * higher number for the extent */
	struct seq_advance { uint64_t pos, seq; } ext[SEQ_EXT_RING];
	uint32_t ext_head, ext_n;
	uint64_t floor;             /* first number accounted (0, or where a late join began) */
	uint64_t before_floor_pkts; /* arrivals numbered below the floor: not accounted */
	bool finished;
};

enum seq_verdict { SEQ_IN_ORDER, SEQ_REORDERED, SEQ_DUPLICATE, SEQ_LATE, SEQ_BEFORE_FLOOR };

void seq_init(struct seq_stream *s);
/* Starts accounting at `floor` (a 64-bit number): what is numbered below it is neither
 * received nor lost (a sink that joined a running stream, or ended its warm-up). */
void seq_init_at(struct seq_stream *s, uint64_t floor);
/* The 64-bit number a 48-bit wire value stands for, next to NextExp. */
uint64_t seq_unwrap(const struct seq_stream *s, uint64_t wire48);
/* Accounts one arrival of a 48-bit wire number; returns how it was classified. */
enum seq_verdict seq_add(struct seq_stream *s, uint64_t seq);
/* Frames not (yet) received between the floor and NextExp: final + missing. */
static inline uint64_t seq_lost_now(const struct seq_stream *s)
{
	return s->lost_final + s->missing;
}
/* Ends the stream: everything still missing is lost, and if expected > NextExp the tail
 * (expected − NextExp) is lost too (expected counts from 0: the sender's frame count);
 * loss bursts are closed. NextExp stays the highest number seen + 1 (the sink's
 * next_seq): the tail is expected − it. Idempotent. */
void seq_finish(struct seq_stream *s, uint64_t expected);
/* Folds b (another worker's part of the same stream) into a: both are finished, counts
 * are added, the highest NextExp and the lowest floor of a started part are kept (a
 * part not started has no floor). Windows cannot be merged, so the loss of a folded
 * stream is known only in total: seq_finish_folded. */
void seq_fold(struct seq_stream *a, bool a_started, struct seq_stream *b, bool b_started);
/* Ends a folded stream: its loss is what was numbered from the floor up to top (the
 * sender's count, or NextExp without one) minus what came. seq_finish then does
 * nothing. */
void seq_finish_folded(struct seq_stream *s, uint64_t top);

#endif
