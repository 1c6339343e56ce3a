# SPDX-License-Identifier: BSD-2-Clause
# b_fw.sh — the firewall's own cost, without traffic: fw_eval over 1,000 rules that do
# not match, per rule shape (bench/fw_eval_bench.c), as ps (10^-12 s) per rule and ns
# per evaluation. A forwarded packet is evaluated twice (inbound and outbound pass). The
# forwarding rate with 1,000 rules against the kernel with 1,000 nftables rules belongs
# to the forwarder's section; this one says what the rules themselves cost. Last, the
# counters' cost with two threads sharing them or not (seed 001).
fwb="$B/../bench/fw_eval_bench"
if [ ! -x "$fwb" ]; then
	echo "fw: $fwb is missing (make bench builds it)"
else
	for rep in $(seq 1 "$BENCH_REPS"); do
		"$fwb" --json --rules "${BENCH_FW_RULES:-1000}" --reps 3 >"$BENCH_OUT/fw_eval.$rep.jsonl" || continue
		while IFS= read -r line; do
			c=$(jq -r .case <<<"$line")
			record fw "fw_eval: $c" ns_per_eval "$rep" "$(jq .ns_per_eval <<<"$line")"
			[ "$c" = empty ] && continue
			# picoseconds: bench_summary prints whole numbers
			record fw "fw_eval: $c" ps_per_rule "$rep" "$(jq '.ns_per_rule * 1000 | floor' <<<"$line")"
		done <"$BENCH_OUT/fw_eval.$rep.jsonl"
	done
fi

# The same shapes counted instead of timed (bench/fw_insns.sh, valgrind's callgrind):
# instructions per rule, the same on every run of one build, so a change shows even on a
# loaded machine (docs/firewall.md#instructions-per-rule-and-the-ipv6-slowdown). Once,
# not per rep; per 1,000 rules, as bench_summary prints whole numbers.
if [ -x "$fwb" ] && command -v valgrind >/dev/null; then
	"$(dirname "${BASH_SOURCE[0]}")/fw_insns.sh" --json "$fwb" >"$BENCH_OUT/fw_insns.jsonl" &&
		while IFS= read -r line; do
			record fw "fw_eval: $(jq -r .case <<<"$line")" insns_per_1000_rules 1 \
				"$(jq '.ir * 1000 | round' <<<"$line")" "" "bench/fw_insns.sh: callgrind"
		done <"$BENCH_OUT/fw_insns.jsonl"
fi

# The seed's counter cost where two CPUs share the counters: two threads pinned to CPUs
# 0 and 1 evaluate both passes of a packet over 0..3 `count ip from any to any` rules,
# the counters shared by both (FreeBSD 9) or one per thread (counter(9)); ns per packet
# per count rule, from the slope against no count rule. Each rep also gives the
# difference shared − percpu, the cost of the line moving between the CPUs.
if [ -x "$fwb" ] && [ "$(nproc)" -ge 2 ]; then
	for rep in $(seq 1 "$BENCH_REPS"); do
		"$fwb" --counters --json --threads 2 --cpus 0,1 --reps 3 >"$BENCH_OUT/fw_counters.$rep.jsonl" || continue
		for c in shared percpu; do
			v=$(jq -s --arg c "$c" '.[] | select(.counters == $c and .count_rules == 3) | .ns_per_pkt_rule' \
				"$BENCH_OUT/fw_counters.$rep.jsonl")
			# picoseconds: bench_summary prints whole numbers
			record fw "counters $c, 2 threads: per count rule" ps_per_pkt_rule "$rep" \
				"$(jq -n "$v * 1000 | floor")" "" "fw_eval_bench --counters: both passes, 0 vs 3 count rules"
		done
	done
	jq -rs '
	  def med(l): [.[] | select(.label == l) | .value] | sort | .[length/2|floor];
	  (med("counters shared, 2 threads: per count rule")) as $s |
	  (med("counters percpu, 2 threads: per count rule")) as $p |
	  "  counter cost, 2 threads: shared \($s / 1000) ns, percpu \($p / 1000) ns per packet per count rule; shared − percpu \(($s - $p) / 1000) ns"
	' "$BENCH_OUT/records.jsonl" | tee "$BENCH_OUT/fw-counters.txt"
fi

# What `ppslab run` does with the rule counters after every trial (bench/count_bench.c):
# two stats replies of N rules parsed and subtracted rule by rule, in ms. Linear in N;
# 100,000 rules is the documented maximum.
cb="$B/../bench/count_bench"
if [ -x "$cb" ]; then
	for rep in $(seq 1 "$BENCH_REPS"); do
		"$cb" --json 1000 20000 100000 >"$BENCH_OUT/count.$rep.jsonl" || continue
		while IFS= read -r line; do
			record fw "rule-hit count after a trial: $(jq .rules <<<"$line") rules" ms "$rep" \
				"$(jq '.total_ms | floor' <<<"$line")" "" "count_bench: parse and delta of two stats replies"
		done <"$BENCH_OUT/count.$rep.jsonl"
	done
else
	echo "fw: $cb is missing (make bench builds it)"
fi
