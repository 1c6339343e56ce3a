#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_outage_cli.sh — the outage method from the command line, without root: its profile
# errors at FILE:LINE:COLUMN (all of them, EX_DATAERR, nothing on stdout); --dry-run
# saying what it does; `ppslab plot --kind timeline` on tests/data/outage.json (a real
# run's file: ppslab-rut paused 250 ms at 10,000 pps, intr and poll mode) with real
# gnuplot, a hostile cell label escaped, and a file without an outage case named;
# table and compare taking its metrics.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
D=$TOP/tests/data
T=$(mktemp -d /tmp/ppslab-t_outage_cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
F=$D/outage.json

# the profile's errors, each placed, all at once
printf '%s\n' '{"trial": {"method": "outage", "duration": 2,' \
	' "outage_load": "150%", "outage_at": 2,' \
	' "outage_action": {"ctl": ["pause"], "hook": ["x"]}}}' >"$T/bad.json"
run "a bad outage profile: EX_DATAERR" 65 "" "$B/ppslab" run "$T/bad.json" --dry-run
check "... nothing on stdout" "$([ ! -s "$T/out" ]; echo $?)" "$(head -3 "$T/out")"
check "... the load at FILE:2:17" "$(grep -qF "$T/bad.json:2:17: trial.outage_load: expected a percentage of the NDR above 0 and at most 100 %" "$T/err"; echo $?)" "$(cat "$T/err")"
check "... the instant at FILE:2:38" "$(grep -qF "$T/bad.json:2:38: trial.outage_at: the action must come within the trial" "$T/err"; echo $?)" "$(cat "$T/err")"
check "... the action at FILE:3:19" "$(grep -qF "$T/bad.json:3:19: trial.outage_action: expected one of \"ctl\", \"hook\" and \"rules\", got several" "$T/err"; echo $?)" "$(cat "$T/err")"
printf '%s\n' '{"router": {"kind": "none"}, "trial": {"method": "outage",' \
	' "outage_load": "10k", "outage_action": {"hook": ["true", "{nosuchaxis}"]}}}' >"$T/bad2.json"
run "an action with no router, a hook naming no axis: EX_DATAERR" 65 "" "$B/ppslab" run "$T/bad2.json" --dry-run
check "... both said where" "$(grep -qF "$T/bad2.json:2:24: trial.outage_action: needs a router to act on" "$T/err" &&
	grep -q "$T/bad2.json:2:.*trial.outage_action.hook\[1\]: " "$T/err"; echo $?)" "$(cat "$T/err")"
printf '%s\n' '{"trial": {"method": "outage", "outage_recipe": "recovery",' \
	' "outage_load": "100%", "outage_action": {"ctl": ["pause", "1"]}}}' >"$T/bad3.json"
run "a recovery with an action (its event is the load's drop): EX_DATAERR" 65 "" "$B/ppslab" run "$T/bad3.json" --dry-run
check "... said where" "$(grep -qF "$T/bad3.json:2:25: trial.outage_action: does not apply to outage_recipe \"recovery\"" "$T/err"; echo $?)" "$(cat "$T/err")"
printf '%s\n' '{"trial": {"method": "outage", "outage_recipe": "recovery", "outage_load": "100%",' \
	' "duration": "5s", "outage_at": "3s", "max_load": "100k"}, "rig": {"calibrate": false}}' >"$T/rcv.json"
run "--dry-run of a recovery profile" 0 "" "$B/ppslab" run "$T/rcv.json" --dry-run
check "--dry-run: an rfc2544 search first, then 110 % of its NDR, then half that" \
	"$(grep -q "outage (recovery) at 100 % of the NDR an rfc2544 search finds as the throughput: 110 % of it for 3 s, then half that" "$T/out"; echo $?)" "$(cat "$T/out")"

