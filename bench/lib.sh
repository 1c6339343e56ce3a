# SPDX-License-Identifier: BSD-2-Clause
# bench/lib.sh — shared by the benchmark sections (sourced by bench/run).
#
# Benchmarks measure speed side by side with peer tools in one run, as medians of
# repetitions and ratios ppslab/peer, and read the kernel's own counters on every hop
# (a veth sender is slowed by a slow receiver instead of dropping, so tools' own claims
# are not enough). Never a timed assertion: numbers go to $BENCH_OUT.
#
# Records: one JSON line per measurement in $BENCH_OUT/records.jsonl:
#   {"group":"gen","label":"ppslab-gen afpacket","metric":"pps","rep":1,"value":351234,
#    "peer_of":null,"note":"..."}
# bench_summary turns them into $BENCH_OUT/summary.md (median, min-max, n, ratio).
set -u
: "${B:?bench/run sets B to the bin directory of the build}"
: "${BENCH_OUT:=bench-out}"
: "${BENCH_REPS:=3}"
: "${BENCH_SECS:=5}"
BENCH_LAB=${BENCH_LAB:-ppb$$}   # own lab per run: runs never share or delete each other's
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$BENCH_OUT"
. "$BENCH_DIR/../scripts/ready.sh"

# bench_ready PID FILE...: waits (up to 30 s) until the program of ours started in the
# background as PID has said it is ready (docs/readiness.md) in FILE (its --json output,
# or its stderr); says why on stderr and fails when it ended first or the time passed.
bench_ready() {
	local pid=$1
	shift
	ready_wait "$pid" 30 "$@" && return 0
	echo "bench: $* : the program (pid $pid) did not become ready: $(head -c 300 "$@" 2>/dev/null | tr '\n' '|')" >&2
	return 1
}

# bench_wait TIMEOUT_S WHAT COMMAND...: wait_for (scripts/ready.sh); says on stderr what
# it waited for in vain, and fails
bench_wait() {
	local tmo=$1 what=$2
	shift 2
	wait_for "$tmo" "$@" && return 0
	echo "bench: $what: not within $tmo s" >&2
	return 1
}

# moved ROLE IF FIELD FROM: the counter is past FROM (for bench_wait: frames flow)
moved() {
	[ "$(ifc "$1" "$2" "$3")" -gt "$4" ]
}

# bench_flowing ROLE IF FIELD: waits (up to 30 s) until the counter moves: the sender
# just started, whoever's it is, is sending (a peer tool says nothing when it starts)
bench_flowing() {
	bench_wait 30 "frames counted at $2 ($3)" moved "$1" "$2" "$3" "$(ifc "$1" "$2" "$3")"
}

# idle PID: the process sleeps and used no CPU time over 0.2 s: it has nothing left
# to read (for bench_wait)
idle() {
	local a b
	a=$(awk '{ sub(/^.*\) /, ""); print $1, $12 + $13 }' "/proc/$1/stat" 2>/dev/null) || return 0
	sleep 0.2   # the window in which it must stay idle
	b=$(awk '{ sub(/^.*\) /, ""); print $1, $12 + $13 }' "/proc/$1/stat" 2>/dev/null) || return 0
	[ "$a" = "$b" ] && [ "${b%% *}" = S ]
}

# gone PIDS...: none of them runs any more (for bench_wait)
gone() {
	local p
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null && return 1
	done
	return 0
}

# apt-get install peers that are missing (bench only; make check never needs them)
bench_need() {   # bench_need CMD PACKAGE...
	local cmd=$1; shift
	command -v "$cmd" >/dev/null 2>&1 && return 0
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
	command -v "$cmd" >/dev/null 2>&1
}

bench_lab_up() {
	"$B/ppslab" lab up --name "$BENCH_LAB" >/dev/null || { echo "bench: lab up failed" >&2; exit 1; }
}

bench_lab_down() {
	"$B/ppslab" lab down --name "$BENCH_LAB" >/dev/null 2>&1
}

inns() {   # inns ROLE CMD...
	local role=$1; shift
	ip netns exec "$BENCH_LAB-$role" "$@"
}

# The interface's 64-bit counter FIELD (rx_packets, tx_packets, rx_dropped, tx_dropped...)
ifc() {    # ifc ROLE IF FIELD
	ip -n "$BENCH_LAB-$1" -s -j link show dev "$2" |
		jq -r --arg f "$3" '.[0].stats64 | (if ($f|startswith("rx_")) then .rx[$f|ltrimstr("rx_")] else .tx[$f|ltrimstr("tx_")] end) // 0'
}

