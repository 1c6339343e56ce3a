/* SPDX-License-Identifier: BSD-2-Clause */
/* t_sink.c — the receive engine without ports: crafted frames through sink_process (each
 * error class in its own counter and never test traffic; streams kept apart; warm-up
 * floors), the merge of several workers, the interval hand-off with running workers,
 * expected counts (tail loss, streams that never came), the loss attribution, and the
 * sender-summary reader. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>

#include "clock.h"
#include "expect.h"
#include "faults.h"
#include "sink_report.h"
#include "sink.h"
#include "tap.h"

static uint8_t tmpl[PKT_FRAME_MAX];

static void mk_tmpl(void)
{
	char err[128];
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64 };
	f.src_ip = htonl(0xc6120002);
	f.dst_ip = htonl(0xc6130002);
	if (pkt_build_template(&f, 60, 0, SIG_F_REALTIME, 0, tmpl, err, sizeof(err)))
		abort();
}

/* A 64-byte frame of stream id with sequence seq, stamped tx_ns, then `fault`. */
static uint32_t frame(uint8_t *buf, const char *fault, uint8_t id, uint64_t seq,
		      uint64_t tx_ns, uint8_t flags)
{
	uint32_t len = 60;
	memcpy(buf, tmpl, 60);
	buf[PKT_PAYLOAD_OFF + 2] = (uint8_t)((SIG_VERSION << 4) | flags);
	buf[PKT_PAYLOAD_OFF + 3] = id;
	sig_put_seq_ts(buf + PKT_PAYLOAD_OFF, seq, tx_ns);
	fault_fix_udp(buf);
	fault_apply(fault, buf, &len);
	return len;
}

static struct sink *mk_sink(int threads, uint64_t warmup_ns)
{
	char err[128];
	struct sink *s = malloc(sizeof(*s));
	struct sink_cfg c = { .nthreads = threads, .dport = 9, .verify_udp_csum = true,
			      .warmup_ns = warmup_ns, .max_delay_ns = 10 * NS_PER_S };
	if (sink_init(s, &c, err, sizeof(err)))
		abort();
	return s;
}

static void done(struct sink *s)
{
	sink_fini(s);
	free(s);
}

/* Feeds one frame per call (as a burst of 1), received 1 us after it was sent. */
static void feed(struct sink_worker *w, const char *fault, uint8_t id, uint64_t seq, uint8_t flags,
		 uint64_t mono)
{
	static uint8_t buf[PKT_FRAME_MAX];
	uint64_t tx = 1700000000000000000ULL + seq * 1000;
	struct port_pkt p = { .data = buf, .ts_ns = tx + 1000 };
	p.len = frame(buf, fault, id, seq, tx, (uint8_t)(SIG_F_REALTIME | flags));
	sink_process(w, &p, 1, PORT_L2, tx + 1000, mono);
}

static void t_each_error_class(void)
{
	static const char *const names[] = { "truncated", "not_ip4", "ip_options", "ip_fragment",
		"bad_ip_csum", "bad_len", "not_udp", "wrong_port", "bad_udp_csum", "foreign",
		"bad_sig_version" };
	struct sink *s = mk_sink(1, 0);
	struct sink_totals t;
	uint64_t seq = 0;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint8_t buf[PKT_FRAME_MAX];
		uint32_t len = 60;
		memcpy(buf, tmpl, 60);
		int want = fault_apply(names[i], buf, &len);
		T_TRUE(want > 0);
		for (unsigned k = 0; k <= i; k++)   /* i + 1 frames of class i */
			feed(s->w[0], names[i], 0, seq++, 0, 1);
		sink_totals(s, &t);
		T_EQ_U64(t.cls[want], i + 1);
		T_STREQ(pkt_class_name((enum pkt_class)want), names[i]);
	}
	sink_totals(s, &t);
	T_EQ_U64(t.rx_pkts, 0);             /* none of them is test traffic */
	T_EQ_U64(t.cls[PKT_TEST], 0);
	T_EQ_U64(t.rx_frames, 66);
	T_EQ_U64(t.foreign, 10);
	T_EQ_U64(t.other, 2 + 7 + 8);        /* not_ip4, not_udp, wrong_port */
	T_EQ_U64(t.err, 66 - 10 - 17);
	T_TRUE(s->w[0]->streams[0] == NULL); /* no stream was created by a bad frame */
	done(s);
}

static void t_streams_apart_and_exact(void)
{
	struct sink *s = mk_sink(1, 0);
	static const uint64_t a[] = { 0, 1, 2, 5, 3, 3, 6, 7, 9 };   /* 4, 8 lost; 3 late, dup */
	for (unsigned i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		feed(s->w[0], "test", 1, a[i], 0, 1);
		feed(s->w[0], "test", 2, i, 0, 1);                      /* stream 2: in order */
		feed(s->w[0], "foreign", 1, 100 + i, 0, 1);             /* never counted */
	}
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.rx_pkts, 8 + 9);
	T_EQ_U64(t.dup, 1);
	T_EQ_U64(t.reord, 1);
	T_EQ_U64(t.foreign, 9);
	T_EQ_U64(sink_stop(s), 0);
	T_EQ_U64(sink_finish(s, 12, NULL, NULL, NULL), 0);
	struct sink_stream *s1 = s->streams[1], *s2 = s->streams[2];
	T_TRUE(s1 && s2);
	if (s1 && s2) {
		T_EQ_U64(s1->seq.rx_pkts, 8);
		T_EQ_U64(s1->seq.lost_final, 2 + 2);   /* 4, 8 and the tail 10, 11 */
		T_EQ_U64(s1->seq.dup_pkts, 1);
		T_EQ_U64(s1->seq.reordered_pkts, 1);
		T_EQ_U64(s2->seq.rx_pkts, 9);
		T_EQ_U64(s2->seq.lost_final, 3);       /* 9, 10, 11 */
		T_EQ_U64(s1->delay.owd.count, 8);
		T_EQ_U64(hist_quantile(&s1->delay.owd, 0.5), 1000);
		T_TRUE(!s1->beyond_expect);
	}
	done(s);
}

