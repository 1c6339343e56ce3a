/* SPDX-License-Identifier: BSD-2-Clause */
/* port.h — one packet I/O abstraction for every program: a port is opened from a spec
 * string and moves frames in bursts.
 *
 * Specs: "BACKEND:TARGET[,key=value...]"; a bare interface name means afpacket: on Linux.
 *   afpacket:IF   PACKET_MMAP rings: TPACKET_V3 block RX (ring=v2 for per-frame
 *                 delivery), TPACKET_V2 TX ring with PACKET_QDISC_BYPASS. Keys:
 *                 ring=v2|v3, frames=N (ring slots), tov=MS (V3 block timeout),
 *                 bypass=0|1, promisc=0|1, linear=0|1 (TX frames copied whole into
 *                 the skb head instead of referencing ring pages; default cfg.tx_linear).
 *   pcap:IF       libpcap (portable: FreeBSD, DragonFly, macOS). Keys: promisc=0|1.
 *   libnet:IF     libnet link-layer injection, transmit only (portable; one write per
 *                 frame).
 *   udp:ADDR:PORT kernel UDP socket, sendmmsg/recvmmsg; no root, routed. For RX, ADDR
 *                 is the local address to bind (0.0.0.0 for any). Keys: src=ADDR:PORT,
 *                 ttl=N (IP TTL of the datagrams sent; TX only; ppslab-gen's --ttl).
 *   xdp:IF        AF_XDP (Linux, libxdp/libbpf; see port_xdp.c): one socket on one queue,
 *                 its own UMEM, an XDP redirect program attached while an RX port is
 *                 open. Keys: mode=auto|copy|zc, queue=N, frames=N (UMEM frames;
 *                 default ring_frames, else 16384 with RX, 4096 TX only),
 *                 skb=0|1 (generic XDP), budget=N (frames per send call in copy mode).
 *   Keys are checked before anything is opened: unknown ones, repeated ones, bad values
 *   and keys for the other direction only (ring, tov, promisc, skb on a port that only
 *   sends; bypass, linear, budget, src on one that only receives) are -EINVAL with a
 *   message naming the port and the key.
 *
 * Contracts:
 * - port_rx_burst fills up to max descriptors. The data they point to stays valid until
 *   the next port_rx_burst on the same port, or port_close. L2 ports deliver whole
 *   Ethernet frames (without FCS); L4 ports (udp:) deliver UDP payloads.
 * - port_tx_burst always takes whole Ethernet frames and copies them out (an L4 port
 *   sends only the UDP payload, from offset 42). It returns how many it accepted, from
 *   the front; fewer than n means the ring or socket was full, or the link is down
 *   (counted in tx_full; the port waited a little first, see port_impl.h), the caller
 *   decides whether to retry. A frame the kernel refuses is taken and counted in
 *   tx_errors; every backend keeps tx_errors to frames that never reach the wire.
 * - port_fwd_burst is port_tx_burst for frames that came from port_rx_burst (on this
 *   port or another) and that the caller gives up: where the two ports share buffers
 *   (xdp: ports opened with port_cfg.share) a frame moves by reference, without a copy;
 *   otherwise it is copied exactly as port_tx_burst does. Accepted frames must not be
 *   touched again; the others stay valid until the receiving port's next rx_burst.
 *   Ports that share buffers must be driven from one thread. A port may hold forwarded
 *   frames back to send them with the next burst's (xdp: and afpacket: do, up to 32,
 *   one system call for all); port_flush sends them, and a forwarding loop calls it
 *   whenever it finds nothing more to receive, so no frame waits for traffic that does
 *   not come.
 * - Counters are 64-bit and cumulative since open. */
#ifndef PPSLAB_LIB_PORT_H
#define PPSLAB_LIB_PORT_H

#include <stddef.h>
#include <stdint.h>

struct port;

enum port_dir { PORT_RX = 1, PORT_TX = 2 };
enum port_layer { PORT_L2 = 0, PORT_L4 = 1 };

struct port_pkt {
	uint8_t *data;
	uint32_t len;
	uint64_t ts_ns;     /* receive time, CLOCK_REALTIME ns (kernel stamp), 0 if unknown */
};

