#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_profiles.sh — the shipped profiles and rule sets, and bad profiles, without root:
# every profiles/*.json passes `ppslab run --dry-run` (the plan is printed, nothing
# runs); every rule file passes ppslab-rut --check-rules; the router-side scripts
# parse; a bad profile gets FILE:LINE:COLUMN: PATH: what was expected, every error at
# once, status 65; a bad --set is placed as "--set N"; the ip_version axis in the plan
# and its refusal of sizes below the smallest IPv6 frame; the vlan axis in the plan, its
# refusal of sizes below the smallest tagged frame and of routers that cannot take a tag.
set -u
B=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_profiles.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$TOP"
for p in profiles/*.json; do
	name=$(basename "$p" .json)
	run "$name: --dry-run" 0 "" "$B/ppslab" run "$p" --dry-run
	if grep -q "^cases: [0-9]* cells\? x [0-9]* repetitions\? = [0-9]* cases" "$T/out" &&
	   grep -q "^estimated time: about" "$T/out"; then
		ok "$name: the plan has cells, cases and an estimated time"
	else
		no "$name: the plan has cells, cases and an estimated time" "$(head -c 400 "$T/out")"
	fi
	if jqs -e '.description | length > 80' "$p" >/dev/null; then
		ok "$name: says what it reproduces and what to expect"
	else
		no "$name: has a description"
	fi
done
run "a profile by its bare name" 0 "" "$B/ppslab" run demo --dry-run
run "demo: under two minutes by the plan" 0 "" \
	awk '/^estimated time/ { if ($0 ~ /min/) exit 1 }' <("$B/ppslab" run demo --dry-run)
for r in profiles/rules/*.rules; do
	run "$(basename "$r"): ppslab-rut --check-rules" 0 "" "$B/ppslab-rut" --check-rules "$r" -i rut0 -o rut1
done
for s in profiles/rules/*.sh profiles/hooks/*; do
	run "$(basename "$s"): parses" 0 "" sh -n "$s"
done
# the loader tunable hook: one line per tunable, replaced in place, values checked
printf 'a="1"\nkern.hz="100"\nkernXhz=3\n' >"$T/loader.conf"
run "loader-tunable: sets kern.hz" 0 "" sh profiles/hooks/loader-tunable kern.hz 2000 "$T/loader.conf"
if [ "$(cat "$T/loader.conf")" = "$(printf 'a="1"\nkernXhz=3\nkern.hz="2000"')" ]; then
	ok "loader-tunable: the old line replaced, the others kept"
else
	no "loader-tunable: the old line replaced, the others kept" "$(cat "$T/loader.conf")"
fi
run "loader-tunable: a value with a quote is refused" 64 "a value with a quote" \
	sh profiles/hooks/loader-tunable kern.hz '1"; reboot' "$T/loader.conf"
# --be: the tunable goes into the boot environment that boots next (mounted with
# bectl), not the running one's; a stand-in bectl with two environments, be1 running
mkdir -p "$T/fake" "$T/be/be1/boot" "$T/be/be2/boot"
printf 'kern.hz="100"\n' >"$T/be/be1/boot/loader.conf"
printf 'kern.hz="100"\n' >"$T/be/be2/boot/loader.conf"
cat >"$T/fake/bectl" <<SH
#!/bin/sh
case \$1 in
list) printf 'be1\tNR\t/\t1G\nbe2\t-\t-\t1G\n' ;;
mount) ln -s "$T/be/\$2/boot" "\$3/boot" && echo "\$3" >"$T/be/mounted" ;;
umount) rm -f "\$(cat "$T/be/mounted")/boot" && echo "\$2" >"$T/be/umounted" ;;
esac
SH
chmod 755 "$T/fake/bectl"
run "loader-tunable --be be2: exits 0" 0 "" env PATH="$T/fake:$PATH" sh profiles/hooks/loader-tunable --be be2 kern.hz 4000
if [ "$(cat "$T/be/be2/boot/loader.conf")" = 'kern.hz="4000"' ] && [ "$(cat "$T/be/be1/boot/loader.conf")" = 'kern.hz="100"' ] \
	&& [ "$(cat "$T/be/umounted" 2>/dev/null)" = be2 ]; then
	ok "loader-tunable --be be2: be2's loader.conf set, the running be1's untouched, be2 unmounted"
else
	no "loader-tunable --be be2: be2's loader.conf set, the running be1's untouched, be2 unmounted" \
		"be1: $(cat "$T/be/be1/boot/loader.conf") be2: $(cat "$T/be/be2/boot/loader.conf")"
fi

# the default read hooks: the router's own counters as the JSON a read hook gives;
# FreeBSD's with stand-ins for netstat, sysctl and ipfw printing what FreeBSD 14 does
mkdir -p "$T/bsd"
cat >"$T/bsd/netstat" <<'SH'
#!/bin/sh
echo "Name    Mtu Network       Address              Ipkts Ierrs Idrop     Opkts Oerrs  Coll  Drop"
case $2 in
em0) echo "em0    1500 <Link#1>      00:1b:21:aa:00:01   100000     0   250        10     0     0     0"
     echo "em0       - 198.18.0.0/24 198.18.0.1              5     -     -         5     -     -     -" ;;
em1) echo "em1    1500 <Link#2>      00:1b:21:aa:00:02       12     0     0     99700     3     0     7" ;;
esac
SH
cat >"$T/bsd/sysctl" <<'SH'
#!/bin/sh
printf 'kern.polling.burst: 150\nkern.polling.lost_polls: 42\nkern.polling.short_ticks: 7\nkern.polling.phase: 0\n'
SH
cat >"$T/bsd/ipfw" <<'SH'
#!/bin/sh
printf '00100 99000 5940000 count ip from any to any\n00200     0       0 deny ip from 198.18.128.1 to any\n65000 99000 5940000 allow ip from any to any\n65535     0       0 deny ip from any to any\n'
SH
chmod 755 "$T/bsd/netstat" "$T/bsd/sysctl" "$T/bsd/ipfw"
PATH="$T/bsd:$PATH" sh profiles/hooks/read-freebsd em0 em1 >"$T/readbsd.json" 2>"$T/err"
if jq -e '.rx_pkts == 100012 and .fwd_pkts == 99710 and .ifaces.em0.idrops == 250
	and .ifaces.em1.oerrs == 3 and .polling.lost_polls == 42 and .polling.short_ticks == 7
	and (.rules | map(.number) == [100, 65000]) and .rules[0].pkts == 99000' "$T/readbsd.json" >/dev/null; then
	ok "read-freebsd: the ports' counters (the <Link> lines), kern.polling and ipfw's counting rules"
else
	no "read-freebsd: the ports' counters (the <Link> lines), kern.polling and ipfw's counting rules" \
		"$(cat "$T/readbsd.json" "$T/err")"
fi
sh profiles/hooks/read-linux lo >"$T/readlx.json" 2>"$T/err"
if jq -e '(.rx_pkts | type) == "number" and .rx_pkts == .ifaces.lo.rx_packets
	and (.softnet.dropped | type) == "number" and (.softnet.time_squeeze | type) == "number"' "$T/readlx.json" >/dev/null; then
	ok "read-linux: the port's counters and softnet_stat as JSON"
else
	no "read-linux: the port's counters and softnet_stat as JSON" "$(cat "$T/readlx.json" "$T/err")"
fi
run "read-linux: an interface that does not exist fails" 1 "no interface" sh profiles/hooks/read-linux nosuch0
# the shipped templates with an external router read it with these scripts, copied to
# the router's /usr/local/libexec/ppslab (LAB.md), on the ports of topology.rut; the
# FreeBSD ones run here against the stand-ins above, as the template's argv says
nt=0 bad=
for f in profiles/*.json; do
	[ "$(jq -r '.router.kind // empty' "$f")" = external ] || continue
	nt=$((nt + 1))
	why=$(jq -r '.router.read_hook as $h | (.topology.rut.iface // "" | split(",")) as $ifs
		| if ($h | type) != "array" then "no read_hook"
		elif $h[0:3] != ["ssh", .topology.rut.ssh, "sh"] then "not [ssh, \(.topology.rut.ssh), sh, ...]: \($h[0:4])"
		elif ($h[3] | test("^/usr/local/libexec/ppslab/read-(freebsd|linux)$") | not) then "names no shipped read hook: \($h[3:])"
		elif $h[4:] != $ifs then "its ports \($h[4:]) are not topology.rut.iface \($ifs)"
		else "" end' "$f")
	if [ -z "$why" ]; then
		s=$(jq -r '.router.read_hook[3] | sub(".*/"; "")' "$f")
		if [ ! -f "profiles/hooks/$s" ]; then
			why="profiles/hooks/$s is not shipped"
		elif [ "$s" = read-freebsd ]; then
			jq -r '.router.read_hook[4:][]' "$f" | xargs env PATH="$T/bsd:$PATH" sh "profiles/hooks/$s" >"$T/tread.json" 2>"$T/err" &&
				jq -e '.rx_pkts == 100012 and .fwd_pkts == 99710' "$T/tread.json" >/dev/null ||
				why="its read hook as the template runs it: $(cat "$T/tread.json" "$T/err" | head -c 300)"
		fi
	fi
	[ -z "$why" ] || bad="$bad ${f##*/}: $why;"
