/* SPDX-License-Identifier: BSD-2-Clause */
/* fw.h — the ipfw-compatible firewall of ppslab-rut (docs/design/ipfw.md).
 *
 * CONTRACT: a ruleset is text compiled once into an immutable compact form, then
 * evaluated many times by an allocation-free function. Errors carry file, line, column
 * and what was expected. Which thread calls what (more under "several forwarding
 * threads" below):
 * - Setup (fw_new, fw_set_threads, fw_set_if_addrs, fw_set_log, fw_set_qsbr, a rules
 *   file at start) happens before any thread evaluates.
 * - Evaluation (fw_eval_rs and its wrappers) runs on every forwarding thread at once,
 *   each on the set it took (fw_rules_get), without a lock on the rules; counters go
 *   to the thread's view (fw_pkt.tid) or, shared, are racy relaxed adds; fw_set_now and
 *   fw_set_uptime may be called by any of them.
 * - Commands (fw_exec, fw_load_file, tunables written through sysctl) run on one
 *   thread at a time, the forwarder's thread 0 between its batches, while the other
 *   threads go on evaluating: a command builds a new set or table and publishes it
 *   with one pointer store; what it replaced is freed after every thread's quiescent
 *   point (fw_set_qsbr). Tunables are atomics for that reason.
 * - Dynamic states are written by the evaluating threads: installs take a bucket lock
 *   (stripes), the slab a mutex, growth of the hash a reader-writer lock; lookups take
 *   none. fw_dyn_maintain (thread 0) takes the maintenance lock.
 * - Log lines go to fw_log_fn on the evaluating thread (it must queue, not block).
 *
 * Evaluation follows ipfw: rules in (number, insertion) order, first terminal match
 * wins, `count` and `skipto` count and continue, per-rule packet/byte counters (bytes =
 * IP total length), a forwarded packet is checked twice — inbound on the ingress
 * interface (`in`, recv) and outbound on the egress interface (`out`, xmit) — and rule
 * 65535 (deny, or allow with default_to_accept) ends every pass.
 *
 * Semantics chosen where BSD versions differ
 * (docs/design/ipfw.md#semantics-chosen-where-bsd-versions-differ):
 * - skipto to a number <= the rule's own continues at the first rule numbered > it
 *   (FreeBSD 2013); tunables.skipto_dragonfly selects older ipfw2/DragonFly (the next
 *   rule in the list).
 * - `ip` and `all` compile identically (no protocol test); the listing prints `ip`.
 * - A port test fails on packets without ports (not TCP/UDP/SCTP, or a fragment with
 *   offset != 0), so `not PORTS` matches them (ipfw2).
 * - `xmit` never matches on the inbound pass and `via` uses the receive interface
 *   there, whatever xmit_if holds (an inbound packet has no output interface yet).
 * - Interface names, globs and interface addresses are resolved to port bitmasks when a
 *   rule is compiled; a name no port has never matches (BSD accepts such rules too).
 * - Host names are not resolved: addresses are numeric, `any` or `me`. */
#ifndef PPSLAB_RUT_FW_FW_H
#define PPSLAB_RUT_FW_FW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw;

struct fw_diag {
	char file[128];   /* "-" for the command line / control socket */
	int line, col;    /* 1-based; 0 when not applicable */
	bool kernel;      /* what the "kernel" refused (no such rule or table, a table in
			   * use...), not an error in the text: col still points at the word
			   * that named it, for a rules file's FILE:LINE:COL, but a command
			   * line's message has no "(column N)", as ipfw(8) prints none */
	char msg[256];    /* "expected an address after 'from'" */
	int ex;           /* extension: the sysexits code ipfw(8) would exit with:
			   * 64 EX_USAGE, 65 EX_DATAERR (bad rule), 69 EX_UNAVAILABLE (the
			   * "kernel" refused: unknown rule number, rule 65535) */
	char warn[512];   /* warnings of a command that succeeded, whole lines ("ipfw: ...",
			   * "ppslab-rut: warning: ..."), each ending in '\n'; "" if none */
};

/* How the forwarding threads count rule matches (net.inet.ip.fw.counters, an
 * extension): SHARED is FreeBSD 9's one counter per rule that every CPU increments
 * (racy, unlocked increments: the rule's cache line moves between the CPUs on every
 * match), PERCPU is counter(9) of FreeBSD 10 on: one counter per rule and thread,
 * summed when read (docs/design/ipfw.md#counters). */
