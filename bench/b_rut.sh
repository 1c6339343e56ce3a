# SPDX-License-Identifier: BSD-2-Clause
# b_rut.sh — ppslab-rut against the peers that forward the same traffic between the same
# veths, in one run (sourced by bench/run; the lab $BENCH_LAB is up, shields on).
#
#   busy   ppslab-rut --mode busy, no rules (afpacket: ports, and xdp: ports when the
#          build has AF_XDP), vs the Linux kernel forwarding (shield off,
#          ip_forward on) and vs dpdk-testpmd io-forward over net_af_packet; placements
#          "same" (everything on CPU 0) and "split": the sender on CPU 0, the forwarding
#          on CPU 1 — for the kernel by RPS of rut0 to CPU 1 (a veth frame is otherwise
#          received and forwarded on the sending CPU), for the user-space forwarders by
#          pinning them to CPU 1 (rut0's receive softirq, the copy into their ring,
#          stays with the sender on CPU 0; their transmit work is on CPU 1).
#   ip6    IPv6 beside IPv4 at the same size: ppslab-rut busy, no rules, split placement,
#          forwarding 84-byte IPv4 frames and 84-byte IPv6 frames (the smallest IPv6
#          test frame) to the sink's /64 through a static route and neighbour (the
#          bench lab leaves IPv6 off in the kernels, so the forwarder is told them);
#          the summary's ratio column of the IPv6 row is IPv4 / IPv6, and a line
#          after the part gives IPv6 / IPv4 of the medians.
#   rules  1,000 non-matching rules + allow: ppslab-rut (ipfw rules, two passes per
#          packet) vs the kernel with 1,000 equivalent nftables rules in its forward
#          hook; per-rule cost in ns from the rates with and without rules.
#   poll   poll mode with the CPU not the limit: pollhz 1000 × burst_max 100 offered
#          200,000 pps must forward 100,000 (±3 %); then a live pollhz sweep at
#          burst_max 20 and the full offered load, showing where the CPU takes over
#          (the 2006 DragonFly sweep's table: 450,072 pps at HZ 3000). The poll thread
#          runs SCHED_FIFO (--rt-prio): a tick delayed by another process would be
#          "lost" and replayed with a smaller burst (the 7/8 rule), which is the
#          machine's noise, not the forwarder's ceiling.
#
# RUT_PARTS="busy ip6 rules poll" (the default) picks the parts.
#
# Every rate is read from the kernel's own counters (sink0 rx_packets, with an XDP
# drop at sink0 so the receiver is never the limit), over BENCH_SECS after 1 s warm-up.
# Frames are 64 bytes (84 in ip6). Records: group rut-*, ratio column = ppslab-rut / peer.

