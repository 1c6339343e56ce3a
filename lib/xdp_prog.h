/* SPDX-License-Identifier: BSD-2-Clause */
/* xdp_prog.h — the XDP program behind AF_XDP RX ports (lib/port_xdp.c): loaded,
 * attached to an interface, shared by this process's sockets on it, detached when the
 * last one closes; leftovers of killed tools cleared first (lib/xdp_owner.h).
 * Linux with libbpf only (PPSLAB_HAVE_XDP). */
#ifndef PPSLAB_LIB_XDP_PROG_H
#define PPSLAB_LIB_XDP_PROG_H

#include <stddef.h>
#include <stdint.h>

struct xprog {
	int ifindex, refs;
	int prog_fd, map_fd;           /* the program and its XSKMAP (key: queue, value: socket) */
	uint32_t prog_id, mode_flag;   /* XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE */
};

/* The program on ifindex: ours already (one more user), or loaded and attached now, in
 * native mode (generic with skb, or where the driver has none). 0 or -errno with a
 * message in err: -EBUSY names a program already there and how to remove it. */
int xdp_prog_get(int ifindex, const char *ifname, int skb, struct xprog **out, char *err,
		 size_t errlen);
/* One user less; the last detaches it, if it is still the one attached. */
void xdp_prog_put(struct xprog *x);

#endif
