/* fwd.c — IPv4 forwarding and L2 bridging of one burst (see fwd.h). Called by the
 * scheduling loops in fwdloop.c for each ingress port; no allocation, no system calls
 * besides the ports'. */
#include "fwd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "csum.h"
#include "fw.h"
#include "ifinfo.h"
#include "pkt.h"

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
};

const char *fwd_drop_name(enum fwd_drop d)
{
	return (unsigned)d < FWD_DROP_COUNT ? drop_names[d] : "unknown";
}

/* What one burst collected: the frames read, frames per egress port and drops by cause.
 * One per forwarder (allocated with it, used only by the forwarding thread): nothing
 * this size belongs on the stack of a per-burst call. */
struct burst {
	struct port_pkt rx[FWD_BURST_MAX];
	struct port_pkt out[FWD_MAX_PORTS][FWD_BURST_MAX];
	int nout[FWD_MAX_PORTS];
	uint64_t drops[FWD_DROP_COUNT];
};

int fwd_init(struct fwd *f, const char *const *specs, int n, uint32_t frame_max, char *err,
	     size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->rt = rt_new();
	f->nt = nt_new();
	f->scratch = malloc(sizeof(struct burst));
	if (!f->rt || !f->nt || !f->scratch)
		return -ENOMEM;
	if (n > FWD_MAX_PORTS) {
		snprintf(err, errlen, "at most %d ports", FWD_MAX_PORTS);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		struct fwd_port *p = &f->ports[i];
		/* per-frame delivery: a V3 block would hold frames back until it retires;
		 * linear TX skbs: a frame referencing ring pages is copied out again into a
		 * fresh page by the veth peer (skb_copy_ubufs), 10-20% of the forwarding
		 * CPU at 64 bytes */
		struct port_cfg pc = { .dir = PORT_RX | PORT_TX, .frame_max = frame_max,
				       .ring_frames = FWD_RING_FRAMES, .rx_per_frame = 1,
				       .tx_linear = 1,
				       /* xdp: one UMEM for all ports: forwarding without a copy */
				       .share = i ? f->ports[0].port : NULL };
		int rc = port_open(specs[i], &pc, &p->port, err, errlen);
		if (rc)
			return rc;
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
		if (if_ip4(p->ifname, &p->ip, &p->plen) == 0) {
			rt_add(f->rt, p->ip, p->plen, 0, i);
			nt_load_system(f->nt, i, p->ifname);
		}
	}
	return 0;
}

int fwd_ready(struct fwd *f)
{
	return rt_build(f->rt);
}

int fwd_set_fw(struct fwd *f, struct fw *fw)
{
	f->denied_by_rule = calloc(65536, sizeof(*f->denied_by_rule));
	if (!f->denied_by_rule)
		return -ENOMEM;
	f->fw = fw;
	return 0;
}

void fwd_fini(struct fwd *f)
{
	for (int i = 0; i < f->nports; i++)
		port_close(f->ports[i].port);
	f->nports = 0;
	rt_free(f->rt);
	nt_free(f->nt);
	fw_free(f->fw);
	f->fw = NULL;
	free((void *)f->denied_by_rule);
	free(f->scratch);
	f->scratch = NULL;
	f->rt = NULL;
	f->nt = NULL;
	f->denied_by_rule = NULL;
}

