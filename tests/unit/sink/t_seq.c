/* SPDX-License-Identifier: BSD-2-Clause */
/* t_seq.c — sequence accounting on crafted arrival orders: gaps, late fills,
 * duplicates, long reordering (RFC 4737 extent), arrivals below the window, 48-bit
 * values, tail loss, loss-burst histogram. */
#include <stdlib.h>

#include "seq.h"
#include "tap.h"

static struct seq_stream *mk(void)
{
	struct seq_stream *s = malloc(sizeof(*s));
	seq_init(s);
	return s;
}

static void feed(struct seq_stream *s, const uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		seq_add(s, v[i]);
}

static void t_in_order(void)
{
	struct seq_stream *s = mk();
	for (uint64_t i = 0; i < 100000; i++)
		seq_add(s, i);
	seq_finish(s, 100000);
	T_EQ_U64(s->rx_pkts, 100000);
	T_EQ_U64(s->lost_final, 0);
	T_EQ_U64(s->reordered_pkts, 0);
	T_EQ_U64(s->dup_pkts, 0);
	free(s);
}

static void t_gap_and_burst(void)
{
	struct seq_stream *s = mk();
	static const uint64_t v[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 18, 19 };
	feed(s, v, 15);
	T_EQ_U64(seq_lost_now(s), 5);
	seq_finish(s, 20);
	T_EQ_U64(s->lost_final, 5);
	T_EQ_U64(s->rx_pkts, 15);
	T_EQ_U64(s->max_loss_burst, 5);
	T_EQ_U64(s->loss_burst_hist[2], 1);     /* 5 is in [4, 8) */
	free(s);
}

static void t_late_fill_is_not_loss(void)
{
	struct seq_stream *s = mk();
	static const uint64_t v[] = { 0, 1, 3, 2, 4 };
	feed(s, v, 5);
	seq_finish(s, 5);
	T_EQ_U64(s->rx_pkts, 5);
	T_EQ_U64(s->lost_final, 0);
	T_EQ_U64(s->reordered_pkts, 1);
	T_EQ_U64(s->max_extent, 1);  /* seq 2 at position 4; seq 3 arrived at 3 */
	free(s);
}

static void t_duplicates(void)
{
	struct seq_stream *s = mk();
	static const uint64_t v[] = { 0, 1, 1, 2, 2, 2, 3 };
	feed(s, v, 7);
	seq_finish(s, 4);
	T_EQ_U64(s->rx_pkts, 4);
	T_EQ_U64(s->dup_pkts, 3);
	T_EQ_U64(s->lost_final, 0);
	T_EQ_U64(s->reordered_pkts, 0);
	free(s);
}

static void t_long_reorder_extent(void)
{
	struct seq_stream *s = mk();
	static const uint64_t v[] = { 0, 5, 1, 2, 3, 4 };
	feed(s, v, 6);
	seq_finish(s, 6);
	T_EQ_U64(s->reordered_pkts, 4);
	T_EQ_U64(s->max_extent, 4);  /* seq 4 at position 6; seq 5 arrived at 2 */
	T_EQ_U64(s->lost_final, 0);
	T_EQ_U64(s->extent_hist[0] + s->extent_hist[1] + s->extent_hist[2], 4);
	free(s);
}

static void t_dup_of_reordered(void)
{
	struct seq_stream *s = mk();
	static const uint64_t v[] = { 0, 2, 1, 1, 3 };
	feed(s, v, 5);
	seq_finish(s, 4);
	T_EQ_U64(s->rx_pkts, 4);
	T_EQ_U64(s->dup_pkts, 1);
	T_EQ_U64(s->reordered_pkts, 1);
	T_EQ_U64(s->lost_final, 0);
	free(s);
}

static void t_below_window(void)
{
	struct seq_stream *s = mk();
	seq_add(s, 0);
	seq_add(s, 70000);               /* 69,999 missing; 1..4464 already left the window */
	T_EQ_U64(s->lost_final + s->missing, 69999);
	T_EQ_U64(s->lost_final, 70001 - SEQ_WIN - 1);
	T_EQ_INT(seq_add(s, 1), SEQ_LATE);   /* declared lost, then arrived */
	T_EQ_U64(s->lost_final + s->missing, 69998);
	T_EQ_U64(s->late_pkts, 1);
	seq_finish(s, 70001);
	T_EQ_U64(s->rx_pkts + s->lost_final, 70001);
	free(s);
}

