/* SPDX-License-Identifier: BSD-2-Clause */
/* envinfo.c — the environment of a box as JSON (see envinfo.h): OS, kernel, CPU, memory,
 * interfaces and the forwarding tunables of a namespace. Called by `ppslab env` (cmd_env.c)
 * and by ppslab run for the local boxes; a remote box runs `ppslab env` over ssh.
 *
 * Everything is read, nothing inferred: a file that is missing, a value that does not
 * parse or a command that fails leaves the field null. Reads inside another namespace
 * go through `ip -n NS` (link attributes) and one `ip netns exec NS grep -H '' FILE...`
 * (sysfs and /proc/sys values: `ip netns exec` remounts /sys for that namespace, so
 * /sys/class/net shows its interfaces). */
#include "envinfo.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__FreeBSD__) || defined(__DragonFly__)
#include <ifaddrs.h>
#include <net/if.h>
#include <net/if_dl.h>
#include <sys/socket.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

#include "clock.h"
#include "ifinfo.h"
#include "jout.h"
#include "log.h"
#include "num.h"
#include "proc.h"
#include "version.h"

#define ENV_TIMEOUT_NS (10 * NS_PER_S)
#define ENV_OUT_MAX (64 * 1024)

/* Trailing whitespace off, in place. */
static char *rtrim(char *s)
{
	size_t l = strlen(s);
	while (l && (s[l - 1] == '\n' || s[l - 1] == '\r' || s[l - 1] == ' ' || s[l - 1] == '\t'))
		s[--l] = 0;
	return s;
}

/* A string value, or null when s is NULL or empty. */
static void set_str_or_null(json_t *o, const char *key, const char *s)
{
	json_object_set_new(o, key, s && *s ? json_string(s) : json_null());
}

/* ---- uname: every system ----------------------------------------------------------- */

static void uname_json(json_t *os)
{
	struct utsname u;
	if (uname(&u) < 0) {
		json_object_set_new(os, "kernel", json_null());
		json_object_set_new(os, "uname", json_null());
		return;
	}
	char line[5 * sizeof(u.release) + 8];
	snprintf(line, sizeof(line), "%s %s %s %s %s", u.sysname, u.nodename, u.release,
		 u.version, u.machine);
	set_str_or_null(os, "kernel", u.release);
	set_str_or_null(os, "uname", line);
}

#if defined(__linux__)

/* strlcpy: as much of src as fits, always terminated. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t l = strlen(src);
	if (l >= len)
		l = len - 1;
	memcpy(dst, src, l);
	dst[l] = 0;
}

/* "1" → 1: as an integer when the whole text is a decimal integer
 * (a sysctl), else as a string, null when absent. */
static json_t *value_json(const char *s)
{
	uint64_t u;
	if (!s || !*s)
		return json_null();
	if (num_u64(s, 0, (uint64_t)INT64_MAX, &u) == 0)
		return json_integer((json_int_t)u);
	return json_string(s);
}

static int read_local(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, len - 1, f);
	int err = ferror(f) ? -EIO : 0;
	fclose(f);
	buf[n] = 0;
	if (!err && !n)
		return -ENODATA;
	rtrim(buf);
	return err;
}

/* ---- several small files, maybe inside a namespace ---------------------------------- */

struct fileval {
	const char *path;
	char val[256];      /* first line, trimmed; "" when unreadable */
};

/* Reads the first line of each file: directly in our namespace, or with one
 * `ip netns exec NS grep -H '' -- FILE...` (it prints "FILE:LINE" for every line of
 * every file it can read; interface names cannot contain ':', and the paths we ask for
 * contain no other ':'). Unreadable files keep val "". */