enum fw_counters { FW_CTR_PERCPU = 0, FW_CTR_SHARED = 1 };

/* net.inet.ip.fw.*: atomics, because the control thread writes them while every
 * forwarding thread reads them (plain loads and stores on x86) */
struct fw_tunables {
	_Atomic bool enable;             /* 0: the firewall is bypassed */
	_Atomic bool update_counters;    /* extension: 0 skips packet/byte/time updates */
	_Atomic bool default_to_accept;  /* rule 65535 allows */
	_Atomic uint32_t autoinc_step;   /* 1..1000, default 100 (clamped when used, as BSD does) */
	_Atomic bool verbose;            /* log rules write log lines */
	_Atomic uint32_t verbose_limit;  /* default log allowance of rules added without logamount */
	_Atomic bool one_pass;           /* accepted and ignored (no dummynet) */
	_Atomic bool skipto_dragonfly;   /* extension: backward skipto goes to the next rule (docs/design/ipfw.md) */
	_Atomic uint32_t counters;       /* extension: enum fw_counters */
	/* dynamic states (ip_fw_dynamic.c, FreeBSD 14 defaults) */
	_Atomic uint32_t dyn_buckets;    /* max buckets of the state hash (power of 2, > 256): 8192 */
	_Atomic uint32_t dyn_max;        /* 16384 */
	_Atomic uint32_t dyn_parent_max; /* 4096 */
	_Atomic uint32_t dyn_ack_lifetime, dyn_syn_lifetime, dyn_fin_lifetime, dyn_rst_lifetime;
	_Atomic uint32_t dyn_udp_lifetime, dyn_short_lifetime;   /* 300 20 1 1 10 5 */
	_Atomic uint32_t dyn_keepalive;  /* 1: accepted; no keepalives are sent (no TCP stack here) */
	_Atomic uint32_t dyn_keepalive_period;  /* 5, not a sysctl in FreeBSD either */
	_Atomic uint32_t reply_limit;    /* extension: reset/unreach replies per second, 0 unlimited */
};

/* read-only counters of the dynamic states (net.inet.ip.fw.dyn_count, ...) */
struct fw_dyn_stats {
	uint32_t count, parent_count, curr_buckets, curr_max_length;
	uint64_t denied_limit, denied_nomem;   /* limit reached, dyn_max reached */
};
void fw_dyn_stats(const struct fw *fw, struct fw_dyn_stats *st);
/* The states' clock, seconds since any fixed point (time_uptime). The forwarder sets it
 * once per burst; tests drive it by hand. */
void fw_set_uptime(struct fw *fw, uint32_t uptime_s);
/* The once-a-second work of FreeBSD's dyn_tick: removes expired states and grows the
 * hash, at most budget buckets per call (a sweep starts when the clock has moved on a
 * second since the last one began). */
void fw_dyn_maintain(struct fw *fw, uint32_t budget);

enum fw_verdict { FW_PASS = 0, FW_DENY, FW_UNREACH, FW_RESET };

/* What evaluation needs of a packet; filled by the forwarder from its parse. */
struct fw_pkt {
	uint32_t src, dst;           /* network order */
	uint16_t sport, dport;       /* host order; valid when has_ports */
	uint16_t ip_len;             /* IP total length: the byte counter's unit */
	uint16_t l4_len;             /* bytes after the IP header (ip_len - header length) */
	uint16_t ip_off;             /* host order: RF 0x8000, DF 0x4000, MF 0x2000, offset */
	uint8_t proto;
	uint8_t ttl;                 /* as the pass sees it (the outbound one: decremented) */
	uint8_t tcp_flags;           /* TCP, offset 0 */
	uint32_t tcp_ack;            /* host order, TCP (dynamic states track it) */
	bool has_ports;              /* TCP/UDP/UDP-Lite/SCTP with fragment offset 0 */
	bool frag;                   /* fragment offset != 0 */
	bool in;                     /* inbound pass (else outbound) */
	int recv_if, xmit_if;        /* forwarder port index, or -1 when none on that side */
	uint8_t icmp_type, icmp_code; /* extension: ICMP only, for log lines */
	uint8_t tid;                 /* the evaluating thread (fw_set_threads): its counter
	                              * view; 0 in a single-threaded caller */
	/* IPv6 (docs/firewall.md#ipv6): src and dst are 0, the addresses are here;
	 * proto is the upper-layer protocol after the extension headers, ip_len the
	 * whole packet (40 + payload length), l4_len the bytes after the last extension
	 * header, frag/ip_off from a fragment header (offset, MF 0x2000) */
	bool ip6;
	bool ext_bad;                /* an unknown extension header: denied before the rules
				      * (net.inet6.ip6.fw.deny_unknown_exthdrs) */
	bool cut;                    /* an extension header cut short: pullup_failed */
	const uint8_t *src6, *dst6;  /* 16 bytes each, network order */
	uint32_t flow6;              /* the header's first word, host order (version,
				      * traffic class, flow label: ipfw_chk's flow_id6) */
	uint8_t ext6;                /* FW_EXT_* of the extension headers walked (ext_hd) */
};

