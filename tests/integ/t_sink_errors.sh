#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_sink_errors.sh — every class of bad frame lands in its own counter and never in the
# test traffic, while a real test stream and a foreign UDP stream on the same port arrive
# together; the pcap backend's BPF filter keeps other ports out of its view.
. "$(dirname "$0")/lib.sh"
CRAFT=${PPSLAB_BUILD:?}/tests/helpers/craft
lab_up

classes="truncated not_ip4 ip_options ip_fragment bad_ip_csum bad_len not_udp wrong_port bad_udp_csum bad_sig_version"
# the sinks run until every sender is done (SIGINT then): bad frames do not count as
# activity for --idle, and a loaded machine may start the senders slowly
start sink rut "$B/ppslab-sink" -i rut0 --duration 60 --json
start psink rut "$B/ppslab-sink" -i pcap:rut0 --duration 60 --json
wait_ready sink; wait_ready psink
start gen gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate 10k --count 20000 --json
# a foreign stream to the test port (no signature magic), at the same time
start foreign gen "$CRAFT" -i gen0 --class foreign --stream 0 --seqs 0-2999 --rate 5k
n=0
for c in $classes; do
	n=$((n + 1))
	# each class n times, numbered as stream 5: a miscount would show up as a stream
	inns gen "$CRAFT" -i gen0 --class "$c" --stream 5 --seqs "0-$((n - 1))" --rate 2k >/dev/null ||
		not_ok "craft $c" "exit $?"
done
finish gen 30; eq "gen exits 0" "$RC" 0
finish foreign 30; eq "foreign sender exits 0" "$RC" 0
# every frame sent: 20000 test, 3000 foreign, n of the n-th class
sink_done sink $((20000 + 3000 + 55)); eq "sink exits 0" "$RC" 0
# the pcap sink sees what passes its filter (udp dst port 9): all but not_ip4 (2),
# not_udp (7) and wrong_port (8)
sink_done psink $((20000 + 3000 + 1 + 3 + 4 + 5 + 6 + 9 + 10)); eq "pcap sink exits 0" "$RC" 0

n=0
for c in $classes; do
	n=$((n + 1))
	eq "class $c: $n frames" "$(jv sink ".classes.$c")" "$n"
done
# a host that holds the sink past its ring makes the kernel drop there and count it:
# exact, or short by no more than the drops the sink reports (as for pcap below)
counted "foreign: the foreign stream" sink "$(jv sink .classes.foreign)" 3000
counted "foreign_pkts" sink "$(jv sink .foreign_pkts)" 3000
counted "test traffic exact" sink "$(jv sink .rx_pkts)" 20000
eq "only the test stream" "$(jv sink '[.streams[].stream] | join(",")')" 0
within "lost: none, or what the ring dropped" "$(jv sink .lost_pkts)" 0 "$(jv sink .ring_drops)"
# malformed: truncated 1, ip_options 3, ip_fragment 4, bad_ip_csum 5, bad_len 6,
# bad_udp_csum 9, bad_sig_version 10; other: not_ip4 2, not_udp 7, wrong_port 8
eq "err_pkts: the malformed classes" "$(jv sink .err_pkts)" $((1 + 3 + 4 + 5 + 6 + 9 + 10))
eq "other_pkts: not ours" "$(jv sink .other_pkts)" $((2 + 7 + 8))
eq "every frame read is accounted in a class" \
	"$(jv sink '.rx_frames - ([.classes[]] | add)')" "$(jv sink .rx_pkts)"
# exact when nothing was dropped on the way; else at least all it read (the kernel's
# drop counters are read at other instants than the interface's)
if [ "$(jv sink '.ring_drops + .if_drops')" = 0 ]; then
	eq "the interface saw everything the sink read" "$(jv sink .if_rx_packets)" "$(jv sink .rx_frames)"
else
	check "the interface saw everything the sink read (and what was dropped on the way)" \
		test "$(jv sink .if_rx_packets)" -ge "$(jv sink .rx_frames)"
fi

# libpcap's ring (16 MiB of snaplen-sized slots, a few thousand frames) overflows when
# the sink is descheduled for a fraction of a second: exact, or short by no more
# than the drops the sink itself reports
counted "pcap: test traffic exact" psink "$(jv psink .rx_pkts)" 20000
counted "pcap: foreign counted" psink "$(jv psink .classes.foreign)" 3000
eq "pcap: the BPF filter kept the wrong port out" "$(jv psink .classes.wrong_port)" 0
eq "pcap: and IPv6" "$(jv psink .classes.not_ip4)" 0
counted "pcap: bad UDP checksums seen" psink "$(jv psink .classes.bad_udp_csum)" 9

# the sender's own error injection (ppslab-gen --inject), when this build's gen has it:
# its faulty frames carry no sequence number, so with its summary there is no false loss
if "$B/ppslab-gen" --help | grep -q -- '--inject KINDS'; then
	start isink rut "$B/ppslab-sink" -i rut0 --duration 60 --json --expect-from "$T/igen.out"
	wait_ready isink
	start igen gen "$B/ppslab-gen" -i gen0 --dst 198.18.0.1 --rate 20k --count 20000 \
		--inject ip-csum,udp-csum,len,magic --inject-rate 1% --json
	finish igen 30; eq "gen --inject exits 0" "$RC" 0
	sink_done isink 20000; eq "sink exits 0" "$RC" 0
	# exact when the host dropped nothing on the way (a busy host's veth backlog, the
	# sink's ring); else every frame missing from the classes is one it says it dropped
	hl=$(host_lost isink igen)
	if [ "$hl" = 0 ]; then
		eq "test frames = the sender's test_pkts" "$(jv isink .rx_pkts)" "$(jv igen .test_pkts)"
		eq "no false loss from injected frames" "$(jv isink .lost_pkts)" 0
		eq "bad IP checksums as injected" "$(jv isink .classes.bad_ip_csum)" "$(jv igen .inject.ip_csum)"
		eq "bad UDP checksums as injected" "$(jv isink .classes.bad_udp_csum)" "$(jv igen .inject.udp_csum)"
		eq "bad lengths as injected" "$(jv isink .classes.bad_len)" "$(jv igen .inject.len)"
		eq "no magic: foreign, as injected" "$(jv isink .classes.foreign)" "$(jv igen .inject.magic)"
	else
		miss=$(($(jv igen '.test_pkts + .inject.ip_csum + .inject.udp_csum + .inject.len + .inject.magic') -
			$(jv isink '.rx_pkts + .classes.bad_ip_csum + .classes.bad_udp_csum + .classes.bad_len + .classes.foreign')))
		eq "test frames and injected faults: what did not arrive = what the host dropped ($hl)" "$miss" "$hl"
		eq "... no false loss: received + lost = the sender's test_pkts" \
			"$(jv isink '.rx_pkts + .lost_pkts')" "$(jv igen .test_pkts)"
		for c in bad_ip_csum:ip_csum bad_udp_csum:udp_csum bad_len:len foreign:magic; do
			within "${c%%:*} as injected, short by at most the host's drops" \
				"$(jv isink ".classes.${c%%:*}")" $(($(jv igen ".inject.${c#*:}") - hl)) "$(jv igen ".inject.${c#*:}")"
		done
	fi
else
	skip "ppslab-gen --inject" "this build's ppslab-gen has no --inject yet"
fi
done_testing
