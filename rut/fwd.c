/* SPDX-License-Identifier: BSD-2-Clause */
/* fwd.c — IPv4 forwarding and L2 bridging of one burst (see fwd.h). Called by the
 * scheduling loops in fwdloop.c for each ingress port; no allocation, no system calls
 * besides the ports' (and fwd_link_check's, between bursts). */
#include "fwd.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/icmp6.h>
#include <netinet/ip6.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "clock.h"
#include "csum.h"
#include "fw.h"
#include "ifinfo.h"
#include "pkt.h"
#include "relaxed.h"

static const char *const drop_names[FWD_DROP_COUNT] = {
	[FWD_DROP_TXFULL] = "txfull",
	[FWD_DROP_MALFORMED] = "malformed",
	[FWD_DROP_NOT_IP4] = "not_ip4",
	[FWD_DROP_TTL] = "ttl_expired",
	[FWD_DROP_NO_ROUTE] = "no_route",
	[FWD_DROP_NO_NEIGH] = "no_neigh",
	[FWD_DROP_FW_DENY] = "fw_deny",
	[FWD_DROP_FW_UNREACH] = "fw_unreach",
	[FWD_DROP_FW_RESET] = "fw_reset",
	[FWD_DROP_FW_TINYFRAG] = "fw_tiny_frag",
	[FWD_DROP_FW_TRUNCATED] = "fw_truncated",
	[FWD_DROP_LINK_DOWN] = "link_down",
	[FWD_DROP_PORT_GONE] = "port_gone",
	[FWD_DROP_LOCAL] = "local",
	[FWD_DROP_FW_EXTHDR] = "fw_ext_hdr",
	[FWD_DROP_VLAN_TAGGED] = "vlan_tagged",
	[FWD_DROP_VLAN_UNKNOWN] = "vlan_unknown",
	[FWD_DROP_VLAN_UNTAGGED] = "vlan_untagged",
};

static const char *const skip_names[FWD_RS_COUNT] = {
	[FWD_RS_SUPPRESSED] = "suppressed", [FWD_RS_NO_ROUTE] = "no_route",
	[FWD_RS_NO_SOURCE] = "no_source",   [FWD_RS_NO_NEIGH] = "no_neigh",
	[FWD_RS_FW_DENY] = "fw_deny",	    [FWD_RS_LIMIT] = "limit",
	[FWD_RS_TXFULL] = "txfull",
};

const char *fwd_reply_skip_name(enum fwd_reply_skip r)
{
	return (unsigned)r < FWD_RS_COUNT ? skip_names[r] : "unknown";
}

const char *fwd_drop_name(enum fwd_drop d)
{
	return (unsigned)d < FWD_DROP_COUNT ? drop_names[d] : "unknown";
}

/* The replies: of reset and unreach rules, and the router's own to packets for it. */
enum rkind { RK_RST, RK_UNREACH, RK_ECHO, RK_PORT, RK_TIMEX6, RK_N };

/* What one burst collected: the frames read, frames per egress port and drops by cause.
 * One per forwarder (allocated with it, used only by the forwarding thread): nothing
 * this size belongs on the stack of a per-burst call. */
/* 14 + 20 + 8 + a quote of 60 + 548 bytes for IPv4; an ICMPv6 error fills the IPv6
 * minimum MTU (RFC 4443 2.4 (c)): 14 + 1280, rounded up */
#define REPLY_MAX 1296
/* room in front of a reply for the tags of a trunk port it may leave by (vlan_push) */
#define REPLY_HEAD 8
struct burst {
	struct port_pkt rx[FWD_BURST_MAX];
	struct port_pkt out[FWD_MAX_PORTS][FWD_BURST_MAX];
	int nout[FWD_MAX_PORTS];
	uint64_t drops[FWD_DROP_COUNT];
	/* replies of reset/unreach rules, by the port they leave by */
	struct port_pkt rep[FWD_MAX_PORTS][FWD_BURST_MAX];
	uint8_t rep_kind[FWD_MAX_PORTS][FWD_BURST_MAX];   /* enum rkind */
	int nrep[FWD_MAX_PORTS];
	int nbuf;
	int n6;      /* IPv6 frames read in this burst */
	uint32_t tagb;   /* bytes of tags taken off the frames read, and of the frames a
			  * trunk port dropped before the loop (rx_bytes counts them) */
	int gone;        /* frames a trunk port dropped before the loop (in rx_pkts) */
	bool fwon;   /* the firewall is consulted in this burst */
	uint64_t skip[FWD_RS_COUNT];
	uint8_t buf[FWD_BURST_MAX][REPLY_HEAD + REPLY_MAX];
};

/* the next reply's buffer, with room for tags in front */
static inline uint8_t *reply_buf(struct burst *b)
{
	return b->buf[b->nbuf] + REPLY_HEAD;
}

/* the firewall is consulted in the burst in progress (fw_on() said so) */
static inline bool fw_on_now(const struct fwd_thr *t)
{
	return t->scratch->fwon;
}

static struct fwd_thr *thr_new(struct fwd *f, int id)
{
	struct fwd_thr *t = aligned_alloc(64, (sizeof(*t) + 63) / 64 * 64);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->id = id;
	t->scratch = malloc(sizeof(struct burst));
	t->denied_by_rule = calloc(65536, sizeof(*t->denied_by_rule));
	t->ip_id = (uint16_t)(mono_ns() >> 10) + (uint16_t)(id * 4099);
	/* in the forwarder's namespace, where its ports are: a link's flags by name */
	t->ifq_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!t->scratch || !t->denied_by_rule) {
		if (t->ifq_fd >= 0)
			close(t->ifq_fd);
		free(t->scratch);
		free((void *)(uintptr_t)t->denied_by_rule);   /* free() takes no _Atomic pointer */
		free(t);
		return NULL;
	}
	return t;
}

int fwd_init_detached(struct fwd *f, struct fw *fw)
{
	memset(f, 0, sizeof(*f));
	f->fw = fw;
	if (!(f->thr[0] = thr_new(f, 0)))
		return -ENOMEM;
	f->nthr = 1;
	return 0;
}

/* The first of the n port specs whose backend is neither afpacket: nor xdp: (what
 * threads and trunks need), its backend in be; n when there is none, -errno on a bad
 * spec (err says why). */
static int first_not_ring(const char *const *specs, int n, char be[16], char *err,
			  size_t errlen)
{
	for (int i = 0; i < n; i++) {
		char tg[64];
		int rc = port_spec_parse(specs[i], be, tg, err, errlen);
		if (rc)
			return rc;
		if (strcmp(be, "afpacket") && strcmp(be, "xdp"))
			return i;
	}
	return n;
}

/* Threads need a socket per queue: a fanout group member (afpacket:) or an AF_XDP
 * socket on queue i (xdp:); pcap: has neither. */
static int check_thread_specs(const char *const *specs, int n, int nthr, char *err, size_t errlen)
{
	char be[16];
	int i = nthr > 1 ? first_not_ring(specs, n, be, err, errlen) : n;
	if (i < 0 || i == n)
		return i < 0 ? i : 0;
	snprintf(err, errlen, "%d threads need afpacket: (a fanout group per port) or xdp: ports "
		 "(a socket per queue); '%s' is %s", nthr, specs[i], be);
	return -EINVAL;
}

static bool zero16(const uint8_t a[16])
{
	static const uint8_t z[16];
	return !memcmp(a, z, 16);
}

/* The port's IPv6 addresses: its first global one with its prefix length, and its
 * link-local one. 0 when it has a global address, else -ENOENT. */
