#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_latload.sh — latency at load from the command line, without root: `ppslab table
# --latency` and `ppslab plot --kind latload` (real gnuplot, a hostile label escaped)
# and `ppslab report` on tests/data/latload.json (a real run's file, trials left out);
# a file without it named as such; trial.latency_loads' bad values at FILE:LINE:COLUMN
# and the phase's time in --dry-run; ppslab-sink --delay-by-size splitting an IMIX over
# udp: on loopback, its rows adding up to the stream's delays.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
D=$TOP/tests/data
T=$(mktemp -d /tmp/ppslab-t_latload.XXXXXX)
sp=
trap '[ -n "$sp" ] && kill "$sp" 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/ready.sh"
F=$D/latload.json

# the table: a row per case, load and size, in the file's order
run "table --latency" 0 "" "$B/ppslab" table "$F" --latency --format csv
check "table --latency: its header" "$([ "$(sed -n 1p "$T/out" | tr -d '\r')" = \
	'case,rep,load %,size,stream,load pps,typical us,worst-case us,PDV us,frames' ]; echo $?)" \
	"$(sed -n 1p "$T/out")"
check "table --latency: every load of both sizes, in order" \
	"$([ "$(sed 1d "$T/out" | cut -d, -f3,4 | tr '\n' ' ')" = \
	'0,64 10,64 50,64 90,64 100,64 0,1518 10,1518 50,1518 90,1518 100,1518 ' ]; echo $?)" \
	"$(cut -d, -f3,4 "$T/out" | tr '\n' ' ')"
# the figures are the file's, in µs: the first row's typical from its typical_ns
want=$(jq -r '.cases[0].latency_at_load[0].latency[0].typical_ns / 1000 * 10 | round / 10' "$F")
check "table --latency: typical in µs from the file ($want)" \
	"$(awk -F, -v w="$want" 'NR == 2 { exit ($7 + 0 == w + 0) ? 0 : 1 }' "$T/out"; echo $?)" \
	"$(sed -n 2p "$T/out")"
check "table --latency: median <= worst-case, PDV = worst-case - min, on every row" \
	"$(jq -e '[.cases[].latency_at_load[].latency[] | .typical_ns <= .worst_ns and
	   .pdv_ns == .worst_ns - .min_ns and .min_ns >= 0] | all' "$F" >/dev/null; echo $?)"
run "table --latency --where size=1518: that size only" 0 "" "$B/ppslab" table "$F" --latency \
	--where size=1518 --format csv
check "table --latency --where: five rows of size 1518" \
	"$([ "$(sed 1d "$T/out" | cut -d, -f4 | sort -u)" = 1518 ] && [ "$(sed 1d "$T/out" | wc -l)" = 5 ]; echo $?)"
# the figures as case metrics: a pivot over size, and compare of the file with itself
run "table --metric latload.50.p50_ns over size" 0 "" "$B/ppslab" table "$F" \
	--metric latload.50.p50_ns,latload.100.p999_ns --format csv
want=$(jq -r '[.cases[] | .params.size, .latency_at_load[2].latency[0].typical_ns,
	.latency_at_load[4].latency[0].worst_ns] | map(tostring) | join(" ")' "$F")
check "table --metric: the typical at 50 % and worst-case at 100 % per size ($want)" \
	"$([ "$(sed 1d "$T/out" | tr -d '\r' | cut -d, -f1-3 | tr ',\n' '  ' | sed 's/ $//')" = "$want" ]; echo $?)" \
	"$(cat "$T/out")"
run "compare takes them as any metric (lower is better)" 0 "" "$B/ppslab" compare "$F" "$F" \
	--metric latload.50.p50_ns -f csv
check "compare: a row per size, ratio 1" \
	"$([ "$(grep -c 'latload.50.p50_ns' "$T/out")" = 2 ] && grep 'latload.50.p50_ns' "$T/out" | grep -q ',1,\|,1\.0*,'; echo $?)" \
	"$(cat "$T/out")"
run "table --latency on a file without it: named, EX_DATAERR" 65 "no case has a latency at load" \
	"$B/ppslab" table "$D/small.json" --latency
run "the usual table of the same file is unchanged" 0 "" "$B/ppslab" table "$F"