static void read_files(const char *netns, struct fileval *fv, int n)
{
	for (int i = 0; i < n; i++)
		fv[i].val[0] = 0;
	if (!netns) {
		char buf[1024];
		for (int i = 0; i < n; i++)
			if (read_local(fv[i].path, buf, sizeof(buf)) == 0) {
				char *nl = strchr(buf, '\n');
				if (nl)
					*nl = 0;
				copy_str(fv[i].val, sizeof(fv[i].val), rtrim(buf));
			}
		return;
	}
	char **av = calloc((size_t)n + 5, sizeof(*av));
	char *out = malloc(ENV_OUT_MAX);
	if (!av || !out)
		goto out;
	int k = 0;
	av[k++] = "grep";
	av[k++] = "-H";
	av[k++] = "";
	av[k++] = "--";
	for (int i = 0; i < n; i++)
		av[k++] = proc_arg(fv[i].path);
	av[k] = NULL;
	struct proc_opts o = { .netns = netns, .out = out, .outlen = ENV_OUT_MAX,
			       .quiet_err = 1, .timeout_ns = ENV_TIMEOUT_NS };
	int st = proc_run(av, &o);
	if (st < 0 || st > 2) {   /* grep: 0 found, 1 nothing, 2 some file unreadable */
		log_debug("env: [%s] grep of %d files failed (status %d)", netns, n, st);
		goto out;
	}
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		for (int i = 0; i < n; i++)
			if (!fv[i].val[0] && !strcmp(fv[i].path, line)) {
				copy_str(fv[i].val, sizeof(fv[i].val), rtrim(colon + 1));
				break;
			}
	}
out:
	free(av);
	free(out);
}

/* ---- OS, CPU, memory (Linux) ------------------------------------------------------- */

/* A value of /etc/os-release: unquoted, or in double or single quotes with \" \\ \$ \`
 * escapes (os-release(5)). */
static void os_release_value(const char *in, char *out, size_t len)
{
	size_t o = 0;
	char q = (*in == '"' || *in == '\'') ? *in++ : 0;
	for (; *in && *in != '\n' && o + 1 < len; in++) {
		if (q && *in == q)
			break;
		if (q == '"' && *in == '\\' && in[1])
			in++;
		out[o++] = *in;
	}
	out[o] = 0;
}

static void os_json(json_t *os)
{
	char name[256] = "", version[256] = "", pretty[256] = "", line[512];
	FILE *f = fopen("/etc/os-release", "r");
	if (!f)
		f = fopen("/usr/lib/os-release", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "NAME=", 5))
			os_release_value(line + 5, name, sizeof(name));
		else if (!strncmp(line, "VERSION=", 8))
			os_release_value(line + 8, version, sizeof(version));
		else if (!strncmp(line, "PRETTY_NAME=", 12))
			os_release_value(line + 12, pretty, sizeof(pretty));
	}
	if (f)
		fclose(f);
	set_str_or_null(os, "name", name);
	set_str_or_null(os, "version", version[0] ? version : pretty);
	uname_json(os);
}

#define MAX_PACKAGES 64

/* /proc/cpuinfo: "model name" (x86) of the first processor, the "processor" entries
 * (threads), cores = distinct "physical id"s × "cpu cores" (threads when the kernel
 * does not say: one thread per core, as on most non-x86 machines), "cpu MHz". */
static json_t *cpu_json(void)
{
	json_t *c = json_object();
	char line[512], model[256] = "";
	double mhz = -1;
	long threads = 0, cores_per = -1;
	long pkg[MAX_PACKAGES];
	int npkg = 0;
	bool pkg_overflow = false;
	FILE *f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *val = colon + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		rtrim(val);
		*colon = 0;
		rtrim(line);
		uint64_t u;
		double d;
		if (!strcmp(line, "processor")) {
			threads++;
		} else if (!strcmp(line, "model name") && !model[0]) {
			copy_str(model, sizeof(model), val);
		} else if (!strcmp(line, "cpu MHz") && mhz < 0) {
			if (num_double(val, 0, 1e6, &d) == 0)
				mhz = d;
		} else if (!strcmp(line, "cpu cores") && cores_per < 0) {
			if (num_u64(val, 1, 1 << 20, &u) == 0)
				cores_per = (long)u;
		} else if (!strcmp(line, "physical id")) {
			if (num_u64(val, 0, 1 << 20, &u) == 0) {
				int i = 0;
				while (i < npkg && pkg[i] != (long)u)
					i++;
				if (i == npkg) {
					if (npkg < MAX_PACKAGES)
						pkg[npkg++] = (long)u;
					else
						pkg_overflow = true;
				}
			}
		}
	}
	if (f)
		fclose(f);
	if (!threads) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		threads = n > 0 ? n : 0;
	}
	set_str_or_null(c, "model", model);
	if (cores_per > 0 && npkg > 0 && !pkg_overflow)
		jset_u64(c, "cores", (uint64_t)(cores_per * npkg));
	else if (threads > 0)
		jset_u64(c, "cores", (uint64_t)threads);
	else
		json_object_set_new(c, "cores", json_null());
	if (threads > 0)
		jset_u64(c, "threads", (uint64_t)threads);
	else
		json_object_set_new(c, "threads", json_null());
	jset_f(c, "mhz", mhz >= 0 ? mhz : NAN);
	return c;
}

