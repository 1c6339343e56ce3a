#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# nft_limit.sh — the router of t_run_stall.sh: the Linux kernel forwarding in the lab's
# router namespace behind a policer, as ipfw's dummynet pipes or hardware policers sit
# in front of the routers ppslab measures.
#   nft_limit.sh setup LAB BINDIR RATE BURST   forwarding on, the lab's shield off, and
#       forwarded frames beyond RATE per second (an allowance of BURST packets) dropped
set -eu
[ "$1" = setup ] && [ $# = 5 ] || { echo "usage: nft_limit.sh setup LAB BINDIR RATE BURST" >&2; exit 64; }
bash "$(dirname "$0")/nft_fwd.sh" setup "$2" "$3"
{
	echo "table inet ppslab_limit"
	echo "flush table inet ppslab_limit"
	echo "table inet ppslab_limit {"
	echo " chain forward {"
	echo "  type filter hook forward priority 0; policy accept;"
	echo "  limit rate over $4/second burst $5 packets counter drop"
	echo " }"
	echo "}"
} | ip netns exec "$2-rut" nft -f -
