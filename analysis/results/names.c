/* SPDX-License-Identifier: BSD-2-Clause */
/* names.c — labels, units and direction of metric and axis names (see names.h). Used
 * by plot.c, compare.c and report.c. */
#include "names.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "axes.h"

static const struct {
	const char *name, *label;
} known[] = {
	{ "fwd_pps", "forwarded rate" },
	{ "fwd_pps_a", "forwarded rate, blast A" },
	{ "fwd_pps_b", "forwarded rate, blast B" },
	{ "offered_pps", "offered load" },
	{ "intended_pps", "intended load" },
	{ "load_pps", "offered load" },
	{ "rate_pps", "offered load" },
	{ "ndr_pps", "NDR throughput" },
	{ "pdr_pps", "PDR throughput" },
	{ "mrr_pps", "maximum receive rate" },
	{ "mfr_pps", "maximum forwarding rate" },
	{ "loss_pct", "frame loss" },
	{ "loss_ratio", "frame loss ratio" },
	{ "lat_p50_ns", "latency, median" },
	{ "lat_p90_ns", "latency, 90th percentile" },
	{ "lat_p99_ns", "latency, 99th percentile" },
	{ "lat_p999_ns", "latency, 99.9th percentile" },
	{ "lat_max_ns", "latency, maximum" },
	{ "cpu_s", "forwarder CPU time" },
	{ "b2b_frames", "back-to-back frames" },
	{ "b2b_implied_s", "implied DUT buffer time" },
	{ "b2b_corrected_s", "corrected DUT buffer time" },
	{ "outage_longest_s", "longest gap" },
	{ "outage_start_s", "longest gap's start after the action" },
	{ "outage_lost", "frames lost through the action" },
	{ "outage_loss_over_load_s", "loss / load (effective blocked time)" },
	{ "outage_gaps", "gaps listed" },
	{ "outage_reset_s", "reset time" },
	{ "outage_recovery_s", "recovery time" },
	{ "fw_rules", "firewall rules" },
	{ "frame_size", "frame size" },
	{ "dir", "direction" },
	{ "rut.burst", "kern.polling.burst" },
	{ "rut.lost_polls", "kern.polling.lost_polls" },
	{ "rut.short_ticks", "kern.polling.short_ticks" },
	{ "rut.suspect", "kern.polling.suspect" },
	{ "rut.stalled", "kern.polling.stalled" },
	{ "rut.pending_polls", "kern.polling.pending_polls" },
	/* the forwarder's own, beside FreeBSD's (docs/results-schema.md) */
	{ "rut.host_delays", "rounds the host delayed" },
	{ "rut.host_ns", "host time left out of rounds" },
	{ "rut.unsure_polls", "lost polls that may be the host's" },
	{ "rut.kernel_drops", "forwarder's kernel ring drops" },
};

/* A search goal's metric (NAME_pps, the goal's name in lower case: run_case.c): a name
 * of letters, digits and '_' that no other metric has. Written "NAME throughput" as
 * NDR and PDR are. */
static int goal_metric(const char *name, char *goal, size_t len)
{
	size_t n = strlen(name);
	if (n < 5 || n - 4 >= len || !name_ends_with(name, "_pps") || !isalpha((unsigned char)name[0]))
		return 0;
	for (size_t i = 0; i < n - 4; i++) {
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return 0;
		goal[i] = (char)toupper((unsigned char)name[i]);
	}
	goal[n - 4] = 0;
	return 1;
}

static const struct {
	const char *suffix, *unit;
} units[] = {
	{ "_pps", "packets/s" }, { "_bps", "bit/s" }, { "_ns", "ns" }, { "_us", "µs" },
	{ "_ms", "ms" }, { "_s", "s" }, { "_pct", "%" }, { "_bytes", "bytes" },
	{ "pollhz", "Hz" }, { "hz", "Hz" }, { "frame_size", "bytes" }, { "burst_max", "frames" },
	{ "each_burst", "frames" }, { "_ratio", "" },
};

int name_ends_with(const char *s, const char *suf)
{
	size_t ls = strlen(s), lf = strlen(suf);
	return ls >= lf && !strcmp(s + ls - lf, suf);
}