done
if [ "$nt" -ge 4 ] && [ -z "$bad" ]; then
	ok "the $nt external-router templates read the router with a shipped read hook on their ports"
else
	no "the external-router templates read the router with a shipped read hook on their ports" "$nt templates;$bad"
fi

# router axes: every error placed
cat >"$T/raxes.json" <<'JSON'
{ "router": { "kind": "external",
    "axes": [ { "name": "kern.hz", "values": [1000, 2000], "set": ["ssh", "r2", "x", "{valeu}"] },
              { "name": "kern.hz", "values": [4000], "set": ["x"] },
              { "name": "burst_max", "values": [10], "set": ["x"] },
              { "name": "os", "values": [], "set": ["x"] } ] } }
JSON
run "router axes: bad profile, status 65" 65 "" "$B/ppslab" run "$T/raxes.json" --dry-run
for pat in 'raxes.json:2:86: router.axes\[0\].set\[3\]: placeholder \{valeu\} names no axis' \
	'raxes.json:3:25: router.axes\[1\].name: router axis "kern.hz" is declared twice' \
	'raxes.json:4:25: router.axes\[2\].name: router axis "burst_max" collides with the built-in axis burst_max' \
	'raxes.json:5:41: router.axes\[3\].values: expected "values": a non-empty list'; do
	if grep -qE -- "$pat" "$T/err"; then ok "router axes: $pat"; else no "router axes: $pat" "$(cat "$T/err")"; fi
