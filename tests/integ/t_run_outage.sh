#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_outage.sh — ppslab run's outage method against a stall of known length:
# 10,000 pps through ppslab-rut (intr mode: every frame forwarded when it comes, a
# ring of 512 frames), and 1 s into the trial the action `ppslab-rut ctl pause 250`.
# The case's OUTAGE result has one gap above 100 ms: it starts at t0 (within the
# pause's late start and the slack), lasts what the forwarder measured of its stall
# within a frame interval and the slack (and 250 ms within that and the stall's
# overrun), the frames lost in it are the forwarder's ring drops of the trial, and
# loss ÷ load is the lost frames over the rate, exactly. The books hold; a failed
# action fails the case; --dry-run says what the method does and estimates its time.
# Then the recovery recipe (RFC 2544 §26.5) against ppslab-rut's known ring and rate; an
# action that outlasts the load (flagged) or hangs (failed after its timeout); and the
# reset recipe (RFC 2544 §26.6) against the forwarder's own down time, a reset of the
# lab's emulated router through its reboot hook.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
RATE=10000
I_NS=$((1000000000 / RATE))     # the frame interval
SLACK_NS=2000000                # the forwarding-delay difference of the frames around
				# a gap (tests/integ/t_outage.sh)
P=$T/outage.json
profile() {  # profile ACTION RESULTS
	jq -n --arg lab "$LAB" --arg r "$2" --argjson act "$1" --argjson rate $RATE '{
  description: "t_run_outage: a 250 ms pause of ppslab-rut on the time line",
  params: { mode: "intr" },
  trial: { method: "outage", warmup: "0.5s", duration: "3s", settle: "0.2s",
           outage_load: $rate, outage_at: "1s", outage_action: $act },
  router: { ring: 512 },
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }'
}
profile '{"ctl": ["pause", "250"]}' "$T/r.json" >"$P"

"$B/ppslab" run "$P" --dry-run >"$T/dry.out" 2>&1
eq "--dry-run exits 0" "$?" 0
check "--dry-run says what the method does" \
	grep -q "method: outage.*outage (timeline) at 10000 pps, the action 1 s into the trial: ppslab-rut ctl pause 250" "$T/dry.out"
check "--dry-run estimates its time" grep -q "^estimated time: about" "$T/dry.out"

"$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
eq "the run exits 0" "$?" 0
[ -s "$T/run.err" ] && sed 's/^/# /' "$T/run.err" | head -n 10
R=$T/r.json
C='.cases[0]'
O="$C.results.OUTAGE"
TR="$C.trials[0]"
echo "# gaps: $(jq -c "[$O.gaps[] | [.start_ns, .duration_ns, .lost_pkts, .merged_gaps]]" "$R")"
echo "# action: $(jq -c "$TR.action" "$R"); pause $(jq -c "$TR.rut.pause" "$R")"
check "the case is ok or flagged" grep -qE '^(ok|flagged)$' <(jq -r "$C.status" "$R")
eq "one trial, of kind outage" "$(jq -r "[$C.trials[].kind] | join(\",\")" "$R")" outage
eq "the action answered" "$(jq -r "$TR.action.output" "$R")" "forwarding paused for 250 ms"
eq "the forwarder paused once, as asked" "$(jq -c "[$TR.rut.pause.count, $TR.rut.pause.requested_ns]" "$R")" "[1,250000000]"
N=$(jq "$TR.tx_frames" "$R")
eq "the books: received + lost = sent ($N)" "$(jq "[$TR.sink[0].rx_pkts + $TR.sink[0].lost_pkts, $TR.tx_frames] | .[0] == .[1]" "$R")" true
eq "loss ÷ load is the frames lost over the rate, exactly" \
	"$(jq "$O.loss_over_load_s == $O.lost_pkts / $RATE and $O.lost_pkts == $TR.sink[0].lost_pkts" "$R")" true
eq "... and so are the metrics" \
	"$(jq "$C.metrics.outage_loss_over_load_s == $O.loss_over_load_s and $C.metrics.outage_lost == $O.lost_pkts" "$R")" true
