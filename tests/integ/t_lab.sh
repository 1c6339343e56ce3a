#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_lab.sh — ppslab lab: up is idempotent, status tells complete from partial, up
# repairs a half-built lab, --queues re-creates the veths with that many queues; a link
# taken down and up (which deletes its permanent neighbours) or down, a route or an
# address gone and a shield off are each named by status (exit 1), up repairs them and
# traffic flows again; --vlan puts the router's ports on a VLAN (subinterfaces, emulated
# with tc BPF where the kernel has no 802.1Q module) through which the namespace's
# kernel forwards IPv4 and IPv6 with exact books; down removes everything and is
# idempotent.
. "$(dirname "$0")/lib.sh"
lab_up
eq "second up succeeds (idempotent)" "$("$B/ppslab" lab up --name "$LAB" >/dev/null 2>&1; echo $?)" 0
eq "status exit 0 when up" "$("$B/ppslab" lab status --name "$LAB" >/dev/null; echo $?)" 0
st=$("$B/ppslab" lab status --name "$LAB" --json)
eq "status JSON complete" "$(echo "$st" | jq -r .complete)" true
eq "rut shield on" "$(echo "$st" | jq -r .namespaces.rut.shield)" true
eq "four interfaces up" "$(echo "$st" | jq '[.interfaces[]] | all')" true
eq "gen has a permanent neighbour for the router" \
	"$(inns gen ip neigh show 198.18.0.1 dev gen0 | grep -c PERMANENT)" 1
eq "gen routes 198.19.0.0/24 via the router" \
	"$(inns gen ip route get 198.19.0.2 | grep -c 'via 198.18.0.1')" 1
eq "IPv6 off in the namespaces, but on the ports (t_ipv6.sh)" \
	"$(inns sink cat /proc/sys/net/ipv6/conf/all/disable_ipv6 /proc/sys/net/ipv6/conf/lo/disable_ipv6 /proc/sys/net/ipv6/conf/sink0/disable_ipv6 | tr '\n' ' ')" "1 1 0 "

# a crash left half a lab
ip netns del "$LAB-sink"
eq "status exit 1 when incomplete" "$("$B/ppslab" lab status --name "$LAB" >/dev/null; echo $?)" 1
eq "status JSON incomplete" "$("$B/ppslab" lab status --name "$LAB" --json | jq -r .complete)" false
eq "up repairs it" "$("$B/ppslab" lab up --name "$LAB" >/dev/null 2>&1; echo $?)" 0
eq "complete again" "$("$B/ppslab" lab status --name "$LAB" --json | jq -r .complete)" true

eq "shield off in sink" "$("$B/ppslab" lab shield off --name "$LAB" --ns sink; echo $?)" 0
eq "sink shield is off" "$("$B/ppslab" lab status --name "$LAB" --json | jq -r .namespaces.sink.shield)" false
eq "rut shield still on" "$("$B/ppslab" lab status --name "$LAB" --json | jq -r .namespaces.rut.shield)" true

# queues: a pair with another count is re-created; up without --queues keeps them
eq "one queue per veth by default" "$("$B/ppslab" lab status --name "$LAB" --json | jq -c '[.queues[]]')" "[1,1,1,1]"
eq "up --queues 2" "$("$B/ppslab" lab up --name "$LAB" --queues 2 >/dev/null 2>&1; echo $?)" 0
eq "every veth has two queues" "$("$B/ppslab" lab status --name "$LAB" --json | jq -c '[.queues[]]')" "[2,2,2,2]"
eq "the kernel agrees (rut0 rx queues)" "$(inns rut ls /sys/class/net/rut0/queues | grep -c '^rx-')" 2
eq "still complete, neighbours back" "$("$B/ppslab" lab status --name "$LAB" --json | jq -r .complete)/$(inns gen ip neigh show 198.18.0.1 dev gen0 | grep -c PERMANENT)" "true/1"
eq "the shield holds on the new veths" "$(inns rut nft list table netdev ppslab_shield | grep -c 'hook ingress device')" 2
"$B/ppslab" lab up --name "$LAB" >/dev/null 2>&1
eq "up without --queues keeps two" "$("$B/ppslab" lab status --name "$LAB" --json | jq -c '[.queues[]] | unique')" "[2]"
"$B/ppslab" lab up --name "$LAB" --queues 1 >/dev/null 2>&1
eq "up --queues 1 goes back" "$("$B/ppslab" lab status --name "$LAB" --json | jq -c '[.queues[]] | unique')" "[1]"
for bad in 0 65 x; do
	out=$("$B/ppslab" lab up --name "$LAB" --queues $bad 2>&1); rc=$?
	eq "--queues $bad refused (64)" "$rc" 64
	check "--queues $bad: the error names the option and the range" grep -q -- "--queues $bad: expected a queue count 1..64" <<<"$out"
