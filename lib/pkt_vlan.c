/* SPDX-License-Identifier: BSD-2-Clause */
/* pkt_vlan.c — 802.1Q and QinQ tags of test frames (see pkt.h): the VID[:PCP] option
 * form the three programs share, and inserting the tags into a built frame. */
#include "pkt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

static int tag_parse(const char *s, size_t n, const char *which, uint16_t *tci, char *err,
		     size_t errlen)
{
	char buf[32], *colon;
	uint64_t vid, pcp = 0;
	if (n == 0 || n >= sizeof(buf)) {
		snprintf(err, errlen, "%s tag '%.*s': expected VID[:PCP]", which, (int)(n < 31 ? n : 31), s);
		return -EINVAL;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	if ((colon = strchr(buf, ':')))
		*colon = 0;
	if (num_u64(buf, 0, 4095, &vid)) {
		snprintf(err, errlen, "%s VLAN id '%s' is not a number 0..%d", which, buf, PKT_VID_MAX);
		return -EINVAL;
	}
	if (vid > PKT_VID_MAX) {
		snprintf(err, errlen, "%s VLAN id 4095 is reserved (802.1Q); use 0..%d (0: priority "
			 "tagged)", which, PKT_VID_MAX);
		return -ERANGE;
	}
	if (colon && num_u64(colon + 1, 0, PKT_PCP_MAX, &pcp)) {
		snprintf(err, errlen, "%s priority (PCP) '%s' of VLAN %llu is not 0..%d", which,
			 colon + 1, (unsigned long long)vid, PKT_PCP_MAX);
		return -EINVAL;
	}
	*tci = (uint16_t)(pcp << 13 | vid);
	return 0;
}

int pkt_vlan_parse(const char *s, struct pkt_vlan *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	if (!s || !*s) {
		snprintf(err, errlen, "empty: expected VID[:PCP] or OUTER[:PCP],INNER[:PCP]");
		return -EINVAL;
	}
	const char *comma = strchr(s, ',');
	if (comma && strchr(comma + 1, ',')) {
		snprintf(err, errlen, "more than %d tags: expected VID[:PCP] or "
			 "OUTER[:PCP],INNER[:PCP]", PKT_VLAN_MAX);
		return -EINVAL;
	}
	int rc;
	if (!comma) {
		if ((rc = tag_parse(s, strlen(s), "the", &v->tci[0], err, errlen)))
			return rc;
		v->n = 1;
		v->tpid[0] = PKT_TPID_8021Q;
		return 0;
	}
	if ((rc = tag_parse(s, (size_t)(comma - s), "the outer", &v->tci[0], err, errlen)) ||
	    (rc = tag_parse(comma + 1, strlen(comma + 1), "the inner", &v->tci[1], err, errlen)))
		return rc;
	v->n = 2;
	v->tpid[0] = PKT_TPID_8021AD;
	v->tpid[1] = PKT_TPID_8021Q;
	return 0;
}

void pkt_vlan_format(const struct pkt_vlan *v, char *out, size_t len)
{
	size_t o = 0;
	if (len)
		out[0] = 0;
	for (unsigned i = 0; i < v->n && o < len; i++) {
		unsigned pcp = v->tci[i] >> 13;
		int w = pcp ? snprintf(out + o, len - o, "%s%u:%u", i ? "," : "",
				       pkt_vlan_vid(v->tci[i]), pcp)
			    : snprintf(out + o, len - o, "%s%u", i ? "," : "", pkt_vlan_vid(v->tci[i]));
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

uint32_t pkt_vlan_insert(uint8_t *buf, uint32_t len, const struct pkt_vlan *v)
{
	uint32_t tl = (uint32_t)v->n * PKT_VLAN_TAG_LEN;
	if (!tl)
		return len;
	memmove(buf + 12 + tl, buf + 12, len - 12);
	for (unsigned i = 0; i < v->n; i++)
		pkt_vlan_put_tag(buf + 12 + i * PKT_VLAN_TAG_LEN, pkt_vlan_tpid_at(v->n, i),
				 v->tci[i]);
	return len + tl;
}
