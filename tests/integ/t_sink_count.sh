#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_sink_count.sh — the sink counts exactly: every frame the sender sent, equal to the
# receiving interface's own counter, with latency on; the sender's summary gives the tail
# loss; loss, duplicates and reordering made on the wire are counted as made; two senders
# with different stream ids (one per direction, on two -i ports) are kept apart.
. "$(dirname "$0")/lib.sh"
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
lab_up

# 1. 50,000 frames at 25 kpps, gen -> rut0 directly
# the sinks run until their senders are done (then SIGINT): no race with slow starts
start sink rut "$B/ppslab-sink" -i rut0 --duration 60 --json --expect-from "$T/gen.out"
wait_ready sink
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate 25k --count 50000 --json
finish gen 30; eq "gen exits 0" "$RC" 0
# a host that holds the sink past its ring makes the kernel drop there and count it
# (PACKET_STATISTICS): the books balance to the frame, the drops named as the sink's
sink_has sink 50000 >/dev/null || true
stop sink; eq "sink exits 0" "$RC" 0
rd=$(jv sink .ring_drops); case $rd in '' | *[!0-9]*) rd=0 ;; esac
[ "$rd" -gt 0 ] && echo "# the sink's ring dropped $rd frames: the host held the sink that long"
got=$((50000 - rd))
eq "gen sent 50000" "$(jv gen .tx_pkts)" 50000
eq "sink received 50000 less its ring drops" "$(jv sink .rx_pkts)" "$got"
eq "lost: exactly the ring drops" "$(jv sink .lost_pkts)" "$rd"
eq "the loss is the sink's own" "$(jv sink .sink_dropped_pkts)" "$rd"
eq "the interface counted what the sink counted" "$(jv sink .if_rx_packets)" "$(jv sink .rx_frames + .ring_drops)"
eq "every frame read was a test frame" "$(jv sink .rx_frames)" "$got"
eq "host drops 0" "$(jv sink .if_drops)" 0
eq "expected count from the sender's summary" "$(jv sink '.streams[0].expect')" 50000
eq "latency for every frame received" "$(jv sink '.latency_ns.count')" "$got"
eq "latency p50 > 0 and <= p99 <= max" "$(jv sink '.latency_ns | .p50 > 0 and .p50 <= .p99 and .p99 <= .max')" true
# the histogram's buckets (what ppslab run counts late frames from) hold every delay,
# each bucket's range around the values it holds
eq "latency buckets add up to the count" "$(jv sink '[.latency_ns.buckets[][2]] | add')" "$got"
eq "latency buckets span min..max" "$(jv sink '.latency_ns | .buckets[0][0] <= .min and .buckets[-1][1] >= .max and .buckets[0][1] >= .min')" true
eq "clock stated" "$(jv sink .delay_clock)" realtime
eq "delays plausible" "$(jv sink .delay_valid)" true
check "interval lines carry latency p99" test "$(grep -c '"latency_p99_ns"' "$T/sink.out")" -ge 1
eq "intervals add up to the total" "$(grep '"type":"interval"' "$T/sink.out" | jq -s 'map(.rx_pkts) | add')" "$got"

# 2. loss, duplicates and reordering made on the wire; tail loss from the summary
start sink2 rut "$B/ppslab-sink" -i rut0 --duration 60 --json \
	--expect-from "$T/lossy.out" --expect-from "$T/reord.out"
wait_ready sink2
inns gen "$CRAFT" -i gen0 --stream 6 --seqs 0-999,1100-1899 --claim 2000 --rate 20k >"$T/lossy.out"
eq "craft (lossy) exits 0" "$?" 0
inns gen "$CRAFT" -i gen0 --stream 7 --seqs 0-99,150-199,100-149,42,42,200-299 --rate 20k >"$T/reord.out"
eq "craft (reordered) exits 0" "$?" 0
sink_done sink2 $((1800 + 302)); eq "sink exits 0" "$RC" 0
s6='.streams[] | select(.stream == 6)'
s7='.streams[] | select(.stream == 7)'
eq "stream 6: 1800 received" "$(jv sink2 "$s6 | .rx_pkts")" 1800
eq "stream 6: 100 lost in a gap + 100 at the tail" "$(jv sink2 "$s6 | .lost_pkts")" 200
eq "stream 6: one burst of 100 (the tail is one too)" "$(jv sink2 "$s6 | .max_loss_burst")" 100
eq "stream 7: 300 distinct" "$(jv sink2 "$s7 | .rx_pkts")" 300
eq "stream 7: 50 reordered, not lost" "$(jv sink2 "$s7 | .reordered_pkts")" 50
eq "stream 7: 2 duplicates" "$(jv sink2 "$s7 | .dup_pkts")" 2
eq "stream 7: lost 0" "$(jv sink2 "$s7 | .lost_pkts")" 0
# arrival positions: 0..99 at 1..100, 150..199 at 101..150, 100..149 at 151..200: seq 149
# arrives at 200, the earliest higher number (150) at 101: RFC 4737 extent 200 − 101
eq "stream 7: RFC 4737 extent 99" "$(jv sink2 "$s7 | .max_reorder_extent")" 99
eq "the loss is the network's" "$(jv sink2 .network_lost_pkts)" 200
eq "not the sink's" "$(jv sink2 .sink_dropped_pkts)" 0

# 3. two senders, stream 1 into rut0 and stream 2 into rut1 (both directions at once);
#    the sink is stopped with SIGINT
start bidi rut "$B/ppslab-sink" -i rut0 -i rut1 --duration 60 --json
wait_ready bidi
start ga gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --stream 1 --rate 10k --count 20000 --json
start gb sink "$B/ppslab-gen" -i sink0 --dst 198.19.0.1 --stream 2 --rate 10k --count 15000 --json
finish ga 30; eq "sender A exits 0" "$RC" 0
finish gb 30; eq "sender B exits 0" "$RC" 0
sink_done bidi $((20000 + 15000)); eq "sink exits 0 on SIGINT" "$RC" 0
eq "a complete summary after SIGINT" "$(jv bidi .interrupted)" true
eq "two streams" "$(jv bidi '[.streams[].stream] | join(",")')" "1,2"
eq "stream 1: 20000" "$(jv bidi '.streams[] | select(.stream == 1) | .rx_pkts')" 20000
eq "stream 2: 15000" "$(jv bidi '.streams[] | select(.stream == 2) | .rx_pkts')" 15000
eq "no loss when kept apart" "$(jv bidi .lost_pkts)" 0
eq "rut0 counted stream 1" "$(jv bidi '.interfaces[] | select(.name == "rut0") | .rx_packets')" 20000
eq "rut1 counted stream 2" "$(jv bidi '.interfaces[] | select(.name == "rut1") | .rx_packets')" 15000
done_testing
