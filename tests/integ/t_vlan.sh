#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_vlan.sh — 802.1Q and QinQ test frames from ppslab-gen to ppslab-sink over the lab's
# gen0 - rut0 link (no forwarder), with exact books: one tag and QinQ, IPv4 and IPv6,
# sent from every L2 backend (afpacket:, pcap:, xdp:, libnet:), received on afpacket
# (where Linux takes the outer tag out and the port puts it back from the ring's
# header), on pcap: (whose filter lets tagged frames through) and on xdp: (where the
# frame arrives as it was sent). The sink counts every frame per stream and per VLAN
# (each VLAN's count the frames its sender sent, less only what the host dropped), its
# bytes with the tags (the tag the kernel took out counted again); a two-thread sink's
# fanout finds the stream id behind the tags (stream s on thread s mod 2, never split);
# a sink told --vlan 100 counts the other VLANs' and the untagged frames as wrong_vlan
# errors, none as test traffic. First, a tagged frame may pass the MTU by one tag, not more.
. "$(dirname "$0")/lib.sh"
RMAC=02:70:70:00:00:01     # rut0's (lab.c)
lab_up

# the MTU (1500) takes one tag beyond it, as Linux does: 1522 bytes with FCS, not 1526
inns gen "$B/ppslab-gen" -i gen0 --vlan 10 --size 1526 --count 1 >/dev/null 2>"$T/mtu.err"
eq "gen: 1526 tagged bytes do not fit MTU 1500: exit 64" "$?" 64
check "... saying the one tag beyond the MTU" grep -q \
	"frames of 1526 bytes with FCS do not fit gen0 (MTU 1500: at most 1522 with FCS, one tag beyond the MTU)" \
	"$T/mtu.err"

# afpacket sinks: every frame; two threads; one that expects VLAN 100 only
start sink rut "$B/ppslab-sink" -i rut0 --duration 60 --json \
	--expect-from "$T/g1.out" --expect-from "$T/g2.out" --expect-from "$T/g3.out" \
	--expect-from "$T/g4.out" --expect-from "$T/g5.out" --expect-from "$T/g6.out"
start tsink rut "$B/ppslab-sink" -i rut0 --threads 2 --duration 60 --json
start wsink rut "$B/ppslab-sink" -i rut0 --vlan 100 --duration 60 --json
start psink rut "$B/ppslab-sink" -i pcap:rut0 --duration 60 --json
wait_ready sink; wait_ready tsink; wait_ready wsink; wait_ready psink

# stream: backend, family, tags, sizes, count
gen() {   # gen STREAM BACKEND DST VLAN SIZE COUNT
	local args=()
	[ "$4" != - ] && args=(--vlan "$4")
	start "g$1" gen "$B/ppslab-gen" -i "$2:gen0" --dst "$3" --dst-mac $RMAC "${args[@]}" \
		--size "$5" --rate 10k --count "$6" --stream "$1" --json
	finish "g$1" 30; eq "gen stream $1 ($2, --vlan $4, --size $5): exits 0" "$RC" 0
}
gen 1 afpacket 198.18.0.1 100 68,1522 3000
gen 2 afpacket 198.18.0.1 200:5,100 72,1518 2800
gen 3 pcap 2001:2::1 300:3 imix 2400
gen 4 xdp 2001:2::1 400,30:2 92 2000
gen 5 libnet 198.18.0.1 0:7 68 1000
gen 6 afpacket 198.18.0.1 - 64 1000
eq "gen: the tags in its summary (one tag, QinQ, none)" \
	"$(jv g1 ".vlan | tojson") $(jv g4 ".vlan | tojson") $(jv g6 ".vlan | tojson")" \
	'{"vid":100,"pcp":0,"outer_vid":null,"outer_pcp":null} {"vid":30,"pcp":2,"outer_vid":400,"outer_pcp":0} null'
eq "gen: imix from 88 with a tag over IPv6" "$(jv g3 '.sizes | map("\(.size):\(.weight)") | join(",")')" \
	"88:7,594:4,1518:1"
total=$((3000 + 2800 + 2400 + 2000 + 1000 + 1000))
sink_done sink $total; eq "sink exits 0" "$RC" 0
sink_done tsink $total; eq "two-thread sink exits 0" "$RC" 0
sink_done wsink $total; eq "--vlan 100 sink exits 0" "$RC" 0
sink_done psink $total; eq "pcap sink exits 0" "$RC" 0