static void t_48bit_values(void)
{
	struct seq_stream *s = mk();
	uint64_t top = (1ULL << 48) - 1;
	seq_add(s, top - 2);
	seq_add(s, top - 1);
	seq_add(s, top);
	T_EQ_U64(s->rx_pkts, 3);
	T_EQ_U64(seq_lost_now(s), top - 2);
	seq_finish(s, 0);
	T_EQ_U64(s->lost_final, top - 2);
	T_EQ_U64(s->rx_pkts + s->lost_final, top + 1);
	free(s);
}

static void t_tail_loss(void)
{
	struct seq_stream *s = mk();
	for (uint64_t i = 0; i < 10; i++)
		seq_add(s, i);
	seq_finish(s, 15);
	T_EQ_U64(s->lost_final, 5);
	seq_finish(s, 100);   /* idempotent */
	T_EQ_U64(s->lost_final, 5);
	free(s);
}

static void t_random_shuffle_conserves(void)
{
	/* frames 0..N-1, some dropped, some duplicated, locally shuffled: conservation */
	struct seq_stream *s = mk();
	enum { N = 200000 };
	uint64_t *v = malloc(sizeof(uint64_t) * N * 2);
	int n = 0, dropped = 0, dups = 0;
	srand(7);
	for (int i = 0; i < N; i++) {
		if (rand() % 100 == 0) {
			dropped++;
			continue;
		}
		v[n++] = (uint64_t)i;
		if (rand() % 200 == 0) {
			v[n++] = (uint64_t)i;
			dups++;
		}
	}
	for (int i = 0; i + 8 < n; i += 8) {   /* shuffle within windows of 8 */
		int a = i + rand() % 8, b = i + rand() % 8;
		uint64_t t = v[a];
		v[a] = v[b];
		v[b] = t;
	}
	feed(s, v, n);
	seq_finish(s, N);
	T_EQ_U64(s->lost_final, (uint64_t)dropped);
	T_EQ_U64(s->rx_pkts, (uint64_t)(N - dropped));
	T_EQ_U64(s->dup_pkts, (uint64_t)dups);
	T_TRUE(s->reordered_pkts > 0);
	free(v);
	free(s);
}

static void t_48bit_wrap(void)
{
	/* a stream joined just below 2^48 that wraps to 0: no false loss or reordering */
	struct seq_stream *s = mk();
	uint64_t top = (1ULL << 48) - 1;
	seq_init_at(s, top - 9);
	for (uint64_t i = top - 9; i <= top; i++)
		T_EQ_INT(seq_add(s, i), SEQ_IN_ORDER);
	T_EQ_INT(seq_add(s, 0), SEQ_IN_ORDER);
	T_EQ_U64(s->next_exp, (1ULL << 48) + 1);
	T_EQ_INT(seq_add(s, 2), SEQ_IN_ORDER);      /* 1 missing across the wrap */
	T_EQ_U64(seq_lost_now(s), 1);
	T_EQ_INT(seq_add(s, top), SEQ_DUPLICATE);   /* an old number, before the wrap */
	T_EQ_INT(seq_add(s, 1), SEQ_REORDERED);     /* the gap fills after the wrap */
	T_EQ_INT(seq_add(s, top - 3), SEQ_DUPLICATE);
	for (uint64_t i = 3; i < 100; i++)
		seq_add(s, i);
	seq_finish(s, 0);
	T_EQ_U64(s->rx_pkts, 110);
	T_EQ_U64(s->lost_final, 0);
	T_EQ_U64(s->dup_pkts, 2);
	T_EQ_U64(s->reordered_pkts, 1);
	T_EQ_U64(s->next_exp, (1ULL << 48) + 100);
	free(s);
}

static void t_unwrap(void)
{
	struct seq_stream *s = mk();
	uint64_t m = 1ULL << 48;
	T_EQ_U64(seq_unwrap(s, m - 3), m - 3);      /* never below 0 */
	seq_init_at(s, 5 * m + 10);
	T_EQ_U64(seq_unwrap(s, 12), 5 * m + 12);
	T_EQ_U64(seq_unwrap(s, m - 1), 5 * m - 1);  /* just before the last wrap */
	seq_init_at(s, 6 * m - 2);
	T_EQ_U64(seq_unwrap(s, 3), 6 * m + 3);      /* just after the next wrap */
	free(s);
}

