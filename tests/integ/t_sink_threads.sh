#!/usr/bin/env bash
# t_sink_threads.sh — --threads 2: each stream is owned by one thread (a PACKET_FANOUT_CBPF
# program picks the socket by the stream id byte), so a stream sent over 64 flows, which a
# flow hash would spread over both threads, is still counted exactly.
. "$(dirname "$0")/lib.sh"
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
lab_up

start sink rut "$B/ppslab-sink" -i rut0 --threads 2 --duration 60 --json
await_ready
for id in 0 1 2 3; do
	start "c$id" gen "$CRAFT" -i gen0 --stream "$id" --flows 64 --seqs 0-4999 --rate 4k
done
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --stream 5 --rate 5k --count 5000 --json
for id in 0 1 2 3; do
	finish "c$id" 30; eq "sender $id exits 0" "$RC" 0
done
finish gen 30; eq "gen exits 0" "$RC" 0
sleep 0.5
stop sink; eq "sink exits 0" "$RC" 0
eq "two threads" "$(jv sink .threads)" 2
for id in 0 1 2 3 5; do
	sel=".streams[] | select(.stream == $id)"
	eq "stream $id: 5000 exactly" "$(jv sink "$sel | .rx_pkts")" 5000
	eq "stream $id: no loss, duplicates or reordering" \
		"$(jv sink "$sel | [.lost_pkts, .dup_pkts, .reordered_pkts] | join(\",\")")" "0,0,0"
	eq "stream $id: on thread $((id % 2))" "$(jv sink "$sel | .thread")" $((id % 2))
done
eq "no stream split across threads" "$(jv sink .split_streams)" 0
eq "thread 0 owns 0, 2" "$(jv sink '.workers[0].streams | join(",")')" "0,2"
eq "thread 1 owns 1, 3, 5" "$(jv sink '.workers[1].streams | join(",")')" "1,3,5"
eq "thread 0 read 10000 frames" "$(jv sink '.workers[0].rx_frames')" 10000
eq "thread 1 read 15000 frames" "$(jv sink '.workers[1].rx_frames')" 15000
eq "threads together = the interface" "$(jv sink .if_rx_packets)" 25000
eq "latency merged over threads" "$(jv sink .latency_ns.count)" 25000
done_testing
