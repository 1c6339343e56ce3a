#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_outage.sh — outages of known length, measured by the sink's gap list: a stream of
# 10,000 pps through ppslab-rut (intr mode: every frame forwarded when it comes), then
# 1. `ppslab-rut ctl pause 250`: the sink's longest silence is the stall as the
#    forwarder measured it (pause.last_ns) within one frame interval plus a stated
#    allowance, and the requested 250 ms within that plus the forwarder's own overrun;
#    the frames the stall spanned are at least its length × the rate, the rest held in
#    the ring and forwarded after; at a `stats` reading before and after it, the
#    frames the sink lost are the ring's drops (kernel_drops) by then, counted by
#    frame (at_reading);
# 2. the egress link set down for 250 ms by the test: the sink's gap lies within the
#    window the test measured around its two `ip link` commands, and frames were lost in
#    it, no more than the forwarder counted as drops.link_down (plus any its egress
#    refused) and ring drops.
# 3. a pause in poll mode with two forwarding threads;
# 4. 20,000 rules loaded under the stream, one call a line as ipfw(8) reads a file and
#    all at once: the frames the sink lost up to the ring's next empty instant after
#    each load are the forwarder's ring drops before and during it (at_reading), and
#    the all-at-once load's silence is its stall.
# The books hold throughout: received + lost = sent, every loss at a named place.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
S=$T/ctl.sock
RATE=10000
I_NS=$((1000000000 / RATE))     # the frame interval
SLACK_NS=2000000                # forwarding-delay difference of the frames around a gap:
				# a wake-up each, tens of us idle, ms on a busy host
HOST_NS=10000000                # the forwarder's wake-up at normal priority on a busy host,
				# after the link is back (nothing of it is measured)
stat_of() { "$B/ppslab-rut" ctl "$S" stats 2>/dev/null | jq -r "$1 // 0"; }
# a reading of thread 0 at one instant (the stats command runs on it): the frames it
# read, its ring's drops, its egress drops
reading() { "$B/ppslab-rut" ctl "$S" stats 2>/dev/null |
	jq -r '"\(.rx_pkts) \(.kernel_drops) \(.drops.link_down + .tx_errors)"'; }
moved() { [ "$(stat_of "$1")" -gt "$2" ] 2>/dev/null; }
now_ns() { date +%s%N; }

start sink sink "$B/ppslab-sink" -i sink0 --duration 120 --gap-min 50ms --gap-list 64 \
	--expect-from "$T/gen.out" --json
# a ring of 512 frames: a stall of 250 ms at 10,000 pps (2,500 frames) overflows it
start rut rut "$B/ppslab-rut" -i afpacket:rut0,ring=v2,frames=512 -o rut1 --mode intr \
	--ctl "$S" --json
wait_ready sink; wait_ready rut
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate $RATE --duration 60 --json
wait_until 20 "the forwarder forwards" moved .fwd_pkts 3000

# 1. the pause
read -r rx0 kd0 _ <<<"$(reading)"
pc0=$(now_ns); reply=$("$B/ppslab-rut" ctl "$S" pause 250); pc1=$(now_ns)
eq "ctl pause 250 answers at once" "$reply" "forwarding paused for 250 ms"
wait_until 20 "the pause ended" moved .pause.last_ns 0
f0=$(stat_of .fwd_pkts)
wait_until 20 "forwarding after the pause" moved .fwd_pkts $((f0 + 2000))

# 2. the link, down for 250 ms (the sleep is the outage's length: the test's point)
read -r rx1 kd1 ld0 <<<"$(reading)"
a0=$(now_ns); ip -n "$LAB-rut" link set rut1 down; a1=$(now_ns)
sleep 0.25
b0=$(now_ns); ip -n "$LAB-rut" link set rut1 up; b1=$(now_ns)
f0=$(stat_of .fwd_pkts)
wait_until 20 "forwarding after the link came back" moved .fwd_pkts $((f0 + 2000))
stop gen; rc_gen=$RC
# the sink has what the forwarder did not drop (the sink reads only what arrives)
read_all "$S" $(($(sent gen) - $(jv gen .if_tx_dropped)))
sink_done sink $(($(sent gen) - $(jv gen .if_tx_dropped) - $(stat_of '.kernel_drops + .drop_pkts + .tx_errors'))); rc_sink=$RC
stop rut; rc_rut=$RC

