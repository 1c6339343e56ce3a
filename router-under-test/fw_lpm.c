/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_lpm.c — ipfw's lookup tables (`table(NAME)`, `ipfw table NAME add ...`) for IPv4
 * address keys: longest-prefix match, as FreeBSD's addr:radix algorithm answers it
 * (ip_fw_table_algo.c), by a different structure: one open-addressing hash per prefix
 * length, keyed by the masked address, and a bitmask of the lengths in use. A lookup
 * probes the lengths in use from the longest down, so a table of host addresses costs
 * one probe and a table of /24s and /32s two at most; an insert is O(1), so a million
 * entries load in a fraction of a second. Called by the rule compiler (tables are
 * created when a rule names them), the `ipfw table` commands (fw_cmd.c) and the
 * evaluator (read-only).
 *
 * Tables are read-mostly: every change happens where commands run (the forwarding
 * thread today). A later multi-threaded forwarder keeps lookups lock-free by growing
 * a length's hash into a new array and publishing it with one pointer store (the old
 * one freed after a grace period); in-place inserts into free slots are already safe
 * for a concurrent reader that tolerates not seeing the new entry yet. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "fw_impl.h"

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
	for (int i = 0; i < FW_MAX_TABLES; i++)
		if (fw->tables[i] && !strcmp(fw->tables[i]->name, name))
			return i;
	return -1;
}

int fw_table_create(struct fw *fw, const char *name)
{
	for (int i = 0; i < FW_MAX_TABLES; i++) {
		if (fw->tables[i])
			continue;
		struct fw_table *t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		snprintf(t->name, sizeof(t->name), "%s", name);
		fw->tables[i] = t;
		return i;
	}
	return -ENOSPC;
}

static void len_free(struct fw_lpm_len *l)
{
	free(l->key);
	free(l->val);
	free(l->used);
	memset(l, 0, sizeof(*l));
}

void fw_table_flush(struct fw_table *t)
{
	for (int k = 0; k <= 32; k++)
		len_free(&t->len[k]);
	t->lens = 0;
	t->count = 0;
}

void fw_table_destroy(struct fw *fw, int idx)
{
	if (!fw->tables[idx])
		return;
	fw_table_flush(fw->tables[idx]);
	free(fw->tables[idx]);
	fw->tables[idx] = NULL;
}

/* slot holding key, or the free slot where it would go */
static uint32_t probe(const struct fw_lpm_len *l, uint32_t key, bool *found)
{
	uint32_t i = slot_of(key, l->cap);
	while (l->used[i] && l->key[i] != key)
		i = (i + 1) & (l->cap - 1);
	*found = l->used[i];
	return i;
}

static int grow(struct fw_lpm_len *l)
{
	uint32_t cap = l->cap ? l->cap * 2 : 16;
	struct fw_lpm_len n = { .cap = cap };
	n.key = malloc(cap * sizeof(*n.key));
	n.val = malloc(cap * sizeof(*n.val));
	n.used = calloc(cap, 1);
	if (!n.key || !n.val || !n.used) {
		free(n.key);
		free(n.val);
		free(n.used);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < l->cap; i++) {
		if (!l->used[i])
			continue;
		bool f;
		uint32_t j = probe(&n, l->key[i], &f);
		n.key[j] = l->key[i];
		n.val[j] = l->val[i];
		n.used[j] = 1;
	}
	n.n = l->n;
	len_free(l);
	*l = n;
	return 0;
}

int fw_table_add(struct fw_table *t, uint32_t addr_be, int plen, uint32_t val)
{
	struct fw_lpm_len *l = &t->len[plen];
	uint32_t key = ntohl(addr_be) & plen_mask_h(plen);
	if ((l->n + 1) * 2 > l->cap && grow(l))
		return -ENOMEM;
	bool found;
	uint32_t i = probe(l, key, &found);
	if (found)
		return -EEXIST;
	l->key[i] = key;
	l->val[i] = val;
	l->used[i] = 1;
	l->n++;
	t->count++;
	t->lens |= 1ull << plen;
	return 0;
}

int fw_table_del(struct fw_table *t, uint32_t addr_be, int plen)
{
	struct fw_lpm_len *l = &t->len[plen];
	uint32_t key = ntohl(addr_be) & plen_mask_h(plen);
	if (!l->cap)
		return -ENOENT;
	bool found;
	uint32_t i = probe(l, key, &found);
	if (!found)
		return -ENOENT;
	/* backward-shift deletion: no tombstones, lookups stay short */
	l->used[i] = 0;
	for (uint32_t j = (i + 1) & (l->cap - 1); l->used[j]; j = (j + 1) & (l->cap - 1)) {
		uint32_t home = slot_of(l->key[j], l->cap);
		/* the entry at j may move to the hole at i when i lies cyclically in home..j */
		if (((j - home) & (l->cap - 1)) >= ((j - i) & (l->cap - 1))) {
			l->key[i] = l->key[j];
			l->val[i] = l->val[j];
			l->used[i] = 1;
			l->used[j] = 0;
			i = j;
		}
	}
	l->n--;
	t->count--;
	if (!l->n)
		t->lens &= ~(1ull << plen);
	return 0;
}

bool fw_table_lookup(const struct fw_table *t, uint32_t addr_be, uint32_t *val)
{
	uint32_t a = ntohl(addr_be);
	for (uint64_t m = t->lens; m;) {
		int plen = 63 - __builtin_clzll(m);
		m &= ~(1ull << plen);
		const struct fw_lpm_len *l = &t->len[plen];
		uint32_t key = a & plen_mask_h(plen);
		for (uint32_t i = slot_of(key, l->cap); l->used[i]; i = (i + 1) & (l->cap - 1))
			if (l->key[i] == key) {
				*val = l->val[i];
				return true;
			}
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
		const struct fw_lpm_len *l = &t->len[plen];
		for (uint32_t i = 0; i < l->cap; i++)
			if (l->used[i]) {
				e[3 * k] = l->key[i];
				e[3 * k + 1] = (uint32_t)plen;
				e[3 * k + 2] = l->val[i];
				k++;
			}
	}
	qsort(e, k, 3 * sizeof(*e), cmp_entry);
	*n = k;
	return e;
}