/* The IPv6 packet at ip (a 40-byte header and plen bytes after it) as the firewall sees
 * it: ipfw_chk's walk of the extension headers to the upper-layer protocol
 * (docs/firewall.md#ipv6); an inbound pass on recv_if by thread tid. p points into ip. */
void fw_pkt_ip6(const uint8_t *ip, unsigned plen, int recv_if, int tid, struct fw_pkt *p);

/* A new ruleset holding only rule 65535. if_names[i] is port i's interface name (for
 * via/recv/xmit, globs and names resolved at compile time); local addresses are `me`.
 * At most FW_MAX_IFS ports; NULL with errno set on failure. */
#define FW_MAX_IFS 64
struct fw *fw_new(const char *const *if_names, int n_ifs, const uint32_t *local_addrs,
		  int n_local);
void fw_free(struct fw *fw);
/* Is a (network order) one of the local addresses (`me`)? */
bool fw_is_me(const struct fw *fw, uint32_t a);
/* The local IPv6 addresses (`me`, `me6`), n of 16 bytes each; 0 or -ENOMEM. */
int fw_set_local6(struct fw *fw, const uint8_t *addrs, int n);
bool fw_is_me6(const struct fw *fw, const uint8_t a[16]);
struct fw_tunables *fw_tunables(struct fw *fw);

/* Executes one ipfw(8) command line ("add 100 deny ip from any to 10.0.0.1",
 * "ipfw -q add ...", "delete 100", "zero [N ...]", "flush", "show [N ...]",
 * "list [N ...]", "resetlog"), writing what ipfw prints to out. Returns 0, or -errno
 * with d filled (d->file/line given by the caller for files).
 * Also: flags -q -f -a -t -N, "resetlog [N ...]", "show N-M", "enable|disable
 * firewall|verbose|one_pass". A warning that ipfw prints on stderr while still exiting
 * non-zero ("rule 150: setsockopt(IP_FW_ZERO): Invalid argument") is in d->msg with
 * d->ex 69; out still holds what was printed for the other arguments. If out is too
 * small the text is cut and -ENOSPC returned (the command itself took effect). */
int fw_exec(struct fw *fw, const char *line, char *out, size_t outlen, struct fw_diag *d);
/* Loads a file of `ipfw add` lines, bare rule bodies ("100 deny ip from ...", "deny ip
 * from ...") or pasted `ipfw show` output; '#' comments and blank lines ignored.
 * All-or-nothing: on the first error nothing is added.
 * Also accepted: "ipfw -q flush", "delete N", "zero", "resetlog" lines (applied in
 * order, as one transaction); `ipfw show` counters and -t timestamps are ignored; a
 * pasted default rule line ("65535 ... deny|allow ip from any to any") is skipped. */
int fw_load_file(struct fw *fw, const char *path, struct fw_diag *d);
/* Checks a file without loading it (ppslab-rut --check-rules, like ipfw -n). */
int fw_check_file(const char *path, const char *const *if_names, int n_ifs, struct fw_diag *d);

/* ---- several forwarding threads
 * (docs/design/ipfw-fidelity.md#built-for-several-forwarding-threads) ----
 * Rule sets are replaced, never changed in place: a command builds a new set and
 * publishes it with one pointer store; the old one is freed once every forwarding
 * thread has passed a quiescent point (qsbr.h). Evaluation reads the set without a
 * lock. Counters are kept per rule outside the set (so a rule keeps them when the set
 * around it is replaced), in one view per thread plus a shared one. */
