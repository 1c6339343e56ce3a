/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_impl.h — the firewall's internal representation, shared by fw.c (the ruleset),
 * fw_cmd.c (ipfw commands, rule files), the rule language (fw_lex.c: diagnostics and
 * the lexer; fw_parse.c, fw_addr.c, fw_opts.c: tokens → compiled rule, over fw_cc.h),
 * fw_eval.c (matching), fw_show.c (listing) and fw_tab.c (names), and by the unit tests.
 * Not part of the contract (fw.h). What one part offers the others has a header of its
 * own on top of this one: fw_lpm.h (tables), fw_dyn.h (states), fw_lang.h (lexer,
 * compiler, diagnostics), fw_tab.h (names), fw_out.h (listings).
 *
 * A compiled rule has two views of the same tests:
 *  - the listing: every test in the order entered (proto, from, ports, to, ports,
 *    options), with `not`/`or` flags, from which `ipfw show` is rendered, so different
 *    spellings of one rule print the same way;
 *  - the evaluation form: the common tests (one protocol, one source and one destination
 *    prefix, the direction) folded into a branch-free prefilter of three masked
 *    compares in a 32-byte struct fw_hot, plus a short program of the remaining tests
 *    (negations, OR blocks, sets, lists, `me`, ports, interfaces) run only when the
 *    prefilter passes. Rules are kept in an array sorted by (number, insertion), hot
 *    parts contiguous so a scan over non-matching rules streams through memory. */
#ifndef PPSLAB_RUT_FW_FW_IMPL_H
#define PPSLAB_RUT_FW_FW_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "fw.h"

#define FW_DEFAULT_RULE 65535u
#define FW_MAX_USER_RULE 65534u
#define FW_IFNAMSIZ 16

/* Limits of one rule (BSD has similar ones: 255 words per rule). */
#define FW_MAX_TOKS 512
#define FW_MAX_LINE 8192
#define FW_MAX_INSNS 128
#define FW_MAX_LIST 256       /* entries in a port or address list */
/* FreeBSD's own bounds: the kernel refuses a port list of more than 30 entries
 * (check_ipfw_rule_body: O_IP_*PORT longer than 31 words) and ipfw(8) an address
 * list of more than 31 (an instruction is at most F_LEN_MASK = 63 words) */
#define FW_PORT_LIST_MAX 30
#define FW_ADDR_LIST_MAX 31

enum fw_action {
	FW_A_ALLOW = 1,
	FW_A_DENY,
	FW_A_UNREACH,   /* icmp_code; `reject` is code 1 (host); with rule.unreach6 `unreach6` */
	FW_A_RESET,     /* with rule.unreach6 `reset6` */
	FW_A_COUNT,
	FW_A_SKIPTO,
	FW_A_DEFAULT,   /* rule 65535: deny, or allow with default_to_accept */
	FW_A_CHECK,     /* check-state: its program is one FW_OP_CHECK */
};

enum fw_op {
	FW_OP_PROTO = 1,   /* a = protocol, b = 0xff */
	FW_OP_SRC,         /* a = address (masked), b = mask; network order */
	FW_OP_DST,
	FW_OP_SRC_ME,      /* any local address */
	FW_OP_DST_ME,
	FW_OP_SRC_SET,     /* a.b.c.d/N{x,y}: a = base, b = mask, data = uint32_t[8] bitmap
			    * of the last octet */
	FW_OP_DST_SET,
	FW_OP_SRC_LIST,    /* a,b/N,...: data = uint32_t[2n] (address, mask) pairs */
	FW_OP_DST_LIST,
	FW_OP_SRCPORT,     /* data = uint16_t[2n] inclusive ranges; n == 1: a = lo, b = hi */
	FW_OP_DSTPORT,
	FW_OP_IN,          /* a = b = 1; not in = out */
	FW_OP_RECV,        /* a | b << 32 = port bitmask; data = the name/glob/address text */
	FW_OP_XMIT,
	FW_OP_VIA,
	FW_OP_IP4,         /* O_IP4: an IPv4 packet */
	FW_OP_IP6,         /* O_IP6: an IPv6 packet */
	FW_OP_SRC_LOOKUP,  /* table(NAME[,VALUE]): a = table index; n = 1: value must be b */
	FW_OP_DST_LOOKUP,
	FW_OP_FRAG,        /* a = bits wanted set, b = wanted clear (rf 0x80 df 0x40 mf 0x20
			    * offset 0x01) */
	FW_OP_IPLEN,       /* data = uint16_t[2n] inclusive ranges */
	FW_OP_IPTTL,
	FW_OP_ICMPTYPE,    /* a = bitmap of types 0..31 */
	FW_OP_TCPFLAGS,    /* a = set, b = clear (fin 1 syn 2 rst 4 psh 8 ack 16 urg 32) */
	FW_OP_ESTAB,
	FW_OP_NOP,         /* `// comment`: data = the text */
	FW_OP_PROBE,       /* O_PROBE_STATE: a = state name index */
	FW_OP_CHECK,       /* check-state: a = name index, 0 = any */
	FW_OP_KEEP,        /* keep-state / record-state: a = name index */
	FW_OP_LIMIT,       /* limit / set-limit: a = name index, b = limit, n = mask */
	FW_OP_RECV_TAB,    /* recv|xmit|via table(NAME): a = table index (type iface), data
			    * = the text as listed */
	FW_OP_XMIT_TAB,
	FW_OP_VIA_TAB,
	FW_OP_SRC6,        /* IPv6 a/N or a list: data = n × (16-byte address, 16-byte mask) */
	FW_OP_DST6,
	FW_OP_SRC_ME6,     /* O_IP6_SRC_ME: a local IPv6 address */
	FW_OP_DST_ME6,
	FW_OP_ICMP6TYPE,   /* O_ICMP6TYPE: data = uint32_t[7] bitmap of types 0..201 */
	FW_OP_EXT6HDR,     /* O_EXT_HDR: a = FW_EXT_* bits, any of them seen in the walk */
	FW_OP_FLOW6ID,     /* O_FLOW6ID: data = uint32_t[n] values */
	FW_OP_MAX
};

