/* SPDX-License-Identifier: BSD-2-Clause */
/* xdp_owner.h — whether an XDP program left on an interface is a leftover: the project's
 * own program (by name) that no live process holds open any more. Used by the xdp: port
 * (lib/port_xdp.c) before it attaches, and by `ppslab lab up` (analysis/runner/lab.c).
 *
 * An xdp: port keeps a descriptor of its XDP program while open; the kernel keeps the
 * program attached after the process dies (a netlink attachment is not tied to any
 * descriptor). So "attached, ours, held by nobody" means a ppslab tool ended without
 * detaching (SIGKILL, crash). Holders are found through /proc/PID/fdinfo, which
 * shows "prog_id:" for program and link descriptors; processes in another PID namespace
 * are not visible there. Needs no libbpf. */
#ifndef PPSLAB_LIB_XDP_OWNER_H
#define PPSLAB_LIB_XDP_OWNER_H

#include <stdbool.h>
#include <stdint.h>

/* The name (bpf_prog_info.name, at most 15 characters) of the program xdp: ports attach. */
#define XDP_OWNER_PROG "ppslab_xsk"

/* The PID of a process other than `except` (pass getpid() when the caller itself has
 * the program open to look at it) holding BPF program prog_id open, 0 if none. */
int xdp_prog_holder(uint32_t prog_id, int except);
/* True if an attached program named `name` with id prog_id is a leftover: it is the
 * xdp: ports' program (XDP_OWNER_PROG) and no process but `except` holds it. Other
 * programs are never leftovers, not even the benchmarks' xdp_drop: ip(8) attaches it
 * without holding it, so a live benchmark's drop looks exactly like a forgotten one. */
bool xdp_prog_leftover(const char *name, uint32_t prog_id, int except);

#endif
