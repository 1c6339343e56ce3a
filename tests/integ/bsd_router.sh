#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bsd_router.sh — a router that behaves like a remote FreeBSD box, for t_run_axes.sh:
# ppslab-rut forwarding with FreeBSD 14's polling (its poll clock is kern.hz, a
# boot-time tunable), an sshd to reach it by, and commands that act like FreeBSD's
# through the forwarder's control socket. Run in the router's namespace:
#
#   bsd_router.sh boot DIR BIN SSHD SSHD_CONFIG
#       the machine: writes DIR/bin/sysctl and DIR/bin/reboot (the sshd's sessions find
#       them first on their PATH), then boots: a new DIR/boottime, ppslab-rut with the
#       kern.hz and kern.polling.burst_max of DIR/loader.conf (a kern.hz it refuses
#       leaves the box up without forwarding, like a kernel whose NIC driver failed),
#       the sshd; waits for `reboot`; stops both, stays off DIR/down_s seconds (1 by
#       default) and boots again. DIR/state says "up" (after a boot) or "down". SIGTERM
#       stops everything.
#   sysctl [-n] NAME[=VALUE]...   kern.boottime from the machine, everything else
#       (kern.hz, kern.polling.*, net.inet.ip.fw.*) from the forwarder, which refuses to
#       change kern.hz as FreeBSD does
#   sysctl net.inet.ip.forwarding[=1]  as FreeBSD's: off at boot when DIR/rc.conf exists
#                                 without gateway_enable="YES" (then the firewall of the
#                                 forwarder denies everything until it is set to 1)
#   reboot                        asks the machine to restart, and returns
#   crash SECONDS                 the machine restarts by itself SECONDS from now (a
#                                 kernel panic, a watchdog): nothing on it is told
#   hang SECONDS                  the machine hangs SECONDS from now: forwarding and
#                                 ssh stop, and it stays so until its power is cycled
#                                 ("power" written to DIR/power, as a PDU would)
set -u
cmd=${1:-}
case $cmd in
boot) ;;
*) echo "usage: bsd_router.sh boot DIR BIN SSHD SSHD_CONFIG" >&2; exit 64 ;;
esac
D=$2 BIN=$3 SSHD=$4 CFG=$5
. "$(dirname "$0")/../../scripts/ready.sh"
mkdir -p "$D/bin"
cat >"$D/bin/sysctl" <<SH
#!/bin/sh
if [ "\$*" = "-n kern.boottime" ]; then cat "$D/boottime"; exit; fi
if [ "\$*" = "net.inet.ip.forwarding=1" ]; then
	"$BIN/ppslab-rut" ctl "$D/rut.sock" sysctl -q net.inet.ip.fw.enable=0 && echo "net.inet.ip.forwarding: 0 -> 1"
	exit
fi
if [ "\$*" = "-n net.inet.ip.forwarding" ]; then
	e=\$("$BIN/ppslab-rut" ctl "$D/rut.sock" sysctl -n net.inet.ip.fw.enable) || exit 1
	[ "\$e" = 0 ] && echo 1 || echo 0
	exit
fi
if [ "\$*" = "kern.boottime" ]; then echo "kern.boottime: \$(cat "$D/boottime")"; exit; fi
exec "$BIN/ppslab-rut" ctl "$D/rut.sock" sysctl "\$@"
SH
cat >"$D/bin/reboot" <<SH
#!/bin/sh
echo reboot >"$D/power"
SH
cat >"$D/bin/crash" <<SH
#!/bin/sh
# a fault planted for a test: the delay is when it strikes, not a wait for anything
(sleep "\$1"; echo reboot >"$D/power") </dev/null >/dev/null 2>&1 &
SH
cat >"$D/bin/hang" <<SH
#!/bin/sh
# a fault planted for a test: the delay is when it strikes, not a wait for anything
(sleep "\$1"; echo hang >"$D/power") </dev/null >/dev/null 2>&1 &
SH
chmod 755 "$D/bin/sysctl" "$D/bin/reboot" "$D/bin/crash" "$D/bin/hang"
[ -p "$D/power" ] || mkfifo "$D/power"
# read-write: neither side's open blocks, and a reboot request waits in the pipe
exec 3<>"$D/power"

rut=0 sshd=0
halt() {
	[ "$sshd" -gt 0 ] && kill -TERM "$sshd" 2>/dev/null
	[ "$rut" -gt 0 ] && kill -INT "$rut" 2>/dev/null
	[ "$sshd" -gt 0 ] && wait "$sshd" 2>/dev/null
	[ "$rut" -gt 0 ] && wait "$rut" 2>/dev/null
	rut=0 sshd=0
}
trap 'halt; exit 0' TERM INT

# loader NAME DEFAULT: the value loader.conf gives NAME (NAME="V" or NAME=V)
loader() {
	local v
	v=$(sed -n "s/^[[:space:]]*${1//./\\.}[[:space:]]*=[[:space:]]*\"\{0,1\}\([^\"]*\)\"\{0,1\}[[:space:]]*\$/\1/p" \
		"$D/loader.conf" 2>/dev/null | tail -n 1)
	echo "${v:-$2}"
}

while :; do
	date +%s.%N >"$D/boottime"
	hz=$(loader kern.hz 1000)
	bm=$(loader kern.polling.burst_max 150)
	# forwarding off at boot unless rc.conf enables it (no rc.conf: on)
	fwd=()
	if [ -e "$D/rc.conf" ] && ! grep -q '^gateway_enable="YES"' "$D/rc.conf"; then
		echo 'deny ip from any to any' >"$D/noforward.rules"
		fwd=(--rules "$D/noforward.rules")
	fi
	rm -f "$D/rut.sock"
	# rings of 512 frames, as a NIC's: an overload is lost at once, not queued for
	# seconds, so a trial's test frames (not its warm-up's) come through
	"$BIN/ppslab-rut" -i afpacket:rut0,ring=v2,frames=512 -o afpacket:rut1,ring=v2,frames=512 \
		--kernel freebsd-14 --sysctl "kern.hz=$hz" \
		--burst-max "$bm" "${fwd[@]}" --ctl "$D/rut.sock" --json >"$D/rut.out" 2>"$D/rut.err" &
	rut=$!
	ready_wait "$rut" 30 "$D/rut.out" || echo "boot: ppslab-rut with kern.hz=$hz did not start: $(head -c 300 "$D/rut.err")" >&2
	"$SSHD" -D -e -f "$CFG" 2>>"$D/sshd.err" &
	sshd=$!
	echo up >"$D/state"
	# off until a reboot request; a trapped signal ends the read
	read -r req <&3 || { halt; exit 0; }
	halt
	if [ "$req" = hang ]; then   # dead until the power is cycled
		echo hung >"$D/state"
		while read -r req <&3 && [ "$req" != power ]; do :; done
	fi
	echo down >"$D/state"
	sleep "$(cat "$D/down_s" 2>/dev/null || echo 1)"   # the machine restarting
done
