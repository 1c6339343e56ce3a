/* SPDX-License-Identifier: BSD-2-Clause */
/* port_xdp.c — the AF_XDP port, xdp:IF (Linux, libxdp + libbpf; see port.h).
 *
 * Owns, per port: one AF_XDP socket bound to one queue of IF with its four rings, and
 * (for RX) the XDP program that redirects that queue's frames to the socket. Ports
 * opened with port_cfg.share join the first port's UMEM group (XDP_SHARED_UMEM, any
 * device, kernel >= 5.10): one UMEM, one frame allocator, and port_fwd_burst moves a
 * received frame to another member's TX ring by address, without a copy. Called by
 * lib/port.c's dispatch; ring arithmetic and frame ownership are lib/xsk_ring.c.
 *
 * Modes: the kernel binds zero-copy where the driver offers it and falls back to copy
 * mode otherwise (mode=auto); mode=zc insists, mode=copy forces copy. veth has no
 * zero-copy: frames are copied into the UMEM on receive and into an skb on transmit,
 * and on veth both happen in softirq on the sending CPU.
 *
 * RX ports need an XDP program that redirects their queue to their socket: that is
 * lib/xdp_prog.c (ours, attached only where nothing else is, leftovers of killed tools
 * cleared). TX-only ports attach nothing.
 *
 * XDP_STATISTICS mapping (cumulative per socket) into struct port_stats:
 *   rx_drops  = rx_dropped (no free frame in the fill ring, or frame too large)
 *             + rx_ring_full (our RX ring full: we read too slowly).
 *     rx_fill_ring_empty_descs is not added: in copy mode the same event is already
 *     counted in rx_dropped, and in zero-copy mode the driver retries instead of
 *     dropping (its misses show in the interface's own counters).
 *   tx_errors = frames the device dropped (sendto's EBUSY: "completed but not sent")
 *             + tx_invalid_descs + frames too long for a UMEM chunk
 *             + frames still in the TX ring when the port is closed (link down).
 *     A link that is down loses nothing (see kick_tx): it is backpressure, tx_full.
 *   tx_full   = bursts that found no room in the TX ring or no free frame (our own
 *     count, as for afpacket). tx_ring_empty_descs is not backpressure (it counts the
 *     kernel finding the TX ring empty on a wake-up) and is not folded in. */
#include "port_impl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__linux__) && defined(PPSLAB_HAVE_XDP)
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <net/if.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <xdp/xsk.h>

#include "ifinfo.h"
#include "log.h"
#include "num.h"
#include "xdp_prog.h"
#include "xsk_ring.h"

#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9   /* Linux 6.17: frames one sendto() sends in copy mode */
#endif
#define XP_GROUP_MAX 8            /* ports sharing one UMEM */
#define XP_DEFAULT_FRAMES 4096     /* TX only: 16 ms of backlog at 250 kpps */
/* RX: 16,384 frames (32 MiB) hold 16 ms at 1 Mpps while the reader is descheduled;
 * AF_PACKET's default V3 ring holds about 130,000 small frames */
#define XP_DEFAULT_FRAMES_RX 16384
#define XP_DEFAULT_BUDGET 128     /* below veth's 256-entry XDP ring */

/* --- UMEM groups and ports -------------------------------------------------------- */

struct xport;

struct xgroup {
	uint8_t *area;
	size_t area_len;
	struct xsk_umem *umem;
	struct xf fr;
	uint32_t chunk;
	int refs;
	struct xport *members[XP_GROUP_MAX];   /* index = the member's holder id */
};

