#!/usr/bin/env bash
# t_analysis.sh — ppslab table, plot, compare and report from the command line, on the
# realistic results files in tests/data (no root): golden tables, bad files named with
# their JSON path (EX_DATAERR), real gnuplot output (PNG size and pixels, well-formed
# SVG, .gp re-runnable from its directory, hostile titles escaped), compare verdicts
# for a run against itself and against a copy with one cell 10 % slower, the report;
# docs/analysis.md has a section per command and names only options they have.
set -u
B=${PPSLAB_BIN:?}/ppslab
TOP=${PPSLAB_TOP:?}
D=$TOP/tests/data
G=$D/golden
T=$(mktemp -d /tmp/ppslab-t_analysis.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
# PNG width and height from the IHDR chunk (bytes 16..23, big-endian)
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}
# Decodes the PNG with gnuplot itself and prints "nonwhite_fraction distinct_colours"
png_ink() {
	(cd "$(dirname "$1")" && gnuplot -e "set table '$T/px.txt'; plot '$(basename "$1")' binary filetype=png with rgbimage; unset table") 2>/dev/null
	awk 'NF >= 6 && $1 !~ /^#/ { n++; if ($3 != 255 || $4 != 255 || $5 != 255) ink++; c[$3 "," $4 "," $5] = 1 }
	     END { k = 0; for (x in c) k++; printf "%.4f %d", (n ? ink / n : 0), k }' "$T/px.txt"
}
png_ok() {   # png_ok FILE WxH: right size, more than 1 % ink, at least 3 colours
	local f=$1 want=$2 size ink
	[ -s "$f" ] || { echo "missing $f"; return 1; }
	[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "not a PNG"; return 1; }
	size=$(png_size "$f")
	[ "$size" = "$want" ] || { echo "size $size, wanted $want"; return 1; }
	ink=$(png_ink "$f")
	awk -v i="$ink" 'BEGIN { split(i, a, " "); exit !(a[1] > 0.01 && a[2] >= 3) }' ||
		{ echo "blank: ink fraction and colours $ink"; return 1; }
}
# Well-formed XML: xmllint or python3 when installed; always also a tag-balance check in awk
xml_ok() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>&1 || return 1
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>&1 || return 1
	fi
	awk '
	{ doc = doc $0 "\n" }
	END {
		s = doc; depth = 0
		while ((i = index(s, "<")) > 0) {
			s = substr(s, i)
			if (substr(s, 1, 4) == "<!--") { j = index(s, "-->"); if (!j) bad("open comment"); s = substr(s, j + 3); continue }
			if (substr(s, 1, 9) == "<![CDATA[") { j = index(s, "]]>"); if (!j) bad("open CDATA"); s = substr(s, j + 3); continue }
			j = index(s, ">"); if (!j) bad("unclosed tag")
			tag = substr(s, 2, j - 2); s = substr(s, j + 1)
			if (tag ~ /^[?!]/) continue
			q = tag; gsub(/[^"]/, "", q); if (length(q) % 2) bad("odd quotes in <" tag ">")
			if (tag ~ /^\//) { name = substr(tag, 2); sub(/[ \t\n].*/, "", name)
				if (depth == 0 || st[depth] != name) bad("</" name "> closes <" st[depth] ">")
				depth--; continue }
			if (tag ~ /\/$/) continue
			name = tag; sub(/[ \t\n].*/, "", name); st[++depth] = name
		}
		if (depth) bad("<" st[depth] "> never closed")
		exit 0
	}
	function bad(m) { print m; exit 1 }' "$1"
}

# ---- help and usage -----------------------------------------------------------------
for c in table plot compare report; do
	run "$c --help exits 0 with its synopsis" 0 "" "$B" "$c" --help
	grep -q "^usage: ppslab $c " "$T/out" || no "$c --help prints 'usage: ppslab $c'"
	# docs/analysis.md describes the command under its own heading
	grep -q "^## ppslab $c\$" "$TOP/docs/analysis.md"
	check "docs/analysis.md has a section on ppslab $c" $?
	run "$c --bogus is a usage error" 64 "" "$B" "$c" --bogus
done
# and names only options the commands have (each section's heading says whose)
. "$(dirname "$0")/docopts.sh"
stale=$(doc_opts_check "$TOP/docs/analysis.md")
check "docs/analysis.md names only options table, plot, compare and report have" $? "$(echo "$stale" | head -5)"

# ---- table ------------------------------------------------------------------------------
run "table: the 2006 DragonFly sweep's HZ table from a uni/bi sweep" 0 "" "$B" table "$D/hz-dragonfly.json" \
	--row-label HZ --title '' --cols '1 blast=dir=uni:fwd_pps,blast A=dir=bi:fwd_pps_a,blast B=dir=bi:fwd_pps_b'
cmp -s "$T/out" "$G/seed-hz-dragonfly.txt"; check "table: seed table equals the golden text" $? "$(diff "$T/out" "$G/seed-hz-dragonfly.txt" | head -5)"
run "table: --col repeated gives the same table" 0 "" "$B" table "$D/hz-dragonfly.json" --row-label HZ --title '' \
	--col '1 blast=dir=uni:fwd_pps' --col 'blast A=dir=bi:fwd_pps_a' --col 'blast B=dir=bi:fwd_pps_b'
cmp -s "$T/out" "$G/seed-hz-dragonfly.txt"; check "table: --col equals --cols" $?
"$B" table "$D/small.json" >"$T/o1" && cmp -s "$T/o1" "$G/small-default.txt"
check "table: defaults (rows, columns, caption, flagged footnote) equal the golden text" $?
"$B" table "$D/small.json" --metric fwd_pps,loss_pct,lat_p99_ns -f md >"$T/o2" && cmp -s "$T/o2" "$G/small-metrics.md"
check "table: Markdown equals the golden file" $? "$(diff "$T/o2" "$G/small-metrics.md" | head -5)"
"$B" table "$D/small.json" -f csv --show minmax,stdev,n,flags >"$T/o3" && cmp -s "$T/o3" "$G/small.csv"
check "table: CSV equals the golden file" $?
"$B" table "$D/small.json" --rows burst_max --cols pollhz --show minmax,stdev,n >"$T/o4" && cmp -s "$T/o4" "$G/small-minmax.txt"
check "table: min–max, ±stdev and n equal the golden text" $?
run "table: --where picks a block" 0 "" "$B" table "$D/sweep.json" --where rules=10,burst_max=150 --rows pollhz --title ''
lines=$(wc -l <"$T/out"); grep -q '^3000 ' "$T/out"; r=$?
check "table: --where rules=10,burst_max=150 gives one column of 5 rows" $(( r || lines != 6 )) "$(cat "$T/out")"
run "table: html" 0 "" "$B" table "$D/small.json" -f html
grep -q '<td class="r">149,990\*</td>' "$T/out"; check "table: html cells escaped and right-aligned" $?
run "table: unknown axis" 64 "--rows hz: .*has no such axis \(axes: pollhz, burst_max\)" "$B" table "$D/small.json" --rows hz
run "table: unknown metric" 64 "--metric rx_pps: no case .* has this metric \(metrics: fwd_pps, loss_pct, lat_p99_ns\)" \
	"$B" table "$D/small.json" --metric rx_pps
run "table: a value no case has" 64 "--where pollhz=3000: no case .* \(values: 1000, 2000\)" "$B" table "$D/small.json" --where pollhz=3000
run "table: bad --format" 64 "--format xls: expected text, md, csv or html" "$B" table "$D/small.json" -f xls
run "table: bad --show" 64 "--show p99: expected" "$B" table "$D/small.json" --show p99
run "table: bad column spec" 64 "column 'oops:fwd_pps': expected LABEL=" "$B" table "$D/small.json" --cols 'oops:fwd_pps'
run "table: two files" 64 "exactly one results file" "$B" table "$D/small.json" "$D/small.json"

# ---- bad results files: FILE: JSON path: what was expected, EX_DATAERR ------------------
printf '{"schema": "ppslab/result",\n "schema_version": "1.0.0",\n "cases": [,]}\n' >"$T/notjson.json"
run "bad file: not JSON names file:line:column" 65 "notjson.json:3:[0-9]+: not valid JSON" "$B" table "$T/notjson.json"
echo '{"schema":"iperf3","schema_version":"1.0.0","cases":[]}' >"$T/schema.json"
run "bad file: wrong schema" 65 "schema.json: \\\$\.schema: expected \"ppslab/result\", got \"iperf3\"" "$B" table "$T/schema.json"
echo '{"schema":"ppslab/result","schema_version":"3.1.0","cases":[]}' >"$T/ver.json"
run "bad file: newer major version" 65 "ver.json: \\\$\.schema_version: expected major version 1" "$B" plot "$T/ver.json"
echo '{"schema":"ppslab/result","schema_version":"1.0.0"}' >"$T/nocases.json"
run "bad file: missing cases" 65 "nocases.json: \\\$\.cases: missing" "$B" compare "$T/nocases.json" "$D/small.json"
jq '.cases[4].metrics.fwd_pps = "150020"' "$D/small.json" >"$T/type.json"
run "bad file: a metric of the wrong type" 65 "type.json: \\\$\.cases\[4\]\.metrics\.fwd_pps: expected a number or null, got a string" \
	"$B" compare "$D/small.json" "$T/type.json"
jq 'del(.cases[2].params)' "$D/small.json" >"$T/noparams.json"
run "bad file: a case without params" 65 "\\\$\.cases\[2\]\.params: missing" "$B" report "$T/noparams.json" -o "$T/r0"
run "bad file: missing file is EX_NOINPUT" 66 "nothere.json: No such file" "$B" table "$T/nothere.json"

# ---- plot -------------------------------------------------------------------------------
mkdir -p "$T/p"
run "plot: line PNG of pps vs pollhz per burst_max" 0 "" "$B" plot "$D/sweep.json" --where rules=0 -o "$T/p/line.png"
msg=$(png_ok "$T/p/line.png" 900x540); check "plot: line.png is 900x540 and not blank" $? "$msg"
[ -s "$T/p/line.gp" ] && [ -s "$T/p/line.dat" ]; check "plot: line.gp and line.dat next to the image" $?
grep -q "^plot 'line.dat' index 0" "$T/p/line.gp" && grep -q "^set output 'line.png'" "$T/p/line.gp" &&
	! grep -q "$T" "$T/p/line.gp"
check "plot: the .gp uses relative paths only" $? "$(grep -n "plot\|output" "$T/p/line.gp")"
grep -q "^1000 49863 49591 50057 3 \"1000\"" "$T/p/line.dat"
check "plot: .dat holds median, min, max and n (pollhz 1000, burst_max 50)" $? "$(head -4 "$T/p/line.dat")"
rm -f "$T/p/line.png"
(cd "$T/p" && gnuplot line.gp) 2>"$T/err"
msg=$(png_ok "$T/p/line.png" 900x540); check "plot: the .gp re-runs from its directory" $? "$msg" "$(cat "$T/err")"
run "plot: SVG" 0 "" "$B" plot "$D/ladder.json" --kind load -o "$T/p/load.svg"
msg=$(xml_ok "$T/p/load.svg"); check "plot: load.svg is well-formed XML" $? "$msg"
grep -q '<svg' "$T/p/load.svg" && grep -q 'MFR' "$T/p/load.svg"
check "plot: the load plot marks the maximum forwarding rate" $?
run "plot: heatmap" 0 "" "$B" plot "$D/sweep.json" --kind heatmap --where rules=10 -o "$T/p/heat.png" --size 640x480
msg=$(png_ok "$T/p/heat.png" 640x480); check "plot: heat.png honours --size and is not blank" $? "$msg"
run "plot: frame size against the 1 GbE line rate" 0 "" "$B" plot "$D/framesize.json" --kind framesize --link 1G -o "$T/p/fs.png"
msg=$(png_ok "$T/p/fs.png" 900x540); check "plot: fs.png not blank" $? "$msg"
grep -q '^link_bps = 1000000000$' "$T/p/fs.gp" && grep -q 'maxfps(x) = link_bps / ((x + 20) \* 8)' "$T/p/fs.gp"
check "plot: the line-rate curve counts 20 bytes of preamble and gap" $?
run "plot: box plot of repetitions" 0 "" "$B" plot "$D/sweep.json" --kind box --where rules=0,burst_max=150 -o "$T/p/box.png"
msg=$(png_ok "$T/p/box.png" 900x540); check "plot: box.png not blank" $? "$msg"
grep -q "candlesticks" "$T/p/box.gp"; check "plot: boxes drawn from quartiles (candlesticks: works with 3 repetitions)" $?
mkdir -p "$T/tmp"
run "plot: dumb terminal on stdout" 0 "" env TMPDIR="$T/tmp" "$B" plot "$D/hz-dragonfly.json" --by dir --metric fwd_pps_a --size 90x25
grep -q "fwd_pps_a vs pollhz" "$T/out" && grep -q "dir=bi" "$T/out" && [ "$(wc -l <"$T/out")" -ge 20 ]
check "plot: dumb plot has its title and legend" $? "$(head -5 "$T/out")"
[ -z "$(ls -A "$T/tmp")" ]; check "plot: the temporary .gp/.dat of a terminal plot are removed" $? "$(ls -R "$T/tmp")"
run "plot: an axis that still varies" 64 "axis rules still varies: fix it with --where rules=VALUE" "$B" plot "$D/sweep.json" -o "$T/p/x.png"
[ ! -e "$T/p/x.gp" ] && [ ! -e "$T/p/x.dat" ]; check "plot: a refused request leaves no half-written .gp/.dat" $?
run "plot: heatmap needs two axes" 64 "needs two axes" "$B" plot "$D/framesize.json" --kind heatmap -o "$T/p/x.png"
run "plot: unknown output type" 64 "expected NAME.png, NAME.svg or NAME.txt" "$B" plot "$D/framesize.json" -o "$T/p/x.jpg"
run "plot: bad --link" 64 "--link fast: expected" "$B" plot "$D/framesize.json" --kind framesize --link fast
run "plot: without gnuplot" 69 "gnuplot did not run" env PATH=/nonexistent "$B" plot "$D/framesize.json" --kind framesize -o "$T/p/nog.png"

# hostile text from a results file cannot escape gnuplot's strings or run commands
jq --arg os "Evil'); system('touch PWNED'); print('\"x
y" --arg v "a'b\"c\$(touch PWNED2)" \
	'.environment.dut.os.name = $os | .run_id = "r'"'"'1" | .cases[0].params.pollhz = $v | .matrix.axes.pollhz[0] = $v' \
	"$D/small.json" >"$T/evil.json"
mkdir -p "$T/e"
run "plot: quotes, newlines and commands in titles and values are plotted as text" 0 "" \
	"$B" plot "$T/evil.json" --where burst_max=150 -o "$T/e/evil.png"
[ ! -e "$T/e/PWNED" ] && [ ! -e "$T/e/PWNED2" ] && [ ! -e PWNED ] && [ ! -e PWNED2 ]
check "plot: no command from the results file ran" $?
grep -q "Evil''); system(''touch PWNED''); print(''\"x y" "$T/e/evil.gp"
check "plot: single quotes doubled, newline flattened in the .gp" $? "$(grep title "$T/e/evil.gp")"
msg=$(png_ok "$T/e/evil.png" 900x540); check "plot: evil.png drawn" $? "$msg"

# ---- compare ----------------------------------------------------------------------------
run "compare: a run with itself" 0 "" "$B" compare "$D/sweep.json" "$D/sweep.json" -o "$T/self.json" --fail-on regression,progression
bad=$(jq '[.rows[] | select(.verdict != "EQUIVALENT" and .verdict != "INCONCLUSIVE")] | length' "$T/self.json")
rows=$(jq '.rows | length' "$T/self.json")
check "compare: itself is EQUIVALENT or INCONCLUSIVE in all $rows rows" $(( bad != 0 || rows != 20 ))
jq '(.cases[] | select(.params.pollhz == 3000 and .params.burst_max == 150 and .params.rules == 0) | .metrics.fwd_pps) |= . * 0.9' \
	"$D/sweep.json" >"$T/slow.json"
run "compare: --fail-on regression exits 1 for a 10 % slower cell" 1 "1 cell\(s\) REGRESSION in .*slow.json" \
	"$B" compare "$D/sweep.json" "$T/slow.json" -o "$T/slow-cmp.json" --fail-on regression --plot "$T/p/ab.png"
reg=$(jq -c '[.rows[] | select(.verdict == "REGRESSION") | .key]' "$T/slow-cmp.json")
check "compare: exactly that cell is a REGRESSION" "$([ "$reg" = '["pollhz=3000/burst_max=150/rules=0"]' ]; echo $?)" "$reg"
ratio=$(jq '.rows[] | select(.verdict == "REGRESSION") | .ratio * 1000 | round' "$T/slow-cmp.json")
check "compare: its ratio is 0.900" "$([ "$ratio" = 900 ]; echo $?)" "$ratio"
grep -q "pollhz=3000/burst_max=150/rules=0  *fwd_pps .* 0\.900  \[0\.8[0-9]*, 0\.9[0-9]*\] .* REGRESSION" "$T/out"
check "compare: the text table shows ratio, interval and verdict" $? "$(grep REGRESSION "$T/out")"
grep -q "^DUT OS  *Linux  *Linux" "$T/out" && grep -q "^kern.polling.each_burst  *5  *5" "$T/out"
check "compare: environments side by side, tunables included" $?
msg=$(png_ok "$T/p/ab.png" 900x540); check "compare: the bar plot is drawn" $? "$msg"
grep -q 'histogram errorbars' "$T/p/ab.gp" && grep -q '3000/150/0\*' "$T/p/ab.dat"
check "compare: bars with error bars, the regression marked with *" $?
run "compare: without --fail-on the exit status is 0" 0 "" "$B" compare "$D/sweep.json" "$T/slow.json"
jqs -e '.schema == "ppslab/compare" and .schema_version == "1.0.0" and .fdr == "BH" and .margin == 0.02 and .alpha == 0.05
	and .baseline_run_id == "sweep-2026-11-30T10:00:00Z-a1b2c3" and (.candidate_run_id | type) == "string"
	and all(.rows[]; has("key") and has("params") and has("metric") and has("n_a") and has("n_b") and has("ratio")
		and has("ci_lo") and has("ci_hi") and has("p") and has("p_adj") and has("verdict")
		and has("csit_delta_pct") and has("csit_sdelta_pct"))' "$T/slow-cmp.json" >/dev/null
check "compare: JSON is ppslab/compare with the documented fields" $?
# the same run written with the axes and params keys in the opposite order
jq '.matrix.axes = (.matrix.axes | to_entries | reverse | from_entries) | .cases[].params |= (to_entries | reverse | from_entries)' \
	"$D/sweep.json" >"$T/reordered.json"
run "compare: axis order does not matter" 0 "" "$B" compare "$D/sweep.json" "$T/reordered.json" -o "$T/re.json"
jqs -e '(.rows | length) == 20 and (.only_baseline | length) == 0 and (.only_candidate | length) == 0 and ([.rows[] | select(.verdict == "EQUIVALENT")] | length) == 20' \
	"$T/re.json" >/dev/null
check "compare: every cell of the reordered copy matches, EQUIVALENT" $?
run "compare: DragonFly vs FreeBSD 7" 0 "" "$B" compare "$D/hz-dragonfly.json" "$D/hz-freebsd7.json" -f md -o "$T/os.json"
jqs -e '(.only_baseline | length) == 6 and (.only_candidate | length) == 2' "$T/os.json" >/dev/null &&
	grep -q "Only in hz-freebsd7.json (2 cells): \`pollhz=NP/dir=uni\`" "$T/out" && grep -q '^| DUT OS ' "$T/out"
check "compare: cells on one side only are listed; Markdown output" $?
run "compare: --fail-on missing" 1 "only in" "$B" compare "$D/hz-dragonfly.json" "$D/hz-freebsd7.json" --fail-on missing
run "compare: three files" 0 "" "$B" compare "$D/sweep.json" "$D/sweep.json" "$T/slow.json" -o "$T/three.json" --no-env
jqs -e '(.candidates | length) == 2 and (.rows | length) == 40 and .counts.REGRESSION == 1' "$T/three.json" >/dev/null
check "compare: several candidates against one baseline" $?
run "compare: csv" 0 "" "$B" compare "$D/sweep.json" "$T/slow.json" -f csv
head -1 "$T/out" | grep -q '^cell,metric,n_a,n_b,median_a,median_b,ratio,ci_lo,ci_hi,p,p_adj,csit_delta_pct,csit_sdelta_pct,verdict,note'
check "compare: CSV header" $?
run "compare: a single file" 64 "a baseline and" "$B" compare "$D/sweep.json"
run "compare: bad --margin" 64 "--margin 2x: expected" "$B" compare "$D/sweep.json" "$D/sweep.json" --margin 2x
run "compare: bad --fail-on" 64 "--fail-on regresion: expected" "$B" compare "$D/sweep.json" "$D/sweep.json" --fail-on regresion
jq '.cases[].metrics |= (if . then del(.fwd_pps) else . end)' "$D/small.json" >"$T/norate.json"
run "compare: no common rate metric" 64 "share none of the usual rate metrics .*common: loss_pct, lat_p99_ns" \
	"$B" compare "$T/norate.json" "$T/norate.json" --no-env
run "compare: --metric picks any common metric" 0 "" "$B" compare "$T/norate.json" "$T/norate.json" --metric lat_p99_ns -o -
jqs -e '[.rows[] | select(.metric == "lat_p99_ns" and .lower_is_better)] | length == 4' "$T/out" >/dev/null
check "compare: -o - prints the JSON; latency is lower-is-better" $?

# ---- a real sweep written by `ppslab run` --------------------------------------------------
# Linux kernel forwarding in the embedded lab as an external DUT, nftables rules that never
# match, rules 0/50 × 20k/40k offered, 3 repetitions (made with the issue-6 `ppslab run`)
R=$D/real-linux-fwd.json
run "real sweep: table" 0 "" "$B" table "$R" -f csv --show n
awk -F, 'NR > 1 { sub(/\r$/, ""); $0 = $0; if ($2 < 19000 || $2 > 21000 || $4 < 38000 || $4 > 42000 || $3 != 3 || $5 != 3) bad++; rows++ }
	END { exit !(rows == 2 && !bad) }' "$T/out"
check "real sweep: fwd_pps medians near the offered 20k and 40k over 3 repetitions" $? "$(cat "$T/out")"
run "real sweep: plot the string-valued rate axis" 0 "" "$B" plot "$R" --x rate --by rules -o "$T/p/real.png"
msg=$(png_ok "$T/p/real.png" 900x540); check "real sweep: plot drawn" $? "$msg"
run "real sweep: compared with itself" 0 "" "$B" compare "$R" "$R" --metric fwd_pps,loss_pct,lat_p99_ns -o "$T/real.json"
jqs -e '(.rows | length) == 12 and all(.rows[]; .verdict == "EQUIVALENT" or .verdict == "INCONCLUSIVE")' "$T/real.json" >/dev/null
check "real sweep: itself is EQUIVALENT or INCONCLUSIVE (zero loss on both sides is EQUIVALENT)" $?

# ---- report ------------------------------------------------------------------------------
run "report: with a comparison" 0 "" "$B" report "$T/slow.json" --compare "$D/sweep.json" -o "$T/rep"
[ -s "$T/rep/report.md" ] && [ -s "$T/rep/report.html" ]; check "report: report.md and report.html" $?
for s in "## Environment" "## Method" "### Deviations from RFC 2544" "10 s trials instead of 60 s" "RFC 2544 §9.1" "## Matrix" "## Results" \
	"## Plots" "## Flagged and failed cases" "## Comparison with sweep.json" "REGRESSION"; do
	grep -qF -- "$s" "$T/rep/report.md" || no "report: report.md has '$s'"
done
ok "report: sections present"
missing=0
for img in $(grep -o '](\([^)]*\.png\))' "$T/rep/report.md" | sed 's/^](//; s/)$//'); do
	[ -s "$T/rep/$img" ] && [ -s "$T/rep/${img%.png}.gp" ] && [ -s "$T/rep/${img%.png}.dat" ] || missing=$((missing + 1))
done
nimg=$(grep -c '^!\[' "$T/rep/report.md")
check "report: all $nimg plots referenced exist with .gp and .dat" $(( missing != 0 || nimg < 5 ))
grep -q '<table>' "$T/rep/report.html" && grep -q '<img src="compare-fwd_pps.png"' "$T/rep/report.html" &&
	grep -q '</html>' "$T/rep/report.html"
check "report: HTML with tables and images" $?
run "report: tables only" 0 "" "$B" report "$D/framesize.json" -o "$T/rep2" --no-plots
! grep -q '## Plots' "$T/rep2/report.md" && grep -q 'Goal PDR accepts 0.5 % loss' "$T/rep2/report.md"
check "report: --no-plots, and the PDR goal is listed as a deviation" $?
run "report: unknown metric" 64 "--metric nope" "$B" report "$D/framesize.json" -o "$T/rep3" --metric nope

echo "1..$n"
