#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_vlan.sh — ppslab-rut between two trunks (docs/forwarder.md#vlans): the sender's
# frames tagged 100 (ppslab-gen --vlan; the forwarder's AF_PACKET socket gets the tag
# beside the frame and puts it back) are routed out of rut1 tagged 200 with priority 5:
# the books agree exactly (the sink's kernel counts every frame rut1 sent, by its tag
# and priority, and ppslab-sink --vlan 200 counts each as a test frame of VLAN 200); frames of another VLAN and untagged ones are counted
# by cause; the firewall sees the inner packets on the vlan interfaces rut0.100 and
# rut1.200, and none on rut0.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
RUT0_MAC=02:70:70:00:00:01
N=3000

# the sink's kernel counts what arrives on sink0 by its tag (the offloaded tag, as nft
# reads it at ingress, before the shield drops the frame)
inns sink nft -f - <<'NFT' || bail "nft"
table netdev tv {
	chain c { type filter hook ingress device sink0 priority -500; policy accept;
		vlan id 200 vlan pcp 5 ip saddr 198.18.0.2 udp dport 9 counter
		vlan id 100 counter
		ether type ip counter
	}
}
NFT
ntag() {   # ntag K: the count of the sink's rule K (0: VLAN 200 PCP 5, 1: 100, 2: untagged)
	inns sink nft -j list chain netdev tv c |
		jq -r --argjson k "$1" '[.nftables[].rule? | select(. != null) | .expr[-1].counter.packets][$k]'
}

cat >"$T/rules" <<'RULES'
add 100 count ip from any to any recv rut0
add 110 count ip from any to any in recv rut0.100
add 120 count ip from any to any out xmit rut1.200
add 130 count udp from 198.18.0.2 to 198.19.0.2 dst-port 9 in recv rut0.100
add 65000 allow ip from any to any
RULES
# one round through the forwarder with ports of backend $be (afpacket: or xdp:)
round() {
	local be=$1 t
	local -a n0
	for t in 0 1 2; do n0[$t]=$(ntag $t); done
	start sink sink "$B/ppslab-sink" -i sink0 --vlan 200 --duration 60 --json
	start rut rut "$B/ppslab-rut" -i "$be"rut0 -o "$be"rut1 --vlan rut0=100 --vlan rut1=200:5 --mode busy \
		--rules "$T/rules" --ctl "$T/s${be%:}" --json
	wait_ready sink || bail "sink not ready"
	wait_ready rut || bail "rut not ready"
	G="$B/ppslab-gen -i gen0 --dst 198.19.0.2 --dst-mac $RUT0_MAC --rate 20k --size 68 --json"
	start gen gen $G --vlan 100:3 --count $N
	finish gen 30; eq "$be gen exits 0" "$RC" 0
	start gen101 gen $G --vlan 101 --count 500
	finish gen101 30; eq "$be gen on VLAN 101 exits 0" "$RC" 0
	start gen0 gen $G --count 400
	finish gen0 30; eq "$be gen untagged exits 0" "$RC" 0
	sent=$(sent gen); s101=$(sent gen101); s0=$(sent gen0)
	read_all "$T/s${be%:}" $((sent + s101 + s0))
	stop rut; eq "$be rut exits 0" "$RC" 0
	tx=$(jv rut .ports[1].tx_pkts)
	sink_done sink "$tx"; eq "$be sink exits 0" "$RC" 0

	eq "$be rut0 is the vlan interface rut0.100" "$(jv rut '.ports[0].name')" rut0.100
	eq "$be rut1 carries VLAN 200, priority 5" "$(jv rut '[.ports[1].vlan[0], .ports[1].vlan_pcp] | map(tostring) | join(" ")')" "200 5"
	eq "$be every frame of VLAN 100 forwarded" "$(jv rut .ports[0].fwd_pkts)" "$sent"
	eq "$be VLAN 101: vlan_unknown" "$(jv rut .ports[0].drops.vlan_unknown)" "$s101"
	eq "$be untagged: vlan_untagged" "$(jv rut .ports[0].drops.vlan_untagged)" "$s0"
	eq "$be none counted as not_ip4" "$(jv rut .drops.not_ip4)" 0
	eq "$be rx = fwd + drop" "$(jv rut '.rx_pkts == .fwd_pkts + .drop_pkts')" true
	eq "$be rx_bytes: the frames as on the wire, tags and all" "$(jv rut .ports[0].rx_bytes)" \
		"$(( (sent + s101 + s0) * 64 ))"   # --size 68: 64 bytes, tagged or not
	eq "$be out of rut1: every forwarded frame" "$tx" "$sent"
	# the books at the sink: every frame out of rut1 arrived tagged 200 with priority 5,
	# and ppslab-sink read each one
	eq "$be sink0 received every frame rut1 sent" "$(jv sink .if_rx_packets)" "$tx"
	eq "$be the sink's kernel: all tagged 200, priority 5" "$(( $(ntag 0) - n0[0] ))" "$tx"
	eq "$be the sink's kernel: none tagged 100, none untagged" "$(( $(ntag 1) - n0[1] )) $(( $(ntag 2) - n0[2] ))" "0 0"
	eq "$be ppslab-sink read them all" "$(jv sink '.rx_frames + .ring_drops')" "$tx"
	eq "$be ppslab-sink: all test frames of VLAN 200" \
		"$(jv sink '[.rx_pkts + .ring_drops, ([.vlans[] | select(.vid == 200 and .wrong_vlan == false)][0].pkts)] | map(tostring) | join(" ")')" \
		"$tx $tx"
	eq "$be ppslab-sink: no frame of a wrong VLAN" "$(jv sink .err_pkts)" 0
	r() { jv rut "[.rules[] | select(.number == $1)][0].pkts"; }
	eq "$be fw: recv rut0 matches nothing on a trunk" "$(r 100)" 0
	eq "$be fw: recv rut0.100 sees every frame of VLAN 100 in" "$(r 110)" "$sent"
	eq "$be fw: xmit rut1.200 sees every frame out" "$(r 120)" "$sent"
	eq "$be fw: the inner header (addresses, UDP port 9)" "$(r 130)" "$sent"
}
round afpacket:
# xdp: the tags are in the frames XDP hands over (the sender put them there); where
# the kernel has no AF_XDP the round is skipped
if inns rut "$B/ppslab-sink" -i xdp:rut0 --duration 0.2 >/dev/null 2>"$T/probe.err"; then
	round xdp:
else
	skip "xdp: ports" "$(head -n 1 "$T/probe.err")"
fi
done_testing
