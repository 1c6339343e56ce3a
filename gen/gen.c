/* SPDX-License-Identifier: BSD-2-Clause */
/* gen.c — the workers of ppslab-gen (see gen.h).
 *
 * Per batch: read the clock once, ask the schedule how many frames are due, fill that
 * many frames (sequence numbers, timestamp, and for mixes, flows and faults: the
 * options pick one fill routine before the loop, not a branch per frame), hand the batch
 * to the port. A full ring is backpressure, not loss: the worker retries (counting
 * tx_full), so the offered load falls visibly short instead of frames vanishing; when
 * asked to stop it gives a full ring GEN_STOP_GRACE_NS to drain, then counts what is
 * left as unsent. Between deadlines it sleeps, and spins for the last GEN_SPIN_NS. */
#include "gen.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "csum.h"
#include "relaxed.h"
#include "rng.h"
#include "strlist.h"
#include "thread.h"

#define GEN_SPIN_NS 50000ULL           /* spin for the last 50 us before a deadline */
#define GEN_MAX_SLEEP_NS 50000000ULL   /* wake at least every 50 ms to see a stop */
#define GEN_STOP_GRACE_NS 20000000ULL  /* a full ring gets 20 ms to drain at the end */
#define GEN_END_GRACE_NS 100000000ULL  /* frames due before the end may go 100 ms late */

/* Fills the batch's n frames; *nvalid gets the number of test frames among them, which
 * took the sequence numbers seq0 .. seq0 + nvalid − 1. */
typedef void (*fill_fn)(struct gen_worker *w, uint32_t n, uint64_t ts, uint32_t *nvalid,
			uint64_t *seq0);

/* The signature of this worker's frames: its flags and stream; seq and tx_ns per frame. */
static inline struct sig sig_of(const struct gen_worker *w)
{
	return (struct sig){ .flags = (uint8_t)((w->g->cfg.realtime_ts ? SIG_F_REALTIME : 0) |
						(w->warm ? SIG_F_WARMUP : 0)),
			     .stream = w->g->cfg.stream };
}

/* Sequence numbers for the test frames of a batch: one shared counter for the stream. */
static uint64_t claim(struct gen_worker *w, uint32_t nvalid)
{
	if (w->warm) {     /* the sink skips warm-up frames: their numbers are private */
		uint64_t s = w->warm_seq;
		w->warm_seq += nvalid;
		return s;
	}
	return atomic_fetch_add_explicit(&w->g->seq_next, nvalid, memory_order_relaxed);
}

/* One size, one flow, no faults: the slots hold the template; only the signature's
 * flags, sequence and timestamp change, with an RFC 1624 update of the UDP checksum
 * over those 16 bytes. */
static void fill_simple(struct gen_worker *w, uint32_t n, uint64_t ts, uint32_t *nvalid,
			uint64_t *seq0)
{
	const struct gen *g = w->g;
	const uint8_t *t = g->fr.tmpl[0];
	const uint32_t sl = g->fr.frame_max;
	struct sig sg = sig_of(w);
	uint16_t tc;
	const uint32_t uo = g->fr.udp_off, po = g->fr.pl_off;   /* IPv4 or IPv6 */
	memcpy(&tc, t + uo + 6, 2);
	uint64_t seq = claim(w, n);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *f = w->slots + (size_t)i * sl;
		sg.seq = seq + i;
		sg.tx_ns = ts;
		sig_put(f + po, &sg);
		uint16_t c = csum_replace_bytes(tc, t + po + 2, f + po + 2, SIG_LEN - 2);
		c = csum_udp_nonzero(c);
		memcpy(f + uo + 6, &c, 2);
	}
	*nvalid = n;
	*seq0 = seq;
}

/* Size mixes, flows, faults: each frame's size and fault follow from its global
 * position; the flow too in sequential order, or from this thread's xorshift. */
