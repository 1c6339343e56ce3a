/* SPDX-License-Identifier: BSD-2-Clause */
/* port_afpacket.c — the Linux default port: AF_PACKET with PACKET_MMAP rings.
 *
 * RX: TPACKET_V3 (blocks of frames, one wake-up per block; what the sink wants) or, with
 * ring=v2 / cfg.rx_per_frame, TPACKET_V2 (each frame visible at once; what the polled
 * forwarder wants, since a V3 block holds frames back until it retires). The RX socket
 * sets PACKET_IGNORE_OUTGOING so our own transmissions are not read back.
 * TX: a TPACKET_V2 TX ring on a second socket bound with protocol 0 (it receives
 * nothing), PACKET_QDISC_BYPASS on by default, PACKET_LOSS so a frame the kernel cannot
 * build an skb from is skipped instead of wedging the ring (silently: tpacket_snd gives
 * the slot back as available, so such frames cannot be counted; gen refuses frames
 * longer than the MTU before it starts); one sendto() per burst (forwarded
 * frames: per PORT_FWD_BATCH, or port_flush). A failed sendto() loses nothing: see
 * afp_kick. With
 * linear=1 (or cfg.tx_linear) each frame is preceded by a virtio_net_hdr (PACKET_VNET_HDR)
 * asking the kernel to copy it whole into the skb head (see afp_open_tx).
 * Drops: PACKET_STATISTICS (reset on every read) is folded into 64-bit totals.
 * Fanout: PACKET_FANOUT_HASH spreads flows; cfg.fanout_cbpf_off instead selects the member
 * with a classic BPF program reading one byte of the frame (the sink's stream id), so that
 * every frame of a stream lands on one socket whatever its flows. A gated socket
 * (cfg.rx_gated) carries a drop-everything socket filter from before bind until
 * port_rx_open, so no frame is taken while the group is still forming (the member count,
 * and so the modulo, changes with every join); filtered frames are not ring drops. */
#ifdef __linux__
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/if.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ifinfo.h"
#include "num.h"
#include "pkt.h"
#include "port_impl.h"

#define AFP_LINEAR_MAX 2048    /* linear TX: frames up to this many bytes go in the skb head */

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

struct afp {
	int ifindex;
	int rx_fd, tx_fd;
	int rx_v3;
	int gated;                    /* the drop-everything filter is attached */
	/* RX ring: V3 blocks or V2 frames, both as "slots" of slot_size bytes */
	uint8_t *rx_map;
	size_t rx_map_len;
	unsigned rx_nslots, rx_slot_size;
	unsigned rx_cur;              /* next slot to look at */
	unsigned rel_first, rel_n;    /* slots handed out, to give back on the next call */
	/* V3: the current block being walked */
	struct tpacket_block_desc *blk;
	uint32_t blk_left;
	uint8_t *blk_pkt;
	/* TX ring (V2) */
	uint8_t *tx_map;
	size_t tx_map_len;
	unsigned tx_nslots, tx_slot_size, tx_head;
	unsigned tx_pending;          /* frames queued since the last kick */
	unsigned tx_vnet;             /* bytes of virtio_net_hdr before each TX frame (0 or 10) */
};