eq "gen, sink, rut exit 0" "$rc_gen,$rc_sink,$rc_rut" 0,0,0
N=$(sent gen)
eq "sink: received + lost = sent ($N)" "$(jv sink '.rx_pkts + .lost_pkts')" "$N"
eq "rut: read = forwarded + dropped" "$(jv rut '.rx_pkts == .fwd_pkts + .drop_pkts')" true
hl=$(host_lost sink gen)
named=$(($(jv rut '.kernel_drops + .drops.link_down + .tx_errors') + hl))
eq "every frame lost dropped at a named place (rut ring, link down, host $hl)" \
	"$(jv sink .lost_pkts)" "$named"
st='.streams[0]'
# the gaps' loss and the tail's (after the last frame, from the sender's count) are the
# stream's, but for frames the host dropped before the first arrival
gl=$(jv sink "$st.gap_lost_pkts + $st.expect - $st.next_seq") sl=$(jv sink "$st.lost_pkts")
if [ "$hl" = 0 ]; then
	eq "the gaps' loss and the tail's are the stream's" "$gl" "$sl"
else
	within "the gaps' loss and the tail's are the stream's, less at most the host's drops ($hl) before the first frame" \
		"$gl" $((sl - hl)) "$sl"
fi
echo "# gaps: $(jv sink "[$st.gaps[] | [.duration_ns, .seq_before, .seq_after, .lost_pkts]]" | tr -d ' \n')"
beh=$(jv gen .behind_max_ns)    # the sender's longest stretch behind its schedule
# the two outages, found by the sink's clock (the test's: one host): the silence above
# 100 ms around the pause command, and the one around the link's down time
sel() { echo "[$st.gaps[] | select(.merged_gaps == 1 and .duration_ns > 100000000 and .before_ns <= $1 and .after_ns >= $2)][0]"; }
pg=$(sel $((pc1 + SLACK_NS)) $((pc0 + 250000000)))
lg=$(sel $((a1 + 5000000 + HOST_NS)) "$b0")
check "a silence above 100 ms spans the pause" test "$(jv sink "$pg | type")" = object
check "a silence above 100 ms spans the link's down time" test "$(jv sink "$lg | type")" = object

# 1. the pause: a silence (what the ring held comes after it), then the frames the ring
# dropped, up to the first frame sent after the stall
p=$(jv rut .pause.last_ns) req=$(jv rut .pause.requested_ns) pl=$(jv rut .pause.last_late_ns)
d=$(jv sink "$pg.duration_ns")
s0=$(jv sink "$pg.seq_before") s1=$(jv sink "$lg.seq_before")
echo "# pause: asked $req ns, the forwarder's stall $p ns (thread 0 stopped $pl ns after the command); the sink's gap $d ns; the sender at most $beh ns behind"
eq "the forwarder paused once, as asked" "$(jv rut '[.pause.count, .pause.requested_ns] | join(",")')" \
	"1,250000000"
within_or_said "the sink's gap is the forwarder's stall (less its late start) ± one frame interval + ${SLACK_NS} ns" \
	"$d" $((p - pl - I_NS - SLACK_NS)) $((p + I_NS + SLACK_NS))
over=$((p - req))
within_or_said "the sink's gap is 250 ms − one interval .. + one interval + the stall's overrun ($over ns) + slack" \
	"$d" $((req - I_NS - SLACK_NS)) $((req + I_NS + over + SLACK_NS))
