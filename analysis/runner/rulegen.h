/* SPDX-License-Identifier: BSD-2-Clause */
/* rulegen.h — the rule sets a profile's "rules" axis names, written as ipfw rule files
 * that ppslab-rut loads (`ipfw -q /FILE`) or an external router's hook is given.
 *
 * Kinds (axis rules_kind), for a count N:
 *   nomatch  N rules that never match the test traffic, then the allow rule: RFC 2544
 *            §11.4's filter test (only the last rule matches). The rules rotate four
 *            shapes (ip from a host, udp to a port of a host, tcp from a network, icmp)
 *            on sources in 198.18.128.0/17, which ppslab's traffic never uses, so
 *            every frame is evaluated against all N before it is allowed.
 *   count    N × "count ip from any to any", then the allow rule (the cost of per-rule
 *            counters in the 2012 FreeBSD ipfw counter cost thread, docs/glossary.md).
 * The allow rule is number 65000, "allow ip from any to any"; generated rules are
 * numbered 1..N up to 64,999 rules, and above that share numbers 1..64,999 in order
 * (ipfw keeps rules of one number in the order they were added), so every count the
 * rules axis allows (100,000) loads. "file:PATH" is a user's rule file, loaded as is
 * (it must allow what it wants forwarded: rule 65535 denies). */
#ifndef PPSLAB_ANALYSIS_RUNNER_RULEGEN_H
#define PPSLAB_ANALYSIS_RUNNER_RULEGEN_H

#include <stdio.h>

#define RULEGEN_ALLOW_NUM 65000
#define RULEGEN_MAX 100000
#define RULEGEN_NUM_MAX 64999   /* the last number below the allow rule */

/* Writes the rule set to f. 0, -EINVAL (unknown kind or n > RULEGEN_MAX) or -EIO. */
int rulegen_write(FILE *f, const char *kind, unsigned n);
/* True if kind is one rulegen_write knows. */
int rulegen_kind_ok(const char *kind);

#endif