done

# a link taken down and up: the kernel deletes its permanent neighbours, after which
# nothing is forwarded; status names them, up puts them back
ip -n "$LAB-rut" link set rut1 down
ip -n "$LAB-rut" link set rut1 up
"$B/ppslab" lab status --name "$LAB" >"$T/st1"
eq "a link flapped: status exit 1" "$?" 1
check "it says BROKEN" grep -q "^lab $LAB: BROKEN (ppslab lab up repairs it)" "$T/st1"
check "and names the neighbour the router lost" \
	grep -q "broken: no permanent neighbour 198.19.0.2 (02:70:70:01:00:02) on rut1 in $LAB-rut" "$T/st1"
check "and the IPv6 one" \
	grep -q "broken: no permanent neighbour 2001:2:0:1::2 (02:70:70:01:00:02) on rut1 in $LAB-rut" "$T/st1"
eq "and nothing else (the addresses stay, IPv6's too)" "$(grep -c broken: "$T/st1")" 2
ip -n "$LAB-rut" link set rut1 down
ip -n "$LAB-gen" route del 198.19.0.0/24
ip -n "$LAB-sink" addr flush dev sink0
"$B/ppslab" lab shield off --name "$LAB" --ns rut
P=$("$B/ppslab" lab status --name "$LAB" --json | jq -r '.problems[]')
check "a link down is named" grep -q "^rut1 in $LAB-rut is down$" <<<"$P"
check "its peer without carrier" grep -q "^sink0 in $LAB-sink has no carrier" <<<"$P"
check "a route gone" grep -q "^no route to 198.19.0.0/24 via 198.18.0.1 in $LAB-gen$" <<<"$P"
check "an address gone" grep -q "^sink0 in $LAB-sink does not have its address 198.19.0.2/24" <<<"$P"
check "a shield off" grep -q "^the shield of $LAB-rut is off" <<<"$P"
eq "lab up repairs it all" "$("$B/ppslab" lab up --name "$LAB" >/dev/null 2>&1; echo $?)" 0
eq "status: up again, exit 0" "$("$B/ppslab" lab status --name "$LAB"; echo $?)" "$(printf 'lab %s: up' "$LAB")
$(sed -n '2,8p' "$T/st1")
0"
# and traffic flows again, through the forwarder, every frame
start sink sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --mode intr --json
wait_ready sink; wait_ready rut
start gen gen "$B/ppslab-gen" -i gen0 --rate 10k --count 3000 --json
finish gen 20; eq "after the repair: gen exits 0" "$RC" 0
sink_done sink 3000; eq "sink exits 0" "$RC" 0
stop rut
eq "every frame arrived through the repaired lab" "$(jv sink .rx_pkts)" 3000
eq "the forwarder had its neighbour (no_neigh 0)" "$(jv rut .drops.no_neigh)" 0

