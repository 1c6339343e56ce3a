/* SPDX-License-Identifier: BSD-2-Clause */
/* t_gen_misc.c — ppslab-gen's capture loader (real pcap files written with libpcap:
 * frames, truncation, wrong link type, a cut-off file, a missing one) and the rate
 * verdict (rate_ok false beyond 0.5%, when scheduled frames were not sent or failed, or
 * when nothing was measured; a short run within --late of its schedule passes; no rate
 * from a single batch). */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gen.h"
#include "replay.h"
#include "gen_report.h"
#include "tap.h"

static char path[64];

static void write_pcap(int dlt, int nframes, int snap)
{
	pcap_t *pd = pcap_open_dead(dlt, 65535);
	pcap_dumper_t *d = pcap_dump_open(pd, path);
	uint8_t frame[1514];
	for (int i = 0; i < nframes; i++) {
		uint32_t len = 60 + (uint32_t)i * 100;
		struct pcap_pkthdr h = { .caplen = snap && len > (uint32_t)snap ? (uint32_t)snap : len, .len = len };
		memset(frame, i, sizeof(frame));
		pcap_dump((u_char *)d, &h, frame);
	}
	pcap_dump_close(d);
	pcap_close(pd);
}

static void t_replay(void)
{
	struct gen_replay r;
	char err[256];
	snprintf(path, sizeof(path), "/tmp/t_gen_misc.%d.pcap", (int)getpid());
	write_pcap(DLT_EN10MB, 5, 0);
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), 0);
	T_EQ_U64(r.n, 5);
	T_EQ_U64(r.len[4], 460);
	T_EQ_U64(r.data[r.off[3] + 10], 3);
	T_EQ_U64(r.bytes, 60 + 160 + 260 + 360 + 460);
	T_EQ_U64(r.len_max, 460);
	T_NEAR(gen_replay_mean_wire(&r), 260 + 4, 1e-9);
	T_EQ_U64(r.truncated, 0);
	gen_replay_free(&r);

	write_pcap(DLT_EN10MB, 3, 100);           /* snaplen 100: two frames cut short */
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), 0);
	T_EQ_U64(r.truncated, 2);
	T_EQ_U64(r.len[2], 100);
	gen_replay_free(&r);

	write_pcap(DLT_RAW, 3, 0);
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "Ethernet") != NULL);

	write_pcap(DLT_EN10MB, 0, 0);
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "no frames") != NULL);

	write_pcap(DLT_EN10MB, 4, 0);             /* cut in the middle of the last record */
	FILE *f = fopen(path, "r+");
	fseek(f, 0, SEEK_END);
	T_EQ_INT(ftruncate(fileno(f), ftell(f) - 50), 0);
	fclose(f);
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "after frame 3") != NULL);

	f = fopen(path, "w");
	fputs("not a capture\n", f);
	fclose(f);
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), -EINVAL);
	unlink(path);
	T_EQ_INT(gen_replay_load(path, &r, err, sizeof(err)), -ENOENT);
}

static void t_verdict(void)
{
	static struct gen g;
	struct gen_snap s = { 0 };
	struct gen_verdict v;
	g.paced = 1;
	/* 10,001 frames whose deadlines span exactly 1 s: 10,000 pps asked */
	s.tx_pkts = 10001;
	s.sched_pkts = 10001;
	s.sched_first_ns = 5000;
	s.sched_last_ns = 5000 + 1000000000ULL;
	s.first_ns = 7000;
	s.last_ns = 7000 + 1004000000ULL;       /* sent over 1.004 s: -0.4% */
	gen_verdict(&g, &s, &v);
	T_NEAR(v.target_pps, 10000, 1e-6);
	T_NEAR(v.rate_error_pct, -0.398, 0.001);
	T_EQ_INT(v.rate_ok, 1);
	s.last_ns = 7000 + 1006000000ULL;       /* -0.6%: missed */
	gen_verdict(&g, &s, &v);
	T_EQ_INT(v.rate_ok, 0);
	s.last_ns = 7000 + 1000000000ULL;       /* on time, but 1% of the frames never sent */
	s.sched_pkts = 10102;
	gen_verdict(&g, &s, &v);
	T_NEAR(v.rate_error_pct, 0, 1e-9);
	T_NEAR(v.shortfall_pct, -1.0, 0.01);
	T_EQ_INT(v.rate_ok, 0);
	g.paced = 0;                            /* as fast as possible: nothing to miss */
	gen_verdict(&g, &s, &v);
	T_EQ_INT(v.rate_ok, 1);
	T_TRUE(!isfinite(v.target_pps));
	T_NEAR(v.pps, 10000, 1e-6);
	s.tx_fail = 100;                        /* ... unless 1% of them failed */
	gen_verdict(&g, &s, &v);
	T_EQ_INT(v.rate_ok, 0);
	T_NEAR(v.shortfall_pct, -1.0, 0.01);

	/* paced, on time, every frame accepted: 2% rejected by the kernel afterwards */
	g.paced = 1;
	s.sched_pkts = 10001;
	s.tx_fail = 200;
	gen_verdict(&g, &s, &v);
	T_NEAR(v.rate_error_pct, 0, 1e-9);
	T_NEAR(v.shortfall_pct, -2.0, 0.01);
	T_EQ_INT(v.rate_ok, 0);
	s.tx_fail = 0;

	/* ten frames at 1 kpps (9 ms of deadlines), the last 70 us late: -0.77 % as a rate,
	 * but within --late of the schedule: on time */
	g.cfg.late_ns = 100000;
	s.tx_pkts = s.sched_pkts = 10;
	s.sched_last_ns = s.sched_first_ns + 9000000;
	s.last_ns = s.first_ns + 9070000;
	gen_verdict(&g, &s, &v);
	T_NEAR(v.rate_error_pct, -0.772, 0.001);
	T_EQ_INT(v.rate_ok, 1);
	s.last_ns = s.first_ns + 9150000;       /* 150 us off: beyond --late and 0.5% */
	gen_verdict(&g, &s, &v);
	T_EQ_INT(v.rate_ok, 0);

	/* three frames in one batch: no rate, not the frame count */
	s.tx_pkts = s.sched_pkts = 3;
	s.last_ns = s.first_ns;
	s.sched_last_ns = s.sched_first_ns + 2000;
	gen_verdict(&g, &s, &v);
	T_TRUE(!isfinite(v.pps));
	T_EQ_INT(v.rate_ok, 1);

	/* stopped before anything was measured (in the warm-up): no pass */
	memset(&s, 0, sizeof(s));
	gen_verdict(&g, &s, &v);
	T_EQ_INT(v.rate_ok, 0);
	g.paced = 0;
	gen_verdict(&g, &s, &v);
	T_EQ_INT(v.rate_ok, 0);
}

int main(void)
{
	T_RUN(t_replay);
	T_RUN(t_verdict);
	return t_done();
}
