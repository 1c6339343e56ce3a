/* SPDX-License-Identifier: BSD-2-Clause */
/* frame.c — size mixes, flow sets, payload patterns, error injection and the per-frame
 * patch of ppslab-gen (see frame.h). Parsers are called by main.c; gen_frames_build by
 * gen_init once; gen_frame_patch, gen_flow_at and the inline selectors by the workers'
 * fill routines per frame. */
#include "frame.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csum.h"
#include "ifinfo.h"
#include "num.h"
#include "pkt6.h"
#include "rng.h"

/* One cycle of a smooth weighted round robin (the nginx upstream balancer's): every
 * step adds each weight to its credit and picks the largest credit, which then pays
 * the total. Each size appears exactly weight times per cycle, spread evenly. */
static void sizes_order(struct gen_sizes *z)
{
	int64_t credit[GEN_MAX_SIZES] = { 0 };
	z->cycle = 0;
	for (unsigned i = 0; i < z->n; i++)
		z->cycle += z->weight[i];
	for (uint32_t k = 0; k < z->cycle; k++) {
		unsigned best = 0;
		for (unsigned i = 0; i < z->n; i++) {
			credit[i] += z->weight[i];
			if (credit[i] > credit[best])
				best = i;
		}
		credit[best] -= z->cycle;
		z->order[k] = (uint8_t)best;
	}
}

void gen_sizes_single(struct gen_sizes *z, uint32_t wire)
{
	memset(z, 0, sizeof(*z));
	z->n = 1;
	z->wire[0] = wire;
	z->weight[0] = 1;
	sizes_order(z);
}

int gen_sizes_parse(const char *s, struct gen_sizes *z, char *err, size_t errlen)
{
	return gen_sizes_parse_min(s, PKT_WIRE_MIN, z, err, errlen);
}

/* Why min_wire is the smallest size: IPv6 (84) and each VLAN tag (4) add to the 64
 * bytes an IPv4 test frame needs. */
static void min_reason(const char *item, uint32_t min_wire, char *err, size_t errlen)
{
	int v6 = min_wire >= PKT6_WIRE_MIN;
	unsigned tags = (min_wire - (v6 ? PKT6_WIRE_MIN : PKT_WIRE_MIN)) / PKT_VLAN_TAG_LEN;
	char t[48] = "";
	if (tags)
		snprintf(t, sizeof(t), " + %u VLAN tag%s", 4 * tags, tags > 1 ? "s" : "");
	snprintf(err, errlen, "size %s is below %u, the smallest %s%s test frame (14 Ethernet%s "
		 "+ %s + 8 UDP + 18 signature + 4 FCS)", item, min_wire, v6 ? "IPv6" : "IPv4",
		 tags == 1 ? " tagged" : tags ? " QinQ" : "", t, v6 ? "40 IPv6" : "20 IPv4");
}

int gen_sizes_parse_min(const char *s, uint32_t min_wire, struct gen_sizes *z, char *err,
			size_t errlen)
{
	char buf[256], *save = NULL;
	uint32_t total = 0;
	memset(z, 0, sizeof(*z));
	if (!s || !*s || strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "empty or too long");
		return -EINVAL;
	}
	if (!strcmp(s, "imix")) {
		snprintf(buf, sizeof(buf), "%u:7,594:4,1518:1", min_wire);
	} else {
		strcpy(buf, s);
	}
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		uint64_t size, w = 1;
		if (colon)
			*colon = 0;
		if (z->n == GEN_MAX_SIZES) {
			snprintf(err, errlen, "more than %d sizes", GEN_MAX_SIZES);
			return -E2BIG;
		}
		int rc = num_bytes(item, min_wire, PKT_WIRE_MAX, &size);
		if (rc) {
			if (rc == -ERANGE && min_wire > PKT_WIRE_MIN &&
			    !num_bytes(item, 1, min_wire - 1, &size))
				min_reason(item, min_wire, err, errlen);
			else if (rc == -ERANGE && !num_bytes(item, 1, PKT_WIRE_MIN - 1, &size))
				snprintf(err, errlen, "size %s is below 64: sizes count the 4-byte FCS "
					 "(RFC 2544), so the smallest frame is 64 (60 bytes from software)", item);
			else
				snprintf(err, errlen, "size '%s' is not %u..9018 bytes with FCS", item,
					 min_wire);
			return rc == -ERANGE ? -ERANGE : -EINVAL;
		}
		if (colon && num_u64(colon + 1, 1, GEN_SIZE_CYCLE_MAX, &w)) {
			snprintf(err, errlen, "weight '%s' of size %s is not 1..%d", colon + 1, item,
				 GEN_SIZE_CYCLE_MAX);
			return -EINVAL;
		}
		for (unsigned i = 0; i < z->n; i++)
			if (z->wire[i] == size) {
				snprintf(err, errlen, "size %s listed twice", item);
				return -EINVAL;
			}
		z->wire[z->n] = (uint32_t)size;
		z->weight[z->n] = (uint32_t)w;
		z->n++;
		total += (uint32_t)w;
	}
	if (!z->n) {
		snprintf(err, errlen, "no sizes");
		return -EINVAL;
	}
	if (total > GEN_SIZE_CYCLE_MAX) {
		snprintf(err, errlen, "weights add up to %u, more than %d", total, GEN_SIZE_CYCLE_MAX);
		return -ERANGE;
	}
	sizes_order(z);
	return 0;
}

