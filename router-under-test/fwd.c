/* fwd.c — IPv4 forwarding of one burst (see fwd.h). Called by the scheduler loop in
 * main.c for each ingress port; no allocation, no system calls besides the ports'. */
#include "fwd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "csum.h"
#include "ifinfo.h"
#include "pkt.h"

int fwd_init(struct fwd *f, const char *const *specs, int n, uint32_t frame_max, char *err,
	     size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->rt = rt_new();
	f->nt = nt_new();
	if (!f->rt || !f->nt)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		struct fwd_port *p = &f->ports[i];
		/* per-frame delivery: a V3 block would hold frames back until it retires */
		struct port_cfg pc = { .dir = PORT_RX | PORT_TX, .frame_max = frame_max,
				       .ring_frames = FWD_RING_FRAMES, .rx_per_frame = 1,
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

void fwd_fini(struct fwd *f)
{
	for (int i = 0; i < f->nports; i++)
		port_close(f->ports[i].port);
	f->nports = 0;
	rt_free(f->rt);
	nt_free(f->nt);
	f->rt = NULL;
	f->nt = NULL;
}

static inline void add(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

int fwd_burst(struct fwd *f, int in, int max)
{
	struct port_pkt rx[FWD_BURST_MAX];
	struct port_pkt out[FWD_MAX_PORTS][FWD_BURST_MAX];
	int nout[FWD_MAX_PORTS] = { 0 };
	uint64_t malformed = 0, not_ip4 = 0, ttl = 0, no_route = 0, no_neigh = 0, bytes = 0;

	if (max > FWD_BURST_MAX)
		max = FWD_BURST_MAX;
	int n = port_rx_burst(f->ports[in].port, rx, max);
	if (n <= 0)
		return n;
	for (int k = 0; k < n; k++) {
		struct pkt_info pi;
		uint8_t *fr = rx[k].data;
		bytes += rx[k].len;
		enum pkt_class c = pkt_parse_ip4(fr, rx[k].len, &pi);
		if (c != PKT_TEST) {
			if (c == PKT_NOT_IP4)
				not_ip4++;
			else
				malformed++;
			continue;
		}
		if (pi.ttl <= 1) {
			ttl++;
			continue;
		}
		uint32_t nh;
		int o = rt_lookup(f->rt, pi.dst_ip, &nh);
		if (o < 0) {
			no_route++;
			continue;
		}
		const uint8_t *mac = nt_lookup(f->nt, o, nh);
		if (!mac) {
			no_neigh++;
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
		out[o][nout[o]++] = rx[k];
	}
	struct fwd_port_ctr *ic = &f->ports[in].ctr;
	add(&ic->rx_pkts, (uint64_t)n);
	add(&ic->rx_bytes, bytes);
	for (int o = 0; o < f->nports; o++) {
		if (!nout[o])
			continue;
		int a = port_fwd_burst(f->ports[o].port, out[o], nout[o]);
		if (a < 0)
			a = 0;
		uint64_t tb = 0;
		for (int i = 0; i < a; i++)
			tb += out[o][i].len;
		struct fwd_port_ctr *oc = &f->ports[o].ctr;
		add(&oc->tx_pkts, (uint64_t)a);
		add(&oc->tx_bytes, tb);
		add(&oc->drop_txfull, (uint64_t)(nout[o] - a));
		add(&f->ctr.fwd_pkts, (uint64_t)a);
	}
	if (malformed) add(&f->ctr.drop_malformed, malformed);
	if (not_ip4) add(&f->ctr.drop_not_ip4, not_ip4);
	if (ttl) add(&f->ctr.drop_ttl, ttl);
	if (no_route) add(&f->ctr.drop_no_route, no_route);
	if (no_neigh) add(&f->ctr.drop_no_neigh, no_neigh);
	return n;
}