# --dry-run: what the method does and its time
printf '%s\n' '{"trial": {"method": "outage", "outage_load": "90%", "duration": "5s",' \
	' "outage_at": "2s", "outage_action": {"rules": 20000}, "max_load": "100k"},' \
	' "rig": {"calibrate": false}}' >"$T/ok.json"
run "--dry-run of an outage profile" 0 "" "$B/ppslab" run "$T/ok.json" --dry-run
check "--dry-run: an rfc2544 search first, then the action" \
	"$(grep -q "outage (timeline) at 90 % of the NDR an rfc2544 search finds, the action 2 s into the trial: 20000 rules loaded" "$T/out"; echo $?)" "$(cat "$T/out")"
check "--dry-run: its time" "$(grep -q '^estimated time: about' "$T/out"; echo $?)"

# the table and compare take its metrics
run "table --metric outage_*" 0 "" "$B/ppslab" table "$F" --metric outage_longest_s,outage_loss_over_load_s --format csv
want=$(jq -r '[.cases[] | .params.mode, (.metrics.outage_lost / 10000 | tostring)] | join(" ")' "$F")
check "table: loss / load per mode is the frames lost over the rate ($want)" \
	"$([ "$(sed 1d "$T/out" | tr -d '\r' | cut -d, -f1,3 | tr ',\n' '  ' | sed 's/ $//')" = "$want" ]; echo $?)" "$(cat "$T/out")"
run "compare lists the outage metrics by default" 0 "" "$B/ppslab" compare "$F" "$F" -f csv
check "compare: outage_longest_s and loss / load" \
	"$(grep -q outage_longest_s "$T/out" && grep -q outage_loss_over_load_s "$T/out"; echo $?)" "$(head -5 "$T/out")"

