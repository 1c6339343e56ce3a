#!/usr/bin/env bash
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
ctl ipfw zero 105 >/dev/null 2>"$T/err"; rc=$?
eq "count: zero of a missing rule exits 69" "$rc" 69
eq "count: and says what ipfw says" "$(cat "$T/err")" "ipfw: rule 105: setsockopt(IP_FW_ZERO): Invalid argument"
eq "count: zero 100" "$(ctl ipfw zero 100)" "Entry 100 cleared"
ctl ipfw add 160 deny ip frm any to any >/dev/null 2>"$T/err"; rc=$?
eq "count: a bad rule exits 65" "$rc" 65
check "count: and says where" grep -q "^ipfw: .*'frm'.*(column" "$T/err"
ctl ipfw delete 65535 >/dev/null 2>&1; rc=$?
eq "count: the default rule cannot be deleted (69)" "$rc" 69
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
done_testing