RUT_SOCK="$BENCH_OUT/rut.sock"
RUT_PARTS=${RUT_PARTS:-busy ip6 rules poll}
rut_part() { case " $RUT_PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
RUT_PID=""

rut_cpus() {        # the forwarder's CPU list for a placement
	[ "$1" = split ] && echo 1 || echo 0
}

# Starts the sender at the full rate (or RATE) on CPU 0 for SECS+3 seconds. Background
# tools are started with `ip netns exec` directly (not through a shell function) so
# that $! is the tool itself and SIGINT reaches it.
rut_gen_start() {   # rut_gen_start RATE [ARGS...]
	local rate=$1; shift
	ready_fresh "$BENCH_OUT/rut-gen.json"   # no ready line of the last sender
	ip netns exec "$BENCH_LAB-gen" taskset -c 0 "$B/ppslab-gen" -i gen0 --rate "$rate" --duration $((BENCH_SECS + 3)) -q \
		--json "$@" >"$BENCH_OUT/rut-gen.json" 2>&1 &
	RUT_GEN=$!
	bench_ready "$RUT_GEN" "$BENCH_OUT/rut-gen.json"
}

# Forwarded pps over BENCH_SECS, from sink0's rx_packets; the other hops go in the note.
# Each counter's rate uses the time between its own two reads (reading four counters
# takes a while on a loaded machine; dividing by BENCH_SECS would overstate rates).
rut_measure() {     # rut_measure -> prints "PPS NOTE"
	bench_flowing sink sink0 rx_packets
	sleep 1   # 1 s of forwarding before the window: the measurement's warm-up
	local c k out="" first=""
	local -A v0 t0
	for c in "sink sink0 rx_packets" "gen gen0 tx_packets" "rut rut0 rx_packets" "rut rut1 tx_packets"; do
		t0[$c]=$(date +%s%N); v0[$c]=$(ifc $c)
	done
	sleep "$BENCH_SECS"   # the window measured
	for c in "sink sink0 rx_packets" "gen gen0 tx_packets" "rut rut0 rx_packets" "rut rut1 tx_packets"; do
		k=$(date +%s%N)
		r=$(( ($(ifc $c) - ${v0[$c]}) * 1000000000 / (k - ${t0[$c]}) ))
		set -- $c
		if [ -z "$first" ]; then first=$r; else out="$out $2_${3%%_*}=$r"; fi
	done
	echo "$first$out"
}

rut_record() {      # rut_record GROUP LABEL REP "PPS NOTE" [PEER_OF]
	local v=${4%% *} note=${4#* }
	record "$1" "$2" pps "$3" "$v" "${5:-}" "$note"
	printf '  %-44s rep %d: %8d pps  (%s)\n' "$2" "$3" "$v" "$note"
}

rut_start() {       # rut_start CPUS ARGS...: the forwarder with a control socket, ready
	local cpus=$1; shift
	rm -f "$RUT_SOCK"
	ready_fresh "$BENCH_OUT/rut.out" "$BENCH_OUT/rut.err"   # no ready line of the last one
	ip netns exec "$BENCH_LAB-rut" taskset -c "$cpus" "$B/ppslab-rut" -i "${RUT_IN:-rut0}" \
		-o "${RUT_OUT:-rut1}" --ctl "$RUT_SOCK" -q --json --interval 60s "$@" \
		>"$BENCH_OUT/rut.out" 2>"$BENCH_OUT/rut.err" &
	RUT_PID=$!
	bench_ready "$RUT_PID" "$BENCH_OUT/rut.out"
}

rut_stop() {
	[ -n "$RUT_PID" ] && kill -INT "$RUT_PID" 2>/dev/null && wait "$RUT_PID" 2>/dev/null
	RUT_PID=""
}

rut_ctl() {
	"$B/ppslab-rut" ctl "$RUT_SOCK" "$@"
}

# 1,000 rules that match nothing the sender sends (its source is 198.18.0.2, UDP to 9)
rut_rules_file() {  # rut_rules_file PATH
	awk 'BEGIN { for (i = 0; i < 1000; i++)
		printf "add %d deny udp from 10.%d.%d.1 to any 1000\n", (i + 1) * 10, int(i / 250), i % 250
		print "add 20000 allow ip from any to any" }' >"$1"
}

nft_rules_on() {    # the kernel's equivalent: 1,000 rules in the forward hook
	{
		echo "table inet ppslab_bench {"
		echo "  chain forward_bench { type filter hook forward priority 0; policy accept;"
		awk 'BEGIN { for (i = 0; i < 1000; i++)
			printf "    ip saddr 10.%d.%d.1 udp dport 1000 drop\n", int(i / 250), i % 250 }'
		echo "  }"
		echo "}"
	} | inns rut nft -f -
}

if ! xdp_drop sink sink0 on 2>/dev/null; then
	echo "  (no XDP drop at sink0: the sink's shield drops instead)"
fi