static void fill_general(struct gen_worker *w, uint32_t n, uint64_t ts, uint32_t *nvalid,
			 uint64_t *seq0)
{
	const struct gen *g = w->g;
	const struct gen_cfg *c = &g->cfg;
	const uint32_t sl = g->fr.frame_max;
	struct sig sg = sig_of(w);
	const uint64_t k = w->pace.k;
	uint8_t zi[GEN_BATCH];
	uint32_t valid = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t pos = pace_position(&w->pace, k + i);
		zi[i] = (uint8_t)gen_size_at(&c->sizes, pos);
		w->slot_fault[i] = w->warm ? GEN_FAULT_NONE : (uint8_t)gen_fault_at(&c->inject, pos);
		valid += w->slot_fault[i] == GEN_FAULT_NONE;
	}
	uint64_t seq = claim(w, valid), s = seq;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *f = w->slots + (size_t)i * sl;
		const uint8_t *t = g->fr.tmpl[zi[i]];
		uint8_t sig[SIG_LEN];
		struct gen_tuple tup, *tp = NULL;
		if (w->slot_size[i] != zi[i]) {
			memcpy(f, t, g->fr.frame_len[zi[i]]);
			w->slot_size[i] = zi[i];
			w->pkts[i].len = g->fr.frame_len[zi[i]];
		}
		if (c->flows.n > 1) {
			uint64_t idx = c->flows.random
				? (uint64_t)(((unsigned __int128)rng_xs64(&w->rng) * c->flows.n) >> 64)
				: pace_position(&w->pace, k + i) % c->flows.n;
			gen_flow_at(&c->flows, idx, &tup);
			tp = &tup;
		}
		sg.seq = w->slot_fault[i] ? 0 : s++;
		sg.tx_ns = ts;
		sig_put(sig, &sg);
		gen_frame_patch(f, t, tp, sig, w->slot_fault[i]);
	}
	*nvalid = valid;
	*seq0 = seq;
}

/* --replay: frames of the capture, in order, as they are. */
static void fill_replay(struct gen_worker *w, uint32_t n, uint64_t ts, uint32_t *nvalid,
			uint64_t *seq0)
{
	const struct gen_replay *r = w->g->cfg.replay;
	(void)ts;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t j = pace_position(&w->pace, w->pace.k + i) % r->n;
		w->pkts[i].data = r->data + r->off[j];
		w->pkts[i].len = r->len[j];
	}
	*nvalid = 0;
	*seq0 = 0;
}

