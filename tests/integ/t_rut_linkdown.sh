#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_linkdown.sh — the forwarder's egress link goes down mid-stream: the frames that
# arrive meanwhile are counted as drops.link_down (not as txfull, nor in poll mode as
# transmitted into a ring that cannot drain), the port says how often its link went
# down, the books still balance (rx = fwd + drops); then the egress port is deleted:
# drops.port_gone. ppslab run fails a trial with any of these (unit/t_runparts.c).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
S=$T/ctl.sock
stat_of() { "$B/ppslab-rut" ctl "$S" stats 2>/dev/null | jq -r "$1 // 0"; }
moved() { [ "$(stat_of "$1")" -gt "$2" ] 2>/dev/null; }

start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --mode poll --ctl "$S" --json
wait_ready rut
start gen gen "$B/ppslab-gen" -i gen0 --rate 20k --duration 60 --json
wait_until 20 "the forwarder forwards" moved .fwd_pkts 2000
ip -n "$LAB-rut" link set rut1 down
wait_until 20 "frames counted with the link down" moved .drops.link_down 1000
ip -n "$LAB-rut" link set rut1 up
# forwarding again once the link is back
f0=$(stat_of .fwd_pkts)
wait_until 20 "forwarding after the link came back" moved .fwd_pkts $((f0 + 1000))
# then the egress port deleted (the veth pair goes: the lab ends here)
ip -n "$LAB-rut" link del rut1
wait_until 20 "frames counted with the port deleted" moved .drops.port_gone 1000
stop gen
stop rut
check "rut exits (status $RC) with a summary" test -n "$(summary rut)"
down=$(jv rut .drops.link_down)
check "frames arriving with the link down: drops.link_down ($down)" test "$down" -ge 1000
check "drops.port_gone ($(jv rut .drops.port_gone))" test "$(jv rut .drops.port_gone)" -ge 1000
eq "both counted against the ingress port" \
	"$(jv rut '.ports[0].drops.link_down + .ports[0].drops.port_gone')" \
	"$(jv rut '.drops.link_down + .drops.port_gone')"
check "the egress port's link went away twice (link_downs $(jv rut .ports[1].link_downs))" \
	test "$(jv rut .ports[1].link_downs)" -ge 2
eq "the top-level link_downs" "$(jv rut .link_downs)" "$(jv rut '[.ports[].link_downs] | add')"
eq "books: rx = fwd + drops" "$(jv rut .rx_pkts)" "$(jv rut '.fwd_pkts + .drop_pkts')"
check "not booked as txfull (txfull $(jv rut .drops.txfull) < link_down $down)" \
	test "$(jv rut .drops.txfull)" -lt "$down"
check "transmitted at most what was forwarded" test "$(jv rut .ports[1].tx_pkts)" -le "$(jv rut .fwd_pkts)"
check "tx_errors is there" test -n "$(jv rut .ports[1].tx_errors)"
done_testing
