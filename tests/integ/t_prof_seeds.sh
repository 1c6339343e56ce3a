#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_prof_seeds.sh — the shipped profiles run for real in a private lab: demo.json as the
# README's main command runs it, and a shortened version of each seed profile (--set to
# fewer cells and 1-second trials). Each gives the table shaped like its seed's, with
# the rows and columns expected, and numbers that show the seed's effect. The seeds and
# their numbers (000 … 003): docs/glossary.md#the-seed-experiments.
. "$(dirname "$0")/lib.sh"
lab_up
cd "$PPSLAB_TOP"
short=(--set trial.warmup=0.2s --set trial.settle=0.2s --set rig.calibrate=false
       --set rig.direct=false --set "topology.lab=\"$LAB\"")
prof() {    # prof NAME [--set ...]: runs profiles/NAME.json into $T/NAME.json, table in $T/NAME.txt
	local name=$1; shift
	"$B/ppslab" run "$name" -o "$T/$name.json" -p "$T/$name.png" --set "topology.lab=\"$LAB\"" \
		"$@" >"$T/$name.txt" 2>"$T/$name.err"
	local rc=$?
	# a host that stalls the sender through every repetition of a search's load: the
	# case fails saying so (docs/method.md#a-sender-that-falls-behind), no number
	spoiled=$(jq -r '[.cases[] | select(.status == "failed") | .error // "" | select(test("spoiled by the sender"))] | first // ""' "$T/$name.json" 2>/dev/null)
	if [ "$rc" = 1 ] && [ -n "$spoiled" ]; then
		skip "$name: runs to the end" "the host stalled the sender: ${spoiled:0:160}"
	else
		eq "$name: runs to the end" "$rc" 0
	fi
	[ "$rc" = 0 ] || sed 's/^/# /' "$T/$name.err" | tail -n 8
	[ "$name" = rfc2544-throughput ] || check "$name: plot written" test -s "$T/$name.png"
}
m() { jq -r "$2" "$T/$1.json"; }   # m NAME FILTER
# rows NAME RE: the first column of the table's rows matching RE, one line; the notes
# under the table ("* includes flagged ...", then "  3 cells: ...") are not rows
rows() { awk -v re="^($2)\$" '/^\* / { exit } $1 ~ re { print $1 }' "$T/$1.txt" | tr '\n' ' '; }

# demo: what `make demo` runs, with 1-s trials and no direct rig run (time)
prof demo --set trial.duration=1s --set trial.warmup=0.2s --set rig.direct=false
eq "demo: 8 cases" "$(m demo '.cases | length')" 8
check "demo: its table" grep -q "^pollhz  burst_max=20  burst_max=50" "$T/demo.txt"
d1='.params.pollhz == 1000 and .params.burst_max == 20 and .params.rules == 0'
d2='.params.pollhz == 2000 and .params.burst_max == 50 and .params.rules == 0'
near_or_said "demo: 1000 × 20 caps at 20,000 pps" \
	"$(m demo ".cases[] | select($d1) | .metrics.fwd_pps")" 20000 0.10 "$(host_flags "$T/demo.json" "$d1")"
near_or_said "demo: 2000 × 50 forwards the 60,000 offered" \
	"$(m demo ".cases[] | select($d2) | .metrics.fwd_pps")" 60000 0.10 "$(host_flags "$T/demo.json" "$d2")"

# seed 000: HZ | 1 blast | blast A | blast B
prof dragonfly-hz-sweep "${short[@]}" --set pollhz=500,1000 --set firewall=on --set trial.duration=1s \
	--set offered=110k
check "hz sweep: the 2006 DragonFly sweep's header" grep -qE "^HZ +1 blast +blast A +blast B" "$T/dragonfly-hz-sweep.txt"
eq "hz sweep: rows 500 and 1000" "$(rows dragonfly-hz-sweep '500|1000')" "500 1000 "
# The ceiling holds from above (+5 %: unpolled, 110k would pass); from below a 1-s trial
# on a VM whose vCPU stalls for milliseconds at times loses ticks, which the ⅞ rule turns
# into smaller bursts (as BSD does): CI read −15 % once and −33 % once, reruns ±3 %
hz500() { m dragonfly-hz-sweep ".cases[] | select(.params.pollhz == 500 and .params.direction == \"$1\") | .metrics.$2"; }
# (below 60 % only when the run's own checks say the host held the forwarder's clock)
said=$(host_flags "$T/dragonfly-hz-sweep.json" '.params.pollhz == 500')
within "hz sweep: one blast at 500 Hz × 150 = 75,000 pps at most (+5 %)" "$(hz500 uni fwd_pps)" 0 78750
at_least_or_said "hz sweep: ... and at least 60 % of it" "$(hz500 uni fwd_pps)" 45000 "$said"
within "hz sweep: blast B at 500 Hz is polled on its own port too (75,000 pps at most)" \
	"$(hz500 bi fwd_pps_b)" 0 78750