struct xport {
	struct xgroup *g;
	unsigned holder;                 /* index in g->members */
	struct xsk_socket *xsk;
	/* libxdp's views of the rings (set-up only); the hot path uses ours */
	struct xsk_ring_prod l_fq, l_tx;
	struct xsk_ring_cons l_cq, l_rx;
	struct xr fq, cq, rx, tx;
	int fd, ifindex, has_rx, has_tx, zc;
	uint32_t queue;
	struct xprog *prog;
	uint64_t *held;                  /* frames handed out by the last rx_burst */
	uint32_t nheld, held_max;
	uint32_t frame_room;             /* largest frame a chunk holds (TX) */
	uint32_t tx_unkicked;            /* frames in the TX ring not yet kicked */
	uint64_t tx_dropped;             /* sendto's EBUSY: dropped by the device */
	uint64_t tx_too_long;
	uint64_t tx_closed;              /* still in the TX ring at close: never sent */
};

static void reap_completions(struct xport *x)
{
	uint32_t idx, n;
	if (!x->has_tx)
		return;
	while ((n = xr_cons_peek(&x->cq, 256, &idx)) > 0) {
		for (uint32_t i = 0; i < n; i++)
			xf_put(&x->g->fr, *xr_addr(&x->cq, idx + i), XF_TX);
		xr_cons_release(&x->cq, n);
	}
}

/* Free frames into the fill ring, in batches (xr_refill_count). */
static void refill(struct xport *x)
{
	struct xf *f = &x->g->fr;
	if (f->nfree < XR_BATCH)   /* frames may be waiting in completion rings */
		for (int i = 0; i < XP_GROUP_MAX; i++)
			if (x->g->members[i])
				reap_completions(x->g->members[i]);
	uint32_t want = xr_refill_count(xr_prod_free(&x->fq, XR_BATCH), f->nfree);
	if (!want)
		return;
	uint32_t idx, k = xr_prod_reserve(&x->fq, want, &idx);
	for (uint32_t i = 0; i < k; i++)
		xf_alloc(f, xr_addr(&x->fq, idx + i), 1, XF_FILL);
	xr_prod_submit(&x->fq, k);
}

/* The frames the caller had from our last burst go back to our fill ring, except those
 * that port_fwd_burst handed to a TX ring meanwhile (no longer held by us). */
static void recycle(struct xport *x)
{
	struct xf *f = &x->g->fr;
	uint8_t me = xf_held(x->holder);
	uint32_t idx, i = 0, k = 0, n = x->nheld;
	if (!n)
		return;
	uint32_t room = xr_prod_reserve(&x->fq, n, &idx);
	for (; i < n; i++) {
		uint64_t a = x->held[i];
		if (xf_state_of(f, a) != me)
			continue;
		if (k < room) {
			f->state[xf_index(f, a)] = XF_FILL;
			*xr_addr(&x->fq, idx + k++) = xf_base(f, a);
		} else {
			xf_put(f, a, me);
		}
	}
	/* give back the reserved entries we did not use: nobody else produces here */
	x->fq.cached_prod -= room - k;
	xr_prod_submit(&x->fq, k);
	x->nheld = 0;
}

static int xp_rx_burst(struct port *p, struct port_pkt *pkts, int max)
{
	struct xport *x = p->priv;
	struct xf *f = &x->g->fr;
	uint32_t idx, n;
	if (!x->has_rx)
		return -EBADF;
	recycle(x);
	refill(x);
	if (max <= 0)
		return 0;
	if ((uint32_t)max > x->held_max)
		max = (int)x->held_max;
	n = xr_cons_peek(&x->rx, (uint32_t)max, &idx);
	if (!n) {
		/* zero-copy drivers may sleep until woken (XDP_USE_NEED_WAKEUP) */
		if (xr_needs_wakeup(&x->fq))
			recvfrom(x->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		return 0;
	}
	uint8_t me = xf_held(x->holder);
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct xr_desc *d = xr_desc(&x->rx, idx + i);
		if (!xf_move(f, d->addr, XF_FILL, me))
			f->bad++;   /* the kernel returned a frame we did not give it */
		x->held[i] = d->addr;
		pkts[i].data = x->g->area + d->addr;
		pkts[i].len = d->len;
		pkts[i].ts_ns = 0;   /* AF_XDP has no receive timestamp without a metadata kfunc */
		bytes += d->len;
	}
	x->nheld = n;
	xr_cons_release(&x->rx, n);
	p->st.rx_pkts += n;
	p->st.rx_bytes += bytes;
	return (int)n;
}

