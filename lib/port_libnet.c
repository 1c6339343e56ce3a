/* SPDX-License-Identifier: BSD-2-Clause */
/* port_libnet.c — libnet link-layer injection as a transmit-only port, the portable way
 * to put whole frames on a wire (PF_PACKET on Linux, BPF on the BSDs and macOS).
 * Opened by port_open for "libnet:IF"; ppslab-gen sends through it.
 *
 * One libnet_adv_write_link (one sendto/write) per frame: slower than a ring, which is
 * the point of having it: it is what mausezahn-style tools do, and it runs where
 * AF_PACKET rings do not. The descriptor is made non-blocking so a full send buffer is
 * reported (tx_full, the caller retries) instead of stalling, and so is a link that is
 * down (port_tx_errclass). On Linux the packet socket, which libnet opens for ETH_P_ALL,
 * gets a filter that accepts nothing: nobody reads it, and otherwise every frame on the
 * interface would be queued to it. */
#include <errno.h>
#include <fcntl.h>
#include <libnet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <linux/filter.h>
#include <sys/socket.h>
#endif

#include "port_impl.h"

static void lnp_close(struct port *p)
{
	libnet_t *l = p->priv;
	if (l)
		libnet_destroy(l);
	p->priv = NULL;
}

static int lnp_open(struct port *p, const char *target, const struct port_kv *kv, int nkv,
		    char *err, size_t errlen)
{
	static const struct port_key keys[] = { { NULL, 0 } };
	char ebuf[LIBNET_ERRBUF_SIZE];
	int rc = port_kv_check(p, kv, nkv, keys, err, errlen);
	if (rc)
		return rc;
	if (p->cfg.dir & PORT_RX) {
		char with[160];
		snprintf(err, errlen, "libnet:%s: libnet only transmits (receive with %s)", target,
			 port_specs_help(p->cfg.dir, 1, with, sizeof(with)));
		return -EOPNOTSUPP;
	}
	libnet_t *l = libnet_init(LIBNET_LINK_ADV, target, ebuf);
	if (!l) {
		int perm = strstr(ebuf, "ermission") || strstr(ebuf, "not permitted");
		snprintf(err, errlen, "libnet:%s: %s%s", target, ebuf,
			 perm ? " (needs root or CAP_NET_RAW)" : "");
		return perm ? -EPERM : -ENODEV;
	}
	p->priv = l;
	p->layer = PORT_L2;
	snprintf(p->ifname, sizeof(p->ifname), "%s", target);
	int fd = libnet_getfd(l);
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		rc = -errno;
		snprintf(err, errlen, "libnet:%s: non-blocking mode: %s", target, strerror(errno));
		lnp_close(p);
		return rc;
	}
#ifdef __linux__
	struct sock_filter none = BPF_STMT(BPF_RET | BPF_K, 0);
	struct sock_fprog prog = { .len = 1, .filter = &none };
	setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));   /* best effort */
#endif
	return 0;
}

static int lnp_rx_burst(struct port *p, struct port_pkt *pkts, int max)
{
	(void)p;
	(void)pkts;
	(void)max;
	return -EOPNOTSUPP;
}

static int lnp_tx_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	libnet_t *l = p->priv;
	int i;
	for (i = 0; i < n; i++) {
		errno = 0;
		if (libnet_adv_write_link(l, pkts[i].data, pkts[i].len) < 0) {
			enum port_txe why = port_tx_errclass(errno);
			if (why == PORT_TXE_BAD) {
				p->st.tx_errors++;     /* rejected (e.g. too long): skip it */
				continue;
			}
			p->st.tx_full++;       /* full, or the link is down: the caller retries */
			if (why == PORT_TXE_LINK)
				port_link_wait();
			break;
		}
		p->st.tx_pkts++;
		p->st.tx_bytes += pkts[i].len;
	}
	return i;
}

static int lnp_fd(const struct port *p)
{
	return libnet_getfd(p->priv);
}

const struct port_ops port_libnet_ops = {
	.name = "libnet",
	.dirs = PORT_TX,
	.open = lnp_open,
	.rx_burst = lnp_rx_burst,
	.tx_burst = lnp_tx_burst,
	.fd = lnp_fd,
	.poll_stats = NULL,
	.close = lnp_close,
};
