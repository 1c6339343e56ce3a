#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_threads.sh — ppslab-rut with several forwarding threads, one per queue
# (--threads): with 2 threads (busy mode) and 4 (intr mode) every frame of two streams
# sent over 64 flows is forwarded exactly once (per stream: all arrived, none twice,
# none lost), every thread forwards some, and the per-thread statistics add up to the
# totals; the rule counters (percpu) summed over the threads equal the frames; a rule
# set replaced again and again under load never gives a frame's two passes two rule
# sets (two sets that count into disjoint rules, in and out: each rule's in count equals
# its out count); and in poll mode each thread's queue keeps the ceiling pollhz ×
# burst_max, judged by the forwarder's own clock: forwarded frames per thread at most
# burst_max per round, and at least 90 % of burst_max per tick that fired, the ticks
# that did not fire being those it reports itself (polling.clock_skips).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
S="$T/rut.sock"
ctl() { "$B/ppslab-rut" ctl "$S" "$@"; }

# the threads' figures add up to the totals
sums_check() {   # sums_check NAME LABEL
	local o
	o=$(summary "$1")
	eq "$2: per-thread rx, fwd, drop, tx add up to the totals" \
		"$(jq -c '[([.threads[].rx_pkts] | add) == .rx_pkts, ([.threads[].fwd_pkts] | add) == .fwd_pkts,
			([.threads[].drop_pkts] | add) == .drop_pkts, ([.threads[].tx_pkts] | add) == .tx_pkts]' <<<"$o")" \
		"[true,true,true,true]"
	check "$2: every thread forwarded ($(jq -c '[.threads[].fwd_pkts]' <<<"$o"))" \
		test "$(jq '[.threads[] | select(.fwd_pkts > 0)] | length' <<<"$o")" = "$(jq '.threads | length' <<<"$o")"
}

# every thread's poll context at burst BM, frames forwarded (for wait_until)
all_at_burst() {
	local st
	st=$(ctl stats 2>/dev/null) && [ -n "$st" ] &&
		jq -e --argjson bm "$1" '.fwd_pkts > 0 and ([.threads[].polling.burst] | all(. == $bm))' \
			<<<"$st" >/dev/null
}

# two streams of N frames over 64 flows each, at a modest rate, counted per stream
exact_run() {   # exact_run NTHREADS MODE
	local n=$1 mode=$2 N=10000 name=rut_$1
	printf 'add 100 count ip from any to any in\nadd 200 allow ip from any to any\n' >"$T/count.rules"
	start sink_$n sink "$B/ppslab-sink" -i sink0 --duration 60 --expect-from "$T/g1_$n.out" \
		--expect-from "$T/g2_$n.out" --json
	start $name rut "$B/ppslab-rut" -i rut0 -o rut1 --threads $n --mode $mode --ctl "$S" \
		--rules "$T/count.rules" --json
	wait_ready sink_$n; wait_ready $name
	start g1_$n gen "$B/ppslab-gen" -i gen0 --stream 1 --flows 64 --rate 5k --count $N --json
	start g2_$n gen "$B/ppslab-gen" -i gen0 --stream 2 --flows 64 --rate 5k --count $N --json
	finish g1_$n 30; eq "$n threads: gen 1 exits 0" "$RC" 0
	finish g2_$n 30; eq "$n threads: gen 2 exits 0" "$RC" 0
	# what the host dropped in the kernel on the way: gen0's veth backlog (gb), the
	# forwarder's rings (counted in its kernel_drops)
	local gb hd
	gb=$(($(jv g1_$n .if_tx_dropped) + $(jv g2_$n .if_tx_dropped)))
	read_all "$S" $((2 * N - gb))
	hd=$((gb + $(ctl stats | jq .kernel_drops)))
	sink_done sink_$n $((2 * N - hd)); eq "$n threads: sink exits 0" "$RC" 0
	stop $name; eq "$n threads: rut exits 0" "$RC" 0
	eq "$n threads ($mode): read + its rings' kernel drops + gen0's backlog drops = $((2 * N))" \
		"$(($(jv $name '.rx_pkts + .kernel_drops') + gb))" $((2 * N))
	eq "$n threads ($mode): forwarded every frame read, dropped none" \
		"$(jv $name '[.fwd_pkts == .rx_pkts, .drop_pkts]' | jq -c .)" "[true,0]"
	for id in 1 2; do
		eq "$n threads: stream $id arrived once, whole but for the host's drops (rx + lost, dup)" \
			"$(jv sink_$n ".streams[] | select(.stream == $id) | [.rx_pkts + .lost_pkts, .dup_pkts]" | jq -c .)" \
			"[$N,0]"
	done
	if [ "$hd" = 0 ] && [ "$(jv sink_$n '.ring_drops + .if_drops')" = 0 ]; then
		eq "$n threads: nothing lost" "$(jv sink_$n '[.streams[].lost_pkts] | add')" 0
	else
		skip "$n threads: nothing lost" "the host dropped $hd frames in the kernel on the way, the sink's ring and interface $(jv sink_$n '.ring_drops + .if_drops')"
	fi
	sums_check $name "$n threads"
	eq "$n threads: rule 100 counted every frame once, over the threads (percpu)" \
		"$(jv $name '[.fw.counters, (.rules[] | select(.number == 100) | .pkts)]' | jq -c .)" \
		"[\"percpu\",$((2 * N))]"
	hops
}

exact_run 2 busy
exact_run 4 intr

