/* SPDX-License-Identifier: BSD-2-Clause */
/* rutenv.c — an external router's environment without ppslab on it (see rutenv.h):
 * one shell command, its sections parsed. Called by run_env.c for router.kind "external". */
#include "rutenv.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "num.h"
#include "proc.h"

#define OUT_MAX (1u << 20)
#define RAW_MAX 16384

/* Every part may fail (2>/dev/null): the section stays empty and its fields null. The
 * extra sysctl names come as arguments, never inside the script. */
static const char script[] =
	"s() { echo \"@@$1\"; }\n"
	"s uname; uname -a 2>/dev/null\n"
	"s hostname; hostname 2>/dev/null || uname -n 2>/dev/null\n"
	"s freebsd-version; freebsd-version -ku 2>/dev/null\n"
	"s os-release; cat /etc/os-release 2>/dev/null || cat /usr/lib/os-release 2>/dev/null\n"
	"s hw; sysctl -n hw.model hw.ncpu 2>/dev/null\n"
	"s cpuinfo; grep -E '^(model name|processor)' /proc/cpuinfo 2>/dev/null\n"
	"s boot; sysctl -n kern.boottime 2>/dev/null || cat /proc/sys/kernel/random/boot_id 2>/dev/null\n"
	"if command -v ip >/dev/null 2>&1; then\n"
	"  s ip-link; ip -d -j link show 2>/dev/null\n"
	"  s drivers; for d in /sys/class/net/*; do [ -e \"$d\" ] || continue;"
	" l=$(readlink \"$d/device/driver\" 2>/dev/null); echo \"${d##*/} ${l##*/}\"; done\n"
	"else\n"
	"  s ifconfig; ifconfig -m -a 2>/dev/null || ifconfig -a 2>/dev/null\n"
	"  s pciconf; pciconf -lv 2>/dev/null\n"
	"fi\n"
	"s sysctl\n"
	"if [ -d /proc/sys/net ]; then\n"
	"  for n in net.ipv4.ip_forward net.ipv6.conf.all.forwarding net.core.netdev_budget"
	" net.core.netdev_budget_usecs"
	" net.core.dev_weight net.core.busy_poll net.core.busy_read \"$@\"; do\n"
	"    f=/proc/sys/$(echo \"$n\" | tr . /)\n"
	"    if [ -r \"$f\" ]; then echo \"$n = $(cat \"$f\")\"; else sysctl \"$n\" 2>/dev/null; fi\n"
	"  done\n"
	"  c=$(grep '^CONFIG_HZ=' \"/boot/config-$(uname -r)\" 2>/dev/null) && echo \"CONFIG_HZ = ${c#CONFIG_HZ=}\"\n"
	"else\n"
	"  for n in kern.hz kern.polling net.inet.ip.fw net.isr net.inet.ip.forwarding"
	" net.inet.ip.fastforwarding net.inet6.ip6.forwarding \"$@\"; do sysctl \"$n\" 2>/dev/null;"
	" done\n"
	"fi\n"
	"s end\n";

struct sections {
	char *name[16];
	char *text[16];
	int n;
};

/* Splits out at "@@NAME" lines, in place. */
static void split(char *out, struct sections *s)
{
	static char empty[] = "";
	s->n = 0;
	for (char *p = out; p && *p;) {
		char *nl = strchr(p, '\n');
		if (!strncmp(p, "@@", 2) && s->n < 16) {
			if (s->n && s->text[s->n - 1] == p)
				s->text[s->n - 1] = empty;   /* the previous section printed nothing */
			if (p > out)
				p[-1] = 0;   /* ends the previous section's text */
			if (nl)
				*nl = 0;
			s->name[s->n] = p + 2;
			s->text[s->n++] = nl ? nl + 1 : empty;
		}
		p = nl ? nl + 1 : NULL;
	}
}

static const char *sec(const struct sections *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name)) {
			const char *t = s->text[i];
			while (*t == '\n')
				t++;
			return *t ? t : NULL;
		}
	return NULL;
}