/* IPv6 test frames: counted as IPv4 ones (loss, duplicates, reordering, delay, bytes
 * with FCS, per stream), each malformed IPv6 class in its counter and never test
 * traffic, and the IPv6 classes split into err/foreign/other as IPv4's. */
static void t_ipv6(void)
{
	static const char *const names[] = { "truncated", "bad_len", "not_udp", "ip_fragment",
		"hop_limit_zero", "wrong_port", "bad_udp_csum", "zero_udp_csum", "foreign",
		"bad_sig_version" };
	static uint8_t t6[PKT_FRAME_MAX], buf[PKT_FRAME_MAX];
	char err[128];
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64, .ipv = 6 };
	ip6_parse("2001:2::2", f.src6);
	ip6_parse("2001:2::1", f.dst6);
	if (pkt6_build_template(&f, 80, 0, SIG_F_REALTIME, 0, t6, err, sizeof(err)))
		abort();
	struct sink *s = mk_sink(1, 0);
	static const uint64_t a[] = { 0, 1, 2, 5, 3, 3, 6, 7, 9 };   /* 4, 8 lost; 3 late, dup */
	uint64_t k = 0;
	for (unsigned i = 0; i < sizeof(a) / sizeof(a[0]) + sizeof(names) / sizeof(names[0]); i++) {
		const char *fault = i < sizeof(a) / sizeof(a[0]) ? "test" : names[i - 9];
		uint64_t seq = i < 9 ? a[i] : 100 + i, tx = 1700000000000000000ULL + seq * 1000;
		uint32_t len = 80;
		memcpy(buf, t6, 80);
		buf[PKT_PAYLOAD6_OFF + 3] = 4;                      /* stream 4 */
		sig_put_seq_ts(buf + PKT_PAYLOAD6_OFF, seq, tx);
		fault6_fix_udp(buf);
		int want = fault6_apply(fault, buf, &len);
		T_TRUE(want >= 0);
		struct port_pkt p = { .data = buf, .len = len, .ts_ns = tx + 2000 };
		sink_process(s->w[0], &p, 1, PORT_L2, tx + 2000, 1);
		k++;
	}
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.rx_frames, k);
	T_EQ_U64(t.rx_pkts, 8);
	T_EQ_U64(t.rx_bytes, 8 * 84);
	T_EQ_U64(t.dup, 1);
	T_EQ_U64(t.reord, 1);
	T_EQ_U64(t.cls[PKT_TRUNCATED], 1);
	T_EQ_U64(t.cls[PKT_BAD_LEN], 1);
	T_EQ_U64(t.cls[PKT_NOT_UDP], 1);
	T_EQ_U64(t.cls[PKT_IP_FRAGMENT], 1);
	T_EQ_U64(t.cls[PKT_HOP_LIMIT_ZERO], 1);
	T_EQ_U64(t.cls[PKT_WRONG_PORT], 1);
	T_EQ_U64(t.cls[PKT_BAD_UDP_CSUM], 2);
	T_EQ_U64(t.cls[PKT_FOREIGN], 1);
	T_EQ_U64(t.cls[PKT_BAD_SIG_VERSION], 1);
	T_EQ_U64(t.cls[PKT_NOT_IP4], 0);
	T_EQ_U64(t.err, 1 + 1 + 1 + 1 + 2 + 1);   /* truncated, len, fragment, hop 0, csum x2, version */
	T_EQ_U64(t.foreign, 1);
	T_EQ_U64(t.other, 2);                      /* not_udp, wrong_port */
	T_EQ_U64(sink_stop(s), 0);
	T_EQ_U64(sink_finish(s, 12, NULL, NULL, NULL), 0);
	struct sink_stream *s4 = s->streams[4];
	T_TRUE(s4 != NULL);
	if (s4) {
		T_EQ_U64(s4->seq.rx_pkts, 8);
		T_EQ_U64(s4->seq.lost_final, 2 + 2);   /* 4, 8 and the tail 10, 11 */
		T_EQ_U64(s4->seq.dup_pkts, 1);
		T_EQ_U64(s4->seq.reordered_pkts, 1);
		T_EQ_U64(s4->delay.owd.count, 8);
		T_EQ_U64(hist_quantile(&s4->delay.owd, 0.5), 2000);
	}
	done(s);
}

