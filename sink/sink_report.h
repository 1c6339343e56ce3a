/* SPDX-License-Identifier: BSD-2-Clause */
/* sink_report.h — what ppslab-sink prints: the interval lines (a `netstat -w 1` style header:
 * packets, errs, idrops, bytes, then loss, reordering and latency p99) and the summary,
 * for people or as JSON Lines, plus the loss attribution both use.
 *
 * main.c samples the engine (sink_totals, sink_interval) and the interfaces' counters
 * and passes them here; nothing here touches a port or a worker. */
#ifndef PPSLAB_SINK_SINK_REPORT_H
#define PPSLAB_SINK_SINK_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hist.h"
#include "ifinfo.h"
#include "sink.h"

/* Where the missing frames went (bookkeeping, in the order of blame): the sender never
 * sent them (sequence numbers it reports as holes), the sink's own ring/socket dropped them (ring_drops: PACKET_STATISTICS, pcap_stats,
 * SO_RXQ_OVFL), else the host dropped them before any socket saw them (the interface's
 * rx_dropped + rx_missed_errors + rx_fifo_errors + rx_over_errors), else the network
 * lost them. Drop counters are not per stream and may include non-test frames, so each
 * share is capped by what is left to explain. */
struct loss_split {
	uint64_t lost_pkts;
	uint64_t sender_unsent_pkts;   /* numbers the sender claimed but never sent */
	uint64_t sink_dropped_pkts;
	uint64_t host_dropped_pkts;
	uint64_t network_lost_pkts;
};
void sink_report_loss_attribute(uint64_t lost, uint64_t sender_holes, uint64_t ring_drops,
		    uint64_t if_drops, struct loss_split *out);

/* Drops an interface counted before delivery (the em(4) "Missed Packets", "Receive No
 * Buffers", "RX overruns" analogues): the difference b − a. */
uint64_t sink_report_if_rx_drops(const struct if_counters *a, const struct if_counters *b);

struct rep_iface {
	char name[IFINFO_NAMESZ];
	bool ok;                      /* counters read at start and at the end */
	struct if_counters c0, c1;    /* at start, and latest */
};

struct sink_report_sample {             /* one reading, for interval deltas */
	struct sink_totals t;
	uint64_t if_drops, if_rx;
	uint64_t t_ns;
};

struct sink_report_cfg {
	bool json;
	uint64_t expect_all;
	int nexpect_files;
	const char *expect_error;      /* why --expect-from could not be used, or NULL */
	uint64_t interval_ns, duration_ns, idle_ns, warmup_ns, max_delay_ns, gap_min_ns;
	unsigned gap_list;
	const char *const *port_specs;
	int nports, nthreads;
	uint16_t dport;
	const char *vlan;              /* --vlan as given, or NULL */
};

void sink_report_header(FILE *f, const struct sink_report_cfg *c);
/* One interval line: deltas cur − prev; h is the interval's delay histogram; late is
 * how many workers missed the hand-off (their share comes later). */
void sink_report_interval(FILE *f, const struct sink_report_cfg *c, const struct sink_report_sample *cur,
		  const struct sink_report_sample *prev, const struct hist *h, int late,
		  uint64_t *lines);
/* The summary, after sink_finish. */
void sink_report_summary(FILE *f, const struct sink_report_cfg *c, struct sink *s, const struct sink_totals *t,
		 const struct rep_iface *ifs, int nifs, uint64_t dur_ns, int sig);

#endif