hostdrops=$(jv sink '.ring_drops + .if_drops')
# vlan key of each stream as the sink reports it: tags,vid,outer_vid
declare -A key=([1]="1,100,null" [2]="2,100,200" [3]="1,300,null" [4]="2,30,400" [5]="1,0,null" [6]="0,null,null")
for s in 1 2 3 4 5 6; do
	eq "stream $s: sent = received + lost, no duplicates or reordering" \
		"$(jv sink "[.streams[] | select(.stream == $s) | .rx_pkts + .lost_pkts, .dup_pkts, .reordered_pkts] | join(\",\")")" \
		"$(jv g$s .test_pkts),0,0"
	eq "stream $s: its VLAN (${key[$s]}) counted its frames, less its lost ones" \
		"$(jv sink "[(.vlans[] | select(\"\(.tags),\(.vid),\(.outer_vid)\" == \"${key[$s]}\") | .pkts) + (.streams[] | select(.stream == $s) | .lost_pkts)] | add")" \
		"$(jv g$s .test_pkts)"
	eq "stream $s: on thread $((s % 2)) of two (the fanout reads the stream id behind the tags), not split" \
		"$(jv tsink "[.streams[] | select(.stream == $s) | .thread, .split] | join(\",\")")" "$((s % 2)),false"
	hostdrops=$((hostdrops + $(jv g$s '.if_tx_dropped // 0')))
done
eq "six VLAN entries, none wrong, none beyond the table" \
	"$(jv sink '[(.vlans | length), ([.vlans[] | select(.wrong_vlan)] | length), .vlans_other_pkts] | join(",")')" "6,0,0"
eq "lost: only what the host dropped on the way" "$(jv sink .lost_pkts)" "$hostdrops"
eq "no errors, nothing foreign or other" "$(jv sink '.err_pkts + .foreign_pkts + .other_pkts')" 0
if [ "$(jv sink '.streams[] | select(.stream == 1) | .lost_pkts')" = 0 ]; then
	eq "stream 1: its bytes count the tag the kernel took out (1,500 x 68 + 1,500 x 1522)" \
		"$(jv sink '.streams[] | select(.stream == 1) | .rx_bytes')" $((1500 * 68 + 1500 * 1522))
else
	skip "stream 1: its bytes" "the host dropped some of its frames, of unknown sizes"
fi
if [ "$(jv sink '.streams[] | select(.stream == 2) | .lost_pkts')" = 0 ]; then
	eq "stream 2: its bytes count both tags (1,400 x 72 + 1,400 x 1518)" \
		"$(jv sink '.streams[] | select(.stream == 2) | .rx_bytes')" $((1400 * 72 + 1400 * 1518))
else
	skip "stream 2: its bytes" "the host dropped some of its frames, of unknown sizes"
fi
counted "two threads: every test frame" tsink "$(jv tsink .rx_pkts)" $total
counted "pcap: every test frame through its filter, QinQ too" psink "$(jv psink .rx_pkts)" $total
eq "pcap: six VLAN entries" "$(jv psink '.vlans | length')" 6
counted "--vlan 100: VLAN 100's frames as test traffic" wsink "$(jv wsink .rx_pkts)" 3000
counted "--vlan 100: every other tag stack's (QinQ with inner 100 too) and the untagged as wrong_vlan" \
	wsink "$(jv wsink .classes.wrong_vlan)" $((total - 3000))
eq "--vlan 100: wrong_vlan frames are errors, flagged per VLAN" \
	"$(jv wsink '[.err_pkts == .classes.wrong_vlan, ([.vlans[] | select(.wrong_vlan)] | length), .vlan_expect] | join(",")')" \
	"true,5,100"

# xdp: the frames as they were sent, tags in place
inns rut "$B/ppslab-sink" -i xdp:rut0 --duration 0.2 >/dev/null 2>"$T/probe.err"
if [ $? != 0 ]; then
	skip "xdp: sink" "$(head -n 1 "$T/probe.err")"
	done_testing
	exit 0
fi
start xsink rut "$B/ppslab-sink" -i xdp:rut0 --duration 60 --json \
	--expect-from "$T/g7.out" --expect-from "$T/g8.out"
wait_ready xsink
gen 7 afpacket 198.18.0.1 700:1 68,1522 2000
gen 8 afpacket 2001:2::1 800,80 92 2000
sink_done xsink 4000; eq "xdp sink exits 0" "$RC" 0
xdrops=$(($(host_lost xsink g7) + $(jv g8 '.if_tx_dropped // 0')))
eq "xdp sink: received + lost = what the senders sent, lost = the host's drops ($xdrops)" \
	"$(jv xsink '[.rx_pkts + .lost_pkts, .lost_pkts] | join(",")')" \
	"$(($(jv g7 .test_pkts) + $(jv g8 .test_pkts))),$xdrops"
for s in 7 8; do
	k=$([ $s = 7 ] && echo "1,700,null" || echo "2,80,800")
	eq "xdp sink: VLAN $k counted stream $s's frames, less its lost ones" \
		"$(jv xsink "[(.vlans[] | select(\"\(.tags),\(.vid),\(.outer_vid)\" == \"$k\") | .pkts) + (.streams[] | select(.stream == $s) | .lost_pkts)] | add")" \
		"$(jv g$s .test_pkts)"
done
eq "xdp sink: no errors, nothing foreign" "$(jv xsink '.err_pkts + .foreign_pkts')" 0
done_testing
