/* SPDX-License-Identifier: BSD-2-Clause */
/* t_axes.c — the axis registry: names unique and found, ranges from lib's bounds,
 * defaults within their type, the kernel names of lib/pollkern.c in its order, the
 * sysctls' apply order (burst_max before each_burst), and docs/profiles.md's table of
 * axes listing exactly the registry's, in its order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axes.h"
#include "pkt.h"
#include "pollkern.h"
#include "tap.h"

static void t_names(void)
{
	const char *names[AX_COUNT + 1];
	axis_name_list(names);
	T_TRUE(names[AX_COUNT] == NULL);
	for (size_t i = 0; i < AX_COUNT; i++) {
		T_TRUE(axis_find(names[i]) == &axis_defs[i]);   /* unique, indexed by id */
		T_TRUE(axis_defs[i].label && *axis_defs[i].label && axis_defs[i].unit);
		T_TRUE(!axis_defs[i].words || *axis_defs[i].words);
	}
	T_TRUE(axis_find("khz") == NULL && axis_find(NULL) == NULL);
	T_STREQ(axis_defs[AX_POLLHZ].name, "pollhz");
	T_STREQ(axis_defs[AX_DIRECTION].name, "direction");
	char buf[512];
	T_TRUE(!strncmp(axis_names_join(buf, sizeof(buf), ", "), "pollhz, hz, burst_max, ", 23));
	T_TRUE(strstr(buf, ", flows, direction, ip_version, vlan") && buf[strlen(buf) - 1] == 'n');
	char tiny[8];
	T_EQ_INT(strlen(axis_names_join(tiny, sizeof(tiny), ", ")), 7);
}

static void t_ranges(void)
{
	T_EQ_INT(axis_defs[AX_POLLHZ].max, PK_HZ_MAX);
	T_EQ_INT(axis_defs[AX_HZ].max, PK_HZ_MAX);
	T_EQ_INT(axis_defs[AX_BURST_MAX].max, PK_BURST_MAX_TOP);
	T_EQ_INT(axis_defs[AX_EACH_BURST].max, PK_BURST_MAX_TOP);
	T_EQ_INT(axis_defs[AX_SIZE].min, PKT_WIRE_MIN);
	T_EQ_INT(axis_defs[AX_SIZE].max, PKT_WIRE_MAX);
	/* ip_version takes its two values as min and max */
	T_EQ_INT(axis_defs[AX_IP_VERSION].kind, AK_IPVER);
	T_EQ_INT(axis_defs[AX_IP_VERSION].min, 4);
	T_EQ_INT(axis_defs[AX_IP_VERSION].max, 6);
	T_EQ_INT(axis_defs[AX_IP_VERSION].act, AA_TRAFFIC);
	/* vlan: a VID 1..4094 (or two), untagged by default, a restart of ppslab-rut */
	T_EQ_INT(axis_defs[AX_VLAN].kind, AK_VLAN);
	T_EQ_INT(axis_defs[AX_VLAN].min, 1);
	T_EQ_INT(axis_defs[AX_VLAN].max, 4094);
	T_STREQ(axis_defs[AX_VLAN].def, "\"none\"");
	T_EQ_INT(axis_defs[AX_VLAN].act, AA_RESTART);
	for (size_t i = 0; i < AX_COUNT; i++) {
		const struct axis_def *a = &axis_defs[i];
		T_TRUE(a->min <= a->max);
		if (a->kind == AK_INT && strcmp(a->def, "null")) {
			long long d = atoll(a->def);
			T_TRUE(d >= a->min && d <= a->max);
		}
		if (a->kind == AK_ENUM) {   /* the default is one of its names, quoted */
			T_TRUE(a->names != NULL);
			bool found = false;
			for (size_t j = 0; a->names && a->names[j]; j++) {
				char q[64];
				snprintf(q, sizeof(q), "\"%s\"", a->names[j]);
				found |= !strcmp(q, a->def);
			}
			T_TRUE(found);
		}
	}
	/* the kernel axis takes ppslab-rut's --kernel names, in lib/pollkern.c's order */
	size_t n;
	for (n = 0; axis_kernel_names[n]; n++)
		T_STREQ(axis_kernel_names[n], pollkern_at((int)n)->name);
	T_TRUE(pollkern_at((int)n) == NULL);
	T_STREQ(axis_defs[AX_KERNEL].def, "\"" PK_DEFAULT "\"");
}

static void t_acts(void)
{
	enum axis_id ids[AX_COUNT];
	size_t n = axis_sysctl_order(ids, AX_COUNT), nsys = 0;
	for (size_t i = 0; i < AX_COUNT; i++) {
		const struct axis_def *a = &axis_defs[i];
		nsys += a->act == AA_SYSCTL;
		/* a sysctl axis has its oid; nothing else has one */
		T_TRUE((a->act == AA_SYSCTL) == (a->oid != NULL));
	}
	T_EQ_INT(n, nsys);   /* every sysctl axis once: distinct orders */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			T_TRUE(ids[i] != ids[j] && axis_defs[ids[i]].order < axis_defs[ids[j]].order);
	size_t bm = n, eb = n;
	for (size_t i = 0; i < n; i++) {
		bm = ids[i] == AX_BURST_MAX ? i : bm;
		eb = ids[i] == AX_EACH_BURST ? i : eb;
	}
	T_TRUE(bm < eb && eb < n);   /* each_burst must stay within burst_max */
	T_STREQ(axis_defs[AX_FIREWALL].oid, "net.inet.ip.fw.enable");
	T_EQ_INT(axis_defs[AX_MODE].act, AA_RESTART);
	T_EQ_INT(axis_defs[AX_RULES_KIND].act, AA_RULES);
	T_EQ_INT(axis_defs[AX_OFFERED].act, AA_TRAFFIC);
	T_EQ_INT(axis_sysctl_order(ids, 2), 2);
	/* the polled rate's bound (model.h) moves with these three axes only */
	for (size_t i = 0; i < AX_COUNT; i++)
		T_EQ_INT(axis_defs[i].poll_bound, i == AX_POLLHZ || i == AX_HZ || i == AX_BURST_MAX);
}

/* docs/profiles.md's "### Axes" table: its first column, in order */
static void t_docs(void)
{
	const char *top = getenv("PPSLAB_TOP");
	char path[1024], line[2048];
	snprintf(path, sizeof(path), "%s/docs/profiles.md", top ? top : ".");
	FILE *f = fopen(path, "r");
	T_TRUE(f != NULL);
	if (!f)
		return;
	size_t n = 0;
	bool in = false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "### ", 4)) {
			in = !strcmp(line, "### Axes\n");
			continue;
		}
		if (!in || strncmp(line, "| ", 2) || !strncmp(line, "| axis |", 8))
			continue;
		char name[64];
		if (sscanf(line, "| %63[^ |] |", name) != 1)
			continue;
		if (n < AX_COUNT)
			T_STREQ(name, axis_defs[n].name);
		else
			T_FAIL("docs/profiles.md lists %s, no axis of lib/axes.c", name);
		n++;
	}
	fclose(f);
	T_EQ_INT(n, AX_COUNT);
}

int main(void)
{
	T_RUN(t_names);
	T_RUN(t_ranges);
	T_RUN(t_acts);
	T_RUN(t_docs);
	return t_done();
}
