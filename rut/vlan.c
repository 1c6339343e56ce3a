/* SPDX-License-Identifier: BSD-2-Clause */
/* vlan.c — tags off and on a forwarder port's frames, the --vlan option's words
 * (vlan.h, docs/forwarder.md#vlans). */
#include "vlan.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pkt.h"

static inline bool is_tpid(uint16_t t)
{
	return t == PKT_TPID_8021Q || t == PKT_TPID_8021AD;
}

enum vlan_in vlan_strip(const struct vlan_port *v, struct port_pkt *pk)
{
	uint8_t *d = pk->data;
	unsigned off = 12, lvl = 0;
	if (pk->len < PKT_ETH_LEN)
		return v->ntags ? VLAN_IN_SHORT : VLAN_IN_OK;   /* the parse says malformed */
	while (is_tpid(pkt_rd16(d + off))) {
		if (pk->len < off + 4 + 2)   /* the tag and the ethertype after it */
			return VLAN_IN_SHORT;
		uint16_t vid = pkt_rd16(d + off + 2) & 0x0fffu;
		if (vid) {
			if (lvl == v->ntags)
				return VLAN_IN_TAGGED;
			if (vid != v->vid[lvl])
				return VLAN_IN_UNKNOWN;
			lvl++;
		} else if (lvl < v->ntags) {
			/* 802.1p priority frame: untagged at this level, the trunk's own */
			return VLAN_IN_UNTAGGED;
		}
		off += 4;
	}
	if (lvl < v->ntags)
		return VLAN_IN_UNTAGGED;
	if (off == 12)
		return VLAN_IN_OK;
	unsigned cut = off - 12;
	uint8_t mac[12];
	memcpy(mac, d, 12);   /* the ranges overlap; fixed sizes: no call, no byte loop */
	memcpy(d + cut, mac, 12);
	pk->data = d + cut;
	pk->len -= cut;
	return VLAN_IN_OK;
}

/* A VLAN id of 1..4094 at *s, advancing it; false if there is none. */
static bool vid_at(const char **s, uint16_t *out)
{
	unsigned long v = 0;
	const char *p = *s;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9' && v <= PKT_VID_MAX)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (v < 1 || v > PKT_VID_MAX || (*p >= '0' && *p <= '9'))
		return false;
	*out = (uint16_t)v;
	*s = p;
	return true;
}

int vlan_parse(const char *spec, char *port, size_t portlen, struct vlan_port *v, char *err,
	       size_t errlen)
{
	static const char form[] = "PORT=VID, PORT=OUTER.INNER (QinQ), each VID 1..4094, "
				   "optionally :PCP 0..7, e.g. rut0=100 or rut0=200.100:5";
	memset(v, 0, sizeof(*v));
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec) {
		snprintf(err, errlen, "expected %s", form);
		return -EINVAL;
	}
	size_t pl = (size_t)(eq - spec);
	if (pl >= portlen) {
		snprintf(err, errlen, "the port name is longer than %zu characters", portlen - 1);
		return -EINVAL;
	}
	memcpy(port, spec, pl);
	port[pl] = 0;
	const char *s = eq + 1;
	if (!vid_at(&s, &v->vid[0])) {
		snprintf(err, errlen, "'%s' is not a VLAN id 1..%d; expected %s", eq + 1,
			 PKT_VID_MAX, form);
		return -EINVAL;
	}
	v->ntags = 1;
	if (*s == '.') {
		const char *in = ++s;
		if (!vid_at(&s, &v->vid[1])) {
			snprintf(err, errlen, "'%s' is not an inner VLAN id 1..%d; expected %s", in,
				 PKT_VID_MAX, form);
			return -EINVAL;
		}
		v->ntags = 2;
	}
	if (*s == ':') {
		const char *p = ++s;
		if (*p < '0' || *p > '7' || p[1]) {
			snprintf(err, errlen, "'%s' is not a priority (PCP) 0..%d", p, PKT_PCP_MAX);
			return -EINVAL;
		}
		v->pcp = (uint8_t)(*p - '0');
		s = p + 1;
	}
	if (*s) {
		snprintf(err, errlen, "unexpected '%s'; expected %s", s, form);
		return -EINVAL;
	}
	return 0;
}

int vlan_ifname(const char *ifname, const struct vlan_port *v, char *out, size_t len)
{
	int n = snprintf(out, len, "%s", ifname);
	for (unsigned k = 0; k < v->ntags && n >= 0 && (size_t)n < len; k++)
		n += snprintf(out + n, len - (size_t)n, ".%u", v->vid[k]);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
