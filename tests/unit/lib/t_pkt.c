/* SPDX-License-Identifier: BSD-2-Clause */
/* t_pkt.c — the template builder (libnet) and the classifier: a valid frame is a test
 * frame, and each crafted fault lands in its own class. */
#include <arpa/inet.h>

#include "csum.h"
#include "pkt.h"
#include "tap.h"

static struct pkt_flow flow(void)
{
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64 };
	f.src_ip = htonl(0xc6120002);
	f.dst_ip = htonl(0xc6130002);
	return f;
}

static uint32_t build(uint8_t *buf, uint32_t wire)
{
	char err[128];
	struct pkt_flow f = flow();
	if (pkt_build_template(&f, pkt_frame_len(wire), 3, SIG_F_REALTIME, 0xa5, buf, err, sizeof(err)))
		return 0;
	return pkt_frame_len(wire);
}

static void fix_ip(uint8_t *fr)
{
	uint16_t c = csum_ip4_hdr(fr + PKT_IP_OFF, (fr[PKT_IP_OFF] & 15) * 4u);
	memcpy(fr + PKT_IP_OFF + 10, &c, 2);
}

static void fix_udp(uint8_t *fr)
{
	uint16_t ulen = (uint16_t)(fr[PKT_UDP_OFF + 4] << 8 | fr[PKT_UDP_OFF + 5]);
	uint16_t c = csum_udp4(fr + PKT_IP_OFF + 12, fr + PKT_IP_OFF + 16, fr + PKT_UDP_OFF, ulen);
	memcpy(fr + PKT_UDP_OFF + 6, &c, 2);
}

static void t_template_64(void)
{
	uint8_t fr[PKT_FRAME_MAX];
	struct pkt_info pi;
	uint32_t n = build(fr, 64);
	T_EQ_U64(n, 60);
	T_EQ_U64(fr[12], 0x08);
	T_EQ_U64(fr[14], 0x45);
	T_EQ_U64(fr[PKT_IP_OFF + 2] << 8 | fr[PKT_IP_OFF + 3], 46);    /* IP total length */
	T_EQ_U64(fr[PKT_UDP_OFF + 4] << 8 | fr[PKT_UDP_OFF + 5], 26);  /* UDP length */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TEST);
	T_EQ_U64(pi.sig.stream, 3);
	T_EQ_U64(pi.sig.flags, SIG_F_REALTIME);
	T_EQ_U64(pi.payload_len, SIG_LEN);
	T_EQ_U64(pi.dst_port, 9);
}

static void t_template_sizes(void)
{
	static const uint32_t sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518, 9018 };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint8_t fr[PKT_FRAME_MAX];
		struct pkt_info pi;
		uint32_t n = build(fr, sizes[i]);
		T_EQ_U64(n, sizes[i] - 4);
		T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TEST);
		if (sizes[i] > 64)
			T_EQ_U64(fr[n - 1], 0xa5);    /* padding pattern */
	}
	char err[128];
	uint8_t fr[PKT_FRAME_MAX];
	struct pkt_flow f = flow();
	T_TRUE(pkt_build_template(&f, 59, 0, 0, 0, fr, err, sizeof(err)) != 0);
}

