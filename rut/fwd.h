/* SPDX-License-Identifier: BSD-2-Clause */
/* fwd.h — the forwarding engine of ppslab-rut: ports, one burst of IPv4 and IPv6 routing
 * or L2 bridging, and the counters.
 *
 * fwd_burst(f, in, max) reads up to max frames from port `in` and forwards them.
 * Router (default): IPv4 header checks (malformed frames are counted and dropped; IP
 * options and fragments are valid IPv4 and forwarded), the firewall's inbound pass
 * (recv = ingress port), TTL (1 or 0 is counted as expired and dropped), longest-prefix
 * route, the outbound pass (xmit = egress port), the neighbour's MAC, TTL decrement with
 * an RFC 1624 checksum update, source MAC of the egress port, one transmit burst per
 * egress port. IPv6: header checks, the firewall's inbound pass, packets for the
 * router or multicast delivered locally, hop limit (1 or 0: dropped as ttl_expired and an ICMPv6 time
 * exceeded sent back, RFC 4443 3.3), longest-prefix route, the outbound pass,
 * neighbour, decrement, MAC rewrite (docs/forwarder.md#ipv6). Bridge (--l2): every frame goes unchanged to the other port; IPv4 frames
 * pass the firewall the same two ways, malformed IPv4 is dropped, other protocols are
 * bridged. A frame the egress ring cannot take is dropped and counted there (a router
 * does not block its input on a full output queue).
 *
 * Every frame read is either forwarded or dropped for exactly one cause, so per port
 * rx_pkts = fwd_pkts + the drops counted against it (drop_txfull is counted against the
 * ingress port too). Counters are 64-bit, per forwarding thread and port, written only
 * by their thread with relaxed atomics, read (and summed) by anyone. Scheduling (poll,
 * intr, busy) decides when and with what max fwd_burst is called; this module does
 * not loop or sleep.
 *
 * Threads: forwarding thread i owns receive queue i of every port and transmit queue i
 * (its own socket on each port: a member of the port's AF_PACKET fanout group, in the
 * kernel's flow-hash mode, or an AF_XDP socket bound to queue i), its counters and its
 * burst arrays; the routing, neighbour and firewall tables are shared and only read on
 * the forwarding path (the firewall's rule set once per burst: fw_rules_get). */
#ifndef PPSLAB_RUT_FWD_H
#define PPSLAB_RUT_FWD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "port.h"
#include "route.h"
#include "vlan.h"

#define FWD_MAX_PORTS 8
#define FWD_MAX_THREADS 64
#define FWD_BURST_MAX 1024
/* RX ring slots per port: 16,384 frames absorb 0.3 s of scheduling stalls at 50 kpps
 * before the kernel drops ("Missed Packets") */
#define FWD_RING_FRAMES 16384

