#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_examples.sh — docs/examples is made from its shipped results files: remake.sh, with
# no root, makes every example's .txt, .gp, .dat and .env again byte for byte (the PNG is
# not compared: gnuplot's own bytes); every figure and table shipped has its results
# file; README's headline table is demo.txt. And `ppslab run -o` puts the plot beside
# its results file, named after it, not over the profile's plot of another run.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$TOP/tests/cli/lib.sh"
E=$TOP/docs/examples

mkdir "$T/ex"
cp "$E/remake.sh" "$E"/*.json "$T/ex/"
if command -v gnuplot >/dev/null; then
	"$T/ex/remake.sh" "$B" >"$T/out" 2>"$T/err"
	check "remake.sh runs" $? "$(head -c 600 "$T/err")"
	for f in "$E"/*.txt "$E"/*.gp "$E"/*.dat "$E"/*.env; do
		b=$(basename "$f")
		cmp -s "$f" "$T/ex/$b"
		check "$b made again from its results file, byte for byte" $? \
			"$(diff "$f" "$T/ex/$b" 2>&1 | head -8)"
	done
else
	skip "remake.sh reproduces docs/examples" "no gnuplot"
fi

# every shipped figure and table has the results file it is made from
orphans=
for f in "$E"/*.png "$E"/*.txt; do
	[ -f "${f%.*}.json" ] || orphans="$orphans $(basename "$f")"
done
check "every example has its results file" "$([ -z "$orphans" ]; echo $?)" "without:$orphans"

# README's headline table is the shipped demo.txt, indented as a code block
awk '/^    fwd_pps, /{on = 1} on && !/^    / && !/^$/ {exit} on' "$TOP/README.md" |
	sed -e 's/^    //' -e '${/^$/d}' >"$T/readme.txt"
cmp -s "$T/readme.txt" "$E/demo.txt"
check "README's table is docs/examples/demo.txt" $? "$(diff "$T/readme.txt" "$E/demo.txt" | head -8)"

# `run PROFILE -o sweep.json`: the plot is sweep.png, not the profile's demo-out/demo.png
# (a complete results file: --resume prints the table and writes the plot, no root)
if command -v gnuplot >/dev/null; then
	mkdir -p "$T/run/demo-out"
	cp "$E/demo.json" "$T/run/sweep.json"
	echo "earlier run's plot" >"$T/run/demo-out/demo.png"
	(cd "$T/run" && "$B/ppslab" run "$TOP/profiles/demo.json" -o sweep.json --resume) \
		>"$T/out" 2>"$T/err"
	check "run -o sweep.json --resume of a complete file: status 0" $? "$(head -c 600 "$T/err")"
	test -s "$T/run/sweep.png" && test -s "$T/run/sweep.gp"
	check "run -o sweep.json: the plot is sweep.png beside it" $? "$(ls "$T/run")"
	grep -qx "earlier run's plot" "$T/run/demo-out/demo.png"
	check "run -o sweep.json: the profile's demo-out/demo.png is left alone" $?
	cp "$E/demo.json" "$T/run/x.png"
	(cd "$T/run" && "$B/ppslab" run "$TOP/profiles/demo.json" -o x.png --resume) \
		>"$T/out" 2>"$T/err"
	jq -e .run_id "$T/run/x.png" >/dev/null && test -s "$T/run/x-plot.png"
	check "run -o x.png: the plot never replaces the results file" $? "$(ls "$T/run")"
else
	skip "run -o: the plot named after it" "no gnuplot"
fi
echo "1..$n"
