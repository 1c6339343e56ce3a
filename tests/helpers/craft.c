/* SPDX-License-Identifier: BSD-2-Clause */
/* craft.c — a test helper (not installed): sends hand-made test frames for the sink's
 * integration tests: a chosen sequence list (gaps, duplicates, reordering), a stream id,
 * many flows for one stream, sender warm-up flags, a skewed timestamp (an unsynchronized
 * clock), or a whole frame class the classifier must recognize (faults.h), or one of the
 * firewall's (fw_class: a TCP SYN, a tiny TCP fragment, truncated TCP and UDP headers,
 * UDP-Lite, an ICMP echo request). It prints a
 * summary shaped like ppslab-gen's ("stream", "tx_pkts"), so it can feed --expect-from.
 *
 *   craft -i IF [--dst ADDR] [--dst-mac MAC] [--class NAME] [--stream ID]
 *         [--seqs A-B,C,...] [--flows N] [--rate PPS] [--warmup] [--skew-ns NS]
 *         [--claim N] [--ipv6 [--src ADDR6]]
 * --ipv6 sends 84-byte IPv6 test frames (faults.h's fault6_apply classes) from --src
 * (default 2001:2::2) to --dst (default 2001:2::1); it needs --dst-mac.
 * Traffic goes only where the caller's namespace routes it; rates are bounded. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "faults.h"
#include "ifinfo.h"
#include "num.h"
#include "pkt.h"
#include "port.h"
#include "sig.h"

#define MAX_SEQS 4000000

static void fw_l4_csum(uint8_t *fr, unsigned csum_off)
{
	uint8_t *ip = fr + PKT_IP_OFF;
	unsigned ihl = (ip[0] & 15u) * 4u, l4len = (unsigned)(ip[2] << 8 | ip[3]) - ihl;
	uint8_t ph[12];
	memcpy(ph, ip + 12, 8);
	ph[8] = 0;
	ph[9] = ip[9];
	ph[10] = (uint8_t)(l4len >> 8);
	ph[11] = (uint8_t)l4len;
	ip[ihl + csum_off] = ip[ihl + csum_off + 1] = 0;
	uint16_t c = csum_fold(csum_add(csum_add(0, ph, 12), ip + ihl, l4len));
	memcpy(ip + ihl + csum_off, &c, 2);
}

/* The firewall's classes, made from the valid 60-byte frame (its UDP source port kept):
 * tcp_syn (a 20-byte SYN to port 80), tcp_tiny_frag (a TCP fragment at offset 1: RFC
 * 3128's attack), tcp_trunc (12 bytes of TCP header), udp_trunc (4 bytes of UDP header),
 * udplite (protocol 136 to port 9), icmp_echo (an echo request). 1 if cls is one, 0 if not. */
static int fw_class(const char *cls, uint8_t *fr, uint32_t *len)
{
	uint8_t *ip = fr + PKT_IP_OFF, *l4 = fr + PKT_UDP_OFF;
	unsigned iplen;
	if (!strcmp(cls, "tcp_syn") || !strcmp(cls, "tcp_tiny_frag") || !strcmp(cls, "tcp_trunc")) {
		ip[9] = 6;
		iplen = !strcmp(cls, "tcp_trunc") ? 32 : 40;
		memset(l4 + 2, 0, 18);
		l4[3] = 80;
		l4[4] = 0x01; l4[5] = 0x02; l4[6] = 0x03; l4[7] = 0x04;   /* seq */
		l4[12] = 0x50;
		l4[13] = 0x02;                                           /* SYN */
		l4[14] = 0xff; l4[15] = 0xff;
		if (!strcmp(cls, "tcp_tiny_frag")) {
			ip[6] = 0;
			ip[7] = 1;   /* offset 1: 8 bytes in, over the TCP flags */
		}
	} else if (!strcmp(cls, "icmp_echo")) {
		ip[9] = 1;
		iplen = 46;
		l4[0] = 8;   /* echo request, id 0x1234, seq 1, the frame's bytes as data */
		l4[1] = 0;
		l4[2] = l4[3] = 0;
		l4[4] = 0x12; l4[5] = 0x34; l4[6] = 0; l4[7] = 1;
	} else if (!strcmp(cls, "udp_trunc")) {
		iplen = 24;
	} else if (!strcmp(cls, "udplite")) {
		ip[9] = 136;
		iplen = 46;
		l4[4] = 0;
		l4[5] = 0;   /* checksum coverage 0: the whole datagram */
	} else {
		return 0;
	}
	ip[2] = (uint8_t)(iplen >> 8);
	ip[3] = (uint8_t)iplen;
	memset(fr + PKT_IP_OFF + iplen, 0, 60 - PKT_IP_OFF - iplen);
	fault_fix_ip(fr);
	if (ip[9] == 6 && !(ip[7]) && iplen == 40)
		fw_l4_csum(fr, 16);
	else if (ip[9] == 136)
		fw_l4_csum(fr, 6);
	else if (ip[9] == 1) {
		uint16_t c = csum_fold(csum_add(0, l4, iplen - 20));
		memcpy(l4 + 2, &c, 2);
	}
	*len = 60;
	return 1;
}