double gen_sizes_mean(const struct gen_sizes *z)
{
	double s = 0;
	for (unsigned i = 0; i < z->n; i++)
		s += (double)z->wire[i] * z->weight[i];
	return z->cycle ? s / z->cycle : 0;
}

uint32_t gen_sizes_max(const struct gen_sizes *z)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < z->n; i++)
		if (z->wire[i] > m)
			m = z->wire[i];
	return m;
}

int gen_range_ip4(const char *s, struct gen_range *r)
{
	char a[32];
	const char *dash = strchr(s, '-');
	uint32_t lo, hi;
	uint8_t len;
	if (dash) {
		if ((size_t)(dash - s) >= sizeof(a))
			return -EINVAL;
		memcpy(a, s, (size_t)(dash - s));
		a[dash - s] = 0;
		if (ip4_parse(a, &lo) || ip4_parse(dash + 1, &hi))
			return -EINVAL;
		lo = ntohl(lo);
		hi = ntohl(hi);
	} else {
		if (ip4_parse_prefix(s, &lo, &len))
			return -EINVAL;
		lo = ntohl(lo);
		if (len < 8)
			return -ERANGE;   /* more than 2^24 addresses: surely a typo */
		uint32_t mask = len == 32 ? 0xffffffffU : ~(0xffffffffU >> len);
		if (strchr(s, '/'))
			lo &= mask;
		hi = lo | ~mask;
	}
	if (hi < lo)
		return -ERANGE;
	r->lo = lo;
	r->n = hi - lo + 1;
	return 0;
}

int gen_range_ip6(const char *s, struct gen_range *r, uint8_t base[16])
{
	char a[64];
	const char *dash = strchr(s, '-'), *slash = strchr(s, '/');
	uint8_t lo6[16], hi6[16];
	uint32_t lo, hi;
	size_t alen = dash ? (size_t)(dash - s) : slash ? (size_t)(slash - s) : strlen(s);
	if (alen >= sizeof(a))
		return -EINVAL;
	memcpy(a, s, alen);
	a[alen] = 0;
	if (ip6_parse(a, lo6))
		return -EINVAL;
	memcpy(&lo, lo6 + 12, 4);
	lo = ntohl(lo);
	if (dash) {
		if (ip6_parse(dash + 1, hi6))
			return -EINVAL;
		if (memcmp(lo6, hi6, 12))
			return -ERANGE;    /* ranges walk the last 32 bits only */
		memcpy(&hi, hi6 + 12, 4);
		hi = ntohl(hi);
	} else if (slash) {
		uint64_t len;
		if (num_u64(slash + 1, 0, 128, &len))
			return -EINVAL;
		if (len < 104)
			return -ERANGE;    /* more than 2^24 addresses: surely a typo */
		uint32_t mask = len == 128 ? 0xffffffffU : ~(0xffffffffU >> (len - 96));
		lo &= mask;
		hi = lo | ~mask;
	} else {
		hi = lo;
	}
	if (hi < lo)
		return -ERANGE;
	uint32_t lo_be = htonl(lo);
	memcpy(lo6 + 12, &lo_be, 4);
	memcpy(base, lo6, 16);
	r->lo = lo;
	r->n = hi - lo + 1;
	return 0;
}