at_least_or_said "hz sweep: ... and at least 60 % of it" "$(hz500 bi fwd_pps_b)" 45000 "$said"
[ "$(hz500 uni fwd_pps | cut -d. -f1)" -ge 67500 ] ||
	echo "# hz sweep 500 Hz: $(m dragonfly-hz-sweep '.cases[] | select(.params.pollhz == 500 and .params.direction == "uni") | .metrics | {fwd_pps, "rut.burst", "rut.lost_polls", "rut.short_ticks"} | @json')"
check "hz sweep: the ten rules were executed (rule 1000 counted every frame)" \
	test "$(m dragonfly-hz-sweep '[.cases[] | .metrics["rut.rule_hits.1000"]] | min')" -gt 50000

# seed 001: count rules, counters on, two forwarding threads sharing the counters or not
prof ipfw-counter-cost "${short[@]}" --set rules=0,3 --set update_counters=1 --set trial.duration=1s
eq "counter cost: rows 0 and 3, a block per firewall setting" \
	"$(rows ipfw-counter-cost '0|3')" "0 3 0 3 "
check "counter cost: a column per counters setting" grep -qE "^rules +counters=shared +counters=percpu" "$T/ipfw-counter-cost.txt"
icc() { m ipfw-counter-cost ".cases[] | select(.params.firewall == \"on\" and .params.rules == 3 and .params.counters == \"$1\") | .trials[-1].rut | $2"; }
eq "counter cost: two forwarding threads, both forwarding" \
	"$(icc percpu '[.fw.counters, (.threads | length), ([.threads[] | select(.fwd_pkts > 0)] | length)]' | jq -c .)" '["percpu",2,2]'
eq "counter cost: percpu: each count rule counts every frame twice (in and out), exactly" \
	"$(icc percpu '(.rules[] | select(.number == 3) | .pkts) as $h | $h >= 2 * .fwd_pkts and $h <= 2 * .rx_pkts')" true
# shared counters are written racily by both threads, as FreeBSD 9's were: an increment
# may be lost, never one made up
eq "counter cost: shared: at most two counts per frame, lost increments few" \
	"$(icc shared '[.fw.counters, ((.rules[] | select(.number == 3) | .pkts) as $h | $h <= 2 * .rx_pkts and $h >= 1.9 * .fwd_pkts)]' | jq -c .)" '["shared",true]'
eq "counter cost: with the firewall off nothing is counted" \
	"$(m ipfw-counter-cost '[.cases[] | select(.params.firewall == "off") | .trials[-1].rut.rules[] | .pkts] | add // 0')" 0

# seeds 002/003: poll caps at HZ × burst_max (freebsd-7, kern.hz 2000), intr does not.
# Each round hands over burst_max frames at overload; the rate is that times the ticks
# the clock delivered: a tick the host delays fires once (as a late hardclock does), so
# when the host costs ticks the rate falls short, and the "poll clock kept time" check
# flags the trial.
prof polling-vs-interrupt "${short[@]}" --set burst_max=20 --set idle_poll=0 \
	--set 'trial.ladder=["20k","60k"]' --set trial.duration=1s
pvi() { m polling-vs-interrupt ".cases[] | select(.params.mode == \"poll\") | $1"; }
# frames per tick while the load is on: the load window's rate over the ticks the clock
# delivered (the trial's counters also span the sender's start and the settle, ticks
# without frames, longer on a loaded host)
near_or_said "poll vs intr: at overload each tick moves burst_max (20) frames" \
	"$(pvi '.trials[-1] | .fwd_rate_pps / (.rut.polling | .clock_hz * .ticks / (.ticks + .clock_skips))')" 20 0.05 \
	"$(host_flags "$T/polling-vs-interrupt.json" '.params.mode == "poll"')"
eq "poll vs intr: ticks at kern.hz 2000 (freebsd-7)" "$(pvi '.trials[-1].rut.polling | [.kernel, .clock_hz] | join(" ")')" "freebsd-7 2000"
skips=$(pvi '.trials[-1].rut.polling | .clock_skips * 100 / (.ticks + .clock_skips) | floor')
said=""
[ "$skips" -le 1 ] || said="the host cost the forwarder's clock $skips % of its ticks; flags $(pvi '.flags | length')"
near_or_said "poll vs intr: poll's MFR is 2000 × 20 = 40,000 pps" "$(pvi .metrics.mfr_pps)" 40000 0.10 "$said"
check "poll vs intr: poll's MFR not above 40,000 pps (+5 %)" \
	test "$(pvi '.metrics.mfr_pps | floor')" -le 42000
check "poll vs intr: intr forwards the 60,000 offered" \
	test "$(m polling-vs-interrupt '.cases[] | select(.params.mode == "intr") | .metrics.mfr_pps | floor')" -gt 55000