# the figure: real gnuplot, a row per case and stream, the longest marked
if command -v gnuplot >/dev/null; then
	run "plot --kind timeline: PNG" 0 "" "$B/ppslab" plot "$F" --kind timeline -o "$T/t.png"
	check "plot --kind timeline: a PNG of some size" "$([ "$(stat -c %s "$T/t.png" 2>/dev/null || echo 0)" -gt 5000 ]; echo $?)"
	check "plot --kind timeline: the trials, the gaps, the longest and the recovery, four blocks" \
		"$([ "$(grep -c '^# ' "$T/t.dat")" = 4 ]; echo $?)" "$(cat "$T/t.dat")"
	check "plot --kind timeline: no recovery time, no recovery mark" \
		"$(! grep -q 'recovery' "$T/t.gp"; echo $?)" "$(tail -3 "$T/t.gp")"
	# the recovery recipe (RFC 2544 section 26.5): its B, the recovery time after A (t0)
	jq '.cases[0].results.OUTAGE.recovery = {recovery_ns: 48800000, bound_ns: 100000}' "$F" >"$T/rv.json"
	run "plot --kind timeline of a recovery" 0 "" "$B/ppslab" plot "$T/rv.json" --kind timeline -o "$T/rv.png"
	check "plot --kind timeline: the recovery time marked on its case's row, with its length" \
		"$([ "$(awk '/^# recovery_ms/ { b = 1; next } b && NF { print }' "$T/rv.dat")" = "48.8 0" ] &&
		   grep -q "index 3 u 1:(\$2+0.35):(sprintf('recovery %.3f ms', \$1)) w labels" "$T/rv.gp" &&
		   [ -s "$T/rv.png" ]; echo $?)" "$(sed -n '/recovery_ms/,$p' "$T/rv.dat"; tail -2 "$T/rv.gp")"
	want=$(jq -r '[.cases[].results.OUTAGE.longest.duration_ns / 1e6] | map(tostring) | join(" ")' "$F")
	got=$(awk '/^# centre_ms/ { b++ } b == 2 && !/^#/ && NF { printf "%s%s", s, $6; s = " " }' "$T/t.dat")
	check "plot --kind timeline: the longest gap of each case in ms ($want)" \
		"$(awk -v w="$want" -v g="$got" 'BEGIN { n = split(w, a, " "); m = split(g, b, " ");
		   if (n != m) exit 1; for (i = 1; i <= n; i++) if (a[i] - b[i] > 1e-6 || b[i] - a[i] > 1e-6) exit 1 }'; echo $?)" "got $got"
	check "plot --kind timeline: t0 marked" "$(grep -q "set label 1 't0' at 0" "$T/t.gp"; echo $?)"
	jq '.cases[0].params.mode = "x'"'"'\nset output \"/tmp/pwn\""' "$F" >"$T/h.json"
	run "plot --kind timeline: a hostile cell label" 0 "" "$B/ppslab" plot "$T/h.json" --kind timeline -o "$T/h.svg"
	check "plot --kind timeline: the label escaped, the SVG closed" \
		"$(grep -q "mode=x''" "$T/h.gp" && ! grep -q '^set output "/tmp/pwn' "$T/h.gp" &&
		   grep -q '</svg>' "$T/h.svg" && [ ! -e /tmp/pwn ]; echo $?)" "$(grep ytics "$T/h.gp")"
	# the longest silence inside a listed merged record (outage.c: its length and the
	# record's ends known, not its start): that record is the one marked, labelled
	# with the silence's length (docs/plots.md)
	jq '.cases[0].results.OUTAGE |= (.gaps[1].merged_gaps = 3 | .longest = {stream: 1,
		duration_ns: 200000, merged_gaps: 3, within_start_ns: .gaps[1].start_ns,
		within_end_ns: .gaps[1].end_ns})' "$F" >"$T/m.json"
	run "plot --kind timeline: the longest in a merged record" 0 "" "$B/ppslab" plot "$T/m.json" \
		--kind timeline -o "$T/m.png"
	want=$(jq -r '.cases[0].results.OUTAGE.gaps[1] | "\((.start_ns + .end_ns) / 2e6) 0.2 3"' "$T/m.json")
	got=$(awk '/^# centre_ms/ { b++ } b == 2 && !/^#/ && $2 == 0 { print $1, $6, $7 }' "$T/m.dat")
	check "plot --kind timeline: ... the merged record marked, with the silence's length ($want)" \
		"$(awk -v w="$want" -v g="$got" 'BEGIN { split(w, a, " "); if (split(g, b, " ") != 3) exit 1
		   for (i = 1; i <= 3; i++) if (a[i] - b[i] > 1e-6 || b[i] - a[i] > 1e-6) exit 1 }' &&
		   grep -q 'within %d merged gaps' "$T/m.gp"; echo $?)" "got '$got'"
	# a router that lost nothing: no gap, no longest (gnuplot 5.4 crashed on its label)
	jq '.cases[].results.OUTAGE |= (.gaps = [] | .longest = null)' "$F" >"$T/z.json"
	run "plot --kind timeline: outage cases without a gap" 0 "" "$B/ppslab" plot "$T/z.json" \
		--kind timeline -o "$T/z.png"
	check "plot --kind timeline: without a gap, no longest gap's label" \
		"$([ -s "$T/z.png" ] && ! grep -q 'w labels' "$T/z.gp"; echo $?)"
	run "plot --kind timeline on a file without an outage case" 64 "no outage case" \
		"$B/ppslab" plot "$D/small.json" --kind timeline -o "$T/n.png"
	run "report of an outage run" 0 "" "$B/ppslab" report "$F" -o "$T/rep"
	check "report: the timeline figure and the outage metrics" \
		"$(grep -q '(timeline-gaps-t0.png)' "$T/rep/report.md" && [ -s "$T/rep/timeline-gaps-t0.png" ] &&
		   grep -q '^### outage\\_longest\\_s' "$T/rep/report.md"; echo $?)" "$(grep -n 'png\|^###' "$T/rep/report.md" | head)"
else
	for i in $(seq 17); do skip "plot --kind timeline" "no gnuplot"; done
fi
echo "1..$n"
