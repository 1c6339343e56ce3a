#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_priv.sh — --user NAME: ppslab-gen, ppslab-sink and ppslab-rut open their ports (and
# the rut its control socket) as root, then run as NAME: /proc/PID/status shows its uid
# and gid on every line (real, effective, saved, fs) and no capability; the measurement
# is still exact (gen → rut → sink, afpacket ports, and gen → sink over udp: on the
# sink namespace's loopback); the control socket is handed to NAME and still answers
# root; --rt-prio still holds (the thread takes SCHED_FIFO before the drop); an unknown
# user is refused with EX_NOUSER (67) before anything is opened. A --user forwarder's
# control socket is removed at its end even where the user could not remove it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rut_lib.sh"
lab_up
U=nobody
uid=$(id -u $U) gid=$(id -g $U)
# ids PID: "UID-line GID-line CapEff CapPrm" of a running process, e.g. "65534x4 65534x4 0 0"
ids() {
	awk -v OFS=' ' '/^Uid:/ { u = ($2==$3 && $3==$4 && $4==$5) ? $2 "x4" : $0 }
		/^Gid:/ { g = ($2==$3 && $3==$4 && $4==$5) ? $2 "x4" : $0 }
		/^CapEff:/ { e = $2 + 0 } /^CapPrm:/ { p = $2 + 0 }
		END { print u, g, e, p }' "/proc/$1/status"
}
# gen → sink over udp: on the sink namespace's loopback, both as nobody
port=$((20000 + $$ % 20000))
start sink sink "$B/ppslab-sink" -i "udp:127.0.0.1:$port" --dport 0 --duration 60 --json --user $U -v
wait_ready sink
eq "sink: runs as $U, no capabilities" "$(ids "${BG_PID[sink]}")" "${uid}x4 ${gid}x4 0 0"
start gen sink "$B/ppslab-gen" -i "udp:127.0.0.1:$port" --rate 2k --count 4000 --json --user $U
wait_ready gen   # said after the drop (docs/readiness.md)
eq "gen: runs as $U, no capabilities" "$(ids "${BG_PID[gen]}")" "${uid}x4 ${gid}x4 0 0"
finish gen 20; eq "gen as $U exits 0" "$RC" 0
sink_done sink "$(sent gen)"; eq "sink as $U exits 0" "$RC" 0
eq "udp: all 4000 frames counted" "$(jv sink .rx_pkts)" 4000

# gen → rut → sink over afpacket ports, the rut as nobody with a control socket
# a sticky, world-writable directory, as /tmp or /run/user: the socket's new owner can remove it
chmod 711 "$T"; mkdir -m 1777 "$T/run"
S="$T/run/rut.sock"
start sink2 sink "$B/ppslab-sink" -i sink0 --duration 60 --json --user $U
start rut rut "$B/ppslab-rut" -i rut0 -o rut1 --ctl "$S" --rt-prio 5 --json --user $U
wait_ready sink2; wait_ready rut
eq "rut: runs as $U, no capabilities" "$(ids "${BG_PID[rut]}")" "${uid}x4 ${gid}x4 0 0"
check "rut: the forwarding thread kept SCHED_FIFO 5 (taken before the drop)" \
	sh -c "ps -L -o rtprio= -p ${BG_PID[rut]} | grep -qw 5"
check "rut: no SCHED_FIFO warning" sh -c "! grep -q 'not permitted' '$T/rut.err'"
eq "rut: the control socket is $U's, mode 600" "$(stat -c '%U %a' "$S")" "$U 600"
eq "rut: root may still use it (peer check)" "$("$B/ppslab-rut" ctl "$S" sysctl -n kern.polling.enable)" 1
setpriv --reuid=1 --regid=1 --clear-groups "$B/ppslab-rut" ctl "$S" stats >/dev/null 2>"$T/err"; rc=$?
eq "rut: a third user is refused (77)" "$rc" 77
base=$(ifc sink sink0 rx_packets)
start gen2 gen "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate 10k --count 5000 --json --user $U
finish gen2 20; eq "gen (afpacket) as $U exits 0" "$RC" 0
arrived sink sink0 "$base" 5000
stop rut; eq "rut as $U exits 0" "$RC" 0
stop sink2; eq "sink (afpacket) as $U exits 0" "$RC" 0
eq "rut: forwarded all 5000" "$(jv rut .fwd_pkts)" 5000
eq "sink: counted all 5000" "$(jv sink2 .rx_pkts)" 5000
check "rut: the control socket is gone after it stops" test ! -e "$S"
# a directory only root may write (as /run): the user cannot remove the socket there;
# the root guard ppslab-rut leaves behind the drop does, at a stop and after SIGKILL
mkdir -m 755 "$T/rootrun"
S2="$T/rootrun/rut.sock"
for how in INT KILL; do
	start rut_$how rut "$B/ppslab-rut" -i rut0 -o rut1 --ctl "$S2" --json --user $U
	wait_ready rut_$how
	eq "rut ($how): the socket in a root-only directory is $U's" "$(stat -c %U "$S2")" "$U"
	kill -$how "${BG_PID[rut_$how]}"
	finish rut_$how 10
	wait_until 10 "the socket removed after SIG$how" test ! -e "$S2"
	check "rut ($how): no socket left behind in the root-only directory" test ! -e "$S2"
	check "rut ($how): and no guard process left" test -z "$(lab_procs rut ppslab-rut-ctl)"
done

# an unknown user: EX_NOUSER, named, before any port is opened
for p in "ppslab-gen -i gen0" "ppslab-sink -i sink0" "ppslab-rut -i rut0 -o rut1"; do
	set -- $p
	prog=$1; shift
	inns gen "$B/$prog" "$@" --duration 1 --user no-such-user-x >/dev/null 2>"$T/err"; rc=$?
	eq "$prog --user no-such-user-x: exit 67" "$rc" 67
	check "$prog: says no such user" grep -q "user no-such-user-x': no such user\|--user 'no-such-user-x': no such user" "$T/err"
done
done_testing
