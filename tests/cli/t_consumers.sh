#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_consumers.sh — the newer methods' results in table, report, plot, compare and --dry-run,
# on files made from tests/data by jq: a run without a swept axis (one cell, as a
# recovery, reset or back-to-back run on one router is) is a table of its metrics, not
# an error, and the report has a table for each of its metrics; an outage run's table
# and report headline show its recipe's time, its plot is the timeline; the table's
# footnote lists the file's deviations from RFC 2544 (none in CSV); a search goal whose
# name has "loss" in it is still a rate, higher-better in compare; and --dry-run counts
# an outage action's hook runs.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
D=$TOP/tests/data
T=$(mktemp -d /tmp/ppslab-t_consumers.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"

# a recovery run on one router: no axis, two repetitions of one cell
jq '.matrix.axes = {} | .method.outage.recipe = "recovery"
    | .cases = [.cases[0], .cases[0]] | .cases[1].rep = 2
    | .cases[] |= (.params = {} | .case_id = "all" | .metrics.outage_recovery_s = 0.05)' \
	"$D/outage.json" >"$T/rcv.json"
run "table of a file without a swept axis: exit 0" 0 "" "$B/ppslab" table "$T/rcv.json"
check "... one cell, its metrics a row each, the recovery time among them" \
	"$(grep -q '^one cell (no axis swept): 2 cases' "$T/out" &&
	   grep -qE '^outage_recovery_s +0\.05\* +2$' "$T/out"; echo $?)" "$(cat "$T/out")"
check "... the deviations from RFC 2544 as a footnote" \
	"$(grep -q '^Deviations from RFC 2544:' "$T/out" && grep -q '^  - 3 s trials instead of 60 s' "$T/out"; echo $?)" "$(tail -4 "$T/out")"
run "table --metric of such a file, CSV" 0 "" "$B/ppslab" table "$T/rcv.json" -m outage_recovery_s,outage_lost -f csv
check "... the metrics asked for, raw, no footnote in CSV" \
	"$([ "$(tr -d '\r' <"$T/out")" = "$(printf 'metric,median,n\noutage_recovery_s,0.05,2\noutage_lost,1997,2')" ]; echo $?)" "$(cat "$T/out")"
run "table --metric no case has: EX_USAGE" 64 "no case in .* has this metric" \
	"$B/ppslab" table "$T/rcv.json" -m nosuch_s

run "report of such a file" 0 "" "$B/ppslab" report "$T/rcv.json" -o "$T/rep"
check "... a table per metric, its one row the cell's (no 'no table')" \
	"$(! grep -q 'no table' "$T/rep/report.md" && grep -q '^### outage\\_recovery\\_s' "$T/rep/report.md" &&
	   grep -qE '^\| all +\| +0\.05(\\\*)? +\|$' "$T/rep/report.md"; echo $?)" "$(grep -n -A6 'outage\\_recovery' "$T/rep/report.md" | head -12)"
check "... its headline the recovery time, no polling bound concluded from the load it held" \
	"$([ "$(grep -m1 '^### ' "$T/rep/report.md")" = '### outage\_recovery\_s — recovery time (s)' ] &&
	   grep -q 'Measured:\*\* recovery time' "$T/rep/report.md" &&
	   ! sed -n '/^## Conclusion/,/^## Plots/p' "$T/rep/report.md" | grep -q 'polling'; echo $?)" \
	"$(sed -n '/^## Conclusion/,/^## Plots/p' "$T/rep/report.md" | head -5)"
if command -v gnuplot >/dev/null; then
	run "plot of an outage run without --kind: its timeline" 0 "" "$B/ppslab" plot "$T/rcv.json" -o "$T/p.png"
	check "... the timeline's t0 in its script" "$(grep -q "set label 1 't0' at 0" "$T/p.gp"; echo $?)"
else
	skip "plot of an outage run without --kind" "no gnuplot"
	skip "... the timeline's t0 in its script" "no gnuplot"
fi
jq 'del(.method.outage)' "$T/rcv.json" >"$T/one.json"
run "plot of one cell that is no outage: said, EX_USAGE" 64 "no axis was swept \\(one cell\\)" \
	"$B/ppslab" plot "$T/one.json" -o "$T/q.png"

# an outage run's table: the recipe's time unless a metric is asked for
run "table of an outage (timeline) run" 0 "" "$B/ppslab" table "$D/outage.json" -f csv
check "... outage_longest_s by default" "$(head -1 "$T/out" | grep -q outage_longest_s; echo $?)" "$(head -2 "$T/out")"
jq '.method.outage.recipe = "reset" | .cases[].metrics.outage_reset_s = 0.3' "$D/outage.json" >"$T/reset.json"
run "table of a reset run" 0 "" "$B/ppslab" table "$T/reset.json" -f md
check "... outage_reset_s by default, the deviations below it" \
	"$(head -1 "$T/out" | grep -q outage_reset_s && grep -q '^- 0.2 s settle instead of 2 s' "$T/out"; echo $?)" "$(cat "$T/out")"

# a goal named with "loss" in it is a rate: a lower one is no progression
jq '.method.goals[1].name = "LowLoss" | .cases[].metrics |= (.lowloss_pps = .pdr_pps | del(.pdr_pps))' \
	"$D/framesize.json" >"$T/ga.json"
jq '.cases[].metrics.lowloss_pps *= 0.5' "$T/ga.json" >"$T/gb.json"
run "compare of a goal named LowLoss" 0 "" "$B/ppslab" compare "$T/ga.json" "$T/gb.json" -o "$T/c.json"
check "... its rate is higher-better, half of it a regression" \
	"$(jqs -e '[.. | objects | select(.metric? == "lowloss_pps")] | length > 0 and
		all(.lower_is_better == false and .verdict == "REGRESSION")' "$T/c.json" >/dev/null; echo $?)" \
	"$(jq -c '[.. | objects | select(.metric? == "lowloss_pps") | [.lower_is_better, .verdict]]' "$T/c.json" | head -c 300)"
# --dry-run counts an outage action's hook, and the reset's reboot, in the router's hooks
printf '%s\n' '{"router": {"kind": "external", "reboot_hook": ["true"], "hook_estimate": "3s"},' \
	' "trial": {"method": "outage", "outage_recipe": "reset", "outage_load": "10k", "duration": "5s"},' \
	' "repetitions": 2, "rig": {"calibrate": false}}' >"$T/reset-dry.json"
run "--dry-run of a reset through the reboot hook" 0 "" "$B/ppslab" run "$T/reset-dry.json" --dry-run
check "... the reset a hook run of every case, in the hooks' time" \
	"$(grep -qE '^  reset \(reboot\) +every case, ~3 s$' "$T/out" &&
	   grep -q '^  hooks in all: 2 runs, about 6 s$' "$T/out"; echo $?)" "$(grep -A3 'router hooks' "$T/out")"
echo "1..$n"
