/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_lpm.c — ipfw's lookup tables (`table(NAME)`, `ipfw table NAME add ...`) for IPv4
 * and IPv6 address keys (IPv6 at the end of the file): longest-prefix match, as FreeBSD's addr:radix algorithm answers it
 * (ip_fw_table_algo.c), by a different structure: one open-addressing hash per prefix
 * length, keyed by the masked address, and a bitmask of the lengths in use. A lookup
 * probes the lengths in use from the longest down, so a table of host addresses costs
 * one probe and a table of /24s and /32s two at most; an insert is O(1), so a million
 * entries load in a fraction of a second. Called by the rule compiler (tables are
 * created when a rule names them), the `ipfw table` commands (fw_cmd.c) and the
 * evaluator (read-only).
 *
 * Tables are read-mostly: every change happens on the thread that runs commands, while
 * every forwarding thread looks up without a lock. An insert into a free slot writes
 * key and value and then marks the slot used (release); growing a length's hash, or
 * deleting from it (which moves entries), builds a new array and publishes it with one
 * pointer store, the old one freed after a grace period (fw_retire). */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "fw_impl.h"
#include "fw_lpm.h"

static uint32_t plen_mask_h(int plen)
{
	return plen ? 0xffffffffu << (32 - plen) : 0;
}

static inline uint32_t slot_of(uint32_t key, uint32_t cap)
{
	return (key * 0x9e3779b1u) >> (32 - __builtin_ctz(cap)) & (cap - 1);
}

bool fw_table_name_ok(const char *name)
{
	/* ipfw2.c ipfw_check_object_name(): [a-zA-Z0-9-_.]{1,63}; table_check_name(): not
	 * "all" */
	size_t l = strlen(name);
	if (!l || l >= FW_NAMELEN || !strcmp(name, "all"))
		return false;
	for (size_t k = 0; k < l; k++) {
		char ch = name[k];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '-' || ch == '_' || ch == '.'))
			return false;
	}
	return true;
}

int fw_table_find(const struct fw *fw, const char *name)
{
	for (int i = 0; i < FW_MAX_TABLES; i++) {
		const struct fw_table *t = fw_table_at(fw, i);
		if (t && !strcmp(t->name, name))
			return i;
	}
	return -1;
}

int fw_table_create(struct fw *fw, const char *name)
{
	for (int i = 0; i < FW_MAX_TABLES; i++) {
		if (fw_table_at(fw, i))
			continue;
		struct fw_table *t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		snprintf(t->name, sizeof(t->name), "%s", name);
		atomic_store_explicit(&fw->tables[i], t, memory_order_release);
		return i;
	}
	return -ENOSPC;
}

static void arr_free(void *arg)
{
	struct fw_lpm_arr *a = arg;
	if (!a)
		return;
	free(a->key);
	free(a->val);
	free((void *)(uintptr_t)a->used);   /* free() takes no _Atomic pointer */
	free(a);
}

static struct fw_lpm_arr *arr_new(uint32_t cap)
{
	struct fw_lpm_arr *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->cap = cap;
	a->key = malloc(cap * sizeof(*a->key));
	a->val = malloc(cap * sizeof(*a->val));
	a->used = calloc(cap, sizeof(*a->used));
	if (!a->key || !a->val || !a->used) {
		arr_free(a);
		return NULL;
	}
	return a;
}

static inline struct fw_lpm_arr *arr_of(const struct fw_lpm_len *l)
{
	return atomic_load_explicit(&l->a, memory_order_acquire);
}

static inline bool used_at(const struct fw_lpm_arr *a, uint32_t i)
{
	return atomic_load_explicit(&a->used[i], memory_order_acquire);
}

/* A new array in place of l's (published with one store); the old one is freed when
 * no reader can hold it any more. */
static void arr_publish(struct fw *fw, struct fw_lpm_len *l, struct fw_lpm_arr *a)
{
	struct fw_lpm_arr *old = atomic_exchange_explicit(&l->a, a, memory_order_acq_rel);
	if (old)
		fw_retire(fw, arr_free, old);
}

