# SPDX-License-Identifier: BSD-2-Clause
# b_gen.sh — ppslab-gen against its peers (sourced by bench/run; BENCH=gen runs only this).
#
# One veth (gen0 -> rut0 of the bench lab), 64-byte frames to 198.18.0.1:9, measured
# from the kernel's own rx_packets counter of rut0 (the receiving side), over
# BENCH_SECS after a 1-s start, BENCH_REPS times, interleaved so that noise from other
# load hits every sender alike. Senders, one thread each, pinned to CPU 0:
#   ppslab-gen on afpacket (linear TX skbs, its default), afpacket linear=0, pcap,
#   libnet, udp; trafgen (netsniff-ng, TX_RING, qdisc bypass, same frame with a valid
#   UDP checksum); dpdk-testpmd txonly on net_af_packet (UDP checksum 0).
# Each also gets frames per CPU-second of the sender's processes (their utime + stime,
# which here include the veth receive work they trigger): that figure holds when other
# load steals CPU time, which the machine this runs on often has.
# ppslab-gen on afpacket also sends 84-byte IPv4 frames and 84-byte IPv6 frames (the
# smallest IPv6 test frame) to 2001:2::1: IPv6 beside IPv4 at the same size; and
# 68-byte frames untagged and with one 802.1Q tag (--vlan 100; 68 is the smallest tagged
# test frame): a tag beside none at the same size.
# Receivers: (a) "stack": the router namespace's kernel stack drops the frames (its
# shield is switched off: UDP to a closed port), (b) "xdp": an XDP program drops them
# in the veth driver. Then two threads against one (ppslab-gen --threads 2 --cpus 0,1 on
# afpacket and on xdp, trafgen --cpus 2), on veths with two queues (one per thread),
# and rate accuracy: ppslab-gen and trafgen -b at 10k, 100k and 50%
# of ppslab-gen's measured single-thread maximum into the XDP drop, rut0 sampled every
# 100 ms for 10 s: the 10-s average error, the worst 1-s error and the worst 100-ms
# error (which shows bursts that 1-s averages hide), in ppm.
gb_dst=198.18.0.1
# Two queues per veth for this section: a thread per queue, so that each thread's frames
# are received (and, with XDP, dropped) on its own CPU; with one queue the receive side
# serialises both threads. Put back to one queue at the end (the other sections bind
# xdp: ports to queue 0).
"$B/ppslab" lab up --name "$BENCH_LAB" --queues 2 >/dev/null
gb_secs=${BENCH_SECS:-5}
gb_reps=${BENCH_REPS:-3}
gb_tmp=$(mktemp -d /tmp/ppslab-bgen.XXXXXX)
gb_rut_mac=$(ip -n "$BENCH_LAB-rut" -j link show dev rut0 | jq -r '.[0].address')
gb_gen_mac=$(ip -n "$BENCH_LAB-gen" -j link show dev gen0 | jq -r '.[0].address')

gb_have_trafgen=0 gb_have_testpmd=0
bench_need trafgen netsniff-ng && gb_have_trafgen=1
bench_need dpdk-testpmd dpdk-dev && gb_have_testpmd=1
[ $gb_have_trafgen = 1 ] || echo "bench gen: trafgen missing (apt-get install netsniff-ng): skipped"
[ $gb_have_testpmd = 1 ] || echo "bench gen: dpdk-testpmd missing (apt-get install dpdk-dev): skipped"

# trafgen's copy of ppslab-gen's default frame: same MACs, addresses, ports, TTL, length,
# a valid IP and UDP checksum, 18 zero bytes of payload
gb_hx() { echo "$1" | sed 's/^/0x/; s/:/, 0x/g'; }
cat >"$gb_tmp/frame.cfg" <<EOF
{
  $(gb_hx "$gb_rut_mac"), $(gb_hx "$gb_gen_mac"), c16(0x0800),
  0x45, 0x00, c16(46), c16(0), c16(0), 64, 17, csumip(14, 33),
  198, 18, 0, 2, 198, 18, 0, 1,
  c16(9), c16(9), c16(26), csumudp(14, 34),
  fill(0x00, 18)
}
EOF