static int parse_seqs(const char *spec, uint64_t **out, size_t *n)
{
	size_t cap = 1024, k = 0;
	uint64_t *v = malloc(cap * sizeof(*v));
	char *dup = strdup(spec), *save = NULL;
	if (!v || !dup)
		return -ENOMEM;
	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t a, b;
		char *dash = strchr(tok, '-');
		if (dash)
			*dash = 0;
		if (num_u64(tok, 0, SIG_SEQ_MASK, &a) ||
		    (dash ? num_u64(dash + 1, a, SIG_SEQ_MASK, &b) : (b = a, 0))) {
			fprintf(stderr, "craft: --seqs: bad item '%s'\n", tok);
			free(v);
			free(dup);
			return -EINVAL;
		}
		for (uint64_t s = a; s <= b; s++) {
			if (k == MAX_SEQS) {
				fprintf(stderr, "craft: --seqs: more than %d frames\n", MAX_SEQS);
				free(v);
				free(dup);
				return -EINVAL;
			}
			if (k == cap) {
				uint64_t *nv = realloc(v, cap * 2 * sizeof(*v));
				if (!nv) {
					free(v);
					free(dup);
					return -ENOMEM;
				}
				v = nv;
				cap *= 2;
			}
			v[k++] = s;
		}
	}
	free(dup);
	*out = v;
	*n = k;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "iface", 1, NULL, 'i' }, { "dst", 1, NULL, 'd' }, { "dst-mac", 1, NULL, 'm' },
		{ "class", 1, NULL, 'c' }, { "stream", 1, NULL, 'S' }, { "seqs", 1, NULL, 's' },
		{ "flows", 1, NULL, 'f' }, { "rate", 1, NULL, 'r' }, { "warmup", 0, NULL, 'w' },
		{ "skew-ns", 1, NULL, 'k' }, { "claim", 1, NULL, 'C' }, { "ipv6", 0, NULL, '6' },
		{ "src", 1, NULL, 'x' }, { NULL, 0, NULL, 0 },
	};
	const char *iface = NULL, *dst = NULL, *dmac = NULL, *cls = "test", *src6 = "2001:2::2";
	int v6 = 0;
	const char *seqs = "0-999";
	uint64_t stream = 0, flows = 1, claim = 0, v;
	double rate = 20000;
	int warm = 0, o;
	long long skew = 0;
	char err[256];
	while ((o = getopt_long(argc, argv, "i:d:c:S:s:f:r:", lo, NULL)) != -1) {
		switch (o) {
		case 'i': iface = optarg; break;
		case 'd': dst = optarg; break;
		case 'm': dmac = optarg; break;
		case '6': v6 = 1; break;
		case 'x': src6 = optarg; break;
		case 'c': cls = optarg; break;
		case 's': seqs = optarg; break;
		case 'w': warm = 1; break;
		case 'S': if (num_u64(optarg, 0, 255, &stream)) goto usage; break;
		case 'f': if (num_u64(optarg, 1, 60000, &flows)) goto usage; break;
		case 'C': if (num_count(optarg, 0, SIG_SEQ_MASK, &claim)) goto usage; break;
		case 'r': if (num_pps(optarg, &rate) || rate > 1e6) goto usage; break;
		case 'k': {
			const char *p = optarg;
			int neg = *p == '-';
			if (num_u64(p + neg, 0, 1ULL << 62, &v))
				goto usage;
			skew = neg ? -(long long)v : (long long)v;
			break;
		}
		default: goto usage;
		}
	}
	if (!iface)
		goto usage;

	struct port *p;
	struct port_cfg pc = { .dir = PORT_TX, .frame_max = PKT_FRAME_MAX };
	if (port_open(iface, &pc, &p, err, sizeof(err))) {
		fprintf(stderr, "craft: %s\n", err);
		return 69;
	}
	const char *ifn = port_ifname(p);
	struct pkt_flow f = { .src_port = 9, .dst_port = 9, .ttl = 64 };
	uint8_t plen;
	if (v6) {
		f.ipv = 6;
		if (!dmac || ip6_parse(dst ? dst : "2001:2::1", f.dst6) || ip6_parse(src6, f.src6) ||
		    if_hwaddr(ifn, f.src_mac) || mac_parse(dmac, f.dst_mac)) {
			fprintf(stderr, "craft: --ipv6 needs --dst-mac and IPv6 addresses\n");
			port_close(p);
			return 64;
		}
	} else if (ip4_parse(dst = dst ? dst : "198.18.0.1", &f.dst_ip) || if_ip4(ifn, &f.src_ip, &plen) ||
	    if_hwaddr(ifn, f.src_mac) ||
	    (dmac ? mac_parse(dmac, f.dst_mac) : neigh_lookup(ifn, f.dst_ip, f.dst_mac))) {
		fprintf(stderr, "craft: cannot resolve addresses on %s for %s\n", ifn, dst);
		port_close(p);
		return 69;
	}
	uint8_t tmpl[PKT_FRAME_MAX], fr[PKT_FRAME_MAX];
	const uint32_t flen = v6 ? PKT6_WIRE_MIN - PKT_FCS_LEN : 60;
	const uint32_t uo = v6 ? PKT_UDP6_OFF : PKT_UDP_OFF, po = uo + PKT_UDP_LEN;
	uint8_t sflags = (uint8_t)(SIG_F_REALTIME | (warm ? SIG_F_WARMUP : 0));
	if (v6 ? pkt6_build_template(&f, flen, (uint8_t)stream, sflags, 0, tmpl, err, sizeof(err))
	       : pkt_build_template(&f, 60, (uint8_t)stream, sflags, 0, tmpl, err, sizeof(err))) {
		fprintf(stderr, "craft: %s\n", err);
		port_close(p);
		return 70;
	}
	uint64_t *sv;
	size_t n;
	if (parse_seqs(seqs, &sv, &n)) {
		port_close(p);
		return 64;
	}
	uint32_t probe_len = flen;
	memcpy(fr, tmpl, flen);
	int want = v6 ? fault6_apply(cls, fr, &probe_len)
		: fw_class(cls, fr, &probe_len) ? 0 : fault_apply(cls, fr, &probe_len);
	if (want < 0) {
		fprintf(stderr, "craft: unknown --class %s\n", cls);
		free(sv);
		port_close(p);
		return 64;
	}
	uint64_t t0 = mono_ns(), sent = 0, maxseq = 0;
	for (size_t i = 0; i < n; i++) {
		clock_wait_until(t0 + (uint64_t)((double)i * 1e9 / rate), 50000);
		uint32_t len = flen;
		memcpy(fr, tmpl, flen);
		uint16_t sport = (uint16_t)(9 + i % flows);
		fr[uo] = (uint8_t)(sport >> 8);
		fr[uo + 1] = (uint8_t)sport;
		sig_put_seq_ts(fr + po, sv[i], (uint64_t)((long long)real_ns() + skew));
		if (v6) {
			fault6_fix_udp(fr);
			fault6_apply(cls, fr, &len);
		} else {
			fault_fix_udp(fr);
			if (!fw_class(cls, fr, &len))
				fault_apply(cls, fr, &len);
		}
		struct port_pkt pk = { .data = fr, .len = len };
		for (int tries = 0; port_tx_burst(p, &pk, 1) != 1; tries++) {
			if (tries > 100000) {
				fprintf(stderr, "craft: the ring stays full\n");
				free(sv);
				port_close(p);
				return 74;
			}
		}
		sent++;
		if (sv[i] + 1 > maxseq)
			maxseq = sv[i] + 1;
	}
	printf("{\"schema\":\"ppslab/craft\",\"type\":\"summary\",\"class\":\"%s\","
	       "\"stream\":%llu,\"frames\":%llu,\"tx_pkts\":%llu}\n", cls,
	       (unsigned long long)stream, (unsigned long long)sent,
	       (unsigned long long)(claim ? claim : maxseq));
	free(sv);
	port_close(p);
	return 0;
usage:
	fprintf(stderr, "usage: craft -i IF [--dst ADDR] [--dst-mac MAC] [--class NAME] "
		"[--stream ID] [--seqs A-B,C,...] [--flows N] [--rate PPS] [--warmup] "
		"[--skew-ns NS] [--claim N] [--ipv6 [--src ADDR6]]\n");
	return 64;
}
