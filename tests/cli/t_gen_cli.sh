#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_gen_cli.sh — ppslab-gen without root: --help is complete, and docs/gen.md names no
# option it lacks; every bad value or bad combination is named (EX_USAGE, or
# EX_NOINPUT/EX_DATAERR for files) and never runs; the RFC 6815 guard covers ranges and
# captures; and on the udp: loopback port a step profile sends its exact frame count,
# two threads keep one gap-free stream, injected magic faults arrive as foreign,
# SIGINT mid-run still prints a complete summary (a signal before the run: a message and
# 128+signal), and a closed port's ICMP refusals are counted apart from failed frames.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
. "$TOP/scripts/ready.sh"
G=$B/ppslab-gen
n=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; echo "#   $2"; }
t() {   # t DESC EXPECTED_STATUS STDERR_PATTERN COMMAND...
	local d=$1 want=$2 pat=$3; shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" = "$want" ] && { [ -z "$pat" ] || echo "$err" | grep -qE -- "$pat"; }; then
		ok "$d"
	else
		nok "$d" "status $rc (wanted $want), stderr: $err"
	fi
}

# --help: every option of the table; docs/gen.md, which describes them, names no other
help=$("$G" --help)
missing=""
for o in iface dst src ipv6 flow-label vlan dst-mac src-mac dport sport flows flow-order rate link bit-layer steps \
	ramp poisson burst size pattern inject inject-rate count duration warmup stream ttl clock \
	threads cpus replay seed late late-policy calibrate interval json ready-fd start-at allow-any-dst quiet verbose version help; do
	echo "$help" | grep -q -- "--$o" || missing="$missing $o"
done
if [ -z "$missing" ]; then ok "--help lists every option"; else nok "--help lists every option" "missing:$missing"; fi
. "$(dirname "$0")/docopts.sh"
if stale=$(doc_opts_check "$TOP/docs/gen.md" ppslab-gen); then
	ok "docs/gen.md names only options ppslab-gen has"
else
	nok "docs/gen.md names only options ppslab-gen has" "$(echo "$stale" | head -5 | tr '\n' '|')"
fi

# bad values and combinations
t "rate: percentage without a link" 64 "give --link" "$G" -i lo --rate 50%
t "rate: unknown unit" 64 "--rate 10Mbyte: expected" "$G" -i lo --rate 10Mbyte
t "rate and steps together" 64 "one of --rate, --steps" "$G" -i lo --rate 10k --steps 10k@1s
t "steps: a step without a duration" 64 "step 2 '20k' has no @DURATION" "$G" -i lo --steps 10k@1s,20k
t "steps: a percentage step without a link" 64 "step 1 is a percentage" "$G" -i lo --steps 10%@1s
t "steps: only pauses" 64 "schedules no frames" "$G" -i lo --steps 0@1s
t "ramp: units must agree" 64 "--ramp 10k:1Gbit: expected" "$G" -i lo --ramp 10k:1Gbit
t "poisson needs a rate" 64 "--poisson needs a rate" "$G" -i lo --rate max --poisson
t "size: 60 explains the FCS" 64 "--size 60: expected.*4-byte FCS" "$G" -i lo --size 60
t "size: bad weight" 64 "weight 'x' of size 64" "$G" -i lo --size 64:x
t "link: not a speed" 64 "--link fast: expected" "$G" -i lo --rate 10% --link fast
t "bit layer" 64 "--bit-layer L3: expected L1 or L2" "$G" -i lo --bit-layer L3
t "flows and an sport range" 64 "not both" "$G" -i lo --flows 10 --sport 1000-1999
t "flows past port 65535" 64 "pass 65535" "$G" -i lo --flows 100 --sport 65500
t "flows: zero" 64 "--flows 0: expected" "$G" -i lo --flows 0
t "flow order" 64 "--flow-order shuffled: expected seq or random" "$G" -i lo --flow-order shuffled
t "late policy" 64 "--late-policy later: expected catchup, skip or shift" "$G" -i lo --late-policy later
t "the test-only stall, badly given" 64 "PPSLAB_TEST_GEN_STALL=5ms: expected EVERY:LENGTH" \
	env PPSLAB_TEST_GEN_STALL=5ms "$G" -i lo
