/* SPDX-License-Identifier: BSD-2-Clause */
/* axes.c — the built-in axes of a profile (see axes.h). */
#include "axes.h"

#include <stdio.h>
#include <string.h>

#include "pkt.h"
#include "pollkern.h"

static const char *const mode_names[] = { "poll", "intr", "busy", NULL };
/* lib/pollkern.c's names, in its order (t_axes checks they agree) */
const char *const axis_kernel_names[] = { "dragonfly-1.8", "dragonfly-2.0", "freebsd-5.3",
					  "freebsd-7", "freebsd-14", NULL };
static const char *const dir_names[] = { "uni", "bi", NULL };
const char *const axis_rules_kinds[] = { "nomatch", "count", NULL };
static const char *const counters_names[] = { "percpu", "shared", NULL };

#define RULES_MAX 100000
#define FLOWS_MAX 65535

const struct axis_def axis_defs[AX_COUNT] = {
	[AX_POLLHZ] = { "pollhz", AK_INT, 1, PK_HZ_MAX, NULL, "2000", "Hz",
			"polling clock kern.polling.pollhz", AA_SYSCTL, "kern.polling.pollhz", 1 },
	[AX_HZ] = { "hz", AK_INT, 1, PK_HZ_MAX, NULL, "null", "Hz", "kern.hz", AA_RESTART },
	[AX_BURST_MAX] = { "burst_max", AK_INT, 10, PK_BURST_MAX_TOP, NULL, "150", "frames",
			   "kern.polling.burst_max", AA_SYSCTL, "kern.polling.burst_max", 2 },
	[AX_EACH_BURST] = { "each_burst", AK_INT, 1, PK_BURST_MAX_TOP, NULL, "5", "frames",
			    "kern.polling.each_burst", AA_SYSCTL, "kern.polling.each_burst", 3 },
	[AX_USER_FRAC] = { "user_frac", AK_INT, 0, 99, NULL, "50", "", "kern.polling.user_frac",
			   AA_SYSCTL, "kern.polling.user_frac", 4 },
	[AX_REG_FRAC] = { "reg_frac", AK_INT, 1, 10000, NULL, "20", "", "reg_frac", AA_SYSCTL,
			  "kern.polling.reg_frac", 5 },
	[AX_IDLE_POLL] = { "idle_poll", AK_BOOL01, 0, 1, NULL, "0", "", "idle_poll", AA_SYSCTL,
			   "kern.polling.idle_poll", 6 },
	[AX_MODE] = { "mode", AK_ENUM, 0, 0, mode_names, "\"poll\"", "", "mode", AA_RESTART },
	[AX_KERNEL] = { "kernel", AK_ENUM, 0, 0, axis_kernel_names, "\"" PK_DEFAULT "\"", "",
			"kernel whose polling ppslab-rut runs", AA_RESTART },
	[AX_RULES] = { "rules", AK_RULES, 0, RULES_MAX, NULL, "0", "", "firewall rules",
		       AA_RULES },
	[AX_RULES_KIND] = { "rules_kind", AK_ENUM, 0, 0, axis_rules_kinds, "\"nomatch\"", "",
			    "rules_kind", AA_RULES },
	[AX_UPDATE_COUNTERS] = { "update_counters", AK_BOOL01, 0, 1, NULL, "1", "",
				 "net.inet.ip.fw.update_counters", AA_SYSCTL,
				 "net.inet.ip.fw.update_counters", 7 },
	[AX_COUNTERS] = { "counters", AK_ENUM, 0, 0, counters_names, "\"percpu\"", "",
			  "net.inet.ip.fw.counters", AA_SYSCTL, "net.inet.ip.fw.counters", 8,
			  true },
	[AX_FIREWALL] = { "firewall", AK_ONOFF, 0, 0, NULL, "\"auto\"", "", "firewall",
			  AA_SYSCTL, "net.inet.ip.fw.enable", 9 },
	[AX_OFFERED] = { "offered", AK_RATE, 0, 0, NULL, "\"max\"", "", "offered", AA_TRAFFIC },
	[AX_SIZE] = { "size", AK_INT, PKT_WIRE_MIN, PKT_WIRE_MAX, NULL, "64", "", "size",
		      AA_TRAFFIC },
	[AX_FLOWS] = { "flows", AK_INT, 1, FLOWS_MAX, NULL, "1", "", "flows", AA_TRAFFIC },
	[AX_DIRECTION] = { "direction", AK_ENUM, 0, 0, dir_names, "\"uni\"", "", "direction",
			   AA_TRAFFIC },
};

const struct axis_def *axis_find(const char *name)
{
	for (size_t i = 0; name && i < AX_COUNT; i++)
		if (!strcmp(axis_defs[i].name, name))
			return &axis_defs[i];
	return NULL;
}

const char **axis_name_list(const char **names)
{
	for (size_t i = 0; i < AX_COUNT; i++)
		names[i] = axis_defs[i].name;
	names[AX_COUNT] = NULL;
	return names;
}

char *axis_names_join(char *buf, size_t len, const char *sep)
{
	size_t o = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < AX_COUNT && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? sep : "", axis_defs[i].name);
	return buf;
}

size_t axis_sysctl_order(enum axis_id *ids, size_t max)
{
	size_t n = 0;
	for (int ord = 1; ord <= (int)AX_COUNT; ord++)
		for (size_t i = 0; i < AX_COUNT; i++)
			if (axis_defs[i].act == AA_SYSCTL && axis_defs[i].order == ord && n < max)
				ids[n++] = (enum axis_id)i;
	return n;
}
