/* SPDX-License-Identifier: BSD-2-Clause */
/* gap.c — a stream's gaps in sequence and time (see gap.h). Called per test frame by
 * the sink's receive loop beside seq.c: no allocation; a reordered frame finds its gap by
 * binary search, taking a gap out moves at most GAP_PENDING, and a merge looks at up
 * to GAP_PENDING pairs (it stops at the first two single losses) and moves at most
 * half of them. */
#include "gap.h"

#include <string.h>

#include "seq.h"

void gap_init(struct gap_book *g, uint64_t gap_min_ns, uint32_t list_max)
{
	memset(g, 0, sizeof(*g));
	g->gap_min_ns = gap_min_ns;
	g->list_max = list_max < GAP_LIST ? list_max : GAP_LIST;
}

static inline struct gap *pend_at(struct gap_book *g, uint32_t i)
{
	return &g->pend[(g->pend_head + i) % GAP_PENDING];
}

static bool long_silence(const struct gap_book *g, const struct gap *x)
{
	return g->gap_min_ns && x->silence_ns > g->gap_min_ns;
}

/* Takes open gap i out, the newer ones moving down. */
static void pend_remove(struct gap_book *g, uint32_t i)
{
	for (; i + 1 < g->pend_n; i++)
		*pend_at(g, i) = *pend_at(g, i + 1);
	g->pend_n--;
}

/* Does gap a rank above gap b for a place in the list? A silence above gap_min first
 * (the outages asked for), then the larger loss in one gap (a merged record's largest,
 * `run`: scattered single losses merged into one record stay single losses), then the
 * longer silence. Equal ranks: the one listed stays. */
static bool ranks_above(const struct gap_book *g, const struct gap *a, const struct gap *b)
{
	bool la = long_silence(g, a), lb = long_silence(g, b);
	if (la != lb)
		return la;
	if (a->run != b->run)
		return a->run > b->run;
	return a->silence_ns > b->silence_ns;
}

/* The oldest open gap becomes final: listed, counted, or forgotten as reordering. A
 * full list keeps the gaps that rank highest: the new one takes the place of the
 * lowest listed (of equals, the newest) when it ranks above it, and whichever is left
 * out is counted. The list stays in sequence order (final gaps come in that order). */
static void final_one(struct gap_book *g)
{
	struct gap *x = pend_at(g, 0);
	g->pend_head = (g->pend_head + 1) % GAP_PENDING;
	g->pend_n--;
	if (!x->lost && !long_silence(g, x))
		return;
	if (x->silence_ns > g->longest_ns)
		g->longest_ns = x->silence_ns;
	if (g->nlist < g->list_max) {
		g->list[g->nlist++] = *x;
		return;
	}
	uint32_t lo = 0;
	for (uint32_t i = 1; i < g->nlist; i++)
		if (!ranks_above(g, &g->list[i], &g->list[lo]))
			lo = i;
	if (!g->nlist || !ranks_above(g, x, &g->list[lo])) {
		g->unlisted++;
		g->unlisted_lost += x->lost;
		return;
	}
	g->unlisted++;
	g->unlisted_lost += g->list[lo].lost;
	memmove(&g->list[lo], &g->list[lo + 1], (g->nlist - lo - 1) * sizeof(g->list[0]));
	g->list[g->nlist - 1] = *x;
}

/* Too many open: two neighbours become one record. Of the pairs that may merge —
 * neither holds a long silence, and the merged numbers span at most SEQ_WIN, so the
 * record still leaves the window and becomes final — the one whose largest gap is
 * smallest, then with the least loss together, then the oldest: scattered single
 * losses merge among themselves and a long outage keeps a record of its own. Their
 * numbers are contiguous (the first's after-frame is at or below the second's
 * before-frame). The side with fewer records moves. False when no pair may merge. */
static bool merge_one(struct gap_book *g)
{
	uint32_t best = UINT32_MAX;
	uint64_t best_run = UINT64_MAX, best_lost = UINT64_MAX;
	for (uint32_t i = 0; i + 1 < g->pend_n; i++) {
		const struct gap *a = pend_at(g, i), *b = pend_at(g, i + 1);
		if (long_silence(g, a) || long_silence(g, b) ||
		    b->seq_after - a->seq_before > SEQ_WIN)
			continue;
		uint64_t run = a->run > b->run ? a->run : b->run, lost = a->lost + b->lost;
		if (run < best_run || (run == best_run && lost < best_lost)) {
			best = i;
			best_run = run;
			best_lost = lost;
			if (lost <= 2)     /* two single losses: none is cheaper */
				break;
		}
	}
	if (best == UINT32_MAX)
		return false;
	struct gap *a = pend_at(g, best), *b = pend_at(g, best + 1);
	struct gap m = *a;
	m.after_ns = b->after_ns;
	m.seq_after = b->seq_after;
	m.lost += b->lost;
	m.reordered += b->reordered;
	m.merged += b->merged;
	if (b->silence_ns > m.silence_ns)
		m.silence_ns = b->silence_ns;
	if (b->run > m.run)
		m.run = b->run;
	if (best < g->pend_n - 2 - best) {
		/* fewer before it: the older ones move up one, the head with them */
		*b = m;
		for (uint32_t j = best; j > 0; j--)
			*pend_at(g, j) = *pend_at(g, j - 1);
		g->pend_head = (g->pend_head + 1) % GAP_PENDING;
		g->pend_n--;
	} else {
		*a = m;
		pend_remove(g, best + 1);
	}
	g->merges++;
	return true;
}