# the loss after the silence: the first gap past it with frames lost
# (a silence that itself lost frames: the ring overflowed before the stall, the host
# holding the forwarder, and its last frame before the silence was the ring's last:
# which of the stall's frames the ring held is not known; tests/integ/t_run_outage.sh)
lossg="[$st.gaps[] | select(.seq_before >= $s0 and .lost_pkts > 0)][0]"
lost1=$(jv sink "$lossg.lost_pkts")
span=$(($(jv sink "$lossg.seq_after") - s0 - 1))
l0=$(jv sink "$pg.lost_pkts")
stall_span "$l0" "$span" "$lost1" "$p" "$pl" "$beh"
# The books at the two readings around the pause (rut_lib.sh's at_reading): the
# ring's drops by each, against the frames the sink lost before the forwarder's frame
# read last then; what the ring dropped between them, the stall's and any the host
# added, is the sink's loss between those frames
RING=512
un1=$(jv sink "$st.gaps_unlisted")
for r in "before the pause:$rx0:$kd0" "after the pause:$rx1:$kd1"; do
	IFS=: read -r what rx kd <<<"$r"
	if [ "$hl" != 0 ] || [ "$un1" != 0 ]; then
		skip "the books at the reading $what" "the host dropped $hl frames before the forwarder, or the sink's list left out $un1 gaps"
	else
		at_reading "the books at the reading $what" sink "$rx" "$kd" $RING
	fi
done
echo "# the forwarder's ring dropped $((kd1 - kd0)) frames between the readings around the pause ($lost1 in the stall)"
# 2. the link: down at the earliest when the first command started, up at the latest
# when the second returned; the forwarder sees it within its 5 ms link check
d=$(jv sink "$lg.duration_ns")
lost2=$(jv sink "[$st.gaps[] | select(.seq_before >= $s1 and .lost_pkts > 0)][0].lost_pkts")
echo "# link: down for $(((b0 - a1))) .. $(((b1 - a0))) ns by the test's clock; the sink's gap $d ns"
within_or_said "the sink's gap lies within the link's down time (± one interval, + 5 ms check + host allowance)" \
	"$d" $((b0 - a1 - I_NS - SLACK_NS)) $((b1 - a0 + I_NS + 5000000 + HOST_NS))
# (from the reading after the pause on, every frame lost is one the forwarder dropped
# for the link or its ring dropped: the books at that reading and the whole run's)
ldn=$(($(jv rut '.drops.link_down + .tx_errors') - ld0)) kdn=$(($(jv rut .kernel_drops) - kd1))
within "frames were lost with the link down ($lost2), at most what the forwarder dropped meanwhile" \
	"$lost2" 1 $((ldn + kdn + hl))
eq "the longest gap is the longest listed (a merged record's span is no silence)" \
	"$(jv sink "$st.longest_gap_ns")" "$(jv sink "[$st.gaps[] | select(.merged_gaps == 1) | .duration_ns] | max")"

# 3. a pause of 200 ms in poll mode with two forwarding threads (one stream over 64 flows, so
# both forward it, and frames of the two overtake each other: reordering, no gap):
# each thread stops at its next round, so the sink's gap is thread 0's stall within
# one interval, a tick (1 ms at pollhz 1000) at each end and the slack
I2_NS=200000 TICK_NS=1000000
# the link's going down flushed the router's neighbour entry: back as the lab made it
inns rut ip neigh replace 198.19.0.2 dev rut1 nud permanent \
	lladdr "$(inns sink ip -j link show dev sink0 | jq -r '.[0].address')"
start sink3 sink "$B/ppslab-sink" -i sink0 --duration 120 --gap-min 50ms --gap-list 64 \
	--expect-from "$T/gen3.out" --json
start rut3 rut "$B/ppslab-rut" -i rut0 -o rut1 --mode poll --pollhz 1000 --threads 2 \
	--ctl "$S" --json
wait_ready sink3; wait_ready rut3
start gen3 gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --flows 64 --rate 5k --duration 60 --json
wait_until 20 "the forwarder forwards (poll, 2 threads)" moved .fwd_pkts 2000
eq "poll mode: ctl pause 200 answers at once" "$("$B/ppslab-rut" ctl "$S" pause 200)" \
	"forwarding paused for 200 ms"
