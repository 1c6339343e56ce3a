/* fwd.h — the forwarding engine of ppslab-rut: ports, one burst of IPv4 routing.
 *
 * fwd_burst(f, in, max) reads up to max frames from port `in` and forwards them: IPv4
 * checks (malformed frames are counted and dropped), TTL decrement with an RFC 1624
 * checksum update (TTL 1 is counted as expired and dropped), longest-prefix route,
 * neighbour MAC, source MAC of the egress port, one transmit burst per egress port.
 * A frame the egress ring cannot take is dropped and counted there (a router does not
 * block its input on a full output queue). Scheduling (busy, poll, intr) decides when
 * and with what max fwd_burst is called; this module does not loop or sleep. */
#ifndef PPSLAB_FWD_H
#define PPSLAB_FWD_H

#include <stdatomic.h>
#include <stdint.h>

#include "port.h"
#include "route.h"

#define FWD_MAX_PORTS 8
#define FWD_BURST_MAX 1024
/* RX ring slots per port: 16,384 frames absorb 0.3 s of scheduling stalls at 50 kpps
 * before the kernel drops ("Missed Packets") */
#define FWD_RING_FRAMES 16384

struct fwd_port_ctr {
	_Atomic uint64_t rx_pkts, rx_bytes;   /* read from the port */
	_Atomic uint64_t tx_pkts, tx_bytes;   /* accepted by the egress ring */
	_Atomic uint64_t drop_txfull;         /* egress ring full ("Receive No Buffers" analog) */
};

struct fwd_port {
	struct port *port;
	char ifname[32];
	uint8_t mac[6];
	uint32_t ip;           /* network order, 0 if none */
	uint8_t plen;
	struct fwd_port_ctr ctr;
};

struct fwd_ctr {
	_Atomic uint64_t fwd_pkts;       /* handed to an egress ring */
	_Atomic uint64_t drop_malformed; /* truncated, bad IP checksum/lengths, options, fragments */
	_Atomic uint64_t drop_not_ip4;
	_Atomic uint64_t drop_ttl;       /* TTL expired */
	_Atomic uint64_t drop_no_route;
	_Atomic uint64_t drop_no_neigh;
};

struct fwd {
	struct fwd_port ports[FWD_MAX_PORTS];
	int nports;
	struct rt *rt;
	struct nt *nt;
	struct fwd_ctr ctr;
};

/* Opens the ports (specs) for frames up to frame_max bytes (without FCS), reads their
 * MAC/IPv4, adds connected routes and loads the system's neighbours for each.
 * 0 or -errno with a message in err. */
int fwd_init(struct fwd *f, const char *const *specs, int n, uint32_t frame_max, char *err,
	     size_t errlen);
void fwd_fini(struct fwd *f);
/* One burst from port `in`; returns frames read (>= 0) or -errno. */
int fwd_burst(struct fwd *f, int in, int max);

#endif
