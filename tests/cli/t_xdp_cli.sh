#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_xdp_cli.sh — xdp: port specs that fail before any socket exists (no root needed):
# bad keys and values named with what was expected (EX_USAGE), a missing interface
# (EX_UNAVAILABLE); in a build without libxdp, the spec says so (EX_UNAVAILABLE); in a
# PORTABLE=1 build, that xdp: is left out (EX_USAGE).
set -u
B=${PPSLAB_BIN:?}
n=0
t() {   # t DESC EXPECTED_STATUS STDERR_PATTERN COMMAND...
	local d=$1 want=$2 pat=$3; shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	n=$((n + 1))
	if [ "$rc" = "$want" ] && echo "$err" | grep -qE -- "$pat"; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		echo "#   status $rc (wanted $want), stderr: $err"
	fi
}
gen() { "$B/ppslab-gen" --dst 127.0.0.1 --src 127.0.0.1 --dst-mac 02:00:00:00:00:01 --count 1 "$@"; }

if gen -i xdp:lo 2>&1 | grep -q "built without AF_XDP"; then
	t "a build without libxdp says so" 69 "built without AF_XDP.*use afpacket:lo" gen -i xdp:lo
	n=$((n + 1)); echo "ok $n - xdp: option checks # SKIP built without the xdp: backend"
	echo "1..$n"
	exit 0
fi
if gen -i xdp:lo 2>&1 | grep -q "Linux-only and not in this PORTABLE build"; then
	t "a PORTABLE build names xdp as left out" 64 "'xdp' is Linux-only and not in this PORTABLE build" gen -i xdp:lo
	n=$((n + 1)); echo "ok $n - xdp: option checks # SKIP PORTABLE build, no xdp: backend"
	echo "1..$n"
	exit 0
fi
t "xdp: unknown key" 64 "unknown port option 'ring' \\(xdp: takes mode, queue, frames, skb, budget\\)" gen -i xdp:lo,ring=v2
t "xdp: bad mode" 64 "mode=fast: expected copy, zc or auto" gen -i xdp:lo,mode=fast
t "xdp: frames below 64" 64 "frames=10: expected 64..1048576" gen -i xdp:lo,frames=10
t "xdp: frames with garbage" 64 "frames=4kx: expected" gen -i xdp:lo,frames=4kx
t "xdp: queue not a number" 64 "queue=one: expected" gen -i xdp:lo,queue=one
t "xdp: skb not 0/1" 64 "xdp:lo: skb=yes: expected 0 or 1" "$B/ppslab-sink" --duration 0.1 -i xdp:lo,skb=yes
t "xdp: skb (attaching for receive) on a sending port" 64 "xdp:lo: skb=1: only for receiving ports" gen -i xdp:lo,skb=1
t "xdp: budget below 32" 64 "budget=8: expected 32..65536" gen -i xdp:lo,budget=8
t "xdp: no such interface" 69 "interface .nosuch0.: no such interface" "$B/ppslab-sink" -i xdp:nosuch0 --duration 1
t "xdp: no interface named" 64 "names no interface" gen -i xdp:
t "xdp: a jumbo frame does not fit a chunk" 64 "do not fit an AF_XDP frame.*use afpacket:lo" \
	gen -i xdp:lo --size 9018
t "the backend list names xdp" 64 "have: afpacket pcap udp xdp" gen -i nope:lo
echo "1..$n"