/* Open gaps whose numbers all left the window (below NextExp − SEQ_WIN, where seq.c
 * no longer tells a reordered frame) become final, oldest first. */
static void final_below(struct gap_book *g, uint64_t next_exp)
{
	uint64_t base = next_exp > SEQ_WIN ? next_exp - SEQ_WIN : 0;
	while (g->pend_n && pend_at(g, 0)->seq_after <= base)
		final_one(g);
}

void gap_advance(struct gap_book *g, uint64_t prev_next, uint64_t seq, uint64_t rx_ns,
		 uint64_t next_exp)
{
	if (g->have_adv) {
		struct gap x = {
			.before_ns = g->last_ns, .after_ns = rx_ns,
			.seq_before = g->last_seq, .seq_after = seq,
			.lost = seq > prev_next ? seq - prev_next : 0, .merged = 1,
		};
		x.run = x.lost;
		x.silence_ns = gap_duration(&x);
		if (x.lost || long_silence(g, &x)) {
			if (x.lost) {   /* the latest loss, whatever the list does with it */
				g->last = x;
				g->have_last = true;
				g->last_inexact = false;
			}
			final_below(g, next_exp);
			if (g->pend_n == GAP_PENDING && !merge_one(g)) {
				final_one(g);
				g->early_final++;
			}
			*pend_at(g, g->pend_n++) = x;
		}
	}
	if (!g->have_adv)
		g->first_seq = seq;
	g->have_adv = true;
	g->last_ns = rx_ns;
	g->last_seq = seq;
	final_below(g, next_exp);
}

/* A frame arrived late into gap x: one from its loss (and from its run, of a gap of
 * its own). True when x is left without loss and without a long silence: it was
 * reordering. */
static bool fill_one(const struct gap_book *g, struct gap *x)
{
	x->lost--;
	x->reordered++;
	if (x->merged == 1)
		x->run = x->lost;
	return !x->lost && !long_silence(g, x);
}

/* The gap of arr[0..n) (in sequence order) whose numbers hold seq, or -1. */
static long find(struct gap_book *g, bool pend, uint32_t n, uint64_t seq)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct gap *x = pend ? pend_at(g, mid) : &g->list[mid];
		if (x->seq_after <= seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n)
		return -1;
	const struct gap *x = pend ? pend_at(g, lo) : &g->list[lo];
	return x->seq_before < seq && x->lost ? (long)lo : -1;
}

/* The latest loss was filled by late frames: the newest gap still holding loss
 * becomes the record (see gap.h). Called after the fill is booked. */
static void last_back(struct gap_book *g)
{
	for (uint32_t i = g->pend_n; i-- > 0;) {
		const struct gap *x = pend_at(g, i);
		if (x->lost) {
			g->last = *x;
			g->last_inexact = x->merged != 1;
			return;
		}
	}
	for (uint32_t i = g->nlist; i-- > 0;) {
		if (g->list[i].lost) {
			g->last = g->list[i];
			g->last_inexact = g->list[i].merged != 1 || g->unlisted_lost;
			return;
		}
	}
	g->have_last = false;
	g->last_inexact = g->unlisted_lost != 0;
}

static void last_fill(struct gap_book *g, uint64_t seq)
{
	if (!g->have_last || seq <= g->last.seq_before || seq >= g->last.seq_after ||
	    !g->last.lost)
		return;
	fill_one(g, &g->last);
	if (!g->last.lost)
		last_back(g);
}

static void gap_fill_book(struct gap_book *g, uint64_t seq);

void gap_fill(struct gap_book *g, uint64_t seq)
{
	gap_fill_book(g, seq);
	last_fill(g, seq);
}

static void gap_fill_book(struct gap_book *g, uint64_t seq)
{
	long i = find(g, true, g->pend_n, seq);
	if (i >= 0) {
		if (fill_one(g, pend_at(g, (uint32_t)i)))   /* it was reordering: done */
			pend_remove(g, (uint32_t)i);
		return;
	}
	i = find(g, false, g->nlist, seq);
	if (i >= 0) {
		struct gap *x = &g->list[i];
		if (fill_one(g, x)) {   /* it was reordering after all */
			memmove(x, x + 1, (g->nlist - (uint32_t)i - 1) * sizeof(*x));
			g->nlist--;
		}
		return;
	}
	/* not listed: in an unlisted gap if any is left with loss (numbers before the first
	 * frame were never in a gap; every other number that was missing is in one) */
	if (g->unlisted_lost && g->have_adv && seq > g->first_seq)
		g->unlisted_lost--;
}

void gap_finish(struct gap_book *g)
{
	if (g->finished)
		return;
	g->finished = true;
	while (g->pend_n)
		final_one(g);
}

uint64_t gap_count(const struct gap_book *g)
{
	return g->nlist + g->unlisted;
}

uint64_t gap_lost(const struct gap_book *g)
{
	uint64_t n = g->unlisted_lost;
	for (uint32_t i = 0; i < g->nlist; i++)
		n += g->list[i].lost;
	return n;
}
