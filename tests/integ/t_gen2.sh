#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_gen2.sh — ppslab-gen's multi-frame features in the lab, each checked at a sink on
# the router's port: two pinned threads keep one gap-free stream and split the count
# exactly; warm-up frames are flagged and not counted on either side; a step profile
# and a Poisson run send what their schedule says; address/port ranges and IMIX arrive
# with valid checksums; a capture replays at a set count; --calibrate reports a
# ceiling and its pacing points as JSON.
. "$(dirname "$0")/lib.sh"
lab_up
DST=198.18.0.1

# The sinks run until they have what their sender sent, then SIGINT: an idle timeout
# would count from the sink's start and race a slow start of the sender.
# The sink reads the sender's count from its summary (--expect-from): a lost tail counts.
run_pair() {   # run_pair NAME GEN_ARGS...: sink on rut0, gen on gen0, both must exit 0
	local name=$1; shift
	start "s-$name" rut "$B/ppslab-sink" -i rut0 --duration 60 --expect-from "$T/g-$name.out" --json
	wait_ready "s-$name"
	start "g-$name" gen "$B/ppslab-gen" -i gen0 --dst $DST --json "$@"
	finish "g-$name" 40; eq "$name: gen exits 0" "$RC" 0
	sink_done "s-$name" "$(sent "g-$name")"; eq "$name: sink exits 0" "$RC" 0
}

# two threads pinned to two CPUs, 30,001 frames: the first two this test may use (gen
# refuses others), or its only one twice (make check-stress runs the tests on one)
read -r c0 c1 _ <<<"$(taskset -pc $$ | sed 's/.*: //' | awk -F, '{
	for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) printf "%d ", c } }')"
c1=${c1:-$c0}
run_pair thr --threads 2 --cpus "$c0,$c1" --rate 30k --count 30001 --stream 9
eq "threads: split exactly 15001 + 15000" "$(jv g-thr '[.per_thread[].tx_pkts] | join(",")')" "15001,15000"
eq "threads: pinned to CPUs $c0 and $c1" "$(jv g-thr '[.per_thread[].cpu] | join(",")')" "$c0,$c1"
eq "threads: one stream, no duplicates" "$(jv s-thr '[.dup_pkts, .streams[0].stream] | join(",")')" "0,9"
books "threads: gap-free" s-thr g-thr 30001
eq "threads: no sequence holes" "$(jv g-thr .seq_holes)" 0

# warm-up: flagged frames first, counted apart on both sides
run_pair warm --rate 10k --warmup 500ms --count 5000
wu=$(jv g-warm .warmup_pkts)
# a count in a window (500 ms at 10k): right, or the sender says it was held back
check "warm-up: warm-up frames sent, at most the 500 ms schedule's ($wu)" test "$wu" -ge 1 -a "$wu" -le 5100
if [ "$wu" -ge 4000 ] || [ "$(jv g-warm .late)" = 0 ]; then
	check "warm-up: about 5000 of them ($wu)" test "$wu" -ge 4000
else
	skip "warm-up: about 5000 of them ($wu)" "the sender was held back: $(jv g-warm .late) frames late"
fi
within "warm-up: the sink set those aside, less the host's drops" "$(jv s-warm .warmup_pkts)" \
	$((wu - $(host_lost s-warm g-warm))) "$wu"
books "warm-up: 5000 measured frames" s-warm g-warm 5000
eq "warm-up: gen counts only the measured ones" "$(jv g-warm .tx_pkts)" 5000
eq "warm-up: the interface saw both" "$(jv g-warm .if_tx_packets)" "$((wu + 5000))"

# a step profile with a pause: 2000 + 6000 frames exactly
run_pair steps --steps 10k@200ms,0@300ms,20k@300ms
eq "steps: the schedule's 8000 frames, sent" "$(jv g-steps .sched_pkts),$(jv g-steps .tx_pkts)" "8000,8000"
books "steps: received" s-steps g-steps 8000
eq "steps: profile named" "$(jv g-steps .profile)" steps

# Poisson arrivals at 20k for 2 s: gaps spread like an exponential, whose p99 is 4.6
# times the mean (constant pacing keeps it near the mean)
run_pair poi --rate 20k --poisson --duration 2
n=$(jv g-poi .tx_pkts)
# a count in a window (2 s at 20k): right, or the sender says it missed its rate
check "poisson: at most about 40,000 frames ($n)" test "$n" -le 42000
if [ "$n" -ge 38000 ] || [ "$(jv g-poi .rate_ok)" = true ]; then
	check "poisson: about 40,000 frames ($n)" test "$n" -ge 38000
else
	skip "poisson: about 40,000 frames ($n)" "the sender says it missed its rate (rate_ok false, $(jv g-poi .late) late)"
