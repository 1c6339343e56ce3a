/* route.c — routing (longest-prefix match) and neighbour tables (see route.h).
 *
 * Routes: one open-addressing hash per prefix length holding masked prefixes; a lookup
 * probes the lengths present, longest first (at most 33 probes; in practice a few).
 * Neighbours: one open-addressing hash keyed by (port, address). */
#include "route.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ifinfo.h"

struct rt_entry {
	uint32_t prefix;    /* host order, masked */
	uint32_t gw;        /* network order */
	int port;
	int used;
};

struct rt_len {
	struct rt_entry *tab;
	uint32_t cap, n;    /* cap is a power of two */
};

struct rt {
	struct rt_len len[33];
	uint8_t present[33];   /* prefix lengths in use, longest first */
	int npresent;
	int count;
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

static inline uint32_t mask_of(uint8_t len)
{
	return len ? 0xffffffffU << (32 - len) : 0;
}

struct rt *rt_new(void)
{
	return calloc(1, sizeof(struct rt));
}

void rt_free(struct rt *rt)
{
	if (!rt)
		return;
	for (int i = 0; i <= 32; i++)
		free(rt->len[i].tab);
	free(rt);
}

static int rt_grow(struct rt_len *l)
{
	uint32_t ncap = l->cap ? l->cap * 2 : 16;
	struct rt_entry *nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (uint32_t i = 0; i < l->cap; i++) {
		if (!l->tab[i].used)
			continue;
		uint32_t h = hash32(l->tab[i].prefix) & (ncap - 1);
		while (nt[h].used)
			h = (h + 1) & (ncap - 1);
		nt[h] = l->tab[i];
	}
	free(l->tab);
	l->tab = nt;
	l->cap = ncap;
	return 0;
}

int rt_add(struct rt *rt, uint32_t prefix_be, uint8_t len, uint32_t gw_be, int port)
{
	if (len > 32 || port < 0)
		return -EINVAL;
	struct rt_len *l = &rt->len[len];
	if ((l->n + 1) * 2 > l->cap && rt_grow(l))
		return -ENOMEM;
	uint32_t pfx = ntohl(prefix_be) & mask_of(len);
	uint32_t h = hash32(pfx) & (l->cap - 1);
	while (l->tab[h].used && l->tab[h].prefix != pfx)
		h = (h + 1) & (l->cap - 1);
	if (!l->tab[h].used) {
		l->n++;
		rt->count++;
	}
	l->tab[h] = (struct rt_entry){ .prefix = pfx, .gw = gw_be, .port = port, .used = 1 };
	/* keep the list of present lengths, longest first */
	int have = 0;
	for (int i = 0; i < rt->npresent; i++)
		have |= rt->present[i] == len;
	if (!have) {
		int i = rt->npresent++;
		while (i > 0 && rt->present[i - 1] < len) {
			rt->present[i] = rt->present[i - 1];
			i--;
		}
		rt->present[i] = len;
	}
	return 0;
}

int rt_lookup(const struct rt *rt, uint32_t dst_be, uint32_t *nexthop_be)
{
	uint32_t dst = ntohl(dst_be);
	for (int i = 0; i < rt->npresent; i++) {
		uint8_t len = rt->present[i];
		const struct rt_len *l = &rt->len[len];
		uint32_t pfx = dst & mask_of(len);
		uint32_t h = hash32(pfx) & (l->cap - 1);
		while (l->tab[h].used) {
			if (l->tab[h].prefix == pfx) {
				*nexthop_be = l->tab[h].gw ? l->tab[h].gw : dst_be;
				return l->tab[h].port;
			}
			h = (h + 1) & (l->cap - 1);
		}
	}
	return -1;
}

int rt_count(const struct rt *rt)
{
	return rt->count;
}

struct nt_entry {
	uint32_t ip;
	int port;
	int used;
	uint8_t mac[6];
};

struct nt {
	struct nt_entry *tab;
	uint32_t cap, n;
};

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
	free(nt);
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
		if (strcmp(dev, ifname) || !(flags & 0x2) || ip4_parse(ip, &a) || mac_parse(hw, mac))
			continue;
		if (nt_add(nt, port, a, mac) == 0)
			added++;
	}
	fclose(f);
	return added;
}
