/* SPDX-License-Identifier: BSD-2-Clause */
/* port_impl.h — what a port backend provides (private to lib/port*.c). */
#ifndef PPSLAB_LIB_PORT_IMPL_H
#define PPSLAB_LIB_PORT_IMPL_H

#include "port.h"

#define PORT_MAX_KV 8

struct port_kv {
	char key[32];
	char val[96];
};

struct port_ops {
	const char *name;
	unsigned dirs;        /* PORT_RX | PORT_TX: what it can do */
	int l4;               /* carries UDP payloads, not Ethernet frames (udp:) */
	int unavailable;      /* compiled as a stub that explains why it cannot open */
	int (*open)(struct port *p, const char *target, const struct port_kv *kv, int nkv,
		    char *err, size_t errlen);
	int (*rx_burst)(struct port *p, struct port_pkt *pkts, int max);
	int (*tx_burst)(struct port *p, const struct port_pkt *pkts, int n);
	/* optional: port_fwd_burst without a copy where buffers are shared; NULL = tx_burst */
	int (*fwd_burst)(struct port *p, const struct port_pkt *pkts, int n);
	void (*flush)(struct port *p);        /* optional: sends what fwd_burst left queued */
	int (*fd)(const struct port *p);
	void (*poll_stats)(struct port *p);   /* fold kernel drop counters into p->st */
	int (*rx_open)(struct port *p);       /* optional: ends cfg.rx_gated */
	void (*close)(struct port *p);
};

struct port {
	const struct port_ops *ops;
	struct port_cfg cfg;
	enum port_layer layer;
	char spec[160];
	char ifname[32];
	struct port_stats st;
	void *priv;
};

/* Forwarded frames (port_fwd_burst) wait in a TX ring for company up to this many before
 * the system call that sends them; port_flush sends fewer. A forwarder's bursts are a
 * few frames each at full load (avg_batch about 7 with xdp: ports): with xdp: ports
 * holding them halved the sendto() calls at the same load. */
#define PORT_FWD_BATCH 32u

/* Whether a send of `queued` unkicked frames kicks the kernel now: always for
 * port_tx_burst (hold 0); for held frames once PORT_FWD_BATCH wait, or when the ring
 * refused some (its frames are what makes room). */
static inline int port_kick_now(unsigned queued, int hold, int ring_full)
{
	return queued && (!hold || queued >= PORT_FWD_BATCH || ring_full);
}

/* What a failed send means, alike in every backend (errno values of sendto, write,
 * pcap_inject):
 * PORT_TXE_FULL  the ring or socket is full (EAGAIN, ENOBUFS, EINTR): the frame is not
 *                taken, the caller retries (tx_full).
 * PORT_TXE_LINK  the link is down or gone (ENETDOWN, ENXIO): nothing leaves until it is
 *                back, so this too is backpressure (tx_full; the sender waits for the
 *                link and the rate shortfall shows it), not a bad frame. The port calls
 *                port_link_wait before it says so, so that a sender retrying in a loop
 *                does not spin, and count, millions of times a second.
 * PORT_TXE_BAD   this frame was refused (EMSGSIZE, EINVAL, anything else): it is
 *                consumed and counted in tx_errors. */
enum port_txe { PORT_TXE_FULL, PORT_TXE_LINK, PORT_TXE_BAD };
enum port_txe port_tx_errclass(int e);
/* Sleeps PORT_LINK_WAIT_US: what a send does when the link is down (above). */
#define PORT_LINK_WAIT_US 100
void port_link_wait(void);

extern const struct port_ops port_afpacket_ops;
extern const struct port_ops port_pcap_ops;
extern const struct port_ops port_libnet_ops;
extern const struct port_ops port_udp_ops;
extern const struct port_ops port_xdp_ops;

/* A key a backend takes, and the directions it means something for (PORT_RX, PORT_TX
 * or both). */
struct port_key {
	const char *name;
	unsigned dir;
};

/* Looks up key in kv: the value, or NULL. */
const char *port_kv_get(const struct port_kv *kv, int nkv, const char *key);
/* Rejects, before anything is opened, keys not in keys (ended by a NULL name; the
 * message lists them), keys given twice, and keys for the other direction only (an RX
 * key on a port that only sends, and the reverse: it would be ignored). 0 or -EINVAL. */
int port_kv_check(const struct port *p, const struct port_kv *kv, int nkv,
		  const struct port_key *keys, char *err, size_t errlen);
/* key=0 or key=1 into *out (left alone when the key is absent); anything else is an
 * error naming the key. 0 or -EINVAL. */
int port_kv_bool(const struct port *p, const struct port_kv *kv, int nkv, const char *key,
		 int *out, char *err, size_t errlen);
/* An option error: "BACKEND:TARGET: " and the message. Returns -EINVAL. */
int port_opt_err(const struct port *p, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
