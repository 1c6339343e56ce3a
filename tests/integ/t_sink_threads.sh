#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_sink_threads.sh — --threads 2: each stream is owned by one thread (a PACKET_FANOUT_CBPF
# program picks the socket by the stream id byte), so a stream sent over 64 flows, which a
# flow hash would spread over both threads, is still counted exactly.
. "$(dirname "$0")/lib.sh"
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
lab_up

start sink rut "$B/ppslab-sink" -i rut0 --threads 2 --duration 60 --json
wait_ready sink
for id in 0 1 2 3; do
	start "c$id" gen "$CRAFT" -i gen0 --stream "$id" --flows 64 --seqs 0-4999 --rate 4k
done
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --stream 5 --rate 5k --count 5000 --json
for id in 0 1 2 3; do
	finish "c$id" 30; eq "sender $id exits 0" "$RC" 0
done
finish gen 30; eq "gen exits 0" "$RC" 0
sink_done sink $((4 * 5000 + 5000)); eq "sink exits 0" "$RC" 0
eq "two threads" "$(jv sink .threads)" 2
# Exact unless the sink itself fell behind: a thread's ring drops (a loaded machine, the
# sanitizer build) are the sink's own, counted per thread; then every frame is still
# accounted for — counted, or dropped at the ring of the thread that owns its stream.
rd0=$(jv sink '.workers[0].ring_drops') rd1=$(jv sink '.workers[1].ring_drops')
[ "$rd0$rd1" = 00 ] || echo "# the sink's own ring drops: thread 0 $rd0, thread 1 $rd1"
for id in 0 1 2 3 5; do
	sel=".streams[] | select(.stream == $id)"
	rd=$rd0; [ $((id % 2)) = 1 ] && rd=$rd1
	if [ "$rd" = 0 ]; then
		eq "stream $id: 5000 exactly" "$(jv sink "$sel | .rx_pkts")" 5000
		eq "stream $id: no loss, duplicates or reordering" \
			"$(jv sink "$sel | [.lost_pkts, .dup_pkts, .reordered_pkts] | join(\",\")")" "0,0,0"
	else
		check "stream $id: at most 5000, what is missing within its thread's $rd ring drops" \
			test $((5000 - $(jv sink "$sel | .rx_pkts"))) -le "$rd"
		eq "stream $id: no duplicates or reordering" \
			"$(jv sink "$sel | [.dup_pkts, .reordered_pkts] | join(\",\")")" "0,0"
	fi
	eq "stream $id: on thread $((id % 2))" "$(jv sink "$sel | .thread")" $((id % 2))
done
eq "no stream split across threads" "$(jv sink .split_streams)" 0
eq "thread 0 owns 0, 2" "$(jv sink '.workers[0].streams | join(",")')" "0,2"
eq "thread 1 owns 1, 3, 5" "$(jv sink '.workers[1].streams | join(",")')" "1,3,5"
eq "thread 0 read or ring-dropped 10000 frames" "$(jv sink '.workers[0] | .rx_frames + .ring_drops')" 10000
eq "thread 1 read or ring-dropped 15000 frames" "$(jv sink '.workers[1] | .rx_frames + .ring_drops')" 15000
eq "threads together = the interface" "$(jv sink .if_rx_packets)" 25000
eq "latency merged over threads: one per frame read" \
	"$(jv sink '.latency_ns.count == ([.workers[].rx_frames] | add)')" true
done_testing