# the figure: real gnuplot, a line per size, a hostile cell label escaped
if command -v gnuplot >/dev/null; then
	run "plot --kind latload: PNG" 0 "" "$B/ppslab" plot "$F" --kind latload -o "$T/l.png"
	check "plot --kind latload: a PNG of some size" "$([ "$(stat -c %s "$T/l.png" 2>/dev/null || echo 0)" -gt 5000 ]; echo $?)"
	check "plot --kind latload: a data block per size" \
		"$([ "$(grep -c '^# load_pct' "$T/l.dat")" = 2 ]; echo $?)"
	check "plot --kind latload: typical and worst-case per size" \
		"$([ "$(grep -c "title 'size [0-9]* \(typical\|worst-case\)'" "$T/l.gp")" = 4 ]; echo $?)" \
		"$(grep title "$T/l.gp")"
	# two cells of one size: each line says its cell, whatever its text
	jq '.cases[1].params.size = 64 | .cases[1].params.note = "x'"'"'\nset output \"/tmp/pwn\"" |
	    .cases[1].latency_at_load[].latency[].size = 64' "$F" >"$T/h.json"
	run "plot --kind latload: a hostile cell label" 0 "" "$B/ppslab" plot "$T/h.json" --kind latload -o "$T/h.svg"
	check "plot --kind latload: the label escaped, the SVG closed" \
		"$(grep -q "note=x''" "$T/h.gp" && ! grep -q '^set output "/tmp/pwn' "$T/h.gp" &&
	   grep -q '</svg>' "$T/h.svg" && [ ! -e /tmp/pwn ]; echo $?)" \
		"$(grep title "$T/h.gp" | head -3)"
	run "plot --kind latload on a file without it" 64 "no latency at load" \
		"$B/ppslab" plot "$D/small.json" --kind latload -o "$T/n.png"
	run "report: its latency at load, table and figure" 0 "" "$B/ppslab" report "$F" -o "$T/rep"
	check "report: the section and the figure" \
		"$(grep -q '^### Latency at load (RFC 8219)' "$T/rep/report.md" &&
		   grep -q '(latload-latency-load_pct.png)' "$T/rep/report.md" &&
		   [ -s "$T/rep/latload-latency-load_pct.png" ]; echo $?)"
else
	skip "plot and report of latency at load" "no gnuplot"
fi

# a size axis with "imix" among the numbers: no frame-size figure (its x must be numbers),
# the default figure drawn all the same
if command -v gnuplot >/dev/null; then
	jq '.cases[1].params.size = "imix"' "$F" >"$T/i.json"
	run "plot of a file with size imix: the default figure" 0 "" "$B/ppslab" plot "$T/i.json" -o "$T/i.png"
else
	skip "plot of a file with size imix" "no gnuplot"
fi
printf '{ "matrix": { "size": [64, "IMIX"] } }\n' >"$T/bad4.json"
run "matrix.size: a word other than imix, at its position" 65 \
	'bad4.json:1:28: matrix.size\[1\]: expected a frame size 64..9018 or "imix", got string "IMIX"' \
	"$B/ppslab" run --dry-run "$T/bad4.json"

# the profile: bad values where they are, the time in --dry-run
printf '{ "matrix": { "size": [64] },\n  "trial": { "method": "mlr",\n    "latency_loads": [0, 150, 10, 10] } }\n' >"$T/bad.json"
run "trial.latency_loads: a value out of range at its position" 65 \
	"bad.json:3:26: trial.latency_loads\[1\]: expected a percentage of the NDR in \[0, 100\], got 150" \
	"$B/ppslab" run --dry-run "$T/bad.json"
check "trial.latency_loads: a value listed twice at its position" \
	"$(grep -q 'bad.json:3:35: trial.latency_loads\[3\]: 10 % is listed twice' "$T/err"; echo $?)" "$(cat "$T/err")"
printf '{ "trial": { "method": "fixed", "latency_loads": [50] } }\n' >"$T/bad2.json"
run "trial.latency_loads: only after a search" 65 \
	"bad2.json:1:33: trial.latency_loads: needs a search that finds an NDR" \
	"$B/ppslab" run --dry-run "$T/bad2.json"
printf '{ "trial": { "method": "mlr", "latency_loads": [] } }\n' >"$T/bad3.json"
run "trial.latency_loads: an empty list" 65 "bad3.json:1:48: trial.latency_loads: expected a list" \
	"$B/ppslab" run --dry-run "$T/bad3.json"
