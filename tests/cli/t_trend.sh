#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_trend.sh — ppslab trend from the command line on the fixture series in tests/data
# (no root): six nightly runs of FreeBSD 13.8 ... 14.2 (trend/, written, created and
# named in different orders, one cell missing in the first two runs) ordered by each
# kind of label — a key of the files, the creation time, the order given, an axis of
# the cells (trend-os.json, one repetition per run) — with the planted changes found
# where they are and nowhere else; text, Markdown, CSV and JSON; a plot per cell;
# --fail-on for a nightly job; bad requests and bad files named.
set -u
B=${PPSLAB_BIN:?}/ppslab
TOP=${PPSLAB_TOP:?}
D=$TOP/tests/data
T=$(mktemp -d /tmp/ppslab-t_trend.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
V=environment.dut.os.version
# jqt DESC FILTER FILE: the filter (with -e) holds on the JSON
jqt() {
	if jqs -e "$2" "$3" >/dev/null 2>&1; then ok "$1"; else no "$1" "$(jq -c "$2" "$3" 2>&1 | head -c 400)"; fi
}

# ---- help ---------------------------------------------------------------------------
run "trend --help exits 0 with its synopsis" 0 "" "$B" trend --help
grep -q "^usage: ppslab trend FILES...|DIR " "$T/out"; check "trend --help: usage line" $?
. "$(dirname "$0")/docopts.sh"
stale=$(doc_opts_check "$TOP/docs/trend.md" "ppslab trend")
check "docs/trend.md names only options ppslab trend has" $? "$(echo "$stale" | head -5)"
run "trend --bogus is a usage error" 64 "unknown option '--bogus'" "$B" trend --bogus

# ---- ordered by a key of the files: the OS version --------------------------------------
run "by version: a directory of runs" 0 "" "$B" trend "$D/trend" --label $V -o "$T/v.json"
cp "$T/out" "$T/v.txt"
jqt "by version: schema ppslab/trend 1.0.0, label key, six runs in version order (13.9 before 13.10)" \
	'.schema == "ppslab/trend" and .schema_version == "1.0.0" and .label == {"kind": "key", "key": "'$V'", "order": "label"}
	 and ([.runs[].label] == ["13.8-RELEASE", "13.9-RELEASE", "13.10-RELEASE", "14.0-RELEASE", "14.1-RELEASE", "14.2-RELEASE"])
	 and ([.runs[].run_id] == ["nightly-101", "nightly-102", "nightly-105", "nightly-103", "nightly-104", "nightly-106"])' "$T/v.json"
jqt "by version: pollhz=1000 has one change, a REGRESSION of 0.80 at 14.0" \
	'[.series[] | select(.key == "pollhz=1000")][0] | (.groups | length) == 2 and (.changes | length) == 1
	 and .changes[0].verdict == "REGRESSION" and .changes[0].at_label == "14.0-RELEASE"
	 and (.changes[0].ratio * 100 | round) == 80 and .changes[0].ci_lo < .changes[0].ratio and .changes[0].ci_hi < 1
	 and .newest.verdict == "REGRESSION" and .newest_regressed' "$T/v.json"
jqt "by version: pollhz=2000 gains 15 % in the newest run alone (1.15), a PROGRESSION" \
	'[.series[] | select(.key == "pollhz=2000")][0] | (.changes | length) == 1 and .changes[0].verdict == "PROGRESSION"
	 and .changes[0].at_label == "14.2-RELEASE" and .groups[1].runs == 1 and (.changes[0].ratio * 100 | round) == 115
	 and .newest_progressed and (.newest_regressed | not) and .flagged' "$T/v.json"
jqt "by version: pollhz=3000, missing in 13.8 and 13.9, is one group over the other four" \
	'[.series[] | select(.key == "pollhz=3000")][0] | .missing_runs == [0, 1] and (.points | length) == 4
	 and (.groups | length) == 1 and (.changes | length) == 0 and .newest == null and (.newest_missing | not)' "$T/v.json"
jqt "by version: no other change; counts" \
	'([.series[].changes[]] | length) == 2 and .counts == {"changes": {"REGRESSION": 1, "PROGRESSION": 1},
	 "newest_regressed": 1, "newest_progressed": 1, "newest_missing": 0}' "$T/v.json"