static void t_floor(void)
{
	/* a sink that joins at 1000: nothing below is lost, received or reordered */
	struct seq_stream *s = mk();
	seq_init_at(s, 1000);
	T_EQ_INT(seq_add(s, 1000), SEQ_IN_ORDER);
	T_EQ_INT(seq_add(s, 999), SEQ_BEFORE_FLOOR);
	T_EQ_INT(seq_add(s, 1002), SEQ_IN_ORDER);
	T_EQ_U64(seq_lost_now(s), 1);
	for (uint64_t i = 1003; i < 1000 + 3 * SEQ_WIN; i++)
		seq_add(s, i);
	T_EQ_U64(seq_add(s, 5), SEQ_BEFORE_FLOOR);
	seq_finish(s, 1000 + 3 * SEQ_WIN + 7);
	T_EQ_U64(s->lost_final, 1 + 7);
	T_EQ_U64(s->rx_pkts, 3 * SEQ_WIN - 1);
	T_EQ_U64(s->before_floor_pkts, 2);
	T_EQ_U64(s->rx_pkts + s->lost_final, 3 * SEQ_WIN + 7);
	free(s);
}

/* Two workers' parts of one stream: counts add up, the highest NextExp and the lowest
 * floor of a started part stay; the folded loss is numbered minus received. */
static void t_fold(void)
{
	struct seq_stream *a = mk(), *b = mk(), *c = mk();
	seq_init_at(a, 10);
	feed(a, (const uint64_t[]){ 10, 12, 14, 12 }, 4);    /* 11, 13 missing; 12 twice */
	seq_init_at(b, 5);
	feed(b, (const uint64_t[]){ 5, 11, 20, 13 }, 4);     /* 13 reordered */
	seq_fold(a, true, b, true);
	T_TRUE(a->finished && b->finished);
	T_EQ_U64(a->rx_pkts, 3 + 4);
	T_EQ_U64(a->dup_pkts, 1);
	T_EQ_U64(a->reordered_pkts, 1);
	T_EQ_U64(a->next_exp, 21);
	T_EQ_U64(a->floor, 5);
	T_EQ_U64(a->lost_final, 2 + 12);   /* each part's own view: not the total */
	seq_finish_folded(a, 25);          /* the sender numbered 5 .. 24 */
	T_EQ_U64(a->lost_final, 20 - 7);
	seq_finish(a, 25);                 /* already ended: nothing changes */
	T_EQ_U64(a->lost_final, 13);
	/* a part that never started has no floor to give */
	seq_init_at(c, 0);
	seq_fold(b, true, c, false);
	T_EQ_U64(b->floor, 5);
	seq_finish_folded(b, 3);           /* top below the floor: nothing numbered, no loss */
	T_EQ_U64(b->lost_final, 0);
	free(a);
	free(b);
	free(c);
}

static void t_long_reorder(void)
{
	/* frame 10 arrives 60,000 frames late: inside the window it is reordered, never
	 * lost; its extent exceeds what the advance ring remembers (lower bound, flagged) */
	struct seq_stream *s = mk();
	for (uint64_t i = 0; i < 60011; i++)
		if (i != 10)
			seq_add(s, i);
	T_EQ_U64(seq_lost_now(s), 1);
	T_EQ_INT(seq_add(s, 10), SEQ_REORDERED);
	T_EQ_U64(seq_lost_now(s), 0);
	T_EQ_U64(s->extent_truncated, 1);
	T_TRUE(s->max_extent >= SEQ_EXT_RING);
	/* a shorter one is exact: 20 frames late */
	for (uint64_t i = 60011; i < 60100; i++)
		if (i != 60050)
			seq_add(s, i);
	T_EQ_INT(seq_add(s, 60050), SEQ_REORDERED);
	T_EQ_U64(s->extent_hist[5] + s->extent_hist[4], 1);   /* 49 is in [32, 64) */
	seq_finish(s, 60100);
	T_EQ_U64(s->lost_final, 0);
	T_EQ_U64(s->reordered_pkts, 2);
	T_EQ_U64(s->rx_pkts, 60100);
	free(s);
}

int main(void)
{
	T_RUN(t_in_order);
	T_RUN(t_fold);
	T_RUN(t_gap_and_burst);
	T_RUN(t_late_fill_is_not_loss);
	T_RUN(t_duplicates);
	T_RUN(t_long_reorder_extent);
	T_RUN(t_dup_of_reordered);
	T_RUN(t_below_window);
	T_RUN(t_48bit_values);
	T_RUN(t_tail_loss);
	T_RUN(t_random_shuffle_conserves);
	T_RUN(t_48bit_wrap);
	T_RUN(t_unwrap);
	T_RUN(t_floor);
	T_RUN(t_long_reorder);
	return t_done();
}
