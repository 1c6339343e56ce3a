/* SPDX-License-Identifier: BSD-2-Clause */
/* t_gen_frame.c — ppslab-gen's frames: size lists and IMIX in exact proportions, flow
 * ranges walked in order and at random, the per-frame patch keeping both checksums
 * valid (checked by the sink's own classifier), and every injected fault landing in the
 * class the sink counts it in, in the exact fraction asked for. */
#include <arpa/inet.h>
#include <stdlib.h>

#include "csum.h"
#include "frame.h"
#include "pkt.h"
#include "tap.h"

static void t_sizes(void)
{
	struct gen_sizes z;
	char err[160];
	T_EQ_INT(gen_sizes_parse("imix", &z, err, sizeof(err)), 0);
	T_EQ_U64(z.n, 3);
	T_EQ_U64(z.cycle, 12);
	T_NEAR(gen_sizes_mean(&z), (64.0 * 7 + 594 * 4 + 1518) / 12, 1e-9);
	T_EQ_U64(gen_sizes_max(&z), 1518);
	/* exact 7:4:1 over any whole number of cycles, from any starting cycle */
	uint64_t c[3] = { 0 };
	for (uint64_t pos = 1200; pos < 1200 + 12 * 1000; pos++)
		c[gen_size_at(&z, pos)]++;
	T_EQ_U64(c[0], 7000);
	T_EQ_U64(c[1], 4000);
	T_EQ_U64(c[2], 1000);
	/* spread, not clumped: never more than two 64s in a row, 1518 once a cycle */
	int run = 0, maxrun = 0;
	for (uint64_t pos = 0; pos < 24; pos++) {
		run = z.wire[gen_size_at(&z, pos)] == 64 ? run + 1 : 0;
		if (run > maxrun)
			maxrun = run;
	}
	T_TRUE(maxrun <= 2);
	T_EQ_INT(gen_sizes_parse("64,128,1518", &z, err, sizeof(err)), 0);
	T_EQ_U64(z.cycle, 3);
	T_EQ_U64(z.wire[gen_size_at(&z, 0)] + z.wire[gen_size_at(&z, 1)] + z.wire[gen_size_at(&z, 2)],
		 64 + 128 + 1518);
	T_EQ_INT(gen_sizes_parse("128:3,9018:1", &z, err, sizeof(err)), 0);
	T_NEAR(gen_sizes_mean(&z), (128.0 * 3 + 9018) / 4, 1e-9);
	T_EQ_INT(gen_sizes_parse("1518B", &z, err, sizeof(err)), 0);
	T_EQ_U64(z.wire[0], 1518);
	/* rejects, with a reason */
	T_TRUE(gen_sizes_parse("60", &z, err, sizeof(err)) != 0);
	T_TRUE(strstr(err, "FCS") != NULL);
	T_TRUE(gen_sizes_parse("9019", &z, err, sizeof(err)) != 0);
	T_TRUE(gen_sizes_parse("64,64", &z, err, sizeof(err)) != 0);
	T_TRUE(gen_sizes_parse("64:0", &z, err, sizeof(err)) != 0);
	T_TRUE(gen_sizes_parse("64:x", &z, err, sizeof(err)) != 0);
	T_TRUE(gen_sizes_parse("64:4000,128:100", &z, err, sizeof(err)) != 0);
	T_TRUE(gen_sizes_parse("", &z, err, sizeof(err)) != 0);
	T_TRUE(gen_sizes_parse(",", &z, err, sizeof(err)) != 0);
}