/* the extension headers ipfw_chk's walk saw (ip_fw.h EXT_*), for ext6hdr */
#define FW_EXT_FRAGMENT 0x01
#define FW_EXT_HOPOPTS 0x02
#define FW_EXT_ROUTING 0x04
#define FW_EXT_AH 0x08
#define FW_EXT_ESP 0x10
#define FW_EXT_DSTOPTS 0x20
#define FW_EXT_RTHDR0 0x40
#define FW_EXT_RTHDR2 0x80
/* ICMP6_MAXTYPE: icmp6types takes 0..201 */
#define FW_ICMP6_MAXTYPE 201

/* limit masks (ipfw2.c limit_masks) */
#define FW_LIM_SRC_ADDR 0x01
#define FW_LIM_SRC_PORT 0x02
#define FW_LIM_DST_ADDR 0x04
#define FW_LIM_DST_PORT 0x08

#define FW_F_NOT 0x01   /* negate this test */
#define FW_F_OR 0x02    /* the next test belongs to the same OR block */
#define FW_F_RECORD 0x04 /* FW_OP_KEEP/LIMIT without a probe: record-state, set-limit */

struct fw_insn {
	uint8_t op, flags;
	uint16_t n;
	uint32_t a, b;
	const void *data;
};

/* The prefilter: a rule can only match if
 * ((src & smask) ^ saddr) | ((dst & dmask) ^ daddr) | ((key & kmask) ^ kval) == 0,
 * with key = proto | in << 8, and the packet's ports P (0xffffffff for a packet without
 * ports: docs/design/ipfw.md#ports) satisfy (uint32_t)(P - lo) <= span for both ports.
 * An empty prefilter (all zero, spans 0xffffffff) always passes. */
#define FW_KEY_IN 0x100u
#define FW_KEY_IP6 0x200u   /* an IPv6 packet: IPv4 address tests and ip4 need it clear */
#define FW_NO_PORT 0xffffffffu
struct fw_hot {
	uint32_t saddr, smask;
	uint32_t daddr, dmask;
	uint32_t kval, kmask;
	uint32_t splo, spspan;   /* source port range lo..lo+span */
	uint32_t dplo, dpspan;
	uint16_t nprog;          /* tests left for the program */
	uint8_t action;          /* enum fw_action */
	uint8_t log;             /* `log` given */
	uint32_t number;
};

/* The scan index: the prefilters of 8 consecutive rules side by side (structure of
 * arrays), so that one pass of vector operations tests 8 rules at once and a run of
 * non-matching rules costs a fraction of a nanosecond each. Rebuilt from the fw_hot
 * array by fw_rules_finish() after every change; lanes past the last rule never match.
 * GCC/Clang vector extensions: SSE2 on x86-64, NEON on arm64, scalar elsewhere. */
typedef uint32_t fw_v4u __attribute__((vector_size(16)));
#define FW_BLK 8
struct fw_blk {
	fw_v4u saddr[2], smask[2];
	fw_v4u daddr[2], dmask[2];
	fw_v4u kval[2], kmask[2];
	/* port ranges, biased for a signed compare: fail if ((P - lo) ^ 2^31) > span ^ 2^31;
	 * looked at only when `ports` says a rule of the block has a range */
	fw_v4u splo[2], spspan[2];
	fw_v4u dplo[2], dpspan[2];
	uint32_t ports;
};

