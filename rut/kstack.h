/* SPDX-License-Identifier: BSD-2-Clause */
/* kstack.h — is the kernel's own IP stack also forwarding what arrives on a port?
 *
 * The forwarder reads frames with AF_PACKET, which taps them beside the kernel's stack:
 * if that namespace has IPv4 (or IPv6) forwarding on for the port, the kernel forwards every frame
 * a second time (each would arrive twice at the sink). The embedded lab's shield (an
 * nftables netdev ingress chain with policy drop, table "ppslab_shield") stops the
 * kernel from seeing them at all. For ports outside the lab main.c warns. */
#ifndef PPSLAB_RUT_KSTACK_H
#define PPSLAB_RUT_KSTACK_H

#include <stdbool.h>
#include <stddef.h>

/* True when the kernel forwards IPv4 or IPv6 arriving on ifname in this namespace
 * (/proc/sys/net/ipv4/conf/IF/forwarding or .../ipv6/... is 1) and no ppslab shield chain drops it
 * first. *why says which. */
bool kstack_forwards(const char *ifname, char *why, size_t len);

#endif
