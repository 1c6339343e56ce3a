/* SPDX-License-Identifier: BSD-2-Clause */
/* port_pcap.c — the portable port: libpcap for capture and injection, for boxes without
 * AF_PACKET rings (FreeBSD, DragonFly, macOS in a three-box lab).
 *
 * libpcap only promises a packet's data until the next call, so received frames are
 * copied into a pool owned by the port (valid until the next rx burst, as port.h
 * says). pcap_stats' counters are 32-bit (libpcap's cautionary tale): they are folded
 * into 64-bit totals by unsigned difference, which survives one wrap between reads. */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_impl.h"

#define PCAP_POOL 256

struct pcp {
	pcap_t *pc;
	uint8_t *pool;            /* PCAP_POOL frames of frame_max bytes */
	struct port_pkt *out;     /* where the callback writes */
	int n, max;
	struct port *p;
	uint32_t last_drop, last_ifdrop;
};

static void pcp_close(struct port *p)
{
	struct pcp *c = p->priv;
	if (!c)
		return;
	if (c->pc)
		pcap_close(c->pc);
	free(c->pool);
	free(c);
	p->priv = NULL;
}

static int pcp_open(struct port *p, const char *target, const struct port_kv *kv, int nkv,
		    char *err, size_t errlen)
{
	static const struct port_key keys[] = { { "promisc", PORT_RX }, { NULL, 0 } };
	char ebuf[PCAP_ERRBUF_SIZE];
	int promisc = 0, rc;
	if ((rc = port_kv_check(p, kv, nkv, keys, err, errlen)) ||
	    (rc = port_kv_bool(p, kv, nkv, "promisc", &promisc, err, errlen)))
		return rc;
	struct pcp *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	p->priv = c;
	p->layer = PORT_L2;
	c->p = p;
	snprintf(p->ifname, sizeof(p->ifname), "%s", target);
	c->pool = malloc((size_t)PCAP_POOL * p->cfg.frame_max);
	c->pc = pcap_create(target, ebuf);
	if (!c->pool || !c->pc) {
		snprintf(err, errlen, "pcap_create %s: %s", target, c->pc ? "out of memory" : ebuf);
		rc = -ENOMEM;
		goto fail;
	}
	pcap_set_snaplen(c->pc, (int)p->cfg.frame_max);
	pcap_set_promisc(c->pc, promisc);
	pcap_set_immediate_mode(c->pc, 1);
	pcap_set_buffer_size(c->pc, 16 << 20);
	int a = pcap_activate(c->pc);
	if (a < 0) {
		snprintf(err, errlen, "pcap %s: %s%s", target, pcap_statustostr(a),
			 a == PCAP_ERROR_PERM_DENIED ? " (needs root or CAP_NET_RAW)" :
			 a == PCAP_ERROR_NO_SUCH_DEVICE ? "" : "");
		if (a == PCAP_ERROR || a == PCAP_ERROR_NO_SUCH_DEVICE)
			snprintf(err, errlen, "pcap %s: %s", target, pcap_geterr(c->pc));
		rc = a == PCAP_ERROR_PERM_DENIED ? -EPERM : -ENODEV;
		goto fail;
	}
	if (p->cfg.dir & PORT_RX) {
		/* our own transmissions are not test traffic */
		pcap_setdirection(c->pc, PCAP_D_IN);
		if (p->cfg.udp_dport) {
			char f[160];
			struct bpf_program prog;
			/* also behind one or two VLAN tags (802.1Q, QinQ): libpcap's "vlan"
			 * moves the offsets of what follows it by a tag, and on Linux also
			 * matches the tag the kernel took out (docs/ports.md#vlan-tags) */
			unsigned d = p->cfg.udp_dport;
			snprintf(f, sizeof(f), "udp dst port %u or (vlan and (udp dst port %u or "
				 "(vlan and udp dst port %u)))", d, d, d);
			if (pcap_compile(c->pc, &prog, f, 1, PCAP_NETMASK_UNKNOWN) < 0 ||
			    pcap_setfilter(c->pc, &prog) < 0) {
				snprintf(err, errlen, "pcap filter '%s': %s", f, pcap_geterr(c->pc));
				rc = -EINVAL;
				goto fail;
			}
			pcap_freecode(&prog);
		}
	}
	if (pcap_setnonblock(c->pc, 1, ebuf) < 0) {
		snprintf(err, errlen, "pcap_setnonblock: %s", ebuf);
		rc = -EIO;
		goto fail;
	}
	return 0;
fail:
	pcp_close(p);
	return rc;
}

