/* SPDX-License-Identifier: BSD-2-Clause */
/* rate.h — what users type for a rate, and the pacing profiles built from it.
 *
 * A rate is packets per second ("300k", "1.5Mpps", "20000"), bits per second
 * ("100Mbit", "1Gbit/s"; counted at L2 — the frame with its FCS — or at L1, adding the
 * 20 bytes of preamble, start delimiter and inter-frame gap per frame), a percentage of
 * a link's line rate ("50%", with --link; line rate is an L1 notion, so percentages are
 * always L1), or "max". Bit rates and percentages become packet rates through the mean
 * frame size of the size mix: with IMIX, 1 Gbit/s at L1 is 1e9 / (8 · (361.83 + 20)) pps.
 *
 * Profiles: a step list "RATE@DUR,RATE@DUR,..." (a rate of 0 is a pause) or a linear
 * ramp "FROM:TO" over the run's duration; gen_profile_build turns either, or a constant
 * rate, into a pace_profile. Called by main.c before anything runs. */
#ifndef PPSLAB_GEN_RATE_H
#define PPSLAB_GEN_RATE_H

#include <stddef.h>
#include <stdint.h>

#include "pace.h"

enum gen_rate_kind { GEN_RATE_PPS, GEN_RATE_BPS, GEN_RATE_PCT, GEN_RATE_MAX };

struct gen_rate {
	enum gen_rate_kind kind;
	double v;          /* pps, bit/s or percent */
};

#define GEN_MAX_STEPS 64

struct gen_step {
	struct gen_rate rate;
	uint64_t dur_ns;
};

/* 0, -EINVAL (not a rate) or -ERANGE. allow_zero accepts "0" (a pause, in steps). */
int gen_rate_parse(const char *s, int allow_zero, struct gen_rate *r);
/* "1G", "10G", "100M", "25Gbit", "2.5Gbit/s": a link speed in bit/s. */
int gen_link_parse(const char *s, double *bps);
/* The packet rate for r: mean_wire is the mean frame size with FCS, l1 says bit rates
 * count L1, link_bps is the link for percentages (0: none given). GEN_RATE_MAX gives 0.
 * -EDESTADDRREQ for a percentage without a link, -ERANGE when the result is not in
 * (0, 1e12] pps (0 is allowed for a zero rate). */
int gen_rate_pps(const struct gen_rate *r, double mean_wire, int l1, double link_bps,
		 double *pps);
/* A step list; each step's rate may be 0. Fills err with what is wrong and where. */
int gen_steps_parse(const char *s, struct gen_step *steps, unsigned max, unsigned *n,
		    char *err, size_t errlen);
/* "FROM:TO". */
int gen_ramp_parse(const char *s, struct gen_rate *from, struct gen_rate *to);

#endif
