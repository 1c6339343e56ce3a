/* SPDX-License-Identifier: BSD-2-Clause */
/* pollkern.c — the table of kernel personalities (see pollkern.h). Each row is what one
 * BSD's sys/kern/kern_poll.c does; docs/design/polling.md#kernel-personalities gives the
 * revision and function every field comes from. */
#include "pollkern.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "strlist.h"

static const struct pollkern kernels[] = {
	{
		/* the seed's box ran 1.7-DEVELOPMENT of November 2006: revisions 1.22-1.25 */
		.name = "dragonfly-1.8",
		.source = "DragonFly 1.8, kern_poll.c 1.25",
		.has_pollhz = true, .load_vs_hz = true, .reg_frac_up = false,
		.has_idle_poll = false, .reset_on_disable = false,
		.enable = PK_ENABLE_FLAG, .lower = PK_LOWER_NONE, .range = PK_RANGE_ROUND,
		.burst_max_max = 1000, .hz_default = 100, .enable_default = 1,
	},
	{
		.name = "dragonfly-2.0",
		.source = "DragonFly 2.0, kern_poll.c 1.48",
		.has_pollhz = true, .load_vs_hz = false, .reg_frac_up = false,
		.has_idle_poll = false, .reset_on_disable = true,
		.enable = PK_ENABLE_FLAG, .lower = PK_LOWER_FOLLOW, .range = PK_RANGE_CLAMP,
		.burst_max_max = 1000, .hz_default = 100, .enable_default = 1,
	},
	{
		/* seed 002's box: Luigi Rizzo's kern_poll.c as RELENG_5 had it (before the
		 * 2005 rewrite): knobs are plain variables clamped when a round starts,
		 * kern.polling.enable a global flag */
		.name = "freebsd-5.3",
		.source = "FreeBSD 5.3, kern_poll.c of RELENG_5 (Luigi Rizzo's, before the 2005 rewrite)",
		.has_pollhz = false, .load_vs_hz = true, .reg_frac_up = false,
		.has_idle_poll = true, .reset_on_disable = false,
		.enable = PK_ENABLE_GLOBAL, .lower = PK_LOWER_ROUND, .range = PK_RANGE_ROUND,
		.burst_max_max = 1000, .hz_default = 1000, .enable_default = 1,
	},
	{
		.name = "freebsd-7",
		.source = "FreeBSD 7, kern_poll.c 1.25 (2005) and later on RELENG_7",
		.has_pollhz = false, .load_vs_hz = true, .reg_frac_up = true,
		.has_idle_poll = true, .reset_on_disable = false,
		.enable = PK_ENABLE_SWITCH, .lower = PK_LOWER_EACH10, .range = PK_RANGE_EINVAL,
		.burst_max_max = 1000, .hz_default = 1000, .enable_default = 0,
	},
	{
		.name = "freebsd-14",
		.source = "FreeBSD 14, kern_poll.c of main",
		.has_pollhz = false, .load_vs_hz = true, .reg_frac_up = true,
		.has_idle_poll = true, .reset_on_disable = false,
		.enable = PK_ENABLE_NONE, .lower = PK_LOWER_EACH10, .range = PK_RANGE_EINVAL,
		.burst_max_max = PK_BURST_MAX_TOP, .hz_default = 1000, .enable_default = 0,
	},
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

const struct pollkern *pollkern_find(const char *name)
{
	for (size_t i = 0; name && i < NKERNELS; i++)
		if (!strcmp(kernels[i].name, name))
			return &kernels[i];
	return NULL;
}

const struct pollkern *pollkern_at(int i)
{
	return i >= 0 && (size_t)i < NKERNELS ? &kernels[i] : NULL;
}

const char *pollkern_names(char *buf, size_t len)
{
	size_t o = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < NKERNELS && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", kernels[i].name);
	return buf;
}

bool pollkern_has(const struct pollkern *k, const char *knob)
{
	if (!strcmp(knob, "pollhz"))
		return k->has_pollhz;
	if (!strcmp(knob, "idle_poll"))
		return k->has_idle_poll;
	if (!strcmp(knob, "enable"))
		return k->enable != PK_ENABLE_NONE;
	return true;
}

static const char *const range_names[] = { "einval", "clamp", "round" };

const char *pollkern_range_name(enum pk_range r)
{
	return str_name(range_names, 3, r);
}

int pollkern_range_parse(const char *s, enum pk_range *r)
{
	int i = str_index(range_names, 3, s);
	if (i < 0)
		return i;
	*r = (enum pk_range)i;
	return 0;
}
