/* SPDX-License-Identifier: BSD-2-Clause */
/* t_gen_frame6.c — ppslab-gen's IPv6 frames: sizes from 84 (64 refused with the reason,
 * IMIX's smallest size 84), address ranges over the last 32 bits, the per-frame patch
 * keeping the UDP checksum equal to a full recomputation over many flows and sizes, and
 * each injected fault landing in the class the sink counts it in. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "pkt.h"
#include "pkt6.h"
#include "tap.h"

static struct pkt_flow base6(void)
{
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64, .ipv = 6, .flowlabel = 7 };
	ip6_parse("2001:2::2", f.src6);
	ip6_parse("2001:2:0:1::2", f.dst6);
	return f;
}

static void sig_of(uint8_t *s, uint64_t seq)
{
	struct sig g = { .flags = SIG_F_REALTIME, .stream = 7, .seq = seq, .tx_ns = 0x1122334455667788ULL };
	sig_put(s, &g);
}

static void t_sizes6(void)
{
	struct gen_sizes z;
	char err[200] = "";
	T_EQ_INT(gen_sizes_parse_min("64", PKT6_WIRE_MIN, &z, err, sizeof(err)), -ERANGE);
	T_TRUE(strstr(err, "below 84") != NULL);
	T_EQ_INT(gen_sizes_parse_min("84,64", PKT6_WIRE_MIN, &z, err, sizeof(err)), -ERANGE);
	T_EQ_INT(gen_sizes_parse_min("83", PKT6_WIRE_MIN, &z, err, sizeof(err)), -ERANGE);
	T_EQ_INT(gen_sizes_parse_min("84,128,1518", PKT6_WIRE_MIN, &z, err, sizeof(err)), 0);
	T_EQ_U64(z.n, 3);
	T_EQ_INT(gen_sizes_parse_min("imix", PKT6_WIRE_MIN, &z, err, sizeof(err)), 0);
	T_EQ_U64(z.n, 3);
	T_EQ_U64(z.wire[0], 84);
	T_EQ_U64(z.weight[0], 7);
	T_EQ_U64(z.wire[1], 594);
	T_EQ_U64(z.wire[2], 1518);
	/* IPv4's stays as it was */
	T_EQ_INT(gen_sizes_parse("imix", &z, err, sizeof(err)), 0);
	T_EQ_U64(z.wire[0], 64);
	T_EQ_INT(gen_sizes_parse("64", &z, err, sizeof(err)), 0);
}

static void t_ranges6(void)
{
	struct gen_range r;
	uint8_t b[16], want[16];
	T_EQ_INT(gen_range_ip6("2001:2:0:1::2", &r, b), 0);
	T_EQ_U64(r.n, 1);
	T_EQ_U64(r.lo, 2);
	ip6_parse("2001:2:0:1::2", want);
	T_TRUE(!memcmp(b, want, 16));
	T_EQ_INT(gen_range_ip6("2001:2:0:1::2-2001:2:0:1::9", &r, b), 0);
	T_EQ_U64(r.n, 8);
	T_EQ_INT(gen_range_ip6("2001:2:0:1::1:fffe-2001:2:0:1::2:1", &r, b), 0);
	T_EQ_U64(r.n, 4);                                   /* across a 16-bit boundary */
	T_EQ_U64(r.lo, 0x1fffe);
	T_EQ_INT(gen_range_ip6("2001:2:0:1::17/124", &r, b), 0);
	T_EQ_U64(r.n, 16);
	T_EQ_U64(r.lo, 0x10);
	ip6_parse("2001:2:0:1::10", want);
	T_TRUE(!memcmp(b, want, 16));
	T_EQ_INT(gen_range_ip6("2001:2::/104", &r, b), 0);
	T_EQ_U64(r.n, 1u << 24);
	T_EQ_INT(gen_range_ip6("2001:2::/103", &r, b), -ERANGE);
	T_EQ_INT(gen_range_ip6("2001:2:0:1::9-2001:2:0:1::2", &r, b), -ERANGE);
	T_EQ_INT(gen_range_ip6("2001:2:0:1::2-2001:2:0:2::2", &r, b), -ERANGE);
	T_EQ_INT(gen_range_ip6("2001:2::zz", &r, b), -EINVAL);
	T_EQ_INT(gen_range_ip6("198.19.0.2", &r, b), -EINVAL);
	T_EQ_INT(gen_range_ip6("2001:2::/129", &r, b), -EINVAL);
}

