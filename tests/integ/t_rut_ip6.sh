#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_ip6.sh — ppslab-rut forwards IPv6 (docs/forwarder.md#ipv6): crafted IPv6 UDP
# frames (the helper craft6) on the connected route and on a static route through a
# static neighbour arrive with the hop limit decremented (the sink's kernel counts them
# by hop limit); hop limit 1 is dropped as ttl_expired and answered with an ICMPv6 time
# exceeded that the sender's kernel accepts (its checksum right, Icmp6InTimeExcds);
# the firewall's unreach, unreach6 and reset6 replies taken by the sender's kernel;
# no route, a bad payload length and frames for the router are counted by cause; the
# IPv6 counters account for every test frame.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
RUT0_MAC=02:70:70:00:00:01
SINK_MAC=02:70:70:01:00:02
CRAFT6=${PPSLAB_BUILD:?}/tests/helpers/craft6

# the lab turns IPv6 off and shields every namespace's stack: here the sender's and the
# sink's kernels take part (they count what arrives), the router's stays shielded
for r in gen rut sink; do
	inns $r sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.accept_dad=0 \
		net.ipv6.conf.all.accept_ra=0
done
inns gen sysctl -qw net.ipv6.conf.gen0.disable_ipv6=0
inns sink sysctl -qw net.ipv6.conf.sink0.disable_ipv6=0
inns rut sysctl -qw net.ipv6.conf.rut0.disable_ipv6=0 net.ipv6.conf.rut1.disable_ipv6=0
# the ports' addresses are the lab's (docs/lab.md#ipv6); one more behind a static route
inns sink ip -6 addr add 2001:2:8000::5/128 dev sink0 nodad
inns gen nft delete table netdev ppslab_shield
inns sink nft delete table netdev ppslab_shield
# the sink's kernel counts arrivals by hop limit
inns sink nft -f - <<'EOF'
table inet t6 {
	chain c { type filter hook input priority 0; policy accept;
		ip6 saddr 2001:2::2 ip6 hoplimit 63 counter
		ip6 saddr 2001:2::2 ip6 hoplimit 64 counter
		ip6 saddr 2001:2::2 ip6 hoplimit 1 counter
	}
	# no port unreachable of the sink's kernel for the test port: with the lab's
	# permanent neighbours it would go back through the firewall and its counts
	chain o { type filter hook output priority 0; policy accept;
		icmpv6 type destination-unreachable drop
	}
}
EOF
hl() {   # hl N: the sink's count of test packets that arrived with hop limit N
	inns sink nft -j list chain inet t6 c |
		jq -r --arg h "$1" '[.nftables[].rule? | select(. != null) |
			select(.expr[1].match.right == ($h|tonumber)) | .expr[2].counter.packets][0]'
}
timex() { inns gen awk '$1 == "Icmp6InTimeExcds" { print $2 }' /proc/net/snmp6; }
unreach6() { inns gen awk '$1 == "Icmp6InDestUnreachs" { print $2 }' /proc/net/snmp6; }
badin() { inns gen awk '$1 == "Icmp6InCsumErrors" { print $2 }' /proc/net/snmp6; }
tx0=$(timex); bad0=$(badin)

start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --ctl "$T/s" --json \
	--route "2001:2:8000::/33 via 2001:2:0:1::2" --neigh "2001:2:0:1::2=$SINK_MAC@rut1"
wait_ready rut
base=$(ifc sink sink0 rx_packets)
c6() { inns gen "$CRAFT6" -i gen0 --src 2001:2::2 --dst-mac $RUT0_MAC "$@" >/dev/null; }
c6 --dst 2001:2:0:1::2 --count 1000; eq "craft6: connected" "$?" 0
c6 --dst 2001:2:8000::5 --count 10 --size 300; eq "craft6: static route" "$?" 0
c6 --dst 2001:2:0:1::2 --count 10 --hlim 1; eq "craft6: hop limit 1" "$?" 0
c6 --dst 2001:2:8000::5 --count 10 --hlim 2; eq "craft6: hop limit 2" "$?" 0
c6 --dst 2001:2:7000::1 --count 10; eq "craft6: no route" "$?" 0
c6 --dst 2001:2:0:1::2 --count 10 --bad-plen; eq "craft6: bad payload length" "$?" 0
c6 --dst 2001:2::1 --count 10; eq "craft6: to the router" "$?" 0
arrived sink sink0 "$base" 1020
wait_until 15 "10 time exceeded at the sender" test "$(( $(timex) - tx0 ))" -ge 10
# everything read: the forwarder's own count of the test frames by cause
wait_until 15 "the forwarder read all 1060" sh -c \
	"'$B/ppslab-rut' ctl '$T/s' stats | jq -e '.ports[0].ip6_rx_pkts >= 1060' >/dev/null"