/* A tagged frame: "VID" or "OUTER,INNER" (NULL: untagged), then the sink. */
static void feed_tagged(struct sink_worker *w, const char *vlan, const char *fault, uint8_t id,
			uint64_t seq)
{
	static uint8_t buf[PKT_FRAME_MAX];
	struct pkt_vlan v = { .n = 0 };
	char err[128];
	uint64_t tx = 1700000000000000000ULL + seq * 1000;
	struct port_pkt p = { .data = buf, .ts_ns = tx + 1000 };
	p.len = frame(buf, fault, id, seq, tx, SIG_F_REALTIME);
	if (vlan && pkt_vlan_parse(vlan, &v, err, sizeof(err)))
		abort();
	p.len = pkt_vlan_insert(buf, p.len, &v);
	sink_process(w, &p, 1, PORT_L2, tx + 1000, 1);
}

/* Tagged test frames are counted as untagged ones, per stream and per tag stack; with
 * --vlan the others are wrong_vlan errors (not test traffic, so lost to their stream);
 * a malformed tagged frame is in its own class; the table is bounded. */
static void t_vlans(void)
{
	char err[128];
	struct sink *s = malloc(sizeof(*s));
	struct sink_cfg c = { .nthreads = 1, .dport = 9, .verify_udp_csum = true,
			      .max_delay_ns = 10 * NS_PER_S, .vlan_expect = true };
	T_EQ_INT(pkt_vlan_parse("100", &c.vlan, err, sizeof(err)), 0);
	T_EQ_INT(sink_init(s, &c, err, sizeof(err)), 0);
	struct sink_worker *w = s->w[0];
	/* stream 1 on VLAN 100: 0, 1, 3, 3 (a duplicate), 2 late */
	static const uint64_t seqs[] = { 0, 1, 3, 3, 2 };
	for (unsigned i = 0; i < 5; i++)
		feed_tagged(w, "100:5", "test", 1, seqs[i]);
	feed_tagged(w, "100", "test", 1, 4);
	feed_tagged(w, "100", "bad_udp_csum", 1, 5);         /* malformed: its own class */
	feed_tagged(w, NULL, "test", 1, 6);                    /* untagged: wrong */
	feed_tagged(w, "200,100", "test", 1, 7);               /* QinQ, inner 100: wrong */
	feed_tagged(w, "101", "test", 1, 8);                   /* another VLAN: wrong */
	feed_tagged(w, "100", "test", 1, 9);
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.cls[PKT_TEST], 7);
	T_EQ_U64(t.cls[PKT_WRONG_VLAN], 3);
	T_EQ_U64(t.cls[PKT_BAD_UDP_CSUM], 1);
	T_EQ_U64(t.err, 4);
	T_EQ_U64(t.rx_bytes, 6 * 68);
	T_EQ_INT(sink_finish(s, 10, NULL, NULL, NULL), 0);
	const struct sink_stream *st = s->streams[1];
	T_EQ_U64(st->seq.rx_pkts, 6);
	T_EQ_U64(st->seq.dup_pkts, 1);
	T_EQ_U64(st->seq.reordered_pkts, 1);
	T_EQ_U64(st->seq.lost_final, 4);                      /* 5 (bad) and 6, 7, 8 (wrong) */
	T_EQ_U64(s->nvlans, 4);
	T_EQ_U64(s->vlans[0].vid, 100);
	T_EQ_U64(s->vlans[0].n, 1);
	T_EQ_U64(s->vlans[0].pkts, 7);                        /* PCP does not matter */
	T_TRUE(!s->vlans[0].wrong);
	T_EQ_U64(s->vlans[1].n, 0);
	T_TRUE(s->vlans[1].wrong);
	T_EQ_U64(s->vlans[2].outer_vid, 200);
	T_EQ_U64(s->vlans[2].vid, 100);
	T_EQ_U64(s->vlans[2].n, 2);
	T_TRUE(s->vlans[2].wrong);
	T_EQ_U64(s->vlans[3].vid, 101);
	done(s);

	/* no --vlan: every tag stack is test traffic; the table keeps the first 64, per
	 * worker and merged, and counts the rest beyond it */
	s = mk_sink(2, 0);
	for (unsigned vid = 1; vid <= 70; vid++) {
		char vs[16];
		snprintf(vs, sizeof(vs), "%u", vid);
		feed_tagged(s->w[0], vs, "test", 2, vid);
		feed_tagged(s->w[1], vs, "test", 3, vid);
	}
	feed_tagged(s->w[0], "7", "test", 2, 71);
	sink_totals(s, &t);
	T_EQ_U64(t.cls[PKT_TEST], 141);
	T_EQ_U64(t.err, 0);
	T_EQ_INT(sink_finish(s, 0, NULL, NULL, NULL), 0);
	T_EQ_U64(s->nvlans, SINK_VLANS);
	T_EQ_U64(s->vlans_other, 12);
	T_EQ_U64(s->vlans[6].vid, 7);
	T_EQ_U64(s->vlans[6].pkts, 3);
	uint64_t sum = s->vlans_other;
	for (unsigned i = 0; i < s->nvlans; i++)
		sum += s->vlans[i].pkts;
	T_EQ_U64(sum, 141);
	done(s);
}

