#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_analysis.sh — ppslab table, plot, compare and report from the command line, on the
# realistic results files in tests/data (no root): golden tables, bad files named with
# their JSON path (EX_DATAERR), real gnuplot output (PNG size and pixels, well-formed
# SVG, .gp re-runnable from its directory, hostile titles escaped), the plot rules per
# kind on fixtures made to trigger them (small multiples, log axes with 0 apart, ranges
# that never go negative, references clipped with a note, identical series told apart,
# the polling bound and where the rate leaves it, the rule-cost fit against the a and b
# the data was made from, the rig's ceiling), no text cut at an image's edge, compare
# verdicts for a run against itself and against a copy with one cell 10 % slower, the
# report (headline, units for people, one self-contained HTML page); docs/analysis.md has
# a section per command and names only options they have.
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
# Ink at the image's edges: pixels not white in the outer 3 columns or 2 rows (text cut
# off at an edge leaves some there; the figures keep a margin all round)
png_edges() {
	png_ink "$1" >/dev/null
	awk -v W="${2%x*}" -v H="${2#*x}" 'NF >= 6 && $1 !~ /^#/ {
		x = $1; y = $2
		if ((x < 3 || x >= W - 3 || y < 2 || y >= H - 2) && ($3 != 255 || $4 != 255 || $5 != 255)) e++
	} END { print e + 0 }' "$T/px.txt"
}
# "LOW HIGH" of a gnuplot script's last "set Xrange [LOW:HIGH]" (AXIS x or y)
range_of() {
	sed -n "s/^set $1range \\[\\([^:]*\\):\\([^]]*\\)\\]\$/\\1 \\2/p" "$2" | tail -n 1
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
lines=$(sed '/^Deviations from RFC 2544:$/,$d' "$T/out" | wc -l); grep -q '^3000 ' "$T/out"; r=$?
check "table: --where rules=10,burst_max=150 gives one column of 5 rows" $(( r || lines != 6 )) "$(cat "$T/out")"
# latency: one unit per table, named, 3 significant digits; a failed repetition marked
jq '(.cases[] | select(.params.pollhz == 1000 and .params.burst_max == 50) | .metrics.lat_p50_ns) |= 813694975
	| (.cases[] | select(.params.pollhz == 2000 and .params.burst_max == 50) | .metrics.lat_p50_ns) |= 471000' "$D/sweep.json" >"$T/lat.json"
run "table: latency in one unit" 0 "" "$B" table "$T/lat.json" --metric lat_p50_ns --where rules=0
grep -q '^lat_p50_ns in ms, median of 3 repetitions (rules=0)$' "$T/out" && grep -q '^1000  *814  *0.500$' "$T/out" &&
	grep -q '^2000  *0.471  *0.250\*$' "$T/out" && ! grep -q '813,694,975' "$T/out"
check "table: nanoseconds in ms for the whole table, 3 significant digits, the unit in the caption" $? "$(cat "$T/out")"
run "table: latency beside other metrics" 0 "" "$B" table "$D/small.json" --metric fwd_pps,lat_p99_ns --where burst_max=50
grep -q '^pollhz  *fwd_pps  *lat_p99_ns (µs)$' "$T/out" && grep -q '^2000  *99,975†  *60.8†$' "$T/out" &&
	grep -q '^† a repetition failed (1 cell): the median is of the others$' "$T/out"
check "table: a latency column names its unit; a cell with a failed repetition is marked †" $? "$(cat "$T/out")"
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
grep -q "^plot 'line.dat' index 0" "$T/p/line.gp" && grep -q "ppslab_output = 'line.png'$" "$T/p/line.gp" && grep -q '^set output ppslab_output$' "$T/p/line.gp" &&
	! grep -q "$T" "$T/p/line.gp"
check "plot: the .gp uses relative paths only" $? "$(grep -n "plot\|output" "$T/p/line.gp")"
grep -q "^1000 49863 49591 50057 3 50000 NaN \"1000\"" "$T/p/line.dat"
check "plot: .dat holds median, min, max, n and the polling bound (pollhz 1000, burst_max 50)" $? "$(head -4 "$T/p/line.dat")"
rm -f "$T/p/line.png"
(cd "$T/p" && gnuplot line.gp) 2>"$T/err"
msg=$(png_ok "$T/p/line.png" 900x540); check "plot: the .gp re-runs from its directory" $? "$msg" "$(cat "$T/err")"
run "plot: SVG" 0 "" "$B" plot "$D/ladder.json" --kind load -o "$T/p/load.svg"
msg=$(xml_ok "$T/p/load.svg"); check "plot: load.svg is well-formed XML" $? "$msg"
grep -q '<svg' "$T/p/load.svg" && grep -q 'MFR' "$T/p/load.svg"
check "plot: the load plot marks the maximum forwarding rate" $?
run "plot: heatmap" 0 "" "$B" plot "$D/sweep.json" --kind heatmap --where rules=10 -o "$T/p/heat.png" --image-size 640x480
msg=$(png_ok "$T/p/heat.png" 640x480); check "plot: heat.png honours --image-size and is not blank" $? "$msg"
run "plot: frame size against the 1 GbE line rate" 0 "" "$B" plot "$D/framesize.json" --kind framesize --link 1G -o "$T/p/fs.png"
msg=$(png_ok "$T/p/fs.png" 900x540); check "plot: fs.png not blank" $? "$msg"
grep -q '^link_bps = 1000000000$' "$T/p/fs.gp" && grep -q 'maxfps(x) = link_bps / ((x + 20) \* 8)' "$T/p/fs.gp"
check "plot: the line-rate curve counts 20 bytes of preamble and gap" $?
run "plot: box plot of repetitions" 0 "" "$B" plot "$D/sweep.json" --kind box --where rules=0,burst_max=150 -o "$T/p/box.png"
msg=$(png_ok "$T/p/box.png" 900x540); check "plot: box.png not blank" $? "$msg"
grep -q "candlesticks" "$T/p/box.gp"; check "plot: boxes drawn from quartiles (candlesticks: works with 3 repetitions)" $?
mkdir -p "$T/tmp"
run "plot: dumb terminal on stdout (--size, the older name of --image-size)" 0 "" env TMPDIR="$T/tmp" "$B" plot "$D/hz-dragonfly.json" --by dir --metric fwd_pps_a --size 90x25
grep -q "Forwarded rate, blast A vs polling clock" "$T/out" && grep -q "dir=bi" "$T/out" && [ "$(wc -l <"$T/out")" -ge 20 ]
check "plot: dumb plot has its title and legend" $? "$(head -5 "$T/out")"
[ -z "$(ls -A "$T/tmp")" ]; check "plot: the temporary .gp/.dat of a terminal plot are removed" $? "$(ls -R "$T/tmp")"
# more axes vary than a line shows: one panel per value of the rest, every cell drawn
run "plot: small multiples when an axis is left over" 0 "" "$B" plot "$D/sweep.json" -o "$T/p/multi.png"
msg=$(png_ok "$T/p/multi.png" "1000x$(png_size "$T/p/multi.png" | cut -dx -f2)"); check "plot: two panels side by side, 1000 pixels wide by default" $? "$msg"
# the panels keep 60 % of the height, the notes, the key and the panel titles the rest
share=$(sed -n '/^# the panels/,$p' "$T/p/multi.gp" | awk '/^set tmargin at screen/ && !t { t = $5 } /^set bmargin at screen/ && !b { b = $5 } END { print t - b }')
h=$(png_size "$T/p/multi.png" | cut -dx -f2)
awk -v s="$share" 'BEGIN { exit !(s >= 0.6) }' && [ "$h" -gt 460 ]
check "plot: with its notes and shared key the panels keep $share of the height (the image grew to $h pixels)" $?
grep -q '^set multiplot' "$T/p/multi.gp" && grep -q "^set title 'rules=0'" "$T/p/multi.gp" &&
	grep -q "^set title 'rules=10'" "$T/p/multi.gp" && [ "$(grep -c '^# panel' "$T/p/multi.dat")" = 4 ]
check "plot: a panel per rules value, a series per burst_max in each (4 blocks)" $? "$(grep -n 'title\|multiplot' "$T/p/multi.gp" | head)"
sed -n '/^# the panels/,$p' "$T/p/multi.gp" | grep '^set yrange' >"$T/yr"
[ "$(wc -l <"$T/yr")" = 1 ] && grep -q '^set yrange \[0:' "$T/yr"
check "plot: the panels share one y range, from 0" $?
grep -q 'set key center center horizontal' "$T/p/multi.gp" && grep -q 'unset key' "$T/p/multi.gp"
check "plot: one key for all panels" $?
run "plot: small multiples in the terminal" 0 "" env TMPDIR="$T/tmp" "$B" plot "$D/sweep.json" --image-size 100x44
grep -q "rules=0" "$T/out" && grep -q "rules=10" "$T/out" && ! awk 'length($0) > 100 { exit 1 }' "$T/out" 2>/dev/null &&
	! grep -q "'" "$T/out" 2>/dev/null
check "plot: dumb small multiples: both panels, no line wider than 100 characters" $? "$(head -5 "$T/out")"
# 30 panels are too many for one figure: refused, naming the axis to fix
jq -n '{schema: "ppslab/result", schema_version: "1.0.0", matrix: {axes: {x: [1, 2], b: [1, 2], k: [range(30)]}},
	cases: [range(30) as $k | range(2) as $x | range(2) as $b | {params: {x: ($x + 1), b: ($b + 1), k: $k}, status: "ok", metrics: {fwd_pps: 1000}}]}' >"$T/many.json"
