/* SPDX-License-Identifier: BSD-2-Clause */
/* num.c — strict number parsing with unit suffixes (see num.h). Used by every main()
 * and by the profile reader. Integer results are computed from the decimal digits, not
 * through a double, so "1.5M" is exactly 1,500,000. */
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A decimal number split into integer digits and fraction digits (up to 18 of each). */
struct dec {
	uint64_t ip;        /* integer part */
	uint64_t fp;        /* fraction digits as an integer */
	int fdig;           /* number of fraction digits */
	const char *end;    /* first character after the number */
};

static int dec_parse(const char *s, struct dec *d)
{
	const char *p = s;
	int idig = 0;

	d->ip = d->fp = 0;
	d->fdig = 0;
	while (*p >= '0' && *p <= '9') {
		if (d->ip > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		d->ip = d->ip * 10 + (uint64_t)(*p - '0');
		p++;
		idig++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (d->fdig >= 18)
				return -EINVAL;
			d->fp = d->fp * 10 + (uint64_t)(*p - '0');
			d->fdig++;
			p++;
		}
	}
	if (idig == 0 && d->fdig == 0)
		return -EINVAL;
	d->end = p;
	return 0;
}

static uint64_t pow10u(int n)
{
	uint64_t r = 1;
	while (n-- > 0)
		r *= 10;
	return r;
}

/* d * mult exactly, or -EINVAL if the result is not an integer, -ERANGE on overflow. */
static int dec_scale_exact(const struct dec *d, uint64_t mult, uint64_t *out)
{
	uint64_t den = pow10u(d->fdig);
	if (d->ip != 0 && mult > UINT64_MAX / d->ip)
		return -ERANGE;
	uint64_t whole = d->ip * mult;
	/* fraction: fp * mult / den must be an integer */
	unsigned __int128 f = (unsigned __int128)d->fp * mult;
	if (f % den != 0)
		return -EINVAL;
	unsigned __int128 total = (unsigned __int128)whole + f / den;
	if (total > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)total;
	return 0;
}

static double dec_value(const struct dec *d)
{
	return (double)d->ip + (double)d->fp / (double)pow10u(d->fdig);
}

static int si_mult(const char **p, uint64_t *mult)
{
	switch (**p) {
	case 'k': case 'K': *mult = 1000ULL; break;
	case 'M': *mult = 1000000ULL; break;
	case 'G': *mult = 1000000000ULL; break;
	case 'T': *mult = 1000000000000ULL; break;
	default: *mult = 1; return 0;
	}
	(*p)++;
	return 1;
}

static int range_u64(int rc, uint64_t v, uint64_t min, uint64_t max, uint64_t *out)
{
	if (rc)
		return rc;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	struct dec d;
	int rc = -EINVAL;
	if (!s || (rc = dec_parse(s, &d)))
		return rc;
	if (d.fdig || *d.end || strchr(s, '.'))
		return -EINVAL;
	return range_u64(0, d.ip, min, max, out);
}

int num_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	struct dec d;
	uint64_t mult, v;
	int rc = -EINVAL;
	if (!s || (rc = dec_parse(s, &d)))
		return rc;
	const char *p = d.end;
	si_mult(&p, &mult);
	if (*p)
		return -EINVAL;
	rc = dec_scale_exact(&d, mult, &v);
	return range_u64(rc, v, min, max, out);
}

int num_double(const char *s, double min, double max, double *out)
{
	char *end;
	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_pps(const char *s, double *out)
{
	struct dec d;
	uint64_t mult;
	if (!s || dec_parse(s, &d))
		return -EINVAL;
	const char *p = d.end;
	si_mult(&p, &mult);
	if (*p && strcasecmp(p, "pps") != 0)
		return -EINVAL;
	double v = dec_value(&d) * (double)mult;
	if (!(v > 0) || v > 1e12)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_bps(const char *s, double *out)
{
	struct dec d;
	uint64_t mult;
	if (!s || dec_parse(s, &d))
		return -EINVAL;
	const char *p = d.end;
	si_mult(&p, &mult);
	if (strcmp(p, "bit") && strcmp(p, "bps") && strcmp(p, "bit/s") && strcmp(p, "b"))
		return -EINVAL;
	double v = dec_value(&d) * (double)mult;
	if (!(v > 0) || v > 1e15)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_percent(const char *s, double *out)
{
	struct dec d;
	if (!s || dec_parse(s, &d) || strcmp(d.end, "%"))
		return -EINVAL;
	double v = dec_value(&d);
	if (!(v > 0) || v > 100.0)
		return -ERANGE;
	*out = v;
	return 0;
}

/* A suffix and what one of it is worth in the base unit. */
struct unit {
	const char *sfx;
	uint64_t mult;
};

/* A decimal with one of the n suffixes of units, scaled exactly to the base unit, in
 * [min, max]. */
static int num_units(const char *s, const struct unit *units, size_t n, uint64_t min,
		     uint64_t max, uint64_t *out)
{
	struct dec d;
	uint64_t v;
	int rc = -EINVAL;
	if (!s || (rc = dec_parse(s, &d)))
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(d.end, units[i].sfx) == 0) {
			rc = dec_scale_exact(&d, units[i].mult, &v);
			return range_u64(rc, v, min, max, out);
		}
	}
	return -EINVAL;
}

int num_duration_ns(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	static const struct unit units[] = {
		{ "ns", 1ULL }, { "us", 1000ULL }, { "ms", 1000000ULL }, { "s", 1000000000ULL },
		{ "", 1000000000ULL }, { "m", 60000000000ULL }, { "min", 60000000000ULL },
		{ "h", 3600000000000ULL },
	};
	return num_units(s, units, sizeof(units) / sizeof(units[0]), min, max, out);
}

int num_bytes(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	static const struct unit units[] = {
		{ "", 1 }, { "B", 1 }, { "k", 1000 }, { "kB", 1000 }, { "K", 1000 },
		{ "KB", 1000 }, { "M", 1000000 }, { "MB", 1000000 }, { "G", 1000000000ULL },
		{ "GB", 1000000000ULL }, { "KiB", 1024 }, { "MiB", 1048576 },
		{ "GiB", 1073741824ULL },
	};
	return num_units(s, units, sizeof(units) / sizeof(units[0]), min, max, out);
}

const char *num_expect_count(void)
{
	return NUM_EXPECT_COUNT;
}

const char *num_expect_duration(void)
{
	return NUM_EXPECT_DURATION;
}

const char *num_expect_bytes(void)
{
	return "a size in bytes such as 64, 64B, 1518B or 9000";
}
