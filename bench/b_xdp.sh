# SPDX-License-Identifier: BSD-2-Clause
# b_xdp.sh — AF_XDP (xdp: ports) side by side with their peers (sourced by bench/run;
# BENCH=xdp runs only this section). 64-byte frames, kernel counters on every hop,
# BENCH_REPS repetitions of BENCH_SECS each, medians and ratios in the summary.
#
#   xdp-gen      one sender thread into rut0 whose peer drops in XDP (the cheapest
#                receiver), counted at rut0: ppslab-gen xdp vs afpacket vs dpdk-testpmd
#                txonly on net_af_xdp;
#   xdp-gen-stk  the same into rut0's kernel stack (the lab's nftables shield drops);
#   xdp-sink     ppslab-sink on xdp:rut0 under the fastest sender: what the interface
#                received, what the sink counted, and its drops;
#   xdp-rut      gen (xdp, max) -> forwarder -> sink0 dropping in XDP, counted at sink0:
#                ppslab-rut busy on xdp and on afpacket vs testpmd io-forward on
#                net_af_xdp and vs the Linux kernel forwarding (RPS to CPU 1), all with
#                the same sender.
# Peers are installed from Debian when missing (dpdk-dev, clang for the XDP drop).
bx_secs=$BENCH_SECS
bx_tp_prefix="ppbench-tp$$"

if ! "$B/ppslab-sink" -i xdp:nosuch0 --duration 0.1 2>&1 | grep -q "no such interface"; then
	echo "xdp: skipped: $("$B/ppslab-sink" -i xdp:nosuch0 --duration 0.1 2>&1 | head -n 1)"
	return 0 2>/dev/null || exit 0
fi
bench_need clang clang || echo "xdp: clang missing: no XDP drop receiver" >&2
bx_have_tp=1
bench_need dpdk-testpmd dpdk-dev || { bx_have_tp=0; echo "xdp: dpdk-testpmd missing: no testpmd peers" >&2; }

# testpmd on AF_XDP vdevs in ROLE for SECS, output to FILE (its stats are not used:
# the kernel counters are)
bx_testpmd() {   # bx_testpmd ROLE SECS FILE MODE IF...
	local role=$1 secs=$2 out=$3 mode=$4 vdevs=() i=0
	shift 4
	for ifn in "$@"; do
		vdevs+=(--vdev "net_af_xdp$i,iface=$ifn,start_queue=0,queue_count=1")
		i=$((i + 1))
	done
	inns "$role" timeout -s INT "$secs" dpdk-testpmd --no-huge -m 512 --no-pci \
		--file-prefix="$bx_tp_prefix" -l 0,1 "${vdevs[@]}" -- --forward-mode="$mode" \
		--txpkts=60 --total-num-mbufs=8192 --auto-start --stats-period=1 >"$out" 2>&1
}

# Runs a sender (or forwarder) in the background while counting ROLE IF FIELD over
# bx_secs after a warm-up (BX_WARM seconds, default 1, from the first frames counted);
# prints the rate. The command
# must end by itself.
bx_measure() {   # bx_measure ROLE IF FIELD COMMAND...
	local role=$1 ifn=$2 field=$3 pid r
	shift 3
	"$@" &
	pid=$!
	bench_flowing "$role" "$ifn" "$field"
	sleep "${BX_WARM:-1}"   # the measurement's warm-up, counted from the first frames
	r=$(rate_of "$role" "$ifn" "$field" "$bx_secs")
	wait "$pid"
	echo "$r"
}

# Placement: testpmd's forwarding lcore is CPU 1 (-l 0,1, main lcore 0), so a ppslab-gen
# that is measured against it sends from CPU 1 too; forwarders run on CPU 1 with their
# sender on CPU 0.
bx_gen() {   # bx_gen SPEC: ppslab-gen at max for the measurement window + 2 s, on CPU 1
	inns gen "$B/ppslab-gen" -i "$1" --dst 198.18.0.1 --rate max --cpus 1 \
		--duration "$((bx_secs + 2))" --json >"$BENCH_OUT/xdp-gen.json" 2>&1
}

bx_sender_group() {   # bx_sender_group GROUP NOTE
	local g=$1 note=$2 rep v
	for rep in $(seq 1 "$BENCH_REPS"); do
		v=$(bx_measure rut rut0 rx_packets bx_gen xdp:gen0)
		record "$g" "ppslab-gen xdp" pps "$rep" "$v" "" "$note"
		v=$(bx_measure rut rut0 rx_packets bx_gen afpacket:gen0)
		record "$g" "ppslab-gen afpacket" pps "$rep" "$v" "ppslab-gen xdp" "$note"
		if [ "$bx_have_tp" = 1 ]; then   # testpmd needs about 2 s to start sending
			v=$(BX_WARM=3 bx_measure rut rut0 rx_packets bx_testpmd gen "$((bx_secs + 4))" \
				"$BENCH_OUT/xdp-tp.out" txonly gen0)
			record "$g" "testpmd txonly net_af_xdp" pps "$rep" "$v" "ppslab-gen xdp" "$note"
		fi
	done
}

