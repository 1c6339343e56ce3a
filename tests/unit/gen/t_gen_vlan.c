/* SPDX-License-Identifier: BSD-2-Clause */
/* t_gen_vlan.c — ppslab-gen's tagged frames (--vlan): one 802.1Q tag or QinQ, IPv4 and
 * IPv6, at every size from the smallest that carries the signature (68/72, 88/92: the
 * sizes count the tags) to 9018: the tags sit after the MACs with the right TPIDs, the
 * frame behind them is a valid test frame for the sink's classifier, the per-frame patch
 * keeps the checksums equal to a full recomputation over flows, and injected faults land
 * in their classes. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csum.h"
#include "frame.h"
#include "pkt.h"
#include "pkt6.h"
#include "tap.h"

static struct pkt_flow base(int v6, const char *vlan)
{
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64, .ipv = (uint8_t)(v6 ? 6 : 4) };
	char err[160];
	f.src_ip = htonl(0xc6120002);
	f.dst_ip = htonl(0xc6130002);
	ip6_parse("2001:2::2", f.src6);
	ip6_parse("2001:2:0:1::2", f.dst6);
	if (pkt_vlan_parse(vlan, &f.vlan, err, sizeof(err)))
		T_FAIL("pkt_vlan_parse %s: %s", vlan, err);
	return f;
}

/* The sink's view: the tags read off the front, the rest classified as untagged. */
static enum pkt_class classify(const uint8_t *f, uint32_t len, struct pkt_vlan *v,
			       struct pkt_info *pi)
{
	unsigned off = pkt_vlan_read(f, len, v);
	return pkt_classify(f + off, len - off, 9, true, pi);
}

static void t_sizes(void)
{
	struct gen_sizes z;
	char err[200] = "";
	static const struct { uint32_t min; const char *what; } m[] = {
		{ 68, "smallest IPv4 tagged test frame" }, { 72, "smallest IPv4 QinQ test frame" },
		{ 88, "smallest IPv6 tagged test frame" }, { 92, "smallest IPv6 QinQ test frame" },
	};
	for (unsigned i = 0; i < 4; i++) {
		char below[16];
		snprintf(below, sizeof(below), "%u", m[i].min - 1);
		T_EQ_INT(gen_sizes_parse_min(below, m[i].min, &z, err, sizeof(err)), -ERANGE);
		T_TRUE(strstr(err, m[i].what) != NULL);
		T_EQ_INT(gen_sizes_parse_min("imix", m[i].min, &z, err, sizeof(err)), 0);
		T_EQ_U64(z.wire[0], m[i].min);
	}
	T_EQ_INT(gen_sizes_parse_min("64", 68, &z, err, sizeof(err)), -ERANGE);
	T_TRUE(strstr(err, "4 VLAN tag +") != NULL);
	T_EQ_INT(gen_sizes_parse_min("68", 72, &z, err, sizeof(err)), -ERANGE);
	T_TRUE(strstr(err, "8 VLAN tags") != NULL);
}

/* Every size of each kind: length, tags, the test frame behind them. */
static void t_every_size(void)
{
	static const char *const vlans[] = { "100", "0:7", "4094:1", "200:3,100:5", "4094,0" };
	int bad = 0, built = 0;
	for (int v6 = 0; v6 <= 1; v6++)
		for (unsigned k = 0; k < 5; k++) {
			struct pkt_flow bf = base(v6, vlans[k]);
			uint32_t tl = bf.vlan.n * 4u, min = (v6 ? 84 : 64) + tl;
			for (uint32_t w = min; w <= PKT_WIRE_MAX; w += w < 1600 ? 1 : 397) {
				struct gen_sizes z;
				struct gen_frames fr;
				char err[160];
				gen_sizes_single(&z, w);
				if (gen_frames_build(&fr, &z, &bf, 3, NULL, err, sizeof(err))) {
					T_FAIL("build %s %u: %s", vlans[k], w, err);
					return;
				}
				built++;
				const uint8_t *f = fr.tmpl[0];
				struct pkt_vlan got;
				struct pkt_info pi;
				enum pkt_class c = classify(f, fr.frame_len[0], &got, &pi);
				bad += fr.frame_len[0] != w - 4;
				bad += c != PKT_TEST || pi.ipv != (v6 ? 6 : 4) || pi.sig.stream != 3;
				bad += got.n != bf.vlan.n;
				for (unsigned i = 0; i < got.n; i++)
					bad += got.tci[i] != bf.vlan.tci[i] ||
					       got.tpid[i] != (bf.vlan.n == 2 && i == 0 ? 0x88a8 : 0x8100);
				bad += memcmp(f, bf.dst_mac, 6) != 0 || memcmp(f + 6, bf.src_mac, 6) != 0;
				bad += fr.udp_off != (v6 ? 54 : 34) + tl || fr.pl_off != (v6 ? 62 : 42) + tl;
				gen_frames_free(&fr);
			}
		}
	T_TRUE(built > 4000);
	T_EQ_INT(bad, 0);
	/* a size the tags leave no room for is refused by the builder too */
	struct pkt_flow bf = base(0, "1,2");
	struct gen_sizes z;
	struct gen_frames fr;
	char err[160] = "";
	gen_sizes_single(&z, 68);
	T_TRUE(gen_frames_build(&fr, &z, &bf, 0, NULL, err, sizeof(err)) != 0);
	T_TRUE(err[0] != 0);
}

