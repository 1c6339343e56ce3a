#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_env.sh — `ppslab env`: valid JSON with the fields results files need (checked with
# jq), usage errors (64), an interface that does not exist (listed with null values and
# "error", a warning on stderr, status 0), and, as root only, a veth inside a namespace
# of our own (driver "veth", the namespace's ip_forward).
set -u
B=${PPSLAB_BIN:?}/ppslab
T=$(mktemp -d /tmp/ppslab-t_env.XXXXXX)
NS=ppslab-tenv-$$
cleanup() {
	rm -rf "$T"
	[ "$(id -u)" = 0 ] && ip netns del "$NS" 2>/dev/null
	return 0
}
trap cleanup EXIT
. "$(dirname "$0")/lib.sh"
# jqt DESC FILTER: the filter holds (jqs -e) on $T/out
jqt() {
	jqs -e "$2" "$T/out" >/dev/null 2>"$T/jqerr"
	check "$1" $? "jq '$2': $(head -c 300 "$T/jqerr")" "$(head -c 600 "$T/out")"
}

# ---- help and usage -------------------------------------------------------------------
run "env --help exits 0 with its synopsis" 0 "" "$B" env --help
grep -q '^usage: ppslab env ' "$T/out"; check "env --help prints 'usage: ppslab env'" $?
"$B" --help | grep -qE '^  env +print this box'; check "ppslab --help lists env" $?
run "env --bogus is a usage error" 64 "unknown option" "$B" env --bogus
run "env with a stray argument is a usage error" 64 "unexpected argument 'x'" "$B" env x
run "env -i without a value is a usage error" 64 "needs an argument" "$B" env -i
run "env -i with a slash is a usage error" 64 "^ppslab: --iface a/b: expected an interface name" "$B" env -i a/b
run "env -i with a name over 15 characters is a usage error" 64 "--iface abcdefghijklmnop" \
	"$B" env -i abcdefghijklmnop
run "env --netns of a namespace that does not exist" 64 "--netns ppslab-none-$$: expected an existing" \
	"$B" env --netns "ppslab-none-$$" -i lo

# ---- this box ---------------------------------------------------------------------------
run "env -i lo exits 0 quietly" 0 "" "$B" env -i lo
[ ! -s "$T/err" ]; check "env -i lo writes nothing on stderr" $? "$(head -c 300 "$T/err")"
jqt "env: valid JSON object" 'type == "object"'
jqt "env: os.name, os.kernel and os.uname are non-empty strings" \
	'(.os.name | type == "string" and length > 0) and (.os.kernel | length > 0) and (.os.uname | length > 0)'
jqt "env: os.kernel is uname -r" ".os.kernel == \"$(uname -r)\""
jqt "env: hostname is hostname(1)'s" ".hostname == \"$(hostname)\""
jqt "env: cpu.threads is nproc --all, cores between 1 and threads" \
	".cpu.threads == $(nproc --all) and .cpu.cores >= 1 and .cpu.cores <= .cpu.threads"
mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
jqt "env: mem_mb is MemTotal in MiB" ".mem_mb == $mem"
jqt "env: boot_id is the kernel's" ".boot_id == \"$(cat /proc/sys/kernel/random/boot_id)\""
jqt "env: ppslab carries the version" '.ppslab | startswith("'"$("$B" --version | awk '{ print $2 }')"'")'
jqt "env: one NIC, lo, MTU 65536, all keys present" \
	'(.nics | length == 1) and .nics[0].name == "lo" and .nics[0].mtu == 65536 and
	 (.nics[0] | has("driver") and has("speed_mbps") and has("queues") and has("mac"))'
jqt "env: lo has no driver and no speed (null, not guessed)" \
	'.nics[0].driver == null and .nics[0].speed_mbps == null'
jqt "env: tunables carry ip_forward and lo's RPS mask" \
	'(.tunables["net.ipv4.ip_forward"] | . == 0 or . == 1) and (.tunables | has("rps_cpus.lo"))'
fwd=$(cat /proc/sys/net/ipv4/ip_forward)
jqt "env: ip_forward is this namespace's" ".tunables[\"net.ipv4.ip_forward\"] == $fwd"
run "env --compact prints one line" 0 "" "$B" env --compact -i lo
[ "$(wc -l <"$T/out")" = 1 ]; check "env --compact output is one line" $?
jqt "env --compact is the same JSON" '.nics[0].name == "lo"'
run "env -i lo,lo -i lo lists three entries" 0 "" "$B" env -i lo,lo -i lo
jqt "env: repeated and comma-separated -i" '.nics | length == 3'

# ---- an interface that does not exist ---------------------------------------------------
run "env -i of a missing interface: status 0 with a warning" 0 \
	"warning: env: interface ppslabnone9: .*does not exist" "$B" env -i lo,ppslabnone9
jqt "env: the missing interface is listed with nulls and the error" \
	'.nics[1].name == "ppslabnone9" and .nics[1].driver == null and .nics[1].mtu == null and
	 (.nics[1].error | test("does not exist")) and .nics[0].mtu == 65536'

# ---- inside a namespace (root) ------------------------------------------------------------
if [ "$(id -u)" != 0 ]; then
	for d in "env --netns: veth driver, MTU and MAC" "env --netns: the namespace's ip_forward" \
		"env --netns: the namespace's IPv6 forwarding"; do
		skip "$d" "needs root"
	done
elif ! ip netns add "$NS" 2>/dev/null ||
     ! ip -n "$NS" link add tenv0 mtu 1400 type veth peer name tenv1 2>/dev/null ||
     ! ip netns exec "$NS" sysctl -qw net.ipv4.ip_forward=1 ||
     ! ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.forwarding=1; then
	for d in "env --netns: veth driver, MTU and MAC" "env --netns: the namespace's ip_forward" \
		"env --netns: the namespace's IPv6 forwarding"; do
		skip "$d" "cannot make namespace $NS with a veth pair"
	done
else
	mac=$(ip -n "$NS" -j link show dev tenv0 | jq -r '.[0].address')
	run "env --netns NS -i tenv0 exits 0" 0 "" "$B" env --netns "$NS" -i tenv0
	jqt "env --netns: veth driver, MTU and MAC" \
		".netns == \"$NS\" and .nics[0].driver == \"veth\" and .nics[0].mtu == 1400 and
		 .nics[0].mac == \"$mac\" and .nics[0].queues >= 1"
	jqt "env --netns: the namespace's ip_forward" '.tunables["net.ipv4.ip_forward"] == 1'
	jqt "env --netns: the namespace's IPv6 forwarding" \
		'.tunables["net.ipv6.conf.all.forwarding"] == 1'
	run "env --netns: an interface of the host is missing there" 0 "in namespace $NS" \
		"$B" env --netns "$NS" -i eth0-none
fi

echo "1..$n"