t "inject: unknown kind" 64 "--inject crc: expected" "$G" -i lo --inject crc
t "inject rate without kinds" 64 "needs --inject" "$G" -i lo --inject-rate 1%
t "inject rate above 1" 64 "--inject-rate 1.5: expected" "$G" -i lo --inject magic --inject-rate 1.5
t "pattern" 64 "--pattern ones: expected" "$G" -i lo --pattern ones
t "threads: 0" 64 "--threads 0: expected" "$G" -i lo --threads 0
t "burst: 513" 64 "--burst 513: expected" "$G" -i lo --burst 513
t "cpus: not available" 64 "CPU 1000 is not available" "$G" -i lo --dst 127.0.0.2 --dst-mac 02:00:00:00:00:01 --cpus 0,1000
t "warm-up: unit" 64 "--warmup 2x: expected" "$G" -i lo --warmup 2x
t "calibrate takes no rate" 64 "calibrate measures" "$G" -i lo --calibrate --rate 10k
# (--flows on a udp: port would fail next: without the check, no traffic for hours)
t "epoch: at most 2^40 frames" 64 "--epoch 1: an epoch numbers at most 2\^40 frames \(1099511627776\), and this run sends 1099511627777" "$G" -i udp:127.0.0.1:9 --flows 4 --epoch 1 --count 1099511627777
t "epoch: a rate for so long" 64 "--epoch 2: an epoch numbers at most 2\^40 frames \(1099511627776\), and this run sends 1260000000000" "$G" -i udp:127.0.0.1:9 --flows 4 --epoch 2 --rate 100M --duration 3.5h
t "start-at: not a time" 64 "--start-at 12:00: expected a time in seconds since the epoch" "$G" -i lo --start-at 12:00
t "start-at: seconds, not ns" 64 "--start-at 1700000000000000000: expected" "$G" -i lo --start-at 1700000000000000000
t "start-at: days ago" 64 "within an hour of now" "$G" -i lo --start-at 1000000000.5
t "start-at: not with calibrate" 64 "takes no start time" "$G" -i lo --calibrate --start-at "$(date +%s)"
# --vlan: each bad tag named, sizes counting the tags, no udp: port, no capture
t "vlan: 4095 is reserved" 64 "--vlan 4095: the VLAN id 4095 is reserved \\(802.1Q\\); use 0..4094" "$G" -i lo --vlan 4095
t "vlan: the inner id of QinQ named" 64 "--vlan 10,5000: the inner VLAN id '5000' is not a number 0..4094" "$G" -i lo --vlan 10,5000
t "vlan: a priority above 7" 64 "--vlan 10:8: the priority \\(PCP\\) '8' of VLAN 10 is not 0..7" "$G" -i lo --vlan 10:8
t "vlan: three tags" 64 "--vlan 1,2,3: more than 2 tags" "$G" -i lo --vlan 1,2,3
t "vlan: 64 is below the smallest tagged frame" 64 "size 64 is below 68, the smallest IPv4 tagged test frame" "$G" -i lo --vlan 10 --size 64
t "vlan: QinQ IPv6 from 92" 64 "size 88 is below 92, the smallest IPv6 QinQ test frame" "$G" -i lo -6 --vlan 10,20 --size 88,1518
t "vlan: a udp: port cannot tag" 64 "--vlan 10: a udp: port sends through a socket, and a socket cannot tag" "$G" -i udp:127.0.0.1:9 --vlan 10
t "vlan: not with --replay" 64 "--replay sends the capture's frames as they are: .*--vlan, -6 and --flow-label do not apply" "$G" -i lo --replay /dev/null --vlan 10
# IPv6: each bad address, family mix, size and option named, before anything is opened
t "ipv6: 64 is below the smallest IPv6 test frame" 64 "size 64 is below 84, the smallest IPv6 test frame" "$G" -i lo -6 --size 64
t "ipv6: 64 in a list" 64 "size 64 is below 84" "$G" -i lo --dst 2001:2::1 --size 84,64,1518
t "ipv6: outside 2001:2::/48" 64 "refusing to send to 2001:db8::1: outside the benchmarking range 2001:2::/48" "$G" -i lo --dst 2001:db8::1
t "ipv6: a range leaving 2001:2::/48 by its start" 64 "refusing to send to 2001:2:1::1-2001:2:1::9" "$G" -i lo --dst 2001:2:1::1-2001:2:1::9
t "ipv6: not an address" 64 "--dst 2001:2::zz: expected an IPv6 address or range" "$G" -i lo --dst 2001:2::zz
t "ipv6: a prefix too wide" 64 "--dst 2001:2::/100: expected an IPv6 range whose ends differ in the last 32 bits only, or a prefix /104../128" "$G" -i lo --dst 2001:2::/100
t "ipv6: a range over the first 96 bits" 64 "--dst 2001:2::2-2001:2:0:1::2: expected an IPv6 range whose ends differ in the last 32 bits" "$G" -i lo --dst 2001:2::2-2001:2:0:1::2
t "ipv6: a range ending before it starts" 64 "--dst 2001:2::9-2001:2::2: expected" "$G" -i lo --dst 2001:2::9-2001:2::2
t "ipv6: -6 with an IPv4 destination" 64 "--dst 198.19.0.2: -6 sends IPv6" "$G" -i lo -6 --dst 198.19.0.2
t "ipv6: an IPv4 source to an IPv6 destination" 64 "--src 198.18.0.2: not of the destination's family \\(IPv6\\)" "$G" -i lo --src 198.18.0.2 --dst 2001:2::1
t "ipv6: an IPv6 source to an IPv4 destination" 64 "--src 2001:2::2: not of the destination's family \\(IPv4\\)" "$G" -i lo --src 2001:2::2 --dst 198.19.0.2
t "ipv6: a bad source" 64 "--src 2001:2::x: expected an IPv6 address or range" "$G" -i lo -6 --src 2001:2::x
t "ipv6: flow label without IPv6" 64 "--flow-label: IPv4 has no flow label" "$G" -i lo --flow-label 5
t "ipv6: flow label past 20 bits" 64 "--flow-label 1048576: expected a flow label 0..1048575" "$G" -i lo -6 --flow-label 1048576
t "ipv6: no header checksum to spoil" 64 "--inject ip-csum: IPv6 has no header checksum" "$G" -i lo -6 --inject udp-csum,ip-csum
t "ipv6: a udp: port" 64 "a udp: port sends over an IPv4 socket" "$G" -i udp:127.0.0.1:9 -6
t "ipv6: not with a capture" 64 "-6 and --flow-label do not apply" "$G" -i lo -6 --replay /nonexistent.pcap
t "udp: no address ranges" 64 "need an L2 port" "$G" -i udp:127.0.0.1:9 --flows 4
t "udp: no --src (the kernel picks it)" 64 "picks addresses" "$G" -i udp:127.0.0.1:9 --src 127.0.0.5
t "udp: only magic faults" 64 "only 'magic'" "$G" -i udp:127.0.0.1:9 --inject ip-csum
t "udp: --dst elsewhere than the port names" 64 "--dst 198.19.0.3: a udp: port sends to the address it names" \
	"$G" -i udp:198.19.0.2:9 --dst 198.19.0.3