run "plot: more panels than a figure takes" 64 "30 panels, one per value of k: more than 24; fix one with --where k=VALUE" \
	"$B" plot "$T/many.json" --x x --by b -o "$T/p/x.png"
[ ! -e "$T/p/x.gp" ] && [ ! -e "$T/p/x.dat" ]; check "plot: a refused request leaves no half-written .gp/.dat" $?

# ---- plot rules per kind, on fixtures made to trigger them ------------------------------
# line over firewall rules 0..20,000 made from rate = 1/(a + b·N), a = 1.5 µs, b = 1.3 ns
run "plot rules: rule scaling" 0 "" "$B" plot "$D/rules.json" -o "$T/p/rules.png"
msg=$(png_ok "$T/p/rules.png" 900x540); check "plot rules: rules.png is 900x540" $? "$msg"
grep -q '^set logscale x$' "$T/p/rules.gp" && grep -q "^set xtics ('0' 25, '100' 100, '1k' 1000, '5k' 5000, '10k' 10000, '20k' 20000)" "$T/p/rules.gp" &&
	grep -q '^X0 = 25$' "$T/p/rules.gp" && grep -q '^set arrow 1 from 50, graph 0' "$T/p/rules.gp"
check "plot rules: x over four decades is logarithmic, 0 drawn apart at X0 past a dotted line" $? "$(grep -n 'logscale\|xtics\|X0\|arrow' "$T/p/rules.gp")"
range_of x "$T/p/rules.gp" | awk '{ exit !($1 > 0) }' && grep -q '^set yrange \[0:' "$T/p/rules.gp" &&
	! grep -q 'logscale y' "$T/p/rules.gp"
check "plot rules: no axis reaches below 0; y (one decade) stays linear from 0" $? "$(grep -n 'range' "$T/p/rules.gp")"
grep -q "title 'fit 1/(a + b·N): b = 1.3 ns per rule per frame'" "$T/p/rules.gp" &&
	grep -q "title 'a = 1.5 µs, R² = 1.000, farthest point 0 %'" "$T/p/rules.gp" &&
	grep -q '^# fit rate = 1/(a + b\*N): a = 1.5e-06 s, b = 1.3e-09 s per rule per frame, R^2 = 1.0000$' "$T/p/rules.dat"
check "plot rules: the fit recovers a = 1.5 µs and b = 1.3 ns per rule per frame, with R²" $? "$(grep -n 'fit' "$T/p/rules.gp" "$T/p/rules.dat")"
grep -q "the rig''s own ceiling, 1.63 Mpps, is above the plotted range" "$T/p/rules.gp" && ! grep -q '^CEILING' "$T/p/rules.gp"
check "plot rules: a ceiling 2.4x the data is not drawn (it would squeeze them) but noted" $?
range_of y "$T/p/rules.gp" | awk '{ exit !($2 < 1.8 * 666667) }'
check "plot rules: the data keep more than half the height" $? "$(grep yrange "$T/p/rules.gp")"
run "plot rules: a counter over four decades with zeros" 0 "" "$B" plot "$D/rules.json" --metric rut.lost_polls -o "$T/p/lost.png"
grep -q '^set logscale y$' "$T/p/lost.gp" && grep -q "^set ytics add ('0' " "$T/p/lost.gp" && grep -q 'zy(v) = (v <= 0 ? Y0 : v)' "$T/p/lost.gp" &&
	grep -q "y logarithmic: 0 is drawn apart at the bottom" "$T/p/lost.gp"
check "plot rules: y over four decades is logarithmic, 0 drawn apart and said so" $? "$(grep -n 'logscale\|ytics\|zy' "$T/p/lost.gp")"
# pollhz sweep: the polling bound per series, where the rate leaves it, the rig's ceiling
run "plot rules: the polling bound" 0 "" "$B" plot "$D/hz-sweep.json" -o "$T/p/hz.png"
grep -q "u (zx(\$1)):(zy(\$6)) w l lw 7 lc rgb '#a09400d3' title 'pollhz × burst_max, direction=uni'" "$T/p/hz.gp" &&
	grep -q "title 'pollhz × burst_max, direction=bi'" "$T/p/hz.gp" &&
	grep -q '^250 37462 37462 37462 1 37500 NaN "250"' "$T/p/hz.dat" && grep -q '^250 74925 74925 74925 1 75000 NaN "250"' "$T/p/hz.dat"