/* Everything else about a rule, touched only when it matches or is listed. */
struct fw_rule {
	struct fw_insn *insn;  /* nlist listing tests, then nprog program tests; one
				* allocation with their data (NULL when both are 0) */
	uint16_t nlist;
	uint16_t icmp_code;    /* FW_A_UNREACH */
	uint32_t skipto;       /* FW_A_SKIPTO target number */
	uint32_t skip_fb;      /* index the scan continues at: FreeBSD semantics */
	uint32_t skip_df;      /* older ipfw2 / DragonFly semantics */
	uint32_t log_max;      /* logamount (0 = unlimited) */
	uint32_t slot;         /* its counters and log allowance (struct fw_cstore) */
	uint32_t seq;          /* insertion order, for sorting a staged set */
	uint8_t set;           /* `set N` (accepted, listed only with -S in BSD: not here) */
	bool staged;           /* created by a load not yet committed */
	bool justopts;         /* the body began with options (IPFW_RULE_JUSTOPTS) */
	bool dyn;              /* has a state opcode: no prefilter, the program is every test */
	bool unreach6;         /* O_UNREACH6: `unreach6 CODE` (FW_A_UNREACH, icmp_code the
				* ICMPv6 code) or `reset6` (FW_A_RESET); answers IPv6 only */
	uint16_t check_kidx;   /* FW_A_CHECK: state name index (0 = any) */
};

struct fw_ctr {
	uint64_t pkts, bytes, last_s;
};

/* Counters live outside the rule sets, one slot per rule, so that a rule keeps them
 * while sets are replaced around it. A slot has one cache line per view: view 0 is
 * written by every thread (net.inet.ip.fw.counters=shared, FreeBSD 9's counters in the
 * rule), view 1 + t by thread t alone (percpu, counter(9)); a reader sums them all, so
 * switching modes loses nothing. Views are allocated in chunks of FW_CCHUNK slots that
 * never move; only the thread running commands allocates and frees slots. */
#define FW_CCHUNK 256
#define FW_CCHUNKS 4096          /* 1,048,576 rules */
#define FW_MAX_THREADS 64
struct fw_cline {
	_Alignas(64) _Atomic uint64_t pkts, bytes, last_s;
	_Atomic uint32_t log_left;   /* view 0 only: what is left of logamount */
};
struct fw_cstore {
	int nviews;                              /* 1 + forwarding threads */
	struct fw_cline *_Atomic chunk[FW_CCHUNKS];  /* nviews × FW_CCHUNK lines, view-major */
	uint32_t *freel, nfree, capfree, next;
	pthread_mutex_t lock;                    /* freel, next: a per-rule load's thread
						  * takes slots while thread 0 frees them */
};
static inline struct fw_cline *fw_cline(const struct fw_cstore *cs, uint32_t slot, int view)
{
	struct fw_cline *c = atomic_load_explicit(&cs->chunk[slot / FW_CCHUNK], memory_order_acquire);
	return &c[view * FW_CCHUNK + slot % FW_CCHUNK];
}
/* A zeroed slot with log_left = log_max, or -ENOMEM / -ENOSPC. */
int64_t fw_slot_new(struct fw *fw, uint32_t log_max);
void fw_slot_free(struct fw *fw, uint32_t slot);
/* counters: zero packets, bytes and time in every view; always: log_left = log_max */
void fw_slot_zero(struct fw *fw, uint32_t slot, bool counters, uint32_t log_max);
/* The counters of a slot, summed over the views (last_s: the latest). */
void fw_slot_read(const struct fw *fw, uint32_t slot, struct fw_ctr *c);
/* Hands fn(arg) to the reclamation (fw_set_qsbr), or runs it now without one. */
void fw_retire(struct fw *fw, void (*fn)(void *), void *arg);

/* What the scan needs of a rule whose prefilter passed: 16 bytes, in rule order, with
 * the programs of all rules copied one after the other into the set's arena so that
 * trying many candidates walks memory forwards (fw_rules_finish()). */
struct fw_cand {
	const struct fw_insn *prog;
	uint16_t nprog;
	uint8_t action, log;
	uint32_t number;
};

/* A ruleset: parallel arrays in (number, insertion) order; the last entry is always
 * rule 65535. `sorted` is false while a file load appends out of order. */
struct fw_rules {
	struct fw_blk *blk;     /* (cap + 7) / 8 blocks */
	struct fw_cand *cand;   /* cap entries */
	struct fw_insn *arena;  /* every rule's program, in rule order (may be NULL) */
	int arena_cap;
	struct fw_hot *hot;
	struct fw_rule *rule;
	int n, cap;
	bool sorted;
	uint32_t seq_next;
	uint32_t gen;           /* bumped by every fw_rules_finish(): cached rule indexes */
};


