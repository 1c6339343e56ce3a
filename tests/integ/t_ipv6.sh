#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_ipv6.sh — IPv6 test frames from ppslab-gen to ppslab-sink over the lab's gen0 - rut0
# link, with exact books per stream: a stream over an address and port range (source
# address from gen0's own nodad address), an IMIX stream with a flow label, one stream
# from each other backend (pcap:, libnet:, xdp:); a two-thread sink keeps every stream on
# one thread; a pcap: sink sees them through its BPF filter; every malformed IPv6 class
# crafted lands in its counter; the sender's --inject faults over IPv6 arrive as
# injected. rut0 keeps IPv6 off, so its kernel sends nothing; gen0's may (MLD, router
# solicitations): ICMPv6, which the sink puts in not_udp.
. "$(dirname "$0")/lib.sh"
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
RMAC=02:70:70:00:00:01     # rut0's (lab.c)
lab_up
inns gen sysctl -qw net.ipv6.conf.gen0.disable_ipv6=0 || bail "cannot enable IPv6 on gen0"
inns gen ip -6 addr add 2001:2::2/64 dev gen0 nodad || bail "cannot add 2001:2::2 to gen0"

start sink rut "$B/ppslab-sink" -i rut0 --duration 60 --json \
	--expect-from "$T/g1.out" --expect-from "$T/g2.out" --expect-from "$T/gpcap.out" \
	--expect-from "$T/glibnet.out" --expect-from "$T/gxdp.out"
start tsink rut "$B/ppslab-sink" -i rut0 --threads 2 --duration 60 --json
start psink rut "$B/ppslab-sink" -i pcap:rut0 --duration 60 --json
wait_ready sink; wait_ready tsink; wait_ready psink

# stream 1: 4 destinations x 4 source ports, the source from gen0 (2001:2::2)
start g1 gen "$B/ppslab-gen" -i gen0 --dst 2001:2::1-2001:2::4 --flows 4 --dst-mac $RMAC \
	--rate 20k --count 20000 --stream 1 --json
finish g1 30; eq "gen stream 1 exits 0" "$RC" 0
eq "stream 1: IPv6, its source from gen0, 16 flows" \
	"$(jv g1 '[.ip_version, .src, .dst, .flows, .sizes[0].size] | join(" ")')" \
	"6 2001:2::2 2001:2::1-2001:2::4 16 84"
# stream 2: -6 with the default destination, IMIX (84:7,594:4,1518:1), a flow label
start g2 gen "$B/ppslab-gen" -i gen0 -6 --src 2001:2::2 --dst-mac $RMAC --size imix \
	--flow-label 703710 --rate 10k --count 6000 --stream 2 --json
finish g2 30; eq "gen stream 2 exits 0" "$RC" 0
eq "stream 2: IMIX from 84 bytes, the flow label, the default destination" \
	"$(jv g2 '[.dst, .flow_label, (.sizes | map("\(.size):\(.weight)") | join(","))] | join(" ")')" \
	"2001:2:0:1::2 703710 84:7,594:4,1518:1"
s=2
for be in pcap libnet xdp; do
	s=$((s + 1))
	start "g$be" gen "$B/ppslab-gen" -i "$be:gen0" --dst 2001:2::1 --dst-mac $RMAC \
		--rate 5k --count 2000 --stream $s --json
	finish "g$be" 30; eq "gen $be: exits 0" "$RC" 0
done
total=$((20000 + 6000 + 3 * 2000))
sink_done sink $total; eq "sink exits 0" "$RC" 0
sink_done tsink $total; eq "two-thread sink exits 0" "$RC" 0
sink_done psink $total; eq "pcap sink exits 0" "$RC" 0
hostdrops=$(jv sink '.ring_drops + .if_drops')
for g in g1 g2 gpcap glibnet gxdp; do
	st=$(jv $g .stream)
	eq "stream $st ($g): sent = received + lost, no duplicates" \
		"$(jv sink "[.streams[] | select(.stream == $st) | .rx_pkts + .lost_pkts, .dup_pkts] | join(\",\")")" \
		"$(jv $g .test_pkts),0"
	check "stream $st: on one thread of two" \
		test "$(jv tsink "[.streams[] | select(.stream == $st) | .split] | join(\",\")")" = false
	hostdrops=$((hostdrops + $(jv $g '.if_tx_dropped // 0')))