struct qsbr;
struct fw_rules;
/* Forwarding threads 0..n-1 count into views of their own (1..64); before any
 * traffic. 0 or -EINVAL / -ENOMEM. */
int fw_set_threads(struct fw *fw, int n);
/* Frees replaced objects through q (self: the thread that runs the commands); without
 * it they are freed at once (one thread, or nothing evaluating concurrently). */
void fw_set_qsbr(struct fw *fw, struct qsbr *q, int self);
/* The current rule set; valid until the calling thread's next quiescent point. */
const struct fw_rules *fw_rules_get(const struct fw *fw);
/* One pass over the set rs (fw_rules_get): a forwarder evaluates both passes of a
 * frame, and all frames of a burst, on one set, so no frame meets two rule sets. */
struct fw_match;
enum fw_verdict fw_eval_rs(struct fw *fw, const struct fw_rules *rs, const struct fw_pkt *p,
			   struct fw_match *m);

/* One pass over the ruleset. Returns the verdict and the number of the rule that gave it. */
enum fw_verdict fw_eval(struct fw *fw, const struct fw_pkt *p, uint32_t *rule_no);

/* Number of rules (including 65535) and per-rule counters, in ruleset order. */
int fw_rule_count(const struct fw *fw);
struct fw_rule_stats {
	uint32_t number;
	uint64_t pkts, bytes;
	uint64_t last_match_s;   /* CLOCK_REALTIME seconds, 0 never */
};
int fw_rule_stats(const struct fw *fw, int idx, struct fw_rule_stats *st);

/* ---- extensions ------------------------------------------------------------------ */

/* What the terminal rule asked for: the ICMP unreachable code to send for FW_UNREACH
 * (reject = 1 host, `unreach port` = 3). The forwarder must not send ICMP for an ICMP
 * error, a fragment with offset != 0, or a broadcast/multicast packet; FW_RESET
 * means a TCP RST for TCP and a silent drop otherwise. */
struct fw_match {
	uint32_t rule_no;
	uint16_t icmp_code;
	uint8_t why;             /* enum fw_why: FW_DENY before any rule (rule_no 0) */
	/* ipfw's O_UNREACH6: the rule was `unreach6 CODE` (FW_UNREACH, icmp_code the
	 * ICMPv6 code itself) or `reset6` (FW_RESET); FreeBSD answers an IPv6 packet
	 * only (fw_reply6) and drops an IPv4 one without a reply */
	bool unreach6;
};
/* ipfw_chk's pullup_failed: dropped before the rules, whatever they say */
enum fw_why { FW_WHY_RULE = 0, FW_WHY_TINYFRAG, FW_WHY_TRUNCATED, FW_WHY_EXTHDR };
enum fw_verdict fw_eval_ex(struct fw *fw, const struct fw_pkt *p, struct fw_match *m);
/* n passes (p[i].in says which); rule_no may be NULL. */
void fw_eval_burst(struct fw *fw, const struct fw_pkt *p, int n, enum fw_verdict *v,
		   uint32_t *rule_no);

/* The reply of a reset or unreach rule (ip_fw2.c send_reject): the firewall decides
 * whether FreeBSD would send one and builds its IP packet; the forwarder routes it,
 * limits it, frames it and sends it (fw_reply.c). */
/* For the IPv4 packet ip (ip_len bytes) whose destination MAC has the group bit set
 * when l2_group: true when a reply may go (offset 0, no ICMP error, no broadcast or
 * multicast; an RST only to a TCP segment that is not one, an unreachable only with
 * 8 bytes past the header and to a unicast source), with *quote the bytes of ip an
 * unreachable quotes (icmp_error). */
bool fw_reject_ok(const uint8_t *ip, unsigned ip_len, bool l2_group, enum fw_verdict v,
		  unsigned *quote);
/* Builds into out (room for 28 + quote bytes) the RST (FW_RESET) or the ICMP unreachable
 * with code, from address from (network order), for the packet ip, with IP id ip_id and
 * every checksum; returns its IP length. */
