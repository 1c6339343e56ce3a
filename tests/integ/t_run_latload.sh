#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_latload.sh — latency at load (docs/method.md#latency-at-load): an mlr search on
# ppslab-rut in poll mode, then a trial at 0, 10, 50, 90 and 100 % of the NDR found;
# asserted on the results file: every load present in order, each with its latency row
# for the case's frame size, figures non-negative and ordered (min ≤ median ≤ p99.9,
# PDV = p99.9 − min). Then an IMIX through the forwarder into ppslab-sink
# --delay-by-size: a row per IMIX size, and the rows account for every delay measured.
. "$(dirname "$0")/lib.sh"
P=$T/latload.json
cat >"$P" <<JSON
{ "description": "t_run_latload: NDR near pollhz 1000 × burst_max 10, then latency at load",
  "matrix": { "size": [128] },
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
eq "the case finished" "$(jq -r '.cases[0].status | . == "ok" or . == "flagged"' "$R")" true
# a search that found no NDR (a host so busy that even min_load lost frames) measures
# no load and says why: the checks below need the loads
why=$(jq -r '.cases[0].latency_at_load_skipped // empty' "$R")
if [ -n "$why" ]; then
	for d in "every load present" "loads at their share" "rows" "ordered" "PDV" "checks" \
		"trials apart" "metrics" "table"; do
		skip "latency at load: $d" "the run says: $why"
	done
else
eq "every load present, in the profile's order" \
	"$(jq -c '[.cases[0].latency_at_load[].load_pct]' "$R")" "[0,10,50,90,100]"
eq "each load at its share of the NDR (0 %: trial.min_load)" \
	"$(jq '.cases[0] as $c | [$c.latency_at_load[] | if .load_pct == 0 then .intended_pps == 1000
	   else ((.intended_pps - $c.metrics.ndr_pps * .load_pct / 100) | fabs) < 1 end] | all' "$R")" true
eq "each load has one row, for size 128, with delays measured" \
	"$(jq '[.cases[0].latency_at_load[] | (.latency | length == 1) and .latency[0].size == 128
	   and .latency[0].count > 0] | all' "$R")" true
eq "latencies non-negative and ordered: min <= median <= p99.9" \
	"$(jq '[.cases[0].latency_at_load[].latency[] | .min_ns >= 0 and .typical_ns >= .min_ns
	   and .worst_ns >= .typical_ns] | all' "$R")" true
eq "PDV = p99.9 - min" \
	"$(jq '[.cases[0].latency_at_load[].latency[] | .pdv_ns == .worst_ns - .min_ns] | all' "$R")" true
eq "each latency trial has its checks, kind latency" \
	"$(jq '[.cases[0].latency_at_load[].trial | .kind == "latency" and (.checks | length) > 0] | all' "$R")" true
eq "the search's trials are not mixed with them" \
	"$(jq '[.cases[0].trials[].kind] | index("latency")' "$R")" null
eq "the figures as case metrics: typical at 50 % of the NDR" \
	"$(jq '.cases[0] | .metrics["latload.50.p50_ns"] == .latency_at_load[2].latency[0].typical_ns' "$R")" true
eq "ppslab table shows the latency at load" \
	"$("$B/ppslab" table "$R" --latency --format csv | sed -n 2p | cut -d, -f3,4)" "0,128"
fi

# IMIX: a row per size, and the rows add up to the stream's delays measured
lab_up
start sink sink "$B/ppslab-sink" -i sink0 --duration 60 --delay-by-size --json
start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --json
wait_ready sink; wait_ready rut
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate 5k --count 3000 --size imix --json
finish gen 30
eq "gen exits 0" "$RC" 0
sink_done sink "$(sent gen)"
eq "sink exits 0" "$RC" 0
stop rut
S='.streams[0]'
eq "IMIX: one row per size, in the order first seen" \
	"$(jv sink "[$S.latency_by_size[].size] | sort | tostring")" "[64,594,1518]"
eq "IMIX: the rows account for every delay measured" \
	"$(jv sink "([$S.latency_by_size[].count] | add) == $S.latency_ns.count")" true
eq "IMIX: no size left unsplit" "$(jv sink "$S.latency_other_size_pkts")" 0
eq "IMIX: each size's delays ordered: min <= p50 <= p99.9, pdv = p99.9 - min" \
	"$(jv sink "[$S.latency_by_size[] | .min <= .p50 and .p50 <= .p999 and .pdv_p999 == .p999 - .min] | all")" true
done_testing
