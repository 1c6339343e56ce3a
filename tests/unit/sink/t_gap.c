/* SPDX-License-Identifier: BSD-2-Clause */
/* t_gap.c — a stream's gap list on crafted arrivals, driven the way the sink drives
 * it (seq_add's verdict decides advance or fill): a lost run, a silence, reordering
 * that fills its gap and vanishes, reordering into a real gap, the window's edge, the
 * caps. */
#include <stdlib.h>

#include "gap.h"
#include "seq.h"
#include "tap.h"

struct st {
	struct seq_stream s;
	struct gap_book g;
};

static struct st *mk_n(uint64_t gap_min_ns, uint32_t list_max)
{
	struct st *x = malloc(sizeof(*x));
	seq_init(&x->s);
	gap_init(&x->g, gap_min_ns, list_max);
	return x;
}

static struct st *mk(uint64_t gap_min_ns)
{
	return mk_n(gap_min_ns, GAP_LIST);
}

/* One arrival of seq at t_ns, as sink.c's account() does it. */
static void arrive(struct st *x, uint64_t seq, uint64_t t_ns)
{
	uint64_t prev = x->s.next_exp, q = seq_unwrap(&x->s, seq);
	enum seq_verdict v = seq_add(&x->s, seq);
	if (v == SEQ_IN_ORDER)
		gap_advance(&x->g, prev, q, t_ns, x->s.next_exp);
	else if (v == SEQ_REORDERED || v == SEQ_LATE)
		gap_fill(&x->g, q);
}

static void end(struct st *x, uint64_t expected)
{
	seq_finish(&x->s, expected);
	gap_finish(&x->g);
}

#define MS 1000000ull

/* 1 kpps, frames 100..349 lost (a 250 ms outage): one gap, 251 ms from the last
 * frame before to the first after, 250 lost. */
static void t_lost_run(void)
{
	struct st *x = mk(0);
	for (uint64_t i = 0; i < 1000; i++)
		if (i < 100 || i >= 350)
			arrive(x, i, i * MS);
	end(x, 1000);
	T_EQ_U64(x->g.nlist, 1);
	T_EQ_U64(x->g.list[0].seq_before, 99);
	T_EQ_U64(x->g.list[0].seq_after, 350);
	T_EQ_U64(x->g.list[0].lost, 250);
	T_EQ_U64(x->g.list[0].reordered, 0);
	T_EQ_U64(gap_duration(&x->g.list[0]), 251 * MS);
	T_EQ_U64(x->g.longest_ns, 251 * MS);
	T_EQ_U64(gap_lost(&x->g), x->s.lost_final);
	free(x);
}

/* Nothing lost, the frames held back 250 ms (a router that buffers): a gap only with
 * --gap-min, and then with nothing lost. */
static void t_silence(void)
{
	for (int on = 0; on < 2; on++) {
		struct st *x = mk(on ? 10 * MS : 0);
		for (uint64_t i = 0; i < 1000; i++)
			arrive(x, i, i * MS + (i >= 100 ? 250 * MS : 0));
		end(x, 1000);
		T_EQ_U64(x->g.nlist, on ? 1u : 0u);
		if (on) {
			T_EQ_U64(x->g.list[0].seq_before, 99);
			T_EQ_U64(x->g.list[0].seq_after, 100);
			T_EQ_U64(x->g.list[0].lost, 0);
			T_EQ_U64(gap_duration(&x->g.list[0]), 251 * MS);
		}
		T_EQ_U64(x->g.longest_ns, on ? 251 * MS : 0);
		free(x);
	}
}

/* Adjacent swaps all through: many gaps open, every one filled: none reported. */
static void t_reorder_is_no_gap(void)
{
	struct st *x = mk(10 * MS);
	for (uint64_t i = 0; i < 200000; i += 2) {
		arrive(x, i + 1, i * 1000);
		arrive(x, i, i * 1000 + 500);
	}
	end(x, 200000);
	T_EQ_U64(x->s.lost_final, 0);
	T_EQ_U64(x->s.reordered_pkts, 100000);
	T_EQ_U64(gap_count(&x->g), 0);
	T_EQ_U64(x->g.longest_ns, 0);
	free(x);
}

