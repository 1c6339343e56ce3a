# SPDX-License-Identifier: BSD-2-Clause
# b_fwstate.sh — `make bench BENCH=fwstate`: forwarding through stateful rules and a
# large lookup table, ppslab-rut against the Linux kernel doing the same in the same run
# (sourced by bench/run; the lab $BENCH_LAB is up, shields on). Repetitions interleave
# the two sides, so the summary's "paired" column is the median of per-repetition
# ratios ppslab-rut / kernel.
#
#   base        one allow rule — vs an empty nftables forward chain
#   1 state     ipfw: check-state + allow udp keep-state, one flow (every packet finds
#               its state twice: inbound and outbound pass) — vs nftables `ct state`
#               rules over conntrack, one flow
#   1M states   the same with 1,000,000 flows (source ports 1001..63500 x destination
#               ports 1..16, walked in order), the states made before the measurement
#               by sending the flows until dyn_count is 1,000,000 (dyn_max 2M,
#               dyn_buckets 1M, dyn_udp_lifetime 120) — vs conntrack with
#               1,000,000 entries (nf_conntrack_max raised for the run, then restored)
#   table 100k  deny ip from table(1) to any over 100,000 entries (60,000 /32, 30,000
#               /24, 10,000 /20) the traffic never matches, then allow — vs an nftables
#               interval set of the same 100,000 prefixes (`ip saddr @blocked drop`)
#
# Rates are sink0's rx_packets over BENCH_SECS after a 1-s warm-up, 64-byte frames, the
# sender on CPU 0 and the forwarding on CPU 1 (the kernel's by RPS), an XDP drop at sink0
# when it loads. Records: group fw-state; ratio = ppslab-rut / kernel.

FWS_SOCK="$BENCH_OUT/fws.sock"
FWS_PID=""

fws_start() {   # fws_start ARGS...: the forwarder on CPU 1 with a control socket
	rm -f "$FWS_SOCK"
	ready_fresh "$BENCH_OUT/fws.out" "$BENCH_OUT/fws.err"   # no ready line of the last one
	ip netns exec "$BENCH_LAB-rut" taskset -c 1 "$B/ppslab-rut" -i rut0 -o rut1 --mode busy \
		--ctl "$FWS_SOCK" -q --json --interval 60s "$@" >"$BENCH_OUT/fws.out" \
		2>"$BENCH_OUT/fws.err" &
	FWS_PID=$!
	bench_ready "$FWS_PID" "$BENCH_OUT/fws.out"
}

fws_stop() {
	[ -n "$FWS_PID" ] && kill -INT "$FWS_PID" 2>/dev/null && wait "$FWS_PID" 2>/dev/null
	FWS_PID=""
}

fws_ctl() { "$B/ppslab-rut" ctl "$FWS_SOCK" "$@"; }

FWS_FLOWS_1M="--sport 1001-63500 --dport 1-16"

fws_gen() {     # fws_gen SECS FLOWARGS...: the sender at full rate on CPU 0 (background)
	local secs=$1; shift
	ip netns exec "$BENCH_LAB-gen" taskset -c 0 "$B/ppslab-gen" -i gen0 --rate max \
		--duration "$secs" -q "$@" >/dev/null 2>&1 &
	FWS_GEN=$!
}

# forwarded pps: sink0 rx_packets over BENCH_SECS after 1 s; the note has rut0's rx rate
fws_measure() {
	bench_flowing sink sink0 rx_packets
	sleep 1   # 1 s of forwarding before the window: the measurement's warm-up
	local a0 b0 t0 a1 b1 t1
	t0=$(date +%s%N); a0=$(ifc sink sink0 rx_packets); b0=$(ifc rut rut0 rx_packets)
	sleep "$BENCH_SECS"
	t1=$(date +%s%N); a1=$(ifc sink sink0 rx_packets); b1=$(ifc rut rut0 rx_packets)
	echo "$(( (a1 - a0) * 1000000000 / (t1 - t0) )) rut0_rx=$(( (b1 - b0) * 1000000000 / (t1 - t0) ))"
}