int name_lower_in(const char *name, const char *const *lower, size_t nlower)
{
	for (size_t i = 0; i < nlower; i++)
		if (!strcmp(lower[i], name))
			return 1;
	return name_lower_is_better(name);
}

const char *name_unit(const char *name)
{
	char base[128];
	snprintf(base, sizeof(base), "%s", name);
	/* per-stream values of bidirectional runs: fwd_pps_a is in fwd_pps' unit */
	if (name_ends_with(base, "_a") || name_ends_with(base, "_b"))
		base[strlen(base) - 2] = 0;
	const struct axis_def *a = axis_find(base);   /* an axis: the registry's */
	if (a)
		return a->unit;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (name_ends_with(base, units[i].suffix))
			return units[i].unit;
	return "";
}

char *name_label(const char *name, char *buf, size_t len)
{
	const struct axis_def *a = axis_find(name);   /* an axis: the registry's */
	const char *label = a ? a->label : name;
	bool found = a != NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name)) {
			label = known[i].label;
			found = true;
		}
	char goal[64], gl[80];
	if (!found && goal_metric(name, goal, sizeof(goal))) {
		snprintf(gl, sizeof(gl), "%s throughput", goal);
		label = gl;
	}
	int pct, size = 0, n = 0;
	char fig[8];
	if ((sscanf(name, "latload.%d.s%d.%7[a-z0-9]_ns%n", &pct, &size, fig, &n) == 3 ||
	     (size = 0, sscanf(name, "latload.%d.%7[a-z0-9]_ns%n", &pct, fig, &n) == 2)) &&
	    (size_t)n == strlen(name)) {   /* latency at load (run_latency.c) */
		char sz[24] = "";
		if (size)
			snprintf(sz, sizeof(sz), ", %d B", size);
		snprintf(buf, len, "latency at %d %% of the NDR%s, %s (ns)", pct, sz,
			 !strcmp(fig, "p50") ? "typical" : !strcmp(fig, "p999") ? "worst-case"
			 : !strcmp(fig, "pdv") ? "PDV" : fig);
		return buf;
	}
	if (!strncmp(name, "rut.rule_hits.", 14)) {
		snprintf(buf, len, "hits of rule %s (packets)", name + 14);
		return buf;
	}
	const char *u = name_unit(name);
	if (*u)
		snprintf(buf, len, "%s (%s)", label, u);
	else
		snprintf(buf, len, "%s", label);
	return buf;
}

/* Short words for titles: what a person calls the axis or metric. */
static const struct {
	const char *name, *words;
} short_words[] = {
	{ "fwd_pps", "forwarded rate" }, { "fw_rules", "firewall rules" },
	{ "frame_size", "frame size" }, { "dir", "direction" }, { "load_pps", "offered load" },
	{ "rate", "offered load" }, { "os", "operating system" }, { "cpu_s", "forwarder CPU time" },
};

char *name_words(const char *name, char *buf, size_t len)
{
	const struct axis_def *a = axis_find(name);   /* an axis: the registry's */
	if (a && a->words) {
		snprintf(buf, len, "%s", a->words);
		return buf;
	}
	for (size_t i = 0; i < sizeof(short_words) / sizeof(short_words[0]); i++)
		if (!strcmp(short_words[i].name, name)) {
			snprintf(buf, len, "%s", short_words[i].words);
			return buf;
		}
	char l[256];
	name_label(name, l, sizeof(l));
	char *paren = strstr(l, " (");
	if (paren && paren != l)
		*paren = 0;
	snprintf(buf, len, "%s", l);
	return buf;
}

int name_lower_is_better(const char *name)
{
	const char *base = strncmp(name, "rut.", 4) ? name : name + 4;
	return !strncmp(base, "lat_", 4) || name_ends_with(base, "_ns") || strstr(base, "loss") ||
	       !strncmp(base, "cpu", 3) || strstr(base, "drop") || strstr(base, "err") ||
	       strstr(base, "lost") || strstr(base, "jitter") || strstr(base, "ipdv") ||
	       strstr(base, "reorder") || strstr(base, "dup") || !strncmp(base, "outage_", 7);
}

int name_is_rate(const char *name)
{
	return name_ends_with(name, "_pps") || strstr(name, "_pps_") != NULL;
}

int name_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

const char *name_base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}
