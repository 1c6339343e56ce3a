#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_b2b.sh — ppslab run's back-to-back method (RFC 2544 §26.4, RFC 9004) against
# a known buffer: ppslab-rut in poll mode reads its ingress ring (router.ring, 1,024
# frames) at most burst_max (10) frames per tick, 200 times a second, so its
# throughput is 2,000 pps and a burst arriving at the sender's full speed passes while
# it fits the ring plus what the one tick that may fall in it drains: 1,024..1,034
# frames. The mean longest passing burst is 1,034 within 1 % (1,024 is too), every
# burst's frames are accounted for, and the RFC 9004 times follow from it. A size whose
# throughput is the theoretical rate is skipped with the reason; --dry-run counts the
# bursts. Two searches, not RFC 2544's 50, to keep the test short (the results file
# lists that deviation).
. "$(dirname "$0")/lib.sh"
RING=1024
BMAX=10
HZ=200
THR=$((HZ * BMAX))
RATE=300000
P=$T/b2b.json
profile() {  # profile THROUGHPUT RESULTS
	jq -n --arg lab "$LAB" --arg r "$2" --argjson thr "$1" --argjson ring $RING \
		--argjson hz $HZ --argjson bmax $BMAX --argjson rate $RATE '{
  description: "t_run_b2b: the longest burst ppslab-rut passes",
  params: { mode: "poll", pollhz: $hz, burst_max: $bmax },
  trial: { method: "b2b", settle: "0.05s", max_load: $rate, b2b_trials: 2,
           b2b_max_burst: 2048, b2b_throughput: $thr },
  router: { ring: $ring, rt_prio: 5 },
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }'
}
profile $THR "$T/r.json" >"$P"

"$B/ppslab" run "$P" --dry-run >"$T/dry.out" 2>&1
eq "--dry-run exits 0" "$?" 0
check "--dry-run says what the method does" \
	grep -q "method: b2b.*2 back-to-back searches (RFC 2544 asks for 50) of 1..2048 frames, throughput 2000 pps given" "$T/dry.out"
check "--dry-run estimates its time" grep -q "^estimated time: about" "$T/dry.out"

"$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
eq "the run exits 0" "$?" 0
[ -s "$T/run.err" ] && sed 's/^/# /' "$T/run.err" | head -n 10
R=$T/r.json
C='.cases[0]'
O="$C.results.B2B"
jq -r "$C.trials[] | \"# \\(.why): \\(.burst_frames) sent \\(.tx_frames), arrived \\(.rx_frames), ring drops \\(.rut.kernel_drops)\"" "$R"
echo "# answers $(jq -c "$O.answers" "$R"), mean $(jq "$O.mean_frames" "$R")"
check "the case is ok or flagged" grep -qE '^(ok|flagged)$' <(jq -r "$C.status" "$R")
eq "two searches, each with an answer" "$(jq "$O.trials" "$R")" 2
eq "the method is regular" "$(jq "$O.regular" "$R")" true
eq "the throughput is the profile's" "$(jq -r "$O.throughput_from" "$R")" trial.b2b_throughput
near_or_said "the mean longest burst is the ring plus one tick's drain ($((RING + BMAX)))" \
	"$(jq "$O.mean_frames" "$R")" $((RING + BMAX)) 0.01 "$(host_flags "$R" true)"
# the books of every burst: what the sender sent arrived, or the forwarder's ring
# dropped it (the buffer overflowing is the only loss there is)
eq "every burst sent whole" \
	"$(jq "[$C.trials[] | select(.tx_frames != .burst_frames)] | length" "$R")" 0
eq "every burst: sent = arrived + the forwarder's ring drops + its own drops" \
	"$(jq "[$C.trials[] | select(.tx_frames != .rx_frames + .rut.kernel_drops + .rut.drop_pkts)] | length" "$R")" 0
eq "a burst passes exactly when every frame arrived" \
	"$(jq "[$C.trials[] | select(.burst_passed != (.rx_frames == .tx_frames))] | length" "$R")" 0