t "udp: port 0" 64 "-i udp:198.19.0.2:0: expected a UDP port 1..65535" "$G" -i udp:198.19.0.2:0
t "udp: an IPv6 address" 64 "udp: takes an IPv4 address" "$G" -i "udp:[::1]:9"
t "udp: no port" 64 "expected udp:ADDR:PORT" "$G" -i udp:198.19.0.2
t "udp: ttl= twice" 64 "give the TTL once" "$G" -i udp:198.19.0.2:9,ttl=5 --ttl 3
# a PORTABLE=1 build has no afpacket: and xdp: (t_xdp_cli checks it says so)
portable=0
"$G" -i afpacket:lo 2>&1 | grep -q "not in this PORTABLE build" && portable=1
for be in afpacket pcap libnet xdp; do
	if [ $portable = 1 ] && { [ $be = afpacket ] || [ $be = xdp ]; }; then
		n=$((n + 1)); echo "ok $n - $be: a missing interface # SKIP PORTABLE build, no $be: backend"
		continue
	fi
	t "$be: a missing interface is named" 69 "-i $be:nosuch0: no interface 'nosuch0'" "$G" -i "$be:nosuch0"
	t "$be: a missing interface is named, with --src" 69 "no interface 'nosuch0'" \
		"$G" -i "$be:nosuch0" --src 198.18.0.1