static void t_sender_warmup(void)
{
	/* warm-up frames numbered in the same sequence (0..99), then 100..199 measured */
	struct sink *s = mk_sink(1, 0);
	for (uint64_t i = 0; i < 100; i++)
		feed(s->w[0], "test", 0, i, SIG_F_WARMUP, 1);
	for (uint64_t i = 101; i < 200; i++)   /* 100 lost: must be counted */
		feed(s->w[0], "test", 0, i, 0, 1);
	/* a sender that restarts at 0 after its warm-up */
	for (uint64_t i = 0; i < 50; i++)
		feed(s->w[0], "test", 3, i, SIG_F_WARMUP, 1);
	for (uint64_t i = 0; i < 80; i++)
		feed(s->w[0], "test", 3, i, 0, 1);
	/* ... whose first measured frames (0, 1) were lost: counted from 0 */
	for (uint64_t i = 0; i < 50; i++)
		feed(s->w[0], "test", 5, i, SIG_F_WARMUP, 1);
	for (uint64_t i = 2; i < 80; i++)
		feed(s->w[0], "test", 5, i, 0, 1);
	sink_stop(s);
	sink_finish(s, 0, NULL, NULL, NULL);
	T_EQ_U64(s->streams[0]->seq.floor, 100);
	T_EQ_U64(s->streams[0]->seq.rx_pkts, 99);
	T_EQ_U64(s->streams[0]->seq.lost_final, 1);
	T_EQ_U64(s->streams[0]->warmup_pkts, 100);
	T_EQ_U64(s->streams[3]->seq.floor, 0);
	T_EQ_U64(s->streams[3]->seq.rx_pkts, 80);
	T_EQ_U64(s->streams[3]->seq.lost_final, 0);
	T_EQ_U64(s->streams[5]->seq.floor, 0);
	T_EQ_U64(s->streams[5]->seq.rx_pkts, 78);
	T_EQ_U64(s->streams[5]->seq.lost_final, 2);
	done(s);
}

static void t_sink_warmup(void)
{
	/* --warmup 1s: frames within 1 s of the first are not measured; the stream's
	 * accounting starts where the warm-up ended */
	struct sink *s = mk_sink(1, NS_PER_S);
	uint64_t t0 = 5 * NS_PER_S;
	for (uint64_t i = 0; i < 10; i++)
		feed(s->w[0], "test", 0, i, 0, t0 + i * 100 * NS_PER_MS);   /* 0..0.9 s */
	for (uint64_t i = 10; i < 30; i++)
		feed(s->w[0], "test", 0, i, 0, t0 + i * 100 * NS_PER_MS);
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.warmup, 10);
	T_EQ_U64(t.rx_pkts, 20);
	sink_stop(s);
	sink_finish(s, 30, NULL, NULL, NULL);
	T_EQ_U64(s->streams[0]->seq.floor, 10);
	T_EQ_U64(s->streams[0]->seq.lost_final, 0);
	done(s);
}

static void t_expect_unseen_and_beyond(void)
{
	struct sink *s = mk_sink(1, 0);
	for (uint64_t i = 0; i < 10; i++)
		feed(s->w[0], "test", 4, i, 0, 1);
	uint64_t ex[SINK_STREAMS] = { 0 };
	bool have[SINK_STREAMS] = { false };
	ex[4] = 8;      have[4] = true;    /* fewer than arrived: stale frames or a wrong file */
	ex[7] = 500;    have[7] = true;    /* never arrived: all lost */
	sink_stop(s);
	T_EQ_U64(sink_finish(s, 0, ex, have, NULL), 0);
	T_TRUE(s->streams[4]->beyond_expect);
	T_TRUE(s->streams[7] != NULL);
	if (s->streams[7]) {
		T_EQ_U64(s->streams[7]->seq.rx_pkts, 0);
		T_EQ_U64(s->streams[7]->seq.lost_final, 500);
		T_EQ_INT(s->streams[7]->worker, -1);
	}
	T_TRUE(s->streams[0] == NULL);
	done(s);
}

/* One frame of stream 1 numbered seq, sent at tx and received at rx (CLOCK_REALTIME). */
static void feed_at(struct sink_worker *w, uint64_t seq, uint8_t flags, uint64_t tx, uint64_t rx)
{
	static uint8_t buf[PKT_FRAME_MAX];
	struct port_pkt p = { .data = buf, .ts_ns = rx };
	p.len = frame(buf, "test", 1, seq, tx, (uint8_t)(SIG_F_REALTIME | flags));
	sink_process(w, &p, 1, PORT_L2, rx, 1);
}

/* --epoch 3: frames numbered in another epoch (an earlier trial's, still in a router's
 * queues) are stale, warm-up flagged or not, before this trial's frames or among them:
 * never received, lost, duplicated or reordered; this epoch's numbers count from 0 as
 * without an epoch. The overlap is how long after this trial's first frame was sent
 * the last stale one arrived. */