static void t_patch6(void)
{
	struct gen_frames fr;
	struct gen_sizes z;
	struct gen_pattern pat;
	char err[160];
	struct pkt_flow bf = base6();
	T_EQ_INT(gen_sizes_parse_min("84,594,1518", PKT6_WIRE_MIN, &z, err, sizeof(err)), 0);
	T_EQ_INT(gen_pattern_parse("inc", &pat), 0);
	T_EQ_INT(gen_frames_build(&fr, &z, &bf, 7, &pat, err, sizeof(err)), 0);
	T_EQ_U64(fr.udp_off, 54);
	T_EQ_U64(fr.pl_off, 62);
	T_EQ_U64(fr.frame_len[0], 80);
	struct gen_flows f = { .src_ip = { 2, 50 }, .dst_ip = { 0xfffffff0, 15 },
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
		uint32_t s32, d32;
		memcpy(&s32, frame + 14 + 8 + 12, 4);
		memcpy(&d32, frame + 14 + 24 + 12, 4);
		if (pkt_classify(frame, fr.frame_len[zi], 9, true, &pi) != PKT_TEST ||
		    pi.ipv != 6 || s32 != t.src_ip || d32 != t.dst_ip || pi.src_port != t.sport ||
		    pi.sig.seq != i || pi.sig.stream != 7 || memcmp(frame + 22, bf.src6, 12) ||
		    memcmp(frame + 38, bf.dst6, 12))
			bad++;
		/* the incremental checksum equals full recomputation */
		uint16_t want = pkt6_udp_csum(frame + 14, frame + 54, fr.frame_len[zi] - 54), got;
		memcpy(&got, frame + 54 + 6, 2);
		bad += got != want;
	}
	T_EQ_INT(bad, 0);
	T_EQ_U64(fr.tmpl[1][62 + SIG_LEN + 5], 5);          /* the pattern after the signature */
	gen_frames_free(&fr);
}

static void t_faults6(void)
{
	struct gen_frames fr;
	struct gen_sizes z;
	char err[160];
	struct pkt_flow bf = base6();
	gen_sizes_single(&z, PKT6_WIRE_MIN);
	T_EQ_INT(gen_frames_build(&fr, &z, &bf, 0, NULL, err, sizeof(err)), 0);
	static const int want[GEN_FAULT_MAX] = {
		[GEN_FAULT_NONE] = PKT_TEST, [GEN_FAULT_IP_CSUM] = PKT_TEST,   /* left out */
		[GEN_FAULT_UDP_CSUM] = PKT_BAD_UDP_CSUM, [GEN_FAULT_LEN] = PKT_BAD_LEN,
		[GEN_FAULT_MAGIC] = PKT_FOREIGN,
	};
	struct gen_flows f = { .src_ip = { 2, 256 }, .dst_ip = { 2, 1 },
			       .sport = { 1, 65535 }, .dport = { 9, 1 } };
	gen_flows_finish(&f);
	uint8_t frame[PKT_FRAME_MAX];
	for (int k = 0; k < GEN_FAULT_MAX; k++) {
		int wrong = 0;
		for (uint64_t i = 0; i < 100000; i++) {
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
	gen_frames_free(&fr);
}

int main(void)
{
	T_RUN(t_sizes6);
	T_RUN(t_ranges6);
	T_RUN(t_patch6);
	T_RUN(t_faults6);
	return t_done();
}
