#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_ready.sh — the readiness protocol (docs/readiness.md) without root, over udp: on
# loopback: a bad --ready-fd is 64 with the option named, before any port is opened,
# for all three programs; --ready-fd writes exactly one byte and closes the descriptor;
# a script that waits on it (a FIFO) may send at once and the sink counts every frame;
# a program that fails before it is ready closes the descriptor without the byte; the
# JSON ready line is the first line, exactly once, with pid and ports; without --json
# one stderr line, none with -q.
set -u
B=${PPSLAB_BIN:?}
T=$(mktemp -d /tmp/ppslab-t_ready.XXXXXX)
n=0
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
is() { if [ "$2" = "$3" ]; then ok "$1"; else no "$1" "got '$2', expected '$3'"; fi; }
port=$((23000 + $$ % 20000))
U=udp:127.0.0.1:$port

# A descriptor that is not open, or not usable, is a usage error naming the option. The
# ports named do not exist: 64 rather than 69 shows nothing was opened first.
for p in "ppslab-gen -i nosuch0" "ppslab-sink -i nosuch0" "ppslab-rut -i nosuch0 -o nosuch1"; do
	set -- $p
	prog=$1; shift
	"$B/$prog" "$@" --ready-fd 9 9>&- >/dev/null 2>"$T/err"; rc=$?
	if [ "$rc" = 64 ] && grep -q -- "--ready-fd 9: expected an open file descriptor" "$T/err"; then
		ok "$prog --ready-fd 9 (not open): 64, named, before the ports"
	else
		no "$prog --ready-fd 9 (not open): 64, named, before the ports" "status $rc: $(cat "$T/err")"
	fi
	"$B/$prog" "$@" --ready-fd 1 >/dev/null 2>"$T/err"; rc=$?
	[ "$rc" = 64 ] && grep -q -- "--ready-fd 1: expected a file descriptor number, 3 or above" "$T/err" &&
		ok "$prog --ready-fd 1 (its own stdout): 64" ||
		no "$prog --ready-fd 1 (its own stdout): 64" "status $rc: $(cat "$T/err")"
	"$B/$prog" "$@" --ready-fd 3 3</dev/null >/dev/null 2>"$T/err"; rc=$?
	[ "$rc" = 64 ] && grep -q -- "--ready-fd 3: expected a file descriptor open for writing" "$T/err" &&
		ok "$prog --ready-fd 3 (read-only): 64" ||
		no "$prog --ready-fd 3 (read-only): 64" "status $rc: $(cat "$T/err")"
done

# The sink, waited for through a FIFO: the byte comes, the sender starts at once, every
# frame is counted. Meanwhile the descriptor is closed in the sink (it kept no copy).
mkfifo "$T/fifo"
"$B/ppslab-sink" -i "$U" --dport 0 --duration 20 --idle 1 --json --ready-fd 3 3>"$T/fifo" \
	>"$T/sink.out" 2>"$T/sink.err" &
sp=$!
pids+=("$sp")
# cat ends at end of file: when the sink has written its byte and closed the descriptor
is "sink --ready-fd: one byte, then end of file" "$(timeout 20 cat "$T/fifo" | od -An -c | tr -d ' ')" '\n'
# (closed: no descriptor of the sink leads to the FIFO any more)
if ls -l "/proc/$sp/fd/" 2>/dev/null | grep -q -- "-> $T/fifo"; then
	no "sink: the ready descriptor is closed after the byte" "$(ls -l /proc/$sp/fd/)"
else
	ok "sink: the ready descriptor is closed after the byte"
fi
"$B/ppslab-gen" -i "$U" --rate 20k --count 2000 --json >"$T/gen.out" 2>"$T/gen.err"
grc=$?
wait "$sp"; src=$?
is "sink and gen exit 0" "$grc $src" "0 0"
is "every frame sent after the byte is counted" \
	"$(grep '"type":"summary"' "$T/sink.out" | jq -r '.rx_pkts')" 2000
