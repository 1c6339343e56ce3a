#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/fw_insns.sh — the firewall's cost per rule counted, not timed: for each rule
# shape of fw_eval_bench, callgrind counts the events inside fw_eval (and all it calls)
# over EVALS evaluations with RULES non-matching rules and with none, and prints the
# difference per rule and evaluation: instructions (Ir), data reads (Dr) and writes (Dw),
# first-level data read misses (D1mr) and mispredicted conditional branches (Bcm) of
# callgrind's simulated caches and predictor. The same build gives the same counts on a
# loaded machine, so two builds (before and after a change) compare exactly where a
# wall-clock figure here is noise (docs/firewall.md#speed). Needs valgrind.
#
#   bench/fw_insns.sh [--ip6] [--json] [--rules N] [--evals N] FW_EVAL_BENCH
set -u
ip6=() json=0 rules=1000 evals=1000
while [ $# -gt 1 ]; do
	case "$1" in
	--ip6) ip6=(--ip6); shift ;;
	--json) json=1; shift ;;
	--rules) rules=$2; shift 2 ;;
	--evals) evals=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# = 1 ] || { echo "usage: bench/fw_insns.sh [--ip6] [--json] [--rules N] [--evals N] FW_EVAL_BENCH" >&2; exit 64; }
fwb=$1
command -v valgrind >/dev/null || { echo "fw_insns: valgrind is not installed" >&2; exit 77; }
[ -x "$fwb" ] || { echo "fw_insns: $fwb: not an executable" >&2; exit 66; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# events N CASE: the totals line of fw_eval's events, "Ir Dr Dw ... Bcm" order of $ev
ev="Ir Dr Dw D1mr Bcm"
events() {
	local out="$tmp/cg.$1.$2"
	valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --toggle-collect=fw_eval \
		--callgrind-out-file="$out" "$fwb" --case "$2" --rules "$1" --evals "$evals" \
		--reps 1 "${ip6[@]}" >"$tmp/stdout" 2>"$tmp/stderr" || {
		echo "fw_insns: case $2, $1 rules: valgrind failed:" >&2
		cat "$tmp/stderr" >&2
		return 1
	}
	if grep -q '^warning: a rule decided' "$tmp/stderr"; then
		echo "fw_insns: case $2 matched a rule before 65535: not counted" >&2
		return 1
	fi
	awk -v want="$ev" '
	  /^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
	  /^(totals|summary):/ { n = split(want, w, " ")
	    for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), $(col[w[i]] + 1) + 0
	    print ""; exit }' "$out"
}

ncases=$("$fwb" --case 99 2>&1 | sed -n 's/.*whole number 0\.\.\([0-9]*\).*/\1/p')
[ -n "$ncases" ] || { echo "fw_insns: $fwb has no --case" >&2; exit 1; }
[ "$json" = 1 ] || printf '%-54s %8s %8s %8s %8s %8s\n' "per rule${ip6:+ (IPv6 packet)}" $ev
for k in $(seq 1 "$ncases"); do
	name=$("$fwb" --case "$k" --rules 0 --evals 1000 --reps 1 --json "${ip6[@]}" | jq -r .case) || exit 1
	a=$(events 0 "$k") || exit 1
	z=$(events "$rules" "$k") || exit 1
	per=$(awk -v a="$a" -v z="$z" -v n="$rules" -v e="$evals" 'BEGIN {
	  split(a, x, " "); split(z, y, " ")
	  for (i = 1; i <= 5; i++) {
	    v = sprintf("%.2f", (y[i] - x[i]) / (n * e)); if (v == "-0.00") v = "0.00"
	    printf "%s%s", (i > 1 ? " " : ""), v } }')
	if [ "$json" = 1 ]; then
		read -r ir dr dw d1 bm <<<"$per"
		jq -nc --arg c "$name" --argjson ip6 "$([ ${#ip6[@]} = 0 ] && echo false || echo true)" \
			--argjson ir "$ir" --argjson dr "$dr" --argjson dw "$dw" --argjson d1 "$d1" \
			--argjson bm "$bm" --argjson n "$rules" \
			'{case: $c, ip6: $ip6, rules: $n, ir: $ir, dr: $dr, dw: $dw, d1mr: $d1, bcm: $bm}'
	else
		printf '%-54s %8s %8s %8s %8s %8s\n' "$name" $per
	fi
done