done
t "count: 0, with the range" 64 "--count 0: expected a number of frames 1..2\^48" "$G" -i lo --count 0
t "count: 2^63-1, with the range" 64 "expected a number of frames 1..2\^48" "$G" -i lo --count 9223372036854775807
t "size: an empty item" 64 "--size 64,,1518: item 2 of the comma list is empty" "$G" -i lo --size 64,,1518
t "size: an empty first item" 64 "--size ,64: item 1 of the comma list is empty" "$G" -i lo --size ,64
t "steps: an empty item" 64 "item 2 of the comma list is empty" "$G" -i lo --steps 10k@1s,,20k@1s
t "inject: a trailing comma" 64 "--inject ip-csum,: item 2 of the comma list is empty" "$G" -i lo --inject ip-csum,
t "cpus: an empty item" 64 "--cpus 0,,1: item 2" "$G" -i lo --dst 127.0.0.2 --dst-mac 02:00:00:00:00:01 --cpus 0,,1
t "steps set the length: no --duration" 64 "the steps set the run's length" \
	"$G" -i lo --steps 1k@1s,2k@1s --duration 4s
t "steps: a --count they never reach" 64 "--count 5000: --steps 1k@1s,2k@1s schedules only 3000 frames" \
	"$G" -i lo --steps 1k@1s,2k@1s --count 5000
t "ramp: --count leaves no duration" 64 "a ramp runs over --duration, and --count gives none" \
	"$G" -i lo --ramp 1k:2k --count 100
t "replay: missing file" 66 "--replay $out/none.pcap: No such file" "$G" -i lo --replay "$out/none.pcap"
echo "garbage" >"$out/bad.pcap"
t "replay: not a capture" 65 "not a pcap" "$G" -i lo --replay "$out/bad.pcap"

# RFC 6815: ranges must stay inside the benchmarking range; so must a capture's frames
t "refuses a range that leaves 198.18.0.0/15" 64 "benchmarking range" "$G" -i lo --dst 198.19.255.250-198.20.0.5
t "refuses a range from loopback to the lab" 64 "benchmarking range" "$G" -i lo --dst 127.0.0.1-198.18.0.1
t "refuses a /8 of the internet" 64 "benchmarking range" "$G" -i lo --dst 10.0.0.0/8
pcap() {   # pcap FILE DST_OCTETS...: a one-frame Ethernet/IPv4/UDP capture to that address
	local f=$1 d
	d=$(printf '\\x%02x' "$2" "$3" "$4" "$5")
	{
		printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00'
		printf '\x00\x00\x00\x00\x00\x00\x00\x00\x3c\x00\x00\x00\x3c\x00\x00\x00'
		printf '\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00'
		printf '\x45\x00\x00\x2e\x00\x00\x00\x00\x40\x11\x00\x00\xc6\x12\x00\x02'
		printf "$d"
		printf '\x00\x09\x00\x09\x00\x1a\x00\x00'
		printf '\x00%.0s' $(seq 18)
	} >"$f"
}
pcap "$out/google.pcap" 8 8 8 8
t "replay: refuses a capture addressed outside the range" 64 "frame 1 is addressed outside" \
	"$G" -i lo --replay "$out/google.pcap"
# a capture's frames go out as captured: options that would rewrite them are refused
pcap "$out/lab.pcap" 198 18 0 2
for o in "--dst 198.19.0.77" "--stream 9" "--epoch 1" "--ttl 3" "--dst-mac 02:00:00:00:00:01" \
	"--src-mac 02:00:00:00:00:01" "--flow-order random" "--clock monotonic"; do
	t "replay: $o does not apply" 64 "--replay sends the capture's frames as they are" \
		"$G" -i lo --replay "$out/lab.pcap" $o