static int port_ip6(struct fwd_port *p, const char *ifname)
{
	struct ifaddrs *ifa, *x;
	if (getifaddrs(&ifa))
		return -errno;
	for (x = ifa; x; x = x->ifa_next) {
		if (!x->ifa_addr || x->ifa_addr->sa_family != AF_INET6 || strcmp(x->ifa_name, ifname))
			continue;
		const uint8_t *a = ((const struct sockaddr_in6 *)(const void *)x->ifa_addr)->sin6_addr.s6_addr;
		if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) {
			if (zero16(p->ll6))
				memcpy(p->ll6, a, 16);
			continue;
		}
		if (!zero16(p->ip6) || a[0] == 0xff)
			continue;
		memcpy(p->ip6, a, 16);
		unsigned pl = 0;
		if (x->ifa_netmask) {
			const uint8_t *m = ((const struct sockaddr_in6 *)(const void *)x->ifa_netmask)->sin6_addr.s6_addr;
			for (int b = 0; b < 128 && (m[b / 8] & (0x80u >> (b % 8))); b++)
				pl++;
		}
		p->plen6 = (uint8_t)pl;
	}
	freeifaddrs(ifa);
	return zero16(p->ip6) ? -ENOENT : 0;
}

/* A trunk port's tags are put in front of a frame in place: the backends that keep room
 * there (afpacket's ring slot, AF_XDP's headroom) carry the frames of every port. */
static int check_vlan_specs(const char *const *specs, int n, const struct vlan_port *vlans,
			    char *err, size_t errlen)
{
	bool any = false;
	for (int i = 0; vlans && i < n; i++)
		any |= vlans[i].ntags != 0;
	char be[16];
	int i = any ? first_not_ring(specs, n, be, err, errlen) : n;
	if (i < 0 || i == n)
		return i < 0 ? i : 0;
	snprintf(err, errlen, "--vlan: a trunk needs afpacket: or xdp: ports (room for the tags "
		 "in front of each frame); '%s' is %s", specs[i], be);
	return -EINVAL;
}

int fwd_init(struct fwd *f, const char *const *specs, int n, uint32_t frame_max, int nthr,
	     const struct vlan_port *vlans, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->rt = rt_new();
	f->nt = nt_new();
	if (!f->rt || !f->nt)
		return -ENOMEM;
	if (n > FWD_MAX_PORTS) {
		snprintf(err, errlen, "at most %d ports", FWD_MAX_PORTS);
		return -EINVAL;
	}
	if (nthr < 1 || nthr > FWD_MAX_THREADS) {
		snprintf(err, errlen, "1..%d threads", FWD_MAX_THREADS);
		return -EINVAL;
	}
	int rc = check_thread_specs(specs, n, nthr, err, errlen);
	if (!rc)
		rc = check_vlan_specs(specs, n, vlans, err, errlen);
	if (rc)
		return rc;
	for (int t = 0; t < nthr; t++) {
		if (!(f->thr[t] = thr_new(f, t)))
			return -ENOMEM;
		f->nthr = t + 1;
	}
	for (int i = 0; i < n; i++) {
		struct fwd_port *p = &f->ports[i];
		/* a fanout group per port, so that the kernel spreads its flows over the
		 * threads' sockets; joined in thread order and gated until complete */
		uint16_t group = (uint16_t)(((unsigned)getpid() * 13u + (unsigned)i + 1) & 0xffffu);
		for (int t = 0; t < nthr; t++) {
			/* per-frame delivery: a V3 block would hold frames back until it retires;
			 * linear TX skbs: a frame referencing ring pages is copied out again into
			 * a fresh page by the veth peer (skb_copy_ubufs), 10-20% of the
			 * forwarding CPU at 64 bytes */
			struct port_cfg pc = { .dir = PORT_RX | PORT_TX, .frame_max = frame_max,
					       .ring_frames = FWD_RING_FRAMES, .rx_per_frame = 1,
					       .tx_linear = 1,
					       /* xdp: thread t binds queue t */
					       .queue_offset = (uint16_t)t,
					       /* xdp: one UMEM for a thread's ports: forwarding
						* without a copy */
					       .share = i ? f->thr[t]->port[0] : NULL };
			if (nthr > 1) {
				pc.fanout_id = group ? group : 1;
				pc.rx_gated = 1;
			}
			rc = port_open(specs[i], &pc, &f->thr[t]->port[i], err, errlen);
			if (rc)
				return rc;
		}
		p->port = f->thr[0]->port[i];
		f->nports = i + 1;
		if (port_layer(p->port) != PORT_L2) {
			snprintf(err, errlen, "%s: the forwarder needs an Ethernet port", specs[i]);
			return -EINVAL;
		}
		snprintf(p->ifname, sizeof(p->ifname), "%s", port_ifname(p->port));
		if (if_hwaddr(p->ifname, p->mac)) {
			snprintf(err, errlen, "%s: cannot read its MAC address", p->ifname);
			return -ENODEV;
		}
		p->ifindex = (int)if_nametoindex(p->ifname);
		if (vlans)
			p->vlan = vlans[i];
		if (vlan_ifname(p->ifname, &p->vlan, p->name, sizeof(p->name))) {
			snprintf(err, errlen, "--vlan: the vlan interface of %s would be named longer "
				 "than %zu characters (IFNAMSIZ)", p->ifname, sizeof(p->name) - 1);
			return -ENAMETOOLONG;
		}
		/* the addresses and neighbours of the interface the router routes on: a
		 * trunk port's vlan interface when the host has one of that name */
		const char *l3 = p->name;
		int l3index = p->vlan.ntags ? (int)if_nametoindex(p->name) : p->ifindex;
		if (!l3index) {
			l3 = p->ifname;
			l3index = p->ifindex;
		}
		if (if_ip4(l3, &p->ip, &p->plen) == 0) {
			rt_add(f->rt, p->ip, p->plen, 0, i);
			nt_load_system(f->nt, i, l3);
		}
		if (port_ip6(p, l3) == 0)
			rt6_add(f->rt, p->ip6, p->plen6, NULL, i);
		if (l3index)
			nt6_load_system(f->nt, i, l3index);
	}
	for (int i = 0; i < n; i++)
		for (int t = 0; t < nthr; t++)
			if ((rc = port_rx_open(f->thr[t]->port[i]))) {
				snprintf(err, errlen, "%s: opening the fanout gate: %s", specs[i],
					 strerror(-rc));
				return rc;
			}
	return 0;
}

int fwd_ready(struct fwd *f)
{
	return rt_build(f->rt);
}

int fwd_set_fw(struct fwd *f, struct fw *fw)
{
	f->fw = fw;
	return fw_set_threads(fw, f->nthr);
}

void fwd_fini(struct fwd *f)
{
	for (int t = 0; t < f->nthr; t++) {
		struct fwd_thr *th = f->thr[t];
		if (!th)
			continue;
		for (int i = 0; i < FWD_MAX_PORTS; i++)
			port_close(th->port[i]);
		free((void *)(uintptr_t)th->denied_by_rule);   /* free() takes no _Atomic pointer */
		if (th->ifq_fd >= 0)
			close(th->ifq_fd);
		free(th->scratch);
		free(th);
		f->thr[t] = NULL;
	}
	f->nthr = 0;
	f->nports = 0;
	rt_free(f->rt);
	nt_free(f->nt);
	fw_free(f->fw);
	f->fw = NULL;
	f->rt = NULL;
	f->nt = NULL;
}


/* The test-only fault (fwd.h): takes every fault_drop_every-th frame out of the n to
 * send, leaving no trace; returns how many it took. */
static int fault_drop(struct fwd_thr *t, struct port_pkt *out, int *n)
{
	int k = 0, gone = 0;
	for (int i = 0; i < *n; i++) {
		if (++t->fault_n % t->f->fault_drop_every == 0) {
			gone++;
			continue;
		}
		out[k++] = out[i];
	}
	*n = k;
	return gone;
}

/* The tags of trunk port v on n frames about to be sent, built once for the burst (out
 * of line: an untagged port never calls it). */
static __attribute__((noinline)) void push_tags(const struct vlan_port *v, struct port_pkt *pk,
						int n)
{
	uint8_t tags[8];
	unsigned add = vlan_tags(v, tags);
	for (int i = 0; i < n; i++)
		vlan_push_tags(tags, add, &pk[i]);
}