/* Why a frame read from a port was not forwarded. */
enum fwd_drop {
	FWD_DROP_TXFULL,      /* egress ring full: the "Receive No Buffers" analogue */
	FWD_DROP_MALFORMED,   /* truncated, bad IP header checksum or lengths; IPv6: version
			       * not 6, payload length 0 or past the frame, a multicast
			       * source, an unspecified one to be forwarded */
	FWD_DROP_NOT_IP4,     /* router mode: neither IPv4 nor IPv6 (ARP, ...) */
	FWD_DROP_TTL,         /* TTL expired (no ICMP time exceeded is sent); IPv6 hop limit
			       * expired (an ICMPv6 time exceeded is sent) */
	FWD_DROP_NO_ROUTE,    /* IPv6 also: a link-local source or destination not ours
			       * (beyond its scope) */
	FWD_DROP_NO_NEIGH,
	FWD_DROP_FW_DENY,     /* firewall deny (and reject/unreach/reset: counted apart) */
	FWD_DROP_FW_UNREACH,  /* reject / unreach CODE (an ICMP unreachable is sent back) */
	FWD_DROP_FW_RESET,    /* reset (a TCP RST is sent back) */
	FWD_DROP_FW_TINYFRAG, /* ipfw before any rule: TCP fragment at offset 1 (RFC 3128) */
	FWD_DROP_FW_TRUNCATED,/* ipfw before any rule: TCP/UDP/SCTP/ICMP header cut short
			       * (IPv6: an extension header or ICMPv6's too) */
	FWD_DROP_LINK_DOWN,   /* the egress link was down (not up, or no carrier) */
	FWD_DROP_PORT_GONE,   /* the egress interface was deleted (or renumbered) */
	FWD_DROP_LOCAL,       /* addressed to the router itself: delivered to its own stack
			       * after the inbound pass (ip_input), not forwarded */
	FWD_DROP_FW_EXTHDR,   /* ipfw before any rule: an IPv6 extension header it does not
			       * know (net.inet6.ip6.fw.deny_unknown_exthdrs) */
	/* tags (docs/forwarder.md#vlans; FreeBSD counts the first two as the interface's
	 * noproto, a tag cut short is malformed) */
	FWD_DROP_VLAN_TAGGED,   /* a tagged frame on an untagged port (no vlan trunk) */
	FWD_DROP_VLAN_UNKNOWN,  /* a VLAN id not the trunk port's */
	FWD_DROP_VLAN_UNTAGGED, /* an untagged or priority-tagged frame on a trunk port */
	FWD_DROP_COUNT
};

/* Why a reset/unreach rule's reply was not sent (counted against the ingress port).
 * SUPPRESSED: FreeBSD sends none either (ipfw_chk O_REJECT, icmp_error, send_reject:
 * a fragment, broadcast or multicast, an ICMP error or an RST, reset on a non-TCP
 * packet, a bad source); the others are the forwarder's: no route back, no address to
 * send from, no neighbour, the outbound pass denied it, net.inet.ip.fw.reply_limit,
 * the egress ring full. */
enum fwd_reply_skip {
	FWD_RS_SUPPRESSED, FWD_RS_NO_ROUTE, FWD_RS_NO_SOURCE, FWD_RS_NO_NEIGH, FWD_RS_FW_DENY,
	FWD_RS_LIMIT, FWD_RS_TXFULL, FWD_RS_COUNT
};
const char *fwd_reply_skip_name(enum fwd_reply_skip r);

/* JSON names of the causes ("txfull", "malformed", ... as the skeleton named them). */
const char *fwd_drop_name(enum fwd_drop d);

/* fwd_port_ctr as plain numbers (a sum over the threads) */
struct fwd_port_ctr_sum {
	uint64_t rx_pkts, rx_bytes, rx_bursts, tx_pkts, tx_bytes, fwd_pkts;
	uint64_t drops[FWD_DROP_COUNT];
	uint64_t rst_sent, unreach_sent, reply_skip[FWD_RS_COUNT], kernel_drops;
	uint64_t tx_errors, link_downs;
	uint64_t echo_sent, port_unreach_sent;
	uint64_t ip6_rx_pkts, ip6_fwd_pkts, timex6_sent;
};

struct fwd_port_ctr {
	_Atomic uint64_t rx_pkts, rx_bytes;   /* read from the port */
	_Atomic uint64_t rx_bursts;           /* reads that returned frames (avg batch) */
	_Atomic uint64_t tx_pkts, tx_bytes;   /* accepted by this port's egress ring */
	_Atomic uint64_t fwd_pkts;            /* read here and accepted by an egress ring */
	_Atomic uint64_t drops[FWD_DROP_COUNT]; /* read here and dropped, by cause */
	_Atomic uint64_t rst_sent, unreach_sent; /* replies sent out of this port (in tx_*) */
	_Atomic uint64_t echo_sent, port_unreach_sent; /* the router's own answers to packets
							 * for it: echo replies, UDP port
							 * unreachables (in tx_*) */
	_Atomic uint64_t reply_skip[FWD_RS_COUNT]; /* replies to frames read here not sent */
	_Atomic uint64_t kernel_drops;        /* RX ring overflow in the kernel, PACKET_STATISTICS:
					       * the "Missed Packets" analogue (published by
					       * fwd_refresh_kernel) */
	_Atomic uint64_t tx_errors;           /* frames this port's socket refused: they never
					       * reached the wire (port_stats, published by
					       * fwd_refresh_kernel) */
	_Atomic uint64_t link_downs;          /* times this thread found the link down or
					       * the interface gone (fwd_link_check) */
	_Atomic uint64_t ip6_rx_pkts;         /* IPv6 frames read here (in rx_pkts) */
	_Atomic uint64_t ip6_fwd_pkts;        /* of those, accepted by an egress ring (in
					       * fwd_pkts) */
	_Atomic uint64_t timex6_sent;         /* ICMPv6 time exceeded sent out of this port
					       * (in tx_*) */
};

