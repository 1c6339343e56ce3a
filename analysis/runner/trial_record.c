/* SPDX-License-Identifier: BSD-2-Clause */
/* trial_record.c — a trial's result as its record (trial_record, see trial_impl.h):
 * its figures, and from its tools' summaries per box and per stream what was sent,
 * received and lost, and when each sender's first frame left; and trial_counts() for
 * run_case.c (see trial.h). */
#include "trial_impl.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "fmt.h"
#include "jout.h"
#include "results.h"

/* Where a box is, for messages: "namespace ppslab-gen2", "ssh root@h", "this host". */
const char *trial_where(const struct box *b, char *buf, size_t len)
{
	if (b->ssh)
		snprintf(buf, len, "ssh %s%s%s", b->ssh, b->netns ? ", namespace " : "",
			 b->netns ? b->netns : "");
	else if (b->netns)
		snprintf(buf, len, "namespace %s", b->netns);
	else
		snprintf(buf, len, "this host");
	return buf;
}

void trial_counts(const json_t *rec, unsigned long long *tx, unsigned long long *rx,
		  double *offered_pps)
{
	double t = jnum(rec, "tx_frames"), x = jnum(rec, "rx_frames"), o = jnum(rec, "offered_pps");
	*tx = isnan(t) ? 0 : (unsigned long long)t;
	*rx = isnan(x) ? 0 : (unsigned long long)x;
	*offered_pps = isnan(o) ? 0 : o;
}

/* What a sender numbered on its stream (the sink's --expect-from reading): test_pkts +
 * seq_holes, or tx_pkts from a summary without them. */
static double gen_sent(const json_t *g)
{
	double t = jnum(g, "test_pkts"), h = jnum(g, "seq_holes");
	return isnan(t) ? jnum(g, "tx_pkts") : t + (isnan(h) ? 0 : h);
}

/* The sinks' count of stream sid: received and lost, summed. A sink that knew the
 * sender's count (--expect-from) counted the tail it never saw as lost; one that did not
 * (a remote sink) counted the gaps up to its last arrival, so the frames after it
 * (sent - next_seq) and before its first (first_seq) are added here from the sender's
 * own number: the record's books then balance as check 2 judges them. */
static void stream_rx(struct tool *const *sinks, size_t n, int sid, double sent, double *rx,
		      double *lost)
{
	double next = 0, head = -1;
	bool seen = false, expected = false;
	*rx = *lost = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		json_t *st;
		json_array_foreach(json_object_get(sinks[i]->sum, "streams"), j, st)
			if (jnum(st, "stream") == sid) {
				double x = jnum(st, "rx_pkts"), l = jnum(st, "lost_pkts");
				double nx = jnum(st, "next_seq"), f = jnum(st, "first_seq");
				*rx += isnan(x) ? 0 : x;
				*lost += isnan(l) ? 0 : l;
				next = !isnan(nx) && nx > next ? nx : next;
				head = !isnan(f) && (head < 0 || f < head) ? f : head;
				expected |= json_object_get(st, "expect") != NULL;
				seen = true;
			}
	}
	if (expected || isnan(sent))
		return;
	if (!seen)
		next = head = 0;
	*lost += (head > 0 ? head : 0) + (sent > next ? sent - next : 0);
}

/* Per box and per stream: what each sender sent and its stream's fate at blast A's
 * sinks (or blast B's), what each sink received and, when the window was read, its
 * rate; the record's "boxes", "streams" and "lost_frames". */
static void per_box(json_t *rec, const struct trial_tools *tt, bool windowed)
{
	json_t *boxes = json_array(), *streams = json_array();
	double lost_all = 0;
	char wb[160];
	struct tool *sinkb = tt->sinkb;
	for (size_t i = 0; i < tt->na; i++) {
		const struct tool *t = tt->all[i];
		json_t *b = json_object();
		json_object_set_new(b, "name", json_string(t->name));
		json_object_set_new(b, "role", json_string(t->sender ? "sender" : "sink"));
		json_object_set_new(b, "box", json_string(t->tb->name));
		json_object_set_new(b, "where", json_string(trial_where(&t->tb->box, wb, sizeof(wb))));
		json_object_set_new(b, "port", json_string(t->tb->spec));
		json_object_set_new(b, "threads", json_integer(t->tb->threads ? t->tb->threads : 1));
		if (t->tb->cpus)
			json_object_set_new(b, "cpus", json_string(t->tb->cpus));
		if (t->sender) {
			double sent = gen_sent(t->sum), rx = 0, lost = 0;
			if (t->stream == 2 && sinkb) {
				struct tool *one[1] = { sinkb };
				stream_rx(one, 1, 2, sent, &rx, &lost);
			} else {
				stream_rx(tt->sinks, tt->nsa, t->stream, sent, &rx, &lost);
			}
			json_object_set_new(b, "stream", json_integer(t->stream));
			jset_num(b, "tx_frames", sent);
			jset_num(b, "offered_pps", jnum(t->sum, "pps"));
			json_object_set_new(b, "rx_frames", json_integer((json_int_t)rx));
			json_object_set_new(b, "lost_frames", json_integer((json_int_t)lost));
			if (t->sum && !isnan(sent)) {
				lost_all += lost;
				json_array_append_new(streams, json_pack("{s:i,s:s,s:I,s:I,s:I}", "stream",
									  t->stream, "box", t->name, "sent",
									  (json_int_t)sent, "received",
									  (json_int_t)rx, "lost",
									  (json_int_t)lost));
			}
		} else {
			jset_num(b, "rx_frames", jnum(t->sum, "rx_pkts"));
			json_t *ids = json_array();
			size_t j;
			json_t *st;
			json_array_foreach(json_object_get(t->sum, "streams"), j, st)
				if (jnum(st, "rx_pkts") > 0)
					json_array_append_new(ids, json_integer((json_int_t)jnum(st, "stream")));
			json_object_set_new(b, "streams", ids);
			double secs, res;
			double w = windowed ? trial_window_rate(&t->win[0], &t->win[1], &secs, &res) : NAN;
			jset_num(b, "fwd_rate_pps", w);
		}
		json_array_append_new(boxes, b);
	}
	json_object_set_new(rec, "boxes", boxes);
	json_object_set_new(rec, "streams", streams);
	json_object_set_new(rec, "lost_frames", json_integer((json_int_t)lost_all));
}

