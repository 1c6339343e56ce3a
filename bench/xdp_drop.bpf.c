/* SPDX-License-Identifier: BSD-2-Clause */
/* xdp_drop.bpf.c — the cheapest receiver: drops every frame in the driver (XDP).
 * Attached to the far end of a veth in benchmarks, so a sender is measured against a
 * peer that costs almost nothing (xdp-bench from xdp-tools 1.3 does not load on this
 * kernel). Built by bench/lib.sh with clang -target bpf. */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

SEC("xdp")
int xdp_drop(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