p=$(jq "$TR.rut.pause.last_ns" "$R") pl=$(jq "$TR.rut.pause.last_late_ns" "$R")
took=$(jq "$TR.action.took_ns | floor" "$R")
beh=$(jq "[$TR.gen[].behind_max_ns] | max" "$R")
# the silence above 100 ms that starts at t0: after it by at most the command's time
# (t0 is taken before the client starts), the pause's late start, an interval and the
# slack; a busy host may add silences of its own elsewhere
lo=$((-I_NS - SLACK_NS)) hi=$((took + pl + I_NS + SLACK_NS))
big="[$O.gaps[] | select(.duration_ns > 100000000)]"
g="[$big[] | select(.start_ns <= $hi and .end_ns >= $lo)][0]"
eq "a silence above 100 ms around t0" "$(jq -r "$g | type" "$R")" object
within_or_said "... starting at t0 (within $lo..$hi ns)" "$(jq "$g.start_ns // 0" "$R")" "$lo" "$hi"
echo "# longest $(jq -c "$O.longest" "$R"), sink longest $(jq "$TR.sink[0].streams[0].longest_gap_ns" "$R")"
echo "# other silences above 100 ms (the host's): $(jq -c "[$big[] | select(.start_ns < $lo or .start_ns > $hi) | [.start_ns, .duration_ns]]" "$R")"
d=$(jq "$g.duration_ns // 0" "$R") s=$(jq "$g.start_ns // 0" "$R")
echo "# the forwarder's stall $p ns (late by $pl ns); the gap $d ns from $s ns after t0; the action took $took ns; the sender at most $beh ns behind"
within_or_said "the gap is the forwarder's stall (less its late start) ± one frame interval + slack" \
	"$d" $((p - pl - I_NS - SLACK_NS)) $((p + I_NS + SLACK_NS))
within_or_said "the gap is 250 ms − one interval .. + one interval + the stall's overrun + slack" \
	"$d" $((250000000 - I_NS - SLACK_NS)) $((p + I_NS + SLACK_NS))
eq "the longest gap is the longest silence listed" \
	"$(jq "$O.longest.duration_ns == ([$O.gaps[] | select(.merged_gaps == 1) | .duration_ns] | max) and $O.longest.duration_ns >= $d" "$R")" true
near "... and the metric says so (s)" "$(jq "$C.metrics.outage_longest_s" "$R")" "$(jq "$O.longest.duration_ns / 1e9" "$R")" 1e-12
# every frame lost at a named place: the forwarder's ring or its own drops, the host's
# veth backlog on the way in, the sink's ring or interface (t_outage.sh's books)
# The forwarder's counters span the warm-up too: a host that held it then made its ring
# drop warm-up frames, in its counters and not in the sink's loss (the recovery's books)
hl=$(jq "([$TR.gen[].if_tx_dropped] | add) + $TR.sink[0].ring_drops + $TR.sink[0].if_drops" "$R")
wl=$(jq "([$TR.gen[].warmup_pkts] | add) - $TR.sink[0].warmup_pkts" "$R")
eq "every frame lost (and $wl of the warm-up) was dropped at a named place (the forwarder's ring; the host: $hl)" \
	"$(jq "$TR.sink[0].lost_pkts + $wl == $TR.rut.kernel_drops + $TR.rut.drop_pkts + $hl" "$R")" true
# after the silence, what the ring held (up to 512 frames) arrives, then the gap of the
# frames it dropped, up to the first frame sent after the stall (t_outage.sh)
# A silence that itself lost frames: the ring had overflowed before the stall (the host
# held the forwarder), its last frame before the silence was the ring's last, and the
# frames after it were dropped then; which of the stall's frames the ring held is not
# known. (During the stall the ring fills with frames sent after the silence began.)
lossg="[$O.gaps[] | select(.seq_before >= $(jq "$g.seq_before" "$R") and .lost_pkts > 0)][0]"
lost1=$(jq "$lossg.lost_pkts" "$R")
span=$(($(jq "$lossg.seq_after - $g.seq_before - 1" "$R")))
l0=$(jq "$g.lost_pkts // 0" "$R")
stall_span "$l0" "$span" "$lost1" "$p" "$pl" "$beh"
eq "the default --gap-min: ten frame intervals, at least 50 ms" "$(jq "$O.gap_min_s" "$R")" 0.05