static unsigned pow2_at_least(unsigned v)
{
	unsigned p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

/* A V2 ring of at least nframes slots of slot bytes (a power of two): blocks are whole
 * pages (the kernel requires it) holding a whole number of slots. */
static void ring_geometry(unsigned slot, unsigned nframes, struct tpacket_req *req)
{
	unsigned block = slot > 4096 ? slot : 4096;
	unsigned per = block / slot;
	unsigned nblocks = (nframes + per - 1) / per;
	*req = (struct tpacket_req){ .tp_block_size = block, .tp_block_nr = nblocks,
				     .tp_frame_size = slot, .tp_frame_nr = nblocks * per };
}

static int set_opt(int fd, int level, int name, const void *v, socklen_t l, const char *what,
		   char *err, size_t errlen)
{
	if (setsockopt(fd, level, name, v, l) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", what, strerror(e));
		return -e;
	}
	return 0;
}

/* The options, all checked before anything is opened. */
struct afp_opts {
	int rx_v3;          /* ring=v3 (1), v2 (0); -1: cfg.rx_per_frame decides */
	uint64_t frames;    /* ring slots; 0: cfg.ring_frames, else the default */
	uint64_t tov;       /* V3 block timeout, ms */
	int bypass, promisc, linear;
};

static int afp_parse_opts(struct port *p, const struct port_kv *kv, int nkv,
			  struct afp_opts *o, char *err, size_t errlen)
{
	static const struct port_key keys[] = {
		{ "ring", PORT_RX }, { "frames", PORT_RX | PORT_TX }, { "tov", PORT_RX },
		{ "bypass", PORT_TX }, { "promisc", PORT_RX }, { "linear", PORT_TX }, { NULL, 0 },
	};
	const char *v;
	int rc;
	*o = (struct afp_opts){ .rx_v3 = -1, .tov = 2, .bypass = 1, .linear = p->cfg.tx_linear };
	if ((rc = port_kv_check(p, kv, nkv, keys, err, errlen)))
		return rc;
	if ((v = port_kv_get(kv, nkv, "ring"))) {
		if (strcmp(v, "v2") && strcmp(v, "v3"))
			return port_opt_err(p, err, errlen, "ring=%s: expected v2 or v3", v);
		o->rx_v3 = !strcmp(v, "v3");
	}
	if ((v = port_kv_get(kv, nkv, "frames")) && num_count(v, 64, 1 << 22, &o->frames))
		return port_opt_err(p, err, errlen, "frames=%s: expected 64..4194304", v);
	if ((v = port_kv_get(kv, nkv, "tov")) && num_u64(v, 1, 1000, &o->tov))
		return port_opt_err(p, err, errlen, "tov=%s: expected 1..1000 (ms)", v);
	if ((rc = port_kv_bool(p, kv, nkv, "bypass", &o->bypass, err, errlen)) ||
	    (rc = port_kv_bool(p, kv, nkv, "promisc", &o->promisc, err, errlen)) ||
	    (rc = port_kv_bool(p, kv, nkv, "linear", &o->linear, err, errlen)))
		return rc;
	return 0;
}

#define AFP_SEL_MAX 24

/* The fanout selector: the ethertype at 12, past up to two tags (0x8100, 0x88a8) still
 * in the frame, decides IPv6's offset or the other, each moved by the tags' 4 bytes.
 * Per depth d: A = ethertype; tagged: on to depth d+1; 0x86dd: A = byte at off6 + 4d;
 * else A = byte at off + 4d; return A. Returns the program's length. */
static unsigned short afp_fanout_prog(struct sock_filter *f, uint16_t off, uint16_t off6)
{
	const int ll = SKF_LL_OFF;
	unsigned short n = 0;
	if (!off6)
		off6 = off;
	for (int d = 0; d <= 2; d++) {
		unsigned skip = d < 2 ? 2 : 0;   /* the two tag tests, none at the last depth */
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_H | BPF_ABS,
						      (uint32_t)(ll + 12 + 4 * d));
		if (skip) {
			/* to the next depth: past the 2 tests, v6 test, 2 loads, 2 returns */
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      PKT_TPID_8021Q, 6, 0);
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      PKT_TPID_8021AD, 5, 0);
		}
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x86dd, 0, 2);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_B | BPF_ABS,
						      (uint32_t)(ll + (int)off6 + 4 * d));
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_A, 0);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_B | BPF_ABS,
						      (uint32_t)(ll + (int)off + 4 * d));
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_A, 0);
	}
	return n;
}

