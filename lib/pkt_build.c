/* SPDX-License-Identifier: BSD-2-Clause */
/* pkt_build.c — builds the test frame template with libnet, once per flow, before the
 * hot loop (which then patches only sequence, timestamp and, for several flows,
 * addresses/ports with RFC 1624 updates). libnet is used in LIBNET_NONE mode: it
 * constructs frames without a device or root; the frame is assembled by
 * libnet_pblock_coalesce, which also fills in the checksums. */
#include "pkt.h"

#include <errno.h>
#include <libnet.h>
#include <stdio.h>
#include <string.h>

int pkt_build_template(const struct pkt_flow *f, uint32_t frame_len, uint8_t stream,
		       uint8_t sig_flags, uint8_t pad_byte, uint8_t *buf, char *err,
		       size_t errlen)
{
	char ebuf[LIBNET_ERRBUF_SIZE];
	uint8_t payload[PKT_FRAME_MAX];
	uint8_t *out = NULL;
	uint32_t out_len = 0;
	int rc = -EINVAL;

	if (frame_len < PKT_WIRE_MIN - PKT_FCS_LEN || frame_len > PKT_FRAME_MAX) {
		snprintf(err, errlen, "frame of %u bytes (without FCS) outside %u..%u", frame_len,
			 PKT_WIRE_MIN - PKT_FCS_LEN, PKT_FRAME_MAX);
		return -EINVAL;
	}
	uint32_t plen = frame_len - PKT_PAYLOAD_OFF;
	memset(payload, pad_byte, plen);
	struct sig s = { .flags = sig_flags, .stream = stream };
	sig_put(payload, &s);

	libnet_t *l = libnet_init(LIBNET_NONE, NULL, ebuf);
	if (!l) {
		snprintf(err, errlen, "libnet_init: %s", ebuf);
		return -ENOMEM;
	}
	if (libnet_build_udp(f->src_port, f->dst_port, (uint16_t)(PKT_UDP_LEN + plen), 0,
			     payload, plen, l, 0) < 0 ||
	    libnet_build_ipv4((uint16_t)(PKT_IP4_LEN + PKT_UDP_LEN + plen), f->tos, 0, 0,
			      f->ttl, IPPROTO_UDP, 0, f->src_ip, f->dst_ip, NULL, 0, l, 0) < 0 ||
	    libnet_build_ethernet(f->dst_mac, f->src_mac, ETHERTYPE_IP, NULL, 0, l, 0) < 0) {
		snprintf(err, errlen, "libnet: %s", libnet_geterror(l));
		goto out;
	}
	if (libnet_pblock_coalesce(l, &out, &out_len) < 0) {
		snprintf(err, errlen, "libnet: %s", libnet_geterror(l));
		goto out;
	}
	if (out_len != frame_len) {
		snprintf(err, errlen, "libnet built %u bytes, wanted %u", out_len, frame_len);
		goto out;
	}
	memcpy(buf, out, frame_len);
	rc = 0;
out:
	if (out)
		libnet_adv_free_packet(l, out);
	libnet_destroy(l);
	return rc;
}