# rut0's rx_packets every PERIOD seconds, COUNT+1 samples: lines "t_us packets". Runs in
# the router namespace (ip netns exec mounts its sysfs), reading the counter with a
# shell builtin right after taking the time, so each sample's two values are microseconds
# apart and the rates below use the real elapsed time.
gb_sample() {   # gb_sample PERIOD COUNT
	inns rut bash -c 'f=/sys/class/net/rut0/statistics/rx_packets
		for ((i = 0; i <= '"$2"'; i++)); do
			[ $i = 0 ] || sleep '"$1"'
			read -r c <"$f"; echo "${EPOCHREALTIME/./} $c"
		done'
}

# CPU time (utime + stime, clock ticks) of every process in the gen namespace. Without
# IRQ time accounting (the case here) the softirq work a sender triggers on its own CPU
# — the veth receive path — is charged to it, so frames per CPU-second compare senders
# even while other load takes CPU time away from them.
gb_cpu_ticks() {
	local p t=0 v
	for p in $(ip netns pids "$BENCH_LAB-gen"); do
		v=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat" 2>/dev/null)
		t=$((t + ${v:-0}))
	done
	echo $t
}

# Waits for the senders of the gen namespace to go; what is still there after 2 s (only
# processes this section started in its own lab) is killed, so it cannot disturb the next
# measurement.
gb_settle() {
	local i left=""
	for ((i = 0; i < 20; i++)); do
		left=$(ip netns pids "$BENCH_LAB-gen")
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	echo "bench gen: killing leftover senders: $left" >&2
	kill -KILL $left 2>/dev/null
	bench_wait 10 "leftover senders $left gone" gone $left
}

# Runs a sender in the background (gen namespace), measures rut0's receive rate and the
# senders' CPU time over gb_secs after 1 s of sending (counted from the first frames
# at rut0; ppslab-gen is waited for to be ready first), stops the sender. Prints "PPS PPS_PER_CPU_S". The sender's own output goes to
# $gb_tmp/last.out.
gb_measure() {   # gb_measure CMD...
	# not through inns: $! must be the sender itself (ip netns exec execs it), so that
	# SIGINT reaches it; the last sender's ready line goes first (ready_fresh)
	ready_fresh "$gb_tmp/last.out"
	ip netns exec "$BENCH_LAB-gen" "$@" >"$gb_tmp/last.out" 2>&1 &
	local pid=$! hz c0 c1 s
	hz=$(getconf CLK_TCK)
	[ "$1" = "$B/ppslab-gen" ] && bench_ready "$pid" "$gb_tmp/last.out"
	bench_flowing rut rut0 rx_packets
	sleep 1   # 1 s of sending before the window: the measurement's warm-up
	c0=$(gb_cpu_ticks)
	s=$(gb_sample "$gb_secs" 1)
	c1=$(gb_cpu_ticks)
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	gb_settle
	echo "$s" | awk -v cpu=$((c1 - c0)) -v hz="$hz" '
		NR == 1 { t = $1; c = $2 } NR == 2 { n = $2 - c; dt = $1 - t }
		END { printf "%d %d\n", (dt > 0 ? n * 1e6 / dt : 0), (cpu > 0 ? n * hz / cpu : 0) }'
}

gb_ppslab() {   # gb_ppslab ARGS...: a bounded ppslab-gen run
	gb_measure "$B/ppslab-gen" --dst $gb_dst --duration $((gb_secs + 3)) -q --json "$@"
}

gb_ppslab6() {   # gb_ppslab6 ARGS...: the same with IPv6 frames (no neighbour lookup: the MAC)
	gb_measure "$B/ppslab-gen" --dst 2001:2::1 --src 2001:2::2 --dst-mac "$gb_rut_mac" \
		--duration $((gb_secs + 3)) -q --json "$@"
}

