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

# a hung forwarder: stopped (SIGSTOP) once the first case is saved. Its case fails
# saying so, it is killed by PID and replaced, and the later cases are ok.
"$B/ppslab" run "$P" -o "$T/hung.json" -q --no-table >"$T/o4" 2>"$T/e4" &
RUN=$!
ncases() { test "$(jq '.cases | length' "$T/hung.json" 2>/dev/null)" -ge "$1" 2>/dev/null; }
if wait_until 60 "the first case saved" ncases 1; then
	FWD=$(lab_procs rut ppslab-rut)
	eq "one forwarder runs" "$(echo "$FWD" | wc -w)" 1
	kill -STOP $FWD
	wait_until 120 "the run ended" gone $RUN
	wait $RUN
	eq "a hung forwarder: the run ends with status 1" "$?" 1
	S=$(jq -r '[.cases[].status] | join(",")' "$T/hung.json")
	check "exactly one case failed ($S)" test "$(echo "$S" | tr , '\n' | grep -c failed)" = 1
	check "after it no case failed ($S)" grep -Eq '^(ok|flagged),((ok|flagged),)*failed(,(ok|flagged))+$' <<<"$S"
	check "the failed case says the forwarder did not answer" \
		grep -q "ppslab-rut (pid $FWD) did not answer" <(jq -r '.cases[] | select(.status == "failed") | .error' "$T/hung.json")
	check "the stopped forwarder was killed" gone $FWD
	eq "the run ended with no forwarder left" "$(lab_procs rut ppslab-rut | wc -w)" 0
else
	not_ok "the hung-forwarder run saved its first case" "$(head -c 300 "$T/e4")"
	kill $RUN
	wait $RUN
fi

# two runs at once: the second is refused at once (status 75), naming the first
"$B/ppslab" run "$P" -o "$T/a.json" -q --no-table >"$T/oa" 2>"$T/ea" &
A=$!
# the lock file says who holds it once it is held; probing with flock would take the
# lock for an instant and could make the first run the one refused
held() { grep -q "^pid $A, " "$1" 2>/dev/null; }
both_held() { held "$T/.a.json.lock" && held "/run/ppslab/lab-$LAB.lock"; }
if wait_until 30 "the first run holds its locks" both_held; then
	t0=$(date +%s%N)
	"$B/ppslab" run "$P" -o "$T/a.json" -q --no-table >"$T/ob" 2>"$T/eb"
	eq "a second run on the same results file: status 75" "$?" 75
	check "refused at once (under 5 s)" test $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 5
	check "naming the first: its pid and start time" \
		grep -Eq "ppslab: the results file $T/a.json is in use by another ppslab run \(pid $A, started [0-9T:-]+Z" "$T/eb"
	check "nothing on stdout" test ! -s "$T/ob"
	"$B/ppslab" run "$P" -o "$T/c.json" -q --no-table >/dev/null 2>"$T/ec"
	eq "another results file on the same lab: status 75" "$?" 75
	check "naming the lab and the first run" grep -q "the lab $LAB is in use by another ppslab run (pid $A, " "$T/ec"
	check "and no results file made" test ! -e "$T/c.json"
	# SIGKILL: the kernel drops the locks; its forwarder is left running, bound to the
	# lab's ports: lab status and the next run say so, --kill-strays stops it
	has_fwd() { [ -n "$(lab_procs rut ppslab-rut)" ]; }
	wait_until 60 "the first run's forwarder runs" has_fwd
	FWD=$(lab_procs rut ppslab-rut)
	kill -KILL $A
	wait $A 2>/dev/null
	eq "the killed run left its forwarder" "$(echo $FWD | wc -w)" 1
	"$B/ppslab" lab status --name "$LAB" >"$T/st" 2>&1
	eq "lab status: exit 1 with a stray" "$?" 1
	check "lab status names it" grep -q "broken: ppslab-rut (pid $FWD) is running in $LAB-rut with no run holding the lab" "$T/st"
	jq '.matrix.pollhz = [500]' "$P" >"$T/p1.json"
	"$B/ppslab" run "$T/p1.json" -o "$T/a.json" --force -q --no-table >/dev/null 2>"$T/ed"
	eq "the next run refuses to start over it: status 75" "$?" 75
	check "naming it" grep -q "ppslab-rut (pid $FWD) is still running in $LAB-rut, left by another run: not starting over it (--kill-strays stops it)" "$T/ed"
	check "and leaves it alone" kill -0 "$FWD"
	"$B/ppslab" run "$T/p1.json" -o "$T/a.json" --force --kill-strays --no-table >/dev/null 2>"$T/ed"
	check "with --kill-strays it runs: no stale lock either (status $?)" test $? -le 1
	check "saying what it stopped" grep -q "stopping ppslab-rut (pid $FWD) left running in $LAB-rut" "$T/ed"
	check "the stray is gone" gone "$FWD"
	eq "its results are there" "$(jq '.cases | length' "$T/a.json")" 1
	eq "and the lab is clean again" "$("$B/ppslab" lab status --name "$LAB" >/dev/null; echo $?)" 0
	check "and its lock file removed at the end" test ! -e "$T/.a.json.lock"
	check "and the lab's" test ! -e "/run/ppslab/lab-$LAB.lock"
else
	not_ok "the first run took its locks" "$(head -c 300 "$T/ea")"
	kill -KILL $A
	wait $A
fi
done_testing
