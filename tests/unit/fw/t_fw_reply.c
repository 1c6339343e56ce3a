/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_reply.c — the reply of a reset or unreach rule (fw.h: fw_reject_ok,
 * fw_reject_build): when FreeBSD sends one (ipfw_chk O_REJECT, send_reject, icmp_error,
 * icmp_reflect) and the bytes of the RST and of the ICMP unreachable it builds. */
#include <arpa/inet.h>
#include <string.h>

#include "csum.h"
#include "fw.h"
#include "tap.h"

/* an IPv4 packet 198.18.0.2 -> 198.19.0.2 of proto, ip_len bytes, 20-byte header */
static void mk(uint8_t *ip, uint8_t proto, unsigned ip_len)
{
	memset(ip, 0, 600);
	ip[0] = 0x45;
	ip[2] = (uint8_t)(ip_len >> 8);
	ip[3] = (uint8_t)ip_len;
	ip[8] = 64;
	ip[9] = proto;
	uint32_t s = htonl(0xc6120002), d = htonl(0xc6130002);
	memcpy(ip + 12, &s, 4);
	memcpy(ip + 16, &d, 4);
	for (unsigned i = 20; i < ip_len; i++)
		ip[i] = (uint8_t)i;
}

static void tcp(uint8_t *ip, uint8_t flags)
{
	uint8_t *th = ip + 20;
	th[0] = 0x04, th[1] = 0x00;                 /* sport 1024 */
	th[2] = 0x00, th[3] = 0x50;                 /* dport 80 */
	th[4] = 0x11, th[5] = 0x22, th[6] = 0x33, th[7] = 0x44;   /* seq */
	th[8] = 0xaa, th[9] = 0xbb, th[10] = 0xcc, th[11] = 0xdd; /* ack */
	th[12] = 5 << 4;
	th[13] = flags;
}

static void t_when(void)
{
	uint8_t ip[600];
	unsigned q;
	mk(ip, 17, 100);
	T_TRUE(fw_reject_ok(ip, 100, false, FW_UNREACH, &q));
	T_EQ_INT(q, 100);                          /* the whole datagram, under 548 */
	T_TRUE(!fw_reject_ok(ip, 100, true, FW_UNREACH, &q));      /* L2 broadcast */
	T_TRUE(!fw_reject_ok(ip, 100, false, FW_RESET, &q));       /* RST: TCP only */
	ip[6] = 0x00, ip[7] = 0x01;                /* a fragment with offset 8 */
	T_TRUE(!fw_reject_ok(ip, 100, false, FW_UNREACH, &q));
	ip[7] = 0;
	ip[16] = 224;                              /* to a multicast group */
	T_TRUE(!fw_reject_ok(ip, 100, false, FW_UNREACH, &q));
	mk(ip, 17, 100);
	ip[12] = 0;                                /* from 0/8 (icmp_reflect) */
	T_TRUE(!fw_reject_ok(ip, 100, false, FW_UNREACH, &q));
	mk(ip, 17, 27);                            /* 7 bytes past the header */
	T_TRUE(!fw_reject_ok(ip, 27, false, FW_UNREACH, &q));
	mk(ip, 17, 600);                           /* the quote: header + 548 */
	T_TRUE(fw_reject_ok(ip, 600, false, FW_UNREACH, &q));
	T_EQ_INT(q, 568);
	mk(ip, 1, 84);                             /* ICMP: a query yes, an error no */
	ip[20] = 8;
	T_TRUE(fw_reject_ok(ip, 84, false, FW_UNREACH, &q));
	ip[20] = 3;
	T_TRUE(!fw_reject_ok(ip, 84, false, FW_UNREACH, &q));
	mk(ip, 6, 40);
	tcp(ip, 0x02);
	T_TRUE(fw_reject_ok(ip, 40, false, FW_RESET, &q));
	tcp(ip, 0x04);                             /* never an RST for an RST */
	T_TRUE(!fw_reject_ok(ip, 40, false, FW_RESET, &q));
	tcp(ip, 0x02);
	ip[32] = 4 << 4;                           /* a TCP header under 20 bytes */
	T_TRUE(!fw_reject_ok(ip, 40, false, FW_UNREACH, &q));
}

static void t_rst(void)
{
	uint8_t ip[600], r[600];
	mk(ip, 6, 40);
	tcp(ip, 0x02);                             /* a SYN: RST|ACK, ack seq + 1 */
	T_EQ_INT(fw_reject_build(r, ip, FW_RESET, 0, 0, 0, 7), 40);
	T_EQ_INT(r[0], 0x45);
	T_EQ_INT(r[1], 0x10);
	T_EQ_INT(r[3], 40);
	T_EQ_INT(r[5], 7);
	T_EQ_INT(r[9], 6);
	T_TRUE(!memcmp(r + 12, ip + 16, 4) && !memcmp(r + 16, ip + 12, 4));
	T_TRUE(r[20] == 0x00 && r[21] == 0x50 && r[22] == 0x04 && r[23] == 0x00);
	T_TRUE(r[28] == 0x11 && r[29] == 0x22 && r[30] == 0x33 && r[31] == 0x45);
	T_EQ_INT(r[33], 0x14);
	T_EQ_INT(csum_fold(csum_add(0, r, 20)), 0);
	uint8_t ph[4] = { 0, 6, 0, 20 };
	T_EQ_INT(csum_fold(csum_add(csum_add(csum_add(0, r + 12, 8), ph, 4), r + 20, 20)), 0);
	tcp(ip, 0x10);                             /* with ACK: RST, seq = its ack */
	fw_reject_build(r, ip, FW_RESET, 0, 0, 0, 8);
	T_TRUE(r[24] == 0xaa && r[25] == 0xbb && r[26] == 0xcc && r[27] == 0xdd);
	T_EQ_INT(r[33], 0x04);
}

static void t_unreach(void)
{
	uint8_t ip[600], r[700];
	unsigned q;
	mk(ip, 17, 100);
	T_TRUE(fw_reject_ok(ip, 100, false, FW_UNREACH, &q));
	uint32_t from = htonl(0xc6130001);
	T_EQ_INT(fw_reject_build(r, ip, FW_UNREACH, 3, q, from, 9), 128);
	T_EQ_INT(r[3], 128);
	T_EQ_INT(r[5], 9);
	T_EQ_INT(r[9], 1);
	T_TRUE(!memcmp(r + 12, &from, 4) && !memcmp(r + 16, ip + 12, 4));
	T_EQ_INT(r[20], 3);
	T_EQ_INT(r[21], 3);
	T_TRUE(!memcmp(r + 28, ip, 100));           /* the quote */
	T_EQ_INT(csum_fold(csum_add(0, r, 20)), 0);
	T_EQ_INT(csum_fold(csum_add(0, r + 20, 108)), 0);
}

int main(void)
{
	T_RUN(t_when);
	T_RUN(t_rst);
	T_RUN(t_unreach);
	return t_done();
}