done

# bad profiles: every error placed, status 65
cat >"$T/bad.json" <<'JSON'
{ "description": "bad",
  "matrix": { "pollhz": [1000, "fast"], "burst": [10] },
  "trial": { "method": "fixed", "duraton": "2s" },
  "topology": { "dst": "8.8.8.8" } }
JSON
run "bad profile: status 65" 65 "" "$B/ppslab" run "$T/bad.json" --dry-run
for pat in "bad.json:2:32: matrix.pollhz\[1\]: expected a whole number" "bad.json:2:41: matrix.burst: unknown axis" "bad.json:3:33: trial.duraton: unknown key" \
	"bad.json:4:24: topology.dst: 8.8.8.8 is outside the benchmarking range"; do
	if grep -qE -- "$pat" "$T/err"; then ok "bad profile: $pat"; else no "bad profile: $pat" "$(cat "$T/err")"; fi
done
# the sender's and sink's ports, threads, CPUs and queues, and several boxes: each
# wrong key placed
cat >"$T/ports.json" <<'JSON'
{ "description": "bad ports",
  "matrix": { "direction": ["uni", "bi"] },
  "topology": { "kind": "netns",
    "gen": [ { "port": "xdp,mode=fast", "threads": 0 }, { "port": "dpdk", "cpus": [0, -1] } ],
    "sink": { "port": "afpacket,bypass=1", "threads": 3, "queues": 99, "colour": 1 } } }
JSON
run "bad ports: status 65" 65 "" "$B/ppslab" run "$T/ports.json" --dry-run
for pat in 'ports.json:2:36: matrix.direction\[1\]: bidirectional cells need one sender and one sink box' \
	'ports.json:4:24: topology.gen\[0\].port: xdp.s mode=fast: expected auto\|copy\|zc' \
	'ports.json:4:52: topology.gen\[0\].threads: expected a whole number 1..64, got 0' \
	'ports.json:4:67: topology.gen\[1\].port: expected a backend "afpacket", "xdp", "pcap" or "libnet"' \
	'ports.json:4:87: topology.gen\[1\].cpus\[1\]: expected a CPU number 0..1023, got -1' \
	'ports.json:5:23: topology.sink.port: afpacket.s bypass applies to a port that sends, not to a sink.s' \
	'ports.json:5:68: topology.sink.queues: expected a whole number 1..64, got 99' \
	'ports.json:5:72: topology.sink.colour: unknown key "colour"'; do
	if grep -qE -- "$pat" "$T/err"; then ok "bad ports: $pat"; else no "bad ports: $pat" "$(cat "$T/err")"; fi