gb_trafgen() {   # gb_trafgen CPUS [ARGS...]
	local cpus=$1; shift
	gb_measure timeout -s INT $((gb_secs + 3)) trafgen --dev gen0 --conf "$gb_tmp/frame.cfg" \
		--cpus "$cpus" -C "$@"
}

# testpmd's af_packet port takes gen0 down and up when it ends, which flushes the lab's
# permanent neighbour entry, and leaves it promiscuous: put both back
gb_restore() {
	ip -n "$BENCH_LAB-gen" neigh replace $gb_dst lladdr "$gb_rut_mac" dev gen0 nud permanent
	ip -n "$BENCH_LAB-gen" link set dev gen0 promisc off
}

gb_testpmd() {
	gb_measure timeout -s INT $((gb_secs + 4)) dpdk-testpmd --no-huge -m 512 --no-pci \
		--file-prefix "ppbench$$" --vdev net_af_packet0,iface=gen0,qpairs=1,qdisc_bypass=1 \
		-l 0,1 --main-lcore 1 -- --forward-mode=txonly --txpkts=60 \
		--tx-ip=198.18.0.2,$gb_dst --eth-peer=0,"$gb_rut_mac" --nb-cores=1 \
		--total-num-mbufs=8192 --stats-period=1
}

gb_rec() {   # gb_rec LABEL REP "PPS PPS_PER_CPU" [PEER_OF] [NOTE]: both metrics
	local pps cpu
	read -r pps cpu <<<"$3"
	record gen "$1" pps "$2" "${pps:-0}" "${4:-}" "${5:-}"
	record gen-cpu "$1" frames_per_cpu_s "$2" "${cpu:-0}" "${4:-}" "${5:-}"
	echo "  rep $2: $1: ${pps:-0} pps, ${cpu:-0} frames per CPU-second"
}

gb_scenario() {   # gb_scenario NAME: one round of every single-thread sender, then 2 threads
	local sc=$1 r
	local main="ppslab-gen afpacket ($sc)" two="ppslab-gen afpacket 2 threads ($sc)"
	for ((r = 1; r <= gb_reps; r++)); do
		gb_rec "$main" $r "$(gb_ppslab -i afpacket:gen0 --rate max --cpus 0)"
		gb_rec "ppslab-gen afpacket linear=0 ($sc)" $r \
			"$(gb_ppslab -i afpacket:gen0,linear=0 --rate max --cpus 0)" "$main" "page-fragment skbs"
		# IPv6 beside IPv4 at the same size, 84 bytes (the smallest IPv6 test frame)
		gb_rec "ppslab-gen afpacket 84 B ($sc)" $r \
			"$(gb_ppslab -i afpacket:gen0 --rate max --cpus 0 --size 84)" "$main" "IPv4"
		gb_rec "ppslab-gen afpacket IPv6 84 B ($sc)" $r \
			"$(gb_ppslab6 -i afpacket:gen0 --rate max --cpus 0)" \
			"ppslab-gen afpacket 84 B ($sc)" "IPv6, the same size"
		# one 802.1Q tag beside none at the same size, 68 bytes (the smallest tagged
		# test frame: a 64-byte frame has no room for a tag and the signature)
		gb_rec "ppslab-gen afpacket 68 B ($sc)" $r \
			"$(gb_ppslab -i afpacket:gen0 --rate max --cpus 0 --size 68)" "$main" "IPv4"
		gb_rec "ppslab-gen afpacket 802.1Q 68 B ($sc)" $r \
			"$(gb_ppslab -i afpacket:gen0 --rate max --cpus 0 --size 68 --vlan 100)" \
			"ppslab-gen afpacket 68 B ($sc)" "one VLAN tag, the same size"
		gb_rec "ppslab-gen pcap ($sc)" $r "$(gb_ppslab -i pcap:gen0 --rate max --cpus 0)"
		gb_rec "ppslab-gen libnet ($sc)" $r "$(gb_ppslab -i libnet:gen0 --rate max --cpus 0)"
		gb_rec "ppslab-gen udp ($sc)" $r "$(gb_ppslab -i udp:$gb_dst:9 --rate max --cpus 0)"
		[ $gb_have_trafgen = 1 ] &&
			gb_rec "trafgen ($sc)" $r "$(gb_trafgen 1)" "$main" "TX_RING, 1 CPU"
		if [ $gb_have_testpmd = 1 ]; then
			gb_rec "dpdk-testpmd txonly af_packet ($sc)" $r "$(gb_testpmd)" "$main" "UDP checksum 0"
			gb_restore
		fi
		gb_rec "$two" $r "$(gb_ppslab -i afpacket:gen0 --rate max --threads 2 --cpus 0,1)"
		gb_rec "ppslab-gen xdp ($sc)" $r "$(gb_ppslab -i xdp:gen0 --rate max --cpus 0)"
		gb_rec "ppslab-gen xdp 2 threads ($sc)" $r \
			"$(gb_ppslab -i xdp:gen0 --rate max --threads 2 --cpus 0,1)"
		[ $gb_have_trafgen = 1 ] &&
			gb_rec "trafgen 2 CPUs ($sc)" $r "$(gb_trafgen 2)" "$two"
	done
	# two threads over one, from the medians, in percent
	local one tw
	one=$(gb_median "$main")
	tw=$(gb_median "$two")
	[ "${one:-0}" -gt 0 ] 2>/dev/null &&
		record gen "ppslab-gen 2 threads / 1 thread ($sc)" scaling_pct 1 $((tw * 100 / one)) "" "target >= 180"
	one=$(gb_median "ppslab-gen xdp ($sc)")
	tw=$(gb_median "ppslab-gen xdp 2 threads ($sc)")
	[ "${one:-0}" -gt 0 ] 2>/dev/null &&
		record gen "ppslab-gen xdp: 2 threads / 1 thread ($sc)" scaling_pct 1 $((tw * 100 / one)) "" "target >= 180"
}