/* Makes the kernel send what is in the TX ring. Copy mode sends at most the socket's
 * budget per sendto() and says EAGAIN for the rest (or when the completion ring or the
 * send buffer is full), so kick until the ring is empty, bounded; a zero-copy driver
 * sends by itself and needs a kick only when it says so (XDP_RING_NEED_WAKEUP).
 * With the link down (ENETDOWN; ENXIO once unbound) the kernel takes no descriptor
 * (xsk_check_common runs before any), so the frames wait in the ring, none lost; one
 * that the device drops while going down is consumed and completed, and sendto says
 * EBUSY for it (counted). What the kernel has not taken stays "unkicked", so that the
 * next send kicks again even if it adds nothing: with a full ring nothing would kick
 * any more, and the port would never recover when the link came back.
 * Returns 0 or the errno of the last failed sendto. */
static int kick_tx(struct xport *x)
{
	int rc = 0;
	uint32_t limit = x->zc ? 1 : x->tx.size / 32 + 8;
	for (uint32_t i = 0; i < limit; i++) {
		if (!xr_prod_pending(&x->tx))
			break;
		if (x->zc && !xr_needs_wakeup(&x->tx))
			break;
		if (sendto(x->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0) {
			rc = errno;
			if (rc == EBUSY)
				x->tx_dropped++;   /* the device dropped one: "completed but not sent" */
			else if (port_tx_errclass(rc) != PORT_TXE_FULL)
				break;             /* ENETDOWN and such: retried on the next send */
		}
		reap_completions(x);
	}
	reap_completions(x);
	x->tx_unkicked = x->zc ? 0 : xr_prod_pending(&x->tx);
	return rc;
}

/* Sends pkts in order: with zc, frames held by a member of our UMEM group go by address;
 * the others are copied into free frames. Returns how many were accepted from the front
 * (a frame too long for a chunk is accepted and counted in tx_errors, as afpacket does).
 * With hold (forwarded frames) the kick is as port_kick_now says. */
static int xp_send(struct port *p, const struct port_pkt *pkts, int n, int zc, int hold)
{
	struct xport *x = p->priv;
	struct xgroup *g = x->g;
	struct xf *f = &g->fr;
	uint32_t idx, i, j = 0;
	uint64_t bytes = 0;
	uint32_t kicked_at = UINT32_MAX;   /* j when the loop last kicked */
	int krc = 0;
	if (!x->has_tx)
		return -EBADF;
	if (n <= 0)
		return 0;
	reap_completions(x);
	uint32_t room = xr_prod_reserve(&x->tx, (uint32_t)n, &idx);
	for (i = 0; i < (uint32_t)n && j < room; i++) {
		const struct port_pkt *pk = &pkts[i];
		/* an address inside our UMEM (unsigned: below it wraps to a huge offset) */
		uint64_t off = (uint64_t)((uintptr_t)pk->data - (uintptr_t)g->area);
		if (zc && off < g->area_len &&
		    xf_state_of(f, off) >= XF_HELD0 && off + pk->len <= xf_base(f, off) + g->chunk) {
			f->state[xf_index(f, off)] = XF_TX;   /* handed over: no copy */
			p->st.tx_nocopy++;
		} else {
			if (pk->len > x->frame_room) {
				x->tx_too_long++;
				continue;
			}
			if (!xf_alloc(f, &off, 1, XF_TX)) {
				krc = kick_tx(x);   /* sent frames come back through the completion ring */
				kicked_at = j;
				if (!xf_alloc(f, &off, 1, XF_TX))
					break;
			}
			memcpy(g->area + off, pk->data, pk->len);
		}
		struct xr_desc *d = xr_desc(&x->tx, idx + j++);
		d->addr = off;
		d->len = pk->len;
		d->options = 0;
		bytes += pk->len;
	}
	x->tx.cached_prod -= room - j;   /* give back unused reservations */
	if (j)
		xr_prod_submit(&x->tx, j);
	p->st.tx_pkts += j;
	p->st.tx_bytes += bytes;
	x->tx_unkicked += j;
	if (port_kick_now(x->tx_unkicked, hold, i < (uint32_t)n) && kicked_at != j)   /* not twice */
		krc = kick_tx(x);
	if (i < (uint32_t)n) {
		p->st.tx_full++;
		if (krc && port_tx_errclass(krc) == PORT_TXE_LINK)
			port_link_wait();   /* nothing drains until the link is back */
	}
	return (int)i;
}

static int xp_tx_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	return xp_send(p, pkts, n, 0, 0);
}