static void t_epoch_stale(void)
{
	char err[128];
	struct sink *s = malloc(sizeof(*s));
	struct sink_cfg c = { .dport = 9, .verify_udp_csum = true, .max_delay_ns = 10 * NS_PER_S,
			      .epoch_on = true, .epoch = 3 };
	T_EQ_INT(sink_init(s, &c, err, sizeof(err)), 0);
	const uint64_t T0 = 1700000000000000000ULL, MS = 1000000;
	uint64_t old = sig_epoch_base(2), ours = sig_epoch_base(3);
	int64_t ov = 0;
	for (uint64_t i = 0; i < 100; i++)        /* the earlier trial's tail, before ours */
		feed_at(s->w[0], old + 90000 + i, 0, T0 - 500 * MS, T0 - 100 * MS + i);
	T_TRUE(!sink_stale_overlap(s, &ov));      /* none of ours yet */
	feed_at(s->w[0], ours + 0, SIG_F_WARMUP, T0, T0 + 1000);   /* our first, warm-up */
	T_TRUE(sink_stale_overlap(s, &ov));
	T_EQ_INT(ov, -100 * (int64_t)MS + 99);
	feed_at(s->w[0], old + 5, SIG_F_WARMUP, T0 - 600 * MS, T0 + 2 * MS);
	for (uint64_t i = 0; i < 50; i++) {       /* ours, an earlier one's in between */
		feed_at(s->w[0], ours + i, 0, T0 + 10 * MS + i, T0 + 11 * MS + i);
		if (i % 5 == 0)
			feed_at(s->w[0], old + 90100 + i, 0, T0 - 400 * MS, T0 + 11 * MS + i);
	}
	feed_at(s->w[0], ours + 7, 0, T0 + 20 * MS, T0 + 21 * MS);   /* our own duplicate */
	feed_at(s->w[0], 12, 0, T0, T0 + 3 * MS);   /* epoch 0: a sender without --epoch */
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.rx_pkts, 50);
	T_EQ_U64(t.stale, 100 + 1 + 10 + 1);
	T_EQ_U64(t.dup, 1);
	T_EQ_U64(t.reord, 0);
	T_EQ_U64(t.warmup, 1);
	T_EQ_U64(t.cls[PKT_TEST], 52);            /* stale frames are not this trial's */
	T_EQ_U64(t.rx_frames, 52 + 112);
	T_TRUE(sink_stale_overlap(s, &ov));
	T_EQ_INT(ov, 11 * (int64_t)MS + 45);      /* the last, after our first was sent */
	uint64_t load = 0;
	bool tr = true;
	T_TRUE(sink_stale_load(s, &load, &tr));   /* the warm-up one, 10 among ours, epoch 0's */
	T_EQ_U64(load, 12);
	T_TRUE(!tr);
	sink_stop(s);
	uint64_t ex[SINK_STREAMS] = { 0 };
	bool have[SINK_STREAMS] = { false };
	ex[1] = 50;
	have[1] = true;
	T_EQ_INT(sink_finish(s, 0, ex, have, NULL), 0);
	const struct sink_stream *st = s->streams[1];
	T_TRUE(st != NULL);
	if (st) {
		T_EQ_U64(st->seq.rx_pkts, 50);
		T_EQ_U64(st->seq.lost_final, 0);
		T_EQ_U64(st->seq.floor, 0);
		T_EQ_U64(st->seq.next_exp, 50);
		T_TRUE(!st->beyond_expect);
	}
	done(s);
	/* without --epoch the same frames are one sequence: the books cannot be right */
	s = mk_sink(1, 0);
	for (uint64_t i = 0; i < 100; i++)
		feed(s->w[0], "test", 1, 90000 + i, 0, 1);
	for (uint64_t i = 0; i < 50; i++)
		feed(s->w[0], "test", 1, i, 0, 1);
	sink_totals(s, &t);
	T_EQ_U64(t.stale, 0);
	T_TRUE(t.rx_pkts != 50);
	T_TRUE(!sink_stale_overlap(s, &ov));
	done(s);
	/* more after our first was sent than a worker remembers: at least that many */
	s = malloc(sizeof(*s));
	T_EQ_INT(sink_init(s, &c, err, sizeof(err)), 0);
	feed_at(s->w[0], ours, 0, T0, T0 + 1000);
	for (uint64_t i = 0; i < SINK_STALE_RING + 5; i++)
		feed_at(s->w[0], old + i, 0, T0 - MS, T0 + 2000 + i);
	T_TRUE(sink_stale_load(s, &load, &tr));
	T_EQ_U64(load, SINK_STALE_RING);
	T_TRUE(tr);
	done(s);
}

/* --delay-by-size: the tables come from the pool sink_init allocated, one a stream, in
 * order; a stream past the pool keeps none and is counted; the delays are kept. */
static void t_delay_by_size_pool(void)
{
	char err[128];
	struct sink *s = malloc(sizeof(*s));
	struct sink_cfg c = { .dport = 9, .verify_udp_csum = true, .max_delay_ns = 10 * NS_PER_S,
			      .delay_by_size = true };
	T_EQ_INT(sink_init(s, &c, err, sizeof(err)), 0);
	T_TRUE(s->by_size_pool != NULL);   /* at start-up, before any frame */
	for (unsigned id = 0; id <= SINK_BY_SIZE_TABLES; id++)
		for (uint64_t i = 0; i < 3; i++)
			feed(s->w[0], "test", (uint8_t)id, i, 0, 1);
	for (unsigned id = 0; id < SINK_BY_SIZE_TABLES; id++) {
		const struct sink_stream *st = s->w[0]->streams[id];
		T_TRUE(st && st->by_size == &s->by_size_pool[id]);
		if (st && st->by_size) {
			T_EQ_U64(st->by_size->n, 1);
			T_EQ_U64(st->by_size->size[0], 64);
			T_EQ_U64(st->by_size->owd[0].count, 3);
			T_EQ_U64(st->by_size->owd[0].min, 1000);
		}
	}
	const struct sink_stream *last = s->w[0]->streams[SINK_BY_SIZE_TABLES];
	T_TRUE(last && !last->by_size && last->seq.rx_pkts == 3);
	T_EQ_U64(atomic_load(&s->by_size_unkept), 1);
	sink_stop(s);
	T_EQ_INT(sink_finish(s, 0, NULL, NULL, NULL), 0);
	done(s);   /* the pool freed once, never a table of it (ASan) */
	s = mk_sink(1, 0);
	T_TRUE(s->by_size_pool == NULL);   /* nothing without --delay-by-size */
	feed(s->w[0], "test", 1, 0, 0, 1);
	T_TRUE(s->w[0]->streams[1] && !s->w[0]->streams[1]->by_size);
	done(s);
}