static int afp_open_rx(struct port *p, struct afp *a, const struct afp_opts *o, char *err,
		       size_t errlen)
{
	uint64_t frames = o->frames ? o->frames : p->cfg.ring_frames, tov = o->tov;
	int one = 1, rc;

	a->rx_v3 = o->rx_v3 >= 0 ? o->rx_v3 : !p->cfg.rx_per_frame;
	a->rx_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (a->rx_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "AF_PACKET socket: %s%s", strerror(errno),
			 errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return rc;
	}
	int ver = a->rx_v3 ? TPACKET_V3 : TPACKET_V2;
	if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver),
			  "PACKET_VERSION", err, errlen)))
		return rc;
	unsigned frame_size = pow2_at_least(p->cfg.frame_max + 128);
	if (frame_size < 256)
		frame_size = 256;
	/* room before each frame for the VLAN tag the kernel took out (afp_vlan_back) */
	unsigned reserve = PKT_VLAN_TAG_LEN;
	if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_RESERVE, &reserve, sizeof(reserve),
			  "PACKET_RESERVE", err, errlen)))
		return rc;
	if (a->rx_v3) {
		/* blocks of 256 KiB; V3 packs frames tightly (a 64-byte frame takes about 128
		 * bytes), so the default 64 blocks hold about 130,000 small frames; frames=N
		 * asks for room for N frames of the largest size */
		unsigned block = 1u << 18;
		uint64_t bytes = frames ? frames * (uint64_t)frame_size : 64ULL * block;
		if (bytes < 8ULL * block)   /* a small ring (frames=N): smaller blocks, not 2 MiB */
			block = pow2_at_least((unsigned)(bytes / 8) > 4096 ? (unsigned)(bytes / 8) : 4096);
		if (block < frame_size)
			block = frame_size;
		unsigned nblocks = (unsigned)((bytes + block - 1) / block);
		if (nblocks < 8)
			nblocks = 8;
		struct tpacket_req3 req = {
			.tp_block_size = block, .tp_block_nr = nblocks, .tp_frame_size = frame_size,
			.tp_frame_nr = (block / frame_size) * nblocks,
			.tp_retire_blk_tov = (unsigned)tov,
		};
		if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req),
				  "PACKET_RX_RING (v3)", err, errlen)))
			return rc;
		a->rx_nslots = nblocks;
		a->rx_slot_size = block;
	} else {
		struct tpacket_req req;
		ring_geometry(frame_size, (unsigned)(frames ? frames : 4096), &req);
		unsigned nframes = req.tp_frame_nr;
		if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req),
				  "PACKET_RX_RING (v2)", err, errlen)))
			return rc;
		a->rx_nslots = nframes;
		a->rx_slot_size = frame_size;
	}
	a->rx_map_len = (size_t)a->rx_nslots * a->rx_slot_size;
	a->rx_map = mmap(NULL, a->rx_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED,
			 a->rx_fd, 0);
	if (a->rx_map == MAP_FAILED)   /* MAP_LOCKED may exceed RLIMIT_MEMLOCK: retry without */
		a->rx_map = mmap(NULL, a->rx_map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 a->rx_fd, 0);
	if (a->rx_map == MAP_FAILED) {
		rc = -errno;
		a->rx_map = NULL;
		snprintf(err, errlen, "mmap RX ring: %s", strerror(errno));
		return rc;
	}
	/* Best effort: older kernels lack it, and then own TX shows up as PACKET_OUTGOING. */
	setsockopt(a->rx_fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (o->promisc) {
		struct packet_mreq mr = { .mr_ifindex = a->ifindex, .mr_type = PACKET_MR_PROMISC };
		if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr),
				  "promiscuous mode", err, errlen)))
			return rc;
	}
	if (p->cfg.rx_gated) {
		static struct sock_filter none[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
		struct sock_fprog fp = { .len = 1, .filter = none };
		if ((rc = set_opt(a->rx_fd, SOL_SOCKET, SO_ATTACH_FILTER, &fp, sizeof(fp),
				  "SO_ATTACH_FILTER (gate)", err, errlen)))
			return rc;
		a->gated = 1;
	}
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = a->ifindex };
	if (bind(a->rx_fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		rc = -errno;
		snprintf(err, errlen, "bind RX to %s: %s", p->ifname, strerror(errno));
		return rc;
	}
	if (p->cfg.fanout_id) {
		int mode = p->cfg.fanout_cbpf_off ? PACKET_FANOUT_CBPF : PACKET_FANOUT_HASH;
		int f = p->cfg.fanout_id | (mode << 16);
		if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_FANOUT, &f, sizeof(f),
				  "PACKET_FANOUT", err, errlen)))
			return rc;
		if (p->cfg.fanout_cbpf_off) {
			/* The program sees the skb from the network header, so the offset is
			 * taken relative to the link layer (SKF_LL_OFF). A frame too short for
			 * it fails the load, and the program returns 0: member 0. An IPv6
			 * frame (ethertype 0x86dd) is read at fanout_cbpf_off6 when set. The
			 * kernel has taken the outer VLAN tag out by then (afp_vlan_back);
			 * tags still in the frame (QinQ's inner one) move the byte by 4. */
			struct sock_filter sel[AFP_SEL_MAX];
			struct sock_fprog fp = { .len = afp_fanout_prog(sel, p->cfg.fanout_cbpf_off,
									p->cfg.fanout_cbpf_off6),
						 .filter = sel };
			if ((rc = set_opt(a->rx_fd, SOL_PACKET, PACKET_FANOUT_DATA, &fp, sizeof(fp),
					  "PACKET_FANOUT_DATA (cbpf)", err, errlen)))
				return rc;
		}
	}
	return 0;
}

