#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_cli.sh — command-line behaviour that needs no root: help, version, bad values
# named with what was expected (EX_USAGE), the RFC 6815 destination guard.
set -u
B=${PPSLAB_BIN:?}
. "${PPSLAB_TOP:?}/scripts/ready.sh"
n=0
t() {   # t DESC EXPECTED_STATUS STDERR_PATTERN COMMAND...
	local d=$1 want=$2 pat=$3; shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	n=$((n + 1))
	if [ "$rc" = "$want" ] && { [ -z "$pat" ] || echo "$err" | grep -qE -- "$pat"; }; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		echo "#   status $rc (wanted $want), stderr: $err"
	fi
}
for p in ppslab-gen ppslab-sink ppslab-rut ppslab; do
	t "$p --help exits 0" 0 "" "$B/$p" --help
	t "$p --version exits 0" 0 "" "$B/$p" --version
	t "$p --bogus is a usage error" 64 "" "$B/$p" --bogus
done
t "gen: rate with trailing garbage" 64 "--rate 300kq: expected" "$B/ppslab-gen" -i lo --rate 300kq
t "gen: size below 64" 64 "--size 63: expected" "$B/ppslab-gen" -i lo --size 63
t "gen: count not a number" 64 "--count x: expected" "$B/ppslab-gen" -i lo --count x
t "gen: duration unit" 64 "--duration 10sec: expected" "$B/ppslab-gen" -i lo --duration 10sec
t "gen: stream out of range" 64 "--stream 256" "$B/ppslab-gen" -i lo --stream 256
t "gen: no port" 64 "no port" "$B/ppslab-gen"
t "gen: refuses a destination outside 198.18.0.0/15" 64 "benchmarking range" \
	"$B/ppslab-gen" -i udp:192.0.2.1:9 --count 1
t "gen: refuses 8.8.8.8 too" 64 "RFC 2544/6815" "$B/ppslab-gen" -i lo --dst 8.8.8.8 --count 1
t "gen: unknown backend" 64 "unknown port backend" "$B/ppslab-gen" -i nope:x --dst 127.0.0.1 --dst-mac 02:00:00:00:00:01 --count 1
t "sink: bad port" 64 "--dport 70000" "$B/ppslab-sink" -i lo --dport 70000
t "sink: bad idle" 64 "--idle" "$B/ppslab-sink" -i lo --idle forever
t "rut: needs both ports" 64 "both ports" "$B/ppslab-rut" -i lo
t "ppslab: unknown command" 64 "not a ppslab command" "$B/ppslab" frobnicate
t "ppslab lab: unknown verb" 64 "unknown lab command" "$B/ppslab" lab sideways

# udp: works without root on loopback: 1000 frames arrive exactly
out=$(mktemp -d)
port=$((20000 + $$ % 20000))
"$B/ppslab-sink" -i "udp:127.0.0.1:$port" --dport 0 --duration 30 --json >"$out/sink" 2>"$out/sink.err" &
sp=$!
ready_wait $sp 30 "$out/sink"
"$B/ppslab-gen" -i "udp:127.0.0.1:$port" --rate 20k --count 1000 --json >"$out/gen" 2>"$out/gen.err"
grc=$?
# stopped once it has counted them (an idle timeout would race a slow sender start)
wait_for 15 sink_caught_up "$out/sink" 1000
kill -INT $sp
wait $sp
src=$?
n=$((n + 1))
rx=$(grep '"type":"summary"' "$out/sink" | jq -r .rx_pkts)
lost=$(grep '"type":"summary"' "$out/sink" | jq -r .lost_pkts)
if [ "$grc" = 0 ] && [ "$src" = 0 ] && [ "$rx" = 1000 ] && [ "$lost" = 0 ]; then
	echo "ok $n - udp loopback: 1000 frames arrive exactly without root"
else
	echo "not ok $n - udp loopback: 1000 frames arrive exactly without root"
	echo "#   gen=$grc sink=$src rx=$rx lost=$lost $(cat "$out/gen.err" "$out/sink.err")"
fi
rm -rf "$out"
echo "1..$n"