done
# a signal before the run (here while the capture is still being opened: a FIFO with
# no writer yet) ends it with a message and 128+signal, not silently by the signal
blocks() {   # blocks PID SIG: ppslab-gen, the child of PID (timeout), holds SIG blocked
	local c m
	c=$(pgrep -P "$1" -x ppslab-gen | head -n 1)
	[ -n "$c" ] && m=$(awk '/^SigBlk:/ { print $2 }' "/proc/$c/status" 2>/dev/null) &&
		[ -n "$m" ] && (( (16#$m >> ($(kill -l "$2") - 1)) & 1 ))
}
mkfifo "$out/fifo"
pcap "$out/sig.pcap" 198 18 0 2
for s in TERM INT; do
	timeout 10 "$G" -i lo --replay "$out/fifo" --count 1 --json >"$out/sig.out" 2>"$out/sig.err" &
	gpid=$!
	# it holds SIGINT and SIGTERM blocked from its first instruction on (and cannot
	# open the FIFO before cp does): the signal then waits for it, pending
	wait_for 10 blocks $gpid $s || echo "# gen did not block SIG$s within 10 s"
	kill -$s $gpid
	timeout 5 cp "$out/sig.pcap" "$out/fifo"   # bounded: a killed reader never opens it
	wait $gpid; grc=$?
	want=$((128 + $(kill -l $s)))
	if [ "$grc" = "$want" ] && grep -q "interrupted before sending" "$out/sig.err" && [ ! -s "$out/sig.out" ]; then
		ok "SIG$s before the run: exit $want, 'interrupted before sending', no output"
	else
		nok "SIG$s before the run: exit $want, 'interrupted before sending', no output" \
			"status $grc, stderr: $(cat "$out/sig.err"), stdout: $(head -c 200 "$out/sig.out")"
	fi
done

# udp: loopback runs, no root
port=$((21000 + $$ % 20000))
sink() {   # sink NAME: background sink on the port
	ready_fresh "$out/$1.sink" "$out/$1.sink.err"   # no ready line of an earlier one
	"$B/ppslab-sink" -i "udp:127.0.0.1:$port" --dport 0 --duration 30 --json \
		>"$out/$1.sink" 2>"$out/$1.sink.err" &
	spid=$!
	ready_wait $spid 30 "$out/$1.sink" || echo "# the sink $1 was not ready: $(cat "$out/$1.sink.err")"
}
# sink_end NAME: the sender is done: stop the sink once it has counted what the sender's
# summary says it sent (an idle timeout would race a slow sender start); its status
sink_end() {
	wait_for 15 sink_caught_up "$out/$1.sink" "$(sv "$1.gen" .tx_pkts)" ||
		echo "# the sink $1 did not count all $(sv "$1.gen" .tx_pkts) frames within 15 s"
	kill -INT $spid
	wait $spid
}
sv() { grep '"type":"summary"' "$out/$1" | tail -n 1 | jq -r "$2"; }

sink steps
"$G" -i "udp:127.0.0.1:$port" --steps 5k@200ms,0@100ms,10k@200ms --json >"$out/steps.gen" 2>"$out/steps.err"
grc=$?; sink_end steps; src=$?
got="$grc $src $(sv steps.gen .tx_pkts) $(sv steps.gen .sched_pkts) $(sv steps.sink .rx_pkts) $(sv steps.sink .lost_pkts)"
if [ "$got" = "0 0 3000 3000 3000 0" ]; then ok "steps 5k@200ms,0@100ms,10k@200ms: exactly 3000 frames, all arrive"
else nok "steps 5k@200ms,0@100ms,10k@200ms: exactly 3000 frames, all arrive" "gen,sink,tx,sched,rx,lost = $got $(cat "$out/steps.err")"; fi
# the kernel picks a udp: sender's source address and port: the summary claims none
eq_src=$(sv steps.gen '[.src, .sports] | map(. // "null") | join(",")')
if [ "$eq_src" = "null,null" ]; then ok "udp: the summary claims no source address or port"
else nok "udp: the summary claims no source address or port" "src,sports = $eq_src"; fi

sink thr
"$G" -i "udp:127.0.0.1:$port" --threads 2 --rate 20k --count 4001 --json >"$out/thr.gen" 2>"$out/thr.err"
grc=$?; sink_end thr; src=$?
got="$grc $src $(sv thr.gen .tx_pkts) $(sv thr.gen '[.per_thread[].tx_pkts]|join(",")') $(sv thr.sink .rx_pkts) $(sv thr.sink .lost_pkts) $(sv thr.sink .dup_pkts) $(sv thr.sink '.streams[0].next_seq')"
if [ "$got" = "0 0 4001 2001,2000 4001 0 0 4001" ]; then ok "two threads, 4001 frames: split 2001+2000, one gap-free stream at the sink"
else nok "two threads, 4001 frames: split 2001+2000, one gap-free stream at the sink" "gen,sink,tx,split,rx,lost,dup,next = $got $(cat "$out/thr.err")"; fi

sink inj
"$G" -i "udp:127.0.0.1:$port" --rate 20k --count 2000 --inject magic --inject-rate 10% --json >"$out/inj.gen" 2>"$out/inj.err"
grc=$?; sink_end inj; src=$?
got="$grc $src $(sv inj.gen .inject.magic) $(sv inj.gen .test_pkts) $(sv inj.sink .foreign_pkts) $(sv inj.sink .rx_pkts) $(sv inj.sink .lost_pkts)"
if [ "$got" = "0 0 200 1800 200 1800 0" ]; then ok "10% magic faults arrive as foreign, the stream stays gap-free"
else nok "10% magic faults arrive as foreign, the stream stays gap-free" "gen,sink,magic,test,foreign,rx,lost = $got"; fi

# a sender stopped for 30 ms at every 200 ms of the wall clock (PPSLAB_TEST_GEN_STALL,
# four or five times in 1 s) owes 150 frames each time: catching up sends them back to
# back; skipping leaves them out, numbering none, so the sink counts no loss; shifting
# keeps the gaps and counts the frames pushed past the end as a shortfall
for pol in catchup skip shift; do
	sink "$pol"
	PPSLAB_TEST_GEN_STALL=200ms:30ms "$G" -i "udp:127.0.0.1:$port" --rate 5k --duration 1s \
		--late-policy "$pol" --json >"$out/$pol.gen" 2>"$out/$pol.err"
	grc=$?; sink_end "$pol"; src=$?
	case $pol in
	catchup) want='.burst_max >= 140 and .skipped == 0 and .shifted_ns == 0' ;;
	skip) want='.burst_max <= 2 and .skipped >= 560 and .test_pkts + .skipped <= .sched_pkts' ;;
	shift) want='.burst_max <= 2 and .shifted_ns >= 116000000 and .test_pkts + 560 <= .sched_pkts' ;;
	esac
	got="$grc $src $(sv "$pol.gen" "$want") $(sv "$pol.gen" '.behind_n >= 4 and .behind_max_ns >= 29000000') $(sv "$pol.gen" .late_policy) $(sv "$pol.gen" '.test_pkts') $(sv "$pol.sink" .rx_pkts) $(sv "$pol.sink" .lost_pkts)"
	tp=$(sv "$pol.gen" .test_pkts)
	if [ "$got" = "0 0 true true $pol $tp $tp 0" ]; then ok "--late-policy $pol after stalls: $(sv "$pol.gen" '"largest burst \(.burst_max), behind \(.behind_ns / 1e6) ms, skipped \(.skipped), shifted \(.shifted_ns / 1e6) ms"'), no loss"
	else nok "--late-policy $pol after stalls" "gen,sink,policy,behind,name,test,rx,lost = $got $(sv "$pol.gen" '[.burst_max, .skipped, .shifted_ns, .behind_ns, .behind_n, .sched_pkts] | map(tostring) | join(",")') $(grep -v PPSLAB_TEST "$out/$pol.err")"; fi
