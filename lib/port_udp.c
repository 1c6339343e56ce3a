/* SPDX-License-Identifier: BSD-2-Clause */
/* port_udp.c — kernel UDP sockets as a port: sendmmsg/recvmmsg bursts, no raw access
 * needed, works on loopback and across a routed network.
 *
 * Only the UDP payload crosses: tx takes whole frames and sends from offset 42, rx
 * delivers payloads (PORT_L4). Receive-buffer overflows are read from SO_RXQ_OVFL (a
 * cumulative 32-bit per-socket count, folded into 64 bits) so the sink can tell its own
 * drops from network loss; receive times come from SO_TIMESTAMPNS (CLOCK_REALTIME).
 *
 * A connected sender learns of ICMP errors for datagrams it already sent (IP_RECVERR
 * queues each one; the next send fails with ECONNREFUSED, EHOSTUNREACH, ...). That send
 * did not go out and nothing is wrong locally: the error queue is read, its ICMP
 * messages counted as tx_refused, and the send is retried — not a full socket, not a
 * rejected frame. */
#include <arpa/inet.h>
#include <errno.h>
#ifdef __linux__
#include <linux/errqueue.h>
#endif
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ifinfo.h"
#include "num.h"
#include "pkt.h"
#include "port_impl.h"

#ifndef SO_RXQ_OVFL
#define SO_RXQ_OVFL 40
#endif

#define UDP_BURST 64

struct udpp {
	int fd;
	uint8_t *pool;                      /* UDP_BURST payload buffers */
	struct mmsghdr msgs[UDP_BURST];
	struct iovec iov[UDP_BURST];
	char ctrl[UDP_BURST][64];
	uint32_t last_ovfl;
	int have_ovfl;
};

static int parse_addr_port(const char *s, struct sockaddr_in *sa)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	uint64_t port;
	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = 0;
	if (num_u64(colon + 1, 0, 65535, &port))
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (!host[0] || !strcmp(host, "*"))
		sa->sin_addr.s_addr = htonl(INADDR_ANY);
	else if (ip4_parse(host, &sa->sin_addr.s_addr))
		return -EINVAL;
	return 0;
}

static void udpp_close(struct port *p)
{
	struct udpp *u = p->priv;
	if (!u)
		return;
	if (u->fd >= 0)
		close(u->fd);
	free(u->pool);
	free(u);
	p->priv = NULL;
}

