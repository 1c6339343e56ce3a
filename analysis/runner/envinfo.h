/* SPDX-License-Identifier: BSD-2-Clause */
/* envinfo.h — the environment of a box, for results files
 * (docs/design/methodology.md#the-environment-of-a-box):
 * what a reader of a table needs to know to trust or compare it.
 *
 *   {"hostname", "os": {"name", "version", "kernel", "uname"}, "boot_id",
 *    "cpu": {"model", "cores", "threads", "mhz"}, "mem_mb", "netns" (when given),
 *    "nics": [{"name", "driver", "speed_mbps", "mtu", "queues", "tx_queues", "mac"}],
 *    "tunables": {...}, "ppslab": "VERSION"}
 *
 * Linux: os.name and os.version are os-release's NAME and VERSION (PRETTY_NAME when
 * there is no VERSION), os.kernel the uname release, os.uname sysname, nodename,
 * release, version and machine; cpu.threads counts /proc/cpuinfo's processors,
 * cpu.cores is distinct "physical id"s × "cpu cores" (threads when cpuinfo does not say),
 * cpu.mhz the first "cpu MHz"; mem_mb is MemTotal. A NIC's driver is its link kind
 * ("veth", "bridge") or else its device's driver ("virtio_net", "ixgbe"; null for lo);
 * speed_mbps is /sys/class/net/IF/speed when positive (null for virtual links and links
 * that are down); queues and tx_queues are the receive and transmit queue counts.
 * tunables: "net.ipv4.ip_forward", "net.core.busy_poll", "net.core.netdev_budget"
 * (integers, as the namespace's /proc/sys shows them: null where the namespace has no
 * such entry) and "rps_cpus.IF" (the hex CPU mask of IF's rx-0, a string).
 * An interface that does not exist is listed with every value null and "error": what
 * ip(8) said ("Device \"x\" does not exist."); the box is still returned.
 *
 * On Linux from /etc/os-release, uname(2), /proc/cpuinfo, /proc/meminfo,
 * /proc/sys/kernel/random/boot_id and, per interface, `ip -d -j link show` run in the
 * box's namespace (veth has no /sys device driver link; the link kind names it). On the
 * BSDs from uname and sysctl (kern.osrelease, hw.model, hw.ncpu → threads, hw.clockrate,
 * hw.physmem, kern.boot_id, net.inet.ip.forwarding) and getifaddrs(3) (MTU, MAC,
 * baudrate); cores stay null there (telling them from threads needs
 * kern.sched.topology_spec) and there are no namespaces. A value that cannot be read is
 * null, never a guess.
 *
 * `ppslab env [--netns NS] [-i IF]... [--compact]` prints env_box() as JSON: that is how
 * ppslab run collects a remote box's environment over ssh. A missing interface is a
 * warning on stderr, not an error (status 0): the JSON says which value is unknown. */
#ifndef PPSLAB_ANALYSIS_RUNNER_ENVINFO_H
#define PPSLAB_ANALYSIS_RUNNER_ENVINFO_H

#include <jansson.h>

/* The box this process runs on, with interfaces ifaces[0..nifaces) looked up inside
 * netns (NULL: ours). Linux tunables of the namespace that matter for forwarding
 * (net.ipv4.ip_forward, net.core.busy_poll, rps of the ifaces) are put in "tunables".
 * New reference; never NULL except on allocation failure. */
json_t *env_box(const char *netns, char *const *ifaces, int nifaces);


#endif