/* A real gap with some of its frames arriving late: it stays, with fewer lost and
 * the reordering said. */
static void t_reorder_into_gap(void)
{
	struct st *x = mk(0);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 10; i++)
		arrive(x, i, t += MS);
	arrive(x, 20, t += 50 * MS);
	arrive(x, 12, t += MS);     /* late: fills one of 10..19 */
	arrive(x, 15, t += MS);
	for (uint64_t i = 21; i < 30; i++)
		arrive(x, i, t += MS);
	end(x, 30);
	T_EQ_U64(x->g.nlist, 1);
	T_EQ_U64(x->g.list[0].lost, 8);
	T_EQ_U64(x->g.list[0].reordered, 2);
	T_EQ_U64(gap_duration(&x->g.list[0]), 50 * MS);
	T_EQ_U64(x->s.lost_final, 8);
	free(x);
}

/* A gap's numbers leave the window: final then, and a frame below the window still
 * fills it (seq.h's late arrival). */
static void t_window_edge(void)
{
	struct st *x = mk(0);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 5; i++)
		arrive(x, i, t += 1000);
	for (uint64_t i = 8; i < SEQ_WIN + 100; i++)
		arrive(x, i, t += 1000);
	T_EQ_U64(x->g.pend_n, 0);
	T_EQ_U64(x->g.nlist, 1);
	T_EQ_U64(x->g.list[0].lost, 3);
	arrive(x, 6, t += 1000);    /* below the window */
	T_EQ_U64(x->g.list[0].lost, 2);
	T_EQ_U64(x->g.list[0].reordered, 1);
	end(x, SEQ_WIN + 100);
	T_EQ_U64(gap_lost(&x->g), x->s.lost_final);
	free(x);
}

/* Two forwarding threads, one lagging 500 frames behind the other: every number of the
 * slow one is a hole when it opens (far more than GAP_PENDING at once), and every hole
 * is filled: no gap, none counted. */
static void t_lagging_thread(void)
{
	struct st *x = mk_n(10 * MS, GAP_LIST);
	uint64_t t = 0;
	const uint64_t N = 20000, LAG = 1000;
	for (uint64_t k = 0; k < N + LAG; k += 2) {
		if (k < N)
			arrive(x, k, t += 1000);            /* the fast thread: evens */
		if (k >= LAG)
			arrive(x, k - LAG + 1, t += 1000);  /* the slow one: odds, late */
	}
	end(x, N);
	T_EQ_U64(x->s.lost_final, 0);
	T_EQ_U64(x->s.reordered_pkts, N / 2 - 1);
	T_EQ_U64(gap_count(&x->g), 0);
	T_EQ_U64(x->g.longest_ns, 0);
	T_EQ_U64(x->g.unlisted_lost, 0);
	free(x);
}

/* More gaps open at once than GAP_PENDING: neighbours merged, the least loss together
 * first, so the records stay about equal (the oldest does not swallow the rest), loss
 * conserved, memory fixed. */
static void t_merge(void)
{
	struct st *x = mk(0);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 3000; i++)
		if (i % 10 != 5)    /* 300 single losses, all within one window */
			arrive(x, i, t += 1000);
	T_EQ_U64(x->g.merges, 300 - GAP_PENDING);
	T_EQ_U64(x->g.early_final, 0);
	end(x, 3000);
	T_EQ_U64(x->g.nlist, GAP_PENDING);
	uint64_t merged = 0, most = 0;
	for (uint32_t i = 0; i < x->g.nlist; i++) {
		merged += x->g.list[i].merged;
		if (x->g.list[i].merged > most)
			most = x->g.list[i].merged;
		T_EQ_U64(x->g.list[i].lost, x->g.list[i].merged);
	}
	T_EQ_U64(merged, 300);
	T_TRUE(most <= 8);                  /* 300 / 64 rounded to pairs; not 237 */
	T_EQ_U64(x->g.list[0].seq_before, 4);
	T_EQ_U64(gap_lost(&x->g), 300);
	T_EQ_U64(x->s.lost_final, 300);
	T_EQ_U64(x->g.longest_ns, 1000);   /* the longest silence, not a merged span */
	free(x);
}

