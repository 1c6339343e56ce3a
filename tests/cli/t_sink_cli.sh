#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_sink_cli.sh — ppslab-sink without root: bad options named with what was expected
# (EX_USAGE), --expect-from errors with FILE:LINE:COLUMN (EX_DATAERR) or a missing file
# (EX_NOINPUT) that still leave a complete summary, tail loss from a sender summary over
# udp: on loopback, and docs/sink.md naming only options ppslab-sink has.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
. "$TOP/scripts/ready.sh"
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() {   # result DESC OK(0/1) WHY
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; echo "#   $3"; fi
}
t() {        # t DESC EXPECTED_STATUS STDERR_PATTERN COMMAND...
	local d=$1 want=$2 pat=$3; shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	[ "$rc" = "$want" ] && { [ -z "$pat" ] || echo "$err" | grep -qE -- "$pat"; }
	result "$d" $? "status $rc (wanted $want), stderr: $err"
}
S="$B/ppslab-sink"
port=$((21000 + $$ % 20000))
t "threads: a number from 1 to 16" 64 "--threads 0: expected a thread count" "$S" -i lo --threads 0
t "threads: not 17" 64 "--threads 17" "$S" -i lo --threads 17
t "threads need afpacket or xdp" 64 "needs afpacket ports \(PACKET_FANOUT\) or xdp: ports" "$S" -i "udp:127.0.0.1:$port" --threads 2 --duration 1
t "cpus: not a list" 64 "--cpus a,b: expected a list of" "$S" -i lo --cpus a,b
t "cpus: empty item" 64 "--cpus 0,,1: item 2" "$S" -i lo --cpus 0,,1
t "cpus: not available" 64 "CPU 1000 is not available" "$S" -i lo --cpus 0,1000
t "expect and expect-from exclude each other" 64 "give one" "$S" -i lo --expect 5 --expect-from x
t "bad warm-up" 64 "--warmup 2x" "$S" -i lo --warmup 2x
t "bad max-delay" 64 "--max-delay" "$S" -i lo --max-delay soon
t "bad gap-min" 64 "--gap-min 3q" "$S" -i lo --gap-min 3q
t "bad gap-list" 64 "--gap-list 65" "$S" -i lo --gap-list 65
t "vlan: 4095 is reserved" 64 "--vlan 4095: the VLAN id 4095 is reserved \\(802.1Q\\); use 0..4094 .* \\(or none: untagged\\)" "$S" -i lo --vlan 4095
t "vlan: three tags" 64 "--vlan 1,2,3: more than 2 tags" "$S" -i lo --vlan 1,2,3
t "vlan: not a number" 64 "--vlan ten: the VLAN id 'ten' is not a number" "$S" -i lo --vlan ten
t "vlan: a udp: port has no tags" 64 "--vlan 10: a udp: port receives payloads, never a frame's tags" "$S" -i "udp:127.0.0.1:$port" --vlan 10
t "epoch: 0..255" 64 "--epoch 256: expected an epoch 0..255" "$S" -i lo --epoch 256
t "unknown backend named" 64 "unknown port backend" "$S" -i nope:x

printf '{"type":"interval","tx_pkts":1}\n{"type":"summary","stream":0,"tx_pkts":}\n' >"$tmp/bad.json"
out=$("$S" -i "udp:127.0.0.1:$port" --dport 0 --duration 0.3 --json --expect-from "$tmp/bad.json" 2>"$tmp/err"); rc=$?
grep -qE "bad.json:2:[0-9]+:" "$tmp/err"
result "bad summary: FILE:LINE:COLUMN" $? "$(cat "$tmp/err")"
result "bad summary: EX_DATAERR" $([ "$rc" = 65 ]; echo $?) "status $rc"
sum=$(echo "$out" | grep '"type":"summary"')
[ -n "$sum" ] && jq -e '.expect_error | test("bad.json:2")' <<<"$sum" >/dev/null
result "bad summary: the summary is still printed, with the reason" $? "$out"

