# SPDX-License-Identifier: BSD-2-Clause
# b_mq.sh — ppslab-rut with one forwarding thread per queue (sourced by bench/run; the
# lab $BENCH_LAB is up). The veths get two queues for this section, one again after it.
#
#   threads   busy mode, no rules, 64 flows at the sender's full rate (the sender on
#             CPU 0): one forwarding thread on CPU 1 against two, on CPUs 1 and 0 (a
#             fanout group per port spreads the flows by their hash). Reported: the
#             ratio 2 threads / 1 thread per repetition, and where the CPUs went over
#             the window — each CPU's user, system and softirq share (/proc/stat: the
#             whole machine, other jobs included), the sender's CPU and each forwarding
#             thread's (its stats).
#   counters  two threads, busy mode, 0 and 3 `count ip from any to any` rules, with
#             net.inet.ip.fw.counters shared and percpu: the wall time per packet the
#             rules add, (1e9/pps_3 - 1e9/pps_0) / 3 ns per packet per rule — the seed's
#             own measure (it divided the rate lost by the rules). Only where the
#             forwarder, not the sender, is the limit does this measure the rules.
#
# Rates are sink0's rx_packets (an XDP drop there when it loads) over BENCH_SECS after
# 1 s warm-up. Records: group mq.

MQ_SOCK="$BENCH_OUT/mq.sock"
MQ_PID=""

mq_queues() {    # the lab's veths with N queues (ppslab lab up remakes them)
	"$B/ppslab" lab up --name "$BENCH_LAB" --queues "$1" >/dev/null ||
		{ echo "  mq: lab up --queues $1 failed"; return 1; }
}

mq_start() {     # mq_start CPULIST ARGS...: the forwarder, ready
	local cpus=$1; shift
	rm -f "$MQ_SOCK"
	ready_fresh "$BENCH_OUT/mq-rut.out" "$BENCH_OUT/mq-rut.err"   # no ready line of the last one
	ip netns exec "$BENCH_LAB-rut" taskset -c "$cpus" "$B/ppslab-rut" -i rut0 -o rut1 \
		--mode busy --ctl "$MQ_SOCK" -q --json --interval 60s "$@" \
		>"$BENCH_OUT/mq-rut.out" 2>"$BENCH_OUT/mq-rut.err" &
	MQ_PID=$!
	bench_ready "$MQ_PID" "$BENCH_OUT/mq-rut.out"
}

mq_stop() {
	[ -n "$MQ_PID" ] && kill -INT "$MQ_PID" 2>/dev/null && wait "$MQ_PID" 2>/dev/null
	MQ_PID=""
}

mq_gen() {       # the sender on CPU 0, 64 flows, full rate, for BENCH_SECS + 3 s
	ip netns exec "$BENCH_LAB-gen" taskset -c 0 "$B/ppslab-gen" -i gen0 --flows 64 --rate max \
		--duration $((BENCH_SECS + 3)) -q >/dev/null 2>&1 &
	MQ_GEN=$!
}

# cpu0 and cpu1 of /proc/stat: "user system softirq total" jiffies each
mq_cpustat() {
	awk '$1 == "cpu0" || $1 == "cpu1" { t = 0; for (i = 2; i <= 9; i++) t += $i
		print $2 + $3, $4, $8, t }' /proc/stat
}