static json_t *mem_mb_json(void)
{
	char line[256];
	json_t *v = json_null();
	FILE *f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long kb;
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			json_decref(v);
			v = json_integer((json_int_t)(kb / 1024));
			break;
		}
	}
	if (f)
		fclose(f);
	return v;
}

static json_t *boot_id_json(void)
{
	char buf[128];
	if (read_local("/proc/sys/kernel/random/boot_id", buf, sizeof(buf)))
		return json_null();
	return json_string(buf);
}

/* The driver bound to the interface's device: the last component of the
 * /sys/class/net/IF/device/driver link ("" when it has none: virtual interfaces). */
static void device_driver(const char *netns, const char *ifname, char *out, size_t len)
{
	char path[256], target[PATH_MAX];
	out[0] = 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", ifname);
	if (!netns) {
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			return;
		target[n] = 0;
	} else {
		char *av[] = { "readlink", "--", path, NULL };
		struct proc_opts o = { .netns = netns, .out = target, .outlen = sizeof(target),
				       .quiet_err = 1, .timeout_ns = ENV_TIMEOUT_NS };
		if (proc_run(av, &o) != 0)
			return;
		rtrim(target);
	}
	const char *base = strrchr(target, '/');
	copy_str(out, len, base ? base + 1 : target);
}

static void set_uint_field(json_t *nic, const char *key, json_t *src, const char *skey)
{
	json_t *v = json_object_get(src, skey);
	json_object_set_new(nic, key, json_is_integer(v) && json_integer_value(v) >= 0
				      ? json_integer(json_integer_value(v)) : json_null());
}

/* One interface: `ip [-n NS] -d -j link show dev IF` for mtu, mac, queues and the link
 * kind; the device driver when the link has no kind; speed from sysfs. A missing
 * interface gives an entry with every value null and "error" saying what ip said. */
