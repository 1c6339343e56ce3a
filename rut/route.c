/* SPDX-License-Identifier: BSD-2-Clause */
/* route.c — routing (DIR-24-8 longest-prefix match), route specs and files, and the
 * neighbour table (see route.h). Built by main.c and fwd.c before forwarding starts;
 * rt_lookup and nt_lookup are called per frame by fwd.c. */
#include "route.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "ifinfo.h"

#define RT_EXT 0x80000000u        /* tbl24 entry points to a tbl8 group */
#define RT_TBL24_LEN (1u << 24)
#define RT_TBL24_BYTES ((size_t)RT_TBL24_LEN * sizeof(uint32_t))

struct rt_route {
	uint32_t prefix;    /* host order, masked */
	uint32_t nh;        /* index into nhs */
	uint8_t len;
};

struct rt_nh {
	uint32_t gw_be;     /* 0: on-link */
	int port;
};

/* IPv6: a route as added, and the compiled table's slot (open addressing, keyed by the
 * masked prefix and its length) */
struct rt6_route {
	uint64_t hi, lo;    /* host order, masked */
	uint32_t nh;        /* index into nh6 */
	uint8_t len;
};

struct rt6_nh {
	uint8_t gw[16];
	bool on_link;
	int port;
};

struct rt {
	struct rt6_route *r6;
	size_t n6, cap6;
	struct rt6_nh *nh6;
	uint32_t nnh6, nh6cap;
	struct rt6_route *h6;    /* compiled: nh + 1 in .nh, 0 = empty slot */
	uint32_t h6mask;
	uint8_t lens6[129];      /* the prefix lengths present, longest first */
	int nlens6;
	struct rt_route *r;
	size_t n, cap;
	struct rt_nh *nhs;
	uint32_t nnh, nhcap;
	/* the compiled table: an entry is 0 (no route), nh index + 1, or RT_EXT | group */
	uint32_t *tbl24;
	uint32_t *tbl8;
	uint32_t ngroups, gcap;
};

static inline uint32_t mask_of(uint8_t len)
{
	return len ? 0xffffffffU << (32 - len) : 0;
}

struct rt *rt_new(void)
{
	return calloc(1, sizeof(struct rt));
}

static void rt_drop_table(struct rt *rt)
{
	if (rt->tbl24)
		munmap(rt->tbl24, RT_TBL24_BYTES);
	free(rt->tbl8);
	rt->tbl24 = rt->tbl8 = NULL;
	rt->ngroups = rt->gcap = 0;
}

void rt_free(struct rt *rt)
{
	if (!rt)
		return;
	rt_drop_table(rt);
	free(rt->r);
	free(rt->nhs);
	free(rt->r6);
	free(rt->nh6);
	free(rt->h6);
	free(rt);
}