static void t_clock_disagreement(void)
{
	struct sink *s = mk_sink(1, 0);
	static uint8_t buf[PKT_FRAME_MAX];
	uint64_t rx = 1700000000000000000ULL;
	for (uint64_t i = 0; i < 100; i++) {   /* the sender's clock is 5 ms ahead */
		struct port_pkt p = { .data = buf, .ts_ns = rx + i * 1000 };
		p.len = frame(buf, "test", 0, i, rx + i * 1000 + 5 * NS_PER_MS, SIG_F_REALTIME);
		sink_process(s->w[0], &p, 1, PORT_L2, rx, 1);
	}
	for (uint64_t i = 100; i < 110; i++) {   /* 20 s behind: implausible */
		struct port_pkt p = { .data = buf, .ts_ns = rx + i * 1000 };
		p.len = frame(buf, "test", 0, i, rx + i * 1000 - 20 * NS_PER_S, SIG_F_REALTIME);
		sink_process(s->w[0], &p, 1, PORT_L2, rx, 1);
	}
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.rx_pkts, 110);                /* counted as traffic all the same */
	T_EQ_U64(t.neg_delay, 100);
	T_EQ_U64(t.implausible_delay, 10);
	T_EQ_U64(s->w[0]->streams[0]->delay.owd.count, 0);
	done(s);
}

static void t_merge_workers(void)
{
	struct sink *s = mk_sink(3, 0);
	for (uint64_t i = 0; i < 1000; i++) {
		feed(s->w[(int)(i % 2)], "test", (uint8_t)(i % 2), i / 2, 0, 1);  /* 0 on w0, 1 on w1 */
		if (i != 500)
			feed(s->w[2], "test", 9, i, 0, 1);
	}
	/* stream 5 split across two workers (a fanout that changed): merged, flagged */
	for (uint64_t i = 0; i < 100; i++)
		feed(s->w[i < 50 ? 0 : 1], "test", 5, i, 0, 1);
	struct sink_totals t;
	sink_totals(s, &t);
	T_EQ_U64(t.rx_pkts, 1000 + 999 + 100);
	T_EQ_U64(sink_stop(s), 0);
	uint64_t ex[SINK_STREAMS] = { 0 };
	bool have[SINK_STREAMS] = { false };
	ex[0] = ex[1] = 500; have[0] = have[1] = true;
	ex[9] = 1000; have[9] = true;
	ex[5] = 110; have[5] = true;
	uint64_t holes[SINK_STREAMS] = { 0 };
	holes[9] = 1;
	T_EQ_U64(sink_finish(s, 0, ex, have, holes), 0);
	T_EQ_U64(s->streams[9]->sender_holes, 1);
	T_EQ_INT(s->streams[0]->worker, 0);
	T_EQ_INT(s->streams[1]->worker, 1);
	T_EQ_INT(s->streams[9]->worker, 2);
	T_EQ_U64(s->streams[0]->seq.rx_pkts, 500);
	T_EQ_U64(s->streams[9]->seq.lost_final, 1);
	T_TRUE(!s->streams[0]->split && !s->streams[9]->split);
	T_TRUE(s->streams[5]->split);
	T_EQ_U64(s->split_streams, 1);
	T_EQ_U64(s->streams[5]->seq.rx_pkts, 100);
	T_EQ_U64(s->streams[5]->seq.lost_final, 10);
	done(s);
}

/* Without the sender's count (an ssh box): a stream interleaved over two workers (xdp:
 * queues spread by RSS) loses only what is missing up to the highest number seen, not
 * the other worker's numbers. */
static void t_split_no_expect(void)
{
	struct sink *s = mk_sink(2, 0);
	for (uint64_t i = 0; i < 1000; i++)
		if (i != 123 && i != 777)
			feed(s->w[(int)(i % 2)], "test", 3, i, 0, 1);
	T_EQ_U64(sink_stop(s), 0);
	T_EQ_U64(sink_finish(s, 0, NULL, NULL, NULL), 0);
	T_TRUE(s->streams[3]->split);
	T_EQ_U64(s->streams[3]->seq.rx_pkts, 998);
	T_EQ_U64(s->streams[3]->seq.lost_final, 2);
	done(s);
}

/* The gap list through the engine: receive times from the frames' stamps, a reordered
 * frame filling its gap, a silence above --gap-min, times relative to the first. */