first=$(head -n 1 "$T/sink.out")
is "sink --json: the first line is the ready record" \
	"$(jq -r '[.schema, .tool, .type, .pid, (.ports | join(" ")), has("ctl")] | join(",")' <<<"$first")" \
	"ppslab/sink,sink,ready,$sp,$U,false"
is "sink --json: one ready line" "$(grep -c '"type":"ready"' "$T/sink.out")" 1
is "gen --json: the ready line first, once, then the rest" \
	"$(jq -r .type "$T/gen.out" | head -n 1) $(grep -c '"type":"ready"' "$T/gen.out") $(tail -n 1 "$T/gen.out" | jq -r .type)" \
	"ready 1 summary"
is "gen: its ports" "$(head -n 1 "$T/gen.out" | jq -r '.tool + " " + (.ports | join(","))')" "gen $U"
check_empty() { if [ -s "$1" ]; then no "$2" "$(head -c 300 "$1")"; else ok "$2"; fi; }
check_empty "$T/sink.err" "sink --json: nothing on stderr"

# A descriptor in a file: exactly one byte there
"$B/ppslab-gen" -i "$U" --rate 10k --count 10 -q --ready-fd 4 4>"$T/byte" >/dev/null 2>&1
is "gen --ready-fd 4 into a file: exactly one byte, a newline" "$(od -An -c "$T/byte" | tr -d ' ')" '\n'

# A program that fails before it is ready: end of file without the byte
"$B/ppslab-sink" -i udp:192.0.2.1:$port --duration 1 --ready-fd 3 3>"$T/fifo" >/dev/null 2>"$T/bad.err" &
pids+=("$!")
got=$(timeout 20 cat "$T/fifo" | wc -c)
wait "$!"; rc=$?
is "a sink that cannot bind: end of file without the byte, status 69" "$got $rc" "0 69"

# Without --json: the stderr line, once; -q: none
"$B/ppslab-sink" -i "$U" --duration 0.2 >/dev/null 2>"$T/s.err"
is "sink without --json: the stderr ready line" "$(cat "$T/s.err")" "ppslab-sink: ready: ports $U"
"$B/ppslab-sink" -i "$U" --duration 0.2 -q >/dev/null 2>"$T/q.err"
check_empty "$T/q.err" "sink -q: no ready line"
"$B/ppslab-gen" -i "$U" --rate 10k --count 10 >/dev/null 2>"$T/g.err"
is "gen without --json: the stderr ready line" "$(grep -c '^ppslab-gen: ready: ports udp:127.0.0.1:' "$T/g.err")" 1

# A program started again with the files of an earlier one (a test's second round):
# ready_start removes them before the start, so the earlier ready line is never read as
# the new program's, however late the background child opens its files. The new
# "program" says ready only when let (a FIFO): until then nothing may be seen.
. "$(dirname "$0")/../../scripts/ready.sh"
mkfifo "$T/go"
stale=0 fresh=0
for i in $(seq 1 200); do
	echo '{"type":"ready","pid":1}' >"$T/again.out"   # the earlier program's
	ready_start "$T/again.out" "$T/again.err" sh -c \
		'read -r _ <"$1" && echo "{\"type\":\"ready\",\"pid\":$$}"' sh "$T/go"
	# at once: the bash builtin, no fork that would give the child time to open its files
	[ -s "$T/again.out" ] && stale=$((stale + 1))
	echo >"$T/go"
	ready_wait "$READY_PID" 20 "$T/again.out" "$T/again.err" &&
		grep -q "\"pid\":$READY_PID}" "$T/again.out" && fresh=$((fresh + 1))
	wait "$READY_PID"
done
is "ready_start: an earlier ready line in the files is never seen" "$stale" 0
is "ready_start: each start waited for by its own ready line" "$fresh" 200
echo "1..$n"