static int afp_rx_open(struct port *p)
{
	struct afp *a = p->priv;
	if (!a->gated)
		return 0;
	int dummy = 0;
	if (setsockopt(a->rx_fd, SOL_SOCKET, SO_DETACH_FILTER, &dummy, sizeof(dummy)) < 0)
		return -errno;
	a->gated = 0;
	return 0;
}

static int afp_open_tx(struct port *p, struct afp *a, const struct afp_opts *o, char *err,
		       size_t errlen)
{
	int ver = TPACKET_V2, one = 1, rc;
	uint64_t frames = o->frames ? o->frames : p->cfg.ring_frames ? p->cfg.ring_frames : 4096;
	int bypass = o->bypass, linear = o->linear;

	a->tx_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (a->tx_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "AF_PACKET socket: %s%s", strerror(errno),
			 errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return rc;
	}
	if ((rc = set_opt(a->tx_fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver),
			  "PACKET_VERSION", err, errlen)) ||
	    (rc = set_opt(a->tx_fd, SOL_PACKET, PACKET_LOSS, &one, sizeof(one), "PACKET_LOSS",
			  err, errlen)))
		return rc;
	if (bypass && (rc = set_opt(a->tx_fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
				    sizeof(one), "PACKET_QDISC_BYPASS", err, errlen)))
		return rc;
	/* Linear TX: with a virtio_net_hdr whose hdr_len covers the frame, tpacket_snd
	 * copies the whole frame into the skb's head instead of attaching the ring's pages
	 * as fragments, so the receiver (a veth peer's XDP or IP stack) need not copy the
	 * user pages out again (skb_copy_ubufs, page allocations): measured here about
	 * 30% more 64-byte frames per second into an XDP drop. Must precede the ring. */
	if (linear && setsockopt(a->tx_fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) == 0)
		a->tx_vnet = sizeof(struct virtio_net_hdr);
	unsigned slot = pow2_at_least(p->cfg.frame_max + TPACKET2_HDRLEN + a->tx_vnet);
	struct tpacket_req req;
	ring_geometry(slot, (unsigned)frames, &req);
	unsigned nframes = req.tp_frame_nr;
	if ((rc = set_opt(a->tx_fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req),
			  "PACKET_TX_RING", err, errlen)))
		return rc;
	a->tx_nslots = nframes;
	a->tx_slot_size = slot;
	a->tx_map_len = (size_t)nframes * slot;
	a->tx_map = mmap(NULL, a->tx_map_len, PROT_READ | PROT_WRITE, MAP_SHARED, a->tx_fd, 0);
	if (a->tx_map == MAP_FAILED) {
		rc = -errno;
		a->tx_map = NULL;
		snprintf(err, errlen, "mmap TX ring: %s", strerror(errno));
		return rc;
	}
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = 0,
				   .sll_ifindex = a->ifindex };
	if (bind(a->tx_fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		rc = -errno;
		snprintf(err, errlen, "bind TX to %s: %s", p->ifname, strerror(errno));
		return rc;
	}
	return 0;
}

static int afp_kick(struct port *p, struct afp *a);