static void burst_flush(struct fwd_thr *t, int in, struct burst *b, const struct port_pkt *rx,
			int n)
{
	const struct fwd *f = t->f;
	struct fwd_port_ctr *ic = &t->ctr[in];
	uint64_t rb = b->tagb, fwd = 0, fwd6 = 0;
	for (int k = 0; k < n; k++)
		rb += rx[k].len;
	relaxed_add(&ic->rx_pkts, (uint64_t)(n + b->gone));
	relaxed_add(&ic->rx_bytes, rb);
	relaxed_add(&ic->rx_bursts, 1);
	for (int o = 0; o < f->nports; o++) {
		if (!b->nout[o])
			continue;
		if (t->link[o] != FWD_LINK_UP) {   /* the ring would keep them, counted as sent */
			b->drops[t->link[o] == FWD_LINK_GONE ? FWD_DROP_PORT_GONE
							     : FWD_DROP_LINK_DOWN] += (uint64_t)b->nout[o];
			continue;
		}
		int lied = f->fault_drop_every ? fault_drop(t, b->out[o], &b->nout[o]) : 0;
		const struct vlan_port *vo = &f->ports[o].vlan;
		if (vo->ntags)   /* vlan_transmit(): the trunk's tags */
			push_tags(vo, b->out[o], b->nout[o]);
		int a = b->nout[o] ? port_fwd_burst(t->port[o], b->out[o], b->nout[o]) : 0;
		if (a < 0)
			a = 0;
		uint64_t tb = 0;
		for (int i = 0; i < a; i++)
			tb += b->out[o][i].len;
		if (b->n6)   /* the IPv6 frames among those the ring took */
			for (int i = 0; i < a; i++)
				fwd6 += b->out[o][i].data[12 + 4 * vo->ntags] == 0x86;
		struct fwd_port_ctr *oc = &t->ctr[o];
		b->drops[FWD_DROP_TXFULL] += (uint64_t)(b->nout[o] - a);
		a += lied;
		relaxed_add(&oc->tx_pkts, (uint64_t)a);
		relaxed_add(&oc->tx_bytes, tb);
		fwd += (uint64_t)a;
	}
	relaxed_add(&ic->fwd_pkts, fwd);
	if (fwd && !relaxed_get(&t->first_fwd_real_ns))   /* once a thread's life */
		relaxed_set(&t->first_fwd_real_ns, real_ns());
	if (b->n6) {
		relaxed_add(&ic->ip6_rx_pkts, (uint64_t)b->n6);
		relaxed_add(&ic->ip6_fwd_pkts, fwd6);
	}
	for (int d = 0; d < FWD_DROP_COUNT; d++)
		if (b->drops[d])
			relaxed_add(&ic->drops[d], b->drops[d]);
	for (int o = 0; o < f->nports; o++) {
		if (!b->nrep[o])
			continue;
		if (f->ports[o].vlan.ntags)
			push_tags(&f->ports[o].vlan, b->rep[o], b->nrep[o]);
		int a = port_tx_burst(t->port[o], b->rep[o], b->nrep[o]);
		if (a < 0)
			a = 0;
		uint64_t tb = 0, kn[RK_N] = { 0 };
		for (int i = 0; i < a; i++) {
			tb += b->rep[o][i].len;
			kn[b->rep_kind[o][i]]++;
		}
		struct fwd_port_ctr *oc = &t->ctr[o];
		relaxed_add(&oc->tx_pkts, (uint64_t)a);
		relaxed_add(&oc->tx_bytes, tb);
		relaxed_add(&oc->unreach_sent, kn[RK_UNREACH]);
		relaxed_add(&oc->rst_sent, kn[RK_RST]);
		if (kn[RK_ECHO])
			relaxed_add(&oc->echo_sent, kn[RK_ECHO]);
		if (kn[RK_PORT])
			relaxed_add(&oc->port_unreach_sent, kn[RK_PORT]);
		if (kn[RK_TIMEX6])
			relaxed_add(&oc->timex6_sent, kn[RK_TIMEX6]);
		b->skip[FWD_RS_TXFULL] += (uint64_t)(b->nrep[o] - a);
	}
	for (int k = 0; k < FWD_RS_COUNT; k++)
		if (b->skip[k])
			relaxed_add(&ic->reply_skip[k], b->skip[k]);
}

/* What the firewall needs of a parsed IPv4 packet (ipfw_chk's locals): addresses,
 * protocol, IP total length (the byte counter's unit: docs/design/ipfw.md#counters),
 * the bytes after the header (its pullup checks), ip_off, TTL, ports for
 * TCP/UDP/UDP-Lite/SCTP and TCP flags and ACK on fragment offset 0 (when the header is
 * there), ICMP type/code. */
static void fw_pkt_of(const struct pkt_info *pi, int recv_if, int tid, struct fw_pkt *p)
{
	const uint8_t *ip = pi->ip;
	unsigned ihl = (ip[0] & 0x0fu) * 4u;
	p->src = pi->src_ip;
	p->dst = pi->dst_ip;
	p->proto = pi->proto;
	p->ip_len = pi->ip_len;
	p->l4_len = (uint16_t)(pi->ip_len > ihl ? pi->ip_len - ihl : 0);
	p->ip_off = pkt_rd16(ip + 6);
	p->ttl = ip[8];
	p->frag = (p->ip_off & 0x1fff) != 0;
	const uint8_t *l4 = ip + ihl;
	p->has_ports = !p->frag && p->l4_len >= 4 &&
		       (p->proto == 6 || p->proto == 17 || p->proto == 132 || p->proto == 136);
	p->sport = p->has_ports ? pkt_rd16(l4) : 0;
	p->dport = p->has_ports ? pkt_rd16(l4 + 2) : 0;
	bool tcp = p->proto == 6 && !p->frag && p->l4_len >= 20;
	p->tcp_flags = tcp ? l4[13] : 0;
	p->tcp_ack = tcp ? (uint32_t)pkt_rd16(l4 + 8) << 16 | pkt_rd16(l4 + 10) : 0;
	p->icmp_type = p->icmp_code = 0;
	if (p->proto == 1 && !p->frag && p->l4_len >= 2) {
		p->icmp_type = l4[0];
		p->icmp_code = l4[1];
	}
	p->in = true;
	p->recv_if = recv_if;
	p->xmit_if = -1;
	p->tid = (uint8_t)tid;
	p->ip6 = p->ext_bad = p->cut = false;
	p->src6 = p->dst6 = NULL;
}

/* A pass that did not let the packet through: counted by cause, and by rule when a
 * rule decided. */
static inline void fw_drop(struct fwd_thr *t, struct burst *b, enum fw_verdict v, const struct fw_match *m)
{
	if (m->why != FW_WHY_RULE) {
		b->drops[m->why == FW_WHY_TINYFRAG ? FWD_DROP_FW_TINYFRAG
			 : m->why == FW_WHY_EXTHDR ? FWD_DROP_FW_EXTHDR : FWD_DROP_FW_TRUNCATED]++;
		return;
	}
	b->drops[v == FW_UNREACH ? FWD_DROP_FW_UNREACH
		 : v == FW_RESET ? FWD_DROP_FW_RESET : FWD_DROP_FW_DENY]++;
	relaxed_add(&t->denied_by_rule[m->rule_no & 0xffff], 1);
}

static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static bool is_my_address(const struct fwd *f, uint32_t a)
{
	for (int i = 0; i < f->nports; i++)
		if (f->ports[i].ip && f->ports[i].ip == a)
			return true;
	return false;
}

/* badport_bandlim(): at most net.inet.icmp.icmplim (200, FreeBSD's default) answers of
 * one kind (0 echo, 1 port unreachable) a second, for every thread together; kind 2,
 * icmp6_ratelimit(): net.inet6.icmp6.errppslimit (100) ICMPv6 errors a second */
#define ICMPLIM 200u
#define ICMP6ERRPPSLIM 100u
static bool bandlim(struct fwd *f, uint64_t now_ns, int kind)
{
	uint32_t lim = kind == 2 ? ICMP6ERRPPSLIM : ICMPLIM;
	uint32_t sec = (uint32_t)(now_ns / NS_PER_S);
	uint32_t was = atomic_load_explicit(&f->bl_sec[kind], memory_order_relaxed);
	if (sec != was && atomic_compare_exchange_strong(&f->bl_sec[kind], &was, sec))
		atomic_store(&f->bl_n[kind], 0);
	return atomic_fetch_add(&f->bl_n[kind], 1) >= lim;
}

