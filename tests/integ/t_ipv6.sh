#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_ipv6.sh — IPv6 test frames from ppslab-gen to ppslab-sink over the lab's gen0 - rut0
# link, with exact books per stream: a stream over an address and port range (source
# address from gen0's own nodad address), an IMIX stream with a flow label, one stream
# from each other backend (pcap:, libnet:, xdp:); a two-thread sink keeps every stream on
# one thread; a pcap: sink sees them through its BPF filter; every malformed IPv6 class
# crafted lands in its counter; the sender's --inject faults over IPv6 arrive as
# injected. The lab's IPv6 plan (docs/lab.md): every port's one address, quiet (no
# link-local), the routes and neighbours ppslab-gen -6 finds the next hop's MAC from
# (stream 2 has no --dst-mac) and the errors when either is missing. Last, the Linux
# kernel forwarding IPv6 in the router namespace behind an nftables policer: exact
# books (sent = received + lost, lost = what the policer dropped) and the forwarded
# rate the policer's.
. "$(dirname "$0")/lib.sh"
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
RMAC=02:70:70:00:00:01     # rut0's (lab.c)
lab_up

# the lab's IPv6: one address per port from 2001:2::/48, no link-local; the routes
addrs() { ip -n "$LAB-$1" -6 -j addr show dev "$2" | jq -r '[.[0].addr_info[] | "\(.local)/\(.prefixlen)"] | join(",")'; }
eq "lab: the ports' IPv6 addresses, and no link-local" \
	"$(addrs gen gen0) $(addrs rut rut0) $(addrs rut rut1) $(addrs sink sink0)" \
	"2001:2::2/64 2001:2::1/64 2001:2:0:1::1/64 2001:2:0:1::2/64"
eq "lab: IPv6 routes through the router" \
	"$(ip -n "$LAB-gen" -6 -j route show exact 2001:2:0:1::/64 | jq -r '.[0].gateway') $(ip -n "$LAB-sink" -6 -j route show exact 2001:2::/64 | jq -r '.[0].gateway')" \
	"2001:2::1 2001:2:0:1::1"
eq "lab: IPv6 forwarding on in the router" "$(inns rut sysctl -n net.ipv6.conf.all.forwarding)" 1
eq "lab: status checks the IPv6 neighbours and routes, and finds them" \
	"$("$B/ppslab" lab status --name "$LAB" | head -n 1)" "lab $LAB: up"

# no --dst-mac: the two errors, before anything is sent
inns gen "$B/ppslab-gen" -i gen0 --dst 2001:2:0:5::1 --count 1 >/dev/null 2>"$T/noroute.err"
eq "gen -6: no route: exit 69" "$?" 69
check "... naming the destination" grep -q "no route to 2001:2:0:5::1; give --dst-mac" "$T/noroute.err"
inns gen ip -6 neigh del 2001:2::1 dev gen0 || bail "cannot delete gen0's neighbour 2001:2::1"
inns gen "$B/ppslab-gen" -i gen0 -6 --count 1 >/dev/null 2>"$T/noneigh.err"
eq "gen -6: no neighbour entry: exit 69" "$?" 69
check "... naming the next hop and the command that adds it" grep -q \
	"no neighbour entry for next hop 2001:2::1 on gen0; give --dst-mac or add one (ip -6 neigh add 2001:2::1 lladdr MAC dev gen0 nud permanent)" \
	"$T/noneigh.err"
check "lab status: the IPv6 neighbour gone" grep -q "no permanent neighbour 2001:2::1 (02:70:70:00:00:01) on gen0" \
	<("$B/ppslab" lab status --name "$LAB")
lab_up     # puts it back

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
# stream 2: -6 with the default destination, IMIX (84:7,594:4,1518:1), a flow label;
# the MAC from gen0's route (2001:2:0:1::/64 via 2001:2::1) and neighbour: rut0's
start g2 gen "$B/ppslab-gen" -i gen0 -6 --src 2001:2::2 --size imix \
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