/* Scattered loss (10 kpps, 1 frame in 200 lost) with a 250 ms outage (2,500 frames)
 * in it: far more gaps open than GAP_PENDING, yet the outage keeps a record of its own,
 * with --gap-min 0 (nothing protected as a long silence) as with 10 ms, and the merged
 * records of single losses around it stay inside the window (the old code merged the
 * oldest pair every time: one record from seq 6 swallowed the outage and 198 s). And
 * with dense loss (1 in 10), a run of 100 lost is still not merged into the records of
 * single losses, though these hold more loss than it. */
static void t_outage_amid_scatter(void)
{
	static const struct {
		uint64_t gap_min, every, run;
	} c[] = { { 0, 200, 2500 }, { 10 * MS, 200, 2500 }, { 0, 10, 100 } };
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct st *x = mk(c[k].gap_min);
		uint64_t t = 0;
		const uint64_t N = 200000, O = 40000, R = c[k].run;
		for (uint64_t s = 0; s < N; s++) {
			t += 100000;
			if (s % c[k].every == 7 || (s >= O && s < O + R))
				continue;
			arrive(x, s, t);
		}
		end(x, N);
		T_EQ_U64(x->g.early_final, 0);
		T_EQ_U64(x->g.nlist, GAP_LIST);
		int found = 0;
		for (uint32_t i = 0; i < x->g.nlist; i++) {
			const struct gap *r = &x->g.list[i];
			T_TRUE(r->seq_after - r->seq_before <= SEQ_WIN);
			if (r->seq_before == O - 1) {
				found = 1;
				T_EQ_U64(r->seq_after, O + R);
				T_EQ_U64(r->lost, R);
				T_EQ_U64(r->merged, 1);
				T_EQ_U64(gap_duration(r), (R + 1) * 100000);
			} else {
				T_EQ_U64(r->run, 1);
			}
		}
		T_TRUE(found);
		T_EQ_U64(x->g.longest_ns, (R + 1) * 100000);
		T_EQ_U64(gap_lost(&x->g), x->s.lost_final);
		free(x);
	}
}

/* Loss scattered through a long run (1 frame in 100, 2M frames): open records become
 * final as their numbers leave the window, so the oldest open one is never far below
 * it and the first listed spans at most a window (the old code kept one record from
 * seq 4 open to the end: `seq 4..19993606 merged 199937` over 20M). */
static void t_merge_leaves_window(void)
{
	struct st *x = mk_n(0, GAP_LIST_DEFAULT);
	uint64_t t = 0;
	const uint64_t N = 2000000;
	for (uint64_t s = 0; s < N; s++) {
		if (s % 100 == 5)
			continue;
		arrive(x, s, t += 67);
		if (s % 100000 == 99999 && x->g.pend_n) {
			const struct gap *o = &x->g.pend[x->g.pend_head];
			T_TRUE(o->seq_before + 2 * SEQ_WIN >= x->s.next_exp);
			T_TRUE(x->g.pend_n <= GAP_PENDING);
		}
	}
	T_EQ_U64(x->g.early_final, 0);
	end(x, N);
	T_EQ_U64(x->g.nlist, GAP_LIST_DEFAULT);
	T_TRUE(x->g.list[0].seq_after <= SEQ_WIN);
	for (uint32_t i = 0; i < x->g.nlist; i++)
		T_TRUE(x->g.list[i].seq_after - x->g.list[i].seq_before <= SEQ_WIN);
	T_EQ_U64(gap_lost(&x->g), N / 100);
	T_EQ_U64(x->s.lost_final, N / 100);
	free(x);
}

