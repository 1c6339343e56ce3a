#!/bin/sh
# demo.sh BINDIR — what `make demo` runs: make the embedded lab, send a short blast
# through the reference forwarder and print what the sink counted.
set -eu
B=${1:-build/bin}
NAME=${PPSLAB_LAB:-ppslab}
OUT=${PPSLAB_OUT:-demo-out}
[ "$(id -u)" = 0 ] || { echo "demo: run as root (network namespaces): sudo make demo" >&2; exit 77; }
mkdir -p "$OUT"
"$B/ppslab" lab up --name "$NAME"
ip netns exec "$NAME-sink" "$B/ppslab-sink" -i sink0 --idle 2 --duration 60 --json >"$OUT/sink.json" &
sink=$!
ip netns exec "$NAME-rut" "$B/ppslab-rut" -i rut0 -o rut1 --json >"$OUT/rut.json" &
rut=$!
sleep 0.5
ip netns exec "$NAME-gen" "$B/ppslab-gen" -i gen0 --dst 198.19.0.2 --rate 50k --count 200k
wait $sink
kill -INT $rut
wait $rut || true
echo
echo "sink (in $NAME-sink):"
grep '"type":"summary"' "$OUT/sink.json" | jq -r '"  received \(.rx_pkts) frames, lost \(.lost_pkts), duplicated \(.dup_pkts), reordered \(.reordered_pkts), errors \(.err_pkts); delay p50 \(.streams[0].latency_ns.p50 / 1000) us, p99 \(.streams[0].latency_ns.p99 / 1000) us"'
grep '"type":"summary"' "$OUT/rut.json" | jq -r '"forwarder: received \(.rx_pkts), forwarded \(.fwd_pkts), dropped \(.drop_pkts)"'
echo "JSON in $OUT/; the lab stays up (ppslab lab down removes it)"
