/* t_pace.c — the transmit schedule on a simulated clock: steady rate without drift,
 * bursts sharing a deadline, "as fast as possible". */
#include "pace.h"
#include "tap.h"

static void t_constant(void)
{
	struct pace p;
	pace_init(&p, 1000, 1000.0, 1);                 /* 1 frame per ms */
	T_EQ_U64(pace_due(&p, 999, 64), 0);
	T_EQ_U64(pace_due(&p, 1000, 64), 1);
	T_EQ_U64(pace_due(&p, 1000 + 10000000, 64), 11);   /* frames 0..10 */
	T_EQ_U64(pace_deadline_of(&p, 10), 1000 + 10000000);
	/* send what is due, one at a time over 1 s of simulated time: exactly 1000 */
	uint64_t sent = 0;
	for (uint64_t t = 1000; t < 1000 + 1000000000ULL; t += 100000) {
		uint32_t n = pace_due(&p, t, 64);
		pace_advance(&p, n);
		sent += n;
	}
	T_EQ_U64(sent, 1000);
}

static void t_no_drift(void)
{
	/* 3 pps: deadlines 0, 333333333, 666666666, 1000000000: computed from k, not summed */
	struct pace p;
	pace_init(&p, 0, 3.0, 1);
	T_EQ_U64(pace_deadline_of(&p, 3), 1000000000ULL);
	T_EQ_U64(pace_deadline_of(&p, 3000000), 1000000000000000ULL);
	pace_init(&p, 0, 1488095.0, 1);
	uint64_t d = pace_deadline_of(&p, 1488095ULL * 3600);   /* one hour at 1 GbE line rate */
	T_NEAR((double)d, 3600e9, 2.0);
}

static void t_burst(void)
{
	struct pace p;
	pace_init(&p, 0, 1000.0, 4);
	T_EQ_U64(pace_deadline_of(&p, 0), 0);
	T_EQ_U64(pace_deadline_of(&p, 3), 0);
	T_EQ_U64(pace_deadline_of(&p, 4), 4000000);
	T_EQ_U64(pace_due(&p, 0, 64), 4);
	pace_advance(&p, 4);
	T_EQ_U64(pace_due(&p, 3999999, 64), 0);
	T_EQ_U64(pace_due(&p, 4000000, 64), 4);
	T_EQ_U64(pace_due(&p, 4000000, 3), 3);
}

static void t_max(void)
{
	struct pace p;
	pace_init(&p, 0, 0, 1);
	T_EQ_U64(pace_due(&p, 0, 64), 64);
	T_EQ_U64(pace_next_deadline(&p), 0);
}

int main(void)
{
	T_RUN(t_constant);
	T_RUN(t_no_drift);
	T_RUN(t_burst);
	T_RUN(t_max);
	return t_done();
}