int gen_init(struct gen *g, const struct gen_cfg *cfg, char *err, size_t errlen)
{
	int rc;
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	if (!g->cfg.threads)
		g->cfg.threads = 1;
	if (!g->cfg.burst)
		g->cfg.burst = 1;
	if (!g->cfg.flows.n)
		g->cfg.flows.n = 1;
	if (!g->cfg.sizes.n)
		gen_sizes_single(&g->cfg.sizes, PKT_WIRE_MIN);
	if (cfg->replay) {
		g->fr.frame_max = cfg->replay->len_max;
	} else if ((rc = gen_frames_build(&g->fr, &g->cfg.sizes, &cfg->flow, cfg->stream,
					  &cfg->pattern, err, errlen))) {
		return rc;
	}
	if (cfg->profile) {
		g->prof = *cfg->profile;
		g->paced = 1;
	} else if (cfg->rate_pps > 0) {
		pace_profile_const(&g->prof, cfg->rate_pps);
		g->paced = 1;
	}
	if (g->paced) {
		/* warm-up runs at the profile's first rate (its first non-zero one) */
		for (unsigned i = 0; i < g->prof.nseg && !(g->warm_pps > 0); i++)
			g->warm_pps = g->prof.seg[i].r0_pps > 0 ? g->prof.seg[i].r0_pps
								: g->prof.seg[i].r1_pps;
		if (g->warm_pps > 0)
			pace_profile_const(&g->warm_prof, g->warm_pps);
		/* a worker's deadlines are burst × threads frames apart at the mean rate */
		double mean = g->prof.open_ended ? g->prof.seg[0].r0_pps
			: g->prof.total_ns ? (double)(g->prof.total * 1e9L / (long double)g->prof.total_ns)
					   : 0;
		g->nominal_gap_ns = mean > 0 ? 1e9 * g->cfg.burst * g->cfg.threads / mean : 0;
	}
	g->nw = g->cfg.threads;
	g->w = calloc(g->nw, sizeof(*g->w));
	if (!g->w) {
		gen_fini(g);
		return -ENOMEM;
	}
	/* the trial's epoch (sig.h): the measured numbers and the warm-up's from its base */
	atomic_init(&g->seq_next, sig_epoch_base(cfg->epoch));
	for (unsigned t = 0; t < g->nw; t++) {
		struct gen_worker *w = &g->w[t];
		w->g = g;
		w->idx = t;
		w->warm_seq = sig_epoch_base(cfg->epoch);
		hist_init(&w->gaps);
		w->rng = (cfg->seed + 1) * 0x9E3779B97F4A7C15ULL ^ (t + 1) * 0xBF58476D1CE4E5B9ULL;
		if (!w->rng)
			w->rng = 1;
		memset(w->slot_size, 0xff, sizeof(w->slot_size));
		if (!cfg->replay) {
			w->slots = malloc((size_t)GEN_BATCH * g->fr.frame_max);
			if (!w->slots) {
				gen_fini(g);
				return -ENOMEM;
			}
			for (unsigned i = 0; i < GEN_BATCH; i++) {
				uint8_t *f = w->slots + (size_t)i * g->fr.frame_max;
				memcpy(f, g->fr.tmpl[0], g->fr.frame_len[0]);
				w->slot_size[i] = 0;
				w->pkts[i].data = f;
				w->pkts[i].len = g->fr.frame_len[0];
			}
		}
		/* each worker its own ring; on xdp: also its own queue (one AF_XDP socket
		 * per queue) — afpacket picks the queue from the sending CPU by itself */
		struct port_cfg pc = { .dir = PORT_TX, .frame_max = g->fr.frame_max, .tx_linear = 1,
				       .queue_offset = (uint16_t)w->idx };
		if ((rc = port_open(cfg->port_spec, &pc, &w->port, err, errlen))) {
			gen_fini(g);
			return rc;
		}
	}
	return 0;
}

/* One phase of a worker (warm-up or measured): its bounds and what its batches need. */
struct phase {
	int warm;
	const struct pace_profile *prof;   /* NULL: as fast as possible */
	uint64_t t0, tend;                 /* tend 0: no time bound */
	uint64_t limit;                    /* this worker's share of --count */
	uint64_t grace;                    /* how late frames due before tend may still go */
	fill_fn fill;
	int has_mix;                       /* frames differ in size or fault */
	uint32_t flen;                     /* the one frame length (fill_simple) */
	uint64_t next_stall;               /* the test-only stall injection's next time */
	uint64_t shifted;                  /* --late-policy shift: the schedule moved by */
	uint64_t err0, ref0;               /* the port's tx_errors and tx_refused at start */
};

/* One batch: what was due and filled, and what the port took. */
struct batch {
	uint64_t k;                        /* the schedule's position of its first frame */
	uint64_t now, dl_first;            /* when it went, when its first frame was due */
	uint32_t n, sent, nvalid, late;
	uint64_t seq0;
};

