#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_xdp.sh — the xdp: (AF_XDP) ports end to end, as t_e2e.sh does for afpacket:
# 100,000 frames at 50,000 pps gen -> rut -> sink with every port on AF_XDP (the
# forwarder moving frames between its ports without a copy) and gen -> sink directly;
# a handful of frames through the forwarder in each mode (nothing held back);
# mixed backends; generic XDP; sender and sink threads on a queue each; the XDP program
# detached on exit, after a SIGKILL by the next open and by `ppslab lab up`, a live
# tool's left alone, someone else's refused.
# Skipped only where the kernel lacks AF_XDP (or ppslab was built without it).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up

# What is attached: "MODE:NAME ..." (empty when nothing), from ip's JSON.
xdp_on() {  # xdp_on ROLE IF
	ip -n "$LAB-$1" -d -j link show dev "$2" | jq -r '[.[0].xdp.attached[]? | "\(.mode):\(.prog.name)"] | join(" ")'
}

# Can this kernel (and this build) do AF_XDP at all?
inns rut "$B/ppslab-sink" -i xdp:rut0 --duration 0.2 >/dev/null 2>"$T/probe.err"
probe=$?
if [ "$probe" != 0 ]; then
	if grep -qE "not available in this kernel|built without AF_XDP" "$T/probe.err"; then
		skip "AF_XDP integration tests" "$(head -n 1 "$T/probe.err")"
		done_testing
		exit 0
	fi
	bail "xdp: probe failed: $(cat "$T/probe.err")"
fi
eq "the probe left no XDP program behind" "$(xdp_on rut rut0)" ""

# gen -> rut -> sink, every port AF_XDP
start sink sink "$B/ppslab-sink" -i xdp:sink0 --duration 60 --json
start rut rut "$B/ppslab-rut" -i xdp:rut0 -o xdp:rut1 --mode busy --json -v
wait_ready sink; wait_ready rut
eq "rut attached its program to rut0 (native XDP)" "$(xdp_on rut rut0)" "1:ppslab_xsk"
eq "sink attached its program to sink0" "$(xdp_on sink sink0)" "1:ppslab_xsk"
base=$(ifc sink sink0 rx_packets)
start gen gen "$B/ppslab-gen" -i xdp:gen0 --dst 198.19.0.2 --rate 50k --count 100000 --json
finish gen 30; eq "gen exits 0" "$RC" 0
# veth's XDP ring holds 256 frames, 5 ms at 50 kpps: a host that holds the forwarder
# longer makes the kernel drop at rut0, and counts them. The books must balance to the
# frame: what rut0's kernel did not drop is forwarded, received and measured.
kd() { local d; d=$(jv rut '[.ports[].kernel_drops] | add' 2>/dev/null); echo "${d:-0}"; }
arrived sink sink0 "$base" 100000 || true
stop rut; eq "rut exits 0 on SIGINT" "$RC" 0
drops=$(kd)
fwd=$((100000 - drops))
sink_done sink "$fwd"; eq "sink exits 0" "$RC" 0
[ "$drops" -gt 0 ] && echo "# rut0's kernel dropped $drops frames: the host held the forwarder past veth's 256-frame XDP ring"
eq "gen sent 100000" "$(jv gen .tx_pkts)" 100000
eq "gen failed 0" "$(jv gen .tx_fail)" 0
eq "gen interface counted 100000" "$(jv gen .if_tx_packets)" 100000
eq "gen reports whether it met its rate" "$(jv gen '.rate_ok | type')" boolean
eq "gen backend" "$(jv gen .backend)" xdp
eq "rut forwarded all it read: 100000 less rut0's kernel drops" "$(jv rut .fwd_pkts)" "$fwd"
eq "rut read what its kernel did not drop" "$(jv rut .rx_pkts)" "$fwd"
eq "rut dropped 0" "$(jv rut .drop_pkts)" 0
check "rut's kernel drops, if any, are at rut0 (the only port that receives)" \
	test "$(jv rut '[.ports[] | select(.ifname != "rut0") | .kernel_drops] | add // 0')" = 0