# VLAN (docs/lab.md#vlan): the router's ports trunks of VLAN 100, their addresses on
# rut0.100 and rut1.100 (802.1Q devices, or here, with no 802.1Q module, emulated: a
# veth pair each and tc BPF programs on rut0/rut1 that pop and push the tag); the
# namespace's kernel forwards IPv4 and IPv6 between the subinterfaces, every frame of
# VLAN 100 received tagged 100 or counted dropped by the router; untagged frames and
# VLAN 200 ones are not forwarded; down takes it all away (t_run_ip6.sh: a run with
# ppslab-rut gives the ports back their addresses)
for bad in 0 4095 x +100 " 100" 100x; do
	out=$("$B/ppslab" lab up --name "$LAB" --vlan "$bad" 2>&1); rc=$?
	eq "--vlan $bad refused (64)" "$rc" 64
	check "--vlan $bad: the error names the option" grep -q -- "--vlan $bad: expected a VLAN id 1..4094, or none" <<<"$out"
done
lab_up --vlan 100
check "vlan: up says so" grep -q "the router's ports are on VLAN 100: rut0.100 and rut1.100 carry their addresses" "$T/lab.out"
st=$("$B/ppslab" lab status --name "$LAB" --json)
eq "vlan: status complete, VLAN 100" "$(echo "$st" | jq -r '[.complete, .vlan] | join(" ")')" "true 100"
addrs() { ip -n "$LAB-rut" -j addr show dev "$1" | jq -r '[.[0].addr_info[] | "\(.local)/\(.prefixlen)"] | join(",")'; }
eq "vlan: rut0.100 and rut1.100 carry the ports' addresses, rut0 and rut1 none" \
	"$(addrs rut0.100) $(addrs rut1.100) [$(addrs rut0)] [$(addrs rut1)]" \
	"198.18.0.1/24,2001:2::1/64 198.19.0.1/24,2001:2:0:1::1/64 [] []"
eq "vlan: the subinterfaces have their ports' MACs" \
	"$(ip -n "$LAB-rut" -j link show dev rut0.100 | jq -r '.[0].address') $(ip -n "$LAB-rut" -j link show dev rut1.100 | jq -r '.[0].address')" \
	"02:70:70:00:00:01 02:70:70:01:00:01"
eq "vlan: the router's neighbours on the subinterfaces" \
	"$(inns rut ip neigh show 198.18.0.2 dev rut0.100 | grep -c PERMANENT)$(inns rut ip -6 neigh show 2001:2:0:1::2 dev rut1.100 | grep -c PERMANENT)" 11
eq "vlan: the shield covers the subinterfaces" "$(inns rut nft list table netdev ppslab_shield | grep -c 'hook ingress device')" 4
emu=$(echo "$st" | jq -r .vlan_emulated)
if [ "$emu" = true ]; then
	eq "vlan emulated: up says why, once (the kernel has no vlan link type)" \
		"$(grep -c "the kernel has no 802.1Q vlan device (ip link add ... type vlan: Error: Unknown device type.): VLAN 100's subinterfaces emulated" "$T/lab.out")" 1
	eq "vlan emulated: ... and status says so" \
		"$("$B/ppslab" lab status --name "$LAB" | grep -c 'emulated: veth + tc BPF, no 802.1Q module')" 1
	eq "vlan emulated: the tag programs on rut0 and rut1 (and their hidden peers)" \
		"$(for d in rut0 rut1 vt-rut0.100 vt-rut1.100; do tc -n "$LAB-rut" -j filter show dev $d ingress | jq -r '[.[] | select(.options.bpf_name != null) | .options.bpf_name | sub(":.*"; "")] | join("")'; done | tr '\n' ' ')" \
		"ppslab_vlanpop ppslab_vlanpop ppslab_vlanpush ppslab_vlanpush "
	tc -n "$LAB-rut" filter del dev rut1 ingress pref 28784
	check "vlan: status names a tag program gone" grep -q "rut1 in $LAB-rut has no VLAN 100 program" \
		<("$B/ppslab" lab status --name "$LAB")
	tc -n "$LAB-rut" filter del dev vt-rut0.100 ingress pref 28784
	check "vlan: ... and the push program of a hidden peer gone" \
		grep -q "vt-rut0.100 in $LAB-rut has no VLAN 100 program: what rut0.100 sends does not leave rut0" \
		<("$B/ppslab" lab status --name "$LAB")
	lab_up
	eq "vlan: up without --vlan keeps VLAN 100 and repairs it" \
		"$("$B/ppslab" lab status --name "$LAB" --json | jq -r '[.complete, .vlan] | join(" ")')" "true 100"
	# a push program the kernel refuses (a filter of another protocol at its priority on
	# the hidden peer: "Protocol mismatch"): up fails naming it, and takes the pop
	# program it had attached off rut1 again, no half subinterface left
	tc -n "$LAB-rut" filter del dev vt-rut1.100 ingress pref 28784
	tc -n "$LAB-rut" filter add dev vt-rut1.100 ingress pref 28784 protocol ip bpf bytecode '1,6 0 0 0,' ||
		bail "a classic BPF filter at the push program's priority"
	out=$("$B/ppslab" lab up --name "$LAB" 2>&1); rc=$?
	check "vlan: a refused push program fails up" test "$rc" -ne 0
	check "vlan: ... naming it" grep -q "vt-rut1.100: cannot attach the VLAN 100 program on its ingress" <<<"$out"
	eq "vlan: ... and the pop program is off rut1 again" \
		"$(tc -n "$LAB-rut" -j filter show dev rut1 ingress | jq '[.[] | select(.pref == 28784)] | length')" 0
	tc -n "$LAB-rut" filter del dev vt-rut1.100 ingress pref 28784
	lab_up
	eq "vlan: ... which up repairs" \
		"$("$B/ppslab" lab status --name "$LAB" --json | jq -r '[.complete, .vlan] | join(" ")')" "true 100"
