# SPDX-License-Identifier: BSD-2-Clause
# b_linerate.sh — line rate in profile runs (sourced by bench/run; BENCH=linerate runs
# only this section). `ppslab run` itself, side by side in one run, BENCH_REPS
# repetitions interleaved, the figures read off its results file:
#
#   linerate-rig   the rig's ceiling (rig.ceiling_pps: the smaller of ppslab-gen
#                  --calibrate and the direct sender -> sink run) with a two-thread xdp:
#                  sender on two queues, pinned to CPUs 0 and 1, against a one-thread
#                  afpacket sender (the ratio is the headroom a lab would see);
#   linerate-2gen  two sender namespaces (afpacket, one thread each, offered max)
#                  against one, through ppslab-rut in busy mode, in a lab of two sender
#                  namespaces for both: what they offered (offered_pps), what reached the
#                  sink (fwd_pps), and the spread of the two first frames (start.spread_ns).
#
# On a host of two CPUs everything shares them: the senders, the forwarder (busy mode
# takes a CPU of its own) and the sink. The figures say what this host gives, not what
# the tools could give on a rig of their own.
bl_dir=$BENCH_OUT/linerate
mkdir -p "$bl_dir"

# bl_run NAME JQ-TOPOLOGY JQ-PARAMS RIG: a one-cell ppslab run; the results in
# $bl_dir/NAME.json, its status returned
bl_run() {
	local name=$1 topo=$2 params=$3 rig=$4
	jq -n --arg lab "$BENCH_LAB" --arg r "$bl_dir/$1.json" "{
	  description: \"bench linerate: $name\",
	  params: $params,
	  trial: { method: \"fixed\", warmup: \"0.5s\", duration: \"${BENCH_SECS}s\", settle: \"0.3s\" },
	  router: { rt_prio: 5 },
	  rig: $rig,
	  topology: ({ kind: \"netns\", lab: \$lab } + $topo),
	  output: { results: \$r } }" >"$bl_dir/$name-prof.json"
	"$B/ppslab" run "$bl_dir/$name-prof.json" -q --no-table >"$bl_dir/$name.out" 2>"$bl_dir/$name.err"
}

bl_num() {   # bl_num FILE FILTER: a number from the results, or nothing
	jq -r "($2) // empty | select(type == \"number\")" "$1" 2>/dev/null
}

if ! "$B/ppslab-sink" -i xdp:nosuch0 --duration 0.1 2>&1 | grep -q "no such interface"; then
	echo "linerate: the xdp: figure skipped: $("$B/ppslab-sink" -i xdp:nosuch0 --duration 0.1 2>&1 | head -n 1)"
	bl_xdp=0
else
	bl_xdp=1
fi

for rep in $(seq 1 "$BENCH_REPS"); do
	if [ "$bl_xdp" = 1 ]; then
		bl_run xdp2 '{ gen: { port: "xdp", threads: 2, cpus: [0, 1] } }' \
			'{ burst_max: 50, pollhz: 1000, offered: "10k" }' '{ calibrate: true, direct: true }'
		v=$(bl_num "$bl_dir/xdp2.json" '.rig.ceiling_pps')
		[ -n "$v" ] && record linerate-rig "xdp: 2 threads, 2 queues" ceiling_pps "$rep" "$v" \
			"" "ppslab run's rig.ceiling_pps" ||
			echo "linerate: xdp2 rep $rep: no ceiling: $(tail -n 3 "$bl_dir/xdp2.err")" >&2
	fi
	bl_run af1 '{ gen: { port: "afpacket" } }' \
		'{ burst_max: 50, pollhz: 1000, offered: "10k" }' '{ calibrate: true, direct: true }'
	v=$(bl_num "$bl_dir/af1.json" '.rig.ceiling_pps')
	[ -n "$v" ] && record linerate-rig "afpacket: 1 thread" ceiling_pps "$rep" "$v" \
		"xdp: 2 threads, 2 queues" "ppslab run's rig.ceiling_pps" ||
		echo "linerate: af1 rep $rep: no ceiling: $(tail -n 3 "$bl_dir/af1.err")" >&2

	# the same lab of two sender namespaces for both, so that the path is the same
	"$B/ppslab" lab up --name "$BENCH_LAB" --senders 2 >/dev/null
	for n in 2 1; do
		if [ "$n" = 2 ]; then topo='{ gen: [{}, {}] }'; label="two sender namespaces"; peer=""
		else topo='{ gen: [{}] }'; label="one sender namespace"; peer="two sender namespaces"; fi
		bl_run "gen$n" "$topo" '{ mode: "busy", offered: "max" }' '{ calibrate: false, direct: false }'
		f=$bl_dir/gen$n.json
		for m in offered_pps:'.cases[0].metrics.offered_pps' fwd_pps:'.cases[0].metrics.fwd_pps'; do
			v=$(bl_num "$f" "${m#*:}")
			[ -n "$v" ] && record linerate-2gen "$label" "${m%%:*}" "$rep" "$v" "$peer" "ppslab run, ppslab-rut busy" ||
				echo "linerate: gen$n rep $rep: no ${m%%:*}: $(tail -n 3 "$bl_dir/gen$n.err")" >&2
		done
		if [ "$n" = 2 ]; then
			v=$(bl_num "$f" '.cases[0].trials[0].start.spread_ns')
			[ -n "$v" ] && record linerate-2gen "$label" start_spread_ns "$rep" "$v" "" \
				"first frames of the two boxes apart"
		fi
	done
	"$B/ppslab" lab up --name "$BENCH_LAB" --senders 1 >/dev/null   # as the other sections expect
done
