#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_fw.sh — the firewall on forwarded traffic (two passes): a deny rule on one stream
# removes exactly that stream at the sink while its counter equals the frames sent;
# count rules count every frame — twice without a direction (in and out pass), once
# with `in`, `out` or `via rut0` — in packets and IP bytes, as `ipfw show` prints them;
# ipfw through the control socket (add, show, zero, delete) with ipfw's messages and
# exit statuses; a rule file loaded live, all or nothing; update_counters=0 and
# enable=0; log lines; --rules with an error. docs/design/ipfw.md#evaluation has the rules.
# Every tool is waited for by its ready line (docs/readiness.md), and the forwarder's
# control socket answers right after it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
S="$T/rut.sock"
ctl() { "$B/ppslab-rut" ctl "$S" "$@"; }

# 1. deny one of two streams (told apart by UDP source port)
cat >"$T/deny.rules" <<'EOF'
# the shape of the 2006 DragonFly rules: deny one stream, allow the rest
ipfw add 100 deny udp from any 1002 to any
ipfw add 200 allow ip from any to any
EOF
start sink sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --rules "$T/deny.rules" --ctl "$S" --json
wait_ready sink; wait_ready rut
# ready (docs/readiness.md): the control socket answers at once, without a retry
ctl stats >/dev/null 2>"$T/err"; rc=$?
eq "the default kernel leaves ipfw FreeBSD 14's: skipto_dragonfly 0" \
	"$(ctl sysctl -n net.inet.ip.fw.skipto_dragonfly)" 0
eq "ready: the forwarder's control socket answers right after its ready line" "$rc $(cat "$T/err")" "0 "
eq "ready: its first line is the ready record, with its pid, ports and socket" \
	"$(head -n 1 "$T/rut.out" | jq -r '[.type, .pid, (.ports | join(" ")), .ctl] | join(",")')" \
	"ready,${BG_PID[rut]},afpacket:rut0 afpacket:rut1,$S"
eq "ready: the sink's first line is its ready record" "$(first_type sink)" ready
base=$(ifc sink sink0 rx_packets)
start gen1 gen "$B/ppslab-gen" -i gen0 --stream 1 --sport 1001 --rate 10k --count 20000 --json
start gen2 gen "$B/ppslab-gen" -i gen0 --stream 2 --sport 1002 --rate 5k --count 7000 --json
finish gen1 30; eq "deny: gen 1 exits 0" "$RC" 0
finish gen2 30; eq "deny: gen 2 exits 0" "$RC" 0
eq "ready: each sender said so before it sent" "$(first_type gen1) $(first_type gen2)" "ready ready"
read_all "$S" 27000
arrived sink sink0 "$base" 20000
show=$(ctl ipfw show); rc=$?
eq "deny: ipfw show exits 0" "$rc" 0
eq "deny: ipfw show, as ipfw prints it" "$show" \
"00100  7000  322000 deny udp from any 1002 to any
00200 40000 1840000 allow ip from any to any
65535     0       0 deny ip from any to any"
stop rut; eq "deny: rut exits 0" "$RC" 0
sink_done sink 20000; eq "deny: sink exits 0" "$RC" 0
eq "deny: only stream 1 arrived" "$(jv sink '[.streams[].stream] | join(",")')" 1
eq "deny: all of stream 1 (interface counter)" "$(jv sink .if_rx_packets)" 20000
eq "deny: the sink counted them (or its ring dropped them)" "$(jv sink '.rx_pkts + .ring_drops')" 20000
eq "deny: rule 100 counted the frames gen 2 sent" \
	"$(jv rut '.rules[] | select(.number == 100) | .pkts')" "$(jv gen2 .tx_pkts)"
eq "deny: the forwarder's own count for rule 100" "$(jv rut '.denied_by_rule["100"]')" 7000
eq "deny: fw_deny drops" "$(jv rut .drops.fw_deny)" 7000
eq "deny: forwarded stream 1" "$(jv rut .fwd_pkts)" 20000
eq "deny: rx = fwd + drop" "$(jv rut '.rx_pkts == .fwd_pkts + .drop_pkts')" true