static void t_ranges(void)
{
	struct gen_range r;
	T_EQ_INT(gen_range_ip4("198.18.0.2", &r), 0);
	T_EQ_U64(r.lo, 0xc6120002);
	T_EQ_U64(r.n, 1);
	T_EQ_INT(gen_range_ip4("198.18.0.2-198.18.1.1", &r), 0);
	T_EQ_U64(r.n, 256);
	T_EQ_INT(gen_range_ip4("198.18.0.5/29", &r), 0);
	T_EQ_U64(r.lo, 0xc6120000);
	T_EQ_U64(r.n, 8);
	T_TRUE(gen_range_ip4("198.18.0.9-198.18.0.2", &r) != 0);
	T_TRUE(gen_range_ip4("198.18.0/24", &r) != 0);
	T_TRUE(gen_range_ip4("10.0.0.0/4", &r) != 0);
	T_EQ_INT(gen_range_port("1000-1999", &r), 0);
	T_EQ_U64(r.lo, 1000);
	T_EQ_U64(r.n, 1000);
	T_TRUE(gen_range_port("0", &r) != 0);
	T_TRUE(gen_range_port("9-", &r) != 0);
	T_TRUE(gen_range_port("70000", &r) != 0);
	T_TRUE(gen_range_port("20-10", &r) != 0);
}

static void t_flows(void)
{
	struct gen_flows f = { .src_ip = { 0xc6120002, 3 }, .dst_ip = { 0xc6130002, 2 },
			       .sport = { 1000, 4 }, .dport = { 9, 1 } };
	T_EQ_INT(gen_flows_finish(&f), 0);
	T_EQ_U64(f.n, 24);
	/* sequential: source port fastest, every tuple exactly once per n positions */
	struct gen_tuple t;
	gen_flow_at(&f, 0, &t);
	T_EQ_U64(ntohl(t.src_ip), 0xc6120002);
	T_EQ_U64(ntohl(t.dst_ip), 0xc6130002);
	T_EQ_U64(t.sport, 1000);
	gen_flow_at(&f, 1, &t);
	T_EQ_U64(t.sport, 1001);
	gen_flow_at(&f, 4, &t);
	T_EQ_U64(t.sport, 1000);
	T_EQ_U64(ntohl(t.src_ip), 0xc6120003);
	gen_flow_at(&f, 23, &t);
	T_EQ_U64(ntohl(t.src_ip), 0xc6120004);
	T_EQ_U64(ntohl(t.dst_ip), 0xc6130003);
	T_EQ_U64(t.sport, 1003);
	int seen[3][2][4] = { { { 0 } } };
	for (uint64_t i = 0; i < 24 * 5; i++) {
		gen_flow_at(&f, i % f.n, &t);
		seen[ntohl(t.src_ip) - 0xc6120002][ntohl(t.dst_ip) - 0xc6130002][t.sport - 1000]++;
	}
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 4; c++)
				T_EQ_INT(seen[a][b][c], 5);
	struct gen_flows big = { .src_ip = { 0, 1u << 24 }, .dst_ip = { 0, 1u << 24 },
				 .sport = { 1, 65535 }, .dport = { 1, 1 } };
	T_TRUE(gen_flows_finish(&big) != 0);
}

static struct pkt_flow base_flow(void)
{
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 1000, .dst_port = 9, .ttl = 64 };
	f.src_ip = htonl(0xc6120002);
	f.dst_ip = htonl(0xc6130002);
	return f;
}

static void sig_of(uint8_t *s, uint64_t seq)
{
	struct sig g = { .flags = SIG_F_REALTIME, .stream = 7, .seq = seq, .tx_ns = 0x1122334455667788ULL };
	sig_put(s, &g);
}