wait_until 20 "the pause ended (poll)" moved .pause.last_ns 0
f0=$(stat_of .fwd_pkts)
wait_until 20 "forwarding after the pause (poll)" moved .fwd_pkts $((f0 + 1000))
stop gen3
read_all "$S" $(($(sent gen3) - $(jv gen3 .if_tx_dropped)))
sink_done sink3 $(($(sent gen3) - $(jv gen3 .if_tx_dropped) - $(stat_of '.kernel_drops + .drop_pkts + .tx_errors')))
stop rut3
eq "poll: books: received + lost = sent" "$(jv sink3 '.rx_pkts + .lost_pkts')" "$(sent gen3)"
eq "poll: every frame lost dropped at a named place" "$(jv sink3 .lost_pkts)" \
	"$(($(jv rut3 '.kernel_drops + .drop_pkts + .tx_errors') + $(host_lost sink3 gen3)))"
check "poll: both threads forwarded ($(jv rut3 '[.threads[].fwd_pkts] | join(",")'))" \
	test "$(jv rut3 '[.threads[] | select(.fwd_pkts > 0)] | length')" = 2
p=$(jv rut3 .pause.last_ns) pl=$(jv rut3 .pause.last_late_ns) d=$(jv sink3 '.streams[0].longest_gap_ns') beh=$(jv gen3 .behind_max_ns)
echo "# poll: the forwarder's stall $p ns (thread 0 stopped $pl ns after the command); the sink's longest gap $d ns; reordered $(jv sink3 .streams[0].reordered_pkts)"
r3=$(jv sink3 .streams[0].reordered_pkts) l3=$(jv sink3 .streams[0].lost_pkts)
late=$(jv rut3 .polling.tick_late_ns.max)   # the forwarder held by the host, longest
echo "# poll gaps: $(jv sink3 "[.streams[0].gaps[] | [.duration_ns, .seq_before, .seq_after, .lost_pkts, .reordered_pkts, .merged_gaps]]" | tr -d ' \n'); merges $(jv sink3 .streams[0].gap_merges)"
# frames of the two threads overtake each other: each hole they open is filled and goes,
# so every gap listed lost frames or is a silence above --gap-min (the pause's; a busy
# host's own), whatever the host did
un3=$(jv sink3 .streams[0].gaps_unlisted)
if [ "$un3" = 0 ]; then
	eq "poll: $r3 frames reordered between the threads made no gap (each listed lost frames or is a silence above 50 ms)" \
		"$(jv sink3 '[.streams[0].gaps[] | select(.lost_pkts == 0 and .duration_ns <= 50000000)] | length')" 0
else
	skip "poll: reordering made no gap" "the sink's list left out $un3 gaps"
fi
within_or_said "poll: the sink's longest gap is the stall ± one interval, a tick each end and the slack" \
	"$d" $((p - pl - I2_NS - 2 * TICK_NS - SLACK_NS)) $((p + I2_NS + 2 * TICK_NS + SLACK_NS)) \
	"$late" "a tick of the forwarder's ran $late ns late (polling.tick_late_ns.max): the host held it"
# 4. 20,000 rules loaded under 10,000 pps (intr mode, a ring of 128 frames: 12.8 ms),
# twice: as ipfw(8) loads a file (`ipfw -q -per-rule /FILE`: one call a line, in the
# time the forwarding leaves), then all at once (`ipfw -q /FILE`, thread 0 held for the
# whole load). Each time the frames the sink lost up to the ring's next empty instant
# after the load are the forwarder's ring drops before the load and in it
# (load.kernel_drops_before + load.kernel_drops, lost_in); the whole load's silence is
# its stall (load.stall_ns) within one frame interval and the slack.
# (rules that never match the stream, after the rule that allows it: the load's cost, not
# the rules' evaluation, is what this measures)
# Under the sanitizers (build-san) 5,000: the per-rule load's copying is O(n^2), and
# ASan makes it ten times slower (32 s of CPU for 20,000 rules).
NR=20000
case "$(basename "$(dirname "$B")")" in build-san*) NR=5000 ;; esac
awk -v n=$NR 'BEGIN { for (i = 1; i <= n; i++)
	printf "add %d deny ip from 198.18.%d.%d to any\n", i + 1, 128 + int(i / 256), i % 256 }' \
	>"$T/r20k.rules"
