/* pace.c — absolute-deadline transmit schedule (see pace.h). */
#include "pace.h"

void pace_init(struct pace *p, uint64_t start_ns, double pps, uint32_t burst)
{
	p->start_ns = start_ns;
	p->pps = pps;
	p->burst = burst ? burst : 1;
	p->k = 0;
}

uint64_t pace_deadline_of(const struct pace *p, uint64_t k)
{
	if (p->pps <= 0)
		return p->start_ns;
	uint64_t first = k - k % p->burst;      /* a burst shares its first frame's deadline */
	long double off = (long double)first * 1e9L / (long double)p->pps;
	return p->start_ns + (uint64_t)off;
}

uint32_t pace_due(const struct pace *p, uint64_t now_ns, uint32_t max)
{
	if (p->pps <= 0)
		return max;
	if (now_ns < pace_deadline_of(p, p->k))
		return 0;
	/* frames due by now: all k' with deadline(k') <= now */
	long double el = (long double)(now_ns - p->start_ns);
	uint64_t last = (uint64_t)(el * (long double)p->pps / 1e9L);  /* deadline(last) <= now */
	while (last > p->k && pace_deadline_of(p, last) > now_ns)
		last--;
	/* extend to the end of last's burst */
	last = last - last % p->burst + p->burst - 1;
	uint64_t due = last >= p->k ? last - p->k + 1 : 0;
	return due > max ? max : (uint32_t)due;
}
