/* fw.h — the ipfw-compatible firewall of ppslab-rut (spec/polling-and-ipfw.md Part B).
 *
 * CONTRACT (agreed before implementation; the firewall engineer may extend it, not break
 * it): a ruleset is text compiled once into an immutable-per-rule compact form, then
 * evaluated many times by an allocation-free function. All calls happen on the
 * forwarding thread (the control socket hands commands to it at a batch boundary), so
 * the engine needs no locks. Errors carry file, line, column and what was expected.
 *
 * Evaluation follows ipfw: rules in (number, insertion) order, first terminal match
 * wins, `count` and `skipto` count and continue, per-rule packet/byte counters (bytes =
 * IP total length), a forwarded packet is checked twice — inbound on the ingress
 * interface (`in`, recv) and outbound on the egress interface (`out`, xmit) — and rule
 * 65535 (deny, or allow with default_to_accept) ends every pass. */
#ifndef PPSLAB_FW_H
#define PPSLAB_FW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw;

struct fw_diag {
	char file[128];   /* "-" for the command line / control socket */
	int line, col;    /* 1-based; 0 when not applicable */
	char msg[256];    /* "expected an address after 'from'" */
};

/* net.inet.ip.fw.* */
struct fw_tunables {
	bool enable;             /* 0: the firewall is bypassed */
	bool update_counters;    /* extension (seed 001): 0 skips packet/byte/time updates */
	bool default_to_accept;  /* rule 65535 allows */
	uint32_t autoinc_step;   /* 1..1000, default 100 */
	bool verbose;            /* log rules write log lines */
	uint32_t verbose_limit;
	bool one_pass;           /* accepted and ignored (no dummynet) */
};

enum fw_verdict { FW_PASS = 0, FW_DENY, FW_UNREACH, FW_RESET };

/* What evaluation needs of a packet; filled by the forwarder from its parse. */
struct fw_pkt {
	uint32_t src, dst;           /* network order */
	uint16_t sport, dport;       /* host order; valid when has_ports */
	uint16_t ip_len;             /* IP total length: the byte counter's unit */
	uint8_t proto;
	bool has_ports;              /* TCP/UDP (and SCTP) with fragment offset 0 */
	bool frag;                   /* fragment offset != 0 */
	bool in;                     /* inbound pass (else outbound) */
	int recv_if, xmit_if;        /* forwarder port index, or -1 when none on that side */
};

/* A new ruleset holding only rule 65535. if_names[i] is port i's interface name (for
 * via/recv/xmit, globs and names resolved at compile time); local addresses are `me`. */
struct fw *fw_new(const char *const *if_names, int n_ifs, const uint32_t *local_addrs,
		  int n_local);
void fw_free(struct fw *fw);
struct fw_tunables *fw_tunables(struct fw *fw);

/* Executes one ipfw(8) command line ("add 100 deny ip from any to 10.0.0.1",
 * "ipfw -q add ...", "delete 100", "zero [N ...]", "flush", "show [N ...]",
 * "list [N ...]", "resetlog"), writing what ipfw prints to out. Returns 0, or -errno
 * with d filled (d->file/line given by the caller for files). */
int fw_exec(struct fw *fw, const char *line, char *out, size_t outlen, struct fw_diag *d);
/* Loads a file of `ipfw add` lines, bare rule bodies ("100 deny ip from ...", "deny ip
 * from ...") or pasted `ipfw show` output; '#' comments and blank lines ignored.
 * All-or-nothing: on the first error nothing is added. */
int fw_load_file(struct fw *fw, const char *path, struct fw_diag *d);
/* Checks a file without loading it (ppslab-rut --check-rules, like ipfw -n). */
int fw_check_file(const char *path, const char *const *if_names, int n_ifs, struct fw_diag *d);

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

#endif
