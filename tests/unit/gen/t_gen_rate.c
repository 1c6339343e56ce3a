/* SPDX-License-Identifier: BSD-2-Clause */
/* t_gen_rate.c — rates as users type them: packets per second, bits per second at L2
 * or L1, percentages of a link's line rate, max; link speeds; step lists and ramps;
 * and the rejects, which must never turn into a silently wrong rate. */
#include <errno.h>

#include "rate.h"
#include "tap.h"

static double pps_of(const char *s, double wire, int l1, double link)
{
	struct gen_rate r;
	double pps = -1;
	if (gen_rate_parse(s, 0, &r) || gen_rate_pps(&r, wire, l1, link, &pps))
		return -1;
	return pps;
}

static void t_pps(void)
{
	T_NEAR(pps_of("300k", 64, 0, 0), 300000, 0);
	T_NEAR(pps_of("1.5M", 64, 0, 0), 1500000, 0);
	T_NEAR(pps_of("1.5Mpps", 64, 0, 0), 1500000, 0);
	T_NEAR(pps_of("20000", 1518, 0, 0), 20000, 0);
	T_NEAR(pps_of("max", 64, 0, 0), 0, 0);
	struct gen_rate r;
	T_EQ_INT(gen_rate_parse("max", 0, &r), 0);
	T_EQ_INT(r.kind, GEN_RATE_MAX);
}

static void t_bits(void)
{
	/* 100 Mbit/s of 64-byte frames: L2 counts 64 bytes per frame, L1 84 */
	T_NEAR(pps_of("100Mbit", 64, 0, 0), 100e6 / 512, 1e-6);
	T_NEAR(pps_of("100Mbit", 64, 1, 0), 100e6 / 672, 1e-6);
	T_NEAR(pps_of("1Gbit/s", 1518, 0, 0), 1e9 / (1518 * 8), 1e-6);
	T_NEAR(pps_of("1Gbps", 1518, 1, 0), 1e9 / (1538 * 8), 1e-6);
	/* IMIX's mean size */
	double imix = (64.0 * 7 + 594 * 4 + 1518) / 12;
	T_NEAR(pps_of("1Gbit", imix, 1, 0), 1e9 / ((imix + 20) * 8), 1e-6);
}

static void t_percent(void)
{
	double link;
	T_EQ_INT(gen_link_parse("1G", &link), 0);
	T_NEAR(link, 1e9, 0);
	T_EQ_INT(gen_link_parse("10Gbit", &link), 0);
	T_NEAR(link, 1e10, 0);
	T_EQ_INT(gen_link_parse("100M", &link), 0);
	T_NEAR(link, 1e8, 0);
	T_EQ_INT(gen_link_parse("2.5Gbit/s", &link), 0);
	T_NEAR(link, 2.5e9, 0);
	/* line rate is L1: 100% of 1 GbE is 1,488,095 64-byte frames/s, of 10 GbE 14,880,952 */
	T_NEAR(pps_of("100%", 64, 0, 1e9), 1488095.238, 0.001);
	T_NEAR(pps_of("100%", 64, 1, 1e10), 14880952.38, 0.01);
	T_NEAR(pps_of("50%", 64, 0, 1e9), 744047.619, 0.001);
	T_NEAR(pps_of("100%", 1518, 0, 1e9), 81274.38, 0.01);
	struct gen_rate r;
	double pps;
	T_EQ_INT(gen_rate_parse("50%", 0, &r), 0);
	T_EQ_INT(gen_rate_pps(&r, 64, 0, 0, &pps), -EDESTADDRREQ);   /* % of what? */
	T_TRUE(gen_link_parse("fast", &link) != 0);
	T_TRUE(gen_link_parse("1", &link) != 0);
}

static void t_rejects(void)
{
	struct gen_rate r;
	T_TRUE(gen_rate_parse("300kq", 0, &r) != 0);
	T_TRUE(gen_rate_parse("0", 0, &r) != 0);
	T_TRUE(gen_rate_parse("-5", 0, &r) != 0);
	T_TRUE(gen_rate_parse("", 0, &r) != 0);
	T_TRUE(gen_rate_parse("101%", 0, &r) != 0);
	T_TRUE(gen_rate_parse("10Mbyte", 0, &r) != 0);
	T_TRUE(gen_rate_parse("1e6", 0, &r) != 0);
	T_TRUE(gen_rate_parse("maxx", 0, &r) != 0);
	T_EQ_INT(gen_rate_parse("0", 1, &r), 0);                     /* a pause, in steps */
	T_NEAR(r.v, 0, 0);
}

static void t_steps(void)
{
	struct gen_step st[GEN_MAX_STEPS];
	unsigned n;
	char err[160];
	T_EQ_INT(gen_steps_parse("10k@5s,20Mbit@500ms,0@1s,50%@2", st, GEN_MAX_STEPS, &n, err,
				 sizeof(err)), 0);
	T_EQ_U64(n, 4);
	T_EQ_INT(st[0].rate.kind, GEN_RATE_PPS);
	T_NEAR(st[0].rate.v, 10000, 0);
	T_EQ_U64(st[0].dur_ns, 5000000000ULL);
	T_EQ_INT(st[1].rate.kind, GEN_RATE_BPS);
	T_EQ_U64(st[1].dur_ns, 500000000ULL);
	T_NEAR(st[2].rate.v, 0, 0);
	T_EQ_INT(st[3].rate.kind, GEN_RATE_PCT);
	T_EQ_U64(st[3].dur_ns, 2000000000ULL);
	T_TRUE(gen_steps_parse("10k", st, GEN_MAX_STEPS, &n, err, sizeof(err)) != 0);
	T_TRUE(strstr(err, "step 1") != NULL);
	T_TRUE(gen_steps_parse("10k@1s,max@1s", st, GEN_MAX_STEPS, &n, err, sizeof(err)) != 0);
	T_TRUE(strstr(err, "step 2") != NULL);
	T_TRUE(gen_steps_parse("10k@0s", st, GEN_MAX_STEPS, &n, err, sizeof(err)) != 0);
	T_TRUE(gen_steps_parse("10k@1s,", st, GEN_MAX_STEPS, &n, err, sizeof(err)) == 0);
	T_TRUE(gen_steps_parse("1@1s,1@1s,1@1s", st, 2, &n, err, sizeof(err)) != 0);
}

static void t_ramp(void)
{
	struct gen_rate a, b;
	T_EQ_INT(gen_ramp_parse("10k:100k", &a, &b), 0);
	T_NEAR(a.v, 10000, 0);
	T_NEAR(b.v, 100000, 0);
	T_EQ_INT(gen_ramp_parse("0:100Mbit", &a, &b), 0);
	T_TRUE(gen_ramp_parse("10k:100Mbit", &a, &b) != 0);   /* units must agree */
	T_TRUE(gen_ramp_parse("10k", &a, &b) != 0);
	T_TRUE(gen_ramp_parse("10k:max", &a, &b) != 0);
}

int main(void)
{
	T_RUN(t_pps);
	T_RUN(t_bits);
	T_RUN(t_percent);
	T_RUN(t_rejects);
	T_RUN(t_steps);
	T_RUN(t_ramp);
	return t_done();
}