done
eq "lost: only what the host dropped on the way" "$(jv sink .lost_pkts)" "$hostdrops"
if [ "$(jv sink '.streams[] | select(.stream == 2) | .lost_pkts')" = 0 ]; then
	eq "stream 2: its bytes, IMIX's mean 373.5 per frame" \
		"$(jv sink '.streams[] | select(.stream == 2) | .rx_bytes')" 2241000
else
	skip "stream 2: its bytes" "the host dropped some of its frames, of unknown sizes"
fi
eq "no errors, nothing foreign" "$(jv sink '.err_pkts + .foreign_pkts')" 0
counted "two threads: every test frame" tsink "$(jv tsink .rx_pkts)" $total
counted "pcap: every test frame through its filter" psink "$(jv psink .rx_pkts)" $total
eq "pcap: ICMPv6 kept out by its filter" "$(jv psink .classes.not_udp)" 0

# malformed IPv6: class n of the list n times, numbered as stream 9
classes="truncated bad_len ip_fragment hop_limit_zero wrong_port bad_udp_csum zero_udp_csum foreign bad_sig_version not_udp"
start esink rut "$B/ppslab-sink" -i rut0 --duration 60 --json
wait_ready esink
n=0
for c in $classes; do
	n=$((n + 1))
	inns gen "$CRAFT" -i gen0 --ipv6 --dst-mac $RMAC --class "$c" --stream 9 \
		--seqs "0-$((n - 1))" --rate 2k >/dev/null || not_ok "craft $c" "exit $?"
done
sink_done esink 55; eq "error sink exits 0" "$RC" 0
# exact, or short by what the sink's ring and the host dropped
cnt() { counted "$1" esink "$(jv esink "$2")" "$3"; }
cnt "truncated: 1" .classes.truncated 1
cnt "bad payload length: 2" .classes.bad_len 2
cnt "a fragment header: 3" .classes.ip_fragment 3
cnt "hop limit 0: 4" .classes.hop_limit_zero 4
cnt "wrong port: 5" .classes.wrong_port 5
cnt "bad or zero UDP checksum: 6 + 7" .classes.bad_udp_csum 13
cnt "no magic: foreign 8" .classes.foreign 8
cnt "signature version: 9" .classes.bad_sig_version 9
check "another next header: not_udp, at least 10 (the kernel's ICMPv6 too)" \
	test "$(jv esink .classes.not_udp)" -ge 10
cnt "err_pkts: the malformed ones" .err_pkts $((1 + 2 + 3 + 4 + 13 + 9))
eq "none of them test traffic, not_ip4 none" "$(jv esink '.rx_pkts + .classes.not_ip4')" 0

# ppslab-gen --inject over IPv6: each fault as injected, no false loss
start isink rut "$B/ppslab-sink" -i rut0 --duration 60 --json --expect-from "$T/igen.out"
wait_ready isink
start igen gen "$B/ppslab-gen" -i gen0 --dst 2001:2::1 --dst-mac $RMAC --rate 20k \
	--count 10000 --inject udp-csum,len,magic --inject-rate 3% --json
finish igen 30; eq "gen -6 --inject exits 0" "$RC" 0
sink_done isink 10000; eq "sink exits 0" "$RC" 0
books "injected run" isink igen "$(jv igen .test_pkts)"
eq "bad UDP checksums, lengths, no magic as injected" \
	"$(jv isink '[.classes.bad_udp_csum, .classes.bad_len, .classes.foreign] | join(",")')" \
	"$(jv igen '[.inject.udp_csum, .inject.len, .inject.magic] | join(",")')"
done_testing
