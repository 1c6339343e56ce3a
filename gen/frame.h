/* SPDX-License-Identifier: BSD-2-Clause */
/* frame.h — what ppslab-gen's frames carry and how each is made from a template: the
 * size mix, the flow set, the payload pattern, error injection, and the per-frame patch
 * with RFC 1624 incremental checksum updates.
 *
 * Everything here is pure and allocation-free after gen_frames_build. A frame's size,
 * its flow (in sequential order) and its injected fault are functions of its global
 * position in the schedule (pace_position), so N threads together produce exactly the
 * proportions one thread would: IMIX is 7:4:1 over every 12 positions, an injection
 * fraction p/q marks exactly ⌊n·p/q⌋ of the first n positions.
 *
 * main.c parses the options into these structs; gen.c builds the templates once
 * (gen_frames_build) and its fill routines call gen_frame_patch per frame. */
#ifndef PPSLAB_GEN_FRAME_H
#define PPSLAB_GEN_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "pkt.h"

#define GEN_MAX_SIZES 16
#define GEN_SIZE_CYCLE_MAX 4096

/* A size mix: distinct wire sizes (with FCS) and integer weights. The order of one cycle
 * of Σweight frames is a smooth weighted round robin (each size as evenly spread as its
 * weight allows), so proportions are exact over every cycle, not only on average. */
struct gen_sizes {
	unsigned n;
	uint32_t wire[GEN_MAX_SIZES];
	uint32_t weight[GEN_MAX_SIZES];
	uint32_t cycle;                       /* Σ weight */
	uint8_t order[GEN_SIZE_CYCLE_MAX];    /* size index of each position in a cycle */
};

/* "64", "64,128,1518" (equal weights), "64:7,594:4,1518:1" (weights) or "imix" (the
 * simple IMIX 64:7,594:4,1518:1). Sizes 64..9018 with FCS. 0 or -EINVAL / -ERANGE with
 * the reason in err. */
int gen_sizes_parse(const char *s, struct gen_sizes *z, char *err, size_t errlen);
/* The same with a smallest size of min_wire (PKT6_WIRE_MIN, 84, for IPv6): a smaller
 * size is refused with the reason, and "imix" is min_wire:7,594:4,1518:1. */
int gen_sizes_parse_min(const char *s, uint32_t min_wire, struct gen_sizes *z, char *err,
			size_t errlen);
void gen_sizes_single(struct gen_sizes *z, uint32_t wire);
double gen_sizes_mean(const struct gen_sizes *z);      /* mean wire size (with FCS) */
uint32_t gen_sizes_max(const struct gen_sizes *z);
static inline unsigned gen_size_at(const struct gen_sizes *z, uint64_t pos)
{
	return z->order[pos % z->cycle];
}

/* A range of n >= 1 consecutive values from lo (addresses in host order). */
struct gen_range {
	uint32_t lo;
	uint32_t n;
};

/* The flow set: the cross product of four ranges. Flow index f maps to a tuple in
 * mixed radix, source port fastest, then destination port, source address, destination
 * address. Sequential order takes f = position mod n; random order draws f uniformly
 * from a per-thread xorshift generator. */
struct gen_flows {
	struct gen_range src_ip, dst_ip, sport, dport;
	uint64_t n;          /* number of flows (product of the range sizes) */
	int random;
};

/* IPv6 ranges are over the last 32 bits of the address (the first 96 are the base
 * flow's): src_ip and dst_ip then hold those 32 bits. */
struct gen_tuple {
	uint32_t src_ip, dst_ip;     /* network order */
	uint16_t sport, dport;       /* host order */
};

/* "198.18.0.2", "198.18.0.2-198.18.0.9" or "198.18.0.0/29" (every address of the
 * prefix). 0 or -EINVAL / -ERANGE (end before start). */
int gen_range_ip4(const char *s, struct gen_range *r);
/* "2001:2::2", "2001:2::2-2001:2::9" (the first 96 bits equal) or "2001:2::/120" (LEN
 * 104..128): the range of the last 32 bits, the first address in base. 0 or -EINVAL /
 * -ERANGE (end before start, other first 96 bits, more than 2^24 addresses). */
int gen_range_ip6(const char *s, struct gen_range *r, uint8_t base[16]);
/* "9" or "1000-1999" (1..65535). */
int gen_range_port(const char *s, struct gen_range *r);
/* Computes n from the ranges; -ERANGE if the product overflows 2^48. */
int gen_flows_finish(struct gen_flows *f);
void gen_flow_at(const struct gen_flows *f, uint64_t idx, struct gen_tuple *t);