/* Next hops are few (ports × gateways): a linear search is fine at add time. */
static int nh_index(struct rt *rt, uint32_t gw_be, int port, uint32_t *idx)
{
	for (uint32_t i = rt->nnh; i-- > 0;)
		if (rt->nhs[i].gw_be == gw_be && rt->nhs[i].port == port) {
			*idx = i;
			return 0;
		}
	if (rt->nnh == rt->nhcap) {
		uint32_t ncap = rt->nhcap ? rt->nhcap * 2 : 8;
		struct rt_nh *n = realloc(rt->nhs, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rt->nhs = n;
		rt->nhcap = ncap;
	}
	rt->nhs[rt->nnh] = (struct rt_nh){ .gw_be = gw_be, .port = port };
	*idx = rt->nnh++;
	return 0;
}

int rt_add(struct rt *rt, uint32_t prefix_be, uint8_t len, uint32_t gw_be, int port)
{
	uint32_t nh;
	if (len > 32 || port < 0)
		return -EINVAL;
	if (rt->n == rt->cap) {
		size_t ncap = rt->cap ? rt->cap * 2 : 64;
		struct rt_route *n = realloc(rt->r, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rt->r = n;
		rt->cap = ncap;
	}
	int rc = nh_index(rt, gw_be, port, &nh);
	if (rc)
		return rc;
	rt->r[rt->n++] = (struct rt_route){ .prefix = ntohl(prefix_be) & mask_of(len),
					    .nh = nh, .len = len };
	return 0;
}

static int new_group(struct rt *rt, uint32_t fill, uint32_t *g)
{
	if (rt->ngroups == rt->gcap) {
		uint32_t ncap = rt->gcap ? rt->gcap * 2 : 64;
		if (ncap > (RT_EXT >> 1))
			return -ENOMEM;
		uint32_t *n = realloc(rt->tbl8, (size_t)ncap * 256 * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rt->tbl8 = n;
		rt->gcap = ncap;
	}
	uint32_t *grp = rt->tbl8 + (size_t)rt->ngroups * 256;
	for (int i = 0; i < 256; i++)
		grp[i] = fill;
	*g = rt->ngroups++;
	return 0;
}

/* Stable LSD radix sort of the routes by (len, prefix): 16 bits of prefix, the other
 * 16, then the length. Stability keeps insertion order among equal keys, so the last
 * of a run of equal keys is the route that replaced the others. */
static int sort_routes(const struct rt_route *in, size_t n, struct rt_route **out)
{
	struct rt_route *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	static const unsigned shift[3] = { 0, 16, 32 };
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memcpy(a, in, n * sizeof(*a));
	for (int pass = 0; pass < 3; pass++) {
		size_t *cnt = calloc(65537, sizeof(*cnt));
		if (!cnt) {
			free(a);
			free(b);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t key = (uint64_t)a[i].len << 32 | a[i].prefix;
			cnt[((key >> shift[pass]) & 0xffff) + 1]++;
		}
		for (int d = 1; d <= 65536; d++)
			cnt[d] += cnt[d - 1];
		for (size_t i = 0; i < n; i++) {
			uint64_t key = (uint64_t)a[i].len << 32 | a[i].prefix;
			b[cnt[(key >> shift[pass]) & 0xffff]++] = a[i];
		}
		free(cnt);
		struct rt_route *t = a;
		a = b;
		b = t;
	}
	free(b);
	*out = a;
	return 0;
}

/* ---- IPv6 routes ---- */

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static inline void mask6(uint64_t *hi, uint64_t *lo, unsigned len)
{
	if (len <= 64) {
		*hi &= len ? ~0ULL << (64 - len) : 0;
		*lo = 0;
	} else {
		*lo &= ~0ULL << (128 - len);
	}
}

static inline uint32_t hash6(uint64_t hi, uint64_t lo, unsigned len)
{
	uint64_t x = hi * 0x9e3779b97f4a7c15ULL ^ (lo + len) * 0xc2b2ae3d27d4eb4fULL;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(x ^ x >> 32);
}

int rt6_add(struct rt *rt, const uint8_t prefix[16], uint8_t len, const uint8_t *gw, int port)
{
	if (len > 128 || port < 0)
		return -EINVAL;
	if (rt->n6 == rt->cap6) {
		size_t ncap = rt->cap6 ? rt->cap6 * 2 : 16;
		struct rt6_route *n = realloc(rt->r6, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rt->r6 = n;
		rt->cap6 = ncap;
	}
	static const uint8_t zero[16];
	const uint8_t *g = gw ? gw : zero;
	uint32_t nh = rt->nnh6;
	for (uint32_t i = 0; i < rt->nnh6; i++)
		if (rt->nh6[i].port == port && !memcmp(rt->nh6[i].gw, g, 16))
			nh = i;
	if (nh == rt->nnh6) {
		if (rt->nnh6 == rt->nh6cap) {
			uint32_t ncap = rt->nh6cap ? rt->nh6cap * 2 : 8;
			struct rt6_nh *n = realloc(rt->nh6, ncap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			rt->nh6 = n;
			rt->nh6cap = ncap;
		}
		struct rt6_nh *x = &rt->nh6[rt->nnh6++];
		memcpy(x->gw, g, 16);
		x->on_link = !memcmp(g, zero, 16);
		x->port = port;
	}
	struct rt6_route r = { .hi = rd64(prefix), .lo = rd64(prefix + 8), .nh = nh, .len = len };
	mask6(&r.hi, &r.lo, len);
	rt->r6[rt->n6++] = r;
	return 0;
}

/* Compiles the IPv6 routes: a later route for a prefix replaces an earlier one. */
static int rt6_build(struct rt *rt)
{
	free(rt->h6);
	rt->h6 = NULL;
	rt->nlens6 = 0;
	if (!rt->n6)
		return 0;
	size_t cap = 16;
	while (cap < rt->n6 * 2)
		cap *= 2;
	if (cap > 0xffffffffu || !(rt->h6 = calloc(cap, sizeof(*rt->h6))))
		return -ENOMEM;
	rt->h6mask = (uint32_t)(cap - 1);
	bool have[129] = { false };
	for (size_t i = 0; i < rt->n6; i++) {
		const struct rt6_route *r = &rt->r6[i];
		uint32_t h = hash6(r->hi, r->lo, r->len) & rt->h6mask;
		while (rt->h6[h].nh && !(rt->h6[h].hi == r->hi && rt->h6[h].lo == r->lo &&
					 rt->h6[h].len == r->len))
			h = (h + 1) & rt->h6mask;
		rt->h6[h] = *r;
		rt->h6[h].nh = r->nh + 1;
		have[r->len] = true;
	}
	for (int l = 128; l >= 0; l--)
		if (have[l])
			rt->lens6[rt->nlens6++] = (uint8_t)l;
	return 0;
}

int rt6_lookup(const struct rt *rt, const uint8_t dst[16], uint8_t nexthop[16])
{
	if (!rt->h6)
		return -1;
	uint64_t dhi = rd64(dst), dlo = rd64(dst + 8);
	for (int i = 0; i < rt->nlens6; i++) {
		unsigned len = rt->lens6[i];
		uint64_t hi = dhi, lo = dlo;
		mask6(&hi, &lo, len);
		uint32_t h = hash6(hi, lo, len) & rt->h6mask;
		for (const struct rt6_route *e; (e = &rt->h6[h])->nh; h = (h + 1) & rt->h6mask) {
			if (e->hi != hi || e->lo != lo || e->len != len)
				continue;
			const struct rt6_nh *nh = &rt->nh6[e->nh - 1];
			memcpy(nexthop, nh->on_link ? dst : nh->gw, 16);
			return nh->port;
		}
	}
	return -1;
}

int rt_build(struct rt *rt)
{
	struct rt_route *sorted = NULL;
	int rc;

	if ((rc = rt6_build(rt)))
		return rc;

	rt_drop_table(rt);
	/* anonymous zero pages (transparent huge pages where the kernel allows, fewer TLB
	 * misses per lookup): only the parts routes cover become resident */
	void *m = mmap(NULL, RT_TBL24_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	madvise(m, RT_TBL24_BYTES, MADV_HUGEPAGE);
	rt->tbl24 = m;
	if (!rt->n)
		return 0;
	/* shorter prefixes are written first so longer ones overwrite them; of several
	 * routes for one prefix only the last added is written */
	if ((rc = sort_routes(rt->r, rt->n, &sorted)))
		goto out;
	rc = -ENOMEM;
	for (size_t i = 0; i < rt->n; i++) {
		const struct rt_route *r = &sorted[i];
		if (i + 1 < rt->n && sorted[i + 1].len == r->len && sorted[i + 1].prefix == r->prefix)
			continue;
		uint32_t v = r->nh + 1;
		if (r->len <= 24) {
			uint32_t first = r->prefix >> 8, n = 1u << (24 - r->len);
			for (uint32_t j = 0; j < n; j++)
				rt->tbl24[first + j] = v;
			continue;
		}
		uint32_t *e = &rt->tbl24[r->prefix >> 8], g;
		if (!(*e & RT_EXT)) {
			if (new_group(rt, *e, &g))
				goto out;
			*e = RT_EXT | g;
		}
		g = *e & ~RT_EXT;
		uint32_t *grp = rt->tbl8 + (size_t)g * 256;
		uint32_t first = r->prefix & 0xff, n = 1u << (32 - r->len);
		for (uint32_t j = 0; j < n; j++)
			grp[first + j] = v;
	}
	rc = 0;
out:
	free(sorted);
	if (rc)
		rt_drop_table(rt);
	return rc;
}

int rt_lookup(const struct rt *rt, uint32_t dst_be, uint32_t *nexthop_be)
{
	uint32_t dst = ntohl(dst_be);
	uint32_t e = rt->tbl24[dst >> 8];
	if (e & RT_EXT)
		e = rt->tbl8[(size_t)(e & ~RT_EXT) * 256 + (dst & 0xff)];
	if (!e)
		return -1;
	const struct rt_nh *nh = &rt->nhs[e - 1];
	*nexthop_be = nh->gw_be ? nh->gw_be : dst_be;
	return nh->port;
}

int rt_count(const struct rt *rt)
{
	return (int)(rt->n + rt->n6);
}

/* ---- route specs ---- */

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

/* A dotted quad at s[*i..] (strict: four decimal octets 0..255). */
static int parse_quad(const char *s, size_t len, size_t *i, uint32_t *out_be)
{
	uint32_t a = 0;
	for (int o = 0; o < 4; o++) {
		if (o) {
			if (*i >= len || s[*i] != '.')
				return -EINVAL;
			(*i)++;
		}
		unsigned v = 0, digits = 0;
		while (*i < len && s[*i] >= '0' && s[*i] <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(s[*i] - '0');
			(*i)++;
			digits++;
		}
		if (!digits || v > 255)
			return -EINVAL;
		a = a << 8 | v;
	}
	*out_be = htonl(a);
	return 0;
}

static int fail(int *col, size_t at, char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(int *col, size_t at, char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;
	*col = (int)at + 1;
	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The keywords after a route's prefix, from s[i]: "via GW" (IPv4 or, six, IPv6) and
 * "dev PORT". */
static int parse_tail(const char *s, size_t len, size_t i, const struct rt_ports *ports,
		      bool six, uint32_t *gw_be, uint8_t gw6[16], int *port, bool *have_via,
		      size_t *via_at, size_t *end, int *col, char *msg, size_t msglen)
{
	for (;;) {
		while (i < len && is_sep(s[i]))
			i++;
		if (i >= len)
			break;
		size_t kw = i;
		bool via = len - i > 3 && !strncmp(s + i, "via", 3) && (s[i + 3] == ' ' || s[i + 3] == '=');
		bool dev = len - i > 3 && !strncmp(s + i, "dev", 3) && (s[i + 3] == ' ' || s[i + 3] == '=');
		if (!via && !dev)
			return fail(col, kw, msg, msglen, "expected 'via GW' or 'dev PORT'");
		i += 3;
		while (i < len && (s[i] == ' ' || s[i] == '='))
			i++;
		size_t v = i;
		while (i < len && !is_sep(s[i]))
			i++;
		if (v == i)
			return fail(col, v, msg, msglen, "expected a value after '%s'", via ? "via" : "dev");
		if (via) {
			if (six) {
				char a[INET6_ADDRSTRLEN];
				if (i - v >= sizeof(a))
					return fail(col, v, msg, msglen, "expected a gateway IPv6 address");
				memcpy(a, s + v, i - v);
				a[i - v] = 0;
				if (inet_pton(AF_INET6, a, gw6) != 1)
					return fail(col, v, msg, msglen, "expected a gateway IPv6 address");
			} else {
				size_t j = v;
				if (parse_quad(s, i, &j, gw_be) || j != i)
					return fail(col, v, msg, msglen,
						    "expected a gateway address a.b.c.d");
			}
			*have_via = true;
			*via_at = v;
		} else {
			int p = -1;
			for (int k = 0; k < ports->n; k++)
				if (strlen(ports->names[k]) == i - v && !strncmp(ports->names[k], s + v, i - v))
					p = k;
			if (p < 0) {
				char name[64];
				snprintf(name, sizeof(name), "%.*s", (int)(i - v < 40 ? i - v : 40), s + v);
				return fail(col, v, msg, msglen, "'%s' is not one of the forwarder's ports", name);
			}
			*port = p;
		}
	}
	*end = i;
	return 0;
}

int rt_parse(const char *s, size_t len, const struct rt_ports *ports, uint32_t *prefix_be,
	     uint8_t *plen, uint32_t *gw_be, int *port, int *col, char *msg, size_t msglen)
{
	size_t i = 0;
	bool have_via = false;
	size_t via_at = 0;
	*gw_be = 0;
	*port = -1;
	while (i < len && is_sep(s[i]))
		i++;
	if (len - i >= 7 && !strncmp(s + i, "default", 7) && (i + 7 == len || is_sep(s[i + 7]))) {
		*prefix_be = 0;
		*plen = 0;
		i += 7;
	} else {
		size_t at = i;
		if (parse_quad(s, len, &i, prefix_be))
			return fail(col, at, msg, msglen, "expected a prefix a.b.c.d/len or 'default'");
		*plen = 32;
		if (i < len && s[i] == '/') {
			unsigned v = 0, d = 0;
			at = ++i;
			while (i < len && s[i] >= '0' && s[i] <= '9' && d < 3) {
				v = v * 10 + (unsigned)(s[i++] - '0');
				d++;
			}
			if (!d || v > 32)
				return fail(col, at, msg, msglen, "expected a prefix length 0..32");
			*plen = (uint8_t)v;
		}
		if (i < len && !is_sep(s[i]))
			return fail(col, i, msg, msglen, "unexpected '%.1s' after the prefix", s + i);
		*prefix_be = htonl(ntohl(*prefix_be) & mask_of(*plen));
	}
	int rc = parse_tail(s, len, i, ports, false, gw_be, NULL, port, &have_via, &via_at, &i,
			    col, msg, msglen);
	if (rc)
		return rc;
	if (!have_via && *port < 0)
		return fail(col, i, msg, msglen, "expected 'via GW' or 'dev PORT' after the prefix");
	if (have_via && *port < 0) {
		/* the gateway must be on a connected subnet, as the kernel requires */
		for (int k = 0; k < ports->n; k++) {
			uint32_t m = htonl(mask_of(ports->plen[k]));
			if (ports->addr_be[k] && ((ports->addr_be[k] ^ *gw_be) & m) == 0)
				*port = k;
		}
		if (*port < 0) {
			char a[16];
			ip4_format(*gw_be, a);
			return fail(col, via_at, msg, msglen,
				    "gateway %s is not on a connected subnet of a port (add dev PORT)", a);
		}
	}
	return 0;
}

bool rt_spec_is6(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && is_sep(s[i]))
		i++;
	for (; i < len && !is_sep(s[i]) && s[i] != '/'; i++)
		if (s[i] == ':')
			return true;
	return false;
}

static bool link_local6(const uint8_t a[16])
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

int rt6_parse(const char *s, size_t len, const struct rt_ports *ports, uint8_t prefix[16],
	      uint8_t *plen, uint8_t gw[16], int *port, int *col, char *msg, size_t msglen)
{
	size_t i = 0, via_at = 0;
	bool have_via = false;
	char a[INET6_ADDRSTRLEN];
	memset(gw, 0, 16);
	*port = -1;
	while (i < len && is_sep(s[i]))
		i++;
	size_t at = i;
	while (i < len && !is_sep(s[i]) && s[i] != '/')
		i++;
	if (i - at >= sizeof(a))
		return fail(col, at, msg, msglen, "expected an IPv6 prefix ADDR/len");
	memcpy(a, s + at, i - at);
	a[i - at] = 0;
	if (inet_pton(AF_INET6, a, prefix) != 1)
		return fail(col, at, msg, msglen, "expected an IPv6 prefix ADDR/len");
	*plen = 128;
	if (i < len && s[i] == '/') {
		unsigned v = 0, d = 0;
		at = ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9' && d < 4) {
			v = v * 10 + (unsigned)(s[i++] - '0');
			d++;
		}
		if (!d || v > 128)
			return fail(col, at, msg, msglen, "expected a prefix length 0..128");
		*plen = (uint8_t)v;
	}
	if (i < len && !is_sep(s[i]))
		return fail(col, i, msg, msglen, "unexpected '%.1s' after the prefix", s + i);
	for (unsigned b = *plen; b < 128; b++)
		prefix[b / 8] &= (uint8_t)~(0x80u >> (b % 8));
	int rc = parse_tail(s, len, i, ports, true, NULL, gw, port, &have_via, &via_at, &i, col,
			    msg, msglen);
	if (rc)
		return rc;
	if (!have_via && *port < 0)
		return fail(col, i, msg, msglen, "expected 'via GW' or 'dev PORT' after the prefix");
	if (have_via && *port < 0) {
		if (link_local6(gw))
			return fail(col, via_at, msg, msglen,
				    "a link-local gateway needs dev PORT (its scope is one link)");
		for (int k = 0; k < ports->n; k++) {
			static const uint8_t zero[16];
			unsigned pl = ports->plen6[k], b = 0;
			if (!memcmp(ports->addr6[k], zero, 16))
				continue;
			while (b < pl && !((ports->addr6[k][b / 8] ^ gw[b / 8]) & (0x80u >> (b % 8))))
				b++;
			if (b == pl)
				*port = k;
		}
		if (*port < 0) {
			inet_ntop(AF_INET6, gw, a, sizeof(a));
			return fail(col, via_at, msg, msglen,
				    "gateway %s is not on a connected subnet of a port (add dev PORT)", a);
		}
	}
	return 0;
}

int rt_load_file(struct rt *rt, const char *path, const struct rt_ports *ports, int *line,
		 int *col, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int added = 0, rc = 0;
	*line = 0;
	*col = 0;
	if (!f) {
		rc = -errno;
		snprintf(msg, msglen, "%s", strerror(errno));
		return rc;
	}
	while ((n = getline(&buf, &cap, f)) >= 0) {
		(*line)++;
		size_t len = (size_t)n;
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			len--;
		char *hash = memchr(buf, '#', len);
		if (hash)
			len = (size_t)(hash - buf);
		size_t k = 0;
		while (k < len && is_sep(buf[k]))
			k++;
		if (k == len)
			continue;
		uint32_t pfx, gw;
		uint8_t pl, p6[16], g6[16];
		int port;
		if (rt_spec_is6(buf, len)) {
			if ((rc = rt6_parse(buf, len, ports, p6, &pl, g6, &port, col, msg, msglen)))
				goto out;
			rc = rt6_add(rt, p6, pl, g6, port);
		} else {
			if ((rc = rt_parse(buf, len, ports, &pfx, &pl, &gw, &port, col, msg, msglen)))
				goto out;
			rc = rt_add(rt, pfx, pl, gw, port);
		}
		if (rc) {
			snprintf(msg, msglen, "%s", strerror(-rc));
			goto out;
		}
		added++;
	}
	if (ferror(f)) {
		rc = -EIO;
		*col = 0;
		snprintf(msg, msglen, "read error");
	}
out:
	free(buf);
	fclose(f);
	return rc ? rc : added;
}

/* ---- neighbours ---- */

struct nt_entry {
	uint32_t ip;
	int port;
	int used;
	uint8_t mac[6];
};

struct nt6_entry {
	uint8_t ip[16];
	int port;
	int used;
	uint8_t mac[6];
};

struct nt {
	struct nt_entry *tab;
	uint32_t cap, n;
	struct nt6_entry *tab6;   /* IPv6, allocated with its first entry */
	uint32_t cap6, n6;
};

static inline uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

struct nt *nt_new(void)
{
	struct nt *nt = calloc(1, sizeof(*nt));
	if (!nt)
		return NULL;
	nt->cap = 64;
	nt->tab = calloc(nt->cap, sizeof(*nt->tab));
	if (!nt->tab) {
		free(nt);
		return NULL;
	}
	return nt;
}

void nt_free(struct nt *nt)
{
	if (!nt)
		return;
	free(nt->tab);
	free(nt->tab6);
	free(nt);
}

int nt_count(const struct nt *nt)
{
	return (int)(nt->n + nt->n6);
}

static inline uint32_t nt6_hash(int port, const uint8_t ip[16])
{
	return hash6(rd64(ip), rd64(ip + 8), (unsigned)port);
}

static void nt6_put(struct nt6_entry *tab, uint32_t cap, uint32_t *n, int port,
		    const uint8_t ip[16], const uint8_t mac[6])
{
	uint32_t h = nt6_hash(port, ip) & (cap - 1);
	while (tab[h].used && !(tab[h].port == port && !memcmp(tab[h].ip, ip, 16)))
		h = (h + 1) & (cap - 1);
	if (!tab[h].used)
		(*n)++;
	tab[h].used = 1;
	tab[h].port = port;
	memcpy(tab[h].ip, ip, 16);
	memcpy(tab[h].mac, mac, 6);
}

int nt6_add(struct nt *nt, int port, const uint8_t ip[16], const uint8_t mac[6])
{
	if ((nt->n6 + 1) * 2 > nt->cap6) {
		uint32_t ncap = nt->cap6 ? nt->cap6 * 2 : 64, n = 0;
		struct nt6_entry *t = calloc(ncap, sizeof(*t));
		if (!t)
			return -ENOMEM;
		for (uint32_t i = 0; i < nt->cap6; i++)
			if (nt->tab6[i].used)
				nt6_put(t, ncap, &n, nt->tab6[i].port, nt->tab6[i].ip, nt->tab6[i].mac);
		free(nt->tab6);
		nt->tab6 = t;
		nt->cap6 = ncap;
		nt->n6 = n;
	}
	nt6_put(nt->tab6, nt->cap6, &nt->n6, port, ip, mac);
	return 0;
}

const uint8_t *nt6_lookup(const struct nt *nt, int port, const uint8_t ip[16])
{
	if (!nt->cap6)
		return NULL;
	uint32_t h = nt6_hash(port, ip) & (nt->cap6 - 1);
	for (; nt->tab6[h].used; h = (h + 1) & (nt->cap6 - 1))
		if (nt->tab6[h].port == port && !memcmp(nt->tab6[h].ip, ip, 16))
			return nt->tab6[h].mac;
	return NULL;
}

/* One RTM_GETNEIGH dump's messages: the IPv6 neighbours of ifindex with a MAC. */
static int nt6_msgs(struct nt *nt, int port, int ifindex, uint8_t *buf, size_t n,
		    int *added, bool *done)
{
	/* not const: the netlink macros cast it away (clang's -Wcast-qual) */
	for (struct nlmsghdr *h = (void *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type == NLMSG_DONE) {
			*done = true;
			return 0;
		}
		if (h->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(h);
			return e->error ? e->error : -EIO;
		}
		if (h->nlmsg_type != RTM_NEWNEIGH)
			continue;
		struct ndmsg *nd = NLMSG_DATA(h);
		if (nd->ndm_family != AF_INET6 || nd->ndm_ifindex != ifindex ||
		    (nd->ndm_state & (NUD_INCOMPLETE | NUD_FAILED | NUD_NONE)))
			continue;
		const uint8_t *ip = NULL, *mac = NULL;
		int alen = (int)RTM_PAYLOAD(h);
		for (struct rtattr *a = (void *)((uint8_t *)nd + NLMSG_ALIGN(sizeof(*nd)));
		     RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
			if (a->rta_type == NDA_DST && RTA_PAYLOAD(a) == 16)
				ip = RTA_DATA(a);
			else if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6)
				mac = RTA_DATA(a);
		}
		if (ip && mac && nt6_add(nt, port, ip, mac) == 0)
			(*added)++;
	}
	return 0;
}

int nt6_load_system(struct nt *nt, int port, int ifindex)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	struct {
		struct nlmsghdr h;
		struct ndmsg nd;
	} req = { .h = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETNEIGH,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1 },
		  .nd = { .ndm_family = AF_INET6 } };
	int added = 0, rc = 0;
	bool done = false;
	const size_t blen = 32768;
	uint8_t *buf = malloc(blen);
	if (!buf)
		rc = -ENOMEM;
	else if (send(fd, &req, sizeof(req), 0) < 0)
		rc = -errno;
	while (!rc && !done) {
		ssize_t r = recv(fd, buf, blen, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? -errno : -EIO;
			break;
		}
		rc = nt6_msgs(nt, port, ifindex, buf, (size_t)r, &added, &done);
	}
	free(buf);
	close(fd);
	return rc ? rc : added;
}

static inline uint32_t nt_hash(int port, uint32_t ip)
{
	return hash32(ip ^ ((uint32_t)port * 0x9e3779b9U));
}

int nt_add(struct nt *nt, int port, uint32_t ip_be, const uint8_t mac[6])
{
	if ((nt->n + 1) * 2 > nt->cap) {
		struct nt_entry *old = nt->tab;
		uint32_t ocap = nt->cap;
		nt->cap *= 2;
		nt->tab = calloc(nt->cap, sizeof(*nt->tab));
		if (!nt->tab) {
			nt->tab = old;
			nt->cap = ocap;
			return -ENOMEM;
		}
		nt->n = 0;
		for (uint32_t i = 0; i < ocap; i++)
			if (old[i].used)
				nt_add(nt, old[i].port, old[i].ip, old[i].mac);
		free(old);
	}
	uint32_t h = nt_hash(port, ip_be) & (nt->cap - 1);
	while (nt->tab[h].used && !(nt->tab[h].ip == ip_be && nt->tab[h].port == port))
		h = (h + 1) & (nt->cap - 1);
	if (!nt->tab[h].used)
		nt->n++;
	nt->tab[h].used = 1;
	nt->tab[h].ip = ip_be;
	nt->tab[h].port = port;
	memcpy(nt->tab[h].mac, mac, 6);
	return 0;
}

const uint8_t *nt_lookup(const struct nt *nt, int port, uint32_t ip_be)
{
	uint32_t h = nt_hash(port, ip_be) & (nt->cap - 1);
	while (nt->tab[h].used) {
		if (nt->tab[h].ip == ip_be && nt->tab[h].port == port)
			return nt->tab[h].mac;
		h = (h + 1) & (nt->cap - 1);
	}
	return NULL;
}

int nt_load_system(struct nt *nt, int port, const char *ifname)
{
	FILE *f = fopen("/proc/net/arp", "r");
	char line[256], ip[64], hw[64], dev[64];
	unsigned type, flags;
	int added = 0;
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		uint32_t a;
		uint8_t mac[6];
		if (sscanf(line, "%63s 0x%x 0x%x %63s %*s %63s", ip, &type, &flags, hw, dev) != 5)
			continue;
		/* ATF_COM (0x2): complete; permanent entries are complete too */
		if (strcmp(dev, ifname) || !(flags & 0x2) || ip4_parse(ip, &a) || mac_parse(hw, mac))
			continue;
		if (nt_add(nt, port, a, mac) == 0)
			added++;
	}
	fclose(f);
	return added;
}

int nt_parse(const char *s, const struct rt_ports *ports, int *af, uint32_t *ip_be,
	     uint8_t ip6[16], uint8_t mac[6], int *port, char *msg, size_t msglen)
{
	char ip[INET6_ADDRSTRLEN], m[32];
	const char *eq = strchr(s, '='), *at = eq ? strchr(eq, '@') : NULL;
	if (!eq || !at || (size_t)(eq - s) >= sizeof(ip) || (size_t)(at - eq - 1) >= sizeof(m)) {
		snprintf(msg, msglen, "expected IP=MAC@PORT, e.g. 198.19.0.2=02:70:70:01:00:02@rut1");
		return -EINVAL;
	}
	snprintf(ip, sizeof(ip), "%.*s", (int)(eq - s), s);
	snprintf(m, sizeof(m), "%.*s", (int)(at - eq - 1), eq + 1);
	*af = strchr(ip, ':') ? AF_INET6 : AF_INET;
	if (*af == AF_INET6 ? inet_pton(AF_INET6, ip, ip6) != 1 : ip4_parse(ip, ip_be) != 0) {
		snprintf(msg, msglen, "'%s' is not an %s address", ip,
			 *af == AF_INET6 ? "IPv6" : "IPv4");
		return -EINVAL;
	}
	if (mac_parse(m, mac)) {
		snprintf(msg, msglen, "'%s' is not a MAC address (xx:xx:xx:xx:xx:xx)", m);
		return -EINVAL;
	}
	*port = -1;
	for (int k = 0; k < ports->n; k++)
		if (!strcmp(ports->names[k], at + 1))
			*port = k;
	if (*port < 0) {
		snprintf(msg, msglen, "'%s' is not one of the forwarder's ports", at + 1);
		return -EINVAL;
	}
	return 0;
}
