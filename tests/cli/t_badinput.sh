#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_badinput.sh — the rows of docs/bad-input.md that no other CLI test covers: bad
# values of the programs' options (each refused with "--opt VALUE: expected ..." and
# EX_USAGE), of port spec options ("PORT: KEY=VALUE: expected ...", EX_USAGE), an
# unknown --user (EX_NOUSER), and results files that are empty, cut short, random
# bytes, of another schema or a directory (FILE[:LINE:COLUMN]: what).
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() {   # result DESC OK(0/1) WHY
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; echo "#   $3"; fi
}
t() {        # t DESC EXPECTED_STATUS STDERR_PATTERN COMMAND...
	local d=$1 want=$2 pat=$3; shift 3
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	[ "$rc" = "$want" ] && echo "$err" | grep -qF -- "$pat"
	result "$d" $? "status $rc (wanted $want), stderr: $err"
}
G="$B/ppslab-gen" S="$B/ppslab-sink" R="$B/ppslab-rut" P="$B/ppslab"

t "gen: --ttl 0" 64 "--ttl 0: expected a TTL 1..255" "$G" -i lo --ttl 0
t "gen: --ttl 256" 64 "--ttl 256: expected a TTL 1..255" "$G" -i lo --ttl 256
t "gen: --clock" 64 "--clock tai: expected realtime or monotonic" "$G" -i lo --clock tai
t "gen: --late 0" 64 "--late 0: expected a duration from 1us to 1s" "$G" -i lo --late 0
t "gen: --interval below 10ms" 64 "--interval 1ms: expected an interval from 10ms to 1h" "$G" -i lo --interval 1ms
t "gen: --dst not an address" 64 "--dst 198.18.0.999: expected an IPv4 address" "$G" -i lo --dst 198.18.0.999
t "gen: --pattern hex:zz" 64 "--pattern hex:zz: expected zero, 0xNN, inc, random or hex:BYTES" "$G" -i lo --pattern hex:zz
t "gen: empty --rate" 64 "--rate : expected packets per second" "$G" -i lo --rate ""
t "gen: --seed -1" 64 "--seed -1: expected a whole number" "$G" -i lo --seed -1
t "gen: short --dst-mac" 64 "--dst-mac 02:00: expected a MAC" "$G" -i lo --dst-mac 02:00
t "gen: unknown --user" 67 "--user 'no-such-user-x': no such user" "$G" -i lo --user no-such-user-x
t "gen: --user with --calibrate" 64 "--user: --calibrate" "$G" -i lo --calibrate --user root
t "sink: --dport 70000" 64 "--dport 70000: expected a UDP port 0..65535" "$S" -i lo --dport 70000
t "sink: --expect -1" 64 "--expect -1: expected a whole number" "$S" -i lo --expect -1
t "sink: --interval 5ms" 64 "--interval 5ms: expected an interval from 10ms to 1h" "$S" -i lo --interval 5ms
t "sink: --duration 0" 64 "--duration 0: expected a duration" "$S" -i lo --duration 0
t "sink: unknown --user" 67 "--user 'no-such-user-x': no such user" "$S" -i lo --user no-such-user-x
t "rut: --route prefix /33" 64 "--route 10.0.0.0/33,via=1.2.3.4: column 10: expected a prefix length 0..32" "$R" -i lo -o lo --route 10.0.0.0/33,via=1.2.3.4
t "rut: --neigh bad MAC" 64 "--neigh 1.2.3.4=zz@0: 'zz' is not a MAC address" "$R" -i lo -o lo --neigh 1.2.3.4=zz@0
t "rut: --routes missing file" 66 "/nonexistent/routes: No such file or directory" "$R" -i lo -o lo --routes /nonexistent/routes
t "rut: --duration 0" 64 "--duration 0: expected a duration" "$R" -i lo -o lo --duration 0
t "rut: --interval 2h" 64 "--interval 2h: expected an interval from 10ms to 1h" "$R" -i lo -o lo --interval 2h
t "rut: unknown --user" 67 "--user 'no-such-user-x': no such user" "$R" -i lo -o lo --user no-such-user-x
t "rut: empty --user" 64 "--user '': expected a user name" "$R" -i lo -o lo --user ""

