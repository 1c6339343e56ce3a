/* SPDX-License-Identifier: BSD-2-Clause */
/* clockoff.c — the clocks of the sender and sink boxes against the control host's, once
 * per run (see clockoff.h). Called by run_env.c; nothing of ppslab is needed on the boxes:
 * one shell command over ssh reports the time daemon's status, then answers each line
 * it reads with its clock. */
#include "clockoff.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "proc.h"

#define SAMPLES 8
#define PROBE_TIMEOUT_NS (30 * NS_PER_S)

/* The remote side: the time daemon's view, a marker, then one `date` per line read. */
static const char probe_script[] =
	"chronyc tracking 2>/dev/null | sed 's/^/chronyc: /'\n"
	"if pgrep -x ntpd >/dev/null 2>&1; then ntpq -c rv 2>/dev/null | sed 's/^/ntpq: /'; fi\n"
	"echo @@rt\n"
	"while read -r x; do date +%s.%N; done\n";

/* "System time     : 0.000000072 seconds fast of NTP time" etc. */
int clockoff_parse_chronyc(const char *text, double *offset_ns, double *bound_ns, int *synced)
{
	double sys = NAN, delay = NAN, disp = NAN;
	int leap_ok = -1;
	char line[512];
	for (const char *p = text; p && *p;) {
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		p = p[n] ? p + n + 1 : NULL;
		const char *l = line;
		if (!strncmp(l, "chronyc: ", 9))
			l += 9;
		const char *colon = strchr(l, ':');
		if (!colon)
			continue;
		double v;
		char dir[16] = "";
		if (!strncmp(l, "System time", 11) &&
		    sscanf(colon + 1, "%lf seconds %15s", &v, dir) >= 1)
			sys = !strcmp(dir, "slow") ? -v : v;
		else if (!strncmp(l, "Root delay", 10) && sscanf(colon + 1, "%lf", &v) == 1)
			delay = v;
		else if (!strncmp(l, "Root dispersion", 15) && sscanf(colon + 1, "%lf", &v) == 1)
			disp = v;
		else if (!strncmp(l, "Leap status", 11))
			leap_ok = strstr(colon, "Not synchronised") ? 0 : 1;
	}
	if (isnan(sys) || isnan(delay) || isnan(disp))
		return -EINVAL;
	*offset_ns = sys * 1e9;
	*bound_ns = (fabs(sys) + delay / 2 + disp) * 1e9;
	*synced = leap_ok != 0;
	return 0;
}

/* ntpq's "offset=-0.123, rootdelay=1.234, rootdisp=5.678, leap=00" (milliseconds). */
static bool ntp_var(const char *text, const char *name, double *v)
{
	size_t nl = strlen(name);
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		bool start = p == text || p[-1] == ' ' || p[-1] == ',' || p[-1] == '\n';
		if (start && p[nl] == '=' && sscanf(p + nl + 1, "%lf", v) == 1)
			return true;
	}
	return false;
}

int clockoff_parse_ntpq(const char *text, double *offset_ns, double *bound_ns, int *synced)
{
	double off, delay, disp, leap = 0;
	if (!ntp_var(text, "offset", &off) || !ntp_var(text, "rootdelay", &delay) ||
	    !ntp_var(text, "rootdisp", &disp))
		return -EINVAL;
	ntp_var(text, "leap", &leap);   /* 00, 01, 10; 11 = not synchronised */
	*offset_ns = off * 1e6;
	*bound_ns = (fabs(off) + delay / 2 + disp) * 1e6;
	*synced = leap != 11;
	return 0;
}

/* "1700000000.123456789" → ns; *coarse when there are no fraction digits (a date
 * without %N prints "N" or nothing). -EINVAL when not a time at all. */
static int parse_time(const char *s, double *ns, bool *coarse)
{
	char *end;
	long long sec = strtoll(s, &end, 10);
	if (end == s || sec <= 0)
		return -EINVAL;
	*coarse = true;
	double frac = 0;
	if (*end == '.' && end[1] >= '0' && end[1] <= '9') {
		char *e2;
		double f = strtod(end, &e2);
		if (e2 > end + 1) {
			frac = f;
			*coarse = false;
		}
	}
	*ns = (double)sec * 1e9 + frac * 1e9;
	return 0;
}


