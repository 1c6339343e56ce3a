#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_fwd.sh — what the router forwards and what it drops, by cause: TTL 1 is
# expired (dropped, counted) in the router and untouched by the bridge (--l2); a static
# route (--route) and a static neighbour (--neigh) make an unreachable prefix
# reachable; a million-route file loads and forwarding stays exact; crafted frames
# (bad checksum, truncated, an IPv6 ethertype over IPv4, no route, no neighbour) are counted by cause while
# IPv4 with options and fragments are forwarded.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
SINK_MAC=02:70:70:01:00:02
RUT0_MAC=02:70:70:00:00:01

# TTL 1: the router drops every frame as expired
start rut_ttl rut "$B/ppslab-rut" -i rut0 -o rut1 --mode intr --ctl "$T/s1" --json
wait_ready rut_ttl
start gen_ttl gen "$B/ppslab-gen" -i gen0 --rate 10k --count 5000 --ttl 1 --json
finish gen_ttl 20; eq "ttl: gen exits 0" "$RC" 0
read_all "$T/s1" 5000
stop rut_ttl; eq "ttl: rut exits 0" "$RC" 0
eq "ttl: all 5000 expired" "$(jv rut_ttl .drops.ttl_expired)" 5000
eq "ttl: none forwarded" "$(jv rut_ttl .fwd_pkts)" 0
eq "ttl: routed, so says l3 (IPv4 and IPv6, not ipv4)" "$(jv rut_ttl .forwarding)" l3
eq "ttl: counted against rut0" "$(jv rut_ttl .ports[0].drops.ttl_expired)" 5000

# the same frames through the bridge arrive unchanged (TTL 1 and all)
start sink_l2 sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut_l2 rut "$B/ppslab-rut" -i rut0 -o rut1 --l2 --json
wait_ready sink_l2; wait_ready rut_l2
base=$(ifc sink sink0 rx_packets)
start gen_l2 gen "$B/ppslab-gen" -i gen0 --rate 10k --count 5000 --ttl 1 --json
finish gen_l2 20; eq "l2: gen exits 0" "$RC" 0
arrived sink sink0 "$base" 5000
stop rut_l2; eq "l2: rut exits 0" "$RC" 0
sink_done sink_l2 5000; eq "l2: sink exits 0" "$RC" 0
eq "l2: says so" "$(jv rut_l2 .forwarding)" l2
eq "l2: forwarded 5000" "$(jv rut_l2 .fwd_pkts)" 5000
eq "l2: sink0 received 5000" "$(jv sink_l2 .if_rx_packets)" 5000
eq "l2: they are test frames" "$(jv sink_l2 '.rx_pkts + .ring_drops')" 5000

# 198.19.128.0/17 is not connected: no route; a route via a gateway without a
# neighbour entry: no neighbour; with --neigh: forwarded to the sink's MAC
G="$B/ppslab-gen -i gen0 --dst 198.19.200.1 --dst-mac $RUT0_MAC --rate 10k --count 3000 --json"
start rut_nr rut "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --ctl "$T/s2" --json
wait_ready rut_nr
start gen_nr gen $G
finish gen_nr 20; eq "no route: gen exits 0" "$RC" 0
read_all "$T/s2" 3000
stop rut_nr
eq "no route: 3000 counted" "$(jv rut_nr .drops.no_route)" 3000
start rut_nn rut "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --route 198.19.128.0/17,via=198.19.0.9 \
	--ctl "$T/s3" --json
wait_ready rut_nn
start gen_nn gen $G
finish gen_nn 20
read_all "$T/s3" 3000
stop rut_nn
eq "no neighbour: 3000 counted" "$(jv rut_nn .drops.no_neigh)" 3000
start sink_rt sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut_rt rut "$B/ppslab-rut" -i rut0 -o rut1 --route "198.19.128.0/17 via 198.19.0.9" \
	--neigh 198.19.0.9=$SINK_MAC@rut1 --json
