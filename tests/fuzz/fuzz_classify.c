/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_classify.c — libFuzzer harness for the frame classifier (lib/pkt.c): the sink's
 * pkt_classify (with and without UDP checksum checks, on any port and the test port),
 * the L3 parse the forwarder runs on every frame (pkt_parse_ip4, rut/fwd.c)
 * and the payload classifier of udp: ports. Every frame gets a class below
 * PKT_CLASS_MAX with a name, and what the parse claims lies inside the frame.
 *
 * With PPSLAB_FUZZ_SEEDS=DIR set, it first writes one frame of each class there (the
 * seed corpus: a valid 64-byte test frame and tests/helpers/faults.h's faults). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "faults.h"
#include "pkt.h"
#include "safefile.h"

static void write_seeds(const char *dir)
{
	static const char *const names[] = { "test", "truncated", "not_ip4", "ip_options",
		"ip_fragment", "bad_ip_csum", "bad_len", "not_udp", "wrong_port", "bad_udp_csum",
		"foreign", "bad_sig_version" };
	struct pkt_flow f = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .src_port = 9, .dst_port = 9, .ttl = 64,
			      .src_ip = 0x020012c6, .dst_ip = 0x020013c6 };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint8_t buf[256] = { 0 };
		char err[128], path[512];
		uint32_t len = pkt_frame_len(64);
		if (pkt_build_template(&f, len, 1, 0, 0xa5, buf, err, sizeof(err)))
			return;
		fault_apply(names[i], buf, &len);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		safe_write_file(path, 0644, buf, len, 0);   /* a seed: best effort */
	}
	/* the IPv6 classes, from an 84-byte IPv6 test frame */
	static const char *const names6[] = { "test", "truncated", "bad_len", "not_udp",
		"ip_fragment", "hop_limit_zero", "bad_udp_csum", "foreign" };
	struct pkt_flow f6 = f;
	f6.ipv = 6;
	f6.src6[0] = f6.dst6[0] = 0x20;
	f6.src6[1] = f6.dst6[1] = 0x01;
	f6.src6[3] = f6.dst6[3] = 0x02;
	f6.src6[15] = 2;
	f6.dst6[15] = 1;
	for (size_t i = 0; i < sizeof(names6) / sizeof(names6[0]); i++) {
		uint8_t buf[256] = { 0 };
		char err[128], path[512];
		uint32_t len = pkt_frame_len(PKT6_WIRE_MIN);
		if (pkt6_build_template(&f6, len, 1, 0, 0xa5, buf, err, sizeof(err)))
			return;
		fault6_apply(names6[i], buf, &len);
		snprintf(path, sizeof(path), "%s/ip6_%s", dir, names6[i]);
		safe_write_file(path, 0644, buf, len, 0);   /* a seed: best effort */
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = getenv("PPSLAB_FUZZ_SEEDS");
	if (dir && *dir)
		write_seeds(dir);
	return 0;
}

static void check_info(enum pkt_class c, const uint8_t *fr, size_t len,
		       const struct pkt_info *pi)
{
	if ((unsigned)c >= PKT_CLASS_MAX || !pkt_class_name(c))
		abort();
	if (c == PKT_TEST) {
		if (pi->payload < fr || pi->payload + pi->payload_len > fr + len)
			abort();
		if (pi->ip < fr || pi->ip + 20 > fr + len)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so ASan sees any read past the frame. */
	uint8_t *fr = malloc(size ? size : 1);
	if (!fr)
		return 0;
	memcpy(fr, data, size);
	struct pkt_info pi;
	enum pkt_class c;

	memset(&pi, 0, sizeof(pi));
	c = pkt_parse_ip4(fr, size, &pi);
	if ((unsigned)c >= PKT_CLASS_MAX)
		abort();
	/* what the forwarder goes on with (it forwards options and fragments too) and
	 * reads: the IP header and ip_len bytes from it lie inside the frame */
	if ((c == PKT_TEST || c == PKT_IP_OPTIONS || c == PKT_IP_FRAGMENT) &&
	    (pi.ip < fr || pi.ip_len < (pi.ip[0] & 15) * 4u || (pi.ip[0] & 15) < 5 ||
	     pi.ip + pi.ip_len > fr + size))
		abort();
	for (int v = 0; v < 2; v++) {
		memset(&pi, 0, sizeof(pi));
		c = pkt_classify(fr, size, 9, v, &pi);
		check_info(c, fr, size, &pi);
		memset(&pi, 0, sizeof(pi));
		c = pkt_classify(fr, size, 0, v, &pi);
		check_info(c, fr, size, &pi);
	}
	memset(&pi, 0, sizeof(pi));
	c = pkt_classify_payload(fr, size, &pi);
	if ((unsigned)c >= PKT_CLASS_MAX)
		abort();
	free(fr);
	return 0;
}