# RFC 2544 §26.5 system recovery against a known buffer: ppslab-rut in poll mode forwards
# at most pollhz × burst_max = 10,000 pps (its throughput, given), from a ring of 512
# frames. At 110 % (11,000 pps) the ring fills and overflows; at the drop to 50 %
# of it (5,500 pps) it drains, and nothing is lost after the first tick that follows. B is
# a receive time (the first frame after the last one lost), so the recovery time is
# the time that frame waited behind a full ring, RING / capacity = 51.2 ms
# (docs/method.md#outage-timeline): within the ticks the frames around the drop straddle.
RING=512 HZ=1000 BMAX=10
CAP=$((HZ * BMAX)) TICK_NS=$((1000000000 / HZ))
jq -n --arg lab "$LAB" --arg r "$T/rc.json" --argjson cap $CAP --argjson hz $HZ \
	--argjson bmax $BMAX --argjson ring $RING '{
  description: "t_run_outage: RFC 2544 26.5 recovery of ppslab-rut in poll mode",
  params: { mode: "poll", pollhz: $hz, burst_max: $bmax },
  trial: { method: "outage", outage_recipe: "recovery", warmup: "0.5s", duration: "2.5s",
           settle: "0.2s", outage_load: $cap, outage_at: "1.5s" },
  router: { ring: $ring, rt_prio: 5 },
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }' >"$T/rcv.json"
"$B/ppslab" run "$T/rcv.json" --dry-run >"$T/rdry.out" 2>&1
check "recovery: --dry-run says what it does" \
	grep -q "outage (recovery) at 10000 pps as the throughput: 110 % of it for 1.5 s, then half that" "$T/rdry.out"
"$B/ppslab" run "$T/rcv.json" -q --no-table >"$T/rrun.out" 2>"$T/rrun.err"
eq "recovery: the run exits 0" "$?" 0
[ -s "$T/rrun.err" ] && sed 's/^/# /' "$T/rrun.err" | head -n 10
R=$T/rc.json
RV="$O.recovery"
beh=$(jq "[$TR.gen[].behind_max_ns] | max" "$R")   # this run's sender, not the pause's
echo "# recovery $(jq -c "$RV" "$R"); drop $(jq -c "$TR.action" "$R"); last_gap $(jq -c "$TR.sink[0].streams[0].last_gap" "$R")"
echo "# flags $(jq -c "$C.flags" "$R"); rut drops $(jq -c "[$TR.rut.kernel_drops, $TR.rut.drop_pkts]" "$R"); gaps $(jq "$TR.sink[0].streams[0].gap_count" "$R")"
check "recovery: the case is ok or flagged" grep -qE '^(ok|flagged)$' <(jq -r "$C.status" "$R")
eq "recovery: the sender stepped from 11,000 to 5,500 pps" \
	"$(jq -c "[$O.action.load_drop.from_pps, $O.action.load_drop.to_pps, $O.recipe]" "$R")" '[11000,5500,"recovery"]'
echo "# lost $(jq "$TR.sink[0].lost_pkts" "$R"), merges $(jq "$TR.sink[0].streams[0].gap_merges" "$R"), unlisted $(jq "$TR.sink[0].streams[0].gaps_unlisted" "$R")"
# a sender the host held did not offer the overload (its late frames skipped, as a
# search's trials do: the case's flags "offered load", "sender kept pace" say so), and
# a ring that never overflowed has no recovery to time: the books still hold
hf=$(host_flags "$R" true)
over=$(jq "$TR.sink[0].streams[0] | (.gap_merges > 0 or .gaps_unlisted > 0)" "$R")
over="$over $(jq "$TR.rut.kernel_drops > 0" "$R")"
if [ "$over" != "true true" ] && [ -n "$hf" ]; then
	skip "recovery: the overload overflowed the ring (got $over)" "the sender did not offer it: $hf"
else
	eq "recovery: the overload overflowed the ring (more gaps than a list keeps apart)" "$over" "true true"