struct port_cfg {
	unsigned dir;            /* PORT_RX | PORT_TX */
	uint32_t frame_max;      /* largest frame without FCS; 0 = 1514 */
	uint32_t ring_frames;    /* ring slots; 0 = backend default */
	int rx_per_frame;        /* deliver each frame at once (afpacket: TPACKET_V2 RX) */
	uint16_t fanout_id;      /* afpacket: join this PACKET_FANOUT (hash) group; 0 = none */
	uint16_t fanout_cbpf_off; /* afpacket, with fanout_id: PACKET_FANOUT_CBPF instead of the
				  * flow hash: the member is the frame's byte at this offset
				  * (from the Ethernet header) modulo the group size; 0 = hash */
	uint16_t fanout_cbpf_off6; /* the same for IPv6 frames (ethertype 0x86dd); 0 = the
				    * same offset as the others */
	int rx_gated;            /* afpacket: accept nothing until port_rx_open() (lets a
				  * fanout group complete before any frame is spread) */
	uint16_t udp_dport;      /* pcap: capture only UDP to this port; 0 = everything */
	int tx_linear;           /* afpacket: linear TX skbs (key linear= overrides) */
	uint16_t queue_offset;   /* xdp: added to the queue (queue= or 0), so that worker i of
				  * a multi-thread sender binds a queue of its own */
	struct port *share;      /* xdp: use this open xdp: port's UMEM (XDP_SHARED_UMEM), so
				  * port_fwd_burst between the two needs no copy; other
				  * backends (or a non-xdp share) ignore it. NULL = own buffers */
};

struct port_stats {
	uint64_t rx_pkts, rx_bytes;  /* delivered to the caller */
	uint64_t tx_pkts, tx_bytes;  /* accepted by the ring / kernel */
	uint64_t rx_drops;           /* dropped by the kernel because our ring/socket was full */
	uint64_t tx_full;            /* tx calls that found the ring/socket full, or the link
				      * down (backpressure: nothing is lost, the caller retries) */
	uint64_t tx_errors;          /* frames the kernel rejected: they never reach the wire */
	uint64_t tx_refused;         /* ICMP errors returned for frames already sent (udp:
				      * port or host unreachable, read from the socket's error
				      * queue); the frames left, the destination refused them */
	uint64_t tx_nocopy;          /* of tx_pkts: handed over by reference, not copied
				      * (port_fwd_burst between ports sharing buffers) */
};

int port_open(const char *spec, const struct port_cfg *cfg, struct port **out, char *err,
	      size_t errlen);
/* The specs this build can open for dir (PORT_RX, PORT_TX or both; l2_only: Ethernet
 * frames, not udp:), for --help and messages: "afpacket:IF, pcap:IF, xdp:IF or
 * udp:ADDR:PORT; IF alone is afpacket:IF". Returns buf. */
char *port_specs_help(unsigned dir, int l2_only, char *buf, size_t len);
/* Checks a spec without opening it: the backend exists and a target is named. Gives the
 * backend name and the target (interface, or ADDR:PORT for udp:). 0 or -EINVAL. */
int port_spec_parse(const char *spec, char backend[16], char target[64], char *err,
		    size_t errlen);
int port_rx_burst(struct port *p, struct port_pkt *pkts, int max);
int port_tx_burst(struct port *p, const struct port_pkt *pkts, int n);
/* Opens a port created with cfg.rx_gated: from now on frames are received. 0 or -errno;
 * a no-op for ports that were not gated. */
int port_rx_open(struct port *p);
/* Forwards received frames out of p, without a copy where buffers are shared (above). */
int port_fwd_burst(struct port *p, const struct port_pkt *pkts, int n);
/* Sends the frames port_fwd_burst held back (above); a no-op for most backends. */
void port_flush(struct port *p);
/* A descriptor that becomes readable when frames arrive (for poll/epoll). */
int port_fd(const struct port *p);
/* Reads the kernel's drop counters into the port's totals and returns them. */
int port_stats(struct port *p, struct port_stats *st);
enum port_layer port_layer(const struct port *p);
const char *port_backend(const struct port *p);
const char *port_ifname(const struct port *p);   /* "" for udp: */
const char *port_spec(const struct port *p);
void port_close(struct port *p);

#endif
