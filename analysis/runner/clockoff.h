/* SPDX-License-Identifier: BSD-2-Clause */
/* clockoff.h — how far apart the sender's and the sink's clocks may be, measured once
 * when ppslab run starts, so one-way delays across two boxes are published only when
 * the clocks agree well enough (checks_latency_withheld()).
 *
 * The sink computes a frame's one-way delay from the sender's transmit timestamp and
 * its own receive time: on two boxes the difference of their clocks is added to every
 * delay. Per box (over ssh; a box on the control host shares its clock) one shell
 * command reports, without ppslab:
 *   sync  the time daemon's own estimate: `chronyc -c tracking` (|system time offset| +
 *         root delay / 2 + root dispersion) or, when ntpd runs, `ntpq -c rv` (the same
 *         from offset, rootdelay, rootdisp): a bound on the box's error against UTC;
 *   rtt   Cristian's round trip over the ssh connection: the control host writes a line
 *         and reads the box's `date +%s.%N`; of 8 samples the shortest round trip gives
 *         the offset against the control host, good to half that round trip (plus 1 s
 *         when the box's date has no %N).
 * The pair's bound (clockoff_pair()) is 0 when both boxes are on the control host or
 * report the same boot_id (one kernel clock); else the smaller of |rtt offset(sink) −
 * rtt offset(gen)| + both rtt bounds and, when both have a sync estimate, the sum of
 * those; NaN (unknown) when neither exists.
 *
 *   {"same_clock_as_control": true}   a box on the control host, or
 *   {"ssh": DEST, "sync": {"source": "chronyc"|"ntpq", "offset_ns", "bound_ns",
 *    "synchronised": bool} | null, "rtt": {"offset_ns", "bound_ns", "rtt_ns",
 *    "samples"} | null, "error": "..." (when nothing answered)} */
#ifndef PPSLAB_ANALYSIS_RUNNER_CLOCKOFF_H
#define PPSLAB_ANALYSIS_RUNNER_CLOCKOFF_H

#include <jansson.h>

#include "box.h"

/* The clock of box b against this host's (see above). New reference, never NULL
 * unless memory ran out. */
json_t *clockoff_box(const struct box *b);

/* The bound in ns on |clock(sink) − clock(gen)| from the two boxes' records and their
 * environments (boot_id), NaN when unknown; *method says how it was found. */
double clockoff_pair(const json_t *gen, const json_t *sink, const json_t *env_gen,
		     const json_t *env_sink, const char **method);

/* Parsers of the commands' output (for the unit tests): 0 or -EINVAL. */
int clockoff_parse_chronyc(const char *csv, double *offset_ns, double *bound_ns, int *synced);
int clockoff_parse_ntpq(const char *rv, double *offset_ns, double *bound_ns, int *synced);

#endif