check "plot rules: pollhz × burst_max (150, from the profile) drawn per series, twice for bi" $? "$(grep -n 'burst_max' "$T/p/hz.gp" | head -3)" "$(head -4 "$T/p/hz.dat")"
grep -q "title 'direction=uni leaves the bound at pollhz=2000'" "$T/p/hz.gp" && grep -q "title 'direction=bi leaves the bound at pollhz=1000'" "$T/p/hz.gp"
check "plot rules: the point where each series leaves the bound is marked and named" $?
grep -q '^CEILING = 310000$' "$T/p/hz.gp" && grep -q "CEILING w l dt 4 lw 1.5 lc 'gray50' title 'rig ceiling 310 kpps'" "$T/p/hz.gp"
check "plot rules: the rig's ceiling, within range, is a labelled line" $?
range_of y "$T/p/hz.gp" | awk '{ exit !($2 <= 1.8 * 265000 * 1.09) }'
check "plot rules: bounds far above the data do not stretch the y axis" $? "$(grep yrange "$T/p/hz.gp")"
# frame size: NDR = PDR, far below a 10 GbE line rate
run "plot rules: frame size, NDR = PDR, 10 GbE" 0 "" "$B" plot "$D/fs10g.json" --kind framesize --x size -o "$T/p/fs10.png"
grep -q "PDR = NDR at every frame size" "$T/p/fs10.gp" && grep -q "pt 4 ps 2.2 lw 1.5 dt 2 lc rgb '#009e73' title 'PDR throughput (packets/s)'" "$T/p/fs10.gp"
check "plot rules: identical series are told apart (open, larger markers) and said to be equal" $? "$(grep -n 'PDR' "$T/p/fs10.gp")"
grep -q "the 10 GbE line rate (14.9 Mpps at 64 B to 813 kpps at 1518 B) is above the plotted range" "$T/p/fs10.gp" &&
	! grep -q '^plot.*maxfps\|^     maxfps' "$T/p/fs10.gp" && range_of y "$T/p/fs10.gp" | awk '{ exit !($2 < 600000) }'
check "plot rules: a line rate 30x the data is left out and noted; y fits the data" $? "$(grep -n 'yrange\|line rate' "$T/p/fs10.gp")"
run "plot rules: frame size on 1 GbE" 0 "" "$B" plot "$D/framesize.json" --kind framesize -o "$T/p/fs1.png"
grep -q "the 1 GbE line rate is cut at the top: 1.49 Mpps at 64 B" "$T/p/fs1.gp" && grep -q "maxfps(x) w l dt 2 lw 2 lc 'gray30' title 'theoretical maximum, 1 GbE'" "$T/p/fs1.gp"
check "plot rules: a line rate partly in range is drawn and cut at the top, with a note" $?
grep -q '^set logscale x$' "$T/p/fs1.gp" && grep -q "^set xtics ('64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '1280' 1280, '1518' 1518)" "$T/p/fs1.gp"
check "plot rules: frame sizes on a log axis with a tic at each size" $?
# load: rate and loss against the offered load, from 0
grep -q '^set xrange \[[0-9]' "$T/p/load.gp" && grep -q '^set yrange \[0:' "$T/p/load.gp" && grep -q "title 'MFR 549 kpps at 600 kpps offered'" "$T/p/load.gp"
check "plot rules: load axes start at 0 or above; the MFR marked" $? "$(grep -n 'range\|MFR' "$T/p/load.gp")"
# box: latency in µs, not ns
run "plot rules: box plot of a latency" 0 "" "$B" plot "$D/framesize.json" --kind box --metric lat_p99_ns -o "$T/p/lat.png"
grep -q "^set ylabel 'latency, 99th percentile (µs)'" "$T/p/lat.gp" && grep -q '# y, low and high in units of 1000 ns\|^set yrange \[0:5' "$T/p/lat.gp"
check "plot rules: nanoseconds shown as µs" $? "$(grep -n 'ylabel\|yrange' "$T/p/lat.gp")"
# heatmap: panels share one colour scale, shown once
run "plot rules: heatmap panels" 0 "" "$B" plot "$D/sweep.json" --kind heatmap -o "$T/p/heat2.png"
msg=$(png_ok "$T/p/heat2.png" 1000x460); check "plot rules: heatmap small multiples drawn" $? "$msg"
[ "$(grep -c '^set cbrange' "$T/p/heat2.gp")" = 1 ] && grep -q '^unset colorbox' "$T/p/heat2.gp" && grep -q '^set colorbox' "$T/p/heat2.gp"
check "plot rules: one colour scale for every panel, its box drawn once" $?
# linear x never below 0: rules 0 and 10
run "plot rules: linear x from 0" 0 "" "$B" plot "$D/sweep.json" --x rules --where pollhz=1000 -o "$T/p/lin.png"
grep -q '^set xrange \[0:' "$T/p/lin.gp"; check "plot rules: a linear count axis starts at 0, not below" $? "$(grep xrange "$T/p/lin.gp")"

# ---- figures that say the right thing at a glance --------------------------------------
# without --kind, the kind report chooses: frame size, load, line
run "plot default kind: a frame-size sweep" 0 "" "$B" plot "$D/fs10g.json" -o "$T/p/dk-fs.png"
grep -q "^set label 1000 'Throughput vs frame size" "$T/p/dk-fs.gp" && grep -q "^set xlabel 'frame size" "$T/p/dk-fs.gp"
check "plot default kind: fs10g.json (no fwd_pps, a size axis) draws the frame-size plot" $?
run "plot default kind: a load ladder" 0 "" "$B" plot "$D/ladder.json" -o "$T/p/dk-load.png"
grep -q "title 'MFR " "$T/p/dk-load.gp" && grep -q "title 'no loss (FR = offered load)'" "$T/p/dk-load.gp"
check "plot default kind: ladder.json draws the load plot" $?
# titles in words on every kind
grep -q "^set label 1000 'Forwarded rate vs polling clock (rules=0)'" "$T/p/line.gp" &&
	grep -q "^set label 1000 'Forwarded rate over polling clock × burst_max (rules=10)'" "$T/p/heat.gp" &&
	grep -q "^set label 1000 'Forwarded rate per polling clock (burst_max=150, rules=0), every repetition'" "$T/p/box.gp"
check "plot: titles in words on line, heatmap and box" $? "$(grep -h '^set label 1000' "$T/p/line.gp" "$T/p/heat.gp" "$T/p/box.gp")"
# a fixed offered load is a labelled line; a point at it is not "leaving the bound"
grep -q '^OFFERED = 700000$' "$T/p/line.gp" && grep -q "^set label 998 'offered load 700 kpps'" "$T/p/line.gp" &&
	grep -q "OFFERED w l dt 3 lw 1.5 lc 'gray25' title 'offered load 700 kpps'" "$T/p/line.gp"
check "plot: the offered load of a fixed-load sweep is a labelled reference line" $? "$(grep -n OFFERED "$T/p/line.gp")"
jq '.method.offered_pps = 200000 | .cases |= map(if .metrics.fwd_pps and .metrics.fwd_pps > 200000 then .metrics.fwd_pps = 199500 else . end)' \
	"$D/sweep.json" >"$T/atload.json"
