/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_tab.h — the built-in names of fw_tab.c (protocols, services, ICMP unreachable
 * codes; no /etc/protocols or /etc/services needed).
 * Internal to the firewall (fw_impl.h); not part of the contract (fw.h). */
#ifndef PPSLAB_RUT_FW_FW_TAB_H
#define PPSLAB_RUT_FW_FW_TAB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw_impl.h"

/* ---- fw_tab.c: built-in names (no /etc/protocols or /etc/services needed) ---- */
int fw_proto_by_name(const char *name);             /* -1 if unknown */
const char *fw_proto_name(int proto);               /* NULL if unnamed */
int fw_service_port(const char *name);              /* -1 if unknown */
int fw_unreach_code(const char *name);              /* -1 if unknown */
const char *fw_unreach_name(int code);              /* NULL above 15 */
int fw_unreach6_code(const char *name);             /* -1 if unknown */
const char *fw_unreach6_name(int code);             /* NULL but for 0, 1, 3, 4 */

#endif