static inline uint32_t load_status(const volatile uint32_t *s)
{
	return __atomic_load_n(s, __ATOMIC_ACQUIRE);
}

static void afp_close(struct port *p)
{
	struct afp *a = p->priv;
	if (!a)
		return;
	if (a->tx_fd >= 0 && a->tx_map) {
		/* forwarded frames held back (afp_send) go out first; what the kernel still
		 * has not taken (the link is down) dies with the ring: those frames failed */
		if (a->tx_pending)
			afp_kick(p, a);
		for (unsigned i = 0; i < a->tx_nslots; i++) {
			struct tpacket2_hdr *h = (void *)(a->tx_map + (size_t)i * a->tx_slot_size);
			uint32_t st = load_status((volatile uint32_t *)&h->tp_status);
			if (st == TP_STATUS_SEND_REQUEST || st == TP_STATUS_WRONG_FORMAT)
				p->st.tx_errors++;
		}
	}
	if (a->rx_map)
		munmap(a->rx_map, a->rx_map_len);
	if (a->tx_map)
		munmap(a->tx_map, a->tx_map_len);
	if (a->rx_fd >= 0)
		close(a->rx_fd);
	if (a->tx_fd >= 0)
		close(a->tx_fd);
	free(a);
	p->priv = NULL;
}

static int afp_open(struct port *p, const char *target, const struct port_kv *kv, int nkv,
		    char *err, size_t errlen)
{
	struct afp_opts o;
	int rc = afp_parse_opts(p, kv, nkv, &o, err, errlen);
	if (rc)
		return rc;
	if (strlen(target) >= IFNAMSIZ) {
		snprintf(err, errlen, "interface name '%s' too long", target);
		return -EINVAL;
	}
	struct afp *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->rx_fd = a->tx_fd = -1;
	p->priv = a;
	p->layer = PORT_L2;
	snprintf(p->ifname, sizeof(p->ifname), "%s", target);
	a->ifindex = if_index_of(target);
	if (a->ifindex < 0) {
		rc = a->ifindex;
		snprintf(err, errlen, "interface '%s': %s", target,
			 rc == -ENODEV ? "no such interface in this network namespace"
				       : strerror(-rc));
		goto fail;
	}
	if ((p->cfg.dir & PORT_RX) && (rc = afp_open_rx(p, a, &o, err, errlen)))
		goto fail;
	if ((p->cfg.dir & PORT_TX) && (rc = afp_open_tx(p, a, &o, err, errlen)))
		goto fail;
	return 0;
fail:
	afp_close(p);
	return rc;
}

static inline void store_status(volatile uint32_t *s, uint32_t v)
{
	__atomic_store_n(s, v, __ATOMIC_RELEASE);
}

static void afp_release(struct afp *a)
{
	for (unsigned i = 0; i < a->rel_n; i++) {
		uint8_t *slot = a->rx_map + (size_t)((a->rel_first + i) % a->rx_nslots) * a->rx_slot_size;
		if (a->rx_v3)
			store_status(&((struct tpacket_block_desc *)slot)->hdr.bh1.block_status,
				     TP_STATUS_KERNEL);
		else
			store_status((volatile uint32_t *)&((struct tpacket2_hdr *)slot)->tp_status,
				     TP_STATUS_KERNEL);
	}
	a->rel_n = 0;
}

static void hand_out(struct afp *a)
{
	if (a->rel_n == 0)
		a->rel_first = a->rx_cur;
	a->rel_n++;
	a->rx_cur = (a->rx_cur + 1) % a->rx_nslots;
}

/* Linux takes the outermost VLAN tag out of every received frame before a packet
 * socket sees it (__netif_receive_skb_core: skb_vlan_untag, whatever the NIC's offload)
 * and reports it in the ring's header (TP_STATUS_VLAN_VALID; the TPID with
 * TP_STATUS_VLAN_TPID_VALID, else 0x8100). Put it back where it was, as libpcap does,
 * so that every L2 port delivers the frame as it was on the wire: the 12 bytes of MACs
 * move 4 bytes towards the PACKET_RESERVE room before the frame. Returns the new start. */
