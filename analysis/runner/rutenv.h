/* SPDX-License-Identifier: BSD-2-Clause */
/* rutenv.h — the environment of a box that has no ppslab: an external router, read
 * with one POSIX shell command run there (over ssh, in its namespace, or here), every
 * part optional, so a missing command leaves its fields null instead of failing.
 *
 * FreeBSD/DragonFly: `uname -a`, `freebsd-version -ku`, `sysctl -n hw.model hw.ncpu`,
 * `sysctl -n kern.boottime`, `ifconfig -m -a` (flags, options with POLLING when
 * polling is on, capabilities with POLLING when the driver can poll, MTU, MAC, media),
 * `pciconf -lv` (the NICs' devices), and `sysctl` of kern.hz, kern.polling,
 * net.inet.ip.fw, net.isr, net.inet.ip.forwarding and the names asked for.
 * Linux: `uname -a`, os-release, /proc/cpuinfo, boot_id, `ip -d -j link show`, the
 * drivers under /sys/class/net, the forwarding sysctls under /proc/sys (ip_forward,
 * netdev_budget(_usecs), dev_weight, busy_poll, busy_read; a name asked for that is
 * not there is asked of `sysctl`) and the kernel's CONFIG_HZ.
 *
 * boot_id identifies the router's current boot (the BSDs' kern.boottime, else Linux's
 * boot_id): a restart changes it, which is how ppslab run tells a router that came
 * back from one that has not gone down yet.
 *
 * The result has the shape of envinfo.h's boxes, so compare and report show it like
 * any other: {"hostname", "os": {"name", "version", "kernel", "uname"}, "boot_id",
 * "cpu": {"model", "cores": null, "threads"}, "nics": [{"name", "driver", "mtu", "mac",
 * "speed_mbps", "polling", "polling_capable", "device"}], "tunables": {NAME: value},
 * "collected": "how", "missing": ["commands that gave nothing"], "raw": {"ifconfig",
 * "pciconf"} (their text, for a reader, at most 16 KiB each)}. */
#ifndef PPSLAB_ANALYSIS_RUNNER_RUTENV_H
#define PPSLAB_ANALYSIS_RUNNER_RUTENV_H

#include <jansson.h>
#include <stddef.h>

#include "box.h"

/* Collects box b's environment. ifaces: "IN,OUT" or one name to describe (NULL: every
 * interface but the loopback); names: more sysctl names to read (the swept knobs).
 * New reference; on failure an object with "error". */
json_t *rutenv_collect(const struct box *b, const char *ifaces, const char *const *names,
		       size_t nnames);

/* Parses the command's output (for the unit tests). New reference. */
json_t *rutenv_parse(const char *out, const char *ifaces);

#endif