done
cat >"$T/ports2.json" <<'JSON'
{ "description": "ports outside the lab",
  "router": { "kind": "none" },
  "topology": { "kind": "local",
    "gen": { "iface": "xdp:eth0", "port": "xdp", "cpus": "0,,1" },
    "sink": { "iface": "sink0", "port": "pcap", "threads": 2, "queues": 2 } } }
JSON
run "bad ports outside the lab: status 65" 65 "" "$B/ppslab" run "$T/ports2.json" --dry-run
for pat in 'ports2.json:4:35: topology.gen.port: iface "xdp:eth0" names its backend already' \
	'ports2.json:4:58: topology.gen.cpus: expected a list of CPU numbers' \
	'ports2.json:5:60: topology.sink.threads: .* a pcap port takes one thread' \
	'ports2.json:5:63: topology.sink.queues: queues applies to topology kind "netns"'; do
	if grep -qE -- "$pat" "$T/err"; then ok "bad ports: $pat"; else no "bad ports: $pat" "$(cat "$T/err")"; fi
done
run "--set topology.gen.threads=2 with an xdp: port" 0 "" "$B/ppslab" run demo --dry-run \
	--set topology.gen.threads=2 --set topology.gen.port=xdp
if grep -q "^sender: gen xdp:gen0 x2 threads" "$T/out" && grep -q "2 queues per veth" "$T/out"; then
	ok "the plan shows the sender's port, its threads and the lab's queues"
else
	no "the plan shows the sender's port, its threads and the lab's queues" "$(head -c 600 "$T/out")"
fi
run "a bad --set of a box key is placed" 65 '^--set 1: topology.gen.threads: expected a whole number 1..64' \
	"$B/ppslab" run demo --dry-run --set topology.gen.threads=x
run "--set through a list of boxes sets each" 0 "" "$B/ppslab" run demo --dry-run \
	--set 'topology.gen=[{},{}]' --set topology.gen.threads=3
if grep -q "^senders: gen gen0 x3 threads (ppslab-gen), gen2 gen0 x3 threads (ppslab-gen2)" "$T/out"; then
	ok "two sender boxes, three threads each, in namespaces ppslab-gen and ppslab-gen2"
else
	no "two sender boxes, three threads each" "$(head -c 600 "$T/out")"
fi
printf '{ "matrix": { "pollhz": [1000, }\n' >"$T/syntax.json"
run "a JSON syntax error is placed" 65 "syntax.json:1:[0-9]+:" "$B/ppslab" run "$T/syntax.json" --dry-run
run "a bad --set is placed as --set N" 65 "^--set 2: " "$B/ppslab" run demo --dry-run \
	--set pollhz=1000 --set trial.duration=forever
run "a knob the profile's kernel lacks is placed" 65 \
	"demo.json:[0-9]+:[0-9]+: matrix.pollhz: kernel freebsd-7 has no kern.polling.pollhz" \
	"$B/ppslab" run demo --dry-run --set kernel=freebsd-7
run "--set sweeps an axis" 0 "" "$B/ppslab" run demo --dry-run --set pollhz=500,1000,1500
if grep -q "pollhz.*500, 1000, 1500" "$T/out"; then ok "--set: the plan shows the new axis"; else no "--set: the plan shows the new axis" "$(head -c 400 "$T/out")"; fi
# ip_version: swept, shown in the plan and the case ids; the IPv6 templates' hooks and
# read-backs take {ip_version}; a size below the smallest IPv6 frame placed
run "--set sweeps ip_version" 0 "" "$B/ppslab" run demo --dry-run --set ip_version=4,6 --set size=84
if grep -q "^  ip_version *4, 6" "$T/out" && grep -q "ip_version=6  rep 1" "$T/out"; then
	ok "the plan shows the ip_version axis and its cells"
else
	no "the plan shows the ip_version axis and its cells" "$(head -c 600 "$T/out")"
fi
run "ipv6-freebsd: its ip_version hook in the plan" 0 "" "$B/ppslab" run ipv6-freebsd --dry-run
if grep -q "^  ip_version   [0-9]* runs" "$T/out" && grep -q "applied by ppslab itself (the traffic): ip_version, size" "$T/out"; then
	ok "ipv6-freebsd: the ip_version hook runs as the axis changes; ppslab sends the family"
else
	no "ipv6-freebsd: the ip_version hook runs as the axis changes" "$(head -c 900 "$T/out")"
fi
run "ip_version 6 with size 64 from --set: placed at the size" 65 \
	"^--set 2: params.size: size 64 is below 84, the smallest IPv6 test frame .*ip_version 6 at params.ip_version" \
	"$B/ppslab" run demo --dry-run --set ip_version=6 --set size=64