stop rut; eq "rut exits 0" "$RC" 0

eq "forwarded: 1020 IPv6 from rut0" "$(jv rut .ports[0].ip6_fwd_pkts)" 1020
eq "hop limit 64 arrives as 63" "$(hl 63)" 1010
eq "hop limit 2 arrives as 1" "$(hl 1)" 10
eq "none arrives undecremented" "$(hl 64)" 0
eq "hop limit 1: ttl_expired 10" "$(jv rut .ports[0].drops.ttl_expired)" 10
eq "time exceeded: 10 sent out of rut0" "$(jv rut .ports[0].time_exceeded6_sent)" 10
eq "time exceeded: in the replies" "$(jv rut .replies.time_exceeded6)" 10
eq "time exceeded: accepted by the sender's kernel" "$(( $(timex) - tx0 ))" 10
eq "time exceeded: no ICMPv6 checksum error at the sender" "$(( $(badin) - bad0 ))" 0
eq "no route 10" "$(jv rut .ports[0].drops.no_route)" 10
eq "bad payload length: malformed 10" "$(jv rut .ports[0].drops.malformed)" 10
within "for the router: local >= 10" "$(jv rut .ports[0].drops.local)" 10 100000
eq "no IPv6 counted as not_ip4" "$(jv rut .drops.not_ip4)" 0
eq "rx = fwd + drop" "$(jv rut '.rx_pkts == .fwd_pkts + .drop_pkts')" true
eq "the sum over the ports" "$(jv rut '.ip6_fwd_pkts == ([.ports[].ip6_fwd_pkts] | add)')" true
echo "# routes $(jv rut .routes), neighbours $(jv rut .neighbours)"

# the known answer of the firewall on IPv6 (docs/firewall.md#ipv6): counted per pass
# (in, and out when forwarded), bytes the whole IPv6 packet (40 + 24 for these 78-byte
# frames; a time exceeded is 40 + 8 + its quote of 64); an IPv6 table, looked up by
# source with a value (the /128's 7, not the /48's 8) and by destination; a keep-state
# rule whose state the later packets of its flow, both passes, meet at check-state 170
# (counted on 300, never reaching 400); an unreach rule answering with ICMPv6 port
# unreachables (send_reject6: map_icmp_unreach's code 4) and an unreach6 rule with its
# own code (1, administratively prohibited), which pass the outbound firewall as the
# time exceeded do; the sender's kernel counts them by code
cat >"$T/rules6" <<'EOF'
table t6 create
table t6 add 2001:2::2 7 2001:2::/48 8
add 60 count ip6 from table(t6,7) to any
add 65 count ip6 from any to table(t6)
add 100 count ip6 from 2001:2::2 to any
add 150 deny ip from 198.18.0.0/15 to any
add 160 count ip from not 198.18.0.0/15 to any 9
add 170 check-state
add 190 unreach6 admin-prohib udp from any to 2001:2:8000::6 in
add 200 unreach port udp from any to 2001:2:8000::/33 in
add 300 allow udp from 2001:2::2 to 2001:2:0:1::2 keep-state
add 400 allow ip6 from 2001:2::/48 to 2001:2::/48
add 450 allow ip6 from any to any
EOF
start rutf rut "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --ctl "$T/sf" --json --rules "$T/rules6" \
	--route "2001:2:8000::/33 via 2001:2:0:1::2" --neigh "2001:2:0:1::2=$SINK_MAC@rut1"
wait_ready rutf
inns gen nft -f - <<'EOF'
table inet u6 {
	chain c { type filter hook input priority 0; policy accept;
		icmpv6 type destination-unreachable icmpv6 code admin-prohibited counter
		icmpv6 type destination-unreachable icmpv6 code port-unreachable counter
	}
}
EOF
ucode() {   # ucode N: the sender's count of ICMPv6 unreachables with the Nth code above
	inns gen nft -j list chain inet u6 c | jq -r --argjson n "$1" \
		'[.nftables[].rule? | select(. != null) | .expr[-1].counter.packets][$n]'
}
base=$(ifc sink sink0 rx_packets); tx0=$(timex); un0=$(unreach6); bad1=$(badin)
c6 --dst 2001:2:0:1::2 --count 100; eq "fw: craft6 forwarded" "$?" 0
c6 --dst 2001:2:8000::5 --count 10; eq "fw: craft6 denied by unreach" "$?" 0
c6 --dst 2001:2:8000::6 --count 10; eq "fw: craft6 denied by unreach6" "$?" 0
c6 --dst 2001:2:0:1::2 --count 10 --hlim 1; eq "fw: craft6 expiring" "$?" 0
arrived sink sink0 "$base" 100
wait_until 15 "10 time exceeded through the firewall" test "$(( $(timex) - tx0 ))" -ge 10
wait_until 15 "20 port unreachables through the firewall" test "$(( $(unreach6) - un0 ))" -ge 20
eq "fw: the sender's kernel took 20 ICMPv6 unreachables" "$(( $(unreach6) - un0 ))" 20
eq "fw: no ICMPv6 checksum error at the sender" "$(( $(badin) - bad1 ))" 0
eq "fw: 10 of them administratively prohibited (unreach6), 10 port unreachable" \
	"$(ucode 0) $(ucode 1)" "10 10"