/* More gaps than the list holds, each final in its turn: counted, loss conserved. */
static void t_caps(void)
{
	struct st *x = mk(0);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 600000; i++)
		if (i % 2000 != 5)    /* 300 single losses, 32 to a window */
			arrive(x, i, t += 1000);
	end(x, 600000);
	T_EQ_U64(x->g.merges, 0);
	T_EQ_U64(x->g.nlist, GAP_LIST);
	T_EQ_U64(x->g.unlisted, 300 - GAP_LIST);
	T_EQ_U64(gap_count(&x->g), 300);
	T_EQ_U64(gap_lost(&x->g), 300);
	T_EQ_U64(x->s.lost_final, 300);
	T_EQ_U64(x->g.longest_ns, 1000);   /* t counts arrivals */
	free(x);
}

/* Long silences are never merged: with more open than GAP_PENDING and every pair
 * holding one, the oldest is made final early; filled completely afterwards, a listed
 * gap without a long silence is taken off the list again, one with it stays. */
static void t_early_then_filled(void)
{
	struct st *x = mk(10 * MS);
	uint64_t t = 0;
	for (uint64_t k = 0; k < 50; k++) {   /* silence, then a lost number, repeated: 100
					       * gaps, 36 final early, all listed */
		arrive(x, 3 * k, t += 20 * MS);
		arrive(x, 3 * k + 2, t += 1000);
	}
	T_EQ_U64(x->g.merges, 0);
	T_TRUE(x->g.early_final > 0);
	T_EQ_U64(x->g.list[0].seq_before, 0);   /* 0 → 2, 1 lost, no silence */
	T_EQ_U64(x->g.list[0].lost, 1);
	uint32_t n = x->g.nlist;
	arrive(x, 1, t += 1000);
	T_EQ_U64(x->g.nlist, n - 1);
	T_EQ_U64(x->g.list[0].seq_before, 2);   /* 2 → 3: a silence, kept */
	end(x, 150);
	T_EQ_U64(gap_lost(&x->g), x->s.lost_final);
	free(x);
}

/* A shorter list (--gap-list), and none at all: the rest counted, loss conserved; a
 * late frame into an unlisted gap taken off its loss, one before the first frame not. */
static void t_list_max(void)
{
	for (uint32_t max = 0; max <= 5; max += 5) {
		struct st *x = mk_n(0, max);
		uint64_t t = 0;
		for (uint64_t i = 3; i < 400000; i++)
			if (i % 2000 != 1000 || i == 1000)   /* 199 single losses after 1000 */
				arrive(x, i, t += 1000);
		arrive(x, 1, t += 1000);           /* before the first frame: no gap */
		arrive(x, 381000, t += 1000);      /* in the window: its open gap was
						    * reordering, and goes */
		arrive(x, 201000, t += 1000);      /* below the window: fills an unlisted gap */
		end(x, 400000);
		T_EQ_U64(x->g.nlist, max);
		T_EQ_U64(gap_count(&x->g), 198);
		T_EQ_U64(x->g.unlisted, 198 - max);
		T_EQ_U64(gap_lost(&x->g), 197);
		T_EQ_U64(x->s.lost_final, 197 + 2);   /* and 0, 2 before the first frame */
		free(x);
	}
	struct gap_book g;
	gap_init(&g, 0, 1000);
	T_EQ_U64(g.list_max, GAP_LIST);
}

/* A listed gap taken off as reordering leaves room on a list that already counted a
 * later gap unlisted: the next final gap takes it, a late frame into the unlisted one
 * is still taken off its loss, and gap loss never exceeds the stream's. */
