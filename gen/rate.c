/* SPDX-License-Identifier: BSD-2-Clause */
/* rate.c — rate, link-speed, step-list and ramp parsing (see rate.h). Called by main.c
 * and by the unit tests; nothing here runs per packet. */
#include "rate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "num.h"
#include "pkt.h"

int gen_rate_parse(const char *s, int allow_zero, struct gen_rate *r)
{
	double v;
	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "max")) {
		*r = (struct gen_rate){ .kind = GEN_RATE_MAX };
		return 0;
	}
	if (allow_zero && (!strcmp(s, "0") || !strcmp(s, "0pps"))) {
		*r = (struct gen_rate){ .kind = GEN_RATE_PPS, .v = 0 };
		return 0;
	}
	int rc = num_pps(s, &v);
	if (rc != -EINVAL) {
		if (!rc)
			*r = (struct gen_rate){ .kind = GEN_RATE_PPS, .v = v };
		return rc;
	}
	rc = num_bps(s, &v);
	if (rc != -EINVAL) {
		if (!rc)
			*r = (struct gen_rate){ .kind = GEN_RATE_BPS, .v = v };
		return rc;
	}
	rc = num_percent(s, &v);
	if (!rc)
		*r = (struct gen_rate){ .kind = GEN_RATE_PCT, .v = v };
	return rc;
}

int gen_link_parse(const char *s, double *bps)
{
	uint64_t v;
	if (!num_bps(s, bps))
		return *bps >= 1e3 ? 0 : -ERANGE;
	int rc = num_count(s, 1000, 10000000000000ULL, &v);   /* "1G": bits, 1 kbit..10 Tbit */
	if (rc)
		return rc;
	*bps = (double)v;
	return 0;
}

int gen_rate_pps(const struct gen_rate *r, double mean_wire, int l1, double link_bps,
		 double *pps)
{
	double v;
	switch (r->kind) {
	case GEN_RATE_MAX:
		*pps = 0;
		return 0;
	case GEN_RATE_PPS:
		v = r->v;
		break;
	case GEN_RATE_BPS:
		v = r->v / (8.0 * (mean_wire + (l1 ? PKT_L1_OVERHEAD : 0)));
		break;
	case GEN_RATE_PCT:
		if (!(link_bps > 0))
			return -EDESTADDRREQ;
		v = r->v / 100.0 * link_bps / (8.0 * (mean_wire + PKT_L1_OVERHEAD));
		break;
	default:
		return -EINVAL;
	}
	if (v < 0 || v > 1e12 || (v == 0 && r->v != 0))
		return -ERANGE;
	*pps = v;
	return 0;
}

int gen_steps_parse(const char *s, struct gen_step *steps, unsigned max, unsigned *n,
		    char *err, size_t errlen)
{
	char buf[1024], *save = NULL;
	*n = 0;
	if (!s || !*s || strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "empty or too long");
		return -EINVAL;
	}
	strcpy(buf, s);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *at = strchr(item, '@');
		if (*n == max) {
			snprintf(err, errlen, "more than %u steps", max);
			return -E2BIG;
		}
		if (!at) {
			snprintf(err, errlen, "step %u '%s' has no @DURATION", *n + 1, item);
			return -EINVAL;
		}
		*at = 0;
		struct gen_step *st = &steps[*n];
		if (gen_rate_parse(item, 1, &st->rate) || st->rate.kind == GEN_RATE_MAX) {
			snprintf(err, errlen, "step %u: '%s' is not a rate (300k, 100Mbit, 50%%, 0)",
				 *n + 1, item);
			return -EINVAL;
		}
		if (num_duration_ns(at + 1, 1000000ULL, 366ULL * 86400 * 1000000000ULL, &st->dur_ns)) {
			snprintf(err, errlen, "step %u: '%s' is not a duration of at least 1ms",
				 *n + 1, at + 1);
			return -EINVAL;
		}
		(*n)++;
	}
	if (!*n) {
		snprintf(err, errlen, "no steps");
		return -EINVAL;
	}
	return 0;
}

int gen_ramp_parse(const char *s, struct gen_rate *from, struct gen_rate *to)
{
	char a[64];
	const char *colon = s ? strchr(s, ':') : NULL;
	if (!colon || (size_t)(colon - s) >= sizeof(a))
		return -EINVAL;
	memcpy(a, s, (size_t)(colon - s));
	a[colon - s] = 0;
	if (gen_rate_parse(a, 1, from) || gen_rate_parse(colon + 1, 1, to) ||
	    from->kind == GEN_RATE_MAX || to->kind == GEN_RATE_MAX)
		return -EINVAL;
	if (from->kind != to->kind && from->v != 0 && to->v != 0)
		return -EINVAL;   /* a ramp from pps to bit/s would change meaning mid-way */
	return 0;
}