static uint8_t *afp_vlan_back(uint8_t *mac, uint32_t *len, uint32_t status, uint16_t tci,
			      uint16_t tpid)
{
	if (!(status & TP_STATUS_VLAN_VALID) || *len < 12)
		return mac;
	if (!(status & TP_STATUS_VLAN_TPID_VALID) || !tpid)
		tpid = PKT_TPID_8021Q;
	uint8_t *m = mac - PKT_VLAN_TAG_LEN;
	memmove(m, mac, 12);
	pkt_vlan_put_tag(m + 12, tpid, tci);
	*len += PKT_VLAN_TAG_LEN;
	return m;
}

static int afp_rx_v3(struct port *p, struct afp *a, struct port_pkt *pkts, int max)
{
	int n = 0;
	while (n < max) {
		if (!a->blk) {
			struct tpacket_block_desc *b =
				(void *)(a->rx_map + (size_t)a->rx_cur * a->rx_slot_size);
			if (!(load_status(&b->hdr.bh1.block_status) & TP_STATUS_USER))
				break;
			a->blk = b;
			a->blk_left = b->hdr.bh1.num_pkts;
			a->blk_pkt = (uint8_t *)b + b->hdr.bh1.offset_to_first_pkt;
		}
		while (n < max && a->blk_left) {
			struct tpacket3_hdr *h = (void *)a->blk_pkt;
			pkts[n].len = h->tp_snaplen;
			pkts[n].data = afp_vlan_back(a->blk_pkt + h->tp_mac, &pkts[n].len,
						     h->tp_status, (uint16_t)h->hv1.tp_vlan_tci,
						     (uint16_t)h->hv1.tp_vlan_tpid);
			pkts[n].ts_ns = (uint64_t)h->tp_sec * 1000000000ULL + h->tp_nsec;
			p->st.rx_bytes += pkts[n].len;
			n++;
			a->blk_left--;
			a->blk_pkt += h->tp_next_offset;
		}
		if (a->blk_left == 0) {   /* exhausted: give it back on the next call */
			a->blk = NULL;
			hand_out(a);
		}
	}
	return n;
}

static int afp_rx_v2(struct port *p, struct afp *a, struct port_pkt *pkts, int max)
{
	int n = 0;
	while (n < max) {
		uint8_t *slot = a->rx_map + (size_t)a->rx_cur * a->rx_slot_size;
		struct tpacket2_hdr *h = (void *)slot;
		if (!(load_status((volatile uint32_t *)&h->tp_status) & TP_STATUS_USER))
			break;
		pkts[n].len = h->tp_snaplen;
		pkts[n].data = afp_vlan_back(slot + h->tp_mac, &pkts[n].len, h->tp_status,
					     h->tp_vlan_tci, h->tp_vlan_tpid);
		pkts[n].ts_ns = (uint64_t)h->tp_sec * 1000000000ULL + h->tp_nsec;
		p->st.rx_bytes += pkts[n].len;
		n++;
		hand_out(a);
	}
	return n;
}

static int afp_rx_burst(struct port *p, struct port_pkt *pkts, int max)
{
	struct afp *a = p->priv;
	if (a->rx_fd < 0)
		return -EBADF;
	afp_release(a);
	int n = a->rx_v3 ? afp_rx_v3(p, a, pkts, max) : afp_rx_v2(p, a, pkts, max);
	p->st.rx_pkts += (uint64_t)n;
	return n;
}

/* Asks the kernel to send the ring's TP_STATUS_SEND_REQUEST frames: 0 or -errno. A
 * failure loses no frame: tpacket_snd checks the device (ENXIO, ENETDOWN) before it
 * takes any, and a frame it could not get an skb for (EAGAIN, ENOBUFS) or that the
 * device dropped (ENOBUFS from the direct xmit; the skb's destructor had made the slot
 * available) is put back as SEND_REQUEST. They all leave with a later kick, and count
 * as sent then (tx_pkts counted them when queued), so a failed kick is backpressure,
 * not tx_errors. tx_pending stays set until a kick succeeds, so port_flush retries. */