# 2. count rules: twice per forwarded packet without a direction, once with one
cat >"$T/count.rules" <<'EOF'
100 count ip from any to any
110 count ip from any to any in
120 count ip from any to any out
130 count ip from any to any via rut0
140 count ip from any to any recv rut0
150 count ip from any to any xmit rut1
EOF
start sink2 sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut2 rut "$B/ppslab-rut" -i rut0 -o rut1 --rules "$T/count.rules" --default-accept \
	--ctl "$S" --json
wait_ready sink2; wait_ready rut2
base=$(ifc sink sink0 rx_packets)
start gen3 gen "$B/ppslab-gen" -i gen0 --rate 10k --count 4000 --json
finish gen3 30; eq "count: gen exits 0" "$RC" 0
read_all "$S" 4000
arrived sink sink0 "$base" 4000
# 60-byte frames carry 46-byte IP packets: bytes = IP length (docs/design/ipfw.md#counters)
eq "count: ipfw show" "$(ctl ipfw show)" \
"00100 8000 368000 count ip from any to any
00110 4000 184000 count ip from any to any in
00120 4000 184000 count ip from any to any out
00130 4000 184000 count ip from any to any via rut0
00140 8000 368000 count ip from any to any recv rut0
00150 4000 184000 count ip from any to any xmit rut1
65535 8000 368000 allow ip from any to any"
eq "count: ipfw zero" "$(ctl ipfw zero)" "Accounting cleared."
eq "count: all zero now" "$(ctl ipfw show | awk '{ s += $2 } END { print s }')" 0
ctl ipfw zero 105 >"$T/out" 2>"$T/err"; rc=$?
eq "count: zero of a missing rule exits 69" "$rc" 69
eq "count: and says what ipfw 14 says (ipfw_zero)" "$(cat "$T/out" "$T/err")" "Entry 105 not found"
eq "count: zero 100" "$(ctl ipfw zero 100)" "Entry 100 cleared."
ctl ipfw add 160 deny ip frm any to any >/dev/null 2>"$T/err"; rc=$?
eq "count: a bad rule exits 65" "$rc" 65
check "count: and says where" grep -q "^ipfw: .*'frm'.*(column" "$T/err"
ctl ipfw delete 65535 >/dev/null 2>&1; rc=$?
eq "count: the default rule cannot be deleted (69)" "$rc" 69
ctl ipfw table 9 list >/dev/null 2>"$T/err"; rc=$?
eq "count: listing a missing table exits 71" "$rc" 71
eq "count: and says it as ipfw(8) does, no column" "$(cat "$T/err")" \
	"ipfw: failed to request table info: No such process"
eq "count: delete 150" "$(ctl ipfw -q delete 150; echo $?)" 0
eq "count: add echoes the rule" "$(ctl ipfw add 170 count udp from 198.18.0.0/15 to any 9)" \
	"00170 count udp from 198.18.0.0/15 to any 9"
eq "count: list" "$(ctl ipfw list | cut -c1-5 | tr '\n' ' ')" "00100 00110 00120 00130 00140 00170 65535 "
stop rut2; eq "count: rut exits 0" "$RC" 0
sink_done sink2 "$(jv rut2 .fwd_pkts)"
eq "count: the summary has every rule" "$(jv rut2 '[.rules[].number] | join(",")')" \
	"100,110,120,130,140,170,65535"

# 3. a rule file loaded live (ipfw [-q] /FILE): all or nothing; counters off; bypass
start sink3 sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut3 rut "$B/ppslab-rut" -i rut0 -o rut1 --default-accept --ctl "$S" --json -v
wait_ready sink3; wait_ready rut3
awk 'BEGIN { print "flush"; for (i = 1; i <= 2000; i++)
	printf "add %d deny udp from 10.%d.%d.1 to any 1000\n", i * 10, int(i / 250), i % 250
	print "add 30000 deny udp from any 1002 to any" }' >"$T/big.rules"