static void six_publish(struct fw *fw, struct fw_table *t, struct fw_lpm6 *n)
{
	struct fw_lpm6 *old = atomic_exchange_explicit(&t->six, n, memory_order_acq_rel);
	if (old)
		fw_retire(fw, free, old);
}

void fw_table_flush(struct fw *fw, struct fw_table *t)
{
	six_publish(fw, t, NULL);
	atomic_store_explicit(&t->lens, 0, memory_order_release);
	for (int k = 0; k <= 32; k++) {
		arr_publish(fw, &t->len[k], NULL);
		t->len[k].n = 0;
	}
	t->count = 0;
	atomic_store_explicit(&t->ifmask, 0, memory_order_release);
}

static void table_free(void *arg)
{
	struct fw_table *t = arg;
	for (int k = 0; k <= 32; k++)
		arr_free(atomic_load_explicit(&t->len[k].a, memory_order_relaxed));
	free(t->ifkey);
	free(t->ifkval);
	free(atomic_load_explicit(&t->six, memory_order_relaxed));
	free(t);
}

void fw_table_destroy(struct fw *fw, int idx)
{
	struct fw_table *t = atomic_exchange_explicit(&fw->tables[idx], NULL, memory_order_acq_rel);
	if (t)
		fw_retire(fw, table_free, t);
}

/* slot holding key, or the free slot where it would go */
static uint32_t probe(const struct fw_lpm_arr *a, uint32_t key, bool *found)
{
	uint32_t i = slot_of(key, a->cap);
	while (used_at(a, i) && a->key[i] != key)
		i = (i + 1) & (a->cap - 1);
	*found = used_at(a, i);
	return i;
}

/* a copy of a (NULL: empty) with room for want entries at half load */
static struct fw_lpm_arr *arr_copy(const struct fw_lpm_arr *a, uint32_t want)
{
	uint32_t cap = a ? a->cap : 16;
	while (want * 2 > cap)
		cap *= 2;
	struct fw_lpm_arr *n = arr_new(cap);
	if (!n || !a)
		return n;
	for (uint32_t i = 0; i < a->cap; i++) {
		if (!used_at(a, i))
			continue;
		bool f;
		uint32_t j = probe(n, a->key[i], &f);
		n->key[j] = a->key[i];
		n->val[j] = a->val[i];
		atomic_store_explicit(&n->used[j], 1, memory_order_relaxed);
	}
	return n;
}

int fw_table_add(struct fw *fw, struct fw_table *t, uint32_t addr_be, int plen, uint32_t val)
{
	return fw_table_put(fw, t, addr_be, plen, val, false);
}

int fw_table_put(struct fw *fw, struct fw_table *t, uint32_t addr_be, int plen, uint32_t val,
		 bool update)
{
	struct fw_lpm_len *l = &t->len[plen];
	uint32_t key = ntohl(addr_be) & plen_mask_h(plen);
	struct fw_lpm_arr *a = arr_of(l);
	bool found;
	if (a) {
		uint32_t i = probe(a, key, &found);
		if (found && !update)
			return -EEXIST;
		if (found) {
			/* the radix algorithm's add "updates value if we're asked to"
			 * (TEI_FLAGS_UPDATE): one 32-bit store, a reader sees the old value
			 * or the new one */
			__atomic_store_n(&a->val[i], val, __ATOMIC_RELAXED);
			return 1;
		}
	}
	if (!a || (l->n + 1) * 2 > a->cap) {
		/* grown into a new array: readers go on in the old one meanwhile */
		struct fw_lpm_arr *n = arr_copy(a, l->n + 1);
		if (!n)
			return -ENOMEM;
		arr_publish(fw, l, n);
		a = n;
	}
	uint32_t i = probe(a, key, &found);
	a->key[i] = key;
	a->val[i] = val;
	atomic_store_explicit(&a->used[i], 1, memory_order_release);
	l->n++;
	t->count++;
	atomic_fetch_or_explicit(&t->lens, 1ull << plen, memory_order_release);
	return 0;
}