grep -q "^pollhz=1000  *fwd_pps  *6  149,[0-9]* (13.8-RELEASE–13.10-RELEASE), 120,[0-9]* (14.0-RELEASE–14.2-RELEASE)  REGRESSION 0.80[0-9] \[0.79[0-9], 0.80[0-9]\] at 14.0-RELEASE" "$T/v.txt"
check "by version: the text row has the groups, the change and where" $? "$(grep pollhz=1000 "$T/v.txt")"
grep -q "^pollhz=3000  *fwd_pps  *4 of 6 " "$T/v.txt" && grep -q "^Missing: pollhz=3000 fwd_pps not in 13.8-RELEASE, 13.9-RELEASE\.$" "$T/v.txt"
check "by version: the missing cell is counted and listed" $? "$(grep -i "3000\|missing" "$T/v.txt")"
grep -q "^Runs by environment.dut.os.version (6): 13.8-RELEASE, 13.9-RELEASE, 13.10-RELEASE, 14.0" "$T/v.txt" &&
	grep -q "^\* includes flagged repetitions" "$T/v.txt"
check "by version: the order is said first; flagged repetitions marked" $?

# ---- the creation time (the default) --------------------------------------------------------
run "by creation time" 0 "" "$B" trend "$D"/trend/*.json -o "$T/c.json"
jqt "by creation time: runs in created order, 13.10 (built after 14.1) fifth" \
	'.label.kind == "created" and ([.runs[].label | .[8:10]] == ["01", "02", "03", "04", "05", "06"])
	 and .runs[4].run_id == "nightly-105"' "$T/c.json"
jqt "by creation time: 150,150,120,120,150,120 is no step: one group, said to be unsteady" \
	'[.series[] | select(.key == "pollhz=1000")][0] | (.groups | length) == 1 and .segmentation.unsteady' "$T/c.json"
jqt "by creation time: pollhz=2000 still gains in the newest run" \
	'[.series[] | select(.key == "pollhz=2000")][0] | .changes[0].verdict == "PROGRESSION" and .changes[0].at_run == 5' "$T/c.json"
grep -q "^Unsteady (.*): pollhz=1000 fwd_pps (runs ±11\.[0-9] % around their groups)" "$T/out"
check "by creation time: the unsteady series is named in the text" $? "$(grep -i unsteady "$T/out")"

# ---- the order given, labels by file name and run id --------------------------------------
run "in the order given" 0 "" "$B" trend "$D/trend/build-106.json" "$D/trend/build-101.json" "$D/trend/build-103.json" \
	--order given --label run_id -o "$T/g.json"
jqt "in the order given: the three runs as listed, labelled by run id" \
	'[.runs[].label] == ["nightly-106", "nightly-101", "nightly-103"] and .label.order == "given"' "$T/g.json"
run "labelled by file name" 0 "" "$B" trend "$D/trend" --label file -o -
jqt "--label file: build-101 ... build-106" '[.runs[].label] == ["build-101.json", "build-102.json", "build-103.json",
	"build-104.json", "build-105.json", "build-106.json"]' "$T/out"
run "a key with dots in its name (a tunable)" 0 "" "$B" trend "$D/trend" --label environment.dut.tunables.kern.hz -o -
jqt "--label environment.dut.tunables.kern.hz: the sysctl name is one key" '[.runs[].label] | unique == ["1000"]' "$T/out"

# ---- an axis of the cells, one repetition per run ---------------------------------------
run "by axis: --label-from os" 0 "" "$B" trend "$D/trend-os.json" --label-from os -o "$T/a.json"
cp "$T/out" "$T/a.txt"
jqt "by axis: the os values, listed out of order in the file, sorted naturally; cells by pollhz alone" \
	'.label == {"kind": "axis", "axis": "os", "order": "label"} and ([.runs[].label] == ["13.8", "13.9", "13.10", "14.0", "14.1", "14.2"])
	 and ([.series[].key] == ["pollhz=1000", "pollhz=2000"])' "$T/a.json"
jqt "by axis, one repetition per run: the 14.0 step is confirmed over three runs a side" \
	'.series[0] | (.changes | length) == 1 and .changes[0].at_label == "14.0" and .changes[0].n_a == 3 and .changes[0].n_b == 3
	 and .changes[0].verdict == "REGRESSION" and all(.points[]; .n == 1)' "$T/a.json"
jqt "by axis, one repetition per run: the newest run's jump cannot be confirmed, it is an outlier" \
	'.series[1] | (.changes | length) == 0 and .segmentation.proposed_groups == 2 and .points[5].outlier
	 and ([.points[].outlier] | map(select(.)) | length) == 1' "$T/a.json"
grep -q "^Outliers: pollhz=2000 fwd_pps at 14.2: 1.1[0-9]* of its group's level (kept in it; the newest run" "$T/a.txt"
check "by axis: the outlier and what to do about it are said" $? "$(grep -i outlier "$T/a.txt")"

# ---- formats ------------------------------------------------------------------------------
run "Markdown" 0 "" "$B" trend "$D/trend" --label $V -f md
grep -q '^| cell  *| metric  *| *runs | groups (level, runs) ' "$T/out" && grep -q '^| pollhz=2000\\\* ' "$T/out" &&
	grep -q '^Missing: `pollhz=3000` fwd_pps not in `13.8-RELEASE`, `13.9-RELEASE`\.$' "$T/out"
check "Markdown: a pipe table, names in backticks, '*' escaped" $? "$(head -8 "$T/out")"
run "CSV" 0 "" "$B" trend "$D/trend" --label $V -f csv
tr -d '\r' <"$T/out" >"$T/csv"
grep -q '^cell,metric,runs,groups,changes,newest$' "$T/csv" && [ "$(wc -l <"$T/csv")" = 4 ] &&
	grep -q '^pollhz=1000,fwd_pps,6,[0-9.]*@13.8-RELEASE..13.10-RELEASE [0-9.]*@14.0-RELEASE..14.2-RELEASE,REGRESSION@14.0-RELEASE:0.80[0-9]*,REGRESSION:0.80[0-9]*@13.8-RELEASE..13.10-RELEASE$' "$T/csv"
check "CSV: only the rows, raw numbers, changes as VERDICT@LABEL:RATIO" $? "$(head -3 "$T/csv")"
run "HTML" 0 "" "$B" trend "$D/trend" --label $V -f html
grep -q '^<!DOCTYPE html>' "$T/out" && grep -q '<table>' "$T/out" && grep -q '</html>' "$T/out" &&
	grep -q '<p>Runs by ' "$T/out" && grep -q '<p>Changes: 1 REGRESSION' "$T/out" && ! grep -qE '(src|href)="[^#]' "$T/out"
check "HTML: one page with the runs, the table and the notes, nothing loaded from elsewhere" $? "$(head -c 600 "$T/out")"
run "-o - prints only the JSON" 0 "" "$B" trend "$D/trend" -o -
jqs -e '.schema == "ppslab/trend"' "$T/out" >/dev/null; check "-o -: stdout is one JSON document" $?

# ---- plots ----------------------------------------------------------------------------------
mkdir -p "$T/p"
run "plot: one per cell" 0 "" "$B" trend "$D/trend" --label $V --plot "$T/p/tr.png"
for c in 1000 2000 3000; do
	f=$T/p/tr-pollhz_$c.png
	[ -s "$f" ] && [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ -s "${f%.png}.gp" ] && [ -s "${f%.png}.dat" ]
	check "plot: pollhz=$c has a PNG with its .gp and .dat" $?
done
grep -q "^Plots (with .gp and .dat beside each): $T/p/tr-pollhz_1000.png, " "$T/out"; check "plot: the files are named" $?
G=$T/p/tr-pollhz_1000.gp
grep -qF "set xtics ('13.8-RELEASE' 0, '13.9-RELEASE' 1, '13.10-RELEASE' 2, '14.0-RELEASE' 3" "$G" &&
	grep -q "yerrorbars" "$G" && grep -q "index 1 using 1:2 with lines" "$G" && grep -q "index 2 using 1:2:(0):(\$3-\$2):4 with vectors" "$G"
check "plot: labels on x, each run's median with its spread, groups as lines, the change as an arrow" $? "$(grep -n 'plot\|xtics' "$G")"
awk '/^# change/ { on = 1; next } on && NF { n++; if ($1 != 2.5 || $5 != "\"REGRESSION" || $6 != "0.802\"") bad = 1 } END { exit !(n == 1 && !bad) }' "$T/p/tr-pollhz_1000.dat"
check "plot: the change is drawn between 13.10 and 14.0" $? "$(sed -n '/# change/,$p' "$T/p/tr-pollhz_1000.dat")"
G=$T/p/tr-pollhz_3000.gp
! grep -q "vectors" "$G" && grep -qF "set xtics ('13.8-RELEASE' 0" "$G" && [ "$(awk '$1 ~ /^[0-9]/ && !/#/' "$T/p/tr-pollhz_3000.dat" | head -1 | cut -d' ' -f1)" = 2 ]
check "plot: a cell missing in the first runs starts at its first run, all labels kept" $?
(cd "$T/p" && rm -f tr-pollhz_1000.png && gnuplot tr-pollhz_1000.gp) 2>"$T/err" && [ -s "$T/p/tr-pollhz_1000.png" ] && [ ! -s "$T/err" ]
check "plot: the .gp re-runs from its directory without a warning" $? "$(cat "$T/err")"
grep -q "^set label 1000 'Forwarded rate of pollhz=1000, run by run (by " "$T/p/tr-pollhz_1000.gp"
check "plot: the title in words" $? "$(grep '^set label 1000' "$T/p/tr-pollhz_1000.gp")"
# by creation time: the timestamps shortened to what differs, the rest in the x label;
# an unsteady series says so on the figure as in the text
run "plot: by creation time" 0 "" "$B" trend "$D/trend" --plot "$T/p/ct.png"
G=$T/p/ct-pollhz_1000.gp
grep -q "Unsteady .*pollhz=1000 fwd_pps (runs ±11.0 % around their groups)" "$T/out" &&
	grep -qF "set xtics ('12-01' 0, '12-02' 1, '12-03' 2" "$G" && grep -q "^set xlabel 'created (UTC), 2026, at 02:00'" "$G" &&
	! grep -q 'rotate' "$G" && grep -q "unsteady: the runs scatter ±11.0 % around their group" "$G" &&
	grep -q "dt (8,5) lc rgb '#2a9d2a' title 'geometric mean of the group (unsteady: runs ±11.0 %)'" "$G"
check "plot: compact time labels; the unsteady series is said to be so, its line dashed" $? "$(grep -n 'xtics\|xlabel\|unsteady\|label 100' "$G")"
run "plot: one cell, one file" 0 "" "$B" trend "$D/trend-os.json" --label-from os --where pollhz=2000 --plot "$T/p/os.svg"
grep -q '</svg>' "$T/p/os.svg" && grep -q "outlier" "$T/p/os.gp"; check "plot: FILE itself for one cell; the outlier marked" $?
run "plot: --plot-metric not followed" 64 "--plot-metric lat_p99_ns: not followed" "$B" trend "$D/trend" --plot "$T/p/x.png" --plot-metric lat_p99_ns
[ ! -s "$T/out" ]; check "plot: ... refused before the table is printed" $?
run "plot: unknown image type" 64 "--plot x.jpg: expected FILE.png, FILE.svg or FILE.txt" "$B" trend "$D/trend" --plot "x.jpg"
[ ! -s "$T/out" ]; check "plot: ... refused before the table is printed" $?

# ---- --fail-on for a nightly job ---------------------------------------------------------
run "--fail-on regression: the newest group of pollhz=1000 regressed" 1 "1 cell\(s\) whose newest group regressed: pollhz=1000 fwd_pps \(--fail-on\)" \
	"$B" trend "$D/trend" --label $V --fail-on regression
run "--fail-on regression, pollhz=2000 only: it progressed, exit 0" 0 "" "$B" trend "$D/trend" --label $V --where pollhz=2000 --fail-on regression
run "--fail-on progression" 1 "whose newest group progressed: pollhz=2000 fwd_pps" "$B" trend "$D/trend" --label $V --where pollhz=2000 --fail-on progression
mkdir -p "$T/gone"
cp "$D"/trend/*.json "$T/gone/"
jq '.cases |= map(select(.params.pollhz != 3000))' "$D/trend/build-106.json" >"$T/gone/build-106.json"
run "--fail-on missing: the newest run lacks pollhz=3000" 1 "1 cell\(s\) missing in the newest run: pollhz=3000 fwd_pps" \
	"$B" trend "$T/gone" --label $V --fail-on missing,progression --where pollhz=3000

# ---- a directory holds other ppslab documents too --------------------------------------
mkdir -p "$T/mixed"
cp "$D"/trend/build-10[123].json "$T/mixed/"
cp "$T/v.json" "$T/mixed/trend-out.json"
run "a directory with an earlier trend's JSON in it" 0 "" "$B" -v trend "$T/mixed" -o "$T/m.json"
jqt "the ppslab/trend document is passed over, the three runs read" '(.runs | length) == 3' "$T/m.json"
grep -q "trend-out.json: a ppslab/trend document, not a results file: passed over" "$T/err"; check "... and that is said with -v" $?

# ---- one file, latency, zeros -----------------------------------------------------------------
run "one file is one run" 0 "" "$B" trend "$D/small.json" -o -
jqt "one run: every series one group, nothing newer" '(.runs | length) == 1 and all(.series[]; (.groups | length) == 1 and .newest == null)' "$T/out"
run "latency is lower-is-better; a metric with zeros is not segmented" 0 "" "$B" trend "$D/small.json" "$D/small.json" --metric lat_p99_ns,loss_pct -o -
jqt "lat_p99_ns lower is better; loss_pct with zeros has a note and no groups" \
	'all(.series[] | select(.metric == "lat_p99_ns"); .lower_is_better and (.groups | length) == 1)
	 and any(.series[] | select(.metric == "loss_pct"); .note == "zero or negative values: no ratio on a log scale" and (.groups | length) == 0)' "$T/out"

# ---- bad requests and files ---------------------------------------------------------------------
run "no files" 64 "trend needs results files" "$B" trend
run "a key a file lacks: EX_DATAERR naming the file and the path" 65 "build-101.json: \\\$\.environment\.dut\.os\.nickname: missing \(--label\)" \
	"$B" trend "$D/trend" --label environment.dut.os.nickname
run "a label that is an object" 65 "\\\$\.environment\.dut\.os: expected a string or a number for --label, got an object" \
	"$B" trend "$D/trend" --label environment.dut.os
run "--label-from an axis a file lacks" 65 "--label-from os: .*build-101.json has no such axis \(axes: pollhz\)" \
	"$B" trend "$D/trend" --label-from os
run "--label and --label-from together" 64 "--label-from os: expected one --label or --label-from" \
	"$B" trend "$D/trend-os.json" --label run_id --label-from os
run "bad --order" 64 "--order newest: expected label or given" "$B" trend "$D/trend" --order newest
run "bad --fail-on" 64 "--fail-on regresion: expected regression, progression or missing" "$B" trend "$D/trend" --fail-on regresion
run "bad --format" 64 "--format xls: expected text, md, csv or html" "$B" trend "$D/trend" -f xls
run "bad --margin" 64 "--margin 0: expected" "$B" trend "$D/trend" --margin 0
run "unknown metric" 64 "--metric rx_pps: no case in any of the 6 files has this metric" "$B" trend "$D/trend" --metric rx_pps
run "--where a value no file has" 64 "--where pollhz=4000: no case" "$B" trend "$D/trend" --where pollhz=4000
mkdir -p "$T/empty"
run "an empty directory" 66 "no results files \(\*\.json\) in this directory" "$B" trend "$T/empty"
cp "$D"/trend/build-101.json "$T/empty/a.json"
printf '{"schema": "ppslab/result",\n "cases": [,]}\n' >"$T/empty/b.json"
run "a broken file in the directory: EX_DATAERR with FILE:LINE:COLUMN" 65 "b.json:2:[0-9]+: not valid JSON" "$B" trend "$T/empty"
run "a missing file: EX_NOINPUT" 66 "nothere.json" "$B" trend "$T/nothere.json"
echo "1..$n"