eq "sink received what rut forwarded" "$(jv sink .rx_pkts)" "$fwd"
eq "sink lost what rut0's kernel dropped" "$(jv sink .lost_pkts)" "$drops"
eq "sink errors 0" "$(jv sink .err_pkts)" 0
eq "sink duplicates 0" "$(jv sink .dup_pkts)" 0
eq "sink foreign 0" "$(jv sink .foreign_pkts)" 0
eq "sink ring drops 0" "$(jv sink .ring_drops)" 0
check "latency measured for every frame received" test "$(jv sink '.streams[0].latency_ns.count')" = "$fwd"
# the two rut ports share one UMEM: forwarded frames leave by reference, not copied
eq "rut1 sent all it forwarded without a copy" \
	"$(grep -o 'xdp:rut1: sent [0-9]* frames, [0-9]* of them without a copy' "$T/rut.err")" \
	"xdp:rut1: sent $fwd frames, $fwd of them without a copy"
check "rut1 shared rut0's UMEM" grep -q "xdp:rut1: .*UMEM shared with rut0" "$T/rut.err"
eq "rut's program detached on exit" "$(xdp_on rut rut0)" ""
eq "sink's program detached on exit" "$(xdp_on sink sink0)" ""

# fewer frames than the forwarder batches before a send (32) leave at once in every
# mode: it sends what it held back whenever it finds nothing more to read, not only on
# its way out (sink0's own counter, read before the forwarder is stopped)
for mode in busy intr poll; do
	start few_$mode rut "$B/ppslab-rut" -i xdp:rut0 -o xdp:rut1 --mode $mode --json
	wait_ready few_$mode
	base=$(ifc sink sink0 rx_packets)
	inns gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate 1k --count 7 -q >/dev/null 2>&1
	arrived sink sink0 "$base" 7
	eq "$mode, 7 frames: all at sink0 while the forwarder runs" "$(($(ifc sink sink0 rx_packets) - base))" 7
	stop few_$mode; eq "$mode, 7 frames: rut exits 0" "$RC" 0
	eq "$mode, 7 frames: rut forwarded 7" "$(jv few_$mode .fwd_pkts)" 7
done

# gen -> sink directly (the sink on the router's port)
start direct rut "$B/ppslab-sink" -i xdp:rut0 --duration 60 --json
wait_ready direct
base=$(ifc rut rut0 rx_packets)
start gen2 gen "$B/ppslab-gen" -i xdp:gen0 --dst 198.18.0.1 --rate 50k --count 100000 --json
finish gen2 30; eq "direct: gen exits 0" "$RC" 0
arrived rut rut0 "$base" 100000
sink_done direct 100000; eq "direct: sink exits 0" "$RC" 0
eq "direct: sink received 100000" "$(jv direct .rx_pkts)" 100000
eq "direct: lost 0" "$(jv direct .lost_pkts)" 0
eq "direct: errors 0" "$(jv direct .err_pkts)" 0

# mixed: afpacket gen and sink, rut in on xdp and out on afpacket (frames copied out)
start sink3 sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut3 rut "$B/ppslab-rut" -i xdp:rut0 -o afpacket:rut1 --mode busy --json
wait_ready sink3; wait_ready rut3
base=$(ifc sink sink0 rx_packets)
start gen3 gen "$B/ppslab-gen" -i gen0 --rate 20k --count 20000 --json
finish gen3 30; eq "mixed: gen exits 0" "$RC" 0
arrived sink sink0 "$base" 20000
sink_done sink3 20000; eq "mixed: sink exits 0" "$RC" 0
stop rut3; eq "mixed: rut exits 0" "$RC" 0
eq "mixed: rut forwarded 20000" "$(jv rut3 .fwd_pkts)" 20000
eq "mixed: sink received 20000" "$(jv sink3 .rx_pkts)" 20000
eq "mixed: lost 0" "$(jv sink3 .lost_pkts)" 0

