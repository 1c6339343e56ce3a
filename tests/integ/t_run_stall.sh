#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_stall.sh — a sender that stalls in front of a router that polices its input:
# the Linux kernel forwarding behind an nftables limit of 5,000 pps with a 20-packet
# burst allowance, and ppslab-gen stopped for 25 ms whenever the wall clock passes a
# multiple of 1.37 s (PPSLAB_TEST_GEN_STALL, a test-only injection; 5 % of a 0.5-s
# trial, where trial.max_behind is 2 %). With the runner's defaults (--late-policy
# skip, spoiled trials repeated) the RFC 2544 search finds the limiter's rate within
# 2 % and counts the trials it repeated; with the old catch-up and no repetition, and a
# stall in every trial, the bursts the limiter drops make the answer wrong, and the
# check "sender kept pace" flags them.
. "$(dirname "$0")/lib.sh"
lab_up
H="$PPSLAB_TOP/tests/integ/nft_limit.sh"
RATE=5000
P=$T/stall.json
jq -n --arg lab "$LAB" --arg b "$B" --arg h "$H" --arg r "$T/r.json" --arg rate "$RATE" '{
  description: "t_run_stall: a policer behind a sender that stalls",
  trial: { method: "rfc2544", warmup: "0.2s", duration: "0.5s", settle: "0.2s",
           min_load: "1k", max_load: "10k", width: 0.01, repeat_invalid: 6,
           max_behind: 0.02, max_burst: 16 },
  router: { kind: "external",
    setup_hook: ["bash", $h, "setup", $lab, $b, $rate, "20"],
    hook_timeout: "20s" },
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }' >"$P"
export PPSLAB_TEST_GEN_STALL=1.37s:25ms
# the stalls are the test's own: the run (and the tools it starts) at a real-time
# priority, so that a busy host adds as few of its own as it can (a few kpps, mostly
# asleep: nothing is starved); without chrt as it is
RT=()
chrt -f 1 true 2>/dev/null && RT=(chrt -f 1)

"${RT[@]}" "$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
rc=$?
R=$T/r.json
C='.cases[0]'
ndr=$(jq "$C.results.NDR.rlb_pps" "$R")
jq -r "$C.trials[] | \"# \\(.intended_pps) pps: \\(.repeated // \"counted\"), loss \\(.loss_ratio), \\(.gen[0] | \"burst \\(.burst_max), behind \\(.behind_ns / 1e6) ms in \\(.behind_n), skipped \\(.skipped)\")\"" "$R"
echo "# NDR $ndr pps; trials $(jq "$C.trials | length" "$R"), repeated $(jq "$C.repeated_trials" "$R") $(jq -c "$C.repeated_why" "$R")"
if [ "$(jq -r "$C.status" "$R")" = failed ]; then
	# a host that stalls the sender beyond the test's own stalls can spoil every
	# repetition of a load: the run says so and gives no number (never a wrong one)
	eq "a spoiled search: the run exits 1" "$rc" 1
	check "... its case says the sender spoiled the trials" \
		grep -q "trials at [0-9]* pps was spoiled by the sender (behind)" <(jq -r "$C.error" "$R")
	skip "the zero-loss throughput is the limiter's rate" "the host stalled the sender: $(jq -r "$C.error" "$R" | cut -c1-160)"
else
	eq "the search over a policer exits 0" "$rc" 0
	[ "$rc" = 0 ] || sed 's/^/# /' "$T/run.err" | head -n 20
	# (flagged is fine: a stall at a load above the limit costs the offered load check)
	check "the case is ok or flagged" grep -qE '^(ok|flagged)$' <(jq -r "$C.status" "$R")
	near "the zero-loss throughput is the limiter's rate" "$ndr" "$RATE" 0.02
fi
eq "the senders ran with --late-policy skip" \
	"$(jq -r "[$C.trials[].gen[].late_policy] | unique | join(\",\")" "$R")" skip
# the stalls fall where the wall clock puts them: in most runs some in a trial without
# loss, which is then repeated; a trial without loss that stalled is never counted
stalled_ok=$(jq "[$C.trials[] | select(.repeated | not) | select(.loss_ratio == 0 and .gen[0].behind_ns > 10000000)] | length" "$R")
eq "no trial without loss that stalled is counted" "$stalled_ok" 0
nrep=$(jq "$C.repeated_trials" "$R")
if [ "$nrep" -ge 1 ]; then
	ok "stalled trials were repeated ($nrep)"
	eq "every repeated trial failed \"sender kept pace\"" \
		"$(jq -r "[$C.trials[] | select(.repeated) | .checks[] | select(.name == \"sender kept pace\") | .ok] | unique | map(tostring) | join(\",\")" "$R")" false
else
	skip "stalled trials were repeated" "no stall fell in a trial without loss this time"
	skip "every repeated trial failed \"sender kept pace\"" "none repeated"
fi
eq "the count is the trials marked repeated" "$nrep" \
	"$(jq "[$C.trials[] | select(.repeated)] | length" "$R")"
eq "... and the reasons add up to it" "$(jq "($C.repeated_why | add) // 0" "$R")" "$nrep"
eq "... the trials that count kept pace" \
	"$(jq -r "[$C.trials[] | select(.repeated | not) | .checks[] | select(.name == \"sender kept pace\") | .ok] | unique | map(tostring) | join(\",\")" "$R")" true
eq "a repeated trial's load is asked again next" \
	"$(jq "[$C.trials as \$t | range(0; (\$t | length) - 1) | select(\$t[.].repeated) | select(\$t[.].intended_pps != \$t[. + 1].intended_pps)] | length" "$R")" 0
check "skipping left no burst over 16 frames (trial.max_burst, under the limiter's 20)" \
	test "$(jq "[$C.trials[].gen[].burst_max] | max" "$R")" -le 16

# the same with the sender catching up and no repetition, stalled in every trial (every
# 0.4 s): each trial's catch-up is a burst the limiter drops, the answer is far off
jq --arg r "$T/r2.json" '.trial.late_policy = "catchup" | .trial.repeat_invalid = 0
	| .output.results = $r' "$P" >"$T/catchup.json"
PPSLAB_TEST_GEN_STALL=0.4s:25ms "${RT[@]}" "$B/ppslab" run "$T/catchup.json" -q --no-table \
	>"$T/run2.out" 2>"$T/run2.err"
R2=$T/r2.json
ndr2=$(jq "$C.results.NDR.rlb_pps" "$R2")
echo "# catchup: NDR $ndr2 pps; largest bursts $(jq -c "[$C.trials[].gen[].burst_max]" "$R2")"
eq "catching up: nothing repeated" "$(jq "$C.repeated_trials" "$R2")" 0
check "every trial sent a burst over the limiter's 20 frames" \
	test "$(jq "[$C.trials[].gen[].burst_max] | min" "$R2")" -gt 20
check "the zero-loss throughput comes out wrong: $ndr2 pps, under 90 % of $RATE" \
	awk -v n="$ndr2" -v r="$RATE" 'BEGIN { exit !(n < 0.9 * r) }'
eq "the case is flagged \"sender kept pace\" (a burst with loss), not ok" \
	"$(jq -r "[$C.status, ([$C.flags[] | select(startswith(\"sender kept pace: \"))] | length > 0)] | map(tostring) | join(\",\")" "$R2")" \
	"flagged,true"
done_testing