static int afp_kick(struct port *p, struct afp *a)
{
	(void)p;
	if (sendto(a->tx_fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0)
		return -errno;
	a->tx_pending = 0;
	return 0;
}

/* Queues pkts in the TX ring and kicks the kernel; with hold (forwarded frames) as
 * port_kick_now says. */
static int afp_send(struct port *p, const struct port_pkt *pkts, int n, int hold)
{
	struct afp *a = p->priv;
	int i, kicked = 0, krc = 0;
	if (a->tx_fd < 0)
		return -EBADF;
	for (i = 0; i < n; i++) {
		uint8_t *slot = a->tx_map + (size_t)a->tx_head * a->tx_slot_size;
		struct tpacket2_hdr *h = (void *)slot;
		uint32_t st = load_status((volatile uint32_t *)&h->tp_status);
		if (st == TP_STATUS_WRONG_FORMAT) {
			p->st.tx_errors++;
			p->st.tx_pkts--;          /* it was counted as accepted when queued */
			st = TP_STATUS_AVAILABLE;
		}
		if (st != TP_STATUS_AVAILABLE) {
			if (kicked)
				break;
			krc = afp_kick(p, a);   /* let the kernel drain what is queued, then look again */
			kicked = 1;
			i--;
			continue;
		}
		uint32_t len = pkts[i].len;
		if (len + a->tx_vnet > a->tx_slot_size - (TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))) {
			p->st.tx_errors++;
			continue;
		}
		uint8_t *d = slot + TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
		if (a->tx_vnet) {
			/* up to AFP_LINEAR_MAX bytes in the head; jumbo frames keep the page
			 * fragments (a 9 KB head would need a high-order allocation) */
			struct virtio_net_hdr vh = { .gso_type = VIRTIO_NET_HDR_GSO_NONE,
						     .hdr_len = (uint16_t)(len <= AFP_LINEAR_MAX ? len : 0) };
			memcpy(d, &vh, sizeof(vh));
			d += sizeof(vh);
		}
		memcpy(d, pkts[i].data, len);
		h->tp_len = len + a->tx_vnet;
		store_status((volatile uint32_t *)&h->tp_status, TP_STATUS_SEND_REQUEST);
		a->tx_head = (a->tx_head + 1) % a->tx_nslots;
		a->tx_pending++;
		p->st.tx_pkts++;
		p->st.tx_bytes += len;
	}
	if (port_kick_now(a->tx_pending, hold, i < n) && !(kicked && i < n))   /* not twice */
		krc = afp_kick(p, a);
	if (i < n) {
		p->st.tx_full++;
		if (krc && port_tx_errclass(-krc) == PORT_TXE_LINK)
			port_link_wait();   /* the ring cannot drain until the link is back */
	}
	return i;
}

static int afp_tx_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	return afp_send(p, pkts, n, 0);
}

static int afp_fwd_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	return afp_send(p, pkts, n, 1);
}

static void afp_flush(struct port *p)
{
	struct afp *a = p->priv;
	if (a->tx_pending)
		afp_kick(p, a);
}

static int afp_fd(const struct port *p)
{
	const struct afp *a = p->priv;
	return a->rx_fd >= 0 ? a->rx_fd : a->tx_fd;
}

static void afp_poll_stats(struct port *p)
{
	struct afp *a = p->priv;
	if (a->rx_fd < 0)
		return;
	struct tpacket_stats_v3 s;
	socklen_t l = sizeof(s);
	memset(&s, 0, sizeof(s));
	if (getsockopt(a->rx_fd, SOL_PACKET, PACKET_STATISTICS, &s, &l) == 0)
		p->st.rx_drops += s.tp_drops;     /* the kernel resets these on every read */
}

const struct port_ops port_afpacket_ops = {
	.name = "afpacket",
	.dirs = PORT_RX | PORT_TX,
	.open = afp_open,
	.rx_burst = afp_rx_burst,
	.tx_burst = afp_tx_burst,
	.fwd_burst = afp_fwd_burst,
	.flush = afp_flush,
	.fd = afp_fd,
	.poll_stats = afp_poll_stats,
	.rx_open = afp_rx_open,
	.close = afp_close,
};
#endif