static void t_gaps(void)
{
	char err[128];
	struct sink *s = malloc(sizeof(*s));
	struct sink_cfg c = { .nthreads = 1, .dport = 9, .verify_udp_csum = true,
			      .max_delay_ns = 10 * NS_PER_S, .gap_min_ns = 50000,
			      .gap_list = GAP_LIST_DEFAULT };
	if (sink_init(s, &c, err, sizeof(err)))
		abort();
	struct sink_worker *w = s->w[0];
	for (uint64_t q = 0; q < 10; q++)
		feed(w, "test", 1, q, 0, 1);
	feed(w, "test", 1, 12, 0, 1);          /* 10, 11 missing */
	feed(w, "test", 1, 11, 0, 1);          /* 11 reordered into it */
	feed(w, "test", 1, 14, 0, 1);          /* 13 missing, then filled: no gap */
	feed(w, "test", 1, 13, 0, 1);
	feed(w, "test", 1, 100, 0, 1);         /* 15..99 lost: 86 us */
	feed(w, "test", 1, 200, 0, 1);         /* 101..199 lost; 201..249: the tail */
	T_EQ_U64(sink_finish(s, 250, NULL, NULL, NULL), 0);
	const struct sink_stream *st = s->streams[1];
	const struct gap_book *g = &st->gaps;
	T_EQ_U64(g->nlist, 3);
	T_EQ_U64(g->list[0].seq_before, 9);
	T_EQ_U64(g->list[0].seq_after, 12);
	T_EQ_U64(g->list[0].lost, 1);
	T_EQ_U64(g->list[0].reordered, 1);
	T_EQ_U64(g->list[0].before_ns - st->first_rx_ns, 9000);
	T_EQ_U64(gap_duration(&g->list[0]), 3000);
	T_EQ_U64(g->list[1].seq_before, 14);
	T_EQ_U64(g->list[1].lost, 85);
	T_EQ_U64(gap_duration(&g->list[1]), 86000);
	T_EQ_U64(g->list[2].lost, 99);
	T_EQ_U64(g->longest_ns, 100000);
	/* the books the stream's JSON gives (t_outage.sh): the gaps' loss and the tail's,
	 * expect − next_seq, are the stream's; next_seq stays the last frame's + 1 */
	T_EQ_U64(st->seq.next_exp, 201);
	T_EQ_U64(st->seq.lost_final, 1 + 85 + 99 + 49);
	T_EQ_U64(gap_lost(g) + (st->expect - st->seq.next_exp), st->seq.lost_final);
	done(s);
}

static void t_interval_handoff(void)
{
	/* running workers (no ports: they idle in poll) answer every hand-off; after they
	 * stop, both buffers are read directly */
	struct sink *s = mk_sink(2, 0);
	struct runctl rc;
	runctl_init(&rc);
	T_EQ_INT(sink_start(s, &rc), 0);
	struct hist *h = malloc(sizeof(*h));
	for (int k = 0; k < 20; k++) {
		hist_init(h);
		T_EQ_INT(sink_interval(s, h, 2 * NS_PER_S), 0);
		T_EQ_U64(h->count, 0);
		T_EQ_U64(atomic_load(&s->w[0]->swap_ack), (uint64_t)k + 1);
	}
	atomic_store(&rc.stop, 1);
	T_EQ_INT(sink_stop(s), 0);
	feed(s->w[0], "test", 0, 0, 0, 1);
	feed(s->w[1], "test", 1, 0, 0, 1);
	hist_init(h);
	T_EQ_INT(sink_interval(s, h, 0), 0);
	T_EQ_U64(h->count, 2);
	hist_init(h);
	sink_interval(s, h, 0);
	T_EQ_U64(h->count, 0);                 /* read once, then cleared */
	free(h);
	done(s);
}

static void t_loss_attribution(void)
{
	struct loss_split l;
	sink_report_loss_attribute(100, 0, 30, 50, &l);
	T_EQ_U64(l.sink_dropped_pkts, 30);
	T_EQ_U64(l.host_dropped_pkts, 50);
	T_EQ_U64(l.network_lost_pkts, 20);
	sink_report_loss_attribute(100, 0, 150, 50, &l);   /* more drops than loss: capped */
	T_EQ_U64(l.sink_dropped_pkts, 100);
	T_EQ_U64(l.host_dropped_pkts, 0);
	T_EQ_U64(l.network_lost_pkts, 0);
	sink_report_loss_attribute(0, 3, 5, 5, &l);
	T_EQ_U64(l.sender_unsent_pkts + l.sink_dropped_pkts + l.host_dropped_pkts +
		 l.network_lost_pkts, 0);
	sink_report_loss_attribute(100, 10, 20, 30, &l);   /* the sender's holes first */
	T_EQ_U64(l.sender_unsent_pkts, 10);
	T_EQ_U64(l.sink_dropped_pkts, 20);
	T_EQ_U64(l.host_dropped_pkts, 30);
	T_EQ_U64(l.network_lost_pkts, 40);
	struct if_counters a = { .rx_dropped = 1, .rx_missed_errors = 2, .rx_fifo_errors = 3,
				 .rx_over_errors = 4, .rx_crc_errors = 5 };
	struct if_counters b = { .rx_dropped = 11, .rx_missed_errors = 22, .rx_fifo_errors = 33,
				 .rx_over_errors = 44, .rx_crc_errors = 55 };
	T_EQ_U64(sink_report_if_rx_drops(&a, &b), 10 + 20 + 30 + 40);
}

