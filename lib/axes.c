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

/* label: what tables and plots call the axis (its unit added in parentheses); words:
 * what a title calls it */
#define INT(lo, hi) .kind = AK_INT, .min = (lo), .max = (hi)
#define ENUM(n) .kind = AK_ENUM, .names = (n)
#define SYSCTL(o, n) .act = AA_SYSCTL, .oid = (o), .order = (n)
const struct axis_def axis_defs[AX_COUNT] = {
	[AX_POLLHZ] = { "pollhz", INT(1, PK_HZ_MAX), .def = "2000", .unit = "Hz",
			.label = "polling clock kern.polling.pollhz", .words = "polling clock",
			SYSCTL("kern.polling.pollhz", 1), .poll_bound = true },
	[AX_HZ] = { "hz", INT(1, PK_HZ_MAX), .def = "null", .unit = "Hz", .label = "kern.hz",
		    .words = "kernel clock", .act = AA_RESTART, .poll_bound = true },
	[AX_BURST_MAX] = { "burst_max", INT(10, PK_BURST_MAX_TOP), .def = "150", .unit = "frames",
			   .label = "kern.polling.burst_max", .words = "burst_max",
			   SYSCTL("kern.polling.burst_max", 2), .poll_bound = true },
	[AX_EACH_BURST] = { "each_burst", INT(1, PK_BURST_MAX_TOP), .def = "5", .unit = "frames",
			    .label = "kern.polling.each_burst", .words = "each_burst",
			    SYSCTL("kern.polling.each_burst", 3) },
	[AX_USER_FRAC] = { "user_frac", INT(0, 99), .def = "50", .unit = "",
			   .label = "kern.polling.user_frac", .words = "user_frac",
			   SYSCTL("kern.polling.user_frac", 4) },
	[AX_REG_FRAC] = { "reg_frac", INT(1, 10000), .def = "20", .unit = "", .label = "reg_frac",
			  SYSCTL("kern.polling.reg_frac", 5) },
	[AX_IDLE_POLL] = { "idle_poll", .kind = AK_BOOL01, .max = 1, .def = "0", .unit = "",
			   .label = "idle_poll", SYSCTL("kern.polling.idle_poll", 6) },
	[AX_MODE] = { "mode", ENUM(mode_names), .def = "\"poll\"", .unit = "", .label = "mode",
		      .act = AA_RESTART },
	[AX_KERNEL] = { "kernel", ENUM(axis_kernel_names), .def = "\"" PK_DEFAULT "\"",
			.unit = "", .label = "kernel whose polling ppslab-rut runs",
			.act = AA_RESTART },
	[AX_RULES] = { "rules", .kind = AK_RULES, .max = RULES_MAX, .def = "0", .unit = "",
		       .label = "firewall rules", .words = "firewall rules", .act = AA_RULES },
	[AX_RULES_KIND] = { "rules_kind", ENUM(axis_rules_kinds), .def = "\"nomatch\"",
			    .unit = "", .label = "rules_kind", .act = AA_RULES },
	[AX_UPDATE_COUNTERS] = { "update_counters", .kind = AK_BOOL01, .max = 1, .def = "1",
				 .unit = "", .label = "net.inet.ip.fw.update_counters",
				 SYSCTL("net.inet.ip.fw.update_counters", 7) },
	[AX_COUNTERS] = { "counters", ENUM(counters_names), .def = "\"percpu\"", .unit = "",
			  .label = "net.inet.ip.fw.counters",
			  SYSCTL("net.inet.ip.fw.counters", 8), .rut_only = true },
	[AX_FIREWALL] = { "firewall", .kind = AK_ONOFF, .def = "\"auto\"", .unit = "",
			  .label = "firewall", SYSCTL("net.inet.ip.fw.enable", 9) },
	[AX_OFFERED] = { "offered", .kind = AK_RATE, .def = "\"max\"", .unit = "",
			 .label = "offered", .act = AA_TRAFFIC },
	[AX_SIZE] = { "size", .kind = AK_SIZE, .min = PKT_WIRE_MIN, .max = PKT_WIRE_MAX,
		      .def = "64", .unit = "",
		      .label = "size", .words = "frame size", .act = AA_TRAFFIC },
	[AX_FLOWS] = { "flows", INT(1, FLOWS_MAX), .def = "1", .unit = "", .label = "flows",
		       .act = AA_TRAFFIC },
	[AX_DIRECTION] = { "direction", ENUM(dir_names), .def = "\"uni\"", .unit = "",
			   .label = "direction", .words = "direction", .act = AA_TRAFFIC },
	/* 6: ppslab-gen -6 to the topology's IPv6 destinations; sizes from PKT6_WIRE_MIN */
	[AX_IP_VERSION] = { "ip_version", .kind = AK_IPVER, .min = 4, .max = 6, .def = "4",
			    .unit = "", .label = "IP version", .words = "IP version",
			    .act = AA_TRAFFIC },
	/* a tag: ppslab-gen and ppslab-sink --vlan, ppslab-rut's ports trunks of it (a
	 * restart); an external router only by its hook; sizes from 68 (72 QinQ) */
	[AX_VLAN] = { "vlan", .kind = AK_VLAN, .min = 1, .max = 4094, .def = "\"none\"",
		      .unit = "", .label = "VLAN", .words = "VLAN", .act = AA_RESTART },
};
#undef INT
#undef ENUM
#undef SYSCTL

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