echo "add 1 allow ip from any to any" >"$T/allow.rules"
{ echo "-q flush"; cat "$T/allow.rules" "$T/r20k.rules"; } >"$T/r20k-flush.rules"
start sink4 sink "$B/ppslab-sink" -i sink0 --duration 120 --gap-min 20ms --gap-list 64 \
	--expect-from "$T/gen4.out" --json
start rut4 rut "$B/ppslab-rut" -i afpacket:rut0,ring=v2,frames=128 -o rut1 --mode intr \
	--rules "$T/allow.rules" --ctl "$S" --json
wait_ready sink4; wait_ready rut4
start gen4 gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate $RATE --duration 60 --json
wait_until 20 "the forwarder forwards (rules)" moved .fwd_pkts 2000
"$B/ppslab-rut" ctl "$S" ipfw -q -per-rule "$T/r20k.rules"; rc_l1=$?
L1=$("$B/ppslab-rut" ctl "$S" stats | jq -c .load)
f0=$(stat_of .fwd_pkts)
wait_until 20 "forwarding after the per-rule load" moved .fwd_pkts $((f0 + 1000))
"$B/ppslab-rut" ctl "$S" ipfw -q "$T/r20k-flush.rules"; rc_l2=$?
L2=$("$B/ppslab-rut" ctl "$S" stats | jq -c .load)
f0=$(stat_of .fwd_pkts)
wait_until 20 "forwarding after the load" moved .fwd_pkts $((f0 + 2000))
nrules=$("$B/ppslab-rut" ctl "$S" ipfw list | wc -l)
stop gen4
read_all "$S" $(($(sent gen4) - $(jv gen4 .if_tx_dropped)))
sink_done sink4 $(($(sent gen4) - $(jv gen4 .if_tx_dropped) - $(stat_of '.kernel_drops + .drop_pkts + .tx_errors')))
stop rut4
lv() { echo "$1" | jq -r "$2"; }
echo "# per-rule load: $L1"
echo "# load at once: $L2"
eq "both loads exit 0, each in its mode" "$rc_l1,$rc_l2,$(lv "$L1" .mode),$(lv "$L2" '.mode + "," + (.status | tostring)')" \
	0,0,per-rule,file,0
eq "per-rule: one call a line, $NR" "$(lv "$L1" '[.lines, .calls, .status] | join(",")')" $NR,$NR,0
eq "$NR rules, the allow rule and 65535 are loaded" "$nrules" $((NR + 2))
eq "rules: books: received + lost = sent" "$(jv sink4 '.rx_pkts + .lost_pkts')" "$(sent gen4)"
hl4=$(host_lost sink4 gen4)
eq "rules: every frame lost dropped at a named place" "$(jv sink4 .lost_pkts)" \
	"$(($(jv rut4 '.kernel_drops + .drop_pkts + .tx_errors') + hl4))"