/* The payload after the signature: zero (default), 0xNN (one byte repeated), inc
 * (0, 1, 2, ... 255, 0, ...), random (a fixed pseudo-random sequence, the same every
 * run) or hex:0123ABCD (those bytes repeated). */
enum gen_pat_kind { GEN_PAT_BYTES, GEN_PAT_INC, GEN_PAT_RANDOM };
struct gen_pattern {
	enum gen_pat_kind kind;
	uint8_t bytes[64];
	unsigned len;
};
int gen_pattern_parse(const char *s, struct gen_pattern *p);
void gen_pattern_fill(const struct gen_pattern *p, uint8_t *buf, size_t len);

/* Error injection: a fraction num/den of the frames are faulty, the faults taking
 * turns among the chosen kinds. Each fault lands in one class of the sink (pkt.h):
 *   ip-csum   IPv4 header checksum wrong                  -> bad_ip_csum
 *   udp-csum  UDP checksum wrong (never 0, "no checksum") -> bad_udp_csum
 *   len       UDP length 2 bytes longer than the datagram -> bad_len
 *   magic     signature magic inverted, checksums valid   -> foreign
 * Faulty frames carry no sequence number of the stream (the sink never counts them as
 * test frames, so they must not leave gaps in it). */
enum gen_fault { GEN_FAULT_NONE, GEN_FAULT_IP_CSUM, GEN_FAULT_UDP_CSUM, GEN_FAULT_LEN,
		 GEN_FAULT_MAGIC, GEN_FAULT_MAX };
struct gen_inject {
	unsigned nkinds;
	uint8_t kind[GEN_FAULT_MAX];
	uint64_t num, den;           /* fraction of frames; num 0: no injection */
};
/* "ip-csum,udp-csum,len,magic" (any non-empty subset, each once). */
int gen_inject_parse(const char *s, struct gen_inject *inj);
/* "0.01", "1%", "1/100": a fraction in (0, 1] as num/den. */
int gen_fraction_parse(const char *s, uint64_t *num, uint64_t *den);
const char *gen_fault_name(int kind);   /* "ip_csum", ... (JSON keys) */
/* The fault of the frame at pos: frame pos is faulty iff ⌊(pos+1)·num/den⌋ > ⌊pos·num/den⌋,
 * and the e-th faulty frame gets kind[e mod nkinds]. */
static inline int gen_fault_at(const struct gen_inject *inj, uint64_t pos)
{
	if (!inj->num)
		return GEN_FAULT_NONE;
	unsigned __int128 a = (unsigned __int128)pos * inj->num;
	uint64_t e0 = (uint64_t)(a / inj->den), e1 = (uint64_t)((a + inj->num) / inj->den);
	return e1 == e0 ? GEN_FAULT_NONE : inj->kind[e0 % inj->nkinds];
}

/* One template per size of the mix: the base flow (the first of every range), a zero
 * signature with the stream id, the payload pattern, valid checksums. */
struct gen_frames {
	unsigned n;
	uint32_t udp_off, pl_off;             /* UDP header and payload: IPv4 34, 42; IPv6 54, 62 */
	uint32_t frame_len[GEN_MAX_SIZES];    /* without FCS */
	uint8_t *tmpl[GEN_MAX_SIZES];
	uint32_t frame_max;
};
int gen_frames_build(struct gen_frames *fr, const struct gen_sizes *z, const struct pkt_flow *base,
		     uint8_t stream, const struct gen_pattern *pat, char *err, size_t errlen);
void gen_frames_free(struct gen_frames *fr);

/* Makes frame f from template tmpl, whose bytes beyond the signature f already holds:
 * copies the headers, writes the tuple (NULL: the template's own flow) and the 18-byte
 * signature sig, updates the IPv4 and UDP checksums incrementally (RFC 1624: only what
 * changed is summed), then applies fault. An IPv6 template (its ethertype) gets the
 * tuple in its addresses' last 32 bits and only the UDP checksum updated (ip-csum does
 * not apply: IPv6 has no header checksum, and such a fault is left out). */
void gen_frame_patch(uint8_t *f, const uint8_t *tmpl, const struct gen_tuple *t,
		     const uint8_t sig[SIG_LEN], int fault);

#endif