static json_t *nic_json(const char *netns, const char *ifname, const char *speed_text)
{
	json_t *nic = json_object(), *doc = NULL, *l = NULL;
	char *out = malloc(ENV_OUT_MAX);
	char drv[128] = "";
	jset_s(nic, "name", ifname);
	if (!out)
		goto done;
	char *av_ns[] = { "ip", "-n", proc_arg(netns), "-d", "-j", "link", "show", "dev",
			  proc_arg(ifname), NULL };
	char *av_here[] = { "ip", "-d", "-j", "link", "show", "dev", proc_arg(ifname), NULL };
	char **argv = netns ? av_ns : av_here;
	struct proc_opts o = { .out = out, .outlen = ENV_OUT_MAX, .merge_err = 1,
			       .timeout_ns = ENV_TIMEOUT_NS };
	int st = proc_run(argv, &o);
	if (st == 0) {
		doc = json_loads(out, 0, NULL);
		l = json_array_get(doc, 0);
	}
	if (json_is_object(l)) {
		json_t *li = json_object_get(l, "linkinfo");
		const char *kind = json_string_value(json_object_get(li, "info_kind"));
		if (kind)
			copy_str(drv, sizeof(drv), kind);
		else
			device_driver(netns, ifname, drv, sizeof(drv));
		set_str_or_null(nic, "driver", drv);
		json_object_set_new(nic, "speed_mbps", value_json(speed_text));
		if (!json_is_integer(json_object_get(nic, "speed_mbps")) ||
		    json_integer_value(json_object_get(nic, "speed_mbps")) <= 0)
			json_object_set_new(nic, "speed_mbps", json_null());
		set_uint_field(nic, "mtu", l, "mtu");
		set_uint_field(nic, "queues", l, "num_rx_queues");
		set_uint_field(nic, "tx_queues", l, "num_tx_queues");
		set_str_or_null(nic, "mac", json_string_value(json_object_get(l, "address")));
		goto done;
	}
	/* ip said no (the message names the problem) or could not run */
	char *nl = strchr(out, '\n');
	if (nl)
		*nl = 0;
	static const char *const keys[] = { "driver", "speed_mbps", "mtu", "queues",
					    "tx_queues", "mac" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set_new(nic, keys[i], json_null());
	if (st > 0 && st != 127 && out[0]) {
		jset_s(nic, "error", rtrim(out));
	} else if (!netns) {   /* no usable ip(8): what the library reads itself */
		uint32_t mtu;
		uint8_t mac[6];
		char macs[18];
		if (if_index_of(ifname) < 0) {
			jset_s(nic, "error", "no such interface");
			goto done;
		}
		if (if_mtu(ifname, &mtu) == 0)
			jset_u64(nic, "mtu", mtu);
		if (if_hwaddr(ifname, mac) == 0) {
			mac_format(mac, macs);
			jset_s(nic, "mac", macs);
		}
		json_object_set_new(nic, "speed_mbps", value_json(speed_text));
	} else {
		jset_s(nic, "error", "ip -n NS link show failed");
	}
done:
	json_decref(doc);
	free(out);
	return nic;
}

/* The namespace's forwarding tunables and each interface's speed and RPS mask, read
 * in one pass (one process when inside a namespace). */
static void nics_and_tunables(json_t *box, const char *netns, char *const *ifaces,
			      int nifaces)
{
	static const char *const sysctls[] = { "net.ipv4.ip_forward",
					       "net.ipv6.conf.all.forwarding", "net.core.busy_poll",
					       "net.core.netdev_budget" };
	enum { NSYS = sizeof(sysctls) / sizeof(sysctls[0]) };
	int n = NSYS + 2 * nifaces;
	struct fileval *fv = calloc((size_t)n, sizeof(*fv));
	char (*paths)[160] = calloc((size_t)n, sizeof(*paths));
	json_t *tun = json_object(), *nics = json_array();
	if (!fv || !paths)
		goto out;
	for (int i = 0; i < NSYS; i++) {
		snprintf(paths[i], sizeof(paths[i]), "/proc/sys/%s", sysctls[i]);
		for (char *p = paths[i] + 10; *p; p++)
			if (*p == '.')
				*p = '/';
	}
	for (int k = 0; k < nifaces; k++) {
		snprintf(paths[NSYS + 2 * k], sizeof(paths[0]), "/sys/class/net/%s/speed", ifaces[k]);
		snprintf(paths[NSYS + 2 * k + 1], sizeof(paths[0]),
			 "/sys/class/net/%s/queues/rx-0/rps_cpus", ifaces[k]);
	}
	for (int i = 0; i < n; i++)
		fv[i].path = paths[i];
	read_files(netns, fv, n);
	for (int i = 0; i < NSYS; i++)
		json_object_set_new(tun, sysctls[i], value_json(fv[i].val));
	for (int k = 0; k < nifaces; k++) {
		char key[64];
		snprintf(key, sizeof(key), "rps_cpus.%s", ifaces[k]);
		const char *m = fv[NSYS + 2 * k + 1].val;
		json_object_set_new(tun, key, m[0] ? json_string(m) : json_null());
		json_array_append_new(nics, nic_json(netns, ifaces[k], fv[NSYS + 2 * k].val));
	}
out:
	free(fv);
	free(paths);
	json_object_set_new(box, "nics", nics);
	json_object_set_new(box, "tunables", tun);
}

#elif defined(__FreeBSD__) || defined(__DragonFly__)

static int sysctl_str(const char *name, char *buf, size_t len)
{
	size_t l = len - 1;
	if (sysctlbyname(name, buf, &l, NULL, 0) < 0)
		return -errno;
	buf[l < len ? l : len - 1] = 0;
	return 0;
}

static void os_json(json_t *os)
{
	struct utsname u;
	char rel[128];
	json_object_set_new(os, "name", uname(&u) == 0 ? json_string(u.sysname) : json_null());
	set_str_or_null(os, "version", sysctl_str("kern.osrelease", rel, sizeof(rel)) ? NULL : rel);
	uname_json(os);
}

static json_t *cpu_json(void)
{
	json_t *c = json_object();
	char model[256];
	int ncpu = 0, mhz = 0;
	size_t l = sizeof(ncpu);
	set_str_or_null(c, "model", sysctl_str("hw.model", model, sizeof(model)) ? NULL : model);
	if (sysctlbyname("hw.ncpu", &ncpu, &l, NULL, 0) < 0 || ncpu <= 0)
		ncpu = 0;
	/* cores and threads are told apart only by kern.sched.topology_spec (XML): not read */
	json_object_set_new(c, "cores", json_null());
	json_object_set_new(c, "threads", ncpu ? json_integer(ncpu) : json_null());
	l = sizeof(mhz);
	if (sysctlbyname("hw.clockrate", &mhz, &l, NULL, 0) < 0 || mhz <= 0)
		json_object_set_new(c, "mhz", json_null());
	else
		json_object_set_new(c, "mhz", json_real(mhz));
	return c;
}

static json_t *mem_mb_json(void)
{
	unsigned long mem = 0;
	size_t l = sizeof(mem);
	if (sysctlbyname("hw.physmem", &mem, &l, NULL, 0) < 0 || !mem)
		return json_null();
	return json_integer((json_int_t)(mem / (1024 * 1024)));
}

/* FreeBSD's kern.boot_id is 16 opaque bytes (a UUID), printed like Linux's boot_id;
 * DragonFly has none. */
static json_t *boot_id_json(void)
{
	unsigned char id[16];
	char text[40];
	size_t l = sizeof(id);
	if (sysctlbyname("kern.boot_id", id, &l, NULL, 0) < 0 || l != sizeof(id))
		return json_null();
	snprintf(text, sizeof(text), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", id[0], id[1], id[2], id[3], id[4], id[5], id[6],
		 id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]);
	return json_string(text);
}