# --- busy mode, no rules: ppslab-rut vs Linux vs dpdk-testpmd, both placements
have_testpmd=0
bench_need dpdk-testpmd dpdk-dev && have_testpmd=1
have_xdp=0
"$B/ppslab-rut" -i xdp:nonexistent0 -o xdp:nonexistent1 -t 0.1 2>&1 | grep -q "no such interface" && have_xdp=1
for place in same split; do
	rut_part busy || break
	cpus=$(rut_cpus $place)
	for rep in $(seq "$BENCH_REPS"); do
		rut_start "$cpus" --mode busy
		rut_gen_start max
		rut_record rut-busy "ppslab-rut busy ($place)" "$rep" "$(rut_measure)"
		wait "$RUT_GEN"; rut_stop

		if [ $have_xdp = 1 ]; then
			RUT_IN=xdp:rut0 RUT_OUT=xdp:rut1 rut_start "$cpus" --mode busy
			rut_gen_start max
			rut_record rut-busy "ppslab-rut busy, xdp: ports ($place)" "$rep" "$(rut_measure)"
			wait "$RUT_GEN"; rut_stop
		fi

		kernel_fwd on
		[ $place = split ] && rut_cpu_setup rps
		rut_gen_start max
		rut_record rut-busy "linux forwarding ($place)" "$rep" "$(rut_measure)" "ppslab-rut busy ($place)"
		wait "$RUT_GEN"
		rut_cpu_setup norps
		kernel_fwd off

		if [ $have_testpmd = 1 ]; then
			# two lcores (main + one forwarding) both on the forwarder's CPU
			ip netns exec "$BENCH_LAB-rut" dpdk-testpmd --no-huge -m 512 --no-pci --file-prefix "pprut$$" \
				--vdev=net_af_packet0,iface=rut0,qdisc_bypass=1 --vdev=net_af_packet1,iface=rut1,qdisc_bypass=1 \
				--lcores "0@$cpus,1@$cpus" -- --forward-mode=io --auto-start --nb-cores=1 --total-num-mbufs=16384 \
				--stats-period 1 </dev/null >"$BENCH_OUT/testpmd.out" 2>&1 &
			tp=$!
			# forwarding once it prints its configuration ("io packet forwarding - ports=2 ...")
			bench_wait 60 "dpdk-testpmd forwarding" grep -q "packet forwarding.* - ports=" "$BENCH_OUT/testpmd.out"
			rut_gen_start max
			rut_record rut-busy "dpdk-testpmd io af_packet ($place)" "$rep" "$(rut_measure)" "ppslab-rut busy ($place)"
			wait "$RUT_GEN"
			kill -INT $tp 2>/dev/null; wait $tp 2>/dev/null
			bench_lab_up      # the af_packet PMD sets its interfaces down when it stops
		fi
	done
done

# --- IPv6 beside IPv4, 84-byte frames, busy mode, no rules, split placement
if rut_part ip6; then
	rut0_mac=$(ip -n "$BENCH_LAB-rut" -j link show dev rut0 | jq -r '.[0].address')
	sink0_mac=$(ip -n "$BENCH_LAB-sink" -j link show dev sink0 | jq -r '.[0].address')
	for rep in $(seq "$BENCH_REPS"); do
		rut_start 1 --mode busy
		rut_gen_start max --size 84
		rut_record rut-ip6 "ppslab-rut busy 84 B IPv4 (split)" "$rep" "$(rut_measure)"
		wait "$RUT_GEN"; rut_stop
		rut_start 1 --mode busy --route "2001:2:0:1::/64 via 2001:2:0:1::2" \
			--neigh "2001:2:0:1::2=$sink0_mac@rut1"
		rut_gen_start max --src 2001:2::2 --dst 2001:2:0:1::2 --dst-mac "$rut0_mac" --size 84
		rut_record rut-ip6 "ppslab-rut busy 84 B IPv6 (split)" "$rep" "$(rut_measure)" \
			"ppslab-rut busy 84 B IPv4 (split)"
		wait "$RUT_GEN"; rut_stop
	done
	jq -rs '
	  def med(l): [.[] | select(.label == l) | .value] | sort | .[length/2|floor];
	  (med("ppslab-rut busy 84 B IPv4 (split)")) as $v4 | (med("ppslab-rut busy 84 B IPv6 (split)")) as $v6 |
	  "  84-byte frames: IPv4 \($v4) pps, IPv6 \($v6) pps, IPv6 / IPv4 \(if $v4 > 0 then ($v6 / $v4 * 1000 | floor) / 1000 else "n/a" end)"
	' "$BENCH_OUT/records.jsonl" | tee -a "$BENCH_OUT/rut-ip6.txt"