ctl ipfw -q "$T/big.rules"; rc=$?
eq "file: 2,002 commands load (exit 0)" "$rc" 0
eq "file: static_count" "$(ctl sysctl -n net.inet.ip.fw.static_count)" 2002
{ echo "add 40000 deny ip from any to any"; echo "add 40010 dney ip from any to any"; } >"$T/bad.rules"
ctl ipfw "$T/bad.rules" >/dev/null 2>"$T/err"; rc=$?
eq "file: an error exits 65" "$rc" 65
check "file: and names FILE:LINE:COLUMN" grep -q "^ipfw: $T/bad.rules:2:11: " "$T/err"
eq "file: nothing of it was added" "$(ctl sysctl -n net.inet.ip.fw.static_count)" 2002
ctl ipfw -q /nonexistent/rules 2>"$T/err"; rc=$?
eq "file: a missing file exits 64" "$rc" 64
start gen4 gen "$B/ppslab-gen" -i gen0 --stream 1 --sport 1001 --rate 10k --count 3000 --json
start gen5 gen "$B/ppslab-gen" -i gen0 --stream 2 --sport 1002 --rate 10k --count 1000 --json
finish gen4 30; finish gen5 30
read_all "$S" 4000
eq "file: 2,000 non-matching rules let stream 1 through" "$(ctl stats | jq .fwd_pkts)" 3000
eq "file: the last rule denied stream 2" "$(ctl stats | jq '.denied_by_rule["30000"]')" 1000
eq "counters off" "$(ctl sysctl net.inet.ip.fw.update_counters=0)" "net.inet.ip.fw.update_counters: 1 -> 0"
start gen6 gen "$B/ppslab-gen" -i gen0 --stream 2 --sport 1002 --rate 10k --count 500 --json
finish gen6 30
read_all "$S" 4500
st=$(ctl stats)
eq "counters off: the rule's counter stood still" "$(echo "$st" | jq '.rules[] | select(.number == 30000) | .pkts')" 1000
eq "counters off: the forwarder still counts the drops" "$(echo "$st" | jq '.denied_by_rule["30000"]')" 1500
eq "enable=0 bypasses the firewall" "$(ctl sysctl net.inet.ip.fw.enable=0)" "net.inet.ip.fw.enable: 1 -> 0"
start gen7 gen "$B/ppslab-gen" -i gen0 --stream 2 --sport 1002 --rate 10k --count 500 --json
finish gen7 30
read_all "$S" 5000
eq "bypassed: stream 2 forwarded" "$(ctl stats | jq .fwd_pkts)" 3500
ctl ipfw add 50 deny ip from any to any >/dev/null 2>"$T/err"
check "bypassed: ipfw add notes that the firewall is off" grep -q "net.inet.ip.fw.enable is 0" "$T/err"
# log: verbose on, a log rule with logamount 3: three lines, then the limit line
ctl ipfw -q flush
ctl ipfw -q add 60 deny log logamount 3 udp from any 1002 to any 2>/dev/null
ctl sysctl net.inet.ip.fw.enable=1 net.inet.ip.fw.verbose=1 >/dev/null
start gen8 gen "$B/ppslab-gen" -i gen0 --stream 2 --sport 1002 --rate 1k --count 10 --json
finish gen8 30
read_all "$S" 5010
stop rut3; eq "file: rut exits 0" "$RC" 0
sink_done sink3 "$(jv rut3 .fwd_pkts)"
eq "log: three lines" "$(grep -c '^ipfw: 60 Deny UDP 198.18.0.2:1002 198.19.0.2:9 in via rut0$' "$T/rut3.err")" 3
check "log: then the limit" grep -q "^ipfw: limit 3 reached on entry 60" "$T/rut3.err"
eq "log: counted in the summary" "$(jv rut3 .fw.log_lines)" 4

# 4. --rules with an error: nothing runs, the error names FILE:LINE:COLUMN, status 65
printf 'add 100 allow ip from any to any\nadd 200 deny tcp from any to any 99999\n' >"$T/err.rules"
start rut4 rut "$B/ppslab-rut" -i rut0 -o rut1 --rules "$T/err.rules"
finish rut4 10
eq "--rules error: exit 65" "$RC" 65
check "--rules error: FILE:LINE:COLUMN" grep -q "$T/err.rules:2:" "$T/rut4.err"