# generic (skb) XDP, copy mode forced
start gen4sink rut "$B/ppslab-sink" -i xdp:rut0,skb=1,mode=copy --duration 60 --json
wait_ready gen4sink
eq "skb=1 attaches in generic mode" "$(xdp_on rut rut0)" "2:ppslab_xsk"
base=$(ifc rut rut0 rx_packets)
start gen4 gen "$B/ppslab-gen" -i xdp:gen0,mode=copy --dst 198.18.0.1 --rate 20k --count 20000 --json
finish gen4 30; eq "generic: gen exits 0" "$RC" 0
arrived rut rut0 "$base" 20000
sink_done gen4sink 20000; eq "generic: sink exits 0" "$RC" 0
eq "generic: sink received 20000" "$(jv gen4sink .rx_pkts)" 20000
eq "generic: program detached" "$(xdp_on rut rut0)" ""

# a sender's threads on xdp: take a queue each (one AF_XDP socket per queue): on a
# one-queue veth the second thread is refused with the way out; on two queues both send
inns gen "$B/ppslab-gen" -i xdp:gen0 --threads 2 --count 10 -q >/dev/null 2>"$T/mq.err"
eq "2 xdp: threads on a 1-queue veth: exit 64" "$?" 64
check "the error names queue 1 and ppslab lab up --queues" \
	grep -q "xdp:gen0: cannot bind an AF_XDP socket to queue 1 .*ppslab lab up --queues N" "$T/mq.err"
inns rut "$B/ppslab-sink" -i xdp:rut0,queue=1 --duration 0.2 >/dev/null 2>"$T/q1.err"
eq "queue=1 asked for on a 1-queue veth: exit 64" "$?" 64
check "... without the threads' advice (no thread chose it)" \
	bash -c '! grep -q "lab up --queues" "$1" && grep -q "queue 1" "$1"' _ "$T/q1.err"
"$B/ppslab" lab up --name "$LAB" --queues 2 >/dev/null 2>&1
start sink sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --json
wait_ready sink; wait_ready rut
base=$(ifc sink sink0 rx_packets)
start gen gen "$B/ppslab-gen" -i xdp:gen0 --threads 2 --dst 198.19.0.2 --rate 50k --count 100000 --json
finish gen 30; eq "2 xdp: threads on 2 queues: gen exits 0" "$RC" 0
arrived sink sink0 "$base" 100000
sink_done sink 100000; stop rut
eq "2 xdp: threads: gen sent 100000" "$(jv gen .tx_pkts)" 100000
eq "2 xdp: threads: gen interface counted 100000" "$(jv gen .if_tx_packets)" 100000
eq "2 xdp: threads: sink received 100000, lost 0" "$(jv sink .rx_pkts)/$(jv sink .lost_pkts)" 100000/0
# the receive side: a sink thread per queue; sender thread i's frames arrive on queue i
# two CPUs this test may use, or its only one twice (make check-stress runs it on one)
read -r c0 c1 _ <<<"$(taskset -pc $$ | sed 's/.*: //' | awk -F, '{
	for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) printf "%d ", c } }')"
c1=${c1:-$c0}
start mqs rut "$B/ppslab-sink" -i xdp:rut0 --threads 2 --cpus "$c1,$c0" --duration 60 --json
wait_ready mqs
base=$(ifc rut rut0 rx_packets)
start gen gen "$B/ppslab-gen" -i xdp:gen0 --threads 2 --dst 198.18.0.1 --rate 20k --count 20000 --json
finish gen 30; eq "sink on 2 queues: gen exits 0" "$RC" 0
arrived rut rut0 "$base" 20000
sink_done mqs 20000; eq "sink on 2 queues: exits 0" "$RC" 0
eq "sink on 2 queues: both threads read, all counted, none lost" \
	"$(jv mqs '[.threads, ([.workers[] | .rx_pkts > 0] | all), .rx_pkts, .lost_pkts] | map(tostring) | join(",")')" \
	"2,true,20000,0"
inns rut "$B/ppslab-sink" -i xdp:rut0 --duration 0.1 >/dev/null 2>"$T/unread.err"
check "one thread on two queues: the sink says what it does not read" \
	grep -q "xdp:rut0: reads queue 0 of the 2 receive queues rut0 has: frames on the others are not counted (--threads 2" "$T/unread.err"