static int xp_fwd_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	return xp_send(p, pkts, n, 1, 1);
}

static void xp_flush(struct port *p)
{
	struct xport *x = p->priv;
	if (x->tx_unkicked)
		kick_tx(x);
}

static int xp_fd(const struct port *p)
{
	const struct xport *x = p->priv;
	return x->fd;
}

static void xp_poll_stats(struct port *p)
{
	struct xport *x = p->priv;
	struct xdp_statistics s;
	socklen_t l = sizeof(s);
	memset(&s, 0, sizeof(s));
	if (getsockopt(x->fd, SOL_XDP, XDP_STATISTICS, &s, &l))
		return;
	/* cumulative since the socket was made: assign, do not add (mapping: top comment) */
	p->st.rx_drops = s.rx_dropped + s.rx_ring_full;
	p->st.tx_errors = x->tx_dropped + x->tx_too_long + x->tx_closed + s.tx_invalid_descs;
}

static void group_put(struct xgroup *g)
{
	if (--g->refs > 0)
		return;
	if (g->umem)
		xsk_umem__delete(g->umem);
	if (g->area)
		munmap(g->area, g->area_len);
	xf_fini(&g->fr);
	free(g);
}

static void xp_close(struct port *p)
{
	struct xport *x = p->priv;
	if (!x)
		return;
	if (x->xsk) {
		/* what is still in the TX ring goes out first (bounded: 100 ms) */
		for (int i = 0; x->has_tx && i < 100 && xr_prod_pending(&x->tx); i++) {
			kick_tx(x);
			if (xr_prod_pending(&x->tx))
				usleep(1000);
		}
		if (x->has_tx) {   /* the link stayed down: these die with the socket */
			x->tx_closed = xr_prod_pending(&x->tx);
			xp_poll_stats(p);
		}
		if (x->prog)
			bpf_map_delete_elem(x->prog->map_fd, &x->queue);
		if (x->has_tx)
			log_info("xdp:%s: sent %llu frames, %llu of them without a copy", p->ifname,
				 (unsigned long long)p->st.tx_pkts,
				 (unsigned long long)p->st.tx_nocopy);
		if (x->g->fr.bad)
			log_warn("xdp:%s: %llu frames came back in an unexpected state", p->ifname,
				 (unsigned long long)x->g->fr.bad);
		xsk_socket__delete(x->xsk);
	}
	if (x->prog)
		xdp_prog_put(x->prog);
	if (x->g) {
		x->g->members[x->holder] = NULL;
		group_put(x->g);
	}
	free(x->held);
	free(x);
	p->priv = NULL;
}

/* A new UMEM for frames of chunk bytes: nframes frames, fill and completion rings of
 * ring_size entries (their views go into x, whose socket will be the first). */