# 5. FreeBSD 14 on the wire (docs/design/ipfw-fidelity.md): crafted frames dropped
# before any rule (a tiny TCP fragment, truncated TCP and UDP headers); UDP-Lite ports;
# reset and unreach replies arriving back at the sender; a table changed live; a
# keep-state rule letting the reply direction through, as `ipfw -d show` lists it
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
RUT0_MAC=02:70:70:00:00:01
RUT1_MAC=02:70:70:01:00:01
cat >"$T/fid.rules" <<'EOF'
add 60 allow icmp from me to any out xmit rut0
add 100 check-state
add 200 reset tcp from any to any 80 setup
add 300 unreach port udp from any 1003 to any
add 400 deny udplite from any to any 9
add 450 deny ip from table(blocked) to any
add 500 allow udp from 198.18.0.0/24 to any keep-state
add 65000 deny ip from any to any
EOF
# gen0's neighbour entry given: the system's may not exist yet (nothing asked rut0 for it)
start rut5 rut "$B/ppslab-rut" -i rut0 -o rut1 --mode intr --rules "$T/fid.rules" --ctl "$S" --json \
	--neigh 198.18.0.2=02:70:70:00:00:02@rut0
wait_ready rut5
pcap=0
if command -v tcpdump >/dev/null; then
	# (stopped below once the replies are in; the timeout only bounds a test that dies,
	# and must outlast the steps between, which take minutes on a loaded host)
	inns gen timeout 600 tcpdump -i gen0 -n -U --immediate-mode -w "$T/replies.pcap" \
		"src host 198.19.0.2 or icmp" >/dev/null 2>"$T/tcpdump.err" &
	tpid=$!
	# tcpdump says "listening on" once its capture is open: up to 10 s
	i=0
	while [ $i -lt 100 ] && ! grep -q 'listening on' "$T/tcpdump.err" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q 'listening on' "$T/tcpdump.err" || echo "# tcpdump not listening after 10 s: $(cat "$T/tcpdump.err")"
	pcap=1
fi
cr() { inns "${3:-gen}" "$CRAFT" -i "${4:-gen0}" --dst "${5:-198.19.0.2}" --dst-mac "${6:-$RUT0_MAC}" \
	--class "$1" --seqs "$2" --rate 1k >/dev/null; }
for c in tcp_tiny_frag tcp_trunc udp_trunc udplite tcp_syn; do
	cr $c 1-10; eq "wire: craft $c" "$?" 0
done
inns gen "$B/ppslab-gen" -i gen0 --sport 1003 --rate 1k --count 10 -q
read_all "$S" 60
eq "wire: a tiny TCP fragment is dropped before the rules (RFC 3128)" \
	"$(ctl stats | jq .drops.fw_tiny_frag)" 10
eq "wire: truncated TCP and UDP headers too (pullup_failed)" "$(ctl stats | jq .drops.fw_truncated)" 20
eq "wire: reset sent 10 RSTs, unreach 10 port unreachables" \
	"$(ctl stats | jq -c '[.replies.rst, .replies.unreach]')" "[10,10]"
# the blocked table, changed live over the control socket
eq "wire: table add" "$(ctl ipfw table blocked add 198.18.0.2/32)" "added: 198.18.0.2/32 0"
inns gen "$B/ppslab-gen" -i gen0 --sport 9 --rate 1k --count 10 -q
eq "wire: table delete" "$(ctl ipfw table blocked delete 198.18.0.2/32)" "deleted: 198.18.0.2/32 0"
read_all "$S" 70
# keep-state: the reply direction (crafted on sink0) is denied before the state, passes after
cr test 1-10 sink sink0 198.18.0.2 $RUT1_MAC
read_all "$S" 80
inns gen "$B/ppslab-gen" -i gen0 --sport 9 --rate 1k --count 10 -q
cr test 11-20 sink sink0 198.18.0.2 $RUT1_MAC
read_all "$S" 100
# the ICMP errors pass the outbound firewall (icmp_error goes through ip_output), the
# RSTs do not (M_SKIP_FIREWALL); a state match counts on the keep-state rule, not on
# check-state (ipfw_chk O_CHECK_STATE); forwarded frames pass twice (in, out)
eq "wire: ipfw show" "$(ctl ipfw show | sed 's/  */ /g')" \
"00060 10 740 allow icmp from me to any out xmit rut0
00100 0 0 check-state :default
00200 10 400 reset tcp from any to any 80 setup
00300 10 460 unreach port udp from any 1003 to any
00400 10 460 deny udplite from any to any 9
00450 10 460 deny ip from table(blocked) to any
00500 40 1840 allow udp from 198.18.0.0/24 to any keep-state :default
65000 10 460 deny ip from any to any
65535 0 0 deny ip from any to any"
check "wire: ipfw -D show lists the state" sh -c "'$B/ppslab-rut' ctl '$S' ipfw -D show |
	grep -q '^00500 40 1840 ([0-9]*s) STATE udp 198.18.0.2 9 <-> 198.19.0.2 9 :default\$'"
