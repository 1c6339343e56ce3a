/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_lpm.h — the lookup tables of fw_lpm.c (IPv4 address keys, longest-prefix
 * match; interface tables).
 * Internal to the firewall (fw_impl.h); not part of the contract (fw.h). */
#ifndef PPSLAB_RUT_FW_FW_LPM_H
#define PPSLAB_RUT_FW_FW_LPM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw_impl.h"

/* ---- fw_lpm.c: lookup tables (IPv4 and IPv6 address keys, longest-prefix match) ---- */
#define FW_NAMELEN 64
/* The entries of one prefix length: open addressing in one array, which is replaced
 * (never changed under a reader) when it grows or an entry is deleted; an insert into
 * a free slot writes key and value, then marks the slot used with a release store. */
struct fw_lpm_arr {
	uint32_t cap;               /* a power of two */
	uint32_t *key, *val;
	_Atomic uint8_t *used;
};
struct fw_lpm_len {
	struct fw_lpm_arr *_Atomic a;   /* NULL when empty */
	uint32_t n;                 /* entries; the commands' thread only */
};
/* IPv6 keys (addr:radix holds both families): one immutable array sorted by prefix
 * length (longest first), then address, replaced on every change; a lookup binary-
 * searches each length in use, longest first. */
struct fw_lpm6_ent {
	uint8_t addr[16];    /* masked */
	uint32_t val;
	uint32_t plen;
};
struct fw_lpm6 {
	uint32_t n, nlens;
	uint8_t lens[129];           /* the lengths in use, longest first */
	uint32_t start[129], cnt[129];   /* by length: where its entries are */
	struct fw_lpm6_ent e[];
};
enum { FW_TT_ADDR = 0, FW_TT_IFACE };
struct fw_table {
	char name[FW_NAMELEN];
	uint8_t type;               /* FW_TT_*: `create type addr|iface` */
	_Atomic uint64_t lens;      /* bit L: some entry has prefix length L (0..32) */
	uint32_t count;
	struct fw_lpm_len len[33];
	/* type iface: the names, sorted (the commands' thread only), and what the
	 * forwarding threads read: bit k of ifmask set when port k's name is a key,
	 * ifval[k] its value (FreeBSD's iface:array matches by the interface's index, so
	 * a name no port has matches nothing) */
	char (*ifkey)[FW_IFNAMSIZ];
	uint32_t *ifkval, ifcap;
	_Atomic uint64_t ifmask;
	_Atomic uint32_t ifval[FW_MAX_IFS];
	struct fw_lpm6 *_Atomic six;   /* IPv6 keys, NULL when none */
};
int fw_table_find(const struct fw *fw, const char *name);          /* index or -1 */
int fw_table_create(struct fw *fw, const char *name);              /* index or -errno */
void fw_table_destroy(struct fw *fw, int idx);
/* 0 added, -EEXIST, -ENOMEM; the address is masked first */
int fw_table_add(struct fw *fw, struct fw_table *t, uint32_t addr_be, int plen, uint32_t val);
/* fw_table_add, or with update set, an existing key takes the new value: returns 1
 * then (FreeBSD's `ipfw -q table N add`, IPFW_TF_UPDATE) */
int fw_table_put(struct fw *fw, struct fw_table *t, uint32_t addr_be, int plen, uint32_t val,
		 bool update);
int fw_table_del(struct fw *fw, struct fw_table *t, uint32_t addr_be, int plen);  /* 0, -ENOENT, -ENOMEM */
void fw_table_flush(struct fw *fw, struct fw_table *t);
/* longest prefix containing addr: true and *val, or false */
bool fw_table_lookup(const struct fw_table *t, uint32_t addr_be, uint32_t *val);
/* the same among the entries of prefix length plen only */
bool fw_table_lookup_len(const struct fw_table *t, uint32_t addr_be, int plen, uint32_t *val);
/* every entry, sorted as BSD's radix walk lists them; *n entries in a malloc'ed array
 * of (address, length, value) triples, or NULL with *n 0 */
uint32_t *fw_table_entries(const struct fw_table *t, uint32_t *n);
bool fw_table_name_ok(const char *name);
/* a (16 bytes) with all but its first plen bits cleared, into out */
void fw_mask6(const uint8_t *a, int plen, uint8_t *out);
/* IPv6 keys (a 16 bytes, network order, masked here): as fw_table_put/_del; the
 * lookup gives the longest prefix holding a, and the entry when e is not NULL */
int fw_table_put6(struct fw *fw, struct fw_table *t, const uint8_t *a, int plen, uint32_t val,
		  bool update);
int fw_table_del6(struct fw *fw, struct fw_table *t, const uint8_t *a, int plen);
bool fw_table_lookup6(const struct fw_table *t, const uint8_t *a, uint32_t *val,
		      const struct fw_lpm6_ent **e);
/* the IPv6 entries sorted as the radix walk lists them (address, then the more
 * specific first): a malloc'ed copy, NULL with *n 0 when none */
struct fw_lpm6_ent *fw_table_entries6(const struct fw_table *t, uint32_t *n);
/* interface tables: 0 added (1 updated), -EEXIST, -ENOMEM; 0 or -ENOENT; true and *val */
int fw_iftable_put(struct fw *fw, struct fw_table *t, const char *name, uint32_t val, bool update);
int fw_iftable_del(struct fw *fw, struct fw_table *t, const char *name);
bool fw_iftable_lookup(const struct fw_table *t, const char *name, uint32_t *val);
/* does port k's name stand in interface table t (any thread) */
static inline bool fw_iftable_port(const struct fw_table *t, int k)
{
	return k >= 0 && (atomic_load_explicit(&t->ifmask, memory_order_acquire) >> k & 1);
}

#endif
