#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_kernels.sh — the kernel personalities on real ports
# (docs/design/polling.md#kernel-personalities):
#  - a CPU-limited cell forwards far more on dragonfly-1.8 than on dragonfly-2.0, as the
#    kernels predict: 1.8 measures a round's load against kern.hz (100), so at pollhz
#    1000 a round may take a whole tick before burst shrinks, where 2.0 shrinks it past
#    100 − user_frac percent of one. user_frac 95 makes the difference large (2.0 polls
#    at most 5 % of each tick, 1.8 up to all of it), so the host's noise cannot hide it;
#  - freebsd-7's legacy kern.polling.enable switches polling off and on again on every
#    port (DragonFly's, in t_rut_ctl, does not register them again);
#  - a forwarder at normal priority sharing its CPU with a busy loop ticks late, and the
#    late ticks fire once: no lost_polls or 7/8 rounds the kernel would not count, and
#    the summary says how late they ran;
#  - a forwarder stopped for 300 ms under traffic counts the host's delay, not 300 lost
#    polls, and says which lost polls it could not tell from the host's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
S="$T/rut.sock"
ctl() { "$B/ppslab-rut" ctl "$S" "$@"; }
rate() {     # the stats of 4000 rules are too long for an argument: a few numbers each
	local a b
	a=$(ctl stats | jq -c '[.fwd_pkts, .t_ns, .polling.clock_skips, .polling.ticks]') || return 1
	sleep "$1"   # the window measured
	b=$(ctl stats | jq -c '[.fwd_pkts, .t_ns, .polling.clock_skips, .polling.ticks]') || return 1
	# the rate, and the % of the poll clock's deadlines that passed without a tick
	jq -rn --argjson a "$a" --argjson b "$b" '"\((($b[0] - $a[0]) * 1e9 / ($b[1] - $a[1])) | floor) \(($b[2] - $a[2]) as $s | ($b[3] - $a[3]) as $t | if $s + $t > 0 then $s * 100 / ($s + $t) | floor else 0 end)"'
}

# 4000 rules that never match (sources in 198.18.128.0/17), then allow: every frame
# walks all of them twice, a few microseconds of CPU per frame
awk 'BEGIN { for (i = 1; i <= 4000; i++)
		printf "add %d deny ip from 198.18.%d.%d to any\n", i, 128 + int(i / 256), i % 256
	print "add 65000 allow ip from any to any" }' >"$T/nomatch.rules"
declare -A R BURST SKIP
for k in dragonfly-1.8 dragonfly-2.0; do
	start sink_$k sink "$B/ppslab-sink" -i sink0 --duration 60 --json
	start rut_$k rut "$B/ppslab-rut" -i rut0 -o rut1 --ctl "$S" --kernel $k --pollhz 1000 \
		--burst-max 150 --sysctl kern.polling.user_frac=95 --rules "$T/nomatch.rules" \
		--rt-prio 5 --json
	wait_ready sink_$k; wait_ready rut_$k
	# (until the window and the reads after it are done, however slow the host: stopped)
	start gen_$k gen "$B/ppslab-gen" -i gen0 --rate 60k --duration 120 --json
	# frames flowing (burst's climb from its first value, a few ticks, is a small part
	# of the 2-s window)
	wait_until 20 "$k: the forwarder forwarding" steady "$S"
	read -r R[$k] SKIP[$k] < <(rate 2)
	BURST[$k]=$(ctl sysctl -n kern.polling.burst)
	eq "$k named on the command line: DragonFly's backward skipto" \
		"$(ctl sysctl -n net.inet.ip.fw.skipto_dragonfly)" 1
	stop gen_$k; eq "$k: gen exits 0 on SIGINT" "$RC" 0
	stop rut_$k; eq "$k: rut exits 0" "$RC" 0
	sink_done sink_$k "$(jv rut_$k .fwd_pkts)"; eq "$k: sink exits 0" "$RC" 0
	eq "$k: the summary names the kernel" "$(jv rut_$k .polling.kernel)" $k
	echo "# $k: ${R[$k]} pps of 60,000, burst ${BURST[$k]}, last load $(jv rut_$k .polling.last_load_pct) % of a tick, lost_polls $(jv rut_$k .polling.lost_polls)"