eq "wire: dyn_count" "$(ctl sysctl -n net.inet.ip.fw.dyn_count)" 1
eq "wire: every frame forwarded or dropped by the firewall" "$(ctl stats | jq -c '[.drops.no_neigh, .drops.no_route, .replies.not_sent.no_neigh]')" "[0,0,0]"
wire_st=$(ctl stats | jq -c '[.ports[] | {tx_pkts, drop_txfull}], .drops')
stop rut5; eq "wire: rut exits 0" "$RC" 0
if [ $pcap = 1 ]; then
	# the 30 frames rut0 sent (10 RSTs, 10 unreachables, 10 forwarded) in the file
	# before tcpdump stops: up to 10 s
	i=0
	while [ $i -lt 100 ] && [ "$(tcpdump -r "$T/replies.pcap" -n 2>/dev/null | wc -l)" -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
	tcpdump -r "$T/replies.pcap" -n -S 2>/dev/null | cut -d' ' -f2- >"$T/replies.txt"
	eq "wire: 10 RSTs reached gen0 (ipfw_send_pkt: seq 0, ack = SYN's seq + 1)" \
		"$(grep -c '^IP 198.19.0.2.80 > 198.18.0.2.9: Flags \[R.\], seq 0, ack 16909061, win 0, length 0$' "$T/replies.txt")" 10
	eq "wire: 10 port unreachables reached gen0 from rut0's address (icmp_reflect)" \
		"$(grep -c '^IP 198.18.0.1 > 198.18.0.2: ICMP 198.19.0.2 udp port 9 unreachable' "$T/replies.txt")" 10
	n=$(grep -c '^IP 198.19.0.2.9 > 198.18.0.2.9: UDP' "$T/replies.txt")
	eq "wire: 10 replies of the keep-state flow reached gen0" "$n" 10
	[ "$n" = 10 ] || { echo "# forwarder: $wire_st"; sed 's/^/# captured: /' "$T/replies.txt" | tail -5; }
else
	skip "wire: the replies on gen0" "no tcpdump"
fi

# 6. packets for the router itself (ip_input): the inbound pass only, delivered to its
# own stack (drops.local), answered as a FreeBSD router with no sockets answers: an
# echo request with an echo reply, a UDP datagram with a port unreachable; both
# answers pass the outbound firewall (icmp_reflect and icmp_error use ip_output)
cat >"$T/me.rules" <<'EOF'
add 100 count ip from any to me
add 110 count ip from any to me out
add 120 count icmp from me to any out
EOF
start rut6 rut "$B/ppslab-rut" -i rut0 -o rut1 --mode intr --rules "$T/me.rules" --default-accept \
	--ctl "$S" --json
wait_ready rut6
cr icmp_echo 1-10 gen gen0 198.18.0.1; eq "me: craft icmp_echo" "$?" 0
cr test 1-10 gen gen0 198.19.0.1; eq "me: craft UDP to rut1's address" "$?" 0
read_all "$S" 20
eq "me: delivered, answered: [local, echo, port_unreach, no_neigh, fwd_pkts]" \
	"$(ctl stats | jq -c '[.drops.local, .replies.echo, .replies.port_unreach, .drops.no_neigh, .fwd_pkts]')" \
	"[20,10,10,0,0]"
eq "me: the answers left by rut0" \
	"$(ctl stats | jq -c '[.ports[0].echo_sent, .ports[0].port_unreach_sent, .ports[0].tx_pkts]')" \
	"[10,10,20]"
eq "me: counted once, no outbound pass; the answers pass it" \
	"$(ctl ipfw show 100-120 | awk '{print $1, $2}' | tr '\n' ' ')" "00100 20 00110 0 00120 20 "
stop rut6; eq "me: rut exits 0" "$RC" 0
done_testing