static void t_unlisted_after_removed(void)
{
	struct st *x = mk_n(0, 2);
	uint64_t t = 0;
	const uint64_t N = 3 * SEQ_WIN;
	for (uint64_t i = 0; i < N; i++)
		if (i != 10 && i != 20 && i != 30 && i != 2 * SEQ_WIN)
			arrive(x, i, t += 1000);
	T_EQ_U64(x->g.nlist, 2);           /* 10, 20 listed; 30 counted */
	T_EQ_U64(x->g.unlisted, 1);
	arrive(x, 10, t += 1000);          /* below the window: 10 was reordering */
	T_EQ_U64(x->g.nlist, 1);
	for (uint64_t i = N; i < N + SEQ_WIN + 10; i++)
		arrive(x, i, t += 1000);       /* 2 * SEQ_WIN's gap becomes final: listed */
	T_EQ_U64(x->g.nlist, 2);
	T_EQ_U64(x->g.list[1].seq_before, 2 * SEQ_WIN - 1);
	T_EQ_U64(x->g.unlisted, 1);
	arrive(x, 30, t += 1000);          /* late into the unlisted gap at 30 */
	end(x, N + SEQ_WIN + 10);
	T_EQ_U64(x->s.lost_final, 2);
	T_EQ_U64(gap_lost(&x->g), 2);
	T_EQ_U64(x->g.unlisted_lost, 0);
	free(x);
}

/* A full list keeps the gaps that lost most: after 100 scattered single losses (each
 * leaving the window alone, none merged) an outage of 300 frames takes the place of
 * the newest single loss on a list of 16, exactly, in sequence order; the books count
 * every gap and every lost frame. */
static void t_outage_after_scatter(void)
{
	struct st *x = mk_n(0, 16);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 400000; i++)
		if (!(i % 2000 == 5 && i < 200000) && !(i >= 250000 && i < 250300))
			arrive(x, i, t += MS);   /* 1 kpps: t counts arrivals */
	end(x, 400000);
	T_EQ_U64(x->g.merges, 0);
	T_EQ_U64(x->g.nlist, 16);
	T_EQ_U64(x->g.list[0].seq_before, 4);
	T_EQ_U64(x->g.list[14].seq_before, 14 * 2000 + 4);
	const struct gap *o = &x->g.list[15];
	T_EQ_U64(o->seq_before, 249999);
	T_EQ_U64(o->seq_after, 250300);
	T_EQ_U64(o->lost, 300);
	T_EQ_U64(gap_duration(o), MS);   /* t counts arrivals: the frames on either side */
	T_EQ_U64(gap_count(&x->g), 101);
	T_EQ_U64(x->g.unlisted, 85);
	T_EQ_U64(x->g.unlisted_lost, 85);
	T_EQ_U64(gap_lost(&x->g), 400);
	T_EQ_U64(x->s.lost_final, 400);
	/* with a silence asked for (--gap-min), the silence ranks first: a 5 ms silence
	 * without loss keeps its place against losses */
	struct st *y = mk_n(2 * MS, 2);
	t = 0;
	for (uint64_t i = 0; i < 200000; i++) {
		if (i % 2000 == 5 && i < 100000)
			continue;   /* 50 single losses, 1 ms apart */
		t += i == 150000 ? 5 * MS : MS;
		arrive(y, i, t);
	}
	end(y, 200000);
	T_EQ_U64(y->g.nlist, 2);
	T_EQ_U64(y->g.list[1].seq_after, 150000);
	T_EQ_U64(y->g.list[1].lost, 0);
	T_EQ_U64(gap_count(&y->g), 51);
	T_EQ_U64(gap_lost(&y->g), 50);
	free(x);
	free(y);
}

/* A listed gap that late frames filled down to one loss ranks by what it still lost:
 * on a full list of 2 the next gap of 2 takes its place, not that of the other gap of
 * 2 beside it. */
static void t_filled_listed_ranks_lower(void)
{
	struct st *x = mk_n(0, 2);
	uint64_t t = 0;
	for (uint64_t i = 0; i < 200000; i++) {
		if ((i >= 100 && i <= 102) || i == 70000 || i == 70001 || i == 140000 ||
		    i == 140001)
			continue;
		arrive(x, i, t += MS);         /* t counts arrivals: every silence 1 ms */
		if (i == 100000) {             /* below the window: into the listed 100..102 */
			arrive(x, 100, t += MS);
			arrive(x, 101, t += MS);
		}
	}
	end(x, 200000);
	T_EQ_U64(x->g.nlist, 2);
	T_EQ_U64(x->g.list[0].seq_before, 69999);
	T_EQ_U64(x->g.list[1].seq_before, 139999);
	T_EQ_U64(x->g.unlisted, 1);
	T_EQ_U64(x->g.unlisted_lost, 1);
	T_EQ_U64(gap_lost(&x->g), 5);
	T_EQ_U64(x->s.lost_final, 5);
	free(x);
}

