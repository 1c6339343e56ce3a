#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_suite.sh — a profile of several tests (docs/profiles.md#tests) from the command line:
# --dry-run of the shipped RFC 2544 suite lists each test with its estimated time and
# its cases tagged with the test; a bad test is named FILE:LINE:COLUMN; the report, the
# table and compare of a canned results file of two tests keep the tests apart, and the
# report lists every deviation from RFC 2544, each naming its test.
set -u
B=${PPSLAB_BIN:?}/ppslab
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_suite.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
S=$TOP/tests/data/suite.json

run "dry-run of profiles/rfc2544-full.json" 0 "" "$B" run --dry-run "$TOP/profiles/rfc2544-full.json"
for t in throughput latency frame-loss back-to-back filters; do
	grep -qE "^== test [0-9]/5: $t: about [0-9]+ (min|s)" "$T/out"
	check "dry-run: test $t with its estimated time" $? "$(grep '^== test' "$T/out")"
done
grep -qE "^all 5 tests: 42 cases, estimated time about [0-9]+ min" "$T/out"
check "dry-run: the whole suite's cases and time" $? "$(grep '^all' "$T/out")"
grep -q "test=filters/size=64/rules=25  rep 1" "$T/out"
check "dry-run: each case's id names its test" $? "$(tail -3 "$T/out")"

cat >"$T/bad.json" <<'P'
{ "tests": [ { "name": "tput", "trial": { "method": "rfc2544" } },
             { "name": "tput", "trial": { "method": "b2b" } },
             { "name": "b2b", "trial": { "method": "b2b", "b2b_trials": 0 } } ] }
P
run "a bad test: EX_DATAERR" 65 "" "$B" run --dry-run "$T/bad.json"
grep -q "bad.json:2:24: tests\[1\].name: two tests are named \"tput\"" "$T/err"
check "a bad test: its name placed FILE:LINE:COLUMN" $? "$(cat "$T/err")"
grep -q "bad.json:3:73: tests\[2\].trial.b2b_trials: " "$T/err"
check "a bad test: its trial key placed in the test" $? "$(cat "$T/err")"
[ ! -s "$T/out" ]
check "a bad test: nothing on stdout" $?

run "report of a results file of tests" 0 "" "$B" report "$S" -o "$T/rep" --no-plots
R=$T/rep/report.md
ok_all=0
while IFS= read -r dev; do
	grep -qF -- "- $dev" "$R" || { ok_all=1; echo "# missing in the report: $dev"; }
done < <(jq -r '.method.rfc2544_deviations[]' "$S")
check "report: every deviation of the file, each naming its test" $ok_all
grep -q "test back-to-back:\*\* trial=b2b" "$R"
check "report: each test's method" $? "$(sed -n '/## Method/,/###/p' "$R")"

run "table of tests" 0 "" "$B" table "$S" --rows size --cols test --metric fwd_pps
grep -qE "^64 +410,000 +1,488,095$" "$T/out"
check "table: a column per test" $? "$(cat "$T/out")"

cp "$S" "$T/b.json"
run "compare of two files of tests" 0 "" "$B" compare "$S" "$T/b.json"
grep -qE "^test=throughput/size=64 +ndr_pps" "$T/out" &&
	grep -qE "^test=back-to-back/size=1518 +fwd_pps" "$T/out"
check "compare: cells matched by test and case" $? "$(head -c 600 "$T/out")"

echo "1..$n"