done

"$G" -i "udp:127.0.0.1:$port" --rate 5k --duration 30 --json >"$out/int.gen" 2>"$out/int.err" &
gpid=$!
# mid-run: after its first interval line (so that there are two with the last)
intervals() { [ "$(grep -c '"type":"interval"' "$1")" -ge "$2" ]; }
wait_for 30 intervals "$out/int.gen" 1 || echo "# gen printed no interval line within 30 s"
kill -INT $gpid
wait $gpid; grc=$?
sum=$(grep '"type":"interval"' "$out/int.gen" | jq -s 'map(.tx_pkts) | add')
got="$grc $(sv int.gen .interrupted) $(sv int.gen '.gap_ns.count > 0') $(sv int.gen '.sched_pkts >= .tx_pkts')"
tx=$(sv int.gen .tx_pkts)
if [ "$got" = "0 true true true" ] && [ "$tx" -gt 0 ] && [ "$tx" = "$sum" ]; then
	ok "SIGINT mid-run: exit 0, a complete summary equal to the sum of the interval lines"
else
	nok "SIGINT mid-run: exit 0, a complete summary equal to the sum of the interval lines" \
		"status,interrupted,gaps,sched = $got, tx $tx, sum of intervals $sum"
fi
# each interval's gap histogram is that interval's: together they are the summary's
ihist=$(grep '"type":"interval"' "$out/int.gen" | jq -s '[.[].gap_hist_log2[][2]] | add')
shist=$(sv int.gen '[.gap_ns.hist_log2[][2]] | add')
gcount=$(sv int.gen .gap_ns.count)
nint=$(grep -c '"type":"interval"' "$out/int.gen")
if [ "$nint" -ge 2 ] && [ "$gcount" -gt 0 ] && [ "$ihist" = "$gcount" ] && [ "$shist" = "$gcount" ]; then
	ok "the $nint interval lines' gap histograms add up to the summary's ($gcount gaps)"