/* The start instant and when each sender's first frame left, on our clock: each box's
 * first_tx_real_ns minus its clock's offset. The spread is good to the two largest
 * offset bounds. */
static void start_record(json_t *rec, struct tool *const *gens, size_t ng, uint64_t at_real,
			 double lead_s)
{
	json_t *s = json_object(), *per = json_object();
	double lo = INFINITY, hi = -INFINITY, b1 = 0, b2 = 0;
	json_object_set_new(s, "at_real_ns", json_integer((json_int_t)at_real));
	json_object_set_new(s, "lead_s", json_real(lead_s));
	size_t late = 0;
	for (size_t i = 0; i < ng; i++) {
		const struct tool *t = gens[i];
		double f = jnum(t->sum, "first_tx_real_ns");
		double off = t->tb->clock_off_ns, bound = t->tb->clock_bound_ns;
		json_t *o = json_object();
		jset_num(o, "clock_offset_ns", off);
		jset_num(o, "clock_bound_ns", bound);
		double rel = isnan(f) ? NAN : f - off - (double)at_real;
		jset_num(o, "first_frame_ns", rel);
		if (!isnan(rel)) {
			lo = fmin(lo, rel);
			hi = fmax(hi, rel);
		}
		double bb = isnan(bound) ? 0 : bound;
		if (bb > b1) {
			b2 = b1;
			b1 = bb;
		} else if (bb > b2) {
			b2 = bb;
		}
		if (jnum(t->sum, "start_late_ns") > 1e6)
			late++;
		json_object_set_new(per, t->name, o);
	}
	json_object_set_new(s, "boxes", per);
	jset_num(s, "spread_ns", hi >= lo ? hi - lo : NAN);
	json_object_set_new(s, "spread_bound_ns", json_real(b1 + b2));
	if (late)
		json_object_set_new(s, "late", json_pack("s", "a sender's first frame left more than 1 "
						       "ms after the instant: it was ready late (the "
						       "lead was too short) or its box was busy"));
	json_object_set_new(rec, "start", s);
}

/* "late_frames": per latency bound T of the request, the frames every sink received
 * later than T, from their histograms' buckets: "frames" those in a bucket reaching
 * above T (what a latency goal counts as lost: a frame that may be late is), "surely"
 * those in buckets wholly above it, plus each sink's implausible delays (above
 * --max-delay). A bucket is 1/32 of its power of two wide, so the two differ by at most
 * the one bucket holding T; they are equal when T + 1 starts a bucket. null with
 * "missing" when a sink gave no buckets. */
static void late_frames(json_t *rec, const struct trial_req *r, const struct trial_tools *tt)
{
	json_t *arr = json_array();
	for (size_t k = 0; k < r->nlate; k++) {
		double t = r->late_ns[k];
		json_int_t maybe = 0, surely = 0;
		const char *missing = NULL;
		for (size_t i = 0; i < tt->ns; i++) {
			const json_t *sum = tt->sinks[i]->sum;
			const json_t *b = json_object_get(json_object_get(sum, "latency_ns"), "buckets");
			if (!json_is_array(b)) {
				missing = tt->sinks[i]->name;
				break;
			}
			size_t j;
			const json_t *e;
			json_array_foreach(b, j, e) {
				double lo = json_number_value(json_array_get(e, 0));
				double hi = json_number_value(json_array_get(e, 1));
				json_int_t n = json_integer_value(json_array_get(e, 2));
				if (hi > t)
					maybe += n;
				if (lo > t)
					surely += n;
			}
			json_int_t imp = json_integer_value(json_object_get(sum,
									    "implausible_delay_pkts"));
			maybe += imp;
			surely += imp;
		}
		json_t *o = json_pack("{s:f}", "bound_ns", t);
		if (missing) {
			json_object_set_new(o, "frames", json_null());
			json_object_set_new(o, "missing", json_string(missing));
		} else {
			json_object_set_new(o, "frames", json_integer(maybe));
			json_object_set_new(o, "surely", json_integer(surely));
		}
		json_array_append_new(arr, o);
	}
	json_object_set_new(rec, "late_frames", arr);
}