/* The reply a reset or unreach rule sends for the frame fr read on port in, decided
 * and built by the firewall as FreeBSD does it (fw_reply.c: ip_fw2.c send_reject,
 * ip_icmp.c icmp_error/icmp_reflect), sent as ip_output does, queued on the port the
 * route back to the sender leaves by (the receiving one in a lab). Unlike the RST
 * (M_SKIP_FIREWALL), the ICMP error passes the outbound firewall on its way out. */
static void reply_to(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr,
		     const struct pkt_info *pi, enum fw_verdict v, uint16_t code, bool local);

/* A reply of the router's own through ip_output()'s outbound pass, on port o it leaves
 * by: false, counted as fw_deny, when the rule set denies it. */
static bool reply_out_pass(struct fwd_thr *t, struct burst *b, uint8_t *ip, unsigned len,
			   uint32_t src, uint32_t dst, int o)
{
	struct pkt_info ri = { .ip = ip, .ip_len = (uint16_t)len, .ttl = 64, .proto = 1,
			       .src_ip = src, .dst_ip = dst };
	struct fw_pkt fp;
	struct fw_match m;
	fw_pkt_of(&ri, -1, t->id, &fp);
	fp.in = false;
	fp.xmit_if = o;
	if (fw_eval_rs(t->f->fw, t->rs, &fp, &m) == FW_PASS)
		return true;
	b->skip[FWD_RS_FW_DENY]++;
	return false;
}

static void fw_reply(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr,
		     const struct pkt_info *pi, enum fw_verdict v, const struct fw_match *m)
{
	/* ipfw_chk O_UNREACH6 (unreach6, reset6) answers IPv6 only: the IPv4 packet is
	 * dropped without a reply (fw.h) */
	if (m->unreach6) {
		b->skip[FWD_RS_SUPPRESSED]++;
		return;
	}
	reply_to(t, b, in, fr, pi, v, m->icmp_code, false);
}

/* reply_limit: true when this second's lim replies of reset and unreach rules are gone
 * (one window for every thread: a second's allowance is the router's) */
static bool reply_over(struct fwd_thr *t, uint32_t lim)
{
	struct fwd *f = t->f;
	uint32_t sec = (uint32_t)(t->now_ns / NS_PER_S);
	uint32_t was = atomic_load_explicit(&f->reply_sec, memory_order_relaxed);
	if (sec != was && atomic_compare_exchange_strong(&f->reply_sec, &was, sec))
		atomic_store(&f->reply_n, 0);
	return atomic_fetch_add(&f->reply_n, 1) >= lim;
}

/* Every reply's last gates: reply_limit (lim; 0: none), then room in the burst. A
 * reply that does not pass, or skip already says why not, is counted by its cause. */
static bool reply_gates(struct fwd_thr *t, struct burst *b, enum fwd_reply_skip skip,
			uint32_t lim)
{
	if (skip == FWD_RS_COUNT && lim && reply_over(t, lim))
		skip = FWD_RS_LIMIT;
	if (skip == FWD_RS_COUNT && b->nbuf == FWD_BURST_MAX)
		skip = FWD_RS_TXFULL;
	if (skip != FWD_RS_COUNT) {
		b->skip[skip]++;
		return false;
	}
	return true;
}

/* local: udp_input's port unreachable for a datagram to us (icmp_error as for a rule,
 * but limited by badport_bandlim instead of reply_limit, and passing the outbound
 * firewall only while it is on). Whether FreeBSD answers, and the reply's IP packet,
 * are the firewall's (fw_reject_ok, fw_reject_build); the route, the limits, the frame
 * and the queue are the forwarder's. */
static void reply_to(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr,
		     const struct pkt_info *pi, enum fw_verdict v, uint16_t code, bool local)
{
	struct fwd *f = t->f;
	const uint8_t *ip = fr + PKT_IP_OFF;
	unsigned quote;
	enum fwd_reply_skip skip = FWD_RS_COUNT;
	/* the group bit of the destination MAC: a link-layer broadcast or multicast */
	if (!fw_reject_ok(ip, pi->ip_len, fr[0] & 1, v, &quote))
		skip = FWD_RS_SUPPRESSED;
	/* the route back to the sender (a bridge answers out of the receiving port) */
	int o = in;
	uint32_t nh = pi->src_ip;
	if (skip == FWD_RS_COUNT && !f->l2 && (o = rt_lookup(f->rt, pi->src_ip, &nh)) < 0)
		skip = FWD_RS_NO_ROUTE;
	uint32_t from = 0;
	if (skip == FWD_RS_COUNT && v == FW_UNREACH) {
		/* our address if it was sent to one, else the interface's toward the sender */
		from = is_my_address(f, pi->dst_ip) ? pi->dst_ip : f->ports[o].ip;
		if (!from)
			skip = FWD_RS_NO_SOURCE;
	}
	const uint8_t *mac = NULL;
	if (skip == FWD_RS_COUNT) {
		mac = o == in ? fr + 6 : nt_lookup(f->nt, o, nh);
		if (!mac)
			skip = FWD_RS_NO_NEIGH;
	}
	uint32_t lim = local ? 0 : fw_tunables(f->fw)->reply_limit;
	if (skip == FWD_RS_COUNT && local && bandlim(f, t->now_ns, 1))
		skip = FWD_RS_LIMIT;
	if (!reply_gates(t, b, skip, lim))
		return;
	uint8_t *r = reply_buf(b);
	memset(r, 0, 60);
	memcpy(r, mac, 6);
	memcpy(r + 6, f->ports[o].mac, 6);
	r[12] = 0x08;
	r[13] = 0x00;
	uint8_t *rip = r + PKT_IP_OFF;
	unsigned len = fw_reject_build(rip, ip, v, code, quote, from, t->ip_id++);
	if (v == FW_UNREACH && (!local || fw_on_now(t))) {
		/* ip_output(): the outbound pass, on the interface it leaves by */
		if (!reply_out_pass(t, b, rip, len, from, pi->src_ip, o))
			return;
	}
	b->nbuf++;
	unsigned flen = PKT_ETH_LEN + len < 60 ? 60 : PKT_ETH_LEN + len;
	b->rep[o][b->nrep[o]] = (struct port_pkt){ .data = r, .len = flen };
	b->rep_kind[o][b->nrep[o]++] = local ? RK_PORT : v == FW_UNREACH ? RK_UNREACH : RK_RST;
}

/* icmp_input() ICMP_ECHO → icmp_reflect(): the request turned into the reply in its own
 * buffer (type 0, addresses swapped, from the address it was sent to, TTL ip_defttl,
 * IP options dropped), limited by badport_bandlim(BANDLIM_ICMP_ECHO), out through
 * ip_output and so the outbound pass. A request with a bad ICMP checksum or shorter
 * than 8 bytes is dropped (icps_checksum, icps_tooshort). */