/* The first line of t, trimmed, into buf. */
static char *first_line(const char *t, char *buf, size_t len)
{
	size_t n = t ? strcspn(t, "\n") : 0;
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\r' || t[n - 1] == '\t'))
		n--;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), t ? t : "");
	return buf;
}

static void set_str(json_t *o, const char *k, const char *v)
{
	json_object_set_new(o, k, v && *v ? json_string(v) : json_null());
}

/* A value as the sysctl printed it: an integer when it is one, else the text. */
static json_t *value_of(const char *v)
{
	uint64_t u;
	while (*v == ' ')
		v++;
	if (*v == '-' && !num_u64(v + 1, 0, (uint64_t)INT64_MAX, &u))
		return json_integer(-(json_int_t)u);
	if (!num_u64(v, 0, (uint64_t)INT64_MAX, &u))
		return json_integer((json_int_t)u);
	json_t *j = json_string(v);   /* NULL when not UTF-8 */
	return j ? j : json_string("?");
}

/* os-release's NAME / VERSION / PRETTY_NAME: unquoted or in double or single quotes. */
static void os_release(const char *t, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	buf[0] = 0;
	for (const char *p = t; p && *p;) {
		size_t n = strcspn(p, "\n");
		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1;
			size_t vl = n - kl - 1;
			if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
				v++;
				vl -= 2;
			}
			snprintf(buf, len, "%.*s", (int)(vl < len ? vl : len - 1), v);
			return;
		}
		p = p[n] ? p + n + 1 : NULL;
	}
}

static void os_part(json_t *box, const struct sections *s)
{
	json_t *os = json_object();
	char un[512], name[256] = "", ver[256] = "", kern[256] = "", buf[256];
	first_line(sec(s, "uname"), un, sizeof(un));
	/* uname -a: SYSNAME NODENAME RELEASE ... */
	char sys[64] = "", node[128] = "", rel[128] = "";
	if (un[0])
		sscanf(un, "%63s %127s %127s", sys, node, rel);
	const char *fv = sec(s, "freebsd-version");
	const char *osr = sec(s, "os-release");
	if (fv) {   /* -k then -u: the installed kernel, the userland */
		first_line(fv, kern, sizeof(kern));
		const char *nl = strchr(fv, '\n');
		first_line(nl ? nl + 1 : NULL, ver, sizeof(ver));
		if (!ver[0])
			snprintf(ver, sizeof(ver), "%s", kern);
	}
	if (osr) {
		os_release(osr, "NAME", name, sizeof(name));
		os_release(osr, "VERSION", buf, sizeof(buf));
		if (!buf[0])
			os_release(osr, "PRETTY_NAME", buf, sizeof(buf));
		if (!ver[0])
			snprintf(ver, sizeof(ver), "%s", buf);
	}
	if (!name[0])
		snprintf(name, sizeof(name), "%s", sys);
	if (!kern[0])
		snprintf(kern, sizeof(kern), "%s", rel);
	if (!ver[0] && strcmp(sys, "Linux"))
		snprintf(ver, sizeof(ver), "%s", rel);   /* uname's release: the BSDs' version */
	set_str(os, "name", name);
	set_str(os, "version", ver);
	set_str(os, "kernel", kern);
	set_str(os, "uname", un);
	json_object_set_new(box, "os", os);
	char host[256];
	first_line(sec(s, "hostname"), host, sizeof(host));
	set_str(box, "hostname", host[0] ? host : node);
	first_line(sec(s, "boot"), buf, sizeof(buf));
	set_str(box, "boot_id", buf);
}

