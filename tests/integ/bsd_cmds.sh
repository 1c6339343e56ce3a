#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bsd_cmds.sh — the commands of the emulated FreeBSD router (bsd_router.sh), one script
# called by many names: bsd_router.sh links DIR/bin/NAME to it, the router's sshd puts
# DIR/bin first on its sessions' PATH, and the name it is called by says what it is.
# They act as FreeBSD 14's do, on the machine's state in DIR:
#   DIR/run/     runtime state, emptied at every boot: ifconfig's polling flags, the
#                ipfw module, net.inet.ip.forwarding
#   DIR/be/NAME/ boot environments (when DIR/be exists), each with its own
#                boot/loader.conf and its release in "version"; DIR/be.running is the
#                one that booted, DIR/be.next the one that boots next (bectl activate).
#                Without DIR/be the box has one environment: DIR/loader.conf, and its
#                release in DIR/version (14.1-RELEASE if absent)
#   DIR/rc.conf  /etc/rc.conf (read at boot: gateway_enable)
#   DIR/nopoll   the ports whose driver cannot poll (one a line): hardware, kept
#   DIR/rut.sock the forwarder's control socket, for sysctl and ipfw
# Commands:
#   sysctl [-n|-q] NAME[=VALUE]...   each argument on its own: kern.boottime from the
#       machine, net.inet.ip.forwarding from DIR/run, kern.polling.handlers the ports
#       that poll, net.inet.ip.fw.* unknown until ipfw is loaded, the rest from the
#       forwarder (which refuses to change kern.hz, a boot-time tunable)
#   ifconfig [-m] IF [polling|-polling]   the port's flags and options (POLLING when it
#       polls), -m its capabilities; polling on a port that cannot poll changes
#       nothing, as the driver ignores a capability it lacks
#   kldload ipfw / kldstat [-q] [-m ipfw]   loading ipfw turns the forwarder's firewall
#       on with its default rule 65535 deny (allow when the loader tunable
#       net.inet.ip.fw.default_to_accept is 1), as ipfw(4): the router's own traffic,
#       this ssh session too, is then denied until a rule allows ip from any to any
#   ipfw ARGS       the forwarder's ipfw (add, delete, flush, show, list, zero, -q FILE);
#       "ipfw: retrieving config failed" until the module is loaded
#   netstat -I IF [-n] [-W] [-d] [-b] [-w N [-q COUNT]]   the port's counters (the
#       kernel's counters of the namespace's interface) as FreeBSD prints them
#   bectl list [-H] | activate BE | mount BE [DIR] | umount BE   boot environments
#   sysrc [-f FILE] [-n] NAME[=VALUE]...   /etc/rc.conf by default; /boot/... is the
#       running boot environment's (the loader.conf a reboot reads)
#   freebsd-version [-k] [-u] [-r]   the running environment's release
#   uname [-a|-s|-r|-n|-m]   FreeBSD (DragonFly with a dragonfly kernel), that release
#   shutdown -r now / reboot   restart the machine (bsd_router.sh does it), and return
#   crash SECONDS / hang SECONDS  faults planted by tests (see bsd_router.sh)
set -u
me=${0##*/}
D=${0%/bin/*}
BIN=$(cat "$D/bin.env")
ctl() { "$BIN/ppslab-rut" ctl "$D/rut.sock" "$@"; }
mkdir -p "$D/run"

# the running boot environment's root ("" for the box with one environment)
be_root() { [ -d "$D/be" ] && echo "$D/be/$(cat "$D/be.running")"; }
loader_conf() { if [ -d "$D/be" ]; then echo "$(be_root)/boot/loader.conf"; else echo "$D/loader.conf"; fi; }
release() {
	local f=$D/version
	[ -d "$D/be" ] && f=$(be_root)/version
	cat "$f" 2>/dev/null || echo 14.1-RELEASE
}
ipfw_loaded() { [ -e "$D/run/ipfw" ]; }

# ipfw(4): once loaded, the router's own traffic passes only where a rule allows it
# (here: a rule "allow ip from any to any", or the default rule with
# default_to_accept); the gate is the namespace's input, the forwarder (AF_PACKET)
# sees its frames before it
gate() {
	local open=1
	if ipfw_loaded && [ "$(ctl sysctl -n net.inet.ip.fw.enable)" = 1 ] &&
		[ "$(ctl sysctl -n net.inet.ip.fw.default_to_accept)" = 0 ] &&
		! ctl ipfw list | grep -Eq '^[0-9]+ (allow|accept|pass|permit) ip from any to any$'; then
		open=0
	fi
	nft delete table inet bsd_ipfw 2>/dev/null
	[ $open = 1 ] || nft -f - <<-NFT
	table inet bsd_ipfw {
		chain input { type filter hook input priority 0; policy accept; iifname != "lo" drop; }
	}
	NFT
}

c_sysctl() {
	local flags=() a rc=0 st
	while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do flags+=("$1"); shift; done
	local n=0
	for f in "${flags[@]}"; do [ "$f" = -n ] && n=1; done
	for a in "$@"; do
		case $a in
		kern.boottime)
			[ $n = 1 ] && cat "$D/boottime" || echo "kern.boottime: $(cat "$D/boottime")" ;;
		net.inet.ip.forwarding)
			[ $n = 1 ] && cat "$D/run/forwarding" || echo "net.inet.ip.forwarding: $(cat "$D/run/forwarding")" ;;
		net.inet.ip.forwarding=*)
			local old new=${a#*=}
			old=$(cat "$D/run/forwarding")
			# forwarding off is the forwarder's firewall denying all (bsd_router.sh)
			if [ "$new" = 1 ] && [ "$old" = 0 ] && ! ipfw_loaded; then
				ctl sysctl -q net.inet.ip.fw.enable=0 || { rc=1; continue; }
			fi
			echo "$new" >"$D/run/forwarding"
			echo "net.inet.ip.forwarding: $old -> $new" ;;
		net.inet6.ip6.forwarding)   # kept only: the forwarder forwards IPv6 whatever it says
			local f6
			f6=$(cat "$D/run/forwarding6" 2>/dev/null || echo 0)
			[ $n = 1 ] && echo "$f6" || echo "net.inet6.ip6.forwarding: $f6" ;;
		net.inet6.ip6.forwarding=*)
			local o6
			o6=$(cat "$D/run/forwarding6" 2>/dev/null || echo 0)
			echo "${a#*=}" >"$D/run/forwarding6"
			echo "net.inet6.ip6.forwarding: $o6 -> ${a#*=}" ;;
		kern.polling.handlers)
			local h
			h=$(grep -c . "$D/run/polling" 2>/dev/null)
			[ $n = 1 ] && echo "${h:-0}" || echo "kern.polling.handlers: ${h:-0}" ;;
		net.inet.ip.fw.*)
			if ipfw_loaded; then
				ctl sysctl "${flags[@]}" "$a"; st=$?
				[ $st = 0 ] || rc=$st
				[ "${a#*=}" = "$a" ] || gate
			else
				echo "sysctl: unknown oid '${a%%=*}'" >&2
				rc=1
			fi ;;
		*)
			ctl sysctl "${flags[@]}" "$a"; st=$?
			[ $st = 0 ] || rc=$st ;;
		esac
	done
	return $rc
}

port_ok() { [ -e "/sys/class/net/$1" ] || { echo "ifconfig: interface $1 does not exist" >&2; return 1; }; }
polls() { grep -qx "$1" "$D/run/polling" 2>/dev/null; }
can_poll() { ! grep -qx "$1" "$D/nopoll" 2>/dev/null; }

c_ifconfig() {
	local m=0
	[ "${1:-}" = -m ] && { m=1; shift; }
	[ $# -ge 1 ] || { echo "usage: ifconfig [-m] interface [polling|-polling]" >&2; return 1; }
	local i=$1
	shift
	port_ok "$i" || return 1
	for w in "$@"; do
		case $w in
		polling)
			if can_poll "$i" && ! polls "$i"; then echo "$i" >>"$D/run/polling"; fi ;;
		-polling)
			if [ -e "$D/run/polling" ]; then
				grep -vx "$i" "$D/run/polling" >"$D/run/polling.new"
				mv "$D/run/polling.new" "$D/run/polling"
			fi ;;
		*) echo "ifconfig: $w: bad value (this router knows polling and -polling)" >&2; return 1 ;;
		esac
	done
	[ $# -eq 0 ] || return 0
	# as em(4) prints them: IFCAP_POLLING is 0x40
	local opts='9b<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,VLAN_HWCSUM>'
	polls "$i" && opts='db<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,POLLING,VLAN_HWCSUM>'
	echo "$i: flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 mtu 1500"
	echo "	options=${opts}"
	if [ $m = 1 ]; then
		local caps='9b<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,VLAN_HWCSUM>'
		can_poll "$i" && caps='db<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,POLLING,VLAN_HWCSUM>'
		echo "	capabilities=${caps}"
	fi
	echo "	ether $(cat "/sys/class/net/$i/address")"
	echo "	media: Ethernet autoselect (1000baseT <full-duplex>)"
	echo "	status: active"
}

c_kldload() {
	[ "${1:-}" = ipfw ] || { echo "kldload: can't load ${1:-}: No such file or directory" >&2; return 1; }
	if ipfw_loaded; then
		echo "kldload: can't load ipfw: module already loaded or in kernel" >&2
		return 1
	fi
	touch "$D/run/ipfw"
	ctl sysctl -q net.inet.ip.fw.enable=1 || return 1
	echo "ipfw2 (+ipv6) initialized, divert loadable, nat loadable, default to $(
		[ "$(ctl sysctl -n net.inet.ip.fw.default_to_accept)" = 1 ] && echo accept || echo deny), logging disabled" >&2
	gate
}

c_kldstat() {
	local q=0 mod=
	while [ $# -gt 0 ]; do
		case $1 in
		-q) q=1 ;;
		-m) mod=${2:-}; shift ;;
		*) echo "usage: kldstat [-q] [-m modname]" >&2; return 1 ;;
		esac
		shift
	done
	if [ -n "$mod" ]; then
		[ "$mod" = ipfw ] && ipfw_loaded || { [ $q = 1 ] || echo "kldstat: can't find module $mod: No such file or directory" >&2; return 1; }
		[ $q = 1 ] || printf 'Id  Refs Name\n%3d %4d %s\n' 300 1 ipfw
		return 0
	fi
	echo "Id Refs Address                Size Name"
	echo " 1   $(ipfw_loaded && echo 3 || echo 2) 0xffffffff80200000  1f3c6c0 kernel"
	ipfw_loaded && echo " 2    1 0xffffffff82a00000    33a90 ipfw.ko"
	return 0
}

c_ipfw() {
	if ! ipfw_loaded; then
		echo "ipfw: retrieving config failed: Protocol not available" >&2
		return 71
	fi
	ctl ipfw "$@"
	local rc=$?
	gate
	return $rc
}

# netstat -I IF: FreeBSD's interface line, from the namespace's counters of IF
c_netstat() {
	local i= w=0 q=0
	while [ $# -gt 0 ]; do
		case $1 in
		-I) i=${2:-}; shift ;;
		-w) w=${2:-}; shift ;;
		-q) q=${2:-}; shift ;;
		-b | -n | -W | -d | -h) ;;   # bytes are always shown
		*) echo "netstat: this router knows -I IF [-n] [-W] [-d] [-b] [-w N [-q COUNT]]" >&2; return 1 ;;
		esac
		shift
	done
	[ -n "$i" ] || { echo "netstat: -I IF needed" >&2; return 1; }
	local s=/sys/class/net/$i/statistics
	[ -d "$s" ] || { echo "netstat: $i: no such interface" >&2; return 1; }
	rd() { cat "$s/$1"; }
	if [ "$w" = 0 ]; then
		printf '%-7s %5s %-13s %-17s %14s %5s %5s %14s %5s %5s %5s\n' Name Mtu Network Address \
			Ipkts Ierrs Idrop Opkts Oerrs Coll Drop
		printf '%-7s %5s %-13s %-17s %14s %5s %5s %14s %5s %5s %5s\n' "$i" 1500 '<Link#1>' \
			"$(cat "/sys/class/net/$i/address")" "$(rd rx_packets)" "$(rd rx_errors)" \
			"$(rd rx_dropped)" "$(rd tx_packets)" "$(rd tx_errors)" 0 "$(rd tx_dropped)"
		return 0
	fi
	# -w N: a line of differences every N seconds (netstat's own pace), COUNT lines
	printf '%12s %5s %5s %10s %10s %5s %10s %5s\n' "input" "($i)" "" "" output "" "" ""
	printf '%10s %5s %5s %10s %10s %5s %10s %5s\n' packets errs idrops bytes packets errs bytes colls
	local n=0 p0=() p1=()
	p0=($(rd rx_packets) $(rd rx_errors) $(rd rx_dropped) $(rd rx_bytes) $(rd tx_packets) $(rd tx_errors) $(rd tx_bytes))
	while [ "$q" = 0 ] || [ $n -lt "$q" ]; do
		sleep "$w"
		p1=($(rd rx_packets) $(rd rx_errors) $(rd rx_dropped) $(rd rx_bytes) $(rd tx_packets) $(rd tx_errors) $(rd tx_bytes))
		printf '%10d %5d %5d %10d %10d %5d %10d %5d\n' $((p1[0] - p0[0])) $((p1[1] - p0[1])) \
			$((p1[2] - p0[2])) $((p1[3] - p0[3])) $((p1[4] - p0[4])) \
			$((p1[5] - p0[5])) $((p1[6] - p0[6])) 0
		p0=("${p1[@]}")
		n=$((n + 1))
	done
}

c_bectl() {
	[ -d "$D/be" ] || { echo "libbe_init(\"\") failed." >&2; return 1; }
	local v=${1:-}
	shift
	case $v in
	list)
		local h=0 run next
		[ "${1:-}" = -H ] && h=1
		run=$(cat "$D/be.running") next=$(cat "$D/be.next")
		[ $h = 1 ] || printf 'BE\tActive\tMountpoint\tSpace\tCreated\n'
		for b in $(ls "$D/be"); do
			local a= mp=-
			[ "$b" = "$run" ] && a=N
			[ "$b" = "$next" ] && a=${a}R
			[ "$b" = "$run" ] && mp=/
			[ -e "$D/be.mnt.$b" ] && mp=$(cat "$D/be.mnt.$b")
			printf '%s\t%s\t%s\t%s\t%s\n' "$b" "${a:--}" "$mp" 1.2G "2026-11-02 10:00"
		done ;;
	activate)
		[ -d "$D/be/${1:-/}" ] || { echo "failed to activate ${1:-}: the boot environment does not exist" >&2; return 1; }
		echo "$1" >"$D/be.next"
		echo "Successfully activated boot environment $1" ;;
	mount)
		local b=${1:-} mp=${2:-}
		[ -d "$D/be/$b" ] && [ -n "$b" ] || { echo "failed to mount $b: the boot environment does not exist" >&2; return 1; }
		[ -n "$mp" ] || mp=$(mktemp -d /tmp/be_mount.XXXXXX)
		[ -d "$mp" ] || { echo "failed to mount $b at $mp: no such directory" >&2; return 1; }
		# its file system at mp: the parts a router's scripts edit (boot/)
		ln -sfn "$D/be/$b/boot" "$mp/boot"
		echo "$mp" >"$D/be.mnt.$b"
		echo "$mp" ;;
	umount | unmount)
		local b=${1:-}
		[ -e "$D/be.mnt.$b" ] || { echo "failed to unmount $b: not mounted" >&2; return 1; }
		rm -f "$(cat "$D/be.mnt.$b")/boot" "$D/be.mnt.$b" ;;
	*)
		echo "usage: bectl list [-H] | activate BE | mount BE [DIR] | umount BE" >&2
		return 1 ;;
	esac
}

c_sysrc() {
	local f=$D/rc.conf n=0 rc=0
	while [ $# -gt 0 ]; do
		case $1 in
		-f) f=${2:-}; shift ;;
		-n) n=1 ;;
		-*) echo "sysrc: this router knows -f FILE and -n" >&2; return 1 ;;
		*) break ;;
		esac
		shift
	done
	# the router's own files: rc.conf, and /boot of the running boot environment
	case $f in
	/etc/rc.conf) f=$D/rc.conf ;;
	/boot/loader.conf) f=$(loader_conf) ;;
	/boot/*) [ -d "$D/be" ] && f=$(be_root)$f || { echo "sysrc: $f: not on this router" >&2; return 1; } ;;
	esac
	for a in "$@"; do
		local name=${a%%=*} old
		old=$(sed -n "s/^${name//./\\.}=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$f" 2>/dev/null | tail -n 1)
		if [ "$name" = "$a" ]; then
			if [ -z "$old" ] && ! grep -q "^${name//./\\.}=" "$f" 2>/dev/null; then
				echo "sysrc: unknown variable '$name'" >&2
				rc=1
				continue
			fi
			[ $n = 1 ] && echo "$old" || echo "$name: $old"
			continue
		fi
		local tmp
		tmp=$(mktemp "$f.XXXXXX") || return 1
		{ grep -v "^${name//./\\.}=" "$f" 2>/dev/null; printf '%s="%s"\n' "$name" "${a#*=}"; } >"$tmp"
		mv "$tmp" "$f"
		echo "$name: $old -> ${a#*=}"
	done
	return $rc
}

c_freebsd_version() {
	local r
	r=$(release)
	[ $# -gt 0 ] || { echo "$r"; return 0; }
	for a in "$@"; do
		case $a in
		-k | -r) echo "$r" ;;
		-u) echo "$r" ;;
		-ku | -uk) echo "$r"; echo "$r" ;;
		*) echo "usage: freebsd-version [-kru]" >&2; return 1 ;;
		esac
	done
}

c_uname() {
	local sys=FreeBSD r
	r=$(release)
	case $(cat "$D/kernel" 2>/dev/null) in dragonfly-*) sys=DragonFly ;; esac
	case ${1:--s} in
	-a) echo "$sys r2 $r $sys $r GENERIC amd64" ;;
	-s) echo "$sys" ;;
	-r) echo "$r" ;;
	-n) echo r2 ;;
	-m | -p) echo amd64 ;;
	*) echo "usage: uname [-amnprs]" >&2; return 1 ;;
	esac
}

c_shutdown() {
	[ "${1:-}" = -r ] || { echo "shutdown: this router knows shutdown -r now" >&2; return 1; }
	echo "Shutdown NOW!"
	echo reboot >"$D/power"
}

case $me in
sysctl) c_sysctl "$@" ;;
ifconfig) c_ifconfig "$@" ;;
kldload) c_kldload "$@" ;;
kldstat) c_kldstat "$@" ;;
ipfw) c_ipfw "$@" ;;
netstat) c_netstat "$@" ;;
bectl) c_bectl "$@" ;;
sysrc) c_sysrc "$@" ;;
freebsd-version) c_freebsd_version "$@" ;;
shutdown) c_shutdown "$@" ;;
uname) c_uname "$@" ;;
reboot) echo reboot >"$D/power" ;;
crash)   # a fault planted for a test: the delay is when it strikes, not a wait
	(sleep "$1"; echo reboot >"$D/power") </dev/null >/dev/null 2>&1 & ;;
hang)    # a fault planted for a test: the delay is when it strikes, not a wait
	(sleep "$1"; echo hang >"$D/power") </dev/null >/dev/null 2>&1 & ;;
*) echo "bsd_cmds.sh: called as $me, which this router does not know" >&2; exit 127 ;;
esac
