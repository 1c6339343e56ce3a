/* SPDX-License-Identifier: BSD-2-Clause */
/* checks.h — "are you sure the ruleset is being executed?": the consistency checks of
 * every trial of ppslab run, as pure functions on the trial's JSON record, and the
 * verdict on latency across two clocks.
 *
 * A trial record (docs/results-schema.md, cases[].trials[]) holds what the components
 * printed: "gen": [each sender's --json summary], "sink": [each sink's summary],
 * "rut": the forwarder's counters over the trial (ctl stats deltas, same field names as
 * its summary; absent for an external router without a read hook), and
 * "intended_pps", "duration_s". checks_run() appends to the record:
 *
 *   "checks": [{"name": "...", "ok": true|false, "detail": "numbers behind it"}]
 *   "flags":  ["reason", ...]      one per failed check (a flagged trial)
 *
 * The checks (each skipped, not failed, when the numbers it needs are absent):
 *  1 offered load:   each sender's achieved rate within ctx->rate_tol (0.5 %) of its
 *                    target ("rate_ok" and "rate_err_pct" of its summary);
 *  2 sent = received + lost: per stream, the sink's rx + lost equals what the sender
 *                    sent (its tx_pkts for that stream id, warm-up excluded);
 *  3 sink clean:     no test frame in an error class (err_pkts = 0), sink own drops 0;
 *  4 sinks saw the traffic: every sink counted at least one test frame when its sender
 *                    sent at least one and nothing was meant to be dropped entirely
 *                    (a sink that stopped early must not record 0 pps as a result);
 *  5 forwarder adds up: rut rx_pkts = fwd_pkts + drop_pkts over the trial;
 *  6 forwarder vs sink: frames forwarded toward the sinks ≥ frames the sinks counted
 *                    (a sink cannot receive more than was forwarded);
 *  7 ruleset executed: with the firewall on, updating counters and at least one rule
 *                    besides 65535, the rules' packet counters over the trial add up
 *                    to at least the frames the forwarder read (every frame matched some
 *                    rule); with update_counters = 0 they must not move at all;
 *  8 components ok:  every component exited 0 (the record's "exit" object: name →
 *                    status), none timed out;
 *  9 forwarded <= offered: "fwd_rate_pps" at most "offered_pps" × (1 + rate_tol) +
 *                    "fwd_rate_res_pps" (the rate's resolution: counter quantum and
 *                    read times): a router cannot forward more than it is offered (a
 *                    sender that "skipped" or "shifted_ns" after a stall counts at its
 *                    "nominal_pps": its gaps were kept, its average is lower);
 * 10 fwd_pps method: "fwd_rate_from" is RES_FWD_WINDOW, the receiving interfaces'
 *                    counters over the load window; the fallback (test frames / the
 *                    sender's time) fails it with "fwd_rate_fallback", the reason;
 * 11 poll clock kept time: in poll mode, at most 1 % of the forwarder's tick deadlines
 *                    passed without a tick of their own (polling.clock_skips against
 *                    polling.ticks): a late tick fires once, so the host's delays cost
 *                    rounds, and the rate falls below what the kernel would forward;
 *                    and at most 0.1 % of the ticks (polling.unsure_polls against
 *                    polling.ticks, when the forwarder prints it) lost their poll in a
 *                    round the host may have slowed (lost_polls that may be the host's).
 * 12 sender kept pace: every paced sender's largest burst ("burst_max": frames
 *                    closer than a quarter of its nominal gap) is at most ctx->max_burst
 *                    frames, and its time behind schedule ("behind_ns") at most
 *                    ctx->max_behind of the trial's "duration_s"; where not, it fails
 *                    when that may have changed the answer: a burst when frames were
 *                    lost ("tx_frames" > "rx_frames": the loss may be the burst's), time
 *                    behind when none were (less load was offered than asked). ppslab
 *                    run repeats such a trial (check_pace_failed).
 * 13 only this trial's frames: every sink was told the trial's epoch ("epoch"; a sink
 *                    without one is not judged), and it fails when frames of an
 *                    earlier trial arrived after this one's first frame was sent
 *                    ("stale_overlap_ns" > 0: the router still forwarded them while
 *                    this load ran) and the trial lost frames, no more than came so
 *                    ("stale_load_pkts"; any when the sink could not count them all):
 *                    the loss may be their backlog's, a frame for a frame
 *                    (check_stale_spoiled; ppslab run repeats such a trial as check
 *                    12's; one that lost more lost frames without them too), or when a stream was numbered at or beyond what
 *                    its sender sent ("beyond_expect": the books cannot be right), or
 *                    when a sink received stale frames and none of this trial's
 *                    ("rx_pkts" 0, "stale_overlap_ns" null: whether they shared the
 *                    router with the load cannot be said; flagged, not repeated).
 *                    The frames of an earlier trial ("stale_pkts") and this one's
 *                    duplicates ("dup_pkts") are never counted as received; the
 *                    detail says how many there were.
 *
 * The router's counters ("rut") are ppslab-rut's stats, or an external router's read
 * hook counters (dut.h: rx_pkts, fwd_pkts, drop_pkts, rules, drops); ctx->router words
 * the reason a check is skipped without them.
 *
 * The fields read, as the tools print them:
 *  gen[]:  "stream", "test_pkts" + "seq_holes" (what the sender numbered; "tx_pkts" when
 *          test_pkts is absent, as the sink's --expect-from does), "rate_error_pct",
 *          "shortfall_pct" (check 1 fails when |rate_error_pct| or −shortfall_pct exceeds
 *          100 × rate_tol; a sender with neither, e.g. unpaced, is judged by "rate_ok");
 *  sink[]: "rx_pkts", "err_pkts", "ring_drops", "streams"[]{"stream", "rx_pkts",
 *          "lost_pkts", "first_seq"} (check 2 compares sent with rx + lost + first_seq:
 *          numbers below a stream's floor were not measured by the sink);
 *  rut:    "rx_pkts", "fwd_pkts", "drop_pkts", "drops"{"malformed", "not_ip4"} (frames
 *          dropped before the firewall, subtracted in check 7), "rules"[]{"number",
 *          "pkts"} (deltas over the trial; every rule including 65535), "polling"{
 *          "ticks", "clock_skips", "lost_polls", "unsure_polls"} (deltas; check 11 is
 *          skipped when ticks and clock_skips are 0);
 *  exit:   {"gen": 0, "sink": 0, "rut": 0, ...}: an integer exit status (128 + N: killed
 *          by signal N), or a string saying what happened instead ("timeout" when it was
 *          killed at its time limit); anything but 0 fails check 8.
 * Check 4 compares each sink with the senders of the streams it lists (all senders when
 * it lists none); with expect_total_loss it is skipped, and check 2 accepts a stream no
 * sink reported.
 *
 * A check is recorded {"name", "ok": true|false, "detail"}; a check whose inputs are
 * absent (no sender summary, no forwarder record, firewall off, ...) is recorded with
 * "ok": null and "detail": "skipped: WHY" and is not a failure. Each failed check adds
 * "NAME: DETAIL" to "flags". Check names: "offered load", "sent = received + lost",
 * "sink clean", "sinks saw the traffic", "forwarder adds up", "forwarder vs sink",
 * "ruleset executed", "components ok", "forwarded <= offered", "fwd_pps method",
 * "poll clock kept time", "sender kept pace", "only this trial's frames" (always all
 * thirteen, in this order).
 */
