# b_gen.sh — ppslab-gen against its peers (sourced by bench/run; BENCH=gen runs only this).
#
# One veth (gen0 -> rut0 of the bench lab), 64-byte frames to 198.18.0.1:9, measured
# from the kernel's own rx_packets counter of rut0 (the receiving side), over
# BENCH_SECS after a 1-s start, BENCH_REPS times, interleaved so that noise from other
# load hits every sender alike. Senders, one thread each, pinned to CPU 0:
#   ppslab-gen on afpacket (linear TX skbs, its default), afpacket linear=0, pcap,
#   libnet, udp; trafgen (netsniff-ng, TX_RING, qdisc bypass, same frame with a valid
#   UDP checksum); dpdk-testpmd txonly on net_af_packet (UDP checksum 0).
# Receivers: (a) "stack": the router namespace's kernel stack drops the frames (its
# shield is switched off: UDP to a closed port), (b) "xdp": an XDP program drops them
# in the veth driver. Then two threads against one (ppslab-gen --threads 2 --cpus 0,1,
# trafgen --cpus 2), and rate accuracy: ppslab-gen and trafgen -b at 10k, 100k and 50%
# of ppslab-gen's measured single-thread maximum into the XDP drop, rut0 sampled every
# 100 ms for 10 s: the 10-s average error, the worst 1-s error and the worst 100-ms
# error (which shows bursts that 1-s averages hide), in ppm.
gb_dst=198.18.0.1
gb_secs=${BENCH_SECS:-5}
gb_reps=${BENCH_REPS:-3}
gb_tmp=$(mktemp -d /tmp/ppslab-bgen.XXXXXX)
gb_rut_mac=$(ip -n "$BENCH_LAB-rut" -j link show dev rut0 | jq -r '.[0].address')
gb_gen_mac=$(ip -n "$BENCH_LAB-gen" -j link show dev gen0 | jq -r '.[0].address')

gb_have_trafgen=0 gb_have_testpmd=0
bench_need trafgen netsniff-ng && gb_have_trafgen=1
bench_need dpdk-testpmd dpdk && gb_have_testpmd=1
[ $gb_have_trafgen = 1 ] || echo "bench gen: trafgen missing (apt-get install netsniff-ng): skipped"
[ $gb_have_testpmd = 1 ] || echo "bench gen: dpdk-testpmd missing (apt-get install dpdk): skipped"

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

# Runs a sender in the background (gen namespace), measures rut0's receive rate over
# gb_secs after 1 s, stops the sender, prints the rate. The sender's own output goes to
# $gb_tmp/last.out.
gb_measure() {   # gb_measure CMD...
	# not through inns: $! must be the sender itself (ip netns exec execs it), so that
	# SIGINT reaches it
	ip netns exec "$BENCH_LAB-gen" "$@" >"$gb_tmp/last.out" 2>&1 &
	local pid=$!
	sleep 1
	local s
	s=$(gb_sample "$gb_secs" 1 | awk 'NR == 1 { t = $1; c = $2 } NR == 2 { printf "%d\n", ($2 - c) * 1e6 / ($1 - t) }')
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "${s:-0}"
}

