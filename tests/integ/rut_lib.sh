# rut_lib.sh — helpers of the ppslab-rut integration tests (sourced after lib.sh).

# ready ROLE N: waits (up to 10 s) until N packet sockets in ROLE's namespace are bound
# and receiving (/proc/net/packet: protocol ETH_P_ALL, running): the tools' rings are
# in place, so no frame is sent before someone can count it, however slow the start
# (sanitizer builds, a loaded machine).
ready() {
	local i=0
	while [ $i -lt 100 ]; do
		[ "$(inns "$1" awk 'NR > 1 && $4 == "0003" && $6 == 1' /proc/net/packet | wc -l)" -ge "$2" ] &&
			return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "# $1: fewer than $2 receiving packet sockets after 10 s"
}

# sink_done NAME: the sender has finished; let the last frames through, then SIGINT the
# sink (it prints its summary): no race between an idle timeout and a slow start.
sink_done() {
	sleep 0.5
	stop "$1"
}

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
