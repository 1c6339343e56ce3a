#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_tests.sh — a profile of two tests (docs/profiles.md#tests) through the lab: a
# fixed load at two frame sizes, then a ladder of two loads at one size. Every planned
# case is in the one results file with its test's name first in its params and in its
# id, measured by its test's method; the file's axes and methods name both tests, its
# deviations name each test's, and the table keeps the tests apart. The loads are low
# (the books, not the rate, are the point): every trial's frames are accounted for.
. "$(dirname "$0")/lib.sh"
P=$T/tests.json
R=$T/r.json
jq -n --arg lab "$LAB" --arg r "$R" '{
  description: "t_run_tests: two tests into one file",
  matrix: { size: [64, 128] },
  params: { mode: "busy", offered: "20k" },
  trial: { warmup: "0.1s", duration: "0.3s", settle: "0.05s" },
  tests: [
    { name: "load", trial: { method: "fixed" } },
    { name: "steps", trial: { method: "ladder", ladder: ["5k", "10k"] },
      params: { size: 256 } } ],
  rig: { calibrate: false, direct: false },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }' >"$P"

"$B/ppslab" run "$P" --dry-run >"$T/dry.out" 2>&1
eq "--dry-run exits 0" "$?" 0
check "--dry-run: the first test and its time" grep -qE "^== test 1/2: load: about [0-9]+ s" "$T/dry.out"
check "--dry-run: the second test and its time" grep -qE "^== test 2/2: steps: about [0-9]+ s" "$T/dry.out"

"$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
eq "the run exits 0" "$?" 0
[ -s "$T/run.err" ] && sed 's/^/# /' "$T/run.err" | head -n 10
eq "every planned case is in the file" "$(jq '.cases | length' "$R")" 3
eq "the file is complete" "$(jq .complete "$R")" true
eq "the cases in run order, each with its test" \
	"$(jq -c '[.cases[] | .params.test]' "$R")" '["load","load","steps"]'
eq "... and their ids" "$(jq -c '[.cases[] | .case_id]' "$R")" \
	'["test=load/size=64","test=load/size=128","test=steps"]'
eq "the test is the first of a case's params" "$(jq -c '[.cases[] | .params | keys_unsorted[0]] | unique' "$R")" '["test"]'
eq "each case is ok or flagged" \
	"$(jq '[.cases[] | select(.status == "ok" or .status == "flagged")] | length' "$R")" 3
# the sizes the senders sent (wire_size), not only the params that name them
eq "the fixed test: one trial a case at its size" \
	"$(jq -c '[.cases[] | select(.params.test == "load") | [.params.size, (.trials | length), ([.trials[].gen[0].wire_size] | unique)]]' "$R")" \
	'[[64,1,[64]],[128,1,[128]]]'
eq "the ladder test: a trial a step, at its own size" \
	"$(jq -c '[.cases[] | select(.params.test == "steps") | [.params.size // "fixed", (.trials | length), ([.trials[].gen[0].wire_size] | unique)]]' "$R")" \
	'[["fixed",2,[256]]]'
eq "the books of every trial (sent = received + lost)" \
	"$(jq '[.cases[].trials[].checks[] | select(.name == "sent = received + lost" and .ok == false)] | length' "$R")" 0
eq "matrix.axes names the tests first" "$(jq -c '.matrix.axes | keys_unsorted' "$R")" '["test","size"]'
eq "method.tests: each test's method" "$(jq -c '[.method.tests[] | [.name, .trial]]' "$R")" \
	'[["load","fixed"],["steps","ladder"]]'
check "deviations name each test" grep -qx "load: 0.3 s trials instead of 60 s (RFC 2544 §24)" \
	<(jq -r '.method.rfc2544_deviations[]' "$R")
check "... the second's too" grep -qx "steps: frame loss in steps up to 50 % of the highest load instead of 10 % (RFC 2544 §26.3)" \
	<(jq -r '.method.rfc2544_deviations[]' "$R")
"$B/ppslab" table "$R" --rows test --metric fwd_pps >"$T/table.out" 2>&1
eq "table by test exits 0" "$?" 0
check "... a row per test" grep -qE "^steps " "$T/table.out"
done_testing