static void cpu_part(json_t *box, const struct sections *s)
{
	json_t *cpu = json_object();
	char model[256] = "", line[256];
	long threads = 0;
	const char *hw = sec(s, "hw");
	const char *ci = sec(s, "cpuinfo");
	if (hw) {   /* sysctl -n hw.model hw.ncpu */
		first_line(hw, model, sizeof(model));
		const char *nl = strchr(hw, '\n');
		threads = nl ? strtol(nl + 1, NULL, 10) : 0;
	} else if (ci) {
		for (const char *p = ci; p && *p;) {
			first_line(p, line, sizeof(line));
			if (!strncmp(line, "processor", 9))
				threads++;
			else if (!model[0] && !strncmp(line, "model name", 10) && strchr(line, ':')) {
				const char *v = strchr(line, ':') + 1;
				while (*v == ' ' || *v == '\t')
					v++;
				snprintf(model, sizeof(model), "%s", v);
			}
			const char *nl = strchr(p, '\n');
			p = nl ? nl + 1 : NULL;
		}
	}
	set_str(cpu, "model", model);
	json_object_set_new(cpu, "cores", json_null());
	json_object_set_new(cpu, "threads", threads > 0 ? json_integer(threads) : json_null());
	json_object_set_new(box, "cpu", cpu);
}

static json_t *nic_new(const char *name)
{
	json_t *n = json_object();
	json_object_set_new(n, "name", json_string(name));
	static const char *const keys[] = { "driver", "mtu", "mac", "speed_mbps", "polling",
					    "polling_capable", NULL };
	for (int i = 0; keys[i]; i++)
		json_object_set_new(n, keys[i], json_null());
	return n;
}

/* "ix0" → "ix": FreeBSD names an interface after its driver and unit (unless renamed). */
static void driver_of(const char *ifname, char *buf, size_t len)
{
	size_t n = strlen(ifname);
	while (n && isdigit((unsigned char)ifname[n - 1]))
		n--;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), ifname);
}

