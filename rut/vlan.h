/* SPDX-License-Identifier: BSD-2-Clause */
/* vlan.h — a forwarder port as a FreeBSD vlan(4) interface on a trunk
 * (docs/forwarder.md#vlans): which tags a port's frames carry, the tags taken off a
 * frame read there and put on a frame sent there, and the `--vlan` option's words.
 *
 * A port is untagged (ntags 0: the interface itself, rut0) or the one vlan interface
 * of its trunk: 802.1Q (ntags 1, rut0.100) or QinQ (ntags 2, rut0.200.100: an 802.1ad
 * vlan interface rut0.200 on rut0 and an 802.1Q one on top of it). Tags are taken off
 * and put on in place, by moving the 12 address bytes: a frame read from a port keeps
 * room in front of it (port.h: afpacket's ring and AF_XDP's headroom). Pure functions
 * on frames in memory: no allocation, no system call. */
#ifndef PPSLAB_RUT_VLAN_H
#define PPSLAB_RUT_VLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pkt.h"    /* PKT_TPID_8021Q, PKT_TPID_8021AD, PKT_VID_MAX, PKT_PCP_MAX */
#include "port.h"

struct vlan_port {
	uint8_t ntags;     /* 0 untagged, 1 802.1Q, 2 802.1ad outer and 802.1Q inner */
	uint8_t pcp;       /* the priority of the tags put on (ifconfig vlanpcp), 0..7 */
	uint16_t vid[2];   /* outer first */
};

/* What vlan_strip made of a frame read on a port. */
enum vlan_in {
	VLAN_IN_OK,         /* the frame is now untagged, as the port's interface sees it */
	VLAN_IN_TAGGED,     /* a tag (VLAN id not 0) where the port has no vlan interface:
			     * ether_input's IFCOUNTER_NOPROTO (no vlan trunk) */
	VLAN_IN_UNKNOWN,    /* a VLAN id no vlan interface of the trunk has: vlan_input's
			     * IFCOUNTER_NOPROTO on the trunk */
	VLAN_IN_UNTAGGED,   /* untagged (or priority-tagged) on a trunk port: the trunk's
			     * own untagged traffic, which is no port of the router here */
	VLAN_IN_SHORT,      /* a tag cut short: ether_input's IFCOUNTER_IERRORS */
};

/* Takes the port's tags off the frame pk, in place (pk->data moves forward by 4 bytes
 * a tag): each tag with TPID 0x8100 or 0x88a8 (ether_input strips either) must carry
 * the port's VLAN id at its level; a priority tag (VLAN id 0) is taken off and the frame
 * is untagged at that level (ether_input). Leaves pk alone unless VLAN_IN_OK. */
enum vlan_in vlan_strip(const struct vlan_port *v, struct port_pkt *pk);

/* The port's tags as they go on the wire, outermost first, 4 bytes a tag (returns how
 * many bytes): the outer TPID 0x88a8 with QinQ and 0x8100 otherwise, each tag's PCP
 * the port's, DEI 0 (vlan_transmit: EVL_MAKETAG). Once a burst: vlan_push_tags puts
 * them on each frame. */
static inline unsigned vlan_tags(const struct vlan_port *v, uint8_t out[8])
{
	for (unsigned k = 0; k < v->ntags; k++)
		pkt_vlan_put_tag(out + 4 * k, pkt_vlan_tpid_at(v->ntags, k),
				 (uint16_t)(v->pcp << 13 | v->vid[k]));
	return 4u * v->ntags;
}

/* Puts the add bytes of tags (vlan_tags) on the frame pk, in place: pk->data moves back
 * add bytes (the caller guarantees the room) and the MACs with it. */
static inline void vlan_push_tags(const uint8_t *tags, unsigned add, struct port_pkt *pk)
{
	uint8_t *d = pk->data - add, mac[12];
	memcpy(mac, pk->data, 12);   /* the ranges overlap; fixed sizes: no call */
	memcpy(d, mac, 12);
	for (unsigned i = 0; i < add; i += 4)
		memcpy(d + 12 + i, tags + i, 4);
	pk->data = d;
	pk->len += add;
}

/* Puts the port's tags on the frame pk, in place (vlan_tags, vlan_push_tags). */
static inline void vlan_push(const struct vlan_port *v, struct port_pkt *pk)
{
	uint8_t tags[8];
	vlan_push_tags(tags, vlan_tags(v, tags), pk);
}

/* `--vlan PORT=VID[.INNER][:PCP]`: the port's name into port (up to portlen bytes) and
 * its tags into v. 0, or -EINVAL with what was expected in err (the caller names the
 * option and the value). */
int vlan_parse(const char *spec, char *port, size_t portlen, struct vlan_port *v, char *err,
	       size_t errlen);

/* The name FreeBSD gives the port's vlan interface (ifconfig IF.VID create): ifname
 * with ".VID" per tag, outer first ("rut0.100", "rut0.200.100"); ifname itself when
 * untagged. 0, or -ENAMETOOLONG when it does not fit in len (IFNAMSIZ 16 with NUL). */
int vlan_ifname(const char *ifname, const struct vlan_port *v, char *out, size_t len);

#endif