#ifndef PPSLAB_ANALYSIS_RUNNER_CHECKS_H
#define PPSLAB_ANALYSIS_RUNNER_CHECKS_H

#include <jansson.h>
#include <stdbool.h>

#include "results.h"


enum check_router { CHECK_RUT, CHECK_EXTERNAL, CHECK_NONE };

struct check_ctx {
	double rate_tol;        /* fraction, default 0.005 */
	enum check_router router;   /* what "rut" comes from (default ppslab-rut) */
	bool firewall;          /* the forwarder's firewall is on for this trial */
	bool update_counters;   /* net.inet.ip.fw.update_counters */
	unsigned rules;         /* rules loaded besides 65535 */
	bool expect_total_loss; /* e.g. a deny-all rule set: check 4 does not apply */
	unsigned max_burst;     /* check 12: frames (0: CHECK_MAX_BURST) */
	double max_behind;      /* check 12: fraction of the trial (≤ 0: CHECK_MAX_BEHIND) */
	bool burst;             /* a burst of N frames (b2b): no load window, check 10 skips */
};

#define CHECK_PACE "sender kept pace"
#define CHECK_STALE "only this trial's frames"
#define CHECK_MAX_BURST 64
#define CHECK_MAX_BEHIND 0.01

/* Appends "checks" and "flags" to trial (replacing earlier ones). ctx NULL: the
 * defaults (rate_tol 0.005, firewall off); rate_tol ≤ 0 means 0.005. Returns the number
 * of failed checks (0: all passed or skipped), -EINVAL when trial is not an object, or
 * -ENOMEM. */
int checks_run(json_t *trial, const struct check_ctx *ctx);

/* After checks_run: true when the trial's "sender kept pace" check failed (the trial
 * offered other traffic than was asked for, and it may have changed the answer); why
 * gets "burst", "behind" or "burst, behind". */
bool check_pace_failed(const json_t *trial, char *why, size_t len);

/* True when the trial is spoiled by an earlier trial's frames (check 13): a sink saw
 * frames of another epoch arrive after this trial's first frame was sent
 * ("stale_overlap_ns" > 0) and the trial lost frames, no more than so many
 * ("stale_load_pkts"), or its counts are absent. */
bool check_stale_spoiled(const json_t *trial);

/* Latency across two clocks: true (withhold lat_*) when the sink's delays are not valid
 * (delay_valid false: negative or implausible delays), when the bound on the sender's
 * and sink's clock difference is unknown (NaN) or larger than frac × the median
 * one-way delay; why says which, with the numbers. False when p50_ns is NaN (no
 * latency) or the bound is small enough. */
bool checks_latency_withheld(double bound_ns, double p50_ns, double frac, bool delay_valid,
			     char *why, size_t len);

#endif