run "plot: a sweep that reaches its offered load" 0 "" "$B" plot "$T/atload.json" --where rules=0 -o "$T/p/atload.png"
! grep -q "leaves the bound" "$T/p/atload.gp" && grep -q "title 'offered load 200 kpps'" "$T/p/atload.gp"
check "plot: a rate at the offered load is not marked as leaving the polling bound" $? "$(grep -n 'leaves\|offered' "$T/p/atload.gp")"
# as `ppslab run` records it: the profile's "offered" param
jq 'del(.method.offered_pps) | .profile.params.offered = "200k"' "$T/atload.json" >"$T/atload2.json"
run "plot: the offered load from the profile's params" 0 "" "$B" plot "$T/atload2.json" --where rules=0 -o "$T/p/atload2.png"
grep -q '^OFFERED = 200000$' "$T/p/atload2.gp" && ! grep -q "leaves the bound" "$T/p/atload2.gp"
check "plot: a profile's offered: 200k is the reference line" $? "$(grep -n 'OFFERED\|leaves' "$T/p/atload2.gp")"
# the key: only what is drawn, where no point is
run "plot: bounds above the range, points at the top" 0 "" "$B" plot "$D/hz-freebsd7.json" -o "$T/p/fb7.png"
! grep -q "title 'pollhz × burst_max" "$T/p/fb7.gp" && ! grep -q "pale bands" "$T/p/fb7.gp"
check "plot: a polling bound that draws no band is neither in the key nor in the notes" $? "$(grep -n 'burst_max\|bands' "$T/p/fb7.gp")"
# two flat lines, one at the top and one at 0, cross all four corners: the range grows
jq -n '{schema: "ppslab/result", schema_version: "1.0.0", matrix: {axes: {x: [1, 2, 3, 4, 5], s: ["hi", "lo"]}},
	cases: [range(5) as $x | ("hi", "lo") as $s | {params: {x: ($x + 1), s: $s}, status: "ok",
		metrics: {fwd_pps: (if $s == "hi" then 100000 else 0 end)}}]}' >"$T/corners.json"
run "plot: lines through every corner" 0 "" "$B" plot "$T/corners.json" -o "$T/p/corners.png"
top=$(range_of y "$T/p/corners.gp" | cut -d' ' -f2)
grep -q '^set key top ' "$T/p/corners.gp" && awk -v t="$top" 'BEGIN { exit !(t > 1.12 * 100000) }'
check "plot: the y range grows so that the key sits above every point ($top)" $? "$(grep -n 'key\|yrange' "$T/p/corners.gp")"
# categories: natural version order, points not joined
jq '.matrix.axes.pollhz = ["14.0", "13.10", "13.8", 4000, 5000] | .cases |= map(.params.pollhz |= (if . == 1000 then "14.0" elif . == 2000 then "13.10" elif . == 3000 then "13.8" else . end))' \
	"$D/sweep.json" >"$T/ver.json"
run "plot: version-like categories" 0 "" "$B" plot "$T/ver.json" --where rules=0 -o "$T/p/ver.png"
grep -q "^set xtics ('4000' 0, '5000' 1, '13.8' 2, '13.10' 3, '14.0' 4)" "$T/p/ver.gp" && grep -q ' w yerrorbars ' "$T/p/ver.gp" &&
	! grep -q ' w yerrorlines \| w linespoints ' "$T/p/ver.gp"
check "plot: categories in natural order (13.8, 13.10, 14.0), drawn as points with bars, not joined" $? "$(grep -n 'xtics (\|index 0' "$T/p/ver.gp")"
# box: a spread of 1 % keeps its height
jq '.cases[].metrics.fwd_pps |= (if . then 500000 + (. % 5000) else . end)' "$D/sweep.json" >"$T/near.json"
run "plot: boxes of a 1 % spread" 0 "" "$B" plot "$T/near.json" --kind box --where rules=0,burst_max=150 -o "$T/p/box1.png"
range_of y "$T/p/box1.gp" | awk '{ exit !($1 > 490000 && $2 < 510000) }' && grep -q "y from 499k, not from 0" "$T/p/box1.gp"
check "plot: the box plot's y range is the data's, said in the notes" $? "$(grep -n 'yrange\|not from 0' "$T/p/box1.gp")"
# boxes with a long title and many flags: the panels keep 60 % of the height too
jq '.cases |= map(if .rep == 1 then .flags = ["sink clean: sink[0]: err_pkts 0, ring_drops " + .case_id] | .status = "flagged" else . end)' \
	"$T/near.json" >"$T/manyflags.json"
"$B" plot "$T/manyflags.json" --kind box --title "A title long enough to need three lines at this width: the repetitions of the forwarded rate per polling clock, with every cell, and more words" \
	-o "$T/p/boxn.png" >/dev/null 2>"$T/err"
share=$(awk '/^set tmargin at screen/ && !t { t = $5 } /^set bmargin at screen/ && !b { b = $5 } END { print t - b }' "$T/p/boxn.gp")
awk -v s="$share" 'BEGIN { exit !(s >= 0.6) }'
check "plot: a box plot's panels keep $share of the height with a long title and many notes" $? "$(png_size "$T/p/boxn.png"); $(cat "$T/err")"
# the rule-cost fit only where it means something
jq '.cases |= map(if .metrics.fwd_pps then .metrics.fwd_pps = 500000 + (.rep // 0) * 1000 + (.params.rules % 7) * 100 else . end)' "$D/rules.json" >"$T/flat.json"
run "plot: rules that cost nothing" 0 "" "$B" plot "$T/flat.json" -o "$T/p/flat.png"
! grep -q "fit 1/" "$T/p/flat.gp" && grep -q "no rule cost visible (a fit of 1/(a + b·N) gives b = " "$T/p/flat.gp" && ! grep -q '^# fit' "$T/p/flat.dat"
check "plot: a fit with no visible cost is not drawn; the notes say so" $? "$(grep -n 'fit\|rule cost' "$T/p/flat.gp")"

# ---- flagged cells are marked on every kind, failed cases never drawn -------------------
# small.json: pollhz=1000/burst_max=150 has a repetition flagged "offered load 3.1% below
# intended" (and pollhz=2000/burst_max=50 a failed one, whose flags the notes leave out)
FL="w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle"
FK="NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)'"
run "plot flags: line of a file with a flagged cell" 0 "" "$B" plot "$D/small.json" -o "$T/p/flag.png"
sed -n '/^# flagged points, panel 0/,$p' "$T/p/flag.dat" >"$T/fb"
[ "$(grep -c '^[0-9]' "$T/fb")" = 2 ] && grep -q '^1000 149990 NaN 1 1 "1000"$' "$T/fb" && grep -q '^2000 99975 NaN 1 0 "2000"$' "$T/fb" &&
	grep -q '^1000 149990 149850 150020 3 150000 NaN "1000" 1$' "$T/p/flag.dat" &&
	grep -q '^2000 99975 99900 100050 2 100000 NaN "2000" 1$' "$T/p/flag.dat" &&
	grep -q "'1 cell with a failed repetition (framed markers too): the median is of the others'" "$T/p/flag.gp"
check "plot flags: the .dat counts flagged (and failed) repetitions per point; the marked points are a block of their own" $? "$(cat "$T/p/flag.dat")"
idx=$(grep -c '^# \(panel\|burst_max\)' "$T/p/flag.dat")
grep -qF "'' index $idx u (zx(\$1)):(zy(\$2)) $FL" "$T/p/flag.gp" && [ "$(grep -c "flagged (see table)" "$T/p/flag.gp")" = 1 ] &&
	grep -qF "     $FK" "$T/p/flag.gp"