int gen_range_port(const char *s, struct gen_range *r)
{
	char a[16];
	const char *dash = strchr(s, '-');
	uint64_t lo, hi;
	if (dash) {
		if ((size_t)(dash - s) >= sizeof(a))
			return -EINVAL;
		memcpy(a, s, (size_t)(dash - s));
		a[dash - s] = 0;
		if (num_u64(a, 1, 65535, &lo) || num_u64(dash + 1, 1, 65535, &hi))
			return -EINVAL;
	} else {
		if (num_u64(s, 1, 65535, &lo))
			return -EINVAL;
		hi = lo;
	}
	if (hi < lo)
		return -ERANGE;
	r->lo = (uint32_t)lo;
	r->n = (uint32_t)(hi - lo + 1);
	return 0;
}

int gen_flows_finish(struct gen_flows *f)
{
	const struct gen_range *r[4] = { &f->src_ip, &f->dst_ip, &f->sport, &f->dport };
	uint64_t n = 1;
	for (int i = 0; i < 4; i++) {
		uint64_t m = r[i]->n ? r[i]->n : 1;
		if (n > (1ULL << 48) / m)
			return -ERANGE;
		n *= m;
	}
	f->n = n;
	return 0;
}

void gen_flow_at(const struct gen_flows *f, uint64_t idx, struct gen_tuple *t)
{
	uint64_t q = idx;
	t->sport = (uint16_t)(f->sport.lo + q % f->sport.n);
	q /= f->sport.n;
	t->dport = (uint16_t)(f->dport.lo + q % f->dport.n);
	q /= f->dport.n;
	t->src_ip = htonl(f->src_ip.lo + (uint32_t)(q % f->src_ip.n));
	q /= f->src_ip.n;
	t->dst_ip = htonl(f->dst_ip.lo + (uint32_t)(q % f->dst_ip.n));
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 32;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int gen_pattern_parse(const char *s, struct gen_pattern *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = GEN_PAT_BYTES;
	p->len = 1;
	if (!strcmp(s, "zero"))
		return 0;
	if (!strcmp(s, "inc")) {
		p->kind = GEN_PAT_INC;
		return 0;
	}
	if (!strcmp(s, "random")) {
		p->kind = GEN_PAT_RANDOM;
		return 0;
	}
	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || !strncmp(s, "hex:", 4)) {
		const char *h = s[0] == '0' ? s + 2 : s + 4;
		size_t l = strlen(h);
		if (!l || l % 2 || l / 2 > sizeof(p->bytes) || (s[0] == '0' && l != 2))
			return -EINVAL;
		for (size_t i = 0; i < l / 2; i++) {
			int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return -EINVAL;
			p->bytes[i] = (uint8_t)(hi << 4 | lo);
		}
		p->len = (unsigned)(l / 2);
		return 0;
	}
	return -EINVAL;
}

void gen_pattern_fill(const struct gen_pattern *p, uint8_t *buf, size_t len)
{
	uint64_t x = 0x9E3779B97F4A7C15ULL;   /* fixed: the same bytes every run */
	for (size_t i = 0; i < len; i++) {
		switch (p->kind) {
		case GEN_PAT_INC:
			buf[i] = (uint8_t)i;
			break;
		case GEN_PAT_RANDOM:
			buf[i] = (uint8_t)(rng_xs64(&x) >> 56);
			break;
		default:
			buf[i] = p->bytes[i % p->len];
			break;
		}
	}
}

static const struct {
	const char *cli, *json;
} fault_names[GEN_FAULT_MAX] = {
	[GEN_FAULT_NONE] = { "none", "none" },
	[GEN_FAULT_IP_CSUM] = { "ip-csum", "ip_csum" },
	[GEN_FAULT_UDP_CSUM] = { "udp-csum", "udp_csum" },
	[GEN_FAULT_LEN] = { "len", "len" },
	[GEN_FAULT_MAGIC] = { "magic", "magic" },
};