/* The head (before the first frame) and the tail (after the last) are loss, not gaps. */
static void t_head_tail(void)
{
	struct st *x = mk(10 * MS);
	for (uint64_t i = 10; i < 20; i++)
		arrive(x, i, i * MS);
	end(x, 30);
	T_EQ_U64(x->s.lost_final, 20);
	T_EQ_U64(gap_count(&x->g), 0);
	/* NextExp stays the last frame's + 1: the head is the first frame's number less
	 * the floor, the tail the sender's count less NextExp */
	T_EQ_U64(x->s.next_exp, 20);
	T_EQ_U64(x->g.first_seq - x->s.floor + gap_lost(&x->g) + (30 - x->s.next_exp),
		 x->s.lost_final);
	free(x);
}

/* t_outage.sh's books on a busy host: 10 kpps, a forwarder's pause of 250 ms with a
 * ring of 512 (the ring's frames come after the silence, then 1,988 lost), a link down
 * for 250 ms (2,500 lost), and the forwarder held by the host as the sender stops: its
 * ring keeps the 512 oldest frames and drops the newest 412, the tail. The gaps' loss
 * plus expect − NextExp is the stream's loss: NextExp is not raised to the sender's
 * count at the end (it was, and the tail vanished from the books). */
static void t_outage_books(void)
{
	const uint64_t N = 60000, US = 1000;
	struct st *x = mk_n(50 * MS, 64);
	uint64_t t = 0;
	for (uint64_t i = 0; i < N; i++) {
		t = i * 100 * US;
		if (i >= 10000 && i < 10000 + 2500)   /* the pause: held, then the ring's */
			t = 10000 * 100 * US + 250 * MS + (i - 10000) * US;
		if (i >= 10000 + 512 && i < 12500)
			continue;                     /* the ring's drops in the pause */
		if (i >= 30000 && i < 32500)
			continue;                     /* the link down */
		if (i >= N - 412)
			continue;                     /* the ring's drops at the end */
		arrive(x, i, t);
	}
	end(x, N);
	T_EQ_U64(x->s.lost_final, 1988 + 2500 + 412);
	T_EQ_U64(x->s.next_exp, N - 412);
	T_EQ_U64(x->s.reordered_pkts, 0);
	T_EQ_U64(gap_lost(&x->g) + (N - x->s.next_exp), x->s.lost_final);
	T_EQ_U64(gap_lost(&x->g), 1988 + 2500);
	free(x);
}

/* RFC 2544 §26.5's overload: 1 kpps, one frame in ten lost for 20 s (2,000 gaps, far
 * more than a list holds or the open gaps keep apart), then none: the latest loss is
 * still known exactly, its own ends, not a merged record's. */
static void t_last_after_overload(void)
{
	struct st *x = mk_n(0, 16);
	for (uint64_t i = 0; i < 40000; i++)
		if (!(i < 20000 && i % 10 == 5))
			arrive(x, i, i * MS);
	end(x, 40000);
	T_TRUE(x->g.unlisted > 0);
	T_TRUE(x->g.merges > 0);
	T_TRUE(x->g.have_last);
	T_TRUE(!x->g.last_inexact);
	T_EQ_U64(x->g.last.seq_before, 19994);
	T_EQ_U64(x->g.last.seq_after, 19996);
	T_EQ_U64(x->g.last.lost, 1);
	T_EQ_U64(x->g.last.before_ns, 19994 * MS);
	T_EQ_U64(x->g.last.after_ns, 19996 * MS);
	free(x);
}

/* The latest loss filled by a late frame: the record moves back to the loss before
 * it, exactly (a gap of its own); filled too, nothing is lost and there is no record. */
