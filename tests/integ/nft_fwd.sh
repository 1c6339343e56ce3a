#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# nft_fwd.sh — the hooks of t_run_ext.sh: the Linux kernel as an external router in a
# lab namespace, configured the way a profile's hooks configure a real box.
#   nft_fwd.sh setup LAB BINDIR   kernel forwarding on in LAB-rut, the lab's shield off
#   nft_fwd.sh rules NS N         N forward rules that never match, then accept
#   nft_fwd.sh read NS            the namespace's interface counters (JSON)
set -eu
case "$1" in
setup)
	"$3/ppslab" lab shield off --ns rut --name "$2" >/dev/null
	ip netns exec "$2-rut" sysctl -qw net.ipv4.ip_forward=1 ;;
rules)
	{
		echo "flush ruleset"
		echo "table inet ppslab_fw {"
		echo " chain forward {"
		echo "  type filter hook forward priority 0; policy drop;"
		for i in $(seq 0 $(($3 - 1))); do
			echo "  ip saddr 198.18.$((128 + i / 256)).$((i % 256)) drop"
		done
		echo "  accept"
		echo " }"
		echo "}"
	} | ip netns exec "$2" nft -f - ;;
read)
	ip -n "$2" -s -j link show ;;
*)
	echo "usage: nft_fwd.sh setup LAB BINDIR | rules NS N | read NS" >&2
	exit 64 ;;
esac