check "plot flags: drawn over the series in a style of their own, one key entry (a small mark inside the key)" $? "$(grep -n 'index' "$T/p/flag.gp")"
grep -q "'1 flagged cell (framed markers): a repetition failed a consistency check or missed its offered load (see the table)'" "$T/p/flag.gp" &&
	grep -q "'1 cell: offered load 3.1% below intended'" "$T/p/flag.gp" && ! grep -q "ppslab-rut exited" "$T/p/flag.gp"
check "plot flags: the notes say how many cells and why, as the table's footnote does" $? "$(grep -n 'label 10' "$T/p/flag.gp")"
msg=$(png_ok "$T/p/flag.png" 900x540); check "plot flags: flag.png drawn" $? "$msg" "$(cat "$T/err")"
# every panel of small multiples, the shared key listing the mark once (sweep.json: one flagged cell, rules=0)
grep -q "^     $FK" "$T/p/multi.gp" && [ "$(grep -c "u (zx(\$1)):(zy(\$2)) w p pt 4 ps 2.4" "$T/p/multi.gp")" = 1 ] &&
	grep -q '^# flagged points, panel 0 rules=0:' "$T/p/multi.dat" && ! grep -q '^# flagged points, panel 1' "$T/p/multi.dat"
check "plot flags: small multiples mark the flagged cell in its panel, the shared key has the entry" $? "$(grep -n 'pt 4 ' "$T/p/multi.gp")"
# an all-clean file: no flagged block, style, key entry or note
! grep -qi 'flagged' "$T/p/hz.gp" "$T/p/rules.gp" "$T/p/fs1.gp" "$T/p/load.gp" && ! grep -q '^# flagged' "$T/p/hz.dat" "$T/p/load.dat" &&
	! grep -q "pt 4 ps 2.4\|boxxyerror\|fs pattern" "$T/p/hz.gp" "$T/p/lat.gp" "$T/p/heat.gp"
check "plot flags: a file with no flagged case has no flagged series, style or note" $? "$(grep -n -i 'flag' "$T/p/hz.gp" "$T/p/heat.gp" | head -5)"
# box: the flagged repetition (rep 2, the middle dot) framed
sed -n '/^# flagged repetitions, panel 0, series 0/,$p' "$T/p/box.dat" >"$T/fb"
[ "$(grep -c '^[0-9]' "$T/fb")" = 1 ] && grep -q '^2 299512 2$' "$T/fb" &&
	grep -q "w points pt 4 ps 1.6 lw 2 lc rgb '#b00020' title 'flagged (see table)'" "$T/p/box.gp" &&
	grep -q "1 flagged cell (framed dots)" "$T/p/box.gp"
check "plot flags: a box plot frames the flagged repetition's dot" $? "$(cat "$T/fb")" "$(grep -n 'pt 4' "$T/p/box.gp")"
# heatmap: the flagged cell framed and its value starred; the clean panel has no frame
grep -q "'\*'" "$T/p/heat2.gp" && [ "$(grep -c 'w boxxyerror fs empty' "$T/p/heat2.gp")" = 1 ] &&
	grep -q "^1 1 299515 1 0$" "$T/p/heat2.dat" && grep -q "1 flagged cell (framed, value marked \*)" "$T/p/heat2.gp"
check "plot flags: a heatmap frames the flagged cell and stars its value" $? "$(grep -n 'boxxyerror\|labels' "$T/p/heat2.gp")"
# load: the rate and the loss of a flagged cell framed
jq '.cases[7].flags = ["sink clean: sink[0]: err_pkts 0, ring_drops 1234"]' "$D/ladder.json" >"$T/ladder-f.json"
run "plot flags: load plot of a flagged cell" 0 "" "$B" plot "$T/ladder-f.json" --kind load -o "$T/p/loadf.png"
grep -qF "$FL" "$T/p/loadf.gp" && grep -qF "$FK" "$T/p/loadf.gp" && grep -q "u (zx(\$1)):3 axes x1y2 w p pt 4 ps 1.8 lw 2 lc rgb '#b00020' notitle" "$T/p/loadf.gp" &&
	grep -q "'1 cell: sink dropped or damaged frames: sink\[0\]: err_pkts 0, ring_drops 1234'" "$T/p/loadf.gp" && [ ! -s "$T/err" ]
check "plot flags: a load plot frames the rate and the loss, and names the sink's ring drops" $? "$(grep -n 'pt 4\|ring' "$T/p/loadf.gp")" "$(cat "$T/err")"
# compare --plot: the flagged bars hatched, on both sides
run "plot flags: compare bar chart" 0 "" "$B" compare "$D/sweep.json" "$D/sweep.json" --where rules=0 --plot "$T/p/cmpf.png"
grep -q "^\"2000/150/0\" .* 1 1$" "$T/p/cmpf.dat" && [ "$(grep -c 'w boxes fs pattern 4' "$T/p/cmpf.gp")" = 2 ] &&
	[ "$(grep -c "title 'flagged (see table)'" "$T/p/cmpf.gp")" = 1 ] && grep -q "'2 flagged cells (hatched bars)" "$T/p/cmpf.gp"
check "plot flags: compare hatches the flagged bars, with a key entry and the notes" $? "$(grep -n 'pattern\|flagged' "$T/p/cmpf.gp" "$T/p/cmpf.dat")"
# a cell whose repetitions all failed, with numbers in them: never drawn
jq '(.cases[] | select(.case_id == "pollhz=2000/burst_max=50")) |= (.status = "failed" | .flags = ["ppslab-rut exited with status 1"]
	| .metrics = {fwd_pps: 777777, loss_pct: 0, lat_p99_ns: 1})' "$D/small.json" >"$T/allfail.json"
st=0
for k in line box heatmap; do
	"$B" plot "$T/allfail.json" --kind $k --x pollhz -o "$T/p/af-$k.png" >/dev/null 2>"$T/err" || st=1
	grep -q 777777 "$T/p/af-$k.dat" && st=1
done
grep -q '^1 0 NaN 0 3$' "$T/p/af-heatmap.dat" && grep -q "(\$5 > 0 ? 'failed' : \$3 == \$3 ?" "$T/p/af-heatmap.gp" || st=1
check "plot flags: failed repetitions are no value on any kind; the heatmap says failed" $st "$(grep -l 777777 "$T"/p/af-*.dat)" "$(cat "$T/err")"

# ---- no text is cut at an edge: title, subtitle, notes wrapped to the width ------------
long="A title long enough to need three lines at this width: fwd_pps vs pollhz per burst_max and rules, with every cell the sweep measured on the three boxes"
for spec in "rules.png:900x540:" "multi.png:1000x460:--image-size 1000x460" "small.png:420x320:--image-size 420x320" "tall.png:500x700:--image-size 500x700"; do
	f=${spec%%:*}; rest=${spec#*:}; size=${rest%%:*}; extra=${rest#*:}
	case $f in
	rules.png) file=$D/rules.json ;;
	*) file=$D/sweep.json ;;
	esac
	# shellcheck disable=SC2086
	"$B" plot "$file" --title "$long" $extra -o "$T/p/edge-$f" >/dev/null 2>"$T/err"
	e=$(png_edges "$T/p/edge-$f" "$size")
	[ "$e" = 0 ] && [ "$(png_size "$T/p/edge-$f")" = "$size" ]
	check "plot: nothing touches the edges of a $size figure with a long title ($f)" $? "$e edge pixels inked; $(cat "$T/err")"
