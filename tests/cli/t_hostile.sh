#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_hostile.sh — a results file whose strings hold escape codes, newlines, quotes and
# backslashes: table, compare and trend print them escaped (\x1b, \n), never raw; the
# plot's .dat and .gp get no raw newline or escape from them; names with control
# characters, negative rates and a repetition given twice are refused with the path.
set -u
B=${PPSLAB_BIN:?}/ppslab
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_hostile.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$TOP/tests/cli/lib.sh"
cd "$T" || exit 1

# an axis value with an escape code, a newline and quotes; a flag text with the same
jq '.matrix.axes.os = ["\u001b[31mRED\nssh-ed25519 AAAA x\"y'"'"'z\\w", "b"]
	| .cases |= (to_entries | map(.value.params.os = (if .key % 2 == 0
		then "\u001b[31mRED\nssh-ed25519 AAAA x\"y'"'"'z\\w" else "b" end)
		| .value.case_id += "/os=\(.key % 2)"
		| if .key == 2 then .value.flags = ["slow: \u001b[2Jcleared\nline"] else . end
		| .value) )' "$TOP/tests/data/small.json" >"$T/evil.json"
esc=$(printf '\033')
raw() {   # raw FILE: an escape byte, or a line that starts where a value went on
	grep -q "$esc" "$1" || grep -q '^ssh-ed25519\|^line' "$1"
}
run "table over hostile strings: status 0" 0 "" "$B" table "$T/evil.json"
check "table: no escape code or raw newline from the file" "$(raw "$T/out"; echo $((!$?)))" \
	"$(grep -n "$esc\|^ssh\|^line" "$T/out" | head -3 | cat -v)"
check "table: shown escaped" "$(grep -qF 'os=\x1b[31mRED\nssh-ed25519' "$T/out"; echo $?)"
check "table: the flag's text escaped" "$(grep -qF 'slow: \x1b[2Jcleared\nline' "$T/out"; echo $?)"
run "compare --by os: status 0" 0 "" "$B" compare "$T/evil.json" --by os
check "compare: nothing raw" "$(raw "$T/out"; echo $((!$?)))"
run "trend: status 0" 0 "" "$B" trend "$T/evil.json" "$TOP/tests/data/small.json"
check "trend: nothing raw" "$(raw "$T/out"; echo $((!$?)))"
if command -v gnuplot >/dev/null; then
	run "plot over hostile strings: status 0" 0 "" "$B" plot "$T/evil.json" -o "$T/p.png"
	check "plot: no escape code or raw newline in the .dat" "$(raw "$T/p.dat"; echo $((!$?)))" \
		"$(grep -n "$esc\|^ssh" "$T/p.dat" | head -3 | cat -v)"
	check "plot: none in the .gp" "$(raw "$T/p.gp"; echo $((!$?)))"
else
	skip "plot over hostile strings" "no gnuplot"
fi
run "plot: -o with a control character is refused" 64 "a file name with a control character" \
	"$B" plot "$T/evil.json" -o "$T/a
b.png"

# refused with the JSON path
jq '.cases[0].metrics.fwd_pps = -5' "$TOP/tests/data/small.json" >"$T/neg.json"
run "a negative rate: 65 with its path" 65 'neg.json: \$\.cases\[0\]\.metrics\.fwd_pps: a rate cannot be negative' \
	"$B" compare "$T/neg.json" --by pollhz
jq '.cases += [.cases[0]]' "$TOP/tests/data/small.json" >"$T/dup.json"
run "a repetition given twice: 65 naming both" 65 '\$\.cases\[12\]: repetition [0-9]+ of case .* again \(first at \$\.cases\[0\]\)' \
	"$B" table "$T/dup.json"
jq '.cases[0].metrics["a\nb"] = 1' "$TOP/tests/data/small.json" >"$T/name.json"
run "a metric name with a newline: 65" 65 'metrics: a metric name with a control character' \
	"$B" table "$T/name.json"
echo "1..$n"