mq_proc_cpu() {  # utime + stime of PID, in jiffies
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# mq_measure -> "PPS NOTE": the forwarded rate and where the CPUs went
mq_measure() {
	bench_flowing sink sink0 rx_packets
	sleep 1   # 1 s of forwarding before the window: the measurement's warm-up
	local a b s0 s1 g0 g1 t0 t1 v0 v1
	s0=$("$B/ppslab-rut" ctl "$MQ_SOCK" stats)
	a=$(mq_cpustat); g0=$(mq_proc_cpu "$MQ_GEN")
	t0=$(date +%s%N); v0=$(ifc sink sink0 rx_packets)
	sleep "$BENCH_SECS"   # the window measured
	v1=$(ifc sink sink0 rx_packets); t1=$(date +%s%N)
	b=$(mq_cpustat); g1=$(mq_proc_cpu "$MQ_GEN")
	s1=$("$B/ppslab-rut" ctl "$MQ_SOCK" stats)
	local hz cpus thr
	hz=$(getconf CLK_TCK)
	cpus=$(paste <(echo "$a") <(echo "$b") | awk '{ d = $8 - $4
		printf "cpu%d usr %d%% sys %d%% softirq %d%%; ", NR - 1, ($5 - $1) * 100 / d, ($6 - $2) * 100 / d, ($7 - $3) * 100 / d }')
	thr=$(jq -rn --argjson a "$s0" --argjson b "$s1" --argjson w "$(( (t1 - t0) / 1000000 ))" '
		[range(0; $b.threads | length) as $i
		 | "thread \($i) \((($b.threads[$i].cpu_s - $a.threads[$i].cpu_s) * 1e5 / $w) | floor)% (\(($b.threads[$i].fwd_pkts - $a.threads[$i].fwd_pkts) * 1000 / $w | floor) pps)"]
		| join(", ")')
	echo "$(( (v1 - v0) * 1000000000 / (t1 - t0) )) ${cpus}sender $(( (g1 - g0) * 100 * 1000000000 / hz / (t1 - t0) ))%; $thr"
}

mq_record() {    # mq_record LABEL REP "PPS NOTE"
	local v=${3%% *} note=${3#* }
	record mq "$1" pps "$2" "$v" "" "$note"
	printf '  %-44s rep %d: %8d pps  (%s)\n' "$1" "$2" "$v" "$note"
}

if [ "$(nproc)" -lt 2 ]; then
	echo "  mq: needs 2 CPUs"
elif mq_queues 2; then
	xdp_drop sink sink0 on 2>/dev/null || echo "  (no XDP drop at sink0: the sink's shield drops instead)"
	for rep in $(seq "$BENCH_REPS"); do
		mq_start 1 --threads 1
		mq_gen
		mq_record "busy, 1 thread (CPU 1)" "$rep" "$(mq_measure)"
		wait "$MQ_GEN"; mq_stop
		mq_start 0,1 --threads 2 --cpus 1,0
		mq_gen
		mq_record "busy, 2 threads (CPUs 1, 0)" "$rep" "$(mq_measure)"
		wait "$MQ_GEN"; mq_stop
	done
	for rep in $(seq "$BENCH_REPS"); do
		for ctr in shared percpu; do
			for n in 0 3; do
				f="$BENCH_OUT/mq-count-$n.rules"
				awk -v n=$n 'BEGIN { for (i = 1; i <= n; i++) printf "add %d count ip from any to any\n", i * 100
					print "add 1000 allow ip from any to any" }' >"$f"
				mq_start 0,1 --threads 2 --cpus 1,0 --rules "$f" --sysctl net.inet.ip.fw.counters=$ctr
				mq_gen
				mq_record "2 threads, $n count rules, counters $ctr" "$rep" "$(mq_measure)"
				wait "$MQ_GEN"; mq_stop
			done
		done
	done
	xdp_drop sink sink0 off
	# ratios per repetition (repetitions interleave the sides), then their median
	jq -rs '
	  def med: if length == 0 then null else sort | .[length/2|floor] end;
	  def at(l; r): [.[] | select(.group == "mq" and .label == l and .rep == r) | .value][0];
	  def show: if . == null then "n/a" else . * 100 | floor / 100 | tostring end;
	  . as $all | ([.[] | select(.group == "mq") | .rep] | unique) as $reps |
	  def paired(a; b; f): [$reps[] as $r | [($all | at(a; $r)), ($all | at(b; $r))]
	                        | select(.[0] != null and .[1] != null and .[0] > 0 and .[1] > 0) | f] | med;
	  paired("busy, 2 threads (CPUs 1, 0)"; "busy, 1 thread (CPU 1)"; .[0] / .[1]) as $ratio |
	  def cost(c): paired("2 threads, 3 count rules, counters \(c)"; "2 threads, 0 count rules, counters \(c)";
	                      (1e9 / .[0] - 1e9 / .[1]) / 3);
	  "  2 threads / 1 thread, busy: \($ratio | show)× (median of the paired repetitions)",
	  "  count rule cost, 2 threads, from the rates: shared \(cost("shared") | show) ns, percpu \(cost("percpu") | show) ns per packet per rule"
	' "$BENCH_OUT/records.jsonl" | tee "$BENCH_OUT/mq.txt"
	mq_queues 1
fi
