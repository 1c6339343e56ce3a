#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_rut_cli.sh — ppslab-rut's command line without root: bad values named with what
# was expected (EX_USAGE), the control client's errors and exit statuses, --help
# listing every option.
set -u
B=${PPSLAB_BIN:?}
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
R="$B/ppslab-rut"
t "mode must be poll, intr or busy" 64 "--mode fast: expected poll, intr or busy" $R -i a -o b --mode fast
t "pollhz 0" 64 "--pollhz 0: expected a rate of 1..30000 Hz" $R -i a -o b --pollhz 0
t "pollhz 40000" 64 "--pollhz 40000: expected" $R -i a -o b --pollhz 40000
t "burst-max 5" 64 "--burst-max 5: expected 10..20000 frames" $R -i a -o b --burst-max 5
t "sysctl without =" 64 "--sysctl kern.polling.pollhz: expected NAME=VALUE" $R -i a -o b --sysctl kern.polling.pollhz
t "range policy" 64 "--range-policy strict: expected einval, clamp or round" $R -i a -o b --range-policy strict
t "kernel" 64 "--kernel freebsd-5: expected dragonfly-1.8, dragonfly-2.0, freebsd-5.3, freebsd-7, freebsd-14" \
	$R -i a -o b --kernel freebsd-5
t "pollhz on a FreeBSD kernel" 64 "--pollhz: freebsd-7 has no kern.polling.pollhz: it polls at kern.hz" \
	$R -i a -o b --kernel freebsd-7 --pollhz 1000
t "spin" 64 "--spin 2s: expected" $R -i a -o b --spin 2s
t "rt-prio" 64 "--rt-prio 100: expected" $R -i a -o b --rt-prio 100
t "burst" 64 "--burst 0: expected" $R -i a -o b --burst 0
t "a missing port" 64 "both ports" $R -i a
# --vlan: the option and the value named, with what was expected
t "vlan: no =" 64 "^ppslab-rut: --vlan rut0: expected PORT=VID" $R -i rut0 -o rut1 --vlan rut0
t "vlan: VLAN id 0" 64 "^ppslab-rut: --vlan rut0=0: '0' is not a VLAN id 1..4094" $R -i rut0 -o rut1 --vlan rut0=0
t "vlan: VLAN id 4095" 64 "^ppslab-rut: --vlan rut0=4095: '4095' is not a VLAN id" $R -i rut0 -o rut1 --vlan rut0=4095
t "vlan: inner VLAN id" 64 "^ppslab-rut: --vlan rut0=100.x: 'x' is not an inner VLAN id" $R -i rut0 -o rut1 --vlan rut0=100.x
t "vlan: priority 8" 64 "^ppslab-rut: --vlan rut0=100:8: '8' is not a priority \\(PCP\\) 0..7" $R -i rut0 -o rut1 --vlan rut0=100:8
t "vlan: trailing words" 64 "^ppslab-rut: --vlan rut0=100,200: unexpected ',200'" $R -i rut0 -o rut1 --vlan rut0=100,200
t "vlan: not a port" 64 "^ppslab-rut: --vlan em0=100: em0 is not a port; expected the interface of -i or -o \\(rut0, rut1\\)" \
	$R -i rut0 -o rut1 --vlan em0=100
t "vlan: one a port" 64 "^ppslab-rut: --vlan rut0=200: rut0 has a vlan already" $R -i rut0 -o rut1 --vlan rut0=100 --vlan rut0=200
t "vlan: not with --l2" 64 "^ppslab-rut: --vlan rut0=100: not with --l2" $R -i rut0 -o rut1 --l2 --vlan rut0=100
t "ctl needs a command" 64 "usage: ppslab-rut ctl PATH" $R ctl /tmp/x.sock
t "ctl: no forwarder at the path" 69 "is ppslab-rut running with --ctl" $R ctl /nonexistent/rut.sock stats
t "ctl: a rule file that is not there" 64 "ipfw: pathname: /nonexistent/rules: No such file" \
	$R ctl /nonexistent/rut.sock ipfw -q /nonexistent/rules
