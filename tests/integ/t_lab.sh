#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_lab.sh — ppslab lab: up is idempotent, status tells complete from partial, up
# repairs a half-built lab, --queues re-creates the veths with that many queues; a link
# taken down and up (which deletes its permanent neighbours) or down, a route or an
# address gone and a shield off are each named by status (exit 1), up repairs them and
# traffic flows again; down removes everything and is idempotent.
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

eq "down" "$("$B/ppslab" lab down --name "$LAB" >/dev/null; echo $?)" 0
eq "no namespaces left" "$(ip netns list | grep -c "^$LAB-")" 0
eq "down again is fine" "$("$B/ppslab" lab down --name "$LAB" >/dev/null; echo $?)" 0
eq "a bad lab name is refused" "$("$B/ppslab" lab up --name 'x;y' 2>/dev/null; echo $?)" 64
done_testing
