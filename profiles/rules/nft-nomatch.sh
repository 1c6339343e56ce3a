#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# nft-nomatch.sh N — on a Linux router under test (profiles/three-box-linux.json):
# replace the ruleset with a forward chain of N rules that never match the lab's test
# traffic (sources in 198.18.128.0/17), then accept: the nftables twin of ppslab-rut's
# "nomatch" rule sets, so every forwarded frame is checked against all N.
set -eu
n=${1:?usage: nft-nomatch.sh N}
case "$n" in *[!0-9]*) echo "nft-nomatch.sh: N must be a number, got '$n'" >&2; exit 64 ;; esac
{
	echo "flush ruleset"
	echo "table inet ppslab_fw {"
	echo " chain forward {"
	echo "  type filter hook forward priority 0; policy drop;"
	i=0
	while [ "$i" -lt "$n" ]; do
		h=$((i % 32768))
		echo "  ip saddr 198.18.$((128 + h / 256)).$((h % 256)) drop"
		i=$((i + 1))
	done
	echo "  accept"
	echo " }"
	echo "}"
} | nft -f -