static void probe(const struct box *b, json_t *rec)
{
	struct box_cmd c;
	int rc = box_sys_init(&c, b, "sh");
	rc = rc ? rc : box_arg(&c, "-c");
	rc = rc ? rc : box_arg(&c, probe_script);
	rc = rc ? rc : box_cmd_done(&c, b);
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	pid_t pid = rc ? -1 : proc_spawn_pipes(c.argv, &in[1], &out[0]);
	if (pid < 0) {
		json_object_set_new(rec, "error", json_string("cannot start the clock probe"));
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	uint64_t deadline = mono_ns() + PROBE_TIMEOUT_NS;
	char line[512], status[4096] = "";
	size_t sl = 0;
	bool marker = false;
	while (!proc_read_line(out[0], line, sizeof(line), deadline)) {
		if (!strcmp(line, "@@rt")) {
			marker = true;
			break;
		}
		if (sl + strlen(line) + 2 < sizeof(status))
			sl += (size_t)snprintf(status + sl, sizeof(status) - sl, "%s\n", line);
	}
	double off, bnd;
	int synced;
	if (!clockoff_parse_chronyc(status, &off, &bnd, &synced))
		json_object_set_new(rec, "sync", json_pack("{s:s,s:f,s:f,s:b}", "source", "chronyc",
							   "offset_ns", off, "bound_ns", bnd,
							   "synchronised", synced));
	else if (!clockoff_parse_ntpq(status, &off, &bnd, &synced))
		json_object_set_new(rec, "sync", json_pack("{s:s,s:f,s:f,s:b}", "source", "ntpq",
							   "offset_ns", off, "bound_ns", bnd,
							   "synchronised", synced));
	else
		json_object_set_new(rec, "sync", json_null());
	/* Cristian: the sample with the shortest round trip bounds the offset best */
	double best_rtt = INFINITY, best_off = NAN;
	int nsamples = 0;
	bool coarse = false;
	for (int i = 0; marker && i < SAMPLES; i++) {
		double t0 = (double)real_ns();
		if (write(in[1], "x\n", 2) != 2)
			break;
		if (proc_read_line(out[0], line, sizeof(line), deadline))
			break;
		double t1 = (double)real_ns(), remote;
		bool cs;
		if (parse_time(line, &remote, &cs))
			break;
		nsamples++;
		coarse |= cs;
		if (t1 - t0 < best_rtt) {
			best_rtt = t1 - t0;
			best_off = remote - (t0 + t1) / 2;
		}
	}
	if (nsamples)
		json_object_set_new(rec, "rtt", json_pack("{s:f,s:f,s:f,s:i}", "offset_ns", best_off,
							  "bound_ns", best_rtt / 2 + (coarse ? 1e9 : 0),
							  "rtt_ns", best_rtt, "samples", nsamples));
	else
		json_object_set_new(rec, "rtt", json_null());
	if (!marker)
		json_object_set_new(rec, "error", json_string("the box did not answer the clock probe"));
	close(in[1]);
	in[1] = -1;
	proc_wait(pid, 10 * NS_PER_S);
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	box_cmd_free(&c);
}

json_t *clockoff_box(const struct box *b)
{
	json_t *rec = json_object();
	if (!rec)
		return NULL;
	if (!b->ssh) {   /* a namespace of this host: the control host's own clock */
		json_object_set_new(rec, "same_clock_as_control", json_true());
		return rec;
	}
	json_object_set_new(rec, "ssh", json_string(b->ssh));
	probe(b, rec);
	return rec;
}

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double clockoff_pair(const json_t *g, const json_t *s, const json_t *env_g, const json_t *env_s,
		     const char **method)
{
	const char *bg = json_string_value(json_object_get(env_g, "boot_id"));
	const char *bs = json_string_value(json_object_get(env_s, "boot_id"));
	bool lg = json_is_true(json_object_get(g, "same_clock_as_control"));
	bool ls = json_is_true(json_object_get(s, "same_clock_as_control"));
	if (lg && ls) {
		*method = "one clock: both boxes are on the control host";
		return 0;
	}
	if (bg && bs && !strcmp(bg, bs)) {
		*method = "one clock: both boxes report the same boot_id";
		return 0;
	}
	double best = NAN;
	*method = "unknown: no time daemon status and no round trip";
	/* round trips against the control host (a local box is exactly 0 ± 0) */
	const json_t *rg = json_object_get(g, "rtt"), *rs = json_object_get(s, "rtt");
	double og = lg ? 0 : num(rg, "offset_ns"), os = ls ? 0 : num(rs, "offset_ns");
	double ug = lg ? 0 : num(rg, "bound_ns"), us = ls ? 0 : num(rs, "bound_ns");
	if (isfinite(og) && isfinite(os) && isfinite(ug) && isfinite(us)) {
		best = fabs(os - og) + ug + us;
		*method = "round trips over ssh from the control host";
	}
	/* both disciplined: each within its bound of UTC */
	const json_t *sg = json_object_get(g, "sync"), *ss = json_object_get(s, "sync");
	if (json_is_true(json_object_get(sg, "synchronised")) &&
	    json_is_true(json_object_get(ss, "synchronised"))) {
		double b = num(sg, "bound_ns") + num(ss, "bound_ns");
		if (isfinite(b) && (isnan(best) || b < best)) {
			best = b;
			*method = "both boxes' time daemons (offset + root delay / 2 + root dispersion)";
		}
	}
	return best;
}
