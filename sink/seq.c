/* SPDX-License-Identifier: BSD-2-Clause */
/* seq.c — sliding-window sequence accounting (see seq.h). Called per test frame by
 * the sink's receive loop: O(1) amortized, no allocation. */
#include "seq.h"

#include <string.h>

#define SEQ_MOD (1ULL << 48)

void seq_init(struct seq_stream *s)
{
	memset(s, 0, sizeof(*s));
}

void seq_init_at(struct seq_stream *s, uint64_t floor)
{
	memset(s, 0, sizeof(*s));
	s->floor = floor;
	s->next_exp = floor;
}

uint64_t seq_unwrap(const struct seq_stream *s, uint64_t wire48)
{
	uint64_t ref = s->next_exp;
	uint64_t c = (ref & ~(SEQ_MOD - 1)) | (wire48 & (SEQ_MOD - 1));
	if (c > ref && c - ref > SEQ_MOD / 2 && c >= SEQ_MOD)
		c -= SEQ_MOD;           /* an old number from before the last wrap */
	else if (c < ref && ref - c > SEQ_MOD / 2)
		c += SEQ_MOD;           /* the sender wrapped */
	return c;
}

static inline bool bit_get(const struct seq_stream *s, uint64_t seq)
{
	uint32_t i = (uint32_t)(seq % SEQ_WIN);
	return (s->bits[i / 64] >> (i % 64)) & 1;
}

static inline void bit_set(struct seq_stream *s, uint64_t seq)
{
	uint32_t i = (uint32_t)(seq % SEQ_WIN);
	s->bits[i / 64] |= 1ULL << (i % 64);
}

static inline void bit_clear(struct seq_stream *s, uint64_t seq)
{
	uint32_t i = (uint32_t)(seq % SEQ_WIN);
	s->bits[i / 64] &= ~(1ULL << (i % 64));
}

static unsigned log2_bucket(uint64_t v)
{
	unsigned b = 63u - (unsigned)__builtin_clzll(v);
	return b < SEQ_HIST_LOG2 ? b : SEQ_HIST_LOG2 - 1;
}

static void close_run(struct seq_stream *s)
{
	if (!s->run)
		return;
	s->loss_burst_hist[log2_bucket(s->run)]++;
	if (s->run > s->max_loss_burst)
		s->max_loss_burst = s->run;
	s->run = 0;
}

/* The number seq leaves the window: final loss if it never arrived. */
static void finalize(struct seq_stream *s, uint64_t seq)
{
	if (bit_get(s, seq)) {
		bit_clear(s, seq);
		close_run(s);
	} else {
		s->missing--;
		s->lost_final++;
		s->run++;
	}
}

/* The lowest number still in the window: never below the floor, so numbers before it
 * never become missing or lost. */
static inline uint64_t win_base(const struct seq_stream *s, uint64_t next_exp)
{
	uint64_t b = next_exp > SEQ_WIN ? next_exp - SEQ_WIN : 0;
	return b > s->floor ? b : s->floor;
}

/* Moves NextExp to new_next, finalizing what leaves the window; the numbers between the
 * old NextExp and new_next − 1 become missing (their bits are already clear). */
static void advance(struct seq_stream *s, uint64_t new_next)
{
	uint64_t old_base = win_base(s, s->next_exp), new_base = win_base(s, new_next);
	uint64_t gap = new_next - 1 - s->next_exp;   /* numbers skipped over */
	if (new_base > old_base) {
		/* old window members leaving: [old_base, min(new_base, next_exp)) */
		uint64_t stop = new_base < s->next_exp ? new_base : s->next_exp;
		for (uint64_t q = old_base; q < stop; q++)
			finalize(s, q);
		/* skipped numbers that are already below the new window: lost at once */
		if (new_base > s->next_exp) {
			uint64_t direct = new_base - s->next_exp;
			s->lost_final += direct;
			s->run += direct;
			gap -= direct;
		}
	}
	s->missing += gap;
	s->next_exp = new_next;
}

static void record_extent(struct seq_stream *s, uint64_t pos, uint64_t seq)
{
	/* earliest recorded arrival whose NextExp advance went above seq */
	uint32_t n = s->ext_n, lo = 0, hi = n;
	uint32_t first = (s->ext_head + SEQ_EXT_RING - n) % SEQ_EXT_RING;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (s->ext[(first + mid) % SEQ_EXT_RING].seq > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo == n)
		return;   /* cannot happen: the newest advance is above any reordered seq */
	if (lo == 0 && n == SEQ_EXT_RING)
		s->extent_truncated++;   /* the true earliest advance may have been forgotten */
	uint64_t extent = pos - s->ext[(first + lo) % SEQ_EXT_RING].pos;
	if (extent > s->max_extent)
		s->max_extent = extent;
	if (extent)
		s->extent_hist[log2_bucket(extent)]++;
}

enum seq_verdict seq_add(struct seq_stream *s, uint64_t wire48)
{
	uint64_t seq = seq_unwrap(s, wire48);
	if (seq < s->floor) {
		s->before_floor_pkts++;
		return SEQ_BEFORE_FLOOR;
	}
	uint64_t pos = ++s->arrivals;
	if (seq >= s->next_exp) {
		advance(s, seq + 1);
		bit_set(s, seq);
		s->ext[s->ext_head] = (struct seq_advance){ pos, seq };
		s->ext_head = (s->ext_head + 1) % SEQ_EXT_RING;
		if (s->ext_n < SEQ_EXT_RING)
			s->ext_n++;
		s->rx_pkts++;
		return SEQ_IN_ORDER;
	}
	if (seq >= win_base(s, s->next_exp)) {
		if (bit_get(s, seq)) {
			s->dup_pkts++;
			return SEQ_DUPLICATE;
		}
		bit_set(s, seq);
		s->missing--;
		s->reordered_pkts++;
		s->rx_pkts++;
		record_extent(s, pos, seq);
		return SEQ_REORDERED;
	}
	/* below the window: declared lost, now here */
	if (s->lost_final)
		s->lost_final--;
	s->reordered_pkts++;
	s->late_pkts++;
	s->rx_pkts++;
	return SEQ_LATE;
}

void seq_finish(struct seq_stream *s, uint64_t expected)
{
	if (s->finished)
		return;
	s->finished = true;
	for (uint64_t q = win_base(s, s->next_exp); q < s->next_exp; q++)
		finalize(s, q);
	if (expected > s->next_exp) {
		/* the tail: lost, but NextExp stays the highest number seen + 1, so that
		 * expected − NextExp still tells the tail from the gaps' loss (gap.h) */
		uint64_t tail = expected - s->next_exp;
		s->lost_final += tail;
		s->run += tail;
	}
	close_run(s);
}

void seq_fold(struct seq_stream *a, bool a_started, struct seq_stream *b, bool b_started)
{
	seq_finish(a, 0);
	seq_finish(b, 0);
	a->rx_pkts += b->rx_pkts;
	a->dup_pkts += b->dup_pkts;
	a->reordered_pkts += b->reordered_pkts;
	a->late_pkts += b->late_pkts;
	a->lost_final += b->lost_final;
	if (b->next_exp > a->next_exp)
		a->next_exp = b->next_exp;
	if (b_started && (!a_started || b->floor < a->floor))
		a->floor = b->floor;
}

void seq_finish_folded(struct seq_stream *s, uint64_t top)
{
	uint64_t want = top > s->floor ? top - s->floor : 0;
	s->lost_final = want > s->rx_pkts ? want - s->rx_pkts : 0;
	s->finished = true;
}