/* state names: index of name (created when asked), 0 = "any" */
int fw_state_name(struct fw *fw, const char *name, bool create);
const char *fw_state_name_str(const struct fw *fw, int idx);
/* Finds rule (number, id) in rs, using and refreshing the cached index (relaxed
 * atomics: any thread may refresh it; a stale pair is checked against the rule). */
int fw_rule_find(const struct fw_rules *rs, uint32_t number, uint32_t id,
		 _Atomic uint32_t *cache_gen, _Atomic uint32_t *cache_idx);

#define FW_MAX_TABLES 128    /* lookup tables (fw_lpm.h) */
#define FW_MAX_SNAMES 64
struct fw_table;
struct fw_dyn;
struct fw {
	struct fw_rules *_Atomic rules;   /* the live set: replaced, never changed in place */
	struct fw_tunables tun;
	struct fw_table *_Atomic tables[FW_MAX_TABLES];
	struct fw_dyn *dyn;
	struct fw_cstore cs;
	struct qsbr *qsbr;      /* reclamation of replaced objects, or NULL: free at once */
	int qsbr_self;
	int nthreads;
	char *sname[FW_MAX_SNAMES];   /* state names: [0] "any", [1] "default" */
	int nsnames;
	_Atomic uint32_t uptime;  /* seconds, the dynamic states' clock (fw_set_uptime) */
	char ifname[FW_MAX_IFS][FW_IFNAMSIZ];
	uint32_t ifaddr[FW_MAX_IFS];
	int nifs;
	uint32_t *local;        /* `me` */
	int nlocal;
	uint8_t *local6;        /* `me`, `me6` for IPv6: nlocal6 × 16 bytes */
	int nlocal6;
	fw_log_fn log_fn;
	void *log_arg;
	_Atomic uint64_t now_s;
	struct fw_diag *warn_to; /* where the compiler leaves warnings, or NULL */
};

static inline struct fw_table *fw_table_at(const struct fw *fw, int idx)
{
	return atomic_load_explicit(&fw->tables[idx], memory_order_acquire);
}




/* ---- fw.c: the ruleset ---- */
struct fw_compiled;   /* fw_lang.h */
uint32_t fw_autoinc_step(const struct fw *fw);
int fw_rules_init(struct fw *fw, struct fw_rules *s);      /* only rule 65535 */
int fw_rules_clone(struct fw_rules *dst, const struct fw_rules *src);
void fw_rules_free(struct fw_rules *s);                    /* the arrays, not the rules */
/* `prev` of automatic numbering (docs/design/ipfw.md#rule-numbers), 0 if none */
uint32_t fw_rules_last_number(const struct fw_rules *s);
int fw_rules_sort(struct fw_rules *s);                     /* (number, insertion) order */
int fw_rules_lower_bound(const struct fw_rules *s, uint32_t num);
/* Appends before 65535 (a staged set; sorted later). 0 or -ENOMEM. */
int fw_rules_push(struct fw_rules *s, const struct fw_compiled *c, uint32_t number);
/* Inserts in order after the rules with the same number. The index or -ENOMEM. */
int fw_rules_insert(struct fw_rules *s, const struct fw_compiled *c, uint32_t number);
/* Rules removed from a staged set, freed once the set that replaced theirs is live
 * and no thread reads the old one; and the counter resets (zero, resetlog) the staged
 * set asked for, applied when it commits. */
struct fw_grave {
	struct fw *fw;
	struct fw_rule *r;
	int n, cap;
	struct { uint32_t slot, log_max; bool counters; } *z;
	int nz, capz;
};
void fw_grave_bury(struct fw_grave *g, const struct fw_rule *r);
/* Removes the user rules numbered num (all when 0); returns how many. */
int fw_rules_remove(struct fw_rules *s, uint32_t num, struct fw_grave *g);
int fw_rules_remove_range(struct fw_rules *s, uint32_t lo, uint32_t hi, struct fw_grave *g);
/* Zeroes rule i's counters (if counters) and restarts its log allowance; with a
 * grave, when the staged set commits. 0 or -ENOMEM. */
int fw_rules_zero(struct fw *fw, struct fw_rules *s, int i, bool counters, struct fw_grave *g);
/* Frees a rule's program and counter slot (no thread may be reading it). */
void fw_rule_release(struct fw *fw, const struct fw_rule *r);
/* Rebuilds the scan index, the candidate array, the program arena and the skipto
 * indexes; called after every change of the set's rules or order. Allocates only the
 * arena, and falls back to the rules' own copies of their programs without it. */
void fw_rules_finish(struct fw_rules *s);

#endif