static void phase_begin(struct gen_worker *w, int warm, struct phase *ph)
{
	struct gen *g = w->g;
	const struct gen_cfg *c = &g->cfg;
	struct pace_opts o = { .burst = c->burst, .stride = g->nw, .phase = w->idx,
			       .poisson = c->poisson && !warm, .seed = c->seed };
	struct port_stats st;

	*ph = (struct phase){ .warm = warm, .limit = UINT64_MAX, .next_stall = UINT64_MAX };
	ph->fill = c->replay ? fill_replay
		 : (c->sizes.n == 1 && c->flows.n == 1 && !c->inject.num) ? fill_simple
									  : fill_general;
	w->warm = warm;
	if (warm) {
		ph->t0 = g->start_ns;
		ph->tend = g->meas_ns;
		ph->prof = g->warm_pps > 0 ? &g->warm_prof : NULL;
	} else {
		ph->t0 = g->meas_ns;
		ph->tend = g->end_ns;
		ph->prof = g->paced ? &g->prof : NULL;
		if (c->count)
			ph->limit = pace_split_count(c->count, c->burst, g->nw, w->idx);
	}
	pace_init_profile(&w->pace, ph->t0, ph->prof, &o);
	w->prev_send_ns = 0;
	if (!warm)
		pace_track_init(&w->track, g->nominal_gap_ns, c->late_ns);
	/* stalls fall on multiples of EVERY of CLOCK_REALTIME: runs that follow each other
	 * (the trials of a search) meet them at different points, some not at all */
	if (c->stall_every_ns && !warm) {
		uint64_t r0 = real_ns(), m0 = mono_ns(), rt0 = ph->t0 - m0 + r0;
		ph->next_stall = ph->t0 + (c->stall_every_ns - rt0 % c->stall_every_ns);
	}
	port_stats(w->port, &st);
	ph->err0 = st.tx_errors;
	ph->ref0 = st.tx_refused;
	ph->has_mix = ph->fill != fill_simple;
	/* a paced measured phase may finish frames due before its end a little late; as
	 * fast as possible, or in the warm-up (the measured phase follows), it stops on time */
	ph->grace = !warm && g->paced ? GEN_END_GRACE_NS : 0;
	ph->flen = ph->fill == fill_simple ? g->fr.frame_len[0] : 0;
}

/* Hands the batch to the port, retrying while the ring is full (tx_full); once the run
 * is over a ring that stays full gets GEN_STOP_GRACE_NS. Sets b->sent; 0 or -errno. */
static int send_batch(struct gen_worker *w, const struct phase *ph, struct batch *b)
{
	struct runctl *rc = w->g->rc;
	uint64_t stop_at = 0;
	b->sent = 0;
	while (b->sent < b->n) {
		int a = port_tx_burst(w->port, w->pkts + b->sent, (int)(b->n - b->sent));
		if (a < 0)
			return a;
		b->sent += (uint32_t)a;
		if (b->sent == b->n)
			break;
		relaxed_add(&w->ctr.tx_full, 1);
		uint64_t t = mono_ns();
		if (runctl_stopped(rc) || (ph->tend && t >= ph->tend + ph->grace)) {
			/* the run is over (a ring that stays full must not outlast it) */
			if (!stop_at)
				stop_at = t;
			else if (t - stop_at > GEN_STOP_GRACE_NS)
				break;
		}
		sched_yield();    /* let the kernel drain the ring */
	}
	return 0;
}

/* The measured phase's books for a batch: sent, unsent, late, gaps, the schedule. */
static void account_measured(struct gen_worker *w, const struct phase *ph,
			     const struct batch *b, uint64_t bytes, uint64_t valid_sent)
{
	struct gen *g = w->g;
	const uint32_t sent = b->sent, n = b->n;
	struct port_stats st;
	relaxed_add(&w->ctr.tx_attempt, n);
	relaxed_add(&w->ctr.tx_pkts, sent);
	relaxed_add(&w->ctr.tx_bytes, bytes);
	relaxed_add(&w->ctr.tx_test, valid_sent);
	relaxed_add(&w->ctr.late, b->late < sent ? b->late : sent);
	if (sent) {
		pace_track_sent(&w->track, b->now, sent);
		relaxed_set(&w->ctr.burst_max, w->track.burst_max);
		if (w->prev_send_ns)
			hist_add_shared(&w->gaps, b->now - w->prev_send_ns, 1);
		if (sent > 1)
			hist_add_shared(&w->gaps, 0, sent - 1);
		w->prev_send_ns = b->now;
		if (!relaxed_get(&w->ctr.first_ns)) {
			relaxed_set(&w->ctr.first_ns, b->now);
			relaxed_set(&w->ctr.sched_first_ns, b->dl_first);
		}
		relaxed_set(&w->ctr.last_ns, b->now);
		relaxed_set(&w->ctr.sched_last_ns, pace_deadline_of(&w->pace, b->k + sent - 1));
	}
	if (sent < n) {
		relaxed_add(&w->ctr.tx_unsent, n - sent);
		uint64_t lost = b->nvalid - valid_sent;
		uint64_t expect = b->seq0 + b->nvalid;
		/* give the numbers back if nobody claimed after us; else they are holes */
		if (lost && !atomic_compare_exchange_strong(&g->seq_next, &expect,
							    b->seq0 + valid_sent))
			relaxed_add(&w->ctr.seq_holes, lost);
	}
	port_stats(w->port, &st);
	relaxed_set(&w->ctr.tx_fail, st.tx_errors - ph->err0);
	relaxed_set(&w->ctr.tx_refused, st.tx_refused - ph->ref0);
}