static void t_classes(void)
{
	uint8_t base[PKT_FRAME_MAX], fr[PKT_FRAME_MAX];
	struct pkt_info pi;
	uint32_t n = build(base, 64);

	T_EQ_INT(pkt_classify(base, 13, 9, true, &pi), PKT_TRUNCATED);
	T_EQ_INT(pkt_classify(base, 30, 9, true, &pi), PKT_TRUNCATED);

	memcpy(fr, base, n);
	fr[12] = 0x86; fr[13] = 0xdd;                          /* IPv6 */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_NOT_IP4);
	memcpy(fr, base, n);
	fr[12] = 0x81; fr[13] = 0x00;                          /* VLAN-tagged */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_NOT_IP4);

	memcpy(fr, base, n);
	fr[PKT_IP_OFF + 10] ^= 0x55;
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_IP_CSUM);

	memcpy(fr, base, n);
	fr[PKT_IP_OFF] = 0x46;                                 /* 24-byte header: options */
	fix_ip(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_IP_OPTIONS);

	memcpy(fr, base, n);
	fr[PKT_IP_OFF + 6] = 0x20;                             /* more fragments */
	fix_ip(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_IP_FRAGMENT);

	memcpy(fr, base, n);
	fr[PKT_IP_OFF + 3] = 47;                               /* IP length beyond the frame */
	fix_ip(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_TRUNCATED);

	memcpy(fr, base, n);
	fr[PKT_IP_OFF + 3] = 19;                               /* IP length below the header */
	fix_ip(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_LEN);

	memcpy(fr, base, n);
	fr[PKT_UDP_OFF + 5] = 40;                              /* UDP length beyond IP */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_LEN);

	memcpy(fr, base, n);
	fr[PKT_IP_OFF + 9] = 6;                                /* TCP */
	fix_ip(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_NOT_UDP);

	T_EQ_INT(pkt_classify(base, n, 10, true, &pi), PKT_WRONG_PORT);
	T_EQ_INT(pkt_classify(base, n, 0, true, &pi), PKT_TEST);

	memcpy(fr, base, n);
	fr[PKT_PAYLOAD_OFF + 8] ^= 1;                          /* payload changed, checksum not */
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_UDP_CSUM);
	T_EQ_INT(pkt_classify(fr, n, 9, false, &pi), PKT_TEST);

	memcpy(fr, base, n);
	fr[PKT_PAYLOAD_OFF] = 0;                               /* no magic */
	fix_udp(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_FOREIGN);

	memcpy(fr, base, n);
	fr[PKT_PAYLOAD_OFF + 2] = 0x20;                        /* signature version 2 */
	fix_udp(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_BAD_SIG_VERSION);

	/* short UDP payload on the test port: foreign, never a test frame */
	memcpy(fr, base, n);
	fr[PKT_UDP_OFF + 5] = 8 + 4;
	fix_udp(fr);
	T_EQ_INT(pkt_classify(fr, n, 9, true, &pi), PKT_FOREIGN);
}

static void t_payload_classify(void)
{
	uint8_t b[64] = { 0 };
	struct pkt_info pi;
	struct sig s = { .stream = 9, .seq = 77 };
	sig_put(b, &s);
	T_EQ_INT(pkt_classify_payload(b, 18, &pi), PKT_TEST);
	T_EQ_U64(pi.sig.seq, 77);
	T_EQ_INT(pkt_classify_payload(b, 10, &pi), PKT_FOREIGN);
}

static void t_rd16(void)
{
	const uint8_t b[] = { 0x12, 0x34, 0xff, 0x00, 0x01 };
	T_EQ_U64(pkt_rd16(b), 0x1234);
	T_EQ_U64(pkt_rd16(b + 1), 0x34ff);   /* unaligned */
	T_EQ_U64(pkt_rd16(b + 2), 0xff00);
	T_EQ_U64(pkt_rd16(b + 3), 0x0001);
}

static void t_class_names(void)
{
	T_STREQ(pkt_class_name(PKT_BAD_IP_CSUM), "bad_ip_csum");
	T_STREQ(pkt_class_name(PKT_FOREIGN), "foreign");
	T_STREQ(pkt_class_name(PKT_CLASS_MAX), "unknown");
	for (int c = 0; c < PKT_CLASS_MAX; c++)
		T_TRUE(strcmp(pkt_class_name((enum pkt_class)c), "unknown") != 0);
}

int main(void)
{
	T_RUN(t_template_64);
	T_RUN(t_template_sizes);
	T_RUN(t_classes);
	T_RUN(t_payload_classify);
	T_RUN(t_class_names);
	T_RUN(t_rd16);
	return t_done();
}