# a rule set replaced under load: both passes of a frame see one set
cat >"$T/swap.rules" <<EOF
add 100 skipto 1000 ip from any to any
add 1000 count ip from any to any in
add 1010 count ip from any to any out
add 1020 allow ip from any to any
add 2000 count ip from any to any in
add 2010 count ip from any to any out
add 2020 allow ip from any to any
EOF
printf 'delete 100\nadd 100 skipto 1000 ip from any to any\n' >"$T/a.rules"
printf 'delete 100\nadd 100 skipto 2000 ip from any to any\n' >"$T/b.rules"
start rut_swap rut "$B/ppslab-rut" -i rut0 -o rut1 --threads 2 --mode busy --ctl "$S" \
	--rules "$T/swap.rules" --json
wait_ready rut_swap
# 20 replacements, each one only once the forwarder has read frames since the one
# before (a count waited for, not one counted in a wall-clock window); the sender runs
# until then and is stopped
SWAPS=20
start gen_swap gen "$B/ppslab-gen" -i gen0 --flows 64 --rate 20k --duration 300 --json
rx_now() { ctl stats 2>/dev/null | jq -r '.rx_pkts // 0'; }
rx_beyond() { [ "$(rx_now)" -gt "$1" ]; }
swaps=0 flowed=0 prev=0
while [ $swaps -lt $SWAPS ]; do
	wait_until 30 "swap: frames read after replacement $swaps" rx_beyond "$prev" || break
	flowed=$((flowed + 1))
	f="$T/a.rules"; [ $((swaps % 2)) = 1 ] && f="$T/b.rules"
	ctl ipfw -q "$f" || break
	swaps=$((swaps + 1))
	prev=$(rx_now)
done
wait_until 30 "swap: frames read after the last replacement" rx_beyond "$prev" && flowed=$((flowed + 1))
stop gen_swap; eq "swap: gen exits 0 on SIGINT" "$RC" 0
sent=$(jv gen_swap .tx_pkts)
read_all "$S" "$sent"
st=$(ctl stats)
stop rut_swap; eq "swap: rut exits 0" "$RC" 0
eq "swap: the rule set was replaced $SWAPS times, frames read under each (sets and waits done)" \
	"$swaps,$flowed" "$SWAPS,$((SWAPS + 1))"
pk() { jq ".rules[] | select(.number == $1) | .pkts" <<<"$st"; }
eq "swap: set A's frames counted in and out alike (1000 in, 1010 out)" "$(pk 1000)" "$(pk 1010)"
eq "swap: set B's frames counted in and out alike (2000 in, 2010 out)" "$(pk 2000)" "$(pk 2010)"
eq "swap: every frame in one set or the other" "$(($(pk 1000) + $(pk 2000)))" "$(jq .rx_pkts <<<"$st")"
check "swap: both sets saw frames ($(pk 1000) and $(pk 2000))" test "$(pk 1000)" -gt 0 -a "$(pk 2000)" -gt 0
sums_check rut_swap swap

# poll mode: the ceiling per queue, 1000 Hz × burst_max 10 = 10,000 pps per thread,
# offered 60,000 pps over 64 flows (each queue gets well over its ceiling)
HZ=1000 BM=10
start rut_poll rut "$B/ppslab-rut" -i rut0 -o rut1 --threads 2 --pollhz $HZ --burst-max 20 \
	--rt-prio 5 --ctl "$S" --json
wait_ready rut_poll
ctl sysctl kern.polling.burst_max=$BM >/dev/null
eq "poll: a knob written reached both threads" \
	"$(ctl stats | jq -c '[.threads[].polling.burst_max]')" "[$BM,$BM]"
start gen_poll gen "$B/ppslab-gen" -i gen0 --flows 64 --rate 60k --duration 4 --json
# the ramp: burst climbs to burst_max in a few rounds, on every thread
wait_until 20 "poll: every thread polling at burst_max $BM" all_at_burst $BM
a=$(ctl stats); sleep 2; b=$(ctl stats)   # the window measured
finish gen_poll 20; eq "poll: gen exits 0" "$RC" 0
stop rut_poll; eq "poll: rut exits 0" "$RC" 0
for i in 0 1; do
	d=$(jq -n --argjson a "$a" --argjson b "$b" --argjson i $i '
		($a.threads[$i].polling) as $x | ($b.threads[$i].polling) as $y |
		{ frames: ($y.polled_frames - $x.polled_frames), rounds: ($y.rounds - $x.rounds),
		  ticks: ($y.ticks - $x.ticks), skips: ($y.clock_skips - $x.clock_skips),
		  dt: (($y.t_ns - $x.t_ns) / 1e9) }')
	fr=$(jq .frames <<<"$d") ro=$(jq .rounds <<<"$d") ti=$(jq .ticks <<<"$d") sk=$(jq .skips <<<"$d")
	dl=$(jq '.dt * '$HZ' | floor' <<<"$d")
	echo "# poll thread $i: $fr frames in $ro rounds, $ti ticks + $sk skipped deadlines of $dl in the window"
	check "poll thread $i: at most burst_max per round ($fr <= $BM × ($ro + 1))" test "$fr" -le $((BM * (ro + 1)))
	within "poll thread $i: every deadline ticked or was skipped, by its own count" $((ti + sk)) \
		$((dl * 97 / 100)) $((dl * 103 / 100 + 2))
	check "poll thread $i: burst_max per tick that fired ($fr >= 0.9 × $BM × $ti)" \
		test "$((fr * 10))" -ge $((9 * BM * ti))
	within "poll thread $i: the ceiling per queue, $((HZ * BM)) pps" \
		"$(jq -n "$fr / $(jq .dt <<<"$d") | floor")" 0 $((HZ * BM * 102 / 100))
done
sums_check rut_poll poll
eq "poll: the summary's counters are the threads' sums" \
	"$(jv rut_poll '[.polling.rounds == ([.threads[].polling.rounds] | add), .polling.clock_skips == ([.threads[].polling.clock_skips] | add)]' | jq -c .)" \
	"[true,true]"
done_testing
