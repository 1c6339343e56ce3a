#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_modes.sh — ppslab-rut forwards exactly at a modest rate in each scheduling mode
# (poll, intr, busy), and in both directions at once: every frame read is forwarded,
# none dropped, the sink receives every frame, and rx = fwd + drops in the JSON.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up

N=30000
declare -A want_watched=([poll]="0 of 4" [intr]="2 of 4" [busy]="0 of 4")
for mode in poll intr busy; do
	start sink_$mode sink "$B/ppslab-sink" -i sink0 --duration 60 --json
	start rut_$mode rut "$B/ppslab-rut" -i rut0 -o rut1 --mode $mode --json
	wait_ready sink_$mode; wait_ready rut_$mode
	eq "$mode: port sockets in an epoll set (receive sockets, of 4)" \
		"$(watched_ports "${BG_PID[rut_$mode]}")" "${want_watched[$mode]}"
	base=$(ifc sink sink0 rx_packets)
	start gen_$mode gen "$B/ppslab-gen" -i gen0 --rate 20k --count $N --json
	finish gen_$mode 30; eq "$mode: gen exits 0" "$RC" 0
	arrived sink sink0 "$base" $N
	# before the stop: frames the forwarder held back for a fuller send left when it
	# found nothing more to read, not on its way out
	eq "$mode: sink0 had all $N while the forwarder ran" "$(($(ifc sink sink0 rx_packets) - base))" $N
	stop rut_$mode; eq "$mode: rut exits 0 on SIGINT" "$RC" 0
	sink_done sink_$mode $N; eq "$mode: sink exits 0" "$RC" 0
	eq "$mode: gen sent $N" "$(jv gen_$mode .tx_pkts)" $N
	eq "$mode: rut summary says its mode" "$(jv rut_$mode .mode)" $mode
	[ "$(jv rut_$mode .fwd_pkts)" = $N ] ||
		{ hops; echo "# $mode: rut $(jv rut_$mode '{rx_pkts, fwd_pkts, kernel_drops, drops} | @json')"; }
	eq "$mode: rut read $N" "$(jv rut_$mode .rx_pkts)" $N
	eq "$mode: rut forwarded $N" "$(jv rut_$mode .fwd_pkts)" $N
	eq "$mode: rut dropped 0" "$(jv rut_$mode .drop_pkts)" 0
	eq "$mode: rx = fwd + drop" "$(jv rut_$mode '.rx_pkts == .fwd_pkts + .drop_pkts')" true
	eq "$mode: rut0 read $N, rut1 sent $N" \
		"$(jv rut_$mode '[.ports[0].rx_pkts, .ports[1].tx_pkts] | join(",")')" "$N,$N"
	# exactness is judged at the next hop's own counter; what the sink process then
	# counted or lost at its ring is the sink's (a loaded machine can starve it)
	eq "$mode: sink0 received $N (interface counter)" "$(jv sink_$mode .if_rx_packets)" $N
	eq "$mode: sink counted or ring-dropped $N" "$(jv sink_$mode '.rx_pkts + .ring_drops')" $N
	[ "$(jv sink_$mode .ring_drops)" = 0 ] || echo "# $mode: the sink itself dropped $(jv sink_$mode .ring_drops) at its ring"
	eq "$mode: sink errors 0" "$(jv sink_$mode .err_pkts)" 0
done
eq "poll: the scheduler ticked" "$(jv rut_poll '.polling.ticks > 0 and .polling.rounds > 0')" true
eq "poll: two handlers registered" "$(jv rut_poll .polling.handlers)" 2
eq "busy: no ticks" "$(jv rut_busy .polling.ticks)" 0
eq "intr, busy: no handlers registered" "$(jv rut_intr .polling.handlers),$(jv rut_busy .polling.handlers)" 0,0

# both directions at once: gen -> sink and sink -> gen, each with its own sink
start sinkA sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start sinkB gen "$B/ppslab-sink" -i gen0 --duration 60 --json
start rut_bi rut "$B/ppslab-rut" -i rut0 -o rut1 --json
wait_ready sinkA; wait_ready sinkB; wait_ready rut_bi
baseA=$(ifc sink sink0 rx_packets) baseB=$(ifc gen gen0 rx_packets)
start genA gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --stream 1 --rate 15k --count $N --json
start genB sink "$B/ppslab-gen" -i sink0 --dst 198.18.0.2 --stream 2 --rate 15k --count $N --json
finish genA 30; eq "bidir: gen A exits 0" "$RC" 0
finish genB 30; eq "bidir: gen B exits 0" "$RC" 0
arrived sink sink0 "$baseA" $N
arrived gen gen0 "$baseB" $N
stop rut_bi; eq "bidir: rut exits 0" "$RC" 0
sink_done sinkA $N; eq "bidir: sink A exits 0" "$RC" 0
sink_done sinkB $N; eq "bidir: sink B exits 0" "$RC" 0
eq "bidir: rut forwarded both" "$(jv rut_bi .fwd_pkts)" $((2 * N))
eq "bidir: each port read one direction" \
	"$(jv rut_bi '[.ports[].fwd_pkts] | join(",")')" "$N,$N"
eq "bidir: sink0 received $N" "$(jv sinkA .if_rx_packets)" $N
eq "bidir: gen0 received $N" "$(jv sinkB .if_rx_packets)" $N
eq "bidir: sink A saw only stream 1" "$(jv sinkA '[.streams[].stream] | join(",")')" 1
eq "bidir: sink B saw only stream 2" "$(jv sinkB '[.streams[].stream] | join(",")')" 2
eq "bidir: each sink counted or ring-dropped $N" \
	"$(jv sinkA '.rx_pkts + .ring_drops'),$(jv sinkB '.rx_pkts + .ring_drops')" "$N,$N"
done_testing