int fw_table_del(struct fw *fw, struct fw_table *t, uint32_t addr_be, int plen)
{
	struct fw_lpm_len *l = &t->len[plen];
	uint32_t key = ntohl(addr_be) & plen_mask_h(plen);
	struct fw_lpm_arr *a = arr_of(l);
	if (!a)
		return -ENOENT;
	bool found;
	probe(a, key, &found);
	if (!found)
		return -ENOENT;
	if (l->n == 1) {
		atomic_fetch_and_explicit(&t->lens, ~(1ull << plen), memory_order_release);
		arr_publish(fw, l, NULL);
		l->n = 0;
		t->count--;
		return 0;
	}
	/* backward-shift deletion (no tombstones, lookups stay short) moves entries, which
	 * a reader walking the array could miss: it happens on a copy */
	struct fw_lpm_arr *c = arr_copy(a, l->n);
	if (!c)
		return -ENOMEM;
	uint32_t i = probe(c, key, &found);
	atomic_store_explicit(&c->used[i], 0, memory_order_relaxed);
	for (uint32_t j = (i + 1) & (c->cap - 1); used_at(c, j); j = (j + 1) & (c->cap - 1)) {
		uint32_t home = slot_of(c->key[j], c->cap);
		/* the entry at j may move to the hole at i when i lies cyclically in home..j */
		if (((j - home) & (c->cap - 1)) >= ((j - i) & (c->cap - 1))) {
			c->key[i] = c->key[j];
			c->val[i] = c->val[j];
			atomic_store_explicit(&c->used[i], 1, memory_order_relaxed);
			atomic_store_explicit(&c->used[j], 0, memory_order_relaxed);
			i = j;
		}
	}
	arr_publish(fw, l, c);
	l->n--;
	t->count--;
	return 0;
}

bool fw_table_lookup_len(const struct fw_table *t, uint32_t addr_be, int plen, uint32_t *val)
{
	const struct fw_lpm_arr *a = arr_of(&t->len[plen]);
	if (!a)
		return false;
	uint32_t key = ntohl(addr_be) & plen_mask_h(plen);
	for (uint32_t i = slot_of(key, a->cap); used_at(a, i); i = (i + 1) & (a->cap - 1))
		if (a->key[i] == key) {
			*val = a->val[i];
			return true;
		}
	return false;
}

bool fw_table_lookup(const struct fw_table *t, uint32_t addr_be, uint32_t *val)
{
	for (uint64_t m = atomic_load_explicit(&t->lens, memory_order_acquire); m;) {
		int plen = 63 - __builtin_clzll(m);
		m &= ~(1ull << plen);
		if (fw_table_lookup_len(t, addr_be, plen, val))
			return true;
	}
	return false;
}

static int cmp_entry(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] > y[1] ? -1 : x[1] < y[1];   /* more specific first, as the radix chain */
}

uint32_t *fw_table_entries(const struct fw_table *t, uint32_t *n)
{
	*n = 0;
	if (!t->count)
		return NULL;
	uint32_t *e = malloc((size_t)t->count * 3 * sizeof(*e)), k = 0;
	if (!e)
		return NULL;
	for (int plen = 0; plen <= 32; plen++) {
		const struct fw_lpm_arr *a = arr_of(&t->len[plen]);
		for (uint32_t i = 0; a && i < a->cap && k < t->count; i++)
			if (used_at(a, i)) {
				e[3 * k] = a->key[i];
				e[3 * k + 1] = (uint32_t)plen;
				e[3 * k + 2] = a->val[i];
				k++;
			}
	}
	qsort(e, k, 3 * sizeof(*e), cmp_entry);
	*n = k;
	return e;
}

/* ---- interface tables (FreeBSD's `type iface`, algorithm iface:array) ---- */

