# SPDX-License-Identifier: BSD-2-Clause
# b_fw.sh — the firewall's own cost, without traffic: fw_eval over 1,000 rules that do
# not match, per rule shape (bench/fw_eval_bench.c), as ps (10^-12 s) per rule and ns
# per evaluation. A forwarded packet is evaluated twice (inbound and outbound pass). The
# forwarding rate with 1,000 rules against the kernel with 1,000 nftables rules belongs
# to the forwarder's section; this one says what the rules themselves cost.
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