else
	nok "the interval lines' gap histograms add up to the summary's" \
		"intervals $nint, sum of interval histograms $ihist, summary histogram $shist, gap count $gcount"
fi
# a rate below one frame per --duration still lasts the --duration, and one frame is no rate
t0=$(date +%s%N)
"$G" -i "udp:127.0.0.1:$port" --rate 0.5 --duration 1s --json >"$out/slow.gen" 2>"$out/slow.err"
grc=$?; ms=$((($(date +%s%N) - t0) / 1000000))
got="$grc $(sv slow.gen .tx_pkts) $(sv slow.gen .pps)"
if [ "$got" = "0 1 null" ] && [ "$ms" -ge 1000 ]; then ok "0.5 pps for 1 s: one frame, no rate, and the run lasts its second (${ms} ms)"
else nok "0.5 pps for 1 s: one frame, no rate, and the run lasts its second" "status,tx,pps = $got, ${ms} ms $(cat "$out/slow.err")"; fi

# as fast as possible starts at time zero with the threads, not before: first to last
# batch within the --duration
"$G" -i "udp:127.0.0.1:$port" --rate max --duration 300ms --json >"$out/max.gen" 2>"$out/max.err"
got="$? $(sv max.gen '.duration_ns < 300000000 and .duration_ns > 0')"
if [ "$got" = "0 true" ]; then ok "max for 300 ms: sent within the 300 ms ($(sv max.gen .duration_ns) ns)"
else nok "max for 300 ms: sent within the 300 ms" "status,within = $got, duration_ns $(sv max.gen .duration_ns)"; fi

# interrupted in the warm-up: nothing measured is no pass
"$G" -i "udp:127.0.0.1:$port" --rate 1k --count 100000 --warmup 5s --json >"$out/wu.gen" 2>"$out/wu.err" &
gpid=$!
# in the warm-up: an interval line of it with frames (the warm-up lasts 5 s)
warming() { grep '"type":"interval"' "$1" | jq -c 'select(.warmup and .warmup_pkts > 0)' 2>/dev/null | grep -q .; }
wait_for 30 warming "$out/wu.gen" || echo "# gen printed no warm-up interval within 30 s"
kill -INT $gpid
wait $gpid; grc=$?
got="$grc $(sv wu.gen .tx_pkts) $(sv wu.gen .rate_ok) $(sv wu.gen .interrupted) $(sv wu.gen '.warmup_pkts > 0')"
if [ "$got" = "0 0 false true true" ]; then ok "SIGINT in the warm-up: 0 measured frames, rate_ok false"
else nok "SIGINT in the warm-up: 0 measured frames, rate_ok false" "status,tx,rate_ok,interrupted,warm-up frames = $got"; fi

# an interval's target is the frames the schedule had due in it, in whole bursts
"$G" -i "udp:127.0.0.1:$port" --rate 150 --burst 2 --interval 10ms --duration 200ms --json >"$out/ivl.gen" 2>&1
bad=$(grep '"type":"interval"' "$out/ivl.gen" | jq -s '[.[] | .target_pps * .dt_ns / 1e9 | . / 2 | (. - round) | fabs | select(. > 1e-6)] | length')
nint=$(grep -c '"type":"interval"' "$out/ivl.gen")
if [ "$bad" = 0 ] && [ "$nint" -ge 15 ]; then ok "150 pps in bursts of 2, 10-ms intervals: each interval's target is whole bursts ($nint intervals)"
else nok "150 pps in bursts of 2, 10-ms intervals: each interval's target is whole bursts" "$bad of $nint intervals were not"; fi

# ten frames at 1 kpps: a run with no late frame is on time whatever its last frame's jitter
"$G" -i "udp:127.0.0.1:$port" --rate 1k --count 10 --json >"$out/ten.gen" 2>&1
got="$(sv ten.gen .late) $(sv ten.gen .rate_ok)"
case "$got" in
"0 true") ok "10 frames at 1 kpps, none late: rate OK (error $(sv ten.gen .rate_error_pct) %)" ;;
"0 "*) nok "10 frames at 1 kpps, none late: rate OK" "late,rate_ok = $got, error $(sv ten.gen .rate_error_pct)" ;;
*) ok "10 frames at 1 kpps: some were late (machine busy), the verdict may say so: $got" ;;
esac