fi
books "poisson: all arrive" s-poi g-poi "$n"
# (the gaps the frames left with: a sender held back by the host sends its late frames
# back to back, and says how many were late; fewer than 1 % late cannot move the p99)
if [ "$(jv g-poi '.gap_ns.p99 > 3 * .gap_ns.nominal_ns')" = true ] || [ $(($(jv g-poi .late) * 100)) -lt "$n" ]; then
	eq "poisson: gap p99 above 3x the nominal 50 us ($(jv g-poi .gap_ns.p99) ns)" \
		"$(jv g-poi '.gap_ns.p99 > 3 * .gap_ns.nominal_ns')" true
else
	skip "poisson: gap p99 above 3x the nominal 50 us ($(jv g-poi .gap_ns.p99) ns)" \
		"the sender was held back: $(jv g-poi .late) of $n frames late"
fi

# ranges and IMIX: 16 destinations x 16 source ports at random, sizes 7:4:1
run_pair flows --dst 198.18.0.1 --src 198.18.0.100-198.18.0.115 --flows 16 --flow-order random \
	--size imix --rate 40k --count 12000
eq "flows: 256 flows" "$(jv g-flows .flows)" 256
eq "flows+imix: valid checksums" "$(jv s-flows .err_pkts)" 0
books "flows+imix: all 12000 arrive" s-flows g-flows 12000
if [ "$(jv s-flows .lost_pkts)" = 0 ]; then
	eq "imix: bytes are exactly 7:4:1 of 64/594/1518" "$(jv s-flows .rx_bytes)" "$((1000 * (7 * 64 + 4 * 594 + 1518)))"
else
	skip "imix: bytes are exactly 7:4:1 of 64/594/1518" "the host dropped $(jv s-flows .lost_pkts) frames on the way"
fi

# replay: a one-frame capture (IPv4/UDP to 198.18.0.1:9, no signature) 1000 times
cap=$T/one.pcap
{
	printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00'
	printf '\x00\x00\x00\x00\x00\x00\x00\x00\x3c\x00\x00\x00\x3c\x00\x00\x00'
	mac=$(ip -n "$LAB-rut" -j link show dev rut0 | jq -r '.[0].address' | sed 's/:/\\x/g')
	printf "\\x$mac"
	printf '\x02\x00\x00\x00\x00\x01\x08\x00'
	printf '\x45\x00\x00\x2e\x00\x00\x00\x00\x40\x11\xee\x97\xc6\x12\x00\x02\xc6\x12\x00\x01'
	printf '\x00\x09\x00\x09\x00\x1a\x00\x00'
	printf '\x00%.0s' $(seq 18)
} >"$cap"
start s-rep rut "$B/ppslab-sink" -i rut0 --duration 60 --json
wait_ready s-rep
start g-rep gen "$B/ppslab-gen" -i gen0 --replay "$cap" --rate 20k --count 1000 --json
finish g-rep 30; eq "replay: gen exits 0" "$RC" 0
sink_done s-rep "$(sent g-rep)"; eq "replay: sink exits 0" "$RC" 0
eq "replay: 1000 frames sent" "$(jv g-rep '[.tx_pkts, .replay_frames, .mode] | join(",")')" "1000,1,replay"
eq "replay: the sink saw them as foreign frames, but for the host's drops" \
	"$(($(jv s-rep .classes.foreign) + $(host_lost s-rep g-rep)))" 1000
eq "replay: the summary claims no addresses or ports of its own" \
	"$(jv g-rep '[.src, .dst, .sports, .dports, .dport] | map(. == null) | all')" true
# with --steps the capture repeats for the steps' length, not once
start g-rep2 gen "$B/ppslab-gen" -i gen0 --replay "$cap" --steps 10k@100ms,0@50ms,10k@100ms --json
finish g-rep2 30; eq "replay with steps: gen exits 0" "$RC" 0
eq "replay with steps: the steps' 2000 frames" "$(jv g-rep2 '[.tx_pkts, .profile] | join(",")')" "2000,steps"

# calibration: a ceiling and three paced points, as JSON for ppslab run
start cal gen "$B/ppslab-gen" -i gen0 --dst $DST --calibrate --duration 1 --json
finish cal 30; eq "calibrate: exits 0" "$RC" 0
check "calibrate: max_pps is a positive rate ($(jv cal .max_pps))" \
	test "$(jv cal '.max_pps > 1000')" = true
eq "calibrate: three points at 10/50/90%" "$(jv cal '[.points[].fraction] | join(",")')" "0.1,0.5,0.9"
check "calibrate: each point has its target, error and gaps" \
	test "$(jv cal '[.points[] | has("target_pps","pps","rate_error_pct","late","gap_ns")] | all')" = true
eq "calibrate: mode" "$(jv cal .mode)" calibrate
eq "calibrate: the ready line first, before the first measurement" "$(first_type cal)" ready
done_testing