static int udpp_open(struct port *p, const char *target, const struct port_kv *kv, int nkv,
		     char *err, size_t errlen)
{
	static const struct port_key keys[] = { { "src", PORT_TX }, { "ttl", PORT_TX }, { NULL, 0 } };
	const char *ttl_s = port_kv_get(kv, nkv, "ttl");
	struct sockaddr_in sa, src;
	uint64_t ttl = 0;
	int one = 1, rc = port_kv_check(p, kv, nkv, keys, err, errlen);
	if (rc)
		return rc;
	if (parse_addr_port(target, &sa)) {
		snprintf(err, errlen, "udp:%s: expected udp:ADDR:PORT", target);
		return -EINVAL;
	}
	if (ttl_s && ((p->cfg.dir & PORT_RX) || num_u64(ttl_s, 1, 255, &ttl))) {
		snprintf(err, errlen, "ttl=%s: expected a TTL 1..255, on a sending port", ttl_s);
		return -EINVAL;
	}
	struct udpp *u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	p->priv = u;
	p->layer = PORT_L4;
	u->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	u->pool = malloc((size_t)UDP_BURST * p->cfg.frame_max);
	if (u->fd < 0 || !u->pool) {
		rc = u->fd < 0 ? -errno : -ENOMEM;
		snprintf(err, errlen, "udp socket: %s", strerror(-rc));
		goto fail;
	}
	int buf = 32 << 20;
	if (p->cfg.dir & PORT_RX) {
		/* SO_RCVBUFFORCE needs CAP_NET_ADMIN; fall back to what the limit allows */
		if (setsockopt(u->fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) < 0)
			setsockopt(u->fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
		u->have_ovfl = setsockopt(u->fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one)) == 0;
		setsockopt(u->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
		setsockopt(u->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(u->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			rc = -errno;
			snprintf(err, errlen, "bind udp:%s: %s", target, strerror(errno));
			goto fail;
		}
	} else {
		const char *s = port_kv_get(kv, nkv, "src");
		if (setsockopt(u->fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)) < 0)
			setsockopt(u->fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
		/* report ENOBUFS from a full device queue instead of dropping silently */
#ifdef IP_RECVERR
		setsockopt(u->fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
#endif
		int t = (int)ttl;
		if (ttl && setsockopt(u->fd, IPPROTO_IP, IP_TTL, &t, sizeof(t)) < 0) {
			rc = -errno;
			snprintf(err, errlen, "ttl=%s: %s", ttl_s, strerror(errno));
			goto fail;
		}
		if (s) {
			if (parse_addr_port(s, &src)) {
				snprintf(err, errlen, "src=%s: expected ADDR:PORT", s);
				rc = -EINVAL;
				goto fail;
			}
			if (bind(u->fd, (struct sockaddr *)&src, sizeof(src)) < 0) {
				rc = -errno;
				snprintf(err, errlen, "bind src=%s: %s", s, strerror(errno));
				goto fail;
			}
		}
		if (connect(u->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			rc = -errno;
			snprintf(err, errlen, "connect udp:%s: %s", target, strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	udpp_close(p);
	return rc;
}

static int udpp_rx_burst(struct port *p, struct port_pkt *pkts, int max)
{
	struct udpp *u = p->priv;
	if (max > UDP_BURST)
		max = UDP_BURST;
	for (int i = 0; i < max; i++) {
		u->iov[i].iov_base = u->pool + (size_t)i * p->cfg.frame_max;
		u->iov[i].iov_len = p->cfg.frame_max;
		memset(&u->msgs[i].msg_hdr, 0, sizeof(u->msgs[i].msg_hdr));
		u->msgs[i].msg_hdr.msg_iov = &u->iov[i];
		u->msgs[i].msg_hdr.msg_iovlen = 1;
		u->msgs[i].msg_hdr.msg_control = u->ctrl[i];
		u->msgs[i].msg_hdr.msg_controllen = sizeof(u->ctrl[i]);
	}
	int n = recvmmsg(u->fd, u->msgs, (unsigned)max, MSG_DONTWAIT, NULL);
	if (n < 0)
		return (errno == EAGAIN || errno == EINTR) ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		pkts[i].data = u->iov[i].iov_base;
		pkts[i].len = u->msgs[i].msg_len;
		pkts[i].ts_ns = 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&u->msgs[i].msg_hdr); c;
		     c = CMSG_NXTHDR(&u->msgs[i].msg_hdr, c)) {
			if (c->cmsg_level != SOL_SOCKET)
				continue;
			if (c->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;
				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
				pkts[i].ts_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
			} else if (c->cmsg_type == SO_RXQ_OVFL) {
				uint32_t o;
				memcpy(&o, CMSG_DATA(c), sizeof(o));
				p->st.rx_drops += (uint32_t)(o - u->last_ovfl);
				u->last_ovfl = o;
			}
		}
		p->st.rx_bytes += pkts[i].len;
	}
	p->st.rx_pkts += (uint64_t)n;
	return n;
}

/* Reads the socket's error queue: the number of ICMP errors in it (others are dropped). */
static uint64_t udp_drain_errq(int fd)
{
	uint64_t icmp = 0;
#ifdef __linux__
	for (int i = 0; i < 4096; i++) {
		char data[64], ctrl[256];
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl,
				    .msg_controllen = sizeof(ctrl) };
		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level != IPPROTO_IP || c->cmsg_type != IP_RECVERR)
				continue;
			struct sock_extended_err ee;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			icmp += ee.ee_origin == SO_EE_ORIGIN_ICMP;
		}
	}
#else
	(void)fd;
#endif
	return icmp;
}

static int udpp_tx_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	struct udpp *u = p->priv;
	int done = 0, refusals = 0;
	while (done < n) {
		int m = n - done > UDP_BURST ? UDP_BURST : n - done;
		for (int i = 0; i < m; i++) {
			const struct port_pkt *k = &pkts[done + i];
			u->iov[i].iov_base = k->data + PKT_PAYLOAD_OFF;
			u->iov[i].iov_len = k->len > PKT_PAYLOAD_OFF ? k->len - PKT_PAYLOAD_OFF : 0;
			memset(&u->msgs[i].msg_hdr, 0, sizeof(u->msgs[i].msg_hdr));
			u->msgs[i].msg_hdr.msg_iov = &u->iov[i];
			u->msgs[i].msg_hdr.msg_iovlen = 1;
		}
		int r = sendmmsg(u->fd, u->msgs, (unsigned)m, MSG_DONTWAIT);
		int e = errno;
		for (int i = 0; i < r; i++) {
			p->st.tx_pkts++;
			p->st.tx_bytes += u->iov[i].iov_len;
		}
		if (r == m) {
			done += r;
			continue;
		}
		/* a short count: sendmmsg keeps the error for the next call */
		if (r > 0) {
			done += r;
			int so = 0;
			socklen_t sl = sizeof(so);
			e = getsockopt(u->fd, SOL_SOCKET, SO_ERROR, &so, &sl) == 0 && so ? so : EAGAIN;
		}
		uint64_t icmp = udp_drain_errq(u->fd);
		if (icmp) {
			/* refusals of earlier datagrams; the rest has not left: send it again
			 * (a bounded number of times without progress, then as if full) */
			p->st.tx_refused += icmp;
			refusals = r > 0 ? 0 : refusals + 1;
			if (refusals < 8)
				continue;
			p->st.tx_full++;
			break;
		}
		if (e == EAGAIN || e == ENOBUFS || e == EINTR) {
			p->st.tx_full++;
			break;
		}
		if (r > 0)
			break;                  /* the error comes back on the next call */
		return done ? done : -e;
	}
	return done;
}

static int udpp_fd(const struct port *p)
{
	const struct udpp *u = p->priv;
	return u->fd;
}

const struct port_ops port_udp_ops = {
	.name = "udp",
	.dirs = PORT_RX | PORT_TX,
	.l4 = 1,
	.open = udpp_open,
	.rx_burst = udpp_rx_burst,
	.tx_burst = udpp_tx_burst,
	.fd = udpp_fd,
	.poll_stats = NULL,
	.close = udpp_close,
};