# the Linux kernel forwarding IPv6 in the router namespace (lab up turned it on; the
# shield off lets its kernel see the frames) behind an nftables policer on IPv6 of
# 5,000 pps with a 20-packet allowance; 10,000 frames offered at 10 kpps, with the
# router's MAC from gen0's tables. The token bucket forwards 20 + 5,000/s over the
# sender's span (1 s) and drops the rest.
"$B/ppslab" lab shield off --ns rut --name "$LAB" >/dev/null || bail "lab shield off"
inns rut nft -f - <<'NFT' || bail "cannot load the IPv6 policer"
table inet t_ipv6_limit {
 chain forward {
  type filter hook forward priority 0; policy accept;
  meta nfproto ipv6 limit rate over 5000/second burst 20 packets counter drop
  meta nfproto ipv6 counter accept
 }
}
NFT
nftc() {   # nftc N: the N-th counter of the policer (0: dropped, 1: forwarded)
	inns rut nft -j list table inet t_ipv6_limit | jq "[.nftables[].rule? // empty | .expr[] | .counter? // empty | .packets][$1]"
}
# the router's interface drops during this run (deltas; the shield's drops before it)
rd0=$(ifc rut rut0 rx_dropped) td1=$(ifc rut rut1 tx_dropped)
rut0_dropped() { echo $(($(ifc rut rut0 rx_dropped) - rd0)); }
rut1_dropped() { echo $(($(ifc rut rut1 tx_dropped) - td1)); }
start ksink sink "$B/ppslab-sink" -i sink0 --duration 60 --json --expect-from "$T/kgen.out"
wait_ready ksink
start kgen gen "$B/ppslab-gen" -i gen0 -6 --rate 10k --count 10000 --stream 6 --json
finish kgen 30; eq "gen -6 through the kernel: exits 0" "$RC" 0
sent=$(jv kgen .test_pkts)
# the router's books: forwarded + dropped = what came in; then the sink has the forwarded
router_done() {
	[ $(($(nftc 0) + $(nftc 1) + $(rut0_dropped) + $(jv kgen '.if_tx_dropped // 0'))) -ge "$sent" ]
}
wait_until 15 "the router's counters reach the $sent frames sent" router_done
fwd=$(nftc 1) drop=$(nftc 0)
sink_done ksink "$fwd"; eq "sink behind the kernel: exits 0" "$RC" 0
rdrops=$(($(rut0_dropped) + $(rut1_dropped)))
hl=$(host_lost ksink kgen)
echo "# sent $sent, policer forwarded $fwd and dropped $drop, router interfaces dropped $rdrops, host $hl; sender span $(jv kgen .duration_ns) ns, behind at most $(jv kgen .behind_max_ns) ns"
eq "kernel IPv6: sent = received + lost, lost = the policer's drops + the host's" \
	"$(jv ksink '.rx_pkts + .lost_pkts'),$(jv ksink .lost_pkts)" "$sent,$((drop + rdrops + hl))"
eq "kernel IPv6: received what the policer forwarded (but what rut1 and the sink's host dropped)" \
	"$(jv ksink .rx_pkts)" $((fwd - $(rut1_dropped) - $(jv ksink '.ring_drops + .if_drops')))
eq "kernel IPv6: nothing malformed, nothing foreign" "$(jv ksink '.err_pkts + .foreign_pkts')" 0
# the forwarded rate: the allowance plus 5,000/s over the sender's span, within 2 % as
# for IPv4 (t_run_stall.sh); a sender the host held back loses the policer's tokens
# of that time
want=$(jq -n "20 + 5000 * $(jv kgen .duration_ns) / 1e9 | floor")
if [ "$(jv kgen .behind_max_ns)" -lt 20000000 ]; then
	near "kernel IPv6: forwarded 20 + 5,000/s over the span ($want)" "$fwd" "$want" 0.02
else
	skip "kernel IPv6: the forwarded rate" "the host held the sender back $(jv kgen .behind_max_ns) ns"
fi
done_testing
