/* SPDX-License-Identifier: BSD-2-Clause */
/* lab.h — the embedded three-box lab: network namespaces NAME-gen, NAME-rut, NAME-sink
 * joined by two veth pairs, on the RFC 2544 benchmarking range:
 *
 *   NAME-gen                NAME-rut                          NAME-sink
 *   gen0 198.18.0.2/24 ---- rut0 198.18.0.1/24   rut1 198.19.0.1/24 ---- sink0 198.19.0.2/24
 *
 *                       2001:2::2/64 ---- 2001:2::1/64    2001:2:0:1::1/64 ---- 2001:2:0:1::2/64
 *
 * Fixed MACs, permanent neighbours for both families (no ARP or neighbour discovery
 * during a test), routes through the router, IPv6 forwarding on in the router. IPv6 is
 * on only on these ports, quiet: no link-local address, no DAD (nodad), no router
 * solicitations, and MLD's unsolicited reports all sent within lab up (1 ms apart), so
 * none mixes into the test frames later. A "shield"
 * (an nftables netdev ingress chain with policy drop, which runs after the AF_PACKET
 * taps) keeps each namespace's kernel stack from also processing the test frames: the
 * forwarder, not the kernel, forwards, and the ends send no ICMP port unreachables.
 * Several senders (lab_up_opts.senders = N >= 2): namespaces NAME-gen, NAME-gen2, ...,
 * NAME-genN, each with its gen0 (198.18.0.2, .3, ...; MAC 02:70:70:00:00:02, :03, ...),
 * joined to the router's rut0 through a bridge in the router namespace, as boxes
 * behind a switch in front of the router's one ingress port:
 *
 *   NAME-genK gen0 ---- swgK ┐
 *                            ├ bridge rutsw ─ swr0 ---- rut0 (the router's ingress)
 *   NAME-gen  gen0 ---- swg1 ┘
 *
 * The router keeps its two ports, so ppslab-rut, its port specs and its counters do
 * not change with the number of senders. The bridge forwards by static entries only
 * (no learning, no flooding: no sender receives another's frames), without STP or
 * netfilter. With one sender gen0 and rut0 are one veth pair, as before.
 * VLAN (lab_up_opts.vlan = V): the router's ports become trunks of VLAN V, as a router
 * whose interfaces are on a VLAN: rut0.V and rut1.V (the 802.1Q device where the kernel
 * has one, else a veth pair P.V - vt-P.V with tc BPF programs that pop and push the
 * tag, lib/tc_vlan.h) carry the ports' addresses and the router's neighbours; rut0 and
 * rut1 themselves keep none, route nothing (rp_filter strict, IPv6 off on them), so an
 * untagged frame or one of another VLAN is not forwarded by the namespace's kernel.
 * Every operation is idempotent; down removes whatever exists, also after a crash.
 * The veths have one queue each unless asked for more (lab_up_opts.queues).
 * XDP: up detaches leftovers on the lab's interfaces — an xdp: port's program
 * (ppslab_xsk) that no process holds any more — and down detaches every XDP program
 * there before removing the namespaces. */
#ifndef PPSLAB_ANALYSIS_RUNNER_LAB_H
#define PPSLAB_ANALYSIS_RUNNER_LAB_H

#include <stdbool.h>

#define LAB_DEFAULT_NAME "ppslab"
#define LAB_NAME_MAX 24

enum lab_role { LAB_GEN, LAB_RUT, LAB_SINK, LAB_ROLES };

struct lab_if {
	enum lab_role role;
	const char *ifname;
	const char *mac;
	const char *addr;      /* with prefix length */
	const char *ip;
	const char *addr6;     /* IPv6, from 2001:2::/48 (RFC 5180): one /64 per link */
	const char *ip6;
};

/* The four interfaces, in order gen0, rut0, rut1, sink0. */
extern const struct lab_if lab_ifs[4];
const char *lab_role_name(enum lab_role r);

