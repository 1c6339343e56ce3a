#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ipfw-nomatch.sh N — on a FreeBSD/DragonFly router under test (profiles/three-box.json):
# replace the ruleset with N rules that never match the lab's test traffic, then rule
# 65000 allowing everything: the same set ppslab-rut loads for the rules axis with
# rules_kind "nomatch" (four shapes in turn, sources in 198.18.128.0/17, which the test
# traffic never uses), so every forwarded frame is checked against all N (RFC 2544
# section 11.4). Rules are numbered 1..N; above 64,999 rules they share the numbers
# 1..64,999 in order (ipfw keeps rules of one number in the order they were added), so
# every count up to the rules axis' 100,000 loads below the allow rule.
# The shipped templates do not need it: ppslab hands the router the same set on the
# rules hook's standard input (LAB.md). It is for a router driven by hand or by cron:
#   sh ipfw-nomatch.sh 10000
set -eu
n=${1:?usage: ipfw-nomatch.sh N}
case "$n" in *[!0-9]*|'') echo "ipfw-nomatch.sh: N must be a number, got '$n'" >&2; exit 64 ;; esac
if [ "$n" -gt 100000 ]; then
	echo "ipfw-nomatch.sh: at most 100000 rules, got $n" >&2
	exit 64
fi
f=$(mktemp /tmp/ipfw-nomatch.XXXXXX)
trap 'rm -f "$f"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	h=$((i % 32768)); b3=$((128 + h / 256)); b4=$((h % 256))
	if [ "$n" -le 64999 ]; then num=$((i + 1)); else num=$((1 + i * 64999 / n)); fi
	case $((i % 4)) in
	0) echo "add $num deny ip from 198.18.$b3.$b4 to any" ;;
	1) echo "add $num deny udp from 198.18.$b3.$b4 to any $((1024 + i % 50000))" ;;
	2) echo "add $num deny tcp from 198.18.$b3.0/24 to any" ;;
	3) echo "add $num deny icmp from 198.18.$b3.$b4 to any" ;;
	esac
	i=$((i + 1))
done >"$f"
echo "add 65000 allow ip from any to any" >>"$f"
ipfw -q flush
ipfw -q "$f"