# The XDP drop program on ROLE's IF (the cheapest possible receiver); off with "off".
# The kernel forwards between rut0 and rut1 instead of a user-space forwarder (the
# router namespace's shield off, ip_forward on), and RPS of the router's ports to CPU 1
# (a veth frame is otherwise received and forwarded on the sending CPU).
kernel_fwd() {      # kernel_fwd on|off: the kernel forwards instead of ppslab-rut
	if [ "$1" = on ]; then
		"$B/ppslab" lab shield off --name "$BENCH_LAB" --ns rut >/dev/null
		inns rut sysctl -qw net.ipv4.ip_forward=1
	else
		inns rut sysctl -qw net.ipv4.ip_forward=0
		inns rut nft delete table inet ppslab_bench 2>/dev/null
		"$B/ppslab" lab shield on --name "$BENCH_LAB" --ns rut >/dev/null
	fi
}

rut_cpu_setup() {   # rut_cpu_setup rps|norps: RPS of the forwarder's ports to CPU 1
	local rps=0
	[ "$1" = rps ] && rps=2
	for ifc_role in "rut rut0" "rut rut1"; do
		set -- $ifc_role
		inns "$1" sh -c "echo $rps > /sys/class/net/$2/queues/rx-0/rps_cpus" 2>/dev/null
	done
}

xdp_drop() {   # xdp_drop ROLE IF on|off
	local obj="$BENCH_OUT/xdp_drop.o"
	if [ "$3" = on ]; then
		[ -f "$obj" ] || clang -O2 -target bpf -I/usr/include/x86_64-linux-gnu \
			-c "$BENCH_DIR/xdp_drop.bpf.c" -o "$obj" || return 1
		ip -n "$BENCH_LAB-$1" link set dev "$2" xdpdrv obj "$obj" sec xdp
	else
		ip -n "$BENCH_LAB-$1" link set dev "$2" xdpdrv off 2>/dev/null
	fi
}

record() {     # record GROUP LABEL METRIC REP VALUE [PEER_OF] [NOTE]
	jq -cn --arg g "$1" --arg l "$2" --arg m "$3" --argjson r "$4" --argjson v "$5" \
		--arg p "${6:-}" --arg n "${7:-}" \
		'{group:$g,label:$l,metric:$m,rep:$r,value:$v,peer_of:(if $p=="" then null else $p end),note:$n}' \
		>>"$BENCH_OUT/records.jsonl"
}

# rate of a counter over SECS: rate_of ROLE IF FIELD SECS (run while traffic flows)
rate_of() {
	local a b
	a=$(ifc "$1" "$2" "$3")
	sleep "$4"   # the window measured
	b=$(ifc "$1" "$2" "$3")
	echo $(( (b - a) / $4 ))
}

bench_summary() {
	[ -s "$BENCH_OUT/records.jsonl" ] || return 0
	jq -rs '
	  def median: sort | if length % 2 == 1 then .[length/2|floor]
	                     else (.[length/2-1] + .[length/2]) / 2 end;
	  # counts are whole numbers; percentages keep two decimals (floor made -0.22 % read -1)
	  def shown($metric): if $metric == "pct" then (. * 100 | round / 100) else floor end;
	  (map({key:(.group+"|"+.label+"|"+.metric+"|"+(.rep|tostring)), value:.value}) | from_entries) as $v
	  | group_by([.group,.label,.metric]) | map({group:.[0].group, label:.[0].label,
	    metric:.[0].metric, peer_of:.[0].peer_of, n:length, median:([.[].value]|median),
	    min:([.[].value]|min), max:([.[].value]|max)}) as $rows
	  | ($rows | map({key:(.group+"|"+.label+"|"+.metric), value:.median}) | from_entries) as $m
	  # paired: the median of the per-repetition ratios (repetitions are interleaved, so a
	  # slow stretch of the machine hits both sides of a pair alike)
	  | def paired($r): [range(1; 100) as $k
	        | ($v[$r.group+"|"+$r.peer_of+"|"+$r.metric+"|"+($k|tostring)] // null) as $a
	        | ($v[$r.group+"|"+$r.label+"|"+$r.metric+"|"+($k|tostring)] // null) as $b
	        | select($a != null and $b != null and $b > 0) | $a / $b]
	      | if length == 0 then "" else "\(median * 100 | floor / 100)×" end;
	    "| group | measurement | metric | median | min–max | n | ratio ppslab/this | paired |",
	    "|---|---|---|---:|---|---:|---:|---:|",
	    ($rows[] | . as $r | "| \(.group) | \(.label) | \(.metric) | \(.median|shown($r.metric)) | \(.min|shown($r.metric))–\(.max|shown($r.metric)) | \(.n) | " +
	      (if .peer_of then (($m[.group+"|"+.peer_of+"|"+.metric] // null) as $p |
	         if $p and .median > 0 then "\($p / .median * 100 | floor / 100)×" else "" end) else "" end) + " | " +
	      (if .peer_of then paired($r) else "" end) + " |")
	' "$BENCH_OUT/records.jsonl" >"$BENCH_OUT/summary.md"
	cat "$BENCH_OUT/summary.md"
}