/* index of name, or where it would go (sorted by name, as iface:array lists them) */
static uint32_t if_pos(const struct fw_table *t, const char *name, bool *found)
{
	uint32_t lo = 0, hi = t->count;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = strcmp(t->ifkey[mid], name);
		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* the ports named so take the entry's presence and value */
static void if_ports(struct fw *fw, struct fw_table *t, const char *name, bool present,
		     uint32_t val)
{
	for (int k = 0; k < fw->nifs; k++) {
		if (strcmp(fw->ifname[k], name))
			continue;
		if (present) {
			atomic_store_explicit(&t->ifval[k], val, memory_order_relaxed);
			atomic_fetch_or_explicit(&t->ifmask, 1ull << k, memory_order_release);
		} else {
			atomic_fetch_and_explicit(&t->ifmask, ~(1ull << k), memory_order_release);
		}
	}
}

int fw_iftable_put(struct fw *fw, struct fw_table *t, const char *name, uint32_t val, bool update)
{
	bool found;
	uint32_t i = if_pos(t, name, &found);
	if (found) {
		if (!update)
			return -EEXIST;
		t->ifkval[i] = val;
		if_ports(fw, t, name, true, val);
		return 1;
	}
	if (t->count == t->ifcap) {
		uint32_t cap = t->ifcap ? 2 * t->ifcap : 8;
		char(*k)[FW_IFNAMSIZ] = realloc(t->ifkey, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		t->ifkey = k;
		uint32_t *v = realloc(t->ifkval, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->ifkval = v;
		t->ifcap = cap;
	}
	memmove(&t->ifkey[i + 1], &t->ifkey[i], (t->count - i) * sizeof(*t->ifkey));
	memmove(&t->ifkval[i + 1], &t->ifkval[i], (t->count - i) * sizeof(*t->ifkval));
	snprintf(t->ifkey[i], FW_IFNAMSIZ, "%s", name);
	t->ifkval[i] = val;
	t->count++;
	if_ports(fw, t, name, true, val);
	return 0;
}

int fw_iftable_del(struct fw *fw, struct fw_table *t, const char *name)
{
	bool found;
	uint32_t i = if_pos(t, name, &found);
	if (!found)
		return -ENOENT;
	if_ports(fw, t, name, false, 0);
	t->count--;
	memmove(&t->ifkey[i], &t->ifkey[i + 1], (t->count - i) * sizeof(*t->ifkey));
	memmove(&t->ifkval[i], &t->ifkval[i + 1], (t->count - i) * sizeof(*t->ifkval));
	return 0;
}

bool fw_iftable_lookup(const struct fw_table *t, const char *name, uint32_t *val)
{
	bool found;
	uint32_t i = if_pos(t, name, &found);
	if (found)
		*val = t->ifkval[i];
	return found;
}

/* ---- IPv6 keys ---- */

void fw_mask6(const uint8_t *a, int plen, uint8_t *out)
{
	for (int b = 0; b < 16; b++) {
		int k = plen - 8 * b;
		out[b] = a[b] & (k >= 8 ? 0xff : k <= 0 ? 0 : (uint8_t)(0xff << (8 - k)));
	}
}

/* the array's order: longer prefixes first, then by address */
static int cmp6(const struct fw_lpm6_ent *x, int plen, const uint8_t *a)
{
	if ((int)x->plen != plen)
		return (int)x->plen > plen ? -1 : 1;
	return memcmp(x->addr, a, 16);
}

/* index of (a, plen) in s, or where it would go */
static uint32_t pos6(const struct fw_lpm6 *s, const uint8_t *a, int plen, bool *found)
{
	uint32_t lo = 0, hi = s ? s->n : 0;
	*found = false;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = cmp6(&s->e[mid], plen, a);
		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a new array of n entries: a copy of s (n == s->n), s with entry at left out (n <
 * s->n), or with ins put at index at (n > s->n); the length index rebuilt */
static struct fw_lpm6 *six_build(const struct fw_lpm6 *s, uint32_t n, uint32_t at,
				 const struct fw_lpm6_ent *ins)
{
	struct fw_lpm6 *r = calloc(1, sizeof(*r) + (size_t)n * sizeof(r->e[0]));
	uint32_t old = s ? s->n : 0;
	if (!r)
		return NULL;
	r->n = n;
	if (n == old) {
		memcpy(r->e, s->e, n * sizeof(r->e[0]));
	} else if (n > old) {
		if (at)
			memcpy(r->e, s->e, at * sizeof(r->e[0]));
		r->e[at] = *ins;
		if (old > at)
			memcpy(r->e + at + 1, s->e + at, (old - at) * sizeof(r->e[0]));
	} else {
		if (at)
			memcpy(r->e, s->e, at * sizeof(r->e[0]));
		if (old > at + 1)
			memcpy(r->e + at, s->e + at + 1, (old - at - 1) * sizeof(r->e[0]));
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l = r->e[i].plen;
		if (!r->cnt[l]++) {
			r->start[l] = i;
			r->lens[r->nlens++] = (uint8_t)l;
		}
	}
	return r;
}

int fw_table_put6(struct fw *fw, struct fw_table *t, const uint8_t *a, int plen, uint32_t val,
		  bool update)
{
	struct fw_lpm6_ent x = { .val = val, .plen = (uint32_t)plen };
	const struct fw_lpm6 *s = atomic_load_explicit(&t->six, memory_order_relaxed);
	bool found;
	fw_mask6(a, plen, x.addr);
	uint32_t at = pos6(s, x.addr, plen, &found);
	if (found && !update)
		return -EEXIST;
	struct fw_lpm6 *r;
	if (found) {
		/* a copy with the new value: readers never see an entry change */
		r = six_build(s, s->n, 0, NULL);
		if (r)
			r->e[at].val = val;
	} else {
		r = six_build(s, (s ? s->n : 0) + 1, at, &x);
	}
	if (!r)
		return -ENOMEM;
	six_publish(fw, t, r);
	return found ? 1 : 0;
}

int fw_table_del6(struct fw *fw, struct fw_table *t, const uint8_t *a, int plen)
{
	uint8_t k[16];
	const struct fw_lpm6 *s = atomic_load_explicit(&t->six, memory_order_relaxed);
	bool found;
	fw_mask6(a, plen, k);
	uint32_t at = pos6(s, k, plen, &found);
	if (!found)
		return -ENOENT;
	if (s->n == 1) {
		six_publish(fw, t, NULL);
		return 0;
	}
	struct fw_lpm6 *r = six_build(s, s->n - 1, at, NULL);
	if (!r)
		return -ENOMEM;
	six_publish(fw, t, r);
	return 0;
}

bool fw_table_lookup6(const struct fw_table *t, const uint8_t *a, uint32_t *val,
		      const struct fw_lpm6_ent **e)
{
	const struct fw_lpm6 *s = atomic_load_explicit(&t->six, memory_order_acquire);
	for (uint32_t k = 0; s && k < s->nlens; k++) {
		int l = s->lens[k];
		uint8_t m[16];
		fw_mask6(a, l, m);
		uint32_t lo = s->start[l], hi = lo + s->cnt[l];
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			int c = memcmp(s->e[mid].addr, m, 16);
			if (!c) {
				*val = s->e[mid].val;
				if (e)
					*e = &s->e[mid];
				return true;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return false;
}

static int cmp_entry6(const void *a, const void *b)
{
	const struct fw_lpm6_ent *x = a, *y = b;
	int c = memcmp(x->addr, y->addr, 16);
	if (c)
		return c;
	return x->plen > y->plen ? -1 : x->plen < y->plen;   /* more specific first */
}

struct fw_lpm6_ent *fw_table_entries6(const struct fw_table *t, uint32_t *n)
{
	const struct fw_lpm6 *s = atomic_load_explicit(&t->six, memory_order_acquire);
	*n = 0;
	if (!s || !s->n)
		return NULL;
	struct fw_lpm6_ent *e = malloc(s->n * sizeof(*e));
	if (!e)
		return NULL;
	memcpy(e, s->e, s->n * sizeof(*e));
	qsort(e, s->n, sizeof(*e), cmp_entry6);
	*n = s->n;
	return e;
}