static void t_expect_parse(void)
{
	struct expect_table *t = calloc(1, sizeof(*t));
	char err[256];
	const char *gen =
		"{\"schema\":\"ppslab/gen\",\"type\":\"ready\",\"pid\":7,\"ports\":[\"afpacket:gen0\"]}\n"
		"{\"schema\":\"ppslab/gen\",\"type\":\"interval\",\"tx_pkts\":10}\n"
		"{\"schema\":\"ppslab/gen\",\"type\":\"summary\",\"stream\":3,\"tx_pkts\":100000}\n";
	T_EQ_INT(expect_parse(t, "gen.json", gen, err, sizeof(err)), 0);
	T_TRUE(t->have[3]);
	T_EQ_U64(t->tx_pkts[3], 100000);
	T_EQ_INT(expect_parse(t, "again.json", gen, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "stream 3 is also given by gen.json") != NULL);
	const char *multi = "{\n \"type\": \"summary\",\n \"streams\": [{\"stream\": 1, \"tx_pkts\": 5},"
			    " {\"stream\": 2, \"tx_pkts\": 0}]\n}\n";
	T_EQ_INT(expect_parse(t, "m.json", multi, err, sizeof(err)), 0);
	T_TRUE(t->have[1] && t->have[2]);
	T_EQ_U64(t->tx_pkts[1], 5);
	struct expect_table *u = calloc(1, sizeof(*u));
	T_EQ_INT(expect_parse(u, "bad.json", "{\"type\":\"interval\"}\n{\"type\": summary}\n", err,
			      sizeof(err)), -EINVAL);
	T_TRUE(strncmp(err, "bad.json:2:", 11) == 0);
	T_EQ_INT(expect_parse(u, "x.json", "{\"type\":\"interval\"}\n{\"type\":\"interval\"}\n", err,
			      sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "no summary") != NULL);
	T_EQ_INT(expect_parse(u, "r.json", "{\"type\":\"ready\",\"pid\":7,\"ports\":[]}\n", err,
			      sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "r.json:1: no summary") != NULL);
	T_EQ_INT(expect_parse(u, "y.json", "{\"type\":\"summary\",\"stream\":1}", err, sizeof(err)),
		 -EINVAL);
	T_TRUE(strstr(err, "tx_pkts") != NULL);
	T_EQ_INT(expect_parse(u, "z.json", "{\"stream\":300,\"tx_pkts\":1}", err, sizeof(err)),
		 -EINVAL);
	T_EQ_INT(expect_parse(u, "w.json", "[1,2", err, sizeof(err)), -EINVAL);
	T_TRUE(strncmp(err, "w.json:1:", 9) == 0);
	T_EQ_INT(expect_load(u, "/nonexistent/gen.json", err, sizeof(err)), -ENOENT);
	/* ppslab-gen with --inject: tx_pkts counts faulty frames too; the sequence numbers
	 * are test_pkts + seq_holes */
	struct expect_table *g = calloc(1, sizeof(*g));
	T_EQ_INT(expect_parse(g, "inj.json", "{\"type\":\"summary\",\"stream\":2,\"tx_pkts\":1010,"
			      "\"test_pkts\":1000,\"seq_holes\":4,\"inject_pkts\":10}", err,
			      sizeof(err)), 0);
	T_EQ_U64(g->tx_pkts[2], 1004);
	T_EQ_U64(g->holes[2], 4);
	free(g);
	/* frames the sender's kernel rejected (tx_fail) were numbered but never left: the
	 * sender's loss (with its holes), never more than it numbered */
	struct expect_table *fl = calloc(1, sizeof(*fl));
	T_EQ_INT(expect_parse(fl, "fail.json", "{\"type\":\"summary\",\"stream\":0,\"tx_pkts\":2000,"
			      "\"test_pkts\":2000,\"seq_holes\":1,\"tx_fail\":300}", err, sizeof(err)), 0);
	T_EQ_U64(fl->tx_pkts[0], 2001);
	T_EQ_U64(fl->holes[0], 301);
	memset(fl, 0, sizeof(*fl));
	T_EQ_INT(expect_parse(fl, "odd.json", "{\"type\":\"summary\",\"stream\":0,\"tx_pkts\":20,"
			      "\"test_pkts\":10,\"tx_fail\":15}", err, sizeof(err)), 0);
	T_EQ_U64(fl->holes[0], 10);
	free(fl);
	free(u);
	free(t);
}

int main(void)
{
	mk_tmpl();
	T_RUN(t_each_error_class);
	T_RUN(t_streams_apart_and_exact);
	T_RUN(t_ipv6);
	T_RUN(t_vlans);
	T_RUN(t_sender_warmup);
	T_RUN(t_sink_warmup);
	T_RUN(t_expect_unseen_and_beyond);
	T_RUN(t_epoch_stale);
	T_RUN(t_delay_by_size_pool);
	T_RUN(t_clock_disagreement);
	T_RUN(t_merge_workers);
	T_RUN(t_split_no_expect);
	T_RUN(t_gaps);
	T_RUN(t_interval_handoff);
	T_RUN(t_loss_attribution);
	T_RUN(t_expect_parse);
	return t_done();
}