static void pcp_cb(u_char *user, const struct pcap_pkthdr *h, const u_char *bytes)
{
	struct pcp *c = (struct pcp *)user;
	if (c->n >= c->max)
		return;
	uint32_t len = h->caplen < c->p->cfg.frame_max ? h->caplen : c->p->cfg.frame_max;
	uint8_t *dst = c->pool + (size_t)c->n * c->p->cfg.frame_max;
	memcpy(dst, bytes, len);
	c->out[c->n].data = dst;
	c->out[c->n].len = len;
	c->out[c->n].ts_ns = (uint64_t)h->ts.tv_sec * 1000000000ULL + (uint64_t)h->ts.tv_usec * 1000ULL;
	c->n++;
}

static int pcp_rx_burst(struct port *p, struct port_pkt *pkts, int max)
{
	struct pcp *c = p->priv;
	c->out = pkts;
	c->n = 0;
	c->max = max < PCAP_POOL ? max : PCAP_POOL;
	int r = pcap_dispatch(c->pc, c->max, pcp_cb, (u_char *)c);
	if (r < 0 && r != PCAP_ERROR_BREAK)
		return -EIO;
	for (int i = 0; i < c->n; i++)
		p->st.rx_bytes += pkts[i].len;
	p->st.rx_pkts += (uint64_t)c->n;
	return c->n;
}

static int pcp_tx_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	struct pcp *c = p->priv;
	int i;
	for (i = 0; i < n; i++) {
		errno = 0;
		if (pcap_inject(c->pc, pkts[i].data, pkts[i].len) < 0) {
			/* errno is send()'s (Linux) or write()'s (BPF): libpcap formats its
			 * message after the call, which leaves it; none at all is taken for a
			 * full buffer, the usual cause */
			enum port_txe why = errno ? port_tx_errclass(errno) : PORT_TXE_FULL;
			if (why == PORT_TXE_BAD) {
				p->st.tx_errors++;   /* this frame is refused (e.g. too long): skip it */
				continue;
			}
			p->st.tx_full++;
			if (why == PORT_TXE_LINK)
				port_link_wait();
			break;
		}
		p->st.tx_pkts++;
		p->st.tx_bytes += pkts[i].len;
	}
	return i;
}

static int pcp_fd(const struct port *p)
{
	const struct pcp *c = p->priv;
	return pcap_get_selectable_fd(c->pc);
}

static void pcp_poll_stats(struct port *p)
{
	struct pcp *c = p->priv;
	struct pcap_stat s;
	if (!(p->cfg.dir & PORT_RX) || pcap_stats(c->pc, &s) < 0)
		return;
	p->st.rx_drops += (uint32_t)(s.ps_drop - c->last_drop);
	p->st.rx_drops += (uint32_t)(s.ps_ifdrop - c->last_ifdrop);
	c->last_drop = s.ps_drop;
	c->last_ifdrop = s.ps_ifdrop;
}

const struct port_ops port_pcap_ops = {
	.name = "pcap",
	.dirs = PORT_RX | PORT_TX,
	.open = pcp_open,
	.rx_burst = pcp_rx_burst,
	.tx_burst = pcp_tx_burst,
	.fd = pcp_fd,
	.poll_stats = pcp_poll_stats,
	.close = pcp_close,
};
