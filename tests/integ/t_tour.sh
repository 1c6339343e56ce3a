#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_tour.sh — README's five-minute tour, as written, in a lab of the test's own name the
# way README says to pick one (lab --name, namespaces NAME-*, run --set topology.lab=).
# The commands are read out of README.md, so a change there changes what runs here. The
# sink waits for its sender (its idle clock starts at the first frame) and stops by
# itself; the forwarder holds the sink to its polling bound; raised live, it delivers
# every frame; the sweeps, tables, plots, compare and report work from a results file.
# Two changes to what README says, each for the test's sake: --json on the sender and
# sink (to assert on their JSON), and the sweeps shortened (one repetition of 0.5 s
# trials) to keep the test short.
. "$(dirname "$0")/lib.sh"
TOP=${PPSLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# the tour's commands: README's indented lines from "A five-minute tour" to the next
# section that begin with a command
awk '/^## A five-minute tour/ {on = 1; next} /^## / {on = 0}
	on && /^    (sudo |make|mkdir|build\/bin\/)/' "$TOP/README.md" |
	sed -e 's/^    //' -e 's/  *#.*$//' >"$T/tour.txt"
check "README has a tour to run" test "$(wc -l <"$T/tour.txt")" -ge 10

# each command as README says to run it in lab $LAB: sudo dropped (the test is root),
# build/bin/ and tests/data/ at the tree's, the namespaces and --ctl socket the lab's
adapt() {
	sed -e 's/^sudo //' -e 's/ && sudo / \&\& /' \
		-e "s#build/bin/#$B/#g" -e "s#tests/data/#$TOP/tests/data/#g" \
		-e "s#netns exec ppslab-\\([a-z]*\\)#netns exec $LAB-\\1#" \
		-e "s#/tmp/rut.sock#$T/rut.sock#g" \
		-e "s#\\(ppslab lab [a-z]*\\)\$#\\1 --name $LAB#"
}
adapt <"$T/tour.txt" >"$T/cmds.txt"
# the commands by what they do (README's order within each kind)
pick() { grep -E -- "$1" "$T/cmds.txt" | sed -n "${2:-1}p"; }
SINK=$(pick 'ppslab-sink -i')
RUT=$(pick 'ppslab-rut -i')
GEN=$(pick 'ppslab-gen -i')
CTL=$(pick 'ppslab-rut ctl .* sysctl')
check "the tour has a sink, forwarder, sender and a live sysctl" \
	test -n "$SINK" -a -n "$RUT" -a -n "$GEN" -a -n "$CTL"
if grep -E 'lab (up|status|down)' "$T/cmds.txt" | grep -qv -- "--name $LAB"; then
	bail "a lab command of the tour not in lab $LAB: $(cat "$T/cmds.txt")"
fi

cd "$T" || bail "cd $T"
sh -c "$(pick 'lab up')" >"$T/up.out" 2>&1
eq "lab up --name NAME" "$?" 0
sh -c "$(pick 'lab status')" >"$T/status.out" 2>&1
eq "lab status --name NAME" "$?" 0

# bg NAME COMMAND: a README command (ip netns exec ...) in the background, as start does
bg() {
	local name=$1
	shift
	sh -c "exec $*" >"$T/$name.out" 2>"$T/$name.err" &
	BG_PID[$name]=$!
}
# ended NAME: wait for the background command NAME, which has ended or is ending; $RC
ended() { wait "${BG_PID[$1]}"; RC=$?; unset "BG_PID[$1]"; }
# the sink, then (after its idle time has passed with no traffic) the forwarder, then
# the sender, as in three terminals
bg sink1 "$SINK --json"
wait_ready sink1 || bail "sink not ready"
bg rut "$RUT"
wait_ready rut || bail "forwarder not ready"
idle=$(sed -n 's/.*--idle \([0-9.]*\).*/\1/p' <<<"$SINK")
sleep "${idle:-2}"   # the time is the test's point: longer than --idle without traffic
check "the sink still waits for traffic after --idle ${idle}s of none" kill -0 "${BG_PID[sink1]}"
sh -c "$GEN --json" >"$T/gen1.out" 2>"$T/gen1.err"
eq "sender: exit 0" "$?" 0
wait_until 60 "the sink stops by itself after the traffic" gone "${BG_PID[sink1]}"
ended sink1
eq "sink: exit 0" "$RC" 0
s1=$(grep '"type":"summary"' "$T/sink1.out")
g1=$(grep '"type":"summary"' "$T/gen1.out")
tx=$(jq .tx_pkts <<<"$g1")
eq "the sender sent 50,000 pps for 5 s" "$tx" 250000
# the forwarder's bound, 1000 Hz x 20 = 20,000 pps: the sink's rate (first to last
# frame) is at most that, and the rest of what was sent is lost
within "the sink's rate is held at the polling bound" "$(jq '.pps | round' <<<"$s1")" 1000 20400
check "frames beyond the bound are lost" test "$(jq '.lost_pkts > 0 and .rx_pkts < 200000' <<<"$s1")" = true

# raise the clock and budget live; the output is README's
sh -c "$CTL" >"$T/ctl.out" 2>"$T/ctl.err"
eq "ctl sysctl: exit 0" "$?" 0
want=$(grep -A2 -F 'ppslab-rut ctl /tmp/rut.sock sysctl' "$TOP/README.md" | sed -n '2,3s/^    //p')
eq "ctl sysctl prints what README shows" "$(cat "$T/ctl.out")" "$want"
# send again with a new sink: all 250,000 frames, none lost (4000 x 50 is above 50k)
# the forwarder's own word on its clock (ticks a starved thread skipped), around the send
STATS=$(sed 's/ sysctl .*/ stats/' <<<"$CTL")
skips() { sh -c "$STATS" | jq '.polling.clock_skips + .polling.ticks_deferred'; }
k0=$(skips)
bg sink2 "$SINK --json"
wait_ready sink2 || bail "second sink not ready"
sh -c "$GEN --json" >"$T/gen2.out" 2>"$T/gen2.err"
eq "sender, second time: exit 0" "$?" 0
wait_until 60 "the second sink stops by itself" gone "${BG_PID[sink2]}"
ended sink2
eq "second sink: exit 0" "$RC" 0
s2=$(grep '"type":"summary"' "$T/sink2.out")
k1=$(skips)
got=$(jq -r '[.rx_pkts, .lost_pkts] | join(",")' <<<"$s2")
want="$(grep '"type":"summary"' "$T/gen2.out" | jq .tx_pkts),0"
if [ "$got" = "$want" ]; then
	ok "raised live: every frame delivered (received, lost)"
elif [ "$k1" -gt "$k0" ]; then   # a host that starves the forwarder's clock: it says so
	skip "raised live: every frame delivered" \
		"got $got of $want; the forwarder's clock skipped $((k1 - k0)) ticks meanwhile"
else
	not_ok "raised live: every frame delivered (received, lost)" "got $got, wanted $want"
fi
kill -INT "${BG_PID[rut]}"
ended rut
eq "forwarder: exit 0 at Ctrl-C" "$RC" 0
grep -q "ticks ran late by" "$T/rut.out"
check "forwarder's summary says how late its ticks ran, as README says" test $? = 0

# the sweeps, shortened (see the top)
short=(--set repetitions=1 --set trial.duration=0.5s --set trial.warmup=0s)
n_run=0
while IFS= read -r c; do
	n_run=$((n_run + 1))
	case $c in
	*--dry-run*) sh -c "$c" >"$T/run$n_run.out" 2>&1 ;;
	*) sh -c "$c --set topology.lab=$LAB ${short[*]} -q" >"$T/run$n_run.out" 2>&1 ;;
	esac
	eq "tour: ${c#"$B/"}" "$?" 0
done < <(grep -E 'ppslab run ' "$T/cmds.txt")
eq "the demo's results file" "$(jq -r '[.complete, (.cases | length)] | join(",")' demo-out/demo.json)" "true,8"
eq "the sweep's results file" "$(jq -r '[.complete, (.cases | length)] | join(",")' sweep.json)" "true,12"
check "the demo's plot and the sweep's, each its own" test -s demo-out/demo.png -a -s sweep.png

# tables, plots, compare, report: no root needed, from the results files
while IFS= read -r c; do
	sh -c "$c" >"$T/a.out" 2>"$T/a.err"
	eq "tour: ${c#"$B/"}" "$?" 0
done < <(grep -E 'ppslab (table|plot|compare|report) ' "$T/cmds.txt")
check "plot -o demo-out/all.png written" test -s demo-out/all.png
check "report.html written" test -s demo-out/report/report.html

sh -c "$(pick 'lab down')" >"$T/down.out" 2>&1
eq "lab down --name NAME" "$?" 0
check "the lab's namespaces are gone" test -z "$(ip netns list | grep -E "^$LAB-")"
cd / || true
done_testing
