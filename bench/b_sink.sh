# SPDX-License-Identifier: BSD-2-Clause
# b_sink.sh — bench section "sink" (sourced by bench/run): does ppslab-sink keep up with
# the fastest sender here, and how does its receive rate compare with tcpdump -w
# /dev/null and an iperf3 UDP server in the same run?
#
# Per repetition, each for BENCH_SECS seconds of 64-byte frames into rut0 (the sink side
# of the gen0<->rut0 veth pair; the router namespace just hosts the receivers):
#  1. ppslab-sink -i rut0 (latency percentiles on, as always) while ppslab-gen --rate max
#     blasts: its pps, its own ring drops, and whether its count equals rut0's own
#     rx_packets counter (read by the sink from the kernel, and by `ifc` here);
#  2. tcpdump -i rut0 -w /dev/null under the same sender: packets captured per second and
#     the kernel's drops for it;
#  3. iperf3 -s receiving iperf3 -u -l 18 -b 0 (18-byte payloads = 64-byte frames): the
#     rate the server received (the client is iperf3's own sender, as users run it).
# Before them, ppslab-sink under 84-byte IPv4 and 84-byte IPv6 frames (the smallest IPv6
# test frame): IPv6 beside IPv4 at the same size; and under 68-byte frames untagged and
# with one 802.1Q tag (the smallest tagged test frame): a tag beside none.
# Rates are per second of the sender's own send window (gen's duration_ns), or iperf3's.
# Records go to $BENCH_OUT/records.jsonl; ratios ppslab/peer appear in summary.md.
# listening PORT: a TCP socket in the router namespace listens on PORT (the iperf3
# server's control port, opened before any datagram can be received)
listening() {
	[ -n "$(ip netns exec "$BENCH_LAB-rut" ss -Hltn "sport = :$1")" ]
}

# sink_kind LABEL REP PREFIX GEN_ARGS...: ppslab-sink on rut0 under ppslab-gen --rate max
# with these frames; records its pps (per second of the sender's window) and received/sent
sink_kind() {
	local label=$1 r=$2 pre=$3 sp g s; shift 3
	ip netns exec "$BENCH_LAB-rut" "$B/ppslab-sink" -i rut0 --idle 2 --duration $((BENCH_SECS + 10)) \
		--json >"$pre.sink.$r" 2>"$pre.sink.$r.err" &
	sp=$!
	bench_ready "$sp" "$pre.sink.$r"
	inns gen "$B/ppslab-gen" -i gen0 --rate max --duration "$BENCH_SECS" --json -q "$@" \
		>"$pre.gen.$r" 2>"$pre.gen.$r.err"
	wait "$sp"
	g=$(grep '"type":"summary"' "$pre.gen.$r")
	s=$(grep '"type":"summary"' "$pre.sink.$r")
	if [ -z "$g" ] || [ -z "$s" ]; then
		echo "bench sink: $label rep $r: no summary from gen or sink (see $pre.*)" >&2
		return
	fi
	record sink "$label" pps "$r" "$(jq -n --argjson a "$(jq .rx_pkts <<<"$s")" \
		--argjson d "$(jq .duration_ns <<<"$g")" '$a * 1e9 / $d | floor')" "" "sender ppslab-gen --rate max"
	record sink "$label received/sent" pct "$r" \
		"$(jq -n --argjson a "$(jq .rx_pkts <<<"$s")" --argjson t "$(jq .tx_pkts <<<"$g")" '$a * 100 / $t')"
}

