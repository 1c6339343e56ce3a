/* SPDX-License-Identifier: BSD-2-Clause */
/* t_pkt_vlan.c — 802.1Q and QinQ tags (pkt.h): the VID[:PCP][,VID[:PCP]] form, every
 * bad value refused with a reason naming the part, 4095 refused as reserved, 0 accepted
 * as priority tagged; tags inserted and read back (TPIDs 0x8100 and 0x88a8, a third tag
 * left in place, a short frame read no further than it goes). */
#include <errno.h>
#include <string.h>

#include "pkt.h"
#include "tap.h"

static void t_parse(void)
{
	struct pkt_vlan v;
	char err[200], out[32];
	T_EQ_INT(pkt_vlan_parse("100", &v, err, sizeof(err)), 0);
	T_EQ_U64(v.n, 1);
	T_EQ_U64(v.tci[0], 100);
	T_EQ_U64(v.tpid[0], 0x8100);
	T_EQ_INT(pkt_vlan_parse("0:7", &v, err, sizeof(err)), 0);
	T_EQ_U64(v.tci[0], 7u << 13);
	T_EQ_INT(pkt_vlan_parse("4094:5,1", &v, err, sizeof(err)), 0);
	T_EQ_U64(v.n, 2);
	T_EQ_U64(v.tci[0], 5u << 13 | 4094);
	T_EQ_U64(v.tci[1], 1);
	T_EQ_U64(v.tpid[0], 0x88a8);
	T_EQ_U64(v.tpid[1], 0x8100);
	pkt_vlan_format(&v, out, sizeof(out));
	T_STREQ(out, "4094:5,1");
	/* refused, each with its reason */
	T_EQ_INT(pkt_vlan_parse("4095", &v, err, sizeof(err)), -ERANGE);
	T_TRUE(strstr(err, "4095 is reserved") != NULL);
	T_EQ_INT(pkt_vlan_parse("100,4095", &v, err, sizeof(err)), -ERANGE);
	T_TRUE(strstr(err, "inner VLAN id 4095") != NULL);
	T_EQ_INT(pkt_vlan_parse("4096", &v, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "'4096' is not a number 0..4094") != NULL);
	T_EQ_INT(pkt_vlan_parse("10:8", &v, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "priority (PCP) '8' of VLAN 10 is not 0..7") != NULL);
	T_EQ_INT(pkt_vlan_parse("1,2,3", &v, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "more than 2 tags") != NULL);
	T_EQ_INT(pkt_vlan_parse(",5", &v, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "outer tag ''") != NULL);
	T_EQ_INT(pkt_vlan_parse("x", &v, err, sizeof(err)), -EINVAL);
	T_EQ_INT(pkt_vlan_parse("", &v, err, sizeof(err)), -EINVAL);
	T_EQ_INT(pkt_vlan_parse("-1", &v, err, sizeof(err)), -EINVAL);
	T_EQ_INT(pkt_vlan_parse("5:", &v, err, sizeof(err)), -EINVAL);
	T_EQ_INT(pkt_vlan_parse("5,", &v, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "inner tag") != NULL);
}

static void t_insert_read(void)
{
	uint8_t f[80];
	struct pkt_vlan v, r;
	char err[100];
	for (unsigned i = 0; i < 60; i++)
		f[i] = (uint8_t)i;
	f[12] = 0x08;
	f[13] = 0x00;
	T_EQ_INT(pkt_vlan_parse("300:2,30:6", &v, err, sizeof(err)), 0);
	T_EQ_U64(pkt_vlan_insert(f, 60, &v), 68);
	static const uint8_t tags[] = { 0x88, 0xa8, 0x41, 0x2c, 0x81, 0x00, 0xc0, 0x1e, 0x08, 0x00 };
	T_TRUE(memcmp(f + 12, tags, sizeof(tags)) == 0);
	T_EQ_U64(f[11], 11);
	T_EQ_U64(f[22], 14);              /* the byte after the ethertype moved by 8 */
	T_EQ_U64(pkt_vlan_read(f, 68, &r), 8);
	T_EQ_U64(r.n, 2);
	T_EQ_U64(r.tci[0], v.tci[0]);
	T_EQ_U64(r.tci[1], v.tci[1]);
	T_EQ_U64(r.tpid[0], 0x88a8);
	/* a third tag stays in place: the frame is then not IP */
	uint8_t g[40] = { 0 };
	for (int i = 0; i < 3; i++) {
		g[12 + 4 * i] = 0x81;
		g[13 + 4 * i] = 0x00;
	}
	T_EQ_U64(pkt_vlan_read(g, sizeof(g), &r), 8);
	T_EQ_U64(r.n, 2);
	/* no further than the frame goes */
	T_EQ_U64(pkt_vlan_read(g, 17, &r), 0);
	T_EQ_U64(pkt_vlan_read(g, 18, &r), 4);
	/* untagged: nothing */
	T_EQ_U64(pkt_vlan_read(f + 8, 60, &r), 0);
	T_EQ_U64(r.n, 0);
	v.n = 0;
	T_EQ_U64(pkt_vlan_insert(f, 60, &v), 60);
	T_STREQ(pkt_class_name(PKT_WRONG_VLAN), "wrong_vlan");
}

int main(void)
{
	T_RUN(t_parse);
	T_RUN(t_insert_read);
	return t_done();
}