/* The per-frame patch over many flows and a size mix: checksums equal a full
 * recomputation, the tags stay, and faults land in the sink's classes. */
static void t_patch(void)
{
	for (int v6 = 0; v6 <= 1; v6++)
		for (int q = 0; q <= 1; q++) {
			struct pkt_flow bf = base(v6, q ? "300:2,30" : "30:6");
			struct gen_sizes z;
			struct gen_pattern pat;
			struct gen_frames fr;
			char err[160];
			unsigned tl = q ? 8 : 4;
			T_EQ_INT(gen_sizes_parse_min("imix", (v6 ? 84 : 64) + tl, &z, err, sizeof(err)), 0);
			T_EQ_INT(gen_pattern_parse("inc", &pat), 0);
			T_EQ_INT(gen_frames_build(&fr, &z, &bf, 7, &pat, err, sizeof(err)), 0);
			struct gen_flows fl = { .src_ip = { 2, 50 }, .dst_ip = { 0xc6130000, 15 },
						.sport = { 1000, 1000 }, .dport = { 9, 1 } };
			gen_flows_finish(&fl);
			uint8_t frame[PKT_FRAME_MAX];
			int bad = 0;
			for (unsigned i = 0; i < 3000; i++) {
				unsigned zi = i % 3;
				struct gen_tuple t;
				struct sig g = { .flags = SIG_F_REALTIME, .stream = 7, .seq = i, .tx_ns = 99 };
				uint8_t sig[SIG_LEN];
				sig_put(sig, &g);
				gen_flow_at(&fl, (i * 2654435761u) % fl.n, &t);
				memcpy(frame, fr.tmpl[zi], fr.frame_len[zi]);
				int fault = i % 10 == 9 ? GEN_FAULT_UDP_CSUM : i % 10 == 8 ? GEN_FAULT_MAGIC
					: GEN_FAULT_NONE;
				gen_frame_patch(frame, fr.tmpl[zi], &t, sig, fault);
				struct pkt_vlan vl;
				struct pkt_info pi;
				enum pkt_class c = classify(frame, fr.frame_len[zi], &vl, &pi);
				enum pkt_class want = fault == GEN_FAULT_UDP_CSUM ? PKT_BAD_UDP_CSUM
					: fault == GEN_FAULT_MAGIC ? PKT_FOREIGN : PKT_TEST;
				bad += c != want || vl.n != bf.vlan.n || vl.tci[0] != bf.vlan.tci[0];
				if (fault)
					continue;
				bad += pi.sig.seq != i || pi.src_port != t.sport;
				uint8_t *ip = frame + 14 + tl, *udp = frame + fr.udp_off;
				uint32_t ul = fr.frame_len[zi] - fr.udp_off;
				uint16_t want_c = v6 ? pkt6_udp_csum(ip, udp, ul)
						     : csum_udp4(ip + 12, ip + 16, udp, ul), got_c;
				memcpy(&got_c, udp + 6, 2);
				bad += got_c != want_c;
				bad += !v6 && !csum_ip4_ok(ip, 20);
			}
			T_EQ_INT(bad, 0);
			gen_frames_free(&fr);
		}
}

int main(void)
{
	T_RUN(t_sizes);
	T_RUN(t_every_size);
	T_RUN(t_patch);
	return t_done();
}
