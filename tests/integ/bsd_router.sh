#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bsd_router.sh — a router that behaves like a remote FreeBSD box, for t_run_axes.sh and
# t_templates.sh:
# ppslab-rut forwarding with FreeBSD 14's polling (its poll clock is kern.hz, a
# boot-time tunable), an sshd to reach it by, and commands that act like FreeBSD's
# through the forwarder's control socket. Run in the router's namespace:
#
#   bsd_router.sh boot DIR BIN SSHD SSHD_CONFIG
#       the machine: links DIR/bin/NAME to bsd_cmds.sh for FreeBSD's sysctl, ifconfig,
#       kldload, kldstat, ipfw, netstat, bectl, sysrc, freebsd-version, uname, shutdown
#       and reboot (the sshd's sessions find them first on their PATH; what each does:
#       bsd_cmds.sh), then boots: a new DIR/boottime, runtime state (DIR/run) gone,
#       the boot environment DIR/be.next (if DIR/be exists) becomes the running one,
#       ppslab-rut with the kern.hz, kern.polling.burst_max and
#       net.inet.ip.fw.default_to_accept of its loader.conf (a kern.hz it refuses leaves
#       the box up without forwarding, like a kernel whose NIC driver failed) and the
#       polling of DIR/kernel (freebsd-14 by default; dragonfly-2.0 for a DragonFly box,
#       whose poll clock is kern.polling.pollhz) in the --mode of DIR/mode (poll unless
#       it exists), the sshd (none when SSHD is "-": a router reached only by local
#       hooks); waits for a restart; stops both, stays off DIR/down_s seconds (1 by
#       default) and boots again. DIR/state says "up" (after a boot) or "down". The
#       forwarder's output is DIR/rut.out, the previous boot's DIR/rut.prev.out (its
#       summary says when it stopped forwarding). SIGTERM stops everything.
#   Forwarding is off at boot when DIR/rc.conf exists without gateway_enable="YES":
#   the forwarder's firewall then denies everything until `sysctl
#   net.inet.ip.forwarding=1` (emulated so only while ipfw is not loaded).
#   crash SECONDS   the machine restarts by itself SECONDS from now (a kernel panic, a
#                   watchdog): nothing on it is told
#   hang SECONDS    the machine hangs SECONDS from now: forwarding and ssh stop, and it
#                   stays so until its power is cycled ("power" written to DIR/power,
#                   as a PDU would)
# What it does not emulate: the forwarder polls (or not) as DIR/kernel says, whatever
# ifconfig's polling flags (they change what ifconfig, sysctl kern.polling.handlers
# and the hooks reading them see); ipfw's gate for the router's own traffic knows only
# "allow ip from any to any" rules and the default rule.
set -u
cmd=${1:-}
case $cmd in
boot) ;;
*) echo "usage: bsd_router.sh boot DIR BIN SSHD SSHD_CONFIG" >&2; exit 64 ;;
esac
D=$2 BIN=$3 SSHD=$4 CFG=$5
. "$(dirname "$0")/../../scripts/ready.sh"
mkdir -p "$D/bin"
echo "$BIN" >"$D/bin.env"
for c in sysctl ifconfig kldload kldstat ipfw netstat bectl sysrc freebsd-version uname shutdown \
	reboot crash hang; do
	ln -sfn "$(cd "$(dirname "$0")" && pwd)/bsd_cmds.sh" "$D/bin/$c"
done
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

# loader NAME DEFAULT: the value the booting environment's loader.conf gives NAME
# (NAME="V" or NAME=V)
loader() {
	local v f=$D/loader.conf
	[ -d "$D/be" ] && f=$D/be/$(cat "$D/be.running")/boot/loader.conf
	v=$(sed -n "s/^[[:space:]]*${1//./\\.}[[:space:]]*=[[:space:]]*\"\{0,1\}\([^\"]*\)\"\{0,1\}[[:space:]]*\$/\1/p" \
		"$f" 2>/dev/null | tail -n 1)
	echo "${v:-$2}"
}

while :; do
	date +%s.%N >"$D/boottime"
	# a boot: runtime settings are gone, the activated environment runs
	rm -rf "$D/run"
	mkdir -p "$D/run"
	nft delete table inet bsd_ipfw 2>/dev/null
	[ -d "$D/be" ] && cp "$D/be.next" "$D/be.running"
	kernel=$(cat "$D/kernel" 2>/dev/null || echo freebsd-14)
	hz=$(loader kern.hz 1000)
	bm=$(loader kern.polling.burst_max 150)
	opts=(--kernel "$kernel" --burst-max "$bm"
	      --sysctl "net.inet.ip.fw.default_to_accept=$(loader net.inet.ip.fw.default_to_accept 0)")
	case $kernel in
	freebsd-*) opts+=(--sysctl "kern.hz=$hz") ;;
	esac
	[ -e "$D/mode" ] && opts+=(--mode "$(cat "$D/mode")")
	# forwarding off at boot unless rc.conf enables it (no rc.conf: on)
	echo 1 >"$D/run/forwarding"
	if [ -e "$D/rc.conf" ] && ! grep -q '^gateway_enable="YES"' "$D/rc.conf"; then
		echo 'deny ip from any to any' >"$D/noforward.rules"
		opts+=(--rules "$D/noforward.rules")
		echo 0 >"$D/run/forwarding"
	fi
	rm -f "$D/rut.sock"
	[ -e "$D/rut.out" ] && mv -f "$D/rut.out" "$D/rut.prev.out"
	# rings of 512 frames, as a NIC's: an overload is lost at once, not queued for
	# seconds, so a trial's test frames (not its warm-up's) come through
	"$BIN/ppslab-rut" -i afpacket:rut0,ring=v2,frames=512 -o afpacket:rut1,ring=v2,frames=512 \
		"${opts[@]}" --ctl "$D/rut.sock" --json >"$D/rut.out" 2>"$D/rut.err" &
	rut=$!
	ready_wait "$rut" 30 "$D/rut.out" || echo "boot: ppslab-rut (${opts[*]}) did not start: $(head -c 300 "$D/rut.err")" >&2
	if [ "$SSHD" != - ]; then
		"$SSHD" -D -e -f "$CFG" 2>>"$D/sshd.err" &
		sshd=$!
	fi
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