/* An egress port's link as fwd_link_check last saw it. */
enum fwd_link { FWD_LINK_UP, FWD_LINK_DOWN, FWD_LINK_GONE };

struct fwd_port {
	struct port *port;     /* thread 0's socket (names, readiness) */
	char ifname[32];
	uint8_t mac[6];
	uint32_t ip;           /* network order, 0 if none */
	uint8_t plen;
	uint8_t ip6[16];       /* its first global IPv6 address, all zero if none */
	uint8_t plen6;
	uint8_t ll6[16];       /* its link-local address, all zero if none */
	int ifindex;           /* at open; another index later means the port was deleted */
	struct vlan_port vlan; /* its tags: untagged, or a vlan interface on a trunk */
	char name[16];         /* the interface as the router sees it: ifname, or its vlan
				* interface's (rut0.100): the firewall's, routes' and
				* neighbours' name of the port */
};

struct fw;
struct fw_rules;
struct fwlog;
struct burst;
struct fwd;

/* One forwarding thread's share: its socket of each port, its counters. */
struct fwd_thr {
	struct fwd *f;
	int id;
	struct port *port[FWD_MAX_PORTS];
	struct fwd_port_ctr ctr[FWD_MAX_PORTS];
	/* frames each rule number denied (terminal deny/reject/unreach/reset), counted by
	 * the forwarder whatever net.inet.ip.fw.update_counters says; 65536 entries */
	_Atomic uint64_t *denied_by_rule;
	struct burst *scratch;        /* the per-burst arrays */
	const struct fw_rules *rs;    /* the rule set of the burst in progress */
	uint16_t ip_id;               /* ip_fillid(): the replies' IP ids, a counter per CPU */
	uint64_t now_ns;              /* CLOCK_MONOTONIC at the burst's start */
	uint8_t link[FWD_MAX_PORTS];  /* enum fwd_link of each port, as this thread last
				       * checked: frames for a port not up are dropped and
				       * counted (link_down, port_gone), not queued */
	int ifq_fd;                   /* a socket for the link's flags (ioctl), or -1 */
	uint64_t fault_n;             /* frames to send seen by the test-only fault */
	/* CLOCK_REALTIME when this thread first handed a frame to an egress port (0:
	 * none yet), and when its loop ended (0: running): a restart's down time on the
	 * sink's clock (docs/forwarder.md#statistics-and-json) */
	_Atomic uint64_t first_fwd_real_ns, end_real_ns;
};

struct fwd {
	struct fwd_port ports[FWD_MAX_PORTS];
	int nports;
	int nthr;
	struct fwd_thr *thr[FWD_MAX_THREADS];
	bool l2;                      /* bridge instead of route */
	struct rt *rt;
	struct nt *nt;
	struct fw *fw;                /* NULL: no firewall */
	struct fwlog *log;            /* its log lines' queue (counters in the stats), or NULL */
	_Atomic uint32_t reply_sec, reply_n;  /* net.inet.ip.fw.reply_limit's window */
	/* badport_bandlim(): net.inet.icmp.icmplim's window, per kind (echo, unreach), and
	 * icmp6_ratelimit(): net.inet6.icmp6.errppslimit's */
	_Atomic uint32_t bl_sec[3], bl_n[3];
	/* A fault for the test suite only (PPSLAB_RUT_FAULT_DROP_EVERY, main.c): every Nth
	 * frame to send is discarded yet counted as sent, a broken forwarder whose loss no
	 * counter shows; the integration tests' books must catch it. 0: off. */
	uint32_t fault_drop_every;
};