eq "the project's books hold in every burst (sent = received + lost)" \
	"$(jq "[$C.trials[].checks[] | select(.name == \"sent = received + lost\" and .ok == false)] | length" "$R")" 0
eq "each answer passed, one frame more lost (resolution 1)" \
	"$(jq "[$O.answers[] as \$a | [$C.trials[] | select(.burst_frames == \$a and .burst_passed)] | length > 0] | all" "$R")" true
near "Implied DUT Buffer Time = mean / theoretical rate" \
	"$(jq "$O.implied_buffer_s" "$R")" "$(jq "$O.mean_frames / $RATE" "$R")" 1e-9
near "Corrected DUT Buffer Time = implied × (1 − throughput / rate)" \
	"$(jq "$O.corrected_buffer_s" "$R")" "$(jq "$O.mean_frames / $RATE * (1 - $THR / $RATE)" "$R")" 1e-9
eq "the metrics carry the mean" "$(jq "$C.metrics.b2b_frames == $O.mean_frames" "$R")" true
eq "... and no forwarding rate made of bursts" "$(jq "$C.metrics.mfr_pps" "$R")" null
check "fewer searches than RFC 2544's 50 is a recorded deviation" \
	grep -q "2 back-to-back trials instead of 50" <(jq -r '.method.rfc2544_deviations[]' "$R")

# The same known buffer, a trial that overloads it, then a light one (500 pps, a quarter
# of the router's 2,000): after 0.05 s of settling the ring still holds up to 1,024
# frames of the first, which drain into the second's sinks. Each trial numbers its
# frames in an epoch of its own, so the light trial's books are exact: what it sent
# arrived, every one (the router keeps up with 500 pps and its backlog), and the
# earlier trial's frames are counted apart (stale_pkts), never as received.
jq -n --arg lab "$LAB" --arg r "$T/r3.json" --argjson ring $RING --argjson hz $HZ \
	--argjson bmax $BMAX '{
  description: "t_run_b2b: an overloaded trial, then a light one",
  params: { mode: "poll", pollhz: $hz, burst_max: $bmax },
  matrix: { offered: [20000, 500] },
  trial: { method: "fixed", warmup: "0.1s", duration: "1s", settle: "0.05s" },
  router: { ring: $ring, rt_prio: 5 },
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }' >"$T/stale.json"
"$B/ppslab" run "$T/stale.json" -q --no-table >"$T/run3.out" 2>"$T/run3.err"
R3=$T/r3.json
jq -r '.cases[] | .trials[0] | "# \(.intended_pps) pps: sent \(.tx_frames), received \(.rx_frames), stale \(.sink[0].stale_pkts) (the last \(.sink[0].stale_overlap_ns) ns after its first frame was sent, \(.sink[0].stale_load_pkts) of them), ring drops \(.rut.kernel_drops)"' "$R3"
eq "overload, then light: two cases, in that order" \
	"$(jq -c '[.cases[].trials[0].intended_pps]' "$R3")" "[20000,500]"
eq "the overloaded trial lost frames in the forwarder's ring" \
	"$(jq '.cases[0].trials[0] | .rut.kernel_drops > 0 and .rx_frames < .tx_frames' "$R3")" true
eq "the light trial's sink saw the overloaded trial's frames, counted apart" \
	"$(jq '.cases[1].trials[0].sink[0].stale_pkts > 0' "$R3")" true
eq "... the light trial's books are exact: sent = received, nothing lost" \
	"$(jq '.cases[1].trials[0] | .tx_frames > 0 and .rx_frames == .tx_frames and .sink[0].lost_pkts == 0 and .sink[0].dup_pkts == 0 and .sink[0].reordered_pkts == 0' "$R3")" true
eq "... sent = received + lost and only this trial's frames hold" \
	"$(jq -c '[.cases[1].trials[0].checks[] | select(.name == "sent = received + lost" or .name == "only this trial'"'"'s frames") | .ok]' "$R3")" "[true,true]"
eq "... each trial had its own epoch" \
	"$(jq '[.cases[].trials[0].sink[0].epoch] | (.[0] != .[1]) and all(. > 0)' "$R3")" true

# a size forwarded at the theoretical rate: nothing to buffer, skipped with the reason
profile $RATE "$T/r2.json" >"$T/skip.json"
"$B/ppslab" run "$T/skip.json" -q --no-table >"$T/run2.out" 2>"$T/run2.err"
eq "a skipped size: the run exits 0" "$?" 0
eq "... its case is ok" "$(jq -r "$C.status" "$T/r2.json")" ok
check "... and says why it was skipped" \
	grep -q "size skipped: its throughput is the theoretical maximum frame rate" <(jq -r "$O.skipped" "$T/r2.json")
eq "... without a burst" "$(jq "$C.trials | length" "$T/r2.json")" 0
done_testing