done
# a CPU-limited cell compares the CPU the personalities leave: judged when the host let
# the forwarder keep its clock (at most 1 % of deadlines skipped in each window, as the
# run's "poll clock kept time" check), or when it holds anyway
d1="CPU-limited cell: dragonfly-1.8 forwards over 2.5 times what dragonfly-2.0 does (${R[dragonfly-1.8]} against ${R[dragonfly-2.0]} pps)"
d2="dragonfly-2.0 holds burst down (${BURST[dragonfly-2.0]}), dragonfly-1.8 does not (${BURST[dragonfly-1.8]})"
if [ "${SKIP[dragonfly-1.8]:-0}" -le 1 ] && [ "${SKIP[dragonfly-2.0]:-0}" -le 1 ] ||
	{ [ "${R[dragonfly-1.8]}" -gt $((R[dragonfly-2.0] * 5 / 2)) ] && [ "${BURST[dragonfly-1.8]}" -gt $((BURST[dragonfly-2.0] * 2)) ]; }; then
	check "$d1" test "${R[dragonfly-1.8]}" -gt $((R[dragonfly-2.0] * 5 / 2))
	check "$d2" test "${BURST[dragonfly-1.8]}" -gt $((BURST[dragonfly-2.0] * 2))
else
	why="the host took the forwarder's CPU: ${SKIP[dragonfly-1.8]} % and ${SKIP[dragonfly-2.0]} % of its clock's deadlines passed without a tick"
	skip "$d1" "$why"
	skip "$d2" "$why"
fi
# 1.8 compares ticks 1 ms apart with half a 10 ms tick: 4 of every 5 are "short"
within "dragonfly-1.8: short_ticks on 4 of 5 ticks (kern.hz 100, pollhz 1000)" \
	"$(jv rut_dragonfly-1.8 '.polling.short_ticks / .polling.ticks')" 0.75 0.85
eq "dragonfly-2.0: no short ticks" "$(jv rut_dragonfly-2.0 .polling.short_ticks)" 0

# FreeBSD 7: enable is 0 while the ports poll (ifconfig IF polling); 1 then 0 takes them
# off, 1 puts them back (poll_switch)
start rut_fb rut "$B/ppslab-rut" -i rut0 -o rut1 --ctl "$S" --kernel freebsd-7 \
	--sysctl kern.hz=500 --json
wait_ready rut_fb
eq "freebsd-7: no pollhz; the clock is kern.hz" \
	"$(ctl sysctl -N kern.polling | grep -c pollhz) $(ctl sysctl -n kern.hz)" "0 500"
eq "freebsd-7: enable 0 with the ports polled" "$(ctl sysctl -n kern.polling.enable kern.polling.handlers | tr '\n' ' ')" "0 2 "
eq "freebsd-7: enable=1, then 0 takes them off" \
	"$(ctl sysctl kern.polling.enable=1 >/dev/null; ctl sysctl kern.polling.enable=0 kern.polling.handlers | tr '\n' ' ')" \
	"kern.polling.enable: 1 -> 0 kern.polling.handlers: 0 "
wait_until 10 "freebsd-7: the sockets in the epoll set" watched_is "${BG_PID[rut_fb]}" "2 of 4"
eq "freebsd-7: interrupts: the sockets joined the epoll set" "$(watched_ports "${BG_PID[rut_fb]}")" "2 of 4"
eq "freebsd-7: enable=1 registers them again" "$(ctl sysctl kern.polling.enable=1 kern.polling.handlers | tr '\n' ' ')" \
	"kern.polling.enable: 0 -> 1 kern.polling.handlers: 2 "
wait_until 10 "freebsd-7: the sockets out of the epoll set" watched_is "${BG_PID[rut_fb]}" "0 of 4"
eq "freebsd-7: polling again: the sockets left the epoll set" "$(watched_ports "${BG_PID[rut_fb]}")" "0 of 4"
stop rut_fb; eq "freebsd-7: rut exits 0" "$RC" 0

