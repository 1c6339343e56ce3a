#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# soak.sh BINDIR — `make soak` (a long run, not part of make check): gen → rut → sink in
# a lab of its own for SOAK_SECONDS (default 1800) at SOAK_RATE (default 50k pps), then
# exact accounting (every frame sent arrived, none lost, duplicated or in an error
# class, the forwarder's counters add up) and flat memory: the resident size of the
# forwarder and the sink sampled every SOAK_SAMPLE seconds must not grow by more than
# 1 MiB after the first minute. Prints what it measured; exit 1 on any failure.
set -u
B=${1:-build/bin}
SECS=${SOAK_SECONDS:-1800}
RATE=${SOAK_RATE:-50k}
SAMPLE=${SOAK_SAMPLE:-10}
LAB=ppsoak$$
. "$(dirname "$0")/../scripts/ready.sh"
T=$(mktemp -d /tmp/ppslab-soak.XXXXXX)
[ "$(id -u)" = 0 ] || { echo "soak: run as root (network namespaces)" >&2; exit 77; }
cleanup() { kill "$sink" "$rut" 2>/dev/null; wait 2>/dev/null; "$B/ppslab" lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
"$B/ppslab" lab up --name "$LAB" >/dev/null || exit 1
ip netns exec "$LAB-sink" "$B/ppslab-sink" -i sink0 --duration $((SECS + 60)) --interval 10s --json >"$T/sink.out" 2>"$T/sink.err" &
sink=$!
ip netns exec "$LAB-rut" "$B/ppslab-rut" -i rut0 -o rut1 --mode busy --interval 60s --ctl "$T/rut.sock" --json >"$T/rut.out" 2>"$T/rut.err" &
rut=$!
# the sender starts when the sink counts and the forwarder forwards (docs/readiness.md)
for p in "sink $sink" "rut $rut"; do
	set -- $p
	ready_wait "$2" 30 "$T/$1.out" || { echo "soak: ppslab-$1 did not become ready: $(cat "$T/$1.err")" >&2; exit 1; }
done
ip netns exec "$LAB-gen" "$B/ppslab-gen" -i gen0 --rate "$RATE" --duration "${SECS}s" --interval 60s --json >"$T/gen.out" 2>"$T/gen.err" &
gen=$!
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
t=0
echo "t_s rut_rss_kib sink_rss_kib" >"$T/rss"
while kill -0 "$gen" 2>/dev/null; do
	echo "$t $(rss "$rut") $(rss "$sink")" >>"$T/rss"
	sleep "$SAMPLE"   # the sampling period
	t=$((t + SAMPLE))
done
wait "$gen"; grc=$?
sum() { grep '"type":"summary"' "$T/$1.out" | tail -n 1 | jq -r "$2"; }
# each stopped once it has everything on its way to it: the forwarder has read (or its
# ring dropped) every frame the sender sent, the sink has accounted (its 10-s interval
# lines) for every frame forwarded
read_all() {
	[ "$("$B/ppslab-rut" ctl "$T/rut.sock" stats 2>/dev/null | jq -r '(.rx_pkts + .kernel_drops) // 0')" -ge "$1" ]
}
wait_for 30 read_all "$(sum gen .tx_pkts)" || echo "soak: the forwarder did not read all that was sent within 30 s" >&2
kill -INT "$rut"; wait "$rut"; rrc=$?
wait_for 30 sink_caught_up "$T/sink.out" "$(sum rut .fwd_pkts)" || echo "soak: the sink did not account for all that was forwarded within 30 s" >&2
kill -INT "$sink"; wait "$sink"; src=$?
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi; }
sent=$(sum gen .test_pkts); got=$(sum sink .rx_pkts)
echo "soak: ${SECS} s at $RATE pps: sent $sent, received $got, lost $(sum sink .lost_pkts), dup $(sum sink .dup_pkts), errors $(sum sink .err_pkts); forwarder rx $(sum rut .rx_pkts) fwd $(sum rut .fwd_pkts) drop $(sum rut .drop_pkts)"
check "every component exited 0 (gen $grc, rut $rrc, sink $src)" '[ "$grc$rrc$src" = 000 ]'
check "every frame sent arrived" '[ "$sent" = "$got" ] && [ "$sent" -gt 0 ]'
check "no loss, duplicate or error" '[ "$(sum sink ".lost_pkts + .dup_pkts + .err_pkts")" = 0 ]'
check "the forwarder adds up" '[ "$(sum rut ".rx_pkts == .fwd_pkts + .drop_pkts")" = true ]'
growth() { awk -v c="$1" -v w=$((60 / SAMPLE)) 'NR > 1 { n++; v[n] = $c } END { if (n <= w) { print 0; exit } m = v[w + 1]; x = v[w + 1]; for (i = w + 1; i <= n; i++) { if (v[i] > x) x = v[i] } print x - m }' "$T/rss"; }
rg=$(growth 2); sg=$(growth 3)
echo "memory after the first minute: forwarder +$rg KiB, sink +$sg KiB (samples every $SAMPLE s: $(($(wc -l <"$T/rss") - 1)))"
check "the forwarder's memory is flat (+$rg KiB)" '[ "$rg" -le 1024 ]'
check "the sink's memory is flat (+$sg KiB)" '[ "$sg" -le 1024 ]'
exit $fail