done
lines=$(grep -c '^set label 10[0-9][0-9] ' "$T/p/edge-small.png.gp" 2>/dev/null || grep -c '^set label 10[0-9][0-9] ' "$T/p/edge-small.gp")
[ "$lines" -ge 2 ] && grep -q "^set label 1000 'A title long enough to need three lines at this...'" "$T/p/edge-small.gp"
check "plot: at 420x320 the title block keeps to $lines lines, shortened with '...', to leave the panels room" $? "$(grep '^set label 10' "$T/p/edge-small.gp")"
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

# the dumb plot on a terminal fits $COLUMNS
for c in 60 132; do
	w=$(COLUMNS=$c "$B" plot "$D/sweep.json" 2>/dev/null | tr -d '\f' | awk '{ if (length > m) m = length } END {print m + 0}')
	check "plot to the terminal: fits COLUMNS=$c" "$([ "$w" -le "$c" ] && [ "$w" -ge $((c - 10)) ]; echo $?)" "widest line $w"
done

# a failed check is named by what failed, in the table's notes and the report's flagged
# cases alike (a real run whose poll clock lost ticks); the results file keeps the name
X=$TOP/docs/examples/demo.json
run "flag words: table of a run with a failed check" 0 "" "$B" table "$X"
grep -q "poll clock lost ticks: " "$T/out" && ! grep -q "kept time\|cases\[\]" "$T/out"
check "flag words: the table says 'poll clock lost ticks', no JSON path" $? "$(tail -2 "$T/out")"
run "flag words: report of it" 0 "" "$B" report "$X" -o "$T/rep-flag" --no-plots
grep -q "poll clock lost ticks: " "$T/rep-flag/report.md" && ! grep -q "kept time" "$T/rep-flag/report.md"
check "flag words: the report's flagged cases say what failed" $? "$(grep -n 'poll clock' "$T/rep-flag/report.md" | head -3)"

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
	grep -q "Only in this run, hz-freebsd7.json (2 cells): \`pollhz=NP/dir=uni\`" "$T/out" && grep -q '^| DUT OS ' "$T/out"
