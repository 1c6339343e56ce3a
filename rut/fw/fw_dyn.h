/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_dyn.h — the dynamic states of fw_dyn.c (keep-state, limit) as the evaluator,
 * the commands and the listing use them.
 * Internal to the firewall (fw_impl.h); not part of the contract (fw.h). */
#ifndef PPSLAB_RUT_FW_FW_DYN_H
#define PPSLAB_RUT_FW_FW_DYN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>   /* INET6_ADDRSTRLEN */

#include "fw_impl.h"

/* ---- fw_dyn.c: dynamic states (keep-state, limit) ---- */
struct fw_dyn;
struct fw_pkt;
/* The result of a pass's state lookup (ipfw_dyn_info): done once per name, cached. */
enum { FW_DYN_UNKNOWN = 0, FW_DYN_NONE, FW_DYN_FWD, FW_DYN_REV };
struct fw_dyn_info {
	uint8_t dir;
	uint16_t kidx;
	int parent;                 /* rule index of the state's parent, -1 none */
};
struct fw_dyn *fw_dyn_new(void);
void fw_dyn_free(struct fw_dyn *d);
/* Looks the packet up (names: kidx, 0 = any); on a hit updates the state (lifetime,
 * counters, TCP flags) and returns the parent rule's index in rs, else -1. Lock-free. */
int fw_dyn_lookup(struct fw *fw, const struct fw_rules *rs, const struct fw_pkt *p,
		  uint16_t kidx, struct fw_dyn_info *di);
/* Installs the state of rule idx of rs (FW_OP_KEEP / FW_OP_LIMIT x); 0, or -1: deny.
 * Any thread (the bucket's lock). */
int fw_dyn_install(struct fw *fw, const struct fw_rules *rs, int idx, const struct fw_insn *x,
		   const struct fw_pkt *p);
/* Removes the states whose rule no longer exists (after deletions). */
void fw_dyn_orphans(struct fw *fw);
void fw_dyn_flush(struct fw *fw);
/* A state as `ipfw -d show` lists it (fw_show.c prints it): counters, seconds left
 * (0: past its lifetime), a parent's count of sessions, the first packet's addresses
 * (network order) and ports (host order), the state name's index. */
struct fw_dyn_entry {
	uint32_t rulenum;
	uint64_t pcnt, bcnt;
	uint32_t expire, link;
	bool parent, limit;
	uint8_t proto;
	uint16_t kidx;
	uint32_t src, dst;
	uint16_t sport, dport;
	bool v6;                    /* an IPv6 flow: the addresses are src6, dst6 */
	uint8_t src6[16], dst6[16];
};
/* Calls fn for each state and parent of rules lo..hi, in the listing's order. */
typedef void (*fw_dyn_visit_fn)(void *arg, const struct fw_dyn_entry *e);
void fw_dyn_walk(const struct fw *fw, uint32_t lo, uint32_t hi, fw_dyn_visit_fn fn, void *arg);
/* The widest packet and byte counter of any state (for the listing's columns). */
void fw_dyn_widths(const struct fw *fw, int *pcw, int *bcw);
uint32_t fw_dyn_total(const struct fw *fw);   /* states + parents */
/* A state's or packet's address as text: IPv6 a6 by inet_ntop, else the IPv4 a4
 * (network order) dotted, as ipfw prints either (show_dyn_state, the limit log line). */
void fw_dyn_ntop(bool v6, uint32_t a4, const uint8_t a6[16], char out[INET6_ADDRSTRLEN]);

#endif
