/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_out.h — the listings of fw_show.c (`ipfw show`, `ipfw list`, a rule's body).
 * Internal to the firewall (fw_impl.h); not part of the contract (fw.h). */
#ifndef PPSLAB_RUT_FW_FW_OUT_H
#define PPSLAB_RUT_FW_FW_OUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw_impl.h"

/* ---- fw_show.c: listing ---- */
/* Appends the body of rule idx ("deny ip from any to 10.0.0.1") to buf. Returns the
 * length it needed (like snprintf). */
int fw_list_body(const struct fw *fw, int idx, char *buf, size_t len);
/* ipfw show/list of the rules (all when nnum == 0, else those numbered within the
 * ranges lo[i]..hi[i]) into out; counters with acct, ctime stamps with times; the
 * dynamic states after them with dyn 1 (-d), instead of them with 2 (-D).
 * Missing numbers are reported through d (-ENOENT, ex 69) after the others print. */
struct fw_out {
	char *buf;
	size_t len, used;
	size_t need;     /* bytes the output needed; > len - 1 means it was cut */
};
void fw_out_puts(struct fw_out *o, const char *s);
void fw_out_printf(struct fw_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends the body of rule idx to o. */
void fw_out_body(const struct fw *fw, int idx, struct fw_out *o);
/* dyn: 0, 1 (-d: rules and states), 2 (-D: states only), plus 4 (-e: expired in full) */
int fw_show(const struct fw *fw, bool acct, bool times, int dyn, const uint32_t *lo, const uint32_t *hi,
	    const int *col, int nnum, struct fw_out *o, struct fw_diag *d);

#endif