check "compare: cells on one side only are listed; Markdown output" $?
run "compare: --fail-on missing" 1 "only in" "$B" compare "$D/hz-dragonfly.json" "$D/hz-freebsd7.json" --fail-on missing
run "compare: three files" 0 "" "$B" compare "$D/sweep.json" "$D/sweep.json" "$T/slow.json" -o "$T/three.json" --no-env
jqs -e '(.candidates | length) == 2 and (.rows | length) == 40 and .counts.REGRESSION == 1' "$T/three.json" >/dev/null
check "compare: several candidates against one baseline" $?
run "compare: csv" 0 "" "$B" compare "$D/sweep.json" "$T/slow.json" -f csv
head -1 "$T/out" | grep -q '^cell,metric,n_a,n_b,median_a,median_b,ratio,ci_lo,ci_hi,p,p_adj,csit_delta_pct,csit_sdelta_pct,verdict,note'
check "compare: CSV header" $?
# the values shown are the ones the verdict compares: geometric means, whose ratio is
# the ratio column (medians could even point the other way); baseline and this run by
# name throughout, never A and B
run "compare: words and statistic" 0 "" "$B" compare "$D/sweep.json" "$T/slow.json"
row=$(grep "^pollhz=3000/burst_max=150/rules=0  *fwd_pps " "$T/out")
read -r ga gb ratio < <(jq -r '.rows[] | select(.key == "pollhz=3000/burst_max=150/rules=0" and .metric == "fwd_pps")
	| "\(.gmean_a | round) \(.gmean_b | round) \(.ratio)"' "$T/slow-cmp.json")
awk -v a="$ga" -v b="$gb" -v r="$ratio" 'BEGIN { exit !((b / a - r) ^ 2 < 1e-6) }'
check "compare: the ratio is of the geometric means shown" $? "gmean $ga $gb ratio $ratio"
echo "$row" | tr -d , | grep -qE " $ga +$gb +0\.900 "
check "compare: the row shows the geometric means beside their ratio" $? "$row (gmeans $ga $gb)"
grep -q "^cell  *metric  *n  *baseline  *this run  *this/baseline .*Δ of means (CSIT)  *verdict" "$T/out" &&
	grep -q "geometric means of the repetitions" "$T/out"
check "compare: the columns say which statistic they are" $? "$(grep -m1 'cell' "$T/out")"
grep -qE "^ +baseline: sweep\.json +this run: slow\.json" "$T/out" && ! grep -qE "\b[AB]: |B/A|n A|A median" "$T/out"
check "compare: baseline and this run throughout, no A/B" $? "$(head -2 "$T/out")"
run "compare: html verdicts coloured" 0 "" "$B" compare "$D/sweep.json" "$T/slow.json" -f html --no-env
grep -q '<td style="color:#b00020;font-weight:bold">REGRESSION</td>' "$T/out" && grep -q '<td style="color:#1f4e8c">EQUIVALENT</td>' "$T/out"
check "compare: HTML colours the verdicts" $? "$(grep -m2 'REGRESSION\|EQUIVALENT' "$T/out")"
# two files with no cell in common: a warning, and a gate that asked fails
jq '.cases |= map(.params.pollhz += 1)' "$D/sweep.json" >"$T/disjoint.json"
run "compare: no cell in common: warns, exit 0 without --fail-on" 0 "no cell in common" \
	"$B" compare "$D/sweep.json" "$T/disjoint.json"
grep -q "No cell in common: nothing was compared" "$T/out"
check "compare: no cell in common: said in the text, not an empty table" $? "$(head -c 400 "$T/out")"
run "compare: no cell in common fails --fail-on regression" 1 "no cell in common.*--fail-on" \
	"$B" compare "$D/sweep.json" "$T/disjoint.json" --fail-on regression
run "compare: a single file" 64 "a baseline and" "$B" compare "$D/sweep.json"
run "compare: bad --margin" 64 "--margin 2x: expected" "$B" compare "$D/sweep.json" "$D/sweep.json" --margin 2x
run "compare: bad --fail-on" 64 "--fail-on regresion: expected" "$B" compare "$D/sweep.json" "$D/sweep.json" --fail-on regresion
# --by: the values of one axis of one file against each other; the slow copy's rules=10
# cells made 10 % slower plant one regression per pollhz × burst_max cell of rules=10
jq '.cases |= map(if .params.rules == 10 and .params.pollhz == 1000 and .metrics.fwd_pps then .metrics.fwd_pps *= 0.9 else . end)' \
	"$D/sweep.json" >"$T/byslow.json"
run "compare --by rules: one file" 0 "" "$B" compare "$T/byslow.json" --by rules --where pollhz=1000 -o "$T/by.json"
jq -e '.by == {"file": "'"$T/byslow.json"'", "axis": "rules", "baseline": "0"}
	and ([.rows[] | select(.verdict == "REGRESSION") | .candidate + " " + .key] == ["rules=10 pollhz=1000/burst_max=50", "rules=10 pollhz=1000/burst_max=150"])
	and ([.rows[].params | has("rules")] | any | not)' "$T/by.json" >/dev/null
check "compare --by: the planted cells, matched without the axis, against the first value" $? "$(head -c 600 "$T/by.json")"
grep -q "^This run, rules=10, against the baseline, rules=0" "$T/out"
check "compare --by: the text names the values compared" $? "$(head -c 400 "$T/out")"
run "compare --by --baseline: the other way round" 0 "" "$B" compare "$T/byslow.json" --by rules --baseline 10 --where pollhz=1000 -o -
jq -e '[.rows[] | select(.verdict == "PROGRESSION")] | length == 2' "$T/out" >/dev/null
check "compare --by --baseline 10: progressions" $?
run "compare --by: no such axis" 64 "--by colour: .*byslow.json has no such axis \\(axes: pollhz, burst_max, rules\\)" \
	"$B" compare "$T/byslow.json" --by colour
run "compare --by: one file only" 64 "--by compares the values of one axis within one results file" \
	"$B" compare "$T/byslow.json" "$D/sweep.json" --by rules
run "compare --by: a value it does not have" 64 "--baseline 5: rules has no such value \\(values: 0, 10\\)" \
	"$B" compare "$T/byslow.json" --by rules --baseline 5
run "compare: --baseline without --by" 64 "give --by AXIS" "$B" compare "$T/byslow.json" "$D/sweep.json" --baseline 5
run "compare --by: --where on the compared axis" 64 "--where rules=0: rules is the --by axis" \
	"$B" compare "$T/byslow.json" --by rules --where rules=0
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
for s in "**Measured:** forwarded rate (fwd\_pps) over pollhz (5 values) × burst\_max (2 values) × rules (2 values): 20 cells, 3 repetitions each, fixed trials of 10 s." \
	"**Device under test:** Linux Debian 12" "**Flagged or failed:** 1 flagged and 0 failed of 60 cases" \
	"**Against the baseline:** sweep.json: 1 REGRESSION, 19 EQUIVALENT" \
	"## Results" "## Method" "### Deviations from RFC 2544" "10 s trials instead of 60 s" "RFC 2544 §9.1" "## Environment" \
	"## Plots" "## Flagged and failed cases" "## This run against the baseline sweep.json" "REGRESSION"; do
	grep -qF -- "$s" "$T/rep/report.md" || no "report: report.md has '$s'"
done
ok "report: the headline (what, where, flagged, verdicts) and the sections"
order=$(grep '^## ' "$T/rep/report.md" | tr '\n' '|')
[ "$order" = "## Conclusion|## Plots|## Results|## Method|## Environment|## Flagged and failed cases|## This run against the baseline sweep.json|" ]
check "report: the conclusion first, then the figures, the tables, method and environment" $? "$order"
grep -qF -- "- 15 of 20 cells forward what polling allows (pollhz × burst\_max per port), up to 447,471 pps." "$T/rep/report.md" &&
	grep -qF -- "- 5 of 20 cells stay below the polling bound and the offered load: something else limits them" "$T/rep/report.md" &&
	grep -qF -- "- burst\_max=150, rules=10: held at 448,287–448,459 pps from pollhz=4000 on." "$T/rep/report.md" &&
	grep -qF -- "- At 700,000 pps offered: best pollhz=4000/burst\_max=150/rules=0, 559,877 pps; worst pollhz=1000/burst\_max=50/rules=10, 49,828 pps." "$T/rep/report.md"
check "report: the conclusion says in words what limited the router where, best and worst per offered load" $? "$(sed -n '/^## Conclusion/,/^## Plots/p' "$T/rep/report.md" | head -8)"
run "report: a ladder of loads" 0 "" "$B" report "$D/ladder.json" -o "$T/rep5"
grep -qF -- "- One cell per offered load: the load plot shows the rate at each." "$T/rep5/report.md"
check "report: no best and worst across offered loads" $? "$(sed -n '/^## Conclusion/,/^## Plots/p' "$T/rep5/report.md" | head -8)"
# units: one human unit per table, named in its heading, 3 significant digits
grep -qF "### lat\_p50\_ns — latency, median (µs)" "$T/rep/report.md" && grep -qF "### lat\_p99\_ns — latency, 99th percentile (ms)" "$T/rep/report.md" &&
	grep -qF "| 2000   | 0.772 (0.752–0.825) | 0.751 (0.683–0.778)\* |" "$T/rep/report.md" && ! grep -q '^### .*(ns)$' "$T/rep/report.md"
check "report: latency headings name the table's unit; sub-unit values keep 3 significant digits" $? "$(grep -n '^### lat' "$T/rep/report.md")"
grep -qF "### cpu\_s — forwarder CPU time (% of the trial)" "$T/rep/report.md" && grep -qF "| 1000   | 98.6 (97.9–98.8) |" "$T/rep/report.md"
check "report: CPU time as a share of the trial" $? "$(grep -n -A8 '^### cpu' "$T/rep/report.md" | head -9)"
[ "$(grep -c 'Why:' "$T/rep/report.md")" = 1 ] && [ "$(grep -c '^- 1 cell: offered load 3.1% below intended' "$T/rep/report.md")" = 1 ]
check "report: the flags' reasons are listed once, under the first table" $? "$(grep -n 'Why\|includes flagged' "$T/rep/report.md")"
run "report: a failed repetition" 0 "" "$B" report "$D/small.json" -o "$T/rep6" --no-plots
grep -qF "| 2000   | 99,975 (99,900–100,050)† |" "$T/rep6/report.md" && grep -qF "† a repetition failed (1 cell): the median is of the others" "$T/rep6/report.md"
check "report: a cell with a failed repetition is marked †" $? "$(grep -n '2000\|†' "$T/rep6/report.md" | head -5)"
grep -qF "latency, median in µs, median of 3 repetitions" "$T/rep/report.md" && grep -qF "latency, 99th percentile in ms" "$T/rep/report.md" &&
	grep -qF "| 1000   |    49,863 (49,591–50,057) |" "$T/rep/report.md" && grep -qF "frame loss in %" "$T/rep/report.md"
check "report: units a person reads (pps with separators, µs, ms, %)" $? "$(grep -n 'in µs\|in ms\|49,863' "$T/rep/report.md" | head -5)"
raw=$(grep '^|' "$T/rep/report.md" | grep -vE 'run|created' | grep -oE '(^|[^0-9.,])[0-9]{5,}' | head -3)
[ -z "$raw" ]; check "report: no long number without thousands separators in the tables" $? "$raw"
missing=0
for img in $(grep -o '](\([^)]*\.png\))' "$T/rep/report.md" | sed 's/^](//; s/)$//'); do
	[ -s "$T/rep/$img" ] && [ -s "$T/rep/${img%.png}.gp" ] && [ -s "$T/rep/${img%.png}.dat" ] || missing=$((missing + 1))
done
nimg=$(grep -c '^!\[' "$T/rep/report.md")
check "report: all $nimg plots referenced exist with .gp and .dat (line, heatmap, repetitions, comparison)" $(( missing != 0 || nimg != 4 ))
# the page stands alone: style inline, every image data, links only inside the page
html=$T/rep/report.html
nsvg=$(grep -o '<img [^>]*src="data:image/svg+xml;base64,' "$html" | wc -l)
ext=$(grep -oE '(src|href)="[^"#d][^"]*"|<link |<script|url\(' "$html" | head -3)
grep -q '<table>' "$html" && grep -q '<style>' "$html" && grep -q '</html>' "$html" && [ "$nsvg" = 4 ] && [ -z "$ext" ]
check "report: report.html is one file: inline style, $nsvg plots embedded as SVG, nothing loaded from elsewhere" $? "external: $ext"
grep -q '<section class="headline">' "$html" && grep -q '<nav><a href="#plots">Plots</a> · <a href="#results">' "$html"
check "report: the page opens with the headline and a table of contents" $?
run "report: the rule-cost fit in the headline and a table" 0 "" "$B" report "$D/rules.json" -o "$T/rep4"
grep -qF "**Rule cost:** fwd\_pps: b = 1.3 ns per rule per frame, a = 1.5 µs, R² = 1.000" "$T/rep4/report.md" &&
	grep -qF "### Rule cost: rate = 1/(a + b·N)" "$T/rep4/report.md" && grep -qF "**Rig ceiling:** 1.629 Mpps" "$T/rep4/report.md"
check "report: rule cost and rig ceiling (in Mpps) in the headline" $? "$(grep -n 'Rule cost\|Rig ceiling' "$T/rep4/report.md")"
run "report: tables only" 0 "" "$B" report "$D/framesize.json" -o "$T/rep2" --no-plots
! grep -q '## Plots' "$T/rep2/report.md" && grep -q 'Goal PDR accepts 0.5 % loss' "$T/rep2/report.md"
check "report: --no-plots, and the PDR goal is listed as a deviation" $?
run "report: unknown metric" 64 "--metric nope" "$B" report "$D/framesize.json" -o "$T/rep3" --metric nope
# --by os: an OS-regression run made from the sweep (rules=0 only), both OS versions the
# same cases except 14.2's pollhz=1000 cells, 20 % slower; each case's router_env names its
# OS and kern.hz (1000 on 14.1, 500 on 14.2)
jq '.matrix.axes = {os: ["14.1-RELEASE", "14.2-RELEASE"], pollhz: .matrix.axes.pollhz, burst_max: .matrix.axes.burst_max}
	| def env($v; $hz): {os: {name: "FreeBSD", version: $v, kernel: ($v + " GENERIC")}, tunables: {"kern.hz": $hz}};
	.cases |= ([.[] | select(.params.rules == 0) | del(.params.rules)] as $c
	  | [$c[] | .params = {os: "14.1-RELEASE"} + .params | .router_env = env("14.1-RELEASE"; 1000)]
	  + [$c[] | .params = {os: "14.2-RELEASE"} + .params | .router_env = env("14.2-RELEASE"; 500)
	     | if .params.pollhz == 1000 and .metrics.fwd_pps then .metrics.fwd_pps *= 0.8 else . end]
	  | map(.case_id = ([.params | to_entries[] | "\(.key)=\(.value)"] | join("/"))))' \
	"$D/sweep.json" >"$T/os.json"
run "report --by os" 0 "" "$B" report "$T/os.json" --by os -o "$T/rep-os" --no-plots
md=$T/rep-os/report.md
grep -qF -- "- **By os:** 14.2-RELEASE against 14.1-RELEASE: 2 REGRESSION, 8 EQUIVALENT" "$md" &&
	grep -qF "| 14.1-RELEASE | 10    | 30    | 217,188 pps (49,863–559,877) | baseline                   |" "$md" &&
	grep -qF "| 14.2-RELEASE | 10    | 30    | 207,709 pps (39,890–559,877) | 2 REGRESSION, 8 EQUIVALENT |" "$md" &&
	grep -qE "^\| kern\.hz +\| 1000 +\| 500 +\|$" "$md" &&
	grep -qF "This run, os=14.2-RELEASE, against the baseline, os=14.1-RELEASE." "$md" &&
	[ "$(grep -c '| REGRESSION |$' "$md")" = 2 ] &&
	grep -q '^| pollhz=1000/burst_max=50  *| fwd_pps .* REGRESSION |$' "$md" &&
	grep -qF "The router's environment varied between cases" "$md" &&
	[ "$(grep '^## ' "$md" | tail -1)" = "## By os" ] &&
	grep -q '<a href="#by">By os</a>' "$T/rep-os/report.html" && grep -q '<h2 id="by">By os</h2>' "$T/rep-os/report.html"
check "report --by os: per value cells, cases, the rate and verdicts; kern.hz per value; each value's table" $? \
	"$(sed -n '/By os/,$p' "$md" | head -30)"
run "report --by os --baseline 14.2-RELEASE: the other way round" 0 "" "$B" report "$T/os.json" --by os \
	--baseline 14.2-RELEASE -o "$T/rep-os2" --no-plots
grep -qF -- "- **By os:** 14.1-RELEASE against 14.2-RELEASE: 2 PROGRESSION, 8 EQUIVALENT" "$T/rep-os2/report.md"
check "report --by --baseline: progressions" $? "$(grep -F 'By os' "$T/rep-os2/report.md")"
run "report --by: no such axis" 64 "--by colour: .*os.json has no such axis \\(axes: os, pollhz, burst_max\\)" \
	"$B" report "$T/os.json" --by colour -o "$T/rep-os3"
run "report --by: a value it does not have" 64 "--baseline 13.2: os has no such value \\(values: 14.1-RELEASE, 14.2-RELEASE\\)" \
	"$B" report "$T/os.json" --by os --baseline 13.2 -o "$T/rep-os3"
jq '.cases |= map(select(.params.os == "14.1-RELEASE")) | .matrix.axes.os = ["14.1-RELEASE"]' "$T/os.json" >"$T/one-os.json"
run "report --by: one value" 64 "--by os: .* has one value of it \\(14.1-RELEASE\\): nothing to compare" \
	"$B" report "$T/one-os.json" --by os -o "$T/rep-os3" --no-plots
jq '.cases[].metrics |= (if . then del(.fwd_pps) else . end)' "$T/os.json" >"$T/os-norate.json"
run "report --by: no common rate metric" 64 "--by os: .*share none of the usual rate metrics.*choose with --metric" \
	"$B" report "$T/os-norate.json" --by os -o "$T/rep-os3" --no-plots
run "report --by --metric: the values compared on the metrics asked for" 0 "" \
	"$B" report "$T/os-norate.json" --by os --metric loss_pct,lat_p99_ns -o "$T/rep-os4" --no-plots
[ "$(grep -c '^| pollhz=[0-9]*/burst_max=[0-9]*[^|]*| lat_p99_ns ' "$T/rep-os4/report.md")" = 10 ] &&
	[ "$(grep -c '^| pollhz=[0-9]*/burst_max=[0-9]*[^|]*| loss_pct ' "$T/rep-os4/report.md")" = 10 ]
check "report --by --metric: each cell compared on loss and latency" $? "$(grep -m3 'lat_p99_ns\|loss_pct' "$T/rep-os4/report.md")"
run "report: --baseline without --by" 64 "give --by AXIS" "$B" report "$T/os.json" --baseline 13.2 -o "$T/rep-os3"

echo "1..$n"