static void echo_reply(struct fwd_thr *t, struct burst *b, int in, uint8_t *fr,
		       const struct pkt_info *pi)
{
	struct fwd *f = t->f;
	uint8_t *ip = fr + PKT_IP_OFF;
	unsigned hl = (ip[0] & 15u) * 4u, icl = pi->ip_len - hl;
	if (icl < 8 || csum_fold(csum_add(0, ip + hl, icl)) != 0)
		return;
	enum fwd_reply_skip skip = FWD_RS_COUNT;
	uint32_t srch = ntohl(pi->src_ip);
	if ((fr[0] & 1) || (srch >> 28) == 14 || (srch >> 28) == 15 || (srch >> 24) == 0)
		skip = FWD_RS_SUPPRESSED;
	uint32_t nh = pi->src_ip;
	int o = -1;
	if (skip == FWD_RS_COUNT && (o = rt_lookup(f->rt, pi->src_ip, &nh)) < 0)
		skip = FWD_RS_NO_ROUTE;
	uint8_t mac[6];
	if (skip == FWD_RS_COUNT) {
		const uint8_t *m = o == in ? fr + 6 : nt_lookup(f->nt, o, nh);
		if (m)
			memcpy(mac, m, 6);
		else
			skip = FWD_RS_NO_NEIGH;
	}
	if (skip == FWD_RS_COUNT && bandlim(f, t->now_ns, 0))
		skip = FWD_RS_LIMIT;
	if (skip != FWD_RS_COUNT) {
		b->skip[skip]++;
		return;
	}
	if (hl > 20)
		memmove(ip + 20, ip + hl, icl);
	uint8_t *ic = ip + 20;
	uint32_t me = pi->dst_ip, to = pi->src_ip;
	unsigned len = 20 + icl;
	ip[0] = 0x45;
	wr16(ip + 2, (uint16_t)len);
	wr16(ip + 4, t->ip_id++);
	wr16(ip + 6, 0);
	ip[8] = 64;
	memcpy(ip + 12, &me, 4);
	memcpy(ip + 16, &to, 4);
	ip[10] = ip[11] = 0;
	uint16_t hc = csum_ip4_hdr(ip, 20);
	memcpy(ip + 10, &hc, 2);
	ic[0] = 0;
	ic[2] = ic[3] = 0;
	uint16_t c = csum_fold(csum_add(0, ic, icl));
	memcpy(ic + 2, &c, 2);
	if (fw_on_now(t) && !reply_out_pass(t, b, ip, len, me, to, o))
		return;
	memcpy(fr, mac, 6);
	memcpy(fr + 6, f->ports[o].mac, 6);
	unsigned nl = PKT_ETH_LEN + len;
	b->rep[o][b->nrep[o]] = (struct port_pkt){ .data = fr, .len = nl < 60 ? 60 : nl };
	if (nl < 60)   /* the pad goes on the wire: no stale bytes of the ring slot */
		memset(fr + nl, 0, 60 - nl);
	b->rep_kind[o][b->nrep[o]++] = RK_ECHO;
}

/* ip_input(): a packet for one of our addresses, delivered to the router's own stack
 * after the inbound pass; what a FreeBSD router with no sockets open answers: an echo
 * request with an echo reply, a UDP datagram with a port unreachable (udp_input, no
 * socket: a valid checksum, or none, and a sane length); the rest gets no answer here
 * (docs/forwarder.md#packets-for-the-router). Fragments are not reassembled. */
static void local_input(struct fwd_thr *t, struct burst *b, int in, struct port_pkt *rx,
			const struct pkt_info *pi)
{
	uint8_t *ip = rx->data + PKT_IP_OFF;
	unsigned hl = (ip[0] & 15u) * 4u;
	if (pkt_rd16(ip + 6) & 0x3fff)
		return;
	const uint8_t *l4 = ip + hl;
	if (pi->proto == 1 && pi->ip_len >= hl + 8 && l4[0] == 8) {
		echo_reply(t, b, in, rx->data, pi);
	} else if (pi->proto == 17 && pi->ip_len >= hl + 8) {
		unsigned ul = pkt_rd16(l4 + 4);
		if (ul < 8 || ul > pi->ip_len - hl)
			return;
		if (pkt_rd16(l4 + 6)) {
			uint8_t ph[4] = { 0, 17, (uint8_t)(ul >> 8), (uint8_t)ul };
			uint32_t sum = csum_add(0, ip + 12, 8);
			sum = csum_add(sum, ph, 4);
			if (csum_fold(csum_add(sum, l4, ul)) != 0)
				return;
		}
		reply_to(t, b, in, rx->data, pi, FW_UNREACH, 3, true);
	}
}

/* The firewall is consulted in this burst: present and net.inet.ip.fw.enable. The
 * rule's match time is stamped once per burst (CLOCK_REALTIME seconds), and the burst
 * takes the rule set it sees now for every pass of every frame. */
static inline bool fw_on(struct fwd_thr *t)
{
	struct fwd *f = t->f;
	if (!f->fw || !fw_tunables(f->fw)->enable)
		return false;
	fw_set_now(f->fw, clock_ns(CLOCK_REALTIME_COARSE) / NS_PER_S);
	t->now_ns = mono_ns();
	fw_set_uptime(f->fw, (uint32_t)(t->now_ns / NS_PER_S));
	if (t->id == 0)
		fw_dyn_maintain(f->fw, 4096);   /* dyn_tick's once-a-second sweep, in slices */
	t->rs = fw_rules_get(f->fw);
	return true;
}

void fwd_fw_tick(struct fwd *f)
{
	if (!f->fw)
		return;
	fw_set_uptime(f->fw, (uint32_t)(mono_ns() / NS_PER_S));
	fw_dyn_maintain(f->fw, 1u << 16);
}

static void burst_reset(struct burst *b)
{
	memset(b->nout, 0, sizeof(b->nout));
	memset(b->drops, 0, sizeof(b->drops));
	memset(b->nrep, 0, sizeof(b->nrep));
	memset(b->skip, 0, sizeof(b->skip));
	b->nbuf = 0;
	b->n6 = 0;
	b->tagb = 0;
	b->gone = 0;
}

/* The first cache line of every frame of the burst, asked for at once: on veth and with
 * AF_XDP the kernel wrote the frames on the sender's core, so each first read misses;
 * issued together the misses overlap instead of stalling the parse one after another. */
static inline void prefetch_frames(const struct port_pkt *rx, int n)
{
	for (int k = 0; k < n; k++)
		__builtin_prefetch(rx[k].data, 1);
}

/* ---- IPv6 (docs/forwarder.md#ipv6) ---- */

static bool is_my_address6(const struct fwd *f, const uint8_t a[16])
{
	for (int i = 0; i < f->nports; i++)
		if ((!zero16(f->ports[i].ip6) && !memcmp(f->ports[i].ip6, a, 16)) ||
		    (!zero16(f->ports[i].ll6) && !memcmp(f->ports[i].ll6, a, 16)))
			return true;
	return false;
}

#define IPV6_MMTU 1280   /* the IPv6 minimum link MTU (RFC 8200 5) */

static inline bool ll6(const uint8_t a[16])
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

/* The IPv6 header at a frame's offset 14 is 2 bytes off the 4 that struct ip6_hdr and
 * struct icmp6_hdr ask for (UBSan says so): they are read and written by offset
 * (RFC 8200 3, RFC 4443 2.1). */
enum { IP6_PLEN = 4, IP6_NXT = 6, IP6_HLIM = 7, IP6_SRC = 8, IP6_DST = 24, IP6_HLEN = 40,
       ICMP6_HLEN = 8 };

/* icmp6_error(TYPE, CODE) for the packet ip6 (plen bytes after its 40-byte header) read
 * on port in, when the caller says one may go (ok; time exceeded: not for an ICMPv6
 * error, a packet sent to a multicast address or as a link-layer group frame, RFC 4443
 * 2.4 (e)): none on icmp6_ratelimit() beyond net.inet6.icmp6.errppslimit; else as much
 * of the packet as keeps the reply within the IPv6 minimum MTU of 1280 bytes (2.4 (c)), from the address
 * of the port it leaves by (in6_selectsrc), hop limit 64 (ip6_defhlim), the checksum
 * over the pseudo-header (RFC 4443 2.3, RFC 8200 8.1). */