fi
N=$(jq "$TR.tx_frames" "$R")
echo "# books: $(jq -c "{tx: $TR.tx_frames, test: ([$TR.gen[].test_pkts] | add), skipped: ([$TR.gen[].skipped] | add), fail: ([$TR.gen[].tx_fail] | add), rx: $TR.sink[0].rx_pkts, lost: $TR.sink[0].lost_pkts, dup: $TR.sink[0].dup_pkts, expect: $TR.sink[0].streams[0].expect}" "$R")"
eq "recovery: the books: received + lost = sent ($N)" \
	"$(jq "[$TR.sink[0].rx_pkts + $TR.sink[0].lost_pkts, $TR.tx_frames] | .[0] == .[1]" "$R")" true
hl=$(jq "([$TR.gen[].if_tx_dropped] | add) + $TR.sink[0].ring_drops + $TR.sink[0].if_drops" "$R")
# the warm-up overloads too: its frames the forwarder dropped are in its counters, not
# in the sink's loss (sent − received of the warm-up)
wl=$(jq "([$TR.gen[].warmup_pkts] | add) - $TR.sink[0].warmup_pkts" "$R")
eq "recovery: every frame lost (and $wl of the warm-up) was dropped by the forwarder (or at a named place: $hl)" \
	"$(jq "$TR.sink[0].lost_pkts + $wl == $TR.rut.kernel_drops + $TR.rut.drop_pkts + $hl" "$R")" true
# (no time when frames were lost where no gap brackets them, after the stream's last
# frame: a held sender's or forwarder's tail; the result says why, the metric is null)
eq "recovery: the metric is the result, or null with the reason" \
	"$(jq "(if $RV.recovery_ns == null then ($RV.why | type) == \"string\" and $C.metrics.outage_recovery_s == null
		else $C.metrics.outage_recovery_s == $RV.recovery_ns / 1e9 end) and $RV.bound_ns > 181818 and $RV.bound_ns < 181819" "$R")" true
# the ring overflows in every tick at 11 frames a tick and never after the first tick at
# 5.5, so the frame after the last one lost reached it within a tick of the drop (before
# or after), into a ring a tick had drained by at most burst_max, and waited for the
# rest to leave (within a tick's phase): (ring − burst_max) / capacity − 2 ticks ..
# ring / capacity + 2 ticks, and one more tick and the slack for a busy host's late tick
rc=$(jq "$RV.recovery_ns // 0 | floor" "$R")
said=0
[ -n "$hf" ] && said=$((1 << 62))   # the sender's own flags say the overload was not offered
within_or_said "recovery: the time is the full ring's wait, $((RING * 1000000000 / CAP)) ns (ring − 2 ticks' drain − 1 tick .. ring + 3 ticks + slack)" \
	"$rc" $(((RING - 2 * BMAX) * 1000000000 / CAP - TICK_NS)) $((RING * 1000000000 / CAP + 3 * TICK_NS + SLACK_NS)) \
	"$said" "the sender did not offer the overload as asked: $hf"
check "recovery: 2 s of overload instead of 60 s is a deviation" \
	grep -q "after 1.5 s of overload at 110 % of the throughput instead of at least 60 s" <(jq -r '.method.rfc2544_deviations[]' "$R")

# a failed action: never an "ok" case
profile '{"ctl": ["no-such-command"]}' "$T/r2.json" >"$T/bad.json"
"$B/ppslab" run "$T/bad.json" -q --no-table >"$T/run2.out" 2>"$T/run2.err"
check "a failed action: the run says so (exit status not 0)" test "$?" -ne 0
eq "... its case failed" "$(jq -r "$C.status" "$T/r2.json")" failed
check "... naming the action" grep -q "the outage action (ctl) failed" <(jq -r "$C.error" "$T/r2.json")