static void t_patch(void)
{
	struct gen_frames fr;
	struct gen_sizes z;
	struct gen_pattern pat;
	char err[160];
	struct pkt_flow bf = base_flow();
	gen_sizes_parse("64,594,1518", &z, err, sizeof(err));
	T_EQ_INT(gen_pattern_parse("inc", &pat), 0);
	T_EQ_INT(gen_frames_build(&fr, &z, &bf, 7, &pat, err, sizeof(err)), 0);
	T_EQ_U64(fr.n, 3);
	T_EQ_U64(fr.frame_max, 1514);
	struct gen_flows f = { .src_ip = { 0xc6120002, 50 }, .dst_ip = { 0xc6130002, 7 },
			       .sport = { 1000, 1000 }, .dport = { 9, 1 } };
	gen_flows_finish(&f);
	uint64_t rng = 12345;
	uint8_t frame[PKT_FRAME_MAX];
	int bad = 0;
	for (unsigned i = 0; i < 3000; i++) {
		unsigned zi = i % 3;
		struct gen_tuple t;
		uint8_t sig[SIG_LEN];
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		gen_flow_at(&f, rng % f.n, &t);
		memcpy(frame, fr.tmpl[zi], fr.frame_len[zi]);
		sig_of(sig, i);
		gen_frame_patch(frame, fr.tmpl[zi], &t, sig, GEN_FAULT_NONE);
		struct pkt_info pi;
		if (pkt_classify(frame, fr.frame_len[zi], 9, true, &pi) != PKT_TEST ||
		    pi.src_ip != t.src_ip || pi.dst_ip != t.dst_ip || pi.src_port != t.sport ||
		    pi.sig.seq != i || pi.sig.stream != 7 || pi.sig.flags != SIG_F_REALTIME)
			bad++;
		/* the incremental checksums equal full recomputation */
		uint16_t ipc = csum_ip4_hdr(frame + PKT_IP_OFF, 20), got;
		memcpy(&got, frame + PKT_IP_OFF + 10, 2);
		bad += got != ipc;
	}
	T_EQ_INT(bad, 0);
	/* the pattern follows the signature */
	T_EQ_U64(fr.tmpl[1][PKT_PAYLOAD_OFF + SIG_LEN + 5], 5);
	gen_frames_free(&fr);
}

static void t_faults(void)
{
	struct gen_frames fr;
	struct gen_sizes z;
	char err[160];
	struct pkt_flow bf = base_flow();
	gen_sizes_single(&z, 64);
	T_EQ_INT(gen_frames_build(&fr, &z, &bf, 0, NULL, err, sizeof(err)), 0);
	static const int want[GEN_FAULT_MAX] = {
		[GEN_FAULT_NONE] = PKT_TEST, [GEN_FAULT_IP_CSUM] = PKT_BAD_IP_CSUM,
		[GEN_FAULT_UDP_CSUM] = PKT_BAD_UDP_CSUM, [GEN_FAULT_LEN] = PKT_BAD_LEN,
		[GEN_FAULT_MAGIC] = PKT_FOREIGN,
	};
	struct gen_flows f = { .src_ip = { 0xc6120002, 256 }, .dst_ip = { 0xc6130002, 1 },
			       .sport = { 1, 65535 }, .dport = { 9, 1 } };
	gen_flows_finish(&f);
	uint8_t frame[PKT_FRAME_MAX];
	for (int k = 0; k < GEN_FAULT_MAX; k++) {
		int wrong = 0;
		/* many tuples and sequence numbers, so every checksum value comes up: a fault
		 * must stay a fault even when the right checksum is 0x0000/0xffff/0x5a5a */
		for (uint64_t i = 0; i < 200000; i++) {
			struct gen_tuple t;
			uint8_t sig[SIG_LEN];
			struct pkt_info pi;
			gen_flow_at(&f, (i * 2654435761u) % f.n, &t);
			sig_of(sig, i);
			memcpy(frame, fr.tmpl[0], fr.frame_len[0]);
			gen_frame_patch(frame, fr.tmpl[0], &t, sig, k);
			wrong += (int)pkt_classify(frame, fr.frame_len[0], 9, true, &pi) != want[k];
		}
		T_EQ_INT(wrong, 0);
	}
	/* the frame after a faulty one in the same slot is whole again */
	uint8_t sig[SIG_LEN];
	struct pkt_info pi;
	sig_of(sig, 1);
	memcpy(frame, fr.tmpl[0], fr.frame_len[0]);
	gen_frame_patch(frame, fr.tmpl[0], NULL, sig, GEN_FAULT_LEN);
	gen_frame_patch(frame, fr.tmpl[0], NULL, sig, GEN_FAULT_NONE);
	T_EQ_INT(pkt_classify(frame, fr.frame_len[0], 9, true, &pi), PKT_TEST);
	gen_frames_free(&fr);
}