/* Accounting: what was accepted, and what of the batch was not. */
static void account_batch(struct gen_worker *w, const struct phase *ph, const struct batch *b)
{
	uint64_t bytes = 0, valid_sent = b->sent;
	if (ph->has_mix) {
		valid_sent = 0;
		for (uint32_t i = 0; i < b->sent; i++) {
			bytes += w->pkts[i].len + PKT_FCS_LEN;
			if (ph->fill != fill_replay) {
				valid_sent += w->slot_fault[i] == GEN_FAULT_NONE;
				if (!ph->warm && w->slot_fault[i])
					relaxed_add(&w->ctr.fault[w->slot_fault[i]], 1);
			}
		}
	} else {
		bytes = (uint64_t)b->sent * (ph->flen + PKT_FCS_LEN);
	}
	if (b->sent && !relaxed_get(&w->ctr.first_tx_ns))
		relaxed_set(&w->ctr.first_tx_ns, b->now);
	if (ph->warm) {
		relaxed_add(&w->ctr.warmup_pkts, b->sent);
		relaxed_add(&w->ctr.warmup_bytes, bytes);
	} else {
		account_measured(w, ph, b, bytes, valid_sent);
	}
}

/* The end of the measured phase: time behind, and what the schedule asked of this
 * worker by the time the run ended (cut at its end, or now if stopped). */
static void phase_end(struct gen_worker *w, const struct phase *ph, int stopped)
{
	struct gen *g = w->g;
	uint64_t sched = w->pace.k, limit = ph->limit, shifted = ph->shifted;
	uint64_t cut = stopped ? mono_ns() : ph->tend;
	pace_track_end(&w->track, cut ? cut : mono_ns());
	relaxed_set(&w->ctr.behind_ns, w->track.behind_total_ns);
	relaxed_set(&w->ctr.behind_max_ns, w->track.behind_max_ns);
	relaxed_set(&w->ctr.behind_n, w->track.behind_n);
	if (g->paced && cut && w->pace.k < limit) {
		struct pace p = w->pace;
		/* the schedule as asked, not as shifted: a shift's frames are a shortfall */
		if (!p.poisson)
			p.start_ns -= shifted;
		uint32_t d;
		while (p.k < limit && (d = pace_due(&p, cut - 1, 1u << 20)) > 0) {
			if (d > limit - p.k)
				d = (uint32_t)(limit - p.k);
			pace_advance(&p, d);
		}
		sched = p.k;
		/* a Poisson schedule is not rebuilt unshifted: the frames the shift
		 * pushed past the end are its length at this worker's mean rate */
		if (p.poisson && shifted && g->nominal_gap_ns > 0) {
			uint64_t owed = (uint64_t)((double)shifted / g->nominal_gap_ns *
						   g->cfg.burst);
			sched = owed < limit - sched ? sched + owed : limit;
		}
	}
	w->sched_pkts = sched;
}

