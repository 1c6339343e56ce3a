# SPDX-License-Identifier: BSD-2-Clause
# rut_lib.sh — helpers of the ppslab-rut integration tests (sourced after lib.sh).

# hops: the kernel's own drop counters on the way (a TAP comment), for when the sink
# missed something: rut0/rut1 rx/tx dropped and sink0 rx dropped.
hops() {
	local out="" r
	for r in "rut rut0" "rut rut1" "sink sink0"; do
		set -- $r
		out="$out $2:$(ip -n "$LAB-$1" -s -j link show dev "$2" |
			jq -r '.[0].stats64 | "rx_dropped=\(.rx.dropped) tx_dropped=\(.tx.dropped)"')"
	done
	echo "# kernel counters:$out"
}

# arrived ROLE IF BASE N: waits (up to 15 s) until IF's rx_packets counter is BASE + N —
# the forwarder has delivered everything, however far behind a slow start left it —
# before anyone is stopped. Says so in a comment when it is not.
arrived() {
	local i=0 v
	while [ $i -lt 150 ]; do
		v=$(ifc "$1" "$2" rx_packets)
		[ "$v" -ge $(($3 + $4)) ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "# $2 received $((v - $3)) of $4 within 15 s"
}

# read_all SOCK N: waits (up to 15 s) until the forwarder behind control socket SOCK has
# read N frames (forwarded or dropped) or the kernel dropped them at its rings (a
# starved host), for tests where nothing reaches the sink.
read_all() {
	local i=0 v=0
	while [ $i -lt 150 ]; do
		v=$("$B/ppslab-rut" ctl "$1" stats 2>/dev/null | jq -r '(.rx_pkts // 0) + (.kernel_drops // 0)')
		[ "${v:-0}" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "# the forwarder read $v of $2 frames within 15 s"
}

# "W of N": of the forwarder's N packet sockets, W are watched by an epoll set of its own
# (an epoll fd's fdinfo lists "tfd: FD" for each). Only a mode that waits on its ports
# may have them there: a watched socket costs a wake-up attempt per frame.
watched_ports() {   # watched_ports PID
	local pid=$1 f l ino fds="" w=0 n=0
	local inos
	inos=$(inns rut awk 'NR > 1 { print $NF }' /proc/net/packet)
	for f in /proc/"$pid"/fd/*; do
		l=$(readlink "$f" 2>/dev/null) || continue
		case $l in socket:\[*\]) ino=${l#socket:[}; ino=${ino%]} ;; *) continue ;; esac
		grep -qx "$ino" <<<"$inos" || continue
		n=$((n + 1))
		fds="$fds ${f##*/}"
	done
	for f in $fds; do
		cat /proc/"$pid"/fdinfo/* 2>/dev/null | grep -qE "^tfd:[[:space:]]+$f[[:space:]]" && w=$((w + 1))
	done
	echo "$w of $n"
}

# steady SOCK [BURST_MAX]: the forwarder behind control socket SOCK forwards a load
# (fwd_pkts grows from 0) and, given BURST_MAX, kern.polling.burst has climbed to it:
# from here on each tick moves burst_max frames per port (for wait_until)
steady() {
	local st
	st=$("$B/ppslab-rut" ctl "$1" stats 2>/dev/null) && [ -n "$st" ] &&
		jq -e --argjson bm "${2:-0}" '.fwd_pkts > 0 and ($bm == 0 or .polling.burst == $bm)' \
			<<<"$st" >/dev/null
}

# sync SOCK: a sysctl read round trip through the forwarder's thread: it answers only
# after its loop has passed the point where it (dis)arms its ports for a change the
# previous command made
sync_rut() {
	"$B/ppslab-rut" ctl "$1" sysctl -n kern.polling.handlers >/dev/null
}

# watched_is PID "W of N": watched_ports says so (for wait_until: the forwarder's thread
# (dis)arms its ports after it has answered the command that asked for it)
watched_is() {
	[ "$(watched_ports "$1")" = "$2" ]
}

# at_reading DESC SINK RX KD RING: the books at one `ctl stats` reading of a forwarder's
# only thread (RX frames read, KD dropped by its ring of RING frames, one instant), by
# frame, not by the clock: its ring is first in, first out, and a run of frames it
# dropped follows a frame X it took in and that was still in the ring when the run came.
# So a run whose X is among the first RX frames (read by then) was dropped before the
# reading, and one whose X is past the first RX + RING (not in the ring then) after it;
# between, X was in the ring at the reading, and the run on either side. With nothing
# lost after the ring, the sink SINK received the forwarder's frames in order (its
# ordinal of a gap's X: seq_before less the frames lost before it), so the frames it
# lost in runs before its RXth frame <= KD <= those before its (RX + RING)th: exact on
# any host, equal when no run came near the reading. Needs the whole gap list and no
# frame lost before the forwarder (the caller says so otherwise); a merged record counts
# below when all of it lies below (its frames received inside it after its X).
# sink_lost_upto SINK RX MARGIN: "LO HI": the frames SINK lost in runs whose X (above)
# is among its first RX frames less those inside a run still open then (LO), and in
# runs whose X is among its first RX + MARGIN (HI).
sink_lost_upto() {
	jv "$1" ".streams[0] as \$s | reduce \$s.gaps[] as \$g ({lost: 0, lo: 0, hi: 0};
		(\$g.seq_before - \$s.first_seq + 1 - .lost) as \$ord |
		(\$g.seq_after - \$g.seq_before - 1 - \$g.lost_pkts) as \$in |
		if \$ord + \$in <= $2 then .lo += \$g.lost_pkts else . end |
		if \$ord <= $2 + $3 then .hi += \$g.lost_pkts else . end |
		.lost += \$g.lost_pkts) | \"\\(.lo) \\(.hi)\""
}
at_reading() {
	local lo hi
	read -r lo hi <<<"$(sink_lost_upto "$2" "$3" "$5")"
	within "$1: the ring's $4 drops by then are the frames the sink lost before the forwarder's ${3}th frame ($lo) .. its $(($3 + $5))th ($hi)" \
		"$4" "$lo" "$hi"
}

# stall_span L0 SPAN LOST1 P PL BEH: the frames a stall of ppslab-rut's (P ns, PL its
# lateness, a ring of 512, RATE pps, the sender at most BEH ns behind) spanned: SPAN
# numbers between the frames around the silence, LOST1 of them lost, L0 lost in the
# silence itself (then the ring overflowed before it, and neither holds).
stall_span() {
	local min
	if [ "$1" != 0 ]; then
		skip "the frames the stall spanned are at least its length × the rate" "the silence itself lost $1 frames: the ring overflowed before the stall"
		skip "the rest the ring held and forwarded after the stall (1..512)" "the silence itself lost $1 frames: the ring overflowed before the stall"
		return
	fi
	# at least: no frame sent in the stall passes it; more when the forwarder, held by
	# the host, freed its ring slowly after it (the frames meanwhile dropped too)
	min=$((($4 - $5 - SLACK_NS - $6) * RATE / 1000000000 - 1))
	check "the frames the stall spanned ($2) are at least its length × the rate − 1 ($min; less slack and the sender's lateness)" \
		test "$2" -ge "$min"
	within "the rest ($(($2 - $3)) frames) the ring held and forwarded after the stall (1..512)" \
		$(($2 - $3)) 1 512
}