else
	skip "vlan: the tag programs" "the kernel made 802.1Q devices"
fi
"$B/ppslab" lab shield off --name "$LAB" --ns rut >/dev/null || bail "shield off"
inns rut sysctl -qw net.ipv4.ip_forward=1 || bail "ip_forward"
# every drop counter of the router namespace's interfaces (the tag programs' shots and
# a veth's full backlog land there)
rdrops() {
	ip -n "$LAB-rut" -s -j link show | jq '[.[].stats64 | .rx.dropped + .tx.dropped] | add'
}
rd0=$(rdrops) tx1=$(ifc rut rut1 tx_packets)
start vsink sink "$B/ppslab-sink" -i sink0 --vlan 100 --duration 60 --json \
	--expect-from "$T/v4.out" --expect-from "$T/v6.out"
wait_ready vsink || bail "sink not ready"
start v4 gen "$B/ppslab-gen" -i gen0 --vlan 100 --size 68 --rate 10k --count 3000 --stream 1 --json
finish v4 30; eq "vlan: gen IPv4 on VLAN 100 exits 0" "$RC" 0
start v6 gen "$B/ppslab-gen" -i gen0 -6 --vlan 100 --size 88 --rate 10k --count 3000 --stream 2 --json
finish v6 30; eq "vlan: gen IPv6 on VLAN 100 exits 0" "$RC" 0
sent=$(($(jv v4 .test_pkts) + $(jv v6 .test_pkts)))
# the router's books: what it took in on rut0 is out of rut1 or counted dropped
router_done() { [ $(($(ifc rut rut1 tx_packets) + $(rdrops) - rd0 - tx1)) -ge $((sent - $(jv v4 '.if_tx_dropped // 0') - $(jv v6 '.if_tx_dropped // 0'))) ]; }
wait_until 15 "the router passes on or drops the $sent frames" router_done
rdrop=$(($(rdrops) - rd0))
fwd=$(($(ifc rut rut1 tx_packets) - tx1))
sink_done vsink "$fwd"; eq "vlan: sink exits 0" "$RC" 0
echo "# VLAN 100: sent $sent, out of rut1 $fwd, the router's interfaces dropped $rdrop"
for g in v4 v6; do
	s=$(jv $g .stream)
	eq "vlan: stream $s: sent = received + lost" \
		"$(jv vsink "[.streams[] | select(.stream == $s) | .rx_pkts + .lost_pkts] | add")" "$(jv $g .test_pkts)"