const char *gen_fault_name(int kind)
{
	return kind > 0 && kind < GEN_FAULT_MAX ? fault_names[kind].json : "none";
}

int gen_inject_parse(const char *s, struct gen_inject *inj)
{
	char buf[64], *save = NULL;
	inj->nkinds = 0;
	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		int k = 0;
		for (int i = 1; i < GEN_FAULT_MAX; i++)
			if (!strcmp(item, fault_names[i].cli))
				k = i;
		if (!k)
			return -EINVAL;
		for (unsigned i = 0; i < inj->nkinds; i++)
			if (inj->kind[i] == k)
				return -EINVAL;
		inj->kind[inj->nkinds++] = (uint8_t)k;
	}
	return inj->nkinds ? 0 : -EINVAL;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

int gen_fraction_parse(const char *s, uint64_t *num, uint64_t *den)
{
	uint64_t n = 0, d = 1;
	const char *p = s;
	int digits = 0, pct = 0;
	if (!s || !*s)
		return -EINVAL;
	const char *slash = strchr(s, '/');
	if (slash) {
		char a[24];
		if ((size_t)(slash - s) >= sizeof(a))
			return -EINVAL;
		memcpy(a, s, (size_t)(slash - s));
		a[slash - s] = 0;
		if (num_u64(a, 0, 1ULL << 40, &n) || num_u64(slash + 1, 1, 1ULL << 40, &d))
			return -EINVAL;
	} else {
		/* decimal digits kept exact: "0.001" is 1/1000, not the nearest double */
		while (*p >= '0' && *p <= '9' && digits < 12) {
			n = n * 10 + (uint64_t)(*p++ - '0');
			digits++;
		}
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9' && digits < 12) {
				n = n * 10 + (uint64_t)(*p++ - '0');
				d *= 10;
				digits++;
			}
		}
		if (*p == '%') {
			pct = 1;
			p++;
		}
		if (!digits || *p)
			return -EINVAL;
		if (pct)
			d *= 100;
	}
	if (n == 0)
		return -ERANGE;
	if (n > d)
		return -ERANGE;
	uint64_t g = gcd64(n, d);
	*num = n / g;
	*den = d / g;
	return 0;
}

int gen_frames_build(struct gen_frames *fr, const struct gen_sizes *z, const struct pkt_flow *base,
		     uint8_t stream, const struct gen_pattern *pat, char *err, size_t errlen)
{
	memset(fr, 0, sizeof(*fr));
	int v6 = base->ipv == 6;
	/* tags sit between the MACs and the IP header: every offset behind them moves */
	const uint32_t tl = (uint32_t)base->vlan.n * PKT_VLAN_TAG_LEN, ipo = PKT_IP_OFF + tl;
	fr->udp_off = (v6 ? PKT_UDP6_OFF : PKT_UDP_OFF) + tl;
	fr->pl_off = (v6 ? PKT_PAYLOAD6_OFF : PKT_PAYLOAD_OFF) + tl;
	for (unsigned i = 0; i < z->n; i++) {
		uint32_t len = pkt_frame_len(z->wire[i]);
		uint8_t *t = malloc(len);
		if (!t) {
			gen_frames_free(fr);
			return -ENOMEM;
		}
		fr->tmpl[i] = t;
		fr->frame_len[i] = len;
		fr->n = i + 1;
		if (len > fr->frame_max)
			fr->frame_max = len;
		/* the signature's flags are written per frame; the template's are 0; a size
		 * the tags leave too small for one is refused there */
		int rc = v6 ? pkt6_build_template(base, len - tl, stream, 0, 0, t, err, errlen)
			    : pkt_build_template(base, len - tl, stream, 0, 0, t, err, errlen);
		if (rc) {
			gen_frames_free(fr);
			return rc;
		}
		pkt_vlan_insert(t, len - tl, &base->vlan);
		uint32_t pad = fr->pl_off + SIG_LEN;
		if (pat && len > pad) {
			gen_pattern_fill(pat, t + pad, len - pad);
			uint16_t ulen = (uint16_t)(len - fr->udp_off);
			uint16_t c = v6 ? pkt6_udp_csum(t + ipo, t + fr->udp_off, ulen)
				: csum_udp4(t + ipo + 12, t + ipo + 16, t + fr->udp_off, ulen);
			memcpy(t + fr->udp_off + 6, &c, 2);
		}
	}
	return 0;
}