gb_median() {   # gb_median LABEL: median pps of LABEL so far
	jq -s --arg l "$1" '[.[] | select(.label == $l and .metric == "pps") | .value] | sort |
		if length == 0 then 0 else .[length/2|floor] end' "$BENCH_OUT/records.jsonl"
}

# Rate accuracy of one paced sender: ppm errors of the 10-s mean, the worst 1 s and the
# worst 100 ms, from rut0 sampled every 100 ms.
gb_accuracy() {   # gb_accuracy LABEL TARGET_PPS CMD...
	local label=$1 target=$2; shift 2
	ready_fresh "$gb_tmp/acc.out"   # the last sender's ready line goes first
	ip netns exec "$BENCH_LAB-gen" "$@" >"$gb_tmp/acc.out" 2>&1 &
	local pid=$!
	[ "$1" = "$B/ppslab-gen" ] && bench_ready "$pid" "$gb_tmp/acc.out"
	bench_flowing rut rut0 rx_packets
	sleep 1.5   # the measurement's warm-up: the pacing has settled
	gb_sample 0.1 100 >"$gb_tmp/acc.samples"
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	gb_settle
	awk -v tgt="$target" '
		{ t[NR] = $1; c[NR] = $2 }
		function serr(i, j) { r = (c[j] - c[i]) * 1e6 / (t[j] - t[i]); return (r - tgt) / tgt * 1e6 }
		function err(i, j) { e = serr(i, j); return e < 0 ? -e : e }
		END {
			n = NR; avg = err(1, n)
			m1 = 0; for (i = 1; i + 10 <= n; i += 10) { e = err(i, i + 10); if (e > m1) m1 = e }
			m01 = 0; for (i = 1; i < n; i++) { e = err(i, i + 1); if (e > m01) m01 = e }
			printf "%d %d %d %+d\n", avg, m1, m01, serr(1, n)
		}' "$gb_tmp/acc.samples"
}