done
eq "vlan: lost = the router's counted drops + the host's" "$(jv vsink .lost_pkts)" \
	"$((rdrop + $(host_lost vsink v4) + $(jv v6 '.if_tx_dropped // 0')))"
eq "vlan: every frame the sink read is a test frame of VLAN 100, none of a wrong VLAN" \
	"$(jv vsink '[([.vlans[] | select(.vid == 100 and .tags == 1 and .wrong_vlan == false) | .pkts] | add), .err_pkts, .foreign_pkts] | map(tostring) | join(" ")')" \
	"$(jv vsink .rx_pkts) 0 0"
eq "vlan: sink0 received what rut1 sent, no more" "$(jv vsink .if_rx_packets)" "$fwd"
# untagged and VLAN 200 (IPv4 and IPv6): into rut0, none out of rut1
in0=$(ifc rut rut0 rx_packets) out0=$(ifc rut rut1 tx_packets)
n=0
for args in "" "--vlan 200" "-6" "-6 --vlan 200"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the words of $args are options
	inns gen "$B/ppslab-gen" -i gen0 $args --size 88 --rate 10k --count 500 --stream $((n + 2)) \
		>/dev/null || not_ok "gen $args" "exit $?"
done
wait_until 15 "rut0 receives the 2000 other frames" ifc_at_least rut rut0 rx_packets $((in0 + 2000))
eq "vlan: untagged and VLAN 200 frames, IPv4 and IPv6, not forwarded" "$(($(ifc rut rut1 tx_packets) - out0))" 0
# any other failure of `ip link add ... type vlan` is the error, not an emulation: an
# `ip` that refuses the vlan with another message (as a kernel with 802.1Q would refuse
# a bad lower device); --vlan none below repairs what it left
mkdir -p "$T/fakeip"
cat >"$T/fakeip/ip" <<EOS
#!/bin/sh
case " \$* " in *" type vlan "*) echo 'RTNETLINK answers: Device or resource busy' >&2; exit 2;; esac
exec $(command -v ip) "\$@"
EOS
chmod +x "$T/fakeip/ip"
out=$(PATH="$T/fakeip:$PATH" "$B/ppslab" lab up --name "$LAB" --vlan 300 2>&1); rc=$?
check "vlan: another failure of type vlan fails up" test "$rc" -ne 0
check "vlan: ... naming the kernel's error" grep -q "cannot make rut0.300: ip link add ... type vlan failed (status 2): RTNETLINK answers: Device or resource busy" <<<"$out"
eq "vlan: ... and emulates nothing" "$(ip -n "$LAB-rut" -o link show | grep -c 'rut[01]\.300')" 0
# --vlan none: the ports' addresses back on them, the subinterfaces and the lab's tag
# programs gone (docs/lab.md#vlan)
lab_up --vlan none
eq "vlan none: status complete, no VLAN" \
	"$("$B/ppslab" lab status --name "$LAB" --json | jq -r '[.complete, .vlan] | join(" ")')" "true 0"
eq "vlan none: rut0 and rut1 carry their addresses again, no subinterface left" \
	"$(addrs rut0) $(addrs rut1) $(ip -n "$LAB-rut" -o link show | grep -c 'rut[01]\.100')" \
	"198.18.0.1/24,2001:2::1/64 198.19.0.1/24,2001:2:0:1::1/64 0"
eq "vlan none: no tag program of the lab's (pref 28784) left on rut0 or rut1" \
	"$(for d in rut0 rut1; do tc -n "$LAB-rut" -j filter show dev $d ingress 2>/dev/null | jq -n '[inputs[]? | select(.pref == 28784)] | length'; done | tr '\n' ' ')" "0 0 "

eq "down" "$("$B/ppslab" lab down --name "$LAB" >/dev/null; echo $?)" 0
eq "no namespaces left" "$(ip netns list | grep -c "^$LAB-")" 0
eq "down again is fine" "$("$B/ppslab" lab down --name "$LAB" >/dev/null; echo $?)" 0
eq "a bad lab name is refused" "$("$B/ppslab" lab up --name 'x;y' 2>/dev/null; echo $?)" 64
done_testing