fi

# --- 1,000 non-matching rules (needs the firewall)
if ! rut_part rules; then
	:
elif "$B/ppslab-rut" --help | grep -q -- --rules; then
	rut_rules_file "$BENCH_OUT/rules-1000"
	echo "add 100 allow ip from any to any" >"$BENCH_OUT/rules-0"
	for rep in $(seq "$BENCH_REPS"); do
		for n in 0 1000; do
			rut_start 1 --mode busy --rules "$BENCH_OUT/rules-$n"
			rut_gen_start max
			rut_record rut-rules "ppslab-rut busy, $n rules" "$rep" "$(rut_measure)"
			wait "$RUT_GEN"; rut_stop
		done
		kernel_fwd on
		rut_cpu_setup rps
		rut_gen_start max
		rut_record rut-rules "linux forwarding, 0 rules" "$rep" "$(rut_measure)" "ppslab-rut busy, 0 rules"
		wait "$RUT_GEN"
		nft_rules_on
		rut_gen_start max
		rut_record rut-rules "linux forwarding, 1000 nftables rules" "$rep" "$(rut_measure)" "ppslab-rut busy, 1000 rules"
		wait "$RUT_GEN"
		rut_cpu_setup norps
		kernel_fwd off
	done
	# per-rule cost: (1/pps_1000 - 1/pps_0) / evaluations; ipfw checks a forwarded
	# packet twice (in and out pass), nftables once (forward hook)
	jq -rs '
	  def med(l): [.[] | select(.label == l) | .value] | sort | .[length/2|floor];
	  (med("ppslab-rut busy, 0 rules")) as $r0 | (med("ppslab-rut busy, 1000 rules")) as $r1 |
	  (med("linux forwarding, 0 rules")) as $k0 | (med("linux forwarding, 1000 nftables rules")) as $k1 |
	  "  per-rule cost: ppslab-rut \((1e9 / $r1 - 1e9 / $r0) / 2000 * 100 | floor / 100) ns " +
	  "(2,000 rule checks per packet), nftables \((1e9 / $k1 - 1e9 / $k0) / 1000 * 100 | floor / 100) ns (1,000)"
	' "$BENCH_OUT/records.jsonl" | tee -a "$BENCH_OUT/rut-per-rule.txt"
else
	echo "  rules: skipped (this ppslab-rut has no firewall yet)"
fi

# --- poll mode: the ceiling with the CPU not the limit, then the pollhz sweep
rut_part poll || { xdp_drop sink sink0 off; return 0; }
for rep in $(seq "$BENCH_REPS"); do
	rut_start 1 --mode poll --pollhz 1000 --burst-max 100 --rt-prio 10
	rut_gen_start 200k
	m=$(rut_measure)
	rut_record rut-poll "poll 1000 Hz x 100, offered 200k" "$rep" "$m"
	v=${m%% *}
	record rut-poll "poll 1000 Hz x 100: error vs 100,000" pct "$rep" \
		"$(awk -v v="$v" 'BEGIN { printf "%.2f", (v - 100000) / 1000 }')"
	wait "$RUT_GEN"; rut_stop
done
# burst_max 20: the bounds (20,000 .. 400,000 pps) stay within what one sender offers
# here, so the curve shows the bound, then where the CPU bends it
rut_start 1 --mode poll --burst-max 20 --rt-prio 10
for hz in 1000 2000 4000 6000 8000 10000 15000 20000; do
	rut_ctl sysctl kern.polling.pollhz=$hz >/dev/null
	rut_gen_start max
	m=$(rut_measure)
	wait "$RUT_GEN"
	st=$(rut_ctl stats)
	rut_record rut-poll-sweep "pollhz $hz x 20 (bound $((hz * 20)))" 1 "$m"
	echo "    burst $(echo "$st" | jq .polling.burst), lost_polls $(echo "$st" | jq .polling.lost_polls), tick lateness p99 $(echo "$st" | jq .polling.tick_late_ns.p99) ns, forwarding thread CPU $(echo "$st" | jq .fwd_cpu_s) s"
done
rut_stop
xdp_drop sink sink0 off