# normal priority, one CPU shared with a busy loop, pollhz 2000, no traffic; burst_max 20
# keeps a round (4 chunks of empty reads) far shorter than a tick, also under sanitizers
start hog rut taskset -c 0 timeout 5 sh -c 'while :; do :; done'
start rut_late rut taskset -c 0 "$B/ppslab-rut" -i rut0 -o rut1 --pollhz 2000 --burst-max 20 \
	--duration 3 --interval 10s
finish rut_late 15; eq "late ticks: rut exits 0" "$RC" 0
finish hog 10
line=$(grep '^polling (dragonfly-2.0)' "$T/rut_late.out")
echo "# $line"
check "late ticks: lost_polls 0 (a late tick fires once)" grep -q 'lost_polls 0,' <<<"$line"
note=$(grep '^polling: normal priority' "$T/rut_late.out")
echo "# $note"
check "late ticks: the summary says how late the ticks ran" grep -qE 'ticks ran late by p99 [0-9.]+ us, max [0-9.]+ us' <<<"$note"

# under traffic at normal priority, the whole forwarder stopped for 300 ms (SIGSTOP,
# SIGCONT), in a round or between rounds: the host's delay, not the kernel's. The
# deadlines it passed fire once (clock_skips) or wait for the round it stopped
# (stolen_ns, ticks_deferred), never as 300 lost polls; the lost polls the forwarder
# could not tell from the host's are counted (unsure_polls: the runner flags them);
# burst_max 20 keeps a round under a tick while the backlog drains, also under sanitizers
start sink_stop sink "$B/ppslab-sink" -i sink0 --duration 60 --json
start rut_stop rut "$B/ppslab-rut" -i rut0 -o rut1 --ctl "$S" --pollhz 1000 --burst-max 20 --json
wait_ready sink_stop; wait_ready rut_stop
start gen_stop gen "$B/ppslab-gen" -i gen0 --rate 5k --duration 60 --json
wait_until 20 "stopped: the forwarder forwarding" steady "$S"
pol() { ctl stats | jq -c '.polling | [.ticks, .clock_skips, .lost_polls, .unsure_polls, .stolen_ns, .polled_frames]'; }
ticks_past() { [ "$(ctl stats | jq '.polling.ticks')" -ge "$1" ]; }
a=$(pol)
kill -STOP "${BG_PID[rut_stop]}"
sleep 0.3   # the host's delay this test makes (a stimulus, not a wait for anything)
kill -CONT "${BG_PID[rut_stop]}"
# a hundred ticks later the backlog of the stop is forwarded
wait_until 20 "stopped: a hundred ticks after it" ticks_past $(($(jq '.[0]' <<<"$a") + 100))
b=$(pol)
echo "# stopped 300 ms under traffic: [ticks, clock_skips, lost_polls, unsure_polls, stolen_ns, polled_frames] $a -> $b"
d() { jq -n --argjson a "$a" --argjson b "$b" "\$b[$1] - \$a[$1]"; }
check "stopped: the 300 ms passed its deadlines unseen, once (clock_skips $(d 1) >= 250)" test "$(d 1)" -ge 250
check "stopped: frames moved through it ($(d 5) polled)" test "$(d 5)" -gt 500
check "stopped: not 300 lost polls ($(d 2) lost, $(d 3) unsure)" test "$(d 2)" -lt 30
check "stopped: unsure_polls counted beside them" test "$(jq '.[3] | type' <<<"$b")" = '"number"'
stop gen_stop; eq "stopped: gen exits 0 on SIGINT" "$RC" 0
stop rut_stop; eq "stopped: rut exits 0" "$RC" 0
sink_done sink_stop "$(jv rut_stop .fwd_pkts)"; eq "stopped: sink exits 0" "$RC" 0
eq "stopped: the summary has unsure_polls" "$(jv rut_stop '.polling.unsure_polls | type')" number
done_testing