void gen_frames_free(struct gen_frames *fr)
{
	for (unsigned i = 0; i < fr->n; i++)
		free(fr->tmpl[i]);
	memset(fr, 0, sizeof(*fr));
}

void gen_frame_patch(uint8_t *f, const uint8_t *tmpl, const struct gen_tuple *t,
		     const uint8_t sig[SIG_LEN], int fault)
{
	/* the template's own tags (0, 1 or 2) move every offset behind them */
	struct pkt_vlan vl;
	const uint32_t tl = pkt_vlan_read(tmpl, PKT_FRAME_MAX, &vl);
	const int v6 = pkt_rd16(tmpl + 12 + tl) == PKT_ETHERTYPE_IP6;
	const uint32_t uo = (v6 ? PKT_UDP6_OFF : PKT_UDP_OFF) + tl, po = uo + PKT_UDP_LEN;
	/* where the addresses (IPv6: their last 32 bits) are */
	const uint32_t sa = v6 ? 8 + 12 : 12, da = v6 ? 24 + 12 : 16;
	uint8_t *ip = f + PKT_IP_OFF + tl, *udp = f + uo, *pl = f + po;
	const uint8_t *tip = tmpl + PKT_IP_OFF + tl, *tudp = tmpl + uo;
	uint16_t ipc = 0, udpc;

	memcpy(f, tmpl, po);
	if (!v6)
		memcpy(&ipc, tip + 10, 2);
	memcpy(&udpc, tudp + 6, 2);
	if (t) {
		uint32_t os, od;
		uint16_t osp, odp, nsp = htons(t->sport), ndp = htons(t->dport);
		memcpy(&os, tip + sa, 4);
		memcpy(&od, tip + da, 4);
		memcpy(&osp, tudp, 2);
		memcpy(&odp, tudp + 2, 2);
		memcpy(ip + sa, &t->src_ip, 4);
		memcpy(ip + da, &t->dst_ip, 4);
		memcpy(udp, &nsp, 2);
		memcpy(udp + 2, &ndp, 2);
		/* addresses are in the IP header and in the UDP pseudo-header (RFC 768) */
		ipc = csum_replace32(csum_replace32(ipc, os, t->src_ip), od, t->dst_ip);
		udpc = csum_replace32(csum_replace32(udpc, os, t->src_ip), od, t->dst_ip);
		udpc = csum_replace16(csum_replace16(udpc, osp, nsp), odp, ndp);
	}
	memcpy(pl, sig, SIG_LEN);
	if (fault == GEN_FAULT_MAGIC) {
		pl[0] = (uint8_t)~pl[0];
		pl[1] = (uint8_t)~pl[1];
	}
	udpc = csum_udp_nonzero(csum_replace_bytes(udpc, tmpl + po, pl, SIG_LEN));
	switch (fault) {
	case GEN_FAULT_IP_CSUM:
		if (v6)
			break;     /* no header checksum to spoil (main.c refuses it) */
		/* any other value is wrong: x ^ 0x5a5a is never x, nor its one's-complement
		 * twin (0x0000 <-> 0xffff differ by 0xffff) */
		ipc ^= 0x5a5a;
		break;
	case GEN_FAULT_UDP_CSUM:
		/* the same, but never 0, which would mean "no checksum" (RFC 768) */
		udpc = udpc == 0x5a5a ? (uint16_t)(udpc ^ 0x00ff) : (uint16_t)(udpc ^ 0x5a5a);
		break;
	case GEN_FAULT_LEN: {
		/* the UDP length claims 2 bytes more than the IP datagram carries: the IP
		 * header stays valid, so a router forwards it and the sink calls it bad_len */
		uint16_t ul = (uint16_t)(((unsigned)udp[4] << 8 | udp[5]) + 2);
		udp[4] = (uint8_t)(ul >> 8);
		udp[5] = (uint8_t)ul;
		break;
	}
	default:
		break;
	}
	if (!v6)
		memcpy(ip + 10, &ipc, 2);
	memcpy(udp + 6, &udpc, 2);
}
