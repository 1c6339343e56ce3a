/* SPDX-License-Identifier: BSD-2-Clause */
/* fwlog.h — the firewall's log lines (`log` rules with net.inet.ip.fw.verbose=1) on
 * their way from the forwarding thread to stderr.
 *
 * fw_eval hands a line ("ipfw: 100 Deny UDP 198.18.0.2:9 198.19.0.2:9 in via rut0") to
 * fwlog_push on a forwarding thread, which must not block long: it is copied into a ring
 * of FWLOG_SLOTS lines (the producers, every forwarding thread, take turns through a
 * spinlock held for the copy; the one consumer takes none); the main thread drains it
 * between intervals to stderr, where BSD would have written syslog (LOG_SECURITY). A
 * full ring drops the line and counts it. */
#ifndef PPSLAB_RUT_FWLOG_H
#define PPSLAB_RUT_FWLOG_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define FWLOG_SLOTS 1024
#define FWLOG_LINE 192

struct fwlog {
	char line[FWLOG_SLOTS][FWLOG_LINE];
	_Atomic uint64_t head;      /* next slot the producer writes */
	_Atomic uint64_t tail;      /* next slot the consumer reads */
	_Atomic uint64_t lines, dropped;
	atomic_flag busy;           /* a producer is writing */
};

void fwlog_init(struct fwlog *l);
/* Producer (fw_log_fn): arg is the struct fwlog. */
void fwlog_push(void *arg, const char *line);
/* Consumer: writes every queued line to f (one per line); returns how many. */
int fwlog_drain(struct fwlog *l, FILE *f);

#endif