sink_bench() {
	local r secs=$BENCH_SECS tmp="$BENCH_OUT/sink"
	mkdir -p "$tmp"
	bench_need tcpdump tcpdump || echo "bench sink: tcpdump missing: skipped" >&2
	bench_need iperf3 iperf3 || echo "bench sink: iperf3 missing: skipped" >&2
	for r in $(seq 1 "$BENCH_REPS"); do
		# 0. IPv6 beside IPv4 at the same size: 84 bytes, the smallest IPv6 test frame
		sink_kind "ppslab-sink afpacket 84 B" "$r" "$tmp/k4" --dst 198.18.0.1 --size 84
		sink_kind "ppslab-sink afpacket IPv6 84 B" "$r" "$tmp/k6" --dst 2001:2::1 \
			--src 2001:2::2 --dst-mac "$(ip -n "$BENCH_LAB-rut" -j link show dev rut0 | jq -r '.[0].address')"
		# 0b. one 802.1Q tag beside none at 68 bytes, the smallest tagged test frame (on
		# afpacket the port puts back the tag the kernel took out)
		sink_kind "ppslab-sink afpacket 68 B" "$r" "$tmp/v0" --dst 198.18.0.1 --size 68
		sink_kind "ppslab-sink afpacket 802.1Q 68 B" "$r" "$tmp/v1" --dst 198.18.0.1 \
			--size 68 --vlan 100
		# 1. ppslab-sink under ppslab-gen --rate max
		local rx0 rx1 sp
		rx0=$(ifc rut rut0 rx_packets)
		ip netns exec "$BENCH_LAB-rut" "$B/ppslab-sink" -i rut0 --idle 2 --duration $((secs + 10)) --json \
			>"$tmp/sink.$r" 2>"$tmp/sink.$r.err" &
		sp=$!
		bench_ready "$sp" "$tmp/sink.$r"
		inns gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate max --duration "$secs" \
			--json -q >"$tmp/gen.$r" 2>"$tmp/gen.$r.err"
		wait "$sp"
		rx1=$(ifc rut rut0 rx_packets)
		local g s
		g=$(grep '"type":"summary"' "$tmp/gen.$r")
		s=$(grep '"type":"summary"' "$tmp/sink.$r")
		if [ -n "$g" ] && [ -n "$s" ]; then
			local dur pps
			dur=$(jq -r .duration_ns <<<"$g")
			pps=$(jq -n --argjson a "$(jq .rx_pkts <<<"$s")" --argjson d "$dur" '$a * 1e9 / $d | floor')
			record sink "ppslab-sink afpacket" pps "$r" "$pps" "" "sender ppslab-gen --rate max"
			record sink "ppslab-gen --rate max (sender)" pps "$r" \
				"$(jq -r '.pps | floor' <<<"$g")"
			record sink "ppslab-sink received/sent" pct "$r" \
				"$(jq -n --argjson a "$(jq .rx_pkts <<<"$s")" --argjson t "$(jq .tx_pkts <<<"$g")" '$a * 100 / $t')"
			record sink "ppslab-sink ring drops" frames "$r" "$(jq .ring_drops <<<"$s")"
			record sink "ppslab-sink lost" frames "$r" "$(jq .lost_pkts <<<"$s")"
			record sink "rut0 rx_packets - sink rx_frames" frames "$r" \
				"$(( rx1 - rx0 - $(jq .rx_frames <<<"$s") ))" "" "0 = the sink saw every frame"
			record sink "ppslab-sink latency p99" ns "$r" "$(jq '.latency_ns.p99 // 0' <<<"$s")"
			record sink "ppslab-sink latency p50" ns "$r" "$(jq '.latency_ns.p50 // 0' <<<"$s")"
		else
			echo "bench sink: rep $r: no summary from gen or sink (see $tmp)" >&2
		fi

		# 2. tcpdump -w /dev/null under the same sender
		if command -v tcpdump >/dev/null; then
			local tp cap drop
			# not through the inns function: $! must be tcpdump itself, to signal it
			ip netns exec "$BENCH_LAB-rut" tcpdump -i rut0 -n -q -w /dev/null \
				>/dev/null 2>"$tmp/tcpdump.$r" &
			tp=$!
			bench_wait 30 "tcpdump listening on rut0" grep -q "listening on" "$tmp/tcpdump.$r"
			inns gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate max --duration "$secs" \
				--json -q >"$tmp/gen-td.$r" 2>/dev/null
			# stopped once it has read what its ring still held
			bench_wait 30 "tcpdump idle after the sender" idle "$tp"
			kill -INT "$tp" 2>/dev/null
			wait "$tp" 2>/dev/null
			cap=$(awk '/packets captured/ {print $1}' "$tmp/tcpdump.$r")
			drop=$(awk '/dropped by kernel/ {print $1}' "$tmp/tcpdump.$r")
			g=$(grep '"type":"summary"' "$tmp/gen-td.$r")
			if [ -n "$cap" ] && [ -n "$g" ]; then
				dur=$(jq -r .duration_ns <<<"$g")
				record sink "tcpdump -w /dev/null" pps "$r" \
					"$(jq -n --argjson a "$cap" --argjson d "$dur" '$a * 1e9 / $d | floor')" \
					"ppslab-sink afpacket" "sender ppslab-gen --rate max"
				record sink "tcpdump kernel drops" frames "$r" "${drop:-0}"
				record sink "tcpdump received/sent" pct "$r" \
					"$(jq -n --argjson a "$cap" --argjson t "$(jq .tx_pkts <<<"$g")" '$a * 100 / $t')"
				record sink "ppslab-gen --rate max (sender, tcpdump run)" pps "$r" \
					"$(jq -r '.pps | floor' <<<"$g")"
			fi
		fi

		# 3. iperf3 UDP server receiving 18-byte datagrams (its kernel stack must see them)
		if command -v iperf3 >/dev/null; then
			local ip
			# both kernel stacks take part (the TCP control connection goes both ways)
			"$B/ppslab" lab shield off --name "$BENCH_LAB" --ns rut >/dev/null
			"$B/ppslab" lab shield off --name "$BENCH_LAB" --ns gen >/dev/null
			ip netns exec "$BENCH_LAB-rut" timeout $((secs + 20)) \
				iperf3 -s -1 -B 198.18.0.1 -p 5201 >/dev/null 2>&1 &
			ip=$!
			bench_wait 30 "iperf3 -s listening on 198.18.0.1:5201" listening 5201
			inns gen timeout $((secs + 15)) iperf3 -c 198.18.0.1 -p 5201 -u -l 18 -b 0 \
				-t "$secs" -J >"$tmp/iperf3.$r" 2>/dev/null
			wait "$ip" 2>/dev/null
			"$B/ppslab" lab shield on --name "$BENCH_LAB" --ns rut >/dev/null
			"$B/ppslab" lab shield on --name "$BENCH_LAB" --ns gen >/dev/null
			local v
			v=$(jq -r '.end.sum | select(.packets != null) |
				((.packets - .lost_packets) / .seconds | floor)' "$tmp/iperf3.$r" 2>/dev/null)
			[ -n "$v" ] && record sink "iperf3 -s (UDP, -l 18)" pps "$r" "$v" \
				"ppslab-sink afpacket" "sender iperf3 -c -u -l 18 -b 0"
		fi
	done
}
sink_bench