/* Opens the ports (specs) for frames up to frame_max bytes (without FCS), one socket
 * per port for each of nthr threads (nthr > 1: afpacket: or xdp: ports), reads their
 * MAC/IPv4, adds connected routes and loads the system's neighbours for each. vlans
 * (n of them, or NULL: all untagged) says each port's tags; a trunk port's addresses
 * and neighbours are read from the host's interface of its vlan name when there is
 * one (rut0.100), else from the port's own. The caller adds its routes and
 * neighbours, then calls fwd_ready. 0 or -errno with a message in err. */
int fwd_init(struct fwd *f, const char *const *specs, int n, uint32_t frame_max, int nthr,
	     const struct vlan_port *vlans, char *err, size_t errlen);
/* A forwarder of one thread without ports, around fw (tests drive its commands). */
int fwd_init_detached(struct fwd *f, struct fw *fw);
/* Compiles the routing table; forwarding may start. 0 or -ENOMEM. */
int fwd_ready(struct fwd *f);
/* Hands the firewall to the forwarder: every forwarded IPv4 packet passes it twice,
 * in on the receiving port and out on the transmitting one (while
 * net.inet.ip.fw.enable is 1); fwd_fini frees it. 0 or -ENOMEM. */
int fwd_set_fw(struct fwd *f, struct fw *fw);
void fwd_fini(struct fwd *f);
/* One burst from port `in` on thread t; returns frames read (>= 0) or -errno. */
int fwd_burst(struct fwd_thr *t, int in, int max);
/* Sends what t's sockets hold back of earlier bursts (port_flush): the loops call it
 * when a pass over the ports found nothing more to read. */
void fwd_flush(struct fwd_thr *t);
/* Reads t's sockets' kernel drop counters into its ctr[].kernel_drops (thread t only:
 * reading PACKET_STATISTICS resets the kernel's count). */
void fwd_refresh_kernel(struct fwd_thr *t);
/* The dynamic states' clock and expiry sweep when no packet comes (a state expires on
 * time on an idle forwarder, as dyn_tick's callout does); thread 0 only. */
void fwd_fw_tick(struct fwd *f);

/* Sums over the ports. */
struct fwd_totals {
	uint64_t rx_pkts, rx_bytes, rx_bursts, tx_pkts, tx_bytes, fwd_pkts, drop_pkts, kernel_drops;
	uint64_t tx_errors, link_downs;
	uint64_t drops[FWD_DROP_COUNT];
	uint64_t rst_sent, unreach_sent, reply_skip[FWD_RS_COUNT];
	uint64_t echo_sent, port_unreach_sent;
	uint64_t ip6_rx_pkts, ip6_fwd_pkts, timex6_sent;
};
void fwd_totals(const struct fwd *f, struct fwd_totals *t);
/* Reads the links' state of every port (two ioctls each) into t->link, counting each
 * change away from up in link_downs. Called between bursts every few ms by the
 * scheduling loop: frames for a link that went down are then counted as link_down or
 * port_gone instead of filling the egress ring (where they would count as sent and
 * never leave). */
void fwd_link_check(struct fwd_thr *t);
/* Thread t's, over the ports. */
void fwd_thr_totals(const struct fwd_thr *t, struct fwd_totals *tot);
/* Port i's counters summed over the threads. */
void fwd_port_sum(const struct fwd *f, int i, struct fwd_port_ctr_sum *c);
/* The frames rule number k denied, over the threads. */
uint64_t fwd_denied(const struct fwd *f, int k);

#endif
