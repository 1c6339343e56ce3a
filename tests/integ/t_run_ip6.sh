#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_ip6.sh — the ip_version axis end to end: a two-cell profile, ip_version [4, 6],
# fixed trials through ppslab-rut in a private lab. Asserts on the results file: the
# case ids and params carry the axis; the IPv6 cell's senders sent IPv6 (ppslab-gen's
# summary: ip_version 6, the lab's sink0 2001:2:0:1::2) and the IPv4 cell's IPv4; the
# forwarder forwarded every IPv6 frame as IPv6 (ip6_fwd_pkts = fwd_pkts) and no IPv4
# frame as IPv6; both cells' books exact: the sender's test frames = the sink's
# received + lost, the forwarder's rx = fwd + drop, and the trials' own checks of them ok.
# Then the vlan axis the same way, vlan ["none", 100]: the tagged cell's sender tags its
# frames 100, ppslab-rut forwards between trunks of VLAN 100 (restarted for it), and the
# sink, told to expect tag 100 (and none in the untagged cell), counts every frame under
# VID 100 with no wrong_vlan; both cells' books exact.
# First, though, the vlan axis against the lab's Linux router (the router namespace's
# own kernel, an external router): vlan ["none", 100] x ip_version [4, 6], its hook
# `ppslab lab up --vlan {vlan}` putting the router's ports on VLAN 100 (rut0.100 and
# rut1.100, emulated with tc BPF where the kernel has no 802.1Q module) and back; every
# cell's books exact, the tagged cells' frames all tagged 100 at the sink. The runs
# with ppslab-rut after it take the lab's ports off that VLAN again.
. "$(dirname "$0")/lib.sh"
# run_axis DESC MATRIX RESULTS: a fixed trial of each cell of MATRIX (JSON) into RESULTS
run_axis() {
	cat >"$T/p.json" <<JSON
{ "description": "t_run_ip6: $1 through ppslab-rut",
  "matrix": $2,
  "params": { "size": 128, "offered": "20k", "mode": "busy" },
  "trial": { "method": "fixed", "warmup": "0.3s", "duration": "1s", "settle": "0.3s" },
  "rig": { "calibrate": false, "direct": false },
  "topology": { "kind": "netns", "lab": "$LAB" },
  "output": { "results": "$3" } }
JSON
	"$B/ppslab" run "$T/p.json" -q --no-table >"$T/run.out" 2>"$T/run.err"
}
# cell_books LABEL CELL: the books of the last trial of the cell CELL (a jq path) of $R
cell_books() {
	local sent
	sent=$(jq "$2 | .gen[0].test_pkts" "$R")
	# 20,000 frames in the trial's second, or the sender itself says it missed its rate
	# (a host that held it past the trial's end: a count in a wall-clock window)
	if { [ "$sent" -lt 19000 ] || [ "$sent" -gt 21000 ]; } &&
	   [ "$(jq "$2 | .gen[0].rate_ok" "$R")" = false ]; then
		skip "$1: the sender sent its trial's frames (got $sent)" \
			"the sender missed its rate: $(jq -c "$2 | .gen[0] | {rate_ok, sched_pkts, late, behind_max_ns}" "$R")"
	else
		within "$1: the sender sent its trial's frames" "$sent" 19000 21000
	fi
	eq "$1: books: sent = sink received + lost ($sent)" \
		"$(jq "$2 | .sink[0] | .rx_pkts + .lost_pkts" "$R")" "$sent"
	eq "$1: the forwarder: rx = fwd + drop" \
		"$(jq "$2 | .rut | .rx_pkts == .fwd_pkts + .drop_pkts and .rx_pkts > 0" "$R")" true
	eq "$1: the trial's books checks ok" \
		"$(jq -r "[$2 | .checks[] | select(.name == \"sent = received + lost\" or .name == \"forwarder adds up\" or .name == \"sink clean\" or .name == \"components ok\") | .ok] | join(\" \")" "$R")" \
		"true true true true"
}
# the Linux router: the namespace's kernel, the shield off and IPv4 forwarding on by
# the setup hook; the vlan hook moves its ports onto VLAN {vlan} (or back, "none") and
# takes the shield away again (lab up puts it on)
cat >"$T/pk.json" <<JSON
{ "description": "t_run_ip6: vlan x ip_version through the namespace's Linux kernel",
  "matrix": { "vlan": ["none", 100], "ip_version": [4, 6] },
  "params": { "size": 128, "offered": "20k" },
  "trial": { "method": "fixed", "warmup": "0.3s", "duration": "1s", "settle": "0.3s" },
  "rig": { "calibrate": false, "direct": false },
  "topology": { "kind": "netns", "lab": "$LAB" },
  "router": { "kind": "external",
    "setup_hook": ["sh", "-c", "ip netns exec \"\$1-rut\" sysctl -qw net.ipv4.ip_forward=1", "sh", "$LAB"],
    "hooks": { "vlan": ["sh", "-c", "\"\$0\" lab up --name \"\$1\" --vlan \"\$2\" && \"\$0\" lab shield off --ns rut --name \"\$1\"", "$B/ppslab", "$LAB", "{vlan}"] } },
  "output": { "results": "$T/rk.json" } }
JSON
"$B/ppslab" run "$T/pk.json" -q --no-table >"$T/runk.out" 2>"$T/runk.err"
eq "Linux router: run exits 0" "$?" 0
R=$T/rk.json
eq "Linux router: four cases" "$(jq -r '[.cases[].case_id] | sort | join(" ")' "$R")" \
	"vlan=100/ip_version=4 vlan=100/ip_version=6 vlan=none/ip_version=4 vlan=none/ip_version=6"
eq "Linux router: cases finished" "$(jq -r '[.cases[].status] | map(. == "ok" or . == "flagged") | all' "$R")" true
for v in none 100; do
	for f in 4 6; do
		q='"none"'; tags=0; [ $v = 100 ] && q=100 && tags=1
		c=".cases[] | select(.params.vlan == $q and .params.ip_version == $f) | .trials[-1]"
		sent=$(jq "$c | .gen[0].test_pkts" "$R")
		within "Linux router vlan $v IPv$f: the sender sent its trial's frames" "$sent" 19000 21000
		eq "Linux router vlan $v IPv$f: sent = sink received + lost, the trial's checks ok" \
			"$(jq -r "$c | [(.sink[0] | .rx_pkts + .lost_pkts), ([.checks[] | select(.name == \"sent = received + lost\" or .name == \"sink clean\") | .ok] | all)] | map(tostring) | join(\" \")" "$R")" \
			"$sent true"
		eq "Linux router vlan $v IPv$f: IPv$f, the sink's frames all under tags $tags, none wrong_vlan" \
			"$(jq -r "$c | [.gen[0].ip_version, (.sink[0] | [.vlans[] | select(.pkts > 0) | \"\(.tags) \(.vid) \(.wrong_vlan)\"] | join(\",\"))] | map(tostring) | join(\" \")" "$R")" \
			"$f $([ $v = 100 ] && echo "1 100 false" || echo "0 null false")"
	done
done
eq "Linux router: the vlan hook ran for none, then 100, and worked" \
	"$(jq -r '[.cases[] | .router_hooks[]? | select(.hook == "vlan") | "\(.argv[-1]):\(.status)"] | join(" ")' "$R")" "none:0 100:0"
# the kernel sent the tagged cells' frames from rut1.100 (the lab is on VLAN 100 now)
v100=$(jq '[.cases[] | select(.params.vlan == 100) | .trials[-1].sink[0].rx_frames] | add' "$R")
check "Linux router: rut1.100 sent the tagged cells' $v100 frames" test "$(ifc rut rut1.100 tx_packets)" -ge "$v100"
eq "Linux router: the lab's ports on VLAN 100 after the run" \
	"$("$B/ppslab" lab status --name "$LAB" --json | jq -r .vlan)" 100

addrs() { ip -n "$LAB-rut" -j addr show dev "$1" | jq -r '[.[0].addr_info[] | "\(.local)/\(.prefixlen)"] | join(",")'; }
# a run with ppslab-rut takes the lab's ports off the VLAN the Linux router left them on
# (ppslab-rut makes its own trunks): lab up --vlan none
run_axis "ip_version 4 and 6" '{ "ip_version": [4, 6] }' "$T/r.json"
eq "run exits 0" "$?" 0
R=$T/r.json
eq "two cases, named by the axis" "$(jq -r '[.cases[].case_id] | join(" ")' "$R")" \
	"ip_version=4 ip_version=6"
eq "cases finished" "$(jq -r '[.cases[].status] | map(. == "ok" or . == "flagged") | all' "$R")" true
for v in 4 6; do
	c=".cases[] | select(.params.ip_version == $v) | .trials[-1]"
	dst=198.19.0.2; [ $v = 6 ] && dst=2001:2:0:1::2
	eq "ip_version $v: the sender sent IPv$v to $dst" \
		"$(jq -r "$c | .gen[0] | \"\(.ip_version) \(.dst) \(.wire_size)\"" "$R")" "$v $dst 128"
	cell_books "ip_version $v" "$c"
	six=0; [ $v = 6 ] && six=$(jq "$c | .rut.fwd_pkts" "$R")
	eq "ip_version $v: frames forwarded as IPv6" "$(jq "$c | .rut.ip6_fwd_pkts" "$R")" "$six"
	eq "ip_version $v: the forwarder forwarded what the sink counted, warm-up included" \
		"$(jq "$c | .rut.fwd_pkts >= .sink[0].rx_frames" "$R")" true
done

eq "ppslab-rut run: the ports have their addresses again, the subinterfaces gone" \
	"$(addrs rut0) $(addrs rut1) $(ip -n "$LAB-rut" -j link show | jq -r '[.[].ifname | select(test("\\."))] | length')" \
	"198.18.0.1/24,2001:2::1/64 198.19.0.1/24,2001:2:0:1::1/64 0"
eq "ppslab-rut run: no tag program left, rp_filter back" \
	"$(tc -n "$LAB-rut" filter show dev rut0 ingress | wc -l) $(inns rut sysctl -n net.ipv4.conf.rut0.rp_filter)" \
	"0 $(inns rut sysctl -n net.ipv4.conf.default.rp_filter)"
eq "ppslab-rut run: status complete" "$("$B/ppslab" lab status --name "$LAB" --json | jq -r '[.complete, .vlan] | join(" ")')" "true 0"

run_axis "vlan none and 100" '{ "vlan": ["none", 100] }' "$T/rv.json"
eq "vlan: run exits 0" "$?" 0
R=$T/rv.json
eq "vlan: two cases, named by the axis" "$(jq -r '[.cases[].case_id] | join(" ")' "$R")" \
	"vlan=none vlan=100"
eq "vlan: cases finished" "$(jq -r '[.cases[].status] | map(. == "ok" or . == "flagged") | all' "$R")" true
for v in none 100; do
	q='"none"'; tags=0; [ $v = 100 ] && q=100 && tags=1
	c=".cases[] | select(.params.vlan == $q) | .trials[-1]"
	eq "vlan $v: the sink expected $v" "$(jq -r "$c | .sink[0].vlan_expect" "$R")" "$v"
	cell_books "vlan $v" "$c"
	eq "vlan $v: the sink's frames all under tags $tags, none wrong_vlan" \
		"$(jq -r "$c | .sink[0] | [.vlans[] | select(.pkts > 0) | \"\(.tags) \(.vid) \(.wrong_vlan)\"] | join(\",\")" "$R")" \
		"$([ $v = 100 ] && echo "1 100 false" || echo "0 null false")"
	eq "vlan $v: the sink's tagged frames = its test frames" \
		"$(jq "$c | .sink[0] | ([.vlans[] | select(.tags == $tags) | .pkts] | add) >= .rx_pkts" "$R")" true
done
eq "vlan: the forwarder restarted for the tagged cell" \
	"$(jq -r '[.cases[].trials[-1].rut.ports[]?.name] | join(" ")' "$R")" "rut0 rut1 rut0.100 rut1.100"

done_testing