static inline void add(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

static inline uint64_t ld(const _Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}


static void burst_flush(struct fwd *f, int in, struct burst *b, const struct port_pkt *rx,
			int n)
{
	struct fwd_port_ctr *ic = &f->ports[in].ctr;
	uint64_t rb = 0, fwd = 0;
	for (int k = 0; k < n; k++)
		rb += rx[k].len;
	add(&ic->rx_pkts, (uint64_t)n);
	add(&ic->rx_bytes, rb);
	add(&ic->rx_bursts, 1);
	for (int o = 0; o < f->nports; o++) {
		if (!b->nout[o])
			continue;
		int a = port_fwd_burst(f->ports[o].port, b->out[o], b->nout[o]);
		if (a < 0)
			a = 0;
		uint64_t tb = 0;
		for (int i = 0; i < a; i++)
			tb += b->out[o][i].len;
		struct fwd_port_ctr *oc = &f->ports[o].ctr;
		add(&oc->tx_pkts, (uint64_t)a);
		add(&oc->tx_bytes, tb);
		b->drops[FWD_DROP_TXFULL] += (uint64_t)(b->nout[o] - a);
		fwd += (uint64_t)a;
	}
	add(&ic->fwd_pkts, fwd);
	for (int d = 0; d < FWD_DROP_COUNT; d++)
		if (b->drops[d])
			add(&ic->drops[d], b->drops[d]);
}

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* What the firewall needs of a parsed IPv4 packet: addresses, protocol, IP total length
 * (the byte counter's unit: docs/design/ipfw.md#counters), ports for TCP/UDP/SCTP with
 * fragment offset 0, ICMP type/code for log lines. */
static void fw_pkt_of(const struct pkt_info *pi, int recv_if, struct fw_pkt *p)
{
	const uint8_t *ip = pi->ip;
	unsigned ihl = (ip[0] & 0x0fu) * 4u;
	p->src = pi->src_ip;
	p->dst = pi->dst_ip;
	p->proto = pi->proto;
	p->ip_len = pi->ip_len;
	p->frag = (rd16(ip + 6) & 0x1fff) != 0;
	p->has_ports = !p->frag && (p->proto == 6 || p->proto == 17 || p->proto == 132) &&
		       ihl + 4 <= pi->ip_len;
	p->sport = p->has_ports ? rd16(ip + ihl) : 0;
	p->dport = p->has_ports ? rd16(ip + ihl + 2) : 0;
	p->icmp_type = p->icmp_code = 0;
	if (p->proto == 1 && !p->frag && ihl + 2 <= pi->ip_len) {
		p->icmp_type = ip[ihl];
		p->icmp_code = ip[ihl + 1];
	}
	p->in = true;
	p->recv_if = recv_if;
	p->xmit_if = -1;
}

/* A pass that did not let the packet through: counted by cause and by rule. No ICMP
 * unreachable or TCP RST is sent (the forwarder has no stack of its own). */
static inline void fw_drop(struct fwd *f, struct burst *b, enum fw_verdict v, uint32_t rule)
{
	b->drops[v == FW_UNREACH ? FWD_DROP_FW_UNREACH
		 : v == FW_RESET ? FWD_DROP_FW_RESET : FWD_DROP_FW_DENY]++;
	add(&f->denied_by_rule[rule & 0xffff], 1);
}

/* The firewall is consulted in this burst: present and net.inet.ip.fw.enable. The
 * rule's match time is stamped once per burst (CLOCK_REALTIME seconds). */
static inline bool fw_on(struct fwd *f)
{
	if (!f->fw || !fw_tunables(f->fw)->enable)
		return false;
	fw_set_now(f->fw, clock_ns(CLOCK_REALTIME_COARSE) / NS_PER_S);
	return true;
}

/* The first cache line of every frame of the burst, asked for at once: on veth and with
 * AF_XDP the kernel wrote the frames on the sender's core, so each first read misses;
 * issued together the misses overlap instead of stalling the parse one after another. */
static inline void prefetch_frames(const struct port_pkt *rx, int n)
{
	for (int k = 0; k < n; k++)
		__builtin_prefetch(rx[k].data, 1);
}

static int burst_l3(struct fwd *f, int in, int max)
{
	struct burst *b = f->scratch;
	struct port_pkt *rx = b->rx;
	memset(b->nout, 0, sizeof(b->nout));
	memset(b->drops, 0, sizeof(b->drops));

	int n = port_rx_burst(f->ports[in].port, rx, max);
	if (n <= 0)
		return n;
	prefetch_frames(rx, n);
	bool fw = fw_on(f);
	for (int k = 0; k < n; k++) {
		struct pkt_info pi;
		struct fw_pkt fp;
		uint32_t rule;
		enum fw_verdict v;
		uint8_t *fr = rx[k].data;
		enum pkt_class c = pkt_parse_ip4(fr, rx[k].len, &pi);
		/* options and fragments are valid IPv4: a router forwards them */
		if (c != PKT_TEST && c != PKT_IP_OPTIONS && c != PKT_IP_FRAGMENT) {
			b->drops[c == PKT_NOT_IP4 ? FWD_DROP_NOT_IP4 : FWD_DROP_MALFORMED]++;
			continue;
		}
		/* ip_input(): the inbound pass, on the receiving interface
		 * (docs/design/ipfw.md#two-passes-per-forwarded-packet) */
		if (fw) {
			fw_pkt_of(&pi, in, &fp);
			if ((v = fw_eval(f->fw, &fp, &rule)) != FW_PASS) {
				fw_drop(f, b, v, rule);
				continue;
			}
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
		/* ip_output(): the outbound pass, on the transmitting interface, before the
		 * link layer resolves the next hop */
		if (fw) {
			fp.in = false;
			fp.xmit_if = o;
			if ((v = fw_eval(f->fw, &fp, &rule)) != FW_PASS) {
				fw_drop(f, b, v, rule);
				continue;
			}
		}
		const uint8_t *mac = nt_lookup(f->nt, o, nh);
		if (!mac) {
			b->drops[FWD_DROP_NO_NEIGH]++;
			continue;
		}
		/* TTL and protocol share a 16-bit word: RFC 1624 update of the header checksum */
		uint8_t *ip = fr + PKT_IP_OFF;
		uint16_t old_w, new_w, hc;
		memcpy(&old_w, ip + 8, 2);
		ip[8]--;
		memcpy(&new_w, ip + 8, 2);
		memcpy(&hc, ip + 10, 2);
		hc = csum_replace16(hc, old_w, new_w);
		memcpy(ip + 10, &hc, 2);
		memcpy(fr, mac, 6);
		memcpy(fr + 6, f->ports[o].mac, 6);
		b->out[o][b->nout[o]++] = rx[k];
	}
	burst_flush(f, in, b, rx, n);
	return n;
}

static int burst_l2(struct fwd *f, int in, int max)
{
	struct burst *b = f->scratch;
	struct port_pkt *rx = b->rx;
	memset(b->nout, 0, sizeof(b->nout));
	memset(b->drops, 0, sizeof(b->drops));
	int o = in ^ 1;               /* two ports: the other one */

	int n = port_rx_burst(f->ports[in].port, rx, max);
	if (n <= 0)
		return n;
	prefetch_frames(rx, n);
	bool fw = fw_on(f);
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
			uint32_t rule;
			enum fw_verdict v;
			fw_pkt_of(&pi, in, &fp);
			if ((v = fw_eval(f->fw, &fp, &rule)) == FW_PASS) {
				fp.in = false;
				fp.xmit_if = o;
				v = fw_eval(f->fw, &fp, &rule);
			}
			if (v != FW_PASS) {
				fw_drop(f, b, v, rule);
				continue;
			}
		}
		b->out[o][b->nout[o]++] = rx[k];
	}
	burst_flush(f, in, b, rx, n);
	return n;
}

int fwd_burst(struct fwd *f, int in, int max)
{
	if (max > FWD_BURST_MAX)
		max = FWD_BURST_MAX;
	return f->l2 ? burst_l2(f, in, max) : burst_l3(f, in, max);
}

void fwd_flush(struct fwd *f)
{
	for (int i = 0; i < f->nports; i++)
		port_flush(f->ports[i].port);
}

void fwd_refresh_kernel(struct fwd *f)
{
	for (int i = 0; i < f->nports; i++) {
		struct port_stats ps;
		port_stats(f->ports[i].port, &ps);
		atomic_store_explicit(&f->ports[i].ctr.kernel_drops, ps.rx_drops,
				      memory_order_relaxed);
	}
}

void fwd_totals(const struct fwd *f, struct fwd_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < f->nports; i++) {
		const struct fwd_port_ctr *c = &f->ports[i].ctr;
		t->rx_pkts += ld(&c->rx_pkts);
		t->rx_bytes += ld(&c->rx_bytes);
		t->rx_bursts += ld(&c->rx_bursts);
		t->tx_pkts += ld(&c->tx_pkts);
		t->tx_bytes += ld(&c->tx_bytes);
		t->fwd_pkts += ld(&c->fwd_pkts);
		t->kernel_drops += ld(&c->kernel_drops);
		for (int d = 0; d < FWD_DROP_COUNT; d++) {
			uint64_t v = ld(&c->drops[d]);
			t->drops[d] += v;
			t->drop_pkts += v;
		}
	}
}