# --calibrate interrupted in its ceiling phase: no ceiling, for the interface either, and
# the frames it sent are still counted
# (a sink there, counting every 100 ms, shows when frames of the ceiling phase flow:
# the 2-s phase starts at the ready line; it is stopped with the sender)
"$B/ppslab-sink" -i "udp:127.0.0.1:$port" --dport 0 --duration 30 --interval 100ms \
	--json >"$out/cal.sink" 2>"$out/cal.sink.err" &
spid=$!
ready_wait $spid 30 "$out/cal.sink" || echo "# the sink cal was not ready: $(cat "$out/cal.sink.err")"
"$G" -i "udp:127.0.0.1:$port" --calibrate --duration 2s --json >"$out/cal.gen" 2>"$out/cal.err" &
gpid=$!
received() { grep '"type":"interval"' "$1" | jq -c 'select(.rx_pkts > 0)' 2>/dev/null | grep -q .; }
wait_for 30 received "$out/cal.sink" || echo "# the sink received nothing of --calibrate within 30 s"
kill -INT $gpid
wait $gpid; grc=$?
kill -INT $spid
wait $spid
got="$grc $(sv cal.gen .max_pps) $(sv cal.gen .if_max_pps) $(sv cal.gen '.tx_pkts > 0') $(sv cal.gen .interrupted) $(sv cal.gen .rate_ok)"
if [ "$got" = "0 null null true true false" ]; then ok "--calibrate interrupted in the ceiling: no ceiling, frames still counted"
else nok "--calibrate interrupted in the ceiling: no ceiling, frames still counted" "status,max,if_max,tx>0,interrupted,ok = $got"; fi

# --start-at: the first frame (here of the warm-up) leaves at the instant, not before
# (the realtime instant is mapped onto the monotonic clock the schedule runs on)
at=$(date -d '+0.3 sec' +%s.%N)
"$G" -i "udp:127.0.0.1:$port" --rate 20k --count 50 --warmup 50ms --start-at "$at" --json \
	>"$out/at.gen" 2>"$out/at.err"
grc=$?
# (jq reads these as doubles: equal to a few hundred ns)
got="$grc $(sv at.gen '(.start_at_ns - ('"${at/./}"' | tonumber)) | fabs < 1000') $(sv at.gen '.start_late_ns >= 0 and ((.first_tx_real_ns - .start_at_ns - .start_late_ns) | fabs < 1000)')"
if [ "$got" = "0 true true" ]; then ok "--start-at: the first frame leaves at the instant ($(sv at.gen .start_late_ns) ns after it)"
else nok "--start-at: the first frame leaves at the instant" "status, start_at, first >= start = $got $(cat "$out/at.err")"; fi

# nobody listens (the sinks above are gone): the kernel answers port unreachable. Those
# are refusals of frames that left, counted apart; not failed frames, not a full socket;
# and the interface is the one the kernel sends through (lo), not the default route's
"$G" -i "udp:127.0.0.1:$port" --rate 20k --count 2000 --json >"$out/ref.gen" 2>"$out/ref.err"
grc=$?
got="$grc $(sv ref.gen .tx_pkts) $(sv ref.gen .tx_fail) $(sv ref.gen .tx_full) $(sv ref.gen .ifname) $(sv ref.gen '.tx_refused >= 1 and .tx_refused <= .tx_pkts') $(sv ref.gen '.if_tx_packets >= .tx_pkts')"
# (a PORTABLE build has no route lookup: no interface, no counters)
[ $portable = 1 ] && got=${got/ null true false/ lo true true}
if [ "$got" = "0 2000 0 0 lo true true" ]; then ok "a closed port: ICMP refusals counted apart (tx_refused $(sv ref.gen .tx_refused)), none failed or full; counters of lo"
else nok "a closed port: ICMP refusals counted apart, none failed or full; counters of lo" "status,tx,fail,full,ifname,refused ok,if ok = $got $(cat "$out/ref.err")"; fi
"$G" -i "udp:127.0.0.1:$port" --rate 20k --count 200 >"$out/ref.txt" 2>&1
if grep -q '^refused: .* ICMP errors' "$out/ref.txt"; then ok "the human summary says the destination refused frames"
else nok "the human summary says the destination refused frames" "$(cat "$out/ref.txt")"; fi
echo "1..$n"