st='.streams[0]'
# lost_in DESC LOAD: the load's books against the sink's gaps, by frame (rut_lib.sh's
# at_reading explains the runs): thread 0's ring dropped kernel_drops_before frames
# before the load; once the load was over it read its drops (kernel_drops), then found
# its ring empty having read rx_pkts_drained frames, then read them again
# (kernel_drops_drained). A drop of the first read follows a frame read by then: the
# sink's loss in runs after one of its first rx_pkts_drained frames (HI, no margin) is
# at least before + kernel_drops; a frame lost before one of those frames was dropped
# before the empty ring: the loss in runs closed by them (LO) is at most before +
# kernel_drops_drained. Exact on any host; the two reads differ only when the host held
# thread 0 between them long enough to overflow the ring (once 158 frames under
# tests/stress, when one read after the empty ring was all there was). The sink's
# clock cannot split them so: frames the ring took in before the load may reach the
# sink long after start_ns on a busy host, and the loss before them with them (the
# "edge" below, counted in kernel_drops_before).
lost_in() {
	local t0 want want2 before F edge un rdrop lo hi
	t0=$(lv "$2" .start_ns) want=$(lv "$2" .kernel_drops) before=$(lv "$2" .kernel_drops_before)
	want2=$(lv "$2" .kernel_drops_drained)
	F=$(lv "$2" .rx_pkts_drained)
	edge=$((before - $(jv sink4 "[$st.gaps[] | select(.after_ns <= $t0) | .lost_pkts] | add // 0")))
	un=$(jv sink4 "$st.gaps_unlisted") rdrop=$(jv rut4 '.drop_pkts + .tx_errors')
	echo "# $1: the ring dropped $before frames before the load and $want in it; $edge of those before it closed gaps after its start"
	if [ "$un" != 0 ] || [ "$hl4" != 0 ] || [ "$rdrop" != 0 ]; then
		for k in "at most" "at least"; do
			skip "$1: the sink's loss $k the ring's" "the sink's list left out $un gaps, or the host ($hl4) or the forwarder ($rdrop) dropped frames after its ring: the sink's frames are not the ring's"
		done
	else
		read -r lo hi <<<"$(sink_lost_upto sink4 "$F" 0)"
		echo "# $1: the sink lost $lo in runs closed by its first $F frames, $hi in runs after one of them; the ring: $before + $want, read again $before + $want2"
		check "$1: the sink's loss by the forwarder's ${F}th frame is at most the ring's drops read after it ($lo <= $before + $want2)" \
			test "$lo" -le $((before + want2))
		check "$1: the ring's drops read before it are at most the sink's loss after one of its first $F frames ($((before + want)) <= $hi)" \
			test $((before + want)) -le "$hi"
	fi
}
lost_in "per-rule load: the books when the ring was next empty" "$L1"
lost_in "load at once: the books when the ring was next empty" "$L2"
beh=$(jv gen4 .behind_max_ns)
p=$(lv "$L2" .stall_ns) t0=$(lv "$L2" .start_ns) t1=$(lv "$L2" .end_ns)
# thread 0 held for the whole load: its ring of 128 overflowed by what came in the stall
# beyond it, less what a late sender had not sent yet and a frame or two either end
# (stall_ns is the load's own length, end_ns - start_ns on another clock: no check)
kd=$(lv "$L2" .kernel_drops) min=$(((p - beh) * RATE / 1000000000 - 128 - 3))
if [ "$min" -gt 0 ]; then
	check "load at once: thread 0 was held for the whole load ($p ns): its ring dropped $kd, at least $min" \
		test "$kd" -ge "$min"
else
	skip "load at once: thread 0 was held for the whole load ($p ns)" \
		"the sender fell behind its schedule by up to $beh ns (behind_max_ns), so the stall's frames are not known"
fi
# the record that spans the load: a gap of its own, or, when the ring's drops before the
# load filled the sink's open list, a merged record whose longest silence (silence_ns)
# is the load's
lg="[$st.gaps[] | select(.before_ns <= $((t0 + SLACK_NS)) and .after_ns >= $t1)][0]"
d=$(jv sink4 "$lg | if . == null then 0 elif .merged_gaps == 1 then .duration_ns else .silence_ns // 0 end")
echo "# load at once: the forwarder's stall $p ns, the sink's gap $d ns; $(lv "$L2" .kernel_drops) ring drops"
un=$(jv sink4 "$st.gaps_unlisted")
if [ "$d" = 0 ] && [ "$un" != 0 ]; then
	skip "load at once: the sink's gap is the forwarder's stall" "no listed gap spans the load: the sink's list left out $un gaps"
else
	within_or_said "load at once: the sink's gap is the forwarder's stall +- one frame interval + ${SLACK_NS} ns" \
		"$d" $((p - I_NS - SLACK_NS)) $((p + I_NS + SLACK_NS))
fi
done_testing