stop rutf; eq "fw: rut exits 0" "$RC" 0
r() { jv rutf "[.rules[] | select(.number == $1)][0] | \"\(.pkts) \(.bytes)\""; }
eq "fw: 60 table(t6,7): what 100 counts" "$(r 60)" "230 14720"
eq "fw: 65 to table(t6): 110 in, 100 out, 30 replies out" "$(r 65)" "240 16800"
eq "fw: 100 count: 130 in + 100 out" "$(r 100)" "230 14720"
eq "fw: 150 (an IPv4 prefix) matches no IPv6" "$(r 150)" "0 0"
eq "fw: 160 (not an IPv4 prefix): every UDP to 9, in and out" "$(r 160)" "230 14720"
eq "fw: 190 unreach6 rejects 10 inbound" "$(r 190)" "10 640"
eq "fw: 200 rejects 10 inbound" "$(r 200)" "10 640"
eq "fw: 170 check-state counts nothing" "$(r 170)" "0 0"
eq "fw: 300 keep-state: 110 in, 100 out (all but the first at 170)" "$(r 300)" "210 13440"
eq "fw: 400: only the 30 replies out (40 + 8 + a quote of 64)" "$(r 400)" "30 3360"
eq "fw: fw_unreach 20, fw_deny 0" "$(jv rutf '[.drops.fw_unreach, .drops.fw_deny] | map(tostring) | join(" ")')" "20 0"
eq "fw: 20 unreachables sent, none held back" "$(jv rutf '[.replies.unreach, ([.replies.not_sent[]] | add)] | map(tostring) | join(" ")')" "20 0"
eq "fw: denied by a rule 20" "$(jv rutf .fw.denied_pkts)" 20
eq "fw: forwarded 100" "$(jv rutf .ports[0].ip6_fwd_pkts)" 100
eq "fw: expired 10, answered 10" "$(jv rutf '[.drops.ttl_expired, .replies.time_exceeded6] | map(tostring) | join(" ")')" "10 10"
eq "fw: rx = fwd + drop" "$(jv rutf '.rx_pkts == .fwd_pkts + .drop_pkts')" true

# reset6 (send_reject6 -> ipfw_send_pkt): 10 TCP SYNs answered with 10 RSTs that the
# sender's kernel takes (TCP InSegs, no checksum error); a datagram gets nothing
tcpc() {   # tcpc NAME: the sender's kernel's TCP counter NAME (IPv4 and IPv6)
	inns gen awk -v k="$1" '$1 == "Tcp:" { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 }
		else print $(c[k]) }' /proc/net/snmp
}
printf 'add 100 reset6 ip from any to 2001:2:0:1::2 9 in\nadd 200 allow ip from any to any\n' >"$T/rules6r"
start rutr rut "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --ctl "$T/sr" --json --rules "$T/rules6r"
wait_ready rutr
s0=$(tcpc InSegs); e0=$(tcpc InErrs); ce0=$(tcpc InCsumErrors)
c6 --dst 2001:2:0:1::2 --count 10 --tcp-syn; eq "reset6: craft6 SYNs" "$?" 0
c6 --dst 2001:2:0:1::2 --count 5; eq "reset6: craft6 datagrams" "$?" 0
wait_until 15 "10 RSTs at the sender" test "$(( $(tcpc InSegs) - s0 ))" -ge 10
wait_until 15 "the forwarder read all 15" sh -c \
	"'$B/ppslab-rut' ctl '$T/sr' stats | jq -e '.ports[0].ip6_rx_pkts >= 15' >/dev/null"
stop rutr; eq "reset6: rut exits 0" "$RC" 0
eq "reset6: the sender's kernel took 10 TCP segments" "$(( $(tcpc InSegs) - s0 ))" 10
eq "reset6: none in error or with a bad checksum" \
	"$(( $(tcpc InErrs) - e0 )) $(( $(tcpc InCsumErrors) - ce0 ))" "0 0"
eq "reset6: 10 RSTs sent out of rut0, 5 datagrams not answered" \
	"$(jv rutr '[.ports[0].rst_sent, .replies.rst, .replies.not_sent.suppressed] | map(tostring) | join(" ")')" "10 10 5"
eq "reset6: fw_reset 15" "$(jv rutr .drops.fw_reset)" 15
done_testing