static int group_new(struct xport *x, uint32_t chunk, uint32_t nframes, uint32_t ring_size,
		     const char *ifname, char *err, size_t errlen)
{
	struct xgroup *g = calloc(1, sizeof(*g));
	int rc;
	if (!g)
		return -ENOMEM;
	x->g = g;
	g->refs = 1;
	g->chunk = chunk;
	if ((rc = xf_init(&g->fr, nframes, chunk))) {
		snprintf(err, errlen, "xdp:%s: no memory for %u frames", ifname, nframes);
		return rc;
	}
	g->area_len = (size_t)nframes * chunk;
	g->area = mmap(NULL, g->area_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (g->area == MAP_FAILED) {
		rc = -errno;
		g->area = NULL;
		snprintf(err, errlen, "xdp:%s: cannot map a UMEM of %zu bytes: %s", ifname,
			 g->area_len, strerror(-rc));
		return rc;
	}
	struct xsk_umem_config uc = { .fill_size = ring_size, .comp_size = ring_size,
				      .frame_size = chunk, .frame_headroom = 0, .flags = 0 };
	rc = xsk_umem__create(&g->umem, g->area, g->area_len, &x->l_fq, &x->l_cq, &uc);
	if (rc) {
		g->umem = NULL;
		if (rc == -EAFNOSUPPORT)
			snprintf(err, errlen, "xdp:%s: AF_XDP is not available in this kernel "
				 "(CONFIG_XDP_SOCKETS); use afpacket:%s", ifname, ifname);
		else
			snprintf(err, errlen, "xdp:%s: cannot register the UMEM: %s%s", ifname,
				 strerror(-rc), rc == -EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return rc;
	}
	g->members[0] = x;
	x->holder = 0;
	return 0;
}

static int group_join(struct xport *x, struct port *with, uint32_t chunk, const char *ifname,
		      char *err, size_t errlen)
{
	const struct xport *w = with->priv;
	struct xgroup *g = w->g;
	if (w->ifindex == x->ifindex && w->queue == x->queue) {
		/* one queue's sockets would share its fill and completion rings, which this
		 * single-threaded design does not do */
		snprintf(err, errlen, "xdp:%s: queue %u is already used by another port of this "
			 "program; use queue=N for another queue", ifname, x->queue);
		return -EBUSY;
	}
	if (chunk > g->chunk) {
		snprintf(err, errlen, "xdp:%s: frames of this port need %u-byte chunks, the shared "
			 "UMEM of %s has %u", ifname, chunk, port_ifname(with), g->chunk);
		return -EINVAL;
	}
	for (unsigned i = 0; i < XP_GROUP_MAX; i++)
		if (!g->members[i]) {
			g->members[i] = x;
			x->holder = i;
			x->g = g;
			g->refs++;
			return 0;
		}
	snprintf(err, errlen, "xdp:%s: more than %d ports share one UMEM", ifname, XP_GROUP_MAX);
	return -ENOSPC;
}

static void ring_view_prod(struct xr *r, const struct xsk_ring_prod *l)
{
	xr_init(r, l->size, l->producer, l->consumer, l->flags, l->ring);
}

static void ring_view_cons(struct xr *r, const struct xsk_ring_cons *l)
{
	xr_init(r, l->size, l->producer, l->consumer, l->flags, l->ring);
}

struct xp_opts {
	uint16_t bind_mode;   /* 0 (auto), XDP_COPY or XDP_ZEROCOPY */
	uint64_t queue, frames, budget;
	int skb, budget_set;
	int thread_queue;     /* the queue came from port_cfg.queue_offset (a sender's thread) */
};

static int parse_opts(struct port *p, const struct port_kv *kv, int nkv, struct xp_opts *o,
		      char *err, size_t errlen)
{
	static const struct port_key keys[] = {
		{ "mode", PORT_RX | PORT_TX }, { "queue", PORT_RX | PORT_TX },
		{ "frames", PORT_RX | PORT_TX }, { "skb", PORT_RX }, { "budget", PORT_TX },
		{ NULL, 0 },
	};
	const char *v;
	int rc = port_kv_check(p, kv, nkv, keys, err, errlen);
	if (rc)
		return rc;
	o->frames = p->cfg.ring_frames ? p->cfg.ring_frames
				       : (p->cfg.dir & PORT_RX) ? XP_DEFAULT_FRAMES_RX : XP_DEFAULT_FRAMES;
	o->budget = XP_DEFAULT_BUDGET;
	if ((v = port_kv_get(kv, nkv, "mode"))) {
		if (!strcmp(v, "auto"))
			o->bind_mode = 0;
		else if (!strcmp(v, "copy"))
			o->bind_mode = XDP_COPY;
		else if (!strcmp(v, "zc"))
			o->bind_mode = XDP_ZEROCOPY;
		else
			return port_opt_err(p, err, errlen, "mode=%s: expected copy, zc or auto", v);
	}
	if ((v = port_kv_get(kv, nkv, "queue")) && num_u64(v, 0, 1023, &o->queue))
		return port_opt_err(p, err, errlen, "queue=%s: expected a queue number 0..1023", v);
	o->queue += p->cfg.queue_offset;
	o->thread_queue = p->cfg.queue_offset > 0;
	if ((v = port_kv_get(kv, nkv, "frames")) && num_count(v, 64, 1 << 20, &o->frames))
		return port_opt_err(p, err, errlen, "frames=%s: expected 64..1048576 (UMEM frames)", v);
	if ((rc = port_kv_bool(p, kv, nkv, "skb", &o->skb, err, errlen)))
		return rc;
	if ((v = port_kv_get(kv, nkv, "budget"))) {
		if (num_count(v, 32, 1 << 16, &o->budget))
			return port_opt_err(p, err, errlen, "budget=%s: expected 32..65536 (frames "
					    "per send call)", v);
		o->budget_set = 1;
	}
	return 0;
}

static int socket_error(int rc, const char *ifname, const struct xp_opts *o, char *err,
			size_t errlen)
{
	if (rc == -EOPNOTSUPP && o->bind_mode == XDP_ZEROCOPY)
		snprintf(err, errlen, "xdp:%s: the driver offers no zero-copy AF_XDP (mode=zc); use "
			 "mode=copy or mode=auto", ifname);
	else if (rc == -EBUSY)
		snprintf(err, errlen, "xdp:%s: queue %llu already has an AF_XDP socket", ifname,
			 (unsigned long long)o->queue);
	else if (rc == -EINVAL)
		snprintf(err, errlen, "xdp:%s: cannot bind an AF_XDP socket to queue %llu (does the "
			 "interface have that queue? is it up?%s)", ifname, (unsigned long long)o->queue,
			 o->thread_queue ? " a sender's thread i binds queue i: the lab makes N "
					   "queues with ppslab lab up --queues N" : "");
	else if (rc == -EAFNOSUPPORT)
		snprintf(err, errlen, "xdp:%s: AF_XDP is not available in this kernel "
			 "(CONFIG_XDP_SOCKETS); use afpacket:%s", ifname, ifname);
	else
		snprintf(err, errlen, "xdp:%s: cannot create the AF_XDP socket: %s%s", ifname,
			 strerror(-rc), rc == -EPERM ? " (needs root or CAP_NET_RAW)" : "");
	return rc;
}

static int xp_open(struct port *p, const char *target, const struct port_kv *kv, int nkv,
		   char *err, size_t errlen)
{
	struct xp_opts o = { 0 };
	int rc = parse_opts(p, kv, nkv, &o, err, errlen);
	if (rc)
		return rc;
	if (strlen(target) >= IFNAMSIZ) {
		snprintf(err, errlen, "interface name '%s' too long", target);
		return -EINVAL;
	}
	struct xport *x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->fd = -1;
	p->priv = x;
	p->layer = PORT_L2;
	snprintf(p->ifname, sizeof(p->ifname), "%s", target);
	x->has_rx = !!(p->cfg.dir & PORT_RX);
	x->has_tx = !!(p->cfg.dir & PORT_TX);
	x->queue = (uint32_t)o.queue;
	x->ifindex = if_index_of(target);
	if (x->ifindex < 0) {
		rc = x->ifindex;
		snprintf(err, errlen, "interface '%s': %s", target,
			 rc == -ENODEV ? "no such interface in this network namespace" : strerror(-rc));
		goto fail;
	}

	/* the chunk must hold the largest frame we send and the largest the MTU lets in */
	uint32_t len = x->has_tx ? p->cfg.frame_max : 0, mtu = 1500, chunk;
	if (x->has_rx) {
		if_mtu(target, &mtu);
		if (mtu + 18 > len)   /* Ethernet header and one VLAN tag */
			len = mtu + 18;
	}
	if (xr_chunk_for(len, &chunk)) {
		rc = -EINVAL;   /* a setting that cannot work with this backend: EX_USAGE */
		snprintf(err, errlen, "xdp:%s: %u-byte frames%s do not fit an AF_XDP frame (at most "
			 "%u without multi-buffer); use afpacket:%s", target, len,
			 x->has_rx ? " (the interface MTU)" : "", 4096 - XR_RX_HEADROOM, target);
		goto fail;
	}
	x->frame_room = chunk;
	uint32_t nframes = xr_pow2((uint32_t)o.frames, 64);
	uint32_t ring = x->has_rx && x->has_tx ? nframes / 2 : nframes;

	struct port *with = p->cfg.share;
	if (with && strcmp(port_backend(with), "xdp"))
		with = NULL;   /* sharing needs two xdp: ports; otherwise frames are copied */
	struct xsk_socket_config sc = {
		.rx_size = x->has_rx ? ring : 0,
		.tx_size = x->has_tx ? ring : 0,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,   /* our program, below */
		.xdp_flags = 0,
		.bind_flags = (uint16_t)(o.bind_mode | XDP_USE_NEED_WAKEUP),
	};
	/* The program first, so a leftover is gone before we bind. A socket of a process
	 * that just died keeps its queue busy until the kernel's deferred release has run
	 * (milliseconds): EBUSY is retried for up to a second, from scratch each time
	 * (libxdp cannot re-bind a half-set-up first socket). */
	if (x->has_rx && (rc = xdp_prog_get(x->ifindex, target, o.skb, &x->prog, err, errlen)))
		goto fail;
	for (int attempt = 0;; attempt++) {
		if (with) {
			if ((rc = group_join(x, with, chunk, target, err, errlen)))
				goto fail;
			rc = xsk_socket__create_shared(&x->xsk, target, x->queue, x->g->umem,
						       x->has_rx ? &x->l_rx : NULL,
						       x->has_tx ? &x->l_tx : NULL, &x->l_fq, &x->l_cq,
						       &sc);
		} else {
			if ((rc = group_new(x, chunk, nframes, ring, target, err, errlen)))
				goto fail;
			rc = xsk_socket__create(&x->xsk, target, x->queue, x->g->umem,
						x->has_rx ? &x->l_rx : NULL,
						x->has_tx ? &x->l_tx : NULL, &sc);
		}
		if (!rc)
			break;
		x->xsk = NULL;
		x->g->members[x->holder] = NULL;
		group_put(x->g);
		x->g = NULL;
		if (rc != -EBUSY || attempt >= 50) {
			socket_error(rc, target, &o, err, errlen);
			goto fail;
		}
		usleep(20000);
	}
	x->fd = xsk_socket__fd(x->xsk);
	ring_view_prod(&x->fq, &x->l_fq);
	ring_view_cons(&x->cq, &x->l_cq);
	if (x->has_rx)
		ring_view_cons(&x->rx, &x->l_rx);
	if (x->has_tx)
		ring_view_prod(&x->tx, &x->l_tx);

	struct xdp_options xo = { 0 };
	socklen_t xl = sizeof(xo);
	if (getsockopt(x->fd, SOL_XDP, XDP_OPTIONS, &xo, &xl) == 0)
		x->zc = !!(xo.flags & XDP_OPTIONS_ZEROCOPY);
	if (x->has_tx && !x->zc) {
		unsigned b = (unsigned)(o.budget < ring ? o.budget : ring);
		if (b >= 32 && setsockopt(x->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &b, sizeof(b)) &&
		    o.budget_set) {
			rc = -errno;
			snprintf(err, errlen, "xdp:%s: budget=%llu: %s (the option needs Linux 6.17)",
				 target, (unsigned long long)o.budget, strerror(-rc));
			goto fail;
		}
	}
	if (x->has_rx) {
		x->held_max = x->rx.size;
		x->held = malloc(x->held_max * sizeof(*x->held));
		if (!x->held) {
			rc = -ENOMEM;
			goto fail;
		}
		int fd = x->fd;
		if (bpf_map_update_elem(x->prog->map_fd, &x->queue, &fd, 0)) {
			rc = -errno;
			snprintf(err, errlen, "xdp:%s: cannot register the socket for queue %u: %s",
				 target, x->queue, strerror(-rc));
			goto fail;
		}
		refill(x);
	}
	log_info("xdp:%s: AF_XDP %s mode, queue %u, %u frames of %u bytes%s%s%s", target,
		 x->zc ? "zero-copy" : "copy", x->queue, x->g->fr.nframes, chunk,
		 x->prog ? (x->prog->mode_flag == XDP_FLAGS_SKB_MODE ? ", generic XDP" : ", native XDP") : "",
		 with ? ", UMEM shared with " : "", with ? port_ifname(with) : "");
	return 0;
fail:
	xp_close(p);
	return rc;
}

const struct port_ops port_xdp_ops = {
	.name = "xdp",
	.dirs = PORT_RX | PORT_TX,
	.open = xp_open,
	.rx_burst = xp_rx_burst,
	.tx_burst = xp_tx_burst,
	.fwd_burst = xp_fwd_burst,
	.flush = xp_flush,
	.fd = xp_fd,
	.poll_stats = xp_poll_stats,
	.close = xp_close,
};

#else /* no libxdp/libbpf at build time, or not Linux */

static int xp_open_unavailable(struct port *p, const char *target, const struct port_kv *kv,
			       int nkv, char *err, size_t errlen)
{
	(void)p; (void)kv; (void)nkv;
#ifdef __linux__
	snprintf(err, errlen, "xdp:%s: this ppslab was built without AF_XDP (libxdp-dev and "
		 "libbpf-dev were missing): install them and rebuild, or use afpacket:%s", target,
		 target);
#else
	snprintf(err, errlen, "xdp:%s: AF_XDP exists only on Linux; use pcap:%s", target, target);
#endif
	return -EPROTONOSUPPORT;
}

static int xp_none_burst(struct port *p, struct port_pkt *pkts, int max)
{
	(void)p; (void)pkts; (void)max;
	return -EBADF;
}

static int xp_none_tx(struct port *p, const struct port_pkt *pkts, int n)
{
	(void)p; (void)pkts; (void)n;
	return -EBADF;
}

static int xp_none_fd(const struct port *p)
{
	(void)p;
	return -1;
}

static void xp_none_close(struct port *p)
{
	(void)p;
}

const struct port_ops port_xdp_ops = {
	.name = "xdp",
	.dirs = PORT_RX | PORT_TX,
	.unavailable = 1,
	.open = xp_open_unavailable,
	.rx_burst = xp_none_burst,
	.tx_burst = xp_none_tx,
	.fd = xp_none_fd,
	.close = xp_none_close,
};
#endif