fws_record() {  # fws_record LABEL REP "PPS NOTE" [PEER_OF]
	local v=${3%% *} note=${3#* }
	# nothing reached rut0: the sender did not run (a starved CPU), not a rate of the
	# forwarder — said, and kept out of the medians
	if [ "${note#rut0_rx=0 }" != "$note" ]; then
		printf '  %-48s rep %d: not recorded: nothing reached rut0 (the sender was starved)\n' "$1" "$2"
		return 0
	fi
	record fw-state "$1" pps "$2" "$v" "${4:-}" "$note"
	printf '  %-48s rep %d: %8d pps  (%s)\n' "$1" "$2" "$v" "$note"
}

# one ppslab-rut measurement: the rules loaded over the control socket (the load time
# goes in the note), sysctls first, then PRIME=1 sends every flow for 8 s before the
# measurement so that the states exist
fws_rut() {     # fws_rut LABEL REP RULES "SYSCTLS" PRIME FLOWARGS...
	local label=$1 rep=$2 rules=$3 sys=$4 prime=$5 t0 t1 m; shift 5
	fws_start --default-accept
	[ -n "$sys" ] && fws_ctl sysctl $sys >/dev/null
	t0=$(date +%s%N)
	fws_ctl ipfw -q "$rules"
	t1=$(date +%s%N)
	if [ "$prime" = 1 ]; then
		# at full rate the sender outruns the forwarder and frames (and states) are
		# lost on the way: every flow once at 100k pps (a run starts at the first
		# flow), again until every state exists
		for _ in 1 2 3; do
			ip netns exec "$BENCH_LAB-gen" taskset -c 0 "$B/ppslab-gen" -i gen0 --rate 100k \
				--count 1000000 -q "$@" >/dev/null 2>&1
			[ "$(fws_ctl sysctl -n net.inet.ip.fw.dyn_count)" -ge 1000000 ] && break
			[ "$(fws_ctl sysctl -n net.inet.ip.fw.dyn_count)" -ge 1000000 ] && break
		done
		echo "    states made: $(fws_ctl sysctl -n net.inet.ip.fw.dyn_count), buckets $(fws_ctl sysctl -n net.inet.ip.fw.curr_dyn_buckets), longest chain $(fws_ctl sysctl -n net.inet.ip.fw.curr_max_length)"
	fi
	fws_gen $((BENCH_SECS + 3)) "$@"
	m=$(fws_measure)
	fws_record "$label" "$rep" "$m load_ms=$(( (t1 - t0) / 1000000 )) dyn_count=$(fws_ctl sysctl -n net.inet.ip.fw.dyn_count)"
	wait "$FWS_GEN"
	fws_stop
}

# conntrack's table must start empty: a million entries left from the last run would
# fill a smaller table (new flows dropped) or slow the next one
fws_ct_flush() {
	[ $have_ct = 1 ] && inns rut conntrack -F >/dev/null 2>&1
}

fws_kernel() {  # fws_kernel LABEL REP PEER_OF NFTFILE PRIME FLOWARGS...
	local label=$1 rep=$2 peer=$3 nftf=$4 prime=$5; shift 5
	kernel_fwd on
	rut_cpu_setup rps
	inns rut nft -f "$nftf"
	fws_ct_flush
	if [ "$prime" = 1 ]; then
		ip netns exec "$BENCH_LAB-gen" taskset -c 0 "$B/ppslab-gen" -i gen0 --rate 200k \
			--duration 8 -q "$@" >/dev/null 2>&1
		echo "    conntrack entries: $(inns rut cat /proc/sys/net/netfilter/nf_conntrack_count)"
	fi
	fws_gen $((BENCH_SECS + 3)) "$@"
	fws_record "$label" "$rep" "$(fws_measure)" "$peer"
	wait "$FWS_GEN"
	rut_cpu_setup norps
	kernel_fwd off
}

if ! "$B/ppslab-rut" --help | grep -q -- --rules || ! command -v nft >/dev/null; then
	echo "  fwstate: skipped (no firewall in this ppslab-rut, or no nft)"
	return 0
fi
xdp_drop sink sink0 on 2>/dev/null || echo "  (no XDP drop at sink0: the sink's shield drops instead)"

# rules
cat >"$BENCH_OUT/fws-state.rules" <<'EOF'
add 100 check-state
add 200 allow udp from any to any keep-state
add 300 deny ip from any to any
EOF
awk 'BEGIN { srand(7); print "table 1 create";
	for (i = 0; i < 60000; i++) printf "table 1 add 10.%d.%d.%d\n", int(i / 65536) + 1, int(i / 256) % 256, i % 256
	for (i = 0; i < 30000; i++) printf "table 1 add 11.%d.%d.0/24\n", int(i / 256) % 256, i % 256
	for (i = 0; i < 10000; i++) printf "table 1 add %d.%d.%d.0/20\n", 12 + int(i / 4096), int(i / 16) % 256, (i % 16) * 16
	print "add 100 deny ip from table(1) to any"; print "add 200 allow ip from any to any" }' \
	>"$BENCH_OUT/fws-table.rules"