"$B/ppslab" lab up --name "$LAB" --queues 1 >/dev/null 2>&1

# veth offers no zero-copy: mode=zc fails clearly (EX_UNAVAILABLE), leaving nothing
inns rut "$B/ppslab-sink" -i xdp:rut0,mode=zc --duration 1 >/dev/null 2>"$T/zc.err"
eq "mode=zc on veth: exit 69" "$?" 69
check "mode=zc on veth: says so" grep -q "no zero-copy AF_XDP (mode=zc); use mode=copy or mode=auto" "$T/zc.err"
eq "mode=zc on veth: nothing left attached" "$(xdp_on rut rut0)" ""

# after SIGKILL the program stays; `ppslab lab up` detaches it; a live one it leaves
start killed rut "$B/ppslab-sink" -i xdp:rut0 --duration 30 --json
wait_ready killed
kill -KILL "${BG_PID[killed]}"; finish killed 5
eq "SIGKILL leaves the program attached" "$(xdp_on rut rut0)" "1:ppslab_xsk"
start live sink "$B/ppslab-sink" -i xdp:sink0 --duration 30 --json
wait_ready live
"$B/ppslab" lab up --name "$LAB" >"$T/labup.out" 2>"$T/labup.err"
eq "lab up exits 0" "$?" 0
eq "lab up detached the leftover" "$(xdp_on rut rut0)" ""
check "lab up said so" grep -q "rut0: detached a leftover XDP program 'ppslab_xsk'" "$T/labup.err"
eq "lab up left the live sink's program" "$(xdp_on sink sink0)" "1:ppslab_xsk"
stop live; eq "live sink exits 0" "$RC" 0

# ... and the next open detaches a leftover by itself, then works
start killed2 rut "$B/ppslab-sink" -i xdp:rut0 --duration 30 --json
wait_ready killed2
kill -KILL "${BG_PID[killed2]}"; finish killed2 5
start again rut "$B/ppslab-sink" -i xdp:rut0 --duration 60 --json
wait_ready again
start gen5 gen "$B/ppslab-gen" -i xdp:gen0 --dst 198.18.0.1 --rate 20k --count 5000 --json
finish gen5 30; eq "after a leftover: gen exits 0" "$RC" 0
sink_done again "$(sent gen5)"; eq "after a leftover: sink exits 0" "$RC" 0
check "the next open detached the leftover" grep -q "detached a leftover XDP program 'ppslab_xsk'" "$T/again.err"
eq "after a leftover: sink received 5000" "$(jv again .rx_pkts)" 5000

# someone else's program: refused with advice, and lab up leaves it alone
if ip -n "$LAB-rut" link set dev rut0 xdpdrv obj /usr/lib/x86_64-linux-gnu/bpf/xsk_def_xdp_prog.o sec xdp 2>/dev/null; then
	inns rut "$B/ppslab-sink" -i xdp:rut0 --duration 1 >/dev/null 2>"$T/foreign.err"
	check "a foreign program: open fails" test "$?" -ne 0
	check "a foreign program: named, with the command to remove it" \
		grep -q "already has an XDP program ('xsk_def_prog'.*ip link set dev rut0 xdpdrv off" "$T/foreign.err"
	"$B/ppslab" lab up --name "$LAB" >/dev/null 2>&1
	eq "lab up leaves a foreign program" "$(xdp_on rut rut0)" "1:xsk_def_prog"
	ip -n "$LAB-rut" link set dev rut0 xdpdrv off
else
	skip "a foreign program is refused" "libxdp's xsk_def_xdp_prog.o not found"
fi

# lab down detaches whatever is attached before removing the namespaces
start killed3 rut "$B/ppslab-sink" -i xdp:rut0 --duration 30 --json
wait_ready killed3
kill -KILL "${BG_PID[killed3]}"; finish killed3 5
"$B/ppslab" lab down --name "$LAB" >"$T/down.out" 2>&1
eq "lab down exits 0 with a program attached" "$?" 0
check "lab down removed the namespaces" test ! -e "/run/netns/$LAB-rut"
done_testing