static bool list_has(const char *line, const char *flag)
{
	const char *lt = strchr(line, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	size_t fl = strlen(flag);
	for (const char *p = lt; p && p < gt;) {
		p++;
		size_t n = strcspn(p, ",>");
		if (n == fl && !strncmp(p, flag, fl))
			return true;
		p += n;
	}
	return false;
}

/* ifconfig -m -a: a block per interface, "NAME: flags=..." then indented lines. */
static void bsd_nics(json_t *all, const char *t, const char *pci)
{
	json_t *cur = NULL;
	char line[1024];
	for (const char *p = t; p && *p;) {
		first_line(p, line, sizeof(line));
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : NULL;
		if (line[0] && line[0] != ' ' && line[0] != '\t') {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			*colon = 0;
			cur = nic_new(line);
			char drv[64];
			driver_of(line, drv, sizeof(drv));
			set_str(cur, "driver", drv);
			const char *mtu = strstr(colon + 1, " mtu ");
			if (mtu)
				json_object_set_new(cur, "mtu", json_integer(strtol(mtu + 5, NULL, 10)));
			json_array_append_new(all, cur);
			continue;
		}
		if (!cur)
			continue;
		const char *l = line;
		while (*l == ' ' || *l == '\t')
			l++;
		if (!strncmp(l, "options=", 8))
			json_object_set_new(cur, "polling", json_boolean(list_has(l, "POLLING")));
		else if (!strncmp(l, "capabilities=", 13))
			json_object_set_new(cur, "polling_capable", json_boolean(list_has(l, "POLLING")));
		else if (!strncmp(l, "ether ", 6) || !strncmp(l, "lladdr ", 7)) {
			char mac[32];
			if (sscanf(strchr(l, ' ') + 1, "%31s", mac) == 1)
				set_str(cur, "mac", mac);
		} else if (!strncmp(l, "media:", 6)) {
			/* "(10Gbase-SR <full-duplex>)", "(1000baseT <full-duplex>)" */
			const char *b = strstr(l, "base");
			const char *d = b;
			while (d > l && (isdigit((unsigned char)d[-1]) || d[-1] == 'G'))
				d--;
			if (b && d < b) {
				long v = strtol(d, NULL, 10);
				json_object_set_new(cur, "speed_mbps", json_integer(b[-1] == 'G' ? v * 1000 : v));
			}
		}
	}
	/* pciconf -lv: "ix0@pci0:1:0:0: class=..." then "    device = '82599ES ...'" */
	const char *dev_of = NULL;
	char name[64] = "";
	for (const char *p = pci; p && *p;) {
		first_line(p, line, sizeof(line));
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : NULL;
		char *at = strchr(line, '@');
		if (line[0] != ' ' && line[0] != '\t' && at) {
			snprintf(name, sizeof(name), "%.*s", (int)(at - line), line);
			dev_of = name;
			continue;
		}
		const char *l = line;
		while (*l == ' ' || *l == '\t')
			l++;
		if (dev_of && !strncmp(l, "device", 6) && strchr(l, '\'')) {
			const char *q = strchr(l, '\''), *e = strrchr(l, '\'');
			size_t i;
			json_t *n;
			json_array_foreach(all, i, n)
				if (!strcmp(json_string_value(json_object_get(n, "name")), dev_of) && e > q)
					json_object_set_new(n, "device",
							    json_stringn(q + 1, (size_t)(e - q - 1)));
			dev_of = NULL;
		}
	}
}

/* ip -d -j link show, and "NAME DRIVER" lines from /sys/class/net. */
static void linux_nics(json_t *all, const char *t, const char *drivers)
{
	json_t *doc = t ? json_loads(t, 0, NULL) : NULL;
	size_t i;
	json_t *l;
	json_array_foreach(doc, i, l) {
		const char *name = json_string_value(json_object_get(l, "ifname"));
		if (!name)
			continue;
		json_t *n = nic_new(name);
		const char *kind = json_string_value(json_object_get(json_object_get(l, "linkinfo"),
								     "info_kind"));
		char drv[128] = "", line[256];
		size_t nl = strlen(name);
		for (const char *p = drivers; p && *p;) {
			first_line(p, line, sizeof(line));
			if (!strncmp(line, name, nl) && line[nl] == ' ' && line[nl + 1])
				snprintf(drv, sizeof(drv), "%s", line + nl + 1);
			const char *e = strchr(p, '\n');
			p = e ? e + 1 : NULL;
		}
		set_str(n, "driver", kind ? kind : drv);
		json_t *mtu = json_object_get(l, "mtu");
		if (json_is_integer(mtu))
			json_object_set(n, "mtu", mtu);
		set_str(n, "mac", json_string_value(json_object_get(l, "address")));
		json_t *q = json_object_get(l, "num_rx_queues");
		if (json_is_integer(q))
			json_object_set(n, "queues", q);
		json_array_append_new(all, n);
	}
	json_decref(doc);
}

/* The listed interfaces in order (a missing one with "error"), or all but loopback. */
static json_t *pick_nics(json_t *all, const char *ifaces)
{
	json_t *out = json_array();
	size_t i;
	json_t *n;
	if (!ifaces || !*ifaces) {
		json_array_foreach(all, i, n) {
			const char *nm = json_string_value(json_object_get(n, "name"));
			if (strcmp(nm, "lo") && strcmp(nm, "lo0"))
				json_array_append(out, n);
		}
		return out;
	}
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", ifaces);
	char *save = NULL;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		json_t *found = NULL;
		json_array_foreach(all, i, n)
			if (!strcmp(json_string_value(json_object_get(n, "name")), w))
				found = n;
		if (found) {
			json_array_append(out, found);
		} else {
			json_t *m = nic_new(w);
			json_object_set_new(m, "error", json_string("no such interface on the router"));
			json_array_append_new(out, m);
		}
	}
	return out;
}

/* "name: value" (BSD sysctl) or "name = value" (Linux). A BSD value may go on over
 * lines (e.g. net.isr.* tables): only the first line is kept. */
static void tunables(json_t *box, const char *t)
{
	json_t *tun = json_object();
	char line[1024];
	for (const char *p = t; p && *p;) {
		first_line(p, line, sizeof(line));
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : NULL;
		size_t n = 0;
		while (line[n] && (isalnum((unsigned char)line[n]) || strchr("._-%", line[n])))
			n++;
		if (!n || !strchr(line, '.') || n == strlen(line))
			continue;
		const char *v = NULL;
		if (line[n] == ':')
			v = line + n + 1;
		else if (!strncmp(line + n, " = ", 3))
			v = line + n + 3;
		if (!v)
			continue;
		line[n] = 0;
		json_object_set_new(tun, line, value_of(v));
	}
	json_object_set_new(box, "tunables", tun);
}