unsigned fw_reject_build(uint8_t *out, const uint8_t *ip, enum fw_verdict v, uint16_t code,
			 unsigned quote, uint32_t from, uint16_t ip_id);

/* IPv6 (ipfw_chk O_REJECT falling into O_UNREACH6, and O_UNREACH6 itself; send_reject6):
 * what answers the IPv6 packet p (fw_pkt_ip6), whose destination MAC has the group bit
 * set when l2_group, that a reset, reject, unreach, unreach6 or reset6 rule (m) dropped.
 * Nothing to a fragment at a non-zero offset, ICMPv6 other than a query, a link-layer
 * group frame or a multicast destination. `reset6` (m->unreach6, FW_RESET): an RST to a
 * TCP segment that is none (fw_reset6_build), nothing to anything else. Otherwise an
 * ICMPv6 destination unreachable, unless the source is multicast or unspecified, with
 * *code6 its code: `unreach6 CODE`'s own, else map_icmp_unreach's of the rule's ICMP
 * code (RFC 7915 4.2: net/host/srcfail/unknown/tos 0 no route, port 4 port unreachable,
 * the rest 1 administratively prohibited; a `reset` rule's ICMP_REJECT_RST maps to 1
 * as well, so it answers IPv6 with an unreachable too). */
enum fw_reply6 { FW_R6_NONE = 0, FW_R6_UNREACH, FW_R6_RST };
enum fw_reply6 fw_reply6(const struct fw_pkt *p, bool l2_group, enum fw_verdict v,
			 const struct fw_match *m, uint8_t *code6);
/* fw_reply6 for a reset, reject or unreach rule (ICMP code code): true for
 * FW_R6_UNREACH. */
bool fw_reject6_ok(const struct fw_pkt *p, bool l2_group, enum fw_verdict v, uint16_t code,
		   uint8_t *code6);
/* ipfw_send_pkt() for IPv6: builds into out (60 bytes) the RST answering the TCP
 * segment of the IPv6 packet ip6 (p its fw_pkt_ip6, FW_R6_RST): from its destination
 * to its source, ports swapped, hop limit 64, the checksum over the pseudo-header;
 * returns its length, 60. */
unsigned fw_reset6_build(uint8_t *out, const uint8_t *ip6, const struct fw_pkt *p);

/* The addresses of the ports (network order, 0 = none), for `via|recv|xmit a.b.c.d`.
 * Rules compiled afterwards use them. */
void fw_set_if_addrs(struct fw *fw, const uint32_t *if_addrs, int n_ifs);

/* Log lines (docs/design/ipfw.md#logging; "ipfw: 100 Deny UDP 198.18.0.1:9 198.19.0.1:9 in
 * via rut0", no newline) are handed to fn from fw_eval when `verbose` is on and the
 * rule's allowance lasts. fn runs on the forwarding thread: it should queue, not block.
 * Without a sink the lines are dropped (the allowance is still consumed, as syslog
 * would). */
typedef void (*fw_log_fn)(void *arg, const char *line);
void fw_set_log(struct fw *fw, fw_log_fn fn, void *arg);

/* The CLOCK_REALTIME second stamped as a rule's last match. The forwarder may set it
 * once per batch; 0 (the default) makes fw_eval read CLOCK_REALTIME_COARSE itself on
 * the first match of a pass. */
void fw_set_now(struct fw *fw, uint64_t now_s);

/* The rule's listing body, as `ipfw list` prints it after the number
 * ("deny log tcp from any to 10.90.1.1 135-139"). Returns the length or -errno. */
int fw_rule_text(const struct fw *fw, int idx, char *buf, size_t len);

/* Every error of a file, one call each (fw_check_file keeps only the first), then, if
 * the file had warnings (an interface no port has), one call with ex 0 and them in
 * warn. Returns the number of errors, or -errno when the file cannot be read. */
typedef void (*fw_diag_fn)(void *arg, const struct fw_diag *d);
int fw_check_file_all(const char *path, const char *const *if_names, int n_ifs,
		      fw_diag_fn fn, void *arg);

/* "FILE:LINE:COL: msg"; without a line, "msg (column COL)" for an error in the text and
 * "msg" for what the kernel refused (d->kernel); into buf; returns buf. */
const char *fw_diag_str(const struct fw_diag *d, char *buf, size_t len);

#endif
