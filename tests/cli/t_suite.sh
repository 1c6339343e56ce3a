#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_suite.sh — a profile of several tests (docs/profiles.md#tests) from the command line:
# --dry-run of the shipped RFC 2544 suite (the lab's and the router template's: every
# test of RFC 2544 section 26 and 11.4, the template with 26.6 reset through its reboot
# hook, its settings applied again after it) lists each test with its estimated time and
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
i=0
for t in throughput latency frame-loss back-to-back recovery filters; do
	i=$((i + 1))
	grep -qE "^== test $i/6: $t: about [0-9]+ (min|s)" "$T/out"
	check "dry-run: test $t with its estimated time" $? "$(grep '^== test' "$T/out")"
done
grep -qE "^all 6 tests: 49 cases, estimated time about [0-9]+ min" "$T/out"
check "dry-run: the whole suite's cases and time" $? "$(grep '^all' "$T/out")"
grep -q "test=filters/size=64/rules=25  rep 1" "$T/out"
check "dry-run: each case's id names its test" $? "$(tail -3 "$T/out")"
# RFC 2544 section 26.5 at each size: a search for the throughput, then 110 % and 55 %
grep -q "outage (recovery) at 100 % of the NDR an rfc2544 search finds in a 2.5-s trial as the throughput: 110 % of it" "$T/out" &&
	[ "$(grep -c '^ *[0-9]*  test=recovery/size=' "$T/out")" = 7 ]
check "dry-run: recovery (26.5) from the throughput found, at the seven sizes" $? \
	"$(sed -n '/== test 5/,/estimated/p' "$T/out")"

# the template for a real router: the same tests, and 26.6 reset through its reboot hook
run "dry-run of profiles/rfc2544-full-router.json" 0 "" "$B" run --dry-run \
	"$TOP/profiles/rfc2544-full-router.json" --set repetitions=2
i=0
for t in throughput latency frame-loss back-to-back recovery reset filters; do
	i=$((i + 1))
	grep -qE "^== test $i/7: $t: about [0-9]+ (h|min)" "$T/out"
	check "router dry-run: test $t with its estimated time" $? "$(grep '^== test' "$T/out")"
done
grep -qE "^all 7 tests: 100 cases, estimated time about [0-9]+ h" "$T/out"
check "router dry-run: the whole suite's cases" $? "$(grep '^all' "$T/out")"
# the reset at the smallest frame size, twice: each a reboot, the settings applied again
sed -n '/== test 6\/7/,/== test 7/p' "$T/out" >"$T/reset"
grep -q "outage (reset) at 100 % of the NDR an rfc2544 search finds in a 240-s trial, the action 10 s into the trial: hook ssh root@r2 shutdown -r now" "$T/reset" &&
	grep -q "method: outage, warm-up 2 s, trials 60 s" "$T/reset" &&
	grep -qE "^  reset \(reboot\) +every case" "$T/reset" &&
	grep -qE "^  setup +2 runs \(once and after every outage action\)" "$T/reset" &&
	grep -qE "^  rules +2 runs" "$T/reset" &&
	[ "$(grep -c '^ *[0-9]*  test=reset/size=64  rep' "$T/out")" = 2 ] &&
	! grep -q 'test=reset/size=128' "$T/out"
check "router dry-run: reset (26.6) by the reboot hook at 64 bytes, the setup and rules again after each" $? \
	"$(cat "$T/reset")"

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