wait_ready sink_rt; wait_ready rut_rt
base=$(ifc sink sink0 rx_packets)
start gen_rt gen $G
finish gen_rt 20; eq "route: gen exits 0" "$RC" 0
arrived sink sink0 "$base" 3000
stop rut_rt; eq "route: rut exits 0" "$RC" 0
sink_done sink_rt 3000; eq "route: sink exits 0" "$RC" 0
eq "route: forwarded 3000" "$(jv rut_rt .fwd_pkts)" 3000
eq "route: sink0 received 3000" "$(jv sink_rt .if_rx_packets)" 3000
eq "route: 5 routes (2 connected IPv4, 2 connected IPv6 from the lab, + 1)" "$(jv rut_rt .routes)" 5

# a million routes from a file (Internet-like lengths, all via the sink)
awk 'BEGIN { srand(7); for (i = 0; i < 1000000; i++) {
	a = int(rand() * 223) + 1; b = int(rand() * 256); c = int(rand() * 256);
	printf "%d.%d.%d.0/%d via 198.19.0.2\n", a, b, c, 16 + int(rand() * 9) } }' >"$T/routes"
echo "198.19.128.0/17 dev rut1" >>"$T/routes"
start sink_1m sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut_1m rut "$B/ppslab-rut" -i rut0 -o rut1 --routes "$T/routes" \
	--neigh 198.19.200.1=$SINK_MAC@rut1 --json
wait_ready sink_1m; wait_ready rut_1m
base=$(ifc sink sink0 rx_packets)
start gen_1m gen $G
finish gen_1m 20; eq "1M routes: gen exits 0" "$RC" 0
arrived sink sink0 "$base" 3000
stop rut_1m; eq "1M routes: rut exits 0" "$RC" 0
sink_done sink_1m 3000; eq "1M routes: sink exits 0" "$RC" 0
eq "1M routes: all loaded (+ 4 connected)" "$(jv rut_1m .routes)" 1000005
eq "1M routes: forwarded 3000" "$(jv rut_1m .fwd_pkts)" 3000
eq "1M routes: sink0 received 3000" "$(jv sink_1m .if_rx_packets)" 3000
echo "# $(wc -l <"$T/routes") routes from a file, $(jv rut_1m .routes) in all, loaded in $(jv rut_1m .route_load_ms) ms: $(grep -o 'routes.*' "$T/rut_1m.err")"

# crafted frames, 10 of each kind (the test helper craft makes them, on gen0)
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
start rut_bad rut "$B/ppslab-rut" -i rut0 -o rut1 --mode intr --ctl "$T/s4" --json
wait_ready rut_bad
for k in "bad_ip_csum 198.19.0.2" "truncated 198.19.0.2" "not_ip4 198.19.0.2" \
	"test 198.19.200.1" "test 198.19.0.77" "ip_options 198.19.0.2" "ip_fragment 198.19.0.2"; do
	set -- $k
	inns gen "$CRAFT" -i gen0 --dst $2 --dst-mac $RUT0_MAC --class $1 --seqs 1-10 >/dev/null
	eq "crafted: $1 to $2 sent" "$?" 0
done
read_all "$T/s4" 70
stop rut_bad; eq "crafted: rut exits 0" "$RC" 0
eq "crafted: read 70" "$(jv rut_bad .rx_pkts)" 70
# not_ip4 is an IPv6 ethertype over an IPv4 header: malformed IPv6 (version 4)
eq "crafted: malformed 30 (bad checksum, truncated, IPv6 of version 4)" "$(jv rut_bad .drops.malformed)" 30
eq "crafted: none left as not IPv4" "$(jv rut_bad .drops.not_ip4)" 0
eq "crafted: no route 10" "$(jv rut_bad .drops.no_route)" 10
eq "crafted: no neighbour 10" "$(jv rut_bad .drops.no_neigh)" 10
eq "crafted: options and fragments forwarded" "$(jv rut_bad .fwd_pkts)" 20
eq "crafted: rx = fwd + drop" "$(jv rut_bad '.rx_pkts == .fwd_pkts + .drop_pkts')" true
done_testing