static void icmp6_err(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr, unsigned plen,
		      uint8_t type, uint8_t code, enum rkind kind, bool ok)
{
	struct fwd *f = t->f;
	const uint8_t *ip6 = fr + PKT_ETH_LEN;
	const uint8_t *src = ip6 + IP6_SRC;
	enum fwd_reply_skip skip = ok ? FWD_RS_COUNT : FWD_RS_SUPPRESSED;
	uint8_t nh[16];
	int o = -1;
	if (skip == FWD_RS_COUNT && (o = rt6_lookup(f->rt, src, nh)) < 0)
		skip = FWD_RS_NO_ROUTE;
	if (skip == FWD_RS_COUNT && zero16(f->ports[o].ip6))
		skip = FWD_RS_NO_SOURCE;
	const uint8_t *mac = NULL;
	if (skip == FWD_RS_COUNT && !(mac = o == in ? fr + 6 : nt6_lookup(f->nt, o, nh)))
		skip = FWD_RS_NO_NEIGH;
	if (skip == FWD_RS_COUNT && bandlim(f, mono_ns(), 2))
		skip = FWD_RS_LIMIT;
	if (!reply_gates(t, b, skip, 0))
		return;
	const unsigned hdrs = IP6_HLEN + ICMP6_HLEN;
	unsigned quote = IP6_HLEN + plen;
	if (quote > IPV6_MMTU - hdrs)
		quote = IPV6_MMTU - hdrs;
	uint8_t *r = reply_buf(b);
	b->nbuf++;
	memcpy(r, mac, 6);
	memcpy(r + 6, f->ports[o].mac, 6);
	r[12] = 0x86;
	r[13] = 0xdd;
	uint8_t *rh = r + PKT_ETH_LEN;
	uint8_t *ic = rh + IP6_HLEN;
	uint16_t icl = (uint16_t)(ICMP6_HLEN + quote);
	memset(rh, 0, hdrs);
	rh[0] = 6 << 4;
	rh[IP6_PLEN] = (uint8_t)(icl >> 8);
	rh[IP6_PLEN + 1] = (uint8_t)icl;
	rh[IP6_NXT] = IPPROTO_ICMPV6;
	rh[IP6_HLIM] = 64;
	memcpy(rh + IP6_SRC, f->ports[o].ip6, 16);
	memcpy(rh + IP6_DST, src, 16);
	ic[0] = type;
	ic[1] = code;
	memcpy(ic + ICMP6_HLEN, ip6, quote);
	if (fw_on_now(t)) {
		/* ip6_output(): the outbound pass, on the port it leaves by */
		struct fw_pkt fp;
		struct fw_match m;
		fw_pkt_ip6(rh, icl, -1, t->id, &fp);
		fp.in = false;
		fp.xmit_if = o;
		if (fw_eval_rs(f->fw, t->rs, &fp, &m) != FW_PASS) {
			b->nbuf--;
			b->skip[FWD_RS_FW_DENY]++;
			return;
		}
	}
	uint8_t ph[8] = { 0, 0, (uint8_t)(icl >> 8), (uint8_t)icl, 0, 0, 0, IPPROTO_ICMPV6 };
	uint32_t sum = csum_add(0, rh + IP6_SRC, 32);
	sum = csum_add(sum, ph, 8);
	uint16_t c = csum_fold(csum_add(sum, ic, icl));
	memcpy(ic + 2, &c, 2);
	b->rep[o][b->nrep[o]] = (struct port_pkt){ .data = r, .len = PKT_ETH_LEN + hdrs + quote };
	b->rep_kind[o][b->nrep[o]++] = (uint8_t)kind;
}

static void timex6(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr, unsigned plen)
{
	const uint8_t *ip6 = fr + PKT_ETH_LEN;
	const uint8_t *l4 = ip6 + IP6_HLEN;
	bool ok = !((fr[0] & 1) || ip6[IP6_DST] == 0xff ||
		    (ip6[IP6_NXT] == IPPROTO_ICMPV6 && plen >= 1 && l4[0] < ICMP6_ECHO_REQUEST));
	icmp6_err(t, b, in, fr, plen, ICMP6_TIME_EXCEEDED, ICMP6_TIME_EXCEED_TRANSIT, RK_TIMEX6, ok);
}

/* send_reject6() → ipfw_send_pkt() → ip6_output() for a reset6 rule: the RST the
 * firewall builds (fw_reset6_build), routed back to the sender, held to reply_limit as
 * the IPv4 RST is, past no outbound pass (M_SKIP_FIREWALL), counted as an RST sent */
static void rst6(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr,
		 const struct fw_pkt *fp)
{
	struct fwd *f = t->f;
	const uint8_t *ip6 = fr + PKT_ETH_LEN;
	enum fwd_reply_skip skip = FWD_RS_COUNT;
	uint8_t nh[16];
	int o = in;
	const uint8_t *mac = NULL;
	if (!f->l2 && (o = rt6_lookup(f->rt, ip6 + IP6_SRC, nh)) < 0)
		skip = FWD_RS_NO_ROUTE;
	if (skip == FWD_RS_COUNT && !(mac = o == in ? fr + 6 : nt6_lookup(f->nt, o, nh)))
		skip = FWD_RS_NO_NEIGH;
	uint32_t lim = fw_tunables(f->fw)->reply_limit;
	if (!reply_gates(t, b, skip, lim))
		return;
	uint8_t *r = reply_buf(b);
	b->nbuf++;
	memcpy(r, mac, 6);
	memcpy(r + 6, f->ports[o].mac, 6);
	r[12] = 0x86;
	r[13] = 0xdd;
	unsigned len = fw_reset6_build(r + PKT_ETH_LEN, ip6, fp);
	b->rep[o][b->nrep[o]] = (struct port_pkt){ .data = r, .len = PKT_ETH_LEN + len };
	b->rep_kind[o][b->nrep[o]++] = RK_RST;
}

/* send_reject6() for a reset, reject, unreach, unreach6 or reset6 rule on either pass:
 * what the firewall says FreeBSD sends (fw_reply6) — an ICMPv6 destination
 * unreachable, counted as an unreachable sent, its rate icmp6_error's (errppslimit);
 * or reset6's RST (rst6) */
static void reject6(struct fwd_thr *t, struct burst *b, int in, const uint8_t *fr, unsigned plen,
		    const struct fw_pkt *fp, enum fw_verdict v, const struct fw_match *m)
{
	uint8_t code6 = 0;
	enum fw_reply6 r = m->why == FW_WHY_RULE ? fw_reply6(fp, fr[0] & 1, v, m, &code6)
						 : FW_R6_NONE;
	if (r == FW_R6_RST)
		rst6(t, b, in, fr, fp);
	else
		icmp6_err(t, b, in, fr, plen, ICMP6_DST_UNREACH, code6, RK_UNREACH,
			  r == FW_R6_UNREACH);
}

/* ip6_input() and ip6_forward() for one frame of ethertype 0x86dd read on port in,
 * with the firewall's two passes when it is on (fw). Kept out of line: the IPv4 path
 * pays only the ethertype test of the frames that are not IPv4. A reset or unreach
 * rule drops the packet and answers with an ICMPv6 unreachable (reject6). */
