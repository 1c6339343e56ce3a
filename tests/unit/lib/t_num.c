/* SPDX-License-Identifier: BSD-2-Clause */
/* t_num.c — the unit parser: values, suffixes, exactness, and every kind of reject. */
#include <errno.h>

#include "num.h"
#include "tap.h"

static void t_u64(void)
{
	uint64_t v = 0;
	T_EQ_INT(num_u64("42", 0, 100, &v), 0);
	T_EQ_U64(v, 42);
	T_EQ_INT(num_u64("101", 0, 100, &v), -ERANGE);
	T_EQ_INT(num_u64("42x", 0, 100, &v), -EINVAL);
	T_EQ_INT(num_u64("", 0, 100, &v), -EINVAL);
	T_EQ_INT(num_u64("-1", 0, 100, &v), -EINVAL);
	T_EQ_INT(num_u64("1.0", 0, 100, &v), -EINVAL);
	T_EQ_INT(num_u64(" 1", 0, 100, &v), -EINVAL);
	T_EQ_INT(num_u64("99999999999999999999999", 0, UINT64_MAX, &v), -ERANGE);
}

static void t_count_suffixes(void)
{
	uint64_t v = 0;
	T_EQ_INT(num_count("300k", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 300000);
	T_EQ_INT(num_count("1.5M", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 1500000);
	T_EQ_INT(num_count("2G", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 2000000000ULL);
	T_EQ_INT(num_count("100K", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 100000);
	T_EQ_INT(num_count("0.001k", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 1);
	/* not an integer, trailing garbage, unknown suffix */
	T_EQ_INT(num_count("1.0000005M", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_count("300kk", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_count("300q", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_count("k", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_count("1.5", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_count("5k", 0, 1000, &v), -ERANGE);
}

static void t_pps_bps(void)
{
	double d = 0;
	T_EQ_INT(num_pps("300k", &d), 0);
	T_NEAR(d, 300000, 1e-6);
	T_EQ_INT(num_pps("1.5Mpps", &d), 0);
	T_NEAR(d, 1500000, 1e-6);
	T_EQ_INT(num_pps("2000pps", &d), 0);
	T_NEAR(d, 2000, 1e-9);
	T_EQ_INT(num_pps("0", &d), -ERANGE);
	T_EQ_INT(num_pps("10kbps", &d), -EINVAL);
	T_EQ_INT(num_pps("10 k", &d), -EINVAL);
	T_EQ_INT(num_bps("100Mbit", &d), 0);
	T_NEAR(d, 100e6, 1e-3);
	T_EQ_INT(num_bps("1Gbps", &d), 0);
	T_NEAR(d, 1e9, 1e-3);
	T_EQ_INT(num_bps("2.5Gbit/s", &d), 0);
	T_NEAR(d, 2.5e9, 1e-3);
	T_EQ_INT(num_bps("100M", &d), -EINVAL);
	T_EQ_INT(num_percent("50%", &d), 0);
	T_NEAR(d, 50, 1e-9);
	T_EQ_INT(num_percent("150%", &d), -ERANGE);
	T_EQ_INT(num_percent("50", &d), -EINVAL);
}

static void t_duration(void)
{
	uint64_t v = 0;
	T_EQ_INT(num_duration_ns("10s", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 10000000000ULL);
	T_EQ_INT(num_duration_ns("10", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 10000000000ULL);
	T_EQ_INT(num_duration_ns("500ms", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 500000000ULL);
	T_EQ_INT(num_duration_ns("250us", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 250000ULL);
	T_EQ_INT(num_duration_ns("1.5s", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 1500000000ULL);
	T_EQ_INT(num_duration_ns("2m", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 120000000000ULL);
	T_EQ_INT(num_duration_ns("1h", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 3600000000000ULL);
	T_EQ_INT(num_duration_ns("10sec", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_duration_ns("1.5ns", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_duration_ns("s", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_duration_ns("0", 1, UINT64_MAX, &v), -ERANGE);
}

static void t_bytes(void)
{
	uint64_t v = 0;
	T_EQ_INT(num_bytes("64", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 64);
	T_EQ_INT(num_bytes("64B", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 64);
	T_EQ_INT(num_bytes("1518B", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 1518);
	T_EQ_INT(num_bytes("4KiB", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 4096);
	T_EQ_INT(num_bytes("9k", 0, UINT64_MAX, &v), 0);
	T_EQ_U64(v, 9000);
	T_EQ_INT(num_bytes("64b", 0, UINT64_MAX, &v), -EINVAL);
	T_EQ_INT(num_bytes("63", 64, 9018, &v), -ERANGE);
	T_EQ_INT(num_bytes("64.5", 0, UINT64_MAX, &v), -EINVAL);
}

static void t_double(void)
{
	double d;
	T_EQ_INT(num_double("0.5", 0, 1, &d), 0);
	T_NEAR(d, 0.5, 1e-12);
	T_EQ_INT(num_double("0.5x", 0, 1, &d), -EINVAL);
	T_EQ_INT(num_double("nan", 0, 1, &d), -EINVAL);
	T_EQ_INT(num_double("2", 0, 1, &d), -ERANGE);
}

int main(void)
{
	T_RUN(t_u64);
	T_RUN(t_count_suffixes);
	T_RUN(t_pps_bps);
	T_RUN(t_duration);
	T_RUN(t_bytes);
	T_RUN(t_double);
	return t_done();
}
