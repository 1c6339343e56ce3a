/* SPDX-License-Identifier: BSD-2-Clause */
/* tc_vlan.h — an 802.1Q subinterface P.V emulated with tc BPF where the kernel has no
 * vlan device (no 802.1Q module): a veth pair inside the namespace, P.V (which carries
 * the subinterface's addresses) and a hidden peer, and two tc clsact programs:
 *
 *   P's ingress:           outer tag 802.1Q V?  pop it, redirect into the hidden peer
 *                          (the frame arrives on P.V untagged); else go on (TC_ACT_UNSPEC:
 *                          the next filter, then P's own stack)
 *   the hidden peer's      push 802.1Q tag V (priority 0), redirect out of P
 *   ingress (P.V's output):
 *
 * The tag is read where Linux keeps the outer one on receive, the skb's metadata
 * (__sk_buff vlan_present, vlan_proto, vlan_tci), not the frame's bytes. The programs
 * are built here as instruction arrays (no clang, no object file), as lib/xdp_prog.c.
 * The builder is Linux-only and needs no libbpf; loading and attaching need libbpf
 * (PPSLAB_HAVE_XDP), else -EOPNOTSUPP with the reason. */
#ifndef PPSLAB_LIB_TC_VLAN_H
#define PPSLAB_LIB_TC_VLAN_H

#include <stddef.h>

#if defined(__linux__)
#include <linux/bpf.h>

enum tc_vlan_dir {
	TC_VLAN_POP,    /* on P's ingress: tag V off, into the hidden peer */
	TC_VLAN_PUSH,   /* on the hidden peer's ingress: tag V on, out of P */
};

#define TC_VLAN_INSNS_MAX 24

/* The program of dir for VID vid (1..4094), redirecting to to_ifindex (> 0), into out
 * (room for max). Returns the instruction count, or -EINVAL (a VID or ifindex out of
 * range) or -ENOSPC. */
int tc_vlan_build(enum tc_vlan_dir dir, unsigned vid, int to_ifindex, struct bpf_insn *out,
		  int max);
#endif

/* The tc filter's priority and handle the lab's programs use on P and the hidden peer
 * (`tc filter del dev P ingress pref TC_VLAN_PRIO` removes ours only). */
#define TC_VLAN_PRIO 0x7070
#define TC_VLAN_HANDLE 0x7070

/* Whether this build can load the programs (libbpf); else why not into why. */
int tc_vlan_supported(char *why, size_t whylen);

/* In network namespace netns (its name under /run/netns): the clsact hooks of port and
 * peer made if missing, the pop program on port's ingress (redirecting into peer) and
 * the push program on peer's ingress (redirecting out of port) attached or replaced.
 * 0 or -errno with a message in err. */
int tc_vlan_attach(const char *netns, const char *port, const char *peer, unsigned vid, char *err,
		   size_t errlen);

#endif