/* Sends one phase (warm-up or measured) of this worker's share of the schedule. */
static int run_phase(struct gen_worker *w, int warm)
{
	struct gen *g = w->g;
	const struct gen_cfg *c = &g->cfg;
	struct runctl *rc = g->rc;
	struct phase ph;
	enum { END_DONE, END_TIME, END_STOP } why = END_DONE;
	int ret = 0;

	phase_begin(w, warm, &ph);
	const uint64_t t0 = ph.t0, tend = ph.tend, limit = ph.limit;
	/* a paced schedule starts at t0 by itself; as fast as possible starts there too
	 * (threads start ahead so that each is ready: sending then would lengthen the run) */
	while (!ph.prof && !runctl_stopped(rc)) {
		uint64_t now = mono_ns();
		if (now >= t0)
			break;
		clock_wait_until(t0 - now > GEN_MAX_SLEEP_NS ? now + GEN_MAX_SLEEP_NS : t0, GEN_SPIN_NS);
	}

	for (;;) {
		if (runctl_stopped(rc)) {
			why = END_STOP;
			break;
		}
		if (w->pace.k >= limit)
			break;
		uint64_t now = mono_ns();
		if (now >= ph.next_stall) {
			/* test-only stall injection: the thread stops as a busy host stops it */
			clock_wait_until(now + c->stall_ns, 0);
			ph.next_stall += c->stall_every_ns;
			now = mono_ns();
		}
		if (tend && now >= tend + ph.grace) {
			why = END_TIME;     /* what is still due is the shortfall */
			break;
		}
		/* past the end only frames due before it are still sent (late) */
		uint64_t due_at = tend && now >= tend ? tend - 1 : now;
		uint64_t want = limit - w->pace.k;
		uint32_t n = pace_due(&w->pace, due_at, want < GEN_BATCH ? (uint32_t)want : GEN_BATCH);
		if (!n) {
			uint64_t dl = pace_next_deadline(&w->pace);
			if (!warm && g->paced)
				pace_track_due(&w->track, now, PACE_NEVER);
			if (dl == PACE_NEVER)
				break;        /* the profile is over */
			if (tend && dl >= tend) {
				/* nothing more before the end: the run still lasts its
				 * --duration (a slow rate must not end it early) */
				if (now >= tend)
					break;
				dl = tend;
			}
			if (dl > now + GEN_MAX_SLEEP_NS)
				dl = now + GEN_MAX_SLEEP_NS;
			clock_wait_until(dl, GEN_SPIN_NS);
			continue;
		}
		uint64_t dl_first = pace_deadline_of(&w->pace, w->pace.k);
		if (!warm && g->paced)   /* as fast as possible has no schedule to be behind */
			pace_track_due(&w->track, now, dl_first);
		/* only a phase with a schedule can be behind it (a warm-up at rate 0 has none) */
		if (ph.prof && c->late_ns && dl_first + c->late_ns < now &&
		    c->late_policy != PACE_LATE_CATCHUP) {
			/* behind by more than --late: what is owed would go back to back */
			uint64_t sh = 0;
			uint64_t skip = pace_late_apply(&w->pace, c->late_policy, now, due_at,
							c->late_ns, limit, &sh);
			ph.shifted += sh;
			if (!warm) {
				relaxed_add(&w->ctr.skipped, skip);
				relaxed_set(&w->ctr.shifted_ns, ph.shifted);
			}
			continue;
		}
		struct batch b = { .k = w->pace.k, .now = now, .dl_first = dl_first, .n = n };
		b.late = c->late_ns && now > c->late_ns && g->paced
			? pace_due(&w->pace, now - c->late_ns, n) : 0;
		uint64_t ts = c->realtime_ts ? real_ns() : now;
		ph.fill(w, n, ts, &b.nvalid, &b.seq0);
		ret = send_batch(w, &ph, &b);
		account_batch(w, &ph, &b);
		pace_advance(&w->pace, b.sent);
		if (ret || b.sent < n) {
			why = ret || runctl_stopped(rc) ? END_STOP : END_TIME;
			break;
		}
	}
	if (!warm)
		phase_end(w, &ph, why == END_STOP);
	return ret;
}

