/* envinfo.h — the environment of a box, for results files (spec/methodology.md §6):
 * what a reader of a table needs to know to trust or compare it.
 *
 *   {"hostname", "os": {"name", "version", "kernel", "uname"}, "boot_id",
 *    "cpu": {"model", "cores", "threads", "mhz"}, "mem_mb",
 *    "nics": [{"name", "driver", "speed_mbps", "mtu", "queues", "mac"}],
 *    "tunables": {...}, "ppslab": "VERSION"}
 *
 * On Linux from /etc/os-release, uname(2), /proc/cpuinfo, /proc/meminfo,
 * /proc/sys/kernel/random/boot_id and, per interface, `ip -d -j link show` run in the
 * box's namespace (veth has no /sys device driver link; the link kind names it). On the
 * BSDs from uname and sysctl (kern.osrelease, hw.model, hw.ncpu, hw.physmem) and
 * `ifconfig`. A value that cannot be read is null, never a guess.
 *
 * `ppslab env [--netns NS] [-i IF]...` prints env_box() as JSON: that is how ppslab run
 * collects a remote box's environment over ssh. */
#ifndef PPSLAB_ENVINFO_H
#define PPSLAB_ENVINFO_H

#include <jansson.h>

/* The box this process runs on, with interfaces ifaces[0..nifaces) looked up inside
 * netns (NULL: ours). Linux tunables of the namespace that matter for forwarding
 * (net.ipv4.ip_forward, net.core.busy_poll, rps of the ifaces) are put in "tunables".
 * New reference; never NULL except on allocation failure. */
json_t *env_box(const char *netns, char *const *ifaces, int nifaces);

/* Subcommand `ppslab env`. */
int cmd_env(int argc, char **argv);

#endif