static void t_last_filled(void)
{
	struct st *x = mk(0);
	for (uint64_t i = 0; i < 400; i++) {
		if (i != 100 && i != 200 && i != 201)
			arrive(x, i, i * MS);
		if (i == 300)
			arrive(x, 201, 300 * MS);
	}
	T_TRUE(x->g.have_last);
	T_EQ_U64(x->g.last.seq_before, 199);
	T_EQ_U64(x->g.last.seq_after, 202);
	T_EQ_U64(x->g.last.lost, 1);
	T_EQ_U64(x->g.last.reordered, 1);
	arrive(x, 200, 301 * MS);
	T_TRUE(x->g.have_last);
	T_TRUE(!x->g.last_inexact);
	T_EQ_U64(x->g.last.seq_before, 99);
	T_EQ_U64(x->g.last.seq_after, 101);
	T_EQ_U64(x->g.last.after_ns, 101 * MS);
	arrive(x, 100, 302 * MS);
	T_TRUE(!x->g.have_last);
	T_TRUE(!x->g.last_inexact);
	end(x, 400);
	T_EQ_U64(x->s.lost_final, 0);
	free(x);
}

/* The books on random in-order streams, as the sink drives seq.c and gap.c: scattered
 * single losses, runs of up to 3,000, jumps beyond the window, silences above gap_min,
 * lists of 1 to 64, a floor, loss before the first frame and after the last. Every
 * frame lost is in the head (the first frame's number less the floor), a gap, or the
 * tail (the sender's count less NextExp). */
static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void t_books_random(void)
{
	struct st *x = mk(0);
	bool all = true;
	for (int it = 0; it < 200; it++) {
		uint64_t floor = rnd() % 3 ? 0 : rnd() % 1000;
		seq_init_at(&x->s, floor);
		gap_init(&x->g, rnd() % 2 ? 50 * MS : 0, 1 + (uint32_t)(rnd() % GAP_LIST));
		uint64_t n = floor + 1 + rnd() % 100000, t = 0;
		uint64_t q = floor + (rnd() % 2 ? rnd() % 600 : 0);
		unsigned mode = (unsigned)(rnd() % 4);
		if (q >= n)
			q = n - 1;
		while (q < n) {
			arrive(x, q, t);
			t += 100 * 1000 + (rnd() % 1000 == 0 ? 300 * MS : 0);
			uint64_t k = rnd() % 1000;
			if (mode == 0 && k < 50)
				q += 2 + rnd() % 3;
			else if (mode == 1 && k < 2)
				q += 1 + rnd() % 3000;
			else if (mode == 2 && k < 1)
				q += SEQ_WIN + rnd() % 100000;
			else if (mode == 3 && k < 300)
				q += 2;
			else
				q++;
		}
		uint64_t expect = n + (rnd() % 2 ? rnd() % 1000 : 0);
		end(x, expect);
		uint64_t books = x->g.first_seq - floor + gap_lost(&x->g) +
				 (expect - x->s.next_exp);
		if (books != x->s.lost_final || x->s.reordered_pkts) {
			T_EQ_U64(books, x->s.lost_final);
			all = false;
			break;
		}
	}
	T_TRUE(all);
	free(x);
}

int main(void)
{
	T_RUN(t_lost_run);
	T_RUN(t_silence);
	T_RUN(t_reorder_is_no_gap);
	T_RUN(t_reorder_into_gap);
	T_RUN(t_window_edge);
	T_RUN(t_lagging_thread);
	T_RUN(t_merge);
	T_RUN(t_outage_amid_scatter);
	T_RUN(t_merge_leaves_window);
	T_RUN(t_unlisted_after_removed);
	T_RUN(t_caps);
	T_RUN(t_early_then_filled);
	T_RUN(t_list_max);
	T_RUN(t_head_tail);
	T_RUN(t_outage_books);
	T_RUN(t_books_random);
	T_RUN(t_outage_after_scatter);
	T_RUN(t_filled_listed_ranks_lower);
	T_RUN(t_last_after_overload);
	T_RUN(t_last_filled);
	return t_done();
}