# an action that outlasts the load (as a rule load does that a forwarder in receive
# livelock answers only when the traffic stops): here a hook that ends 2 s after t0,
# the load 1 s after it. The runner waits for it, records both instants, and flags
# the case: never "ok"
profile '{"hook": ["sleep", "2"]}' "$T/r4.json" | jq '.trial.duration = "2s"' >"$T/late.json"
"$B/ppslab" run "$T/late.json" -q --no-table >"$T/run4.out" 2>"$T/run4.err"
echo "# outlasted: $(jq -c "$O | {t0_action_ns, t0_load_end_ns}" "$T/r4.json"); flags $(jq -c "$C.flags" "$T/r4.json")"
eq "an action that outlasts the load: its case is flagged" "$(jq -r "$C.status" "$T/r4.json")" flagged
eq "... saying so" "$(jq "[$C.flags[] | select(test(\"^outage: the action outlasted the load\"))] | length" "$T/r4.json")" 1
eq "... with when it ended (2 s after t0 and more) and when the load did (1 s after t0, the senders' start within 0.5 s)" \
	"$(jq "$O | .t0_action_ns >= 2e9 and .t0_load_end_ns > 0.9e9 and .t0_load_end_ns < 1.5e9" "$T/r4.json")" true
# a hook that hangs holds the run no longer than router.hook_timeout: its case fails
# with the timeout, and the hook (its PID, written by itself) is gone when the run ends
jq '.router.hook_timeout = "1s" | .output.results = $r' --arg r "$T/r5.json" "$T/late.json" |
	jq --arg f "$T/hook.pid" '.trial.outage_action.hook = ["sh", "-c", "echo $$ >\"$1\"; exec sleep 60", "sh", $f]' \
	>"$T/hang.json"
"$B/ppslab" run "$T/hang.json" -q --no-table >"$T/run5.out" 2>"$T/run5.err"
check "a hung action: the run says so (exit status not 0)" test "$?" -ne 0
eq "... its case failed" "$(jq -r "$C.status" "$T/r5.json")" failed
check "... the action timed out" grep -q "the outage action (outage) timed out after 1 s (router.hook_timeout)" \
	<(jq -r "$C.error" "$T/r5.json")
hpid=$(cat "$T/hook.pid" 2>/dev/null)
gone() {  # gone PID: a PID given, no such process (or only its exit status left)
	[ -n "$1" ] && { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" = Z ]; }
}
check "... the hook ran and is gone when the run ends, not left sleeping (PID ${hpid:-none})" gone "$hpid"

# RFC 2544 §26.6 reset against the forwarder's own down time. The lab's emulated router
# (bsd_router.sh, which t_run_axes.sh reboots too) runs ppslab-rut in intr mode; the
# reset is its router.reboot_hook, `reboot`: the forwarder stopped, the box off for
# 0.3 s, a new forwarder started; its boot identity (router.boot_hook) changes. The
# known answer is the forwarder's own: the new process' first frame forwarded
# (first_fwd_real_ns, its stats) less the end of the old one's forwarding
# (fwd_end_real_ns, its summary), both on CLOCK_REALTIME, the sink's clock. The reset
# time runs from the last frame before to the first after at the sink: the last left
# the old forwarder at most one frame interval before its loop ended (a frame comes
# every interval and the loop sees the stop at the next), the first left the new one
# at its first forward, and each then crossed the sink's veth (SLACK_NS, the
# forwarding-delay difference of the frames around a gap). So reset_ns lies within
# known − slack .. known + one interval + slack, widened by twice the sink clock's
# bound the runner reports (t0_clock_bound_ns: the forwarder's and the sink's stamps
# are two clocks in general; 0 here, one host). A sender the host stalls next to the
# reset moves the silence's edges by its lateness: a miss within it is said, not
# failed (within_or_said).
lab_up
D=$T/box
mkdir -p "$D"
echo intr >"$D/mode"
echo 0.3 >"$D/down_s"
start box rut bash "$PPSLAB_TOP/tests/integ/bsd_router.sh" boot "$D" "$B" - -
check "the emulated router booted" wait_until 30 "the emulated router's boot" grep -qsx up "$D/state"
jq -n --arg lab "$LAB" --arg r "$T/rs.json" --arg d "$D" --argjson rate $RATE '{
  description: "t_run_outage: RFC 2544 26.6 reset of an emulated router",
  trial: { method: "outage", outage_recipe: "reset", warmup: "0.5s", duration: "2.5s",
           settle: "0.2s", outage_load: $rate, outage_at: "0.8s" },
  router: { kind: "external", reboot_hook: [($d + "/bin/reboot")],
            boot_hook: ["cat", ($d + "/boottime")], hook_timeout: "10s", reboot_timeout: "20s" },
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }' >"$T/reset.json"
"$B/ppslab" run "$T/reset.json" -q --no-table >"$T/srun.out" 2>"$T/srun.err"
eq "reset: the run exits 0" "$?" 0
[ -s "$T/srun.err" ] && sed 's/^/# /' "$T/srun.err" | head -n 10
R=$T/rs.json
echo "# reset $(jq -c "$O | {reset_ns, t0_action_ns, t0_clock_bound_ns, gaps: [.gaps[] | [.start_ns, .duration_ns, .lost_pkts]]}" "$R"); flags $(jq -c "$C.flags" "$R")"
check "reset: the case is ok or flagged" grep -qE '^(ok|flagged)$' <(jq -r "$C.status" "$R")
eq "reset: the restart it asked for is recorded, not taken for a fault" \
	"$(jq -r "$C.router_restarted | [.by, .boot_id != .boot_id_before] | map(tostring) | join(\",\")" "$R")" \
	"the reset (trial.outage_recipe),true"
eq "reset: no reset flag" "$(jq "[$C.flags[]? | select(startswith(\"reset:\"))] | length" "$R")" 0
eq "reset: the books: received + lost = sent" \
	"$(jq "[$TR.sink[0].rx_pkts + $TR.sink[0].lost_pkts, $TR.tx_frames] | .[0] == .[1]" "$R")" true
check "reset: the router is back" wait_until 20 "the emulated router's second boot" \
	sh -c 'grep -qsx up "$1/state" && [ -s "$1/rut.prev.out" ] && [ -S "$1/rut.sock" ]' sh "$D"
end=$(jq -s 'map(select(.type == "summary")) | .[-1].fwd_end_real_ns' "$D/rut.prev.out")
first=$("$B/ppslab-rut" ctl "$D/rut.sock" stats | jq .first_fwd_real_ns)
rs=$(jq "$O.reset_ns // 0 | floor" "$R")
bound=$(jq "$O.t0_clock_bound_ns // 0 | floor" "$R")
known=$((first - end))
echo "# the old forwarder stopped at $end, the new one forwarded from $first: down $known ns; reset_ns $rs"
beh=$(jq "[$TR.gen[].behind_max_ns] | max" "$R")
within_or_said "reset: the reset time is the forwarder's down time (known − slack .. + an interval + slack, ± 2 × the clock bound)" \
	"$rs" $((known - SLACK_NS - 2 * bound)) $((known + I_NS + SLACK_NS + 2 * bound))
eq "reset: ... and the metric says so (s)" "$(jq "$C.metrics.outage_reset_s == $O.reset_ns / 1e9" "$R")" true
# a reset the router does not come back from by itself: it hangs (bsd_router.sh hang),
# its boot identity unreadable for router.reboot_timeout, and it is back only when
# router.power_cycle_hook cycles its power. That restart is the runner's, not the
# reset's: the case fails as any such case does, never "ok"
jq --arg d "$D" --arg r "$T/rh.json" '.router.reboot_hook = [($d + "/bin/hang"), "0"]
	| .router.boot_hook = ["sh", "-c", "grep -qsx up \"$1/state\" && cat \"$1/boottime\"", "sh", $d]
	| .router.power_cycle_hook = ["sh", "-c", "echo power >\"$1\"", "sh", ($d + "/power")]
	| .router.reboot_timeout = "3s" | .trial.duration = "1.5s" | .output.results = $r' \
	"$T/reset.json" >"$T/rhang.json"
"$B/ppslab" run "$T/rhang.json" -q --no-table >"$T/hrun.out" 2>"$T/hrun.err"
check "a reset that took a power cycle: the run says so (exit status not 0)" test "$?" -ne 0
echo "# $(jq -c "$C | {status, error, router_restarted, router_power_cycle}" "$T/rh.json")"
eq "... its case failed, the restart not the reset's, the power cycled once" \
	"$(jq -r "$C | [.status, .router_restarted.by // \"-\", .router_power_cycle.status] | map(tostring) | join(\",\")" "$T/rh.json")" \
	"failed,-,0"
check "... saying it stopped answering" grep -q "^the router stopped answering" <(jq -r "$C.error" "$T/rh.json")
check "... the router back after its power was cycled" wait_until 30 "the emulated router's boot after the power cycle" \
	grep -qsx up "$D/state"
kill -TERM "${BG_PID[box]}"   # (a background job ignores SIGINT)
finish box 10
eq "the emulated router shut down" "$RC" 0
done_testing