printf '{ "matrix": { "ip_version": [4, 6], "size": [84, 78] } }\n' >"$T/v6.json"
run "ip_version 6 with size 78 in a file: FILE:LINE:COLUMN of the size" 65 \
	"v6.json:1:50: matrix.size\\[1\\]: size 78 is below 84, the smallest IPv6 test frame .*ip_version 6 at matrix.ip_version\\[1\\]" \
	"$B/ppslab" run "$T/v6.json" --dry-run
run "ip_version 5 is refused" 65 "^--set 1: params.ip_version: expected the IP version, 4 or 6, got 5" \
	"$B/ppslab" run demo --dry-run --set ip_version=5
# vlan: swept, in the plan and the case ids; sizes below a tagged frame placed; a router
# that cannot take a tag refused
run "--set sweeps vlan" 0 "" "$B/ppslab" run demo --dry-run --set vlan=none,100,300.400 --set size=72
if grep -q "^  vlan *none, 100, 300.400" "$T/out" && grep -q "vlan=100  rep 1" "$T/out" &&
   grep -q "vlan=300.400  rep 1" "$T/out"; then
	ok "the plan shows the vlan axis and its cells"
else
	no "the plan shows the vlan axis and its cells" "$(head -c 600 "$T/out")"
fi
run "vlan fixed: in the plan's fixed values" 0 "" "$B/ppslab" run demo --dry-run --set vlan=7 --set size=68
if grep -q "^fixed:.* vlan=7" "$T/out"; then ok "the plan shows a fixed vlan"; else no "the plan shows a fixed vlan" "$(head -c 600 "$T/out")"; fi
run "vlan 100 with size 64 from --set: placed at the size" 65 \
	"^--set 2: params.size: size 64 is below 68, the smallest IPv4 test frame with a VLAN tag .*vlan 100 at params.vlan" \
	"$B/ppslab" run demo --dry-run --set vlan=100 --set size=64
printf '{ "matrix": { "vlan": ["none", "1.2"],\n  "size": [72, 68] } }\n' >"$T/vlan.json"
run "QinQ with size 68 in a file: FILE:LINE:COLUMN of the size" 65 \
	"vlan.json:2:16: matrix.size\\[1\\]: size 68 is below 72, the smallest IPv4 test frame with two VLAN tags .QinQ. .*vlan 1.2 at matrix.vlan\\[1\\]" \
	"$B/ppslab" run "$T/vlan.json" --dry-run
run "vlan 4095 is refused" 65 "^--set 1: params.vlan: expected \"none\" .untagged., a VLAN id 1..4094 or \"OUTER.INNER\"" \
	"$B/ppslab" run demo --dry-run --set vlan=4095 --set size=68
run "vlan without a router is refused" 65 "params.vlan: vlan 100 tags the test frames, but router.kind \"none\" has no router" \
	"$B/ppslab" run demo --dry-run --set vlan=100 --set size=68 --set router.kind=none
# --resume of a complete file: nothing runs (no root needed), the table is printed; of
# a file made with another matrix: refused, the file untouched
cp tests/data/sweep.json "$T/sweep.json"
sum0=$(md5sum <"$T/sweep.json")
run "--resume of a complete file: nothing left to do" 0 "nothing left to resume" \
	"$B/ppslab" run demo --resume -o "$T/sweep.json" --set pollhz=1000,2000,3000,4000,5000 \
	--set burst_max=50,150 --set rules=0,10 --set repetitions=3 --set output.plot.output=\"$T/s.png\"
if grep -q "^1000 .*49,863" "$T/out"; then ok "--resume of a complete file prints its table"; else no "--resume of a complete file prints its table" "$(head -c 300 "$T/out")"; fi
run "--resume with another matrix is refused" 65 "made with another matrix" \
	"$B/ppslab" run demo --resume -o "$T/sweep.json"
if [ "$(md5sum <"$T/sweep.json")" = "$sum0" ]; then ok "the refused file is untouched"; else no "the refused file is untouched"; fi
run "--resume of a missing file" 66 "nothing to resume" "$B/ppslab" run demo --resume -o "$T/none.json"
run "an output that cannot be written: 73 before anything runs" 73 "/nonexistent-dir/r.json" \
	"$B/ppslab" run demo -o /nonexistent-dir/r.json
run "a missing profile" 66 "nosuch" "$B/ppslab" run nosuch --dry-run
run "run without a profile" 64 "which profile" "$B/ppslab" run
echo "1..$n"
