#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# deps.sh check|install|install-test — the Debian packages ppslab builds and runs with.
# "check" prints one line naming what is missing and fails; "install" installs it
# with apt-get (as root), then checks again. Optional packages (libxdp-dev and
# libbpf-dev, for the xdp: port backend) are installed by "install" but never make
# "check" fail: without them the Makefile builds without that backend and says so.
# "install-test" also installs what only tests use: chromium, which renders the report
# page in tests/cli/t_report_page.sh (the test is skipped, with the reason, without it).
set -u
need_pkgs=""
opt_pkgs=""
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
have_cmd() { command -v "$1" >/dev/null 2>&1; }
missing() {
	need_pkgs=""
	have_cmd pkg-config || need_pkgs="$need_pkgs pkg-config"
	have_cmd cc || need_pkgs="$need_pkgs gcc"
	have_cmd make || need_pkgs="$need_pkgs make"
	have_pc libpcap || need_pkgs="$need_pkgs libpcap-dev"
	have_pc jansson || need_pkgs="$need_pkgs libjansson-dev"
	have_cmd libnet-config || need_pkgs="$need_pkgs libnet1-dev"
	have_cmd gnuplot || need_pkgs="$need_pkgs gnuplot-nox"
	have_cmd ip || need_pkgs="$need_pkgs iproute2"
	have_cmd nft || need_pkgs="$need_pkgs nftables"
	have_cmd jq || need_pkgs="$need_pkgs jq"
	opt_pkgs=""
	have_pc libxdp || opt_pkgs="$opt_pkgs libxdp-dev"
	have_pc libbpf || opt_pkgs="$opt_pkgs libbpf-dev"
	test_pkgs=""
	have_cmd chromium || test_pkgs="$test_pkgs chromium"
}
missing
case "${1:-check}" in
check)
	if [ -n "$need_pkgs" ]; then
		echo "ppslab: missing Debian packages:$need_pkgs (install: apt-get install$need_pkgs, or run 'make deps' as root)" >&2
		exit 1
	fi ;;
install|install-test)
	if [ "$1" = install-test ] && [ -n "$test_pkgs" ] && [ "$(id -u)" = 0 ]; then
		echo "ppslab: installing (optional, for tests)$test_pkgs"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $test_pkgs >/dev/null ||
			echo "ppslab: apt-get install$test_pkgs failed; the tests that need it are skipped" >&2
	fi
	if [ -n "$opt_pkgs" ] && [ "$(id -u)" = 0 ]; then
		echo "ppslab: installing (optional, for xdp: ports)$opt_pkgs"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $opt_pkgs >/dev/null ||
			echo "ppslab: apt-get install$opt_pkgs failed; building without xdp: ports" >&2
	fi
	if [ -n "$need_pkgs" ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "ppslab: missing Debian packages:$need_pkgs — run 'make deps' as root" >&2
			exit 1
		fi
		echo "ppslab: installing$need_pkgs"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need_pkgs >/dev/null ||
			{ echo "ppslab: apt-get install$need_pkgs failed" >&2; exit 1; }
		missing
		[ -z "$need_pkgs" ] || { echo "ppslab: still missing:$need_pkgs" >&2; exit 1; }
	fi ;;
*) echo "usage: deps.sh check|install|install-test" >&2; exit 64 ;;
esac