/* "NAME-gen" etc. into buf. */
void lab_ns_name(const char *name, enum lab_role r, char *buf, int len);
/* 0 if name is acceptable ([A-Za-z0-9_.-], 1..24, not starting with '-' or '.'). */
int lab_name_check(const char *name);

#define LAB_QUEUES_MAX 64
#define LAB_SENDERS_MAX 8

/* The namespace of sender k (0-based): NAME-gen, NAME-gen2, ... */
void lab_gen_ns(const char *name, int k, char *buf, int len);

struct lab_up_opts {
	bool shield;           /* default true */
	int queues;            /* transmit and receive queues of every veth, 1..LAB_QUEUES_MAX:
				* a pair with another count is re-created; 0 = keep what
				* exists, 1 for a new pair. One queue per sender thread lets
				* veth receive each thread's frames on its own CPU (XDP runs
				* per receive queue) */
	int senders;           /* sender namespaces 1..LAB_SENDERS_MAX; 0 = keep what exists,
				* 1 for a new lab */
	int vlan;              /* the router's ports on VLAN vlan (1..4094): subinterfaces
				* rut0.V and rut1.V carry the ports' addresses, neighbours
				* and the kernel's forwarding (a real 802.1Q device where the
				* kernel has one, else emulated: lib/tc_vlan.h); LAB_VLAN_NONE:
				* untagged ports; 0 = keep what exists (untagged for a new
				* lab) */
};
#define LAB_VLAN_NONE (-1)

/* All return 0 or -errno and log what failed. */
int lab_up(const char *name, const struct lab_up_opts *o);
int lab_down(const char *name);
/* Turns the shield on or off in one namespace (role) or all (role == LAB_ROLES). */
int lab_shield(const char *name, enum lab_role role, bool on);

#define LAB_PROBLEMS_MAX 32

struct lab_status {
	bool ns[LAB_ROLES];
	bool if_ok[4];         /* present, up (and its carrier), addressed */
	int queues[4];         /* transmit queues of each interface (0: missing) */
	bool shield[LAB_ROLES];
	bool complete;
	bool any;
	int senders;           /* sender namespaces in use (1, or the bridge's count) */
	bool gen_ok[LAB_SENDERS_MAX];   /* sender k's namespace and gen0 up, addressed */
	int vlan;              /* the VLAN of the router's ports (rut0.V, rut1.V), 0: none */
	bool vlan_emulated;    /* its subinterfaces are veth + tc BPF, not 802.1Q devices */
	/* What is broken, one sentence each: an interface missing, down or without carrier,
	 * without its address; a permanent neighbour missing or wrong (taking a link down
	 * and up deletes them, and then nothing is forwarded); a route through the router
	 * missing; a shield off. Any of them makes the lab incomplete; lab_up() repairs
	 * them all. */
	char problem[LAB_PROBLEMS_MAX][192];
	int nproblems;
	char in_use[160];      /* "pid N, started UTC" of the run holding the lab, or "" */
};
/* A process of ours (ppslab-gen, -sink, -rut) inside the lab's namespaces. */
struct lab_proc {
	int pid;
	char comm[16];
	char ns[64];
};
#define LAB_PROCS_MAX 32
/* The ppslab tools running inside the lab's namespaces (at most max into out): with no
 * run holding the lab (lab_lock_path) they are strays, e.g. a forwarder left by a
 * runner killed with SIGKILL, still bound to the lab's ports. Returns how many, or
 * -errno. */
int lab_procs(const char *name, struct lab_proc *out, int max);
/* The lock a run holds on the lab while it uses it: /run/ppslab/lab-NAME.lock. */
#define LAB_LOCK_DIR "/run/ppslab"
void lab_lock_path(const char *name, char *buf, int len);
/* Whether a run holds the lab's lock now; who (its "pid N, started UTC") into who. */
bool lab_in_use(const char *name, char *who, int wholen);

/* Reads the lab's state: namespaces, interfaces, addresses, neighbours, routes and
 * shields (see problem[]), and, when no run holds it, ppslab tools left running in it
 * (lab_procs). 0 or -EINVAL (a bad name). */
int lab_status(const char *name, struct lab_status *st);

#endif