gb_accuracy_round() {   # gb_accuracy_round TARGET NAME
	local tgt=$1 name=$2 r a
	for ((r = 1; r <= gb_reps; r++)); do
		read -r a1 a2 a3 a4 < <(gb_accuracy "ppslab-gen" "$tgt" "$B/ppslab-gen" -i afpacket:gen0 \
			--dst $gb_dst --rate "$tgt" --duration 14 --cpus 0 --json)
		# the sender's own account (its summary at SIGINT): frames sent late, in ppm of
		# those sent — a sender that could not keep up says so here
		late=$(grep '"type":"summary"' "$gb_tmp/acc.out" | jq '(.late * 1e6 / ([.tx_pkts, 1] | max)) | floor' 2>/dev/null)
		record gen-accuracy "ppslab-gen $name: 10-s mean error" ppm $r "$a1"
		record gen-accuracy "ppslab-gen $name: worst 1-s error" ppm $r "$a2"
		record gen-accuracy "ppslab-gen $name: worst 100-ms error" ppm $r "$a3"
		record gen-accuracy "ppslab-gen $name: late frames (its own count)" ppm $r "${late:-0}"
		echo "  accuracy $name rep $r: ppslab-gen 10s ${a1} ppm (signed ${a4}), 1s ${a2} ppm, 100ms ${a3} ppm; late ${late:-?} ppm"
		if [ $gb_have_trafgen = 1 ]; then
			read -r a1 a2 a3 a4 < <(gb_accuracy "trafgen" "$tgt" timeout -s INT 14 trafgen --dev gen0 \
				--conf "$gb_tmp/frame.cfg" --cpus 1 -C -b "${tgt}pps")
			record gen-accuracy "trafgen -b $name: 10-s mean error" ppm $r "$a1"
			record gen-accuracy "trafgen -b $name: worst 1-s error" ppm $r "$a2"
			record gen-accuracy "trafgen -b $name: worst 100-ms error" ppm $r "$a3"
			echo "  accuracy $name rep $r: trafgen 10s ${a1} ppm (signed ${a4}), 1s ${a2} ppm, 100ms ${a3} ppm"
		fi
	done
}

# BENCH_GEN_PARTS chooses parts (default all): stack, xdp (the two receivers) and accuracy
# (which takes its 50 % point from the xdp part, or measures the maximum once without it)
gb_parts=" ${BENCH_GEN_PARTS:-stack xdp accuracy} "
gb_part() { [[ "$gb_parts" == *" $1 "* ]]; }

if gb_part stack; then
	echo "bench gen: (a) the router namespace's kernel stack drops"
	"$B/ppslab" lab shield off --name "$BENCH_LAB" --ns rut >/dev/null
	gb_scenario stack
	"$B/ppslab" lab shield on --name "$BENCH_LAB" --ns rut >/dev/null
fi

echo "bench gen: (b) an XDP program drops"
if xdp_drop rut rut0 on; then
	gb_part xdp && gb_scenario xdp
	max=$(gb_median "ppslab-gen afpacket (xdp)")
	if gb_part accuracy && [ "${max:-0}" = 0 ]; then
		read -r max _ <<<"$(gb_ppslab -i afpacket:gen0 --rate max --cpus 0)"
		echo "  maximum for the 50 % point: $max pps"
	fi
	gb_part accuracy || max=0
	if gb_part accuracy; then
		echo "bench gen: rate accuracy (10-s mean within 0.5% = 5000 ppm, every second within 2% = 20000 ppm)"
		gb_accuracy_round 10000 "10k"
		gb_accuracy_round 100000 "100k"
	fi
	[ "${max:-0}" -gt 0 ] 2>/dev/null && gb_accuracy_round $((max / 2)) "50% of max ($((max / 2)))"
	xdp_drop rut rut0 off
else
	echo "bench gen: cannot attach the XDP drop program: (b) skipped"
fi
rm -rf "$gb_tmp" "/var/run/dpdk/ppbench$$"    # testpmd's runtime files (--file-prefix)
"$B/ppslab" lab up --name "$BENCH_LAB" --queues 1 >/dev/null