# the kernel's equivalents
cat >"$BENCH_OUT/fws-ct.nft" <<'EOF'
table inet ppslab_bench {
  chain forward_bench { type filter hook forward priority 0; policy drop;
    ct state established,related accept
    ct state new meta l4proto udp accept
  }
}
EOF
{
	echo "table inet ppslab_bench {"
	echo "  set blocked { type ipv4_addr; flags interval; elements = {"
	awk 'BEGIN { sep = "";
		for (i = 0; i < 60000; i++) { printf "%s10.%d.%d.%d", sep, int(i / 65536) + 1, int(i / 256) % 256, i % 256; sep = ",\n" }
		for (i = 0; i < 30000; i++) printf ",\n11.%d.%d.0/24", int(i / 256) % 256, i % 256
		for (i = 0; i < 10000; i++) printf ",\n%d.%d.%d.0/20", 12 + int(i / 4096), int(i / 16) % 256, (i % 16) * 16
		print "" }'
	echo "  } }"
	echo "  chain forward_bench { type filter hook forward priority 0; policy accept;"
	echo "    ip saddr @blocked drop"
	echo "  }"
	echo "}"
} >"$BENCH_OUT/fws-set.nft"

have_ct=0
bench_need conntrack conntrack && have_ct=1
[ $have_ct = 1 ] || echo "  (no conntrack tool: entries of one run stay for the next)"
ct_max_was=$(cat /proc/sys/net/netfilter/nf_conntrack_max 2>/dev/null || echo "")
# a million entries must fit for the whole section (restored at the end)
[ -n "$ct_max_was" ] && echo 2000000 >/proc/sys/net/netfilter/nf_conntrack_max 2>/dev/null
ct_hash_was=$(cat /sys/module/nf_conntrack/parameters/hashsize 2>/dev/null || echo "")

echo "add 100 allow ip from any to any" >"$BENCH_OUT/fws-allow.rules"
printf '%s\n' "table inet ppslab_bench {" \
	"  chain forward_bench { type filter hook forward priority 0; policy accept; }" "}" \
	>"$BENCH_OUT/fws-none.nft"

for rep in $(seq "$BENCH_REPS"); do
	# the base: one allow rule, and the kernel with an empty forward chain
	fws_rut "ppslab-rut allow only" "$rep" "$BENCH_OUT/fws-allow.rules" "" 0
	fws_kernel "linux no rules" "$rep" "ppslab-rut allow only" "$BENCH_OUT/fws-none.nft" 0

	fws_rut "ppslab-rut keep-state, 1 state" "$rep" "$BENCH_OUT/fws-state.rules" "" 0
	fws_kernel "linux conntrack, 1 flow" "$rep" "ppslab-rut keep-state, 1 state" \
		"$BENCH_OUT/fws-ct.nft" 0

	fws_rut "ppslab-rut keep-state, 1M states" "$rep" "$BENCH_OUT/fws-state.rules" \
		"net.inet.ip.fw.dyn_max=2000000 net.inet.ip.fw.dyn_buckets=1048576 net.inet.ip.fw.dyn_udp_lifetime=120" \
		1 $FWS_FLOWS_1M
	[ -n "$ct_hash_was" ] && echo 1048576 >/sys/module/nf_conntrack/parameters/hashsize 2>/dev/null
	fws_kernel "linux conntrack, 1M flows" "$rep" "ppslab-rut keep-state, 1M states" \
		"$BENCH_OUT/fws-ct.nft" 1 $FWS_FLOWS_1M
	fws_ct_flush
	[ -n "$ct_hash_was" ] && echo "$ct_hash_was" >/sys/module/nf_conntrack/parameters/hashsize 2>/dev/null

	fws_rut "ppslab-rut table of 100k" "$rep" "$BENCH_OUT/fws-table.rules" "" 0
	fws_kernel "linux nftables set of 100k" "$rep" "ppslab-rut table of 100k" \
		"$BENCH_OUT/fws-set.nft" 0
done
fws_ct_flush
[ -n "$ct_max_was" ] && echo "$ct_max_was" >/proc/sys/net/netfilter/nf_conntrack_max 2>/dev/null
xdp_drop sink sink0 off
