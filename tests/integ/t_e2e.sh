#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_e2e.sh — the walking skeleton end to end: 100,000 frames at 25,000 pps from gen
# through the forwarder to the sink, and the same directly gen -> sink. Every frame is
# accounted for exactly: what the sink did not receive (by sequence, its tail counted
# from the sender's summary) is what the places on the way say they dropped, and the
# forwarder itself drops nothing. That every frame arrives is asserted when the host
# dropped none in the kernel (veth backlogs, the forwarder's or the sink's ring: a host
# starved of CPU, HACKING.md "Tests"); when it did, the measurement is repeated, up to
# three times, and the delivery checks are skipped with the host's drops as the reason
# only if every try had them.
. "$(dirname "$0")/lib.sh"
lab_up
N=100000 TRIES=3

# the frames the host dropped on the way, by name (a TAP comment), and their sum in
# $HOST_DROPS; the forwarder's own drops are not the host's
host_drops() {   # host_drops SENDER SINK [RUT RUT1_TX_DROPPED_BEFORE]
	local g s r k=0 t=0
	g=$(jv "$1" .if_tx_dropped) s=$(jv "$2" '.ring_drops + .if_drops')
	if [ -n "${3:-}" ]; then
		k=$(jv "$3" .kernel_drops) t=$(($(ifc rut rut1 tx_dropped) - $4))
	fi
	HOST_DROPS=$((g + k + t + s))
	echo "# host drops: gen0 tx_dropped $g (the sending CPU's veth backlog)${3:+, the forwarder ring $k, rut1 tx_dropped $t}, the sink's ring and interface $s"
}

# gen -> rut -> sink; the sinks run until they have what was sent, then SIGINT (an idle
# timeout would race a slow start of the sender)
for try in $(seq 1 $TRIES); do
	t0=$(ifc rut rut1 tx_dropped)
	start sink sink "$B/ppslab-sink" -i sink0 --duration 120 --expect-from "$T/gen.out" --json
	start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --json
	wait_ready sink; wait_ready rut
	start gen gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate 25k --count $N --json
	finish gen 60; rc_gen=$RC
	sink_done sink "$(sent gen)"; rc_sink=$RC
	stop rut; rc_rut=$RC
	host_drops gen sink rut "$t0"
	lost=$(jv sink .lost_pkts) named=$((HOST_DROPS + $(jv rut .drop_pkts)))
	[ "$HOST_DROPS" = 0 ] || [ "$lost" != "$named" ] || [ "$try" = $TRIES ] && break
	echo "# try $try: the host dropped $HOST_DROPS frames; measuring again"
done
eq "gen exits 0" "$rc_gen" 0
eq "sink exits 0" "$rc_sink" 0
eq "rut exits 0 on SIGINT" "$rc_rut" 0
eq "gen sent $N" "$(jv gen .tx_pkts)" $N
eq "gen failed 0" "$(jv gen .tx_fail)" 0
eq "gen interface counted $N" "$(jv gen .if_tx_packets)" $N
eq "gen reports whether it met its rate" "$(jv gen '.rate_ok | type')" boolean
# the books: read by the forwarder or dropped before it; forwarded or dropped by it;
# received by the sink or lost, every loss dropped at a named place
eq "gen0's frames: forwarder read + its ring's kernel drops + gen0's backlog drops = $N" \
	"$(($(jv rut '.rx_pkts + .kernel_drops') + $(jv gen .if_tx_dropped)))" $N
eq "rut: read = forwarded + dropped" "$(jv rut '.rx_pkts == .fwd_pkts + .drop_pkts')" true
eq "rut dropped 0 (by itself, for any reason)" "$(jv rut .drop_pkts)" 0
eq "sink: received + lost = $N (by sequence, the tail from gen's summary)" \
	"$(jv sink '.rx_pkts + .lost_pkts')" $N
eq "sink: every frame lost was dropped at a named place (host drops $HOST_DROPS)" "$lost" "$named"
[ "$lost" = "$named" ] || echo "# books: the sink lost $lost, the places on the way dropped $named;" \
	"rut read $(jv rut .rx_pkts), forwarded $(jv rut .fwd_pkts)"
eq "sink errors 0" "$(jv sink .err_pkts)" 0
eq "sink duplicates 0" "$(jv sink .dup_pkts)" 0
eq "sink foreign 0" "$(jv sink .foreign_pkts)" 0
eq "one stream, id 0" "$(jv sink '[.streams[].stream] | join(",")')" 0
eq "latency measured for every frame received" \
	"$(jv sink '.streams[0].latency_ns.count == .rx_pkts')" true
check "latency p50 is positive" test "$(jv sink '.streams[0].latency_ns.p50')" -gt 0
if [ "$HOST_DROPS" = 0 ]; then
	eq "rut forwarded $N" "$(jv rut .fwd_pkts)" $N
	eq "sink received $N" "$(jv sink .rx_pkts)" $N
	eq "sink lost 0" "$(jv sink .lost_pkts)" 0
else
	for d in "rut forwarded $N" "sink received $N" "sink lost 0"; do
		skip "$d" "the host dropped frames in the kernel in each of $TRIES tries ($HOST_DROPS in the last)"
	done
fi

# gen -> sink directly (the sink on the router's port, no forwarder)
for try in $(seq 1 $TRIES); do
	start direct rut "$B/ppslab-sink" -i rut0 --duration 120 --expect-from "$T/gen2.out" --json
	wait_ready direct
	start gen2 gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate 25k --count $N --json
	finish gen2 60; rc_gen=$RC
	sink_done direct "$(sent gen2)"; rc_sink=$RC
	host_drops gen2 direct
	lost=$(jv direct .lost_pkts)
	[ "$HOST_DROPS" = 0 ] || [ "$lost" != "$HOST_DROPS" ] || [ "$try" = $TRIES ] && break
	echo "# direct, try $try: the host dropped $HOST_DROPS frames; measuring again"
done
eq "direct: gen exits 0" "$rc_gen" 0
eq "direct: sink exits 0" "$rc_sink" 0
eq "direct: received + lost = $N" "$(jv direct '.rx_pkts + .lost_pkts')" $N
eq "direct: every frame lost was dropped at a named place" "$lost" "$HOST_DROPS"
eq "direct: errors 0" "$(jv direct .err_pkts)" 0
if [ "$HOST_DROPS" = 0 ]; then
	eq "direct: sink received $N" "$(jv direct .rx_pkts)" $N
	eq "direct: lost 0" "$(jv direct .lost_pkts)" 0
else
	for d in "direct: sink received $N" "direct: lost 0"; do
		skip "$d" "the host dropped frames in the kernel in each of $TRIES tries ($HOST_DROPS in the last)"
	done
fi
done_testing