static void *worker_main(void *arg)
{
	struct gen_worker *w = arg;
	struct gen *g = w->g;
	int ret = 0;
	clock_low_slack();
	if (g->cfg.warmup_ns)
		ret = run_phase(w, 1);
	if (!ret)
		ret = run_phase(w, 0);
	w->ret = ret;
	if (atomic_fetch_sub(&g->running, 1) == 1)
		runctl_wake(g->rc);
	return NULL;
}

int gen_start(struct gen *g, struct runctl *rc, uint64_t start_ns, char *err, size_t errlen)
{
	g->rc = rc;
	g->start_ns = start_ns;
	g->meas_ns = start_ns + g->cfg.warmup_ns;
	g->end_ns = g->cfg.duration_ns ? g->meas_ns + g->cfg.duration_ns : 0;
	atomic_store(&g->running, g->nw);
	for (unsigned t = 0; t < g->nw; t++) {
		struct gen_worker *w = &g->w[t];
		int e = thread_start(&w->th, g->cfg.ncpus ? g->cfg.cpus[t % g->cfg.ncpus] : -1,
				     worker_main, w);
		if (e) {
			snprintf(err, errlen, "cannot start sender thread %u%s: %s", t,
				 g->cfg.ncpus ? " on its CPU" : "", strerror(-e));
			atomic_store(&rc->stop, 1);
			atomic_fetch_sub(&g->running, g->nw - t);
			gen_join(g);
			return e;
		}
		w->started = 1;
	}
	return 0;
}

unsigned gen_running(struct gen *g)
{
	return atomic_load(&g->running);
}

int gen_join(struct gen *g)
{
	int ret = 0;
	for (unsigned t = 0; t < g->nw; t++) {
		if (!g->w[t].started)
			continue;
		pthread_join(g->w[t].th, NULL);
		g->w[t].started = 0;
		if (g->w[t].ret && !ret)
			ret = g->w[t].ret;
	}
	return ret;
}

void gen_fini(struct gen *g)
{
	if (g->w) {
		for (unsigned t = 0; t < g->nw; t++) {
			port_close(g->w[t].port);
			free(g->w[t].slots);
		}
		free(g->w);
		g->w = NULL;
	}
	gen_frames_free(&g->fr);
}

void gen_worker_snapshot(struct gen_worker *w, struct gen_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->tx_attempt = relaxed_get(&w->ctr.tx_attempt);
	s->tx_pkts = relaxed_get(&w->ctr.tx_pkts);
	s->tx_bytes = relaxed_get(&w->ctr.tx_bytes);
	s->tx_test = relaxed_get(&w->ctr.tx_test);
	s->tx_fail = relaxed_get(&w->ctr.tx_fail);
	s->tx_refused = relaxed_get(&w->ctr.tx_refused);
	s->tx_full = relaxed_get(&w->ctr.tx_full);
	s->tx_unsent = relaxed_get(&w->ctr.tx_unsent);
	s->seq_holes = relaxed_get(&w->ctr.seq_holes);
	s->late = relaxed_get(&w->ctr.late);
	s->skipped = relaxed_get(&w->ctr.skipped);
	s->shifted_ns = relaxed_get(&w->ctr.shifted_ns);
	s->burst_max = relaxed_get(&w->ctr.burst_max);
	s->behind_ns = relaxed_get(&w->ctr.behind_ns);
	s->behind_max_ns = relaxed_get(&w->ctr.behind_max_ns);
	s->behind_n = relaxed_get(&w->ctr.behind_n);
	s->warmup_pkts = relaxed_get(&w->ctr.warmup_pkts);
	s->warmup_bytes = relaxed_get(&w->ctr.warmup_bytes);
	for (int f = 0; f < GEN_FAULT_MAX; f++)
		s->fault[f] = relaxed_get(&w->ctr.fault[f]);
	s->first_ns = relaxed_get(&w->ctr.first_ns);
	s->first_tx_ns = relaxed_get(&w->ctr.first_tx_ns);
	s->last_ns = relaxed_get(&w->ctr.last_ns);
	s->sched_first_ns = relaxed_get(&w->ctr.sched_first_ns);
	s->sched_last_ns = relaxed_get(&w->ctr.sched_last_ns);
	s->sched_pkts = w->started ? 0 : w->sched_pkts;
}