static __attribute__((noinline)) void fwd_ip6(struct fwd_thr *t, struct burst *b, int in,
					      struct port_pkt *rx, bool fw)
{
	struct fw_pkt fp;
	struct fw_match m;
	struct fwd *f = t->f;
	uint8_t *fr = rx->data;
	b->n6++;
	if (rx->len < PKT_ETH_LEN + IP6_HLEN) {
		b->drops[FWD_DROP_MALFORMED]++;
		return;
	}
	uint8_t *ip6 = fr + PKT_ETH_LEN;
	unsigned plen = pkt_rd16(ip6 + IP6_PLEN);
	const uint8_t *src = ip6 + IP6_SRC, *dst = ip6 + IP6_DST;
	/* ip6_input(): the version, a payload length the frame holds (a jumbogram's 0
	 * is not taken), no multicast source */
	if ((fr[PKT_ETH_LEN] >> 4) != 6 || !plen ||
	    plen > rx->len - PKT_ETH_LEN - IP6_HLEN || src[0] == 0xff) {
		b->drops[FWD_DROP_MALFORMED]++;
		return;
	}
	/* ip6_input(): the inbound pass, on the receiving interface */
	if (fw) {
		fw_pkt_ip6(fr + PKT_ETH_LEN, plen, in, t->id, &fp);
		enum fw_verdict v = fw_eval_rs(f->fw, t->rs, &fp, &m);
		if (v != FW_PASS) {
			fw_drop(t, b, v, &m);
			if (v == FW_UNREACH || v == FW_RESET)
				reject6(t, b, in, fr, plen, &fp, v, &m);
			return;
		}
	}
	/* for us (or a multicast group, NDP's among them, duplicate address detection's
	 * from the unspecified address too): the kernel's own stack, which AF_PACKET taps
	 * beside, answers */
	if (dst[0] == 0xff || is_my_address6(f, dst)) {
		b->drops[FWD_DROP_LOCAL]++;
		return;
	}
	/* ip6_forward(): the unspecified source is not forwarded */
	if (zero16(src)) {
		b->drops[FWD_DROP_MALFORMED]++;
		return;
	}
	/* ip6_forward(): a link-local source or destination does not leave its link */
	if (ll6(src) || ll6(dst)) {
		b->drops[FWD_DROP_NO_ROUTE]++;
		return;
	}
	/* the hop limit before the route, as ip6_forward checks it (RFC 8200 3) */
	if (ip6[IP6_HLIM] <= 1) {
		b->drops[FWD_DROP_TTL]++;
		timex6(t, b, in, fr, plen);
		return;
	}
	uint8_t nh[16];
	int o = rt6_lookup(f->rt, dst, nh);
	if (o < 0) {
		b->drops[FWD_DROP_NO_ROUTE]++;
		return;
	}
	ip6[IP6_HLIM]--;   /* no header checksum in IPv6 */
	/* ip6_forward() → ip6_output(): the outbound pass, on the transmitting interface,
	 * seeing the decremented hop limit */
	if (fw) {
		fp.in = false;
		fp.xmit_if = o;
		fp.ttl = ip6[IP6_HLIM];
		enum fw_verdict v = fw_eval_rs(f->fw, t->rs, &fp, &m);
		if (v != FW_PASS) {
			fw_drop(t, b, v, &m);
			if (v == FW_UNREACH || v == FW_RESET)
				reject6(t, b, in, fr, plen, &fp, v, &m);
			return;
		}
	}
	const uint8_t *mac = nt6_lookup(f->nt, o, nh);
	if (!mac) {
		b->drops[FWD_DROP_NO_NEIGH]++;
		return;
	}
	memcpy(fr, mac, 6);
	memcpy(fr + 6, f->ports[o].mac, 6);
	b->out[o][b->nout[o]++] = *rx;
}

static inline bool vlan_tagged(const uint8_t *fr, uint32_t len)
{
	return len >= PKT_ETH_LEN && (pkt_rd16(fr + 12) == PKT_TPID_8021Q ||
				      pkt_rd16(fr + 12) == PKT_TPID_8021AD);
}

/* ether_input() and vlan_input() for a frame read on a port with tags v: true with its
 * tags off (counted in the burst's tag bytes), or false, dropped and counted as FreeBSD
 * counts it (vlan.h). */
static __attribute__((noinline)) bool vlan_take(struct burst *b, const struct vlan_port *v,
					       struct port_pkt *pk)
{
	uint32_t len = pk->len;
	enum vlan_in r = vlan_strip(v, pk);
	if (r == VLAN_IN_OK) {
		b->tagb += len - pk->len;
		return true;
	}
	b->drops[r == VLAN_IN_TAGGED ? FWD_DROP_VLAN_TAGGED
		 : r == VLAN_IN_UNKNOWN ? FWD_DROP_VLAN_UNKNOWN
		 : r == VLAN_IN_UNTAGGED ? FWD_DROP_VLAN_UNTAGGED : FWD_DROP_MALFORMED]++;
	return false;
}

/* A trunk port's burst: the tags off every frame before the loop sees it; the frames
 * dropped are taken out of rx (counted in b->gone, their bytes in b->tagb). Returns
 * how many are left, in their order. */
static __attribute__((noinline)) int vlan_take_burst(struct burst *b, const struct vlan_port *v,
						     struct port_pkt *rx, int n)
{
	int m = 0;
	for (int k = 0; k < n; k++) {
		uint32_t len = rx[k].len;
		if (vlan_take(b, v, &rx[k])) {
			rx[m++] = rx[k];
		} else {
			b->tagb += len;
			b->gone++;
		}
	}
	return m;
}

static int burst_l3(struct fwd_thr *t, int in, int max)
{
	struct fwd *f = t->f;
	struct burst *b = t->scratch;
	struct port_pkt *rx = b->rx;
	burst_reset(b);

	int n = port_rx_burst(t->port[in], rx, max);
	if (n <= 0)
		return n;
	prefetch_frames(rx, n);
	bool fw = b->fwon = fw_on(t);
	/* a trunk port: every frame's tags come off first; an untagged port pays one test a
	 * burst (a tag there is not IPv4, found below) */
	const struct vlan_port *vin = &f->ports[in].vlan;
	const bool trunk = vin->ntags != 0;
	int nl = trunk ? vlan_take_burst(b, vin, rx, n) : n;
	for (int k = 0; k < nl; k++) {
		struct pkt_info pi;
		struct fw_pkt fp;
		struct fw_match m;
		enum fw_verdict v;
	again:;
		uint8_t *fr = rx[k].data;
		enum pkt_class c = pkt_parse_ip4(fr, rx[k].len, &pi);
		/* options and fragments are valid IPv4: a router forwards them */
		if (c != PKT_TEST && c != PKT_IP_OPTIONS && c != PKT_IP_FRAGMENT) {
			/* the one test IPv6 adds, on the frames that are not IPv4 */
			if (c == PKT_NOT_IP4 && rx[k].len >= PKT_ETH_LEN && fr[12] == 0x86 &&
			    fr[13] == 0xdd)
				fwd_ip6(t, b, in, &rx[k], fw);
			else if (c == PKT_NOT_IP4 && !trunk && vlan_tagged(fr, rx[k].len)) {
				/* a tag on an untagged port: a priority tag comes off and the
				 * frame, now untagged, is parsed again; any other is no
				 * protocol here */
				if (vlan_take(b, vin, &rx[k]))
					goto again;
			} else
				b->drops[c == PKT_NOT_IP4 ? FWD_DROP_NOT_IP4 : FWD_DROP_MALFORMED]++;
			continue;
		}
		/* ip_input(): the inbound pass, on the receiving interface
		 * (docs/design/ipfw.md#two-passes-per-forwarded-packet) */
		if (fw) {
			fw_pkt_of(&pi, in, t->id, &fp);
			if ((v = fw_eval_rs(f->fw, t->rs, &fp, &m)) != FW_PASS) {
				fw_drop(t, b, v, &m);
				if (v == FW_RESET || v == FW_UNREACH)
					fw_reply(t, b, in, fr, &pi, v, &m);
				continue;
			}
		}
		/* ip_input(): for us, delivered here after the inbound pass alone */
		if (f->fw ? fw_is_me(f->fw, pi.dst_ip) : is_my_address(f, pi.dst_ip)) {
			b->drops[FWD_DROP_LOCAL]++;
			if (!fw)
				t->now_ns = mono_ns();   /* the answers' rate limit */
			local_input(t, b, in, &rx[k], &pi);
			continue;
		}
		/* ip_forward(): TTL first, then the route (RFC 1812 5.3.1) */
		if (pi.ttl <= 1) {
			b->drops[FWD_DROP_TTL]++;
			continue;
		}
		uint32_t nh;
		int o = rt_lookup(f->rt, pi.dst_ip, &nh);
		if (o < 0) {
			b->drops[FWD_DROP_NO_ROUTE]++;
			continue;
		}
		/* ip_tryforward(): the TTL is decremented (RFC 1624 update of the header
		 * checksum: TTL and protocol share a 16-bit word) before the outbound pass,
		 * which therefore sees TTL - 1, and a reply quotes it so */
		uint8_t *ip = fr + PKT_IP_OFF;
		uint16_t old_w, new_w, hc;
		memcpy(&old_w, ip + 8, 2);
		ip[8]--;
		memcpy(&new_w, ip + 8, 2);
		memcpy(&hc, ip + 10, 2);
		hc = csum_replace16(hc, old_w, new_w);
		memcpy(ip + 10, &hc, 2);
		/* ip_output(): the outbound pass, on the transmitting interface, before the
		 * link layer resolves the next hop */
		if (fw) {
			fp.in = false;
			fp.xmit_if = o;
			fp.ttl = ip[8];
			if ((v = fw_eval_rs(f->fw, t->rs, &fp, &m)) != FW_PASS) {
				fw_drop(t, b, v, &m);
				if (v == FW_RESET || v == FW_UNREACH)
					fw_reply(t, b, in, fr, &pi, v, &m);
				continue;
			}
		}
		const uint8_t *mac = nt_lookup(f->nt, o, nh);
		if (!mac) {
			b->drops[FWD_DROP_NO_NEIGH]++;
			continue;
		}
		memcpy(fr, mac, 6);
		memcpy(fr + 6, f->ports[o].mac, 6);
		b->out[o][b->nout[o]++] = rx[k];
	}
	burst_flush(t, in, b, rx, nl);
	return n;
}

