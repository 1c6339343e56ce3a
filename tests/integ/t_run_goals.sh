#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_goals.sh — an mlr search with three goals (trial.goals) in a private lab, one
# of them latency-bounded, asserting on the results file: every goal listed with its
# attributes, its result and its metric; every trial of the search carries its late
# count per latency bound, consistent with the trial's books; the latency goal, NDR's
# criterion plus a bound on the same trials, never lands above NDR's upper bound; and
# the table, compare and the report show every goal by name. (The latency goal's known
# answer, ppslab-rut's poll knee, is in tests/unit/analysis/t_search.c: on a busy host
# the forwarder's scheduling delay reaches milliseconds below the knee.)
. "$(dirname "$0")/lib.sh"
P=$T/goals.json
cat >"$P" <<JSON
{ "description": "t_run_goals: NDR, PDR and a 20 ms latency goal from one search",
  "matrix": { "burst_max": [20] },
  "params": { "pollhz": 1000, "mode": "poll" },
  "trial": { "method": "mlr", "initial": "0.5s", "duration": "0.5s", "phases": 0,
             "min_load": "5k", "max_load": "30k", "warmup": "0.2s", "settle": "0.2s",
             "max_trials": 30, "max_behind": 0.3, "max_burst": 100000,
             "goals": [ { "name": "NDR", "width": 0.02 },
                        { "name": "PDR", "loss_ratio": 0.005, "width": 0.02 },
                        { "name": "Lat20ms", "latency": "20ms", "width": 0.02 } ] },
  "topology": { "kind": "netns", "lab": "$LAB" },
  "router": { "rt_prio": 5, "ring": 1024 },
  "output": { "results": "$T/r.json" } }
JSON
"$B/ppslab" run "$P" --dry-run >"$T/dry.out" 2>&1
eq "--dry-run exits 0" "$?" 0
check "--dry-run lists the goals" grep -q "goals NDR: loss 0%.*; Lat20ms: loss 0% (later than 20000 us counts)" "$T/dry.out"
check "--dry-run estimates the time" grep -q "^estimated time: about" "$T/dry.out"

"$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
eq "run exits 0" "$?" 0
R=$T/r.json
# a host too busy for the sender to keep pace spoils a search (the run says so): the
# goals are then still listed, but there are no results to check
spoiled=$(jq -r '.cases[0] | select(.status == "failed") | .error // "" | select(test("spoiled by the sender"))' "$R")
if [ -n "$spoiled" ]; then
	eq "method.goals: the three, in order" "$(jq -c '[.method.goals[].name]' "$R")" '["NDR","PDR","Lat20ms"]'
	skip "the search's results" "the run says the host spoiled it: $spoiled"
	done_testing
	exit 0
fi
eq "the case finished" "$(jq -r '.cases[0].status | . == "ok" or . == "flagged"' "$R")" true
eq "method.goals: the three, in order" "$(jq -c '[.method.goals[].name]' "$R")" '["NDR","PDR","Lat20ms"]'
eq "method.goals: the latency goal's bound and durations" \
	"$(jq -c '.method.goals[2] | [.latency_ns, .final_s, .duration_sum_s, .loss_ratio]' "$R")" '[20000000,0.5,0.5,0]'
eq "a result per goal" "$(jq -c '.cases[0].results | [has("NDR"), has("PDR"), has("Lat20ms")]' "$R")" '[true,true,true]'
eq "a metric per goal" "$(jq -c '.cases[0].metrics | [has("ndr_pps"), has("pdr_pps"), has("lat20ms_pps")]' "$R")" '[true,true,true]'
eq "every search trial has one late count, for the 20 ms bound" \
	"$(jq '[.cases[0].trials[] | select(.repeated | not) | (.late_frames | length == 1 and .[0].bound_ns == 20000000)] | all' "$R")" true
# the books of a late count: counted frames are received ones (or implausible delays,
# 0 here), and "surely" (buckets wholly above the bound) never exceeds it
eq "late counts within the books: surely <= frames <= rx" \
	"$(jq '[.cases[0].trials[] | select(.repeated | not) | .late_frames[0] as $l
		| ($l.frames | type) == "number" and $l.surely <= $l.frames and $l.frames <= .rx_frames] | all' "$R")" true
# the sink's buckets stay out of the results: the trial's latency_ns and the sinks'
# summaries in it as before
eq "no histogram buckets in the trials' latency_ns" \
	"$(jq '[.cases[0].trials[].latency_ns | has("buckets") | not] | all' "$R")" true
eq "no histogram buckets in the sinks' summaries the trials keep" \
	"$(jq '[.cases[0].trials[].sink[] | .latency_ns | objects | has("buckets") | not] | all' "$R")" true
# Lat20ms is NDR's criterion (loss 0) and a bound, judged on the same trials with the
# same durations: a load that is an upper bound for NDR is one for it too
eq "the latency goal's upper bound is not above NDR's" \
	"$(jq '.cases[0].results as $r | ($r.Lat20ms.rub_pps == 0 and $r.NDR.rub_pps == 0)
		or ($r.Lat20ms.rub_pps > 0 and ($r.NDR.rub_pps == 0 or $r.Lat20ms.rub_pps <= $r.NDR.rub_pps))' "$R")" true
eq "a trial asked for by one goal decides the others: one set of trials" \
	"$(jq '.cases[0].results | [.NDR.trials, .PDR.trials, .Lat20ms.trials] | unique | length' "$R")" 1
"$B/ppslab" compare "$R" "$R" --format csv >"$T/cmp.csv" 2>"$T/cmp.err"
eq "compare exits 0" "$?" 0
eq "compare takes every goal's rate by default" \
	"$(cut -d, -f1-4 "$T/cmp.csv" | grep -o 'ndr_pps\|pdr_pps\|lat20ms_pps' | sort -u | tr '\n' ' ')" "lat20ms_pps ndr_pps pdr_pps "
"$B/ppslab" table "$R" --metric ndr_pps,pdr_pps,lat20ms_pps --format csv >"$T/t.csv" 2>"$T/t.err"
eq "table exits 0" "$?" 0
eq "table: a column per goal, the latency goal's a rate" \
	"$(awk -F, 'NR == 2 { print NF, ($4 > 0) }' "$T/t.csv")" "4 1"
"$B/ppslab" report "$R" -o "$T/rep" --no-plots >"$T/rep.out" 2>&1
eq "report exits 0" "$?" 0
check "report tabulates the latency goal's rate" grep -q "lat20ms_pps" "$T/rep/report.md"
check "report lists the latency goal as a deviation from RFC 2544" \
	grep -q "Goal Lat20ms counts a frame later than 20000 us as lost" "$T/rep/report.md"
done_testing