out=$("$S" -i "udp:127.0.0.1:$port" --dport 0 --duration 0.2 --json --expect-from "$tmp/none.json" 2>"$tmp/err"); rc=$?
result "missing summary file: EX_NOINPUT" $([ "$rc" = 66 ]; echo $?) "status $rc, $(cat "$tmp/err")"
echo "$out" | grep -q '"type":"summary"'
result "missing summary file: summary printed" $? "$out"

# 1000 frames over udp: on loopback; the sender's summary (edited to claim 1200) gives
# 200 frames of tail loss, blamed on the network (no ring/socket drops)
"$S" -i "udp:127.0.0.1:$port" --dport 0 --duration 30 --json \
	--expect-from "$tmp/claim.json" >"$tmp/sink" 2>"$tmp/sink.err" &
sp=$!
ready_wait $sp 30 "$tmp/sink"
"$B/ppslab-gen" -i "udp:127.0.0.1:$port" --rate 20k --count 1000 --json >"$tmp/gen" 2>"$tmp/gen.err"
grc=$?
grep '"type":"summary"' "$tmp/gen" | jq -c '.tx_pkts = 1200 | if has("test_pkts") then .test_pkts = 1200 else . end' >"$tmp/claim.json"
# stopped once it has counted them and the claim is written (an idle timeout would race
# a slow sender start)
wait_for 15 sink_caught_up "$tmp/sink" 1000
kill -INT $sp
wait $sp
src=$?
sum=$(grep '"type":"summary"' "$tmp/sink")
result "udp loopback run exits 0" $([ "$grc$src" = 00 ]; echo $?) "gen $grc sink $src $(cat "$tmp/sink.err")"
v=$(echo "$sum" | jq -r '[.rx_pkts, .lost_pkts, .network_lost_pkts, .sink_dropped_pkts, .streams[0].expect] | join(",")')
result "tail loss from the sender's summary: rx,lost,network,sink,expect" \
	$([ "$v" = "1000,200,200,0,1200" ]; echo $?) "got $v"
v=$(echo "$sum" | jq -r '.streams[0] | [(.gaps | length), .gap_count, .gap_lost_pkts, .longest_gap_ns] | join(",")')
result "tail loss is in no gap: listed,count,lost,longest" $([ "$v" = "0,0,0,0" ]; echo $?) "got $v"
v=$(echo "$sum" | jq -r '.streams[0].latency_ns.count')
result "latency over udp: (kernel receive stamps)" $([ "$v" = 1000 ]; echo $?) "got $v"

# --idle: the idle clock starts at the first test frame. A sink with --idle 0.3 that
# has seen no traffic for 1 s is still waiting (the time without traffic is the test's
# point, hence the sleep); sent 1000 frames, it stops by itself 0.3 s after the last,
# and its rate is the traffic's, first to last test frame, not over its lifetime.
"$S" -i "udp:127.0.0.1:$port" --dport 0 --idle 0.3 --duration 60 --json \
	>"$tmp/isink" 2>"$tmp/isink.err" &
sp=$!
ready_wait $sp 30 "$tmp/isink"
sleep 1
kill -0 $sp 2>/dev/null
result "idle: no traffic yet, the sink still waits after more than --idle" $? \
	"$(tail -n 2 "$tmp/isink") $(cat "$tmp/isink.err")"
"$B/ppslab-gen" -i "udp:127.0.0.1:$port" --rate 20k --count 1000 >/dev/null 2>&1
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_for 30 gone $sp
result "idle: the sink stops by itself after the traffic" $? "still running"
kill -INT $sp 2>/dev/null
wait $sp
result "idle: exit status 0" $? "$(cat "$tmp/isink.err")"
sum=$(grep '"type":"summary"' "$tmp/isink")
v=$(jq -r '[.rx_pkts, .interrupted] | join(",")' <<<"$sum")
result "idle: all 1000 frames, not interrupted" $([ "$v" = "1000,false" ]; echo $?) "got $v"
[ -n "$sum" ] && jq -e '.active_ns > 0 and .active_ns < .duration_ns - 1e9
	and ((.pps - 999e9 / .active_ns) | fabs) < 0.01
	and .pps > .rx_pkts * 1e9 / .duration_ns' <<<"$sum" >/dev/null