: >"$tmp/empty.json"
head -c 300 "$TOP/tests/data/small.json" >"$tmp/cut.json"
printf '\310\001\377garbage\000\n' >"$tmp/random.json"
echo '{"schema":"ppslab/gen"}' >"$tmp/other.json"
t "results: empty file" 65 "empty.json:1:0: not valid JSON" "$P" table "$tmp/empty.json"
t "results: cut short" 65 "cut.json:10:16: not valid JSON: premature end of input" "$P" table "$tmp/cut.json"
t "results: random bytes" 65 "random.json:1:0: not valid JSON" "$P" table "$tmp/random.json"
t "results: another schema" 65 "other.json: \$.schema: expected \"ppslab/result\", got \"ppslab/gen\"" "$P" table "$tmp/other.json"
t "results: a directory" 66 "$tmp: Is a directory" "$P" table "$tmp"
t "results: missing file" 66 "none.json: No such file or directory" "$P" table "$tmp/none.json"
t "table: --where on an unknown axis" 64 "--where nope=1: $TOP/tests/data/small.json has no axis 'nope' (axes: pollhz, burst_max)" "$P" table "$TOP/tests/data/small.json" --where nope=1
t "plot: --image-size 0x0" 64 "--image-size 0x0: expected WIDTHxHEIGHT" "$P" plot "$TOP/tests/data/small.json" --image-size 0x0 -o "$tmp/x.png"
t "compare: one file" 64 "compare needs a baseline and 1..15 other results files" "$P" compare "$TOP/tests/data/small.json"
# rule files that are not text, or lines too long: named by byte value and position
printf 'add 100 deny ip\000 from any to any\n' >"$tmp/nul.rules"
printf 'add 100 deny ip from any to any\nadd 200 deny ip from \351t\351 to any\n' >"$tmp/latin1.rules"
printf 'add 100 deny ip from any to any # caf\303\251 in a comment is fine\n' >"$tmp/comment.rules"
{ printf 'add 100 deny ip from any to '; head -c 9000 /dev/zero | tr '\0' 1; echo; } >"$tmp/long.rules"
t "rules: a NUL byte" 65 "nul.rules:1:16: unexpected byte 0x00 (rules are ASCII text)" "$R" --check-rules "$tmp/nul.rules"
t "rules: a non-ASCII byte" 65 "latin1.rules:2:22: unexpected byte 0xe9 (rules are ASCII text)" "$R" --check-rules "$tmp/latin1.rules"
t "rules: non-ASCII in a comment is fine" 0 "" "$R" --check-rules "$tmp/comment.rules"
t "rules: a line over 8191 characters" 65 "long.rules:1:8192: line too long (more than 8191 characters)" "$R" --check-rules "$tmp/long.rules"

# port spec options: checked before anything is opened, so no root is needed; each
# error names the port, the key and what it takes (a send would go to lo only)
gp() { "$G" --dst 127.0.0.1 --src 127.0.0.1 --dst-mac 02:00:00:00:00:01 --count 1 -i "$@"; }
sp() { "$S" --duration 0.1 -i "$@"; }
t "port: unknown key lists the backend's keys" 64 "pcap:lo: unknown port option 'bogus' (pcap: takes promisc)" gp pcap:lo,bogus=1
t "port: libnet takes no keys" 64 "libnet:lo: unknown port option 'x' (libnet: takes no options)" gp libnet:lo,x=1
t "port: a key given twice" 64 "pcap:lo: port option 'promisc' given twice" sp pcap:lo,promisc=0,promisc=1
t "port: a receive key on a sending port" 64 "pcap:lo: promisc=1: only for receiving ports, and this one is only sending" gp pcap:lo,promisc=1
t "port: a send key on a receiving port" 64 "udp:127.0.0.1:9: src=127.0.0.1:5: only for sending ports, and this one is only receiving" sp udp:127.0.0.1:9,src=127.0.0.1:5
t "port: pcap promisc=x" 64 "pcap:lo: promisc=x: expected 0 or 1" sp pcap:lo,promisc=x
if gp afpacket:lo,bogus=1 2>&1 | grep -q "unknown port option"; then
	t "port: afpacket bypass=2" 64 "afpacket:lo: bypass=2: expected 0 or 1" gp afpacket:lo,bypass=2
	t "port: afpacket linear=5" 64 "afpacket:lo: linear=5: expected 0 or 1" gp afpacket:lo,linear=5
	t "port: afpacket linear= (empty)" 64 "afpacket:lo: linear=: expected 0 or 1" gp afpacket:lo,linear=
	t "port: afpacket frames=1" 64 "afpacket:lo: frames=1: expected 64..4194304" gp afpacket:lo,frames=1
	t "port: afpacket ring=abc" 64 "afpacket:lo: ring=abc: expected v2 or v3" sp afpacket:lo,ring=abc
	t "port: afpacket tov=-1" 64 "afpacket:lo: tov=-1: expected 1..1000 (ms)" sp afpacket:lo,tov=-1
	t "port: afpacket tov on a sending port" 64 "afpacket:lo: tov=5: only for receiving ports" gp afpacket:lo,tov=5
	t "port: afpacket bypass on a receiving port" 64 "afpacket:lo: bypass=0: only for sending ports" sp afpacket:lo,bypass=0
	t "port: afpacket unknown key lists the keys" 64 "unknown port option 'bogus' (afpacket: takes ring, frames, tov, bypass, promisc, linear)" gp afpacket:lo,bogus=1
else
	n=$((n + 1)); echo "ok $n - port: afpacket options # SKIP no afpacket: backend in this build"
fi
echo "1..$n"
