#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_latload.sh — latency at load (docs/method.md#latency-at-load): an mlr search on
# ppslab-rut in poll mode, then a trial at 0, 10, 50, 90 and 100 % of the NDR found;
# asserted on the results file: every load present in order, each with its latency row
# for the case's frame size, figures non-negative and ordered (min ≤ median ≤ p99.9,
# PDV = p99.9 − min); for an IMIX case a row per IMIX size at every load, the rows
# accounting for every delay the sink measured.
. "$(dirname "$0")/lib.sh"
P=$T/latload.json
cat >"$P" <<JSON
{ "description": "t_run_latload: NDR near pollhz 1000 × burst_max 10, then latency at load",
  "matrix": { "size": [128, "imix"] },
  "params": { "burst_max": 10, "mode": "poll", "pollhz": 1000 },
  "trial": { "method": "mlr", "warmup": "0.1s", "duration": "0.5s", "initial": "0.5s",
             "duration_sum": "0.5s", "phases": 0, "settle": "0.3s", "width": 0.1,
             "repeat_invalid": 0,
             "min_load": "1k", "max_load": "20k",
             "latency_loads": [0, 10, 50, 90, 100] },
  "rig": { "calibrate": false },
  "topology": { "kind": "netns", "lab": "$LAB" },
  "output": { "results": "$T/r.json" } }
JSON
"$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
eq "run exits 0" "$?" 0 || sed 's/^/# /' "$T/run.err"
R=$T/r.json
eq "both cases finished" "$(jq -r '[.cases[].status | . == "ok" or . == "flagged"] | all' "$R")" true
# a search that found no NDR (a host so busy that even min_load lost frames) measures
# no load and says why: the checks below need the loads
why=$(jq -r '[.cases[].latency_at_load_skipped // empty] | join("; ")' "$R")
if [ -n "$why" ]; then
	for d in "every load present" "loads at their share" "rows" "ordered" "PDV" "checks" \
		"trials apart" "metrics" "table" "IMIX rows" "IMIX books" "IMIX metrics"; do
		skip "latency at load: $d" "the run says: $why"
	done
else
eq "every load present in both cases, in the profile's order" \
	"$(jq -c '[.cases[] | [.latency_at_load[].load_pct]] | unique' "$R")" "[[0,10,50,90,100]]"
eq "each load at its share of the NDR (0 %: trial.min_load)" \
	"$(jq '.cases[0] as $c | [$c.latency_at_load[] | if .load_pct == 0 then .intended_pps == 1000
	   else ((.intended_pps - $c.metrics.ndr_pps * .load_pct / 100) | fabs) < 1 end] | all' "$R")" true
eq "each load has one row, for size 128, with delays measured" \
	"$(jq '[.cases[0].latency_at_load[] | (.latency | length == 1) and .latency[0].size == 128
	   and .latency[0].count > 0] | all' "$R")" true
eq "latencies non-negative and ordered: min <= median <= p99.9" \
	"$(jq '[.cases[].latency_at_load[].latency[] | .min_ns >= 0 and .typical_ns >= .min_ns
	   and .worst_ns >= .typical_ns] | all' "$R")" true
eq "PDV = p99.9 - min" \
	"$(jq '[.cases[].latency_at_load[].latency[] | .pdv_ns == .worst_ns - .min_ns] | all' "$R")" true
eq "each latency trial has its checks, kind latency" \
	"$(jq '[.cases[].latency_at_load[].trial | .kind == "latency" and (.checks | length) > 0] | all' "$R")" true
eq "the search's trials are not mixed with them" \
	"$(jq '[.cases[0].trials[].kind] | index("latency")' "$R")" null
eq "the figures as case metrics: typical at 50 % of the NDR" \
	"$(jq '.cases[0] | .metrics["latload.50.p50_ns"] == .latency_at_load[2].latency[0].typical_ns' "$R")" true
eq "ppslab table shows the latency at load" \
	"$("$B/ppslab" table "$R" --latency --format csv | sed -n 2p | cut -d, -f3,4)" "0,128"
# the IMIX case: a row per IMIX size at every load, adding up to the sink's delays
I='.cases[] | select(.params.size == "imix")'
eq "IMIX: every load has a row per size, 64, 594 and 1518" \
	"$(jq -c "[$I | .latency_at_load[] | [.latency[].size] | sort] | unique" "$R")" '[[64,594,1518]]'
eq "IMIX: each load's rows account for every delay the sink measured" \
	"$(jq "[$I | .latency_at_load[] | ([.latency[].count] | add) ==
	   (.trial.sink[0].streams[0].latency_ns.count)] | all" "$R")" true
eq "IMIX: per-size metrics, e.g. the typical latency of 594-byte frames at 50 %" \
	"$(jq "$I | .metrics[\"latload.50.s594.p50_ns\"] == (.latency_at_load[2].latency[] | select(.size == 594) | .typical_ns)" "$R")" true
fi

done_testing