void gen_snapshot(struct gen *g, struct gen_snap *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned t = 0; t < g->nw; t++) {
		struct gen_snap w;
		gen_worker_snapshot(&g->w[t], &w);
		s->tx_attempt += w.tx_attempt;
		s->tx_pkts += w.tx_pkts;
		s->tx_bytes += w.tx_bytes;
		s->tx_test += w.tx_test;
		s->tx_fail += w.tx_fail;
		s->tx_refused += w.tx_refused;
		s->tx_full += w.tx_full;
		s->tx_unsent += w.tx_unsent;
		s->seq_holes += w.seq_holes;
		s->late += w.late;
		s->skipped += w.skipped;
		s->shifted_ns += w.shifted_ns;
#define MAXOF(f) (s->f = w.f > s->f ? w.f : s->f)
		MAXOF(burst_max);
		MAXOF(behind_ns);
		MAXOF(behind_max_ns);
		MAXOF(behind_n);
#undef MAXOF
		s->warmup_pkts += w.warmup_pkts;
		s->warmup_bytes += w.warmup_bytes;
		for (int f = 0; f < GEN_FAULT_MAX; f++)
			s->fault[f] += w.fault[f];
		if (w.first_ns && (!s->first_ns || w.first_ns < s->first_ns))
			s->first_ns = w.first_ns;
		if (w.first_tx_ns && (!s->first_tx_ns || w.first_tx_ns < s->first_tx_ns))
			s->first_tx_ns = w.first_tx_ns;
		if (w.last_ns > s->last_ns)
			s->last_ns = w.last_ns;
		if (w.sched_first_ns && (!s->sched_first_ns || w.sched_first_ns < s->sched_first_ns))
			s->sched_first_ns = w.sched_first_ns;
		if (w.sched_last_ns > s->sched_last_ns)
			s->sched_last_ns = w.sched_last_ns;
		s->sched_pkts += w.sched_pkts;
	}
}

void gen_gaps(struct gen *g, struct hist *out)
{
	bool done = gen_running(g) == 0;
	hist_init(out);
	for (unsigned t = 0; t < g->nw; t++)
		hist_merge_shared(out, &g->w[t].gaps, done);
}

double gen_initial_pps(const struct gen *g)
{
	return g->paced ? pace_profile_rate(&g->prof, 0) : NAN;
}

/* min(Λ(t), count): frames the measured schedule asks for in its first t ns. */
static long double meas_frames(const struct gen *g, uint64_t t_ns)
{
	if (g->cfg.duration_ns && t_ns > g->cfg.duration_ns)
		t_ns = g->cfg.duration_ns;
	long double f = pace_profile_frames(&g->prof, t_ns);
	if (g->cfg.count && f > (long double)g->cfg.count)
		f = (long double)g->cfg.count;
	return f;
}

double gen_expected(const struct gen *g, uint64_t a_ns, uint64_t b_ns)
{
	const uint64_t wu = g->cfg.warmup_ns;
	long double e = 0;
	if (!g->paced || b_ns <= a_ns)
		return NAN;
	if (a_ns < wu) {
		if (!(g->warm_pps > 0))
			return NAN;
		uint64_t b = b_ns < wu ? b_ns : wu;
		e += (long double)g->warm_pps * (long double)(b - a_ns) / 1e9L;
	}
	if (b_ns > wu) {
		uint64_t a = a_ns > wu ? a_ns - wu : 0;
		e += meas_frames(g, b_ns - wu) - meas_frames(g, a);
	}
	return (double)e;
}

static const char *const late_names[] = { "catchup", "skip", "shift" };

const char *gen_late_name(enum pace_late l)
{
	return str_name(late_names, 3, l);
}

int gen_late_parse(const char *s, enum pace_late *l)
{
	int i = str_index(late_names, 3, s);
	if (i < 0)
		return i;
	*l = (enum pace_late)i;
	return 0;
}
