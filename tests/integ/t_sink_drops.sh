#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_sink_drops.sh — frames the sink's own ring drops are reported as the sink's drops,
# not as network loss: a tiny ring (frames=64) and a sink stopped (SIGSTOP) while 20,000
# frames arrive in the middle of a run; the interface still counted every frame.
. "$(dirname "$0")/lib.sh"
lab_up

start sink rut "$B/ppslab-sink" -i afpacket:rut0,frames=64 --duration 60 --json \
	--expect-from "$T/gen.out"
wait_ready sink
base=$(ifc rut rut0 rx_packets)
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate 40k --count 100000 --json
# stopped in the middle of the run: once 10,000 frames have arrived, for the next
# 20,000 (the ring of 64 holds a few of them), counted by the interface
wait_until 20 "rut0 receiving the first 10,000 frames" ifc_at_least rut rut0 rx_packets $((base + 10000))
kill -STOP "${BG_PID[sink]}"
wait_until 20 "rut0 receiving 20,000 more while the sink was stopped" \
	ifc_at_least rut rut0 rx_packets $(($(ifc rut rut0 rx_packets) + 20000))
kill -CONT "${BG_PID[sink]}"
finish gen 30; eq "gen exits 0" "$RC" 0
sink_done sink 100000; eq "sink exits 0" "$RC" 0
eq "gen sent 100000" "$(jv gen .tx_pkts)" 100000
drops=$(jv sink .ring_drops)
check "the ring dropped frames while the sink was stopped ($drops)" test "$drops" -gt 1000
eq "every lost frame is a ring drop" "$(jv sink .lost_pkts)" "$drops"
eq "attributed to the sink" "$(jv sink .sink_dropped_pkts)" "$drops"
eq "not to the network" "$(jv sink .network_lost_pkts)" 0
eq "nor to the host" "$(jv sink .host_dropped_pkts)" 0
eq "received + lost = sent" "$(jv sink '.rx_pkts + .lost_pkts')" 100000
eq "the interface received all of them" "$(jv sink .if_rx_packets)" 100000
check "interval lines show the drops as idrops" \
	test "$(grep '"type":"interval"' "$T/sink.out" | jq -s 'map(.ring_drops) | add')" = "$drops"
done_testing
