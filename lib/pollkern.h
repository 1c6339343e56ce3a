/* SPDX-License-Identifier: BSD-2-Clause */
/* pollkern.h — the kernel personalities of ppslab-rut's poll mode: which BSD
 * sys/kern/kern_poll.c each name stands for and what it does differently
 * (docs/design/polling.md#kernel-personalities). Shared by ppslab-rut (devpoll.c runs
 * the scheduler the personality describes) and the analyzer (a profile's `kernel` axis,
 * the knobs a kernel has). A table of constants: no state. */
#ifndef PPSLAB_LIB_POLLKERN_H
#define PPSLAB_LIB_POLLKERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an out-of-range knob write does. */
enum pk_range {
	PK_RANGE_EINVAL = 0,  /* FreeBSD 6.0 on: the handler fails with EINVAL, nothing changes */
	PK_RANGE_CLAMP = 1,   /* DragonFly 1.36 on: the handler clamps into range */
	PK_RANGE_ROUND = 2,   /* DragonFly before 1.36: stored as written, clamped at the start
			       * of the next round */
};

/* What kern.polling.enable is. */
enum pk_enable {
	PK_ENABLE_FLAG,       /* DragonFly: 0 deregisters every port; 1 only sets the flag
			       * (a port registers again when its interface is brought up) */
	PK_ENABLE_SWITCH,     /* FreeBSD 6 and 7: a legacy switch that turns polling on (1)
			       * or off (0) on every capable interface; default 0 */
	PK_ENABLE_NONE,       /* FreeBSD 8 on: no such sysctl (ifconfig IF polling only) */
	PK_ENABLE_GLOBAL,     /* FreeBSD 4 and 5: a plain variable; 0 makes the next POLL run
			       * deregister every port, anything else lets them register
			       * again (at their next interrupt) */
};

/* What lowering burst_max does to burst and each_burst. */
enum pk_lower {
	PK_LOWER_NONE,        /* DragonFly 1.25: nothing; burst stops growing, each_burst is
			       * clamped to burst_max at the next round */
	PK_LOWER_FOLLOW,      /* DragonFly 1.48: burst, residual_burst and each_burst follow */
	PK_LOWER_EACH10,      /* FreeBSD: burst follows; an each_burst above the new maximum
			       * becomes 10 (MIN_POLL_BURST_MAX), not the maximum */
	PK_LOWER_ROUND,       /* FreeBSD 5: nothing at once; the next round clamps burst_max,
			       * then each_burst and burst to it */
};

struct pollkern {
	const char *name;         /* --kernel NAME */
	const char *source;       /* the kern_poll.c it follows, for humans */
	bool has_pollhz;          /* the poll clock is kern.polling.pollhz; else kern.hz */
	bool load_vs_hz;          /* load, short_ticks and the reg_frac bound use kern.hz */
	bool reg_frac_up;         /* status rounds reg_frac, 2·reg_frac ... (FreeBSD), not
				   * 1, reg_frac + 1 ... (DragonFly) */
	bool has_idle_poll;       /* kern.polling.idle_poll (FreeBSD's idle-priority thread) */
	bool reset_on_disable;    /* enable=0 also resets burst to 5 (DragonFly 1.48) */
	enum pk_enable enable;
	enum pk_lower lower;
	enum pk_range range;      /* the knob handlers' policy */
	uint32_t burst_max_max;   /* MAX_POLL_BURST_MAX */
	uint32_t hz_default;      /* kern.hz (HZ) */
	uint32_t enable_default;  /* kern.polling.enable at start */
};

#define PK_DEFAULT "dragonfly-2.0"
#define PK_HZ_MAX 30000            /* the fastest poll clock ppslab-rut keeps */
#define PK_BURST_MAX_TOP 20000     /* the largest burst_max of any kernel (FreeBSD 14) */

/* The personality of that name, or NULL. */
const struct pollkern *pollkern_find(const char *name);
/* The i-th personality (0..), NULL past the last. */
const struct pollkern *pollkern_at(int i);
/* "dragonfly-1.8, dragonfly-2.0, ..." into buf; returns buf. */
const char *pollkern_names(char *buf, size_t len);
/* Whether the kernel has the kern.polling knob of that short name ("pollhz",
 * "idle_poll", "enable", "burst_max", ...): false only for those a kernel lacks. */
bool pollkern_has(const struct pollkern *k, const char *knob);
/* "einval", "clamp", "round"; pollkern_range_parse: 0 or -EINVAL. */
const char *pollkern_range_name(enum pk_range r);
int pollkern_range_parse(const char *s, enum pk_range *r);

#endif