/* getifaddrs(3)'s AF_LINK entries carry the MAC and struct if_data (mtu, baudrate);
 * there are no network namespaces (jails with vnet are not handled: netns must be
 * NULL). */
static void nics_and_tunables(json_t *box, const char *netns, char *const *ifaces,
			      int nifaces)
{
	json_t *nics = json_array(), *tun = json_object();
	struct ifaddrs *ifa = NULL;
	int fwd = 0;
	size_t l = sizeof(fwd);
	if (netns)
		log_warn("env: --netns %s: no network namespaces on this system", netns);
	json_object_set_new(tun, "net.inet.ip.forwarding",
			    sysctlbyname("net.inet.ip.forwarding", &fwd, &l, NULL, 0) < 0
			    ? json_null() : json_integer(fwd));
	if (getifaddrs(&ifa) < 0)
		ifa = NULL;
	for (int k = 0; k < nifaces; k++) {
		json_t *nic = json_object();
		jset_s(nic, "name", ifaces[k]);
		json_object_set_new(nic, "driver", json_null());
		json_object_set_new(nic, "speed_mbps", json_null());
		json_object_set_new(nic, "mtu", json_null());
		json_object_set_new(nic, "queues", json_null());
		json_object_set_new(nic, "tx_queues", json_null());
		json_object_set_new(nic, "mac", json_null());
		bool found = false;
		for (struct ifaddrs *a = ifa; a; a = a->ifa_next) {
			if (strcmp(a->ifa_name, ifaces[k]) || !a->ifa_addr ||
			    a->ifa_addr->sa_family != AF_LINK)
				continue;
			const struct sockaddr_dl *dl = (const struct sockaddr_dl *)a->ifa_addr;
			const struct if_data *d = a->ifa_data;
			found = true;
			if (dl->sdl_alen == 6) {
				char mac[18];
				mac_format((const uint8_t *)LLADDR(dl), mac);
				jset_s(nic, "mac", mac);
			}
			if (d) {
				jset_u64(nic, "mtu", d->ifi_mtu);
				if (d->ifi_baudrate)
					jset_u64(nic, "speed_mbps", d->ifi_baudrate / 1000000);
			}
		}
		if (!found)
			jset_s(nic, "error", "no such interface");
		json_array_append_new(nics, nic);
	}
	if (ifa)
		freeifaddrs(ifa);
	json_object_set_new(box, "nics", nics);
	json_object_set_new(box, "tunables", tun);
}

#else
#error "envinfo.c: no environment reader for this system (Linux, FreeBSD, DragonFly)"
#endif

json_t *env_box(const char *netns, char *const *ifaces, int nifaces)
{
	json_t *box = json_object(), *os = json_object();
	char host[256];
	if (!box || !os) {
		json_decref(box);
		json_decref(os);
		return NULL;
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = 0;
		jset_s(box, "hostname", host);
	} else {
		json_object_set_new(box, "hostname", json_null());
	}
	os_json(os);
	json_object_set_new(box, "os", os);
	json_object_set_new(box, "boot_id", boot_id_json());
	json_object_set_new(box, "cpu", cpu_json());
	json_object_set_new(box, "mem_mb", mem_mb_json());
	if (netns)
		jset_s(box, "netns", netns);
	nics_and_tunables(box, netns, ifaces, nifaces);
	jset_s(box, "ppslab", ppslab_version());
	return box;
}