static int burst_l2(struct fwd_thr *t, int in, int max)
{
	struct fwd *f = t->f;
	struct burst *b = t->scratch;
	struct port_pkt *rx = b->rx;
	burst_reset(b);
	int o = in ^ 1;               /* two ports: the other one */

	int n = port_rx_burst(t->port[in], rx, max);
	if (n <= 0)
		return n;
	prefetch_frames(rx, n);
	bool fw = fw_on(t);
	for (int k = 0; k < n; k++) {
		struct pkt_info pi;
		enum pkt_class c = pkt_parse_ip4(rx[k].data, rx[k].len, &pi);
		if (c != PKT_TEST && c != PKT_IP_OPTIONS && c != PKT_IP_FRAGMENT &&
		    c != PKT_NOT_IP4) {
			b->drops[FWD_DROP_MALFORMED]++;
			continue;
		}
		/* a filtering bridge (net.link.bridge.ipfw): IPv4 passes in on the
		 * receiving port and out on the other one; other protocols are bridged */
		if (fw && c != PKT_NOT_IP4) {
			struct fw_pkt fp;
			struct fw_match m;
			enum fw_verdict v;
			fw_pkt_of(&pi, in, t->id, &fp);
			if ((v = fw_eval_rs(f->fw, t->rs, &fp, &m)) == FW_PASS) {
				fp.in = false;
				fp.xmit_if = o;
				v = fw_eval_rs(f->fw, t->rs, &fp, &m);
			}
			if (v != FW_PASS) {
				fw_drop(t, b, v, &m);
				if (v == FW_RESET || v == FW_UNREACH)
					fw_reply(t, b, in, rx[k].data, &pi, v, &m);
				continue;
			}
		}
		b->out[o][b->nout[o]++] = rx[k];
	}
	burst_flush(t, in, b, rx, n);
	return n;
}

int fwd_burst(struct fwd_thr *t, int in, int max)
{
	if (max > FWD_BURST_MAX)
		max = FWD_BURST_MAX;
	return t->f->l2 ? burst_l2(t, in, max) : burst_l3(t, in, max);
}

void fwd_flush(struct fwd_thr *t)
{
	for (int i = 0; i < t->f->nports; i++)
		port_flush(t->port[i]);
}

void fwd_refresh_kernel(struct fwd_thr *t)
{
	for (int i = 0; i < t->f->nports; i++) {
		struct port_stats ps;
		port_stats(t->port[i], &ps);
		atomic_store_explicit(&t->ctr[i].kernel_drops, ps.rx_drops, memory_order_relaxed);
		atomic_store_explicit(&t->ctr[i].tx_errors, ps.tx_errors, memory_order_relaxed);
	}
}

static enum fwd_link link_of(int fd, const struct fwd_port *p)
{
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
		return errno == ENODEV ? FWD_LINK_GONE : FWD_LINK_UP;
	if (ifr.ifr_ifindex != p->ifindex)
		return FWD_LINK_GONE;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return errno == ENODEV ? FWD_LINK_GONE : FWD_LINK_UP;
	return (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING) ? FWD_LINK_UP
									 : FWD_LINK_DOWN;
}

void fwd_link_check(struct fwd_thr *t)
{
	if (t->ifq_fd < 0)
		return;
	for (int i = 0; i < t->f->nports; i++) {
		const struct fwd_port *p = &t->f->ports[i];
		if (!p->ifindex)   /* not a device of this host's: nothing to ask */
			continue;
		enum fwd_link l = link_of(t->ifq_fd, p);
		if (l != FWD_LINK_UP && t->link[i] == FWD_LINK_UP)
			relaxed_add(&t->ctr[i].link_downs, 1);
		t->link[i] = (uint8_t)l;
	}
}

static void ctr_add(const struct fwd_port_ctr *c, struct fwd_port_ctr_sum *s)
{
	s->rx_pkts += relaxed_get(&c->rx_pkts);
	s->rx_bytes += relaxed_get(&c->rx_bytes);
	s->rx_bursts += relaxed_get(&c->rx_bursts);
	s->tx_pkts += relaxed_get(&c->tx_pkts);
	s->tx_bytes += relaxed_get(&c->tx_bytes);
	s->fwd_pkts += relaxed_get(&c->fwd_pkts);
	s->kernel_drops += relaxed_get(&c->kernel_drops);
	s->tx_errors += relaxed_get(&c->tx_errors);
	s->link_downs += relaxed_get(&c->link_downs);
	for (int d = 0; d < FWD_DROP_COUNT; d++)
		s->drops[d] += relaxed_get(&c->drops[d]);
	s->rst_sent += relaxed_get(&c->rst_sent);
	s->unreach_sent += relaxed_get(&c->unreach_sent);
	s->echo_sent += relaxed_get(&c->echo_sent);
	s->port_unreach_sent += relaxed_get(&c->port_unreach_sent);
	s->ip6_rx_pkts += relaxed_get(&c->ip6_rx_pkts);
	s->ip6_fwd_pkts += relaxed_get(&c->ip6_fwd_pkts);
	s->timex6_sent += relaxed_get(&c->timex6_sent);
	for (int k = 0; k < FWD_RS_COUNT; k++)
		s->reply_skip[k] += relaxed_get(&c->reply_skip[k]);
}

void fwd_port_sum(const struct fwd *f, int i, struct fwd_port_ctr_sum *c)
{
	memset(c, 0, sizeof(*c));
	for (int t = 0; t < f->nthr; t++)
		ctr_add(&f->thr[t]->ctr[i], c);
}

static void totals_of(const struct fwd_port_ctr_sum *c, struct fwd_totals *t)
{
	t->rx_pkts += c->rx_pkts;
	t->rx_bytes += c->rx_bytes;
	t->rx_bursts += c->rx_bursts;
	t->tx_pkts += c->tx_pkts;
	t->tx_bytes += c->tx_bytes;
	t->fwd_pkts += c->fwd_pkts;
	t->kernel_drops += c->kernel_drops;
	t->tx_errors += c->tx_errors;
	t->link_downs += c->link_downs;
	for (int d = 0; d < FWD_DROP_COUNT; d++) {
		t->drops[d] += c->drops[d];
		t->drop_pkts += c->drops[d];
	}
	t->rst_sent += c->rst_sent;
	t->unreach_sent += c->unreach_sent;
	t->echo_sent += c->echo_sent;
	t->port_unreach_sent += c->port_unreach_sent;
	t->ip6_rx_pkts += c->ip6_rx_pkts;
	t->ip6_fwd_pkts += c->ip6_fwd_pkts;
	t->timex6_sent += c->timex6_sent;
	for (int k = 0; k < FWD_RS_COUNT; k++)
		t->reply_skip[k] += c->reply_skip[k];
}

void fwd_thr_totals(const struct fwd_thr *th, struct fwd_totals *tot)
{
	memset(tot, 0, sizeof(*tot));
	for (int i = 0; i < th->f->nports; i++) {
		struct fwd_port_ctr_sum c = { 0 };
		ctr_add(&th->ctr[i], &c);
		totals_of(&c, tot);
	}
}

void fwd_totals(const struct fwd *f, struct fwd_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < f->nports; i++) {
		struct fwd_port_ctr_sum c;
		fwd_port_sum(f, i, &c);
		totals_of(&c, t);
	}
}

uint64_t fwd_denied(const struct fwd *f, int k)
{
	uint64_t v = 0;
	for (int t = 0; t < f->nthr; t++)
		v += relaxed_get(&f->thr[t]->denied_by_rule[k]);
	return v;
}