/* The outage action's instant: on our clock, and on each sink's that gave a summary (in
 * the order of the record's "sink"), with how well that clock is known */
static void action_record(json_t *rec, const struct trial_res *s, const struct trial_tools *tt)
{
	json_t *a = json_object(), *sk = json_array();
	jset_u64(a, "t0_real_ns", s->act_t0);
	jset_num(a, "took_ns", s->act_took_ns);
	jset_num(a, "load_end_ns", s->act_load_end_ns);
	json_object_set_new(a, "status", json_integer(s->act_rc));
	for (size_t i = 0; i < tt->ns; i++) {
		const struct tool *t = tt->sinks[i];
		if (!t->sum)
			continue;
		double off = isnan(t->tb->clock_off_ns) ? 0 : t->tb->clock_off_ns;
		json_t *o = json_object();
		json_object_set_new(o, "box", json_string(t->tb->name));
		json_object_set_new(o, "t0_ns", json_integer((json_int_t)s->act_t0 + llround(off)));
		jset_num(o, "clock_bound_ns", t->tb->clock_bound_ns);
		json_array_append_new(sk, o);
	}
	json_object_set_new(a, "sinks", sk);
	json_object_set_new(rec, "action", a);
}

json_t *trial_record(const struct trial_res *s, const struct trial_tools *tt)
{
	const struct trial_req *r = s->req;
	json_t *rec = json_pack("{s:i,s:s,s:o,s:f,s:f,s:s,s:O,s:O,s:O}", "seq", r->seq, "kind",
				r->kind, "intended_pps", r->load_pps > 0 ? json_real(r->load_pps)
				: json_string("max"), "duration_s", r->duration_s, "warmup_s",
				r->warmup_s, "per", s->per_aggregate ? "aggregate" : "direction",
				"gen", s->gen, "sink", s->sink, "exit", s->exit);
	if (!rec)
		return NULL;
	if (s->rut)
		json_object_set(rec, "rut", s->rut);
	json_object_set_new(rec, "fwd_rate_from", json_string(s->windowed ? RES_FWD_WINDOW
									  : RES_FWD_FRAMES));
	if (!s->windowed && s->nowin)
		json_object_set_new(rec, "fwd_rate_fallback", json_string(s->nowin));
	/* the rate's resolution: a frame at each end of the window, and the reads' own
	 * time (the timestamp is their midpoint, good to half their duration) */
	if (s->windowed) {
		json_object_set_new(rec, "window_s", json_real(s->window_s));
		if (s->remote_clock)
			json_object_set_new(rec, "window_clock", json_string("the sink box's, around "
									     "each read"));
	}
	jset_num(rec, "fwd_rate_res_pps", s->res_pps);
	json_object_set_new(rec, "tx_frames", json_integer((json_int_t)s->tx));
	json_object_set_new(rec, "rx_frames", json_integer((json_int_t)s->rx));
	jset_num(rec, "offered_pps", s->offered_pps);
	jset_num(rec, "loss_ratio", s->loss_ratio);
	jset_num(rec, "fwd_rate_pps", s->fwd_pps);
	jset_num(rec, "fwd_rate_pps_a", s->fwd_a);
	jset_num(rec, "fwd_rate_pps_b", s->fwd_b);
	const json_t *lat = json_object_get(tt->sinks[0]->sum, "latency_ns");
	if (json_is_object(lat)) {
		json_t *l = json_deep_copy(lat);
		json_object_del(l, "buckets");  /* read by late_frames alone */
		json_object_set_new(rec, "latency_ns", l);
	}
	if (r->nlate)
		late_frames(rec, r, tt);
	/* the sinks' summaries go into the record as they are, but for the histogram's
	 * buckets: read above, they would only swell every results file */
	for (size_t i = 0; i < tt->ns; i++)
		json_object_del(json_object_get(tt->sinks[i]->sum, "latency_ns"), "buckets");
	if (tt->na > 2)   /* per box, and the streams merged over the sinks */
		per_box(rec, tt, s->windowed);
	if (s->several && s->at_real)
		start_record(rec, tt->gens, tt->ng, s->at_real, s->lead_s);
	if (s->act_fired)
		action_record(rec, s, tt);
	char t1[32];
	fmt_utc(t1, sizeof(t1), s->end);
	json_object_set_new(rec, "end_utc", json_string(t1));
	if (s->interrupted) {
		json_object_set_new(rec, "error", json_string("interrupted"));
	} else if (s->err[0]) {
		json_t *ej = json_string(s->err);
		json_object_set_new(rec, "error", ej ? ej : json_string("a component failed (its "
									"message is not UTF-8)"));
	}
	return rec;
}