gb_ppslab() {   # gb_ppslab ARGS...: a bounded ppslab-gen run
	gb_measure "$B/ppslab-gen" --dst $gb_dst --duration $((gb_secs + 3)) -q "$@"
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

gb_scenario() {   # gb_scenario NAME: one round of every single-thread sender, then 2 threads
	local sc=$1 r v
	local main="ppslab-gen afpacket ($sc)"
	for ((r = 1; r <= gb_reps; r++)); do
		v=$(gb_ppslab -i afpacket:gen0 --rate max --cpus 0); record gen "$main" pps $r "$v"
		echo "  $sc rep $r: ppslab-gen afpacket $v pps"
		v=$(gb_ppslab -i afpacket:gen0,linear=0 --rate max --cpus 0)
		record gen "ppslab-gen afpacket linear=0 ($sc)" pps $r "$v" "$main" "page-fragment skbs, as before"
		v=$(gb_ppslab -i pcap:gen0 --rate max --cpus 0); record gen "ppslab-gen pcap ($sc)" pps $r "$v"
		v=$(gb_ppslab -i libnet:gen0 --rate max --cpus 0); record gen "ppslab-gen libnet ($sc)" pps $r "$v"
		v=$(gb_ppslab -i udp:$gb_dst:9 --rate max --cpus 0); record gen "ppslab-gen udp ($sc)" pps $r "$v"
		if [ $gb_have_trafgen = 1 ]; then
			v=$(gb_trafgen 1); record gen "trafgen ($sc)" pps $r "$v" "$main" "TX_RING, 1 CPU"
			echo "  $sc rep $r: trafgen $v pps"
		fi
		if [ $gb_have_testpmd = 1 ]; then
			v=$(gb_testpmd); record gen "dpdk-testpmd txonly af_packet ($sc)" pps $r "$v" "$main" "UDP checksum 0"
			gb_restore
			echo "  $sc rep $r: testpmd $v pps"
		fi
		v=$(gb_ppslab -i afpacket:gen0 --rate max --threads 2 --cpus 0,1)
		record gen "ppslab-gen afpacket 2 threads ($sc)" pps $r "$v"
		echo "  $sc rep $r: ppslab-gen 2 threads $v pps"
		if [ $gb_have_trafgen = 1 ]; then
			v=$(gb_trafgen 2); record gen "trafgen 2 CPUs ($sc)" pps $r "$v" "ppslab-gen afpacket 2 threads ($sc)"
		fi
	done
	# two threads over one, from the medians, in percent
	local one two
	one=$(jq -s --arg l "$main" '[.[] | select(.label == $l and .metric == "pps") | .value] | sort | .[length/2|floor]' "$BENCH_OUT/records.jsonl")
	two=$(jq -s --arg l "ppslab-gen afpacket 2 threads ($sc)" '[.[] | select(.label == $l and .metric == "pps") | .value] | sort | .[length/2|floor]' "$BENCH_OUT/records.jsonl")
	[ "${one:-0}" -gt 0 ] 2>/dev/null &&
		record gen "ppslab-gen 2 threads / 1 thread ($sc)" scaling_pct 1 $((two * 100 / one)) "" "target >= 180"
}

# Rate accuracy of one paced sender: ppm errors of the 10-s mean, the worst 1 s and the
# worst 100 ms, from rut0 sampled every 100 ms.
gb_accuracy() {   # gb_accuracy LABEL TARGET_PPS CMD...
	local label=$1 target=$2; shift 2
	ip netns exec "$BENCH_LAB-gen" "$@" >"$gb_tmp/acc.out" 2>&1 &
	local pid=$!
	sleep 1.5
	gb_sample 0.1 100 >"$gb_tmp/acc.samples"
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	awk -v tgt="$target" '
		{ t[NR] = $1; c[NR] = $2 }
		function err(i, j) { r = (c[j] - c[i]) * 1e6 / (t[j] - t[i]); e = (r - tgt) / tgt * 1e6; return e < 0 ? -e : e }
		END {
			n = NR; avg = err(1, n)
			m1 = 0; for (i = 1; i + 10 <= n; i += 10) { e = err(i, i + 10); if (e > m1) m1 = e }
			m01 = 0; for (i = 1; i < n; i++) { e = err(i, i + 1); if (e > m01) m01 = e }
			printf "%d %d %d\n", avg, m1, m01
		}' "$gb_tmp/acc.samples"
}

gb_accuracy_round() {   # gb_accuracy_round TARGET NAME
	local tgt=$1 name=$2 r a
	for ((r = 1; r <= gb_reps; r++)); do
		read -r a1 a2 a3 < <(gb_accuracy "ppslab-gen" "$tgt" "$B/ppslab-gen" -i afpacket:gen0 \
			--dst $gb_dst --rate "$tgt" --duration 14 --cpus 0 -q)
		record gen-accuracy "ppslab-gen $name: 10-s mean error" ppm $r "$a1"
		record gen-accuracy "ppslab-gen $name: worst 1-s error" ppm $r "$a2"
		record gen-accuracy "ppslab-gen $name: worst 100-ms error" ppm $r "$a3"
		echo "  accuracy $name rep $r: ppslab-gen 10s ${a1} ppm, 1s ${a2} ppm, 100ms ${a3} ppm"
		if [ $gb_have_trafgen = 1 ]; then
			read -r a1 a2 a3 < <(gb_accuracy "trafgen" "$tgt" timeout -s INT 14 trafgen --dev gen0 \
				--conf "$gb_tmp/frame.cfg" --cpus 1 -C -b "${tgt}pps")
			record gen-accuracy "trafgen -b $name: 10-s mean error" ppm $r "$a1"
			record gen-accuracy "trafgen -b $name: worst 1-s error" ppm $r "$a2"
			record gen-accuracy "trafgen -b $name: worst 100-ms error" ppm $r "$a3"
			echo "  accuracy $name rep $r: trafgen 10s ${a1} ppm, 1s ${a2} ppm, 100ms ${a3} ppm"
		fi
	done
}

echo "bench gen: (a) the router namespace's kernel stack drops"
"$B/ppslab" lab shield off --name "$BENCH_LAB" --ns rut >/dev/null
gb_scenario stack
"$B/ppslab" lab shield on --name "$BENCH_LAB" --ns rut >/dev/null

echo "bench gen: (b) an XDP program drops"
if xdp_drop rut rut0 on; then
	gb_scenario xdp
	max=$(jq -s '[.[] | select(.label == "ppslab-gen afpacket (xdp)" and .metric == "pps") | .value] | sort | .[length/2|floor]' "$BENCH_OUT/records.jsonl")
	echo "bench gen: rate accuracy (10-s mean within 0.5% = 5000 ppm, every second within 2% = 20000 ppm)"
	gb_accuracy_round 10000 "10k"
	gb_accuracy_round 100000 "100k"
	[ "${max:-0}" -gt 0 ] 2>/dev/null && gb_accuracy_round $((max / 2)) "50% of max ($((max / 2)))"
	xdp_drop rut rut0 off
else
	echo "bench gen: cannot attach the XDP drop program: (b) skipped"
fi
rm -rf "$gb_tmp"
