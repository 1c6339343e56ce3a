/* SPDX-License-Identifier: BSD-2-Clause */
/* t_envinfo.c — env_box() on this machine, as any user: the loopback interface exists
 * everywhere, /proc and /sys are readable without root. */
#include <unistd.h>

#include "envinfo.h"
#include "tap.h"

static json_int_t int_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static void t_box_lo(void)
{
	char *ifs[] = { "lo" };
	json_t *b = env_box(NULL, ifs, 1);
	T_TRUE(b != NULL);
	json_t *os = json_object_get(b, "os"), *cpu = json_object_get(b, "cpu");
	const char *name = json_string_value(json_object_get(os, "name"));
	const char *kernel = json_string_value(json_object_get(os, "kernel"));
	T_TRUE(name && *name);
	T_TRUE(kernel && *kernel);
	T_TRUE(json_string_value(json_object_get(os, "uname")) != NULL);
	T_TRUE(int_at(cpu, "threads") >= 1);
	T_TRUE(int_at(cpu, "cores") >= 1 && int_at(cpu, "cores") <= int_at(cpu, "threads"));
	/* the box's own count agrees with the C library's */
	T_EQ_INT(int_at(cpu, "threads"), sysconf(_SC_NPROCESSORS_CONF));
	T_TRUE(int_at(b, "mem_mb") > 0);
	char host[256];
	T_TRUE(gethostname(host, sizeof(host)) == 0);
	T_STREQ(json_string_value(json_object_get(b, "hostname")), host);
	T_TRUE(json_string_value(json_object_get(b, "ppslab")) != NULL);
	json_t *nics = json_object_get(b, "nics");
	T_EQ_U64(json_array_size(nics), 1);
	json_t *lo = json_array_get(nics, 0);
	T_STREQ(json_string_value(json_object_get(lo, "name")), "lo");
	T_EQ_INT(int_at(lo, "mtu"), 65536);
	T_STREQ(json_string_value(json_object_get(lo, "mac")), "00:00:00:00:00:00");
	T_TRUE(int_at(lo, "queues") >= 1);
	/* loopback has neither a device driver nor a link speed: null, not a guess */
	T_TRUE(json_is_null(json_object_get(lo, "driver")));
	T_TRUE(json_is_null(json_object_get(lo, "speed_mbps")));
	T_TRUE(json_object_get(lo, "error") == NULL);
	/* every declared key is present, null or not */
	static const char *const keys[] = { "driver", "speed_mbps", "mtu", "queues", "mac" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		T_TRUE(json_object_get(lo, keys[i]) != NULL);
	json_t *tun = json_object_get(b, "tunables");
	json_t *fwd = json_object_get(tun, "net.ipv4.ip_forward");
	T_TRUE(json_is_integer(fwd) && (json_integer_value(fwd) == 0 || json_integer_value(fwd) == 1));
	json_t *fwd6 = json_object_get(tun, "net.ipv6.conf.all.forwarding");
	T_TRUE(json_is_null(fwd6) || (json_is_integer(fwd6) && json_integer_value(fwd6) <= 1));
	T_TRUE(fwd6 != NULL);
	T_TRUE(json_object_get(tun, "rps_cpus.lo") != NULL);
	json_decref(b);
}

static void t_box_missing_iface(void)
{
	char *ifs[] = { "ppslabnone9" };
	json_t *b = env_box(NULL, ifs, 1);
	T_TRUE(b != NULL);
	json_t *nic = json_array_get(json_object_get(b, "nics"), 0);
	T_STREQ(json_string_value(json_object_get(nic, "name")), "ppslabnone9");
	T_TRUE(json_is_null(json_object_get(nic, "driver")));
	T_TRUE(json_is_null(json_object_get(nic, "mtu")));
	T_TRUE(json_is_null(json_object_get(nic, "mac")));
	const char *e = json_string_value(json_object_get(nic, "error"));
	T_TRUE(e && strstr(e, "ppslabnone9"));
	json_decref(b);
}

static void t_box_no_ifaces(void)
{
	json_t *b = env_box(NULL, NULL, 0);
	T_TRUE(b != NULL);
	T_EQ_U64(json_array_size(json_object_get(b, "nics")), 0);
	T_TRUE(json_is_object(json_object_get(b, "tunables")));
	T_TRUE(json_object_get(b, "netns") == NULL);
	json_decref(b);
}

int main(void)
{
	T_RUN(t_box_lo);
	T_RUN(t_box_missing_iface);
	T_RUN(t_box_no_ifaces);
	return t_done();
}
