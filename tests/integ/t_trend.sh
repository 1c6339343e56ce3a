#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_trend.sh — ppslab trend on a real series from the lab: one profile run three times
# as three "versions" of the forwarder (r1, r2, r10), the third with half the polling
# clock, so the cell whose rate the clock caps (pollhz × burst_max below the offered
# 15,000 pps) halves and the cell offered 2,000 pps does not change. trend, given the
# files out of order, sorts the versions naturally, finds that one change where it was
# planted and no other, plots each cell, and fails a nightly gate (--fail-on
# regression). Three runs of two cells × three repetitions of 1 s: about 35 s. Three
# repetitions, not two: on a loaded machine one repetition may lose polls (a fifth of
# its rate), and the change must still stand out of the repetitions' spread.
. "$(dirname "$0")/lib.sh"
P=$T/version.json
cat >"$P" <<JSON
{ "description": "r1",
  "matrix": { "offered": ["2k", "15k"] },
  "params": { "burst_max": 20, "mode": "poll", "pollhz": 500 },
  "repetitions": 3,
  "trial": { "method": "fixed", "warmup": "0.3s", "duration": "1s", "settle": "0.2s" },
  "topology": { "kind": "netns", "lab": "$LAB" },
  "router": { "rt_prio": 5, "ring": 256 },
  "rig": { "calibrate": false, "direct": false },
  "output": { "results": "$T/r1.json" } }
JSON
# the version is the profile's description; the forwarder of r10 polls at 250 Hz: a
# ceiling of 250 × 20 = 5,000 pps instead of 10,000 (a small ring: no backlog from one
# trial drains into the next)
for v in r1:500 r2:500 r10:250; do
	"$B/ppslab" run "$P" -q --no-table --set "description=${v%:*}" --set "pollhz=${v#*:}" \
		-o "$T/${v%:*}.json" >"$T/run-${v%:*}.out" 2>&1 ||
		bail "ppslab run ${v%:*}: $(tail -n 5 "$T/run-${v%:*}.out")"
done
eq "three complete runs" "$(jq -s 'map(.complete) | all' "$T/r1.json" "$T/r2.json" "$T/r10.json")" true
# the change is in the data: r10 forwards about half of r1 (a loaded machine costs the
# forwarder polls, so the rates themselves may fall short of the ceilings)
med() { jq '[.summary[] | select(.params.offered == "15k" and .metric == "fwd_pps")][0].median' "$1"; }
within "r10 forwards about half of what r1 does where the clock caps the rate" \
	"$(awk -v a="$(med "$T/r10.json")" -v b="$(med "$T/r1.json")" 'BEGIN { print a / b }')" 0.4 0.62
within "r1 near its 10,000 pps ceiling" "$(med "$T/r1.json")" 7000 10500

"$B/ppslab" trend "$T/r10.json" "$T/r2.json" "$T/r1.json" --label profile.description \
	-o "$T/trend.json" --plot "$T/trend.png" --fail-on regression >"$T/trend.out" 2>"$T/trend.err"
eq "trend --fail-on regression exits 1: the newest version regressed" "$?" 1
check "the gate names the cell" grep -q "1 cell(s) whose newest group regressed: offered=15k fwd_pps" "$T/trend.err"
eq "versions sorted naturally, whatever the order of the files" \
	"$(jq -r '[.runs[].label] | join(" ")' "$T/trend.json")" "r1 r2 r10"
eq "one change in all, in the capped cell, at r10" \
	"$(jq -r '[.series[] | .key as $k | .changes[] | "\($k) \(.verdict) \(.at_label)"] | join("; ")' "$T/trend.json")" \
	"offered=15k REGRESSION r10"
within "its ratio is about one half" \
	"$(jq '.series[] | select(.key == "offered=15k") | .changes[0].ratio' "$T/trend.json")" 0.4 0.62
eq "the capped cell: r1 and r2 one group, r10 another" \
	"$(jq -r '.series[] | select(.key == "offered=15k") | [.groups[] | "\(.first_label)-\(.last_label)"] | join(" ")' "$T/trend.json")" \
	"r1-r2 r10-r10"
eq "the cell offered 2,000 pps: one group" \
	"$(jq '.series[] | select(.key == "offered=2k") | .groups | length' "$T/trend.json")" 1
# (a '*' after the cell: some repetition was flagged, as a loaded machine may cause)
if grep -qE "^offered=15k\*?  +fwd_pps  +3  .*REGRESSION 0\.[0-9]+ \[.*\] at r10" "$T/trend.out"; then
	ok "the text table says where"
else
	not_ok "the text table says where" "$(grep -A1 "^cell\|^offered=15k" "$T/trend.out" | tr '\n' '|')"
fi
for c in 2k 15k; do
	check "a plot of offered=$c with its .gp and .dat" test -s "$T/trend-offered_$c.png" -a -s "$T/trend-offered_$c.gp" \
		-a -s "$T/trend-offered_$c.dat"
done
check "the change is drawn in the capped cell's plot" grep -q "with vectors" "$T/trend-offered_15k.gp"
done_testing