static void t_inject_fraction(void)
{
	struct gen_inject inj;
	uint64_t c[GEN_FAULT_MAX] = { 0 };
	T_EQ_INT(gen_inject_parse("ip-csum,udp-csum,len,magic", &inj), 0);
	T_EQ_U64(inj.nkinds, 4);
	T_EQ_INT(gen_fraction_parse("4%", &inj.num, &inj.den), 0);
	T_EQ_U64(inj.num, 1);
	T_EQ_U64(inj.den, 25);
	for (uint64_t pos = 0; pos < 100000; pos++)
		c[gen_fault_at(&inj, pos)]++;
	T_EQ_U64(c[GEN_FAULT_NONE], 96000);
	for (int k = 1; k < GEN_FAULT_MAX; k++)
		T_EQ_U64(c[k], 1000);
	/* 0.001 is 1/1000 exactly, not the nearest double: 1000 of 1,000,000 */
	T_EQ_INT(gen_fraction_parse("0.001", &inj.num, &inj.den), 0);
	T_EQ_U64(inj.num, 1);
	T_EQ_U64(inj.den, 1000);
	inj.nkinds = 1;
	inj.kind[0] = GEN_FAULT_MAGIC;
	uint64_t n = 0;
	for (uint64_t pos = 0; pos < 1000000; pos++)
		n += gen_fault_at(&inj, pos) != GEN_FAULT_NONE;
	T_EQ_U64(n, 1000);
	T_EQ_INT(gen_fraction_parse("3/7", &inj.num, &inj.den), 0);
	T_EQ_U64(inj.num * 7, inj.den * 3);
	T_EQ_INT(gen_fraction_parse("1", &inj.num, &inj.den), 0);
	T_TRUE(gen_fraction_parse("0", &inj.num, &inj.den) != 0);
	T_TRUE(gen_fraction_parse("1.5", &inj.num, &inj.den) != 0);
	T_TRUE(gen_fraction_parse("150%", &inj.num, &inj.den) != 0);
	T_TRUE(gen_fraction_parse("x", &inj.num, &inj.den) != 0);
	T_TRUE(gen_fraction_parse("0.5.", &inj.num, &inj.den) != 0);
	T_TRUE(gen_inject_parse("ip-csum,ip-csum", &inj) != 0);
	T_TRUE(gen_inject_parse("bogus", &inj) != 0);
	T_STREQ(gen_fault_name(GEN_FAULT_UDP_CSUM), "udp_csum");
}

static void t_pattern(void)
{
	struct gen_pattern p;
	uint8_t b[8];
	T_EQ_INT(gen_pattern_parse("0xa5", &p), 0);
	gen_pattern_fill(&p, b, 8);
	T_EQ_U64(b[7], 0xa5);
	T_EQ_INT(gen_pattern_parse("hex:0102ff", &p), 0);
	gen_pattern_fill(&p, b, 8);
	T_EQ_U64(b[2], 0xff);
	T_EQ_U64(b[3], 0x01);
	T_EQ_INT(gen_pattern_parse("random", &p), 0);
	uint8_t r1[64], r2[64];
	gen_pattern_fill(&p, r1, 64);
	gen_pattern_fill(&p, r2, 64);
	T_TRUE(!memcmp(r1, r2, 64));      /* the same every run */
	T_TRUE(r1[0] != r1[1] || r1[1] != r1[2]);
	T_TRUE(gen_pattern_parse("0xa", &p) != 0);
	T_TRUE(gen_pattern_parse("hex:0g", &p) != 0);
	T_TRUE(gen_pattern_parse("ones", &p) != 0);
}

int main(void)
{
	T_RUN(t_sizes);
	T_RUN(t_ranges);
	T_RUN(t_flows);
	T_RUN(t_patch);
	T_RUN(t_faults);
	T_RUN(t_inject_fraction);
	T_RUN(t_pattern);
	return t_done();
}
