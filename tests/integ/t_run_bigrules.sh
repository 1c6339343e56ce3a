#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_bigrules.sh — ppslab run with 100,000 rules (the documented maximum): each
# trial's rule counts are taken (linear in rules: a search per rule took minutes a
# trial), the firewall check reads them, and SIGINT once a case is saved stops the run
# at once with the case kept and the file resumable.
. "$(dirname "$0")/lib.sh"
lab_up
P=$T/p.json
cat >"$P" <<JSON
{ "description": "t_run_bigrules",
  "matrix": { "pollhz": [1000, 2000, 3000] },
  "params": { "burst_max": 20, "offered": "10k", "rules": 100000, "rules_kind": "nomatch" },
  "trial": { "method": "fixed", "warmup": "0.2s", "duration": "0.6s", "settle": "0.1s" },
  "rig": { "calibrate": false, "direct": false },
  "topology": { "kind": "netns", "lab": "$LAB" } }
JSON
"$B/ppslab" run "$P" -o "$T/r.json" -q --no-table >"$T/o1" 2>"$T/e1" &
RUN=$!
saved() { [ "$(jq '[.cases[] | select(.status)] | length' "$T/r.json" 2>/dev/null)" -ge 1 ] 2>/dev/null; }
if wait_until 180 "the first case saved" saved; then
	T0=$(date +%s)
	kill -INT $RUN
	wait_until 30 "the run ended after SIGINT" gone $RUN
	wait $RUN
	eq "SIGINT during the second case: status 130" "$?" 130
	check "it ended within 30 s of SIGINT" test $(($(date +%s) - T0)) -le 30
	eq "the file is saved, resumable" "$(jq -r .complete "$T/r.json")" false
	C=$(jq -c '[.cases[] | select(.status)][0]' "$T/r.json")
	check "the first case is kept, not failed" grep -Eq '"status":"(ok|flagged)"' <<<"$C"
	eq "its trial counted every rule: 100,000, the allow rule and the default (idle ones left out)" \
		"$(jq '.trials[0].rut.rules_idle + (.trials[0].rut.rules | length)' <<<"$C")" 100002
	eq "the frames went through the generated set's allow rule (rulegen.h)" \
		"$(jq '[.trials[0].rut.rules[] | select(.number == 65000) | .pkts > 0] | all' <<<"$C")" true
	eq "the ruleset check read them" \
		"$(jq -r '.trials[0].checks[] | select(.name == "ruleset executed") | .ok' <<<"$C")" true
else
	not_ok "the 100,000-rule run saved its first case" "$(head -c 300 "$T/e1")"
	kill -KILL $RUN
	wait $RUN
fi
done_testing