result "summary rate: first to last test frame, not the sink's lifetime" $? \
	"$(jq -c '{active_ns, duration_ns, pps, rx_pkts}' <<<"$sum")"

# one number formatter in the live lines: 5,000 frames sent twice over are 5,000
# duplicates, written with separators in the interval line and the summary as the
# packets are
"$S" -i "udp:127.0.0.1:$port" --dport 0 --idle 0.5 --duration 60 >"$tmp/hsink" 2>"$tmp/hsink.err" &
sp=$!
ready_wait $sp 30 "$tmp/hsink.err"
for i in 1 2; do "$B/ppslab-gen" -i "udp:127.0.0.1:$port" --rate 50k --count 5000 >/dev/null 2>&1; done
wait_for 30 gone $sp
kill -INT $sp 2>/dev/null
wait $sp
awk '$1 ~ /^[0-9]+\.[0-9]$/ && $8 ~ /^[0-9]+(,[0-9][0-9][0-9])+$/ {f = 1} END {exit !f}' "$tmp/hsink" &&
	grep -q "duplicated 5,000," "$tmp/hsink"
result "live lines: every count with thousands separators" $? "$(head -5 "$tmp/hsink" | tr '\n' '|')"

# --epoch: a sender of another epoch (an earlier trial's, numbered 0..2,999 of it) and
# then this epoch's: the 3,000 are stale, never received, lost or duplicates, and they
# all arrived before this epoch's first frame was sent; the 2,000 are exact
"$S" -i "udp:127.0.0.1:$port" --dport 0 --epoch 3 --idle 0.5 --duration 60 --json \
	>"$tmp/esink" 2>"$tmp/esink.err" &
sp=$!
ready_wait $sp 30 "$tmp/esink"
"$B/ppslab-gen" -i "udp:127.0.0.1:$port" --epoch 2 --rate 50k --count 3000 >"$tmp/egen2" 2>&1
"$B/ppslab-gen" -i "udp:127.0.0.1:$port" --epoch 3 --rate 50k --count 2000 --json >"$tmp/egen" 2>&1
wait_for 30 gone $sp
kill -INT $sp 2>/dev/null
wait $sp
v=$(grep '"type":"summary"' "$tmp/esink" | jq -r '[.epoch, .rx_pkts, .lost_pkts, .dup_pkts, .reordered_pkts, .stale_pkts, .stale_overlap_ns < 0] | join(",")')
result "epoch: stale frames apart: epoch,rx,lost,dup,reord,stale,before" \
	$([ "$v" = "3,2000,0,0,0,3000,true" ]; echo $?) "got $v"
# its summary names the numbers it sent, 2 x 2^40 on, and the sink's options for them
grep -q "stream 0: sequence numbers 2199023255552..2199023258551 (epoch 2: ppslab-sink --epoch 2 --expect 3000)" "$tmp/egen2"
result "epoch: the sender's text names its numbers" $? "$(grep sequence "$tmp/egen2")"
v=$(grep '"type":"summary"' "$tmp/egen" | jq -r '.epoch')
result "epoch: the sender's summary says its epoch" $([ "$v" = 3 ]; echo $?) "got $v"

# the page that describes the options names no option the sink lacks (the option
# reference is --help and the man page, which t_man.sh compares)
. "$(dirname "$0")/docopts.sh"
stale=$(doc_opts_check "$TOP/docs/sink.md" ppslab-sink)
result "docs/sink.md names only options ppslab-sink has" $? "$(echo "$stale" | head -5 | tr '\n' '|')"
echo "1..$n"