# --- senders: into an XDP drop, then into the kernel stack
xdp_drop rut rut0 on && bx_sender_group xdp-gen "rut0 drops in XDP; counted at rut0"
xdp_drop rut rut0 off
bx_sender_group xdp-gen-stk "rut0's stack drops (nftables shield); counted at rut0"

# --- sink over xdp under the fastest sender (gen -> rut0 directly)
for rep in $(seq 1 "$BENCH_REPS"); do
	ready_fresh "$BENCH_OUT/xdp-sink.json"   # no ready line of the last repetition's sink
	inns rut "$B/ppslab-sink" -i xdp:rut0 --duration "$((bx_secs + 4))" --json \
		>"$BENCH_OUT/xdp-sink.json" 2>&1 &
	sp=$!
	bench_ready "$sp" "$BENCH_OUT/xdp-sink.json"
	a=$(ifc rut rut0 rx_packets)
	bx_gen xdp:gen0
	wait "$sp"
	b=$(ifc rut rut0 rx_packets)
	s=$(grep '"type":"summary"' "$BENCH_OUT/xdp-sink.json" | tail -n 1)
	record xdp-sink "gen xdp sending" pps "$rep" \
		"$(grep '"type":"summary"' "$BENCH_OUT/xdp-gen.json" | jq -r '.pps | floor')" "" \
		"the load: ppslab-gen at max"
	record xdp-sink "rut0 received (kernel)" pkts "$rep" "$((b - a))" "" ""
	record xdp-sink "ppslab-sink xdp counted" pkts "$rep" "$(echo "$s" | jq -r .rx_pkts)" \
		"rut0 received (kernel)" "keeping up: ratio 1.0"
	record xdp-sink "ppslab-sink xdp drops" pkts "$rep" "$(echo "$s" | jq -r .ring_drops)" "" \
		"XDP_STATISTICS rx_dropped + rx_ring_full"
done

# --- forwarders: gen xdp at max -> rut -> sink0 (XDP drop), counted at sink0
xdp_drop sink sink0 on
bx_rut() {   # bx_rut IN OUT: the forwarder (busy mode) for the window + 3 s, and the sender
	ready_fresh "$BENCH_OUT/xdp-rut.json"   # no ready line of the last forwarder
	inns rut taskset -c 1 "$B/ppslab-rut" -i "$1" -o "$2" --mode busy --duration "$((bx_secs + 3))" --json \
		>"$BENCH_OUT/xdp-rut.json" 2>&1 &
	local rp=$!
	bench_ready "$rp" "$BENCH_OUT/xdp-rut.json"
	inns gen "$B/ppslab-gen" -i xdp:gen0 --rate max --cpus 0 --duration "$((bx_secs + 2))" \
		>/dev/null 2>&1
	wait "$rp"
}
bx_tp_io() {   # testpmd io-forward for the window + 5 s, the sender from 2 s on
	bx_testpmd rut "$((bx_secs + 5))" "$BENCH_OUT/xdp-tpio.out" io rut0 rut1 &
	local tp=$!
	# forwarding once it prints its configuration ("io packet forwarding - ports=2 ...")
	bench_wait 60 "dpdk-testpmd forwarding" grep -q "packet forwarding.* - ports=" "$BENCH_OUT/xdp-tpio.out"
	inns gen "$B/ppslab-gen" -i xdp:gen0 --rate max --cpus 0 --duration "$((bx_secs + 2))" \
		>/dev/null 2>&1
	wait "$tp"
}
bx_kernel() {   # the sender alone for the window + 2 s: the kernel forwards
	inns gen "$B/ppslab-gen" -i xdp:gen0 --rate max --cpus 0 --duration "$((bx_secs + 2))" \
		>/dev/null 2>&1
}
for rep in $(seq 1 "$BENCH_REPS"); do
	v=$(bx_measure sink sink0 rx_packets bx_rut xdp:rut0 xdp:rut1)
	record xdp-rut "ppslab-rut busy xdp" pps "$rep" "$v" "" "counted at sink0"
	v=$(bx_measure sink sink0 rx_packets bx_rut afpacket:rut0 afpacket:rut1)
	record xdp-rut "ppslab-rut busy afpacket" pps "$rep" "$v" "ppslab-rut busy xdp" ""
	if [ "$bx_have_tp" = 1 ]; then
		v=$(BX_WARM=3 bx_measure sink sink0 rx_packets bx_tp_io)
		record xdp-rut "testpmd io net_af_xdp" pps "$rep" "$v" "ppslab-rut busy xdp" \
			"io mode: frames not rewritten"
	fi
	kernel_fwd on
	rut_cpu_setup rps
	v=$(bx_measure sink sink0 rx_packets bx_kernel)
	rut_cpu_setup norps
	kernel_fwd off
	record xdp-rut "linux forwarding (RPS to CPU 1)" pps "$rep" "$v" "ppslab-rut busy xdp" \
		"the sender of the other rows"
done
xdp_drop sink sink0 off