eq "poll vs intr: two ladder steps per case" "$(m polling-vs-interrupt '[.cases[].trials | length] | unique | join(",")')" 2

# rule scaling: every frame walks past all the rules to the allow rule
prof rule-scaling "${short[@]}" --set rules=0,1000 --set trial.duration=1s
eq "rule scaling: rows 0 and 1000" "$(rows rule-scaling '0|1000')" "0 1000 "
eq "rule scaling: the 1000 rules did not match, the allow rule took every frame" \
	"$(m rule-scaling '.cases[] | select(.params.rules == 1000) | .trials[-1].rut | ([.rules[] | select(.number < 65000) | .pkts] | add // 0) == 0 and .rules_idle == 1001 and ([.rules[] | select(.number == 65000) | .pkts][0] >= .rx_pkts)')" true

# forwarding while 20,000 rules load: a case per mode, the rules loaded during each
# trial (20,000 and their allow rule on the case's allow and 65535), the gaps on the
# action's time line, loss / load the frames lost over the load, the timeline drawn
prof outage-rules "${short[@]}" --set trial.duration=2.5s --set trial.outage_at=1s
eq "outage rules: two cases, each action fired and answered" \
	"$(m outage-rules '[(.cases | length), (.cases[].trials[-1].action.status)] | join(",")')" 2,0,0
eq "outage rules: the 20,000 rules were loaded into ppslab-rut in each" \
	"$(m outage-rules '[.cases[].trials[-1].rut.fw.static_count] | join(",")')" 20003,20003
eq "outage rules: loss / load is the frames lost over 10,000 pps" \
	"$(m outage-rules '[.cases[].results.OUTAGE | .loss_over_load_s == .lost_pkts / 10000 and (.gaps | type) == "array"] | all')" true
echo "# outage rules: gaps $(m outage-rules '[.cases[] | [.params.mode, [.results.OUTAGE.gaps[] | [.start_ns, .duration_ns, .lost_pkts]]]]' | tr -d ' \n')"

# RFC 2544 throughput: MLR-lite finds the ceiling of a forwarder held at 1000 × 50
rfc() {
	# poll mode needs its clock on time: a late tick fires once and costs its rounds
	prof rfc2544-throughput "${short[@]}" --set size=64 --set mode=poll --set pollhz=1000 \
		--set router.rt_prio=5 \
		--set burst_max=50 --set trial.max_load=80k --set trial.initial=0.5s \
		--set trial.duration=1s --set trial.width=0.05
	ndr=$(m rfc2544-throughput ".cases[0].metrics.ndr_pps // 0 | floor")
	pdr=$(m rfc2544-throughput ".cases[0].metrics.pdr_pps // 0 | floor")
}
rfc
# The ceiling from the 0.5 %-loss goal (PDR). A vCPU stall in one 1-s trial can lose
# more than 0.5 % below the ceiling, and the search, which takes every loss as real (as
# RFC 2544 does), then settles lower: one clean-clone CI run found NDR 28,275, another
# PDR 30,194. Such a search is run once more (its trials printed); a forwarder whose
# ceiling is wrong misses twice.
if [ "$pdr" -lt 42000 ] || [ "$pdr" -gt 52000 ]; then
	echo "# rfc2544: PDR $pdr outside 42,000..52,000; trials (load, loss ratio):"
	m rfc2544-throughput '.cases[0].trials[] | "#   \(.offered_pps | floor) pps: loss \(.loss_ratio)"' | head -n 20
	echo "# rfc2544: searching again"
	rfc
fi
if [ -n "$spoiled" ]; then
	for d in "one cell: NDR and PDR listed" "64-byte PDR at the 50,000 pps ceiling" \
		"64-byte NDR not above the ceiling" "NDR ≤ PDR"; do
		skip "rfc2544: $d" "the host stalled the sender through a load's every repetition"
	done
else
check "rfc2544: one cell: NDR and PDR listed" grep -qE "^  ndr_pps +[0-9]+" "$T/rfc2544-throughput.txt"
check "rfc2544: 64-byte PDR ($pdr pps) at the 50,000 pps ceiling, within the search's width" \
	test "$pdr" -ge 42000 -a "$pdr" -le 52000
check "rfc2544: 64-byte NDR ($ndr pps) not above the ceiling" test "$ndr" -gt 0 -a "$ndr" -le 52000
[ "$ndr" -ge 42000 ] || echo "# rfc2544: NDR $ndr below the ceiling: a trial lost frames at a lower load"
eq "rfc2544: NDR ≤ PDR" "$(m rfc2544-throughput '[.cases[].metrics | .ndr_pps <= .pdr_pps] | all')" true
fi
eq "rfc2544: deviations from RFC 2544 are recorded" \
	"$(m rfc2544-throughput '.method.rfc2544_deviations | length > 0')" true
done_testing