json_t *rutenv_parse(const char *out, const char *ifaces)
{
	json_t *box = json_object();
	char *copy = strdup(out ? out : "");
	struct sections s;
	if (!box || !copy) {
		free(copy);
		json_decref(box);
		return NULL;
	}
	split(copy, &s);
	os_part(box, &s);
	cpu_part(box, &s);
	json_t *all = json_array();
	if (sec(&s, "ip-link"))
		linux_nics(all, sec(&s, "ip-link"), sec(&s, "drivers"));
	else if (sec(&s, "ifconfig"))
		bsd_nics(all, sec(&s, "ifconfig"), sec(&s, "pciconf"));
	json_object_set_new(box, "nics", pick_nics(all, ifaces));
	json_decref(all);
	tunables(box, sec(&s, "sysctl"));
	json_t *raw = json_object(), *missing = json_array();
	static const char *const parts[] = { "uname", "freebsd-version", "os-release", "hw",
					     "cpuinfo", "ip-link", "ifconfig", "pciconf", "sysctl",
					     NULL };
	for (int i = 0; parts[i]; i++) {
		bool asked = false;
		for (int k = 0; k < s.n; k++)
			asked |= !strcmp(s.name[k], parts[i]);
		if (asked && !sec(&s, parts[i]))
			json_array_append_new(missing, json_string(parts[i]));
	}
	static const char *const keep[] = { "ifconfig", "pciconf", NULL };
	for (int i = 0; keep[i]; i++) {
		const char *t = sec(&s, keep[i]);
		if (t)
			json_object_set_new(raw, keep[i], json_stringn(t, strlen(t) < RAW_MAX
									 ? strlen(t) : RAW_MAX));
	}
	json_object_set_new(box, "missing", missing);
	if (json_object_size(raw))
		json_object_set_new(box, "raw", raw);
	else
		json_decref(raw);
	if (!sec(&s, "uname") && !sec(&s, "sysctl"))
		json_object_set_new(box, "error", json_string("the router printed nothing we know"));
	free(copy);
	return box;
}

json_t *rutenv_collect(const struct box *b, const char *ifaces, const char *const *names,
		       size_t nnames)
{
	struct box_cmd c;
	char *out = malloc(OUT_MAX);
	int rc = out ? box_sys_init(&c, b, "sh") : -ENOMEM;
	rc = rc ? rc : box_arg(&c, "-c");
	rc = rc ? rc : box_arg(&c, script);
	rc = rc ? rc : box_arg(&c, "sh");
	for (size_t i = 0; !rc && i < nnames; i++)
		rc = box_arg(&c, names[i]);
	rc = rc ? rc : box_cmd_done(&c, b);
	json_t *box = NULL;
	if (!rc) {
		struct proc_opts o = { .netns = c.netns, .out = out, .outlen = OUT_MAX,
				       .quiet_err = 1, .timeout_ns = 60 * NS_PER_S };
		int st = proc_run(c.argv, &o);
		box = rutenv_parse(st >= 0 && st < 128 ? out : "", ifaces);
		if (box && (st < 0 || st >= 126)) {
			char e[128];
			snprintf(e, sizeof(e), "the environment command failed with status %d", st);
			json_object_set_new(box, "error", json_string(e));
		}
		box_cmd_free(&c);
	}
	free(out);
	if (!box)
		box = json_pack("{s:s}", "error", "out of memory");
	char how[300];
	if (b->ssh)
		snprintf(how, sizeof(how), "sh over ssh %s%s%s, without ppslab", b->ssh,
			 b->netns ? " in namespace " : "", b->netns ? b->netns : "");
	else
		snprintf(how, sizeof(how), "sh on this host%s%s, without ppslab",
			 b->netns ? " in namespace " : "", b->netns ? b->netns : "");
	json_object_set_new(box, "collected", json_string(how));
	return box;
}
