#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_faults.sh — ppslab run when things go wrong: an output it cannot
# write is refused before anything runs; a disk that fills mid-sweep stops the run
# with status 74 and leaves the last complete results file intact (atomic saves);
# a vanished interface fails its case with a message naming it (and the tool that was
# never ready); an interrupted file is not overwritten without --resume or --force.
. "$(dirname "$0")/lib.sh"
lab_up
P=$T/p.json
cat >"$P" <<JSON
{ "description": "t_run_faults",
  "matrix": { "pollhz": [500, 1000, 1500, 2000] },
  "params": { "burst_max": 20, "offered": "20k" },
  "trial": { "method": "fixed", "warmup": "0.2s", "duration": "0.6s", "settle": "0.1s" },
  "rig": { "calibrate": false, "direct": false },
  "topology": { "kind": "netns", "lab": "$LAB" } }
JSON
"$B/ppslab" run "$P" -o /nonexistent-dir/r.json -q >"$T/o1" 2>"$T/e1"
eq "an output in a missing directory: status 73 before anything runs" "$?" 73
check "the message names the file" grep -q "/nonexistent-dir/r.json" "$T/e1"
check "and no namespace was touched (no forwarder ran)" test ! -s "$T/o1"

# a disk that fills up during the sweep
mkdir -p "$T/small"
if mount -t tmpfs -o size=40k tmpfs "$T/small" 2>/dev/null; then
	"$B/ppslab" run "$P" -o "$T/small/r.json" -q --no-table >"$T/o2" 2>"$T/e2"
	eq "disk full mid-sweep: status 74" "$?" 74
	check "the error says it could not save" grep -q "cannot save the results" "$T/e2"
	check "and why: no space, not an I/O error" grep -q "No space left on device (the previous version is intact)" "$T/e2"
	eq "the file on the full disk is still a whole results file" "$(jq -r .schema "$T/small/r.json")" "ppslab/result"
	check "with the cases it saved before" test "$(jq '.cases | length' "$T/small/r.json")" -ge 1
	eq "no temporary file left behind" "$(ls "$T/small" | grep -vc '^r.json$')" 0
	umount "$T/small"
else
	skip "disk full mid-sweep" "cannot mount a tmpfs here"
fi

# a vanished interface: the case fails with its name, the sweep goes on
jq '.topology = { kind: "local", gen: { iface: "nosuch0" }, sink: { iface: "nosuch1" },
	} | .router = { kind: "none" } | .matrix.pollhz = [500, 1000]' "$P" >"$T/gone.json"
"$B/ppslab" run "$T/gone.json" -o "$T/gone-r.json" -q --no-table >"$T/o3" 2>"$T/e3"
eq "cases on a missing interface fail: status 1" "$?" 1
eq "both cases failed, the run completed" "$(jq -r '[.cases[].status] | join(",")' "$T/gone-r.json") $(jq -r .complete "$T/gone-r.json")" "failed,failed true"
check "the error names the interface" grep -q "nosuch" <(jq -r '.cases[0].error' "$T/gone-r.json")
check "and the sink box, which ended before it was ready (docs/readiness.md)" \
	grep -q "^the sink box sink (this host): ppslab-sink (sink) exited with status 69 before it was ready: ppslab-sink: " \
	<(jq -r '.cases[0].error' "$T/gone-r.json")
done_testing