printf '{ "trial": { "method": "mlr", "latency_loads": [50],\n  "goals": [{ "name": "PDR", "loss_ratio": 0.005 }, { "name": "lat", "latency": "1ms" }] } }\n' >"$T/bad5.json"
run "trial.latency_loads: goals without a zero-loss one (no NDR to take a share of)" 65 \
	"bad5.json:1:31: trial.latency_loads: needs an NDR: a goal of trial.goals with loss_ratio 0" \
	"$B/ppslab" run --dry-run "$T/bad5.json"
printf '{ "trial": { "method": "mlr", "latency_loads": [50],\n  "goals": [{ "name": "zero" }, { "name": "PDR", "loss_ratio": 0.005 }] } }\n' >"$T/p5.json"
run "trial.latency_loads: the NDR is the zero-loss goal, whatever its name" 0 "" \
	"$B/ppslab" run --dry-run "$T/p5.json"
printf '{ "trial": { "method": "mlr" } }\n' >"$T/p0.json"
printf '{ "trial": { "method": "mlr", "latency_loads": [0, 10, 50, 90, 100] } }\n' >"$T/p1.json"
"$B/ppslab" run --dry-run "$T/p0.json" >"$T/d0" 2>&1
"$B/ppslab" run --dry-run "$T/p1.json" >"$T/d1" 2>&1
s0=$(sed -n 's/.*(\([0-9]*\) s per case.*/\1/p' "$T/d0")
s1=$(sed -n 's/.*(\([0-9]*\) s per case.*/\1/p' "$T/d1")
# five loads of warm-up 1 s + trial 2 s + settle 0.5 s: 17.5 s more a case
check "--dry-run counts the phase's time ($s0 s -> $s1 s a case)" \
	"$([ -n "$s0" ] && [ -n "$s1" ] && [ $((s1 - s0)) -ge 17 ] && [ $((s1 - s0)) -le 18 ]; echo $?)" \
	"$(grep estimated "$T/d0" "$T/d1")"
check "--dry-run says the loads" "$(grep -q 'then latency at 0,10,50,90,100 % of the NDR' "$T/d1"; echo $?)"

# the sink's split by size: an IMIX over udp: on loopback
port=$((20000 + ($$ + 7) % 20000))
"$B/ppslab-sink" -i "udp:127.0.0.1:$port" --dport 0 --duration 30 --delay-by-size --json \
	>"$T/sink" 2>"$T/sink.err" &
sp=$!
ready_wait $sp 30 "$T/sink"
"$B/ppslab-gen" -i "udp:127.0.0.1:$port" --rate 20k --count 1200 --size imix --json >"$T/gen" 2>"$T/gen.err"
grc=$?
wait_for 15 sink_caught_up "$T/sink" 1200
kill -INT $sp
wait $sp
src=$?
sp=
S=$(grep '"type":"summary"' "$T/sink" | jq -c '.streams[0]')
check "sink --delay-by-size: gen and sink exit 0" "$([ "$grc" = 0 ] && [ "$src" = 0 ]; echo $?)" "$(cat "$T/sink.err" "$T/gen.err")"
check "sink --delay-by-size: a row per IMIX size, in size order" \
	"$([ "$(jq -c '[.latency_by_size[].size]' <<<"$S")" = '[64,594,1518]' ]; echo $?)" "$S"
check "sink --delay-by-size: the rows add up to the stream's delays" \
	"$(jq -e '([.latency_by_size[].count] | add) == .latency_ns.count and .latency_other_size_pkts == 0' <<<"$S" >/dev/null; echo $?)"
check "sink --delay-by-size: IMIX weights 7:4:1 of 1,200 frames" \
	"$([ "$(jq -c '[.latency_by_size[] | [.size, .count]] | sort' <<<"$S")" = '[[64,700],[594,400],[1518,100]]' ]; echo $?)" "$S"
"$B/ppslab-sink" -i "udp:127.0.0.1:$port" --dport 0 --duration 0.2s --json >"$T/s2" 2>/dev/null
check "sink without --delay-by-size: no split (its JSON as before)" \
	"$(grep '"type":"summary"' "$T/s2" | jq -e '[.streams[] | has("latency_by_size")] | any | not' >/dev/null; echo $?)"
echo "1..$n"