long=$(head -c 5000 /dev/zero | tr '\0' x)
t "ctl: a command longer than 4096 bytes" 64 "longer than 4096" $R ctl /tmp/x.sock sysctl "$long"
t "ctl: a path too long for a socket" 64 "path too long" $R ctl "/tmp/$long" stats

# --check-rules: every error as FILE:LINE:COLUMN: message, status 65; a good file: 0
tmp=$(mktemp -d)
printf '# rules\nadd 100 allow ip from any to any\n200 deny tcp from any to any 70000\nadd 300 dney ip from any to any\n' >"$tmp/bad.rules"
printf 'add 100 count ip from any to any via rut0\n00200 5 230 deny udp from any to any 1000-2000\n' >"$tmp/good.rules"
t "--check-rules: a bad port, with its position" 65 "^$tmp/bad.rules:3:[0-9]+: " $R --check-rules "$tmp/bad.rules"
t "--check-rules: every error, not only the first" 65 "$tmp/bad.rules:4:9: " $R --check-rules "$tmp/bad.rules"
t "--check-rules: a good file (with pasted ipfw show output)" 0 "" $R --check-rules "$tmp/good.rules" -i rut0 -o rut1
t "--check-rules: a missing file" 66 "/nonexistent.rules" $R --check-rules /nonexistent.rules
# the warning `ipfw add` prints for an interface no port has, which --check-rules
# printed nowhere (the file is still good: ipfw accepts such rules)
printf 'add 100 deny ip from any to any via em7\n' >"$tmp/iface.rules"
t "--check-rules: warns about an interface no port has" 0 "'via em7' \\(column 37\\): no port" \
	$R --check-rules "$tmp/iface.rules" -i rut0 -o rut1
# a trunk port is its vlan interface to the rules: rut0.100 is a port, rut0 is not
printf 'add 100 deny ip from any to any recv rut0.100\nadd 200 deny ip from any to any recv rut0\n' >"$tmp/vlan.rules"
t "--check-rules --vlan: rut0 is no port" 0 "'recv rut0' \\(column 38\\): no port" \
	$R --check-rules "$tmp/vlan.rules" -i rut0 -o rut1 --vlan rut0=100
n=$((n + 1))
if [ -z "$($R --check-rules "$tmp/vlan.rules" -i rut0 -o rut1 --vlan rut0=100 2>&1 | grep rut0.100)" ]; then
	echo "ok $n - --check-rules --vlan: rut0.100 is a port"
else
	echo "not ok $n - --check-rules --vlan: rut0.100 is a port"
fi
n=$((n + 1))
if [ -z "$($R --check-rules "$tmp/good.rules" 2>&1)" ]; then
	echo "ok $n - --check-rules: silent on success"
else
	echo "not ok $n - --check-rules: silent on success"
fi
rm -rf "$tmp"

help=$($R --help)
n=$((n + 1))
missing=""
for o in --in --out --mode --kernel --pollhz --burst-max --sysctl --range-policy --spin --rt-prio --burst \
	--l2 --route --routes --neigh --vlan --rules --check-rules --default-accept --ctl --duration \
	--interval --json --ready-fd; do
	echo "$help" | grep -q -- "$o" || missing="$missing $o"
done
if [ -z "$missing" ] && echo "$help" | grep -q "ppslab-rut ctl PATH sysctl"; then
	echo "ok $n - --help lists every option and the ctl synopsis"
else
	echo "not ok $n - --help lists every option and the ctl synopsis"
	echo "#   missing:$missing"
fi
# the pages that describe the forwarder and its firewall name no option it lacks (the
# option reference is --help and the man page, which t_man.sh compares)
. "$(dirname "$0")/docopts.sh"
for doc in forwarder firewall; do
	n=$((n + 1))
	if stale=$(doc_opts_check "${PPSLAB_TOP:?}/docs/$doc.md" ppslab-rut); then
		echo "ok $n - docs/$doc.md names only options ppslab-rut has"
	else
		echo "not ok $n - docs/$doc.md names only options ppslab-rut has"
		echo "$stale" | sed 's/^/#   /' | head -10
	fi
done
echo "1..$n"
